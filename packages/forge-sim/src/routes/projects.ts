/** Projects and groups: list, get, create, update, delete, members, fork, subgroups. */
import {
  bool,
  canSeeGroup,
  canSeeProject,
  group,
  groupAccess,
  list,
  lookupGroup,
  lookupUser,
  num,
  pageReq,
  project,
  projectFullPath,
  required,
  requireGroupAccess,
  requireProjectAccess,
  str,
  userById,
} from '../context.js';
import type { Ctx } from '../context.js';
import { HttpError, json, noContent, notFound, paginate } from '../http.js';
import { groupJson, projectJson, userBasic } from '../serialize.js';
import type { Group, Member, Project } from '../state.js';
import { ACCESS, makeCommit, nextId } from '../state.js';
import type { RouteTable } from './table.js';

function memberJson(ctx: Ctx, m: Member): Record<string, unknown> {
  return {
    ...userBasic(ctx, userById(ctx.state, m.userId)),
    access_level: m.accessLevel,
    created_at: '2025-01-01T00:00:00.000Z',
    expires_at: null,
    membership_state: m.state ?? 'active',
  };
}

function sortProjects(ctx: Ctx, list: Project[]): Project[] {
  const orderBy = str(ctx, 'order_by') ?? 'created_at';
  const asc = str(ctx, 'sort') === 'asc';
  return [...list].sort((a, b) => {
    const ka =
      orderBy === 'name'
        ? a.name
        : orderBy === 'id'
          ? a.id
          : orderBy === 'last_activity_at'
            ? a.lastActivityAt
            : a.createdAt;
    const kb =
      orderBy === 'name'
        ? b.name
        : orderBy === 'id'
          ? b.id
          : orderBy === 'last_activity_at'
            ? b.lastActivityAt
            : b.createdAt;
    const c = ka < kb ? -1 : ka > kb ? 1 : a.id - b.id;
    return asc ? c : -c;
  });
}

function filterProjects(ctx: Ctx, list: Project[]): Project[] {
  const search = str(ctx, 'search')?.toLowerCase();
  const visibility = str(ctx, 'visibility');
  const archived = bool(ctx, 'archived');
  const owned = bool(ctx, 'owned');
  const membership = bool(ctx, 'membership');
  let out = list.filter((p) => canSeeProject(ctx.state, p, ctx.user));
  // The name, path and description; the namespace's path too only with search_namespaces, as the instance.
  const namespaces = bool(ctx, 'search_namespaces') === true;
  if (search)
    out = out.filter((p) =>
      [p.name, p.path, p.description, ...(namespaces ? [projectFullPath(ctx.state, p)] : [])].some((v) =>
        v.toLowerCase().includes(search),
      ),
    );
  if (visibility) out = out.filter((p) => p.visibility === visibility);
  if (archived !== undefined) out = out.filter((p) => p.archived === archived);
  if (owned) out = out.filter((p) => p.namespaceKind === 'user' && p.namespaceId === ctx.user?.id);
  if (membership)
    out = out.filter(
      (p) =>
        p.members.some((m) => m.userId === ctx.user?.id) ||
        (p.namespaceKind === 'group' &&
          groupAccess(
            ctx.state,
            ctx.state.groups.find((g) => g.id === p.namespaceId)!,
            ctx.user,
          ) > 0),
    );
  return sortProjects(ctx, out);
}

/** The fields a project list answers with simple=true (the instance's basic project details). */
const SIMPLE_FIELDS = [
  'id',
  'description',
  'name',
  'name_with_namespace',
  'path',
  'path_with_namespace',
  'created_at',
  'default_branch',
  'tag_list',
  'topics',
  'ssh_url_to_repo',
  'http_url_to_repo',
  'web_url',
  'readme_url',
  'forks_count',
  'avatar_url',
  'star_count',
  'last_activity_at',
  'namespace',
];

/** A project as a list answers it: whole, or its basic details only with simple=true. */
function listedProjectJson(ctx: Ctx, p: Project): Record<string, unknown> {
  const whole = projectJson(ctx, p);
  return bool(ctx, 'simple') === true ? Object.fromEntries(SIMPLE_FIELDS.map((k) => [k, whole[k]])) : whole;
}

