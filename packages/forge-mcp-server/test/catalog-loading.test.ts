/**
 * The catalog's domain files load on first use: a stdio start and its tools/list on the dynamic and meta
 * surfaces read the generated index alone, and a call reads the file of its action's domain, once. The lists
 * and answers themselves are the snapshot and protocol tests' subject.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sim, withStdio, type ForgeSim } from './harness.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const RECORD_LOADS = `--require ${join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'record-loads.cjs')}`;
const env = (surface: string) => ({
  NODE_OPTIONS: RECORD_LOADS,
  FORGE_TEST_RECORD_LOADS: '^\\./(domains/|find-corpus|forge-mcp-find)',
  FORGE_MCP_TOOL_SURFACE: surface,
});
/** The domain files the server read, in order. */
const loaded = (stderr: string) =>
  [...stderr.matchAll(/^LOADED \.\/domains\/(\w+)\.cjs$/gm)].map((m) => m[1]);

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => s.close());

describe('the catalog on a stdio start', () => {
  for (const surface of ['dynamic', 'meta']) {
    it(`${surface}: tools/list reads no domain file; a call reads its domain's, once`, async () => {
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
        const again = await c.client.callTool(
          surface === 'dynamic'
            ? { name: 'forge_execute_action', arguments: args }
            : { name: 'forge_issue', arguments: { action: 'list', params: args.params } },
        );
        return [first, second, again];
      });
      expect(called.value.map((r) => r.isError ?? false)).toEqual([false, false, false]);
      expect(loaded(called.stderr)).toEqual(['issue', 'merge_request']);
    });
  }

  it('dynamic: a search reads the search corpus and the domain files of the actions it answers with', async () => {
    const found = await withStdio(s, { env: env('dynamic') }, async (c) => {
      const r = await c.client.callTool({
        name: 'forge_find_action',
        arguments: { query: 'close an issue' },
      });
      return (r.structuredContent as { matches: Array<{ id: string; schema: unknown }> }).matches;
    });
    expect(found.value.length).toBeGreaterThan(0);
    expect(found.value.every((m) => typeof m.schema === 'object')).toBe(true);
    expect(found.stderr).toContain('LOADED ./find-corpus.cjs');
    expect(found.stderr).toContain('LOADED ./forge-mcp-find.bundle.cjs');
    expect(loaded(found.stderr).sort()).toEqual(
      [...new Set(found.value.map((m) => m.id.split('.')[0]))].sort(),
    );
  });

  it('individual: tools/list carries every schema, so it reads the domain file of each action it lists', async () => {
    const listed = await withStdio(
      s,
      { env: env('individual') },
      async (c) => (await c.client.listTools()).tools,
    );
    const { catalog } = await import('../dist/catalog/index.js');
    const domains = new Set(listed.value.map((t) => catalog().byToolName(t.name)!.id.split('.')[0]));
    // The api token lacks admin_mode: the domains of administrators' actions alone are neither listed nor read.
    expect(domains.size).toBeGreaterThan(40);
    expect(loaded(listed.stderr).sort()).toEqual([...domains].sort());
  });
});
