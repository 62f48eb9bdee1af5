/**
 * Answers whose JSON already exists when they are sent: a surface's tool list (asked for again and again,
 * never changed once built, a megabyte on the individual surface) is encoded once, and an instance's JSON
 * answer comes with the bytes the instance sent. A transport that writes bytes (stdio) sends those instead
 * of serializing the whole answer anew on every request.
 */
import { isUtf8 } from 'node:buffer';

const encoded = new WeakMap<object, Buffer | null>();

/** Marks `value` as sent pre-serialized from now on; it must not be changed afterwards. */
export function preserialize<T extends object>(value: T): T {
  if (!encoded.has(value)) encoded.set(value, null);
  return value;
}

function encodingOf(value: unknown): Buffer | undefined {
  let bytes = encoded.get(value as object);
  if (bytes === undefined) return undefined;
  if (bytes === null) {
    bytes = Buffer.from(JSON.stringify(value));
    encoded.set(value as object, bytes);
  }
  return bytes;
}

/**
 * Where a tool result carries the instance's bytes of its structuredContent (or of that one's items): a
 * symbol, which no JSON serialization sees. Kept on the result rather than in a WeakMap by body, as a
 * WeakMap entry for every answer costs the garbage collector more than the serializing it saves; and as
 * the bytes (outside the JS heap), not the text, which kept until the answer is written costs it too.
 */
const INSTANCE_JSON = Symbol('forge-mcp-server:instance-json');
interface InstanceJson {
  /** The result's structuredContent, or its items. */
  value: object;
  bytes: Buffer;
}
type Marked = { [INSTANCE_JSON]?: InstanceJson; structuredContent?: unknown };

/**
 * The shortest answer worth marking. Below it, serializing the body again costs no more than marking it
 * and carrying its bytes to the transport (interleaved runs with the bench's 0.5 to 6 KB answers all
 * marked: answers no sooner, more CPU a call); a 30 KB list is written 25-55 us sooner, a 140 KB one about
 * 450 us.
 */
const MIN_BYTES = 8 * 1024;

/** JSON whitespace: space, tab, line feed, carriage return. */
const isBlank = (byte: number | undefined) =>
  byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/**
 * Marks a tool result to send `value` (its structuredContent, or that one's items), an instance's parsed
 * JSON answer, as `bytes`: the UTF-8 of the very string JSON.parse read it from (the caller's promise).
 * Neither may be changed afterwards. Only where a JSON.parse of them gives what a JSON.parse of
 * JSON.stringify(value) gives: valid UTF-8 (decoding then gives back that string), no line break outside
 * the ends (a stdio message is one line; in a JSON string one is always escaped, so a raw one is layout),
 * and no number JSON.stringify would write otherwise (one too large for a double, written null, or -0,
 * written 0). Everything else the text may do differently (key order, number and escape forms, digits
 * beyond a double's precision, spaces) reads back the same. A value that is not an object or array, or an
 * answer shorter than MIN_BYTES, is left to the usual serialization.
 */
export function preserializeJson<T extends object>(result: T, value: unknown, bytes: Buffer | undefined): T {
  if (typeof value !== 'object' || value === null || bytes === undefined || bytes.length < MIN_BYTES)
    return result;
  // JSON.parse took the text, so what lies around the value is JSON whitespace only.
  let start = 0;
  let end = bytes.length;
  while (isBlank(bytes[start])) start++;
  while (end > start && isBlank(bytes[end - 1])) end--;
  const json = start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end);
  // In UTF-8 a byte 0x0a or 0x0d is that character: no other character's encoding holds one.
  if (json.includes(0x0a) || json.includes(0x0d) || !isUtf8(json)) return result;
  try {
    if (holdsOddNumber(value)) return result;
  } catch {
    // Nested too deep to walk: left to the usual serialization.
    return result;
  }
  (result as Marked)[INSTANCE_JSON] = { value, bytes: json };
  return result;
}

