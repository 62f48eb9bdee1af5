/**
 * What each tool surface answers to the usual mistakes in a call's arguments, word for word, through a real MCP
 * client over stdio against forge-sim: the type given instead of the expected one, the fixed-set value probably
 * meant, the parameter or action name probably meant, a date's expected shape, parameters given as a JSON
 * string, beside action or wrapped in params. Nothing reaches the instance.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiCalls, sim, stdioClient, textOf, type Connected, type ForgeSim } from './harness.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

type SurfaceName = 'dynamic' | 'meta' | 'individual';
let s: ForgeSim;
const clients = {} as Record<SurfaceName, Connected>;
beforeAll(async () => {
  s = await sim();
  for (const surface of ['dynamic', 'meta', 'individual'] as const)
    clients[surface] = await stdioClient(s, { env: { FORGE_MCP_TOOL_SURFACE: surface } });
});
afterAll(async () => {
  for (const c of Object.values(clients)) await c.close();
  await s.close();
});

/** Individual tool names of the actions used here. */
const TOOLS: Record<string, string> = {
  'issue.get': 'forge_issue_get',
  'issue.list': 'forge_issue_list',
  'issue.create': 'forge_issue_create',
  'issue.update': 'forge_issue_update',
  'project.member_add': 'forge_project_member_add',
  'access.invite_project': 'forge_project_invite',
  'project.get': 'forge_project_get',
  'merge_request.get': 'forge_mr_get',
  'pipeline.create': 'forge_pipeline_create',
  'admin.custom_attr_list': 'forge_list_custom_attributes',
  'branch.protect': 'forge_branch_protect',
  'project.list': 'forge_project_list',
  'mr_review.discussion_create': 'forge_mr_discussion_create',
  'job.trace': 'forge_job_trace',
  'vulnerability.list': 'forge_list_vulnerabilities',
  'security_attribute.update': 'forge_security_attribute_update',
  'custom_emoji.create': 'forge_create_custom_emoji',
};

/** The tools/call of `id` with `params` on `surface`, the way that surface takes them. */
function request(surface: SurfaceName, id: string, params: unknown) {
  const [domain, action] = [id.slice(0, id.indexOf('.')), id.slice(id.indexOf('.') + 1)];
  return surface === 'dynamic'
    ? { name: 'forge_execute_action', arguments: { action: id, params } as Record<string, unknown> }
    : surface === 'meta'
      ? { name: `forge_${domain}`, arguments: { action, params } as Record<string, unknown> }
      : { name: TOOLS[id], arguments: params as Record<string, unknown> };
}

/** Calls `id` with `params` on `surface`; the answer's text (an error, and nothing sent). */
async function call(surface: SurfaceName, id: string, params: unknown): Promise<string> {
  const since = s.requests.length;
  const r = await clients[surface].client.callTool(request(surface, id, params));
  expect(r.isError, textOf(r)).toBe(true);
  expect(apiCalls(s, since)).toHaveLength(0);
  return textOf(r);
}

/** The prefix each surface puts before a type or fixed-set problem of an action's parameters. */
const typed = (surface: SurfaceName, id: string) =>
  surface === 'dynamic'
    ? 'forge_execute_action: invalid params for this action: '
    : surface === 'meta'
      ? `forge_${id.slice(0, id.indexOf('.'))}/${id.slice(id.indexOf('.') + 1)}: invalid params for this action: `
      : 'validating "arguments": ';

