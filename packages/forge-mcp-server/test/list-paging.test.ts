/**
 * A list asked for a page past its end: the instance answers an empty list, which is not the list's last page. The
 * first line of the result says the page is past the end, where the list ends and where to read instead, on every
 * surface, and structuredContent.pagination says the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sim, textOf, uncountedPage40, withStdio, type Connected, type ForgeSim } from './harness.js';

interface Listed {
  items: unknown[];
  pagination?: Record<string, unknown>;
}

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => s.close());

/** How each surface runs issue.list (and any other action by its ID). */
const SURFACES = {
  dynamic: (c: Connected, action: string, params: Record<string, unknown>) =>
    c.client.callTool({ name: 'forge_execute_action', arguments: { action, params } }),
  meta: (c: Connected, action: string, params: Record<string, unknown>) =>
    c.client.callTool({
      name: `forge_${action.split('.')[0]}`,
      arguments: { action: action.split('.')[1], params },
    }),
  individual: (c: Connected, action: string, params: Record<string, unknown>) =>
    c.client.callTool({ name: `forge_${action.replace('.', '_')}`, arguments: params }),
};

async function listed(
  c: Connected,
  surface: keyof typeof SURFACES,
  action: string,
  params: Record<string, unknown>,
): Promise<{ first: string; text: string; sc: Listed }> {
  const r = await SURFACES[surface](c, action, params);
  const text = textOf(r);
  expect(r.isError, text).toBeFalsy();
  return { first: text.split('\n')[0]!, text, sc: r.structuredContent as unknown as Listed };
}

