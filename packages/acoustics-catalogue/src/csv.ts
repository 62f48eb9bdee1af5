/**
 * CSV with a JSON header: the header (`<csv file>.acoustics.json`) is the document without
 * rows, declaring the dialect; the CSV file holds one row per line.
 */
import {
  ROW_PROVENANCE_TEXT,
  classInfo,
  kindBounds,
  type ClassInfo,
  type RowClassName,
} from './definition.js';
import { assertTextOrBytes, decodeText } from './encoding.js';
import { CatalogueError, type Issue, type Note, pointer, quote, suggestion } from './errors.js';
import {
  MAX_DOCUMENT_BYTES,
  checkCatalogueValue,
  parseJson,
  rowTypeIssue,
  sizeIssue,
  withDigests,
  type ReadOptions,
  type ReadResult,
} from './reader.js';
import { orderDocument, stringify } from './writer.js';
import type { CatalogueDocument, CatalogueDocumentFor, CsvDialect, DecimalMark, Delimiter } from './types.js';
import { inspectDocument } from './validate.js';

/** Largest CSV header document (and header line), in bytes. */
export const MAX_CSV_HEADER_BYTES = 64 * 1024;
/** Suffix of the header file that sits beside a CSV file. */
export const CSV_HEADER_SUFFIX = '.acoustics.json';

