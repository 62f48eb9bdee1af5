/**
 * The credential pool's life over loopback HTTP against forge-sim: each eviction reason provoked for real
 * (a token revoked at the instance, a 401 with and without invalid_token, idleness, revalidation, a token
 * below the minimum, a full pool) and read back from the INFO line each eviction logs with the running
 * per-reason counts; a revoked token is refused on its next call with nothing further sent to the instance.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import {
  CLI,
  executeCall,
  httpServer,
  keepLog,
  logRecords,
  rpc,
  sim,
  type ForgeSim,
  type HttpServerProcess,
} from './harness.js';

let s: ForgeSim;
let server: HttpServerProcess | undefined;
beforeAll(async () => {
  s = await sim();
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
  s.clearFaults();
});
afterAll(async () => {
  await s.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** issue.get of issue #1 of project 1, as a raw tools/call. */
const getIssue = (id: number) => executeCall(id, 'issue.get', { project_id: '1', issue_iid: 1 });

interface Eviction {
  reason: string;
  in_use: boolean;
  evictions: Record<string, number>;
  level: unknown;
}

/** The evictions the server logged so far. */
function evictions(srv: HttpServerProcess): Eviction[] {
  return srv
    .stderr()
    .split('\n')
    .filter((l) => l.includes('credential pool'))
    .map((l) => JSON.parse(l) as Eviction);
}

async function until(check: () => boolean, ms = 15_000) {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > ms) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A fresh api token of its own, revocable through the instance's API. */
const mint = () => s.addToken({ kind: 'personal', scopes: ['api'] });
const revoke = async (token: string) => {
  const res = await fetch(`${s.url}/api/v4/personal_access_tokens/self`, {
    method: 'DELETE',
    headers: { 'private-token': token },
  });
  expect(res.status).toBe(204);
};

async function callText(token: string, id: number) {
  const res = await rpc(server!.url, bearer(token), getIssue(id));
  return { status: res.status, text: await res.text() };
}

