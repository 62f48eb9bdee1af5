/**
 * Telemetry in HTTP mode, received by a real OTLP receiver on loopback: one server span per inbound
 * request (refused Hosts and unknown methods included), the MCP span and the instance call under it, 4xx
 * and 5xx statuses, the rate-limit refusal (inside a stateful session too), the refused Host's log line, the
 * pool and authentication metrics (a credential left unchecked for an hour, on a clock the test moves,
 * included); then what is never recorded (over HTTP and stdio), and a collector that goes away mid-run.
 */
import { request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  freePort,
  httpServer,
  httpServerAt,
  rpc,
  sim,
  stdioClient,
  until,
  type ForgeSim,
  type HttpServerProcess,
} from './harness.js';
import { ShiftedClock } from './clock.js';
import { OtlpReceiver, otlpEnv, type Span } from './otlp.js';

// Servers are spawned and exports awaited on a shared, loaded machine: generous limits, no timing asserted.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => {
  await s.close();
});

const bearer = (token: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${token}`,
  ...extra,
});
const call = (id: number, action: string, params: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'forge_execute_action', arguments: { action, params } },
});

/** A raw request with any method and Host header (fetch sets neither freely). */
function raw(url: string, method: string, path: string, host?: string): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: u.hostname, port: u.port, method, path, headers: host ? { host } : {} },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const serverSpans = (rx: OtlpReceiver) =>
  rx.spans.filter((sp) => sp.kind === 2 && 'http.request.method' in sp.attributes);

describe('HTTP mode', () => {
  let rx: OtlpReceiver;
  let server: HttpServerProcess;
  let origin: string;
  beforeAll(async () => {
    rx = await new OtlpReceiver().start();
    server = await httpServer(
      s,
      // One call per credential, refilled only after 1,000 s: the second call is refused however slow the machine.
      ['--max-http-clients=1', '--rate-limit-rps=0.001', '--rate-limit-burst=1'],
      otlpEnv(rx, { FORGE_MCP_AUTH_FAILURE_LIMIT: '2' }),
    );
    origin = new URL(server.url).origin;
    expect(await raw(server.url, 'GET', '/health')).toBe(200);
    expect(await raw(server.url, 'POST', '/mcp', 'rebound.example:80')).toBe(403);
    expect(await raw(server.url, 'PROPFIND', '/health')).toBeGreaterThan(0);
    expect(
      (await rpc(server.url, bearer(s.tokens.api), call(1, 'issue.list', { project_id: '1' }))).status,
    ).toBe(200);
    // The burst of one is spent: the next call is refused before any handler.
    expect(
      (await rpc(server.url, bearer(s.tokens.api), call(2, 'issue.list', { project_id: '1' }))).status,
    ).toBe(429);
    // A second credential pushes the first out of a pool of one.
    expect(
      (await rpc(server.url, bearer(s.tokens.readApi), call(3, 'issue.list', { project_id: '1' }))).status,
    ).toBe(200);
    // The pool's gauges are read at each export: wait for one taken while that entry is pooled, before the
    // refused tokens below go through the pool, so the assertion does not depend on when exports fall.
    await rx.until(
      () => rx.metric('forge_mcp.credential_pool.entries').some((p) => p.value === 1),
      60_000,
      'an export with one pooled entry',
    );
    // Two refused tokens from this address spend its failure budget.
    for (const t of ['glpat-refused-one-000000', 'glpat-refused-two-000000'])
      expect((await rpc(server.url, bearer(t), call(4, 'issue.list', { project_id: '1' }))).status).toBe(401);
    await rx.until(
      () =>
        rx.metrics.some((m) => m.name === 'forge_mcp.auth.blocks') &&
        rx.metrics.some((m) => m.name === 'forge_mcp.credential_pool.evictions') &&
        rx.spans.some((sp) => sp.attributes['forge_mcp.refusal_reason'] === 'rate_limited') &&
        rx.logs.some((l) => l.body === 'rate limited'),
      60_000,
      'the HTTP run',
    );
  });
  afterAll(async () => {
    await server.stop();
    await rx.stop();
  });

  it('a SERVER span per inbound request with method, url.scheme, network.protocol.name and status', () => {
    const health = serverSpans(rx).find(
      (sp) => sp.attributes['http.response.status_code'] === 200 && sp.name === 'GET',
    );
    expect(health).toBeDefined();
    expect(health!.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.scheme': 'http',
      'network.protocol.name': 'http',
    });
    expect(health!.parentSpanId).toBe('');
  });

  it('a refused Host still gets its span (opened before the host check); a 4xx leaves the status unset', () => {
    const refused = serverSpans(rx).find((sp) => sp.attributes['http.response.status_code'] === 403);
    expect(refused).toBeDefined();
    expect(refused!.status.code ?? 0).toBe(0);
    expect(rx.allBytes()).not.toContain('rebound.example');
  });

  it('an unknown method is recorded as _OTHER', () => {
    const other = serverSpans(rx).find((sp) => sp.attributes['http.request.method'] === '_OTHER');
    expect(other).toBeDefined();
    expect(other!.name).toBe('HTTP');
    expect(rx.allBytes()).not.toContain('PROPFIND');
  });

  it('the MCP span is a child of the HTTP span, and the instance call a child of the MCP span', () => {
    const mcp = rx.spans.find(
      (sp) =>
        sp.attributes['mcp.method.name'] === 'tools/call' &&
        sp.attributes['forge_mcp.action'] === 'issue.list' &&
        !sp.attributes['forge_mcp.refusal_reason'],
    )!;
    expect(mcp.attributes).toMatchObject({
      'network.transport': 'tcp',
      'gen_ai.tool.name': 'forge_execute_action',
    });
    // Stateless HTTP (the default) has no session: no span of this server carries mcp.session.id.
    expect(rx.spans.filter((sp) => 'mcp.session.id' in sp.attributes)).toEqual([]);
    const parent = rx.spans.find((sp) => sp.spanId === mcp.parentSpanId);
    expect(parent?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': 200,
    });
    const child = rx.spans.find((sp) => sp.parentSpanId === mcp.spanId);
    expect(child?.attributes).toMatchObject({
      'url.template': '/api/v4/projects/{project_id}/issues',
      'http.response.status_code': 200,
    });
    expect(new Set([parent!.traceId, mcp.traceId, child!.traceId]).size).toBe(1);
  });

  it('a rate-limited request is an MCP span with forge_mcp.refusal_reason rate_limited, and its WARN carries the trace', () => {
    const limited = rx.spans.find((sp) => sp.attributes['forge_mcp.refusal_reason'] === 'rate_limited')!;
    expect(limited.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'forge_execute_action',
      'network.transport': 'tcp',
      'error.type': '-42900',
    });
    const http = rx.spans.find((sp) => sp.spanId === limited.parentSpanId)!;
    expect(http.attributes['http.response.status_code']).toBe(429);
    const warn = rx.logs.find((l) => l.body === 'rate limited')!;
    expect(warn.severityText).toBe('WARN');
    expect(warn.traceId).toBe(http.traceId);
    expect(warn.spanId).toBe(http.spanId);
    // The credential digest written to stderr never leaves, under any key.
    const line = server
      .stderr()
      .split('\n')
      .find((l) => l.includes('"msg":"rate limited"'))!;
    const digest = (JSON.parse(line) as { credential: string }).credential;
    expect(digest).toMatch(/^[0-9a-f]{12}$/);
    expect(Object.keys(warn.attributes)).not.toContain('credential');
    expect(rx.allBytes()).not.toContain(digest);
  });

  it('metrics: HTTP server requests, the pool gauges, evictions by reason and auth blocks by reason', () => {
    const requests = rx.metric('http.server.request.duration');
    expect(rx.metrics.find((m) => m.name === 'http.server.request.duration')!.unit).toBe('s');
    // The HTTP semantic conventions' advised boundaries, in seconds.
    for (const p of requests)
      expect(p.bounds).toEqual([0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]);
    const refused = requests.filter((p) => p.attributes['http.response.status_code'] === 403);
    expect(refused.length).toBeGreaterThan(0);
    // A 4xx is no server error: no error.type on its metric.
    for (const p of refused) expect(p.attributes).not.toHaveProperty('error.type');
    const capacity = rx.metric('forge_mcp.credential_pool.capacity');
    expect(capacity.length).toBeGreaterThan(0);
    expect(capacity.every((p) => p.value === 1)).toBe(true);
    expect(rx.metric('forge_mcp.credential_pool.entries').some((p) => p.value === 1)).toBe(true);
    expect(rx.metric('forge_mcp.credential_pool.evictions').map((p) => p.attributes)).toContainEqual({
      reason: 'size_pressure',
    });
    expect(rx.metric('forge_mcp.auth.blocks').map((p) => [p.attributes, p.value])).toContainEqual([
      { reason: 'failure_lockout' },
      1,
    ]);
    // No session metric under stateless HTTP.
    expect(rx.metric('mcp.server.session.duration')).toHaveLength(0);
  });

  it('no exported byte holds a token the server was sent, held or refused', () => {
    const bytes = rx.allBytes();
    for (const token of [
      s.tokens.api,
      s.tokens.readApi,
      'glpat-refused-one-000000',
      'glpat-refused-two-000000',
    ])
      expect(bytes, token).not.toContain(token);
  });

  it('the exported WARN of the block names no client address under the default policy', async () => {
    await rx.until(() => rx.logs.some((l) => l.body === 'authentication budget spent: address blocked'));
    const block = rx.logs.find((l) => l.body === 'authentication budget spent: address blocked')!;
    expect(block.attributes).toMatchObject({ reason: 'failure_lockout' });
    expect(Object.keys(block.attributes)).not.toContain('address');
    expect(server.stderr()).toContain('"address":"127.0.0.1"');
    expect(origin).toMatch(/^http:/);
  });
});

describe('the client address in the log export', () => {
  const BLOCKED = 'authentication budget spent: address blocked';
  it.each([
    ['pseudonymous', 'leaves it out', undefined],
    ['full', 'exports it as client.address', '127.0.0.1'],
  ])('the %s identity policy %s', async (policy, _what, address) => {
    const rx = await new OtlpReceiver().start();
    const server = await httpServer(
      s,
      [],
      otlpEnv(rx, { FORGE_MCP_TELEMETRY_IDENTITY: policy, FORGE_MCP_AUTH_FAILURE_LIMIT: '1' }),
    );
    try {
      // One refused token spends this address's budget of one: the block's WARN names the address.
      const refused = await rpc(
        server.url,
        bearer('glpat-refused-once-000000'),
        call(1, 'issue.list', { project_id: '1' }),
      );
      expect(refused.status).toBe(401);
      await rx.until(() => rx.logs.some((l) => l.body === BLOCKED), 60_000, 'the block exported');
      const block = rx.logs.find((l) => l.body === BLOCKED)!;
      expect(Object.keys(block.attributes)).not.toContain('address');
      expect(block.attributes['client.address']).toBe(address);
      expect(server.stderr()).toContain('"address":"127.0.0.1"');
    } finally {
      await server.stop();
      await rx.stop();
    }
  });
});

describe('a refused Host', () => {
  const MESSAGE =
    'request refused: this Host is not served here; if clients reach the server by this name, set --public-url to the URL they use, or list the proxy in front of it in --trusted-proxies';
  /** A refused request with its own Host, path and a credential header (which no log line may name). */
  const refused = (url: string, host: string, path: string, token: string) =>
    new Promise<number>((resolve, reject) => {
      const u = new URL(url);
      const req = httpRequest(
        {
          host: u.hostname,
          port: u.port,
          method: 'POST',
          path,
          headers: { host, authorization: `Bearer ${token}` },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end();
    });
  const lines = (server: HttpServerProcess) =>
    server
      .stderr()
      .split('\n')
      .filter((l) => l.includes(`"msg":"${MESSAGE}"`))
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('leaves one WARN line on stderr per ten seconds naming the Host, address and path, with the count held back; the export keeps the record without the Host value', async () => {
    const rx = await new OtlpReceiver().start();
    const server = await httpServer(s, [], otlpEnv(rx));
    const token = 'glpat-refused-host-000000';
    // Longer than the 256 bytes a line keeps; its first part names the request.
    const long = `first-rebound-${'a'.repeat(300)}.example`;
    const host = 'burst-rebound.example:8080';
    try {
      let sent = 0;
      const send = async (h: string) => {
        expect(await refused(server.url, h, '/mcp?private_token=query-marker-refused', token)).toBe(403);
        sent++;
      };
      // A burst: the first is logged, the rest are held back and counted.
      await send(long);
      for (let i = 0; i < 4; i++) await send(host);
      // One more now and then until the next line falls due, ten seconds after the first.
      const until = Date.now() + 60_000;
      while (lines(server).length < 2) {
        if (Date.now() > until) throw new Error(`no second line: ${JSON.stringify(lines(server))}`);
        await new Promise((r) => setTimeout(r, 250));
        await send(host);
      }
      const [first, second, ...more] = lines(server);
      expect(more).toEqual([]);
      expect(first).toMatchObject({
        level: 'warn',
        host: long.slice(0, 256),
        address: '127.0.0.1',
        path: '/mcp',
        suppressed: 0,
      });
      expect(second).toMatchObject({ level: 'warn', host, address: '127.0.0.1', path: '/mcp' });
      // Every request between the two lines is counted on the second; they are ten seconds apart.
      expect(second!.suppressed).toBe(sent - 2);
      expect(sent - 2).toBeGreaterThanOrEqual(4);
      expect(Date.parse(String(second!.time)) - Date.parse(String(first!.time))).toBeGreaterThanOrEqual(
        9_990,
      );
      // No credential and no query string on stderr.
      expect(server.stderr()).not.toContain(token);
      expect(server.stderr()).not.toContain('query-marker-refused');
      // Both records are exported, with their message and fields, but the Host value leaves nowhere.
      await rx.until(() => rx.logs.filter((l) => l.body === MESSAGE).length >= 2, 60_000, 'both records');
      const exported = rx.logs.filter((l) => l.body === MESSAGE);
      expect(exported.map((l) => [l.severityText, l.attributes])).toEqual([
        ['WARN', { path: '/mcp', suppressed: 0 }],
        ['WARN', { path: '/mcp', suppressed: sent - 2 }],
      ]);
      const bytes = rx.allBytes();
      expect(bytes).toContain(MESSAGE);
      for (const value of ['rebound', long.slice(0, 256), host, token])
        expect(bytes, value).not.toContain(value);
    } finally {
      await server.stop();
      await rx.stop();
    }
  });
});

describe('pool evictions by reason', () => {
  it('forge_mcp.credential_pool.evictions counts rejected_credential, below_minimum, invalid_credential and idle under their reason', async () => {
    const rx = await new OtlpReceiver().start();
    const servers: HttpServerProcess[] = [];
    const serve = async (args: string[]) => {
      const server = await httpServer(s, args, otlpEnv(rx));
      servers.push(server);
      return server;
    };
    const status = async (server: HttpServerProcess, token: string) =>
      (await rpc(server.url, bearer(token), call(1, 'issue.list', { project_id: '1' }))).status;
    const revoke = async (token: string) => {
      const res = await fetch(`${s.url}/api/v4/personal_access_tokens/self`, {
        method: 'DELETE',
        headers: { 'private-token': token },
      });
      expect(res.status).toBe(204);
    };
    const counted = (reason: string) =>
      rx
        .metric('forge_mcp.credential_pool.evictions')
        .some((p) => p.attributes.reason === reason && p.value! >= 1);
    try {
      // A token revoked at the instance meets its 401 on the next call; a token with neither api nor read_api.
      const plain = await serve([]);
      const revoked = s.addToken({ kind: 'personal', scopes: ['api'] });
      expect(await status(plain, revoked)).toBe(200);
      await revoke(revoked);
      // Answered as a failed call (the instance refused the token); the entry ends.
      await status(plain, revoked);
      expect(await status(plain, s.tokens.noScope)).toBe(403);
      // Revalidation finds a revoked token.
      const revalidating = await serve(['--revalidate-interval=1s']);
      const invalid = s.addToken({ kind: 'personal', scopes: ['api'] });
      expect(await status(revalidating, invalid)).toBe(200);
      await revoke(invalid);
      // An entry left unused.
      const idling = await serve(['--pool-idle-timeout=1s']);
      expect(await status(idling, s.tokens.api)).toBe(200);
      const reasons = ['rejected_credential', 'below_minimum', 'invalid_credential', 'idle'];
      await rx.until(() => reasons.every(counted), 60_000, 'the four evictions');
      const seen = new Set(rx.metric('forge_mcp.credential_pool.evictions').map((p) => p.attributes.reason));
      expect([...seen].sort()).toEqual([...reasons].sort());
      for (const p of rx.metric('forge_mcp.credential_pool.evictions'))
        expect(Object.keys(p.attributes)).toEqual(['reason']);
    } finally {
      for (const server of servers) await server.stop();
      await rx.stop();
    }
  });
});

describe('a pooled credential left unchecked for an hour', () => {
  // The server's clock is moved forward by the test (clock.ts): the hour passes without being waited for.
  it.each([
    { how: 'revalidation off', args: ['--revalidate-interval=0'], failing: false },
    { how: 'every revalidation failing', args: ['--revalidate-interval=1s'], failing: true },
  ])(
    '$how: the entry leaves as stale_credential, exported as the eviction metric and its log record, no token in them',
    async ({ args, failing }) => {
      const rx = await new OtlpReceiver().start();
      const clock = new ShiftedClock();
      // No idle timeout: an entry unused for the hour would otherwise leave as idle first.
      const server = clock.of(
        await httpServerAt(s, ['--pool-idle-timeout=0', ...args], {
          ...otlpEnv(rx),
          ...clock.env(),
        }),
      );
      const token = s.addToken({ kind: 'personal', scopes: ['api'] });
      const checks = () => s.requests.filter((q) => q.path === '/api/v4/user' && q.token === token).length;
      const evicted = () => server.stderr().includes('"msg":"credential pool entry evicted"');
      const client = new Client({ name: 'stale', version: '1' });
      try {
        await client.connect(
          new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: bearer(token) } }),
        );
        const listIssues = () =>
          client.callTool({
            name: 'forge_execute_action',
            arguments: { action: 'issue.list', params: { project_id: '1' } },
          });
        expect((await listIssues()).isError).toBeFalsy();
        const opened = checks();
        if (failing) {
          // The instance stops answering the server's checks of this token (neither ok nor refused).
          s.fault({ path: '/api/v4/user', token, status: 500 });
          // Fifty-nine minutes unchecked: checks fail and the entry stays.
          await clock.forward(59 * 60_000);
          const seen = checks();
          await until(() => checks() >= seen + 2 || evicted(), 'two failing checks after 59 minutes');
          expect(evicted()).toBe(false);
          await clock.forward(2 * 60_000);
        } else {
          await clock.forward(61 * 60_000);
        }
        await rx.until(
          () =>
            rx.logs.some((l) => l.body === 'credential pool entry evicted') &&
            rx.metric('forge_mcp.credential_pool.evictions').some((p) => p.value === 1) &&
            rx.metric('forge_mcp.credential_pool.entries').at(-1)?.value === 0,
          90_000,
          'the stale_credential eviction',
        );
        const log = rx.logs.find((l) => l.body === 'credential pool entry evicted')!;
        expect(log.severityText).toBe('INFO');
        expect(log.attributes).toMatchObject({ reason: 'stale_credential', in_use: false, entries: 0 });
        expect(log.attributes.evictions).toMatchObject({
          stale_credential: 1,
          idle: 0,
          invalid_credential: 0,
        });
        expect(Object.keys(log.attributes).sort()).toEqual(['entries', 'evictions', 'in_use', 'reason']);
        for (const p of rx.metric('forge_mcp.credential_pool.evictions'))
          expect(p.attributes).toEqual({ reason: 'stale_credential' });
        expect(rx.allBytes()).not.toContain(token);
        // With revalidation off, nothing asked the instance about the token in the whole hour.
        if (!failing) expect(checks()).toBe(opened);
        // The server no longer holds the credential: its next call is checked anew at the instance.
        s.clearFaults();
        const before = checks();
        expect((await listIssues()).isError).toBeFalsy();
        expect(checks()).toBeGreaterThan(before);
      } finally {
        s.clearFaults();
        await client.close();
        await server.stop();
        await rx.stop();
      }
    },
    150_000,
  );
});

describe('the distinct-token budget', () => {
  it('an address that sends too many distinct refused tokens is forge_mcp.auth.blocks distinct_tokens', async () => {
    const rx = await new OtlpReceiver().start();
    const server = await httpServer(
      s,
      [],
      otlpEnv(rx, { FORGE_MCP_AUTH_FAILURE_LIMIT: '100', FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT: '2' }),
    );
    try {
      for (const t of ['glpat-distinct-one-00000', 'glpat-distinct-two-00000'])
        expect((await rpc(server.url, bearer(t), call(1, 'issue.list', { project_id: '1' }))).status).toBe(
          401,
        );
      expect(
        (
          await rpc(
            server.url,
            bearer('glpat-distinct-three-000'),
            call(1, 'issue.list', { project_id: '1' }),
          )
        ).status,
      ).toBe(429);
      await rx.until(() => rx.metric('forge_mcp.auth.blocks').length > 0, 60_000, 'the block');
      // Every export of the counter so far (cumulative): the one block, under distinct_tokens.
      for (const p of rx.metric('forge_mcp.auth.blocks'))
        expect([p.attributes, p.value]).toEqual([{ reason: 'distinct_tokens' }, 1]);
      expect(rx.metrics.find((m) => m.name === 'forge_mcp.auth.blocks')!.unit).toBe('{block}');
    } finally {
      await server.stop();
      await rx.stop();
    }
  });
});

describe('behind a trusted proxy', () => {
  it('a block that falls on the proxy itself is forge_mcp.auth.blocks transport_source; a forwarded client blocked is failure_lockout', async () => {
    const rx = await new OtlpReceiver().start();
    const server = await httpServer(
      s,
      ['--trusted-proxy-header=X-Forwarded-For', '--trusted-proxies=127.0.0.1'],
      otlpEnv(rx, { FORGE_MCP_AUTH_FAILURE_LIMIT: '2' }),
    );
    try {
      const refused = (token: string, forwarded: string) =>
        rpc(
          server.url,
          bearer(token, { 'x-forwarded-for': forwarded }),
          call(1, 'issue.list', { project_id: '1' }),
        );
      // A hop that is not an address names nobody: the proxy's own address (the transport source) is charged.
      for (const t of ['glpat-proxy-refused-1', 'glpat-proxy-refused-2'])
        expect((await refused(t, 'unknown')).status).toBe(401);
      // Now every request through the proxy that does not name a client is refused, and the instance is not asked.
      const before = s.requests.length;
      expect((await refused('glpat-proxy-refused-3', 'unknown')).status).toBe(429);
      expect(s.requests.length).toBe(before);
      // A client the proxy names still spends its own budget.
      for (const t of ['glpat-client-refused-1', 'glpat-client-refused-2'])
        expect((await refused(t, '198.51.100.7')).status).toBe(401);
      expect((await refused('glpat-client-refused-3', '198.51.100.7')).status).toBe(429);
      await rx.until(
        () =>
          ['transport_source', 'failure_lockout'].every((reason) =>
            rx.metric('forge_mcp.auth.blocks').some((p) => p.attributes.reason === reason),
          ),
        60_000,
        'both blocks',
      );
      const blocks = rx.metric('forge_mcp.auth.blocks');
      expect(blocks.map((p) => [p.attributes, p.value])).toContainEqual([{ reason: 'transport_source' }, 1]);
      expect(blocks.map((p) => [p.attributes, p.value])).toContainEqual([{ reason: 'failure_lockout' }, 1]);
      // Its WARN (the first of its ten seconds) says which budget was spent; no address leaves the process.
      await rx.until(() =>
        rx.logs.some(
          (l) =>
            l.body === 'authentication budget spent: address blocked' &&
            l.attributes.reason === 'transport_source',
        ),
      );
      const warn = rx.logs.find((l) => l.attributes.reason === 'transport_source')!;
      expect(warn.attributes).toMatchObject({ budget: 'failure_lockout' });
      expect(rx.allBytes()).not.toContain('198.51.100.7');
    } finally {
      await server.stop();
      await rx.stop();
    }
  });
});

describe('stateful sessions (--stateless=false)', () => {
  it('every span of the session carries mcp.session.id, and its end is an mcp.server.session.duration', async () => {
    const rx = await new OtlpReceiver().start();
    const server = await httpServer(s, ['--stateless=false'], otlpEnv(rx));
    try {
      const transport = new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: bearer(s.tokens.api) },
      });
      const client = new Client({ name: 'sessions', version: '1' });
      await client.connect(transport);
      const id = transport.sessionId!;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const r = await client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.list', params: { project_id: '1' } },
      });
      expect(r.isError).toBeFalsy();
      await transport.terminateSession();
      await client.close();
      await rx.until(
        () =>
          rx.spans.some((sp) => sp.attributes['mcp.method.name'] === 'tools/call') &&
          rx.metric('mcp.server.session.duration').length > 0,
      );
      const call = rx.spans.find((sp) => sp.attributes['mcp.method.name'] === 'tools/call')!;
      expect(call.attributes['mcp.session.id']).toBe(id);
      expect(rx.metric('mcp.server.session.duration')[0]!.attributes).toMatchObject({
        'network.transport': 'tcp',
      });
    } finally {
      await server.stop();
      await rx.stop();
    }
  });
});

describe('a rate-limited request of a stateful session', () => {
  it("its span carries the session's mcp.session.id like the session's other spans; an id the caller does not own is not recorded", async () => {
    const rx = await new OtlpReceiver().start();
    // One call per credential, refilled only after 1,000 s: the second is refused however slow the machine.
    const server = await httpServer(
      s,
      ['--stateless=false', '--rate-limit-rps=0.001', '--rate-limit-burst=1'],
      otlpEnv(rx),
    );
    const list = (id: number) => call(id, 'issue.list', { project_id: '1' });
    try {
      const transport = new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: bearer(s.tokens.api) },
      });
      const client = new Client({ name: 'limited-session', version: '1' });
      await client.connect(transport);
      const id = transport.sessionId!;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const tool = {
        name: 'forge_execute_action',
        arguments: { action: 'issue.list', params: { project_id: '1' } },
      };
      expect((await client.callTool(tool)).isError).toBeFalsy();
      // The burst of one is spent: the session's next call is refused before the session serves it.
      await expect(client.callTool(tool)).rejects.toThrow();
      // Another credential spends its own burst, then presents the first credential's session id.
      expect((await rpc(server.url, bearer(s.tokens.readApi), list(1))).status).toBe(200);
      const foreign = await rpc(server.url, bearer(s.tokens.readApi, { 'mcp-session-id': id }), list(2));
      expect(foreign.status).toBe(429);
      await client.close();
      const limited = () =>
        rx.spans.filter((sp) => sp.attributes['forge_mcp.refusal_reason'] === 'rate_limited');
      await rx.until(
        () =>
          limited().length === 2 &&
          rx.spans.some(
            (sp) =>
              sp.attributes['mcp.method.name'] === 'tools/call' && !sp.attributes['forge_mcp.refusal_reason'],
          ),
        60_000,
        'the calls and both refusals',
      );
      const served = rx.spans.filter(
        (sp) =>
          sp.attributes['mcp.method.name'] === 'tools/call' && !sp.attributes['forge_mcp.refusal_reason'],
      );
      // The session's own call and its refused one carry its id; the stateless call and the foreign refusal none.
      expect(served.map((sp) => sp.attributes['mcp.session.id'] ?? null).sort()).toEqual([id, null]);
      const sessionIds = limited().map((sp) => sp.attributes['mcp.session.id'] ?? null);
      expect(sessionIds.sort()).toEqual([id, null]);
      for (const sp of limited()) expect(sp.attributes['error.type']).toBe('-42900');
    } finally {
      await server.stop();
      await rx.stop();
    }
  });
});

describe('a 5xx answer marks the server span as an error', () => {
  it('an instance that cannot be reached makes the identity check 503: status ERROR, error.type 503', async () => {
    const rx = await new OtlpReceiver().start();
    const dead = { url: 'http://127.0.0.1:1' } as ForgeSim;
    const server = await httpServer(dead, [], otlpEnv(rx));
    try {
      const res = await rpc(server.url, bearer(s.tokens.api), call(1, 'issue.list', { project_id: '1' }));
      expect(res.status).toBe(503);
      await rx.until(() => serverSpans(rx).some((sp) => sp.attributes['http.response.status_code'] === 503));
      const span = serverSpans(rx).find((sp) => sp.attributes['http.response.status_code'] === 503)!;
      expect(span.status.code).toBe(2);
      expect(span.attributes['error.type']).toBe('503');
    } finally {
      await server.stop();
      await rx.stop();
    }
  });
});

describe('an instance call the server gives up', () => {
  it("a refused token's description, abandoned once /user refuses it, is recorded canceled, not timed out", async () => {
    const rx = await new OtlpReceiver().start();
    const server = await httpServer(s, [], otlpEnv(rx));
    const token = `refused-telemetry-${process.pid}`;
    const path = '/api/v4/personal_access_tokens/self';
    let open!: () => void;
    s.fault({ path, token, until: new Promise<void>((r) => (open = r)), times: 1 });
    try {
      const res = await rpc(server.url, bearer(token), call(1, 'issue.list', { project_id: '1' }));
      expect(res.status).toBe(401);
      // The server goes away from the description it was still waiting for.
      const t0 = Date.now();
      while (!s.requests.some((q) => q.token === token && q.path === path && q.abandoned)) {
        if (Date.now() - t0 > 60_000) throw new Error('the held description was not abandoned');
        await new Promise((r) => setTimeout(r, 20));
      }
      open();
      const instanceSpans = () => rx.spans.filter((sp) => sp.kind === 3);
      await rx.until(() => instanceSpans().some((sp) => sp.attributes['error.type'] === 'canceled'));
      // The refusal itself, and nothing taken for a slow instance.
      expect(instanceSpans().some((sp) => sp.attributes['http.response.status_code'] === 401)).toBe(true);
      expect(instanceSpans().filter((sp) => sp.attributes['error.type'] === 'timeout')).toEqual([]);
    } finally {
      s.clearFaults();
      await server.stop();
      await rx.stop();
    }
  });
});

describe('never recorded', () => {
  const ARG = 'argument-marker-7f3a91';
  const BODY = 'body-marker-c04d2e';
  const QUERY = 'query-marker-5b8e17';
  const HEADER = 'header-marker-92ad60';

  it('no exported byte holds the token, the tool arguments, the response body, resource contents or a full URL (HTTP and stdio)', async () => {
    const rx = await new OtlpReceiver().start();
    const port = new URL(s.url).port;
    const server = await httpServer(s, [], otlpEnv(rx, { FORGE_MCP_TELEMETRY_IDENTITY: 'full' }));
    try {
      // The created issue's title comes back in the response body, and again in the stdio listing.
      const created = await rpc(
        `${server.url}?token=${QUERY}`,
        bearer(s.tokens.api, { 'x-marker': HEADER }),
        call(1, 'issue.create', { project_id: '1', title: BODY, description: ARG }),
      );
      expect(created.status).toBe(200);
      const answer = await created.text();
      expect(answer).toContain(BODY);
      const iid = Number(/\\?"iid\\?":\s*(\d+)/.exec(answer)?.[1]);
      expect(iid).toBeGreaterThan(0);
      const c = await stdioClient(s, { env: otlpEnv(rx, { FORGE_MCP_TELEMETRY_IDENTITY: 'full' }) });
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.list', params: { project_id: '1', search: ARG } },
      });
      expect(JSON.stringify(r)).toContain(BODY);
      // The issue as a resource: its contents hold the title too.
      const read = await c.client.readResource({ uri: `forge://project/1/issue/${iid}` });
      expect(JSON.stringify(read.contents)).toContain(BODY);
      await c.client
        .callTool({ name: 'forge_execute_action', arguments: { action: 'isue.lst', params: {} } })
        .catch(() => undefined);
      await c.close();
      await rx.until(
        () =>
          rx.spans.filter((sp) => sp.attributes['mcp.method.name'] === 'tools/call').length >= 3 &&
          rx.spans.some((sp) => sp.attributes['mcp.method.name'] === 'resources/read') &&
          rx.logs.length > 0,
      );
    } finally {
      await server.stop();
      await rx.stop();
    }
    const bytes = rx.allBytes();
    expect(bytes.length).toBeGreaterThan(1000);
    for (const secret of [
      s.tokens.api,
      ARG,
      BODY,
      QUERY,
      HEADER,
      'Did you mean',
      `127.0.0.1:${port}/api`,
      '/projects/1/',
    ])
      expect(bytes, secret).not.toContain(secret);
    // What is recorded is there (the search above is not vacuous).
    expect(bytes).toContain('issue.create');
    expect(bytes).toContain('/api/v4/projects/{project_id}/issues');
  });
});

