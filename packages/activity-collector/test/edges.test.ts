/**
 * What a user reads from the stores after the upstream changed between sweeps or in the middle of one, and the
 * edges of the configuration: the newest participation week, a security feature the upstream stops reporting, a
 * collector whose outcome changes, a week that changed while the history was paged, commits kept when a sweep is
 * cut short, and the exact limits of the schedule, the rate-limit wait and organisation name patterns.
 */
import { describe, expect, it } from 'vitest';
import {
  formatSummary,
  openPostgresStore,
  PrometheusStore,
  sweep,
  validateConfig,
  type Store,
  type SweepSummary,
} from '../src/index.js';
import {
  config,
  dump,
  fullRepo,
  NOW,
  PG_SKIP_REASON,
  PG_URL,
  pgSchema,
  runSweep,
  sqliteStore,
  star,
  startSim,
  TOKEN,
  USER,
  world,
} from './helpers.js';

const rowsOf = async (store: Store, table: string) =>
  (await dump(store, table, ['checked_at', 'swept_at'])).map((r) => JSON.parse(r) as Record<string, any>);

describe('records follow the upstream', () => {
  it('participation is filed newest week first: the last number of the list is this week (weeks_ago 0)', async () => {
    // 52 weekly counts, oldest first as the upstream gives them: 1 (52 weeks back) .. 52 (this week).
    const all = Array.from({ length: 52 }, (_, i) => i + 1);
    const owner = Array.from({ length: 52 }, (_, i) => (i === 51 ? 7 : 0));
    const sim = await startSim(world([fullRepo('own', { participation: { all, owner } })]));
    const { store } = await runSweep(sim, await sqliteStore());
    const rows = await rowsOf(store, 'vcs_participation');
    expect(rows.map((r) => r.weeks_ago).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 52 }, (_, i) => i),
    );
    const byWeeksAgo = Object.fromEntries(rows.map((r) => [r.weeks_ago, r]));
    expect(byWeeksAgo[0]).toMatchObject({ all_commits: 52, owner_commits: 7 });
    expect(byWeeksAgo[51]).toMatchObject({ all_commits: 1, owner_commits: 0 });
  });

  async function securityFeatureDropped(store: Store) {
    const repo = fullRepo('own', {
      securityAndAnalysis: {
        secret_scanning: 'enabled',
        secret_scanning_push_protection: 'disabled',
        secret_scanning_ai_detection: 'enabled',
      },
    });
    const sim = await startSim(world([repo]));
    await runSweep(sim, store);
    const features = async () =>
      Object.fromEntries((await rowsOf(store, 'vcs_security_feature')).map((r) => [r.feature, r.state]));
    expect((await features()).secret_scanning_ai_detection).toBe('enabled');
    // The upstream no longer reports the feature: it is not left standing as enabled.
    repo.securityAndAnalysis = { secret_scanning: 'enabled', secret_scanning_push_protection: 'enabled' };
    await runSweep(sim, store);
    expect(await features()).toEqual({
      advanced_security: 'unavailable',
      code_scanning_alerts: 'unavailable',
      dependabot_alerts: 'enabled',
      dependabot_security_updates: 'unavailable',
      secret_scanning: 'enabled',
      secret_scanning_alerts: 'enabled',
      secret_scanning_push_protection: 'enabled',
    });
  }

  it('SQLite: a security feature the upstream stops reporting leaves vcs_security_feature', async () => {
    await securityFeatureDropped(await sqliteStore());
  });

  describe.skipIf(!PG_URL)(`PostgreSQL${PG_SKIP_REASON ? ` (skipped: ${PG_SKIP_REASON})` : ''}`, () => {
    it('PostgreSQL: a security feature the upstream stops reporting leaves vcs_security_feature', async () => {
      const store = openPostgresStore(PG_URL!, pgSchema('dropped'));
      await store.init();
      try {
        await securityFeatureDropped(store);
      } finally {
        await store.close();
      }
    });
  });

  it('Prometheus: a collector whose outcome changed shows its new outcome only', async () => {
    const repo = fullRepo('own', { participation: 'computing' });
    const sim = await startSim(world([repo]));
    const store = new PrometheusStore();
    const statusOf = async () =>
      (await store.metrics())
        .split('\n')
        .filter(
          (l) => l.startsWith('activity_collector_collection_status{') && l.includes('"participation"'),
        );
    await runSweep(sim, store);
    expect(await statusOf()).toEqual([
      `activity_collector_collection_status{scope="${USER}/own",collector="participation",outcome="not_ready"} 1`,
    ]);
    repo.participation = { all: Array(52).fill(1), owner: Array(52).fill(0) };
    await runSweep(sim, store);
    expect(await statusOf()).toEqual([
      `activity_collector_collection_status{scope="${USER}/own",collector="participation",outcome="ok"} 1`,
    ]);
  });

  it('a week that changed while the history was paged is filed as its later page tells, so the days sum to the current stars', async () => {
    // One star a week for 40 weeks; the week rolls over after page 1, so page 2 repeats page 1's last week.
    const weekly = Array.from({ length: 40 }, (_, i) =>
      star(
        `w${i}`,
        new Date(Date.parse('2026-11-16T20:00:00Z') - i * 7 * 86_400_000).toISOString().replace('.000', ''),
      ),
    );
    const created = new Date(Date.parse('2026-11-16T20:00:00Z') - 39 * 7 * 86_400_000).toISOString();
    const repo = fullRepo('own', { createdAt: created, stars: weekly, historyRollover: true });
    const sim = await startSim(world([repo]));
    // Between the two pages, the stargazer of the repeated week (29 weeks back) unstars.
    let pages = 0;
    sim.onRequest = ({ path }) => {
      if (path.endsWith('/stargazers/history') && ++pages === 2)
        repo.stars = repo.stars!.filter((s) => s.login !== 'w29');
    };
    const { store, summary } = await runSweep(sim, await sqliteStore());
    sim.onRequest = undefined;
    expect(summary.errors).toEqual([]);
    expect(sim.calls(/\/own\/stargazers\/history$/).map((r) => r.query.page)).toEqual(['1', '2']);
    const days = await store.starDays(`${USER}/own`);
    expect(days.reduce((n, d) => n + d.stars, 0)).toBe(39);
    expect(days.find((d) => d.day === '2026-04-27')!.stars).toBe(0);
  });

  it('a sweep cut short during commit details keeps every full batch of 50, and the next sweep adds the rest', async () => {
    const commits = Array.from({ length: 120 }, (_, i) => ({
      sha: i.toString(16).padStart(40, 'a'),
      author: 'octo',
      // Newest first, as the upstream lists them: one an hour back from 2026-11-17 10:00 UTC.
      date: new Date(Date.parse('2026-11-17T10:00:00Z') - i * 3_600_000).toISOString().replace('.000', ''),
      additions: i,
      deletions: 1,
    }));
    const sim = await startSim(world([fullRepo('own', { commits })]));
    const store = await sqliteStore();
    const ac = new AbortController();
    let details = 0;
    sim.onRequest = ({ path }) => {
      if (/\/commits\/[0-9a-f]{40}$/.test(path) && ++details === 60) ac.abort();
    };
    await expect(runSweep(sim, store, {}, { signal: ac.signal })).rejects.toThrow(/aborted/);
    sim.onRequest = undefined;
    const kept = (await rowsOf(store, 'vcs_commit')).map((r) => r.sha).sort();
    // The oldest 50, detailed first, were written as one batch before the sweep stopped.
    expect(kept).toEqual(
      commits
        .slice(70)
        .map((c) => c.sha)
        .sort(),
    );
    const { summary } = await runSweep(sim, store);
    expect(summary.status).toBe('complete');
    expect(await rowsOf(store, 'vcs_commit')).toHaveLength(120);
  });
});