/** A number in a parsed JSON value that JSON.stringify writes as another: infinite (null) or -0 (0). */
function holdsOddNumber(value: unknown): boolean {
  if (typeof value === 'number') return value === 0 ? 1 / value < 0 : !Number.isFinite(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsOddNumber(item)) return true;
    return false;
  }
  const rec = value as Record<string, unknown>;
  for (const key in rec) if (holdsOddNumber(rec[key])) return true;
  return false;
}

/** The tool result carries an instance's bytes (preserializeJson). */
export function holdsInstanceJson(result: unknown): boolean {
  return (result as Marked | undefined)?.[INSTANCE_JSON] !== undefined;
}

/**
 * A tool result as the SDK sends it, after its schema check, which answers a copy: the instance's bytes
 * that `own`, the handler's result, carries go with it, and the copy's structuredContent is `own`'s again where it
 * holds just the same (the same keys, each with the very same value). `sent` is changed in place.
 */
export function keepPreserialized(sent: unknown, own: unknown): void {
  const mark = (own as Marked | undefined)?.[INSTANCE_JSON];
  if (!mark || typeof sent !== 'object' || sent === null) return;
  const copy = (sent as Marked).structuredContent;
  const original = (own as Marked).structuredContent;
  if (copy !== original) {
    if (typeof copy !== 'object' || copy === null || typeof original !== 'object' || original === null)
      return;
    if (!sameEntries(copy, original)) return;
    (sent as Marked).structuredContent = original;
  }
  (sent as Marked)[INSTANCE_JSON] = mark;
}

/**
 * The two objects hold the same own keys in the same order, each with the same value (===). (The SDK's
 * copy leaves out a `__proto__` key, for one: its answer is then serialized from the copy, as the SDK would.)
 */
function sameEntries(a: object, b: object): boolean {
  const keys = Object.keys(a);
  const own = Object.keys(b);
  if (keys.length !== own.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== own[i] || (a as Record<string, unknown>)[key] !== (b as Record<string, unknown>)[key])
      return false;
  }
  return true;
}

/** Stands in for the pre-serialized part while the rest of the message is serialized. */
const SLOT = '\u0000forge-mcp-server:preserialized\u0000';
const SLOT_JSON = JSON.stringify(SLOT);

/**
 * The newline-ended wire line of a JSON-RPC answer holding a marked part (preserialize, preserializeJson),
 * in three pieces to write one after another (the encoding is not copied): the same JSON as
 * JSON.stringify(message) + '\n', a marked encoding standing where its value's serialization would. The parts
 * looked at: the result's `tools` (tools/list), its `structuredContent` (a tool's object answer) and that
 * one's `items` (a list answer). Undefined for any other message.
 */
export function preserializedLine(message: unknown): [string, Buffer, string] | undefined {
  const m = message as { id?: unknown; result?: Record<string, unknown> } | undefined;
  const result = m?.result;
  // The slot's text can stand elsewhere only as a whole string: in these answers only a request id, which a
  // client chooses, could be it (the rest is the server's own, or an answer's text, which starts with '{' or
  // a count); spelling it, the answer is serialized as usual.
  if (typeof result !== 'object' || result === null || m!.id === SLOT) return undefined;
  const sc = result.structuredContent as Record<string, unknown> | undefined;
  let piece: Buffer | undefined;
  let slotted: Record<string, unknown>;
  if ((piece = encodingOf(result.tools))) slotted = { ...result, tools: SLOT };
  else {
    const mark = (result as Marked)[INSTANCE_JSON];
    if (!mark) return undefined;
    piece = mark.bytes;
    if (sc === mark.value) slotted = { ...result, structuredContent: SLOT };
    else if (typeof sc === 'object' && sc !== null && sc.items === mark.value)
      slotted = { ...result, structuredContent: { ...sc, items: SLOT } };
    else return undefined;
  }
  const text = `${JSON.stringify({ ...m, result: slotted })}\n`;
  // The slot stands near the end (the result's last parts, or before the id): found from there.
  const at = text.lastIndexOf(SLOT_JSON);
  if (at < 0) return undefined;
  return [text.slice(0, at), piece, text.slice(at + SLOT_JSON.length)];
}
