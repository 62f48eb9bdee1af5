/**
 * Stateful MCP sessions (--stateless=false), for clients of the 2025 protocol era: `initialize` opens a
 * session and answers its Mcp-Session-Id; POST, GET (the session's event stream) and DELETE then carry that id.
 * The SDK's streamable HTTP transport speaks the protocol; this room owns the table: who may use a session (the
 * credential that opened it), how many may be open (96), how long an idle one lives (FORGE_MCP_SESSION_TIMEOUT),
 * and the event store a broken stream resumes from (Last-Event-ID).
 *
 * A session is idle while it has no request in flight and no open stream; its timer starts when the last of
 * them ends. An id that is unknown, ended or held by another credential answers 404, so the client starts over
 * without learning whether the id exists.
 *
 * Replicas sharing a session store (FORGE_MCP_REDIS_URL) serve each other's sessions: a request carrying an id
 * this process does not hold, but the store does for the same credential, continues the session here. Its
 * transport and server are built again for that id and initialized with the `initialize` the record keeps
 * (replayed through the SDK, so the client's capabilities and protocol version are what it negotiated), and
 * its event log is the shared one, so a GET with Last-Event-ID replays what the client missed wherever it was
 * written. Ending follows the store: an id the store no longer holds (DELETEd anywhere) is 404 here too (a
 * stream passed on here from the log ends with it), and a copy that idles here while another replica touched the
 * session since is let go without ending it (a replica where the session is busy, a stream open say, renews its
 * activity in the store while it is).
 */
import { channels, now, publish } from '../channels.js';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import {
  EVENT_BYTES_PER_SESSION,
  EVENTS_PER_SESSION,
  type SessionEventLog,
  type SessionRecord,
  type SessionStore,
} from '../state/index.js';
import { EVENT_ID, servingPost, SessionLog } from './session-log.js';
import { CODES, rpcError, sendEventStreamHeadAtOnce, sendJson } from './headers.js';
import { BUSY_RETRY_AFTER_S } from './slots.js';
import { KEEP_ALIVE_MS } from '../subscriptions/index.js';

/**
 * How long past the action deadline a resumed stream still waits in silence for another replica's answer (the
 * answer to a call cut off at its deadline is written just after it).
 */
const TAIL_GRACE_MS = 5_000;
/** The shortest period at which a busy session's activity is renewed in the store. */
const BEAT_FLOOR_MS = 100;
/** What the server issues: a UUID; anything else is refused before the table is consulted. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Transport = WebStandardStreamableHTTPServerTransport;

interface Entry {
  id: string;
  /** Digest of instance and token that opened the session. */
  key: string;
  transport: Transport;
  log: SessionLog;
  /** Serves a node:http request through the transport. */
  node: ReturnType<typeof toNodeHandler>;
  server: Server;
  active: number;
  /** Requests other than the GET stream still being answered (an eviction waits for them). */
  calls: number;
  /** The credential's pool entry ended while calls were in flight: the session ends when the last is answered. */
  evicted?: boolean;
  timer?: NodeJS.Timeout;
  /** While a request or stream is open: marks the session active in the store (what other replicas read). */
  beat?: NodeJS.Timeout;
  /** now() (channels.ts) when the session was initialized or continued here (for observers' durations). */
  opened?: number;
  /** The last activity time this process wrote to the store (a later one there is another replica's). */
  touched: number;
}

/** Why a session leaves this process: it ended, or (`released`) only this replica's copy of it did. */
export type SessionEndReason = 'deleted' | 'timeout' | 'shutdown' | 'evicted' | 'released';

