import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  openPostgresStore,
  openSqliteStore,
  sweep,
  validateConfig,
  type SimUpstream,
  type SimWorld,
  type Store,
} from '../src/index.js';
import {
  dump,
  fullRepo,
  PG_SKIP_REASON,
  PG_URL,
  pgSchema,
  RECORD_TABLES,
  spawnCli,
  star,
  startSim,
  tempDir,
  TOKEN,
  USER,
  world,
} from './helpers.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');

function bigWorld(): SimWorld {
  const repos = Array.from({ length: 5 }, (_, i) =>
    fullRepo(`r${i}`, {
      owner: i % 2 ? 'acme' : USER,
      ownerType: i % 2 ? 'Organization' : 'User',
      permission: i === 4 ? 'read' : 'admin',
      stars: Array.from({ length: 150 + i }, (_, k) =>
        star(
          `s${i}-${k}`,
          new Date(Date.parse('2025-06-01T00:00:00Z') + k * 86_400_000 * 3).toISOString().replace('.000', ''),
        ),
      ),
      createdAt: '2025-05-01T00:00:00Z',
      commits: Array.from({ length: 15 }, (_, k) => ({
        sha: `${i}${k}`.padStart(6, '0').padEnd(40, 'a'),
        author: `dev${k % 3}`,
        date: new Date(Date.parse('2026-11-17T00:00:00Z') - k * 3_600_000).toISOString(),
        additions: k,
        deletions: i,
      })),
      events: Array.from({ length: 120 }, (_, k) => ({
        id: `${i}-${k}`,
        type: 'PushEvent',
        actor: 'octo',
        createdAt: new Date(Date.parse('2026-11-17T00:00:00Z') - k * 60_000).toISOString(),
      })),
    }),
  );
  return world(repos, {
    packages: [
      {
        owner: USER,
        type: 'npm',
        name: 'lib',
        versions: [{ id: 1, name: '1.0.0', created_at: '2026-10-01T00:00:00Z' }],
      },
    ],
  });
}

const targets = { repos: [`${USER}/r0`, `${USER}/r2`, `${USER}/r4`], orgs: ['acme'] };

async function snapshot(store: Store) {
  const out: Record<string, string[]> = {};
  for (const t of RECORD_TABLES) out[t] = await dump(store, t, ['swept_at']);
  out.vcs_collection_status = await dump(store, 'vcs_collection_status', ['checked_at']);
  return out;
}

async function reference(sim: SimUpstream, store: Store) {
  await store.init();
  const config = validateConfig({
    api_url: sim.url,
    targets,
    stores: { sqlite: ':memory:' },
    packages: { types: ['npm'] },
  });
  const summary = await sweep({ config, token: TOKEN, store });
  expect(summary.errors).toEqual([]);
  return snapshot(store);
}

function runCli(
  configFile: string,
  sim: SimUpstream,
  killAt?: number,
  signal: NodeJS.Signals = 'SIGKILL',
): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawnCli(['sweep', '--config', configFile, '--quiet'], { SIM_TOKEN: TOKEN });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const start = sim.requests.length;
    sim.onRequest =
      killAt === undefined
        ? undefined
        : ({ index }) => {
            if (index - start === killAt) child.kill(signal);
          };
    child.on('exit', (code, signal) => {
      sim.onRequest = undefined;
      resolve({ code, signal, stderr });
    });
  });
}

async function killAndResume(storeDoc: Record<string, unknown>, open: () => Store, referenceStore: Store) {
  expect(existsSync(CLI), 'build the package first (npx tsc -b packages/activity-collector)').toBe(true);
  const sim = await startSim(bigWorld());
  const expected = await reference(sim, referenceStore);
  const total = sim.requests.length;
  const dir = tempDir();
  const file = join(dir, 'collector.yaml');
  writeFileSync(
    file,
    JSON.stringify({
      api_url: sim.url,
      token_env: 'SIM_TOKEN',
      targets,
      stores: storeDoc,
      state: join(dir, 'state.db'),
      packages: { types: ['npm'] },
    }),
  );
  // Killed with SIGKILL partway through the sweep...
  const killed = await runCli(file, sim, Math.floor(total * 0.45));
  expect(killed.signal).toBe('SIGKILL');
  const partial = open();
  await partial.init();
  const midway = await snapshot(partial);
  expect(midway.vcs_commit.length).toBeLessThan(expected.vcs_commit.length);
  await partial.close();
  // ...then the next sweep completes it: nothing lost, nothing duplicated.
  const resumed = await runCli(file, sim);
  expect(resumed.stderr).toMatch(/^sweep complete\n  repositories: 5\n/);
  expect(resumed.stderr).toContain('errors: 0');
  expect(resumed.code).toBe(0);
  const after = open();
  await after.init();
  expect(await snapshot(after)).toEqual(expected);
  await after.close();
}

