/**
 * FORGE_MCP_PPROF_ADDR: Node's own diagnostics under /debug/pprof/ on a loopback listener of their own,
 * on stdio and beside the HTTP listener (never on it), answering only requests that name the listener.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, httpServer, runCli, sim, stdioClient, until, type ForgeSim } from './harness.js';

// Servers are spawned and exports awaited on a shared, loaded machine: generous limits, no timing asserted.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => {
  await s.close();
});

/** A loopback port free right now (the setting takes no port 0). */
function get(
  port: number,
  path: string,
  host = `127.0.0.1:${port}`,
): Promise<{ status: number; body: string; type?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, type: res.headers['content-type'] }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('stdio', () => {
  it('serves a heap snapshot and a CPU profile under /debug/pprof/ on the loopback address it names', async () => {
    const port = await freePort();
    const c = await stdioClient(s, { env: { FORGE_MCP_PPROF_ADDR: `127.0.0.1:${port}` } });
    try {
      expect(c.stderr()).toContain(`"diagnostics":"http://127.0.0.1:${port}/debug/pprof/"`);
      const index = await get(port, '/debug/pprof/');
      expect(index.status).toBe(200);
      expect(index.body).toContain('/debug/pprof/heap');
      const heap = await get(port, '/debug/pprof/heap');
      expect(heap.status).toBe(200);
      const snapshot = JSON.parse(heap.body) as { snapshot: { meta: unknown }; nodes: number[] };
      expect(snapshot.snapshot.meta).toBeDefined();
      expect(snapshot.nodes.length).toBeGreaterThan(0);
      const profile = await get(port, '/debug/pprof/profile?seconds=1');
      expect(profile.status).toBe(200);
      const taken = JSON.parse(profile.body) as { nodes: unknown[]; startTime: number; endTime: number };
      expect(taken.nodes.length).toBeGreaterThan(0);
      expect(taken.endTime).toBeGreaterThan(taken.startTime);
      // The server kept serving throughout.
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.list', params: { project_id: '1' } },
      });
      expect(r.isError).toBeFalsy();
    } finally {
      await c.close();
    }
  });

  it('refuses a request naming another Host (no DNS rebinding onto the snapshot), bad durations and other paths', async () => {
    const port = await freePort();
    const c = await stdioClient(s, { env: { FORGE_MCP_PPROF_ADDR: `localhost:${port}` } });
    try {
      const rebound = await get(port, '/debug/pprof/heap', `attacker.example:${port}`);
      expect(rebound.status).toBe(403);
      expect(rebound.body).not.toContain('snapshot');
      // The refusal leaves its WARN line on stderr, naming the Host, the client and the path.
      const refusals = () =>
        c
          .stderr()
          .split('\n')
          .filter((l) => l.includes('request refused: this Host is not served here'))
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      await until(() => refusals().length > 0, 'the refused Host line');
      expect(refusals()).toEqual([
        expect.objectContaining({
          level: 'warn',
          host: `attacker.example:${port}`,
          address: '127.0.0.1',
          path: '/debug/pprof/heap',
          suppressed: 0,
        }),
      ]);
      expect((await get(port, '/debug/pprof/profile?seconds=0')).status).toBe(400);
      expect((await get(port, '/debug/pprof/profile?seconds=301')).body).toContain('1 to 300');
      expect((await get(port, '/debug/pprof/goroutine')).status).toBe(404);
    } finally {
      await c.close();
    }
  });

  it('a non-loopback address refuses the start, naming the setting', async () => {
    const r = await runCli([], {
      FORGE_URL: s.url,
      FORGE_TOKEN: s.tokens.api,
      FORGE_MCP_PPROF_ADDR: '0.0.0.0:6060',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('FORGE_MCP_PPROF_ADDR');
  });

  it('an address already taken refuses the start with what to do', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const r = await runCli([], {
        FORGE_URL: s.url,
        FORGE_TOKEN: s.tokens.api,
        FORGE_MCP_PPROF_ADDR: `127.0.0.1:${port}`,
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`FORGE_MCP_PPROF_ADDR=127.0.0.1:${port}: cannot listen there (EADDRINUSE)`);
    } finally {
      taken.close();
    }
  });
});

describe('HTTP mode', () => {
  it('serves diagnostics on their own listener, never on the MCP listener', async () => {
    const port = await freePort();
    const server = await httpServer(s, [`--pprof-addr=127.0.0.1:${port}`]);
    try {
      const mcp = new URL(server.url);
      expect(Number(mcp.port)).not.toBe(port);
      expect((await get(port, '/debug/pprof/')).status).toBe(200);
      const onMcp = await fetch(new URL('/debug/pprof/heap', server.url));
      expect(onMcp.status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
