/**
 * Guardrails, scopes and tiers over real stdio (both protocol eras), each asserting from forge-sim's
 * request log that nothing reached the instance where nothing should.
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCalls,
  httpServer,
  logged,
  logRecords,
  sim,
  stdioClient,
  stdioRaw,
  textOf,
  type Connected,
  type ForgeSim,
  rpc,
  until,
} from './harness.js';

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
/** Folders the path tests make in the real home directory (outside every allowed one), removed at the end. */
const homeFolders: string[] = [];
const homeTemp = (prefix: string) => {
  const dir = mkdtempSync(join(homedir(), prefix));
  homeFolders.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of homeFolders) rmSync(dir, { recursive: true, force: true });
  await s.close();
});

/** Opens a client, runs `fn`, and always closes it. */
async function withClient(
  env: Record<string, string>,
  fn: (c: Connected) => Promise<void>,
  extra: Parameters<typeof stdioClient>[1] = {},
) {
  const c = await stdioClient(s, { ...extra, env: { ...extra.env, ...env } });
  try {
    await fn(c);
  } finally {
    await c.close();
  }
}

const DELETE_ISSUE = { action: 'issue.delete', params: { project_id: '1', issue_iid: 2 } };
/** issue.delete through the meta surface's forge_issue tool. */
const deleteOnMeta = (c: Connected) =>
  c.client.callTool({ name: 'forge_issue', arguments: { action: 'delete', params: DELETE_ISSUE.params } });
const deletes = (since: number) => apiCalls(s, since).filter((q) => q.method === 'DELETE');
const writes = (since: number) => apiCalls(s, since).filter((q) => q.method !== 'GET');

describe('read-only (FORGE_MCP_READ_ONLY)', () => {
  it('dynamic: find omits writes, execute stays annotated read-only, a write is answered as withheld', async () => {
    await withClient({ FORGE_MCP_READ_ONLY: 'true' }, async (c) => {
      const { tools } = await c.client.listTools();
      expect(tools.find((t) => t.name === 'forge_execute_action')!.annotations?.readOnlyHint).toBe(true);
      const found = await c.client.callTool({
        name: 'forge_find_action',
        arguments: { query: 'create an issue', limit: 20 },
      });
      const matches = (found.structuredContent as { matches: Array<{ id: string; write: boolean }> }).matches;
      expect(matches.some((m) => m.write)).toBe(false);
      // The model is told why a request to change something found only reads.
      expect(textOf(found)).toMatch(
        /\nRun one with forge_execute_action \{action, params\}\.\nThis server is read-only: write actions are neither found nor run, so nothing here changes anything\.$/,
      );
      const none = await c.client.callTool({ name: 'forge_find_action', arguments: { query: 'zzqx qqzx' } });
      expect(textOf(none)).toMatch(/^No action matches "zzqx qqzx"\..*\nThis server is read-only: /s);
      const since = s.requests.length;
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.create', params: { project_id: '1', title: 'x' } },
      });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(
        /^forge_execute_action: issue\.create exists but is withheld: the server runs in read-only mode/,
      );
      expect(writes(since)).toHaveLength(0);
      const read = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
      });
      expect(read.isError).toBeFalsy();
    });
  });

  it('meta: a write action is unknown, with the valid ones listed', async () => {
    await withClient({ FORGE_MCP_READ_ONLY: 'true', FORGE_MCP_TOOL_SURFACE: 'meta' }, async (c) => {
      const since = s.requests.length;
      const r = await c.client.callTool({
        name: 'forge_issue',
        arguments: { action: 'create', params: { project_id: '1', title: 'x' } },
      });
      expect(textOf(r)).toMatch(/^forge_issue: unknown action "create"\. Valid actions: .*\bget\b/);
      const valid = textOf(r).split('Valid actions: ')[1].split(', ');
      expect(valid).toContain('get');
      expect(valid).not.toContain('create');
      expect(writes(since)).toHaveLength(0);
    });
  });

  it('individual: write tools are not registered', async () => {
    await withClient({ FORGE_MCP_READ_ONLY: 'true', FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('forge_issue_get');
      expect(names).not.toContain('forge_issue_create');
      expect(names).not.toContain('forge_issue_delete');
      const since = s.requests.length;
      await expect(
        c.client.callTool({ name: 'forge_issue_create', arguments: { project_id: '1', title: 'x' } }),
      ).rejects.toThrow(/unknown tool/);
      expect(writes(since)).toHaveLength(0);
    });
  });
});

describe('safe mode (FORGE_MCP_SAFE_MODE)', () => {
  const card = (t: string) => {
    expect(t).toMatch(/^## Safe mode blocked/);
    expect(t).toContain('| status | blocked |');
    expect(t).toContain('| mode | safe |');
    expect(t).toContain('| action | issue.create |');
    expect(t).toContain('"title":"x"');
    expect(t).toContain('FORGE_MCP_SAFE_MODE=false');
  };

  it('dynamic: writes stay listed and answer the preview card; reads run', async () => {
    await withClient({ FORGE_MCP_SAFE_MODE: 'true' }, async (c) => {
      const found = await c.client.callTool({
        name: 'forge_find_action',
        arguments: { query: 'create an issue' },
      });
      expect((found.structuredContent as { matches: Array<{ id: string }> }).matches[0].id).toBe(
        'issue.create',
      );
      const since = s.requests.length;
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.create', params: { project_id: '1', title: 'x' } },
      });
      expect(r.isError).toBeFalsy();
      card(textOf(r));
      expect(writes(since)).toHaveLength(0);
      const read = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.list', params: { project_id: '1' } },
      });
      expect(read.isError).toBeFalsy();
    });
  });

  it('individual: writes stay listed, and the preview is an error result', async () => {
    await withClient({ FORGE_MCP_SAFE_MODE: 'true', FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('forge_issue_create');
      expect(names).toContain('forge_issue_delete');
      const since = s.requests.length;
      const r = await c.client.callTool({
        name: 'forge_issue_create',
        arguments: { project_id: '1', title: 'x' },
      });
      expect(r.isError).toBe(true);
      card(textOf(r));
      expect(writes(since)).toHaveLength(0);
    });
  });

  it('meta: write actions stay listed and answer the preview card', async () => {
    await withClient({ FORGE_MCP_SAFE_MODE: 'true', FORGE_MCP_TOOL_SURFACE: 'meta' }, async (c) => {
      const issue = (await c.client.listTools()).tools.find((t) => t.name === 'forge_issue')!;
      expect(issue.description).toMatch(/^- create: /m);
      expect(issue.annotations?.readOnlyHint).toBe(false);
      const since = s.requests.length;
      const r = await c.client.callTool({
        name: 'forge_issue',
        arguments: { action: 'create', params: { project_id: '1', title: 'x' } },
      });
      // Only the individual surface answers the preview as an error result.
      expect(r.isError).toBeFalsy();
      card(textOf(r));
      expect(writes(since)).toHaveLength(0);
    });
  });

  it('read-only wins when both are set', async () => {
    await withClient({ FORGE_MCP_SAFE_MODE: 'true', FORGE_MCP_READ_ONLY: 'true' }, async (c) => {
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.create', params: { project_id: '1', title: 'x' } },
      });
      expect(textOf(r)).toMatch(/exists but is withheld: the server runs in read-only mode/);
      expect(logged(c.stderr(), 'warn')).toEqual([
        'FORGE_MCP_SAFE_MODE="true" does nothing beside FORGE_MCP_READ_ONLY="true": read-only removes the writes safe mode would preview',
      ]);
    });
  });
});

