import type { ActionContext, ActionSpec, DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';
import { globalIdParam, takesBareNumber, type GlobalIdKind } from '../patterns.js';

/** The work item types (the schema's IssueType), for the type filters. */
const WORK_ITEM_TYPES = [
  'ISSUE',
  'INCIDENT',
  'TEST_CASE',
  'REQUIREMENT',
  'TASK',
  'OBJECTIVE',
  'KEY_RESULT',
  'EPIC',
  'TICKET',
];

/* ---------- parameters shared inside the issue domain ---------- */

const issueId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description:
    'Global numeric issue ID (the `id` field, unique across the instance), not the per-project IID.',
};
const labelsCsv: ParamSpec = {
  type: 'string',
  description: 'Comma-separated label names, e.g. "bug,priority::high".',
};
const dateTime = P.isoDateTime;
const issueFilters = P.issueStatsFilters;
const listFilters = P.issueListFilters;
const listPairs = P.issueFilterPairs;
const nonArchived = P.issueNonArchived;

const noteBody: ParamSpec = {
  type: 'string',
  description: 'Comment text in Markdown. Quick actions such as "/label ~bug" are run.',
};
const noteSort: Record<string, ParamSpec> = {
  sort: { type: 'string', enum: ['asc', 'desc'], description: 'Sort direction (default desc).' },
  order_by: {
    type: 'string',
    enum: ['created_at', 'updated_at'],
    description: 'Field to order by (default created_at).',
  },
};
const eventId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'Numeric ID of the event, from the matching event list.',
};
const issueLinkId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'ID of the link between the two issues (the `issue_link_id` field of the linked-issue list).',
};
const fullPath: ParamSpec = {
  type: 'string',
  description: 'Full path of the project or group that holds the work items, e.g. "acme/widgets" or "acme".',
};
const workItemIid: ParamSpec = {
  type: 'string',
  pattern: '^[0-9]+$',
  description: 'Work item IID inside the project or group, as a string of digits (the #N number), e.g. "42".',
};
const savedViewId: ParamSpec = {
  type: 'string',
  description:
    'Global ID of the saved view, e.g. "gid://gitlab/WorkItems::SavedViews::SavedView/7" (from the saved view list).',
};
/** The orders Namespace.workItems and saved views take (WorkItemSort, without its lower-case renamed values). */
const WORK_ITEM_SORTS = [
  'CREATED_DESC',
  'CREATED_ASC',
  'UPDATED_DESC',
  'UPDATED_ASC',
  'TITLE_ASC',
  'TITLE_DESC',
]
  .concat(['LABEL_PRIORITY_ASC', 'LABEL_PRIORITY_DESC', 'MILESTONE_DUE_ASC', 'MILESTONE_DUE_DESC'])
  .concat([
    'START_DATE_ASC',
    'START_DATE_DESC',
    'DUE_DATE_ASC',
    'DUE_DATE_DESC',
    'CLOSED_AT_ASC',
    'CLOSED_AT_DESC',
  ])
  .concat(['PRIORITY_ASC', 'PRIORITY_DESC', 'POPULARITY_ASC', 'POPULARITY_DESC', 'RELATIVE_POSITION_ASC'])
  .concat(['WEIGHT_ASC', 'WEIGHT_DESC', 'HEALTH_STATUS_ASC', 'HEALTH_STATUS_DESC', 'BLOCKING_ISSUES_ASC'])
  .concat(['BLOCKING_ISSUES_DESC', 'SEVERITY_ASC', 'SEVERITY_DESC', 'ESCALATION_STATUS_ASC'])
  .concat(['ESCALATION_STATUS_DESC', 'STATUS_ASC', 'STATUS_DESC']);

const strList = (description: string, extra: Record<string, unknown> = {}): ParamSpec => ({
  type: 'array',
  items: { type: 'string', ...extra },
  description,
});
const timeFilter = (what: string): ParamSpec => P.isoDateTime(`Only work items ${what}`);

/**
 * The filters of issue.work_item_list: our parameter, the argument of Namespace.workItems it is sent as, that
 * argument's type in the instance's schema, and the parameter.
 */
const WORK_ITEM_FILTERS: Array<[string, string, string, ParamSpec]> = [
  [
    'types',
    'types',
    '[IssueType!]',
    strList('Only these work item types, e.g. ["TASK"].', {
      enum: WORK_ITEM_TYPES,
    }),
  ],
  [
    'state',
    'state',
    'IssuableState',
    { type: 'string', enum: ['opened', 'closed', 'all'], description: 'State to return (default all).' },
  ],
  [
    'search',
    'search',
    'String',
    { type: 'string', description: 'Text to look for in title and description.' },
  ],
  [
    'search_in',
    'in',
    '[IssuableSearchableField!]',
    strList('Where search looks: ["TITLE"], ["DESCRIPTION"] or both (default both).', {
      enum: ['TITLE', 'DESCRIPTION'],
    }),
  ],
  ['iids', 'iids', '[String!]', strList('Only these IIDs, e.g. ["12", "15"].', { pattern: '^[0-9]+$' })],
  ['label_name', 'labelName', '[String!]', strList('Label names the work items must all carry.')],
  [
    'assignee_usernames',
    'assigneeUsernames',
    '[String!]',
    strList('Usernames of assignees, e.g. ["alice"].'),
  ],
  [
    'assignee_wildcard_id',
    'assigneeWildcardId',
    'AssigneeWildcardId',
    {
      type: 'string',
      enum: ['NONE', 'ANY'],
      description: 'NONE: only unassigned work items; ANY: only assigned ones.',
    },
  ],
  ['author_username', 'authorUsername', 'String', { type: 'string', description: 'Username of the author.' }],
  ['milestone_title', 'milestoneTitle', '[String!]', strList('Milestone titles, e.g. ["v1.0"].')],
  [
    'milestone_wildcard_id',
    'milestoneWildcardId',
    'MilestoneWildcardId',
    {
      type: 'string',
      enum: ['NONE', 'ANY', 'STARTED', 'UPCOMING'],
      description:
        'NONE: no milestone; ANY: some milestone; STARTED / UPCOMING: an open milestone that has started / not yet.',
    },
  ],
  [
    'my_reaction_emoji',
    'myReactionEmoji',
    'String',
    {
      type: 'string',
      description: 'Only those you reacted to with this emoji name, e.g. "thumbsup" ("None"/"Any" allowed).',
    },
  ],
  [
    'confidential',
    'confidential',
    'Boolean',
    P.bool('true: only confidential work items; false: only the others.'),
  ],
  [
    'subscribed',
    'subscribed',
    'SubscriptionStatus',
    {
      type: 'string',
      enum: ['EXPLICITLY_SUBSCRIBED', 'EXPLICITLY_UNSUBSCRIBED'],
      description: 'Only those you explicitly subscribed to, or unsubscribed from.',
    },
  ],
  ['created_after', 'createdAfter', 'Time', timeFilter('created on or after this time')],
  ['created_before', 'createdBefore', 'Time', timeFilter('created on or before this time')],
  ['updated_after', 'updatedAfter', 'Time', timeFilter('updated on or after this time')],
  ['updated_before', 'updatedBefore', 'Time', timeFilter('updated on or before this time')],
  ['due_after', 'dueAfter', 'Time', timeFilter('due on or after this time')],
  ['due_before', 'dueBefore', 'Time', timeFilter('due on or before this time')],
  ['closed_after', 'closedAfter', 'Time', timeFilter('closed on or after this time')],
  ['closed_before', 'closedBefore', 'Time', timeFilter('closed on or before this time')],
  [
    'parent_ids',
    'parentIds',
    '[WorkItemID!]',
    {
      ...strList(
        'Only children of these work items, as global IDs, e.g. ["gid://gitlab/WorkItem/5"] or just ["5"].',
        globalIdParam('workItem'),
      ),
      gid: 'WorkItem',
    },
  ],
  [
    'release_tag',
    'releaseTag',
    '[String!]',
    strList('Only those linked to these releases by tag, e.g. ["v1.2.0"].'),
  ],
  [
    'health_status_filter',
    'healthStatusFilter',
    'HealthStatusFilter',
    {
      type: 'string',
      enum: ['NONE', 'ANY', 'onTrack', 'needsAttention', 'atRisk'],
      description: 'Only those with this health status, or none (NONE) / any (ANY).',
    },
  ],
  [
    'weight',
    'weight',
    'String',
    { type: 'string', pattern: '^[0-9]+$', description: 'Only those of this weight, e.g. "3".' },
  ],
  [
    'weight_wildcard_id',
    'weightWildcardId',
    'WeightWildcardId',
    {
      type: 'string',
      enum: ['NONE', 'ANY'],
      description: 'NONE: only those without a weight; ANY: only those with one.',
    },
  ],
  [
    'iteration_id',
    'iterationId',
    '[ID]',
    {
      ...strList(
        'Only those in these iterations, as global IDs, e.g. ["gid://gitlab/Iteration/4"] or just ["4"].',
        globalIdParam('iteration'),
      ),
      gid: 'Iteration',
    },
  ],
  [
    'iteration_wildcard_id',
    'iterationWildcardId',
    'IterationWildcardId',
    {
      type: 'string',
      enum: ['NONE', 'ANY', 'CURRENT'],
      description: 'NONE: in no iteration; ANY: in some iteration; CURRENT: in an iteration under way.',
    },
  ],
  [
    'ids',
    'ids',
    '[WorkItemID!]',
    {
      ...strList(
        'Only these work items, as global IDs or numbers (the ID, not the IID), e.g. ["gid://gitlab/WorkItem/5"].',
        globalIdParam('workItem'),
      ),
      gid: 'WorkItem',
    },
  ],
  [
    'release_tag_wildcard_id',
    'releaseTagWildcardId',
    'ReleaseTagWildcardId',
    {
      type: 'string',
      enum: ['NONE', 'ANY'],
      description: 'NONE: only those in no release; ANY: only those in some release.',
    },
  ],
  [
    'iteration_cadence_id',
    'iterationCadenceId',
    '[IterationsCadenceID!]',
    {
      ...strList(
        'Only those in iterations of these cadences, as global IDs or numbers, e.g. ["gid://gitlab/Iterations::Cadence/2"].',
        globalIdParam('cadence'),
      ),
      gid: 'Iterations::Cadence',
    },
  ],
  [
    'crm_contact_id',
    'crmContactId',
    'String',
    {
      type: 'string',
      pattern: '^[0-9]+$',
      description: 'Only those linked to this CRM contact (its numeric ID).',
    },
  ],
  [
    'crm_organization_id',
    'crmOrganizationId',
    'String',
    {
      type: 'string',
      pattern: '^[0-9]+$',
      description: 'Only those linked to a contact of this CRM organization (its numeric ID).',
    },
  ],
  [
    'timeframe',
    'timeframe',
    'Timeframe',
    {
      type: 'object',
      additionalProperties: false,
      required: ['start', 'end'],
      properties: {
        start: P.date('First day, YYYY-MM-DD.'),
        end: P.date('Last day, YYYY-MM-DD.'),
      },
      description:
        'Only those whose dates overlap this period, e.g. {"start": "2026-01-01", "end": "2026-03-31"}.',
    },
  ],
  [
    'include_ancestors',
    'includeAncestors',
    'Boolean',
    P.bool('Also list the work items of the ancestor groups (default false).'),
  ],
  [
    'include_descendants',
    'includeDescendants',
    'Boolean',
    P.bool(
      "For a group: also list the work items of its subgroups and their projects (default false: the group's own only).",
    ),
  ],
  [
    'not',
    'not',
    'NegatedWorkItemFilterInput',
    {
      type: 'object',
      additionalProperties: false,
      properties: {
        assignee_usernames: { ...strList('Assignees to exclude.'), wire: 'assigneeUsernames' },
        author_usernames: { ...strList('Authors to exclude.'), wire: 'authorUsername' },
        label_name: { ...strList('Labels to exclude.'), wire: 'labelName' },
        milestone_title: { ...strList('Milestones to exclude.'), wire: 'milestoneTitle' },
        milestone_wildcard_id: {
          type: 'string',
          enum: ['STARTED', 'UPCOMING'],
          description: 'Leave out those in a started (STARTED) or not yet started (UPCOMING) milestone.',
          wire: 'milestoneWildcardId',
        },
        my_reaction_emoji: {
          type: 'string',
          description: 'Leave out those you reacted to with this emoji.',
          wire: 'myReactionEmoji',
        },
        release_tag: { ...strList('Release tags to exclude.'), wire: 'releaseTag' },
        types: {
          ...strList('Work item types to exclude.', {
            enum: WORK_ITEM_TYPES,
          }),
        },
        health_status_filter: {
          ...strList('Health statuses to exclude.', { enum: ['onTrack', 'needsAttention', 'atRisk'] }),
          wire: 'healthStatusFilter',
        },
        weight: { type: 'string', pattern: '^[0-9]+$', description: 'Weight to exclude, e.g. "0".' },
        iteration_id: {
          ...strList('Iterations to exclude, as global IDs or numbers.', globalIdParam('iteration')),
          gid: 'Iteration',
          wire: 'iterationId',
        },
        iteration_wildcard_id: {
          type: 'string',
          enum: ['NONE', 'ANY', 'CURRENT'],
          description: 'Leave out those in no / any / the current iteration.',
          wire: 'iterationWildcardId',
        },
      },
      description:
        'Exclusion filters: leave out work items matching these, e.g. {"label_name": ["wontfix"]}.',
    },
  ],
  [
    'or',
    'or',
    'UnionedWorkItemFilterInput',
    {
      type: 'object',
      additionalProperties: false,
      properties: {
        assignee_usernames: { ...strList('Any of these assignees.'), wire: 'assigneeUsernames' },
        author_usernames: { ...strList('Any of these authors.'), wire: 'authorUsernames' },
        label_names: { ...strList('Any of these labels.'), wire: 'labelNames' },
      },
      description:
        'Either-or filters: keep work items matching any one of the values, e.g. {"label_names": ["bug", "incident"]}.',
    },
  ],
  [
    'sort',
    'sort',
    'WorkItemSort',
    { type: 'string', enum: WORK_ITEM_SORTS, description: 'Sort order (default CREATED_DESC).' },
  ],
];

