// Soak of stateful HTTP sessions: our server with --stateless=false holds 96 sessions (the spec's ceiling),
// opened by the v2 client's Streamable HTTP transport in the 2025 era over twelve credentials, each session
// making a tools/call every CALL_EVERY_S seconds for SOAK_MINUTES minutes (default 10). forge-sim runs in a
// process of its own. Resident memory of the server is read at the start (all sessions open), every minute,
// and at the end; failed calls and sessions lost are counted. Prints a markdown section and writes
// bench/results/soak.md. A benchmark, not a test: it never fails on a figure.
// Run after building: npm run build && node bench/soak.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { HTTP_ARGS, mintTokens, startHttp } from './lib/http-bench.mjs';
import { simProcess } from './lib/sim-process.mjs';
import { NODE_FLAGS } from '../packages/forge-mcp-server/scripts/bundle-options.mjs';
import { fmtMiB, percentile, rssBytes, sleep } from './lib/util.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const SESSIONS = 96;
const CREDENTIALS = 12;
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const CALL_EVERY_S = 10;
const CALL = {
  name: 'forge_execute_action',
  arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
};
const log = (...a) => console.error('[soak]', ...a);

const sim = await simProcess(root);
const tokens = await mintTokens(sim, CREDENTIALS);
// Started as the installed command is (the launcher with the bin's node flags): node run on the bundle without
// them grows its heap far past what it holds before collecting (RSS 433 MiB after 25,000 calls, 140 with them).
const srv = await startHttp(root, sim, [...HTTP_ARGS(sim.url), '--stateless=false']);
const sessions = [];
for (let i = 0; i < SESSIONS; i++) {
  const transport = new StreamableHTTPClientTransport(new URL(srv.url), {
    requestInit: { headers: { authorization: `Bearer ${tokens[i % CREDENTIALS]}` } },
  });
  const client = new Client({ name: `soak-${i}`, version: '1' });
  await client.connect(transport);
  sessions.push({ client, transport, calls: 0, failed: 0 });
}
const rssStart = rssBytes(srv.pid);
log(`${SESSIONS} sessions open; RSS ${fmtMiB(rssStart)} MiB; soaking ${MINUTES} min`);
// The machine is shared: its load (1-minute average) is recorded beside each RSS sample.
const samples = [{ minute: 0, rss: rssStart, load: loadavg()[0] }];
const latencies = [];
const endAt = Date.now() + MINUTES * 60_000;

// Each session calls on its own schedule, spread over the period so the load is even.
const loops = sessions.map(async (s, i) => {
  await sleep((i * CALL_EVERY_S * 1000) / SESSIONS);
  while (Date.now() < endAt) {
    const t0 = performance.now();
    try {
      const r = await s.client.callTool(CALL);
      if (r.isError) s.failed++;
      latencies.push(performance.now() - t0);
    } catch {
      s.failed++;
    }
    s.calls++;
    await sleep(CALL_EVERY_S * 1000);
  }
});
const sampler = (async () => {
  for (let m = 1; m <= MINUTES; m++) {
    await sleep(Math.max(0, endAt - (MINUTES - m) * 60_000 - Date.now()));
    samples.push({ minute: m, rss: rssBytes(srv.pid), load: loadavg()[0] });
    log(`minute ${m}: RSS ${fmtMiB(samples.at(-1).rss)} MiB`);
  }
})();
await Promise.all([...loops, sampler]);
const rssEnd = rssBytes(srv.pid);
// Every session still answers after the soak (none was lost to a timeout or eviction).
let alive = 0;
for (const s of sessions) {
  try {
    await s.client.listTools();
    alive++;
  } catch {
    /* counted as lost */
  }
}
for (const s of sessions) await s.client.close().catch(() => undefined);
await srv.stop();
await sim.close();

const calls = sessions.reduce((n, s) => n + s.calls, 0);
const failed = sessions.reduce((n, s) => n + s.failed, 0);
const section = [
  '## Stateful session soak (bench/soak.mjs)',
  '',
  `${SESSIONS} stateful sessions (--stateless=false, 2025-era client, ${CREDENTIALS} credentials) held for ${MINUTES} min, ` +
    `each calling issue.get every ${CALL_EVERY_S} s; the server started as its bin is (node ${NODE_FLAGS}); ` +
    `${cpus().length} cores, Node ${process.versions.node}, shared machine.`,
  '',
  '| Figure | Value |',
  '|---|---|',
  `| server RSS with all sessions open (start) | ${fmtMiB(rssStart)} MiB |`,
  `| server RSS at the end | ${fmtMiB(rssEnd)} MiB |`,
  `| change | ${fmtMiB(rssEnd - rssStart)} MiB |`,
  `| calls made / failed | ${calls} / ${failed} |`,
  `| tools/call p50 / p99 | ${percentile(latencies, 50).toFixed(2)} / ${percentile(latencies, 99).toFixed(2)} ms |`,
  `| sessions still answering after the soak | ${alive} of ${SESSIONS} |`,
  '',
  `RSS per minute (MiB): ${samples.map((s) => fmtMiB(s.rss)).join(', ')}`,
  '',
  `Machine load average (1 min) at each sample: ${samples.map((s) => s.load.toFixed(2)).join(', ')}`,
  '',
].join('\n');
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'soak.md'), section);
process.stdout.write(section);
