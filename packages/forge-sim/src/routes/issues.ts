/** Issues: list (project, group, global), get, create, update (incl. state_event), delete, notes and discussions. */
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
  projectAccess,
  required,
  requireProjectAccess,
  str,
  time,
} from '../context.js';
import type { Ctx } from '../context.js';
import { HttpError, json, noContent, notFound, paginate } from '../http.js';
import { issueJson } from '../serialize.js';
import type { Issue, Project } from '../state.js';
import { ACCESS, nextId } from '../state.js';
import { registerNotes } from './notes.js';
import type { RouteTable } from './table.js';

export function findIssue(ctx: Ctx, p: Project, param = 'issue_iid'): Issue {
  const i = p.issues.find((x) => String(x.iid) === ctx.params[param]);
  if (!i) throw notFound('Issue');
  return i;
}

function filterIssues(ctx: Ctx, items: { p: Project; i: Issue }[]): { p: Project; i: Issue }[] {
  const state = str(ctx, 'state');
  const labels = list(ctx, 'labels');
  const milestone = str(ctx, 'milestone');
  const assigneeId = str(ctx, 'assignee_id');
  const assigneeUsername = list(ctx, 'assignee_username');
  const authorId = num(ctx, 'author_id');
  const authorUsername = str(ctx, 'author_username');
  const search = str(ctx, 'search')?.toLowerCase();
  const iids = list(ctx, 'iids');
  const confidential = bool(ctx, 'confidential');
  const inWindow = dateWindow(ctx);
  let out = items.filter(({ i }) => inWindow(i));
  if (state && state !== 'all') out = out.filter(({ i }) => i.state === state);
  if (labels?.length) {
    if (labels[0] === 'None') out = out.filter(({ i }) => i.labels.length === 0);
    else if (labels[0] === 'Any') out = out.filter(({ i }) => i.labels.length > 0);
    else out = out.filter(({ i }) => labels.every((l) => i.labels.includes(l)));
  }
  if (milestone) {
    out = out.filter(({ p, i }) => {
      const m = milestoneFor(ctx.state, p, i.milestoneId)?.m;
      if (milestone === 'None') return !m;
      if (milestone === 'Any') return !!m;
      return m?.title === milestone;
    });
  }
  if (assigneeId) {
    if (assigneeId === 'None') out = out.filter(({ i }) => i.assigneeIds.length === 0);
    else if (assigneeId === 'Any') out = out.filter(({ i }) => i.assigneeIds.length > 0);
    else out = out.filter(({ i }) => i.assigneeIds.includes(Number(assigneeId)));
  }
  if (assigneeUsername?.length) {
    const ids = assigneeUsername.map((u) => lookupUser(ctx.state, u)?.id ?? -1);
    out = out.filter(({ i }) => ids.every((id) => i.assigneeIds.includes(id)));
  }
  if (authorId !== undefined) out = out.filter(({ i }) => i.authorId === authorId);
  if (authorUsername) out = out.filter(({ i }) => lookupUser(ctx.state, authorUsername)?.id === i.authorId);
  if (search)
    out = out.filter(
      ({ i }) => i.title.toLowerCase().includes(search) || i.description.toLowerCase().includes(search),
    );
  if (iids?.length) out = out.filter(({ i }) => iids.includes(String(i.iid)));
  if (confidential !== undefined) out = out.filter(({ i }) => i.confidential === confidential);
  const orderBy = str(ctx, 'order_by') ?? 'created_at';
  const asc = str(ctx, 'sort') === 'asc';
  const key = (x: Issue): string | number =>
    orderBy === 'updated_at' ? x.updatedAt : orderBy === 'title' ? x.title : x.createdAt;
  out = [...out].sort((a, b) => {
    const ka = key(a.i);
    const kb = key(b.i);
    const c = ka < kb ? -1 : ka > kb ? 1 : a.i.id - b.i.id;
    return asc ? c : -c;
  });
  return out;
}

function applyIssueFields(ctx: Ctx, p: Project, i: Issue): void {
  const title = str(ctx, 'title');
  if (title !== undefined) {
    if (title.trim() === '') throw new HttpError(400, { message: { title: ["can't be blank"] } });
    i.title = title;
  }
  const description = str(ctx, 'description');
  if (description !== undefined) i.description = description;
  const labels = list(ctx, 'labels');
  if (labels) i.labels = [...new Set(labels)];
  const add = list(ctx, 'add_labels');
  if (add) i.labels = [...new Set([...i.labels, ...add])];
  const remove = list(ctx, 'remove_labels');
  if (remove) i.labels = i.labels.filter((l) => !remove.includes(l));
  for (const l of i.labels) {
    if (!p.labels.some((x) => x.name === l))
      p.labels.push({
        id: nextId(ctx.state, 'label'),
        name: l,
        color: '#6699cc',
        description: null,
        priority: null,
      });
  }
  const assigneeIds = list(ctx, 'assignee_ids');
  if (assigneeIds) i.assigneeIds = assigneeIds.map(Number).filter((n) => n > 0);
  const assigneeId = num(ctx, 'assignee_id');
  if (assigneeId !== undefined) i.assigneeIds = assigneeId > 0 ? [assigneeId] : [];
  const milestoneId = num(ctx, 'milestone_id');
  if (milestoneId !== undefined) i.milestoneId = milestoneId > 0 ? milestoneId : null;
  const confidential = bool(ctx, 'confidential');
  if (confidential !== undefined) i.confidential = confidential;
  const dueDate = str(ctx, 'due_date');
  if (dueDate !== undefined) i.dueDate = dueDate || null;
  const weight = num(ctx, 'weight');
  if (weight !== undefined) i.weight = weight;
}

