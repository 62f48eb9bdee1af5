/**
 * Results a model can use: compact text (no walls of nulls, long bodies cut with a note), full
 * structuredContent, pagination, and the not-found card.
 */
import { lazyCatalog } from '../catalog/lazy.js';
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
  /**
   * Keyset paging: the parameters the instance's next link carries in place of a page number (cursor,
   * page_token, last, id_after or id_before), to pass as given for the next page.
   */
  next_page_params?: Record<string, string>;
  /** The page asked for is past the end of the list: it holds nothing, and the text says where the list ends. */
  past_the_end?: true;
  /** The list's last page, beside past_the_end, when the instance counts its pages. */
  last_page?: number;
}

/** The parameters a keyset answer's next link continues with (each instance list names one of them). */
const KEYSET_CONTINUATIONS = ['cursor', 'page_token', 'last', 'id_after', 'id_before'];

/** The next link's continuation parameters, when the link pages by keyset rather than by page number. */
function keysetNext(next: URL): Record<string, string> | undefined {
  if (next.searchParams.has('page')) return undefined;
  let found: Record<string, string> | undefined;
  for (const k of KEYSET_CONTINUATIONS) {
    const v = next.searchParams.get(k);
    if (v !== null) (found ??= {})[k] = v;
  }
  return found;
}

/** A header's number, when it holds one. */
function headerNumber(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

export function paginationOf(headers: Record<string, string>): Pagination | undefined {
  const page = headerNumber(headers['x-page']);
  const perPage = headerNumber(headers['x-per-page']);
  const total = headerNumber(headers['x-total']);
  const totalPages = headerNumber(headers['x-total-pages']);
  let next = headerNumber(headers['x-next-page']);
  let nextParams: Record<string, string> | undefined;
  if (!next && headers.link) {
    const m = /<([^>]+)>;\s*rel="next"/.exec(headers.link);
    if (m) {
      const url = new URL(m[1]);
      const fromLink = url.searchParams.get('page');
      if (fromLink) next = Number(fromLink);
      else nextParams = keysetNext(url);
    }
  }
  if (
    page === undefined &&
    perPage === undefined &&
    total === undefined &&
    totalPages === undefined &&
    next === undefined &&
    nextParams === undefined
  )
    return undefined;
  // The fields given, in this order.
  const p: Pagination = {};
  if (page !== undefined) p.page = page;
  if (perPage !== undefined) p.per_page = perPage;
  if (total !== undefined) p.total = total;
  if (totalPages !== undefined) p.total_pages = totalPages;
  if (next !== undefined) p.next_page = next;
  if (nextParams !== undefined) p.next_page_params = nextParams;
  return p;
}

/**
 * Compact JSON text: nulls and empty strings, arrays and objects dropped (recursively), long strings cut
 * with a note of how much was cut. One pass, no compacted copy: every result's text block comes from here.
 * Left out of the text (structuredContent keeps them): `_links` holding the instance's API addresses of an
 * object, which a model never follows (it runs actions), and the `avatar_url` of the people an object names (its
 * author, assignees, reviewers ...), a third of an issue's text in a list; a user asked for keeps its own.
 * `inner`: the value sits inside an object of the answer.
 */
export function compactJson(value: unknown, fieldCap = FIELD_CAP, inner = false): string | undefined {
  if (value === null || value === undefined) return undefined;
  switch (typeof value) {
    case 'string':
      if (value === '') return undefined;
      if (value.length > fieldCap)
        return JSON.stringify(
          `${value.slice(0, fieldCap)}… [cut: ${value.length - fieldCap} more characters]`,
        );
      // Most strings hold nothing JSON escapes: quoted as they are, as JSON.stringify would, without the call.
      return ESCAPED.test(value) ? JSON.stringify(value) : `"${value}"`;
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
      const c = compactJson(item, fieldCap, inner);
      if (c !== undefined) out += (out ? ',' : '') + c;
    }
    return out ? `[${out}]` : undefined;
  }
  const rec = value as Record<string, unknown>;
  for (const key in rec) {
    if (!Object.prototype.hasOwnProperty.call(rec, key)) continue;
    if (key === '_links' ? apiLinksOnly(rec[key]) : inner && key === 'avatar_url') continue;
    const c = compactJson(rec[key], fieldCap, true);
    if (c !== undefined) out += keyPrefixes(key)[out ? 1 : 0] + c;
  }
  return out ? `{${out}}` : undefined;
}