describe.each(['dynamic', 'meta', 'individual'] as const)('on the %s surface', (surface) => {
  it('a value of the wrong type names the type given (a string only by its kind)', async () => {
    const p = typed(surface, 'issue.get');
    expect(await call(surface, 'issue.get', { project_id: '1', issue_iid: 'abc' })).toBe(
      `${p}issue_iid must be integer (got a string)`,
    );
    expect(await call(surface, 'issue.get', { project_id: '1', issue_iid: 1.5 })).toBe(
      `${p}issue_iid must be integer (got 1.5)`,
    );
    expect(await call(surface, 'issue.list', { project_id: '1', confidential: 5 })).toBe(
      `${typed(surface, 'issue.list')}confidential must be boolean (got 5)`,
    );
    expect(await call(surface, 'issue.list', { project_id: '1', iids: { a: 1 } })).toBe(
      `${typed(surface, 'issue.list')}iids must be array (got an object)`,
    );
    expect(await call(surface, 'pipeline.create', { project_id: '1', ref: 'main', variables: '[]' })).toBe(
      `${typed(surface, 'pipeline.create')}variables must be array (got a string holding JSON: send the array itself, not as a string)`,
    );
  });

  it('a value its pattern does not take says what the parameter takes in words, with an example', async () => {
    expect(await call(surface, 'security_attribute.update', { id: '1', color: 'orange' })).toBe(
      `${typed(surface, 'security_attribute.update')}color must be a color as "#" and six hexadecimal digits, e.g. "#F0AD4E" (got a string)`,
    );
    expect(
      await call(surface, 'security_attribute.update', {
        id: 'gid://gitlab/Security::Category/1',
        name: 'PCI',
      }),
    ).toBe(
      `${typed(surface, 'security_attribute.update')}id must be the global ID of a security attribute, e.g. "gid://gitlab/Security::Attribute/1", or just its number, e.g. "1" (got a string)`,
    );
    expect(
      await call(surface, 'custom_emoji.create', {
        group_path: 'acme',
        name: 'Party Parrot',
        url: 'https://x.test/p.gif',
      }),
    ).toBe(
      `${typed(surface, 'custom_emoji.create')}name must be an emoji name: lowercase letters, digits, "_", "+" and "-" only, e.g. "party-parrot" (got a string)`,
    );
    // A scanner's number alone, where only its global ID is taken: the number given, and the global ID to write.
    expect(await call(surface, 'vulnerability.list', { full_path: 'acme/widgets', scanner_id: [7] })).toBe(
      `${typed(surface, 'vulnerability.list')}scanner_id.0 must be the global ID of a vulnerability scanner, e.g. "gid://gitlab/Vulnerabilities::Scanner/1" (got 7; a number alone is not taken here: give "gid://gitlab/Vulnerabilities::Scanner/7")`,
    );
  });

  it("a value of the wrong shape says how to give it, from what the parameter's description says it holds", async () => {
    // A lone value where a list is taken; a list where one comma-separated string is; a username for a user ID.
    expect(await call(surface, 'issue.list', { project_id: '1', iids: 3 })).toBe(
      `${typed(surface, 'issue.list')}iids must be array (got 3; a single value goes in a list too, e.g. [value])`,
    );
    expect(
      await call(surface, 'issue.update', { project_id: '1', issue_iid: 2, add_labels: ['bug', 'docs'] }),
    ).toBe(
      `${typed(surface, 'issue.update')}add_labels must be string (got an array; give the values as one comma-separated string, e.g. "a,b")`,
    );
    expect(await call(surface, 'issue.create', { project_id: '1', title: 't', assignee_ids: ['bob'] })).toBe(
      `${typed(surface, 'issue.create')}assignee_ids.0 must be integer (got a string; a user is given by numeric ID: user.list with username finds it)`,
    );
    // A user named where the user's numeric ID is taken, though the parameter's description does not say so.
    expect(
      await call(surface, 'branch.protect', {
        project_id: '1',
        name: 'main',
        allowed_to_push: [{ user_id: 'root' }],
      }),
    ).toBe(
      `${typed(surface, 'branch.protect')}allowed_to_push.0.user_id must be integer (got a string; a user is given by numeric ID: user.list with username finds it)`,
    );
    // One ID or several in one string, where a username is no ID: refused, naming the parameter that takes it.
    const ids = 'must be a numeric ID, or several separated by commas, e.g. 3 or "3,4" (got a string; ';
    expect(
      await call(surface, 'project.member_add', { project_id: '1', user_id: 'root', access_level: 30 }),
    ).toBe(
      `${typed(surface, 'project.member_add')}user_id ${ids}a user is given here by numeric ID; a username goes in username instead)`,
    );
    expect(
      await call(surface, 'access.invite_project', { project_id: '1', user_id: '3,bob', access_level: 30 }),
    ).toBe(
      `${typed(surface, 'access.invite_project')}user_id ${ids}a user is given by numeric ID: user.list with username finds it)`,
    );
    // Several IDs in one string are still sent as given.
    const since = s.requests.length;
    await clients[surface].client.callTool(
      request(surface, 'access.invite_project', { project_id: '1', user_id: '3, 4', access_level: 30 }),
    );
    expect(apiCalls(s, since).map((q) => q.body)).toMatchObject([{ user_id: '3, 4' }]);
    // A parameter whose description says neither keeps the plain text.
    expect(await call(surface, 'issue.update', { project_id: '1', issue_iid: 2, title: ['x'] })).toBe(
      `${typed(surface, 'issue.update')}title must be string (got an array)`,
    );
  });

  it('a missing property whose description names the action its value comes from says that action', async () => {
    const position = { position_type: 'text', new_path: 'src/login.js', new_line: 3 };
    expect(
      await call(surface, 'mr_review.discussion_create', {
        project_id: '1',
        merge_request_iid: 1,
        body: 'b',
        position,
      }),
    ).toBe(
      `${typed(surface, 'mr_review.discussion_create')}position: missing property "base_sha" (from mr_review.diff_versions_list); position: missing property "start_sha" (from mr_review.diff_versions_list); position: missing property "head_sha" (from mr_review.diff_versions_list)`,
    );
  });

  it('a missing required parameter whose description names the action its value comes from says that action', async () => {
    expect(await call(surface, 'job.trace', { project_id: '1' })).toBe(
      {
        dynamic:
          'invalid params. Missing required params: job_id (from job.list). Valid params: project_id, job_id, tail_lines, byte_offset, byte_limit.',
        meta: 'forge_job/trace: missing required params: job_id (from job.list)',
        individual: 'validating "arguments": missing property "job_id" (from job.list)',
      }[surface],
    );
  });

  it('true, false or null where the schema takes none of them is refused, not turned into 1, "true" or 0', async () => {
    // ajv's coercion would have sent project_id "true", and invited user 1 for user_id true.
    expect(await call(surface, 'issue.get', { project_id: true, issue_iid: 1 })).toBe(
      `${typed(surface, 'issue.get')}project_id must be string (got true)`,
    );
    expect(
      await call(surface, 'issue.create', { project_id: '1', title: 't', assignee_ids: [false, null] }),
    ).toBe(
      `${typed(surface, 'issue.create')}assignee_ids.0 must be integer (got false); assignee_ids.1 must be integer (got null)`,
    );
    expect(await call(surface, 'issue.list', { project_id: '1', weight: true })).toBe(
      `${typed(surface, 'issue.list')}weight must be integer or string (got true)`,
    );
  });

  it('a parameter given as null is left out, never sent empty (an update keeps its labels and milestone)', async () => {
    const since = s.requests.length;
    const params = {
      project_id: '1',
      issue_iid: 2,
      title: `Renamed on ${surface}`,
      labels: null,
      milestone_id: null,
    };
    const r = await clients[surface].client.callTool(request(surface, 'issue.update', params));
    expect(r.isError, textOf(r)).toBeFalsy();
    const put = apiCalls(s, since).filter((q) => q.method === 'PUT');
    expect(put.map((q) => [q.path, q.body])).toEqual([
      ['/api/v4/projects/1/issues/2', { title: `Renamed on ${surface}` }],
    ]);
  });

  it('a fixed-set value misspelt or in the wrong case names the one probably meant', async () => {
    const p = typed(surface, 'issue.list');
    expect(await call(surface, 'issue.list', { project_id: '1', state: 'open' })).toBe(
      `${p}state must be one of: opened, closed, all (did you mean opened?)`,
    );
    expect(await call(surface, 'issue.list', { project_id: '1', state: 'Closed' })).toBe(
      `${p}state must be one of: opened, closed, all (did you mean closed?)`,
    );
    expect(await call(surface, 'issue.list', { project_id: '1', state: 'shut' })).toBe(
      `${p}state must be one of: opened, closed, all`,
    );
    // A misspelt role: the levels and their words, and the one probably meant.
    expect(
      await call(surface, 'project.member_add', { project_id: '1', user_id: 2, access_level: 'develper' }),
    ).toBe(
      `${typed(surface, 'project.member_add')}access_level must be one of: 10, 15, 20, 25, 30, 40, 50, guest, planner, reporter, security_manager, developer, maintainer, owner (did you mean developer?)`,
    );
    // A value taking a number or a fixed word: one problem naming both, not one per alternative.
    expect(await call(surface, 'issue.list', { project_id: '1', weight: 'heavy' })).toBe(
      `${p}weight must be integer, or one of: None, Any (got a string)`,
    );
    expect(await call(surface, 'issue.list', { project_id: '1', iteration_id: 'current' })).toBe(
      `${p}iteration_id must be integer, or one of: None, Any, Current (did you mean Current?)`,
    );
  });

  it('an integer beyond ±(2^53-1) is refused as inexact, before anything is sent; a string of digits for an ID is sent exactly', async () => {
    const inexact = (got: string, takesText: boolean) =>
      `cannot be represented exactly (${got}): an integer beyond ±9007199254740991 loses its last digits as a number${
        takesText
          ? '; send it as a string of digits, in quotes, which is sent exactly as given'
          : ', so nothing was sent; check the value'
      }`;
    // JSON parsing has already rounded these: 12345678901234567890 arrives as 12345678901234567000.
    expect(await call(surface, 'issue.get', { project_id: 12345678901234567890, issue_iid: 1 })).toBe(
      `${typed(surface, 'issue.get')}project_id ${inexact('got 12345678901234567000', true)}`,
    );
    expect(await call(surface, 'issue.get', { project_id: '1', issue_iid: 9007199254740993 })).toBe(
      `${typed(surface, 'issue.get')}issue_iid ${inexact('got 9007199254740992', false)}`,
    );
    // A string of digits for a number only: coercion would round it.
    expect(await call(surface, 'issue.get', { project_id: '1', issue_iid: '9007199254740993' })).toBe(
      `${typed(surface, 'issue.get')}issue_iid ${inexact('got a string of 16 digits', false)}`,
    );
    expect(
      await call(surface, 'issue.create', { project_id: '1', title: 't', assignee_ids: [2, -(2 ** 60)] }),
    ).toBe(`${typed(surface, 'issue.create')}assignee_ids.1 ${inexact('got -1152921504606847000', false)}`);
    // A user ID that may also be a string.
    expect(
      await call(surface, 'project.member_add', { project_id: '1', user_id: 2 ** 64, access_level: 30 }),
    ).toBe(`${typed(surface, 'project.member_add')}user_id ${inexact('got 18446744073709552000', true)}`);

    // The string of digits reaches the instance digit for digit; the largest exact integer as itself.
    const since = s.requests.length;
    for (const params of [
      { project_id: '12345678901234567890', issue_iid: 9007199254740991 },
      { project_id: '1', issue_iid: '9007199254740991' },
    ])
      await clients[surface].client.callTool(request(surface, 'issue.get', params));
    expect(apiCalls(s, since).map((q) => q.path)).toEqual([
      '/api/v4/projects/12345678901234567890/issues/9007199254740991',
      '/api/v4/projects/1/issues/9007199254740991',
    ]);
  });

  it("a role's word is taken for its level, in any case, and the level is sent; a level the endpoint does not take is refused naming the words and numbers it does", async () => {
    const since = s.requests.length;
    const sent = async (id: string, params: Record<string, unknown>) => {
      const at = s.requests.length;
      await clients[surface].client.callTool(request(surface, id, params));
      const calls = apiCalls(s, at);
      expect(calls, JSON.stringify(params)).toHaveLength(1);
      return calls[0]!;
    };
    expect(
      (await sent('project.member_add', { project_id: '1', user_id: 3, access_level: 'Developer' })).body,
    ).toMatchObject({ user_id: 3, access_level: 30 });
    // Strings of digits still read as the number.
    expect(
      (await sent('project.member_add', { project_id: '1', user_id: 3, access_level: '40' })).body,
    ).toMatchObject({ access_level: 40 });
    expect((await sent('project.list', { min_access_level: ' reporter ' })).query).toMatchObject({
      min_access_level: '20',
    });
    const protect = await sent('branch.protect', {
      project_id: '1',
      name: `roles-${surface}`,
      push_access_level: 'No Access',
      merge_access_level: 'MAINTAINER',
      unprotect_access_level: 'admin',
      allowed_to_push: [{ access_level: 'no-access' }, { access_level: 'developer' }, { user_id: 2 }],
    });
    expect(protect.body).toMatchObject({
      push_access_level: 0,
      merge_access_level: 40,
      unprotect_access_level: 60,
      allowed_to_push: [{ access_level: 0 }, { access_level: 30 }, { user_id: 2 }],
    });
    expect(apiCalls(s, since)).toHaveLength(4);

    // Protected branches take no owner (50) nor reporter: refused, nothing sent.
    expect(
      await call(surface, 'branch.protect', { project_id: '1', name: 'x', push_access_level: 'owner' }),
    ).toBe(
      `${typed(surface, 'branch.protect')}push_access_level must be one of: 0, 30, 40, 60, no_access, developer, maintainer, admin`,
    );
    expect(
      await call(surface, 'branch.protect', {
        project_id: '1',
        name: 'x',
        allowed_to_unprotect: [{ access_level: 'no access' }],
      }),
    ).toBe(
      `${typed(surface, 'branch.protect')}allowed_to_unprotect.0.access_level must be one of: 30, 40, 60, developer, maintainer, admin`,
    );
    expect(await call(surface, 'project.list', { min_access_level: 'maintainers' })).toBe(
      `${typed(surface, 'project.list')}min_access_level must be one of: 5, 10, 15, 20, 25, 30, 40, 50, minimal_access, guest, planner, reporter, security_manager, developer, maintainer, owner (did you mean maintainer?)`,
    );
  });

  it('a malformed date says the shape expected, with an example', async () => {
    expect(await call(surface, 'issue.create', { project_id: '1', title: 't', due_date: '31/03/2026' })).toBe(
      `${typed(surface, 'issue.create')}due_date must match format "date", a date such as 2026-03-31`,
    );
    expect(await call(surface, 'issue.list', { project_id: '1', created_after: 'yesterday' })).toBe(
      `${typed(surface, 'issue.list')}created_after must match format "date-time", a date and time in ISO 8601 such as 2026-03-31T14:00:00Z`,
    );
  });
});

