/**
 * The people, team and audit prompts over real stdio against forge-sim: each is listed with its arguments and
 * renders what the instance holds (work done now through its API, by the session's user alice and by bob), a
 * missing argument or an unknown person is refused, and a read that fails is quoted in the prompt.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiCalls, sim, testSecret, withStdio, type Connected, type ForgeSim } from './harness.js';
import { change, failure, promptText as prompt } from './prompting.js';

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => s.close());
beforeEach(() => s.reset());

const withClient = async <T>(env: Record<string, string>, fn: (c: Connected) => Promise<T>) =>
  (await withStdio(s, { env }, fn)).value;

/** A change made on the instance through its API (as alice unless another token is given): it must succeed. */
const api = (method: string, path: string, body: Record<string, unknown>, token?: string) =>
  change(s, method, path, body, token);

/** Each prompt's arguments as prompts/list gives them (`*` required). */
const ARGS: Record<string, string[]> = {
  user_stats: ['project_id*', 'username', 'days'],
  my_activity_summary: ['days'],
  user_activity_report: ['group_id*', 'username*', 'days'],
  team_overview: ['group_id*'],
  reviewer_workload: ['group_id*'],
  weekly_team_recap: ['group_id*', 'days'],
  group_milestone_progress: ['group_id*'],
  audit_project_workflow: ['project_id*'],
  audit_project_full: ['project_id*'],
};

/**
 * Work of today (the seeded items date from January 2025). Alice opens and merges !4, closes her issue #6, opens
 * acme/gadgets#2 for herself and comments on #1; bob opens !5 for himself with no reviewer and reports acme/gadgets#3.
 */
async function recentWork() {
  const bob = testSecret(s.addToken({ kind: 'personal', userId: 3, scopes: ['api'] }));
  await api('POST', '/projects/1/merge_requests', {
    title: 'Quick fix',
    source_branch: 'fixtures-refresh',
    target_branch: 'feature/login',
  });
  await api('PUT', '/projects/1/merge_requests/4/merge', {});
  await api('POST', '/projects/1/issues', { title: 'Fresh bug', assignee_ids: [2] });
  await api('PUT', '/projects/1/issues/6', { state_event: 'close' });
  await api('POST', '/projects/2/issues', { title: 'Gadget docs', assignee_ids: [2] });
  await api('POST', '/projects/1/issues/1/notes', { body: 'On it.' });
  await api(
    'POST',
    '/projects/1/merge_requests',
    {
      title: 'Bob tweak',
      source_branch: 'feature/login',
      target_branch: 'fixtures-refresh',
      assignee_ids: [3],
    },
    bob,
  );
  await api('POST', '/projects/2/issues', { title: 'Gadget melts' }, bob);
}

const rows = (...lines: string[]) => lines.join('\n');