describe('destructive call decision', () => {
  const CONFIRM =
    /^Confirm forge_execute_action\/issue\.delete\? .+Re-send with confirm=true only after the user explicitly approves\. On this tool confirm goes beside action and params, not inside params: \{"action": \.\.\., "params": \{\.\.\.\}, "confirm": true\}\.$/;

  it('fails closed on the dynamic surface without confirm, and proceeds with confirm=true', async () => {
    await withClient({}, async (c) => {
      s.reset();
      let since = s.requests.length;
      const asked = await c.client.callTool({ name: 'forge_execute_action', arguments: DELETE_ISSUE });
      expect(asked.isError).toBe(true);
      expect(textOf(asked)).toMatch(CONFIRM);
      expect(textOf(asked)).toContain('Delete issue (project_id 1, issue_iid 2): it cannot be undone.');
      expect(deletes(since)).toHaveLength(0);
      since = s.requests.length;
      const done = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { ...DELETE_ISSUE, confirm: true },
      });
      expect(done.isError).toBeFalsy();
      expect(deletes(since)).toHaveLength(1);
    });
  });

  it('dynamic surface: confirm sent inside params, as a domain tool takes it, is refused saying where it goes; nothing sent', async () => {
    await withClient({}, async (c) => {
      const since = s.requests.length;
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.delete', params: { ...DELETE_ISSUE.params, confirm: true } },
      });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe(
        'invalid params. Unknown params: confirm. Valid params: project_id, issue_iid. On this tool confirm goes beside action and params, not inside params: {"action": ..., "params": {...}, "confirm": true}.',
      );
      expect(apiCalls(s, since)).toHaveLength(0);
    });
  });

  it('individual surface: the confirmation names no place beside action (its tool takes confirm among its arguments); nothing sent', async () => {
    await withClient({ FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      const since = s.requests.length;
      const r = await c.client.callTool({
        name: 'forge_issue_delete',
        arguments: DELETE_ISSUE.params,
      });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(
        /^Confirm forge_issue_delete\/delete\? .+Re-send with confirm=true only after the user explicitly approves$/,
      );
      expect(deletes(since)).toHaveLength(0);
    });
  });

  // Only the boolean true approves, on each surface where it is taken: a string or number is refused with the
  // way to send it, never read as approval (the schema's coercion would read "true" and 1 as true).
  const notBoolean: Array<[unknown, string]> = [
    ['true', 'the string "true"'],
    [1, 'the number 1'],
    ['yes', 'the string "yes"'],
    ['1', 'the string "1"'],
  ];
  const refusedConfirm = (where: string, got: string) =>
    `validating "arguments": ${where} must be a boolean (got ${got}), so it was not read as approval and nothing was sent. Send ${where}: true (the boolean, not a string or number) only after the user explicitly approves`;
  const surfaces: Array<
    [string, string, (confirm: unknown) => { name: string; arguments: Record<string, unknown> }]
  > = [
    [
      'dynamic',
      'confirm',
      (confirm) => ({ name: 'forge_execute_action', arguments: { ...DELETE_ISSUE, confirm } }),
    ],
    [
      'meta',
      'params.confirm',
      (confirm) => ({
        name: 'forge_issue',
        arguments: { action: 'delete', params: { ...DELETE_ISSUE.params, confirm } },
      }),
    ],
    [
      'individual',
      'confirm',
      (confirm) => ({ name: 'forge_issue_delete', arguments: { ...DELETE_ISSUE.params, confirm } }),
    ],
  ];
  it.each(surfaces)(
    '%s surface: confirm "true", 1, "yes" or "1" is refused with the way to confirm, nothing sent; the boolean true runs it',
    async (surface, where, call) => {
      await withClient({ FORGE_MCP_TOOL_SURFACE: surface }, async (c) => {
        s.reset();
        let since = s.requests.length;
        for (const [value, got] of notBoolean) {
          const r = await c.client.callTool(call(value));
          expect(r.isError).toBe(true);
          expect(textOf(r)).toBe(refusedConfirm(where, got));
        }
        expect(deletes(since)).toHaveLength(0);
        since = s.requests.length;
        const done = await c.client.callTool(call(true));
        expect(done.isError).toBeFalsy();
        expect(deletes(since)).toHaveLength(1);
        expect(deletes(since)[0]!.path).toBe('/api/v4/projects/1/issues/2');
      });
    },
  );

  it('the confirmation question names an identifier up to 64 characters whole, and a longer one cut there', async () => {
    await withClient({}, async (c) => {
      const since = s.requests.length;
      const ask = async (project_id: string) =>
        textOf(
          await c.client.callTool({
            name: 'forge_execute_action',
            arguments: { action: 'issue.delete', params: { project_id, issue_iid: 2 } },
          }),
        );
      const exact = `acme/${'w'.repeat(59)}`;
      expect(await ask(exact)).toContain(
        `Delete issue (project_id ${exact}, issue_iid 2): it cannot be undone.`,
      );
      expect(await ask(`${exact}x`)).toContain(
        `Delete issue (project_id ${exact}…, issue_iid 2): it cannot be undone.`,
      );
      expect(deletes(since)).toHaveLength(0);
    });
  });

  it('dynamic surface: confirm null reads as not given, answering the confirmation question, nothing sent', async () => {
    await withClient({}, async (c) => {
      const since = s.requests.length;
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { ...DELETE_ISSUE, confirm: null },
      });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(CONFIRM);
      expect(deletes(since)).toHaveLength(0);
    });
  });

  const combos: Array<[string, Record<string, string>, boolean]> = [
    ['FORGE_MCP_YOLO_MODE=true', { FORGE_MCP_YOLO_MODE: 'true' }, true],
    ['FORGE_MCP_YOLO_MODE=yes', { FORGE_MCP_YOLO_MODE: 'YES' }, true],
    ['AUTOPILOT=1 alone', { AUTOPILOT: '1' }, true],
    [
      'FORGE_MCP_YOLO_MODE=false overrides AUTOPILOT=1',
      { FORGE_MCP_YOLO_MODE: 'false', AUTOPILOT: '1' },
      false,
    ],
    ['AUTOPILOT=nope', { AUTOPILOT: 'nope' }, false],
    [
      'YOLO with safe mode: safe mode previews',
      { FORGE_MCP_YOLO_MODE: 'true', FORGE_MCP_SAFE_MODE: 'true' },
      false,
    ],
    ['YOLO with read-only: withheld', { FORGE_MCP_YOLO_MODE: 'true', FORGE_MCP_READ_ONLY: 'true' }, false],
  ];
  it.each(combos)('%s', async (_name, env, proceeds) => {
    await withClient(env, async (c) => {
      s.reset();
      const since = s.requests.length;
      const r = await c.client.callTool({ name: 'forge_execute_action', arguments: DELETE_ISSUE });
      expect(deletes(since)).toHaveLength(proceeds ? 1 : 0);
      if (env.FORGE_MCP_SAFE_MODE) expect(textOf(r)).toMatch(/^## Safe mode blocked/);
      else if (env.FORGE_MCP_READ_ONLY) expect(textOf(r)).toMatch(/withheld/);
      else if (!proceeds) expect(textOf(r)).toMatch(CONFIRM);
    });
  });

  describe.each([
    ['legacy era (elicitation/create)', false],
    ['2026-07-28 era (input request)', true],
  ])('client elicitation, %s', (_era, modern) => {
    const outcomes: Array<
      [string, { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }, RegExp | null]
    > = [
      ['approved', { action: 'accept', content: { confirm: true } }, null],
      [
        'declined',
        { action: 'decline' },
        /^The user declined issue\.delete\. Do not retry this operation; ask the user what they want to do instead\.$/,
      ],
      [
        'dismissed',
        { action: 'cancel' },
        /^The confirmation for issue\.delete was dismissed without an answer; nothing changed\. You may ask again\.$/,
      ],
      [
        'answered without confirming',
        { action: 'accept', content: { confirm: false } },
        /^Operation canceled by user\.$/,
      ],
    ];
    it.each(outcomes)('meta surface, %s', async (_what, answer, refusal) => {
      let asked = '';
      await withClient(
        { FORGE_MCP_TOOL_SURFACE: 'meta' },
        async (c) => {
          s.reset();
          const since = s.requests.length;
          const r = await deleteOnMeta(c);
          // The person asked sees what would be deleted: the identifiers of its path.
          expect(asked).toMatch(
            /^Confirm forge_issue\/delete\? Delete issue \(project_id 1, issue_iid 2\): it cannot be undone\. /,
          );
          if (refusal) {
            expect(r.isError).toBe(true);
            expect(textOf(r)).toMatch(refusal);
            expect(deletes(since)).toHaveLength(0);
          } else {
            expect(r.isError).toBeFalsy();
            expect(deletes(since)).toHaveLength(1);
          }
        },
        {
          modern,
          onElicit: (p) => {
            asked = p.message;
            return answer;
          },
        },
      );
    });

    it('individual surface asks too; the dynamic surface never asks', async () => {
      let asks = 0;
      await withClient(
        { FORGE_MCP_TOOL_SURFACE: 'individual' },
        async (c) => {
          s.reset();
          const since = s.requests.length;
          const r = await c.client.callTool({
            name: 'forge_issue_delete',
            arguments: { project_id: '1', issue_iid: 2 },
          });
          expect(r.isError).toBeFalsy();
          expect(asks).toBe(1);
          expect(deletes(since)).toHaveLength(1);
        },
        { modern, onElicit: () => (asks++, { action: 'accept', content: { confirm: true } }) },
      );
      asks = 0;
      await withClient(
        {},
        async (c) => {
          const r = await c.client.callTool({ name: 'forge_execute_action', arguments: DELETE_ISSUE });
          expect(asks).toBe(0);
          expect(textOf(r)).toMatch(CONFIRM);
        },
        { modern, onElicit: () => (asks++, { action: 'accept', content: { confirm: true } }) },
      );
    });
  });

  it('a failed confirmation exchange (the client errs answering elicitation/create) answers Confirmation failed and runs nothing', async () => {
    await withClient(
      { FORGE_MCP_TOOL_SURFACE: 'meta' },
      async (c) => {
        s.reset();
        const since = s.requests.length;
        const r = await deleteOnMeta(c);
        expect(r.isError).toBe(true);
        expect(textOf(r)).toMatch(
          /^Confirmation failed: .*the dialog crashed.*\. The action was not executed\.$/,
        );
        expect(deletes(since)).toHaveLength(0);
      },
      {
        onElicit: () => {
          throw new Error('the dialog crashed');
        },
      },
    );
  });

  it("the client's cancel of the call withdraws its open confirmation question (legacy era), and nothing runs", async () => {
    await withClient(
      { FORGE_MCP_TOOL_SURFACE: 'meta' },
      async (c) => {
        s.reset();
        const since = s.requests.length;
        let asked = 0;
        let withdrawn = false;
        c.client.setRequestHandler('elicitation/create', (_req, ctx) => {
          asked++;
          return new Promise((_resolve, reject) =>
            ctx.mcpReq.signal.addEventListener('abort', () => {
              withdrawn = true;
              reject(new Error('withdrawn'));
            }),
          );
        });
        const call = new AbortController();
        const deleting = c.client.callTool(
          { name: 'forge_issue', arguments: { action: 'delete', params: DELETE_ISSUE.params } },
          { signal: call.signal },
        );
        deleting.catch(() => undefined);
        await until(() => asked === 1, 'the confirmation question');
        call.abort('the user stopped it');
        await expect(deleting).rejects.toThrow();
        await until(() => withdrawn, "the question's withdrawal", 10_000);
        expect(deletes(since)).toHaveLength(0);
      },
      { capabilities: { elicitation: { form: {} } } },
    );
  });

  it('a client that cannot prompt gets the confirmation text on the meta surface', async () => {
    await withClient({ FORGE_MCP_TOOL_SURFACE: 'meta' }, async (c) => {
      s.reset();
      const since = s.requests.length;
      const r = await c.client.callTool({
        name: 'forge_issue',
        arguments: { action: 'delete', params: { project_id: '1', issue_iid: 2 } },
      });
      // The spec's text, then where this tool takes confirm (beside action, as forge_execute_action takes it, it
      // is refused).
      expect(textOf(r)).toMatch(
        /^Confirm forge_issue\/delete\? .+Re-send with confirm=true only after the user explicitly approves\. On this tool confirm goes inside params, beside the action's other parameters: \{"action": \.\.\., "params": \{\.\.\., "confirm": true\}\}\.$/,
      );
      expect(deletes(since)).toHaveLength(0);
      const beside = await c.client.callTool({
        name: 'forge_issue',
        arguments: { action: 'delete', params: { project_id: '1', issue_iid: 2 }, confirm: true },
      });
      expect(beside.isError).toBe(true);
      expect(textOf(beside)).toBe(
        'validating "arguments": unknown property "confirm". On this tool confirm goes inside params, beside the action\'s other parameters: {"action": ..., "params": {..., "confirm": true}}.',
      );
      const besideToo = await c.client.callTool({
        name: 'forge_issue',
        arguments: { action: 'delete', params: {}, project_id: '1', confirm: true },
      });
      expect(textOf(besideToo)).toMatch(
        /^validating "arguments": unknown property "project_id"\. Pass the action's parameters inside params, not beside action\. On this tool confirm goes inside params/,
      );
      expect(deletes(since)).toHaveLength(0);
      const ok = await c.client.callTool({
        name: 'forge_issue',
        arguments: { action: 'delete', params: { project_id: '1', issue_iid: 2, confirm: true } },
      });
      expect(ok.isError).toBeFalsy();
    });
  });

  it('refuses a confirmation state the server did not issue with a JSON-RPC invalid-params error', async () => {
    const forged = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: 'forge_issue',
        arguments: { action: 'delete', params: { project_id: '1', issue_iid: 2 } },
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        requestState: 'forged-state',
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        },
      },
    };
    const expectRefused = (answer: { id?: unknown; error?: { code: number; message: string } }) => {
      expect(answer.id).toBe(7);
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toContain('requestState');
    };
    const since = s.requests.length;
    const server = await httpServer(s, ['--tool-surface=meta']);
    try {
      const res = await rpc(
        server.url,
        {
          authorization: `Bearer ${s.tokens.api}`,
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'forge_issue',
        },
        forged,
      );
      const text = await res.text();
      expectRefused(JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text) as never);
    } finally {
      await server.stop();
    }
    const c = stdioRaw(s, { FORGE_MCP_TOOL_SURFACE: 'meta' });
    try {
      c.write(`${JSON.stringify(forged)}\n`);
      const [answer] = await c.waitFor(1);
      expectRefused(answer as never);
    } finally {
      await c.close();
    }
    expect(deletes(since)).toEqual([]);
  });
});

