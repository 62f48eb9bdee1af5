/**
 * FORGE_MCP_REDIS_URL through the built server over loopback HTTP, against forge-sim and a real redis-server
 * the test starts (and stops, and starts again): without the setting nothing of the Redis code loads; with it
 * a real MCP client is served; Redis stopped, a request that needs the shared state is answered 503 with
 * Retry-After and a JSON-RPC error, and served again once Redis is back; Redis unreachable at start, the
 * server says so in one ERROR line naming the variable and host:port and exits non-zero. The URL's password
 * appears in no log line. Two replicas sharing Redis (no balancer: each is asked directly) hold each other's
 * rate limits, budget blocks, verified and refused tokens, and accept each other's confirmations; a request
 * one replica rate-limits names on its span the session another opened, when it is the caller's own.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Redis } from 'ioredis';
import {
  eventsOf,
  executeCall,
  freePort,
  httpServer,
  httpServerAt,
  logged,
  logRecords,
  resumeStream,
  rpc,
  runCli,
  sim,
  testSecret,
  type ForgeSim,
  type HttpServerProcess,
} from './harness.js';
import { everythingIn, REDIS_SKIP_REASON, startRedis, type RedisServer } from './redis.js';
import { OtlpReceiver, otlpEnv } from './otlp.js';

// Servers are spawned and Redis restarted on a shared, loaded machine: generous limits, no timing asserted.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const RECORD_LOADS = `--require ${join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'record-loads.cjs')}`;
const PASSWORD = 'redis-pw-7f3a9c';

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => {
  await s.close();
});

const getIssue = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: {
    name: 'forge_execute_action',
    arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
  },
});

async function connect(server: HttpServerProcess): Promise<Client> {
  const client = new Client(
    { name: 'redis-test', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${s.tokens.api}` } },
    }),
  );
  return client;
}

async function issueIid(client: Client): Promise<number> {
  const r = await client.callTool({
    name: 'forge_execute_action',
    arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
  });
  return (r.structuredContent as { iid: number }).iid;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Polls `probe` every quarter second until it answers true (at most a minute). */
async function until(probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('condition not reached within a minute');
}

