/**
 * Parameters shared by many actions, declared once so every domain describes them the same way.
 * Spread them into an action's `params`: `params: { ...P.project, ...P.paging, state: {...} }`.
 */
import type { JsonSchema, ParamSpec } from './types.js';
import { NUMERIC_IDS } from './patterns.js';

const id = (what: string, extra = ''): ParamSpec => ({
  type: 'string',
  description: `${what}${extra}`,
});

export const projectId: ParamSpec = id(
  'Project ID or full path',
  ' (numeric ID like "42" or path like "group/subgroup/project"; the path is URL-encoded for you).',
);
export const groupId: ParamSpec = id('Group ID or full path', ' (numeric ID or path like "group/subgroup").');
export const userId: ParamSpec = { type: 'integer', minimum: 1, description: 'Numeric user ID.' };
/**
 * A user's numeric ID, or several as one comma-separated string: the string is held to digits and commas, so a
 * username given here is refused before anything is sent instead of reaching the instance as an ID.
 */
export const userIds = (description: string): ParamSpec => ({
  type: ['integer', 'string'],
  minimum: 1,
  pattern: NUMERIC_IDS,
  description,
});
export const issueIid: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'Issue IID: the number shown as #N inside the project (not the global ID).',
};
export const mergeRequestIid: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'Merge request IID: the number shown as !N inside the project (not the global ID).',
};
export const page: ParamSpec = { type: 'integer', minimum: 1, description: 'Page number (starts at 1).' };
export const perPage: ParamSpec = {
  type: 'integer',
  minimum: 1,
  maximum: 100,
  description: 'Items per page (default 20, at most 100).',
};
export const ref: ParamSpec = { type: 'string', description: 'Branch name, tag name or commit SHA.' };
export const sha: ParamSpec = { type: 'string', description: 'Commit SHA (full or short).' };
export const orderSort: Record<string, ParamSpec> = {
  sort: { type: 'string', enum: ['asc', 'desc'], description: 'Sort direction.' },
};

/**
 * Keyset paging, on the lists the instance offers it for (doc/api/rest keyset section): `pagination` and the
 * parameter the instance's next link continues with. Each answer names the next page's value; `orders` says
 * which orderings the instance pages this way.
 */
export function keysetPaging(orders: string, continuation = 'cursor'): Record<string, ParamSpec> {
  const params: Record<string, ParamSpec> = {
    pagination: {
      type: 'string',
      enum: ['keyset'],
      description: `"keyset" pages by ${continuation} instead of page number, steady on long lists (${orders}); each answer names the ${continuation} of the next page. Leave out for page numbers.`,
    },
  };
  if (continuation !== 'id_after')
    params[continuation] = {
      type: 'string',
      description: `With pagination "keyset": the ${continuation} the previous answer named for the next page, passed as given.`,
    };
  return params;
}

/**
 * The rule beside keysetPaging: the instance reads the continuation only with pagination "keyset" (otherwise it
 * pages by number and answers the first page again). `also`: other parameters read only with keyset paging.
 */
export function keysetNeeds(
  continuation = 'cursor',
  also: readonly string[] = [],
): Record<string, Record<string, readonly string[]>> {
  const rule = { pagination: ['keyset'] };
  return Object.fromEntries([continuation, ...also].map((p) => [p, rule]));
}

/**
 * order_by "similarity" ranks by closeness to the search text: without search the instance quietly sorts by its
 * default field instead (lib/api/projects.rb and lib/api/groups.rb: "similarity if searching").
 */
export const similarityNeedsSearch = { order_by: { similarity: { search: true } } } as const;

/**
 * permanently_remove true removes at once only when full_path repeats the project's or group's path; without it the
 * instance answers 400 ("`full_path` is incorrect"), after the caller has confirmed the deletion.
 */
export const permanentRemovalNeedsPath = { permanently_remove: { true: { full_path: true } } } as const;