/** The merge settings a project's update takes: the choices of each, and the switches. */
const MERGE_CHOICES: Record<string, string[]> = {
  merge_method: ['merge', 'rebase_merge', 'ff'],
  squash_option: ['never', 'always', 'default_on', 'default_off'],
};
const MERGE_SWITCHES = [
  'only_allow_merge_if_pipeline_succeeds',
  'allow_merge_on_skipped_pipeline',
  'only_allow_merge_if_all_discussions_are_resolved',
  'remove_source_branch_after_merge',
];

function descendants(ctx: Ctx, g: Group): Group[] {
  const kids = ctx.state.groups.filter((x) => x.parentId === g.id);
  return kids.flatMap((k) => [k, ...descendants(ctx, k)]);
}

function newProject(ctx: Ctx, name: string, path: string, kind: 'group' | 'user', nsId: number): Project {
  const nowIso = new Date().toISOString();
  const p: Project = {
    id: nextId(ctx.state, 'project'),
    name,
    path,
    namespaceKind: kind,
    namespaceId: nsId,
    description: str(ctx, 'description') ?? '',
    visibility: str(ctx, 'visibility') ?? 'private',
    defaultBranch: str(ctx, 'default_branch') ?? 'main',
    archived: false,
    forkedFromId: null,
    members: [{ userId: ctx.user!.id, accessLevel: ACCESS.owner }],
    createdAt: nowIso,
    lastActivityAt: nowIso,
    commits: new Map(),
    branches: new Map(),
    tags: new Map(),
    issues: [],
    mergeRequests: [],
    labels: [],
    milestones: [],
    pipelines: [],
    jobs: [],
    packages: [],
    wiki: [],
    variables: [],
    releases: [],
    starCount: 0,
  };
  if (bool(ctx, 'initialize_with_readme')) {
    const c = makeCommit(undefined, 'Initial commit', { 'README.md': `# ${name}\n` }, nowIso, ctx.user!);
    p.commits.set(c.id, c);
    p.branches.set(p.defaultBranch, { name: p.defaultBranch, commit: c.id, protected: true });
  }
  return p;
}

function registerMembers(
  r: RouteTable,
  base: string,
  members: (ctx: Ctx) => Member[],
  inherited: (ctx: Ctx) => Member[],
): void {
  // Both lists take the same filters: query (in a name, username or email), user_ids and state.
  const listed = (ctx: Ctx, all: Member[]) => {
    const q = str(ctx, 'query')?.toLowerCase();
    const ids = list(ctx, 'user_ids')?.map(Number);
    const state = str(ctx, 'state');
    if (state !== undefined && state !== 'awaiting' && state !== 'active')
      throw new HttpError(400, { error: 'state does not have a valid value' });
    const kept = all.filter((m) => {
      const u = userById(ctx.state, m.userId);
      return (
        (!q || [u?.username, u?.name, u?.email].some((t) => t?.toLowerCase().includes(q))) &&
        (!ids || ids.includes(m.userId)) &&
        (!state || (m.state ?? 'active') === state)
      );
    });
    return paginate(
      pageReq(ctx),
      kept.map((m) => memberJson(ctx, m)),
    );
  };
  r.add('GET', `${base}/members`, (ctx) => listed(ctx, members(ctx)));
  r.add('GET', `${base}/members/all`, (ctx) => listed(ctx, inherited(ctx)));
  const one = (list: Member[], ctx: Ctx) => {
    const m = list.find((x) => String(x.userId) === ctx.params.user_id);
    if (!m) throw notFound('Member');
    return m;
  };
  r.add('GET', `${base}/members/:user_id`, (ctx) => json(200, memberJson(ctx, one(members(ctx), ctx))));
  r.add('GET', `${base}/members/all/:user_id`, (ctx) => json(200, memberJson(ctx, one(inherited(ctx), ctx))));
  r.add('POST', `${base}/members`, (ctx) => {
    const list = members(ctx);
    // The instance names the new member by exactly one of user_id or username.
    const byId = str(ctx, 'user_id');
    const byName = str(ctx, 'username');
    if (byId !== undefined && byName !== undefined)
      throw new HttpError(400, { error: 'user_id, username are mutually exclusive' });
    const userId = byId ?? byName;
    if (userId === undefined)
      throw new HttpError(400, {
        error: 'user_id, username are missing, exactly one parameter must be provided',
      });
    const level = num(ctx, 'access_level');
    if (level === undefined) throw new HttpError(400, { error: 'access_level is missing' });
    // user_id takes IDs only: a username there names no user.
    const u = byId !== undefined && !/^\d+$/.test(byId) ? undefined : lookupUser(ctx.state, userId);
    if (!u) throw notFound('User');
    if (list.some((m) => m.userId === u.id)) throw new HttpError(409, { message: 'Member already exists' });
    const m = { userId: u.id, accessLevel: level };
    list.push(m);
    return json(201, memberJson(ctx, m));
  });
  r.add('PUT', `${base}/members/:user_id`, (ctx) => {
    const m = one(members(ctx), ctx);
    const level = num(ctx, 'access_level');
    if (level === undefined) throw new HttpError(400, { error: 'access_level is missing' });
    m.accessLevel = level;
    return json(200, memberJson(ctx, m));
  });
  r.add('DELETE', `${base}/members/:user_id`, (ctx) => {
    const list = members(ctx);
    const m = one(list, ctx);
    list.splice(list.indexOf(m), 1);
    return noContent();
  });
}