export interface SessionTableOptions {
  timeoutMs: number;
  /**
   * The action deadline (FORGE_MCP_ACTION_TIMEOUT; 0 or unset: none). A stream resumed here while another
   * replica answers its call waits that long in silence, not the session timeout (which measures a client's
   * inactivity; a call in flight is activity): past it the answering replica is gone.
   */
  actionTimeoutMs?: number;
  max: number;
  /** Who owns each id and when it was last active (the state port). */
  store: SessionStore;
  /** The event log of a session's streams by id, for Last-Event-ID resumption (the state port). */
  eventLog: (sessionId: string) => SessionEventLog;
  now?: () => number;
  onOpen?: (id: string) => void;
  /** A session another replica opened is continued here. */
  onContinue?: (id: string) => void;
  onClose?: (id: string, why: SessionEndReason) => void;
}

export class SessionTable {
  private readonly entries = new Map<string, Entry>();
  /** Sessions being continued here, so concurrent requests for one id build it once. */
  private readonly continuing = new Map<string, Promise<Entry | undefined>>();
  private readonly max: number;
  private readonly now: () => number;

  constructor(private readonly opts: SessionTableOptions) {
    this.max = opts.max;
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Serves a request that belongs to the stateful side: one carrying Mcp-Session-Id, a GET or DELETE, or an
   * `initialize`. Resolves false for anything else (left to the stateless handler).
   */
  async serve(
    req: IncomingMessage,
    res: ServerResponse,
    key: string,
    parsed: unknown,
    /** Builds the MCP server of a new session for the credential that opens it. */
    build: () => Server,
  ): Promise<boolean> {
    const raw = req.headers['mcp-session-id'];
    if (raw !== undefined) {
      const id = Array.isArray(raw) ? raw.join(',') : raw;
      if (!SESSION_ID.test(id)) {
        sendJson(
          res,
          400,
          rpcError(
            null,
            CODES.invalidRequest,
            'invalid Mcp-Session-Id: send the id this server issued at initialize (a UUID), or initialize a new session without one',
          ),
        );
        return true;
      }
      const entry = await this.entryFor(id, key, build);
      if (entry === 'full') {
        this.busy(res, (parsed as { id?: unknown } | undefined)?.id);
        return true;
      }
      if (!entry) {
        sendJson(
          res,
          404,
          rpcError(
            null,
            -32001,
            'session not found: it ended or never existed here; initialize a new session',
          ),
        );
        return true;
      }
      await this.handle(entry, req, res, parsed);
      return true;
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      sendJson(
        res,
        400,
        rpcError(
          null,
          CODES.invalidRequest,
          `Mcp-Session-Id header is required for ${req.method}: initialize a session first and send the id it answered`,
        ),
      );
      return true;
    }
    if ((parsed as { method?: unknown } | undefined)?.method !== 'initialize') return false;
    if (this.entries.size >= this.max) {
      this.busy(res, (parsed as { id?: unknown }).id);
      return true;
    }
    await this.open(key, req, res, parsed, build);
    return true;
  }

  /**
   * The Mcp-Session-Id a request carries, when it names a session of credential `key` (held here for it, or
   * kept in the store for it); undefined for any other id, or when the store cannot be read. For what observes
   * a request refused before the session served it: an id the caller does not own is never named.
   */
  async ownedId(req: IncomingMessage, key: string): Promise<string | undefined> {
    const id = req.headers['mcp-session-id'];
    if (typeof id !== 'string' || !SESSION_ID.test(id)) return undefined;
    const held = this.entries.get(id);
    if (held) return held.key === key ? id : undefined;
    const record = await this.opts.store.get(id).catch(() => undefined);
    return record?.owner === key ? id : undefined;
  }

  private busy(res: ServerResponse, id: unknown) {
    sendJson(
      res,
      503,
      rpcError(
        id,
        CODES.internal,
        `server is busy: all ${this.max} stateful session slots are held; retry shortly`,
      ),
      { 'retry-after': String(BUSY_RETRY_AFTER_S) },
    );
  }

  /**
   * The session `id` for credential `key`: held here, or continued here from the store; undefined when the
   * store does not hold it for this credential (a copy held here of an id the store dropped is let go).
   */
  private async entryFor(id: string, key: string, build: () => Server): Promise<Entry | 'full' | undefined> {
    const record = await this.opts.store.get(id);
    const held = this.entries.get(id);
    if (!record) {
      if (held) this.end(id, 'deleted', { closeTransport: true });
      return undefined;
    }
    if (record.owner !== key) return undefined;
    if (held) return held;
    if (!record.init) return undefined;
    let pending = this.continuing.get(id);
    if (!pending) {
      if (this.entries.size >= this.max) return 'full';
      pending = this.continueHere(record, build).finally(() => this.continuing.delete(id));
      this.continuing.set(id, pending);
    }
    return pending;
  }

  /** A transport and server for session `id`, served through node:http. */
  private create(id: string, key: string, build: () => Server, init?: (id: string) => Promise<void>) {
    const log = new SessionLog(this.opts.eventLog(id));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      eventStore: log,
      keepAliveMs: KEEP_ALIVE_MS,
      onsessioninitialized: init,
      onsessionclosed: (closed) => this.end(closed ?? id, 'deleted'),
    });
    const entry: Entry = {
      id: '',
      key,
      transport,
      log,
      node: toNodeHandler({
        fetch: async (request, o) => endingWithClient(request, await transport.handleRequest(request, o)),
      }),
      server: build(),
      active: 0,
      calls: 0,
      touched: 0,
    };
    // A call whose client's connection was cut is activity until it is answered.
    log.onSettled = () => {
      if (entry.active > 0) return;
      this.stopBeat(entry);
      this.idleCheck(entry);
    };
    return entry;
  }

  private async open(
    key: string,
    req: IncomingMessage,
    res: ServerResponse,
    parsed: unknown,
    build: () => Server,
  ) {
    const id = randomUUID();
    const params = (parsed as { params?: Record<string, unknown> }).params;
    // The record is stored before the SDK answers: a store that does not answer refuses the initialize here
    // (503, Retry-After, like every request needing it), where inside the SDK it became a 400 parse error.
    const at = this.now();
    await this.opts.store.put({ id, owner: key, openedAt: at, lastActive: at, init: params });
    const entry = this.create(id, key, build, () => {
      entry.id = id;
      entry.opened = now();
      this.entries.set(id, entry);
      entry.touched = at;
      this.opts.onOpen?.(id);
      return Promise.resolve();
    });
    await entry.server.connect(entry.transport);
    entry.active++;
    await this.track(entry, res, () => entry.node(req as never, res as never, parsed));
    // The session exists once the SDK initialized it; an initialize it refused leaves nothing behind.
    if (!entry.id) {
      await this.opts.store.delete(id).catch(() => undefined);
      await entry.transport.close().catch(() => undefined);
      await entry.server.close().catch(() => undefined);
    }
  }

  /**
   * Continues here a session another replica opened: the `initialize` it was opened with is replayed through
   * the SDK (its answer already reached the client, so it goes nowhere and is not logged).
   */
  private async continueHere(record: SessionRecord, build: () => Server): Promise<Entry | undefined> {
    const entry = this.create(record.id, record.owner, build);
    entry.log.quiet = true;
    await entry.server.connect(entry.transport);
    try {
      const answer = await entry.transport.handleRequest(
        new Request('http://replica.invalid/', {
          method: 'POST',
          headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
        }),
        { parsedBody: { jsonrpc: '2.0', id: 0, method: 'initialize', params: record.init } },
      );
      await answer.text();
      if (answer.status !== 200) throw new Error(`initialize replay answered ${answer.status}`);
    } catch {
      await entry.transport.close().catch(() => undefined);
      await entry.server.close().catch(() => undefined);
      return undefined;
    } finally {
      entry.log.quiet = false;
    }
    entry.id = record.id;
    entry.opened = now();
    entry.touched = record.lastActive;
    this.entries.set(record.id, entry);
    this.opts.onContinue?.(record.id);
    return entry;
  }

  private async handle(entry: Entry, req: IncomingMessage, res: ServerResponse, parsed: unknown) {
    const resumeAfter = resumedAfter(req);
    // Refused before the SDK, which answers any id it cannot place "Invalid event ID format", and nothing more.
    if (resumeAfter !== undefined && !EVENT_ID.test(resumeAfter)) {
      sendJson(res, 400, rpcError(null, CODES.invalidRequest, MALFORMED_EVENT_ID));
      return;
    }
    entry.active++;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.touched = this.now();
    void this.opts.store.touch(entry.id, entry.touched).catch(() => undefined);
    const resumption = resumeAfter === undefined ? undefined : await entry.log.resumption(resumeAfter);
    if (resumeAfter !== undefined && resumption === 'unknown') {
      await this.track(entry, res, async () =>
        sendJson(res, 400, rpcError(null, CODES.invalidRequest, UNKNOWN_EVENT_ID)),
      );
      return;
    }
    if (resumeAfter !== undefined && resumption === 'tail') {
      await this.track(entry, res, () =>
        entry.log.tail(resumeAfter, res, {
          sessionId: entry.id,
          idleMs: this.opts.actionTimeoutMs ? this.opts.actionTimeoutMs + TAIL_GRACE_MS : Infinity,
          keepAliveMs: KEEP_ALIVE_MS,
          ended: () => this.endedElsewhere(entry),
        }),
      );
      return;
    }
    if (req.method === 'GET') sendEventStreamHeadAtOnce(res);
    await this.track(entry, res, () =>
      servingPost(parsed, () => entry.node(req as never, res as never, parsed)),
    );
  }

  /**
   * Whether the session held here as `entry` is over: ended here, or its record gone from the store (DELETEd or
   * expired on another replica; this copy then ends too). A store that cannot be read ends nothing.
   */
  private async endedElsewhere(entry: Entry): Promise<boolean> {
    if (this.entries.get(entry.id) !== entry) return true;
    const record = await this.opts.store.get(entry.id).catch(() => null);
    if (this.entries.get(entry.id) !== entry) return true;
    if (record !== undefined) return false;
    this.end(entry.id, 'deleted', { closeTransport: true });
    return true;
  }

  /** Counts the request as activity until its response (or stream) closes. */
  private async track(entry: Entry, res: ServerResponse, run: () => Promise<void>) {
    let done = false;
    const call = res.req.method !== 'GET';
    if (call) entry.calls++;
    const finish = () => {
      if (done) return;
      done = true;
      entry.active--;
      if (call) entry.calls--;
      if (entry.active === 0 && !entry.log.answering) this.stopBeat(entry);
      if (entry.evicted && entry.calls === 0) void this.endUnlessActiveElsewhere(entry, 'evicted');
      else this.idleCheck(entry);
    };
    res.once('close', finish);
    this.startBeat(entry);
    await run();
  }

  /**
   * A session busy here (a call running, a stream open) is not idle anywhere: its last activity in the store
   * is renewed every third of the timeout, so a replica whose own copy idles lets it go rather than end it.
   */
  private startBeat(entry: Entry) {
    if (entry.beat || this.opts.timeoutMs <= 0) return;
    entry.beat = setInterval(
      () => {
        if (!entry.id) return;
        entry.touched = this.now();
        void this.opts.store.touch(entry.id, entry.touched).catch(() => undefined);
      },
      Math.max(BEAT_FLOOR_MS, Math.floor(this.opts.timeoutMs / 3)),
    );
    entry.beat.unref();
  }

  private stopBeat(entry: Entry) {
    if (entry.beat) clearInterval(entry.beat);
    entry.beat = undefined;
  }

  private idleCheck(entry: Entry) {
    // --session-timeout=0 disables the idle timeout (the Redis store keeps such records a day, renewed by use).
    if (this.opts.timeoutMs <= 0) return;
    if (entry.active > 0 || entry.log.answering || !this.entries.has(entry.id) || entry.timer) return;
    entry.timer = setTimeout(() => void this.endUnlessActiveElsewhere(entry, 'timeout'), this.opts.timeoutMs);
    entry.timer.unref();
  }

  /**
   * Ends the session, unless another replica touched it since this one last did: then only this copy goes
   * (the session lives on where it is used). With a store of this process only, nobody else touches it.
   */
  private async endUnlessActiveElsewhere(entry: Entry, why: 'timeout' | 'evicted') {
    const record = await this.opts.store.get(entry.id).catch(() => undefined);
    if (this.entries.get(entry.id) !== entry) return;
    const elsewhere = record !== undefined && record.lastActive > entry.touched;
    this.end(entry.id, elsewhere ? 'released' : why, { closeTransport: true, keepRecord: elsewhere });
  }

  /**
   * Ends every session the credential opened (its pool entry is gone). A session still answering a call (the
   * very call whose 401 ended the entry, say) ends once its last call is answered, so that answer reaches the
   * client instead of being cut off with the session's streams.
   */
  endFor(key: string): void {
    for (const e of [...this.entries.values()]) {
      if (e.key !== key) continue;
      if (e.calls > 0) e.evicted = true;
      else void this.endUnlessActiveElsewhere(e, 'evicted');
    }
  }

  private end(id: string, why: SessionEndReason, o: { closeTransport?: boolean; keepRecord?: boolean } = {}) {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    if (o.keepRecord) this.opts.store.release?.(id);
    else void this.opts.store.delete(id).catch(() => undefined);
    if (entry.timer) clearTimeout(entry.timer);
    this.stopBeat(entry);
    entry.log.close();
    if (o.closeTransport) void entry.transport.close().catch(() => undefined);
    if (why !== 'released')
      publish(channels.sessionEnd, () => ({
        transport: 'tcp' as const,
        protocolVersion: entry.server.getNegotiatedProtocolVersion(),
        ms: now() - (entry.opened ?? now()),
      }));
    void entry.server.close().catch(() => undefined);
    this.opts.onClose?.(id, why);
  }

  /**
   * Shutdown: this process's copies go, the sessions stay in the store (another replica may continue them;
   * a store of this process only goes with it).
   */
  async closeAll(): Promise<void> {
    for (const id of [...this.entries.keys()])
      this.end(id, 'shutdown', { closeTransport: true, keepRecord: true });
  }
}

