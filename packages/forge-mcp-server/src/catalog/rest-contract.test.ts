/**
 * The catalog against the instance's REST documentation (doc/api/*.md): parameters the API requires
 * are required here too, and none that the API's own parameter declarations leave optional; role
 * enums carry every level the API accepts (25 Security Manager; 5 Minimal access where a group
 * membership or share allows it), and a value the server fills for the API is named in the action's
 * description.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from './index.js';
import { inputSchema, validatorFor } from '../executor/schema.js';
import { dynamicSurfaceCheck } from '../executor/arguments.js';
import { buildRest, graphqlVariables } from '../executor/run.js';
import type { ActionSpec, ParamSpec, RestRequest } from './types.js';
import { apiCalls, sim, textOf, withStdio, type ForgeSim } from '../../test/harness.js';

const action = (id: string): ActionSpec => {
  const a = catalog().get(id);
  if (!a) throw new Error(`no action ${id}`);
  return a;
};
const param = (id: string, name: string): ParamSpec => action(id).params[name];

/** The tools/call of action `id` with `params` on `surface` (on the dynamic one, `confirm` beside them). */
const callOn = (
  surface: 'dynamic' | 'meta' | 'individual',
  id: string,
  params: Record<string, unknown>,
  confirm = false,
) =>
  surface === 'dynamic'
    ? { name: 'forge_execute_action', arguments: { action: id, params, ...(confirm ? { confirm } : {}) } }
    : surface === 'meta'
      ? { name: `forge_${id.split('.')[0]}`, arguments: { action: id.split('.')[1], params } }
      : { name: action(id).tool, arguments: params };

describe('required parameters match the REST documentation', () => {
  it('package.registry_tag_rule_create requires both role levels, and refuses a call without either', () => {
    const a = action('package.registry_tag_rule_create');
    expect(a.required).toEqual(
      expect.arrayContaining(['minimum_access_level_for_push', 'minimum_access_level_for_delete']),
    );
    const validate = validatorFor(inputSchema(a));
    const full = {
      project_id: '1',
      tag_name_pattern: 'v*',
      minimum_access_level_for_push: 'maintainer',
      minimum_access_level_for_delete: 'owner',
    };
    expect(validate(structuredClone(full))).toBe(true);
    for (const missing of ['minimum_access_level_for_push', 'minimum_access_level_for_delete']) {
      const args: Record<string, unknown> = structuredClone(full);
      delete args[missing];
      expect(validate(args), missing).toBe(false);
    }
    // The delete level is required: no "without it developers can delete" fallback is described.
    const del = a.params.minimum_access_level_for_delete;
    expect(del.description).not.toMatch(/without it/i);
    expect(del.enum).toEqual(['maintainer', 'owner', 'admin']);
  });
});

describe('required parameters found by the sweep', () => {
  // The status checks page marks status optional, but the API requires it (the pass-by-default
  // request without it was removed) and accepts pending besides passed and failed.
  it('external_status_check.set_project_mr_status requires status, with pending offered', () => {
    const a = action('external_status_check.set_project_mr_status');
    expect(a.required).toContain('status');
    expect(a.params.status.enum).toEqual(['passed', 'failed', 'pending']);
    expect(a.params.status.description).not.toMatch(/default/);
    const validate = validatorFor(inputSchema(a));
    const call = { project_id: '1', merge_request_iid: 1, sha: 'a'.repeat(40), external_status_check_id: 1 };
    expect(validate({ ...call, status: 'pending' })).toBe(true);
    expect(validate(structuredClone(call))).toBe(false);
  });

  // The project snippets page marks visibility optional, but the API requires it for a project
  // snippet (a personal snippet falls back to internal).
  it('snippet.project_create requires visibility; snippet.create does not', () => {
    const a = action('snippet.project_create');
    expect(a.required).toContain('visibility');
    const validate = validatorFor(inputSchema(a));
    const call = { project_id: '1', title: 'Setup', files: [{ file_path: 'a.sh', content: 'echo' }] };
    expect(validate({ ...call, visibility: 'private' })).toBe(true);
    expect(validate(structuredClone(call))).toBe(false);
    expect(action('snippet.create').required).not.toContain('visibility');
  });
});

describe('write actions checked against the endpoint code', () => {
  /** Every required parameter refused when missing, and the full call accepted. */
  const requiresEach = (id: string, full: Record<string, unknown>, names: string[]): void => {
    const a = action(id);
    expect(a.required).toEqual(expect.arrayContaining(names));
    const validate = validatorFor(inputSchema(a));
    expect(validate(structuredClone(full)), JSON.stringify(validate.errors)).toBe(true);
    for (const missing of names) {
      const args: Record<string, unknown> = structuredClone(full);
      delete args[missing];
      expect(validate(args), `${id} without ${missing}`).toBe(false);
    }
  };

  // The state lock endpoint takes Terraform's own lock record: its seven fields are all required
  // (lib/api/terraform/state.rb), and the docs page shows no table for them.
  it('admin.terraform_state_lock requires the seven lock record fields, sent under their wire names', () => {
    const a = action('admin.terraform_state_lock');
    requiresEach('admin.terraform_state_lock', a.example, [
      'lock_id',
      'operation',
      'info',
      'who',
      'version',
      'created',
      'path',
    ]);
    expect(
      ['lock_id', 'operation', 'info', 'who', 'version', 'created', 'path'].map((n) => a.params[n].wire),
    ).toEqual(['ID', 'Operation', 'Info', 'Who', 'Version', 'Created', 'Path']);
    expect(validatorFor(inputSchema(a))({ ...a.example, lock_id: 'x'.repeat(256) })).toBe(false);
  });

  // The Bitbucket Cloud import needs an app password or an API token (at_least_one_of in
  // lib/api/import_bitbucket.rb); the docs table still marks the username and app password required.
  it('admin.import_bitbucket refuses a call with neither an app password nor an API token', () => {
    const a = action('admin.import_bitbucket');
    expect(a.oneOf).toContainEqual(['bitbucket_app_password', 'bitbucket_api_token']);
    const call = { repo_path: 'team/widgets', target_namespace: 'acme' };
    expect(dynamicSurfaceCheck(a, { ...call, bitbucket_username: 'alice' })).toMatch(
      /Missing one of: bitbucket_app_password, bitbucket_api_token/,
    );
    expect(
      dynamicSurfaceCheck(a, { ...call, bitbucket_email: 'a@example.com', bitbucket_api_token: 't' }),
    ).toBeUndefined();
    expect(
      dynamicSurfaceCheck(a, { ...call, bitbucket_username: 'alice', bitbucket_app_password: 'p' }),
    ).toBeUndefined();
  });
});

describe('write parameters the API takes that the catalog did not offer', () => {
  it.each([
    // lib/api/features.rb: a gate for organizations (IDs or paths), beside users, groups and projects.
    ['admin.feature_set', 'organization', 'default'],
    // lib/api/admin/plan_limits.rb: the instance-level CI/CD variables limit.
    ['admin.plan_limits_change', 'ci_instance_level_variables', 25],
    // lib/api/system_hooks.rb (hook_parameters): the push branch filter, its strategy and a payload template.
    ['admin.system_hook_edit', 'push_events_branch_filter', 'release/*'],
    ['admin.system_hook_edit', 'branch_filter_strategy', 'regex'],
    ['admin.system_hook_edit', 'custom_webhook_template', '{"event":"{{object_kind}}"}'],
    ['admin.system_hook_add', 'branch_filter_strategy', 'all_branches'],
    // lib/api/import_github.rb: items per request to GitHub, 1..100.
    ['admin.import_github', 'pagination_limit', 50],
    // lib/api/merge_request_approvals.rb (post 'approve'): publish the pending review with the approval.
    ['merge_request.approve', 'publish_review', true],
    // ee/lib/api/group_hooks.rb (group_hook_properties, use :url_variables), as project hooks take them.
    ['group.hook_add', 'url_variables', [{ key: 'token', value: 's3cr3t' }]],
    ['group.hook_edit', 'url_variables', [{ key: 'token', value: 's3cr3t' }]],
    // lib/api/topics.rb (post topics): the organization, by default the current one.
    ['admin.topic_create', 'organization_id', 1],
  ])('%s offers %s', (id, name, value) => {
    const a = action(id);
    expect(a.params[name], `${id} ${name}`).toBeDefined();
    expect(validatorFor(inputSchema(a))({ ...a.example, [name]: value })).toBe(true);
  });

  it('bounded values are refused outside what the API accepts', () => {
    const strategy = action('admin.system_hook_edit');
    expect(strategy.params.branch_filter_strategy.enum).toEqual(['wildcard', 'regex', 'all_branches']);
    expect(validatorFor(inputSchema(strategy))({ hook_id: 1, branch_filter_strategy: 'glob' })).toBe(false);
    const github = action('admin.import_github');
    const gh = validatorFor(inputSchema(github));
    expect(gh({ ...github.example, pagination_limit: 101 })).toBe(false);
    expect(gh({ ...github.example, pagination_limit: 0 })).toBe(false);
    // target_namespace is allow_blank: false.
    expect(gh({ ...github.example, target_namespace: '' })).toBe(false);
    // lib/api/usage_data.rb answers 400 to more than 50 events in one call.
    const events = action('admin.usage_data_track_events');
    const ev = validatorFor(inputSchema(events));
    const one = { event: 'i_code_review_user_approve_mr' };
    expect(ev({ events: Array.from({ length: 50 }, () => one) })).toBe(true);
    expect(ev({ events: Array.from({ length: 51 }, () => one) })).toBe(false);
  });
});

describe('write enums checked against the endpoint code', () => {
  // ProtectedBranch::UnprotectAccessLevel drops 0 (no one) from the levels the API accepts, so a
  // branch nobody may unprotect cannot be made; push and merge rules keep 0.
  it.each(['group.protected_branch_update', 'group.protected_branch_protect', 'branch.update_protected'])(
    '%s unprotect rules take 30, 40 or 60, push and merge rules also 0',
    (id) => {
      const items = (name: string) =>
        (action(id).params[name].items as { properties: { access_level: { enum: number[] } } }).properties
          .access_level.enum;
      expect(items('allowed_to_unprotect')).toEqual([30, 40, 60]);
      expect(items('allowed_to_push')).toEqual([0, 30, 40, 60]);
      expect(items('allowed_to_merge')).toEqual([0, 30, 40, 60]);
      const a = action(id);
      const validate = validatorFor(inputSchema(a));
      expect(validate({ ...a.example, allowed_to_unprotect: [{ access_level: 0 }] })).toBe(false);
      expect(validate({ ...a.example, allowed_to_unprotect: [{ access_level: 40 }] })).toBe(true);
    },
  );
});

describe('granular scopes of a fine-grained token', () => {
  // lib/api/helpers/personal_access_tokens_helpers.rb (granular_scope_params): a scope item takes
  // project_ids and group_ids, both for selected_memberships.
  it('user.create_current_user_pat takes group_ids beside project_ids in a granular scope', () => {
    const a = action('user.create_current_user_pat');
    const validate = validatorFor(inputSchema(a));
    const scope = { access: 'selected_memberships', permissions: ['read_project'] };
    expect(validate({ name: 'ci', granular_scopes: [{ ...scope, group_ids: [10] }] })).toBe(true);
    expect(
      validate({ name: 'ci', granular_scopes: [{ ...scope, project_ids: [42], group_ids: [10] }] }),
    ).toBe(true);
    expect(validate({ name: 'ci', granular_scopes: [{ ...scope, namespace_ids: [10] }] })).toBe(false);
  });
});

describe('updates the API refuses when they change nothing', () => {
  // ee/lib/api/merge_request_approval_settings.rb declares the settings with at_least_one_of: an
  // update naming none is answered 400, so the catalog asks for one before sending.
  it.each([
    ['merge_request.approval_settings_group_update', { group_id: '10' }],
    ['merge_request.approval_settings_project_update', { project_id: '1' }],
  ])('%s needs at least one setting', (id, ids) => {
    const a = action(id);
    expect(dynamicSurfaceCheck(a, { ...ids })).toMatch(/Missing one of: allow_author_approval, /);
    expect(dynamicSurfaceCheck(a, { ...ids, retain_approvals_on_push: false })).toBeUndefined();
    expect(dynamicSurfaceCheck(a, { ...ids, require_reauthentication_to_approve: true })).toBeUndefined();
  });

  it('project.dependency_firewall_evaluate offers operation, download or upload', () => {
    // ee/lib/api/security/dependency_firewall/evaluations.rb: optional operation, default download.
    const a = action('project.dependency_firewall_evaluate');
    expect(a.params.operation.enum).toEqual(['download', 'upload']);
    const validate = validatorFor(inputSchema(a));
    expect(validate({ ...a.example, operation: 'upload' })).toBe(true);
    expect(validate({ ...a.example, operation: 'install' })).toBe(false);
  });
});

describe('edit parameters the API declares optional, where the docs tables say required', () => {
  // The schedules page's edit table marks value required, but the API declares it optional on edit
  // (only create requires it): an edit of the type alone keeps the value.
  it('pipeline.schedule_edit_variable accepts an edit without value (keeps it); schedule_create_variable requires it', () => {
    const a = action('pipeline.schedule_edit_variable');
    expect(a.required).not.toContain('value');
    const validate = validatorFor(inputSchema(a));
    expect(
      validate({ project_id: '1', pipeline_schedule_id: 1, key: 'NIGHTLY', variable_type: 'file' }),
    ).toBe(true);
    expect(a.params.value.description).toMatch(/unchanged when omitted/);
    expect(action('pipeline.schedule_create_variable').required).toContain('value');
  });

  // The hooks pages' edit tables mark url required, but the API declares it optional on edit (only
  // add requires it): an edit of events alone keeps the current URL and its secret token.
  it.each([
    ['project.hook_edit', 'project.hook_add', { project_id: '1', hook_id: 1 }],
    ['group.hook_edit', 'group.hook_add', { group_id: '10', hook_id: 1 }],
  ])('%s accepts an edit without url (keeps the current one); %s requires it', (edit, add, ids) => {
    const a = action(edit);
    expect(a.required).not.toContain('url');
    expect(validatorFor(inputSchema(a))({ ...ids, pipeline_events: true })).toBe(true);
    expect(a.params.url.description).toMatch(/leave it out to keep the current one/);
    expect(action(add).required).toContain('url');
  });
});

