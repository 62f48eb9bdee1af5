/**
 * The prompts about people and teams: one person's numbers in a project or a group, the session's own user's
 * activity, a group's members and reviewers, a recap of a group's last days and its milestones; and the two
 * audits that complete the project audits, its merge workflow and all four at once.
 */
import { roleTitle } from '../executor/roles.js';
import { auditBranchProtection, auditProjectAccess, auditProjectSettings } from './audit.js';
import {
  ageDays,
  count,
  days,
  failed,
  type Fetch,
  group,
  knownUser,
  list,
  median,
  project,
  type PromptSpec,
  type Rec,
  ref,
  since,
  str,
  table,
  who,
} from './render.js';

/** Whether an instant the instance wrote is at or after `from`. */
const within = (iso: unknown, from: string) => typeof iso === 'string' && Date.parse(iso) >= Date.parse(from);

/** Hours from one instant to another, as a reader says it (5.5 h, 3.2 d). */
function span(hours: number | undefined): string {
  if (hours === undefined) return '—';
  return hours < 48 ? `${Math.round(hours * 10) / 10} h` : `${Math.round((hours / 24) * 10) / 10} d`;
}
const hoursBetween = (from: unknown, to: unknown) =>
  (Date.parse(String(to)) - Date.parse(String(from))) / 3_600_000;

const usernames = (v: unknown) => list(v).map((u) => `@${String(u.username)}`);
const labelsOf = (i: Rec) => (Array.isArray(i.labels) ? i.labels : []).join(', ');

/** The window a prompt reads, said once so the model knows what was left out. */
const windowLine = (d: number) =>
  `Over the last ${count(d, 'day')} (since ${since(d).slice(0, 10)}); days widens the window.`;

/** How many items a list read holds at most: one page. */
const PAGE = 100;

/**
 * Said where a list read filled its one page: what is counted from it may be short, and the model should not
 * report the counts as whole.
 */
const capped = (...reads: unknown[]) =>
  reads.some((r) => list(r).length >= PAGE)
    ? `Some lists filled the one page of ${PAGE} read: the counts below may be short.\n\n`
    : '';

/** Where a person's work is read: one project, or every project of a group. */
interface Scope {
  args: Record<string, string>;
  mrs: 'merge_request.list' | 'merge_request.list_group';
  issues: 'issue.list' | 'issue.list_group';
  /** Items of several projects are named by their full reference. */
  across: boolean;
}
const inProject = (a: Record<string, string>): Scope => ({
  args: { project_id: a.project_id },
  mrs: 'merge_request.list',
  issues: 'issue.list',
  across: false,
});
const inGroup = (a: Record<string, string>): Scope => ({
  args: { group_id: a.group_id },
  mrs: 'merge_request.list_group',
  issues: 'issue.list_group',
  across: true,
});

/** One person's merge requests, reviews and issues in a scope over the last `d` days. */
async function personActivity(scope: Scope, user: string, d: number, fetch: Fetch) {
  const from = since(d);
  const q = { ...scope.args, updated_after: from, per_page: 100 };
  const reads = await Promise.all([
    fetch(scope.mrs, { ...q, author_username: user }),
    fetch(scope.mrs, { ...q, reviewer_username: user }),
    fetch(scope.issues, { ...q, assignee_username: user }),
    fetch(scope.issues, { ...scope.args, author_username: user, created_after: from, per_page: 100 }),
  ]);
  const [authored, reviewing, assigned, reported] = reads.map(list);
  const merged = authored.filter((m) => m.state === 'merged' && within(m.merged_at, from));
  return {
    from,
    failures: reads.map(failed).join('') + capped(...reads),
    opened: authored.filter((m) => within(m.created_at, from)),
    merged,
    stillOpen: authored.filter((m) => m.state === 'opened'),
    toMerge: median(merged.map((m) => hoursBetween(m.created_at, m.merged_at))),
    reviewing,
    closed: assigned.filter((i) => i.state === 'closed' && within(i.closed_at, from)),
    working: assigned.filter((i) => i.state === 'opened'),
    reported,
  };
}