describe('a parameter under a near name is named as the one meant', () => {
  it('a required one (project for project_id, mr_id and mr_iid for merge_request_iid)', async () => {
    expect(await call('meta', 'issue.get', { project: '1', issue_iid: 1 })).toBe(
      'forge_issue/get: missing required params: project_id. Did you mean: project_id (for project)?',
    );
    expect(await call('individual', 'issue.get', { project: '1', issue_iid: 1 })).toBe(
      'validating "arguments": missing property "project_id"; unknown property "project". Did you mean: project_id (for project)?',
    );
    expect(await call('dynamic', 'merge_request.get', { project_id: '1', mr_id: 1 })).toBe(
      'invalid params. Unknown params: mr_id. Did you mean: merge_request_iid (for mr_id)? Missing required params: merge_request_iid. Valid params: project_id, merge_request_iid, include_diverged_commits_count, include_rebase_in_progress, render_html.',
    );
    expect(await call('meta', 'merge_request.get', { project_id: '1', mr_id: 1 })).toBe(
      'forge_merge_request/get: missing required params: merge_request_iid. Did you mean: merge_request_iid (for mr_id)?',
    );
    // A key no missing parameter explains (note for body): the meta answer names the parameters the action takes,
    // so the next call can be right in one go, as on the dynamic surface.
    expect(await call('meta', 'issue.note_create', { project_id: '1', issue_iid: 1, note: 'hi' })).toBe(
      'forge_issue/note_create: missing required params: body. Unknown params: note. Valid params: project_id, issue_iid, body, internal, created_at.',
    );
    expect(await call('meta', 'issue.get', { project: '1', iid: 1 })).toBe(
      'forge_issue/get: missing required params: project_id, issue_iid. Did you mean: project_id (for project), issue_iid (for iid)?',
    );
    expect(await call('meta', 'issue.get', { project: '1', ticket: 1 })).toBe(
      'forge_issue/get: missing required params: project_id, issue_iid. Did you mean: project_id (for project)? Unknown params: ticket. Valid params: project_id, issue_iid.',
    );
    // The closed individual schema takes no alias, but names the parameter the alias stands for.
    expect(await call('individual', 'merge_request.get', { project_id: '1', mr_iid: 1 })).toBe(
      'validating "arguments": missing property "merge_request_iid"; unknown property "mr_iid". Did you mean: merge_request_iid (for mr_iid)?',
    );
  });

  it('a name that is one whole word of a parameter no other shares (state for state_event, iid for issue_iid)', async () => {
    expect(await call('dynamic', 'issue.update', { project_id: '1', iid: 2, state: 'closed' })).toBe(
      'invalid params. Unknown params: iid, state. Did you mean: issue_iid (for iid), state_event (for state)? Missing required params: issue_iid. Missing one of: title, description, state_event, labels, add_labels, remove_labels, assignee_ids, milestone_id, due_date, confidential, discussion_locked, issue_type, weight, epic_id. Valid params: project_id, issue_iid, title, description, state_event, labels, add_labels, remove_labels, assignee_ids, milestone_id, due_date, confidential, discussion_locked, issue_type, weight, epic_id, updated_at.',
    );
    expect(await call('meta', 'issue.update', { project_id: '1', issue_iid: 2, state: 'closed' })).toBe(
      'forge_issue/update: missing required params: one of title, description, state_event, labels, add_labels, remove_labels, assignee_ids, milestone_id, due_date, confidential, discussion_locked, issue_type, weight, epic_id. Did you mean: state_event (for state)?',
    );
    expect(await call('individual', 'issue.update', { project_id: '1', issue_iid: 2, state: 'closed' })).toBe(
      'validating "arguments": unknown property "state". Did you mean: state_event (for state)?',
    );
    // A person by username where the action takes user IDs: the parameter, and how to get the IDs.
    expect(
      await call('individual', 'issue.create', { project_id: '1', title: 't', assignee_username: 'bob' }),
    ).toBe(
      'validating "arguments": unknown property "assignee_username". Did you mean: assignee_ids (for assignee_username; it takes user IDs, which user.list finds by username)?',
    );
    expect(
      await call('individual', 'issue.create', {
        project_id: '1',
        title: 't',
        assignee_usernames: ['bob', 'carol'],
      }),
    ).toBe(
      'validating "arguments": unknown property "assignee_usernames". Did you mean: assignee_ids (for assignee_usernames; it takes user IDs, which user.list finds by username)?',
    );
    // A word several parameters hold (id: project_id, milestone_id, epic_id ...) names none of them.
    expect(await call('individual', 'issue.update', { project_id: '1', issue_iid: 2, id: 3 })).toBe(
      'validating "arguments": unknown property "id"',
    );
  });

  it('an optional one; the meta surface names the parameters the action takes', async () => {
    expect(await call('meta', 'project.get', { project_id: '1', licence: true })).toBe(
      'forge_project/get: invalid params for this action: json: unknown field "licence". Did you mean: license (for licence)? Valid params: project_id, statistics, license, with_custom_attributes.',
    );
    expect(await call('individual', 'project.get', { project_id: '1', licence: true })).toBe(
      'validating "arguments": unknown property "licence". Did you mean: license (for licence)?',
    );
    expect(await call('meta', 'project.get', { project_id: '1', frobnicate: 1 })).toBe(
      'forge_project/get: invalid params for this action: json: unknown field "frobnicate". Valid params: project_id, statistics, license, with_custom_attributes.',
    );
  });
});

