/**
 * The words people use for the catalog's operations and objects, as tables the ranker (find.ts) reads:
 * the operation a request's verb asks for, the catalog's own words for the everyday names of things,
 * and the abbreviations both sides write.
 */

/**
 * Verbs of more than one word, as the one word the tables know: "get rid of" is deleting, "spin up" creating.
 * The word between a verb and its particle ("kick bob out") is kept.
 */
export const PHRASAL_VERBS: Array<[RegExp, string]> = [
  [/\bget rid of\b/g, 'delete'],
  [/\bspin up\b/g, 'create'],
  [/\broll back\b/g, 'revert'],
  [/\bhook up\b/g, 'setup'],
  [/\bset up\b/g, 'setup'],
  [/\bclean up\b/g, 'cleanup'],
  [/\bkick (\w+ )?out( of)?\b/g, 'remove $1from'],
  [/\bre-(run|try|open|start)\b/g, 're$1'],
];

/** Written either way, on both sides: the catalog's IDs use the short form, people use both. */
export const ABBREVIATIONS: Record<string, string> = {
  mr: 'merge request',
  mrs: 'merge requests',
  pr: 'merge request',
  prs: 'merge requests',
  ff: 'feature flag',
  env: 'environment',
  envs: 'environments',
  pat: 'personal access token',
  pats: 'personal access tokens',
  repo: 'repository',
  repos: 'repositories',
  '2fa': 'two factor',
  attr: 'attribute',
  db: 'database',
  gpg: 'gpg',
  yml: 'yaml',
};

/**
 * An operation's verb as a title starts with it, grouped with the verbs of the same kind; a request's
 * verb (REQUEST_VERBS) names the kinds it accepts. Every title's first word that is a verb appears here.
 */
const KINDS = {
  read: ['get', 'read', 'show', 'check', 'verify', 'preview', 'blame', 'compare', 'render', 'query', 'count'],
  list: ['list', 'search', 'find', 'explore', 'count'],
  create: ['create', 'add', 'register', 'record', 'start', 'invite'],
  update: [
    'update',
    'edit',
    'set',
    'change',
    'modify',
    'rename',
    'configure',
    'turn',
    'mark',
    'move',
    'reorder',
  ],
  // Undoing a state is removing it too: "remove the protection" unprotects.
  delete: [
    'delete',
    'remove',
    'revoke',
    'purge',
    'erase',
    'discard',
    'deny',
    'unlink',
    'unassign',
    'bulk',
    'unprotect',
    'unarchive',
    'unstar',
    'unsubscribe',
    'unshare',
    'unblock',
    'unban',
    'unapprove',
    'unpublish',
    'unlock',
  ],
} as const;

type Weights = Record<string, number>;

/** Operations that make or remove a thing, and those that change one in place. */
export const CREATE_OR_DELETE = new Set<string>([
  ...KINDS.create,
  'delete',
  'remove',
  'erase',
  'purge',
  'discard',
  'bulk',
]);
export const UPDATE_OPERATIONS = new Set<string>(KINDS.update);

/**
 * "add X to Y", "remove X from Y", "set X on Y": the words after one of these name the thing changed (Y),
 * which is then neither made nor removed but updated.
 */
export const TARGET_PREPOSITIONS = new Set(['to', 'from', 'on', 'onto', 'into', 'in', 'for']);

/** The operations that only read: asking to read, an action that writes answers worse, and the other way round. */
export const READ_OPERATIONS = new Set<string>([
  ...KINDS.read,
  ...KINDS.list,
  'download',
  'export',
  'wait',
  'test',
]);

/** The verbs of `kind`, each at weight `w` (a request's verb accepts a whole kind less strongly). */
function kind(k: keyof typeof KINDS, w: number): Weights {
  return Object.fromEntries(KINDS[k].map((v) => [v, w]));
}

/** Merges weight tables, the strongest weight of a verb winning. */
function accept(...tables: Weights[]): Weights {
  const out: Weights = {};
  for (const t of tables) for (const [v, w] of Object.entries(t)) out[v] = Math.max(out[v] ?? 0, w);
  return out;
}