type Activity = Awaited<ReturnType<typeof personActivity>>;

function activityCounts(x: Activity): unknown[][] {
  return [
    ['Merge requests opened', x.opened.length],
    ['Merge requests merged', x.merged.length],
    ['Median time to merge', span(x.toMerge)],
    ['Merge requests still open', x.stillOpen.length],
    ['Merge requests reviewing (updated in the window)', x.reviewing.length],
    ['Issues closed (assigned)', x.closed.length],
    ['Issues open and assigned (updated in the window)', x.working.length],
    ['Issues reported', x.reported.length],
  ];
}

async function whoseDefault(prompt: string, a: Record<string, string>, fetch: Fetch): Promise<string> {
  if (a.username) {
    await knownUser(prompt, a.username, fetch);
    return a.username;
  }
  return String(((await fetch('user.current', {})) as Rec)?.username ?? '');
}

const userStats: PromptSpec = {
  name: 'user_stats',
  title: 'Contribution numbers of one person',
  description:
    "One person's numbers in a project over a window: merge requests opened, merged and still open, median time to merge, reviews, issues closed and reported.",
  args: [project, { name: 'username', description: 'Whose numbers (default: you).' }, days(30)],
  reads: ['user.current', 'merge_request.list', 'issue.list'],
  render: async (a, fetch) => {
    const d = Number(a.days ?? 30);
    const user = await whoseDefault('user_stats', a, fetch);
    const x = await personActivity(inProject(a), user, d, fetch);
    return [
      `# Numbers of @${user} in ${a.project_id}`,
      windowLine(d),
      '',
      x.failures + table(['Measure', 'Value'], activityCounts(x)),
      '',
      `## Merged (${x.merged.length})`,
      table(
        ['MR', 'Title', 'Merged', 'Time to merge'],
        x.merged.map((m) => [
          `!${m.iid}`,
          m.title,
          m.merged_at,
          span(hoursBetween(m.created_at, m.merged_at)),
        ]),
      ),
      '',
      'Read these numbers for what they say about how this person works (throughput, review share, how long changes wait), note what they cannot show, and suggest one or two things that would help.',
    ].join('\n');
  },
};

const userActivityReport: PromptSpec = {
  name: 'user_activity_report',
  title: "One person's activity in a group",
  description:
    "What one person did across a group's projects over a window: merge requests opened and merged, reviews, issues closed, in progress and reported, each item named.",
  args: [group, { name: 'username', description: 'Whose activity.', required: true }, days(7)],
  reads: ['merge_request.list_group', 'issue.list_group'],
  render: async (a, fetch) => {
    const d = Number(a.days ?? 7);
    await knownUser('user_activity_report', a.username, fetch);
    const x = await personActivity(inGroup(a), a.username, d, fetch);
    const mrRow = (m: Rec) => [ref(m, '!'), m.title, m.state, m.updated_at];
    const issueRow = (i: Rec) => [ref(i, '#'), i.title, labelsOf(i), i.updated_at];
    return [
      `# Activity of @${a.username} in ${a.group_id}`,
      windowLine(d),
      '',
      x.failures + table(['Measure', 'Value'], activityCounts(x)),
      '',
      `## Merge requests merged (${x.merged.length})`,
      table(
        ['MR', 'Title', 'Merged', 'Time to merge'],
        x.merged.map((m) => [
          ref(m, '!'),
          m.title,
          m.merged_at,
          span(hoursBetween(m.created_at, m.merged_at)),
        ]),
      ),
      '',
      `## Merge requests opened (${x.opened.length})`,
      table(['MR', 'Title', 'State', 'Updated'], x.opened.map(mrRow)),
      '',
      `## Reviewing (${x.reviewing.length})`,
      table(
        ['MR', 'Title', 'Author', 'State', 'Updated'],
        x.reviewing.map((m) => [ref(m, '!'), m.title, who(m.author), m.state, m.updated_at]),
      ),
      '',
      `## Issues closed (${x.closed.length})`,
      table(['Issue', 'Title', 'Labels', 'Updated'], x.closed.map(issueRow)),
      '',
      `## Issues in progress (${x.working.length})`,
      table(['Issue', 'Title', 'Labels', 'Updated'], x.working.map(issueRow)),
      '',
      `## Issues reported (${x.reported.length})`,
      table(['Issue', 'Title', 'Labels', 'Updated'], x.reported.map(issueRow)),
      '',
      `Write a short activity report on @${a.username}: what was delivered, what is in flight, where they helped others (reviews), and anything that looks stuck.`,
    ].join('\n');
  },
};

