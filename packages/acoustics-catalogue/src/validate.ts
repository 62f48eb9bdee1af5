/**
 * Checks a parsed document: the schema through ajv, then the rules that depend on two cells
 * at once. Collects every problem (one per row at most) and the notes.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import {
  NEVER_WRITTEN,
  ROW_CLASS_NAMES,
  ROW_PROVENANCE_TEXT,
  classInfo,
  isRowClassName,
} from './definition.js';
import type { ClassInfo, RowClassName } from './definition.js';
import { type Issue, type Note, escapePointer, listNames, pointer, quote, suggestion } from './errors.js';
import { isPhonometryDocument, phonometryIssue } from './phonometry.js';
import { checkRow, rowNotes } from './rules.js';
import {
  CATALOGUE_PATTERN,
  KEY_PATTERN,
  MAX_ROWS,
  NON_WHITESPACE,
  SAFE_TEXT,
  UNSAFE_CLASS,
  USER_COLUMN_PATTERN,
  buildSchema,
} from './schema.js';

export const SCHEMA_VERSION = 1;

let ajv: Ajv2020 | undefined;
let fullSchema: Record<string, any> | undefined;
const compiled = new Map<string, ValidateFunction>();

function createAjv(): Ajv2020 {
  const instance = new Ajv2020({
    allErrors: true,
    verbose: true,
    strict: true,
    strictRequired: false,
    strictTypes: false,
    code: { optimize: false },
  });
  const addFormats = ((formatsPlugin as any).default ?? formatsPlugin) as (a: unknown, f: string[]) => void;
  addFormats(instance, ['date']);
  return instance;
}

/**
 * The published schema cut down to one row class: the same object, keeping only that class's
 * branch and definitions, so a reader compiles the part it uses (the full schema compiles in
 * about a second). With no class (an unknown row_type), no branch at all.
 */
function schemaFor(rowType: RowClassName | undefined): Record<string, any> {
  fullSchema ??= buildSchema();
  const belongs = (k: string, name: string) => k === name || k.startsWith(`${name}.`);
  const $defs = Object.fromEntries(
    Object.entries(fullSchema.$defs as Record<string, unknown>).filter(
      ([k]) => !ROW_CLASS_NAMES.some((n) => belongs(k, n)) || (rowType !== undefined && belongs(k, rowType)),
    ),
  );
  const allOf = (fullSchema.allOf as any[]).filter(
    (branch, i) => i === 0 || (rowType !== undefined && branch.if?.properties?.row_type?.const === rowType),
  );
  return { ...fullSchema, $id: `${fullSchema.$id}:${rowType ?? 'none'}`, allOf, $defs };
}

/**
 * The compiled schema validator: the whole published schema, or (given a row class) the
 * part of it that class uses. Compiled once each, on first use.
 */
export function schemaValidator(rowType?: RowClassName | 'none'): ValidateFunction {
  const key = rowType ?? 'all';
  let v = compiled.get(key);
  if (!v) {
    ajv ??= createAjv();
    v = ajv.compile(
      rowType === undefined ? buildSchema() : schemaFor(rowType === 'none' ? undefined : rowType),
    );
    compiled.set(key, v);
  }
  return v;
}

export interface Inspection {
  /** The document with aliases converted, when it was accepted. */
  readonly document?: Record<string, unknown>;
  readonly issues: Issue[];
  readonly notes: Note[];
}

