/**
 * Releases created through the API: create (the tag made from ref when it does not exist yet) and reading the
 * created release back. Other releases, and lists, are answered by the generic routes.
 */
import {
  fieldsOf,
  list,
  project,
  projectFullPath,
  required,
  requireProjectAccess,
  str,
  userById,
} from '../context.js';
import type { Ctx } from '../context.js';
import { genericHandler } from '../generic.js';
import { HttpError, json, paginate } from '../http.js';
import { commitJson, milestoneJson, userBasic } from '../serialize.js';
import type { Project, Release } from '../state.js';
import { ACCESS, nextId } from '../state.js';
import { resolveRef } from './repository.js';
import type { RouteTable } from './table.js';

const ARCHIVE_FORMATS = ['zip', 'tar.gz', 'tar.bz2', 'tar'];

/** A release as the instance answers it: its tag's commit, milestones, asset sources and links, evidence. */
function releaseJson(ctx: Ctx, p: Project, r: Release): Record<string, unknown> {
  const web = `${ctx.rt.baseUrl}/${projectFullPath(ctx.state, p)}`;
  const tag = p.tags.get(r.tagName);
  const commit = tag ? p.commits.get(tag.commit) : undefined;
  const tagPart = encodeURIComponent(r.tagName);
  const issues = `${web}/-/issues?release_tag=${tagPart}&scope=all`;
  const mrs = `${web}/-/merge_requests?release_tag=${tagPart}&scope=all`;
  return {
    name: r.name,
    tag_name: r.tagName,
    description: r.description,
    created_at: r.createdAt,
    released_at: r.releasedAt,
    upcoming_release: r.releasedAt > new Date().toISOString(),
    author: userBasic(ctx, userById(ctx.state, r.authorId)),
    commit: commit ? commitJson(ctx, p, commit) : null,
    milestones: r.milestoneIds.map((id) =>
      milestoneJson(
        ctx,
        p,
        p.milestones.find((m) => m.id === id),
      ),
    ),
    commit_path: commit ? `/${projectFullPath(ctx.state, p)}/-/commit/${commit.id}` : null,
    tag_path: `/${projectFullPath(ctx.state, p)}/-/tags/${tagPart}`,
    assets: {
      count: ARCHIVE_FORMATS.length + r.links.length,
      sources: ARCHIVE_FORMATS.map((format) => ({
        format,
        url: `${web}/-/archive/${tagPart}/${p.path}-${tagPart}.${format}`,
      })),
      links: r.links.map((l) => ({
        id: l.id,
        name: l.name,
        url: l.url,
        direct_asset_url: l.url,
        link_type: l.linkType,
      })),
    },
    evidences: [
      {
        sha: commit?.id ?? '',
        filepath: `${web}/-/releases/${tagPart}/evidences/1.json`,
        collected_at: r.createdAt,
      },
    ],
    _links: {
      closed_issues_url: `${issues}&state=closed`,
      closed_merge_requests_url: `${mrs}&state=closed`,
      edit_url: `${web}/-/releases/${tagPart}/edit`,
      merged_merge_requests_url: `${mrs}&state=merged`,
      opened_issues_url: `${issues}&state=opened`,
      opened_merge_requests_url: `${mrs}&state=opened`,
      self: `${web}/-/releases/${tagPart}`,
    },
  };
}

/** The milestones a release names by title (milestones) or ID (milestone_ids); one the project lacks is a 400. */
function milestoneIdsOf(ctx: Ctx, p: Project): number[] {
  const titles = list(ctx, 'milestones');
  const ids = list(ctx, 'milestone_ids');
  const found = (titles ?? ids ?? []).map((x) => ({
    x,
    m: p.milestones.find((m) => (titles ? m.title === x : String(m.id) === x)),
  }));
  const missing = found.filter((f) => !f.m).map((f) => f.x);
  if (missing.length) throw new HttpError(400, { message: `Milestone(s) not found: ${missing.join(', ')}` });
  return found.map((f) => f.m!.id);
}

export function registerReleases(r: RouteTable): void {
  r.add('POST', '/projects/:id/releases', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const tagName = required(ctx, 'tag_name');
    if (p.releases.some((x) => x.tagName === tagName))
      throw new HttpError(409, { message: 'Release already exists' });
    const milestoneIds = milestoneIdsOf(ctx, p);
    if (!p.tags.has(tagName)) {
      const ref = str(ctx, 'ref');
      if (!ref) throw new HttpError(422, { message: 'Ref is not specified' });
      const c = resolveRef(p, ref);
      if (!c) throw new HttpError(400, { message: `Target ${ref} is invalid` });
      p.tags.set(tagName, {
        name: tagName,
        commit: c.id,
        message: str(ctx, 'tag_message') ?? '',
        createdAt: new Date().toISOString(),
      });
    }
    const links = fieldsOf(ctx.input.assets).links;
    const createdAt = new Date().toISOString();
    const release: Release = {
      tagName,
      name: str(ctx, 'name') ?? tagName,
      description: str(ctx, 'description') ?? '',
      createdAt,
      releasedAt: str(ctx, 'released_at') ?? createdAt,
      authorId: ctx.user!.id,
      milestoneIds,
      links: (Array.isArray(links) ? links : []).map((raw) => {
        const l = fieldsOf(raw);
        return {
          id: nextId(ctx.state, 'generic'),
          name: String(l.name ?? ''),
          url: String(l.url ?? ''),
          linkType: String(l.link_type ?? 'other'),
        };
      }),
    };
    p.releases.push(release);
    return json(201, releaseJson(ctx, p, release));
  });
  // The project's releases, newest release date first unless order_by (released_at, created_at) and sort say otherwise.
  r.add('GET', '/projects/:id/releases', (ctx) => {
    const p = project(ctx);
    const orderBy = str(ctx, 'order_by') ?? 'released_at';
    if (!['released_at', 'created_at'].includes(orderBy))
      throw new HttpError(400, { error: 'order_by does not have a valid value' });
    const sort = str(ctx, 'sort') ?? 'desc';
    if (!['asc', 'desc'].includes(sort))
      throw new HttpError(400, { error: 'sort does not have a valid value' });
    const at = (x: Release) => (orderBy === 'created_at' ? x.createdAt : x.releasedAt);
    const rows = [...p.releases].sort((a, b) => {
      const c = at(a) < at(b) ? -1 : at(a) > at(b) ? 1 : 0;
      return sort === 'asc' ? c : -c;
    });
    return paginate(
      { baseUrl: ctx.rt.baseUrl, path: ctx.fullPath, query: ctx.query },
      rows.map((x) => releaseJson(ctx, p, x)),
    );
  });
  const elsewhere = genericHandler('GET', '/projects/:id/releases/:tag_name');
  r.add('GET', '/projects/:id/releases/:tag_name', (ctx) => {
    const p = project(ctx);
    const found = p.releases.find((x) => x.tagName === ctx.params.tag_name);
    return found ? json(200, releaseJson(ctx, p, found)) : elsewhere(ctx);
  });
}
