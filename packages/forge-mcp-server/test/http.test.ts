/**
 * HTTP mode through real loopback HTTP: the v2 client in the 2026-07-28 era and in the legacy era, the
 * v1 SDK client, the per-request credential, and the required Mcp-Method / Mcp-Name headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { apiCalls, httpServer, sim, textOf, type ForgeSim, type HttpServerProcess, rpc } from './harness.js';

let s: ForgeSim;
let server: HttpServerProcess;
beforeAll(async () => {
  s = await sim();
  server = await httpServer(s);
});
afterAll(async () => {
  await server.stop();
  await s.close();
});

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

  it('answers 401 naming the presented header when the instance refuses the token', async () => {
    const res = await rpc(
      server.url,
      {
        'private-token': s.tokens.revoked,
      },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    );
    expect(res.status).toBe(401);
    expect(JSON.stringify(await res.json())).toContain('PRIVATE-TOKEN header');
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
    expect(JSON.stringify(await res.json())).toContain('-40300');
  });

  it('answers /health', async () => {
    const res = await fetch(new URL('/health', server.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
