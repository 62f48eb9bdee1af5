/**
 * A credential's MCP server is kept between its stateless requests (src/http/held.ts, kept.ts), over loopback HTTP
 * against forge-sim: concurrent requests of one credential still run at once and independently (the same
 * JSON-RPC id included), and what a 2025-era request sets on the server that answered it (the logging level
 * of logging/setLevel, the client capabilities of an initialize) never reaches the credential's next request.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  apiCalls,
  executeCall,
  httpServer,
  rpc,
  type ForgeSim,
  type HttpServerProcess,
  until,
} from './harness.js';
import { simAndHttpServer } from './http-fixture.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let s: ForgeSim;
let server: HttpServerProcess;
simAndHttpServer((up) => ({ s, server } = up));

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Every JSON-RPC message of an answer: a JSON body, or the data lines of an event stream. */
async function messages(res: Promise<Response>): Promise<Array<Record<string, unknown>>> {
  const r = await res;
  expect(r.status).toBe(200);
  const raw = await r.text();
  if (raw.startsWith('{')) return [JSON.parse(raw) as Record<string, unknown>];
  return raw
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}

/** Polls until `ok` holds (generous limit: the machine may be loaded). */
const ISSUE = executeCall(7, 'issue.get', { project_id: '1', issue_iid: 1 });
const MR = executeCall(7, 'merge_request.get', { project_id: '1', merge_request_iid: 1 });

