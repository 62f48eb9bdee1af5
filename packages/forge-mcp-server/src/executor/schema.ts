/** Input schemas as clients see them, and their compiled validators (built lazily, cached per action). */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import type { ActionSpec, JsonSchema, ParamSpec } from '../catalog/types.js';
import { isProjectUrl } from '../catalog/project-ref.js';
import { bareNumberFix, PATTERN_MEANINGS } from '../catalog/patterns.js';
import { withRoleWords, wordsToLevels } from './roles.js';
import { clip, LISTED_AT_MOST, nearest } from './suggest.js';

const addFormats = addFormatsImport as unknown as (ajv: Ajv2020) => Ajv2020;

/** Text answers (logs, raw files) can be read as a tail or a byte range; the executor owns these. */
export const TEXT_WINDOW_PARAMS: Record<string, ParamSpec> = {
  tail_lines: {
    type: 'integer',
    minimum: 1,
    description: 'Return only the last N lines of the text (useful for job logs).',
    in: 'none',
  },
  byte_offset: {
    type: 'integer',
    minimum: 0,
    description: 'Start reading the text at this byte.',
    in: 'none',
  },
  byte_limit: {
    type: 'integer',
    minimum: 1,
    description: 'Read at most this many bytes (default: up to the output cap).',
    in: 'none',
  },
};

/** The field an action declares when it asks for confirmation itself. */
export const CONFIRM_PARAM: ParamSpec = {
  type: 'boolean',
  description: 'Set true only after the user explicitly approved this operation.',
  in: 'none',
};

const allParams = new WeakMap<ActionSpec, Record<string, ParamSpec>>();

/** Every parameter an action takes: its own, and those the executor adds (read-only; kept per action). */
export function paramsOf(a: ActionSpec): Record<string, ParamSpec> {
  let params = allParams.get(a);
  if (!params) {
    const rest = a.request && 'rest' in a.request ? a.request.rest : undefined;
    params = a.params;
    if (rest?.response === 'text') params = { ...params, ...TEXT_WINDOW_PARAMS };
    if (a.confirmWhen) params = { ...params, confirm: CONFIRM_PARAM };
    allParams.set(a, params);
  }
  return params;
}

const cache = new WeakMap<ActionSpec, JsonSchema>();

/** A parameter as a client sees it: without what only the executor reads (where it travels, its wire names). */
function published(p: ParamSpec): JsonSchema {
  const { in: _in, wire: _wire, gid: _gid, ...schema } = p;
  const nested = schema.properties as Record<string, ParamSpec> | undefined;
  if (!nested) return schema;
  return {
    ...schema,
    properties: Object.fromEntries(Object.entries(nested).map(([k, v]) => [k, published(v)])),
  };
}

/**
 * The action's parameters as a closed JSON Schema object (what the individual surface lists); a role's level
 * takes its word too (roles.ts).
 */
export function inputSchema(a: ActionSpec): JsonSchema {
  let s = cache.get(a);
  if (!s) {
    const properties: Record<string, JsonSchema> = {};
    for (const [name, p] of Object.entries(paramsOf(a))) properties[name] = withRoleWords(name, published(p));
    s = { type: 'object', properties, additionalProperties: false };
    if (a.required?.length) s.required = [...a.required];
    cache.set(a, s);
  }
  return s;
}

// Built on the first validation, not at start-up: constructing it compiles the draft 2020-12 meta-schemas,
// which a server that has not been called yet does not need.
let ajv: Ajv2020 | undefined;
const validators = new WeakMap<object, ValidateFunction>();

export function validatorFor(schema: JsonSchema): ValidateFunction {
  let v = validators.get(schema);
  if (!v) {
    ajv ??= addFormats(
      new Ajv2020({ allErrors: true, strict: false, coerceTypes: true, useDefaults: false }),
    );
    v = finiteOnly(uncoerced(schema, ajv.compile(schema)));
    validators.set(schema, v);
  }
  return v;
}

/** Whether a schema takes a value of JSON type `kind` (a schema naming no type takes any). */
function takes(schema: unknown, kind: 'boolean' | 'null'): boolean {
  if (!schema || typeof schema !== 'object') return true;
  const s = schema as JsonSchema;
  const alternatives = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (alternatives) return alternatives.some((x) => takes(x, kind));
  return s.type === undefined || s.type === kind || (Array.isArray(s.type) && s.type.includes(kind));
}

