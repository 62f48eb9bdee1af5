/**
 * Fine-grained personal access tokens over real stdio against forge-sim: grant-based listing, the two
 * server-given refusals (nothing reaches the instance), the fallback and its one INFO line, and the rules for
 * the instance's own fine-grained answers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiCalls, sim, stdioClient, textOf, type Connected, type ForgeSim } from './harness.js';

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => s.close());
beforeEach(() => s.reset());

async function withClient(env: Record<string, string>, fn: (c: Connected) => Promise<void>): Promise<string> {
  const c = await stdioClient(s, { env: { FORGE_TOKEN: s.tokens.fineGrained, ...env } });
  try {
    await fn(c);
  } finally {
    await c.close();
  }
  return c.stderr();
}

const execute = (c: Connected, action: string, params: Record<string, unknown>) =>
  c.client.callTool({ name: 'forge_execute_action', arguments: { action, params } });

async function individualNames(c: Connected): Promise<string[]> {
  return (await c.client.listTools()).tools.map((t) => t.name);
}

const infoLines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l.includes('"token_kind":"fine-grained"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('listing', () => {
  it('lists what the grant reaches, never the 58 withheld, and always the actions the grant does not judge', async () => {
    const stderr = await withClient({ FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      const names = await individualNames(c);
      expect(names).toContain('forge_issue_list');
      expect(names).toContain('forge_mr_list');
      expect(names).not.toContain('forge_issue_create');
      expect(names).not.toContain('forge_achievement_list');
      expect(names).toContain('forge_list_ci_yml_templates');
    });
    const lines = infoLines(stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, phase: 'B' });
  });

  it('dynamic: find does not offer an action the grant does not reach', async () => {
    await withClient({}, async (c) => {
      const found = await c.client.callTool({
        name: 'forge_find_action',
        arguments: { query: 'create an issue', limit: 20 },
      });
      const ids = (found.structuredContent as { matches: Array<{ id: string }> }).matches.map((m) => m.id);
      expect(ids).not.toContain('issue.create');
      expect(ids).not.toContain('issue.work_item_create');
    });
  });

  it('a classic token is not filtered', async () => {
    const c = await stdioClient(s, { env: { FORGE_MCP_TOOL_SURFACE: 'individual' } });
    try {
      const names = await individualNames(c);
      expect(names).toContain('forge_issue_create');
      expect(names).toContain('forge_achievement_list');
      expect(infoLines(c.stderr())).toHaveLength(0);
    } finally {
      await c.close();
    }
  });
});

describe('server-given refusals', () => {
  it('the grant does not reach it: names the permission, its boundary and release; nothing is sent', async () => {
    await withClient({}, async (c) => {
      const since = s.requests.length;
      const r = await execute(c, 'issue.create', { project_id: '1', title: 'x' });
      expect(r.isError).toBe(true);
      const text = textOf(r);
      expect(text).toMatch(/^forge_execute_action: issue\.create exists but this fine-grained token's grant/);
      expect(text).toContain('Work Item: Create at the project boundary');
      expect(text).toContain('release 19.4.1');
      expect(text).toContain('create a fine-grained token granting Work Item: Create');
      expect(text).toContain('classic token with the api scope');
      expect(text).toMatch(/Do not report this capability as missing: [^.]*\.$/);
      expect(apiCalls(s, since)).toEqual([]);
    });
  });

  it('no fine-grained token can reach it: names the declaration and the classic scope; nothing is sent', async () => {
    await withClient({}, async (c) => {
      const since = s.requests.length;
      const read = await execute(c, 'achievement.list', { full_path: 'acme' });
      expect(read.isError).toBe(true);
      expect(textOf(read)).toMatch(
        /^forge_execute_action: achievement\.list exists but no fine-grained token can reach it at instance release 19\.4\.1: the type Namespace on its answer path declares no fine-grained permission/,
      );
      expect(textOf(read)).toContain('classic token with the read_api scope');
      expect(textOf(read)).not.toContain('not evaluated');
      const write = await execute(c, 'group.epic_create', { group_path: 'acme', title: 'x' });
      expect(textOf(write)).toContain('never resolves to the boundary');
      expect(textOf(write)).toContain('classic token with the api scope');
      expect(textOf(write)).toMatch(/Do not report this capability as missing: [^.]*\.$/);
      expect(apiCalls(s, since)).toEqual([]);
    });
  });

  it('a classic token runs the same calls', async () => {
    const c = await stdioClient(s);
    try {
      const r = await execute(c, 'issue.create', { project_id: '1', title: 'x' });
      expect(r.isError).toBeFalsy();
    } finally {
      await c.close();
    }
  });
});

describe('fallback when the grant cannot be evaluated', () => {
  it('grant unreadable: withholds only the 58, runs the rest, one INFO line naming the reason', async () => {
    s.fault({ path: '/api/v4/personal_access_tokens/8', status: 500 });
    const stderr = await withClient({ FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      const names = await individualNames(c);
      expect(names).toContain('forge_issue_create');
      expect(names).not.toContain('forge_achievement_list');
    });
    const lines = infoLines(stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, phase: 'A', reason: 'grant-unreadable' });
    expect(stderr).not.toContain(s.tokens.fineGrained);
    expect(JSON.stringify(lines[0])).not.toMatch(/project_ids|"8"|:8\b/);
  });

  it('the refusal of a withheld action says why the grant was not evaluated', async () => {
    s.fault({ path: '/api/v4/version', status: 503 });
    const stderr = await withClient({}, async (c) => {
      const since = s.requests.length;
      const r = await execute(c, 'achievement.list', { full_path: 'acme' });
      expect(textOf(r)).toContain("the instance's version could not be read");
      expect(textOf(r)).toMatch(/Do not report this capability as missing: [^.]*\.$/);
      // A call the grant would not reach goes to the instance, which answers for itself.
      const w = await execute(c, 'issue.create', { project_id: '1', title: 'x' });
      expect(w.isError).toBe(true);
      expect(textOf(w)).not.toContain('exists but');
      expect(apiCalls(s, since).map((q) => q.path)).toEqual(['/api/v4/projects/1/issues']);
    });
    expect(infoLines(stderr)).toEqual([expect.objectContaining({ reason: 'version-unreadable' })]);
  });

  it('a release outside the record falls back (version-outside-record)', async () => {
    s.fault({ path: '/api/v4/version', status: 200, body: { version: '19.6.2-ee', revision: 'x' } });
    const stderr = await withClient({ FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      expect(await individualNames(c)).toContain('forge_issue_create');
    });
    expect(infoLines(stderr)).toEqual([
      expect.objectContaining({ phase: 'A', reason: 'version-outside-record' }),
    ]);
  });

  it('19.5.0-pre lists by the grant but passes every call the fallback allows', async () => {
    s.fault({ path: '/api/v4/version', status: 200, body: { version: '19.5.0-pre', revision: 'x' } });
    await withClient({ FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      const names = await individualNames(c);
      expect(names).not.toContain('forge_issue_create');
      expect(names).toContain('forge_issue_list');
    });
    await withClient({}, async (c) => {
      const since = s.requests.length;
      const r = await execute(c, 'issue.create', { project_id: '1', title: 'x' });
      expect(textOf(r)).not.toContain('exists but');
      expect(apiCalls(s, since)).toHaveLength(1);
      const w = await execute(c, 'achievement.list', { full_path: 'acme' });
      expect(textOf(w)).toContain('no fine-grained token can reach it');
      expect(apiCalls(s, since)).toHaveLength(1);
    });
  });
});
