/** Response helpers shared by every handler. */

export interface Reply {
  status: number;
  /** JSON-serialised unless `raw` is set. */
  body?: unknown;
  raw?: string | Uint8Array;
  contentType?: string;
  headers?: Record<string, string>;
}

/** Thrown by handlers to answer with an error status; caught by the server. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'object' ? JSON.stringify(body) : String(body));
  }
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
  status,
  body,
  headers,
});

export const noContent = (): Reply => ({ status: 204 });

export const notFound = (what: string): HttpError => new HttpError(404, { message: `404 ${what} Not Found` });

export const badRequest = (message: unknown): HttpError => new HttpError(400, { message });

export const missing = (param: string): HttpError => new HttpError(400, { error: `${param} is missing` });

export const forbidden = (): HttpError => new HttpError(403, { message: '403 Forbidden' });

export interface PageRequest {
  baseUrl: string;
  path: string;
  query: Record<string, string | string[]>;
  /**
   * How the list pages with pagination=keyset: the parameter its next link continues with and each item's
   * value of it (default: an opaque cursor naming the item's place).
   */
  keyset?: { param: string; value: (item: never) => string };
}

const cursorOf = (index: number): string => Buffer.from(JSON.stringify({ id: index })).toString('base64url');

/**
 * Keyset paging the instance way: the page after the item the continuation names, and a Link header with only
 * a next link (carrying the request's parameters and the last item's continuation), absent on the last page.
 */
function keysetPage<T>(req: PageRequest, items: readonly T[], perPage: number): Reply {
  const param = req.keyset?.param ?? 'cursor';
  const valueOf = (item: T, index: number): string =>
    req.keyset ? (req.keyset.value as (i: T) => string)(item) : cursorOf(index);
  const given = req.query[param];
  const after = Array.isArray(given) ? given[0] : given;
  const start = after === undefined ? 0 : items.findIndex((item, i) => valueOf(item, i) === after) + 1;
  if (after !== undefined && start === 0) throw new HttpError(400, { message: `${param} is invalid` });
  const slice = items.slice(start, start + perPage);
  const headers: Record<string, string> = {};
  if (start + perPage < items.length) {
    const u = new URL(req.path, req.baseUrl);
    for (const [k, v] of Object.entries(req.query)) {
      if (k === param || k === 'page') continue;
      for (const one of Array.isArray(v) ? v : [v]) u.searchParams.append(k, one);
    }
    u.searchParams.set(param, valueOf(items[start + perPage - 1], start + perPage - 1));
    headers.link = `<${u.toString()}>; rel="next"`;
  }
  return { status: 200, body: slice, headers };
}

/** Slices a list the instance way and sets X-Total, X-Total-Pages, X-Page, X-Per-Page, X-Next-Page, X-Prev-Page and Link. */
export function paginate<T>(req: PageRequest, items: readonly T[]): Reply {
  const num = (v: unknown, dflt: number): number => {
    const n = Number.parseInt(String(Array.isArray(v) ? v[0] : (v ?? '')), 10);
    return Number.isFinite(n) && n > 0 ? n : dflt;
  };
  const perPage = Math.min(num(req.query.per_page, 20), 100);
  if (req.query.pagination === 'keyset') return keysetPage(req, items, perPage);
  const total = items.length;
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const page = num(req.query.page, 1);
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const link = (p: number): string => {
    const u = new URL(req.path, req.baseUrl);
    for (const [k, v] of Object.entries(req.query)) {
      if (k === 'page' || k === 'per_page') continue;
      for (const one of Array.isArray(v) ? v : [v]) u.searchParams.append(k, one);
    }
    u.searchParams.set('page', String(p));
    u.searchParams.set('per_page', String(perPage));
    return u.toString();
  };
  const links: string[] = [];
  if (page > 1) links.push(`<${link(Math.min(page - 1, totalPages))}>; rel="prev"`);
  if (page < totalPages) links.push(`<${link(page + 1)}>; rel="next"`);
  links.push(`<${link(1)}>; rel="first"`);
  links.push(`<${link(totalPages)}>; rel="last"`);
  return {
    status: 200,
    body: slice,
    headers: {
      'x-total': String(total),
      'x-total-pages': String(totalPages),
      'x-page': String(page),
      'x-per-page': String(perPage),
      'x-next-page': page < totalPages ? String(page + 1) : '',
      'x-prev-page': page > 1 ? String(Math.min(page - 1, totalPages)) : '',
      link: links.join(', '),
    },
  };
}
