/**
 * Telemetry over stdio, received by a real OTLP receiver on loopback (test/otlp.ts): the MCP request span
 * and its attributes, the instance call spans under it, the refusal reasons, the metrics in seconds with
 * no identity on them, the exported log records, and the identity policies with their keys and rotation.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  INITIALIZE,
  INITIALIZED,
  sim,
  stdioClient,
  stdioRaw,
  until,
  type Connected,
  type ForgeSim,
} from './harness.js';
import { OtlpReceiver, otlpEnv, type Span } from './otlp.js';

// Servers are spawned and exports awaited on a shared, loaded machine: generous limits, no timing asserted.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

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

const execute = (c: Connected, action: string, params: Record<string, unknown>) =>
  c.client.callTool({ name: 'forge_execute_action', arguments: { action, params } });

/** The spans of one server process: they share its service.instance-free resource, so tell them by trace. */
function mcpSpans(method: string, since: number): Span[] {
  return rx.spans.slice(since).filter((sp) => sp.attributes['mcp.method.name'] === method);
}

/** The bucket boundaries the semantic conventions advise, in seconds: MCP's for mcp.*, HTTP's for http.*. */
const MCP_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

const IDENTITY_KEYS = ['user.id', 'user.name', 'user.hash', 'mcp.resource.uri', 'forge_mcp.resource.ref'];

