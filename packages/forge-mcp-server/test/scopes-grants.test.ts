/**
 * What a token's scopes and a fine-grained grant let a session reach, over real stdio (and loopback HTTP)
 * against forge-sim: FORGE_MCP_IGNORE_SCOPES and what it never lifts, the order of the destructive-call
 * decision for a withheld action, the access levels of a grant and the permission pairings of the table, each
 * asserting from forge-sim's request log what reached the instance.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  apiCalls,
  httpServer,
  rpc,
  sim,
  textOf,
  withStdio,
  type Connected,
  type ForgeSim,
} from './harness.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => s.close());
beforeEach(() => s.reset());

/** Runs `fn` with a client of a server started with `env`; resolves with the server's stderr. */
const withClient = async (env: Record<string, string>, fn: (c: Connected) => Promise<void>) =>
  (await withStdio(s, { env }, fn)).stderr;

const execute = (c: Connected, action: string, params: Record<string, unknown>, confirm?: boolean) =>
  c.client.callTool({
    name: 'forge_execute_action',
    arguments: { action, params, ...(confirm === undefined ? {} : { confirm }) },
  });
const names = async (c: Connected) => (await c.client.listTools()).tools.map((t) => t.name);
const ADMIN_TOOLS = [
  'forge_admin',
  'forge_enterprise_user',
  'forge_project_alias',
  'forge_geo',
  'forge_storage_move',
];
const IGNORE = { FORGE_MCP_IGNORE_SCOPES: 'true' };

