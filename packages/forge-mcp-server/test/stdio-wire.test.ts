/**
 * The stdio wire as JSON-RPC asks: what cannot be read is answered (-32700 not JSON, -32600 not a message,
 * with a null id), the connection survives anything, and a number JSON cannot hold never reaches the instance.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiCalls, sim, stdioRaw, textOf, type ForgeSim, INITIALIZE, INITIALIZED } from './harness.js';

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => {
  await s.close();
});

function errorOf(m: Record<string, unknown>) {
  return m.error as { code: number; message: string } | undefined;
}

describe('stdio wire', () => {
  it('answers a line that is not JSON -32700 and JSON that is not a message -32600, with a null id', async () => {
    const c = stdioRaw(s);
    try {
      c.write('this is not json\n{\n[]\n[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n42\n');
      c.write('{"jsonrpc":"2.0","id":7}\n{"jsonrpc":"1.0","id":8,"method":"ping"}\n');
      c.write(
        '{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}\n{"jsonrpc":"2.0","id":9,"method":"ping","params":[1]}\n',
      );
      c.write(`${'['.repeat(101)}${']'.repeat(101)}\n`);
      c.write('\n   \n');
      const got = await c.waitFor(10);
      expect(got.map((m) => [m.id, errorOf(m)?.code])).toEqual([
        [null, -32700],
        [null, -32700],
        [null, -32600],
        [null, -32600],
        [null, -32600],
        [7, -32600],
        [8, -32600],
        [null, -32600],
        [9, -32600],
        [null, -32600],
      ]);
      expect(errorOf(got[9]!)?.message).toBe('Invalid Request: the message nests deeper than 100 levels');
      expect(errorOf(got[0]!)?.message).toBe(
        'Parse error: the line is not JSON; send one JSON-RPC object per line',
      );
      expect(errorOf(got[2]!)?.message).toBe(
        'Invalid Request: an empty batch is not a request: send one JSON-RPC object per line',
      );
      expect(errorOf(got[3]!)?.message).toMatch(/batches are not supported/);
      expect(got.every((m) => m.jsonrpc === '2.0')).toBe(true);

      // The connection is intact: the handshake and a request after all that are served.
      c.write(`${INITIALIZE}\n${INITIALIZED}\n{"jsonrpc":"2.0","id":"p","method":"ping"}\n`);
      const after = await c.waitFor(12);
      expect(after[10]!.id).toBe('init');
      expect(after[10]!.result).toBeDefined();
      expect(after[11]).toMatchObject({ id: 'p', result: {} });
      expect(c.alive()).toBe(true);
    } finally {
      await c.close();
    }
  });

  it('answers tools/list on the individual surface with the same tools every time, sent pre-serialized or not', async () => {
    const c = stdioRaw(s, { FORGE_MCP_TOOL_SURFACE: 'individual' });
    try {
      c.write(`${INITIALIZE}\n${INITIALIZED}\n`);
      // The last id spells the text that stands in for the pre-serialized tools, so that answer is
      // serialized as a whole, as the SDK does for every other message.
      const ids = [1, 'again', '\u0000forge-mcp-server:preserialized\u0000'];
      for (const id of ids) c.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' })}\n`);
      const got = await c.waitFor(1 + ids.length, 60_000);
      const answers = got.slice(1);
      expect(answers.map((m) => m.id)).toEqual(ids);
      const [first, ...rest] = answers.map((m) => m.result as { tools: Array<{ name: string }> });
      expect(first!.tools.length).toBeGreaterThan(900);
      expect(new Set(first!.tools.map((t) => t.name)).size).toBe(first!.tools.length);
      for (const r of rest) expect(r).toEqual(first);
    } finally {
      await c.close();
    }
  });

  it('answers a client that stops reading for a while with every answer, whole, once it reads on', async () => {
    const c = stdioRaw(s);
    try {
      c.write(`${INITIALIZE}\n${INITIALIZED}\n`);
      await c.waitFor(1);
      // Far more than a pipe holds (64 KiB on Linux): the server waits for the pipe to drain, then writes on.
      c.pause();
      const since = s.requests.length;
      const calls = 80;
      for (let id = 1; id <= calls; id++)
        c.write(
          `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'forge_execute_action', arguments: { action: 'issue.list', params: { project_id: '1', per_page: 100 } } } })}\n`,
        );
      c.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'tools', method: 'tools/list' })}\n`);
      // Every call has reached the instance, so their answers are written or waiting for the pipe.
      await vi.waitFor(
        () =>
          expect(s.requests.slice(since).filter((r) => r.path === '/api/v4/projects/1/issues').length).toBe(
            calls,
          ),
        { timeout: 60_000, interval: 20 },
      );
      c.resume();
      const got = (await c.waitFor(2 + calls, 60_000)).slice(1);
      // Calls run side by side, so answers come in the order they finish: each one once.
      const ids = got.map((m) => m.id);
      expect(new Set(ids)).toEqual(new Set([...Array.from({ length: calls }, (_, i) => i + 1), 'tools']));
      expect(ids).toHaveLength(calls + 1);
      const texts = got.filter((m) => m.id !== 'tools').map((m) => textOf(m.result as never));
      expect(texts.join('').length).toBeGreaterThan(256 * 1024);
      for (const t of texts) expect(t).toBe(texts[0]);
      expect((got.find((m) => m.id === 'tools')!.result as { tools: unknown[] }).tools).toHaveLength(2);
      expect(c.alive()).toBe(true);
    } finally {
      await c.close();
    }
  }, 120_000);

  it('skips a line over FORGE_MCP_STDIO_MAX_LINE_BYTES with -32600 naming the setting, and keeps serving', async () => {
    const c = stdioRaw(s, { FORGE_MCP_STDIO_MAX_LINE_BYTES: '1000' });
    try {
      const long = JSON.stringify({
        jsonrpc: '2.0',
        id: 'long',
        method: 'ping',
        params: { pad: 'x'.repeat(3000) },
      });
      // Written in pieces, as a pipe delivers a long line.
      c.write(long.slice(0, 700));
      c.write(long.slice(700, 2000));
      c.write(`${long.slice(2000)}\n`);
      c.write('{"jsonrpc":"2.0","id":"short","method":"ping"}\n');
      const got = await c.waitFor(2);
      expect(got[0]).toMatchObject({ id: null, error: { code: -32600 } });
      expect(errorOf(got[0]!)?.message).toBe(
        'Invalid Request: the line is over 1000 bytes (FORGE_MCP_STDIO_MAX_LINE_BYTES) and was skipped',
      );
      expect(got[1]).toMatchObject({ id: 'short', result: {} });
    } finally {
      await c.close();
    }
  });

  it('serves a line of exactly FORGE_MCP_STDIO_MAX_LINE_BYTES, and skips one byte more', async () => {
    const c = stdioRaw(s, { FORGE_MCP_STDIO_MAX_LINE_BYTES: '1000' });
    try {
      const sized = (id: string, bytes: number) => {
        const bare = JSON.stringify({ jsonrpc: '2.0', id, method: 'ping', params: { pad: '' } });
        return JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'ping',
          params: { pad: 'x'.repeat(bytes - bare.length) },
        });
      };
      expect(Buffer.byteLength(sized('at', 1000))).toBe(1000);
      c.write(`${sized('at', 1000)}\n`);
      c.write(`${sized('over', 1001)}\n`);
      // The refusal may be written before the served line's answer: matched by id, not by order.
      const got = await c.waitFor(2);
      expect(got).toContainEqual(expect.objectContaining({ id: 'at', result: {} }));
      expect(got).toContainEqual(
        expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
      );
    } finally {
      await c.close();
    }
  });

  it('answers every fuzzed line in order and never dies (fast-check)', async () => {
    // Lines without a line break: arbitrary text, arbitrary JSON values and near-messages.
    const line = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      fc
        .record({
          jsonrpc: fc.constantFrom('2.0', '1.0', 2, null),
          id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.object()),
          params: fc.oneof(fc.array(fc.integer()), fc.constant(null), fc.string()),
        })
        .map((v) => JSON.stringify(v)),
      fc.constantFrom('{', '[', '"', 'nul', '{"jsonrpc":"2.0"', '\u0000', '\uFEFF{}', '1e309', '{"a":1e309}'),
    );
    const lines = fc
      .sample(line, { numRuns: 400, seed: 20261125 })
      .map((l) => l.replace(/[\r\n\u2028\u2029]/g, ' '))
      .filter((l) => l.trim() !== '');
    const expected = lines.map((l) => {
      try {
        JSON.parse(l);
      } catch {
        return -32700;
      }
      return -32600;
    });
    console.log(
      `stdio fuzz: ${lines.length} lines (${expected.filter((c) => c === -32700).length} not JSON)`,
    );
    const c = stdioRaw(s);
    try {
      for (const l of lines) c.write(`${l}\n`);
      c.write('{"jsonrpc":"2.0","id":"last","method":"ping"}\n');
      const got = await c.waitFor(lines.length + 1, 110_000);
      expect(got.slice(0, lines.length).map((m) => errorOf(m)?.code)).toEqual(expected);
      expect(got[lines.length]).toMatchObject({ id: 'last', result: {} });
      expect(c.alive()).toBe(true);
    } finally {
      await c.close();
    }
  }, 120_000);
});

describe('numbers JSON cannot hold', () => {
  const call = (id: number, name: string, args: string) =>
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}\n`;

  it.each([
    [
      'dynamic',
      'forge_execute_action',
      '{"action":"issue.get","params":{"project_id":"1","issue_iid":1e309}}',
    ],
    [
      'dynamic, as a string',
      'forge_execute_action',
      '{"action":"issue.get","params":{"project_id":"1","issue_iid":"1e309"}}',
    ],
    ['meta', 'forge_issue', '{"action":"get","params":{"project_id":"1","issue_iid":1e400}}'],
    ['individual', 'forge_issue_get', '{"project_id":"1","issue_iid":1e309}'],
  ])('are refused before anything is sent (%s)', async (surface, tool, args) => {
    const c = stdioRaw(s, { FORGE_MCP_TOOL_SURFACE: surface.split(',')[0]! });
    try {
      c.write(`${INITIALIZE}\n${INITIALIZED}\n`);
      await c.waitFor(1);
      const before = s.requests.length;
      c.write(call(2, tool, args));
      const [, answer] = await c.waitFor(2);
      const result = answer!.result as { isError?: boolean };
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /issue_iid must be a finite number \(a value such as 1e309 is out of range\)/,
      );
      expect(apiCalls(s, before)).toEqual([]);
    } finally {
      await c.close();
    }
  });
});

describe('rate limit on stdio', () => {
  const call = (id: number) =>
    `${JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'forge_execute_action',
        arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
      },
    })}\n`;

  it('applies FORGE_MCP_RATE_LIMIT_RPS when configured: the call over the burst is answered -42900, nothing sent', async () => {
    const c = stdioRaw(s, { FORGE_MCP_RATE_LIMIT_RPS: '1', FORGE_MCP_RATE_LIMIT_BURST: '2' });
    try {
      c.write(`${INITIALIZE}\n${INITIALIZED}\n`);
      await c.waitFor(1);
      const before = s.requests.length;
      c.write(call(2) + call(3) + call(4));
      const got = await c.waitFor(4);
      const third = got.find((m) => m.id === 4)!;
      expect(third.error).toMatchObject({
        code: -42900,
        data: { reason: 'rate_limited', retryAfterSeconds: 1 },
      });
      expect(errorOf(third)!.message).toBe(
        'rate limited: this credential is over its request rate; retry after 1 s',
      );
      expect(apiCalls(s, before).filter((q) => q.path.endsWith('/issues/1'))).toHaveLength(2);
    } finally {
      await c.close();
    }
  });

  it('logs its refusals at most one line per ten seconds', async () => {
    // One token per 1,000 s: the first call empties the bucket and nothing refills during the test.
    const c = stdioRaw(s, { FORGE_MCP_RATE_LIMIT_RPS: '0.001', FORGE_MCP_RATE_LIMIT_BURST: '1' });
    try {
      c.write(`${INITIALIZE}\n${INITIALIZED}\n`);
      await c.waitFor(1);
      const started = Date.now();
      c.write([2, 3, 4, 5, 6].map(call).join(''));
      const got = await c.waitFor(6);
      const elapsedS = (Date.now() - started) / 1000;
      expect(got.filter((m) => (m.error as { code?: number } | undefined)?.code === -42900)).toHaveLength(4);
      const lines = c.stderr().match(/"msg":"rate limited"/g) ?? [];
      // Four refusals within ten seconds make one line; a machine slow enough to spread them wider may make more.
      expect(lines.length).toBeGreaterThanOrEqual(1);
      expect(lines.length).toBeLessThanOrEqual(1 + Math.floor(elapsedS / 10));
    } finally {
      await c.close();
    }
  });

  it('is off by default on stdio', async () => {
    const c = stdioRaw(s);
    try {
      c.write(`${INITIALIZE}\n${INITIALIZED}\n`);
      await c.waitFor(1);
      c.write([2, 3, 4, 5, 6].map(call).join(''));
      const got = await c.waitFor(6);
      expect(got.slice(1).every((m) => m.result !== undefined)).toBe(true);
    } finally {
      await c.close();
    }
  });
});