describe('stdio: spans, metrics and logs', () => {
  let c: Connected;
  let spansFrom = 0;
  let logsFrom = 0;
  let negotiated: string | undefined;
  beforeAll(async () => {
    spansFrom = rx.spans.length;
    logsFrom = rx.logs.length;
    c = await stdioClient(s, { env: otlpEnv(rx) });
    negotiated = c.client.getNegotiatedProtocolVersion();
    await execute(c, 'issue.list', { project_id: 'acme/widgets' });
    await c.client.callTool({ name: 'forge_no_such_tool', arguments: {} }).catch(() => undefined);
    await execute(c, 'nosuch.action', {});
    await execute(c, 'issue.list', { project_id: 'acme/widgets', no_such_param: 1 });
    await execute(c, 'project.delete', { project_id: 'acme/widgets' });
    await c.client.listTools();
    await c.close();
    const safe = await stdioClient(s, { env: otlpEnv(rx, { FORGE_MCP_SAFE_MODE: 'true' }) });
    await execute(safe, 'issue.create', { project_id: 'acme/widgets', title: 'blocked by safe mode' });
    await safe.close();
    const fine = await stdioClient(s, { env: otlpEnv(rx, { FORGE_TOKEN: s.tokens.fineGrained }) });
    await execute(fine, 'issue.create', { project_id: 'acme/widgets', title: 'not in the grant' });
    await fine.close();
    // A read_api token cannot write: refused for its scopes, a reason not among the six recorded.
    const reader = await stdioClient(s, { env: otlpEnv(rx, { FORGE_TOKEN: s.tokens.readApi }) });
    const scoped = await execute(reader, 'issue.create', { project_id: 'acme/widgets', title: 'no scope' });
    expect(scoped.isError).toBe(true);
    await reader.close();
    await rx.until(
      () =>
        mcpSpans('tools/call', spansFrom).length >= 8 &&
        rx.metrics.some((m) => m.name === 'mcp.server.session.duration'),
      60_000,
      'the stdio run',
    );
  });

  it('one SERVER span per MCP request, with the method, tool, action, domain, surface, transport and protocol version', () => {
    const calls = mcpSpans('tools/call', spansFrom);
    const list = calls.find(
      (sp) =>
        sp.attributes['forge_mcp.action'] === 'issue.list' && !sp.attributes['forge_mcp.refusal_reason'],
    );
    expect(list).toBeDefined();
    expect(list!.name).toBe('tools/call forge_execute_action');
    expect(list!.kind).toBe(2); // SERVER
    expect(list!.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'forge_execute_action',
      'forge_mcp.action': 'issue.list',
      'forge_mcp.domain': 'issue',
      'forge_mcp.tool_surface': 'dynamic',
      'network.transport': 'pipe',
    });
    expect(negotiated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(list!.attributes['mcp.protocol.version']).toBe(negotiated);
    expect(list!.status.code ?? 0).toBe(0);
    // Stateless of sessions over stdio: no mcp.session.id; never the JSON-RPC id.
    expect(Object.keys(list!.attributes)).not.toContain('mcp.session.id');
    expect(Object.keys(list!.attributes).some((k) => k.startsWith('jsonrpc'))).toBe(false);
    expect(mcpSpans('tools/list', spansFrom)).toHaveLength(1);
    expect(mcpSpans('initialize', spansFrom)).toHaveLength(4);
  });

  it('a child CLIENT span per instance call: method, host, port, status and url.template, never the URL', () => {
    const list = mcpSpans('tools/call', spansFrom).find(
      (sp) =>
        sp.attributes['forge_mcp.action'] === 'issue.list' && !sp.attributes['forge_mcp.refusal_reason'],
    )!;
    const children = rx.spans.filter((sp) => sp.parentSpanId === list.spanId);
    expect(children).toHaveLength(1);
    const call = children[0]!;
    expect(call.traceId).toBe(list.traceId);
    expect(call.kind).toBe(3); // CLIENT
    const port = Number(new URL(s.url).port);
    expect(call.attributes).toEqual({
      'http.request.method': 'GET',
      'server.address': '127.0.0.1',
      'server.port': port,
      'http.response.status_code': 200,
      'url.template': '/api/v4/projects/{project_id}/issues',
    });
    expect(call.name).toBe('GET /api/v4/projects/{project_id}/issues');
  });

  it('an unknown tool is _OTHER, with error.type and rpc.response.status_code, and an ERROR status', () => {
    const unknown = mcpSpans('tools/call', spansFrom).find(
      (sp) => sp.attributes['gen_ai.tool.name'] === '_OTHER',
    );
    expect(unknown).toBeDefined();
    expect(unknown!.name).toBe('tools/call _OTHER');
    expect(unknown!.attributes['error.type']).toBe('-32602');
    expect(unknown!.attributes['rpc.response.status_code']).toBe('-32602');
    expect(unknown!.status.code).toBe(2);
    expect(rx.allBytes()).not.toContain('forge_no_such_tool');
  });

  it('forge_mcp.refusal_reason names why the server refused: safe_mode, unknown_action, invalid_params, needs_confirmation, fine_grained', () => {
    const reasons = mcpSpans('tools/call', spansFrom).map((sp) => [
      sp.attributes['forge_mcp.action'],
      sp.attributes['forge_mcp.refusal_reason'],
    ]);
    expect(reasons).toContainEqual(['issue.create', 'safe_mode']);
    expect(reasons).toContainEqual([undefined, 'unknown_action']);
    expect(reasons).toContainEqual(['project.delete', 'needs_confirmation']);
    expect(reasons.filter(([, r]) => r === 'fine_grained')).toEqual([['issue.create', 'fine_grained']]);
    expect(reasons.filter(([, r]) => r === 'invalid_params')).toEqual([['issue.list', 'invalid_params']]);
    const allowed = [
      'safe_mode',
      'needs_confirmation',
      'invalid_params',
      'unknown_action',
      'rate_limited',
      'fine_grained',
    ];
    for (const [, r] of reasons) if (r !== undefined) expect(allowed).toContain(r);
    // The read_api token's refusal (the server's reason: its scopes) is a tool error with no refusal reason.
    const scoped = mcpSpans('tools/call', spansFrom).filter(
      (sp) =>
        sp.attributes['forge_mcp.action'] === 'issue.create' &&
        sp.attributes['error.type'] === 'tool_error' &&
        !('forge_mcp.refusal_reason' in sp.attributes),
    );
    expect(scoped).toHaveLength(1);
  });

  it('a refusal the tool surface answers itself carries the action it named, with its domain, on its span and its metric', () => {
    for (const [action, reason] of [
      ['issue.create', 'fine_grained'],
      ['issue.list', 'invalid_params'],
    ]) {
      const span = mcpSpans('tools/call', spansFrom).find(
        (sp) => sp.attributes['forge_mcp.refusal_reason'] === reason,
      );
      expect(span?.attributes, reason).toMatchObject({
        'forge_mcp.action': action,
        'forge_mcp.domain': 'issue',
        'error.type': 'tool_error',
      });
      const point = rx
        .metric('mcp.server.operation.duration')
        .find((p) => p.attributes['forge_mcp.refusal_reason'] === reason);
      expect(point?.attributes, reason).toMatchObject({
        'forge_mcp.action': action,
        'forge_mcp.domain': 'issue',
      });
    }
    // An action the catalogue does not have is never recorded as one.
    const unknown = mcpSpans('tools/call', spansFrom).find(
      (sp) => sp.attributes['forge_mcp.refusal_reason'] === 'unknown_action',
    )!;
    expect(Object.keys(unknown.attributes)).not.toContain('forge_mcp.action');
  });

  it('metrics in seconds: server operations, instance requests and the stdio session; _OTHER for the unknown tool', () => {
    for (const name of [
      'mcp.server.operation.duration',
      'http.client.request.duration',
      'mcp.server.session.duration',
    ]) {
      const m = rx.metrics.find((x) => x.name === name);
      expect(m, name).toBeDefined();
      expect(m!.unit).toBe('s');
      for (const p of m!.points)
        expect(p.bounds, name).toEqual(name.startsWith('mcp.') ? MCP_BUCKETS : HTTP_BUCKETS);
    }
    const ops = rx.metric('mcp.server.operation.duration');
    const toolNames = new Set(ops.map((p) => p.attributes['gen_ai.tool.name']).filter(Boolean));
    expect([...toolNames].sort()).toEqual(['_OTHER', 'forge_execute_action']);
    const list = ops.find(
      (p) => p.attributes['forge_mcp.action'] === 'issue.list' && !p.attributes['forge_mcp.refusal_reason'],
    );
    // Calls of a few milliseconds each: a duration in seconds is well under one.
    expect(list!.count).toBeGreaterThanOrEqual(1);
    expect(list!.sum!).toBeGreaterThan(0);
    expect(list!.sum! / list!.count!).toBeLessThan(10);
    const issues = '/api/v4/projects/{project_id}/issues';
    const requests = rx.metric('http.client.request.duration');
    const recorded = requests.filter((p) => p.attributes['url.template'] === issues);
    expect(recorded.length).toBeGreaterThan(0);
    // An instance request is recorded in seconds: its mean is no longer than the longest CLIENT span of the
    // same route (the same call, timed once); milliseconds would make it a thousand times longer.
    const longest = Math.max(
      ...rx.spans
        .filter((sp) => sp.kind === 3 && sp.attributes['url.template'] === issues)
        .map((sp) => Number(BigInt(sp.endTimeUnixNano) - BigInt(sp.startTimeUnixNano)) / 1e9),
    );
    expect(longest).toBeGreaterThan(0);
    for (const p of recorded) expect(p.sum! / p.count!).toBeLessThanOrEqual(longest + 1e-6);
  });

  it('log records from INFO up are exported, DEBUG ones are not, and under the default policy nobody is named', () => {
    const logs = rx.logs.slice(logsFrom);
    const serving = logs.find((l) => l.body === 'serving on stdio');
    expect(serving).toBeDefined();
    expect(serving!.severityText).toBe('INFO');
    expect(serving!.attributes).toMatchObject({ surface: 'dynamic', tier: 'ultimate' });
    for (const k of [...IDENTITY_KEYS, 'user', 'user_id'])
      expect(Object.keys(serving!.attributes)).not.toContain(k);
    // The per-call DEBUG line stays on stderr.
    expect(c.stderr()).toContain('"msg":"tools/call"');
    expect(logs.some((l) => l.body === 'tools/call')).toBe(false);
    expect(c.stderr()).toContain('"user":"alice"');
  });

  it('identity policy none records no caller on any span', () => {
    for (const sp of rx.spans.slice(spansFrom))
      for (const k of IDENTITY_KEYS) expect(Object.keys(sp.attributes)).not.toContain(k);
  });

  it('no span, log record or metric carries the JSON-RPC request id', () => {
    const keys = [
      ...rx.spans.flatMap((sp) => Object.keys(sp.attributes)),
      ...rx.logs.flatMap((l) => Object.keys(l.attributes)),
      ...rx.metrics.flatMap((m) => m.points.flatMap((p) => Object.keys(p.attributes))),
    ];
    expect(keys).toContain('mcp.method.name');
    expect(keys.filter((k) => k.startsWith('jsonrpc') || /request[._]?id/i.test(k))).toEqual([]);
  });
});

