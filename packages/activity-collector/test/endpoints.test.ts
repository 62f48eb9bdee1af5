import { describe, expect, it } from 'vitest';
import { dump, fullRepo, runSweep, sqliteStore, star, startSim, TOKEN, USER, world } from './helpers.js';

const NEVER_CALLED = [
  /\/stats\/code_frequency$/,
  /\/stats\/contributors$/,
  /\/settings\/billing\/(actions|packages|shared-storage)$/,
  /^\/user\/settings\/billing\/usage$/,
  /\/actions\/workflows\/[^/]+\/timing$/,
  /^\/graphql$/,
  /^\/user\/installations$/,
  // Organisation and enterprise only: custom repository properties, classic projects, cost centres, the audit log.
  /\/properties(\/|$)/,
  /(^|\/)projects(\/|$)/,
  /\/audit-log$/,
  /cost-centers/,
  /^\/enterprises\//,
];

async function direct(url: string, path: string, init: RequestInit = {}) {
  const res = await fetch(url + path, {
    ...init,
    headers: { authorization: `Bearer ${TOKEN}`, ...init.headers },
  });
  const text = await res.text();
  return { status: res.status, text, headers: res.headers };
}

describe('endpoint table', () => {
  const repos = [
    fullRepo('own', {
      stars: [star('alice', '2026-09-03T10:11:12Z'), star('bob', '2026-11-10T07:30:00Z')],
    }),
    fullRepo('admin-repo', { owner: 'acme', ownerType: 'Organization', permission: 'admin' }),
    fullRepo('theirs', {
      owner: 'others',
      ownerType: 'Organization',
      permission: 'read',
      stars: [star('carol', '2026-10-01T12:00:00Z'), star('dave', '2026-10-01T13:00:00Z')],
    }),
    fullRepo('computing', { participation: 'computing', punchCard: 'computing' }),
  ];
  const setup = async () => {
    const sim = await startSim(
      world(repos, {
        packages: [
          {
            owner: USER,
            type: 'npm',
            name: '@octo/lib',
            repository: `${USER}/own`,
            versions: [
              { id: 11, name: '1.0.0', created_at: '2026-10-01T00:00:00Z' },
              { id: 12, name: '1.1.0', created_at: '2026-11-01T00:00:00Z' },
            ],
          },
          {
            owner: USER,
            type: 'container',
            name: 'img',
            versions: [{ id: 21, name: 'sha256:ab', created_at: '2026-10-05T00:00:00Z' }],
          },
        ],
        billing: [
          {
            date: '2026-11-17T08:30:05-08:00',
            product: 'actions',
            sku: 'actions_linux',
            quantity: 120,
            unitType: 'minutes',
            pricePerUnit: 0.008,
            grossAmount: 0.96,
            discountAmount: 0.96,
            netAmount: 0,
            repositoryName: `${USER}/own`,
          },
          {
            date: '2026-11-16',
            product: 'packages',
            sku: 'packages_storage',
            quantity: 1.5,
            unitType: 'GigabyteHours',
            pricePerUnit: 0,
            grossAmount: 0,
            discountAmount: 0,
            netAmount: 0,
          },
        ],
      }),
    );
    const store = await sqliteStore();
    const run = await runSweep(sim, store, {
      targets: { repos: [`${USER}/own`, `${USER}/computing`], orgs: ['acme', 'others'] },
      packages: { types: ['npm', 'container'] },
    });
    return { sim, store, ...run };
  };
  let ctx: Awaited<ReturnType<typeof setup>>;
  it('sweeps the targets (orgs resolved to repositories) without a failure', async () => {
    ctx = await setup();
    expect(ctx.summary.status).toBe('complete');
    expect(ctx.summary.errors).toEqual([]);
    expect(ctx.summary.repositories).toBe(4);
    expect(ctx.sim.calls('/orgs/acme/repos')).toHaveLength(1);
  });

  it('writes vcs_star_day for every collected repository, with or without stargazer-list access', async () => {
    const swept = ['acme/admin-repo', `${USER}/computing`, `${USER}/own`, 'others/theirs'];
    const days = (await dump(ctx.store, 'vcs_star_day')).map((r) => JSON.parse(r));
    expect([...new Set(days.map((d) => d.repository))].sort()).toEqual(swept);
    for (const repo of swept) {
      const perDay = days.filter((d) => d.repository === repo);
      expect(
        perDay.reduce((n, d) => n + d.stars, 0),
        repo,
      ).toBe(2);
      expect(perDay.at(-1).day, repo).toBe('2026-11-18');
    }
    // others/theirs, reached through targets.orgs without stargazer-list access, names nobody; the
    // repositories with access do.
    const named = new Set((await dump(ctx.store, 'vcs_star')).map((r) => JSON.parse(r).repository));
    expect(named.has(`${USER}/own`)).toBe(true);
    expect(named.has('others/theirs')).toBe(false);
  });

  it('never calls the endpoints that give nothing', () => {
    for (const re of NEVER_CALLED) expect(ctx.sim.calls(re), String(re)).toEqual([]);
    // Every call, the public star history included, is a GET with `Authorization: Bearer <token>` (the simulated
    // upstream counts a request authorized only when that header carries the world's token).
    expect(ctx.sim.requests.length).toBeGreaterThan(40);
    expect(ctx.sim.requests.filter((r) => r.method !== 'GET' || !r.authorized)).toEqual([]);
  });

  it('the never-called statistics answer 202 with an empty body indefinitely (simulated quirk)', async () => {
    for (let i = 0; i < 3; i++) {
      for (const p of ['code_frequency', 'contributors']) {
        const r = await direct(ctx.sim.url, `/repos/${USER}/own/stats/${p}`);
        expect([r.status, r.text]).toEqual([202, '']);
      }
    }
    expect((await direct(ctx.sim.url, `/users/${USER}/settings/billing/actions`)).status).toBe(410);
    expect((await direct(ctx.sim.url, `/users/${USER}/settings/billing/shared-storage`)).status).toBe(410);
    expect((await direct(ctx.sim.url, '/user/settings/billing/usage')).status).toBe(404);
    expect((await direct(ctx.sim.url, '/user/installations')).status).toBe(403);
    const timing = await direct(ctx.sim.url, `/repos/${USER}/own/actions/workflows/7/timing`);
    expect(JSON.parse(timing.text)).toEqual({ billable: {} });
  });

  it('added/removed lines come per commit from the commits collector, attributed and dated', async () => {
    expect(await dump(ctx.store, 'vcs_commit', ['repository'])).toContain(
      JSON.stringify({
        additions: 20,
        author: 'dev',
        committed_at: '2026-11-16T10:00:00Z',
        deletions: 2,
        sha: 'c2'.padEnd(40, '0'),
      }),
    );
    expect(ctx.sim.calls(new RegExp(`^/repos/${USER}/own/commits/`))).toHaveLength(3);
  });

  it('participation and punch card are used (200) and 202 is recorded as not ready', async () => {
    const part = await dump(ctx.store, 'vcs_participation');
    expect(part.filter((r) => r.includes(`"${USER}/own"`))).toHaveLength(52);
    expect(part.some((r) => r.includes('computing'))).toBe(false);
    const punch = await dump(ctx.store, 'vcs_punch_card');
    expect(punch).toContain(JSON.stringify({ commits: 5, hour: 14, repository: `${USER}/own`, weekday: 3 }));
    expect(punch.some((r) => r.includes('computing'))).toBe(false);
    const status = await dump(ctx.store, 'vcs_collection_status', ['checked_at']);
    expect(status).toContain(
      JSON.stringify({
        collector: 'participation',
        detail: null,
        http_status: 202,
        outcome: 'not_ready',
        scope: `${USER}/computing`,
      }),
    );
    expect(status).toContain(
      JSON.stringify({
        collector: 'punch_card',
        detail: null,
        http_status: 202,
        outcome: 'not_ready',
        scope: `${USER}/computing`,
      }),
    );
    expect(ctx.summary.notReady).toBe(2);
    // the sweep went on: the computing repository still has its stars per day
    expect((await ctx.store.starDays(`${USER}/computing`)).length).toBeGreaterThan(0);
  });

  it('billing usage comes from /users/<login>/settings/billing/usage, full timestamps accepted as dates', async () => {
    expect(ctx.sim.calls(`/users/${USER}/settings/billing/usage`)).toHaveLength(1);
    const rows = await dump(ctx.store, 'vcs_billing_usage');
    // A full RFC 3339 timestamp in the field documented as a date is kept to the second (as UTC), not cut to its day;
    // a plain date still reads as that day.
    expect(rows.map((r) => JSON.parse(r).date)).toEqual(['2026-11-16T00:00:00Z', '2026-11-17T16:30:05Z']);
    expect(JSON.parse(rows[1])).toMatchObject({ product: 'actions', sku: 'actions_linux', quantity: 120 });
  });

  it('packages come from REST with exactly one versions call per package', async () => {
    expect(ctx.sim.calls(`/users/${USER}/packages/npm/%40octo%2Flib/versions`)).toHaveLength(1);
    expect(ctx.sim.calls(`/users/${USER}/packages/container/img/versions`)).toHaveLength(1);
    expect(ctx.sim.calls(/\/versions$/)).toHaveLength(2);
    expect(await dump(ctx.store, 'vcs_package')).toEqual([
      JSON.stringify({
        name: '@octo/lib',
        owner: USER,
        package_type: 'npm',
        repository: `${USER}/own`,
        version_count: 2,
        visibility: 'public',
      }),
      JSON.stringify({
        name: 'img',
        owner: USER,
        package_type: 'container',
        repository: null,
        version_count: 1,
        visibility: 'public',
      }),
    ]);
    expect(await dump(ctx.store, 'vcs_package_version')).toHaveLength(3);
    // GraphQL's package listing says zero while REST lists them (simulated quirk)
    const gql = await direct(ctx.sim.url, '/graphql', {
      method: 'POST',
      body: JSON.stringify({
        query:
          'query($owner:String!,$name:String!){repository(owner:$owner,name:$name){packages{totalCount}}}',
        variables: { owner: USER, name: 'own' },
      }),
    });
    expect(JSON.parse(gql.text).data.repository.packages.totalCount).toBe(0);
  });

  it('traffic is recorded as told, even a window that ended weeks ago', async () => {
    const rows = (await dump(ctx.store, 'vcs_traffic')).map((r) => JSON.parse(r));
    const own = rows.filter((r) => r.repository === `${USER}/own`);
    expect(own.map((r) => [r.kind, r.timestamp, r.count]).sort()).toEqual([
      ['clones', '2026-10-02T00:00:00Z', 1],
      ['views', '2026-10-01T00:00:00Z', 5],
      ['views', '2026-10-02T00:00:00Z', 3],
    ]);
    // without push access traffic is unavailable, and the sweep went on
    expect(rows.some((r) => r.repository === 'others/theirs')).toBe(false);
  });

  it('security features tell enabled, disabled and unavailable apart (no alerts vs no data)', async () => {
    const rows = (await dump(ctx.store, 'vcs_security_feature')).map((r) => JSON.parse(r));
    const own = Object.fromEntries(
      rows.filter((r) => r.repository === `${USER}/own`).map((r) => [r.feature, [r.state, r.open_alerts]]),
    );
    expect(own).toEqual({
      advanced_security: ['unavailable', null],
      code_scanning_alerts: ['unavailable', null],
      dependabot_alerts: ['enabled', 2],
      dependabot_security_updates: ['unavailable', null],
      secret_scanning: ['enabled', null],
      secret_scanning_alerts: ['enabled', 0],
      secret_scanning_push_protection: ['disabled', null],
    });
    const theirs = rows.filter((r) => r.repository === 'others/theirs');
    expect(theirs.length).toBe(7);
    expect(theirs.every((r) => r.state === 'unavailable')).toBe(true);
  });

  it('activity feed events are stored', async () => {
    expect((await dump(ctx.store, 'vcs_event')).filter((r) => r.includes(`"${USER}/own"`))).toHaveLength(2);
  });
});

