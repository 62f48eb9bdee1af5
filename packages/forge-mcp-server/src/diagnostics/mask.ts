/**
 * Masks secrets in a V8 heap snapshot as it streams out, keeping it valid JSON of the same length: every
 * character of a secret becomes `*`, so the snapshot still opens in Chrome DevTools.
 *
 * V8 writes a snapshot in ASCII, one string of the heap a line (`"…",`), each cut to its first 1024 characters,
 * with `"`, `\` and control characters escaped (\", \\, \n, \u001B) and every other character outside ASCII
 * written \uXXXX (upper-case hex). A string holding a raw line break is written with it escaped, so no secret
 * spans two lines: the stream is masked a whole line at a time, whatever its chunks.
 *
 * What is masked:
 * - the secrets the process holds (`secrets`), as they sit in memory (raw, JSON-escaped, URL-encoded) and as V8
 *   escapes them; and a string ending in the first eight characters or more of one (a long string cut short);
 * - a secret shorter than SHORT_SECRET characters only where a string is exactly it (a header value, a setting):
 *   as part of longer strings such a secret is every word that holds its letters, and masking all of them
 *   would leave nothing of the snapshot to read (it is guessed in moments anyway);
 * - a token by its issued prefix (glpat-, gloas-, gldt-, glrt-…; the prefix itself is kept), a JSON Web Token,
 *   the value of `Bearer …` and `Basic …`, and the body of a PEM private key.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** Shapes of credentials, each a group for what is kept (the part that names the kind) and the masked rest. */
const SHAPES = [
  String.raw`(gl(?:pat|oas|dt|rt|rtr|cbt|ptt|ft|imt|agent|soat|ffct|wt)-)[A-Za-z0-9_.-]+`,
  String.raw`()eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*`,
  String.raw`((?:[Bb]earer|[Bb]asic|BEARER|BASIC) +)[A-Za-z0-9._~+/=-]+`,
  String.raw`(-----BEGIN [A-Z ]*PRIVATE KEY-----)(?:\\[nr]|[A-Za-z0-9+/= ])+`,
];

/** A secret shorter than this (in characters) is masked only where a string is exactly it. */
const SHORT_SECRET = 4;
/** V8 cuts a string in a snapshot to this many characters; a string that long may end in a secret's beginning. */
const SNAPSHOT_STRING_LIMIT = 1024;
/** A string cut short keeps at least this many characters of a secret before it is masked as one. */
const SHORTEST_PREFIX = 8;
/** Secrets are found by their first ANCHOR characters (a rolling hash); shorter ones by an expression. */
const ANCHOR = SHORTEST_PREFIX;
const HASH_BASE = 257;
const FILTER_BITS = 20;

const NAMED_ESCAPES: Record<string, string> = {
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** `text` as V8 writes it in a snapshot's string table (without the quotes), split into its characters. */
function snapshotUnits(text: string): string[] {
  const units: string[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') units.push('\\' + ch);
    else if (NAMED_ESCAPES[ch]) units.push(NAMED_ESCAPES[ch]);
    else if (c > 31 && c < 128) units.push(ch);
    else units.push('\\u' + (c & 0xffff).toString(16).toUpperCase().padStart(4, '0'));
  }
  return units;
}

function forRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** The forms a secret takes in memory: itself, JSON-escaped (inside a JSON text) and URL-encoded. */
function inMemory(secret: string): string[] {
  return [...new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])];
}

/** The hash of `text`'s `length` characters from `at`, as the scan rolls it. */
function hashOf(text: string, at: number, length: number): number {
  let h = 0;
  for (let i = at; i < at + length; i++) h = (Math.imul(h, HASH_BASE) + text.charCodeAt(i)) | 0;
  return h;
}

/** Whether the backslash at `at` begins an escape (an even run of backslashes before it). */
function escapes(text: string, at: number): boolean {
  let slashes = 0;
  while (at - slashes > 0 && text.charCodeAt(at - slashes - 1) === 92) slashes++;
  return slashes % 2 === 0;
}

/** Whether `at` begins a character of a string as written, not a letter or hex digit of an escape (\n, \u00E9). */
function startsCharacter(text: string, at: number): boolean {
  if (at > 0 && text.charCodeAt(at - 1) === 92 && escapes(text, at - 1)) return false;
  for (let p = Math.max(0, at - 5); p < at - 1; p++)
    if (text.charCodeAt(p) === 92 && text.charCodeAt(p + 1) === 117 && escapes(text, p)) return false;
  return true;
}

