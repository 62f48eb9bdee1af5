/**
 * ML model package files (model_registry.download): the instance serves them to a personal access token
 * or job token sent as a Bearer token only, and refuses OAuth access tokens with 401. forge-sim refuses a
 * token sent there as PRIVATE-TOKEN, and its request log shows the header each call carried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { httpServer, sim, stdioClient, textOf, type ForgeSim, type HttpServerProcess } from './harness.js';

const FILES = /^\/api\/v4\/projects\/1\/packages\/ml_models\/1\/files\//;
const DOWNLOAD = {
  action: 'model_registry.download',
  params: { project_id: '1', model_version_id: '1', file_name: 'model.pkl' },
};

let s: ForgeSim;
let legacy: HttpServerProcess;
let oauth: HttpServerProcess;
beforeAll(async () => {
  s = await sim();
  [legacy, oauth] = await Promise.all([
    httpServer(s),
    httpServer(s, ['--auth-mode=oauth', '--public-url=http://localhost:8127/mcp']),
  ]);
});
afterAll(async () => {
  await Promise.all([legacy.stop(), oauth.stop()]);
  await s.close();
});

/** The requests for model files sent since `since`. */
const fileCalls = (since: number) => s.requests.slice(since).filter((q) => FILES.test(q.path));

async function callOverHttp(url: string, headers: Record<string, string>) {
  const client = new Client({ name: 'ml-files', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  try {
    return await client.callTool({ name: 'forge_execute_action', arguments: DOWNLOAD });
  } finally {
    await client.close();
  }
}

describe('ML model package files', () => {
  it('stdio sends the personal access token as a Bearer token there, and the file arrives', async () => {
    const c = await stdioClient(s);
    try {
      const since = s.requests.length;
      const r = await c.client.callTool({ name: 'forge_execute_action', arguments: DOWNLOAD });
      expect(r.isError, textOf(r)).toBeFalsy();
      const [call] = fileCalls(since);
      expect(call.status).toBe(200);
      expect(call.headers.authorization).toBe(`Bearer ${s.tokens.api}`);
      expect(call.headers['private-token']).toBeUndefined();
      // Other routes keep PRIVATE-TOKEN.
      await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.list', params: { project_id: '1' } },
      });
      const other = s.requests.at(-1)!;
      expect(other.headers['private-token']).toBe(s.tokens.api);
    } finally {
      await c.close();
    }
  });

  it('over HTTP a token presented as PRIVATE-TOKEN still reaches the files as a Bearer token', async () => {
    const since = s.requests.length;
    const r = await callOverHttp(legacy.url, { 'private-token': s.tokens.api });
    expect(r.isError, textOf(r)).toBeFalsy();
    const [call] = fileCalls(since);
    expect(call.headers.authorization).toBe(`Bearer ${s.tokens.api}`);
    expect(call.headers['private-token']).toBeUndefined();
  });

  it('an OAuth access token gets the instance 401, reported as unauthorized', async () => {
    const since = s.requests.length;
    const r = await callOverHttp(oauth.url, { authorization: `Bearer ${s.tokens.oauth}` });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^model_registry\.download: unauthorized: /);
    const [call] = fileCalls(since);
    expect(call.status).toBe(401);
    expect(call.headers.authorization).toBe(`Bearer ${s.tokens.oauth}`);
  });
});
