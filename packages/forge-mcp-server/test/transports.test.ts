/**
 * Which transport a started process serves, watched from outside: `--transport auto` serves stdio when
 * stdin is a pipe and HTTP when it is not, and an HTTP server never reads FORGE_TOKEN (every request brings
 * its own credential; forge-sim's log shows which token reached the instance).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CLI,
  apiCalls,
  executeCall,
  httpServer,
  listeningSockets,
  rpc,
  sim,
  TEST_COMPILE_CACHE,
  type ForgeSim,
} from './harness.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => s.close());

function start(stdin: 'pipe' | 'ignore', args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [CLI, '--transport', 'auto', ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_COMPILE_CACHE: TEST_COMPILE_CACHE,
      FORGE_URL: s.url,
      FORGE_MCP_TIER: 'ultimate',
      ...env,
    },
    stdio: [stdin, 'pipe', 'pipe'],
  });
}

/** Resolves with the first stream text matching `re` (rejects after a generous limit). */
function waitFor(stream: NodeJS.ReadableStream, re: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let text = '';
    const t = setTimeout(() => reject(new Error(`no ${re} in: ${text}`)), 60_000);
    stream.on('data', (d: Buffer) => {
      text += d.toString();
      const m = re.exec(text);
      if (m) {
        clearTimeout(t);
        resolve(m);
      }
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGKILL');
  await exited;
}

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

describe('--transport auto', () => {
  it('with a stdin pipe serves JSON-RPC on stdin/stdout and listens on no port', async () => {
    const child = start('pipe', [], { FORGE_TOKEN: s.tokens.api });
    try {
      const serving = waitFor(child.stderr!, /serving on stdio/);
      const answer = waitFor(child.stdout!, /^(\{.*\})\n/);
      child.stdin!.write(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'auto', version: '1' },
          },
        }) + '\n',
      );
      const init = JSON.parse((await answer)[1]!) as { id: number; result: { serverInfo: { name: string } } };
      expect(init.id).toBe(1);
      expect(init.result.serverInfo.name).toBe('forge-mcp-server');
      await serving;
      expect(listeningSockets(child.pid!)).toEqual([]);
    } finally {
      await stop(child);
    }
  });

  it('without a stdin pipe serves HTTP, with no token of its own', async () => {
    const child = start('ignore', ['--http-addr=127.0.0.1:0'], {});
    try {
      const url = (await waitFor(child.stderr!, /"url":"(http:[^"]+)"/))[1]!;
      expect(listeningSockets(child.pid!)).toHaveLength(1);
      const since = s.requests.length;
      const res = await rpc(url, { 'private-token': s.tokens.readApi }, LIST);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('forge_execute_action');
      const sent = s.requests.slice(since);
      expect(sent.map((q) => q.path)).toContain('/api/v4/user');
      expect(sent.every((q) => q.token === s.tokens.readApi)).toBe(true);
    } finally {
      await stop(child);
    }
  });
});

describe('HTTP mode and FORGE_TOKEN', () => {
  it('never reads it: a request without a credential is refused, and only the request token reaches the instance', async () => {
    const since = s.requests.length;
    const server = await httpServer(s, [], { FORGE_TOKEN: s.tokens.admin });
    try {
      const bare = await rpc(server.url, {}, LIST);
      expect(bare.status).toBe(401);
      const call = await rpc(
        server.url,
        { 'private-token': s.tokens.readApi },
        executeCall(2, 'issue.get', { project_id: '1', issue_iid: 1 }),
      );
      expect(call.status).toBe(200);
      expect(await call.text()).toContain('"iid":1');
      const sent = s.requests.slice(since);
      expect(apiCalls(s, since).map((q) => q.path)).toEqual(['/api/v4/projects/1/issues/1']);
      expect(sent.length).toBeGreaterThan(0);
      for (const q of sent) expect(q.token, `${q.method} ${q.path}`).toBe(s.tokens.readApi);
    } finally {
      await server.stop();
    }
  });
});
