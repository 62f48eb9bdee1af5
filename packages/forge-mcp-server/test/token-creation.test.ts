/**
 * Creating a fine-grained token over real stdio against forge-sim: the one creation request carries name,
 * expires_at and granular_scopes, each item with its access level, permissions and (selected_memberships)
 * integer project_ids; forge-sim's log shows the body the instance received.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sim, stdioClient, textOf, type Connected, type ForgeSim } from './harness.js';

let s: ForgeSim;
let c: Connected;
beforeAll(async () => {
  s = await sim();
  c = await stdioClient(s);
});
afterAll(async () => {
  await c.close();
  await s.close();
});

describe('fine-grained token creation', () => {
  it('sends POST /user/personal_access_tokens with name, expires_at and granular_scopes, all in one request', async () => {
    const granular_scopes = [
      { access: 'user', permissions: ['read_user'] },
      {
        access: 'selected_memberships',
        permissions: ['read_project', 'create_work_item'],
        project_ids: [1, 10],
      },
      { access: 'personal_projects', permissions: ['read_work_item'] },
      { access: 'all_memberships', permissions: ['read_merge_request'] },
    ];
    const since = s.requests.length;
    const r = await c.client.callTool({
      name: 'forge_execute_action',
      arguments: {
        action: 'user.create_current_user_pat',
        params: { name: 'triage', expires_at: '2027-01-31', granular_scopes },
      },
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const sent = s.requests.slice(since).filter((q) => q.method === 'POST');
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe('/api/v4/user/personal_access_tokens');
    expect(sent[0].body).toEqual({ name: 'triage', expires_at: '2027-01-31', granular_scopes });
  });

  it('refuses an unknown access level and non-integer project_ids before sending anything', async () => {
    for (const item of [
      { access: 'everything', permissions: ['read_user'] },
      { access: 'selected_memberships', permissions: ['read_project'], project_ids: ['one'] },
    ]) {
      const since = s.requests.length;
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: {
          action: 'user.create_current_user_pat',
          params: { name: 'bad', granular_scopes: [item] },
        },
      });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/invalid params for this action: granular_scopes/);
      expect(s.requests.slice(since).filter((q) => q.method === 'POST')).toHaveLength(0);
    }
  });
});