/** A job's statuses, as the instance filters jobs by them (Ci::HasStatus::AVAILABLE_STATUSES). */
export const jobStatuses = [
  'created',
  'pending',
  'running',
  'failed',
  'success',
  'canceled',
  'canceling',
  'skipped',
  'waiting_for_resource',
  'preparing',
  'waiting_for_callback',
  'manual',
  'scheduled',
];

/** Spread into any list action. */
/**
 * The scopes a token may be given, in the instance's order: a group or project bot's (the non-administrator
 * scopes except read_user), with read_user for a user's or service account's token, and with the administrator
 * scopes (sudo, admin_mode, read_service_ping) where an administrator creates one.
 */
export const tokenScopeNames = (o: { readUser?: boolean; admin?: boolean } = {}): string[] => [
  'api',
  'read_api',
  ...(o.readUser ? ['read_user'] : []),
  'create_runner',
  'manage_runner',
  'read_repository',
  'write_repository',
  'read_registry',
  'write_registry',
  'read_virtual_registry',
  'write_virtual_registry',
  ...(o.admin ? ['sudo', 'admin_mode'] : []),
  'ai_features',
  'k8s_proxy',
  'self_rotate',
  ...(o.admin ? ['read_service_ping'] : []),
];

export const paging: Record<string, ParamSpec> = { page, per_page: perPage };
export const project: Record<string, ParamSpec> = { project_id: projectId };
export const group: Record<string, ParamSpec> = { group_id: groupId };

/* Comments, threads, reactions and time tracking (shared by issues, merge requests, snippets, epics). */
export const noteId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'Numeric ID of the comment (note), as returned by the note or discussion lists.',
};
export const discussionId: ParamSpec = {
  type: 'string',
  description:
    'Discussion (thread) ID: the 40-character hex string from the discussion list, e.g. "6a9c1750b37d513a43987b574953fceb50b03ce7".',
};
export const awardId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'Numeric ID of the emoji reaction (award), as returned by the reaction list.',
};
export const emojiName: ParamSpec = {
  type: 'string',
  description: 'Emoji name without colons, e.g. "thumbsup", "thumbsdown", "tada", "eyes".',
};
export const timeDuration: ParamSpec = {
  type: 'string',
  description:
    'Duration in human form: a number and unit, combinable, e.g. "30m", "3h30m", "1d", "1w2d" (units mo, w, d, h, m; a day is 8h, a week 5d).',
};

/** Which notes a note list answers (the notes API's activity_filter, UserPreference::NOTES_FILTERS). */
export const notesActivityFilter: ParamSpec = {
  type: 'string',
  enum: ['all_notes', 'only_comments', 'only_activity'],
  description:
    'Which notes: "all_notes" (default), "only_comments" (people\'s comments, no system notes) or "only_activity" (system notes only).',
};

/* Membership (shared by project and group members, shares and invitations). */
export const accessLevel: ParamSpec = {
  type: 'integer',
  enum: [0, 5, 10, 15, 20, 25, 30, 40, 50],
  description:
    'Role as a number: 10 Guest, 15 Planner, 20 Reporter, 25 Security Manager, 30 Developer, 40 Maintainer, 50 Owner (5 Minimal access, 0 No access).',
};
export const membershipExpiresAt: ParamSpec = {
  type: 'string',
  format: 'date',
  description: 'Date the access ends, YYYY-MM-DD, e.g. "2026-12-31"; leave out for no end.',
};

/* GraphQL cursor paging (connections answer pageInfo { hasNextPage endCursor }). */
export const gqlFirst: ParamSpec = {
  type: 'integer',
  minimum: 1,
  maximum: 100,
  description: 'How many items to return (at most 100).',
};
export const gqlAfter: ParamSpec = {
  type: 'string',
  description: 'Cursor from the previous answer (pageInfo.endCursor) to read the next page.',
};
/** Spread into GraphQL list actions; map them to $first/$after. */
export const gqlPaging: Record<string, ParamSpec> = { first: gqlFirst, after: gqlAfter };

