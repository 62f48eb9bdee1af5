/**
 * Resource subscriptions against forge-sim: resources/subscribe over real stdio and in stateful HTTP sessions
 * (2025 era), subscriptions/listen over loopback HTTP (2026-07-28), each seeing a change made elsewhere;
 * conditional polling; bad, excluded and minimal-surface subscriptions refused before anything reaches the
 * instance; the listen-stream ceilings (64 per credential, 512 per process); the rate limit; and the pool: a
 * live subscription keeps its entry, an eviction ends it, and a full pool of subscribed entries drops the
 * oldest (size_pressure_busy); keep-alives on idle listen and session streams, timed on the real server.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { OtlpReceiver, otlpEnv } from './otlp.js';
import {
  apiCalls,
  httpServer,
  rpc,
  sim,
  stdioClient,
  type Connected,
  type ForgeSim,
  type HttpServerProcess,
  until,
} from './harness.js';

let s: ForgeSim;
let server: HttpServerProcess | undefined;
const open: Array<{ close: () => Promise<void> }> = [];
beforeAll(async () => {
  s = await sim();
});
beforeEach(() => s.reset());
afterEach(async () => {
  for (const c of open.splice(0)) await c.close().catch(() => undefined);
  await server?.stop();
  server = undefined;
});
afterAll(async () => s.close());

const ISSUE = 'forge://project/1/issue/1';
/** Polls every second: a change is found within a second or two (waits below are generous, never asserted). */
const FAST = { FORGE_MCP_SUBSCRIPTION_POLL_INTERVAL: '1s' };

/** Resolves once `check` holds, re-checked on every event; fails naming what was awaited after a long wait. */
/** Changes issue 1 of project 1 at the instance directly, as someone in the web interface would. */
async function retitle(title: string, token = s.tokens.api) {
  const res = await fetch(`${s.url}/api/v4/projects/1/issues/1`, {
    method: 'PUT',
    headers: { 'private-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({ title }),
  });
  expect(res.status).toBe(200);
}

/** Changes issue 1 of project 1 through a client's execute tool, as its user would. */
async function retitleThrough(client: Client, title: string) {
  const r = await client.callTool({
    name: 'forge_execute_action',
    arguments: { action: 'issue.update', params: { project_id: '1', issue_iid: 1, title } },
  });
  expect(r.isError).toBeFalsy();
}

function updates(client: Client): string[] {
  const seen: string[] = [];
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    seen.push(n.params.uri);
  });
  return seen;
}

async function stdio(env: Record<string, string> = {}): Promise<Connected> {
  const c = await stdioClient(s, { env: { ...FAST, ...env } });
  open.push(c);
  return c;
}

async function rpcErrorOf(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (e) {
    return e as { code: number; message: string };
  }
  throw new Error('the request succeeded');
}

