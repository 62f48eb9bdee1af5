/**
 * A stateful session's event log as one replica sees it: the shared log (the state port's SessionEventLog) plus
 * what only this process knows, which of the session's request streams it is answering right now.
 *
 * That is what decides who serves a GET with Last-Event-ID. A stream whose request is in flight here is the
 * SDK's to resume (it replays, then keeps writing live). Any other request stream, whether its request was
 * answered already or is in flight on another replica, is tailed from the shared log: what followed the
 * event is replayed, and what the other replica writes after is passed on as it lands, until the answer has
 * been sent. (The SDK would close such a stream after the replay, and a client shown no event on it forgets
 * where it was.)
 *
 * The log records which replica answers each request stream, from its first event to its answer. A replica that
 * stops before answering (killed, its heartbeat lapsed) leaves its client an answer saying so, stored once in
 * its stead by whichever replica tailing the stream sees it first, instead of a wait for nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import type { EventId, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';
import {
  isAnswer,
  isStateUnavailable,
  type LoggedRequest,
  type SessionEventLog,
  type StoppedAnswers,
} from '../state/index.js';
import { CODES } from './headers.js';

/** The SDK's id for a session's standalone GET stream (it carries no request; the SDK always serves it). */
export const STANDALONE_STREAM = '_GET_stream';
/**
 * The form of every event id a session's log issues, in memory or in Redis: the stream or log it belongs to (a
 * UUID, or the standalone GET stream), "_" and the event's sequence number.
 */
export const EVENT_ID =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|_GET_stream)_[1-9][0-9]{0,14}$/;
/** How often answers the shared log refused are offered to it again (the Retry-After of a refusal). */
export const UNLOGGED_RETRY_MS = 5_000;
/** How often a tailed stream reads the shared log for what another replica wrote. */
export const TAIL_POLL_MS = 200;

/**
 * What a client whose request's replica stopped before answering is told. A call may have reached the instance
 * before the replica stopped, so it is not to be repeated blindly; any other request can simply be sent again.
 */
const STOPPED_TEXT =
  'replica stopped: the server replica answering this call stopped before it answered, so the call may or may not have taken effect at the instance. Check the instance before repeating it (a read can simply be repeated).';
const STOPPED_OTHER_TEXT =
  'replica stopped: the server replica answering this request stopped before it answered; send the request again.';
const STOPPED: StoppedAnswers = {
  tool: { result: { content: [{ type: 'text', text: STOPPED_TEXT }], isError: true } },
  other: { error: { code: CODES.internal, message: STOPPED_OTHER_TEXT } },
};

const isPriming = (m: JSONRPCMessage) => Object.keys(m).length === 0;

/** The requests of the POST being served (the SDK writes its stream's priming event inside that call). */
const posting = new AsyncLocalStorage<readonly LoggedRequest[]>();

/** Runs `serve`, the SDK serving a POST whose body is `body`, so the log knows which requests its stream carries. */
export function servingPost<T>(body: unknown, serve: () => T): T {
  const requests: LoggedRequest[] = [];
  for (const m of Array.isArray(body) ? body : [body]) {
    const r = m as { id?: unknown; method?: unknown } | null;
    if (typeof r?.method === 'string' && (typeof r.id === 'string' || typeof r.id === 'number'))
      requests.push({ id: r.id, tool: r.method === 'tools/call' });
  }
  return requests.length ? posting.run(requests, serve) : serve();
}

export class SessionLog implements SessionEventLog {
  /**
   * Request streams this process is answering, with how many of their requests await an answer: opened by
   * their priming event, closed by their last answer (a batch's stream carries one per request).
   */
  private readonly live = new Map<StreamId, number>();
  /** While set, nothing is written (a continued session replaying its initialize). */
  quiet = false;
  /** Called once the last request this process was answering has its answer in the log. */
  onSettled?: () => void;

  constructor(private readonly shared: SessionEventLog) {}

  async storeEvent(stream: StreamId, message: JSONRPCMessage): Promise<EventId> {
    if (this.quiet) return `replay_${stream}`;
    const requests = isPriming(message) ? posting.getStore() : undefined;
    if (isPriming(message)) this.live.set(stream, Math.max(1, requests?.length ?? 0));
    const left = isAnswer(message) ? (this.live.get(stream) ?? 0) - 1 : undefined;
    if (left !== undefined && left > 0) this.live.set(stream, left);
    const settled = left === 0 && this.live.delete(stream) && this.live.size === 0;
    let id: EventId;
    try {
      id = await this.shared.storeEvent(stream, message, requests);
    } catch (err) {
      if (!isStateUnavailable(err)) throw err;
      // The shared log cannot take it now (Redis down, or held by replicas sealing otherwise): a client still
      // connected gets it all the same, as an event without an id (none the log could resume after), and an
      // answer is written to the log once it takes writes again, for a client resuming elsewhere to read.
      if (isAnswer(message)) this.logLater(stream, message);
      id = '';
    }
    if (settled && this.live.size === 0) this.onSettled?.();
    return id;
  }