describe('credential pool', () => {
  it('a token revoked at the instance: the call that meets the 401 ends its entry (rejected_credential); the next request is refused 401 after only the identity check', async () => {
    server = await httpServer(s);
    const token = mint();
    expect((await callText(token, 1)).status).toBe(200);
    await revoke(token);
    const refused = await callText(token, 2);
    expect(refused.text).toContain('authentication failed: the instance rejected the token itself');
    await until(() => evictions(server!).some((e) => e.reason === 'rejected_credential'));
    expect(evictions(server!).at(-1)!.evictions.rejected_credential).toBe(1);

    const since = s.requests.length;
    const next = await callText(token, 3);
    expect(next.status).toBe(401);
    // Only the server's own identity check reached the instance; the tool's request was never sent.
    const paths = s.requests.slice(since).map((q) => q.path);
    expect(paths).toContain('/api/v4/user');
    expect(paths.filter((p) => p.startsWith('/api/v4/projects'))).toEqual([]);
  });

  it('says whose credential its lines are about: each credential the pool admits is logged with its user, and the rate-limit and eviction lines name the same digest', async () => {
    server = await httpServer(s, ['--rate-limit-rps=0.01', '--rate-limit-burst=2']);
    const alices = mint();
    expect((await callText(alices, 1)).status).toBe(200);
    for (const id of [2, 3]) expect((await callText(s.tokens.admin, id)).status).toBe(200);
    // root's third request within 100 s is over its burst of 2.
    expect((await callText(s.tokens.admin, 4)).status).toBe(429);
    await revoke(alices);
    expect((await callText(alices, 5)).text).toContain('the instance rejected the token itself');
    await until(() => evictions(server!).some((e) => e.reason === 'rejected_credential'));

    const lines = logRecords(server.stderr());
    const pooled = lines.filter((l) => l.msg === 'credential admitted');
    const digestOf = (user: string) => pooled.find((l) => l.user === user)?.credential;
    expect(pooled.map((l) => [l.level, l.user, l.user_id, l.scopes])).toEqual([
      ['info', 'alice', 2, ['api']],
      ['info', 'root', 1, ['api', 'admin_mode']],
    ]);
    expect(digestOf('alice')).toMatch(/^[0-9a-f]{12}$/);
    expect(digestOf('root')).not.toBe(digestOf('alice'));
    const limited = lines.filter((l) => l.msg === 'rate limited');
    expect(limited.map((l) => l.credential)).toEqual([digestOf('root')]);
    const evicted = lines.filter((l) => l.msg === 'credential pool entry evicted');
    expect(evicted.map((l) => [l.reason, l.user, l.credential])).toEqual([
      ['rejected_credential', 'alice', digestOf('alice')],
    ]);
  });

  it('a 401 naming the token (invalid_token) ends the entry at once, without waiting for the probe to confirm it (rejected_credential)', async () => {
    server = await httpServer(s);
    const token = mint();
    expect((await callText(token, 1)).status).toBe(200);
    // The instance names the token refused for this one call; the token itself stays valid, so a probe
    // (GET /user) would be answered: only the 401's own word can end the entry.
    s.fault({
      path: '/api/v4/projects/1/issues/1',
      status: 401,
      body: {
        error: 'invalid_token',
        error_description: 'Token is expired. You can either do re-authorization or token refresh.',
      },
      times: 1,
    });
    const since = s.requests.length;
    const refused = await callText(token, 2);
    expect(refused.text).toContain('authentication failed: the instance rejected the token itself');
    await until(() => evictions(server!).some((e) => e.reason === 'rejected_credential'));
    expect(evictions(server!).map((e) => e.reason)).toEqual(['rejected_credential']);
    // No probe was sent: the 401 named the token.
    expect(s.requests.slice(since).filter((q) => q.path === '/api/v4/user')).toEqual([]);
    // The next request opens a new entry, checked anew, and is served.
    const again = s.requests.length;
    expect((await callText(token, 3)).status).toBe(200);
    expect(
      s.requests.slice(again).filter((q) => q.path === '/api/v4/user' && q.token === token),
    ).toHaveLength(1);
  });

  it('a 401 without invalid_token that the probe does not confirm keeps the entry', async () => {
    server = await httpServer(s);
    const token = mint();
    expect((await callText(token, 1)).status).toBe(200);
    s.fault({
      path: '/api/v4/projects/1/issues/1',
      status: 401,
      body: { message: '401 Unauthorized' },
      times: 1,
    });
    const denied = await callText(token, 2);
    expect(denied.text).toContain(
      'unauthorized: either the token is invalid or expired, or valid but lacking a permission',
    );
    // The probe (GET /user) answered, so nothing is evicted; the next call is served from the same entry.
    await until(() => s.requests.filter((q) => q.path === '/api/v4/user' && q.token === token).length >= 2);
    const since = s.requests.length;
    expect((await callText(token, 3)).status).toBe(200);
    expect(s.requests.slice(since).map((q) => q.path)).toEqual(['/api/v4/projects/1/issues/1']);
    expect(evictions(server!)).toEqual([]);
  });

  it('a 401 without invalid_token that the probe confirms ends the entry (rejected_credential)', async () => {
    server = await httpServer(s);
    const token = mint();
    expect((await callText(token, 1)).status).toBe(200);
    s.fault({
      path: '/api/v4/projects/1/issues/1',
      status: 401,
      body: { message: '401 Unauthorized' },
      times: 1,
    });
    await revoke(token);
    await callText(token, 2);
    await until(() => evictions(server!).some((e) => e.reason === 'rejected_credential'));
  });

  it('revalidation finds a revoked token and ends its entry (invalid_credential)', async () => {
    server = await httpServer(s, ['--revalidate-interval=1s']);
    const token = mint();
    expect((await callText(token, 1)).status).toBe(200);
    await revoke(token);
    await until(() => evictions(server!).some((e) => e.reason === 'invalid_credential'));
    const e = evictions(server!).find((x) => x.reason === 'invalid_credential')!;
    expect(e.in_use).toBe(false);
    // INFO, as pino's number or as its word.
    expect([30, 'info']).toContain(e.level);
    expect(e.evictions.invalid_credential).toBe(1);
  });

  it('an entry unused for FORGE_MCP_POOL_IDLE_TIMEOUT leaves (idle)', async () => {
    server = await httpServer(s, ['--pool-idle-timeout=1s']);
    expect((await callText(s.tokens.api, 1)).status).toBe(200);
    await until(() => evictions(server!).some((e) => e.reason === 'idle'));
    expect(evictions(server!).find((e) => e.reason === 'idle')!.evictions.idle).toBe(1);
  });

  it('a token below the minimum is refused 403 and not kept (below_minimum)', async () => {
    server = await httpServer(s);
    const refused = await callText(s.tokens.noScope, 1);
    expect(refused.status).toBe(403);
    await until(() => evictions(server!).some((e) => e.reason === 'below_minimum'));
    expect(evictions(server!).find((e) => e.reason === 'below_minimum')!.evictions.below_minimum).toBe(1);
  });

  it('a token whose kind was unknown at first is asked again at revalidation; learned below the minimum, its entry ends (below_minimum)', async () => {
    server = await httpServer(s, ['--revalidate-interval=1s']);
    const token = s.addToken({ kind: 'personal', scopes: ['read_user'] });
    // The token's own description fails once: its kind is unknown and it is served like a classic token.
    // (Sent as PRIVATE-TOKEN: a bearer token's kind is also read from the OAuth introspection, which answers.)
    s.fault({ path: '/api/v4/personal_access_tokens/self', status: 503, times: 1 });
    const asPrivate = { 'private-token': token };
    expect((await rpc(server.url, asPrivate, getIssue(1))).status).toBe(200);
    await until(() => evictions(server!).some((e) => e.reason === 'below_minimum'));
    expect((await rpc(server.url, asPrivate, getIssue(2))).status).toBe(403);
  });

  it('a token whose kind was unknown at first and is learned classic at revalidation keeps what it was served: nothing narrowed, the entry kept', async () => {
    server = await httpServer(s, ['--revalidate-interval=1s']);
    const token = s.addToken({ kind: 'personal', scopes: ['read_api'] });
    const asPrivate = { 'private-token': token };
    const findWrites = async (id: number, headers = asPrivate) => {
      const res = await rpc(server!.url, headers, {
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'forge_find_action', arguments: { query: 'create issue', limit: 20 } },
      });
      const data = (await res.text()).split('\n').find((l) => l.startsWith('data: '))!;
      const { result } = JSON.parse(data.slice(6)) as {
        result: { structuredContent: { matches: Array<{ id: string }> } };
      };
      return result.structuredContent.matches.some((m) => m.id === 'issue.create');
    };
    // A read_api token whose kind was read at once is narrowed to reads: find offers no issue.create.
    expect(await findWrites(0, { 'private-token': s.tokens.readApi })).toBe(false);
    s.fault({ path: '/api/v4/personal_access_tokens/self', status: 503, times: 1 });
    // Served like a classic token whose scopes are unknown: nothing narrowed, writes found.
    expect(await findWrites(1)).toBe(true);
    // Revalidation asks the token's kind again and learns a classic read_api token.
    const since = s.requests.length;
    await until(() =>
      s.requests
        .slice(since)
        .some(
          (q) => q.path === '/api/v4/personal_access_tokens/self' && q.token === token && q.status === 200,
        ),
    );
    await until(
      () => s.requests.slice(since).filter((q) => q.path === '/api/v4/user' && q.token === token).length >= 2,
    );
    // The narrowing decided earlier (none) stays until the entry is rebuilt; the entry is not ended.
    expect(await findWrites(2)).toBe(true);
    expect(evictions(server!)).toEqual([]);
  });

  it('a full pool drops its least recently used entry (size_pressure): one used again stays, one left unused goes and is checked anew, each eviction counted', async () => {
    server = await httpServer(s, ['--max-http-clients=2']);
    const [a, b, c] = [mint(), mint(), mint()];
    /** How many identity checks (GET /user) `token` made since `since`. */
    const checks = (token: string, since: number) =>
      s.requests.slice(since).filter((q) => q.path === '/api/v4/user' && q.token === token).length;
    expect((await callText(a, 1)).status).toBe(200);
    expect((await callText(b, 2)).status).toBe(200);
    // a used again: b is now the least recently used.
    expect((await callText(a, 3)).status).toBe(200);
    expect((await callText(c, 4)).status).toBe(200);
    await until(() => evictions(server!).length === 1);
    expect(evictions(server!)[0]).toMatchObject({ reason: 'size_pressure', in_use: false });
    expect(evictions(server!)[0]!.evictions.size_pressure).toBe(1);
    let since = s.requests.length;
    expect((await callText(a, 5)).status).toBe(200);
    expect(checks(a, since)).toBe(0);
    since = s.requests.length;
    expect((await callText(b, 6)).status).toBe(200);
    expect(checks(b, since)).toBe(1);
    // b came back into a full pool: c, now the least recently used, made room.
    await until(() => evictions(server!).length === 2);
    expect(evictions(server!).at(-1)!.evictions.size_pressure).toBe(2);
    since = s.requests.length;
    expect((await callText(a, 7)).status).toBe(200);
    expect(checks(a, since)).toBe(0);
  });

  it('entries still pooled at shutdown are dropped without being counted as evictions', async () => {
    const child = spawn(
      process.execPath,
      [CLI, '--http', '--http-addr=127.0.0.1:0', `--forge-url=${s.url}`, '--tier=ultimate'],
      {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    keepLog(child.stderr);
    // 'close': the process has exited and everything it wrote to stderr has been read.
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    try {
      await until(() => /"url":"http:/.test(stderr));
      const url = /"url":"(http:[^"]+)"/.exec(stderr)![1]!;
      const logged = () => evictions({ stderr: () => stderr } as HttpServerProcess);
      for (const [i, token] of [s.tokens.api, s.tokens.readApi].entries())
        expect((await rpc(url, bearer(token), getIssue(i))).status).toBe(200);
      // One eviction that counts, before the shutdown: a token below the minimum is not kept.
      expect((await rpc(url, bearer(s.tokens.noScope), getIssue(3))).status).toBe(403);
      await until(() => logged().length === 1);
      child.kill('SIGTERM');
      await closed;
      expect(stderr).toContain('draining: /health answers 503');
      expect(stderr).toContain('"calls":0,"msg":"closing: no new connections; no call is being answered"');
      expect(stderr).toContain('"msg":"stopped"');
      expect(logged().map((e) => e.reason)).toEqual(['below_minimum']);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('checks at most 16 new tokens at once; a new one waits 5 s for a turn, then 503 with nothing sent', async () => {
    server = await httpServer(s);
    const slow = Array.from({ length: 16 }, () => mint());
    const late = mint();
    s.fault({ path: '/api/v4/user', delayMs: 7000, times: 16 });
    const held = slow.map((t) => rpc(server!.url, bearer(t), getIssue(1)));
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const res = await rpc(server.url, bearer(late), getIssue(2));
    expect(Date.now() - started).toBeGreaterThanOrEqual(4500);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /^server is busy: all 16 token verifications are under way/,
    );
    expect(s.requests.filter((r) => r.token === late)).toEqual([]);
    expect((await Promise.all(held)).map((r) => r.status)).toEqual(Array(16).fill(200));
  }, 30_000);

  it('no token appears in what the pool logged', async () => {
    server = await httpServer(s, ['--pool-idle-timeout=1s']);
    const token = mint();
    await callText(token, 1);
    await until(() => evictions(server!).length > 0);
    expect(server.stderr()).not.toContain(token);
  });
});