/** An event as a reader says it: what was done to what. */
function eventWhat(e: Rec): string {
  const push = e.push_data as Rec | undefined;
  if (push) {
    const n = Number(push.commit_count ?? 0);
    return `${str(e.action_name)} ${str(push.ref_type)} ${str(push.ref)}${n ? ` (${n} commit${n === 1 ? '' : 's'}: ${str(push.commit_title)})` : ''}`;
  }
  const note = e.note as Rec | undefined;
  if (note) {
    const mark = note.noteable_type === 'MergeRequest' ? '!' : note.noteable_type === 'Issue' ? '#' : '';
    return `${str(e.action_name)} ${str(note.noteable_type)} ${mark}${str(note.noteable_iid)}: ${str(e.target_title)}`;
  }
  const mark = e.target_type === 'MergeRequest' ? '!' : e.target_type === 'Issue' ? '#' : '';
  const target = e.target_type ? ` ${str(e.target_type)} ${mark}${str(e.target_iid ?? e.target_id)}` : '';
  return `${str(e.action_name)}${target}${e.target_title ? `: ${str(e.target_title)}` : ''}`;
}

/** How many projects my_activity_summary reads the path of (events name a project by ID only). */
const PROJECTS_NAMED = 10;

const myActivitySummary: PromptSpec = {
  name: 'my_activity_summary',
  title: 'My activity',
  description:
    'Your own activity across every project over a window (pushes, merge requests, issues, comments, approvals), with your merge requests still open.',
  args: [days(7)],
  reads: ['user.event_list_contributions', 'merge_request.list_global', 'project.get'],
  render: async (a, fetch) => {
    const d = Number(a.days ?? 7);
    const from = since(d);
    // The instance reads `after` as a day, exclusive: the day before the window's first, then cut here.
    const after = since(d + 1).slice(0, 10);
    const [events, open] = await Promise.all([
      fetch('user.event_list_contributions', { after, per_page: 100 }),
      fetch('merge_request.list_global', { scope: 'created_by_me', state: 'opened', per_page: 100 }),
    ]);
    const seen = list(events).filter((e) => within(e.created_at, from));
    // Events name their project by ID only: the merge requests read name some by path, the others are read.
    const paths = new Map<string, string>();
    for (const m of list(open)) paths.set(String(m.project_id), ref(m, '!').replace(/!\d+$/, ''));
    const unnamed = [...new Set(seen.map((e) => String(e.project_id ?? '')))]
      .filter((id) => id && !paths.has(id))
      .slice(0, PROJECTS_NAMED);
    const named = await Promise.all(unnamed.map((id) => fetch('project.get', { project_id: id })));
    unnamed.forEach((id, k) => {
      const p = named[k];
      if (typeof p === 'object' && !Array.isArray(p)) paths.set(id, String(p.path_with_namespace));
    });
    const place = (e: Rec) =>
      e.project_id ? (paths.get(String(e.project_id)) ?? `project ${String(e.project_id)}`) : '—';
    const byAction = new Map<string, number>();
    for (const e of seen) byAction.set(String(e.action_name), (byAction.get(String(e.action_name)) ?? 0) + 1);
    return [
      `# Your activity over the last ${count(d, 'day')}`,
      windowLine(d),
      '',
      `${failed(events) + failed(open)}## By kind (${count(seen.length, 'event')}${list(events).length >= 100 ? ', the newest 100 read' : ''})`,
      table(
        ['Action', 'Count'],
        [...byAction].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0])),
      ),
      '',
      '## Events, newest first',
      table(
        ['When', 'Project', 'What'],
        seen.map((e) => [e.created_at, place(e), eventWhat(e)]),
      ),
      '',
      `## Your merge requests still open (${list(open).length})`,
      table(
        ['MR', 'Title', 'Updated', 'Age (days)'],
        list(open).map((m) => [ref(m, '!'), m.title, m.updated_at, ageDays(m.created_at)]),
      ),
      '',
      'Summarize what I did in this window, grouped by project and theme, in a few lines I could paste into a status update; then list what is still open and what it waits for.',
    ].join('\n');
  },
};

