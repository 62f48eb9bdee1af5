import { ApiClient, type ApiResponse, type Credential, type RateState } from './http.js';
import { DEFAULT_ORG_FILTER, takesRepository, type CollectorConfig, type PackageType } from './config.js';
import { RateLimitError, shownUrl, UpstreamError, UserError } from './errors.js';
import { redactSecrets, silentLogger, type Logger } from './log.js';
import { addDays, laDate, normaliseTimestamp, weekLabelDate } from './time.js';
import { count } from './summary.js';
import type {
  BillingUsageRow,
  CommitRow,
  EventRow,
  Outcome,
  PackageRow,
  SecurityFeatureRow,
  StarDayRow,
  StarRow,
  StatusRow,
  Store,
  TrafficRow,
} from './store/types.js';

export const HISTORY_PAGE_WEEKS = 30;
const HISTORY_MAX_PAGES = 100;
const LIST_PAGE = 100;
const STAR_ACCEPT = 'application/vnd.github.star+json';
const NO_STAR_LIST =
  "no stargazer-list access (served to the repository's admins and collaborators only); stars counted per day only";

/** Features reported in the repository's security_and_analysis object. */
export const SETTINGS_FEATURES = [
  'advanced_security',
  'dependabot_security_updates',
  'secret_scanning',
  'secret_scanning_push_protection',
];
/** Features read from their alert lists: path segment -> feature name. */
export const ALERT_FEATURES: [string, string][] = [
  ['dependabot/alerts', 'dependabot_alerts'],
  ['code-scanning/alerts', 'code_scanning_alerts'],
  ['secret-scanning/alerts', 'secret_scanning_alerts'],
];

export interface SweepOptions {
  config: CollectorConfig;
  token: string;
  /** Several tokens (named by their environment variable), used in turn by their remaining rate limit. */
  tokens?: Credential[];
  store: Store;
  logger?: Logger;
  /** Replaces real sleeping for rate-limit waits (tests). */
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
  signal?: AbortSignal;
}

export interface SweepSummary {
  id: string;
  startedAt: string;
  finishedAt: string;
  status: 'complete' | 'incomplete';
  account: string;
  repositories: number;
  records: Record<string, number>;
  unavailable: number;
  notReady: number;
  endOfData: number;
  gone: number;
  errors: { scope: string; collector: string; message: string }[];
  /** Repositories whose own GET answered other than 200 (a misspelt name, no access): nothing collected. */
  notCollected: { repository: string; status: number }[];
  /**
   * Repository lists that answered 403 or 404, so none of theirs were swept: `organisation <name>` (a misspelt name,
   * no access) or `installation` (the token is not an installation's).
   */
  notListed: { source: string; status: number }[];
  apiCalls: number;
  notModified: number;
  rateLimitWaits: number;
  rateLimit: { limit: number; remaining: number; reset: string } | null;
  stopReason?: string;
  /** Seconds from start to finish. */
  durationSeconds: number;
  /** Upstream answers per HTTP status. */
  requestsByStatus: Record<string, number>;
  /** Core rate limit last told per token (by its environment variable's name). */
  tokens: Record<string, RateState & { requests: number }>;
  /** Why the sweep is degraded (rate-limited, stopped early, collector errors); empty when healthy. */
  degraded: string[];
}

interface RepoInfo {
  full_name: string;
  name: string;
  owner: { login: string; type?: string };
  stargazers_count?: number;
  forks_count?: number;
  open_issues_count?: number;
  fork?: boolean;
  archived?: boolean;
  disabled?: boolean;
  private?: boolean;
  permissions?: { admin?: boolean; maintain?: boolean; push?: boolean; triage?: boolean; pull?: boolean };
  security_and_analysis?: Record<string, { status?: string } | undefined> | null;
}

type Outcomes = { outcome: Outcome; status: number };

