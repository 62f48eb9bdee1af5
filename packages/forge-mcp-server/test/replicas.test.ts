/**
 * Three replicas acting as one through Redis (issue 18): the built server spawned three times in HTTP mode
 * with stateful sessions, OAuth mode and FORGE_MCP_REDIS_URL, sharing one redis-server this test starts and one
 * forge-sim, behind forge-sim's round-robin balancer on loopback, driven by the real client's Streamable
 * HTTP transport in session mode. A session is moved between replicas mid-stream and resumed with
 * Last-Event-ID, losing nothing; an address's spent authentication budget blocks it on every replica; a token
 * refused on one is refused on all without asking forge-sim again; a confirmation issued by one replica is
 * accepted by another; a replica killed mid-session leaves the client carrying on through the others; Redis
 * stopped makes every replica answer 503 with Retry-After, and restarted, every replica serves again.
 *
 * Skipped, saying why, only where no redis-server binary exists (CI installs one: .ci/redis.sh).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBalancer, type Balancer } from 'forge-sim';
import { httpServerAt, sim, type ForgeSim, type HttpServerAt, until } from './harness.js';
import { REDIS_SERVER, REDIS_SKIP_REASON, startRedis, type RedisServer } from './redis.js';

const PUBLIC = 'http://localhost:8125/mcp';
/** Failed authentications per address per window (small, so the budget test spends it quickly). */
const FAILURE_LIMIT = 3;

let s: ForgeSim;
let redis: RedisServer;
let lb: Balancer;
const replicas: HttpServerAt[] = [];

function replica(...extra: string[]): Promise<HttpServerAt> {
  return httpServerAt(
    s,
    [
      ...extra,
      '--stateless=false',
      `--redis-url=${redis.url}`,
      '--auth-mode=oauth',
      `--public-url=${PUBLIC}`,
      '--tool-surface=meta',
      '--trusted-proxy-header=X-Forwarded-For',
      '--trusted-proxies=127.0.0.1',
    ],
    { FORGE_MCP_AUTH_FAILURE_LIMIT: String(FAILURE_LIMIT) },
  );
}

const base = (r: HttpServerAt) => new URL(r.url).origin;

if (!REDIS_SERVER) console.warn(`replicas test skipped: ${REDIS_SKIP_REASON}`);

