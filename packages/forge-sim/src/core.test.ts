import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startForgeSim } from './index.js';
import type { ForgeSim } from './index.js';

let sim: ForgeSim;
beforeAll(async () => {
  sim = await startForgeSim();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

async function call(method: string, path: string, body?: unknown, token = sim.tokens.api) {
  const res = await fetch(`${sim.url}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, headers: res.headers, json };
}

describe('pagination', () => {
  it('slices lists and sets the pagination headers', async () => {
    const res = await call('GET', '/projects/1/issues?per_page=2&page=2&state=all');
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(2);
    expect(res.headers.get('x-total')).toBe('5');
    expect(res.headers.get('x-total-pages')).toBe('3');
    expect(res.headers.get('x-page')).toBe('2');
    expect(res.headers.get('x-per-page')).toBe('2');
    expect(res.headers.get('x-next-page')).toBe('3');
    expect(res.headers.get('x-prev-page')).toBe('1');
    const link = res.headers.get('link')!;
    for (const rel of ['next', 'prev', 'first', 'last']) expect(link).toContain(`rel="${rel}"`);
    expect(link).toContain(`<${sim.url}/api/v4/projects/1/issues?state=all&page=3&per_page=2>; rel="next"`);
  });

  it('defaults to 20 per page and caps per_page at 100', async () => {
    const res = await call('GET', '/projects/1/issues?per_page=500');
    expect(res.headers.get('x-per-page')).toBe('100');
    const dflt = await call('GET', '/projects');
    expect(dflt.headers.get('x-per-page')).toBe('20');
    expect(dflt.headers.get('x-next-page')).toBe('');
  });
});

describe('projects', () => {
  it('addresses a project by id or by URL-encoded path', async () => {
    const byPath = await call('GET', '/projects/acme%2Fwidgets');
    expect(byPath.json).toMatchObject({ id: 1, path_with_namespace: 'acme/widgets', default_branch: 'main' });
    expect((await call('GET', '/projects/999')).json).toEqual({ message: '404 Project Not Found' });
  });

  it('creates, updates, forks and deletes a project', async () => {
    const created = await call('POST', '/projects', {
      name: 'Thing',
      namespace_id: 10,
      initialize_with_readme: true,
    });
    expect(created.status).toBe(201);
    expect(created.json.path_with_namespace).toBe('acme/thing');
    const updated = await call('PUT', `/projects/${created.json.id}`, { description: 'new' });
    expect(updated.json.description).toBe('new');
    const fork = await call('POST', '/projects/1/fork', {});
    expect(fork.status).toBe(201);
    expect(fork.json.path_with_namespace).toBe('alice/widgets');
    expect((await call('DELETE', `/projects/${created.json.id}`)).status).toBe(202);
    expect((await call('GET', `/projects/${created.json.id}`)).status).toBe(404);
  });

  it('lists members and groups', async () => {
    const members = await call('GET', '/projects/1/members/all');
    expect(members.json.map((m: { username: string }) => m.username).sort()).toEqual(['alice', 'bob']);
    const groups = await call('GET', '/groups');
    expect(groups.json.map((g: { full_path: string }) => g.full_path)).toEqual(['acme', 'acme/platform']);
    // Every state by default; state keeps one (a membership awaiting a seat grants nothing meanwhile).
    const names = async (path: string) =>
      (await call('GET', path)).json
        .map((m: { username: string; membership_state: string }) => `${m.username}:${m.membership_state}`)
        .sort();
    expect(await names('/groups/11/members/all')).toEqual(['alice:active', 'bob:active', 'root:awaiting']);
    expect(await names('/groups/11/members/all?state=awaiting')).toEqual(['root:awaiting']);
    expect(await names('/groups/11/members/all?state=active')).toEqual(['alice:active', 'bob:active']);
    expect(await names('/groups/11/members?state=active')).toEqual(['alice:active']);
    expect(await names('/projects/1/members/all?state=active')).toEqual(['alice:active', 'bob:active']);
    expect(await names('/projects/1/members/all?state=awaiting')).toEqual([]);
    expect(await names('/groups/11/members/all?query=BOB&user_ids=2,3')).toEqual(['bob:active']);
    // user_ids alone keeps those users; a query matches an email too, not only a name or username.
    expect(await names('/groups/11/members/all?user_ids=1,2')).toEqual(['alice:active', 'root:awaiting']);
    expect(await names('/groups/11/members/all?query=alice@forge')).toEqual(['alice:active']);
    expect((await call('GET', '/groups/11/members/all?state=blocked')).json).toEqual({
      error: 'state does not have a valid value',
    });
    const sub = await call('GET', '/groups/10/subgroups');
    expect(sub.json[0].id).toBe(11);
    const gp = await call('GET', '/groups/acme/projects');
    expect(gp.json).toHaveLength(2);
  });
});

describe('issues', () => {
  it('round-trips create, get, update, close, reopen and delete', async () => {
    const created = await call('POST', '/projects/1/issues', {
      title: 'New bug',
      labels: 'bug,urgent',
      assignee_ids: [3],
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      iid: 6,
      title: 'New bug',
      state: 'opened',
      labels: ['bug', 'urgent'],
    });
    expect(created.json.assignees[0].username).toBe('bob');
    const got = await call('GET', '/projects/1/issues/6');
    expect(got.json.id).toBe(created.json.id);
    const closed = await call('PUT', '/projects/1/issues/6', { state_event: 'close' });
    expect(closed.json).toMatchObject({ state: 'closed', closed_by: { username: 'alice' } });
    const reopened = await call('PUT', '/projects/1/issues/6', { state_event: 'reopen', title: 'Renamed' });
    expect(reopened.json).toMatchObject({ state: 'opened', title: 'Renamed' });
    expect((await call('DELETE', '/projects/1/issues/6')).status).toBe(204);
    expect((await call('GET', '/projects/1/issues/6')).json).toEqual({ message: '404 Issue Not Found' });
  });

  it('validates a missing title', async () => {
    const res = await call('POST', '/projects/1/issues', { description: 'no title' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: 'title is missing' });
  });

  it('filters by state and label', async () => {
    const closed = await call('GET', '/projects/1/issues?state=closed');
    expect(closed.json.map((i: { iid: number }) => i.iid).sort()).toEqual([3, 5]);
    const bugs = await call('GET', '/projects/1/issues?labels=bug&state=opened');
    expect(bugs.json.map((i: { iid: number }) => i.iid)).toEqual([1]);
  });

  it('adds, lists and deletes notes and discussions', async () => {
    const note = await call('POST', '/projects/1/issues/1/notes', { body: 'hello' });
    expect(note.status).toBe(201);
    const notes = await call('GET', '/projects/1/issues/1/notes');
    expect(notes.json[0].body).toBe('hello');
    const discussions = await call('GET', '/projects/1/issues/1/discussions');
    expect(discussions.json.length).toBe(3);
    expect((await call('DELETE', `/projects/1/issues/1/notes/${note.json.id}`)).status).toBe(204);
  });
});

describe('merge requests', () => {
  it('lists, gets, creates and refuses a duplicate', async () => {
    const open = await call('GET', '/projects/1/merge_requests?state=opened');
    expect(open.json.map((m: { iid: number }) => m.iid).sort()).toEqual([1, 2]);
    const dup = await call('POST', '/projects/1/merge_requests', {
      source_branch: 'feature/login',
      target_branch: 'main',
      title: 'again',
    });
    expect(dup.status).toBe(409);
    expect(dup.json).toEqual({
      message: ['Another open merge request already exists for this source branch: !1'],
    });
  });

  it('shows changes and diffs, collapsing the large file', async () => {
    const changes = await call('GET', '/projects/1/merge_requests/1/changes');
    expect(changes.json.changes[0]).toMatchObject({ new_path: 'src/login.js', new_file: true });
    expect(changes.json.changes[0].diff).toContain('+export function login');
    const diffs = await call('GET', '/projects/1/merge_requests/2/diffs');
    const big = diffs.json.find((d: { new_path: string }) => d.new_path === 'fixtures/data.json');
    expect(big).toMatchObject({ collapsed: true, diff: '' });
  });

  it('approves, refuses a second approval, unapproves and merges', async () => {
    const ok = await call('POST', '/projects/1/merge_requests/1/approve');
    expect(ok.status).toBe(201);
    expect(ok.json.approved_by[0].user.username).toBe('alice');
    expect((await call('POST', '/projects/1/merge_requests/1/approve')).status).toBe(401);
    const approvals = await call('GET', '/projects/1/merge_requests/1/approvals');
    expect(approvals.json.approvals_left).toBe(0);
    expect((await call('POST', '/projects/1/merge_requests/1/unapprove')).status).toBe(201);
    const merged = await call('PUT', '/projects/1/merge_requests/1/merge', {});
    expect(merged.json).toMatchObject({ state: 'merged', merged_by: { username: 'alice' } });
    expect((await call('PUT', '/projects/1/merge_requests/1/merge', {})).status).toBe(405);
    const file = await call('GET', '/projects/1/repository/files/src%2Flogin.js/raw?ref=main');
    expect([200, 404]).toContain(file.status);
  });

  it('creates a merge request and a discussion on it', async () => {
    const created = await call('POST', '/projects/1/merge_requests', {
      source_branch: 'fixtures-refresh',
      target_branch: 'feature/login',
      title: 'Draft: try',
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ iid: 4, draft: true });
    const d = await call('POST', '/projects/1/merge_requests/4/discussions', { body: 'thread' });
    expect(d.status).toBe(201);
    const reply = await call('POST', `/projects/1/merge_requests/4/discussions/${d.json.id}/notes`, {
      body: 'reply',
    });
    expect(reply.status).toBe(201);
    const resolved = await call('PUT', `/projects/1/merge_requests/4/discussions/${d.json.id}`, {
      resolved: true,
    });
    expect(resolved.json.notes.every((n: { resolved: boolean }) => n.resolved)).toBe(true);
  });
});

describe('groups and users', () => {
  it('round-trips create, get, update, members and delete', async () => {
    const created = await call('POST', '/groups', { name: 'Tools', path: 'tools', parent_id: 10 });
    expect(created.status).toBe(201);
    expect(created.json.full_path).toBe('acme/tools');
    expect((await call('GET', '/groups/acme%2Ftools')).json.id).toBe(created.json.id);
    expect((await call('PUT', `/groups/${created.json.id}`, { description: 'd' })).json.description).toBe(
      'd',
    );
    const added = await call('POST', `/groups/${created.json.id}/members`, { user_id: 3, access_level: 30 });
    expect(added.status).toBe(201);
    expect(
      (await call('POST', `/groups/${created.json.id}/members`, { user_id: 3, access_level: 30 })).status,
    ).toBe(409);
    // A member named by username, as the instance takes it; exactly one of user_id and username, and user_id an ID.
    const byName = await call('POST', `/groups/${created.json.id}/members`, {
      username: 'root',
      access_level: 30,
    });
    expect(byName.status).toBe(201);
    expect(byName.json).toMatchObject({ id: 1, username: 'root', access_level: 30 });
    expect((await call('POST', `/groups/${created.json.id}/members`, { access_level: 30 })).json).toEqual({
      error: 'user_id, username are missing, exactly one parameter must be provided',
    });
    expect(
      (
        await call('POST', `/groups/${created.json.id}/members`, {
          user_id: 2,
          username: 'alice',
          access_level: 30,
        })
      ).json,
    ).toEqual({ error: 'user_id, username are mutually exclusive' });
    expect(
      (await call('POST', `/groups/${created.json.id}/members`, { user_id: 'alice', access_level: 30 })).json,
    ).toEqual({ message: '404 User Not Found' });
    expect((await call('GET', '/groups/10/descendant_groups')).json).toHaveLength(2);
    expect((await call('DELETE', `/groups/${created.json.id}`)).status).toBe(202);
    expect((await call('GET', `/groups/${created.json.id}`)).json).toEqual({
      message: '404 Group Not Found',
    });
  });

  it('gets the current user and others', async () => {
    expect((await call('GET', '/user')).json).toMatchObject({ id: 2, username: 'alice', is_admin: false });
    expect((await call('GET', '/users?username=bob')).json[0].id).toBe(3);
    expect((await call('GET', '/users/1')).json.username).toBe('root');
    expect((await call('GET', '/users/99')).json).toEqual({ message: '404 User Not Found' });
  });
});

describe('conditional requests', () => {
  it('answers a GET with a weak ETag, 304 to a request holding it, and a new ETag once the object changed', async () => {
    const first = await call('GET', '/projects/1/issues/1');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[0-9a-f]{32}"$/);
    const again = await fetch(`${sim.url}/api/v4/projects/1/issues/1`, {
      headers: { 'PRIVATE-TOKEN': sim.tokens.api, 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
    await call('PUT', '/projects/1/issues/1', { title: 'Retitled' });
    const changed = await fetch(`${sim.url}/api/v4/projects/1/issues/1`, {
      headers: { 'PRIVATE-TOKEN': sim.tokens.api, 'if-none-match': etag },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('sends no validator when started with etags off', async () => {
    const plain = await startForgeSim({ etags: false });
    const res = await fetch(`${plain.url}/api/v4/projects/1/issues/1`, {
      headers: { 'PRIVATE-TOKEN': plain.tokens.api },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeNull();
    await plain.close();
  });
});

// The list filters the server's prompts, resources and completions send, answered as the instance does.

/** Each item's project and IID (`1#3`), in the list's order. */
async function refs(path: string): Promise<string[]> {
  const res = await call('GET', path);
  expect(res.status, path).toBe(200);
  return (res.json as Array<{ project_id: number; iid: number }>).map((x) => `${x.project_id}#${x.iid}`);
}

/** The IIDs a list answers, in its order. */
async function iids(path: string): Promise<number[]> {
  const res = await call('GET', path);
  expect(res.status, path).toBe(200);
  return (res.json as Array<{ iid: number }>).map((x) => x.iid);
}

// Seeded times (2025-01-15): issue #n created 11:00 + 10 min per step, updated 5 min after; merge requests
// !1 created 11:50, updated 12:00; !2 created 12:10, updated 12:20; !3 created 10:15, updated 10:25.
const T = (hhmm: string) => `2025-01-15T${hhmm}:00Z`;

describe('issue lists filter by creation and update time', () => {
  it('updated_after and updated_before keep the items on or past their bound, on every issue list', async () => {
    // acme/gadgets' issue #1 (project 2) was created at 13:20 and updated at 13:25.
    for (const base of ['/projects/1/issues?', '/groups/10/issues?', '/issues?scope=all&']) {
      const wide = !base.startsWith('/projects');
      expect(await refs(`${base}state=all&sort=asc&updated_after=${T('11:25')}`), base).toEqual([
        '1#3',
        '1#4',
        '1#5',
        ...(wide ? ['2#1'] : []),
      ]);
      expect(await refs(`${base}state=all&sort=asc&updated_before=${T('11:25')}`), base).toEqual([
        '1#1',
        '1#2',
        '1#3',
      ]);
    }
    expect(
      await iids(
        `/projects/1/issues?state=all&sort=asc&created_after=${T('11:20')}&created_before=${T('11:30')}`,
      ),
    ).toEqual([3, 4]);
    // Combined with the other filters, not instead of them.
    expect(await iids(`/projects/1/issues?state=opened&sort=asc&updated_after=${T('11:15')}`)).toEqual([
      2, 4,
    ]);
  });

  it('an unreadable date is refused with 400 naming the parameter', async () => {
    for (const p of ['created_after', 'created_before', 'updated_after', 'updated_before']) {
      const res = await call('GET', `/projects/1/issues?${p}=yesterday`);
      expect(res.status, p).toBe(400);
      expect(res.json).toEqual({ error: `${p} is invalid` });
    }
  });

  it("an owner's updated_at back-dates an issue; a developer's is ignored and the update is now", async () => {
    const back = await call('PUT', '/projects/1/issues/2', { updated_at: '2024-06-01T00:00:00Z' });
    expect(back.json.updated_at).toBe('2024-06-01T00:00:00.000Z');
    expect(await iids(`/projects/1/issues?state=all&updated_before=2024-12-31T00:00:00Z`)).toEqual([2]);
    const bob = sim.addToken({ kind: 'personal', userId: 3 });
    const before = Date.now();
    const mine = await call('PUT', '/projects/1/issues/4', { updated_at: '2024-06-01T00:00:00Z' }, bob);
    expect(mine.status).toBe(200);
    expect(Date.parse(mine.json.updated_at)).toBeGreaterThanOrEqual(before - 1000);
    const bad = await call('PUT', '/projects/1/issues/2', { updated_at: 'soon' });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: 'updated_at is invalid' });
  });

  it('an issue created or changed through the API is newer than any bound in the past', async () => {
    const since = new Date(Date.now() - 86_400_000).toISOString();
    expect(await iids(`/projects/1/issues?state=all&updated_after=${since}`)).toEqual([]);
    await call('POST', '/projects/1/issues', { title: 'Fresh' });
    await call('PUT', '/projects/1/issues/1', { description: 'touched' });
    expect(await iids(`/projects/1/issues?state=all&sort=asc&updated_after=${since}`)).toEqual([1, 6]);
    expect(await iids(`/projects/1/issues?state=all&sort=asc&updated_before=${since}`)).toEqual([2, 3, 4, 5]);
  });
});

describe('merge request lists filter by creation and update time', () => {
  it('every merge request list keeps the items within the window', async () => {
    for (const base of [
      '/projects/1/merge_requests?',
      '/groups/10/merge_requests?',
      '/merge_requests?scope=all&',
    ]) {
      expect(await iids(`${base}state=all&sort=asc&updated_after=${T('12:00')}`), base).toEqual([1, 2]);
      expect(await iids(`${base}state=all&sort=asc&updated_before=${T('12:00')}`), base).toEqual([3, 1]);
      expect(await iids(`${base}state=all&sort=asc&created_after=${T('12:10')}`), base).toEqual([2]);
      expect(await iids(`${base}state=all&sort=asc&created_before=${T('11:50')}`), base).toEqual([3, 1]);
    }
    const res = await call('GET', '/projects/1/merge_requests?updated_before=2025-13-45');
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: 'updated_before is invalid' });
  });
});

