/**
 * HTTP limits through real loopback HTTP against forge-sim: the per-credential rate limit (calls,
 * tools/list's slower bucket), the process-wide tools/list bucket, and the authentication budgets of the
 * client address (held credentials keep working; behind a trusted proxy the X-Forwarded-For address is
 * charged; blocks escalate and start over). Where minutes or hours must pass, the server's clock is moved
 * by the test (clock.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCalls,
  executeCall,
  httpServer,
  httpServerAt,
  rpc,
  sim,
  type ForgeSim,
  type HttpServerProcess,
  until,
} from './harness.js';
import { expectRetryAfter, ShiftedClock } from './clock.js';

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
/** issue.get of issue #1 of project 1, as a raw tools/call. */
const getIssue = (id: number) => executeCall(id, 'issue.get', { project_id: '1', issue_iid: 1 });
const listTools = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });
const toIssue = (since: number) => apiCalls(s, since).filter((q) => q.path.includes('/issues'));
/** A completion of the review_mr prompt's project_id, as a raw request. */
const complete = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'completion/complete',
  params: { ref: { type: 'ref/prompt', name: 'review_mr' }, argument: { name: 'project_id', value: 'wid' } },
});
/** Starts `server` on a clock that stands still unless the test moves it: nothing refills however slow the machine. */
async function onFrozenClock(args: string[]): Promise<ShiftedClock> {
  const clock = new ShiftedClock({ frozen: true });
  server = clock.of(await httpServerAt(s, args, clock.env()));
  return clock;
}

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

  it('answers Retry-After from the bucket in force, and logs its refusals at most one line per ten seconds', async () => {
    // One token per 1,000 s: the first call empties the bucket and nothing refills during the test.
    server = await httpServer(s, ['--rate-limit-rps=0.001', '--rate-limit-burst=1']);
    expect((await rpc(server.url, bearer(s.tokens.api), getIssue(1))).status).toBe(200);
    const started = Date.now();
    for (let id = 2; id <= 5; id++) {
      const refused = await rpc(server.url, bearer(s.tokens.api), getIssue(id));
      expect(refused.status).toBe(429);
      // The next token is 1,000 s after the first call, less the seconds gone since.
      const elapsedS = (Date.now() - started) / 1000;
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeLessThanOrEqual(1000);
      expect(retryAfter).toBeGreaterThanOrEqual(1000 - Math.ceil(elapsedS) - 1);
    }
    const elapsedS = (Date.now() - started) / 1000;
    const lines = server.stderr().match(/"msg":"rate limited"/g) ?? [];
    // Four refusals within ten seconds make one line; a machine slow enough to spread them wider may make more.
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.length).toBeLessThanOrEqual(1 + Math.floor(elapsedS / 10));
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

describe('an oversized JSON-RPC batch', () => {
  it('is refused 400 whole before anything is charged: the whole burst still passes after it', async () => {
    // One token per 1,000 s: nothing refills during the test, so the bucket holds exactly what was not charged.
    server = await httpServer(s, ['--rate-limit-rps=0.001', '--rate-limit-burst=101']);
    const since = s.requests.length;
    const batch = (from: number, n: number) => Array.from({ length: n }, (_, i) => getIssue(from + i));
    const oversized = await rpc(server.url, bearer(s.tokens.api), batch(1, 101));
    expect(oversized.status).toBe(400);
    expect(await oversized.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: Batch must not exceed 100 messages' },
    });
    expect(toIssue(since)).toHaveLength(0);
    // The burst of 101 is still in hand: a batch of 100 and one call pass, the next call is refused.
    const full = await rpc(server.url, bearer(s.tokens.api), batch(200, 100));
    expect(full.status).toBe(200);
    await full.arrayBuffer();
    expect((await rpc(server.url, bearer(s.tokens.api), getIssue(300))).status).toBe(200);
    expect((await rpc(server.url, bearer(s.tokens.api), getIssue(301))).status).toBe(429);
    expect(toIssue(since)).toHaveLength(101);
  });
});

