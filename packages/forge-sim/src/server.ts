/** The request pipeline: record, faults, latency, routing, authentication, answer. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { createHash, randomUUID } from 'node:crypto';
import { authorize, isAdminRoute, presentedToken, resolveToken } from './auth.js';
import type { RouteAuth } from './auth.js';
import type { Ctx, Handler, Runtime } from './context.js';
import { fieldsOf } from './context.js';
import { genericHandler } from './generic.js';
import { answer, parseOperation } from './graphql.js';
import type { ParsedOperation } from './graphql.js';
import { HttpError } from './http.js';
import type { Reply } from './http.js';
import { inventoryRoutes } from './inventory-routes.js';
import { Router } from './router.js';
import { registerIdentity } from './routes/identity.js';
import { registerIssues } from './routes/issues.js';
import { registerMergeRequests } from './routes/merge-requests.js';
import { registerGroups, registerProjects } from './routes/projects.js';
import { registerRepository } from './routes/repository.js';
import { registerPipelines } from './routes/pipelines.js';
import { registerOAuth } from './routes/oauth.js';
import { registerLabels } from './routes/labels.js';
import { registerPackages } from './routes/packages.js';
import { registerVariables } from './routes/variables.js';
import { registerReleases } from './routes/releases.js';
import { registerWiki } from './routes/wiki.js';
import { registerEvents } from './routes/events.js';
import { registerWorkflow } from './routes/workflow.js';
import type { State, TokenRecord, User } from './state.js';
import type { FaultRule, RecordedRequest } from './types.js';

export interface RouteEntry {
  handler: Handler;
  auth: RouteAuth;
}

export const API_PREFIX = '/api/v4';

/** Core handlers first (they win ties), then a plausible answer for every other inventory route. */
export function buildRouter(): Router<RouteEntry> {
  const router = new Router<RouteEntry>();
  const inventory = new Map(inventoryRoutes.map((r) => [`${r.method} ${r.route}`, r]));
  const authFor = (method: string, pattern: string, override?: Partial<RouteAuth>): RouteAuth => {
    const inv = inventory.get(`${method} ${pattern}`);
    const scope = inv?.scope ?? (method === 'GET' || method === 'HEAD' ? 'read_api' : 'api');
    return { scope, admin: isAdminRoute(method, pattern, inv?.adminOnly ?? false), ...override };
  };
  const table = {
    add: (method: string, pattern: string, handler: Handler, override?: Partial<RouteAuth>) =>
      router.add(method, pattern, { handler, auth: authFor(method, pattern, override) }),
  };
  registerIdentity(table);
  registerProjects(table);
  registerGroups(table);
  registerIssues(table);
  registerMergeRequests(table);
  registerRepository(table);
  registerPipelines(table);
  registerLabels(table);
  registerPackages(table);
  registerWiki(table);
  registerVariables(table);
  registerReleases(table);
  registerWorkflow(table);
  registerEvents(table);
  const core = new Set(router.all().map((r) => `${r.method} ${r.pattern}`));
  for (const r of inventoryRoutes) {
    if (core.has(`${r.method} ${r.route}`)) continue;
    router.add(r.method, r.route, {
      handler: genericHandler(r.method, r.route),
      auth: authFor(r.method, r.route),
    });
  }
  return router;
}

export const nonApiRouter = (): Router<RouteEntry> => {
  const router = new Router<RouteEntry>();
  registerOAuth({
    add: (method, pattern, handler, auth) =>
      router.add(method, pattern, { handler, auth: { scope: 'public', admin: false, ...auth } }),
  });
  return router;
};

export interface SimCore {
  state: State;
  rt: Runtime;
  requests: RecordedRequest[];
  faults: { rule: FaultRule; left: number }[];
  latencyMs: number;
  /** Weak ETags on GET answers and 304 for a matching If-None-Match (the instance's Rack::ETag behaviour). */
  etags: boolean;
  router: Router<RouteEntry>;
  other: Router<RouteEntry>;
}

