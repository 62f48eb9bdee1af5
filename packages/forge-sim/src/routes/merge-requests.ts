/** Merge requests: list, get, create, update, merge, approvals, changes/diffs, commits, notes and discussions. */
import {
  bool,
  canSeeProject,
  dateWindow,
  group,
  list,
  lookupUser,
  milestoneFor,
  num,
  pageReq,
  project,
  required,
  requireProjectAccess,
  str,
  userById,
} from '../context.js';
import type { Ctx } from '../context.js';
import { rawDiff, treeDiff } from '../diff.js';
import { HttpError, json, noContent, notFound, paginate } from '../http.js';
import { commitJson, issueJson, mergeRequestJson, pipelineJson, userBasic } from '../serialize.js';
import type { Commit, MergeRequest, Project } from '../state.js';
import { ACCESS, makeCommit, nextId } from '../state.js';
import { registerNotes } from './notes.js';
import type { RouteTable } from './table.js';

export function findMr(ctx: Ctx, p: Project, param = 'merge_request_iid'): MergeRequest {
  const m = p.mergeRequests.find((x) => String(x.iid) === ctx.params[param]);
  if (!m) throw notFound('Merge Request');
  return m;
}

/** Commits reachable from head but not from base, newest first. */
export function commitsBetween(p: Project, baseSha: string, headSha: string): Commit[] {
  const stop = new Set<string>();
  for (let c = p.commits.get(baseSha); c; c = p.commits.get(c.parentIds[0] ?? '')) stop.add(c.id);
  const out: Commit[] = [];
  for (let c = p.commits.get(headSha); c && !stop.has(c.id); c = p.commits.get(c.parentIds[0] ?? ''))
    out.push(c);
  return out;
}

function filterMrs(ctx: Ctx, items: { p: Project; m: MergeRequest }[]): { p: Project; m: MergeRequest }[] {
  const state = str(ctx, 'state');
  const labels = list(ctx, 'labels');
  const milestone = str(ctx, 'milestone');
  const authorId = num(ctx, 'author_id');
  const authorUsername = str(ctx, 'author_username');
  const assigneeId = num(ctx, 'assignee_id');
  const reviewerId = num(ctx, 'reviewer_id');
  const reviewerUsername = str(ctx, 'reviewer_username');
  const source = str(ctx, 'source_branch');
  const target = str(ctx, 'target_branch');
  const search = str(ctx, 'search')?.toLowerCase();
  const iids = list(ctx, 'iids');
  const draft = bool(ctx, 'draft') ?? (str(ctx, 'wip') === undefined ? undefined : str(ctx, 'wip') === 'yes');
  const inWindow = dateWindow(ctx);
  let out = items.filter(({ m }) => inWindow(m));
  if (state && state !== 'all') out = out.filter(({ m }) => m.state === state);
  if (labels?.length) out = out.filter(({ m }) => labels.every((l) => m.labels.includes(l)));
  if (milestone)
    out = out.filter(({ p, m }) => milestoneFor(ctx.state, p, m.milestoneId)?.m.title === milestone);
  if (authorId !== undefined) out = out.filter(({ m }) => m.authorId === authorId);
  if (authorUsername) out = out.filter(({ m }) => lookupUser(ctx.state, authorUsername)?.id === m.authorId);
  if (assigneeId !== undefined) out = out.filter(({ m }) => m.assigneeIds.includes(assigneeId));
  if (reviewerId !== undefined) out = out.filter(({ m }) => m.reviewerIds.includes(reviewerId));
  if (reviewerUsername)
    out = out.filter(({ m }) => m.reviewerIds.includes(lookupUser(ctx.state, reviewerUsername)?.id ?? -1));
  if (source) out = out.filter(({ m }) => m.sourceBranch === source);
  if (target) out = out.filter(({ m }) => m.targetBranch === target);
  if (search)
    out = out.filter(
      ({ m }) => m.title.toLowerCase().includes(search) || m.description.toLowerCase().includes(search),
    );
  if (iids?.length) out = out.filter(({ m }) => iids.includes(String(m.iid)));
  if (draft !== undefined) out = out.filter(({ m }) => m.draft === draft);
  const asc = str(ctx, 'sort') === 'asc';
  const orderBy = str(ctx, 'order_by') ?? 'created_at';
  return [...out].sort((a, b) => {
    const ka = orderBy === 'updated_at' ? a.m.updatedAt : orderBy === 'title' ? a.m.title : a.m.createdAt;
    const kb = orderBy === 'updated_at' ? b.m.updatedAt : orderBy === 'title' ? b.m.title : b.m.createdAt;
    const c = ka < kb ? -1 : ka > kb ? 1 : a.m.id - b.m.id;
    return asc ? c : -c;
  });
}

