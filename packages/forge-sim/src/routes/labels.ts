/** Project labels and milestones, and a group's milestones. */
import {
  bool,
  group,
  list,
  num,
  pageReq,
  project,
  required,
  requireGroupAccess,
  requireProjectAccess,
  str,
} from '../context.js';
import type { Ctx } from '../context.js';
import { genericHandler } from '../generic.js';
import { HttpError, json, noContent, notFound, paginate } from '../http.js';
import { groupMilestoneJson, issueJson, labelJson, mergeRequestJson, milestoneJson } from '../serialize.js';
import type { Group, Label, Milestone, Project } from '../state.js';
import { ACCESS, nextId } from '../state.js';
import type { RouteTable } from './table.js';

const NAMED_COLORS = new Set([
  'red',
  'green',
  'blue',
  'orange',
  'purple',
  'black',
  'white',
  'gray',
  'grey',
  'yellow',
]);

function color(value: string): string {
  if (/^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(value) || NAMED_COLORS.has(value.toLowerCase())) return value;
  throw new HttpError(400, { message: { color: ['must be a valid color code'] } });
}

function findLabel(ctx: Ctx, p: Project, ref: string | undefined): Label {
  const l = p.labels.find((x) => String(x.id) === ref || x.name === ref);
  if (!l) throw new HttpError(404, { message: '404 Label Not Found' });
  return l;
}

function findMilestone(ctx: Ctx, p: Project): Milestone {
  const m = p.milestones.find((x) => String(x.id) === ctx.params.milestone_id);
  if (!m) throw notFound('Milestone');
  return m;
}

/** A milestone made from the request's fields, added to `milestones` (a project's or a group's); a title taken is 400. */
function newMilestone(ctx: Ctx, milestones: Milestone[]): Milestone {
  const title = required(ctx, 'title');
  if (milestones.some((m) => m.title === title))
    throw new HttpError(400, { message: 'Milestone already exists' });
  const m: Milestone = {
    id: nextId(ctx.state, 'milestone'),
    iid: Math.max(0, ...milestones.map((x) => x.iid)) + 1,
    title,
    description: str(ctx, 'description') ?? '',
    state: 'active',
    dueDate: str(ctx, 'due_date') ?? null,
    startDate: str(ctx, 'start_date') ?? null,
    createdAt: new Date().toISOString(),
  };
  milestones.push(m);
  return m;
}

