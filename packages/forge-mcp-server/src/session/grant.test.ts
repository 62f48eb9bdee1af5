import { describe, expect, it } from 'vitest';
import { catalog } from '../catalog/index.js';
import { fineGrainedTable } from '../catalog/fine-grained.generated.js';

const FINE_GRAINED = fineGrainedTable();
import { evaluateGrant, FineGrainedGate, judgeVersion, permissionId } from './grant.js';

const SIM_GRANT = {
  granular_scopes: [
    { access: 'user', permissions: ['read_user', 'read_personal_access_token', 'read_namespace'] },
    { access: 'instance', permissions: ['read_metadata'] },
    {
      access: 'selected_memberships',
      project_ids: [1],
      permissions: ['read_project', 'read_work_item', 'read_merge_request'],
    },
  ],
};

const action = (id: string) => catalog().get(id)!;

function gateOf(body: unknown, mode: 'judged' | 'prerelease' = 'judged'): FineGrainedGate {
  const r = evaluateGrant(body, JSON.stringify(body).length);
  if (!r.ok) throw new Error('grant not evaluated');
  return new FineGrainedGate(mode, r.grant);
}

describe('the fine-grained table', () => {
  it('covers every catalog action and splits the 58 withheld ones 34/20/3/1', () => {
    const ids = catalog().actions.map((a) => a.id);
    expect(Object.keys(FINE_GRAINED).sort()).toEqual([...ids].sort());
    const kinds: Record<string, number> = {};
    for (const r of Object.values(FINE_GRAINED))
      if (r.withheld) kinds[r.withheld.kind] = (kinds[r.withheld.kind] ?? 0) + 1;
    expect(kinds).toEqual({ type: 34, payload: 20, mutation: 3, boundary: 1 });
    expect(FINE_GRAINED['group.epic_create'].withheld?.kind).toBe('boundary');
    expect(FINE_GRAINED['group.epic_list'].reach).toBe('yes');
    const reach: Record<string, number> = {};
    for (const r of Object.values(FINE_GRAINED)) reach[r.reach] = (reach[r.reach] ?? 0) + 1;
    expect(reach).toEqual({ yes: 1022, no: 58, 'not-judged': 17, 'no-permission': 1 });
  });

  it('withholds only GraphQL-based actions (a GraphQL request or a GraphQL handler)', () => {
    const withheld = catalog().actions.filter((a) => FINE_GRAINED[a.id].reach === 'no');
    expect(withheld).toHaveLength(58);
    const rest = withheld.filter((a) => !(a.request && 'graphql' in a.request));
    // The other two are handlers over the GraphQL target-branch rules.
    expect(rest.map((a) => a.id).sort()).toEqual([
      'project.target_branch_rule_create',
      'project.target_branch_rule_list',
    ]);
    expect(rest.every((a) => a.handler && !a.request)).toBe(true);
  });

  it('note creation on issues and merge requests needs Work Item: Create; merge-request discussions Merge Request: Create', () => {
    for (const id of ['issue.note_create', 'mr_review.note_create'])
      expect(FINE_GRAINED[id].needs, id).toEqual([[['Work Item: Create', ['project']]]]);
    expect(FINE_GRAINED['mr_review.discussion_create'].needs).toEqual([
      [['Merge Request: Create', ['project']]],
    ]);
  });

  it('keeps alternatives of conjunctions with their boundaries', () => {
    expect(FINE_GRAINED['search.code'].needs).toEqual([
      [['Global Search: Use', ['group']]],
      [['Global Search: Use', ['project']]],
      [['Global Search: Use', ['user']]],
    ]);
    expect(FINE_GRAINED['environment.deployment_merge_requests'].needs).toEqual([
      [
        ['Deployment: Read', ['project']],
        ['Merge Request: Read', ['project']],
      ],
    ]);
  });
});

describe('permission names', () => {
  it('maps the token page spelling to grant identifiers', () => {
    expect(permissionId('Work Item: Read')).toBe('read_work_item');
    expect(permissionId('Merge Request: Create')).toBe('create_merge_request');
    expect(permissionId('Personal Access Token: Read')).toBe('read_personal_access_token');
  });
});