describe('project wiki', () => {
  it('lists every page in one answer with slug, title, format and encoding, content only when asked', async () => {
    const plain = await call('GET', '/projects/1/wikis');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('x-total')).toBeNull();
    expect(plain.json).toEqual([
      { format: 'markdown', slug: 'getting-started', title: 'getting started', encoding: 'UTF-8' },
      { format: 'markdown', slug: 'home', title: 'home', encoding: 'UTF-8' },
    ]);
    const full = await call('GET', '/projects/1/wikis?with_content=true');
    expect(full.json[1]).toEqual({
      content: '# Widgets\n\nNew here? Read [getting started](getting-started).',
      format: 'markdown',
      slug: 'home',
      title: 'home',
      encoding: 'UTF-8',
    });
    expect((await call('GET', '/projects/2/wikis')).json).toEqual([]);
  });
});

describe.each([
  {
    wiki: 'project',
    base: '/projects/1',
    seeded: ['getting-started', 'home'],
    withNew: ['getting-started', 'home', 'On-call'],
  },
  {
    wiki: 'group',
    base: '/groups/10',
    seeded: ['home', 'onboarding'],
    withNew: ['home', 'On-call', 'onboarding'],
  },
])('$wiki wiki pages', ({ base, seeded, withNew }) => {
  const slugs = async () => (await call('GET', `${base}/wikis`)).json.map((w: { slug: string }) => w.slug);

  it('creates a page under the slug its title gives, renames it, refuses a duplicate and deletes it', async () => {
    const made = await call('POST', `${base}/wikis`, { title: 'On call', content: 'Page the lead.' });
    expect(made.status).toBe(201);
    expect(made.json).toEqual({
      content: 'Page the lead.',
      format: 'markdown',
      slug: 'On-call',
      title: 'On call',
      encoding: 'UTF-8',
    });
    expect((await call('GET', `${base}/wikis/On-call`)).json.content).toBe('Page the lead.');
    expect(await slugs()).toEqual(withNew);
    const dup = await call('POST', `${base}/wikis`, { title: 'On call', content: 'again' });
    expect(dup).toMatchObject({
      status: 400,
      json: { message: 'Duplicate page: A page with that title already exists' },
    });
    const none = await call('PUT', `${base}/wikis/On-call`, {});
    expect(none.status).toBe(400);
    expect(none.json.error).toContain('at least one parameter must be provided');
    const renamed = await call('PUT', `${base}/wikis/On-call`, { title: 'On call rota', format: 'asciidoc' });
    expect(renamed.json).toEqual({
      content: 'Page the lead.',
      format: 'asciidoc',
      slug: 'On-call-rota',
      title: 'On call rota',
      encoding: 'UTF-8',
    });
    expect((await call('GET', `${base}/wikis/On-call`)).json).toEqual({ message: '404 Wiki Page Not Found' });
    expect((await call('POST', `${base}/wikis`, { title: 'x', content: 'y', format: 'html' })).json).toEqual({
      error: 'format does not have a valid value',
    });
    expect((await call('DELETE', `${base}/wikis/On-call-rota`)).status).toBe(204);
    expect((await call('DELETE', `${base}/wikis/On-call-rota`)).status).toBe(404);
    expect(await slugs()).toEqual(seeded);
  });
});

