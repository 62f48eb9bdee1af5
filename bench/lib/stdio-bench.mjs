// The stdio figures of the servers: cold start, tools/list, tools/call overhead, resident memory.
// Cold starts and tools/list are measured server after server; the tools/call phase then runs with every server
// up at once, interleaved in rounds, so that the shared machine's slow drift in noise falls on every server alike.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { StdioServer, callFailure } from './stdio.mjs';
import { CALLS } from './servers.mjs';
import { connectionsTo, max, median, percentile, sleep } from './util.mjs';

export const COLD_STARTS = 10;
export const TOTAL_CALLS = 1000;
export const CALL_WARMUP = 10;
/** Calls one server makes in a row before the next server's turn. */
export const CALL_BATCH = 30;
export const REPLAY_ROUNDS = 200;
const REPLAY_WARMUP = 10;
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

/**
 * Upstream requests forge-sim recorded since index `since`, as replayable signatures. `key` names the request as
 * the report prints it (method, path, query, token kind); `id` adds the headers and body, so that two servers'
 * requests are replayed as one only when they are the same request.
 */
function upstreamSince(sim, since) {
  return sim.requests.slice(since).map((r) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(r.query ?? {})) for (const x of [v].flat()) q.append(k, String(x));
    const qs = q.toString();
    const headers = {};
    for (const h of ['private-token', 'authorization', 'accept', 'content-type'])
      if (r.headers[h]) headers[h] = r.headers[h];
    const body = r.method === 'GET' || r.method === 'HEAD' ? undefined : JSON.stringify(r.body ?? null);
    const key = `${r.method} ${r.path}${qs ? `?${qs}` : ''} ${headers['private-token'] ? 'pat' : 'bearer'}`;
    return {
      key,
      id: `${key} ${JSON.stringify(headers)}${body === undefined ? '' : ` ${body}`}`,
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
 * request() (the HTTP client our server itself uses, resolved from its package) over one keep-alive connection,
 * the signatures interleaved round by round so that machine noise spreads evenly over them.
 * @returns { medians: Map<id, ms> (NaN for a request not replayed: only GETs are), connections: how many it
 *   opened, keepAlive: forge-sim's Connection and Keep-Alive response headers, as { connection, keepAlive } }
 */
export async function replay(signatures, rounds = REPLAY_ROUNDS) {
  const { request, Agent } = serverRequire('undici');
  const dispatcher = new Agent({ connections: 1 });
  let connections = 0;
  let keepAlive;
  dispatcher.on('connect', () => connections++);
  const sigs = [...signatures.values()].filter((s) => s.method === 'GET');
  const times = new Map(sigs.map((s) => [s.id, []]));
  for (let i = 0; i < rounds + REPLAY_WARMUP; i++) {
    for (const sig of sigs) {
      const t0 = performance.now();
      const res = await request(sig.url, { method: 'GET', headers: sig.headers, dispatcher });
      await res.body.arrayBuffer();
      keepAlive ??= { connection: res.headers.connection, keepAlive: res.headers['keep-alive'] };
      if (i >= REPLAY_WARMUP) times.get(sig.id).push(performance.now() - t0);
    }
  }
  await dispatcher.close();
  const medians = new Map();
  for (const s of signatures.values()) medians.set(s.id, times.has(s.id) ? median(times.get(s.id)) : NaN);
  return { medians, connections, keepAlive };
}

/**
 * Cold starts and warm tools/list of one server, as before any other phase. Resolves with { r, s }: the result
 * so far and the last started process, left up for the tools/call phase (undefined when the server failed).
 */
export async function startStdio(server) {
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
  } catch (e) {
    fail(r, s, e);
    if (s) await s.close();
    s = undefined;
  }
  r.coldP50 = median(r.starts);
  r.coldMax = max(r.starts);
  r.rssStartMedian = median(r.rssStart.filter(Number.isFinite));
  return { server, r, s };
}

function fail(r, s, e) {
  r.ok = false;
  r.error = `${e?.message ?? e}`.slice(0, 500);
  r.stderr = s?.stderr?.slice(-1500);
  log(`${r.id} failed: ${r.error}`);
}

/**
 * The tools/call phase, with every started server up at once. Each server gets TOTAL_CALLS calls in all: first
 * CALL_WARMUP of each mapped call, then its mapped calls round-robin. Both run in rounds: in each round every
 * server still short of its total makes up to CALL_BATCH calls in a row, one at a time, the servers taking their
 * turns in an order that rotates by one each round. Then every server's resident memory is read (after one
 * settle), every server is closed, and forge-sim's own time for the union of all their upstream requests is
 * measured once, by replay(), to give every server's overhead.
 * @param runs what startStdio() resolved with, one per server; each `r` is completed in place.
 * @returns { replayConnections, replaySignatures, keepAlive, strayUpstream, maxGapMs, rounds, batch }
 */
export async function interleavedCalls(runs, sim) {
  const live = [];
  for (const run of runs) {
    const { server, r, s } = run;
    if (!s) continue;
    r.calls = {};
    for (const c of CALLS) {
      const m = server.calls[c.key];
      if (!m) r.calls[c.key] = { offered: false };
      else if (!r.toolNames.has(m[0]))
        r.calls[c.key] = { offered: false, failure: `tool ${m[0]} not in its tools/list` };
      else r.calls[c.key] = { offered: true, tool: m[0], args: m[1], samples: [] };
    }
    const offered = CALLS.filter((c) => r.calls[c.key].offered);
    // The warm-up calls, in the order they are made (each mapped call CALL_WARMUP times in a row, as before).
    const warmup = offered.flatMap((c) => Array(CALL_WARMUP).fill(c));
    live.push({ run, warmup, made: 0, next: 0, done: !offered.length });
  }

  const signatures = new Map();
  let strayUpstream = 0;
  // The longest one server waited between two of its calls (while the others had their turns).
  let maxGapMs = 0;
  let seen = sim.requests.length;
  /** One call of one server; false once that server can make no more. */
  const callOnce = async (e) => {
    const { server, r, s } = e.run;
    const warm = e.warmup.length > 0;
    let c;
    if (warm) c = e.warmup.shift();
    else {
      const timed = CALLS.filter((x) => r.calls[x.key].offered && !r.calls[x.key].failure);
      if (!timed.length) return false;
      c = timed[e.next++ % timed.length];
    }
    const [name, args] = server.calls[c.key];
    strayUpstream += sim.requests.length - seen;
    const since = sim.requests.length;
    if (e.lastEnd !== undefined) maxGapMs = Math.max(maxGapMs, performance.now() - e.lastEnd);
    const { ms, msg } = await s.callTool(name, args);
    e.lastEnd = performance.now();
    e.made++;
    seen = sim.requests.length;
    const f = callFailure(msg);
    if (warm) {
      if (f) {
        r.calls[c.key].failure = f;
        // the rest of this call's warm-up is skipped, as it was before
        e.warmup = e.warmup.filter((x) => x !== c);
      }
      return true;
    }
    const up = upstreamSince(sim, since);
    for (const u of up) signatures.set(u.id, u);
    if (f) r.calls[c.key].errors = (r.calls[c.key].errors ?? 0) + 1;
    r.calls[c.key].samples.push({
      ms,
      up: up.map((u) => u.id),
      bytes: JSON.stringify(msg.result ?? {}).length,
    });
    return true;
  };

  let round = 0;
  for (;;) {
    const pending = live.filter((e) => !e.done);
    if (!pending.length) break;
    const order = live.map((_, i) => live[(i + round) % live.length]).filter((e) => !e.done);
    for (const e of order) {
      try {
        for (let k = 0; k < CALL_BATCH && e.made < TOTAL_CALLS; k++) {
          if (!(await callOnce(e))) {
            e.done = true;
            break;
          }
        }
        if (e.made >= TOTAL_CALLS) e.done = true;
      } catch (err) {
        fail(e.run.r, e.run.s, err);
        e.done = true;
        e.failed = true;
        await e.run.s.close();
        e.run.s = undefined;
      }
    }
    round++;
  }
  log(`tools/call: ${live.length} servers interleaved in ${round} rounds of up to ${CALL_BATCH} calls each`);
  if (strayUpstream)
    log(`tools/call: ${strayUpstream} upstream requests arrived between calls (not counted)`);

  // Resident memory after the calls, every server read after the same settle; then every server exits.
  // And the connections each holds to forge-sim: one, for a client that keeps its connection alive.
  await sleep(SETTLE_MS);
  const held = connectionsTo(new URL(sim.url).port);
  for (const e of live) {
    if (!e.run.s) continue;
    e.run.r.rssAfterCalls = e.run.s.rss();
    e.run.r.connectionsAfterCalls = held ? (held.get(e.run.s.pid) ?? 0) : NaN;
  }
  for (const run of runs) {
    if (run.s) await run.s.close();
    run.s = undefined;
  }

  // forge-sim's own time for the same upstream requests, asked directly, once for all, with no server running.
  const { medians, connections, keepAlive } = await replay(signatures);
  const simOf = (ids) => ids.reduce((a, id) => a + (medians.get(id) ?? 0), 0);
  for (const e of live) {
    const { r } = e.run;
    r.callsMade = e.made;
    if (e.failed) continue;
    for (const c of CALLS) {
      const cr = r.calls[c.key];
      if (!cr.offered || cr.failure) {
        delete cr.samples;
        continue;
      }
      const lat = cr.samples.map((x) => x.ms);
      const simPer = cr.samples.map((x) => simOf(x.up));
      const over = cr.samples.map((x, i) => x.ms - simPer[i]);
      cr.n = lat.length;
      cr.latP50 = median(lat);
      cr.latP99 = percentile(lat, 99);
      cr.simMs = median(simPer);
      cr.overP50 = median(over);
      cr.overP99 = percentile(over, 99);
      cr.upstreamPerCall = cr.samples.reduce((a, x) => a + x.up.length, 0) / cr.samples.length;
      cr.upstream = [...new Set(cr.samples.flatMap((x) => x.up.map((id) => signatures.get(id).key)))];
      cr.resultBytes = median(cr.samples.map((x) => x.bytes));
      delete cr.samples;
    }
    r.ok = true;
  }
  for (const run of runs) delete run.r.toolNames;
  return {
    replayConnections: connections,
    replaySignatures: signatures.size,
    keepAlive,
    strayUpstream,
    maxGapMs,
    rounds: round,
    batch: CALL_BATCH,
  };
}

/** Our server's answer to each mapped call, from one fresh process (for the floor server to replay). */
export async function captureAnswers(server) {
  const s = new StdioServer(server.spec);
  try {
    await s.start();
    const answers = {};
    for (const c of CALLS) {
      const m = server.calls[c.key];
      if (!m) continue;
      const { msg } = await s.callTool(m[0], m[1]);
      const f = callFailure(msg);
      if (f) throw new Error(`${server.id} ${m[0]}: ${f}`);
      answers[c.key] = msg.result;
    }
    return answers;
  } finally {
    await s.close();
  }
}
