/**
 * Results a model can use: compact text (no walls of nulls, long bodies cut with a note), full
 * structuredContent, pagination, and the not-found card.
 */
import type { ActionSpec } from '../catalog/types.js';

export interface ToolResult {
  [key: string]: unknown;
  content: Array<Record<string, unknown>>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** Whole-result text cap: beyond this a model's context is better served by paging. */
export const TEXT_CAP = 48 * 1024;
const FIELD_CAP = 8 * 1024;

export interface Pagination {
  page?: number;
  per_page?: number;
  total?: number;
  total_pages?: number;
  next_page?: number;
}

export function paginationOf(headers: Record<string, string>): Pagination | undefined {
  const num = (h: string) =>
    headers[h] && Number.isFinite(Number(headers[h])) ? Number(headers[h]) : undefined;
  const p: Pagination = {
    page: num('x-page'),
    per_page: num('x-per-page'),
    total: num('x-total'),
    total_pages: num('x-total-pages'),
    next_page: num('x-next-page'),
  };
  if (!p.next_page && headers.link) {
    const m = /<([^>]+)>;\s*rel="next"/.exec(headers.link);
    if (m) {
      const next = new URL(m[1]).searchParams.get('page');
      if (next) p.next_page = Number(next);
    }
  }
  for (const k of Object.keys(p) as (keyof Pagination)[]) if (p[k] === undefined) delete p[k];
  return Object.keys(p).length ? p : undefined;
}

/**
 * Compact JSON text: nulls and empty strings, arrays and objects dropped (recursively), long strings cut
 * with a note of how much was cut. One pass, no compacted copy: every result's text block comes from here.
 */
export function compactJson(value: unknown, fieldCap = FIELD_CAP): string | undefined {
  if (value === null || value === undefined) return undefined;
  switch (typeof value) {
    case 'string':
      if (value === '') return undefined;
      return JSON.stringify(
        value.length > fieldCap
          ? `${value.slice(0, fieldCap)}… [cut: ${value.length - fieldCap} more characters]`
          : value,
      );
    case 'number':
      // As JSON.stringify writes a number, without the call.
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      return undefined;
  }
  let out = '';
  if (Array.isArray(value)) {
    for (const item of value) {
      const c = compactJson(item, fieldCap);
      if (c !== undefined) out += (out ? ',' : '') + c;
    }
    return out ? `[${out}]` : undefined;
  }
  const rec = value as Record<string, unknown>;
  for (const key in rec) {
    if (!Object.prototype.hasOwnProperty.call(rec, key)) continue;
    const c = compactJson(rec[key], fieldCap);
    if (c !== undefined) out += (out ? ',' : '') + quotedKey(key) + ':' + c;
  }
  return out ? `{${out}}` : undefined;
}

/**
 * Keys as JSON text, remembered: an answer repeats the same few dozen keys in every item, and quoting each
 * afresh was a new string per key per item. Bounded, so odd keys cannot make it grow without end.
 */
const QUOTED_KEYS = new Map<string, string>();
function quotedKey(key: string): string {
  let q = QUOTED_KEYS.get(key);
  if (q === undefined) {
    if (QUOTED_KEYS.size >= 4096) QUOTED_KEYS.clear();
    q = JSON.stringify(key);
    QUOTED_KEYS.set(key, q);
  }
  return q;
}

function cap(text: string, how: string): string {
  if (text.length <= TEXT_CAP) return text;
  return `${text.slice(0, TEXT_CAP)}\n… [output cut at ${TEXT_CAP} of ${text.length} characters; ${how}]`;
}

function pagingLine(count: number, p: Pagination | undefined): string {
  const bits = [`${count} item${count === 1 ? '' : 's'}`];
  if (p?.page) bits.push(`page ${p.page}${p.total_pages ? ` of ${p.total_pages}` : ''}`);
  if (p?.total !== undefined) bits.push(`${p.total} total`);
  if (p?.next_page) bits.push(`next page: ${p.next_page} (pass page=${p.next_page})`);
  else if (p) bits.push('last page');
  return bits.join(', ');
}

/** Notes on diff entries the instance collapsed or cut. */
function diffNotes(items: unknown[]): string[] {
  const notes: string[] = [];
  for (const d of items) {
    if (!d || typeof d !== 'object') continue;
    const e = d as Record<string, unknown>;
    const path = String(e.new_path ?? e.old_path ?? '');
    if (e.collapsed)
      notes.push(`${path}: diff collapsed by the instance; read the file with repository.file_get`);
    else if (e.too_large)
      notes.push(`${path}: diff too large to show; read the file with repository.file_get`);
  }
  return notes;
}

export function jsonResult(a: ActionSpec, body: unknown, headers: Record<string, string>): ToolResult {
  if (Array.isArray(body)) {
    const pagination = paginationOf(headers);
    const lines = body.map((item) => compactJson(item, 2000) ?? '{}');
    const notes = diffNotes(body);
    const text = cap(
      [pagingLine(body.length, pagination), ...lines, ...(notes.length ? ['Notes:', ...notes] : [])].join(
        '\n',
      ),
      'ask for fewer items with per_page, or the next page with page',
    );
    return {
      content: [{ type: 'text', text }],
      structuredContent: { items: body, ...(pagination ? { pagination } : {}) },
    };
  }
  if (body === null || body === undefined || body === '') {
    return {
      content: [{ type: 'text', text: `${a.id}: done.` }],
      structuredContent: { ok: true },
    };
  }
  if (typeof body !== 'object') {
    return {
      content: [{ type: 'text', text: cap(String(body), 'narrow the request') }],
      structuredContent: { value: body },
    };
  }
  const rec = body as Record<string, unknown>;
  const notes = Array.isArray(rec.changes)
    ? diffNotes(rec.changes)
    : Array.isArray(rec.diffs)
      ? diffNotes(rec.diffs)
      : [];
  const text = cap(
    (compactJson(rec) ?? '{}') + (notes.length ? `\nNotes:\n${notes.join('\n')}` : ''),
    'use a narrower action (for example per-file diffs with page and per_page)',
  );
  return { content: [{ type: 'text', text }], structuredContent: rec };
}

/** Text answers (logs, raw files): windowed by tail_lines or a byte range, then capped. */
export function textResult(text: string, args: Record<string, unknown>): ToolResult {
  const total = Buffer.byteLength(text);
  let shown = text;
  let range = '';
  if (typeof args.tail_lines === 'number') {
    const lines = text.split('\n');
    if (lines.length && lines[lines.length - 1] === '') lines.pop();
    shown = lines.slice(-args.tail_lines).join('\n');
    range = `last ${Math.min(args.tail_lines, lines.length)} of ${lines.length} lines`;
  } else if (typeof args.byte_offset === 'number' || typeof args.byte_limit === 'number') {
    const buf = Buffer.from(text);
    const start = Math.min(Number(args.byte_offset ?? 0), buf.length);
    const end = Math.min(buf.length, start + Number(args.byte_limit ?? TEXT_CAP));
    shown = buf.subarray(start, end).toString('utf8');
    range = `bytes ${start}-${end} of ${total}`;
  }
  let note = '';
  if (Buffer.byteLength(shown) > TEXT_CAP) {
    shown = shown.slice(0, TEXT_CAP);
    note = `\n… [cut at ${TEXT_CAP} characters of ${total} bytes; read more with byte_offset=${Buffer.byteLength(shown)} and byte_limit, or the end with tail_lines]`;
  }
  return {
    content: [{ type: 'text', text: (range ? `[${range}]\n` : '') + shown + note }],
    structuredContent: { text: shown, total_bytes: total, ...(range ? { range } : {}) },
  };
}

export function binaryResult(bytes: Buffer, headers: Record<string, string>, savedTo?: string): ToolResult {
  const type = headers['content-type'] ?? 'application/octet-stream';
  if (savedTo)
    return {
      content: [{ type: 'text', text: `Saved ${bytes.length} bytes (${type}) to ${savedTo}.` }],
      structuredContent: { path: savedTo, bytes: bytes.length, content_type: type },
    };
  const limit = 1024 * 1024;
  const body = bytes.subarray(0, limit).toString('base64');
  const cut = bytes.length > limit;
  return {
    content: [
      {
        type: 'text',
        text: `${bytes.length} bytes (${type})${cut ? `; the first ${limit} bytes are in structuredContent.content_base64 (pass output_path to save the whole file)` : '; base64 in structuredContent.content_base64'}.`,
      },
    ],
    structuredContent: { content_base64: body, bytes: bytes.length, content_type: type, truncated: cut },
  };
}

export function errorResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The spec's not-found result: heading naming object and project, a rule, and next steps. */
export function notFoundResult(a: ActionSpec, args: Record<string, unknown>): ToolResult {
  const nf = a.notFound!;
  const key = args[nf.key];
  const where = args.project_id ?? args.group_id;
  const scope = args.project_id ? `project ${where}` : args.group_id ? `group ${where}` : 'this instance';
  const lines = [
    `# Not Found: ${nf.object}${key !== undefined ? ` ${String(key)}` : ''} in ${scope}`,
    '',
    `The instance answered 404: the ${nf.object.toLowerCase()} does not exist, or this token cannot see it.`,
    '',
    '---',
    '',
    'Next steps:',
    ...nf.next.map((id) => `- ${id}`),
  ];
  return errorResult(lines.join('\n'));
}