/* Downloads (binary answers). */
export const outputPath: ParamSpec = {
  type: 'string',
  in: 'none',
  description:
    'Local file to save the download to (stdio only, inside the allowed directories); without it the bytes come back base64-encoded.',
};

/**
 * The lists that declare with_custom_attributes also filter by custom attributes (a hash, custom_attributes[key]=
 * value; lib/api/helpers/custom_attributes.rb), which their finders apply for administrators only.
 */
export const customAttributesFilter: ParamSpec = {
  type: 'object',
  additionalProperties: { type: 'string' },
  description:
    'Only those whose custom attributes have these values, e.g. {"department": "sales"} (administrators only; ignored for others).',
};

/* Builders for one-off parameters: a JSON Schema fragment with the description a model reads. */
export const str = (description: string, extra: JsonSchema = {}): ParamSpec => ({
  type: 'string',
  description,
  ...extra,
});
export const int = (description: string, extra: JsonSchema = {}): ParamSpec => ({
  type: 'integer',
  minimum: 1,
  description,
  ...extra,
});
export const bool = (description: string): ParamSpec => ({ type: 'boolean', description });
export const date = (description: string): ParamSpec => ({ type: 'string', format: 'date', description });
export const dateTime = (description: string): ParamSpec => ({
  type: 'string',
  format: 'date-time',
  description,
});
export const intList = (description: string): ParamSpec => ({
  type: 'array',
  items: { type: 'integer', minimum: 1 },
  description,
});

/**
 * The sentence an action's description carries for its exclusive groups that are not also one-of groups
 * (the instance takes at most one of each; exclusive in types.ts), e.g. "At most one of author_id or
 * author_username; at most one of milestone or milestone_id."
 */
export function atMostOne(groups: string[][]): string {
  return groups.map((g, i) => `${i ? 'at' : 'At'} most one of ${g.join(' or ')}`).join('; ') + '.';
}

/** What a board list (column) shows: the instance takes exactly one (exactly_one_of in its EE board helpers). */
export const boardListScope = ['label_id', 'assignee_id', 'milestone_id', 'iteration_id'];

/** The sentence an update action's description carries when the instance takes at least one field (oneOf). */
export const atLeastOneField = 'Give at least one field to change.';

/** What a milestone update may change: the instance takes at least one (at_least_one_of). */
export const milestoneChanges = ['title', 'description', 'start_date', 'due_date', 'state_event'];

/** How the instance's merge request lists order (the project, group and instance lists, and a deployment's). */
export const mrOrderBy: ParamSpec = {
  type: 'string',
  enum: [
    'created_at',
    'updated_at',
    'merged_at',
    'title',
    'label_priority',
    'priority',
    'milestone_due',
    'popularity',
  ],
  description: 'Field to order by (default created_at).',
};

/* ---------- issue filters: the issue lists, the issue statistics and group.issues ---------- */

