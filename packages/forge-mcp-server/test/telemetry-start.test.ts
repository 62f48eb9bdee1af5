/**
 * Starting telemetry: nothing of it loads while it is off; the OTLP protocols (http/protobuf, its alias
 * http, grpc) reach a real receiver; bad OTEL_* input stops telemetry with one ERROR naming the variable
 * while serving continues; the plaintext-credential WARN; the identity key rule of FIPS-only mode; and the
 * server card's telemetry block.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { httpServer, rpc, runCli, sim, stdioClient, until, type ForgeSim } from './harness.js';
import { OtlpReceiver, otlpEnv } from './otlp.js';

// Servers are spawned and exports awaited on a shared, loaded machine: generous limits, no timing asserted.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const RECORD_LOADS = `--require ${join(FIXTURES, 'record-loads.cjs')}`;
const FIPS_ONLY = `--require ${join(FIXTURES, 'fips-only.cjs')}`;

let s: ForgeSim;
let rx: OtlpReceiver;
beforeAll(async () => {
  s = await sim();
  rx = await new OtlpReceiver().start();
});
afterAll(async () => {
  await rx.stop();
  await s.close();
});

/** One stdio server with `env`: one tool call, then closed; returns its stderr and whether the call worked. */
async function oneCall(env: Record<string, string>): Promise<{ stderr: string; ok: boolean; text: string }> {
  const c = await stdioClient(s, { env });
  const r = await c.client.callTool({
    name: 'forge_execute_action',
    arguments: { action: 'issue.list', params: { project_id: '1' } },
  });
  await c.close();
  return { stderr: c.stderr(), ok: !r.isError, text: JSON.stringify(r.content) };
}

const errorLines = (stderr: string) => stderr.split('\n').filter((l) => l.includes('"level":"error"'));

describe('loading', () => {
  it('with telemetry off nothing of OpenTelemetry is loaded; with it on the telemetry bundle is', async () => {
    // Off by default, even with a collector named in the standard variables.
    const before = rx.raw.length;
    const off = await oneCall({ NODE_OPTIONS: RECORD_LOADS, OTEL_EXPORTER_OTLP_ENDPOINT: rx.url });
    expect(off.ok).toBe(true);
    expect(off.stderr).not.toContain('LOADED');
    expect(off.stderr).not.toContain('telemetry export on');
    expect(rx.raw.length).toBe(before);
    const on = await oneCall(otlpEnv(rx, { NODE_OPTIONS: RECORD_LOADS }));
    expect(on.ok).toBe(true);
    expect(on.stderr).toContain('LOADED ./forge-mcp-telemetry.bundle.cjs');
    expect(on.stderr).toContain('telemetry export on');
    // The default protocol does not load the gRPC stack.
    expect(on.stderr).not.toContain('LOADED @grpc');
  });
});