describe.skipIf(!REDIS_SERVER)('three replicas sharing Redis behind a round-robin balancer', () => {
  beforeAll(async () => {
    [s, redis] = await Promise.all([sim(), startRedis()]);
    replicas.push(...(await Promise.all([replica(), replica(), replica()])));
    lb = await startBalancer(replicas.map(base));
  }, 120_000);

  afterAll(async () => {
    await lb?.close();
    await Promise.all(replicas.map((r) => r.stop()));
    await redis?.stop();
    await s?.close();
  });

  it('move a session between replicas mid-stream: resumed with Last-Event-ID, the answer arrives and the call ran once', async () => {
    const { client, transport } = await sessionClient(s.tokens.oauth);
    const id = transport.sessionId!;
    const gate = opened();
    s.fault({ path: '/api/v4/projects/1/issues/1', until: gate.promise, times: 1 });
    const since = s.requests.length;
    const call = client.callTool({
      name: 'forge_issue',
      arguments: { action: 'get', params: { project_id: '1', issue_iid: 1 } },
    });
    await until(() => issueGets(since) === 1, 'the call to reach forge-sim');
    await resumeElsewhere(lb, id);
    lb.avoid.clear();
    gate.open();
    const r = await call;
    expect((r.structuredContent as { iid: number }).iid).toBe(1);
    expect(issueGets(since)).toBe(1);
    // The session carries on, wherever the balancer sends it.
    for (let i = 0; i < 3; i++) expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(transport.sessionId).toBe(id);
    await client.close();
  }, 60_000);

  /**
   * Two replicas with a 2 s session timeout (shorter than their 10 s Redis heartbeat) behind their own
   * balancer, a session opened through it, and a tools/call held at forge-sim until `gate` opens.
   */
  async function heldCallOnShortTimeout(
    run: (o: {
      short: Balancer;
      id: string;
      call: Promise<Awaited<ReturnType<Client['callTool']>>>;
      gate: ReturnType<typeof opened>;
      asked: () => number;
      /** Cuts the client's connections with the call's replica drained; resolves once resumed elsewhere. */
      resumeElsewhere: () => Promise<void>;
    }) => Promise<void>,
  ) {
    const pair = await Promise.all([replica('--session-timeout=2s'), replica('--session-timeout=2s')]);
    const short = await startBalancer(pair.map(base));
    try {
      const { client, transport } = await sessionClient(s.tokens.oauth, short);
      const id = transport.sessionId!;
      const gate = opened();
      s.fault({ path: '/api/v4/projects/1/issues/2', until: gate.promise, times: 1 });
      const since = s.requests.length;
      const asked = () =>
        s.requests.slice(since).filter((q) => q.method === 'GET' && q.path === '/api/v4/projects/1/issues/2')
          .length;
      const call = client.callTool({
        name: 'forge_issue',
        arguments: { action: 'get', params: { project_id: '1', issue_iid: 2 } },
      });
      await until(() => asked() === 1, 'the call to reach forge-sim');
      await run({ short, id, call, gate, asked, resumeElsewhere: () => resumeElsewhere(short, id) });
      const r = await call;
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect((r.structuredContent as { iid: number }).iid).toBe(2);
      expect(asked()).toBe(1);
      await client.close();
    } finally {
      await short.close();
      await Promise.all(pair.map((p) => p.stop()));
    }
  }

  it('resume elsewhere a call that has outlasted a short session timeout without an event: the answer arrives, the call ran once', async () => {
    // A call held at forge-sim for more than two timeouts keeps the session and its event log alive by itself,
    // so a stream resumed on the other replica after that still has a log to follow.
    await heldCallOnShortTimeout(async ({ gate, resumeElsewhere }) => {
      // Two and a half session timeouts with no event on the call's stream.
      await new Promise((r) => setTimeout(r, 5_000));
      await resumeElsewhere();
      gate.open();
    });
  }, 90_000);

  it('keep a stream resumed elsewhere open while its call outlasts three session timeouts without an event: the answer arrives, the call ran once', async () => {
    // The resumed stream waits on the other replica's answer, not on the session timeout: silence there is a
    // long call, not a replica gone.
    await heldCallOnShortTimeout(async ({ short, id, gate, resumeElsewhere }) => {
      await resumeElsewhere();
      const before = short.log.length;
      // Three session timeouts with no event on the resumed stream.
      await new Promise((r) => setTimeout(r, 6_000));
      // The resumed stream was never given up: the client did not have to resume it again.
      expect(short.log.slice(before).filter((e) => e.lastEventId && e.session === id)).toEqual([]);
      gate.open();
    });
  }, 90_000);

  it('block an address on every replica once its authentication budget is spent across them', async () => {
    const address = '203.0.113.7';
    const before = lb.log.length;
    const asked = (token: string) => s.requests.filter((q) => q.token === token).length;
    for (let i = 0; i < FAILURE_LIMIT; i++) {
      const res = await post(lb.url, { authorization: `Bearer refused-${i}`, 'x-forwarded-for': address });
      expect(res.status).toBe(401);
      expect(asked(`refused-${i}`)).toBeGreaterThan(0);
    }
    // The failures were spread over the replicas: no one of them saw enough to block on its own.
    expect(new Set(lb.log.slice(before).map((e) => e.backend)).size).toBeGreaterThan(1);
    for (const r of replicas) {
      const res = await post(r.url, {
        authorization: 'Bearer never-seen-before',
        'x-forwarded-for': address,
      });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // A blocked address reaches nothing: its token is never verified. (Counted by token, not as the instance's
    // whole request count: a refused token's own description, sent beside its identity check, may still be
    // landing after the 401.)
    expect(asked('never-seen-before')).toBe(0);
  });

  it('refuse a token refused on one replica on all, without asking forge-sim again', async () => {
    const headers = { authorization: `Bearer ${s.tokens.revoked}`, 'x-forwarded-for': '203.0.113.8' };
    const asked = () => s.requests.filter((q) => q.token === s.tokens.revoked).length;
    expect((await post(replicas[0]!.url, headers)).status).toBe(401);
    const once = asked();
    expect(once).toBeGreaterThan(0);
    for (const r of replicas.slice(1)) expect((await post(r.url, headers)).status).toBe(401);
    expect(asked()).toBe(once);
  });

  it('accept on one replica a confirmation another issued', async () => {
    const since = s.requests.length;
    const headers = {
      authorization: `Bearer ${s.tokens.oauth}`,
      'x-forwarded-for': '203.0.113.9',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'forge_issue',
    };
    const call = (id: number, extra: Record<string, unknown> = {}) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'forge_issue',
        arguments: { action: 'delete', params: { project_id: '1', issue_iid: 2 } },
        ...extra,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'replicas', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        },
      },
    });
    const asked = (await answerOf(await post(replicas[0]!.url, headers, call(1)))) as {
      result: { resultType: string; requestState: string };
    };
    expect(asked.result.resultType).toBe('input_required');
    expect(deletes(since)).toBe(0);
    const confirmed = (await answerOf(
      await post(
        replicas[1]!.url,
        headers,
        call(2, {
          inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
          requestState: asked.result.requestState,
        }),
      ),
    )) as { result?: { isError?: boolean }; error?: unknown };
    expect(confirmed.error).toBeUndefined();
    expect(confirmed.result?.isError).toBeFalsy();
    expect(deletes(since)).toBe(1);
  });

  it('carry a session on through the others when the replica serving it is killed', async () => {
    const { client, transport } = await sessionClient(s.tokens.oauth);
    const id = transport.sessionId!;
    // The last initialize the balancer passed is this client's.
    const served = [...lb.log].reverse().find((e) => e.rpc === 'initialize')!;
    expect(served.backend).toBeGreaterThanOrEqual(0);
    await replicas[served.backend]!.stop();
    const before = lb.log.length;
    for (let i = 0; i < 4; i++) {
      const r = await client.callTool({
        name: 'forge_issue',
        arguments: { action: 'get', params: { project_id: '1', issue_iid: 1 } },
      });
      expect((r.structuredContent as { iid: number }).iid).toBe(1);
    }
    expect(transport.sessionId).toBe(id);
    const after = lb.log.slice(before).filter((e) => e.session === id && e.rpc === 'tools/call');
    expect(after).toHaveLength(4);
    expect(after.every((e) => e.backend !== served.backend && e.status === 200)).toBe(true);
    await client.close();
    // A new replica takes the killed one's place.
    const fresh = await replica();
    replicas[served.backend] = fresh;
    lb.backends[served.backend] = base(fresh);
  }, 60_000);

  it('answer 503 with Retry-After on every replica while Redis is down, and serve again once it is back', async () => {
    const headers = { authorization: `Bearer ${s.tokens.oauth}`, 'x-forwarded-for': '203.0.113.10' };
    for (const r of replicas) expect((await post(r.url, headers)).status).toBe(200);
    await redis.stop();
    for (const r of replicas) {
      let res = await post(r.url, headers);
      // A replica may finish what it began before it notices; it says so within its own reconnect limits.
      const t0 = Date.now();
      while (res.status !== 503 && Date.now() - t0 < 30_000) {
        await new Promise((done) => setTimeout(done, 200));
        res = await post(r.url, headers);
      }
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    await redis.start();
    for (const r of replicas) {
      await until(
        async () => (await post(r.url, headers)).status === 200,
        'the replica to serve again',
        60_000,
      );
    }
  }, 120_000);
});