export function registerIssues(r: RouteTable): void {
  r.add('GET', '/issues', (ctx) => {
    const items = ctx.state.projects
      .filter((p) => canSeeProject(ctx.state, p, ctx.user))
      .flatMap((p) => p.issues.map((i) => ({ p, i })));
    const scope = str(ctx, 'scope') ?? 'created_by_me';
    const mine =
      scope === 'all'
        ? items
        : items.filter(({ i }) =>
            scope === 'assigned_to_me' ? i.assigneeIds.includes(ctx.user!.id) : i.authorId === ctx.user!.id,
          );
    return paginate(
      pageReq(ctx),
      filterIssues(ctx, mine).map(({ p, i }) => issueJson(ctx, p, i)),
    );
  });
  r.add('GET', '/groups/:id/issues', (ctx) => {
    const g = group(ctx);
    const items = ctx.state.projects
      .filter(
        (p) =>
          p.namespaceKind === 'group' &&
          (p.namespaceId === g.id || ctx.state.groups.find((x) => x.id === p.namespaceId)?.parentId === g.id),
      )
      .flatMap((p) => p.issues.map((i) => ({ p, i })));
    return paginate(
      pageReq(ctx),
      filterIssues(ctx, items).map(({ p, i }) => issueJson(ctx, p, i)),
    );
  });
  r.add('GET', '/projects/:id/issues', (ctx) => {
    const p = project(ctx);
    return paginate(
      pageReq(ctx),
      filterIssues(
        ctx,
        p.issues.map((i) => ({ p, i })),
      ).map(({ i }) => issueJson(ctx, p, i)),
    );
  });
  r.add('GET', '/projects/:id/issues/:issue_iid', (ctx) => {
    const p = project(ctx);
    return json(200, issueJson(ctx, p, findIssue(ctx, p)));
  });
  r.add('POST', '/projects/:id/issues', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.guest);
    const title = required(ctx, 'title');
    const nowIso = new Date().toISOString();
    const iid = num(ctx, 'iid') ?? Math.max(0, ...p.issues.map((x) => x.iid)) + 1;
    const i: Issue = {
      id: nextId(ctx.state, 'issue'),
      iid,
      projectId: p.id,
      title,
      description: '',
      state: 'opened',
      labels: [],
      assigneeIds: [],
      authorId: ctx.user!.id,
      milestoneId: null,
      confidential: false,
      dueDate: null,
      weight: null,
      createdAt: str(ctx, 'created_at') ?? nowIso,
      updatedAt: nowIso,
      closedAt: null,
      closedById: null,
      discussions: [],
    };
    applyIssueFields(ctx, p, i);
    p.issues.push(i);
    p.lastActivityAt = nowIso;
    return json(201, issueJson(ctx, p, i));
  });
  r.add('PUT', '/projects/:id/issues/:issue_iid', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.reporter);
    const i = findIssue(ctx, p);
    applyIssueFields(ctx, p, i);
    const event = str(ctx, 'state_event');
    const nowIso = new Date().toISOString();
    if (event === 'close' && i.state !== 'closed') {
      i.state = 'closed';
      i.closedAt = nowIso;
      i.closedById = ctx.user!.id;
    } else if (event === 'reopen' && i.state !== 'opened') {
      i.state = 'opened';
      i.closedAt = null;
      i.closedById = null;
    } else if (event !== undefined && event !== 'close' && event !== 'reopen') {
      throw new HttpError(400, { error: 'state_event does not have a valid value' });
    }
    // A back-dated update time is taken from an owner only (administrators included), as the instance does.
    const updatedAt = time(ctx, 'updated_at');
    const owner = ctx.user!.isAdmin || projectAccess(ctx.state, p, ctx.user) >= ACCESS.owner;
    i.updatedAt = updatedAt !== undefined && owner ? new Date(updatedAt).toISOString() : nowIso;
    return json(200, issueJson(ctx, p, i));
  });
  r.add('DELETE', '/projects/:id/issues/:issue_iid', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.owner);
    const i = findIssue(ctx, p);
    p.issues.splice(p.issues.indexOf(i), 1);
    return noContent();
  });
  registerNotes(r, '/projects/:id/issues/:noteable_id', (ctx, p) => {
    const i = findIssue(ctx, p, 'noteable_id');
    return {
      type: 'Issue',
      id: i.id,
      iid: i.iid,
      discussions: i.discussions,
      touch: () => (i.updatedAt = new Date().toISOString()),
    };
  });
}