describe('star records by access', () => {
  it('writes vcs_star on own and administered-organisation repositories, to the second', async () => {
    const sim = await startSim(
      world([
        fullRepo('own'),
        fullRepo('admin-repo', { owner: 'acme', ownerType: 'Organization', permission: 'admin' }),
      ]),
    );
    const { store } = await runSweep(sim, await sqliteStore(), {
      targets: { repos: [`${USER}/own`], orgs: ['acme'] },
    });
    expect(await dump(store, 'vcs_star')).toEqual([
      JSON.stringify({ login: 'alice', repository: 'acme/admin-repo', starred_at: '2026-09-03T10:11:12Z' }),
      JSON.stringify({ login: 'alice', repository: `${USER}/own`, starred_at: '2026-09-03T10:11:12Z' }),
      JSON.stringify({ login: 'bob', repository: 'acme/admin-repo', starred_at: '2026-11-10T07:30:00Z' }),
      JSON.stringify({ login: 'bob', repository: `${USER}/own`, starred_at: '2026-11-10T07:30:00Z' }),
    ]);
    expect(sim.calls(/\/stargazers$/).every((r) => r.status === 200)).toBe(true);
  });

  it('a stargazer list answering 404 after the permission looked sufficient is no failure: nobody new is named, the rows an earlier sweep wrote stay, the day counts go on', async () => {
    const own = fullRepo('own');
    const sim = await startSim(world([own]));
    const store = await sqliteStore();
    await runSweep(sim, store);
    const earlier = await dump(store, 'vcs_star');
    expect(earlier).toEqual([
      JSON.stringify({ login: 'alice', repository: `${USER}/own`, starred_at: '2026-09-03T10:11:12Z' }),
      JSON.stringify({ login: 'bob', repository: `${USER}/own`, starred_at: '2026-11-10T07:30:00Z' }),
    ]);
    expect(JSON.parse((await dump(store, 'vcs_repository'))[0]).star_list_access).toBe(1);

    // The token keeps its admin permission on the repository, but the list now answers 404; meanwhile erin stars.
    own.starListHidden = true;
    own.stars = [...own.stars!, star('erin', '2026-11-17T18:00:00Z')];
    const { summary } = await runSweep(sim, store);
    expect(summary.status).toBe('complete');
    expect(summary.errors).toEqual([]);
    expect(summary.records.vcs_star).toBeUndefined();
    const list = sim.calls(`/repos/${USER}/own/stargazers`);
    expect(list.map((r) => [r.status, r.authorized])).toEqual([
      [200, true],
      [404, true],
    ]);
    expect(await dump(store, 'vcs_star')).toEqual(earlier);
    // The repository row says the list is no longer read, so those rows are known to be as of the earlier sweep.
    expect(JSON.parse((await dump(store, 'vcs_repository'))[0]).star_list_access).toBe(0);
    const status = (await dump(store, 'vcs_collection_status', ['checked_at', 'detail']))
      .map((r) => JSON.parse(r))
      .find((r) => r.collector === 'vcs_star');
    expect(status).toEqual({
      collector: 'vcs_star',
      http_status: 404,
      outcome: 'unavailable',
      scope: `${USER}/own`,
    });
    // The history still counts every current star per day, erin's (10:00 in Los Angeles on the 17th) included.
    const days = await store.starDays(`${USER}/own`);
    expect(days.find((d) => d.day === '2026-11-17')!.stars).toBe(1);
    expect(days.reduce((n, d) => n + d.stars, 0)).toBe(3);
  });

  it('a collaborator with the read role is served the stargazer list and names its stargazers; elsewhere the list answers 404 and the history alone counts stars per day', async () => {
    const theirs = fullRepo('theirs', {
      owner: 'others',
      ownerType: 'Organization',
      permission: 'read',
      stars: [star('carol', '2026-10-01T12:00:00Z'), star('dave', '2026-10-01T13:00:00Z')],
    });
    const shared = fullRepo('shared', {
      owner: 'partners',
      ownerType: 'Organization',
      permission: 'read',
      collaborator: true,
      stars: [star('erin', '2026-10-02T08:09:10Z'), star('frank', '2026-11-12T23:59:59Z')],
    });
    const sim = await startSim(world([theirs, shared], { orgs: ['others', 'partners'] }));
    // Both show pull only: the repository does not tell a collaborator with the read role from anyone else.
    for (const name of ['others/theirs', 'partners/shared']) {
      const repo = JSON.parse((await direct(sim.url, `/repos/${name}`)).text);
      expect(repo.permissions, name).toEqual({
        admin: false,
        maintain: false,
        push: false,
        triage: false,
        pull: true,
      });
    }
    // One named in targets.repos, the other reached through targets.orgs.
    const { store, summary } = await runSweep(sim, await sqliteStore(), {
      targets: { repos: ['others/theirs'], orgs: ['partners'] },
    });
    expect(summary.status).toBe('complete');
    expect(summary.errors).toEqual([]);
    expect(await dump(store, 'vcs_star')).toEqual([
      JSON.stringify({ login: 'erin', repository: 'partners/shared', starred_at: '2026-10-02T08:09:10Z' }),
      JSON.stringify({ login: 'frank', repository: 'partners/shared', starred_at: '2026-11-12T23:59:59Z' }),
    ]);
    expect(
      sim
        .calls(/^\/repos\/\w+\/\w+\/stargazers$/)
        .map((r) => [r.path, r.status])
        .sort(),
    ).toEqual([
      ['/repos/others/theirs/stargazers', 404],
      ['/repos/partners/shared/stargazers', 200],
    ]);
    const access = (await dump(store, 'vcs_repository'))
      .map((r) => {
        const { repository, star_list_access } = JSON.parse(r);
        return [repository, star_list_access];
      })
      .sort();
    expect(access).toEqual([
      ['others/theirs', 0],
      ['partners/shared', 1],
    ]);
    const days = await store.starDays('others/theirs');
    expect(days.find((d) => d.day === '2026-10-01')!.stars).toBe(2);
    expect((await store.starDays('partners/shared')).reduce((n, d) => n + d.stars, 0)).toBe(2);
    const status = (await dump(store, 'vcs_collection_status', ['checked_at']))
      .map((r) => JSON.parse(r))
      .filter((r) => r.collector === 'vcs_star')
      .sort((a, b) => a.scope.localeCompare(b.scope));
    expect(status).toEqual([
      {
        collector: 'vcs_star',
        detail:
          "no stargazer-list access (served to the repository's admins and collaborators only); stars counted per day only",
        http_status: 404,
        outcome: 'unavailable',
        scope: 'others/theirs',
      },
      { collector: 'vcs_star', detail: null, http_status: 200, outcome: 'ok', scope: 'partners/shared' },
    ]);

    // The simulated upstream hides the list from non-collaborators: REST 404, GraphQL empty with totalCount 0.
    const rest = await direct(sim.url, '/repos/others/theirs/stargazers');
    expect(rest.status).toBe(404);
    const gql = await direct(sim.url, '/graphql', {
      method: 'POST',
      body: JSON.stringify({ query: 'query{...}', variables: { owner: 'others', name: 'theirs' } }),
    });
    const repo = JSON.parse(gql.text).data.repository;
    expect([repo.stargazerCount, repo.stargazers.totalCount, repo.stargazers.edges]).toEqual([2, 0, []]);
  });
});