function parseQuery(search: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of search) {
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else out[k] = Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  const ct = (contentType ?? '').toLowerCase();
  // A file sent as the body itself (a generic package upload) stays bytes.
  if (ct.startsWith('application/octet-stream')) return raw;
  const text = raw.toString('utf8');
  if (ct.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  if (ct.includes('application/x-www-form-urlencoded')) return parseQuery(new URLSearchParams(text));
  return text;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function faultMatches(rule: FaultRule, rec: RecordedRequest): boolean {
  if (rule.method && rule.method.toUpperCase() !== rec.method) return false;
  if (rule.path !== undefined) {
    if (typeof rule.path === 'string' ? rule.path !== rec.path : !rule.path.test(rec.path)) return false;
  }
  if (rule.graphqlOperation !== undefined && rule.graphqlOperation !== rec.graphqlOperation) return false;
  if (rule.token !== undefined && rule.token !== rec.token) return false;
  return true;
}

/** A weak validator of a body, as the instance's Rack::ETag middleware writes it: W/"<md5 hex>". */
function weakEtag(payload: Buffer): string {
  return `W/"${createHash('md5').update(payload).digest('hex')}"`;
}

function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

function send(
  res: ServerResponse,
  reply: Reply,
  method: string,
  conditional?: { etags: boolean; ifNoneMatch?: string },
): number {
  const headers: Record<string, string> = {
    'x-request-id': randomUUID().replace(/-/g, '').slice(0, 26),
    'cache-control': 'max-age=0, private, must-revalidate',
    ...(reply.headers ?? {}),
  };
  let payload: Buffer | undefined;
  if (reply.raw !== undefined) {
    payload =
      typeof reply.raw === 'string'
        ? Buffer.from(reply.raw)
        : Buffer.from(reply.raw.buffer, reply.raw.byteOffset, reply.raw.byteLength);
    headers['content-type'] = reply.contentType ?? 'application/octet-stream';
  } else if (reply.body !== undefined && reply.status !== 204) {
    payload = Buffer.from(JSON.stringify(reply.body));
    headers['content-type'] = reply.contentType ?? 'application/json';
  }
  // A successful GET carries its validator; a request already holding it is answered 304 without a body.
  if (conditional?.etags && payload && reply.status === 200 && (method === 'GET' || method === 'HEAD')) {
    const etag = weakEtag(payload);
    headers.etag = etag;
    if (matchesEtag(conditional.ifNoneMatch, etag)) {
      delete headers['content-type'];
      res.writeHead(304, headers);
      res.end();
      return 304;
    }
  }
  if (payload) headers['content-length'] = String(payload.length);
  res.writeHead(reply.status, headers);
  res.end(method === 'HEAD' ? undefined : payload);
  return reply.status;
}

function mergeInput(query: Record<string, string | string[]>, body: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) out[k.endsWith('[]') ? k.slice(0, -2) : k] = v;
  for (const [k, v] of Object.entries(fieldsOf(body))) out[k.endsWith('[]') ? k.slice(0, -2) : k] = v;
  return out;
}

async function graphql(
  core: SimCore,
  rec: RecordedRequest,
  parsed: ParsedOperation | { error: string } | undefined,
  tokenStr: string | undefined,
): Promise<Reply> {
  const invalid: Reply = { status: 401, body: { errors: [{ message: 'Invalid token' }] } };
  if (!tokenStr) return invalid;
  let token: TokenRecord;
  try {
    token = resolveToken(core.state, tokenStr).token;
  } catch {
    return invalid;
  }
  const scopes = token.scopes;
  if (!scopes.some((s) => s === 'api' || s === 'read_api' || s === 'granular')) return invalid;
  if (!parsed) return { status: 200, body: { errors: [{ message: 'No query string was present' }] } };
  if ('error' in parsed) return { status: 200, body: { errors: [{ message: parsed.error }] } };
  if (parsed.kind === 'mutation' && !scopes.includes('api')) {
    const message = scopes.includes('granular')
      ? 'Operation does not support fine-grained tokens'
      : "The resource that you are attempting to access does not exist or you don't have permission to perform this action";
    return {
      status: 200,
      body: {
        data: Object.fromEntries(parsed.rootFields.map((f) => [f.key, null])),
        errors: [{ message, locations: [{ line: 2, column: 3 }], path: [parsed.rootFields[0]?.key ?? ''] }],
      },
    };
  }
  return { status: 200, body: { data: answer(parsed) } };
}

export async function handle(core: SimCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const url = new URL(req.url ?? '/', core.rt.baseUrl);
  const method = (req.method ?? 'GET').toUpperCase();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  const query = parseQuery(url.searchParams);
  const body = parseBody(raw, headers['content-type']);
  const tokenStr = presentedToken(headers);
  const rec: RecordedRequest = {
    method,
    path: url.pathname,
    query,
    headers,
    body,
    ...(tokenStr ? { token: tokenStr } : {}),
    status: 0,
    at: Date.now(),
  };

  let parsedGql: ParsedOperation | { error: string } | undefined;
  if (url.pathname === '/api/graphql') {
    const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const q =
      typeof b.query === 'string' ? b.query : typeof query.query === 'string' ? query.query : undefined;
    const opName = typeof b.operationName === 'string' ? b.operationName : undefined;
    if (q !== undefined) {
      parsedGql = parseOperation(q, opName);
      if (!('error' in parsedGql)) rec.graphqlOperation = parsedGql.name;
      else if (opName) rec.graphqlOperation = opName;
    }
  }
  core.requests.push(rec);

  let gate: Promise<unknown> | undefined;
  const finish = async (reply: Reply, extraHeaders?: Record<string, string>, delayMs = 0): Promise<void> => {
    if (core.latencyMs + delayMs > 0) await sleep(core.latencyMs + delayMs);
    if (gate) await gate.catch(() => undefined);
    rec.status = send(
      res,
      { ...reply, headers: { ...(reply.headers ?? {}), ...(extraHeaders ?? {}) } },
      method,
      { etags: core.etags && url.pathname.startsWith('/api/v4/'), ifNoneMatch: headers['if-none-match'] },
    );
  };

  // Faults come first: they model the network or a proxy in front of the instance.
  const slot = core.faults.find((f) => f.left > 0 && faultMatches(f.rule, rec));
  let faultHeaders: Record<string, string> | undefined;
  let faultDelay = 0;
  if (slot) {
    slot.left -= 1;
    const rule = slot.rule;
    faultDelay = rule.delayMs ?? 0;
    gate = rule.until;
    if ((gate || faultDelay > 0) && !rule.drop)
      res.once('close', () => {
        if (!res.writableEnded) rec.abandoned = true;
      });
    faultHeaders = rule.headers
      ? Object.fromEntries(Object.entries(rule.headers).map(([k, v]) => [k.toLowerCase(), v]))
      : undefined;
    if (rule.drop) {
      if (core.latencyMs + faultDelay > 0) await sleep(core.latencyMs + faultDelay);
      rec.status = 0;
      req.socket.destroy();
      return;
    }
    if (rule.redirectTo !== undefined) {
      const location = /^https?:\/\//.test(rule.redirectTo)
        ? rule.redirectTo
        : new URL(rule.redirectTo, core.rt.baseUrl).toString();
      return finish(
        {
          status: rule.redirectStatus ?? 302,
          body: { message: 'You are being redirected' },
          headers: { location },
        },
        faultHeaders,
        faultDelay,
      );
    }
    if (rule.status !== undefined || rule.body !== undefined) {
      const status = rule.status ?? 500;
      const headersOut: Record<string, string> = {
        ...(status === 429 ? { 'retry-after': '1' } : {}),
        ...(faultHeaders ?? {}),
      };
      const fb =
        rule.body ??
        (status === 204 ? undefined : { message: `${status} ${STATUS_CODES[status] ?? 'Error'}` });
      const reply: Reply =
        typeof fb === 'string'
          ? { status, raw: fb, contentType: faultHeaders?.['content-type'] ?? 'text/plain; charset=utf-8' }
          : { status, body: fb };
      return finish(reply, headersOut, faultDelay);
    }
  }

  let reply: Reply;
  try {
    reply = await route(core, method, url, query, body, raw, tokenStr, parsedGql, rec);
  } catch (err) {
    reply =
      err instanceof HttpError
        ? { status: err.status, body: err.body, headers: err.headers }
        : { status: 500, body: { message: '500 Internal Server Error' } };
    if (!(err instanceof HttpError)) console.error('forge-sim handler error', err);
  }
  await finish(reply, faultHeaders, faultDelay);
}

async function route(
  core: SimCore,
  method: string,
  url: URL,
  query: Record<string, string | string[]>,
  body: unknown,
  raw: Buffer,
  tokenStr: string | undefined,
  parsedGql: ParsedOperation | { error: string } | undefined,
  rec: RecordedRequest,
): Promise<Reply> {
  const path = url.pathname;
  if (path === '/api/graphql') {
    if (method !== 'POST' && method !== 'GET')
      throw new HttpError(405, { message: '405 Method Not Allowed' });
    return graphql(core, rec, parsedGql, tokenStr);
  }
  const isApi = path.startsWith(`${API_PREFIX}/`);
  const rel = isApi ? path.slice(API_PREFIX.length) : path;
  const { hit, pathMatched } = (isApi ? core.router : core.other).match(method, rel);
  if (!hit) {
    if (pathMatched) throw new HttpError(405, { message: '405 Method Not Allowed' });
    throw new HttpError(404, { error: '404 Not Found' });
  }
  const { auth, handler } = hit.route.data;
  let token: TokenRecord | undefined;
  let user: User | undefined;
  if (tokenStr && auth.scope !== 'other-credential') {
    if (isApi || auth.scope !== 'public') ({ token, user } = resolveToken(core.state, tokenStr));
    else {
      try {
        ({ token, user } = resolveToken(core.state, tokenStr));
      } catch {
        // Non-API routes judge the token themselves.
      }
    }
  }
  if (auth.scope !== 'public' && auth.scope !== 'other-credential') {
    if (!token || !user) throw new HttpError(401, { message: '401 Unauthorized' });
    authorize(core.state, auth, method === 'HEAD' ? 'GET' : method, rel, token, user);
    // ML model package files take a personal access token or job token only, and only as a Bearer
    // token: OAuth tokens and PRIVATE-TOKEN are refused.
    if (
      hit.route.pattern.includes('/packages/ml_models/') &&
      (token.kind === 'oauth' || rec.headers['private-token'] !== undefined)
    ) {
      throw new HttpError(401, { message: '401 Unauthorized' });
    }
  }
  const ctx: Ctx = {
    method,
    path: rel,
    fullPath: path,
    query,
    body,
    raw,
    input: mergeInput(query, body),
    params: hit.params,
    pattern: hit.route.pattern,
    token,
    user,
    headers: rec.headers,
    presented: tokenStr,
    state: core.state,
    rt: core.rt,
  };
  return handler(ctx);
}