/**
 * Whether a `_links` object holds the instance's API addresses alone (an issue's, a project's): a release's
 * `_links` are its web pages (its own address among them), which the text keeps.
 */
function apiLinksOnly(links: unknown): boolean {
  if (!links || typeof links !== 'object') return true;
  for (const v of Object.values(links)) if (typeof v === 'string' && !v.includes('/api/')) return false;
  return true;
}

/** What JSON.stringify writes escaped in a string: quote, backslash, control characters, lone surrogates. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * Each key as the JSON text before its value, first in its object and after another ('"key":' and
 * ',"key":'), remembered: an answer repeats the same few dozen keys in every item, and writing each afresh
 * was three new strings per key per item. Bounded, so odd keys cannot make it grow without end.
 */
const KEY_PREFIXES = new Map<string, readonly [string, string]>();
function keyPrefixes(key: string): readonly [string, string] {
  let p = KEY_PREFIXES.get(key);
  if (p === undefined) {
    if (KEY_PREFIXES.size >= 4096) KEY_PREFIXES.clear();
    const q = JSON.stringify(key) + ':';
    p = [q, ',' + q];
    KEY_PREFIXES.set(key, p);
  }
  return p;
}

function cap(text: string, how: string): string {
  if (text.length <= TEXT_CAP) return text;
  return `${text.slice(0, TEXT_CAP)}\n… [output cut at ${TEXT_CAP} of ${text.length} characters; ${how}]`;
}

function pagingLine(count: number, p: Pagination | undefined, args?: Record<string, unknown>): string {
  let line = `${count} item${count === 1 ? '' : 's'}`;
  const empty = count === 0 ? emptyPageNote(p, args) : undefined;
  if (empty) return `${line}: ${empty}`;
  if (!p) return line;
  if (p.page) line += `, page ${p.page}${p.total_pages ? ` of ${p.total_pages}` : ''}`;
  if (p.total !== undefined) line += `, ${p.total} total`;
  if (p.next_page) return line + `, next page: ${p.next_page} (pass page=${p.next_page})`;
  if (p.next_page_params)
    return (
      line +
      `, next page: pass ${Object.entries(p.next_page_params)
        .map(([k, v]) => `${k}=${v}`)
        .join(' and ')} (with the same parameters otherwise)`
    );
  return line + ', last page';
}

/**
 * A later page that holds nothing is no "last page": the list ends before it. Asked by number (X-Page over 1, no
 * next page), past the end: where the list ends and where to read, with its count and page count when the instance
 * gives them (it leaves them out of large lists). Asked by a keyset continuation: nothing follows it. Undefined for
 * any other answer. `p` gains what the note says (past_the_end, last_page), so structuredContent agrees with it.
 */
function emptyPageNote(p: Pagination | undefined, args?: Record<string, unknown>): string | undefined {
  if (!p) {
    if (args?.pagination !== 'keyset') return undefined;
    const given = KEYSET_CONTINUATIONS.filter((k) => args[k] !== undefined && args[k] !== '');
    if (!given.length) return undefined;
    const as = given.map((k) => `${k}=${String(args[k])}`).join(' and ');
    return `this page is empty: nothing follows ${as}, so the list ended on the page before it (keyset paging counts no items or pages). Leave ${given.join(' and ')} out to read it again from its start.`;
  }
  const page = p.page;
  if (!page || page <= 1 || p.next_page || p.next_page_params) return undefined;
  if (p.total === 0) {
    Object.assign(p, { past_the_end: true, last_page: 1 });
    return `page ${page} is past the end. This list is empty (the instance counts 0 items).`;
  }
  const pages = p.total_pages;
  if (pages === undefined) {
    p.past_the_end = true;
    return `page ${page} is past the end: the list ends before it. The instance does not count this list (it leaves the count out of large lists), so how many pages it has is not known; read from page 1 (pass page=1) and follow each answer's next page to the last, with the same parameters otherwise.`;
  }
  // An empty page the instance still counts among its pages: the list changed since it was counted.
  if (pages < 1 || pages >= page) return undefined;
  Object.assign(p, { past_the_end: true, last_page: pages });
  const items = p.total === undefined ? '' : `${p.total} item${p.total === 1 ? '' : 's'} on `;
  return `page ${page} is past the end. This list has ${items}${pages} page${pages === 1 ? '' : 's'}; its last page is ${pages} (pass page=${pages})${pages > 1 ? ' and its first is 1 (pass page=1)' : ''}, with the same parameters otherwise.`;
}

