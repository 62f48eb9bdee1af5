/**
 * Answers a client asks for again and again and that never change once built (a surface's tool list, a
 * megabyte on the individual surface): their JSON is encoded once, and a transport that writes bytes
 * (stdio) sends that encoding instead of serializing the whole answer anew on every request.
 */
const encoded = new WeakMap<object, Buffer | null>();

/** Marks `value` as sent pre-serialized from now on; it must not be changed afterwards. */
export function preserialize<T extends object>(value: T): T {
  if (!encoded.has(value)) encoded.set(value, null);
  return value;
}

function encodingOf(value: object): Buffer | undefined {
  let bytes = encoded.get(value);
  if (bytes === undefined) return undefined;
  if (bytes === null) {
    bytes = Buffer.from(JSON.stringify(value));
    encoded.set(value, bytes);
  }
  return bytes;
}

/** Stands in for the pre-serialized part while the rest of the message is serialized. */
const SLOT = '\u0000forge-mcp-server:preserialized\u0000';
const SLOT_JSON = JSON.stringify(SLOT);

/**
 * The newline-ended wire line of a JSON-RPC answer whose result's `tools` was marked by preserialize(), in
 * three pieces to write one after another (the encoding is not copied): the same bytes as
 * JSON.stringify(message) + '\n'. Undefined for any other message.
 */
export function preserializedLine(message: unknown): [string, Buffer, string] | undefined {
  const result = (message as { result?: Record<string, unknown> } | undefined)?.result;
  const tools = result?.tools;
  if (typeof tools !== 'object' || tools === null) return undefined;
  const bytes = encodingOf(tools);
  if (!bytes) return undefined;
  const text = `${JSON.stringify({ ...(message as object), result: { ...result, tools: SLOT } })}\n`;
  const at = text.indexOf(SLOT_JSON);
  // The slot's text could only occur twice if a client chose it as a request id: serialize as usual then.
  if (at < 0 || text.indexOf(SLOT_JSON, at + 1) >= 0) return undefined;
  return [text.slice(0, at), bytes, text.slice(at + SLOT_JSON.length)];
}
