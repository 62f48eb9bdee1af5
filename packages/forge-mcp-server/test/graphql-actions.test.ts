/**
 * The GraphQL-served actions as a user sees them, through a real MCP client over stdio against forge-sim:
 * what the instance's schema takes (filters, sorts, ID forms) reaches it as the operation's variables, and a
 * mutation whose payload lists errors is reported as the action's failure with the instance's messages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sim, textOf, withStdio, type Connected, type ForgeSim } from './harness.js';

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => s?.close());

const ULTIMATE = { env: { FORGE_MCP_TIER: 'ultimate' } };
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
