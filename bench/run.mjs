// npm run bench (after npm run build): installs bench/'s own pinned dependencies on first run, runs the server
// benchmark (ours on three surfaces, the peer servers, an SDK floor and the floor with one undici request, over
// stdio, plus our HTTP mode) against forge-sim, then the other benchmark scripts present in bench/ (each as a
// child process), and writes bench/report.md and bench/latency.svg. A benchmark, not a test: it measures and
// reports, and never fails on a timing.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const started = new Date();
const log = (...a) => console.error('[bench]', ...a);

// 1. bench/'s own dependencies (peers, tokenizer, load generator), never the root's.
function installed() {
  const deps = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8')).dependencies;
  return Object.entries(deps).every(([name, want]) => {
    try {
      return (
        JSON.parse(readFileSync(join(here, 'node_modules', name, 'package.json'), 'utf8')).version === want
      );
    } catch {
      return false;
    }
  });
}
if (!installed()) {
  const cmd = existsSync(join(here, 'package-lock.json')) ? 'ci' : 'install';
  log(`installing bench dependencies: npm ${cmd} --prefix bench`);
  const r = spawnSync('npm', [cmd, '--prefix', here, '--no-audit', '--no-fund'], {
    stdio: 'inherit',
    cwd: root,
  });
  if (r.status !== 0) {
    console.error(`npm ${cmd} --prefix bench failed (${r.status})`);
    process.exit(1);
  }
}

const { startForgeSim } = await import('forge-sim');
const { bundleFloor, servers, CALLS } = await import('./lib/servers.mjs');
const { captureAnswers, interleavedCalls, startStdio } = await import('./lib/stdio-bench.mjs');
const { benchHttp, mintTokens } = await import('./lib/http-bench.mjs');
const { simProcess } = await import('./lib/sim-process.mjs');
const { serverSection } = await import('./lib/report.mjs');
const { latencySvg } = await import('./lib/svg.mjs');

/**
 * The other Node lines people run (BENCH_NODE_LINES, default 22,24), installed for the bench from the npm
 * registry by .ci/node.sh into a cache folder, never into the product's dependencies. Our server and the SDK
 * floor run under each; a line that cannot be installed is left out and said so.
 */
function nodeLineBinaries() {
  const machineLine = process.versions.node.split('.')[0];
  const wanted = (process.env.BENCH_NODE_LINES ?? '22,24')
    .split(',')
    .map((l) => l.trim())
    .filter((l) => l && l !== machineLine);
  const out = {};
  for (const line of wanted) {
    const r = spawnSync('bash', ['-c', `. .ci/node.sh && node_line ${line}`], {
      cwd: root,
      encoding: 'utf8',
    });
    const bin = r.stdout.trim();
    if (r.status === 0 && bin) {
      out[line] = { bin, version: spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim() };
      log(`Node ${line}: ${out[line].version} at ${bin}`);
    } else log(`Node ${line}: not available (${r.stderr.trim().slice(0, 200)}); its rows are left out`);
  }
  return out;
}

// 2. The server benchmark: cold starts and tools/list server after server, then the tools/call phase with every
// server up at once (bench/lib/stdio-bench.mjs).
const only = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',') : null;
// BENCH_SKIP names benchmark scripts of step 3 to leave out (collector, soak, replicas: the long ones).
const skip = process.env.BENCH_SKIP ? process.env.BENCH_SKIP.split(',') : [];
const sim = await startForgeSim();
log(`forge-sim at ${sim.url}`);
const scratch = mkdtempSync(join(tmpdir(), 'forge-bench-'));
const floorAnswers = join(scratch, 'floor-answers.json');
const floorBundle = await bundleFloor(scratch);
const floorUndiciBundle = await bundleFloor(scratch, 'sdk-floor-undici-server');
if (!floorUndiciBundle)
  log('floor-undici rows left out: esbuild not found, and that reference runs bundled only');
