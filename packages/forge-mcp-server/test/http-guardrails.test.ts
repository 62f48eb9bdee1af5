/**
 * The guardrails over loopback HTTP, as over stdio: under --read-only a write is withheld, under --safe-mode
 * it is previewed, a destructive call without confirm fails closed, and in each case forge-sim's request log
 * shows that nothing reached the instance.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiCalls, executeCall, httpServer, rpc, sim, type ForgeSim } from './harness.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => s.close());

/** One stateless tools/call of the execute tool; resolves with the result's text and isError. */
async function execute(
  url: string,
  action: string,
  params: Record<string, unknown>,
): Promise<{ text: string; isError?: boolean }> {
  const res = await rpc(url, { 'private-token': s.tokens.api }, executeCall(1, action, params));
  expect(res.status).toBe(200);
  const raw = await res.text();
  // JSON, or one event-stream message carrying it.
  const json = raw.startsWith('{')
    ? raw
    : raw
        .split('\n')
        .find((l) => l.startsWith('data: '))!
        .slice(6);
  const { result } = JSON.parse(json) as {
    result: { content: Array<{ text: string }>; isError?: boolean };
  };
  return { text: result.content[0]!.text, isError: result.isError };
}

const CREATE = { project_id: '1', title: 'over http' };

describe('guardrails over HTTP', () => {
  it('--read-only: a write is withheld and nothing reaches the instance', async () => {
    const server = await httpServer(s, ['--read-only']);
    try {
      const since = s.requests.length;
      const r = await execute(server.url, 'issue.create', CREATE);
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(
        /^forge_execute_action: issue\.create exists but is withheld: the server runs in read-only mode/,
      );
      expect(apiCalls(s, since)).toEqual([]);
      const read = await execute(server.url, 'issue.get', { project_id: '1', issue_iid: 1 });
      expect(read.isError).toBeFalsy();
    } finally {
      await server.stop();
    }
  });

  it('--safe-mode: a write answers the preview card and nothing reaches the instance', async () => {
    const server = await httpServer(s, ['--safe-mode']);
    try {
      const since = s.requests.length;
      const r = await execute(server.url, 'issue.create', CREATE);
      expect(r.text).toMatch(/^## Safe mode blocked/);
      expect(r.text).toContain('| action | issue.create |');
      expect(apiCalls(s, since)).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('a destructive call without confirm fails closed, nothing sent', async () => {
    const server = await httpServer(s);
    try {
      const since = s.requests.length;
      const r = await execute(server.url, 'issue.delete', { project_id: '1', issue_iid: 2 });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^Confirm forge_execute_action\/issue\.delete\? /);
      expect(apiCalls(s, since)).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});