describe.each([
  { wiki: 'project', page: '/projects/1/wikis/home', first: '<h1 dir="auto">Widgets</h1>' },
  { wiki: 'group', page: '/groups/10/wikis/home', first: '<h1 dir="auto">Acme</h1>' },
])('$wiki wiki rendering', ({ page, first }) => {
  it("answers a page's content as HTML with render_html=true, as its source otherwise", async () => {
    const html = (await call('GET', `${page}?render_html=true`)).json;
    expect(html.content.split('\n')[0]).toBe(first);
    expect(html.content).toMatch(
      /^<h1 dir="auto">.*<\/h1>\n<p dir="auto">.* <a href="[a-z-]+">[a-z ]+<\/a>\.<\/p>$/,
    );
    expect(html).toMatchObject({ format: 'markdown', slug: 'home', title: 'home', encoding: 'UTF-8' });
    expect((await call('GET', `${page}?render_html=false`)).json.content).toMatch(/^# /);
  });
});

describe('group wiki', () => {
  it('lists every page in one answer with slug, title, format and encoding, content only when asked', async () => {
    const plain = await call('GET', '/groups/10/wikis');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('x-total')).toBeNull();
    expect(plain.json).toEqual([
      { format: 'markdown', slug: 'home', title: 'home', encoding: 'UTF-8' },
      { format: 'markdown', slug: 'onboarding', title: 'onboarding', encoding: 'UTF-8' },
    ]);
    const full = await call('GET', '/groups/acme/wikis?with_content=true');
    expect(full.json[0]).toEqual({
      content: '# Acme\n\nNew to the group? Read [onboarding](onboarding).',
      format: 'markdown',
      slug: 'home',
      title: 'home',
      encoding: 'UTF-8',
    });
    expect((await call('GET', '/groups/10/wikis/onboarding')).json).toEqual({
      content: '# Onboarding\n\nAsk an owner for access to the widgets project.',
      format: 'markdown',
      slug: 'onboarding',
      title: 'onboarding',
      encoding: 'UTF-8',
    });
    // Each group holds its own wiki: the subgroup's is empty, a project's pages are not the group's.
    expect((await call('GET', '/groups/11/wikis')).json).toEqual([]);
    expect((await call('GET', '/groups/10/wikis/getting-started')).json).toEqual({
      message: '404 Wiki Page Not Found',
    });
    expect((await call('GET', '/groups/999/wikis')).json).toEqual({ message: '404 Group Not Found' });
  });

  it("a developer of the group writes pages, a maintainer's role deletes them, and a non-member sees none", async () => {
    const bob = sim.addToken({ kind: 'personal', userId: 3 });
    const written = await call('POST', '/groups/10/wikis', { title: 'Notes', content: 'x' }, bob);
    expect(written.status).toBe(201);
    expect((await call('PUT', '/groups/10/wikis/Notes', { content: 'y' }, bob)).json.content).toBe('y');
    expect((await call('DELETE', '/groups/10/wikis/Notes', undefined, bob)).json).toEqual({
      message: '403 Forbidden',
    });
    // A private group bob is no member of is not found for him, nor its wiki.
    const alone = await call('POST', '/groups', { name: 'Solo', path: 'solo' });
    expect((await call('GET', `/groups/${alone.json.id}/wikis`, undefined, bob)).json).toEqual({
      message: '404 Group Not Found',
    });
    expect((await call('DELETE', '/groups/10/wikis/Notes')).status).toBe(204);
  });
});