describe('a collector that goes away', () => {
  it('every call is still answered after the receiver dies, and the server says which variable to check', async () => {
    const rx = await new OtlpReceiver().start();
    const c = await stdioClient(s, { env: otlpEnv(rx) });
    const list = () =>
      c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.list', params: { project_id: '1' } },
      });
    for (let i = 0; i < 3; i++) expect((await list()).isError).toBeFalsy();
    await rx.until(() => rx.spans.some((sp: Span) => sp.attributes['mcp.method.name'] === 'tools/call'));
    await rx.stop();
    for (let i = 0; i < 5; i++) {
      const r = await list();
      expect(r.isError).toBeFalsy();
      expect(JSON.stringify(r.structuredContent ?? r.content)).toContain('iid');
    }
    // The batch after the stop fails: one WARN naming the variable.
    const until = Date.now() + 60_000;
    while (!/telemetry export of \w+ to .* failed/.test(c.stderr()) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 200));
    expect(c.stderr()).toMatch(/"level":"warn"[^\n]*check OTEL_EXPORTER_OTLP_ENDPOINT/);
    await c.close();
  });

  it('a collector down from the start: metric exports that time out are the same WARN naming the variable, never an ERROR', async () => {
    // A port nothing listens on: the exporter retries, and the metric reader gives up on each export.
    const c = await stdioClient(s, {
      env: {
        FORGE_MCP_TELEMETRY: 'true',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await freePort()}`,
        OTEL_METRIC_EXPORT_INTERVAL: '1000',
      },
    });
    try {
      await c.client.listTools();
      const warned = () =>
        c
          .stderr()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as { level: string; msg: string; signal?: string; reason?: string });
      const t0 = Date.now();
      while (!warned().some((l) => l.signal === 'metrics') && Date.now() - t0 < 60_000)
        await new Promise((r) => setTimeout(r, 200));
      const metrics = warned().find((l) => l.signal === 'metrics');
      expect(metrics?.level).toBe('warn');
      expect(metrics?.msg).toMatch(
        /^telemetry export of metrics to http:\/\/127\.0\.0\.1:\d+ failed; check OTEL_EXPORTER_OTLP_ENDPOINT/,
      );
      expect(warned().filter((l) => l.level === 'error')).toEqual([]);
    } finally {
      await c.close();
    }
  });
});
