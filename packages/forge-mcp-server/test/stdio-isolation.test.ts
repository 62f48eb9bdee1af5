/**
 * What a stdio server must never do, each watched from outside the process so it would be caught if it
 * appeared: stdout carries JSON-RPC only and every log line goes to stderr; no listening socket is opened;
 * the token is written to no file (the whole private HOME, TMPDIR, compile cache and working directory are
 * scanned while it runs and after it exits); nothing is sent anywhere but the instance (no self-update
 * check, no webhook: every other destination is routed to a recording proxy); the token is checked with
 * GET /api/v4/user at start, a refused token stops the start, and no token exchange is ever sent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CLI,
  httpServer,
  keepLog,
  listeningSockets,
  rpc,
  runCli,
  sim,
  type ForgeSim,
  type HttpServerProcess,
  until,
} from './harness.js';

// Servers are spawned on a shared, loaded machine: generous limits, no timing asserted.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let s: ForgeSim;
/** A recording proxy: every request or CONNECT that is not for the instance lands here. */
let sink: Server;
const sunk: string[] = [];
let sinkUrl = '';
let root = '';
/** Preloaded into every server here: records the destination of every outbound socket it opens. */
let preload = '';

/** Every destination the servers of `name` connected to (host:port), as the preload recorded them. */
function connectedTo(name: string): string[] {
  const log = join(root, `${name}.connections`);
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
}

beforeAll(async () => {
  s = await sim();
  sink = createServer((req, res) => {
    sunk.push(`${req.method} ${req.url}`);
    res.writeHead(502).end();
  });
  sink.on('connect', (req, socket: Socket) => {
    sunk.push(`CONNECT ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
  sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  root = mkdtempSync(join(tmpdir(), 'forge-isolation-'));
  preload = join(root, 'record-connections.cjs');
  writeFileSync(
    preload,
    [
      "const net = require('node:net');",
      "const fs = require('node:fs');",
      'const log = process.env.FORGE_TEST_CONNECT_LOG;',
      'const connect = net.Socket.prototype.connect;',
      'net.Socket.prototype.connect = function (...args) {',
      '  let o = Array.isArray(args[0]) ? args[0][0] : args[0];',
      "  const dest = o && typeof o === 'object' ? (o.path ?? `${o.host ?? 'localhost'}:${o.port}`) : `${args[1] ?? 'localhost'}:${o}`;",
      "  if (log) fs.appendFileSync(log, dest + '\\n');",
      '  return connect.apply(this, args);',
      '};',
    ].join('\n'),
  );
});
afterAll(async () => {
  sink.closeAllConnections();
  await new Promise((r) => sink.close(r));
  await s.close();
  rmSync(root, { recursive: true, force: true });
});

/** A private HOME, TMPDIR, compile cache and working directory, and every outbound route but the instance's to the sink. */
function privateEnv(name: string) {
  const base = join(root, name);
  const dirs = {
    home: join(base, 'home'),
    tmp: join(base, 'tmp'),
    cache: join(base, 'cache'),
    work: join(base, 'work'),
  };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    XDG_CONFIG_HOME: join(dirs.home, '.config'),
    XDG_CACHE_HOME: join(dirs.home, '.cache'),
    NODE_COMPILE_CACHE: dirs.cache,
    HTTP_PROXY: sinkUrl,
    HTTPS_PROXY: sinkUrl,
    NO_PROXY: new URL(s.url).hostname,
    NODE_USE_ENV_PROXY: '1',
    npm_config_registry: sinkUrl,
    NODE_OPTIONS: `--require=${preload}`,
    FORGE_TEST_CONNECT_LOG: join(root, `${name}.connections`),
    FORGE_URL: s.url,
    FORGE_MCP_TIER: 'ultimate',
    FORGE_MCP_LOG_LEVEL: 'debug',
  };
  return { base, dirs, env };
}

/** Every regular file under `dir`, with its bytes. */
function filesUnder(dir: string): Array<{ path: string; bytes: Buffer }> {
  const out: Array<{ path: string; bytes: Buffer }> = [];
  const walk = (d: string) => {
    let names: string[] = [];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      let st;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) out.push({ path: p, bytes: readFileSync(p) });
    }
  };
  walk(dir);
  return out;
}

interface Raw {
  child: ChildProcess;
  lines: () => string[];
  stderr: () => string;
  send: (msg: unknown) => void;
  /** Resolves with the answer carrying `id`. */
  answer: (id: number | string) => Promise<Record<string, unknown>>;
  close: () => Promise<void>;
}

/** The built server over raw pipes: every stdout line is kept as written, nothing is dropped. */
function spawnRaw(env: Record<string, string>, cwd: string): Raw {
  const child = spawn(process.execPath, [CLI], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    let nl: number;
    while ((nl = out.indexOf('\n')) !== -1) {
      lines.push(out.slice(0, nl));
      out = out.slice(nl + 1);
    }
    for (const w of waiters.splice(0)) w();
  });
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  keepLog(child.stderr);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const find = (id: number | string) =>
    lines
      .map((l) => {
        try {
          return JSON.parse(l) as Record<string, unknown>;
        } catch {
          return undefined;
        }
      })
      .find((m) => m?.id === id);
  return {
    child,
    lines: () => lines.concat(out ? [out] : []),
    stderr: () => err,
    send: (msg) => void child.stdin!.write(`${JSON.stringify(msg)}\n`),
    answer: (id) =>
      new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no answer to ${id}; stderr: ${err}`)), 60_000);
        const check = () => {
          const m = find(id);
          if (m) {
            clearTimeout(t);
            resolve(m);
          } else waiters.push(check);
        };
        check();
      }),
    close: async () => {
      child.stdin!.end();
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    },
  };
}

