/** What a handler sees of one request, plus lookups shared by the domains. */
import { HttpError, notFound } from './http.js';
import type { Reply } from './http.js';
import type { Group, Milestone, Project, State, TokenRecord, User } from './state.js';
import type { LicensePlan } from './types.js';

export interface Runtime {
  version: string;
  license: LicensePlan | null;
  baseUrl: string;
  /** Lifetime of access tokens the token endpoint issues (the instance's default is two hours). */
  oauthTokenLifetimeSeconds: number;
}

export interface Ctx {
  method: string;
  /** Path relative to /api/v4 (or the full path for non-API routes). */
  path: string;
  fullPath: string;
  query: Record<string, string | string[]>;
  /** Parsed JSON, form fields, the text, or (application/octet-stream) the bytes. */
  body: unknown;
  /** The request body exactly as received. */
  raw: Buffer;
  /** Query and body merged, as the instance's API layer sees parameters. */
  input: Record<string, unknown>;
  params: Record<string, string>;
  pattern: string;
  token?: TokenRecord;
  user?: User;
  /** Request headers, names lower-cased. */
  headers: Record<string, string>;
  /** The credential as presented, even when the instance does not know it. */
  presented?: string;
  state: State;
  rt: Runtime;
}

export type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

export function str(ctx: Ctx, name: string): string | undefined {
  const v = ctx.input[name];
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return v.length ? String(v[0]) : undefined;
  return String(v);
}

export function required(ctx: Ctx, name: string): string {
  const v = str(ctx, name);
  if (v === undefined || v === '') throw new HttpError(400, { error: `${name} is missing` });
  return v;
}

export function num(ctx: Ctx, name: string): number | undefined {
  const v = str(ctx, name);
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new HttpError(400, { error: `${name} is invalid` });
  return n;
}

/**
 * Branches or tags matching a ref list's search as the instance matches them: in any case, `^` anchoring the
 * start, `$` the end and `*` standing for any run of characters (then in the list's order); without them, a
 * name holding the text, an exact match first.
 */
export function searchRefs<T extends { name: string }>(items: T[], search: string | undefined): T[] {
  if (search === undefined || search === '') return items;
  const term = search.toLowerCase();
  if (/[\^$*]/.test(term)) {
    const pattern = term
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace('\\^', '^')
      .replace(/\\\*/g, '.*?')
      .replace('\\$', '$');
    const re = new RegExp(pattern);
    return items.filter((x) => re.test(x.name.toLowerCase()));
  }
  const found = items.filter((x) => x.name.toLowerCase().includes(term));
  const exact = found.filter((x) => x.name.toLowerCase() === term);
  return [...exact, ...found.filter((x) => !exact.includes(x))];
}

/** A date-time parameter as milliseconds; one the instance cannot read as a date answers 400 as it does. */
export function time(ctx: Ctx, name: string): number | undefined {
  const v = str(ctx, name);
  if (v === undefined || v === '') return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw new HttpError(400, { error: `${name} is invalid` });
  return t;
}

/**
 * The creation and update window of an issue or merge request list (created_after, created_before,
 * updated_after, updated_before; each bound inclusive, as the instance reads them).
 */
export function dateWindow(ctx: Ctx): (item: { createdAt: string; updatedAt: string }) => boolean {
  const bounds = (
    [
      ['created_after', 'createdAt', 1],
      ['created_before', 'createdAt', -1],
      ['updated_after', 'updatedAt', 1],
      ['updated_before', 'updatedAt', -1],
    ] as const
  ).flatMap(([param, field, side]) => {
    const t = time(ctx, param);
    return t === undefined ? [] : [{ field, side, t }];
  });
  return (item) =>
    bounds.every(({ field, side, t }) => {
      const at = Date.parse(item[field]);
      return side > 0 ? at >= t : at <= t;
    });
}

export function bool(ctx: Ctx, name: string): boolean | undefined {
  const v = ctx.input[name];
  if (v === undefined || v === null || v === '') return undefined;
  return v === true || v === 'true' || v === '1' || v === 1;
}

/** Accepts `a,b`, repeated `name[]=` / `name=` values, or a JSON array. */
export function list(ctx: Ctx, name: string): string[] | undefined {
  const v = ctx.input[name] ?? ctx.input[`${name}[]`];
  if (v === undefined || v === null) return undefined;
  const arr = Array.isArray(v) ? v : String(v).split(',');
  return arr.map((x) => String(x).trim()).filter((x) => x !== '');
}

export function groupFullPath(state: State, g: Group): string {
  const parent = g.parentId === null ? undefined : state.groups.find((x) => x.id === g.parentId);
  return parent ? `${groupFullPath(state, parent)}/${g.path}` : g.path;
}

export function projectNamespacePath(state: State, p: Project): string {
  if (p.namespaceKind === 'group') {
    const g = state.groups.find((x) => x.id === p.namespaceId);
    return g ? groupFullPath(state, g) : 'unknown';
  }
  return state.users.find((u) => u.id === p.namespaceId)?.username ?? 'unknown';
}

