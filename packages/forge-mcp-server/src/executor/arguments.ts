/**
 * Argument checks made before anything is sent (spec: Argument errors), in the spec's order:
 * input schema, surface check, action decoding, then required values that are empty or zero.
 */
import type { ActionSpec, ValueNeed } from '../catalog/types.js';
import { describeErrors, inputSchema, paramsOf, sourceAction, validatorFor } from './schema.js';
import { clip, didYouMean, listNames, nearest } from './suggest.js';

/** Documented aliases translated on open schemas (dynamic and meta surfaces): [alias, target]. */
const ALIASES: readonly (readonly [string, string])[] = [
  ['mr_iid', 'merge_request_iid'],
  ['commit_id', 'commit_sha'],
];

export function translateAliases(a: ActionSpec, params: Record<string, unknown>): Record<string, unknown> {
  const known = paramsOf(a);
  let out = params;
  for (const [alias, target] of ALIASES) {
    if (alias in params && !(alias in known) && target in known && !(target in params)) {
      if (out === params) out = { ...params };
      out[target] = out[alias];
      delete out[alias];
    }
  }
  return out;
}

/** Whether a parameter is given: present and not null. */
const given = (params: Record<string, unknown>, name: string): boolean => params[name] != null;

function missingRequired(a: ActionSpec, params: Record<string, unknown>): string[] {
  return (a.required ?? []).filter((r) => !given(params, r));
}

export function missingOneOf(a: ActionSpec, params: Record<string, unknown>): string[][] {
  return (a.oneOf ?? []).filter((group) => !group.some((p) => given(params, p)));
}

/**
 * Required parameters as a missing-parameters text names them: each with the action its value comes from when its
 * description says so ('job_id (from job.list)'), so the next call can fetch it first.
 */
function withSources(a: ActionSpec, names: readonly string[]): string {
  const known = paramsOf(a) as Record<string, { description?: unknown }>;
  return names
    .map((n) => {
      const from = sourceAction(known[n]?.description);
      return from ? `${n} (from ${from})` : n;
    })
    .join(', ');
}

/** 'Valid params: a, b.', the names an action takes (dynamic and meta surfaces). */
const validParams = (names: readonly string[]) => `Valid params: ${names.join(', ') || '(none)'}.`;

/** How the dynamic surface's check begins. */
export const INVALID_PARAMS = 'invalid params.';

/** The dynamic surface's check: one 'invalid params.' text naming everything wrong at once. */
export function dynamicSurfaceCheck(a: ActionSpec, params: Record<string, unknown>): string | undefined {
  const known = paramsOf(a);
  if (allKnownAndGiven(a, known, params)) return undefined;
  const unknown = Object.keys(params).filter((k) => !Object.hasOwn(known, k));
  const missing = missingRequired(a, params);
  const oneOf = missingOneOf(a, params);
  if (!unknown.length && !missing.length && !oneOf.length) return undefined;
  const valid = Object.keys(known);
  const parts = [INVALID_PARAMS];
  if (unknown.length) {
    parts.push(`Unknown params: ${listNames(unknown)}.`);
    const guess = didYouMean(unknown, valid);
    if (guess) parts.push(guess);
  }
  if (missing.length) parts.push(`Missing required params: ${withSources(a, missing)}.`);
  for (const g of oneOf) parts.push(`Missing one of: ${g.join(', ')}.`);
  parts.push(validParams(valid));
  return parts.join(' ');
}

/** Whether every parameter is known, every required one given and each one-of group met (no text built). */
function allKnownAndGiven(
  a: ActionSpec,
  known: Record<string, unknown>,
  params: Record<string, unknown>,
): boolean {
  for (const k in params) if (Object.hasOwn(params, k) && !Object.hasOwn(known, k)) return false;
  if (a.required) for (const r of a.required) if (!given(params, r)) return false;
  if (a.oneOf) for (const group of a.oneOf) if (!group.some((p) => given(params, p))) return false;
  return true;
}