const READ = accept(kind('read', 0.8), kind('list', 0.7), { get: 1, show: 1, download: 0.7 });
const LIST = accept(kind('list', 0.9), kind('read', 0.4), { list: 1 });
const CREATE = accept(kind('create', 0.8), { create: 1, add: 0.95 });
const UPDATE = accept(kind('update', 0.8), { update: 1, edit: 1, change: 0.95, modify: 0.95 });
const DELETE = accept(kind('delete', 0.8), { delete: 1, remove: 1 });
const SET = accept(kind('update', 0.8), kind('create', 0.6), { set: 1, setup: 0.9, update: 0.9 });
const ENABLE = accept(SET, { turn: 1, enable: 1, allow: 0.8, assign: 0.6, activate: 0.7 });
const DISABLE = accept(kind('update', 0.6), { turn: 1, disable: 1, delete: 0.6, remove: 0.6, unassign: 0.7 });
const RUN = { run: 1, trigger: 0.8, play: 1, start: 0.8, create: 0.7, retry: 0.4 };

/** A verb of its own kind: its own operation first, the rest of the kind after. */
function own(verb: string, k: keyof typeof KINDS, w = 0.6): Weights {
  return accept(kind(k, w), { [verb]: 1 });
}

/**
 * A request's leading verb: the operations (a title's first word) it asks for, with how well each
 * answers it. A verb not listed here asks for the operation of the same name.
 */