const TOP_LEVEL = [
  '$schema',
  'schema',
  'schema_version',
  'catalogue',
  'row_type',
  'about',
  'provenance',
  'basis',
  'attributed_to',
  'conventions',
  'csv',
  'rows',
  'acoustics_version',
];
const PROVENANCE_FIELDS = [
  'kind',
  'document',
  'version',
  'consulted',
  'publisher',
  'url',
  ...ROW_PROVENANCE_TEXT,
  'issued',
  'sha256',
  'field_test_standards',
];
const ROW_HEDGES = [
  'basis',
  'approximate',
  'bounded_above',
  'bounded_below',
  'ranges',
  'reported',
  'uncertainty',
  'converted',
  'unquantified',
  'not_derivable',
  'carried',
  'misprinted',
  'attributed_to',
];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function tokens(instancePath: string): string[] {
  return instancePath === ''
    ? []
    : instancePath
        .slice(1)
        .split('/')
        .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function rowPropertyNames(info: ClassInfo): string[] {
  return [
    'key',
    'name',
    'variant',
    'group',
    'note',
    ...info.fields,
    ...info.spec.text,
    ...info.spec.flags,
    ...ROW_HEDGES,
    ...(info.name === 'SolidMaterial' ? ['borrowed'] : []),
    'provenance',
  ];
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  null: 'null',
  integer: 'a whole number',
  number: 'a number',
  array: 'a list',
  object: 'an object',
  string: 'text',
  boolean: 'true or false',
};

function typeWords(t: unknown): string {
  return (Array.isArray(t) ? t : [t]).map((x) => TYPE_WORDS[String(x)] ?? String(x)).join(' or ');
}

const UNSAFE = new RegExp(`[${UNSAFE_CLASS}]`, 'u');

/** Why a text is refused for the character it holds. */
export function unsafeTextMessage(what: string, text: string): string {
  const at = text.search(UNSAFE);
  const code = text.codePointAt(at) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const kind =
    code < 0x20
      ? 'a control character (only tab and line feed are kept)'
      : 'a bidirectional formatting mark, which makes a text show one thing and hold another';
  return `${what} holds ${hex} at character ${at + 1}, ${kind}; remove it`;
}

/** What to write for a required top-level field. */
const WRITE_THIS: Readonly<Record<string, string>> = {
  schema: 'write "schema": "acoustics-catalogue"',
  schema_version: `write "schema_version": ${1}`,
  catalogue:
    'write "catalogue": a name of lower-case letters, digits and . _ - (1 to 64 characters), such as "acme-panels"',
  row_type: `write "row_type": one of the ${ROW_CLASS_NAMES.length} row classes, such as "PorousMaterial"`,
  about: 'write "about": what the document is, how it was read and the units it prints',
  provenance: 'write "provenance": {"kind", "document", "version", "consulted"}',
};

function patternMessage(pattern: string, data: unknown, path: string[]): string {
  if (pattern === KEY_PATTERN)
    return `row key ${quote(data)} must start with a letter, digit or underscore and hold only letters, digits and _ . + - (1 to 128 characters)`;
  if (pattern === CATALOGUE_PATTERN)
    return `catalogue name ${quote(data)} must start with a lower-case letter or digit and hold only lower-case letters, digits and . _ - (1 to 64 characters)`;
  if (pattern === NON_WHITESPACE)
    return `${path[path.length - 1] ?? 'text'} must hold at least one character that is not whitespace`;
  if (pattern === SAFE_TEXT) return unsafeTextMessage(path[path.length - 1] ?? 'text', String(data));
  if (pattern === USER_COLUMN_PATTERN) return `user column ${quote(data)} is not a valid x- name`;
  const last = path[path.length - 1];
  if (last === 'consulted') return `consulted date ${quote(data)} must be written YYYY-MM-DD`;
  if (last === 'issued') return `issued date ${quote(data)} must be YYYY, YYYY-MM or YYYY-MM-DD`;
  if (last === 'sha256') return `sha256 ${quote(data)} must be 64 hexadecimal digits`;
  return `${quote(data)} does not match ${pattern}`;
}

/** The names a failing property name could have meant, by where it sits. */
function namesAt(path: string[], info: ClassInfo | undefined): string[] {
  const inRow = path[0] === 'rows' && path.length >= 3;
  const hedge = inRow ? path[2] : path[path.length - 1];
  if (!info) return [];
  if (hedge === 'carried' || hedge === 'misprinted') return [...info.cells];
  if (hedge === 'basis') return [...info.fields, 'row'];
  if (hedge === 'attributed_to') return [...info.fields, 'row', 'table'];
  return [...info.fields];
}

interface Described {
  readonly pointer: string;
  readonly message: string;
}

function describe(err: ErrorObject, info: ClassInfo | undefined): Described | null {
  const path = tokens(err.instancePath);
  const at = err.instancePath;
  const data = err.data;
  const params = err.params as Record<string, any>;
  const last = path.length ? path[path.length - 1] : 'document';
  const what = /^\d+$/.test(last) && path.length > 1 ? `${path[path.length - 2]} item ${last}` : last;
  switch (err.keyword) {
    case 'if':
    case 'anyOf-branch':
      return null;
    case 'required': {
      const missing = String(params.missingProperty);
      if (err.schemaPath === '#/allOf/0/else/required')
        return { pointer: '/rows', message: 'rows is required (a document without rows needs a csv header)' };
      const hint = at === '' && WRITE_THIS[missing] ? `; ${WRITE_THIS[missing]}` : '';
      return {
        pointer: `${at}/${escapePointer(missing)}`,
        message: `required field ${JSON.stringify(missing)} is missing${hint}`,
      };
    }
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      const p = `${at}/${extra.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const inRow = path[0] === 'rows' && path.length === 2;
      if (inRow && NEVER_WRITTEN[extra] !== undefined)
        return {
          pointer: p,
          message: `a row never carries ${JSON.stringify(extra)}: ${NEVER_WRITTEN[extra]}`,
        };
      if (inRow && extra.startsWith('x-'))
        return {
          pointer: p,
          message: `user column ${quote(extra)} must be x- then a letter, digit or _, and only letters, digits and _ . + - (at most 127 characters)`,
        };
      let names: string[];
      let whose: string;
      if (path.length === 0) {
        names = TOP_LEVEL;
        whose = 'a catalogue document';
      } else if (path[0] === 'provenance') {
        names = PROVENANCE_FIELDS;
        whose = 'provenance';
      } else if (inRow && info) {
        names = rowPropertyNames(info);
        whose = info.name;
      } else if (path[path.length - 1] === 'provenance') {
        names = [...ROW_PROVENANCE_TEXT, 'field_test_standards'];
        whose = 'row provenance (a row never says which document it is)';
      } else if (path[0] === 'csv') {
        names = ['delimiter', 'decimal'];
        whose = 'csv';
      } else {
        names = Object.keys((err.parentSchema as any)?.properties ?? {});
        whose = what;
      }
      return {
        pointer: p,
        message: `${quote(extra)} is not a field of ${whose}${suggestion(extra, names)}`,
      };
    }
    case 'propertyNames': {
      const name = String(params.propertyName);
      const p = `${at}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const names = namesAt(path, info);
      const cls = info ? info.name : 'this row class';
      if (names.length === 0 || (names.length <= 2 && names.every((n) => ['row', 'table'].includes(n))))
        return { pointer: p, message: `${quote(name)} is not a field: ${cls} has no numeric fields` };
      return {
        pointer: p,
        message: `${quote(name)} is not a ${path.includes('carried') || path.includes('misprinted') ? 'cell' : 'numeric field'} of ${cls}${suggestion(name, names)}`,
      };
    }
    case 'false schema':
      return {
        pointer: at,
        message: `${quote(data)} is not a field: ${info ? info.name : 'this row class'} has no numeric fields`,
      };
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String);
      const label =
        what === 'row_type'
          ? 'row class'
          : path.includes('basis') || what === 'basis'
            ? 'basis'
            : path[path.length - 2] === 'provenance' && what === 'kind'
              ? 'provenance kind'
              : /^(approximate|bounded_above|bounded_below)$/.test(path[path.length - 2] ?? '')
                ? `numeric field of ${info?.name ?? 'this row class'}`
                : what;
      if (at === '/row_type' && typeof data !== 'string')
        return {
          pointer: at,
          message: `row_type must be the name of a row class, as text (such as "PorousMaterial"), got ${quote(data)}`,
        };
      const hint =
        typeof data === 'string' && allowed.some((a) => a.length > 1) ? suggestion(data, allowed) : '';
      return {
        pointer: at,
        message: `${quote(data)} is not a ${label}${hint || `; expected one of ${listNames(allowed)}`}`,
      };
    }
    case 'const': {
      if (at === '/schema')
        return { pointer: at, message: `schema must be "acoustics-catalogue", got ${quote(data)}` };
      if (at === '/schema_version')
        return { pointer: at, message: `schema_version must be ${SCHEMA_VERSION}, got ${quote(data)}` };
      return { pointer: at, message: `must be ${quote(params.allowedValue)}, got ${quote(data)}` };
    }
    case 'not': {
      if (err.schemaPath === '#/allOf/0/then/not')
        return {
          pointer: '/rows',
          message: 'rows must be absent when csv is present: the rows belong in the CSV file',
        };
      if (at === '/catalogue' && typeof data !== 'string') return null;
      if (at === '/catalogue')
        return {
          pointer: at,
          message: `catalogue name ${quote(data)} has the form of a packaged table's name (…-YYYY-…); choose another`,
        };
      // The , / , rule only speaks of a csv object; for anything else the type error says what is wrong.
      if ((path[path.length - 1] === 'csv' || path[0] === 'csv') && !isObject(data)) return null;
      if (path[path.length - 1] === 'csv' || path[0] === 'csv')
        return {
          pointer: at,
          message:
            'delimiter "," with decimal mark "," cannot be told apart; use delimiter ";" or decimal "."',
        };
      return { pointer: at, message: 'is not allowed here' };
    }
    case 'type':
      if (at === '/catalogue')
        return {
          pointer: at,
          message: `catalogue must be text: a name of lower-case letters, digits and . _ - (1 to 64 characters), got ${quote(data)}`,
        };
      return { pointer: at, message: `${what} must be ${typeWords(params.type)}, got ${quote(data)}` };
    case 'minimum':
      return { pointer: at, message: `${what} must be at least ${params.limit}, got ${quote(data)}` };
    case 'maximum':
      return { pointer: at, message: `${what} must be at most ${params.limit}, got ${quote(data)}` };
    case 'pattern':
      return { pointer: at, message: patternMessage(String(params.pattern), data, path) };
    case 'format':
      return { pointer: at, message: `${quote(data)} is not a calendar date` };
    case 'maxLength':
      return { pointer: at, message: `${what} is longer than ${params.limit} characters` };
    case 'minItems':
      if (at === '/rows') return { pointer: at, message: 'rows must hold at least one row' };
      if (path[2] === 'reported') return { pointer: at, message: 'must list at least one reading' };
      return { pointer: at, message: `must hold exactly ${params.limit} items` };
    case 'maxItems':
      return { pointer: at, message: `must hold at most ${params.limit} items` };
    case 'items':
      return { pointer: at, message: 'must hold exactly 2 items' };
    case 'anyOf':
      if (path[2] === 'reported')
        return { pointer: at, message: `reading ${quote(data)} must be a number or a pair [low, high]` };
      if (what === 'version')
        return { pointer: at, message: `version must be filled text or null, got ${quote(data)}` };
      if (what.startsWith('x-'))
        return {
          pointer: at,
          message:
            typeof data === 'string'
              ? unsafeTextMessage(what, data)
              : `user column ${quote(what)} must be text or a number, got ${quote(data)}`,
        };
      return { pointer: at, message: `${quote(data)} is not allowed here` };
    default:
      return { pointer: at, message: err.message ?? 'is not valid' };
  }
}

