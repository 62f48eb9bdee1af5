/**
 * The workflow prompts: each names its arguments and the catalog reads it makes, and renders Markdown from
 * what came back. Reads go through the session's view and guards (resources/read.ts), so a prompt reaches
 * nothing its actions could not; a read that is refused or fails is reported inside the Markdown.
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import { auditBranchProtection, auditProjectAccess, auditProjectSettings } from './audit.js';
import { PEOPLE } from './people.js';
import { PROJECT_PROMPTS } from './project.js';
import {
  ageDays,
  changedFiles,
  days,
  failed,
  fileLines,
  group,
  knownUser,
  list,
  mine,
  mr,
  MR_HEAD,
  mrContext,
  mrRows,
  project,
  type PromptSpec,
  type Rec,
  ref,
  since,
  str,
  table,
  where,
  who,
} from './render.js';

export type { Fetch, PromptArg, PromptSpec } from './render.js';
export { DIFF_BUDGET } from './render.js';

export const PROMPTS: PromptSpec[] = [
  {
    name: 'review_mr',
    title: 'Review a merge request',
    description:
      'Gathers a merge request, its changed files and open threads, and asks for a structured review.',
    args: [project, mr],
    reads: ['merge_request.get', 'mr_review.changes_get', 'mr_review.discussion_list'],
    render: async (a, fetch) => {
      const { m, mrv, changes, files, discussions } = await mrContext(a, fetch);
      const open = list(discussions).filter((d) => list(d.notes).some((n) => n.resolvable && !n.resolved));
      return [
        `# Review of !${a.merge_request_iid}: ${str(m.title)}`,
        failed(mrv) + failed(changes) + failed(discussions),
        `**Author** ${who(m.author)} · **${str(m.source_branch)} → ${str(m.target_branch)}** · state ${str(m.state)}`,
        '',
        '## Description',
        String(m.description ?? '') || '_No description._',
        '',
        changedFiles(
          files,
          `Read them with mr_review.changes_get or mr_review.raw_diffs (project_id ${a.project_id}, merge_request_iid ${a.merge_request_iid}).`,
        ),
        '',
        `## Unresolved threads (${open.length})`,
        table(
          ['Thread', 'Where', 'By', 'First note'],
          open.map((d) => {
            const first = list(d.notes)[0] ?? {};
            return [d.id, where(first.position), who(first.author), first.body];
          }),
        ),
        '',
        '## Your review',
        'Review for correctness, tests, security and readability. For each finding give the file, the line, why it matters and a concrete fix. End with approve, approve with comments, or request changes.',
      ].join('\n');
    },
  },
  {
    name: 'mr_risk_assessment',
    title: 'Merge request risk',
    description: 'Scores how risky a merge request is from its size, the files it touches and its pipeline.',
    args: [project, mr],
    reads: ['merge_request.get', 'mr_review.changes_get', 'mr_review.discussion_list'],
    render: async (a, fetch) => {
      const { m, mrv, changes, files } = await mrContext(a, fetch);
      const rows = fileLines(files);
      const lines = rows.reduce(
        (n, r) => n + Number(String(r[2]).slice(1)) + Number(String(r[3]).slice(1)),
        0,
      );
      const sensitive = files.filter((f) =>
        /(^|\/)(\.gitlab-ci\.yml|Dockerfile|package(-lock)?\.json|.*\.(sql|tf)|migrations?\/|auth|security)/i.test(
          String(f.new_path),
        ),
      );
      const deleted = files.filter((f) => f.deleted_file).length;
      let score = 0;
      if (lines > 400) score += 2;
      else if (lines > 100) score += 1;
      if (files.length > 20) score += 1;
      score += Math.min(2, sensitive.length);
      if (deleted) score += 1;
      const pipeline = (m.head_pipeline ?? m.pipeline) as Rec | undefined;
      if (pipeline && pipeline.status !== 'success') score += 1;
      const level = score >= 4 ? 'high' : score >= 2 ? 'medium' : 'low';
      return [
        `# Risk of !${a.merge_request_iid}: ${str(m.title)}`,
        failed(mrv) + failed(changes),
        `**Risk: ${level}** (score ${score} of 7)`,
        '',
        table(
          ['Factor', 'Value'],
          [
            ['Files changed', files.length],
            ['Lines changed', lines],
            ['Files deleted', deleted],
            ['Sensitive files', sensitive.map((f) => f.new_path).join(', ') || 'none'],
            ['Pipeline', pipeline?.status ?? 'none'],
          ],
        ),
        '',
        'Explain the main risks, what could break in production, and which checks would lower the risk before merging.',
      ].join('\n');
    },
  },
  {
    name: 'summarize_open_mrs',
    title: 'Open merge requests',
    description: 'Lists the open merge requests of a project with their age.',
    args: [project],
    reads: ['merge_request.list'],
    render: async (a, fetch) => {
      const mrs = await fetch('merge_request.list', {
        project_id: a.project_id,
        state: 'opened',
        per_page: 100,
      });
      return [
        `# Open merge requests of ${a.project_id}`,
        failed(mrs),
        table(MR_HEAD, mrRows(list(mrs))),
      ].join('\n');
    },
  },
  {
    name: 'generate_release_notes',
    title: 'Release notes',
    description:
      'Drafts release notes from the commits between two refs, grouped as features, fixes and other.',
    args: [
      project,
      { name: 'from', description: 'The earlier tag or branch.', required: true },
      { name: 'to', description: 'The later tag or branch (default: the default branch).' },
    ],
    reads: ['repository.compare', 'project.get'],
    render: async (a, fetch) => {
      let to = a.to;
      if (!to) {
        const p = await fetch('project.get', { project_id: a.project_id });
        to = String((p as Rec)?.default_branch ?? 'main');
      }
      const cmp = await fetch('repository.compare', { project_id: a.project_id, from: a.from, to });
      const commits = list((cmp as Rec)?.commits);
      const groups: Record<string, Rec[]> = { Features: [], Fixes: [], Other: [] };
      for (const c of commits) {
        const t = String(c.title ?? '');
        (/^feat/i.test(t) ? groups.Features : /^fix/i.test(t) ? groups.Fixes : groups.Other).push(c);
      }
      return [
        `# Release notes ${a.from} → ${to}`,
        failed(cmp),
        ...Object.entries(groups).flatMap(([k, cs]) => [
          `## ${k}`,
          cs.length
            ? cs
                .map(
                  (c) =>
                    `- ${str(c.title)} (${String(c.short_id ?? c.id ?? '').slice(0, 8)}, ${str(c.author_name)})`,
                )
                .join('\n')
            : '_None._',
          '',
        ]),
        'Rewrite these as release notes for users: lead with what changed for them, group breaking changes first.',
      ].join('\n');
    },
  },
  {
    name: 'compare_branches',
    title: 'Compare two refs',
    description:
      'The commits and changed files between two branches, tags or commits, with their diffs, and asks what the difference amounts to.',
    args: [
      project,
      { name: 'from', description: 'The base: a branch, tag or commit.', required: true },
      { name: 'to', description: 'What to compare with the base: a branch, tag or commit.', required: true },
    ],
    reads: ['repository.compare'],
    render: async (a, fetch) => {
      const cmp = await fetch('repository.compare', { project_id: a.project_id, from: a.from, to: a.to });
      const c = (typeof cmp === 'object' ? cmp : {}) as Rec;
      const commits = list(c.commits);
      const files = list(c.diffs);
      return [
        `# ${a.from} → ${a.to} in ${a.project_id}`,
        failed(cmp),
        `## Commits (${commits.length})`,
        table(
          ['Commit', 'Title', 'Author', 'Date'],
          commits.map((x) => [
            String(x.short_id ?? x.id ?? '').slice(0, 8),
            x.title,
            x.author_name,
            x.created_at,
          ]),
        ),
        '',
        changedFiles(
          files,
          `Read them with repository.compare (project_id ${a.project_id}, from ${a.from}, to ${a.to}) or as files at ${a.to}.`,
        ),
        '',
        `Say what ${a.to} changes against ${a.from}: the behaviour that differs, what could break, and whether it looks ready to merge.`,
      ].join('\n');
    },
  },
  {
    name: 'summarize_pipeline_status',
    title: 'Pipeline triage',
    description: 'Reads the latest pipeline and its failed jobs and asks for a triage.',
    args: [project, { name: 'ref', description: 'Branch or tag (default: the default branch).' }],
    reads: ['pipeline.latest', 'job.list'],
    render: async (a, fetch) => {
      const p = await fetch(
        'pipeline.latest',
        { project_id: a.project_id, ...(a.ref ? { ref: a.ref } : {}) },
        { absentOk: true },
      );
      if (typeof p === 'string' && /not found/i.test(p))
        return [
          `# No pipeline on ${a.ref ?? 'the default branch'} of ${a.project_id}`,
          '',
          'The instance has no pipeline there yet (or none this token can see): nothing to triage. Run one with pipeline.create, or name another ref.',
        ].join('\n');
      const pr = (typeof p === 'object' ? p : {}) as Rec;
      const jobs = pr.id
        ? await fetch('job.list', { project_id: a.project_id, pipeline_id: pr.id, per_page: 100 })
        : [];
      const bad = list(jobs).filter((j) => j.status === 'failed');
      return [
        `# Pipeline ${str(pr.id)} on ${str(pr.ref)}: ${str(pr.status)}`,
        failed(p) + failed(jobs),
        `## Failed jobs (${bad.length})`,
        table(
          ['Job', 'Stage', 'Reason', 'Allowed to fail'],
          bad.map((j) => [`${j.name} (#${j.id})`, j.stage, j.failure_reason, j.allow_failure]),
        ),
        '',
        'For each failed job say whether it is a flake, an infrastructure failure or a real defect, and what to do next (read its log with job.trace, retry with job.retry, or fix).',
      ].join('\n');
    },
  },
  {
    name: 'stale_items_report',
    title: 'Stale items',
    description: 'Open issues and merge requests nobody touched for a while.',
    args: [project, { name: 'stale_days', description: 'Days without an update (default 30).', days: true }],
    reads: ['issue.list', 'merge_request.list'],
    render: async (a, fetch) => {
      const d = Number(a.stale_days ?? 30);
      const q = { project_id: a.project_id, state: 'opened', updated_before: since(d), per_page: 100 };
      const [issues, mrs] = await Promise.all([fetch('issue.list', q), fetch('merge_request.list', q)]);
      return [
        `# Items not updated for ${d} days in ${a.project_id}`,
        failed(issues) + failed(mrs),
        '## Issues',
        table(
          ['Issue', 'Title', 'Assignee', 'Idle days'],
          list(issues).map((i) => [`#${i.iid}`, i.title, who(i.assignee), ageDays(i.updated_at)]),
        ),
        '',
        '## Merge requests',
        table(
          ['MR', 'Title', 'Author', 'Idle days'],
          list(mrs).map((m) => [`!${m.iid}`, m.title, who(m.author), ageDays(m.updated_at)]),
        ),
        '',
        'Suggest for each item: close, ping the owner, or re-plan.',
      ].join('\n');
    },
  },
  {
    name: 'milestone_progress',
    title: 'Milestone progress',
    description: "How far a milestone's issues are, open against closed.",
    args: [
      project,
      { name: 'milestone', description: 'Milestone title (default: the active milestone due first).' },
    ],
    reads: ['project.milestone_list', 'issue.list'],
    render: async (a, fetch) => {
      // Every milestone, active and closed (no state asked): a closed one's progress is read too.
      const read = await fetch('project.milestone_list', { project_id: a.project_id, per_page: 100 });
      const ms = list(read);
      const m = a.milestone
        ? ms.find((x) => x.title === a.milestone)
        : ms
            .filter((x) => x.state === 'active')
            .sort((x, y) => String(x.due_date ?? '9').localeCompare(String(y.due_date ?? '9')))[0];
      if (a.milestone && !m && ms.length)
        throw new ProtocolError(
          -32602,
          `Prompt milestone_progress: ${a.project_id} has no milestone titled ${JSON.stringify(a.milestone)}; its milestones are ${ms
            .map((x) => `${String(x.title)} (${String(x.state)})`)
            .join(', ')}.`,
        );
      if (!m)
        return `# Milestone progress of ${a.project_id}\n\n${failed(read)}_No ${a.milestone ? `milestone titled ${JSON.stringify(a.milestone)}` : 'active milestone'}._`;
      const issues = await fetch('issue.list', {
        project_id: a.project_id,
        milestone: m.title,
        state: 'all',
        per_page: 100,
      });
      const all = list(issues);
      const closed = all.filter((i) => i.state === 'closed').length;
      const pct = all.length ? Math.round((100 * closed) / all.length) : 0;
      return [
        `# Milestone ${str(m.title)}: ${pct}% done`,
        failed(issues),
        `${closed} of ${all.length} issues closed · due ${str(m.due_date)}`,
        '',
        '## Open issues',
        table(
          ['Issue', 'Title', 'Assignee'],
          all.filter((i) => i.state !== 'closed').map((i) => [`#${i.iid}`, i.title, who(i.assignee)]),
        ),
      ].join('\n');
    },
  },
  {
    name: 'daily_standup',
    title: 'Daily standup',
    description:
      "One person's last day in a project: the merge requests they authored and the issues assigned to them that changed since yesterday.",
    args: [project, { name: 'username', description: 'Whose standup (default: you).' }],
    reads: ['user.current', 'merge_request.list', 'issue.list'],
    render: async (a, fetch) => {
      if (a.username) await knownUser('daily_standup', a.username, fetch);
      const user = a.username ?? String(((await fetch('user.current', {})) as Rec)?.username ?? '');
      const q = { project_id: a.project_id, updated_after: since(1), per_page: 100 };
      const [mrs, issues] = await Promise.all([
        fetch('merge_request.list', { ...q, author_username: user }),
        fetch('issue.list', { ...q, assignee_username: user }),
      ]);
      return [
        `# Standup for @${user}`,
        failed(mrs) + failed(issues),
        '## Merge requests touched since yesterday',
        table(
          ['MR', 'Title', 'State'],
          list(mrs).map((m) => [`!${m.iid}`, m.title, m.state]),
        ),
        '',
        '## Issues touched since yesterday',
        table(
          ['Issue', 'Title', 'State'],
          list(issues).map((i) => [`#${i.iid}`, i.title, i.state]),
        ),
        '',
        'Write the standup: yesterday, today, blockers.',
      ].join('\n');
    },
  },
  {
    name: 'team_member_workload',
    title: 'Workload of one person',
    description: 'Open issues assigned to and merge requests authored by or awaiting review from one person.',
    args: [project, { name: 'username', description: 'Whose workload.', required: true }, days(30)],
    reads: ['merge_request.list', 'issue.list'],
    render: async (a, fetch) => {
      await knownUser('team_member_workload', a.username, fetch);
      const q = {
        project_id: a.project_id,
        state: 'opened',
        updated_after: since(Number(a.days ?? 30)),
        per_page: 100,
      };
      const [authored, reviewing, issues] = await Promise.all([
        fetch('merge_request.list', { ...q, author_username: a.username }),
        fetch('merge_request.list', { ...q, reviewer_username: a.username }),
        fetch('issue.list', { ...q, assignee_username: a.username }),
      ]);
      return [
        `# Workload of @${a.username}`,
        // The window said: an item untouched for longer is left out, and the model should know it was.
        `Open items updated in the last ${Number(a.days ?? 30)} days (days widens the window).`,
        '',
        failed(authored) + failed(reviewing) + failed(issues),
        table(
          ['Kind', 'Open'],
          [
            ['Merge requests authored', list(authored).length],
            ['Reviews waiting', list(reviewing).length],
            ['Issues assigned', list(issues).length],
          ],
        ),
        '',
        '## Reviews waiting',
        table(MR_HEAD, mrRows(list(reviewing))),
      ].join('\n');
    },
  },
  {
    name: 'unassigned_items',
    title: 'Unassigned work',
    description:
      'Open issues nobody is assigned to and open merge requests with neither an assignee nor a reviewer, oldest first, to hand out.',
    args: [project],
    reads: ['issue.list', 'merge_request.list', 'project.members'],
    render: async (a, fetch) => {
      const oldest = { project_id: a.project_id, state: 'opened', order_by: 'created_at', sort: 'asc' };
      const [issues, mrs, members] = await Promise.all([
        fetch('issue.list', { ...oldest, assignee_id: 'None', per_page: 100 }),
        // The instance filters merge requests by one of the two only: both are checked here, on one page.
        fetch('merge_request.list', { ...oldest, per_page: 100 }),
        fetch('project.members', { project_id: a.project_id, per_page: 100 }),
      ]);
      const nobody = (v: unknown) => list(v).length === 0;
      const open = list(mrs).filter((m) => nobody(m.assignees) && !m.assignee && nobody(m.reviewers));
      const people = list(members)
        .filter((m) => m.state === 'active' && Number(m.access_level) >= 30)
        .map((m) => `@${String(m.username)} (user ID ${String(m.id)})`);
      return [
        `# Unassigned work in ${a.project_id}`,
        failed(issues) + failed(mrs) + failed(members),
        `## Issues without an assignee (${list(issues).length})`,
        table(
          ['Issue', 'Title', 'Labels', 'Age (days)'],
          list(issues).map((i) => [
            `#${i.iid}`,
            i.title,
            (Array.isArray(i.labels) ? i.labels : []).join(', '),
            ageDays(i.created_at),
          ]),
        ),
        '',
        `## Merge requests without an assignee or reviewer (${open.length})`,
        table(
          ['MR', 'Title', 'Author', 'Age (days)'],
          open.map((m) => [`!${m.iid}`, m.title, who(m.author), ageDays(m.created_at)]),
        ),
        '',
        `Members who can take them (Developer or above): ${people.join(', ') || 'none found'}.`,
        '',
        'Propose who should take each item and why; assign with issue.update (assignee_ids) and merge_request.update (assignee_ids, reviewer_ids) only once the user agrees.',
      ].join('\n');
    },
  },
  {
    name: 'label_distribution',
    title: 'Label distribution',
    description:
      "How a project's work spreads over its labels: open and closed issues and open merge requests per label.",
    args: [project],
    reads: ['project.label_list'],
    render: async (a, fetch) => {
      const labels = await fetch('project.label_list', {
        project_id: a.project_id,
        with_counts: true,
        per_page: 100,
      });
      const n = (v: unknown) => (typeof v === 'number' ? v : 0);
      const rows = list(labels).sort(
        (x, y) =>
          n(y.open_issues_count) - n(x.open_issues_count) || String(x.name).localeCompare(String(y.name)),
      );
      return [
        `# Labels of ${a.project_id} (${rows.length})`,
        failed(labels),
        table(
          ['Label', 'Open issues', 'Closed issues', 'Open MRs', 'Priority', 'Description'],
          rows.map((l) => [
            l.name,
            n(l.open_issues_count),
            n(l.closed_issues_count),
            n(l.open_merge_requests_count),
            l.priority,
            l.description,
          ]),
        ),
        '',
        'Point out labels nobody uses, labels where open work piles up, and labels that overlap and could be merged.',
      ].join('\n');
    },
  },
  auditProjectSettings,
  auditBranchProtection,
  auditProjectAccess,
  mine(
    'my_open_mrs',
    'My open merge requests',
    'Your open merge requests across every project, with their branches and last update.',
    'merge_request.list_global',
    { scope: 'created_by_me' },
    'Your open merge requests',
    ['MR', 'Title', 'Source', 'Target', 'Draft', 'Updated'],
    (m) => [ref(m, '!'), m.title, m.source_branch, m.target_branch, m.draft ?? false, m.updated_at],
    'Say which of these need something from me next (a reply, a fix, a rebase, a reviewer) and which can wait.',
  ),
  mine(
    'my_pending_reviews',
    'My pending reviews',
    'Open merge requests across every project that wait for your review, oldest update first.',
    'merge_request.list_global',
    { scope: 'reviews_for_me', order_by: 'updated_at', sort: 'asc' },
    'Merge requests waiting for your review',
    ['MR', 'Title', 'Author', 'Target', 'Updated'],
    (m) => [ref(m, '!'), m.title, who(m.author), m.target_branch, m.updated_at],
    'Suggest the order to review them in, the longest waiting and the smallest first, and what to look at in each.',
  ),
  mine(
    'my_issues',
    'My issues',
    'Open issues assigned to you across every project, with labels, milestone and due date.',
    'issue.list_all',
    { scope: 'assigned_to_me' },
    'Open issues assigned to you',
    ['Issue', 'Title', 'Labels', 'Milestone', 'Due'],
    (i) => [
      ref(i, '#'),
      i.title,
      (Array.isArray(i.labels) ? i.labels : []).join(', '),
      (i.milestone as Rec | null)?.title,
      i.due_date,
    ],
    'Plan my work on these: what is overdue or due soon, what is blocked, and what to pick up first.',
  ),
  {
    name: 'team_mr_dashboard',
    title: 'Team merge requests',
    description: 'Open merge requests across a group, by author, with their age.',
    args: [group, { name: 'target_branch', description: 'Only merge requests into this branch.' }],
    reads: ['merge_request.list_group'],
    render: async (a, fetch) => {
      const mrs = await fetch('merge_request.list_group', {
        group_id: a.group_id,
        state: 'opened',
        per_page: 100,
        ...(a.target_branch ? { target_branch: a.target_branch } : {}),
      });
      const byAuthor = new Map<string, number>();
      for (const m of list(mrs)) byAuthor.set(who(m.author), (byAuthor.get(who(m.author)) ?? 0) + 1);
      return [
        `# Open merge requests in ${a.group_id}`,
        failed(mrs),
        table(
          ['Author', 'Open'],
          [...byAuthor].sort((x, y) => y[1] - x[1]),
        ),
        '',
        table(MR_HEAD, mrRows(list(mrs), true)),
      ].join('\n');
    },
  },
  ...PEOPLE,
  ...PROJECT_PROMPTS,
];
