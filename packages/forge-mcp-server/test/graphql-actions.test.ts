/**
 * The GraphQL-served actions as a user sees them, through a real MCP client over stdio against forge-sim:
 * what the instance's schema takes (filters, sorts, ID forms) reaches it as the operation's variables, and a
 * mutation whose payload lists errors is reported as the action's failure with the instance's messages.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls, sim, textOf, withStdio, type Connected, type ForgeSim } from './harness.js';

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => s?.close());

const ULTIMATE = { env: { FORGE_MCP_TIER: 'ultimate' } };
const addFormats = addFormatsImport as unknown as (ajv: Ajv2020) => Ajv2020;
/** One forge_execute_action call; a destructive action is sent confirmed, as after the user approved it. */
const call = (c: Connected, action: string, params: Record<string, unknown>, confirm = false) =>
  c.client.callTool({
    name: 'forge_execute_action',
    arguments: { action, params, ...(confirm ? { confirm: true } : {}) },
  });

describe('a mutation built by a handler reports its payload errors as the failure', () => {
  // Each handler-built mutation, the operation name it is sent under and its payload field.
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    [
      'issue.work_item_create',
      { full_path: 'acme/widgets', work_item_type_id: 'gid://gitlab/WorkItems::Type/1', title: 'T' },
      'workItemCreate',
      'workItemCreate',
    ],
    [
      'issue.work_item_update',
      { full_path: 'acme/widgets', work_item_iid: '3', title: 'T' },
      'workItemUpdate',
      'workItemUpdate',
    ],
    [
      'issue.work_item_delete',
      { full_path: 'acme/widgets', work_item_iid: '3' },
      'workItemDelete',
      'workItemDelete',
    ],
    ['group.epic_create', { group_path: 'acme', title: 'Roadmap' }, 'CreateWorkItem', 'workItemCreate'],
    [
      'project.target_branch_rule_create',
      { project_id: '1', name: 'release/*', target_branch: 'main' },
      'projectTargetBranchRuleCreate',
      'projectTargetBranchRuleCreate',
    ],
  ];

  it(
    'answers isError with "<action> mutation errors: <the instance messages>", and succeeds on an empty list',
    { timeout: 60_000 },
    async () => {
      await withStdio(s, ULTIMATE, async (c) => {
        for (const [action, params, operation, field] of cases) {
          s.fault({
            path: '/api/graphql',
            graphqlOperation: operation,
            status: 200,
            body: { data: { [field]: { errors: ['Title is too long', 'Namespace is archived'] } } },
            times: 1,
          });
          const confirm = action.endsWith('_delete');
          const refused = await call(c, action, params, confirm);
          expect(refused.isError, action).toBe(true);
          expect(textOf(refused), action).toBe(
            `${action} mutation errors: Title is too long; Namespace is archived`,
          );
          // Without the fault the same call succeeds: the failure above came from the errors list alone.
          const ok = await call(c, action, params, confirm);
          expect(ok.isError, `${action}: ${textOf(ok)}`).toBeFalsy();
        }
      });
    },
  );
});

/** The GraphQL requests sent since `since`: each one's document and variables. */
const graphqlSent = (since: number) =>
  apiCalls(s, since)
    .filter((q) => q.path === '/api/graphql')
    .map((q) => q.body as { query: string; variables: Record<string, unknown> });