/** A group's members as the instance lists them, by username: role and whether the membership is active. */
function memberIndex(members: unknown) {
  const out = new Map<string, { role: string; level: number; active: boolean }>();
  for (const m of list(members)) {
    const level = Number(m.access_level);
    out.set(`@${String(m.username)}`, {
      role: roleTitle(level) ?? String(m.access_level),
      level,
      active: (m.state ?? 'active') === 'active',
    });
  }
  return out;
}

const teamOverview: PromptSpec = {
  name: 'team_overview',
  title: 'Team overview',
  description:
    "A group's members with their role and open load (merge requests authored, reviews waiting, issues assigned), and the open work nobody owns.",
  args: [group],
  reads: ['group.members', 'merge_request.list_group', 'issue.list_group'],
  render: async (a, fetch) => {
    const open = { group_id: a.group_id, state: 'opened', per_page: 100 };
    const [members, mrs, issues] = await Promise.all([
      fetch('group.members', { group_id: a.group_id, per_page: 100 }),
      fetch('merge_request.list_group', open),
      fetch('issue.list_group', open),
    ]);
    const roster = memberIndex(members);
    const load = new Map<string, { mrs: number; reviews: number; issues: number; oldest: number }>();
    const of = (u: string) => {
      let x = load.get(u);
      if (!x) load.set(u, (x = { mrs: 0, reviews: 0, issues: 0, oldest: NaN }));
      return x;
    };
    for (const u of roster.keys()) of(u);
    for (const m of list(mrs)) {
      of(who(m.author)).mrs++;
      for (const r of usernames(m.reviewers)) {
        const x = of(r);
        x.reviews++;
        const age = ageDays(m.created_at);
        if (!(x.oldest >= age)) x.oldest = age;
      }
    }
    for (const i of list(issues)) for (const u of usernames(i.assignees)) of(u).issues++;
    const rows = [...load]
      .map(([u, x]) => ({ u, x, total: x.mrs + x.reviews + x.issues }))
      .sort((p, q) => q.total - p.total || p.u.localeCompare(q.u))
      .map(({ u, x, total }) => {
        const r = roster.get(u);
        return [
          u,
          r ? `${r.role}${r.active ? '' : ' (awaiting)'}` : 'not a member',
          x.mrs,
          x.reviews,
          Number.isNaN(x.oldest) ? '—' : x.oldest,
          x.issues,
          total,
        ];
      });
    const unassigned = list(issues).filter((i) => !list(i.assignees).length);
    const unreviewed = list(mrs).filter((m) => !list(m.reviewers).length && !m.draft);
    return [
      `# Team ${a.group_id}: ${count(roster.size, 'member')}`,
      failed(members) + failed(mrs) + failed(issues) + capped(members, mrs, issues),
      `${count(list(mrs).length, 'open merge request')}, ${count(list(issues).length, 'open issue')} (${unassigned.length} without an assignee); ${count(unreviewed.length, 'merge request')} ready for review without a reviewer.`,
      '',
      '## Load per person (open items)',
      table(
        [
          'Person',
          'Role',
          'MRs authored',
          'Reviews waiting',
          'Oldest review (days)',
          'Issues assigned',
          'Total',
        ],
        rows,
      ),
      '',
      `## Issues without an assignee (${unassigned.length})`,
      table(
        ['Issue', 'Title', 'Labels', 'Age (days)'],
        unassigned.map((i) => [ref(i, '#'), i.title, labelsOf(i), ageDays(i.created_at)]),
      ),
      '',
      'Give an overview of this team: who carries the most and who has room, which open work nobody owns, and one concrete rebalancing step (who should take what).',
    ].join('\n');
  },
};