describe('per-credential buckets refilling, on a clock that stands still unless the test moves it', () => {
  const status = async (body: unknown) => (await rpc(server!.url, bearer(s.tokens.api), body)).status;
  /** Sends `n` of `make` one after another; the statuses. */
  const each = async (n: number, make: (id: number) => unknown) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(await status(make(i)));
    return out;
  };

  it('tools/list refills at a tenth of the rate: one in ten seconds at --rate-limit-rps=1, Retry-After 10', async () => {
    const clock = await onFrozenClock(['--rate-limit-rps=1', '--rate-limit-burst=2']);
    expect(await each(2, listTools)).toEqual([200, 200]);
    const refused = await rpc(server!.url, bearer(s.tokens.api), listTools(3));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('10');
    await clock.forward(9_999);
    expect(await status(listTools(4))).toBe(429);
    await clock.forward(1);
    expect(await each(2, listTools)).toEqual([200, 429]);
  });

  it('Retry-After rounds the wait for the next token up to whole seconds', async () => {
    // A token every 2.5 s.
    const clock = await onFrozenClock(['--rate-limit-rps=0.4', '--rate-limit-burst=1']);
    const retryAfter = async (id: number) => {
      const refused = await rpc(server!.url, bearer(s.tokens.api), getIssue(id));
      expect(refused.status).toBe(429);
      return refused.headers.get('retry-after');
    };
    expect(await status(getIssue(1))).toBe(200);
    expect(await retryAfter(2)).toBe('3');
    await clock.forward(1_000);
    expect(await retryAfter(3)).toBe('2');
    await clock.forward(1_400);
    expect(await retryAfter(4)).toBe('1');
  });

  it('the rate-limit refusal log writes one line per ten seconds, the next one counting those held back', async () => {
    const clock = await onFrozenClock(['--rate-limit-rps=0.001', '--rate-limit-burst=1']);
    const lines = () =>
      server!
        .stderr()
        .split('\n')
        .filter((l) => l.includes('"msg":"rate limited"'))
        .map((l) => JSON.parse(l) as { suppressed: number });
    expect(await status(getIssue(1))).toBe(200);
    expect(await status(getIssue(2))).toBe(429);
    await until(() => lines().length === 1, 'the first refusal line');
    await clock.forward(9_999);
    expect(await status(getIssue(3))).toBe(429);
    await clock.forward(1);
    expect(await status(getIssue(4))).toBe(429);
    await until(() => lines().length === 2, 'the second refusal line');
    expect(lines().map((l) => l.suppressed)).toEqual([0, 1]);
  });

  it('completion/complete refills at ten times the rate: one a second at --rate-limit-rps=0.1, while calls get one in ten seconds', async () => {
    const clock = await onFrozenClock(['--rate-limit-rps=0.1', '--rate-limit-burst=1']);
    expect(await each(11, complete)).toEqual([...Array(10).fill(200), 429]);
    expect(await each(2, getIssue)).toEqual([200, 429]);
    await clock.forward(1_000);
    expect(await each(2, complete)).toEqual([200, 429]);
    expect(await status(getIssue(20))).toBe(429);
    await clock.forward(9_000);
    expect(await each(10, complete)).toEqual([...Array(9).fill(200), 429]);
    expect(await each(2, getIssue)).toEqual([200, 429]);
  });
});

describe('what the per-credential calls bucket is charged with', () => {
  it('prompts/get and resources/read take a call token; initialize, ping and the other lists take none', async () => {
    await onFrozenClock(['--rate-limit-rps=0.1', '--rate-limit-burst=1']);
    const send = async (token: string, method: string, params: Record<string, unknown>, id: number) =>
      (await rpc(server!.url, bearer(token), { jsonrpc: '2.0', id, method, params })).status;
    const free: Array<[string, Record<string, unknown>]> = [
      [
        'initialize',
        { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'limits', version: '1' } },
      ],
      ['ping', {}],
      ['resources/list', {}],
      ['resources/templates/list', {}],
      ['prompts/list', {}],
    ];
    let id = 0;
    for (const [method, params] of free)
      for (let i = 0; i < 3; i++) expect(await send(s.tokens.api, method, params, ++id), method).toBe(200);
    // The one token in hand is still there: the first charged request takes it, the next is refused.
    const charged: Array<[string, string, Record<string, unknown>]> = [
      [s.tokens.api, 'prompts/get', { name: 'review_mr', arguments: { project_id: '1', mr_iid: '1' } }],
      [s.tokens.readApi, 'resources/read', { uri: 'forge://project/1/issue/1' }],
    ];
    for (const [token, method, params] of charged) {
      expect(await send(token, method, params, ++id), method).toBe(200);
      expect((await rpc(server!.url, bearer(token), getIssue(++id))).status, `a call after ${method}`).toBe(
        429,
      );
    }
  });
});

