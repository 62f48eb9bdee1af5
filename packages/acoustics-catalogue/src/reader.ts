/** Reading a JSON catalogue document: limits, parsing, then the checks. */
import { createHash } from 'node:crypto';
import { visit } from 'jsonc-parser';
import type { RowClassName } from './definition.js';
import { assertTextOrBytes, decodeText } from './encoding.js';
import { CatalogueError, type Issue, type Note, escapePointer, quote } from './errors.js';
import type { CatalogueDocument, CatalogueDocumentFor } from './types.js';
import { inspectDocument } from './validate.js';

/** Largest document read, in bytes (checked before reading). */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;
/** Deepest nesting of arrays and objects (the document itself is level 1). */
export const MAX_DEPTH = 6;

export interface ReadResult<D = CatalogueDocument> {
  /** The document, with unit aliases converted into canonical fields. */
  readonly document: D;
  /** Suspicious but allowed findings. */
  readonly notes: readonly Note[];
  /**
   * SHA-256 (hexadecimal) of the bytes read: the JSON document, or the CSV file. Worked out on
   * first use, so reading never pays for it when nobody asks.
   */
  readonly fileSha256: string;
  /** SHA-256 of the JSON header beside a CSV file; absent for a JSON document. */
  readonly headerSha256?: string;
}

export interface ReadOptions<C extends RowClassName = RowClassName> {
  /**
   * The row class the caller expects; a document of another class is refused at /row_type, and the result is
   * typed as a document of that class (`CatalogueDocumentOf<C>`).
   */
  readonly rowType?: C;
}

/** The SHA-256 of text (as UTF-8) or bytes, worked out once, on first use. */
function digestOnce(input: string | Uint8Array): () => string {
  let held: string | Uint8Array | undefined = input;
  let digest = '';
  return () => {
    if (held !== undefined) {
      digest = createHash('sha256').update(held).digest('hex');
      held = undefined;
    }
    return digest;
  };
}

/** Adds the file's (and the header's) SHA-256 to a result, as getters worked out on first use. */
export function withDigests<T extends object>(
  result: T,
  file: string | Uint8Array,
  header?: string | Uint8Array,
): T & { readonly fileSha256: string; readonly headerSha256?: string } {
  Object.defineProperty(result, 'fileSha256', { get: digestOnce(file), enumerable: true });
  if (header !== undefined)
    Object.defineProperty(result, 'headerSha256', { get: digestOnce(header), enumerable: true });
  return result as T & { readonly fileSha256: string; readonly headerSha256?: string };
}

/** The refusal of a document of another row class than the caller expects. */
export function rowTypeIssue(found: unknown, expected: RowClassName | undefined): Issue | undefined {
  if (expected === undefined || typeof found !== 'string' || found === expected) return undefined;
  return {
    pointer: '/row_type',
    message: `row_type is ${quote(found)}, but ${quote(expected)} rows are expected here; read a catalogue of ${expected} rows`,
  };
}

export interface CheckResult<D = CatalogueDocument> {
  readonly document?: D;
  readonly issues: readonly Issue[];
  readonly notes: readonly Note[];
}

export function sizeIssue(bytes: number, limit = MAX_DOCUMENT_BYTES, what = 'document'): Issue {
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const fmt = limit >= 1024 * 1024 ? mib : kib;
  return {
    pointer: '',
    message: `${what} is ${fmt(bytes)}; at most ${fmt(limit)} is read (split it into several catalogues)`,
  };
}

/** Deepest nesting in JSON text, found without parsing. */
function scanDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/** What one walk over a parsed value finds: members, colons inside texts, whether any value is too deep. */
interface Census {
  members: number;
  colonsInText: number;
  tooDeep: boolean;
}

function hasEscapedColon(text: string): boolean {
  for (let i = text.indexOf('\\u003'); i >= 0; i = text.indexOf('\\u003', i + 1)) {
    const c = text.charCodeAt(i + 6);
    if (c === 0x61 || c === 0x41) return true;
  }
  return false;
}

function countColons(text: string): number {
  let n = 0;
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) n++;
  return n;
}

/** Counts object members and the colons texts hold; stops at the first value nested too deep. */
function census(value: object, depth: number, into: Census): void {
  if (depth > MAX_DEPTH) {
    into.tooDeep = true;
    return;
  }
  const list = Array.isArray(value) ? (value as unknown[]) : undefined;
  const keys = list ? undefined : Object.keys(value);
  const n = list ? list.length : keys!.length;
  if (keys) into.members += n;
  for (let i = 0; i < n; i++) {
    let v: unknown;
    if (keys) {
      const k = keys[i];
      if (k.indexOf(':') >= 0) into.colonsInText += countColons(k);
      v = (value as Record<string, unknown>)[k];
    } else v = list![i];
    if (typeof v === 'string') {
      if (v.indexOf(':') >= 0) into.colonsInText += countColons(v);
    } else if (typeof v === 'object' && v !== null) {
      census(v, depth + 1, into);
      if (into.tooDeep) return;
    }
  }
}