describe('role enums match the levels the API accepts', () => {
  const roleParams: Array<[string, string]> = [
    ['group.group_member_add', 'access_level'],
    ['group.group_member_edit', 'access_level'],
    ['group.group_member_share', 'group_access'],
    ['group.share_with_group', 'group_access'],
    ['group.saml_link_add', 'access_level'],
    ['group.ldap_link_add', 'group_access'],
    ['group.list', 'min_access_level'],
    ['group.search', 'min_access_level'],
    ['group.subgroups', 'min_access_level'],
    ['group.projects', 'min_access_level'],
    ['group.shared_projects', 'min_access_level'],
    ['group.shared_with', 'min_access_level'],
    ['group.invited_groups', 'min_access_level'],
    ['project.member_add', 'access_level'],
    ['project.member_edit', 'access_level'],
    ['project.share_with_group', 'group_access'],
    ['access.approve_group', 'access_level'],
    ['access.approve_project', 'access_level'],
  ];

  it.each(roleParams)('%s %s offers 25 Security Manager and names it', (id, name) => {
    const p = param(id, name);
    expect(p.enum).toContain(25);
    expect(p.description).toMatch(/25 Security Manager/i);
    expect(p.enum).toEqual([...(p.enum as number[])].sort((x, y) => x - y));
  });

  it('group shares, memberships, LDAP links and group filters offer 5 Minimal access; project memberships do not', () => {
    for (const [id, name] of [
      ['group.group_member_share', 'group_access'],
      ['group.share_with_group', 'group_access'],
      ['group.group_member_add', 'access_level'],
      ['group.ldap_link_add', 'group_access'],
      ['group.list', 'min_access_level'],
      ['group.subgroups', 'min_access_level'],
      ['group.invited_groups', 'min_access_level'],
      ['project.share_with_group', 'group_access'],
    ])
      expect(param(id, name).enum, `${id} ${name}`).toContain(5);
    for (const id of [
      'project.member_add',
      'project.member_edit',
      'access.invite_project',
      'access.approve_project',
    ])
      expect(param(id, 'access_level').enum, id).not.toContain(5);
    for (const id of ['access.invite_group', 'access.approve_group'])
      expect(param(id, 'access_level').enum, id).toContain(5);
  });
});

describe('role lists outside memberships follow their own API pages', () => {
  it('broadcast messages target 10 to 50 including 15 Planner and 25 Security Manager, nothing else', () => {
    for (const id of ['admin.broadcast_message_create', 'admin.broadcast_message_update']) {
      const p = param(id, 'target_access_levels');
      expect((p.items as { enum: number[] }).enum, id).toEqual([10, 15, 20, 25, 30, 40, 50]);
      expect(p.description, id).toMatch(/15 Planner.*25 Security Manager/);
      const validate = validatorFor(inputSchema(action(id)));
      const args = { ...action(id).example, target_access_levels: [5] };
      expect(validate(args), `${id} refuses 5`).toBe(false);
    }
  });

  it('a custom role builds on 10, 15, 20, 30, 40 or 50 (Owner included)', () => {
    for (const id of ['member_role.create_group', 'member_role.create_instance'])
      expect(param(id, 'base_access_level').enum, id).toEqual([10, 15, 20, 30, 40, 50]);
  });
});

describe('defaults the API applies to an update are named', () => {
  // ee/lib/api/helpers/project_approval_rules_helpers.rb declares applies_to_all_protected_branches
  // with default false on update too: an update leaving it out turns it off.
  it('project.approval_rule_update says applies_to_all_protected_branches falls back to false', () => {
    expect(param('project.approval_rule_update', 'applies_to_all_protected_branches').description).toMatch(
      /back to false when an update leaves it out/,
    );
    expect(
      param('project.approval_rule_create', 'applies_to_all_protected_branches').description,
    ).not.toMatch(/update/);
  });
});

describe('values the server fills for the API are named in the description', () => {
  it('every action sending a fixed query or body value says which', () => {
    const silent: string[] = [];
    for (const a of catalog().actions) {
      const rest = a.request && 'rest' in a.request ? a.request.rest : undefined;
      const fixed = { ...rest?.fixedQuery, ...rest?.fixedBody };
      for (const [key, value] of Object.entries(fixed))
        if (!a.description.includes(`${key}=${String(value)}`))
          silent.push(`${a.id} ${key}=${String(value)}`);
    }
    expect(silent).toEqual([]);
    expect(action('search.code').description).toContain('scope=blobs');
  });
});

describe('access rules take a deploy key only where the API does', () => {
  // ee/lib/ee/api/helpers/protected_branches_helpers.rb declares deploy_key_id inside allowed_to_push
  // alone; merge and unprotect rules take user_id, group_id or access_level (plus id/_destroy).
  it.each(['branch.update_protected', 'branch.protect'])(
    '%s offers deploy_key_id for push rules and refuses it in merge and unprotect rules',
    (id) => {
      const a = action(id);
      const validate = validatorFor(inputSchema(a));
      const key = [{ deploy_key_id: 7 }];
      expect(validate({ ...a.example, allowed_to_push: key }), JSON.stringify(validate.errors)).toBe(true);
      expect(validate({ ...a.example, allowed_to_merge: key })).toBe(false);
      expect(validate({ ...a.example, allowed_to_unprotect: key })).toBe(false);
      expect(validate({ ...a.example, allowed_to_merge: [{ group_id: 10 }] })).toBe(true);
      expect(a.params.allowed_to_merge.description).not.toContain('deploy_key_id');
      expect(a.params.allowed_to_push.description).toContain('deploy_key_id');
    },
  );
});

const rest = (a: ActionSpec): RestRequest => {
  if (!a.request || !('rest' in a.request)) throw new Error(`${a.id} sends no REST request`);
  return a.request.rest;
};

describe('Terraform state locks', () => {
  // lib/api/terraform/state.rb: DELETE .../lock takes an optional ID (at most 255); with one, the
  // handler releases only a matching lock (409 otherwise), without one it force-unlocks. Grape reads
  // it from the query string as well as the body, and a DELETE's parameters go in the query here.
  it('admin.terraform_state_unlock takes the lock ID, sent as ID in the query, and still works without it', () => {
    const a = action('admin.terraform_state_unlock');
    expect(a.params.lock_id.wire).toBe('ID');
    expect(a.required).not.toContain('lock_id');
    const validate = validatorFor(inputSchema(a));
    const call = { project_id: '1', name: 'production' };
    expect(validate({ ...call, lock_id: 'x'.repeat(255) })).toBe(true);
    expect(validate({ ...call, lock_id: 'x'.repeat(256) })).toBe(false);
    expect(validate(structuredClone(call))).toBe(true);
    const built = buildRest(a, rest(a), { ...call, lock_id: 'f00d' });
    expect(built.path).toBe('/projects/1/terraform/state/production/lock');
    expect(built.query).toEqual({ ID: 'f00d' });
    expect(built.body).toBeUndefined();
  });
});

describe('parameters the instance takes one at a time', () => {
  // The catalog's oneOf says "at least one" and exclusive "at most one"; together, exactly one. The endpoint
  // code declares these with exactly_one_of or mutually_exclusive, so the instance refuses a call naming
  // both (400); the server refuses it first, before any confirmation or request:
  // ee/lib/api/merge_request_dependencies.rb (mutually_exclusive and exactly_one_of
  // :blocking_merge_request_id, :blocking_merge_request_iid), ee/lib/api/ldap_group_links.rb
  // (DELETE :id/ldap_group_links, exactly_one_of :cn, :filter; read from the query of the DELETE),
  // lib/api/members.rb (POST :id/members, mutually_exclusive and at_least_one_of :user_id, :username),
  // lib/api/issues.rb (the issue filters, mutually_exclusive :author_id, :author_username) and
  // lib/api/environments.rb (GET :id/environments, mutually_exclusive :name, :search).
  let s: ForgeSim;
  beforeAll(async () => {
    s = await sim();
  });
  afterAll(async () => s.close());

  const cases = [
    {
      id: 'merge_request.dependency_create',
      exactly: true,
      both: ['blocking_merge_request_id', 'blocking_merge_request_iid'],
      one: { project_id: '1', merge_request_iid: 1, blocking_merge_request_iid: 2 },
      other: { blocking_merge_request_id: 2 },
      sent: { method: 'POST', path: '/api/v4/projects/1/merge_requests/1/blocks' },
      check: (q: { body: unknown }) => expect(q.body).toEqual({ blocking_merge_request_iid: 2 }),
    },
    {
      id: 'group.ldap_link_delete',
      exactly: true,
      both: ['cn', 'filter'],
      one: { group_id: '10', provider: 'ldapmain', cn: 'engineering' },
      other: { filter: '(ou=eng)' },
      sent: { method: 'DELETE', path: '/api/v4/groups/10/ldap_group_links' },
      check: (q: { query: unknown }) => expect(q.query).toEqual({ provider: 'ldapmain', cn: 'engineering' }),
    },
    {
      id: 'group.group_member_add',
      exactly: true,
      both: ['user_id', 'username'],
      one: { group_id: '11', user_id: 3, access_level: 30 },
      other: { username: 'bob' },
      sent: { method: 'POST', path: '/api/v4/groups/11/members' },
      check: (q: { body: unknown }) => expect(q.body).toEqual({ user_id: 3, access_level: 30 }),
    },
    {
      id: 'issue.list',
      exactly: false,
      both: ['author_id', 'author_username'],
      one: { project_id: '1', author_username: 'root' },
      other: { author_id: 1 },
      sent: { method: 'GET', path: '/api/v4/projects/1/issues' },
      check: (q: { query: unknown }) => expect(q.query).toEqual({ author_username: 'root' }),
    },
    {
      id: 'environment.list',
      exactly: false,
      both: ['name', 'search'],
      one: { project_id: '1', search: 'prod' },
      other: { name: 'production' },
      sent: { method: 'GET', path: '/api/v4/projects/1/environments' },
      check: (q: { query: unknown }) => expect(q.query).toEqual({ search: 'prod' }),
    },
    {
      // ee/lib/ee/api/helpers/remote_mirrors_helpers.rb (mutually_exclusive :only_protected_branches,
      // :mirror_branch_regex).
      id: 'project.mirror_edit',
      exactly: false,
      both: ['only_protected_branches', 'mirror_branch_regex'],
      one: { project_id: '1', mirror_id: 1, mirror_branch_regex: '^release/' },
      other: { only_protected_branches: true },
      sent: { method: 'PUT', path: '/api/v4/projects/1/remote_mirrors/1' },
      check: (q: { body: unknown }) => expect(q.body).toEqual({ mirror_branch_regex: '^release/' }),
    },
  ];
  /** A destructive action runs once the caller confirms it (the user approved it). */
  const confirmed = (id: string) => (action(id).destructive ? { confirm: true } : {});
  const refusal = (id: string, [a, b]: string[]) =>
    new RegExp(`^${id.replace('.', '\\.')}: ${a} and ${b} were both given.*give one of them`);

  it(
    'forge_execute_action refuses both and sends nothing; one alone is sent as given',
    { timeout: 60_000 },
    async () => {
      await withStdio(s, {}, async (c) => {
        for (const k of cases) {
          const since = s.requests.length;
          // Refused before anything else: a destructive action asks for no confirmation first.
          const r = await c.client.callTool({
            name: 'forge_execute_action',
            arguments: { action: k.id, params: { ...k.one, ...k.other } },
          });
          expect(r.isError, k.id).toBe(true);
          expect(textOf(r)).toMatch(refusal(k.id, k.both));
          expect(apiCalls(s, since), k.id).toEqual([]);
          const ok = await c.client.callTool({
            name: 'forge_execute_action',
            arguments: { action: k.id, params: k.one, ...confirmed(k.id) },
          });
          expect(ok.isError, textOf(ok)).toBeFalsy();
          const sent = apiCalls(s, since).filter((q) => q.method === k.sent.method);
          expect(sent.map((q) => q.path)).toEqual([k.sent.path]);
          k.check(sent[0]!);
        }
      });
    },
  );

  it('the individual tools refuse both too', { timeout: 60_000 }, async () => {
    await withStdio(s, { env: { FORGE_MCP_TOOL_SURFACE: 'individual' } }, async (c) => {
      for (const k of cases) {
        const since = s.requests.length;
        const r = await c.client.callTool({
          name: action(k.id).tool,
          arguments: { ...k.one, ...k.other },
        });
        expect(r.isError, k.id).toBe(true);
        expect(textOf(r)).toMatch(refusal(k.id, k.both));
        expect(apiCalls(s, since), k.id).toEqual([]);
      }
    });
  });

  it('the descriptions say one or the other, and the catalog declares the pair exclusive', () => {
    for (const k of cases) {
      expect(action(k.id).exclusive, k.id).toContainEqual(k.both);
      // A declared request, not a handler: the route is the catalog's own.
      expect(action(k.id).handler, k.id).toBeUndefined();
      if (k.exactly) {
        expect(action(k.id).description, k.id).toMatch(/exactly one of .* not both/);
        expect(action(k.id).oneOf, k.id).toContainEqual(k.both);
      } else {
        expect(action(k.id).description, k.id).toContain(`most one of ${k.both.join(' or ')}`);
        expect(action(k.id).oneOf ?? [], k.id).not.toContainEqual(k.both);
      }
    }
  });
});