const reviewerWorkload: PromptSpec = {
  name: 'reviewer_workload',
  title: 'Reviewer workload',
  description:
    'Open merge requests across a group per reviewer, the longest waiting first, the merge requests nobody reviews, and the members with no review waiting.',
  args: [group],
  reads: ['merge_request.list_group', 'group.members'],
  render: async (a, fetch) => {
    const [mrs, members] = await Promise.all([
      fetch('merge_request.list_group', {
        group_id: a.group_id,
        state: 'opened',
        order_by: 'created_at',
        sort: 'asc',
        per_page: 100,
      }),
      fetch('group.members', { group_id: a.group_id, per_page: 100 }),
    ]);
    const queue = new Map<string, Rec[]>();
    for (const m of list(mrs))
      for (const r of usernames(m.reviewers)) queue.set(r, [...(queue.get(r) ?? []), m]);
    const oldest = (ms: Rec[]) => Math.max(...ms.map((m) => ageDays(m.created_at)));
    const rows = [...queue]
      .sort((x, y) => y[1].length - x[1].length || oldest(y[1]) - oldest(x[1]) || x[0].localeCompare(y[0]))
      .map(([r, ms]) => [
        r,
        ms.length,
        oldest(ms),
        ms
          .sort((x, y) => ageDays(y.created_at) - ageDays(x.created_at))
          .map((m) => ref(m, '!'))
          .join(', '),
      ]);
    const nobody = list(mrs).filter((m) => !list(m.reviewers).length);
    const roster = memberIndex(members);
    const free = [...roster]
      .filter(([u, r]) => r.active && r.level >= 30 && !queue.has(u))
      .map(([u, r]) => `${u} (${r.role})`);
    return [
      `# Review load in ${a.group_id}`,
      failed(mrs) + failed(members) + capped(mrs, members),
      `${count(list(mrs).length, 'open merge request')}; ${nobody.length} without a reviewer.`,
      '',
      '## Per reviewer',
      table(['Reviewer', 'Open reviews', 'Longest waiting (days)', 'Merge requests, oldest first'], rows),
      '',
      `## Without a reviewer (${nobody.length})`,
      table(
        ['MR', 'Title', 'Author', 'Draft', 'Age (days)'],
        nobody.map((m) => [ref(m, '!'), m.title, who(m.author), m.draft ?? false, ageDays(m.created_at)]),
      ),
      '',
      `Members (Developer or above) with no review waiting: ${free.join(', ') || 'none'}.`,
      '',
      'Say who is overloaded with reviews and which merge requests have waited too long; propose a reviewer for each merge request without one, from those with room. Change reviewers with merge_request.update (reviewer_ids) only once the user agrees.',
    ].join('\n');
  },
};

