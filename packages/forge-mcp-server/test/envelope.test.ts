/**
 * The tool invocation envelope and what each surface lists, through a real MCP client over stdio (and
 * loopback HTTP for remote file content) against forge-sim: find's schema is the action's own, the documented
 * aliases on open schemas, the shape of every error result, and the settings that reshape tools/list
 * (FORGE_MCP_META_PARAM_SCHEMA, FORGE_MCP_DESCRIPTION_SUBSTITUTIONS) changing nothing else.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { apiCalls, httpServer, sim, textOf, withStdio, type Connected, type ForgeSim } from './harness.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => s.close());

/** Runs `fn` with a client of a server started with `env`; resolves with fn's value. */
const withClient = async <T>(env: Record<string, string>, fn: (c: Connected) => Promise<T>) =>
  (await withStdio(s, { env }, fn)).value;

type Tool = Awaited<ReturnType<Connected['client']['listTools']>>['tools'][number];
const listed = (env: Record<string, string>) =>
  withClient(env, async (c) => (await c.client.listTools()).tools);
const exec = (c: Connected, action: string, params: Record<string, unknown>, confirm?: boolean) =>
  c.client.callTool({
    name: 'forge_execute_action',
    arguments: { action, params, ...(confirm === undefined ? {} : { confirm }) },
  });

describe('forge_find_action', () => {
  it("gives each match the action's exact parameter schema: the one its individual tool takes", async () => {
    const ids = ['issue.list', 'merge_request.get', 'repository.update_submodule', 'pipeline.create'];
    const individual = new Map(
      (await listed({ FORGE_MCP_TOOL_SURFACE: 'individual' })).map((t) => [t.name, t]),
    );
    const { catalog } = await import('../dist/catalog/index.js');
    await withClient({}, async (c) => {
      for (const id of ids) {
        const found = await c.client.callTool({ name: 'forge_find_action', arguments: { query: id } });
        const match = (found.structuredContent as { matches: Array<{ id: string; schema: unknown }> })
          .matches[0]!;
        expect(match.id).toBe(id);
        const tool = individual.get(catalog().get(id)!.tool)!;
        expect(match.schema, id).toEqual(tool.inputSchema);
        expect(textOf(found)).toContain(`schema: ${JSON.stringify(match.schema)}`);
      }
    });
  });
});

describe('forge_find_action answers', () => {
  it('give the best match its exact schema and the others their parameters in one line, each schema one query away', async () => {
    await withClient({}, async (c) => {
      const found = await c.client.callTool({
        name: 'forge_find_action',
        arguments: { query: 'list open bugs in a project' },
      });
      const matches = (
        found.structuredContent as {
          matches: Array<{
            id: string;
            schema: { properties: Record<string, unknown>; required?: string[] };
          }>;
        }
      ).matches;
      expect(matches.length).toBeGreaterThan(2);
      const t = textOf(found);
      expect(t).toContain(`schema: ${JSON.stringify(matches[0]!.schema)}`);
      for (const m of matches.slice(1)) {
        // structuredContent keeps every exact schema; the text names each parameter, * when required.
        expect(t).not.toContain(JSON.stringify(m.schema));
        const line = t
          .split('\n')
          .find(
            (l) =>
              l.startsWith('   params: ') &&
              l.endsWith(`(exact schema: forge_find_action with query "${m.id}")`),
          );
        expect(line, m.id).toBeDefined();
        for (const [k] of Object.entries(m.schema.properties))
          expect(line, `${m.id} ${k}`).toMatch(
            new RegExp(`(?:: |, )${k}${m.schema.required?.includes(k) ? '\\*' : ''} `),
          );
      }
      // The way given reaches the exact schema.
      const next = await c.client.callTool({
        name: 'forge_find_action',
        arguments: { query: matches[1]!.id },
      });
      expect(textOf(next)).toContain(`schema: ${JSON.stringify(matches[1]!.schema)}`);
    });
  });
});

describe('argument-dependent guards', () => {
  it('issue.work_item_update and project.pull_mirror_configure declare confirm in their own schema', async () => {
    await withClient({}, async (c) => {
      for (const id of ['issue.work_item_update', 'project.pull_mirror_configure']) {
        const found = await c.client.callTool({ name: 'forge_find_action', arguments: { query: id } });
        const match = (
          found.structuredContent as {
            matches: Array<{
              id: string;
              destructive: boolean;
              schema: { properties: Record<string, unknown> };
            }>;
          }
        ).matches[0]!;
        expect(match.id).toBe(id);
        // Not destructive as a whole: the confirm field is the action's own, not the destructive one.
        expect(match.destructive, id).toBe(false);
        expect(match.schema.properties.confirm, id).toMatchObject({ type: 'boolean' });
      }
    });
  });
});

