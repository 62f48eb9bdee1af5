import type { ActionContext, DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';
import { str, int, bool, date, dateTime, intList } from '../params.js';

/* ---------- parameter builders used only in this domain ---------- */

const visibility = (what: string): ParamSpec =>
  str(`${what}: "private", "internal" or "public".`, { enum: ['private', 'internal', 'public'] });

/** Role levels a group membership, share or link can grant, Minimal access (5) included. */
/**
 * Role levels of memberships, shares, SAML and LDAP links and the min_access_level filters: the
 * instance's API documents 5 Minimal access through 50 Owner for each (groups.md, group_members.md,
 * group_ldap_links.md via members.md#roles, saml.md).
 */
const accessLevel = (what: string): ParamSpec => ({
  type: 'integer',
  enum: [5, 10, 15, 20, 25, 30, 40, 50],
  description: `${what}: 5 Minimal access, 10 Guest, 15 Planner, 20 Reporter, 25 Security Manager, 30 Developer, 40 Maintainer, 50 Owner.`,
});
const memberRoleId = int('ID of a custom member role to assign instead of a default role (Ultimate).');
const expiresAt = date('Date the access ends, YYYY-MM-DD (omit for no expiry).');

const badgeId = int('Numeric ID of the group badge (from group.badge_list).');
const boardId = int('Numeric ID of the group issue board (from group.group_board_list).');
const listId = int('Numeric ID of the board list (column), from group.group_board_list_lists.');
const hookId = int('Numeric ID of the group webhook (from group.hook_list).');
const milestoneId = int(
  'Global numeric ID of the group milestone as returned by group.group_milestone_list (not the IID shown in the URL).',
);
const labelRef = str('Label ID or exact label title, e.g. "bug" or "42".');
const wikiSlug = str('Wiki page slug (URL-encoded path of the page), e.g. "home" or "docs/setup".');
const serviceAccountId = int('User ID of the group service account (from group.service_account_list).');
const search = (what: string): ParamSpec => str(`Return only ${what} whose name or path contains this text.`);
const sort = str('Sort direction: "asc" or "desc".', { enum: ['asc', 'desc'] });
const withCustomAttributes = bool('Include custom attributes in the answer (administrators only).');
/** Filters naming one user two ways: the instance takes at most one of each pair (its mutually_exclusive). */
const authorPair = ['author_id', 'author_username'];
const protectedEnvName = str(
  'Deployment tier the rule protects. Group-level protection works per tier: "production", "staging", "testing", "development" or "other".',
  { enum: ['production', 'staging', 'testing', 'development', 'other'] },
);

/** Editable group settings shared by group.create and group.update. */
const groupSettings: Record<string, ParamSpec> = {
  description: str('Group description (Markdown allowed).'),
  visibility: visibility('Who can see the group'),
  default_branch: str('Default branch name for new projects in the group, e.g. "main".'),
  project_creation_level: str(
    'Who may create projects in the group: "noone", "owner", "maintainer", "developer" (Developers and Maintainers) or "administrator".',
    { enum: ['noone', 'owner', 'maintainer', 'developer', 'administrator'] },
  ),
  subgroup_creation_level: str('Who may create subgroups: "owner" or "maintainer".', {
    enum: ['owner', 'maintainer'],
  }),
  request_access_enabled: bool('Allow users to request access to the group.'),
  share_with_group_lock: bool('Prevent sharing projects of this group with other groups.'),
  require_two_factor_authentication: bool('Require all members to use two-factor authentication.'),
  two_factor_grace_period: {
    type: 'integer',
    minimum: 0,
    description: 'Hours members get to set up two-factor authentication once it is required.',
  },
  lfs_enabled: bool('Enable Git LFS for projects in the group.'),
  emails_enabled: bool('Send email notifications for the group.'),
  mentions_disabled: bool('Stop @group mentions from notifying members.'),
  auto_devops_enabled: bool('Enable Auto DevOps by default for projects in the group.'),
  membership_lock: bool('Prevent adding new members to projects of the group (Premium).'),
  shared_runners_setting: str(
    'Whether projects and subgroups may use instance runners: "enabled", "disabled_and_overridable" (off, subgroups may turn them back on) or "disabled_and_unoverridable".',
    { enum: ['enabled', 'disabled_and_overridable', 'disabled_and_unoverridable'] },
  ),
};

/** Event switches and options of a group webhook (group.hook_add, group.hook_edit). */
const hookSettings: Record<string, ParamSpec> = {
  name: str('Display name of the webhook.'),
  description: str('Description of the webhook.'),
  token: str('Secret token sent in the X-Gitlab-Token header so the receiver can verify requests.'),
  enable_ssl_verification: bool('Verify the TLS certificate of the receiving URL.'),
  push_events: bool('Send push events.'),
  push_events_branch_filter: str(
    'Only send push events for branches matching this filter (see branch_filter_strategy).',
  ),
  branch_filter_strategy: str('How push_events_branch_filter is read.', {
    enum: ['wildcard', 'regex', 'all_branches'],
  }),
  tag_push_events: bool('Send tag push events.'),
  issues_events: bool('Send issue events.'),
  confidential_issues_events: bool('Send confidential issue events.'),
  merge_requests_events: bool('Send merge request events.'),
  note_events: bool('Send comment events.'),
  confidential_note_events: bool('Send confidential comment events.'),
  job_events: bool('Send job events.'),
  pipeline_events: bool('Send pipeline events.'),
  wiki_page_events: bool('Send wiki page events.'),
  deployment_events: bool('Send deployment events.'),
  feature_flag_events: bool('Send feature flag events.'),
  releases_events: bool('Send release events.'),
  emoji_events: bool('Send emoji reaction events.'),
  subgroup_events: bool('Send subgroup created/removed events.'),
  project_events: bool('Send project created/removed events.'),
  member_events: bool('Send membership events.'),
  resource_access_token_events: bool('Send access token expiry events.'),
  vulnerability_events: bool('Send vulnerability events.'),
  custom_webhook_template: str(
    'Custom payload template (JSON with {{placeholders}}) sent instead of the default body.',
  ),
  custom_headers: {
    type: 'array',
    items: {
      type: 'object',
      properties: { key: { type: 'string' }, value: { type: 'string' } },
      required: ['key', 'value'],
    },
    description: 'Extra HTTP headers sent with every delivery, e.g. [{"key":"X-Env","value":"prod"}].',
  },
  url_variables: {
    type: 'array',
    items: {
      type: 'object',
      properties: { key: { type: 'string' }, value: { type: 'string' } },
      required: ['key', 'value'],
    },
    description:
      'Values substituted into {placeholders} of the URL and kept secret, e.g. [{"key":"token","value":"s3cr3t"}].',
  },
};

/** Access rules of a group protected branch: each entry names one role, user or group. */
/** Unprotect rules take no 0 (no one): a branch nobody may unprotect is refused. */
const branchAccessRules = (what: string, noOne = true): ParamSpec => ({
  type: 'array',
  items: {
    type: 'object',
    properties: {
      access_level: { type: 'integer', enum: noOne ? [0, 30, 40, 60] : [30, 40, 60] },
      user_id: { type: 'integer' },
      group_id: { type: 'integer' },
      id: { type: 'integer' },
      _destroy: { type: 'boolean' },
    },
  },
  description: `${what}: entries like {"access_level":40}, {"user_id":2} or {"group_id":10} (${noOne ? '0 no one, ' : ''}30 Developer, 40 Maintainer, 60 Admin). On update, pass {"id":N,"_destroy":true} to drop an existing entry.`,
});

const deployAccessLevels: ParamSpec = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      access_level: { type: 'integer', enum: [30, 40, 60] },
      user_id: { type: 'integer' },
      group_id: { type: 'integer' },
      group_inheritance_type: { type: 'integer', enum: [0, 1] },
      id: { type: 'integer' },
      _destroy: { type: 'boolean' },
    },
  },
  description:
    'Who may deploy: entries like {"access_level":40}, {"user_id":2} or {"group_id":12} (30 Developer, 40 Maintainer, 60 Admin). On update, {"id":N,"_destroy":true} removes an entry.',
};
const approvalRules: ParamSpec = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      access_level: { type: 'integer', enum: [30, 40, 60] },
      user_id: { type: 'integer' },
      group_id: { type: 'integer' },
      required_approvals: { type: 'integer', minimum: 1 },
      group_inheritance_type: { type: 'integer', enum: [0, 1] },
      id: { type: 'integer' },
      _destroy: { type: 'boolean' },
    },
  },
  description:
    'Deployment approval rules: entries like {"group_id":12,"required_approvals":2} or {"user_id":2} (required_approvals defaults to 1); this is how approvals before deploying are set. On update, {"id":N,"_destroy":true} removes a rule.',
};

const pushRuleSettings: Record<string, ParamSpec> = {
  deny_delete_tag: bool('Refuse deleting tags with git push.'),
  member_check: bool('Only accept commits authored by members of the instance.'),
  prevent_secrets: bool('Refuse files that look like secrets (keys, credentials).'),
  commit_message_regex: str('Commit messages must match this regular expression, e.g. "JIRA-\\\\d+".'),
  commit_message_negative_regex: str('Commit messages must not match this regular expression.'),
  branch_name_regex: str('New branch names must match this regular expression.'),
  author_email_regex: str(
    'Commit author emails must match this regular expression, e.g. "@example\\\\.com$".',
  ),
  file_name_regex: str('Refuse files whose names match this regular expression.'),
  max_file_size: {
    type: 'integer',
    minimum: 0,
    description: 'Largest file size allowed in MB (0 = no limit).',
  },
  commit_committer_check: bool(
    'Only accept commits whose committer email is a verified email of the pusher.',
  ),
  commit_committer_name_check: bool('Only accept commits whose committer name matches the pusher.'),
  reject_unsigned_commits: bool('Refuse commits that are not signed.'),
  reject_non_dco_commits: bool('Refuse commits without a DCO Signed-off-by line.'),
};

const listProjectsFilters: Record<string, ParamSpec> = {
  archived: bool('Limit by archived status.'),
  visibility: visibility('Limit by visibility'),
  order_by: str('Order projects by this field (default created_at; similarity needs search).', {
    enum: ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'similarity', 'star_count'],
  }),
  sort,
  search: search('projects'),
  simple: bool('Return only the basic fields of each project (faster).'),
  starred: bool('Only projects the caller starred.'),
  with_issues_enabled: bool('Only projects with issues enabled.'),
  with_merge_requests_enabled: bool('Only projects with merge requests enabled.'),
  min_access_level: accessLevel('Only projects where the caller has at least this role'),
  with_custom_attributes: withCustomAttributes,
  custom_attributes: P.customAttributesFilter,
};

/** lib/api/groups.rb group_list_params, shared by GET /groups, :id/subgroups and :id/descendant_groups. */
const groupListFilters: Record<string, ParamSpec> = {
  visibility: visibility('Only groups with this visibility'),
  marked_for_deletion_on: date('Only groups marked for deletion on this date (administrators).'),
  active: bool(
    'Only groups that are neither archived nor marked for deletion (true), or only those that are (false).',
  ),
  archived: bool('Only archived (true) or non-archived (false) groups.'),
  repository_storage: str(
    'Only groups whose repositories are on this storage shard, e.g. "default" (administrators only).',
  ),
  skip_groups: intList('Group IDs to leave out of the answer.'),
  all_available: bool('Also list public/internal groups the caller is not a member of.'),
  order_by: str('Order groups by "name" (default), "path", "id" or "similarity" (with search).', {
    enum: ['name', 'path', 'id', 'similarity'],
  }),
  sort,
  statistics: bool('Include storage statistics (administrators only).'),
  owned: bool('Only groups the caller owns.'),
  min_access_level: accessLevel('Only groups where the caller has at least this role'),
  with_custom_attributes: withCustomAttributes,
  custom_attributes: P.customAttributesFilter,
};

/* ---------- epics as work items (GraphQL) ---------- */

/** Epics are read through GraphQL, which needs the group's full path, never its numeric ID. */
const groupPath = str(
  'Full path of the group that owns the epic, e.g. "acme" or "acme/platform" (not a numeric ID).',
);
const epicIid = str(
  'Epic IID as digits, e.g. "3" for epic &3 (the number inside the group, not the global ID).',
  {
    pattern: '^[1-9][0-9]*$',
  },
);
const gqlNoteId: ParamSpec = {
  ...str(
    'Global ID of the comment as returned by the epic note or discussion lists, e.g. "gid://gitlab/Note/123", or just its number "123" (as in a #note_123 link).',
    { pattern: '^(gid://gitlab/|\\d+$)' },
  ),
  // Its number as a JSON number too (a note's class varies, so the global ID's type is not fixed here).
  type: ['integer', 'string'],
  minimum: 1,
  gid: 'Note',
};
const epicDiscussionId = str(
  'Thread ID from group.epic_discussion_list: the global ID "gid://gitlab/Discussion/<hex>" or just the 40-character hex part.',
);
const gqlFirst = int('How many items to return (at most 100).', { maximum: 100 });
const gqlAfter = str('Cursor from the previous answer (pageInfo.endCursor) to read the next page.');
const noteFilter = str('Which entries to return: every note, only comments, or only system activity.', {
  enum: ['ALL_NOTES', 'ONLY_COMMENTS', 'ONLY_ACTIVITY'],
});
const noteOrder = str('Oldest threads first (CREATED_ASC, the default) or newest first (CREATED_DESC).', {
  enum: ['CREATED_ASC', 'CREATED_DESC'],
});
const noteBody = str('Comment text in Markdown. Quick actions such as "/label ~bug" are applied.');
const internalNote = bool(
  'Make the comment internal (visible only to members with at least the Reporter role).',
);
const issuePath = str('Full path of the project holding the issue, e.g. "acme/widgets" (not a numeric ID).');
const issueIidStr = str('Issue IID as digits, e.g. "12" for #12 in that project.', {
  pattern: '^[1-9][0-9]*$',
});

type Obj = Record<string, unknown>;
const dig = (value: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Obj)[k] : undefined), value);

/** Runs a GraphQL request and returns its `data` (whether the client hands back the body or only data). */
async function gql(
  ctx: ActionContext,
  document: string,
  variables: Obj,
  mutation?: string,
): Promise<unknown> {
  const answer = await ctx.graphql(document, variables, { mutation });
  const data = dig(answer, 'data');
  return data === undefined ? answer : data;
}

/** Returns the payload of a mutation; an errors list on it is the instance's refusal, the action's failure. */
async function mutate(ctx: ActionContext, field: string, document: string, variables: Obj): Promise<unknown> {
  return dig(await gql(ctx, document, variables, field), field);
}

const resolveDoc = (operation: string): string => `query ${operation}($fullPath: ID!, $iid: String!) {
  namespace(fullPath: $fullPath) {
    workItem(iid: $iid) {
      id
      iid
      title
      widgets { ... on WorkItemWidgetHierarchy { parent { id } } }
    }
  }
}`;