describe('argument-dependent guards', () => {
  it.each(['assignee_ids', 'crm_contact_ids'])(
    'issue.work_item_update asks before an explicit empty %s removes them all',
    async (list) => {
      await withClient({}, async (c) => {
        const since = s.requests.length;
        const r = await c.client.callTool({
          name: 'forge_execute_action',
          arguments: {
            action: 'issue.work_item_update',
            params: { full_path: 'acme/widgets', work_item_iid: '1', [list]: [] },
          },
        });
        expect(textOf(r)).toMatch(
          /^Confirm forge_execute_action\/issue\.work_item_update\? Update work item: An empty \w+ removes every [\w ]+ from the work item\. Re-send with confirm=true only after the user explicitly approves$/,
        );
        expect(apiCalls(s, since).filter((q) => q.path === '/api/graphql')).toHaveLength(0);
      });
    },
  );

  it("on forge_execute_action, the action's own declared confirm (params.confirm: true) approves, as on the other surfaces; a non-boolean one is refused", async () => {
    await withClient({}, async (c) => {
      const call = (confirm: unknown) =>
        c.client.callTool({
          name: 'forge_execute_action',
          arguments: {
            action: 'issue.work_item_update',
            params: { full_path: 'acme/widgets', work_item_iid: '1', assignee_ids: [], confirm },
          },
        });
      const graphql = (since: number) => apiCalls(s, since).filter((q) => q.path === '/api/graphql');
      let since = s.requests.length;
      const refused = await call('true');
      expect(textOf(refused)).toMatch(
        /^validating "arguments": params\.confirm must be a boolean \(got the string "true"\)/,
      );
      expect(graphql(since)).toHaveLength(0);
      since = s.requests.length;
      const approved = await call(true);
      expect(approved.isError, textOf(approved)).toBeFalsy();
      expect(graphql(since).length).toBeGreaterThan(0);
      // Its confirm inside params is in its place: a call refused for another parameter says nothing of it.
      since = s.requests.length;
      const misspelt = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: {
          action: 'issue.work_item_update',
          params: { full_path: 'acme/widgets', work_item_iid: '1', assignee_idz: [], confirm: true },
        },
      });
      expect(misspelt.isError).toBe(true);
      expect(textOf(misspelt)).toMatch(/Unknown params: assignee_idz/);
      expect(textOf(misspelt)).not.toContain('confirm goes');
      expect(graphql(since)).toHaveLength(0);
    });
  });

  it('project.pull_mirror_configure asks before arming an overwriting mirror', async () => {
    await withClient({ FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      const tool = (await c.client.listTools()).tools.find(
        (t) => t.name === 'forge_project_pull_mirror_configure',
      )!;
      expect((tool.inputSchema.properties as Record<string, unknown>).confirm).toBeDefined();
      const since = s.requests.length;
      const r = await c.client.callTool({
        name: tool.name,
        arguments: {
          project_id: '1',
          enabled: true,
          url: 'https://example.com/x.git',
          mirror_overwrites_diverged_branches: true,
        },
      });
      expect(textOf(r)).toMatch(/^Confirm /);
      expect(writes(since)).toHaveLength(0);
    });
  });
});