/**
 * Where a list's text stops when its items outgrow the cap, and how to read the ones left out: on a list paged
 * by number, the per_page and page whose pages start right after the last item shown (a divisor of the items
 * before it, so the pages line up); else a smaller per_page or the list's filters.
 */
function itemsCutNote(a: ActionSpec, shown: number, count: number, p: Pagination | undefined): string {
  const head = `\n… [text cut at ${TEXT_CAP} characters: the first ${shown} of these ${count} items are shown`;
  if (a.params && 'first' in a.params && 'after' in a.params)
    return `${head}; ask again with first=${shown} or fewer, then continue with after, or narrow the request with the action's filters]`;
  if (!a.params || !('per_page' in a.params)) return `${head}; narrow the request with the action's filters]`;
  if (p?.next_page_params || !('page' in a.params))
    return `${head}; ask again with per_page=${shown} or fewer, or narrow the request with the action's filters]`;
  const before = ((p?.page ?? 1) - 1) * (p?.per_page ?? count) + shown;
  let size = shown;
  while (before % size !== 0) size--;
  return `${head}; read the rest with per_page=${size} and page=${before / size + 1}, the same parameters otherwise]`;
}

/** The note on a diff entry the instance collapsed or cut, if it did. */
function diffNote(d: unknown): string | undefined {
  if (!d || typeof d !== 'object') return undefined;
  const e = d as Record<string, unknown>;
  if (e.collapsed)
    return `${String(e.new_path ?? e.old_path ?? '')}: diff collapsed by the instance; read the file with repository.file_get`;
  if (e.too_large)
    return `${String(e.new_path ?? e.old_path ?? '')}: diff too large to show; read the file with repository.file_get`;
  return undefined;
}

/** Notes on diff entries the instance collapsed or cut, one a line after a 'Notes:' line ('' if none). */
function diffNotes(items: unknown[]): string {
  let notes = '';
  for (const d of items) {
    const note = diffNote(d);
    if (note !== undefined) notes += '\n' + note;
  }
  return notes && '\nNotes:' + notes;
}

/** A GraphQL connection's pageInfo. */
export interface PageInfo {
  hasNextPage?: boolean;
  endCursor?: string;
}

/**
 * A GraphQL list's first line: its count (of the total, where the connection gives one), then the cursor of the
 * next page, or that it is the last one.
 */
export function connectionLine(a: ActionSpec, count: number, p: PageInfo, total?: number): string {
  const line =
    total === undefined
      ? `${count} item${count === 1 ? '' : 's'}`
      : `${count} of ${total} item${total === 1 ? '' : 's'}`;
  if (p.hasNextPage === false) return line + ', last page';
  if (p.hasNextPage && p.endCursor && a.params && 'after' in a.params)
    return line + `, next page: pass after=${p.endCursor} (with the same parameters otherwise)`;
  return line;
}

/** A list item's text, each field cut at this many characters. */
const ITEM_FIELD_CAP = 2000;

/**
 * A list's first item whose text alone is over what is left of the cap (`room`): the item without its longest
 * fields, as few as leave it within the room (an item that is no object is left out whole), and what was left out.
 */
function itemWithin(item: unknown, room: number): { line: string; left: string[] } {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return { line: '…', left: [] };
  const rec = item as Record<string, unknown>;
  // Each field's share of the item's text ('"key":value,'), as compactJson writes it (none when it writes none).
  const sizes = Object.keys(rec).map((k) => {
    const c = k === '_links' && apiLinksOnly(rec[k]) ? undefined : compactJson(rec[k], ITEM_FIELD_CAP, true);
    return { k, size: c === undefined ? 0 : JSON.stringify(k).length + 2 + c.length };
  });
  let total = 2 + sizes.reduce((n, f) => n + f.size, 0);
  const out = new Set<string>();
  for (const f of [...sizes].sort((x, y) => y.size - x.size)) {
    if (total <= room) break;
    out.add(f.k);
    total -= f.size;
  }
  const kept = Object.fromEntries(Object.entries(rec).filter(([k]) => !out.has(k)));
  const line = compactJson(kept, ITEM_FIELD_CAP) ?? '{}';
  const left = Object.keys(rec).filter((k) => out.has(k));
  return line.length <= room ? { line, left } : { line: '{}', left: Object.keys(rec) };
}

