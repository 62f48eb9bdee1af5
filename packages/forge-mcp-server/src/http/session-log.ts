/**
 * A stateful session's event log as one replica sees it: the shared log (the state port's EventStore) plus
 * what only this process knows, which of the session's request streams it is answering right now.
 *
 * That is what decides who serves a GET with Last-Event-ID. A stream whose request is in flight here is the
 * SDK's to resume (it replays, then keeps writing live). Any other request stream, whether its request was
 * answered already or is in flight on another replica, is tailed from the shared log: what followed the
 * event is replayed, and what the other replica writes after is passed on as it lands, until the answer has
 * been sent. (The SDK would close such a stream after the replay, and a client shown no event on it forgets
 * where it was.)
 */
import type { ServerResponse } from 'node:http';
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/** The SDK's id for a session's standalone GET stream (it carries no request; the SDK always serves it). */
export const STANDALONE_STREAM = '_GET_stream';
/** How often a tailed stream reads the shared log for what another replica wrote. */
export const TAIL_POLL_MS = 200;

const isAnswer = (m: JSONRPCMessage) => 'id' in m && ('result' in m || 'error' in m);
const isPriming = (m: JSONRPCMessage) => Object.keys(m).length === 0;

export class SessionLog implements EventStore {
  /** Request streams this process is answering: opened by their priming event, closed by their answer. */
  private readonly live = new Set<StreamId>();
  /** While set, nothing is written (a continued session replaying its initialize). */
  quiet = false;
  /** Called once the last request this process was answering has its answer in the log. */
  onSettled?: () => void;

  constructor(private readonly shared: EventStore) {}

  async storeEvent(stream: StreamId, message: JSONRPCMessage): Promise<EventId> {
    if (this.quiet) return `replay_${stream}`;
    if (isPriming(message)) this.live.add(stream);
    const settled = isAnswer(message) && this.live.delete(stream) && this.live.size === 0;
    const id = await this.shared.storeEvent(stream, message);
    if (settled && this.live.size === 0) this.onSettled?.();
    return id;
  }

  /**
   * Whether a request is being answered here, its client's connection open or not: a call whose stream was
   * cut still runs, and its answer lands in the log for the client to resume, here or elsewhere.
   */
  get answering(): boolean {
    return this.live.size > 0;
  }

  getStreamIdForEventId(id: EventId): Promise<StreamId | undefined> {
    return this.shared.getStreamIdForEventId?.(id) ?? Promise.resolve(undefined);
  }

  replayEventsAfter(
    id: EventId,
    o: { send: (id: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    return this.shared.replayEventsAfter(id, o);
  }

  /** Whether a GET resuming after `lastEventId` is to be tailed here rather than left to the SDK. */
  async tails(lastEventId: string): Promise<boolean> {
    const stream = await this.getStreamIdForEventId(lastEventId);
    return stream !== undefined && stream !== STANDALONE_STREAM && !this.live.has(stream);
  }

  /**
   * Serves a resumed request stream from the shared log: replays what followed `lastEventId`, then passes on
   * what lands after, until the answer has been sent, the client leaves, `ended()` says the session is over,
   * or nothing has landed for `idleMs` (the replica answering it is gone; Infinity: never for silence).
   */
  async tail(
    lastEventId: string,
    res: ServerResponse,
    o: { sessionId: string; idleMs: number; ended: () => boolean; keepAliveMs: number },
  ): Promise<void> {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'mcp-session-id': o.sessionId,
    });
    // The client learns the stream is open now, not with the first event (which may be a while coming).
    res.flushHeaders();
    let after = lastEventId;
    let answered = false;
    let lastNews = Date.now();
    let lastWrite = Date.now();
    let wake: (() => void) | undefined;
    const gone = () => res.destroyed || res.writableEnded;
    res.once('close', () => wake?.());
    while (!answered && !gone() && !o.ended()) {
      try {
        await this.shared.replayEventsAfter(after, {
          send: async (id, message) => {
            if (answered) return;
            after = id;
            lastNews = lastWrite = Date.now();
            res.write(`event: message\nid: ${id}\ndata: ${JSON.stringify(message)}\n\n`);
            if (isAnswer(message)) answered = true;
          },
        });
      } catch {
        // The event is no longer kept: the client is told by the stream's end and starts over.
        break;
      }
      if (answered || Date.now() - lastNews > o.idleMs) break;
      if (Date.now() - lastWrite >= o.keepAliveMs) {
        res.write(': keepalive\n\n');
        lastWrite = Date.now();
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, TAIL_POLL_MS).unref();
      });
    }
    if (!gone()) res.end();
  }
}
