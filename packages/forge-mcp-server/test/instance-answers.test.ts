/**
 * What the server says of answers the instance shapes itself, through a real MCP client over stdio against
 * forge-sim: a release just created, a commit reverted or a revert that does not apply, a wiki page rendered as
 * HTML, and members filtered by state.
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

/** Runs an action on the dynamic surface: the answer. */
const call = (action: string, params: Record<string, unknown>) =>
  c.client.callTool({ name: 'forge_execute_action', arguments: { action, params, confirm: true } });

describe('answers shaped by the instance', () => {
  it('a release created names its tag, notes, commit, archives and web page', async () => {
    const r = await call('release.create', {
      project_id: 'acme/widgets',
      tag_name: 'v9.0.0',
      ref: 'main',
      description: 'Ninth release.',
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const text = textOf(r);
    expect(text).toContain('"tag_name":"v9.0.0"');
    expect(text).toContain('"name":"v9.0.0"');
    expect(text).toContain('"description":"Ninth release."');
    expect(text).toContain(`"self":"${s.url}/acme/widgets/-/releases/v9.0.0"`);
    expect(text).toContain(`"url":"${s.url}/acme/widgets/-/archive/v9.0.0/widgets-v9.0.0.zip"`);
    const again = await call('release.create', { project_id: 'acme/widgets', tag_name: 'v9.0.0' });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toContain('Release already exists');
  });

  it('a revert commits on the branch and names the new commit; one that no longer applies says why', async () => {
    const head = await call('repository.commit_get', { project_id: '1', sha: 'main' });
    const { id, title } = head.structuredContent as { id: string; title: string };
    const r = await call('repository.commit_revert', { project_id: '1', sha: id, branch: 'main' });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(textOf(r)).toContain(`"title":"Revert \\"${title}\\""`);
    expect(textOf(r)).toContain(`This reverts commit ${id}`);
    const again = await call('repository.commit_revert', { project_id: '1', sha: id, branch: 'main' });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toContain(
      'Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.',
    );
  });

  it('a wiki page asked for as HTML is answered as HTML, project and group alike', async () => {
    const page = await call('wiki.get', { project_id: '1', slug: 'home', render_html: true });
    expect(textOf(page)).toContain('<h1 dir=\\"auto\\">Widgets</h1>');
    const group = await call('group.wiki_get', { group_id: '10', slug: 'home', render_html: true });
    expect(textOf(group)).toContain('<h1 dir=\\"auto\\">Acme</h1>');
    const source = await call('wiki.get', { project_id: '1', slug: 'home' });
    expect(textOf(source)).toContain('# Widgets');
  });

  it('members filtered by state list only that state', async () => {
    const usernames = async (state: string) =>
      (
        (await call('group.members', { group_id: 'acme/platform', state })).structuredContent as {
          items: { username: string }[];
        }
      ).items.map((m) => m.username);
    expect(await usernames('awaiting')).toEqual(['root']);
    expect((await usernames('active')).sort()).toEqual(['alice', 'bob']);
  });
});
