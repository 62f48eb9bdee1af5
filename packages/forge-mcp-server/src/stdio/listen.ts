/**
 * subscriptions/listen on stdio (2026-07-28). The SDK's stdio entry answers a listen request itself and routes
 * the server's notifications/resources/updated onto each listen whose filter names the URI; this room makes
 * those notifications happen. Each forge:// resource a listen names is resolved like resources/read before the
 * request reaches the SDK (an unknown, excluded or withheld URI is refused before the acknowledgement, nothing
 * sent to the instance), then followed in the subscriptions room (read once for the version changes count
 * from, then polled) until the client cancels the listen or the connection ends.
 */
import { randomUUID } from 'node:crypto';
import { ProtocolError, type Server } from '@modelcontextprotocol/server';
import type { Logger } from '../log.js';
import { resolveResource, type ResolvedResource } from '../resources/index.js';
import type { Session } from '../session/index.js';
import { pollOf, type Follower, type Subscriptions } from '../subscriptions/index.js';
import type { WireError } from './lines.js';

/** The one credential of a stdio connection, as the subscriptions room knows it. */
const OWNER = 'stdio';

type Message = Record<string, unknown> & { params?: Record<string, unknown> };

function uriList(m: Message): unknown[] {
  const notifications = m.params?.notifications as { resourceSubscriptions?: unknown } | undefined;
  return Array.isArray(notifications?.resourceSubscriptions) ? notifications.resourceSubscriptions : [];
}

export class StdioListens {
  /** The modern-era server the entry pinned: changes are sent through it for the entry to route. */
  private server?: Server;
  /** Each open listen's follower, by the listen request's id. */
  private readonly listens = new Map<string | number, Follower>();

  constructor(
    private readonly room: Subscriptions,
    private readonly session: Session,
    private readonly log: Logger,
  ) {}

  /** The server of a 2026-07-28 connection. */
  serving(server: Server): void {
    this.server = server;
  }

  /** Looks at each inbound message before the SDK: a listen is checked and followed, a cancelled one let go. */
  admit = (m: Message): WireError | undefined => {
    if (m.method === 'notifications/cancelled') {
      const id = m.params?.requestId as string | number | undefined;
      const follower = id === undefined ? undefined : this.listens.get(id);
      if (follower) {
        this.listens.delete(id!);
        void this.room.detach(follower.id);
      }
      return undefined;
    }
    if (m.method !== 'subscriptions/listen' || !('id' in m)) return undefined;
    // Under the minimal surface the SDK acknowledges no resources (resources.subscribe is not advertised).
    if (this.session.config.capabilitySurface !== 'full') return undefined;
    const id = m.id as string | number;
    const resolved: Array<[string, ResolvedResource]> = [];
    try {
      for (const uri of uriList(m))
        if (typeof uri === 'string') resolved.push([uri, resolveResource(uri, this.session)]);
    } catch (err) {
      if (!(err instanceof ProtocolError)) throw err;
      const data = (err as { data?: unknown }).data;
      return {
        jsonrpc: '2.0',
        id,
        error: { code: err.code, message: err.message, ...(data !== undefined ? { data } : {}) },
      };
    }
    if (!resolved.length) return undefined;
    const follower: Follower = {
      id: randomUUID(),
      owner: OWNER,
      // One notification per change: the entry hands it to every listen whose filter names the URI.
      channel: `listen:${OWNER}`,
      notify: (uri) => void this.server?.sendResourceUpdated({ uri }).catch(() => undefined),
    };
    this.room.attach(follower);
    this.listens.set(id, follower);
    for (const [uri, r] of resolved)
      void this.room.follow(follower, uri, pollOf(r, this.room.signal)).then(
        // Cancelled while its first read was under way: what that read attached goes too.
        () => this.listens.get(id) !== follower && void this.room.detach(follower.id),
        (err: Error) => this.log.debug({ err: err.message, uri }, 'listen: first read failed'),
      );
    return undefined;
  };
}
