/**
 * The SDK's stdio transport, taking each inbound message already parsed by the line gate (src/stdio/lines.ts)
 * and writing each message itself: a pre-serialized answer (src/mcp/preserialized.ts) as its bytes, every
 * other one as the SDK's send writes it.
 */
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { parseJSONRPCMessage, serializeMessage, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { preserializedLine } from '../mcp/preserialized.js';

export class StdioTransport extends StdioServerTransport {
  private ended = false;

  constructor(
    input: Readable,
    private readonly output: Writable,
    options: { maxBufferSize: number },
  ) {
    super(input, output, options);
  }

  /**
   * A message the line gate parsed, checked against the SDK's message schema and dispatched as the SDK's
   * own read buffer does with a line it parsed: a message the schema refuses, or a dispatch that throws,
   * goes to the error hook. Nothing is dispatched once the transport is closed.
   */
  receive(value: Record<string, unknown>): void {
    if (this.ended) return;
    try {
      this.onmessage?.(parseJSONRPCMessage(value));
    } catch (err) {
      this.onerror?.(err as Error);
    }
  }

  override async close(): Promise<void> {
    this.ended = true;
    return super.close();
  }

  /**
   * The SDK's send, with the same bytes and settling: a pre-serialized answer goes out as its three pieces,
   * every other message as serializeMessage's line. A write the pipe takes settles at once; the SDK listens
   * for 'error' around that write too, but a stream emits a write's error later, never inside write(), so
   * only a full pipe needs listeners: settled once drained, or by a write error.
   */
  override send(message: JSONRPCMessage): Promise<void> {
    if (this.ended) return super.send(message);
    const out = this.output;
    const line = preserializedLine(message);
    let written: boolean;
    if (line) {
      // Corked, the three pieces leave in one write.
      out.cork();
      out.write(line[0]);
      out.write(line[1]);
      written = out.write(line[2]);
      out.uncork();
    } else written = out.write(serializeMessage(message));
    if (written) return SENT;
    return new Promise((resolve, reject) => {
      const settle = (err?: Error | null) => {
        out.off('error', settle);
        out.off('drain', settle);
        if (err) reject(err);
        else resolve();
      };
      out.once('error', settle);
      out.once('drain', settle);
    });
  }
}

/** What send answers for a message the pipe took at once (one settled promise serves every such send). */
const SENT: Promise<void> = Promise.resolve();