const GUARDED = /^[=+\-@\t\r']/;
const TEXT_COMMON = ['name', 'variant', 'group', 'note'] as const;
/** Hedges a CSV cell cannot express. */
const JSON_ONLY = [
  'reported',
  'misprinted',
  'not_derivable',
  'carried',
  'converted',
  'borrowed',
  'attributed_to',
] as const;

export interface CsvReadResult<D = CatalogueDocument> extends ReadResult<D> {
  readonly dialect: CsvDialect;
}

export interface CsvCheckResult<D = CatalogueDocument> {
  readonly document?: D;
  readonly dialect?: CsvDialect;
  readonly issues: readonly Issue[];
  readonly notes: readonly Note[];
}

export interface CsvFileNames<C extends RowClassName = RowClassName> extends ReadOptions<C> {
  /** Name of the CSV file, for messages. */
  readonly csv?: string;
  /** Name of the header file, for messages. */
  readonly header?: string;
}

/** Spreadsheet column letter of a 0-based column index: 0 → A, 26 → AA. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

/** Writes a text cell, guarding texts a spreadsheet would run as a formula. */
export function guardText(text: string): string {
  return GUARDED.test(text) ? `'${text}` : text;
}

/** Reads a text cell: an apostrophe before a guarded character is the writer's guard. */
export function unguardText(text: string): string {
  return text.length > 1 && text[0] === "'" && GUARDED.test(text.slice(1)) ? text.slice(1) : text;
}

interface CsvRecord {
  readonly line: number;
  readonly cells: string[];
}

/** RFC 4180 records, each with the physical line it starts on. */
function parseRecords(
  text: string,
  delimiter: string,
): { records: CsvRecord[]; issue?: { line: number; message: string } } {
  const records: CsvRecord[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const start = line;
    const cells: string[] = [];
    for (;;) {
      let cell = '';
      if (text[i] === '"') {
        const quoteLine = line;
        i++;
        for (;;) {
          if (i >= n)
            return {
              records,
              issue: {
                line: quoteLine,
                message:
                  'a quoted cell is never closed; end it with a quote ("), and write a quote inside a cell as two ("")',
              },
            };
          const c = text[i];
          if (c === '"') {
            if (text[i + 1] === '"') {
              cell += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === '\n') line++;
          cell += c;
          i++;
        }
        if (i < n && text[i] !== delimiter && text[i] !== '\n' && text[i] !== '\r')
          return {
            records,
            issue: {
              line,
              message:
                'text after the closing quote of a cell; quote the whole cell, and write a quote inside it as two ("")',
            },
          };
      } else {
        while (i < n && text[i] !== delimiter && text[i] !== '\n' && text[i] !== '\r') cell += text[i++];
      }
      cells.push(cell);
      if (i < n && text[i] === delimiter) {
        i++;
        continue;
      }
      break;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') {
      i++;
      line++;
    }
    // A blank line, and a line of empty cells only (a spreadsheet's blank row), hold nothing: skipped.
    if (!cells.every((c) => c === '')) records.push({ line: start, cells });
  }
  return { records };
}

function numberPattern(decimal: DecimalMark): RegExp {
  const d = decimal === '.' ? '\\.' : ',';
  return new RegExp(`^[-\u2212]?(?:\\d+(?:${d}\\d*)?|${d}\\d+)(?:[eE][-+\u2212]?\\d+)?$`);
}

function toNumber(text: string, decimal: DecimalMark): number | undefined {
  const t = text.trim();
  if (!numberPattern(decimal).test(t)) return undefined;
  const n = Number(t.replace(/\u2212/g, '-').replace(decimal, '.'));
  return Number.isFinite(n) ? n : undefined;
}

type Row = Record<string, any>;

interface CellResult {
  readonly error?: string;
  /** Every number in the cell, for the other-decimal hint. */
  readonly numbers?: string[];
}

/** Applies one numeric cell to the row under construction. */
function readNumericCell(
  cell: string,
  field: string,
  info: ClassInfo,
  decimal: DecimalMark,
  row: Row,
): CellResult {
  let s = cell.trim();
  if (s === '') return {};
  const unq = /^\[(.+)\]$/s.exec(s);
  if (unq) {
    (row.unquantified ??= {})[field] = unq[1];
    return {};
  }
  const approximate = s.startsWith('~');
  if (approximate) s = s.slice(1).trim();
  const num = (t: string) => toNumber(t, decimal);
  const bad = (numbers: string[]) => ({
    error: `${quote(cell)} is not a value of ${field}: write a number with decimal mark ${JSON.stringify(decimal)}, ~n, <=n, >=n, a..b, n±u or [word]`,
    numbers,
  });
  const canonical = info.aliases.get(field)?.canonical ?? field;
  const bound = /^(<=|<|≤|>=|>|≥)(.*)$/s.exec(s);
  if (bound) {
    const v = num(bound[2]);
    if (v === undefined) return bad([bound[2]]);
    if (approximate)
      return { error: `${quote(cell)}: an approximate bound cannot be written in CSV (JSON only)` };
    const above = bound[1].startsWith('<') || bound[1] === '≤';
    const ceiling = kindBounds(info.spec.numeric[canonical].kind)[1];
    (row.ranges ??= {})[field] = above ? [null, v] : [v, ceiling];
    (above ? (row.bounded_above ??= []) : (row.bounded_below ??= [])).push(field);
    return {};
  }
  const range = s.split('..');
  if (range.length === 2) {
    const [a, b] = range.map(num);
    if (a === undefined || b === undefined) return bad(range);
    (row.ranges ??= {})[field] = [a, b];
    if (approximate) (row.approximate ??= []).push(field);
    return {};
  }
  const pm = /^(.*?)(±|\+\/-)(.*)$/s.exec(s);
  if (pm) {
    const v = num(pm[1]);
    const u = num(pm[3]);
    if (v === undefined || u === undefined) return bad([pm[1], pm[3]]);
    row[field] = v;
    (row.uncertainty ??= {})[field] = u;
    if (approximate) (row.approximate ??= []).push(field);
    return {};
  }
  const v = num(s);
  if (v === undefined) return bad([s]);
  row[field] = v;
  if (approximate) (row.approximate ??= []).push(field);
  return {};
}

type ColumnKind =
  | { kind: 'key' }
  | { kind: 'text'; field: string }
  | { kind: 'number'; field: string }
  | { kind: 'flag'; field: string }
  | { kind: 'basis' }
  | { kind: 'provenance'; field: string }
  | { kind: 'user'; field: string }
  /** A column with no name and no value in any line (a spreadsheet's empty column): read as absent. */
  | { kind: 'empty' };

function knownColumns(info: ClassInfo): string[] {
  return [
    'key',
    ...TEXT_COMMON,
    ...info.fields,
    ...info.spec.text,
    ...info.spec.flags,
    'basis',
    ...ROW_PROVENANCE_TEXT.map((p) => `provenance.${p}`),
  ];
}

function classifyColumn(name: string, info: ClassInfo): ColumnKind | undefined {
  if (name === 'key') return { kind: 'key' };
  if ((TEXT_COMMON as readonly string[]).includes(name) || info.spec.text.includes(name))
    return { kind: 'text', field: name };
  if (info.fields.includes(name)) return { kind: 'number', field: name };
  if (info.spec.flags.includes(name)) return { kind: 'flag', field: name };
  if (name === 'basis') return { kind: 'basis' };
  if (name.startsWith('provenance.') && (ROW_PROVENANCE_TEXT as readonly string[]).includes(name.slice(11)))
    return { kind: 'provenance', field: name.slice(11) };
  if (/^x-[A-Za-z0-9_][A-Za-z0-9_.+-]{0,125}$/.test(name)) return { kind: 'user', field: name };
  return undefined;
}

const byteLength = (input: string | Uint8Array) =>
  typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.byteLength;

/** Checks a CSV file and its header without throwing. */
export function checkCatalogueCsv<C extends RowClassName = RowClassName>(
  headerInput: string | Uint8Array,
  csvInput: string | Uint8Array,
  names: CsvFileNames<C> = {},
): CsvCheckResult<CatalogueDocumentFor<C>> {
  const inHeader = (issues: readonly Issue[]): Issue[] =>
    issues.map((i) => ({ ...i, ...(names.header ? { file: names.header } : {}) }));
  const inCsv = (line: number, column: number | undefined, message: string, p = ''): Issue => ({
    pointer: p,
    message,
    line,
    ...(column === undefined ? {} : { column: columnLetter(column) }),
    ...(names.csv ? { file: names.csv } : {}),
  });

  // The header document.
  const parsed = parseJson(headerInput, MAX_CSV_HEADER_BYTES, 'CSV header');
  if (parsed.issues.length) return { issues: inHeader(parsed.issues), notes: [] };
  const wrongClass = rowTypeIssue((parsed.value as { row_type?: unknown } | null)?.row_type, names.rowType);
  if (wrongClass) return { issues: inHeader([wrongClass]), notes: [] };
  const head = inspectDocument(parsed.value);
  if (head.issues.length || !head.document) return { issues: inHeader(head.issues), notes: [] };
  const header = head.document;
  if (header.csv === undefined)
    return {
      issues: inHeader([
        {
          pointer: '/csv',
          message:
            'the header beside a CSV file must declare its dialect, e.g. "csv": {"delimiter": ";", "decimal": ","}',
        },
      ]),
      notes: [],
    };
  const dialect = header.csv as CsvDialect;
  const info = classInfo(header.row_type as CatalogueDocument['row_type']);

  // The CSV file.
  assertTextOrBytes(csvInput, 'CSV file');
  const bytes = byteLength(csvInput);
  if (bytes > MAX_DOCUMENT_BYTES)
    return {
      issues: [
        { ...sizeIssue(bytes, MAX_DOCUMENT_BYTES, 'CSV file'), ...(names.csv ? { file: names.csv } : {}) },
      ],
      notes: [],
    };
  const text = decodeText(csvInput, 'CSV file');
  if (typeof text !== 'string')
    return { issues: [inCsv(text.line ?? 1, undefined, text.message)], notes: [] };
  const firstLineEnd = text.search(/\r|\n/);
  const headerLineBytes = Buffer.byteLength(firstLineEnd < 0 ? text : text.slice(0, firstLineEnd));
  if (headerLineBytes > MAX_CSV_HEADER_BYTES)
    return {
      issues: [
        inCsv(
          1,
          undefined,
          `the column line is ${headerLineBytes} bytes; at most ${MAX_CSV_HEADER_BYTES} are read`,
        ),
      ],
      notes: [],
    };
  const { records, issue: syntax } = parseRecords(text, dialect.delimiter);
  if (syntax) return { issues: [inCsv(syntax.line, undefined, syntax.message)], notes: [] };
  if (records.length === 0)
    return { issues: [inCsv(1, undefined, 'the CSV file is empty; it needs a column line')], notes: [] };

  const issues: Issue[] = [];
  const columnLine = records[0];
  const columns = columnLine.cells.map((c) => c.trim());
  const kinds: (ColumnKind | undefined)[] = [];
  const known = knownColumns(info);
  const seenColumns = new Map<string, number>();
  columns.forEach((name, i) => {
    if (name === '') {
      const filled = records.slice(1).find((r) => (r.cells[i] ?? '').trim() !== '');
      kinds.push({ kind: 'empty' });
      if (filled)
        issues.push(
          inCsv(
            columnLine.line,
            i,
            `the column has no name, yet line ${filled.line} gives it a value; name it (a column of ${info.name}, or x-<name> for one of your own), or delete the column`,
          ),
        );
      return;
    }
    const k = classifyColumn(name, info);
    kinds.push(k);
    if (!k)
      issues.push(
        inCsv(columnLine.line, i, `${quote(name)} is not a column of ${info.name}${suggestion(name, known)}`),
      );
    else if (seenColumns.has(name))
      issues.push(
        inCsv(
          columnLine.line,
          i,
          `column ${quote(name)} repeats column ${columnLetter(seenColumns.get(name)!)}`,
        ),
      );
    else seenColumns.set(name, i);
  });
  // A required column written in other capitals ("Key") is already answered above with its right spelling.
  for (const required of ['key', 'name'])
    if (!seenColumns.has(required) && !columns.some((c) => c.toLowerCase() === required))
      issues.push(
        inCsv(columnLine.line, undefined, `the column line has no ${JSON.stringify(required)} column`),
      );
  if (issues.length) {
    const raw = text.slice(0, firstLineEnd < 0 ? undefined : firstLineEnd);
    for (const other of [',', ';', '\t'] as Delimiter[]) {
      if (other === dialect.delimiter) continue;
      const split = raw.split(other).map((c) => c.trim().replace(/^"|"$/g, ''));
      // Read with that delimiter, every column is one of the class: the declared one is the only problem, and
      // the column problems above are what it makes of the line, so they are left out.
      if (split.length > 1 && split.every((c) => classifyColumn(c, info)))
        return {
          issues: [
            {
              pointer: '/csv/delimiter',
              message: `the column line reads with delimiter ${JSON.stringify(other)}, not the declared ${JSON.stringify(dialect.delimiter)}; correct csv.delimiter in the header`,
              ...(names.header ? { file: names.header } : {}),
            },
          ],
          notes: [],
        };
    }
    return { issues, notes: [] };
  }

  // Rows.
  const rows: Row[] = [];
  const rowLines: number[] = [];
  const failedNumbers: string[] = [];
  const otherDecimal: DecimalMark = dialect.decimal === '.' ? ',' : '.';
  for (const record of records.slice(1)) {
    if (record.cells.length !== columns.length) {
      const more = record.cells.length > columns.length;
      issues.push(
        inCsv(
          record.line,
          more ? columns.length : undefined,
          `the line has ${record.cells.length} cells; the column line has ${columns.length}: ${
            more
              ? `quote a cell that holds the delimiter ${JSON.stringify(dialect.delimiter === '\t' ? 'tab' : dialect.delimiter)}, or remove the cells past the last column`
              : 'give every column its cell (an empty one where nothing is printed)'
          }`,
        ),
      );
      continue;
    }
    const row: Row = {};
    let rowError: Issue | undefined;
    record.cells.forEach((cell, i) => {
      if (rowError) return;
      const k = kinds[i]!;
      switch (k.kind) {
        case 'key':
          row.key = cell;
          break;
        case 'text':
          if (cell !== '') row[k.field] = unguardText(cell);
          break;
        case 'user':
          if (cell !== '') row[k.field] = unguardText(cell);
          break;
        case 'empty':
          break;
        case 'provenance':
          if (cell !== '') (row.provenance ??= {})[k.field] = unguardText(cell);
          break;
        case 'basis':
          if (cell.trim() !== '') row.basis = { row: cell.trim() };
          break;
        case 'flag':
          if (cell.trim() === 'true') row[k.field] = true;
          else if (cell.trim() === 'false') row[k.field] = false;
          else if (cell.trim() !== '')
            rowError = inCsv(record.line, i, `${k.field} must be true, false or empty, got ${quote(cell)}`);
          break;
        case 'number': {
          const r = readNumericCell(cell, k.field, info, dialect.decimal, row);
          if (r.error) {
            rowError = inCsv(record.line, i, r.error);
            if (r.numbers) failedNumbers.push(...r.numbers);
          }
          break;
        }
      }
    });
    if (rowError) {
      issues.push(rowError);
      continue;
    }
    rows.push(row);
    rowLines.push(record.line);
  }
  if (failedNumbers.length && !(otherDecimal === ',' && dialect.delimiter === ',')) {
    if (failedNumbers.every((t) => toNumber(t, otherDecimal) !== undefined))
      issues.push({
        pointer: '/csv/decimal',
        message: `every number that failed reads with decimal mark ${JSON.stringify(otherDecimal)}; correct csv.decimal in the header`,
        ...(names.header ? { file: names.header } : {}),
      });
  }
  if (rows.length === 0 && issues.length === 0) issues.push(inCsv(1, undefined, 'the CSV file has no rows'));
  if (issues.length) return { issues, notes: [] };

  const assembled: Record<string, unknown> = { ...header, rows };
  delete assembled.csv;
  const checked = checkCatalogueValue(assembled);
  const columnOf = (p: string): [number, number | undefined] => {
    const m = /^\/rows\/(\d+)(?:\/([^/]+)(?:\/([^/]+))?)?/.exec(p);
    if (!m) return [1, undefined];
    const rowIndex = Number(m[1]);
    const line = rowLines[rowIndex];
    const prop = m[2]?.replace(/~1/g, '/').replace(/~0/g, '~');
    let sub = m[3]?.replace(/~1/g, '/').replace(/~0/g, '~');
    if (prop === undefined) return [line, undefined];
    if (seenColumns.has(prop)) return [line, seenColumns.get(prop)];
    if (prop === 'provenance' && sub) return [line, seenColumns.get(`provenance.${sub}`)];
    if (prop === 'basis') return [line, seenColumns.get('basis')];
    if (sub !== undefined && /^\d+$/.test(sub) && Array.isArray(rows[rowIndex]?.[prop]))
      sub = rows[rowIndex][prop][Number(sub)];
    if (sub !== undefined && seenColumns.has(sub)) return [line, seenColumns.get(sub)];
    return [line, seenColumns.get('key')];
  };
  const place = (i: Issue): Issue => {
    if (i.pointer === '/rows') return inCsv(1, undefined, i.message, i.pointer);
    if (!i.pointer.startsWith('/rows/')) return { ...i, ...(names.header ? { file: names.header } : {}) };
    const [line, column] = columnOf(i.pointer);
    return inCsv(line, column, i.message, i.pointer);
  };
  if (!checked.document) return { issues: checked.issues.map(place), notes: [] };
  // The header's class was checked against names.rowType, so the document is of class C.
  const document = checked.document as CatalogueDocumentFor<C>;
  return { document, dialect, issues: [], notes: checked.notes.map(place) };
}

/** Reads a CSV file with its JSON header. Throws a CatalogueError listing every problem. */
export function readCatalogueCsv<C extends RowClassName = RowClassName>(
  headerInput: string | Uint8Array,
  csvInput: string | Uint8Array,
  names: CsvFileNames<C> = {},
): CsvReadResult<CatalogueDocumentFor<C>> {
  const r = checkCatalogueCsv(headerInput, csvInput, names);
  if (!r.document || !r.dialect) throw new CatalogueError(r.issues, 'CSV catalogue');
  return withDigests({ document: r.document, dialect: r.dialect, notes: r.notes }, csvInput, headerInput);
}

function formatNumber(v: number, decimal: DecimalMark): string {
  const s = String(v);
  return decimal === '.' ? s : s.replace('.', ',');
}

function csvCell(text: string, delimiter: Delimiter): string {
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV cell of a numeric field, or why it cannot be written in CSV. */
function writeNumericCell(
  row: Row,
  field: string,
  info: ClassInfo,
  decimal: DecimalMark,
): string | { error: string } {
  const value = row[field];
  const has = typeof value === 'number';
  const range: [number | null, number | null] | undefined = row.ranges?.[field];
  const approximate = (row.approximate ?? []).includes(field);
  const above = (row.bounded_above ?? []).includes(field);
  const below = (row.bounded_below ?? []).includes(field);
  const uncertainty: number | undefined = row.uncertainty?.[field];
  const word: string | undefined = row.unquantified?.[field];
  const f = (n: number) => formatNumber(n, decimal);
  const tilde = approximate ? '~' : '';
  if (word !== undefined) {
    if (approximate || uncertainty !== undefined || range)
      return { error: `${field}: an unquantified word with other hedges cannot be written in CSV` };
    return `[${word}]`;
  }
  if (range) {
    if (has) return { error: `${field}: a value with a range cannot be written in one CSV cell` };
    if (uncertainty !== undefined) return { error: `${field}: a range with ± cannot be written in CSV` };
    if (above && below) return { error: `${field}: a range bounded on both sides cannot be written in CSV` };
    if (above || below) {
      if (approximate) return { error: `${field}: an approximate bound cannot be written in CSV` };
      const ceiling = kindBounds(info.spec.numeric[field].kind)[1];
      if (above && range[0] === null && range[1] !== null) return `<=${f(range[1])}`;
      if (below && range[0] !== null && range[1] === ceiling) return `>=${f(range[0])}`;
      return { error: `${field}: a bound with both ends given cannot be written in CSV` };
    }
    if (range[0] === null || range[1] === null)
      return { error: `${field}: an open range that is not a bound cannot be written in CSV` };
    return `${tilde}${f(range[0])}..${f(range[1])}`;
  }
  if (above || below) return { error: `${field}: a bound needs a range` };
  if (!has) {
    if (approximate || uncertainty !== undefined) return { error: `${field}: hedges on an empty cell` };
    return '';
  }
  return uncertainty === undefined ? `${tilde}${f(value)}` : `${tilde}${f(value)}±${f(uncertainty)}`;
}

/**
 * Why `converted` stops a CSV, and what to do: it holds figures as printed in other units (the reader records
 * them for unit alias fields such as thickness_cm), which no CSV cell can carry beside the canonical value.
 */
function convertedMessage(row: Row): string {
  const entries = Object.entries((row.converted ?? {}) as Record<string, readonly [string, string]>).map(
    ([field, [figure, unit]]) => `${field} as ${figure} ${unit}`,
  );
  return `converted cannot be written in CSV (JSON only): it keeps figures as printed in other units (${entries.join(', ')}), as the reader records them when it converts unit alias fields; remove converted to write the canonical values alone, or write JSON`;
}

/**
 * Writes a document as a CSV file and its JSON header in the given dialect. Throws a
 * CatalogueError when the document is refused or holds what CSV cannot express.
 */
export function writeCatalogueCsv(
  document: CatalogueDocument,
  dialect: CsvDialect,
): { header: string; csv: string } {
  const checked = checkCatalogueValue(document);
  if (!checked.document) throw new CatalogueError(checked.issues, 'document to write');
  const doc = checked.document;
  const headerValue: Record<string, unknown> = {
    ...(doc as unknown as Record<string, unknown>),
    csv: { ...dialect },
  };
  delete headerValue.rows;
  const headerCheck = inspectDocument(headerValue);
  if (headerCheck.issues.length) throw new CatalogueError(headerCheck.issues, 'CSV dialect');
  const info = classInfo(doc.row_type);
  const rows = doc.rows as readonly Row[];

  const problems: Issue[] = [];
  rows.forEach((row, i) => {
    for (const h of JSON_ONLY)
      if (row[h] !== undefined)
        problems.push({
          pointer: pointer('rows', i, h),
          message: h === 'converted' ? convertedMessage(row) : `${h} cannot be written in CSV (JSON only)`,
        });
    const basisKeys = Object.keys(row.basis ?? {}).filter((k) => k !== 'row');
    if (basisKeys.length)
      problems.push({
        pointer: pointer('rows', i, 'basis'),
        message: 'basis of single fields cannot be written in CSV (JSON only)',
      });
    if (row.provenance?.field_test_standards)
      problems.push({
        pointer: pointer('rows', i, 'provenance', 'field_test_standards'),
        message: 'field_test_standards cannot be written in CSV (JSON only)',
      });
  });

  const used = new Set<string>(['key', 'name']);
  for (const row of rows) {
    for (const k of Object.keys(row)) used.add(k);
    for (const h of ['ranges', 'uncertainty', 'unquantified'])
      for (const k of Object.keys(row[h] ?? {})) used.add(k);
    for (const h of ['approximate', 'bounded_above', 'bounded_below'])
      for (const k of row[h] ?? []) used.add(k);
  }
  const columns: string[] = [
    'key',
    ...TEXT_COMMON,
    ...info.canonical,
    ...info.spec.text,
    ...info.spec.flags,
  ].filter((c) => used.has(c));
  if (rows.some((r) => r.basis?.row !== undefined)) columns.push('basis');
  for (const p of ROW_PROVENANCE_TEXT)
    if (rows.some((r) => r.provenance?.[p] !== undefined)) columns.push(`provenance.${p}`);
  for (const row of rows)
    for (const k of Object.keys(row)) if (k.startsWith('x-') && !columns.includes(k)) columns.push(k);

  const lines: string[] = [columns.map((c) => csvCell(c, dialect.delimiter)).join(dialect.delimiter)];
  rows.forEach((row, i) => {
    const cells = columns.map((c) => {
      const k = classifyColumn(c, info)!;
      switch (k.kind) {
        case 'key':
          return row.key as string;
        case 'text':
          return row[c] === undefined ? '' : guardText(row[c]);
        case 'user':
          return row[c] === undefined ? '' : guardText(String(row[c]));
        case 'provenance':
          return row.provenance?.[k.field] === undefined ? '' : guardText(row.provenance[k.field]);
        case 'basis':
          return row.basis?.row ?? '';
        case 'flag':
          return row[c] === undefined ? '' : String(row[c]);
        case 'number': {
          const cell = writeNumericCell(row, c, info, dialect.decimal);
          if (typeof cell === 'string') return cell;
          problems.push({ pointer: pointer('rows', i, c), message: `${cell.error} (JSON only)` });
          return '';
        }
      }
    });
    lines.push(cells.map((c) => csvCell(c, dialect.delimiter)).join(dialect.delimiter));
  });
  if (problems.length) throw new CatalogueError(problems, 'document to write as CSV');
  return {
    header: `${stringify(orderDocument(headerValue), '')}\n`,
    csv: `${lines.join('\r\n')}\r\n`,
  };
}

/** A numeric cell as the CSV grammar shows it ('.' decimal), for display. */
export function displayCell(row: Readonly<Record<string, unknown>>, field: string, info: ClassInfo): string {
  const r = row as Row;
  const cell = writeNumericCell(r, field, info, '.');
  if (typeof cell === 'string') return cell;
  const parts: string[] = [];
  if (typeof r[field] === 'number') parts.push(String(r[field]));
  const range = r.ranges?.[field];
  if (range) parts.push(`${range[0] ?? ''}..${range[1] ?? ''}`);
  if (r.unquantified?.[field]) parts.push(`[${r.unquantified[field]}]`);
  return parts.join(' ');
}
