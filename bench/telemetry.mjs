// Benchmark of telemetry's cost on tools/call: our server over stdio against forge-sim, once with telemetry off
// and once with it on (OTLP http/protobuf to a loopback collector that accepts every export, default batch and
// metric intervals, identity policy pseudonymous so the HMAC is paid too), both started as the bin is (its
// node flags apply) and up at once, called alternately one call each, so the shared machine's drift falls on
// both alike. Prints a markdown section and writes bench/results/telemetry.md.
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
for (const v of variants) {
  await v.server.start();
  v.samples = [];
  for (let i = 0; i < WARMUP; i++) {
    const { msg } = await v.server.callTool(CALL.name, CALL.arguments);
    const failed = callFailure(msg);
    if (failed) throw new Error(`${v.label}: ${failed}`);
  }
}
// The servers' own CPU time over the timed rounds: steadier than latency on a shared machine.
for (const v of variants) v.cpu0 = cpuMs(v.server.pid);
// One call each in turn, the order swapped every call pair, so neighbouring calls of the two see the same load.
for (let i = 0; i < CALLS; i++) {
  const order = i % 2 ? [...variants].reverse() : variants;
  for (const v of order) v.samples.push((await v.server.callTool(CALL.name, CALL.arguments)).ms);
}
for (const v of variants) v.cpuPerCall = (cpuMs(v.server.pid) - v.cpu0) / v.samples.length;
for (const v of variants) await v.server.close();
await sim.close();
collector.close();

const fmt = (n) => n.toFixed(3);
const p = (v, q) => percentile(v.samples, q);
const [off, on] = variants;
const rows = variants.map(
  (v) =>
    `| ${v.label} | ${v.samples.length} | ${fmt(p(v, 50))} | ${fmt(p(v, 90))} | ${fmt(p(v, 99))} | ${fmt(v.cpuPerCall)} |`,
);
const diff50 = p(on, 50) - p(off, 50);
const section = [
  '## Telemetry: tools/call with telemetry on beside off',
  '',
  `Our server over stdio, started as its bin (\`dist/forge-mcp-server.cjs\`, its node flags applying), \`forge_execute_action\` issue.list against forge-sim, both processes up at once and called alternately, one call each in turn (${CALLS} calls each, the order swapped every pair), after ${WARMUP} warm-up calls each; end-to-end latency at the client. ${cpus().length} cores, Node ${process.version}.`,
  '',
  '| server | timed calls | p50 (ms) | p90 (ms) | p99 (ms) | server CPU per call (ms) |',
  '| --- | --- | --- | --- | --- | --- |',
  ...rows,
  '',
  `Difference at p50: **${fmt(diff50)} ms** (target: under 0.2 ms). The server's CPU time per call (user and system, from /proc, over the timed rounds, exports included) differs by ${fmt(on.cpuPerCall - off.cpuPerCall)} ms: on a shared machine a steadier reading of the same cost than latency. The collector received ${received.requests} export requests (${(received.bytes / 1024).toFixed(0)} KiB) during the run.`,
].join('\n');
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'telemetry.md'), section + '\n');
process.stdout.write(section + '\n');