function applyMrFields(ctx: Ctx, p: Project, m: MergeRequest): void {
  const title = str(ctx, 'title');
  if (title !== undefined) {
    if (title.trim() === '') throw new HttpError(400, { message: { title: ["can't be blank"] } });
    const draftPrefix = /^(\[draft\]|\(draft\)|draft:|draft\s-\s|\[wip\]|wip:)\s*/i;
    m.draft = draftPrefix.test(title);
    m.title = title.replace(draftPrefix, '');
  }
  const description = str(ctx, 'description');
  if (description !== undefined) m.description = description;
  const labels = list(ctx, 'labels');
  if (labels) m.labels = [...new Set(labels)];
  const add = list(ctx, 'add_labels');
  if (add) m.labels = [...new Set([...m.labels, ...add])];
  const remove = list(ctx, 'remove_labels');
  if (remove) m.labels = m.labels.filter((l) => !remove.includes(l));
  const assignees = list(ctx, 'assignee_ids');
  if (assignees) m.assigneeIds = assignees.map(Number).filter((n) => n > 0);
  const assignee = num(ctx, 'assignee_id');
  if (assignee !== undefined) m.assigneeIds = assignee > 0 ? [assignee] : [];
  const reviewers = list(ctx, 'reviewer_ids');
  if (reviewers) m.reviewerIds = reviewers.map(Number).filter((n) => n > 0);
  const milestoneId = num(ctx, 'milestone_id');
  if (milestoneId !== undefined) m.milestoneId = milestoneId > 0 ? milestoneId : null;
  const target = str(ctx, 'target_branch');
  if (target !== undefined) {
    if (!p.branches.has(target)) throw new HttpError(400, { message: ['Target branch does not exist'] });
    m.targetBranch = target;
  }
  const squash = bool(ctx, 'squash');
  if (squash !== undefined) m.squash = squash;
  const removeSource = bool(ctx, 'remove_source_branch');
  if (removeSource !== undefined) m.removeSourceBranch = removeSource;
  const draft = bool(ctx, 'draft');
  if (draft !== undefined) m.draft = draft;
}

function approvalsJson(ctx: Ctx, p: Project, m: MergeRequest): Record<string, unknown> {
  const left = Math.max(0, m.approvalsRequired - m.approvedBy.length);
  return {
    id: m.id,
    iid: m.iid,
    project_id: p.id,
    title: m.title,
    description: m.description,
    state: m.state,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    merge_status: 'can_be_merged',
    approved: left === 0,
    approvals_required: m.approvalsRequired,
    approvals_left: left,
    require_password_to_approve: false,
    approved_by: m.approvedBy.map((id) => ({ user: userBasic(ctx, userById(ctx.state, id)) })),
    suggested_approvers: [],
    approvers: [],
    approver_groups: [],
    user_has_approved: !!ctx.user && m.approvedBy.includes(ctx.user.id),
    user_can_approve: !!ctx.user && !m.approvedBy.includes(ctx.user.id),
    approval_rules_left: [],
    has_approval_rules: true,
    merge_request_approvers_available: true,
    multiple_approval_rules_available: true,
    invalid_approvers_rules: [],
  };
}

function changesOf(p: Project, m: MergeRequest) {
  const base = p.commits.get(m.baseSha)?.tree ?? new Map<string, string>();
  const head = p.commits.get(m.sha)?.tree ?? new Map<string, string>();
  return { base, head, files: treeDiff(base, head) };
}

/** Keeps an open MR's head in step with its source branch. */
function refresh(p: Project, m: MergeRequest): void {
  if (m.state !== 'opened') return;
  const b = p.branches.get(m.sourceBranch);
  if (b) m.sha = b.commit;
}