/** Resolves a work item (epic or issue) IID inside a namespace to its global ID and parent's global ID. */
async function resolveWorkItem(
  ctx: ActionContext,
  operation: string,
  fullPath: unknown,
  iid: unknown,
  what: string,
): Promise<{ id: string; parentId?: string }> {
  const item = dig(
    await gql(ctx, resolveDoc(operation), { fullPath, iid: String(iid) }),
    'namespace.workItem',
  );
  const id = dig(item, 'id');
  if (typeof id !== 'string') throw new Error(`${what} ${String(iid)} not found in ${String(fullPath)}`);
  const widgets = dig(item, 'widgets');
  const parent = Array.isArray(widgets) ? widgets.map((w) => dig(w, 'parent.id')).find(Boolean) : undefined;
  return { id, parentId: typeof parent === 'string' ? parent : undefined };
}

/** The numeric tail of a global ID ("gid://gitlab/WorkItem/42" -> "42"). */
const gidNumber = (gid: string): string => gid.slice(gid.lastIndexOf('/') + 1);

const discussionGid = (id: unknown): string =>
  String(id).startsWith('gid://') ? String(id) : `gid://gitlab/Discussion/${String(id)}`;

const EPIC_FIELDS = `id iid title state confidential webUrl reference(full: true) createdAt updatedAt closedAt
      author { username name }
      workItemType { name }`;

const GET_EPIC = `query GetWorkItem($fullPath: ID!, $iid: String!) {
  namespace(fullPath: $fullPath) {
    workItem(iid: $iid) {
      ${EPIC_FIELDS}
      description
      widgets {
        type
        ... on WorkItemWidgetAssignees { assignees { nodes { username } } }
        ... on WorkItemWidgetLabels { labels { nodes { id title color } } }
        ... on WorkItemWidgetStartAndDueDate { startDate dueDate isFixed }
        ... on WorkItemWidgetHierarchy { parent { iid title webUrl } hasChildren }
        ... on WorkItemWidgetColor { color }
        ... on WorkItemWidgetHealthStatus { healthStatus }
        ... on WorkItemWidgetMilestone { milestone { title } }
      }
    }
  }
}`;

const NOTE_FIELDS = 'id body internal system createdAt updatedAt author { username name }';

const LIST_DISCUSSIONS = `query queryListDiscussions($fullPath: ID!, $iid: String!, $first: Int, $after: String, $filter: NotesFilterType, $sort: WorkItemDiscussionsSort) {
  namespace(fullPath: $fullPath) {
    workItem(iid: $iid) {
      id
      iid
      widgets {
        ... on WorkItemWidgetNotes {
          discussions(first: $first, after: $after, filter: $filter, sort: $sort) {
            pageInfo { hasNextPage endCursor }
            nodes { id resolved resolvable notes { nodes { ${NOTE_FIELDS} } } }
          }
        }
      }
    }
  }
}`;

const LIST_NOTES = `query queryListWorkItemNotes($fullPath: ID!, $iid: String!, $first: Int, $after: String, $filter: NotesFilterType, $sort: WorkItemDiscussionsSort) {
  namespace(fullPath: $fullPath) {
    workItem(iid: $iid) {
      id
      iid
      widgets {
        ... on WorkItemWidgetNotes {
          discussions(first: $first, after: $after, filter: $filter, sort: $sort) {
            pageInfo { hasNextPage endCursor }
            nodes { id notes { nodes { ${NOTE_FIELDS} discussion { id } } } }
          }
        }
      }
    }
  }
}`;

const LIST_CHILDREN = `query queryListChildren($fullPath: ID!, $iid: String!, $first: Int, $after: String, $state: WorkItemState) {
  namespace(fullPath: $fullPath) {
    workItem(iid: $iid) {
      id
      iid
      title
      widgets {
        ... on WorkItemWidgetHierarchy {
          children(first: $first, after: $after, state: $state) {
            pageInfo { hasNextPage endCursor }
            nodes { id iid title state webUrl reference(full: true) workItemType { name } }
          }
        }
      }
    }
  }
}`;

const CREATE_NOTE = (operation: string): string => `mutation ${operation}($input: CreateNoteInput!) {
  createNote(input: $input) { note { ${NOTE_FIELDS} discussion { id } } errors }
}`;

const UPDATE_NOTE = `mutation mutationUpdateNote($id: NoteID!, $body: String!) {
  updateNote(input: { id: $id, body: $body }) { note { ${NOTE_FIELDS} } errors }
}`;

const DESTROY_NOTE = `mutation mutationDestroyNote($id: NoteID!) {
  destroyNote(input: { id: $id }) { note { id } errors }
}`;

const WORK_ITEM_UPDATE = (operation: string): string => `mutation ${operation}($input: WorkItemUpdateInput!) {
  workItemUpdate(input: $input) { workItem { ${EPIC_FIELDS} } errors }
}`;

const DELETE_WORK_ITEM = `mutation deleteWorkItemQuery($id: WorkItemID!) {
  workItemDelete(input: { id: $id }) { errors }
}`;

/** workItemCreate takes the whole WorkItemCreateInput; only the widgets given are sent (colorWidget.color is Color!). */
const CREATE_EPIC = `mutation CreateWorkItem($input: WorkItemCreateInput!) {
  workItemCreate(input: $input) { workItem { ${EPIC_FIELDS} } errors }
}`;

const WORK_ITEM_TYPES = `query namespaceWorkItemTypes($fullPath: ID!) {
  namespace(fullPath: $fullPath) { workItemTypes { nodes { id name } } }
}`;

/** The global ID of the system-defined Epic type, used when the namespace does not list an "Epic" type. */
const EPIC_TYPE_FALLBACK = 'gid://gitlab/WorkItems::Type/8';

/** Walks the notes widget's discussion pages until `pick` finds something (at most 20 pages of 100). */
async function findInDiscussions(
  ctx: ActionContext,
  document: string,
  args: Obj,
  pick: (discussions: Obj[]) => unknown,
): Promise<unknown> {
  let after: unknown = undefined;
  for (let pageNo = 0; pageNo < 20; pageNo++) {
    const data = await gql(ctx, document, {
      fullPath: args.group_path,
      iid: String(args.epic_iid),
      first: 100,
      after,
    });
    const widgets = dig(data, 'namespace.workItem.widgets');
    const conn = Array.isArray(widgets) ? widgets.map((w) => dig(w, 'discussions')).find(Boolean) : undefined;
    const nodes = dig(conn, 'nodes');
    const found = pick(Array.isArray(nodes) ? (nodes as Obj[]) : []);
    if (found !== undefined) return found;
    if (dig(conn, 'pageInfo.hasNextPage') !== true) break;
    after = dig(conn, 'pageInfo.endCursor');
  }
  return undefined;
}

/** Numeric label IDs as the labels widget takes them. */
const labelGids = (ids: unknown): string[] | undefined =>
  Array.isArray(ids) ? ids.map((id) => `gid://gitlab/Label/${String(id)}`) : undefined;

/** An epic: the Epic work item type's global ID is looked up in the group, then the work item is created. */
const createEpic = async (args: Obj, ctx: ActionContext): Promise<unknown> => {
  const types = dig(
    await gql(ctx, WORK_ITEM_TYPES, { fullPath: args.group_path }),
    'namespace.workItemTypes.nodes',
  );
  const epicType = Array.isArray(types)
    ? types
        .map((t) => (dig(t, 'name') === 'Epic' ? dig(t, 'id') : undefined))
        .find((id) => typeof id === 'string')
    : undefined;
  const input: Obj = {
    namespacePath: args.group_path,
    workItemTypeId: epicType ?? EPIC_TYPE_FALLBACK,
    title: args.title,
  };
  if (args.confidential !== undefined) input.confidential = args.confidential;
  if (args.description !== undefined) input.descriptionWidget = { description: args.description };
  if (args.start_date !== undefined || args.due_date !== undefined || args.is_fixed !== undefined) {
    const dates: Obj = {};
    if (args.start_date !== undefined) dates.startDate = args.start_date;
    if (args.due_date !== undefined) dates.dueDate = args.due_date;
    if (args.is_fixed !== undefined) dates.isFixed = args.is_fixed;
    input.startAndDueDateWidget = dates;
  }
  if (args.color !== undefined) input.colorWidget = { color: args.color };
  if (args.label_ids !== undefined) input.labelsWidget = { labelIds: labelGids(args.label_ids) };
  if (args.health_status !== undefined) input.healthStatusWidget = { healthStatus: args.health_status };
  return dig(await mutate(ctx, 'workItemCreate', CREATE_EPIC, { input }), 'workItem');
};

/** A comment on an epic, new or opening a thread: resolve the epic's global ID, then create the note. */
const createEpicNote = async (args: Obj, ctx: ActionContext): Promise<unknown> => {
  const epic = await resolveWorkItem(ctx, 'queryResolveWorkItemGID', args.group_path, args.epic_iid, 'Epic');
  const input: Obj = { noteableId: epic.id, body: args.body };
  if (args.internal !== undefined) input.internal = args.internal;
  return dig(await mutate(ctx, 'createNote', CREATE_NOTE('mutationCreateNote'), { input }), 'note');
};