export const projectFullPath = (state: State, p: Project): string =>
  `${projectNamespacePath(state, p)}/${p.path}`;

function groupAncestors(state: State, g: Group | undefined): Group[] {
  const out: Group[] = [];
  while (g) {
    out.push(g);
    const parentId: number | null = g.parentId;
    g = parentId === null ? undefined : state.groups.find((x) => x.id === parentId);
  }
  return out;
}

/**
 * The milestone an issue or a merge request of `p` is in: one of the project's own, or of a group it sits in (a
 * group's milestone spans its projects and its subgroups' projects).
 */
export function milestoneFor(
  state: State,
  p: Project,
  id: number | null,
): { m: Milestone; g?: Group } | undefined {
  if (id === null) return undefined;
  const own = p.milestones.find((m) => m.id === id);
  if (own) return { m: own };
  if (p.namespaceKind !== 'group') return undefined;
  for (const g of groupAncestors(
    state,
    state.groups.find((x) => x.id === p.namespaceId),
  )) {
    const m = g.milestones?.find((x) => x.id === id);
    if (m) return { m, g };
  }
  return undefined;
}

export function groupAccess(state: State, g: Group, user: User | undefined): number {
  if (!user) return 0;
  let best = 0;
  for (const a of groupAncestors(state, g)) {
    for (const m of a.members)
      if (m.userId === user.id && m.state !== 'awaiting') best = Math.max(best, m.accessLevel);
  }
  return best;
}

export function projectAccess(state: State, p: Project, user: User | undefined): number {
  if (!user) return 0;
  let best = p.members.find((m) => m.userId === user.id && m.state !== 'awaiting')?.accessLevel ?? 0;
  if (p.namespaceKind === 'group') {
    const g = state.groups.find((x) => x.id === p.namespaceId);
    if (g) best = Math.max(best, groupAccess(state, g, user));
  } else if (p.namespaceId === user.id) best = Math.max(best, 50);
  return best;
}

export const canSeeProject = (state: State, p: Project, user: User | undefined): boolean =>
  p.visibility !== 'private' || !!user?.isAdmin || projectAccess(state, p, user) > 0;

export const canSeeGroup = (state: State, g: Group, user: User | undefined): boolean =>
  g.visibility !== 'private' || !!user?.isAdmin || groupAccess(state, g, user) > 0;

export function lookupProject(state: State, ref: string): Project | undefined {
  if (/^\d+$/.test(ref)) return state.projects.find((p) => p.id === Number(ref));
  return state.projects.find((p) => projectFullPath(state, p).toLowerCase() === ref.toLowerCase());
}

export function lookupGroup(state: State, ref: string): Group | undefined {
  if (/^\d+$/.test(ref)) return state.groups.find((g) => g.id === Number(ref));
  return state.groups.find((g) => groupFullPath(state, g).toLowerCase() === ref.toLowerCase());
}

export function project(ctx: Ctx, param = 'id'): Project {
  const p = lookupProject(ctx.state, ctx.params[param] ?? '');
  if (!p || !canSeeProject(ctx.state, p, ctx.user)) throw notFound('Project');
  return p;
}

export function group(ctx: Ctx, param = 'id'): Group {
  const g = lookupGroup(ctx.state, ctx.params[param] ?? '');
  if (!g || !canSeeGroup(ctx.state, g, ctx.user)) throw notFound('Group');
  return g;
}

export function userById(state: State, id: number): User | undefined {
  return state.users.find((u) => u.id === id);
}

export function lookupUser(state: State, ref: string): User | undefined {
  return /^\d+$/.test(ref) ? userById(state, Number(ref)) : state.users.find((u) => u.username === ref);
}

/** Developers and above may write; the instance answers lesser roles 403. */
export function requireProjectAccess(ctx: Ctx, p: Project, level: number): void {
  if (ctx.user?.isAdmin) return;
  if (projectAccess(ctx.state, p, ctx.user) < level) throw new HttpError(403, { message: '403 Forbidden' });
}

/** A group's role of at least `level` (held there or in a parent group), or an administrator; else 403. */
export function requireGroupAccess(ctx: Ctx, g: Group, level: number): void {
  if (ctx.user?.isAdmin) return;
  if (groupAccess(ctx.state, g, ctx.user) < level) throw new HttpError(403, { message: '403 Forbidden' });
}

export function webBase(ctx: Ctx): string {
  return ctx.rt.baseUrl;
}

export function now(): string {
  return new Date().toISOString();
}

/** A request body's fields: a parsed JSON object or form, never an array, text or raw bytes. */
export function fieldsOf(body: unknown): Record<string, unknown> {
  return body && typeof body === 'object' && !Array.isArray(body) && !Buffer.isBuffer(body)
    ? (body as Record<string, unknown>)
    : {};
}

/** The page request of a list route (its URL and query), for paginate. */
export const pageReq = (ctx: Ctx) => ({ baseUrl: ctx.rt.baseUrl, path: ctx.fullPath, query: ctx.query });