describe('protocols', () => {
  it('by default every signal is POSTed as OTLP protobuf over HTTP (/v1/traces, /v1/metrics, /v1/logs)', async () => {
    const own = await new OtlpReceiver().start();
    try {
      const env = otlpEnv(own);
      expect(Object.keys(env).some((k) => k.endsWith('_PROTOCOL'))).toBe(false);
      expect((await oneCall(env)).ok).toBe(true);
      // Each signal arrives on its own path, decoded as protobuf (test/otlp.ts files it by path).
      await own.until(
        () =>
          own.spans.some((sp) => sp.attributes['mcp.method.name'] === 'tools/call') &&
          own.metrics.length > 0 &&
          own.logs.length > 0,
      );
      expect(own.errors).toEqual([]);
      expect(own.headers.length).toBeGreaterThanOrEqual(3);
      for (const h of own.headers) expect(h['content-type']).toBe('application/x-protobuf');
    } finally {
      await own.stop();
    }
  });

  it('http (an alias of http/protobuf) and grpc both reach a real receiver', async () => {
    const viaHttp = rx.spans.length;
    expect((await oneCall(otlpEnv(rx, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http' }))).ok).toBe(true);
    await rx.until(() =>
      rx.spans.slice(viaHttp).some((sp) => sp.attributes['mcp.method.name'] === 'tools/call'),
    );

    const grpc = await new OtlpReceiver().startGrpc();
    try {
      const { ok } = await oneCall(
        otlpEnv(grpc, { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_ENDPOINT: grpc.grpcUrl }),
      );
      expect(ok).toBe(true);
      await grpc.until(
        () =>
          grpc.spans.some((sp) => sp.attributes['mcp.method.name'] === 'tools/call') &&
          grpc.metrics.length > 0 &&
          grpc.logs.length > 0,
      );
    } finally {
      await grpc.stop();
    }
  });
});

describe('shutdown', () => {
  it('flushes what is buffered: spans, metrics and logs of a run shorter than every export interval arrive', async () => {
    const from = { spans: rx.spans.length, metrics: rx.metrics.length, logs: rx.logs.length };
    const { ok } = await oneCall(
      otlpEnv(rx, {
        OTEL_BSP_SCHEDULE_DELAY: '600000',
        OTEL_BLRP_SCHEDULE_DELAY: '600000',
        OTEL_METRIC_EXPORT_INTERVAL: '600000',
      }),
    );
    expect(ok).toBe(true);
    await rx.until(
      () =>
        rx.spans.slice(from.spans).some((sp) => sp.attributes['mcp.method.name'] === 'tools/call') &&
        rx.metrics.length > from.metrics &&
        rx.logs.length > from.logs,
    );
  });
});

describe('standard variables', () => {
  it('OTEL_EXPORTER_OTLP_CERTIFICATE: a collector behind TLS with its own CA is reached', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'otlp-tls-'));
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1'].concat([
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ]),
      { stdio: 'ignore' },
    );
    const secure = await new OtlpReceiver().start({
      cert: readFileSync(cert, 'utf8'),
      key: readFileSync(key, 'utf8'),
    });
    try {
      expect(secure.url).toMatch(/^https:/);
      const { ok } = await oneCall(otlpEnv(secure, { OTEL_EXPORTER_OTLP_CERTIFICATE: cert }));
      expect(ok).toBe(true);
      await secure.until(() => secure.spans.some((sp) => sp.attributes['mcp.method.name'] === 'tools/call'));
    } finally {
      await secure.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('OTEL_TRACES_SAMPLER=always_off: no spans, while metrics and logs still go', async () => {
    const from = { spans: rx.spans.length, metrics: rx.metrics.length, logs: rx.logs.length };
    const { ok } = await oneCall(otlpEnv(rx, { OTEL_TRACES_SAMPLER: 'always_off' }));
    expect(ok).toBe(true);
    await rx.until(() => rx.metrics.length > from.metrics && rx.logs.length > from.logs);
    expect(rx.spans.length).toBe(from.spans);
  });
});

describe('bad input: telemetry stops with one ERROR naming the variable, serving continues', () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    [
      'http/json',
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
      /OTEL_EXPORTER_OTLP_PROTOCOL=http\/json is not supported/,
    ],
    [
      'an unknown protocol',
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'carrier-pigeon' },
      /OTEL_EXPORTER_OTLP_PROTOCOL=\\"carrier-pigeon\\" is not an OTLP protocol/,
    ],
    [
      "a signal's own protocol",
      { OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/json' },
      /OTEL_EXPORTER_OTLP_METRICS_PROTOCOL=http\/json is not supported/,
    ],
    [
      'a malformed header list',
      { OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=hdr-secret-4471,not-a-pair' },
      /OTEL_EXPORTER_OTLP_HEADERS is malformed: entry 2 of 2 is not key=value/,
    ],
    [
      'an endpoint that is not a URL',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
      /OTEL_EXPORTER_OTLP_ENDPOINT is not an http/,
    ],
  ];
  for (const [what, env, message] of cases) {
    it(what, async () => {
      const from = rx.spans.length;
      const { stderr, ok } = await oneCall(otlpEnv(rx, env));
      expect(ok).toBe(true);
      const errors = errorLines(stderr);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(message);
      expect(errors[0]).toContain('telemetry is off; serving continues');
      expect(stderr).not.toContain('telemetry export on');
      expect(stderr).not.toContain('hdr-secret-4471');
      expect(rx.spans.length).toBe(from);
    });
  }

  it('an unreachable endpoint: calls are answered and a WARN names the variable to check', async () => {
    const c = await stdioClient(s, {
      env: otlpEnv(rx, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1' }),
    });
    try {
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.list', params: { project_id: '1' } },
      });
      expect(r.isError).toBeFalsy();
      const warned =
        /"level":"warn"[^\n]*telemetry export of \w+ to http:\/\/127\.0\.0\.1:1 failed; check OTEL_EXPORTER_OTLP_ENDPOINT/;
      const until = Date.now() + 60_000;
      while (!warned.test(c.stderr()) && Date.now() < until)
        await new Promise((done) => setTimeout(done, 200));
      expect(c.stderr()).toMatch(warned);
    } finally {
      await c.close();
    }
  });
});