/** A REST action's path templates. */
const pathsOf = (a: ActionSpec | undefined): string[] => {
  const rest = a?.request && 'rest' in a.request ? a.request.rest : undefined;
  return rest ? [rest.path].flat() : [];
};

/**
 * The action reading one item of a list action, where the catalog has one, and the item's field its last path
 * parameter takes: by name (issue.list: issue.get, iid), and only where the get action reads its item one path
 * segment below where the list reads them (project.list_users lists users, which project.get does not read;
 * a group milestone is read by its ID, not its IID). A GraphQL list's is named without a field.
 */
function itemGetAction(list: ActionSpec): { id: string; field?: string } | undefined {
  const [domain, verb = ''] = list.id.split('.');
  const candidates = [
    verb === 'list' || verb.startsWith('list_') ? `${domain}.get` : '',
    verb.endsWith('_list') ? `${domain}.${verb.slice(0, -5)}_get` : '',
  ];
  const catalog = lazyCatalog();
  for (const id of candidates) {
    const entry = id ? catalog.get(id) : undefined;
    const get = entry && catalog.loadedSpec(entry);
    if (!get) continue;
    if (list.request && 'graphql' in list.request && get.request && 'graphql' in get.request) return { id };
    for (const path of pathsOf(get)) {
      const param = /^(.*)\/:(\w+)$/.exec(path);
      if (!param || !pathsOf(list).includes(param[1]!)) continue;
      const name = param[2]!;
      return { id, field: /_iid$/.test(name) ? 'iid' : /(^|_)id$/.test(name) ? 'id' : name };
    }
  }
  return undefined;
}

/**
 * What a list's first item left out to stay within the cap, and where to read it whole: structuredContent holds
 * it, and so does the action reading one item, where there is one.
 */
function itemCutNote(
  a: ActionSpec,
  item: unknown,
  left: string[],
  runsAs?: (id: string) => string | undefined,
): string {
  const what = left.length
    ? `its field${left.length === 1 ? '' : 's'} ${left.join(', ')} ${left.length === 1 ? 'is' : 'are'} left out above`
    : 'it is left out above';
  const get = itemGetAction(a);
  const how = get && runsAs?.(get.id);
  const rec = item && typeof item === 'object' ? (item as Record<string, unknown>) : {};
  const key = get?.field;
  const value = key === undefined ? undefined : rec[key];
  const about = [
    (typeof value === 'number' || typeof value === 'string') && `${key} ${String(value)}`,
    how && `run with ${how}`,
  ].filter(Boolean);
  const read = get ? `, or read it with ${get.id}${about.length ? ` (${about.join('; ')})` : ''}` : '';
  return `\n… [the first item alone is over the ${TEXT_CAP}-character cap: ${what}; structuredContent.items[0] holds it whole${read}]`;
}

