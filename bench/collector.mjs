// Benchmark of packages/activity-collector: sweeps 1,000 simulated repositories into SQLite and (when
// COLLECTOR_TEST_PG_URL is set) PostgreSQL, cold and then warm (ETags, 304s), and reports API calls per
// repository, wall time and peak memory. Prints a markdown section and writes bench/results/collector.md.
// Run after building: npx tsc -b packages/activity-collector && node bench/collector.mjs
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const here = dirname(fileURLToPath(import.meta.url));
const lib = await import(join(here, '..', 'packages', 'activity-collector', 'dist', 'index.js'));
const { generateWorld, SimUpstream, sweep, validateConfig, openSqliteStore, openPostgresStore } = lib;

const REPOS = 1000;
const CONCURRENCY = 4;
const world = generateWorld({ repos: REPOS, seed: 7 });
const sim = new SimUpstream({ world, rateLimit: { limit: 1_000_000 } });
await sim.start();
const targets = { repos: world.repos.map((r) => `${r.owner}/${r.name}`) };

async function measure(store) {
  const config = validateConfig({
    api_url: sim.url,
    targets,
    stores: { sqlite: ':memory:' },
    concurrency: CONCURRENCY,
    packages: { types: ['npm'] },
  });
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const t0 = performance.now();
  const summary = await sweep({ config, token: world.token, store });
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  const records = Object.values(summary.records).reduce((a, b) => a + b, 0);
  return { summary, seconds, peakMiB: peak / 2 ** 20, records };
}

const rows = [];
const notes = [];
async function bench(name, open, cleanup) {
  const store = open();
  await store.init();
  for (const pass of ['cold', 'warm']) {
    const m = await measure(store);
    if (m.summary.status !== 'complete' || m.summary.errors.length) {
      throw new Error(`${name} ${pass}: sweep ${m.summary.status} with ${m.summary.errors.length} errors`);
    }
    rows.push({ name, pass, ...m });
    process.stderr.write(`${name} ${pass}: ${m.seconds.toFixed(1)} s\n`);
  }
  await store.close();
  await cleanup?.();
}

const dir = mkdtempSync(join(tmpdir(), 'collector-bench-'));
try {
  await bench('SQLite', () => openSqliteStore(join(dir, 'bench.db')));
  const pgUrl = process.env.COLLECTOR_TEST_PG_URL;
  if (pgUrl) {
    const schema = `bench_${process.pid}`;
    await bench(
      'PostgreSQL',
      () => openPostgresStore(pgUrl, schema),
      async () => {
        const { default: pg } = await import('pg');
        const c = new pg.Client({ connectionString: pgUrl });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await c.end();
      },
    );
  } else {
    notes.push(
      'PostgreSQL: skipped (COLLECTOR_TEST_PG_URL is not set; `source .ci/postgres.sh` to start a server).',
    );
  }
} finally {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
}

const fmt = (n, d = 1) => n.toFixed(d);
const md = [
  '## activity-collector',
  '',
  `One sweep of ${REPOS} simulated repositories (loopback simulated upstream in the same process, concurrency ${CONCURRENCY}).`,
  '"cold" starts from an empty store; "warm" repeats the sweep with the stored ETags, so unchanged answers come back as 304.',
  'Peak memory is the highest resident set size sampled during the sweep (simulator included).',
  '',
  '| store | sweep | repositories | API calls | calls per repository | 304 answers | records written | wall time (s) | peak RSS (MiB) |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.pass} | ${r.summary.repositories} | ${r.summary.apiCalls} | ${fmt(r.summary.apiCalls / r.summary.repositories, 2)} | ${r.summary.notModified} | ${r.records} | ${fmt(r.seconds)} | ${fmt(r.peakMiB, 0)} |`,
  ),
  '',
  ...notes.map((n) => `- ${n}`),
  ...(notes.length ? [''] : []),
  `Machine: ${cpus().length} cores, Node ${process.version}, ${process.platform}/${process.arch}.`,
  '',
].join('\n');

process.stdout.write(md);
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'collector.md'), md);
