/** Identity, version, token self-description, license and namespaces: what the server calls on every new credential. */
import { isExpired } from '../auth.js';
import { canSeeGroup, groupFullPath, lookupUser, pageReq, str } from '../context.js';
import { HttpError, json, noContent, notFound, paginate } from '../http.js';
import { groupJson, userFull } from '../serialize.js';
import type { TokenRecord } from '../state.js';
import { at, nextId } from '../state.js';
import type { RouteTable } from './table.js';

export const REVISION = '6d1f2a9c3e4';

function tokenJson(t: TokenRecord): Record<string, unknown> {
  return {
    id: t.id,
    name: t.name,
    description: `forge-sim ${t.name}`,
    revoked: t.revoked,
    created_at: t.createdAt,
    scopes: t.scopes,
    user_id: t.userId,
    last_used_at: t.createdAt,
    active: !t.revoked && !isExpired(t),
    expires_at: t.expiresAt,
    ...(t.granularScopes ? { granular_scopes: t.granularScopes } : {}),
  };
}

export function registerIdentity(r: RouteTable): void {
  r.add('GET', '/user', (ctx) => json(200, userFull(ctx, ctx.user!, true)), {
    readUser: true,
    scope: 'read_api',
  });
  r.add('GET', '/version', (ctx) =>
    json(200, {
      version: ctx.rt.version,
      revision: REVISION,
      kas: { enabled: false, externalUrl: null, version: null },
      enterprise: ctx.rt.version.endsWith('-ee'),
    }),
  );
  r.add('GET', '/metadata', (ctx) =>
    json(200, {
      version: ctx.rt.version,
      revision: REVISION,
      kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
      enterprise: ctx.rt.version.endsWith('-ee'),
    }),
  );
  // Only personal access tokens describe themselves here; an OAuth access token is not one.
  r.add(
    'GET',
    '/personal_access_tokens/self',
    (ctx) => {
      if (ctx.token!.kind === 'oauth') throw new HttpError(404, { message: '404 Not Found' });
      return json(200, tokenJson(ctx.token!));
    },
    {
      anyScope: true,
      scope: 'read_api',
    },
  );
  r.add(
    'DELETE',
    '/personal_access_tokens/self',
    (ctx) => {
      ctx.token!.revoked = true;
      return noContent();
    },
    { anyScope: true, scope: 'read_api' },
  );
  r.add('GET', '/personal_access_tokens/:id', (ctx) => {
    const t = ctx.state.tokens.find((x) => String(x.id) === ctx.params.id && x.kind === 'personal');
    if (!t || (t.userId !== ctx.user!.id && !ctx.user!.isAdmin)) throw notFound('Personal Access Token');
    return json(200, tokenJson(t));
  });
  r.add('GET', '/personal_access_tokens', (ctx) => {
    const mine = ctx.state.tokens.filter(
      (t) => t.kind === 'personal' && (ctx.user!.isAdmin || t.userId === ctx.user!.id),
    );
    return paginate(pageReq(ctx), mine.map(tokenJson));
  });
  r.add('POST', '/user/personal_access_tokens', (ctx) => {
    const name = str(ctx, 'name');
    if (!name) throw new HttpError(400, { error: 'name is missing' });
    const granular = ctx.input.granular_scopes;
    const scopes = Array.isArray(granular) ? ['granular'] : (ctx.input.scopes as string[] | undefined);
    if (!scopes || (Array.isArray(scopes) && scopes.length === 0))
      throw new HttpError(400, { error: 'scopes is missing' });
    const id = nextId(ctx.state, 'token');
    const t: TokenRecord = {
      id,
      name,
      token: `glpat-forgesim-created-${String(id).padStart(6, '0')}`,
      userId: ctx.user!.id,
      scopes: Array.isArray(scopes) ? scopes.map(String) : String(scopes).split(','),
      kind: 'personal',
      revoked: false,
      expiresAt: str(ctx, 'expires_at') ?? null,
      createdAt: new Date().toISOString(),
      ...(Array.isArray(granular) ? { granularScopes: granular } : {}),
    };
    ctx.state.tokens.push(t);
    return json(201, { ...tokenJson(t), token: t.token });
  });
  r.add('GET', '/license', (ctx) => {
    if (ctx.rt.license === null) throw new HttpError(404, { message: '404 Not Found' });
    return json(200, {
      id: 1,
      plan: ctx.rt.license,
      created_at: at(-2000),
      starts_at: '2025-01-01',
      expires_at: '2099-12-31',
      historical_max: 10,
      maximum_user_count: 10,
      expired: false,
      overage: 0,
      user_limit: 100,
      active_users: 3,
      licensee: { Name: 'Forge Sim', Email: 'admin@forge.test', Company: 'Acme' },
      add_ons: {},
    });
  });
  r.add('GET', '/namespaces', (ctx) => {
    const me = ctx.user!;
    const search = str(ctx, 'search')?.toLowerCase();
    const out: Record<string, unknown>[] = [
      {
        id: 100 + me.id,
        name: me.name,
        path: me.username,
        kind: 'user',
        full_path: me.username,
        parent_id: null,
        avatar_url: null,
        web_url: `${ctx.rt.baseUrl}/${me.username}`,
        billable_members_count: 1,
        plan: 'free',
        trial: false,
      },
    ];
    for (const g of ctx.state.groups) {
      if (!canSeeGroup(ctx.state, g, me)) continue;
      out.push({
        id: g.id,
        name: g.name,
        path: g.path,
        kind: 'group',
        full_path: groupFullPath(ctx.state, g),
        parent_id: g.parentId,
        avatar_url: null,
        web_url: `${ctx.rt.baseUrl}/groups/${groupFullPath(ctx.state, g)}`,
        members_count_with_descendants: g.members.length,
        billable_members_count: g.members.length,
        plan: g.parentId === null ? (ctx.rt.license ?? 'free') : undefined,
        trial: false,
        root_repository_size: 0,
        projects_count: ctx.state.projects.filter(
          (p) => p.namespaceKind === 'group' && p.namespaceId === g.id,
        ).length,
      });
    }
    const filtered = search ? out.filter((n) => String(n.full_path).toLowerCase().includes(search)) : out;
    return paginate(pageReq(ctx), filtered);
  });
  r.add('GET', '/namespaces/:id', (ctx) => {
    const all = ctx.state.groups.filter((g) => canSeeGroup(ctx.state, g, ctx.user));
    const g = all.find(
      (x) => String(x.id) === ctx.params.id || groupFullPath(ctx.state, x) === ctx.params.id,
    );
    if (!g) throw notFound('Namespace');
    return json(200, { ...groupJson(ctx, g), kind: 'group' });
  });
  r.add('GET', '/users', (ctx) => {
    const username = str(ctx, 'username');
    const search = str(ctx, 'search')?.toLowerCase();
    let list = ctx.state.users;
    if (username) list = list.filter((u) => u.username === username);
    if (search)
      list = list.filter((u) => u.username.includes(search) || u.name.toLowerCase().includes(search));
    return paginate(
      pageReq(ctx),
      list.map((u) => userFull(ctx, u)),
    );
  });
  r.add('GET', '/users/:id', (ctx) => {
    const u = lookupUser(ctx.state, ctx.params.id);
    if (!u) throw notFound('User');
    return json(200, userFull(ctx, u, u.id === ctx.user?.id));
  });
  r.add(
    'POST',
    '/users',
    (ctx) => {
      const username = str(ctx, 'username');
      if (!username) throw new HttpError(400, { error: 'username is missing' });
      if (ctx.state.users.some((u) => u.username === username))
        throw new HttpError(409, { message: 'Username has already been taken' });
      const u = {
        id: nextId(ctx.state, 'user'),
        username,
        name: str(ctx, 'name') ?? username,
        email: str(ctx, 'email') ?? `${username}@forge.test`,
        isAdmin: false,
        bot: false,
        createdAt: new Date().toISOString(),
      };
      ctx.state.users.push(u);
      return json(201, userFull(ctx, u));
    },
    { admin: true },
  );
}
