/**
 * The server's spine through a real MCP client over real stdio pipes, against forge-sim: discovery,
 * the three surfaces, a find-then-execute, a create-then-get round trip, the argument error texts and
 * the error shapes of the instance's answers.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls, sim, stdioClient, textOf, type Connected, type ForgeSim } from './harness.js';

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => {
  await s.close();
});

describe('dynamic surface over stdio (legacy era)', () => {
  let c: Connected;
  beforeAll(async () => {
    c = await stdioClient(s);
  });
  afterAll(async () => c.close());
  afterEach(() => s.clearFaults());

  it('never writes the token to its logs, even at debug level', async () => {
    await c.client.callTool({
      name: 'forge_execute_action',
      arguments: { action: 'issue.list', params: { project_id: '1' } },
    });
    expect(c.stderr()).toContain('"level":"debug"');
    expect(c.stderr()).not.toContain(s.tokens.api);
  });

  it('answers initialize with the server identity and lists exactly two tools', async () => {
    expect(c.client.getServerVersion()?.name).toBe('forge-mcp-server');
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['forge_find_action', 'forge_execute_action']);
    const exec = tools.find((t) => t.name === 'forge_execute_action')!;
    expect(exec.inputSchema.additionalProperties).toBe(false);
    // What a find answers, as its text gives it.
    expect(tools.find((t) => t.name === 'forge_find_action')!.description).toContain(
      'Returns the best matches, the first with its exact parameter schema and the others with their parameters in one line (query an ID for its exact schema)',
    );
    expect(exec.annotations?.openWorldHint).toBe(true);
  });

  it('finds issue.list, then executes it with pagination surfaced', async () => {
    const found = await c.client.callTool({
      name: 'forge_find_action',
      arguments: { query: 'list issues of a project' },
    });
    const matches = (
      found.structuredContent as { matches: Array<{ id: string; schema: { properties: object } }> }
    ).matches;
    expect(matches[0].id).toBe('issue.list');
    expect(matches[0].schema.properties).toHaveProperty('project_id');
    const since = s.requests.length;
    const r = await c.client.callTool({
      name: 'forge_execute_action',
      arguments: { action: 'issue.list', params: { project_id: 'acme/widgets', per_page: 2 } },
    });
    expect(r.isError).toBeFalsy();
    const sc = r.structuredContent as {
      items: unknown[];
      pagination: { page: number; per_page: number; next_page?: number };
    };
    expect(sc.items).toHaveLength(2);
    expect(sc.pagination).toMatchObject({ page: 1, per_page: 2, next_page: 2 });
    expect(textOf(r)).toMatch(/next page: 2/);
    const sent = apiCalls(s, since);
    expect(sent).toHaveLength(1);
    expect(sent[0].method).toBe('GET');
    expect(sent[0].path).toBe('/api/v4/projects/acme%2Fwidgets/issues');
    expect(sent[0].query.per_page).toBe('2');
  });

  it('creates an issue and reads it back', async () => {
    const created = await c.client.callTool({
      name: 'forge_execute_action',
      arguments: {
        action: 'issue.create',
        params: { project_id: '1', title: 'Round trip', description: 'made by a test' },
      },
    });
    expect(created.isError).toBeFalsy();
    const iid = (created.structuredContent as { iid: number }).iid;
    expect(iid).toBeGreaterThan(0);
    const got = await c.client.callTool({
      name: 'forge_execute_action',
      arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: iid } },
    });
    expect((got.structuredContent as { title: string }).title).toBe('Round trip');
    const resource = (got.content as Array<{ type: string; resource?: { uri: string } }>).find(
      (b) => b.type === 'resource',
    );
    expect(resource?.resource?.uri).toBe(`forge://projects/1/issues/${iid}`);
  });

  it('converts numbers sent as strings and translates the mr_iid alias', async () => {
    const r = await c.client.callTool({
      name: 'forge_execute_action',
      arguments: { action: 'merge_request.get', params: { project_id: '1', mr_iid: '1' } },
    });
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as { iid: number }).iid).toBe(1);
  });

  describe('results a model can use', () => {
    const exec = (action: string, params: Record<string, unknown>) =>
      c.client.callTool({ name: 'forge_execute_action', arguments: { action, params } });

    it('reads a job log as a tail or as a byte range', async () => {
      const tail = await exec('job.trace', { project_id: '1', job_id: 1001, tail_lines: 5 });
      const t = textOf(tail);
      expect(t).toMatch(/^\[last 5 of \d+ lines\]\n/);
      expect(t.split('\n')).toHaveLength(6);
      const range = await exec('job.trace', {
        project_id: '1',
        job_id: 1001,
        byte_offset: 10,
        byte_limit: 40,
      });
      expect(textOf(range)).toMatch(/^\[bytes 10-50 of \d+\]\n/);
      expect((range.structuredContent as { text: string }).text).toHaveLength(40);
    });

    it('shows a job log longer than the cap from its end, and a cut byte window names the offset that continues it', async () => {
      const log =
        Array.from({ length: 3000 }, (_, i) => `[build] step ${i}: ok`).join('\n') +
        '\n$ npm test\nFAIL src/index.test.js\nERROR: Job failed: exit code 1\n';
      const TRACE = /\/projects\/1\/jobs\/1004\/trace$/;
      const total = Buffer.byteLength(log);
      s.fault({ path: TRACE, status: 200, body: log, times: 3 });
      const whole = textOf(await exec('job.trace', { project_id: '1', job_id: 1004 }));
      const [head, ...rest] = whole.split('\n');
      const m =
        /^\[bytes (\d+)-(\d+) of (\d+): the end of the log, which is longer than the 49152-character cap; read earlier parts with byte_offset and byte_limit\]$/.exec(
          head!,
        )!;
      expect(m).not.toBeNull();
      expect([Number(m[2]), Number(m[3])]).toEqual([total, total]);
      // The part shown is the log's end, from the start of a line.
      expect(rest.join('\n')).toBe(log.slice(Number(m[1])));
      expect(log[Number(m[1]) - 1]).toBe('\n');
      // A byte window over the cap is cut; its note's offset continues right where the part shown ends.
      const first = textOf(
        await exec('job.trace', { project_id: '1', job_id: 1004, byte_offset: 1000, byte_limit: 80_000 }),
      );
      const next = Number(/read more with byte_offset=(\d+) and byte_limit/.exec(first)![1]);
      const shown = first.slice(first.indexOf('\n') + 1, first.lastIndexOf('\n… [cut at'));
      expect(next).toBe(1000 + Buffer.byteLength(shown));
      const second = textOf(
        await exec('job.trace', { project_id: '1', job_id: 1004, byte_offset: next, byte_limit: 100 }),
      );
      expect(log.slice(1000).startsWith(shown + second.slice(second.indexOf('\n') + 1))).toBe(true);
    });

    it('shows a job log within the character cap whole, first line included, though its UTF-8 bytes outgrow the cap', async () => {
      // 40,000 characters, 76,000 bytes (each ✓ is three).
      const log = `Running with runner ✓\n${Array.from({ length: 3999 }, (_, i) => `✓✓✓✓✓ ${String(i).padStart(3, '0')}`).join('\n')}`;
      expect(log.length).toBeLessThan(49152);
      expect(Buffer.byteLength(log)).toBeGreaterThan(49152);
      s.fault({ path: /\/projects\/1\/jobs\/1005\/trace$/, status: 200, body: log, times: 1 });
      const t = textOf(await exec('job.trace', { project_id: '1', job_id: 1005 }));
      expect(t).toBe(log);
    });

    it('says when the instance collapsed a diff, and how to read the file instead', async () => {
      const r = await exec('mr_review.changes_get', { project_id: '1', merge_request_iid: 2 });
      expect(textOf(r)).toMatch(
        /diff (collapsed by the instance|too large to show); read the file with repository\.file_get/,
      );
    });

    it('cuts a long body with a note saying how to read the rest', async () => {
      const r = await exec('repository.file_raw', {
        project_id: '1',
        file_path: 'fixtures/large.txt',
        ref: 'fixtures-refresh',
      });
      if (r.isError) {
        // The seed names the large file differently: find it in the tree.
        const tree = await exec('repository.tree', {
          project_id: '1',
          ref: 'fixtures-refresh',
          recursive: true,
          per_page: 100,
        });
        const big = (tree.structuredContent as { items: Array<{ path: string; type: string }> }).items.filter(
          (i) => i.type === 'blob',
        );
        const results = await Promise.all(
          big.map((b) =>
            exec('repository.file_raw', { project_id: '1', file_path: b.path, ref: 'fixtures-refresh' }),
          ),
        );
        const cut = results.find((x) => /cut at \d+ characters/.test(textOf(x)));
        expect(cut, 'a file over the cap is cut with a note').toBeDefined();
        expect(textOf(cut!)).toMatch(
          /read more with byte_offset=\d+ and byte_limit, or the end with tail_lines/,
        );
      } else expect(textOf(r)).toMatch(/cut at \d+ characters/);
    });

    it('leaves null and empty fields out of the text but keeps them in structuredContent', async () => {
      const r = await exec('issue.get', { project_id: '1', issue_iid: 1 });
      const sc = r.structuredContent as Record<string, unknown>;
      const nullKeys = Object.keys(sc).filter((k) => sc[k] === null);
      expect(nullKeys.length).toBeGreaterThan(0);
      expect(textOf(r)).not.toMatch(/: null\b/);
      expect(textOf(r)).not.toMatch(/: ""/);
    });

    it('cuts an object answer past 48 KiB of text, and a field past 8 KiB, each saying how much was cut', async () => {
      // An issue whose description alone outgrows a field's cap, and whose other fields outgrow the whole text's.
      const body: Record<string, unknown> = { iid: 1, description: 'd'.repeat(9000) };
      for (let i = 0; i < 8; i++) body[`note_${i}`] = String(i).repeat(7000);
      s.fault({ method: 'GET', path: '/api/v4/projects/1/issues/1', status: 200, body });
      const r = await exec('issue.get', { project_id: '1', issue_iid: 1 });
      expect(r.isError).toBeFalsy();
      const t = textOf(r);
      expect(t).toContain(`"description":"${'d'.repeat(8192)}… [cut: 808 more characters]"`);
      const whole = JSON.stringify({
        ...body,
        description: `${'d'.repeat(8192)}… [cut: 808 more characters]`,
      });
      expect(t).toBe(
        `${whole.slice(0, 49152)}\n… [output cut at 49152 of ${whole.length} characters; use a narrower action (for example per-file diffs with page and per_page)]`,
      );
      // structuredContent keeps the whole answer.
      expect((r.structuredContent as { description: string }).description).toHaveLength(9000);
    });

    it('cuts a list too long for the text after a whole item, saying which page and size read the rest', async () => {
      const items = Array.from({ length: 100 }, (_, i) => ({
        id: 500 + i,
        iid: 500 + i,
        title: `Issue ${i}`,
        description: 'x'.repeat(1900),
      }));
      const paged = (page: number) => ({
        'x-page': String(page),
        'x-per-page': '100',
        'x-total': '250',
        'x-total-pages': '3',
        'x-next-page': String(page + 1),
      });
      const read = async (page: number) => {
        s.fault({ path: /\/projects\/1\/issues$/, status: 200, body: items, headers: paged(page), times: 1 });
        const r = await exec('issue.list', { project_id: '1', per_page: 100, page });
        expect((r.structuredContent as { items: unknown[] }).items).toHaveLength(100);
        const lines = textOf(r).split('\n');
        expect(lines[0]).toBe(
          `100 items, page ${page} of 3, 250 total, next page: ${page + 1} (pass page=${page + 1})`,
        );
        const note = lines.pop()!;
        // Every item shown is whole, in order.
        const shown = lines.slice(1).map((l) => (JSON.parse(l) as { iid: number }).iid);
        expect(shown).toEqual(items.slice(0, shown.length).map((i) => i.iid));
        expect(shown.length).toBeGreaterThan(0);
        expect(shown.length).toBeLessThan(100);
        return { shown: shown.length, note };
      };
      const first = await read(1);
      expect(first.note).toBe(
        `… [text cut at 49152 characters: the first ${first.shown} of these 100 items are shown; read the rest with per_page=${first.shown} and page=2, the same parameters otherwise]`,
      );
      // Page 2: the pages of the size given start right after the last item shown (item 100 + shown).
      const second = await read(2);
      const m = /read the rest with per_page=(\d+) and page=(\d+),/.exec(second.note)!;
      const [size, page] = [Number(m[1]), Number(m[2])];
      expect(size).toBeLessThanOrEqual(second.shown);
      expect((page - 1) * size).toBe(100 + second.shown);
    });

    it('a list whose first item alone is over the cap shows it without its longest fields, naming them and where to read it', async () => {
      // An issue with 40 long custom fields (each within the 2,000-character field cut), about 77,000 characters as
      // text, then two more items too long to follow it.
      const fields = Array.from({ length: 40 }, (_, i) => `field_${i}`);
      const big = {
        id: 900,
        iid: 7,
        title: 'Many fields',
        ...Object.fromEntries(fields.map((f) => [f, `${f} `.repeat(250).slice(0, 1900)])),
      };
      const after = [2, 3].map((i) => ({
        id: 900 + i,
        iid: 7 + i,
        title: `t${i}`,
        description: 'y'.repeat(3000),
      }));
      s.fault({
        path: /\/projects\/1\/issues$/,
        status: 200,
        body: [big, ...after],
        headers: { 'x-page': '1', 'x-per-page': '3', 'x-total': '3', 'x-total-pages': '1' },
        times: 1,
      });
      const r = await exec('issue.list', { project_id: '1', per_page: 3 });
      expect((r.structuredContent as { items: unknown[] }).items[0]).toEqual(big);
      const lines = textOf(r).split('\n');
      expect(lines[0]).toBe('3 items, page 1 of 1, 3 total, last page');
      // The item shown is JSON, the answer's text up to it within the cap.
      expect(lines.slice(0, 2).join('\n').length).toBeLessThanOrEqual(49152);
      const shown = JSON.parse(lines[1]) as Record<string, unknown>;
      expect(shown).toMatchObject({ id: 900, iid: 7, title: 'Many fields' });
      const left = fields.filter((f) => !(f in shown));
      expect(left.length).toBeGreaterThan(0);
      expect(left.length).toBeLessThan(fields.length);
      for (const f of fields.filter((f) => f in shown)) expect(shown[f]).toBe(big[f as keyof typeof big]);
      expect(lines.slice(2)).toEqual([
        `… [the first item alone is over the 49152-character cap: its fields ${left.join(', ')} are left out above; structuredContent.items[0] holds it whole, or read it with issue.get (iid 7)]`,
        '… [text cut at 49152 characters: the first 1 of these 3 items are shown; read the rest with per_page=1 and page=2, the same parameters otherwise]',
      ]);
    });

    it('a first item over the cap names a get action only where it reads that item, with the field it takes', async () => {
      const long = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field_${i}`, 'x'.repeat(1900)]));
      const noteOf = async (action: string, params: Record<string, unknown>, path: RegExp, item: object) => {
        s.fault({ path, status: 200, body: [{ ...item, ...long }], times: 1 });
        const r = await exec(action, params);
        expect((r.structuredContent as { items: unknown[] }).items[0]).toEqual({ ...item, ...long });
        return textOf(r).split('\n').pop()!;
      };
      // A project's users are users: project.get reads no user.
      const user = await noteOf('project.list_users', { project_id: '1' }, /\/projects\/1\/users$/, {
        id: 31,
        username: 'erin',
      });
      expect(user).toMatch(/structuredContent\.items\[0\] holds it whole\]$/);
      expect(user).not.toContain('project.get');
      // A group milestone is read by its ID, which is not its IID.
      const milestone = await noteOf(
        'group.group_milestone_list',
        { group_id: '2' },
        /\/groups\/2\/milestones$/,
        { id: 501, iid: 2, title: 'v1' },
      );
      expect(milestone).toMatch(/holds it whole, or read it with group\.group_milestone_get \(id 501\)\]$/);
    });

    it("a GraphQL list's first line says how to reach the next page, or that it is the last", async () => {
      const nodes = [
        { id: 'gid://gitlab/WorkItem/1', iid: '1', title: 'One' },
        { id: 'gid://gitlab/WorkItem/2', iid: '2', title: 'Two' },
      ];
      s.fault({
        path: '/api/graphql',
        status: 200,
        body: {
          data: {
            namespace: { workItems: { pageInfo: { hasNextPage: true, endCursor: 'Y3Vyc29yMg' }, nodes } },
          },
        },
        times: 1,
      });
      const params = { full_path: 'acme/widgets', state: 'opened', first: 2 };
      const first = await exec('issue.work_item_list', params);
      const lines = textOf(first).split('\n');
      expect(lines[0]).toBe('2 items, next page: pass after=Y3Vyc29yMg (with the same parameters otherwise)');
      expect(lines).toHaveLength(3);
      // The cursor as given reaches the instance.
      const since = s.requests.length;
      const next = await exec('issue.work_item_list', { ...params, after: 'Y3Vyc29yMg' });
      const sent = apiCalls(s, since).find((r) => r.path === '/api/graphql')!;
      expect((sent.body as { variables: { after?: string } }).variables.after).toBe('Y3Vyc29yMg');
      expect(textOf(next).split('\n')[0]).toMatch(/^\d+ of \d+ items?, last page$/);
    });

    it("says a list across projects filtered by a person holds only the caller's own when scope was left out", async () => {
      // The instance's default scope for /merge_requests and /issues is created_by_me: bob's MRs read as none.
      const NOTE =
        "Note: without scope the instance lists only what you created (scope created_by_me); pass scope=all for everyone's you can see, or scope=assigned_to_me.";
      const mine = await exec('merge_request.list_global', { author_username: 'bob' });
      expect(textOf(mine)).toBe(`0 items, page 1 of 1, 0 total, last page\n${NOTE}`);
      const all = await exec('merge_request.list_global', { author_username: 'bob', scope: 'all' });
      expect((all.structuredContent as { items: unknown[] }).items.length).toBeGreaterThan(0);
      expect(textOf(all)).not.toContain('Note: without scope');
      const own = await exec('merge_request.list_global', { state: 'all' });
      expect((own.structuredContent as { items: unknown[] }).items.length).toBeGreaterThan(0);
      expect(textOf(own)).not.toContain('Note: without scope');
    });

    it("leaves API links and the pictures of the people an item names out of a list's text, not out of structuredContent", async () => {
      const r = await exec('issue.list', { project_id: '1', per_page: 3 });
      const items = (r.structuredContent as { items: Array<Record<string, unknown>> }).items;
      expect(items[0]._links).toBeDefined();
      expect((items[0].author as Record<string, unknown>).avatar_url).toBeDefined();
      const t = textOf(r);
      expect(t).not.toContain('"_links"');
      expect(t).not.toContain('"avatar_url"');
      // Each person still carries what a model uses: id, username, name and web address.
      expect(t).toMatch(/"author":\{"id":\d+,"username":"\w+","name":"[^"]+",.*"web_url":"http:[^"]+"\}/);
      // A user asked for keeps its own picture.
      const users = await exec('user.list', { username: 'bob' });
      expect(textOf(users)).toContain('"avatar_url":"http');
    });

    it("keeps a release's links in its text: they are its web pages (the release's own address among them), not API links", async () => {
      const web = `${s.url}/acme/widgets/-/releases/v1.0`;
      s.fault({
        path: '/api/v4/projects/1/releases/v1.0',
        status: 200,
        body: {
          tag_name: 'v1.0',
          name: 'One',
          _links: {
            self: web,
            edit_url: `${web}/edit`,
            closed_issues_url: `${s.url}/acme/widgets/-/issues?state=closed`,
          },
        },
      });
      const r = await exec('release.get', { project_id: '1', tag_name: 'v1.0' });
      expect(r.isError).toBeFalsy();
      expect(textOf(r)).toContain(`"self":"${web}"`);
      expect(textOf(r)).toContain(`"edit_url":"${web}/edit"`);
    });
  });

  describe('argument errors, word for word', () => {
    const exec = (args: Record<string, unknown>) =>
      c.client.callTool({ name: 'forge_execute_action', arguments: args });

    it('refuses parameters placed beside action (input schema)', async () => {
      const since = s.requests.length;
      const r = await exec({ action: 'issue.list', project_id: '1' });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^validating "arguments": unknown property "project_id"/);
      expect(apiCalls(s, since)).toHaveLength(0);
    });

    it('names unknown, misspelt and missing params with the valid ones', async () => {
      const since = s.requests.length;
      const r = await exec({ action: 'issue.create', params: { project_id: '1', titel: 'x' } });
      const t = textOf(r);
      expect(r.isError).toBe(true);
      expect(t).toMatch(/^invalid params\. Unknown params: titel\. /);
      expect(apiCalls(s, since)).toHaveLength(0);
      expect(t).toContain('Unknown params: titel.');
      expect(t).toContain('Did you mean: title (for titel)?');
      expect(t).toContain('Missing required params: title.');
      expect(t).toMatch(/Valid params: project_id, .*title/);
    });

    it('lists the accepted values of a fixed set', async () => {
      const r = await exec({ action: 'issue.list', params: { project_id: '1', state: 'shut' } });
      expect(textOf(r)).toMatch(/invalid params for this action: state must be one of: opened, closed, all/);
    });

    it('checks string formats such as date-time', async () => {
      const r = await exec({ action: 'issue.list', params: { project_id: '1', created_after: 'yesterday' } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/created_after must match format "date-time"/);
    });

    it('names a missing one-of group', async () => {
      const since = s.requests.length;
      const r = await exec({ action: 'user.create_current_user_pat', params: { name: 'kube' } });
      expect(textOf(r)).toBe(
        'invalid params. Missing one of: scopes, granular_scopes. Valid params: name, description, scopes, granular_scopes, expires_at.',
      );
      expect(apiCalls(s, since)).toHaveLength(0);
    });

    it('says a required value given empty or zero must be non-empty or > 0', async () => {
      const since = s.requests.length;
      const empty = await exec({ action: 'issue.get', params: { project_id: '', issue_iid: 1 } });
      expect(textOf(empty)).toBe(
        "issue.get: project_id is required (must be non-empty). Ensure you use the exact parameter name from the action's schema and pass a real value.",
      );
      const zero = await exec({ action: 'issue.get', params: { project_id: '1', issue_iid: 0 } });
      expect(textOf(zero)).toBe(
        "issue.get: issue_iid is required (must be > 0). Ensure you use the exact parameter name from the action's schema and pass a real value.",
      );
      expect(apiCalls(s, since)).toHaveLength(0);
    });

    it('answers an unknown action with suggestions', async () => {
      const r = await exec({ action: 'issue.lst', params: {} });
      expect(textOf(r)).toMatch(
        /^forge_execute_action: unknown action "issue\.lst"\. Did you mean: .*issue\.list/,
      );
    });
  });

  describe('instance failures in the spec shape', () => {
    const exec = (action: string, params: Record<string, unknown>) =>
      c.client.callTool({ name: 'forge_execute_action', arguments: { action, params } });

    it('renders a 404 of a get action as the Not Found card', async () => {
      const r = await exec('issue.get', { project_id: '1', issue_iid: 9999 });
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toBeUndefined();
      const t = textOf(r);
      expect(t).toMatch(/^# Not Found: Issue 9999 in project 1/);
      expect(t).toContain('\n---\n');
      // forge_execute_action takes the canonical IDs themselves: nothing follows them.
      expect(t).toMatch(/Next steps:\n- issue\.list\n- issue\.list_all$/);
    });

    it('names a missing project by itself in its Not Found card, not as in itself', async () => {
      const r = await exec('project.get', { project_id: 'acme/nope' });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^# Not Found: Project acme\/nope\n/);
    });

    it('names an object found by its project alone without repeating the project', async () => {
      const r = await exec('release.get_latest', { project_id: 'acme/nope' });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^# Not Found: Release in project acme\/nope\n/);
    });

    it('says a project named by its name alone is no ID or full path, and how to find it, in a card and an error', async () => {
      const card = await exec('issue.get', { project_id: 'Widgets', issue_iid: 1 });
      expect(card.isError).toBe(true);
      expect(textOf(card)).toBe(
        [
          '# Not Found: Issue 1 in project Widgets',
          '',
          'The instance answered 404 Project Not Found: project_id "Widgets" is neither a numeric ID nor a full path with its namespace (group/project); find the project with project.list and search "Widgets", then pass its id or path_with_namespace.',
          '',
          '---',
          '',
          'Next steps:',
          '- issue.list',
          '- issue.list_all',
        ].join('\n'),
      );
      expect(textOf(await exec('issue.update', { project_id: 'widgets', issue_iid: 1, title: 't' }))).toBe(
        'issue.update: not found: the resource does not exist, you lack access, or the feature needs a higher tier (404 Project Not Found). Suggestion: project_id "widgets" is neither a numeric ID nor a full path with its namespace (group/project); find the project with project.list and search "widgets", then pass its id or path_with_namespace: 404 Not Found',
      );
      // A full path the instance does not know, or an issue missing from a project found, keeps the plain texts.
      expect(textOf(await exec('issue.get', { project_id: '1', issue_iid: 9999 }))).toContain(
        'The instance answered 404: the issue does not exist, or this token cannot see it.',
      );
    });

    it('a create refused because the object exists says which action changes it, by tool on the meta surface', async () => {
      s.reset();
      const create = { project_id: '1', key: 'DEPLOY_ENV', value: 'prod' };
      expect(textOf(await exec('ci_variable.create', create))).toMatch(
        /^ci_variable\.create: bad request: check your input parameters \(key \(DEPLOY_ENV\) has already been taken\)\. Suggestion: it exists already: change it with ci_variable\.update: POST \S+: 400 Bad Request$/,
      );
      const meta = await stdioClient(s, { env: { FORGE_MCP_TOOL_SURFACE: 'meta' } });
      try {
        const r = await meta.client.callTool({
          name: 'forge_ci_variable',
          arguments: { action: 'create', params: create },
        });
        expect(textOf(r)).toContain(
          'Suggestion: it exists already: change it with ci_variable.update (run with forge_ci_variable {"action": "update"})',
        );
      } finally {
        await meta.close();
      }
      // Without the update among the session's actions, nothing is suggested.
      const excluded = await stdioClient(s, { env: { FORGE_MCP_EXCLUDE_TOOLS: 'ci_variable.update' } });
      try {
        const r = await excluded.client.callTool({
          name: 'forge_execute_action',
          arguments: { action: 'ci_variable.create', params: create },
        });
        expect(textOf(r)).not.toContain('Suggestion');
      } finally {
        await excluded.close();
      }
    });

    it('renders a 404 of another action with the classification and a bare cause', async () => {
      const r = await exec('issue.list', { project_id: 'nope/missing' });
      expect(textOf(r)).toBe(
        'issue.list: not found: the resource does not exist, you lack access, or the feature needs a higher tier (404 Project Not Found): 404 Not Found',
      );
    });

    it('reports a 401 carrying invalid_token as the token refused, naming FORGE_TOKEN', async () => {
      s.fault({
        path: /\/issues$/,
        status: 401,
        body: { error: 'invalid_token', error_description: 'Token is revoked' },
      });
      const r = await exec('issue.list', { project_id: '1' });
      const t = textOf(r);
      expect(t).toMatch(
        /^issue\.list: authentication failed: the instance rejected the token itself \(Token is revoked\)\. Suggestion: replace FORGE_TOKEN /,
      );
      expect(t).toMatch(/: GET http:\/\/127\.0\.0\.1:\d+\/api\/v4\/projects\/1\/issues: 401 Unauthorized$/);
    });

    it('keeps the two-cause text for a REST 401 without the code', async () => {
      s.fault({ path: /\/issues$/, status: 401, body: { message: '401 Unauthorized' } });
      const t = textOf(await exec('issue.list', { project_id: '1' }));
      expect(t).toMatch(
        /^issue\.list: unauthorized: either the token is invalid or expired, or valid but lacking a permission/,
      );
      expect(t).toContain('FORGE_TOKEN');
    });

    it('renders a 403', async () => {
      s.fault({ path: /\/issues$/, method: 'POST', status: 403, body: { message: '403 Forbidden' } });
      const t = textOf(await exec('issue.create', { project_id: '1', title: 'x' }));
      expect(t).toMatch(
        /^issue\.create: access denied: your token lacks the required permissions \(missing scope, insufficient role, instance settings\)\. Suggestion: .+: POST http:\/\/127\.0\.0\.1:\d+\/api\/v4\/projects\/1\/issues: 403 Forbidden$/,
      );
    });

    it('renders a 422 with the instance message', async () => {
      s.fault({
        path: /\/issues$/,
        method: 'POST',
        status: 422,
        body: { message: { color: ['must be a valid color code'] } },
      });
      const t = textOf(await exec('issue.create', { project_id: '1', title: 'x' }));
      expect(t).toMatch(
        /validation failed: the instance rejected the data \(color must be a valid color code\)/,
      );
    });

    it('renders a 503 after no retry', async () => {
      s.fault({ path: /\/issues$/, status: 503, body: { message: '503 Service Unavailable' } });
      const t = textOf(await exec('issue.list', { project_id: '1' }));
      expect(t).toMatch(
        /^issue\.list: under maintenance or overloaded \(service unavailable\)\. Suggestion: retry later: GET .*: 503 Service Unavailable$/,
      );
    });

    it('names the HTTP method when the connection drops', async () => {
      s.fault({ path: /\/issues$/, drop: true });
      const t = textOf(await exec('issue.list', { project_id: '1' }));
      expect(t).toMatch(/^issue\.list: network error during GET to 127\.0\.0\.1:\d+ \(\w+\)\. Suggestion: /);
    });

    it('retries a 429 honouring Retry-After before succeeding', async () => {
      s.fault({
        path: /\/issues$/,
        status: 429,
        headers: { 'retry-after': '1' },
        body: { message: 'Retry later' },
        times: 1,
      });
      const since = s.requests.length;
      const r = await exec('issue.list', { project_id: '1' });
      expect(r.isError).toBeFalsy();
      const hits = apiCalls(s, since).filter((q) => q.path.endsWith('/issues'));
      expect(hits.map((h) => h.status)).toEqual([429, 200]);
      expect(hits[1].at - hits[0].at).toBeGreaterThanOrEqual(900);
    });

    it('reports GraphQL errors inside a 200', async () => {
      const gql = (await import('../dist/catalog/index.js'))
        .catalog()
        .actions.find(
          (a) => a.request && 'graphql' in a.request && !a.write && !a.handler && a.tier === 'free',
        );
      expect(gql).toBeDefined();
      s.fault({
        path: '/api/graphql',
        status: 200,
        body: { data: null, errors: [{ message: 'Field is broken' }, { message: 'second' }] },
      });
      const t = textOf(await exec(gql!.id, gql!.example));
      expect(t).toBe(`${gql!.id} GraphQL errors: Field is broken; second`);
    });

    describe('routes whose 401 and 403 differ', () => {
      const first = async (prefix: string) => {
        const { catalog } = await import('../dist/catalog/index.js');
        return catalog().actions.find((a) => a.id.startsWith(prefix) && !a.destructive)!;
      };

      it('external status checks: a 401 names the licence, a 403 the role', async () => {
        const a = await first('external_status_check.list_project');
        s.fault({
          path: /external_status_checks/,
          status: 401,
          body: { message: '401 Unauthorized' },
          times: 1,
        });
        expect(textOf(await exec(a.id, a.example))).toMatch(
          /Suggestion: the project's licence does not include external status checks/,
        );
        s.fault({
          path: /external_status_checks/,
          status: 403,
          body: { message: '403 Forbidden' },
          times: 1,
        });
        expect(textOf(await exec(a.id, a.example))).toMatch(
          /Suggestion: your role in the project does not allow it/,
        );
      });

      it('a 401 carrying an RFC 6750 code keeps the token hint, not the route hint', async () => {
        const a = await first('external_status_check.list_project');
        s.fault({ path: /external_status_checks/, status: 401, body: { error: 'invalid_token' }, times: 1 });
        const t = textOf(await exec(a.id, a.example));
        expect(t).toMatch(/Suggestion: replace FORGE_TOKEN/);
        expect(t).not.toMatch(/licence/);
      });

      it('group SAML link actions add their hint to every error', async () => {
        const a = await first('group.saml_link_list');
        s.fault({ path: /saml_group_links/, status: 404, body: { message: '404 Not found' }, times: 1 });
        expect(textOf(await exec(a.id, a.example))).toMatch(
          /Suggestion: SAML group links need SAML single sign-on/,
        );
      });
    });

    describe('classification by status, word for word', () => {
      const ISSUES = /\/projects\/1\/issues$/;
      const URL_RE = 'http://127\\.0\\.0\\.1:\\d+/api/v4/projects/1/issues';
      it.each([
        [400, 'bad request: check your input parameters', '400 Bad Request'],
        [405, "method not allowed: not allowed in the resource's current state", '405 Method Not Allowed'],
        [409, 'conflict: the resource already exists or state conflict', '409 Conflict'],
        [418, 'returned HTTP 418', '418'],
        [422, 'validation failed: the instance rejected the data', '422 Unprocessable Entity'],
      ])('a %i reads "<operation>: <classification>: <cause>"', async (status, classification, line) => {
        s.fault({ path: ISSUES, status, body: { message: line }, times: 1 });
        const r = await exec('issue.list', { project_id: '1' });
        expect(r.isError).toBe(true);
        // One content block, of type text.
        expect(r.content).toHaveLength(1);
        expect((r.content as Array<{ type: string }>)[0].type).toBe('text');
        expect(textOf(r)).toMatch(
          new RegExp(`^issue\\.list: ${classification.replace(/[()]/g, '\\$&')}: GET ${URL_RE}: ${line}$`),
        );
      });

      it.each([
        [500, 'internal server error', '500 Internal Server Error'],
        [502, 'temporarily unavailable (bad gateway)', '502 Bad Gateway'],
        [503, 'under maintenance or overloaded (service unavailable)', '503 Service Unavailable'],
      ])(
        'a %i reads "<operation>: <classification>. Suggestion: retry later: <cause>"',
        async (status, classification, line) => {
          s.fault({ path: ISSUES, status, body: { message: line }, times: 1 });
          const since = s.requests.length;
          const t = textOf(await exec('issue.list', { project_id: '1' }));
          expect(t).toMatch(
            new RegExp(
              `^issue\\.list: ${classification.replace(/[()]/g, '\\$&')}\\. Suggestion: retry later: GET ${URL_RE}: ${line}$`,
            ),
          );
          // A 5xx is not retried.
          expect(apiCalls(s, since).filter((q) => ISSUES.test(q.path))).toHaveLength(1);
        },
      );

      it.each(['409', 'Conflict', '409 conflict'])(
        'an instance message that only repeats the status (%s) is not appended',
        async (message) => {
          s.fault({ path: ISSUES, status: 409, body: { message }, times: 1 });
          expect(textOf(await exec('issue.list', { project_id: '1' }))).toMatch(
            new RegExp(
              `^issue\\.list: conflict: the resource already exists or state conflict: GET ${URL_RE}: 409 Conflict$`,
            ),
          );
        },
      );

      it('reads the errors list of a REST error body as the instance message', async () => {
        s.fault({
          path: ISSUES,
          status: 400,
          body: { errors: [{ message: 'labels is invalid' }, { message: 'state is unknown' }] },
          times: 1,
        });
        expect(textOf(await exec('issue.list', { project_id: '1' }))).toMatch(
          new RegExp(
            `^issue\\.list: bad request: check your input parameters \\(labels is invalid; state is unknown\\): GET ${URL_RE}: 400 Bad Request$`,
          ),
        );
      });

      it('a 429 left after the retries reads rate limited (already retried)', async () => {
        s.fault({
          path: ISSUES,
          status: 429,
          headers: { 'retry-after': '0' },
          body: { message: 'Retry later' },
        });
        const since = s.requests.length;
        const t = textOf(await exec('issue.list', { project_id: '1' }));
        expect(t).toMatch(
          new RegExp(
            `^issue\\.list: rate limited: wait before retrying \\(already retried\\) \\(Retry later\\)\\. Suggestion: wait before retrying: GET ${URL_RE}: 429 Too Many Requests$`,
          ),
        );
        expect(apiCalls(s, since).filter((q) => ISSUES.test(q.path))).toHaveLength(3);
      });

      it('a 429 asking for a longer wait than fits before a client gives up is answered at once, naming the wait', async () => {
        // Two 30 s waits would outlast the MCP SDKs' 60 s request timeout: the model would see only a timeout.
        s.fault({ path: ISSUES, status: 429, headers: { 'retry-after': '30' } });
        const since = s.requests.length;
        const t = textOf(await exec('issue.list', { project_id: '1' }));
        expect(t).toMatch(
          /^issue\.list: rate limited: wait before retrying \(already retried\)\. Suggestion: wait 30 seconds before retrying \(the instance's Retry-After\): GET /,
        );
        expect(apiCalls(s, since).filter((q) => ISSUES.test(q.path))).toHaveLength(1);
      });

      it('a 429 asking for exactly the longest wait the retries allow (20 s) is still retried', async () => {
        s.fault({ path: ISSUES, status: 429, headers: { 'retry-after': '20' }, times: 1 });
        const since = s.requests.length;
        const r = await exec('issue.list', { project_id: '1' });
        expect(r.isError).toBeFalsy();
        const hits = apiCalls(s, since).filter((q) => ISSUES.test(q.path));
        expect(hits.map((h) => h.status)).toEqual([429, 200]);
        expect(hits[1].at - hits[0].at).toBeGreaterThanOrEqual(19_000);
      }, 60_000);

      it('a 429 left after the retries names a one-second Retry-After in the singular', async () => {
        s.fault({ path: ISSUES, status: 429, headers: { 'retry-after': '1' } });
        const since = s.requests.length;
        const t = textOf(await exec('issue.list', { project_id: '1' }));
        expect(t).toMatch(
          /^issue\.list: rate limited: wait before retrying \(already retried\)\. Suggestion: wait 1 second before retrying \(the instance's Retry-After\): GET /,
        );
        expect(apiCalls(s, since).filter((q) => ISSUES.test(q.path))).toHaveLength(3);
      });

      it.each([
        ['an empty', ''],
        ['an unreadable', 'soon'],
      ])('a 429 with %s Retry-After is retried after a second', async (_, retryAfter) => {
        s.fault({
          path: ISSUES,
          status: 429,
          headers: { 'retry-after': retryAfter },
          body: { message: 'Retry later' },
          times: 1,
        });
        const since = s.requests.length;
        const r = await exec('issue.list', { project_id: '1' });
        expect(r.isError).toBeFalsy();
        const hits = apiCalls(s, since).filter((q) => ISSUES.test(q.path));
        expect(hits.map((h) => h.status)).toEqual([429, 200]);
        expect(hits[1].at - hits[0].at).toBeGreaterThanOrEqual(900);
      });

      it('a 429 whose Retry-After is an HTTP date reads the wait from that date', async () => {
        // A minute ahead: longer than the retries may wait, so the answer names it at once.
        const at = new Date(Date.now() + 60_000).toUTCString();
        s.fault({ path: ISSUES, status: 429, headers: { 'retry-after': at } });
        const since = s.requests.length;
        const t = textOf(await exec('issue.list', { project_id: '1' }));
        const seconds = Number(
          /Suggestion: wait (\d+) seconds before retrying \(the instance's Retry-After\)/.exec(t)?.[1],
        );
        expect(seconds).toBeGreaterThanOrEqual(50);
        expect(seconds).toBeLessThanOrEqual(60);
        expect(apiCalls(s, since).filter((q) => ISSUES.test(q.path))).toHaveLength(1);
      });

      it('a REST 401 without a code carries the full two-cause text and names the check by canonical ID', async () => {
        s.fault({ path: ISSUES, status: 401, body: { message: '401 Unauthorized' }, times: 1 });
        expect(textOf(await exec('issue.list', { project_id: '1' }))).toMatch(
          /^issue\.list: unauthorized: either the token is invalid or expired, or valid but lacking a permission \(some routes answer a missing permission with 401\); if the token works elsewhere treat as permission refusal\. Suggestion: check that FORGE_TOKEN is valid \(user\.current\);/,
        );
      });
    });

    describe('role, licence and owner hints', () => {
      const ROLE = /higher role|licen[cs]e|Owner role|Maintainer/;
      const pathOf = async (id: string) => {
        const { catalog } = await import('../dist/catalog/index.js');
        const a = catalog().get(id)!;
        const template = (a.request as { rest: { path: string } }).rest.path;
        return { a, path: new RegExp(`^/api/v4${template.replace(/:[a-z_]+/g, '[^/]+')}$`) };
      };
      const run = async (id: string, status: number, body: unknown) => {
        const { a, path } = await pathOf(id);
        s.fault({ path, status, body, times: 1 });
        const args = { action: a.id, params: a.example, ...(a.destructive ? { confirm: true } : {}) };
        return textOf(await c.client.callTool({ name: 'forge_execute_action', arguments: args }));
      };

      it('no role hint when the instance refuses the account itself', async () => {
        const t = await run('issue.list', 403, { message: '403 Forbidden - Your account has been blocked.' });
        expect(t).toMatch(
          /^issue\.list: access denied: .*\(403 Forbidden - Your account has been blocked\.\)/,
        );
        expect(t).toContain('the instance refuses the account itself');
        expect(t).not.toMatch(ROLE);
        const route = await run('merge_train.add', 403, {
          message: '403 Forbidden - Your account has been blocked.',
        });
        expect(route).not.toContain('you cannot read the merge request');
      });

      it.each([
        '403 Forbidden - You (@alice) must accept the Terms of Service in order to perform this action.',
        '401 Unauthorized - Your password has expired.',
        '403 Forbidden - Your account is pending approval from your administrator.',
        '403 Forbidden - Your account has been deactivated.',
      ])('reads "%s" as the account refused, with no role hint', async (message) => {
        const status = Number(message.slice(0, 3));
        const t = await run('issue.list', status, { message });
        expect(t).toContain('Suggestion: the instance refuses the account itself');
        expect(t).not.toMatch(ROLE);
      });

      it('no role hint after a GraphQL 403 or a REST 403 carrying an RFC 6750 code', async () => {
        const { catalog } = await import('../dist/catalog/index.js');
        const read = catalog().actions.find(
          (a) => a.request && 'graphql' in a.request && !a.write && !a.handler && a.tier === 'free',
        )!;
        s.fault({
          path: '/api/graphql',
          status: 403,
          body: { errors: [{ message: 'Forbidden' }] },
          times: 1,
        });
        expect(textOf(await exec(read.id, read.example))).not.toMatch(ROLE);
        const coded = await run('project.create_fork_relation', 403, { error: 'insufficient_scope' });
        expect(coded).toContain('use a token with the api scope');
        expect(coded).not.toMatch(ROLE);
      });

      it.each([
        [
          'project.create_fork_relation',
          'the target namespace is not allowed for this fork relation',
          'you need the Owner role on the fork, or the right to fork the source project',
        ],
        [
          'project.security_settings_get',
          'your role does not allow changing security settings (Maintainer or Owner)',
          'the licence does not include these security settings (Ultimate), or the project is archived',
        ],
        [
          'project.security_settings_update',
          'your role does not allow changing security settings',
          'or the project is archived',
        ],
        [
          'group.security_settings_update',
          'your role does not allow changing security settings',
          'or the project is archived',
        ],
        [
          'merge_train.add',
          'you may not merge into the target branch (check the protected branch settings)',
          'you cannot read the merge request or its project',
        ],
      ])('%s: a 401 and a 403 get their own hints', async (id, on401, on403) => {
        const t401 = await run(id, 401, { message: '401 Unauthorized' });
        expect(t401).toContain(`Suggestion: ${on401}`);
        const t403 = await run(id, 403, { message: '403 Forbidden' });
        expect(t403).toContain(on403);
        expect(t403).not.toContain(on401);
      });

      it('merge_request.approve: a 401, which a second approval gets, says it may be approved already and where to look', async () => {
        const t = await run('merge_request.approve', 401, { message: '401 Unauthorized' });
        expect(t).toContain(
          'Suggestion: you may have approved this merge request already, or may not approve it (its author, or not an eligible approver): merge_request.approval_state shows who approved and who may',
        );
        expect(t).not.toContain('check that FORGE_TOKEN is valid');
      });

      it('merge_request.merge: a 405, which merging a merged merge request gets, says why a merge is refused and where to look', async () => {
        const t = await run('merge_request.merge', 405, { message: '405 Method Not Allowed' });
        expect(t).toMatch(
          /^merge_request\.merge: method not allowed: not allowed in the resource's current state\. Suggestion: the merge request cannot be merged in its current state \(already merged or closed, a draft, or blocked by unresolved threads, missing approvals or its pipeline\): merge_request\.get shows its state and detailed_merge_status: PUT \S+\/merge: 405 Method Not Allowed$/,
        );
      });

      it.each([
        'group.saml_link_add',
        'group.saml_link_delete',
        'group.saml_link_get',
        'group.saml_link_list',
      ])('%s adds its SAML hint to every error', async (id) => {
        for (const [status, body] of [
          [400, { message: 'bad' }],
          [403, { message: '403 Forbidden' }],
          [500, { message: 'boom' }],
        ] as const)
          expect(await run(id, status, body)).toContain(
            'Suggestion: SAML group links need SAML single sign-on configured on the top-level group',
          );
      });

      it.each([
        'access.token_personal_rotate_self',
        'access.token_group_rotate_self',
        'access.token_project_rotate_self',
      ])('%s adds the calling-token hint to every 401, with or without a code', async (id) => {
        for (const body of [{ message: '401 Unauthorized' }, { error: 'invalid_token' }])
          expect(await run(id, 401, body)).toContain(
            'Suggestion: self-rotation rotates the calling token itself',
          );
        expect(await run(id, 403, { message: '403 Forbidden' })).not.toContain('self-rotation');
      });
    });

    describe('GraphQL error rules', () => {
      const gqlActions = async () => {
        const { catalog } = await import('../dist/catalog/index.js');
        const plain = catalog().actions.filter(
          (a) => a.request && 'graphql' in a.request && !a.handler && a.tier === 'free',
        );
        const read = plain.find((a) => !a.write)!;
        const mutation = plain.find((a) => a.write && 'graphql' in a.request! && a.request.graphql.mutation)!;
        return {
          read,
          mutation,
          field: (mutation.request as { graphql: { mutation: string } }).graphql.mutation,
        };
      };

      it('appends the errors[] messages of an error status on one line, capped at 2048 bytes', async () => {
        const { read } = await gqlActions();
        const long = 'x'.repeat(1500);
        s.fault({
          path: '/api/graphql',
          status: 500,
          body: { errors: [{ message: `first\nline ${long}` }, { message: `second ${long}` }] },
        });
        const t = textOf(await exec(read.id, read.example));
        expect(t).not.toContain('\n');
        expect(t).toMatch(
          new RegExp(
            `^${read.id.replace('.', '\\.')}: internal server error \\(first line x+; second x+…\\)`,
          ),
        );
        const inner = /\((first [^)]*)\)/.exec(t)![1];
        // The list is cut at 2048 bytes exactly, and the cut is marked.
        expect(inner.endsWith('…')).toBe(true);
        expect(Buffer.byteLength(inner.slice(0, -1))).toBe(2048);
      });

      it('answers the data of a 200 that carries data beside a not-found error, not a not-found result', async () => {
        const { read } = await gqlActions();
        expect(read.id).toBe('achievement.list');
        s.fault({
          path: '/api/graphql',
          status: 200,
          body: {
            data: {
              namespace: {
                achievements: {
                  pageInfo: { hasNextPage: false, endCursor: null },
                  nodes: [{ id: 'gid://gitlab/Achievements::Achievement/1', name: 'First light' }],
                },
              },
            },
            errors: [{ message: 'Achievement 2 not found' }],
          },
        });
        const r = await exec(read.id, read.example);
        expect(r.isError, textOf(r)).toBeFalsy();
        expect(textOf(r)).toContain('First light');
      });

      it('keeps a list of exactly 2048 bytes whole, unmarked', async () => {
        const { read } = await gqlActions();
        s.fault({ path: '/api/graphql', status: 500, body: { errors: [{ message: 'y'.repeat(2048) }] } });
        const t = textOf(await exec(read.id, read.example));
        expect(t).toContain(` (${'y'.repeat(2048)}). Suggestion: `);
      });

      it('drops the list when the body carries a key besides data, errors, extensions', async () => {
        const { read } = await gqlActions();
        s.fault({
          path: '/api/graphql',
          status: 502,
          body: { errors: [{ message: 'upstream said no' }], trace: 'abc' },
        });
        const t = textOf(await exec(read.id, read.example));
        expect(t).toMatch(/temporarily unavailable \(bad gateway\)\. Suggestion/);
        expect(t).not.toContain('upstream said no');
      });

      it('a GraphQL 404 cause carries no request line', async () => {
        const { read } = await gqlActions();
        s.fault({ path: '/api/graphql', status: 404, body: { message: '404 Not Found' }, times: 1 });
        expect(textOf(await exec(read.id, read.example))).toMatch(
          /: failed to execute GraphQL query: 404 Not Found$/,
        );
      });

      it('leaves the generic GraphQL refusal as is, and reads a message-less error as unexpected error', async () => {
        const { read } = await gqlActions();
        const generic =
          "The resource that you are attempting to access does not exist or you don't have permission to perform this action";
        s.fault({
          path: '/api/graphql',
          status: 200,
          body: { data: null, errors: [{ message: generic }] },
          times: 1,
        });
        expect(textOf(await exec(read.id, read.example))).toBe(`${read.id} GraphQL errors: ${generic}`);
        s.fault({ path: '/api/graphql', status: 200, body: { data: null, errors: [{}] }, times: 1 });
        expect(textOf(await exec(read.id, read.example))).toBe(`${read.id} GraphQL errors: unexpected error`);
      });

      it('reports any GraphQL 401 as the token refused', async () => {
        const { read } = await gqlActions();
        s.fault({ path: '/api/graphql', status: 401, body: { errors: [{ message: 'Invalid token' }] } });
        const t = textOf(await exec(read.id, read.example));
        expect(t).toMatch(
          /authentication failed: the instance rejected the token itself \(Invalid token\)\. Suggestion: replace FORGE_TOKEN/,
        );
      });

      it('reads a mutation payload errors list as mutation errors, and a refused mutation as GraphQL errors', async () => {
        const { mutation, field } = await gqlActions();
        s.fault({
          path: '/api/graphql',
          status: 200,
          body: { data: { [field]: { errors: ['Title is too long', 'Label is unknown'] } } },
        });
        expect(textOf(await exec(mutation.id, mutation.example))).toBe(
          `${mutation.id} mutation errors: Title is too long; Label is unknown`,
        );
        s.clearFaults();
        s.fault({
          path: '/api/graphql',
          status: 200,
          body: { data: { [field]: null }, errors: [{ message: 'permission denied' }] },
        });
        expect(textOf(await exec(mutation.id, mutation.example))).toBe(
          `${mutation.id} GraphQL errors: permission denied`,
        );
      });
    });
  });
});

describe('FORGE_MCP_EMBEDDED_RESOURCES=false', () => {
  it('leaves the forge:// resource block out of get results', async () => {
    const c = await stdioClient(s, { env: { FORGE_MCP_EMBEDDED_RESOURCES: 'false' } });
    try {
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
      });
      expect(r.isError).toBeFalsy();
      expect((r.content as Array<{ type: string }>).map((b) => b.type)).toEqual(['text']);
    } finally {
      await c.close();
    }
  });
});

describe('deadline', () => {
  it('cancels a call that outlives FORGE_MCP_ACTION_TIMEOUT', async () => {
    const c = await stdioClient(s, { env: { FORGE_MCP_ACTION_TIMEOUT: '1s' } });
    try {
      s.fault({ path: /\/issues$/, delayMs: 3000, times: 1 });
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.list', params: { project_id: '1' } },
      });
      expect(textOf(r)).toMatch(
        /^issue\.list: deadline exceeded: the request exceeded its deadline and was canceled/,
      );
    } finally {
      s.clearFaults();
      await c.close();
    }
  });
});

describe('one deadline per action', () => {
  /** What `ask` answers of a server with a 1 s action deadline, and how long it took (not the start). */
  const within1s = async <T>(ask: (c: Connected) => Promise<T>) => {
    const c = await stdioClient(s, { env: { FORGE_MCP_ACTION_TIMEOUT: '1s' } });
    try {
      // A first call, unslowed, so the session's own start is not timed.
      await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'server.health_check', params: {} },
      });
      const started = Date.now();
      const answer = await ask(c);
      return { answer, ms: Date.now() - started };
    } finally {
      s.clearFaults();
      await c.close();
    }
  };
  /** A call through a server whose action deadline is 1 s: what it answered, and how long it took. */
  const timed = async (action: string, params: Record<string, unknown>) => {
    const { answer, ms } = await within1s((c) =>
      c.client.callTool({ name: 'forge_execute_action', arguments: { action, params } }),
    );
    return { text: textOf(answer), ms };
  };
  const PAST =
    /deadline exceeded: the request exceeded its deadline and was canceled\. Suggestion: narrow the request, or raise FORGE_MCP_ACTION_TIMEOUT/;

  it('an action making two requests of 700 ms each (a lookup by IID, then the milestone) ends at its 1 s deadline, not after both', async () => {
    s.fault({ path: /\/projects\/1\/milestones/, delayMs: 700 });
    const since = s.requests.length;
    const { text, ms } = await timed('project.milestone_get', { project_id: '1', milestone_iid: 1 });
    expect(text).toMatch(new RegExp(`^project\\.milestone_get: ${PAST.source}`));
    // Both requests were made: the second got only the 300 ms left.
    expect(s.requests.slice(since).filter((r) => r.path.includes('/milestones'))).toHaveLength(2);
    // At the deadline; the two requests alone take 1.4 s.
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(1_300);
  });

  it('each request alone within the deadline: a single 700 ms request, and two of 300 ms, are answered', async () => {
    s.fault({ path: /\/projects\/1\/milestones$/, delayMs: 700 });
    expect((await timed('project.milestone_list', { project_id: '1' })).text).not.toMatch(/deadline/);
    s.fault({ path: /\/projects\/1\/milestones/, delayMs: 300 });
    const both = await timed('project.milestone_get', { project_id: '1', milestone_iid: 1 });
    expect(both.text).not.toMatch(/deadline/);
    expect(both.text).toContain('"iid":1,');
  });

  it("a 429 whose Retry-After (3 s) the action's 1 s deadline would cut short is answered at once, naming the wait", async () => {
    s.fault({ path: /\/projects\/1\/issues$/, status: 429, headers: { 'retry-after': '3' }, times: 1 });
    const since = s.requests.length;
    const { text, ms } = await timed('issue.list', { project_id: '1' });
    expect(text).toMatch(
      /^issue\.list: rate limited: [^]*Suggestion: wait 3 seconds before retrying \(the instance's Retry-After\): GET /,
    );
    expect(s.requests.slice(since).filter((r) => r.path.endsWith('/projects/1/issues'))).toHaveLength(1);
    expect(ms).toBeLessThan(900);
  });

  it('an action that goes on without a read the deadline stopped (server.status leaves out a /user it cannot read) is still past its deadline', async () => {
    s.fault({ path: /^\/api\/v4\/(metadata|user)$/, delayMs: 700 });
    const { text, ms } = await timed('server.status', {});
    expect(text).toMatch(new RegExp(`^server\\.status: ${PAST.source}`));
    expect(ms).toBeLessThan(1_300);
  });

  it("a prompt's reads share one deadline: mr_review_status, its list then its approvals 700 ms each, quotes the approvals as past it at about 1 s", async () => {
    s.fault({ path: /\/projects\/1\/merge_requests(\/\d+\/approvals)?$/, delayMs: 700 });
    const { answer, ms } = await within1s((c) =>
      c.client.getPrompt({ name: 'mr_review_status', arguments: { project_id: '1' } }),
    );
    const text = (answer.messages[0]!.content as { text: string }).text;
    expect(text).toMatch(
      new RegExp(
        `^# Review status of 1: 2 open merge requests\\n> merge_request\\.approval_config: ${PAST.source}`,
      ),
    );
    expect(text).toContain('| Approvals not read |');
    expect(ms).toBeLessThan(1_300);
  });

  it("a completion's reads share one deadline: a ref from the branches, then the tags, 700 ms each, completes the branches at about 1 s", async () => {
    s.fault({ path: /\/projects\/1\/repository\/(branches|tags)$/, delayMs: 700 });
    const { answer, ms } = await within1s((c) =>
      c.client.complete({
        ref: { type: 'ref/prompt', name: 'generate_release_notes' },
        argument: { name: 'from', value: '' },
        context: { arguments: { project_id: '1' } },
      }),
    );
    expect(answer.completion.values).toContain('main');
    expect(answer.completion.values).not.toContain('v1.0.0');
    expect(ms).toBeLessThan(1_300);
  });

  it("an action's own wait between its requests (a pipeline polled every 2 s) ends at the deadline", async () => {
    s.fault({ path: '/api/v4/projects/1/pipelines/101', status: 200, body: { id: 101, status: 'running' } });
    const { text, ms } = await timed('pipeline.wait', {
      project_id: '1',
      pipeline_id: 101,
      timeout_seconds: 30,
      interval_seconds: 2,
    });
    expect(text).toMatch(new RegExp(`^pipeline\\.wait: ${PAST.source}`));
    expect(ms).toBeLessThan(1_800);
  });
});

