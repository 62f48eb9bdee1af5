/** Notes and discussions, shared by issues, merge requests and commits. */
import { pageReq, project, required, str } from '../context.js';
import type { Ctx } from '../context.js';
import { HttpError, json, noContent, notFound, paginate } from '../http.js';
import { discussionJson, noteJson } from '../serialize.js';
import type { Discussion, Note, Project } from '../state.js';
import { newDiscussion } from '../state.js';
import type { RouteTable } from './table.js';

export interface Noteable {
  type: 'Issue' | 'MergeRequest';
  id: number;
  iid: number;
  discussions: Discussion[];
  touch(): void;
}

type Resolver = (ctx: Ctx, p: Project) => Noteable;

function allNotes(n: Noteable): Note[] {
  return n.discussions.flatMap((d) => d.notes);
}

function findNote(n: Noteable): (id: string) => { d: Discussion; note: Note } {
  return (id) => {
    for (const d of n.discussions) {
      const note = d.notes.find((x) => String(x.id) === id);
      if (note) return { d, note };
    }
    throw notFound('Note');
  };
}

function findDiscussion(n: Noteable, id: string): Discussion {
  const d = n.discussions.find((x) => x.id === id);
  if (!d) throw notFound('Discussion');
  return d;
}

export function registerNotes(r: RouteTable, base: string, resolve: Resolver): void {
  const with_ = (ctx: Ctx) => {
    const p = project(ctx);
    return { p, n: resolve(ctx, p) };
  };
  const nj = (ctx: Ctx, p: Project, n: Noteable, note: Note) =>
    noteJson(ctx, note, n.type, n.id, n.iid, p.id);
  const dj = (ctx: Ctx, p: Project, n: Noteable, d: Discussion) =>
    discussionJson(ctx, d, n.type, n.id, n.iid, p.id);

  r.add('GET', `${base}/notes`, (ctx) => {
    const { p, n } = with_(ctx);
    let notes = allNotes(n);
    if (str(ctx, 'sort') !== 'asc') notes = [...notes].reverse();
    return paginate(
      pageReq(ctx),
      notes.map((x) => nj(ctx, p, n, x)),
    );
  });
  r.add('GET', `${base}/notes/:note_id`, (ctx) => {
    const { p, n } = with_(ctx);
    return json(200, nj(ctx, p, n, findNote(n)(ctx.params.note_id).note));
  });
  r.add('POST', `${base}/notes`, (ctx) => {
    const { p, n } = with_(ctx);
    const body = required(ctx, 'body');
    const d = newDiscussion(ctx.state, body, ctx.user!.id, new Date().toISOString(), true);
    n.discussions.push(d);
    n.touch();
    return json(201, nj(ctx, p, n, d.notes[0]));
  });
  r.add('PUT', `${base}/notes/:note_id`, (ctx) => {
    const { p, n } = with_(ctx);
    const { note } = findNote(n)(ctx.params.note_id);
    const body = str(ctx, 'body');
    if (body !== undefined) note.body = body;
    note.updatedAt = new Date().toISOString();
    return json(200, nj(ctx, p, n, note));
  });
  r.add('DELETE', `${base}/notes/:note_id`, (ctx) => {
    const { n } = with_(ctx);
    const { d, note } = findNote(n)(ctx.params.note_id);
    d.notes.splice(d.notes.indexOf(note), 1);
    if (d.notes.length === 0) n.discussions.splice(n.discussions.indexOf(d), 1);
    return noContent();
  });
  r.add('GET', `${base}/discussions`, (ctx) => {
    const { p, n } = with_(ctx);
    return paginate(
      pageReq(ctx),
      n.discussions.map((d) => dj(ctx, p, n, d)),
    );
  });
  r.add('GET', `${base}/discussions/:discussion_id`, (ctx) => {
    const { p, n } = with_(ctx);
    return json(200, dj(ctx, p, n, findDiscussion(n, ctx.params.discussion_id)));
  });
  r.add('POST', `${base}/discussions`, (ctx) => {
    const { p, n } = with_(ctx);
    const body = required(ctx, 'body');
    const d = newDiscussion(ctx.state, body, ctx.user!.id, new Date().toISOString(), false);
    if (n.type === 'Issue') d.notes[0].resolvable = false;
    const position = ctx.input.position;
    if (position && typeof position === 'object') d.notes[0].position = position;
    n.discussions.push(d);
    n.touch();
    return json(201, dj(ctx, p, n, d));
  });
  r.add('PUT', `${base}/discussions/:discussion_id`, (ctx) => {
    const { p, n } = with_(ctx);
    const d = findDiscussion(n, ctx.params.discussion_id);
    const resolved = str(ctx, 'resolved');
    if (resolved === undefined) throw new HttpError(400, { error: 'resolved is missing' });
    for (const note of d.notes) if (note.resolvable) note.resolved = resolved === 'true';
    return json(200, dj(ctx, p, n, d));
  });
  r.add('POST', `${base}/discussions/:discussion_id/notes`, (ctx) => {
    const { p, n } = with_(ctx);
    const d = findDiscussion(n, ctx.params.discussion_id);
    const body = required(ctx, 'body');
    const reply = newDiscussion(ctx.state, body, ctx.user!.id, new Date().toISOString(), false).notes[0];
    reply.discussionId = d.id;
    reply.resolvable = d.notes[0]?.resolvable ?? false;
    d.notes.push(reply);
    d.individualNote = false;
    return json(201, nj(ctx, p, n, reply));
  });
  r.add('PUT', `${base}/discussions/:discussion_id/notes/:note_id`, (ctx) => {
    const { p, n } = with_(ctx);
    const d = findDiscussion(n, ctx.params.discussion_id);
    const note = d.notes.find((x) => String(x.id) === ctx.params.note_id);
    if (!note) throw notFound('Note');
    const body = str(ctx, 'body');
    if (body !== undefined) note.body = body;
    const resolved = str(ctx, 'resolved');
    if (resolved !== undefined) note.resolved = resolved === 'true';
    note.updatedAt = new Date().toISOString();
    return json(200, nj(ctx, p, n, note));
  });
  r.add('DELETE', `${base}/discussions/:discussion_id/notes/:note_id`, (ctx) => {
    const { n } = with_(ctx);
    const d = findDiscussion(n, ctx.params.discussion_id);
    const idx = d.notes.findIndex((x) => String(x.id) === ctx.params.note_id);
    if (idx < 0) throw notFound('Note');
    d.notes.splice(idx, 1);
    if (d.notes.length === 0) n.discussions.splice(n.discussions.indexOf(d), 1);
    return noContent();
  });
}