function outcomeOf(res: ApiResponse, opts: { feed?: boolean } = {}): Outcomes {
  const s = res.status;
  if (s === 200 || s === 204) return { outcome: 'ok', status: s };
  if (s === 202) return { outcome: 'not_ready', status: s };
  if (s === 403 || s === 404) return { outcome: 'unavailable', status: s };
  if (s === 410) return { outcome: 'gone', status: s };
  if (s === 422 && opts.feed) return { outcome: 'end_of_data', status: s };
  if (s === 401) {
    const where = res.tokenName ? `the token in ${res.tokenName}` : 'the token';
    throw new UserError(
      `the upstream rejected ${where} (401); put a valid, unexpired token in ${res.tokenName ?? 'the environment variable token_env names'}`,
    );
  }
  return { outcome: 'error', status: s };
}

function message(res: ApiResponse): string | null {
  const b = res.body as { message?: unknown } | undefined;
  return b && typeof b === 'object' && typeof b.message === 'string' ? b.message.slice(0, 200) : null;
}

function int(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    throw new UpstreamError(`unexpected ${what}: ${JSON.stringify(v)}`);
  return v;
}

/** Turns star-history weeks (merged by week label) into day rows, dropping days after `today`. */
export function starDaysFromWeeks(weeks: Map<number, number[]>, today: string): StarDayRow[] {
  const rows: StarDayRow[] = [];
  for (const week of [...weeks.keys()].sort((a, b) => a - b)) {
    const start = weekLabelDate(week);
    weeks.get(week)!.forEach((stars, i) => {
      const day = addDays(start, i);
      if (day <= today) rows.push({ day, stars });
    });
  }
  return rows;
}

function validateWeek(w: unknown): { week: number; days: number[] } {
  const o = w as { week?: unknown; total?: unknown; days?: unknown };
  if (
    !o ||
    typeof o !== 'object' ||
    typeof o.week !== 'number' ||
    !Array.isArray(o.days) ||
    o.days.length !== 7
  ) {
    throw new UpstreamError('star history: a week without a label or without 7 days');
  }
  const days = o.days.map((d) => int(d, 'star count'));
  if (typeof o.total === 'number' && o.total !== days.reduce((a, b) => a + b, 0)) {
    throw new UpstreamError(`star history: week ${o.week} total ${o.total} is not the sum of its days`);
  }
  return { week: o.week, days };
}

