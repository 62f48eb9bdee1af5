/**
 * The HTTP door under input no client should send, fuzzed with fast-check: every body gets an HTTP answer
 * that is a JSON-RPC error or result (never a 5xx, never a hang), the process survives, and a real call
 * still works afterwards.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ForgeSim, type HttpServerProcess } from './harness.js';
import { simAndHttpServer } from './http-fixture.js';

let s: ForgeSim;
let server: HttpServerProcess;
// The rate limit would answer 429 to a fuzzer's pace; its own tests are elsewhere.
simAndHttpServer((up) => ({ s, server } = up), ['--rate-limit-rps=0']);

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

async function post(body: string | Uint8Array, token: string) {
  const res = await fetch(server.url, {
    method: 'POST',
    headers: { ...HEADERS, authorization: `Bearer ${token}` },
    body,
    signal: AbortSignal.timeout(20_000),
  });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') ?? '' };
}

/** The JSON-RPC messages of an answer, whether sent as JSON or as an event stream. */
function messagesOf(answer: { text: string; type: string }): Array<Record<string, unknown>> {
  if (answer.text === '') return [];
  if (answer.type.startsWith('text/event-stream'))
    return answer.text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
  const parsed = JSON.parse(answer.text) as unknown;
  return (Array.isArray(parsed) ? parsed : [parsed]) as Array<Record<string, unknown>>;
}

const method = fc.constantFrom(
  'tools/list',
  'tools/call',
  'ping',
  'initialize',
  'resources/list',
  'no/such/method',
  '',
  'notifications/initialized',
);
const message = fc.record(
  {
    jsonrpc: fc.constantFrom('2.0', '2.0', '1.0', 2),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), fc.constant(1)),
    method,
    params: fc.oneof(
      fc.constant({}),
      fc.record({ name: fc.string({ maxLength: 30 }), arguments: fc.jsonValue({ maxDepth: 3 }) }),
      fc.jsonValue({ maxDepth: 3 }),
    ),
  },
  { requiredKeys: [] },
);
/** Well-formed calls with fuzzed arguments, which reach the surface, the policy and (for reads) the instance. */
const call = fc.record({
  jsonrpc: fc.constant('2.0'),
  id: fc.integer(),
  method: fc.constant('tools/call'),
  params: fc.record({
    name: fc.constantFrom('forge_execute_action', 'forge_find_action', 'no_such_tool'),
    arguments: fc.oneof(
      fc.record(
        {
          action: fc.constantFrom('issue.get', 'issue.list', 'project.get', 'issue.delete', 'no.such', ''),
          params: fc.dictionary(
            fc.constantFrom('project_id', 'issue_iid', 'state', 'per_page', 'page', 'unknown'),
            fc.jsonValue({ maxDepth: 2 }),
          ),
          confirm: fc.boolean(),
          query: fc.string({ maxLength: 40 }),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue({ maxDepth: 2 }),
    ),
  }),
});
const body = fc.oneof(
  call.map((m) => JSON.stringify(m)),
  call.map((m) => JSON.stringify(m)),
  message.map((m) => JSON.stringify(m)),
  fc.array(message, { maxLength: 4 }).map((m) => JSON.stringify(m)),
  message.map((m) => JSON.stringify(m)).chain((t) => fc.nat(t.length).map((n) => t.slice(0, n))),
  fc.jsonValue({ maxDepth: 5 }).map((v) => JSON.stringify(v)),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.nat({ max: 300 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.uint8Array({ maxLength: 300 }),
);

describe('HTTP door fuzz', () => {
  it('answers every body with a JSON-RPC error or result and keeps serving', async () => {
    const bodies = fc.sample(body, { numRuns: 400, seed: 20261125 });
    const statuses = new Map<number, number>();
    for (const b of bodies) {
      const answer = await post(b, s.tokens.api);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      expect(answer.status, `body ${JSON.stringify(typeof b === 'string' ? b : [...b])}`).toBeLessThan(500);
      for (const m of messagesOf(answer)) {
        expect(m.jsonrpc).toBe('2.0');
        expect('result' in m || 'error' in m || 'method' in m).toBe(true);
      }
      if (answer.status >= 400 && answer.text !== '') {
        const [m] = messagesOf(answer);
        expect(m).toHaveProperty('error.code');
        expect(typeof (m!.error as { message: unknown }).message).toBe('string');
      }
    }
    console.log(
      `HTTP fuzz: ${bodies.length} bodies; statuses ${[...statuses].map(([k, v]) => `${k}×${v}`).join(', ')}`,
    );
    // Still serving, and nothing of the token in what it logged.
    const list = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 'last', method: 'tools/list' }),
      s.tokens.api,
    );
    expect(list.status).toBe(200);
    expect(messagesOf(list)[0]).toHaveProperty('result.tools');
    expect(server.stderr()).not.toContain(s.tokens.api);
  });
});