/**
 * Where the string's quotes are when the line from `start` to `end` is an entry of the snapshot's string table
 * (`"…",`, the first after `"strings":[`, the last followed by `]}`), the only place a string of the heap is
 * written; else undefined. The rest (the header's field names, the nodes' and edges' numbers) is never masked,
 * so a short or numeric secret cannot break the JSON or the names DevTools reads.
 */
function stringEntry(text: string, start: number, end: number): { open: number; close: number } | undefined {
  const open = text.startsWith('"strings":[', start) ? start + 11 : start;
  if (text.charCodeAt(open) !== 34) return undefined;
  const close = text.charCodeAt(end - 1) === 44 ? end - 2 : text.startsWith(']}', end - 2) ? end - 3 : -1;
  return close > open && text.charCodeAt(close) === 34 ? { open, close } : undefined;
}

/** What masks one run of whole lines of a snapshot: spans to turn into `*`, found in the text as written. */
class Masker {
  private readonly shapes = new RegExp(SHAPES.join('|'), 'g');
  /** The secrets shorter than SHORT_SECRET, as written, masked only as a whole string; and the longest. */
  private readonly whole: Set<string>;
  private readonly wholeLength: number;
  /** Secrets shorter than the anchor, longest first. */
  private readonly short?: RegExp;
  /** Secrets by the hash of their anchor, and a filter of those hashes the scan reads first. */
  private readonly byAnchor = new Map<number, string[]>();
  private readonly filter = new Uint8Array(1 << (FILTER_BITS - 3));
  /**
   * The beginnings a string cut short may end in: each form's first SHORTEST_PREFIX characters or more (as
   * written, whole escapes), short of the whole form (the scan finds that); and their lengths, longest first.
   */
  private readonly beginnings = new Set<string>();
  private readonly beginningLengths: number[];
  private readonly power: number;

  constructor(secrets: Iterable<string>) {
    const all = [...secrets];
    const isShort = (secret: string) => [...secret].length < SHORT_SECRET;
    this.whole = new Set(
      all.filter(isShort).flatMap((secret) => inMemory(secret).map((f) => snapshotUnits(f).join(''))),
    );
    this.wholeLength = Math.max(0, ...[...this.whole].map((f) => f.length));
    const forms = [...new Set(all.filter((secret) => !isShort(secret)).flatMap(inMemory))].map(snapshotUnits);
    const written = [...new Set(forms.map((u) => u.join('')))].sort((a, b) => b.length - a.length);
    const short = written.filter((f) => f.length < ANCHOR);
    if (short.length) this.short = new RegExp(short.map(forRegExp).join('|'), 'g');
    for (const form of written.filter((f) => f.length >= ANCHOR)) {
      const h = hashOf(form, 0, ANCHOR);
      this.byAnchor.set(h, [...(this.byAnchor.get(h) ?? []), form]);
      this.filter[(h >>> 3) & (this.filter.length - 1)] |= 1 << (h & 7);
    }
    for (const units of forms)
      for (
        let n = SHORTEST_PREFIX, written = units.slice(0, n).join('');
        n < units.length;
        written += units[n++]
      )
        this.beginnings.add(written);
    this.beginningLengths = [...new Set([...this.beginnings].map((b) => b.length))].sort((a, b) => b - a);
    let power = 1;
    for (let i = 1; i < ANCHOR; i++) power = Math.imul(power, HASH_BASE);
    this.power = power;
  }

  /** `bytes` (whole lines, ASCII) with every secret and credential shape masked, in a new buffer as long. */
  mask(bytes: Buffer): Buffer {
    const text = bytes.toString('latin1');
    const out = Buffer.from(
      text.replace(this.shapes, (whole: string, ...groups: unknown[]) => {
        const kept = (groups.find((g) => typeof g === 'string') as string | undefined) ?? '';
        return kept + '*'.repeat(whole.length - kept.length);
      }),
      'latin1',
    );
    // The line the last span was in, and whether it is a string entry (spans come in order in each pass).
    let lineStart = -1;
    let lineEnd = -1;
    let entry: { open: number } | undefined;
    const blank = (from: number, to: number) => {
      if (from < lineStart || from >= lineEnd) {
        lineStart = text.lastIndexOf('\n', from - 1) + 1;
        lineEnd = text.indexOf('\n', from);
        if (lineEnd === -1) lineEnd = text.length;
        entry = stringEntry(text, lineStart, lineEnd);
      }
      if (entry && from > entry.open && to < lineEnd && startsCharacter(text, from)) out.fill(42, from, to);
    };
    if (this.whole.size) this.wholeStrings(bytes, text, blank);
    if (this.short) for (const m of text.matchAll(this.short)) blank(m.index, m.index + m[0].length);
    if (this.byAnchor.size) this.scan(bytes, text, blank);
    if (this.beginnings.size) this.cutShort(bytes, text, blank);
    return out;
  }