describe('people, team and audit prompts', () => {
  it('prompts/list shows each with its arguments; a missing required argument is refused naming it, nothing sent', async () => {
    await withClient({}, async (c) => {
      const listed = (await c.client.listPrompts()).prompts;
      for (const [name, args] of Object.entries(ARGS)) {
        const p = listed.find((x) => x.name === name);
        expect(p, name).toBeDefined();
        expect(p!.description, name).toBeTruthy();
        expect(
          (p!.arguments ?? []).map((a) => `${a.name}${a.required ? '*' : ''}`),
          name,
        ).toEqual(args);
      }
      const before = apiCalls(s).length;
      const cases: Array<[string, Record<string, string>, string]> = [
        ['user_stats', {}, 'project_id'],
        ['user_activity_report', { group_id: 'acme' }, 'username'],
        ['user_activity_report', { username: 'alice' }, 'group_id'],
        ['team_overview', {}, 'group_id'],
        ['reviewer_workload', {}, 'group_id'],
        ['weekly_team_recap', { days: '7' }, 'group_id'],
        ['group_milestone_progress', {}, 'group_id'],
        ['audit_project_workflow', {}, 'project_id'],
        ['audit_project_full', {}, 'project_id'],
      ];
      for (const [name, args, missing] of cases) {
        const e = await failure(c.client.getPrompt({ name, arguments: args }));
        expect(e.code, name).toBe(-32602);
        expect(e.message, name).toContain(`Prompt ${name} needs the argument ${missing} (`);
      }
      const days = await failure(
        c.client.getPrompt({ name: 'my_activity_summary', arguments: { days: 'a week' } }),
      );
      expect(days.message).toBe(
        'Prompt my_activity_summary: days must be a positive whole number (for example 7); got "a week".',
      );
      expect(apiCalls(s).length).toBe(before);
    });
  });

  it('an unknown username is refused, nothing about that person asked for', async () => {
    await withClient({}, async (c) => {
      for (const [name, args] of [
        ['user_stats', { project_id: '1', username: 'bobb' }],
        ['user_activity_report', { group_id: 'acme', username: 'bobb' }],
      ] as const) {
        const since = s.requests.length;
        const e = await failure(c.client.getPrompt({ name, arguments: args }));
        expect(e.code).toBe(-32602);
        expect(e.message).toContain(`Prompt ${name}: no user has the username "bobb".`);
        expect(apiCalls(s, since).map((r) => r.path)).toEqual(['/api/v4/users']);
      }
    });
  });

  it("user_stats counts one person's work in a project within the window, the session's user by default", async () => {
    await recentWork();
    await withClient({}, async (c) => {
      const mine = await prompt(c, 'user_stats', { project_id: 'acme/widgets' });
      expect(mine).toMatch(
        /^# Numbers of @alice in acme\/widgets\nOver the last 30 days \(since \d{4}-\d\d-\d\d\)/,
      );
      expect(mine).toContain(
        rows(
          '| Merge requests opened | 1 |',
          '| Merge requests merged | 1 |',
          '| Median time to merge | 0 h |',
          '| Merge requests still open | 0 |',
          '| Merge requests reviewing (updated in the window) | 0 |',
          '| Issues closed (assigned) | 1 |',
          '| Issues open and assigned (updated in the window) | 1 |',
          '| Issues reported | 1 |',
        ),
      );
      expect(mine).toMatch(/## Merged \(1\)\n[^#]*\| !4 \| Quick fix \| \d{4}-[^|]+ \| 0 h \|/);
      // Bob's merged !3 dates from 2025: outside any window.
      const bob = await prompt(c, 'user_stats', { project_id: '1', username: '@bob', days: '1' });
      expect(bob).toMatch(/^# Numbers of @bob in 1\nOver the last 1 day /);
      expect(bob).toContain(
        '| Merge requests opened | 1 |\n| Merge requests merged | 0 |\n| Median time to merge | — |\n| Merge requests still open | 1 |',
      );
      expect(bob).toContain('| Issues reported | 0 |');
    });
  });

  it("user_activity_report names one person's items across the group's projects by their full reference", async () => {
    await recentWork();
    await withClient({}, async (c) => {
      const text = await prompt(c, 'user_activity_report', { group_id: 'acme', username: 'alice' });
      expect(text).toMatch(/^# Activity of @alice in acme\nOver the last 7 days /);
      expect(text).toMatch(/## Merge requests merged \(1\)\n[^#]*\| acme\/widgets!4 \| Quick fix \|/);
      expect(text).toMatch(/## Issues closed \(1\)\n[^#]*\| acme\/widgets#6 \| Fresh bug \|/);
      expect(text).toMatch(
        /## Issues in progress \(2\)\n[^#]*\| acme\/gadgets#2 \| Gadget docs \| — \|[^\n]*\n\| acme\/widgets#1 \| Login button does nothing \| bug \|/,
      );
      expect(text).not.toMatch(/Bob tweak|Gadget melts/);
      const bob = await prompt(c, 'user_activity_report', { group_id: 'acme', username: 'bob' });
      expect(bob).toMatch(
        /## Merge requests opened \(1\)\n[^#]*\| acme\/widgets!5 \| Bob tweak \| opened \|/,
      );
      expect(bob).toMatch(/## Issues reported \(1\)\n[^#]*\| acme\/gadgets#3 \| Gadget melts \|/);
    });
  });

  it("my_activity_summary counts the session user's own events by kind, newest first, each project by its path", async () => {
    await recentWork();
    await withClient({}, async (c) => {
      const text = await prompt(c, 'my_activity_summary', {});
      expect(text).toMatch(/^# Your activity over the last 7 days\n/);
      expect(text).toContain(
        rows(
          '## By kind (6 events)',
          '| Action | Count |',
          '|---|---|',
          '| opened | 3 |',
          '| accepted | 1 |',
          '| closed | 1 |',
          '| commented on | 1 |',
        ),
      );
      expect(text).toMatch(
        /## Events, newest first\n\| When \| Project \| What \|\n\|---\|---\|---\|\n\| [^|]+ \| acme\/widgets \| commented on Issue #1: Login button does nothing \|\n\| [^|]+ \| acme\/gadgets \| opened Issue #2: Gadget docs \|\n\| [^|]+ \| acme\/widgets \| closed Issue #6: Fresh bug \|/,
      );
      expect(text).toMatch(/\| acme\/widgets \| accepted MergeRequest !4: Quick fix \|/);
      // Bob's events are his, not the session's.
      expect(text).not.toMatch(/Bob tweak|Gadget melts/);
      expect(text).toMatch(
        /## Your merge requests still open \(1\)\n[^#]*\| acme\/widgets!2 \| Regenerate fixtures \|/,
      );
    });
  });

  it("team_overview and reviewer_workload show each member's open load, the oldest waiting first, and what nobody owns", async () => {
    await recentWork();
    // A draft without a reviewer is not ready for review.
    await api('POST', '/projects/1/merge_requests', {
      title: 'Draft: Spike',
      source_branch: 'main',
      target_branch: 'feature/login',
    });
    await withClient({}, async (c) => {
      const team = await prompt(c, 'team_overview', { group_id: 'acme' });
      expect(team).toMatch(/^# Team acme: 2 members\n/);
      expect(team).toContain(
        '4 open merge requests, 6 open issues (1 without an assignee); 1 merge request ready for review without a reviewer.',
      );
      expect(team).toMatch(
        /\| Person \| Role \| MRs authored \| Reviews waiting \| Oldest review \(days\) \| Issues assigned \| Total \|\n\|---\|---\|---\|---\|---\|---\|---\|\n\| @alice \| Owner \| 2 \| 2 \| \d{3,} \| 3 \| 7 \|\n\| @bob \| Developer \| 2 \| 0 \| — \| 3 \| 5 \|\n/,
      );
      expect(team).toMatch(
        /## Issues without an assignee \(1\)\n[^#]*\| acme\/gadgets#3 \| Gadget melts \| — \| 0 \|/,
      );
      const reviews = await prompt(c, 'reviewer_workload', { group_id: 'acme' });
      expect(reviews).toContain('4 open merge requests; 2 without a reviewer.');
      expect(reviews).toMatch(/\| @alice \| 2 \| \d{3,} \| acme\/widgets!1, acme\/widgets!2 \|/);
      expect(reviews).toMatch(
        /## Without a reviewer \(2\)\n[^#]*\| acme\/widgets!5 \| Bob tweak \| @bob \| false \| 0 \|\n\| acme\/widgets!6 \| Draft: Spike \| @alice \| true \| 0 \|/,
      );
      expect(reviews).toContain('Members (Developer or above) with no review waiting: @bob (Developer).');
    });
  });

  it('weekly_team_recap credits each person with what was merged, opened and closed in the window', async () => {
    await recentWork();
    await withClient({}, async (c) => {
      const text = await prompt(c, 'weekly_team_recap', { group_id: 'acme' });
      expect(text).toMatch(/^# Recap of acme, last 7 days\n/);
      expect(text).toContain('1 merge request merged, 2 opened; 1 issue closed, 3 opened.');
      expect(text).toContain(
        rows(
          '| Person | MRs merged | MRs opened | Issues closed | Issues opened |',
          '|---|---|---|---|---|',
          '| @alice | 1 | 1 | 1 | 2 |',
          '| @bob | 0 | 1 | 0 | 1 |',
        ),
      );
      expect(text).toMatch(/## Merged \(1\)\n[^#]*\| acme\/widgets!4 \| Quick fix \| @alice \|/);
      expect(text).toMatch(/## Issues closed \(1\)\n[^#]*\| acme\/widgets#6 \| Fresh bug \| @alice \|/);
      // The seeded merged !3 and closed issues date from 2025.
      expect(text).not.toMatch(/Document usage|Typo in README/);
      expect(text).not.toContain('filled the one page');
    });
  });

  it('a list read that fills its one page is said to be short, not counted as whole', async () => {
    for (let i = 0; i < 100; i++) await api('POST', '/projects/2/issues', { title: `Flood ${i}` });
    await withClient({}, async (c) => {
      const text = await prompt(c, 'weekly_team_recap', { group_id: 'acme' });
      expect(text).toContain(
        'Some lists filled the one page of 100 read: the counts below may be short.\n\n0 merge requests merged, 0 opened; 0 issues closed, 100 opened.',
      );
      const team = await prompt(c, 'team_overview', { group_id: 'acme' });
      expect(team).toContain('Some lists filled the one page of 100 read');
    });
  });

  it("group_milestone_progress shows each active group milestone's issues done, days left and time elapsed, due first", async () => {
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const q4 = await api('POST', '/groups/10/milestones', {
      title: 'Q4',
      start_date: day(-10),
      due_date: day(10),
    });
    await api('POST', '/groups/10/milestones', { title: 'Someday' });
    const done = await api('POST', '/groups/10/milestones', { title: 'Shipped', due_date: day(-30) });
    await api('PUT', `/groups/10/milestones/${String(done.id)}`, { state_event: 'close' });
    await api('POST', '/groups/10/milestones', { title: 'Sooner', due_date: day(3) });
    // One past its due date, and one that starts the day it is due (no time to elapse).
    await api('POST', '/groups/10/milestones', { title: 'Late', start_date: day(-20), due_date: day(-2) });
    await api('POST', '/groups/10/milestones', { title: 'Oneday', start_date: day(5), due_date: day(5) });
    for (const [p, iid] of [
      [1, 2],
      [1, 3],
      [2, 1],
    ])
      await api('PUT', `/projects/${p}/issues/${iid}`, { milestone_id: q4.id });
    await withClient({}, async (c) => {
      const text = await prompt(c, 'group_milestone_progress', { group_id: 'acme' });
      expect(text).toMatch(/^# Milestones of acme: 5 active\n/);
      expect(text).toMatch(
        new RegExp(
          [
            '\\| Late \\| [\\d-]+ \\| overdue by 2 \\| 0 of 0 \\| — \\| 100% \\|',
            // Made today with no start date: its time counts from today.
            '\\| Sooner \\| [\\d-]+ \\| 3 \\| 0 of 0 \\| — \\| 0% \\|',
            '\\| Oneday \\| [\\d-]+ \\| 5 \\| 0 of 0 \\| — \\| — \\|',
            '\\| Q4 \\| [\\d-]+ \\| 10 \\| 1 of 3 \\| 33% \\| 5\\d% \\|',
            '\\| Someday \\| — \\| — \\| 0 of 0 \\| — \\| — \\|',
          ].join('\\n'),
        ),
      );
      expect(text).not.toContain('Shipped');
      expect(text).toMatch(
        /## Q4: open issues \(2\)\n[^#]*\| acme\/gadgets#1 \| Gadget overheats \| @bob \| bug \|\n\| acme\/widgets#2 \| Add dark mode \| @bob \| feature \|/,
      );
    });
  });

  it('audit_project_workflow reads the merge settings, approvals, templates and labels, each with a verdict', async () => {
    await withClient({}, async (c) => {
      const before = await prompt(c, 'audit_project_workflow', { project_id: 'acme/widgets' });
      expect(before).toMatch(/^# Workflow audit of acme\/widgets\n/);
      expect(before).toContain(
        rows(
          '| Merge method | merge | ok |',
          '| Squash on merge | default_off | ok |',
          '| Pipelines must succeed to merge | false | review |',
          '| Skipped pipelines count as passed | false | ok |',
          '| Threads must be resolved to merge | false | review |',
          '| Approvals required (most of any rule) | 0 | review |',
          '| Authors may approve their own merge requests | false | ok |',
          '| Committers barred from approving | false | review |',
          '| Approvals reset when commits are pushed | true | ok |',
          '| Issue templates | none | review |',
          '| Merge request templates | none | review |',
          '| Labels | 3 | ok |',
        ),
      );
    });
    await api('PUT', '/projects/1', {
      merge_method: 'ff',
      only_allow_merge_if_pipeline_succeeds: true,
      only_allow_merge_if_all_discussions_are_resolved: true,
    });
    await api('POST', '/projects/1/approvals', { merge_requests_disable_committers_approval: true });
    await api('POST', '/projects/1/approval_rules', {
      name: 'Maintainers',
      approvals_required: 2,
      user_ids: [2, 3],
    });
    for (const path of [
      '.gitlab/issue_templates/Bug.md',
      '.gitlab/issue_templates/Feature.md',
      '.gitlab/merge_request_templates/Default.md',
    ])
      await api('POST', `/projects/1/repository/files/${encodeURIComponent(path)}`, {
        branch: 'main',
        content: '## Summary\n',
        commit_message: `Add ${path}`,
      });
    await withClient({}, async (c) => {
      const after = await prompt(c, 'audit_project_workflow', { project_id: '1' });
      expect(after).toContain('| Merge method | ff | ok |');
      expect(after).toContain('| Pipelines must succeed to merge | true | ok |');
      expect(after).toContain('| Threads must be resolved to merge | true | ok |');
      expect(after).toContain('| Approvals required (most of any rule) | 2 | ok |');
      expect(after).toContain('| Committers barred from approving | true | ok |');
      expect(after).toContain('| Issue templates | Bug, Feature | ok |');
      expect(after).toContain('| Merge request templates | Default | ok |');
      expect(after).toContain(
        '## Approval rules (1)\n| Rule | Type | Approvals required | Eligible approvers | Branches |\n|---|---|---|---|---|\n| Maintainers | regular | 2 | @alice, @bob | all |',
      );
    });
  });

  it('on a free tier audit_project_workflow is still offered; the approval reads it cannot make are quoted, not sent', async () => {
    await withClient({ FORGE_MCP_TIER: 'free' }, async (c) => {
      expect((await c.client.listPrompts()).prompts.map((p) => p.name)).toContain('audit_project_workflow');
      const since = s.requests.length;
      const text = await prompt(c, 'audit_project_workflow', { project_id: 'acme/widgets' });
      expect(text).toMatch(
        /^# Workflow audit of acme\/widgets\n> project\.approval_config_get: project\.approval_config_get exists but is unavailable: it needs the premium tier/,
      );
      expect(text).toContain(
        '> project.approval_rule_list: project.approval_rule_list exists but is unavailable',
      );
      expect(text).toContain('| Approvals required (most of any rule) | — | unknown |');
      expect(text).toContain('| Labels | 3 | ok |');
      expect(s.requests.slice(since).some((r) => r.path.includes('approval'))).toBe(false);
      // The reads the tier keeps from the instance say nothing of the project: one that does not exist is an error.
      const none = await failure(
        c.client.getPrompt({ name: 'audit_project_workflow', arguments: { project_id: 'acme/nope' } }),
      );
      expect(none.code).toBe(-32602);
      expect(none.message).toContain(
        'Prompt audit_project_workflow: the instance has nothing for project_id "acme/nope"',
      );
    });
  });

  it('audit_project_full is the four audits as sections of one, each read made once', async () => {
    await withClient({}, async (c) => {
      const since = s.requests.length;
      const text = await prompt(c, 'audit_project_full', { project_id: 'acme/widgets' });
      const order = [
        '# Full audit of acme/widgets\n',
        '\n## Settings audit of acme/widgets\n',
        '| Visibility | private | ok |',
        '\n## Branch protection of acme/widgets\n',
        '| main | Maintainers | Maintainers | false |',
        '\n## Access to acme/widgets\n',
        '| @bob | Developer |',
        '\n## Workflow audit of acme/widgets\n',
        '| Labels | 3 | ok |',
        '\n### Approval rules (0)\n',
        'Bring the findings of the four audits together',
      ].map((x) => text.indexOf(x));
      expect(order.every((x) => x >= 0)).toBe(true);
      expect([...order].sort((x, y) => x - y)).toEqual(order);
      // project.get is read by three of the audits: sent once.
      const paths = s.requests.slice(since).map((r) => r.path);
      expect(paths.filter((p) => /^\/api\/v4\/projects\/[^/]+$/.test(p))).toHaveLength(1);
    });
  });

  it('a read that fails is quoted in the prompt; a group that does not exist is an error saying so', async () => {
    await withClient({}, async (c) => {
      s.fault({ path: /\/api\/v4\/groups\/[^/]+\/issues$/, status: 500, body: { message: 'boom' } });
      const text = await prompt(c, 'team_overview', { group_id: 'acme' });
      expect(text).toMatch(/^# Team acme: 2 members\n> issue\.list_group: [^\n]*500/);
      expect(text).toMatch(/\| @alice \| Owner \| 1 \| 2 \| \d+ \| 0 \| 3 \|/);
      s.clearFaults();
      const none = await failure(
        c.client.getPrompt({ name: 'reviewer_workload', arguments: { group_id: 'nope' } }),
      );
      expect(none.code).toBe(-32602);
      expect(none.message).toContain(
        'Prompt reviewer_workload: the instance has nothing for group_id "nope"',
      );
    });
  });

  it('completions: a group prompt’s username from the group’s members, days from the usual spans', async () => {
    await withClient({}, async (c) => {
      const ask = async (name: string, argument: string, value: string, args: Record<string, string> = {}) =>
        (
          await c.client.complete({
            ref: { type: 'ref/prompt', name },
            argument: { name: argument, value },
            context: { arguments: args },
          })
        ).completion;
      const since = s.requests.length;
      expect((await ask('user_activity_report', 'username', '', { group_id: 'acme' })).values.sort()).toEqual(
        ['alice', 'bob'],
      );
      expect((await ask('user_activity_report', 'username', '@b', { group_id: 'acme' })).values).toEqual([
        'bob',
      ]);
      expect(apiCalls(s, since).map((r) => r.path)).toEqual([
        '/api/v4/groups/acme/members/all',
        '/api/v4/groups/acme/members/all',
      ]);
      expect((await ask('user_stats', 'username', '', { project_id: '1' })).values.sort()).toEqual([
        'alice',
        'bob',
      ]);
      expect((await ask('team_overview', 'group_id', 'ac')).values).toContain('acme');
      expect((await ask('weekly_team_recap', 'days', '3', { group_id: 'acme' })).values).toEqual([
        '30',
        '365',
      ]);
      expect((await ask('audit_project_full', 'project_id', 'widg')).values).toContain('acme/widgets');
    });
  });

  it('the exclude list drops the prompts whose reads it removes', async () => {
    await withClient({ FORGE_MCP_EXCLUDE_TOOLS: 'group.members' }, async (c) => {
      const names = (await c.client.listPrompts()).prompts.map((p) => p.name);
      expect(names).not.toContain('team_overview');
      expect(names).not.toContain('reviewer_workload');
      expect(names).toContain('weekly_team_recap');
      expect(names).toContain('audit_project_full');
    });
  });
});