const labelFilter: ParamSpec = {
  type: 'string',
  description:
    'Comma-separated label names; an issue must carry all of them. "None" matches issues without labels, "Any" issues with at least one.',
};
const milestoneFilter: ParamSpec = {
  type: 'string',
  description:
    'Milestone title, e.g. "v1.0"; "None" matches issues without a milestone, "Any" issues with one. For upcoming or started milestones use milestone_id; not together with milestone_id.',
};
const milestoneTimebox: ParamSpec = {
  type: 'string',
  enum: ['None', 'Any', 'Upcoming', 'Started'],
  description:
    'Milestone by timebox, not a numeric ID: "None" (no milestone), "Any" (some milestone), "Upcoming" (milestone due in the future), "Started" (open milestone already started). Not together with milestone.',
};
const userFilter = (what: string): ParamSpec => ({
  anyOf: [
    { type: 'integer', minimum: 1 },
    { type: 'string', enum: ['None', 'Any'] },
  ],
  description: `${what}: a numeric user ID, or "None" (nobody) / "Any" (somebody).`,
});
export const isoDateTime = (what: string): ParamSpec => ({
  type: 'string',
  format: 'date-time',
  description: `${what} (ISO 8601, e.g. "2026-01-31T08:00:00Z").`,
});
const createdUpdated: Record<string, ParamSpec> = {
  created_after: isoDateTime('Only issues created on or after this time'),
  created_before: isoDateTime('Only issues created on or before this time'),
  updated_after: isoDateTime('Only issues updated on or after this time'),
  updated_before: isoDateTime('Only issues updated on or before this time'),
};
/** Filters the issue lists and the issue statistics have in common (issues_stats_params and its EE part). */
export const issueStatsFilters: Record<string, ParamSpec> = {
  labels: labelFilter,
  milestone: milestoneFilter,
  milestone_id: milestoneTimebox,
  scope: {
    type: 'string',
    enum: ['created_by_me', 'assigned_to_me', 'all'],
    description:
      'Whose issues: created by you, assigned to you, or all you can see (default created_by_me across all projects, all within a project or group).',
  },
  author_id: {
    type: 'integer',
    minimum: 1,
    description: 'Only issues opened by this user ID (not with author_username).',
  },
  author_username: {
    type: 'string',
    description: 'Only issues opened by this username (not with author_id).',
  },
  assignee_id: userFilter('Only issues assigned to this user (not with assignee_username)'),
  assignee_username: {
    anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, minItems: 1 }],
    description:
      'Only issues assigned to this username, or to all of these usernames (a list needs Premium); not with assignee_id.',
  },
  my_reaction_emoji: {
    type: 'string',
    description:
      'Only issues you reacted to with this emoji name, e.g. "thumbsup"; "None" or "Any" also accepted.',
  },
  iids: {
    type: 'array',
    items: { type: 'integer', minimum: 1 },
    description: 'Only these issue IIDs, e.g. [1, 3].',
  },
  search: { type: 'string', description: 'Text to look for in the title and description.' },
  in: {
    type: 'string',
    enum: ['title', 'description', 'title,description'],
    description: 'Where `search` looks (default title,description).',
  },
  confidential: { type: 'boolean', description: 'true: only confidential issues; false: only public ones.' },
  ...createdUpdated,
  weight: {
    anyOf: [
      { type: 'integer', minimum: 0 },
      { type: 'string', enum: ['None', 'Any'] },
    ],
    description: 'Only issues with this weight, or "None"/"Any" (Premium).',
  },
  iteration_id: {
    anyOf: [
      { type: 'integer', minimum: 1 },
      { type: 'string', enum: ['None', 'Any', 'Current'] },
    ],
    description:
      'Only issues in this iteration ID, or "None", "Any", "Current" (Premium); not together with iteration_title.',
  },
  iteration_title: {
    type: 'string',
    description: 'Only issues in the iteration with this title (Premium); not together with iteration_id.',
  },
  epic_id: {
    anyOf: [
      { type: 'integer', minimum: 1 },
      { type: 'string', enum: ['None', 'Any'] },
    ],
    description: 'Only issues in this epic ID, or "None"/"Any" (Premium).',
  },
  health_status: {
    type: 'string',
    enum: ['on_track', 'needs_attention', 'at_risk', 'none', 'any'],
    description: 'Only issues with this health status, or "none"/"any" (Ultimate).',
  },
  not: {
    type: 'object',
    additionalProperties: false,
    properties: {
      labels: { type: 'string', description: 'Comma-separated labels the issue must not carry.' },
      milestone: { type: 'string', description: 'Milestone title the issue must not have.' },
      milestone_id: {
        type: 'string',
        enum: ['None', 'Any', 'Upcoming', 'Started'],
        description: 'Milestone timebox the issue must not be in (not with milestone).',
      },
      iids: {
        type: 'array',
        items: { type: 'integer', minimum: 1 },
        description: 'Issue IIDs to leave out, e.g. [4].',
      },
      author_id: { type: 'integer', minimum: 1, description: 'Author user ID to exclude.' },
      author_username: { type: 'string', description: 'Author username to exclude (not with author_id).' },
      assignee_id: { type: 'integer', minimum: 1, description: 'Assignee user ID to exclude.' },
      assignee_username: {
        type: 'string',
        description: 'Assignee username to exclude (not with assignee_id).',
      },
      weight: { type: 'integer', minimum: 0, description: 'Weight to exclude (Premium).' },
      iteration_id: {
        anyOf: [
          { type: 'integer', minimum: 1 },
          { type: 'string', enum: ['None', 'Any', 'Current'] },
        ],
        description: 'Iteration ID, or "None", "Any", "Current", to exclude (Premium).',
      },
      iteration_title: {
        type: 'string',
        description: 'Iteration title to exclude (Premium; not with iteration_id).',
      },
    },
    description:
      'Exclusion filters: leave out issues matching these, e.g. {"labels": "wontfix", "author_username": "bot"}.',
  },
};
const listOnlyFilters: Record<string, ParamSpec> = {
  state: {
    type: 'string',
    enum: ['opened', 'closed', 'all'],
    description: 'Issue state to return (default all).',
  },
  issue_type: {
    type: 'string',
    enum: ['issue', 'incident', 'test_case', 'requirement', 'task', 'ticket'],
    description: 'Only issues of this type.',
  },
  closed_by_id: {
    type: 'integer',
    minimum: 1,
    description: 'Only issues closed by this user ID.',
  },
  due_date: {
    type: 'string',
    enum: ['0', 'any', 'today', 'tomorrow', 'overdue', 'week', 'month', 'next_month_and_previous_two_weeks'],
    description:
      'Due date window: "0" means no due date, "overdue" past due, "week"/"month" due within that span.',
  },
  order_by: {
    type: 'string',
    enum: [
      'created_at',
      'updated_at',
      'priority',
      'due_date',
      'relative_position',
      'label_priority',
      'milestone_due',
      'popularity',
      'title',
      'weight',
    ],
    description: 'Field to order by (default created_at).',
  },
  sort: { type: 'string', enum: ['asc', 'desc'], description: 'Sort direction (default desc).' },
  with_labels_details: {
    type: 'boolean',
    description: 'true: return each label as an object with color and description instead of a bare name.',
  },
};
/** The issue lists' filters (issues_params): the project, group and instance lists, and group.issues. */
export const issueListFilters: Record<string, ParamSpec> = {
  ...listOnlyFilters,
  ...issueStatsFilters,
  ...paging,
};
/**
 * Filters naming one thing two ways: the instance takes at most one of each pair (its mutually_exclusive in
 * the issue lists' and statistics' parameters, lib/api/issues.rb, and the iteration pair in the EE helpers).
 */