describe('one of a group given empty', () => {
  it('is named as empty on every surface, and no blank ID is sent', async () => {
    const text = (param: string, must: string) =>
      `admin.custom_attr_list: ${param} is required (${must}). Ensure you use the exact parameter name from the action's schema and pass a real value.`;
    for (const surface of ['dynamic', 'meta', 'individual'] as const) {
      const admin = await stdioClient(s, {
        env: { FORGE_TOKEN: s.tokens.admin, FORGE_MCP_TOOL_SURFACE: surface },
      });
      try {
        const since = s.requests.length;
        for (const [params, expected] of [
          [{ group_id: '  ' }, text('group_id', 'must be non-empty')],
          [{ project_id: '' }, text('project_id', 'must be non-empty')],
          [{ user_id: 0 }, text('user_id', 'must be > 0')],
        ] as const) {
          const r = await admin.client.callTool(request(surface, 'admin.custom_attr_list', params));
          expect(textOf(r), surface).toBe(expected);
        }
        expect(apiCalls(s, since)).toHaveLength(0);
      } finally {
        await admin.close();
      }
    }
  });
});

describe('an unknown tool name', () => {
  const refusal = async (surface: SurfaceName, name: string) => {
    const since = s.requests.length;
    const e = await clients[surface].client.callTool({ name, arguments: {} }).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(apiCalls(s, since)).toHaveLength(0);
    return e?.message.replace(/^.*?unknown tool: /, 'unknown tool: ');
  };

  it("names the listed tool of a near spelling, or how this surface runs another surface's tool", async () => {
    expect(await refusal('individual', 'forge_issue_lsit')).toBe(
      'unknown tool: forge_issue_lsit. Did you mean: forge_issue_list?',
    );
    expect(await refusal('meta', 'forge_issues')).toBe(
      'unknown tool: forge_issues. Did you mean: forge_issue?',
    );
    expect(await refusal('dynamic', 'forge_execute_actions')).toBe(
      'unknown tool: forge_execute_actions. Did you mean: forge_execute_action?',
    );
    expect(await refusal('dynamic', 'forge_mr_get')).toBe(
      'unknown tool: forge_mr_get. Run it with forge_execute_action (action merge_request.get).',
    );
    expect(await refusal('meta', 'forge_mr_get')).toBe(
      'unknown tool: forge_mr_get. Run it with forge_merge_request (action get).',
    );
    expect(await refusal('individual', 'forge_frobnicate')).toBe('unknown tool: forge_frobnicate');
  });

  it('names the tool of an action whose name was written the canonical way, forge_<domain>_<action>', async () => {
    // merge_request.merge's tool is forge_mr_merge: three edits and more from the name a model builds from the ID.
    expect(await refusal('individual', 'forge_merge_request_merge')).toBe(
      'unknown tool: forge_merge_request_merge. Did you mean: forge_mr_merge (merge_request.merge)?',
    );
    expect(await refusal('meta', 'forge_merge_request_merge')).toBe(
      'unknown tool: forge_merge_request_merge. Run it with forge_merge_request (action merge).',
    );
    expect(await refusal('dynamic', 'forge_merge_request_merge')).toBe(
      'unknown tool: forge_merge_request_merge. Run it with forge_execute_action (action merge_request.merge).',
    );
  });

  it('names the tool of an action a forge_<domain>_<words> name asks for by words of its name or title', async () => {
    expect(await refusal('individual', 'forge_issue_close')).toBe(
      'unknown tool: forge_issue_close. Did you mean: forge_issue_update (issue.update)?',
    );
    expect(await refusal('individual', 'forge_job_log')).toBe(
      'unknown tool: forge_job_log. Did you mean: forge_job_trace (job.trace)?',
    );
    expect(await refusal('meta', 'forge_issue_comment')).toBe(
      'unknown tool: forge_issue_comment. Run it with forge_issue (action note_create).',
    );
    expect(await refusal('dynamic', 'forge_issue_close')).toBe(
      'unknown tool: forge_issue_close. Run it with forge_execute_action (action issue.update).',
    );
    expect(await refusal('individual', 'forge_issue_frobnicate')).toBe(
      'unknown tool: forge_issue_frobnicate',
    );
  });

  it('suggests nothing for a tool of the catalog the session does not list (a near name may be its opposite)', async () => {
    // forge_issue_unsubscribe is listed, two edits from the excluded forge_issue_subscribe.
    const c = await stdioClient(s, {
      env: {
        FORGE_MCP_TOOL_SURFACE: 'individual',
        FORGE_MCP_EXCLUDE_TOOLS: 'forge_issue_subscribe,merge_request.merge,issue.update',
      },
    });
    try {
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('forge_issue_unsubscribe');
      const e = await c.client.callTool({ name: 'forge_issue_subscribe', arguments: {} }).then(
        () => undefined,
        (err: Error) => err,
      );
      expect(e?.message).toMatch(/unknown tool: forge_issue_subscribe$/);
      // Nor the tool of an excluded action named the canonical way.
      const merge = await c.client.callTool({ name: 'forge_merge_request_merge', arguments: {} }).then(
        () => undefined,
        (err: Error) => err,
      );
      expect(merge?.message).toMatch(/unknown tool: forge_merge_request_merge$/);
      // Nor another action holding a word of the excluded one's title (close: not 'List MRs that close issue').
      const close = await c.client.callTool({ name: 'forge_issue_close', arguments: {} }).then(
        () => undefined,
        (err: Error) => err,
      );
      expect(close?.message).toMatch(/unknown tool: forge_issue_close$/);
    } finally {
      await c.close();
    }
  });
});

