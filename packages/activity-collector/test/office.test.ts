import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStores, sweep, validateConfig, type SimRepo } from '../src/index.js';
import {
  config,
  dump,
  fullRepo,
  NOW,
  runSweep,
  spawnServe,
  sqliteStore,
  star,
  startSim,
  tempDir,
  TOKEN,
  USER,
  world,
} from './helpers.js';

function commit(sha: string, date: string) {
  return { sha: sha.padEnd(40, '0'), author: 'dev', date, additions: 1, deletions: 1 };
}

describe('a program office running the collector for a year', () => {
  const dir = tempDir();

  it('with only Prometheus configured, a restarted collector asks again only what could have changed', async () => {
    const repo = fullRepo('own');
    const sim = await startSim(
      world([repo, fullRepo('theirs', { owner: 'others', permission: 'read' })], {
        billing: 'gone',
        packages: [
          {
            owner: USER,
            type: 'npm',
            name: 'lib',
            versions: [{ id: 1, name: '1.0.0', created_at: '2026-10-01T00:00:00Z' }],
          },
        ],
      }),
    );
    const doc = {
      api_url: sim.url,
      targets: { repos: [`${USER}/own`, 'others/theirs'] },
      stores: { prometheus: { port: 0 } },
      state: join(dir, 'state.db'),
      packages: { types: ['npm'] },
    };
    const once = async () => {
      // Each sweep opens the stores afresh, as a restarted process does: Prometheus starts empty.
      const { store, prometheus } = await openStores(validateConfig(doc));
      try {
        const summary = await sweep({ config: validateConfig(doc), token: TOKEN, store, now: () => NOW });
        return { summary, text: await prometheus!.metrics() };
      } finally {
        await store.close();
      }
    };
    const first = await once();
    expect(first.summary.status).toBe('complete');
    expect(sim.calls(/\/commits\/[0-9a-f]{40}$/)).toHaveLength(6);
    expect(sim.calls(`/users/${USER}/settings/billing/usage`)).toHaveLength(1);

    const mark = sim.requests.length;
    const second = await once();
    const again = sim.requests.slice(mark);
    expect(second.summary.status).toBe('complete');
    // No commit detail twice, no 410 asked again, and every answer that carried an ETag came back 304.
    expect(again.filter((r) => /\/commits\/[0-9a-f]{40}$/.test(r.path))).toEqual([]);
    expect(again.filter((r) => r.path.includes('/settings/billing/'))).toEqual([]);
    // The only full answers: each repository's commit listing, asked from the cursor for the first time.
    expect(
      again
        .filter((r) => r.status === 200)
        .map((r) => `${r.path}?since=${r.query.since}`)
        .sort(),
    ).toEqual([
      `/repos/${USER}/own/commits?since=2026-11-17T10:00:00Z`,
      '/repos/others/theirs/commits?since=2026-11-17T10:00:00Z',
    ]);
    expect(again.filter((r) => r.status === 304).every((r) => r.conditional)).toBe(true);
    expect(again.filter((r) => r.status === 304).length).toBeGreaterThan(10);
    // The stored bodies refill the restarted Prometheus store.
    expect(second.text).toContain(`vcs_star_count{repository="${USER}/own"} 2`);
    expect(second.text).toContain(
      `vcs_security_feature{repository="${USER}/own",feature="secret_scanning",state="enabled"} 1`,
    );

    // Nothing changed upstream: a third sweep is answered 304 throughout (free against the rate limit).
    const mark3 = sim.requests.length;
    await once();
    const quiet = sim.requests.slice(mark3);
    expect(quiet.filter((r) => r.status === 200)).toEqual([]);
    expect(
      quiet.filter((r) => /\/commits\/[0-9a-f]{40}$/.test(r.path) || r.path.includes('/billing/')),
    ).toEqual([]);

    // A new commit: the listing starts at the cursor's date and only the new commit's detail is fetched.
    repo.commits!.unshift(commit('c4', '2026-11-18T09:00:00Z'));
    const mark2 = sim.requests.length;
    await once();
    const third = sim.requests.slice(mark2);
    expect(third.filter((r) => /\/commits\/[0-9a-f]{40}$/.test(r.path)).map((r) => r.path)).toEqual([
      `/repos/${USER}/own/commits/${'c4'.padEnd(40, '0')}`,
    ]);
    const listing = third.find((r) => r.path === `/repos/${USER}/own/commits`)!;
    expect(listing.query.since).toBe('2026-11-17T10:00:00Z');
  });

  it('a GitHub App installation token sweeps the installation repositories without GET /user', async () => {
    const appToken = 'ghs_installationTOKEN_0987654321';
    const sim = await startSim(
      world(
        [
          fullRepo('a', { owner: 'acme' }),
          fullRepo('b', { owner: 'acme' }),
          fullRepo('c', { owner: 'acme' }),
        ],
        {
          extraTokens: [
            { name: 'app', token: appToken, installation: true, repositories: ['acme/a', 'acme/b'] },
          ],
        },
      ),
    );
    const store = await sqliteStore();
    const summary = await sweep({
      config: config(sim, {
        token_type: 'installation',
        targets: { installation: true },
        packages: { types: ['npm'] },
      }),
      token: appToken,
      tokens: [{ name: 'APP_TOKEN', token: appToken }],
      store,
      now: () => NOW,
    });
    expect(summary.status).toBe('complete');
    expect(summary.errors).toEqual([]);
    expect(sim.calls('/user')).toEqual([]);
    expect(sim.calls('/installation/repositories')).toHaveLength(1);
    expect(sim.requests.every((r) => r.tokenName === 'app' || r.path.endsWith('/stargazers/history'))).toBe(
      true,
    );
    expect((await dump(store, 'vcs_repository')).map((r) => JSON.parse(r).repository)).toEqual([
      'acme/a',
      'acme/b',
    ]);
    expect((await dump(store, 'vcs_star')).length).toBe(4);
    expect(sim.calls(/billing/)).toEqual([]);
  });

  it('two tokens share the load by their remaining rate limit', async () => {
    const repos: SimRepo[] = Array.from({ length: 4 }, (_, i) => fullRepo(`r${i}`));
    const sim = await startSim(
      world(repos, {
        extraTokens: [{ name: 'second', token: 'ghp_second_TOKEN_55555', remaining: 4060, limit: 5000 }],
      }),
      { rateLimit: { limit: 5000, remaining: 4000 } },
    );
    const store = await sqliteStore();
    const summary = await sweep({
      config: config(sim, { targets: { repos: repos.map((r) => `${USER}/${r.name}`) }, concurrency: 1 }),
      token: TOKEN,
      tokens: [
        { name: 'TOKEN_A', token: TOKEN },
        { name: 'TOKEN_B', token: 'ghp_second_TOKEN_55555' },
      ],
      store,
      now: () => NOW,
    });
    expect(summary.status).toBe('complete');
    const byToken = (n: string) => sim.requests.filter((r) => r.tokenName === n).length;
    // The second token starts 60 ahead: it carries the first 60 or so calls alone, then they take turns.
    expect(byToken('second')).toBeGreaterThan(byToken('main'));
    expect(byToken('main')).toBeGreaterThan(0);
    expect(Math.abs(sim.remainingOf('main') - sim.remainingOf('second'))).toBeLessThanOrEqual(2);
    expect(summary.tokens.TOKEN_A.remaining).toBe(sim.remainingOf('main'));
    expect(summary.tokens.TOKEN_B.remaining).toBe(sim.remainingOf('second'));
    expect(summary.rateLimitWaits).toBe(0);
  });

  it('a stargazer list that answers 404 is unavailable, not a failure, and writes no vcs_star rows (REST call asserted)', async () => {
    const sim = await startSim(world([fullRepo('own', { starListHidden: true })]));
    const store = await sqliteStore();
    const { summary } = await runSweep(sim, store, { packages: { types: ['npm'] } });
    expect(summary.status).toBe('complete');
    expect(summary.errors).toEqual([]);
    const list = sim.calls(`/repos/${USER}/own/stargazers`);
    expect(list.length).toBe(1);
    expect(list[0]).toMatchObject({ status: 404, authorized: true });
    expect(await dump(store, 'vcs_star')).toEqual([]);
    expect((await dump(store, 'vcs_star_day')).length).toBeGreaterThan(0);
    const status = (await dump(store, 'vcs_collection_status', ['checked_at']))
      .map((r) => JSON.parse(r))
      .find((r) => r.collector === 'vcs_star');
    expect(status).toMatchObject({ outcome: 'unavailable', http_status: 404 });
  });

  it('an organisation repository without stargazer-list access gets stars per day and nobody named', async () => {
    const sim = await startSim(
      world([
        fullRepo('theirs', {
          owner: 'others',
          permission: 'read',
          stars: [star('carol', '2026-10-01T12:00:00Z'), star('dave', '2026-11-02T12:00:00Z')],
        }),
      ]),
    );
    const store = await sqliteStore();
    const { summary } = await runSweep(sim, store, {
      targets: { orgs: ['others'] },
      packages: { types: ['npm'] },
    });
    expect(summary.errors).toEqual([]);
    expect(sim.calls('/repos/others/theirs/stargazers').map((r) => r.status)).toEqual([404]);
    expect(await dump(store, 'vcs_star')).toEqual([]);
    const days = (await dump(store, 'vcs_star_day')).map((r) => JSON.parse(r));
    expect(days.every((d) => d.repository === 'others/theirs')).toBe(true);
    expect(days.reduce((n, d) => n + d.stars, 0)).toBe(2);
  });

  it('organisation filters skip forks, archived and disabled repositories and follow name patterns', async () => {
    const sim = await startSim(
      world([
        fullRepo('api-core', { owner: 'acme' }),
        fullRepo('api-fork', { owner: 'acme', fork: true }),
        fullRepo('api-old', { owner: 'acme', archived: true }),
        fullRepo('api-off', { owner: 'acme', disabled: true }),
        fullRepo('api-sandbox', { owner: 'acme' }),
        fullRepo('web', { owner: 'acme' }),
        fullRepo('web-fork', { owner: 'others', fork: true }),
      ]),
    );
    const store = await sqliteStore();
    const { summary } = await runSweep(sim, store, {
      targets: {
        orgs: [
          { name: 'acme', forks: false, archived: false, include: ['api-*'], exclude: ['*-sandbox'] },
          'others',
        ],
      },
      packages: { types: ['npm'] },
    });
    expect(summary.status).toBe('complete');
    expect((await dump(store, 'vcs_repository')).map((r) => JSON.parse(r).repository)).toEqual([
      'acme/api-core',
      'others/web-fork',
    ]);
    expect(sim.calls(/^\/repos\/acme\/(api-fork|api-old|api-off|api-sandbox|web)/)).toEqual([]);
  });

  it('every package version is collected, paged', async () => {
    const versions = Array.from({ length: 250 }, (_, i) => ({
      id: i + 1,
      name: `1.0.${i}`,
      created_at: '2026-10-01T00:00:00Z',
    }));
    const sim = await startSim(
      world([fullRepo('own')], { packages: [{ owner: USER, type: 'npm', name: 'big', versions }] }),
    );
    const store = await sqliteStore();
    await runSweep(sim, store, { packages: { types: ['npm'] } });
    expect(await dump(store, 'vcs_package_version')).toHaveLength(250);
    expect(sim.calls(`/users/${USER}/packages/npm/big/versions`).map((r) => r.query.page)).toEqual([
      '1',
      '2',
      '3',
    ]);
  });

  it('serve: /health says degraded, and why, after a sweep stopped by the rate limit', async () => {
    const sim = await startSim(world([fullRepo('own'), fullRepo('two')]), {
      rateLimit: { limit: 5000, remaining: 6, resetInSeconds: 3600 },
      // The CLI runs on the real clock, so the reset an hour away must be on it too.
      now: () => new Date(),
    });
    const f = join(dir, 'serve-degraded.json');
    writeFileSync(
      f,
      JSON.stringify({
        api_url: sim.url,
        token_env: 'SIM_TOKEN',
        targets: { repos: [`${USER}/own`, `${USER}/two`] },
        stores: { prometheus: { port: 0 } },
        state: join(dir, 'serve-state.db'),
        rate_limit: { max_wait_seconds: 60 },
        schedule: '1h',
      }),
    );
    const serve = spawnServe(f);
    const url = await serve.until(/sweep (complete|incomplete)/);
    const stderr = serve.stderr();
    expect(url, stderr).toBeDefined();
    const res = await fetch(`${url}/health`);
    expect(res.status).toBe(200);
    const health = await res.json();
    expect(health.status, stderr).toBe('degraded');
    expect(health.reasons.join(' ')).toMatch(/stopped early: upstream rate limit exhausted/);
    expect(await (await fetch(`${url}/metrics`)).text()).toContain('activity_collector_sweep_degraded 1');
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(serve.stderr()).not.toContain(TOKEN);
  });
});