describe('kept servers over HTTP', () => {
  it('two concurrent tools/calls of one credential with the same id each get their own answer', async () => {
    const token = s.addToken({ kind: 'personal', scopes: ['api'] });
    // Each call once alone: its answer, and the credential's server kept for the next request.
    const issueAlone = await messages(rpc(server.url, bearer(token), ISSUE));
    const mrAlone = await messages(rpc(server.url, bearer(token), MR));
    expect(JSON.stringify(issueAlone)).not.toEqual(JSON.stringify(mrAlone));

    // Both held at the instance until both have reached it: they are in flight at once.
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    s.fault({ path: '/api/v4/projects/1/issues/1', until: gate, times: 1 });
    s.fault({ path: '/api/v4/projects/1/merge_requests/1', until: gate, times: 1 });
    try {
      const since = s.requests.length;
      const issue = messages(rpc(server.url, bearer(token), ISSUE));
      const mr = messages(rpc(server.url, bearer(token), MR));
      await until(() => apiCalls(s, since).length === 2, 'both calls to reach the instance');
      open();
      expect(await issue).toEqual(issueAlone);
      expect(await mr).toEqual(mrAlone);
    } finally {
      open();
      s.clearFaults();
    }
  });

  it("a logging/setLevel request's level does not reach the credential's next request", async () => {
    const token = s.addToken({ kind: 'personal', scopes: ['api'] });
    expect(await messages(rpc(server.url, bearer(token), ISSUE))).toHaveLength(1);
    const set = await messages(
      rpc(server.url, bearer(token), {
        jsonrpc: '2.0',
        id: 1,
        method: 'logging/setLevel',
        params: { level: 'debug' },
      }),
    );
    expect(set).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    for (let i = 0; i < 3; i++) {
      // The answer alone: no notifications/message log record before it.
      const answer = await messages(rpc(server.url, bearer(token), ISSUE));
      expect(answer.map((m) => m.method ?? 'answer')).toEqual(['answer']);
    }
  });

  it("a call held at the instance gets a keep-alive every 25 s; its client gone, the instance request is abandoned and the credential's next call answered", async () => {
    const token = s.addToken({ kind: 'personal', scopes: ['api'] });
    const answer = await messages(rpc(server.url, bearer(token), MR));
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    s.fault({ path: '/api/v4/projects/1/merge_requests/1', until: gate, times: 1 });
    const client = new AbortController();
    try {
      const since = s.requests.length;
      const sent = Date.now();
      const res = await fetch(server.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...bearer(token),
        },
        body: JSON.stringify(MR),
        signal: client.signal,
      });
      // The event stream opens with the first keep-alive comment, 25 s after the request (none sooner).
      expect(Date.now() - sent).toBeGreaterThanOrEqual(24_900);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      const { value } = await res.body!.getReader().read();
      expect(new TextDecoder().decode(value)).toBe(': keepalive\n\n');
      const held = apiCalls(s, since).find((r) => r.path === '/api/v4/projects/1/merge_requests/1')!;
      expect(held.abandoned).toBeUndefined();
      client.abort();
      await until(() => held.abandoned === true, 'the call to be abandoned at the instance');
      open();
      expect(await messages(rpc(server.url, bearer(token), MR))).toEqual(answer);
    } finally {
      client.abort();
      open();
      s.clearFaults();
    }
  }, 90_000);

  it("an initialize declaring elicitation does not let the credential's next request be asked", async () => {
    // The meta surface asks a client that can elicit before a destructive call (the dynamic one never asks).
    const meta = await httpServer(s, ['--tool-surface=meta']);
    const issue = (id: number, action: string, params: Record<string, unknown>) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'forge_issue', arguments: { action, params } },
    });
    try {
      const token = s.addToken({ kind: 'personal', scopes: ['api'] });
      const call = (body: unknown) =>
        messages(
          fetch(meta.url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              ...bearer(token),
            },
            body: JSON.stringify(body),
            // A request left waiting for an elicitation answer fails here rather than hang the run.
            signal: AbortSignal.timeout(30_000),
          }),
        );
      expect(await call(issue(1, 'get', { project_id: '1', issue_iid: 1 }))).toHaveLength(1);
      const init = await call({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: { elicitation: {} },
          clientInfo: { name: 'kept', version: '1' },
        },
      });
      expect(init[0]).toMatchObject({ id: 1, result: { serverInfo: { name: 'forge-mcp-server' } } });
      for (let i = 0; i < 3; i++) {
        const since = s.requests.length;
        // Fails closed as for any stateless request: no elicitation/create, nothing sent to the instance.
        const answer = await call(issue(2, 'delete', { project_id: '1', issue_iid: 2 }));
        expect(answer.map((m) => m.method ?? 'answer')).toEqual(['answer']);
        const result = answer[0]!.result as { isError?: boolean; content: Array<{ text: string }> };
        expect(result.isError).toBe(true);
        expect(result.content[0]!.text).toMatch(/^Confirm forge_issue\/delete\? /);
        expect(apiCalls(s, since)).toEqual([]);
      }
    } finally {
      await meta.stop();
    }
  });

  it('a request the SDK refuses for its shape is refused as the SDK refuses it, never handed to a held server', async () => {
    const token = s.addToken({ kind: 'personal', scopes: ['api'] });
    // The credential's server is held and waiting for its next request.
    expect(await messages(rpc(server.url, bearer(token), ISSUE))).toHaveLength(1);
    const refused = 'Bad Request: the request body is not a valid JSON-RPC message';
    const cases: Array<[unknown, unknown]> = [
      [{ jsonrpc: '2.0', id: null, method: 'tools/list' }, null],
      [{ jsonrpc: '2.0', id: 1.5, method: 'tools/list' }, 1.5],
      [{ jsonrpc: '2.0', id: true, method: 'ping' }, null],
      [{ jsonrpc: '2.0', id: 3, method: 'tools/list', params: 'x' }, 3],
      [{ jsonrpc: '2.0', id: 3, method: 'tools/list', params: [] }, 3],
      [{ id: 5, method: 'tools/list' }, 5],
      [{ jsonrpc: '2.0', id: 6, method: 'ping', extra: 1 }, 6],
    ];
    for (const [body, id] of cases) {
      const r = await rpc(server.url, bearer(token), body);
      expect([r.status, await r.json()], JSON.stringify(body)).toEqual([
        400,
        { jsonrpc: '2.0', error: { code: -32600, message: refused }, id },
      ]);
    }
    // An id written 1.0 is the integer 1, answered on the held server.
    const one = await fetch(server.url, {
      method: 'POST',
      headers: {
        ...bearer(token),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{"jsonrpc":"2.0","id":1.0,"method":"ping"}',
    });
    expect(await messages(Promise.resolve(one))).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    // A method in another case is no method of the server's.
    expect(
      await messages(rpc(server.url, bearer(token), { jsonrpc: '2.0', id: 4, method: 'Tools/List' })),
    ).toEqual([{ jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'Method not found' } }]);
  });
});
