// Replica soak (issue 18): three replicas of our server (HTTP mode, --stateless=false, FORGE_MCP_REDIS_URL)
// sharing one redis-server, behind forge-sim's round-robin balancer, each in a process of its own, as is
// forge-sim. 64 credentials each hold a stateful session (the v2 client in the 2025 era) and call issue.get
// back to back for REPLICAS_MINUTES minutes (default 10); every request goes to the next replica in turn, so
// each session is continued on all three. Resident memory of each replica is read at the start (after a warm-up
// of 30 s under the same load, every session open and served by every replica), every minute, and at the end.
// Beside it, the same load through the same balancer on one replica without Redis, for a fifth of the time
// (at least 20 s): throughput and p99 of both. Prints a markdown section and writes bench/results/replicas.md.
// A benchmark, not a test: it never fails on a figure; without a redis-server binary (FORGE_TEST_REDIS_SERVER,
// /usr/bin/redis-server, or on PATH; .ci/redis.sh installs Debian's) it says so and measures nothing.
// Run after building: npm run build && node bench/replicas.mjs  (REPLICAS_MINUTES=2 for a short run)
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { balancerProcess } from './lib/balancer-process.mjs';
import { HTTP_ARGS, mintTokens, startHttp } from './lib/http-bench.mjs';
import { simProcess } from './lib/sim-process.mjs';
import { fmtMiB, percentile, reap, rssBytes, sleep } from './lib/util.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const REPLICAS = 3;
const CREDENTIALS = 64;
const MINUTES = Number(process.env.REPLICAS_MINUTES ?? 10);
const BASELINE_S = Math.max(20, Math.round((MINUTES * 60) / 5));
/** Load before the start is measured, in each configuration: 30 s, less in a run shorter than six minutes. */
const WARMUP_S = Math.min(30, Math.max(5, Math.round((MINUTES * 60) / 12)));
const CALL = {
  name: 'forge_execute_action',
  arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
};
const log = (...a) => console.error('[replicas]', ...a);
const TITLE = '## Replicas sharing Redis (bench/replicas.mjs)';

function write(section) {
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'replicas.md'), section);
  process.stdout.write(section);
}

function redisBinary() {
  for (const p of [process.env.FORGE_TEST_REDIS_SERVER, '/usr/bin/redis-server'])
    if (p && existsSync(p)) return p;
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const binary = redisBinary();
if (!binary) {
  write(
    `${TITLE}\n\nNot run: no redis-server binary on this machine (source .ci/redis.sh to install Debian's).\n`,
  );
  process.exit(0);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** A redis-server of our own on a free loopback port, without persistence. */
async function startRedis() {
  const port = await freePort();
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 30_000);
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited ${code}: ${out}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid,
    stop: async () => {
      child.kill('SIGTERM');
      await reap(child.pid, 5000);
    },
  };
}

/**
 * One configuration under load: `servers` behind a balancer, a session per credential calling back to back
 * for `seconds`; resident memory of each server at the start and end, and every `sampleS` seconds.
 */
