/**
 * A group's wiki through a real MCP client over stdio, against forge-sim: a page created, read, listed, edited and
 * deleted with the group.wiki_* actions, each answer the instance's and each request the one the instance expects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sim, stdioClient, textOf, type Connected, type ForgeSim } from './harness.js';

let s: ForgeSim;
let c: Connected;
beforeAll(async () => {
  s = await sim();
  c = await stdioClient(s);
});
afterAll(async () => {
  await c?.close();
  await s?.close();
});

interface Page {
  slug: string;
  title: string;
  format: string;
  content?: string;
}

/** Runs an action on the dynamic surface; it must succeed. Its structured answer. */
async function run(action: string, params: Record<string, unknown>, confirm = false): Promise<unknown> {
  const r = await c.client.callTool({
    name: 'forge_execute_action',
    arguments: { action, params, ...(confirm ? { confirm: true } : {}) },
  });
  expect(r.isError, textOf(r)).toBeFalsy();
  return r.structuredContent;
}

const slugs = async (): Promise<string[]> =>
  ((await run('group.wiki_list', { group_id: 'acme' })) as { items: Page[] }).items.map((p) => p.slug);

describe('group wiki through the MCP client', () => {
  it('creates a page, reads it, lists it, edits it and deletes it, the group keeping its other pages', async () => {
    expect(await slugs()).toEqual(['home', 'onboarding']);
    const made = (await run('group.wiki_create', {
      group_id: 'acme',
      title: 'Release checklist',
      content: '1. Tag the release.',
    })) as Page;
    expect(made).toMatchObject({ slug: 'Release-checklist', title: 'Release checklist', format: 'markdown' });
    expect(await run('group.wiki_get', { group_id: '10', slug: 'Release-checklist' })).toMatchObject({
      content: '1. Tag the release.',
    });
    const listed = (await run('group.wiki_list', { group_id: 'acme', with_content: true })) as {
      items: Page[];
    };
    expect(listed.items.map((p) => [p.slug, p.content])).toEqual([
      ['home', '# Acme\n\nNew to the group? Read [onboarding](onboarding).'],
      ['onboarding', '# Onboarding\n\nAsk an owner for access to the widgets project.'],
      ['Release-checklist', '1. Tag the release.'],
    ]);
    const edited = await run('group.wiki_edit', {
      group_id: 'acme',
      slug: 'Release-checklist',
      content: '1. Tag the release.\n2. Announce it.',
      format: 'markdown',
    });
    expect(edited).toMatchObject({
      slug: 'Release-checklist',
      content: '1. Tag the release.\n2. Announce it.',
    });
    await run('group.wiki_delete', { group_id: 'acme', slug: 'Release-checklist' }, true);
    expect(await slugs()).toEqual(['home', 'onboarding']);
    // What reached the instance: each route of the group's wiki, the page named by its slug.
    const sent = s.requests.filter((q) => q.path.includes('/wikis')).map((q) => `${q.method} ${q.path}`);
    expect(sent).toEqual([
      'GET /api/v4/groups/acme/wikis',
      'POST /api/v4/groups/acme/wikis',
      'GET /api/v4/groups/10/wikis/Release-checklist',
      'GET /api/v4/groups/acme/wikis',
      'PUT /api/v4/groups/acme/wikis/Release-checklist',
      'DELETE /api/v4/groups/acme/wikis/Release-checklist',
      'GET /api/v4/groups/acme/wikis',
    ]);
    // A page that is not there is the instance's 404, saying where to find the pages there are.
    const gone = await c.client.callTool({
      name: 'forge_execute_action',
      arguments: { action: 'group.wiki_get', params: { group_id: 'acme', slug: 'Release-checklist' } },
    });
    expect(gone.isError).toBe(true);
    expect(textOf(gone)).toContain('group.wiki_list');
  });
});
