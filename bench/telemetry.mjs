// Benchmark of telemetry's cost on tools/call: our server over stdio against forge-sim, once with telemetry off
// and once with it on (OTLP http/protobuf to a loopback collector that accepts every export, default batch and
// metric intervals, identity policy pseudonymous so the HMAC is paid too), both started as the bin is (its
// node flags apply) and up at once, called alternately one call each, so the shared machine's drift falls on
// both alike. Two phases: the first calls after start (V8 still compiling the code a call runs, telemetry's
// SDK included) and the same server warm, after 2,000 more calls each. Prints a markdown section and writes
// bench/results/telemetry.md.
// Run after building: npm run build && node bench/telemetry.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioServer, callFailure } from './lib/stdio.mjs';
import { cpuMs, percentile } from './lib/util.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const { startForgeSim } = await import('forge-sim');

const WARMUP = 50;
const CALLS = 2000;
/** Untimed calls each between the two timed phases. */
const BETWEEN = 2000;
const CALL = {
  name: 'forge_execute_action',
  arguments: { action: 'issue.list', params: { project_id: '1', state: 'opened' } },
};

// A collector that takes every export and answers 200 with an empty protobuf response; it counts what it got.
const received = { requests: 0, bytes: 0 };
const collector = createServer((req, res) => {
  req.on('data', (d) => (received.bytes += d.length));
  req.on('end', () => {
    received.requests++;
    res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  });
});
await new Promise((resolve) => collector.listen(0, '127.0.0.1', resolve));
const collectorUrl = `http://127.0.0.1:${collector.address().port}`;

const sim = await startForgeSim();
const cli = join(root, 'packages', 'forge-mcp-server', 'dist', 'forge-mcp-server.cjs');
const spec = (env) => ({
  // The bin itself, as the server benchmark and npx start it: the node flags on its first line apply.
  command: cli,
  args: [],
  cwd: root,
  env: {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    FORGE_URL: sim.url,
    FORGE_TOKEN: sim.tokens.api,
    FORGE_MCP_TIER: 'ultimate',
    ...env,
  },
});
const variants = [
  { id: 'off', label: 'telemetry off', server: new StdioServer(spec({})) },
  {
    id: 'on',
    label: 'telemetry on (OTLP http/protobuf, pseudonymous identity)',
    server: new StdioServer(
      spec({
        FORGE_MCP_TELEMETRY: 'true',
        FORGE_MCP_TELEMETRY_IDENTITY: 'pseudonymous',
        OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
      }),
    ),
  },
];
const call = async (v) => {
  const { msg, ms } = await v.server.callTool(CALL.name, CALL.arguments);
  const failed = callFailure(msg);
  if (failed) throw new Error(`${v.label}: ${failed}`);
  return ms;
};
for (const v of variants) {
  await v.server.start();
  for (let i = 0; i < WARMUP; i++) await call(v);
}
/**
 * `n` calls each, one call each in turn, the order swapped every call pair, so neighbouring calls of the two
 * see the same load; each server's latencies and its own CPU time per call over them (steadier than latency
 * on a shared machine).
 */
async function alternately(n) {
  const runs = new Map(variants.map((v) => [v, { samples: [], cpu0: cpuMs(v.server.pid) }]));
  for (let i = 0; i < n; i++) {
    const order = i % 2 ? [...variants].reverse() : variants;
    for (const v of order) runs.get(v).samples.push(await call(v));
  }
  for (const [v, r] of runs) r.cpuPerCall = (cpuMs(v.server.pid) - r.cpu0) / n;
  return runs;
}
const phases = [
  { name: `first ${CALLS} calls after ${WARMUP} warm-up calls`, runs: await alternately(CALLS) },
];
await alternately(BETWEEN);
phases.push({ name: `${CALLS} calls after ${BETWEEN} more`, runs: await alternately(CALLS) });
for (const v of variants) await v.server.close();
await sim.close();
collector.close();

const fmt = (n) => n.toFixed(3);
const [off, on] = variants;
const p = (phase, v, q) => percentile(phase.runs.get(v).samples, q);
const cpu = (phase, v) => phase.runs.get(v).cpuPerCall;
const rows = phases.flatMap((phase) =>
  variants.map(
    (v) =>
      `| ${phase.name} | ${v.label} | ${fmt(p(phase, v, 50))} | ${fmt(p(phase, v, 90))} | ${fmt(p(phase, v, 99))} | ${fmt(cpu(phase, v))} |`,
  ),
);
const differences = phases.map(
  (phase) =>
    `- ${phase.name}: p50 **${fmt(p(phase, on, 50) - p(phase, off, 50))} ms**, server CPU per call ${fmt(cpu(phase, on) - cpu(phase, off))} ms`,
);
const section = [
  '## Telemetry: tools/call with telemetry on beside off',
  '',
  `Our server over stdio, started as its bin (\`dist/forge-mcp-server.cjs\`, its node flags applying), \`forge_execute_action\` issue.list against forge-sim, both processes up at once and called alternately, one call each in turn (the order swapped every pair): ${CALLS} timed calls each after ${WARMUP} warm-up calls each, then ${BETWEEN} untimed calls each, then ${CALLS} timed calls each again; end-to-end latency at the client. ${cpus().length} cores, Node ${process.version}.`,
  '',
  '| phase | server | p50 (ms) | p90 (ms) | p99 (ms) | server CPU per call (ms) |',
  '| --- | --- | --- | --- | --- | --- |',
  ...rows,
  '',
  'Telemetry on minus off (target: under 0.2 ms at p50):',
  '',
  ...differences,
  '',
  `The server's CPU time per call (user and system, all threads, from /proc, over the timed calls, exports included) is a steadier reading of the same cost than latency on a shared machine. In the first calls after start V8 is still compiling, and running unoptimised, the code a call runs, and telemetry brings more of it (the OpenTelemetry SDK's spans, metrics and protobuf export); the second phase shows the server after most of that start-up work is done. The collector received ${received.requests} export requests (${(received.bytes / 1024).toFixed(0)} KiB) during the run.`,
].join('\n');
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'telemetry.md'), section + '\n');
process.stdout.write(section + '\n');