describe('issue.work_item_list takes the filters of Namespace.workItems', () => {
  it(
    'sends dates, IIDs, wildcards, the subgroup switch and the newer sorts as variables; refuses a pair the instance refuses',
    { timeout: 60_000 },
    async () => {
      await withStdio(s, ULTIMATE, async (c) => {
        const since = s.requests.length;
        const r = await call(c, 'issue.work_item_list', {
          full_path: 'acme',
          include_descendants: true,
          iids: ['3', '7'],
          confidential: false,
          search: 'login',
          search_in: ['TITLE'],
          assignee_wildcard_id: 'NONE',
          milestone_wildcard_id: 'UPCOMING',
          created_after: '2026-01-01T00:00:00Z',
          due_before: '2026-12-31T00:00:00Z',
          closed_after: '2026-02-01T00:00:00Z',
          parent_ids: ['gid://gitlab/WorkItem/5'],
          iteration_wildcard_id: 'CURRENT',
          health_status_filter: 'atRisk',
          subscribed: 'EXPLICITLY_SUBSCRIBED',
          sort: 'DUE_DATE_ASC',
          ids: ['9'],
          release_tag_wildcard_id: 'NONE',
          iteration_cadence_id: ['2'],
          crm_contact_id: '11',
          timeframe: { start: '2026-01-01', end: '2026-03-31' },
        });
        expect(r.isError, textOf(r)).toBeFalsy();
        const sent = graphqlSent(since);
        expect(sent).toHaveLength(1);
        expect(sent[0]!.variables).toEqual({
          fullPath: 'acme',
          includeDescendants: true,
          iids: ['3', '7'],
          confidential: false,
          search: 'login',
          in: ['TITLE'],
          assigneeWildcardId: 'NONE',
          milestoneWildcardId: 'UPCOMING',
          createdAfter: '2026-01-01T00:00:00Z',
          dueBefore: '2026-12-31T00:00:00Z',
          closedAfter: '2026-02-01T00:00:00Z',
          parentIds: ['gid://gitlab/WorkItem/5'],
          iterationWildcardId: 'CURRENT',
          healthStatusFilter: 'atRisk',
          subscribed: 'EXPLICITLY_SUBSCRIBED',
          sort: 'DUE_DATE_ASC',
          ids: ['gid://gitlab/WorkItem/9'],
          releaseTagWildcardId: 'NONE',
          iterationCadenceId: ['gid://gitlab/Iterations::Cadence/2'],
          crmContactId: '11',
          timeframe: { start: '2026-01-01', end: '2026-03-31' },
        });
        expect(sent[0]!.query).toContain('includeDescendants: $includeDescendants');
        // Exclusion and either-or filters go as the schema's input objects, under its field names.
        const before2 = s.requests.length;
        const negated = await call(c, 'issue.work_item_list', {
          full_path: 'acme',
          not: {
            label_name: ['wontfix'],
            author_usernames: ['bot'],
            iteration_id: ['4'],
            milestone_wildcard_id: 'UPCOMING',
          },
          or: { label_names: ['bug', 'incident'] },
        });
        expect(negated.isError, textOf(negated)).toBeFalsy();
        expect(graphqlSent(before2).map((q) => q.variables)).toEqual([
          {
            fullPath: 'acme',
            not: {
              labelName: ['wontfix'],
              authorUsername: ['bot'],
              iterationId: ['gid://gitlab/Iteration/4'],
              milestoneWildcardId: 'UPCOMING',
            },
            or: { labelNames: ['bug', 'incident'] },
          },
        ]);
        const unknown = await call(c, 'issue.work_item_list', {
          full_path: 'acme',
          not: { labelName: ['x'] },
        });
        expect(unknown.isError).toBe(true);
        // Usernames and the "nobody" wildcard at once: refused before anything is sent.
        const before = s.requests.length;
        const both = await call(c, 'issue.work_item_list', {
          full_path: 'acme',
          assignee_usernames: ['alice'],
          assignee_wildcard_id: 'NONE',
        });
        expect(both.isError).toBe(true);
        expect(textOf(both)).toMatch(/assignee_usernames.*assignee_wildcard_id/);
        expect(apiCalls(s, before)).toHaveLength(0);
      });
    },
  );
});