describe('upstream answers out of the ordinary', () => {
  it('a secondary limit without retry-after is waited out for 60 s, then retried', async () => {
    const sim = await startSim(world([fullRepo('own')]), {
      secondaryLimit: { pathIncludes: '/stargazers/history', times: 1 },
    });
    const { summary, waits } = await runSweep(sim, await sqliteStore());
    expect(waits).toEqual([60_000]);
    expect(summary.errors).toEqual([]);
    expect(sim.calls(/\/stargazers\/history$/).map((r) => r.status)).toEqual([403, 200]);
  });

  it('a star-history week whose total is not the sum of its days is a collector error that keeps the stored days', async () => {
    const repo = fullRepo('own');
    const sim = await startSim(world([repo]));
    const store = await sqliteStore();
    await runSweep(sim, store);
    const before = await dump(store, 'vcs_star_day');
    expect(before.length).toBeGreaterThan(0);
    repo.historyTotalOff = true;
    const { summary } = await runSweep(sim, store);
    expect(summary.errors).toEqual([
      {
        scope: `${USER}/own`,
        collector: 'vcs_star_day',
        message: expect.stringMatching(/^star history: week \d+ total \d+ is not the sum of its days$/),
      },
    ]);
    expect(summary.status).toBe('complete');
    expect(await dump(store, 'vcs_star_day')).toEqual(before);
  });
});