/** The types a schema names, as an error says them ('integer or string'). */
function typesOf(schema: JsonSchema): string {
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  const types = alternatives
    ? alternatives.flatMap((x) => (Array.isArray(x.type) ? x.type : x.type ? [x.type] : []))
    : Array.isArray(schema.type)
      ? schema.type
      : [schema.type];
  return [...new Set(types.map(String))].join(' or ');
}

/**
 * The mark the instance writes before an issue's and a merge request's IID in its references (#12, !4): an IID
 * given as its reference is read as the number.
 */
const REFERENCE_MARK: Readonly<Record<string, string>> = { issue_iid: '#', merge_request_iid: '!' };

/** `value` of the parameter `key` without the reference mark of its kind ('!4' of a merge_request_iid is '4'). */
export function withoutReferenceMark(key: string, value: string): string {
  return REFERENCE_MARK[key] === value[0] && /^.\d+$/.test(value) ? value.slice(1) : value;
}

/**
 * A project or group path given URL-encoded ("acme%2Fwidgets", as the instance's own docs write it) is read as
 * the path it encodes: such a path never holds "%", and the path is encoded for the request anyway, so the
 * encoded form would otherwise be encoded twice and answered 404. A value that does not decode is left as is.
 */
function unencodedPath(value: string): string {
  try {
    const decoded = decodeURIComponent(value);
    return decoded.includes('%') ? value : decoded;
  } catch {
    return value;
  }
}

/**
 * ajv's type coercion turns numbers sent as strings into numbers (as the spec asks), but also true into 1 or
 * "true" and null into 0 or "": an ID given as true would name object 1, and a field given as null would be
 * sent empty (an update clearing labels or milestone). So, before ajv: a parameter given as null where its
 * schema takes no null is left out (null reads as not given, as the required checks read it), and a true,
 * false or null anywhere else a schema takes none of them is refused as a value of the wrong type.
 */
function uncoerced(schema: JsonSchema, validate: ValidateFunction): ValidateFunction {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const guarded = ((data: unknown) => {
    if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
      const obj = data as Record<string, unknown>;
      for (const key in obj) {
        const v = obj[key];
        if (v === null) {
          if (!takes(props[key], 'null')) delete obj[key];
        } else if (typeof v === 'string') {
          if (v.includes('%') && !isProjectUrl(v) && (key === 'project_id' || key === 'group_id'))
            obj[key] = unencodedPath(v);
          else if (withoutReferenceMark(key, v) !== v) obj[key] = v.slice(1);
        }
      }
    }
    // A role's word given for its level is sent as the level ('developer' as 30).
    wordsToLevels(schema, data);
    const errors = findUncoercible(schema, data, []) ?? findInexact(schema, data, []);
    // Refused before ajv runs: its coercion would rewrite the values these errors name.
    if (errors) {
      guarded.errors = errors;
      return false;
    }
    const valid = validate(data);
    guarded.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return guarded;
}

/**
 * Also a number where only strings of a pattern are taken, which its digits do not match (a label's 2 where
 * "gid://gitlab/ProjectLabel/2" is taken): coercion would make it a string, and the error would say a string was
 * given. `at`: the keys leading to `value`, made into an error's JSON pointer only when there is an error. Strings
 * (most values) are passed over without a call.
 */
function findUncoercible(
  schema: unknown,
  value: unknown,
  at: string[],
  out?: ErrorObject[],
): ErrorObject[] | undefined {
  if (!schema || typeof schema !== 'object') return out;
  const s = schema as JsonSchema;
  if (value === null || typeof value === 'boolean') {
    if (!takes(s, value === null ? 'null' : 'boolean'))
      (out ??= []).push({
        keyword: 'type',
        instancePath: pointer(at),
        schemaPath: '#',
        params: { type: typesOf(s) },
        message: `must be ${typesOf(s)}`,
      });
    return out;
  }
  if (typeof value === 'number') {
    const pattern = unmatchedPattern(s, value);
    if (pattern)
      (out ??= []).push({
        keyword: 'pattern',
        instancePath: pointer(at),
        schemaPath: '#',
        params: { pattern },
        message: `must match pattern "${pattern}"`,
      });
    return out;
  }
  if (typeof value !== 'object') return out;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'string') continue;
      at.push(String(i));
      out = findUncoercible(s.items, item, at, out);
      at.pop();
    }
    return out;
  }
  const props = s.properties as Record<string, unknown> | undefined;
  if (!props) return out;
  const obj = value as Record<string, unknown>;
  for (const key in obj) {
    const item = obj[key];
    if (typeof item === 'string') continue;
    if (!Object.hasOwn(props, key) || !Object.hasOwn(obj, key)) continue;
    at.push(key);
    out = findUncoercible(props[key], item, at, out);
    at.pop();
  }
  return out;
}