describe('aliases on open schemas', () => {
  const SHA = '3ddec28ea23acc5caa5d8331a6ecb2a65fc03e88';
  const bump = { project_id: '1', submodule: 'vendor/lib', branch: 'main', commit_id: SHA };
  const sentBodies = (since: number) =>
    apiCalls(s, since)
      .filter((q) => q.method === 'PUT' && q.path.endsWith('/repository/submodules/vendor%2Flib'))
      .map((q) => q.body);

  it('commit_id is sent as commit_sha on the dynamic and meta surfaces', async () => {
    await withClient({}, async (c) => {
      const since = s.requests.length;
      const r = await exec(c, 'repository.update_submodule', bump);
      expect(textOf(r)).not.toMatch(/invalid params|commit_id/);
      expect(sentBodies(since)).toEqual([expect.objectContaining({ commit_sha: SHA, branch: 'main' })]);
      expect(JSON.stringify(sentBodies(since))).not.toContain('commit_id');
    });
    await withClient({ FORGE_MCP_TOOL_SURFACE: 'meta' }, async (c) => {
      const since = s.requests.length;
      const r = await c.client.callTool({
        name: 'forge_repository',
        arguments: { action: 'update_submodule', params: bump },
      });
      expect(textOf(r)).not.toMatch(/invalid params|commit_id|missing/);
      expect(sentBodies(since)).toEqual([expect.objectContaining({ commit_sha: SHA })]);
      // mr_iid, the other alias, stands for a required parameter on the meta surface too.
      const mr = await c.client.callTool({
        name: 'forge_merge_request',
        arguments: { action: 'get', params: { project_id: '1', mr_iid: 1 } },
      });
      expect(mr.isError, textOf(mr)).toBeFalsy();
      expect((mr.structuredContent as { iid: number }).iid).toBe(1);
    });
  });

  it('the closed individual schema takes no alias', async () => {
    await withClient({ FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      const since = s.requests.length;
      const r = await c.client.callTool({ name: 'forge_update_repository_submodule', arguments: bump });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^validating "arguments": /);
      expect(textOf(r)).toContain('commit_id');
      expect(sentBodies(since)).toEqual([]);
    });
  });

  it('an action with a parameter named like the alias keeps it', async () => {
    // mr_review.discussion_create has a commit_id of its own and no commit_sha: nothing is renamed.
    await withClient({}, async (c) => {
      const since = s.requests.length;
      await exec(c, 'mr_review.discussion_create', {
        project_id: '1',
        merge_request_iid: 1,
        body: 'x',
        commit_id: SHA,
      });
      const sent = apiCalls(s, since).filter((q) => q.method === 'POST');
      expect(sent).toHaveLength(1);
      expect(JSON.stringify(sent[0]!.body)).toContain(`"commit_id":"${SHA}"`);
      expect(JSON.stringify(sent[0]!.body)).not.toContain('commit_sha');
    });
  });
});

describe('error results', () => {
  /** Exactly one content block, of type text, and no structuredContent. */
  function expectErrorShape(r: Awaited<ReturnType<typeof exec>>, what: string): void {
    expect(r.isError, what).toBe(true);
    expect(r.content, what).toEqual([{ type: 'text', text: expect.any(String) }]);
    expect(r.structuredContent, what).toBeUndefined();
  }

  it('carry exactly one text block and no structuredContent, whatever refused the call', async () => {
    await withClient({}, async (c) => {
      expectErrorShape(await exec(c, 'issue.create', { project_id: '1', titel: 'x' }), 'invalid params');
      expectErrorShape(await exec(c, 'issue.lst', {}), 'unknown action');
      expectErrorShape(await exec(c, 'issue.delete', { project_id: '1', issue_iid: 2 }), 'confirmation');
      expectErrorShape(await exec(c, 'issue.get', { project_id: '1', issue_iid: 99999 }), 'not found');
      s.fault({ path: '/api/v4/projects/1/issues', status: 403, body: { message: '403 Forbidden' } });
      try {
        expectErrorShape(await exec(c, 'issue.list', { project_id: '1' }), 'instance 403');
      } finally {
        s.clearFaults();
      }
    });
    await withClient({ FORGE_MCP_READ_ONLY: 'true' }, async (c) => {
      expectErrorShape(await exec(c, 'issue.create', { project_id: '1', title: 'x' }), 'withheld');
    });
    await withClient({ FORGE_MCP_TOOL_SURFACE: 'individual', FORGE_MCP_SAFE_MODE: 'true' }, async (c) => {
      const r = await c.client.callTool({
        name: 'forge_issue_create',
        arguments: { project_id: '1', title: 'x' },
      });
      expectErrorShape(r, 'safe-mode preview');
    });
  });
});