describe('resources/subscribe over stdio (2025 era)', () => {
  it('advertises subscribe and tells the client when a followed issue changes elsewhere, polling with If-None-Match', async () => {
    const c = await stdio();
    expect(c.client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    const seen = updates(c.client);
    await c.client.subscribeResource({ uri: ISSUE });
    const before = s.requests.length;
    // Unchanged: the instance answers the conditional polls 304.
    await until(
      () =>
        s.requests.slice(before).some((r) => r.path === '/api/v4/projects/1/issues/1' && r.status === 304),
      'a 304 to a conditional poll',
    );
    expect(seen).toEqual([]);
    const polled = s.requests.slice(before).find((r) => r.path === '/api/v4/projects/1/issues/1')!;
    expect(polled.headers['if-none-match']).toMatch(/^W\/"[0-9a-f]{32}"$/);

    // A change made through another session of the same user.
    const other = await stdio();
    await retitleThrough(other.client, 'Changed elsewhere');
    await until(() => seen.length > 0, 'notifications/resources/updated');
    expect(seen[0]).toBe(ISSUE);
    const now = await c.client.readResource({ uri: ISSUE });
    expect((now.contents[0] as { text: string }).text).toContain('Changed elsewhere');

    // Unsubscribed: a further change is not told.
    await c.client.unsubscribeResource({ uri: ISSUE });
    const count = seen.length;
    const mark = s.requests.length;
    await retitle('Changed again');
    // Another subscription's poll proves the poller ran after the change; the unsubscribed URI was not read.
    await c.client.subscribeResource({ uri: 'forge://project/1/issue/2' });
    await until(
      () => s.requests.slice(mark).filter((q) => q.path === '/api/v4/projects/1/issues/2').length >= 2,
      'a poll of the other subscription',
    );
    expect(
      s.requests.slice(mark).some((q) => q.method === 'GET' && q.path === '/api/v4/projects/1/issues/1'),
    ).toBe(false);
    expect(seen.length).toBe(count);
  });

  it('compares a digest of the contents where the instance gives no ETag', async () => {
    const plain = await sim({ etags: false });
    try {
      const c = await stdioClient(plain, { env: FAST });
      open.push(c);
      const seen = updates(c.client);
      await c.client.subscribeResource({ uri: ISSUE });
      const before = plain.requests.length;
      await until(
        () =>
          plain.requests.slice(before).filter((r) => r.path === '/api/v4/projects/1/issues/1').length >= 2,
        'two polls',
      );
      expect(seen).toEqual([]);
      expect(plain.requests.slice(before).every((r) => r.headers['if-none-match'] === undefined)).toBe(true);
      await fetch(`${plain.url}/api/v4/projects/1/issues/1`, {
        method: 'PUT',
        headers: { 'private-token': plain.tokens.api, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Digest sees this' }),
      });
      await until(() => seen.length > 0, 'notifications/resources/updated');
      expect(seen).toEqual([ISSUE]);
    } finally {
      await plain.close();
    }
  });

  it('refuses an unknown URI, an excluded action and a bad variable before anything reaches the instance', async () => {
    const c = await stdio({ FORGE_MCP_EXCLUDE_TOOLS: 'issue.get' });
    const before = apiCalls(s).length;
    const unknown = await rpcErrorOf(c.client.subscribeResource({ uri: 'forge://nothing/here' }));
    expect(unknown.message).toMatch(
      /Unknown resource forge:\/\/nothing\/here\. Send a URI from resources\/list/,
    );
    // The exclude list removes issue.get from subscriptions as it does from reads.
    const excluded = await rpcErrorOf(c.client.subscribeResource({ uri: ISSUE }));
    expect(excluded.message).toMatch(/Unknown resource forge:\/\/project\/1\/issue\/1/);
    const escape = await rpcErrorOf(
      c.client.subscribeResource({ uri: 'forge://project/1/file/main/..%2F..%2Fetc%2Fpasswd' }),
    );
    expect(escape.message).toMatch(/leaves its place in the path/);
    expect(apiCalls(s).slice(before)).toEqual([]);
    // What is not excluded is followed.
    await c.client.subscribeResource({ uri: 'forge://project/1/mr/1' });
  });

  it('a 2026-07-28 client listening over stdio is told of a change made elsewhere; an excluded resource is refused before the acknowledgement, nothing sent', async () => {
    const c = await stdioClient(s, {
      modern: true,
      env: { ...FAST, FORGE_MCP_EXCLUDE_TOOLS: 'merge_request.get' },
    });
    open.push(c);
    const seen = updates(c.client);
    const before = apiCalls(s).length;
    const excluded = await rpcErrorOf(c.client.listen({ resourceSubscriptions: ['forge://project/1/mr/1'] }));
    expect(excluded.message).toMatch(/Unknown resource forge:\/\/project\/1\/mr\/1/);
    expect(apiCalls(s).slice(before)).toEqual([]);
    // An issue the instance does not have: its first read is the listen's answer, as resources/read's would be.
    const missing = await rpcErrorOf(
      c.client.listen({ resourceSubscriptions: ['forge://project/1/issue/999'] }),
    );
    const read = await rpcErrorOf(c.client.readResource({ uri: 'forge://project/1/issue/999' }));
    expect(missing).toMatchObject({ code: read.code, message: read.message });
    const sub = await c.client.listen({ resourceSubscriptions: [ISSUE] });
    expect(sub.honoredFilter.resourceSubscriptions).toEqual([ISSUE]);
    // The version changes count from is read before anything changes.
    await until(
      () =>
        s.requests.slice(before).some((r) => r.method === 'GET' && r.path === '/api/v4/projects/1/issues/1'),
      'the first read of the listened issue',
    );
    await retitle('Changed while a stdio client listens');
    await until(() => seen.length > 0, 'notifications/resources/updated on the listen');
    expect(seen).toEqual([ISSUE]);
    // Cancelled: the issue is not read any more.
    await sub.close();
    const mark = s.requests.length;
    await new Promise((r) => setTimeout(r, 2500));
    expect(s.requests.slice(mark).filter((r) => r.path === '/api/v4/projects/1/issues/1')).toEqual([]);
  });

  it('offers no subscriptions on the minimal capability surface', async () => {
    const c = await stdio({ FORGE_MCP_CAPABILITY_SURFACE: 'minimal' });
    expect(c.client.getServerCapabilities()?.resources?.subscribe).toBeUndefined();
    const before = apiCalls(s).length;
    const e = await rpcErrorOf(
      c.client.request({ method: 'resources/subscribe', params: { uri: 'forge://tools' } }),
    );
    expect(e.message).toMatch(/FORGE_MCP_CAPABILITY_SURFACE=minimal, which offers no resource subscriptions/);
    expect(apiCalls(s).slice(before)).toEqual([]);
    // A 2026-07-28 client's listen is acknowledged with no resources, and nothing is read for it.
    const modern = await stdioClient(s, {
      modern: true,
      env: { ...FAST, FORGE_MCP_CAPABILITY_SURFACE: 'minimal' },
    });
    open.push(modern);
    const sub = await modern.client.listen({ resourceSubscriptions: [ISSUE] });
    expect(sub.honoredFilter.resourceSubscriptions).toBeUndefined();
    await new Promise((r) => setTimeout(r, 2500));
    expect(apiCalls(s).slice(before)).toEqual([]);
  });
});

const bearer = (token: string) => ({ requestInit: { headers: { authorization: `Bearer ${token}` } } });

/** A 2025-era client in a stateful session (its GET stream opened by the transport after initialize). */
async function sessionClient(token = s.tokens.api) {
  const client = new Client({ name: 'subscriber', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server!.url), bearer(token)));
  open.push(client);
  return client;
}

/** A 2026-07-28 client (stateless HTTP). */
async function modernClient(token = s.tokens.api) {
  const client = new Client(
    { name: 'listener', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(server!.url), bearer(token)));
  open.push(client);
  return client;
}

describe('resources/subscribe in a stateful HTTP session (2025 era)', () => {
  it("delivers notifications/resources/updated on the session's GET stream when another session changes the issue", async () => {
    server = await httpServer(s, ['--stateless=false'], FAST);
    const client = await sessionClient();
    expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    const seen = updates(client);
    await client.subscribeResource({ uri: ISSUE });
    // Another session of the same credential changes the issue with a tool call.
    const other = await sessionClient();
    await retitleThrough(other, 'From session two');
    await until(() => seen.length > 0, 'notifications/resources/updated on the GET stream');
    expect(seen).toEqual([ISSUE]);
  });

  it("tells a session of one credential of a change made by another credential's session through a tool call", async () => {
    server = await httpServer(s, ['--stateless=false'], FAST);
    const follower = await sessionClient(s.tokens.api);
    const seen = updates(follower);
    await follower.subscribeResource({ uri: ISSUE });
    const mark = s.requests.length;
    // Another person (another token with access to the project) edits the issue in a session of their own.
    const editor = await sessionClient(s.tokens.admin);
    await retitleThrough(editor, 'Edited by another credential');
    expect(s.requests.slice(mark).some((q) => q.method === 'PUT' && q.token === s.tokens.admin)).toBe(true);
    await until(() => seen.length > 0, 'notifications/resources/updated for the follower');
    expect(seen).toEqual([ISSUE]);
    const now = await follower.readResource({ uri: ISSUE });
    expect((now.contents[0] as { text: string }).text).toContain('Edited by another credential');
  });

  it('a session the client ends (DELETE) stops being polled for what it followed; another session still is', async () => {
    server = await httpServer(s, ['--stateless=false'], FAST);
    const transport = new StreamableHTTPClientTransport(new URL(server.url), bearer(s.tokens.api));
    const leaving = new Client({ name: 'leaving', version: '1' });
    await leaving.connect(transport);
    open.push(leaving);
    await leaving.subscribeResource({ uri: ISSUE });
    const witness = await sessionClient(s.tokens.admin);
    await witness.subscribeResource({ uri: 'forge://project/1/issue/2' });
    const polls = (from: number, token: string, path: string) =>
      s.requests.slice(from).filter((r) => r.token === token && r.method === 'GET' && r.path === path).length;
    await until(() => polls(0, s.tokens.api, '/api/v4/projects/1/issues/1') >= 2, 'the session polled');
    await transport.terminateSession();
    const mark = s.requests.length;
    await until(
      () => polls(mark, s.tokens.admin, '/api/v4/projects/1/issues/2') >= 3,
      "three polls of the other session's subscription",
    );
    expect(polls(mark, s.tokens.api, '/api/v4/projects/1/issues/1')).toBe(0);
  });

  it('answers a stateless 2025 request that subscribes with what to use instead', async () => {
    server = await httpServer(s, [], FAST);
    const client = new Client({ name: 'stateless', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), bearer(s.tokens.api)));
    open.push(client);
    const e = await rpcErrorOf(client.subscribeResource({ uri: ISSUE }));
    expect(e.message).toMatch(/--stateless=false.*or subscriptions\/listen/);
  });
});

