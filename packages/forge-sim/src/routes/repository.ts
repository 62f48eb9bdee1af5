/** Repository: branches, protected branches, tags, files, tree, commits, compare. */
import { bool, list, pageReq, project, required, requireProjectAccess, searchRefs, str } from '../context.js';
import type { Ctx } from '../context.js';
import { treeDiff } from '../diff.js';
import { HttpError, json, noContent, notFound, paginate } from '../http.js';
import { branchJson, commitJson, tagJson } from '../serialize.js';
import type { Commit, Project } from '../state.js';
import { ACCESS, makeCommit, sha } from '../state.js';
import { commitsBetween } from './merge-requests.js';
import type { RouteTable } from './table.js';

/** A branch, a tag, or a (possibly abbreviated) commit id. */
export function resolveRef(p: Project, ref: string | undefined): Commit | undefined {
  const r = ref ?? p.defaultBranch;
  const b = p.branches.get(r) ?? p.branches.get(r.replace(/^refs\/heads\//, ''));
  if (b) return p.commits.get(b.commit);
  const t = p.tags.get(r) ?? p.tags.get(r.replace(/^refs\/tags\//, ''));
  if (t) return p.commits.get(t.commit);
  if (/^[0-9a-f]{7,40}$/.test(r)) return [...p.commits.values()].find((c) => c.id.startsWith(r));
  return undefined;
}

function history(p: Project, head: Commit | undefined): Commit[] {
  const out: Commit[] = [];
  const seen = new Set<string>();
  const queue = head ? [head] : [];
  while (queue.length) {
    const c = queue.shift()!;
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    out.push(c);
    for (const pid of c.parentIds) {
      const parent = p.commits.get(pid);
      if (parent) queue.push(parent);
    }
  }
  return out.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}

/** Whether `c` changed the file at `path`, or any file under it when it names a folder (as git log -- path). */
function touches(p: Project, c: Commit, path: string): boolean {
  const parent = p.commits.get(c.parentIds[0] ?? '')?.tree ?? new Map<string, string>();
  const folder = `${path.replace(/\/+$/, '')}/`;
  const inside = (k: string) => k === path || k.startsWith(folder);
  return [...new Set([...c.tree.keys(), ...parent.keys()])].some(
    (k) => inside(k) && c.tree.get(k) !== parent.get(k),
  );
}

/**
 * The repository's contributors at a ref (the default branch unless `ref` names another): one row per author email,
 * with commits and the lines their commits added and removed. `order_by` name, email or commits (the count; the
 * default), `sort` asc (the default) or desc, as the instance takes them.
 */
function contributors(ctx: Ctx, p: Project): Record<string, unknown>[] {
  const ref = str(ctx, 'ref');
  const head = resolveRef(p, ref);
  if (ref && !head) throw notFound('Ref');
  const orderBy = str(ctx, 'order_by') ?? 'commits';
  if (!['name', 'email', 'commits'].includes(orderBy))
    throw new HttpError(400, { error: 'order_by does not have a valid value' });
  const sort = str(ctx, 'sort') ?? 'asc';
  if (!['asc', 'desc'].includes(sort))
    throw new HttpError(400, { error: 'sort does not have a valid value' });
  const by = new Map<
    string,
    { name: string; email: string; commits: number; additions: number; deletions: number }
  >();
  for (const c of history(p, head)) {
    const row = by.get(c.authorEmail) ?? {
      name: c.authorName,
      email: c.authorEmail,
      commits: 0,
      additions: 0,
      deletions: 0,
    };
    row.commits++;
    const parent = p.commits.get(c.parentIds[0] ?? '')?.tree ?? new Map<string, string>();
    for (const f of treeDiff(parent, c.tree))
      for (const line of f.diff.split('\n')) {
        if (line.startsWith('+') && !line.startsWith('+++')) row.additions++;
        else if (line.startsWith('-') && !line.startsWith('---')) row.deletions++;
      }
    by.set(c.authorEmail, row);
  }
  const key = (r: { name: string; email: string; commits: number }) =>
    orderBy === 'commits' ? r.commits : orderBy === 'name' ? r.name : r.email;
  const rows = [...by.values()].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    const c = x < y ? -1 : x > y ? 1 : 0;
    return sort === 'asc' ? c : -c;
  });
  return rows;
}

function fileJson(p: Project, c: Commit, path: string, ref: string): Record<string, unknown> {
  const content = c.tree.get(path)!;
  const lastCommit = history(p, c).find((x) => {
    const parent = p.commits.get(x.parentIds[0] ?? '');
    return x.tree.get(path) !== parent?.tree.get(path);
  });
  return {
    file_name: path.split('/').pop(),
    file_path: path,
    size: Buffer.byteLength(content),
    encoding: 'base64',
    content_sha256: sha(content).padEnd(64, '0'),
    ref,
    blob_id: sha('blob', content),
    commit_id: c.id,
    last_commit_id: lastCommit?.id ?? c.id,
    execute_filemode: false,
    content: Buffer.from(content).toString('base64'),
  };
}

function commitOnBranch(
  ctx: Ctx,
  p: Project,
  changes: Record<string, string | null>,
  defaultMessage: string,
): Commit {
  const branch = required(ctx, 'branch');
  const message = str(ctx, 'commit_message') ?? defaultMessage;
  let b = p.branches.get(branch);
  if (!b) {
    const start = str(ctx, 'start_branch') ?? str(ctx, 'start_sha');
    const from = start ? resolveRef(p, start) : undefined;
    if (!from)
      throw new HttpError(400, { message: 'You can only create or edit files when you are on a branch' });
    b = { name: branch, commit: from.id, protected: false };
    p.branches.set(branch, b);
  }
  const author = ctx.user!;
  const c = makeCommit(p.commits.get(b.commit), message, changes, new Date().toISOString(), {
    ...author,
    name: str(ctx, 'author_name') ?? author.name,
    email: str(ctx, 'author_email') ?? author.email,
  });
  p.commits.set(c.id, c);
  b.commit = c.id;
  p.lastActivityAt = c.createdAt;
  return c;
}

/**
 * What reverting `c` on a branch whose head is `head` changes: each file `c` changed goes back to its parent's
 * content. A file changed since (neither `c`'s content nor its parent's) is a conflict; nothing left to undo (every
 * file already back) is an empty revert: both answered 400 as the instance answers them.
 */
function revertChanges(p: Project, c: Commit, head: Commit): Record<string, string | null> {
  const before = p.commits.get(c.parentIds[0] ?? '')?.tree ?? new Map<string, string>();
  const changes: Record<string, string | null> = {};
  let conflict = false;
  for (const path of new Set([...before.keys(), ...c.tree.keys()])) {
    const was = before.get(path);
    const became = c.tree.get(path);
    if (was === became) continue;
    const now = head.tree.get(path);
    if (now === became) changes[path] = was ?? null;
    else if (now !== was) conflict = true;
  }
  if (conflict || Object.keys(changes).length === 0)
    throw new HttpError(400, {
      message:
        'Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.',
      error_code: conflict ? 'conflict' : 'empty',
    });
  return changes;
}

function decodeContent(ctx: Ctx): string {
  const content = str(ctx, 'content');
  if (content === undefined) throw new HttpError(400, { error: 'content is missing' });
  return str(ctx, 'encoding') === 'base64' ? Buffer.from(content, 'base64').toString('utf8') : content;
}

export function registerRepository(r: RouteTable): void {
  // --- branches ---
  r.add('GET', '/projects/:id/repository/branches', (ctx) => {
    const p = project(ctx);
    const list_ = searchRefs(
      [...p.branches.values()].sort((a, b) => a.name.localeCompare(b.name)),
      str(ctx, 'search'),
    );
    return paginate(
      pageReq(ctx),
      list_.map((b) => branchJson(ctx, p, b)),
    );
  });
  r.add('GET', '/projects/:id/repository/branches/:branch', (ctx) => {
    const p = project(ctx);
    const b = p.branches.get(ctx.params.branch);
    if (!b) throw notFound('Branch');
    return json(200, branchJson(ctx, p, b));
  });
  r.add('POST', '/projects/:id/repository/branches', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const name = required(ctx, 'branch');
    const ref = required(ctx, 'ref');
    if (p.branches.has(name)) throw new HttpError(400, { message: 'Branch already exists' });
    if (!/^[^\s~^:?*[\\]+$/.test(name) || name.endsWith('/') || name.includes('..'))
      throw new HttpError(400, { message: 'Branch name is invalid' });
    const c = resolveRef(p, ref);
    if (!c) throw new HttpError(400, { message: 'Invalid reference name: ' + ref });
    const b = { name, commit: c.id, protected: false };
    p.branches.set(name, b);
    return json(201, branchJson(ctx, p, b));
  });
  r.add('DELETE', '/projects/:id/repository/branches/:branch', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const b = p.branches.get(ctx.params.branch);
    if (!b) throw notFound('Branch');
    if (b.name === p.defaultBranch) throw new HttpError(400, { message: 'Cannot remove default branch' });
    if (b.protected) throw new HttpError(403, { message: '403 Forbidden' });
    p.branches.delete(b.name);
    return noContent();
  });
  const protectedJson = (p: Project, name: string) => ({
    id: [...p.branches.keys()].indexOf(name) + 1,
    name,
    push_access_levels: [
      {
        id: 1,
        access_level: 40,
        access_level_description: 'Maintainers',
        deploy_key_id: null,
        user_id: null,
        group_id: null,
      },
    ],
    merge_access_levels: [
      { id: 1, access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null },
    ],
    unprotect_access_levels: [],
    allow_force_push: false,
    code_owner_approval_required: false,
  });
  r.add('GET', '/projects/:id/protected_branches', (ctx) => {
    const p = project(ctx);
    return paginate(
      pageReq(ctx),
      [...p.branches.values()].filter((b) => b.protected).map((b) => protectedJson(p, b.name)),
    );
  });
  r.add('GET', '/projects/:id/protected_branches/:name', (ctx) => {
    const p = project(ctx);
    const b = p.branches.get(ctx.params.name);
    if (!b?.protected) throw notFound('Protected Branch');
    return json(200, protectedJson(p, b.name));
  });
  r.add('POST', '/projects/:id/protected_branches', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.maintainer);
    const name = required(ctx, 'name');
    const b = p.branches.get(name);
    if (b?.protected) throw new HttpError(409, { message: "Protected branch '" + name + "' already exists" });
    if (b) b.protected = true;
    return json(201, protectedJson(p, name));
  });
  r.add('DELETE', '/projects/:id/protected_branches/:name', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.maintainer);
    const b = p.branches.get(ctx.params.name);
    if (!b?.protected) throw notFound('Protected Branch');
    b.protected = false;
    return noContent();
  });
  for (const [action, value] of [
    ['protect', true],
    ['unprotect', false],
  ] as const) {
    r.add('PUT', `/projects/:id/repository/branches/:branch/${action}`, (ctx) => {
      const p = project(ctx);
      const b = p.branches.get(ctx.params.branch);
      if (!b) throw notFound('Branch');
      b.protected = value;
      return json(200, branchJson(ctx, p, b));
    });
  }

  // --- tags ---
  r.add('GET', '/projects/:id/repository/tags', (ctx) => {
    const p = project(ctx);
    return paginate(
      pageReq(ctx),
      searchRefs([...p.tags.values()], str(ctx, 'search')).map((t) => tagJson(ctx, p, t)),
    );
  });
  r.add('GET', '/projects/:id/repository/tags/:tag_name', (ctx) => {
    const p = project(ctx);
    const t = p.tags.get(ctx.params.tag_name);
    if (!t) throw notFound('Tag');
    return json(200, tagJson(ctx, p, t));
  });
  r.add('POST', '/projects/:id/repository/tags', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const name = required(ctx, 'tag_name');
    const ref = required(ctx, 'ref');
    if (p.tags.has(name)) throw new HttpError(400, { message: `Tag ${name} already exists` });
    const c = resolveRef(p, ref);
    if (!c) throw new HttpError(400, { message: 'Target ' + ref + ' is invalid' });
    const t = { name, commit: c.id, message: str(ctx, 'message') ?? '', createdAt: new Date().toISOString() };
    p.tags.set(name, t);
    return json(201, tagJson(ctx, p, t));
  });
  r.add('DELETE', '/projects/:id/repository/tags/:tag_name', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.maintainer);
    if (!p.tags.delete(ctx.params.tag_name)) throw notFound('Tag');
    return noContent();
  });

  // --- files ---
  const fileAt = (ctx: Ctx) => {
    const p = project(ctx);
    const ref = required(ctx, 'ref');
    const c = resolveRef(p, ref);
    if (!c || !c.tree.has(ctx.params.file_path)) throw notFound('File');
    return { p, c, ref, path: ctx.params.file_path };
  };
  r.add('GET', '/projects/:id/repository/files/:file_path', (ctx) => {
    const { p, c, ref, path } = fileAt(ctx);
    return json(200, fileJson(p, c, path, ref));
  });
  r.add('HEAD', '/projects/:id/repository/files/:file_path', (ctx) => {
    const { p, c, ref, path } = fileAt(ctx);
    const f = fileJson(p, c, path, ref);
    return {
      status: 200,
      headers: {
        'x-gitlab-blob-id': String(f.blob_id),
        'x-gitlab-commit-id': c.id,
        'x-gitlab-content-sha256': String(f.content_sha256),
        'x-gitlab-encoding': 'base64',
        'x-gitlab-file-name': String(f.file_name),
        'x-gitlab-file-path': path,
        'x-gitlab-last-commit-id': String(f.last_commit_id),
        'x-gitlab-ref': ref,
        'x-gitlab-size': String(f.size),
        'x-gitlab-execute-filemode': 'false',
      },
    };
  });
  r.add('GET', '/projects/:id/repository/files/:file_path/raw', (ctx) => {
    const p = project(ctx);
    const c = resolveRef(p, str(ctx, 'ref'));
    const content = c?.tree.get(ctx.params.file_path);
    if (content === undefined) throw notFound('File');
    return { status: 200, raw: content, contentType: 'text/plain; charset=utf-8' };
  });
  r.add('POST', '/projects/:id/repository/files/:file_path', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const path = ctx.params.file_path;
    const content = decodeContent(ctx);
    required(ctx, 'commit_message');
    const b = p.branches.get(required(ctx, 'branch'));
    if (b && p.commits.get(b.commit)?.tree.has(path))
      throw new HttpError(400, { message: 'A file with this name already exists' });
    commitOnBranch(ctx, p, { [path]: content }, `Add ${path}`);
    return json(201, { file_path: path, branch: str(ctx, 'branch') });
  });
  r.add('PUT', '/projects/:id/repository/files/:file_path', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const path = ctx.params.file_path;
    const content = decodeContent(ctx);
    required(ctx, 'commit_message');
    const b = p.branches.get(required(ctx, 'branch'));
    const tree = b ? p.commits.get(b.commit)?.tree : resolveRef(p, str(ctx, 'start_branch'))?.tree;
    if (!tree?.has(path)) throw new HttpError(400, { message: "A file with this name doesn't exist" });
    const lastCommit = str(ctx, 'last_commit_id');
    if (lastCommit && b && lastCommit !== b.commit)
      throw new HttpError(400, {
        message: 'You are attempting to update a file that has changed since you started editing it.',
      });
    commitOnBranch(ctx, p, { [path]: content }, `Update ${path}`);
    return json(200, { file_path: path, branch: str(ctx, 'branch') });
  });
  r.add('DELETE', '/projects/:id/repository/files/:file_path', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const path = ctx.params.file_path;
    required(ctx, 'commit_message');
    const b = p.branches.get(required(ctx, 'branch'));
    if (!b || !p.commits.get(b.commit)?.tree.has(path))
      throw new HttpError(400, { message: "A file with this name doesn't exist" });
    commitOnBranch(ctx, p, { [path]: null }, `Delete ${path}`);
    return noContent();
  });

  // --- tree ---
  r.add('GET', '/projects/:id/repository/tree', (ctx) => {
    const p = project(ctx);
    const c = resolveRef(p, str(ctx, 'ref'));
    if (!c) throw notFound('Tree');
    const base = (str(ctx, 'path') ?? '').replace(/^\/|\/$/g, '');
    const recursive = bool(ctx, 'recursive') ?? false;
    const prefix = base ? `${base}/` : '';
    const entries = new Map<string, { type: 'tree' | 'blob'; path: string }>();
    for (const path of c.tree.keys()) {
      if (!path.startsWith(prefix)) continue;
      const rest = path.slice(prefix.length).split('/');
      if (recursive) {
        for (let i = 1; i < rest.length; i++)
          entries.set(prefix + rest.slice(0, i).join('/'), {
            type: 'tree',
            path: prefix + rest.slice(0, i).join('/'),
          });
        entries.set(path, { type: 'blob', path });
      } else if (rest.length === 1) entries.set(path, { type: 'blob', path });
      else entries.set(prefix + rest[0], { type: 'tree', path: prefix + rest[0] });
    }
    if (base && entries.size === 0) throw notFound('Tree');
    const items = [...entries.values()]
      .sort((a, b) => (a.type === b.type ? a.path.localeCompare(b.path) : a.type === 'tree' ? -1 : 1))
      .map((e) => ({
        id: sha(e.type, e.path, c.id),
        name: e.path.split('/').pop(),
        type: e.type,
        path: e.path,
        mode: e.type === 'tree' ? '040000' : '100644',
      }));
    // The instance's tree pages by keyset with the last entry's ID as page_token.
    return paginate(
      { ...pageReq(ctx), keyset: { param: 'page_token', value: (e: { id: string }) => e.id } },
      items,
    );
  });

  // --- commits ---
  r.add('GET', '/projects/:id/repository/commits', (ctx) => {
    const p = project(ctx);
    const ref = str(ctx, 'ref_name');
    const all = bool(ctx, 'all');
    const head = resolveRef(p, ref);
    if (ref && !head) throw notFound('Commit');
    let commits = all
      ? [...p.commits.values()].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))
      : history(p, head);
    const path = str(ctx, 'path');
    if (path) commits = commits.filter((c) => touches(p, c, path));
    const since = str(ctx, 'since');
    if (since) commits = commits.filter((c) => c.createdAt >= since);
    const until = str(ctx, 'until');
    if (until) commits = commits.filter((c) => c.createdAt <= until);
    const author = str(ctx, 'author');
    if (author)
      commits = commits.filter((c) => c.authorName.includes(author) || c.authorEmail.includes(author));
    return paginate(
      pageReq(ctx),
      commits.map((c) => commitJson(ctx, p, c)),
    );
  });
  r.add('GET', '/projects/:id/repository/contributors', (ctx) =>
    paginate(pageReq(ctx), contributors(ctx, project(ctx))),
  );
  r.add('GET', '/projects/:id/repository/commits/:sha', (ctx) => {
    const p = project(ctx);
    const c = resolveRef(p, ctx.params.sha);
    if (!c) throw notFound('Commit');
    return json(200, commitJson(ctx, p, c, true));
  });
  r.add('GET', '/projects/:id/repository/commits/:sha/diff', (ctx) => {
    const p = project(ctx);
    const c = resolveRef(p, ctx.params.sha);
    if (!c) throw notFound('Commit');
    const parent = p.commits.get(c.parentIds[0] ?? '')?.tree ?? new Map<string, string>();
    return paginate(pageReq(ctx), treeDiff(parent, c.tree));
  });
  r.add('GET', '/projects/:id/repository/commits/:sha/refs', (ctx) => {
    const p = project(ctx);
    const c = resolveRef(p, ctx.params.sha);
    if (!c) throw notFound('Commit');
    const type = str(ctx, 'type') ?? 'all';
    const refs: { type: string; name: string }[] = [];
    if (type !== 'tag')
      for (const b of p.branches.values())
        if (history(p, p.commits.get(b.commit)).some((x) => x.id === c.id))
          refs.push({ type: 'branch', name: b.name });
    if (type !== 'branch')
      for (const t of p.tags.values())
        if (history(p, p.commits.get(t.commit)).some((x) => x.id === c.id))
          refs.push({ type: 'tag', name: t.name });
    return paginate(pageReq(ctx), refs);
  });
  r.add('POST', '/projects/:id/repository/commits', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    required(ctx, 'commit_message');
    const actions = ctx.input.actions;
    if (!Array.isArray(actions) || actions.length === 0)
      throw new HttpError(400, { error: 'actions is missing' });
    const b = p.branches.get(required(ctx, 'branch'));
    const tree = b
      ? p.commits.get(b.commit)?.tree
      : resolveRef(p, str(ctx, 'start_branch') ?? str(ctx, 'start_sha'))?.tree;
    const changes: Record<string, string | null> = {};
    for (const raw of actions as Record<string, unknown>[]) {
      const action = String(raw.action ?? '');
      const path = String(raw.file_path ?? '');
      const content =
        raw.encoding === 'base64'
          ? Buffer.from(String(raw.content ?? ''), 'base64').toString('utf8')
          : String(raw.content ?? '');
      const exists = tree?.has(path) ?? false;
      if (action === 'create') {
        if (exists) throw new HttpError(400, { message: `A file with this name already exists` });
        changes[path] = content;
      } else if (action === 'update') {
        if (!exists) throw new HttpError(400, { message: `A file with this name doesn't exist` });
        changes[path] = content;
      } else if (action === 'delete') {
        if (!exists) throw new HttpError(400, { message: `A file with this name doesn't exist` });
        changes[path] = null;
      } else if (action === 'move') {
        const prev = String(raw.previous_path ?? '');
        changes[prev] = null;
        changes[path] = raw.content === undefined ? (tree?.get(prev) ?? '') : content;
      } else if (action === 'chmod') {
        // Modes are not modelled.
      } else throw new HttpError(400, { error: 'actions[0][action] does not have a valid value' });
    }
    const c = commitOnBranch(ctx, p, changes, 'Commit');
    return json(201, {
      ...commitJson(ctx, p, c, true),
      stats: { additions: Object.keys(changes).length, deletions: 0, total: Object.keys(changes).length },
    });
  });
  r.add('POST', '/projects/:id/repository/commits/:sha/revert', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const c = resolveRef(p, ctx.params.sha);
    if (!c) throw notFound('Commit');
    const b = p.branches.get(required(ctx, 'branch'));
    if (!b) throw notFound('Branch');
    const changes = revertChanges(p, c, p.commits.get(b.commit)!);
    if (bool(ctx, 'dry_run') === true) return json(200, { dry_run: 'success' });
    const reverted = makeCommit(
      p.commits.get(b.commit),
      `Revert "${c.title}"\n\nThis reverts commit ${c.id}`,
      changes,
      new Date().toISOString(),
      ctx.user!,
    );
    p.commits.set(reverted.id, reverted);
    b.commit = reverted.id;
    p.lastActivityAt = reverted.createdAt;
    return json(201, commitJson(ctx, p, reverted));
  });
  r.add('GET', '/projects/:id/repository/compare', (ctx) => {
    const p = project(ctx);
    const fromRef = required(ctx, 'from');
    const toRef = required(ctx, 'to');
    const from = resolveRef(p, fromRef);
    const to = resolveRef(p, toRef);
    if (!from || !to) throw notFound('Ref');
    const commits = commitsBetween(p, from.id, to.id).reverse();
    const diffs = treeDiff(from.tree, to.tree);
    return json(200, {
      commit: commits.length ? commitJson(ctx, p, commits[commits.length - 1]) : null,
      commits: commits.map((c) => commitJson(ctx, p, c)),
      diffs,
      compare_timeout: false,
      compare_same_ref: from.id === to.id,
      web_url: `${ctx.rt.baseUrl}/-/compare/${from.id}...${to.id}`,
    });
  });
  r.add('GET', '/projects/:id/repository/merge_base', (ctx) => {
    const p = project(ctx);
    const refs = list(ctx, 'refs') ?? [];
    if (refs.length < 2) throw new HttpError(400, { message: 'Provide at least 2 refs' });
    const heads = refs.map((x) => resolveRef(p, x));
    if (heads.some((h) => !h)) throw notFound('Commit');
    const sets = heads.map((h) => new Set(history(p, h).map((c) => c.id)));
    const base = history(p, heads[0]).find((c) => sets.every((s) => s.has(c.id)));
    if (!base) throw notFound('Merge Base');
    return json(200, commitJson(ctx, p, base));
  });
}