export const issueFilterPairs = [
  ['author_id', 'author_username'],
  ['assignee_id', 'assignee_username'],
  ['milestone', 'milestone_id'],
  ['iteration_id', 'iteration_title'],
];
/** Only the lists spanning several projects (all issues, group issues) skip archived projects. */
export const issueNonArchived: Record<string, ParamSpec> = {
  non_archived: {
    type: 'boolean',
    description: 'false also includes issues of archived projects (default true: only active projects).',
  },
};

/* ---------- merge request filters: the merge request lists and a deployment's merge requests ---------- */

/**
 * The merge request filters of merge_requests_base_params (lib/api/helpers/merge_requests_helpers.rb): the
 * project, group and global merge request lists, and a deployment's merge requests.
 */
export const mrBaseFilters: Record<string, ParamSpec> = {
  state: {
    type: 'string',
    enum: ['opened', 'closed', 'locked', 'merged', 'all'],
    description: 'State to return (default all).',
  },
  scope: {
    type: 'string',
    enum: ['created_by_me', 'assigned_to_me', 'reviews_for_me', 'all'],
    description:
      'Whose merge requests: created by you, assigned to you, awaiting your review, or all you can see.',
  },
  labels: {
    type: 'string',
    description: 'Comma-separated labels the MR must all carry; "None" = no labels, "Any" = at least one.',
  },
  milestone: {
    type: 'string',
    description: 'Milestone title; "None" = no milestone, "Any" = some milestone.',
  },
  author_id: {
    type: 'integer',
    minimum: 1,
    description: 'Only MRs opened by this user ID (not with author_username).',
  },
  author_username: { type: 'string', description: 'Only MRs opened by this username (not with author_id).' },
  assignee_id: userFilter('Only MRs assigned to this user'),
  assignee_username: {
    anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, minItems: 1 }],
    description:
      'Only MRs assigned to this username, or to all of these usernames (a list needs Premium); not with assignee_id.',
  },
  reviewer_id: userFilter('Only MRs with this reviewer'),
  reviewer_username: {
    type: 'string',
    description:
      'Only MRs with this reviewer username; "None" or "Any" also accepted (not with reviewer_id).',
  },
  merge_user_id: {
    type: 'integer',
    minimum: 1,
    description: 'Only MRs merged by this user ID (not with merge_user_username).',
  },
  merge_user_username: {
    type: 'string',
    description: 'Only MRs merged by this username (not with merge_user_id).',
  },
  my_reaction_emoji: {
    type: 'string',
    description: 'Only MRs you reacted to with this emoji, e.g. "thumbsup"; "None"/"Any" too.',
  },
  source_branch: { type: 'string', description: 'Only MRs from this source branch, e.g. "feature/login".' },
  source_project_id: {
    type: 'integer',
    minimum: 1,
    description: 'Only MRs whose source branch is in this project ID (for example a fork).',
  },
  target_branch: { type: 'string', description: 'Only MRs into this target branch, e.g. "main".' },
  search: { type: 'string', description: 'Text to look for in title and description.' },
  in: {
    type: 'string',
    enum: ['title', 'description', 'title,description'],
    description: 'Where `search` looks (default title,description).',
  },
  wip: {
    type: 'string',
    enum: ['yes', 'no'],
    description: '"yes": only draft MRs; "no": only non-draft MRs.',
  },
  approved: {
    type: 'string',
    enum: ['yes', 'no'],
    description: '"yes": only approved MRs; "no": only MRs not yet approved.',
  },
  environment: { type: 'string', description: 'Only MRs deployed to this environment, e.g. "production".' },
  deployed_after: isoDateTime('Only MRs deployed after this time'),
  deployed_before: isoDateTime('Only MRs deployed before this time'),
  created_after: isoDateTime('Only MRs created on or after this time'),
  created_before: isoDateTime('Only MRs created on or before this time'),
  updated_after: isoDateTime('Only MRs updated on or after this time'),
  updated_before: isoDateTime('Only MRs updated on or before this time'),
  order_by: mrOrderBy,
  sort: { type: 'string', enum: ['asc', 'desc'], description: 'Sort direction (default desc).' },
  view: {
    type: 'string',
    enum: ['simple'],
    description: '"simple" returns only IID, URL, title, description and basic state.',
  },
  with_labels_details: {
    type: 'boolean',
    description: 'true: labels come back as objects with color and description.',
  },
  with_merge_status_recheck: {
    type: 'boolean',
    description: 'true: ask the instance to recompute merge status in the background.',
  },
  not: {
    type: 'object',
    additionalProperties: false,
    properties: {
      labels: { type: 'string', description: 'Comma-separated labels the MR must not carry.' },
      milestone: { type: 'string', description: 'Milestone title the MR must not have.' },
      author_id: { type: 'integer', minimum: 1, description: 'Author user ID to exclude.' },
      author_username: { type: 'string', description: 'Author username to exclude.' },
      assignee_id: { type: 'integer', minimum: 1, description: 'Assignee user ID to exclude.' },
      assignee_username: { type: 'string', description: 'Assignee username to exclude.' },
      reviewer_id: { type: 'integer', minimum: 1, description: 'Reviewer user ID to exclude.' },
      reviewer_username: { type: 'string', description: 'Reviewer username to exclude.' },
      my_reaction_emoji: { type: 'string', description: 'Leave out MRs you reacted to with this emoji.' },
    },
    description:
      'Exclusion filters: leave out MRs matching these, e.g. {"labels": "wip", "author_username": "bot"}.',
  },
  ...paging,
};
/** The merge request lists add the EE approval filters (optional_merge_requests_search_params). */
export const mrListFilters: Record<string, ParamSpec> = {
  approved_by_ids: {
    anyOf: [
      { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 5 },
      { type: 'string', enum: ['None', 'Any'] },
    ],
    description:
      'Only MRs approved by all these user IDs (at most 5), or "None" (no approval) / "Any" (some approval); not with approved_by_usernames; Premium.',
  },
  approved_by_usernames: {
    anyOf: [
      { type: 'array', items: { type: 'string' }, maxItems: 5 },
      { type: 'string', enum: ['None', 'Any'] },
    ],
    description:
      'Only MRs approved by all these usernames (at most 5), or "None" / "Any"; not with approved_by_ids; Premium.',
  },
  approver_ids: {
    anyOf: [
      { type: 'array', items: { type: 'integer', minimum: 1 } },
      { type: 'string', enum: ['None', 'Any'] },
    ],
    description:
      'Only MRs whose approval rules list all these user IDs as eligible approvers, or "None" (no approvers) / "Any" (some approver); Premium.',
  },
  ...mrBaseFilters,
};
/**
 * Filters naming one user (or set of users) two ways: the instance takes at most one of each pair (its
 * mutually_exclusive in the merge request list parameters, the approvals pair in the EE ones).
 */
