/**
 * The credential pool's eighth eviction reason, rebuild (catalog registration failed), over loopback HTTP
 * against forge-sim. No answer of the instance can make a catalog fail to register (every read the build makes
 * degrades to a fallback instead), so the fault is the one thing put in by hand: the server runs in this
 * process with its MCP server factory made to throw when the test says so. Everything else is the real
 * server: the real pool, the INFO eviction line with its per-reason counts, the pool-evict channel and the
 * forge_mcp.credential_pool.evictions counter telemetry exports from it (to a real OTLP receiver), and a real
 * MCP client.
 */
import { homedir } from 'node:os';
import { Writable } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { channels } from '../src/channels.js';
import { loadConfig } from '../src/config/index.js';
import { runHttp, type HttpHandle } from '../src/http/index.js';
import { createLogger } from '../src/log.js';
import { startTelemetry, type Telemetry } from '../src/telemetry/index.js';
import { apiCalls, executeCall, rpc, sim, type ForgeSim } from './harness.js';
import { OtlpReceiver, otlpEnv } from './otlp.js';

/** Set by a test: the next MCP servers built for a session throw while registering its catalog. */
const fault = vi.hoisted(() => ({ builds: 0 }));
vi.mock('../src/mcp/server.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/mcp/server.js')>();
  return {
    ...real,
    buildServer: (...args: Parameters<typeof real.buildServer>) => {
      if (fault.builds > 0) {
        fault.builds--;
        throw new Error('tool registration refused');
      }
      return real.buildServer(...args);
    },
  };
});

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let s: ForgeSim;
let http: HttpHandle;
let rx: OtlpReceiver;
let telemetry: Telemetry | undefined;
/** Every log record from INFO up, parsed. */
const records: Array<Record<string, unknown>> = [];
/** The reasons published on the pool-evict channel (what telemetry's eviction counter counts). */
const published: string[] = [];
const onEvict = (e: unknown) => published.push((e as { reason: string }).reason);

beforeAll(async () => {
  s = await sim();
  channels.poolEvict.subscribe(onEvict);
  // One failure would block the address: the failed build is not charged, so the next request is served.
  const env = { FORGE_URL: s.url, FORGE_MCP_AUTH_FAILURE_LIMIT: '1' };
  const { config } = loadConfig({
    argv: [
      '--http',
      '--http-addr=127.0.0.1:0',
      `--forge-url=${s.url}`,
      '--tier=ultimate',
      '--stateless=false',
    ],
    env,
    cwd: process.cwd(),
    home: homedir(),
    stdinIsPipe: false,
  });
  const capture = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        records.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const log = createLogger('info', capture);
  // Telemetry on, in this process: the exporters read the OTEL_* variables from its environment.
  rx = await new OtlpReceiver().start();
  const exportEnv = otlpEnv(rx);
  for (const [k, v] of Object.entries(exportEnv)) vi.stubEnv(k, v);
  telemetry = await startTelemetry({ ...config, telemetry: true }, log, exportEnv);
  expect(telemetry).toBeDefined();
  http = await runHttp(config, log);
});

afterAll(async () => {
  channels.poolEvict.unsubscribe(onEvict);
  await http?.close();
  await telemetry?.shutdown();
  await rx?.stop();
  vi.unstubAllEnvs();
  await s?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** issue.get of issue #1 of project 1, as a raw tools/call. */
const getIssue = (id: number) => executeCall(id, 'issue.get', { project_id: '1', issue_iid: 1 });
const evictions = () => records.filter((r) => r.msg === 'credential pool entry evicted');

describe('rebuild eviction', () => {
  it('a pooled credential whose catalog fails to register is answered 503 (-32603, not charged) and its entry leaves for rebuild, counted; its next request builds it anew', async () => {
    const token = s.addToken({ kind: 'personal', scopes: ['api'] });
    // The credential is checked and pooled, then building its MCP server fails.
    fault.builds = 1;
    const since = s.requests.length;
    const failed = await rpc(http.url, bearer(token), getIssue(2));
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('5');
    expect(await failed.json()).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: {
        code: -32603,
        message:
          'session build failed: the catalog could not be registered for this credential; retry shortly',
      },
    });
    expect(fault.builds).toBe(0);
    expect(s.requests.slice(since).map((q) => q.path)).toContain('/api/v4/user');
    // Nothing of the call reached the instance.
    expect(apiCalls(s, since)).toEqual([]);
    const line = evictions().at(-1)!;
    expect(line).toMatchObject({ level: 'info', reason: 'rebuild', in_use: false });
    expect(line.evictions).toEqual({
      size_pressure: 0,
      size_pressure_busy: 0,
      idle: 0,
      stale_credential: 0,
      rejected_credential: 0,
      invalid_credential: 0,
      below_minimum: 0,
      rebuild: 1,
    });
    expect(JSON.stringify(records)).not.toContain(token);

    // The entry is gone: the next request checks the credential again and is served.
    const again = s.requests.length;
    expect((await rpc(http.url, bearer(token), getIssue(3))).status).toBe(200);
    expect(s.requests.slice(again).map((q) => q.path)).toContain('/api/v4/user');
    expect(published).toEqual(['rebuild']);
    // Exported: forge_mcp.credential_pool.evictions under reason rebuild.
    await rx.until(() => rx.metric('forge_mcp.credential_pool.evictions').length > 0);
    expect(
      rx.metric('forge_mcp.credential_pool.evictions').map((p) => [p.attributes, p.value]),
    ).toContainEqual([{ reason: 'rebuild' }, 1]);
  });

  it("a served credential's next stateless requests are served by the server it was built, not a new build", async () => {
    const token = s.addToken({ kind: 'personal', scopes: ['api'] });
    expect((await rpc(http.url, bearer(token), getIssue(1))).status).toBe(200);
    const before = evictions().length;
    fault.builds = 1;
    try {
      for (const id of [2, 3, 4]) expect((await rpc(http.url, bearer(token), getIssue(id))).status).toBe(200);
      // No build happened, so the fault is still waiting and nothing was evicted.
      expect(fault.builds).toBe(1);
      expect(evictions().length).toBe(before);
    } finally {
      fault.builds = 0;
    }
  });

  it("a stateful session's initialize whose catalog fails to register: 503, the entry leaves (rebuild), and the next initialize opens a whole session", async () => {
    const token = s.addToken({ kind: 'personal', scopes: ['api'] });
    expect((await rpc(http.url, bearer(token), getIssue(1))).status).toBe(200);
    const before = evictions().length;
    fault.builds = 1;
    const client = new Client({ name: 'rebuild', version: '1' });
    await expect(
      client.connect(
        new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: bearer(token) } }),
      ),
    ).rejects.toThrow(/503|session build failed/);
    const line = evictions().slice(before);
    expect(line.map((e) => e.reason)).toEqual(['rebuild']);
    expect((line[0]!.evictions as Record<string, number>).rebuild).toBe(2);
    expect(published).toEqual(['rebuild', 'rebuild']);
    // Built anew on the next attempt: a whole session opens and serves.
    const retried = new Client({ name: 'rebuild', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: bearer(token) },
    });
    await retried.connect(transport);
    expect(transport.sessionId).toBeTruthy();
    expect((await retried.listTools()).tools).toHaveLength(2);
    await retried.close();
  });
});
