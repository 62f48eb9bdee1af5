import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startForgeSim } from './index.js';
import type { ForgeSim } from './index.js';

let sim: ForgeSim;
beforeAll(async () => {
  sim = await startForgeSim();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${sim.url}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': sim.tokens.api, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const buf = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  return {
    status: res.status,
    headers: res.headers,
    type,
    buf,
    json: type.includes('json') && buf.length ? JSON.parse(buf.toString()) : undefined,
  };
}

describe('repository', () => {
  it('serves files encoded and raw', async () => {
    const file = await call('GET', '/projects/1/repository/files/src%2Findex.js?ref=main');
    expect(file.json).toMatchObject({ file_path: 'src/index.js', encoding: 'base64', ref: 'main' });
    expect(Buffer.from(file.json.content, 'base64').toString()).toContain('export function widget');
    const raw = await call('GET', '/projects/1/repository/files/README.md/raw?ref=main');
    expect(raw.type).toContain('text/plain');
    expect(raw.buf.toString()).toMatch(/^# Widgets/);
    expect((await call('GET', '/projects/1/repository/files/nope.md?ref=main')).json).toEqual({
      message: '404 File Not Found',
    });
  });

  it('creates, updates and deletes a file through commits on a branch', async () => {
    const created = await call('POST', '/projects/1/repository/files/docs%2Fnew.md', {
      branch: 'main',
      content: 'hi',
      commit_message: 'add',
    });
    expect(created.status).toBe(201);
    expect(
      (
        await call('POST', '/projects/1/repository/files/docs%2Fnew.md', {
          branch: 'main',
          content: 'hi',
          commit_message: 'add',
        })
      ).status,
    ).toBe(400);
    const updated = await call('PUT', '/projects/1/repository/files/docs%2Fnew.md', {
      branch: 'main',
      content: Buffer.from('bye').toString('base64'),
      encoding: 'base64',
      commit_message: 'upd',
    });
    expect(updated.status).toBe(200);
    const raw = await call('GET', '/projects/1/repository/files/docs%2Fnew.md/raw?ref=main');
    expect(raw.buf.toString()).toBe('bye');
    const commits = await call('GET', '/projects/1/repository/commits?ref_name=main');
    expect(commits.json[0].title).toBe('upd');
    expect(
      (
        await call('DELETE', '/projects/1/repository/files/docs%2Fnew.md', {
          branch: 'main',
          commit_message: 'rm',
        })
      ).status,
    ).toBe(204);
    const tree = await call('GET', '/projects/1/repository/tree?ref=main');
    expect(tree.json.map((e: { path: string }) => e.path)).toEqual(['src', 'README.md']);
  });

  it('manages branches and tags', async () => {
    const branches = await call('GET', '/projects/1/repository/branches');
    expect(branches.json.map((b: { name: string }) => b.name)).toEqual([
      'feature/login',
      'fixtures-refresh',
      'main',
    ]);
    expect((await call('GET', '/projects/1/repository/branches/feature%2Flogin')).json.commit.title).toBe(
      'Validate login input',
    );
    const created = await call('POST', '/projects/1/repository/branches', { branch: 'topic', ref: 'main' });
    expect(created.status).toBe(201);
    const dup = await call('POST', '/projects/1/repository/branches', { branch: 'topic', ref: 'main' });
    expect(dup.status).toBe(400);
    expect(dup.json).toEqual({ message: 'Branch already exists' });
    expect((await call('DELETE', '/projects/1/repository/branches/topic')).status).toBe(204);
    const protect = await call('POST', '/projects/1/protected_branches', { name: 'feature/login' });
    expect(protect.status).toBe(201);
    const tags = await call('GET', '/projects/1/repository/tags');
    expect(tags.json[0].name).toBe('v1.0.0');
    expect(
      (await call('POST', '/projects/1/repository/tags', { tag_name: 'v1.1.0', ref: 'main' })).status,
    ).toBe(201);
  });

  it('shows a commit, its diff and a comparison', async () => {
    const commit = await call('GET', '/projects/1/repository/commits/feature%2Flogin');
    expect(commit.json.title).toBe('Validate login input');
    const diff = await call('GET', `/projects/1/repository/commits/${commit.json.id}/diff`);
    expect(diff.json[0].diff).toContain("+  if (!password) throw new Error('missing password');");
    const cmp = await call('GET', '/projects/1/repository/compare?from=main&to=feature%2Flogin');
    expect(cmp.json.commits).toHaveLength(2);
    expect(cmp.json.diffs[0].new_path).toBe('src/login.js');
  });

  it('commits several actions at once', async () => {
    const res = await call('POST', '/projects/1/repository/commits', {
      branch: 'new-branch',
      start_branch: 'main',
      commit_message: 'multi',
      actions: [
        { action: 'create', file_path: 'a.txt', content: 'a' },
        { action: 'update', file_path: 'README.md', content: 'changed' },
      ],
    });
    expect(res.status).toBe(201);
    expect((await call('GET', '/projects/1/repository/files/a.txt/raw?ref=new-branch')).buf.toString()).toBe(
      'a',
    );
  });
});

describe('history by path and contributors', () => {
  it('a commit list by path keeps the commits changing that file, or anything under a folder', async () => {
    const titles = async (q: string) =>
      ((await call('GET', `/projects/1/repository/commits?${q}`)).json as { title: string }[]).map(
        (c) => c.title,
      );
    expect(await titles('path=src%2Findex.js')).toEqual(['Add widget entry point']);
    expect(await titles('ref_name=feature%2Flogin&path=src')).toEqual([
      'Validate login input',
      'Add login form',
      'Add widget entry point',
    ]);
    expect(await titles('path=sr')).toEqual([]);
  });

  it('contributors: one row per author email of the ref with commits, additions and deletions, ordered as asked', async () => {
    const rows = await call('GET', '/projects/1/repository/contributors');
    expect(rows.status).toBe(200);
    expect(rows.headers.get('x-total')).toBe('2');
    // Ordered by commits, ascending by default.
    expect(rows.json).toEqual([
      { name: 'Bob Builder', email: 'bob@forge.test', commits: 1, additions: 7, deletions: 0 },
      { name: 'Alice Liddell', email: 'alice@forge.test', commits: 2, additions: 6, deletions: 0 },
    ]);
    const login = await call('GET', '/projects/1/repository/contributors?ref=feature%2Flogin&sort=desc');
    expect((login.json as { name: string; commits: number }[]).map((r) => [r.name, r.commits])).toEqual([
      ['Bob Builder', 3],
      ['Alice Liddell', 2],
    ]);
    const byName = await call('GET', '/projects/1/repository/contributors?order_by=name');
    expect((byName.json as { name: string }[]).map((r) => r.name)).toEqual(['Alice Liddell', 'Bob Builder']);
    expect((await call('GET', '/projects/1/repository/contributors?order_by=size')).json).toEqual({
      error: 'order_by does not have a valid value',
    });
  });
});

describe('listing releases', () => {
  it("lists the project's releases, newest release date first unless asked otherwise", async () => {
    expect((await call('GET', '/projects/1/releases')).json).toEqual([]);
    for (const [tag, at] of [
      ['v2.0.0', '2026-03-01T00:00:00Z'],
      ['v1.0.0', '2026-01-01T00:00:00Z'],
      ['v3.0.0', '2026-02-01T00:00:00Z'],
    ])
      expect(
        (await call('POST', '/projects/1/releases', { tag_name: tag, ref: 'main', released_at: at })).status,
      ).toBe(201);
    const tags = async (q: string) =>
      ((await call('GET', `/projects/1/releases${q}`)).json as { tag_name: string }[]).map((r) => r.tag_name);
    expect(await tags('')).toEqual(['v2.0.0', 'v3.0.0', 'v1.0.0']);
    expect(await tags('?sort=asc')).toEqual(['v1.0.0', 'v3.0.0', 'v2.0.0']);
    expect(await tags('?order_by=created_at&sort=asc')).toEqual(['v2.0.0', 'v1.0.0', 'v3.0.0']);
    expect(await tags('?per_page=1&page=2')).toEqual(['v3.0.0']);
  });
});

describe('merge request threads', () => {
  it('blocking_discussions_resolved is false while a resolvable thread is unresolved', async () => {
    const mr = async () =>
      (await call('GET', '/projects/1/merge_requests/1')).json as { blocking_discussions_resolved: boolean };
    expect((await mr()).blocking_discussions_resolved).toBe(false);
    expect((await call('GET', '/projects/1/merge_requests/2')).json.blocking_discussions_resolved).toBe(true);
    const threads = (await call('GET', '/projects/1/merge_requests/1/discussions')).json as { id: string }[];
    for (const t of threads)
      expect(
        (await call('PUT', `/projects/1/merge_requests/1/discussions/${t.id}`, { resolved: true })).status,
      ).toBe(200);
    expect((await mr()).blocking_discussions_resolved).toBe(true);
  });
});

describe('reverting a commit', () => {
  it('commits the undoing on the branch and answers the new commit; again is 400 empty, a changed file 400 conflict', async () => {
    const head = (await call('GET', '/projects/1/repository/commits/main')).json;
    const undone = await call('POST', `/projects/1/repository/commits/${head.id}/revert`, { branch: 'main' });
    expect(undone.status).toBe(201);
    expect(undone.json).toMatchObject({
      title: `Revert "${head.title}"`,
      message: `Revert "${head.title}"\n\nThis reverts commit ${head.id}`,
      parent_ids: [head.id],
    });
    expect((await call('GET', '/projects/1/repository/commits/main')).json.id).toBe(undone.json.id);
    const diff = (await call('GET', `/projects/1/repository/commits/${head.id}/diff`)).json;
    const back = (await call('GET', `/projects/1/repository/commits/${undone.json.id}/diff`)).json;
    expect(back.map((d: { new_path: string }) => d.new_path)).toEqual(
      diff.map((d: { new_path: string }) => d.new_path),
    );
    const message =
      'Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.';
    expect(
      await call('POST', `/projects/1/repository/commits/${head.id}/revert`, { branch: 'main' }),
    ).toMatchObject({
      status: 400,
      json: { message, error_code: 'empty' },
    });
    // The revert undone by hand, then a file it touches changed again: the revert no longer applies.
    const again = await call('POST', `/projects/1/repository/commits/${undone.json.id}/revert`, {
      branch: 'main',
    });
    expect(again.status).toBe(201);
    const path = diff[0].new_path as string;
    await call('PUT', `/projects/1/repository/files/${encodeURIComponent(path)}`, {
      branch: 'main',
      content: 'changed since',
      commit_message: 'edit',
    });
    expect(
      await call('POST', `/projects/1/repository/commits/${head.id}/revert`, { branch: 'main' }),
    ).toMatchObject({
      status: 400,
      json: { message, error_code: 'conflict' },
    });
    expect(
      (
        await call('POST', `/projects/1/repository/commits/${head.id}/revert`, {
          branch: 'main',
          dry_run: true,
        })
      ).status,
    ).toBe(400);
    expect(
      (await call('POST', `/projects/1/repository/commits/${head.id}/revert`, { branch: 'nope' })).json,
    ).toEqual({
      message: '404 Branch Not Found',
    });
    expect(
      (await call('POST', '/projects/1/repository/commits/0000000/revert', { branch: 'main' })).json,
    ).toEqual({
      message: '404 Commit Not Found',
    });
  });

  it('a dry run answers success and commits nothing', async () => {
    const head = (await call('GET', '/projects/1/repository/commits/main')).json;
    const dry = await call('POST', `/projects/1/repository/commits/${head.id}/revert`, {
      branch: 'main',
      dry_run: true,
    });
    expect(dry).toMatchObject({ status: 200, json: { dry_run: 'success' } });
    expect((await call('GET', '/projects/1/repository/commits/main')).json.id).toBe(head.id);
  });
});

describe('creating a release', () => {
  it('answers the release as the instance does, creating its tag from ref, and reads it back', async () => {
    const made = await call('POST', '/projects/1/releases', {
      tag_name: 'v2.0.0',
      ref: 'main',
      description: 'Second release.',
      assets: { links: [{ name: 'Linux binary', url: 'https://example.com/bin', link_type: 'package' }] },
    });
    expect(made.status).toBe(201);
    const main = (await call('GET', '/projects/1/repository/commits/main')).json;
    expect(made.json).toMatchObject({
      tag_name: 'v2.0.0',
      name: 'v2.0.0',
      description: 'Second release.',
      upcoming_release: false,
      author: { username: 'alice' },
      commit: { id: main.id },
      milestones: [],
      tag_path: '/acme/widgets/-/tags/v2.0.0',
      assets: {
        count: 5,
        links: [{ name: 'Linux binary', url: 'https://example.com/bin', link_type: 'package' }],
      },
    });
    expect(made.json.assets.sources.map((x: { format: string }) => x.format)).toEqual([
      'zip',
      'tar.gz',
      'tar.bz2',
      'tar',
    ]);
    expect(made.json.created_at).toBe(made.json.released_at);
    expect(made.json._links.self).toBe(`${sim.url}/acme/widgets/-/releases/v2.0.0`);
    expect((await call('GET', '/projects/1/repository/tags/v2.0.0')).json.target).toBe(main.id);
    expect((await call('GET', '/projects/1/releases/v2.0.0')).json).toEqual(made.json);

    expect((await call('POST', '/projects/1/releases', { tag_name: 'v2.0.0' })).json).toEqual({
      message: 'Release already exists',
    });
    expect(await call('POST', '/projects/1/releases', { tag_name: 'v3.0.0' })).toMatchObject({
      status: 422,
      json: { message: 'Ref is not specified' },
    });
    expect(
      await call('POST', '/projects/1/releases', { tag_name: 'v1.0.0', milestones: ['nope'] }),
    ).toMatchObject({ status: 400, json: { message: 'Milestone(s) not found: nope' } });
    // An existing tag needs no ref; a name given is kept.
    const named = await call('POST', '/projects/1/releases', { tag_name: 'v1.0.0', name: 'One' });
    expect(named.json).toMatchObject({ tag_name: 'v1.0.0', name: 'One' });
  });
});

describe('labels and milestones', () => {
  it('validates a label colour', async () => {
    const bad = await call('POST', '/projects/1/labels', { name: 'x', color: 'not-a-colour' });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ message: { color: ['must be a valid color code'] } });
    expect((await call('POST', '/projects/1/labels', { name: 'x', color: '#ff0000' })).status).toBe(201);
    expect((await call('GET', '/projects/1/labels')).json).toHaveLength(4);
  });

  it('lists milestones and their issues', async () => {
    const ms = await call('GET', '/projects/1/milestones?state=active');
    expect(ms.json.map((m: { title: string }) => m.title)).toEqual(['v1.1']);
    const issues = await call('GET', `/projects/1/milestones/${ms.json[0].id}/issues`);
    expect(issues.json).toHaveLength(2);
  });
});

