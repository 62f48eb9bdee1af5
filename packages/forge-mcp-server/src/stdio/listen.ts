/**
 * subscriptions/listen on stdio (2026-07-28). The SDK's stdio entry answers a listen request itself and routes
 * the server's notifications/resources/updated onto each listen whose filter names the URI; this room makes
 * those notifications happen. Each forge:// resource a listen names is resolved like resources/read before the
 * request reaches the SDK (an unknown, excluded or withheld URI is refused before the acknowledgement, nothing
 * sent to the instance), read once for the version changes count from (a read the instance refuses is the
 * listen's answer, as over HTTP; the connection's later lines wait for these reads), then followed in the
 * subscriptions room until the client cancels the listen or the connection ends. The connection's one credential
 * may hold FORGE_MCP_MAX_LISTEN_STREAMS listens (0: no such ceiling) and the process 512, refused as over HTTP.
 */
import { randomUUID } from 'node:crypto';
import { ProtocolError, type Server } from '@modelcontextprotocol/server';
import type { Logger } from '../log.js';
import { resolveResource, type ResolvedResource } from '../resources/index.js';
import type { Session } from '../session/index.js';
import { pollOf, type Follower, type Subscriptions } from '../subscriptions/index.js';
import { RATE_LIMITED_CODE } from '../http/limits.js';
import type { WireError } from './lines.js';

/** The one credential of a stdio connection, as the subscriptions room knows it. */
const OWNER = 'stdio';
const INTERNAL_ERROR = -32603;
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

type Message = Record<string, unknown> & { params?: Record<string, unknown> };

function wireError(id: string | number, err: ProtocolError): WireError {
  const data = (err as { data?: unknown }).data;
  return {
    jsonrpc: '2.0',
    id,
    error: { code: err.code, message: err.message, ...(data !== undefined ? { data } : {}) },
  };
}

function uriList(m: Message): unknown[] {
  const notifications = m.params?.notifications as { resourceSubscriptions?: unknown } | undefined;
  return Array.isArray(notifications?.resourceSubscriptions) ? notifications.resourceSubscriptions : [];
}

export class StdioListens {
  /** The modern-era server the entry pinned: changes are sent through it for the entry to route. */
  private server?: Server;
  /** Each open listen's follower, by the listen request's id. */
  private readonly listens = new Map<string | number, Follower>();
  /** Every open listen (with resources or not), by request id, for the ceilings. */
  private readonly open = new Set<string | number>();

  constructor(
    private readonly room: Subscriptions,
    private readonly session: Session,
    private readonly log: Logger,
    /** FORGE_MCP_MAX_LISTEN_STREAMS (0: none) and the process's ceiling. */
    private readonly ceilings: { perCredential: number; perProcess: number },
  ) {}

  /** What the SDK's entry is told as its own ceiling (a backstop: the refusal with its reason is made here). */
  get limit(): number {
    const { perCredential, perProcess } = this.ceilings;
    return perCredential > 0 ? Math.min(perCredential, perProcess) : perProcess;
  }

  private refuseOverCeiling(id: string | number): WireError | undefined {
    const { perCredential, perProcess } = this.ceilings;
    if (this.open.size >= perProcess)
      return {
        jsonrpc: '2.0',
        id,
        error: {
          code: INTERNAL_ERROR,
          message: `server is busy: all ${perProcess} listen streams of this process are open; retry shortly`,
          data: { reason: 'listen_streams', limit: perProcess },
        },
      };
    if (perCredential > 0 && this.open.size >= perCredential)
      return {
        jsonrpc: '2.0',
        id,
        error: {
          code: RATE_LIMITED_CODE,
          message: `too many listen streams: this credential already holds ${perCredential} open event streams (FORGE_MCP_MAX_LISTEN_STREAMS=${perCredential}); close one before opening another, or follow several resources on one stream`,
          data: { reason: 'listen_streams', limit: perCredential },
        },
      };
    return undefined;
  }

  /** The server of a 2026-07-28 connection. */
  serving(server: Server): void {
    this.server = server;
  }

  /**
   * Looks at each inbound message before the SDK: a listen is checked and its resources followed (the line is
   * held until each has been read once), a cancelled one let go.
   */
  admit = (m: Message): WireError | undefined | Promise<WireError | undefined> => {
    if (m.method === 'notifications/cancelled') {
      const id = m.params?.requestId as string | number | undefined;
      if (id !== undefined) this.open.delete(id);
      const follower = id === undefined ? undefined : this.listens.get(id);
      if (follower) {
        this.listens.delete(id!);
        void this.room.detach(follower.id);
      }
      return undefined;
    }
    if (m.method !== 'subscriptions/listen' || !('id' in m)) return undefined;
    const id = m.id as string | number;
    // Counted once it is one the SDK will hold open (a malformed listen is refused by the SDK itself).
    const meta = m.params?._meta as Record<string, unknown> | undefined;
    const wellFormed =
      typeof meta?.[PROTOCOL_VERSION_KEY] === 'string' && typeof m.params?.notifications === 'object';
    if (wellFormed) {
      const refused = this.refuseOverCeiling(id);
      if (refused) return refused;
    }
    // Under the minimal surface the SDK acknowledges no resources (resources.subscribe is not advertised).
    if (this.session.config.capabilitySurface !== 'full') return this.opened(id, wellFormed);
    const uris = uriList(m).filter((uri): uri is string => typeof uri === 'string');
    if (!uris.length) return this.opened(id, wellFormed);
    return this.resolve(id, uris, wellFormed);
  };

  /** Resolves every URI first (a bad one is the listen's answer, nothing followed), then follows them. */
  private async resolve(
    id: string | number,
    uris: string[],
    counted: boolean,
  ): Promise<WireError | undefined> {
    const resolved: Array<[string, ResolvedResource]> = [];
    try {
      for (const uri of uris) resolved.push([uri, await resolveResource(uri, this.session)]);
    } catch (err) {
      if (!(err instanceof ProtocolError)) throw err;
      return wireError(id, err);
    }
    return this.follow(id, resolved, counted);
  }

  /** Follows a listen's resources, each read once first; a read refused is the listen's answer, as over HTTP. */
  private async follow(
    id: string | number,
    resolved: Array<[string, ResolvedResource]>,
    counted: boolean,
  ): Promise<WireError | undefined> {
    const follower: Follower = {
      id: randomUUID(),
      owner: OWNER,
      // One notification per change: the entry hands it to every listen whose filter names the URI.
      channel: `listen:${OWNER}`,
      notify: (uri) => void this.server?.sendResourceUpdated({ uri }).catch(() => undefined),
    };
    this.room.attach(follower);
    try {
      for (const [uri, r] of resolved) await this.room.follow(follower, uri, pollOf(r, this.room.signal));
    } catch (err) {
      await this.room.detach(follower.id);
      if (err instanceof ProtocolError) return wireError(id, err);
      this.log.debug({ err: (err as Error).message }, 'listen: a first read failed');
      return {
        jsonrpc: '2.0',
        id,
        error: { code: INTERNAL_ERROR, message: 'the listened resources could not be read; retry shortly' },
      };
    }
    this.listens.set(id, follower);
    return this.opened(id, counted);
  }

  private opened(id: string | number, counted: boolean): undefined {
    if (counted) this.open.add(id);
    return undefined;
  }
}
