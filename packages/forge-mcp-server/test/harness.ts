/**
 * Test harness: forge-sim on a loopback port, the built server spawned over real stdio pipes (or
 * listening on loopback HTTP), and a real MCP client (@modelcontextprotocol/client) talking to it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startForgeSim, type ForgeSim, type SimOptions } from 'forge-sim';
import { keepLog as keepLogOf, logFile, secretsHandedOut, secretsInHeaders } from '../../../test-logs.js';

export { testSecret } from '../../../test-logs.js';

/** What `npx forge-mcp-server` runs: the bundled server. */
export const CLI = join(dirname(fileURLToPath(import.meta.url)), '../dist/forge-mcp-server.cjs');

export type { ForgeSim };

/**
 * Where the spawned servers keep their compile cache: out of the home folder, and kept to a few files by the
 * launcher (test/compile-cache.test.ts tests the cache itself).
 */
export const TEST_COMPILE_CACHE = join(tmpdir(), 'forge-mcp-server-test-compile-cache');

/**
 * A spawned server's environment: PATH, HOME and the test compile cache, then `env`. Every secret in `env` and
 * `args` is registered for the suite's secret grep.
 */
function childEnv(env: Record<string, string>, args: string[]): Record<string, string> {
  secretsHandedOut(env, args);
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    NODE_COMPILE_CACHE: TEST_COMPILE_CACHE,
    ...env,
  };
}

/**
 * Every spawned server's stderr is also written under FORGE_TEST_LOG_DIR (set by the suite's global setup),
 * where the teardown looks for any token forge-sim ever issued and any secret a test handed out: no log line of
 * any test may hold one.
 */
export function keepLog(stream: NodeJS.ReadableStream | null | undefined): void {
  keepLogOf(stream, 'forge-mcp-server');
}

export async function sim(opts: SimOptions = {}): Promise<ForgeSim> {
  return startForgeSim(opts);
}

export interface StdioOptions {
  /** The server's script (default CLI): another path to the same build, as an install may name it. */
  script?: string;
  env?: Record<string, string>;
  args?: string[];
  modern?: boolean;
  /** The server's working directory. */
  cwd?: string;
  capabilities?: Record<string, unknown>;
  /** clientInfo.name (default forge-tests). */
  clientName?: string;
  /** Answers elicitation/create requests (legacy era) and input requests (modern era). */
  onElicit?: (params: { message: string }) => {
    action: 'accept' | 'decline' | 'cancel';
    content?: Record<string, unknown>;
  };
}