const weeklyTeamRecap: PromptSpec = {
  name: 'weekly_team_recap',
  title: 'Team recap',
  description:
    "What a group's team did over a window: merge requests merged and opened, issues closed and opened, per person and item by item.",
  args: [group, days(7)],
  reads: ['merge_request.list_group', 'issue.list_group'],
  render: async (a, fetch) => {
    const d = Number(a.days ?? 7);
    const from = since(d);
    const g = { group_id: a.group_id, per_page: 100 };
    const reads = await Promise.all([
      fetch('merge_request.list_group', { ...g, state: 'merged', updated_after: from }),
      fetch('merge_request.list_group', { ...g, created_after: from }),
      fetch('issue.list_group', { ...g, state: 'closed', updated_after: from }),
      fetch('issue.list_group', { ...g, created_after: from }),
    ]);
    const merged = list(reads[0]).filter((m) => within(m.merged_at, from));
    const openedMrs = list(reads[1]);
    const closed = list(reads[2]).filter((i) => within(i.closed_at, from));
    const openedIssues = list(reads[3]);
    const people = new Map<string, number[]>();
    const credit = (u: string, k: number) => {
      const row = people.get(u) ?? [0, 0, 0, 0];
      row[k]++;
      people.set(u, row);
    };
    for (const m of merged) credit(who(m.author), 0);
    for (const m of openedMrs) credit(who(m.author), 1);
    // A closed issue counts for whoever it was assigned to; for who closed it when nobody was.
    for (const i of closed) {
      const to = usernames(i.assignees);
      for (const u of to.length ? to : [who(i.closed_by)]) credit(u, 2);
    }
    for (const i of openedIssues) credit(who(i.author), 3);
    const rows = [...people]
      .sort((x, y) => y[1][0] - x[1][0] || y[1][2] - x[1][2] || x[0].localeCompare(y[0]))
      .map(([u, n]) => [u, ...n]);
    return [
      `# Recap of ${a.group_id}, last ${count(d, 'day')}`,
      windowLine(d),
      '',
      reads.map(failed).join('') +
        capped(...reads) +
        `${count(merged.length, 'merge request')} merged, ${openedMrs.length} opened; ${count(closed.length, 'issue')} closed, ${openedIssues.length} opened.`,
      '',
      '## Per person',
      table(['Person', 'MRs merged', 'MRs opened', 'Issues closed', 'Issues opened'], rows),
      '',
      `## Merged (${merged.length})`,
      table(
        ['MR', 'Title', 'Author', 'Merged', 'Time to merge'],
        merged.map((m) => [
          ref(m, '!'),
          m.title,
          who(m.author),
          m.merged_at,
          span(hoursBetween(m.created_at, m.merged_at)),
        ]),
      ),
      '',
      `## Issues closed (${closed.length})`,
      table(
        ['Issue', 'Title', 'Assignees', 'Closed'],
        closed.map((i) => [ref(i, '#'), i.title, usernames(i.assignees).join(', '), i.closed_at]),
      ),
      '',
      `## New issues (${openedIssues.length})`,
      table(
        ['Issue', 'Title', 'Author', 'Assignees', 'State'],
        openedIssues.map((i) => [
          ref(i, '#'),
          i.title,
          who(i.author),
          usernames(i.assignees).join(', '),
          i.state,
        ]),
      ),
      '',
      'Write the team recap: the highlights of what shipped, what each person moved forward, new work that came in (and whether anyone owns it), and what to watch next week.',
    ].join('\n');
  },
};

/** How many active milestones group_milestone_progress reads the issues of (those due first). */
const MILESTONES_READ = 10;

const groupMilestoneProgress: PromptSpec = {
  name: 'group_milestone_progress',
  title: 'Group milestone progress',
  description:
    "How far each of a group's active milestones is: issues closed against open, due date against time elapsed, and the open issues of each.",
  args: [group],
  reads: ['group.group_milestone_list', 'issue.list_group'],
  render: async (a, fetch) => {
    const read = await fetch('group.group_milestone_list', {
      group_id: a.group_id,
      state: 'active',
      per_page: 100,
    });
    const ms = list(read)
      .sort((x, y) => String(x.due_date ?? '9').localeCompare(String(y.due_date ?? '9')))
      .slice(0, MILESTONES_READ);
    const issuesOf = await Promise.all(
      ms.map((m) =>
        fetch('issue.list_group', { group_id: a.group_id, milestone: m.title, state: 'all', per_page: 100 }),
      ),
    );
    const now = Date.now();
    const rows = ms.map((m, k) => {
      const all = list(issuesOf[k]);
      const closed = all.filter((i) => i.state === 'closed').length;
      const start = Date.parse(String(m.start_date ?? m.created_at));
      const due = Date.parse(String(m.due_date));
      const elapsed =
        Number.isNaN(due) || Number.isNaN(start) || due <= start
          ? '—'
          : `${Math.round(Math.min(100, Math.max(0, (100 * (now - start)) / (due - start))))}%`;
      const left = Number.isNaN(due) ? '—' : Math.ceil((due - now) / 86_400_000);
      return {
        m,
        all,
        row: [
          m.title,
          m.due_date,
          typeof left === 'number' && left < 0 ? `overdue by ${-left}` : left,
          `${closed} of ${all.length}`,
          all.length ? `${Math.round((100 * closed) / all.length)}%` : '—',
          elapsed,
        ],
      };
    });
    const more = list(read).length > ms.length ? ` (the ${ms.length} due first of ${list(read).length})` : '';
    return [
      `# Milestones of ${a.group_id}: ${ms.length} active${more}`,
      failed(read) + issuesOf.map(failed).join('') + capped(...issuesOf),
      table(
        ['Milestone', 'Due', 'Days left', 'Issues closed', 'Done', 'Time elapsed'],
        rows.map((r) => r.row),
      ),
      '',
      ...rows.flatMap(({ m, all }) => {
        const open = all.filter((i) => i.state !== 'closed');
        return [
          `## ${str(m.title)}: open issues (${open.length})`,
          table(
            ['Issue', 'Title', 'Assignees', 'Labels'],
            open.map((i) => [ref(i, '#'), i.title, usernames(i.assignees).join(', '), labelsOf(i)]),
          ),
          '',
        ];
      }),
      'Say which milestones are on track and which are at risk (work left against time left), what should move to a later milestone, and which open issues have no assignee.',
    ].join('\n');
  },
};

