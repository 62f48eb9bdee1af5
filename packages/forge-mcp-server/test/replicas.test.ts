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
import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBalancer, type Balancer } from 'forge-sim';
import {
  eventsOf,
  httpServerAt,
  logged,
  resumeStream,
  runCli,
  sim,
  testSecret,
  type ForgeSim,
  type HttpServerAt,
  until,
} from './harness.js';
import { everythingIn, REDIS_SERVER, REDIS_SKIP_REASON, startRedis, type RedisServer } from './redis.js';

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

  /** What heldCall holds at forge-sim by default: a tools/call reading issue 2. */
  const getIssue2 = (client: Client) =>
    // Not cut off by the client's own 60 s request timeout: the test's limit bounds the wait.
    client.callTool(
      { name: 'forge_issue', arguments: { action: 'get', params: { project_id: '1', issue_iid: 2 } } },
      { timeout: 120_000 },
    );

  /**
   * Two replicas started with `flags` behind their own balancer, a session opened through it, and a request
   * reading issue 2 (`send`: a tools/call unless told) held at forge-sim until `gate` opens (opened, and both
   * replicas stopped, at the end whatever `run` does).
   */
  async function heldCall<T = Awaited<ReturnType<typeof getIssue2>>>(
    flags: string[],
    run: (o: {
      pair: HttpServerAt[];
      short: Balancer;
      id: string;
      call: Promise<T>;
      gate: ReturnType<typeof opened>;
      asked: () => number;
      /**
       * Cuts the client's connections with the call's replica drained; resolves, once resumed elsewhere, with
       * the index of the replica answering the call.
       */
      resumeElsewhere: () => Promise<number>;
      client: Client;
      transport: StreamableHTTPClientTransport;
    }) => Promise<void>,
    send: (client: Client) => Promise<T> = getIssue2 as (client: Client) => Promise<T>,
  ) {
    const pair = await Promise.all([replica(...flags), replica(...flags)]);
    const short = await startBalancer(pair.map(base));
    const gate = opened();
    try {
      const { client, transport } = await sessionClient(s.tokens.oauth, short);
      const id = transport.sessionId!;
      s.fault({ path: '/api/v4/projects/1/issues/2', until: gate.promise, times: 1 });
      const since = s.requests.length;
      const asked = () =>
        s.requests.slice(since).filter((q) => q.method === 'GET' && q.path === '/api/v4/projects/1/issues/2')
          .length;
      const call = send(client);
      await until(() => asked() === 1, 'the call to reach forge-sim');
      // The request held: the session's last one through the balancer.
      const { rpc } = short.log.filter((e) => e.session === id && e.rpc).at(-1)!;
      await run({
        pair,
        short,
        id,
        call,
        gate,
        asked,
        resumeElsewhere: () => resumeElsewhere(short, id, rpc),
        client,
        transport,
      });
      await client.close();
    } finally {
      gate.open();
      await short.close();
      await Promise.all(pair.map((p) => p.stop()));
    }
  }

  /**
   * heldCall on two replicas with a 2 s session timeout (shorter than their 10 s Redis heartbeat): once `run`
   * has done, the call's answer arrives and it reached forge-sim once.
   */
  async function heldCallOnShortTimeout(
    run: (o: Parameters<Parameters<typeof heldCall>[1]>[0]) => Promise<void>,
  ) {
    await heldCall(['--session-timeout=2s'], async (o) => {
      await run(o);
      const r = await o.call;
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect((r.structuredContent as { iid: number }).iid).toBe(2);
      expect(o.asked()).toBe(1);
    });
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

  /**
   * Kills the replica answering session `id`'s request and lapses its heartbeat in Redis, as 30 s without one
   * would (the figure itself: state.test.ts): it says no goodbye in Redis, its heartbeat just stops.
   */
  async function kill(replica: HttpServerAt, id: string) {
    await replica.stop();
    const store = new Redis(redis.url);
    try {
      const meta = await store.hgetall(`forge-mcp:events:${id}:meta`);
      const answerers = Object.entries(meta).filter(([field]) => field.startsWith('answerer:'));
      expect(answerers.length).toBeGreaterThan(0);
      for (const [, record] of answerers)
        expect(
          await store.zadd('forge-mcp:replicas', 'XX', 'CH', Date.now() - 1, record.split('\n')[0]!),
        ).toBe(1);
    } finally {
      store.disconnect();
    }
  }

  it('answer a call whose replica is killed before answering, once its heartbeat lapses: a tool error saying the call may or may not have taken effect', async () => {
    await heldCall([], async ({ pair, short, id, call, asked, resumeElsewhere, client }) => {
      const answering = await resumeElsewhere();
      await kill(pair[answering]!, id);
      const killed = Date.now();
      const r = await call;
      // Answered once the lapse is seen in Redis, not 30 s later (the action deadline is 65 min).
      expect(Date.now() - killed).toBeLessThan(30_000);
      expect(r.isError).toBe(true);
      expect(r.content).toEqual([
        {
          type: 'text',
          text: 'replica stopped: the server replica answering this call stopped before it answered, so the call may or may not have taken effect at the instance. Check the instance before repeating it (a read can simply be repeated).',
        },
      ]);
      expect(asked()).toBe(1);
      // Told once: the client did not have to resume the stream again, and the session carries on.
      const resumes = short.log.filter((e) => e.lastEventId && e.session === id);
      expect(resumes).toHaveLength(1);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    });
  }, 120_000);

  it('answer any other request whose replica is killed before answering, once its heartbeat lapses: an error saying to send it again', async () => {
    await heldCall(
      [],
      async ({ pair, id, call, asked, resumeElsewhere }) => {
        const answering = await resumeElsewhere();
        await kill(pair[answering]!, id);
        await expect(call).rejects.toThrow(
          'replica stopped: the server replica answering this request stopped before it answered; send the request again.',
        );
        expect(asked()).toBe(1);
      },
      (client) => client.readResource({ uri: 'forge://project/1/issue/2' }, { timeout: 120_000 }),
    );
  }, 120_000);

  /**
   * Two replicas, a session opened through them, and a batch POSTed to the first: a tools/list, then a tools/call
   * and a resources/read both held at forge-sim (reading issue 2) until `gate` opens. Its stream is read until the
   * tools/list's answer, and cut; `run` resumes it. Both replicas stopped at the end whatever `run` does.
   */
  async function heldBatch(
    run: (o: {
      pair: HttpServerAt[];
      id: string;
      gate: ReturnType<typeof opened>;
      /** The events read before the cut: the priming event's id first. */
      read: Array<{ id?: string; data?: { id?: unknown } }>;
      /** A GET resuming the batch's stream after `lastEventId` on `replica`: the messages it carried. */
      resume: (replica: HttpServerAt, lastEventId: string) => Promise<unknown[]>;
      asked: () => number;
    }) => Promise<void>,
  ) {
    const pair = await Promise.all([replica(), replica()]);
    const short = await startBalancer(pair.map(base));
    const gate = opened();
    const cut = new AbortController();
    try {
      const { client, transport } = await sessionClient(s.tokens.oauth, short);
      const id = transport.sessionId!;
      const headers = {
        authorization: `Bearer ${s.tokens.oauth}`,
        'x-forwarded-for': '203.0.113.1',
        'mcp-session-id': id,
        'mcp-protocol-version': transport.protocolVersion!,
      };
      const path = '/api/v4/projects/1/issues/2';
      s.fault({ path, until: gate.promise, times: 2 });
      const since = s.requests.length;
      const asked = () => s.requests.slice(since).filter((q) => q.method === 'GET' && q.path === path).length;
      const issue2 = { project_id: '1', issue_iid: 2 };
      const batch = [
        { jsonrpc: '2.0', id: 'list', method: 'tools/list', params: {} },
        {
          jsonrpc: '2.0',
          id: 'call',
          method: 'tools/call',
          params: { name: 'forge_issue', arguments: { action: 'get', params: issue2 } },
        },
        {
          jsonrpc: '2.0',
          id: 'read',
          method: 'resources/read',
          params: { uri: 'forge://project/1/issue/2' },
        },
      ];
      const res = await fetch(pair[0]!.url, {
        method: 'POST',
        headers: {
          ...headers,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
        },
        body: JSON.stringify(batch),
        signal: cut.signal,
      });
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const reader = res.body!.getReader();
      let text = '';
      while (!eventsOf(text).some((e) => e.data?.id === 'list')) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the batch's stream ended before its first answer: ${text}`);
        text += new TextDecoder().decode(value);
      }
      await until(() => asked() === 2, 'both requests to reach forge-sim');
      cut.abort();
      const resume = async (r: HttpServerAt, lastEventId: string) => {
        const resumed = await fetch(r.url, {
          headers: { ...headers, accept: 'text/event-stream', 'last-event-id': lastEventId },
          signal: AbortSignal.timeout(20_000),
        });
        expect(resumed.status).toBe(200);
        return eventsOf(await resumed.text())
          .filter((e) => e.data)
          .map((e) => e.data);
      };
      await run({ pair, id, gate, read: eventsOf(text), resume, asked });
      await client.close();
    } finally {
      cut.abort();
      gate.open();
      await short.close();
      await Promise.all(pair.map((p) => p.stop()));
    }
  }

  it('pass on every answer of a batch resumed elsewhere, not only its first, as its replica answers them', async () => {
    await heldBatch(async ({ pair, gate, read, resume, asked }) => {
      const resumed = resume(pair[1]!, read[0]!.id!);
      await new Promise((r) => setTimeout(r, 1_000));
      gate.open();
      const events = (await resumed) as Array<{ id: string; result?: unknown; error?: unknown }>;
      expect(events.map((e) => e.id)).toEqual(['list', 'call', 'read']);
      expect(events.every((e) => e.result && !e.error)).toBe(true);
      expect(asked()).toBe(2);
    });
  }, 60_000);

  it('answer the rest of a batch whose replica is killed after answering its first request, each request under its own id', async () => {
    await heldBatch(async ({ pair, id, read, resume, asked }) => {
      await kill(pair[0]!, id);
      const answered = read.find((e) => e.data?.id === 'list')!.id!;
      expect(await resume(pair[1]!, answered)).toEqual([
        {
          jsonrpc: '2.0',
          id: 'call',
          result: {
            content: [
              {
                type: 'text',
                text: 'replica stopped: the server replica answering this call stopped before it answered, so the call may or may not have taken effect at the instance. Check the instance before repeating it (a read can simply be repeated).',
              },
            ],
            isError: true,
          },
        },
        {
          jsonrpc: '2.0',
          id: 'read',
          error: {
            code: -32603,
            message:
              'replica stopped: the server replica answering this request stopped before it answered; send the request again.',
          },
        },
      ]);
      expect(asked()).toBe(2);
    });
  }, 60_000);

  it('end a stream resumed elsewhere once the replica answering its call deletes the session: the client hears the session is not found', async () => {
    await heldCall([], async ({ pair, id, call, short, resumeElsewhere, transport }) => {
      void call.catch(() => undefined);
      const answering = await resumeElsewhere();
      const before = short.log.length;
      const headers = {
        authorization: `Bearer ${s.tokens.oauth}`,
        'x-forwarded-for': '203.0.113.1',
        'mcp-session-id': id,
        'mcp-protocol-version': transport.protocolVersion!,
      };
      const resumed = short.log.find((e) => e.lastEventId && e.session === id)!;
      expect(resumed.closed).toBeFalsy();
      const res = await fetch(pair[answering]!.url, { method: 'DELETE', headers });
      expect(res.status).toBe(200);
      // The stream resumed on the other replica ends (the action deadline, 65 min, is far off), and the client,
      // opening its streams again, is told its session is not found.
      await until(() => resumed.closed === true, 'the resumed stream to end', 20_000);
      await until(
        () => short.log.slice(before).some((e) => e.method === 'GET' && e.session === id && e.status === 404),
        'a stream opened again to be answered 404',
        20_000,
      );
      const other = pair[1 - answering]!;
      const next = await post(other.url, headers);
      expect(next.status).toBe(404);
      expect(await next.json()).toMatchObject({
        error: {
          code: -32001,
          message: 'session not found: it ended or never existed here; initialize a new session',
        },
      });
    });
  }, 90_000);

  it("end a stream resumed after its answer was written at once, on the replica that answered and on another, with what followed the client's event", async () => {
    const headers = { authorization: `Bearer ${s.tokens.oauth}`, 'x-forwarded-for': '203.0.113.11' };
    const opened = await post(replicas[0]!.url, headers, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const session = {
      ...headers,
      'mcp-session-id': opened.headers.get('mcp-session-id')!,
      'mcp-protocol-version': '2025-11-25',
    };
    await opened.body?.cancel();
    await (
      await post(replicas[0]!.url, session, { jsonrpc: '2.0', method: 'notifications/initialized' })
    ).body?.cancel();
    const answered = await post(replicas[0]!.url, session, {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: 'forge_issue',
        arguments: { action: 'get', params: { project_id: '1', issue_iid: 1 } },
      },
    });
    expect(answered.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const [priming, answer] = eventsOf(await answered.text());
    expect(answer!.data!.id).toBe(7);
    // After the priming event the answer is replayed; after the answer, nothing: either way the stream ends (it
    // stayed open until the client gave up on a replica holding it to the action deadline, 65 min).
    for (const r of [replicas[0]!, replicas[1]!])
      for (const [after, missed] of [
        [priming!.id!, [7]],
        [answer!.id!, []],
      ] as const) {
        expect(await resumeStream(r.url, session, after)).toEqual({ status: 200, ids: missed });
      }
    // An event past the shared log's end is refused on every replica as one the session does not hold.
    const past = `${session['mcp-session-id']}_999999`;
    for (const r of [replicas[0]!, replicas[1]!]) {
      const res = await fetch(r.url, {
        headers: { ...session, accept: 'text/event-stream', 'last-event-id': past },
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
        /^Last-Event-ID names no event of this session's event log: /,
      );
    }
  }, 60_000);

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

  describe('sealing what they keep in Redis with FORGE_MCP_STATE_KEY', () => {
    const KEY = testSecret(randomBytes(32).toString('hex'));
    const OTHER = testSecret(randomBytes(32).toString('base64'));
    // The same keys as the other form would write them, for the suite's secret grep.
    testSecret(Buffer.from(KEY, 'hex').toString('base64'));
    testSecret(Buffer.from(OTHER, 'base64').toString('hex'));
    let sealedRedis: RedisServer;
    let pair: HttpServerAt[] = [];
    let bal: Balancer;
    const sealed = (url: string, key?: string) =>
      [['--stateless=false', `--redis-url=${url}`], key ? { FORGE_MCP_STATE_KEY: key } : {}] as const;

    beforeAll(async () => {
      sealedRedis = await startRedis();
      pair = await Promise.all([0, 1].map(() => httpServerAt(s, ...sealed(sealedRedis.url, KEY))));
      bal = await startBalancer(pair.map(base));
    }, 120_000);

    afterAll(async () => {
      await bal?.close();
      await Promise.all(pair.map((r) => r.stop()));
      await sealedRedis?.stop();
    });

    it('keep a created token in Redis in no form, its event log sealed, while a stream resumed on the other replica still delivers it', async () => {
      const { client, transport } = await sessionClient(s.tokens.api, bal);
      const id = transport.sessionId!;
      const gate = opened();
      const path = '/api/v4/user/personal_access_tokens';
      s.fault({ method: 'POST', path, until: gate.promise, times: 1 });
      const since = s.requests.length;
      const call = client.callTool({
        name: 'forge_execute_action',
        arguments: {
          action: 'user.create_current_user_pat',
          params: { name: 'sealed', scopes: ['self_rotate'], expires_at: '2027-01-31' },
        },
      });
      await until(
        () => s.requests.slice(since).some((q) => q.method === 'POST' && q.path === path),
        'the call to reach forge-sim',
      );
      // The answer is written on one replica and reaches the client through the other, read from the log.
      await resumeElsewhere(bal, id);
      bal.avoid.clear();
      gate.open();
      const r = await call;
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      const token = testSecret((r.structuredContent as { token: string }).token);
      expect(token).toMatch(/^glpat-forgesim-created-/);
      const store = new Redis(sealedRedis.url);
      try {
        // Read while the session is open (closing it deletes its log). Each entry is "seq\nbytes\nstream\nsealed
        // message", the sealed message base64 of its nonce (12 bytes), tag and ciphertext: a nonce of its own each.
        const entries = await store.lrange(`forge-mcp:events:${id}`, 0, -1);
        expect(entries.length).toBeGreaterThan(1);
        const nonces = entries.map((row) =>
          Buffer.from(row.split('\n')[3]!, 'base64').subarray(0, 12).toString('hex'),
        );
        expect(new Set(nonces).size).toBe(entries.length);
        const written = await everythingIn(store);
        expect(written.filter((w) => w.startsWith('unread '))).toEqual([]);
        expect(written.filter((w) => readings(w).some((t) => t.includes(token)))).toEqual([]);
        // The confirmation seal key is derived from the state key: none is kept in Redis.
        expect(await store.exists('forge-mcp:seal')).toBe(0);
      } finally {
        store.disconnect();
        await client.close();
      }
      for (const p of pair) expect(p.stderr()).not.toContain('unsealed');
    }, 60_000);

    it('treat an event-log entry that does not open, altered, moved from another session or to another place in its own, as absent, warning once without its content', async () => {
      const store = new Redis(sealedRedis.url);
      const other = pair[1]!;
      /** A session with one call answered: its log, and the entry a client resumes its call's stream after. */
      const answered = async () => {
        const { client, transport } = await sessionClient(s.tokens.api, bal);
        const r = await client.callTool({
          name: 'forge_execute_action',
          arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
        });
        expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
        const id = transport.sessionId!;
        const log = `forge-mcp:events:${id}`;
        // Each entry is "seq\nbytes\nstream\nsealed message"; the call's stream is the last one written.
        const rows = (await store.lrange(log, 0, -1)).map((row) => row.split('\n'));
        const at = rows.findIndex((row) => row[2] === rows.at(-1)![2]);
        return { client, id, log, at, entry: rows[at]!, answer: rows.at(-1)! };
      };
      type Answered = Awaited<ReturnType<typeof answered>>;
      /** A GET resuming the session's stream on the replica that did not answer its call. */
      const resume = async (o: Answered, seq = o.entry[0]!) => {
        const res = await fetch(other.url, {
          headers: {
            accept: 'text/event-stream',
            authorization: `Bearer ${s.tokens.api}`,
            'mcp-session-id': o.id,
            'mcp-protocol-version': '2025-06-18',
            'last-event-id': `${o.id}_${seq}`,
          },
        });
        return { status: res.status, body: await res.text() };
      };
      /** Writes `row`'s stream and message in place of entry `at` of `o`'s log, keeping its sequence and size. */
      const replace = (o: Answered, at: number, row: string[]) =>
        store.lset(
          o.log,
          at,
          [...(at === o.at ? o.entry : o.answer).slice(0, 2), ...row.slice(2)].join('\n'),
        );
      const sessions: Answered[] = [];
      try {
        sessions.push(await answered(), await answered());
        const [one, two] = sessions as [Answered, Answered];
        const intact = await resume(one);
        expect(intact.status).toBe(200);
        expect(intact.body).toContain('"iid":1');
        // One character of the sealed message changed.
        const message = one.entry[3]!;
        await replace(one, one.at, [
          ...one.entry.slice(0, 3),
          message.slice(0, 5) + (message[5] === 'A' ? 'B' : 'A') + message.slice(6),
        ]);
        // Another session's call, its stream and answer as sealed there, in place of this one's: they open only
        // in the log they were written to.
        await replace(two, two.at, one.entry);
        await replace(two, -1, one.answer);
        for (const o of [one, one, two]) expect(await resume(o)).toEqual(await resume(o, '999999'));
        // The call's entry as written, said to be of another of its session's streams: it opens only on its own.
        const three = await answered();
        sessions.push(three);
        const rows = (await store.lrange(three.log, 0, -1)).map((row) => row.split('\n'));
        const elsewhere = rows.find((row) => row[2] !== three.entry[2])!;
        expect(elsewhere).toBeDefined();
        await store.lset(
          three.log,
          three.at,
          [...three.entry.slice(0, 2), elsewhere[2], three.entry[3]].join('\n'),
        );
        expect(await resume(three)).toEqual(await resume(three, '999999'));
        // The call's answer as written, in its own log and stream, copied in place of the stream's first event:
        // sealed as another event of the log, it opens only as that one.
        const four = await answered();
        sessions.push(four);
        await replace(four, four.at, four.answer);
        expect(await resume(four)).toEqual(await resume(four, '999999'));
        const warned = logged(other.stderr(), 'warn').filter((m) => m.includes('does not open'));
        expect(warned).toEqual([
          'shared state: an event-log entry in Redis does not open with FORGE_MCP_STATE_KEY (sealed with another key, or altered); it is treated as absent, as is any other such entry (said once)',
        ]);
        expect(other.stderr()).not.toContain(message.slice(0, 24));
      } finally {
        store.disconnect();
        for (const o of sessions) await o.client.close();
      }
    }, 60_000);

    it('refuse to start a replica with another key or none beside them, and one with a key beside replicas without, naming neither key', async () => {
      const refused = async (url: string, key?: string) => {
        const [args, env] = sealed(url, key);
        const { code, stderr } = await runCli(
          ['--http', '--http-addr=127.0.0.1:0', `--forge-url=${s.url}`, '--tier=ultimate', ...args],
          env,
          60_000,
        );
        expect(code).toBe(1);
        expect(stderr).not.toContain('serving over HTTP');
        for (const k of [KEY, OTHER, Buffer.from(KEY, 'hex').toString('base64')])
          expect(stderr).not.toContain(k);
        return logged(stderr, 'error');
      };
      const at = `the replicas using the Redis server at 127.0.0.1`;
      expect(await refused(sealedRedis.url, OTHER)).toEqual([
        `FORGE_MCP_STATE_KEY: ${at}:${sealedRedis.port} seal what they keep there with another key: set the same FORGE_MCP_STATE_KEY on every replica sharing that server; to change it, stop them all, then start them with the new one (a stopped replica's check value lasts 30 s at most)`,
      ]);
      expect(await refused(sealedRedis.url)).toEqual([
        `FORGE_MCP_STATE_KEY: it is not set here, but ${at}:${sealedRedis.port} seal what they keep there with one: set the same FORGE_MCP_STATE_KEY on this replica`,
      ]);
      // The three replicas without a key share the other Redis server (and mark it again within ten seconds
      // of its restart, an earlier test's).
      const outer = new Redis(redis.url);
      try {
        await until(
          async () => (await outer.get('forge-mcp:sealing')) === 'unsealed',
          'the replicas without a key to mark their Redis server',
        );
      } finally {
        outer.disconnect();
      }
      expect(await refused(redis.url, KEY)).toEqual([
        `FORGE_MCP_STATE_KEY: ${at}:${redis.port} run without one: set the same FORGE_MCP_STATE_KEY on every replica sharing that server, stopping those without it first (a stopped replica's check value lasts 30 s at most)`,
      ]);
      // The replicas running are untouched: a session still opens and answers through them.
      const { client } = await sessionClient(s.tokens.api, bal);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
    }, 120_000);

    it('without the key, keep event logs in Redis as before, and say so once at start', async () => {
      const { client, transport } = await sessionClient(s.tokens.oauth);
      const store = new Redis(redis.url);
      try {
        const r = await client.callTool({
          name: 'forge_issue',
          arguments: { action: 'get', params: { project_id: '1', issue_iid: 1 } },
        });
        expect((r.structuredContent as { iid: number }).iid).toBe(1);
        const log = await store.lrange(`forge-mcp:events:${transport.sessionId}`, 0, -1);
        expect(log.some((row) => row.includes('"iid":1'))).toBe(true);
      } finally {
        store.disconnect();
        await client.close();
      }
      for (const r of replicas)
        expect(logged(r.stderr(), 'info').filter((m) => m.includes('unsealed'))).toEqual([
          'shared state: session event logs (every answer of a stateful session, a created token or a CI/CD variable value among them) and the confirmation seal key are kept in Redis unsealed; FORGE_MCP_STATE_KEY, the same on every replica, seals them',
        ]);
    }, 60_000);
  });
});