describe('parameters the instance reads only together with another', () => {
  // ee/lib/api/audit_events.rb (GET /audit_events: given :entity_id, requires :entity_type) and
  // lib/api/files.rb (GET :id/repository/files/:file_path/blame: range is a hash requiring start and end).
  // The instance answers 400 for the half-given call; the server refuses it first and sends nothing.
  let s: ForgeSim;
  beforeAll(async () => {
    s = await sim();
  });
  afterAll(async () => s.close());

  const cases = [
    {
      id: 'audit_event.list_instance',
      given: 'entity_id',
      without: 'entity_type',
      half: { entity_id: 5 },
      whole: { entity_id: 5, entity_type: 'Project' },
      sent: '/api/v4/audit_events',
      query: { entity_id: '5', entity_type: 'Project' },
    },
    {
      id: 'repository.file_blame',
      given: 'range_end',
      without: 'range_start',
      half: { project_id: '1', file_path: 'README.md', ref: 'main', range_end: 3 },
      whole: { project_id: '1', file_path: 'README.md', ref: 'main', range_end: 3, range_start: 1 },
      sent: '/api/v4/projects/1/repository/files/README.md/blame',
      query: { 'range[start]': '1', 'range[end]': '3' },
    },
    // lib/api/users.rb (GET /users, and the create and update attributes): all_or_none_of :extern_uid, :provider.
    {
      id: 'user.list',
      given: 'extern_uid',
      without: 'provider',
      half: { extern_uid: 'cn=alice' },
      whole: { extern_uid: 'cn=alice', provider: 'ldapmain' },
      sent: '/api/v4/users',
      query: { extern_uid: 'cn=alice', provider: 'ldapmain' },
    },
    // app/models/environment.rb: a namespace cannot be set without a cluster agent (POST :id/environments, a 400).
    {
      id: 'environment.create',
      given: 'kubernetes_namespace',
      without: 'cluster_agent_id',
      half: { project_id: '1', name: 'review/k8s', kubernetes_namespace: 'app' },
      whole: { project_id: '1', name: 'review/k8s', kubernetes_namespace: 'app', cluster_agent_id: 1 },
      sent: '/api/v4/projects/1/environments',
      query: {},
    },
  ];

  it(
    'refuses the parameter without its companion, naming both, and sends nothing',
    { timeout: 60_000 },
    async () => {
      await withStdio(s, {}, async (c) => {
        for (const k of cases) {
          const since = s.requests.length;
          const r = await c.client.callTool({
            name: 'forge_execute_action',
            arguments: { action: k.id, params: k.half },
          });
          expect(r.isError, k.id).toBe(true);
          expect(textOf(r)).toBe(
            `${k.id}: ${k.given} was given without ${k.without}, and the instance reads ${k.given} only together with ${k.without}: give ${k.without} too, or leave ${k.given} out.`,
          );
          expect(apiCalls(s, since), k.id).toEqual([]);
          const ok = await c.client.callTool({
            name: 'forge_execute_action',
            arguments: { action: k.id, params: k.whole },
          });
          expect(ok.isError, textOf(ok)).toBeFalsy();
          const sent = apiCalls(s, since);
          expect(sent.map((q) => q.path)).toEqual([k.sent]);
          expect(sent[0]!.query).toMatchObject(k.query);
        }
      });
    },
  );

  // lib/api/commits.rb (POST :id/repository/commits/:sha/comments: given :path, requires :line and :line_type).
  it(
    'a commit comment on a file is refused without its line; with it, the comment is sent',
    { timeout: 60_000 },
    async () => {
      await withStdio(s, {}, async (c) => {
        const call = { project_id: '1', sha: 'main', note: 'Why?', path: 'README.md' };
        const since = s.requests.length;
        const r = await c.client.callTool({
          name: 'forge_execute_action',
          arguments: { action: 'repository.commit_comment_create', params: call },
        });
        expect(textOf(r)).toContain('path was given without line');
        expect(apiCalls(s, since)).toEqual([]);
        const ok = await c.client.callTool({
          name: 'forge_execute_action',
          arguments: { action: 'repository.commit_comment_create', params: { ...call, line: 1 } },
        });
        expect(ok.isError, textOf(ok)).toBeFalsy();
        expect(apiCalls(s, since).map((q) => q.body)).toEqual([{ note: 'Why?', path: 'README.md', line: 1 }]);
        // line and line_type sit inside given :path too: without path the instance would post a general comment.
        const general = { project_id: '1', sha: 'main', note: 'Why?' };
        for (const half of [{ line: 1 }, { line_type: 'old' }]) {
          const since2 = s.requests.length;
          const h = await c.client.callTool({
            name: 'forge_execute_action',
            arguments: { action: 'repository.commit_comment_create', params: { ...general, ...half } },
          });
          expect(textOf(h)).toContain(`${Object.keys(half)[0]} was given without path`);
          expect(apiCalls(s, since2)).toEqual([]);
        }
      });
    },
  );

  it('user.create and user.modify take an external identity whole too', () => {
    for (const id of ['user.create', 'user.modify'])
      expect(action(id).needs, id).toEqual({ extern_uid: ['provider'], provider: ['extern_uid'] });
  });

  it('the individual tools refuse it too', { timeout: 60_000 }, async () => {
    await withStdio(s, { env: { FORGE_MCP_TOOL_SURFACE: 'individual' } }, async (c) => {
      for (const k of cases) {
        const since = s.requests.length;
        const r = await c.client.callTool({ name: action(k.id).tool, arguments: k.half });
        expect(r.isError, k.id).toBe(true);
        expect(textOf(r)).toContain(`${k.given} was given without ${k.without}`);
        expect(apiCalls(s, since), k.id).toEqual([]);
      }
    });
  });
});

describe('parameters the instance reads only beside a value of another', () => {
  // lib/api/projects.rb (GET /projects: an updated_at filter must be paired with updated_at sorting, else 400),
  // and the keyset lists (doc/api/rest, keyset section): the continuation is read only with pagination=keyset;
  // without it the instance pages by number and answers the first page again.
  let s: ForgeSim;
  beforeAll(async () => {
    s = await sim();
  });
  afterAll(async () => s.close());

  const text = (id: string, given: string, was: string, needed: string, too: boolean) =>
    `${id}: ${given} was given ${was}, and the instance reads ${given} only with ${needed}: give ${needed}${too ? ' too' : ''}, or leave ${given} out.`;
  const cases = [
    {
      id: 'project.list',
      half: { updated_after: '2026-01-01T00:00:00Z' },
      refusal: text('project.list', 'updated_after', 'without order_by', 'order_by "updated_at"', true),
      whole: { updated_after: '2026-01-01T00:00:00Z', order_by: 'updated_at' },
      sent: '/api/v4/projects',
    },
    {
      id: 'project.list',
      half: { updated_before: '2026-01-01T00:00:00Z', order_by: 'name' },
      refusal: text('project.list', 'updated_before', 'with order_by "name"', 'order_by "updated_at"', false),
      whole: { updated_before: '2026-01-01T00:00:00Z', order_by: 'updated_at' },
      sent: '/api/v4/projects',
    },
    {
      id: 'job.list_project',
      half: { project_id: '1', cursor: 'abc' },
      refusal: text('job.list_project', 'cursor', 'without pagination', 'pagination "keyset"', true),
      whole: { project_id: '1', cursor: 'abc', pagination: 'keyset' },
      sent: '/api/v4/projects/1/jobs',
    },
    {
      id: 'repository.tree',
      half: { project_id: '1', page_token: 'abc', pagination: 'legacy' },
      refusal: text(
        'repository.tree',
        'page_token',
        'with pagination "legacy"',
        'pagination "keyset"',
        false,
      ),
      whole: { project_id: '1', page_token: 'abc', pagination: 'keyset' },
      sent: '/api/v4/projects/1/repository/tree',
    },
    {
      id: 'user.list',
      half: { cursor: 'abc' },
      refusal: text('user.list', 'cursor', 'without pagination', 'pagination "keyset"', true),
      whole: { cursor: 'abc', pagination: 'keyset' },
      sent: '/api/v4/users',
    },
    {
      id: 'runner.jobs',
      half: { runner_id: 1, cursor: 'abc' },
      refusal: text('runner.jobs', 'cursor', 'without pagination', 'pagination "keyset"', true),
    },
    {
      id: 'issue.list',
      half: { project_id: '1', cursor: 'abc' },
      refusal: text('issue.list', 'cursor', 'without pagination', 'pagination "keyset"', true),
    },
    {
      id: 'audit_event.list_project',
      half: { project_id: '1', cursor: 'abc' },
      refusal: text('audit_event.list_project', 'cursor', 'without pagination', 'pagination "keyset"', true),
    },
    {
      // lib/api/user_runners.rb: group_id in a given runner_type group_type block, project_id in a project_type one.
      id: 'user.create_runner',
      half: { runner_type: 'instance_type', group_id: 10 },
      refusal: text(
        'user.create_runner',
        'group_id',
        'with runner_type "instance_type"',
        'runner_type "group_type"',
        false,
      ),
      whole: { runner_type: 'group_type', group_id: 10 },
      sent: '/api/v4/user/runners',
    },
    {
      // app/finders/deployments_finder.rb: "`finished_at` filter must be combined with `success` status filter".
      id: 'environment.deployment_list',
      half: { project_id: '1', finished_after: '2026-01-01T00:00:00Z', order_by: 'finished_at' },
      refusal: text(
        'environment.deployment_list',
        'finished_after',
        'without status',
        'status "success"',
        true,
      ),
      whole: {
        project_id: '1',
        finished_after: '2026-01-01T00:00:00Z',
        order_by: 'finished_at',
        status: 'success',
      },
      sent: '/api/v4/projects/1/deployments',
    },
    {
      id: 'package.registry_tag_list',
      half: { project_id: '1', repository_id: 1, sort: 'desc' },
      refusal: text('package.registry_tag_list', 'sort', 'without pagination', 'pagination "keyset"', true),
    },
  ];

  it.each(['dynamic', 'individual'] as const)(
    'on the %s surface, refuses the parameter without the value, naming both, and sends nothing; with it, sends the call',
    { timeout: 120_000 },
    async (surface) => {
      await withStdio(s, { env: { FORGE_MCP_TOOL_SURFACE: surface } }, async (c) => {
        const call = (id: string, params: Record<string, unknown>) =>
          c.client.callTool(callOn(surface, id, params));
        for (const k of cases) {
          const since = s.requests.length;
          const r = await call(k.id, k.half);
          expect(r.isError, k.id).toBe(true);
          expect(textOf(r)).toBe(k.refusal);
          expect(apiCalls(s, since), k.id).toEqual([]);
          if (!k.whole) continue;
          // Sent: what the instance makes of a made-up continuation is its own answer.
          await call(k.id, k.whole);
          expect(apiCalls(s, since).map((q) => q.path)).toEqual([k.sent]);
        }
        // The forks list takes the updated_at filters with any order: sent as given.
        const since = s.requests.length;
        await call('project.list_forks', { project_id: '1', updated_after: '2026-01-01T00:00:00Z' });
        expect(apiCalls(s, since).map((q) => [q.path, q.query])).toEqual([
          ['/api/v4/projects/1/forks', { updated_after: '2026-01-01T00:00:00Z' }],
        ]);
      });
    },
  );

  it("only GET /projects pairs the updated_at filters with updated_at sorting: the forks and a user's projects take them with any order", () => {
    expect(action('project.list').needsValue).toMatchObject({
      updated_after: { order_by: ['updated_at'] },
      updated_before: { order_by: ['updated_at'] },
    });
    for (const id of ['project.list_forks', 'project.list_user_projects', 'project.list_user_starred']) {
      expect(action(id).params.updated_after, id).toBeDefined();
      expect(action(id).needsValue, id).toBeUndefined();
      expect(action(id).params.updated_after!.description, id).not.toMatch(/order_by/);
    }
  });

  it('every keyset continuation of the catalog is declared as read only with pagination keyset', () => {
    for (const a of catalog().actions) {
      const paging = a.params.pagination as { enum?: string[] } | undefined;
      if (!paging?.enum?.includes('keyset')) continue;
      for (const continuation of ['cursor', 'page_token', 'last'])
        if (a.params[continuation])
          expect(a.needsValue?.[continuation], `${a.id} ${continuation}`).toEqual({ pagination: ['keyset'] });
    }
  });

  it('every rule names parameters of its action, and values the other parameter takes', () => {
    for (const a of catalog().actions)
      for (const [name, rules] of Object.entries(a.needsValue ?? {})) {
        expect(a.params[name], `${a.id} ${name}`).toBeDefined();
        for (const [other, values] of Object.entries(rules)) {
          const allowed = (a.params[other] as { enum?: unknown[] } | undefined)?.enum;
          expect(allowed, `${a.id} ${other}`).toBeDefined();
          for (const v of values) expect(allowed, `${a.id} ${other}`).toContain(v);
        }
      }
  });
});

