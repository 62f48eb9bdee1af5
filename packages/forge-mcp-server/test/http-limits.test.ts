/**
 * HTTP limits through real loopback HTTP against forge-sim: the per-credential rate limit (calls,
 * tools/list's slower bucket) and the authentication budgets of the client address (held credentials
 * keep working; behind a trusted proxy the X-Forwarded-For address is charged).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls, httpServer, rpc, sim, type ForgeSim, type HttpServerProcess } from './harness.js';

let s: ForgeSim;
let server: HttpServerProcess | undefined;
beforeAll(async () => {
  s = await sim();
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
});
afterAll(async () => {
  await s.close();
});

const bearer = (token: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${token}`,
  ...extra,
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
const listTools = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });
const toIssue = (since: number) => apiCalls(s, since).filter((q) => q.path.includes('/issues'));

describe('per-credential rate limit', () => {
  it('answers the third quick tools/call 429 with Retry-After, and sends nothing to the instance', async () => {
    // A token every ten seconds: the two first calls empty the bucket however slowly a loaded machine serves them.
    server = await httpServer(s, ['--rate-limit-rps=0.1', '--rate-limit-burst=2']);
    const since = s.requests.length;
    expect((await rpc(server.url, bearer(s.tokens.api), getIssue(1))).status).toBe(200);
    expect((await rpc(server.url, bearer(s.tokens.api), getIssue(2))).status).toBe(200);
    const refused = await rpc(server.url, bearer(s.tokens.api), getIssue(3));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await refused.json()) as { id: number; error: { code: number; data: { reason: string } } };
    expect(body).toMatchObject({ id: 3, error: { code: -42900, data: { reason: 'rate_limited' } } });
    expect(toIssue(since)).toHaveLength(2);
    // Another credential has its own bucket.
    expect((await rpc(server.url, bearer(s.tokens.readApi), getIssue(4))).status).toBe(200);
    expect(server.stderr().match(/"msg":"rate limited"/g)).toHaveLength(1);
  });

  it('limits tools/list by its own bucket, refilled a tenth as fast', async () => {
    server = await httpServer(s, ['--rate-limit-rps=1', '--rate-limit-burst=2']);
    expect((await rpc(server.url, bearer(s.tokens.api), listTools(1))).status).toBe(200);
    expect((await rpc(server.url, bearer(s.tokens.api), listTools(2))).status).toBe(200);
    const refused = await rpc(server.url, bearer(s.tokens.api), listTools(3));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(9);
    // Calls still pass: their bucket is another one.
    expect((await rpc(server.url, bearer(s.tokens.api), getIssue(4))).status).toBe(200);
    // A batch is charged per message.
    const batch = await rpc(server.url, bearer(s.tokens.readApi), [getIssue(5), getIssue(6), getIssue(7)]);
    expect(batch.status).toBe(429);
    expect(((await batch.json()) as Array<{ id: number }>).map((e) => e.id)).toEqual([5, 6, 7]);
  });
});

describe('authentication budgets', () => {
  it('blocks an address after its refused tokens spend the budget; a held token keeps working', async () => {
    server = await httpServer(s, [], { FORGE_MCP_AUTH_FAILURE_LIMIT: '2' });
    expect((await rpc(server.url, bearer(s.tokens.api), getIssue(1))).status).toBe(200);
    expect((await rpc(server.url, bearer('refused-1'), getIssue(2))).status).toBe(401);
    expect((await rpc(server.url, bearer('refused-2'), getIssue(3))).status).toBe(401);
    const before = s.requests.length;
    const blocked = await rpc(server.url, bearer('refused-3'), getIssue(4));
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe('60');
    expect(blocked.headers.get('www-authenticate')).toBeNull();
    expect(s.requests.slice(before).filter((q) => q.token === 'refused-3')).toEqual([]);
    // A credential the server does not hold is refused too, even a good one.
    expect((await rpc(server.url, bearer(s.tokens.readApi), getIssue(5))).status).toBe(429);
    // The held credential keeps working from the blocked address.
    expect((await rpc(server.url, bearer(s.tokens.api), getIssue(6))).status).toBe(200);
    expect(server.stderr()).toContain('authentication budget spent');
  });

  it('behind a trusted proxy charges the X-Forwarded-For address', async () => {
    server = await httpServer(s, ['--trusted-proxy-header=X-Forwarded-For', '--trusted-proxies=127.0.0.1'], {
      FORGE_MCP_AUTH_FAILURE_LIMIT: '2',
    });
    const from = (addr: string) => ({ 'x-forwarded-for': `${addr}, 127.0.0.1` });
    expect((await rpc(server.url, bearer('bad-1', from('198.51.100.7')), getIssue(1))).status).toBe(401);
    expect((await rpc(server.url, bearer('bad-2', from('198.51.100.7')), getIssue(2))).status).toBe(401);
    expect((await rpc(server.url, bearer('bad-3', from('198.51.100.7')), getIssue(3))).status).toBe(429);
    // Another client behind the same proxy, and the proxy itself, are not blocked.
    expect((await rpc(server.url, bearer('bad-4', from('198.51.100.8')), getIssue(4))).status).toBe(401);
    expect((await rpc(server.url, bearer('bad-5'), getIssue(5))).status).toBe(401);
  });
});
