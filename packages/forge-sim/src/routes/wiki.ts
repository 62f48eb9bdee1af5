/**
 * Project and group wikis, one behaviour for both: list (with or without content, one unpaginated answer), get
 * (its content as HTML with render_html), create, update, delete.
 */
import { bool, group, project, required, requireGroupAccess, requireProjectAccess, str } from '../context.js';
import type { Ctx } from '../context.js';
import { HttpError, json, noContent } from '../http.js';
import { renderHtml } from '../markdown.js';
import type { WikiPage } from '../state.js';
import { ACCESS } from '../state.js';
import type { RouteTable } from './table.js';

const FORMATS: readonly WikiPage['format'][] = ['markdown', 'rdoc', 'asciidoc', 'org'];

/** The wiki a request reaches (its project's or its group's): its pages, and who may change them. */
interface Wiki {
  pages: WikiPage[];
  /** Answers 403 below the role a change needs there. */
  requireAccess(level: number): void;
}

/**
 * The page's answer as the instance gives it: content only where asked for (always for one page), as HTML when
 * render_html is true.
 */
function pageJson(w: WikiPage, withContent: boolean, asHtml = false): Record<string, unknown> {
  return {
    ...(withContent ? { content: asHtml ? renderHtml(w.content, w.format) : w.content } : {}),
    format: w.format,
    slug: w.slug,
    title: w.title,
    encoding: 'UTF-8',
  };
}

/** The instance's slug of a title: spaces become hyphens, the rest is kept. */
const slugOf = (title: string): string => title.trim().replace(/\s+/g, '-');

function findPage(ctx: Ctx, wiki: Wiki): WikiPage {
  const w = wiki.pages.find((x) => x.slug === ctx.params.slug);
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
function refuseDuplicate(wiki: Wiki, slug: string, self?: WikiPage): void {
  if (wiki.pages.some((x) => x !== self && x.slug === slug))
    throw new HttpError(400, {
      message: 'Duplicate page: A page with that title already exists',
    });
}

const sortByTitle = (wiki: Wiki) => wiki.pages.sort((a, b) => a.title.localeCompare(b.title));

/** The five wiki routes under `base` (`/projects/:id` or `/groups/:id`), on the wiki `wikiOf` finds. */
function registerWikiAt(r: RouteTable, base: string, wikiOf: (ctx: Ctx) => Wiki): void {
  r.add('GET', `${base}/wikis`, (ctx) => {
    const withContent = bool(ctx, 'with_content') === true;
    return json(
      200,
      wikiOf(ctx).pages.map((w) => pageJson(w, withContent)),
    );
  });
  r.add('GET', `${base}/wikis/:slug`, (ctx) =>
    json(200, pageJson(findPage(ctx, wikiOf(ctx)), true, bool(ctx, 'render_html') === true)),
  );
  r.add('POST', `${base}/wikis`, (ctx) => {
    const wiki = wikiOf(ctx);
    wiki.requireAccess(ACCESS.developer);
    const title = required(ctx, 'title');
    const content = required(ctx, 'content');
    const slug = slugOf(title);
    refuseDuplicate(wiki, slug);
    const w: WikiPage = { slug, title, format: format(ctx) ?? 'markdown', content };
    wiki.pages.push(w);
    sortByTitle(wiki);
    return json(201, pageJson(w, true));
  });
  r.add('PUT', `${base}/wikis/:slug`, (ctx) => {
    const wiki = wikiOf(ctx);
    wiki.requireAccess(ACCESS.developer);
    const w = findPage(ctx, wiki);
    const title = str(ctx, 'title');
    const content = str(ctx, 'content');
    const f = format(ctx);
    if (title === undefined && content === undefined && f === undefined)
      throw new HttpError(400, {
        error: 'content, title, format are missing, at least one parameter must be provided',
      });
    if (title !== undefined) {
      if (title.trim() === '') throw new HttpError(400, { error: 'title is empty' });
      refuseDuplicate(wiki, slugOf(title), w);
      w.title = title;
      w.slug = slugOf(title);
    }
    if (content !== undefined) w.content = content;
    if (f !== undefined) w.format = f;
    sortByTitle(wiki);
    return json(200, pageJson(w, true));
  });
  r.add('DELETE', `${base}/wikis/:slug`, (ctx) => {
    const wiki = wikiOf(ctx);
    wiki.requireAccess(ACCESS.maintainer);
    const w = findPage(ctx, wiki);
    wiki.pages.splice(wiki.pages.indexOf(w), 1);
    return noContent();
  });
}

export function registerWiki(r: RouteTable): void {
  registerWikiAt(r, '/projects/:id', (ctx) => {
    const p = project(ctx);
    return { pages: p.wiki, requireAccess: (level) => requireProjectAccess(ctx, p, level) };
  });
  registerWikiAt(r, '/groups/:id', (ctx) => {
    const g = group(ctx);
    return { pages: g.wiki, requireAccess: (level) => requireGroupAccess(ctx, g, level) };
  });
}