describe('values the instance takes only beside another parameter', () => {
  // lib/api/user_runners.rb (given runner_type group_type: requires :group_id; project_type: requires :project_id);
  // lib/api/repositories.rb (tree: pagination "none" cannot be given unless recursive is true, a 400);
  // lib/api/projects.rb and lib/api/groups.rb (order_by similarity only when searching; without search the
  // instance quietly sorts by its default field); app/finders/deployments_finder.rb (finished_at sorting without a
  // finished_at filter, a 400); doc/api/merge_request_approvals.md (report_type required when the rule type is
  // report_approver); the project and group deletions (permanently_remove checks full_path, a 400 without it).
  let s: ForgeSim;
  beforeAll(async () => {
    s = await sim();
  });
  afterAll(async () => s.close());

  const text = (id: string, chosen: string, was: string, needed: string, too: boolean, other: string) =>
    `${id}: ${chosen} was given ${was}, and the instance takes ${chosen} only with ${needed}: give ${needed}${too ? ' too' : ''}, or another ${other}.`;
  /** A group or project runner: its runner_type needs the ID of its owner. */
  const runner = (owner: 'group' | 'project', more: Record<string, unknown> = {}) => ({
    id: 'user.create_runner',
    half: { runner_type: `${owner}_type`, ...more },
    refusal: text(
      'user.create_runner',
      `runner_type "${owner}_type"`,
      `without ${owner}_id`,
      `${owner}_id`,
      true,
      'runner_type',
    ),
    whole: { runner_type: `${owner}_type`, ...more, [`${owner}_id`]: 10 },
    sent: ['POST', '/api/v4/user/runners'],
  });
  /** A removal at once of a project or group the instance does not have (so nothing is removed). */
  const deletion = (kind: 'project' | 'group') => ({
    id: `${kind}.delete`,
    half: { [`${kind}_id`]: '999', permanently_remove: true },
    refusal: text(
      `${kind}.delete`,
      'permanently_remove true',
      'without full_path',
      'full_path',
      true,
      'permanently_remove',
    ),
    whole: { [`${kind}_id`]: '999', permanently_remove: true, full_path: 'acme/gone' },
    sent: ['DELETE', `/api/v4/${kind}s/999`],
  });
  const cases = [
    runner('group', { description: 'docker' }),
    runner('project'),
    {
      id: 'repository.tree',
      half: { project_id: '1', pagination: 'none' },
      refusal: text(
        'repository.tree',
        'pagination "none"',
        'without recursive',
        'recursive true',
        true,
        'pagination',
      ),
    },
    {
      id: 'repository.tree',
      half: { project_id: '1', pagination: 'none', recursive: false },
      refusal: text(
        'repository.tree',
        'pagination "none"',
        'with recursive false',
        'recursive true',
        false,
        'pagination',
      ),
      whole: { project_id: '1', pagination: 'none', recursive: true },
      sent: ['GET', '/api/v4/projects/1/repository/tree'],
    },
    {
      id: 'project.list',
      half: { order_by: 'similarity' },
      refusal: text('project.list', 'order_by "similarity"', 'without search', 'search', true, 'order_by'),
      whole: { order_by: 'similarity', search: 'widgets' },
      sent: ['GET', '/api/v4/projects'],
    },
    {
      id: 'project.list',
      half: { pagination: 'keyset' },
      refusal: text(
        'project.list',
        'pagination "keyset"',
        'without order_by',
        'order_by "id"',
        true,
        'pagination',
      ),
    },
    {
      id: 'project.list',
      half: { pagination: 'keyset', order_by: 'name' },
      refusal: text(
        'project.list',
        'pagination "keyset"',
        'with order_by "name"',
        'order_by "id"',
        false,
        'pagination',
      ),
      whole: { pagination: 'keyset', order_by: 'id' },
      sent: ['GET', '/api/v4/projects'],
    },
    {
      id: 'group.list',
      half: { order_by: 'similarity', top_level_only: true },
      refusal: text('group.list', 'order_by "similarity"', 'without search', 'search', true, 'order_by'),
      whole: { order_by: 'similarity', search: 'acme' },
      sent: ['GET', '/api/v4/groups'],
    },
    {
      id: 'environment.deployment_list',
      half: { project_id: '1', order_by: 'finished_at', status: 'success' },
      refusal: text(
        'environment.deployment_list',
        'order_by "finished_at"',
        'without finished_after or finished_before',
        'finished_after or finished_before',
        true,
        'order_by',
      ),
      whole: {
        project_id: '1',
        order_by: 'finished_at',
        status: 'success',
        finished_before: '2026-01-01T00:00:00Z',
      },
      sent: ['GET', '/api/v4/projects/1/deployments'],
    },
    {
      id: 'project.approval_rule_create',
      half: { project_id: '1', name: 'Coverage', approvals_required: 1, rule_type: 'report_approver' },
      refusal: text(
        'project.approval_rule_create',
        'rule_type "report_approver"',
        'without report_type',
        'report_type',
        true,
        'rule_type',
      ),
      whole: {
        project_id: '1',
        name: 'Coverage',
        approvals_required: 1,
        rule_type: 'report_approver',
        report_type: 'code_coverage',
      },
      sent: ['POST', '/api/v4/projects/1/approval_rules'],
    },
    // Destructive: refused before the confirmation question; with full_path, asked, then sent.
    deletion('project'),
    deletion('group'),
  ];

  it.each(['dynamic', 'meta', 'individual'] as const)(
    'on the %s surface, refuses the value without what it needs, naming both, before any question or request; with it, sends the call',
    { timeout: 120_000 },
    async (surface) => {
      let asked = 0;
      const accept = () => (asked++, { action: 'accept' as const, content: { confirm: true } });
      await withStdio(s, { env: { FORGE_MCP_TOOL_SURFACE: surface }, onElicit: accept }, async (c) => {
        const call = (id: string, params: Record<string, unknown>, confirm = false) =>
          c.client.callTool(callOn(surface, id, params, confirm));
        for (const k of cases) {
          const since = s.requests.length;
          const r = await call(k.id, k.half);
          expect(r.isError, k.id).toBe(true);
          expect(textOf(r)).toBe(k.refusal);
          expect(apiCalls(s, since), k.id).toEqual([]);
          expect(asked, k.id).toBe(0);
          if (!k.whole) continue;
          // Sent: what the instance makes of it is its own answer.
          await call(k.id, k.whole, action(k.id).destructive);
          expect(apiCalls(s, since).map((q) => [q.method, q.path])).toEqual([k.sent]);
          // The dynamic surface never asks (the caller confirms in the call); the others ask about a deletion.
          expect(asked, k.id).toBe(surface !== 'dynamic' && action(k.id).destructive ? 1 : 0);
          asked = 0;
        }
        // Another value needs nothing more: an instance runner and a legacy-paged tree are sent as given.
        const since = s.requests.length;
        await call('user.create_runner', { runner_type: 'instance_type' });
        await call('repository.tree', { project_id: '1', pagination: 'legacy' });
        await call('project.list', { order_by: 'name' });
        expect(apiCalls(s, since).map((q) => q.path)).toEqual([
          '/api/v4/user/runners',
          '/api/v4/projects/1/repository/tree',
          '/api/v4/projects',
        ]);
      });
    },
  );

  it('every list that sorts by similarity and searches on request declares similarity as needing search, and says so', () => {
    const declared: string[] = [];
    for (const a of catalog().actions) {
      const order = a.params.order_by as { enum?: unknown[]; description?: string } | undefined;
      if (!order?.enum?.includes('similarity') || !a.params.search || a.required?.includes('search'))
        continue;
      expect(a.valueRequires?.order_by?.similarity, a.id).toEqual({ search: true });
      expect(order.description, a.id).toMatch(/similarity.*(needs search|with search)/);
      declared.push(a.id);
    }
    expect(declared.sort()).toEqual([
      'group.list',
      'group.projects',
      'group.shared_with',
      'group.subgroups',
      'project.list',
      'project.list_forks',
      'project.list_user_projects',
      'project.list_user_starred',
    ]);
  });

  it('every rule names a value its parameter takes, and parameters of its action with values they take; the parameter says so in words', () => {
    /** The values a parameter takes, as the rules name them (a boolean's two). */
    const allowed = (a: ActionSpec, name: string) => {
      const p = a.params[name] as { enum?: unknown[]; type?: unknown } | undefined;
      return p?.type === 'boolean' ? [true, false] : p?.enum;
    };
    for (const a of catalog().actions)
      for (const [name, byValue] of Object.entries(a.valueRequires ?? {})) {
        expect(allowed(a, name), `${a.id} ${name}`).toBeDefined();
        for (const [value, rule] of Object.entries(byValue)) {
          expect(allowed(a, name)!.map(String), `${a.id} ${name}`).toContain(value);
          for (const need of [rule].flat())
            for (const [other, values] of Object.entries(need)) {
              expect(a.params[other], `${a.id} ${other}`).toBeDefined();
              expect(a.params[name]!.description, `${a.id} ${name}`).toContain(other);
              if (values === true) continue;
              expect(allowed(a, other), `${a.id} ${other}`).toBeDefined();
              for (const v of values) expect(allowed(a, other), `${a.id} ${other}`).toContain(v);
            }
        }
      }
  });
});

describe('filters added from the instance contract reach the instance', () => {
  let s: ForgeSim;
  beforeAll(async () => {
    s = await sim();
  });
  afterAll(async () => s.close());

  it(
    'the new vulnerability filters are sent as the GraphQL variables of both queries, and the project iterations take include_descendants',
    { timeout: 60_000 },
    async () => {
      await withStdio(s, { env: { FORGE_MCP_TIER: 'ultimate' } }, async (c) => {
        const filters = {
          owasp_top_ten: ['A1_2017'],
          scanner_id: ['gid://gitlab/Vulnerabilities::Scanner/7'],
          has_ai_resolution: false,
          image: ['registry.example.com/acme/app:1.4'],
          cluster_agent_id: ['gid://gitlab/Clusters::Agent/3'],
        };
        const call = (action: string, params: Record<string, unknown>) =>
          c.client.callTool({ name: 'forge_execute_action', arguments: { action, params } });
        for (const action of ['vulnerability.list', 'vulnerability.severity_count']) {
          const since = s.requests.length;
          const r = await call(action, { full_path: 'acme/widgets', ...filters });
          expect(r.isError, textOf(r)).toBeFalsy();
          const sent = apiCalls(s, since).filter((q) => q.path === '/api/graphql');
          expect(sent, action).toHaveLength(1);
          const body = sent[0]!.body as { query: string; variables: Record<string, unknown> };
          expect(body.variables).toEqual({
            fullPath: 'acme/widgets',
            owaspTopTen: ['A1_2017'],
            scannerId: ['gid://gitlab/Vulnerabilities::Scanner/7'],
            hasAiResolution: false,
            image: ['registry.example.com/acme/app:1.4'],
            clusterAgentId: ['gid://gitlab/Clusters::Agent/3'],
          });
          expect(body.query).toContain(
            'owaspTopTen: $owaspTopTen, hasAiResolution: $hasAiResolution, image: $image, clusterAgentId: $clusterAgentId',
          );
          // A scanner named by its external ID where a global ID is wanted: refused, nothing sent.
          const wrong = await call(action, { full_path: 'acme/widgets', scanner_id: ['semgrep'] });
          expect(textOf(wrong)).toContain(
            'scanner_id.0 must be the global ID of a vulnerability scanner, e.g. "gid://gitlab/Vulnerabilities::Scanner/1" (got a string)',
          );
          expect(apiCalls(s, since)).toHaveLength(1);
        }
        const since = s.requests.length;
        await call('issue.iteration_list_project', { project_id: '1', include_descendants: true });
        expect(apiCalls(s, since).map((q) => [q.path, q.query])).toEqual([
          ['/api/v4/projects/1/iterations', { include_descendants: 'true' }],
        ]);
      });
    },
  );
});