const nodeLines = nodeLineBinaries();
const all = servers(root, sim, {
  floorAnswers,
  floorBundle,
  floorUndiciBundle,
  compileCache: join(scratch, 'compile-cache'),
  nodeLines,
});
const selected = all.filter((s) => !only || only.includes(s.id));
const runs = [];
for (const server of selected) {
  if (server.answersFrom && !existsSync(floorAnswers)) {
    // The floor replays our real answers: captured once, from a fresh process of the server they come from.
    const from = all.find((s) => s.id === server.answersFrom);
    try {
      writeFileSync(floorAnswers, JSON.stringify(await captureAnswers(from)));
      log(`${server.id}: answers captured from ${from.id}`);
    } catch (e) {
      const error = `could not capture ${from.id}'s answers: ${`${e?.message ?? e}`.slice(0, 400)}`;
      log(`${server.id} failed: ${error}`);
      runs.push({ server, r: { id: server.id, ok: false, error, starts: [], rssStart: [] } });
      continue;
    }
  }
  log(`stdio: ${server.name}`);
  sim.clearRequests();
  runs.push(await startStdio(server));
}
log(`stdio: tools/call, ${runs.filter((x) => x.s).length} servers interleaved`);
sim.clearRequests();
const stdio = await interleavedCalls(runs, sim);
log(
  `stdio: replayed ${stdio.replaySignatures} upstream requests over ${stdio.replayConnections} connection(s)`,
);
// Where a cold start goes: ours (dynamic) and the floor profiled on each Node line (bench/lib/start-profile.mjs).
const { startProfile } = await import('./lib/start-profile.mjs');
const profiles = [];
for (const line of [...new Set(selected.map((s) => s.line).filter(Boolean))]) {
  const ours = selected.find((s) => s.line === line && s.id.split('@')[0] === 'ours-dynamic');
  const floor = selected.find((s) => s.line === line && s.floor);
  if (!ours || !floor) continue;
  try {
    log(`profiling a cold start of ${ours.name} and ${floor.name}`);
    profiles.push({ line, ours: await startProfile(ours.spec), floor: await startProfile(floor.spec) });
  } catch (e) {
    log(`Node ${line}: start profile failed: ${`${e?.message ?? e}`.slice(0, 300)}`);
  }
}
const bundleBytes = {
  ours: statSync(join(root, 'packages', 'forge-mcp-server', 'dist', 'forge-mcp-server.bundle.cjs')).size,
  floor: floorBundle ? statSync(join(dirname(floorBundle), 'sdk-floor-server.bundle.cjs')).size : NaN,
};
rmSync(scratch, { recursive: true, force: true });
const results = runs.map(({ server, r }) => ({
  ...r,
  name: server.name,
  ours: server.ours,
  floor: !!server.floor,
  reference: !!server.reference,
  bundled: !!server.bundled,
  surface: server.surface,
  line: server.line,
  version: server.version,
  started: server.started,
}));
let http = { ok: false, levels: [], credentials: [], error: 'skipped' };
if (!only || only.includes('http')) {
  // forge-sim in its own process here, so the instance's work does not share the benchmark's event loop.
  const httpSim = await simProcess(root);
  log(`http: forge-sim in process ${httpSim.pid} at ${httpSim.url}; minting 1,100 tokens`);
  try {
    const tokens = await mintTokens(httpSim, 1100);
    http = await benchHttp(root, httpSim, tokens);
  } finally {
    await httpSim.close();
  }
}
await sim.close();

mkdirSync(join(here, 'results'), { recursive: true });
const minutes = ((Date.now() - started.getTime()) / 60000).toFixed(1);
const machine = {
  cores: cpus().length,
  cpu: cpus()[0]?.model?.trim() ?? 'unknown',
  memGiB: (totalmem() / 2 ** 30).toFixed(0),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  started: started.toISOString(),
  minutes,
};
const section = serverSection({
  results,
  stdio,
  http,
  machine,
  sim: 'forge-sim on 127.0.0.1',
  profiles,
  bundleBytes,
});
writeFileSync(join(here, 'results', 'server.md'), section + '\n');
writeFileSync(
  join(here, 'results', 'server.json'),
  JSON.stringify({ machine, results, stdio, http, profiles, bundleBytes }, null, 2) + '\n',
);
writeFileSync(join(here, 'latency.svg'), latencySvg(results, CALLS));
process.stdout.write(section + '\n');