export const REQUEST_VERBS: Record<string, Weights> = {
  get: READ,
  show: READ,
  view: READ,
  see: READ,
  display: READ,
  read: READ,
  fetch: accept(READ, { download: 0.8 }),
  open: accept(CREATE, { get: 0.5 }),
  check: accept(READ, { check: 1, verify: 0.9, validate: 0.8 }),
  inspect: READ,
  describe: READ,
  list: LIST,
  find: accept(LIST, { search: 1, find: 1, get: 0.6 }),
  search: accept(LIST, { search: 1 }),
  look: accept(LIST, { search: 1, find: 1, get: 0.7 }),
  browse: accept(LIST, { explore: 1 }),
  explore: accept(LIST, { explore: 1 }),
  count: { count: 1, get: 0.6, list: 0.5 },
  create: CREATE,
  add: accept(CREATE, { allow: 0.7, assign: 0.6, log: 0.6, apply: 0.6, update: 0.5 }),
  new: CREATE,
  make: accept(CREATE, UPDATE, { create: 0.9, mark: 0.8 }),
  file: CREATE,
  raise: CREATE,
  submit: accept(CREATE, { submit: 1, publish: 0.8 }),
  register: own('register', 'create', 0.8),
  record: own('record', 'create', 0.8),
  schedule: accept(CREATE, { start: 0.8 }),
  leave: accept(CREATE, { comment: 0.9 }),
  attach: accept(CREATE, { upload: 0.9, link: 0.8 }),
  give: accept(CREATE, { allow: 0.9, award: 0.9, invite: 0.8 }),
  grant: accept(CREATE, { allow: 0.9, award: 0.9, invite: 0.8 }),
  set: SET,
  configure: accept(SET, { configure: 1, setup: 1 }),
  setup: { setup: 1, configure: 1, create: 0.95, add: 0.9, set: 0.9, update: 0.6, turn: 0.6 },
  update: UPDATE,
  edit: UPDATE,
  change: UPDATE,
  modify: UPDATE,
  rename: own('rename', 'update', 0.8),
  close: accept(UPDATE, { stop: 0.5 }),
  reopen: UPDATE,
  lock: own('lock', 'update', 0.8),
  unlock: own('unlock', 'update', 0.8),
  mark: own('mark', 'update', 0.8),
  label: UPDATE,
  estimate: SET,
  enable: ENABLE,
  activate: accept(ENABLE, { activate: 1 }),
  turn: ENABLE,
  disable: DISABLE,
  deactivate: accept(DISABLE, { deactivate: 1 }),
  move: { move: 1, transfer: 1, update: 0.5, reorder: 0.6 },
  request: { request: 1, update: 0.6, add: 0.5 },
  migrate: { import: 1, start: 0.9, move: 0.6 },
  kill: { cancel: 1, stop: 0.9 },
  nuke: DELETE,
  trash: DELETE,
  wipe: DELETE,
  scrap: DELETE,
  ditch: DELETE,
  ping: { test: 1, check: 0.8 },
  cut: { create: 1, publish: 0.8, add: 0.8 },
  bookmark: { star: 1 },
  pin: { keep: 1 },
  keep: { keep: 1 },
  preserve: { keep: 1 },
  favorite: { star: 1 },
  put: { add: 1, create: 0.7, set: 0.7, move: 0.5 },
  bump: UPDATE,
  tweak: UPDATE,
  require: accept(SET, { create: 0.8, change: 0.9 }),
  enforce: accept(SET, { create: 0.8, change: 0.9 }),
  revert: { revert: 1 },
  branch: CREATE,
  tag: CREATE,
  commit: CREATE,
  push: { push: 1, create: 0.8 },
  protect: { protect: 1, create: 0.6 },
  unprotect: { unprotect: 1, delete: 0.6 },
  transfer: { transfer: 1, move: 1 },
  assign: accept(UPDATE, { assign: 1, add: 0.7, enable: 0.6 }),
  delete: DELETE,
  remove: DELETE,
  drop: DELETE,
  destroy: DELETE,
  erase: own('erase', 'delete'),
  purge: own('purge', 'delete'),
  discard: own('discard', 'delete'),
  clean: own('purge', 'delete', 0.8),
  cleanup: own('purge', 'delete', 0.8),
  prune: own('purge', 'delete', 0.8),
  revoke: own('revoke', 'delete'),
  unlink: own('unlink', 'delete'),
  unassign: accept(own('unassign', 'delete'), { disable: 0.7 }),
  log: { log: 1, add: 0.9, record: 0.6, create: 0.5 },
  track: { log: 0.9, add: 0.8, track: 1 },
  spend: { log: 1, add: 0.9 },
  publish: { publish: 1, create: 0.95, submit: 0.8, upload: 0.7, add: 0.6 },
  release: { publish: 1, create: 0.9 },
  upload: { upload: 1, publish: 0.8, add: 0.7, create: 0.6, set: 0.6 },
  download: { download: 1, get: 0.5, read: 0.5 },
  export: { export: 1, start: 0.8, download: 0.5 },
  import: { import: 1, start: 0.5 },
  run: RUN,
  execute: RUN,
  trigger: { ...RUN, trigger: 1 },
  start: accept(RUN, { start: 1 }),
  play: RUN,
  kick: RUN,
  retry: { retry: 1, run: 0.5, resend: 0.5 },
  rerun: { retry: 1, run: 0.5 },
  restart: { retry: 1, run: 0.5 },
  cancel: { cancel: 1, stop: 0.8 },
  abort: { cancel: 1, stop: 0.8 },
  stop: { stop: 1, cancel: 0.9, unsubscribe: 0.5, turn: 0.5, disable: 0.5 },
  watch: { subscribe: 1 },
  unwatch: { unsubscribe: 1 },
  follow: { subscribe: 1 },
  mute: { unsubscribe: 1, update: 0.5 },
  comment: { comment: 1, start: 0.7, reply: 0.6, add: 0.5, create: 0.5 },
  reply: { reply: 1, comment: 0.7 },
  respond: { reply: 1, comment: 0.7 },
  react: { react: 1, add: 0.6 },
  squash: { merge: 1 },
  accept: { merge: 0.8, approve: 0.8 },
  unapprove: { revoke: 1, unapprove: 1, reset: 0.5 },
  validate: { validate: 1, check: 0.8, verify: 0.8 },
  verify: { verify: 1, check: 0.9, get: 0.5 },
  test: { test: 1, check: 0.6, validate: 0.6 },
  apply: { apply: 1, add: 0.7, set: 0.6, cherrypick: 0.6 },
  undo: { revert: 1, reset: 0.6, delete: 0.4 },
  tear: { stop: 1, delete: 0.8 },
  reactivate: { activate: 1, unblock: 0.7, unban: 0.7 },
  award: { award: 1, add: 0.7 },
  reset: { reset: 1 },
  approve: { approve: 1 },
  archive: { archive: 1 },
  star: { star: 1 },
  subscribe: { subscribe: 1 },
  block: { block: 1 },
  ban: { ban: 1 },
  link: { link: 1, add: 0.6 },
  rotate: { rotate: 1, renew: 0.8, reset: 0.6 },
  renew: { renew: 1, rotate: 0.8 },
  regenerate: { renew: 1, rotate: 1, reset: 0.8 },
  share: { share: 1, invite: 0.8 },
  unshare: { stop: 1, remove: 0.9, delete: 0.8 },
  invite: { invite: 1, add: 0.8, share: 0.6 },
  sync: { sync: 1 },
  compare: { compare: 1, get: 0.5 },
  diff: { compare: 1, get: 0.6 },
  blame: { blame: 1 },
  restore: { restore: 1, revert: 0.5 },
  cherrypick: { cherrypick: 1 },
  cherry: { cherrypick: 1 },
  pick: { cherrypick: 1 },
};

/**
 * What a verb implies about its object beside the operation: commenting adds a note, reacting an emoji.
 * (A verb's other synonyms are not searched: "change" as a verb is not a diff.)
 */