describe('what a sweep keeps going through', () => {
  it('star days end at today in Los Angeles, when the UTC date is already tomorrow', async () => {
    // 03:00 UTC on the 19th is 19:00 on the 18th in Los Angeles.
    const late = new Date('2026-11-19T03:00:00Z');
    const sim = await startSim(world([fullRepo('own')]), { now: () => late });
    const store = await sqliteStore();
    const summary = await sweep({ config: config(sim), token: TOKEN, store, now: () => late });
    expect(summary.errors).toEqual([]);
    const days = await store.starDays(`${USER}/own`);
    expect(days.at(-1)!.day).toBe('2026-11-18');
  });

  it('a package whose versions call fails is recorded as such, and the packages after it are still collected', async () => {
    const lib = (name: string) => ({
      owner: USER,
      type: 'npm',
      name,
      versions: [{ id: name.length, name: '1.0.0', created_at: '2026-10-01T00:00:00Z' }],
    });
    const w = world([fullRepo('own')], { packages: [lib('a-lib'), lib('b-lib')] });
    const sim = await startSim(w);
    // a-lib is deleted between the listing and its versions call.
    sim.onRequest = ({ path }) => {
      if (path.endsWith('/packages/npm/a-lib/versions'))
        w.packages = w.packages!.filter((p) => p.name !== 'a-lib');
    };
    const { store, summary } = await runSweep(sim, await sqliteStore(), { packages: { types: ['npm'] } });
    sim.onRequest = undefined;
    expect(summary.errors).toEqual([]);
    expect((await rowsOf(store, 'vcs_package')).map((r) => r.name)).toEqual(['b-lib']);
    const status = (await rowsOf(store, 'vcs_collection_status')).find(
      (r) => r.collector === 'package_versions',
    );
    expect(status).toMatchObject({ scope: `${USER}/npm/a-lib`, outcome: 'unavailable', http_status: 404 });
  });

  it('the state file keeps ETags of the lists and pages asked again, not a copy of every commit detail', async () => {
    const sim = await startSim(world([fullRepo('own')]));
    const { store } = await runSweep(sim, await sqliteStore());
    const urls = (await rowsOf(store, 'collector_http_cache')).map((r) => new URL(r.url).pathname);
    expect(urls).toContain(`/repos/${USER}/own/stargazers/history`);
    expect(urls.filter((u) => /\/commits\/[0-9a-f]{40}$/.test(u))).toEqual([]);
  });

  it('the summary names ten repositories not collected, then counts the rest', () => {
    const notCollected = Array.from({ length: 12 }, (_, i) => ({
      repository: `octo/gone-${i}`,
      status: 404,
    }));
    const summary: SweepSummary = {
      id: 's',
      startedAt: '2026-11-18T20:00:00Z',
      finishedAt: '2026-11-18T20:00:01Z',
      status: 'complete',
      account: USER,
      repositories: 12,
      records: {},
      unavailable: 12,
      notReady: 0,
      endOfData: 0,
      gone: 0,
      errors: [],
      notCollected,
      notListed: [],
      apiCalls: 13,
      notModified: 0,
      rateLimitWaits: 0,
      rateLimit: null,
      durationSeconds: 1,
      requestsByStatus: {},
      tokens: {},
      degraded: [],
    };
    const lines = formatSummary(summary).split('\n');
    const listed = lines.filter((l) => l.startsWith('    not collected: '));
    expect(listed).toEqual([
      ...notCollected.slice(0, 10).map((n) => `    not collected: ${n.repository} (404)`),
      '    not collected: 2 more',
    ]);
  });
});