describe('deadline while the connection is made', () => {
  it('a deadline that passes while a connection is still being made (a proxy that never answers) is reported at the deadline', async () => {
    // A proxy that takes the connection and never answers: the request never gets past its connection.
    const held: Socket[] = [];
    const proxy = createServer((socket) => void held.push(socket));
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const c = await stdioClient(s, {
      env: {
        FORGE_MCP_ACTION_TIMEOUT: '1s',
        HTTP_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        NO_PROXY: '127.0.0.1',
      },
    });
    try {
      // The instance sends the list to a mirror, reached through the proxy.
      s.fault({
        path: /\/projects\/1\/issues$/,
        redirectTo: 'http://forge-mirror.example/api/v4/projects/1/issues',
        times: 1,
      });
      const started = Date.now();
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.list', params: { project_id: '1' } },
      });
      expect(textOf(r)).toMatch(
        /^issue\.list: deadline exceeded: the request exceeded its deadline and was canceled\. Suggestion: narrow the request, or raise FORGE_MCP_ACTION_TIMEOUT/,
      );
      expect(held.length).toBeGreaterThan(0);
      // At the deadline, not when the connection gives up.
      expect(Date.now() - started).toBeLessThan(4_000);
    } finally {
      s.clearFaults();
      await c.close();
      for (const socket of held) socket.destroy();
      await new Promise((r) => proxy.close(r));
    }
  });
});

