/**
 * forge_find_action's ranking. Three signals, multiplied:
 * - what the request names: BM25 over each action's ID words, title, parameter names and description
 *   (its first sentence weighing more than the guidance after it), with everyday words mapped onto the
 *   catalog's (find-vocabulary.ts) and every word reduced to its Porter stem;
 * - how much of the action's own object (its ID's words, less the operation) the request names, so
 *   "show project" prefers project.get to snippet.project_get;
 * - the operation the request's verb asks for against the operation the action's title starts with,
 *   strong enough that the verb outweighs noun overlap (setting a variable creates or updates one,
 *   logging time adds it, publishing a release creates one). A question reads. A request without a verb up
 *   front may still say one later ("issue 4 should be closed", "pipeline 9 is stuck, kill it") or describe a
 *   change ("MR 14 should target develop", "the due date moves to Friday", "the webhook is not needed
 *   anymore", "an epic for the rework"): the change it describes is asked for; otherwise it reads, a plural
 *   object preferring a list.
 */
import { stemmer } from 'stemmer';
import type { FindDoc } from '../catalog/types.js';
import { levenshtein } from '../executor/suggest.js';
import {
  ABBREVIATIONS,
  accept,
  CATALOG_NAMES,
  CHANGED,
  CHANGE_WORDS,
  COPULAS,
  CREATE_OR_DELETE,
  DEFERRED_FILLERS,
  DEFERRING_WORDS,
  GOING_WORDS,
  GONE_WORDS,
  HOW_MANY,
  LEAD_IN,
  OPERATION_HINTS,
  PHRASAL_VERBS,
  MANY_WORDS,
  NAMING_WORDS,
  NEW_ONE,
  NEW_THING,
  NEW_WORDS,
  NO_LONGER,
  OTHER_PLATFORM_NAMES,
  NOT_NEEDED,
  OBLIGING_WORDS,
  LEAVING_WORDS,
  STATE_CHANGES,
  WRONG_WORDS,
  PRONOUNS,
  QUESTION,
  QUESTION_WORDS,
  READ_OPERATIONS,
  REQUEST_PHRASES,
  REQUEST_VERBS,
  REVERSING_VERBS,
  STOP_WORDS,
  STATE_WORDS,
  SYNONYMS,
  TARGET_PREPOSITIONS,
  THING_NAMES,
  WIDER_SCOPES,
  UPDATE_OPERATIONS,
  VERB_OBJECTS,
  WEAK_WORDS,
} from './find-vocabulary.js';
import { ASKED_AS } from './find-asked-as.js';

/** Field weights: the ID's words and the title name the action; parameters and description describe it. */
const WEIGHTS = { name: 3, title: 2.5, params: 0.6, summary: 1, guidance: 0.3, askedAs: 1 };
/** Where the everyday phrasings stand among an action's fields (fieldsOf). */
const ASKED_FIELD = 5;
/** BM25's term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.5;
/** How far the requested operation lifts an action that performs it (1 + VERB_LIFT * weight). */
const VERB_LIFT = 3;
/** An action whose object the request does not name at all keeps this share of its score. */
const COVERAGE_FLOOR = 0.35;
/** An action that reads when asked to change (or changes when asked to read) keeps this share. */
const MISMATCH = 0.5;
/** A pair of words found in a row counts this much of a field's weight (times the pair's mean IDF). */
const PAIR_WEIGHT = 0.25;
/** Two words in a row of an action's everyday phrasings (find-asked-as.ts) name its thing this well. */
const PHRASED_COVERAGE = 0.8;
/** A request whose verb only one action performs covers that action's object this well. */
const SOLE_COVERAGE = 0.7;
/** An action's domain counts this much of its object (people often leave it unsaid). */
const DOMAIN_SHARE = 0.5;
/** An action on the domain's thing itself counts as this well covered when the request does not name it. */
const GENERIC_COVERAGE = 0.3;
/** "add X to Y": an update of Y answers as well as this; making or removing Y itself keeps this share. */
const TARGET_UPDATE = 0.9;
const TARGET_MISMATCH = 0.3;
/** The terms a person's name stands for, and how much. */
const PERSON = ['member', 'user'];
const PERSON_WEIGHT = 0.4;
/** An action holding none of the request's other words keeps this share (Lucene's coordination factor). */
const COORD_FLOOR = 0.7;
/** Words of an ID that mark an action on many things at once, and how much a plural change lifts it. */
const BULK_WORDS = new Set(['all', 'bulk', 'batch']);
const BULK_LIFT = 1.5;
/** How well a read getting several things ("Get merge request approvals") answers a request for their list. */
const SEVERAL_LISTED = 0.9;
/** Between near equals, the action with fewer words to its thing (the plainer one) goes first. */
const SIMPLER = 0.05;
/** An action answering with the thing a request relates to another counts this much more. */
const HEAD_LIFT = 1.15;
/**
 * An action on someone else's things ("List a user's SSH keys") answers a request that names nobody (no user,
 * no name) less well than the caller's own: people mean their own by default.
 */
const SOMEONE_ELSE = /\b(?:a|any) user(?:[\u2019']s)?\b|\bby user\b|\bfor user\b/i;
const SOMEONE_ELSE_SHARE = 0.8;
const PERSON_WORDS = new Set([
  'user',
  'users',
  'member',
  'members',
  'someone',
  'somebody',
  'people',
  'everyone',
]);
/** "who ...": the request asks for people, which actions answering with these things give. */
const WHO = 'who';
const PEOPLE_LIFT = 1.3;
const PEOPLE = new Set(
  [
    'user',
    'member',
    'participant',
    'contributor',
    'starrer',
    'approver',
    'reviewer',
    'recipient',
    'assignee',
  ].map((w) => stemmer(w)),
);
/** A participle filtering what is asked for ("issues labeled bug") counts this much. */
const FILTER_WEIGHT = 0.4;
/** A synonym counts this much of the word typed. */
const SYNONYM_WEIGHT = 0.8;
/** The request's verb, as a term, counts this much (the operation is matched on its own). */
const VERB_TERM_WEIGHT = 0.3;
/** "add a comment": the operation the noun after a light verb names, and how well it answers. */
const LIGHT_VERBS = new Set(['add', 'leave', 'post', 'give', 'make', 'write', 'drop', 'put', 'do', 'send']);
const LIGHT_VERB_NOUN = 0.95;
/** "Restore the archived project": the verb's own operations keep this share beside the one undoing the state. */
const UNDONE_SHARE = 0.7;
/** Said of a thing that broke another ("commit def456 broke main"): it is undone. */
const BREAKING_WORDS = new Set(['broke', 'breaks']);
const UNDONE = { revert: 1, restore: 0.5 };
/** A property made or given: making a thing answers this well beside changing it. */
const PROPERTY_MADE = 0.7;
/** The operations that make a thing. */
const KINDS_CREATE = new Set(['create', 'add', 'register', 'record', 'start', 'invite']);
/** "should be protected": a change of the thing answers this well beside the action putting it in that state. */
const STATE_AS_CHANGE = 0.7;
/** "a protected tag": making a new one answers this well beside the action putting it in that state. */
const MADE_AS_NEW = 0.6;
/** A verbless request naming things in the plural answers a single one's read this well. */
const VERBLESS_PLURAL_GET = 0.6;
/** A verb making what it names ("release", "commit") creates at least this much. */
const MADE_BY_VERB = 0.8;
/** A request without a verb reads, less surely than one that says so. */
const NO_VERB_STRENGTH = 0.5;
/**
 * A read of one thing picked by its own ID ("Get issue link": issue_link_id) answers a request that gives no ID
 * for that thing ("what is blocking issue 3": an ID, but the issue's) at most this share as well as a list does.
 */
const UNPICKED_GET = 0.7;
/**
 * A word typed that neither the catalog nor the vocabulary knows, this long at least, is read as the one word of
 * the catalog's IDs and titles or a verb the vocabulary knows that is one edit away (two from the longer length
 * on), with the same first letter, a swap of two letters side by side counting one ("pipline", "brnach",
 * "varaible"). A word with two such neighbours, or typed with a capital after the first word (a name), stays.
 */
const MISSPELT_LENGTH = 5;
const TWO_EDITS_LENGTH = 10;
const RESPELT_KEPT = 4096;
/** Whether b is a with two letters side by side swapped. */
function swapped(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let k = 0;
  while (k < a.length && a[k] === b[k]) k++;
  return k < a.length - 1 && a[k] === b[k + 1] && a[k + 1] === b[k] && a.slice(k + 2) === b.slice(k + 2);
}
/** The things whose IDs say where an action acts (in which project), not which of its things it reads. */
const SCOPE_WORDS = new Set(['project', 'group', 'namespace', 'user']);
/** A read picking its thing by an ID not given, asked about a branch, keeps this share. */
const BRANCH_UNPICKED = 0.7;
/**
 * "did pipeline 812 on main pass", "show job 55 of the master pipeline": a number beside a thing names that one
 * thing; a read of such things that cannot be given its ID (the branch's latest pipeline, the list of a
 * pipeline's jobs) keeps this share, whatever else the request says.
 */
const NUMBERED_UNPICKED = 0.5;
/** Words naming a branch: the default one by its usual names, or a branch as such. */
const BRANCH_NAMES = new Set(['main', 'master', 'develop', 'trunk', 'branch']);
/** A request that says it is a variable (or a secret) it names. */
const VARIABLE_SAID = /\b(?:variables?|vars?|secrets?|env|environment)\b/i;
/** A value that is an ID: a number, or a word holding a digit (a commit's short SHA). */
const ID_VALUE = /\d/;

/** Title words that start a title without being its operation ("Group DORA metrics", "Who am I"). */
const NOT_OPERATIONS = new Set(['project', 'pipeline', 'instance', 'group', 'file', 'who', 'bulk']);
/** Words ending in s that are not plurals of a listed thing. */
const NOT_PLURAL = new Set([
  'details',
  'status',
  'contents',
  'statistics',
  'stats',
  'metrics',
  'analytics',
  'settings',
  'docs',
  // Verbs said of a thing ("release v2.3 needs a link", "frank leaves the group").
  'needs',
  'wants',
  'becomes',
  'belongs',
  'gets',
  'leaves',
  'quits',
]);
/** The operation words that do not name an action's object. */
const OPERATION_WORDS = new Set([
  'get',
  'list',
  'create',
  'update',
  'delete',
  'add',
  'remove',
  'edit',
  'set',
]);

/**
 * The most words whose stems are kept: the catalog's own (about 2,000) and the words requests use most, not every
 * new word of every request, which would keep growing the process's memory (55 MB a million words).
 */
const STEMS_KEPT = 10_000;
const stems = new Map<string, string>();
function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    s = stemmer(word);
    if (stems.size < STEMS_KEPT) stems.set(word, s);
  }
  return s;
}