describe('the other list filters the server sends', () => {
  it("a project's labels carry their issue and merge request counts only with with_counts", async () => {
    const plain = await call('GET', '/projects/1/labels');
    expect(plain.json.map((l: { name: string }) => l.name)).toEqual(['bug', 'feature', 'docs']);
    for (const l of plain.json) expect(l).not.toHaveProperty('open_issues_count');
    const counted = await call('GET', '/projects/1/labels?with_counts=true&search=FEAT');
    expect(counted.json).toEqual([
      expect.objectContaining({
        name: 'feature',
        open_issues_count: 2,
        closed_issues_count: 0,
        open_merge_requests_count: 1,
      }),
    ]);
    expect((await call('GET', '/projects/1/labels/bug')).json).not.toHaveProperty('open_issues_count');
  });

  it('groups with min_access_level are those where the user holds at least that role', async () => {
    const bob = sim.addToken({ kind: 'personal', userId: 3 });
    const paths = async (q: string, token = sim.tokens.api) =>
      (await call('GET', `/groups?${q}`, undefined, token)).json.map(
        (g: { full_path: string }) => g.full_path,
      );
    expect(await paths('min_access_level=50')).toEqual(['acme', 'acme/platform']);
    expect(await paths('min_access_level=10', bob)).toEqual(['acme', 'acme/platform']);
    expect(await paths('min_access_level=40', bob)).toEqual([]);
    expect(await paths('min_access_level=10&top_level_only=true', bob)).toEqual(['acme']);
  });

  it('branch and tag searches match in any case, ^ anchoring the start and $ the end (both at once too), * any run, an exact match first without them', async () => {
    const names = async (path: string) => (await call('GET', path)).json.map((b: { name: string }) => b.name);
    expect(await names('/projects/1/repository/branches?search=LOGIN')).toEqual(['feature/login']);
    expect(await names('/projects/1/repository/branches?search=^f')).toEqual([
      'feature/login',
      'fixtures-refresh',
    ]);
    expect(await names('/projects/1/repository/branches?search=^login')).toEqual([]);
    expect(await names('/projects/1/repository/branches?search=in$')).toEqual(['feature/login', 'main']);
    await call('POST', '/projects/1/repository/branches?branch=domain&ref=main');
    expect(await names('/projects/1/repository/branches?search=main')).toEqual(['main', 'domain']);
    // With ^, $ or *, the search is a pattern: anchored at both ends, * for any run, in the list's order.
    expect(await names('/projects/1/repository/branches?search=^MAIN$')).toEqual(['main']);
    expect(await names('/projects/1/repository/branches?search=main$')).toEqual(['domain', 'main']);
    expect(await names('/projects/1/repository/branches?search=f*re')).toEqual([
      'feature/login',
      'fixtures-refresh',
    ]);
    expect(await names('/projects/1/repository/branches?search=^fix*sh$')).toEqual(['fixtures-refresh']);
    expect(await names('/projects/1/repository/tags?search=V1.0')).toEqual(['v1.0.0']);
    expect(await names('/projects/1/repository/tags?search=^v*0$')).toEqual(['v1.0.0']);
  });

  it('a project list with simple=true answers each project by its basic details only', async () => {
    const [simple] = (await call('GET', '/projects?simple=true&search=widgets')).json;
    expect(Object.keys(simple)).toHaveLength(19);
    for (const k of ['visibility', 'archived', 'open_issues_count', 'merge_method', '_links'])
      expect(simple, k).not.toHaveProperty(k);
    expect(simple).toMatchObject({
      id: 1,
      path_with_namespace: 'acme/widgets',
      default_branch: 'main',
      star_count: 5,
      namespace: { full_path: 'acme' },
    });
    const [whole] = (await call('GET', '/groups/10/projects?search=widgets')).json;
    expect(whole).toMatchObject({ visibility: 'private', archived: false });
    const [groupSimple] = (await call('GET', '/groups/10/projects?search=widgets&simple=true')).json;
    expect(groupSimple).not.toHaveProperty('visibility');
  });

  it("a project search matches the namespace's path only with search_namespaces", async () => {
    const paths = async (q: string) =>
      (await call('GET', `/projects?${q}`)).json.map(
        (p: { path_with_namespace: string }) => p.path_with_namespace,
      );
    expect(await paths('search=WIDG')).toEqual(['acme/widgets']);
    expect(await paths('search=acme/')).toEqual([]);
    expect((await paths('search=acme/&search_namespaces=true')).sort()).toEqual([
      'acme/gadgets',
      'acme/widgets',
    ]);
  });

  it('a list without a stateful answer still honours search, iids and order_by/sort', async () => {
    const ids = async (path: string) => (await call('GET', path)).json.map((x: { id: number }) => x.id);
    expect(await ids('/projects/1/deployments?order_by=id&sort=desc')).toEqual([2, 1]);
    expect(await ids('/projects/1/deployments?order_by=id&sort=asc')).toEqual([1, 2]);
    expect(await ids('/groups/10/labels?search=LABEL%202')).toEqual([2]);
    expect(await ids('/groups/10/labels?search=bug')).toEqual([]);
    expect(await ids('/groups/10/milestones?iids[]=2')).toEqual([2]);
  });

  it('a list without a stateful answer whose instance list takes state keeps the items in the state asked', async () => {
    const states = async (path: string) =>
      (await call('GET', path)).json.map((x: { id: number; state: string }) => `${x.id} ${x.state}`);
    expect(await states('/groups/10/epics')).toEqual(['1 opened', '2 closed']);
    expect(await states('/groups/10/epics?state=opened')).toEqual(['1 opened']);
    expect(await states('/groups/10/epics?state=closed')).toEqual(['2 closed']);
    expect(await states('/groups/10/epics?state=all')).toEqual(['1 opened', '2 closed']);
    expect(await states('/groups/10/milestones?state=active')).toEqual(['1 active']);
    expect(await states('/groups/10/milestones?state=closed&iids[]=1')).toEqual([]);
    expect(await states('/projects/1/access_tokens?state=inactive')).toEqual(['2 inactive']);
    expect(await states('/users/2/impersonation_tokens?state=all')).toEqual(['1 active', '2 inactive']);
    expect(await states('/groups/10/iterations?state=opened')).toEqual(['1 upcoming']);
    expect(await states('/groups/10/iterations?state=current')).toEqual([]);
    expect(await states('/projects/1/repository/commits/main/merge_requests?state=merged')).toEqual([
      '2 merged',
    ]);
    // To-do items: pending unless another state is asked.
    expect(await states('/todos')).toEqual(['1 pending']);
    expect(await states('/todos?state=done')).toEqual(['2 done']);
    // Search reads state for issues and merge requests only.
    expect(await states('/projects/1/search?scope=issues&search=search&state=closed')).toEqual(['2 closed']);
    expect(await states('/projects/1/search?scope=projects&search=search&state=closed')).toEqual([
      '1 active',
      '2 active',
    ]);
    // A state the list does not take is refused as the instance refuses it; a list without state ignores it.
    for (const path of [
      '/groups/10/epics?state=merged',
      '/projects/1/access_tokens?state=all',
      '/todos?state=all',
    ]) {
      const refused = await call('GET', path);
      expect({ path, status: refused.status, json: refused.json }).toEqual({
        path,
        status: 400,
        json: { error: 'state does not have a valid value' },
      });
    }
    expect(await states('/projects/1/deployments?state=closed')).toEqual(['1 active', '2 active']);
  });
});

