/**
 * MCP servers kept between stateless requests (HTTP mode) that go through the SDK's own HTTP serving (the
 * legacy requests held.ts answers on servers it keeps connected do not come here). Building a credential's
 * server registers every handler anew; a stateless request only needs one that is connected to nothing, so a
 * server whose exchange ended cleanly waits here for the credential's next request instead of being built
 * again.
 *
 * A server comes back only when what it served can have left nothing behind on it: nothing at all (the request
 * was answered before the SDK reached it), or one 2025-era (legacy) JSON-RPC request of a method that changes
 * no server state (not initialize, not logging/setLevel, no batch, no notification), answered, its exchange
 * closed. The answer having been sent means the handler has finished, so nothing of that request (its id,
 * progress token, abort signal) can reach a later exchange. It comes back only once the request's whole HTTP
 * exchange is over (settle), when the SDK can no longer close it on that request's behalf: a close arriving
 * late (a client gone mid-stream tears the exchange down twice) never reaches the next request's connection.
 * Anything else (a 2026-07-28 request, which binds per-request client identity to the instance; an exchange
 * aborted before its answer) leaves the server to be collected, as a server built for one request always was.
 *
 * Concurrent requests of one credential each take a server of their own (an idle one, else a new build), so
 * they run at once and independently, exactly as with a server built per request. A kept server belongs to
 * its pool entry's session: an entry evicted from the credential pool takes its servers with it (forget), and
 * a server of an earlier session of the same credential is never handed to a later one. At most
 * MAX_KEPT_SERVERS wait at once, here and in held.ts together (one IdleBudget), the least recently kept going
 * first, so idle credentials cost no memory.
 */
import type { Server, Transport } from '@modelcontextprotocol/server';
import { channels } from '../channels.js';
import type { Session } from '../session/index.js';

/** Methods whose 2025-era exchange leaves no state on the server that answered it. */
export const STATELESS_METHODS = new Set([
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
]);

/** Idle servers kept per credential at most (one per request it has in flight at once). */
export const MAX_KEPT_PER_CREDENTIAL = 4;
/** Idle servers kept in all at most (held.ts's and this file's together). */
export const MAX_KEPT_SERVERS = 128;

interface Kept extends IdleEntry {
  server: Server;
  /** The request it serves now: handed to the SDK (lent), connected, and the reusable id it answered. */
  use?: { lent: boolean; connected: boolean; id?: string | number; answered: boolean };
}

type Message = { id?: unknown; result?: unknown; error?: unknown };

/** The id of a single JSON-RPC request whose method leaves no server state, else undefined. */
function reusableId(body: unknown): string | number | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { id, method } = body as { id?: unknown; method?: unknown };
  if (typeof method !== 'string' || !STATELESS_METHODS.has(method)) return undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** What an idle server is kept with: its credential's pool key, the session it was built for, its observers. */
export interface IdleEntry {
  key: string;
  session: Session;
  /** Whether request observers were listening when it was built (observeServer decides at build time). */
  observed: boolean;
}

/**
 * The bound several stores of idle servers share (held.ts's and kept.ts's): every idle server of them, least
 * recently kept first, with the store holding it.
 */
export class IdleBudget {
  readonly order = new Map<IdleEntry, { drop(entry: IdleEntry): void }>();
  constructor(readonly max = MAX_KEPT_SERVERS) {}
}

/**
 * Idle servers by credential: at most `perCredential` of one credential, and at most the budget's `max` in all
 * with the other stores on the same budget, the least recently kept going first. One comes back only to a
 * request of the session it was built for, with request observers as they were when it was built; one whose
 * pool entry ended while it served is not kept.
 */
export class IdleServers<T extends IdleEntry> {
  /** Idle servers by credential key. */
  private readonly idle = new Map<string, T[]>();

  constructor(
    /** The session the credential pool holds for a key now (a server of any other is not kept). */
    private readonly current: (key: string) => Session | undefined,
    max = MAX_KEPT_SERVERS,
    private readonly perCredential = MAX_KEPT_PER_CREDENTIAL,
    private readonly budget = new IdleBudget(max),
  ) {}

  /** An idle server for a request of `session` that also `fits`; any other met on the way is let go. */
  take(key: string, session: Session, fits: (entry: T) => boolean = () => true): T | undefined {
    const observed = channels.mcpRequest.hasSubscribers;
    const list = this.idle.get(key);
    while (list?.length) {
      const entry = list.pop()!;
      this.budget.order.delete(entry);
      if (!list.length) this.idle.delete(key);
      if (entry.session === session && entry.observed === observed && fits(entry)) return entry;
    }
    return undefined;
  }