export function registerProjects(r: RouteTable): void {
  r.add('GET', '/projects', (ctx) =>
    paginate(
      // Keyset paging of projects (order_by id) continues with id_after, the last project's ID.
      { ...pageReq(ctx), keyset: { param: 'id_after', value: (p: { id: number }) => String(p.id) } },
      filterProjects(ctx, ctx.state.projects).map((p) => listedProjectJson(ctx, p)),
    ),
  );
  r.add('GET', '/projects/:id', (ctx) =>
    json(200, {
      ...projectJson(ctx, project(ctx)),
      permissions: { project_access: { access_level: 40, notification_level: 3 }, group_access: null },
    }),
  );
  r.add('POST', '/projects', (ctx) => {
    const name = str(ctx, 'name');
    const path = str(ctx, 'path') ?? name?.toLowerCase().replace(/[^a-z0-9_.-]+/g, '-');
    if (!name && !path)
      throw new HttpError(400, { error: 'name, path are missing, at least one parameter must be provided' });
    const nsRef = str(ctx, 'namespace_id');
    let kind: 'group' | 'user' = 'user';
    let nsId = ctx.user!.id;
    if (nsRef) {
      const g = lookupGroup(ctx.state, nsRef);
      if (!g || !canSeeGroup(ctx.state, g, ctx.user)) throw notFound('Namespace');
      kind = 'group';
      nsId = g.id;
    }
    const clash = ctx.state.projects.some(
      (p) => p.namespaceKind === kind && p.namespaceId === nsId && p.path === path,
    );
    if (clash)
      throw new HttpError(400, {
        message: { name: ['has already been taken'], path: ['has already been taken'] },
      });
    const p = newProject(ctx, name ?? path!, path!, kind, nsId);
    ctx.state.projects.push(p);
    return json(201, projectJson(ctx, p));
  });
  r.add('PUT', '/projects/:id', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.maintainer);
    const name = str(ctx, 'name');
    if (name !== undefined) p.name = name;
    const path = str(ctx, 'path');
    if (path !== undefined) p.path = path;
    const description = str(ctx, 'description');
    if (description !== undefined) p.description = description;
    const visibility = str(ctx, 'visibility');
    if (visibility !== undefined) {
      if (!['private', 'internal', 'public'].includes(visibility))
        throw new HttpError(400, { error: 'visibility does not have a valid value' });
      p.visibility = visibility;
    }
    const defaultBranch = str(ctx, 'default_branch');
    if (defaultBranch !== undefined) p.defaultBranch = defaultBranch;
    for (const [name, allowed] of Object.entries(MERGE_CHOICES)) {
      const v = str(ctx, name);
      if (v === undefined) continue;
      if (!allowed.includes(v)) throw new HttpError(400, { error: `${name} does not have a valid value` });
      p.mergeSettings = { ...p.mergeSettings, [name]: v };
    }
    for (const name of MERGE_SWITCHES) {
      const v = bool(ctx, name);
      if (v !== undefined) p.mergeSettings = { ...p.mergeSettings, [name]: v };
    }
    return json(200, projectJson(ctx, p));
  });
  r.add('DELETE', '/projects/:id', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.owner);
    ctx.state.projects.splice(ctx.state.projects.indexOf(p), 1);
    return json(202, { message: '202 Accepted' });
  });
  r.add('POST', '/projects/:id/archive', (ctx) => {
    const p = project(ctx);
    p.archived = true;
    return json(201, projectJson(ctx, p));
  });
  r.add('POST', '/projects/:id/unarchive', (ctx) => {
    const p = project(ctx);
    p.archived = false;
    return json(201, projectJson(ctx, p));
  });
  r.add('POST', '/projects/:id/fork', (ctx) => {
    const src = project(ctx);
    const nsRef = str(ctx, 'namespace_id') ?? str(ctx, 'namespace_path') ?? str(ctx, 'namespace');
    let kind: 'group' | 'user' = 'user';
    let nsId = ctx.user!.id;
    if (nsRef && nsRef !== ctx.user!.username && nsRef !== String(100 + ctx.user!.id)) {
      const g = lookupGroup(ctx.state, nsRef);
      if (!g) throw notFound('Namespace');
      kind = 'group';
      nsId = g.id;
    }
    const path = str(ctx, 'path') ?? src.path;
    if (
      ctx.state.projects.some((p) => p.namespaceKind === kind && p.namespaceId === nsId && p.path === path)
    ) {
      throw new HttpError(409, {
        message: { name: ['has already been taken'], path: ['has already been taken'] },
      });
    }
    const fork = newProject(ctx, str(ctx, 'name') ?? src.name, path, kind, nsId);
    fork.forkedFromId = src.id;
    fork.description = src.description;
    fork.commits = new Map(src.commits);
    fork.branches = new Map([...src.branches].map(([k, b]) => [k, { ...b, protected: false }]));
    fork.tags = new Map(src.tags);
    ctx.state.projects.push(fork);
    return json(201, projectJson(ctx, fork));
  });
  r.add('GET', '/projects/:id/forks', (ctx) => {
    const p = project(ctx);
    return paginate(
      pageReq(ctx),
      filterProjects(
        ctx,
        ctx.state.projects.filter((x) => x.forkedFromId === p.id),
      ).map((x) => listedProjectJson(ctx, x)),
    );
  });
  registerMembers(
    r,
    '/projects/:id',
    (ctx) => project(ctx).members,
    (ctx) => {
      const p = project(ctx);
      const out = [...p.members];
      const g =
        p.namespaceKind === 'group' ? ctx.state.groups.find((x) => x.id === p.namespaceId) : undefined;
      for (let cur = g; cur; cur = ctx.state.groups.find((x) => x.id === cur!.parentId)) {
        for (const m of cur.members) if (!out.some((o) => o.userId === m.userId)) out.push(m);
      }
      return out;
    },
  );
  r.add('GET', '/users/:id/projects', (ctx) => {
    const u = lookupUser(ctx.state, ctx.params.id);
    if (!u) throw notFound('User');
    return paginate(
      pageReq(ctx),
      filterProjects(
        ctx,
        ctx.state.projects.filter((p) => p.namespaceKind === 'user' && p.namespaceId === u.id),
      ).map((p) => listedProjectJson(ctx, p)),
    );
  });
}

