/**
 * HTTP mode through real loopback HTTP: the v2 client in the 2026-07-28 era and in the legacy era, the
 * v1 SDK client, the per-request credential, and the required Mcp-Method / Mcp-Name headers.
 */
import { describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { apiCalls, textOf, type ForgeSim, type HttpServerProcess, rpc } from './harness.js';
import { simAndHttpServer } from './http-fixture.js';

let s: ForgeSim;
let server: HttpServerProcess;
simAndHttpServer((up) => ({ s, server } = up));

const withToken = (token: string, header: 'authorization' | 'private-token' = 'authorization') => ({
  requestInit: {
    headers: header === 'authorization' ? { authorization: `Bearer ${token}` } : { 'private-token': token },
  },
});

describe('HTTP, 2026-07-28 era (v2 client)', () => {
  it('discovers the server and runs find then execute with the token of the request', async () => {
    const client = new Client(
      { name: 'modern', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), withToken(s.tokens.api)));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['forge_find_action', 'forge_execute_action']);
    const since = s.requests.length;
    const r = await client.callTool({
      name: 'forge_execute_action',
      arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
    });
    expect((r.structuredContent as { iid: number }).iid).toBe(1);
    const sent = apiCalls(s, since);
    expect(sent.every((q) => q.token === s.tokens.api)).toBe(true);
    await client.close();
  });

  it('answers 400 (-32020) when Mcp-Method is missing, and sends nothing to the instance', async () => {
    const since = s.requests.length;
    const res = await rpc(
      server.url,
      {
        authorization: `Bearer ${s.tokens.api}`,
        'mcp-protocol-version': '2026-07-28',
      },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'forge_execute_action',
          arguments: { action: 'issue.list', params: { project_id: '1' } },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
    );
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('-32020');
    expect(apiCalls(s, since).filter((q) => q.path.endsWith('/issues'))).toHaveLength(0);
  });
  it('answers 400 (-32020) when Mcp-Name is missing from a tools/call, and sends nothing to the instance', async () => {
    const since = s.requests.length;
    const res = await rpc(
      server.url,
      {
        authorization: `Bearer ${s.tokens.api}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
      },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'forge_execute_action',
          arguments: { action: 'issue.list', params: { project_id: '1' } },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32020);
    expect(body.error.message).toMatch(/Mcp-Name/i);
    expect(apiCalls(s, since).filter((q) => q.path.endsWith('/issues'))).toHaveLength(0);
  });
});

describe('HTTP, legacy era', () => {
  it('serves the v2 client without negotiation, with PRIVATE-TOKEN', async () => {
    const client = new Client({ name: 'legacy', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), withToken(s.tokens.api, 'private-token')),
    );
    const r = await client.callTool({ name: 'forge_find_action', arguments: { query: 'retry failed job' } });
    expect(textOf(r)).toMatch(/^1\. job\.retry/);
    await client.close();
  });

  it('narrows a read_api token to reads: find omits writes', async () => {
    const client = new Client({ name: 'legacy', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), withToken(s.tokens.readApi, 'private-token')),
    );
    const r = await client.callTool({
      name: 'forge_find_action',
      arguments: { query: 'retry failed job', limit: 20 },
    });
    const ids = (r.structuredContent as { matches: Array<{ id: string; write: boolean }> }).matches;
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.filter((m) => m.write && m.id !== 'pipeline.trigger_run')).toEqual([]);
    await client.close();
  });

  it('serves the v1 SDK client', async () => {
    const client = new V1Client({ name: 'v1', version: '1' });
    await client.connect(new V1Transport(new URL(server.url), withToken(s.tokens.api)));
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(2);
    const r = await client.callTool({
      name: 'forge_execute_action',
      arguments: { action: 'merge_request.list', params: { project_id: '1' } },
    });
    expect(r.isError).toBeFalsy();
    await client.close();
  });

  it('refuses a request without a credential with 401, a Bearer challenge and both header names', async () => {
    const res = await rpc(server.url, {}, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const body = JSON.stringify(await res.json());
    expect(body).toContain('-40100');
    expect(body).toContain('Authorization');
    expect(body).toContain('PRIVATE-TOKEN');
  });

  it('answers 401 naming the presented header, and both accepted headers, when the instance refuses the token', async () => {
    for (const [headers, named] of [
      [{ 'private-token': s.tokens.revoked }, 'its PRIVATE-TOKEN header'],
      [{ authorization: `Bearer ${s.tokens.expired}` }, 'its Authorization header'],
    ] as const) {
      const res = await rpc(server.url, headers, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(res.status).toBe(401);
      const body = (await res.json()) as {
        accepted_headers: string[];
        error: { code: number; message: string };
      };
      expect(body.error.message).toContain(named);
      expect(body.accepted_headers).toEqual(['Authorization', 'PRIVATE-TOKEN']);
    }
  });

  it('uses the PRIVATE-TOKEN value when both PRIVATE-TOKEN and Authorization are sent', async () => {
    const since = s.requests.length;
    const served = await rpc(
      server.url,
      { 'private-token': s.tokens.api, authorization: `Bearer ${s.tokens.revoked}` },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'forge_execute_action',
          arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
        },
      },
    );
    expect(served.status).toBe(200);
    await served.text();
    const sent = s.requests.slice(since);
    expect(sent.some((q) => q.path === '/api/v4/projects/1/issues/1')).toBe(true);
    expect(sent.every((q) => q.token === s.tokens.api)).toBe(true);
    const refused = await rpc(
      server.url,
      { 'private-token': s.tokens.revoked, authorization: `Bearer ${s.tokens.api}` },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    );
    expect(refused.status).toBe(401);
    expect(JSON.stringify(await refused.json())).toContain('its PRIVATE-TOKEN header');
  });

  it('reports a tool call it cannot attribute to a credential with nothing sent to the instance, and no cause or hint', async () => {
    const since = s.requests.length;
    const res = await rpc(
      server.url,
      {},
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'forge_execute_action',
          arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
        },
      },
    );
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-40100);
    // No refused request to name (no cause) and nothing the caller could fix but the credential (no hint).
    expect(body.error.message).not.toMatch(/Suggestion:|\b(GET|POST|PUT|DELETE) https?:\/\/|\/api\/v4\//);
    expect(s.requests.length).toBe(since);
  });

  it('answers GET and DELETE without a credential with the same 401 as POST', async () => {
    const answers = [];
    for (const method of ['POST', 'GET', 'DELETE']) {
      const res = await fetch(server.url, {
        method,
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
        ...(method === 'POST'
          ? { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) }
          : {}),
      });
      answers.push({
        status: res.status,
        challenge: res.headers.get('www-authenticate'),
        body: await res.json(),
      });
    }
    expect(answers[0]!.status).toBe(401);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('a tool call the instance answers 401 names the header the request presented the token in', async () => {
    for (const [headers, named] of [
      [{ 'private-token': s.tokens.api }, 'its PRIVATE-TOKEN header'],
      [{ authorization: `Bearer ${s.tokens.api}` }, 'its Authorization header'],
    ] as const) {
      s.fault({ path: /\/issues$/, status: 401, body: { message: '401 Unauthorized' }, times: 1 });
      const client = new Client({ name: 'legacy', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }),
      );
      const r = await client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.list', params: { project_id: '1' } },
      });
      await client.close();
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^issue\.list: unauthorized: /);
      expect(textOf(r)).toContain(`the token this request presented (${named})`);
      expect(textOf(r)).not.toContain('FORGE_TOKEN');
    }
  });

  it('answers 503 with the classification code -32603 when the session cannot be built', async () => {
    s.fault({ path: '/api/v4/user', status: 500 });
    const fresh = s.addToken({ kind: 'personal', scopes: ['api'] });
    const res = await rpc(
      server.url,
      { 'private-token': fresh },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    );
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32603);
    s.clearFaults();
    expect(body.error.message).toMatch(/^identity check: internal server error/);
  });

  it('refuses a fine-grained token without User: Read 403 naming the permission, and answers it from memory', async () => {
    const token = s.addToken({
      granularScopes: [{ access: 'user', permissions: ['read_personal_access_token'] }],
    });
    const headers = { authorization: `Bearer ${token}` };
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const first = await rpc(server.url, headers, list);
    expect(first.status).toBe(403);
    expect(first.headers.get('www-authenticate')).toBeNull();
    const body = (await first.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-40300);
    expect(body.error.message).toBe(
      'the token this request presented (its Authorization header) is a fine-grained token without the User: Read permission, which the identity check needs: create a fine-grained token granting User: Read, or use a token with api or read_api',
    );
    await new Promise((r) => setTimeout(r, 200));
    const since = s.requests.length;
    const again = await rpc(server.url, headers, list);
    expect(again.status).toBe(403);
    expect(((await again.json()) as { error: { message: string } }).error.message).toMatch(
      /without the User: Read permission/,
    );
    expect(s.requests.slice(since)).toEqual([]);
  });

  it('refuses a token carrying neither api nor read_api with -40300', async () => {
    const res = await rpc(
      server.url,
      {
        authorization: `Bearer ${s.tokens.mcpOnly}`,
      },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    );
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(JSON.stringify(await res.json())).toContain('-40300');
  });

  it('answers /health', async () => {
    const res = await fetch(new URL('/health', server.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
