/** The simulated instance's data: plain objects, seeded deterministically by `seed()`. */
import { createHash } from 'node:crypto';

export interface User {
  id: number;
  username: string;
  name: string;
  email: string;
  isAdmin: boolean;
  bot: boolean;
  createdAt: string;
}

export interface Member {
  userId: number;
  accessLevel: number;
  /** awaiting: the membership waits for a seat to be approved, and grants nothing until then. */
  state?: 'awaiting';
}

export interface Group {
  id: number;
  name: string;
  path: string;
  parentId: number | null;
  description: string;
  visibility: string;
  members: Member[];
  createdAt: string;
  /** Wiki pages, in the order the instance lists them (by title). */
  wiki: WikiPage[];
  /** The group's own milestones (its projects' issues may be in one); none until one is made. */
  milestones?: Milestone[];
}

export interface Commit {
  id: string;
  parentIds: string[];
  title: string;
  message: string;
  authorName: string;
  authorEmail: string;
  createdAt: string;
  /** Full snapshot of the tree at this commit: path -> content. */
  tree: Map<string, string>;
}

export interface Branch {
  name: string;
  commit: string;
  protected: boolean;
}

export interface Tag {
  name: string;
  commit: string;
  message: string;
  createdAt: string;
}

/** A release published through the API (a tag's notes, milestones and asset links). */
export interface Release {
  tagName: string;
  name: string;
  description: string;
  createdAt: string;
  releasedAt: string;
  authorId: number;
  milestoneIds: number[];
  links: { id: number; name: string; url: string; linkType: string }[];
}

export interface Note {
  id: number;
  body: string;
  authorId: number;
  createdAt: string;
  updatedAt: string;
  system: boolean;
  discussionId: string;
  resolvable: boolean;
  resolved: boolean;
  position?: unknown;
}

export interface Discussion {
  id: string;
  individualNote: boolean;
  notes: Note[];
}

export interface Issue {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  description: string;
  state: 'opened' | 'closed';
  labels: string[];
  assigneeIds: number[];
  authorId: number;
  milestoneId: number | null;
  confidential: boolean;
  dueDate: string | null;
  weight: number | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  closedById: number | null;
  discussions: Discussion[];
}

export interface MergeRequest {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  description: string;
  state: 'opened' | 'closed' | 'merged' | 'locked';
  sourceBranch: string;
  targetBranch: string;
  sourceProjectId: number;
  labels: string[];
  assigneeIds: number[];
  reviewerIds: number[];
  authorId: number;
  milestoneId: number | null;
  draft: boolean;
  /** Head commit of the source branch when last seen. */
  sha: string;
  baseSha: string;
  mergeCommitSha: string | null;
  mergedById: number | null;
  mergedAt: string | null;
  closedAt: string | null;
  approvedBy: number[];
  approvalsRequired: number;
  squash: boolean;
  removeSourceBranch: boolean;
  createdAt: string;
  updatedAt: string;
  discussions: Discussion[];
}

export interface Label {
  id: number;
  name: string;
  color: string;
  description: string | null;
  priority: number | null;
}

export interface Milestone {
  id: number;
  iid: number;
  title: string;
  description: string;
  state: 'active' | 'closed';
  dueDate: string | null;
  startDate: string | null;
  createdAt: string;
}

export type PipelineStatus =
  'created' | 'pending' | 'running' | 'success' | 'failed' | 'canceled' | 'skipped' | 'manual';

export interface Pipeline {
  id: number;
  iid: number;
  projectId: number;
  ref: string;
  sha: string;
  status: PipelineStatus;
  source: string;
  userId: number;
  createdAt: string;
  updatedAt: string;
  variables: { key: string; value: string; variable_type: string }[];
}

export interface Job {
  id: number;
  pipelineId: number;
  projectId: number;
  name: string;
  stage: string;
  status: PipelineStatus;
  ref: string;
  when: string;
  allowFailure: boolean;
  userId: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  duration: number | null;
  log: string;
  artifacts: Uint8Array | null;
  erased: boolean;
}

/** One stored file of a package: the bytes exactly as uploaded. */
export interface PackageFile {
  id: number;
  /** As the instance stores it: the file name, or the URI-encoded `path/file_name` when a path was given. */
  fileName: string;
  bytes: Uint8Array;
  sha256: string;
  createdAt: string;
}

