import { describe, expect, it } from 'vitest';
import { formatSummary } from '../src/index.js';
import { dump, fullRepo, runSweep, sqliteStore, startSim, USER, world } from './helpers.js';

const statusOf = async (store: Awaited<ReturnType<typeof sqliteStore>>, scope: string, collector: string) =>
  (await dump(store, 'vcs_collection_status', ['checked_at']))
    .map((r) => JSON.parse(r))
    .find((r) => r.scope === scope && r.collector === collector);

describe('errors table', () => {
  it('403/404 for a switched-off feature is unavailable and the sweep continues to the next repository', async () => {
    const sim = await startSim(
      world([
        fullRepo('a', { alerts: { dependabot: 'off', codeScanning: 'off', secretScanning: 'off' } }),
        fullRepo('b', { alerts: { dependabot: 1, codeScanning: 0, secretScanning: 0 } }),
      ]),
    );
    const { store, summary } = await runSweep(sim, await sqliteStore(), {
      targets: { repos: [`${USER}/a`, `${USER}/b`] },
      concurrency: 1,
    });
    expect(summary.status).toBe('complete');
    expect(summary.errors).toEqual([]);
    expect(await statusOf(store, `${USER}/a`, 'dependabot_alerts')).toMatchObject({
      outcome: 'unavailable',
      http_status: 403,
    });
    expect(await statusOf(store, `${USER}/a`, 'secret_scanning_alerts')).toMatchObject({
      outcome: 'unavailable',
      http_status: 404,
    });
    expect(await statusOf(store, `${USER}/b`, 'dependabot_alerts')).toMatchObject({ outcome: 'ok' });
    expect(summary.unavailable).toBe(3);
    expect(summary.repositories).toBe(2);
    // Nothing is recorded for a switched-off feature (no alert count, not even zero); the next repository, swept
    // after it (one at a time), has its counts.
    const alerts = (await dump(store, 'vcs_security_feature'))
      .map((r) => JSON.parse(r))
      .filter((r) => r.feature.endsWith('_alerts'))
      .map((r) => [r.repository, r.feature, r.state, r.open_alerts])
      .sort((x, y) => `${x[0]} ${x[1]}`.localeCompare(`${y[0]} ${y[1]}`));
    expect(alerts).toEqual([
      [`${USER}/a`, 'code_scanning_alerts', 'unavailable', null],
      [`${USER}/a`, 'dependabot_alerts', 'unavailable', null],
      [`${USER}/a`, 'secret_scanning_alerts', 'unavailable', null],
      [`${USER}/b`, 'code_scanning_alerts', 'enabled', 0],
      [`${USER}/b`, 'dependabot_alerts', 'enabled', 1],
      [`${USER}/b`, 'secret_scanning_alerts', 'enabled', 0],
    ]);
    const order = sim.requests.map((r) => r.path);
    expect(order.lastIndexOf(`/repos/${USER}/a/secret-scanning/alerts`)).toBeLessThan(
      order.indexOf(`/repos/${USER}/b/events`),
    );
    expect((await store.starDays(`${USER}/b`)).length).toBeGreaterThan(0);
  });

  it('a repository that answers 404 is unavailable, and the others are still collected', async () => {
    const sim = await startSim(world([fullRepo('here')]));
    const { store, summary } = await runSweep(sim, await sqliteStore(), {
      targets: { repos: [`${USER}/gone-missing`, `${USER}/here`] },
    });
    expect(summary.status).toBe('complete');
    expect(await statusOf(store, `${USER}/gone-missing`, 'repository')).toMatchObject({
      outcome: 'unavailable',
    });
    expect((await store.starDays(`${USER}/here`)).length).toBeGreaterThan(0);
  });

  it('422 on an activity feed is the end of data, keeping what came before', async () => {
    const events = Array.from({ length: 450 }, (_, i) => ({
      id: String(10_000 - i),
      type: 'WatchEvent',
      actor: `u${i}`,
      createdAt: new Date(Date.parse('2026-11-18T00:00:00Z') - i * 60_000).toISOString(),
    }));
    const sim = await startSim(world([fullRepo('own', { events })]));
    const { store, summary } = await runSweep(sim, await sqliteStore());
    const feed = sim.calls(`/repos/${USER}/own/events`);
    expect(feed.map((r) => [r.query.page, r.status])).toEqual([
      ['1', 200],
      ['2', 200],
      ['3', 200],
      ['4', 422],
    ]);
    expect(await dump(store, 'vcs_event')).toHaveLength(300);
    expect(await statusOf(store, `${USER}/own`, 'events')).toMatchObject({
      outcome: 'end_of_data',
      http_status: 422,
    });
    expect(summary.errors).toEqual([]);
    expect(summary.endOfData).toBe(1);
  });

  it('410 on billing is permanent: recorded, not retried in the sweep, never asked again', async () => {
    const sim = await startSim(world([fullRepo('own')], { billing: 'gone' }));
    const store = await sqliteStore();
    const first = await runSweep(sim, store);
    expect(sim.calls(`/users/${USER}/settings/billing/usage`)).toHaveLength(1);
    expect(first.summary.gone).toBe(1);
    expect(first.summary.errors).toEqual([]);
    const second = await runSweep(sim, store);
    expect(sim.calls(`/users/${USER}/settings/billing/usage`)).toHaveLength(1);
    expect(second.summary.gone).toBe(1);
    expect(await statusOf(store, USER, 'billing_usage')).toMatchObject({ outcome: 'gone', http_status: 410 });
  });

  it('304 answers reuse stored data; ETags are kept in the store', async () => {
    const sim = await startSim(world([fullRepo('own')]));
    const store = await sqliteStore();
    await runSweep(sim, store);
    const before = await Promise.all(
      ['vcs_star', 'vcs_star_day', 'vcs_traffic', 'vcs_event'].map((t) => dump(store, t)),
    );
    expect((await dump(store, 'collector_http_cache')).length).toBeGreaterThan(5);
    const n = sim.requests.length;
    const { summary } = await runSweep(sim, store);
    const second = sim.requests.slice(n);
    expect(second.filter((r) => r.status === 304).length).toBeGreaterThan(5);
    expect(summary.notModified).toBe(second.filter((r) => r.status === 304).length);
    const after = await Promise.all(
      ['vcs_star', 'vcs_star_day', 'vcs_traffic', 'vcs_event'].map((t) => dump(store, t)),
    );
    expect(after).toEqual(before);
  });
});

