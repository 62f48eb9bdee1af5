/**
 * The SDK's stdio transport, taking each inbound message already parsed by the line gate (src/stdio/lines.ts)
 * and writing a pre-serialized answer (src/mcp/preserialized.ts) as its bytes; every other message goes
 * through the SDK's own send.
 */
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { parseJSONRPCMessage, type JSONRPCMessage } from '@modelcontextprotocol/server';
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

  override send(message: JSONRPCMessage): Promise<void> {
    const line = this.ended ? undefined : preserializedLine(message);
    if (!line) return super.send(message);
    // As the SDK's send: settled once written, or once drained when the pipe is full, or by a write error.
    return new Promise((resolve, reject) => {
      const out = this.output;
      const settle = (err?: Error | null) => {
        out.off('error', settle);
        out.off('drain', settle);
        if (err) reject(err);
        else resolve();
      };
      out.once('error', settle);
      // Corked, the three pieces leave in one write.
      out.cork();
      out.write(line[0]);
      out.write(line[1]);
      const written = out.write(line[2]);
      out.uncork();
      if (written) settle();
      else out.once('drain', settle);
    });
  }
}
