/**
 * Resources under forge:// over real stdio against forge-sim: the lists, every template read through the
 * matching action, the tools manifest (withheld entries in the refusal's own words), the minimal capability
 * surface, the exclude list, and bad URIs refused before anything reaches the instance.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  answeredWithin,
  apiCalls,
  httpServer,
  sim,
  withStdio,
  textOf,
  uncountedPage40,
  type Connected,
  type ForgeSim,
} from './harness.js';

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => s.close());
beforeEach(() => s.reset());

const withClient = async <T>(env: Record<string, string>, fn: (c: Connected) => Promise<T>) =>
  (await withStdio(s, { env }, fn)).value;

type Contents = { uri: string; mimeType?: string; text?: string };
async function read(c: Connected, uri: string) {
  const r = await c.client.readResource({ uri });
  const first = r.contents[0] as Contents;
  return { r, first, json: first.mimeType === 'application/json' ? JSON.parse(first.text!) : undefined };
}

async function readError(c: Connected, uri: string): Promise<{ code: number; message: string }> {
  try {
    await c.client.readResource({ uri });
  } catch (e) {
    return e as { code: number; message: string };
  }
  throw new Error(`${uri} was read`);
}

const PAGE = 'io.github.forge-mcp-server/pageInfo';
const P = 'forge://project/1';

describe('lists', () => {
  it('full surface: the manifest, three static resources and five guides; 36 object templates and the manifest entry', async () => {
    await withClient({}, async (c) => {
      const uris = (await c.client.listResources()).resources.map((r) => r.uri);
      expect(uris).toEqual([
        'forge://tools',
        'forge://user/current',
        'forge://groups',
        'forge://workspace/roots',
        'forge://guides/git-workflow',
        'forge://guides/merge-request-hygiene',
        'forge://guides/conventional-commits',
        'forge://guides/code-review',
        'forge://guides/pipeline-troubleshooting',
      ]);
      const templates = (await c.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
      expect(templates).toHaveLength(37);
      expect(templates).toContain('forge://tools/{id}');
      expect(templates).toContain(`forge://project/{project_id}/file/{ref}/{+path}`);
      const guide = await read(c, 'forge://guides/code-review');
      expect(guide.first.mimeType).toBe('text/markdown');
      expect(guide.first.text).toMatch(/^# Code review/);
    });
  });

  it("the manifest names the templates a client may subscribe to: every listed one (each is polled), the grant's only", async () => {
    await withClient({}, async (c) => {
      const templates = (await c.client.listResourceTemplates()).resourceTemplates
        .map((t) => t.uriTemplate)
        .filter((t) => t !== 'forge://tools/{id}');
      const manifest = (await read(c, 'forge://tools')).json;
      expect(manifest.subscriptions.subscribable_uri_templates).toEqual(templates);
      expect(templates).toHaveLength(36);
      // Each of them says so itself; the manifest entry's template (nothing of it changes) does not.
      for (const t of (await c.client.listResourceTemplates()).resourceTemplates)
        expect(t._meta?.['io.github.forge-mcp-server/subscribable'], t.uriTemplate).toBe(
          t.uriTemplate === 'forge://tools/{id}' ? undefined : true,
        );
    });
    await withClient({ FORGE_TOKEN: s.tokens.fineGrained }, async (c) => {
      const { subscribable_uri_templates: names } = (await read(c, 'forge://tools')).json.subscriptions;
      expect(names).toContain('forge://project/{project_id}/issue/{issue_iid}');
      expect(names).not.toContain('forge://project/{project_id}/pipelines/latest');
    });
  });

  it('every action a guide names exists, with the parameters the guide says to send', async () => {
    await withClient({}, async (c) => {
      const guides = (await c.client.listResources()).resources.filter((r) =>
        r.uri.startsWith('forge://guides/'),
      );
      expect(guides).toHaveLength(5);
      let named = 0;
      for (const g of guides) {
        const text = (await read(c, g.uri)).first.text!;
        for (const [, id, param] of text.matchAll(/`([a-z_]+\.[a-z_]+)`(?: with `([a-z_]+)`)?/g)) {
          named++;
          const entry = (await read(c, `forge://tools/${id}`)).json;
          if (param) expect(Object.keys(entry.input_schema.properties), `${g.uri}: ${id}`).toContain(param);
        }
      }
      expect(named).toBeGreaterThan(5);
    });
  });

  it('minimal capability surface: only the tools manifest; no prompts, no guides, other URIs refused unsent', async () => {
    await withClient({ FORGE_MCP_CAPABILITY_SURFACE: 'minimal' }, async (c) => {
      expect((await c.client.listResources()).resources.map((r) => r.uri)).toEqual(['forge://tools']);
      expect((await c.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
        'forge://tools/{id}',
      ]);
      expect(c.client.getServerCapabilities()?.prompts).toBeUndefined();
      expect(c.client.getServerCapabilities()?.completions).toBeUndefined();
      const before = apiCalls(s).length;
      const e = await readError(c, 'forge://guides/code-review');
      expect(e.message).toContain('FORGE_MCP_CAPABILITY_SURFACE=minimal');
      expect((await readError(c, `${P}/issues`)).message).toContain('keeps only forge://tools');
      expect(apiCalls(s).length).toBe(before);
      const manifest = (await read(c, 'forge://tools')).json;
      expect(manifest.count).toBeGreaterThan(900);
      // No subscriptions on this surface: the manifest names no template to subscribe to.
      expect(manifest.subscriptions).toEqual({ subscribable_uri_templates: [] });
    });
  });
});

describe('the client’s roots', () => {
  it('forge://workspace/roots asks the client with roots/list and gives its answer; a client without roots is not asked', async () => {
    const asked: unknown[] = [];
    const roots = [{ uri: 'file:///home/alice/widgets', name: 'widgets' }];
    await withStdio(s, { capabilities: { roots: { listChanged: false } } }, async (c) => {
      c.client.setRequestHandler('roots/list', async (req) => {
        asked.push(req.method);
        return { roots };
      });
      const { first, json } = await read(c, 'forge://workspace/roots');
      expect(first.uri).toBe('forge://workspace/roots');
      expect(json).toEqual({ roots });
      expect(asked).toEqual(['roots/list']);
    });
    await withClient({}, async (c) => {
      expect((await read(c, 'forge://workspace/roots')).json).toEqual({
        roots: [],
        note: 'the client declared no roots capability',
      });
    });
  });
});

describe('the client’s roots from 2026-07-28 on', () => {
  const roots = [{ uri: 'file:///home/alice/widgets', name: 'widgets' }];
  const answering = (client: Client, asked: string[]) =>
    client.setRequestHandler('roots/list', async (req) => {
      asked.push(req.method);
      return { roots };
    });

  it('over stdio the read asks the client for its roots within the request and gives its answer', async () => {
    const asked: string[] = [];
    await withStdio(s, { modern: true, capabilities: { roots: {} } }, async (c) => {
      answering(c.client, asked);
      expect((await read(c, 'forge://workspace/roots')).json).toEqual({ roots });
    });
    expect(asked).toEqual(['roots/list']);
    await withStdio(s, { modern: true }, async (c) => {
      expect((await read(c, 'forge://workspace/roots')).json).toEqual({
        roots: [],
        note: 'the client declared no roots capability',
      });
    });
  });

  it('over stateless HTTP too, where the server could never send roots/list of its own', async () => {
    const server = await httpServer(s);
    const client = new Client(
      { name: 'ide', version: '1' },
      { capabilities: { roots: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const asked: string[] = [];
    answering(client, asked);
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { authorization: `Bearer ${s.tokens.api}` } },
        }),
      );
      const r = await client.readResource({ uri: 'forge://workspace/roots' });
      expect(JSON.parse((r.contents[0] as Contents).text!)).toEqual({ roots });
      expect(asked).toEqual(['roots/list']);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});

describe('over HTTP', () => {
  it('a stateful 2025 session and a stateless 2026-07-28 client each list, read, get a prompt and complete', async () => {
    const server = await httpServer(s, ['--stateless=false']);
    const clients: Client[] = [];
    try {
      for (const modern of [false, true]) {
        const client = new Client(
          { name: modern ? 'modern' : 'legacy', version: '1' },
          modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
        );
        clients.push(client);
        await client.connect(
          new StreamableHTTPClientTransport(new URL(server.url), {
            requestInit: { headers: { authorization: `Bearer ${s.tokens.api}` } },
          }),
        );
        const era = modern ? '2026-07-28' : '2025';
        expect((await client.listResourceTemplates()).resourceTemplates, era).toHaveLength(37);
        const issue = await client.readResource({ uri: 'forge://project/acme%2Fwidgets/issue/1' });
        expect(JSON.parse((issue.contents[0] as Contents).text!), era).toMatchObject({ iid: 1 });
        const prompt = await client.getPrompt({ name: 'my_issues' });
        expect((prompt.messages[0].content as { text: string }).text, era).toMatch(
          /^# Open issues assigned to you \(2\)/,
        );
        const done = await client.complete({
          ref: { type: 'ref/prompt', name: 'review_mr' },
          argument: { name: 'project_id', value: 'wid' },
        });
        expect(done.completion, era).toEqual({ values: ['acme/widgets'], total: 1, hasMore: false });
      }
    } finally {
      for (const c of clients) await c.close();
      await server.stop();
    }
  });
});

describe('a collection read a page at a time', () => {
  /** Opens issues in project 1 through the instance's own API, so the open issues fill more than one page. */
  async function openIssues(n: number) {
    for (let i = 0; i < n; i++) {
      const res = await fetch(`${s.url}/api/v4/projects/1/issues`, {
        method: 'POST',
        headers: { 'private-token': s.tokens.api, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Paging ${i}` }),
      });
      expect(res.status).toBe(201);
    }
  }

  it("a keyset list's page names the URI of the next one (its cursor), and reading it walks to the second page", async () => {
    await openIssues(100);
    await withClient({}, async (c) => {
      const since = s.requests.length;
      const first = await read(c, `${P}/issues`);
      expect(first.json).toHaveLength(100);
      const info = first.r._meta?.[PAGE] as { next?: string };
      expect(info).toEqual({ returned: 100, complete: false, next: expect.any(String) });
      const next = new URL(info.next!);
      expect(`${next.protocol}//${next.host}${next.pathname}`).toBe(`${P}/issues`);
      expect([...next.searchParams.keys()]).toEqual(['cursor']);

      const second = await read(c, info.next!);
      expect(second.first.uri).toBe(info.next);
      expect(second.json.length).toBeGreaterThan(0);
      expect(second.r._meta?.[PAGE]).toEqual({ returned: second.json.length, complete: false });
      const ids = (items: Array<{ id: number }>) => items.map((i) => i.id);
      expect(ids(second.json).filter((id) => ids(first.json).includes(id))).toEqual([]);
      expect(second.json.every((i: { state: string }) => i.state === 'opened')).toBe(true);

      // Both reads asked the instance by keyset, the second with the cursor the first named.
      const sent = apiCalls(s, since).map((q) => q.query as Record<string, string>);
      expect(sent).toHaveLength(2);
      expect(sent[0]).toMatchObject({ state: 'opened', per_page: '100', pagination: 'keyset' });
      expect(sent[0]).not.toHaveProperty('cursor');
      expect(sent[1]).toMatchObject({
        state: 'opened',
        per_page: '100',
        pagination: 'keyset',
        cursor: next.searchParams.get('cursor'),
      });

      // The same pages by number: the first names ?page=2 (and the total the instance counts), which holds the
      // same issues as the keyset's second page.
      const total = 100 + second.json.length;
      const one = await read(c, `${P}/issues?page=1`);
      expect(ids(one.json)).toEqual(ids(first.json));
      expect(one.r._meta?.[PAGE]).toEqual({
        returned: 100,
        total,
        complete: false,
        next: `${P}/issues?page=2`,
      });
      const two = await read(c, `${P}/issues?page=2`);
      expect(ids(two.json)).toEqual(ids(second.json));
      expect(two.r._meta?.[PAGE]).toEqual({ returned: second.json.length, total, complete: false });
      const byNumber = apiCalls(s, since).slice(2);
      expect(byNumber.map((q) => q.query)).toEqual([
        expect.objectContaining({ page: '1', per_page: '100' }),
        expect.objectContaining({ page: '2', per_page: '100' }),
      ]);
      for (const q of byNumber) expect(q.query).not.toHaveProperty('pagination');
    });
  });

  it('the groups are read by page number too', async () => {
    await withClient({}, async (c) => {
      // One page holds every group: no next, complete.
      const groups = await read(c, 'forge://groups');
      const total = groups.json.length;
      expect(groups.r._meta?.[PAGE]).toEqual({ returned: total, total, complete: true });
      const again = await read(c, 'forge://groups?page=2');
      expect(again.json).toEqual([]);
      // Page 2 does not exist: the empty list says where the collection ends, not that there are no groups.
      expect(again.r._meta?.[PAGE]).toEqual({
        returned: 0,
        total,
        complete: false,
        pages: 1,
        last_page: 'forge://groups',
        note: `Page 2 is past the end: this collection has ${total} items on 1 page; its last page is forge://groups.`,
      });
      expect(s.requests.at(-1)!.query).toMatchObject({ page: '2', per_page: '100' });
    });
  });

  it("a page past a collection's end answers an empty list whose page info names the page count and the last page", async () => {
    await openIssues(100);
    await withClient({}, async (c) => {
      const first = await read(c, `${P}/issues?page=1`);
      const total = (first.r._meta?.[PAGE] as { total: number }).total;
      expect(total).toBeGreaterThan(100);
      expect(total).toBeLessThanOrEqual(200);
      const past = await read(c, `${P}/issues?page=5`);
      expect(past.json).toEqual([]);
      expect(past.r._meta?.[PAGE]).toEqual({
        returned: 0,
        total,
        complete: false,
        pages: 2,
        last_page: `${P}/issues?page=2`,
        note: `Page 5 is past the end: this collection has ${total} items on 2 pages; its last page is ${P}/issues?page=2.`,
      });
      // The last page it names is where the items end.
      const last = await read(c, `${P}/issues?page=2`);
      expect(last.json).toHaveLength(total - 100);
      expect(last.r._meta?.[PAGE]).not.toHaveProperty('note');
    });
  });

  it('a page past the end of an empty collection says the collection is empty', async () => {
    await withClient({}, async (c) => {
      const past = await read(c, 'forge://project/3/milestones?page=2');
      expect(past.json).toEqual([]);
      expect(past.r._meta?.[PAGE]).toEqual({
        returned: 0,
        total: 0,
        complete: false,
        last_page: 'forge://project/3/milestones',
        note: 'Page 2 is past the end: this collection is empty (the instance counts 0 items).',
      });
    });
  });

  it('a page past the end of a collection the instance does not count (no x-total-pages) still says it is past the end', async () => {
    // A large collection: the instance leaves out x-total and x-total-pages and answers a page past the end empty.
    uncountedPage40(s, '/api/v4/projects/1/labels');
    await withClient({}, async (c) => {
      const past = await read(c, `${P}/labels?page=40`);
      expect(past.json).toEqual([]);
      expect(past.r._meta?.[PAGE]).toEqual({
        returned: 0,
        complete: false,
        note: `Page 40 is past the end: the collection ends before it (the instance does not say how many pages it has). Read ${P}/labels and follow pageInfo.next to the last page.`,
      });
    });
  });

  it('a query naming anything but the page is refused before anything is sent', async () => {
    await withClient({}, async (c) => {
      const before = apiCalls(s).length;
      const bad = await readError(c, `${P}/issues?state=closed`);
      expect(bad.code).toBe(-32602);
      expect(bad.message).toContain(
        `${P}/issues?state=closed: a collection's URI takes in its query only the page its pageInfo.next names (one of page, cursor); got "state". Read the URI without a query for the first page.`,
      );
      const word = await readError(c, `${P}/labels?page=two`);
      expect(word.message).toContain(
        `${P}/labels?page=two: page must be a whole number (for example 2); got "two".`,
      );
      expect(apiCalls(s).length).toBe(before);
    });
  });
});

