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
