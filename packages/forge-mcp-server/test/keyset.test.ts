/**
 * Keyset paging: on the lists the instance pages by keyset (pagination=keyset; doc/api/rest, keyset section),
 * the answer's next link carries a continuation parameter in place of a page number. The result names it, and
 * passing it back reaches the next page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls, sim, textOf, withStdio, type ForgeSim } from './harness.js';

interface Listed {
  items: Array<{ id: number | string }>;
  pagination?: { next_page?: number; next_page_params?: Record<string, string> };
}

describe('keyset paging reaches the next page', () => {
  let s: ForgeSim;
  beforeAll(async () => {
    s = await sim();
  });
  afterAll(async () => s.close());

  const cases = [
    // The tree continues with the last entry's ID as page_token.
    { action: 'repository.tree', params: { project_id: '1', recursive: true }, continuation: 'page_token' },
    // Projects ordered by ID continue with id_after.
    { action: 'project.list', params: { order_by: 'id', sort: 'asc' }, continuation: 'id_after' },
    // A project's jobs continue with an opaque cursor.
    { action: 'job.list_project', params: { project_id: '1' }, continuation: 'cursor' },
    // A runner's jobs too.
    { action: 'runner.jobs', params: { runner_id: 1 }, continuation: 'cursor' },
  ];

  it.each(cases)(
    '$action names the $continuation of the next page, and passing it gives the next items',
    { timeout: 60_000 },
    async ({ action, params, continuation }) => {
      await withStdio(s, {}, async (c) => {
        const call = async (p: Record<string, unknown>) => {
          const r = await c.client.callTool({
            name: 'forge_execute_action',
            arguments: { action, params: p },
          });
          expect(r.isError, textOf(r)).toBeFalsy();
          return { text: textOf(r), sc: r.structuredContent as unknown as Listed };
        };
        // The same list by page number, two at a time: what the two keyset pages must hold.
        const both = (await call({ ...params, per_page: 2 })).sc.items.map((i) => i.id);
        expect(both).toHaveLength(2);

        const since = s.requests.length;
        const first = await call({ ...params, pagination: 'keyset', per_page: 1 });
        expect(first.sc.items.map((i) => i.id)).toEqual([both[0]]);
        const next = first.sc.pagination?.next_page_params;
        expect(Object.keys(next ?? {})).toEqual([continuation]);
        expect(first.sc.pagination?.next_page).toBeUndefined();
        const value = next![continuation];
        expect(first.text.split('\n')[0]).toBe(
          `1 item, next page: pass ${continuation}=${value} (with the same parameters otherwise)`,
        );

        const second = await call({
          ...params,
          pagination: 'keyset',
          per_page: 1,
          [continuation]: continuation === 'id_after' ? Number(value) : value,
        });
        expect(second.sc.items.map((i) => i.id)).toEqual([both[1]]);
        const sent = apiCalls(s, since).map((q) => q.query as Record<string, unknown>);
        expect(sent).toHaveLength(2);
        expect(sent[0]).toMatchObject({ pagination: 'keyset', per_page: '1' });
        expect(sent[0]).not.toHaveProperty(continuation);
        expect(sent[1]).toMatchObject({ pagination: 'keyset', per_page: '1', [continuation]: value });

        // The last page has no next link, and says so.
        const all = await call({ ...params, pagination: 'keyset', per_page: 100 });
        expect(all.sc.pagination?.next_page_params).toBeUndefined();
        expect(all.text.split('\n')[0]).toMatch(/^\d+ items$/);
      });
    },
  );
});

describe('a next link that pages by number', () => {
  let s: ForgeSim;
  beforeAll(async () => {
    s = await sim();
  });
  afterAll(async () => s.close());

  it('is read for the next page when the answer carries no X-Next-Page', async () => {
    await withStdio(s, {}, async (c) => {
      s.fault({
        path: '/api/v4/projects/1/issues',
        status: 200,
        body: [{ id: 1, iid: 1, title: 'only' }],
        headers: { link: `<${s.url}/api/v4/projects/1/issues?page=3&per_page=1>; rel="next"` },
        times: 1,
      });
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.list', params: { project_id: '1', per_page: 1 } },
      });
      expect(r.isError, textOf(r)).toBeFalsy();
      expect((r.structuredContent as unknown as Listed).pagination).toEqual({ next_page: 3 });
      expect(textOf(r).split('\n')[0]).toMatch(/next page: 3\b/);
    });
  });
});