describe('one-of and exclusive groups follow the endpoint code', () => {
  // What each action's endpoint declares, read from the instance's endpoint code (lib/api, ee/lib/api,
  // ee/lib/ee/api; the file and line of each in the sweep's record): exactly_one_of gives a oneOf and an
  // exclusive group, mutually_exclusive an exclusive group, at_least_one_of a oneOf group, each narrowed to
  // the parameters the action offers.
  const author = ['author_id', 'author_username'];
  const assignee = ['assignee_id', 'assignee_username'];
  const milestone = ['milestone', 'milestone_id'];
  const issueLists = [author, assignee, milestone, ['iteration_id', 'iteration_title']];
  const mrLists = [
    author,
    assignee,
    ['reviewer_id', 'reviewer_username'],
    ['merge_user_id', 'merge_user_username'],
    ['approved_by_ids', 'approved_by_usernames'],
  ];
  const boardList = ['label_id', 'assignee_id', 'milestone_id', 'iteration_id'];
  const milestoneChanges = ['title', 'description', 'start_date', 'due_date', 'state_event'];
  const snippetChanges = ['title', 'description', 'visibility', 'files'];
  const pushRules = [
    ...['deny_delete_tag', 'member_check', 'prevent_secrets', 'commit_message_regex'],
    ...['commit_message_negative_regex', 'branch_name_regex', 'author_email_regex', 'file_name_regex'],
    ...['max_file_size', 'commit_committer_check', 'commit_committer_name_check', 'reject_unsigned_commits'],
    'reject_non_dco_commits',
  ];
  const mirrorBranches = ['only_protected_branches', 'mirror_branch_regex'];
  const expected: Record<string, { oneOf?: string[][]; exclusive?: string[][] }> = {
    // exactly_one_of, or mutually_exclusive with at_least_one_of
    'group.group_member_add': { oneOf: [['user_id', 'username']], exclusive: [['user_id', 'username']] },
    'project.member_add': { oneOf: [['user_id', 'username']], exclusive: [['user_id', 'username']] },
    'group.ldap_link_add': { oneOf: [['cn', 'filter']], exclusive: [['cn', 'filter']] },
    'group.group_board_create_list': { oneOf: [boardList], exclusive: [boardList] },
    'project.board_list_create': { oneOf: [boardList], exclusive: [boardList] },
    'mr_review.discussion_note_update': { oneOf: [['body', 'resolved']], exclusive: [['body', 'resolved']] },
    'admin.import_bitbucket': {
      oneOf: [['bitbucket_app_password', 'bitbucket_api_token']],
      exclusive: [['bitbucket_app_password', 'bitbucket_api_token']],
    },
    // mutually_exclusive
    'issue.list': { exclusive: issueLists },
    'issue.list_all': { exclusive: issueLists },
    'issue.list_group': { exclusive: issueLists },
    'group.issues': { exclusive: issueLists },
    'environment.deployment_merge_requests': { exclusive: mrLists.slice(0, 4) },
    'issue.statistics_get': { exclusive: issueLists },
    'issue.statistics_get_group': { exclusive: issueLists },
    'issue.statistics_get_project': { exclusive: issueLists },
    'merge_request.list': { exclusive: mrLists },
    'merge_request.list_global': { exclusive: mrLists },
    'merge_request.list_group': { exclusive: mrLists },
    'merge_request.create': { exclusive: [['milestone_id', 'milestone']] },
    'group.epic_list': { exclusive: [author] },
    'environment.list': { exclusive: [['name', 'search']] },
    'release.create': { exclusive: [['milestones', 'milestone_ids']] },
    'release.update': { exclusive: [['milestones', 'milestone_ids']] },
    'repository.commit_create': { exclusive: [['start_branch', 'start_sha']] },
    // at_least_one_of (with a mutually_exclusive pair on the merge request update)
    'merge_request.update': {
      oneOf: [
        [
          'title',
          'description',
          'target_branch',
          'state_event',
          'assignee_ids',
          'reviewer_ids',
          'labels',
          'add_labels',
          'remove_labels',
          'milestone_id',
          'milestone',
          'remove_source_branch',
          'squash',
          'discussion_locked',
          'allow_collaboration',
          'merge_after',
        ],
      ],
      exclusive: [['milestone_id', 'milestone']],
    },
    'issue.update': {
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
    },
    'snippet.update': { oneOf: [snippetChanges] },
    'snippet.project_update': { oneOf: [snippetChanges] },
    'project.label_update': { oneOf: [['new_name', 'color', 'description', 'priority', 'archived']] },
    'runner.update': {
      oneOf: [
        [
          'description',
          'paused',
          'tag_list',
          'run_untagged',
          'locked',
          'access_level',
          'maximum_timeout',
          'maintenance_note',
        ],
      ],
    },
    'access.deploy_key_update': { oneOf: [['title', 'can_push']] },
    'group.group_milestone_update': { oneOf: [milestoneChanges] },
    'project.milestone_update': { oneOf: [milestoneChanges] },
    // ee/lib/api/project_push_rule.rb and ee/lib/api/group_push_rule.rb: at_least_one_of every rule.
    'project.push_rule_add': { oneOf: [pushRules] },
    'project.push_rule_edit': { oneOf: [pushRules] },
    'group.push_rule_add': { oneOf: [pushRules] },
    'group.push_rule_edit': { oneOf: [pushRules] },
    // ee/lib/ee/api/helpers/remote_mirrors_helpers.rb: mutually_exclusive.
    'project.mirror_add': { exclusive: [mirrorBranches] },
    'project.mirror_edit': { exclusive: [mirrorBranches] },
  };

  it.each(Object.entries(expected))('%s declares the groups its endpoint declares', (id, want) => {
    const a = action(id);
    expect(a.oneOf ?? [], 'oneOf').toEqual(want.oneOf ?? []);
    expect(a.exclusive ?? [], 'exclusive').toEqual(want.exclusive ?? []);
    for (const g of [...(want.oneOf ?? []), ...(want.exclusive ?? [])])
      for (const p of g) expect(a.params, `${p} offered`).toHaveProperty(p);
    // The description says it: exactly one, at most one of each pair, or at least one field.
    for (const g of want.exclusive ?? [])
      if (want.oneOf?.some((o) => o.join() === g.join()))
        expect(a.description).toMatch(new RegExp(`exactly one of ${g.slice(0, -1).join(', ')}`));
      else expect(a.description).toContain(`most one of ${g.join(' or ')}`);
    if (want.oneOf && !want.exclusive) expect(a.description).toMatch(/at least one/i);
  });

  it('project.update needs at least one of the fields its endpoint lists, and offers no other', () => {
    // lib/api/helpers/projects_helpers.rb, update_params_at_least_one_of (those this action offers).
    const instance = new Set([
      ...['allow_merge_on_skipped_pipeline', 'autoclose_referenced_issues', 'auto_devops_enabled'],
      ...['build_timeout', 'builds_access_level', 'ci_config_path', 'ci_default_git_depth'],
      ...['container_registry_access_level', 'default_branch', 'description', 'emails_enabled'],
      ...['forking_access_level', 'issues_access_level', 'lfs_enabled', 'merge_requests_access_level'],
      ...['merge_method', 'name', 'only_allow_merge_if_all_discussions_are_resolved'],
      ...['only_allow_merge_if_pipeline_succeeds', 'package_registry_access_level', 'pages_access_level'],
      ...['path', 'printing_merge_request_link_enabled', 'public_jobs', 'remove_source_branch_after_merge'],
      ...['repository_access_level', 'request_access_enabled', 'resolve_outdated_diff_discussions'],
      ...['squash_option', 'shared_runners_enabled', 'group_runners_enabled', 'snippets_access_level'],
      ...['topics', 'visibility', 'wiki_access_level', 'suggestion_commit_message', 'merge_commit_template'],
      ...[
        'squash_commit_template',
        'issue_branch_template',
        'keep_latest_artifact',
        'mr_default_target_self',
      ],
      ...['releases_access_level', 'ci_pipeline_variables_minimum_override_role', 'max_artifacts_size'],
    ]);
    const a = action('project.update');
    expect(a.oneOf).toHaveLength(1);
    const group = a.oneOf![0];
    expect([...group].sort()).toEqual(
      Object.keys(a.params)
        .filter((p) => p !== 'project_id')
        .sort(),
    );
    for (const p of group) expect(instance.has(p), p).toBe(true);
    expect(a.description).toMatch(/at least one/i);
  });
});

describe('updates the instance refuses without a change', () => {
  // at_least_one_of on the update endpoints (lib/api/deploy_keys.rb :title, :can_push; lib/api/ci/runners.rb):
  // a call naming nothing to change is refused here, before anything is sent; one change is sent.
  let s: ForgeSim;
  beforeAll(async () => {
    s = await sim();
  });
  afterAll(async () => s.close());

  it('names the fields to give and sends nothing; one field is sent', { timeout: 60_000 }, async () => {
    await withStdio(s, {}, async (c) => {
      const since = s.requests.length;
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'access.deploy_key_update', params: { project_id: '1', key_id: 1 } },
      });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/Missing one of: title, can_push\./);
      expect(apiCalls(s, since)).toEqual([]);
      const ok = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: {
          action: 'access.deploy_key_update',
          params: { project_id: '1', key_id: 1, title: 'ci' },
        },
      });
      const sent = apiCalls(s, since).filter((q) => q.method === 'PUT');
      expect(
        sent.map((q) => q.path),
        textOf(ok),
      ).toEqual(['/api/v4/projects/1/deploy_keys/1']);
      expect(sent[0]!.body).toEqual({ title: 'ci' });
    });
  });

  it(
    'push rules: a call naming no rule is refused before sending; one rule is sent',
    { timeout: 60_000 },
    async () => {
      await withStdio(s, {}, async (c) => {
        const since = s.requests.length;
        const r = await c.client.callTool({
          name: 'forge_execute_action',
          arguments: { action: 'project.push_rule_edit', params: { project_id: '1' } },
        });
        expect(r.isError).toBe(true);
        expect(textOf(r)).toMatch(/Missing one of: deny_delete_tag, member_check, prevent_secrets, /);
        expect(apiCalls(s, since)).toEqual([]);
        const ok = await c.client.callTool({
          name: 'forge_execute_action',
          arguments: { action: 'project.push_rule_edit', params: { project_id: '1', max_file_size: 50 } },
        });
        const sent = apiCalls(s, since).filter((q) => q.method === 'PUT');
        expect(
          sent.map((q) => q.path),
          textOf(ok),
        ).toEqual(['/api/v4/projects/1/push_rule']);
        expect(sent[0]!.body).toEqual({ max_file_size: 50 });
      });
    },
  );
});

describe('Orbit query parameters follow the endpoint code', () => {
  // The translated REST page names the body field format with default llm; the endpoint code
  // (API::Orbit::Data, post :query) declares response_format, values raw and llm, default raw. The
  // code wins: we send response_format and describe raw as the default.
  it('orbit.query sends response_format (raw or llm, default raw)', () => {
    const a = action('orbit.query');
    expect(a.params.format).toBeUndefined();
    expect(a.params.response_format.enum).toEqual(['raw', 'llm']);
    expect(a.params.response_format.wire).toBeUndefined();
    expect(a.params.response_format.description).toMatch(/raw: .*\(default\)/);
  });
});

describe('DELETE parameters the instance reads', () => {
  // A stored lib/api/files.rb declares the delete with the simple file parameters only (no
  // last_commit_id, dropped by declared_params), but doc/api/repository_files.md and the OpenAPI
  // description generated from a later release (deleteApiV4ProjectsIdRepositoryFilesFilePath) both
  // declare last_commit_id for the delete: the later code takes it, so it stays offered.
  it('repository.file_delete offers last_commit_id, sent in the query of the DELETE', () => {
    const a = action('repository.file_delete');
    expect(a.params.last_commit_id).toBeDefined();
    const built = buildRest(a, rest(a), { ...a.example, last_commit_id: 'a'.repeat(40) });
    expect(built.query).toMatchObject({ branch: 'feature/login', last_commit_id: 'a'.repeat(40) });
    expect(built.body).toBeUndefined();
  });
});

describe('what a DELETE refuses or leaves undone is named', () => {
  it.each([
    // lib/api/users.rb, ee/lib/api/groups/enterprise_users.rb, ee/lib/api/group_service_accounts.rb:
    // conflict! unless user.can_be_removed? || hard_delete.
    ['user.delete', /without hard_delete the sole owner of a group is refused \(409 Conflict\)/],
    ['enterprise_user.delete', /without hard_delete the sole owner of a group is refused \(409 Conflict\)/],
    [
      'group.service_account_delete',
      /Without hard_delete the sole owner of a group is refused \(409 Conflict\)/,
    ],
    // The enterprise user endpoint's own parameter text: hard_delete also removes groups owned solely by the user.
    ['enterprise_user.delete', /the groups they alone own/],
    // lib/api/project_container_repositories.rb: an exclusive lease of one hour per repository, 400 when held.
    ['package.registry_tag_delete_bulk', /At most once an hour per repository: .*refused \(400\)/],
    // lib/api/dependency_proxy.rb: an exclusive lease of one hour per group, 409 when held.
    ['admin.dependency_proxy_delete', /At most once an hour per group: .*refused \(409 Conflict\)/],
    // lib/api/terraform/state.rb answers 200 whatever Terraform::States::TriggerDestroyService says, and
    // that service refuses a locked state.
    ['admin.terraform_state_delete', /A locked state is not deleted, though the instance answers success/],
  ])('%s says so', (id, text) => {
    expect(action(id).description).toMatch(text);
  });

  it('enterprise_user.delete hard_delete names the groups it removes', () => {
    expect(param('enterprise_user.delete', 'hard_delete').description).toMatch(/groups they alone own/);
  });
});