describe('exclude list (FORGE_MCP_EXCLUDE_TOOLS)', () => {
  const EX = 'issue.delete,forge_merge_request,forge_branch_create,nothing.here';
  it('removes actions, groups and tools on every surface, and warns about an entry naming nothing', async () => {
    await withClient({ FORGE_MCP_EXCLUDE_TOOLS: EX }, async (c) => {
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { ...DELETE_ISSUE, confirm: true },
      });
      expect(textOf(r)).toMatch(/unknown action "issue\.delete"/);
      const mr = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'merge_request.list', params: { project_id: '1' } },
      });
      expect(textOf(mr)).toMatch(/unknown action/);
      const found = await c.client.callTool({
        name: 'forge_find_action',
        arguments: { query: 'delete issue', limit: 20 },
      });
      expect(JSON.stringify(found.structuredContent)).not.toContain('"issue.delete"');
      expect(c.stderr()).toMatch(/"level":"warn".*nothing\.here/);
    });
    await withClient({ FORGE_MCP_EXCLUDE_TOOLS: EX, FORGE_MCP_TOOL_SURFACE: 'meta' }, async (c) => {
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain('forge_merge_request');
      expect(names).toContain('forge_issue');
    });
    await withClient({ FORGE_MCP_EXCLUDE_TOOLS: EX, FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain('forge_issue_delete');
      expect(names).not.toContain('forge_branch_create');
      expect(names.some((n) => n.startsWith('forge_merge_request_'))).toBe(false);
      expect(names).toContain('forge_issue_get');
    });
  });

  it('a bare domain name removes all of its actions on every surface, individual tools included', async () => {
    const { catalog } = await import('../dist/catalog/index.js');
    const mrTools = catalog()
      .actions.filter((a) => a.id.startsWith('merge_request.'))
      .map((a) => a.tool);
    expect(mrTools.length).toBeGreaterThan(10);
    await withClient(
      { FORGE_MCP_EXCLUDE_TOOLS: 'merge_request', FORGE_MCP_TOOL_SURFACE: 'individual' },
      async (c) => {
        const names = (await c.client.listTools()).tools.map((t) => t.name);
        for (const t of mrTools) expect(names).not.toContain(t);
        expect(names).toContain('forge_issue_get');
        expect(c.stderr()).not.toMatch(/"level":"warn".*names no tool/);
      },
    );
    await withClient(
      { FORGE_MCP_EXCLUDE_TOOLS: 'merge_request', FORGE_MCP_TOOL_SURFACE: 'meta' },
      async (c) => {
        expect((await c.client.listTools()).tools.map((t) => t.name)).not.toContain('forge_merge_request');
      },
    );
    await withClient({ FORGE_MCP_EXCLUDE_TOOLS: 'merge_request' }, async (c) => {
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'merge_request.list', params: { project_id: '1' } },
      });
      expect(textOf(r)).toMatch(/unknown action "merge_request\.list"/);
    });
  });

  it('utilities are excluded by tool name or canonical ID', async () => {
    const { catalog } = await import('../dist/catalog/index.js');
    const interactive = catalog().actions.filter((a) => a.id.startsWith('interactive.'));
    const exec = (c: Connected, action: string) =>
      c.client.callTool({ name: 'forge_execute_action', arguments: { action, params: {} } });
    await withClient({ FORGE_MCP_EXCLUDE_TOOLS: 'forge_interactive,discover_project.resolve' }, async (c) => {
      for (const a of interactive) expect(textOf(await exec(c, a.id))).toMatch(/unknown action/);
      expect(textOf(await exec(c, 'discover_project.resolve'))).toMatch(/unknown action/);
    });
    await withClient({ FORGE_MCP_EXCLUDE_TOOLS: 'interactive.issue_create' }, async (c) => {
      expect(textOf(await exec(c, 'interactive.issue_create'))).toMatch(/unknown action/);
      const other = interactive.find((a) => a.id !== 'interactive.issue_create');
      if (other) expect(textOf(await exec(c, other.id))).not.toMatch(/unknown action/);
    });
  });

  it('over HTTP too, an entry naming nothing is logged at WARN (and a known one is not)', async () => {
    const server = await httpServer(s, ['--exclude-tools=nothing.here,forge_issue']);
    try {
      const warns = server
        .stderr()
        .split('\n')
        .filter((l) => l.includes('"level":"warn"') && l.includes('names no tool'));
      expect(warns).toHaveLength(1);
      expect(warns[0]).toContain('"entry":"nothing.here"');
    } finally {
      await server.stop();
    }
  });

  it('names the action, tool or group a misspelt entry is nearest to, over HTTP and on stdio', async () => {
    const server = await httpServer(s, [
      '--safe-mode',
      '--exclude-tools=issue.delet,forge_pipelin,nothing.here',
    ]);
    try {
      // The start line names the guardrails in force.
      expect(logRecords(server.stderr()).find((r) => r.msg === 'serving over HTTP')).toMatchObject({
        guardrails: 'safe mode; excluding issue.delet,forge_pipelin,nothing.here',
      });
      expect(logged(server.stderr(), 'warn')).toEqual([
        'FORGE_MCP_EXCLUDE_TOOLS entry "issue.delet" names no tool, group or action; did you mean issue.delete?',
        'FORGE_MCP_EXCLUDE_TOOLS entry "forge_pipelin" names no tool, group or action; did you mean forge_pipeline?',
        'FORGE_MCP_EXCLUDE_TOOLS entry "nothing.here" names no tool, group or action',
      ]);
    } finally {
      await server.stop();
    }
    await withClient({ FORGE_MCP_EXCLUDE_TOOLS: 'mergerequest' }, async (c) => {
      expect(logged(c.stderr(), 'warn')).toEqual([
        'FORGE_MCP_EXCLUDE_TOOLS entry "mergerequest" names no tool, group or action; did you mean merge_request?',
      ]);
    });
  });
});

