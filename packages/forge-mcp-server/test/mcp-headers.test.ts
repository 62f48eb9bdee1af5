/**
 * Headers and clients over real loopback HTTP: the execute tool declares Mcp-Param-Action, a 2026-07-28
 * client sends it and a header that disagrees with the body is refused before anything is sent; the
 * claude-code client gets priority annotations rounded to 0 or 1 unless FORGE_MCP_CLIENT_COMPAT=off.
 */
import { describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { apiCalls, rpc, stdioClient, type ForgeSim, type HttpServerProcess } from './harness.js';
import { simAndHttpServer } from './http-fixture.js';

let s: ForgeSim;
let server: HttpServerProcess;
simAndHttpServer((up) => ({ s, server } = up));

const MODERN = '2026-07-28';

function modernCall(action: string, header: string) {
  return rpc(
    server.url,
    {
      authorization: `Bearer ${s.tokens.api}`,
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'forge_execute_action',
      'mcp-param-action': header,
    },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'forge_execute_action',
        arguments: { action, params: { project_id: '1' } },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    },
  );
}

describe('Mcp-Param-Action', () => {
  it('the execute tool declares it, and a 2026-07-28 client sends the action in it', async () => {
    const seen: Array<string | null> = [];
    const recording: typeof fetch = async (input, init) => {
      const h = new Headers(init?.headers);
      if (h.get('mcp-method') === 'tools/call') seen.push(h.get('mcp-param-action'));
      return fetch(input, init);
    };
    const client = new Client(
      { name: 'modern', version: '1' },
      { versionNegotiation: { mode: { pin: MODERN } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        fetch: recording,
        requestInit: { headers: { authorization: `Bearer ${s.tokens.api}` } },
      }),
    );
    const execute = (await client.listTools()).tools.find((t) => t.name === 'forge_execute_action')!;
    expect(
      (execute.inputSchema.properties as Record<string, Record<string, unknown>>).action['x-mcp-header'],
    ).toBe('Action');
    const r = await client.callTool({
      name: 'forge_execute_action',
      arguments: { action: 'issue.list', params: { project_id: '1' } },
    });
    expect(r.isError).toBeFalsy();
    expect(seen).toEqual(['issue.list']);
    await client.close();
  });

  it('a header that disagrees with the body is a -32020 error and nothing reaches the instance', async () => {
    const since = s.requests.length;
    const res = await modernCall('project.delete', 'issue.list');
    const text = await res.text();
    expect(text).toContain('-32020');
    expect(text).toContain('Mcp-Param-Action (\\"issue.list\\") disagrees with the body\'s action');
    expect(apiCalls(s, since)).toHaveLength(0);
    const ok = await modernCall('issue.list', 'issue.list');
    expect(ok.status).toBe(200);
  });
});

describe('FORGE_MCP_CLIENT_COMPAT', () => {
  const priorities = async (name: string, env: Record<string, string> = {}) => {
    const c = await stdioClient(s, { env, clientName: name });
    try {
      const resources = (await c.client.listResources()).resources;
      const templates = (await c.client.listResourceTemplates()).resourceTemplates;
      return [...resources, ...templates].map((r) => (r.annotations as { priority?: number }).priority);
    } finally {
      await c.close();
    }
  };

  it('rounds fractional priorities to 0 or 1 for claude-code only, and not when off', async () => {
    const others = await priorities('forge-tests');
    expect(others.some((p) => p! > 0 && p! < 1)).toBe(true);
    const rounded = await priorities('claude-code');
    expect(rounded).toHaveLength(others.length);
    expect(rounded.every((p) => p === 0 || p === 1)).toBe(true);
    expect(rounded).toEqual(others.map((p) => (p! >= 0.5 ? 1 : 0)));
    expect(await priorities('claude-code', { FORGE_MCP_CLIENT_COMPAT: 'off' })).toEqual(others);
  });
});