/** A 2025-era client in session mode through the balancer, resuming broken streams quickly. */
/**
 * The replica answering session `id`'s request (`rpc`: a tools/call unless told) is drained and the client's
 * connections cut: resolves, once the client has resumed its stream with Last-Event-ID on another replica, with
 * the index of the one answering.
 */
async function resumeElsewhere(via: Balancer, id: string, rpc = 'tools/call'): Promise<number> {
  const served = via.log.find((e) => e.session === id && e.rpc === rpc)!;
  via.avoid.add(served.backend);
  const before = via.log.length;
  via.cut();
  await until(
    () => via.log.slice(before).some((e) => e.lastEventId && e.session === id && e.status === 200),
    'the client to resume its stream on another replica',
  );
  const resumed = via.log.slice(before).find((e) => e.lastEventId && e.session === id)!;
  expect(resumed.backend).not.toBe(served.backend);
  return served.backend;
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

/** A value as it reads: itself, and each of its newline-separated parts decoded as base64 and as hex. */
function readings(value: string): string[] {
  const parts = value.split('\n');
  return [
    value,
    ...parts.map((p) => Buffer.from(p, 'base64').toString('latin1')),
    ...parts.filter((p) => /^([0-9a-f]{2})+$/i.test(p)).map((p) => Buffer.from(p, 'hex').toString('latin1')),
  ];
}

function opened() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
