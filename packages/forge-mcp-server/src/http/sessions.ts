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
 */
import { channels, publish } from '../channels.js';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { EventStore } from '@modelcontextprotocol/server';
import type { SessionStore } from '../state/index.js';
import { CODES, rpcError, sendJson } from './headers.js';
import { BUSY_RETRY_AFTER_S } from './slots.js';
import { KEEP_ALIVE_MS } from '../subscriptions/index.js';

export const MAX_SESSIONS = 96;
/** What the server issues: a UUID; anything else is refused before the table is consulted. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Entry {
  id: string;
  /** Digest of instance and token that opened the session. */
  key: string;
  transport: NodeStreamableHTTPServerTransport;
  server: Server;
  active: number;
  timer?: NodeJS.Timeout;
  /** performance.now() when the session was initialized (for observers' session durations). */
  opened?: number;
}

export interface SessionTableOptions {
  timeoutMs: number;
  max?: number;
  /** Who owns each id and when it was last active (the state port). */
  store: SessionStore;
  /** A new event log for a session's streams, for Last-Event-ID resumption (the state port). */
  eventLog: () => EventStore;
  now?: () => number;
  onOpen?: (id: string) => void;
  onClose?: (id: string, why: 'deleted' | 'timeout' | 'shutdown' | 'evicted') => void;
}

export class SessionTable {
  private readonly entries = new Map<string, Entry>();
  private readonly max: number;
  private readonly now: () => number;

  constructor(private readonly opts: SessionTableOptions) {
    this.max = opts.max ?? MAX_SESSIONS;
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
      const record = await this.opts.store.get(id);
      const entry = this.entries.get(id);
      if (!entry || record?.owner !== key) {
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
      sendJson(
        res,
        503,
        rpcError(
          (parsed as { id?: unknown }).id,
          CODES.internal,
          `server is busy: all ${this.max} stateful session slots are held; retry shortly`,
        ),
        { 'retry-after': String(BUSY_RETRY_AFTER_S) },
      );
      return true;
    }
    await this.open(key, req, res, parsed, build);
    return true;
  }

  private async open(
    key: string,
    req: IncomingMessage,
    res: ServerResponse,
    parsed: unknown,
    build: () => Server,
  ) {
    const entry = { id: '', key, active: 0 } as Entry;
    entry.transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: this.opts.eventLog(),
      keepAliveMs: KEEP_ALIVE_MS,
      onsessioninitialized: async (id) => {
        entry.id = id;
        entry.opened = performance.now();
        this.entries.set(id, entry);
        const at = this.now();
        await this.opts.store.put({ id, owner: key, openedAt: at, lastActive: at });
        this.opts.onOpen?.(id);
      },
      onsessionclosed: (id) => this.end(id, 'deleted'),
    });
    entry.server = build();
    await entry.server.connect(entry.transport);
    entry.active++;
    await this.track(entry, res, () => entry.transport.handleRequest(req as never, res as never, parsed));
    // The session exists once the SDK initialized it; an initialize it refused leaves nothing behind.
    if (!entry.id) {
      await entry.transport.close().catch(() => undefined);
      await entry.server.close().catch(() => undefined);
    }
  }

  private async handle(entry: Entry, req: IncomingMessage, res: ServerResponse, parsed: unknown) {
    entry.active++;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
    void this.opts.store.touch(entry.id, this.now());
    await this.track(entry, res, () => entry.transport.handleRequest(req as never, res as never, parsed));
  }

  /** Counts the request as activity until its response (or stream) closes. */
  private async track(entry: Entry, res: ServerResponse, run: () => Promise<void>) {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      entry.active--;
      this.idleCheck(entry);
    };
    res.once('close', finish);
    await run();
  }

  private idleCheck(entry: Entry) {
    if (entry.active > 0 || !this.entries.has(entry.id) || entry.timer) return;
    entry.timer = setTimeout(() => this.end(entry.id, 'timeout', true), this.opts.timeoutMs);
    entry.timer.unref();
  }

  /** Ends every session the credential opened (its pool entry is gone). */
  endFor(key: string): void {
    for (const e of [...this.entries.values()]) if (e.key === key) this.end(e.id, 'evicted', true);
  }

  private end(id: string, why: 'deleted' | 'timeout' | 'shutdown' | 'evicted', closeTransport = false) {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    void this.opts.store.delete(id);
    if (entry.timer) clearTimeout(entry.timer);
    if (closeTransport) void entry.transport.close().catch(() => undefined);
    publish(channels.sessionEnd, () => ({
      transport: 'tcp' as const,
      protocolVersion: entry.server.getNegotiatedProtocolVersion(),
      ms: performance.now() - (entry.opened ?? performance.now()),
    }));
    void entry.server.close().catch(() => undefined);
    this.opts.onClose?.(id, why);
  }

  async closeAll(): Promise<void> {
    for (const id of [...this.entries.keys()]) this.end(id, 'shutdown', true);
  }
}