/** A 2025-era client in session mode through the balancer, resuming broken streams quickly. */
/**
 * The replica answering session `id`'s call is drained and the client's connections cut: resolves once the
 * client has resumed its stream with Last-Event-ID on another replica.
 */
async function resumeElsewhere(via: Balancer, id: string): Promise<void> {
  const served = via.log.find((e) => e.session === id && e.rpc === 'tools/call')!;
  via.avoid.add(served.backend);
  const before = via.log.length;
  via.cut();
  await until(
    () => via.log.slice(before).some((e) => e.lastEventId && e.session === id && e.status === 200),
    'the client to resume its stream on another replica',
  );
  const resumed = via.log.slice(before).find((e) => e.lastEventId && e.session === id)!;
  expect(resumed.backend).not.toBe(served.backend);
}

async function sessionClient(token: string, via: Balancer = lb) {
  const transport = new StreamableHTTPClientTransport(new URL(via.url), {
    requestInit: { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.1' } },
    reconnectionOptions: {
      initialReconnectionDelay: 100,
      maxReconnectionDelay: 500,
      reconnectionDelayGrowFactor: 1.5,
      maxRetries: 20,
    },
  });
  const client = new Client({ name: 'replicas', version: '1' });
  await client.connect(transport);
  expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  return { client, transport };
}

/** A POST (a tools/list of the 2025 era without a session unless `body` says otherwise), through fetch. */
function post(url: string, headers: Record<string, string>, body?: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body: JSON.stringify(body ?? { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
}

/** The JSON-RPC answer of a response, JSON or an event stream. */
async function answerOf(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text.trimStart().startsWith('{')) return JSON.parse(text);
  const data = text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as { id?: unknown });
  return data.find((m) => m.id !== undefined);
}

const issueGets = (since: number) =>
  s.requests.slice(since).filter((q) => q.method === 'GET' && q.path === '/api/v4/projects/1/issues/1')
    .length;
const deletes = (since: number) =>
  s.requests.slice(since).filter((q) => q.method === 'DELETE' && q.path === '/api/v4/projects/1/issues/2')
    .length;

function opened() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