/**
 * The words one of which a text must hold for a phrasal verb's pattern to match it ("switch|flip|toggle|turn"),
 * each as a whole word or as how a word begins; none when the pattern's opening does not say (an optional or
 * nested first group, no word boundary first): such a pattern is tried on every text the index reads.
 */
export function phrasalStarts(phrase: RegExp): Array<{ word: string; whole: boolean }> | undefined {
  // The alternatives of a first group that holds only words, or the literal words the pattern starts with
  // (an apostrophe within them: "don't", "can’t").
  const lead = /^\\b(?:\((?:\?:)?([a-z|'\u2019 -]+)\)|([a-z'\u2019 -]+))([?*])?/.exec(phrase.source);
  // An optional first group promises nothing; a last letter made optional ("thumbs?") need not be there.
  if (!lead || (lead[1] && lead[3])) return undefined;
  const firsts = lead[1] ? lead[1].split('|') : [lead[3] ? lead[2].slice(0, -1) : lead[2]];
  // Each alternative's first word: the whole word when a space, hyphen, apostrophe or word boundary follows it
  // in the pattern, else only how a longer word begins ("thumbsup").
  const after = phrase.source.slice(lead[0].length);
  const ends = after.startsWith(' ') || after.startsWith('\\b');
  const starts = firsts.map((f) => {
    const word = /^[a-z0-9]*/.exec(f)![0];
    return { word, whole: word.length < f.length || ends };
  });
  return starts.some(({ word }) => !word) ? undefined : starts;
}

/**
 * Another platform's names, then each phrasal verb, with the words it starts with: a text holding none of them is
 * not searched for it.
 */
const PHRASALS = [...OTHER_PLATFORM_NAMES, ...PHRASAL_VERBS].map(([phrase, verb]) => ({
  phrase,
  verb,
  starts: phrasalStarts(phrase),
}));

/** The phrasal verbs (by their place) a text's whole word may start, those a word's beginning may, and the rest. */
const BY_WORD = new Map<string, number[]>();
const BY_BEGINNING: Array<{ word: string; at: number }> = [];
const ALWAYS: number[] = [];
PHRASALS.forEach(({ starts }, at) => {
  if (!starts) ALWAYS.push(at);
  else
    for (const { word, whole } of starts)
      if (!whole) BY_BEGINNING.push({ word, at });
      else BY_WORD.set(word, [...(BY_WORD.get(word) ?? []), at]);
});

/**
 * The phrasal verbs whose patterns say no first word, tried on every text the index reads (which slows its
 * build): a test holds this list empty.
 */
export function unindexedPhrasals(): string[] {
  return ALWAYS.map((at) => PHRASALS[at].phrase.source);
}

/** The phrasal verbs from place `from` on that may match a text, in their order. */
function phrasalsFor(text: string, from: number): number[] {
  const due = new Set(ALWAYS);
  for (const w of text.split(/[^a-z0-9]+/)) {
    const ats = BY_WORD.get(w);
    if (ats) for (const at of ats) due.add(at);
  }
  for (const { word, at } of BY_BEGINNING) if (text.includes(word)) due.add(at);
  // Most texts hold no phrasal verb's first word.
  if (!due.size) return [];
  return [...due].filter((at) => at >= from).sort((x, y) => x - y);
}

/**
 * Lowercased words with abbreviations written out; "to-do" and "sign-up" as one word. A request's own phrasings
 * (REQUEST_PHRASES) are read in a request only.
 */
function words(text: string, request = false): string[] {
  const out: string[] = [];
  let normalised = text.toLowerCase();
  if (request)
    for (const [needs, phrase, said] of REQUEST_PHRASES)
      if (needs.some((n) => normalised.includes(n))) normalised = normalised.replace(phrase, said);
  let due = phrasalsFor(normalised, 0);
  for (let i = 0; i < due.length; i++) {
    const { phrase, verb } = PHRASALS[due[i]];
    const next = normalised.replace(phrase, verb);
    // A rewritten text may hold a word a later phrasal verb starts with ("turn on" becomes "enable").
    if (next !== normalised) {
      normalised = next;
      due = phrasalsFor(normalised, due[i] + 1);
      i = -1;
    }
  }
  normalised = normalised
    .replace(/\bto-?dos?\b/g, 'todo')
    .replace(/\bsign-?ups?\b/g, 'signup')
    .replace(/\bcherry-?pick/g, 'cherrypick');
  // "I'd like to": one word the lead-in knows ("i" and "d" alone are too short to keep).
  if (normalised.includes("'d") || normalised.includes('\u2019d'))
    normalised = normalised.replace(/\bi['\u2019]d\b/g, 'id');
  for (const w of normalised.split(/[^a-z0-9]+/)) {
    if (w.length < 2 && !/\d/.test(w)) continue;
    const long = ABBREVIATIONS[w];
    if (long) out.push(...long.split(' '));
    else out.push(w);
  }
  return out;
}

/** Words before a participle that says the state a thing must be put in ("should be protected"). */
const PASSIVE = new Set(['be', 'been', 'get', 'gets', 'got']);
/** A verb said after "should" or "needs to" changes the thing: its own operations keep this share. */
const OBLIGED_VERB_SHARE = 0.8;
/** A weight table with every weight times `share`. */
function scaled(operations: Record<string, number>, share: number): Record<string, number> {
  return Object.fromEntries(Object.entries(operations).map(([op, w]) => [op, w * share]));
}
/** What a request saying someone leaves asks: removing them (as a member or user). */
const LEAVING = { ...NO_LONGER };
/** Pronouns that stand for a person. */
const PEOPLE_PRONOUNS = new Set(['him', 'her']);
/** Modal verbs negated as typed ("shouldn't", split at the apostrophe). */
const NEGATED_MODALS = new Set(['shouldn', 'mustn']);
/** A word with no participle's ending: after "be", it names a state ("be open", "be a draft"), not a verb done. */
const BARE = /^(?!.*(?:ed|en)$)/;
/** Participles written as the verb itself ("should be set", "be reset", "be put"). */
const SAME_PARTICIPLES = new Set(['set', 'reset', 'run', 'rerun', 'put', 'cut', 'shut', 'split', 'upset']);
/** "have I ...", "have they ...", "have any ...": a question, not a thing to have done. */
const HAVE_ASKED = /\bhave\s+(?:i|you|we|they|he|she|it|any\w*|some\w*|all|there|these|those)\b/i;
/** "has to be masked": with "to", as "must". */
const HAVE = new Set(['has', 'have']);
/** "needs a README": one thing lacking (not "needs a new value", which replaces what is there). */
const NEEDS_ONE =
  /\b(?:needs?|wants?|must have|should have|has to have)\s+(?:a|an)\s+(?!(?:new|another|different|fresh|second)\b)/i;
/** Words that open a relative clause ("pipelines that can be retried"): what follows describes, not asks. */
const RELATIVES = new Set(['that', 'which', 'who']);
/** Words that may close a terse request after its verb ("protect pls", "approve thanks"). */
const TRAILING = new Set(['thanks', 'thx', 'thank', 'asap', 'now', 'please', 'pls', 'plz', 'ok']);
/** A word of a clause describing the thing a request changes counts this much. */
const DESCRIBING_WEIGHT = 0.3;
/** Words leading to where a thing goes or what it becomes ("moves to Friday", "changed from 5 to 7"). */
const TOWARDS = new Set(['to', 'into', 'onto', 'from']);
/** When a thing happens again and again: nightly, at 2am, on sundays ("every night" reads as "scheduled"). */
const RECURRING = new Set([
  'nightly',
  'daily',
  'weekly',
  'hourly',
  'monthly',
  'scheduled',
  'midnight',
  'noon',
  'weekdays',
  'mondays',
  'tuesdays',
  'wednesdays',
  'thursdays',
  'fridays',
  'saturdays',
  'sundays',
]);
/** A time of day: 2am, 11pm, 6h30. */
const TIME_OF_DAY = /^\d{1,2}(?:[ap]m|h\d\d)$/;
/** Verbs that start a run: said with when it recurs, they ask for a schedule. */
const RUN_VERBS = new Set(['run', 'trigger', 'start', 'kick', 'execute', 'launch', 'queue', 'build']);
/** Words before a thing's name that point to one that exists. */
const DEFINITE = new Set(['the', 'this', 'that', 'our', 'my', 'its', 'your']);
/** Words that negate the word after them ("not needed", "isn't used"). */
const NEGATIONS = new Set(['not', 'isn', 'aren', 'wasn', 'weren', 'never']);

/** Words that end a noun phrase and relate it to another thing. */
const RELATIONS = new Set([
  'of',
  'in',
  'on',
  'for',
  'from',
  'to',
  'by',
  'with',
  'that',
  'which',
  'who',
  'related',
  'across',
  'are',
  'is',
  'does',
  'do',
  'did',
  'was',
  'were',
  'have',
  'has',
  'introduced',
  'contain',
  'containing',
]);
/** Nouns that name a part or property of the thing named after them. */
const ATTRIBUTES = new Set([
  'content',
  'detail',
  'statu',
  'log',
  'histori',
  'list',
  'number',
  'count',
  'name',
  'raw',
  'version',
  'set',
]);
const DETERMINERS = new Set([
  'a',
  'an',
  'the',
  'my',
  'this',
  'these',
  'those',
  'our',
  'your',
  'its',
  'all',
  'every',
  'each',
]);

/**
 * The last word of the noun phrase that words start with ("merge requests related to issue 2": request).
 * For a request, only when something follows the phrase that relates it to another thing.
 */
function headOf(ws: string[], related: boolean): string | undefined {
  let head: string | undefined;
  let k = 0;
  while (k < ws.length && DETERMINERS.has(ws[k])) k++;
  for (; k < ws.length; k++) {
    if (RELATIONS.has(ws[k]) || (related && STOP_WORDS.has(ws[k]))) break;
    // "jobs waiting for a resource group": a participle after the thing describes it.
    if (head && ws[k].endsWith('ing') && stem(ws[k]) !== ws[k]) break;
    head = stem(ws[k]);
  }
  if (related && (k >= ws.length || !RELATIONS.has(ws[k]))) return undefined;
  // "the contents of a file", "the status of a pipeline": the thing is the one after "of".
  return head && ATTRIBUTES.has(head) ? undefined : head;
}

/** A plural of a thing's name ("issues"), not a word that only ends in s. */
function isPluralWord(w: string): boolean {
  return w.endsWith('s') && !w.endsWith('ss') && stem(w) !== w && !NOT_PLURAL.has(w);
}

/** "repositories", "policies", "issues": the singular the tables know a word by. */
function singularOf(w: string): string {
  return w.endsWith('ies') ? `${w.slice(0, -3)}y` : w.replace(/s$/, '');
}

/** The operation a table weighs most. */
function strongestOf(operations: Record<string, number>): string {
  let strongest = '';
  for (const [op, w] of Object.entries(operations)) if (w > (operations[strongest] ?? 0)) strongest = op;
  return strongest;
}

/** The stems of a text's meaningful words. */
export function tokens(text: string): string[] {
  return words(text)
    .filter((w) => !STOP_WORDS.has(w))
    .map(stem);
}

/** The stems of a name the vocabulary gives (a few hundred at most), kept once read. */
const namesRead = new Map<string, string[]>();
function nameTokens(name: string): string[] {
  let ts = namesRead.get(name);
  if (!ts) namesRead.set(name, (ts = tokens(name)));
  return ts;
}

/** A file name or path as people write it: README.md, src/index.ts, .gitlab-ci.yml. */
const FILE_NAME =
  /(?:^|\s)[\w.-]*(?:\/[\w.-]+)*\.(?:md|json|ya?ml|ts|js|py|go|rb|java|txt|toml|lock|xml|html|css|sh|cfg|ini|gitignore|gz|tgz|zip|jar|whl|exe|bin|deb|rpm|tar)\b/gi;

/** A name given after "called", "named" or "titled": one word, or words in quotes. */
const NAMED = new RegExp(
  `\\b(${[...NAMING_WORDS].join('|')})\\s+(?:"[^"]*"|'[^']*'|\u201c[^\u201d]*\u201d|[^\\s,;]+)`,
  'gi',
);
/**
 * A word written with hyphens ("feature-x", "release-2.0"), with the word before it. The word before starts
 * where a word starts (not at each of its characters), so a long request without spaces is read in linear time.
 */
const HYPHENATED = /(^|(?<!\S)\S+\s+)([a-z0-9]+(?:-[a-z0-9.]+)+)(?=[\s,;:!?]|$)/gi;
/** Words after which a hyphenated word is a value given ("move it to api-server", "from release-1.2"). */
const BEFORE_VALUES = new Set(['to', 'from', 'off', 'onto', 'into', 'as']);
/** Hyphenated words of the catalog's own texts (read-only, two-factor), found when a request first holds one. */
const HYPHEN_WORD = /\b[a-z0-9]+(?:-[a-z0-9]+)+\b/g;

/** Canonical IDs a description refers to ("use issue.list_group for ...") name other actions, not this one. */
const CROSS_REFERENCE = /\b[a-z_]+\.[a-z_]+\b/g;

/** A parenthesis saying what an action is not or does not do ("(not tied to diff lines)"). */
const NOT_THIS = /\((?:not|never)\b[^)]*\)/g;

/**
 * The words before `_id` or `_iid` of each parameter that is an ID (pipeline_id: pipeline; merge_request_iid),
 * a commit's SHA (sha, commit_sha) counting as the commit's ID.
 */
function idParams(a: FindDoc): string[][] {
  const out: string[][] = [];
  for (const p of Object.keys(a.params)) {
    const ws = p.split('_');
    if (/^i?id$/.test(ws[ws.length - 1])) out.push(ws.slice(0, -1));
    else if (p === 'sha' || p === 'commit_sha') out.push(['commit']);
  }
  return out;
}

/** An action's operation: the first word of its title, or "get" for a title that starts with a noun. */
function operationOf(a: FindDoc): string {
  const [first, second] = words(a.title);
  if (!NOT_OPERATIONS.has(first)) return first;
  return second && REQUEST_VERBS[second] ? second : 'get';
}

interface Field {
  text: string;
  weight: number;
}

function fieldsOf(a: FindDoc): Field[] {
  const description = a.description.replace(CROSS_REFERENCE, ' ');
  const cut = description.search(/(?<!\b(?:e\.g|i\.e|etc))\.(\s|$)/);
  const first = cut < 0 ? description : description.slice(0, cut);
  // "(not tied to diff lines)": what the action does not do is no word of what it does; it reads as guidance.
  const unlike = first.match(NOT_THIS) ?? [];
  const summary = unlike.length ? first.replace(NOT_THIS, ' ') : first;
  // An undoing operation names what it undoes too: unprotect is about protection.
  const op = operationOf(a);
  const undone = [op, ...words(a.id.slice(a.id.indexOf('.') + 1))]
    .filter((w) => w.startsWith('un') && REQUEST_VERBS[w.slice(2)])
    .map((w) => ` ${w.slice(2)}`)
    .join('');
  return [
    { text: a.id.replace(/[._]/g, ' ') + undone, weight: WEIGHTS.name },
    { text: a.title, weight: WEIGHTS.title },
    { text: Object.keys(a.params).join(' ').replace(/_/g, ' '), weight: WEIGHTS.params },
    { text: summary, weight: WEIGHTS.summary },
    { text: `${unlike.join(' ')} ${cut < 0 ? '' : description.slice(cut)}`, weight: WEIGHTS.guidance },
    { text: ASKED_AS[a.id] ?? '', weight: WEIGHTS.askedAs },
  ];
}

interface AnalysedField {
  terms: string[];
  weight: number;
}

/** Each action's fields as stemmed terms, kept across finders (every session's view holds the same actions). */
const analyses = new WeakMap<FindDoc, AnalysedField[]>();
function analysed(a: FindDoc): AnalysedField[] {
  let fields = analyses.get(a);
  if (!fields) {
    fields = fieldsOf(a).map((f) => ({ terms: tokens(f.text), weight: f.weight }));
    analyses.set(a, fields);
  }
  return fields;
}

/** What a query asks: its terms with their weights, and the operations it accepts. */
interface Parsed {
  terms: Map<string, number>;
  /** The terms of each word typed: the word and what it stands for, of which an action counts the best. */
  groups: Array<Map<string, number>>;
  /** Consecutive words as typed (stemmed, stop words left out): "default branch". */
  pairs: string[];
  operations: Record<string, number>;
  strength: number;
  /** "merge requests related to issue 2": the thing asked for (request), when the request relates it to another. */
  head?: string;
  /** The head, and the catalog's names for it when no title answers with it (binaries: asset, link). */
  heads: Set<string>;
  /** The request names many things (a plural, "all"). */
  plural: boolean;
  /** The request names a user, or a word the catalog does not know (most often someone's name). */
  someone: boolean;
  /** The verb as typed, when the request starts with one. */
  verb?: string;
  /** "add X to Y": the terms of Y, the thing added to (or removed from, or set on). */
  target?: Set<string>;
  /** The stems of the words an ID follows ("issue 3": issue), or that point to one ("the issue"). */
  identified: Set<string>;
  /** The stems of the words a number or SHA follows. */
  numbered: Set<string>;
  /** The request names a branch ("on main", "for the branch"). */
  onBranch: boolean;
}

/**
 * The operations a verbless request asks for by describing what happens to its thing: it is done with ("is
 * not needed anymore", "is obsolete"), it changes ("moves to Friday", "becomes Fix login", "is now a
 * developer"), or it is one to be made ("a deploy key with write access", "an epic for the rework").
 */
function described(
  ws: string[],
  i: number,
  article: boolean,
  verbed: boolean,
  made?: Record<string, number>,
): Record<string, number> | undefined {
  for (let k = i + 1; k < ws.length; k++) {
    const w = ws[k];
    const after = ws[k + 1];
    const copula = COPULAS.has(ws[k - 1]) || COPULAS.has(ws[k - 2] ?? '');
    if (GONE_WORDS.has(w) && (copula || k === ws.length - 1 || ws[k - 1] === 'by')) return NO_LONGER;
    if (NOT_NEEDED.has(w) && NEGATIONS.has(ws[k - 1]) && (copula || k === ws.length - 1)) return NO_LONGER;
    // "is not in use any more".
    if (w === 'use' && ws[k - 1] === 'in' && NEGATIONS.has(ws[k - 2])) return NO_LONGER;
    // A request that starts with a word both a verb and a thing's name ("tag v0.9 was pushed by accident")
    // says no more than that its thing is done with.
    // "commit def456 broke main": what broke something is undone.
    if (BREAKING_WORDS.has(w) && !STOP_WORDS.has(ws[k - 1]) && !RELATIONS.has(ws[k - 1])) return UNDONE;
    if (verbed) continue;
    // "is wrong", "points at the wrong job": a thing to put right.
    if (WRONG_WORDS.has(w) && (copula || w === 'anymore' || ws[k - 1] === 'the')) return CHANGED;
    // "milestone 5 is finished", "pipeline 31 is stuck" (not "pipelines that are finished": those are listed).
    const stated = COPULAS.has(ws[k - 1]) && !RELATIVES.has(ws[k - 2] ?? '');
    if (stated && STATE_CHANGES[w]) return STATE_CHANGES[w];
    // "frank leaves the platform group", "bob left the company": who leaves is removed.
    if (LEAVING_WORDS.has(w) && !STOP_WORDS.has(ws[k - 1]) && !RELATIONS.has(ws[k - 1])) return LEAVING;
    // "changes" and "moves" name things too ("the history of changes", "storage moves of project 9"): as
    // verbs they follow the thing's name and lead to its new value, or follow a copula.
    if (
      CHANGE_WORDS[w] &&
      !STOP_WORDS.has(ws[k - 1]) &&
      !RELATIONS.has(ws[k - 1]) &&
      (!/^(?:change|move)[sd]$/.test(w) || TOWARDS.has(after ?? '') || copula)
    )
      return CHANGE_WORDS[w];
    // "is now a developer" (not "are now failing": a state the things are in).
    if (w === 'now' && COPULAS.has(ws[k - 1]) && !STATE_WORDS.has(after ?? '') && !after?.endsWith('ing'))
      return CHANGED;
    // "issue 12 to alice", "MR 7 to develop": one thing, named by its number, given a new value (not "job 77 to
    // debug the build": a verb with its object says what for).
    if (
      w === 'to' &&
      /\d/.test(ws[k - 1]) &&
      after &&
      !STOP_WORDS.has(after) &&
      !/\d/.test(after) &&
      !DETERMINERS.has(ws[k + 2] ?? '')
    )
      return CHANGED;
  }
  // "a deploy key with write access": one to be made.
  return article && !verbed ? (made ?? NEW_ONE) : undefined;
}

/**
 * Whether a request (verbless, or asking to run something) says when its thing recurs ("nightly builds at
 * midnight", "every monday at 6am"), of one to make: not "the nightly schedule", one that exists.
 */
function recursAt(ws: string[], running: boolean): boolean {
  if (!running) return false;
  const when = ws.findIndex((w) => RECURRING.has(w) || (/^\d/.test(w) && TIME_OF_DAY.test(w)));
  return (
    when >= 0 &&
    !ws.some((w) => w.startsWith('schedul') && w !== 'scheduled') &&
    !DEFINITE.has(ws[when - 1] ?? '')
  );
}

/**
 * Where a relative clause that only describes the thing a request changes starts (its pronoun) and ends (the
 * verb saying the change): "the nightly job [that builds the docs] should run on develop"; [-1, -1] for none.
 */
function describingClause(ws: string[], from: number): [number, number] {
  const start = ws.findIndex((w, k) => k > from && RELATIVES.has(w) && !STOP_WORDS.has(ws[k - 1]));
  if (start < 0 || COPULAS.has(ws[start + 1] ?? '')) return [-1, -1];
  const end = ws.findIndex((w, k) => k > start + 1 && DEFERRING_WORDS.has(w));
  return end < 0 ? [-1, -1] : [start, end];
}

/** Whether a request starts (after any lead-in) with "a" or "an". */
function indefinite(query: string): boolean {
  const typed = query.toLowerCase().split(/[^a-z0-9'\u2019]+/);
  let k = typed[0] ? 0 : 1;
  while (
    k < typed.length - 1 &&
    (LEAD_IN.has(typed[k].replace(/['\u2019]/g, '')) ||
      typed[k] === 'like' ||
      // "let's have a tag on main": a thing to be had is made.
      (typed[k] === 'have' && (typed[k + 1] === 'a' || typed[k + 1] === 'an')))
  )
    k++;
  return typed[k] === 'a' || typed[k] === 'an';
}

/** Finders built, by the IDs of the actions they rank: sessions with the same view share one. */
const finders = new Map<string, ActionFinder>();
const KEPT_FINDERS = 8;

export class ActionFinder {
  /**
   * The finder over these actions, built once for every view that lists the same ones (building the index
   * takes far longer than a query).
   */
  static over(actions: FindDoc[]): ActionFinder {
    const key = actions.map((a) => a.id).join(' ');
    let finder = finders.get(key);
    if (finder && finder.actions.every((a, d) => a === actions[d])) {
      finders.delete(key);
    } else {
      finder = new ActionFinder(actions);
      if (finders.size >= KEPT_FINDERS) finders.delete(finders.keys().next().value as string);
    }
    finders.set(key, finder);
    return finder;
  }

  private readonly actions: FindDoc[];
  private readonly operations: string[];
  /** term -> [action index, field-weighted saturated frequency] */
  private readonly postings = new Map<string, Array<[number, number]>>();
  private readonly idf = new Map<string, number>();
  /** "term term" -> [action index, weight of the strongest field holding the two words in a row] */
  private readonly pairs = new Map<string, Array<[number, number]>>();
  /** "term term" -> the actions whose everyday phrasings hold the two words in a row */
  private readonly phrased = new Map<string, number[]>();
  /** Each action's object terms: its ID's words less the operation. */
  private readonly objects: Array<Array<[string, number]>>;
  private readonly titleObjects: Array<Array<[string, number]>>;
  /**
   * The object of a title that gives its ID's words in a parenthesis after its everyday name, the parenthesis left
   * out ("Submit review (publish all drafts)": review): a request saying the title's own verb names the action by
   * these words alone.
   */
  private readonly titleNames: Array<Array<[string, number]> | undefined> = [];
  /** Actions on the domain's thing itself (project.update, issue.get): the request may leave it unsaid. */
  private readonly generic: boolean[] = [];
  /** The thing each action acts on: its object less the domain, or the domain's thing for a generic action. */
  private readonly things: string[][] = [];
  /** Actions that act on many things at once (publish_all, delete_bulk, link_create_batch). */
  private readonly bulk: boolean[];
  /** A read that gets things named in the plural ("Get merge request approvals"): a list asked for is answered. */
  private readonly several: boolean[];
  /** What each action answers with: the last word of its title's first noun phrase ("List MRs related to issue": request). */
  private readonly heads: Array<string | undefined>;
  /** Every head a title has. */
  private readonly headWords: Set<string | undefined>;
  /** The wider scope (group, instance) each action's title names, if any. */
  private readonly scopes: Array<string | undefined>;
  /** Actions on another user's things. */
  private readonly others: boolean[];
  /**
   * Reads of one of their own things picked by its ID among the parameters: the words of that ID naming the thing
   * (issue.link_get: link, of issue_link_id), none for any other action.
   */
  private readonly picks: Array<Set<string> | undefined> = [];
  /** Reads of one thing picked by an ID other than a project's or group's (pipeline.get: pipeline, of pipeline_id). */
  private readonly ownIds: Array<Set<string> | undefined> = [];
  /**
   * The things of each action's ID (its words less the scope's) that a read elsewhere picks by their own ID while
   * this action takes none for them (pipeline.latest: pipeline, read one at a time by pipeline.get).
   */
  private readonly unpickable: Array<string[] | undefined> = [];
  /** ID words that never name an operation: a verb that is one of them names the object too (tag, commit). */
  private readonly objectWords = new Set<string>();
  /** Every word of the actions' IDs (link and schedule too, which are operations as well), found when first asked. */
  private idWords?: Set<string>;
  /** Two-word names of things, from the catalog's domains (merge request, feature flag): not a verb and its object. */
  private readonly compounds = new Set<string>();
  private readonly exact = new Map<string, number>();
  private readonly actionVerbs = new Set<string>();
  /** Operations one action alone performs, named by them alone (repository.compare, merge_request.rebase). */
  private readonly sole = new Set<string>();
  /** File names the catalog's titles name (.gitlab-ci.yml, .gitignore): searched as words, not as a file. */
  private readonly fileNames = new Set<string>();

  constructor(actions: FindDoc[]) {
    this.actions = actions;
    this.operations = actions.map(operationOf);
    const performing = new Map<string, number>();
    for (const op of this.operations) performing.set(op, (performing.get(op) ?? 0) + 1);
    // Named by the operation alone (repository.compare), no other action performing it.
    actions.forEach((a, d) => {
      const op = this.operations[d];
      if (performing.get(op) === 1 && a.id.slice(a.id.indexOf('.') + 1) === op) this.sole.add(op);
    });
    for (const op of this.operations) this.actionVerbs.add(op);
    for (const a of actions)
      for (const m of a.title.matchAll(FILE_NAME)) this.fileNames.add(m[0].toLowerCase().trim());
    const fieldTerms = actions.map(analysed);
    const fieldCount = fieldTerms[0]?.length ?? 0;
    const avg = Array.from({ length: fieldCount }, (_, i) =>
      Math.max(1, fieldTerms.reduce((s, fs) => s + fs[i].terms.length, 0) / Math.max(1, actions.length)),
    );
    const df = new Map<string, number>();
    fieldTerms.forEach((fs, d) => {
      const score = new Map<string, number>();
      fs.forEach((f, i) => {
        if (!f.terms.length) return;
        const tf = new Map<string, number>();
        for (const t of f.terms) tf.set(t, (tf.get(t) ?? 0) + 1);
        const norm = K1 * (1 - B + (B * f.terms.length) / avg[i]);
        for (const [t, n] of tf)
          // An everyday phrasing adds the words the action's name lacks; the ones it shares it only repeats.
          if (i !== ASKED_FIELD || (!fs[0].terms.includes(t) && !fs[1].terms.includes(t)))
            score.set(t, (score.get(t) ?? 0) + (f.weight * n) / (n + norm));
      });
      fs.forEach((f) => {
        if (f.weight < WEIGHTS.summary) return;
        for (let k = 0; k < f.terms.length - 1; k++) {
          const pair = `${f.terms[k]} ${f.terms[k + 1]}`;
          let at = this.pairs.get(pair);
          if (!at) this.pairs.set(pair, (at = []));
          const last = at[at.length - 1];
          if (last?.[0] === d) last[1] = Math.max(last[1], f.weight);
          else at.push([d, f.weight]);
        }
      });
      for (const [t, s] of score) {
        df.set(t, (df.get(t) ?? 0) + 1);
        let list = this.postings.get(t);
        if (!list) this.postings.set(t, (list = []));
        list.push([d, s]);
      }
    });
    // Only pairs no ID or title holds: "merge request" names many actions, "common ancestor" one.
    const named = new Set<string>();
    for (const fs of fieldTerms)
      for (const f of fs.slice(0, 2))
        for (let k = 0; k < f.terms.length - 1; k++) named.add(`${f.terms[k]} ${f.terms[k + 1]}`);
    fieldTerms.forEach((fs, d) => {
      const ts = fs[ASKED_FIELD].terms;
      for (let k = 0; k < ts.length - 1; k++) {
        const pair = `${ts[k]} ${ts[k + 1]}`;
        if (named.has(pair)) continue;
        let at = this.phrased.get(pair);
        if (!at) this.phrased.set(pair, (at = []));
        if (at[at.length - 1] !== d) at.push(d);
      }
    });
    const n = actions.length;
    for (const [t, k] of df) this.idf.set(t, Math.log(1 + (n - k + 0.5) / (k + 0.5)));
    const operationWords = new Set([...OPERATION_WORDS].map(stem));
    this.bulk = actions.map((a) => words(a.id).some((w) => BULK_WORDS.has(w)));
    this.several = actions.map(
      (a, d) => this.operations[d] === 'get' && isPluralWord(/[a-z0-9]*$/.exec(a.title.toLowerCase())![0]),
    );
    this.heads = actions.map((a) => headOf(words(a.title.replace(/[\u2019']s\b/g, '')).slice(1), false));
    this.headWords = new Set(this.heads);
    this.scopes = actions.map((a) => words(a.title).find((w) => WIDER_SCOPES[w]));
    this.others = actions.map((a) => SOMEONE_ELSE.test(a.title));
    this.objects = actions.map((a, d) => {
      const op = stem(this.operations[d]);
      const [domain, name] = a.id.split('.');
      const object = new Map<string, number>();
      const nameTerms = tokens(name.replace(/_/g, ' '));
      // An operation word names the operation at either end of the name; inside it names a thing (board_list_delete).
      const inner = new Set<string>();
      nameTerms.forEach((t, k) => {
        if ((k === 0 || k === nameTerms.length - 1) && operationWords.has(t)) return;
        object.set(t, 1);
        if (k > 0 && k < nameTerms.length - 1) inner.add(t);
      });
      // The domain is often left unsaid ("list commits" for repository.commit_list): it counts half.
      for (const t of tokens(domain.replace(/_/g, ' '))) if (!object.has(t)) object.set(t, DOMAIN_SHARE);
      // The operation is no part of the object, unless the name says it twice, once as a thing (board_list_list).
      if (!inner.has(op) || nameTerms.filter((t) => t === op).length < 2) object.delete(op);
      this.generic[d] = [...object.values()].every((w) => w < 1);
      this.things[d] = [...object].filter(([, w]) => w === 1 || this.generic[d]).map(([t]) => t);
      return [...object].map(([t, w]) => [t, w * (this.idf.get(t) ?? 0)] as [string, number]);
    });
    this.actions.forEach((a, d) => {
      if (this.operations[d] !== 'get' || this.generic[d]) return;
      const thing = new Set(this.things[d]);
      // The scope's ID (project_id, group_id) says where, not which one; the domain's (issue_iid), in which.
      const where = new Set([...SCOPE_WORDS, ...a.id.slice(0, a.id.indexOf('.')).split('_')]);
      const picking = new Set<string>();
      for (const ws of idParams(a))
        for (const w of ws) if (!where.has(w) && thing.has(stem(w))) picking.add(stem(w));
      if (picking.size) this.picks[d] = picking;
    });
    this.actions.forEach((a, d) => {
      if (this.operations[d] !== 'get') return;
      const ids = new Set<string>();
      for (const ws of idParams(a))
        if (ws.length && !SCOPE_WORDS.has(ws[0])) for (const w of ws) ids.add(stem(w));
      if (ids.size) this.ownIds[d] = ids;
    });
    const idTerms = actions.map((a) => tokens(a.id.replace(/[._]/g, ' ')));
    const pickedOne = new Set<string>();
    for (const ids of this.ownIds) for (const t of ids ?? []) pickedOne.add(t);
    this.actions.forEach((a, d) => {
      const takes = new Set(idParams(a).flat().map(stem));
      const unpicked = idTerms[d].filter((t) => pickedOne.has(t) && !takes.has(t) && !SCOPE_WORDS.has(t));
      if (unpicked.length) this.unpickable[d] = unpicked;
    });
    // The title names the object in the words people use ("List all my merge requests" for list_global).
    this.titleObjects = actions.map((a, d) => {
      const op = stem(this.operations[d]);
      const objectOf = (title: string) =>
        [...new Set(tokens(title).filter((t) => t !== op && !operationWords.has(t)))].map(
          (t) => [t, this.idf.get(t) ?? 0] as [string, number],
        );
      const said = /\(([^)]*)\)/.exec(a.title)?.[1];
      if (said && tokens(said).every((t) => idTerms[d].includes(t)))
        this.titleNames[d] = objectOf(a.title.replace(/\([^)]*\)/g, ' '));
      return objectOf(a.title);
    });
    for (const a of actions) {
      const ws = tokens(a.id.slice(0, a.id.indexOf('.')).replace(/_/g, ' '));
      if (ws.length > 1) this.compounds.add(`${ws[0]} ${ws[1]}`);
    }
    for (const name of THING_NAMES) this.compounds.add(tokens(name).join(' '));
    const operationStems = new Set(this.operations.map(stem));
    for (const ts of idTerms) for (const t of ts) if (!operationStems.has(t)) this.objectWords.add(t);
    actions.forEach((a, d) => {
      this.exact.set(a.id, d);
      this.exact.set(a.tool, d);
    });
  }

  /**
   * Values written in the request stand for what they name: `!12` a merge request and `#12` an issue (the
   * instance's own notation), a file name or path a file (unless the catalog names that file itself, as
   * .gitlab-ci.yml); a version such as v1.2 names nothing searchable.
   */
  private literals(query: string): string {
    return (
      query
        .replace(/\bhttps?:\/\/\S*/g, ' ')
        // A branch or folder written as a path (feature/login, src/components) is a name, not a word to search.
        .replace(/\bci\/cd\b/gi, 'ci cd')
        .replace(/(?:^|\s)[\w-]+\/[\w/-]*(?=\s|$)/g, ' ')
        // A name written in capitals with underscores (DEPLOY_TOKEN) is a CI/CD variable's: said alone, it names one.
        .replace(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g, VARIABLE_SAID.test(query) ? ' ' : ' variable ')
        // A name written in lower case with underscores (new_checkout, api_v2) names a thing; one the catalog's
        // own words make (state_event, merge_request) is searched.
        .replace(/(?<![\w.])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w.])/g, (name) =>
          name.split('_').every((w) => this.idf.has(stem(w))) ? name : ' ',
        )
        // A name given ("a branch called hotfix", "named api") or written with hyphens ("branch feature-x",
        // "rename it to api-server") is no word to search.
        .replace(NAMED, '$1 ')
        .replace(HYPHENATED, (token, before: string, name: string) =>
          this.isName(name, before) ? `${before} ` : token,
        )
        .replace(/!\d+\b/g, ' merge request ')
        .replace(/#\d+\b/g, ' issue ')
        .replace(/(?:^|\s)v\d+(?:\.\d+)*\b/gi, ' ')
        .replace(FILE_NAME, (name) =>
          this.fileNames.has(name.toLowerCase().replace(/^\s+/, '')) ? name : ' file ',
        )
    );
  }

  /** The hyphenated words the catalog's texts hold (read when a request first holds one). */
  private hyphenWords?: Set<string>;

  /**
   * Whether a hyphenated word of a request is a name ("branch feature-x", "to api-server", "release-2.0") rather
   * than a word the catalog or the vocabulary knows (read-only, to-do, re-run): it holds a digit or follows a
   * thing's name or a word that introduces a value.
   */
  private isName(name: string, before: string): boolean {
    const lower = name.toLowerCase();
    if (!this.hyphenWords) {
      this.hyphenWords = new Set();
      for (const a of this.actions)
        for (const text of [a.title, a.description, ASKED_AS[a.id] ?? ''])
          for (const [w] of text.toLowerCase().matchAll(HYPHEN_WORD)) this.hyphenWords.add(w);
    }
    if (this.hyphenWords.has(lower) || words(lower).join(' ') !== words(lower.replace(/-/g, ' ')).join(' '))
      return false;
    const prev = before.trim().toLowerCase();
    // A file name (gitlab-ci.yml) is found as a file.
    if (lower.includes('.') && !/\d/.test(lower)) return false;
    return /\d/.test(lower) || BEFORE_VALUES.has(prev) || this.objectWords.has(stem(prev));
  }

  /**
   * "The CI keeps failing on lint, show me the job log", "before merging, check MR 5's approvals": the clause
   * that says what to do, after one that sets the scene without a verb, is read first.
   */
  private imperativeFirst(query: string): string {
    const comma = query.lastIndexOf(',');
    if (comma < 0) return query;
    const leading = (text: string) => {
      const ws = words(text);
      let k = 0;
      while (k < ws.length - 1 && (LEAD_IN.has(ws[k]) || ws[k] === 'then' || ws[k] === 'and')) k++;
      return ws[k] ?? '';
    };
    const scene = leading(query.slice(0, comma));
    const asked = leading(query.slice(comma + 1));
    // A verb that names a thing too ("tag", "close") asks to do it when a thing follows ("tag the release
    // commit", "close issue 61").
    const then = words(query.slice(comma + 1));
    const next = then[then.indexOf(asked) + 1] ?? '';
    const doing =
      !this.objectWords.has(stem(asked)) || DETERMINERS.has(next) || this.objectWords.has(stem(next));
    return this.isVerb(asked) && doing && !this.isVerb(scene) && !QUESTION_WORDS.has(scene)
      ? `${query.slice(comma + 1)}, ${query.slice(0, comma)}`
      : query;
  }

  /** Each word of the actions' IDs, with the other words of the IDs it is in (found when first asked). */
  private idNeighbours?: Map<string, Set<string>>;

  /**
   * Whether a word names a thing of the things named ("job log": a job's trace, job.trace), not one only of
   * others ("milestone close": close stands for a state, which no milestone action's ID names).
   */
  private partOf(t: string, named: Set<string>): boolean {
    if (!this.idNeighbours) {
      this.idNeighbours = new Map();
      for (const a of this.actions) {
        const ts = tokens(a.id.replace(/[._]/g, ' '));
        for (const x of ts) {
          let near = this.idNeighbours.get(x);
          if (!near) this.idNeighbours.set(x, (near = new Set()));
          for (const y of ts) if (y !== x) near.add(y);
        }
      }
    }
    const near = this.idNeighbours.get(t);
    return !!near && [...named].some((n) => near.has(n));
  }

  /** A word a request says what to do with: one of the request verbs, or a verb of the catalog's actions. */
  private isVerb(w: string): boolean {
    return Boolean(REQUEST_VERBS[w]) || this.actionVerbs.has(w);
  }

  private titled?: Set<string>;
  /** The words the catalog's titles name things with (read when a request first needs them). */
  private titleWords(): Set<string> {
    return (this.titled ??= new Set(this.titleObjects.flatMap((ts) => ts.map(([t]) => t))));
  }

  /** The words of the catalog's IDs and titles and of the vocabulary's tables, by length (found when a request first misspells). */
  private spellings?: Map<number, string[]>;
  /** Unknown words already looked up, with what each stands for ('' for none); at most RESPELT_KEPT of them. */
  private readonly respelled = new Map<string, string>();

  /** Whether a word typed is one the ranker reads: the catalog's or the vocabulary's, a number, a stop word. */
  private known(w: string): boolean {
    return (
      /\d/.test(w) ||
      STOP_WORDS.has(w) ||
      this.idf.has(stem(w)) ||
      !!SYNONYMS[w] ||
      !!CATALOG_NAMES[w] ||
      !!REQUEST_VERBS[w] ||
      !!ABBREVIATIONS[w]
    );
  }

  /** The known word a misspelt one stands for ("pipline": pipeline), if one is near enough and alone so near. */
  private respelt(w: string): string | undefined {
    if (w.length < MISSPELT_LENGTH || this.known(w)) return undefined;
    const kept = this.respelled.get(w);
    if (kept !== undefined) return kept || undefined;
    if (!this.spellings) {
      const all = new Set<string>();
      const add = (text: string) => {
        for (const word of text.toLowerCase().split(/[^a-z]+/))
          if (word.length >= MISSPELT_LENGTH - 1) all.add(word);
      };
      for (const a of this.actions) for (const text of [a.id, a.title]) add(text.replace(/[._]/g, ' '));
      for (const verb of Object.keys(REQUEST_VERBS)) add(verb);
      this.spellings = new Map();
      for (const word of all) {
        if (!this.known(word)) continue;
        const same = this.spellings.get(word.length);
        if (same) same.push(word);
        else this.spellings.set(word.length, [word]);
      }
    }
    const within = w.length >= TWO_EDITS_LENGTH ? 2 : 1;
    let best: string | undefined;
    let bestD = Infinity;
    let tied = false;
    for (let n = w.length - within; n <= w.length + within; n++)
      for (const c of this.spellings.get(n) ?? []) {
        // People seldom miss a word's first letter; a word of the same stem is the same word.
        if (c[0] !== w[0] || stem(c) === stem(w)) continue;
        const d = swapped(w, c) ? 1 : levenshtein(w, c);
        if (d < bestD) [best, bestD, tied] = [c, d, false];
        else if (d === bestD && stem(c) !== stem(best!)) tied = true;
      }
    const meant = bestD <= within && !tied ? best : undefined;
    if (this.respelled.size >= RESPELT_KEPT) this.respelled.clear();
    this.respelled.set(w, meant ?? '');
    return meant;
  }

  /** Whether a word names one of the catalog's things (a README is a file, a webhook a hook). */
  private namesThing(w: string | undefined): boolean {
    if (!w) return false;
    const names = [w, ...(CATALOG_NAMES[w] ?? []), ...(SYNONYMS[w] ?? [])];
    if (!this.idWords) {
      this.idWords = new Set();
      for (const a of this.actions) for (const t of tokens(a.id.replace(/[._]/g, ' '))) this.idWords.add(t);
    }
    const idWords = this.idWords;
    return names.some((n) => tokens(n).some((t) => idWords.has(t)));
  }

  /** Whether a participle says a change done ("assigned", "merged"), not a read ("listed"). */
  private doneBy(w: string): boolean {
    const ops = this.deferred(w);
    return !!ops && !READ_OPERATIONS.has(strongestOf(ops));
  }

  /**
   * "a protected tag for v*", "a protected branch for release/*": a thing asked for in a state an action of its own
   * puts such a thing in is made so by that action (not "a shared runner": no action shares a runner).
   */
  private madeAs(participle: string | undefined, ws: string[]): Record<string, number> | undefined {
    if (!participle?.endsWith('ed')) return undefined;
    const ops = this.deferred(participle);
    if (!ops) return undefined;
    const op = strongestOf(ops);
    const named = new Set(ws.map(stem));
    return this.operations.some((o, d) => o === op && this.things[d].every((t) => named.has(t)))
      ? accept(ops, scaled(NEW_ONE, MADE_AS_NEW))
      : undefined;
  }

  /** The words of the actions' parameters (title, description, weight), found when first asked. */
  private paramWords?: Set<string>;

  /**
   * Whether the words after a verb name a property of a thing: "the description of MR 3", "issue 6 a weight"
   * (a thing named by its number, then the property).
   */
  private setsProperty(ws: string[], verbAt: number): boolean {
    let k = verbAt + 1;
    while (k < ws.length && DETERMINERS.has(ws[k])) k++;
    // Only "<property> of", "<property> <property> of" or "<thing> <number> <property>" can.
    if (ws[k + 1] !== 'of' && ws[k + 2] !== 'of' && !/\d/.test(ws[k + 1] ?? '')) return false;
    if (!this.paramWords) {
      this.paramWords = new Set();
      for (const a of this.actions)
        for (const p of Object.keys(a.params))
          for (const t of tokens(p.replace(/_/g, ' '))) this.paramWords.add(t);
    }
    const params = this.paramWords;
    const property = (w: string | undefined) => !!w && !this.objectWords.has(stem(w)) && params.has(stem(w));
    // "the due date of": the property's last word before "of".
    if (property(ws[k]) && (ws[k + 1] === 'of' || (property(ws[k + 1]) && ws[k + 2] === 'of'))) return true;
    return (
      this.objectWords.has(stem(ws[k] ?? '')) &&
      /\d/.test(ws[k + 1] ?? '') &&
      params.has(stem(ws[k + 2] ?? ''))
    );
  }

  /** The operations a verb said late asks for, as written or as its participle ("closed", "deleted"). */
  private deferred(w: string | undefined): Record<string, number> | undefined {
    if (!w) return undefined;
    if (NEW_WORDS.has(w)) return NEW_THING;
    for (const v of [
      w,
      w.replace(/d$/, ''),
      w.replace(/ed$/, ''),
      w.replace(/ied$/, 'y'),
      w.replace(/(.)\1ed$/, '$1'),
      // "needs rebasing", "needs closing".
      w.replace(/ing$/, 'e'),
      w.replace(/ing$/, ''),
      w.replace(/(.)\1ing$/, '$1'),
    ])
      if (REQUEST_VERBS[v]) return REQUEST_VERBS[v];
      else if (this.actionVerbs.has(v) && !NOT_OPERATIONS.has(v)) return { [v]: 1 };
    return undefined;
  }

  /** The query's terms and the operations its verb (or its question) asks for. */
  private parse(request: string): Parsed {
    const query = this.imperativeFirst(request);
    // A misspelt word is read as the one meant; a capitalised one after the first is a name ("ask Grace").
    const ws = words(
      this.literals(query).replace(/[a-z]{5,}(?!['\u2019\w])/gi, (w, at: number) =>
        at > 0 && /^[A-Z][a-z]/.test(w) ? w : (this.respelt(w.toLowerCase()) ?? w),
      ),
      true,
    );
    let i = 0;
    // "How do I ...", "how to ...": the verb after it says what to do.
    // "a label named x", "an environment called review": after an article, the first word is a thing's name.
    const article = indefinite(query);
    // "I'd like to" leads in; "like the snippet" reacts to it.
    const skip = (k: number) =>
      LEAD_IN.has(ws[k]) ||
      // "let's have a tag on main".
      (ws[k] === 'have' && article) ||
      (ws[k] === 'like' && ['would', 'id', 'i', 'we'].includes(ws[k - 1])) ||
      (ws[k] === 'how' && ['do', 'to', 'can', 'should', 'would'].includes(ws[k + 1])) ||
      // "time to archive the legacy project".
      (ws[k] === 'time' && ws[k + 1] === 'to');
    while (i < ws.length - 1 && skip(i)) i += ws[i] === 'how' || ws[i] === 'time' ? 2 : 1;
    const first = ws[i];
    let operations: Record<string, number> = QUESTION;
    let strength = NO_VERB_STRENGTH;
    let verbAt = -1;
    let lateAt = -1;
    let actsOnSomeone = false;
    // "have issue 12 assigned to alice": what it is to have done (not "have I approved it", "have they been ...").
    const caused =
      first === 'have' && !HAVE_ASKED.test(query) && !ws.includes('been')
        ? ws.findIndex(
            (w, k) => k > i + 1 && w.endsWith('ed') && !isPluralWord(ws[k + 1] ?? '') && this.doneBy(w),
          )
        : -1;
    if (caused > 0) {
      operations = this.deferred(ws[caused])!;
      strength = 1;
      lateAt = caused;
    } else if (first && QUESTION_WORDS.has(first)) {
      const next = ws[i + 1];
      operations = first === 'how' && (next === 'many' || next === 'much') ? HOW_MANY : QUESTION;
      strength = 1;
    } else if (
      first &&
      ((article &&
        (this.objectWords.has(stem(first)) ||
          !READ_OPERATIONS.has(strongestOf(REQUEST_VERBS[first] ?? { [first]: 1 })))) ||
        this.compounds.has(`${stem(first)} ${stem(ws[i + 1] ?? '')}`) ||
        (STATE_WORDS.has(first) && ws.slice(i + 1, i + 4).some(isPluralWord)))
    ) {
      // "open MRs in the group": a state before the things, not a verb.
      // "merge requests waiting for ...": the first word starts a thing's name, not a verb.
    } else if (first && REQUEST_VERBS[first]) {
      operations = REQUEST_VERBS[first];
      strength = 1;
      verbAt = i;
    } else if (first && this.actionVerbs.has(first) && !NOT_OPERATIONS.has(first)) {
      operations = { [first]: 1 };
      strength = 1;
      verbAt = i;
    }
    // "The group secret needs a new value", "branch x should be deleted": a verbless request's verb (or a
    // request that starts with a thing's name), said after its object; "x no longer ..." undoes.
    if (strength < 1 || (verbAt >= 0 && this.objectWords.has(stem(ws[verbAt])))) {
      const k = ws.findIndex(
        (w, j) =>
          j > i &&
          ((DEFERRING_WORDS.has(w) && !(w === 'can' && RELATIVES.has(ws[j - 1]))) ||
            // "I want issue 4 to be confidential".
            (w === 'to' && ws[j + 1] === 'be') ||
            (w === 'longer' && ws[j - 1] === 'no')),
      );
      let j = k + 1;
      // "shouldn't be archived", "should not be public": the state is to be undone.
      let negated = k > 0 && NEGATED_MODALS.has(ws[k]);
      while (k > 0 && j < ws.length && (DEFERRED_FILLERS.has(ws[j]) || ws[j] === 'not'))
        if (ws[j++] === 'not') negated = true;
      // "Pipeline 9 is stuck, kill it": a verb acting on "it" later on.
      const acting = ws.findIndex(
        (w, m) => m > i && PRONOUNS.has(ws[m + 1] ?? '') && (REQUEST_VERBS[w] || this.actionVerbs.has(w)),
      );
      // "MR 14 should target develop", "the snippet needs to be public", "the page should say ...": what the
      // thing must become (a state, or words it must read) asks for it to be changed; a verb said so changes
      // the thing it names ("the badge should link to the new dashboard", "the epic should start in April"),
      // unless said as the state it must be put in ("should be protected").
      const obliged =
        k > 0 &&
        j < ws.length &&
        (OBLIGING_WORDS.has(ws[k]) || ws[k] === 'to' || (HAVE.has(ws[k]) && ws[k + 1] === 'to')) &&
        !RELATIVES.has(ws[k - 1]);
      // "needs a link to the binary": after an article, the word is a thing's name even if a verb's too.
      const needsOne = obliged && NEEDS_ONE.test(query);
      const said =
        k > 0
          ? ws[k] === 'longer' || (GOING_WORDS.has(ws[j]) && !TOWARDS.has(ws[j + 1] ?? ''))
            ? NO_LONGER
            : needsOne
              ? undefined
              : this.deferred(ws[j])
          : undefined;
      // "project 5 needs a README", "the wiki needs a page on deployment": a thing it lacks is made.
      const lacks = needsOne && this.namesThing(ws[j]) ? NEW_ONE : undefined;
      const actingOps = acting > 0 ? (REQUEST_VERBS[ws[acting]] ?? { [ws[acting]]: 1 }) : undefined;
      // "take him out of project 2": a person acted on.
      actsOnSomeone = acting > 0 && PEOPLE_PRONOUNS.has(ws[acting + 1]);
      const undone = said && negated ? `un${strongestOf(said)}` : '';
      const late =
        (said && obliged
          ? READ_OPERATIONS.has(strongestOf(said))
            ? CHANGED
            : this.actionVerbs.has(undone)
              ? { [undone]: 1 }
              : negated
                ? CHANGED
                : // "should be a draft", "should be open": a state named, not a verb done.
                  // A state no action of the thing's own puts it in ("the variable has to be protected") is
                  // a change of it.
                  PASSIVE.has(ws[j - 1]) && (!BARE.test(ws[j]) || SAME_PARTICIPLES.has(ws[j]))
                  ? CREATE_OR_DELETE.has(strongestOf(said))
                    ? said
                    : accept({ [strongestOf(said)]: 1 }, scaled(CHANGED, STATE_AS_CHANGE))
                  : accept(scaled(said, OBLIGED_VERB_SHARE), CHANGED)
          : said) ??
        actingOps ??
        lacks ??
        (obliged ? CHANGED : undefined) ??
        described(
          ws,
          i,
          article,
          verbAt >= 0,
          article ? this.madeAs(ws[first === 'an' ? i + 1 : i], ws) : undefined,
        );
      if (late) {
        operations = late;
        strength = 1;
        verbAt = -1;
        // Someone who leaves is a member removed.
        actsOnSomeone ||= late === LEAVING;
        // The verb said late names the operation, as a leading one does, not the thing.
        lateAt = said && ws[k] !== 'longer' ? j : late === actingOps ? acting : -1;
      }
    }
    // "MR 7 - approve", "pipeline 12 retry pls": terse, the verb said last, right after the thing's number (not
    // "force a mirror update now": there it names a thing).
    if (strength < 1 || (verbAt >= 0 && this.objectWords.has(stem(ws[verbAt])))) {
      let last = ws.length - 1;
      while (last > i && (LEAD_IN.has(ws[last]) || STOP_WORDS.has(ws[last]) || TRAILING.has(ws[last])))
        last--;
      const w = ws[last];
      const value = ws[last - 1] ?? '';
      // A word naming a thing, alone or after the word before it ("merge request").
      const thingWord = (x: string, prev: string) =>
        this.objectWords.has(stem(x)) || this.compounds.has(`${stem(prev)} ${stem(x)}`);
      // "issue 5 close": after the thing's number, a verb that also names a thing ("close") is still the verb.
      const afterValue =
        last > i + 1 &&
        /\d/.test(value) &&
        (!this.objectWords.has(stem(w)) || !READ_OPERATIONS.has(strongestOf(REQUEST_VERBS[w] ?? {})));
      // "project access token create", "tag v3 delete": keywords, the thing's words then the verb, no article
      // between (a verb that is also a thing's everyday name, "job log", "issue comment", stays a thing, as does
      // the last word of a thing's two-word name, "merge request").
      // A verb that is also a thing's everyday name is the verb when that thing is named already ("pipeline
      // schedule run": the run is the pipeline's), or when it names a thing only of other things ("milestone
      // close": closed issues are a merge request's, and a closed state no milestone action's ID names).
      const before = new Set(ws.slice(i, last).map(stem));
      const keywords =
        last > i &&
        !/\ban?\b/i.test(query) &&
        (this.objectWords.has(stem(ws[i])) ||
          this.compounds.has(`${stem(ws[i])} ${stem(ws[i + 1])}`) ||
          (this.titleWords().has(stem(ws[i])) && !this.isVerb(ws[i]))) &&
        !(
          this.compounds.has(`${stem(ws[last - 1])} ${stem(w)}`) ||
          (this.objectWords.has(stem(w)) && this.partOf(stem(w), before))
        ) &&
        (SYNONYMS[w] ?? CATALOG_NAMES[w] ?? []).every((name) =>
          tokens(name).every((t) => before.has(t) || t === stem(w) || !this.partOf(t, before)),
        ) &&
        ws
          .slice(i + 1, last)
          .every((x, k) => !STOP_WORDS.has(x) && (!this.isVerb(x) || thingWord(x, ws[i + k])));
      if ((afterValue || keywords) && this.isVerb(w)) {
        operations = REQUEST_VERBS[w] ?? { [w]: 1 };
        strength = 1;
        verbAt = -1;
        lateAt = last;
      } else if (
        verbAt === i &&
        last > i &&
        // A verb making the thing it names (release, commit, tag, branch), not one acting on another (close).
        (REQUEST_VERBS[ws[i]]?.create ?? 0) >= MADE_BY_VERB &&
        !/\ban?\b/i.test(query) &&
        ws
          .slice(i + 1, last + 1)
          .every(
            (x, k) =>
              !/\d/.test(x) &&
              !STOP_WORDS.has(x) &&
              !BEFORE_VALUES.has(x) &&
              (thingWord(x, ws[i + k]) || (this.titleWords().has(stem(x)) && !this.isVerb(x))),
          )
      ) {
        // "release asset links", "commit diff": keywords naming a thing, its first word a verb too: read it.
        operations = QUESTION;
        strength = NO_VERB_STRENGTH;
        verbAt = -1;
      }
    }
    // "nightly builds at midnight on main", "run the pipeline every monday at 6am": a run said to recur (not
    // "the nightly schedule", one that exists) is a schedule to make.
    const recurs = recursAt(ws, strength < 1 || RUN_VERBS.has(ws[verbAt] ?? ''));
    if (recurs) {
      operations = NEW_ONE;
      strength = 1;
    }
    const terms = new Map<string, number>();
    const groups: Array<Map<string, number>> = [];
    let group = new Map<string, number>();
    const add = (t: string, w: number) => {
      if (!this.idf.has(t) || (terms.has(t) && !group.has(t))) return;
      if (w > (terms.get(t) ?? 0)) terms.set(t, w);
      if (w > (group.get(t) ?? 0)) group.set(t, w);
    };
    // "the hook that posts to our chat should use a new URL": what the thing does only says which one it is.
    const clause = describingClause(ws, i);
    let plural = false;
    let afterPlural = false;
    // "show me issue 17": the one it is for is not what is asked for.
    const forMe = verbAt >= 0 && ['me', 'us'].includes(ws[verbAt + 1]) ? verbAt + 1 : -1;
    const typed: string[] = [];
    ws.forEach((w, k) => {
      const singular = singularOf(w);
      const named = k === verbAt ? undefined : (CATALOG_NAMES[w] ?? CATALOG_NAMES[singular]);
      const implied = k === verbAt ? VERB_OBJECTS[w] : (SYNONYMS[w] ?? SYNONYMS[singular]);
      if (k < i || k === forMe || (STOP_WORDS.has(w) && !implied)) return;
      const s = stem(w);
      if (!STOP_WORDS.has(w)) typed.push(s);
      const isPlural = k !== verbAt && isPluralWord(w);
      // "issues labeled bug", "closed issues": a state or participle beside the things asked for filters them.
      // "mark the merge request as draft": what a thing is made is a value given, not a thing to find.
      const filter =
        (afterPlural && w.endsWith('ed')) ||
        STATE_WORDS.has(w) ||
        (ws[k - 1] === 'as' && verbAt >= 0 && k > verbAt + 2);
      afterPlural = isPlural;
      plural ||= isPlural;
      const weight =
        (filter
          ? FILTER_WEIGHT
          : (k === verbAt || k === lateAt) && !this.objectWords.has(s)
            ? VERB_TERM_WEIGHT
            : (WEAK_WORDS[w] ?? 1)) * (k > clause[0] && k < clause[1] ? DESCRIBING_WEIGHT : 1);
      groups.push((group = new Map()));
      if (!STOP_WORDS.has(w)) add(s, named ? weight * SYNONYM_WEIGHT : weight);
      for (const name of named ?? []) for (const t of tokens(name)) add(t, weight);
      for (const syn of implied ?? []) for (const t of tokens(syn)) add(t, Math.min(weight, SYNONYM_WEIGHT));
    });
    if (recurs) {
      groups.push((group = new Map()));
      add(stem('schedule'), SYNONYM_WEIGHT);
    }
    if (actsOnSomeone) {
      groups.push((group = new Map()));
      for (const t of PERSON) add(t, PERSON_WEIGHT);
    }
    if (ws.some((w) => MANY_WORDS.has(w))) plural = true;
    // "set MR 5 to merge when ...": an operation after "to" is what the request asks done.
    const then = verbAt >= 0 ? ws.findIndex((w, k) => k > verbAt + 1 && w === 'to') : -1;
    const next = then > 0 ? ws[then + 1] : undefined;
    const named = next && this.compounds.has(`${stem(next)} ${stem(ws[then + 2] ?? '')}`);
    if (
      next &&
      !named &&
      (this.actionVerbs.has(next) || REQUEST_VERBS[next]) &&
      !this.objectWords.has(stem(next))
    )
      for (const [op, weight] of Object.entries(REQUEST_VERBS[next] ?? { [next]: 1 }))
        operations = { ...operations, [op]: Math.max(operations[op] ?? 0, weight) };
    // "put the description of MR 3 to ...", "give issue 6 a weight of 3": a property of a thing there already,
    // made or given, changes that thing.
    if (verbAt >= 0 && this.setsProperty(ws, verbAt) && KINDS_CREATE.has(strongestOf(operations)))
      operations = accept(scaled(operations, PROPERTY_MADE), CHANGED);
    // "create a protected branch", "add a protected environment": making one in a state an action of its own puts
    // such a thing in is that action.
    if (verbAt >= 0 && KINDS_CREATE.has(strongestOf(operations))) {
      let k = verbAt + 1;
      while (k < ws.length && DETERMINERS.has(ws[k])) k++;
      const made = this.madeAs(ws[k], ws);
      if (made) operations = made;
    }
    // "add a comment", "leave a reply": after a light verb, a noun that is itself an operation names it.
    if (verbAt >= 0 && LIGHT_VERBS.has(ws[verbAt])) {
      let k = verbAt + 1;
      while (k < ws.length && DETERMINERS.has(ws[k])) k++;
      // "add an issue comment": the thing's name before the noun says whose it is.
      while (k + 1 < ws.length && this.objectWords.has(stem(ws[k])) && !STOP_WORDS.has(ws[k + 1])) k++;
      const noun = ws[k] === undefined ? undefined : stem(ws[k]);
      if (noun && !this.objectWords.has(noun)) {
        // The noun is an operation ("a comment") or a verb the tables know ("a thumbs-up": a reaction).
        const named = this.actionVerbs.has(noun) ? { [noun]: 1 } : (REQUEST_VERBS[ws[k]] ?? {});
        for (const [op, weight] of Object.entries(named))
          if (!REQUEST_VERBS[ws[verbAt]]?.[op])
            operations = { ...operations, [op]: Math.max(operations[op] ?? 0, weight * LIGHT_VERB_NOUN) };
      }
    }
    // "restore the archived project", "lift the ban": the operation undoing the state named.
    if (verbAt >= 0 && REVERSING_VERBS.has(ws[verbAt]))
      for (const w of ws.slice(verbAt + 1)) {
        const undo = [
          `un${w}`,
          `un${w.replace(/e?d$/, '')}`,
          `un${w.replace(/d$/, '')}`,
          `un${w.replace(/ed$/, '')}`,
          `un${w.replace(/ing$/, 'e')}`,
          `un${stem(w)}`,
        ].find((op) => this.actionVerbs.has(op));
        // The state named says what is undone: its own operation goes before the verb's others, and is
        // searched as a word too ("restore the archived project": Unarchive project).
        if (undo) {
          operations = {
            ...scaled(operations, UNDONE_SHARE),
            [undo]: 1,
          };
          groups.push((group = new Map()));
          add(stem(undo), 1);
        }
      }
    for (const w of ws)
      for (const [op, weight] of Object.entries(OPERATION_HINTS[w] ?? {}))
        operations = { ...operations, [op]: Math.max(operations[op] ?? 0, weight) };
    // Asked to read something plural ("show the pipelines of ..."): a list answers it best.
    // Without a verb ("branches of project 7"), the plural says even more surely that a list is asked for.
    if (plural && (operations.get ?? 0) >= 0.8 && (operations.list ?? 0) < 1)
      operations = {
        ...operations,
        list: 1,
        search: Math.max(operations.search ?? 0, 0.8),
        get: strength < 1 ? VERBLESS_PLURAL_GET : 0.8,
      };
    const pairs = typed.slice(1).map((t, k) => `${typed[k]} ${t}`);
    const verb = verbAt < 0 ? undefined : ws[verbAt];
    // "issue 3", "job 41": the thing an ID is given for.
    const identified = new Set<string>();
    const numbered = new Set<string>();
    ws.forEach((w, k) => {
      if (k > 0 && ID_VALUE.test(w) && !ID_VALUE.test(ws[k - 1])) {
        identified.add(stem(ws[k - 1]));
        numbered.add(stem(ws[k - 1]));
      }
      // "show the epic", "the Q3 milestone": one the asker has in mind (its ID is theirs to give).
      if ((DEFINITE.has(ws[k - 1] ?? '') || DEFINITE.has(ws[k - 2] ?? '')) && !isPluralWord(w))
        identified.add(stem(w));
    });
    let target: Set<string> | undefined;
    const strongest = strongestOf(operations);
    if (
      verb &&
      (CREATE_OR_DELETE.has(strongest) || ['set', 'turn', 'enable', 'disable'].includes(strongest))
    ) {
      const at = ws.findIndex((w, k) => k > verbAt + 1 && TARGET_PREPOSITIONS.has(w));
      if (at > 0) {
        // A word the catalog never uses, added to or removed from a thing, is most often someone's name.
        if (
          ws.slice(verbAt + 1, at).some((w) => !STOP_WORDS.has(w) && !/\d/.test(w) && !this.idf.has(stem(w)))
        ) {
          groups.push((group = new Map()));
          for (const t of PERSON) add(t, PERSON_WEIGHT);
        }
        target = new Set();
        for (const w of ws.slice(at + 1)) {
          if (STOP_WORDS.has(w)) continue;
          target.add(stem(w));
          for (const syn of SYNONYMS[w] ?? []) for (const t of tokens(syn)) target.add(t);
        }
      }
    }
    const phrase = ws.slice(verbAt >= 0 ? verbAt + 1 : QUESTION_WORDS.has(ws[i]) ? i + 1 : i);
    const head =
      ws[i] === 'who' || ws[i] === 'whom'
        ? WHO
        : // "list pipeline schedules": keywords end with the thing asked for.
          (headOf(phrase, true) ??
          (phrase.length > 1 && phrase.every((w) => !STOP_WORDS.has(w)) ? headOf(phrase, false) : undefined));
    // "binaries of the latest release": a thing no title answers with is asked for by the catalog's names for it
    // too (a release's links).
    const heads = new Set<string>(head && head !== WHO ? [head] : []);
    if (head && head !== WHO && !this.headWords.has(head)) {
      const said = ws.find((w) => stem(w) === head);
      if (said)
        for (const name of [
          ...(CATALOG_NAMES[said] ?? CATALOG_NAMES[singularOf(said)] ?? []),
          ...(SYNONYMS[said] ?? SYNONYMS[singularOf(said)] ?? []),
        ])
          for (const t of nameTokens(name)) heads.add(t);
    }
    const someone =
      ws.some((w) => PERSON_WORDS.has(w)) ||
      ws
        .slice(i)
        .some(
          (w) =>
            !/\d/.test(w) &&
            !STOP_WORDS.has(w) &&
            !this.idf.has(stem(w)) &&
            !SYNONYMS[w] &&
            !CATALOG_NAMES[w] &&
            !REQUEST_VERBS[w],
        );
    return {
      someone,
      terms,
      groups: groups.filter((g) => g.size),
      pairs,
      operations,
      strength,
      plural,
      verb,
      target,
      head,
      heads,
      identified,
      numbered,
      onBranch: ws.some((w) => BRANCH_NAMES.has(w)),
    };
  }

  search(query: string, limit = 5): Array<{ action: FindDoc; score: number }> {
    const exact = this.exact.get(query.trim());
    const {
      terms,
      groups,
      pairs,
      operations,
      strength,
      verb: typedVerb,
      target,
      plural,
      head,
      heads,
      someone,
      identified,
      numbered,
      onBranch,
    } = this.parse(query);
    const content = new Float64Array(this.actions.length);
    // How much of the request each action answers: the weight of the query's terms it holds.
    const answered = new Float64Array(this.actions.length);
    let asked = 0;
    const touched: number[] = [];
    const verbStem = typedVerb && !this.objectWords.has(stem(typedVerb)) ? stem(typedVerb) : undefined;
    // A word and its synonyms are one concept: an action counts the best of them, not their sum.
    for (const group of groups) {
      const best = new Map<number, [number, number]>();
      let most = 0;
      for (const [t, qw] of group) {
        const idf = this.idf.get(t) ?? 0;
        most = Math.max(most, qw * idf);
        for (const [d, s] of this.postings.get(t) ?? []) {
          const got = best.get(d);
          const score = qw * idf * s;
          if (!got) best.set(d, [score, qw * idf]);
          else if (score > got[0]) got[0] = score;
          if (got && qw * idf > got[1]) got[1] = qw * idf;
        }
      }
      asked += most;
      for (const [d, [score, weight]] of best) {
        if (content[d] === 0) touched.push(d);
        content[d] += score;
        answered[d] += weight;
      }
    }
    // Two words in the order typed, as a field holds them, name the thing more surely than each alone.
    for (const pair of pairs) {
      const at = this.pairs.get(pair);
      if (!at) continue;
      const [a, b] = pair.split(' ');
      const idf = ((this.idf.get(a) ?? 0) + (this.idf.get(b) ?? 0)) / 2;
      for (const [d, w] of at) if (content[d] > 0) content[d] += PAIR_WEIGHT * idf * w;
    }
    // Two words typed in a row as people ask for an action name what it acts on.
    const phrased = new Set<number>();
    for (const pair of pairs) for (const d of this.phrased.get(pair) ?? []) phrased.add(d);
    // Whether the request asks to read or to change: its strongest operation says.
    const strongest = strongestOf(operations);
    const readsOnly = strength < 1 || !strongest ? undefined : READ_OPERATIONS.has(strongest);
    // Asked to change many things at once ("publish all my drafts"): the action doing them all answers.
    const many = readsOnly === false && plural;
    const covered = (object: Array<[string, number]>): number => {
      let named = 0;
      let total = 0;
      for (const [t, w] of object) {
        total += w;
        // The verb names the operation, not the thing ("list the boards": not the board's lists).
        // The caller's own is what a request naming nobody means: "current" goes without saying.
        const qw = t === verbStem ? 0 : t === 'current' && !someone ? SYNONYM_WEIGHT : terms.get(t);
        if (qw) named += w * Math.min(1, qw / SYNONYM_WEIGHT);
      }
      return total ? named / total : 1;
    };
    const top: Array<{ d: number; score: number }> = [];
    const keep = (d: number, score: number) => {
      if (top.length === limit && score <= top[limit - 1].score) return;
      let k = top.length < limit ? top.length : limit - 1;
      while (k > 0 && top[k - 1].score < score) k--;
      top.splice(k, 0, { d, score });
      if (top.length > limit) top.pop();
    };
    for (const d of touched) {
      if (d === exact) continue;
      const object = this.objects[d];
      let coverage = Math.max(
        covered(object),
        covered(this.titleObjects[d]),
        this.generic[d] ? GENERIC_COVERAGE : 0,
        phrased.has(d) ? PHRASED_COVERAGE : 0,
      );
      const op = this.operations[d];
      // "compare my branch with main": a verb only this action performs names it, whatever things follow.
      if (verbStem && this.sole.has(op) && stem(op) === verbStem)
        coverage = Math.max(coverage, SOLE_COVERAGE);
      // "submit the review": the title's own verb and name ("Submit review (publish all drafts)").
      const titleName = this.titleNames[d];
      if (titleName && verbStem === stem(op)) coverage = Math.max(coverage, covered(titleName));
      let verb = this.several[d]
        ? Math.max(operations[op] ?? 0, (operations.list ?? 0) * SEVERAL_LISTED)
        : (operations[op] ?? 0);
      let onTarget = 1;
      // "add a label to an issue": the issue is changed, not made; "remove bob from the group": not removed.
      const thing = this.things[d];
      const scope = this.scopes[d];
      if (target && thing.length && thing.every((t) => target.has(t))) {
        if (UPDATE_OPERATIONS.has(op)) verb = Math.max(verb, TARGET_UPDATE);
        else if (CREATE_OR_DELETE.has(op) && op !== typedVerb) onTarget = TARGET_MISMATCH;
      }
      // "what is blocking issue 3", "who deployed to production last": no ID given for the thing this read picks.
      const picking = this.picks[d];
      if (picking && ![...picking].some((t) => identified.has(t)))
        verb = Math.min(verb, (operations.list ?? 0) * UNPICKED_GET);
      // "the pipeline on main is failing": a read picking its thing by an ID the request does not give, asked
      // about a branch, answers less well than the read of that branch's own (the latest pipeline).
      const own = this.ownIds[d];
      const unpicked =
        (onBranch && own && ![...own].some((t) => numbered.has(t)) ? BRANCH_UNPICKED : 1) *
        (numbered.size && READ_OPERATIONS.has(op) && this.unpickable[d]?.some((t) => numbered.has(t))
          ? NUMBERED_UNPICKED
          : 1);
      const mismatch =
        !verb && readsOnly !== undefined && READ_OPERATIONS.has(op) !== readsOnly ? MISMATCH : 1;
      keep(
        d,
        content[d] *
          (COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * coverage) *
          (1 + VERB_LIFT * strength * verb) *
          mismatch *
          onTarget *
          unpicked *
          (head && readsOnly !== false && heads.has(this.heads[d] ?? '') ? HEAD_LIFT : 1) *
          (head === WHO && PEOPLE.has(this.heads[d] ?? '') ? PEOPLE_LIFT : 1) *
          (scope && !terms.has(stem(scope)) ? WIDER_SCOPES[scope] : 1) *
          (many && this.bulk[d] ? BULK_LIFT : 1) *
          (!someone && this.others[d] ? SOMEONE_ELSE_SHARE : 1) *
          (COORD_FLOOR + ((1 - COORD_FLOOR) * answered[d]) / asked) *
          (1 + SIMPLER / (1 + object.length)),
      );
    }
    // An exact canonical ID or tool name wins outright.
    if (exact !== undefined) keep(exact, Infinity);
    return top.map(({ d, score }) => ({ action: this.actions[d], score }));
  }
}