describe('a global ID parameter also takes the bare number a user sees', () => {
  it(
    'sends "42" (or 42) as gid://gitlab/<type>/42, a global ID as given, and refuses another type\'s global ID',
    { timeout: 60_000 },
    async () => {
      await withStdio(s, ULTIMATE, async (c) => {
        const variablesOf = async (action: string, params: Record<string, unknown>, confirm = false) => {
          const since = s.requests.length;
          const r = await call(c, action, params, confirm);
          expect(r.isError, `${action}: ${textOf(r)}`).toBeFalsy();
          return graphqlSent(since).map((q) => q.variables);
        };
        expect(await variablesOf('vulnerability.get', { id: '42' })).toEqual([
          { id: 'gid://gitlab/Vulnerability/42' },
        ]);
        expect(
          await variablesOf('vulnerability.dismiss', { id: 42, dismissal_reason: 'FALSE_POSITIVE' }),
        ).toEqual([{ id: 'gid://gitlab/Vulnerability/42', dismissalReason: 'FALSE_POSITIVE' }]);
        expect(await variablesOf('vulnerability.get', { id: 'gid://gitlab/Vulnerability/7' })).toEqual([
          { id: 'gid://gitlab/Vulnerability/7' },
        ]);
        expect(await variablesOf('achievement.award', { achievement_id: 1, user_id: 2 })).toEqual([
          { achievementId: 'gid://gitlab/Achievements::Achievement/1', userId: 'gid://gitlab/User/2' },
        ]);
        expect(
          await variablesOf('security_attribute.project_update', {
            project_id: 3,
            add_attribute_ids: [9],
          }),
        ).toEqual([
          { projectId: 'gid://gitlab/Project/3', addAttributeIds: ['gid://gitlab/Security::Attribute/9'] },
        ]);
        // A project's global ID, as the action's own example gives it, is not read as a pasted project URL.
        expect(
          await variablesOf('security_attribute.project_update', {
            project_id: 'gid://gitlab/Project/3',
            remove_attribute_ids: ['9'],
          }),
        ).toEqual([
          { projectId: 'gid://gitlab/Project/3', removeAttributeIds: ['gid://gitlab/Security::Attribute/9'] },
        ]);
        expect(await variablesOf('issue.work_item_list', { full_path: 'acme', parent_ids: ['5'] })).toEqual([
          { fullPath: 'acme', parentIds: ['gid://gitlab/WorkItem/5'] },
        ]);
        expect(await variablesOf('group.epic_note_update', { note_id: 123, body: 'Edited' })).toEqual([
          { id: 'gid://gitlab/Note/123', body: 'Edited' },
        ]);
        // A note found by its number among the epic's notes, whatever class its global ID names.
        const note = await call(c, 'group.epic_note_get', {
          group_path: 'acme',
          epic_iid: '1',
          note_id: '1',
        });
        expect(note.isError, textOf(note)).toBeFalsy();
        expect(JSON.stringify(note.structuredContent)).toMatch(/gid:\/\/gitlab\/\w+\/1"/);
        // A handler-built input converts the same way.
        const [created] = await variablesOf('issue.work_item_create', {
          full_path: 'acme/widgets',
          work_item_type_id: '1',
          title: 'T',
          assignee_ids: ['2', 'gid://gitlab/User/3'],
          milestone_id: '4',
          parent_id: '5',
        });
        expect(created).toEqual({
          input: {
            namespacePath: 'acme/widgets',
            workItemTypeId: 'gid://gitlab/WorkItems::Type/1',
            title: 'T',
            assigneesWidget: { assigneeIds: ['gid://gitlab/User/2', 'gid://gitlab/User/3'] },
            milestoneWidget: { milestoneId: 'gid://gitlab/Milestone/4' },
            hierarchyWidget: { parentId: 'gid://gitlab/WorkItem/5' },
          },
        });
        // Another type's global ID is refused before anything is sent.
        const since = s.requests.length;
        const wrong = await call(c, 'vulnerability.get', { id: 'gid://gitlab/Project/3' });
        expect(wrong.isError).toBe(true);
        expect(textOf(wrong)).toBe(
          'forge_execute_action: invalid params for this action: id must be the global ID of a vulnerability, e.g. "gid://gitlab/Vulnerability/1", or just its number, e.g. "1" (got a string)',
        );
        expect(apiCalls(s, since)).toHaveLength(0);
      });
    },
  );

  it(
    "refuses a username, a title or another type's global ID in a work item's ID parameters, saying what each takes, before anything is sent",
    { timeout: 60_000 },
    async () => {
      await withStdio(s, ULTIMATE, async (c) => {
        const refused = async (action: string, params: Record<string, unknown>) => {
          const since = s.requests.length;
          const r = await call(c, action, params);
          expect(r.isError, textOf(r)).toBe(true);
          expect(apiCalls(s, since)).toHaveLength(0);
          return textOf(r).replace('forge_execute_action: invalid params for this action: ', '');
        };
        const create = { full_path: 'acme/widgets', work_item_type_id: '1', title: 'T' };
        const update = { full_path: 'acme/widgets', work_item_iid: '1' };
        const bare = (what: string, type: string) =>
          `must be the global ID of ${what}, e.g. "gid://gitlab/${type}/1", or just its number, e.g. "1"`;
        expect(await refused('issue.work_item_create', { ...create, assignee_ids: ['alice'] })).toBe(
          `assignee_ids.0 ${bare('a user', 'User')} (got a string; a user is given by numeric ID: user.list with username finds it)`,
        );
        expect(await refused('issue.work_item_update', { ...update, assignee_ids: ['2', 'bob'] })).toBe(
          `assignee_ids.1 ${bare('a user', 'User')} (got a string; a user is given by numeric ID: user.list with username finds it)`,
        );
        expect(await refused('issue.work_item_create', { ...create, work_item_type_id: 'Task' })).toBe(
          `work_item_type_id ${bare('a work item type', 'WorkItems::Type')} (got a string)`,
        );
        expect(await refused('issue.work_item_create', { ...create, milestone_id: 'v1.0' })).toBe(
          `milestone_id ${bare('a milestone', 'Milestone')} (got a string)`,
        );
        const workItem = bare('a work item (its ID, not its IID)', 'WorkItem');
        expect(
          await refused('issue.work_item_update', { ...update, parent_id: 'gid://gitlab/Issue/5' }),
        ).toBe(`parent_id ${workItem} (got a string)`);
        expect(await refused('issue.work_item_create', { ...create, linked_item_ids: ['#5'] })).toBe(
          `linked_item_ids.0 ${workItem} (got a string)`,
        );
        expect(
          await refused('issue.work_item_create', { ...create, crm_contact_ids: ['ann@example.com'] }),
        ).toBe(`crm_contact_ids.0 ${bare('a CRM contact', 'CustomerRelations::Contact')} (got a string)`);
        // Labels are sent as given: a bare number or a label's name is refused.
        const label =
          'must be the global ID of a label, e.g. "gid://gitlab/ProjectLabel/1" or "gid://gitlab/GroupLabel/1" (got a string)';
        expect(await refused('issue.work_item_create', { ...create, label_ids: ['bug'] })).toBe(
          `label_ids.0 ${label}`,
        );
        // A label's number alone, as a string or a number, is told how to write it as either label's global ID.
        const labelNumber = (n: number) =>
          `; a number alone is not taken here: give "gid://gitlab/ProjectLabel/${n}" or "gid://gitlab/GroupLabel/${n}", whichever it is)`;
        expect(await refused('issue.work_item_update', { ...update, add_label_ids: ['7'] })).toBe(
          `add_label_ids.0 ${label.replace(/\)$/, labelNumber(7))}`,
        );
        expect(await refused('issue.work_item_create', { ...create, label_ids: [2] })).toBe(
          `label_ids.0 ${label.replace('(got a string)', `(got 2${labelNumber(2)}`)}`,
        );
        // A number that is no ID where a bare number is taken says the number given.
        expect(await refused('issue.work_item_create', { ...create, milestone_id: 2.5 })).toBe(
          `milestone_id ${bare('a milestone', 'Milestone')} (got 2.5)`,
        );
        expect(
          await refused('issue.work_item_update', { ...update, remove_label_ids: ['gid://gitlab/Label/7'] }),
        ).toBe(`remove_label_ids.0 ${label}`);
        // What each takes is sent; null still clears the milestone and the parent.
        const since = s.requests.length;
        const ok = await call(c, 'issue.work_item_update', {
          ...update,
          assignee_ids: ['2', 'gid://gitlab/User/3'],
          add_label_ids: ['gid://gitlab/ProjectLabel/1', 'gid://gitlab/GroupLabel/2'],
          milestone_id: null,
          parent_id: null,
          crm_contact_ids: ['4'],
        });
        expect(ok.isError, textOf(ok)).toBeFalsy();
        expect(graphqlSent(since).at(-1)?.variables).toMatchObject({
          input: {
            assigneesWidget: { assigneeIds: ['gid://gitlab/User/2', 'gid://gitlab/User/3'] },
            labelsWidget: { addLabelIds: ['gid://gitlab/ProjectLabel/1', 'gid://gitlab/GroupLabel/2'] },
            milestoneWidget: { milestoneId: null },
            hierarchyWidget: { parentId: null },
            crmContactsWidget: { contactIds: ['gid://gitlab/CustomerRelations::Contact/4'] },
          },
        });
      });
    },
  );
});

describe('a global ID that takes a bare number takes it as a JSON number too', () => {
  it(
    'lists those IDs as an integer or a string on the individual surface, so arguments checked against the listed schema pass with numbers, and sends each number as its global ID',
    { timeout: 60_000 },
    async () => {
      await withStdio(s, { env: { ...ULTIMATE.env, FORGE_MCP_TOOL_SURFACE: 'individual' } }, async (c) => {
        const { tools } = await c.client.listTools();
        const listed = (name: string) => {
          const tool = tools.find((t) => t.name === name);
          expect(tool, name).toBeDefined();
          return tool!.inputSchema;
        };
        // Every global ID that takes its bare number ("1") lists an integer too, on every tool.
        const bareNumberTaken: string[] = [];
        const visit = (tool: string, schema: Record<string, unknown>, path: string) => {
          const pattern = schema.pattern;
          if (
            typeof pattern === 'string' &&
            pattern.startsWith('^(gid://gitlab/') &&
            new RegExp(pattern).test('1')
          ) {
            bareNumberTaken.push(`${tool} ${path}`);
            expect([schema.type].flat(), `${tool} ${path}`).toContain('integer');
          }
          const props = schema.properties as Record<string, Record<string, unknown>> | undefined;
          for (const [k, v] of Object.entries(props ?? {})) visit(tool, v, `${path}.${k}`);
          if (schema.items) visit(tool, schema.items as Record<string, unknown>, `${path}.0`);
        };
        for (const t of tools) visit(t.name, t.inputSchema as Record<string, unknown>, '');
        expect(bareNumberTaken.length).toBeGreaterThanOrEqual(50);
        // A client checking arguments against the listed schema, as strict as ajv's defaults, without coercion.
        const strict = addFormats(new Ajv2020());
        const create = strict.compile(listed('forge_create_work_item'));
        const update = strict.compile(listed('forge_update_work_item'));
        const list = strict.compile(listed('forge_list_work_items'));
        const numbers = {
          full_path: 'acme/widgets',
          work_item_type_id: 1,
          title: 'T',
          assignee_ids: [2, 'gid://gitlab/User/3'],
          milestone_id: 4,
          parent_id: 5,
          crm_contact_ids: [6],
          linked_item_ids: [7],
          iteration_id: 8,
        };
        expect(create(numbers), JSON.stringify(create.errors)).toBe(true);
        expect(update({ full_path: 'acme/widgets', work_item_iid: '1', milestone_id: null })).toBe(true);
        expect(list({ full_path: 'acme', parent_ids: [5], iteration_id: [4] })).toBe(true);
        // A label's number alone is not its global ID: the listed schema refuses it, and so does the server.
        expect(create({ ...numbers, label_ids: [2] })).toBe(false);
        // What the instance receives: each number as the global ID of its type.
        let since = s.requests.length;
        const made = await c.client.callTool({ name: 'forge_create_work_item', arguments: numbers });
        expect(made.isError, textOf(made)).toBeFalsy();
        expect(graphqlSent(since).map((q) => q.variables.input)).toEqual([
          {
            namespacePath: 'acme/widgets',
            workItemTypeId: 'gid://gitlab/WorkItems::Type/1',
            title: 'T',
            assigneesWidget: { assigneeIds: ['gid://gitlab/User/2', 'gid://gitlab/User/3'] },
            milestoneWidget: { milestoneId: 'gid://gitlab/Milestone/4' },
            hierarchyWidget: { parentId: 'gid://gitlab/WorkItem/5' },
            iterationWidget: { iterationId: 'gid://gitlab/Iteration/8' },
            crmContactsWidget: { contactIds: ['gid://gitlab/CustomerRelations::Contact/6'] },
            linkedItemsWidget: { workItemsIds: ['gid://gitlab/WorkItem/7'] },
          },
        ]);
        since = s.requests.length;
        const found = await c.client.callTool({
          name: 'forge_list_work_items',
          arguments: { full_path: 'acme', parent_ids: [5], iteration_id: [4] },
        });
        expect(found.isError, textOf(found)).toBeFalsy();
        expect(graphqlSent(since).map((q) => q.variables)).toMatchObject([
          {
            fullPath: 'acme',
            parentIds: ['gid://gitlab/WorkItem/5'],
            iterationId: ['gid://gitlab/Iteration/4'],
          },
        ]);
        since = s.requests.length;
        const label = await c.client.callTool({
          name: 'forge_create_work_item',
          arguments: { ...numbers, label_ids: [2] },
        });
        expect(label.isError).toBe(true);
        expect(textOf(label)).toContain(
          'label_ids.0 must be the global ID of a label, e.g. "gid://gitlab/ProjectLabel/1" or "gid://gitlab/GroupLabel/1" (got 2; a number alone is not taken here: give "gid://gitlab/ProjectLabel/2" or "gid://gitlab/GroupLabel/2", whichever it is)',
        );
        expect(apiCalls(s, since)).toHaveLength(0);
      });
    },
  );
});

describe('sorts and filters the schema offers on the other GraphQL lists', () => {
  it(
    "sends the CI catalog verification level and topics, the findings order, the epic threads order, the epic children state, the saved views order, a catalog resource's version, and an epic's labels and health status",
    { timeout: 60_000 },
    async () => {
      await withStdio(s, ULTIMATE, async (c) => {
        const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
          [
            'ci_catalog.list',
            { verification_level: 'GITLAB_MAINTAINED', topics: ['docker'] },
            { verificationLevel: 'GITLAB_MAINTAINED', topics: ['docker'] },
          ],
          [
            'ci_catalog.get',
            { full_path: 'acme/ci-components', version: '1.2.0' },
            { fullPath: 'acme/ci-components', version: '1.2.0' },
          ],
          [
            'security_finding.list',
            { full_path: 'acme/widgets', pipeline_iid: '12', sort: 'severity_asc' },
            { fullPath: 'acme/widgets', pipelineIid: '12', sort: 'severity_asc' },
          ],
          [
            'group.epic_discussion_list',
            { group_path: 'acme', epic_iid: '1', sort: 'CREATED_DESC' },
            { fullPath: 'acme', iid: '1', sort: 'CREATED_DESC' },
          ],
          [
            'group.epic_note_list',
            { group_path: 'acme', epic_iid: '1', sort: 'CREATED_DESC' },
            { fullPath: 'acme', iid: '1', sort: 'CREATED_DESC' },
          ],
          [
            'group.epic_issue_list',
            { group_path: 'acme', epic_iid: '1', state: 'OPEN' },
            { fullPath: 'acme', iid: '1', state: 'OPEN' },
          ],
          [
            'issue.work_item_saved_view_list',
            { full_path: 'acme', sort: 'UPDATED_DESC' },
            { fullPath: 'acme', sort: 'UPDATED_DESC' },
          ],
        ];
        for (const [action, params, variables] of cases) {
          const since = s.requests.length;
          const r = await call(c, action, params);
          expect(r.isError, `${action}: ${textOf(r)}`).toBeFalsy();
          expect(
            graphqlSent(since).map((q) => q.variables),
            action,
          ).toEqual([variables]);
        }
        const since = s.requests.length;
        const r = await call(c, 'group.epic_create', {
          group_path: 'acme',
          title: 'Roadmap',
          label_ids: [3, 4],
          health_status: 'needsAttention',
        });
        expect(r.isError, textOf(r)).toBeFalsy();
        const create = graphqlSent(since).find((q) => q.query.includes('workItemCreate('));
        expect(create?.variables.input).toMatchObject({
          labelsWidget: { labelIds: ['gid://gitlab/Label/3', 'gid://gitlab/Label/4'] },
          healthStatusWidget: { healthStatus: 'needsAttention' },
        });
        const since2 = s.requests.length;
        const u = await call(c, 'group.epic_update', {
          group_path: 'acme',
          epic_iid: '1',
          health_status: null,
        });
        expect(u.isError, textOf(u)).toBeFalsy();
        const update = graphqlSent(since2).find((q) => q.query.includes('workItemUpdate('));
        expect(update?.variables.input).toMatchObject({ healthStatusWidget: { healthStatus: null } });
        // A parent epic named by its IID (looked up in its group), or null to detach.
        for (const [parent, parentId] of [
          ['2', 'gid://gitlab/WorkItem/1'],
          [null, null],
        ] as const) {
          const before = s.requests.length;
          const p = await call(c, 'group.epic_update', {
            group_path: 'acme',
            epic_iid: '1',
            parent_epic_iid: parent,
            ...(parent ? { parent_group_path: 'acme/platform' } : {}),
          });
          expect(p.isError, textOf(p)).toBeFalsy();
          const sent = graphqlSent(before);
          if (parent)
            expect(sent.map((q) => q.variables)).toContainEqual({ fullPath: 'acme/platform', iid: '2' });
          const mutation = sent.find((q) => q.query.includes('workItemUpdate('));
          expect(mutation?.variables.input).toMatchObject({ hierarchyWidget: { parentId } });
        }
      });
    },
  );
});

describe('a work item is planned in the same call', () => {
  it(
    'issue.work_item_create and work_item_update send the iteration, weight and health status widgets; null clears them on update',
    { timeout: 60_000 },
    async () => {
      await withStdio(s, ULTIMATE, async (c) => {
        const inputOf = async (action: string, params: Record<string, unknown>) => {
          const since = s.requests.length;
          const r = await call(c, action, params);
          expect(r.isError, `${action}: ${textOf(r)}`).toBeFalsy();
          const sent = graphqlSent(since).find((q) => /mutation workItem(Create|Update)\b/.test(q.query));
          expect(sent?.query).toContain('... on WorkItemWidgetIteration { iteration {');
          return sent?.variables.input as Record<string, unknown>;
        };
        const created = await inputOf('issue.work_item_create', {
          full_path: 'acme/widgets',
          work_item_type_id: 'gid://gitlab/WorkItems::Type/1',
          title: 'T',
          iteration_id: '4',
          weight: 3,
          health_status: 'atRisk',
        });
        expect(created).toMatchObject({
          iterationWidget: { iterationId: 'gid://gitlab/Iteration/4' },
          weightWidget: { weight: 3 },
          healthStatusWidget: { healthStatus: 'atRisk' },
        });
        const cleared = await inputOf('issue.work_item_update', {
          full_path: 'acme/widgets',
          work_item_iid: '3',
          iteration_id: null,
          weight: null,
          health_status: null,
        });
        expect(cleared).toMatchObject({
          iterationWidget: { iterationId: null },
          weightWidget: { weight: null },
          healthStatusWidget: { healthStatus: null },
        });
      });
    },
  );
});

describe('a GraphQL list reads as its page, with how to reach the next one', () => {
  it(
    'gives the total a connection counts and the next cursor, for lists whose connection sits below a project, group, namespace, user, work item widget or achievement',
    { timeout: 60_000 },
    async () => {
      // An administrator's token with admin_mode: the Terraform states are an admin action.
      await withStdio(s, { env: { ...ULTIMATE.env, FORGE_TOKEN: s.tokens.admin } }, async (c) => {
        const page = { hasNextPage: true, endCursor: 'Y3Vyc29y' };
        const cases: Array<[string, Record<string, unknown>, string, Record<string, unknown>, string]> = [
          [
            'issue.work_item_list',
            { full_path: 'acme/widgets' },
            'ListWorkItems',
            { namespace: { workItems: { count: 134, pageInfo: page, nodes: [{ iid: '1', title: 'A' }] } } },
            '1 of 134 items',
          ],
          [
            'admin.terraform_state_list',
            { full_path: 'acme/widgets' },
            'listTerraformStates',
            { project: { terraformStates: { count: 7, pageInfo: page, nodes: [{ name: 'production' }] } } },
            '1 of 7 items',
          ],
          [
            'vulnerability.list',
            { full_path: 'acme/widgets' },
            'project',
            { project: { vulnerabilities: { pageInfo: page, nodes: [{ title: 'SQL injection' }] } } },
            '1 item',
          ],
          [
            'custom_emoji.list',
            { group_path: 'acme' },
            'queryListCustomEmoji',
            { group: { customEmoji: { pageInfo: page, nodes: [{ name: 'parrot' }] } } },
            '1 item',
          ],
          [
            'achievement.list',
            { full_path: 'acme' },
            'listAchievementsQuery',
            { namespace: { achievements: { pageInfo: page, nodes: [{ name: 'Bug hunter' }] } } },
            '1 item',
          ],
          [
            'achievement.user_list',
            { username: 'alice' },
            'listUserAchievementsQuery',
            { user: { userAchievements: { pageInfo: page, nodes: [{ priority: 0 }] } } },
            '1 item',
          ],
          [
            'group.epic_discussion_list',
            { group_path: 'acme', epic_iid: '1' },
            'queryListDiscussions',
            {
              namespace: {
                workItem: {
                  id: 'gid://gitlab/WorkItem/1',
                  widgets: [
                    {},
                    { discussions: { pageInfo: page, nodes: [{ id: 'gid://gitlab/Discussion/ab' }] } },
                  ],
                },
              },
            },
            '1 item',
          ],
          [
            'group.epic_issue_list',
            { group_path: 'acme', epic_iid: '1' },
            'queryListChildren',
            {
              namespace: {
                workItem: {
                  widgets: [{ children: { pageInfo: page, nodes: [{ iid: '4', title: 'Child' }] } }],
                },
              },
            },
            '1 item',
          ],
          [
            'achievement.recipients',
            { full_path: 'acme', achievement_id: '1' },
            'listAchievementRecipientsQuery',
            {
              namespace: {
                achievements: {
                  nodes: [
                    {
                      id: 'gid://gitlab/Achievements::Achievement/1',
                      userAchievements: { pageInfo: page, nodes: [{ priority: 0 }] },
                    },
                  ],
                },
              },
            },
            '1 item',
          ],
          [
            'security_finding.list',
            { full_path: 'acme/widgets', pipeline_iid: '12' },
            'project',
            {
              project: {
                pipeline: { securityReportFindings: { pageInfo: page, nodes: [{ title: 'XSS' }] } },
              },
            },
            '1 item',
          ],
        ];
        for (const [action, params, operation, data, head] of cases) {
          s.fault({
            path: '/api/graphql',
            graphqlOperation: operation,
            status: 200,
            body: { data },
            times: 1,
          });
          const r = await call(c, action, params);
          expect(r.isError, `${action}: ${textOf(r)}`).toBeFalsy();
          expect(textOf(r).split('\n')[0], action).toBe(
            `${head}, next page: pass after=Y3Vyc29y (with the same parameters otherwise)`,
          );
          const structured = r.structuredContent as { items: unknown[]; pageInfo: unknown; count?: number };
          expect(structured.items, action).toHaveLength(1);
          expect(structured.pageInfo, action).toEqual(page);
          if (head.includes(' of ')) expect(structured.count, action).toBe(Number(head.split(' ')[2]));
        }
      });
    },
  );
});

describe('the rest of a work item in the same call', () => {
  it(
    'work_item_create links items and CRM contacts; work_item_update subscribes, estimates and logs time',
    { timeout: 60_000 },
    async () => {
      await withStdio(s, ULTIMATE, async (c) => {
        const inputOf = async (action: string, params: Record<string, unknown>) => {
          const since = s.requests.length;
          const r = await call(c, action, params);
          expect(r.isError, `${action}: ${textOf(r)}`).toBeFalsy();
          const sent = graphqlSent(since).find((q) => /mutation workItem(Create|Update)\b/.test(q.query));
          return sent?.variables.input as Record<string, unknown>;
        };
        expect(
          await inputOf('issue.work_item_create', {
            full_path: 'acme/widgets',
            work_item_type_id: '1',
            title: 'T',
            linked_item_ids: ['5'],
            link_type: 'BLOCKED_BY',
            crm_contact_ids: ['7'],
          }),
        ).toMatchObject({
          linkedItemsWidget: { workItemsIds: ['gid://gitlab/WorkItem/5'], linkType: 'BLOCKED_BY' },
          crmContactsWidget: { contactIds: ['gid://gitlab/CustomerRelations::Contact/7'] },
        });
        expect(
          await inputOf('issue.work_item_update', {
            full_path: 'acme/widgets',
            work_item_iid: '3',
            subscribed: true,
            time_estimate: '3h',
            time_spent: '1h 15m',
            time_spent_summary: 'Review',
          }),
        ).toMatchObject({
          notificationsWidget: { subscribed: true },
          timeTrackingWidget: { timeEstimate: '3h', timelog: { timeSpent: '1h 15m', summary: 'Review' } },
        });
        // A summary without the time it describes: refused before anything is sent.
        const since = s.requests.length;
        const alone = await call(c, 'issue.work_item_update', {
          full_path: 'acme/widgets',
          work_item_iid: '3',
          time_spent_summary: 'Review',
        });
        expect(alone.isError).toBe(true);
        expect(textOf(alone)).toContain('time_spent');
        expect(apiCalls(s, since)).toHaveLength(0);
      });
    },
  );
});

describe("a default scan profile's global ID ends in its scan type", () => {
  it(
    "sends gid://gitlab/Security::ScanProfile/secret_detection as given, as it does a saved profile's number",
    { timeout: 60_000 },
    async () => {
      await withStdio(s, ULTIMATE, async (c) => {
        for (const id of [
          'gid://gitlab/Security::ScanProfile/secret_detection',
          'gid://gitlab/Security::ScanProfile/4',
        ]) {
          const since = s.requests.length;
          const r = await call(c, 'security_scan_profile.attach', {
            security_scan_profile_id: id,
            project_ids: ['1'],
          });
          expect(r.isError, textOf(r)).toBeFalsy();
          expect(graphqlSent(since).map((q) => q.variables)).toEqual([
            { profileId: id, projectIds: ['gid://gitlab/Project/1'] },
          ]);
        }
      });
    },
  );
});