async function pool<T>(items: T[], n: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: unknown;
  const worker = async () => {
    while (failed === undefined && next < items.length) {
      const i = next++;
      try {
        await fn(items[i], i);
      } catch (e) {
        failed ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  if (failed !== undefined) throw failed;
}

class Sweeper {
  readonly api: ApiClient;
  readonly log: Logger;
  readonly now: () => Date;
  readonly summary: SweepSummary;
  private login = '';
  /** The end of the last wait told on the progress, so requests waiting together for it tell it once. */
  private lastWait = '';
  /** The tokens this sweep sends, which nothing it stores or reports may hold. */
  private readonly secrets: string[];

  constructor(private readonly o: SweepOptions) {
    this.secrets = [o.token, ...(o.tokens ?? []).map((t) => t.token)];
    this.log = o.logger ?? silentLogger;
    this.now = o.now ?? (() => new Date());
    this.api = new ApiClient({
      baseUrl: o.config.apiUrl,
      token: o.token,
      tokens: o.tokens,
      etags: o.store,
      maxWaitSeconds: o.config.rateLimit.maxWaitSeconds,
      sleep: o.sleep,
      now: () => this.now().getTime(),
      connections: Math.max(4, o.config.concurrency * 2),
      onWait: (reason, s, until) => {
        // Requests in flight together meet the same limit: the wait is told once, not once per request.
        const key = String(Math.round(until.getTime() / 1000));
        if (key === this.lastWait) return;
        this.lastWait = key;
        this.log.info(`waiting ${s} s: ${reason}, until ${until.toISOString()}`);
      },
    });
    const startedAt = this.iso();
    this.summary = {
      id: `${startedAt}-${Math.random().toString(36).slice(2, 8)}`,
      startedAt,
      finishedAt: startedAt,
      status: 'incomplete',
      account: '',
      repositories: 0,
      records: {},
      unavailable: 0,
      notReady: 0,
      endOfData: 0,
      gone: 0,
      errors: [],
      notCollected: [],
      notListed: [],
      apiCalls: 0,
      notModified: 0,
      rateLimitWaits: 0,
      rateLimit: null,
      durationSeconds: 0,
      requestsByStatus: {},
      tokens: {},
      degraded: [],
    };
  }

  iso(): string {
    return this.now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
  }

  private count(kind: string, n: number) {
    this.summary.records[kind] = (this.summary.records[kind] ?? 0) + n;
  }

  private note(
    statuses: StatusRow[],
    scope: string,
    collector: string,
    o: Outcomes,
    detail: string | null = null,
  ) {
    // The upstream's own message may quote the request's credential back: it is stored and shown without it.
    if (detail !== null) detail = redactSecrets(detail, this.secrets);
    statuses.push({ scope, collector, outcome: o.outcome, httpStatus: o.status || null, detail });
    if (o.outcome === 'unavailable') this.summary.unavailable++;
    else if (o.outcome === 'not_ready') this.summary.notReady++;
    else if (o.outcome === 'end_of_data') this.summary.endOfData++;
    else if (o.outcome === 'gone') this.summary.gone++;
    else if (o.outcome === 'error')
      this.summary.errors.push({ scope, collector, message: detail ?? `HTTP ${o.status}` });
  }

  private checkAbort() {
    if (this.o.signal?.aborted) throw new Error('sweep aborted');
  }

  /** Runs one collector, turning upstream surprises into an 'error' status instead of a failed sweep. */
  private async guard(statuses: StatusRow[], scope: string, collector: string, fn: () => Promise<void>) {
    this.checkAbort();
    try {
      await fn();
    } catch (e) {
      if (e instanceof RateLimitError || e instanceof UserError || this.o.signal?.aborted) throw e;
      this.note(
        statuses,
        scope,
        collector,
        { outcome: 'error', status: 0 },
        (e as Error).message.slice(0, 300),
      );
    }
  }

  /** Walks a page-numbered list until a page is shorter than its size. */
  private async walk(
    path: string,
    opts: {
      accept?: string;
      feed?: boolean;
      pick?: (body: unknown) => unknown[];
      stop?: (items: unknown[]) => boolean;
    },
  ): Promise<{ o: Outcomes; items: unknown[]; res?: ApiResponse }> {
    const items: unknown[] = [];
    const sep = path.includes('?') ? '&' : '?';
    for (let page = 1; ; page++) {
      this.checkAbort();
      const res = await this.api.get(`${path}${sep}per_page=${LIST_PAGE}&page=${page}`, {
        accept: opts.accept,
        conditional: true,
      });
      const o = outcomeOf(res, { feed: opts.feed });
      if (o.outcome === 'end_of_data') return { o, items, res };
      if (o.outcome !== 'ok') return { o, items, res };
      const list = opts.pick ? opts.pick(res.body) : res.body;
      if (!Array.isArray(list)) throw new UpstreamError(`GET ${path}: expected a list`);
      items.push(...list);
      if (list.length < LIST_PAGE || opts.stop?.(list)) return { o, items, res };
    }
  }

  async run(): Promise<SweepSummary> {
    const { config, store } = this.o;
    const statuses: StatusRow[] = [];
    await store.writeSweep(this.sweepRow('running'));
    try {
      if (config.tokenType === 'installation') {
        // An installation token has no user: GET /user answers 403, and there is no personal billing.
        this.summary.account = 'installation';
      } else {
        const me = await this.api.get('/user', { conditional: true });
        outcomeOf(me);
        if (me.status === 404)
          throw new UserError(
            `GET /user answered 404: api_url ${shownUrl(config.apiUrl)} does not lead to the API; give the API base (such as https://api.github.com, or https://HOST/api/v3 for an Enterprise Server) in api_url`,
          );
        if (me.status !== 200) throw new UpstreamError(`GET /user answered ${me.status}`);
        this.login = String((me.body as { login?: unknown }).login ?? '');
        this.summary.account = this.login;
      }

      const repos = [...config.targets.repos];
      const take = (list: RepoInfo[], filter = DEFAULT_ORG_FILTER) => {
        for (const repo of list)
          if (takesRepository(filter, repo) && !repos.includes(repo.full_name)) repos.push(repo.full_name);
      };
      if (config.targets.installation) {
        await this.guard(statuses, 'installation', 'installation_repositories', async () => {
          const r = await this.walk('/installation/repositories', {
            pick: (b) => (b as { repositories?: unknown[] })?.repositories ?? [],
          });
          this.note(statuses, 'installation', 'installation_repositories', r.o, message(r.res!));
          if (r.o.outcome === 'unavailable') {
            this.summary.notListed.push({ source: 'installation', status: r.o.status });
            this.log.info(
              `installation: no repositories listed, GET /installation/repositories answered ${r.o.status} (${message(r.res!) ?? 'the token is not an installation token'}); check that token_env holds a GitHub App installation token`,
            );
          }
          take(r.items as RepoInfo[]);
        });
      }
      for (const org of config.targets.orgs) {
        await this.guard(statuses, org, 'org_repositories', async () => {
          const r = await this.walk(`/orgs/${org}/repos?type=all`, {});
          this.note(statuses, org, 'org_repositories', r.o, message(r.res!));
          if (r.o.outcome === 'unavailable') {
            this.summary.notListed.push({ source: `organisation ${org}`, status: r.o.status });
            this.log.info(
              `organisation ${org}: no repositories listed, GET /orgs/${org}/repos answered ${r.o.status} (no such organisation, or the token cannot see it; a user's repositories go in targets.repos); check the name and the token's access`,
            );
          }
          take(r.items as RepoInfo[], config.targets.orgFilters[org]);
        });
      }
      await store.writeStatus(statuses.splice(0), this.iso());

      const owners = new Map<string, string>();
      this.log.info(
        `sweeping ${count(repos.length, 'repository', 'repositories')} as ${this.summary.account}`,
      );
      await pool(repos, config.concurrency, async (full) => {
        const info = await this.repository(full);
        if (info) owners.set(info.owner.login, info.owner.type ?? 'User');
        // Counted as they finish (several run at once), so the progress climbs 1, 2, 3 … to the total.
        const done = ++this.summary.repositories;
        const status = this.summary.notCollected.find((n) => n.repository === full)?.status;
        this.log.info(
          status === undefined
            ? `[${done}/${repos.length}] ${full} done`
            : `[${done}/${repos.length}] ${full}: nothing collected, GET /repos/${full} answered ${status} (no such repository, or the token cannot see it); check the name and the token's access`,
        );
      });

      for (const [owner, type] of [...owners].sort()) await this.packages(owner, type === 'Organization');
      if (config.billing && this.login) await this.billing();
      this.summary.status = 'complete';
    } catch (e) {
      if (e instanceof RateLimitError) this.summary.stopReason = e.message;
      else throw e;
    } finally {
      this.finish();
      await store.writeSweep(this.sweepRow(this.summary.status)).catch(() => {});
    }
    return this.summary;
  }

  private finish() {
    const s = this.api.stats;
    this.summary.finishedAt = this.iso();
    this.summary.apiCalls = s.calls;
    this.summary.notModified = s.notModified;
    this.summary.rateLimitWaits = s.waits;
    const core = s.rate.core;
    this.summary.rateLimit = core
      ? { limit: core.limit, remaining: core.remaining, reset: new Date(core.reset * 1000).toISOString() }
      : null;
    this.summary.durationSeconds =
      (Date.parse(this.summary.finishedAt) - Date.parse(this.summary.startedAt)) / 1000;
    this.summary.requestsByStatus = { ...s.byStatus };
    for (const [name, r] of Object.entries(s.tokens))
      this.summary.tokens[name] = { ...r, requests: s.byToken[name] ?? 0 };
    const d = this.summary.degraded;
    if (this.summary.status !== 'complete')
      d.push(`stopped early: ${this.summary.stopReason ?? 'incomplete'}`);
    if (s.waits > 0) d.push(`rate-limited: waited ${count(s.waits, 'time')}, ${s.waitedSeconds} s in all`);
    if (this.summary.errors.length > 0)
      d.push(`partial: ${count(this.summary.errors.length, 'collector error')}`);
  }

  private sweepRow(status: 'running' | 'complete' | 'incomplete') {
    return {
      id: this.summary.id,
      startedAt: this.summary.startedAt,
      finishedAt: status === 'running' ? null : this.summary.finishedAt,
      status,
      repositories: this.summary.repositories,
      apiCalls: this.api.stats.calls,
    };
  }

  private async repository(full: string): Promise<RepoInfo | undefined> {
    const { store } = this.o;
    const statuses: StatusRow[] = [];
    const res = await this.api.get(`/repos/${full}`, { conditional: true });
    const o = outcomeOf(res);
    this.note(statuses, full, 'repository', o, o.outcome === 'ok' ? null : message(res));
    if (o.outcome !== 'ok') {
      await store.writeStatus(statuses, this.iso());
      this.summary.notCollected.push({ repository: full, status: res.status });
      return undefined;
    }
    const info = res.body as RepoInfo;
    // The stargazer list is served to the repository's admins and collaborators. A collaborator with the read role
    // shows pull only, as anyone does on a public repository, so the list is asked everywhere and its own answer
    // tells (a 404 is no access). What the repository shows stands only when the list gives no answer at all.
    const p = info.permissions ?? {};
    let access = Boolean(
      p.admin ||
      p.maintain ||
      p.push ||
      (this.login !== '' && info.owner.login.toLowerCase() === this.login.toLowerCase()),
    );
    await this.guard(statuses, full, 'vcs_star', async () => {
      access = (await this.stars(full, statuses)) ?? access;
    });
    this.count(
      'vcs_repository',
      await store.writeRepository(
        {
          repository: full,
          owner: info.owner.login,
          name: info.name,
          ownerType: info.owner.type ?? 'User',
          stargazersCount: info.stargazers_count ?? 0,
          forksCount: info.forks_count ?? 0,
          openIssues: info.open_issues_count ?? 0,
          starListAccess: access,
          private: Boolean(info.private),
        },
        this.iso(),
      ),
    );

    await this.guard(statuses, full, 'vcs_star_day', () => this.starHistory(full, statuses));
    await this.guard(statuses, full, 'vcs_security_feature', () => this.security(full, info, statuses));
    await this.guard(statuses, full, 'participation', () => this.participation(full, statuses));
    await this.guard(statuses, full, 'punch_card', () => this.punchCard(full, statuses));
    for (const kind of ['views', 'clones'] as const) {
      await this.guard(statuses, full, `traffic_${kind}`, () => this.traffic(full, kind, statuses));
    }
    await this.guard(statuses, full, 'commits', () => this.commits(full, statuses));
    await this.guard(statuses, full, 'events', () => this.events(full, statuses));
    await store.writeStatus(statuses, this.iso());
    return info;
  }

  /**
   * Reads the stargazer list into vcs_star. Answers true when it was served, false when it was refused (the token
   * is neither admin nor collaborator: no rows are written, and those an earlier sweep wrote stay), undefined for
   * any other answer.
   */
  private async stars(full: string, statuses: StatusRow[]): Promise<boolean | undefined> {
    const r = await this.walk(`/repos/${full}/stargazers`, { accept: STAR_ACCEPT });
    const refused = r.o.outcome === 'unavailable';
    this.note(
      statuses,
      full,
      'vcs_star',
      r.o,
      r.o.outcome === 'ok' ? null : refused ? NO_STAR_LIST : message(r.res!),
    );
    if (r.o.outcome !== 'ok') return refused ? false : undefined;
    const rows: StarRow[] = [];
    for (const s of r.items as { starred_at?: string; user?: { login?: string } }[]) {
      const at = normaliseTimestamp(s.starred_at);
      if (!s.user?.login || !at) throw new UpstreamError('stargazer entry without login or starred_at');
      rows.push({ login: s.user.login, starredAt: at });
    }
    this.count('vcs_star', await this.o.store.writeStars(full, rows));
    return true;
  }

  private async starHistory(full: string, statuses: StatusRow[]) {
    const weeks = new Map<number, number[]>();
    let o: Outcomes = { outcome: 'ok', status: 200 };
    let detail: string | null = null;
    for (let page = 1; page <= HISTORY_MAX_PAGES; page++) {
      this.checkAbort();
      const res = await this.api.get(
        `/repos/${full}/stargazers/history?per_page=${HISTORY_PAGE_WEEKS}&page=${page}`,
        {
          conditional: true,
        },
      );
      o = outcomeOf(res);
      if (o.outcome !== 'ok') {
        detail = message(res);
        break;
      }
      if (!Array.isArray(res.body)) throw new UpstreamError('star history: expected a list of weeks');
      // A week repeated across pages (the week rolled over while paging) is merged: the later answer wins.
      for (const w of res.body.map(validateWeek)) weeks.set(w.week, w.days);
      if (res.body.length < HISTORY_PAGE_WEEKS) break;
    }
    this.note(statuses, full, 'vcs_star_day', o, detail);
    if (o.outcome !== 'ok') return;
    const rows = starDaysFromWeeks(weeks, laDate(this.now()));
    this.count('vcs_star_day', await this.o.store.writeStarDays(full, rows));
  }

  private async security(full: string, info: RepoInfo, statuses: StatusRow[]) {
    const rows: SecurityFeatureRow[] = [];
    const sa = info.security_and_analysis;
    const names = new Set(SETTINGS_FEATURES);
    if (sa && typeof sa === 'object') for (const k of Object.keys(sa)) names.add(k);
    for (const feature of [...names].sort()) {
      const st = sa?.[feature]?.status;
      rows.push({
        feature,
        state: st === 'enabled' ? 'enabled' : st === 'disabled' ? 'disabled' : 'unavailable',
        openAlerts: null,
      });
    }
    this.note(
      statuses,
      full,
      'security_settings',
      sa ? { outcome: 'ok', status: 200 } : { outcome: 'unavailable', status: 0 },
      sa ? null : 'security_and_analysis not shown to this token',
    );
    for (const [path, feature] of ALERT_FEATURES) {
      const r = await this.walk(`/repos/${full}/${path}?state=open`, {});
      this.note(statuses, full, feature, r.o, r.o.outcome === 'ok' ? null : message(r.res!));
      if (r.o.outcome === 'ok') rows.push({ feature, state: 'enabled', openAlerts: r.items.length });
      else if (r.o.outcome === 'unavailable') rows.push({ feature, state: 'unavailable', openAlerts: null });
      else return; // an unexpected answer: keep the previous rows rather than half of them
    }
    this.count('vcs_security_feature', await this.o.store.writeSecurityFeatures(full, rows));
  }

  private async participation(full: string, statuses: StatusRow[]) {
    const res = await this.api.get(`/repos/${full}/stats/participation`, { conditional: true });
    const o = outcomeOf(res);
    this.note(statuses, full, 'participation', o, o.outcome === 'ok' ? null : message(res));
    if (o.outcome !== 'ok') return;
    const b = res.body as { all?: unknown; owner?: unknown };
    if (!Array.isArray(b?.all) || !Array.isArray(b.owner))
      throw new UpstreamError('participation: expected all and owner lists');
    const all = b.all as unknown[];
    const owner = b.owner as unknown[];
    const rows = all.map((v, i) => ({
      weeksAgo: all.length - 1 - i,
      allCommits: int(v, 'commit count'),
      ownerCommits: int(owner[i] ?? 0, 'commit count'),
    }));
    this.count('vcs_participation', await this.o.store.writeParticipation(full, rows));
  }

  private async punchCard(full: string, statuses: StatusRow[]) {
    const res = await this.api.get(`/repos/${full}/stats/punch_card`, { conditional: true });
    const o = outcomeOf(res);
    this.note(statuses, full, 'punch_card', o, o.outcome === 'ok' ? null : message(res));
    if (o.outcome !== 'ok') return;
    if (!Array.isArray(res.body)) throw new UpstreamError('punch card: expected a list');
    const rows = (res.body as unknown[][]).map((t) => ({
      weekday: int(t[0], 'weekday'),
      hour: int(t[1], 'hour'),
      commits: int(t[2], 'commit count'),
    }));
    this.count('vcs_punch_card', await this.o.store.writePunchCard(full, rows));
  }

  private async traffic(full: string, kind: 'views' | 'clones', statuses: StatusRow[]) {
    const res = await this.api.get(`/repos/${full}/traffic/${kind}?per=day`, { conditional: true });
    const o = outcomeOf(res);
    this.note(statuses, full, `traffic_${kind}`, o, o.outcome === 'ok' ? null : message(res));
    if (o.outcome !== 'ok') return;
    const list = (res.body as Record<string, unknown>)?.[kind];
    if (!Array.isArray(list)) throw new UpstreamError(`traffic ${kind}: expected a ${kind} list`);
    // Recorded as told: a quiet repository's window may end weeks ago; nothing is shifted or filled in.
    const rows: TrafficRow[] = list.map((e: { timestamp?: string; count?: unknown; uniques?: unknown }) => {
      const ts = normaliseTimestamp(e.timestamp);
      if (!ts) throw new UpstreamError(`traffic ${kind}: bad timestamp`);
      return { kind, timestamp: ts, count: int(e.count, 'count'), uniques: int(e.uniques, 'uniques') };
    });
    this.count('vcs_traffic', await this.o.store.writeTraffic(full, rows));
  }

  private async commits(full: string, statuses: StatusRow[]) {
    const known = await this.o.store.knownCommits(full);
    // The cursor (kept in the state file) is the newest commit whose detail is stored: the listing starts at its
    // date, so a long history is listed once, not on every sweep until it catches up.
    const cursorKey = `commit_cursor:${full}`;
    const saved = await this.o.store.getState(cursorKey);
    const cursor = saved ? (JSON.parse(saved) as { sha: string; date: string }) : undefined;
    if (cursor) known.add(cursor.sha);
    const path = cursor
      ? `/repos/${full}/commits?since=${encodeURIComponent(cursor.date)}`
      : `/repos/${full}/commits`;
    const r = await this.walk(path, {
      stop: (page) => page.some((c) => known.has((c as { sha: string }).sha)),
    });
    // 409 is an empty repository: nothing to count.
    const o = r.res?.status === 409 ? { outcome: 'ok' as const, status: 409 } : r.o;
    this.note(statuses, full, 'commits', o, o.outcome === 'ok' ? null : message(r.res!));
    if (o.outcome !== 'ok') return;
    const fresh: string[] = [];
    for (const c of r.items as { sha: string }[]) {
      if (known.has(c.sha)) break;
      fresh.push(c.sha);
    }
    // Oldest first, so an interrupted or capped sweep leaves a gap only at the new end, which the next listing reaches.
    const todo = fresh.reverse().slice(0, this.o.config.commitsPerRepository);
    let batch: CommitRow[] = [];
    const flush = async () => {
      if (!batch.length) return;
      this.count('vcs_commit', await this.o.store.writeCommits(full, batch));
      const newest = batch[batch.length - 1];
      await this.o.store.setState(cursorKey, JSON.stringify({ sha: newest.sha, date: newest.committedAt }));
      batch = [];
    };
    for (const sha of todo) {
      this.checkAbort();
      const d = await this.api.get(`/repos/${full}/commits/${sha}`);
      if (d.status !== 200) {
        await flush();
        this.note(statuses, full, 'commit_detail', outcomeOf(d), message(d));
        return;
      }
      const c = d.body as {
        sha: string;
        author?: { login?: string } | null;
        commit?: { author?: { name?: string; date?: string } };
        stats?: { additions?: unknown; deletions?: unknown };
      };
      const at = normaliseTimestamp(c.commit?.author?.date);
      if (!at) throw new UpstreamError(`commit ${sha}: no author date`);
      batch.push({
        sha,
        author: c.author?.login ?? c.commit?.author?.name ?? null,
        committedAt: at,
        additions: int(c.stats?.additions ?? 0, 'additions'),
        deletions: int(c.stats?.deletions ?? 0, 'deletions'),
      });
      if (batch.length >= 50) await flush();
    }
    await flush();
  }

  private async events(full: string, statuses: StatusRow[]) {
    const r = await this.walk(`/repos/${full}/events`, { feed: true });
    this.note(statuses, full, 'events', r.o, r.o.outcome === 'ok' ? null : message(r.res!));
    if (r.o.outcome !== 'ok' && r.o.outcome !== 'end_of_data') return;
    const rows: EventRow[] = [];
    for (const e of r.items as {
      id?: unknown;
      type?: unknown;
      actor?: { login?: string };
      created_at?: string;
    }[]) {
      const at = normaliseTimestamp(e.created_at);
      if (e.id === undefined || !at) throw new UpstreamError('event without id or created_at');
      rows.push({
        id: String(e.id),
        type: String(e.type ?? ''),
        actor: e.actor?.login ?? null,
        createdAt: at,
      });
    }
    this.count('vcs_event', await this.o.store.writeEvents(full, rows));
  }

  private async packages(owner: string, isOrg: boolean) {
    const statuses: StatusRow[] = [];
    const base = isOrg ? `/orgs/${owner}` : `/users/${owner}`;
    for (const type of this.o.config.packageTypes as PackageType[]) {
      const collector = `packages_${type}`;
      await this.guard(statuses, owner, collector, async () => {
        const r = await this.walk(`${base}/packages?package_type=${type}`, {});
        this.note(statuses, owner, collector, r.o, r.o.outcome === 'ok' ? null : message(r.res!));
        if (r.o.outcome !== 'ok') return;
        const rows: PackageRow[] = [];
        for (const p of r.items as {
          name: string;
          visibility?: string;
          repository?: { full_name?: string } | null;
        }[]) {
          // Every version, paged: one listing per package (one call when it has at most 100 versions).
          const v = await this.walk(`${base}/packages/${type}/${encodeURIComponent(p.name)}/versions`, {});
          if (v.o.outcome !== 'ok') {
            this.note(statuses, `${owner}/${type}/${p.name}`, 'package_versions', v.o, message(v.res!));
            continue;
          }
          const versions = v.items as {
            id: number;
            name: string;
            created_at?: string;
          }[];
          rows.push({
            owner,
            packageType: type,
            name: p.name,
            repository: p.repository?.full_name ?? null,
            visibility: p.visibility ?? null,
            versions: versions.map((x) => ({
              versionId: int(x.id, 'version id'),
              version: String(x.name),
              createdAt: normaliseTimestamp(x.created_at) ?? null,
            })),
          });
        }
        this.count('vcs_package', await this.o.store.writePackages(rows));
      });
    }
    await this.o.store.writeStatus(statuses, this.iso());
  }

  private async billing() {
    const statuses: StatusRow[] = [];
    const key = `billing_gone:${this.login}`;
    await this.guard(statuses, this.login, 'billing_usage', async () => {
      const goneSince = await this.o.store.getState(key);
      if (goneSince) {
        // 410 is permanent: never asked again.
        this.note(
          statuses,
          this.login,
          'billing_usage',
          { outcome: 'gone', status: 410 },
          `gone since ${goneSince}; not retried`,
        );
        return;
      }
      const res = await this.api.get(`/users/${this.login}/settings/billing/usage`, { conditional: true });
      const o = outcomeOf(res);
      this.note(statuses, this.login, 'billing_usage', o, o.outcome === 'ok' ? null : message(res));
      if (o.outcome === 'gone') await this.o.store.setState(key, this.iso());
      if (o.outcome !== 'ok') return;
      const items = (res.body as { usageItems?: unknown })?.usageItems;
      if (!Array.isArray(items)) throw new UpstreamError('billing usage: expected usageItems');
      const rows: BillingUsageRow[] = items.map((u: Record<string, unknown>) => {
        // Documented as a date, answered as a full RFC 3339 timestamp: both are accepted.
        const date = normaliseTimestamp(u.date);
        if (!date) throw new UpstreamError(`billing usage: unreadable date ${JSON.stringify(u.date)}`);
        const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : null);
        return {
          date,
          product: String(u.product ?? ''),
          sku: String(u.sku ?? ''),
          quantity: num(u.quantity) ?? 0,
          unitType: typeof u.unitType === 'string' ? u.unitType : null,
          grossAmount: num(u.grossAmount),
          netAmount: num(u.netAmount),
          repository: typeof u.repositoryName === 'string' ? u.repositoryName : '',
        };
      });
      this.count('vcs_billing_usage', await this.o.store.writeBillingUsage(this.login, rows));
    });
    await this.o.store.writeStatus(statuses, this.iso());
  }

  async close() {
    await this.api.close();
  }
}

/** Runs one sweep over the configured targets and writes every record to the store. */
export async function sweep(options: SweepOptions): Promise<SweepSummary> {
  const s = new Sweeper(options);
  try {
    const summary = await s.run();
    await options.store.observeSweep?.(summary, s.api.stats.rate);
    return summary;
  } finally {
    await s.close();
  }
}
