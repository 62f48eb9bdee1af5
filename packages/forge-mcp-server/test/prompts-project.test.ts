/**
 * The project prompts over real stdio against forge-sim: each is listed with its arguments, renders Markdown from
 * what the instance holds (counts, names and orders the data implies), refuses a missing argument, and quotes a
 * read that failed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sim, withStdio, type Connected, type ForgeSim } from './harness.js';
import { change, promptText as prompt, refusal } from './prompting.js';

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => s.close());
beforeEach(() => s.reset());

const run = async <T>(fn: (c: Connected) => Promise<T>) => (await withStdio(s, { env: {} }, fn)).value;

/** A change made on the instance through its API (as alice unless another token is given): it must succeed. */
const api = (method: string, path: string, body: Record<string, unknown>, token?: string) =>
  change(s, method, path, body, token);

/** A commit on main by someone, changing one file. */
const commitAs = (name: string, email: string, path: string, content: string, action = 'update') =>
  api('POST', '/projects/1/repository/commits', {
    branch: 'main',
    commit_message: `Change ${path}`,
    author_name: name,
    author_email: email,
    actions: [{ action, file_path: path, content }],
  });

/** Each prompt and its arguments as prompts/list gives them (name, required). */
const ARGS: Record<string, Array<[string, boolean]>> = {
  summarize_mr_changes: [
    ['project_id', true],
    ['merge_request_iid', true],
  ],
  suggest_mr_reviewers: [
    ['project_id', true],
    ['merge_request_iid', true],
  ],
  project_health_check: [['project_id', true]],
  mr_review_status: [['project_id', true]],
  release_readiness: [
    ['project_id', true],
    ['branch', false],
  ],
  release_cadence: [['project_id', true]],
  merge_velocity: [
    ['project_id', true],
    ['days', false],
  ],
  branch_mr_summary: [
    ['project_id', true],
    ['target_branch', true],
  ],
  project_activity_report: [
    ['project_id', true],
    ['days', false],
  ],
  project_contributors: [['project_id', true]],
};