describe('templates read through the matching action', () => {
  it('every template answers its object from the instance', async () => {
    // The seeded project has a tag and no release: one is made, as a maintainer would.
    const made = await fetch(`${s.url}/api/v4/projects/1/releases`, {
      method: 'POST',
      headers: { 'private-token': s.tokens.api, 'content-type': 'application/json' },
      body: JSON.stringify({ tag_name: 'v1.0.0' }),
    });
    expect(made.status).toBe(201);
    await withClient({}, async (c) => {
      const latest = (await read(c, `${P}/pipelines/latest`)).json;
      const jobs = await read(c, `${P}/pipeline/${latest.id}/jobs`);
      const jobId = jobs.json[0].id;
      const objects: Array<[string, Record<string, unknown>]> = [
        [P, { path_with_namespace: 'acme/widgets' }],
        ['forge://project/acme%2Fwidgets', { id: 1 }],
        [`${P}/commit/main`, { short_id: expect.any(String) }],
        [
          `${P}/wiki/home`,
          {
            slug: 'home',
            title: 'home',
            format: 'markdown',
            content: expect.stringContaining('[getting started](getting-started)'),
          },
        ],
        [`${P}/branch/feature%2Flogin`, { name: 'feature/login' }],
        [`${P}/tag/v1.0.0`, { name: 'v1.0.0' }],
        [`${P}/release/v1.0.0`, { name: 'v1.0.0' }],
        [`${P}/label/bug`, { name: 'bug' }],
        [`${P}/milestone/1`, { title: 'v1.1' }],
        [`${P}/board/1`, { id: 1 }],
        [`${P}/deployment/1`, { id: 1 }],
        [`${P}/environment/1`, { id: 1 }],
        [`${P}/job/${jobId}`, { id: jobId }],
        [`${P}/feature_flag/dark-mode`, { name: 'dark-mode' }],
        [`${P}/deploy_key/1`, { id: 1 }],
        [`${P}/snippet/1`, { id: 1 }],
        [`${P}/issue/1`, { title: 'Login button does nothing' }],
        [`${P}/mr/1`, { title: 'Add login form' }],
        [`${P}/pipeline/${latest.id}`, { id: latest.id }],
        ['forge://group/10', { path: 'acme' }],
        ['forge://group/10/label/bug', { id: 1 }],
        ['forge://group/10/milestone/1', { id: 1 }],
        ['forge://snippet/1', { id: 1 }],
        ['forge://user/current', { username: 'alice' }],
      ];
      for (const [uri, want] of objects) {
        const { first, json } = await read(c, uri);
        expect(first.uri, uri).toBe(uri);
        expect(json, uri).toMatchObject(want);
      }
      const collections: Array<[string, (items: Array<Record<string, unknown>>) => void]> = [
        [`${P}/members`, (i) => expect(i.map((m) => m.username)).toEqual(['alice', 'bob'])],
        [`${P}/labels`, (i) => expect(i.map((m) => m.name)).toContain('bug')],
        [`${P}/milestones`, (i) => expect(i.map((m) => m.title)).toContain('v1.1')],
        [`${P}/branches`, (i) => expect(i.map((m) => m.name)).toContain('feature/login')],
        [`${P}/issues`, (i) => expect(i.every((m) => m.state === 'opened')).toBe(true)],
        [`${P}/releases`, (i) => expect(i.map((m) => m.tag_name)).toEqual(['v1.0.0'])],
        [`${P}/tags`, (i) => expect(i.map((m) => m.name)).toEqual(['v1.0.0'])],
        [`${P}/mr/1/notes`, (i) => expect(i.length).toBeGreaterThan(0)],
        [`${P}/mr/1/discussions`, (i) => expect(i[0].notes).toBeDefined()],
        [`${P}/pipeline/${latest.id}/jobs`, (i) => expect(i.map((m) => m.name)).toContain('build')],
        ['forge://group/10/members', (i) => expect(i.length).toBeGreaterThan(0)],
        ['forge://group/10/projects', (i) => expect(i.length).toBeGreaterThan(0)],
        ['forge://groups', (i) => expect(i.map((m) => m.path)).toContain('acme')],
      ];
      for (const [uri, check] of collections) {
        const { r, json } = await read(c, uri);
        check(json);
        expect(r._meta?.[PAGE], uri).toEqual({ returned: json.length, total: json.length, complete: true });
      }
      // The issue list asked the instance for open issues, one page of at most 100.
      const sent = s.requests.find((q) => q.path === '/api/v4/projects/1/issues');
      expect(sent?.query).toMatchObject({ state: 'opened', per_page: '100' });
    });
  });

  it('a file at a ref: reserved expansion keeps the path, the content decoded as text', async () => {
    await withClient({}, async (c) => {
      const { first, r } = await read(c, `${P}/file/main/README.md`);
      expect(first.mimeType).toBe('text/plain');
      expect(first.text).toMatch(/^# Widgets/);
      expect(r._meta?.['io.github.forge-mcp-server/file']).toMatchObject({
        file_path: 'README.md',
        binary: false,
      });
      expect(s.requests.some((q) => q.path === '/api/v4/projects/1/repository/files/README.md')).toBe(true);
    });
  });

  it("a group milestone is named by its IID: the instance is asked for the group's milestone with that IID", async () => {
    await withClient({}, async (c) => {
      const since = s.requests.length;
      const { json } = await read(c, 'forge://group/acme/milestone/2');
      expect(json).toMatchObject({ iid: 2, group_id: 10 });
      const sent = apiCalls(s, since);
      expect(sent.map((q) => [q.path, q.query])).toEqual([
        ['/api/v4/groups/acme/milestones', { 'iids[]': '2' }],
      ]);
      const e = (await readError(c, 'forge://group/acme/milestone/99')) as {
        code: number;
        message: string;
        data?: unknown;
      };
      expect(e.code).toBe(-32602);
      expect(e.message).toBe(
        'forge://group/acme/milestone/99: no group milestone has IID 99, or this token cannot see it. Its list (the group.group_milestone_list action) names the IIDs there are.',
      );
      expect(e.data).toEqual({ uri: 'forge://group/acme/milestone/99' });
    });
  });

  it('a text file over 1 MiB gives its first MiB cut at a line, marked truncated; a binary one is left empty', async () => {
    const line = `${'x'.repeat(1099)}\n`;
    const put = async (path: string, body: Record<string, unknown>) => {
      const res = await fetch(`${s.url}/api/v4/projects/1/repository/files/${encodeURIComponent(path)}`, {
        method: 'POST',
        headers: { 'private-token': s.tokens.api, 'content-type': 'application/json' },
        body: JSON.stringify({ branch: 'main', commit_message: path, ...body }),
      });
      expect(res.status).toBe(201);
    };
    await put('big/huge.txt', { content: line.repeat(1000) });
    await put('img/a.png', {
      content: Buffer.from([0x89, 0x50, 0, 1, 255]).toString('base64'),
      encoding: 'base64',
    });
    await withClient({}, async (c) => {
      const big = await read(c, `${P}/file/main/big/huge.txt`);
      expect(big.first.mimeType).toBe('text/plain');
      const kept = Math.floor((1024 * 1024) / line.length) * line.length;
      expect(big.first.text).toBe(line.repeat(kept / line.length));
      expect(big.r._meta?.['io.github.forge-mcp-server/file']).toMatchObject({
        file_path: 'big/huge.txt',
        size: line.length * 1000,
        binary: false,
        truncated: true,
        returned_bytes: kept,
        note: `The first ${kept} of ${line.length * 1000} bytes, cut at a line's end; the whole file is too large for one read.`,
      });
      const png = await read(c, `${P}/file/main/img/a.png`);
      expect(png.first).toMatchObject({ mimeType: 'application/octet-stream', text: '' });
      expect(png.r._meta?.['io.github.forge-mcp-server/file']).toMatchObject({ binary: true });
    });
  });

  it('a text file over 1 MiB with no line end in its first MiB is cut after its last whole character, and says so', async () => {
    // Minified text of three-byte characters: 1 MiB ends one byte into a character.
    const res = await fetch(
      `${s.url}/api/v4/projects/1/repository/files/${encodeURIComponent('dist/app.min.txt')}`,
      {
        method: 'POST',
        headers: { 'private-token': s.tokens.api, 'content-type': 'application/json' },
        body: JSON.stringify({ branch: 'main', commit_message: 'min', content: '€'.repeat(400_000) }),
      },
    );
    expect(res.status).toBe(201);
    await withClient({}, async (c) => {
      const min = await read(c, `${P}/file/main/dist/app.min.txt`);
      expect(min.first.mimeType).toBe('text/plain');
      expect(min.first.text).toBe('€'.repeat(349_525));
      expect(min.r._meta?.['io.github.forge-mcp-server/file']).toMatchObject({
        truncated: true,
        returned_bytes: 1_048_575,
        note: 'The first 1048575 of 1200000 bytes, cut after a whole character (no line ends within the first MiB); the whole file is too large for one read.',
      });
    });
  });

  it('a read_api token reads objects; the manifest withholds writes in the refusal’s own words', async () => {
    await withClient({ FORGE_TOKEN: s.tokens.readApi }, async (c) => {
      expect((await read(c, `${P}/issue/1`)).json.iid).toBe(1);
      const entry = (await read(c, 'forge://tools/issue.create')).json;
      const call = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.create', params: { project_id: '1', title: 'x' } },
      });
      expect(entry.withheld.reason).toBe('scope');
      expect(textOf(call)).toBe(`forge_execute_action: ${entry.withheld.message}`);
      expect(entry).toMatchObject({ id: 'issue.create', read_only: false, destructive: false });
      const manifest = (await read(c, 'forge://tools')).json;
      expect(manifest.tools.find((t: { id: string }) => t.id === 'issue.create').withheld).toBe('scope');
      expect(manifest.tools.find((t: { id: string }) => t.id === 'issue.list').withheld).toBeUndefined();
    });
  });

  it('every manifest entry carries a fine_grained block and a withheld block, null when the session may run it', async () => {
    await withClient({ FORGE_TOKEN: s.tokens.readApi }, async (c) => {
      const runnable = (await read(c, 'forge://tools/issue.list')).json;
      expect(runnable.withheld).toBeNull();
      expect(runnable.fine_grained).toMatchObject({ judged: true, reach: 'yes', any_of: expect.any(Array) });
      const refused = (await read(c, 'forge://tools/issue.create')).json;
      expect(refused.withheld).toMatchObject({ reason: 'scope', message: expect.any(String) });
      expect(refused.fine_grained).toMatchObject({ judged: expect.any(Boolean) });
      // An action the grant table does not judge (a runner-token route) still has its block.
      const unjudged = (await read(c, 'forge://tools/runner.delete_by_token')).json;
      expect(unjudged.fine_grained).toMatchObject({ judged: false });
      expect(Object.keys(unjudged)).toEqual(expect.arrayContaining(['fine_grained', 'withheld']));
    });
  });

  it('a fine-grained grant: the lists offer only the resources, templates and prompts whose reads the grant reaches', async () => {
    await withClient({ FORGE_TOKEN: s.tokens.fineGrained }, async (c) => {
      const templates = (await c.client.listResourceTemplates()).resourceTemplates.map((t) => t.name);
      expect(templates).toEqual([
        'tool_manifest_entry',
        'project',
        'project_milestones',
        'project_issues',
        'project_milestone',
        'board',
        'issue',
        'merge_request',
        'merge_request_notes',
        'merge_request_discussions',
        'group_projects',
        'group_milestone',
      ]);
      // The manifest says why the others are not offered: the grant does not reach their actions.
      for (const id of ['pipeline.latest', 'branch.list', 'repository.file_get', 'group.list'])
        expect((await read(c, `forge://tools/${id}`)).json.withheld, id).toMatchObject({
          reason: 'fine_grained',
        });
      const resources = (await c.client.listResources()).resources.map((r) => r.uri);
      expect(resources).toContain('forge://user/current');
      expect(resources).not.toContain('forge://groups');
      const prompts = (await c.client.listPrompts()).prompts.map((p) => p.name);
      expect(prompts).toContain('review_mr');
      expect(prompts).not.toContain('summarize_pipeline_status');
      expect(prompts).not.toContain('audit_branch_protection');
    });
  });

  it('a fine-grained grant: a read the grant does not reach is refused in its words and nothing is sent', async () => {
    await withClient({ FORGE_TOKEN: s.tokens.fineGrained }, async (c) => {
      expect((await read(c, `${P}/issue/1`)).json.iid).toBe(1);
      const before = apiCalls(s).length;
      const e = await readError(c, `${P}/pipelines/latest`);
      const entry = (await read(c, 'forge://tools/pipeline.latest')).json;
      expect(entry.withheld.reason).toBe('fine_grained');
      expect(e.message).toBe(`${P}/pipelines/latest: ${entry.withheld.message}`);
      expect(e.message).toContain("fine-grained token's grant does not reach it");
      expect(apiCalls(s).length).toBe(before);
      expect(entry.fine_grained).toMatchObject({ judged: true, any_of: expect.any(Array) });
    });
  });

  it('a tier above the instance’s: the manifest entry says so in the words a call gets', async () => {
    await withClient({ FORGE_MCP_TIER: 'free' }, async (c) => {
      const entry = (await read(c, 'forge://tools/audit_event.list_project')).json;
      expect(entry.withheld).toMatchObject({ reason: 'tier', needs: 'premium' });
      expect(entry.call).toEqual({
        tool: 'forge_execute_action',
        arguments: { action: 'audit_event.list_project', params: { project_id: '<project_id>' } },
      });
      expect(entry.withheld.message).toContain('needs the premium tier');
      const before = apiCalls(s).length;
      const call = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'audit_event.list_project', params: { project_id: '1' } },
      });
      expect(textOf(call)).toBe(`forge_execute_action: ${entry.withheld.message}`);
      expect(apiCalls(s).length).toBe(before);
    });
  });

  it('the manifest entry gives the call shape of the session’s surface and the input schema', async () => {
    await withClient({ FORGE_MCP_TOOL_SURFACE: 'meta' }, async (c) => {
      const entry = (await read(c, 'forge://tools/issue.get')).json;
      expect(entry.call).toEqual({
        tool: 'forge_issue',
        arguments: { action: 'get', params: { project_id: '<project_id>', issue_iid: '<issue_iid>' } },
      });
      expect(entry.input_schema.required).toEqual(['project_id', 'issue_iid']);
      expect(entry).toMatchObject({ read_only: true, destructive: false, surface: 'meta' });
      expect((await read(c, 'forge://tools/project.delete')).json.destructive).toBe(true);
    });
  });

  it('the exclude list removes the templates, manifest entries and prompts of what it names', async () => {
    await withClient({ FORGE_MCP_EXCLUDE_TOOLS: 'merge_request,mr_review' }, async (c) => {
      const templates = (await c.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
      expect(templates.some((t) => t.includes('/mr/'))).toBe(false);
      expect(templates).toContain('forge://project/{project_id}/issue/{issue_iid}');
      const before = apiCalls(s).length;
      expect((await readError(c, `${P}/mr/1`)).message).toContain('Unknown resource');
      expect((await readError(c, 'forge://tools/merge_request.get')).message).toContain('No action');
      // The manifest lists none of the excluded actions.
      const ids = (await read(c, 'forge://tools')).json.tools.map((t: { id: string }) => t.id);
      expect(ids).toContain('issue.get');
      expect(ids.filter((id: string) => id.startsWith('merge_request.'))).toEqual([]);
      const prompts = (await c.client.listPrompts()).prompts.map((p) => p.name);
      expect(prompts).not.toContain('review_mr');
      expect(prompts).toContain('audit_project_settings');
      expect(prompts).not.toContain('stale_items_report');
      expect(apiCalls(s).length).toBe(before);
    });
  });
});

