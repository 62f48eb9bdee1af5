/**
 * Events: what people did, as the instance records it. Here they are read off the state: an issue or a merge
 * request opened, closed or merged, and each comment on one (pushes are not recorded).
 */
import { canSeeProject, lookupUser, pageReq, project, str, userById } from '../context.js';
import type { Ctx } from '../context.js';
import { HttpError, notFound, paginate } from '../http.js';
import { userBasic } from '../serialize.js';
import type { Issue, MergeRequest, Project, State } from '../state.js';
import type { RouteTable } from './table.js';

interface Event {
  p: Project;
  /** The filter's word for it (action=...). */
  action: string;
  actionName: string;
  /** The filter's word for the object (target_type=...). */
  kind: 'issue' | 'merge_request' | 'note';
  authorId: number;
  at: string;
  target: Issue | MergeRequest;
  targetType: 'Issue' | 'MergeRequest' | 'Note' | 'DiffNote';
  note?: { id: number; body: string; noteableType: 'Issue' | 'MergeRequest' };
}

function eventsOf(state: State): Event[] {
  const out: Event[] = [];
  for (const p of state.projects) {
    const items: [Issue | MergeRequest, 'Issue' | 'MergeRequest'][] = [
      ...p.issues.map((i) => [i, 'Issue'] as [Issue, 'Issue']),
      ...p.mergeRequests.map((m) => [m, 'MergeRequest'] as [MergeRequest, 'MergeRequest']),
    ];
    for (const [t, type] of items) {
      const kind = type === 'Issue' ? 'issue' : 'merge_request';
      const base = { p, kind, target: t, targetType: type } as const;
      out.push({ ...base, action: 'created', actionName: 'opened', authorId: t.authorId, at: t.createdAt });
      if ('mergedAt' in t && t.mergedAt)
        out.push({
          ...base,
          action: 'merged',
          actionName: 'accepted',
          authorId: t.mergedById ?? t.authorId,
          at: t.mergedAt,
        });
      if (t.closedAt && t.state === 'closed')
        out.push({
          ...base,
          action: 'closed',
          actionName: 'closed',
          authorId: ('closedById' in t ? t.closedById : null) ?? t.authorId,
          at: t.closedAt,
        });
      for (const d of t.discussions)
        for (const n of d.notes)
          if (!n.system)
            out.push({
              p,
              kind: 'note',
              target: t,
              action: 'commented',
              actionName: 'commented on',
              authorId: n.authorId,
              at: n.createdAt,
              targetType: n.position ? 'DiffNote' : 'Note',
              note: { id: n.id, body: n.body, noteableType: type },
            });
    }
  }
  // Oldest first gets the lowest ID, as the instance numbers them.
  return out.sort((x, y) => x.at.localeCompare(y.at));
}

function eventJson(ctx: Ctx, e: Event, id: number): Record<string, unknown> {
  const author = userById(ctx.state, e.authorId);
  return {
    id,
    title: null,
    project_id: e.p.id,
    action_name: e.actionName,
    target_id: e.note ? e.note.id : e.target.id,
    target_iid: e.note ? null : e.target.iid,
    target_type: e.targetType,
    author_id: e.authorId,
    target_title: e.target.title,
    created_at: e.at,
    author: userBasic(ctx, author),
    imported: false,
    imported_from: 'none',
    author_username: author?.username,
    ...(e.note
      ? {
          note: {
            id: e.note.id,
            type: e.targetType === 'DiffNote' ? 'DiffNote' : null,
            body: e.note.body,
            author: userBasic(ctx, author),
            created_at: e.at,
            system: false,
            noteable_id: e.target.id,
            noteable_type: e.note.noteableType,
            noteable_iid: e.target.iid,
          },
        }
      : {}),
  };
}

/** A YYYY-MM-DD filter: after counts from the end of its day, before up to the start of its day. */
function day(ctx: Ctx, name: string): number | undefined {
  const v = str(ctx, name);
  if (v === undefined) return undefined;
  const t = Date.parse(`${v}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(t))
    throw new HttpError(400, { error: `${name} is invalid` });
  return name === 'after' ? t + 86_400_000 : t;
}

function listed(ctx: Ctx, keep: (e: Event) => boolean) {
  const action = str(ctx, 'action');
  const kind = str(ctx, 'target_type');
  const after = day(ctx, 'after');
  const before = day(ctx, 'before');
  const numbered = eventsOf(ctx.state).map((e, k) => ({ e, id: k + 1 }));
  const kept = numbered.filter(
    ({ e }) =>
      keep(e) &&
      canSeeProject(ctx.state, e.p, ctx.user) &&
      (!action || e.action === action) &&
      (!kind || e.kind === kind) &&
      (after === undefined || Date.parse(e.at) >= after) &&
      (before === undefined || Date.parse(e.at) < before),
  );
  if (str(ctx, 'sort') !== 'asc') kept.reverse();
  return paginate(
    pageReq(ctx),
    kept.map(({ e, id }) => eventJson(ctx, e, id)),
  );
}

export function registerEvents(r: RouteTable): void {
  // The caller's own events; scope=all adds those of every project the caller can see.
  r.add('GET', '/events', (ctx) =>
    listed(ctx, (e) => str(ctx, 'scope') === 'all' || e.authorId === ctx.user?.id),
  );
  r.add('GET', '/users/:id/events', (ctx) => {
    const u = lookupUser(ctx.state, ctx.params.id);
    if (!u) throw notFound('User');
    return listed(ctx, (e) => e.authorId === u.id);
  });
  r.add('GET', '/projects/:id/events', (ctx) => {
    const p = project(ctx);
    return listed(ctx, (e) => e.p === p);
  });
}
