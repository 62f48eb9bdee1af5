/**
 * The stdio wire's gate: splits stdin into lines and hands on only lines that are JSON-RPC messages, parsed
 * (the transport takes the parsed message, so no line is parsed twice).
 * JSON-RPC asks for an answer to what cannot be read, which the SDK's transport only reports to its error
 * hook: a line that is not JSON is answered -32700, JSON that is not a message -32600, a line over
 * FORGE_MCP_STDIO_MAX_LINE_BYTES or nesting deeper than 100 -32600 (and skipped, the connection kept), each with a null id unless the
 * message carried a usable one. Blank lines are ignored.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { jsonDepth, MAX_JSON_DEPTH } from '../json-depth.js';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

export interface WireError {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string; data?: unknown };
}

function refusal(id: string | number | null, code: number, message: string): WireError {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function idOf(value: Record<string, unknown>): string | number | null {
  const id = value.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** Why a parsed line is not a JSON-RPC message, or undefined when it is one. */
export function notAMessage(value: unknown): string | undefined {
  if (Array.isArray(value))
    return value.length === 0
      ? 'an empty batch is not a request: send one JSON-RPC object per line'
      : 'batches are not supported by MCP: send one JSON-RPC object per line';
  if (value === null || typeof value !== 'object')
    return 'a JSON-RPC message is an object with "jsonrpc": "2.0"';
  const m = value as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return 'a JSON-RPC message needs "jsonrpc": "2.0"';
  if ('id' in m && idOf(m) === null)
    return 'a request id must be a string or a number (omit it for a notification)';
  if ('method' in m) {
    if (typeof m.method !== 'string' || m.method === '') return '"method" must be a non-empty string';
    if ('params' in m && (m.params === null || typeof m.params !== 'object' || Array.isArray(m.params)))
      return '"params" must be an object';
    return undefined;
  }
  if ('id' in m && ('result' in m || 'error' in m)) return undefined;
  return 'a JSON-RPC message needs "method" (a request or notification) or "result"/"error" (a response)';
}

/**
 * A stream that hands each complete, well-formed JSON-RPC message to `deliver`, in order, and every refusal
 * to `answer`. `maxLineBytes` bounds a line; the rest of an over-long line is skipped up to its newline.
 * Nothing is read from its readable side: it only ends when stdin does.
 */
export function lineGate(
  maxLineBytes: number,
  answer: (error: WireError) => void,
  deliver: (message: Record<string, unknown>) => void,
  /**
   * A last say on a well-formed message (the rate limit, a listen's resources): an error to answer instead of
   * passing it on. A promise holds this line, and every line after it, until it settles.
   */
  admit?: (message: Record<string, unknown>) => WireError | undefined | Promise<WireError | undefined>,
): Transform {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  /** The line's pieces as one buffer (a line read in one piece is not copied). */
  const joined = () => (pending.length === 1 ? pending[0]! : Buffer.concat(pending));

  const line = (bytes: Buffer): Promise<void> | undefined => {
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    if (jsonDepth(text) > MAX_JSON_DEPTH) {
      answer(
        refusal(
          null,
          INVALID_REQUEST,
          `Invalid Request: the message nests deeper than ${MAX_JSON_DEPTH} levels`,
        ),
      );
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      answer(
        refusal(null, PARSE_ERROR, 'Parse error: the line is not JSON; send one JSON-RPC object per line'),
      );
      return;
    }
    const why = notAMessage(value);
    if (why) {
      const id = value && typeof value === 'object' && !Array.isArray(value) ? idOf(value as never) : null;
      answer(refusal(id, INVALID_REQUEST, `Invalid Request: ${why}`));
      return;
    }
    const message = value as Record<string, unknown>;
    const pass = () => deliver(message);
    const refused = admit?.(message);
    if (refused instanceof Promise) return refused.then((r) => (r ? answer(r) : pass()));
    if (refused) return void answer(refused);
    pass();
  };

  const overLong = () =>
    answer(
      refusal(
        null,
        INVALID_REQUEST,
        `Invalid Request: the line is over ${maxLineBytes} bytes (FORGE_MCP_STDIO_MAX_LINE_BYTES) and was skipped`,
      ),
    );

  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      // Lines in order: a line whose admission is awaited holds the rest of the chunk (and the next chunks).
      const run = (from: number): void => {
        let start = from;
        while (start < chunk.length) {
          const nl = chunk.indexOf(0x0a, start);
          const end = nl === -1 ? chunk.length : nl;
          const piece = chunk.subarray(start, end);
          if (!skipping) {
            if (pendingBytes + piece.length > maxLineBytes) {
              skipping = true;
              pending = [];
              pendingBytes = 0;
              overLong();
            } else {
              pending.push(piece);
              pendingBytes += piece.length;
            }
          }
          if (nl === -1) break;
          const held = skipping ? undefined : line(joined());
          pending = [];
          pendingBytes = 0;
          skipping = false;
          start = nl + 1;
          if (held) {
            const next = start;
            held.then(() => run(next), done);
            return;
          }
        }
        done();
      };
      run(0);
    },
    flush(done: TransformCallback) {
      const held = !skipping && pendingBytes > 0 ? line(joined()) : undefined;
      if (held) held.then(() => done(), done);
      else done();
    },
  });
}