describe('bad URIs: a JSON-RPC error saying what to send, nothing sent to the instance', () => {
  it('unknown forge:// URI, a variable escaping its path, a malformed number', async () => {
    await withClient({}, async (c) => {
      const before = s.requests.length;
      const unknown = await readError(c, 'forge://nowhere/1');
      expect(unknown.code).toBe(-32602);
      expect(unknown.message).toContain('Send a URI from resources/list');
      const escape = await readError(c, `${P}/file/main/docs%2F..%2F..%2Fsecrets`);
      expect(escape.code).toBe(-32602);
      expect(escape.message).toContain('leaves its place in the path');
      const dots = await readError(c, `${P}/file/main/../../etc/passwd`);
      expect(dots.message).toContain('leaves its place in the path');
      const word = await readError(c, `${P}/issue/first`);
      expect(word.message).toContain('issue_iid must be a whole number');
      expect(s.requests.length).toBe(before);
    });
  });

  it("a project's or group's path written with bare slashes: the error names the URI it was meant to be", async () => {
    await withClient({}, async (c) => {
      const before = s.requests.length;
      const meant: Array<[string, string]> = [
        ['forge://project/acme/widgets', 'forge://project/acme%2Fwidgets'],
        ['forge://project/acme/widgets/issue/1', 'forge://project/acme%2Fwidgets/issue/1'],
        [
          'forge://project/acme/platform/tools/file/main/src/a.js',
          'forge://project/acme%2Fplatform%2Ftools/file/main/src/a.js',
        ],
        ['forge://group/acme/platform/projects', 'forge://group/acme%2Fplatform/projects'],
      ];
      for (const [uri, want] of meant) {
        const e = (await readError(c, uri)) as { code: number; message: string; data?: unknown };
        expect(e.code, uri).toBe(-32602);
        expect(e.message, uri).toBe(
          `Unknown resource ${uri}. A project's or group's path goes into the URI encoded, each '/' as %2F: read ${want}.`,
        );
        expect(e.data).toEqual({ uri });
      }
      // A branch's name holding '/' after the path, encoded or not: the name is encoded too, never the whole URI
      // read as one project's path.
      const names: Array<[string, string, string]> = [
        [
          'forge://project/acme%2Fwidgets/branch/feature/login',
          "A name holding '/' (a branch, a tag) goes",
          'forge://project/acme%2Fwidgets/branch/feature%2Flogin',
        ],
        [
          'forge://project/acme/widgets/branch/feature/login',
          "A project's or group's path, and a name holding '/' (a branch, a tag), go",
          'forge://project/acme%2Fwidgets/branch/feature%2Flogin',
        ],
      ];
      for (const [uri, what, want] of names)
        expect((await readError(c, uri)).message, uri).toBe(
          `Unknown resource ${uri}. ${what} into the URI encoded, each '/' as %2F: read ${want}.`,
        );
      // A URI no encoding makes readable keeps the general answer.
      expect((await readError(c, 'forge://project/acme//widgets')).message).toContain(
        'Send a URI from resources/list',
      );
      expect(s.requests.length).toBe(before);
      // A file read at a ref holding '/' written bare: the instance has no such file, and the error names the URI
      // that reads it at that ref.
      const file = 'forge://project/acme%2Fwidgets/file/feature/login/src/login.js';
      const missing = (await readError(c, file)) as { code: number; message: string };
      expect(missing.code).toBe(-32602);
      expect(missing.message).toMatch(
        /\n\nA ref holding '\/' \(a branch such as feature\/login\) goes into the URI encoded, each '\/' as %2F: if the ref is "feature\/login", read forge:\/\/project\/acme%2Fwidgets\/file\/feature%2Flogin\/src\/login\.js\.$/,
      );
      expect(
        (
          await c.client.readResource({
            uri: 'forge://project/acme%2Fwidgets/file/feature%2Flogin/src/login.js',
          })
        ).contents[0],
      ).toMatchObject({ mimeType: 'text/plain' });
      // And the URIs named read.
      expect((await read(c, 'forge://project/acme%2Fwidgets/issue/1')).json.iid).toBe(1);
      expect((await read(c, 'forge://project/acme%2Fwidgets/branch/feature%2Flogin')).json.name).toBe(
        'feature/login',
      );
    });
  });

  it('a URI of a great many bare-slash segments is answered at once, not in time growing with its square', async () => {
    await withClient({}, async (c) => {
      const uri = `forge://project/${'x/'.repeat(200_000)}issue/1`;
      const answered = readError(c, uri);
      const first = await answeredWithin(answered);
      expect((first as { message: string }).message).toContain('Send a URI from resources/list');
    });
  }, 60_000);

  it('a missing object is a resource-not-found error carrying the URI', async () => {
    await withClient({}, async (c) => {
      const e = (await readError(c, `${P}/issue/999`)) as { code: number; message: string; data?: unknown };
      expect(e.code).toBe(-32602);
      expect(e.message).toContain('Not Found');
      expect(e.data).toEqual({ uri: `${P}/issue/999` });
    });
  });
});