describe('collector credentials', () => {
  const SECRET = 'collector-secret-9c41d7';

  it('a plaintext non-loopback endpoint with a credential warns once naming the signals, and never logs the credential', async () => {
    const { stderr, ok } = await oneCall(
      otlpEnv(rx, {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector.invalid:4318',
        OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${SECRET}`,
        OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'https://collector.invalid:4318/v1/logs',
      }),
    );
    expect(ok).toBe(true);
    const warnings = stderr.split('\n').filter((l) => l.includes('travels unencrypted'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('the collector endpoint for traces and metrics is plaintext');
    expect(stderr).not.toContain(SECRET);
  });

  it("the SDK's report of a refused export is logged with the collector's credential redacted", async () => {
    const refusing = await new OtlpReceiver().start();
    // A collector whose refusal repeats the Authorization header it was sent.
    refusing.refuseWith = (h) => `refused: ${String(h.authorization)}`;
    try {
      const c = await stdioClient(s, {
        env: otlpEnv(refusing, { OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${SECRET}` }),
      });
      try {
        await until(
          () => /telemetry export of \w+ to [^\n]* failed/.test(c.stderr()),
          'the export WARN',
          60_000,
        );
        expect(refusing.headers.some((h) => h.authorization === `Bearer ${SECRET}`)).toBe(true);
        const warn = c
          .stderr()
          .split('\n')
          .find((l) => /telemetry export of \w+ to/.test(l))!;
        expect(warn).toContain('"reason":"refused: [redacted]"');
        expect(c.stderr()).not.toContain(SECRET);
      } finally {
        await c.close();
      }
      expect(c.stderr()).not.toContain(SECRET);
    } finally {
      await refusing.stop();
    }
  });

  it('a credential written into an endpoint URL (user and password, a query) is logged nowhere: a failed export names the collector by scheme, host and port', async () => {
    const c = await stdioClient(s, {
      env: otlpEnv(rx, {
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://user:${SECRET}@127.0.0.1:1`,
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:1/v1/traces?key=${SECRET}`,
      }),
    });
    try {
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.list', params: { project_id: '1' } },
      });
      expect(r.isError).toBeFalsy();
      for (const signal of ['traces', 'metrics'])
        await until(
          () => c.stderr().includes(`telemetry export of ${signal} to http://127.0.0.1:1 failed`),
          `the ${signal} export WARN`,
          60_000,
        );
    } finally {
      await c.close();
    }
    expect(c.stderr()).not.toContain(SECRET);
  });

  it('no warning for a loopback or https collector', async () => {
    const { stderr } = await oneCall(
      otlpEnv(rx, { OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${SECRET}` }),
    );
    expect(stderr).not.toContain('travels unencrypted');
    expect(stderr).not.toContain(SECRET);
    // The credential did reach the collector, which is where it belongs, and only as a header: never in what
    // is exported.
    expect(rx.headers.some((h) => h.authorization === `Bearer ${SECRET}`)).toBe(true);
    expect(rx.allBytes()).not.toContain(SECRET);
  });
});

describe('FIPS-only mode', () => {
  // Node's bundled OpenSSL has no FIPS provider here, so fips-only.cjs makes crypto.getFips() report it.
  it('an identity key under 14 bytes refuses the start, naming the variable; nothing about callers is recorded', async () => {
    const from = rx.spans.length;
    const sent = s.requests.length;
    const r = await runCli([], {
      ...otlpEnv(rx, { FORGE_MCP_TELEMETRY_IDENTITY: 'pseudonymous' }),
      FORGE_URL: s.url,
      FORGE_TOKEN: s.tokens.api,
      FORGE_MCP_TELEMETRY_IDENTITY_KEY: 'thirteen-byte',
      NODE_OPTIONS: FIPS_ONLY,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('FORGE_MCP_TELEMETRY_IDENTITY_KEY is 13 bytes');
    expect(r.stderr).toContain('at least 14 bytes');
    expect(r.stderr).not.toContain('thirteen-byte');
    expect(s.requests.length).toBe(sent);
    expect(rx.spans.length).toBe(from);
  });

  it('a 14-byte key starts; outside FIPS-only mode a short key starts too', async () => {
    const fips = await oneCall(
      otlpEnv(rx, {
        FORGE_MCP_TELEMETRY_IDENTITY: 'pseudonymous',
        FORGE_MCP_TELEMETRY_IDENTITY_KEY: 'fourteen-bytes',
        NODE_OPTIONS: FIPS_ONLY,
      }),
    );
    expect(fips.stderr).toContain('"msg":"serving on stdio"');
    expect(fips.stderr).not.toContain('FORGE_MCP_TELEMETRY_IDENTITY_KEY is');
    const plain = await oneCall(
      otlpEnv(rx, {
        FORGE_MCP_TELEMETRY_IDENTITY: 'pseudonymous',
        FORGE_MCP_TELEMETRY_IDENTITY_KEY: 'short',
      }),
    );
    expect(plain.stderr).toContain('"msg":"serving on stdio"');
  });
});

describe('server card', () => {
  /** The card at its well-known path, and everything else the server publishes, as text. */
  const cardOf = async (env: Record<string, string>) => {
    const server = await httpServer(s, [], env);
    try {
      const text = await fetch(new URL('/.well-known/mcp/server-card.json', server.url)).then((r) =>
        r.text(),
      );
      const published = await Promise.all([
        fetch(new URL('/server-card', server.url)).then((r) => r.text()),
        fetch(new URL('/health', server.url)).then((r) => r.text()),
        rpc(
          server.url,
          { authorization: `Bearer ${s.tokens.api}` },
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '2025-11-25',
              capabilities: {},
              clientInfo: { name: 'card', version: '1' },
            },
          },
        ).then((r) => r.text()),
      ]);
      // Both paths serve the same card.
      expect(JSON.parse(published[0]!)).toEqual(JSON.parse(text));
      return { text, published: published.join('\n'), card: JSON.parse(text) as Record<string, unknown> };
    } finally {
      await server.stop();
    }
  };

  it('with telemetry on: enabled, signals, protocol, conventions, recorded and not_recorded; never the collector', async () => {
    const { text, published, card } = await cardOf(
      otlpEnv(rx, { FORGE_MCP_TELEMETRY_IDENTITY: 'pseudonymous' }),
    );
    const block = card.telemetry as Record<string, unknown>;
    expect(Object.keys(block).sort()).toEqual([
      'conventions',
      'enabled',
      'not_recorded',
      'protocol',
      'recorded',
      'signals',
    ]);
    expect(block.enabled).toBe(true);
    expect(block.signals).toEqual(['traces', 'metrics', 'logs']);
    for (const k of ['protocol', 'conventions', 'recorded', 'not_recorded'])
      expect(typeof block[k]).toBe('string');
    expect(block.protocol).toBe('OTLP/HTTP (protobuf)');
    expect(block.recorded).toContain('user.hash');
    expect(block.not_recorded).toContain('tool arguments');
    // The collector's address is in no card, answer or health report the server publishes.
    expect(published).toContain('"serverInfo"');
    for (const where of [text, published]) {
      expect(where).not.toContain(new URL(rx.url).host);
      expect(where).not.toContain(`:${new URL(rx.url).port}`);
    }
  });

  it("protocol names what each signal's OTLP protocol variable chose", async () => {
    const protocol = async (env: Record<string, string>) =>
      ((await cardOf(otlpEnv(rx, env))).card.telemetry as Record<string, unknown>).protocol;
    expect(await protocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toBe('OTLP/gRPC');
    expect(await protocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http' })).toBe('OTLP/HTTP (protobuf)');
    expect(await protocol({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' })).toBe(
      'OTLP/gRPC for traces; OTLP/HTTP (protobuf) for metrics and logs',
    );
  });

  it('absent when telemetry is off, and when it could not start', async () => {
    expect((await cardOf({})).card).not.toHaveProperty('telemetry');
    expect((await cardOf(otlpEnv(rx, { OTEL_SDK_DISABLED: 'true' }))).card).not.toHaveProperty('telemetry');
    expect((await cardOf(otlpEnv(rx, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }))).card).not.toHaveProperty(
      'telemetry',
    );
  });
});