/** A stored package file: a new ID and the SHA-256 the instance reports for its bytes. */
export function packageFile(
  state: State,
  fileName: string,
  bytes: Uint8Array,
  createdAt: string,
): PackageFile {
  return {
    id: nextId(state, 'packageFile'),
    fileName,
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    createdAt,
  };
}

/** A package of the generic registry: one name and version, its files in upload order. */
export interface GenericPackage {
  id: number;
  name: string;
  version: string;
  status: 'default' | 'hidden';
  createdAt: string;
  files: PackageFile[];
}

export interface Project {
  id: number;
  name: string;
  path: string;
  namespaceKind: 'group' | 'user';
  namespaceId: number;
  description: string;
  visibility: string;
  defaultBranch: string;
  archived: boolean;
  forkedFromId: number | null;
  members: Member[];
  createdAt: string;
  lastActivityAt: string;
  commits: Map<string, Commit>;
  branches: Map<string, Branch>;
  tags: Map<string, Tag>;
  issues: Issue[];
  mergeRequests: MergeRequest[];
  labels: Label[];
  milestones: Milestone[];
  pipelines: Pipeline[];
  jobs: Job[];
  /** The generic package registry. */
  packages: GenericPackage[];
  /** Wiki pages, in the order the instance lists them (by title). */
  wiki: WikiPage[];
  /** CI/CD variables, in the order they were created. */
  variables: CiVariable[];
  /** Releases created through the API; any other tag's release is answered by the generic routes. */
  releases: Release[];
  starCount: number;
  /** Merge settings changed through the API (merge_method, only_allow_merge_if_pipeline_succeeds, ...). */
  mergeSettings?: Record<string, string | boolean>;
  /** Merge request approval settings changed through the API (POST /projects/:id/approvals). */
  approvalSettings?: Record<string, boolean>;
  /** Merge request approval rules, in the order they were made. */
  approvalRules?: ApprovalRule[];
}

export interface ApprovalRule {
  id: number;
  name: string;
  ruleType: 'regular' | 'any_approver';
  approvalsRequired: number;
  userIds: number[];
  protectedBranches: string[];
}

export interface CiVariable {
  key: string;
  value: string;
  variableType: 'env_var' | 'file';
  protected: boolean;
  masked: boolean;
  raw: boolean;
  environmentScope: string;
  description: string | null;
}

export interface WikiPage {
  slug: string;
  title: string;
  format: 'markdown' | 'rdoc' | 'asciidoc' | 'org';
  content: string;
}

export interface TokenRecord {
  id: number;
  name: string;
  token: string;
  userId: number;
  scopes: string[];
  kind: 'personal' | 'oauth';
  revoked: boolean;
  expiresAt: string | null;
  createdAt: string;
  /** Granular scopes of a fine-grained token (as sent at creation). */
  granularScopes?: unknown[];
  /** OAuth tokens: the application they were issued to (default: the simulator's one application). */
  applicationUid?: string;
  /** OAuth tokens issued by the token endpoint: the refresh token that renews them (one record, as the instance keeps it). */
  refreshToken?: string;
}

/** An OAuth application registered on the instance (public: no secret, PKCE required). */
export interface OAuthApplication {
  uid: string;
  name: string;
  /** One entry per redirect URI, compared exactly (loopback IP literals ignore the port). */
  redirectUris: string[];
  scopes: string[];
}

/** An authorization code between consent and its exchange. */
export interface AuthorizationCode {
  code: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: string[];
  userId: number;
  expiresAt: number;
  used: boolean;
}

/** What the instance's authorization server holds: applications, pending codes, signed-in browsers. */
export interface OAuthServerState {
  applications: OAuthApplication[];
  codes: AuthorizationCode[];
  /** Browser sessions by cookie value: the signed-in user and the form token their pages carry. */
  sessions: { id: string; userId: number; formToken: string }[];
}

export interface State {
  users: User[];
  groups: Group[];
  projects: Project[];
  tokens: TokenRecord[];
  oauth: OAuthServerState;
  counters: Record<
    | 'user'
    | 'group'
    | 'project'
    | 'issue'
    | 'mr'
    | 'note'
    | 'label'
    | 'milestone'
    | 'pipeline'
    | 'job'
    | 'token'
    | 'package'
    | 'packageFile'
    | 'generic',
    number
  >;
}