describe('words naming an action the session does not list', () => {
  it('suggest no other action holding the same word (read-only: close is not "List MRs that close issue")', async () => {
    const c = await stdioClient(s, { env: { FORGE_MCP_TOOL_SURFACE: 'meta', FORGE_MCP_READ_ONLY: 'true' } });
    try {
      const since = s.requests.length;
      for (const given of ['close', 'comment']) {
        const r = await c.client.callTool({ name: 'forge_issue', arguments: { action: given, params: {} } });
        expect(textOf(r)).toMatch(new RegExp(`^forge_issue: unknown action "${given}"\\. Valid actions: `));
      }
      // A word of a listed read still finds it.
      const log = await c.client.callTool({ name: 'forge_job', arguments: { action: 'log', params: {} } });
      expect(textOf(log)).toMatch(/^forge_job: unknown action "log"\. Did you mean: trace\? Valid actions: /);
      const e = await c.client.callTool({ name: 'forge_issue_close', arguments: {} }).then(
        () => undefined,
        (err: Error) => err,
      );
      expect(e?.message).toMatch(/unknown tool: forge_issue_close$/);
      expect(apiCalls(s, since)).toHaveLength(0);
    } finally {
      await c.close();
    }
  });
});

describe('long answers are cut', () => {
  it('at most ten unknown names or problems are listed, each name cut to 64 characters', async () => {
    const keys = Array.from({ length: 12 }, (_, i) => `k${i}`);
    const many = { project_id: '1', issue_iid: 1, ...Object.fromEntries(keys.map((k) => [k, 1])) };
    expect(await call('dynamic', 'issue.get', many)).toBe(
      'invalid params. Unknown params: k0, k1, k2, k3, k4, k5, k6, k7, k8, k9 and 2 more. Valid params: project_id, issue_iid.',
    );
    expect(await call('individual', 'issue.get', many)).toBe(
      `validating "arguments": ${keys
        .slice(0, 10)
        .map((k) => `unknown property "${k}"`)
        .join('; ')}; and 2 more`,
    );
    const long = 'x'.repeat(5000);
    expect(await call('meta', 'issue.get', { project_id: '1', issue_iid: 1, [long]: 1 })).toBe(
      `forge_issue/get: invalid params for this action: json: unknown field "${'x'.repeat(64)}...". Valid params: project_id, issue_iid.`,
    );
    const r = await clients.dynamic.client.callTool({
      name: 'forge_execute_action',
      arguments: { action: long, params: {} },
    });
    expect(textOf(r)).toBe(
      `forge_execute_action: unknown action "${'x'.repeat(64)}...". Use forge_find_action to find the canonical ID.`,
    );
  });

  it('exactly ten unknown names are all listed with no count after them, and a 64-character name is not cut', async () => {
    const keys = Array.from({ length: 10 }, (_, i) => `k${i}`);
    const ten = { project_id: '1', issue_iid: 1, ...Object.fromEntries(keys.map((k) => [k, 1])) };
    expect(await call('dynamic', 'issue.get', ten)).toBe(
      `invalid params. Unknown params: ${keys.join(', ')}. Valid params: project_id, issue_iid.`,
    );
    expect(await call('individual', 'issue.get', ten)).toBe(
      `validating "arguments": ${keys.map((k) => `unknown property "${k}"`).join('; ')}`,
    );
    const exact = 'y'.repeat(64);
    expect(await call('meta', 'issue.get', { project_id: '1', issue_iid: 1, [exact]: 1 })).toBe(
      `forge_issue/get: invalid params for this action: json: unknown field "${exact}". Valid params: project_id, issue_iid.`,
    );
  });
});

