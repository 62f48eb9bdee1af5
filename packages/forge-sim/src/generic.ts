/** Plausible answers for every inventory route without a hand-written handler. */
import { fieldsOf, list, lookupGroup, lookupProject, lookupUser, project, str } from './context.js';
import type { Ctx, Handler } from './context.js';
import { HttpError, notFound, paginate } from './http.js';
import type { Reply } from './http.js';
import { nextId } from './state.js';

const BINARY =
  /(\/artifacts(\/|$)|\/download$|\/archive(\.\w+)?$|\/avatar$|\/raw(\/|$)|\/packages\/generic\/|\/files\/|\/export\/download$|\/snapshot$|\/attestations\/:attestation_iid\/download)/;
const TEXT = /(\/trace$|\/raw_diffs$|\/diff$|\.patch$|\/changelog$)/;
/** Routes the instance answers 202 Accepted. */
const ACCEPTED =
  /^(DELETE \/(projects|groups)\/:id$|POST \/projects\/:id\/(export|import|housekeeping|mirror\/pull)|POST \/groups\/:id\/export|DELETE .*\/registry\/repositories\/)/;
const ITEM_WITH_IID =
  /(issues|merge_requests|epics|milestones|feature_flags_user_lists|alert_management_alerts|incidents|test_cases|work_items|pipelines)$/;

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses') || word.endsWith('shes') || word.endsWith('ches')) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The last literal segment of a pattern, and whether the pattern ends on a parameter (an item) or not (a collection). */
function shape(pattern: string): { resource: string; item: boolean } {
  const segs = pattern
    .replace(/\([^)]*\)/g, '')
    .split('/')
    .filter(Boolean);
  const last = segs[segs.length - 1] ?? '';
  const item = last.startsWith(':') || last.startsWith('*');
  const literal = [...segs].reverse().find((s) => !s.startsWith(':') && !s.startsWith('*')) ?? 'item';
  return { resource: literal, item };
}

function plausible(
  ctx: Ctx,
  resource: string,
  id: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const noun = singular(resource).replace(/_/g, ' ');
  const obj: Record<string, unknown> = {
    id,
    name: `${noun} ${id}`,
    title: `${noun} ${id}`,
    description: `A simulated ${noun}`,
    state: 'active',
    created_at: '2025-01-15T10:00:00.000Z',
    updated_at: '2025-01-15T10:05:00.000Z',
    web_url: `${ctx.rt.baseUrl}/-/${resource}/${id}`,
  };
  if (ITEM_WITH_IID.test(resource)) obj.iid = id;
  if (ctx.params.id && ctx.pattern.startsWith('/projects/:id')) obj.project_id = Number(ctx.params.id) || 1;
  if (ctx.params.id && ctx.pattern.startsWith('/groups/:id')) obj.group_id = Number(ctx.params.id) || 10;
  return { ...obj, ...extra };
}

/**
 * A list the instance filters by `state`: the states its two placeholder items hold (the first's, the second's),
 * the item states each value of `state` keeps (`all` every one), the value that applies when none is asked
 * (otherwise every item is listed), and when the instance reads `state` at all.
 */
interface ListStates {
  held: readonly [string, string];
  takes: Readonly<Record<string, readonly string[]>>;
  byDefault?: string;
  when?: (ctx: Ctx) => boolean;
}

/**
 * Each held state kept by its own name, `all` keeping both where the instance takes it, and further values naming
 * the item states they keep.
 */
function states(
  held: readonly [string, string],
  { all = false, also = {} }: { all?: boolean; also?: Record<string, readonly string[]> } = {},
): ListStates {
  return {
    held,
    takes: { [held[0]]: [held[0]], [held[1]]: [held[1]], ...(all ? { all: held } : {}), ...also },
  };
}

const TOKENS = states(['active', 'inactive']);
const MERGE_REQUEST_STATES = { closed: ['closed'], locked: ['locked'] };
const ITERATIONS = states(['upcoming', 'closed'], {
  all: true,
  // opened: not yet closed (upcoming or current); started: current's former name.
  also: { current: ['current'], started: ['current'], opened: ['upcoming', 'current'] },
});
/** Search reads `state` for issues and merge requests only. */
const SEARCH: ListStates = {
  ...states(['opened', 'closed'], { all: true, also: { merged: ['merged'] } }),
  when: (ctx) => ['issues', 'merge_requests'].includes(str(ctx, 'scope') ?? ''),
};

/** The lists without a stateful answer whose instance list takes `state`, by route. */
const LIST_STATES: Readonly<Record<string, ListStates>> = {
  '/groups/:id/access_tokens': TOKENS,
  '/projects/:id/access_tokens': TOKENS,
  '/groups/:id/manage/personal_access_tokens': TOKENS,
  '/groups/:id/service_accounts/:user_id/personal_access_tokens': TOKENS,
  '/projects/:id/service_accounts/:user_id/personal_access_tokens': TOKENS,
  '/users/:user_id/impersonation_tokens': states(['active', 'inactive'], { all: true }),
  '/groups/:id/epics': states(['opened', 'closed'], { all: true }),
  '/groups/:id/milestones': states(['active', 'closed'], { all: true }),
  '/groups/:id/iterations': ITERATIONS,
  '/projects/:id/iterations': ITERATIONS,
  '/projects/:id/deployments/:deployment_id/merge_requests': states(['opened', 'merged'], {
    all: true,
    also: MERGE_REQUEST_STATES,
  }),
  '/projects/:id/repository/commits/:sha/merge_requests': states(['opened', 'merged'], {
    also: MERGE_REQUEST_STATES,
  }),
  '/todos': { ...states(['pending', 'done']), byDefault: 'pending' },
  '/search': SEARCH,
  '/groups/:id/(-/)search': SEARCH,
  '/projects/:id/(-/)search': SEARCH,
};