/** A setting's verdict: ok, review, or unknown where it could not be read. */
const verdict = (v: unknown, ok: boolean) =>
  v === undefined || v === null ? 'unknown' : ok ? 'ok' : 'review';

const auditProjectWorkflow: PromptSpec = {
  name: 'audit_project_workflow',
  title: 'Audit project workflow',
  description:
    "Checks how changes reach a project's default branch: merge method, squash, pipelines and threads required, approval rules and settings, and the issue and merge request templates and labels its workflow relies on.",
  args: [project],
  // The approval reads are made where they are offered (they need a paid tier); not among the prompt's reads, so a
  // free instance still has the audit, with what it cannot read said inside it.
  reads: ['project.get', 'template.project_template_list', 'project.label_list'],
  render: async (a, fetch) => {
    const pid = { project_id: a.project_id };
    const [p, issueTemplates, mrTemplates, labels, approvals, rules] = await Promise.all([
      fetch('project.get', pid),
      fetch('template.project_template_list', { ...pid, type: 'issues', per_page: 100 }),
      fetch('template.project_template_list', { ...pid, type: 'merge_requests', per_page: 100 }),
      fetch('project.label_list', { ...pid, per_page: 100 }),
      fetch('project.approval_config_get', pid),
      fetch('project.approval_rule_list', { ...pid, per_page: 100 }),
    ]);
    const r = (typeof p === 'object' ? p : {}) as Rec;
    const c = (typeof approvals === 'object' ? approvals : {}) as Rec;
    const ruleList = list(rules);
    const required = ruleList.reduce((n, x) => Math.max(n, Number(x.approvals_required ?? 0)), 0);
    const names = (v: unknown) => list(v).map((t) => String(t.name ?? t.key));
    const checks: [string, unknown, string][] = [
      ['Merge method', r.merge_method, verdict(r.merge_method, true)],
      ['Squash on merge', r.squash_option, verdict(r.squash_option, true)],
      [
        'Pipelines must succeed to merge',
        r.only_allow_merge_if_pipeline_succeeds,
        verdict(r.only_allow_merge_if_pipeline_succeeds, r.only_allow_merge_if_pipeline_succeeds === true),
      ],
      [
        'Skipped pipelines count as passed',
        r.allow_merge_on_skipped_pipeline,
        verdict(r.allow_merge_on_skipped_pipeline, r.allow_merge_on_skipped_pipeline !== true),
      ],
      [
        'Threads must be resolved to merge',
        r.only_allow_merge_if_all_discussions_are_resolved,
        verdict(
          r.only_allow_merge_if_all_discussions_are_resolved,
          r.only_allow_merge_if_all_discussions_are_resolved === true,
        ),
      ],
      [
        'Approvals required (most of any rule)',
        Array.isArray(rules) ? required : undefined,
        verdict(Array.isArray(rules) ? required : undefined, required >= 1),
      ],
      [
        'Authors may approve their own merge requests',
        c.merge_requests_author_approval,
        verdict(c.merge_requests_author_approval, c.merge_requests_author_approval === false),
      ],
      [
        'Committers barred from approving',
        c.merge_requests_disable_committers_approval,
        verdict(
          c.merge_requests_disable_committers_approval,
          c.merge_requests_disable_committers_approval === true,
        ),
      ],
      [
        'Approvals reset when commits are pushed',
        c.reset_approvals_on_push,
        verdict(c.reset_approvals_on_push, c.reset_approvals_on_push === true),
      ],
      [
        'Issue templates',
        Array.isArray(issueTemplates) ? names(issueTemplates).join(', ') || 'none' : undefined,
        verdict(Array.isArray(issueTemplates) ? 1 : undefined, list(issueTemplates).length > 0),
      ],
      [
        'Merge request templates',
        Array.isArray(mrTemplates) ? names(mrTemplates).join(', ') || 'none' : undefined,
        verdict(Array.isArray(mrTemplates) ? 1 : undefined, list(mrTemplates).length > 0),
      ],
      [
        'Labels',
        Array.isArray(labels) ? list(labels).length : undefined,
        verdict(Array.isArray(labels) ? 1 : undefined, list(labels).length > 0),
      ],
    ];
    return [
      `# Workflow audit of ${str(r.path_with_namespace ?? a.project_id)}`,
      [p, issueTemplates, mrTemplates, labels, approvals, rules].map(failed).join(''),
      table(
        ['Setting', 'Value', 'Verdict'],
        checks.map(([k, v, ok]) => [k, v, ok]),
      ),
      '',
      `## Approval rules (${ruleList.length})`,
      table(
        ['Rule', 'Type', 'Approvals required', 'Eligible approvers', 'Branches'],
        ruleList.map((x) => [
          x.name,
          x.rule_type,
          x.approvals_required,
          usernames(x.eligible_approvers ?? x.users).join(', '),
          list(x.protected_branches)
            .map((b) => b.name)
            .join(', ') || 'all',
        ]),
      ),
      '',
      'For each setting marked review or unknown, say what could go wrong in the way changes are merged today and the change that fixes it (the setting and its value).',
    ].join('\n');
  },
};