/** Converts ajv errors into issues: all top-level problems, and at most the first per row. */
function schemaIssues(
  errors: readonly ErrorObject[],
  doc: Record<string, unknown>,
  info: ClassInfo | undefined,
  brokenRows: Set<number>,
): Issue[] {
  const top: Issue[] = [];
  const perRow = new Map<number, { issue: Issue; rank: number }>();
  const rows = Array.isArray(doc.rows) ? doc.rows : [];
  // A failed anyOf is reported once, by its own message, not by its branches' errors.
  const anyOfAt = errors
    .filter((e) => e.keyword === 'anyOf' && e.propertyName === undefined)
    .map((e) => e.instancePath);
  const underAnyOf = (p: string) => anyOfAt.some((a) => p === a || p.startsWith(`${a}/`));
  for (const err of errors) {
    if (err.propertyName !== undefined) continue; // reported by its propertyNames error
    if (err.keyword !== 'anyOf' && underAnyOf(err.instancePath)) continue;
    const d = describe(err, info);
    if (!d) continue;
    const m = /^\/rows\/(\d+)(\/([^/]*))?/.exec(d.pointer);
    if (!m) {
      top.push({ pointer: d.pointer, message: d.message });
      continue;
    }
    const index = Number(m[1]);
    const row = rows[index];
    const keys = isObject(row) ? Object.keys(row) : [];
    const prop = m[3] === undefined ? undefined : m[3].replace(/~1/g, '/').replace(/~0/g, '~');
    const position = prop === undefined ? -1 : keys.indexOf(prop);
    const rank = err.keyword === 'required' ? -2 : position;
    const prev = perRow.get(index);
    if (!prev || rank < prev.rank)
      perRow.set(index, { issue: { pointer: d.pointer, message: d.message }, rank });
  }
  for (const i of perRow.keys()) brokenRows.add(i);
  const rowIssues = [...perRow.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v.issue);
  const rank = (i: Issue) => {
    const first = tokens(i.pointer)[0];
    const r = first === undefined ? -1 : TOP_LEVEL.indexOf(first);
    return r < 0 && first !== undefined ? TOP_LEVEL.length : r;
  };
  const sortedTop = dedupe(top)
    .map((issue, order) => ({ issue, order }))
    .sort((a, b) => rank(a.issue) - rank(b.issue) || a.order - b.order)
    .map((x) => x.issue);
  return [...sortedTop, ...rowIssues];
}