/**
 * The two placeholder items of a list, each in the state its route gives it, keeping those in the state asked
 * (an unknown state answers 400, as the instance's parameter check does).
 */
function placeholders(ctx: Ctx, pattern: string, resource: string): Record<string, unknown>[] {
  const rule = LIST_STATES[pattern];
  if (!rule || !(rule.when?.(ctx) ?? true)) return [plausible(ctx, resource, 1), plausible(ctx, resource, 2)];
  const items = rule.held.map((state, i) => plausible(ctx, resource, i + 1, { state }));
  const asked = str(ctx, 'state') ?? rule.byDefault;
  if (asked === undefined) return items;
  const kept = Object.hasOwn(rule.takes, asked) ? rule.takes[asked] : undefined;
  if (!kept) throw new HttpError(400, { error: 'state does not have a valid value' });
  return items.filter((x) => kept.includes(String(x.state)));
}

/**
 * A plausible list as asked: `search` matched in any case on the name or title, `iids` kept where items have
 * one, `order_by`/`sort` where given.
 */
function listed(ctx: Ctx, items: Record<string, unknown>[]): Record<string, unknown>[] {
  const search = str(ctx, 'search')?.toLowerCase();
  const iids = list(ctx, 'iids');
  const found = items.filter(
    (x) =>
      (!search || [x.name, x.title].some((v) => String(v).toLowerCase().includes(search))) &&
      (!iids?.length || !('iid' in x) || iids.includes(String(x.iid))),
  );
  const orderBy = str(ctx, 'order_by');
  if (orderBy === undefined || !found.every((x) => orderBy in x)) return found;
  const dir = str(ctx, 'sort') === 'asc' ? 1 : -1;
  return [...found].sort((a, b) => {
    const ka = a[orderBy] as string | number;
    const kb = b[orderBy] as string | number;
    return (ka < kb ? -1 : ka > kb ? 1 : 0) * dir;
  });
}

/** The instance checks the parent resource before anything else. */
function checkParents(ctx: Ctx): void {
  if (ctx.pattern.startsWith('/projects/:id')) {
    // Runner- and trigger-token routes carry no user: only existence is checked.
    if (ctx.user) project(ctx);
    else if (!lookupProject(ctx.state, ctx.params.id ?? '')) throw notFound('Project');
  } else if (ctx.pattern.startsWith('/groups/:id')) {
    if (!lookupGroup(ctx.state, ctx.params.id ?? '')) throw notFound('Group');
  } else if (ctx.pattern.startsWith('/users/:id') || ctx.pattern.startsWith('/users/:user_id')) {
    if (!lookupUser(ctx.state, ctx.params.id ?? ctx.params.user_id ?? '')) throw notFound('User');
  }
}

/** Routes rotating an access token (project, group, personal, service account, runner controller). */
const ROTATION = /\/(access_tokens|personal_access_tokens|tokens)\/[^/]+\/rotate$/;

/** The token a rotation issues: a new ID and secret, active, expiring when asked (else in a week). */
function rotated(ctx: Ctx): Record<string, unknown> {
  const id = nextId(ctx.state, 'generic');
  const week = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  return {
    id,
    name: `rotated token ${id}`,
    revoked: false,
    active: true,
    scopes: ['api'],
    created_at: new Date().toISOString(),
    expires_at: str(ctx, 'expires_at') ?? week,
    token: `glpat-forgesim-rotated-${String(id).padStart(6, '0')}`,
  };
}

export function genericHandler(method: string, pattern: string): Handler {
  const { resource, item } = shape(pattern);
  const key = `${method} ${pattern}`;
  return (ctx): Reply => {
    checkParents(ctx);
    const lastParam = Object.values(ctx.params).pop();
    const itemId = Number(lastParam) || 1;
    if ((method === 'GET' || method === 'HEAD') && BINARY.test(pattern)) {
      const name = lastParam ?? 'file';
      return {
        status: 200,
        raw: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from(`forge-sim ${name}\n`)]),
        contentType: 'application/octet-stream',
        headers: { 'content-disposition': `attachment; filename="${String(name).split('/').pop()}"` },
      };
    }
    if ((method === 'GET' || method === 'HEAD') && TEXT.test(pattern)) {
      return {
        status: 200,
        raw: `forge-sim ${resource}\nline 2\n`,
        contentType: 'text/plain; charset=utf-8',
      };
    }
    switch (method) {
      case 'GET':
      case 'HEAD':
        if (item)
          return {
            status: 200,
            body: plausible(
              ctx,
              resource,
              itemId,
              item && lastParam && !/^\d+$/.test(lastParam) ? { key: lastParam, name: lastParam } : {},
            ),
          };
        return paginate(
          { baseUrl: ctx.rt.baseUrl, path: ctx.fullPath, query: ctx.query },
          listed(ctx, placeholders(ctx, pattern, resource)),
        );
      case 'POST':
        // A token rotation answers the new token with its secret, shown this once, as the instance does.
        if (ROTATION.test(pattern)) return { status: 200, body: rotated(ctx) };
        return {
          status: ACCEPTED.test(key) ? 202 : 201,
          body: { ...plausible(ctx, resource, nextId(ctx.state, 'generic')), ...fieldsOf(ctx.body) },
        };
      case 'PUT':
      case 'PATCH':
        return { status: 200, body: { ...plausible(ctx, resource, itemId), ...fieldsOf(ctx.body) } };
      case 'DELETE':
        return ACCEPTED.test(key) ? { status: 202, body: { message: '202 Accepted' } } : { status: 204 };
      default:
        throw new HttpError(405, { message: '405 Method Not Allowed' });
    }
  };
}
