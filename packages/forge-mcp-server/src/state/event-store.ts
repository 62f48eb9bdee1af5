/**
 * The events a stateful session's streams carried, kept so a client whose stream broke can resume with
 * Last-Event-ID and lose nothing. Bounded: each session keeps its newest events, at most `max` of them and at
 * most `maxBytes` of serialized messages (so 96 sessions hold at most 24 MiB however large their answers); a
 * client that comes back after more than that has passed is told to start over (the SDK answers an unknown
 * event id).
 *
 * An event is kept as its serialized text, parsed again only when replayed: the text is what the byte bound
 * counts, and on the heap a tool answer's objects take about 1.3 times its length (its text about 1.1 with
 * the event's id and record).
 *
 * This is the in-memory implementation of the SDK's EventStore port; a shared store for several replicas
 * implements the same three methods, and records which replica answers each request stream (types.ts:
 * SessionEventLog), which one process has no need of.
 */
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/** Whether a message is a JSON-RPC answer (a result or an error), the last event of its request's stream. */
export const isAnswer = (m: JSONRPCMessage): boolean => 'id' in m && ('result' in m || 'error' in m);

export const EVENTS_PER_SESSION = 1000;
export const EVENT_BYTES_PER_SESSION = 256 * 1024;

interface Stored {
  id: EventId;
  stream: StreamId;
  text: string;
  bytes: number;
}

export class MemoryEventStore implements EventStore {
  private readonly events: Stored[] = [];
  private seq = 0;
  private held = 0;

  constructor(
    private readonly max = EVENTS_PER_SESSION,
    private readonly maxBytes = EVENT_BYTES_PER_SESSION,
  ) {}

  async storeEvent(stream: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `${stream}_${++this.seq}`;
    const text = JSON.stringify(message);
    const bytes = Buffer.byteLength(text);
    this.events.push({ id, stream, text, bytes });
    this.held += bytes;
    // The newest event is always kept, even alone over the byte bound, so the stream it belongs to resumes.
    while (this.events.length > 1 && (this.events.length > this.max || this.held > this.maxBytes))
      this.held -= this.events.shift()!.bytes;
    return id;
  }

  async getStreamIdForEventId(id: EventId): Promise<StreamId | undefined> {
    return this.events.find((e) => e.id === id)?.stream;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (id: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const at = this.events.findIndex((e) => e.id === lastEventId);
    if (at === -1) throw new Error(`event ${lastEventId} is no longer kept: start a new session`);
    const stream = this.events[at]!.stream;
    for (const e of this.events.slice(at + 1))
      if (e.stream === stream) await send(e.id, JSON.parse(e.text) as JSONRPCMessage);
    return stream;
  }

  get size(): number {
    return this.events.length;
  }

  /** Serialized bytes of the events held. */
  get bytes(): number {
    return this.held;
  }
}
