/** One numeric ID or several separated by commas ("3", "3,4", "3, 4"). */
export const NUMERIC_IDS = '^[0-9]+( *, *[0-9]+)*$';

/**
 * The global IDs a work item parameter takes: the instance's type names (one or a choice), what one is in words,
 * and whether a bare number is taken too (the handler sends it as the global ID of the first type).
 */
const GLOBAL_IDS = {
  user: { types: ['User'], what: 'a user', bare: true },
  label: { types: ['ProjectLabel', 'GroupLabel'], what: 'a label', bare: false },
  milestone: { types: ['Milestone'], what: 'a milestone', bare: true },
  workItem: { types: ['WorkItem'], what: 'a work item (its ID, not its IID)', bare: true },
  contact: { types: ['CustomerRelations::Contact'], what: 'a CRM contact', bare: true },
  workItemType: { types: ['WorkItems::Type'], what: 'a work item type', bare: true },
  iteration: { types: ['Iteration'], what: 'an iteration', bare: true },
} as const;

export type GlobalIdKind = keyof typeof GLOBAL_IDS;

/** Whether a parameter taking `kind`'s global ID takes a bare number too. */
export const takesBareNumber = (kind: GlobalIdKind): boolean => GLOBAL_IDS[kind].bare;

function globalIdPattern(kind: GlobalIdKind): string {
  const { types, bare } = GLOBAL_IDS[kind];
  const type = types.length > 1 ? `(${types.join('|')})` : types[0];
  return bare ? `^(gid://gitlab/${type}/)?\\d+$` : `^gid://gitlab/${type}/\\d+$`;
}

function globalIdMeaning(kind: GlobalIdKind): string {
  const { types, what, bare } = GLOBAL_IDS[kind];
  const examples = types.map((t) => `"gid://gitlab/${t}/1"`).join(' or ');
  return `the global ID of ${what}, e.g. ${examples}${bare ? ', or just its number, e.g. "1"' : ''}`;
}

/** The pattern of each kind of global ID (`GLOBAL_ID.user` takes "gid://gitlab/User/2" or "2"). */
export const GLOBAL_ID = Object.fromEntries(
  Object.keys(GLOBAL_IDS).map((k) => [k, globalIdPattern(k as GlobalIdKind)]),
) as Record<GlobalIdKind, string>;

/**
 * The type and pattern of a parameter (or list item) taking a global ID of `kind`. Where a bare number is taken,
 * it is taken as a JSON integer too (2 as well as "2": a model copies an ID from a REST answer as a number);
 * `orNull`: null is taken too (it clears the field).
 */
export function globalIdParam(
  kind: GlobalIdKind,
  orNull = false,
): { type: string | string[]; pattern: string; minimum?: number } {
  const types = GLOBAL_IDS[kind].bare ? ['integer', 'string'] : ['string'];
  if (orNull) types.push('null');
  return {
    type: types.length > 1 ? types : types[0]!,
    pattern: GLOBAL_ID[kind],
    ...(GLOBAL_IDS[kind].bare ? { minimum: 1 } : {}),
  };
}

const NO_BARE = new Map(
  Object.keys(GLOBAL_IDS)
    .filter((k) => !GLOBAL_IDS[k as GlobalIdKind].bare)
    .map((k) => [globalIdPattern(k as GlobalIdKind), GLOBAL_IDS[k as GlobalIdKind].types]),
);

/**
 * How to give a bare number (2 or "2") where `pattern` takes only whole global IDs (a label's number alone does
 * not say whether it is a project's or a group's): the global IDs the number may be written as.
 */
export function bareNumberFix(pattern: string, value: unknown): string | undefined {
  const types = NO_BARE.get(pattern);
  const n = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  if (!types || !/^\d+$/.test(n)) return undefined;
  const ids = types.map((t) => `"gid://gitlab/${t}/${n}"`);
  return `a number alone is not taken here: give ${ids.join(' or ')}${ids.length > 1 ? ', whichever it is' : ''}`;
}

/** What a parameter's pattern asks for, in words a model can act on (ajv would quote the expression). */
export const PATTERN_MEANINGS: Readonly<Record<string, string>> = {
  [NUMERIC_IDS]: 'a numeric ID, or several separated by commas, e.g. 3 or "3,4"',
  ...Object.fromEntries(
    Object.keys(GLOBAL_IDS).map((k) => [
      globalIdPattern(k as GlobalIdKind),
      globalIdMeaning(k as GlobalIdKind),
    ]),
  ),
};