export const VERB_OBJECTS: Record<string, string[]> = {
  rename: ['name', 'title'],
  comment: ['note', 'discussion', 'comment'],
  reply: ['note', 'discussion', 'reply'],
  respond: ['note', 'discussion', 'reply'],
  react: ['emoji', 'reaction'],
  log: ['time', 'spent'],
  spend: ['time', 'spent'],
  estimate: ['time', 'estimate'],
  schedule: ['schedule'],
  watch: ['subscribe'],
  unwatch: ['unsubscribe'],
};

/** Words anywhere in a request that ask for an operation of their own: doing it "again" retries. */
export const OPERATION_HINTS: Record<string, Weights> = { again: { retry: 1, resend: 0.8 } };

/**
 * Scopes wider than a project: an action for one ("List group webhooks") answers a request that names no
 * scope less well than the project's own, which is what people mean by default.
 */
export const WIDER_SCOPES: Record<string, number> = { group: 0.85, instance: 0.8 };

/** Words that open a question; a question reads (who approved, what changed, how many...). */
export const QUESTION_WORDS = new Set([
  'who',
  'whom',
  'whose',
  'what',
  'whats',
  'which',
  'when',
  'where',
  'why',
  'how',
  'is',
  'are',
  'was',
  'were',
  'does',
  'did',
  'has',
  'have',
]);

/** Asked as a question or with no verb at all: a read. */
export const QUESTION = READ;

/** "How many": a count first. */
export const HOW_MANY = accept(READ, { count: 1 });

/** Politeness and framing before the verb: "please", "I want to", "can you", "help me"... */
export const LEAD_IN = new Set([
  'please',
  'pls',
  'i',
  'id',
  'we',
  'want',
  'wanna',
  'need',
  'would',
  'like',
  'to',
  'can',
  'could',
  'you',
  'help',
  'me',
  'us',
  'lets',
  'let',
  'go',
  'ahead',
  'and',
  'just',
  'quickly',
  'also',
  'now',
]);

/** Words that carry no meaning for the search. */
export const STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'of',
  'for',
  'to',
  'in',
  'on',
  'at',
  'our',
  'your',
  'this',
  'that',
  'these',
  'those',
  'it',
  'its',
  'is',
  'are',
  'be',
  'and',
  'or',
  'with',
  'by',
  'from',
  'into',
  'onto',
  'i',
  'do',
  'does',
  'did',
  'please',
  'can',
  'you',
  'some',
  'me',
  'we',
  'us',
  'so',
  'as',
  'about',
  'any',
  'there',
  'then',
  'them',
  'they',
  'was',
  'were',
  'which',
  'what',
  'whats',
  'who',
  'how',
  'when',
  'why',
  'where',
  'will',
  'would',
  'should',
  'want',
  'need',
  'using',
  'via',
  'up',
  'have',
  'has',
  'had',
  'use',
  'used',
  'details',
  'info',
  'information',
]);

/** Words that hint rather than name: they count this much. */
export const WEAK_WORDS: Record<string, number> = { me: 0.8, my: 0.8, all: 0.2, every: 0.2 };

/** States a list is filtered by ("list open issues", "failed pipelines"): they narrow the list, not name it. */
export const STATE_WORDS = new Set([
  'open',
  'opened',
  'closed',
  'merged',
  'failed',
  'failing',
  'running',
  'pending',
  'active',
  'archived',
  'locked',
  'recent',
  'stale',
  'successful',
]);

/** Words that ask for many things, as a plural does: a list answers them. */
export const MANY_WORDS = new Set(['all', 'every', 'history']);

/**
 * Everyday names for what the catalog calls otherwise: searched as the catalog's words, the word as typed
 * counting less (a CI/CD secret is a variable, not the secret of an upload link).
 */
export const CATALOG_NAMES: Record<string, string[]> = {
  ticket: ['issue'],
  bug: ['issue'],
  secret: ['variable'],
  everyone: ['member', 'user'],
  everybody: ['member', 'user'],
  profile: ['user'],
};

/**
 * The catalog's words for the everyday names of things and of what happened to them. The words on the
 * right are searched beside the word itself (at a lower weight than the word as typed).
 */