describe('error messages', () => {
  it('a WARN carrying an error message is exported without that message', async () => {
    const logsFrom = rx.logs.length;
    const c = stdioRaw(s, { ...otlpEnv(rx), FORGE_MCP_TIER: 'ultimate' });
    try {
      c.write(`${INITIALIZE}\n${INITIALIZED}\n`);
      await c.waitFor(1);
      // A response whose result is not an object: the SDK's schema refuses it, and its error is logged.
      c.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'x', result: 'not an object' })}\n`);
      await until(() => c.stderr().includes('"msg":"protocol error"'), 'the protocol error WARN');
    } finally {
      await c.close();
    }
    const line = c
      .stderr()
      .split('\n')
      .find((l) => l.includes('"msg":"protocol error"'))!;
    const message = (JSON.parse(line) as { err: string }).err;
    expect(message).toContain('invalid_union');
    await rx.until(() => rx.logs.slice(logsFrom).some((l) => l.body === 'protocol error'));
    const warn = rx.logs.slice(logsFrom).find((l) => l.body === 'protocol error')!;
    expect(warn.severityText).toBe('WARN');
    expect(Object.keys(warn.attributes)).not.toContain('err');
    expect(JSON.stringify(warn)).not.toContain('invalid_union');
  });
});

describe('stdio rate limit', () => {
  it('a call over the burst is one tools/call span with forge_mcp.refusal_reason rate_limited and network.transport pipe', async () => {
    const from = rx.spans.length;
    // One call, refilled only after 1,000 s: the second call is refused however slow the machine.
    const c = await stdioClient(s, {
      env: otlpEnv(rx, { FORGE_MCP_RATE_LIMIT_RPS: '0.001', FORGE_MCP_RATE_LIMIT_BURST: '1' }),
    });
    expect((await execute(c, 'issue.list', { project_id: '1' })).isError).toBeFalsy();
    await expect(execute(c, 'issue.list', { project_id: '1' })).rejects.toThrow(/rate limited/);
    await c.close();
    await rx.until(() => mcpSpans('tools/call', from).length >= 2 && rx.metrics.length > 0);
    const limited = mcpSpans('tools/call', from).filter(
      (sp) => sp.attributes['forge_mcp.refusal_reason'] === 'rate_limited',
    );
    expect(limited).toHaveLength(1);
    expect(limited[0]!.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'forge_execute_action',
      'network.transport': 'pipe',
      'error.type': '-42900',
      'rpc.response.status_code': '-42900',
    });
    await rx.until(() =>
      rx
        .metric('mcp.server.operation.duration')
        .some((p) => p.attributes['forge_mcp.refusal_reason'] === 'rate_limited'),
    );
    const points = rx
      .metric('mcp.server.operation.duration')
      .filter((p) => p.attributes['forge_mcp.refusal_reason'] === 'rate_limited');
    for (const p of points) expect(p.attributes['network.transport']).toBe('pipe');
  });
});

describe('identity policies', () => {
  const KEY = 'an operator identity key of some length';
  const derived = (info: string) =>
    Buffer.from(hkdfSync('sha256', Buffer.from(KEY), Buffer.alloc(0), info, 32));
  const hmac = (key: Buffer, v: string) => createHmac('sha256', key).update(v).digest('hex');
  const URI = 'forge://projects/acme%2Fwidgets/issues/1';

  /** Runs one stdio server with `env`, one tool call and one resources/read; returns its spans and logs. */
  async function run(env: Record<string, string>, calls = 1, pauseMs = 0) {
    const from = rx.spans.length;
    const logsFrom = rx.logs.length;
    const c = await stdioClient(s, { env: otlpEnv(rx, env) });
    for (let i = 0; i < calls; i++) {
      if (i && pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      await execute(c, 'issue.list', { project_id: 'acme/widgets' });
    }
    await c.client
      .request({ method: 'resources/read', params: { uri: URI } } as never)
      .catch(() => undefined);
    await c.close();
    await rx.until(
      () =>
        mcpSpans('tools/call', from).length >= calls &&
        mcpSpans('resources/read', from).length === 1 &&
        rx.logs.slice(logsFrom).some((l) => l.body === 'serving on stdio'),
    );
    return {
      calls: mcpSpans('tools/call', from),
      read: mcpSpans('resources/read', from)[0]!,
      serving: rx.logs.slice(logsFrom).find((l) => l.body === 'serving on stdio')!,
      stderr: c.stderr(),
    };
  }

  it('pseudonymous: user.hash and forge_mcp.resource.ref, HMAC-SHA256 under HKDF-SHA256 caller and resource keys', async () => {
    const r = await run({
      FORGE_MCP_TELEMETRY_IDENTITY: 'pseudonymous',
      FORGE_MCP_TELEMETRY_IDENTITY_KEY: KEY,
    });
    const callerKey = derived('forge-mcp-server telemetry caller');
    const resourceKey = derived('forge-mcp-server telemetry resource');
    expect(r.calls[0]!.attributes['user.hash']).toBe(hmac(callerKey, 'id:2'));
    expect(r.read.attributes['forge_mcp.resource.ref']).toBe(hmac(resourceKey, URI));
    // Two keys: the same input never gives the same pseudonym in both roles.
    expect(hmac(callerKey, URI)).not.toBe(r.read.attributes['forge_mcp.resource.ref']);
    for (const k of ['user.id', 'user.name', 'mcp.resource.uri'])
      expect(Object.keys(r.calls[0]!.attributes)).not.toContain(k);
    expect(r.serving.attributes['user.hash']).toBe(hmac(callerKey, 'id:2'));
    expect(Object.keys(r.serving.attributes)).not.toContain('user');
    expect(rx.allBytes()).not.toContain(URI);
    // stderr keeps the user fields.
    expect(r.stderr).toContain('"user":"alice"');
  });

  it('pseudonymous with no key: a new secret per process, so pseudonyms differ across restarts', async () => {
    const a = await run({ FORGE_MCP_TELEMETRY_IDENTITY: 'pseudonymous' }, 2);
    const b = await run({ FORGE_MCP_TELEMETRY_IDENTITY: 'pseudonymous' });
    const ha = a.calls.map((sp) => sp.attributes['user.hash']);
    expect(ha[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(ha[1]).toBe(ha[0]);
    expect(b.calls[0]!.attributes['user.hash']).not.toBe(ha[0]);
  });

  it('rotation: the generated secret changes with each period', async () => {
    const r = await run(
      { FORGE_MCP_TELEMETRY_IDENTITY: 'pseudonymous', FORGE_MCP_TELEMETRY_IDENTITY_ROTATION: '1s' },
      2,
      1_500,
    );
    const [first, second] = r.calls.map((sp) => sp.attributes['user.hash']);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(second).not.toBe(first);
  });

  it("rotation is ignored with a WARN when a key is set: the pseudonym stays the key's", async () => {
    const r = await run(
      {
        FORGE_MCP_TELEMETRY_IDENTITY: 'pseudonymous',
        FORGE_MCP_TELEMETRY_IDENTITY_KEY: KEY,
        FORGE_MCP_TELEMETRY_IDENTITY_ROTATION: '1s',
      },
      2,
      1_500,
    );
    const callerKey = derived('forge-mcp-server telemetry caller');
    expect(r.calls.map((sp) => sp.attributes['user.hash'])).toEqual([
      hmac(callerKey, 'id:2'),
      hmac(callerKey, 'id:2'),
    ]);
    expect(r.stderr).toMatch(/"level":"warn".*FORGE_MCP_TELEMETRY_IDENTITY_ROTATION/);
    expect(r.stderr).not.toContain(KEY);
  });

  it('full: user.id, user.name and mcp.resource.uri on spans and logs, never on a metric', async () => {
    const r = await run({ FORGE_MCP_TELEMETRY_IDENTITY: 'full' });
    expect(r.calls[0]!.attributes).toMatchObject({ 'user.id': '2', 'user.name': 'alice' });
    expect(r.read.attributes['mcp.resource.uri']).toBe(URI);
    expect(r.serving.attributes).toMatchObject({ 'user.id': '2', 'user.name': 'alice' });
    await rx.until(() => rx.metrics.length > 0);
    // Every metric exported so far, by servers under all three policies: neither the identity attributes nor
    // their values (the user's name, a pseudonym) under any key.
    for (const m of rx.metrics)
      for (const p of m.points) {
        for (const k of [...IDENTITY_KEYS, 'user', 'user_id'])
          expect(Object.keys(p.attributes), m.name).not.toContain(k);
        for (const v of Object.values(p.attributes))
          expect(String(v), m.name).not.toMatch(/alice|^[0-9a-f]{64}$|forge:\/\//);
      }
  });
});

describe('client operations, prompts and tool names', () => {
  it('a confirmation asked of the client is an mcp.client.operation.duration in seconds; an unknown prompt is _OTHER', async () => {
    const from = rx.spans.length;
    let asked = 0;
    // The client takes at least this long to answer: a lower bound on both durations, whatever the machine's speed.
    const ANSWER_MS = 1_200;
    const c = await stdioClient(s, {
      // The meta surface asks the client to confirm a destructive action (the dynamic one never asks).
      env: otlpEnv(rx, { FORGE_MCP_TOOL_SURFACE: 'meta' }),
      onElicit: (() => {
        asked++;
        return new Promise((r) => setTimeout(() => r({ action: 'decline' }), ANSWER_MS));
      }) as never,
    });
    const r = await c.client.callTool({
      name: 'forge_project',
      arguments: { action: 'delete', params: { project_id: 'acme/widgets' } },
    });
    expect(r.isError).toBe(true);
    expect(asked).toBe(1);
    await c.client
      .request({ method: 'prompts/get', params: { name: 'no-such-prompt-31c9' } } as never)
      .catch(() => undefined);
    // A prompt the server offers keeps its name, even when its arguments are refused.
    await expect(
      c.client.request({ method: 'prompts/get', params: { name: 'review_mr', arguments: {} } } as never),
    ).rejects.toThrow(/review_mr needs the argument/);
    await c.close();
    await rx.until(
      () =>
        rx
          .metric('mcp.client.operation.duration')
          .some((p) => p.attributes['mcp.method.name'] === 'elicitation/create') &&
        mcpSpans('prompts/get', from).length === 2,
    );
    expect(rx.metrics.find((m) => m.name === 'mcp.client.operation.duration')!.unit).toBe('s');
    // Seconds, not milliseconds: the question took at least ANSWER_MS, and so did the call that asked it.
    const question = rx
      .metric('mcp.client.operation.duration')
      .find((p) => p.attributes['mcp.method.name'] === 'elicitation/create')!;
    expect(question.count).toBe(1);
    expect(question.sum!).toBeGreaterThanOrEqual(ANSWER_MS / 1000);
    expect(question.sum!).toBeLessThan(60);
    expect(question.bounds).toEqual(MCP_BUCKETS);
    const deletion = rx
      .metric('mcp.server.operation.duration')
      .find(
        (p) =>
          p.attributes['forge_mcp.action'] === 'project.delete' &&
          p.attributes['forge_mcp.tool_surface'] === 'meta',
      )!;
    expect(deletion.sum!).toBeGreaterThanOrEqual(ANSWER_MS / 1000);
    expect(deletion.sum!).toBeLessThan(60);
    const prompts = mcpSpans('prompts/get', from);
    expect(prompts.map((sp) => sp.attributes['gen_ai.prompt.name'])).toEqual(['_OTHER', 'review_mr']);
    expect(prompts.map((sp) => sp.name)).toEqual(['prompts/get _OTHER', 'prompts/get review_mr']);
    expect(prompts[1]!.attributes['error.type']).toBe('-32602');
    expect(
      rx
        .metric('mcp.server.operation.duration')
        .some(
          (p) =>
            p.attributes['mcp.method.name'] === 'prompts/get' &&
            p.attributes['gen_ai.prompt.name'] === '_OTHER',
        ),
    ).toBe(true);
    expect(rx.allBytes()).not.toContain('no-such-prompt-31c9');
  });

  it('a restatement asked of the client (sampling) is an mcp.client.operation.duration, with no token and no query', async () => {
    const QUERY = 'zzqx qqzx telemetry';
    // The client takes at least this long to answer: a lower bound on the duration, whatever the machine's speed.
    const ANSWER_MS = 1_200;
    const c = await stdioClient(s, { env: otlpEnv(rx), capabilities: { sampling: {} } });
    let asked = 0;
    c.client.setRequestHandler('sampling/createMessage', async () => {
      asked++;
      await new Promise((r) => setTimeout(r, ANSWER_MS));
      return { role: 'assistant', content: { type: 'text', text: 'list issues' }, model: 'm' } as never;
    });
    const r = await c.client.callTool({ name: 'forge_find_action', arguments: { query: QUERY } });
    expect((r.structuredContent as { restatedAs?: string }).restatedAs).toBe('list issues');
    expect(asked).toBe(1);
    await c.close();
    const sampled = () =>
      rx
        .metric('mcp.client.operation.duration')
        .find((p) => p.attributes['mcp.method.name'] === 'sampling/createMessage');
    await rx.until(() => !!sampled());
    expect(sampled()!.count).toBe(1);
    expect(sampled()!.sum!).toBeGreaterThanOrEqual(ANSWER_MS / 1000);
    expect(sampled()!.sum!).toBeLessThan(60);
    expect(sampled()!.attributes).toEqual({
      'mcp.method.name': 'sampling/createMessage',
      'network.transport': 'pipe',
    });
    for (const token of Object.values(s.tokens)) expect(rx.allBytes()).not.toContain(token);
    expect(rx.allBytes()).not.toContain(QUERY);
  });

  it('FORGE_MCP_TELEMETRY_TOOL_NAME=off records no tool name; on keeps an unknown name on the span, _OTHER on metrics', async () => {
    const run = async (setting: string) => {
      const from = rx.spans.length;
      const c = await stdioClient(s, { env: otlpEnv(rx, { FORGE_MCP_TELEMETRY_TOOL_NAME: setting }) });
      await execute(c, 'issue.list', { project_id: '1' });
      await c.client.callTool({ name: `forge_unknown_${setting}`, arguments: {} }).catch(() => undefined);
      await c.close();
      await rx.until(() => mcpSpans('tools/call', from).length === 2);
      return mcpSpans('tools/call', from);
    };
    const off = await run('off');
    for (const sp of off) expect(Object.keys(sp.attributes)).not.toContain('gen_ai.tool.name');
    expect(off.find((sp) => !sp.attributes['error.type'])!.attributes['forge_mcp.action']).toBe('issue.list');
    const on = await run('on');
    expect(on.map((sp) => sp.attributes['gen_ai.tool.name']).sort()).toEqual([
      'forge_execute_action',
      'forge_unknown_on',
    ]);
    await rx.until(() =>
      rx.metric('mcp.server.operation.duration').some((p) => p.attributes['gen_ai.tool.name'] === '_OTHER'),
    );
    expect(
      rx
        .metric('mcp.server.operation.duration')
        .some((p) => p.attributes['gen_ai.tool.name'] === 'forge_unknown_on'),
    ).toBe(false);
  });
});

describe('an instance call the instance refuses', () => {
  it('a 404 makes the CLIENT span and its metric carry error.type 404, and the span an ERROR status', async () => {
    const from = rx.spans.length;
    const c = await stdioClient(s, { env: otlpEnv(rx) });
    const r = await execute(c, 'issue.list', { project_id: 'nope/missing' });
    expect(r.isError).toBe(true);
    await c.close();
    const refused = () =>
      rx.spans.slice(from).find((sp) => sp.kind === 3 && sp.attributes['http.response.status_code'] === 404);
    await rx.until(() => refused() !== undefined, 60_000, 'the refused call');
    const call = refused()!;
    expect(call.attributes['error.type']).toBe('404');
    expect(call.status.code).toBe(2); // ERROR
    // The tools/call it served answered a tool error: error.type tool_error and an ERROR status.
    const served = rx.spans.find((sp) => sp.spanId === call.parentSpanId)!;
    expect(served.attributes).toMatchObject({ 'forge_mcp.action': 'issue.list', 'error.type': 'tool_error' });
    expect(served.status.code).toBe(2);
    await rx.until(
      () =>
        rx
          .metric('http.client.request.duration')
          .some((p) => p.attributes['http.response.status_code'] === 404),
      60_000,
      'the refused call metric',
    );
    const point = rx
      .metric('http.client.request.duration')
      .find((p) => p.attributes['http.response.status_code'] === 404)!;
    expect(point.attributes['error.type']).toBe('404');
  });
});