describe('request headers', () => {
  it('every call names API version 2026-03-10 and asks for JSON; the stargazer list asks for its timestamps', async () => {
    const sim = await startSim(world([fullRepo('own')]));
    await runSweep(sim, await sqliteStore());
    expect(sim.requests.length).toBeGreaterThan(10);
    expect(sim.requests.filter((r) => r.apiVersion !== '2026-03-10')).toEqual([]);
    const list = (r: { path: string }) => r.path === `/repos/${USER}/own/stargazers`;
    expect(sim.requests.filter((r) => !list(r) && r.accept !== 'application/vnd.github+json')).toEqual([]);
    expect(sim.requests.filter(list).map((r) => r.accept)).toEqual(['application/vnd.github.star+json']);
  });
});

describe('several tokens', () => {
  it('a token answered "rate limit exceeded" hands the retry to another at once, without waiting', async () => {
    const second = 'ghp_second_TOKEN_66666';
    const sim = await startSim(
      world([fullRepo('own')], { extraTokens: [{ name: 'second', token: second, limit: 5000 }] }),
      { rateLimit: { limit: 5000, remaining: 0 } },
    );
    const waits: number[] = [];
    const summary = await sweep({
      config: config(sim),
      token: TOKEN,
      tokens: [
        { name: 'TOKEN_A', token: TOKEN },
        { name: 'TOKEN_B', token: second },
      ],
      store: await sqliteStore(),
      now: () => NOW,
      sleep: async (ms) => void waits.push(ms),
    });
    expect(summary.status).toBe('complete');
    expect(summary.errors).toEqual([]);
    expect(waits).toEqual([]);
    // The spent token was tried once; every answer after came with the other one.
    expect(sim.requests.filter((r) => r.tokenName === 'main').map((r) => r.status)).toEqual([403]);
    expect(sim.requests.slice(1).every((r) => r.tokenName === 'second')).toBe(true);
  });
});

describe('progress while waiting', () => {
  it('repositories swept at once that all meet the spent rate limit tell one wait, with its end, not one each', async () => {
    // Five requests left: GET /user and the four repositories' own GETs. Each of the four then waits for the
    // reset, after which the window holds 5,000.
    const names = ['one', 'two', 'three', 'four'];
    const sim = await startSim(world(names.map((n) => fullRepo(n))), {
      rateLimit: { limit: 5000, remaining: 5, resetInSeconds: 600 },
    });
    const lines: string[] = [];
    let waiting = 0;
    let release!: () => void;
    const allWaiting = new Promise<void>((r) => (release = r));
    const summary = await sweep({
      config: config(sim, { targets: { repos: names.map((n) => `${USER}/${n}`) }, concurrency: 4 }),
      token: TOKEN,
      store: await sqliteStore(),
      now: () => NOW,
      logger: { info: (l) => lines.push(l), warn: (l) => lines.push(l) },
      // The window resets once all four wait, so each of them has met the limit before any goes on.
      sleep: async () => {
        if (++waiting === 4) {
          sim.resetRateLimit();
          release();
        }
        await allWaiting;
      },
    });
    expect(waiting).toBeGreaterThanOrEqual(4);
    expect(summary.status).toBe('complete');
    const reset = new Date((Math.floor(NOW.getTime() / 1000) + 600) * 1000).toISOString();
    const told = lines.filter((l) => l.startsWith('waiting'));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(
      new RegExp(`^waiting 601 s: rate limit (\\(core\\) )?exhausted, until ${reset}$`),
    );
  });
});

