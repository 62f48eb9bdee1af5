/**
 * Prompts, completions and logging over real stdio against forge-sim: every prompt renders Markdown from
 * what its actions read, arguments are checked before anything is sent, completions come from the
 * instance with its paging totals (empty when it fails), and log records reach a client at its level.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiCalls, sim, withStdio, type Connected, type ForgeSim } from './harness.js';
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

/** The prompts about people, teams and the workflow audits (prompts-people.test.ts renders them). */
const PEOPLE = [
  'user_stats',
  'my_activity_summary',
  'user_activity_report',
  'team_overview',
  'reviewer_workload',
  'weekly_team_recap',
  'group_milestone_progress',
  'audit_project_workflow',
  'audit_project_full',
];

/** What each prompt must show of the seeded instance. */
const EXPECTED: Array<[string, Record<string, string>, RegExp[]]> = [
  [
    'unassigned_items',
    { project_id: '1' },
    [
      /^# Unassigned work in 1\n/,
      /## Issues without an assignee \(0\)\n_None\._/,
      /Members who can take them \(Developer or above\): @alice \(user ID 2\), @bob \(user ID 3\)\./,
    ],
  ],
  [
    'review_mr',
    { project_id: '1', merge_request_iid: '1' },
    [
      /^# Review of !1: Add login form/,
      /\| Thread \| Where \| By \| First note \|/,
      /\| [0-9a-f]{40} \| general \| @alice \| Looks good overall, one question inline\. \|/,
      /\| [0-9a-f]{40} \| src\/login\.js:2 \| @alice \| Should this also trim whitespace\? \|/,
      /## Changed files \(1\)\n\| File \| Change \| Added \| Removed \|\n\|---\|---\|---\|---\|\n\| src\/login\.js \| added \| \+5 \| -0 \|/,
      /### src\/login\.js\n```diff\n@@ -0,0 \+1,5 @@\n\+export function login\(user, password\) \{\n/,
    ],
  ],
  [
    'mr_risk_assessment',
    { project_id: '1', merge_request_iid: '1' },
    [
      /^# Risk of !1/,
      /\*\*Risk: (low|medium|high)\*\*/,
      /\| Pipeline \| failed \|/,
      /\| Files changed \| 1 \|/,
      /\| Lines changed \| 5 \|/,
    ],
  ],
  [
    'summarize_open_mrs',
    { project_id: '1' },
    [
      /\| MR \| Title \| Author \| Source \| Target \| Updated \| Age \(days\) \|/,
      /\| !2 \| Regenerate fixtures \| @alice \| fixtures-refresh \| main \| [^|]+ \| \d+ \|/,
      /\| !1 \| Add login form \|/,
    ],
  ],
  [
    'generate_release_notes',
    { project_id: '1', from: 'v1.0.0' },
    [/^# Release notes v1\.0\.0 → main/, /Document usage/],
  ],
  [
    'compare_branches',
    { project_id: 'acme/widgets', from: 'main', to: 'feature/login' },
    [
      /^# main → feature\/login in acme\/widgets\n/,
      /## Commits \(2\)\n[^]*\| Add login form \| Bob Builder \|[^]*\| Validate login input \|/,
      /\| src\/login\.js \| added \| \+5 \| -0 \|/,
      /### src\/login\.js\n```diff\n@@ -0,0 \+1,5 @@\n/,
    ],
  ],
  [
    'summarize_pipeline_status',
    { project_id: '1', ref: 'feature/login' },
    [/: failed$/m, /\| test \(#\d+\) \| test \|/],
  ],
  [
    'stale_items_report',
    { project_id: '1', stale_days: '30' },
    [/Login button does nothing/, /\| !1 \| Add login form \|/],
  ],
  [
    'milestone_progress',
    { project_id: '1', milestone: 'v1.1' },
    [/^# Milestone v1\.1: \d+% done/, /issues closed/],
  ],
  ['daily_standup', { project_id: '1', username: 'alice' }, [/^# Standup for @alice/]],
  [
    'team_member_workload',
    { project_id: '1', username: 'alice' },
    [/^# Workload of @alice/, /\| Reviews waiting \| \d+ \|/],
  ],
  [
    'label_distribution',
    { project_id: 'acme/widgets' },
    [
      /^# Labels of acme\/widgets \(3\)\n/,
      /\| feature \| 2 \| 0 \| 1 \| — \| New functionality \|\n\| bug \| 1 \| 2 \| 0 \| 1 \| Something is broken \|\n\| docs \| 0 \| 1 \| 0 \| — \| — \|/,
    ],
  ],
  [
    'audit_project_settings',
    { project_id: '1' },
    [/^# Settings audit of acme\/widgets/, /\| Visibility \| private \| ok \|/],
  ],
  [
    'audit_branch_protection',
    { project_id: '1' },
    [/Default branch main: protected/, /\| main \| Maintainers \|/],
  ],
  ['audit_project_access', { project_id: '1' }, [/\| @alice \| Maintainer \|/, /\| @bob \| Developer \|/]],
  [
    'team_mr_dashboard',
    { group_id: '10' },
    [/^# Open merge requests in 10/, /\| acme\/widgets!1 \| Add login form \| @bob \|/],
  ],
  // The session's own user across every project: no argument at all.
  [
    'my_open_mrs',
    {},
    [
      /^# Your open merge requests \(1\)\n/,
      /\| acme\/widgets!2 \| Regenerate fixtures \| fixtures-refresh \| main \| false \|/,
    ],
  ],
  [
    'my_pending_reviews',
    {},
    [
      /^# Merge requests waiting for your review \(2\)\n/,
      /\| acme\/widgets!1 \| Add login form \| @bob \| main \|[^\n]*\n\| acme\/widgets!2 \| Regenerate fixtures \| @alice \|/,
    ],
  ],
  [
    'my_issues',
    {},
    [
      /^# Open issues assigned to you \(2\)\n/,
      /\| acme\/widgets#4 \| Support widget sizes \| feature \| — \| — \|/,
      /\| acme\/widgets#1 \| Login button does nothing \| bug \| v1\.1 \| — \|/,
    ],
  ],
];

describe('prompts', () => {
  it('lists every workflow prompt with its arguments, and each renders Markdown from the instance', async () => {
    await withClient({}, async (c) => {
      const listed = (await c.client.listPrompts()).prompts;
      // The project prompts (prompts-project.test.ts renders them) beside the ones rendered here.
      const project = [
        'summarize_mr_changes',
        'suggest_mr_reviewers',
        'project_health_check',
        'mr_review_status',
        'release_readiness',
        'release_cadence',
        'merge_velocity',
        'branch_mr_summary',
        'project_activity_report',
        'project_contributors',
      ];
      expect(listed.map((p) => p.name).sort()).toEqual(
        [...EXPECTED.map((e) => e[0]), ...PEOPLE, ...project].sort(),
      );
      const review = listed.find((p) => p.name === 'review_mr')!;
      expect(review.arguments).toEqual([
        expect.objectContaining({ name: 'project_id', required: true }),
        expect.objectContaining({ name: 'merge_request_iid', required: true }),
      ]);
      for (const [name, args, patterns] of EXPECTED) {
        const text = await prompt(c, name, args);
        for (const p of patterns) expect(text, name).toMatch(p);
      }
    });
  });

  it('review_mr carries the diffs up to its budget and names the files left out with where to read them', async () => {
    await withClient({}, async (c) => {
      const text = await prompt(c, 'review_mr', { project_id: 'acme/widgets', merge_request_iid: '2' });
      expect(text).toMatch(/## Changed files \(2\)/);
      expect(text).toMatch(/### src\/index\.js\n```diff\n@@ /);
      expect(text).toContain('+export function widget(name, size = 1) {');
      expect(text).not.toContain('### fixtures/data.json');
      expect(text).toContain(
        'Not shown here (too large for this prompt, or the instance collapsed them): fixtures/data.json. Read them with mr_review.changes_get or mr_review.raw_diffs (project_id acme/widgets, merge_request_iid 2).',
      );
      expect(text.length).toBeLessThan(70_000);
    });
  });

  it('arguments as a user writes them: an IID as its reference (!1), a path URL-encoded', async () => {
    await withClient({}, async (c) => {
      expect(await prompt(c, 'review_mr', { project_id: 'acme/widgets', merge_request_iid: '!1' })).toMatch(
        /^# Review of !1: Add login form/,
      );
      expect(await prompt(c, 'audit_branch_protection', { project_id: 'acme%2Fwidgets' })).toMatch(
        /^# Branch protection of acme\/widgets\n[^]*\| main \| Maintainers \|/,
      );
      // A username written as a mention (@alice) is the username: the instance is asked for alice's items.
      const since = s.requests.length;
      expect(await prompt(c, 'daily_standup', { project_id: '1', username: '@alice' })).toMatch(
        /^# Standup for @alice\n/,
      );
      expect(
        apiCalls(s, since)
          .map((r) => r.query.author_username ?? r.query.assignee_username)
          .filter(Boolean),
      ).toEqual(['alice', 'alice']);
    });
  });

  it('on the meta and individual surfaces a prompt names how each action it mentions is called there; on dynamic it adds nothing', async () => {
    const triage = { project_id: 'acme/widgets' };
    const said = {
      dynamic: await withClient({}, (c) => prompt(c, 'summarize_pipeline_status', triage)),
      meta: await withClient({ FORGE_MCP_TOOL_SURFACE: 'meta' }, (c) =>
        prompt(c, 'summarize_pipeline_status', triage),
      ),
      individual: await withClient({ FORGE_MCP_TOOL_SURFACE: 'individual' }, (c) =>
        prompt(c, 'summarize_pipeline_status', triage),
      ),
    };
    expect(said.dynamic).toMatch(/read its log with job\.trace, retry with job\.retry, or fix\)\.$/);
    expect(said.meta).toContain(
      '\n\n---\nThe actions named above are canonical IDs; on this server\'s meta tool surface call them as:\n- job.trace: forge_job with action "trace"\n- job.retry: forge_job with action "retry"',
    );
    expect(said.individual).toMatch(/\n- job\.trace: forge_job_trace\n- job\.retry: forge_job_retry$/);
    // An action the exclude list removes is not named as callable, only as not offered.
    const excluded = await withClient(
      { FORGE_MCP_TOOL_SURFACE: 'individual', FORGE_MCP_EXCLUDE_TOOLS: 'job.retry' },
      (c) => prompt(c, 'summarize_pipeline_status', triage),
    );
    expect(excluded).toMatch(
      /call them as:\n- job\.trace: forge_job_trace\nNot available to this session: job\.retry \(not offered\); do not plan on them\.$/,
    );
    // A read-only server names the writes it does not offer, on every surface, rather than let the model plan on them.
    const readOnly = await withClient({ FORGE_MCP_READ_ONLY: 'true' }, (c) =>
      prompt(c, 'summarize_pipeline_status', triage),
    );
    expect(readOnly).toMatch(
      /job\.retry, or fix\)\.\n\n---\nNot available to this session: job\.retry \(read-only mode\); do not plan on them\.$/,
    );
    // The guides likewise, each action it names once.
    const guide = await withClient({ FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      const r = await c.client.readResource({ uri: 'forge://guides/code-review' });
      return (r.contents[0] as { text: string }).text;
    });
    expect(guide).toMatch(
      /on this server's individual tool surface call them as:\n- mr_review\.changes_get: forge_mr_changes_get\n- mr_review\.discussion_create: forge_mr_discussion_create\n$/,
    );
  });

  it('arguments naming nothing on the instance are an error saying so, not a prompt about nothing; a lesser failure is quoted whole', async () => {
    await withClient({}, async (c) => {
      const mr = await failure(
        c.client.getPrompt({
          name: 'review_mr',
          arguments: { project_id: 'acme/widgets', merge_request_iid: '99' },
        }),
      );
      expect(mr.code).toBe(-32602);
      expect(mr.message).toBe(
        'Prompt review_mr: the instance has nothing for project_id "acme/widgets", merge_request_iid "99" (Not Found: Merge request 99 in project acme/widgets). Check the values; completion/complete suggests those that exist.',
      );
      // The current user's read (no argument) does not hide that the project is missing.
      const standup = await failure(
        c.client.getPrompt({ name: 'daily_standup', arguments: { project_id: 'acme/nope' } }),
      );
      expect(standup.message).toMatch(
        /^Prompt daily_standup: the instance has nothing for project_id "acme\/nope" \(\S+: not found: .*404 Project Not Found/,
      );
      // A project without pipelines is no such error: there is nothing to triage, and the prompt says so.
      expect(await prompt(c, 'summarize_pipeline_status', { project_id: 'acme/gadgets' })).toBe(
        '# No pipeline on the default branch of acme/gadgets\n\nThe instance has no pipeline there yet (or none this token can see): nothing to triage. Run one with pipeline.create, or name another ref.',
      );
      const gone = await failure(
        c.client.getPrompt({ name: 'summarize_pipeline_status', arguments: { project_id: 'acme/nope' } }),
      );
      expect(gone.message).toMatch(
        /^Prompt summarize_pipeline_status: the instance has nothing for project_id "acme\/nope"/,
      );
      const group = await failure(
        c.client.getPrompt({ name: 'team_mr_dashboard', arguments: { group_id: 'nope' } }),
      );
      expect(group.message).toContain('the instance has nothing for group_id "nope"');
      // One read of several failing (the earlier ref) is quoted in the prompt, each line, its ID said once.
      const notes = await prompt(c, 'generate_release_notes', { project_id: 'acme/widgets', from: 'v9' });
      expect(notes).toMatch(
        /^# Release notes v9 → main\n> repository\.compare: not found: .*404 Ref Not Found/,
      );
      expect(notes).not.toContain('repository.compare: repository.compare');
    });
  });

  it('a username no user has is an error saying so, not an empty standup or workload; unchecked where user.list is excluded', async () => {
    await withClient({}, async (c) => {
      for (const name of ['daily_standup', 'team_member_workload']) {
        const since = s.requests.length;
        const e = await failure(
          c.client.getPrompt({ name, arguments: { project_id: '1', username: 'bobb' } }),
        );
        expect(e.code).toBe(-32602);
        expect(e.message).toContain(
          `Prompt ${name}: no user has the username "bobb". Check the spelling; completion/complete suggests the project's members.`,
        );
        // Nothing about the unknown user's work was asked for.
        expect(apiCalls(s, since).map((r) => r.path)).toEqual(['/api/v4/users']);
      }
      expect(await prompt(c, 'daily_standup', { project_id: '1', username: 'bob' })).toMatch(
        /^# Standup for @bob\n/,
      );
    });
    await withClient({ FORGE_MCP_EXCLUDE_TOOLS: 'user.list' }, async (c) => {
      expect(await prompt(c, 'daily_standup', { project_id: '1', username: 'bobb' })).toMatch(
        /^# Standup for @bobb\n/,
      );
    });
  });

  it('unassigned_items shows the open issues without an assignee and the open merge requests without an assignee or a reviewer, oldest first', async () => {
    await api('POST', '/projects/1/issues', { title: 'Nobody owns this' }); // #6
    await api('POST', '/projects/1/issues', { title: 'Nor this', labels: 'bug' }); // #7
    await api('POST', '/projects/1/issues', { title: 'Taken', assignee_ids: [3] }); // #8
    await api('POST', '/projects/1/merge_requests', {
      title: 'Orphan change',
      source_branch: 'fixtures-refresh',
      target_branch: 'feature/login',
    });
    await api('POST', '/projects/1/merge_requests', {
      title: 'Reviewed change',
      source_branch: 'feature/login',
      target_branch: 'fixtures-refresh',
      reviewer_ids: [2],
    });
    await withClient({}, async (c) => {
      const text = await prompt(c, 'unassigned_items', { project_id: 'acme/widgets' });
      expect(text).toContain(
        [
          '## Issues without an assignee (2)',
          '| Issue | Title | Labels | Age (days) |',
          '|---|---|---|---|',
          '| #6 | Nobody owns this | — | 0 |',
          '| #7 | Nor this | bug | 0 |',
          '',
          '## Merge requests without an assignee or reviewer (1)',
          '| MR | Title | Author | Age (days) |',
          '|---|---|---|---|',
          '| !4 | Orphan change | @alice | 0 |',
        ].join('\n'),
      );
      expect(text).not.toMatch(/Taken|Reviewed change|Add login form/);
    });
  });

  it('milestone_progress of a title the project lacks names the milestones it has; a closed one is read too', async () => {
    await withClient({}, async (c) => {
      const none = await failure(
        c.client.getPrompt({ name: 'milestone_progress', arguments: { project_id: '1', milestone: 'v9' } }),
      );
      expect(none.code).toBe(-32602);
      expect(none.message).toBe(
        'Prompt milestone_progress: 1 has no milestone titled "v9"; its milestones are v1.1 (active), v1.0 (closed).',
      );
      expect(await prompt(c, 'milestone_progress', { project_id: '1', milestone: 'v1.0' })).toMatch(
        /^# Milestone v1\.0: \d+% done\n[^]*due 2025-01-10/,
      );
    });
  });

  it('daily_standup, team_member_workload and stale_items_report show only the items their dates select', async () => {
    // The seeded items were last updated in January 2025. Through the instance's API: an issue and a merge
    // request made now, an old issue touched now, and an issue an owner back-dated to three days ago.
    await api('POST', '/projects/1/issues', { title: 'Fresh bug', assignee_ids: [2] }); // #6
    await api('POST', '/projects/1/issues', { title: 'Quiet for three days', assignee_ids: [2] }); // #7
    await api('PUT', '/projects/1/issues/7', {
      updated_at: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    });
    await api('PUT', '/projects/1/issues/4', { description: 'Sizes S, M and L.' });
    await api('POST', '/projects/1/merge_requests', {
      title: 'Fresh change',
      source_branch: 'fixtures-refresh',
      target_branch: 'feature/login',
      reviewer_ids: [2],
    }); // !4
    await withClient({}, async (c) => {
      const standup = await prompt(c, 'daily_standup', { project_id: '1', username: 'alice' });
      expect(standup).toContain(
        [
          '## Merge requests touched since yesterday',
          '| MR | Title | State |',
          '|---|---|---|',
          '| !4 | Fresh change | opened |',
          '',
          '## Issues touched since yesterday',
          '| Issue | Title | State |',
          '|---|---|---|',
          '| #6 | Fresh bug | opened |',
          '| #4 | Support widget sizes | opened |',
          '',
        ].join('\n'),
      );
      // Within its 30 days: the three issues changed lately, not #1 (assigned to alice, untouched since 2025).
      const workload = await prompt(c, 'team_member_workload', { project_id: '1', username: 'alice' });
      expect(workload).toMatch(
        /^# Workload of @alice\nOpen items updated in the last 30 days \(days widens the window\)\.\n/,
      );
      expect(workload).toContain(
        '| Merge requests authored | 1 |\n| Reviews waiting | 1 |\n| Issues assigned | 3 |',
      );
      // A window asked for is the one stated.
      const week = await prompt(c, 'team_member_workload', { project_id: '1', username: 'alice', days: '7' });
      expect(week).toContain('\nOpen items updated in the last 7 days (days widens the window).\n');
      const stale = await prompt(c, 'stale_items_report', { project_id: '1', stale_days: '30' });
      expect(stale).toMatch(
        /## Issues\n\| Issue \| Title \| Assignee \| Idle days \|\n\|---\|---\|---\|---\|\n\| #2 \| Add dark mode \| @bob \| \d+ \|\n\| #1 \| Login button does nothing \| @alice \| \d+ \|\n\n## Merge requests\n\| MR \| Title \| Author \| Idle days \|\n\|---\|---\|---\|---\|\n\| !2 \| Regenerate fixtures \| @alice \| \d+ \|\n\| !1 \| Add login form \| @bob \| \d+ \|\n\n/,
      );
      // Two days: the issue quiet for three is stale too; what changed today still is not.
      const recent = await prompt(c, 'stale_items_report', { project_id: '1', stale_days: '2' });
      expect(recent).toMatch(
        /## Issues\n[^#]*\| #7 \| Quiet for three days \| @alice \| 3 \|\n\| #2 \| Add dark mode \|[^\n]*\n\| #1 \| Login button does nothing \|[^\n]*\n\n/,
      );
      expect(recent).not.toMatch(/Fresh/);
      expect(recent).not.toMatch(/\| #4 \|/);
    });
  });

  it("audit_project_access names each member's role as the instance has it, the security manager included", async () => {
    await withClient({}, async (c) => {
      // Changed with the role's word: the instance is sent the level, and the prompt names the level's role.
      const changed = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: {
          action: 'project.member_edit',
          params: { project_id: '1', user_id: 3, access_level: 'Security Manager' },
        },
      });
      expect(changed.isError, JSON.stringify(changed.content)).toBeFalsy();
      const text = await prompt(c, 'audit_project_access', { project_id: '1' });
      expect(text).toMatch(/\| @bob \| Security manager \|/);
      expect(text).toMatch(/\| @alice \| Maintainer \|/);
    });
  });

  it('a prompt reads through the guards: a fine-grained grant’s unreachable read is reported, not sent', async () => {
    await withClient({ FORGE_TOKEN: s.tokens.fineGrained }, async (c) => {
      const before = s.requests.filter((r) => r.path.includes('/pipelines')).length;
      const text = await prompt(c, 'summarize_pipeline_status', { project_id: '1' });
      expect(text).toContain(
        "pipeline.latest: pipeline.latest exists but this fine-grained token's grant does not reach it",
      );
      expect(s.requests.filter((r) => r.path.includes('/pipelines')).length).toBe(before);
    });
  });

  it('bad arguments: missing, unknown, malformed, and an unknown prompt; each says what to send, nothing sent', async () => {
    await withClient({}, async (c) => {
      const before = apiCalls(s).length;
      const missing = await failure(
        c.client.getPrompt({ name: 'review_mr', arguments: { project_id: '1' } }),
      );
      expect(missing.code).toBe(-32602);
      expect(missing.message).toBe(
        "Prompt review_mr needs the argument merge_request_iid (The merge request's IID within the project (e.g. 12)). Send all of: project_id, merge_request_iid.",
      );
      const unknown = await failure(
        c.client.getPrompt({
          name: 'review_mr',
          arguments: { project_id: '1', merge_request_iid: '1', mr: '2' },
        }),
      );
      expect(unknown.message).toContain(
        'has no argument "mr"; its arguments are project_id, merge_request_iid',
      );
      const days = await failure(
        c.client.getPrompt({
          name: 'stale_items_report',
          arguments: { project_id: '1', stale_days: 'a month' },
        }),
      );
      expect(days.message).toContain('stale_days must be a positive whole number (for example 7)');
      const nope = await failure(c.client.getPrompt({ name: 'nope', arguments: {} }));
      expect(nope.message).toContain('prompts/list names the prompts offered');
      expect(apiCalls(s).length).toBe(before);
    });
  });
  it("a project pasted as a URL of this instance is its project; another host's is refused, nothing sent", async () => {
    await withClient({}, async (c) => {
      const { host } = new URL(s.url);
      const since = s.requests.length;
      const text = await prompt(c, 'summarize_open_mrs', {
        project_id: `${s.url}/acme/widgets/-/merge_requests`,
      });
      expect(text).toMatch(/^# Open merge requests of acme\/widgets\n/);
      expect(text).toMatch(/\| !1 \| Add login form \|/);
      expect(apiCalls(s, since).map((q) => q.path)).toEqual([
        '/api/v4/projects/acme%2Fwidgets/merge_requests',
      ]);
      const other = await failure(
        c.client.getPrompt({
          name: 'summarize_open_mrs',
          arguments: { project_id: 'https://elsewhere.example/acme/widgets' },
        }),
      );
      expect(other.code).toBe(-32602);
      expect(other.message).toBe(
        `Prompt summarize_open_mrs: project_id "https://elsewhere.example/acme/widgets" names a project on elsewhere.example, not on this server's instance (${host}); give the project's numeric ID or its path (group/project) on ${host}.`,
      );
      expect(apiCalls(s, since)).toHaveLength(1);
    });
  });
});

describe('completions', () => {
  it('projects, branches, refs, merge requests, users and labels from the instance, with total and hasMore', async () => {
    await withClient({}, async (c) => {
      const complete = async (
        ref: Record<string, string>,
        name: string,
        value: string,
        args?: Record<string, string>,
      ) =>
        (
          await c.client.complete({
            ref: ref as never,
            argument: { name, value },
            ...(args ? { context: { arguments: args } } : {}),
          })
        ).completion;
      const review = { type: 'ref/prompt', name: 'review_mr' };
      expect(await complete(review, 'project_id', 'wid')).toEqual({
        values: ['acme/widgets'],
        total: 1,
        hasMore: false,
      });
      expect((await complete(review, 'merge_request_iid', '', { project_id: '1' })).values.sort()).toEqual([
        '1',
        '2',
      ]);
      const branch = { type: 'ref/resource', uri: 'forge://project/{project_id}/branch/{branch}' };
      expect(await complete(branch, 'branch', 'feat', { project_id: '1' })).toEqual({
        values: ['feature/login'],
        total: 1,
        hasMore: false,
      });
      const notes = { type: 'ref/prompt', name: 'generate_release_notes' };
      const refs = await complete(notes, 'from', '', { project_id: '1' });
      expect(refs.values).toEqual(expect.arrayContaining(['main', 'feature/login', 'v1.0.0']));
      expect(refs.total).toBe(4);
      const label = { type: 'ref/resource', uri: 'forge://project/{project_id}/label/{label_id}' };
      expect((await complete(label, 'label_id', 'bu', { project_id: '1' })).values).toEqual(['bug']);
      expect(
        (await complete({ type: 'ref/prompt', name: 'daily_standup' }, 'username', 'bo')).values,
      ).toEqual(['bob']);
      // Without the project a project-scoped value cannot be looked up: nothing is asked.
      const before = apiCalls(s).length;
      expect(await complete(review, 'merge_request_iid', '')).toEqual({
        values: [],
        total: 0,
        hasMore: false,
      });
      expect(apiCalls(s).length).toBe(before);
    });
  });

  it('completes every template variable a user fills in: action IDs, encoded paths, group labels and milestones, file paths, members', async () => {
    await withClient({ FORGE_MCP_EXCLUDE_TOOLS: 'issue.delete' }, async (c) => {
      const complete = async (uri: string, name: string, value: string, args?: Record<string, string>) =>
        (
          await c.client.complete({
            ref: { type: 'ref/resource', uri },
            argument: { name, value },
            ...(args ? { context: { arguments: args } } : {}),
          })
        ).completion;
      // The manifest entry's template completes the canonical IDs this session offers, in ID order.
      const manifest = await c.client.readResource({ uri: 'forge://tools' });
      const offered = (
        JSON.parse((manifest.contents[0] as { text: string }).text) as { tools: Array<{ id: string }> }
      ).tools
        .map((t) => t.id)
        .filter((id) => id.startsWith('issue.'))
        .sort();
      expect(offered).not.toContain('issue.delete');
      expect(await complete('forge://tools/{id}', 'id', 'issue.')).toEqual({
        values: offered.slice(0, 10),
        total: offered.length,
        hasMore: true,
      });
      expect(await complete('forge://tools/{id}', 'id', 'zz')).toEqual({
        values: [],
        total: 0,
        hasMore: false,
      });
      // A number filtered here counts only its matches.
      expect(
        await complete('forge://project/{project_id}/mr/{merge_request_iid}', 'merge_request_iid', '1', {
          project_id: 'acme/widgets',
        }),
      ).toEqual({ values: ['1'], total: 1, hasMore: false });
      // Values as the URI carries them (percent-encoded) are read decoded.
      expect(
        await complete('forge://project/{project_id}/branch/{branch}', 'branch', 'feature%2F', {
          project_id: 'acme%2Fwidgets',
        }),
      ).toEqual({ values: ['feature/login'], total: 1, hasMore: false });
      // A group's template completes from the group's own labels and milestones.
      const before = s.requests.length;
      expect(
        (await complete('forge://group/{group_id}/label/{label_id}', 'label_id', '', { group_id: 'acme' }))
          .values.length,
      ).toBeGreaterThan(0);
      expect(
        (
          await complete('forge://group/{group_id}/milestone/{milestone_iid}', 'milestone_iid', '', {
            group_id: 'acme',
          })
        ).values.length,
      ).toBeGreaterThan(0);
      expect(s.requests.slice(before).map((r) => r.path)).toEqual([
        '/api/v4/groups/acme/labels',
        '/api/v4/groups/acme/milestones',
      ]);
      // A wiki page's slug: the wiki's list comes whole (not paged) and is matched here.
      const wiki = 'forge://project/{project_id}/wiki/{slug}';
      expect(await complete(wiki, 'slug', '', { project_id: '1' })).toEqual({
        values: ['getting-started', 'home'],
        total: 2,
        hasMore: false,
      });
      expect(await complete(wiki, 'slug', 'HO', { project_id: 'acme%2Fwidgets' })).toEqual({
        values: ['home'],
        total: 1,
        hasMore: false,
      });
      // A file path: the folder typed so far is listed at the ref given; a folder ends in '/'.
      const file = 'forge://project/{project_id}/file/{ref}/{+path}';
      const login = { project_id: 'acme%2Fwidgets', ref: 'feature%2Flogin' };
      expect((await complete(file, 'path', '', login)).values.sort()).toEqual(['README.md', 'src/']);
      expect(await complete(file, 'path', 'src/', login)).toEqual({
        values: ['src/index.js', 'src/login.js'],
        total: 2,
        hasMore: false,
      });
      expect((await complete(file, 'path', 'src/', { project_id: '1' })).values).toEqual(['src/index.js']);
      // A prompt's project given as its web URL names the project for the values that depend on it.
      const iids = await c.client.complete({
        ref: { type: 'ref/prompt', name: 'review_mr' },
        argument: { name: 'merge_request_iid', value: '' },
        context: { arguments: { project_id: `${s.url}/acme/widgets/-/merge_requests` } },
      });
      expect(iids.completion.values.sort()).toEqual(['1', '2']);
      // A number of days completes with the usual spans, nothing asked of the instance.
      const since = s.requests.length;
      const spans = await c.client.complete({
        ref: { type: 'ref/prompt', name: 'stale_items_report' },
        argument: { name: 'stale_days', value: '1' },
      });
      expect(spans.completion).toEqual({ values: ['1', '14', '180'], total: 3, hasMore: false });
      expect(s.requests.length).toBe(since);
      // Within a project, a username completes from its members (root is none of acme/widgets').
      const who = await c.client.complete({
        ref: { type: 'ref/prompt', name: 'team_member_workload' },
        argument: { name: 'username', value: '' },
        context: { arguments: { project_id: 'acme/widgets' } },
      });
      expect(who.completion.values.sort()).toEqual(['alice', 'bob']);
      // Typed as the instance writes them: a mention (@b) and a reference's mark alone (!) complete without it.
      const ask = async (name: string, argument: string, value: string, args: Record<string, string>) =>
        (
          await c.client.complete({
            ref: { type: 'ref/prompt', name },
            argument: { name: argument, value },
            context: { arguments: args },
          })
        ).completion;
      expect((await ask('daily_standup', 'username', '@b', { project_id: 'acme/widgets' })).values[0]).toBe(
        'bob',
      );
      expect((await ask('review_mr', 'merge_request_iid', '!', { project_id: '1' })).values.sort()).toEqual([
        '1',
        '2',
      ]);
      // A group's prompt completes a target branch from the branches its open merge requests target, once each;
      // one only a closed merge request targets is not offered.
      const made = await fetch(`${s.url}/api/v4/projects/1/merge_requests`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': s.tokens.api, 'content-type': 'application/json' },
        body: JSON.stringify({
          source_branch: 'fixtures-refresh',
          target_branch: 'feature/login',
          title: 'Gone',
        }),
      });
      expect(made.status).toBe(201);
      const { iid } = (await made.json()) as { iid: number };
      await api('PUT', `/projects/1/merge_requests/${iid}`, { state_event: 'close' });
      expect(await ask('team_mr_dashboard', 'target_branch', '', { group_id: 'acme' })).toEqual({
        values: ['main'],
        total: 1,
        hasMore: false,
      });
      expect(await ask('team_mr_dashboard', 'target_branch', 'x', { group_id: 'acme' })).toEqual({
        values: [],
        total: 0,
        hasMore: false,
      });
    });
  });

  it("the other templates' variables complete from their project's lists, a personal snippet's from the user's", async () => {
    await withClient({}, async (c) => {
      const cases: Array<[string, string, string]> = [
        ['board/{board_id}', 'board_id', '/api/v4/projects/1/boards'],
        ['environment/{environment_id}', 'environment_id', '/api/v4/projects/1/environments'],
        ['deployment/{deployment_id}', 'deployment_id', '/api/v4/projects/1/deployments'],
        ['deploy_key/{deploy_key_id}', 'deploy_key_id', '/api/v4/projects/1/deploy_keys'],
        ['feature_flag/{name}', 'name', '/api/v4/projects/1/feature_flags'],
        ['snippet/{snippet_id}', 'snippet_id', '/api/v4/projects/1/snippets'],
      ];
      const complete = async (uri: string, name: string, args?: Record<string, string>) => {
        const since = s.requests.length;
        const r = await c.client.complete({
          ref: { type: 'ref/resource', uri },
          argument: { name, value: '' },
          ...(args ? { context: { arguments: args } } : {}),
        });
        return { values: r.completion.values, paths: apiCalls(s, since).map((q) => q.path) };
      };
      for (const [tail, name, path] of cases) {
        const r = await complete(`forge://project/{project_id}/${tail}`, name, { project_id: '1' });
        expect(r.paths, name).toEqual([path]);
        expect(r.values.length, name).toBeGreaterThan(0);
      }
      const personal = await complete('forge://snippet/{snippet_id}', 'snippet_id');
      expect(personal.paths).toEqual(['/api/v4/snippets']);
      expect(personal.values.length).toBeGreaterThan(0);
    });
  });

  it('at most ten values, total from the paging headers and hasMore when there are more', async () => {
    await withClient({}, async (c) => {
      for (let i = 0; i < 12; i++)
        await c.client.callTool({
          name: 'forge_execute_action',
          arguments: {
            action: 'branch.create',
            params: { project_id: '1', branch: `topic-${i}`, ref: 'main' },
          },
        });
      const r = await c.client.complete({
        ref: { type: 'ref/resource', uri: 'forge://project/{project_id}/branch/{branch}' },
        argument: { name: 'branch', value: 'topic' },
        context: { arguments: { project_id: '1' } },
      });
      expect(r.completion.values).toHaveLength(10);
      expect(r.completion.total).toBe(12);
      expect(r.completion.hasMore).toBe(true);
    });
  });

  it('hasMore when two sources together hold more than ten values, though neither has another page', async () => {
    await withClient({}, async (c) => {
      const exec = (action: string, params: Record<string, unknown>) =>
        c.client.callTool({ name: 'forge_execute_action', arguments: { action, params } });
      for (let i = 0; i < 6; i++) {
        await exec('branch.create', { project_id: '1', branch: `both-b${i}`, ref: 'main' });
        await exec('tag.create', { project_id: '1', tag_name: `both-t${i}`, ref: 'main' });
      }
      const r = await c.client.complete({
        ref: { type: 'ref/prompt', name: 'generate_release_notes' },
        argument: { name: 'from', value: 'both-' },
        context: { arguments: { project_id: '1' } },
      });
      expect(r.completion.values).toHaveLength(10);
      expect(r.completion.total).toBe(12);
      expect(r.completion.hasMore).toBe(true);
    });
  });

  it('a value the instance cannot search is matched to the typed prefix in any case', async () => {
    await withClient({}, async (c) => {
      const commits = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'repository.commit_list', params: { project_id: '1' } },
      });
      const ids = (commits.structuredContent as { items: Array<{ short_id: string }> }).items.map(
        (i) => i.short_id,
      );
      // A short id with a letter in it, typed up to that letter in capitals.
      const id = ids.find((x) => /[a-f]/.test(x));
      expect(id, 'a commit whose short id holds a letter').toBeDefined();
      const typed = id!.slice(0, id!.search(/[a-f]/) + 1).toUpperCase();
      const r = await c.client.complete({
        ref: { type: 'ref/resource', uri: 'forge://project/{project_id}/commit/{sha}' },
        argument: { name: 'sha', value: typed },
        context: { arguments: { project_id: '1' } },
      });
      expect(r.completion.values).toContain(id);
      for (const v of r.completion.values) expect(v.toUpperCase().startsWith(typed)).toBe(true);
    });
  });

  it('an IID typed that is older than the newest hundred is still offered, first; more matches are said to exist, not counted', async () => {
    for (let i = 0; i < 130; i++) {
      const res = await fetch(`${s.url}/api/v4/projects/1/issues`, {
        method: 'POST',
        headers: { 'private-token': s.tokens.api, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Many ${i}` }),
      });
      expect(res.status).toBe(201);
    }
    await withClient({}, async (c) => {
      const complete = async (value: string) =>
        (
          await c.client.complete({
            ref: { type: 'ref/resource', uri: 'forge://project/{project_id}/issue/{issue_iid}' },
            argument: { name: 'issue_iid', value },
            context: { arguments: { project_id: '1' } },
          })
        ).completion;
      // The newest hundred open issues are IIDs 135 down to 36: #13 is older, asked for by itself.
      expect(await complete('13')).toEqual({
        values: ['13', '135', '134', '133', '132', '131', '130'],
        hasMore: true,
      });
      expect(await complete('99999')).toEqual({ values: [], hasMore: true });
    });
  });

  it('an instance failing gives an empty completion, not an error', async () => {
    await withClient({}, async (c) => {
      s.fault({ path: /\/api\/v4\/projects$/, status: 500, body: { message: 'boom' } });
      const r = await c.client.complete({
        ref: { type: 'ref/prompt', name: 'review_mr' },
        argument: { name: 'project_id', value: 'wid' },
      });
      expect(r.completion).toEqual({ values: [], total: 0, hasMore: false });
    });
  });

  it('the exclude list removes what it names from completions: no value read through it, its template unknown', async () => {
    await withClient({ FORGE_MCP_EXCLUDE_TOOLS: 'branch.list,merge_request' }, async (c) => {
      const before = s.requests.length;
      // ref completes from branches and tags: with branch.list excluded only tags are read.
      const refs = await c.client.complete({
        ref: { type: 'ref/prompt', name: 'generate_release_notes' },
        argument: { name: 'from', value: '' },
        context: { arguments: { project_id: '1' } },
      });
      expect(refs.completion.values).toContain('v1.0.0');
      expect(refs.completion.values).not.toContain('feature/login');
      const paths = s.requests.slice(before).map((q) => q.path);
      expect(paths).toContain('/api/v4/projects/1/repository/tags');
      expect(paths).not.toContain('/api/v4/projects/1/repository/branches');
      // A template of an excluded action is unknown to completion as it is to resources/templates/list.
      const mr = await failure(
        c.client.complete({
          ref: { type: 'ref/resource', uri: 'forge://project/{project_id}/mr/{merge_request_iid}' },
          argument: { name: 'merge_request_iid', value: '' },
          context: { arguments: { project_id: '1' } },
        }),
      );
      expect(mr.code).toBe(-32602);
      expect(mr.message).toContain('send a uriTemplate from resources/templates/list');
      expect(s.requests.slice(before).some((q) => q.path.includes('merge_requests'))).toBe(false);
    });
  });

  it('an unknown reference is a JSON-RPC error naming what to send, nothing sent', async () => {
    await withClient({}, async (c) => {
      const before = apiCalls(s).length;
      // A prompt this server does not offer completes nothing (completion is advisory); no error, no request.
      const prompt = await c.client.complete({
        ref: { type: 'ref/prompt', name: 'nope' },
        argument: { name: 'project_id', value: 'x' },
      });
      expect(prompt.completion).toEqual({ values: [], total: 0, hasMore: false });
      const nameless = await failure(
        c.client.complete({
          ref: { type: 'ref/prompt', name: '' },
          argument: { name: 'project_id', value: '' },
        }),
      );
      expect(nameless.code).toBe(-32602);
      expect(nameless.message).toContain('send a name from prompts/list');
      const uri = await failure(
        c.client.complete({
          ref: { type: 'ref/resource', uri: 'forge://nowhere/{x}' },
          argument: { name: 'x', value: '' },
        }),
      );
      expect(uri.message).toContain('send a uriTemplate from resources/templates/list');
      const arg = await failure(
        c.client.complete({
          ref: { type: 'ref/prompt', name: 'review_mr' },
          argument: { name: 'sha', value: '' },
        }),
      );
      expect(arg.message).toContain('complete one of project_id, merge_request_iid');
      expect(apiCalls(s).length).toBe(before);
    });
  });
});

describe('logging', () => {
  it('declares logging; records at and above the level asked reach the client (none before it asks), never the token', async () => {
    await withClient({}, async (c) => {
      expect(c.client.getServerCapabilities()?.logging).toBeDefined();
      const records: Array<{ level: string; data: unknown }> = [];
      c.client.setNotificationHandler('notifications/message', (n) => {
        records.push(n.params as { level: string; data: unknown });
      });
      // A client that never asked for a level gets no records.
      await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 998 } },
      });
      await c.client.setLoggingLevel('warning');
      await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.list', params: { project_id: '1' } },
      });
      await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 999 } },
      });
      await c.client.setLoggingLevel('info');
      await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.list', params: { project_id: '1' } },
      });
      await c.client.listTools(); // a round trip, so the notifications before it have arrived
      expect(records.map((r) => r.level)).toEqual(['warning', 'info']);
      expect(records[0].data).toMatchObject({
        tool: 'forge_execute_action',
        action: 'issue.get',
        isError: true,
      });
      expect(JSON.stringify(records)).not.toContain(s.tokens.api);
    });
  });
});