describe('meta and individual surfaces', () => {
  it("a Not Found card's next steps say which tool runs each one, and name no tool the session lacks", async () => {
    const card = async (env: Record<string, string>, tool: string, args: Record<string, unknown>) => {
      const c = await stdioClient(s, { env });
      try {
        const r = await c.client.callTool({ name: tool, arguments: args });
        expect(r.isError).toBe(true);
        return textOf(r);
      } finally {
        await c.close();
      }
    };
    const get = { project_id: '1', issue_iid: 9999 };
    expect(
      await card({ FORGE_MCP_TOOL_SURFACE: 'meta' }, 'forge_issue', { action: 'get', params: get }),
    ).toMatch(
      /^# Not Found: Issue 9999 in project 1\n[^]*\nNext steps:\n- issue\.list \(run with forge_issue \{"action": "list"\}\)\n- issue\.list_all \(run with forge_issue \{"action": "list_all"\}\)$/,
    );
    // An excluded next step is still named by its ID (the spec's card), with no tool to run it.
    expect(
      await card(
        { FORGE_MCP_TOOL_SURFACE: 'individual', FORGE_MCP_EXCLUDE_TOOLS: 'issue.list_all' },
        'forge_issue_get',
        get,
      ),
    ).toMatch(/\nNext steps:\n- issue\.list \(run with forge_issue_list\)\n- issue\.list_all$/);
    // A project named by its name: the card says how to find it with the tool that runs project.list here.
    expect(
      await card({ FORGE_MCP_TOOL_SURFACE: 'meta' }, 'forge_issue', {
        action: 'get',
        params: { project_id: 'Widgets', issue_iid: 1 },
      }),
    ).toContain(
      'find the project with project.list (run with forge_project {"action": "list"}) and search "Widgets", then pass its id or path_with_namespace.',
    );
  });

  it('meta lists one tool per domain and runs an action by name', async () => {
    const c = await stdioClient(s, { env: { FORGE_MCP_TOOL_SURFACE: 'meta' } });
    try {
      const { tools } = await c.client.listTools();
      expect(tools.map((t) => t.name)).toContain('forge_issue');
      expect(tools.every((t) => t.name.startsWith('forge_'))).toBe(true);
      const r = await c.client.callTool({
        name: 'forge_issue',
        arguments: { action: 'get', params: { project_id: '1', issue_iid: 1 } },
      });
      expect((r.structuredContent as { iid: number }).iid).toBe(1);
      const missing = await c.client.callTool({ name: 'forge_issue', arguments: { action: 'get' } });
      expect(textOf(missing)).toBe(
        "forge_issue/get: 'params' is required for this action. Required params: project_id, issue_iid. Valid params: project_id, issue_iid.",
      );
      const req = await c.client.callTool({
        name: 'forge_issue',
        arguments: { action: 'get', params: { project_id: '1' } },
      });
      expect(textOf(req)).toBe('forge_issue/get: missing required params: issue_iid');
      const unknown = await c.client.callTool({
        name: 'forge_issue',
        arguments: { action: 'frobnicate', params: {} },
      });
      expect(textOf(unknown)).toMatch(/^forge_issue: unknown action "frobnicate"\. Valid actions: .*\bget\b/);
      const field = await c.client.callTool({
        name: 'forge_issue',
        arguments: { action: 'get', params: { project_id: '1', issue_iid: 1, bogus: 1 } },
      });
      expect(textOf(field)).toBe(
        'forge_issue/get: invalid params for this action: json: unknown field "bogus". Valid params: project_id, issue_iid.',
      );
    } finally {
      await c.close();
    }
  });

  it.each([
    [
      'opaque',
      (t: { description?: string; inputSchema: Record<string, unknown> }) => {
        expect(t.description).toMatch(/- get: /);
        // No parameter is shown: the description says where their names come from.
        expect(t.description).toMatch(
          /\nA missing or unknown parameter is answered with the parameters the action takes\.$/,
        );
        expect(
          (t.inputSchema.properties as { params: Record<string, unknown> }).params.anyOf,
        ).toBeUndefined();
      },
    ],
    [
      'compact',
      (t: { description?: string; inputSchema: Record<string, unknown> }) => {
        expect(t.description).toMatch(/- get\(project_id\*, issue_iid\*/);
        expect(t.description).not.toContain('A missing or unknown parameter');
      },
    ],
    [
      'full',
      (t: { description?: string; inputSchema: Record<string, unknown> }) => {
        const anyOf = (t.inputSchema.properties as { params: { anyOf: Array<{ title: string }> } }).params
          .anyOf;
        expect(anyOf.map((x) => x.title)).toContain('get');
      },
    ],
  ] as const)('FORGE_MCP_META_PARAM_SCHEMA=%s shapes only the meta tools/list', async (mode, check) => {
    const c = await stdioClient(s, {
      env: { FORGE_MCP_TOOL_SURFACE: 'meta', FORGE_MCP_META_PARAM_SCHEMA: mode },
    });
    try {
      const issue = (await c.client.listTools()).tools.find((t) => t.name === 'forge_issue')!;
      check(issue as never);
      const r = await c.client.callTool({
        name: 'forge_issue',
        arguments: { action: 'get', params: { project_id: '1', issue_iid: 1 } },
      });
      expect(r.isError).toBeFalsy();
    } finally {
      await c.close();
    }
  });

  it('FORGE_MCP_DESCRIPTION_SUBSTITUTIONS rewrites titles and descriptions, leaving a rewrite that grows too much', async () => {
    const grow = 'e=' + 'x'.repeat(250);
    const c = await stdioClient(s, {
      env: {
        FORGE_MCP_TOOL_SURFACE: 'individual',
        FORGE_MCP_DESCRIPTION_SUBSTITUTIONS: `Issue=Ticket,${grow}`,
      },
    });
    try {
      const tools = (await c.client.listTools()).tools;
      const get = tools.find((t) => t.name === 'forge_issue_get')!;
      const { catalog } = await import('../dist/catalog/index.js');
      const original = catalog().get('issue.get')!;
      // The description has many an "e": growing beyond twice its length (and 512 bytes), it is left as
      // written; the short title grows by less than 512 bytes and is rewritten.
      expect(get.description).toBe(original.description);
      expect(get.title).not.toBe(original.title);
      expect(get.title).toContain('x'.repeat(250));
    } finally {
      await c.close();
    }
    const d = await stdioClient(s, {
      env: {
        FORGE_MCP_TOOL_SURFACE: 'individual',
        FORGE_MCP_DESCRIPTION_SUBSTITUTIONS: 'issue=ticket,Issue=Ticket',
      },
    });
    try {
      const get = (await d.client.listTools()).tools.find((t) => t.name === 'forge_issue_get')!;
      expect(`${get.title} ${get.description}`).toMatch(/[Tt]icket/);
      expect(`${get.title} ${get.description}`).not.toMatch(/[Ii]ssue/);
      expect(get.name).toBe('forge_issue_get');
    } finally {
      await d.close();
    }
  });

  it('individual refuses a call that gives none of a one-of group, before anything is sent', async () => {
    const c = await stdioClient(s, { env: { FORGE_MCP_TOOL_SURFACE: 'individual' } });
    try {
      const since = s.requests.length;
      const none = await c.client.callTool({
        name: 'forge_create_current_user_pat',
        arguments: { name: 'kube' },
      });
      expect(none.isError).toBe(true);
      expect(textOf(none)).toBe(
        'validating "arguments": missing one of the properties "scopes", "granular_scopes"',
      );
      expect(apiCalls(s, since)).toHaveLength(0);
      // Either member of the group is enough: the call is sent.
      const one = await c.client.callTool({
        name: 'forge_create_current_user_pat',
        arguments: { name: 'kube', scopes: ['k8s_proxy'] },
      });
      expect(textOf(one)).not.toMatch(/missing one of/);
      expect(apiCalls(s, since).map((r) => `${r.method} ${r.path}`)).toContain(
        'POST /api/v4/user/personal_access_tokens',
      );
    } finally {
      await c.close();
    }
  });

  it('individual lists one closed-schema tool per action; with an admin token and tier ultimate, every action', async () => {
    const c = await stdioClient(s, {
      env: { FORGE_MCP_TOOL_SURFACE: 'individual', FORGE_TOKEN: s.tokens.admin },
    });
    try {
      const { tools } = await c.client.listTools();
      const { catalog } = await import('../dist/catalog/index.js');
      expect(tools).toHaveLength(catalog().actions.length);
      const create = tools.find((t) => t.name === 'forge_issue_create')!;
      expect(create.inputSchema.additionalProperties).toBe(false);
      expect(create.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      const del = tools.find((t) => t.name === 'forge_issue_delete')!;
      expect(del.annotations?.destructiveHint).toBe(true);
      const bad = await c.client.callTool({
        name: 'forge_issue_get',
        arguments: { project_id: '1', issue_iid: 1, extra: true },
      });
      expect(textOf(bad)).toMatch(/^validating "arguments": unknown property "extra"/);
    } finally {
      await c.close();
    }
  });
});