describe('the process-wide tools/list bucket', () => {
  it('holds 48,000 tools/list across all credentials and refills 3,000 a second, at the highest per-credential settings', async () => {
    // The highest rate and burst a deployment may set: each credential's own tools/list bucket holds 10,000.
    const clock = await onFrozenClock(['--rate-limit-rps=1000', '--rate-limit-burst=10000']);
    const tokens = Array.from({ length: 6 }, () => s.addToken({ kind: 'personal', scopes: ['api'] }));
    /** A batch of `n` tools/list (a batch holds at most 100 messages). */
    const lists = async (token: string, n: number) => {
      const res = await rpc(
        server!.url,
        bearer(token),
        Array.from({ length: n }, (_, i) => listTools(i + 1)),
      );
      await res.arrayBuffer();
      return res;
    };
    const globalRefusal = {
      code: -42900,
      message: 'the server-wide tools/list limit is reached; retry after 1 s',
      data: { reason: 'rate_limited', retryAfterSeconds: 1 },
    };
    // Five credentials take 48,000 between them (four 10,000, the fifth 8,000), none beyond its own bucket.
    await Promise.all(
      [10_000, 10_000, 10_000, 10_000, 8_000].map(async (share, i) => {
        for (let sent = 0; sent < share; sent += 100) expect((await lists(tokens[i]!, 100)).status).toBe(200);
      }),
    );
    // A sixth credential's first tools/list, its own bucket full, finds the process-wide one empty.
    const refused = await rpc(server.url, bearer(tokens[5]!), listTools(7));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ id: 7, error: globalRefusal });
    // Its calls are charged elsewhere.
    expect((await rpc(server.url, bearer(tokens[5]!), getIssue(8))).status).toBe(200);
    // A second later 3,000 are back: thirty batches of 100 pass, and the next tools/list is refused again.
    await clock.forward(1000);
    for (let i = 0; i < 30; i++) expect((await lists(tokens[5]!, 100)).status).toBe(200);
    const again = await rpc(server.url, bearer(tokens[5]!), listTools(9));
    expect(again.status).toBe(429);
    expect(await again.json()).toMatchObject({ id: 9, error: globalRefusal });
  }, 120_000);
});

describe('per-credential rate limit of completions', () => {
  it('gives completion/complete its own bucket at ten times the burst: the eleventh quick one is refused while calls still pass', async () => {
    // One token per 1,000 s: nothing refills during the test however slow the machine.
    server = await httpServer(s, ['--rate-limit-rps=0.001', '--rate-limit-burst=1']);
    for (let i = 1; i <= 10; i++)
      expect((await rpc(server.url, bearer(s.tokens.api), complete(i))).status).toBe(200);
    const refused = await rpc(server.url, bearer(s.tokens.api), complete(11));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      id: 11,
      error: { code: -42900, data: { reason: 'rate_limited' } },
    });
    // The call bucket (burst 1) is untouched by the completions.
    expect((await rpc(server.url, bearer(s.tokens.api), getIssue(12))).status).toBe(200);
    expect((await rpc(server.url, bearer(s.tokens.api), getIssue(13))).status).toBe(429);
  });
});