/** A fine-grained token whose grant holds the identity permissions and `work` on project 1. */
function fineGrained(work: Array<Record<string, unknown>>): string {
  return s.addToken({
    granularScopes: [
      { access: 'user', permissions: ['read_user', 'read_personal_access_token', 'read_namespace'] },
      { access: 'instance', permissions: ['read_metadata'] },
      ...work,
    ],
  });
}
const fineGrainedLines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l.includes('"token_kind":"fine-grained"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('FORGE_MCP_IGNORE_SCOPES', () => {
  it('offers the administration groups to a token without admin_mode (no scope narrows the catalog)', async () => {
    await withClient({ FORGE_MCP_TOOL_SURFACE: 'meta' }, async (c) => {
      const listed = await names(c);
      for (const t of ADMIN_TOOLS) expect(listed).not.toContain(t);
    });
    await withClient({ ...IGNORE, FORGE_MCP_TOOL_SURFACE: 'meta' }, async (c) => {
      const listed = await names(c);
      for (const t of ADMIN_TOOLS) expect(listed).toContain(t);
    });
    await withClient(IGNORE, async (c) => {
      const since = s.requests.length;
      const r = await execute(c, 'admin.app_statistics_get', {});
      expect(textOf(r)).not.toMatch(/admin_mode/);
      expect(apiCalls(s, since).map((q) => q.path)).toEqual(['/api/v4/application/statistics']);
    });
  });

  it('read_user, repository and registry scopes add nothing: a token with only them is below the minimum', async () => {
    const token = s.addToken({
      kind: 'personal',
      scopes: ['read_user', 'read_repository', 'write_repository', 'read_registry', 'write_registry'],
    });
    await withClient({ FORGE_TOKEN: token }, async (c) => {
      const since = s.requests.length;
      await expect(c.client.listTools()).rejects.toThrow(/-40300|neither the api nor the read_api/);
      expect(apiCalls(s, since)).toEqual([]);
    });
  });

  it('never lifts the read_api minimum: a token with neither read_api nor api is still refused (stdio and HTTP)', async () => {
    for (const token of [s.tokens.mcpOnly, s.tokens.noScope]) {
      await withClient({ ...IGNORE, FORGE_TOKEN: token }, async (c) => {
        const since = s.requests.length;
        await expect(c.client.listTools()).rejects.toThrow(/-40300|neither the api nor the read_api/);
        await expect(execute(c, 'issue.list', { project_id: '1' })).rejects.toThrow(/-40300|read_api/);
        expect(apiCalls(s, since)).toEqual([]);
      });
    }
    const server = await httpServer(s, ['--ignore-scopes']);
    try {
      const since = s.requests.length;
      const res = await rpc(
        server.url,
        { 'private-token': s.tokens.noScope },
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      );
      expect(res.status).toBe(403);
      expect(JSON.stringify(await res.json())).toContain('-40300');
      expect(apiCalls(s, since)).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('never lifts a fine-grained grant: what the grant does not reach stays withheld, nothing sent', async () => {
    const stderr = await withClient(
      { ...IGNORE, FORGE_TOKEN: s.tokens.fineGrained, FORGE_MCP_TOOL_SURFACE: 'individual' },
      async (c) => {
        const listed = await names(c);
        expect(listed).toContain('forge_issue_list');
        expect(listed).not.toContain('forge_issue_create');
        expect(listed).not.toContain('forge_achievement_list');
        const since = s.requests.length;
        const r = await c.client.callTool({
          name: 'forge_issue_create',
          arguments: { project_id: '1', title: 'x' },
        });
        expect(r.isError).toBe(true);
        expect(textOf(r)).toMatch(
          /^issue\.create exists but this fine-grained token's grant does not reach it/,
        );
        expect(apiCalls(s, since)).toEqual([]);
      },
    );
    expect(fineGrainedLines(stderr)).toEqual([expect.objectContaining({ phase: 'B' })]);
  });
});

describe('destructive call decision: an action withheld from the session is refused first', () => {
  const DELETE = { project_id: '1', issue_iid: 2 };
  const SCOPE =
    /^forge_execute_action: issue\.delete exists but is withheld: the token's scopes \(read_api\) do not allow it/;

  it.each([
    ['safe mode', { FORGE_MCP_SAFE_MODE: 'true' }, undefined],
    ['YOLO mode', { FORGE_MCP_YOLO_MODE: 'true' }, undefined],
    ['AUTOPILOT', { AUTOPILOT: '1' }, undefined],
    ['confirm=true', {}, true],
  ] as const)(
    'a read_api token: withheld, never a preview or a confirmation, with %s',
    async (_n, env, confirm) => {
      await withClient({ ...env, FORGE_TOKEN: s.tokens.readApi }, async (c) => {
        const since = s.requests.length;
        const r = await execute(c, 'issue.delete', DELETE, confirm);
        expect(r.isError).toBe(true);
        expect(textOf(r)).toMatch(SCOPE);
        expect(textOf(r)).not.toMatch(/Safe mode blocked|Confirm /);
        expect(apiCalls(s, since)).toEqual([]);
      });
    },
  );

  it('a fine-grained grant without the permission: refused by the grant under safe mode, YOLO or confirm', async () => {
    for (const [env, confirm] of [
      [{ FORGE_MCP_SAFE_MODE: 'true' }, undefined],
      [{ FORGE_MCP_YOLO_MODE: 'true' }, true],
    ] as const) {
      await withClient({ ...env, FORGE_TOKEN: s.tokens.fineGrained }, async (c) => {
        const since = s.requests.length;
        const r = await execute(c, 'issue.delete', DELETE, confirm);
        expect(textOf(r)).toMatch(
          /^forge_execute_action: issue\.delete exists but this fine-grained token's grant does not reach it/,
        );
        expect(apiCalls(s, since)).toEqual([]);
      });
    }
  });
});

describe('fine-grained access levels', () => {
  it('personal_projects and all_memberships are read as grants at the project boundary', async () => {
    const personal = fineGrained([{ access: 'personal_projects', permissions: ['read_work_item'] }]);
    let stderr = await withClient(
      { FORGE_TOKEN: personal, FORGE_MCP_TOOL_SURFACE: 'individual' },
      async (c) => {
        const listed = await names(c);
        expect(listed).toContain('forge_issue_list');
        expect(listed).not.toContain('forge_mr_list');
      },
    );
    expect(fineGrainedLines(stderr)).toEqual([expect.objectContaining({ phase: 'B' })]);
    const all = fineGrained([{ access: 'all_memberships', permissions: ['read_merge_request'] }]);
    stderr = await withClient({ FORGE_TOKEN: all, FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      const listed = await names(c);
      expect(listed).toContain('forge_mr_list');
      expect(listed).not.toContain('forge_issue_list');
      const since = s.requests.length;
      const r = await c.client.callTool({ name: 'forge_mr_list', arguments: { project_id: '1' } });
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(apiCalls(s, since).map((q) => q.path)).toEqual(['/api/v4/projects/1/merge_requests']);
    });
    expect(fineGrainedLines(stderr)).toEqual([expect.objectContaining({ phase: 'B' })]);
  });

  it('an access level outside the five is not evaluated: the session falls back (phase A)', async () => {
    const odd = fineGrained([{ access: 'everything', permissions: ['read_work_item'] }]);
    const stderr = await withClient({ FORGE_TOKEN: odd, FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      // The fallback withholds only what no fine-grained token reaches.
      expect(await names(c)).toContain('forge_mr_list');
    });
    expect(fineGrainedLines(stderr)).toEqual([
      expect.objectContaining({ phase: 'A', reason: 'grant-unreadable' }),
    ]);
  });

  it('selected_memberships naming a group covers the projects under it: their calls are sent', async () => {
    // Group 10 is acme; project 1 (acme/widgets) lies under it and is not listed itself.
    const token = fineGrained([
      { access: 'selected_memberships', project_ids: [10], permissions: ['read_work_item'] },
    ]);
    await withClient({ FORGE_TOKEN: token }, async (c) => {
      const since = s.requests.length;
      const r = await execute(c, 'issue.list', { project_id: 'acme/widgets' });
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(apiCalls(s, since).map((q) => `${q.path} ${q.status}`)).toEqual([
        '/api/v4/projects/acme%2Fwidgets/issues 200',
      ]);
    });
  });

  it('every listed id is a scope of its own: 1000 are evaluated, 1001 are not', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    for (const [count, phase] of [
      [998, 'B'],
      [999, 'A'],
    ] as const) {
      // Two more scopes (user, instance) beside the listed ids: 1000 and 1001 in all.
      const token = fineGrained([
        { access: 'selected_memberships', project_ids: ids(count), permissions: ['read_work_item'] },
      ]);
      const stderr = await withClient({ FORGE_TOKEN: token }, async () => {});
      expect(fineGrainedLines(stderr), `${count} ids`).toEqual([expect.objectContaining({ phase })]);
    }
  });
});

describe('fine-grained permission table pairings', () => {
  it('issue and merge-request notes need Work Item: Create; merge-request discussions Merge Request: Create', async () => {
    const reader = fineGrained([
      {
        access: 'selected_memberships',
        project_ids: [1],
        permissions: ['read_work_item', 'read_merge_request', 'create_merge_request'],
      },
    ]);
    await withClient({ FORGE_TOKEN: reader }, async (c) => {
      const since = s.requests.length;
      for (const [action, params] of [
        ['issue.note_create', { project_id: '1', issue_iid: 1, body: 'x' }],
        ['mr_review.note_create', { project_id: '1', merge_request_iid: 1, body: 'x' }],
      ] as const) {
        const r = await execute(c, action, params);
        expect(textOf(r), action).toContain('Work Item: Create at the project boundary');
      }
      expect(apiCalls(s, since)).toEqual([]);
    });
    const writer = fineGrained([
      {
        access: 'selected_memberships',
        project_ids: [1],
        permissions: ['read_work_item', 'read_merge_request', 'create_work_item'],
      },
    ]);
    await withClient({ FORGE_TOKEN: writer, FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      const { catalog } = await import('../dist/catalog/index.js');
      const tool = (id: string) => catalog().get(id)!.tool;
      const listed = await names(c);
      expect(listed).toContain(tool('issue.note_create'));
      expect(listed).toContain(tool('mr_review.note_create'));
      expect(listed).not.toContain(tool('mr_review.discussion_create'));
      const since = s.requests.length;
      const r = await c.client.callTool({
        name: tool('mr_review.discussion_create'),
        arguments: { project_id: '1', merge_request_iid: 1, body: 'x' },
      });
      expect(textOf(r)).toContain('Merge Request: Create at the project boundary');
      expect(apiCalls(s, since)).toEqual([]);
    });
  });
});