/** Iteration, weight and health status of a work item (on update, null clears each). */
const workItemPlanning = (update: boolean): Record<string, ParamSpec> => {
  const clears = (type: string): string | string[] => (update ? [type, 'null'] : type);
  const cleared = update ? '; null clears it' : '';
  return {
    iteration_id: {
      ...globalIdParam('iteration', update),
      description: `Iteration, e.g. "gid://gitlab/Iteration/4" or just "4"${cleared}.`,
    },
    weight: { type: clears('integer'), minimum: 0, description: `Weight, e.g. 3${cleared}.` },
    health_status: {
      type: clears('string'),
      enum: ['onTrack', 'needsAttention', 'atRisk', ...(update ? [null] : [])],
      description: `Health status: onTrack, needsAttention or atRisk${cleared}.`,
    },
  };
};

/** A list of global IDs of `kind` (those taking a bare number say so). */
const gidList = (what: string, example: string, kind: GlobalIdKind): ParamSpec => ({
  type: 'array',
  items: globalIdParam(kind),
  description: `${what} as global IDs, e.g. ["${example}"]${takesBareNumber(kind) ? ` or just ["${example.slice(example.lastIndexOf('/') + 1)}"]` : ''}.`,
});

const base = { project_id: P.projectId, issue_iid: P.issueIid };
const baseReq = ['project_id', 'issue_iid'];
const ex = { project_id: '1', issue_iid: 1 };
const issueNotFound = { object: 'Issue', key: 'issue_iid', next: ['issue.list', 'issue.list_all'] };

/* ---------- GraphQL documents ---------- */

const WORK_ITEM_FIELDS = `id iid title state confidential webUrl createdAt updatedAt closedAt
      workItemType { id name }
      author { id username }
      widgets {
        type
        ... on WorkItemWidgetDescription { description }
        ... on WorkItemWidgetAssignees { assignees { nodes { id username } } }
        ... on WorkItemWidgetLabels { labels { nodes { id title } } }
        ... on WorkItemWidgetMilestone { milestone { id title } }
        ... on WorkItemWidgetStartAndDueDate { startDate dueDate }
        ... on WorkItemWidgetHierarchy { parent { id iid title } children { nodes { id iid title state } } }
        ... on WorkItemWidgetIteration { iteration { id title startDate dueDate } }
        ... on WorkItemWidgetWeight { weight }
        ... on WorkItemWidgetHealthStatus { healthStatus }
      }`;

const GET_WORK_ITEM = `query GetWorkItem($fullPath: ID!, $iid: String!) {
  namespace(fullPath: $fullPath) {
    workItem(iid: $iid) {
      ${WORK_ITEM_FIELDS}
    }
  }
}`;

const GET_WORK_ITEM_ID = `query getWorkItemIDQuery($fullPath: ID!, $iid: String!) {
  namespace(fullPath: $fullPath) {
    workItem(iid: $iid) { id }
  }
}`;

const CREATE_WORK_ITEM = `mutation workItemCreate($input: WorkItemCreateInput!) {
  workItemCreate(input: $input) {
    errors
    workItem {
      ${WORK_ITEM_FIELDS}
    }
  }
}`;

const UPDATE_WORK_ITEM = `mutation workItemUpdate($input: WorkItemUpdateInput!) {
  workItemUpdate(input: $input) {
    errors
    workItem {
      ${WORK_ITEM_FIELDS}
    }
  }
}`;

const DELETE_WORK_ITEM = `mutation workItemDelete($id: WorkItemID!) {
  workItemDelete(input: { id: $id }) {
    errors
  }
}`;

const SAVED_VIEW_FIELDS = 'id name description isPrivate subscribed sort filters displaySettings';

/* ---------- handlers ---------- */

/** The `data` member of a GraphQL answer, whichever shape the client hands back. */
function gqlData(res: unknown): Record<string, unknown> {
  const r = (res ?? {}) as Record<string, unknown>;
  return ((r.data as Record<string, unknown> | undefined) ?? r) as Record<string, unknown>;
}

/** Resolves a work item's global ID from its namespace path and IID (getWorkItemIDQuery). */
async function workItemGid(args: Record<string, unknown>, ctx: ActionContext): Promise<string> {
  const res = gqlData(
    await ctx.graphql(GET_WORK_ITEM_ID, { fullPath: args.full_path, iid: String(args.work_item_iid) }),
  );
  const ns = res.namespace as { workItem?: { id?: string } | null } | null | undefined;
  const id = ns?.workItem?.id;
  if (!id)
    throw new Error(`Work item #${String(args.work_item_iid)} was not found in ${String(args.full_path)}.`);
  return id;
}