export function registerLabels(r: RouteTable): void {
  r.add('GET', '/projects/:id/labels', (ctx) => {
    const p = project(ctx);
    const search = str(ctx, 'search')?.toLowerCase();
    const withCounts = bool(ctx, 'with_counts') === true;
    return paginate(
      pageReq(ctx),
      p.labels
        .filter((l) => !search || l.name.toLowerCase().includes(search))
        .map((l) => labelJson(ctx, p, l, withCounts)),
    );
  });
  r.add('GET', '/projects/:id/labels/:name', (ctx) => {
    const p = project(ctx);
    return json(200, labelJson(ctx, p, findLabel(ctx, p, ctx.params.name)));
  });
  r.add('POST', '/projects/:id/labels', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const name = required(ctx, 'name');
    const c = color(required(ctx, 'color'));
    if (p.labels.some((l) => l.name === name)) throw new HttpError(409, { message: 'Label already exists' });
    const l: Label = {
      id: nextId(ctx.state, 'label'),
      name,
      color: c,
      description: str(ctx, 'description') ?? null,
      priority: num(ctx, 'priority') ?? null,
    };
    p.labels.push(l);
    return json(201, labelJson(ctx, p, l));
  });
  const update = (ctx: Ctx, ref: string | undefined) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const l = findLabel(ctx, p, ref);
    const newName = str(ctx, 'new_name');
    const c = str(ctx, 'color');
    const description = str(ctx, 'description');
    if (
      newName === undefined &&
      c === undefined &&
      description === undefined &&
      str(ctx, 'priority') === undefined
    ) {
      throw new HttpError(400, {
        error: 'new_name, color, description, priority are missing, at least one parameter must be provided',
      });
    }
    if (c !== undefined) l.color = color(c);
    if (newName !== undefined) {
      for (const i of p.issues) i.labels = i.labels.map((x) => (x === l.name ? newName : x));
      l.name = newName;
    }
    if (description !== undefined) l.description = description;
    const priority = num(ctx, 'priority');
    if (priority !== undefined) l.priority = priority;
    return json(200, labelJson(ctx, p, l));
  };
  r.add('PUT', '/projects/:id/labels/:name', (ctx) => update(ctx, ctx.params.name));
  r.add('PUT', '/projects/:id/labels', (ctx) => update(ctx, str(ctx, 'label_id') ?? str(ctx, 'name')));
  const remove = (ctx: Ctx, ref: string | undefined) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const l = findLabel(ctx, p, ref);
    p.labels.splice(p.labels.indexOf(l), 1);
    return noContent();
  };
  r.add('DELETE', '/projects/:id/labels/:name', (ctx) => remove(ctx, ctx.params.name));
  r.add('DELETE', '/projects/:id/labels', (ctx) => remove(ctx, str(ctx, 'label_id') ?? str(ctx, 'name')));

  // --- a group's milestones: those made through the API are answered from the state (listed with the filters of a
  // project's); a group that has made none is answered by the generic routes, as any other milestone ID is ---
  const otherList = genericHandler('GET', '/groups/:id/milestones');
  const otherOne = genericHandler('GET', '/groups/:id/milestones/:milestone_id');
  const otherUpdate = genericHandler('PUT', '/groups/:id/milestones/:milestone_id');
  const groupMilestone = (ctx: Ctx, g: Group): Milestone | undefined =>
    g.milestones?.find((x) => String(x.id) === ctx.params.milestone_id);
  r.add('GET', '/groups/:id/milestones', (ctx) => {
    const g = group(ctx);
    if (!g.milestones) return otherList(ctx);
    const state = str(ctx, 'state');
    const search = str(ctx, 'search')?.toLowerCase();
    const title = str(ctx, 'title');
    const iids = list(ctx, 'iids');
    const items = g.milestones.filter(
      (m) =>
        (!state || m.state === state) &&
        (!search || m.title.toLowerCase().includes(search)) &&
        (!title || m.title === title) &&
        (!iids || iids.includes(String(m.iid))),
    );
    return paginate(
      pageReq(ctx),
      // As the instance orders them: due date first (none last), then title.
      [...items]
        .sort(
          (x, y) =>
            (x.dueDate ?? '9999').localeCompare(y.dueDate ?? '9999') || x.title.localeCompare(y.title),
        )
        .map((m) => groupMilestoneJson(ctx, g, m)),
    );
  });
  r.add('GET', '/groups/:id/milestones/:milestone_id', (ctx) => {
    const g = group(ctx);
    const m = groupMilestone(ctx, g);
    return m ? json(200, groupMilestoneJson(ctx, g, m)) : otherOne(ctx);
  });
  r.add('POST', '/groups/:id/milestones', (ctx) => {
    const g = group(ctx);
    requireGroupAccess(ctx, g, ACCESS.reporter);
    g.milestones ??= [];
    const m = newMilestone(ctx, g.milestones);
    return json(201, groupMilestoneJson(ctx, g, m));
  });
  r.add('PUT', '/groups/:id/milestones/:milestone_id', (ctx) => {
    const g = group(ctx);
    const m = groupMilestone(ctx, g);
    if (!m) return otherUpdate(ctx);
    requireGroupAccess(ctx, g, ACCESS.reporter);
    const event = str(ctx, 'state_event');
    if (event === 'close') m.state = 'closed';
    else if (event === 'activate') m.state = 'active';
    const due = str(ctx, 'due_date');
    if (due !== undefined) m.dueDate = due || null;
    return json(200, groupMilestoneJson(ctx, g, m));
  });

  r.add('GET', '/projects/:id/milestones', (ctx) => {
    const p = project(ctx);
    const state = str(ctx, 'state');
    const search = str(ctx, 'search')?.toLowerCase();
    const title = str(ctx, 'title');
    const items = p.milestones.filter(
      (m) =>
        (!state || m.state === state) &&
        (!search || m.title.toLowerCase().includes(search)) &&
        (!title || m.title === title),
    );
    return paginate(
      pageReq(ctx),
      items.map((m) => milestoneJson(ctx, p, m)),
    );
  });
  r.add('GET', '/projects/:id/milestones/:milestone_id', (ctx) => {
    const p = project(ctx);
    return json(200, milestoneJson(ctx, p, findMilestone(ctx, p)));
  });
  r.add('POST', '/projects/:id/milestones', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.reporter);
    const m = newMilestone(ctx, p.milestones);
    return json(201, milestoneJson(ctx, p, m));
  });
  r.add('PUT', '/projects/:id/milestones/:milestone_id', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.reporter);
    const m = findMilestone(ctx, p);
    const title = str(ctx, 'title');
    if (title !== undefined) m.title = title;
    const description = str(ctx, 'description');
    if (description !== undefined) m.description = description;
    const due = str(ctx, 'due_date');
    if (due !== undefined) m.dueDate = due || null;
    const event = str(ctx, 'state_event');
    if (event === 'close') m.state = 'closed';
    else if (event === 'activate') m.state = 'active';
    return json(200, milestoneJson(ctx, p, m));
  });
  r.add('DELETE', '/projects/:id/milestones/:milestone_id', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.reporter);
    const m = findMilestone(ctx, p);
    p.milestones.splice(p.milestones.indexOf(m), 1);
    for (const i of p.issues) if (i.milestoneId === m.id) i.milestoneId = null;
    return noContent();
  });
  r.add('GET', '/projects/:id/milestones/:milestone_id/issues', (ctx) => {
    const p = project(ctx);
    const m = findMilestone(ctx, p);
    return paginate(
      pageReq(ctx),
      p.issues.filter((i) => i.milestoneId === m.id).map((i) => issueJson(ctx, p, i)),
    );
  });
  r.add('GET', '/projects/:id/milestones/:milestone_id/merge_requests', (ctx) => {
    const p = project(ctx);
    const m = findMilestone(ctx, p);
    return paginate(
      pageReq(ctx),
      p.mergeRequests.filter((x) => x.milestoneId === m.id).map((x) => mergeRequestJson(ctx, p, x)),
    );
  });
}