/** The meta surface's check of required parameters. */
export function metaSurfaceCheck(
  a: ActionSpec,
  params: Record<string, unknown> | undefined,
): string | undefined {
  const needs = (a.required?.length ?? 0) > 0 || (a.oneOf?.length ?? 0) > 0;
  if (params === undefined) {
    if (!needs) return undefined;
    // The meta tool's schema does not show the action's parameters: the answer names them.
    const parts = ["'params' is required for this action."];
    if (a.required?.length) parts.push(`Required params: ${a.required.join(', ')}.`);
    for (const g of a.oneOf ?? []) parts.push(`One of: ${g.join(', ')}.`);
    parts.push(validParams(Object.keys(paramsOf(a))));
    return parts.join(' ');
  }
  const missing = missingRequired(a, params);
  const oneOf = missingOneOf(a, params);
  if (!missing.length && !oneOf.length) return undefined;
  const text = missing.length
    ? `missing required params: ${withSources(a, missing)}`
    : `missing required params: one of ${oneOf[0].join(', ')}`;
  // A required parameter given under a near name (project for project_id) is named as the one meant.
  const known = paramsOf(a);
  const unknown = Object.keys(params).filter((k) => !Object.hasOwn(known, k));
  const needed = [...missing, ...oneOf.flat()];
  const guess = didYouMean(unknown, needed);
  const out = guess ? `${text}. ${guess}` : text;
  // A key no missing parameter explains (note for body): the parameters the action takes are named, as on the
  // dynamic surface, so the next call can be right (the domain tool's schema does not show them).
  const unexplained = unknown.filter((k) => !nearest(k, needed));
  if (!unexplained.length) return out;
  return `${out}${guess ? ' ' : '. '}Unknown params: ${unexplained.map(clip).join(', ')}. ${validParams(Object.keys(known))}`;
}

/** Strict decoding: an unknown key is refused, then types and fixed sets are checked. */
export function decode(a: ActionSpec, params: Record<string, unknown>): string | undefined {
  const valid = paramsOf(a);
  const unknown = Object.keys(params).find((k) => !Object.hasOwn(valid, k));
  if (unknown) {
    // The meta tool's schema does not show the action's parameters: the answer names the ones it takes.
    const names = Object.keys(valid);
    const guess = didYouMean([unknown], names);
    return `invalid params for this action: json: unknown field "${clip(unknown)}".${guess ? ` ${guess}` : ''} ${validParams(names)}`;
  }
  return checkTypes(a, params);
}

/** Types and fixed sets of the action's parameters (unknown keys already answered by the caller). */
export function checkTypes(a: ActionSpec, params: Record<string, unknown>): string | undefined {
  const schema = inputSchema(a);
  const v = validatorFor(schema);
  return v(params)
    ? undefined
    : `invalid params for this action: ${describeErrors(v.errors, params, schema)}`;
}

/** '<operation>: <param> is required (must be > 0 | non-empty). ...' for required values given empty. */
export function emptyRequired(a: ActionSpec, params: Record<string, unknown>): string | undefined {
  const blank = (r: string): string | undefined => {
    const v = params[r];
    if (v === 0) return 'must be > 0';
    if (typeof v === 'string' && !v.trim()) return 'must be non-empty';
    if (Array.isArray(v) && v.length === 0 && paramsOf(a)[r]?.type === 'array') return 'must be non-empty';
    return undefined;
  };
  const text = (r: string, must: string) =>
    `${a.id}: ${r} is required (${must}). Ensure you use the exact parameter name from the action's schema and pass a real value.`;
  for (const r of a.required ?? []) {
    const must = blank(r);
    if (must) return text(r, must);
  }
  // One of a group is required: when none has a real value, the one given empty (a blank path ID would
  // otherwise be sent, or read as not given at all).
  for (const group of a.oneOf ?? []) {
    if (group.some((p) => given(params, p) && !blank(p))) continue;
    const r = group.find((p) => given(params, p));
    if (r) return text(r, blank(r)!);
  }
  return undefined;
}

/**
 * The refusal of a call naming two or more parameters of one of the action's exclusive groups (the instance
 * takes only one of them), if it does.
 */
export function exclusiveProblem(a: ActionSpec, params: Record<string, unknown>): string | undefined {
  if (!a.exclusive) return undefined;
  for (const group of a.exclusive) {
    const named = group.filter((p) => given(params, p));
    if (named.length > 1)
      return `${a.id}: ${named.join(' and ')} were ${named.length > 2 ? 'all' : 'both'} given, and the instance takes only one of them: give one of them and leave the ${named.length > 2 ? 'others' : 'other'} out.`;
  }
  return undefined;
}