describe.skipIf(REDIS_SKIP_REASON)('FORGE_MCP_REDIS_URL', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis({ password: PASSWORD });
  });
  afterAll(async () => {
    await redis?.stop();
  });
  beforeEach(async () => {
    await redis.flush();
  });

  it('loads nothing of Redis without the setting, and its own bundle with it', async () => {
    const without = await httpServer(s, [], { NODE_OPTIONS: RECORD_LOADS });
    try {
      expect((await rpc(without.url, { authorization: `Bearer ${s.tokens.api}` }, getIssue(1))).status).toBe(
        200,
      );
    } finally {
      await without.stop();
    }
    expect(without.stderr()).not.toMatch(/LOADED .*(redis|ioredis)/);
    // Only a server keeping its state in Redis says what sits there unsealed.
    expect(without.stderr()).not.toContain('unsealed');
    const withIt = await httpServer(s, [`--redis-url=${redis.url}`], { NODE_OPTIONS: RECORD_LOADS });
    try {
      expect((await rpc(withIt.url, { authorization: `Bearer ${s.tokens.api}` }, getIssue(2))).status).toBe(
        200,
      );
    } finally {
      await withIt.stop();
    }
    expect(withIt.stderr()).toContain('LOADED ./forge-mcp-redis.bundle.cjs');
    // Stateless (this server), there are no event logs: the line names only the seal key.
    expect(logged(withIt.stderr(), 'info').filter((m) => m.includes('unsealed'))).toEqual([
      'shared state: the confirmation seal key is kept in Redis unsealed; FORGE_MCP_STATE_KEY, the same on every replica, keeps it out of Redis',
    ]);
  });

  it('answers 503 with Retry-After while Redis is down, and serves again once it is back', async () => {
    const server = await httpServer(s, [], { FORGE_MCP_REDIS_URL: redis.url, FORGE_MCP_LOG_LEVEL: 'debug' });
    const client = await connect(server);
    try {
      expect(await issueIid(client)).toBe(1);

      await redis.stop();
      const since = s.requests.length;
      // The client learns the loss on its first request after it; from then on every call is refused.
      let refused: Response | undefined;
      await until(async () => {
        const r = await rpc(server.url, { authorization: `Bearer ${s.tokens.api}` }, getIssue(7));
        if (r.status === 503) refused = r;
        else await r.body?.cancel();
        return r.status === 503;
      });
      expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const body = (await refused!.json()) as {
        jsonrpc: string;
        id: unknown;
        error: { code: number; message: string };
      };
      expect(body.jsonrpc).toBe('2.0');
      expect(body.id).toBe(7);
      expect(body.error.code).toBe(-32603);
      expect(body.error.message).toMatch(/shared state is unavailable.*Redis.*retry shortly/);
      await expect(issueIid(client)).rejects.toThrow();
      // Nothing was sent to the instance for the refused calls.
      expect(s.requests.slice(since).filter((q) => q.path.includes('/issues'))).toHaveLength(0);

      await redis.start();
      await until(async () => {
        const r = await rpc(server.url, { authorization: `Bearer ${s.tokens.api}` }, getIssue(8));
        await r.body?.cancel();
        return r.status === 200;
      });
      expect(await issueIid(client)).toBe(1);
      const log = server.stderr();
      expect(log).toContain('shared state unreachable');
      expect(log).toContain('shared state reachable again');
      expect(log).toContain(`"shared_state":"redis 127.0.0.1:${redis.port}"`);
      expect(log).not.toContain(PASSWORD);
    } finally {
      await client.close();
      await server.stop();
    }
  });

  it('answers a stateful initialize 503 with Retry-After while Redis is down (never a 400 parse error a client gives up on), and opens the session once it is back', async () => {
    const server = await httpServer(s, ['--stateless=false'], { FORGE_MCP_REDIS_URL: redis.url });
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    try {
      // The credential is held first: a held one is not checked against the budgets kept in Redis.
      expect((await rpc(server.url, bearer(s.tokens.api), getIssue(1))).status).toBe(200);
      await redis.stop();
      let refused: Response | undefined;
      await until(async () => {
        const r = await rpc(server.url, bearer(s.tokens.api), initialize);
        if (r.status === 503) refused = r;
        else await r.body?.cancel();
        // Before the server notices the loss, an initialize may still be answered; after, every one is 503.
        return r.status === 503;
      });
      expect(refused!.headers.get('retry-after')).toBe('5');
      expect(refused!.headers.get('mcp-session-id')).toBeNull();
      expect(await refused!.json()).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32603,
          message:
            'shared state is unavailable: the Redis server this replica shares its state through does not answer; retry shortly',
        },
      });

      await redis.start();
      let opened: Response | undefined;
      await until(async () => {
        const r = await rpc(server.url, bearer(s.tokens.api), initialize);
        if (r.status === 200) opened = r;
        else await r.body?.cancel();
        return r.status === 200;
      });
      expect(opened!.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
      await opened!.body?.cancel();
    } finally {
      await server.stop();
    }
  });

  it("holds one replica's budget block and rate limit on the other", async () => {
    // A token every ten seconds: two calls empty a credential's bucket however slowly a loaded machine serves.
    const args = [`--redis-url=${redis.url}`, '--rate-limit-rps=0.1', '--rate-limit-burst=2'];
    const env = { FORGE_MCP_AUTH_FAILURE_LIMIT: '2' };
    const [a, b] = [await httpServer(s, args, env), await httpServer(s, args, env)];
    try {
      // The credential's two calls: one on each replica; the third is refused wherever it goes.
      expect((await rpc(a!.url, bearer(s.tokens.api), getIssue(1))).status).toBe(200);
      expect((await rpc(b!.url, bearer(s.tokens.api), getIssue(2))).status).toBe(200);
      for (const server of [a!, b!]) {
        const limited = await rpc(server.url, bearer(s.tokens.api), getIssue(3));
        expect(limited.status).toBe(429);
        expect(await limited.json()).toMatchObject({
          error: { code: -42900, data: { reason: 'rate_limited' } },
        });
      }
      // Two refused tokens on A spend this address's budget; B then refuses an unheld token before asking anyone.
      expect((await rpc(a!.url, bearer('refused-1'), getIssue(4))).status).toBe(401);
      expect((await rpc(a!.url, bearer('refused-2'), getIssue(5))).status).toBe(401);
      const since = s.requests.length;
      const blocked = await rpc(b!.url, bearer(s.tokens.readApi), getIssue(6));
      expect(blocked.status).toBe(429);
      expect(await blocked.json()).toMatchObject({ error: { data: { reason: 'auth_blocked' } } });
      expect(s.requests.slice(since)).toEqual([]);
    } finally {
      await a!.stop();
      await b!.stop();
    }
  });

  it("names a stateful session on the span of its request another replica rate-limits, and only for the session's own credential", async () => {
    const rx = await new OtlpReceiver().start();
    // One call per credential, refilled only after 1,000 s, held in Redis: the second is refused on either replica.
    const args = [
      `--redis-url=${redis.url}`,
      '--stateless=false',
      '--rate-limit-rps=0.001',
      '--rate-limit-burst=1',
    ];
    const [a, b] = [await httpServer(s, args, otlpEnv(rx)), await httpServer(s, args, otlpEnv(rx))];
    try {
      // A 2025-era client opens its session on A and spends its burst there.
      const transport = new StreamableHTTPClientTransport(new URL(a!.url), {
        requestInit: { headers: bearer(s.tokens.api) },
      });
      const client = new Client({ name: 'replica-session', version: '1' });
      await client.connect(transport);
      const id = transport.sessionId!;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(
        (
          await client.callTool({
            name: 'forge_execute_action',
            arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
          })
        ).isError,
      ).toBeFalsy();
      // B, which does not hold the session, refuses its next request: the store says whose session it is.
      const own = await rpc(b!.url, { ...bearer(s.tokens.api), 'mcp-session-id': id }, getIssue(2));
      expect(own.status).toBe(429);
      // Another credential spends its burst on B, then presents that session's id there.
      expect((await rpc(b!.url, bearer(s.tokens.readApi), getIssue(3))).status).toBe(200);
      const foreign = await rpc(b!.url, { ...bearer(s.tokens.readApi), 'mcp-session-id': id }, getIssue(4));
      expect(foreign.status).toBe(429);
      await client.close();
      const limited = () =>
        rx.spans.filter((sp) => sp.attributes['forge_mcp.refusal_reason'] === 'rate_limited');
      await rx.until(() => limited().length === 2, 60_000, 'both refusals');
      expect(
        limited()
          .map((sp) => sp.attributes['mcp.session.id'] ?? null)
          .sort(),
      ).toEqual([id, null]);
    } finally {
      await a!.stop();
      await b!.stop();
      await rx.stop();
    }
  });

  it('answers on one OAuth replica a token another was refused, without asking the instance', async () => {
    const args = ['--auth-mode=oauth', '--public-url=http://localhost:8125/mcp', `--redis-url=${redis.url}`];
    const [a, b] = [await httpServer(s, args), await httpServer(s, args)];
    try {
      const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
      const first = await rpc(a!.url, { authorization: `Bearer ${s.tokens.revoked}` }, list);
      expect(first.status).toBe(401);
      expect(first.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      // The verification's trailing request lands before counting what the other replica sends.
      await new Promise((r) => setTimeout(r, 200));
      const since = s.requests.length;
      const again = await rpc(b!.url, { authorization: `Bearer ${s.tokens.revoked}` }, list);
      expect(again.status).toBe(401);
      expect(again.headers.get('www-authenticate')).toBe(first.headers.get('www-authenticate'));
      expect(s.requests.slice(since)).toEqual([]);
    } finally {
      await a!.stop();
      await b!.stop();
    }
  });

  it('keeps of a verified OAuth token only its identity, under the SHA-256 digest of instance and token: user id, username, scopes and expiry, no token material anywhere in Redis', async () => {
    const server = await httpServer(s, [
      '--auth-mode=oauth',
      '--public-url=http://localhost:8128/mcp',
      `--redis-url=${redis.url}`,
    ]);
    const client = new Redis(redis.url);
    try {
      const token = s.addToken({ scopes: ['api'], expiresInSeconds: 3600 });
      const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
      expect((await rpc(server.url, bearer(token), list)).status).toBe(200);
      const identities = await client.hgetall('forge-mcp:identities');
      const digest = createHash('sha256').update(s.url).update('\0').update(token).digest('hex');
      expect(Object.keys(identities)).toEqual([digest]);
      const entry = JSON.parse(identities[digest]!) as Record<string, unknown>;
      expect(Object.keys(entry).sort()).toEqual(['expiresAt', 'scopes', 'userId', 'username']);
      expect(entry).toMatchObject({
        userId: expect.any(Number),
        username: expect.any(String),
        scopes: ['api'],
      });
      // The token's own expiry (an hour) bounds it; the 15-minute TTL comes first.
      expect(entry.expiresAt).toBeGreaterThan(Date.now());
      expect(entry.expiresAt).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
      // Every key and value the server wrote, whatever its type, is free of the token.
      const written = await everythingIn(client);
      expect(written.filter((w) => w.startsWith('unread '))).toEqual([]);
      expect(written.filter((w) => w.includes(token))).toEqual([]);
    } finally {
      client.disconnect();
      await server.stop();
    }
  });

  it('keeps a stateful session of a personal access token in Redis without the token: its record, rate bucket and event log, even where an instance error quoted the token; the server registers for --shutdown without the Redis password', async () => {
    const own = mkdtempSync(join(tmpdir(), 'forge-redis-registry-'));
    const server = await httpServerAt(s, ['--stateless=false', `--redis-url=${redis.url}`], {
      TMPDIR: own,
      FORGE_MCP_LOG_LEVEL: 'debug',
    });
    const store = new Redis(redis.url);
    const token = s.tokens.api;
    try {
      s.fault({
        path: '/api/v4/projects/1/issues/1',
        status: 500,
        body: { message: `echo PRIVATE-TOKEN: ${token}` },
      });
      const client = new Client({ name: 'redis-secrets', version: '1' });
      const transport = new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { 'private-token': token } },
      });
      await client.connect(transport);
      try {
        expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
        const r = await client.callTool({
          name: 'forge_execute_action',
          arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
        });
        expect(r.isError).toBe(true);
        // Read while the session is open (closing it deletes its record and log).
        const written = await everythingIn(store);
        expect(written.filter((w) => w.startsWith('unread '))).toEqual([]);
        // The session's record and its event log are there, the answer with the quoted token redacted.
        expect(written).toContain(`forge-mcp:session:${transport.sessionId}`);
        expect(written.some((w) => w.includes('echo PRIVATE-TOKEN: [redacted]'))).toBe(true);
        expect(written.filter((w) => w.includes(token))).toEqual([]);
      } finally {
        await client.close();
        s.clearFaults();
      }
      // The registration --shutdown reads holds nothing of the command line's Redis URL, and still serves.
      const registry = join(own, `forge-mcp-server-${userInfo().uid}`);
      const [registration, ...more] = readdirSync(registry);
      expect(more).toEqual([]);
      expect(readFileSync(join(registry, registration!), 'latin1')).not.toContain(PASSWORD);
      const shutdown = await runCli(['--shutdown'], { TMPDIR: own });
      expect(shutdown.stderr).toContain('"signalled":1');
      expect(await server.exited).toBe(0);
      expect(readdirSync(registry)).toEqual([]);
    } finally {
      store.disconnect();
      await server.stop();
    }
    expect(server.stderr()).not.toContain(token);
    expect(server.stderr()).not.toContain(PASSWORD);
  });

  it('serves on one OAuth replica a token another verified without verifying it again, until the instance refuses it', async () => {
    /** The requests a verification sends (identity check, token description, introspection). */
    const verifying = /\/(api\/v4\/user|api\/v4\/personal_access_tokens\/self|oauth\/token\/info)$/;
    const args = ['--auth-mode=oauth', '--public-url=http://localhost:8126/mcp'];
    const call = (id: number) => executeCall(id, 'issue.get', { project_id: '1', issue_iid: 1 });
    /** Runs `fn` and returns the paths it sent to the instance. */
    const sentBy = async <T>(fn: () => Promise<T>) => {
      const since = s.requests.length;
      const out = await fn();
      return { out, paths: s.requests.slice(since).map((q) => q.path) };
    };
    const [a, b] = [
      await httpServer(s, [...args, `--redis-url=${redis.url}`]),
      await httpServer(s, [...args, `--redis-url=${redis.url}`]),
    ];
    const apart = [await httpServer(s, args), await httpServer(s, args)];
    try {
      // Verified through A (a verification answers only once all its requests have), then served by B.
      const token = s.addToken({ scopes: ['api'], expiresInSeconds: 3600 });
      const first = await sentBy(() => rpc(a!.url, bearer(token), call(1)));
      expect(first.out.status).toBe(200);
      expect(first.paths.filter((p) => verifying.test(p)).sort()).toEqual([
        '/api/v4/personal_access_tokens/self',
        '/api/v4/user',
        '/oauth/token/info',
      ]);
      const across = await sentBy(() => rpc(b!.url, bearer(token), call(2)));
      expect(across.out.status).toBe(200);
      expect(await across.out.text()).toContain('"iid":1');
      expect(across.paths).toEqual(['/api/v4/projects/1/issues/1']);

      // Replicas that share nothing verify the same token each on its own.
      const alone = s.addToken({ scopes: ['api'], expiresInSeconds: 3600 });
      expect((await rpc(apart[0]!.url, bearer(alone), call(3))).status).toBe(200);
      const unshared = await sentBy(() => rpc(apart[1]!.url, bearer(alone), call(4)));
      expect(unshared.out.status).toBe(200);
      expect(unshared.paths).toContain('/api/v4/user');

      // Revoked at the instance: B's first call meets the instance's 401 and ends B's pool entry ...
      const revoked = await fetch(`${s.url}/api/v4/personal_access_tokens/self`, {
        method: 'DELETE',
        headers: { 'private-token': token },
      });
      expect(revoked.status).toBe(204);
      const refused = await sentBy(() => rpc(b!.url, bearer(token), call(5)));
      expect(refused.paths).toEqual(['/api/v4/projects/1/issues/1']);
      expect(await refused.out.text()).toContain('the instance rejected the token itself');
      await until(async () => /"reason":"rejected_credential"/.test(b!.stderr()));
      // ... and from the next request, on A too (which still holds a session for it), the server's own probe
      // is refused: 401 invalid_token, the call never sent.
      const next = await sentBy(() => rpc(a!.url, bearer(token), call(6)));
      expect(next.out.status).toBe(401);
      expect(next.out.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      expect(next.paths).toContain('/api/v4/user');
      expect(next.paths.filter((p) => p.startsWith('/api/v4/projects'))).toEqual([]);
      // The refusal is remembered for both replicas: B answers it without asking the instance.
      await new Promise((r) => setTimeout(r, 200));
      const remembered = await sentBy(() => rpc(b!.url, bearer(token), call(7)));
      expect(remembered.out.status).toBe(401);
      expect(remembered.out.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      expect(remembered.paths).toEqual([]);
    } finally {
      for (const server of [a!, b!, ...apart]) await server.stop();
    }
  });

  it('accepts on one replica the confirmation another issued, and only when they share Redis', async () => {
    /** tools/call of a destructive action: asked first, then re-sent with the user's answer and the state. */
    const deleteIssue = (id: number, answer?: { requestState: string }) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'forge_issue',
        arguments: { action: 'delete', params: { project_id: '1', issue_iid: 3 } },
        ...(answer
          ? {
              inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
              requestState: answer.requestState,
            }
          : {}),
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        },
      },
    });
    const headers = {
      authorization: `Bearer ${s.tokens.api}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'forge_issue',
    };
    const deletes = (since: number) =>
      s.requests.slice(since).filter((q) => q.method === 'DELETE' && q.path.includes('/issues/3'));
    /** Asks `asker` and answers through `answerer`: the JSON-RPC response of the answer. */
    const confirmAcross = async (asker: HttpServerProcess, answerer: HttpServerProcess) => {
      const asked = (await (await rpc(asker.url, headers, deleteIssue(1))).json()) as {
        result: { resultType: string; requestState: string };
      };
      expect(asked.result.resultType).toBe('input_required');
      const answered = await rpc(answerer.url, headers, deleteIssue(2, asked.result));
      return (await answered.json()) as {
        result?: { isError?: boolean };
        error?: { code: number; message: string };
      };
    };
    const shared = [
      await httpServer(s, ['--tool-surface=meta', `--redis-url=${redis.url}`]),
      await httpServer(s, ['--tool-surface=meta', `--redis-url=${redis.url}`]),
    ];
    const apart = [
      await httpServer(s, ['--tool-surface=meta']),
      await httpServer(s, ['--tool-surface=meta']),
    ];
    try {
      let since = s.requests.length;
      const across = await confirmAcross(shared[0]!, shared[1]!);
      expect(across.error).toBeUndefined();
      expect(across.result?.isError).toBeFalsy();
      expect(deletes(since)).toHaveLength(1);
      // Replicas with keys of their own refuse each other's confirmation, and nothing is deleted.
      since = s.requests.length;
      const refused = await confirmAcross(apart[0]!, apart[1]!);
      expect(refused.error).toMatchObject({ code: -32602, message: expect.stringContaining('requestState') });
      expect(deletes(since)).toHaveLength(0);
    } finally {
      for (const server of [...shared, ...apart]) await server.stop();
    }
    // Sealing with FORGE_MCP_STATE_KEY, the seal key is derived from it and kept nowhere: replicas with the same
    // key still accept each other's confirmation (the issue is gone by now: the DELETE sent is what shows it).
    const stateKey = testSecret(randomBytes(32).toString('base64'));
    const sealed = [
      await httpServer(s, ['--tool-surface=meta', `--redis-url=${redis.url}`], {
        FORGE_MCP_STATE_KEY: stateKey,
      }),
      await httpServer(s, ['--tool-surface=meta', `--redis-url=${redis.url}`], {
        FORGE_MCP_STATE_KEY: stateKey,
      }),
    ];
    try {
      const since = s.requests.length;
      expect((await confirmAcross(sealed[0]!, sealed[1]!)).error).toBeUndefined();
      expect(deletes(since)).toHaveLength(1);
    } finally {
      for (const server of sealed) await server.stop();
    }
  });

  it('lets replicas with another FORGE_MCP_STATE_KEY start at once after the last replica sharing Redis stopped', async () => {
    const [first, next] = [randomBytes(32).toString('hex'), randomBytes(32).toString('hex')].map((k) =>
      testSecret(k),
    );
    const store = new Redis(redis.url);
    try {
      const a = await httpServer(s, [`--redis-url=${redis.url}`], { FORGE_MCP_STATE_KEY: first! });
      const marked = await store.get('forge-mcp:sealing');
      expect(marked).toMatch(/^sealed [0-9a-f]{32}$/);
      // Stopped (SIGTERM), the last replica takes its check value with it: no wait for it to expire.
      await a.stop();
      expect(await store.get('forge-mcp:sealing')).toBeNull();
      const b = await httpServer(s, [`--redis-url=${redis.url}`], { FORGE_MCP_STATE_KEY: next! });
      try {
        expect((await rpc(b.url, bearer(s.tokens.api), getIssue(1))).status).toBe(200);
        expect(await store.get('forge-mcp:sealing')).toMatch(/^sealed [0-9a-f]{32}$/);
        expect(await store.get('forge-mcp:sealing')).not.toBe(marked);
      } finally {
        await b.stop();
      }
      for (const server of [a, b]) for (const k of [first!, next!]) expect(server.stderr()).not.toContain(k);
    } finally {
      store.disconnect();
    }
  });

  it('answers 503 saying replicas with another FORGE_MCP_STATE_KEY hold Redis (not that it does not answer) while they do, and serves again once they are gone', async () => {
    const key = testSecret(randomBytes(32).toString('hex'));
    const store = new Redis(redis.url);
    const a = await httpServer(s, [`--redis-url=${redis.url}`], { FORGE_MCP_STATE_KEY: key });
    try {
      expect((await rpc(a.url, bearer(s.tokens.api), getIssue(1))).status).toBe(200);
      // What a replica sealing with another key leaves when it claims a Redis server that came back empty.
      const other = `sealed ${randomBytes(16).toString('hex')}`;
      await store.set('forge-mcp:sealing', other, 'PX', 60_000);
      // The running replica finds it at its next heartbeat (every 10 s).
      let refused: Response | undefined;
      await until(async () => {
        const r = await rpc(a.url, bearer(s.tokens.api), getIssue(2));
        if (r.status === 503) refused = r;
        else await r.body?.cancel();
        return r.status === 503;
      }, 'the refusal at the next heartbeat');
      expect(refused!.headers.get('retry-after')).toBe('5');
      expect(await refused!.json()).toEqual({
        jsonrpc: '2.0',
        id: 2,
        error: {
          code: -32603,
          message:
            'shared state is unavailable: replicas sealing it with another FORGE_MCP_STATE_KEY, or with none, now use the Redis server this replica shares its state through; it serves again once they are gone (its log says what to set); retry later',
        },
      });
      // That replica gone (its check value lapsed), the next heartbeat gives this one's back and it serves again.
      await store.del('forge-mcp:sealing');
      await until(async () => {
        const r = await rpc(a.url, bearer(s.tokens.api), getIssue(3));
        await r.body?.cancel();
        return r.status === 200;
      }, 'serving again');
      const log = a.stderr();
      expect(log).toContain("lost this replica's check value");
      expect(log).toContain('shared state usable again');
      expect(log).not.toContain(key);
    } finally {
      await a.stop();
      store.disconnect();
    }
  });

  it("finishes the calls of a replica refused for another FORGE_MCP_STATE_KEY: the answer reaches the client still connected and the session's log once it serves again, its heartbeat going on meanwhile", async () => {
    const key = testSecret(randomBytes(32).toString('hex'));
    const store = new Redis(redis.url);
    const a = await httpServer(s, ['--stateless=false', `--redis-url=${redis.url}`], {
      FORGE_MCP_STATE_KEY: key,
    });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    try {
      const version = '2025-11-25';
      const opened = await rpc(a.url, bearer(s.tokens.api), {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      });
      const session = {
        ...bearer(s.tokens.api),
        'mcp-session-id': opened.headers.get('mcp-session-id')!,
        'mcp-protocol-version': version,
      };
      await opened.body?.cancel();
      await (
        await rpc(a.url, session, { jsonrpc: '2.0', method: 'notifications/initialized' })
      ).body?.cancel();
      const path = '/api/v4/projects/1/issues/2';
      s.fault({ path, until: held, times: 1 });
      const since = s.requests.length;
      const call = await fetch(a.url, {
        method: 'POST',
        headers: {
          ...session,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
        },
        body: JSON.stringify(executeCall(7, 'issue.get', { project_id: '1', issue_iid: 2 })),
        signal: AbortSignal.timeout(90_000),
      });
      const reader = call.body!.getReader();
      let text = '';
      while (!eventsOf(text).some((e) => e.id)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the call's stream ended before its priming event: ${text}`);
        text += new TextDecoder().decode(value);
      }
      const priming = eventsOf(text).find((e) => e.id)!.id!;
      await until(async () => s.requests.slice(since).some((q) => q.path === path));
      const [replica, alive] = await store.zrange('forge-mcp:replicas', 0, -1, 'WITHSCORES');
      // Replicas sealing with another key claim the Redis server (as after it came back empty).
      await store.set('forge-mcp:sealing', `sealed ${randomBytes(16).toString('hex')}`, 'PX', 120_000);
      await until(async () => {
        const r = await rpc(a.url, bearer(s.tokens.api), getIssue(2));
        await r.body?.cancel();
        return r.status === 503;
      });
      // Refused, it still says it is alive: no replica answers its call 'replica stopped' while it runs.
      await until(async () => Number(await store.zscore('forge-mcp:replicas', replica!)) > Number(alive));
      release();
      // The client still connected gets the answer, as an event the log could not give an id.
      while (!eventsOf(text).some((e) => e.data?.id === 7)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the call's stream ended before its answer: ${text}`);
        text += new TextDecoder().decode(value);
      }
      const answer = eventsOf(text).find((e) => e.data?.id === 7)!;
      expect(answer.id).toBeUndefined();
      expect(
        (answer.data as { result: { structuredContent: { iid: number } } }).result.structuredContent.iid,
      ).toBe(2);
      await reader.cancel();
      // The other replicas gone, it serves again, and the answer is in the log for a client resuming its stream.
      await store.del('forge-mcp:sealing');
      await until(async () => {
        const r = await rpc(a.url, bearer(s.tokens.api), getIssue(3));
        await r.body?.cancel();
        return r.status === 200;
      });
      expect(await resumeStream(a.url, session, priming, 30_000)).toEqual({ status: 200, ids: [7] });
      expect(s.requests.slice(since).filter((q) => q.path === path)).toHaveLength(1);
      const refusal = logged(a.stderr(), 'error').find((m) => m.includes("lost this replica's check value"));
      expect(refusal).toMatch(
        /the calls it is answering run to their end, their answers reach the clients still connected and are written to the session logs once it serves again, and it keeps its heartbeat, so no replica answers them in its stead \('replica stopped'\)$/,
      );
    } finally {
      release();
      await a.stop();
      store.disconnect();
    }
  });

  it('refuses to start when Redis cannot be reached, naming the variable and host:port', async () => {
    const port = await freePort();
    const { code, stderr } = await runCli(
      ['--http', '--http-addr=127.0.0.1:0', `--forge-url=${s.url}`, '--tier=ultimate'],
      { FORGE_MCP_REDIS_URL: `redis://:${PASSWORD}@127.0.0.1:${port}` },
      60_000,
    );
    expect(code).not.toBe(0);
    const errors = stderr.split('\n').filter((l) => l.includes('"level":"error"'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('FORGE_MCP_REDIS_URL');
    expect(errors[0]).toContain(`127.0.0.1:${port}`);
    expect(errors[0]).toContain('cannot be reached');
    expect(stderr).not.toContain(PASSWORD);
    expect(stderr).not.toContain('serving over HTTP');
  });

  it('refuses to start on a database the Redis server does not have, rather than sharing state in database 0', async () => {
    const { code, stderr } = await runCli(
      ['--http', '--http-addr=127.0.0.1:0', `--forge-url=${s.url}`, '--tier=ultimate'],
      { FORGE_MCP_REDIS_URL: `${redis.url}/99` },
      60_000,
    );
    expect(code).toBe(1);
    const errors = stderr.split('\n').filter((l) => l.includes('"level":"error"'));
    expect(errors.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual([
      `FORGE_MCP_REDIS_URL (--redis-url): the Redis server at 127.0.0.1:${redis.port} has no database 99 (ERR DB index is out of range): name one it has in the URL's path (/0 to /15 unless its databases setting allows more)`,
    ]);
    expect(stderr).not.toContain(PASSWORD);
    expect(stderr).not.toContain('serving over HTTP');
    // A database it has is served.
    const server = await httpServer(s, [], { FORGE_MCP_REDIS_URL: `${redis.url}/3` });
    try {
      expect((await rpc(server.url, bearer(s.tokens.api), getIssue(1))).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('names a wrong password, and a port that does not speak Redis, as what to correct at start', async () => {
    const start = async (url: string) => {
      const { code, stderr } = await runCli(
        ['--http', '--http-addr=127.0.0.1:0', `--forge-url=${s.url}`, '--tier=ultimate'],
        { FORGE_MCP_REDIS_URL: url },
        60_000,
      );
      expect(code).toBe(1);
      expect(stderr).not.toContain('serving over HTTP');
      return logged(stderr, 'error');
    };
    const wrong = await start(`redis://:not-${PASSWORD}@127.0.0.1:${redis.port}`);
    expect(wrong).toHaveLength(1);
    expect(wrong[0]).toMatch(
      new RegExp(
        `^FORGE_MCP_REDIS_URL \\(--redis-url\\): the Redis server at 127\\.0\\.0\\.1:${redis.port} refused the credentials \\(WRONGPASS[^)]*\\): correct the user and password in the URL$`,
      ),
    );
    expect(wrong[0]).not.toContain(PASSWORD);
    const simPort = new URL(s.url).port;
    const http = await start(`redis://:${PASSWORD}@127.0.0.1:${simPort}`);
    expect(http).toHaveLength(1);
    expect(http[0]).toContain(`the server at 127.0.0.1:${simPort} did not answer as Redis (`);
    expect(http[0]).toContain('check that the URL names the Redis port');
    expect(http[0]).not.toContain(PASSWORD);
    // Without a password the port's refusal of the first command closes it, and the message still says so.
    const bare = await start(`redis://127.0.0.1:${simPort}`);
    expect(bare).toHaveLength(1);
    expect(bare[0]).toContain(`the server at 127.0.0.1:${simPort} did not answer as Redis (`);
    expect(bare[0]).toContain('check that the URL names the Redis port');
    expect(bare[0]).not.toContain('Please report this');
    // rediss:// to a server without TLS: the handshake never completes.
    const tls = await start(`rediss://:${PASSWORD}@127.0.0.1:${redis.port}`);
    expect(tls).toHaveLength(1);
    expect(tls[0]).toMatch(/: start it or correct the URL; rediss:\/\/ needs a server that speaks TLS$/);
  });

  it('refuses a URL that is not a Redis URL, without repeating it', async () => {
    const { code, stderr } = await runCli(['--http', `--forge-url=${s.url}`], {
      FORGE_MCP_REDIS_URL: `https://:${PASSWORD}@127.0.0.1:6379`,
    });
    expect(code).toBe(2);
    expect(stderr).toContain(
      'invalid FORGE_MCP_REDIS_URL=<redacted>: the scheme is https, not redis or rediss',
    );
    expect(stderr).not.toContain(PASSWORD);
  });
});

describe.skipIf(REDIS_SKIP_REASON)('FORGE_MCP_REDIS_URL with a password the server does not require', () => {
  let bare: RedisServer;
  beforeAll(async () => {
    bare = await startRedis();
  });
  afterAll(async () => {
    await bare?.stop();
  });

  it('serves, and says so in one JSON WARN record naming host:port, never the password, nothing raw on stderr', async () => {
    const server = await httpServer(s, [`--redis-url=redis://:${PASSWORD}@127.0.0.1:${bare.port}`]);
    try {
      expect((await rpc(server.url, { authorization: `Bearer ${s.tokens.api}` }, getIssue(1))).status).toBe(
        200,
      );
    } finally {
      await server.stop();
    }
    const stderr = server.stderr();
    for (const line of stderr.split('\n').filter((l) => l !== ''))
      expect(() => JSON.parse(line) as unknown, line).not.toThrow();
    const notices = logRecords(stderr).filter((r) => /does not require a password/.test(r.msg));
    expect(notices).toEqual([
      expect.objectContaining({
        level: 'warn',
        redis: `127.0.0.1:${bare.port}`,
        msg: `FORGE_MCP_REDIS_URL (--redis-url): the Redis server at 127.0.0.1:${bare.port} does not require a password, but the URL carries one; it is not used (leave it out of the URL, or set requirepass on the server)`,
      }),
    ]);
    expect(stderr).not.toContain(PASSWORD);
  });
});

describe.skipIf(REDIS_SKIP_REASON)('FORGE_MCP_REDIS_URL on a Redis server that may evict keys', () => {
  const servers: RedisServer[] = [];
  afterAll(async () => {
    for (const r of servers) await r.stop();
  });

  /** The eviction WARN records of a server started on `redis` and asked one call. */
  async function evictionNotices(redis: RedisServer) {
    const server = await httpServer(s, [`--redis-url=${redis.url}`]);
    try {
      expect((await rpc(server.url, bearer(s.tokens.api), getIssue(1))).status).toBe(200);
    } finally {
      await server.stop();
    }
    return logRecords(server.stderr()).filter((r) => /maxmemory/.test(r.msg));
  }

  it('warns once at start naming the policy, when a maxmemory comes with a policy other than noeviction', async () => {
    const lru = await startRedis({ args: ['--maxmemory', '100mb', '--maxmemory-policy', 'allkeys-lru'] });
    servers.push(lru);
    expect(await evictionNotices(lru)).toEqual([
      expect.objectContaining({
        level: 'warn',
        redis: `127.0.0.1:${lru.port}`,
        maxmemoryPolicy: 'allkeys-lru',
        msg: `FORGE_MCP_REDIS_URL (--redis-url): the Redis server at 127.0.0.1:${lru.port} evicts keys when full (maxmemory 104857600 bytes, maxmemory-policy allkeys-lru), and an evicted key is shared state lost while in use: a stateful session ends early, a sealed event-log entry reads as absent; set maxmemory-policy noeviction on it (a full server then refuses writes, answered 503 here), or no maxmemory`,
      }),
    ]);
    // Every key the server writes has a TTL, so a volatile policy evicts them as well.
    const volatile = await startRedis({
      args: ['--maxmemory', '64mb', '--maxmemory-policy', 'volatile-ttl'],
    });
    servers.push(volatile);
    expect((await evictionNotices(volatile)).map((r) => r.maxmemoryPolicy)).toEqual(['volatile-ttl']);
  });

  it('says nothing when Redis does not evict (noeviction, or no maxmemory), nor when CONFIG is refused, as on managed Redis', async () => {
    for (const args of [
      ['--maxmemory', '100mb', '--maxmemory-policy', 'noeviction'],
      ['--maxmemory-policy', 'allkeys-lru'],
      // CONFIG renamed away: the server cannot be asked, and starts all the same.
      ['--maxmemory', '100mb', '--maxmemory-policy', 'allkeys-lru', '--rename-command', 'CONFIG', ''],
    ]) {
      const redis = await startRedis({ args });
      servers.push(redis);
      expect(await evictionNotices(redis), args.join(' ')).toEqual([]);
    }
  });
});