describe('settings that reshape tools/list', () => {
  /** A tool without its human-facing texts: name, schemas and the other annotations. */
  const shape = (t: Tool) => {
    const { title: _t, description: _d, annotations, ...rest } = t;
    const { title: _at, ...hints } = annotations ?? {};
    return { ...rest, annotations: hints };
  };

  it('FORGE_MCP_META_PARAM_SCHEMA leaves the dynamic and individual tools/list as they are', async () => {
    for (const surface of ['dynamic', 'individual']) {
      const opaque = await listed({ FORGE_MCP_TOOL_SURFACE: surface });
      for (const mode of ['compact', 'full']) {
        const other = await listed({ FORGE_MCP_TOOL_SURFACE: surface, FORGE_MCP_META_PARAM_SCHEMA: mode });
        expect(other, `${surface} with ${mode}`).toEqual(opaque);
      }
    }
  });

  it('FORGE_MCP_DESCRIPTION_SUBSTITUTIONS rewrites titles and descriptions only', async () => {
    const env = { FORGE_MCP_DESCRIPTION_SUBSTITUTIONS: 'action=operation,issue=ticket,Issue=Ticket' };
    for (const surface of ['dynamic', 'meta', 'individual']) {
      const plain = await listed({ FORGE_MCP_TOOL_SURFACE: surface });
      const rewritten = await listed({ ...env, FORGE_MCP_TOOL_SURFACE: surface });
      expect(rewritten.map(shape), surface).toEqual(plain.map(shape));
      const changed = rewritten.filter((t, i) => t.description !== plain[i]!.description);
      expect(changed.length, surface).toBeGreaterThan(0);
      for (const t of rewritten) expect(t.annotations?.title ?? t.title).toBe(t.title);
    }
    const dynamic = await listed({ ...env });
    const find = dynamic.find((t) => t.name === 'forge_find_action')!;
    expect(find.title).toBe('Find an operation');
    expect(find.annotations?.title).toBe('Find an operation');
    const tickets = await listed({ ...env, FORGE_MCP_TOOL_SURFACE: 'individual' });
    const get = tickets.find((t) => t.name === 'forge_issue_get')!;
    expect(`${get.title} ${get.description}`).not.toMatch(/[Ii]ssue/);
    // A schema's own texts are not descriptions of the tool: they stay as written.
    expect(JSON.stringify(get.inputSchema)).toMatch(/issue/);
  });
});

describe('remote file content over HTTP', () => {
  it('content_base64 carries the file: a package upload and a project upload reach the instance', async () => {
    const server = await httpServer(s);
    const client = new Client({ name: 'remote-files', version: '1' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { 'private-token': s.tokens.api } },
        }),
      );
      const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      const call = (action: string, params: Record<string, unknown>) =>
        client.callTool({ name: 'forge_execute_action', arguments: { action, params } });
      let since = s.requests.length;
      const pkg = await call('package.publish', {
        project_id: '1',
        package_name: 'remote-cli',
        package_version: '1.0.0',
        file_name: 'tool.bin',
        content_base64: bytes.toString('base64'),
      });
      expect(pkg.isError, textOf(pkg)).toBeFalsy();
      const put = apiCalls(s, since).filter((q) => q.method === 'PUT');
      expect(put.map((q) => q.path)).toEqual([
        '/api/v4/projects/1/packages/generic/remote-cli/1.0.0/tool.bin',
      ]);
      expect(Buffer.isBuffer(put[0]!.body) && (put[0]!.body as Buffer).equals(bytes)).toBe(true);
      since = s.requests.length;
      const upload = await call('project.upload', {
        project_id: '1',
        content_base64: Buffer.from('remote notes\n').toString('base64'),
        filename: 'notes.txt',
      });
      expect(upload.isError, textOf(upload)).toBeFalsy();
      const post = apiCalls(s, since).filter((q) => q.method === 'POST');
      expect(post.map((q) => q.path)).toEqual(['/api/v4/projects/1/uploads']);
      expect(JSON.stringify(post[0]!.body)).toContain('notes.txt');
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
