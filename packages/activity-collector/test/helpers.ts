import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll } from 'vitest';
import {
  openSqliteStore,
  SimUpstream,
  sweep,
  validateConfig,
  type SimRepo,
  type SimWorld,
  type Store,
  type SweepSummary,
} from '../src/index.js';
import { keepFiles, keepLog, secretsHandedOut, testSecret } from '../../../test-logs.js';

/** Wednesday 2026-11-18, noon in Los Angeles. */
export const NOW = new Date('2026-11-18T20:00:00Z');
export const TOKEN = testSecret('ghp_simTOKEN_do_not_leak_1234567890');
export const USER = 'octo';

/** A folder for one file's tests, removed after them; the SQLite files written there are kept for the secret grep. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'activity-collector-'));
  afterAll(() => {
    keepFiles(dir, /\.db(?:-wal|-journal)?$/, 'activity-collector-store');
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

export function star(login: string, starredAt: string) {
  return { login, starredAt };
}

export function world(repos: SimRepo[], extra: Partial<SimWorld> = {}): SimWorld {
  return { user: USER, token: TOKEN, orgs: ['acme', 'others'], repos, ...extra };
}

export async function startSim(
  w: SimWorld,
  opts: Partial<ConstructorParameters<typeof SimUpstream>[0]> = {},
) {
  const sim = new SimUpstream({ world: w, now: () => NOW, ...opts });
  await sim.start();
  afterAll(() => sim.close());
  return sim;
}

export function config(sim: SimUpstream, doc: Record<string, unknown> = {}) {
  return validateConfig({
    api_url: sim.url,
    targets: { repos: [`${USER}/own`] },
    stores: { sqlite: ':memory:' },
    concurrency: 2,
    ...doc,
  });
}

export interface Run {
  summary: SweepSummary;
  store: Store;
  waits: number[];
}

/** One sweep with the fixed clock and instant rate-limit waits (each wait also resets the sim's window). */
export async function runSweep(
  sim: SimUpstream,
  store: Store,
  doc: Record<string, unknown> = {},
  extra: { signal?: AbortSignal } = {},
): Promise<Run> {
  const waits: number[] = [];
  const summary = await sweep({
    config: config(sim, doc),
    token: TOKEN,
    store,
    now: () => NOW,
    sleep: async (ms) => {
      waits.push(ms);
      sim.resetRateLimit();
    },
    ...extra,
  });
  return { summary, store, waits };
}

export async function sqliteStore(file = ':memory:'): Promise<Store> {
  const s = openSqliteStore(file);
  await s.init();
  afterAll(() => s.close().catch(() => {}));
  return s;
}

/** Rows of a table, as plain sorted JSON strings (for comparing stores). */
export async function dump(store: Store, table: string, exclude: string[] = []): Promise<string[]> {
  const driver = (store as unknown as { driver: { query(sql: string): Promise<Record<string, unknown>[]> } })
    .driver;
  const rows = await driver.query(`SELECT * FROM ${table}`);
  return rows
    .map((r) => {
      const o: Record<string, unknown> = {};
      for (const k of Object.keys(r).sort()) {
        if (exclude.includes(k)) continue;
        const v = r[k];
        o[k] = v instanceof Date ? v.toISOString() : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
      }
      return JSON.stringify(o);
    })
    .sort();
}

export const RECORD_TABLES = [
  'vcs_repository',
  'vcs_star',
  'vcs_star_day',
  'vcs_security_feature',
  'vcs_participation',
  'vcs_punch_card',
  'vcs_traffic',
  'vcs_package',
  'vcs_package_version',
  'vcs_commit',
  'vcs_event',
  'vcs_billing_usage',
];

export const PG_URL = process.env.COLLECTOR_TEST_PG_URL;
secretsHandedOut({ COLLECTOR_TEST_PG_URL: PG_URL });
/** PostgreSQL tests run when COLLECTOR_TEST_PG_URL is set; under CI=true a missing server is a failure. */
export const PG_SKIP_REASON = PG_URL
  ? undefined
  : 'COLLECTOR_TEST_PG_URL is not set (source .ci/postgres.sh to start a server)';