describe('progress counts', () => {
  it('repositories are counted as they finish, so the progress climbs to the total whatever finishes first', async () => {
    const names = ['one', 'two', 'three', 'four'];
    // The first repository waits (a secondary limit on its stargazer list) until the three others are done.
    const sim = await startSim(world(names.map((n) => fullRepo(n))), {
      secondaryLimit: { pathIncludes: `/repos/${USER}/one/stargazers`, times: 1, retryAfter: 1 },
    });
    const lines: string[] = [];
    let othersDone!: () => void;
    const three = new Promise<void>((r) => (othersDone = r));
    await sweep({
      config: config(sim, { targets: { repos: names.map((n) => `${USER}/${n}`) }, concurrency: 4 }),
      token: TOKEN,
      store: await sqliteStore(),
      now: () => NOW,
      logger: {
        info: (l) => {
          lines.push(l);
          if (lines.filter((x) => x.endsWith(' done')).length === 3) othersDone();
        },
        warn: (l) => lines.push(l),
      },
      sleep: () => three,
    });
    const progress = lines.filter((l) => l.endsWith(' done'));
    expect(progress.map((l) => l.slice(0, 5))).toEqual(['[1/4]', '[2/4]', '[3/4]', '[4/4]']);
    expect(progress.at(-1)).toBe(`[4/4] ${USER}/one done`);
  });
});

describe('limits at their edges', () => {
  const base = { targets: { repos: ['octo/own'] }, stores: { sqlite: ':memory:' } };

  it('concurrency: 1 to 32 repositories at once; 0 and 33 are refused', () => {
    expect(validateConfig({ ...base, concurrency: 1 }).concurrency).toBe(1);
    expect(validateConfig({ ...base, concurrency: 32 }).concurrency).toBe(32);
    for (const n of [0, 33])
      expect(() => validateConfig({ ...base, concurrency: n })).toThrow(/an integer from 1 to 32/);
  });

  it('schedule: 10s is the shortest interval accepted; 9s is refused', () => {
    expect(validateConfig({ ...base, schedule: '10s' }).scheduleSeconds).toBe(10);
    expect(validateConfig({ ...base, schedule: { every: '10s' } }).scheduleSeconds).toBe(10);
    expect(() => validateConfig({ ...base, schedule: '9s' })).toThrow(/schedule.*at least 10s/s);
  });

  it('a rate-limit reset exactly max_wait_seconds away is waited for; one second more stops the sweep', async () => {
    // The wait is the time to the reset plus one second: 119 s to the reset is a wait of 120 s.
    const sim = await startSim(world([fullRepo('own')]), { rateLimit: { limit: 10, resetInSeconds: 119 } });
    const waited = await runSweep(sim, await sqliteStore(), { rate_limit: { max_wait_seconds: 120 } });
    expect(waited.summary.status).toBe('complete');
    expect(waited.waits.length).toBeGreaterThan(0);
    expect(waited.waits.every((ms) => ms === 120_000)).toBe(true);

    const sim2 = await startSim(world([fullRepo('own')]), { rateLimit: { limit: 10, resetInSeconds: 119 } });
    const stopped = await runSweep(sim2, await sqliteStore(), { rate_limit: { max_wait_seconds: 119 } });
    expect(stopped.summary.status).toBe('incomplete');
    expect(stopped.waits).toEqual([]);
  });

  it('organisation name patterns match whatever the case of pattern and name', async () => {
    const sim = await startSim(
      world([
        fullRepo('api-core', { owner: 'acme' }),
        fullRepo('API-Gateway', { owner: 'acme' }),
        fullRepo('api-sandbox', { owner: 'acme' }),
        fullRepo('web', { owner: 'acme' }),
      ]),
    );
    const store = await sqliteStore();
    const { summary } = await runSweep(sim, store, {
      targets: { orgs: [{ name: 'acme', include: ['Api-*'], exclude: ['*-SANDBOX'] }] },
      packages: { types: ['npm'] },
    });
    expect(summary.status).toBe('complete');
    expect((await rowsOf(store, 'vcs_repository')).map((r) => r.repository)).toEqual([
      'acme/API-Gateway',
      'acme/api-core',
    ]);
  });
});