  keep(entry: T): void {
    // Its pool entry ended while it served: it goes with the entry's other servers.
    if (this.current(entry.key) !== entry.session) return;
    let list = this.idle.get(entry.key);
    if (!list) this.idle.set(entry.key, (list = []));
    if (list.length >= this.perCredential || list.includes(entry)) return;
    list.push(entry);
    const { order, max } = this.budget;
    order.set(entry, this);
    if (order.size <= max) return;
    const [oldest, store] = order.entries().next().value!;
    order.delete(oldest);
    store.drop(oldest);
  }

  /** Lets `entry` go (the budget's oldest, when another is kept). */
  drop(entry: IdleEntry): void {
    const of = this.idle.get(entry.key);
    const at = of ? of.indexOf(entry as T) : -1;
    if (at < 0) return;
    of!.splice(at, 1);
    if (!of!.length) this.idle.delete(entry.key);
  }

  /** The credential's pool entry ended: its idle servers go with it. */
  forget(key: string): void {
    for (const entry of this.idle.get(key) ?? []) this.budget.order.delete(entry);
    this.idle.delete(key);
  }

  /** Idle servers waiting in this store. */
  get size(): number {
    let n = 0;
    for (const list of this.idle.values()) n += list.length;
    return n;
  }
}

export class KeptServers {
  private readonly idle: IdleServers<Kept>;
  private readonly records = new WeakMap<Server, Kept>();

  constructor(
    /** Builds a session's server (registering its catalog); what it throws reaches the caller of take(). */
    private readonly build: (session: Session) => Server,
    /** The session the credential pool holds for a key now (a server of any other is not kept). */
    current: (key: string) => Session | undefined,
    max = MAX_KEPT_SERVERS,
    perCredential = MAX_KEPT_PER_CREDENTIAL,
    /** The bound shared with the other stores of idle servers (held.ts's). */
    budget = new IdleBudget(max),
  ) {
    this.idle = new IdleServers(current, max, perCredential, budget);
  }

  /** A server connected to nothing for one request of `session` (pool key `key`): an idle one, else built. */
  take(key: string, session: Session): Server {
    const idle = this.idle.take(key, session, (k) => k.server.transport === undefined);
    if (idle) {
      idle.use = { lent: false, connected: false, answered: false };
      return idle.server;
    }
    const observed = channels.mcpRequest.hasSubscribers;
    const server = this.build(session);
    const kept: Kept = {
      server,
      key,
      session,
      observed,
      use: { lent: false, connected: false, answered: false },
    };
    this.records.set(server, kept);
    // Watches the request's answer go out on the transport the SDK connects it to.
    const connect = server.connect.bind(server);
    server.connect = (transport: Transport) => {
      const use = kept.use;
      if (use) {
        use.connected = true;
        const send = transport.send.bind(transport);
        transport.send = (message, options) => {
          const m = message as Message;
          if (use.id !== undefined && m.id === use.id && ('result' in m || 'error' in m)) use.answered = true;
          return send(message, options);
        };
      }
      return connect(transport);
    };
    return server;
  }

  /** Hands `server` to the SDK for a request of `era` with `body`. */
  lend(server: Server, era: 'legacy' | 'modern', body: unknown): Server {
    const use = this.records.get(server)?.use;
    if (use) {
      use.lent = true;
      use.id = era === 'legacy' ? reusableId(body) : undefined;
    }
    return server;
  }

  /**
   * The HTTP exchange of the request `server` was taken for is over: it is kept if it served nothing, or one
   * answered request that leaves nothing behind, and is closed again; otherwise it is let go.
   */
  settle(server: Server): void {
    const kept = this.records.get(server);
    const use = kept?.use;
    if (!kept || !use) return;
    kept.use = undefined;
    const unused = !use.lent && !use.connected;
    const clean = use.lent && use.id !== undefined && use.answered;
    if ((unused || clean) && server.transport === undefined) this.idle.keep(kept);
  }

  /** The credential's pool entry ended: its idle servers go with it. */
  forget(key: string): void {
    this.idle.forget(key);
  }

  /** Idle servers waiting, in all. */
  get size(): number {
    return this.idle.size;
  }
}