describe('the envelope', () => {
  it('params given as a JSON string says to send the object itself', async () => {
    const json = JSON.stringify({ project_id: '1', issue_iid: 1 });
    const text =
      'validating "arguments": params must be object (got a string holding JSON: send the object itself, not as a string)';
    expect(await call('dynamic', 'issue.get', json)).toBe(text);
    expect(await call('meta', 'issue.get', json)).toBe(text);
    expect(await call('dynamic', 'issue.get', [])).toBe(
      'validating "arguments": params must be object (got an array)',
    );
    // params: null reads as not given on both surfaces.
    expect(await call('dynamic', 'issue.get', null)).toBe(
      'invalid params. Missing required params: project_id, issue_iid. Valid params: project_id, issue_iid.',
    );
    // The meta tool's schema shows no parameters: the answer names them.
    expect(await call('meta', 'issue.get', null)).toBe(
      "forge_issue/get: 'params' is required for this action. Required params: project_id, issue_iid. Valid params: project_id, issue_iid.",
    );
    expect(await call('meta', 'access.invite_group', undefined)).toMatch(
      /^forge_access\/invite_group: 'params' is required for this action\. Required params: group_id, access_level\. One of: email, user_id\. Valid params: group_id, .*\bemail\b/,
    );
    const numbered = await clients.meta.client.callTool({
      name: 'forge_issue',
      arguments: { action: 5, params: {} },
    });
    expect(textOf(numbered)).toBe('validating "arguments": action must be string (got 5)');
  });

  it('parameters beside action, or wrapped in params on an individual tool, say where they go', async () => {
    const since = s.requests.length;
    const beside = await clients.dynamic.client.callTool({
      name: 'forge_execute_action',
      arguments: { action: 'issue.get', project_id: '1', issue_iid: 1 },
    });
    expect(textOf(beside)).toBe(
      'validating "arguments": unknown property "project_id"; unknown property "issue_iid". Pass the action\'s parameters inside params, not beside action.',
    );
    const metaBeside = await clients.meta.client.callTool({
      name: 'forge_issue',
      arguments: { action: 'get', project_id: '1', issue_iid: 1 },
    });
    expect(textOf(metaBeside)).toBe(
      'validating "arguments": unknown property "project_id". Pass the action\'s parameters inside params, not beside action.',
    );
    expect(await call('individual', 'issue.get', { params: { project_id: '1', issue_iid: 1 } })).toBe(
      'validating "arguments": missing property "project_id"; missing property "issue_iid"; unknown property "params". This tool takes the action\'s parameters at the top level, not inside params.',
    );
    const numeric = await clients.dynamic.client.callTool({
      name: 'forge_execute_action',
      arguments: { action: '5', params: {} },
    });
    expect(textOf(numeric)).toBe(
      'forge_execute_action: unknown action "5". Use forge_find_action to find the canonical ID.',
    );
    const empty = await clients.dynamic.client.callTool({
      name: 'forge_execute_action',
      arguments: { action: '', params: {} },
    });
    expect(textOf(empty)).toBe('validating "arguments": action must not be empty');
    expect(apiCalls(s, since)).toHaveLength(0);
  });

  it("a misspelt action name on the meta surface names the action probably meant, or the tool of another domain's action", async () => {
    for (const [given, meant] of [
      ['lsit', 'list'],
      ['List', 'list'],
      ['issues.list', 'list'],
      ['issue.gte', 'get'],
    ]) {
      const r = await clients.meta.client.callTool({
        name: 'forge_issue',
        arguments: { action: given, params: { project_id: '1' } },
      });
      expect(textOf(r)).toMatch(
        new RegExp(
          `^forge_issue: unknown action "${given}"\\. Did you mean: ${meant}\\? Valid actions: create, `,
        ),
      );
    }
    const elsewhere = await clients.meta.client.callTool({
      name: 'forge_issue',
      arguments: { action: 'merge_request.list', params: { project_id: '1' } },
    });
    expect(textOf(elsewhere)).toMatch(
      /^forge_issue: unknown action "merge_request\.list"\. Did you mean: forge_merge_request with action list\? Valid actions: create, /,
    );
    const none = await clients.meta.client.callTool({
      name: 'forge_issue',
      arguments: { action: 'frobnicate', params: {} },
    });
    expect(textOf(none)).toMatch(/^forge_issue: unknown action "frobnicate"\. Valid actions: create, /);
  });

  it('an action asked for by words of its own name or title is named, first, on the meta and dynamic surfaces', async () => {
    for (const [tool, given, meant] of [
      ['forge_group', 'member_add', 'group_member_add'],
      ['forge_issue', 'close', 'update'],
      ['forge_issue', 'comment', 'note_create'],
      ['forge_job', 'log', 'trace'],
      // Another domain's action written under this one: the tool that runs it.
      ['forge_repository', 'tag_list', 'forge_tag with action list'],
      ['forge_project', 'merge_request_list', 'forge_merge_request with action list'],
    ]) {
      const r = await clients.meta.client.callTool({ name: tool, arguments: { action: given, params: {} } });
      expect(textOf(r)).toMatch(
        new RegExp(`^${tool}: unknown action "${given}"\\. Did you mean: ${meant}\\? Valid actions: `),
      );
    }
    for (const [given, meant] of [
      ['group.member_add', 'group.group_member_add'],
      ['issue.close', 'issue.update'],
      ['issue.comment', 'issue.note_create'],
      ['job.log', 'job.trace'],
      // Another domain's action written under this one.
      ['repository.tag_list', 'tag.list'],
      ['project.merge_request_list', 'merge_request.list'],
    ]) {
      const r = await clients.dynamic.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: given, params: {} },
      });
      expect(textOf(r)).toMatch(
        new RegExp(
          `^forge_execute_action: unknown action "${given}"\\. Did you mean: ${meant.replace('.', '\\.')}, `,
        ),
      );
    }
  });

  it('an action name of many words is answered at once, not after a pass over it for each of its words', async () => {
    // 100,000 words (200 kB): one pass per word made this minutes of CPU; a generous minute is asked for here.
    const name = `${'a_'.repeat(100_000)}list`;
    const r = await clients.dynamic.client.callTool(
      { name: 'forge_execute_action', arguments: { action: `repository.${name}`, params: {} } },
      undefined,
      { timeout: 60_000 },
    );
    expect(textOf(r)).toMatch(/^forge_execute_action: unknown action "repository\.a_a_a_.*\.\.\."\./);
    const m = await clients.meta.client.callTool(
      { name: 'forge_repository', arguments: { action: name, params: {} } },
      undefined,
      { timeout: 60_000 },
    );
    expect(textOf(m)).toMatch(/^forge_repository: unknown action "a_a_a_.*\.\.\."\..* Valid actions: /);
  });
});