export function registerGroups(r: RouteTable): void {
  r.add('GET', '/groups', (ctx) => {
    const search = str(ctx, 'search')?.toLowerCase();
    let list = ctx.state.groups.filter((g) => canSeeGroup(ctx.state, g, ctx.user));
    if (bool(ctx, 'top_level_only')) list = list.filter((g) => g.parentId === null);
    const minAccess = num(ctx, 'min_access_level');
    if (minAccess !== undefined) list = list.filter((g) => groupAccess(ctx.state, g, ctx.user) >= minAccess);
    if (search) list = list.filter((g) => g.name.toLowerCase().includes(search) || g.path.includes(search));
    return paginate(
      pageReq(ctx),
      list.map((g) => groupJson(ctx, g)),
    );
  });
  r.add('GET', '/groups/:id', (ctx) => {
    const g = group(ctx);
    const projects = ctx.state.projects.filter((p) => p.namespaceKind === 'group' && p.namespaceId === g.id);
    return json(200, {
      ...groupJson(ctx, g),
      projects: projects.map((p) => projectJson(ctx, p)),
      shared_projects: [],
      shared_with_groups: [],
    });
  });
  r.add('POST', '/groups', (ctx) => {
    const name = required(ctx, 'name');
    const path = required(ctx, 'path');
    const parentId = num(ctx, 'parent_id') ?? null;
    if (parentId !== null && !ctx.state.groups.some((g) => g.id === parentId)) throw notFound('Parent Group');
    if (ctx.state.groups.some((g) => g.parentId === parentId && g.path === path))
      throw new HttpError(400, { message: { path: ['has already been taken'] } });
    const g: Group = {
      id: nextId(ctx.state, 'group'),
      name,
      path,
      parentId,
      description: str(ctx, 'description') ?? '',
      visibility: str(ctx, 'visibility') ?? 'private',
      members: [{ userId: ctx.user!.id, accessLevel: ACCESS.owner }],
      createdAt: new Date().toISOString(),
      wiki: [],
    };
    ctx.state.groups.push(g);
    return json(201, groupJson(ctx, g));
  });
  r.add('PUT', '/groups/:id', (ctx) => {
    const g = group(ctx);
    requireGroupAccess(ctx, g, ACCESS.owner);
    const name = str(ctx, 'name');
    if (name !== undefined) g.name = name;
    const path = str(ctx, 'path');
    if (path !== undefined) g.path = path;
    const description = str(ctx, 'description');
    if (description !== undefined) g.description = description;
    const visibility = str(ctx, 'visibility');
    if (visibility !== undefined) g.visibility = visibility;
    return json(200, groupJson(ctx, g));
  });
  r.add('DELETE', '/groups/:id', (ctx) => {
    const g = group(ctx);
    requireGroupAccess(ctx, g, ACCESS.owner);
    const doomed = new Set([g.id, ...descendants(ctx, g).map((x) => x.id)]);
    ctx.state.groups = ctx.state.groups.filter((x) => !doomed.has(x.id));
    ctx.state.projects = ctx.state.projects.filter(
      (p) => !(p.namespaceKind === 'group' && doomed.has(p.namespaceId)),
    );
    return json(202, { message: '202 Accepted' });
  });
  r.add('GET', '/groups/:id/projects', (ctx) => {
    const g = group(ctx);
    const ids = new Set([
      g.id,
      ...(bool(ctx, 'include_subgroups') ? descendants(ctx, g).map((x) => x.id) : []),
    ]);
    return paginate(
      pageReq(ctx),
      filterProjects(
        ctx,
        ctx.state.projects.filter((p) => p.namespaceKind === 'group' && ids.has(p.namespaceId)),
      ).map((p) => listedProjectJson(ctx, p)),
    );
  });
  r.add('GET', '/groups/:id/subgroups', (ctx) => {
    const g = group(ctx);
    return paginate(
      pageReq(ctx),
      ctx.state.groups.filter((x) => x.parentId === g.id).map((x) => groupJson(ctx, x)),
    );
  });
  r.add('GET', '/groups/:id/descendant_groups', (ctx) =>
    paginate(
      pageReq(ctx),
      descendants(ctx, group(ctx)).map((x) => groupJson(ctx, x)),
    ),
  );
  registerMembers(
    r,
    '/groups/:id',
    (ctx) => group(ctx).members,
    (ctx) => {
      const out: Member[] = [];
      for (
        let cur: Group | undefined = group(ctx);
        cur;
        cur = ctx.state.groups.find((x) => x.id === cur!.parentId)
      ) {
        for (const m of cur.members) if (!out.some((o) => o.userId === m.userId)) out.push(m);
      }
      return out;
    },
  );
}
