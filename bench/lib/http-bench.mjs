// Our HTTP mode: throughput and p99 at 1, 16 and 64 concurrent clients with distinct tokens (autocannon in
// its own process), and resident memory per held credential at 100 and 1,000 credentials.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { reap, rssBytes, sleep } from './util.mjs';

const log = (...a) => console.error('[bench]', ...a);
export const LEVELS = [1, 16, 64];
export const LOAD_SECONDS = 10;
export const CREDENTIAL_COUNTS = [100, 1000];
export const CREDENTIAL_REPS = 3;

/** The legacy stateless tools/call POST (no initialize, no session): verified to be answered by the server. */
export const CALL_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'forge_execute_action',
    arguments: { action: 'merge_request.get', params: { project_id: '1', merge_request_iid: 1 } },
  },
});

/** Mints n api-scoped personal access tokens through the instance's own API. */
export async function mintTokens(sim, n) {
  const tokens = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${sim.url}/api/v4/user/personal_access_tokens`, {
      method: 'POST',
      headers: { 'private-token': sim.tokens.api, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `bench-${i}`, scopes: ['api'] }),
    });
    if (res.status !== 201) throw new Error(`minting token ${i}: HTTP ${res.status} ${await res.text()}`);
    tokens.push((await res.json()).token);
  }
  return tokens;
}

export const HTTP_ARGS = (simUrl) => [
  '--http',
  '--http-addr=127.0.0.1:0',
  `--forge-url=${simUrl}`,
  '--tier=ultimate',
  '--tool-surface=dynamic',
  '--rate-limit-rps=0',
  '--max-http-clients=2000',
];

/**
 * Starts our server in HTTP mode with `args` (default HTTP_ARGS); resolves with { url, pid, stderr(), stop() }
 * once it logs the URL it serves.
 */
export function startHttp(root, sim, args = HTTP_ARGS(sim.url)) {
  return new Promise((resolve, reject) => {
    const cli = join(root, 'packages', 'forge-mcp-server', 'dist', 'forge-mcp-server.cjs');
    const child = spawn(cli, args, {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    let up = false;
    const timer = setTimeout(
      () => reject(new Error(`HTTP server did not start: ${err.slice(-800)}`)),
      30_000,
    );
    child.stderr.on('data', (d) => {
      if (err.length < 64_000) err += d.toString();
      const m = /"url":"(http:[^"]+)"/.exec(err);
      if (m && !up) {
        up = true;
        clearTimeout(timer);
        resolve({
          url: m[1],
          pid: child.pid,
          stderr: () => err,
          stop: async () => {
            child.kill('SIGTERM');
            await reap(child.pid, 5000);
          },
        });
      }
    });
    child.on('exit', (code) => reject(new Error(`HTTP server exited (${code}): ${err.slice(-800)}`)));
  });
}

async function call(url, token) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: CALL_BODY,
  });
  const text = await res.text();
  if (res.status !== 200 || !text.includes('"iid":') || text.includes('"isError":true'))
    throw new Error(`HTTP tools/call answered ${res.status}: ${text.slice(0, 300)}`);
}

async function eachLimited(items, limit, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

function runLoad(root, cfg) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bench', 'lib', 'load.mjs'), JSON.stringify(cfg)], {
      cwd: join(root, 'bench'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        resolve(JSON.parse(out.trim().split('\n').pop()));
      } catch (e) {
        reject(new Error(`load generator failed (${e.message}): ${err.slice(-500)}`));
      }
    });
  });
}

export async function benchHttp(root, sim, tokens) {
  const r = { ok: false, levels: [], credentials: [], notes: [] };
  let srv;
  try {
    // Throughput: one server, each level's tokens used once beforehand so their validation is not timed.
    srv = await startHttp(root, sim);
    r.rssStart = rssBytes(srv.pid);
    let offset = 0;
    for (const c of LEVELS) {
      const mine = tokens.slice(offset, offset + c);
      offset += c;
      await eachLimited(mine, 8, (t) => call(srv.url, t));
      const mrGets = () => sim.countPath('/api/v4/projects/1/merge_requests/1');
      const before = await mrGets();
      const res = await runLoad(root, {
        url: srv.url,
        tokens: mine,
        body: CALL_BODY,
        connections: c,
        durationSec: LOAD_SECONDS,
      });
      res.upstreamCalls = (await mrGets()) - before;
      r.levels.push(res);
      log(`http ${c} clients: ${res.rps.toFixed(0)} req/s, p99 ${res.latency.p99} ms, non-2xx ${res.non2xx}`);
    }
    r.rssAfterLoad = rssBytes(srv.pid);
    await srv.stop();
    srv = undefined;

    // Memory per held credential: a fresh server per count and repetition (RSS moves with GC timing).
    for (const n of CREDENTIAL_COUNTS) {
      const reps = [];
      for (let rep = 0; rep < CREDENTIAL_REPS; rep++) {
        srv = await startHttp(root, sim);
        for (let i = 0; i < 20; i++) await call(srv.url, sim.tokens.api);
        await sleep(1000);
        const before = rssBytes(srv.pid);
        await eachLimited(tokens.slice(0, n), 8, (t) => call(srv.url, t));
        await sleep(1000);
        const after = rssBytes(srv.pid);
        reps.push({ before, after, perCredential: (after - before) / n });
        await srv.stop();
        srv = undefined;
      }
      const sorted = [...reps].sort((a, b) => a.perCredential - b.perCredential);
      const mid = sorted[Math.floor(sorted.length / 2)];
      r.credentials.push({ n, ...mid, reps });
      log(
        `http ${n} credentials: ${reps.map((x) => (x.perCredential / 1024).toFixed(1)).join(', ')} KiB each`,
      );
    }
    r.ok = true;
  } catch (e) {
    r.error = `${e?.message ?? e}`.slice(0, 800);
    log(`http failed: ${r.error}`);
    if (srv) await srv.stop();
  }
  return r;
}