/** One problem per place: the first found. */
function dedupe(issues: Issue[]): Issue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const k = i.pointer;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Checks a parsed document. Returns the converted document when there are no issues.
 * `$schema` and `acoustics_version` are never looked at beyond being carried along.
 */
export function inspectDocument(value: unknown): Inspection {
  if (!isObject(value))
    return {
      issues: [{ pointer: '', message: `a catalogue document must be a JSON object, got ${quote(value)}` }],
      notes: [],
    };
  if (isPhonometryDocument(value)) return { issues: [phonometryIssue()], notes: [] };
  const version = value.schema_version;
  if (typeof version === 'number' && Number.isInteger(version) && version > SCHEMA_VERSION)
    return {
      issues: [
        {
          pointer: '/schema_version',
          message: `schema_version ${version} is newer than this reader understands (${SCHEMA_VERSION}); upgrade the reader (acoustics-catalogue)`,
        },
      ],
      notes: [],
    };
  const issues: Issue[] = [];
  let subject = value;
  if (Array.isArray(value.rows) && value.rows.length > MAX_ROWS) {
    issues.push({
      pointer: '/rows',
      message: `rows holds ${value.rows.length} rows; a document holds at most ${MAX_ROWS} (split it into several catalogues)`,
    });
    subject = { ...value, rows: [] };
  }
  const info = isRowClassName(value.row_type) ? classInfo(value.row_type) : undefined;
  const validate = schemaValidator(info ? info.name : 'none');
  const brokenRows = new Set<number>();
  if (!validate(subject)) {
    const found = schemaIssues(validate.errors ?? [], subject, info, brokenRows);
    issues.push(...(subject === value ? found : found.filter((i) => !i.pointer.startsWith('/rows'))));
  }
  if (!info || subject !== value || !Array.isArray(value.rows))
    return issues.length ? { issues, notes: [] } : { document: { ...value }, issues, notes: [] };

  // The rules that depend on two cells at once, row by row.
  const rows = (value.rows as unknown[] | undefined) ?? [];
  const converted: unknown[] = new Array(rows.length);
  const notes: Note[] = [];
  const seen = new Map<string, number>();
  const docBasis = typeof value.basis === 'string' ? value.basis : undefined;
  const provenance = isObject(value.provenance) ? value.provenance : {};
  const docHasReport = Boolean(provenance.report || provenance.laboratory);
  for (let i = 0; i < rows.length; i++) {
    if (brokenRows.has(i)) continue;
    const row = rows[i] as Record<string, unknown>;
    const result = checkRow(row, info);
    if ('issue' in result) {
      issues.push({ pointer: pointer('rows', i) + result.issue.pointer, message: result.issue.message });
      brokenRows.add(i);
      continue;
    }
    const key = row.key as string;
    const first = seen.get(key);
    if (first !== undefined) {
      issues.push({
        pointer: pointer('rows', i, 'key'),
        message: `key ${quote(key)} repeats the key of row ${first} (/rows/${first}); every row key must be unique`,
      });
      brokenRows.add(i);
      continue;
    }
    seen.set(key, i);
    converted[i] = result.row;
    for (const n of rowNotes(result.row, info, docBasis, docHasReport))
      notes.push({ pointer: pointer('rows', i) + n.pointer, message: n.message });
  }
  if (issues.length) {
    issues.sort((a, b) => rowIndexOf(a.pointer) - rowIndexOf(b.pointer));
    return { issues, notes: [] };
  }
  const document: Record<string, unknown> = { ...value };
  if (value.rows !== undefined) document.rows = converted;
  return { document, issues, notes };
}

function rowIndexOf(p: string): number {
  const m = /^\/rows\/(\d+)/.exec(p);
  return m ? Number(m[1]) : -1;
}

export { ROW_CLASS_NAMES };