describe('every pattern a parameter takes is told in words', () => {
  it(
    "answers a value outside any listed pattern with what the parameter takes and an example, never the pattern's expression, before anything is sent",
    { timeout: 120_000 },
    async () => {
      // An administrator's token, so that every tool is listed (the admin groups' too).
      const c = await stdioClient(s, {
        env: { FORGE_MCP_TOOL_SURFACE: 'individual', FORGE_TOKEN: s.tokens.admin },
      });
      try {
        const { tools } = await c.client.listTools();
        // The first place each pattern is taken: the tool, the parameter's dotted path, and arguments holding "!" there.
        const places = new Map<string, { tool: string; where: string; args: Record<string, unknown> }>();
        const visit = (tool: string, schema: Record<string, unknown>, path: string[]) => {
          if (typeof schema.pattern === 'string' && !places.has(schema.pattern)) {
            let value: unknown = '!';
            for (const key of [...path].reverse()) value = key === '0' ? [value] : { [key]: value };
            places.set(schema.pattern, {
              tool,
              where: path.join('.'),
              args: value as Record<string, unknown>,
            });
          }
          const props = schema.properties as Record<string, Record<string, unknown>> | undefined;
          for (const [k, v] of Object.entries(props ?? {})) visit(tool, v, [...path, k]);
          const items = schema.items as Record<string, unknown> | undefined;
          if (items) visit(tool, items, [...path, '0']);
        };
        for (const t of tools) visit(t.name, t.inputSchema as Record<string, unknown>, []);
        // The catalog's patterns: IDs, global IDs of some 25 kinds, digests, colors, names.
        expect(places.size).toBeGreaterThanOrEqual(34);
        for (const [pattern, { tool, where, args }] of places) {
          const since = s.requests.length;
          const r = await c.client.callTool({ name: tool, arguments: args });
          const text = textOf(r);
          expect(r.isError, `${tool}: ${text}`).toBe(true);
          const at = where.replace(/\./g, '\\.');
          expect(text, pattern).toMatch(new RegExp(`\\b${at} must be .*\\be\\.g\\. .*\\(got a string[;)]`));
          expect(text, pattern).not.toContain('must match pattern');
          expect(apiCalls(s, since)).toHaveLength(0);
        }
      } finally {
        await c.close();
      }
    },
  );
});

