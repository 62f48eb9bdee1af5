/**
 * Prompts about one project's work as a whole: what a merge request changes and who should review it, how the
 * project, its reviews, its releases and its merge rate are doing, what landed lately and who contributes.
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import { roleTitle } from '../executor/roles.js';
import {
  ageDays,
  changedFiles,
  count,
  days,
  failed,
  type Fetch,
  fileLines,
  list,
  median,
  mr,
  project,
  type PromptSpec,
  type Rec,
  since,
  str,
  table,
  who,
} from './render.js';

const DAY = 86_400_000;
const obj = (v: unknown): Rec => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : {});
const time = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : NaN);
const day = (v: unknown) => (typeof v === 'string' ? v.slice(0, 10) : '—');
/** A list's size as read: one full page of 100 may be the first of several. */
const counted = (items: Rec[]) => (items.length >= 100 ? '100+' : items.length);
const usernames = (v: unknown) => list(v).map((u) => `@${String(u.username)}`);

/** A duration as a reader takes it in: minutes under an hour, hours under two days, then days. */
export function span(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  if (ms < 2 * DAY) return `${(ms / 3_600_000).toFixed(1)} h`;
  return `${(ms / DAY).toFixed(1)} days`;
}

/** The Monday (UTC) starting the ISO week that holds `ms`, as YYYY-MM-DD. */
function weekOf(ms: number): string {
  const d = new Date(ms);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** The folder a path sits in ('(root)' for a file at the top). */
const folderOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '(root)');

/**
 * The read a prompt is about answered not found (the merge request, the branch): a prompt about nothing would
 * mislead the model, so it is refused as prompts whose every read is missing are, naming what was given.
 */
function mustExist(prompt: string, v: unknown, given: Record<string, string>): void {
  if (typeof v === 'string' && /not found/i.test(v))
    throw new ProtocolError(
      -32602,
      `Prompt ${prompt}: the instance has nothing for ${Object.entries(given)
        .map(([k, x]) => `${k} ${JSON.stringify(x)}`)
        .join(', ')} (${v
        .split('\n')[0]
        .replace(/^(\S+: )#+\s*/, '$1')
        .replace(/\.$/, '')}). Check the values; completion/complete suggests those that exist.`,
    );
}

/** What keeps an open merge request from merging as it stands, or '' when nothing does. */
function holdUp(m: Rec): string {
  const why: string[] = [];
  if (m.draft || m.work_in_progress) why.push('draft');
  if (m.has_conflicts) why.push('conflicts');
  if (m.blocking_discussions_resolved === false) why.push('unresolved threads');
  return why.join(', ');
}

/** Labels that mark an item as stopping a release. */
const BLOCKER = /(^|[^a-z])(blocker|blocking|critical)([^a-z]|$)|(severity|priority)::?\s*1\b/i;
const blocks = (item: Rec) => list(item.labels).some((l) => BLOCKER.test(String(l)));

async function defaultBranch(a: Record<string, string>, fetch: Fetch) {
  const p = await fetch('project.get', { project_id: a.project_id });
  return { p, branch: typeof obj(p).default_branch === 'string' ? String(obj(p).default_branch) : undefined };
}