async function run(servers, tokens, seconds, sampleS) {
  const lb = await balancerProcess(
    root,
    servers.map((s) => new URL(s.url).origin),
  );
  const sessions = [];
  for (const token of tokens) {
    const transport = new StreamableHTTPClientTransport(new URL(lb.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    const client = new Client({ name: 'replicas-bench', version: '1' });
    await client.connect(transport);
    sessions.push({ client, calls: 0, failed: 0 });
  }
  const latencies = [];
  /** Why calls failed, with how many failed so. */
  const failures = new Map();
  /** Every session calling back to back until `endAt`; counted unless `warm`. */
  const load = (endAt, warm) =>
    sessions.map(async (s) => {
      while (Date.now() < endAt) {
        const c0 = performance.now();
        let failure;
        try {
          const r = await s.client.callTool(CALL);
          if (r.isError) failure = `error result: ${JSON.stringify(r.content).slice(0, 160)}`;
        } catch (e) {
          failure = String(e?.message ?? e).slice(0, 160);
          await sleep(100);
        }
        if (warm) continue;
        if (failure) {
          s.failed++;
          failures.set(failure, (failures.get(failure) ?? 0) + 1);
        } else latencies.push(performance.now() - c0);
        s.calls++;
      }
    });
  // A warm-up under the same load before the start is read: every session reaches every server (round robin
  // spreads its calls over them), and the heap and compiled code grow to their working size.
  await Promise.all(load(Date.now() + WARMUP_S * 1000, true));
  const rss = () => servers.map((s) => rssBytes(s.pid));
  const samples = [{ s: 0, rss: rss(), load: loadavg()[0] }];
  const t0 = Date.now();
  const loops = load(t0 + seconds * 1000, false);
  const sampler = (async () => {
    for (let at = sampleS; at < seconds; at += sampleS) {
      await sleep(Math.max(0, t0 + at * 1000 - Date.now()));
      samples.push({ s: at, rss: rss(), load: loadavg()[0] });
      log(`${at} s: RSS ${samples.at(-1).rss.map(fmtMiB).join(' / ')} MiB`);
    }
  })();
  await Promise.all([...loops, sampler]);
  const elapsed = (Date.now() - t0) / 1000;
  samples.push({ s: Math.round(elapsed), rss: rss(), load: loadavg()[0] });
  for (const s of sessions) await s.client.close().catch(() => undefined);
  await lb.close();
  const calls = sessions.reduce((n, s) => n + s.calls, 0);
  const failed = sessions.reduce((n, s) => n + s.failed, 0);
  return {
    calls,
    failed,
    perSecond: (calls - failed) / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    samples,
    failures: [...failures].map(([why, n]) => `${n} × ${why}`),
  };
}

const sim = await simProcess(root);
const tokens = await mintTokens(sim, CREDENTIALS);
const loadAtStart = loadavg()[0];

// One replica without Redis: the same sessions and calls through the same balancer.
log(`one replica without Redis, ${BASELINE_S} s`);
const single = await startHttp(root, sim, [...HTTP_ARGS(sim.url), '--stateless=false']);
const alone = await run([single], tokens, BASELINE_S, BASELINE_S);
await single.stop();

// Three replicas sharing one redis-server.
const redis = await startRedis();
const replicas = await Promise.all(
  Array.from({ length: REPLICAS }, () =>
    startHttp(root, sim, [...HTTP_ARGS(sim.url), '--stateless=false', `--redis-url=${redis.url}`]),
  ),
);
log(`${REPLICAS} replicas sharing Redis, ${MINUTES} min`);
const shared = await run(replicas, tokens, MINUTES * 60, 60);
const redisRss = rssBytes(redis.pid);
await Promise.all(replicas.map((r) => r.stop()));
await redis.stop();
await sim.close();

const first = shared.samples[0].rss;
const last = shared.samples.at(-1).rss;
const change = (i) => ((last[i] - first[i]) / first[i]) * 100;
const within = first.every((_, i) => Math.abs(change(i)) <= 10);
const fmt = (v) => (Number.isFinite(v) ? v.toFixed(1) : 'n/a');
const section = [
  TITLE,
  '',
  `${CREDENTIALS} credentials, each holding a stateful session (--stateless=false, 2025-era client) and calling issue.get back to back, ` +
    `through a round-robin balancer (forge-sim's, in its own process) to ${REPLICAS} replicas sharing one redis-server for ${MINUTES} min, ` +
    `and to one replica without Redis for ${BASELINE_S} s, each after a ${WARMUP_S} s warm-up under the same load; ${cpus().length} cores, Node ${process.versions.node}, shared machine ` +
    `(load average ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end).`,
  '',
  '| Replica | RSS at the start (MiB) | RSS at the end (MiB) | change |',
  '|---|---|---|---|',
  ...first.map(
    (_, i) => `| ${i + 1} of ${REPLICAS} | ${fmtMiB(first[i])} | ${fmtMiB(last[i])} | ${fmt(change(i))} % |`,
  ),
  '',
  `Flat within 10% (the target): **${within ? 'yes' : 'no'}**. redis-server RSS at the end: ${fmtMiB(redisRss)} MiB.`,
  '',
  '| Configuration | calls answered / s | p50 (ms) | p99 (ms) | calls / failed |',
  '|---|---|---|---|---|',
  `| ${REPLICAS} replicas sharing Redis | ${fmt(shared.perSecond)} | ${fmt(shared.p50)} | ${fmt(shared.p99)} | ${shared.calls} / ${shared.failed} |`,
  `| 1 replica without Redis | ${fmt(alone.perSecond)} | ${fmt(alone.p50)} | ${fmt(alone.p99)} | ${alone.calls} / ${alone.failed} |`,
  '',
  ...[shared, alone]
    .filter((r) => r.failures.length)
    .map((r) => `Failed calls${r === alone ? ' (one replica)' : ''}: ${r.failures.join('; ')}\n`),
  `RSS per minute (MiB, replicas 1 / 2 / 3): ${shared.samples.map((s) => s.rss.map(fmtMiB).join(' / ')).join('; ')}`,
  '',
  `Machine load average (1 min) at each sample: ${shared.samples.map((s) => s.load.toFixed(2)).join(', ')}`,
  '',
].join('\n');
write(section);