describe('a number where a string of digits is taken', () => {
  it('is taken as its digits, as the same string is: no pattern error, and the instance gets the digits', async () => {
    const c = clients.dynamic;
    const get = async (iid: unknown) => {
      const since = s.requests.length;
      const r = await c.client.callTool(
        request('dynamic', 'issue.work_item_get', { full_path: 'acme/widgets', work_item_iid: iid }),
      );
      return {
        text: textOf(r),
        isError: r.isError,
        sent: JSON.stringify(apiCalls(s, since).map((x) => x.body)),
      };
    };
    const asString = await get('1');
    const asNumber = await get(1);
    expect(asNumber.text).not.toContain('must be');
    expect(asNumber).toEqual(asString);
    expect(asNumber.sent).toContain('"1"');
  });

  it('below 1 is refused where a global ID or its number is taken, before anything is sent', async () => {
    const text = await call('dynamic', 'issue.work_item_list', { full_path: 'acme', parent_ids: [0] });
    expect(text).toBe(`${typed('dynamic', 'issue.work_item_list')}parent_ids.0 must be >= 1`);
    const negative = await call('dynamic', 'issue.work_item_list', { full_path: 'acme', parent_ids: [-1] });
    expect(negative).toBe(`${typed('dynamic', 'issue.work_item_list')}parent_ids.0 must be >= 1`);
  });
});