export interface Connected {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

/** Spawns the server over stdio against `s` and connects a v2 client. */
export async function stdioClient(s: ForgeSim, opts: StdioOptions = {}): Promise<Connected> {
  const env = childEnv(
    {
      FORGE_URL: s.url,
      FORGE_TOKEN: s.tokens.api,
      FORGE_MCP_TIER: 'ultimate',
      FORGE_MCP_LOG_LEVEL: 'debug',
      ...opts.env,
    },
    opts.args ?? [],
  );
  for (const [k, v] of Object.entries(env)) if (v === '') delete env[k];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [opts.script ?? CLI, ...(opts.args ?? [])],
    env,
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  keepLog(transport.stderr);
  const client = new Client(
    { name: opts.clientName ?? 'forge-tests', version: '1.0.0' },
    {
      capabilities: (opts.capabilities ?? (opts.onElicit ? { elicitation: { form: {} } } : {})) as never,
      ...(opts.modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  if (opts.onElicit) {
    const answer = opts.onElicit;
    client.setRequestHandler(
      'elicitation/create',
      async (req) => answer(req.params as { message: string }) as never,
    );
  }
  await client.connect(transport);
  keepErrorAnswers(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

/**
 * Every error answer the server sends over `transport` (a JSON-RPC error, a tool result with isError) is kept for the
 * suite's secret grep, as received: no error may hold a token or secret either.
 */
function keepErrorAnswers(transport: StdioClientTransport): void {
  const file = logFile('forge-mcp-server-errors');
  const received = transport.onmessage;
  if (!file || !received) return;
  transport.onmessage = (message, extra) => {
    const m = message as { error?: unknown; result?: { isError?: boolean } };
    if (m.error !== undefined || m.result?.isError === true)
      appendFileSync(file, `${JSON.stringify(message)}\n`);
    received.call(transport, message, extra);
  };
}

/** Opens a stdio client against `s`, runs `fn`, and always closes it; gives fn's value and the server's stderr. */
export async function withStdio<T>(
  s: ForgeSim,
  opts: StdioOptions,
  fn: (c: Connected) => Promise<T>,
): Promise<{ value: T; stderr: string }> {
  const c = await stdioClient(s, opts);
  try {
    return { value: await fn(c), stderr: c.stderr() };
  } finally {
    await c.close();
  }
}

/** A JSON-RPC tools/call of forge_execute_action, for raw requests. */
export function executeCall(id: number, action: string, params: Record<string, unknown>) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'forge_execute_action', arguments: { action, params } },
  };
}

/** Runs the CLI to completion (for startup refusals, --help, --list-actions). */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 20_000,
  cwd?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [CLI, ...args], {
      env: childEnv(env, args),
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(cwd ? { cwd } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (d: string) => (stdout += d));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    keepLog(child.stdout);
    keepLog(child.stderr);
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cli timed out; stderr: ${stderr}`));
    }, timeoutMs);
    // 'close', not 'exit': the process may exit before the last of its output has been read from the pipes.
    child.on('close', (code) => {
      clearTimeout(t);
      resolve({ code, stdout, stderr });
    });
    child.stdin!.end();
  });
}

/**
 * The answer of `answered` if it comes within `ms`; otherwise the test fails saying the server stalled (an input
 * read in time growing with its square is what these tests guard against).
 */
export async function answeredWithin<T>(answered: Promise<T>, ms = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<'stalled'>((resolve) => (timer = setTimeout(() => resolve('stalled'), ms)));
  const first = await Promise.race([answered, stalled]);
  clearTimeout(timer);
  if (first === 'stalled') throw new Error(`no answer within ${ms / 1000} s: the server stalled`);
  return first;
}

export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

/**
 * A large list of the instance at `path` (`/api/v4/...`): counted no more (no X-Total or X-Total-Pages, as the
 * instance answers past 10,000 items), it answers page 40 empty, past its end.
 */
export function uncountedPage40(s: ForgeSim, path: string): void {
  s.fault({
    method: 'GET',
    path,
    status: 200,
    body: [],
    headers: { 'x-page': '40', 'x-per-page': '100', 'x-prev-page': '39', 'x-next-page': '' },
  });
}

/** Requests that reached the instance beyond the startup checks. */
export function apiCalls(s: ForgeSim, since = 0) {
  return s.requests
    .slice(since)
    .filter(
      (r) => !/\/(user|personal_access_tokens\/self|license|namespaces|version|metadata)$/.test(r.path),
    );
}

export interface HttpServerProcess {
  url: string;
  stderr: () => string;
  stop: () => Promise<void>;
}

/** How a server process is started: `nofile` sets its hard (and soft) limit on open descriptors (prlimit). */
export interface ProcessLimits {
  nofile?: number;
}

/** The command and leading arguments that run node under `limits`. */
function nodeUnder(limits: ProcessLimits): [string, string[]] {
  return limits.nofile === undefined
    ? [process.execPath, []]
    : ['prlimit', [`--nofile=${limits.nofile}:${limits.nofile}`, '--', process.execPath]];
}

/** Starts the built server in HTTP mode on a loopback port; resolves with its MCP URL. */
export function httpServer(
  s: ForgeSim,
  args: string[] = [],
  env: Record<string, string> = {},
  limits: ProcessLimits = {},
): Promise<HttpServerProcess> {
  return new Promise((resolve, reject) => {
    const [command, lead] = nodeUnder(limits);
    const child = spawn(
      command,
      [...lead, CLI, '--http', '--http-addr=127.0.0.1:0', `--forge-url=${s.url}`, '--tier=ultimate', ...args],
      {
        env: childEnv({ FORGE_URL: s.url, ...env }, args),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let err = '';
    const t = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 20_000);
    keepLog(child.stderr);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /"url":"(http:[^"]+)"/.exec(err);
      if (m) {
        clearTimeout(t);
        resolve({
          url: m[1],
          stderr: () => err,
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
}

/** One raw JSON-RPC POST to the MCP endpoint, for what a scripted client would never send. */
export async function rpc(url: string, headers: Record<string, string>, body: unknown): Promise<Response> {
  secretsInHeaders(headers);
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  await keepRefusal(res);
  return res;
}

/** Where this test file's HTTP refusals are kept (one log for all of them). */
let refusals: string | undefined;

/**
 * An HTTP refusal (any status from 400) is kept for the suite's secret grep: its status, WWW-Authenticate and
 * body (read from a copy; the caller reads the answer as sent).
 */
async function keepRefusal(res: Response): Promise<void> {
  if (res.status < 400) return;
  refusals ??= logFile('forge-mcp-server-refusals');
  if (!refusals) return;
  const challenge = res.headers.get('www-authenticate') ?? '';
  appendFileSync(refusals, `${res.status} ${challenge}\n${await res.clone().text()}\n`);
}

export interface HttpServerAt extends HttpServerProcess {
  pid: number;
  /** Sends a signal without waiting. */
  signal: (sig: NodeJS.Signals) => void;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

/**
 * Starts the built server in HTTP mode with full control of its flags: FORGE_URL defaults to `s.url`,
 * --http-addr to 127.0.0.1:0 unless given; resolves with the logged URL (http:, https: or unix:).
 */
export function httpServerAt(
  s: ForgeSim,
  args: string[] = [],
  env: Record<string, string> = {},
  limits: ProcessLimits = {},
): Promise<HttpServerAt> {
  return new Promise((resolve, reject) => {
    const addr = args.some((a) => a.startsWith('--http-addr')) ? [] : ['--http-addr=127.0.0.1:0'];
    const [command, lead] = nodeUnder(limits);
    const child = spawn(command, [...lead, CLI, '--http', ...addr, '--tier=ultimate', ...args], {
      env: childEnv({ FORGE_URL: s.url, ...env }, args),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const t = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 20_000);
    keepLog(child.stderr);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /"url":"((?:https?|unix):[^"]+)"/.exec(err);
      if (m) {
        clearTimeout(t);
        resolve({
          url: m[1],
          pid: child.pid!,
          stderr: () => err,
          signal: (sig) => child.kill(sig),
          exited,
          stop: () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
            return exited.then(() => undefined);
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
}

export interface RawStdio {
  /** Writes text to the server's stdin as is (add the newline yourself). */
  write: (text: string) => void;
  /** Every line the server wrote to stdout so far, parsed. */
  messages: () => Array<Record<string, unknown>>;
  /** The same lines as written (without their newline). */
  lines: () => string[];
  /** Resolves once `count` messages have arrived (rejects after `ms`). */
  waitFor: (count: number, ms?: number) => Promise<Array<Record<string, unknown>>>;
  stderr: () => string;
  /** The server is still running. */
  alive: () => boolean;
  /** Stops reading the server's stdout (its pipe fills up), then reads on. */
  pause: () => void;
  resume: () => void;
  close: () => Promise<void>;
}

/**
 * Waits until `check` holds (it may answer a promise), asking every 20 ms; fails naming `what` after `ms`.
 * For what a test must see happen elsewhere (the instance, another process), never a fixed sleep.
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 30_000,
): Promise<void> {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A server's log: the JSON records it wrote to stderr, in order (any other line is skipped). */
export function logRecords(stderr: string): Array<{ level: string; msg: string } & Record<string, unknown>> {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: string; msg: string } & Record<string, unknown>);
}

/** The messages a server logged at `level`, in order. */
export function logged(stderr: string, level: string): string[] {
  return logRecords(stderr)
    .filter((r) => r.level === level)
    .map((r) => r.msg);
}

/** A raw client's first two lines: initialize (2025-06-18, no capabilities) and its initialized notice. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
export const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });

/** Spawns the server over stdio without a client, for what a well-behaved client would never send. */
export function stdioRaw(s: ForgeSim, env: Record<string, string> = {}): RawStdio {
  const child = spawn(process.execPath, [CLI], {
    env: childEnv(
      {
        FORGE_URL: s.url,
        FORGE_TOKEN: s.tokens.api,
        FORGE_MCP_TIER: 'ultimate',
        ...env,
      },
      [],
    ),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const parsed: Array<Record<string, unknown>> = [];
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  // Decoded across chunks: a character the pipe splits between two reads is not turned into two U+FFFD.
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (d: string) => {
    out += d;
    let nl: number;
    while ((nl = out.indexOf('\n')) !== -1) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      lines.push(line);
      parsed.push(JSON.parse(line) as Record<string, unknown>);
    }
    for (const w of waiters.splice(0)) w();
  });
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  keepLog(child.stderr);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    write: (text) => void child.stdin!.write(text),
    messages: () => parsed,
    lines: () => lines,
    waitFor: (count, ms = 20_000) =>
      new Promise((resolve, reject) => {
        const t = setTimeout(
          () => reject(new Error(`${parsed.length} of ${count} messages after ${ms} ms; stderr: ${err}`)),
          ms,
        );
        const check = () => {
          if (parsed.length >= count) {
            clearTimeout(t);
            resolve(parsed.slice());
          } else waiters.push(check);
        };
        check();
      }),
    stderr: () => err,
    alive: () => child.exitCode === null && child.signalCode === null,
    pause: () => void child.stdout!.pause(),
    resume: () => void child.stdout!.resume(),
    close: async () => {
      child.stdin!.end();
      const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** A loopback port free right now (for a server that must be told its port before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The TCP and UDP sockets process `pid` holds that are listening (TCP state 0A, or any bound UDP socket), as
 * `<table> <local address in /proc hex>`, e.g. `tcp 0100007F:1F90`.
 */
export function listeningSockets(pid: number): string[] {
  const held = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) held.add(m[1]!);
    } catch {
      // The descriptor closed meanwhile.
    }
  }
  const found: string[] = [];
  for (const table of ['tcp', 'tcp6', 'udp', 'udp6']) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10) continue;
      const listening = table.startsWith('udp') || f[3] === '0A';
      if (listening && held.has(f[9]!)) found.push(`${table} ${f[1]}`);
    }
  }
  return found;
}

/**
 * Answers a proxy's CONNECT by opening the tunnel to host:port (what a runtime's proxy agent asks for) and
 * piping both ways; either side failing ends the other.
 */
export function openTunnel(socket: Socket, head: Buffer, host: string, port: number): void {
  const up = connect(port, host, () => {
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    up.write(head);
    up.pipe(socket);
    socket.pipe(up);
  });
  up.on('error', () => socket.destroy());
  socket.on('error', () => up.destroy());
}

/** The events of an event stream's text: each one's id and its data's JSON message. */
export function eventsOf(text: string): Array<{ id?: string; data?: { id?: unknown } }> {
  // The last part is an event still arriving, or nothing.
  return text
    .split('\n\n')
    .slice(0, -1)
    .map((event) => {
      const field = (name: string) =>
        event
          .split('\n')
          .find((l) => l.startsWith(`${name}: `))
          ?.slice(name.length + 2);
      const data = field('data');
      return { id: field('id'), data: data ? (JSON.parse(data) as { id?: unknown }) : undefined };
    })
    .filter((e) => e.id !== undefined || e.data !== undefined);
}

/**
 * A GET resuming a stateful session's stream after `lastEventId` (`headers`: the session's), read until the
 * stream ends (a stream still open after `ms` fails the test): its status, and the ids of the JSON-RPC messages
 * it carried.
 */
export async function resumeStream(
  url: string,
  headers: Record<string, string>,
  lastEventId: string,
  ms = 15_000,
): Promise<{ status: number; ids: unknown[] }> {
  const res = await fetch(url, {
    headers: { ...headers, accept: 'text/event-stream', 'last-event-id': lastEventId },
    signal: AbortSignal.timeout(ms),
  });
  const events = eventsOf(await res.text());
  return { status: res.status, ids: events.filter((e) => e.data).map((e) => e.data!.id) };
}