export const SYNONYMS: Record<string, string[]> = {
  pull: ['merge'],
  ci: ['pipeline', 'ci'],
  cicd: ['ci', 'pipeline'],
  build: ['pipeline', 'job'],
  builds: ['pipeline', 'job'],
  repository: ['project', 'repository'],
  task: ['issue', 'work item'],
  comment: ['note', 'discussion', 'comment'],
  comments: ['note', 'discussion', 'comment'],
  thread: ['discussion', 'thread'],
  threads: ['discussion', 'thread'],
  conversation: ['discussion'],
  reply: ['note', 'discussion', 'reply'],
  emoji: ['emoji', 'reaction'],
  reaction: ['emoji', 'react'],
  log: ['trace', 'log'],
  logs: ['trace', 'log'],
  output: ['trace', 'log'],
  console: ['trace', 'log'],
  fail: ['trace', 'failed'],
  failed: ['failed', 'trace'],
  failing: ['failed'],
  contents: ['file', 'raw', 'content'],
  content: ['file', 'raw', 'content'],
  folder: ['tree', 'directory'],
  directory: ['tree', 'directory'],
  browse: ['tree'],
  approved: ['approval', 'approve'],
  approver: ['approval', 'approve'],
  approvers: ['approval', 'approve'],
  approving: ['approval', 'approve'],
  reviewer: ['reviewer', 'review'],
  review: ['reviewer', 'review'],
  me: ['my', 'current'],
  myself: ['current', 'user'],
  whoami: ['current', 'user'],
  teammates: ['member'],
  people: ['member', 'user'],
  username: ['user', 'username'],
  readme: ['file'],
  dockerfile: ['file', 'dockerfile'],
  owner: ['member', 'role'],
  maintainer: ['member', 'role'],
  developer: ['member', 'role'],
  reporter: ['member', 'role'],
  guest: ['member', 'role'],
  my: ['current'],
  again: ['retry'],
  between: ['compare'],
  last: ['latest', 'last'],
  main: ['branch'],
  master: ['branch'],
  develop: ['branch'],
  makefile: ['file'],
  someone: ['member', 'user'],
  participating: ['participant'],
  participated: ['participant'],
  involved: ['participant'],
  starred: ['starrer', 'star'],
  variable: ['variable'],
  env: ['environment', 'variable'],
  changes: ['diff', 'change'],
  changed: ['diff', 'change', 'compare', 'history'],
  change: ['diff', 'change'],
  diff: ['diff', 'change', 'patch'],
  diffs: ['diff', 'change'],
  patch: ['patch', 'diff', 'raw'],
  history: ['commit', 'history', 'event'],
  status: ['status', 'state'],
  webhook: ['hook', 'webhook'],
  webhooks: ['hook', 'webhook'],
  hooks: ['hook'],
  spent: ['spent', 'time'],
  minutes: ['time', 'spent'],
  days: ['time'],
  due: ['due', 'date'],
  deadline: ['due', 'date'],
  close: ['close', 'closing', 'state'],
  closes: ['close', 'closing'],
  closed: ['close', 'state'],
  private: ['visibility'],
  public: ['visibility'],
  internal: ['visibility'],
  visibility: ['visibility'],
  unsigned: ['sign', 'signature', 'commit'],
  signed: ['signature', 'sign'],
  binary: ['asset', 'link', 'package'],
  asset: ['asset', 'link'],
  assets: ['asset', 'link'],
  deployed: ['deployment', 'deploy'],
  notifications: ['notification', 'subscribe'],
  notified: ['notification', 'subscribe'],
  notification: ['notification'],
  schedule: ['schedule'],
  yaml: ['yaml', 'ci'],
  todo: ['todo'],
  todos: ['todo'],
  signup: ['pending', 'user'],
  member: ['member'],
  belong: ['membership', 'member'],
  belongs: ['membership', 'member'],
  role: ['role', 'member', 'access level'],
  languages: ['language'],
  sbom: ['sbom', 'export', 'dependency'],
  instance: ['instance', 'admin'],
  connection: ['connection', 'health'],
  graph: ['orbit', 'graph'],
  tests: ['test', 'report'],
  results: ['report'],
  statistics: ['statistic'],
  stats: ['statistic'],
  housekeeping: ['housekeeping'],
  allowlist: ['allowlist', 'scope'],
  migrate: ['import', 'migration'],
  migration: ['migration', 'import'],
  order: ['reorder'],
  sort: ['reorder'],
  avatar: ['avatar'],
  picture: ['avatar'],
  photo: ['avatar'],
  blocking: ['dependency', 'block'],
  blocked: ['dependency', 'block'],
  depend: ['dependency'],
  depends: ['dependency'],
  downstream: ['bridge', 'trigger'],
  upstream: ['mirror', 'pull'],
  mirror: ['mirror'],
  frequency: ['dora', 'metrics'],
  lead: ['dora', 'metrics'],
  available: ['exist'],
  taken: ['exist'],
  free: ['exist'],
  pending: ['pending', 'request'],
  feature: ['feature'],
  column: ['board list'],
  columns: ['board list'],
  lane: ['board list'],
  burndown: ['burndown'],
  chart: ['burndown'],
  html: ['render', 'markdown'],
  markdown: ['markdown'],
  attachment: ['upload', 'attachment'],
};