  /** Rolls a hash over every ANCHOR bytes; where it is a secret's anchor, checks for the secret there. */
  private scan(bytes: Buffer, text: string, blank: (from: number, to: number) => void): void {
    const { filter, power } = this;
    const mask = filter.length - 1;
    let h = hashOf(text, 0, Math.min(ANCHOR - 1, text.length));
    for (let end = ANCHOR - 1; end < bytes.length; end++) {
      h = (Math.imul(h, HASH_BASE) + bytes[end]) | 0;
      if (filter[(h >>> 3) & mask] & (1 << (h & 7))) {
        const at = end - ANCHOR + 1;
        const form = this.byAnchor.get(h)?.find((f) => text.startsWith(f, at));
        if (form) blank(at, at + form.length);
      }
      h = (h - Math.imul(bytes[end - ANCHOR + 1], power)) | 0;
    }
  }

  /** Each string that is exactly a secret shorter than SHORT_SECRET. */
  private wholeStrings(bytes: Buffer, text: string, blank: (from: number, to: number) => void): void {
    // A line no longer than the longest such secret with its quotes, comma and the table's opening name.
    const longest = this.wholeLength + 3 + '"strings":['.length;
    forEachLine(bytes, (start, end) => {
      // Node 24 writes the whole table on one line: each entry there is a string between `[` or `,` and `,` or `]`
      // (a quote inside a string is escaped, so `,"` and `",` are an entry's bounds and nothing else).
      if (end - start > longest && text.startsWith('"strings":[', start)) {
        for (const form of this.whole) {
          const entry = `"${form}"`;
          for (let at = text.indexOf(entry, start); at !== -1 && at < end; at = text.indexOf(entry, at + 1)) {
            const before = text.charCodeAt(at - 1);
            const after = text.charCodeAt(at + entry.length);
            if ((before === 44 || before === 91) && (after === 44 || after === 93))
              blank(at + 1, at + 1 + form.length);
          }
        }
        return;
      }
      if (end - start > longest) return;
      const entry = stringEntry(text, start, end);
      if (entry && this.whole.has(text.slice(entry.open + 1, entry.close)))
        blank(entry.open + 1, entry.close);
    });
  }

  /** Each string V8 cut short whose end is the beginning of a secret (SHORTEST_PREFIX characters or more). */
  private cutShort(bytes: Buffer, text: string, blank: (from: number, to: number) => void): void {
    forEachLine(bytes, (line, end) => {
      // A cut string's line: `"` + at least the limit's characters + `"` and a comma.
      if (end - line < SNAPSHOT_STRING_LIMIT + 2 || bytes[line] !== 34) return;
      const close = text.lastIndexOf('"', end);
      // The longest beginning the string ends in: one look-up per length, however many secrets.
      const length = this.beginningLengths.find((n) => this.beginnings.has(text.slice(close - n, close)));
      if (length) blank(close - length, close);
    });
  }
}

/**
 * Calls `visit` with where each line of `bytes` begins and ends, the last one too (the snapshot's last string
 * ends it without a line break).
 */
function forEachLine(bytes: Buffer, visit: (start: number, end: number) => void): void {
  for (let start = 0; start < bytes.length;) {
    const found = bytes.indexOf(10, start);
    const end = found === -1 ? bytes.length : found;
    visit(start, end);
    start = end + 1;
  }
}

/**
 * A transform of a heap snapshot's bytes that masks `secrets` and every credential-shaped string, held back a
 * line at a time so that a secret split between two chunks is masked whole.
 */
export function maskingSnapshot(secrets: Iterable<string>): Transform {
  const masker = new Masker(secrets);
  let held: Buffer = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      const bytes = held.length ? Buffer.concat([held, chunk]) : chunk;
      const cut = bytes.lastIndexOf(10) + 1;
      held = Buffer.from(bytes.subarray(cut));
      done(null, cut ? masker.mask(bytes.subarray(0, cut)) : undefined);
    },
    flush(done: TransformCallback) {
      done(null, held.length ? masker.mask(held) : undefined);
    },
  });
}