export const mrBasePairs = [
  ['author_id', 'author_username'],
  ['assignee_id', 'assignee_username'],
  ['reviewer_id', 'reviewer_username'],
  ['merge_user_id', 'merge_user_username'],
];
export const mrListPairs = [...mrBasePairs, ['approved_by_ids', 'approved_by_usernames']];

/**
 * lib/api/helpers/personal_access_tokens_helpers.rb access_token_params, read by the credentials inventory and the
 * group and project service account token lists.
 */
export const tokenFilters: Record<string, ParamSpec> = {
  state: str('Only tokens in this state.', { enum: ['active', 'inactive'] }),
  revoked: bool('Only revoked (true) or unrevoked (false) tokens.'),
  search: str('Only tokens whose name contains this text.'),
  created_after: dateTime('Only tokens created after this time (ISO 8601).'),
  created_before: dateTime('Only tokens created before this time (ISO 8601).'),
  last_used_after: dateTime('Only tokens last used after this time.'),
  last_used_before: dateTime('Only tokens last used before this time.'),
  expires_after: date('Only tokens expiring on or after this date.'),
  expires_before: date('Only tokens expiring before this date.'),
  sort: str('Sort order.', {
    enum: [
      'created_asc',
      'created_desc',
      'expires_asc',
      'expires_desc',
      'last_used_asc',
      'last_used_desc',
      'name_asc',
      'name_desc',
    ],
  }),
};

/**
 * A wiki page's format on update (project and group wikis share the endpoint): it is declared with default markdown
 * and the update reads its params whole, so an update that leaves format out turns the page into markdown.
 */
export const wikiFormatOnUpdate: ParamSpec = {
  type: 'string',
  enum: ['markdown', 'rdoc', 'asciidoc', 'org'],
  description:
    'Markup format of the page content. The instance sets it to markdown when an update leaves it out: give the current format to keep a page in another one.',
};

export { toGlobalId } from './gid.js';
