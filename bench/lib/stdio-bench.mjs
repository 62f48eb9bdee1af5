// The stdio figures of one server: cold start, tools/list, tools/call overhead, resident memory.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { StdioServer, callFailure } from './stdio.mjs';
import { CALLS } from './servers.mjs';
import { max, median, percentile, sleep } from './util.mjs';

export const COLD_STARTS = 10;
export const TOTAL_CALLS = 1000;
const CALL_WARMUP = 10;
const SETTLE_MS = 500;

const log = (...a) => console.error('[bench]', ...a);
const serverRequire = createRequire(
  join(
    fileURLToPath(new URL('.', import.meta.url)),
    '..',
    '..',
    'packages',
    'forge-mcp-server',
    'package.json',
  ),
);

/** Upstream requests forge-sim recorded since index `since`, as replayable signatures. */
function upstreamSince(sim, since) {
  return sim.requests.slice(since).map((r) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(r.query ?? {})) for (const x of [v].flat()) q.append(k, String(x));
    const qs = q.toString();
    const headers = {};
    for (const h of ['private-token', 'authorization', 'accept', 'content-type'])
      if (r.headers[h]) headers[h] = r.headers[h];
    const body = r.method === 'GET' || r.method === 'HEAD' ? undefined : JSON.stringify(r.body ?? null);
    return {
      key: `${r.method} ${r.path}${qs ? `?${qs}` : ''} ${headers['private-token'] ? 'pat' : 'bearer'}`,
      method: r.method,
      url: `${sim.url}${r.path}${qs ? `?${qs}` : ''}`,
      headers,
      body,
      status: r.status,
    };
  });
}

/**
 * Median time forge-sim takes to answer each signature when asked directly, with no server running: undici's
 * request() (the HTTP client our server itself uses, resolved from its package) over a keep-alive connection,
 * the signatures interleaved round by round so that machine noise spreads evenly over them.
 */
export async function replayMedians(signatures, rounds = 200) {
  const { request, Agent } = serverRequire('undici');
  const dispatcher = new Agent({ connections: 1 });
  const sigs = [...signatures.values()].filter((s) => s.method === 'GET');
  const times = new Map(sigs.map((s) => [s.key, []]));
  for (let i = 0; i < rounds + 10; i++) {
    for (const sig of sigs) {
      const t0 = performance.now();
      const res = await request(sig.url, { method: 'GET', headers: sig.headers, dispatcher });
      await res.body.arrayBuffer();
      if (i >= 10) times.get(sig.key).push(performance.now() - t0);
    }
  }
  await dispatcher.close();
  const out = new Map();
  for (const s of signatures.values()) out.set(s.key, times.has(s.key) ? median(times.get(s.key)) : NaN);
  return out;
}

export async function benchStdio(server, sim) {
  const r = { id: server.id, ok: false, starts: [], rssStart: [], notes: [] };
  let s;
  try {
    // Cold starts; the last process stays up for the warm figures.
    for (let i = 0; i < COLD_STARTS; i++) {
      s = new StdioServer(server.spec);
      const { coldMs, list } = await s.start();
      r.starts.push(coldMs);
      await sleep(SETTLE_MS);
      r.rssStart.push(s.rss());
      if (i === 0) {
        r.toolCount = list.tools.length;
        r.listBytes = list.bytes;
        r.listPages = list.pages;
        r.listTokens = countTokens(list.json);
        r.toolNames = new Set(list.tools.map((t) => t.name));
      }
      if (i < COLD_STARTS - 1) {
        await s.close();
        s = undefined;
      }
    }
    log(`${server.id}: cold start median ${median(r.starts).toFixed(1)} ms, ${r.toolCount} tools`);

    // Warm tools/list.
    const listRounds = r.listBytes > 400_000 ? 60 : r.listBytes > 50_000 ? 150 : 300;
    for (let i = 0; i < 5; i++) await s.listTools();
    const listTimes = [];
    for (let i = 0; i < listRounds; i++) listTimes.push((await s.listTools()).ms);
    r.listP50 = median(listTimes);
    r.listP99 = percentile(listTimes, 99);
    r.listRounds = listRounds;
    const clientTimes = [];
    for (let i = 0; i < 10; i++) clientTimes.push(await s.clientListTools());
    r.clientListP50 = median(clientTimes);

    // tools/call: warm-up, then round-robin over the mapped calls up to TOTAL_CALLS calls in all.
    const mapped = CALLS.filter((c) => server.calls[c.key]);
    r.calls = {};
    for (const c of CALLS) {
      const m = server.calls[c.key];
      if (!m) r.calls[c.key] = { offered: false };
      else if (!r.toolNames.has(m[0]))
        r.calls[c.key] = { offered: false, failure: `tool ${m[0]} not in its tools/list` };
      else r.calls[c.key] = { offered: true, tool: m[0], args: m[1], samples: [] };
    }
    const live = mapped.filter((c) => r.calls[c.key].offered);
    let made = 0;
    for (const c of live) {
      for (let i = 0; i < CALL_WARMUP; i++) {
        const [name, args] = server.calls[c.key];
        const { msg } = await s.callTool(name, args);
        made++;
        const f = callFailure(msg);
        if (f) {
          r.calls[c.key].failure = f;
          break;
        }
      }
    }
    const timed = live.filter((c) => !r.calls[c.key].failure);
    const signatures = new Map();
    let i = 0;
    while (made < TOTAL_CALLS && timed.length) {
      const c = timed[i++ % timed.length];
      const [name, args] = server.calls[c.key];
      const since = sim.requests.length;
      const { ms, msg } = await s.callTool(name, args);
      made++;
      const up = upstreamSince(sim, since);
      for (const u of up) signatures.set(u.key, u);
      const f = callFailure(msg);
      if (f) r.calls[c.key].errors = (r.calls[c.key].errors ?? 0) + 1;
      r.calls[c.key].samples.push({
        ms,
        up: up.map((u) => u.key),
        bytes: JSON.stringify(msg.result ?? {}).length,
      });
    }
    r.callsMade = made;
    await sleep(SETTLE_MS);
    r.rssAfterCalls = s.rss();
    await s.close();
    s = undefined;

    // forge-sim's own time for the same upstream requests, asked directly, with no server running.
    const simMs = await replayMedians(signatures);
    for (const c of timed) {
      const cr = r.calls[c.key];
      const lat = cr.samples.map((x) => x.ms);
      const over = cr.samples.map((x) => x.ms - x.up.reduce((a, k) => a + (simMs.get(k) ?? 0), 0));
      const simPer = cr.samples.map((x) => x.up.reduce((a, k) => a + (simMs.get(k) ?? 0), 0));
      cr.n = lat.length;
      cr.latP50 = median(lat);
      cr.latP99 = percentile(lat, 99);
      cr.simMs = median(simPer);
      cr.overP50 = median(over);
      cr.overP99 = percentile(over, 99);
      cr.upstreamPerCall = cr.samples.reduce((a, x) => a + x.up.length, 0) / cr.samples.length;
      cr.upstream = [...new Set(cr.samples.flatMap((x) => x.up))];
      cr.resultBytes = median(cr.samples.map((x) => x.bytes));
      delete cr.samples;
    }
    r.ok = true;
  } catch (e) {
    r.error = `${e?.message ?? e}`.slice(0, 500);
    r.stderr = s?.stderr?.slice(-1500);
    log(`${server.id} failed: ${r.error}`);
    if (s) await s.close();
  }
  r.coldP50 = median(r.starts);
  r.coldMax = max(r.starts);
  r.rssStartMedian = median(r.rssStart.filter(Number.isFinite));
  delete r.toolNames;
  return r;
}