describe('project CI/CD variables', () => {
  it('are created once per key and scope, read, listed, changed and deleted as the instance does', async () => {
    sim.reset();
    expect((await call('GET', '/projects/1/variables')).json.map((v: { key: string }) => v.key)).toEqual([
      'DEPLOY_ENV',
    ]);
    const created = await call('POST', '/projects/1/variables', { key: 'API_URL', value: 'https://a' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ key: 'API_URL', value: 'https://a', environment_scope: '*' });
    // A second create of the same key and scope is refused; another scope is another variable.
    const again = await call('POST', '/projects/1/variables', { key: 'API_URL', value: 'https://b' });
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ message: { key: ['(API_URL) has already been taken'] } });
    expect(
      (await call('POST', '/projects/1/variables', { key: 'API_URL', value: 'p', environment_scope: 'prod' }))
        .status,
    ).toBe(201);
    const changed = await call('PUT', '/projects/1/variables/DEPLOY_ENV', {
      value: 'production',
      masked: true,
    });
    expect(changed.json).toMatchObject({ key: 'DEPLOY_ENV', value: 'production', masked: true });
    expect((await call('GET', '/projects/1/variables/DEPLOY_ENV')).json.value).toBe('production');
    expect((await call('PUT', '/projects/1/variables/NOPE', { value: 'x' })).json).toEqual({
      message: '404 Variable Not Found',
    });
    expect((await call('DELETE', '/projects/1/variables/DEPLOY_ENV')).status).toBe(204);
    expect((await call('GET', '/projects/1/variables/DEPLOY_ENV')).status).toBe(404);
    expect((await call('POST', '/projects/1/variables', { key: 'K' })).json).toEqual({
      error: 'value is missing',
    });
    sim.reset();
  });
});