describe('read filters checked against the endpoint code', () => {
  const accepts = (id: string, args: Record<string, unknown>): boolean => {
    const a = action(id);
    return validatorFor(inputSchema(a))({ ...a.example, ...args }) as boolean;
  };

  // lib/api/issues.rb (issues_params): issue_type takes the issue base types of
  // WorkItems::TypesFramework::Provider (all but epic, objective, key_result); closed_by_id is read;
  // `not` (issues_stats_params) negates labels, milestone, milestone_id, iids, author, assignee and,
  // in the EE helpers, weight and iteration.
  it.each(['issue.list', 'issue.list_all', 'issue.list_group'])(
    '%s takes requirement and ticket issues, closed_by_id and exclusion filters',
    (id) => {
      expect(accepts(id, { issue_type: 'requirement' })).toBe(true);
      expect(accepts(id, { issue_type: 'ticket' })).toBe(true);
      expect(accepts(id, { issue_type: 'epic' })).toBe(false);
      expect(accepts(id, { closed_by_id: 3 })).toBe(true);
      expect(accepts(id, { not: { labels: 'wontfix', milestone_id: 'Started', iids: [4] } })).toBe(true);
      expect(accepts(id, { not: { iteration_id: 'Current', weight: 0 } })).toBe(true);
      expect(accepts(id, { not: { milestone_id: 'Later' } })).toBe(false);
      expect(accepts(id, { not: { state: 'closed' } })).toBe(false);
      const built = buildRest(action(id), rest(action(id)), {
        ...action(id).example,
        not: { labels: 'wontfix' },
      });
      expect(built.query).toMatchObject({ not: { labels: 'wontfix' } });
    },
  );

  it.each(['issue.statistics_get', 'issue.statistics_get_group', 'issue.statistics_get_project'])(
    '%s takes exclusion filters as the lists do',
    (id) => {
      expect(accepts(id, { not: { author_username: 'bot' } })).toBe(true);
    },
  );

  // lib/api/helpers/merge_requests_helpers.rb (merge_requests_base_params): approved yes/no and
  // source_project_id are read by all three lists.
  it.each(['merge_request.list', 'merge_request.list_global', 'merge_request.list_group'])(
    '%s takes approved and source_project_id',
    (id) => {
      expect(accepts(id, { approved: 'yes' })).toBe(true);
      expect(accepts(id, { approved: 'no' })).toBe(true);
      expect(accepts(id, { approved: 'maybe' })).toBe(false);
      expect(accepts(id, { source_project_id: 7 })).toBe(true);
    },
  );

  // Ci::HasStatus::AVAILABLE_STATUSES (the pipeline status and job scope values) holds
  // waiting_for_callback.
  it.each([
    ['pipeline.list', { status: 'waiting_for_callback' }],
    // lib/api/ci/pipeline_schedules.rb: the schedule's pipelines take the same status values.
    ['pipeline.schedule_list_triggered_pipelines', { status: 'waiting_for_callback' }],
    ['job.list', { scope: ['waiting_for_callback'] }],
    ['job.list_bridges', { scope: ['waiting_for_callback'] }],
    ['job.list_project', { scope: ['waiting_for_callback', 'running'] }],
  ])('%s takes waiting_for_callback', (id, args) => {
    expect(accepts(id, args)).toBe(true);
  });

  // lib/api/projects.rb (sort_params, filter_params) with Helpers::ProjectsHelpers::STATISTICS_SORT_PARAMS;
  // ee/lib/ee/api/projects.rb (optional_filter_params_ee): include_hidden.
  it.each(['project.list', 'project.list_user_projects', 'project.list_user_starred'])(
    '%s orders by the admin-only sizes and filters by topic_id, repository_storage and include_hidden',
    (id) => {
      for (const order_by of ['storage_size', 'repository_size', 'wiki_size', 'packages_size'])
        expect(accepts(id, { order_by }), order_by).toBe(true);
      expect(accepts(id, { topic_id: 4, repository_storage: 'default', include_hidden: true })).toBe(true);
      expect(accepts(id, { order_by: 'size' })).toBe(false);
    },
  );

  it('project.list_user_contributed orders by the admin-only sizes', () => {
    expect(accepts('project.list_user_contributed', { order_by: 'storage_size' })).toBe(true);
  });

  // lib/api/branches.rb (filter_params): sort, with the values the generated OpenAPI description of the
  // API lists (getApiV4ProjectsIdRepositoryBranches).
  it('branch.list sorts by name or by last update', () => {
    for (const sort of ['name_asc', 'updated_asc', 'updated_desc'])
      expect(accepts('branch.list', { sort }), sort).toBe(true);
    expect(accepts('branch.list', { sort: 'name_desc' })).toBe(false);
  });

  // lib/api/users.rb (GET /users) uses optional_index_params_ee, which the EE users helpers fill with
  // skip_ldap and auditors.
  it('user.list takes skip_ldap and auditors', () => {
    expect(accepts('user.list', { skip_ldap: true, auditors: true })).toBe(true);
  });

  // lib/api/search.rb: include_archived on the instance and group searches (search_params_archived_filter),
  // fields on all three (ee_param_fields: title); ee/lib/ee/api/search.rb: regex, exclude_forks and
  // num_context_lines (0..MAX_NUM_CONTEXT_LINES, 20) for code.
  it('search actions take include_archived, fields and the code search filters', () => {
    expect(accepts('search.issues', { include_archived: true, fields: ['title'] })).toBe(true);
    expect(accepts('search.merge_requests', { fields: ['title'] })).toBe(true);
    expect(accepts('search.merge_requests', { fields: ['description'] })).toBe(false);
    expect(accepts('search.projects', { include_archived: true })).toBe(true);
    expect(accepts('search.code', { regex: true, exclude_forks: true, num_context_lines: 20 })).toBe(true);
    expect(accepts('search.code', { num_context_lines: 21 })).toBe(false);
  });

  // lib/api/deployments.rb: the merge requests of a deployment take merge_requests_base_params, whose
  // order_by is Helpers::MergeRequestsHelpers.sort_options.
  it('environment.deployment_merge_requests orders as the merge request lists do', () => {
    for (const order_by of ['label_priority', 'priority', 'milestone_due', 'popularity'])
      expect(accepts('environment.deployment_merge_requests', { order_by }), order_by).toBe(true);
  });

  // lib/api/project_packages.rb and group_packages.rb: package_type is Packages::Package.package_types.
  it.each(['package.list', 'package.group_list'])('%s takes rubygems packages', (id) => {
    expect(accepts(id, { package_type: 'rubygems' })).toBe(true);
  });

  // lib/api/milestone_responses.rb (list_params, shared by project and group milestones): state takes all.
  it('project.milestone_list takes state all, as group.group_milestone_list does', () => {
    expect(accepts('project.milestone_list', { state: 'all' })).toBe(true);
    expect(accepts('group.group_milestone_list', { state: 'all' })).toBe(true);
  });

  // ee/lib/ee/api/merge_requests.rb (optional_merge_requests_search_params): approver_ids, approved_by_ids
  // and approved_by_usernames are types [String, Array] with array_none_any: a list, or None / Any.
  it.each(['merge_request.list', 'merge_request.list_global', 'merge_request.list_group'])(
    '%s takes None and Any for the approval filters',
    (id) => {
      for (const name of ['approver_ids', 'approved_by_ids', 'approved_by_usernames']) {
        expect(accepts(id, { [name]: 'None' }), name).toBe(true);
        expect(accepts(id, { [name]: 'Any' }), name).toBe(true);
        expect(accepts(id, { [name]: 'Some' }), name).toBe(false);
      }
      expect(accepts(id, { approved_by_ids: [1, 2, 3, 4, 5, 6] })).toBe(false);
      expect(accepts(id, { approved_by_usernames: ['alice'] })).toBe(true);
    },
  );

  // lib/api/issues.rb and lib/api/helpers/merge_requests_helpers.rb: assignee_username is Array[String]
  // (check_assignees_count: one name on the free tier, several on Premium, meaning assigned to all).
  it.each([
    'issue.list',
    'issue.list_group',
    'issue.list_all',
    'merge_request.list',
    'merge_request.list_group',
  ])('%s takes one assignee username or a list', (id) => {
    expect(accepts(id, { assignee_username: 'alice' })).toBe(true);
    expect(accepts(id, { assignee_username: ['alice', 'bob'] })).toBe(true);
    expect(accepts(id, { assignee_username: [] })).toBe(false);
    const a = action(id);
    const built = buildRest(a, rest(a), { ...a.example, assignee_username: ['alice', 'bob'] });
    expect(built.query).toMatchObject({ assignee_username: ['alice', 'bob'] });
  });

  // lib/api/groups.rb (GET :id/projects): include_ancestor_groups, beside include_subgroups and with_shared.
  it('group.projects takes include_ancestor_groups', () => {
    expect(accepts('group.projects', { include_ancestor_groups: true })).toBe(true);
  });
});

describe('keyset paging where the instance offers it', () => {
  // doc/api/rest (keyset section): audit events, project jobs, projects (order_by id), users, project issues and
  // registry tags page by keyset; ee/lib/api/audit_events.rb and the others read pagination=keyset and continue
  // with cursor, except projects (id_after / id_before) and registry tags (last, with sort asc or desc;
  // lib/api/project_container_repositories.rb). The tree's page_token was offered before.
  const accepts = (id: string, args: Record<string, unknown>): boolean => {
    const a = action(id);
    return validatorFor(inputSchema(a))({ ...a.example, ...args }) as boolean;
  };
  it.each([
    ['audit_event.list_group', 'cursor'],
    ['audit_event.list_project', 'cursor'],
    ['audit_event.list_instance', 'cursor'],
    ['job.list_project', 'cursor'],
    ['user.list', 'cursor'],
    ['issue.list', 'cursor'],
    ['package.registry_tag_list', 'last'],
    // lib/api/ci/runners.rb (GET :id/jobs declares cursor and pages with paginate_with_strategies).
    ['runner.jobs', 'cursor'],
  ])('%s takes pagination keyset and its %s', (id, continuation) => {
    expect(accepts(id, { pagination: 'keyset', [continuation]: 'eyJpZCI6IjQyIn0' })).toBe(true);
    expect(accepts(id, { pagination: 'offset' })).toBe(false);
  });
  it('project.list takes pagination keyset, continuing with id_after', () => {
    expect(accepts('project.list', { pagination: 'keyset', order_by: 'id', id_after: 42 })).toBe(true);
    expect(action('project.list').params.pagination.description).toContain('order_by "id" only');
  });
  it('package.registry_tag_list sorts keyset pages by name either way', () => {
    expect(accepts('package.registry_tag_list', { pagination: 'keyset', sort: 'desc' })).toBe(true);
  });
});

describe('issue types an issue can be created as or changed to', () => {
  // The newest stored WorkItems::TypesFilter.allowed_types_for_issues leaves out only epic and the OKR types
  // (objective, key_result): requirement and ticket are accepted on create and update, as on the lists.
  it('issue.create and issue.update take every type the lists filter by', () => {
    const listed = param('issue.list', 'issue_type').enum;
    for (const id of ['issue.create', 'issue.update']) {
      expect(param(id, 'issue_type').enum, id).toEqual(listed);
      const a = action(id);
      const validate = validatorFor(inputSchema(a));
      for (const type of ['requirement', 'ticket'])
        expect(validate({ ...structuredClone(a.example), issue_type: type }), `${id} ${type}`).toBe(true);
      expect(validate({ ...structuredClone(a.example), issue_type: 'epic' }), id).toBe(false);
    }
  });
});

describe('read actions checked against the endpoint code (second sweep)', () => {
  const accepts = (id: string, args: Record<string, unknown>): boolean => {
    const a = action(id);
    return validatorFor(inputSchema(a))({ ...a.example, ...args }) as boolean;
  };
  const sentQuery = (id: string, args: Record<string, unknown>) =>
    buildRest(action(id), rest(action(id)), { ...action(id).example, ...args }).query;

  // lib/api/notes.rb (GET :id/:noteables/:noteable_id/notes, for issues, merge requests and snippets):
  // activity_filter takes UserPreference::NOTES_FILTERS.
  it.each(['snippet.note_list', 'issue.note_list', 'mr_review.note_list'])(
    '%s filters comments from system activity',
    (id) => {
      for (const f of ['all_notes', 'only_comments', 'only_activity'])
        expect(accepts(id, { activity_filter: f }), f).toBe(true);
      expect(accepts(id, { activity_filter: 'only_system' })).toBe(false);
      expect(sentQuery(id, { activity_filter: 'only_comments' })).toMatchObject({
        activity_filter: 'only_comments',
      });
    },
  );

  // lib/api/ci/runners.rb: GET /runners/:id reads include_projects (default true); GET /runners/:id/jobs
  // filters by any of Ci::Build::AVAILABLE_STATUSES; GET /runners/:id/managers pages nothing.
  it('runner.get can leave out the projects a runner serves', () => {
    expect(accepts('runner.get', { include_projects: false })).toBe(true);
    expect(sentQuery('runner.get', { include_projects: false })).toMatchObject({ include_projects: false });
  });
  it('runner.jobs filters by every job status', () => {
    for (const status of ['pending', 'manual', 'waiting_for_callback', 'created', 'skipped'])
      expect(accepts('runner.jobs', { status }), status).toBe(true);
    expect(accepts('runner.jobs', { status: 'passed' })).toBe(false);
  });
  // lib/api/package_files.rb (GET :id/packages/:package_id/package_files): order_by id, created_at or
  // file_name; sort asc or desc.
  it('package.file_list orders files by ID, creation time or name', () => {
    for (const order_by of ['id', 'created_at', 'file_name'])
      expect(accepts('package.file_list', { order_by, sort: 'desc' }), order_by).toBe(true);
    expect(accepts('package.file_list', { order_by: 'size' })).toBe(false);
  });
  // lib/api/project_packages_protection_rules.rb, project_container_registry_protection_rules.rb and
  // project_container_registry_protection_tag_rules.rb: each list presents every rule, unpaginated.
  it.each(['package.protection_rule_list', 'package.registry_rule_list', 'package.registry_tag_rule_list'])(
    '%s offers no paging the instance would ignore',
    (id) => {
      expect(accepts(id, { per_page: 50 })).toBe(false);
    },
  );
  // lib/api/projects.rb: every list using collection_params (GET /projects, /users/:user_id/projects,
  // /users/:user_id/starred_projects, /projects/:id/forks) takes the whole filter_params.
  it.each(['project.list', 'project.list_user_projects', 'project.list_user_starred', 'project.list_forks'])(
    '%s takes the whole project collection filter set',
    (id) => {
      const all = {
        search_namespaces: true,
        topic: 'cli,go',
        with_programming_language: 'Go',
        last_activity_after: '2025-01-01T00:00:00Z',
        last_activity_before: '2025-06-01T00:00:00Z',
        include_pending_delete: true,
        imported: true,
      };
      expect(accepts(id, all)).toBe(true);
      expect(sentQuery(id, { with_programming_language: 'Go' })).toMatchObject({
        with_programming_language: 'Go',
      });
    },
  );

  // lib/api/admin/plan_limits.rb: plan_name takes Plan.all_plans, which ee/app/models/ee/plan.rb overrides with
  // EE_ALL_PLANS (the default plans, free and every paid hosted plan, ultimate_trial_paid_customer included).
  it.each(['admin.plan_limits_get', 'admin.plan_limits_change'])('%s names every plan', (id) => {
    expect(accepts(id, { plan_name: 'ultimate_trial_paid_customer' })).toBe(true);
    expect(accepts(id, { plan_name: 'enterprise' })).toBe(false);
  });

  it('runner.list_managers offers no paging the instance would ignore', () => {
    expect(accepts('runner.list_managers', { page: 2 })).toBe(false);
  });
});