/** Builds the widget inputs shared by workItemCreate and workItemUpdate from our flat parameters. */
function widgetInput(args: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  if (args.title !== undefined) input.title = args.title;
  if (args.confidential !== undefined) input.confidential = args.confidential;
  if (args.description !== undefined) input.descriptionWidget = { description: args.description };
  // Bare numbers (what a user sees in a URL or a REST answer) are sent as the global IDs the widgets take.
  if (args.assignee_ids !== undefined)
    input.assigneesWidget = { assigneeIds: P.toGlobalId('User', args.assignee_ids) };
  if (args.milestone_id !== undefined)
    input.milestoneWidget = { milestoneId: P.toGlobalId('Milestone', args.milestone_id) };
  if (args.parent_id !== undefined)
    input.hierarchyWidget = { parentId: P.toGlobalId('WorkItem', args.parent_id) };
  if (args.iteration_id !== undefined)
    input.iterationWidget = { iterationId: P.toGlobalId('Iteration', args.iteration_id) };
  if (args.weight !== undefined) input.weightWidget = { weight: args.weight };
  if (args.health_status !== undefined) input.healthStatusWidget = { healthStatus: args.health_status };
  if (args.start_date !== undefined || args.due_date !== undefined) {
    const dates: Record<string, unknown> = {};
    if (args.start_date !== undefined) dates.startDate = args.start_date;
    if (args.due_date !== undefined) dates.dueDate = args.due_date;
    input.startAndDueDateWidget = dates;
  }
  return input;
}

async function createWorkItem(args: Record<string, unknown>, ctx: ActionContext): Promise<unknown> {
  const input: Record<string, unknown> = {
    namespacePath: args.full_path,
    workItemTypeId: P.toGlobalId('WorkItems::Type', args.work_item_type_id),
    ...widgetInput(args),
  };
  if (args.label_ids !== undefined) input.labelsWidget = { labelIds: args.label_ids };
  if (args.crm_contact_ids !== undefined)
    input.crmContactsWidget = {
      contactIds: P.toGlobalId('CustomerRelations::Contact', args.crm_contact_ids),
    };
  if (args.linked_item_ids !== undefined)
    input.linkedItemsWidget = {
      workItemsIds: P.toGlobalId('WorkItem', args.linked_item_ids),
      ...(args.link_type !== undefined ? { linkType: args.link_type } : {}),
    };
  return gqlData(await ctx.graphql(CREATE_WORK_ITEM, { input }, { mutation: 'workItemCreate' }))
    .workItemCreate;
}

async function updateWorkItem(args: Record<string, unknown>, ctx: ActionContext): Promise<unknown> {
  const input: Record<string, unknown> = { id: await workItemGid(args, ctx), ...widgetInput(args) };
  if (args.state_event !== undefined) input.stateEvent = String(args.state_event).toUpperCase();
  if (args.add_label_ids !== undefined || args.remove_label_ids !== undefined) {
    const labels: Record<string, unknown> = {};
    if (args.add_label_ids !== undefined) labels.addLabelIds = args.add_label_ids;
    if (args.remove_label_ids !== undefined) labels.removeLabelIds = args.remove_label_ids;
    input.labelsWidget = labels;
  }
  if (args.crm_contact_ids !== undefined) {
    input.crmContactsWidget = {
      contactIds: P.toGlobalId('CustomerRelations::Contact', args.crm_contact_ids),
      operationMode: 'REPLACE',
    };
  }
  if (args.subscribed !== undefined) input.notificationsWidget = { subscribed: args.subscribed };
  if (args.time_estimate !== undefined || args.time_spent !== undefined) {
    const time: Record<string, unknown> = {};
    if (args.time_estimate !== undefined) time.timeEstimate = args.time_estimate;
    if (args.time_spent !== undefined)
      time.timelog = {
        timeSpent: args.time_spent,
        ...(args.time_spent_summary ? { summary: args.time_spent_summary } : {}),
      };
    input.timeTrackingWidget = time;
  }
  return gqlData(await ctx.graphql(UPDATE_WORK_ITEM, { input }, { mutation: 'workItemUpdate' }))
    .workItemUpdate;
}

async function deleteWorkItem(args: Record<string, unknown>, ctx: ActionContext): Promise<unknown> {
  const id = await workItemGid(args, ctx);
  return gqlData(await ctx.graphql(DELETE_WORK_ITEM, { id }, { mutation: 'workItemDelete' })).workItemDelete;
}

/** An explicit empty list wipes every assignee or contact: ask first. */
function confirmWipe(args: Record<string, unknown>): string | undefined {
  const wiped = ['assignee_ids', 'crm_contact_ids'].filter(
    (k) => Array.isArray(args[k]) && (args[k] as unknown[]).length === 0,
  );
  if (wiped.length === 0) return undefined;
  return `An empty ${wiped.join(' and ')} removes every ${wiped
    .map((k) => (k === 'assignee_ids' ? 'assignee' : 'CRM contact'))
    .join(' and every ')} from the work item.`;
}

/* ---------- resource events (label, milestone, state, iteration, weight) ---------- */

function eventActions(
  kind: 'iteration' | 'label' | 'milestone' | 'state' | 'weight',
  what: string,
  tier: 'free' | 'premium',
  withGet: boolean,
): ActionSpec[] {
  const route = `/projects/:project_id/issues/:issue_iid/resource_${kind}_events`;
  const actions: ActionSpec[] = [];
  if (withGet) {
    actions.push({
      id: `issue.event_issue_${kind}_get`,
      title: `Get issue ${kind} event`,
      description: `Get one ${kind} event of an issue by its event ID: ${what}.`,
      tool: `forge_issue_${kind}_event_get`,
      write: false,
      destructive: false,
      idempotent: true,
      tier,
      scope: 'read_api',
      params: { ...base, event_id: eventId },
      required: [...baseReq, 'event_id'],
      request: { rest: { method: 'GET', path: `${route}/:event_id` } },
      example: { ...ex, event_id: 1 },
    });
  }
  actions.push({
    id: `issue.event_issue_${kind}_list`,
    title: `List issue ${kind} events`,
    description: `List the ${kind} history of an issue: ${what}. Use it to answer "who changed this and when".`,
    tool: `forge_issue_${kind}_event_list`,
    write: false,
    destructive: false,
    idempotent: true,
    tier,
    scope: 'read_api',
    params: { ...base, ...P.paging },
    required: baseReq,
    request: { rest: { method: 'GET', path: route } },
    example: ex,
  });
  return actions;
}

/* ---------- the domain ---------- */