describe('a list page past the end', () => {
  it.each(Object.keys(SURFACES) as Array<keyof typeof SURFACES>)(
    'says on the %s surface that the page is past the end, with the count, the pages and where to read',
    { timeout: 60_000 },
    async (surface) => {
      await withStdio(s, { env: { FORGE_MCP_TOOL_SURFACE: surface } }, async (c) => {
        const params = { project_id: '1', state: 'all', per_page: 2 };
        const one = await listed(c, surface, 'issue.list', params);
        const total = one.sc.pagination!.total as number;
        const pages = one.sc.pagination!.total_pages as number;
        expect(pages).toBeGreaterThan(1);
        expect(pages).toBe(Math.ceil(total / 2));

        const past = await listed(c, surface, 'issue.list', { ...params, page: pages + 3 });
        expect(past.sc.items).toEqual([]);
        expect(past.text).toBe(
          `0 items: page ${pages + 3} is past the end. This list has ${total} items on ${pages} pages; its last page is ${pages} (pass page=${pages}) and its first is 1 (pass page=1), with the same parameters otherwise.`,
        );
        expect(past.text).not.toContain('last page\n');
        expect(past.text).not.toMatch(/, last page$/);
        expect(past.sc.pagination).toEqual({
          page: pages + 3,
          per_page: 2,
          total,
          total_pages: pages,
          past_the_end: true,
          last_page: pages,
        });

        // The last page it names holds the list's last items, and is the last page.
        const last = await listed(c, surface, 'issue.list', { ...params, page: pages });
        expect(last.sc.items).toHaveLength(total - 2 * (pages - 1));
        expect(last.first).toBe(
          `${total - 2 * (pages - 1)} item${total % 2 === 1 ? '' : 's'}, page ${pages} of ${pages}, ${total} total, last page`,
        );
        expect(last.sc.pagination).not.toHaveProperty('past_the_end');
      });
    },
  );

  it(
    'a page past the end of a one-page list names page 1 as its last page, and no first page beside it',
    { timeout: 60_000 },
    async () => {
      await withStdio(s, {}, async (c) => {
        const params = { project_id: '1', state: 'all', per_page: 100 };
        const one = await listed(c, 'dynamic', 'issue.list', params);
        const total = one.sc.pagination!.total as number;
        expect(one.sc.pagination!.total_pages).toBe(1);
        const past = await listed(c, 'dynamic', 'issue.list', { ...params, page: 4 });
        expect(past.text).toBe(
          `0 items: page 4 is past the end. This list has ${total} items on 1 page; its last page is 1 (pass page=1), with the same parameters otherwise.`,
        );
        expect(past.sc.pagination).toMatchObject({ page: 4, past_the_end: true, last_page: 1 });
      });
    },
  );

  it(
    'an empty page the instance still counts among its pages is not called past the end',
    { timeout: 60_000 },
    async () => {
      // The list shrank after the instance counted it: page 3 of 3 comes back empty.
      s.fault({
        method: 'GET',
        path: '/api/v4/projects/1/labels',
        status: 200,
        body: [],
        headers: {
          'x-page': '3',
          'x-per-page': '2',
          'x-total': '6',
          'x-total-pages': '3',
          'x-prev-page': '2',
          'x-next-page': '',
        },
      });
      try {
        await withStdio(s, {}, async (c) => {
          const page = await listed(c, 'dynamic', 'project.label_list', {
            project_id: '1',
            page: 3,
            per_page: 2,
          });
          expect(page.text).toBe('0 items, page 3 of 3, 6 total, last page');
          expect(page.sc.pagination).not.toHaveProperty('past_the_end');
          expect(page.sc.pagination).not.toHaveProperty('last_page');
        });
      } finally {
        s.clearFaults();
      }
    },
  );

  it('a page past the end of an empty list says the list is empty', { timeout: 60_000 }, async () => {
    await withStdio(s, {}, async (c) => {
      // Project 3 has no milestones: page 1 is the empty last page, page 2 is past the end.
      const first = await listed(c, 'dynamic', 'project.milestone_list', { project_id: '3' });
      expect(first.text).toBe('0 items, page 1 of 1, 0 total, last page');
      const past = await listed(c, 'dynamic', 'project.milestone_list', { project_id: '3', page: 2 });
      expect(past.text).toBe(
        '0 items: page 2 is past the end. This list is empty (the instance counts 0 items).',
      );
      expect(past.sc.pagination).toMatchObject({ page: 2, total: 0, past_the_end: true, last_page: 1 });
    });
  });

  it(
    'a page past the end of a list the instance does not count says the list ends before it',
    { timeout: 60_000 },
    async () => {
      // A large list: the instance leaves out X-Total and X-Total-Pages, and answers a page past the end empty.
      uncountedPage40(s, '/api/v4/projects/1/labels');
      try {
        await withStdio(s, {}, async (c) => {
          const past = await listed(c, 'dynamic', 'project.label_list', {
            project_id: '1',
            page: 40,
            per_page: 100,
          });
          expect(past.text).toBe(
            "0 items: page 40 is past the end: the list ends before it. The instance does not count this list (it leaves the count out of large lists), so how many pages it has is not known; read from page 1 (pass page=1) and follow each answer's next page to the last, with the same parameters otherwise.",
          );
          expect(past.sc.pagination).toEqual({ page: 40, per_page: 100, past_the_end: true });
        });
      } finally {
        s.clearFaults();
      }
    },
  );

  it(
    'an empty page reached by a keyset continuation says nothing follows it',
    { timeout: 60_000 },
    async () => {
      await withStdio(s, {}, async (c) => {
        const params = { order_by: 'id', sort: 'asc', pagination: 'keyset', per_page: 100 };
        const all = await listed(c, 'dynamic', 'project.list', params);
        const ids = all.sc.items.map((p) => (p as { id: number }).id);
        expect(all.first).toBe(`${ids.length} items`);
        const last = Math.max(...ids);
        const after = await listed(c, 'dynamic', 'project.list', { ...params, id_after: last });
        expect(after.sc.items).toEqual([]);
        expect(after.text).toBe(
          `0 items: this page is empty: nothing follows id_after=${last}, so the list ended on the page before it (keyset paging counts no items or pages). Leave id_after out to read it again from its start.`,
        );
        // The first page of a list that is empty is just empty.
        const none = await listed(c, 'dynamic', 'project.list', {
          ...params,
          search: 'no-such-project-anywhere',
        });
        expect(none.text).toBe('0 items');
      });
    },
  );
});