describe('read actions checked against the endpoint code (third sweep)', () => {
  const accepts = (id: string, args: Record<string, unknown>): boolean => {
    const a = action(id);
    return validatorFor(inputSchema(a))({ ...a.example, ...args }) as boolean;
  };
  const sentQuery = (id: string, args: Record<string, unknown>) =>
    buildRest(action(id), rest(action(id)), { ...action(id).example, ...args }).query;

  // lib/api/issue_links.rb (GET :id/issues/:issue_iid/links) declares no paging and answers every link at once.
  it('issue.link_list offers no paging the instance would ignore', () => {
    expect(accepts('issue.link_list', { page: 2 })).toBe(false);
    expect(accepts('issue.link_list', { per_page: 50 })).toBe(false);
  });

  // lib/api/groups.rb: group_list_params (GET /groups, :id/subgroups, :id/descendant_groups) holds visibility
  // and top_level_only.
  it.each(['group.search', 'group.subgroups'])('%s filters by visibility', (id) => {
    expect(accepts(id, { visibility: 'internal' })).toBe(true);
    expect(accepts(id, { visibility: 'hidden' })).toBe(false);
    expect(sentQuery(id, { visibility: 'internal' })).toMatchObject({ visibility: 'internal' });
  });
  // group_list_params (the OpenAPI description of GET /groups and :id/descendant_groups, Feb 2026) also holds
  // archived, active, marked_for_deletion_on and, in EE, repository_storage.
  it.each(['group.list', 'group.search', 'group.subgroups'])(
    '%s filters by archived, active, deletion date and storage',
    (id) => {
      const args = {
        archived: false,
        active: true,
        marked_for_deletion_on: '2026-05-01',
        repository_storage: 'default',
      };
      expect(accepts(id, args)).toBe(true);
      expect(sentQuery(id, args)).toMatchObject({ archived: false, repository_storage: 'default' });
    },
  );
  // filter_params (the OpenAPI description of GET /projects and the other collection_params lists, Feb 2026) also
  // holds marked_for_deletion_on and, in EE, the Geo checksum filters.
  it.each(['project.list', 'project.list_forks', 'project.list_user_projects', 'project.list_user_starred'])(
    '%s filters by deletion date and failed Geo checksums',
    (id) => {
      const args = {
        marked_for_deletion_on: '2026-05-01',
        repository_checksum_failed: true,
        wiki_checksum_failed: false,
      };
      expect(accepts(id, args)).toBe(true);
      expect(sentQuery(id, args)).toMatchObject({ repository_checksum_failed: true });
    },
  );
  it('group.search takes top_level_only, as group.list does', () => {
    expect(accepts('group.search', { top_level_only: true })).toBe(true);
  });

  // lib/api/projects.rb: GET :id/forks, /users/:user_id/projects and starred_projects use collection_params, whose
  // filter_params hold the same filters as GET /projects.
  it.each(['project.list_forks', 'project.list_user_projects', 'project.list_user_starred'])(
    '%s takes every filter of the project list',
    (id) => {
      const args = {
        search_namespaces: true,
        topic: 'cli,go',
        with_programming_language: 'Go',
        last_activity_after: '2026-01-01T00:00:00Z',
        last_activity_before: '2026-02-01T00:00:00Z',
        include_pending_delete: true,
        imported: true,
      };
      expect(accepts(id, args)).toBe(true);
      expect(sentQuery(id, { with_programming_language: 'Go' })).toMatchObject({
        with_programming_language: 'Go',
      });
    },
  );

  // lib/api/applications.rb (GET /applications), lib/api/custom_attributes_endpoints.rb (GET :id/custom_attributes)
  // and lib/api/alert_management_alerts.rb (GET metric_images) present every record without paginate.
  it.each([
    ['admin.application_list', {}],
    ['admin.custom_attr_list', { project_id: '1' }],
    ['admin.alert_metric_image_list', { project_id: '1', alert_iid: 1 }],
  ])('%s offers no paging the instance would ignore', (id, base) => {
    const validate = validatorFor(inputSchema(action(id)));
    expect(validate({ ...base })).toBe(true);
    expect(validate({ ...base, page: 2 })).toBe(false);
    expect(validate({ ...base, per_page: 50 })).toBe(false);
  });

  // lib/api/topics.rb (GET /topics): organization_id, defaulting to the current organization.
  it('admin.topic_list filters by organization', () => {
    expect(accepts('admin.topic_list', { organization_id: 3 })).toBe(true);
    expect(sentQuery('admin.topic_list', { organization_id: 3 })).toMatchObject({ organization_id: 3 });
  });

  // lib/api/bulk_imports.rb: status takes BulkImport.all_human_statuses and BulkImports::Entity.all_human_statuses,
  // both holding canceled (state :canceled, value: -2); GET :import_id/entities declares no sort.
  it('the migration lists filter by canceled', () => {
    expect(accepts('admin.bulk_import_list', { status: 'canceled' })).toBe(true);
    expect(accepts('admin.bulk_import_entity_list', { status: 'canceled' })).toBe(true);
    expect(accepts('admin.bulk_import_list', { status: 'cancelled' })).toBe(false);
    expect(param('admin.bulk_import_entity_list', 'sort').description).toContain('ignores it with import_id');
  });

  // ee/lib/api/dependencies.rb: package_manager takes Sbom::DependenciesFinder::FILTER_PACKAGE_MANAGERS_VALUES, which
  // holds poetry, apk, conda, pub and cargo besides the 14 offered before.
  it('dependency.list filters by every package manager the dependency finder knows', () => {
    expect(accepts('dependency.list', { package_manager: ['poetry', 'apk', 'conda', 'pub', 'cargo'] })).toBe(
      true,
    );
    expect(accepts('dependency.list', { package_manager: ['rpm'] })).toBe(false);
  });

  // lib/api/files.rb: ref is allow_blank: false on the file, raw file, metadata and blame reads.
  it.each([
    'repository.file_get',
    'repository.file_metadata',
    'repository.file_raw',
    'repository.file_raw_metadata',
    'repository.file_blame',
  ])('%s refuses an empty ref', (id) => {
    expect(accepts(id, { ref: '' })).toBe(false);
    expect(accepts(id, { ref: 'main' })).toBe(true);
  });

  // lib/api/repositories.rb (GET :id/repository/archive) requires format to match Gitlab::PathRegex
  // .archive_formats_regex: zip, tar, tar.gz, tgz, gz, tar.bz2, tbz, tbz2, tb2, bz2.
  // ee/lib/api/group_service_accounts.rb (GET :id/service_accounts/:user_id/personal_access_tokens) uses
  // access_token_params: the creation, last use and expiry filters besides state, revoked, search and sort.
  it('group.service_account_pat_list filters by creation, last use and expiry', () => {
    const args = {
      user_id: 7,
      created_after: '2026-01-01T00:00:00Z',
      created_before: '2026-02-01T00:00:00Z',
      last_used_after: '2026-01-01T00:00:00Z',
      last_used_before: '2026-02-01T00:00:00Z',
      expires_after: '2026-03-01',
      expires_before: '2026-04-01',
    };
    expect(accepts('group.service_account_pat_list', args)).toBe(true);
    expect(sentQuery('group.service_account_pat_list', args)).toMatchObject({ expires_after: '2026-03-01' });
  });

  // Project.vulnerabilities in the instance's GraphQL schema (test/fixtures/instance-graphql-schema.graphql) also
  // filters by hasMergeRequest, hasRemediations, dismissalReason, scanner and identifierName.
  it('vulnerability.list filters by merge request, remediation, dismissal reason, scanner and identifier', () => {
    const args = {
      has_merge_request: false,
      has_remediations: true,
      dismissal_reason: ['FALSE_POSITIVE'],
      scanner: ['semgrep'],
      identifier_name: 'CVE-2021-44228',
    };
    expect(accepts('vulnerability.list', args)).toBe(true);
    expect(accepts('vulnerability.list', { dismissal_reason: ['WONT_FIX'] })).toBe(false);
    const a = action('vulnerability.list');
    const g = a.request && 'graphql' in a.request ? a.request.graphql : undefined;
    if (!g) throw new Error('vulnerability.list is a GraphQL action');
    expect(graphqlVariables(g, { ...a.example, ...args })).toMatchObject({
      hasMergeRequest: false,
      hasRemediations: true,
      dismissalReason: ['FALSE_POSITIVE'],
      scanner: ['semgrep'],
      identifierName: 'CVE-2021-44228',
    });
  });

  // Project.vulnerabilitySeveritiesCount takes the same finding filters.
  it("vulnerability.severity_count counts with the list's finding filters", () => {
    const args = { has_issues: false, has_resolution: true, has_merge_request: false, scanner: ['semgrep'] };
    expect(accepts('vulnerability.severity_count', args)).toBe(true);
    const a = action('vulnerability.severity_count');
    const g = a.request && 'graphql' in a.request ? a.request.graphql : undefined;
    if (!g) throw new Error('vulnerability.severity_count is a GraphQL action');
    expect(graphqlVariables(g, { ...a.example, ...args })).toMatchObject({
      hasIssues: false,
      hasResolution: true,
      hasMergeRequest: false,
      scanner: ['semgrep'],
    });
  });

  // Project.vulnerabilities and Project.vulnerabilitySeveritiesCount also take owaspTopTen, scannerId,
  // hasAiResolution, image and clusterAgentId (the instance's GraphQL schema).
  it('vulnerability.list and severity_count filter by OWASP category, scanner ID, AI resolution, image and cluster agent', () => {
    const args = {
      owasp_top_ten: ['A1_2017', 'NONE'],
      scanner_id: ['gid://gitlab/Vulnerabilities::Scanner/7'],
      has_ai_resolution: true,
      image: ['registry.example.com/acme/app:1.4'],
      cluster_agent_id: ['gid://gitlab/Clusters::Agent/3'],
    };
    for (const id of ['vulnerability.list', 'vulnerability.severity_count']) {
      expect(accepts(id, args), id).toBe(true);
      expect(accepts(id, { owasp_top_ten: ['A1_2021'] }), id).toBe(false);
      expect(accepts(id, { scanner_id: ['7'] }), id).toBe(false);
      expect(accepts(id, { cluster_agent_id: ['gid://gitlab/Vulnerabilities::Scanner/7'] }), id).toBe(false);
    }
  });

  // lib/api/pages_domains.rb (GET /pages/domains): optional domain, found case-insensitively.
  it('project.pages_domain_list_all finds one domain across the instance', () => {
    expect(accepts('project.pages_domain_list_all', { domain: 'docs.example.com' })).toBe(true);
    expect(sentQuery('project.pages_domain_list_all', { domain: 'docs.example.com' })).toMatchObject({
      domain: 'docs.example.com',
    });
  });

  // ee/lib/api/geo_sites.rb (GET /geo_sites/:id/status): refresh asks the site itself, ignoring the cache.
  it('geo.get_status can ask the site for its latest status', () => {
    expect(accepts('geo.get_status', { refresh: true })).toBe(true);
    expect(sentQuery('geo.get_status', { refresh: true })).toMatchObject({ refresh: true });
  });

  // ee/lib/api/helpers/member_roles_helpers.rb (get_roles) presents every role without paginate.
  it.each([
    ['member_role.list_group', { group_id: '10' }],
    ['member_role.list_instance', {}],
  ])('%s offers no paging the instance would ignore', (id, base) => {
    const validate = validatorFor(inputSchema(action(id)));
    expect(validate({ ...base })).toBe(true);
    expect(validate({ ...base, page: 2 })).toBe(false);
  });

  it('repository.archive builds links for the tgz and gz formats too', () => {
    for (const format of ['tgz', 'gz']) expect(accepts('repository.archive', { format }), format).toBe(true);
    expect(accepts('repository.archive', { format: '7z' })).toBe(false);
  });
});

describe("read filters the instance's OpenAPI description declares (fourth sweep)", () => {
  const accepts = (id: string, args: Record<string, unknown>): boolean => {
    const a = action(id);
    return validatorFor(inputSchema(a))({ ...a.example, ...args }) as boolean;
  };
  const sentQuery = (id: string, args: Record<string, unknown>) =>
    buildRest(action(id), rest(action(id)), { ...action(id).example, ...args }).query;

  // lib/api/issues.rb: issues_stats_params uses issues_stats_params_ee (ee/lib/ee/api/helpers/issues_helpers.rb):
  // weight and epic_id (an ID, None or Any), iteration_id or iteration_title (one of them); the description
  // (Feb 2026) adds health_status with on_track, needs_attention, at_risk, none and any.
  it.each(['issue.statistics_get', 'issue.statistics_get_group', 'issue.statistics_get_project'])(
    '%s counts by weight, epic, health status and iteration',
    (id) => {
      const args = { weight: 3, epic_id: 'None', health_status: 'at_risk', iteration_id: 'Current' };
      expect(accepts(id, args)).toBe(true);
      expect(sentQuery(id, args)).toMatchObject(args);
      expect(accepts(id, { iteration_title: 'Sprint 4' })).toBe(true);
      expect(accepts(id, { health_status: 'late' })).toBe(false);
      expect(action(id).exclusive).toContainEqual(['iteration_id', 'iteration_title']);
    },
  );

  // GET /groups/:id/issues declares issues_params, as the other issue lists: closed_by_id, milestone_id,
  // the not hash, the EE iteration pair and health_status.
  it('group.issues takes every filter of the issue lists', () => {
    const args = {
      closed_by_id: 3,
      milestone_id: 'Started',
      health_status: 'needs_attention',
      iteration_id: 7,
      not: { labels: 'wontfix' },
    };
    expect(accepts('group.issues', args)).toBe(true);
    expect(sentQuery('group.issues', args)).toMatchObject(args);
    expect(accepts('group.issues', { iteration_title: 'Sprint 4' })).toBe(true);
    expect(accepts('group.issues', { milestone_id: 'Later' })).toBe(false);
    expect(action('group.issues').exclusive).toEqual(action('issue.list_group').exclusive);
  });

  // The health_status filter's declared values are lowercase (none, any).
  it.each(['issue.list', 'issue.list_all', 'issue.list_group', 'group.issues'])(
    '%s filters by health status none or any as declared',
    (id) => {
      expect(accepts(id, { health_status: 'none' })).toBe(true);
      expect(accepts(id, { health_status: 'any' })).toBe(true);
      expect(accepts(id, { health_status: 'None' })).toBe(false);
    },
  );

  // GET /projects/:id/jobs takes ref (the branch or tag the jobs ran for; the description, Feb 2026).
  it('job.list_project filters by branch or tag', () => {
    expect(accepts('job.list_project', { ref: 'main' })).toBe(true);
    expect(sentQuery('job.list_project', { ref: 'main' })).toMatchObject({ ref: 'main' });
  });

  // lib/api/deployments.rb (GET :id/deployments/:deployment_id/merge_requests) declares merge_requests_base_params
  // (lib/api/helpers/merge_requests_helpers.rb): the merge request list filters without the EE approval ones.
  it('environment.deployment_merge_requests takes the merge request list filters', () => {
    const args = {
      author_username: 'ada',
      labels: 'bug',
      source_branch: 'feature/login',
      wip: 'no',
      not: { labels: 'wip' },
      created_after: '2026-01-31T08:00:00Z',
    };
    expect(accepts('environment.deployment_merge_requests', args)).toBe(true);
    expect(sentQuery('environment.deployment_merge_requests', args)).toMatchObject(args);
    expect(accepts('environment.deployment_merge_requests', { approved_by_ids: [2] })).toBe(false);
    expect(accepts('environment.deployment_merge_requests', { wip: 'maybe' })).toBe(false);
  });

  // ee/lib/api/epics.rb (GET :id/epics): optional :not, a Hash of negatable_epic_filter_params (labels, author_id,
  // author_username).
  it('group.epic_list leaves out epics by label or author', () => {
    const args = { not: { labels: 'wontfix', author_username: 'bot' } };
    expect(accepts('group.epic_list', args)).toBe(true);
    expect(sentQuery('group.epic_list', args)).toMatchObject(args);
    expect(accepts('group.epic_list', { not: { state: 'closed' } })).toBe(false);
  });

  // app/models/todo.rb (ACTION_NAMES: review_submitted, okr_checkin_requested beside the older ten) and the
  // description's GET /todos (Feb 2026: the approver, SSH key and Duo access actions; WorkItem, Key, User and
  // compliance violation targets); GitLab's to-do list filters by each.
  it('user.todo_list filters by every to-do action and target type the instance declares', () => {
    for (const action of [
      'review_submitted',
      'okr_checkin_requested',
      'added_approver',
      'ssh_key_expiring_soon',
    ])
      expect(accepts('user.todo_list', { action }), action).toBe(true);
    for (const type of ['WorkItem', 'Key', 'User', 'ComplianceManagement::Projects::ComplianceViolation'])
      expect(accepts('user.todo_list', { type }), type).toBe(true);
    expect(accepts('user.todo_list', { action: 'liked' })).toBe(false);
    expect(sentQuery('user.todo_list', { type: 'WorkItem' })).toMatchObject({ type: 'WorkItem' });
  });

  // The description's package lists (GET :id/packages for projects and groups, Feb 2026) take status deprecated,
  // the state GitLab gives a package marked deprecated (its package status enum: DEPRECATED).
  it.each(['package.list', 'package.group_list'])('%s lists deprecated packages', (id) => {
    expect(accepts(id, { status: 'deprecated' })).toBe(true);
    expect(sentQuery(id, { status: 'deprecated' })).toMatchObject({ status: 'deprecated' });
    expect(accepts(id, { status: 'archived' })).toBe(false);
  });

  // lib/api/helpers/custom_attributes.rb: with_custom_attributes comes with custom_attributes, a hash the users,
  // groups and projects finders filter by (CustomAttributesFilter, administrators only; project_finder_params
  // passes it on).
  it.each([
    'user.list',
    'project.list',
    'project.list_user_projects',
    'project.list_user_starred',
    'project.list_forks',
    'group.list',
    'group.search',
    'group.subgroups',
    'group.projects',
    'group.shared_projects',
  ])('%s filters by custom attributes', (id) => {
    const args = { custom_attributes: { department: 'sales' } };
    expect(accepts(id, args)).toBe(true);
    expect(sentQuery(id, args)).toMatchObject(args);
    expect(accepts(id, { custom_attributes: 'sales' })).toBe(false);
  });

  // app/finders/deployments_finder.rb (the newest stored version, with UpdatedAtFilter): ALLOWED_SORT_VALUES, which
  // lib/api/deployments.rb declares as order_by's values, no longer holds ref; the description (Feb 2026) agrees.
  it('environment.deployment_list offers no ref order the instance refuses', () => {
    expect(accepts('environment.deployment_list', { order_by: 'ref' })).toBe(false);
    expect(accepts('environment.deployment_list', { order_by: 'iid' })).toBe(true);
  });

  // GET /users takes public_email (the description, Feb 2026; GitLab's own API client lists users by it).
  it('user.list finds a user by public email', () => {
    expect(accepts('user.list', { public_email: 'alice@example.com' })).toBe(true);
    expect(sentQuery('user.list', { public_email: 'alice@example.com' })).toMatchObject({
      public_email: 'alice@example.com',
    });
  });
});