export function jsonResult(
  a: ActionSpec,
  body: unknown,
  headers: Record<string, string>,
  runsAs?: (id: string) => string | undefined,
  /** The action's arguments, when the list was asked for with them (a keyset continuation is read from them). */
  args?: Record<string, unknown>,
): ToolResult {
  if (Array.isArray(body)) {
    const pagination = paginationOf(headers);
    let text = pagingLine(body.length, pagination, args);
    // Whole items up to the cap: a model told where the text stops can ask for exactly the items it missed.
    let shown = 0;
    let firstCut = '';
    for (const item of body) {
      let line = '\n' + (compactJson(item, ITEM_FIELD_CAP) ?? '{}');
      if (text.length + line.length > TEXT_CAP) {
        if (shown > 0) break;
        // The first item alone is over the cap: shown without its longest fields, which the note names.
        const within = itemWithin(item, TEXT_CAP - text.length - 1);
        line = '\n' + within.line;
        firstCut = itemCutNote(a, item, within.left, runsAs);
      }
      text += line;
      shown++;
    }
    const structuredContent: Record<string, unknown> = { items: body };
    if (pagination) structuredContent.pagination = pagination;
    text =
      shown < body.length
        ? text + diffNotes(body.slice(0, shown)) + firstCut + itemsCutNote(a, shown, body.length, pagination)
        : cap(text + diffNotes(body), 'ask for fewer items with per_page, or the next page with page') +
          firstCut;
    return { content: [{ type: 'text', text }], structuredContent };
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
      : '';
  const text = cap(
    (compactJson(rec) ?? '{}') + notes,
    'use a narrower action (for example per-file diffs with page and per_page)',
  );
  return { content: [{ type: 'text', text }], structuredContent: rec };
}

/**
 * Text answers (logs, raw files): windowed by tail_lines or a byte range, then capped. `fromTheEnd` (a job log,
 * whose failure is at its end): with no window asked for, a text over the cap is shown from its end.
 */
export function textResult(text: string, args: Record<string, unknown>, fromTheEnd = false): ToolResult {
  const total = Buffer.byteLength(text);
  let shown = text;
  let range = '';
  // The byte of the text where the part shown begins.
  let start = 0;
  if (typeof args.tail_lines === 'number') {
    const lines = text.split('\n');
    if (lines.length && lines[lines.length - 1] === '') lines.pop();
    const kept = Math.min(args.tail_lines, lines.length);
    shown = lines.slice(lines.length - kept).join('\n');
    start = kept < lines.length ? Buffer.byteLength(lines.slice(0, lines.length - kept).join('\n')) + 1 : 0;
    range = `last ${kept} of ${lines.length} lines`;
  } else if (typeof args.byte_offset === 'number' || typeof args.byte_limit === 'number') {
    const buf = Buffer.from(text);
    start = Math.min(Number(args.byte_offset ?? 0), buf.length);
    const end = Math.min(buf.length, start + Number(args.byte_limit ?? TEXT_CAP));
    shown = buf.subarray(start, end).toString('utf8');
    range = `bytes ${start}-${end} of ${total}`;
  } else if (fromTheEnd && text.length > TEXT_CAP) {
    // The last part that fits, from the start of a line.
    shown = text.slice(-TEXT_CAP);
    const nl = shown.indexOf('\n');
    if (nl >= 0 && nl < shown.length - 1) shown = shown.slice(nl + 1);
    start = total - Buffer.byteLength(shown);
    range = `bytes ${start}-${total} of ${total}`;
    return {
      content: [
        {
          type: 'text',
          text: `[${range}: the end of the log, which is longer than the ${TEXT_CAP}-character cap; read earlier parts with byte_offset and byte_limit]\n${shown}`,
        },
      ],
      structuredContent: { text: shown, total_bytes: total, range },
    };
  }
  let note = '';
  // The cap counts characters, as its note says: a text within it is whole, however many bytes its UTF-8 takes.
  if (shown.length > TEXT_CAP) {
    shown = shown.slice(0, TEXT_CAP);
    note = `\n… [cut at ${TEXT_CAP} characters of ${total} bytes; read more with byte_offset=${start + Buffer.byteLength(shown)} and byte_limit, or the end with tail_lines]`;
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
export function notFoundResult(
  a: ActionSpec,
  args: Record<string, unknown>,
  runsAs?: (id: string) => string | undefined,
  /** What the 404 says when more is known than "the object does not exist" (a project named by its name). */
  known?: string,
): ToolResult {
  const nf = a.notFound!;
  // The key naming the project or group itself is said once: "Project acme/nope" (not "... in project acme/nope"),
  // and an object found by its project alone (the latest release) as "Release in project acme/widgets".
  const ownKey = nf.key === 'project_id' || nf.key === 'group_id';
  const key = ownKey ? undefined : args[nf.key];
  const where = args.project_id ?? args.group_id;
  const scope =
    ownKey && (nf.object === 'Project' || nf.object === 'Group')
      ? ` ${String(args[nf.key])}`
      : args.project_id
        ? ` in project ${where}`
        : args.group_id
          ? ` in group ${where}`
          : ' in this instance';
  const lines = [
    `# Not Found: ${nf.object}${key !== undefined ? ` ${String(key)}` : ''}${scope}`,
    '',
    known
      ? `The instance answered ${known}.`
      : `The instance answered 404: the ${nf.object.toLowerCase()} does not exist, or this token cannot see it.`,
    '',
    '---',
    '',
    'Next steps:',
    ...nf.next.map((id) => {
      // On the meta and individual surfaces the ID is not what a model calls: the tool that runs it follows.
      const how = runsAs?.(id);
      return how ? `- ${id} (run with ${how})` : `- ${id}`;
    }),
  ];
  return errorResult(lines.join('\n'));
}