describe('subscriptions/listen (2026-07-28)', () => {
  it("acknowledges the resources and delivers an update found by the poller to the listening credential's own streams", async () => {
    server = await httpServer(s, [], FAST);
    const client = await modernClient();
    const seen = updates(client);
    const sub = await client.listen({ resourceSubscriptions: [ISSUE] });
    expect(sub.honoredFilter.resourceSubscriptions).toEqual([ISSUE]);
    // Another credential follows the same issue: each credential's poll tells its own streams only, so each
    // hears of the change once.
    const admin = await modernClient(s.tokens.admin);
    const adminSeen = updates(admin);
    await admin.listen({ resourceSubscriptions: [ISSUE] });
    await retitle('Seen by both listeners');
    await until(
      () => seen.length > 0 && adminSeen.length > 0,
      'notifications/resources/updated on both streams',
    );
    // Two more polls of each credential after both were told: nothing further arrives.
    const mark = s.requests.length;
    const polls = (token: string) =>
      s.requests
        .slice(mark)
        .filter((r) => r.token === token && r.status === 304 && r.path.endsWith('/issues/1')).length;
    await until(
      () => polls(s.tokens.api) >= 2 && polls(s.tokens.admin) >= 2,
      'two more polls of each credential',
    );
    expect(seen).toEqual([ISSUE]);
    expect(adminSeen).toEqual([ISSUE]);
    await sub.close();
  });

  it('refuses an unknown or excluded resource before the stream opens, nothing sent to the instance', async () => {
    server = await httpServer(s, [], { ...FAST, FORGE_MCP_EXCLUDE_TOOLS: 'issue.get' });
    const client = await modernClient();
    const before = apiCalls(s).length;
    const unknown = await rpcErrorOf(client.listen({ resourceSubscriptions: ['forge://nothing/here'] }));
    expect(unknown.message).toMatch(/Unknown resource forge:\/\/nothing\/here/);
    const excluded = await rpcErrorOf(client.listen({ resourceSubscriptions: [ISSUE] }));
    expect(excluded.message).toMatch(/Unknown resource forge:\/\/project\/1\/issue\/1/);
    expect(apiCalls(s).slice(before)).toEqual([]);
  });

  it('acknowledges no resources on the minimal capability surface', async () => {
    server = await httpServer(s, [], { ...FAST, FORGE_MCP_CAPABILITY_SURFACE: 'minimal' });
    const client = await modernClient();
    const before = apiCalls(s).length;
    const sub = await client.listen({ resourceSubscriptions: [ISSUE] });
    expect(sub.honoredFilter.resourceSubscriptions).toBeUndefined();
    expect(await sub.closed).toBe('graceful');
    expect(apiCalls(s).slice(before)).toEqual([]);
  });
});