describe('project prompts', () => {
  it('prompts/list shows each with its arguments; a missing required argument is refused -32602 naming it, nothing sent', async () => {
    await run(async (c) => {
      const listed = (await c.client.listPrompts()).prompts;
      for (const [name, args] of Object.entries(ARGS)) {
        const p = listed.find((x) => x.name === name);
        expect(p, name).toBeDefined();
        expect(p!.description, name).toBeTruthy();
        expect(
          p!.arguments!.map((x) => [x.name, x.required]),
          name,
        ).toEqual(args);
      }
      const before = s.requests.length;
      for (const [name, args] of Object.entries(ARGS)) {
        const required = args.filter(([, r]) => r).map(([n]) => n);
        // Each required argument left out in turn, the others given.
        for (const leftOut of required) {
          const given = Object.fromEntries(
            required
              .filter((n) => n !== leftOut)
              .map((n) => [n, n === 'project_id' ? '1' : n === 'target_branch' ? 'main' : '1']),
          );
          const e = await refusal(c, name, given);
          expect(e.code, `${name} without ${leftOut}`).toBe(-32602);
          expect(e.message).toContain(`Prompt ${name} needs the argument ${leftOut} (`);
        }
      }
      expect(s.requests.length).toBe(before);
    });
  });

  it('a prompt one of whose reads the exclude list names is neither listed nor made; the others stay', async () => {
    const names = await withStdio(
      s,
      { env: { FORGE_MCP_EXCLUDE_TOOLS: 'repository.contributors,merge_request.approval_config' } },
      async (c) => {
        const e = await refusal(c, 'project_contributors', { project_id: '1' });
        expect(e.code).toBe(-32602);
        expect(e.message).toMatch(/^Unknown prompt "project_contributors"/);
        return (await c.client.listPrompts()).prompts.map((p) => p.name);
      },
    );
    expect(names.value).not.toContain('project_contributors');
    expect(names.value).not.toContain('mr_review_status');
    expect(names.value).toEqual(
      expect.arrayContaining(Object.keys(ARGS).filter((n) => !/contributors|review_status/.test(n))),
    );
  });

  it('a project the instance lacks is -32602 saying so for each, not a prompt about nothing', async () => {
    await run(async (c) => {
      for (const [name, args] of Object.entries(ARGS)) {
        const given = Object.fromEntries(
          args
            .filter(([, r]) => r)
            .map(([n]) => [n, n === 'project_id' ? 'acme/nope' : n === 'target_branch' ? 'main' : '1']),
        );
        const e = await refusal(c, name, given);
        expect(e.code, name).toBe(-32602);
        expect(e.message, name).toMatch(
          new RegExp(`^Prompt ${name}: the instance has nothing for project_id "acme/nope"`),
        );
      }
    });
  });

  it('summarize_mr_changes: the commits, the folders the change lands in with their lines, and the diffs', async () => {
    await run(async (c) => {
      const one = await prompt(c, 'summarize_mr_changes', {
        project_id: 'acme/widgets',
        merge_request_iid: '1',
      });
      expect(one).toMatch(/^# What !1 changes: Add login form\n/);
      expect(one).toContain(
        '**Author** @bob · **feature/login → main** · state opened · 2 commits · 1 file · +5 -0',
      );
      expect(one).toMatch(
        /## Commits \(2\)\n\| Commit \| Title \| Author \| Date \|\n\|---\|---\|---\|---\|\n\| [0-9a-f]{8} \| Validate login input \| Bob Builder \|[^\n]*\n\| [0-9a-f]{8} \| Add login form \| Bob Builder \|/,
      );
      expect(one).toContain('| src | 1 | +5 | -0 |');
      expect(one).toMatch(/### src\/login\.js\n```diff\n@@ -0,0 \+1,5 @@\n/);
      // Two folders: the one with more lines changed first.
      const two = await prompt(c, 'summarize_mr_changes', {
        project_id: 'acme/widgets',
        merge_request_iid: '2',
      });
      expect(two).toContain(
        [
          '## Where the change lands',
          '| Folder | Files | Added | Removed |',
          '|---|---|---|---|',
          '| src | 1 | +2 | -2 |',
          '| fixtures | 1 (1 too large to count) | +0 | -0 |',
        ].join('\n'),
      );
    });
  });

  it('suggest_mr_reviewers ranks members by their commits to the changed files, then by fewest open reviews, the author left out', async () => {
    // bob committed to src/index.js on main; root joins as a developer with no commit there and no review.
    await commitAs('Bob Builder', 'bob@forge.test', 'src/index.js', 'export const widget = (n) => n;\n');
    await api('POST', '/projects/1/members', { user_id: 1, access_level: 30 });
    // bob reviews one more open merge request, so on review load alone root would come first.
    await api('POST', '/projects/1/merge_requests', {
      title: 'Busy bob',
      source_branch: 'fixtures-refresh',
      target_branch: 'feature/login',
      reviewer_ids: [3],
    });
    await run(async (c) => {
      const text = await prompt(c, 'suggest_mr_reviewers', { project_id: '1', merge_request_iid: '2' });
      expect(text).toMatch(/^# Reviewers for !2: Regenerate fixtures\n/);
      expect(text).toContain('**Author** @alice · **fixtures-refresh → main** · reviewers now: @alice');
      expect(text).toContain("(the latest 20 commits of each; a new file's folder): fixtures, src/index.js.");
      expect(text).toMatch(
        /\| @bob \(user ID 3\) \| Developer \| 1 \| 2026-\d\d-\d\d \| 1 \| no \|\n\| @root \(user ID 1\) \| Developer \| 0 \| — \| 0 \| no \|/,
      );
      expect(text).not.toMatch(/\| @alice \(user ID 2\)/);
      expect(text).toContain('Ranked by commits to these paths, then fewest open reviews: @bob, @root.');
      // A merge request the project lacks is refused, not a table of everyone.
      const e = await refusal(c, 'suggest_mr_reviewers', { project_id: '1', merge_request_iid: '99' });
      expect(e.code).toBe(-32602);
      expect(e.message).toMatch(
        /^Prompt suggest_mr_reviewers: the instance has nothing for project_id "1", merge_request_iid "99" \(merge_request\.get: Not Found: Merge request 99 in project 1\)\. Check the values/,
      );
    });
  });

  it('project_health_check judges each signal and scores them', async () => {
    await run(async (c) => {
      const text = await prompt(c, 'project_health_check', { project_id: '1' });
      expect(text).toMatch(/^# Health of acme\/widgets: fair \(57 of 100\)\n/);
      expect(text).toContain(
        [
          '| Latest pipeline on main | success (#101) | ok |',
          '| Pipelines passed (last finished) | 1 of 1 (100%) | ok |',
          '| Open merge requests idle 30+ days | 2 of 2 | act |',
          '| Open issues idle 30+ days | 3 of 3 | act |',
          '| Open issues past their due date | 0 | ok |',
          '| Open issues nobody is assigned to | 0 | ok |',
        ].join('\n'),
      );
    });
    // A new unassigned issue due yesterday, and a failed pipeline on main.
    await api('POST', '/projects/1/issues', {
      title: 'Late',
      due_date: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
    });
    await run(async (c) => {
      await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'pipeline.create', params: { project_id: '1', ref: 'main' } },
      });
      const text = await prompt(c, 'project_health_check', { project_id: '1' });
      expect(text).toContain('| Open issues idle 30+ days | 3 of 4 | act |');
      expect(text).toContain('| Open issues past their due date | 1 | act |');
      expect(text).toContain('| Open issues nobody is assigned to | 1 | watch |');
    });
  });

  it('project_health_check watches a project no pipeline has run in, and calls it good once active with nothing to act on', async () => {
    await run(async (c) => {
      const text = await prompt(c, 'project_health_check', { project_id: '3' });
      expect(text).toContain(
        '| Latest pipeline on main | none | watch |\n| Pipelines passed (last finished) | none finished | watch |',
      );
    });
    // Active today, and nothing else to act on: 12 points of 14 is good.
    await api('POST', '/projects/3/repository/commits', {
      branch: 'main',
      commit_message: 'Add notes',
      actions: [{ action: 'create', file_path: 'NOTES.md', content: 'notes' }],
    });
    await run(async (c) => {
      const text = await prompt(c, 'project_health_check', { project_id: '3' });
      expect(text).toMatch(/^# Health of alice\/playground: good \(86 of 100\)\n/);
      expect(text).toContain('| Days since the last activity | 0 | ok |');
    });
  });

  it('mr_review_status sorts the open merge requests by what they wait for, with approvals and threads', async () => {
    await run(async (c) => {
      const text = await prompt(c, 'mr_review_status', { project_id: 'acme/widgets' });
      expect(text).toMatch(/^# Review status of acme\/widgets: 2 open merge requests\n/);
      expect(text).toContain('| Ready to merge | 1 |\n| Waiting for its author | 1 |');
      expect(text).toMatch(
        /\| !2 \| Regenerate fixtures \| @alice \| @alice \| 2 \(0 left\) \| resolved \| Ready to merge \| \d+ \|\n\| !1 \| Add login form \| @bob \| @alice \| 0 \(1 left\) \| unresolved \| Waiting for its author \(unresolved threads\) \| \d+ \|/,
      );
    });
  });

  it('mr_review_status quotes an approvals read that failed and shows what it could not know', async () => {
    s.fault({
      path: /\/merge_requests\/\d+\/approvals$/,
      status: 500,
      body: { message: 'approvals are down' },
    });
    await run(async (c) => {
      const text = await prompt(c, 'mr_review_status', { project_id: '1' });
      expect(text).toMatch(
        /^# Review status of 1: 2 open merge requests\n> merge_request\.approval_config: [^\n]*500/m,
      );
      expect(text).toMatch(
        /\| !2 \| Regenerate fixtures \| @alice \| @alice \| \? \| resolved \| Approvals not read \|/,
      );
    });
  });

  it('release_readiness lists what stands in the way: a failing pipeline, the milestone’s open work and anything labelled blocking', async () => {
    await run(async (c) => {
      const main = await prompt(c, 'release_readiness', { project_id: 'acme/widgets' });
      expect(main).toMatch(/^# Release readiness of main in acme\/widgets: not ready \(3 to resolve\)\n/);
      expect(main).toContain(
        [
          '## What stands in the way',
          '- !1 Add login form is not merged yet (planned for v1.1; unresolved threads).',
          '- #2 Add dark mode is open in v1.1.',
          '- #1 Login button does nothing is open in v1.1.',
        ].join('\n'),
      );
      expect(main).toMatch(/## Pipeline\n#101 success/);
      expect(main).toContain('## Upcoming milestone v1.1: due 2025-03-01 (overdue), 2 open issues');
    });
    await api('POST', '/projects/1/issues', { title: 'Data loss on save', labels: 'severity::1' });
    await api('POST', '/projects/1/issues', { title: 'Polish icons', labels: 'feature' });
    await run(async (c) => {
      const login = await prompt(c, 'release_readiness', { project_id: '1', branch: 'feature/login' });
      expect(login).toMatch(/^# Release readiness of feature\/login in 1: not ready \(4 to resolve\)\n/);
      expect(login).toContain('- The latest pipeline on feature/login (#102) is failed.');
      expect(login).toContain('- #6 Data loss on save is open and labelled severity::1.');
      expect(login).not.toContain('Polish icons');
      expect(login).toContain('## Open merge requests into feature/login (0)\n_None._');
      // A project no pipeline has run in is not ready for that alone.
      const none = await prompt(c, 'release_readiness', { project_id: '3' });
      expect(none).toMatch(/^# Release readiness of main in 3: not ready \(1 to resolve\)\n/);
      expect(none).toContain('## What stands in the way\n- No pipeline has run on main.');
      // A branch the project lacks is refused, not reported as a branch with nothing in the way.
      const e = await refusal(c, 'release_readiness', { project_id: '1', branch: 'nope' });
      expect(e.code).toBe(-32602);
      expect(e.message).toMatch(
        /^Prompt release_readiness: the instance has nothing for project_id "1", branch "nope" \(branch\.get: .*Not Found/,
      );
    });
  });

  it('release_cadence: the gaps between releases, their median and when the next is due; tags when there are no releases', async () => {
    await run(async (c) => {
      expect(await prompt(c, 'release_cadence', { project_id: '1' })).toMatch(
        /^# Release cadence of 1: 1 tag \(no releases\)\n[^]*\| v1\.0\.0 \| First release \| 2025-01-15 \| — \|/,
      );
    });
    for (const [tag, at] of [
      ['v1.1.0', '2026-01-10T12:00:00Z'],
      ['v1.3.0', '2026-05-20T12:00:00Z'],
      ['v1.2.0', '2026-03-01T12:00:00Z'],
    ])
      await api('POST', '/projects/1/releases', { tag_name: tag, ref: 'main', released_at: at });
    await run(async (c) => {
      const text = await prompt(c, 'release_cadence', { project_id: 'acme/widgets' });
      expect(text).toMatch(/^# Release cadence of acme\/widgets: 3 releases\n/);
      expect(text).toContain(
        [
          '| First | 2026-01-10 |',
          '| Latest | v1.3.0 on 2026-05-20 |',
          '| Median days between | 65 |',
          '| Shortest gap (days) | 50 |',
          '| Longest gap (days) | 80 |',
        ].join('\n'),
      );
      expect(text).toContain('| Next due at the median pace | 2026-07-24 (overdue) |');
      expect(text).toContain('| 2026-Q1 | 2 |\n| 2026-Q2 | 1 |');
      expect(text).toMatch(
        /\| v1\.1\.0 [^\n]*\| 2026-01-10 \| — \|\n\| v1\.2\.0 [^\n]*\| 2026-03-01 \| 50 \|\n\| v1\.3\.0 [^\n]*\| 2026-05-20 \| 80 \|/,
      );
    });
  });

  it('merge_velocity counts the merges in its window by when they merged, with the median time to merge', async () => {
    await run(async (c) => {
      const all = await prompt(c, 'merge_velocity', { project_id: '1', days: '1000' });
      expect(all).toMatch(/^# Merge velocity of 1, last 1000 days: 1 merged\n/);
      expect(all).toContain('| Median time to merge | 30 min |');
      expect(all).toContain('| 2025-01-13 | 1 | 30 min |');
    });
    // A merge made now, and the old merged !3 edited now: it is updated in the window but did not merge in it.
    const made = await api('POST', '/projects/1/merge_requests', {
      title: 'Quick fix',
      source_branch: 'feature/login',
      target_branch: 'fixtures-refresh',
    });
    await api('PUT', `/projects/1/merge_requests/${String(made.iid)}/merge`, {});
    await api('PUT', '/projects/1/merge_requests/3', { description: 'Edited after the merge.' });
    await run(async (c) => {
      const week = await prompt(c, 'merge_velocity', { project_id: '1' });
      expect(week).toMatch(/^# Merge velocity of 1, last 30 days: 1 merged\n/);
      expect(week).toMatch(/\| Fastest \| !4 Quick fix \(\d+ min\) \|/);
      expect(week).not.toContain('Document usage');
      const all = await prompt(c, 'merge_velocity', { project_id: '1', days: '1000' });
      expect(all).toMatch(/^# Merge velocity of 1, last 1000 days: 2 merged\n/);
      expect(all).toContain('| Slowest | !3 Document usage (30 min) |');
      expect(all).toMatch(/## Per author\n[^]*\| @alice \| 1 \|[^\n]*\n\| @bob \| 1 \| 30 min \|/);
    });
  });

  it('branch_mr_summary: the open merge requests into a branch, oldest first, with what holds each up, and the ones merged lately', async () => {
    // A draft into main: held up, beside !1's unresolved threads; !2 holds nothing.
    await api('POST', '/projects/1/repository/branches', { branch: 'spike', ref: 'main' });
    await api('POST', '/projects/1/merge_requests', {
      title: 'Draft: Spike',
      source_branch: 'spike',
      target_branch: 'main',
    });
    await run(async (c) => {
      const text = await prompt(c, 'branch_mr_summary', {
        project_id: 'acme/widgets',
        target_branch: 'main',
      });
      expect(text).toMatch(/^# Merge requests into main of acme\/widgets: 3 open\n/);
      expect(text).toMatch(
        /Branch head [0-9a-f]{8} Document usage \(2025-01-15\) · protected · default branch/,
      );
      expect(text).toContain(
        'Of these, 1 has nothing holding it up and 2 are held up (a draft, conflicts or unresolved threads).',
      );
      expect(text).toMatch(
        /\| !1 \| Add login form \| @bob \| feature\/login \| unresolved threads \| \d+ \| \d+ \|\n\| !2 \| Regenerate fixtures \| @alice \| fixtures-refresh \| nothing \| \d+ \| \d+ \|\n\| !4 \| Draft: Spike \| @alice \| spike \| draft \| 0 \| 0 \|/,
      );
      expect(text).toContain(
        '## Merged lately\n| MR | Title | Author | Merged | Time to merge |\n|---|---|---|---|---|\n| !3 | Document usage | @bob | 2025-01-15 | 30 min |',
      );
      const e = await refusal(c, 'branch_mr_summary', { project_id: '1', target_branch: 'nope' });
      expect(e.code).toBe(-32602);
      expect(e.message).toMatch(
        /^Prompt branch_mr_summary: the instance has nothing for project_id "1", target_branch "nope" \(branch\.get: .*Not Found/,
      );
    });
  });

  it('project_activity_report counts what happened in the window and who did it', async () => {
    await commitAs('Carol Contributor', 'carol@example.com', 'README.md', '# Widgets\n\nNow with more.\n');
    const opened = await api('POST', '/projects/1/issues', { title: 'Fresh report' });
    await api('POST', '/projects/1/issues', { title: 'Done already' });
    await api('PUT', '/projects/1/issues/7', { state_event: 'close' });
    await api('PUT', '/projects/1/issues/1', { state_event: 'close' });
    const mr = await api('POST', '/projects/1/merge_requests', {
      title: 'Ship it',
      source_branch: 'feature/login',
      target_branch: 'fixtures-refresh',
    });
    await api('PUT', `/projects/1/merge_requests/${String(mr.iid)}/merge`, {});
    expect(opened.iid).toBe(6);
    await run(async (c) => {
      const text = await prompt(c, 'project_activity_report', { project_id: '1' });
      expect(text).toMatch(/^# Activity in 1, last 7 days\n/);
      expect(text).toContain(
        [
          '| Commits to the default branch | 1 |',
          '| Merge requests opened | 1 |',
          '| Merge requests merged | 1 |',
          '| Merge requests closed unmerged | 0 |',
          '| Issues opened | 2 |',
          '| Issues closed | 2 |',
        ].join('\n'),
      );
      expect(text).toContain(
        '## Commits by author\n| Author | Commits |\n|---|---|\n| Carol Contributor | 1 |',
      );
      expect(text).toContain('| @alice | 1 | 1 | 2 | 2 |');
      expect(text).toContain(
        '## Issues closed (2)\n- #7 Done already (@alice)\n- #1 Login button does nothing (@bob)',
      );
    });
  });

  it('project_contributors: commits and share per person, members matched, and how few make half the commits', async () => {
    await run(async (c) => {
      const text = await prompt(c, 'project_contributors', { project_id: '1' });
      expect(text).toMatch(/^# Contributors to 1: 2 people, 3 commits\n/);
      expect(text).toContain('1 person makes more than half of the commits.');
      expect(text).toContain('Members with no commits on the default branch: none.');
      expect(text).toMatch(
        /\| Alice Liddell \| alice@forge\.test \| 2 \| 67% \| \d+ \| 0 \| @alice \(Maintainer\) \|\n\| Bob Builder \| bob@forge\.test \| 1 \| 33% \| \d+ \| 0 \| @bob \(Developer\) \|/,
      );
    });
    await api('POST', '/projects/1/members', { user_id: 1, access_level: 30 });
    for (let i = 0; i < 3; i++)
      await commitAs('Carol Contributor', 'carol@example.com', `notes-${i}.md`, `note ${i}\n`, 'create');
    await run(async (c) => {
      const text = await prompt(c, 'project_contributors', { project_id: 'acme/widgets' });
      expect(text).toMatch(/^# Contributors to acme\/widgets: 3 people, 6 commits\n/);
      expect(text).toContain('2 people make more than half of the commits.');
      expect(text).toMatch(
        /\| Carol Contributor \| carol@example\.com \| 3 \| 50% \| \d+ \| \d+ \| no \|\n\| Alice Liddell \|/,
      );
      expect(text).toContain('Members with no commits on the default branch: @root.');
    });
  });

  it('the new arguments complete: a branch from the project’s branches, a number of days from the usual spans', async () => {
    await run(async (c) => {
      const ask = async (name: string, argument: string, value: string) =>
        (
          await c.client.complete({
            ref: { type: 'ref/prompt', name },
            argument: { name: argument, value },
            context: { arguments: { project_id: 'acme/widgets' } },
          })
        ).completion;
      expect((await ask('release_readiness', 'branch', 'fe')).values).toEqual(['feature/login']);
      expect((await ask('branch_mr_summary', 'target_branch', 'fix')).values).toEqual(['fixtures-refresh']);
      expect((await ask('merge_velocity', 'days', '3')).values).toEqual(['30', '365']);
      expect((await ask('suggest_mr_reviewers', 'merge_request_iid', '')).values.sort()).toEqual(['1', '2']);
    });
  });
});