describe('pipelines and jobs', () => {
  it('lists and gets pipelines with their jobs', async () => {
    const list = await call('GET', '/projects/1/pipelines');
    expect(list.json.map((p: { id: number; status: string }) => [p.id, p.status])).toEqual([
      [103, 'manual'],
      [102, 'failed'],
      [101, 'success'],
    ]);
    const jobs = await call('GET', '/projects/1/pipelines/102/jobs');
    expect(jobs.json.map((j: { name: string; status: string }) => `${j.name}:${j.status}`).sort()).toEqual([
      'build:success',
      'test:failed',
    ]);
    const failed = await call('GET', '/projects/1/jobs?scope[]=failed');
    expect(failed.json).toHaveLength(1);
  });

  it('serves a job log and artifacts', async () => {
    const log = await call('GET', '/projects/1/jobs/1004/trace');
    expect(log.type).toContain('text/plain');
    expect(log.buf.toString().split('\n').length).toBeGreaterThan(300);
    expect(log.buf.toString()).toContain('ERROR: Job failed');
    const art = await call('GET', '/projects/1/jobs/1001/artifacts');
    expect(art.type).toBe('application/octet-stream');
    expect(art.buf.subarray(0, 2).toString()).toBe('PK');
    expect((await call('GET', '/projects/1/jobs/1004/artifacts')).status).toBe(404);
  });

  it('retries, cancels, plays and erases', async () => {
    const retried = await call('POST', '/projects/1/jobs/1004/retry');
    expect(retried.status).toBe(201);
    expect(retried.json).toMatchObject({ name: 'test', status: 'pending' });
    expect((await call('GET', '/projects/1/pipelines/102')).json.status).toBe('pending');
    expect((await call('POST', '/projects/1/pipelines/102/cancel')).json.status).toBe('canceled');
    expect((await call('POST', '/projects/1/jobs/1001/play')).status).toBe(400);
    const played = await call('POST', '/projects/1/jobs/1006/play');
    expect(played.json.status).toBe('pending');
    const erased = await call('POST', '/projects/1/jobs/1001/erase');
    expect(erased.status).toBe(201);
    expect((await call('GET', '/projects/1/jobs/1001/trace')).buf.length).toBe(0);
  });

  it('creates a pipeline and deletes one', async () => {
    const created = await call('POST', '/projects/1/pipeline', { ref: 'main' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ ref: 'main', status: 'pending' });
    expect((await call('POST', '/projects/1/pipeline', { ref: 'nope' })).json).toEqual({
      message: { base: ['Reference not found'] },
    });
    expect((await call('DELETE', '/projects/1/pipelines/101')).status).toBe(204);
    expect((await call('GET', '/projects/1/pipelines/101')).json).toEqual({
      message: '404 Pipeline Not Found',
    });
  });
});
