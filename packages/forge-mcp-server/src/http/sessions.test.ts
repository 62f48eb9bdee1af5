/**
 * Stateful sessions across replicas: two session tables in one process, each behind its own loopback
 * listener, sharing one session store and one event log per session id (what FORGE_MCP_REDIS_URL gives
 * replicas), driven by the real client's Streamable HTTP transport through a fetch that picks the replica.
 * A session opened on one continues on the other as initialized (the client's identity and capabilities
 * intact); a stream broken on one resumes on the other with Last-Event-ID and the answer arrives; another
 * credential's id stays 404; a DELETE on one ends it on both; a copy idling on one while the other serves the
 * session, or holds a stream of it open, lets it live. With stores of their own (the in-memory state) nothing
 * is shared.
 */
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  McpServer,
  type EventId,
  type EventStore,
  type JSONRPCMessage,
  type StreamId,
} from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import {
  isAnswer,
  MemoryEventStore,
  MemorySessionStore,
  type LoggedRequest,
  type SessionEventLog,
  type SessionStore,
  type StoppedCheck,
} from '../state/index.js';
import { readJsonBody } from './body.js';
import { SessionTable } from './sessions.js';

interface Replica {
  url: string;
  table: SessionTable;
  continued: string[];
  ended: Array<[string, string]>;
  http: HttpServer;
}

/** What the tools of every replica share: how often `wait` ran, and the gate it waits on. */
const world = { runs: 0, gate: Promise.resolve(), open: () => undefined as void };

function closeGate() {
  world.gate = new Promise<void>((resolve) => (world.open = resolve));
}

/** The server a session is built with: who the client said it is, and a call that waits on a gate. */
function build() {
  const mcp = new McpServer({ name: 'replica', version: '1' });
  mcp.registerTool('whoami', { description: 'the client as initialized' }, () => ({
    content: [
      {
        type: 'text' as const,
        text: JSON.stringify({
          client: mcp.server.getClientVersion()?.name,
          roots: Boolean(mcp.server.getClientCapabilities()?.roots),
          version: mcp.server.getNegotiatedProtocolVersion(),
        }),
      },
    ],
  }));
  mcp.registerTool('wait', { description: 'answers once the gate opens' }, async () => {
    world.runs++;
    await world.gate;
    return { content: [{ type: 'text' as const, text: 'done' }] };
  });
  return mcp.server;
}

const keyOf = (req: IncomingMessage) => String(req.headers.authorization ?? '');