if (!PG_URL && process.env.CI !== 'true')
  console.warn(`activity-collector PostgreSQL tests skipped: ${PG_SKIP_REASON}`);
if (!PG_URL && process.env.CI === 'true') {
  throw new Error('CI=true but COLLECTOR_TEST_PG_URL is not set: the PostgreSQL tests must run in CI');
}

/** A fresh schema name per test; dropped after the file's tests. */
export function pgSchema(tag: string): string {
  const name = `ac_${tag}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  afterAll(async () => {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
    await c.end();
  });
  return name;
}

/** A repository with everything switched on, owned by the account. */
export function fullRepo(name: string, extra: Partial<SimRepo> = {}): SimRepo {
  return {
    owner: USER,
    name,
    createdAt: '2026-09-01T00:00:00Z',
    stars: [star('alice', '2026-09-03T10:11:12Z'), star('bob', '2026-11-10T07:30:00Z')],
    securityAndAnalysis: { secret_scanning: 'enabled', secret_scanning_push_protection: 'disabled' },
    alerts: { dependabot: 2, secretScanning: 0, codeScanning: 'off' },
    participation: { all: Array.from({ length: 52 }, (_, i) => i % 3), owner: Array(52).fill(1) },
    punchCard: [
      [0, 9, 3],
      [3, 14, 5],
    ],
    traffic: {
      views: [
        { timestamp: '2026-10-01T00:00:00Z', count: 5, uniques: 2 },
        { timestamp: '2026-10-02T00:00:00Z', count: 3, uniques: 1 },
      ],
      clones: [{ timestamp: '2026-10-02T00:00:00Z', count: 1, uniques: 1 }],
    },
    commits: [
      {
        sha: 'c3'.padEnd(40, '0'),
        author: 'octo',
        date: '2026-11-17T10:00:00Z',
        additions: 30,
        deletions: 1,
      },
      { sha: 'c2'.padEnd(40, '0'), author: 'dev', date: '2026-11-16T10:00:00Z', additions: 20, deletions: 2 },
      {
        sha: 'c1'.padEnd(40, '0'),
        author: 'octo',
        date: '2026-11-15T10:00:00Z',
        additions: 10,
        deletions: 3,
      },
    ],
    events: [
      { id: '9002', type: 'WatchEvent', actor: 'bob', createdAt: '2026-11-10T07:30:00Z' },
      { id: '9001', type: 'PushEvent', actor: 'octo', createdAt: '2026-11-09T07:30:00Z' },
    ],
    ...extra,
  };
}

/** The built CLI (tests that spawn it need `npx tsc -b packages/activity-collector` first). */
export const CLI = new URL('../dist/cli.js', import.meta.url).pathname;

/**
 * Spawns the built CLI with `env` over this process's environment. Its stdout and stderr are kept for the suite's
 * secret grep (test-logs.ts), and the secrets in `env` registered.
 */
export function spawnCli(args: string[], env: Record<string, string> = {}) {
  secretsHandedOut(env, args);
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  keepLog(child.stdout, 'activity-collector');
  keepLog(child.stderr, 'activity-collector');
  return child;
}

/** Starts `serve` with the given configuration file and SIM_TOKEN, collecting its stderr. */
export function spawnServe(configFile: string, extraArgs: string[] = []) {
  const child = spawnCli(['serve', '--config', configFile, ...extraArgs], { SIM_TOKEN: TOKEN });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  return {
    child,
    exited,
    stderr: () => stderr,
    /** Waits (up to `seconds`) until stderr matches; returns the served URL once it is printed. */
    async until(re: RegExp, seconds = 20): Promise<string | undefined> {
      for (let i = 0; i < seconds * 20 && !re.test(stderr); i++) await new Promise((r) => setTimeout(r, 50));
      return /serving (http:\/\/[^/\s]+)\/metrics/.exec(stderr)?.[1];
    },
  };
}
