/**
 * Fine-grained personal access tokens over real stdio against forge-sim: grant-based listing, the two
 * server-given refusals (nothing reaches the instance), the fallback and its one INFO line, and the rules for
 * the instance's own fine-grained answers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiCalls, sim, stdioClient, textOf, until, type Connected, type ForgeSim } from './harness.js';

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
    expect(lines[0]).toMatchObject({ level: 'info', phase: 'B' });
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

describe('token kind learning', () => {
  it('kind unknown at start (self answered 503): served like a classic token, learned on the first successful call', async () => {
    s.fault({ path: '/api/v4/personal_access_tokens/self', status: 503, times: 1 });
    const stderr = await withClient({ FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      expect(await individualNames(c)).toContain('forge_achievement_list');
      const r = await c.client.callTool({ name: 'forge_issue_list', arguments: { project_id: '1' } });
      expect(r.isError).toBeFalsy();
      let names: string[] = [];
      for (let i = 0; i < 50; i++) {
        names = await individualNames(c);
        if (!names.includes('forge_achievement_list')) break;
        await new Promise((done) => setTimeout(done, 100));
      }
      expect(names).not.toContain('forge_achievement_list');
      expect(names).not.toContain('forge_issue_create');
      expect(names).toContain('forge_issue_list');
    });
    expect(infoLines(stderr)).toEqual([expect.objectContaining({ phase: 'B' })]);
  });

  it('kind unknown at start, learned classic on the first successful call: the narrowing decided earlier (none) is kept', async () => {
    const token = s.addToken({ kind: 'personal', scopes: ['read_api'] });
    s.fault({ path: '/api/v4/personal_access_tokens/self', status: 503, times: 1 });
    await withClient({ FORGE_TOKEN: token, FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      // Served like a classic token whose scopes are unknown: writes listed although the token is read_api.
      expect(await individualNames(c)).toContain('forge_issue_create');
      const since = s.requests.length;
      const r = await c.client.callTool({ name: 'forge_issue_list', arguments: { project_id: '1' } });
      expect(r.isError).toBeFalsy();
      // The successful call has the token's description asked again, and it answers: classic, read_api.
      await until(
        () =>
          s.requests
            .slice(since)
            .some(
              (q) =>
                q.path === '/api/v4/personal_access_tokens/self' && q.token === token && q.status === 200,
            ),
        'the token description asked again',
      );
      // The listing stays as decided at the start, however often it is asked after.
      for (let i = 0; i < 10; i++) {
        expect(await individualNames(c)).toContain('forge_issue_create');
        await new Promise((done) => setTimeout(done, 50));
      }
    });
  });

  it('kind unknown at start, learned classic below the minimum: from then on every catalog method is answered -40300', async () => {
    const token = s.addToken({ kind: 'personal', scopes: ['read_user'] });
    s.fault({ path: '/api/v4/personal_access_tokens/self', status: 503, times: 1 });
    await withClient({ FORGE_TOKEN: token }, async (c) => {
      // Served like a classic token: the identity check (GET /user) answers a read_user token.
      expect((await c.client.listTools()).tools.length).toBeGreaterThan(0);
      const me = await execute(c, 'user.current', {});
      expect(me.isError).toBeFalsy();
      const refused = async (method: string, ask: () => Promise<unknown>) => {
        try {
          await ask();
        } catch (err) {
          return { method, code: (err as { code?: number }).code, message: (err as Error).message };
        }
        return { method, code: undefined, message: 'answered' };
      };
      await until(
        async () => (await refused('tools/list', () => c.client.listTools())).code === -40300,
        'the refusal',
        20_000,
      );
      const since = s.requests.length;
      const answers = [
        await refused('tools/list', () => c.client.listTools()),
        await refused('tools/call', () => execute(c, 'issue.list', { project_id: '1' })),
        await refused('resources/list', () => c.client.listResources()),
        await refused('resources/templates/list', () => c.client.listResourceTemplates()),
        await refused('prompts/list', () => c.client.listPrompts()),
      ];
      for (const a of answers) {
        expect(a, a.method).toMatchObject({ code: -40300 });
        expect(a.message, a.method).toContain(
          'carries neither the api nor the read_api scope (it has: read_user)',
        );
      }
      expect(apiCalls(s, since)).toEqual([]);
    });
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

  it('meta and individual surfaces answer with the same text, without the execute prefix', async () => {
    await withClient({ FORGE_MCP_TOOL_SURFACE: 'meta' }, async (c) => {
      const since = s.requests.length;
      const r = await c.client.callTool({
        name: 'forge_issue',
        arguments: { action: 'create', params: { project_id: '1', title: 'x' } },
      });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^issue\.create exists but this fine-grained token's grant/);
      const listed = (await c.client.listTools()).tools.find((t) => t.name === 'forge_issue')!;
      expect(listed.description).not.toMatch(/^- create:/m);
      expect(apiCalls(s, since)).toEqual([]);
    });
    await withClient({ FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      const since = s.requests.length;
      expect((await c.client.listTools()).tools.map((t) => t.name)).not.toContain('forge_issue_create');
      const r = await c.client.callTool({
        name: 'forge_issue_create',
        arguments: { project_id: '1', title: 'x' },
      });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^issue\.create exists but this fine-grained token's grant/);
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
    expect(lines[0]).toMatchObject({ level: 'info', phase: 'A', reason: 'grant-unreadable' });
    expect(stderr).not.toContain(s.tokens.fineGrained);
    expect(JSON.stringify(lines[0])).not.toMatch(/project_ids|"8"|:8\b/);
  });

  it('unknown permission names: falls back, the INFO line names at most three, cut to 64 bytes', async () => {
    const long = 'z'.repeat(80);
    s.fault({
      path: '/api/v4/personal_access_tokens/8',
      status: 200,
      body: {
        id: 8,
        granular_scopes: [
          { access: 'user', permissions: ['read_user', long, 'fly_a', 'fly_b', 'fly_c'] },
          { access: 'selected_memberships', project_ids: [1], permissions: ['read_work_item'] },
        ],
      },
    });
    const stderr = await withClient({ FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      expect(await individualNames(c)).toContain('forge_issue_create');
    });
    const lines = infoLines(stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      phase: 'A',
      reason: 'grant-unreadable',
      unknown_permissions: ['z'.repeat(64), 'fly_a', 'fly_b'],
    });
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

  it('a version string over 64 bytes is unreadable: falls back (version-unreadable)', async () => {
    const long = `19.4.1-${'x'.repeat(58)}`;
    expect(Buffer.byteLength(long)).toBe(65);
    s.fault({ path: '/api/v4/version', status: 200, body: { version: long, revision: 'x' } });
    const stderr = await withClient({ FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      expect(await individualNames(c)).toContain('forge_issue_create');
    });
    expect(infoLines(stderr)).toEqual([
      expect.objectContaining({ phase: 'A', reason: 'version-unreadable' }),
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

describe("the instance's fine-grained answers", () => {
  const GRANT = '/api/v4/personal_access_tokens/8';
  const ROLE_HINT = /maintainer or owner|higher role|licen[cs]e|single sign-on/i;

  it('REST 403 insufficient_granular_scope: access denied naming what the action needs, no role hint', async () => {
    await withClient({}, async (c) => {
      const r = await execute(c, 'issue.list', { project_id: '2' });
      expect(r.isError).toBe(true);
      const text = textOf(r);
      expect(text).toMatch(
        /^issue\.list: access denied: this fine-grained token's grant does not allow this request/,
      );
      expect(text).toContain('Work Item: Read at the project boundary');
      expect(text).toContain('GET http');
      expect(text).not.toMatch(ROLE_HINT);
    });
  });

  it('a route hint never follows a fine-grained refusal', async () => {
    s.fault({ path: GRANT, status: 500 });
    await withClient({}, async (c) => {
      const r = await execute(c, 'group.saml_link_list', { group_id: '10' });
      expect(textOf(r)).toContain("this fine-grained token's grant does not allow this request");
      expect(textOf(r)).not.toMatch(ROLE_HINT);
    });
    const classic = await stdioClient(s, { env: { FORGE_TOKEN: s.tokens.readApi } });
    try {
      // The same action with a classic token keeps its hint.
      s.fault({ path: '/api/v4/groups/10/saml_group_links', status: 403 });
      const r = await execute(classic, 'group.saml_link_list', { group_id: '10' });
      expect(textOf(r)).toMatch(/single sign-on/);
    } finally {
      await classic.close();
    }
  });

  it("'Requires a fine-grained token with project permissions [..]': three causes, no change, the way out", async () => {
    s.fault({
      path: '/api/v4/projects/2/issues',
      status: 403,
      body: {
        message: '403 Forbidden - Requires a fine-grained token with project permissions [read_work_item]',
      },
    });
    s.fault({
      path: '/api/v4/projects/1/merge_requests',
      status: 403,
      body: {
        message: '403 Forbidden - Requires a fine-grained token with project permissions [read_pipeline]',
      },
    });
    await withClient({}, async (c) => {
      const text = textOf(await execute(c, 'issue.list', { project_id: '2' }));
      expect(text).toMatch(
        /^issue\.list: access denied: this fine-grained token does not hold read_work_item/,
      );
      expect(text).toContain('its grant lacks it');
      expect(text).toContain('only for other projects or groups');
      expect(text).toContain('the user is not a member of this project');
      expect(text).toContain('cannot be changed');
      expect(text).toContain(
        'new fine-grained token granting read_work_item for this project or a group above it',
      );
      expect(text).toContain(
        'or use a classic token with the read_api scope where the group does not refuse classic tokens',
      );
      expect(text).toContain("This session's grant holds read_work_item for other projects");
      expect(text).not.toMatch(ROLE_HINT);
      const other = textOf(await execute(c, 'merge_request.list', { project_id: '1' }));
      expect(other).toContain('does not hold read_pipeline');
      expect(other).not.toContain("This session's grant holds");
    });
  });

  it("'Fine-grained tokens not yet supported': the feature flag, a classic token or the administrator", async () => {
    s.fault({
      path: '/api/v4/projects/1/issues',
      status: 403,
      body: { message: 'Fine-grained tokens not yet supported' },
    });
    await withClient({}, async (c) => {
      const text = textOf(await execute(c, 'issue.list', { project_id: '1' }));
      expect(text).toMatch(
        /^issue\.list: access denied: fine-grained tokens are not yet supported for this user \(the granular_personal_access_tokens feature flag is disabled\)/,
      );
      expect(text).toContain(
        'Suggestion: use a classic token with the read_api scope, or ask the instance administrator to enable fine-grained tokens',
      );
      expect(text).not.toMatch(ROLE_HINT);
    });
  });

  describe('GraphQL (grant not evaluated, so the calls reach the instance)', () => {
    beforeEach(() => s.fault({ path: GRANT, status: 500 }));

    it("'Operation does not support fine-grained tokens': no permission declared, use a classic token", async () => {
      await withClient({}, async (c) => {
        const text = textOf(
          await execute(c, 'vulnerability.confirm', { id: 'gid://gitlab/Vulnerability/1' }),
        );
        expect(text).toMatch(
          /^vulnerability\.confirm: access denied: this operation declares no fine-grained permission/,
        );
        expect(text).toContain('classic token with the api scope');
        expect(text).not.toContain('probably committed');
      });
    });

    it("a null mutation field with the instance's sentence, read whole among joined messages", async () => {
      s.fault({
        graphqlOperation: 'vulnerabilityDismiss',
        status: 200,
        body: {
          data: { vulnerabilityDismiss: null },
          errors: [
            {
              message:
                'Something else; Access denied: Your Personal Access Token lacks the required permissions for this request.',
            },
          ],
        },
      });
      await withClient({}, async (c) => {
        const text = textOf(
          await execute(c, 'vulnerability.dismiss', { id: 'gid://gitlab/Vulnerability/1' }),
        );
        expect(text).toMatch(
          /^vulnerability\.dismiss: access denied: this fine-grained token's grant does not allow/,
        );
        expect(text).toContain('Vulnerability: Update');
        // The instance's sentence is read whole, beside the message it was joined to.
        expect(text).toContain(
          'Something else; Access denied: Your Personal Access Token lacks the required permissions for this request.',
        );
      });
    });

    it("'Requires a fine-grained token with project permissions [..]' inside GraphQL errors is read the same way", async () => {
      s.fault({
        graphqlOperation: 'vulnerabilityConfirm',
        status: 200,
        body: {
          data: { vulnerabilityConfirm: null },
          errors: [
            {
              message:
                'Requires a fine-grained token with project permissions [update_vulnerability, read_vulnerability]',
            },
          ],
        },
      });
      await withClient({}, async (c) => {
        const text = textOf(
          await execute(c, 'vulnerability.confirm', { id: 'gid://gitlab/Vulnerability/1' }),
        );
        expect(text).toMatch(
          /^vulnerability\.confirm: access denied: this fine-grained token does not hold update_vulnerability, read_vulnerability for this project/,
        );
        expect(text).not.toContain('probably committed');
        expect(text).not.toContain("This session's grant holds");
      });
    });

    it.each([
      ['vulnerability.resolve', 'vulnerabilityResolve', 'vulnerabilityResolve', 'vulnerability'],
      ['vulnerability.dismiss', 'vulnerabilityDismiss', 'vulnerabilityDismiss', 'vulnerability'],
      ['vulnerability.confirm', 'vulnerabilityConfirm', 'vulnerabilityConfirm', 'vulnerability'],
      [
        'vulnerability.revert',
        'vulnerabilityRevertToDetected',
        'vulnerabilityRevertToDetected',
        'vulnerability',
      ],
      ['group.epic_note_update', 'mutationUpdateNote', 'updateNote', 'note'],
      ['group.epic_discussion_update_note', 'mutationUpdateNote', 'updateNote', 'note'],
    ])(
      '%s: a write whose object the grant cannot read is probably committed, do not repeat it',
      async (id, operation, field) => {
        const { catalog } = await import('../dist/catalog/index.js');
        s.fault({
          graphqlOperation: operation,
          status: 200,
          body: { data: { [operation]: { [field]: null, errors: [] } } },
        });
        await withClient({}, async (c) => {
          const r = await execute(c, id, catalog().get(id)!.example);
          expect(r.isError).toBe(true);
          expect(textOf(r)).toContain('the write was probably committed');
          expect(textOf(r)).toContain('Do not repeat the call');
        });
      },
    );

    it('404 inside GraphQL errors: not found, the token may not see it, with the visibility note', async () => {
      s.fault({
        graphqlOperation: 'vulnerability',
        status: 200,
        body: { data: null, errors: [{ message: '404 Not Found' }] },
      });
      await withClient({}, async (c) => {
        const text = textOf(await execute(c, 'vulnerability.get', { id: 'gid://gitlab/Vulnerability/1' }));
        expect(text).toMatch(
          /^vulnerability\.get: not found: the object does not exist, or this fine-grained token may not see it/,
        );
        expect(text).toContain('Empty or not found may mean not visible');
      });
    });

    it('an empty answer of a GraphQL-reading action carries the note', async () => {
      s.fault({ graphqlOperation: 'vulnerability', status: 200, body: { data: { vulnerability: null } } });
      await withClient({}, async (c) => {
        const r = await execute(c, 'vulnerability.get', { id: 'gid://gitlab/Vulnerability/1' });
        expect(textOf(r)).toContain('Empty or not found may mean not visible');
      });
    });
  });

  it('classic tokens never get these notes', async () => {
    s.fault({ graphqlOperation: 'vulnerability', status: 200, body: { data: { vulnerability: null } } });
    s.fault({
      graphqlOperation: 'vulnerabilityResolve',
      status: 200,
      body: { data: { vulnerabilityResolve: { vulnerability: null, errors: [] } } },
    });
    const c = await stdioClient(s);
    try {
      const empty = await execute(c, 'vulnerability.get', { id: 'gid://gitlab/Vulnerability/1' });
      expect(textOf(empty)).not.toContain('may mean not visible');
      const w = await execute(c, 'vulnerability.resolve', { id: 'gid://gitlab/Vulnerability/1' });
      expect(textOf(w)).not.toContain('probably committed');
      s.clearFaults();
      s.fault({
        graphqlOperation: 'vulnerability',
        status: 200,
        body: { data: null, errors: [{ message: '404 Not Found' }] },
      });
      const nf = await execute(c, 'vulnerability.get', { id: 'gid://gitlab/Vulnerability/1' });
      expect(textOf(nf)).not.toContain('fine-grained');
      expect(textOf(nf)).not.toContain('may mean not visible');
    } finally {
      await c.close();
    }
  });
});
