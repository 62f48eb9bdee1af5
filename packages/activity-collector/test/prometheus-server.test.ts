import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fullRepo, spawnServe, startSim, tempDir, TOKEN, USER, world } from './helpers.js';

const PROM = process.env.COLLECTOR_TEST_PROM_URL;
const TARGET_PORT = Number(process.env.COLLECTOR_TEST_PROM_TARGET_PORT);
const SKIP =
  PROM && TARGET_PORT ? undefined : 'COLLECTOR_TEST_PROM_URL is not set (source .ci/prometheus.sh)';
if (SKIP && process.env.CI === 'true')
  throw new Error(
    'CI=true but COLLECTOR_TEST_PROM_URL is not set: the Prometheus scrape test must run in CI',
  );
if (SKIP) console.warn(`activity-collector Prometheus scrape test skipped: ${SKIP}`);

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

async function query(q: string): Promise<Sample[]> {
  const res = await fetch(`${PROM}/api/v1/query?query=${encodeURIComponent(q)}`);
  const body = (await res.json()) as { status: string; data: { result: Sample[] } };
  expect(body.status).toBe('success');
  return body.data.result;
}

/** Polls Prometheus until the query returns something (scrapes come every second; the machine may be slow). */
async function eventually(q: string): Promise<Sample[]> {
  for (let i = 0; i < 240; i++) {
    const r = await query(q);
    if (r.length) return r;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`Prometheus never returned ${q}`);
}

describe.skipIf(Boolean(SKIP))('a real Prometheus server scraping serve', () => {
  const dir = tempDir();

  it('holds the sweep, request, error, rate-limit and per-repository series, queried through its HTTP API', async () => {
    const sim = await startSim(
      world(
        [
          fullRepo('own', { forksCount: 7, openIssues: 11 }),
          // A punch card the collector cannot read: one collector error for the error counter.
          fullRepo('broken', { punchCard: [[9, 99, -1]] }),
        ],
        { billing: [] },
      ),
      { now: () => new Date() },
    );
    const f = join(dir, 'serve.json');
    writeFileSync(
      f,
      JSON.stringify({
        api_url: sim.url,
        token_env: 'SIM_TOKEN',
        targets: { repos: [`${USER}/own`, `${USER}/broken`] },
        stores: { prometheus: { port: TARGET_PORT } },
        state: join(dir, 'state.db'),
        packages: { types: ['npm'] },
        schedule: '1h',
      }),
    );
    const serve = spawnServe(f, ['--quiet']);
    try {
      const since = Date.now() / 1000;
      // A scrape after the sweep finished: the finished-time gauge is newer than the test's start.
      await eventually(
        `activity_collector_sweep_finished_seconds{job="activity-collector"} > ${Math.floor(since) - 1}`,
      );
      const value = async (q: string) => (await eventually(q)).map((s) => [s.metric, Number(s.value[1])]);

      expect(await value(`vcs_star_count{repository="${USER}/own"}`)).toMatchObject([[{}, 2]]);
      expect(await value(`vcs_repository_forks{repository="${USER}/own"}`)).toMatchObject([[{}, 7]]);
      expect(await value(`vcs_repository_open_issues{repository="${USER}/own"}`)).toMatchObject([[{}, 11]]);
      expect(
        await value(`vcs_security_feature{repository="${USER}/own",feature="secret_scanning"}`),
      ).toMatchObject([[{ state: 'enabled' }, 1]]);
      expect(await value('activity_collector_sweep_duration_seconds')).toHaveLength(1);
      const byStatus = Object.fromEntries(
        (await eventually('activity_collector_api_requests_total')).map((s) => [
          s.metric.status,
          Number(s.value[1]),
        ]),
      );
      expect(byStatus['200']).toBeGreaterThan(10);
      expect(byStatus['404']).toBeGreaterThan(0);
      expect(await value('activity_collector_collector_errors_total')).toMatchObject([
        [{ collector: 'punch_card' }, 1],
      ]);
      expect(await value('activity_collector_token_rate_limit_remaining')).toMatchObject([
        [{ token: 'SIM_TOKEN' }, sim.rateRemaining],
      ]);
      expect(await value('activity_collector_sweep_degraded')).toMatchObject([[{}, 1]]);

      // Every panel of the packaged Grafana dashboard is a query Prometheus accepts and answers with data.
      const dash = JSON.parse(
        readFileSync(new URL('../grafana/activity-collector.json', import.meta.url), 'utf8'),
      );
      for (const panel of dash.panels as { title: string; targets: { expr: string }[] }[]) {
        const expr = panel.targets[0].expr
          .replaceAll('$repository', '.*')
          .replaceAll('$__rate_interval', '1m');
        expect((await eventually(expr)).length, panel.title).toBeGreaterThan(0);
      }
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
    expect(serve.stderr()).not.toContain(TOKEN);
    // Each query may wait up to 120 s for a scrape: the suite's 30 s is too short on a loaded machine.
  }, 300_000);
});
