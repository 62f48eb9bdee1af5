/**
 * Event streams over HTTP: a subscriptions/listen request (2026-07-28) and a stateful session's GET stream
 * (2025 era) each take one of the credential's listen streams (FORGE_MCP_MAX_LISTEN_STREAMS, 64 by default; 0
 * lifts only this ceiling) and one of the process's 512, for as long as the stream stays open. A listen
 * stream's resources are resolved like resources/read before the stream opens (an unknown, excluded or
 * withheld URI is refused, nothing sent to the instance), each is read once for the version changes are
 * measured from, and the stream then follows them in the subscriptions room, holding its credential's pool
 * entry until it closes; evicting the credential ends it.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ProtocolError } from '@modelcontextprotocol/server';
import { resolveResource } from '../resources/index.js';
import type { Session } from '../session/index.js';
import { pollOf, type Follower, type Subscriptions } from '../subscriptions/index.js';
import { CODES, rpcError, sendJson } from './headers.js';
import { RATE_LIMITED_CODE } from './limits.js';
import { BUSY_RETRY_AFTER_S } from './slots.js';

type Message = { id?: string | number; method?: string; params?: Record<string, unknown> };

/** The stream a request opens, if any. */
function streamKind(req: IncomingMessage, parsed: unknown): 'listen' | 'session' | undefined {
  if (req.method === 'GET' && req.headers['mcp-session-id'] !== undefined) return 'session';
  const m = parsed as Message | undefined;
  if (req.method === 'POST' && !Array.isArray(parsed) && m?.method === 'subscriptions/listen')
    return 'listen';
  return undefined;
}

function uriList(m: Message): unknown[] {
  const notifications = m.params?.notifications as { resourceSubscriptions?: unknown } | undefined;
  return Array.isArray(notifications?.resourceSubscriptions) ? notifications.resourceSubscriptions : [];
}

export class EventStreams {
  constructor(private readonly room: Subscriptions) {}

  /**
   * Serves a request through `next` (the SDK), first taking a stream if it opens one. Answers the refusal
   * itself when a ceiling is reached or a listen stream names a resource it may not follow.
   */
  async serve(
    req: IncomingMessage,
    res: ServerResponse,
    key: string,
    session: Session,
    parsed: unknown,
    next: () => Promise<void>,
  ): Promise<void> {
    const kind = streamKind(req, parsed);
    if (!kind) return next();
    const id = (parsed as Message | undefined)?.id ?? null;
    const refused = await this.room.openStream(key);
    if (refused?.ceiling === 'credential')
      return sendJson(
        res,
        429,
        rpcError(
          id,
          RATE_LIMITED_CODE,
          `too many listen streams: this credential already holds ${refused.limit} open event streams (FORGE_MCP_MAX_LISTEN_STREAMS=${refused.limit}); close one before opening another, or follow several resources on one stream`,
          { reason: 'listen_streams', limit: refused.limit },
        ),
      );
    if (refused)
      return sendJson(
        res,
        503,
        rpcError(
          id,
          CODES.internal,
          `server is busy: all ${refused.limit} listen streams of this process are open; retry shortly`,
          { reason: 'listen_streams', limit: refused.limit },
        ),
        { 'retry-after': String(BUSY_RETRY_AFTER_S) },
      );
    let follower: Follower | undefined;
    res.once('close', () => {
      // A shared store that does not answer now catches up later (its own resync); nothing is left unhandled.
      void this.room.closeStream(key).catch(() => undefined);
      if (follower) void this.room.detach(follower.id).catch(() => undefined);
    });
    if (kind === 'session') return next();
    // Under the minimal surface the SDK acknowledges no resources (resources.subscribe is not advertised).
    if (session.config.capabilitySurface === 'full') {
      follower = {
        id: randomUUID(),
        owner: key,
        channel: `listen:${key}`,
        notify: (uri) => this.room.bus.resourceUpdated(key, uri),
        end: () => res.destroy(),
      };
      this.room.attach(follower);
      try {
        for (const uri of uriList(parsed as Message)) {
          if (typeof uri !== 'string') continue; // the SDK refuses a malformed filter itself
          await this.room.follow(
            follower,
            uri,
            pollOf(await resolveResource(uri, session), this.room.signal),
          );
        }
      } catch (err) {
        if (!(err instanceof ProtocolError)) throw err;
        await this.room.detach(follower.id);
        follower = undefined;
        return sendJson(res, 200, rpcError(id, err.code, err.message, err.data));
      }
    }
    await this.room.bus.as(key, next);
  }
}