describe('scopes', () => {
  it('read_api narrows to reads and the writes read_api may run, which keep write annotations', async () => {
    await withClient({ FORGE_TOKEN: s.tokens.readApi, FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      const tools = (await c.client.listTools()).tools;
      const names = tools.map((t) => t.name);
      expect(names).toContain('forge_issue_list');
      expect(names).not.toContain('forge_issue_create');
      const trigger = tools.find((t) => t.name === 'forge_pipeline_trigger_run');
      expect(trigger, 'pipeline.trigger_run is offered to read_api').toBeDefined();
      expect(trigger!.annotations?.readOnlyHint).toBe(false);
      const download = tools.find((t) => t.name === 'forge_package_download');
      expect(download, 'package.download is offered to read_api').toBeDefined();
      expect(download!.annotations?.readOnlyHint).toBe(false);
    });
  });

  it('a read_api token is offered all five writes read_api may run, none read-only, and a destructive one still asks for confirmation', async () => {
    const FIVE = [
      'forge_package_download',
      'forge_personal_access_token_revoke_self',
      'forge_pipeline_trigger_run',
      'forge_runner_register',
      'forge_runner_delete_by_token',
    ];
    await withClient({ FORGE_TOKEN: s.tokens.readApi, FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      const tools = (await c.client.listTools()).tools;
      for (const name of FIVE) {
        const tool = tools.find((t) => t.name === name);
        expect(tool, `${name} is offered to read_api`).toBeDefined();
        expect(tool!.annotations?.readOnlyHint, name).toBe(false);
      }
    });
    const unregister = { action: 'runner.delete_by_token', params: { token: 'glrt-exampletoken123' } };
    await withClient({ FORGE_TOKEN: s.tokens.readApi }, async (c) => {
      let since = s.requests.length;
      const asked = await c.client.callTool({ name: 'forge_execute_action', arguments: unregister });
      expect(asked.isError).toBe(true);
      expect(textOf(asked)).toMatch(/^Confirm forge_execute_action\/runner\.delete_by_token\? /);
      expect(writes(since)).toHaveLength(0);
      since = s.requests.length;
      await c.client.callTool({ name: 'forge_execute_action', arguments: { ...unregister, confirm: true } });
      expect(deletes(since).map((q) => q.path)).toEqual(['/api/v4/runners']);
    });
  });

  it('package.download still counts as a write for safe mode and read-only', async () => {
    const download = {
      action: 'package.download',
      params: {
        project_id: '1',
        package_name: 'widgets-cli',
        package_version: '1.0.0',
        file_name: 'w.tar.gz',
      },
    };
    await withClient({ FORGE_TOKEN: s.tokens.readApi, FORGE_MCP_SAFE_MODE: 'true' }, async (c) => {
      const since = s.requests.length;
      const r = await c.client.callTool({ name: 'forge_execute_action', arguments: download });
      expect(textOf(r)).toMatch(/^## Safe mode blocked/);
      expect(apiCalls(s, since).filter((q) => q.path.includes('/packages/generic/'))).toHaveLength(0);
    });
    await withClient({ FORGE_TOKEN: s.tokens.readApi, FORGE_MCP_READ_ONLY: 'true' }, async (c) => {
      const since = s.requests.length;
      const r = await c.client.callTool({ name: 'forge_execute_action', arguments: download });
      expect(textOf(r)).toMatch(
        /package\.download exists but is withheld: the server runs in read-only mode/,
      );
      expect(apiCalls(s, since)).toHaveLength(0);
    });
  });

  it('template.lint and project.dependency_firewall_evaluate are withheld from a token without api', async () => {
    await withClient({ FORGE_TOKEN: s.tokens.readApi, FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      const { catalog } = await import('../dist/catalog/index.js');
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      for (const id of ['template.lint', 'project.dependency_firewall_evaluate']) {
        const a = catalog().get(id)!;
        expect(names, id).not.toContain(a.tool);
      }
    });
    await withClient({ FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      const { catalog } = await import('../dist/catalog/index.js');
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      for (const id of ['template.lint', 'project.dependency_firewall_evaluate'])
        expect(names, id).toContain(catalog().get(id)!.tool);
    });
  });

  it('without admin_mode none of the five administration tools is offered; with it all are', async () => {
    const ADMIN = [
      'forge_admin',
      'forge_enterprise_user',
      'forge_project_alias',
      'forge_geo',
      'forge_storage_move',
    ];
    await withClient({ FORGE_MCP_TOOL_SURFACE: 'meta' }, async (c) => {
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      for (const t of ADMIN) expect(names).not.toContain(t);
    });
    await withClient({ FORGE_TOKEN: s.tokens.admin, FORGE_MCP_TOOL_SURFACE: 'meta' }, async (c) => {
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      for (const t of ADMIN) expect(names).toContain(t);
    });
  });

  it('each of the five writes read_api may run still counts as a write for safe mode and read-only', async () => {
    const FIVE: Array<[string, Record<string, unknown>]> = [
      [
        'package.download',
        { project_id: '1', package_name: 'widgets-cli', package_version: '1.0.0', file_name: 'w.tar.gz' },
      ],
      ['access.token_personal_revoke_self', {}],
      ['pipeline.trigger_run', { project_id: '1', token: 'trigger-token', ref: 'main' }],
      ['runner.register', { token: 'GR1348941exampleRegToken' }],
      ['runner.delete_by_token', { token: 'glrt-exampletoken123' }],
    ];
    const run = (c: Connected, action: string, params: Record<string, unknown>) =>
      c.client.callTool({ name: 'forge_execute_action', arguments: { action, params } });
    await withClient({ FORGE_TOKEN: s.tokens.readApi, FORGE_MCP_SAFE_MODE: 'true' }, async (c) => {
      for (const [action, params] of FIVE) {
        const since = s.requests.length;
        expect(textOf(await run(c, action, params)), action).toMatch(/^## Safe mode blocked/);
        expect(apiCalls(s, since), action).toEqual([]);
      }
    });
    await withClient({ FORGE_TOKEN: s.tokens.readApi, FORGE_MCP_READ_ONLY: 'true' }, async (c) => {
      for (const [action, params] of FIVE) {
        const since = s.requests.length;
        expect(textOf(await run(c, action, params)), action).toContain(
          `${action} exists but is withheld: the server runs in read-only mode`,
        );
        expect(apiCalls(s, since), action).toEqual([]);
      }
    });
  });

  it('admin_mode gates the administration groups', async () => {
    await withClient({ FORGE_MCP_TOOL_SURFACE: 'meta' }, async (c) => {
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain('forge_admin');
    });
    await withClient({ FORGE_TOKEN: s.tokens.admin, FORGE_MCP_TOOL_SURFACE: 'meta' }, async (c) => {
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('forge_admin');
    });
  });

  it('a token with only mcp (or neither api nor read_api) is answered -40300 on every catalog method', async () => {
    for (const token of [s.tokens.mcpOnly, s.tokens.noScope]) {
      await withClient({ FORGE_TOKEN: token }, async (c) => {
        await expect(c.client.listTools()).rejects.toThrow(/-40300|neither the api nor the read_api/);
      });
    }
  });

  it('unreadable scopes filter nothing; FORGE_MCP_IGNORE_SCOPES lifts the narrowing', async () => {
    s.fault({ path: '/api/v4/personal_access_tokens/self', status: 500 });
    try {
      await withClient({ FORGE_TOKEN: s.tokens.readApi, FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
        expect((await c.client.listTools()).tools.map((t) => t.name)).toContain('forge_issue_create');
      });
    } finally {
      s.clearFaults();
    }
    await withClient(
      {
        FORGE_TOKEN: s.tokens.readApi,
        FORGE_MCP_TOOL_SURFACE: 'individual',
        FORGE_MCP_IGNORE_SCOPES: 'true',
      },
      async (c) => {
        expect((await c.client.listTools()).tools.map((t) => t.name)).toContain('forge_issue_create');
      },
    );
  });
});

describe('tiers', () => {
  const premium = {
    action: 'merge_request.approval_rules',
    params: { project_id: '1', merge_request_iid: 1 },
  };

  it('a configured tier answers a higher-tier action as existing but unavailable, naming both', async () => {
    await withClient({ FORGE_MCP_TIER: 'ce' }, async (c) => {
      const since = s.requests.length;
      const r = await c.client.callTool({ name: 'forge_execute_action', arguments: premium });
      expect(textOf(r)).toMatch(
        /exists but is unavailable: it needs the premium tier, and this server's tier is free \(configured\)/,
      );
      expect(apiCalls(s, since)).toHaveLength(0);
    });
  });

  it.each([
    ['license ultimate (admin token)', 'ultimate', 'admin', 'ultimate'],
    ['license premium (admin token)', 'premium', 'admin', 'premium'],
    ['no license answer, namespace plans', null, 'api', null],
    ['nothing answers: free', null, 'api', 'free'],
  ] as const)('detects the tier: %s', async (_name, license, token, expected) => {
    s.setLicense(license);
    if (expected === 'free') s.fault({ path: '/api/v4/namespaces', status: 500 });
    try {
      await withClient({ FORGE_MCP_TIER: '', FORGE_TOKEN: s.tokens[token] }, async (c) => {
        const line = c
          .stderr()
          .split('\n')
          .find((l) => l.includes('serving on stdio'))!;
        const got = JSON.parse(line) as { tier: string; tier_source: string };
        expect(got.tier_source).toBe('detected');
        if (expected) expect(got.tier).toBe(expected);
        if (got.tier === 'free') {
          const r = await c.client.callTool({ name: 'forge_execute_action', arguments: premium });
          expect(textOf(r)).toMatch(/needs the premium tier, and this server's tier is free \(detected\)/);
        }
      });
    } finally {
      s.clearFaults();
      s.setLicense('ultimate');
    }
  });
});

describe('tier detection sources', () => {
  /** Starts a client with the tier unset and returns the detected tier and the detection requests sent. */
  async function detect(token: keyof ForgeSim['tokens'] = 'admin') {
    const since = s.requests.length;
    let tier = '';
    await withClient({ FORGE_MCP_TIER: '', FORGE_TOKEN: s.tokens[token] }, async (c) => {
      const line = c
        .stderr()
        .split('\n')
        .find((l) => l.includes('serving on stdio'))!;
      tier = (JSON.parse(line) as { tier: string }).tier;
    });
    const sent = s.requests
      .slice(since)
      .filter((r) => /^\/api\/v4\/(license|namespaces|groups)$/.test(r.path))
      .map((r) => r.path);
    return { tier, sent };
  }
  afterEach(() => {
    s.clearFaults();
    s.setLicense('ultimate');
  });

  it('a configured tier sends no licence check and no namespace read', async () => {
    const since = s.requests.length;
    await withClient({ FORGE_MCP_TIER: 'premium' }, async (c) => {
      await c.client.listTools();
    });
    const paths = s.requests.slice(since).map((r) => r.path);
    expect(paths).toContain('/api/v4/user');
    expect(paths).not.toContain('/api/v4/license');
    expect(paths).not.toContain('/api/v4/namespaces');
  });

  it('asks the licence first: a premium licence gives premium although every namespace is free', async () => {
    s.setLicense('premium');
    s.fault({ path: '/api/v4/namespaces', status: 200, body: [{ id: 1, plan: 'free' }] });
    const { tier, sent } = await detect();
    expect(tier).toBe('premium');
    expect(sent[0]).toBe('/api/v4/license');
  });

  it('then namespace plans: no licence answer and a premium namespace give premium', async () => {
    s.setLicense(null);
    s.fault({
      path: '/api/v4/namespaces',
      status: 200,
      body: [
        { id: 1, plan: 'free' },
        { id: 2, plan: 'premium' },
      ],
    });
    const { tier, sent } = await detect('api');
    expect(tier).toBe('premium');
    expect(sent).toEqual(['/api/v4/license', '/api/v4/namespaces']);
  });

  it('takes the highest source: a premium licence and an ultimate namespace give ultimate', async () => {
    s.setLicense('premium');
    s.fault({ path: '/api/v4/namespaces', status: 200, body: [{ id: 1, plan: 'ultimate' }] });
    expect((await detect()).tier).toBe('ultimate');
  });

  it('never consults group memberships on a self-managed instance', async () => {
    s.setLicense(null);
    s.fault({ path: '/api/v4/namespaces', status: 200, body: [] });
    const { tier, sent } = await detect('api');
    expect(tier).toBe('free');
    expect(sent).toEqual(['/api/v4/license', '/api/v4/namespaces']);
  });
});

describe('local paths', () => {
  const upload = (c: Connected, file_path: string) =>
    c.client.callTool({
      name: 'forge_execute_action',
      arguments: { action: 'project.upload', params: { project_id: '1', file_path } },
    });

  it('accepts a file in the working directory and refuses escapes through .., symlinks, absolute paths and the home directory', async () => {
    const work = mkdtempSync(join(tmpdir(), 'forge-paths-'));
    const outside = homeTemp('.forge-outside-');
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    mkdirSync(join(work, 'inner'));
    writeFileSync(join(work, 'inner', 'ok.txt'), 'hello');
    symlinkSync(join(outside, 'secret.txt'), join(work, 'inner', 'link.txt'));
    // The working directory is a temp dir here, itself allowed; run from a subfolder of home to test confinement.
    const c = await stdioClient(s, { env: { FORGE_MCP_ALLOWED_UPLOAD_DIRS: join(work, 'inner') } });
    try {
      const ok = await upload(c, join(work, 'inner', 'ok.txt'));
      expect(ok.isError, textOf(ok)).toBeFalsy();
      for (const bad of [
        join(work, 'inner', 'link.txt'),
        join(outside, 'secret.txt'),
        `${join(work, 'inner')}/../../../${outside.split('/').slice(-2).join('/')}/secret.txt`,
      ]) {
        const since = s.requests.length;
        const r = await upload(c, bad);
        expect(r.isError, bad).toBe(true);
        expect(textOf(r)).toMatch(/resolves outside the allowed directories/);
        expect(writes(since)).toHaveLength(0);
      }
    } finally {
      await c.close();
    }
  });

  describe('allowed roots, with the server own temporary directory moved aside (TMPDIR)', () => {
    /** base/tmp is the server's temporary directory; work, extra and other lie outside it. */
    function layout() {
      const base = mkdtempSync(join(tmpdir(), 'forge-roots-'));
      for (const d of ['tmp', 'work', 'extra', 'other']) {
        mkdirSync(join(base, d));
        writeFileSync(join(base, d, 'f.txt'), d);
      }
      return { base, at: (d: string) => join(base, d, 'f.txt') };
    }
    async function outcome(env: Record<string, string>, cwd: string, file: string) {
      const c = await stdioClient(s, { env: { TMPDIR: env.TMPDIR, ...env }, cwd });
      try {
        const since = s.requests.length;
        const r = await upload(c, file);
        return {
          refused: /resolves outside the allowed directories/.test(textOf(r)),
          sent: writes(since).length,
        };
      } finally {
        await c.close();
      }
    }

    it('accepts a file inside the working directory and refuses one beside it', async () => {
      const { base, at } = layout();
      const env = { TMPDIR: join(base, 'tmp') };
      expect(await outcome(env, join(base, 'work'), 'f.txt')).toEqual({ refused: false, sent: 1 });
      expect(await outcome(env, join(base, 'work'), at('other'))).toEqual({ refused: true, sent: 0 });
    });

    it('accepts a file inside a directory added by FORGE_MCP_ALLOWED_UPLOAD_DIRS', async () => {
      const { base, at } = layout();
      const env = { TMPDIR: join(base, 'tmp'), FORGE_MCP_ALLOWED_UPLOAD_DIRS: join(base, 'extra') };
      expect(await outcome(env, join(base, 'work'), at('extra'))).toEqual({ refused: false, sent: 1 });
      expect(await outcome(env, join(base, 'work'), at('other'))).toEqual({ refused: true, sent: 0 });
    });

    it('writes a download into, and imports an archive from, a directory added by FORGE_MCP_ALLOWED_DOWNLOAD_DIRS / _IMPORT_DIRS', async () => {
      const { base } = layout();
      const archive = join(base, 'extra', 'export.tar.gz');
      writeFileSync(archive, 'archive');
      chmodSync(archive, 0o644);
      const attempt = async (env: Record<string, string>) => {
        const c = await stdioClient(s, {
          env: { TMPDIR: join(base, 'tmp'), ...env },
          cwd: join(base, 'work'),
        });
        try {
          const download = await c.client.callTool({
            name: 'forge_execute_action',
            arguments: {
              action: 'job.artifacts',
              params: { project_id: '1', job_id: 1001, output_path: join(base, 'extra', 'artifacts.zip') },
            },
          });
          const since = s.requests.length;
          const imported = await c.client.callTool({
            name: 'forge_execute_action',
            arguments: {
              action: 'project.import_from_file',
              params: { path: 'imported-extra', namespace: 'acme', file_path: archive },
            },
          });
          return {
            download: /resolves outside the allowed directories/.test(textOf(download)) ? 'refused' : 'saved',
            saved: readdirSync(join(base, 'extra')).includes('artifacts.zip'),
            imported: /resolves outside the allowed directories/.test(textOf(imported)) ? 'refused' : 'sent',
            sent: writes(since).length,
          };
        } finally {
          await c.close();
        }
      };
      expect(await attempt({})).toEqual({ download: 'refused', saved: false, imported: 'refused', sent: 0 });
      // The upload list adds nothing for downloads and imports: each kind has its own.
      expect(await attempt({ FORGE_MCP_ALLOWED_UPLOAD_DIRS: join(base, 'extra') })).toMatchObject({
        download: 'refused',
        imported: 'refused',
      });
      expect(
        await attempt({
          FORGE_MCP_ALLOWED_DOWNLOAD_DIRS: join(base, 'extra'),
          FORGE_MCP_ALLOWED_IMPORT_DIRS: join(base, 'extra'),
        }),
      ).toEqual({ download: 'saved', saved: true, imported: 'sent', sent: 1 });
    });

    it('a filesystem root as working directory allows nothing by itself', async () => {
      const { base, at } = layout();
      expect(await outcome({ TMPDIR: join(base, 'tmp') }, '/', at('other'))).toEqual({
        refused: true,
        sent: 0,
      });
    });

    it('the home directory as working directory allows nothing by itself', async () => {
      const { base, at } = layout();
      const env = { TMPDIR: join(base, 'tmp'), HOME: base };
      expect(await outcome(env, base, at('other'))).toEqual({ refused: true, sent: 0 });
      // A folder below home is an ordinary working directory.
      expect(await outcome(env, join(base, 'other'), at('other'))).toEqual({ refused: false, sent: 1 });
    });
  });

  it('refuses a file over FORGE_MCP_UPLOAD_MAX_FILE_SIZE and anything but a regular file', async () => {
    const work = mkdtempSync(join(tmpdir(), 'forge-size-'));
    writeFileSync(join(work, 'big.txt'), 'x'.repeat(2048));
    const c = await stdioClient(s, { env: { FORGE_MCP_UPLOAD_MAX_FILE_SIZE: '1KB' } });
    try {
      const since = s.requests.length;
      const big = await upload(c, join(work, 'big.txt'));
      expect(textOf(big)).toMatch(
        /is 2048 bytes, over the upload limit of 1024 bytes \(FORGE_MCP_UPLOAD_MAX_FILE_SIZE\)/,
      );
      const dir = await upload(c, work);
      expect(textOf(dir)).toMatch(/is not a regular file/);
      expect(writes(since)).toHaveLength(0);
    } finally {
      await c.close();
    }
  });

  it('writes a download under a temporary name and renames it when complete, inside the allowed directories only', async () => {
    const out = mkdtempSync(join(tmpdir(), 'forge-dl-'));
    const seen: string[] = [];
    const watcher = watch(out, (_event, name) => {
      if (name && seen[seen.length - 1] !== name) seen.push(name);
    });
    const c = await stdioClient(s);
    try {
      const target = join(out, 'artifacts.zip');
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: {
          action: 'job.artifacts',
          params: { project_id: '1', job_id: 1001, output_path: target },
        },
      });
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(textOf(r)).toMatch(new RegExp(`^Saved \\d+ bytes .* to ${target.replace(/[.]/g, '\\.')}`));
      expect(readdirSync(out)).toEqual(['artifacts.zip']);
      // The names the directory saw, in order: the temporary one first, then the final one.
      await new Promise<void>((done) => {
        const check = () => (seen.includes('artifacts.zip') ? done() : setTimeout(check, 20));
        check();
      });
      watcher.close();
      const partial = seen.findIndex((n) => /^\.artifacts\.zip\.[0-9a-f]{12}\.part$/.test(n));
      expect(partial, seen.join(', ')).toBeGreaterThanOrEqual(0);
      expect(partial).toBeLessThan(seen.indexOf('artifacts.zip'));
      const outside = join(homeTemp('.forge-dl-outside-'), 'a.zip');
      const refused = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: {
          action: 'job.artifacts',
          params: { project_id: '1', job_id: 1001, output_path: outside },
        },
      });
      expect(textOf(refused)).toMatch(/resolves outside the allowed directories/);
    } finally {
      watcher.close();
      await c.close();
    }
  });

  it('confines the directories a handler reads, too', async () => {
    const outside = homeTemp('.forge-dir-outside-');
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    const inside = mkdtempSync(join(tmpdir(), 'forge-dir-'));
    writeFileSync(join(inside, 'a.txt'), 'a');
    const c = await stdioClient(s);
    try {
      const publish = (directory_path: string) =>
        c.client.callTool({
          name: 'forge_execute_action',
          arguments: {
            action: 'package.publish_directory',
            params: { project_id: '1', package_name: 'p', package_version: '1.0.0', directory_path },
          },
        });
      const since = s.requests.length;
      const refused = await publish(outside);
      expect(textOf(refused)).toMatch(/resolves outside the allowed directories/);
      expect(writes(since)).toHaveLength(0);
      const ok = await publish(inside);
      expect(ok.isError, textOf(ok)).toBeFalsy();
      expect(writes(since).map((q) => q.method)).toEqual(['PUT']);
    } finally {
      await c.close();
    }
  });

  it('takes import archives only as regular .tar.gz files that group and others cannot write', async () => {
    const work = mkdtempSync(join(tmpdir(), 'forge-import-'));
    for (const name of ['export.zip', 'export.tar.gz', 'shared.tar.gz'])
      writeFileSync(join(work, name), 'archive');
    chmodSync(join(work, 'export.tar.gz'), 0o644);
    chmodSync(join(work, 'shared.tar.gz'), 0o666);
    const c = await stdioClient(s);
    try {
      const importFrom = (file_path: string) =>
        c.client.callTool({
          name: 'forge_execute_action',
          arguments: {
            action: 'project.import_from_file',
            params: { path: 'imported', namespace: 'acme', file_path },
          },
        });
      const since = s.requests.length;
      expect(textOf(await importFrom(join(work, 'export.zip')))).toMatch(/is not a \.tar\.gz export archive/);
      expect(textOf(await importFrom(join(work, 'shared.tar.gz')))).toMatch(
        /is writable by its group or by everyone/,
      );
      expect(writes(since)).toHaveLength(0);
      const ok = await importFrom(join(work, 'export.tar.gz'));
      expect(ok.isError, textOf(ok)).toBeFalsy();
    } finally {
      await c.close();
    }
  });

  it('does not treat the home directory as an allowed working directory', async () => {
    const inHome = homeTemp('.forge-home-');
    writeFileSync(join(inHome, 'notes.txt'), 'private');
    const c = await stdioClient(s, { cwd: homedir() });
    try {
      const since = s.requests.length;
      const r = await upload(c, join(inHome, 'notes.txt'));
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/resolves outside the allowed directories/);
      expect(writes(since)).toHaveLength(0);
    } finally {
      await c.close();
    }
  });

  it('refuses every local path over HTTP', async () => {
    const server = await httpServer(s);
    try {
      const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
      const client = new Client({ name: 'paths', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { authorization: `Bearer ${s.tokens.api}` } },
        }),
      );
      const since = s.requests.length;
      const r = await client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'project.upload', params: { project_id: '1', file_path: '/etc/hostname' } },
      });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/local paths are refused over HTTP/);
      const dl = await client.callTool({
        name: 'forge_execute_action',
        arguments: {
          action: 'job.artifacts',
          params: { project_id: '1', job_id: 1001, output_path: '/tmp/x.zip' },
        },
      });
      expect(textOf(dl)).toMatch(/job\.artifacts: local paths are refused over HTTP/);
      const dir = await client.callTool({
        name: 'forge_execute_action',
        arguments: {
          action: 'package.publish_directory',
          params: { project_id: '1', package_name: 'p', package_version: '1.0.0', directory_path: '/etc' },
        },
      });
      expect(textOf(dir)).toMatch(/local paths are refused over HTTP/);
      expect(writes(since)).toHaveLength(0);
      await client.close();
    } finally {
      await server.stop();
    }
  });
});