export const ACCESS = { guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;

/** Fixed clock so seeded data is byte-for-byte reproducible. */
export const SEED_TIME = '2025-01-15T10:00:00.000Z';
export const at = (minutes: number): string =>
  new Date(Date.parse(SEED_TIME) + minutes * 60_000).toISOString();

export const DEMO_TOKENS = {
  api: 'glpat-forgesim-api-0000000001',
  readApi: 'glpat-forgesim-read-api-00002',
  admin: 'glpat-forgesim-admin-00000003',
  mcpOnly: 'glpat-forgesim-mcp-only-00004',
  noScope: 'glpat-forgesim-read-user-0005',
  revoked: 'glpat-forgesim-revoked-000006',
  expired: 'glpat-forgesim-expired-000007',
  fineGrained: 'glpat-forgesim-granular-00008',
  oauth: 'forgesim-oauth-access-token-0000000000000000000000000000000009',
} as const;

/** The pre-registered public application every client is configured with (its Application ID). */
export const OAUTH_APPLICATION_UID = 'forgesim0000000000000000000000000000000000000000000000000000app';

/**
 * Redirect URIs of the pre-registered application, one per line as the instance keeps them, exactly as each
 * client sends them: loopback IP literals (any port), Claude Code with callbackPort 8088, VS Code, Cursor and
 * Claude Desktop's hosted callback.
 */
export const DEFAULT_REDIRECT_URIS = [
  'http://127.0.0.1/callback',
  'http://[::1]/callback',
  'http://127.0.0.1/',
  'http://localhost:8088/callback',
  'https://vscode.dev/redirect',
  'cursor://anysphere.cursor-mcp/oauth/callback',
  'http://localhost:8787/callback',
  'https://claude.ai/api/mcp/auth_callback',
] as const;

/** The password of every seeded user on the sign-in page. */
export const SIGN_IN_PASSWORD = 'forgesim-password';

export function nextId(state: State, kind: keyof State['counters']): number {
  state.counters[kind] += 1;
  return state.counters[kind];
}

export function sha(...parts: string[]): string {
  return createHash('sha1').update(parts.join('\0')).digest('hex');
}

export function makeCommit(
  parent: Commit | undefined,
  message: string,
  changes: Record<string, string | null>,
  createdAt: string,
  author: User,
): Commit {
  const tree = new Map(parent?.tree ?? []);
  for (const [path, content] of Object.entries(changes)) {
    if (content === null) tree.delete(path);
    else tree.set(path, content);
  }
  const id = sha(parent?.id ?? '', message, createdAt, JSON.stringify([...tree]));
  return {
    id,
    parentIds: parent ? [parent.id] : [],
    title: message.split('\n')[0],
    message,
    authorName: author.name,
    authorEmail: author.email,
    createdAt,
    tree,
  };
}

function note(state: State, body: string, authorId: number, createdAt: string, resolvable = false): Note {
  const id = nextId(state, 'note');
  return {
    id,
    body,
    authorId,
    createdAt,
    updatedAt: createdAt,
    system: false,
    discussionId: sha('discussion', String(id)),
    resolvable,
    resolved: false,
  };
}

export function newDiscussion(
  state: State,
  body: string,
  authorId: number,
  createdAt: string,
  individual: boolean,
): Discussion {
  const n = note(state, body, authorId, createdAt, !individual);
  return { id: n.discussionId, individualNote: individual, notes: [n] };
}

function jobLog(name: string, failed: boolean): string {
  const lines = [
    `Running with forge-runner 19.4.0 (sim)`,
    `  on sim-runner-1 abcdef12, system ID: s_0123456789ab`,
    `Preparing the "docker" executor`,
    `Using Docker executor with image node:20 ...`,
    `Getting source from Git repository`,
    `Fetching changes with git depth set to 20...`,
    `Checking out 1a2b3c4d as detached HEAD (ref is main)...`,
    `Executing "step_script" stage of the job script`,
    `$ npm ci`,
  ];
  for (let i = 1; i <= 300; i++) lines.push(`[${name}] step ${i}: ok (${(i * 7) % 97} ms)`);
  if (failed) {
    lines.push(
      '$ npm test',
      'FAIL src/index.test.js',
      '  expected 2 to equal 3',
      'ERROR: Job failed: exit code 1',
    );
  } else {
    lines.push('$ npm test', 'Tests: 42 passed, 42 total', 'Job succeeded');
  }
  return lines.join('\n') + '\n';
}

let pristine: State | undefined;

/** A fresh copy of the seeded state (built once, then cloned: reset() stays cheap). */
export function seed(): State {
  pristine ??= buildSeed();
  return structuredClone(pristine);
}

function buildSeed(): State {
  const state: State = {
    users: [],
    groups: [],
    projects: [],
    tokens: [],
    oauth: {
      applications: [
        {
          uid: OAUTH_APPLICATION_UID,
          name: 'Forge MCP',
          redirectUris: [...DEFAULT_REDIRECT_URIS],
          scopes: ['api', 'read_api'],
        },
      ],
      codes: [],
      sessions: [],
    },
    counters: {
      user: 3,
      group: 11,
      project: 3,
      issue: 0,
      mr: 0,
      note: 0,
      label: 0,
      milestone: 0,
      pipeline: 100,
      job: 1000,
      token: 100,
      package: 0,
      packageFile: 0,
      generic: 5000,
    },
  };
  const root: User = {
    id: 1,
    username: 'root',
    name: 'Administrator',
    email: 'admin@forge.test',
    isAdmin: true,
    bot: false,
    createdAt: at(-100000),
  };
  const alice: User = {
    id: 2,
    username: 'alice',
    name: 'Alice Liddell',
    email: 'alice@forge.test',
    isAdmin: false,
    bot: false,
    createdAt: at(-90000),
  };
  const bob: User = {
    id: 3,
    username: 'bob',
    name: 'Bob Builder',
    email: 'bob@forge.test',
    isAdmin: false,
    bot: false,
    createdAt: at(-80000),
  };
  state.users.push(root, alice, bob);

  state.groups.push(
    {
      id: 10,
      name: 'Acme',
      path: 'acme',
      parentId: null,
      description: 'Acme Corporation',
      visibility: 'private',
      members: [
        { userId: 2, accessLevel: ACCESS.owner },
        { userId: 3, accessLevel: ACCESS.developer },
      ],
      createdAt: at(-70000),
      wiki: [
        {
          slug: 'home',
          title: 'home',
          format: 'markdown',
          content: '# Acme\n\nNew to the group? Read [onboarding](onboarding).',
        },
        {
          slug: 'onboarding',
          title: 'onboarding',
          format: 'markdown',
          content: '# Onboarding\n\nAsk an owner for access to the widgets project.',
        },
      ],
    },
    {
      id: 11,
      name: 'Platform',
      path: 'platform',
      parentId: 10,
      description: 'Platform team',
      visibility: 'private',
      members: [
        { userId: 2, accessLevel: ACCESS.owner },
        { userId: 1, accessLevel: ACCESS.developer, state: 'awaiting' },
      ],
      createdAt: at(-69000),
      wiki: [],
    },
  );

  const blank = (
    id: number,
    name: string,
    path: string,
    kind: 'group' | 'user',
    nsId: number,
    description: string,
  ): Project => ({
    id,
    name,
    path,
    namespaceKind: kind,
    namespaceId: nsId,
    description,
    visibility: 'private',
    defaultBranch: 'main',
    archived: false,
    forkedFromId: null,
    members: [
      { userId: 2, accessLevel: kind === 'user' ? ACCESS.owner : ACCESS.maintainer },
      ...(kind === 'group' ? [{ userId: 3, accessLevel: ACCESS.developer }] : []),
    ],
    createdAt: at(-60000 + id),
    lastActivityAt: at(500),
    commits: new Map(),
    branches: new Map(),
    tags: new Map(),
    issues: [],
    mergeRequests: [],
    labels: [],
    milestones: [],
    pipelines: [],
    jobs: [],
    packages: [],
    wiki: [],
    variables: [],
    releases: [],
    starCount: id === 1 ? 5 : 0,
  });

  // --- acme/widgets (id 1): the richly seeded project ---
  const widgets = blank(1, 'Widgets', 'widgets', 'group', 10, 'Widgets for every occasion');
  const c1 = makeCommit(
    undefined,
    'Initial commit',
    { 'README.md': '# Widgets\n\nWidgets for every occasion.\n' },
    at(0),
    alice,
  );
  const c2 = makeCommit(
    c1,
    'Add widget entry point',
    { 'src/index.js': 'export function widget(name) {\n  return `widget:${name}`;\n}\n' },
    at(10),
    alice,
  );
  const c3 = makeCommit(
    c2,
    'Document usage\n\nExplain how to build a widget.',
    {
      'README.md':
        '# Widgets\n\nWidgets for every occasion.\n\n## Usage\n\n```js\nimport { widget } from "./src/index.js";\nwidget("gear");\n```\n',
    },
    at(20),
    bob,
  );
  const f1 = makeCommit(
    c3,
    'Add login form',
    {
      'src/login.js':
        "export function login(user, password) {\n  if (!user || !password) throw new Error('missing credentials');\n  return { user, ok: true };\n}\n",
    },
    at(30),
    bob,
  );
  const f2 = makeCommit(
    f1,
    'Validate login input',
    {
      'src/login.js':
        "export function login(user, password) {\n  if (!user) throw new Error('missing user');\n  if (!password) throw new Error('missing password');\n  return { user, ok: true };\n}\n",
    },
    at(40),
    bob,
  );
  const bigLines = Array.from(
    { length: 4000 },
    (_, i) => `  "entry-${i}": { "weight": ${i % 13}, "label": "generated fixture row ${i}" },`,
  );
  const g1 = makeCommit(
    c3,
    'Regenerate fixtures',
    {
      'fixtures/data.json': `{\n${bigLines.join('\n')}\n  "end": true\n}\n`,
      'src/index.js': 'export function widget(name, size = 1) {\n  return `widget:${name}:${size}`;\n}\n',
    },
    at(50),
    alice,
  );
  for (const c of [c1, c2, c3, f1, f2, g1]) widgets.commits.set(c.id, c);
  widgets.branches.set('main', { name: 'main', commit: c3.id, protected: true });
  widgets.branches.set('feature/login', { name: 'feature/login', commit: f2.id, protected: false });
  widgets.branches.set('fixtures-refresh', { name: 'fixtures-refresh', commit: g1.id, protected: false });
  widgets.tags.set('v1.0.0', { name: 'v1.0.0', commit: c2.id, message: 'First release', createdAt: at(15) });
  widgets.wiki.push(
    {
      slug: 'getting-started',
      title: 'getting started',
      format: 'markdown',
      content: '# Getting started\n\nClone the repository and run npm test.',
    },
    {
      slug: 'home',
      title: 'home',
      format: 'markdown',
      content: '# Widgets\n\nNew here? Read [getting started](getting-started).',
    },
  );

  widgets.variables.push({
    key: 'DEPLOY_ENV',
    value: 'staging',
    variableType: 'env_var',
    protected: false,
    masked: false,
    raw: false,
    environmentScope: '*',
    description: 'Where the deploy job deploys to',
  });
  widgets.labels.push(
    {
      id: nextId(state, 'label'),
      name: 'bug',
      color: '#d9534f',
      description: 'Something is broken',
      priority: 1,
    },
    {
      id: nextId(state, 'label'),
      name: 'feature',
      color: '#428bca',
      description: 'New functionality',
      priority: null,
    },
    { id: nextId(state, 'label'), name: 'docs', color: '#5cb85c', description: null, priority: null },
  );
  widgets.milestones.push(
    {
      id: nextId(state, 'milestone'),
      iid: 1,
      title: 'v1.1',
      description: 'Next minor release',
      state: 'active',
      dueDate: '2025-03-01',
      startDate: '2025-01-01',
      createdAt: at(5),
    },
    {
      id: nextId(state, 'milestone'),
      iid: 2,
      title: 'v1.0',
      description: 'First release',
      state: 'closed',
      dueDate: '2025-01-10',
      startDate: null,
      createdAt: at(1),
    },
  );
  const issue = (
    p: Project,
    iid: number,
    title: string,
    st: 'opened' | 'closed',
    labels: string[],
    assignees: number[],
    authorId: number,
    milestoneId: number | null,
    minute: number,
  ): Issue => ({
    id: nextId(state, 'issue'),
    iid,
    projectId: p.id,
    title,
    description: `${title}. Steps and context for #${iid}.`,
    state: st,
    labels,
    assigneeIds: assignees,
    authorId,
    milestoneId,
    confidential: false,
    dueDate: null,
    weight: null,
    createdAt: at(minute),
    updatedAt: at(minute + 5),
    closedAt: st === 'closed' ? at(minute + 5) : null,
    closedById: st === 'closed' ? authorId : null,
    discussions: [],
  });
  const m11 = widgets.milestones[0].id;
  widgets.issues.push(
    issue(widgets, 1, 'Login button does nothing', 'opened', ['bug'], [2], 3, m11, 60),
    issue(widgets, 2, 'Add dark mode', 'opened', ['feature'], [3], 2, m11, 70),
    issue(widgets, 3, 'Typo in README', 'closed', ['docs', 'bug'], [], 3, null, 80),
    issue(widgets, 4, 'Support widget sizes', 'opened', ['feature'], [2, 3], 2, null, 90),
    issue(widgets, 5, 'Crash on empty name', 'closed', ['bug'], [2], 1, null, 100),
  );
  widgets.issues[0].discussions.push(newDiscussion(state, 'I can reproduce this on main.', 2, at(65), true));
  widgets.issues[0].discussions.push(
    newDiscussion(state, 'Probably the click handler is missing.', 3, at(66), true),
  );

  const mr = (
    p: Project,
    iid: number,
    title: string,
    st: MergeRequest['state'],
    source: string,
    head: Commit,
    base: Commit,
    authorId: number,
    minute: number,
  ): MergeRequest => ({
    id: nextId(state, 'mr'),
    iid,
    projectId: p.id,
    title,
    description: `${title}.\n\nCloses #${iid}`,
    state: st,
    sourceBranch: source,
    targetBranch: 'main',
    sourceProjectId: p.id,
    labels: [],
    assigneeIds: [authorId],
    reviewerIds: [2],
    authorId,
    milestoneId: null,
    draft: false,
    sha: head.id,
    baseSha: base.id,
    mergeCommitSha: st === 'merged' ? head.id : null,
    mergedById: st === 'merged' ? 2 : null,
    mergedAt: st === 'merged' ? at(minute + 30) : null,
    closedAt: null,
    approvedBy: [],
    approvalsRequired: 1,
    squash: false,
    removeSourceBranch: false,
    createdAt: at(minute),
    updatedAt: at(minute + 10),
    discussions: [],
  });
  const mr1 = mr(widgets, 1, 'Add login form', 'opened', 'feature/login', f2, c3, 3, 110);
  mr1.labels = ['feature'];
  mr1.milestoneId = m11;
  mr1.discussions.push(newDiscussion(state, 'Looks good overall, one question inline.', 2, at(120), false));
  const d = newDiscussion(state, 'Should this also trim whitespace?', 2, at(121), false);
  d.notes[0].position = {
    base_sha: c3.id,
    start_sha: c3.id,
    head_sha: f2.id,
    old_path: 'src/login.js',
    new_path: 'src/login.js',
    position_type: 'text',
    new_line: 2,
    old_line: null,
  };
  widgets.mergeRequests.push(mr1);
  mr1.discussions.push(d);
  const mr2 = mr(widgets, 2, 'Regenerate fixtures', 'opened', 'fixtures-refresh', g1, c3, 2, 130);
  mr2.approvedBy = [3, 2];
  widgets.mergeRequests.push(mr2);
  const mr3 = mr(widgets, 3, 'Document usage', 'merged', 'docs-usage', c3, c2, 3, 15);
  widgets.mergeRequests.push(mr3);

  const pipeline = (
    p: Project,
    iid: number,
    ref: string,
    commit: string,
    status: PipelineStatus,
    minute: number,
  ): Pipeline => ({
    id: nextId(state, 'pipeline'),
    iid,
    projectId: p.id,
    ref,
    sha: commit,
    status,
    source: 'push',
    userId: 2,
    createdAt: at(minute),
    updatedAt: at(minute + 8),
    variables: [],
  });
  const job = (
    p: Project,
    pl: Pipeline,
    name: string,
    stage: string,
    status: PipelineStatus,
    minute: number,
    when = 'on_success',
  ): Job => ({
    id: nextId(state, 'job'),
    pipelineId: pl.id,
    projectId: p.id,
    name,
    stage,
    status,
    ref: pl.ref,
    when,
    allowFailure: false,
    userId: 2,
    createdAt: at(minute),
    startedAt: status === 'manual' || status === 'created' ? null : at(minute + 1),
    finishedAt: ['success', 'failed', 'canceled'].includes(status) ? at(minute + 4) : null,
    duration: ['success', 'failed', 'canceled'].includes(status) ? 183.4 : null,
    log: status === 'manual' || status === 'created' ? '' : jobLog(name, status === 'failed'),
    artifacts:
      status === 'success' ? new Uint8Array(Buffer.from('PK\u0003\u0004forge-sim-artifact-' + name)) : null,
    erased: false,
  });
  const p1 = pipeline(widgets, 1, 'main', c3.id, 'success', 25);
  const p2 = pipeline(widgets, 2, 'feature/login', f2.id, 'failed', 45);
  const p3 = pipeline(widgets, 3, 'fixtures-refresh', g1.id, 'manual', 55);
  widgets.pipelines.push(p1, p2, p3);
  widgets.jobs.push(
    job(widgets, p1, 'build', 'build', 'success', 25),
    job(widgets, p1, 'test', 'test', 'success', 27),
    job(widgets, p2, 'build', 'build', 'success', 45),
    job(widgets, p2, 'test', 'test', 'failed', 47),
    job(widgets, p3, 'build', 'build', 'success', 55),
    job(widgets, p3, 'deploy', 'deploy', 'manual', 57, 'manual'),
  );
  // A release archive in the generic registry (what package.download's example fetches).
  const archive = new Uint8Array(Buffer.from('\x1f\x8bforge-sim widgets-cli 1.0.0\n', 'latin1'));
  widgets.packages.push({
    id: nextId(state, 'package'),
    name: 'widgets-cli',
    version: '1.0.0',
    status: 'default',
    createdAt: at(60),
    files: [packageFile(state, 'widgets.tar.gz', archive, at(60))],
  });
  state.projects.push(widgets);

  // --- acme/gadgets (id 2) and alice/playground (id 3): small projects ---
  const gadgets = blank(2, 'Gadgets', 'gadgets', 'group', 10, 'Gadget prototypes');
  const gc = makeCommit(undefined, 'Initial commit', { 'README.md': '# Gadgets\n' }, at(3), bob);
  gadgets.commits.set(gc.id, gc);
  gadgets.branches.set('main', { name: 'main', commit: gc.id, protected: true });
  gadgets.labels.push({
    id: nextId(state, 'label'),
    name: 'bug',
    color: '#d9534f',
    description: null,
    priority: null,
  });
  gadgets.issues.push(issue(gadgets, 1, 'Gadget overheats', 'opened', ['bug'], [3], 3, null, 200));
  state.projects.push(gadgets);

  const playground = blank(3, 'Playground', 'playground', 'user', 2, 'Alice experiments here');
  playground.visibility = 'public';
  const pc = makeCommit(
    undefined,
    'Initial commit',
    { 'README.md': '# Playground\n', 'notes.txt': 'scratch\n' },
    at(4),
    alice,
  );
  playground.commits.set(pc.id, pc);
  playground.branches.set('main', { name: 'main', commit: pc.id, protected: false });
  state.projects.push(playground);

  const token = (
    id: number,
    key: keyof typeof DEMO_TOKENS,
    userId: number,
    scopes: string[],
    extra: Partial<TokenRecord> = {},
  ): TokenRecord => ({
    id,
    name: `sim-${key}`,
    token: DEMO_TOKENS[key],
    userId,
    scopes,
    kind: 'personal',
    revoked: false,
    expiresAt: '2099-12-31',
    createdAt: at(-1000),
    ...extra,
  });
  state.tokens.push(
    token(1, 'api', 2, ['api']),
    token(2, 'readApi', 2, ['read_api']),
    token(3, 'admin', 1, ['api', 'admin_mode']),
    token(4, 'mcpOnly', 2, ['mcp']),
    token(5, 'noScope', 2, ['read_user']),
    token(6, 'revoked', 2, ['api'], { revoked: true }),
    token(7, 'expired', 2, ['api'], { expiresAt: '2024-01-01' }),
    token(8, 'fineGrained', 2, ['granular'], {
      granularScopes: [
        { access: 'user', permissions: ['read_user', 'read_personal_access_token', 'read_namespace'] },
        { access: 'instance', permissions: ['read_metadata'] },
        {
          access: 'selected_memberships',
          project_ids: [1],
          permissions: ['read_project', 'read_work_item', 'read_merge_request'],
        },
      ],
    }),
    token(9, 'oauth', 2, ['api'], { kind: 'oauth', expiresAt: null }),
  );
  return state;
}