export const PROJECT_PROMPTS: PromptSpec[] = [
  {
    name: 'summarize_mr_changes',
    title: 'Summarize a merge request',
    description:
      'A merge request’s commits, the folders it touches with lines added and removed, and its diffs, with an ask for a plain summary of what changes and why.',
    args: [project, mr],
    reads: ['merge_request.get', 'mr_review.changes_get', 'merge_request.commits'],
    render: async (a, fetch) => {
      const args = { project_id: a.project_id, merge_request_iid: Number(a.merge_request_iid) };
      const [mrv, changes, commits] = await Promise.all([
        fetch('merge_request.get', args),
        fetch('mr_review.changes_get', { ...args, per_page: 100 }),
        fetch('merge_request.commits', { ...args, per_page: 100 }),
      ]);
      const m = obj(mrv);
      const files = list(changes);
      const rows = fileLines(files);
      const areas = new Map<string, { files: number; hidden: number; added: number; removed: number }>();
      for (const [i, [path, , added, removed]] of rows.entries()) {
        const area = areas.get(folderOf(String(path))) ?? { files: 0, hidden: 0, added: 0, removed: 0 };
        area.files++;
        // A diff the instance left out (too large, collapsed) has lines nobody counted here.
        if (!files[i].diff || files[i].too_large || files[i].collapsed) area.hidden++;
        area.added += Number(String(added).slice(1));
        area.removed += Number(String(removed).slice(1));
        areas.set(folderOf(String(path)), area);
      }
      const byArea = [...areas].sort(
        (x, y) => y[1].added + y[1].removed - (x[1].added + x[1].removed) || x[0].localeCompare(y[0]),
      );
      const added = byArea.reduce((n, [, v]) => n + v.added, 0);
      const removed = byArea.reduce((n, [, v]) => n + v.removed, 0);
      return [
        `# What !${a.merge_request_iid} changes: ${str(m.title)}`,
        failed(mrv) + failed(changes) + failed(commits),
        `**Author** ${who(m.author)} · **${str(m.source_branch)} → ${str(m.target_branch)}** · state ${str(m.state)} · ${count(list(commits).length, 'commit')} · ${count(files.length, 'file')} · +${added} -${removed}`,
        '',
        '## Description',
        String(m.description ?? '') || '_No description._',
        '',
        `## Commits (${list(commits).length})`,
        table(
          ['Commit', 'Title', 'Author', 'Date'],
          list(commits).map((c) => [
            String(c.short_id ?? c.id ?? '').slice(0, 8),
            c.title,
            c.author_name,
            c.created_at,
          ]),
        ),
        '',
        '## Where the change lands',
        table(
          ['Folder', 'Files', 'Added', 'Removed'],
          byArea.map(([k, v]) => [
            k,
            v.hidden ? `${v.files} (${v.hidden} too large to count)` : v.files,
            `+${v.added}`,
            `-${v.removed}`,
          ]),
        ),
        '',
        changedFiles(
          files,
          `Read them with mr_review.changes_get (project_id ${a.project_id}, merge_request_iid ${a.merge_request_iid}).`,
        ),
        '',
        'Summarize this merge request for someone who has not read it: what it changes and why (from the description and the commits), then one bullet per folder above, largest first. Point out what a reviewer should look at closely and anything that seems missing (tests, documentation, a migration).',
      ].join('\n');
    },
  },
  {
    name: 'suggest_mr_reviewers',
    title: 'Suggest reviewers',
    description:
      'Who should review a merge request: the members who committed to the files it changes, and how many open reviews each already has.',
    args: [project, mr],
    reads: [
      'merge_request.get',
      'mr_review.changes_get',
      'repository.commit_list',
      'project.members',
      'merge_request.list',
    ],
    render: async (a, fetch) => {
      const args = { project_id: a.project_id, merge_request_iid: Number(a.merge_request_iid) };
      const [mrv, changes, members, open] = await Promise.all([
        fetch('merge_request.get', args),
        fetch('mr_review.changes_get', { ...args, per_page: 100 }),
        fetch('project.members', { project_id: a.project_id, per_page: 100 }),
        fetch('merge_request.list', { project_id: a.project_id, state: 'opened', per_page: 100 }),
      ]);
      mustExist('suggest_mr_reviewers', mrv, {
        project_id: a.project_id,
        merge_request_iid: a.merge_request_iid,
      });
      const m = obj(mrv);
      // A file the change adds has no history: its folder's is read instead.
      const paths = [
        ...new Set(
          list(changes).flatMap((f) => {
            const path = String(f.new_file ? folderOf(String(f.new_path)) : (f.old_path ?? f.new_path));
            return path === '(root)' ? [] : [path];
          }),
        ),
      ];
      const read = paths.slice(0, 10);
      const history = await Promise.all(
        read.map((path) =>
          fetch('repository.commit_list', {
            project_id: a.project_id,
            ...(typeof m.target_branch === 'string' ? { ref_name: m.target_branch } : {}),
            path,
            per_page: 20,
          }),
        ),
      );
      // Each commit once, though it touched several of the paths.
      const commits = new Map<string, Rec>();
      for (const c of history.flatMap(list)) commits.set(String(c.id), c);
      const reviews = new Map<string, number>();
      for (const o of list(open))
        if (o.iid !== m.iid)
          for (const u of usernames(o.reviewers)) reviews.set(u, (reviews.get(u) ?? 0) + 1);
      const reviewing = new Set(usernames(m.reviewers));
      const author = who(m.author);
      const people = list(members)
        .filter((x) => (x.state ?? 'active') === 'active' && Number(x.access_level) >= 30)
        .filter((x) => `@${String(x.username)}` !== author)
        .map((x) => {
          const mine = [...commits.values()].filter(
            (c) =>
              String(c.author_name ?? '').toLowerCase() === String(x.name ?? '').toLowerCase() ||
              (!!x.email && c.author_email === x.email),
          );
          const last = mine
            .map((c) => String(c.created_at ?? ''))
            .sort()
            .pop();
          return { x, handle: `@${String(x.username)}`, touched: mine.length, last, load: 0 };
        })
        .map((r) => ({ ...r, load: reviews.get(r.handle) ?? 0 }))
        .sort((p, q) => q.touched - p.touched || p.load - q.load || p.handle.localeCompare(q.handle));
      const known = new Set(
        list(members).flatMap((x) => [String(x.name ?? '').toLowerCase(), String(x.email ?? '')]),
      );
      const outsiders = [
        ...new Set(
          [...commits.values()]
            .filter(
              (c) =>
                !known.has(String(c.author_name ?? '').toLowerCase()) && !known.has(String(c.author_email)),
            )
            .map((c) => String(c.author_name)),
        ),
      ];
      // One failure said once, though every path's read met it.
      const failures = [...new Set(history.filter((h) => typeof h === 'string'))].map(failed).join('');
      return [
        `# Reviewers for !${a.merge_request_iid}: ${str(m.title)}`,
        failed(mrv) + failed(changes) + failed(members) + failed(open) + failures,
        `**Author** ${author} · **${str(m.source_branch)} → ${str(m.target_branch)}** · reviewers now: ${[...reviewing].join(', ') || 'none'}`,
        '',
        `Paths whose history was read on ${str(m.target_branch)} (the latest 20 commits of each; a new file's folder): ${read.join(', ') || 'none'}${paths.length > read.length ? `, and ${paths.length - read.length} more not read` : ''}.`,
        '',
        `## Candidates (${people.length}): members with Developer access or above, the author left out`,
        table(
          ['Member', 'Role', 'Commits to these paths', 'Last of them', 'Open reviews', 'Reviewing this'],
          people.map((r) => [
            `${r.handle} (user ID ${String(r.x.id)})`,
            roleTitle(Number(r.x.access_level)) ?? r.x.access_level,
            r.touched,
            day(r.last),
            r.load,
            reviewing.has(r.handle) ? 'yes' : 'no',
          ]),
        ),
        '',
        `Ranked by commits to these paths, then fewest open reviews: ${
          people
            .slice(0, 2)
            .map((r) => r.handle)
            .join(', ') || 'nobody qualifies'
        }.`,
        ...(outsiders.length
          ? ['', `Committed to these paths but not members who can review: ${outsiders.join(', ')}.`]
          : []),
        '',
        'Recommend one or two reviewers and say why (who knows this code, who has room). Set them with merge_request.update (reviewer_ids) only once the user agrees.',
      ].join('\n');
    },
  },
  {
    name: 'project_health_check',
    title: 'Project health check',
    description:
      'Signals of a project’s health: its default branch’s pipelines, idle and overdue work, unassigned issues and recent activity, each judged ok, watch or act.',
    args: [project],
    reads: ['project.get', 'pipeline.list', 'merge_request.list', 'issue.list'],
    render: async (a, fetch) => {
      const { p, branch } = await defaultBranch(a, fetch);
      const open = { project_id: a.project_id, state: 'opened', per_page: 100 };
      const [pipelines, mrv, iv] = await Promise.all([
        fetch('pipeline.list', {
          project_id: a.project_id,
          ...(branch ? { ref: branch } : {}),
          per_page: 20,
        }),
        fetch('merge_request.list', open),
        fetch('issue.list', open),
      ]);
      const runs = list(pipelines);
      const finished = runs.filter((r) => ['success', 'failed'].includes(String(r.status)));
      const passed = finished.filter((r) => r.status === 'success').length;
      const rate = finished.length ? Math.round((100 * passed) / finished.length) : NaN;
      const mrs = list(mrv);
      const issues = list(iv);
      const idle = (items: Rec[]) => items.filter((i) => ageDays(i.updated_at) >= 30).length;
      const today = new Date().toISOString().slice(0, 10);
      const overdue = issues.filter((i) => typeof i.due_date === 'string' && i.due_date < today).length;
      const unassigned = issues.filter((i) => !list(i.assignees).length && !i.assignee).length;
      const quiet = ageDays(obj(p).last_activity_at);
      const share = (n: number, of: number) => (n === 0 ? 'ok' : n * 2 < of ? 'watch' : 'act');
      const latest = runs[0]?.status;
      const signals: [string, unknown, string][] = [
        [
          `Latest pipeline on ${branch ?? 'any branch (the default branch is unknown)'}`,
          latest ? `${String(latest)} (#${String(runs[0].id)})` : 'none',
          latest === 'success' ? 'ok' : latest === 'failed' ? 'act' : 'watch',
        ],
        [
          'Pipelines passed (last finished)',
          finished.length ? `${passed} of ${finished.length} (${rate}%)` : 'none finished',
          !finished.length ? 'watch' : rate >= 90 ? 'ok' : rate >= 70 ? 'watch' : 'act',
        ],
        [
          'Open merge requests idle 30+ days',
          `${idle(mrs)} of ${counted(mrs)}`,
          share(idle(mrs), mrs.length),
        ],
        [
          'Open issues idle 30+ days',
          `${idle(issues)} of ${counted(issues)}`,
          share(idle(issues), issues.length),
        ],
        ['Open issues past their due date', overdue, overdue ? 'act' : 'ok'],
        ['Open issues nobody is assigned to', unassigned, unassigned ? 'watch' : 'ok'],
        [
          'Days since the last activity',
          Number.isNaN(quiet) ? '—' : quiet,
          Number.isNaN(quiet) ? 'watch' : quiet <= 14 ? 'ok' : quiet <= 60 ? 'watch' : 'act',
        ],
      ];
      const points = signals.reduce((n, s) => n + (s[2] === 'ok' ? 2 : s[2] === 'watch' ? 1 : 0), 0);
      const score = Math.round((100 * points) / (2 * signals.length));
      return [
        `# Health of ${str(obj(p).path_with_namespace ?? a.project_id)}: ${score >= 80 ? 'good' : score >= 50 ? 'fair' : 'poor'} (${score} of 100)`,
        failed(p) + failed(pipelines) + failed(mrv) + failed(iv),
        table(['Signal', 'Value', 'Verdict'], signals),
        '',
        'The score counts ok as 2, watch as 1 and act as 0 over the signals above.',
        '',
        'Judge the project’s health from these signals: what is fine, what needs attention, and the three actions that would improve it most, most urgent first.',
      ].join('\n');
    },
  },
  {
    name: 'mr_review_status',
    title: 'Review status of open merge requests',
    description:
      'Each open merge request’s reviewers, approvals and threads, sorted into ready to merge, waiting for review, waiting for its author, no reviewer and draft.',
    args: [project],
    reads: ['merge_request.list', 'merge_request.approval_config'],
    render: async (a, fetch) => {
      const mrv = await fetch('merge_request.list', {
        project_id: a.project_id,
        state: 'opened',
        order_by: 'updated_at',
        sort: 'asc',
        per_page: 100,
      });
      const mrs = list(mrv);
      // Approvals are one read each: those of the 20 waiting longest.
      const checked = mrs.slice(0, 20);
      const approvals = await Promise.all(
        checked.map((m) =>
          fetch('merge_request.approval_config', {
            project_id: a.project_id,
            merge_request_iid: Number(m.iid),
          }),
        ),
      );
      const rows = mrs.map((m, i) => {
        const ap = typeof approvals[i] === 'object' ? obj(approvals[i]) : undefined;
        const given = ap ? list(ap.approved_by).length : undefined;
        const left = ap ? Number(ap.approvals_left ?? 0) : undefined;
        const hold = holdUp(m);
        const status =
          m.draft || m.work_in_progress
            ? 'Draft'
            : hold
              ? 'Waiting for its author'
              : !list(m.reviewers).length
                ? 'No reviewer'
                : left === undefined
                  ? 'Approvals not read'
                  : left > 0
                    ? 'Waiting for review'
                    : 'Ready to merge';
        return {
          m,
          status,
          cells: [
            `!${String(m.iid)}`,
            m.title,
            who(m.author),
            usernames(m.reviewers).join(', ') || 'none',
            given === undefined ? '?' : `${given} (${left} left)`,
            m.blocking_discussions_resolved === false ? 'unresolved' : 'resolved',
            hold ? `${status} (${hold})` : status,
            ageDays(m.updated_at),
          ],
        };
      });
      const order = [
        'Ready to merge',
        'Waiting for review',
        'Waiting for its author',
        'No reviewer',
        'Draft',
        'Approvals not read',
      ];
      const tally = order
        .map((s) => [s, rows.filter((r) => r.status === s).length] as [string, number])
        .filter(([, n]) => n > 0);
      const firstFailure = approvals.find((x) => typeof x === 'string');
      return [
        `# Review status of ${a.project_id}: ${counted(mrs)} open merge requests`,
        failed(mrv) + failed(firstFailure),
        table(['Status', 'Merge requests'], tally),
        '',
        table(
          ['MR', 'Title', 'Author', 'Reviewers', 'Approvals', 'Threads', 'Status', 'Idle (days)'],
          [...rows].sort((x, y) => order.indexOf(x.status) - order.indexOf(y.status)).map((r) => r.cells),
        ),
        ...(mrs.length > checked.length
          ? ['', `Approvals were read for the ${checked.length} idle longest; the others show '?'.`]
          : []),
        '',
        'Say what each merge request needs next and from whom (merge it, review it, answer the threads, find a reviewer), the longest waiting first, and name any reviewer who holds up several.',
      ].join('\n');
    },
  },
  {
    name: 'release_readiness',
    title: 'Release readiness',
    description:
      'Whether a branch can be released: its latest pipeline, the open merge requests into it, the open issues of the upcoming milestone and anything labelled blocker or critical.',
    args: [
      project,
      { name: 'branch', description: 'The branch to release from (default: the default branch).' },
    ],
    reads: [
      'project.get',
      'branch.get',
      'pipeline.latest',
      'merge_request.list',
      'project.milestone_list',
      'issue.list',
    ],
    render: async (a, fetch) => {
      // A branch named is checked first: one the project lacks would read as a branch with nothing in the way.
      if (a.branch)
        mustExist(
          'release_readiness',
          await fetch('branch.get', { project_id: a.project_id, branch: a.branch }, { absentOk: true }),
          { project_id: a.project_id, branch: a.branch },
        );
      const home = a.branch ? undefined : await defaultBranch(a, fetch);
      const branch = a.branch ?? home?.branch ?? 'main';
      const [pipe, mrv, msv, openv] = await Promise.all([
        fetch('pipeline.latest', { project_id: a.project_id, ref: branch }, { absentOk: true }),
        fetch('merge_request.list', {
          project_id: a.project_id,
          target_branch: branch,
          state: 'opened',
          per_page: 100,
        }),
        fetch('project.milestone_list', { project_id: a.project_id, state: 'active', per_page: 100 }),
        fetch('issue.list', { project_id: a.project_id, state: 'opened', per_page: 100 }),
      ]);
      const upcoming = list(msv).sort((x, y) =>
        String(x.due_date ?? '9').localeCompare(String(y.due_date ?? '9')),
      )[0];
      const planned = upcoming
        ? await fetch('issue.list', {
            project_id: a.project_id,
            milestone: upcoming.title,
            state: 'opened',
            per_page: 100,
          })
        : [];
      const none = typeof pipe === 'string' && /not found/i.test(pipe);
      const pl = obj(pipe);
      const mrs = list(mrv);
      const inMilestone = (x: Rec) => !!upcoming && obj(x.milestone).title === upcoming.title;
      const stops: string[] = [];
      if (none) stops.push(`No pipeline has run on ${branch}.`);
      else if (pl.status && pl.status !== 'success')
        stops.push(`The latest pipeline on ${branch} (#${String(pl.id)}) is ${String(pl.status)}.`);
      for (const m of mrs.filter((x) => inMilestone(x) || blocks(x)))
        stops.push(
          `!${String(m.iid)} ${str(m.title)} is not merged yet (${blocks(m) ? 'labelled as blocking' : `planned for ${String(upcoming?.title)}`}${holdUp(m) ? `; ${holdUp(m)}` : ''}).`,
        );
      for (const i of list(planned))
        stops.push(`#${String(i.iid)} ${str(i.title)} is open in ${String(upcoming?.title)}.`);
      for (const i of list(openv).filter((x) => blocks(x) && !inMilestone(x)))
        stops.push(`#${String(i.iid)} ${str(i.title)} is open and labelled ${list(i.labels).join(', ')}.`);
      const today = new Date().toISOString().slice(0, 10);
      return [
        `# Release readiness of ${branch} in ${a.project_id}: ${stops.length ? `not ready (${stops.length} to resolve)` : 'ready'}`,
        failed(home?.p) +
          (none ? '' : failed(pipe)) +
          failed(mrv) +
          failed(msv) +
          failed(openv) +
          failed(planned),
        '## What stands in the way',
        stops.length ? stops.map((s) => `- ${s}`).join('\n') : '_Nothing found._',
        '',
        '## Pipeline',
        none
          ? '_None yet._'
          : `#${str(pl.id)} ${str(pl.status)} at ${str(String(pl.sha ?? '').slice(0, 8))} (${str(pl.updated_at ?? pl.created_at)})`,
        '',
        `## Open merge requests into ${branch} (${counted(mrs)})`,
        table(
          ['MR', 'Title', 'Author', 'Milestone', 'Holding it up', 'Age (days)'],
          mrs.map((m) => [
            `!${String(m.iid)}`,
            m.title,
            who(m.author),
            obj(m.milestone).title,
            holdUp(m) || 'nothing',
            ageDays(m.created_at),
          ]),
        ),
        '',
        upcoming
          ? `## Upcoming milestone ${str(upcoming.title)}: due ${str(upcoming.due_date)}${typeof upcoming.due_date === 'string' && upcoming.due_date < today ? ' (overdue)' : ''}, ${counted(list(planned))} open issues`
          : '## Upcoming milestone\n_No active milestone._',
        upcoming
          ? table(
              ['Issue', 'Title', 'Assignee', 'Labels'],
              list(planned).map((i) => [
                `#${String(i.iid)}`,
                i.title,
                who(i.assignee),
                list(i.labels).join(', '),
              ]),
            )
          : '',
        '',
        `Give a go or no-go for releasing from ${branch}. For each item in the way say whether it must be fixed, can move to a later milestone, or can be waived, and who should act.`,
      ].join('\n');
    },
  },
  {
    name: 'release_cadence',
    title: 'Release cadence',
    description:
      'How often a project releases: its releases (or, without any, its tags) by date, the days between them, the median gap and when the next one is due.',
    args: [project],
    reads: ['release.list', 'tag.list'],
    render: async (a, fetch) => {
      const rv = await fetch('release.list', {
        project_id: a.project_id,
        order_by: 'released_at',
        sort: 'desc',
        per_page: 100,
      });
      const tv = list(rv).length ? [] : await fetch('tag.list', { project_id: a.project_id, per_page: 100 });
      const fromTags = !list(rv).length;
      const points = (
        fromTags
          ? list(tv).map((t) => ({
              tag: t.name,
              name: t.message || '—',
              at: String(t.created_at ?? obj(t.commit).committed_date ?? obj(t.commit).created_at ?? ''),
            }))
          : list(rv).map((r) => ({
              tag: r.tag_name,
              name: r.name,
              at: String(r.released_at ?? r.created_at ?? ''),
            }))
      )
        .filter((x) => !Number.isNaN(time(x.at)))
        .sort((x, y) => time(x.at) - time(y.at));
      const gaps = points.slice(1).map((x, i) => (time(x.at) - time(points[i].at)) / DAY);
      const mid = median(gaps);
      const last = points[points.length - 1];
      const sinceLast = last ? Math.floor((Date.now() - time(last.at)) / DAY) : NaN;
      const next =
        last && mid !== undefined
          ? new Date(time(last.at) + mid * DAY).toISOString().slice(0, 10)
          : undefined;
      const quarters = new Map<string, number>();
      for (const x of points) {
        const d = new Date(time(x.at));
        const q = `${d.getUTCFullYear()}-Q${Math.floor(d.getUTCMonth() / 3) + 1}`;
        quarters.set(q, (quarters.get(q) ?? 0) + 1);
      }
      const whole = (n: number | undefined) => (n !== undefined && Number.isFinite(n) ? Math.round(n) : '—');
      return [
        `# Release cadence of ${a.project_id}: ${fromTags ? `${count(points.length, 'tag')} (no releases)` : count(points.length, 'release')}`,
        failed(rv) + failed(tv),
        table(
          ['Measure', 'Value'],
          [
            ['First', day(points[0]?.at)],
            ['Latest', last ? `${String(last.tag)} on ${day(last.at)}` : '—'],
            ['Median days between', whole(mid)],
            ['Shortest gap (days)', whole(Math.min(...gaps))],
            ['Longest gap (days)', whole(Math.max(...gaps))],
            ['Days since the latest', Number.isNaN(sinceLast) ? '—' : sinceLast],
            [
              'Next due at the median pace',
              next ? `${next}${sinceLast > (mid ?? Infinity) ? ' (overdue)' : ''}` : '—',
            ],
          ],
        ),
        '',
        '## By quarter',
        table(['Quarter', fromTags ? 'Tags' : 'Releases'], [...quarters]),
        '',
        `## ${fromTags ? 'Tags' : 'Releases'}, oldest first`,
        table(
          [fromTags ? 'Tag' : 'Release', fromTags ? 'Message' : 'Name', 'Date', 'Days after the one before'],
          points.map((x, i) => [x.tag, x.name, day(x.at), i ? whole(gaps[i - 1]) : '—']),
        ),
        '',
        'Describe the release rhythm: how regular it is, whether it is speeding up or slowing down, and whether a release is overdue. Suggest a cadence that fits the project and what would help keep it.',
      ].join('\n');
    },
  },
  {
    name: 'merge_velocity',
    title: 'Merge velocity',
    description:
      'Merge requests merged in the last days: how many, the median time from opening to merge, per week and per author.',
    args: [project, days(30)],
    reads: ['merge_request.list'],
    render: async (a, fetch) => {
      const d = Number(a.days ?? 30);
      const from = since(d);
      // The instance filters by update, not merge, time: a merge updates the request, so this holds every merge.
      const mv = await fetch('merge_request.list', {
        project_id: a.project_id,
        state: 'merged',
        updated_after: from,
        order_by: 'updated_at',
        sort: 'desc',
        per_page: 100,
      });
      const merged = list(mv)
        .filter((m) => time(m.merged_at) >= time(from))
        .map((m) => ({ m, took: time(m.merged_at) - time(m.created_at) }))
        .sort((x, y) => time(x.m.merged_at) - time(y.m.merged_at));
      const group = (key: (x: (typeof merged)[number]) => string) => {
        const out = new Map<string, number[]>();
        for (const x of merged) out.set(key(x), [...(out.get(key(x)) ?? []), x.took]);
        return [...out];
      };
      const weeks = group((x) => weekOf(time(x.m.merged_at))).sort((x, y) => x[0].localeCompare(y[0]));
      const authors = group((x) => who(x.m.author)).sort(
        (x, y) => y[1].length - x[1].length || x[0].localeCompare(y[0]),
      );
      const ranked = [...merged].sort((x, y) => x.took - y.took);
      const ref = (x: (typeof merged)[number] | undefined) =>
        x ? `!${String(x.m.iid)} ${str(x.m.title)} (${span(x.took)})` : '—';
      return [
        `# Merge velocity of ${a.project_id}, last ${d} days: ${merged.length} merged`,
        failed(mv),
        table(
          ['Measure', 'Value'],
          [
            ['Merged', list(mv).length >= 100 ? `${merged.length} (the newest 100 read)` : merged.length],
            ['Per week', (merged.length / (d / 7)).toFixed(2)],
            ['Median time to merge', span(median(merged.map((x) => x.took)))],
            ['Fastest', ref(ranked[0])],
            ['Slowest', ref(ranked[ranked.length - 1])],
          ],
        ),
        '',
        '## Per week (weeks start on Monday)',
        table(
          ['Week of', 'Merged', 'Median time to merge'],
          weeks.map(([w, t]) => [w, t.length, span(median(t))]),
        ),
        '',
        '## Per author',
        table(
          ['Author', 'Merged', 'Median time to merge'],
          authors.map(([u, t]) => [u, t.length, span(median(t))]),
        ),
        '',
        `Assess how fast work merges in ${a.project_id}: the trend across the weeks, what the slowest merges have in common, and what would shorten the time to merge.`,
      ].join('\n');
    },
  },
  {
    name: 'branch_mr_summary',
    title: 'Merge requests into a branch',
    description:
      'The open merge requests into one branch with what holds each up, by author, and the ones merged into it lately.',
    args: [
      project,
      { name: 'target_branch', description: 'The branch the merge requests target.', required: true },
    ],
    reads: ['branch.get', 'merge_request.list'],
    render: async (a, fetch) => {
      const into = { project_id: a.project_id, target_branch: a.target_branch };
      const [bv, ov, mv] = await Promise.all([
        fetch('branch.get', { project_id: a.project_id, branch: a.target_branch }, { absentOk: true }),
        fetch('merge_request.list', {
          ...into,
          state: 'opened',
          order_by: 'created_at',
          sort: 'asc',
          per_page: 100,
        }),
        fetch('merge_request.list', {
          ...into,
          state: 'merged',
          order_by: 'updated_at',
          sort: 'desc',
          per_page: 10,
        }),
      ]);
      mustExist('branch_mr_summary', bv, { project_id: a.project_id, target_branch: a.target_branch });
      const b = obj(bv);
      const head = obj(b.commit);
      const open = list(ov);
      const byAuthor = new Map<string, number>();
      for (const m of open) byAuthor.set(who(m.author), (byAuthor.get(who(m.author)) ?? 0) + 1);
      const held = open.filter((m) => holdUp(m)).length;
      return [
        `# Merge requests into ${a.target_branch} of ${a.project_id}: ${counted(open)} open`,
        failed(bv) + failed(ov) + failed(mv),
        b.name
          ? `Branch head ${str(String(head.short_id ?? head.id ?? '').slice(0, 8))} ${str(head.title)} (${day(head.committed_date ?? head.created_at)})${b.protected ? ' · protected' : ''}${b.default ? ' · default branch' : ''}`
          : '',
        '',
        `Of these, ${open.length - held} ${open.length - held === 1 ? 'has nothing holding it' : 'have nothing holding them'} up and ${held} ${held === 1 ? 'is' : 'are'} held up (a draft, conflicts or unresolved threads).`,
        '',
        '## Open, oldest first',
        table(
          ['MR', 'Title', 'Author', 'Source', 'Holding it up', 'Age (days)', 'Idle (days)'],
          open.map((m) => [
            `!${String(m.iid)}`,
            m.title,
            who(m.author),
            m.source_branch,
            holdUp(m) || 'nothing',
            ageDays(m.created_at),
            ageDays(m.updated_at),
          ]),
        ),
        '',
        '## Open by author',
        table(
          ['Author', 'Open'],
          [...byAuthor].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0])),
        ),
        '',
        '## Merged lately',
        table(
          ['MR', 'Title', 'Author', 'Merged', 'Time to merge'],
          list(mv).map((m) => [
            `!${String(m.iid)}`,
            m.title,
            who(m.author),
            day(m.merged_at),
            span(time(m.merged_at) - time(m.created_at)),
          ]),
        ),
        '',
        `Summarize what is heading into ${a.target_branch}: what can merge now, what is stuck and why, and which merge requests overlap or should land together.`,
      ].join('\n');
    },
  },
  {
    name: 'project_activity_report',
    title: 'Project activity',
    description:
      'What happened in a project in the last days: commits to the default branch, merge requests opened, merged and closed, issues opened and closed, and who did what.',
    args: [project, days(7)],
    reads: ['repository.commit_list', 'merge_request.list', 'issue.list'],
    render: async (a, fetch) => {
      const d = Number(a.days ?? 7);
      const from = since(d);
      const after = (v: unknown) => time(v) >= time(from);
      const changed = { project_id: a.project_id, updated_after: from, state: 'all', per_page: 100 };
      const [cv, mv, iv] = await Promise.all([
        fetch('repository.commit_list', { project_id: a.project_id, since: from, per_page: 100 }),
        fetch('merge_request.list', changed),
        fetch('issue.list', changed),
      ]);
      const commits = list(cv);
      const mrs = list(mv);
      const issues = list(iv);
      const opened = mrs.filter((m) => after(m.created_at));
      const merged = mrs.filter((m) => m.state === 'merged' && after(m.merged_at));
      const closed = mrs.filter((m) => m.state === 'closed' && after(m.closed_at));
      const newIssues = issues.filter((i) => after(i.created_at));
      const doneIssues = issues.filter((i) => i.state === 'closed' && after(i.closed_at));
      const people = new Map<string, number[]>();
      const tally = (u: unknown, k: number) => {
        if (!u || typeof u !== 'object') return;
        const row = people.get(who(u)) ?? [0, 0, 0, 0];
        row[k]++;
        people.set(who(u), row);
      };
      for (const m of opened) tally(m.author, 0);
      for (const m of merged) tally(m.merged_by ?? m.merge_user, 1);
      for (const i of newIssues) tally(i.author, 2);
      for (const i of doneIssues) tally(i.closed_by, 3);
      const byCommitter = new Map<string, number>();
      for (const c of commits)
        byCommitter.set(String(c.author_name), (byCommitter.get(String(c.author_name)) ?? 0) + 1);
      const items = (title: string, rows: Rec[], mark: string) => [
        `## ${title} (${rows.length})`,
        rows.length
          ? rows.map((x) => `- ${mark}${String(x.iid)} ${str(x.title)} (${who(x.author)})`).join('\n')
          : '_None._',
        '',
      ];
      return [
        `# Activity in ${a.project_id}, last ${d} days`,
        failed(cv) + failed(mv) + failed(iv),
        table(
          ['What', 'Count'],
          [
            ['Commits to the default branch', counted(commits)],
            ['Merge requests opened', opened.length],
            ['Merge requests merged', merged.length],
            ['Merge requests closed unmerged', closed.length],
            ['Issues opened', newIssues.length],
            ['Issues closed', doneIssues.length],
          ],
        ),
        '',
        '## Commits by author',
        table(
          ['Author', 'Commits'],
          [...byCommitter].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0])),
        ),
        '',
        '## Merge requests and issues by person',
        table(
          ['Person', 'MRs opened', 'MRs merged', 'Issues opened', 'Issues closed'],
          [...people].sort((x, y) => x[0].localeCompare(y[0])).map(([u, r]) => [u, ...r]),
        ),
        '',
        ...items('Merged', merged, '!'),
        ...items('Issues opened', newIssues, '#'),
        ...items('Issues closed', doneIssues, '#'),
        `Write a short activity report of these ${d} days for the team: what shipped, what came in, who carried the work, and anything that looks stalled or unusual.`,
      ].join('\n');
    },
  },
  {
    name: 'project_contributors',
    title: 'Project contributors',
    description:
      'Who contributes to a project’s default branch: commits, lines added and removed and share per person, whether each is a member, and how few people make half the commits.',
    args: [project],
    reads: ['repository.contributors', 'project.members'],
    render: async (a, fetch) => {
      const [cv, mv] = await Promise.all([
        fetch('repository.contributors', {
          project_id: a.project_id,
          order_by: 'commits',
          sort: 'desc',
          per_page: 100,
        }),
        fetch('project.members', { project_id: a.project_id, per_page: 100 }),
      ]);
      const rows = list(cv).sort(
        (x, y) => Number(y.commits) - Number(x.commits) || String(x.name).localeCompare(String(y.name)),
      );
      const total = rows.reduce((n, r) => n + Number(r.commits ?? 0), 0);
      const members = list(mv);
      const memberOf = (r: Rec) =>
        members.find(
          (m) =>
            (!!m.email && m.email === r.email) ||
            String(m.name ?? '').toLowerCase() === String(r.name ?? '').toLowerCase(),
        );
      // The fewest people whose commits are more than half of all.
      let busFactor = 0;
      for (let sum = 0; busFactor < rows.length && sum * 2 <= total; busFactor++)
        sum += Number(rows[busFactor].commits ?? 0);
      const silent = members.filter((m) => !rows.some((r) => memberOf(r) === m));
      return [
        `# Contributors to ${a.project_id}: ${counted(rows)} people, ${total} commits`,
        failed(cv) + failed(mv),
        total
          ? `${busFactor} ${busFactor === 1 ? 'person makes' : 'people make'} more than half of the commits.`
          : '_No commits._',
        '',
        table(
          ['Contributor', 'Email', 'Commits', 'Share', 'Added', 'Removed', 'Member'],
          rows.map((r) => {
            const m = memberOf(r);
            return [
              r.name,
              r.email,
              r.commits,
              total ? `${Math.round((100 * Number(r.commits)) / total)}%` : '—',
              r.additions,
              r.deletions,
              m
                ? `@${String(m.username)} (${roleTitle(Number(m.access_level)) ?? String(m.access_level)})`
                : 'no',
            ];
          }),
        ),
        '',
        `Members with no commits on the default branch: ${silent.map((m) => `@${String(m.username)}`).join(', ') || 'none'}.`,
        '',
        'Describe who carries this project: the main contributors, how concentrated the work is and the risk if one of them left, and contributors who are not members (or members who do not contribute) worth a look.',
      ].join('\n');
    },
  },
];