export function registerMergeRequests(r: RouteTable): void {
  const listed = (ctx: Ctx, items: { p: Project; m: MergeRequest }[]) => {
    for (const { p, m } of items) refresh(p, m);
    return paginate(
      pageReq(ctx),
      filterMrs(ctx, items).map(({ p, m }) => mergeRequestJson(ctx, p, m)),
    );
  };
  r.add('GET', '/merge_requests', (ctx) => {
    const items = ctx.state.projects
      .filter((p) => canSeeProject(ctx.state, p, ctx.user))
      .flatMap((p) => p.mergeRequests.map((m) => ({ p, m })));
    const scope = str(ctx, 'scope') ?? 'created_by_me';
    const mine =
      scope === 'all'
        ? items
        : items.filter(({ m }) =>
            scope === 'assigned_to_me'
              ? m.assigneeIds.includes(ctx.user!.id)
              : scope === 'reviews_for_me'
                ? m.reviewerIds.includes(ctx.user!.id)
                : m.authorId === ctx.user!.id,
          );
    return listed(ctx, mine);
  });
  r.add('GET', '/groups/:id/merge_requests', (ctx) => {
    const g = group(ctx);
    const items = ctx.state.projects
      .filter(
        (p) =>
          p.namespaceKind === 'group' &&
          (p.namespaceId === g.id || ctx.state.groups.find((x) => x.id === p.namespaceId)?.parentId === g.id),
      )
      .flatMap((p) => p.mergeRequests.map((m) => ({ p, m })));
    return listed(ctx, items);
  });
  r.add('GET', '/projects/:id/merge_requests', (ctx) => {
    const p = project(ctx);
    return listed(
      ctx,
      p.mergeRequests.map((m) => ({ p, m })),
    );
  });
  r.add('GET', '/projects/:id/merge_requests/:merge_request_iid', (ctx) => {
    const p = project(ctx);
    const m = findMr(ctx, p);
    refresh(p, m);
    return json(200, {
      ...mergeRequestJson(ctx, p, m, true),
      changes_count: String(changesOf(p, m).files.length),
    });
  });
  r.add('POST', '/projects/:id/merge_requests', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const source = required(ctx, 'source_branch');
    const target = required(ctx, 'target_branch');
    required(ctx, 'title');
    const src = p.branches.get(source);
    if (!src) throw new HttpError(400, { message: [`Source branch "${source}" does not exist`] });
    const tgt = p.branches.get(target);
    if (!tgt) throw new HttpError(400, { message: [`Target branch "${target}" does not exist`] });
    if (source === target)
      throw new HttpError(400, { message: ["You can't use same project/branch for source and target"] });
    const dup = p.mergeRequests.find(
      (x) => x.state === 'opened' && x.sourceBranch === source && x.targetBranch === target,
    );
    if (dup)
      throw new HttpError(409, {
        message: [`Another open merge request already exists for this source branch: !${dup.iid}`],
      });
    const nowIso = new Date().toISOString();
    const m: MergeRequest = {
      id: nextId(ctx.state, 'mr'),
      iid: Math.max(0, ...p.mergeRequests.map((x) => x.iid)) + 1,
      projectId: p.id,
      title: '',
      description: '',
      state: 'opened',
      sourceBranch: source,
      targetBranch: target,
      sourceProjectId: p.id,
      labels: [],
      assigneeIds: [],
      reviewerIds: [],
      authorId: ctx.user!.id,
      milestoneId: null,
      draft: false,
      sha: src.commit,
      baseSha: tgt.commit,
      mergeCommitSha: null,
      mergedById: null,
      mergedAt: null,
      closedAt: null,
      approvedBy: [],
      approvalsRequired: num(ctx, 'approvals_before_merge') ?? 1,
      squash: false,
      removeSourceBranch: false,
      createdAt: nowIso,
      updatedAt: nowIso,
      discussions: [],
    };
    applyMrFields(ctx, p, m);
    p.mergeRequests.push(m);
    return json(201, mergeRequestJson(ctx, p, m, true));
  });
  r.add('PUT', '/projects/:id/merge_requests/:merge_request_iid', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const m = findMr(ctx, p);
    applyMrFields(ctx, p, m);
    const event = str(ctx, 'state_event');
    if (event === 'close') {
      if (m.state === 'merged') throw new HttpError(405, { message: '405 Method Not Allowed' });
      m.state = 'closed';
      m.closedAt = new Date().toISOString();
    } else if (event === 'reopen') {
      if (m.state === 'closed') {
        m.state = 'opened';
        m.closedAt = null;
      }
    } else if (event !== undefined)
      throw new HttpError(400, { error: 'state_event does not have a valid value' });
    m.updatedAt = new Date().toISOString();
    return json(200, mergeRequestJson(ctx, p, m, true));
  });
  r.add('DELETE', '/projects/:id/merge_requests/:merge_request_iid', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.owner);
    const m = findMr(ctx, p);
    p.mergeRequests.splice(p.mergeRequests.indexOf(m), 1);
    return noContent();
  });
  r.add('PUT', '/projects/:id/merge_requests/:merge_request_iid/merge', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const m = findMr(ctx, p);
    refresh(p, m);
    if (m.state !== 'opened') throw new HttpError(405, { message: '405 Method Not Allowed' });
    if (m.draft) throw new HttpError(405, { message: '405 Method Not Allowed' });
    const wantSha = str(ctx, 'sha');
    if (wantSha && wantSha !== m.sha)
      throw new HttpError(409, { message: 'SHA does not match HEAD of source branch: ' + m.sha });
    const target = p.branches.get(m.targetBranch);
    const head = p.commits.get(m.sha);
    if (!target || !head) throw new HttpError(406, { message: 'Branch cannot be merged' });
    const { base, head: headTree } = changesOf(p, m);
    const changes: Record<string, string | null> = {};
    for (const path of new Set([...base.keys(), ...headTree.keys()])) {
      if (base.get(path) !== headTree.get(path)) changes[path] = headTree.get(path) ?? null;
    }
    const nowIso = new Date().toISOString();
    const message =
      str(ctx, 'merge_commit_message') ??
      `Merge branch '${m.sourceBranch}' into '${m.targetBranch}'\n\n${m.title}\n\nSee merge request !${m.iid}`;
    const mc = makeCommit(p.commits.get(target.commit), message, changes, nowIso, ctx.user!);
    mc.parentIds.push(m.sha);
    p.commits.set(mc.id, mc);
    target.commit = mc.id;
    m.state = 'merged';
    m.mergeCommitSha = mc.id;
    m.mergedById = ctx.user!.id;
    m.mergedAt = nowIso;
    m.updatedAt = nowIso;
    if (bool(ctx, 'squash') !== undefined) m.squash = bool(ctx, 'squash')!;
    if (bool(ctx, 'should_remove_source_branch') || m.removeSourceBranch) p.branches.delete(m.sourceBranch);
    return json(200, mergeRequestJson(ctx, p, m, true));
  });
  r.add('POST', '/projects/:id/merge_requests/:merge_request_iid/approve', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const m = findMr(ctx, p);
    const wantSha = str(ctx, 'sha');
    if (wantSha && wantSha !== m.sha)
      throw new HttpError(409, { message: 'SHA does not match HEAD of source branch' });
    // The instance answers an approval the user already gave with 401.
    if (m.approvedBy.includes(ctx.user!.id)) throw new HttpError(401, { message: '401 Unauthorized' });
    m.approvedBy.push(ctx.user!.id);
    return json(201, approvalsJson(ctx, p, m));
  });
  r.add('POST', '/projects/:id/merge_requests/:merge_request_iid/unapprove', (ctx) => {
    const p = project(ctx);
    const m = findMr(ctx, p);
    if (!m.approvedBy.includes(ctx.user!.id)) throw new HttpError(404, { message: '404 Not Found' });
    m.approvedBy = m.approvedBy.filter((id) => id !== ctx.user!.id);
    return json(201, approvalsJson(ctx, p, m));
  });
  r.add('PUT', '/projects/:id/merge_requests/:merge_request_iid/reset_approvals', (ctx) => {
    const p = project(ctx);
    const m = findMr(ctx, p);
    m.approvedBy = [];
    return json(202, approvalsJson(ctx, p, m));
  });
  r.add('GET', '/projects/:id/merge_requests/:merge_request_iid/approvals', (ctx) => {
    const p = project(ctx);
    return json(200, approvalsJson(ctx, p, findMr(ctx, p)));
  });
  r.add('GET', '/projects/:id/merge_requests/:merge_request_iid/approval_state', (ctx) => {
    const p = project(ctx);
    const m = findMr(ctx, p);
    return json(200, {
      approval_rules_overwritten: false,
      rules: [
        {
          id: 1,
          name: 'All Members',
          rule_type: 'any_approver',
          eligible_approvers: [],
          approvals_required: m.approvalsRequired,
          users: [],
          groups: [],
          contains_hidden_groups: false,
          approved_by: m.approvedBy.map((id) => userBasic(ctx, userById(ctx.state, id))),
          source_rule: null,
          approved: m.approvedBy.length >= m.approvalsRequired,
          overridden: false,
        },
      ],
    });
  });
  r.add('GET', '/projects/:id/merge_requests/:merge_request_iid/changes', (ctx) => {
    const p = project(ctx);
    const m = findMr(ctx, p);
    refresh(p, m);
    const { files } = changesOf(p, m);
    return json(200, {
      ...mergeRequestJson(ctx, p, m, true),
      changes_count: String(files.length),
      changes: files,
      overflow: false,
    });
  });
  r.add('GET', '/projects/:id/merge_requests/:merge_request_iid/diffs', (ctx) => {
    const p = project(ctx);
    const m = findMr(ctx, p);
    refresh(p, m);
    return paginate(pageReq(ctx), changesOf(p, m).files);
  });
  r.add('GET', '/projects/:id/merge_requests/:merge_request_iid/raw_diffs', (ctx) => {
    const p = project(ctx);
    const m = findMr(ctx, p);
    refresh(p, m);
    const { base, head, files } = changesOf(p, m);
    return { status: 200, raw: rawDiff(files, base, head), contentType: 'text/plain; charset=utf-8' };
  });
  r.add('GET', '/projects/:id/merge_requests/:merge_request_iid/commits', (ctx) => {
    const p = project(ctx);
    const m = findMr(ctx, p);
    refresh(p, m);
    return paginate(
      pageReq(ctx),
      commitsBetween(p, m.baseSha, m.sha).map((c) => commitJson(ctx, p, c)),
    );
  });
  r.add('GET', '/projects/:id/merge_requests/:merge_request_iid/pipelines', (ctx) => {
    const p = project(ctx);
    const m = findMr(ctx, p);
    const shas = new Set(commitsBetween(p, m.baseSha, m.sha).map((c) => c.id));
    return paginate(
      pageReq(ctx),
      [...p.pipelines]
        .reverse()
        .filter((pl) => shas.has(pl.sha))
        .map((pl) => pipelineJson(ctx, p, pl)),
    );
  });
  r.add('GET', '/projects/:id/merge_requests/:merge_request_iid/closes_issues', (ctx) => {
    const p = project(ctx);
    const m = findMr(ctx, p);
    const iids = [...m.description.matchAll(/(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+#(\d+)/gi)].map(
      (x) => Number(x[1]),
    );
    return paginate(
      pageReq(ctx),
      p.issues.filter((i) => iids.includes(i.iid)).map((i) => issueJson(ctx, p, i)),
    );
  });
  r.add('GET', '/projects/:id/merge_requests/:merge_request_iid/reviewers', (ctx) => {
    const p = project(ctx);
    const m = findMr(ctx, p);
    return json(
      200,
      m.reviewerIds.map((id) => ({
        user: userBasic(ctx, userById(ctx.state, id)),
        state: 'unreviewed',
        created_at: m.createdAt,
      })),
    );
  });
  const versionJson = (p: Project, m: MergeRequest) => ({
    id: m.id * 10,
    head_commit_sha: m.sha,
    base_commit_sha: m.baseSha,
    start_commit_sha: m.baseSha,
    created_at: m.updatedAt,
    merge_request_id: m.id,
    state: 'collected',
    real_size: String(changesOf(p, m).files.length),
    patch_id_sha: m.sha.slice(0, 40),
  });
  r.add('GET', '/projects/:id/merge_requests/:merge_request_iid/versions', (ctx) => {
    const p = project(ctx);
    const m = findMr(ctx, p);
    refresh(p, m);
    return paginate(pageReq(ctx), [versionJson(p, m)]);
  });
  r.add('GET', '/projects/:id/merge_requests/:merge_request_iid/versions/:version_id', (ctx) => {
    const p = project(ctx);
    const m = findMr(ctx, p);
    refresh(p, m);
    if (ctx.params.version_id !== String(m.id * 10)) throw notFound('Merge Request Diff');
    return json(200, {
      ...versionJson(p, m),
      commits: commitsBetween(p, m.baseSha, m.sha).map((c) => commitJson(ctx, p, c)),
      diffs: changesOf(p, m).files,
    });
  });
  registerNotes(r, '/projects/:id/merge_requests/:noteable_id', (ctx, p) => {
    const m = findMr(ctx, p, 'noteable_id');
    return {
      type: 'MergeRequest',
      id: m.id,
      iid: m.iid,
      discussions: m.discussions,
      touch: () => (m.updatedAt = new Date().toISOString()),
    };
  });
}
