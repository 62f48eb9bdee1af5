import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { laDate, weekLabelOf, addDays } from '../time.js';
import type { SimRepo, SimWorld } from './world.js';

export interface SimRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  /** Whether a valid bearer token came with the request (the token itself is never recorded). */
  authorized: boolean;
  conditional: boolean;
  /** Which token authorised it: 'main' for world.token, else the extra token's name (never the token itself). */
  tokenName?: string;
  /** The Accept and X-GitHub-Api-Version headers sent ('' when absent). */
  accept: string;
  apiVersion: string;
}

interface Budget {
  limit: number;
  remaining: number;
  reset: number;
}

export interface SimOptions {
  world: SimWorld;
  /** The simulated upstream's clock. Default: real time. */
  now?: () => Date;
  rateLimit?: { limit?: number; remaining?: number; resetInSeconds?: number };
  /**
   * The first `times` requests whose path contains `pathIncludes` hit a secondary limit, with retry-after when
   * `retryAfter` is given (without it, only the message says so).
   */
  secondaryLimit?: { pathIncludes: string; times: number; retryAfter?: number };
  host?: string;
  port?: number;
}

const HISTORY_MAX = 30;
const FEED_CEILING_MESSAGE =
  'In order to keep the API fast for everyone, pagination is limited for this resource.';

/**
 * A loopback stand-in for the hosted platform's API, with its quirks: indefinite 202s from the statistics
 * endpoints, 410 from the old billing endpoints, 404 stargazer lists for non-collaborators, GraphQL stargazers with
 * totalCount 0 beside the real stargazerCount, 304s without Link, a 422 ceiling on activity feeds, stale traffic
 * windows, x-ratelimit-* headers and exhaustion. Every request is recorded.
 */
export class SimUpstream {
  readonly requests: SimRequest[] = [];
  world: SimWorld;
  private server?: Server;
  private readonly now: () => Date;
  private readonly budgets = new Map<string, Budget>();
  /** Answers every authorised request with 403 rate limit exceeded while set (tests inject an exhaustion). */
  exhausted = false;
  private secondaryLeft: number;
  /** Called for every request before it is answered (tests use it to interrupt a sweep). */
  onRequest?: (r: { path: string; index: number }) => void;

  constructor(private readonly opts: SimOptions) {
    this.world = opts.world;
    this.now = opts.now ?? (() => new Date());
    const limit = opts.rateLimit?.limit ?? 5000;
    this.budgets.set('main', {
      limit,
      remaining: opts.rateLimit?.remaining ?? limit,
      reset: this.nextReset(),
    });
    for (const t of this.world.extraTokens ?? []) {
      const l = t.limit ?? 5000;
      this.budgets.set(t.name, { limit: l, remaining: t.remaining ?? l, reset: this.nextReset() });
    }
    this.secondaryLeft = opts.secondaryLimit?.times ?? 0;
  }

  private nextReset(): number {
    return Math.floor(this.now().getTime() / 1000) + (this.opts.rateLimit?.resetInSeconds ?? 3600);
  }

  /** Starts a new rate-limit window. */
  resetRateLimit(): void {
    for (const b of this.budgets.values()) {
      b.remaining = b.limit;
      b.reset = this.nextReset();
    }
  }

  /** Rate limit left for a token (by name; 'main' is world.token). */
  remainingOf(name = 'main'): number {
    return this.budgets.get(name)?.remaining ?? 0;
  }