/** One read for the same action and arguments, however many of the audits ask for it. */
function once(fetch: Fetch): Fetch {
  const seen = new Map<string, ReturnType<Fetch>>();
  return (id, args, opts) => {
    const key = JSON.stringify([id, args, opts ?? {}]);
    let r = seen.get(key);
    if (!r) seen.set(key, (r = fetch(id, args, opts)));
    return r;
  };
}

const AUDITS = [auditProjectSettings, auditBranchProtection, auditProjectAccess, auditProjectWorkflow];

const auditProjectFull: PromptSpec = {
  name: 'audit_project_full',
  title: 'Full project audit',
  description:
    'All four project audits in one: settings, branch protection, access and workflow, and asks for one list of findings by risk.',
  args: [project],
  reads: [...new Set(AUDITS.flatMap((x) => x.reads))],
  render: async (a, fetch) => {
    const shared = once(fetch);
    const parts = await Promise.all(AUDITS.map((x) => x.render(a, shared)));
    return [
      `# Full audit of ${a.project_id}`,
      '',
      // Each audit as a section of this one: its headings one level down.
      ...parts.map((t) => `${t.replace(/^(#+) /gm, '#$1 ')}\n`),
      'Bring the findings of the four audits together: one list ordered by risk, each with the setting or member concerned, why it matters, and the change to make.',
    ].join('\n');
  },
};

export const PEOPLE: PromptSpec[] = [
  userStats,
  myActivitySummary,
  userActivityReport,
  teamOverview,
  reviewerWorkload,
  weeklyTeamRecap,
  groupMilestoneProgress,
  auditProjectWorkflow,
  auditProjectFull,
];