const call = (id: number, action: string, params: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'forge_execute_action', arguments: { action, params } },
});

/** A whole session: handshake, list, find, reads, a write, a failing call and a download into the working directory. */
async function session(c: Raw) {
  c.send({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  await c.answer(0);
  c.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  c.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  c.send({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'forge_find_action', arguments: { query: 'list issues' } },
  });
  c.send(call(3, 'issue.list', { project_id: '1' }));
  c.send(call(4, 'issue.create', { project_id: '1', title: 'isolation' }));
  c.send(call(5, 'issue.get', { project_id: '1', issue_iid: 99999 }));
  c.send(call(6, 'job.artifacts', { project_id: '1', job_id: 1001, output_path: 'artifacts.zip' }));
  const answers = [];
  for (const id of [1, 2, 3, 4, 5, 6]) answers.push(await c.answer(id));
  return answers;
}

describe('a stdio server keeps to its pipes and its instance', () => {
  it('writes only JSON-RPC to stdout and its logs to stderr, listens on no port, stores no token and calls nothing but the instance', async () => {
    const { base, dirs, env } = privateEnv('stdio');
    const token = s.tokens.api;
    const since = s.requests.length;
    const c = spawnRaw({ ...env, FORGE_TOKEN: token }, dirs.work);
    let during: Array<{ path: string; bytes: Buffer }> = [];
    let sockets: string[] = [];
    try {
      const answers = await session(c);
      const download = answers[5] as { result: { content: Array<{ text: string }>; isError?: boolean } };
      expect(download.result.isError, download.result.content[0]!.text).toBeFalsy();
      sockets = listeningSockets(c.child.pid!);
      during = filesUnder(base);
    } finally {
      await c.close();
    }
    // stdout: one JSON-RPC 2.0 message per line and nothing else (the SDK client would drop a stray line).
    const lines = c.lines();
    expect(lines.length).toBeGreaterThanOrEqual(7);
    for (const line of lines) {
      const m = JSON.parse(line) as Record<string, unknown>;
      expect(m.jsonrpc, line).toBe('2.0');
      expect('id' in m || 'method' in m, line).toBe(true);
      expect('level' in m || 'msg' in m, line).toBe(false);
    }
    // stderr: the log records, debug ones included.
    const logs = c
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(logs.some((l) => l.includes('serving on stdio'))).toBe(true);
    expect(logs.some((l) => l.includes('"level":"debug"'))).toBe(true);
    // No listening socket.
    expect(sockets).toEqual([]);
    // The token in no file written while it ran (the pid file, the download, the compile cache) or left after.
    expect(during.some((f) => f.path === join(dirs.work, 'artifacts.zip'))).toBe(true);
    expect(during.some((f) => f.path.startsWith(dirs.tmp) && f.path.endsWith('.pid'))).toBe(true);
    const after = filesUnder(base);
    expect(after.length).toBeGreaterThan(0);
    for (const f of [...during, ...after]) {
      expect(f.bytes.includes(token), f.path).toBe(false);
      expect(f.bytes.includes(Buffer.from(token).toString('base64')), f.path).toBe(false);
    }
    // Nothing went anywhere but the instance: no self-update check, no webhook.
    expect(sunk).toEqual([]);
    const destinations = new Set(connectedTo('stdio'));
    expect(destinations).toEqual(new Set([new URL(s.url).host]));
    // The token was checked with GET /api/v4/user first; no token exchange was ever sent.
    const sent = s.requests.slice(since);
    const check = sent.find((r) => r.path === '/api/v4/user');
    expect(check).toMatchObject({ method: 'GET', token });
    expect(sent.indexOf(check!)).toBeLessThan(2);
    expect(sent.filter((r) => r.path.startsWith('/oauth/token') && r.method === 'POST')).toEqual([]);
  });

  it('the socket check sees a listener when one is opened (the diagnostics address)', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const { dirs, env } = privateEnv('pprof');
    const c = spawnRaw(
      { ...env, FORGE_TOKEN: s.tokens.api, FORGE_MCP_PPROF_ADDR: `127.0.0.1:${port}` },
      dirs.work,
    );
    try {
      c.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
      await c.answer(1);
      expect(listeningSockets(c.child.pid!)).toHaveLength(1);
    } finally {
      await c.close();
    }
  });

  it('checks the token with GET /api/v4/user at start, and a refused token stops the start', async () => {
    const { env } = privateEnv('refused');
    const since = s.requests.length;
    const r = await runCli([], { ...env, FORGE_TOKEN: s.tokens.revoked });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/token/i);
    expect(r.stderr).not.toContain(s.tokens.revoked);
    const sent = s.requests.slice(since);
    // The identity check (and the token's own description, asked beside it), then nothing.
    const check = sent.find((q) => q.path === '/api/v4/user');
    expect(check).toMatchObject({ method: 'GET', token: s.tokens.revoked, status: 401 });
    for (const q of sent)
      expect(`${q.method} ${q.path}`).toMatch(/^GET \/api\/v4\/(user|personal_access_tokens\/self)$/);
  });
});