export const domain: DomainSpec = {
  domain: 'issue',
  metaTool: 'forge_issue',
  summary:
    'Issues and work items: list, search, create, update, close or reopen, move, link, comment and discuss, react, track time, subscribe, and read their history and statistics.',
  actions: [
    {
      id: 'issue.create',
      title: 'Create issue',
      description:
        'Open a new issue in a project with title, description, labels, assignees, milestone and due date. Use issue.work_item_create for other work item types (tasks, epics, objectives).',
      tool: 'forge_issue_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        title: { type: 'string', minLength: 1, description: 'Issue title.' },
        description: { type: 'string', description: 'Issue body in Markdown (up to 1,048,576 characters).' },
        labels: labelsCsv,
        assignee_ids: {
          type: 'array',
          items: { type: 'integer', minimum: 1 },
          description: 'User IDs to assign, e.g. [2]. Free tier keeps only one assignee.',
        },
        milestone_id: { type: 'integer', minimum: 1, description: 'Global ID of the milestone to set.' },
        due_date: { type: 'string', format: 'date', description: 'Due date, YYYY-MM-DD.' },
        confidential: {
          type: 'boolean',
          description:
            'true hides the issue from guests and the public: only its author, assignees and project members with at least the Planner role see it.',
        },
        issue_type: {
          type: 'string',
          enum: ['issue', 'incident', 'test_case', 'requirement', 'task', 'ticket'],
          description: 'Type of the new issue (default issue).',
        },
        weight: { type: 'integer', minimum: 0, description: 'Weight of the issue (Premium).' },
        epic_id: {
          type: 'integer',
          minimum: 1,
          description: 'Global ID of the epic to add the issue to (Premium).',
        },
        created_at: dateTime(
          'Creation time to record instead of now; administrators and project owners only',
        ),
        iid: {
          type: 'integer',
          minimum: 1,
          description: 'IID to give the issue; administrators and project owners only.',
        },
        merge_request_to_resolve_discussions_of: {
          type: 'integer',
          minimum: 1,
          description:
            'IID of a merge request whose unresolved threads the issue should gather; title and description are then filled in for you.',
        },
        discussion_to_resolve: {
          type: 'string',
          description:
            'ID of one thread of that merge request to resolve through this issue (use with merge_request_to_resolve_discussions_of).',
        },
      },
      required: ['project_id', 'title'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/issues' } },
      example: {
        project_id: '1',
        title: 'Login button does nothing on Safari',
        labels: 'bug',
        assignee_ids: [2],
      },
    },
    {
      id: 'issue.create_todo',
      title: 'Add issue to my to-do list',
      description:
        'Create a to-do item for yourself on an issue, so it shows in your to-do list. Answers 304 if one already exists.',
      tool: 'forge_issue_create_todo',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...base },
      required: baseReq,
      request: { rest: { method: 'POST', path: '/projects/:project_id/issues/:issue_iid/todo' } },
      example: ex,
    },
    {
      id: 'issue.delete',
      title: 'Delete issue',
      description:
        'Permanently delete an issue with its comments and history. Irreversible; only administrators and project owners may do it. To just close an issue use issue.update with state_event "close".',
      tool: 'forge_issue_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...base },
      required: baseReq,
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/issues/:issue_iid' } },
      example: ex,
    },
    {
      id: 'issue.discussion_add_note',
      title: 'Reply to issue thread',
      description:
        'Add a reply to an existing discussion thread on an issue. To start a new thread use issue.discussion_create; for a plain comment use issue.note_create.',
      tool: 'forge_add_issue_discussion_note',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...base,
        discussion_id: P.discussionId,
        body: noteBody,
        created_at: dateTime('Creation time to record; administrators and project owners only'),
      },
      required: [...baseReq, 'discussion_id', 'body'],
      request: {
        rest: {
          method: 'POST',
          path: '/projects/:project_id/issues/:issue_iid/discussions/:discussion_id/notes',
        },
      },
      example: {
        ...ex,
        discussion_id: '3fb39737f829d26f16404e86ffd4c5f6dfafa3be',
        body: 'Agreed, I will take it.',
      },
    },
    {
      id: 'issue.discussion_create',
      title: 'Start issue thread',
      description:
        'Start a new discussion thread on an issue; others can reply to it with issue.discussion_add_note.',
      tool: 'forge_create_issue_discussion',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...base,
        body: noteBody,
        created_at: dateTime('Creation time to record; administrators and project owners only'),
      },
      required: [...baseReq, 'body'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/issues/:issue_iid/discussions' } },
      example: { ...ex, body: 'Should we also cover Firefox?' },
    },
    {
      id: 'issue.discussion_delete_note',
      title: 'Delete issue thread reply',
      description: 'Permanently delete one comment of an issue discussion thread. Irreversible.',
      tool: 'forge_delete_issue_discussion_note',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...base, discussion_id: P.discussionId, note_id: P.noteId },
      required: [...baseReq, 'discussion_id', 'note_id'],
      request: {
        rest: {
          method: 'DELETE',
          path: '/projects/:project_id/issues/:issue_iid/discussions/:discussion_id/notes/:note_id',
        },
      },
      example: { ...ex, discussion_id: '3fb39737f829d26f16404e86ffd4c5f6dfafa3be', note_id: 1 },
    },
    {
      id: 'issue.discussion_get',
      title: 'Get issue thread',
      description: 'Get one discussion thread of an issue with all its comments.',
      tool: 'forge_get_issue_discussion',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...base, discussion_id: P.discussionId },
      required: [...baseReq, 'discussion_id'],
      request: {
        rest: { method: 'GET', path: '/projects/:project_id/issues/:issue_iid/discussions/:discussion_id' },
      },
      example: { ...ex, discussion_id: '3fb39737f829d26f16404e86ffd4c5f6dfafa3be' },
    },
    {
      id: 'issue.discussion_list',
      title: 'List issue threads',
      description:
        'List the discussion threads of an issue, each with its comments grouped. Use issue.note_list for a flat list of comments.',
      tool: 'forge_list_issue_discussions',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...base, ...P.paging },
      required: baseReq,
      request: { rest: { method: 'GET', path: '/projects/:project_id/issues/:issue_iid/discussions' } },
      example: ex,
    },
    {
      id: 'issue.discussion_update_note',
      title: 'Edit issue thread reply',
      description: 'Change the text of one comment inside an issue discussion thread.',
      tool: 'forge_update_issue_discussion_note',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...base, discussion_id: P.discussionId, note_id: P.noteId, body: noteBody },
      required: [...baseReq, 'discussion_id', 'note_id', 'body'],
      request: {
        rest: {
          method: 'PUT',
          path: '/projects/:project_id/issues/:issue_iid/discussions/:discussion_id/notes/:note_id',
        },
      },
      example: {
        ...ex,
        discussion_id: '3fb39737f829d26f16404e86ffd4c5f6dfafa3be',
        note_id: 1,
        body: 'Edited reply.',
      },
    },
    {
      id: 'issue.emoji_issue_create',
      title: 'React to issue',
      description: 'Add an emoji reaction (award emoji) to an issue, e.g. a thumbs up.',
      tool: 'forge_issue_emoji_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: { ...base, name: P.emojiName },
      required: [...baseReq, 'name'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/issues/:issue_iid/award_emoji' } },
      example: { ...ex, name: 'thumbsup' },
    },
    {
      id: 'issue.emoji_issue_delete',
      title: 'Remove issue reaction',
      description:
        'Remove an emoji reaction from an issue; only your own reactions can be removed (administrators excepted).',
      tool: 'forge_issue_emoji_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...base, award_id: P.awardId },
      required: [...baseReq, 'award_id'],
      request: {
        rest: { method: 'DELETE', path: '/projects/:project_id/issues/:issue_iid/award_emoji/:award_id' },
      },
      example: { ...ex, award_id: 1 },
    },
    {
      id: 'issue.emoji_issue_get',
      title: 'Get issue reaction',
      description: 'Get one emoji reaction of an issue by its award ID.',
      tool: 'forge_issue_emoji_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...base, award_id: P.awardId },
      required: [...baseReq, 'award_id'],
      request: {
        rest: { method: 'GET', path: '/projects/:project_id/issues/:issue_iid/award_emoji/:award_id' },
      },
      example: { ...ex, award_id: 1 },
    },
    {
      id: 'issue.emoji_issue_list',
      title: 'List issue reactions',
      description: 'List the emoji reactions on an issue, with who gave each.',
      tool: 'forge_issue_emoji_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...base, ...P.paging },
      required: baseReq,
      request: { rest: { method: 'GET', path: '/projects/:project_id/issues/:issue_iid/award_emoji' } },
      example: ex,
    },
    {
      id: 'issue.emoji_issue_note_create',
      title: 'React to issue comment',
      description: 'Add an emoji reaction to one comment on an issue.',
      tool: 'forge_issue_note_emoji_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: { ...base, note_id: P.noteId, name: P.emojiName },
      required: [...baseReq, 'note_id', 'name'],
      request: {
        rest: { method: 'POST', path: '/projects/:project_id/issues/:issue_iid/notes/:note_id/award_emoji' },
      },
      example: { ...ex, note_id: 1, name: 'tada' },
    },
    {
      id: 'issue.emoji_issue_note_delete',
      title: 'Remove issue comment reaction',
      description:
        'Remove an emoji reaction from a comment on an issue; only your own reactions can be removed.',
      tool: 'forge_issue_note_emoji_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...base, note_id: P.noteId, award_id: P.awardId },
      required: [...baseReq, 'note_id', 'award_id'],
      request: {
        rest: {
          method: 'DELETE',
          path: '/projects/:project_id/issues/:issue_iid/notes/:note_id/award_emoji/:award_id',
        },
      },
      example: { ...ex, note_id: 1, award_id: 1 },
    },
    {
      id: 'issue.emoji_issue_note_get',
      title: 'Get issue comment reaction',
      description: 'Get one emoji reaction on a comment of an issue.',
      tool: 'forge_issue_note_emoji_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...base, note_id: P.noteId, award_id: P.awardId },
      required: [...baseReq, 'note_id', 'award_id'],
      request: {
        rest: {
          method: 'GET',
          path: '/projects/:project_id/issues/:issue_iid/notes/:note_id/award_emoji/:award_id',
        },
      },
      example: { ...ex, note_id: 1, award_id: 1 },
    },
    {
      id: 'issue.emoji_issue_note_list',
      title: 'List issue comment reactions',
      description: 'List the emoji reactions on one comment of an issue.',
      tool: 'forge_issue_note_emoji_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...base, note_id: P.noteId, ...P.paging },
      required: [...baseReq, 'note_id'],
      request: {
        rest: { method: 'GET', path: '/projects/:project_id/issues/:issue_iid/notes/:note_id/award_emoji' },
      },
      example: { ...ex, note_id: 1 },
    },
    ...eventActions('iteration', 'when the issue was added to or removed from an iteration', 'premium', true),
    ...eventActions('label', 'which labels were added or removed, by whom and when', 'free', true),
    ...eventActions('milestone', 'when a milestone was set or removed', 'free', true),
    ...eventActions('state', 'when the issue was closed, reopened or locked, and by whom', 'free', true),
    ...eventActions('weight', 'each weight that was set, by whom and when', 'free', false),
    {
      id: 'issue.get',
      title: 'Get issue',
      description:
        'Get one issue of a project by its IID (#N): title, description, state, labels, assignees, milestone, due date, time stats and links.',
      tool: 'forge_issue_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...base },
      required: baseReq,
      request: { rest: { method: 'GET', path: '/projects/:project_id/issues/:issue_iid' } },
      notFound: issueNotFound,
      example: ex,
    },
    {
      id: 'issue.get_by_id',
      title: 'Get issue by global ID',
      description:
        'Get an issue by its global ID when the project is unknown. Administrators only; everyone else should use issue.get with the project and IID.',
      tool: 'forge_issue_get_by_id',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { issue_id: issueId },
      required: ['issue_id'],
      request: { rest: { method: 'GET', path: '/issues/:issue_id' } },
      notFound: { object: 'Issue', key: 'issue_id', next: ['issue.list_all', 'issue.get'] },
      example: { issue_id: 1 },
    },
    {
      id: 'issue.iteration_list_group',
      title: 'List group iterations',
      description:
        'List the iterations (time-boxed sprints) of a group, to find an iteration ID for planning issues.',
      tool: 'forge_list_group_iterations',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        state: {
          type: 'string',
          enum: ['opened', 'upcoming', 'current', 'closed', 'all'],
          description: 'Iteration state to return (default all).',
        },
        search: { type: 'string', description: 'Text to match against iteration titles.' },
        in: {
          type: 'array',
          items: { type: 'string', enum: ['title', 'cadence_title'] },
          description: 'Fields `search` looks in (default ["title"] only).',
        },
        include_ancestors: {
          type: 'boolean',
          description: 'Also include iterations of parent groups (default true).',
        },
        include_descendants: {
          type: 'boolean',
          description: 'Also include iterations of subgroups (default false).',
        },
        updated_before: dateTime('Only iterations updated on or before this time'),
        updated_after: dateTime('Only iterations updated on or after this time'),
        ...P.paging,
      },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/iterations' } },
      example: { group_id: '10', state: 'current' },
    },
    {
      id: 'issue.iteration_list_project',
      title: 'List project iterations',
      description: "List the iterations available to a project (its group's and ancestors' sprints).",
      tool: 'forge_list_project_iterations',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        state: {
          type: 'string',
          enum: ['opened', 'upcoming', 'current', 'closed', 'all'],
          description: 'Iteration state to return (default all).',
        },
        search: { type: 'string', description: 'Text to match against iteration titles.' },
        in: {
          type: 'array',
          items: { type: 'string', enum: ['title', 'cadence_title'] },
          description: 'Fields `search` looks in (default ["title"] only).',
        },
        include_ancestors: {
          type: 'boolean',
          description: 'Also include iterations of parent groups (default true).',
        },
        // doc/api/iterations.md: the project list takes include_descendants too (GitLab 16.7).
        include_descendants: {
          type: 'boolean',
          description: "Also include iterations of the subgroups of the project's group (default false).",
        },
        updated_before: dateTime('Only iterations updated on or before this time'),
        updated_after: dateTime('Only iterations updated on or after this time'),
        ...P.paging,
      },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/iterations' } },
      example: { project_id: '1' },
    },
    {
      id: 'issue.link_create',
      title: 'Link issues',
      description:
        'Link an issue to another issue, possibly in another project, as related, blocking or blocked by. Blocking relations need Premium.',
      tool: 'forge_issue_link_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...base,
        target_project_id: {
          type: 'string',
          description: 'ID or full path of the project of the other issue, e.g. "acme/gadgets".',
        },
        target_issue_iid: {
          type: 'integer',
          minimum: 1,
          description: 'IID of the other issue in its project.',
        },
        link_type: {
          type: 'string',
          enum: ['relates_to', 'blocks', 'is_blocked_by'],
          description: 'Relation of this issue to the other (default relates_to).',
        },
      },
      required: [...baseReq, 'target_project_id', 'target_issue_iid'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/issues/:issue_iid/links' } },
      example: { ...ex, target_project_id: '1', target_issue_iid: 2, link_type: 'relates_to' },
    },
    {
      id: 'issue.link_delete',
      title: 'Unlink issues',
      description: 'Remove the link between two issues (the issues themselves stay).',
      tool: 'forge_issue_link_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...base, issue_link_id: issueLinkId },
      required: [...baseReq, 'issue_link_id'],
      request: {
        rest: { method: 'DELETE', path: '/projects/:project_id/issues/:issue_iid/links/:issue_link_id' },
      },
      example: { ...ex, issue_link_id: 1 },
    },
    {
      id: 'issue.link_get',
      title: 'Get issue link',
      description: 'Get one link between two issues, with both issues and the link type.',
      tool: 'forge_issue_link_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...base, issue_link_id: issueLinkId },
      required: [...baseReq, 'issue_link_id'],
      request: {
        rest: { method: 'GET', path: '/projects/:project_id/issues/:issue_iid/links/:issue_link_id' },
      },
      example: { ...ex, issue_link_id: 1 },
    },
    {
      id: 'issue.link_list',
      title: 'List linked issues',
      description:
        'List the issues linked to an issue (related, blocking, blocked by), with each link ID and type.',
      tool: 'forge_issue_link_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      // The instance answers every link at once (no paging).
      params: { ...base },
      required: baseReq,
      request: { rest: { method: 'GET', path: '/projects/:project_id/issues/:issue_iid/links' } },
      example: ex,
    },
    {
      id: 'issue.list',
      title: 'List project issues',
      description: `List and search a project's issues, filtered by state, labels, milestone, assignee, author, dates or text. Use issue.list_group for a whole group and issue.list_all across projects. ${P.atMostOne(listPairs)}`,
      tool: 'forge_issue_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        ...listFilters,
        ...P.keysetPaging(
          'order_by created_at, updated_at, title, weight, due_date or relative_position; not the priority, milestone or popularity orders',
        ),
      },
      required: ['project_id'],
      exclusive: listPairs,
      needsValue: P.keysetNeeds(),
      request: { rest: { method: 'GET', path: '/projects/:project_id/issues' } },
      example: { project_id: '1', state: 'opened', labels: 'bug' },
    },
    {
      id: 'issue.list_all',
      title: 'List all my issues',
      description: `List issues across every project you can see; by default only issues you created, use scope "all" or "assigned_to_me" to widen or narrow it. ${P.atMostOne(listPairs)}`,
      tool: 'forge_issue_list_all',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...listFilters, ...nonArchived },
      exclusive: listPairs,
      request: { rest: { method: 'GET', path: '/issues' } },
      example: { scope: 'assigned_to_me', state: 'opened' },
    },
    {
      id: 'issue.list_group',
      title: 'List group issues',
      description: `List and search the issues of every project in a group and its subgroups, with the same filters as issue.list. ${P.atMostOne(listPairs)}`,
      tool: 'forge_issue_list_group',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, ...listFilters, ...nonArchived },
      required: ['group_id'],
      exclusive: listPairs,
      request: { rest: { method: 'GET', path: '/groups/:group_id/issues' } },
      example: { group_id: '10', state: 'opened' },
    },
    {
      id: 'issue.move',
      title: 'Move issue to another project',
      description:
        'Move an issue to another project; the original is closed and points to the new one, which gets a new IID. Use it to transfer an issue.',
      tool: 'forge_issue_move',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...base,
        to_project_id: {
          type: 'integer',
          minimum: 1,
          description: 'Numeric ID of the project to move the issue to.',
        },
      },
      required: [...baseReq, 'to_project_id'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/issues/:issue_iid/move' } },
      example: { ...ex, to_project_id: 2 },
    },
    {
      id: 'issue.mrs_closing',
      title: 'List MRs that close issue',
      description: 'List the merge requests that will close this issue when they are merged.',
      tool: 'forge_issue_mrs_closing',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...base, ...P.paging },
      required: baseReq,
      request: { rest: { method: 'GET', path: '/projects/:project_id/issues/:issue_iid/closed_by' } },
      example: ex,
    },
    {
      id: 'issue.mrs_related',
      title: 'List MRs related to issue',
      description:
        'List every merge request that mentions or is linked to this issue, whether or not it closes it.',
      tool: 'forge_issue_mrs_related',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...base, ...P.paging },
      required: baseReq,
      request: {
        rest: { method: 'GET', path: '/projects/:project_id/issues/:issue_iid/related_merge_requests' },
      },
      example: ex,
    },
    {
      id: 'issue.note_create',
      title: 'Comment on issue',
      description:
        'Add a comment to an issue. Set internal to true for an internal note visible only to project members.',
      tool: 'forge_issue_note_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...base,
        body: noteBody,
        internal: {
          type: 'boolean',
          description:
            'true: internal note, hidden from guests and the public; only project members with at least the Planner role see it (default false).',
        },
        created_at: dateTime('Creation time to record; administrators and project owners only'),
      },
      required: [...baseReq, 'body'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/issues/:issue_iid/notes' } },
      example: { ...ex, body: 'Reproduced on main.' },
    },
    {
      id: 'issue.note_delete',
      title: 'Delete issue comment',
      description: 'Permanently delete a comment from an issue. Irreversible.',
      tool: 'forge_issue_note_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...base, note_id: P.noteId },
      required: [...baseReq, 'note_id'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/issues/:issue_iid/notes/:note_id' } },
      example: { ...ex, note_id: 1 },
    },
    {
      id: 'issue.note_get',
      title: 'Get issue comment',
      description: 'Get one comment of an issue by its note ID.',
      tool: 'forge_issue_note_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...base, note_id: P.noteId },
      required: [...baseReq, 'note_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/issues/:issue_iid/notes/:note_id' } },
      example: { ...ex, note_id: 1 },
    },
    {
      id: 'issue.note_list',
      title: 'List issue comments',
      description:
        'List the comments and system notes of an issue as a flat list. Use issue.discussion_list to see them grouped by thread.',
      tool: 'forge_issue_note_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...base,
        ...noteSort,
        activity_filter: P.notesActivityFilter,
        ...P.paging,
      },
      required: baseReq,
      request: { rest: { method: 'GET', path: '/projects/:project_id/issues/:issue_iid/notes' } },
      example: { ...ex, sort: 'asc' },
    },
    {
      id: 'issue.note_update',
      title: 'Edit issue comment',
      description: 'Change the text of a comment on an issue.',
      tool: 'forge_issue_note_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...base, note_id: P.noteId, body: noteBody },
      required: [...baseReq, 'note_id', 'body'],
      request: { rest: { method: 'PUT', path: '/projects/:project_id/issues/:issue_iid/notes/:note_id' } },
      example: { ...ex, note_id: 1, body: 'Reproduced on main and on v1.0.0.' },
    },
    {
      id: 'issue.participants',
      title: 'List issue participants',
      description:
        'List the users who took part in an issue: author, assignees, commenters and people mentioned.',
      tool: 'forge_issue_participants',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...base, ...P.paging },
      required: baseReq,
      request: { rest: { method: 'GET', path: '/projects/:project_id/issues/:issue_iid/participants' } },
      example: ex,
    },
    {
      id: 'issue.reorder',
      title: 'Reorder issue',
      description:
        'Change the manual (relative) position of an issue on lists and boards by placing it after or before another issue.',
      tool: 'forge_issue_reorder',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        ...base,
        move_after_id: {
          type: 'integer',
          minimum: 1,
          description: 'Global ID of the issue to place this one after.',
        },
        move_before_id: {
          type: 'integer',
          minimum: 1,
          description: 'Global ID of the issue to place this one before.',
        },
      },
      required: baseReq,
      oneOf: [['move_after_id', 'move_before_id']],
      request: { rest: { method: 'PUT', path: '/projects/:project_id/issues/:issue_iid/reorder' } },
      example: { ...ex, move_after_id: 2 },
    },
    {
      id: 'issue.spent_time_add',
      title: 'Log time on issue',
      description:
        'Add spent time to an issue (a timelog), optionally with a summary of the work. Negative durations subtract.',
      tool: 'forge_issue_spent_time_add',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...base,
        duration: P.timeDuration,
        summary: { type: 'string', description: 'What the time was spent on.' },
      },
      required: [...baseReq, 'duration'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/issues/:issue_iid/add_spent_time' } },
      example: { ...ex, duration: '1h30m', summary: 'Investigated the Safari bug' },
    },
    {
      id: 'issue.spent_time_reset',
      title: 'Reset issue spent time',
      description: 'Reset the total time spent on an issue to zero.',
      tool: 'forge_issue_spent_time_reset',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...base },
      required: baseReq,
      request: { rest: { method: 'POST', path: '/projects/:project_id/issues/:issue_iid/reset_spent_time' } },
      example: ex,
    },
    {
      id: 'issue.statistics_get',
      title: 'Count my issues',
      description: `Count issues (all, opened, closed) across every project you can see, with the same filters as issue.list_all. ${P.atMostOne(listPairs)}`,
      tool: 'forge_get_issue_statistics',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...issueFilters },
      exclusive: listPairs,
      request: { rest: { method: 'GET', path: '/issues_statistics' } },
      example: { scope: 'assigned_to_me' },
    },
    {
      id: 'issue.statistics_get_group',
      title: 'Count group issues',
      description: `Count the issues (all, opened, closed) of a group and its subgroups, optionally filtered. ${P.atMostOne(listPairs)}`,
      tool: 'forge_get_group_issue_statistics',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, ...issueFilters },
      required: ['group_id'],
      exclusive: listPairs,
      request: { rest: { method: 'GET', path: '/groups/:group_id/issues_statistics' } },
      example: { group_id: '10', labels: 'bug' },
    },
    {
      id: 'issue.statistics_get_project',
      title: 'Count project issues',
      description: `Count the issues (all, opened, closed) of a project, optionally filtered by labels, milestone, author, assignee or text. ${P.atMostOne(listPairs)}`,
      tool: 'forge_get_project_issue_statistics',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, ...issueFilters },
      required: ['project_id'],
      exclusive: listPairs,
      request: { rest: { method: 'GET', path: '/projects/:project_id/issues_statistics' } },
      example: { project_id: '1' },
    },
    {
      id: 'issue.subscribe',
      title: 'Subscribe to issue',
      description:
        'Subscribe to an issue to get notifications about it. Answers 304 if you are already subscribed.',
      tool: 'forge_issue_subscribe',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...base },
      required: baseReq,
      request: { rest: { method: 'POST', path: '/projects/:project_id/issues/:issue_iid/subscribe' } },
      example: ex,
    },
    {
      id: 'issue.time_estimate_reset',
      title: 'Reset issue time estimate',
      description: 'Clear the time estimate of an issue (back to zero).',
      tool: 'forge_issue_time_estimate_reset',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...base },
      required: baseReq,
      request: {
        rest: { method: 'POST', path: '/projects/:project_id/issues/:issue_iid/reset_time_estimate' },
      },
      example: ex,
    },
    {
      id: 'issue.time_estimate_set',
      title: 'Set issue time estimate',
      description: 'Set how long an issue is estimated to take, replacing any earlier estimate.',
      tool: 'forge_issue_time_estimate_set',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...base, duration: P.timeDuration },
      required: [...baseReq, 'duration'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/issues/:issue_iid/time_estimate' } },
      example: { ...ex, duration: '3h30m' },
    },
    {
      id: 'issue.time_stats_get',
      title: 'Get issue time tracking',
      description: 'Get the time estimate and total time spent on an issue, in seconds and human form.',
      tool: 'forge_issue_time_stats_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...base },
      required: baseReq,
      request: { rest: { method: 'GET', path: '/projects/:project_id/issues/:issue_iid/time_stats' } },
      example: ex,
    },
    {
      id: 'issue.unsubscribe',
      title: 'Unsubscribe from issue',
      description: 'Stop notifications about an issue. Answers 304 if you were not subscribed.',
      tool: 'forge_issue_unsubscribe',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...base },
      required: baseReq,
      request: { rest: { method: 'POST', path: '/projects/:project_id/issues/:issue_iid/unsubscribe' } },
      example: ex,
    },
    {
      id: 'issue.update',
      title: 'Update, close or reopen issue',
      description: `Edit an issue: title, description, labels (replace, add or remove), assignees, milestone, due date, confidentiality, lock; close or reopen it with state_event. ${P.atLeastOneField}`,
      tool: 'forge_issue_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        ...base,
        title: { type: 'string', minLength: 1, description: 'New title.' },
        description: { type: 'string', description: 'New body in Markdown (replaces the old one).' },
        state_event: { type: 'string', enum: ['close', 'reopen'], description: 'Close or reopen the issue.' },
        labels: {
          type: 'string',
          description: 'Comma-separated labels replacing all current ones; "" removes every label.',
        },
        add_labels: labelsCsv,
        remove_labels: labelsCsv,
        assignee_ids: {
          type: 'array',
          items: { type: 'integer', minimum: 0 },
          description: 'User IDs replacing the current assignees; [] or [0] unassigns everyone.',
        },
        milestone_id: {
          type: 'integer',
          minimum: 0,
          description: 'Global milestone ID to set; 0 removes the milestone.',
        },
        due_date: {
          type: ['string', 'null'],
          format: 'date',
          description: 'Due date YYYY-MM-DD; null clears it.',
        },
        confidential: {
          type: 'boolean',
          description: 'Make the issue confidential (true) or public (false).',
        },
        discussion_locked: { type: 'boolean', description: 'true: only project members may comment.' },
        issue_type: {
          type: 'string',
          enum: ['issue', 'incident', 'test_case', 'requirement', 'task', 'ticket'],
          description: 'Change the issue type.',
        },
        weight: { type: 'integer', minimum: 0, description: 'Weight of the issue (Premium).' },
        epic_id: {
          type: 'integer',
          minimum: 0,
          description: 'Global epic ID to add the issue to; 0 removes it from its epic (Premium).',
        },
        updated_at: dateTime('Update time to record; administrators and project owners only'),
      },
      required: baseReq,
      // The instance takes at least one of its update fields (at_least_one_of in lib/api/issues.rb).
      oneOf: [
        [
          'title',
          'description',
          'state_event',
          'labels',
          'add_labels',
          'remove_labels',
          'assignee_ids',
          'milestone_id',
          'due_date',
          'confidential',
          'discussion_locked',
          'issue_type',
          'weight',
          'epic_id',
        ],
      ],
      request: { rest: { method: 'PUT', path: '/projects/:project_id/issues/:issue_iid' } },
      example: { ...ex, state_event: 'close', add_labels: 'wontfix' },
    },
    {
      id: 'issue.work_item_create',
      title: 'Create work item',
      description:
        'Create a work item of any type (issue, task, incident, epic, objective, key result, ...) in a project or group through GraphQL. Get the type ID from issue.work_item_type_list.',
      tool: 'forge_create_work_item',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        full_path: fullPath,
        work_item_type_id: {
          ...globalIdParam('workItemType'),
          description:
            'Global ID of the work item type, e.g. "gid://gitlab/WorkItems::Type/1" or just "1" (from issue.work_item_type_list).',
        },
        title: { type: 'string', minLength: 1, description: 'Title of the work item.' },
        description: { type: 'string', description: 'Body in Markdown.' },
        confidential: { type: 'boolean', description: 'true makes the work item confidential.' },
        assignee_ids: gidList('Users to assign', 'gid://gitlab/User/2', 'user'),
        label_ids: gidList('Labels to set', 'gid://gitlab/ProjectLabel/1', 'label'),
        milestone_id: {
          ...globalIdParam('milestone'),
          description: 'Milestone global ID, e.g. "gid://gitlab/Milestone/1" or just "1".',
        },
        parent_id: {
          ...globalIdParam('workItem'),
          description: 'Global ID of the parent work item, e.g. "gid://gitlab/WorkItem/5" or just "5".',
        },
        start_date: { type: 'string', format: 'date', description: 'Start date, YYYY-MM-DD.' },
        due_date: { type: 'string', format: 'date', description: 'Due date, YYYY-MM-DD.' },
        crm_contact_ids: gidList(
          'CRM contacts to link',
          'gid://gitlab/CustomerRelations::Contact/1',
          'contact',
        ),
        linked_item_ids: gidList(
          'Work items to link it to (by ID, not IID)',
          'gid://gitlab/WorkItem/5',
          'workItem',
        ),
        link_type: {
          type: 'string',
          enum: ['RELATED', 'BLOCKED_BY', 'BLOCKS'],
          description: 'How linked_item_ids relate to it: RELATED (default), BLOCKED_BY or BLOCKS.',
        },
        ...workItemPlanning(false),
      },
      required: ['full_path', 'work_item_type_id', 'title'],
      needs: { link_type: ['linked_item_ids'] },
      request: {
        graphql: { document: CREATE_WORK_ITEM, mutation: 'workItemCreate', resultPath: 'workItemCreate' },
      },
      handler: createWorkItem,
      example: {
        full_path: 'acme/widgets',
        work_item_type_id: 'gid://gitlab/WorkItems::Type/5',
        title: 'Write release notes',
      },
    },
    {
      id: 'issue.work_item_delete',
      title: 'Delete work item',
      description:
        'Permanently delete a work item (issue, task, epic, ...) found by its path and IID. Irreversible.',
      tool: 'forge_delete_work_item',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { full_path: fullPath, work_item_iid: workItemIid },
      required: ['full_path', 'work_item_iid'],
      request: {
        graphql: { document: DELETE_WORK_ITEM, mutation: 'workItemDelete', resultPath: 'workItemDelete' },
      },
      handler: deleteWorkItem,
      example: { full_path: 'acme/widgets', work_item_iid: '3' },
    },
    {
      id: 'issue.work_item_get',
      title: 'Get work item',
      description:
        'Get one work item (issue, task, epic, ...) by project or group path and IID through GraphQL, with its widgets: description, assignees, labels, milestone, dates, parent and children.',
      tool: 'forge_get_work_item',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { full_path: fullPath, work_item_iid: workItemIid },
      required: ['full_path', 'work_item_iid'],
      request: {
        graphql: {
          document: GET_WORK_ITEM,
          variables: { fullPath: 'full_path', iid: 'work_item_iid' },
          resultPath: 'namespace.workItem',
        },
      },
      notFound: { object: 'Work item', key: 'work_item_iid', next: ['issue.work_item_list', 'issue.list'] },
      example: { full_path: 'acme/widgets', work_item_iid: '1' },
    },
    {
      id: 'issue.work_item_list',
      title: 'List work items',
      description:
        'List work items of a project or group through GraphQL, filtered by type, state, labels, assignee, author, milestone or text; cursor paginated with first/after.',
      tool: 'forge_list_work_items',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        full_path: fullPath,
        ...Object.fromEntries(WORK_ITEM_FILTERS.map(([name, , , spec]) => [name, spec])),
        first: {
          type: 'integer',
          minimum: 1,
          maximum: 100,
          description: 'How many to return (at most 100).',
        },
        after: { type: 'string', description: 'Cursor from pageInfo.endCursor of the previous page.' },
      },
      required: ['full_path'],
      exclusive: [
        ['assignee_usernames', 'assignee_wildcard_id'],
        ['milestone_title', 'milestone_wildcard_id'],
        ['weight', 'weight_wildcard_id'],
        ['iteration_id', 'iteration_wildcard_id'],
        ['release_tag', 'release_tag_wildcard_id'],
      ],
      request: {
        graphql: {
          document: `query ListWorkItems($fullPath: ID!, ${WORK_ITEM_FILTERS.map(([, v, t]) => `$${v}: ${t}`).join(', ')},
  $first: Int, $after: String) {
  namespace(fullPath: $fullPath) {
    workItems(${WORK_ITEM_FILTERS.map(([, v]) => `${v}: $${v}`).join(', ')}, first: $first, after: $after) {
      count
      pageInfo { hasNextPage endCursor }
      nodes { id iid title state confidential webUrl createdAt updatedAt workItemType { name } }
    }
  }
}`,
          variables: {
            fullPath: 'full_path',
            ...Object.fromEntries(WORK_ITEM_FILTERS.map(([name, v]) => [v, name])),
            first: 'first',
            after: 'after',
          },
          resultPath: 'namespace.workItems',
        },
      },
      example: { full_path: 'acme/widgets', state: 'opened', first: 20 },
    },
    {
      id: 'issue.work_item_saved_view_create',
      title: 'Create work item saved view',
      description:
        'Save a named work item list view (filters, sort, display settings) in a project or group; private to you unless is_private is false. Experimental on the instance.',
      tool: 'forge_issue_work_item_saved_view_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        full_path: fullPath,
        name: { type: 'string', minLength: 1, description: 'Name of the view.' },
        description: { type: 'string', description: 'What the view shows.' },
        filters: {
          type: 'object',
          description:
            'Work item filters in GraphQL camelCase (WorkItemSavedViewFilterInput), e.g. {"state":"opened","labelName":["bug"],"assigneeUsernames":["alice"]}.',
        },
        display_settings: {
          type: 'object',
          description: 'Display settings as a JSON object; {} keeps the defaults.',
        },
        sort: {
          type: 'string',
          enum: WORK_ITEM_SORTS,
          description: 'Sort order of the view.',
        },
        is_private: {
          type: 'boolean',
          description: 'true (default): only you see the view; false shares it with the namespace.',
        },
      },
      required: ['full_path', 'name', 'filters', 'display_settings', 'sort'],
      request: {
        graphql: {
          document: `mutation workItemSavedViewCreate($namespacePath: ID!, $name: String!, $description: String,
  $filters: WorkItemSavedViewFilterInput!, $displaySettings: JSON!, $sort: WorkItemSort!, $isPrivate: Boolean) {
  workItemSavedViewCreate(input: { namespacePath: $namespacePath, name: $name, description: $description,
    filters: $filters, displaySettings: $displaySettings, sort: $sort, isPrivate: $isPrivate }) {
    errors
    savedView { ${SAVED_VIEW_FIELDS} }
  }
}`,
          variables: {
            namespacePath: 'full_path',
            name: 'name',
            description: 'description',
            filters: 'filters',
            displaySettings: 'display_settings',
            sort: 'sort',
            isPrivate: 'is_private',
          },
          mutation: 'workItemSavedViewCreate',
          resultPath: 'workItemSavedViewCreate.savedView',
        },
      },
      example: {
        full_path: 'acme/widgets',
        name: 'Open bugs',
        filters: { state: 'opened', labelName: ['bug'] },
        display_settings: {},
        sort: 'UPDATED_DESC',
      },
    },
    {
      id: 'issue.work_item_saved_view_delete',
      title: 'Delete work item saved view',
      description: 'Permanently delete a saved work item view for everyone who uses it. Irreversible.',
      tool: 'forge_issue_work_item_saved_view_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { saved_view_id: savedViewId },
      required: ['saved_view_id'],
      request: {
        graphql: {
          document: `mutation workItemSavedViewDelete($id: WorkItemsSavedViewsSavedViewID!) {
  workItemSavedViewDelete(input: { id: $id }) {
    errors
    savedView { id name }
  }
}`,
          variables: { id: 'saved_view_id' },
          mutation: 'workItemSavedViewDelete',
          resultPath: 'workItemSavedViewDelete',
        },
      },
      example: { saved_view_id: 'gid://gitlab/WorkItems::SavedViews::SavedView/1' },
    },
    {
      id: 'issue.work_item_saved_view_get',
      title: 'Get work item saved view',
      description:
        'Get one saved work item view of a project or group with its filters, sort and display settings.',
      tool: 'forge_issue_work_item_saved_view_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { full_path: fullPath, saved_view_id: savedViewId },
      required: ['full_path', 'saved_view_id'],
      request: {
        graphql: {
          document: `query getSavedViewQuery($fullPath: ID!, $id: WorkItemsSavedViewsSavedViewID!) {
  namespace(fullPath: $fullPath) {
    savedViews(id: $id) {
      nodes { ${SAVED_VIEW_FIELDS} }
    }
  }
}`,
          variables: { fullPath: 'full_path', id: 'saved_view_id' },
          resultPath: 'namespace.savedViews.nodes',
        },
      },
      example: {
        full_path: 'acme/widgets',
        saved_view_id: 'gid://gitlab/WorkItems::SavedViews::SavedView/1',
      },
    },
    {
      id: 'issue.work_item_saved_view_list',
      title: 'List work item saved views',
      description:
        'List the saved work item views of a project or group, optionally only those you subscribe to or matching a text.',
      tool: 'forge_issue_work_item_saved_view_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        full_path: fullPath,
        search: { type: 'string', description: 'Text to match in view names and descriptions.' },
        subscribed_only: { type: 'boolean', description: 'true: only views you are subscribed to.' },
        sort: {
          type: 'string',
          enum: ['ID', 'RELATIVE_POSITION', 'CREATED_ASC', 'CREATED_DESC', 'UPDATED_ASC', 'UPDATED_DESC'],
          description:
            'Order of the views (default ID: oldest first); RELATIVE_POSITION is the order set in the list.',
        },
        first: {
          type: 'integer',
          minimum: 1,
          maximum: 100,
          description: 'How many to return (at most 100).',
        },
        after: { type: 'string', description: 'Cursor from pageInfo.endCursor of the previous page.' },
      },
      required: ['full_path'],
      request: {
        graphql: {
          document: `query listSavedViewsQuery($fullPath: ID!, $search: String, $subscribedOnly: Boolean, $sort: WorkItemsSavedViewsSort, $first: Int, $after: String) {
  namespace(fullPath: $fullPath) {
    savedViews(search: $search, subscribedOnly: $subscribedOnly, sort: $sort, first: $first, after: $after) {
      pageInfo { hasNextPage endCursor }
      nodes { id name description isPrivate subscribed }
    }
  }
}`,
          variables: {
            fullPath: 'full_path',
            search: 'search',
            subscribedOnly: 'subscribed_only',
            sort: 'sort',
            first: 'first',
            after: 'after',
          },
          resultPath: 'namespace.savedViews',
        },
      },
      example: { full_path: 'acme/widgets' },
    },
    {
      id: 'issue.work_item_saved_view_subscribe',
      title: 'Subscribe to work item saved view',
      description:
        'Add a saved work item view to your own list of views (subscribe). Fails when you hit the subscription limit.',
      tool: 'forge_issue_work_item_saved_view_subscribe',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { saved_view_id: savedViewId },
      required: ['saved_view_id'],
      request: {
        graphql: {
          document: `mutation workItemSavedViewSubscribe($id: WorkItemsSavedViewsSavedViewID!) {
  workItemSavedViewSubscribe(input: { id: $id }) {
    errors
    savedView { id name subscribed }
  }
}`,
          variables: { id: 'saved_view_id' },
          mutation: 'workItemSavedViewSubscribe',
          resultPath: 'workItemSavedViewSubscribe.savedView',
        },
      },
      example: { saved_view_id: 'gid://gitlab/WorkItems::SavedViews::SavedView/1' },
    },
    {
      id: 'issue.work_item_saved_view_unsubscribe',
      title: 'Unsubscribe from work item saved view',
      description: 'Remove a saved work item view from your own list of views; the view itself stays.',
      tool: 'forge_issue_work_item_saved_view_unsubscribe',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { saved_view_id: savedViewId },
      required: ['saved_view_id'],
      request: {
        graphql: {
          document: `mutation workItemSavedViewUnsubscribe($id: WorkItemsSavedViewsSavedViewID!) {
  workItemSavedViewUnsubscribe(input: { id: $id }) {
    errors
    savedView { id name subscribed }
  }
}`,
          variables: { id: 'saved_view_id' },
          mutation: 'workItemSavedViewUnsubscribe',
          resultPath: 'workItemSavedViewUnsubscribe.savedView',
        },
      },
      example: { saved_view_id: 'gid://gitlab/WorkItems::SavedViews::SavedView/1' },
    },
    {
      id: 'issue.work_item_saved_view_update',
      title: 'Update work item saved view',
      description:
        'Rename a saved work item view or change its description, filters, sort, display settings or privacy.',
      tool: 'forge_issue_work_item_saved_view_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        saved_view_id: savedViewId,
        name: { type: 'string', minLength: 1, description: 'New name.' },
        description: { type: 'string', description: 'New description.' },
        filters: {
          type: 'object',
          description: 'Replacement filters in GraphQL camelCase, e.g. {"state":"closed"}.',
        },
        display_settings: { type: 'object', description: 'Replacement display settings as a JSON object.' },
        sort: {
          type: 'string',
          enum: WORK_ITEM_SORTS,
          description: 'New sort order.',
        },
        is_private: {
          type: 'boolean',
          description: 'true: only you see it; false: shared with the namespace.',
        },
      },
      required: ['saved_view_id'],
      request: {
        graphql: {
          document: `mutation workItemSavedViewUpdate($id: WorkItemsSavedViewsSavedViewID!, $name: String, $description: String,
  $filters: WorkItemSavedViewFilterInput, $displaySettings: JSON, $sort: WorkItemSort, $isPrivate: Boolean) {
  workItemSavedViewUpdate(input: { id: $id, name: $name, description: $description, filters: $filters,
    displaySettings: $displaySettings, sort: $sort, isPrivate: $isPrivate }) {
    errors
    savedView { ${SAVED_VIEW_FIELDS} }
  }
}`,
          variables: {
            id: 'saved_view_id',
            name: 'name',
            description: 'description',
            filters: 'filters',
            displaySettings: 'display_settings',
            sort: 'sort',
            isPrivate: 'is_private',
          },
          mutation: 'workItemSavedViewUpdate',
          resultPath: 'workItemSavedViewUpdate.savedView',
        },
      },
      example: {
        saved_view_id: 'gid://gitlab/WorkItems::SavedViews::SavedView/1',
        name: 'Open bugs (triage)',
      },
    },
    {
      id: 'issue.work_item_type_list',
      title: 'List work item types',
      description:
        'List the work item types available in a project or group (issue, task, epic, ...) with the global IDs issue.work_item_create needs.',
      tool: 'forge_issue_work_item_type_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { full_path: fullPath },
      required: ['full_path'],
      request: {
        graphql: {
          document: `query ListWorkItemTypes($fullPath: ID!) {
  namespace(fullPath: $fullPath) {
    workItemTypes {
      nodes { id name iconName }
    }
  }
}`,
          variables: { fullPath: 'full_path' },
          resultPath: 'namespace.workItemTypes.nodes',
        },
      },
      example: { full_path: 'acme/widgets' },
    },
    {
      id: 'issue.work_item_update',
      title: 'Update work item',
      description:
        'Edit a work item found by path and IID through GraphQL: title, description, close/reopen, assignees, labels, milestone, dates, parent, iteration, weight, health status, CRM contacts, subscription, time estimate and spent time. An explicit empty assignee_ids or crm_contact_ids removes all of them and asks for confirmation.',
      tool: 'forge_update_work_item',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        full_path: fullPath,
        work_item_iid: workItemIid,
        title: { type: 'string', minLength: 1, description: 'New title.' },
        description: { type: 'string', description: 'New body in Markdown.' },
        state_event: {
          type: 'string',
          enum: ['close', 'reopen'],
          description: 'Close or reopen the work item.',
        },
        confidential: { type: 'boolean', description: 'Make it confidential (true) or public (false).' },
        assignee_ids: gidList(
          'Users replacing the current assignees ([] removes all)',
          'gid://gitlab/User/2',
          'user',
        ),
        add_label_ids: gidList('Labels to add', 'gid://gitlab/ProjectLabel/1', 'label'),
        remove_label_ids: gidList('Labels to remove', 'gid://gitlab/ProjectLabel/1', 'label'),
        milestone_id: {
          ...globalIdParam('milestone', true),
          description: 'Milestone global ID, e.g. "gid://gitlab/Milestone/1" or just "1"; null removes it.',
        },
        parent_id: {
          ...globalIdParam('workItem', true),
          description:
            'Global ID of the new parent work item, e.g. "gid://gitlab/WorkItem/5" or just "5"; null detaches it.',
        },
        start_date: {
          type: ['string', 'null'],
          format: 'date',
          description: 'Start date YYYY-MM-DD; null clears it.',
        },
        due_date: {
          type: ['string', 'null'],
          format: 'date',
          description: 'Due date YYYY-MM-DD; null clears it.',
        },
        subscribed: P.bool('true subscribes you to its notifications, false unsubscribes you.'),
        time_estimate: {
          type: 'string',
          description: 'New time estimate as a duration, e.g. "3h 30m" or "1w 2d"; "0" removes it.',
        },
        time_spent: {
          type: 'string',
          description: 'Time to log as spent, e.g. "1h 15m" (a leading "-" subtracts).',
        },
        time_spent_summary: { type: 'string', description: 'What the logged time was spent on.' },
        ...workItemPlanning(true),
        crm_contact_ids: gidList(
          'CRM contacts replacing the current ones ([] removes all)',
          'gid://gitlab/CustomerRelations::Contact/1',
          'contact',
        ),
      },
      required: ['full_path', 'work_item_iid'],
      needs: { time_spent_summary: ['time_spent'] },
      request: {
        graphql: { document: UPDATE_WORK_ITEM, mutation: 'workItemUpdate', resultPath: 'workItemUpdate' },
      },
      handler: updateWorkItem,
      confirmWhen: confirmWipe,
      example: {
        full_path: 'acme/widgets',
        work_item_iid: '1',
        title: 'Login button broken on Safari',
        state_event: 'close',
      },
    },
  ],
};
