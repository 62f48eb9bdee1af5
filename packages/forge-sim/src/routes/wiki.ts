/** Project wikis: list (with or without content, one unpaginated answer), get, create, update, delete. */
import { bool, project, required, requireProjectAccess, str } from '../context.js';
import type { Ctx } from '../context.js';
import { HttpError, json, noContent } from '../http.js';
import type { Project, WikiPage } from '../state.js';
import { ACCESS } from '../state.js';
import type { RouteTable } from './table.js';

const FORMATS: readonly WikiPage['format'][] = ['markdown', 'rdoc', 'asciidoc', 'org'];

/** The page's answer as the instance gives it: content only where asked for (always for one page). */
function pageJson(w: WikiPage, withContent: boolean): Record<string, unknown> {
  return {
    ...(withContent ? { content: w.content } : {}),
    format: w.format,
    slug: w.slug,
    title: w.title,
    encoding: 'UTF-8',
  };
}

/** The instance's slug of a title: spaces become hyphens, the rest is kept. */
const slugOf = (title: string): string => title.trim().replace(/\s+/g, '-');

function findPage(ctx: Ctx, p: Project): WikiPage {
  const w = p.wiki.find((x) => x.slug === ctx.params.slug);
  if (!w) throw new HttpError(404, { message: '404 Wiki Page Not Found' });
  return w;
}

function format(ctx: Ctx): WikiPage['format'] | undefined {
  const f = str(ctx, 'format');
  if (f === undefined) return undefined;
  if (!(FORMATS as readonly string[]).includes(f))
    throw new HttpError(400, { error: 'format does not have a valid value' });
  return f as WikiPage['format'];
}

/** Another page already holding the slug a title gives. */
function refuseDuplicate(p: Project, slug: string, self?: WikiPage): void {
  if (p.wiki.some((x) => x !== self && x.slug === slug))
    throw new HttpError(400, {
      message: 'Duplicate page: A page with that title already exists',
    });
}

const sortByTitle = (p: Project) => p.wiki.sort((a, b) => a.title.localeCompare(b.title));

export function registerWiki(r: RouteTable): void {
  r.add('GET', '/projects/:id/wikis', (ctx) => {
    const p = project(ctx);
    const withContent = bool(ctx, 'with_content') === true;
    return json(
      200,
      p.wiki.map((w) => pageJson(w, withContent)),
    );
  });
  r.add('GET', '/projects/:id/wikis/:slug', (ctx) => json(200, pageJson(findPage(ctx, project(ctx)), true)));
  r.add('POST', '/projects/:id/wikis', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const title = required(ctx, 'title');
    const content = required(ctx, 'content');
    const slug = slugOf(title);
    refuseDuplicate(p, slug);
    const w: WikiPage = { slug, title, format: format(ctx) ?? 'markdown', content };
    p.wiki.push(w);
    sortByTitle(p);
    return json(201, pageJson(w, true));
  });
  r.add('PUT', '/projects/:id/wikis/:slug', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const w = findPage(ctx, p);
    const title = str(ctx, 'title');
    const content = str(ctx, 'content');
    const f = format(ctx);
    if (title === undefined && content === undefined && f === undefined)
      throw new HttpError(400, {
        error: 'content, title, format are missing, at least one parameter must be provided',
      });
    if (title !== undefined) {
      if (title.trim() === '') throw new HttpError(400, { error: 'title is empty' });
      refuseDuplicate(p, slugOf(title), w);
      w.title = title;
      w.slug = slugOf(title);
    }
    if (content !== undefined) w.content = content;
    if (f !== undefined) w.format = f;
    sortByTitle(p);
    return json(200, pageJson(w, true));
  });
  r.add('DELETE', '/projects/:id/wikis/:slug', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.maintainer);
    const w = findPage(ctx, p);
    p.wiki.splice(p.wiki.indexOf(w), 1);
    return noContent();
  });
}
