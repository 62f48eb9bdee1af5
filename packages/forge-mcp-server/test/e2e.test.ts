/**
 * The opt-in end-to-end suite: the same protocol checks against a real instance, when FORGE_E2E_URL and
 * FORGE_E2E_TOKEN are set (FORGE_E2E_PROJECT optionally names a project the token can read). Skipped,
 * and says so, otherwise. Read actions only: nothing is changed on the instance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI, textOf } from './harness.js';

const url = process.env.FORGE_E2E_URL;
const token = process.env.FORGE_E2E_TOKEN;
const enabled = !!url && !!token;
if (!enabled)
  console.log('e2e suite skipped: set FORGE_E2E_URL and FORGE_E2E_TOKEN to run it against a real instance');

describe.skipIf(!enabled)(`end to end against ${url ?? 'a real instance'}`, () => {
  let client: Client;
  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        FORGE_URL: url!,
        FORGE_TOKEN: token!,
        FORGE_MCP_LOG_LEVEL: 'warn',
      },
    });
    client = new Client({ name: 'forge-e2e', version: '1.0.0' });
    await client.connect(transport);
  }, 60_000);
  afterAll(async () => client?.close());

  const exec = (action: string, params: Record<string, unknown>) =>
    client.callTool({ name: 'forge_execute_action', arguments: { action, params } });

  it('lists the two dynamic tools and finds issue.list first', async () => {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'forge_find_action',
      'forge_execute_action',
    ]);
    const found = await client.callTool({
      name: 'forge_find_action',
      arguments: { query: 'list issues of a project' },
    });
    expect((found.structuredContent as { matches: Array<{ id: string }> }).matches[0].id).toBe('issue.list');
  });

  it('reads the current user and one page of projects', async () => {
    const me = await exec('user.current', {});
    expect(me.isError, textOf(me)).toBeFalsy();
    expect((me.structuredContent as { username?: string }).username).toBeTruthy();
    const projects = await exec('project.list', { membership: true, per_page: 1 });
    expect(projects.isError, textOf(projects)).toBeFalsy();
  });

  it.skipIf(!process.env.FORGE_E2E_PROJECT)(
    'lists issues and merge requests of FORGE_E2E_PROJECT',
    async () => {
      const project_id = process.env.FORGE_E2E_PROJECT!;
      for (const action of ['issue.list', 'merge_request.list', 'branch.list', 'pipeline.list']) {
        const r = await exec(action, { project_id, per_page: 2 });
        expect(r.isError, `${action}: ${textOf(r)}`).toBeFalsy();
      }
    },
  );

  it('answers a missing project with the Not Found card', async () => {
    const r = await exec('project.get', { project_id: 'forge-e2e-does-not-exist/nothing-here' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^# Not Found: Project/);
  });
});