  get rateRemaining(): number {
    return this.remainingOf('main');
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((e) => {
        res.statusCode = 500;
        res.end(JSON.stringify({ message: String(e) }));
      });
    });
    this.server.keepAliveTimeout = 5000;
    // A port already taken rejects the start (the caller says so), rather than an unhandled 'error' event.
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.opts.port ?? 0, this.opts.host ?? '127.0.0.1', () => {
        this.server!.off('error', reject);
        resolve();
      });
    });
    return this.url;
  }

  get url(): string {
    const a = this.server!.address() as AddressInfo;
    return `http://${a.address}:${a.port}`;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server!.close(() => r()));
  }

  /** Requests whose path matches. */
  calls(match: string | RegExp): SimRequest[] {
    return this.requests.filter((r) => (typeof match === 'string' ? r.path === match : match.test(r.path)));
  }

  private repo(owner: string, name: string): SimRepo | undefined {
    return this.world.repos.find((r) => r.owner === owner && r.name === name);
  }

  private permission(r: SimRepo): 'admin' | 'write' | 'read' {
    return r.permission ?? (r.owner === this.world.user ? 'admin' : 'read');
  }

  /** Since July 2026 the stargazer list is served only to the repository's admins and collaborators. */
  private listsStargazers(r: SimRepo, perm: 'admin' | 'write' | 'read'): boolean {
    return !r.starListHidden && (perm !== 'read' || r.collaborator === true);
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const u = new URL(req.url ?? '/', 'http://sim');
    const path = u.pathname;
    const query = Object.fromEntries(u.searchParams);
    const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const extra = (this.world.extraTokens ?? []).find((t) => t.token === bearer);
    const tokenName = bearer === this.world.token ? 'main' : extra?.name;
    const authorized = tokenName !== undefined;
    const installation = extra?.installation === true;
    const budget = tokenName ? this.budgets.get(tokenName)! : undefined;
    const inm = req.headers['if-none-match'];
    const index = this.requests.length;
    const record: SimRequest = {
      method: req.method ?? 'GET',
      path,
      query,
      status: 0,
      authorized,
      conditional: !!inm,
      ...(tokenName ? { tokenName } : {}),
      accept: String(req.headers.accept ?? ''),
      apiVersion: String(req.headers['x-github-api-version'] ?? ''),
    };
    this.requests.push(record);
    this.onRequest?.({ path, index });
    let bodyText = '';
    for await (const chunk of req) bodyText += chunk;

    const send = (status: number, body?: unknown, extra: Record<string, string> = {}) => {
      const headers: Record<string, string> = { ...extra };
      const text = body === undefined || status === 204 ? undefined : JSON.stringify(body);
      if (status === 200 && text !== undefined) {
        const etag = `W/"${createHash('sha1').update(text).digest('hex')}"`;
        headers.etag = etag;
        // Not modified: no body and no Link header; free against the rate limit.
        if (inm === etag) {
          status = 304;
          delete headers.link;
        }
      }
      record.status = status;
      if (budget && status !== 304 && path !== '/rate_limit' && budget.remaining > 0) budget.remaining--;
      if (budget) {
        headers['x-ratelimit-limit'] = String(budget.limit);
        headers['x-ratelimit-remaining'] = String(budget.remaining);
        headers['x-ratelimit-used'] = String(budget.limit - budget.remaining);
        headers['x-ratelimit-reset'] = String(budget.reset);
        headers['x-ratelimit-resource'] = path === '/graphql' ? 'graphql' : 'core';
      }
      if (text === undefined || status === 304) {
        res.writeHead(status, headers);
        res.end();
        return;
      }
      headers['content-type'] = 'application/json; charset=utf-8';
      res.writeHead(status, headers);
      res.end(text);
    };
    const notFound = () => send(404, { message: 'Not Found' });

    if (req.method === 'POST' && path === '/graphql') {
      if (!authorized) return send(401, { message: 'Bad credentials' });
      return this.graphql(bodyText, send);
    }
    if (req.method !== 'GET') return send(405, { message: 'Method not allowed' });

    const history = /^\/repos\/([^/]+)\/([^/]+)\/stargazers\/history$/.exec(path);
    if (!authorized && !history && path !== '/rate_limit') return send(401, { message: 'Bad credentials' });
    if (budget && this.exhausted && path !== '/rate_limit') budget.remaining = 0;
    if (budget && budget.remaining <= 0 && path !== '/rate_limit') {
      return send(403, { message: `API rate limit exceeded for user ${this.world.user}.` });
    }
    const sl = this.opts.secondaryLimit;
    if (sl && this.secondaryLeft > 0 && path.includes(sl.pathIncludes)) {
      this.secondaryLeft--;
      return send(
        403,
        {
          message:
            'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        },
        sl.retryAfter === undefined ? {} : { 'retry-after': String(sl.retryAfter) },
      );
    }

    const per = (max: number, dflt = 30) => Math.min(max, Math.max(1, Number(query.per_page) || dflt));
    const pageNo = () => Math.max(1, Number(query.page) || 1);
    const paged = (items: unknown[], max = 100) => {
      const pp = per(max);
      const p = pageNo();
      const last = Math.max(1, Math.ceil(items.length / pp));
      const links: string[] = [];
      const link = (n: number) => {
        const q = new URLSearchParams(u.searchParams);
        q.set('page', String(n));
        q.set('per_page', String(pp));
        return `<${this.url}${path}?${q}>`;
      };
      if (p < last) links.push(`${link(p + 1)}; rel="next"`, `${link(last)}; rel="last"`);
      return send(200, items.slice((p - 1) * pp, p * pp), links.length ? { link: links.join(', ') } : {});
    };

    if (path === '/rate_limit') {
      return send(200, {
        resources: { core: { limit: budget?.limit, remaining: budget?.remaining, reset: budget?.reset } },
      });
    }
    if (path === '/user') {
      if (installation) return send(403, { message: 'Resource not accessible by integration' });
      return send(200, { login: this.world.user, type: 'User' });
    }
    if (path === '/installation/repositories') {
      if (!installation) return send(403, { message: 'You must authenticate with an installation.' });
      const mine = this.world.repos.filter((r) => extra!.repositories?.includes(`${r.owner}/${r.name}`));
      const pp = per(100);
      const p = pageNo();
      return send(200, {
        total_count: mine.length,
        repositories: this.repoListing(mine.slice((p - 1) * pp, p * pp)),
      });
    }
    if (path === '/user/installations')
      return send(403, { message: 'You must authenticate with an installation.' });
    if (path === '/user/settings/billing/usage') return notFound();

    let m: RegExpExecArray | null;
    if ((m = /^\/users\/([^/]+)\/settings\/billing\/(actions|packages|shared-storage)$/.exec(path))) {
      return send(410, { message: 'This endpoint has been retired.' });
    }
    if ((m = /^\/users\/([^/]+)\/settings\/billing\/usage$/.exec(path))) {
      if (m[1] !== this.world.user) return notFound();
      if (this.world.billing === 'gone') return send(410, { message: 'Gone' });
      return send(200, { usageItems: this.world.billing ?? [] });
    }
    if ((m = /^\/orgs\/([^/]+)\/repos$/.exec(path))) {
      if (!(this.world.orgs ?? []).includes(m[1])) return notFound();
      const org = m[1];
      return paged(this.repoListing(this.world.repos.filter((r) => r.owner === org)));
    }
    if ((m = /^\/(users|orgs)\/([^/]+)\/packages$/.exec(path))) {
      if (!query.package_type) return send(400, { message: 'package_type is required' });
      const list = (this.world.packages ?? []).filter(
        (p) => p.owner === m![2] && p.type === query.package_type,
      );
      return paged(
        list.map((p) => ({
          name: p.name,
          package_type: p.type,
          visibility: 'public',
          repository: p.repository ? { full_name: p.repository } : null,
        })),
      );
    }
    if ((m = /^\/(users|orgs)\/([^/]+)\/packages\/([^/]+)\/([^/]+)\/versions$/.exec(path))) {
      const name = decodeURIComponent(m[4]);
      const p = (this.world.packages ?? []).find(
        (x) => x.owner === m![2] && x.type === m![3] && x.name === name,
      );
      return p ? paged(p.versions) : notFound();
    }
    if (/^\/orgs\/[^/]+\/(audit-log|properties\/.*|projects|settings\/billing\/.*)$/.test(path))
      return notFound();

    if (!(m = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path))) return notFound();
    const repo = this.repo(m[1], m[2]);
    if (!repo) return notFound();
    const rest = m[3] ?? '';
    const perm = installation
      ? extra!.repositories?.includes(`${repo.owner}/${repo.name}`)
        ? (repo.permission ?? 'admin')
        : 'read'
      : this.permission(repo);
    const full = `${repo.owner}/${repo.name}`;
    const stars = [...(repo.stars ?? [])].sort((a, b) => a.starredAt.localeCompare(b.starredAt));

    if (rest === '') {
      return send(200, {
        ...this.repoListing([repo])[0],
        permissions: {
          admin: perm === 'admin',
          maintain: perm === 'admin',
          push: perm !== 'read',
          triage: perm !== 'read',
          pull: true,
        },
        ...(perm === 'admin'
          ? {
              security_and_analysis: Object.fromEntries(
                Object.entries(repo.securityAndAnalysis ?? {}).map(([k, v]) => [k, { status: v }]),
              ),
            }
          : {}),
      });
    }
    if (rest === '/stargazers') {
      if (!this.listsStargazers(repo, perm)) return notFound();
      const star = String(req.headers.accept ?? '').includes('star+json');
      return paged(
        stars.map((s, i) =>
          star
            ? { starred_at: s.starredAt, user: { login: s.login, id: 1000 + i } }
            : { login: s.login, id: 1000 + i },
        ),
      );
    }
    if (rest === '/stargazers/history') {
      const pp = per(HISTORY_MAX);
      const p = pageNo();
      if (p > 100) return send(422, { message: 'page is limited to 100' });
      const shift = repo.historyRollover && p >= 2 ? 7 : 0;
      // A repository nobody has starred has no history: an empty page.
      const weeks = (stars.length ? this.history(repo, stars, shift) : []).map((w) =>
        repo.historyTotalOff ? { ...w, total: w.total + 1 } : w,
      );
      const last = Math.max(1, Math.ceil(weeks.length / pp));
      const link = (n: number) => `<${this.url}${path}?per_page=${pp}&page=${n}>`;
      const extra: Record<string, string> =
        p < last ? { link: `${link(p + 1)}; rel="next", ${link(last)}; rel="last"` } : {};
      return send(200, weeks.slice((p - 1) * pp, p * pp), extra);
    }
    if (rest === '/stats/code_frequency' || rest === '/stats/contributors') return send(202, undefined);
    if (rest === '/stats/participation') {
      if (repo.participation === 'computing') return send(202, undefined);
      return send(200, repo.participation ?? { all: Array(52).fill(0), owner: Array(52).fill(0) });
    }
    if (rest === '/stats/punch_card') {
      if (repo.punchCard === 'computing') return send(202, undefined);
      return send(200, repo.punchCard ?? []);
    }
    if (rest === '/traffic/views' || rest === '/traffic/clones') {
      if (perm === 'read') return send(403, { message: 'Must have push access to repository' });
      const kind = rest === '/traffic/views' ? 'views' : 'clones';
      // The last fourteen days that had data, however long ago.
      const days = (repo.traffic?.[kind] ?? []).filter((d) => d.count > 0).slice(-14);
      return send(200, {
        count: days.reduce((n, d) => n + d.count, 0),
        uniques: days.reduce((n, d) => n + d.uniques, 0),
        [kind]: days,
      });
    }
    const alerts = /^\/(dependabot|code-scanning|secret-scanning)\/alerts$/.exec(rest);
    if (alerts) {
      const key = (
        {
          dependabot: 'dependabot',
          'code-scanning': 'codeScanning',
          'secret-scanning': 'secretScanning',
        } as const
      )[alerts[1] as 'dependabot' | 'code-scanning' | 'secret-scanning'];
      const setting = perm === 'read' ? 'off' : (repo.alerts?.[key] ?? 'off');
      if (setting === 'off') {
        if (alerts[1] === 'dependabot')
          return send(403, { message: 'Dependabot alerts are disabled for this repository.' });
        if (alerts[1] === 'code-scanning') return send(404, { message: 'no analysis found' });
        return notFound();
      }
      return paged(Array.from({ length: setting }, (_, i) => ({ number: i + 1, state: 'open' })));
    }
    if (rest === '/commits') {
      if (!repo.commits?.length) return send(409, { message: 'Git Repository is empty.' });
      const since = query.since ? Date.parse(query.since) : -Infinity;
      return paged(
        repo.commits
          .filter((c) => Date.parse(c.date) >= since)
          .map((c) => ({ sha: c.sha, commit: { author: { name: c.author, date: c.date } } })),
      );
    }
    if ((m = /^\/commits\/([0-9a-f]+)$/.exec(rest))) {
      const c = repo.commits?.find((x) => x.sha === m![1]);
      if (!c) return send(422, { message: 'No commit found for SHA' });
      return send(200, {
        sha: c.sha,
        author: { login: c.author },
        commit: { author: { name: c.author, date: c.date } },
        stats: { additions: c.additions, deletions: c.deletions, total: c.additions + c.deletions },
      });
    }
    if (rest === '/events') {
      const pp = per(100);
      const ceiling = repo.eventCeiling ?? 300;
      if ((pageNo() - 1) * pp >= ceiling) return send(422, { message: FEED_CEILING_MESSAGE });
      const events = (repo.events ?? []).slice(0, ceiling).map((e) => ({
        id: e.id,
        type: e.type,
        actor: { login: e.actor },
        repo: { name: full },
        created_at: e.createdAt,
      }));
      return paged(events);
    }
    if ((m = /^\/actions\/workflows\/([^/]+)\/timing$/.exec(rest))) return send(200, { billable: {} });
    if (/^\/(properties\/values|projects)$/.test(rest)) return notFound();
    return notFound();
  }

  private repoListing(repos: SimRepo[]) {
    return repos.map((r) => ({
      full_name: `${r.owner}/${r.name}`,
      name: r.name,
      owner: { login: r.owner, type: r.ownerType ?? (r.owner === this.world.user ? 'User' : 'Organization') },
      private: r.private ?? false,
      fork: r.fork ?? false,
      archived: r.archived ?? false,
      disabled: r.disabled ?? false,
      forks_count: r.forksCount ?? 0,
      open_issues_count: r.openIssues ?? 0,
      stargazers_count: r.stars?.length ?? 0,
      created_at: r.createdAt ?? '2026-01-01T00:00:00Z',
    }));
  }

  /** Star history weeks, newest first: current stargazers bucketed by Los Angeles day under Sunday 00:00 UTC labels. */
  private history(repo: SimRepo, stars: { starredAt: string }[], shiftDays: number) {
    const today = addDays(laDate(this.now()), shiftDays);
    const firstDay = laDate(new Date(repo.createdAt ?? stars[0]?.starredAt ?? this.now().toISOString()));
    const byWeek = new Map<number, number[]>();
    for (let w = weekLabelOf(today); w >= weekLabelOf(firstDay); w -= 7 * 86400)
      byWeek.set(w, [0, 0, 0, 0, 0, 0, 0]);
    for (const s of stars) {
      const day = laDate(new Date(s.starredAt));
      const w = byWeek.get(weekLabelOf(day));
      if (w) w[(Date.parse(day + 'T00:00:00Z') / 86_400_000 + 4) % 7]++;
    }
    return [...byWeek].map(([week, days]) => ({ week, total: days.reduce((a, b) => a + b, 0), days }));
  }

  private graphql(bodyText: string, send: (s: number, b?: unknown) => void) {
    let vars: Record<string, unknown> = {};
    try {
      vars = (JSON.parse(bodyText) as { variables?: Record<string, unknown> }).variables ?? {};
    } catch {
      return send(400, { message: 'Problems parsing JSON' });
    }
    const repo = this.repo(String(vars.owner), String(vars.name));
    if (!repo) return send(200, { data: { repository: null }, errors: [{ type: 'NOT_FOUND' }] });
    const listed = this.listsStargazers(repo, this.permission(repo));
    const stars = [...(repo.stars ?? [])].sort((a, b) => a.starredAt.localeCompare(b.starredAt));
    return send(200, {
      data: {
        repository: {
          stargazerCount: stars.length,
          // For others the list is empty and totalCount 0, while stargazerCount stays real.
          stargazers: {
            totalCount: listed ? stars.length : 0,
            pageInfo: { hasNextPage: false, endCursor: null },
            edges: listed ? stars.map((s) => ({ starredAt: s.starredAt, node: { login: s.login } })) : [],
          },
          // The GraphQL package listing reports none, whatever REST lists.
          packages: { totalCount: 0, nodes: [] },
        },
      },
    });
  }
}