  /** Answers the shared log refused, oldest first, and the timer that offers them to it again. */
  private readonly unlogged: Array<{ stream: StreamId; message: JSONRPCMessage }> = [];
  private retry?: NodeJS.Timeout;

  private logLater(stream: StreamId, message: JSONRPCMessage): void {
    this.unlogged.push({ stream, message });
    this.retry ??= setInterval(() => void this.logUnlogged(), UNLOGGED_RETRY_MS).unref();
  }

  /** Set while the unlogged answers are offered: a tick falling meanwhile leaves them to that offer. */
  private offering = false;

  private async logUnlogged(): Promise<void> {
    // One offer at a time: a write can outlast the period (Redis answering slowly), and a second offer would
    // write the same answer again and drop the one after it from the queue before it is written.
    if (this.offering) return;
    this.offering = true;
    try {
      while (this.unlogged.length > 0) {
        const { stream, message } = this.unlogged[0]!;
        try {
          await this.shared.storeEvent(stream, message);
        } catch (err) {
          if (isStateUnavailable(err)) return;
        }
        this.unlogged.shift();
      }
      this.close();
      // The last answer waiting is in the log: the session may idle out from now on.
      if (this.live.size === 0) this.onSettled?.();
    } finally {
      this.offering = false;
    }
  }

  /** The session left this process: answers still unlogged are given up (they reached whom they could). */
  close(): void {
    this.unlogged.length = 0;
    clearInterval(this.retry);
    this.retry = undefined;
  }

  /**
   * Whether a request is being answered here, its client's connection open or not: a call whose stream was
   * cut still runs, and its answer lands in the log for the client to resume, here or elsewhere. An answer the
   * log refused counts until it is written: the session does not idle out here while it waits (the log names
   * this replica its answerer, so no other replica would ever answer it in its stead).
   */
  get answering(): boolean {
    return this.live.size > 0 || this.unlogged.length > 0;
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

  /**
   * Who serves a GET resuming after `lastEventId`: this log, tailing it (`tail`), or the SDK (`sdk`: the
   * standalone stream, or a stream answered here now); `unknown` when the log does not hold that event.
   */
  async resumption(lastEventId: string): Promise<'tail' | 'sdk' | 'unknown'> {
    const stream = await this.getStreamIdForEventId(lastEventId);
    if (stream === undefined) return 'unknown';
    return stream !== STANDALONE_STREAM && !this.live.has(stream) ? 'tail' : 'sdk';
  }

  /**
   * Serves a resumed request stream from the shared log: replays what followed `lastEventId`, then passes on
   * what lands after, until the answers have been sent (the replica answering its requests stored them, or it
   * stopped before answering them all and the answers saying so were stored in its stead; a batch's stream
   * carries one per request; at once when the client had them all, resuming after the last), the client
   * leaves, `ended()` says the session is over (here or in the store), or nothing has landed for `idleMs`
   * (Infinity: never for silence).
   */
  async tail(
    lastEventId: string,
    res: ServerResponse,
    o: { sessionId: string; idleMs: number; ended: () => Promise<boolean>; keepAliveMs: number },
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
    /** The log said no request of the stream awaits an answer any more. */
    let settled = false;
    let lastNews = Date.now();
    let lastWrite = Date.now();
    let wake: (() => void) | undefined;
    const gone = () => res.destroyed || res.writableEnded;
    res.once('close', () => wake?.());
    while (!gone() && !(await o.ended())) {
      let stream: StreamId;
      try {
        stream = await this.shared.replayEventsAfter(after, {
          send: async (id, message) => {
            after = id;
            lastNews = lastWrite = Date.now();
            res.write(`event: message\nid: ${id}\ndata: ${JSON.stringify(message)}\n\n`);
          },
        });
      } catch {
        // The event is no longer kept: the client is told by the stream's end and starts over.
        break;
      }
      // Settled before that replay, which passed on the last answers. A log of this process only holds every
      // answer of a stream not answered here (resumption: tail), so its one replay is all there is.
      if (settled || !this.shared.answerIfStopped) break;
      if (Date.now() - lastNews > o.idleMs) break;
      const check = await this.shared.answerIfStopped(stream, STOPPED).catch(() => 'answering' as const);
      // Stored just now in the stopped replica's stead, or answered since that replay: the next one passes on
      // what is left, if anything (none, when the client resumed after the last answer), and the stream ends.
      settled = check === 'answered';
      if (check === 'stored' || settled) continue;
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