/** A subscriptions/listen request as a 2026-07-28 client sends it, for the status and body of a refusal. */
function rawListen(token: string) {
  return rpc(
    server!.url,
    {
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    },
    {
      jsonrpc: '2.0',
      id: 99,
      method: 'subscriptions/listen',
      params: {
        notifications: { resourceSubscriptions: [ISSUE] },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    },
  );
}

/** Whether `client` opens a listen again within ten seconds (a closed stream gives its place back shortly after). */
async function reopens(client: Client): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    const opened = await client.listen({ resourceSubscriptions: [ISSUE] }).then(
      () => true,
      () => false,
    );
    if (opened) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('listen-stream ceilings', () => {
  /** Opens `n` listen streams following the issue, all at once; resolves with their handles. */
  const listenMany = (client: Client, n: number) =>
    Promise.all(Array.from({ length: n }, () => client.listen({ resourceSubscriptions: [ISSUE] })));

  it('refuses the 65th stream of one credential (FORGE_MCP_MAX_LISTEN_STREAMS 64) while another credential still opens one', async () => {
    server = await httpServer(s, ['--rate-limit-rps=0'], FAST);
    const client = await modernClient();
    const subs = await listenMany(client, 64);
    const e = await rpcErrorOf(client.listen({ resourceSubscriptions: [ISSUE] }));
    const raw = await rawListen(s.tokens.api);
    expect(raw.status).toBe(429);
    expect(await raw.json()).toMatchObject({
      error: { code: -42900, data: { reason: 'listen_streams', limit: 64 } },
    });
    expect(e.message).toMatch(
      /too many listen streams: this credential already holds 64 open event streams \(FORGE_MCP_MAX_LISTEN_STREAMS=64\); close one before opening another/,
    );
    const other = await modernClient(s.tokens.admin);
    await other.listen({ resourceSubscriptions: [ISSUE] });
    // A stream closed gives its place back.
    await subs[0].close();
    expect(await reopens(client)).toBe(true);
  });

  it('over stdio the one credential holds FORGE_MCP_MAX_LISTEN_STREAMS listens: the next is refused with the same answer, a cancelled one gives its place back', async () => {
    const c = await stdioClient(s, { modern: true, env: { ...FAST, FORGE_MCP_MAX_LISTEN_STREAMS: '2' } });
    open.push(c);
    const first = await c.client.listen({ resourceSubscriptions: [ISSUE] });
    await c.client.listen({ toolsListChanged: true });
    const e = await rpcErrorOf(c.client.listen({ resourceSubscriptions: [ISSUE] }));
    expect(e.code).toBe(-42900);
    expect(e.message).toMatch(
      /too many listen streams: this credential already holds 2 open event streams \(FORGE_MCP_MAX_LISTEN_STREAMS=2\); close one before opening another/,
    );
    await first.close();
    expect(await reopens(c.client)).toBe(true);
  });

  it('with FORGE_MCP_MAX_LISTEN_STREAMS=0 one credential opens 512 streams and the 513th of the process is refused', async () => {
    server = await httpServer(s, ['--rate-limit-rps=0'], { ...FAST, FORGE_MCP_MAX_LISTEN_STREAMS: '0' });
    const client = await modernClient();
    const subs = await listenMany(client, 512);
    expect(subs).toHaveLength(512);
    const e = await rpcErrorOf(client.listen({ resourceSubscriptions: [ISSUE] }));
    const raw = await rawListen(s.tokens.api);
    expect(raw.status).toBe(503);
    expect(raw.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await raw.json()).toMatchObject({
      error: { code: -32603, data: { reason: 'listen_streams', limit: 512 } },
    });
    expect(e.message).toMatch(
      /server is busy: all 512 listen streams of this process are open; retry shortly/,
    );
    // The ceiling is the process's: another credential is refused too.
    const other = await modernClient(s.tokens.admin);
    const e2 = await rpcErrorOf(other.listen({ resourceSubscriptions: [ISSUE] }));
    expect(e2.message).toMatch(/all 512 listen streams of this process/);
  }, 180_000);
});

describe('subscriptions and the credential pool', () => {
  it('a full pool whose every entry serves a subscription drops the oldest (size_pressure_busy, WARN in_use=true), ending its stream; telemetry counts it under that reason', async () => {
    const rx = await new OtlpReceiver().start();
    onTestFinished(() => rx.stop());
    server = await httpServer(s, ['--max-http-clients=1'], { ...FAST, ...otlpEnv(rx) });
    const first = await modernClient();
    const sub = await first.listen({ resourceSubscriptions: [ISSUE] });
    const ended = sub.closed;
    // A second credential needs the only place: the subscribed entry goes anyway, and its stream ends.
    const second = await modernClient(s.tokens.admin);
    await second.listTools();
    expect(await ended).toBe('remote');
    const warn = server
      .stderr()
      .split('\n')
      .find((l) => l.includes('"reason":"size_pressure_busy"'));
    expect(warn).toBeDefined();
    expect(JSON.parse(warn!)).toMatchObject({
      level: 'warn',
      reason: 'size_pressure_busy',
      in_use: true,
      evictions: { size_pressure: 0, size_pressure_busy: 1 },
    });
    await rx.until(() => rx.metric('forge_mcp.credential_pool.evictions').length > 0);
    expect(rx.metric('forge_mcp.credential_pool.evictions').map((p) => p.attributes)).toContainEqual({
      reason: 'size_pressure_busy',
    });
  });

  it('a live subscription keeps its entry from idle eviction; the entry of a credential without one leaves', async () => {
    server = await httpServer(s, ['--pool-idle-timeout=1s'], FAST);
    const listener = await modernClient();
    const seen = updates(listener);
    await listener.listen({ resourceSubscriptions: [ISSUE] });
    // Used after the listener, so idle for less time than the listener's entry at every sweep.
    const passer = await modernClient(s.tokens.admin);
    await passer.listTools();
    await until(() => /"reason":"idle"/.test(server!.stderr()), 'the idle eviction of the other credential');
    expect(server.stderr().match(/"reason":"idle"/g)).toHaveLength(1);
    // The listener's entry is still there and its stream still hears changes.
    await retitle('Still listening');
    await until(() => seen.length > 0, 'notifications/resources/updated after the other entry left');
    expect(server.stderr().match(/"reason":"idle"/g)).toHaveLength(1);
  });

  it('evicting a credential (a call answered 401 naming the token) ends its session subscription and its listen stream', async () => {
    server = await httpServer(s, ['--stateless=false'], FAST);
    const token = s.addToken({ kind: 'personal', scopes: ['api'] });
    const listener = await modernClient(token);
    const sub = await listener.listen({ resourceSubscriptions: [ISSUE] });
    const session = await sessionClient(token);
    await session.subscribeResource({ uri: ISSUE });
    // The token is revoked at the instance; the next call's 401 names it and its pool entry is evicted.
    await fetch(`${s.url}/api/v4/personal_access_tokens/self`, {
      method: 'DELETE',
      headers: { 'private-token': token },
    });
    await listener.callTool({
      name: 'forge_execute_action',
      arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
    });
    expect(await sub.closed).toBe('remote');
    expect(server.stderr()).toMatch(/"reason":"rejected_credential"/);
    // Nothing of the credential is polled any more, while another credential's subscription still is.
    const witness = await modernClient(s.tokens.admin);
    await witness.listen({ resourceSubscriptions: [ISSUE] });
    const mark = s.requests.length;
    const polls = (t: string) =>
      s.requests
        .slice(mark)
        .filter((r) => r.token === t && r.method === 'GET' && r.path.endsWith('/issues/1')).length;
    await until(() => polls(s.tokens.admin) >= 3, 'three polls of the other credential');
    expect(polls(token)).toBe(0);
  });
});

describe('rate limit', () => {
  it('charges resources/subscribe and subscriptions/listen to the per-credential bucket', async () => {
    server = await httpServer(
      s,
      ['--stateless=false', '--rate-limit-rps=0.001', '--rate-limit-burst=2'],
      FAST,
    );
    const session = await sessionClient();
    await session.subscribeResource({ uri: ISSUE });
    await session.subscribeResource({ uri: 'forge://project/1/issue/2' });
    const e = await rpcErrorOf(session.subscribeResource({ uri: 'forge://project/1/issue/3' }));
    expect(e.message).toMatch(/rate limited: this credential is over its request rate/);
    const modern = await modernClient(s.tokens.admin);
    await modern.listen({ resourceSubscriptions: [ISSUE] });
    await modern.listen({ resourceSubscriptions: [ISSUE] });
    const e2 = await rpcErrorOf(modern.listen({ resourceSubscriptions: [ISSUE] }));
    expect(e2.message).toMatch(/rate limited: this credential is over its request rate/);
  });
});

/**
 * Records when each keep-alive comment of a streaming response arrives, in ms since `t0` (taken before the
 * request was sent, so a loaded machine can only make a keep-alive look later than it was sent, never earlier).
 */
function keepAlivesOf(res: Response, t0: number): { times: number[]; stop: () => Promise<void> } {
  const times: number[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      text += decoder.decode(value, { stream: true });
      for (let i = text.indexOf(': keepalive\n\n'); i >= 0; i = text.indexOf(': keepalive\n\n')) {
        times.push(Date.now() - t0);
        text = text.slice(i + ': keepalive\n\n'.length);
      }
    }
  })();
  return { times, stop: () => reader.cancel().catch(() => undefined) };
}