/** Pointer to the first value nested deeper than the limit. */
function deepPointer(value: unknown, depth: number, path: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth > MAX_DEPTH) return path;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value as Record<string, unknown>);
  for (const [k, v] of entries) {
    const found = deepPointer(v, depth + 1, `${path}/${escapePointer(k)}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Every member whose name repeats an earlier one of the same object, at the pointer of the
 * repetition. JSON.parse keeps the last silently; this walk over the text sees them all.
 */
export function duplicateMembers(text: string): Issue[] {
  const issues: Issue[] = [];
  const frames: { path: string; names: Set<string> | undefined; index: number }[] = [];
  const top = () => frames[frames.length - 1];
  let property: string | undefined;
  const enter = (names: Set<string> | undefined) => {
    const parent = top();
    const token =
      parent === undefined ? '' : parent.names === undefined ? String(parent.index++) : (property ?? '');
    frames.push({
      path: parent === undefined ? '' : `${parent.path}/${escapePointer(token)}`,
      names,
      index: 0,
    });
  };
  visit(text, {
    onObjectBegin: () => enter(new Set()),
    onArrayBegin: () => enter(undefined),
    onObjectEnd: () => void frames.pop(),
    onArrayEnd: () => void frames.pop(),
    onObjectProperty: (name) => {
      const frame = top();
      property = name;
      if (frame?.names === undefined) return;
      if (frame.names.has(name))
        issues.push({
          pointer: `${frame.path}/${escapePointer(name)}`,
          message: `${quote(name)} is given twice in the same object; a reader would keep only one of them, so give it once`,
        });
      frame.names.add(name);
    },
    onLiteralValue: () => {
      const frame = top();
      if (frame?.names === undefined && frame) frame.index++;
    },
  });
  return issues;
}

function lineColumn(text: string, position: number): string {
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

const depthIssue = (text: string, at = ''): Issue => ({
  pointer: at,
  message: `nesting is ${scanDepth(text)} levels deep; at most ${MAX_DEPTH} are read`,
});

/**
 * Parses JSON text within the limits; an issue instead of an exception. Members given twice
 * in one object are refused (JSON.parse would keep the last without a word): a census of the
 * parsed value is compared with the colons of the text, and only a mismatch walks the text.
 */
export function parseJson(
  input: string | Uint8Array,
  limit = MAX_DOCUMENT_BYTES,
  what = 'document',
): {
  value?: unknown;
  issues: Issue[];
} {
  assertTextOrBytes(input, what);
  const bytes = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.byteLength;
  if (bytes > limit) return { issues: [sizeIssue(bytes, limit, what)] };
  const text = decodeText(input, what);
  if (typeof text !== 'string') {
    const at = text.line === undefined ? '' : `line ${text.line}, column ${text.column}: `;
    return { issues: [{ pointer: '', message: at + text.message }] };
  }
  if (text.trim() === '')
    return {
      issues: [{ pointer: '', message: `the ${what} is empty (no JSON at all); write it as a JSON object` }],
    };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    if (scanDepth(text) > MAX_DEPTH) return { issues: [depthIssue(text)] };
    const msg = (e as Error).message;
    const pos = /position (\d+)/.exec(msg);
    return {
      issues: [
        {
          pointer: '',
          message: `not valid JSON (${msg.replace(/ in JSON at position \d+.*$/, '')}${pos ? ` at ${lineColumn(text, Number(pos[1]))}` : ''}); fix the syntax`,
        },
      ],
    };
  }
  const found: Census = { members: 0, colonsInText: 0, tooDeep: false };
  if (typeof value === 'object' && value !== null) census(value, 1, found);
  else if (typeof value === 'string') found.colonsInText = countColons(value);
  if (found.tooDeep) return { issues: [depthIssue(text, deepPointer(value, 1, ''))] };
  // Outside texts every colon ends a member's name; a member JSON.parse dropped leaves one over.
  // An escaped colon (\u003a) is a colon in the value but not in the text: then look closely.
  if (countColons(text) !== found.members + found.colonsInText || hasEscapedColon(text)) {
    const duplicates = duplicateMembers(text);
    if (duplicates.length) return { issues: duplicates };
  }
  return { value, issues: [] };
}

/** Checks JSON text without throwing: the accepted document, or every problem found. */
export function checkCatalogue<C extends RowClassName = RowClassName>(
  input: string | Uint8Array,
  options: ReadOptions<C> = {},
): CheckResult<CatalogueDocumentFor<C>> {
  const parsed = parseJson(input);
  if (parsed.issues.length) return { issues: parsed.issues, notes: [] };
  return checkCatalogueValue(parsed.value, options);
}

/** Checks an already parsed document without throwing. */
export function checkCatalogueValue<C extends RowClassName = RowClassName>(
  value: unknown,
  options: ReadOptions<C> = {},
): CheckResult<CatalogueDocumentFor<C>> {
  const wrongClass = rowTypeIssue((value as { row_type?: unknown } | null)?.row_type, options.rowType);
  if (wrongClass) return { issues: [wrongClass], notes: [] };
  const r = inspectDocument(value);
  if (r.issues.length || !r.document) return { issues: r.issues, notes: r.notes };
  if (r.document.csv !== undefined)
    return {
      issues: [
        {
          pointer: '/csv',
          message: 'this is the header of a CSV file, not a document with rows; read it with its CSV file',
        },
      ],
      notes: [],
    };
  // The class was checked above against options.rowType, so the document is of class C.
  return { document: r.document as unknown as CatalogueDocumentFor<C>, issues: [], notes: r.notes };
}

/**
 * Reads a JSON catalogue document (text or bytes). Throws a CatalogueError listing every
 * problem when the document is refused.
 */
export function readCatalogue<C extends RowClassName = RowClassName>(
  input: string | Uint8Array,
  options: ReadOptions<C> = {},
): ReadResult<CatalogueDocumentFor<C>> {
  const r = checkCatalogue(input, options);
  if (!r.document) throw new CatalogueError(r.issues);
  return withDigests({ document: r.document, notes: r.notes }, input);
}