describe('an HTTP server calls nothing but the instance', () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    const { env } = privateEnv('http');
    // Subscribed resources are read every second, so a change becomes an event within the test.
    server = await httpServer(s, [], { ...env, FORGE_MCP_SUBSCRIPTION_POLL_INTERVAL: '1s' });
  });
  afterAll(async () => server.stop());

  it('sends no webhook, no self-update check and no token exchange through a whole session with writes and a subscription event', async () => {
    const since = s.requests.length;
    const headers = { 'private-token': s.tokens.api };
    const init = await rpc(server.url, headers, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(init.status).toBe(200);
    for (const [id, action, params] of [
      [1, 'issue.create', { project_id: '1', title: 'no webhook' }],
      [2, 'issue.list', { project_id: '1' }],
      [3, 'merge_request.list', { project_id: '1' }],
    ] as const) {
      const res = await rpc(server.url, headers, call(id, action, params));
      expect(res.status).toBe(200);
      await res.text();
    }
    // A listener is told of a change made at the instance: the event goes to the client's stream only.
    const listener = new Client(
      { name: 'listener', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await listener.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { authorization: `Bearer ${s.tokens.api}` } },
      }),
    );
    const told: string[] = [];
    listener.setNotificationHandler('notifications/resources/updated', (n) => void told.push(n.params.uri));
    try {
      const mark = s.requests.length;
      const sub = await listener.listen({ resourceSubscriptions: ['forge://project/1/issue/1'] });
      await until(
        () =>
          s.requests.slice(mark).some((r) => r.method === 'GET' && r.path === '/api/v4/projects/1/issues/1'),
        'the first read of the listened issue',
      );
      const edit = await fetch(`${s.url}/api/v4/projects/1/issues/1`, {
        method: 'PUT',
        headers: { 'private-token': s.tokens.api, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'an event, and still no webhook' }),
      });
      expect(edit.status).toBe(200);
      await until(() => told.length > 0, 'notifications/resources/updated');
      expect(told).toEqual(['forge://project/1/issue/1']);
      await sub.close();
    } finally {
      await listener.close();
    }
    const sent = s.requests.slice(since);
    expect(sent.some((r) => r.method === 'POST' && r.path === '/api/v4/projects/1/issues')).toBe(true);
    for (const r of sent) expect(r.path, `${r.method} ${r.path}`).toMatch(/^\/api\/(v4|graphql)/);
    expect(sunk).toEqual([]);
    expect(new Set(connectedTo('http'))).toEqual(new Set([new URL(s.url).host]));
  });
});