describe('keep-alives on idle event streams', () => {
  it('a subscriptions/listen stream and a stateful session GET stream each get their first keep-alive 25 s after opening, none sooner', async () => {
    server = await httpServer(s, []);
    const session = await httpServer(s, ['--stateless=false']);
    const streams: Array<{ times: number[]; stop: () => Promise<void> }> = [];
    try {
      const listenOpened = Date.now();
      const listen = await rawListen(s.tokens.api);
      expect(listen.status).toBe(200);
      expect(listen.headers.get('content-type')).toContain('text/event-stream');
      streams.push(keepAlivesOf(listen, listenOpened));

      const headers = {
        authorization: `Bearer ${s.tokens.api}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      };
      const init = await fetch(session.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'raw', version: '1' },
          },
        }),
      });
      const id = init.headers.get('mcp-session-id')!;
      expect(id).toBeTruthy();
      await init.text();
      const inSession = { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' };
      await fetch(session.url, {
        method: 'POST',
        headers: inSession,
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      }).then((r) => r.text());
      const getOpened = Date.now();
      const get = await fetch(session.url, {
        headers: { ...inSession, accept: 'text/event-stream' },
      });
      expect(get.status).toBe(200);
      streams.push(keepAlivesOf(get, getOpened));

      await until(() => streams.every((k) => k.times.length > 0), 'a keep-alive on each stream', 60_000);
      for (const k of streams) expect(k.times[0]).toBeGreaterThanOrEqual(24_900);
    } finally {
      for (const k of streams) await k.stop();
      await session.stop();
    }
  }, 90_000);
});