describe('evaluateGrant', () => {
  it('reads the access levels into boundaries', () => {
    const r = evaluateGrant(SIM_GRANT, 100);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect([...r.grant.held.get('read_work_item')!].sort()).toEqual(['group', 'project']);
    expect([...r.grant.held.get('read_user')!]).toEqual(['user']);
    expect(r.grant.ids.get('read_work_item')).toEqual(new Set([1]));
  });

  it('refuses over 1 MiB, over 1000 scopes and unreadable shapes', () => {
    expect(evaluateGrant(SIM_GRANT, 1024 * 1024 + 1).ok).toBe(false);
    const many = {
      granular_scopes: [
        {
          access: 'selected_memberships',
          project_ids: Array.from({ length: 1001 }, (_, i) => i + 1),
          permissions: ['read_project'],
        },
      ],
    };
    expect(evaluateGrant(many, 10).ok).toBe(false);
    many.granular_scopes[0].project_ids = many.granular_scopes[0].project_ids.slice(0, 1000);
    expect(evaluateGrant(many, 10).ok).toBe(true);
    expect(evaluateGrant({}, 10).ok).toBe(false);
    expect(evaluateGrant({ granular_scopes: [{ access: 'galaxy', permissions: [] }] }, 10).ok).toBe(false);
    expect(evaluateGrant({ granular_scopes: [{ access: 'user', permissions: 'read_user' }] }, 10).ok).toBe(
      false,
    );
  });

  it('refuses unknown permission names, keeping at most three cut to 64 bytes', () => {
    const long = 'x'.repeat(100);
    const r = evaluateGrant(
      { granular_scopes: [{ access: 'user', permissions: ['read_user', long, 'fly_a', 'fly_b', 'fly_c'] }] },
      10,
    );
    expect(r).toEqual({ ok: false, unknown: ['x'.repeat(64), 'fly_a', 'fly_b'] });
    // Bytes, not characters, and never half a character.
    const wide = evaluateGrant(
      {
        granular_scopes: [{ access: 'user', permissions: ['\u00e9'.repeat(40), `a${'\u00e9'.repeat(40)}`] }],
      },
      10,
    );
    expect(wide).toEqual({ ok: false, unknown: ['\u00e9'.repeat(32), `a${'\u00e9'.repeat(31)}`] });
  });
});

describe('judgeVersion', () => {
  it('judges 19.4.x, lists 19.5.0-pre as 19.4.1, falls back otherwise', () => {
    expect(judgeVersion('19.4.1-ee')).toBe('judged');
    expect(judgeVersion('19.4.0')).toBe('judged');
    expect(judgeVersion('19.5.0-pre')).toBe('prerelease');
    expect(judgeVersion('19.5.0')).toEqual({ fallback: 'version-outside-record' });
    expect(judgeVersion('19.3.2-ee')).toEqual({ fallback: 'version-outside-record' });
    expect(judgeVersion('18.4.1')).toEqual({ fallback: 'version-outside-record' });
    expect(judgeVersion(undefined)).toEqual({ fallback: 'version-unreadable' });
    // At most 64 bytes: 64 are read, 65 are not.
    expect(judgeVersion('19.4.1-' + 'x'.repeat(57))).toBe('judged');
    expect(judgeVersion('19.4.1-' + 'x'.repeat(58))).toEqual({ fallback: 'version-unreadable' });
    expect(judgeVersion('19.4.1-' + '\u00e9'.repeat(29))).toEqual({ fallback: 'version-unreadable' });
    expect(judgeVersion('nonsense')).toEqual({ fallback: 'version-unreadable' });
  });
});

describe('FineGrainedGate', () => {
  it('reaches what the grant holds and names the missing permission at its boundary', () => {
    const g = gateOf(SIM_GRANT);
    expect(g.callRefusal(action('issue.list'))).toBeUndefined();
    const text = g.callRefusal(action('issue.create'))!;
    expect(text).toMatch(/^issue\.create exists but this fine-grained token's grant does not reach it/);
    expect(text).toContain('Work Item: Create at the project boundary');
    expect(text).toContain('19.4.1');
    expect(text).toContain('classic token with the api scope');
    expect(text).toMatch(/Do not report this capability as missing[^.]*\.$/);
  });

  it('names one permission needed at any of several boundaries once', () => {
    const text = gateOf(SIM_GRANT).callRefusal(action('search.code'))!;
    expect(text).toContain('Global Search: Use at the group or project or user boundary');
  });

  it('withholds the 58 from every fine-grained session, naming the declaration and the classic scope', () => {
    const g = gateOf(SIM_GRANT);
    const read = g.callRefusal(action('achievement.list'))!;
    expect(read).toContain('the type Namespace on its answer path declares no fine-grained permission');
    expect(read).toContain('read_api scope');
    const write = g.callRefusal(action('group.epic_create'))!;
    expect(write).toContain('never resolves to the boundary');
    expect(write).toContain('with the api scope');
    expect(write).toMatch(/Do not report this capability as missing[^.]*\.$/);
    const fb = FineGrainedGate.fallback('version-outside-record');
    expect(fb.callRefusal(action('issue.create'))).toBeUndefined();
    expect(fb.callRefusal(action('achievement.list'))).toContain('was not evaluated');
  });

  it('prerelease: lists by the grant but passes every call the fallback allows', () => {
    const g = gateOf(SIM_GRANT, 'prerelease');
    expect(g.listingRefusal(action('issue.create'))).toBeDefined();
    expect(g.callRefusal(action('issue.create'))).toBeUndefined();
    expect(g.callRefusal(action('achievement.list'))).toBeDefined();
  });

  it('knows whether the grant holds a permission at some project or group', () => {
    const g = gateOf(SIM_GRANT);
    expect(g.holdsElsewhere('read_work_item')).toBe(true);
    expect(g.holdsElsewhere('Work Item: Read')).toBe(true);
    expect(g.holdsElsewhere('create_work_item')).toBe(false);
  });
});