/** A JSON pointer of the keys `at`. */
const pointer = (at: readonly string[]) =>
  at.map((k) => `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** Each pattern compiled once (as ajv compiles it: Unicode). */
const compiled = new Map<string, RegExp>();

/** The pattern of `s` when it takes strings of it and no number such as `n`, and `n`'s digits do not match it. */
function unmatchedPattern(s: JsonSchema, n: number): string | undefined {
  const pattern = s.pattern;
  if (typeof pattern !== 'string' || !names(s, 'string') || names(s, 'number')) return undefined;
  if (Number.isInteger(n) && names(s, 'integer')) return undefined;
  let re = compiled.get(pattern);
  if (!re) compiled.set(pattern, (re = new RegExp(pattern, 'u')));
  return re.test(String(n)) ? undefined : pattern;
}

/** Whether a schema names JSON type `kind` itself or in one of its alternatives (a schema naming none does not). */
function names(schema: unknown, kind: 'integer' | 'number' | 'string'): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const s = schema as JsonSchema;
  const alternatives = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (alternatives) return alternatives.some((x) => names(x, kind));
  return s.type === kind || (Array.isArray(s.type) && s.type.includes(kind));
}

const DIGITS = /^[-+]?\d+$/;
/**
 * A number written with an exponent ("1e308"), which ajv's coercion reads as the number it names. Its digits
 * before and after a dot cannot trade places (`\d+\.?\d*` could), so a long string of digits that is no number
 * fails in time linear in its length, not quadratic.
 */
const EXPONENT = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)e[-+]?\d+$/i;
// Infinity is not one of them: it is refused as not finite, after ajv.
const beyondExact = (n: number) => Number.isFinite(n) && Math.abs(n) > Number.MAX_SAFE_INTEGER;

/**
 * An integer beyond ±2^53-1 has lost digits before we see it (JSON parsing rounds it to the nearest double), and a
 * string of digits that large would lose them in ajv's coercion to an integer: either would be sent as another
 * number than the one meant, and answered by the instance's 404. Refused before ajv runs, saying to send a string
 * of digits where the parameter takes one (a string is then sent exactly as given). Numbers and strings of other
 * sizes pass with one comparison each.
 */
function findInexact(
  schema: unknown,
  value: unknown,
  at: string[],
  out?: ErrorObject[],
): ErrorObject[] | undefined {
  if (!schema || typeof schema !== 'object' || value === null) return out;
  const s = schema as JsonSchema;
  if (typeof value === 'number' || typeof value === 'string') {
    const isNumber = typeof value === 'number';
    if (
      isNumber
        ? !beyondExact(value)
        : !((value.length >= 16 && DIGITS.test(value)) || EXPONENT.test(value)) || !beyondExact(Number(value))
    )
      return out;
    const integer = names(s, 'integer');
    const takesText = names(s, 'string');
    // A number where an integer or a string (an ID or path) is taken; a string of digits only where no string is
    // taken (coercion would make it a rounded integer).
    if (isNumber ? !integer && !takesText : takesText || !integer) return out;
    const where = pointer(at);
    const got =
      typeof value === 'number'
        ? `got ${String(value)}`
        : DIGITS.test(value)
          ? `got a string of ${value.replace(/^[-+]/, '').length} digits`
          : 'got a string in exponent notation';
    (out ??= []).push({
      keyword: 'inexact',
      instancePath: where,
      schemaPath: '#',
      params: {},
      message: `cannot be represented exactly (${got}): an integer beyond ±${Number.MAX_SAFE_INTEGER} loses its last digits as a number${
        takesText
          ? '; send it as a string of digits, in quotes, which is sent exactly as given'
          : ', so nothing was sent; check the value'
      }`,
    });
    return out;
  }
  if (typeof value !== 'object') return out;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      at.push(String(i));
      out = findInexact(s.items, value[i], at, out);
      at.pop();
    }
    return out;
  }
  const props = s.properties as Record<string, unknown> | undefined;
  if (!props) return out;
  const obj = value as Record<string, unknown>;
  for (const key in obj) {
    if (!Object.hasOwn(props, key) || !Object.hasOwn(obj, key)) continue;
    at.push(key);
    out = findInexact(props[key], obj[key], at, out);
    at.pop();
  }
  return out;
}

/**
 * JSON has no Infinity, but a parser reads 1e309 as one, and ajv's number and integer types accept it (and a
 * string coerced to a number may become one): a validator that refuses every non-finite number, wherever it
 * sits, after ajv has coerced, so nothing of the kind is ever sent to the instance.
 */
function finiteOnly(validate: ValidateFunction): ValidateFunction {
  const guarded = ((data: unknown) => {
    if (!validate(data)) {
      guarded.errors = validate.errors;
      return false;
    }
    if (allFinite(data)) {
      guarded.errors = null;
      return true;
    }
    const errors: ErrorObject[] = [];
    findNonFinite(data, '', errors);
    guarded.errors = errors.length ? errors : null;
    return errors.length === 0;
  }) as ValidateFunction;
  return guarded;
}

/** No non-finite number anywhere in `value` (the common case, told without building any error path). */
function allFinite(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) return value.every(allFinite);
  for (const key in value)
    if (Object.hasOwn(value, key) && !allFinite((value as Record<string, unknown>)[key])) return false;
  return true;
}

function findNonFinite(value: unknown, path: string, out: ErrorObject[]): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      out.push({
        keyword: 'finite',
        instancePath: path,
        schemaPath: '#',
        params: {},
        message: 'must be a finite number (a value such as 1e309 is out of range)',
      });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => findNonFinite(item, `${path}/${i}`, out));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value))
      findNonFinite(item, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
  }
}

/** What a format asks for, with an example a model can copy (ajv names only the format). */
const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  date: 'a date such as 2026-03-31',
  'date-time': 'a date and time in ISO 8601 such as 2026-03-31T14:00:00Z',
};

/** The value at an ajv instance path (a JSON pointer) of `data`. */
function valueAt(data: unknown, pointer: string): unknown {
  let v = data;
  for (const key of pointer.split('/').slice(1)) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return v;
}

/**
 * What was given instead of the expected type: numbers and booleans as themselves, anything else by its kind
 * only (a string may hold a secret). A string holding the JSON of the expected type says to send the value.
 */
function given(value: unknown, expected: string): string {
  if (typeof value === 'number' || typeof value === 'boolean') return `got ${String(value)}`;
  if (value === null) return 'got null';
  if (Array.isArray(value)) return 'got an array';
  if (typeof value === 'object') return 'got an object';
  if (typeof value === 'string' && (expected === 'object' || expected === 'array')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return 'got a string';
    }
    const kind = Array.isArray(parsed) ? 'array' : parsed === null ? 'null' : typeof parsed;
    if (kind === expected) return `got a string holding JSON: send the ${expected} itself, not as a string`;
  }
  return `got a ${typeof value}`;
}

/** What a parameter is, for saying how to give it: its description and the names beside it. */
interface About {
  description: string;
  /** The properties of the object holding the parameter (an action's parameters, or an item's fields). */
  siblings?: readonly string[];
}

/**
 * '<where> must be <what> (got ...; <how to give it>)': a value the parameter does not take. `expected`: the JSON
 * type it was checked against; `pattern`: the pattern it did not match, said in words (PATTERN_MEANINGS).
 */
export function typeProblem(
  where: string,
  expected: string,
  value: unknown,
  about?: About,
  pattern?: string,
): string {
  const got = given(value, expected);
  const fix = got.includes('JSON')
    ? undefined
    : ((pattern === undefined ? undefined : bareNumberFix(pattern, value)) ??
      (about && shapeFix(where, expected, value, about)));
  const what = pattern === undefined ? expected : PATTERN_MEANINGS[pattern];
  return `${where} must be ${what} (${got}${fix ? `; ${fix}` : ''})`;
}

/** A parameter holding users' IDs, by its name (user_id, author_id, assignee_ids.0, merge_user_id, ...). */
const USER_ID_NAME =
  /(?:^|[_.])(?:user|author|assignee|reviewer|approver|closed_by|approved_by)_ids?(?:\.\d+)?$/;

/**
 * How to give a user where a numeric ID is taken and a string was given: in the parameter beside it that takes
 * usernames when there is one, else by finding the ID first.
 */
function userFix(where: string, value: unknown, about: About): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (!USER_ID_NAME.test(where) && !/\buser ids?\b/i.test(about.description)) return undefined;
  return about.siblings?.includes('username')
    ? 'a user is given here by numeric ID; a username goes in username instead'
    : 'a user is given by numeric ID: user.list with username finds it';
}

/**
 * How to give a value of the wrong shape, from what the parameter's description says it holds: a lone value
 * where a list is taken, a list where one comma-separated string is, a user's name where the user's ID is.
 */
function shapeFix(where: string, expected: string, value: unknown, about: About): string | undefined {
  if (expected === 'array' && value !== null && typeof value !== 'object')
    return 'a single value goes in a list too, e.g. [value]';
  if (expected === 'string' && Array.isArray(value) && /comma-separated/i.test(about.description))
    return 'give the values as one comma-separated string, e.g. "a,b"';
  // A string where a numeric ID is taken: as the wrong type, or as a string its pattern does not take.
  if (expected === 'integer' || expected === 'string') return userFix(where, value, about);
  return undefined;
}

/** The action a parameter's description says its value comes from ('... from job.list'), if it names one. */
export function sourceAction(description: unknown): string | undefined {
  return typeof description === 'string' ? /\bfrom ([a-z_]+\.[a-z_]+)\b/.exec(description)?.[1] : undefined;
}

/**
 * The node an error's schema path (all but its keyword) leads to in `schema`, each node on the way handed to
 * `visit`; undefined where the path leaves the schema.
 */
function alongSchemaPath(
  schema: JsonSchema | undefined,
  schemaPath: string,
  visit?: (node: unknown, key: string) => void,
): unknown {
  let node: unknown = schema;
  for (const key of schemaPath.replace(/^#\/?/, '').split('/').slice(0, -1)) {
    if (node === null || typeof node !== 'object') return undefined;
    const name = key.replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as Record<string, unknown>)[name];
    visit?.(node, name);
  }
  return node;
}

/**
 * ' (from mr_review.diff_versions_list)' when a missing property's description names the action its value comes
 * from, so the next call can fetch it first.
 */
function sourceOf(schema: JsonSchema | undefined, schemaPath: string, property: string): string {
  const node = alongSchemaPath(schema, schemaPath);
  const props = (node as { properties?: Record<string, { description?: unknown }> } | undefined)?.properties;
  const from = sourceAction(props?.[property]?.description);
  return from ? ` (from ${from})` : '';
}

/**
 * The parameter an error's schema path points into: its description (the nearest one on the way down) and the
 * properties of the object holding it.
 */
function aboutOf(schema: JsonSchema | undefined, schemaPath: string): About | undefined {
  let about: About | undefined;
  let siblings: readonly string[] | undefined;
  alongSchemaPath(schema, schemaPath, (node, key) => {
    if (key === 'properties' && node !== null && typeof node === 'object') siblings = Object.keys(node);
    else if (typeof (node as { description?: unknown } | undefined)?.description === 'string')
      about = { description: (node as { description: string }).description, siblings };
  });
  return about ?? (siblings ? { description: '', siblings } : undefined);
}

/** ' (did you mean opened?)' when a string given for a fixed set is near one of its values. */
function meantOf(allowed: readonly unknown[], value: unknown): string {
  const meant = typeof value === 'string' ? nearest(value, allowed.map(String)) : undefined;
  return meant ? ` (did you mean ${meant}?)` : '';
}

/**
 * The errors of each anyOf's alternatives at the anyOf's own place (what each alternative wanted of the
 * value), to be told as one problem: ajv reports each alternative apart, then the anyOf.
 */
function alternatives(errors: readonly ErrorObject[]): {
  branches: Map<ErrorObject, ErrorObject[][]>;
  consumed: Set<ErrorObject>;
} {
  const branches = new Map<ErrorObject, ErrorObject[][]>();
  const consumed = new Set<ErrorObject>();
  for (const e of errors) {
    if (e.keyword !== 'anyOf') continue;
    const prefix = `${e.schemaPath}/`;
    const byBranch = new Map<string, ErrorObject[]>();
    for (const x of errors)
      if (x.instancePath === e.instancePath && x.schemaPath.startsWith(prefix)) {
        const i = x.schemaPath.slice(prefix.length).split('/')[0];
        byBranch.set(i, [...(byBranch.get(i) ?? []), x]);
        consumed.add(x);
      }
    if (byBranch.size) branches.set(e, [...byBranch.values()]);
  }
  return { branches, consumed };
}

/** 'weight must be integer, or one of: None, Any (got a string)': an anyOf's alternatives as one problem. */
function anyOfProblem(where: string, branches: ErrorObject[][], value: unknown, known: boolean): string {
  const allowed: unknown[] = [];
  const wanted = branches.map((errs) =>
    errs
      .map((x) => {
        if (x.keyword === 'type') return String(x.params.type);
        if (x.keyword === 'enum') {
          allowed.push(...(x.params.allowedValues as unknown[]));
          return `one of: ${(x.params.allowedValues as unknown[]).join(', ')}`;
        }
        return (x.message ?? 'valid').replace(/^must be /, '');
      })
      .join(' and '),
  );
  const meant = meantOf(allowed, value);
  const typed = branches.some((errs) => errs.some((x) => x.keyword === 'type'));
  const got = !meant && typed && known ? ` (${given(value, '')})` : '';
  return `${where} must be ${wanted.join(', or ')}${meant}${got}`;
}

/**
 * Renders ajv errors the way a model can act on: where, what, the accepted values (and the one probably
 * meant), and what was given instead of the expected type. `data`: the validated value, for the types given.
 */
export function describeErrors(
  errors: ErrorObject[] | null | undefined,
  data?: unknown,
  /** The schema validated against, whose descriptions say how to give a value of the wrong shape. */
  schema?: JsonSchema,
): string {
  const seen = new Set<string>();
  const out: string[] = [];
  const branchesOf = alternatives(errors ?? []);
  // A value of the wrong type for a fixed set (access_level 'developer') is one problem: the set, and what was given.
  const fixedSets = new Set(
    (errors ?? [])
      .filter((e) => e.keyword === 'enum' && !branchesOf.consumed.has(e))
      .map((e) => e.instancePath),
  );
  for (const e of errors ?? []) {
    if (branchesOf.consumed.has(e)) continue;
    if (e.keyword === 'type' && fixedSets.has(e.instancePath)) continue;
    const where = e.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'arguments';
    let text: string;
    if (e.keyword === 'enum') {
      const allowed = e.params.allowedValues as unknown[];
      const value = valueAt(data, e.instancePath);
      const meant = meantOf(allowed, value);
      const typed = !meant && data !== undefined && allowed.every((x) => typeof x !== typeof value);
      text = `${where} must be one of: ${allowed.join(', ')}${meant}${typed ? ` (${given(value, '')})` : ''}`;
    } else if (e.keyword === 'anyOf' && branchesOf.branches.has(e))
      text = anyOfProblem(
        where,
        branchesOf.branches.get(e)!,
        valueAt(data, e.instancePath),
        data !== undefined,
      );
    else if (e.keyword === 'additionalProperties')
      text = `${where === 'arguments' ? '' : where + ': '}unknown property "${clip(e.params.additionalProperty as string)}"`;
    else if (e.keyword === 'required')
      text = `${where === 'arguments' ? '' : where + ': '}missing property "${e.params.missingProperty as string}"${sourceOf(schema, e.schemaPath, e.params.missingProperty as string)}`;
    else if (e.keyword === 'type' && data !== undefined)
      text = typeProblem(
        where,
        String(e.params.type),
        valueAt(data, e.instancePath),
        aboutOf(schema, e.schemaPath),
      );
    else if (e.keyword === 'pattern' && Object.hasOwn(PATTERN_MEANINGS, e.params.pattern as string))
      text = typeProblem(
        where,
        'string',
        valueAt(data, e.instancePath),
        aboutOf(schema, e.schemaPath),
        e.params.pattern as string,
      );
    else if (e.keyword === 'format' && FORMAT_EXAMPLES[e.params.format as string])
      text = `${where} ${e.message ?? 'is invalid'}, ${FORMAT_EXAMPLES[e.params.format as string]}`;
    else if (e.keyword === 'minLength' && e.params.limit === 1) text = `${where} must not be empty`;
    else text = `${where} ${e.message ?? 'is invalid'}`;
    if (!seen.has(text)) {
      seen.add(text);
      out.push(text);
    }
  }
  const more = out.length - LISTED_AT_MOST;
  return more > 0 ? `${out.slice(0, LISTED_AT_MOST).join('; ')}; and ${more} more` : out.join('; ');
}