export const domain: DomainSpec = {
  domain: 'group',
  metaTool: 'forge_group',
  summary:
    'Groups and subgroups: find, create, update, archive, transfer or delete groups; manage members, sharing, labels, milestones, boards, badges, webhooks, wikis, protected branches and environments, SAML/LDAP links, service accounts, exports, and epics (work items).',
  actions: [
    {
      id: 'group.analytics_issues_count',
      title: 'Count recently created group issues',
      description:
        'Count the issues created in a group (and its subgroups) over the last 90 days, from group activity analytics. Use for a quick activity figure rather than listing issues.',
      tool: 'forge_get_recently_created_issues_count',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_path: str('Full path of the group, e.g. "acme" or "acme/platform".') },
      required: ['group_path'],
      request: { rest: { method: 'GET', path: '/analytics/group_activity/issues_count' } },
      example: { group_path: 'acme' },
    },
    {
      id: 'group.analytics_members_count',
      title: 'Count recently added group members',
      description:
        'Count the members added to a group over the last 90 days, from group activity analytics. Use to gauge team growth without listing members.',
      tool: 'forge_get_recently_added_members_count',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_path: str('Full path of the group, e.g. "acme" or "acme/platform".') },
      required: ['group_path'],
      request: { rest: { method: 'GET', path: '/analytics/group_activity/new_members_count' } },
      example: { group_path: 'acme' },
    },
    {
      id: 'group.analytics_mr_count',
      title: 'Count recently created group merge requests',
      description:
        'Count the merge requests created in a group (and its subgroups) over the last 90 days, from group activity analytics.',
      tool: 'forge_get_recently_created_mr_count',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_path: str('Full path of the group, e.g. "acme" or "acme/platform".') },
      required: ['group_path'],
      request: { rest: { method: 'GET', path: '/analytics/group_activity/merge_requests_count' } },
      example: { group_path: 'acme' },
    },
    {
      id: 'group.archive',
      title: 'Archive group',
      description:
        'Archive a group, making it and all its subgroups and projects read-only. Reversible with group.unarchive; answers an error if the group is already archived. Requires the Owner role.',
      tool: 'forge_group_archive',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId },
      required: ['group_id'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/archive' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.badge_add',
      title: 'Add group badge',
      description:
        'Add a badge (an image linking somewhere, e.g. a pipeline status or coverage shield) to a group; it also shows on every project in the group. Placeholders such as %{project_path} and %{default_branch} are expanded per project.',
      tool: 'forge_add_group_badge',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        link_url: str('URL the badge links to; may use placeholders like %{project_path}.'),
        image_url: str('URL of the badge image; may use placeholders like %{default_branch}.'),
        name: str('Display name of the badge.'),
      },
      required: ['group_id', 'link_url', 'image_url'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/badges' } },
      example: {
        group_id: '10',
        link_url: 'https://ci.example.com/%{project_path}',
        image_url: 'https://ci.example.com/%{project_path}/badge.svg',
        name: 'CI',
      },
    },
    {
      id: 'group.badge_delete',
      title: 'Delete group badge',
      description:
        'Permanently remove a badge from a group (and from the projects that inherit it). Irreversible.',
      tool: 'forge_delete_group_badge',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId, badge_id: badgeId },
      required: ['group_id', 'badge_id'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/badges/:badge_id' } },
      example: { group_id: '10', badge_id: 1 },
    },
    {
      id: 'group.badge_edit',
      title: 'Edit group badge',
      description:
        'Change the link, image or name of an existing group badge. Only the fields given are changed.',
      tool: 'forge_edit_group_badge',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        badge_id: badgeId,
        link_url: str('New URL the badge links to.'),
        image_url: str('New URL of the badge image.'),
        name: str('New display name.'),
      },
      required: ['group_id', 'badge_id'],
      request: { rest: { method: 'PUT', path: '/groups/:group_id/badges/:badge_id' } },
      example: { group_id: '10', badge_id: 1, name: 'Coverage' },
    },
    {
      id: 'group.badge_get',
      title: 'Get group badge',
      description:
        'Show one group badge with its link and image URLs, both raw and with placeholders expanded.',
      tool: 'forge_get_group_badge',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, badge_id: badgeId },
      required: ['group_id', 'badge_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/badges/:badge_id' } },
      example: { group_id: '10', badge_id: 1 },
    },
    {
      id: 'group.badge_list',
      title: 'List group badges',
      description: 'List the badges defined on a group.',
      tool: 'forge_list_group_badges',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, name: str('Only badges with this name.'), ...P.paging },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/badges' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.badge_preview',
      title: 'Preview group badge',
      description:
        'Show how a badge link and image URL would render after placeholder expansion, without creating anything. Use before group.badge_add to check the URLs.',
      tool: 'forge_preview_group_badge',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        link_url: str('Badge link URL to render, placeholders allowed.'),
        image_url: str('Badge image URL to render, placeholders allowed.'),
      },
      required: ['group_id', 'link_url', 'image_url'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/badges/render' } },
      example: {
        group_id: '10',
        link_url: 'https://ci.example.com/%{project_path}',
        image_url: 'https://ci.example.com/%{project_path}/badge.svg',
      },
    },
    {
      id: 'group.create',
      title: 'Create group',
      description:
        'Create a new top-level group, or a subgroup when parent_id is given. The caller becomes its Owner.',
      tool: 'forge_group_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        name: str('Display name of the group, e.g. "Platform Team".'),
        path: str('URL path of the group (letters, digits, "-", "_", "."), e.g. "platform-team".'),
        parent_id: int('Numeric ID of the parent group, to create a subgroup.'),
        organization_id: int(
          'Organization the top-level group belongs to (defaults to the default organization).',
        ),
        ...groupSettings,
      },
      required: ['name', 'path'],
      request: { rest: { method: 'POST', path: '/groups' } },
      example: { name: 'Research', path: 'research', parent_id: 10, visibility: 'private' },
    },
    {
      id: 'group.credential_delete_ssh_key',
      title: 'Delete enterprise user SSH key',
      description:
        "Delete an enterprise user's SSH key from the group's credentials inventory; the user is notified. Irreversible: the user must add a new key.",
      tool: 'forge_delete_group_ssh_key',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'ultimate',
      scope: 'api',
      params: {
        group_id: P.groupId,
        key_id: int('Numeric ID of the SSH key (from group.credential_list_ssh_keys).'),
      },
      required: ['group_id', 'key_id'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/manage/ssh_keys/:key_id' } },
      example: { group_id: '10', key_id: 1 },
    },
    {
      id: 'group.credential_list_pats',
      title: 'List enterprise users’ personal access tokens',
      description:
        "List the personal access tokens of a top-level group's enterprise users (credentials inventory), with scopes, last use and expiry. For auditing token hygiene.",
      tool: 'forge_list_group_personal_access_tokens',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        ...P.tokenFilters,
        ...P.paging,
      },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/manage/personal_access_tokens' } },
      example: { group_id: '10', state: 'active' },
    },
    {
      id: 'group.credential_list_ssh_keys',
      title: 'List enterprise users’ SSH keys',
      description: "List the SSH keys of a top-level group's enterprise users (credentials inventory).",
      tool: 'forge_list_group_ssh_keys',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        created_after: dateTime('Only keys created after this time (ISO 8601).'),
        created_before: dateTime('Only keys created before this time (ISO 8601).'),
        expires_after: dateTime('Only keys expiring after this time.'),
        expires_before: dateTime('Only keys expiring before this time.'),
        ...P.paging,
      },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/manage/ssh_keys' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.credential_revoke_pat',
      title: 'Revoke enterprise user personal access token',
      description:
        "Revoke an enterprise user's personal access token from the group's credentials inventory; the user is notified. Irreversible: the token stops working at once.",
      tool: 'forge_revoke_group_personal_access_token',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'ultimate',
      scope: 'api',
      params: {
        group_id: P.groupId,
        pat_id: int('Numeric ID of the personal access token (from group.credential_list_pats).'),
      },
      required: ['group_id', 'pat_id'],
      request: {
        rest: { method: 'DELETE', path: '/groups/:group_id/manage/personal_access_tokens/:pat_id' },
      },
      example: { group_id: '10', pat_id: 1 },
    },
    {
      id: 'group.delete',
      title: 'Delete group',
      description:
        'Delete a group with all its subgroups and projects. Where delayed deletion applies the group is first marked for deletion (restorable with group.restore until the retention period ends); with permanently_remove it is removed at once. Irreversible once removed.',
      tool: 'forge_group_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        permanently_remove: bool(
          'Remove at once a subgroup that is already marked for deletion (never a top-level group); requires full_path. Deprecated since GitLab 18.4, where instances may refuse immediate deletion.',
        ),
        full_path: str(
          'Full path of the group, required with permanently_remove as a safeguard, e.g. "acme/old".',
        ),
      },
      required: ['group_id'],
      valueRequires: P.permanentRemovalNeedsPath,
      request: { rest: { method: 'DELETE', path: '/groups/:group_id' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.epic_board_get',
      title: 'Get epic board',
      description: "Show one of a group's epic boards with its lists (columns) and label filters.",
      tool: 'forge_group_epic_board_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        board_id: int('Numeric ID of the epic board (from group.epic_board_list).'),
      },
      required: ['group_id', 'board_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/epic_boards/:board_id' } },
      example: { group_id: '10', board_id: 1 },
    },
    {
      id: 'group.epic_board_list',
      title: 'List epic boards',
      description:
        "List a group's epic boards (kanban boards of epics). For issue boards use group.group_board_list.",
      tool: 'forge_group_epic_board_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_id: P.groupId, ...P.paging },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/epic_boards' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.epic_create',
      title: 'Create epic',
      description:
        'Create an epic (an epic-type work item) in a group, with optional description, dates, color, labels and health status. Add children afterwards with group.epic_issue_assign.',
      tool: 'forge_epic_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        group_path: groupPath,
        title: str('Title of the epic.'),
        description: str('Description in Markdown.'),
        confidential: bool('Make the epic confidential.'),
        start_date: date('Start date, YYYY-MM-DD.'),
        due_date: date('Due date, YYYY-MM-DD.'),
        is_fixed: bool('Use the given dates as fixed dates (true) instead of rolling them up from children.'),
        color: str('Epic color on roadmaps, as a hex value, e.g. "#1068bf".'),
        label_ids: intList('Numeric IDs of labels to set.'),
        health_status: str('Health status: onTrack, needsAttention or atRisk.', {
          enum: ['onTrack', 'needsAttention', 'atRisk'],
        }),
      },
      required: ['group_path', 'title'],
      request: {
        graphql: {
          document: CREATE_EPIC,
          resultPath: 'workItemCreate.workItem',
          mutation: 'workItemCreate',
        },
      },
      handler: createEpic,
      example: {
        group_path: 'acme',
        title: 'Q3 onboarding revamp',
        description: 'Umbrella for onboarding work.',
      },
    },
    {
      id: 'group.epic_delete',
      title: 'Delete epic',
      description:
        'Permanently delete an epic with its comments; its child issues and epics are detached, not deleted. Irreversible — to keep it, close it with group.epic_update instead.',
      tool: 'forge_epic_delete',
      write: true,
      destructive: true,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: { group_path: groupPath, epic_iid: epicIid },
      required: ['group_path', 'epic_iid'],
      request: {
        graphql: {
          document: DELETE_WORK_ITEM,
          mutation: 'workItemDelete',
        },
      },
      handler: async (args, ctx) => {
        const epic = await resolveWorkItem(ctx, 'getWorkItemIDQuery', args.group_path, args.epic_iid, 'Epic');
        await mutate(ctx, 'workItemDelete', DELETE_WORK_ITEM, { id: epic.id });
        return { deleted: true, id: epic.id, iid: String(args.epic_iid) };
      },
      example: { group_path: 'acme', epic_iid: '1' },
    },
    {
      id: 'group.epic_discussion_add_note',
      title: 'Reply to epic thread',
      description:
        'Add a reply to an existing comment thread on an epic. To start a new thread use group.epic_discussion_create.',
      tool: 'forge_add_epic_discussion_note',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        group_path: groupPath,
        epic_iid: epicIid,
        discussion_id: epicDiscussionId,
        body: noteBody,
        internal: internalNote,
      },
      required: ['group_path', 'epic_iid', 'discussion_id', 'body'],
      request: { graphql: { document: CREATE_NOTE('mutationCreateNoteReply'), mutation: 'createNote' } },
      handler: async (args, ctx) => {
        const epic = await resolveWorkItem(
          ctx,
          'queryResolveWorkItemGID',
          args.group_path,
          args.epic_iid,
          'Epic',
        );
        const input: Obj = {
          noteableId: epic.id,
          body: args.body,
          discussionId: discussionGid(args.discussion_id),
        };
        if (args.internal !== undefined) input.internal = args.internal;
        return dig(
          await mutate(ctx, 'createNote', CREATE_NOTE('mutationCreateNoteReply'), { input }),
          'note',
        );
      },
      example: {
        group_path: 'acme',
        epic_iid: '1',
        discussion_id: '6a9c1750b37d513a43987b574953fceb50b03ce7',
        body: 'Agreed, let us split this.',
      },
    },
    {
      id: 'group.epic_discussion_create',
      title: 'Start epic thread',
      description:
        'Start a new comment thread (discussion) on an epic that others can reply to. For a reply use group.epic_discussion_add_note.',
      tool: 'forge_create_epic_discussion',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: { group_path: groupPath, epic_iid: epicIid, body: noteBody, internal: internalNote },
      required: ['group_path', 'epic_iid', 'body'],
      request: { graphql: { document: CREATE_NOTE('mutationCreateNote'), mutation: 'createNote' } },
      handler: createEpicNote,
      example: { group_path: 'acme', epic_iid: '1', body: 'Should this include the mobile app?' },
    },
    {
      id: 'group.epic_discussion_delete_note',
      title: 'Delete epic thread comment',
      description: 'Permanently delete one comment from an epic thread. Irreversible.',
      tool: 'forge_delete_epic_discussion_note',
      write: true,
      destructive: true,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: { note_id: gqlNoteId },
      required: ['note_id'],
      request: {
        graphql: {
          document: DESTROY_NOTE,
          variables: { id: 'note_id' },
          resultPath: 'destroyNote',
          mutation: 'destroyNote',
        },
      },
      example: { note_id: 'gid://gitlab/Note/1' },
    },
    {
      id: 'group.epic_discussion_get',
      title: 'Get epic thread',
      description: 'Show one comment thread of an epic with all its replies.',
      tool: 'forge_get_epic_discussion',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_path: groupPath, epic_iid: epicIid, discussion_id: epicDiscussionId },
      required: ['group_path', 'epic_iid', 'discussion_id'],
      request: { graphql: { document: LIST_DISCUSSIONS, resultPath: 'namespace.workItem' } },
      handler: async (args, ctx) => {
        const wanted = discussionGid(args.discussion_id);
        const found = await findInDiscussions(ctx, LIST_DISCUSSIONS, args, (list) =>
          list.find((d) => d.id === wanted),
        );
        if (found === undefined)
          throw new Error(`Discussion ${wanted} not found on epic &${String(args.epic_iid)}`);
        return found;
      },
      example: {
        group_path: 'acme',
        epic_iid: '1',
        discussion_id: 'gid://gitlab/Discussion/1',
      },
    },
    {
      id: 'group.epic_discussion_list',
      title: 'List epic threads',
      description:
        'List the comment threads of an epic, each with its notes (cursor-paged). For a flat list of comments use group.epic_note_list.',
      tool: 'forge_list_epic_discussions',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        group_path: groupPath,
        epic_iid: epicIid,
        filter: noteFilter,
        sort: noteOrder,
        first: gqlFirst,
        after: gqlAfter,
      },
      required: ['group_path', 'epic_iid'],
      request: {
        graphql: {
          document: LIST_DISCUSSIONS,
          variables: {
            fullPath: 'group_path',
            iid: 'epic_iid',
            first: 'first',
            after: 'after',
            filter: 'filter',
            sort: 'sort',
          },
          resultPath: 'namespace.workItem.widgets.discussions',
        },
      },
      example: { group_path: 'acme', epic_iid: '1', first: 20 },
    },
    {
      id: 'group.epic_discussion_update_note',
      title: 'Edit epic thread comment',
      description: 'Replace the text of one comment in an epic thread.',
      tool: 'forge_update_epic_discussion_note',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: { note_id: gqlNoteId, body: str('New comment text in Markdown.') },
      required: ['note_id', 'body'],
      request: {
        graphql: {
          document: UPDATE_NOTE,
          variables: { id: 'note_id', body: 'body' },
          resultPath: 'updateNote.note',
          mutation: 'updateNote',
        },
      },
      example: { note_id: 'gid://gitlab/Note/1', body: 'Updated: split into two epics.' },
    },
    {
      id: 'group.epic_get',
      title: 'Get epic',
      description:
        'Show one epic: title, description, state, author, labels, dates, color, parent epic and whether it has children.',
      tool: 'forge_epic_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_path: groupPath, epic_iid: epicIid },
      required: ['group_path', 'epic_iid'],
      request: {
        graphql: {
          document: GET_EPIC,
          variables: { fullPath: 'group_path', iid: 'epic_iid' },
          resultPath: 'namespace.workItem',
        },
      },
      example: { group_path: 'acme', epic_iid: '1' },
    },
    {
      id: 'group.epic_get_links',
      title: 'List child epics',
      description:
        'List the child epics of an epic (multi-level epics). For child issues use group.epic_issue_list.',
      tool: 'forge_epic_get_links',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'read_api',
      params: { group_id: P.groupId, epic_iid: int('Epic IID, the number in &N.') },
      required: ['group_id', 'epic_iid'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/epics/:epic_iid/epics' } },
      example: { group_id: '10', epic_iid: 1 },
    },
    {
      id: 'group.epic_issue_assign',
      title: 'Add issue to epic',
      description:
        'Attach an issue to an epic as its child (moving it from any previous epic). The issue is named by its project path and IID.',
      tool: 'forge_epic_issue_assign',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: { group_path: groupPath, epic_iid: epicIid, project_path: issuePath, issue_iid: issueIidStr },
      required: ['group_path', 'epic_iid', 'project_path', 'issue_iid'],
      request: { graphql: { document: WORK_ITEM_UPDATE('mutationAddChild'), mutation: 'workItemUpdate' } },
      handler: async (args, ctx) => {
        const epic = await resolveWorkItem(
          ctx,
          'queryResolveWorkItemGID',
          args.group_path,
          args.epic_iid,
          'Epic',
        );
        const issue = await resolveWorkItem(
          ctx,
          'queryResolveWorkItemGID',
          args.project_path,
          args.issue_iid,
          'Issue',
        );
        const input = { id: epic.id, hierarchyWidget: { childrenIds: [issue.id] } };
        return dig(
          await mutate(ctx, 'workItemUpdate', WORK_ITEM_UPDATE('mutationAddChild'), { input }),
          'workItem',
        );
      },
      example: { group_path: 'acme', epic_iid: '1', project_path: 'acme/widgets', issue_iid: '1' },
    },
    {
      id: 'group.epic_issue_list',
      title: 'List epic children',
      description:
        'List the child items of an epic — issues and child epics — with their state and links (cursor-paged).',
      tool: 'forge_epic_issue_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        group_path: groupPath,
        epic_iid: epicIid,
        state: str('Only open (OPEN) or only closed (CLOSED) children (default both).', {
          enum: ['OPEN', 'CLOSED'],
        }),
        first: gqlFirst,
        after: gqlAfter,
      },
      required: ['group_path', 'epic_iid'],
      request: {
        graphql: {
          document: LIST_CHILDREN,
          variables: {
            fullPath: 'group_path',
            iid: 'epic_iid',
            state: 'state',
            first: 'first',
            after: 'after',
          },
          resultPath: 'namespace.workItem.widgets.children',
        },
      },
      example: { group_path: 'acme', epic_iid: '1' },
    },
    {
      id: 'group.epic_issue_remove',
      title: 'Remove issue from epic',
      description:
        'Detach an issue from an epic; the issue itself stays. Refused when the issue is not a child of that epic.',
      tool: 'forge_epic_issue_remove',
      write: true,
      destructive: true,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: { group_path: groupPath, epic_iid: epicIid, project_path: issuePath, issue_iid: issueIidStr },
      required: ['group_path', 'epic_iid', 'project_path', 'issue_iid'],
      request: {
        graphql: { document: WORK_ITEM_UPDATE('mutationRemoveParent'), mutation: 'workItemUpdate' },
      },
      handler: async (args, ctx) => {
        const epic = await resolveWorkItem(
          ctx,
          'queryResolveWorkItemGID',
          args.group_path,
          args.epic_iid,
          'Epic',
        );
        const issue = await resolveWorkItem(
          ctx,
          'queryResolveWorkItemGID',
          args.project_path,
          args.issue_iid,
          'Issue',
        );
        if (issue.parentId !== undefined && gidNumber(issue.parentId) !== gidNumber(epic.id)) {
          throw new Error(
            `Issue ${String(args.project_path)}#${String(args.issue_iid)} is not a child of this epic`,
          );
        }
        const input = { id: issue.id, hierarchyWidget: { parentId: null } };
        return dig(
          await mutate(ctx, 'workItemUpdate', WORK_ITEM_UPDATE('mutationRemoveParent'), { input }),
          'workItem',
        );
      },
      example: { group_path: 'acme', epic_iid: '1', project_path: 'acme/widgets', issue_iid: '1' },
    },
    {
      id: 'group.epic_issue_update',
      title: 'Reorder issue in epic',
      description:
        "Move a child issue of an epic before or after another child, changing the epic's order; answers the children in their new order.",
      tool: 'forge_epic_issue_update',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        group_path: groupPath,
        epic_iid: epicIid,
        project_path: issuePath,
        issue_iid: issueIidStr,
        adjacent_issue_iid: str('IID of the child to place the issue next to, e.g. "7".', {
          pattern: '^[1-9][0-9]*$',
        }),
        adjacent_project_path: str('Project path of that adjacent child when it differs from project_path.'),
        relative_position: str('Place the issue "BEFORE" or "AFTER" the adjacent child.', {
          enum: ['BEFORE', 'AFTER'],
        }),
      },
      required: [
        'group_path',
        'epic_iid',
        'project_path',
        'issue_iid',
        'adjacent_issue_iid',
        'relative_position',
      ],
      request: {
        graphql: { document: WORK_ITEM_UPDATE('mutationReorderChild'), mutation: 'workItemUpdate' },
      },
      handler: async (args, ctx) => {
        const epic = await resolveWorkItem(
          ctx,
          'queryResolveWorkItemGID',
          args.group_path,
          args.epic_iid,
          'Epic',
        );
        const child = await resolveWorkItem(
          ctx,
          'queryResolveWorkItemGID',
          args.project_path,
          args.issue_iid,
          'Issue',
        );
        const adjacent = await resolveWorkItem(
          ctx,
          'queryResolveWorkItemGID',
          args.adjacent_project_path ?? args.project_path,
          args.adjacent_issue_iid,
          'Issue',
        );
        const input = {
          id: child.id,
          hierarchyWidget: {
            parentId: epic.id,
            adjacentWorkItemId: adjacent.id,
            relativePosition: args.relative_position,
          },
        };
        await mutate(ctx, 'workItemUpdate', WORK_ITEM_UPDATE('mutationReorderChild'), { input });
        const data = await gql(ctx, LIST_CHILDREN, {
          fullPath: args.group_path,
          iid: String(args.epic_iid),
          first: 100,
        });
        return dig(data, 'namespace.workItem');
      },
      example: {
        group_path: 'acme',
        epic_iid: '1',
        project_path: 'acme/widgets',
        issue_iid: '2',
        adjacent_issue_iid: '1',
        relative_position: 'BEFORE',
      },
    },
    {
      id: 'group.epic_list',
      title: 'List epics',
      description: `List a group's epics with filters for state, labels, author, search text and dates. Use group.epic_get for one epic's details. ${P.atMostOne([authorPair])}`,
      tool: 'forge_epic_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        state: str('Only epics in this state (default all).', { enum: ['opened', 'closed', 'all'] }),
        labels: str('Comma-separated label names; epics must have all of them, e.g. "frontend,priority::1".'),
        with_labels_details: bool('Return label objects (color, description) instead of names.'),
        author_id: int('Only epics created by this user ID.'),
        author_username: str('Only epics created by this username.'),
        search: str('Only epics whose title or description contains this text.'),
        confidential: bool('Only confidential (true) or non-confidential (false) epics.'),
        my_reaction_emoji: str('Only epics the caller reacted to with this emoji ("None"/"Any" allowed).'),
        order_by: str('Order by "created_at" (default), "updated_at" or "title".', {
          enum: ['created_at', 'updated_at', 'title'],
        }),
        sort,
        created_after: dateTime('Only epics created on or after this time (ISO 8601).'),
        created_before: dateTime('Only epics created on or before this time.'),
        updated_after: dateTime('Only epics updated on or after this time.'),
        updated_before: dateTime('Only epics updated on or before this time.'),
        include_ancestor_groups: bool('Also include epics of ancestor groups.'),
        include_descendant_groups: bool('Also include epics of subgroups (default true).'),
        not: {
          type: 'object',
          additionalProperties: false,
          properties: {
            labels: str('Comma-separated labels the epic must not carry.'),
            author_id: int('Author user ID to exclude.'),
            author_username: str('Author username to exclude (not with author_id).'),
          },
          description: 'Exclusion filters: leave out epics matching these, e.g. {"labels": "wontfix"}.',
        },
        ...P.paging,
      },
      required: ['group_id'],
      exclusive: [authorPair],
      request: { rest: { method: 'GET', path: '/groups/:group_id/epics' } },
      example: { group_id: '10', state: 'opened' },
    },
    {
      id: 'group.epic_note_create',
      title: 'Comment on epic',
      description:
        'Add a comment to an epic. Quick actions in the text (e.g. "/close") are applied. To reply inside a thread use group.epic_discussion_add_note.',
      tool: 'forge_epic_note_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: { group_path: groupPath, epic_iid: epicIid, body: noteBody, internal: internalNote },
      required: ['group_path', 'epic_iid', 'body'],
      request: { graphql: { document: CREATE_NOTE('mutationCreateNote'), mutation: 'createNote' } },
      handler: createEpicNote,
      example: { group_path: 'acme', epic_iid: '1', body: 'Kick-off scheduled for Monday.' },
    },
    {
      id: 'group.epic_note_delete',
      title: 'Delete epic comment',
      description: 'Permanently delete a comment on an epic. Irreversible.',
      tool: 'forge_epic_note_delete',
      write: true,
      destructive: true,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: { note_id: gqlNoteId },
      required: ['note_id'],
      request: {
        graphql: {
          document: DESTROY_NOTE,
          variables: { id: 'note_id' },
          resultPath: 'destroyNote',
          mutation: 'destroyNote',
        },
      },
      example: { note_id: 'gid://gitlab/Note/1' },
    },
    {
      id: 'group.epic_note_get',
      title: 'Get epic comment',
      description: 'Show one comment of an epic by its global ID.',
      tool: 'forge_epic_note_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_path: groupPath, epic_iid: epicIid, note_id: gqlNoteId },
      required: ['group_path', 'epic_iid', 'note_id'],
      request: { graphql: { document: LIST_NOTES, resultPath: 'namespace.workItem' } },
      handler: async (args, ctx) => {
        const found = await findInDiscussions(ctx, LIST_NOTES, args, (list) => {
          for (const d of list) {
            const notes = dig(d, 'notes.nodes');
            // A note's global ID names its class (Note, DiscussionNote ...): the same note has the same number.
            const hit = Array.isArray(notes)
              ? notes.find((n) => gidNumber(String(dig(n, 'id'))) === gidNumber(String(args.note_id)))
              : undefined;
            if (hit !== undefined) return hit;
          }
          return undefined;
        });
        if (found === undefined)
          throw new Error(`Note ${String(args.note_id)} not found on epic &${String(args.epic_iid)}`);
        return found;
      },
      example: { group_path: 'acme', epic_iid: '1', note_id: 'gid://gitlab/Note/1' },
    },
    {
      id: 'group.epic_note_list',
      title: 'List epic comments',
      description:
        'List the comments and system notes of an epic (cursor-paged); filter keeps only comments or only activity.',
      tool: 'forge_epic_note_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        group_path: groupPath,
        epic_iid: epicIid,
        filter: noteFilter,
        sort: noteOrder,
        first: gqlFirst,
        after: gqlAfter,
      },
      required: ['group_path', 'epic_iid'],
      request: {
        graphql: {
          document: LIST_NOTES,
          variables: {
            fullPath: 'group_path',
            iid: 'epic_iid',
            first: 'first',
            after: 'after',
            filter: 'filter',
            sort: 'sort',
          },
          resultPath: 'namespace.workItem.widgets.discussions',
        },
      },
      example: { group_path: 'acme', epic_iid: '1', filter: 'ONLY_COMMENTS' },
    },
    {
      id: 'group.epic_note_update',
      title: 'Edit epic comment',
      description: 'Replace the text of a comment on an epic.',
      tool: 'forge_epic_note_update',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: { note_id: gqlNoteId, body: str('New comment text in Markdown.') },
      required: ['note_id', 'body'],
      request: {
        graphql: {
          document: UPDATE_NOTE,
          variables: { id: 'note_id', body: 'body' },
          resultPath: 'updateNote.note',
          mutation: 'updateNote',
        },
      },
      example: { note_id: 'gid://gitlab/Note/1', body: 'Kick-off moved to Tuesday.' },
    },
    {
      id: 'group.epic_update',
      title: 'Update, close or reopen epic',
      description:
        'Change an epic: title, description, labels, dates, color, health status, parent epic, confidentiality, or close/reopen it with state_event. Only the fields given are changed.',
      tool: 'forge_epic_update',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        group_path: groupPath,
        epic_iid: epicIid,
        title: str('New title.'),
        description: str('New description in Markdown (replaces the old one).'),
        state_event: str('"close" to close the epic, "reopen" to reopen it.', { enum: ['close', 'reopen'] }),
        confidential: bool('Make the epic confidential (true) or not (false).'),
        add_label_ids: intList('Numeric IDs of labels to add.'),
        remove_label_ids: intList('Numeric IDs of labels to remove.'),
        start_date: date('New start date, YYYY-MM-DD.'),
        due_date: date('New due date, YYYY-MM-DD.'),
        is_fixed: bool('Use fixed dates (true) or roll dates up from children (false).'),
        color: str('Epic color as a hex value, e.g. "#1068bf".'),
        health_status: {
          type: ['string', 'null'],
          enum: ['onTrack', 'needsAttention', 'atRisk', null],
          description: 'Health status: onTrack, needsAttention or atRisk; null clears it.',
        },
        parent_epic_iid: {
          type: ['string', 'null'],
          pattern: '^[1-9][0-9]*$',
          description:
            'IID of the epic to make this one a child of, e.g. "2"; null detaches it from its parent.',
        },
        parent_group_path: str('Group of that parent epic when it is not group_path, e.g. "acme".'),
      },
      required: ['group_path', 'epic_iid'],
      needs: { parent_group_path: ['parent_epic_iid'] },
      request: { graphql: { document: WORK_ITEM_UPDATE('UpdateWorkItem'), mutation: 'workItemUpdate' } },
      handler: async (args, ctx) => {
        const epic = await resolveWorkItem(ctx, 'getWorkItemIDQuery', args.group_path, args.epic_iid, 'Epic');
        const input: Obj = { id: epic.id };
        if (args.title !== undefined) input.title = args.title;
        if (args.confidential !== undefined) input.confidential = args.confidential;
        if (args.state_event !== undefined) input.stateEvent = String(args.state_event).toUpperCase();
        if (args.description !== undefined) input.descriptionWidget = { description: args.description };
        if (args.add_label_ids !== undefined || args.remove_label_ids !== undefined) {
          input.labelsWidget = {
            addLabelIds: labelGids(args.add_label_ids),
            removeLabelIds: labelGids(args.remove_label_ids),
          };
        }
        if (args.start_date !== undefined || args.due_date !== undefined || args.is_fixed !== undefined) {
          input.startAndDueDateWidget = {
            startDate: args.start_date,
            dueDate: args.due_date,
            isFixed: args.is_fixed,
          };
        }
        if (args.color !== undefined) input.colorWidget = { color: args.color };
        if (args.health_status !== undefined) input.healthStatusWidget = { healthStatus: args.health_status };
        if (args.parent_epic_iid === null) input.hierarchyWidget = { parentId: null };
        else if (args.parent_epic_iid !== undefined) {
          const parentPath = args.parent_group_path ?? args.group_path;
          const parent = await resolveWorkItem(
            ctx,
            'getWorkItemIDQuery',
            parentPath,
            args.parent_epic_iid,
            'Epic',
          );
          input.hierarchyWidget = { parentId: parent.id };
        }
        return dig(
          await mutate(ctx, 'workItemUpdate', WORK_ITEM_UPDATE('UpdateWorkItem'), { input }),
          'workItem',
        );
      },
      example: { group_path: 'acme', epic_iid: '1', state_event: 'close' },
    },
    {
      id: 'group.event_epic_label_get',
      title: 'Get epic label event',
      description: 'Show one label change (added or removed label, who and when) recorded on an epic.',
      tool: 'forge_group_event_epic_label_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        epic_id: int('Global numeric ID of the epic (the "id" field of group.epic_list, not the IID).'),
        event_id: int('Numeric ID of the label event (from group.event_epic_label_list).'),
      },
      required: ['group_id', 'epic_id', 'event_id'],
      request: {
        rest: { method: 'GET', path: '/groups/:group_id/epics/:epic_id/resource_label_events/:event_id' },
      },
      example: { group_id: '10', epic_id: 1, event_id: 1 },
    },
    {
      id: 'group.event_epic_label_list',
      title: 'List epic label events',
      description:
        'List the history of labels added to and removed from an epic, with who changed them and when.',
      tool: 'forge_group_event_epic_label_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        epic_id: int('Global numeric ID of the epic (the "id" field of group.epic_list, not the IID).'),
        ...P.paging,
      },
      required: ['group_id', 'epic_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/epics/:epic_id/resource_label_events' } },
      example: { group_id: '10', epic_id: 1 },
    },
    {
      id: 'group.get',
      title: 'Get group',
      description:
        'Show one group by numeric ID or full path: name, path, visibility, parent, settings and web URL. Use group.projects and group.subgroups for its contents.',
      tool: 'forge_group_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        with_projects: bool(
          'Include the projects of the group (default true; prefer group.projects for large groups).',
        ),
        with_custom_attributes: withCustomAttributes,
      },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id' } },
      notFound: { object: 'Group', key: 'group_id', next: ['group.search', 'group.list', 'group.subgroups'] },
      example: { group_id: 'acme', with_projects: false },
    },
    {
      id: 'group.group_billable_member_memberships_list',
      title: 'List billable member memberships',
      description:
        'List where a billable member of a top-level group has direct memberships (subgroups and projects) and with which role. Use to see why a user counts as a seat.',
      tool: 'forge_group_group_billable_member_memberships_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, user_id: P.userId, ...P.paging },
      required: ['group_id', 'user_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/billable_members/:user_id/memberships' } },
      example: { group_id: '10', user_id: 2 },
    },
    {
      id: 'group.group_billable_member_remove',
      title: 'Remove billable member',
      description:
        'Remove a billable user from a top-level group and from every subgroup and project in it, freeing the seat. Irreversible: memberships must be granted again one by one.',
      tool: 'forge_group_group_billable_member_remove',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId, user_id: P.userId },
      required: ['group_id', 'user_id'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/billable_members/:user_id' } },
      example: { group_id: '10', user_id: 3 },
    },
    {
      id: 'group.group_billable_members_list',
      title: 'List billable members',
      description:
        'List the users who take a paid seat in a top-level group (members of the group, its subgroups and projects, and invited groups), with last activity.',
      tool: 'forge_group_group_billable_members_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        search: str('Only members whose name, username or public email contains this text.'),
        sort: str('Sort order.', {
          enum: [
            'access_level_asc',
            'access_level_desc',
            'last_joined',
            'name_asc',
            'name_desc',
            'oldest_joined',
            'oldest_sign_in',
            'recent_sign_in',
            'last_activity_on_asc',
            'last_activity_on_desc',
          ],
        }),
        ...P.paging,
      },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/billable_members' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.group_board_create',
      title: 'Create group issue board',
      description: 'Create a new issue board in a group, showing issues from all its projects.',
      tool: 'forge_group_board_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId, name: str('Name of the new board, e.g. "Sprint board".') },
      required: ['group_id', 'name'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/boards' } },
      example: { group_id: '10', name: 'Sprint board' },
    },
    {
      id: 'group.group_board_create_list',
      title: 'Add list to group board',
      description:
        'Add a list (column) to a group issue board, scoped by a label, or (Premium) by an assignee, milestone or iteration: exactly one of label_id, assignee_id, milestone_id or iteration_id, not several.',
      tool: 'forge_group_board_list_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        board_id: boardId,
        label_id: int('Numeric ID of the label the list shows.'),
        assignee_id: int('User ID whose assigned issues the list shows (Premium).'),
        milestone_id: int('Milestone ID the list shows (Premium).'),
        iteration_id: int('Iteration ID the list shows (Premium).'),
      },
      required: ['group_id', 'board_id'],
      oneOf: [P.boardListScope],
      exclusive: [P.boardListScope],
      request: { rest: { method: 'POST', path: '/groups/:group_id/boards/:board_id/lists' } },
      example: { group_id: '10', board_id: 1, label_id: 1 },
    },
    {
      id: 'group.group_board_delete',
      title: 'Delete group issue board',
      description:
        'Delete a group issue board with its lists; the issues themselves are untouched. Irreversible.',
      tool: 'forge_group_board_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId, board_id: boardId },
      required: ['group_id', 'board_id'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/boards/:board_id' } },
      example: { group_id: '10', board_id: 1 },
    },
    {
      id: 'group.group_board_delete_list',
      title: 'Remove list from group board',
      description:
        'Remove a list (column) from a group issue board; issues and labels are kept. Irreversible.',
      tool: 'forge_group_board_list_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId, board_id: boardId, list_id: listId },
      required: ['group_id', 'board_id', 'list_id'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/boards/:board_id/lists/:list_id' } },
      example: { group_id: '10', board_id: 1, list_id: 1 },
    },
    {
      id: 'group.group_board_get',
      title: 'Get group issue board',
      description: 'Show one group issue board with its lists and scope (milestone, labels, assignee).',
      tool: 'forge_group_board_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, board_id: boardId },
      required: ['group_id', 'board_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/boards/:board_id' } },
      example: { group_id: '10', board_id: 1 },
    },
    {
      id: 'group.group_board_get_list',
      title: 'Get group board list',
      description: 'Show one list (column) of a group issue board with its label and position.',
      tool: 'forge_group_board_list_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, board_id: boardId, list_id: listId },
      required: ['group_id', 'board_id', 'list_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/boards/:board_id/lists/:list_id' } },
      example: { group_id: '10', board_id: 1, list_id: 1 },
    },
    {
      id: 'group.group_board_list',
      title: 'List group issue boards',
      description: "List a group's issue boards. For epic boards use group.epic_board_list.",
      tool: 'forge_group_board_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, ...P.paging },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/boards' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.group_board_list_lists',
      title: 'List group board lists',
      description:
        'List the lists (columns) of a group issue board, in board order. Open and Closed are not included.',
      tool: 'forge_group_board_list_lists',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, board_id: boardId, ...P.paging },
      required: ['group_id', 'board_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/boards/:board_id/lists' } },
      example: { group_id: '10', board_id: 1 },
    },
    {
      id: 'group.group_board_update',
      title: 'Update group issue board',
      description:
        'Rename a group issue board, hide its Open/Closed lists, or (Premium) change its scope: assignee, milestone, labels, weight.',
      tool: 'forge_group_board_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        board_id: boardId,
        name: str('New board name.'),
        hide_backlog_list: bool('Hide the Open list.'),
        hide_closed_list: bool('Hide the Closed list.'),
        assignee_id: int('Scope the board to issues assigned to this user (Premium).'),
        milestone_id: int('Scope the board to this milestone ID (Premium).'),
        labels: str('Scope the board to these comma-separated label names (Premium).'),
        weight: {
          type: 'integer',
          minimum: 0,
          description: 'Scope the board to this issue weight (Premium).',
        },
      },
      required: ['group_id', 'board_id'],
      request: { rest: { method: 'PUT', path: '/groups/:group_id/boards/:board_id' } },
      example: { group_id: '10', board_id: 1, name: 'Team board' },
    },
    {
      id: 'group.group_board_update_list',
      title: 'Move group board list',
      description: 'Change the position of a list (column) on a group issue board.',
      tool: 'forge_group_board_list_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        board_id: boardId,
        list_id: listId,
        position: {
          type: 'integer',
          minimum: 0,
          description: 'New zero-based position of the list among the lists.',
        },
      },
      required: ['group_id', 'board_id', 'list_id', 'position'],
      request: { rest: { method: 'PUT', path: '/groups/:group_id/boards/:board_id/lists/:list_id' } },
      example: { group_id: '10', board_id: 1, list_id: 1, position: 0 },
    },
    {
      id: 'group.group_export_download',
      title: 'Download group export',
      description:
        'Download the .tar.gz archive of a finished group export (scheduled with group.group_export_schedule). Answers an error while the export is still running.',
      tool: 'forge_download_group_export',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/export/download', response: 'binary' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.group_export_schedule',
      title: 'Start group export',
      description:
        'Start exporting a group (settings, subgroups, epics, labels, milestones…) to a file archive; fetch it later with group.group_export_download. The archive can leave the instance once downloaded.',
      tool: 'forge_schedule_group_export',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId },
      required: ['group_id'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/export' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.group_import_file',
      title: 'Import group from export file',
      description:
        'Create a new group from a group export archive (.tar.gz from group.group_export_download). The import runs in the background.',
      tool: 'forge_import_group_from_file',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        name: str('Name of the new group.', { in: 'form' }),
        path: str('URL path of the new group, e.g. "imported-team".', { in: 'form' }),
        parent_id: int('Numeric ID of the parent group to import into (omit for a top-level group).', {
          in: 'form',
        }),
        organization_id: int('Organization for a top-level group.', { in: 'form' }),
        file_path: str('Local path of the .tar.gz export archive (stdio transport only).', {
          in: 'file',
          wire: 'file',
        }),
        content_base64: str('The .tar.gz export archive as base64, for remote callers.', {
          in: 'file',
          wire: 'file',
        }),
      },
      required: ['name', 'path'],
      oneOf: [['file_path', 'content_base64']],
      request: { rest: { method: 'POST', path: '/groups/import' } },
      example: {
        name: 'Imported',
        path: 'imported',
        content_base64: 'H4sIAAAAAAAAA+3BAQ0AAADCoPdPbQ43oAAAAAAAAAAAAIA3A5reHScAKAAA',
      },
    },
    {
      id: 'group.group_label_create',
      title: 'Create group label',
      description: 'Create a label in a group; it is available to all projects and subgroups of the group.',
      tool: 'forge_group_label_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        name: str('Label name; scoped labels use "scope::value", e.g. "priority::high".'),
        color: str('Color as "#RRGGBB" or a CSS color name, e.g. "#d9534f".'),
        description: str('What the label means.'),
      },
      required: ['group_id', 'name', 'color'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/labels' } },
      example: { group_id: '10', name: 'priority::high', color: '#d9534f' },
    },
    {
      id: 'group.group_label_delete',
      title: 'Delete group label',
      description:
        'Delete a group label; it disappears from every issue, merge request and epic in the group. Irreversible.',
      tool: 'forge_group_label_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId, name: labelRef },
      required: ['group_id', 'name'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/labels/:name' } },
      example: { group_id: '10', name: 'bug' },
    },
    {
      id: 'group.group_label_get',
      title: 'Get group label',
      description: 'Show one group label with its color, description and (optionally) usage counts.',
      tool: 'forge_group_label_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        name: labelRef,
        include_ancestor_groups: bool('Also look in ancestor groups (default true).'),
        include_descendant_groups: bool('Also look in subgroups.'),
        only_group_labels: bool('Only group labels, not project labels (default true).'),
      },
      required: ['group_id', 'name'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/labels/:name' } },
      notFound: { object: 'Label', key: 'name', next: ['group.group_label_list'] },
      example: { group_id: '10', name: 'bug' },
    },
    {
      id: 'group.group_label_list',
      title: 'List group labels',
      description: 'List the labels of a group, optionally with open/closed issue and merge request counts.',
      tool: 'forge_group_label_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        search: str('Only labels whose name contains this text.'),
        with_counts: bool('Include issue and merge request counts (slower).'),
        include_ancestor_groups: bool('Also list labels of ancestor groups (default true).'),
        include_descendant_groups: bool('Also list labels of subgroups.'),
        only_group_labels: bool('Only group labels, not project labels (default true).'),
        archived: bool('Only archived (true) or active (false) labels.'),
        ...P.paging,
      },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/labels' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.group_label_subscribe',
      title: 'Subscribe to group label',
      description:
        'Subscribe the caller to a group label, to be notified about issues and merge requests that get it.',
      tool: 'forge_group_label_subscribe',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId, label_id: labelRef },
      required: ['group_id', 'label_id'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/labels/:label_id/subscribe' } },
      example: { group_id: '10', label_id: 'bug' },
    },
    {
      id: 'group.group_label_unsubscribe',
      title: 'Unsubscribe from group label',
      description: 'Stop the caller’s notifications for a group label.',
      tool: 'forge_group_label_unsubscribe',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId, label_id: labelRef },
      required: ['group_id', 'label_id'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/labels/:label_id/unsubscribe' } },
      example: { group_id: '10', label_id: 'bug' },
    },
    {
      id: 'group.group_label_update',
      title: 'Update group label',
      description:
        'Rename a group label or change its color or description. Give at least one of new_name, color, description.',
      tool: 'forge_group_label_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        name: labelRef,
        new_name: str('New label name.'),
        color: str('New color, "#RRGGBB" or a CSS color name.'),
        description: str('New description.'),
      },
      required: ['group_id', 'name'],
      oneOf: [['new_name', 'color', 'description']],
      request: { rest: { method: 'PUT', path: '/groups/:group_id/labels/:name' } },
      example: { group_id: '10', name: 'bug', color: '#ff0000' },
    },
    {
      id: 'group.group_member_add',
      title: 'Add group member',
      description:
        'Add a user to a group with a role (access level); the access extends to all its subgroups and projects. Name the user by exactly one of user_id or username, not both. To change an existing member use group.group_member_edit.',
      tool: 'forge_group_member_add',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        user_id: P.userIds('User ID to add, or several as a comma-separated string, e.g. 2 or "2,3".'),
        username: str('Username to add, or several comma-separated (instead of user_id).'),
        access_level: accessLevel('Role to grant'),
        expires_at: expiresAt,
        member_role_id: memberRoleId,
        invite_source: str('Where the invitation came from, for analytics.'),
      },
      required: ['group_id', 'access_level'],
      // Exactly one (mutually_exclusive and at_least_one_of in lib/api/members.rb).
      oneOf: [['user_id', 'username']],
      exclusive: [['user_id', 'username']],
      request: { rest: { method: 'POST', path: '/groups/:group_id/members' } },
      example: { group_id: '10', user_id: 1, access_level: 30 },
    },
    {
      id: 'group.group_member_edit',
      title: 'Change group member role',
      description: "Change a direct group member's role, expiry date or custom role.",
      tool: 'forge_group_member_edit',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        user_id: P.userId,
        access_level: accessLevel('New role'),
        expires_at: expiresAt,
        member_role_id: memberRoleId,
      },
      required: ['group_id', 'user_id', 'access_level'],
      request: { rest: { method: 'PUT', path: '/groups/:group_id/members/:user_id' } },
      example: { group_id: '10', user_id: 3, access_level: 40 },
    },
    {
      id: 'group.group_member_get',
      title: 'Get direct group member',
      description:
        'Show a direct member of a group with role and expiry. Use group.group_member_get_inherited to include membership inherited from parent groups.',
      tool: 'forge_group_member_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, user_id: P.userId },
      required: ['group_id', 'user_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/members/:user_id' } },
      notFound: { object: 'Member', key: 'user_id', next: ['group.members', 'user.list'] },
      example: { group_id: '10', user_id: 2 },
    },
    {
      id: 'group.group_member_get_inherited',
      title: 'Get group member (including inherited)',
      description:
        "Show a user's effective membership of a group, whether direct, inherited from a parent group or through an invited group.",
      tool: 'forge_group_member_get_inherited',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, user_id: P.userId },
      required: ['group_id', 'user_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/members/all/:user_id' } },
      notFound: { object: 'Member', key: 'user_id', next: ['group.members', 'user.list'] },
      example: { group_id: '10', user_id: 2 },
    },
    {
      id: 'group.group_member_remove',
      title: 'Remove group member',
      description:
        'Remove a direct member from a group, optionally also from its subgroups and projects and unassigning their issues and merge requests. Irreversible: access must be granted again.',
      tool: 'forge_group_member_remove',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        user_id: P.userId,
        skip_subresources: bool(
          'Keep the user’s direct memberships in subgroups and projects (default false).',
        ),
        unassign_issuables: bool('Also unassign the user from issues and merge requests in the group.'),
      },
      required: ['group_id', 'user_id'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/members/:user_id' } },
      example: { group_id: '10', user_id: 3 },
    },
    {
      id: 'group.group_member_share',
      title: 'Share group with another group',
      description:
        'Invite another group into this group with a role, giving all its members access. Same request as group.share_with_group.',
      tool: 'forge_group_share',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        share_with_group_id: int('Numeric ID of the group to invite.', { wire: 'group_id' }),
        group_access: accessLevel('Role its members get'),
        expires_at: expiresAt,
        member_role_id: memberRoleId,
      },
      required: ['group_id', 'share_with_group_id', 'group_access'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/share' } },
      example: { group_id: '10', share_with_group_id: 11, group_access: 30 },
    },
    {
      id: 'group.group_member_unshare',
      title: 'Stop sharing group with another group',
      description:
        "Remove an invited group's access to this group (undo group.group_member_share). Same request as group.unshare_from_group.",
      tool: 'forge_group_unshare',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId, shared_group_id: int('Numeric ID of the invited group to remove.') },
      required: ['group_id', 'shared_group_id'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/share/:shared_group_id' } },
      example: { group_id: '10', shared_group_id: 11 },
    },
    {
      id: 'group.group_milestone_burndown',
      title: 'Get group milestone burndown events',
      description:
        'List the events (issues opened, closed, reopened, weight changes) that draw a group milestone’s burndown chart.',
      tool: 'forge_group_milestone_burndown_events',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_id: P.groupId, milestone_id: milestoneId },
      required: ['group_id', 'milestone_id'],
      request: {
        rest: { method: 'GET', path: '/groups/:group_id/milestones/:milestone_id/burndown_events' },
      },
      example: { group_id: '10', milestone_id: 1 },
    },
    {
      id: 'group.group_milestone_create',
      title: 'Create group milestone',
      description: 'Create a milestone in a group, usable by issues and merge requests of all its projects.',
      tool: 'forge_group_milestone_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        title: str('Milestone title, e.g. "v2.0" or "Sprint 14".'),
        description: str('Milestone description.'),
        start_date: date('Start date, YYYY-MM-DD.'),
        due_date: date('Due date, YYYY-MM-DD.'),
      },
      required: ['group_id', 'title'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/milestones' } },
      example: { group_id: '10', title: 'v2.0', due_date: '2026-12-31' },
    },
    {
      id: 'group.group_milestone_delete',
      title: 'Delete group milestone',
      description:
        'Delete a group milestone; its issues and merge requests lose the milestone. Irreversible — close it with group.group_milestone_update to keep history.',
      tool: 'forge_group_milestone_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId, milestone_id: milestoneId },
      required: ['group_id', 'milestone_id'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/milestones/:milestone_id' } },
      example: { group_id: '10', milestone_id: 1 },
    },
    {
      id: 'group.group_milestone_get',
      title: 'Get group milestone',
      description: 'Show one group milestone with its dates, state and description.',
      tool: 'forge_group_milestone_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, milestone_id: milestoneId },
      required: ['group_id', 'milestone_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/milestones/:milestone_id' } },
      notFound: { object: 'Milestone', key: 'milestone_id', next: ['group.group_milestone_list'] },
      example: { group_id: '10', milestone_id: 1 },
    },
    {
      id: 'group.group_milestone_issues',
      title: 'List issues of group milestone',
      description: 'List the issues assigned to a group milestone across the group’s projects.',
      tool: 'forge_group_milestone_issues',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, milestone_id: milestoneId, ...P.paging },
      required: ['group_id', 'milestone_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/milestones/:milestone_id/issues' } },
      example: { group_id: '10', milestone_id: 1 },
    },
    {
      id: 'group.group_milestone_list',
      title: 'List group milestones',
      description:
        'List the milestones of a group, filtered by state, title or dates. Gives the IDs the other milestone actions need.',
      tool: 'forge_group_milestone_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        state: str('Only "active" or "closed" milestones, or "all" (the default).', {
          enum: ['active', 'closed', 'all'],
        }),
        title: str('Only the milestone with exactly this title.'),
        search: str('Only milestones whose title or description contains this text.'),
        search_title: str('Only milestones whose title contains this text.'),
        iids: intList('Only milestones with these IIDs (the numbers shown in the URL).'),
        include_ancestors: bool('Also list milestones of ancestor groups.'),
        include_descendants: bool('Also list milestones of subgroups and their projects.'),
        containing_date: date('Only milestones whose start–due range contains this date.'),
        start_date: date('Only milestones due on or after this date (used with end_date).'),
        end_date: date('Only milestones starting on or before this date (used with start_date).'),
        updated_after: dateTime('Only milestones updated after this time.'),
        updated_before: dateTime('Only milestones updated before this time.'),
        ...P.paging,
      },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/milestones' } },
      example: { group_id: '10', state: 'active' },
    },
    {
      id: 'group.group_milestone_merge_requests',
      title: 'List merge requests of group milestone',
      description: 'List the merge requests assigned to a group milestone across the group’s projects.',
      tool: 'forge_group_milestone_merge_requests',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, milestone_id: milestoneId, ...P.paging },
      required: ['group_id', 'milestone_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/milestones/:milestone_id/merge_requests' } },
      example: { group_id: '10', milestone_id: 1 },
    },
    {
      id: 'group.group_milestone_update',
      title: 'Update, close or reopen group milestone',
      description: `Change a group milestone’s title, description or dates, or close/reopen it with state_event. ${P.atLeastOneField}`,
      tool: 'forge_group_milestone_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        milestone_id: milestoneId,
        title: str('New title.'),
        description: str('New description.'),
        start_date: date('New start date, YYYY-MM-DD.'),
        due_date: date('New due date, YYYY-MM-DD.'),
        state_event: str('"close" to close the milestone, "activate" to reopen it.', {
          enum: ['close', 'activate'],
        }),
      },
      required: ['group_id', 'milestone_id'],
      // At least one (at_least_one_of in the milestone update parameters).
      oneOf: [P.milestoneChanges],
      request: { rest: { method: 'PUT', path: '/groups/:group_id/milestones/:milestone_id' } },
      example: { group_id: '10', milestone_id: 1, state_event: 'close' },
    },
    {
      id: 'group.group_relations_list_status',
      title: 'Get group relations export status',
      description:
        'Show the status of each relation (labels, milestones, epics…) of a group relations export started with group.group_relations_schedule.',
      tool: 'forge_list_group_relations_export_status',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        relation: str('Only the status of this relation, e.g. "labels" or "milestones".'),
      },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/export_relations/status' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.group_relations_schedule',
      title: 'Start group relations export',
      description:
        'Start a per-relation export of a group, used for direct transfer (migration) to another instance.',
      tool: 'forge_schedule_group_relations_export',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId, batched: bool('Export relations in batches (for large groups).') },
      required: ['group_id'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/export_relations' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.group_upload_delete_by_id',
      title: 'Delete group upload by ID',
      description:
        'Permanently delete a file uploaded to a group (an attachment in epics or wiki pages); Markdown links to it break. Irreversible.',
      tool: 'forge_delete_group_markdown_upload_by_id',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        upload_id: int('Numeric ID of the upload (from group.group_upload_list).'),
      },
      required: ['group_id', 'upload_id'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/uploads/:upload_id' } },
      example: { group_id: '10', upload_id: 1 },
    },
    {
      id: 'group.group_upload_delete_by_secret',
      title: 'Delete group upload by secret and file name',
      description:
        'Permanently delete a group upload named by the secret and file name in its URL (/uploads/<secret>/<filename>). Irreversible.',
      tool: 'forge_delete_group_markdown_upload_by_secret',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        secret: str('The 32-character secret from the upload URL.'),
        filename: str('File name from the upload URL, e.g. "diagram.png".'),
      },
      required: ['group_id', 'secret', 'filename'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/uploads/:secret/:filename' } },
      example: { group_id: '10', secret: '66dbcd21ec5d24ed6ea225176098d52b', filename: 'diagram.png' },
    },
    {
      id: 'group.group_upload_list',
      title: 'List group uploads',
      description:
        'List the files uploaded to a group (attachments used in epics and wiki pages), newest first.',
      tool: 'forge_list_group_markdown_uploads',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, ...P.paging },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/uploads' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.hook_add',
      title: 'Add group webhook',
      description:
        'Add a webhook that POSTs the chosen group events (pushes, issues, merge requests, pipelines…) of all projects in the group to an external URL.',
      tool: 'forge_group_hook_add',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        url: str('Receiving URL, e.g. "https://hooks.example.com/gitlab".'),
        ...hookSettings,
      },
      required: ['group_id', 'url'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/hooks' } },
      example: {
        group_id: '10',
        url: 'https://hooks.example.com/gitlab',
        push_events: true,
        merge_requests_events: true,
      },
    },
    {
      id: 'group.hook_delete',
      title: 'Delete group webhook',
      description: 'Delete a group webhook with its delivery log. Irreversible.',
      tool: 'forge_group_hook_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: { group_id: P.groupId, hook_id: hookId },
      required: ['group_id', 'hook_id'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/hooks/:hook_id' } },
      example: { group_id: '10', hook_id: 1 },
    },
    {
      id: 'group.hook_delete_custom_header',
      title: 'Remove group webhook custom header',
      description:
        'Remove one custom HTTP header from a group webhook. Irreversible: its value must be set again.',
      tool: 'forge_group_hook_delete_custom_header',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: { group_id: P.groupId, hook_id: hookId, key: str('Header name, e.g. "X-Env".') },
      required: ['group_id', 'hook_id', 'key'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/hooks/:hook_id/custom_headers/:key' } },
      example: { group_id: '10', hook_id: 1, key: 'X-Env' },
    },
    {
      id: 'group.hook_delete_url_variable',
      title: 'Remove group webhook URL variable',
      description:
        'Remove one masked URL variable from a group webhook. Irreversible: its value must be set again.',
      tool: 'forge_group_hook_delete_url_variable',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        hook_id: hookId,
        key: str('Variable name used as {key} in the hook URL.'),
      },
      required: ['group_id', 'hook_id', 'key'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/hooks/:hook_id/url_variables/:key' } },
      example: { group_id: '10', hook_id: 1, key: 'token' },
    },
    {
      id: 'group.hook_edit',
      title: 'Edit group webhook',
      description:
        'Change the URL, events or options of a group webhook. Event switches not given keep their value.',
      tool: 'forge_group_hook_edit',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        hook_id: hookId,
        url: str(
          'New receiving URL; leave it out to keep the current one (a new URL clears the secret token unless a new one is given).',
        ),
        ...hookSettings,
      },
      required: ['group_id', 'hook_id'],
      request: { rest: { method: 'PUT', path: '/groups/:group_id/hooks/:hook_id' } },
      example: { group_id: '10', hook_id: 1, url: 'https://hooks.example.com/gitlab', pipeline_events: true },
    },
    {
      id: 'group.hook_get',
      title: 'Get group webhook',
      description:
        'Show one group webhook: URL, enabled events, SSL verification and whether it is disabled after failures.',
      tool: 'forge_group_hook_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_id: P.groupId, hook_id: hookId },
      required: ['group_id', 'hook_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/hooks/:hook_id' } },
      example: { group_id: '10', hook_id: 1 },
    },
    {
      id: 'group.hook_list',
      title: 'List group webhooks',
      description: 'List the webhooks of a group with their URLs and enabled events.',
      tool: 'forge_group_hook_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_id: P.groupId, ...P.paging },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/hooks' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.hook_resend_event',
      title: 'Resend group webhook event',
      description: 'Deliver a past webhook event again (from the hook’s recent events log) to the hook URL.',
      tool: 'forge_group_hook_resend_event',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        hook_id: hookId,
        hook_log_id: int('ID of the logged delivery to resend.'),
      },
      required: ['group_id', 'hook_id', 'hook_log_id'],
      request: {
        rest: { method: 'POST', path: '/groups/:group_id/hooks/:hook_id/events/:hook_log_id/resend' },
      },
      example: { group_id: '10', hook_id: 1, hook_log_id: 1 },
    },
    {
      id: 'group.hook_set_custom_header',
      title: 'Set group webhook custom header',
      description:
        'Add or replace a custom HTTP header sent with every delivery of a group webhook (value is write-only).',
      tool: 'forge_group_hook_set_custom_header',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        hook_id: hookId,
        key: str('Header name, e.g. "X-Env".'),
        value: str('Header value.'),
      },
      required: ['group_id', 'hook_id', 'key', 'value'],
      request: { rest: { method: 'PUT', path: '/groups/:group_id/hooks/:hook_id/custom_headers/:key' } },
      example: { group_id: '10', hook_id: 1, key: 'X-Env', value: 'prod' },
    },
    {
      id: 'group.hook_set_url_variable',
      title: 'Set group webhook URL variable',
      description:
        'Add or replace a masked variable used in a group webhook URL as {key}, e.g. to keep a token out of the visible URL.',
      tool: 'forge_group_hook_set_url_variable',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        hook_id: hookId,
        key: str('Variable name, used as {key} in the hook URL.'),
        value: str('Variable value (stored masked).'),
      },
      required: ['group_id', 'hook_id', 'key', 'value'],
      request: { rest: { method: 'PUT', path: '/groups/:group_id/hooks/:hook_id/url_variables/:key' } },
      example: { group_id: '10', hook_id: 1, key: 'token', value: 's3cr3t' },
    },
    {
      id: 'group.hook_test',
      title: 'Test group webhook',
      description: 'Send a sample event of the chosen kind to a group webhook’s URL to check the receiver.',
      tool: 'forge_group_hook_test',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        hook_id: hookId,
        trigger: str('Kind of sample event to send.', {
          enum: [
            'push_events',
            'tag_push_events',
            'issues_events',
            'confidential_issues_events',
            'note_events',
            'merge_requests_events',
            'job_events',
            'pipeline_events',
            'wiki_page_events',
            'releases_events',
            'emoji_events',
            'resource_access_token_events',
          ],
        }),
      },
      required: ['group_id', 'hook_id', 'trigger'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/hooks/:hook_id/test/:trigger' } },
      example: { group_id: '10', hook_id: 1, trigger: 'push_events' },
    },
    {
      id: 'group.invited_groups',
      title: 'List groups invited to group',
      description:
        'List the groups that were invited into (shared with) this group, whose members get access to it.',
      tool: 'forge_group_invited_groups',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        search: search('invited groups'),
        min_access_level: accessLevel('Only groups where the caller has at least this role'),
        relation: {
          type: 'array',
          items: { type: 'string', enum: ['direct', 'inherited'] },
          description: 'Only "direct" invitations, "inherited" ones from parent groups, or both.',
        },
        with_custom_attributes: withCustomAttributes,
        ...P.paging,
      },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/invited_groups' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.issues',
      title: 'List group issues',
      description: `List issues across all projects of a group (and subgroups), filtered by state, labels, milestone, assignee, author, search text or dates. ${P.atMostOne(P.issueFilterPairs)}`,
      tool: 'forge_group_issues',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, ...P.issueListFilters, ...P.issueNonArchived },
      required: ['group_id'],
      exclusive: P.issueFilterPairs,
      request: { rest: { method: 'GET', path: '/groups/:group_id/issues' } },
      example: { group_id: '10', state: 'opened', labels: 'bug' },
    },
    {
      id: 'group.ldap_link_add',
      title: 'Add group LDAP link',
      description:
        'Link an LDAP group (by CN) or LDAP filter to a group so its directory members get the given role on each sync; give exactly one of cn or filter, not both.',
      tool: 'forge_group_ldap_link_add',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        provider: str('LDAP provider ID from the instance configuration, e.g. "ldapmain".'),
        cn: str('CN of the LDAP group (give cn or filter).'),
        filter: str('LDAP filter selecting users (give cn or filter), e.g. "(department=eng)".'),
        group_access: accessLevel('Role granted to the linked users'),
        member_role_id: memberRoleId,
      },
      required: ['group_id', 'provider', 'group_access'],
      // Exactly one: ee/lib/api/ldap_group_links.rb declares exactly_one_of :cn, :filter.
      oneOf: [['cn', 'filter']],
      exclusive: [['cn', 'filter']],
      request: { rest: { method: 'POST', path: '/groups/:group_id/ldap_group_links' } },
      example: { group_id: '10', provider: 'ldapmain', cn: 'engineering', group_access: 30 },
    },
    {
      id: 'group.ldap_link_delete',
      title: 'Delete group LDAP link',
      description:
        'Remove an LDAP group link from a group, named by exactly one of cn or filter, not both; its users lose the access at the next sync. Irreversible.',
      tool: 'forge_group_ldap_link_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        provider: str('LDAP provider ID, e.g. "ldapmain".'),
        cn: str('CN of the linked LDAP group; not with filter.'),
        filter: str('LDAP filter of the link; not with cn.'),
      },
      required: ['group_id', 'provider'],
      // Exactly one: ee/lib/api/ldap_group_links.rb declares exactly_one_of :cn, :filter.
      oneOf: [['cn', 'filter']],
      exclusive: [['cn', 'filter']],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/ldap_group_links' } },
      example: { group_id: '10', provider: 'ldapmain', cn: 'engineering' },
    },
    {
      id: 'group.ldap_link_delete_for_provider',
      title: 'Delete group LDAP link for provider',
      description: 'Remove the LDAP group link with the given CN for one LDAP provider. Irreversible.',
      tool: 'forge_group_ldap_link_delete_for_provider',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        provider: str('LDAP provider ID, e.g. "ldapmain".'),
        cn: str('CN of the linked LDAP group.'),
      },
      required: ['group_id', 'provider', 'cn'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/ldap_group_links/:provider/:cn' } },
      example: { group_id: '10', provider: 'ldapmain', cn: 'engineering' },
    },
    {
      id: 'group.ldap_link_list',
      title: 'List group LDAP links',
      description: 'List the LDAP group links of a group with their CN or filter, provider and role.',
      tool: 'forge_group_ldap_link_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_id: P.groupId },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/ldap_group_links' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.ldap_sync',
      title: 'Sync group with LDAP',
      description:
        'Start a synchronisation of the group’s members with its linked LDAP groups now, instead of waiting for the scheduled sync.',
      tool: 'forge_group_ldap_sync',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: { group_id: P.groupId },
      required: ['group_id'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/ldap_sync' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.list',
      title: 'List groups',
      description:
        'List the groups visible to the caller (admins see all), with filters for ownership, role, visibility and top level only. To find a group by name use group.search.',
      tool: 'forge_group_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        search: search('groups'),
        top_level_only: bool('Only top-level groups, no subgroups.'),
        ...groupListFilters,
        ...P.paging,
      },
      valueRequires: P.similarityNeedsSearch,
      request: { rest: { method: 'GET', path: '/groups' } },
      example: { top_level_only: true, per_page: 20 },
    },
    {
      id: 'group.list_provisioned_users',
      title: 'List group-provisioned users',
      description:
        'List the users a group provisioned through SAML or SCIM (enterprise accounts created by the group).',
      tool: 'forge_group_list_provisioned_users',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        username: str('Only the user with this username.'),
        search: str('Only users whose name, username or email contains this text.'),
        active: bool('Only active users.'),
        blocked: bool('Only blocked users.'),
        created_after: dateTime('Only users created after this time.'),
        created_before: dateTime('Only users created before this time.'),
        ...P.paging,
      },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/provisioned_users' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.members',
      title: 'List group members',
      description:
        'List everyone with access to a group — direct members plus those inherited from parent groups and invited groups — with their roles.',
      tool: 'forge_group_members_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        query: str('Only members whose name, username or email contains this text.'),
        user_ids: intList('Only these user IDs.'),
        state: str('Only members in this state: "awaiting" or "active" (Premium).', {
          enum: ['awaiting', 'active'],
        }),
        show_seat_info: bool('Include seat information for each member.'),
        ...P.paging,
      },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/members/all' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.projects',
      title: 'List group projects',
      description:
        'List the projects of a group, optionally including subgroups’ projects and shared projects, with filters and sorting.',
      tool: 'forge_group_projects',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        include_subgroups: bool('Also list projects of subgroups.'),
        include_ancestor_groups: bool('Also list projects of the parent groups (default false).'),
        with_shared: bool('Also list projects shared with the group (default true).'),
        owned: bool('Only projects owned by the caller.'),
        topic: str('Only projects with this topic.'),
        with_security_reports: bool('Only projects with security reports on the default branch (Ultimate).'),
        active: bool('Only active (non-archived, not being deleted) projects.'),
        ...listProjectsFilters,
        ...P.paging,
      },
      required: ['group_id'],
      valueRequires: P.similarityNeedsSearch,
      request: { rest: { method: 'GET', path: '/groups/:group_id/projects' } },
      example: { group_id: 'acme', include_subgroups: true, simple: true },
    },
    {
      id: 'group.protected_branch_get',
      title: 'Get group protected branch',
      description: 'Show one group-level branch protection rule with who may push, merge and unprotect.',
      tool: 'forge_group_protected_branch_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        name: str('Branch name or wildcard of the rule, e.g. "main" or "release/*".'),
      },
      required: ['group_id', 'name'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/protected_branches/:name' } },
      example: { group_id: '10', name: 'main' },
    },
    {
      id: 'group.protected_branch_list',
      title: 'List group protected branches',
      description:
        'List the branch protection rules defined at group level, which apply to every project in the group.',
      tool: 'forge_group_protected_branch_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_id: P.groupId, search: str('Only rules whose name contains this text.'), ...P.paging },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/protected_branches' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.protected_branch_protect',
      title: 'Protect branch for whole group',
      description:
        'Protect a branch name or wildcard in every project of a group, choosing who may push, merge and unprotect.',
      tool: 'forge_group_protected_branch_protect',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        name: str('Branch name or wildcard, e.g. "main" or "release/*".'),
        push_access_level: {
          type: 'integer',
          enum: [0, 30, 40, 60],
          description: 'Who may push: 0 no one, 30 Developer, 40 Maintainer (default), 60 Admin.',
        },
        merge_access_level: {
          type: 'integer',
          enum: [0, 30, 40, 60],
          description: 'Who may merge: 0 no one, 30 Developer, 40 Maintainer (default), 60 Admin.',
        },
        unprotect_access_level: {
          type: 'integer',
          enum: [30, 40, 60],
          description: 'Who may unprotect: 30 Developer, 40 Maintainer (default), 60 Admin.',
        },
        allow_force_push: bool('Allow force pushes by those who may push (default false).'),
        code_owner_approval_required: bool('Require Code Owner approval for pushes and merges (Ultimate).'),
        allowed_to_push: branchAccessRules('Detailed push rules'),
        allowed_to_merge: branchAccessRules('Detailed merge rules'),
        allowed_to_unprotect: branchAccessRules('Detailed unprotect rules', false),
      },
      required: ['group_id', 'name'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/protected_branches' } },
      example: { group_id: '10', name: 'main', push_access_level: 40, merge_access_level: 30 },
    },
    {
      id: 'group.protected_branch_unprotect',
      title: 'Unprotect branch for group',
      description:
        'Delete a group-level branch protection rule; projects keep only their own rules. Irreversible.',
      tool: 'forge_group_protected_branch_unprotect',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: { group_id: P.groupId, name: str('Branch name or wildcard of the rule.') },
      required: ['group_id', 'name'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/protected_branches/:name' } },
      example: { group_id: '10', name: 'main' },
    },
    {
      id: 'group.protected_branch_update',
      title: 'Update group protected branch',
      description:
        'Change a group-level branch protection rule: force push, Code Owner approval and push/merge/unprotect rules.',
      tool: 'forge_group_protected_branch_update',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        name: str('Branch name or wildcard of the rule.'),
        allow_force_push: bool('Allow force pushes.'),
        code_owner_approval_required: bool('Require Code Owner approval (Ultimate).'),
        allowed_to_push: branchAccessRules('Push rules to add, change or remove'),
        allowed_to_merge: branchAccessRules('Merge rules to add, change or remove'),
        allowed_to_unprotect: branchAccessRules('Unprotect rules to add, change or remove', false),
      },
      required: ['group_id', 'name'],
      request: { rest: { method: 'PATCH', path: '/groups/:group_id/protected_branches/:name' } },
      example: { group_id: '10', name: 'main', allow_force_push: false },
    },
    {
      id: 'group.protected_env_get',
      title: 'Get group protected environment',
      description:
        'Show the group-level protection of one deployment tier: who may deploy and the approval rules.',
      tool: 'forge_group_protected_environment_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_id: P.groupId, name: protectedEnvName },
      required: ['group_id', 'name'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/protected_environments/:name' } },
      example: { group_id: '10', name: 'production' },
    },
    {
      id: 'group.protected_env_list',
      title: 'List group protected environments',
      description:
        'List the deployment tiers protected at group level, with deploy access and approval rules.',
      tool: 'forge_group_protected_environment_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_id: P.groupId, ...P.paging },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/protected_environments' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.protected_env_protect',
      title: 'Protect environment tier for group',
      description:
        'Protect a deployment tier (e.g. production) in every project of the group: only the listed roles, users or groups may deploy, optionally after approvals.',
      tool: 'forge_group_protected_environment_protect',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        name: protectedEnvName,
        deploy_access_levels: deployAccessLevels,
        approval_rules: approvalRules,
      },
      required: ['group_id', 'name', 'deploy_access_levels'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/protected_environments' } },
      example: { group_id: '10', name: 'production', deploy_access_levels: [{ access_level: 40 }] },
    },
    {
      id: 'group.protected_env_unprotect',
      title: 'Unprotect environment tier for group',
      description:
        'Remove the group-level protection of a deployment tier, with its deploy and approval rules. Irreversible.',
      tool: 'forge_group_protected_environment_unprotect',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: { group_id: P.groupId, name: protectedEnvName },
      required: ['group_id', 'name'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/protected_environments/:name' } },
      example: { group_id: '10', name: 'production' },
    },
    {
      id: 'group.protected_env_update',
      title: 'Update group protected environment',
      description: 'Change who may deploy to a group-protected tier and its approval rules.',
      tool: 'forge_group_protected_environment_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        name: protectedEnvName,
        deploy_access_levels: deployAccessLevels,
        approval_rules: approvalRules,
      },
      required: ['group_id', 'name'],
      request: { rest: { method: 'PUT', path: '/groups/:group_id/protected_environments/:name' } },
      example: {
        group_id: '10',
        name: 'production',
        approval_rules: [{ group_id: 12, required_approvals: 2 }],
      },
    },
    {
      id: 'group.push_rule_add',
      title: 'Add group push rules',
      description:
        'Set push rules for a group (commit message, branch name and author email patterns, secret and file checks), inherited by new projects. Give at least one rule.',
      tool: 'forge_group_push_rule_add',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: { group_id: P.groupId, ...pushRuleSettings },
      required: ['group_id'],
      // The instance refuses a call that names no rule (at_least_one_of over every rule).
      oneOf: [Object.keys(pushRuleSettings)],
      request: { rest: { method: 'POST', path: '/groups/:group_id/push_rule' } },
      example: { group_id: '10', prevent_secrets: true, deny_delete_tag: true },
    },
    {
      id: 'group.push_rule_delete',
      title: 'Delete group push rules',
      description: 'Remove all push rules of a group. Irreversible: the settings must be entered again.',
      tool: 'forge_group_push_rule_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: { group_id: P.groupId },
      required: ['group_id'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/push_rule' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.push_rule_edit',
      title: 'Edit group push rules',
      description: 'Change the push rules of a group. Only the fields given are changed; give at least one.',
      tool: 'forge_group_push_rule_edit',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: { group_id: P.groupId, ...pushRuleSettings },
      required: ['group_id'],
      // The instance refuses a call that names no rule (at_least_one_of over every rule).
      oneOf: [Object.keys(pushRuleSettings)],
      request: { rest: { method: 'PUT', path: '/groups/:group_id/push_rule' } },
      example: { group_id: '10', max_file_size: 100 },
    },
    {
      id: 'group.push_rule_get',
      title: 'Get group push rules',
      description: 'Show the push rules of a group.',
      tool: 'forge_group_push_rule_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_id: P.groupId },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/push_rule' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.release_list',
      title: 'List group releases',
      description: 'List the releases of all projects in a group, newest first by default.',
      tool: 'forge_group_release_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        sort: str('"desc" (newest first, default) or "asc".', { enum: ['asc', 'desc'] }),
        simple: bool('Return only basic fields of each release.'),
        ...P.paging,
      },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/releases' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.restore',
      title: 'Restore group marked for deletion',
      description:
        'Cancel the pending deletion of a group that was marked for deletion, restoring it with its projects.',
      tool: 'forge_group_restore',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId },
      required: ['group_id'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/restore' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.saml_link_add',
      title: 'Add group SAML link',
      description:
        'Map a SAML group name from the identity provider to a role in this group; members get it at sign-in.',
      tool: 'forge_group_saml_link_add',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        saml_group_name: str('Group name as sent by the SAML identity provider (at most 255 characters).', {
          maxLength: 255,
        }),
        access_level: accessLevel('Role granted to the group’s users'),
        member_role_id: memberRoleId,
        provider: str(
          'Unique provider name the assertion must come from (self-managed with several providers).',
        ),
      },
      required: ['group_id', 'saml_group_name', 'access_level'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/saml_group_links' } },
      example: { group_id: '10', saml_group_name: 'developers', access_level: 30 },
    },
    {
      id: 'group.saml_link_delete',
      title: 'Delete group SAML link',
      description: 'Remove a SAML group link; its users lose the role at their next sign-in. Irreversible.',
      tool: 'forge_group_saml_link_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        saml_group_name: str('SAML group name of the link.'),
        provider: str('Provider of the link, when several links share the name.'),
      },
      required: ['group_id', 'saml_group_name'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/saml_group_links/:saml_group_name' } },
      example: { group_id: '10', saml_group_name: 'developers' },
    },
    {
      id: 'group.saml_link_get',
      title: 'Get group SAML link',
      description: 'Show one SAML group link with its role.',
      tool: 'forge_group_saml_link_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        saml_group_name: str('SAML group name of the link.'),
        provider: str('Provider of the link, when several links share the name.'),
      },
      required: ['group_id', 'saml_group_name'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/saml_group_links/:saml_group_name' } },
      example: { group_id: '10', saml_group_name: 'developers' },
    },
    {
      id: 'group.saml_link_list',
      title: 'List group SAML links',
      description: 'List the SAML group links of a group and the roles they grant.',
      tool: 'forge_group_saml_link_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_id: P.groupId },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/saml_group_links' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.saml_users_list',
      title: 'List group SAML users',
      description: 'List the users with a SAML identity linked to the group.',
      tool: 'forge_group_saml_users_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        username: str('Only the user with this username.'),
        search: str('Only users whose name, username or email contains this text.'),
        active: bool('Only active users.'),
        blocked: bool('Only blocked users.'),
        created_after: dateTime('Only users created after this time.'),
        created_before: dateTime('Only users created before this time.'),
        ...P.paging,
      },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/saml_users' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.search',
      title: 'Search groups',
      description: 'Find groups whose name or path contains a text. Use group.get once the group is known.',
      tool: 'forge_group_search',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        search: str('Text to look for in group names and paths, e.g. "platform".'),
        top_level_only: bool('Only top-level groups, no subgroups.'),
        ...groupListFilters,
        ...P.paging,
      },
      required: ['search'],
      request: { rest: { method: 'GET', path: '/groups' } },
      example: { search: 'acme' },
    },
    {
      id: 'group.security_settings_update',
      title: 'Turn secret push protection on or off for group',
      description:
        'Enable or disable secret push protection (blocking pushes that contain secrets) for all projects in a group, optionally leaving some projects out.',
      tool: 'forge_update_group_secret_push_protection',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'api',
      params: {
        group_id: P.groupId,
        secret_push_protection_enabled: bool('true to enable, false to disable secret push protection.'),
        projects_to_exclude: intList('IDs of projects to leave unchanged.'),
      },
      required: ['group_id', 'secret_push_protection_enabled'],
      request: { rest: { method: 'PUT', path: '/groups/:group_id/security_settings' } },
      example: { group_id: '10', secret_push_protection_enabled: true },
    },
    {
      id: 'group.service_account_create',
      title: 'Create group service account',
      description:
        'Create a service account (a non-human bot user) owned by a top-level group, for automation tokens.',
      tool: 'forge_group_service_account_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        name: str('Display name of the account.'),
        username: str('Username of the account (generated when omitted).'),
        email: str('Email of the account (generated when omitted).', { format: 'email' }),
      },
      required: ['group_id'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/service_accounts' } },
      example: { group_id: '10', name: 'CI bot', username: 'acme-ci-bot' },
    },
    {
      id: 'group.service_account_delete',
      title: 'Delete group service account',
      description:
        'Delete a group service account and its tokens; with hard_delete its contributions are deleted too instead of moving to the ghost user. Without hard_delete the sole owner of a group is refused (409 Conflict). Irreversible.',
      tool: 'forge_group_service_account_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        user_id: serviceAccountId,
        hard_delete: bool('Also delete the account’s contributions (default false).'),
      },
      required: ['group_id', 'user_id'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/service_accounts/:user_id' } },
      example: { group_id: '10', user_id: 4 },
    },
    {
      id: 'group.service_account_get',
      title: 'Get group service account',
      description:
        'Show one service account of a top-level group (name, username, email). The instance serves this from GitLab 19.4; on older versions find the account with group.service_account_list.',
      tool: 'forge_group_service_account_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_id: P.groupId, user_id: serviceAccountId },
      required: ['group_id', 'user_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/service_accounts/:user_id' } },
      example: { group_id: '10', user_id: 4 },
    },
    {
      id: 'group.service_account_list',
      title: 'List group service accounts',
      description: 'List the service accounts (bot users) owned by a top-level group.',
      tool: 'forge_group_service_account_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        order_by: str('Order by "id" (default) or "username".', { enum: ['id', 'username'] }),
        sort,
        ...P.paging,
      },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/service_accounts' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.service_account_pat_create',
      title: 'Create token for group service account',
      description:
        'Create a personal access token for a group service account. The token value is shown only in this answer.',
      tool: 'forge_group_service_account_pat_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        user_id: serviceAccountId,
        name: str('Token name.'),
        description: str('What the token is for.'),
        scopes: {
          type: 'array',
          items: {
            type: 'string',
            enum: P.tokenScopeNames({ readUser: true }),
          },
          minItems: 1,
          description: 'Scopes of the token, e.g. ["read_api"].',
        },
        expires_at: date('Expiry date, YYYY-MM-DD (the instance may cap or require it).'),
      },
      required: ['group_id', 'user_id', 'name', 'scopes'],
      request: {
        rest: { method: 'POST', path: '/groups/:group_id/service_accounts/:user_id/personal_access_tokens' },
      },
      example: { group_id: '10', user_id: 4, name: 'deploy', scopes: ['read_api'], expires_at: '2026-12-31' },
    },
    {
      id: 'group.service_account_pat_list',
      title: 'List group service account tokens',
      description: 'List the personal access tokens of a group service account (values are never shown).',
      tool: 'forge_group_service_account_pat_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        user_id: serviceAccountId,
        ...P.tokenFilters,
        ...P.paging,
      },
      required: ['group_id', 'user_id'],
      request: {
        rest: { method: 'GET', path: '/groups/:group_id/service_accounts/:user_id/personal_access_tokens' },
      },
      example: { group_id: '10', user_id: 4 },
    },
    {
      id: 'group.service_account_pat_revoke',
      title: 'Revoke group service account token',
      description:
        'Revoke a personal access token of a group service account. Irreversible: the token stops working at once.',
      tool: 'forge_group_service_account_pat_revoke',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: { group_id: P.groupId, user_id: serviceAccountId, token_id: int('Numeric ID of the token.') },
      required: ['group_id', 'user_id', 'token_id'],
      request: {
        rest: {
          method: 'DELETE',
          path: '/groups/:group_id/service_accounts/:user_id/personal_access_tokens/:token_id',
        },
      },
      example: { group_id: '10', user_id: 4, token_id: 1 },
    },
    {
      id: 'group.service_account_pat_rotate',
      title: 'Rotate group service account token',
      description:
        'Rotate a service account token: the old token is revoked and a new one with the same scopes is returned (value shown only once).',
      tool: 'forge_group_service_account_pat_rotate',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        user_id: serviceAccountId,
        token_id: int('Numeric ID of the token to rotate.'),
        expires_at: date('Expiry of the new token, YYYY-MM-DD (default one week).'),
      },
      required: ['group_id', 'user_id', 'token_id'],
      request: {
        rest: {
          method: 'POST',
          path: '/groups/:group_id/service_accounts/:user_id/personal_access_tokens/:token_id/rotate',
        },
      },
      example: { group_id: '10', user_id: 4, token_id: 1 },
    },
    {
      id: 'group.service_account_update',
      title: 'Update group service account',
      description: 'Change the name, username or email of a group service account.',
      tool: 'forge_group_service_account_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        user_id: serviceAccountId,
        name: str('New display name.'),
        username: str('New username.'),
        email: str('New email.', { format: 'email' }),
      },
      required: ['group_id', 'user_id'],
      request: { rest: { method: 'PATCH', path: '/groups/:group_id/service_accounts/:user_id' } },
      example: { group_id: '10', user_id: 4, name: 'Release bot' },
    },
    {
      id: 'group.share_with_group',
      title: 'Invite group into group',
      description:
        'Share this group with another group at a given role so all its members get access. Same request as group.group_member_share.',
      tool: 'forge_group_share_with_group',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        share_with_group_id: int('Numeric ID of the group to invite.', { wire: 'group_id' }),
        group_access: accessLevel('Role its members get'),
        expires_at: expiresAt,
        member_role_id: memberRoleId,
      },
      required: ['group_id', 'share_with_group_id', 'group_access'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/share' } },
      example: { group_id: '10', share_with_group_id: 11, group_access: 20 },
    },
    {
      id: 'group.shared_projects',
      title: 'List projects shared with group',
      description: 'List the projects of other namespaces that were shared with this group.',
      tool: 'forge_group_shared_projects',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        ...listProjectsFilters,
        order_by: str('Order projects by this field (default created_at).', {
          enum: ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'star_count'],
        }),
        ...P.paging,
      },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/projects/shared' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.shared_with',
      title: 'List groups this group is shared with',
      description: 'List the groups into which this group has been invited (where its members get access).',
      tool: 'forge_group_shared_with',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        search: search('groups'),
        skip_groups: intList('Group IDs to leave out.'),
        visibility: visibility('Only groups with this visibility'),
        min_access_level: accessLevel('Only groups where the caller has at least this role'),
        order_by: str('Order by "name" (default), "path", "id" or "similarity" (with search).', {
          enum: ['name', 'path', 'id', 'similarity'],
        }),
        sort,
        with_custom_attributes: withCustomAttributes,
        ...P.paging,
      },
      required: ['group_id'],
      valueRequires: P.similarityNeedsSearch,
      request: { rest: { method: 'GET', path: '/groups/:group_id/groups/shared' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.ssh_cert_create',
      title: 'Add group SSH certificate authority',
      description:
        'Add an SSH certificate authority public key to a top-level group so members can authenticate Git over SSH with certificates it signs.',
      tool: 'forge_create_group_ssh_certificate',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        key: str('Public key of the certificate authority, e.g. "ssh-ed25519 AAAA... ca@example.com".'),
        title: str('Title for the certificate authority.'),
      },
      required: ['group_id', 'key', 'title'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/ssh_certificates' } },
      example: {
        group_id: '10',
        key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB1pNk1vZSBjYSBrZXkgZm9yIGRvY3M ca@example.com',
        title: 'Corporate CA',
      },
    },
    {
      id: 'group.ssh_cert_delete',
      title: 'Delete group SSH certificate authority',
      description:
        'Remove an SSH certificate authority from a group; certificates it signed stop working. Irreversible.',
      tool: 'forge_delete_group_ssh_certificate',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        ssh_certificates_id: int('ID of the SSH certificate (from group.ssh_cert_list).'),
      },
      required: ['group_id', 'ssh_certificates_id'],
      request: {
        rest: { method: 'DELETE', path: '/groups/:group_id/ssh_certificates/:ssh_certificates_id' },
      },
      example: { group_id: '10', ssh_certificates_id: 1 },
    },
    {
      id: 'group.ssh_cert_list',
      title: 'List group SSH certificate authorities',
      description: 'List the SSH certificate authorities of a top-level group.',
      tool: 'forge_list_group_ssh_certificates',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_id: P.groupId, ...P.paging },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/ssh_certificates' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.subgroups',
      title: 'List subgroups',
      description: 'List all subgroups nested under a group, at every depth.',
      tool: 'forge_subgroups_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, search: search('subgroups'), ...groupListFilters, ...P.paging },
      required: ['group_id'],
      valueRequires: P.similarityNeedsSearch,
      request: { rest: { method: 'GET', path: '/groups/:group_id/descendant_groups' } },
      example: { group_id: 'acme' },
    },
    {
      id: 'group.transfer',
      title: 'Move group to another parent',
      description:
        'Move a group under another parent group, or make it top-level when no target is given. Its URL and those of all its projects change.',
      tool: 'forge_group_transfer',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        target_group_id: int('Numeric ID of the new parent group (omit to make the group top-level).', {
          wire: 'group_id',
        }),
      },
      required: ['group_id'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/transfer' } },
      example: { group_id: '11', target_group_id: 10 },
    },
    {
      id: 'group.transfer_locations',
      title: 'List possible parents for group transfer',
      description: 'List the groups this group could be moved under with group.transfer.',
      tool: 'forge_group_transfer_locations',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, search: search('groups'), ...P.paging },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/transfer_locations' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.transfer_project',
      title: 'Move project into group',
      description:
        'Move a project into this group’s namespace; its URL changes. Use project actions for other transfers.',
      tool: 'forge_group_transfer_project',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId, project_id: P.projectId },
      required: ['group_id', 'project_id'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/projects/:project_id' } },
      example: { group_id: '10', project_id: '3' },
    },
    {
      id: 'group.unarchive',
      title: 'Unarchive group',
      description: 'Unarchive a group so it and its projects become writable again (undo group.archive).',
      tool: 'forge_group_unarchive',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId },
      required: ['group_id'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/unarchive' } },
      example: { group_id: '10' },
    },
    {
      id: 'group.unshare_from_group',
      title: 'Remove invited group',
      description:
        "Remove an invited group's access to this group (undo group.share_with_group). Same request as group.group_member_unshare.",
      tool: 'forge_group_unshare_from_group',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId, shared_group_id: int('Numeric ID of the invited group to remove.') },
      required: ['group_id', 'shared_group_id'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/share/:shared_group_id' } },
      example: { group_id: '10', shared_group_id: 11 },
    },
    {
      id: 'group.update',
      title: 'Update group settings',
      description:
        'Change a group’s name, path, description, visibility or other settings. Only the fields given are changed; changing path changes all URLs.',
      tool: 'forge_group_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        name: str('New display name.'),
        path: str('New URL path (changes the URLs of the group and its projects).'),
        prevent_forking_outside_group: bool('Only allow forks into this group (Premium).'),
        file_template_project_id: int('Project used for custom file templates (Premium).'),
        ...groupSettings,
      },
      required: ['group_id'],
      request: { rest: { method: 'PUT', path: '/groups/:group_id' } },
      example: { group_id: '10', description: 'Acme engineering' },
    },
    {
      id: 'group.upload_avatar',
      title: 'Set group avatar',
      description: 'Upload an image file (PNG, JPG, GIF…, at most 200 KB) as the group’s avatar.',
      tool: 'forge_group_upload_avatar',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        file_path: str('Local path of the image (stdio transport only).', { in: 'file', wire: 'avatar' }),
        content_base64: str('The image as base64, for remote callers.', { in: 'file', wire: 'avatar' }),
      },
      required: ['group_id'],
      oneOf: [['file_path', 'content_base64']],
      request: { rest: { method: 'PUT', path: '/groups/:group_id' } },
      example: {
        group_id: '10',
        content_base64:
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mP8/x8AAwMCAO+ip1sAAAAASUVORK5CYII=',
      },
    },
    {
      id: 'group.wiki_create',
      title: 'Create group wiki page',
      description: 'Create a page in the group wiki.',
      tool: 'forge_group_wiki_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        title: str('Page title; "/" creates nested pages, e.g. "docs/setup".'),
        content: str('Page content.'),
        format: str('Markup format (default markdown).', { enum: ['markdown', 'rdoc', 'asciidoc', 'org'] }),
      },
      required: ['group_id', 'title', 'content'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/wikis' } },
      example: { group_id: '10', title: 'Onboarding', content: '# Welcome' },
    },
    {
      id: 'group.wiki_delete',
      title: 'Delete group wiki page',
      description: 'Delete a page of the group wiki. Irreversible through this API.',
      tool: 'forge_group_wiki_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: { group_id: P.groupId, slug: wikiSlug },
      required: ['group_id', 'slug'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/wikis/:slug' } },
      example: { group_id: '10', slug: 'onboarding' },
    },
    {
      id: 'group.wiki_edit',
      title: 'Edit group wiki page',
      description: 'Change the title, content or format of a group wiki page. Give at least one of them.',
      tool: 'forge_group_wiki_edit',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        slug: wikiSlug,
        title: str('New title.'),
        content: str('New content (replaces the page body).'),
        format: P.wikiFormatOnUpdate,
      },
      required: ['group_id', 'slug'],
      oneOf: [['title', 'content', 'format']],
      request: { rest: { method: 'PUT', path: '/groups/:group_id/wikis/:slug' } },
      example: { group_id: '10', slug: 'onboarding', content: '# Welcome aboard' },
    },
    {
      id: 'group.wiki_get',
      title: 'Get group wiki page',
      description: 'Read a page of the group wiki, optionally rendered as HTML or at an older version.',
      tool: 'forge_group_wiki_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        slug: wikiSlug,
        render_html: bool('Return the content rendered as HTML.'),
        version: str('Commit SHA of an older version of the page.'),
      },
      required: ['group_id', 'slug'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/wikis/:slug' } },
      notFound: { object: 'Wiki page', key: 'slug', next: ['group.wiki_list'] },
      example: { group_id: '10', slug: 'home' },
    },
    {
      id: 'group.wiki_list',
      title: 'List group wiki pages',
      description: 'List the pages of the group wiki, optionally with their content.',
      tool: 'forge_group_wiki_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_id: P.groupId, with_content: bool('Include each page’s content.') },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/wikis' } },
      example: { group_id: '10' },
    },
  ],
};