describe('a sweep interrupted mid-way, then resumed', () => {
  it('SQLite: Ctrl-C on the CLI records the sweep as incomplete, says so, and the next sweep completes it', async () => {
    expect(existsSync(CLI), 'build the package first (npx tsc -b packages/activity-collector)').toBe(true);
    const sim = await startSim(bigWorld());
    const ref = openSqliteStore(':memory:');
    const expected = await reference(sim, ref);
    await ref.close();
    const total = sim.requests.length;
    const dir = tempDir();
    const file = join(dir, 'collector.yaml');
    const db = join(dir, 'a.db');
    writeFileSync(
      file,
      JSON.stringify({
        api_url: sim.url,
        token_env: 'SIM_TOKEN',
        targets,
        stores: { sqlite: db },
        packages: { types: ['npm'] },
      }),
    );
    const interrupted = await runCli(file, sim, Math.floor(total * 0.45), 'SIGINT');
    expect(interrupted.signal).toBeNull();
    expect(interrupted.code).toBe(130);
    expect(interrupted.stderr).toBe(
      'activity-collector: sweep interrupted (SIGINT) and recorded as incomplete; what it wrote is kept, and the next sweep continues where it stopped\n',
    );
    const partial = openSqliteStore(db);
    await partial.init();
    const sweeps = (await dump(partial, 'vcs_sweep')).map((r) => JSON.parse(r) as Record<string, unknown>);
    expect(sweeps).toHaveLength(1);
    expect(sweeps[0].status).toBe('incomplete');
    expect(sweeps[0].finished_at).toEqual(expect.any(String));
    await partial.close();
    const resumed = await runCli(file, sim);
    expect(resumed.code).toBe(0);
    const after = openSqliteStore(db);
    await after.init();
    expect(await snapshot(after)).toEqual(expected);
    await after.close();
  }, 120_000);

  it('Ctrl-C during a wait for the rate limit ends the sweep at once, recorded as incomplete', async () => {
    expect(existsSync(CLI), 'build the package first (npx tsc -b packages/activity-collector)').toBe(true);
    // Five requests an hour, on the real clock: the sweep has to wait about an hour for the reset.
    const sim = await startSim(bigWorld(), {
      now: () => new Date(),
      rateLimit: { limit: 5, resetInSeconds: 3600 },
    });
    const dir = tempDir();
    const file = join(dir, 'collector.yaml');
    const db = join(dir, 'a.db');
    writeFileSync(
      file,
      JSON.stringify({
        api_url: sim.url,
        token_env: 'SIM_TOKEN',
        targets,
        stores: { sqlite: db },
        rate_limit: { max_wait_seconds: 7200 },
      }),
    );
    const child = spawnCli(['sweep', '--config', file], { SIM_TOKEN: TOKEN });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    for (let i = 0; i < 1200 && !/waiting \d+ s/.test(stderr); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(stderr).toMatch(/waiting \d+ s/);
    child.kill('SIGINT');
    const code = await Promise.race([
      exited,
      new Promise<'still waiting'>((r) => setTimeout(() => r('still waiting'), 20_000)),
    ]);
    if (code === 'still waiting') child.kill('SIGKILL');
    expect(code).toBe(130);
    expect(stderr).toMatch(/activity-collector: sweep interrupted \(SIGINT\) and recorded as incomplete;/);
    const store = openSqliteStore(db);
    await store.init();
    const sweeps = (await dump(store, 'vcs_sweep')).map((r) => JSON.parse(r) as Record<string, unknown>);
    expect(sweeps.map((r) => r.status)).toEqual(['incomplete']);
    await store.close();
  }, 120_000);

  it('SQLite: the CLI killed with SIGKILL, then run again', async () => {
    const dir = tempDir();
    const ref = openSqliteStore(':memory:');
    await killAndResume({ sqlite: join(dir, 'a.db') }, () => openSqliteStore(join(dir, 'a.db')), ref);
    await ref.close();
  });

  it('SQLite: aborted at several points in-process, each completed by the next sweep', async () => {
    const sim = await startSim(bigWorld());
    const ref = openSqliteStore(':memory:');
    const expected = await reference(sim, ref);
    await ref.close();
    const config = validateConfig({
      api_url: sim.url,
      targets,
      stores: { sqlite: ':memory:' },
      packages: { types: ['npm'] },
    });
    for (const at of [4, 40, 95]) {
      const store = openSqliteStore(':memory:');
      await store.init();
      const ac = new AbortController();
      const start = sim.requests.length;
      sim.onRequest = ({ index }) => {
        if (index - start === at) ac.abort();
      };
      await expect(sweep({ config, token: TOKEN, store, signal: ac.signal })).rejects.toThrow(/aborted/);
      sim.onRequest = undefined;
      const done = await sweep({ config, token: TOKEN, store });
      expect(done.status).toBe('complete');
      expect(await snapshot(store), `aborted at request ${at}`).toEqual(expected);
      await store.close();
    }
  });

  describe.skipIf(!PG_URL)(`PostgreSQL${PG_SKIP_REASON ? ` (skipped: ${PG_SKIP_REASON})` : ''}`, () => {
    it('PostgreSQL: the CLI killed with SIGKILL, then run again', async () => {
      const schema = pgSchema('resume');
      const refSchema = pgSchema('resume_ref');
      const ref = openPostgresStore(PG_URL!, refSchema);
      await killAndResume(
        { postgres: { url: PG_URL, schema } },
        () => openPostgresStore(PG_URL!, schema),
        ref,
      );
      await ref.close();
    });
  });
});