/**
 * The event a GET asks to resume its stream after (Last-Event-ID), when it asks for an event stream: the SDK
 * answers one that does not accept an event stream 406 first, and takes an empty id as none.
 */
function resumedAfter(req: IncomingMessage): string | undefined {
  if (req.method !== 'GET' || !req.headers.accept?.includes('text/event-stream')) return undefined;
  const raw = req.headers['last-event-id'];
  const id = Array.isArray(raw) ? raw.join(',') : raw;
  return id ? id : undefined;
}

/** What a client resuming with a Last-Event-ID this server never issues is told. */
const MALFORMED_EVENT_ID =
  'invalid Last-Event-ID: an event ID of this server is a UUID (or _GET_stream), "_" and the event\'s number, as the id: line of each event carries it; resume with the id of the last event received, or reconnect without Last-Event-ID';

/** What a client resuming after an event its session's log does not hold (any more) is told. */
const UNKNOWN_EVENT_ID = `Last-Event-ID names no event of this session's event log: it was issued to another session, or is no longer kept (a session keeps its newest ${EVENTS_PER_SESSION} events, ${EVENT_BYTES_PER_SESSION / 1024} KiB at most); reconnect without Last-Event-ID (the answers sent after that event are lost: a request whose answer did not arrive may still have taken effect)`;

/**
 * The SDK's response, its event stream cancelled as soon as the client's connection closes. The Node adapter
 * notices a closed connection only at the stream's next write (a keep-alive may be 25 s off), and until then the
 * SDK holds the stream as connected: a client resuming it with Last-Event-ID meanwhile would be refused 409.
 * A JSON answer is whole when it is sent, so it is passed on as it is.
 */
function endingWithClient(request: Request, response: Response): Response {
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream'))
    return response;
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  void response.body.pipeTo(writable, { signal: request.signal }).catch(() => undefined);
  return new Response(readable, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