describe('rate limits', () => {
  it('reads x-ratelimit-* headers and reports what is left', async () => {
    const sim = await startSim(world([fullRepo('own')]));
    const { summary } = await runSweep(sim, await sqliteStore());
    expect(summary.rateLimit).toMatchObject({ limit: 5000, remaining: sim.rateRemaining });
    expect(summary.apiCalls).toBe(sim.requests.length);
  });

  it('waits for the reset when the limit is exhausted, then completes the sweep', async () => {
    const sim = await startSim(world([fullRepo('own')]), { rateLimit: { limit: 10, resetInSeconds: 120 } });
    const { summary, waits, store } = await runSweep(sim, await sqliteStore());
    expect(summary.status).toBe('complete');
    expect(summary.errors).toEqual([]);
    expect(summary.unavailable).toBe(1); // only code scanning, switched off in fullRepo
    expect(waits.length).toBeGreaterThan(0);
    for (const ms of waits) expect(ms).toBeGreaterThanOrEqual(120_000);
    expect((await dump(store, 'vcs_star')).length).toBe(2);
  });

  it('honours retry-after on a secondary limit and retries', async () => {
    const sim = await startSim(world([fullRepo('own')]), {
      secondaryLimit: { pathIncludes: '/stargazers/history', times: 2, retryAfter: 7 },
    });
    const { summary, waits } = await runSweep(sim, await sqliteStore());
    expect(waits).toEqual([7000, 7000]);
    expect(summary.errors).toEqual([]);
    expect(sim.calls(/\/stargazers\/history$/).map((r) => r.status)).toEqual([403, 403, 200]);
  });

  it('stops cleanly (not a crash) when the reset is further away than rate_limit.max_wait_seconds', async () => {
    const sim = await startSim(world([fullRepo('own')]), { rateLimit: { limit: 6, resetInSeconds: 3000 } });
    const store = await sqliteStore();
    const { summary, waits } = await runSweep(sim, store, { rate_limit: { max_wait_seconds: 60 } });
    expect(waits).toEqual([]);
    expect(summary.status).toBe('incomplete');
    expect(summary.stopReason).toMatch(
      /^upstream rate limit exhausted until \S+ \(3001 s\), longer than rate_limit\.max_wait_seconds \(60\); the next sweep continues$/,
    );
    // Stopped at its first request: the summary says no record was written rather than leaving the heading bare.
    const spent = await startSim(world([fullRepo('own')]), {
      rateLimit: { limit: 5000, remaining: 0, resetInSeconds: 3000 },
    });
    const first = await runSweep(spent, await sqliteStore(), { rate_limit: { max_wait_seconds: 60 } });
    expect(first.summary.status).toBe('incomplete');
    expect(formatSummary(first.summary).split('\n')).toContain('  records written: none');
    const sweeps = (await dump(store, 'vcs_sweep')).map((r) => JSON.parse(r));
    expect(sweeps.map((s) => s.status)).toEqual(['incomplete']);
  });
});
