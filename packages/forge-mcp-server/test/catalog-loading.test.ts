/**
 * The catalog's domain files load on first use: a stdio start and its tools/list on the dynamic and meta
 * surfaces read the generated index alone, and the bundle holding the domain files is read when a call first
 * needs an action's full spec. The lists and answers themselves are the snapshot and protocol tests' subject.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sim, withStdio, type ForgeSim } from './harness.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const RECORD_LOADS = `--require ${join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'record-loads.cjs')}`;
const env = (surface: string) => ({
  NODE_OPTIONS: RECORD_LOADS,
  FORGE_TEST_RECORD_LOADS: 'catalog\\.bundle',
  FORGE_MCP_TOOL_SURFACE: surface,
});
const LOADED = 'LOADED ./forge-mcp-catalog.bundle.cjs';

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => s.close());

describe('the catalog on a stdio start', () => {
  for (const surface of ['dynamic', 'meta']) {
    it(`${surface}: tools/list reads no domain file; the first call reads them, once`, async () => {
      const listed = await withStdio(
        s,
        { env: env(surface) },
        async (c) => (await c.client.listTools()).tools,
      );
      expect(listed.value.length).toBeGreaterThan(1);
      expect(listed.stderr).not.toContain('LOADED');

      const called = await withStdio(s, { env: env(surface) }, async (c) => {
        await c.client.listTools();
        const args = { action: 'issue.list', params: { project_id: '1' } };
        const first = await c.client.callTool(
          surface === 'dynamic'
            ? { name: 'forge_execute_action', arguments: args }
            : { name: 'forge_issue', arguments: { action: 'list', params: args.params } },
        );
        const second = await c.client.callTool(
          surface === 'dynamic'
            ? {
                name: 'forge_execute_action',
                arguments: { action: 'merge_request.list', params: args.params },
              }
            : { name: 'forge_merge_request', arguments: { action: 'list', params: args.params } },
        );
        return [first, second];
      });
      expect(called.value.map((r) => r.isError ?? false)).toEqual([false, false]);
      expect(called.stderr.split(LOADED).length - 1).toBe(1);
    });
  }

  it('individual: tools/list carries every schema, so it reads the domain files', async () => {
    const listed = await withStdio(
      s,
      { env: env('individual') },
      async (c) => (await c.client.listTools()).tools,
    );
    expect(listed.value.length).toBeGreaterThan(900);
    expect(listed.stderr).toContain(LOADED);
  });
});
