/** One numeric ID or several separated by commas ("3", "3,4", "3, 4"). */
export const NUMERIC_IDS = '^[0-9]+( *, *[0-9]+)*$';

/** A kind of global ID a parameter takes. */
interface GlobalIdSpec {
  /** The instance's type names: one, or a choice (a bare number is sent as the global ID of the first). */
  readonly types: readonly string[];
  /** What one is, in words. */
  readonly what: string;
  /** Whether a bare number is taken too. */
  readonly bare: boolean;
  /** What follows the type's name (default: a number), as a pattern, and examples of it. */
  readonly tail?: { readonly pattern: string; readonly examples: readonly string[] };
}

/**
 * The global IDs the catalog's parameters take: each kind's pattern and its meaning in words are made from its
 * line here, so a pattern never lacks its words.
 */
const GLOBAL_IDS = {
  user: { types: ['User'], what: 'a user', bare: true },
  label: { types: ['ProjectLabel', 'GroupLabel'], what: 'a label', bare: false },
  milestone: { types: ['Milestone'], what: 'a milestone', bare: true },
  workItem: { types: ['WorkItem'], what: 'a work item (its ID, not its IID)', bare: true },
  contact: { types: ['CustomerRelations::Contact'], what: 'a CRM contact', bare: true },
  workItemType: { types: ['WorkItems::Type'], what: 'a work item type', bare: true },
  iteration: { types: ['Iteration'], what: 'an iteration', bare: true },
  cadence: { types: ['Iterations::Cadence'], what: 'an iteration cadence', bare: true },
  project: { types: ['Project'], what: 'a project', bare: true },
  group: { types: ['Group'], what: 'a group', bare: true },
  namespace: { types: ['Group', 'Namespace'], what: 'a group or namespace', bare: true },
  projectOrGroup: { types: ['Project', 'Group'], what: 'a project or group', bare: false },
  achievement: { types: ['Achievements::Achievement'], what: 'an achievement', bare: true },
  userAchievement: {
    types: ['Achievements::UserAchievement'],
    what: "an achievement awarded to a user (the award's ID, not the achievement's)",
    bare: true,
  },
  catalogResource: { types: ['Ci::Catalog::Resource'], what: 'a CI/CD catalog resource', bare: true },
  customEmoji: { types: ['CustomEmoji'], what: 'a custom emoji', bare: true },
  targetBranchRule: { types: ['Projects::TargetBranchRule'], what: 'a target branch rule', bare: true },
  securityAttribute: { types: ['Security::Attribute'], what: 'a security attribute', bare: true },
  securityCategory: { types: ['Security::Category'], what: 'a security category', bare: true },
  vulnerability: { types: ['Vulnerability'], what: 'a vulnerability', bare: true },
  scanner: { types: ['Vulnerabilities::Scanner'], what: 'a vulnerability scanner', bare: false },
  clusterAgent: { types: ['Clusters::Agent'], what: 'a cluster agent', bare: false },
  scanProfile: {
    types: ['Security::ScanProfile'],
    what: "a scan profile (a saved one's number, or a default's scan type)",
    bare: false,
    tail: { pattern: '[A-Za-z0-9_]+', examples: ['4', 'secret_detection'] },
  },
} satisfies Record<string, GlobalIdSpec>;

export type GlobalIdKind = keyof typeof GLOBAL_IDS;
const KINDS = Object.keys(GLOBAL_IDS) as GlobalIdKind[];
const spec = (kind: GlobalIdKind): GlobalIdSpec => GLOBAL_IDS[kind];

/** Whether a parameter taking `kind`'s global ID takes a bare number too. */
export const takesBareNumber = (kind: GlobalIdKind): boolean => spec(kind).bare;

function globalIdPattern(kind: GlobalIdKind): string {
  const { types, bare, tail } = spec(kind);
  const type = types.length > 1 ? `(${types.join('|')})` : types[0]!;
  const end = tail?.pattern ?? '\\d+';
  return bare ? `^(gid://gitlab/${type}/)?${end}$` : `^gid://gitlab/${type}/${end}$`;
}

function globalIdMeaning(kind: GlobalIdKind): string {
  const { types, what, bare, tail } = spec(kind);
  const examples = types
    .flatMap((t) => (tail?.examples ?? ['1']).map((x) => `"gid://gitlab/${t}/${x}"`))
    .join(' or ');
  return `the global ID of ${what}, e.g. ${examples}${bare ? ', or just its number, e.g. "1"' : ''}`;
}

/** The pattern of each kind of global ID (`GLOBAL_ID.user` takes "gid://gitlab/User/2" or "2"). */
const GLOBAL_ID = Object.fromEntries(KINDS.map((k) => [k, globalIdPattern(k)])) as Record<
  GlobalIdKind,
  string
>;

/**
 * The type and pattern of a parameter (or list item) taking a global ID of `kind`. Where a bare number is taken,
 * it is taken as a JSON integer too (2 as well as "2": a model copies an ID from a REST answer as a number);
 * `orNull`: null is taken too (it clears the field).
 */
export function globalIdParam(
  kind: GlobalIdKind,
  orNull = false,
): { type: string | string[]; pattern: string; minimum?: number } {
  const { bare } = spec(kind);
  const types = bare ? ['integer', 'string'] : ['string'];
  if (orNull) types.push('null');
  return {
    type: types.length > 1 ? types : types[0]!,
    pattern: GLOBAL_ID[kind],
    ...(bare ? { minimum: 1 } : {}),
  };
}

const NO_BARE = new Map(KINDS.filter((k) => !spec(k).bare).map((k) => [globalIdPattern(k), spec(k).types]));

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
  '^[0-9]+$': 'a whole number written in digits, e.g. "12"',
  '^\\d+$': 'a whole number written in digits, e.g. "12"',
  '^[1-9][0-9]*$': 'a number from 1 up written in digits, e.g. "3"',
  '^\\d{14}$': 'a migration version: the 14-digit timestamp its file name starts with, e.g. "20240101000000"',
  '^[0-9a-fA-F]{64}$':
    'a SHA-256 digest: 64 hexadecimal digits as sha256sum prints them, e.g. "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"',
  '^#[0-9A-Fa-f]{6}$': 'a color as "#" and six hexadecimal digits, e.g. "#F0AD4E"',
  '^[A-Za-z0-9_]+$': 'a variable name: letters, digits and "_" only, e.g. "DEPLOY_ENV"',
  '^[a-z0-9_+-]+$': 'an emoji name: lowercase letters, digits, "_", "+" and "-" only, e.g. "party-parrot"',
  '^(\\d+|candidate:\\d+)$':
    'the numeric ID of a model version, e.g. "12", or "candidate:" and the ID of an experiment run candidate, e.g. "candidate:5"',
  '^(gid://gitlab/|\\d+$)':
    'the global ID of a comment, e.g. "gid://gitlab/Note/123", or just its number, e.g. "123"',
  ...Object.fromEntries(KINDS.map((k) => [globalIdPattern(k), globalIdMeaning(k)])),
};