// 3. The other benchmark scripts, when present: each prints a markdown section and writes bench/results/<name>.md.
const OTHERS = [
  { name: 'acoustics', script: 'acoustics.mjs' },
  // 10,000 repositories, cold and warm, in three stores, then a killed sweep resumed: many minutes by design.
  { name: 'collector', script: 'collector.mjs', timeoutMs: 45 * 60_000 },
  { name: 'telemetry', script: 'telemetry.mjs' },
  // Ten minutes of held sessions by design (SOAK_MINUTES), so it gets a longer leash.
  { name: 'soak', script: 'soak.mjs', timeoutMs: 15 * 60_000 },
  // Ten minutes of three replicas sharing Redis (REPLICAS_MINUTES) after a two-minute single-replica baseline.
  { name: 'replicas', script: 'replicas.mjs', timeoutMs: 20 * 60_000 },
];
const OTHER_TIMEOUT_MS = 5 * 60_000;
function runOther({ script, timeoutMs = OTHER_TIMEOUT_MS }) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [join(here, script)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out, err, seconds: (Date.now() - t0) / 1000 });
    });
  });
}
/** When a results file was last written: its last commit's date, or its modification time when uncommitted. */
function lastRunDate(file) {
  const r = spawnSync('git', ['log', '-1', '--format=%cs', '--', file], { cwd: root, encoding: 'utf8' });
  const dirty = spawnSync('git', ['status', '--porcelain', '--', file], { cwd: root, encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() && !dirty.stdout.trim()
    ? r.stdout.trim()
    : statSync(file).mtime.toISOString().slice(0, 10);
}
/** A section's markdown with a note under its first heading. */
function withNote(md, note) {
  const lines = md.trim().split('\n');
  const h = lines.findIndex((l) => l.startsWith('## '));
  return h < 0 ? `${note}\n\n${md}` : [...lines.slice(0, h + 1), '', note, ...lines.slice(h + 1)].join('\n');
}
const other = [];
for (const o of OTHERS) {
  const path = join(here, o.script);
  const leftOut =
    only && !only.includes(o.name)
      ? `BENCH_ONLY=${only.join(',')}`
      : skip.includes(o.name)
        ? `BENCH_SKIP=${skip.join(',')}`
        : undefined;
  if (leftOut) {
    // A section this run leaves out keeps the figures of the run that last made it, said so above them.
    const last = join(here, 'results', `${o.name}.md`);
    other.push(
      existsSync(last)
        ? {
            ...o,
            body: withNote(
              readFileSync(last, 'utf8'),
              `_Not re-run by this run (${leftOut}): the figures of bench/${o.script}'s last run, ${lastRunDate(last)}._`,
            ),
          }
        : { ...o, note: `not run (${leftOut}).` },
    );
    continue;
  }
  if (!existsSync(path)) {
    other.push({ ...o, note: `\`bench/${o.script}\` is not present in this checkout; not run.` });
    continue;
  }
  log(`running bench/${o.script}`);
  const r = await runOther(o);
  const md = join(here, 'results', `${o.name}.md`);
  const fresh = existsSync(md) && statSync(md).mtimeMs >= started.getTime();
  if (r.code === 0 && fresh) other.push({ ...o, body: readFileSync(md, 'utf8') });
  else if (r.code === 0 && r.out.trim()) other.push({ ...o, body: r.out });
  else
    other.push({
      ...o,
      note:
        `\`bench/${o.script}\` ${r.signal ? `was stopped (${r.signal}) after ${r.seconds.toFixed(0)} s` : `exited with code ${r.code} after ${r.seconds.toFixed(0)} s`}; its section is missing from this run.` +
        (r.err.trim() ? `\n\n\`\`\`\n${r.err.trim().split('\n').slice(-15).join('\n')}\n\`\`\`` : ''),
    });
  log(
    `bench/${o.script}: ${r.code === 0 ? 'ok' : `failed (${r.signal ?? r.code})`} in ${r.seconds.toFixed(0)} s`,
  );
}

// 4. bench/report.md
const total = ((Date.now() - started.getTime()) / 60000).toFixed(1);
const report = [
  '# Benchmark report',
  '',
  `Generated by \`npm run bench\` (bench/run.mjs) on ${started.toISOString()}; ${machine.cores} cores, Node ${machine.node}; the whole run took ${total} min. ` +
    'Every number below is printed by the scripts as measured; none is edited by hand.',
  '',
  section,
  ...other.flatMap((o) => ['', o.body ? o.body.trim() : `## ${o.name}\n\n${o.note}`, '']),
].join('\n');
writeFileSync(join(here, 'report.md'), report.replace(/\n{3,}/g, '\n\n') + '\n');
log(`wrote bench/report.md and bench/latency.svg in ${total} min`);