describe('authentication budgets', () => {
  it('blocks an address after its refused tokens spend the budget; a held token keeps working', async () => {
    server = await httpServer(s, [], { FORGE_MCP_AUTH_FAILURE_LIMIT: '2' });
    expect((await rpc(server.url, bearer(s.tokens.api), getIssue(1))).status).toBe(200);
    expect((await rpc(server.url, bearer('refused-1'), getIssue(2))).status).toBe(401);
    // The second refusal spends the budget and starts a block of one failure window (60 s).
    const spent = Date.now();
    expect((await rpc(server.url, bearer('refused-2'), getIssue(3))).status).toBe(401);
    const before = s.requests.length;
    const blocked = await rpc(server.url, bearer('refused-3'), getIssue(4));
    expect(blocked.status).toBe(429);
    expectRetryAfter(blocked, 60, spent);
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

describe('authentication budgets at their defaults', () => {
  it('ten refused credentials a minute block the address for a minute', async () => {
    server = await httpServer(s);
    // The same refused credential counts every time against the failure budget; the tenth starts the block.
    let spent = 0;
    for (let i = 1; i <= 10; i++) {
      spent = Date.now();
      expect(
        (await rpc(server.url, bearer(i <= 5 ? 'refused-same' : `refused-${i}`), getIssue(i))).status,
      ).toBe(401);
    }
    const blocked = await rpc(server.url, bearer('refused-11'), getIssue(11));
    expect(blocked.status).toBe(429);
    // One failure window (60 s) from the refusal that started it, less any time gone since.
    expectRetryAfter(blocked, 60, spent);
  });

  it('fifty distinct refused credentials in ten minutes block the address; a repeat is not a new one', async () => {
    // The failure budget off, so only the distinct-credential budget counts.
    server = await httpServer(s, [], { FORGE_MCP_AUTH_FAILURE_LIMIT: '0' });
    for (let i = 1; i <= 49; i++)
      expect((await rpc(server.url, bearer(`distinct-${i}`), getIssue(i))).status).toBe(401);
    for (let i = 0; i < 5; i++)
      expect((await rpc(server.url, bearer('distinct-1'), getIssue(60 + i))).status).toBe(401);
    const spent = Date.now();
    expect((await rpc(server.url, bearer('distinct-50'), getIssue(50))).status).toBe(401);
    const blocked = await rpc(server.url, bearer('distinct-51'), getIssue(51));
    expect(blocked.status).toBe(429);
    // One failure window (60 s) from the refusal that started it, less any time gone since.
    expectRetryAfter(blocked, 60, spent);
    expect(blocked.headers.get('www-authenticate')).toBeNull();
  });
});

describe('the failure window', () => {
  it('a refusal exactly one window old no longer counts against the failure budget', async () => {
    const clock = new ShiftedClock({ frozen: true });
    server = clock.of(
      await httpServerAt(s, [], { FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT: '0', ...clock.env() }),
    );
    let n = 0;
    const refused = async () => (await rpc(server!.url, bearer(`windowed-${++n}`), getIssue(n))).status;
    for (let i = 0; i < 9; i++) expect(await refused()).toBe(401);
    await clock.forward(60_000);
    // The nine are out of the window: nine more refusals make nine, the tenth spends the budget.
    for (let i = 0; i < 10; i++) expect(await refused()).toBe(401);
    expect(await refused()).toBe(429);
  });
});

describe('the block log', () => {
  it('writes one WARN line per ten seconds, the next one counting the blocks held back', async () => {
    const clock = new ShiftedClock({ frozen: true });
    server = clock.of(
      await httpServerAt(s, ['--trusted-proxy-header=X-Forwarded-For', '--trusted-proxies=127.0.0.1'], {
        FORGE_MCP_AUTH_FAILURE_LIMIT: '1',
        FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT: '0',
        ...clock.env(),
      }),
    );
    const lines = () =>
      server!
        .stderr()
        .split('\n')
        .filter((l) => l.includes('"msg":"authentication budget spent: address blocked"'))
        .map((l) => JSON.parse(l) as { suppressed: number });
    // Each refused credential blocks the client it came from: one block per client.
    let n = 0;
    const block = async (client: string) =>
      expect(
        (await rpc(server!.url, bearer(`blocked-${++n}`, { 'x-forwarded-for': client }), getIssue(n))).status,
      ).toBe(401);
    await block('198.51.100.1');
    await until(() => lines().length === 1, 'the first block line');
    await block('198.51.100.2');
    await clock.forward(9_999);
    await block('198.51.100.3');
    await clock.forward(1);
    await block('198.51.100.4');
    await until(() => lines().length === 2, 'the second block line');
    expect(lines().map((l) => l.suppressed)).toEqual([0, 2]);
  });
});

describe('authentication budgets switched off', () => {
  it.each([
    {
      what: 'a failure window of 0 turns off both budgets',
      env: {
        FORGE_MCP_AUTH_FAILURE_LIMIT: '2',
        FORGE_MCP_AUTH_FAILURE_WINDOW: '0',
        FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT: '2',
      },
      refusals: 12,
    },
    {
      what: 'a distinct-token window of 0 turns off the distinct-token budget',
      env: {
        FORGE_MCP_AUTH_FAILURE_LIMIT: '0',
        FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT: '2',
        FORGE_MCP_AUTH_DISTINCT_TOKEN_WINDOW: '0',
      },
      refusals: 12,
    },
    {
      what: 'a distinct-token limit of 0 turns off the distinct-token budget (fifty would block at its default)',
      env: { FORGE_MCP_AUTH_FAILURE_LIMIT: '0', FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT: '0' },
      refusals: 60,
    },
  ])('$what: every refused credential is answered 401, none 429', async ({ env, refusals }) => {
    server = await httpServer(s, [], env);
    const statuses: number[] = [];
    for (let i = 1; i <= refusals; i++)
      statuses.push((await rpc(server.url, bearer(`unbudgeted-${i}`), getIssue(i))).status);
    expect(statuses).toEqual(Array(refusals).fill(401));
    expect(server.stderr()).not.toContain('authentication budget spent');
  });
});

describe('authentication budget blocks', () => {
  it('escalate one window, then ten, then sixty; Retry-After carries the block in force', async () => {
    // A one-second failure window, and a budget of one failure: each refused credential starts a block.
    server = await httpServer(s, [], {
      FORGE_MCP_AUTH_FAILURE_LIMIT: '1',
      FORGE_MCP_AUTH_FAILURE_WINDOW: '1s',
      FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT: '0',
    });
    let n = 0;
    const refused = () => rpc(server!.url, bearer(`escalating-${++n}`), getIssue(n));
    /** Waits out the block in force: the first request it lets through is refused 401 and starts the next. */
    const outlast = async () => {
      const deadline = Date.now() + 60_000;
      let status = 429;
      while (status === 429 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        status = (await refused()).status;
      }
      expect(status).toBe(401);
    };
    expect((await refused()).status).toBe(401);
    const first = await refused();
    if (first.status === 429) {
      expect(first.headers.get('www-authenticate')).toBeNull();
      expect(first.headers.get('retry-after')).toBe('1');
      await outlast();
    } else {
      // A machine slower than the one-second block: this refusal came after it and started the next one.
      expect(first.status).toBe(401);
    }
    for (const windows of [10, 60]) {
      const started = Date.now();
      const blocked = await refused();
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get('www-authenticate')).toBeNull();
      const retryAfter = Number(blocked.headers.get('retry-after'));
      expect(retryAfter).toBeLessThanOrEqual(windows);
      expect(retryAfter).toBeGreaterThanOrEqual(windows - 1 - Math.ceil((Date.now() - started) / 1000));
      if (windows < 60) await outlast();
    }
  }, 60_000);
});

describe('authentication budget escalation', () => {
  it('stops at sixty windows, and starts over after sixty failure windows without a failure from the address, not after fifty-nine', async () => {
    // The default one-minute failure window and a budget of one failure: each refused credential starts a
    // block. The server's clock is moved forward by the test, so the hours between blocks take no time.
    const clock = new ShiftedClock();
    server = clock.of(
      await httpServerAt(s, [], {
        FORGE_MCP_AUTH_FAILURE_LIMIT: '1',
        FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT: '0',
        ...clock.env(),
      }),
    );
    let n = 0;
    /** A refused credential starts a block of `windows` minutes: the next one is answered 429 with it. */
    const block = async (windows: number) => {
      const spent = Date.now();
      expect((await rpc(server!.url, bearer(`quiet-${++n}`), getIssue(n))).status).toBe(401);
      const blocked = await rpc(server!.url, bearer(`quiet-${++n}`), getIssue(n));
      expect(blocked.status).toBe(429);
      expectRetryAfter(blocked, windows * 60, spent);
    };
    await block(1);
    await clock.forward(61_000);
    await block(10);
    await clock.forward(601_000);
    await block(60);
    // Sixty is the last step: an attempt near the end of that block keeps the address from being quiet, and the
    // failure after the block blocks it for sixty windows again.
    await clock.forward(60 * 60_000 - 30_000);
    expect((await rpc(server.url, bearer(`quiet-${++n}`), getIssue(n))).status).toBe(429);
    await clock.forward(31_000);
    await block(60);
    // Sixty windows since the last refusal (the sixty-window block over with them): the escalation starts over.
    await clock.forward(60 * 60_000);
    await block(1);
    // Fifty-nine windows (the one-window block long over): it goes on.
    await clock.forward(59 * 60_000);
    await block(10);
  });
});

describe('the address the authentication budgets charge', () => {
  const refused = async (n: number, headers: Record<string, string> = {}) =>
    (await rpc(server!.url, bearer(`charged-${n}`, headers), getIssue(n))).status;

  it('a proxy header from a peer not in --trusted-proxies is not believed: the peer is charged', async () => {
    server = await httpServer(s, ['--trusted-proxy-header=X-Forwarded-For', '--trusted-proxies=10.0.0.1'], {
      FORGE_MCP_AUTH_FAILURE_LIMIT: '2',
    });
    expect(await refused(1, { 'x-forwarded-for': '198.51.100.21' })).toBe(401);
    expect(await refused(2, { 'x-forwarded-for': '198.51.100.22' })).toBe(401);
    expect(await refused(3, { 'x-forwarded-for': '198.51.100.23' })).toBe(429);
    expect(await refused(4)).toBe(429);
  });

  it('an X-Forwarded-For hop that is not an address makes the peer charged', async () => {
    server = await httpServer(s, ['--trusted-proxy-header=X-Forwarded-For', '--trusted-proxies=127.0.0.1'], {
      FORGE_MCP_AUTH_FAILURE_LIMIT: '2',
    });
    expect(await refused(1, { 'x-forwarded-for': '198.51.100.31, unknown' })).toBe(401);
    expect(await refused(2, { 'x-forwarded-for': '198.51.100.32, _hidden, 127.0.0.1' })).toBe(401);
    // The peer (127.0.0.1) has spent its budget; the client addresses named before the bad hops have not.
    expect(await refused(3)).toBe(429);
    expect(await refused(4, { 'x-forwarded-for': '198.51.100.31' })).toBe(401);
  });
});

describe('what the authentication budgets are not charged with', () => {
  const TRUSTED = 'https://app.example.com';
  /** With a budget of one failure: a refused token is answered 401 once, and the next one is blocked. */
  async function budgetStillWhole(url: string) {
    expect((await rpc(url, bearer('refused-a'), getIssue(90))).status).toBe(401);
    expect((await rpc(url, bearer('refused-b'), getIssue(91))).status).toBe(429);
  }

  it('CORS preflights, trusted or not, are not charged', async () => {
    server = await httpServer(s, [`--trusted-origins=${TRUSTED}`], { FORGE_MCP_AUTH_FAILURE_LIMIT: '1' });
    for (const origin of [TRUSTED, 'https://untrusted.example.com', TRUSTED, TRUSTED]) {
      const res = await fetch(server.url, {
        method: 'OPTIONS',
        headers: {
          origin,
          'sec-fetch-site': 'cross-site',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(res.status).toBe(origin === TRUSTED ? 204 : 403);
    }
    await budgetStillWhole(server.url);
  });

  it('below-minimum 403s are not charged', async () => {
    server = await httpServer(s, [], { FORGE_MCP_AUTH_FAILURE_LIMIT: '1' });
    for (const [i, token] of [s.tokens.noScope, s.tokens.mcpOnly, s.tokens.noScope].entries()) {
      const res = await rpc(server.url, bearer(token), getIssue(i));
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-40300);
    }
    await budgetStillWhole(server.url);
  });

  it('a 503 for a session that could not be built is not charged', async () => {
    server = await httpServer(s, [], { FORGE_MCP_AUTH_FAILURE_LIMIT: '1' });
    s.fault({ path: '/api/v4/user', status: 500 });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await rpc(server.url, bearer(s.addToken({ kind: 'personal' })), getIssue(i));
        expect(res.status).toBe(503);
      }
    } finally {
      s.clearFaults();
    }
    await budgetStillWhole(server.url);
  });

  it('a 503 for want of a credential-check slot is not charged', async () => {
    server = await httpServer(s, [], { FORGE_MCP_AUTH_FAILURE_LIMIT: '1' });
    const slow = Array.from({ length: 16 }, () => s.addToken({ kind: 'personal' }));
    const late = s.addToken({ kind: 'personal' });
    // The 16 checks are held at the instance well past the 5 s a new token waits for a turn.
    s.fault({ path: '/api/v4/user', delayMs: 15_000, times: 16 });
    const since = s.requests.length;
    const held = slow.map((t, i) => rpc(server!.url, bearer(t), getIssue(i)));
    while (s.requests.slice(since).filter((q) => q.path === '/api/v4/user').length < 16)
      await new Promise((r) => setTimeout(r, 50));
    const res = await rpc(server.url, bearer(late), getIssue(20));
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /^server is busy: all 16 token verifications are under way/,
    );
    expect((await Promise.all(held)).map((r) => r.status)).toEqual(Array(16).fill(200));
    await budgetStillWhole(server.url);
  }, 60_000);
});