/**
 * The refusal of a call giving a parameter without the ones the instance needs beside it (the action's
 * `needs`), if it does.
 */
export function missingCompanions(a: ActionSpec, params: Record<string, unknown>): string | undefined {
  if (!a.needs) return undefined;
  for (const [name, companions] of Object.entries(a.needs)) {
    if (!given(params, name)) continue;
    const missing = companions.filter((c) => !given(params, c));
    if (missing.length)
      return `${a.id}: ${name} was given without ${missing.join(' and ')}, and the instance reads ${name} only together with ${companions.join(' and ')}: give ${missing.join(' and ')} too, or leave ${name} out.`;
  }
  return undefined;
}

/** 'order_by "updated_at"', 'recursive true', 'scope "blobs" or "commits"': a parameter with the values it needs. */
const withValues = (param: string, values: readonly unknown[]) =>
  `${param} ${values
    .map((v) => JSON.stringify(v))
    .join(values.length > 2 ? ', ' : ' or ')
    .replace(/, ([^,]*)$/, ' or $1')}`;

/**
 * The refusal of a call giving a parameter while another it depends on is left out or has a value the instance
 * does not read it with (the action's `needsValue`), if it does.
 */
export function unmetValues(a: ActionSpec, params: Record<string, unknown>): string | undefined {
  if (!a.needsValue) return undefined;
  for (const [name, rules] of Object.entries(a.needsValue)) {
    if (!given(params, name)) continue;
    for (const [other, values] of Object.entries(rules)) {
      const value = params[other];
      if (given(params, other) && values.includes(value as string | number | boolean)) continue;
      const needed = withValues(other, values);
      const was = given(params, other) ? `with ${withValues(other, [value])}` : `without ${other}`;
      return `${a.id}: ${name} was given ${was}, and the instance reads ${name} only with ${needed}: give ${needed}${given(params, other) ? '' : ' too'}, or leave ${name} out.`;
    }
  }
  return undefined;
}

/** Whether the call meets a value's need (every parameter named, given with one of its values where listed). */
const meets = (need: ValueNeed, params: Record<string, unknown>) =>
  Object.entries(need).every(
    ([other, values]) =>
      given(params, other) &&
      (values === true || values.includes(params[other] as string | number | boolean)),
  );

/** 'group_id', 'recursive true', 'finished_after or finished_before': what a value needs, in words. */
const needWords = (needs: readonly ValueNeed[]) =>
  needs
    .map((need) =>
      Object.entries(need)
        .map(([other, values]) => (values === true ? other : withValues(other, values)))
        .join(' and '),
    )
    .join(' or ');

/**
 * The refusal of a call giving a parameter a value the instance takes only beside another parameter, or beside
 * one of another's values (the action's `valueRequires`), if it does.
 */
export function unmetRequirements(a: ActionSpec, params: Record<string, unknown>): string | undefined {
  if (!a.valueRequires) return undefined;
  for (const [name, byValue] of Object.entries(a.valueRequires)) {
    if (!given(params, name) || !Object.hasOwn(byValue, String(params[name]))) continue;
    const rule = byValue[String(params[name])]!;
    const needs: readonly ValueNeed[] = Array.isArray(rule) ? rule : [rule as ValueNeed];
    if (needs.some((need) => meets(need, params))) continue;
    const chosen = withValues(name, [params[name]]);
    const needed = needWords(needs);
    // One parameter given with another value is named with it; otherwise what is missing.
    const [other, ...rest] = needs.length === 1 ? Object.keys(needs[0]!) : [];
    const wrong = other !== undefined && !rest.length && given(params, other);
    const missing = needs.map((need) => Object.keys(need).join(' and ')).join(' or ');
    const was = wrong ? `with ${withValues(other, [params[other]])}` : `without ${missing}`;
    return `${a.id}: ${chosen} was given ${was}, and the instance takes ${chosen} only with ${needed}: give ${needed}${wrong ? '' : ' too'}, or another ${name}.`;
  }
  return undefined;
}
