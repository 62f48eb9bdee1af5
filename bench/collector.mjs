// Benchmark of packages/activity-collector: sweeps 10,000 simulated repositories (COLLECTOR_BENCH_REPOS to change)
// into SQLite, PostgreSQL (when COLLECTOR_TEST_PG_URL is set) and Prometheus only (its state in the SQLite state
// file), cold and then warm (ETags, 304s), reporting API calls per repository, wall time and the collector's peak
// memory (the simulated upstream runs in a child process, so it is not counted); then a SQLite sweep killed half-way
// (SIGKILL of the CLI) and resumed. Prints a markdown section and writes bench/results/collector.md.
// Run after building: npx tsc -b packages/activity-collector && node bench/collector.mjs
import { fork, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const here = dirname(fileURLToPath(import.meta.url));
if (process.argv[2] === '--sim') {
  const { generateWorld, SimUpstream } = await import(
    join(here, '..', 'packages', 'activity-collector', 'dist', 'index.js')
  );
  const n = Number(process.env.COLLECTOR_BENCH_REPOS ?? 10_000);
  const sim = new SimUpstream({
    world: generateWorld({ repos: n, seed: 7 }),
    rateLimit: { limit: 100_000_000 },
  });
  await sim.start();
  // The request log would grow without end over a 10,000-repository run: keep only the count.
  let count = 0;
  sim.onRequest = () => {
    count++;
    sim.requests.length = 0;
  };
  process.on('message', () => process.send({ requests: count }));
  process.send({ url: sim.url });
  await new Promise(() => {});
}
const distDir = join(here, '..', 'packages', 'activity-collector', 'dist');
const lib = await import(join(distDir, 'index.js'));
const { sweep, validateConfig, openStores } = lib;

const REPOS = Number(process.env.COLLECTOR_BENCH_REPOS ?? 10_000);
const CONCURRENCY = 8;
const TOKEN = 'sim-token-demo';

// The simulated upstream in its own process; it reports its URL and, on request, how many requests it has seen.
const simChild = fork(fileURLToPath(import.meta.url), ['--sim'], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const simUrl = await new Promise((r) => simChild.once('message', (m) => r(m.url)));
const simRequests = () =>
  new Promise((r) => {
    simChild.once('message', (m) => r(m.requests));
    simChild.send('count');
  });
const owner = (i) => (i % 4 === 0 ? 'octo-demo' : i % 4 === 1 ? 'demo-admin-org' : `others-${i % 7}`);
const targets = { repos: Array.from({ length: REPOS }, (_, i) => `${owner(i)}/repo-${i}`) };

function docFor(stores, state) {
  return {
    api_url: simUrl,
    targets,
    stores,
    ...(state ? { state } : {}),
    concurrency: CONCURRENCY,
    packages: { types: ['npm'] },
  };
}

async function measure(store, doc) {
  const config = validateConfig(doc);
  global.gc?.();
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const t0 = performance.now();
  const summary = await sweep({ config, token: TOKEN, store });
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  const records = Object.values(summary.records).reduce((a, b) => a + b, 0);
  return { summary, seconds, peakMiB: peak / 2 ** 20, records };
}

const rows = [];
const notes = [];
async function bench(name, doc, cleanup) {
  const { store } = await openStores(validateConfig(doc));
  for (const pass of ['cold', 'warm']) {
    const m = await measure(store, doc);
    if (m.summary.status !== 'complete' || m.summary.errors.length) {
      throw new Error(`${name} ${pass}: sweep ${m.summary.status} with ${m.summary.errors.length} errors`);
    }
    rows.push({ name, pass, ...m });
    process.stderr.write(`${name} ${pass}: ${m.seconds.toFixed(1)} s\n`);
  }
  await store.close();
  await cleanup?.();
}

/** A SQLite sweep run by the CLI, killed (SIGKILL) once the upstream has seen `fraction` of a cold sweep's calls. */
async function killAndResume(dir, coldCalls, fraction) {
  const file = join(dir, 'resume.json');
  writeFileSync(file, JSON.stringify(docFor({ sqlite: join(dir, 'resume.db') })));
  const start = await simRequests();
  const child = spawn(process.execPath, [join(distDir, 'cli.js'), 'sweep', '--config', file, '--quiet'], {
    env: { ...process.env, GITHUB_TOKEN: TOKEN },
    stdio: 'ignore',
  });
  const exited = new Promise((r) => child.once('exit', r));
  for (;;) {
    await new Promise((r) => setTimeout(r, 200));
    if ((await simRequests()) - start >= coldCalls * fraction) break;
  }
  child.kill('SIGKILL');
  await exited;
  const before = (await simRequests()) - start;
  const doc = docFor({ sqlite: join(dir, 'resume.db') });
  const { store } = await openStores(validateConfig(doc));
  const m = await measure(store, doc);
  await store.close();
  return {
    before,
    after: m.summary.apiCalls,
    notModified: m.summary.notModified,
    status: m.summary.status,
    errors: m.summary.errors.length,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'collector-bench-'));
let resume;
try {
  await bench('SQLite', docFor({ sqlite: join(dir, 'bench.db') }));
  const pgUrl = process.env.COLLECTOR_TEST_PG_URL;
  if (pgUrl) {
    const schema = `bench_${process.pid}`;
    await bench(
      'PostgreSQL',
      docFor({ postgres: { url: pgUrl, schema } }, join(dir, 'pg-state.db')),
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
  await bench('Prometheus only', docFor({ prometheus: { port: 0 } }, join(dir, 'prom-state.db')));
  resume = await killAndResume(dir, rows[0].summary.apiCalls, 0.5);
  process.stderr.write(`kill and resume: ${JSON.stringify(resume)}\n`);
} finally {
  simChild.kill();
  rmSync(dir, { recursive: true, force: true });
}

const fmt = (n, d = 1) => n.toFixed(d);
const md = [
  '## activity-collector',
  '',
  `One sweep of ${REPOS} simulated repositories (loopback simulated upstream in a child process, concurrency ${CONCURRENCY}).`,
  '"cold" starts from an empty store; "warm" repeats the sweep with the stored ETags and commit cursors, so unchanged answers come back as 304 and no commit detail is asked twice.',
  'Prometheus only keeps its state (ETags with bodies, cursors) in the SQLite state file. Peak memory is the highest resident set size of the collector process sampled during the sweep (all three stores run in the same process one after the other, so later rows include what earlier ones left in the heap).',
  '',
  '| store | sweep | repositories | API calls | calls per repository | 304 answers | records written | wall time (s) | peak RSS (MiB) |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.pass} | ${r.summary.repositories} | ${r.summary.apiCalls} | ${fmt(r.summary.apiCalls / r.summary.repositories, 2)} | ${r.summary.notModified} | ${r.records} | ${fmt(r.seconds)} | ${fmt(r.peakMiB, 0)} |`,
  ),
  '',
  ...(resume
    ? [
        `Kill and resume (SQLite, CLI killed with SIGKILL once the upstream had seen half a cold sweep's calls): ${resume.before} calls before the kill; the resumed sweep made ${resume.after} calls (${resume.notModified} answered 304), status ${resume.status}, ${resume.errors} errors; a cold sweep makes ${rows[0].summary.apiCalls}.`,
        '',
      ]
    : []),
  ...notes.map((n) => `- ${n}`),
  ...(notes.length ? [''] : []),
  `Machine: ${cpus().length} cores, Node ${process.version}, ${process.platform}/${process.arch}.`,
  '',
].join('\n');

process.stdout.write(md);
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'collector.md'), md);
