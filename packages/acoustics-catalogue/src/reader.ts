/** Reading a JSON catalogue document: limits, parsing, then the checks. */
import { CatalogueError, type Issue, type Note } from './errors.js';
import type { CatalogueDocument } from './types.js';
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

/** Pointer to the first value nested deeper than the limit. */
function deepPointer(value: unknown, depth: number, path: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth > MAX_DEPTH) return path;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value as Record<string, unknown>);
  for (const [k, v] of entries) {
    const found = deepPointer(v, depth + 1, `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

function lineColumn(text: string, position: number): string {
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

/** Parses JSON text within the limits; an issue instead of an exception. */
export function parseJson(
  input: string | Uint8Array,
  limit = MAX_DOCUMENT_BYTES,
  what = 'document',
): {
  value?: unknown;
  issues: Issue[];
} {
  const bytes = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.byteLength;
  if (bytes > limit) return { issues: [sizeIssue(bytes, limit, what)] };
  let text =
    typeof input === 'string'
      ? input
      : Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const depth = scanDepth(text);
  let value: unknown;
  try {
    if (depth > 1000)
      return {
        issues: [{ pointer: '', message: `nesting is ${depth} levels deep; at most ${MAX_DEPTH} are read` }],
      };
    value = JSON.parse(text);
  } catch (e) {
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
  if (depth > MAX_DEPTH) {
    const p = deepPointer(value, 1, '') ?? '';
    return {
      issues: [{ pointer: p, message: `nesting is ${depth} levels deep; at most ${MAX_DEPTH} are read` }],
    };
  }
  return { value, issues: [] };
}

/** Checks JSON text without throwing: the accepted document, or every problem found. */
export function checkCatalogue(input: string | Uint8Array): CheckResult {
  const parsed = parseJson(input);
  if (parsed.issues.length) return { issues: parsed.issues, notes: [] };
  return checkCatalogueValue(parsed.value);
}

/** Checks an already parsed document without throwing. */
export function checkCatalogueValue(value: unknown): CheckResult {
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
  return { document: r.document as unknown as CatalogueDocument, issues: [], notes: r.notes };
}

/**
 * Reads a JSON catalogue document (text or bytes). Throws a CatalogueError listing every
 * problem when the document is refused.
 */
export function readCatalogue(input: string | Uint8Array): ReadResult {
  const r = checkCatalogue(input);
  if (!r.document) throw new CatalogueError(r.issues);
  return { document: r.document, notes: r.notes };
}