async function replica(store: SessionStore, eventLog: (id: string) => EventStore, timeoutMs = 60_000) {
  const r = { continued: [], ended: [] } as unknown as Replica;
  r.table = new SessionTable({
    timeoutMs,
    max: 96,
    store,
    eventLog,
    onContinue: (id) => r.continued.push(id),
    onClose: (id, why) => r.ended.push([id, why]),
  });
  r.http = createServer((req, res) => {
    void (async () => {
      const body = req.method === 'POST' ? await readJsonBody(req, 1 << 20) : undefined;
      const parsed = body?.ok ? body.body : undefined;
      if (!(await r.table.serve(req, res, keyOf(req), parsed, build))) res.writeHead(400).end();
    })();
  });
  await new Promise<void>((resolve) => r.http.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(r.http.address() as AddressInfo).port}/mcp`;
  return r;
}

/**
 * A session's event log shared by replicas in one process, as the Redis adapter shares it: it records how many
 * requests of each stream await an answer, so a replica tailing a stream another answers knows when it is over.
 * No replica stops here, so none is ever answered in another's stead.
 */
class SharedLog extends MemoryEventStore implements SessionEventLog {
  private readonly awaited = new Map<StreamId, number>();

  override async storeEvent(
    stream: StreamId,
    message: JSONRPCMessage,
    requests?: readonly LoggedRequest[],
  ): Promise<EventId> {
    if (requests?.length) this.awaited.set(stream, requests.length);
    else if (isAnswer(message)) this.awaited.set(stream, (this.awaited.get(stream) ?? 1) - 1);
    return super.storeEvent(stream, message);
  }

  async answerIfStopped(stream: StreamId): Promise<StoppedCheck> {
    return (this.awaited.get(stream) ?? 0) > 0 ? 'answering' : 'answered';
  }
}

/** Two replicas sharing a store and the event logs (by session id), as replicas sharing Redis do. */
/** Ids a replica told the shared store it let go (its copy went, the session living on elsewhere). */
const released: string[] = [];

async function sharing(timeoutMs?: number) {
  const store: SessionStore = new MemorySessionStore();
  store.release = (id) => void released.push(id);
  const logs = new Map<string, SharedLog>();
  const log = (id: string) => logs.get(id) ?? logs.set(id, new SharedLog()).get(id)!;
  return [await replica(store, log, timeoutMs), await replica(store, log, timeoutMs)] as const;
}

/**
 * The idle timeout of the two tests that wait for a replica's copy to idle out while another replica keeps the
 * session busy: long enough that a loaded machine's stall between two calls does not end the session itself.
 */
const IDLE_MS = 1500;

let running: Replica[] = [];
afterEach(async () => {
  for (const r of running) {
    await r.table.closeAll();
    r.http.closeAllConnections();
    await new Promise((resolve) => r.http.close(resolve));
  }
  running = [];
});

interface Route {
  to: Replica;
  /** Break the next POST's event stream once its priming event (the id to resume from) has passed. */
  cutAfterPriming?: boolean;
  /** Where requests go after the cut. */
  then?: Replica;
}

/**
 * A client whose requests go to `route.to`, as a balancer would send them; `drop(r)` breaks every response
 * still streaming from replica r (its connections cut), and the client reconnects where the route says.
 */
function client(token: string, route: Route) {
  const open = new Set<{ r: Replica; abort: AbortController }>();
  const via = async (_url: string | URL, init?: RequestInit): Promise<Response> => {
    const cut = route.cutAfterPriming && init?.method === 'POST';
    if (cut) route.cutAfterPriming = false;
    const held = { r: route.to, abort: new AbortController() };
    open.add(held);
    // The client gives every request the same signal: joined, not listened to, so no listener outlives a request.
    const signal = init?.signal ? AbortSignal.any([init.signal, held.abort.signal]) : held.abort.signal;
    const res = await fetch(held.r.url, { ...init, signal });
    if (!res.body) {
      open.delete(held);
      return res;
    }
    const reader = res.body.getReader();
    let seen = '';
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        const { value, done } = await reader.read().catch((e: unknown) => {
          open.delete(held);
          throw e;
        });
        if (done) {
          open.delete(held);
          return c.close();
        }
        c.enqueue(value);
        seen += new TextDecoder().decode(value);
        if (cut && /^id: /m.test(seen)) {
          held.abort.abort();
          if (route.then) route.to = route.then;
          c.error(new Error('connection cut after the priming event'));
        }
      },
      cancel: () => {
        open.delete(held);
        held.abort.abort();
      },
    });
    return new Response(body, { status: res.status, headers: res.headers });
  };
  const drop = (r: Replica) => {
    for (const h of [...open]) if (h.r === r) h.abort.abort();
  };
  const transport = new StreamableHTTPClientTransport(new URL(route.to.url), {
    fetch: via,
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    reconnectionOptions: {
      initialReconnectionDelay: 50,
      maxReconnectionDelay: 200,
      reconnectionDelayGrowFactor: 1.5,
      maxRetries: 50,
    },
  });
  const c = new Client({ name: 'replicated-client', version: '1' }, { capabilities: { roots: {} } });
  return { c, transport, drop, connect: () => c.connect(transport) };
}

const LIST = { jsonrpc: '2.0', id: 5, method: 'tools/list', params: {} };

/** A raw request carrying a session id. */
function raw(r: Replica, method: string, token: string, id: string, body?: unknown) {
  return fetch(r.url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-session-id': id,
      'mcp-protocol-version': '2025-11-25',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function until(check: () => boolean, what: string, ms = 15_000) {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const textOf = (r: unknown) => (r as { content: Array<{ text: string }> }).content[0]!.text;

describe('stateful sessions across replicas sharing a store', () => {
  it('continue on a replica that did not open them, initialized as the client negotiated', async () => {
    const [a, b] = await sharing();
    running = [a, b];
    const route = { to: a };
    const { c, transport, connect } = client('t1', route);
    await connect();
    const id = transport.sessionId!;
    route.to = b;
    const seen = JSON.parse(textOf(await c.callTool({ name: 'whoami', arguments: {} })));
    expect(seen).toEqual({ client: 'replicated-client', roots: true, version: '2025-11-25' });
    expect(b.continued).toEqual([id]);
    expect(b.table.size).toBe(1);
    // Both now hold it; either answers.
    route.to = a;
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['whoami', 'wait']);
    await c.close();
  });

  it('resume a stream broken on one replica on another with Last-Event-ID: the answer arrives, the call ran once', async () => {
    const [a, b] = await sharing();
    running = [a, b];
    const route: Route = { to: a };
    const { c, connect } = client('t1', route);
    await connect();
    closeGate();
    world.runs = 0;
    route.cutAfterPriming = true;
    route.then = b;
    const call = c.callTool({ name: 'wait', arguments: {} });
    // The client has come back through b, which continued the session, before the answer exists.
    await until(() => b.continued.length === 1, 'b to continue the session');
    world.open();
    expect(textOf(await call)).toBe('done');
    expect(world.runs).toBe(1);
    await c.close();
  });

  it('answer another credential 404 for an id the store holds, continuing nothing', async () => {
    const [a, b] = await sharing();
    running = [a, b];
    const { transport, connect, c } = client('t1', { to: a });
    await connect();
    const stolen = await raw(b, 'POST', 't2', transport.sessionId!, LIST);
    expect(stolen.status).toBe(404);
    expect(b.continued).toEqual([]);
    expect(b.table.size).toBe(0);
    await c.close();
  });

  it('end on every replica when DELETEd on one', async () => {
    const [a, b] = await sharing();
    running = [a, b];
    const route = { to: a };
    const { c, transport, connect } = client('t1', route);
    await connect();
    const id = transport.sessionId!;
    route.to = b;
    await c.listTools();
    await transport.terminateSession();
    expect(b.ended).toEqual([[id, 'deleted']]);
    const after = await raw(a, 'POST', 't1', id, LIST);
    expect(after.status).toBe(404);
    // a let its own copy go on learning the session ended.
    expect(a.table.size).toBe(0);
    expect(a.ended).toEqual([[id, 'deleted']]);
    await c.close();
  });

  it('let a copy idling on one replica go without ending the session another replica serves', async () => {
    const [a, b] = await sharing(IDLE_MS);
    running = [a, b];
    const route = { to: a };
    const { c, connect, drop } = client('t1', route);
    await connect();
    // The balancer moves the client to b: its open stream on a is cut and reopened there.
    route.to = b;
    drop(a);
    // b serves the session while a's copy idles past the timeout.
    const t0 = Date.now();
    while (a.table.size > 0) {
      if (Date.now() - t0 > 15_000) throw new Error("a's copy never went");
      await c.listTools();
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(a.ended.map(([, why]) => why)).toEqual(['released']);
    // It stops keeping the record alive for a session it no longer serves.
    expect(released).toContain(a.ended[0]![0]);
    // Back on a, the session continues.
    route.to = a;
    expect((await c.listTools()).tools).toHaveLength(2);
    expect(a.continued).toHaveLength(1);
    await c.close();
  });

  it('stay alive on every replica while one of them holds a stream of the session open', async () => {
    const [a, b] = await sharing(IDLE_MS);
    running = [a, b];
    const route = { to: a };
    const { c, connect } = client('t1', route);
    await connect();
    // The client's own event stream stays open on a; its calls now go to b, which then idles past the timeout.
    route.to = b;
    await c.listTools();
    await until(() => b.ended.length === 1, "b's copy to idle out");
    expect(b.ended.map(([, why]) => why)).toEqual(['released']);
    expect(a.table.size).toBe(1);
    // The session lives: b continues it again.
    expect((await c.listTools()).tools).toHaveLength(2);
    expect(b.continued).toHaveLength(2);
    await c.close();
  });

  it('stay with the replica that opened them when each keeps its own store (the in-memory state)', async () => {
    const a = await replica(new MemorySessionStore(), () => new MemoryEventStore());
    const b = await replica(new MemorySessionStore(), () => new MemoryEventStore());
    running = [a, b];
    const { transport, connect, c } = client('t1', { to: a });
    await connect();
    const res = await raw(b, 'POST', 't1', transport.sessionId!, LIST);
    expect(res.status).toBe(404);
    expect(b.continued).toEqual([]);
    await c.close();
  });
});