describe('write actions checked against the endpoint code (fifth sweep)', () => {
  const accepts = (id: string, args: Record<string, unknown>): boolean =>
    validatorFor(inputSchema(action(id)))({ ...structuredClone(action(id).example), ...args });

  // lib/api/pages.rb (patch ':id/pages') reads pages_primary_domain; pages_default_domain_redirect is the
  // name it had before the rename, which the instance no longer reads.
  it('project.pages_update sends pages_primary_domain under its own name', () => {
    const a = action('project.pages_update');
    expect(a.params.pages_primary_domain.wire).toBeUndefined();
    const built = buildRest(a, rest(a), { project_id: '1', pages_primary_domain: 'docs.example.com' });
    expect(built.body).toEqual({ pages_primary_domain: 'docs.example.com' });
  });

  // lib/api/ci/variables.rb, lib/api/group_variables.rb, lib/api/admin/ci/variables.rb: value is optional on
  // update (the docs tables mark it required); an update of an option alone keeps the value.
  it.each([
    ['ci_variable.update', { project_id: '1', key: 'DEPLOY_ENV' }],
    ['ci_variable.group_update', { group_id: '10', key: 'REGISTRY_USER' }],
    ['ci_variable.instance_update', { key: 'COMPANY_PROXY' }],
  ])('%s accepts an update without value (keeps it)', (id, ids) => {
    const a = action(id);
    expect(a.required).not.toContain('value');
    expect(validatorFor(inputSchema(a))({ ...ids, protected: true })).toBe(true);
    expect(a.params.value.description).toMatch(/leave it out to keep the current one/);
    expect(action(id.replace('update', 'create')).required).toContain('value');
  });

  it(
    'an update of a project variable without value sends the option alone',
    { timeout: 60_000 },
    async () => {
      const s = await sim();
      try {
        await withStdio(s, {}, async (c) => {
          const since = s.requests.length;
          const r = await c.client.callTool({
            name: 'forge_execute_action',
            arguments: {
              action: 'ci_variable.update',
              params: { project_id: '1', key: 'DEPLOY_ENV', protected: true },
            },
          });
          const sent = apiCalls(s, since).filter((q) => q.method === 'PUT');
          expect(
            sent.map((q) => q.path),
            textOf(r),
          ).toEqual(['/api/v4/projects/1/variables/DEPLOY_ENV']);
          expect(sent[0]!.body).toEqual({ protected: true });
        });
      } finally {
        await s.close();
      }
    },
  );

  // lib/api/pages_domains.rb (post ':id/pages/domains'): all_or_none_of :certificate, :key. The update takes either
  // alone (a new certificate keeps the key).
  it(
    'a Pages domain is refused with a certificate but no key; with both, both are sent',
    { timeout: 60_000 },
    async () => {
      const s = await sim();
      try {
        await withStdio(s, {}, async (c) => {
          const since = s.requests.length;
          const call = (params: Record<string, unknown>) =>
            c.client.callTool({
              name: 'forge_execute_action',
              arguments: { action: 'project.pages_domain_create', params },
            });
          const ids = { project_id: '1', domain: 'docs.example.com' };
          const r = await call({ ...ids, certificate: 'CERT' });
          expect(r.isError).toBe(true);
          expect(textOf(r)).toBe(
            'project.pages_domain_create: certificate was given without key, and the instance reads certificate only together with key: give key too, or leave certificate out.',
          );
          expect(apiCalls(s, since)).toEqual([]);
          const ok = await call({ ...ids, certificate: 'CERT', key: 'KEY' });
          const sent = apiCalls(s, since).filter((q) => q.method === 'POST');
          expect(
            sent.map((q) => q.path),
            textOf(ok),
          ).toEqual(['/api/v4/projects/1/pages/domains']);
          expect(sent[0]!.body).toEqual({ domain: 'docs.example.com', certificate: 'CERT', key: 'KEY' });
        });
      } finally {
        await s.close();
      }
      expect(action('project.pages_domain_update').needs).toBeUndefined();
    },
  );

  // lib/api/feature_flags.rb (post): each strategy requires its name, each of its scopes an environment_scope; the
  // update names strategies and scopes by id instead, so neither is required there.
  it('feature_flags.feature_flag_create requires a strategy name and a scope environment', () => {
    const strategy = { name: 'default', parameters: {}, scopes: [{ environment_scope: '*' }] };
    const ok = { project_id: '1', name: 'beta', version: 'new_version_flag' };
    expect(accepts('feature_flags.feature_flag_create', { ...ok, strategies: [strategy] })).toBe(true);
    expect(accepts('feature_flags.feature_flag_create', { ...ok, strategies: [{ name: 'default' }] })).toBe(
      true,
    );
    expect(accepts('feature_flags.feature_flag_create', { ...ok, strategies: [{ parameters: {} }] })).toBe(
      false,
    );
    expect(
      accepts('feature_flags.feature_flag_create', { ...ok, strategies: [{ ...strategy, scopes: [{}] }] }),
    ).toBe(false);
    const ids = { project_id: '1', feature_flag_name: 'beta' };
    expect(
      accepts('feature_flags.feature_flag_update', { ...ids, strategies: [{ id: 3, _destroy: true }] }),
    ).toBe(true);
    expect(
      accepts('feature_flags.feature_flag_update', {
        ...ids,
        strategies: [{ id: 3, scopes: [{ id: 4, _destroy: true }] }],
      }),
    ).toBe(true);
  });

  // lib/api/commit_statuses.rb (post :id/statuses/:sha): ref, target_url and description must be 255 characters or
  // fewer.
  it('repository.commit_status_set refuses a ref, link or description over 255 characters', () => {
    const long = 'x'.repeat(256);
    for (const [name, ok] of [
      ['ref', 'x'.repeat(255)],
      ['description', 'x'.repeat(255)],
      ['target_url', `https://ci.example.com/${'x'.repeat(232)}`],
    ]) {
      expect(accepts('repository.commit_status_set', { [name]: ok }), name).toBe(true);
      const over = name === 'target_url' ? `https://ci.example.com/${long}` : long;
      expect(accepts('repository.commit_status_set', { [name]: over }), name).toBe(false);
    }
  });

  // lib/api/applications.rb (post applications): scopes is allow_blank: false.
  it('admin.application_create refuses empty scopes', () => {
    expect(accepts('admin.application_create', { scopes: '' })).toBe(false);
    expect(accepts('admin.application_create', { scopes: 'read_api openid' })).toBe(true);
  });

  // lib/api/branches.rb (post): ref is allow_blank: false. ee/app/models/saml_group_link.rb: a SAML group name is at
  // most 255 characters.
  it('branch.create refuses an empty ref; group.saml_link_add a group name over 255 characters', () => {
    expect(accepts('branch.create', { ref: '' })).toBe(false);
    expect(accepts('group.saml_link_add', { saml_group_name: 'g'.repeat(255) })).toBe(true);
    expect(accepts('group.saml_link_add', { saml_group_name: 'g'.repeat(256) })).toBe(false);
  });

  // lib/api/wikis.rb (put): format is declared with default markdown and the update reads params whole.
  it.each(['wiki.update', 'group.wiki_edit'])(
    '%s says an update without format turns the page into markdown',
    (id) => {
      expect(param(id, 'format').description).toMatch(/sets it to markdown when an update leaves it out/);
    },
  );

  // lib/api/ci/pipeline_schedules.rb: create reads each input's name and value only; update also takes
  // destroy, and requires the value only of an input it keeps (given destroy: value != true).
  it('pipeline schedule inputs: destroy only on update, where a removed input needs no value', () => {
    const create = { project_id: '1', description: 'Nightly', ref: 'main', cron: '0 2 * * *' };
    expect(accepts('pipeline.schedule_create', { ...create, inputs: [{ name: 'env', value: 'x' }] })).toBe(
      true,
    );
    expect(accepts('pipeline.schedule_create', { ...create, inputs: [{ name: 'env' }] })).toBe(false);
    expect(action('pipeline.schedule_create').params.inputs.items).not.toHaveProperty('properties.destroy');
    const ids = { project_id: '1', pipeline_schedule_id: 1 };
    expect(accepts('pipeline.schedule_update', { ...ids, inputs: [{ name: 'env', destroy: true }] })).toBe(
      true,
    );
    expect(accepts('pipeline.schedule_update', { ...ids, inputs: [{ name: 'env', value: 'y' }] })).toBe(true);
    expect(accepts('pipeline.schedule_update', { ...ids, inputs: [{ name: 'env' }] })).toBe(false);
    expect(accepts('pipeline.schedule_update', { ...ids, inputs: [{ name: 'env', destroy: false }] })).toBe(
      false,
    );
    // ref is allow_blank: false.
    expect(accepts('pipeline.schedule_create', { ...create, ref: '' })).toBe(false);
  });

  // lib/api/resource_access_tokens.rb: scopes take Gitlab::Auth.resource_bot_scopes, the non-administrator
  // scopes without read_user.
  it.each(['access.token_group_create', 'access.token_project_create'])(
    '%s offers the scopes a bot may hold, and no other',
    (id) => {
      expect(accepts(id, { scopes: ['api', 'self_rotate', 'read_virtual_registry'] })).toBe(true);
      for (const scope of ['read_user', 'sudo', 'admin_mode', 'read_service_ping', 'apii'])
        expect(accepts(id, { scopes: [scope] }), scope).toBe(false);
    },
  );

  // lib/api/projects/registry/protection/repository/rules.rb (patch): "" unsets a role requirement.
  it('package.registry_rule_update takes "" to remove a role requirement', () => {
    expect(accepts('package.registry_rule_update', { minimum_access_level_for_push: '' })).toBe(true);
    expect(accepts('package.registry_rule_update', { minimum_access_level_for_delete: '' })).toBe(true);
    expect(action('package.registry_rule_update').params.minimum_access_level_for_push.description).toMatch(
      /empty string "" removes the requirement/,
    );
    // Creating takes a role only.
    expect(accepts('package.registry_rule_create', { minimum_access_level_for_push: '' })).toBe(false);
  });

  // lib/api/release/links.rb (put): link_type is declared with default other, so an update leaving it out
  // turns the link back to other.
  it('release.link_update says an update without link_type resets it to other', () => {
    expect(param('release.link_update', 'link_type').description).toMatch(/sets it back to other/);
    expect(param('release.link_create', 'link_type').description).not.toMatch(/sets it back/);
  });

  // lib/api/discussions.rb: a commit diff position takes the image fields beside the line fields.
  it('repository.commit_discussion_create places a thread on an image', () => {
    const position = {
      base_sha: 'a'.repeat(40),
      start_sha: 'a'.repeat(40),
      head_sha: 'b'.repeat(40),
      position_type: 'image',
      new_path: 'logo.png',
      width: 100,
      height: 50,
      x: 10,
      y: 20,
    };
    expect(accepts('repository.commit_discussion_create', { position })).toBe(true);
    expect(accepts('repository.commit_discussion_create', { position: { ...position, width: 0 } })).toBe(
      false,
    );
  });
});
