/**
 * The bin's compile cache (scripts/launcher.cjs), as a user meets it: the first start that gets as far as
 * serving leaves a cache in the folder NODE_COMPILE_CACHE names, later starts use it without rewriting it,
 * and a damaged, unwritable or switched-off cache costs nothing but the compile.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, sim, stdioClient, type ForgeSim } from './harness.js';

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => {
  await s.close();
});

/** What must never reach the user's log: a stack frame, a thrown error, a word of the cache. */
const TROUBLE = /^\s+at |Error:|ENOTDIR|EACCES|v8cache|compile cache/m;

const caches = (folder: string) => {
  try {
    return readdirSync(folder).filter((f) => f.endsWith('.v8cache'));
  } catch {
    return [];
  }
};

/** One session: start, list the tools, call one, close. Resolves with the tool names and the server's stderr. */
async function session(env: Record<string, string>) {
  const c = await stdioClient(s, { env: { FORGE_MCP_TOOL_SURFACE: 'dynamic', ...env } });
  try {
    const { tools } = await c.client.listTools();
    const call = await c.client.callTool({
      name: 'forge_execute_action',
      arguments: { action: 'project.get', params: { project_id: 'acme/widgets' } },
    });
    expect(call.isError).toBeFalsy();
    return { names: tools.map((t) => t.name), stderr: c.stderr() };
  } finally {
    await c.close();
  }
}

describe('compile cache', () => {
  it('is written by the first serving start and used, unchanged, by the next', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'forge-cc-')), 'cache');
    const first = await session({ NODE_COMPILE_CACHE: folder });
    const [file] = caches(folder);
    expect(file).toMatch(/^[0-9a-f]{16}-[0-9a-f]{16}\.v8cache$/);
    const written = statSync(join(folder, file!));
    expect(written.size).toBeGreaterThan(100_000);
    expect(written.mode & 0o777).toBe(0o600);
    // The folder is ours to make owner-only where we create it; Node 22 and later create a folder named by
    // NODE_COMPILE_CACHE themselves, at start-up, for their own module cache, and that one is theirs.
    if (Number(process.versions.node.split('.')[0]) < 22) expect(statSync(folder).mode & 0o777).toBe(0o700);

    const second = await session({ NODE_COMPILE_CACHE: folder });
    expect(second.names).toEqual(first.names);
    expect(caches(folder)).toEqual([file]);
    // Accepted: a rejected cache would have been written again at exit.
    expect(statSync(join(folder, file!)).mtimeMs).toBe(written.mtimeMs);
  });

  it('is written once the first tools/list is answered, while the session goes on, and not again at exit', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'forge-cc-')), 'cache');
    const c = await stdioClient(s, {
      env: { FORGE_MCP_TOOL_SURFACE: 'dynamic', NODE_COMPILE_CACHE: folder },
    });
    let written;
    try {
      await c.client.listTools();
      // Polled: the launcher writes it on the turn after the answer, on however loaded a machine.
      for (let i = 0; i < 600 && caches(folder).length === 0; i++)
        await new Promise((r) => setTimeout(r, 50));
      const [file] = caches(folder);
      expect(file).toBeDefined();
      written = statSync(join(folder, file!));
      expect(written.size).toBeGreaterThan(100_000);
      const call = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'project.get', params: { project_id: 'acme/widgets' } },
      });
      expect(call.isError).toBeFalsy();
    } finally {
      await c.close();
    }
    const [file] = caches(folder);
    expect(statSync(join(folder, file!)).mtimeMs).toBe(written.mtimeMs);
  });

  it('is not written by a start that never serves (--version, a refused start)', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'forge-cc-')), 'cache');
    const version = await runCli(['--version'], { NODE_COMPILE_CACHE: folder });
    expect(version.code).toBe(0);
    const refused = await runCli([], {
      NODE_COMPILE_CACHE: folder,
      FORGE_URL: s.url,
      FORGE_TOKEN: 'glpat-nobody',
    });
    expect(refused.code).toBe(1);
    expect(caches(folder)).toEqual([]);
  });

  it('replaces a damaged cache, and the server starts as usual meanwhile', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'forge-cc-')), 'cache');
    await session({ NODE_COMPILE_CACHE: folder });
    const [file] = caches(folder);
    const path = join(folder, file!);
    writeFileSync(path, Buffer.alloc(4096, 7));
    const { names, stderr } = await session({ NODE_COMPILE_CACHE: folder });
    expect(names).toContain('forge_execute_action');
    expect(stderr).not.toMatch(TROUBLE);
    expect(statSync(path).size).toBeGreaterThan(100_000);
  });

  it('costs nothing when the folder cannot be made, and writes nothing when switched off', async () => {
    // A folder under a plain file cannot be made, whoever runs the test.
    const blocker = join(mkdtempSync(join(tmpdir(), 'forge-cc-')), 'a-file');
    writeFileSync(blocker, '');
    const { names, stderr } = await session({ NODE_COMPILE_CACHE: join(blocker, 'cache') });
    expect(names).toContain('forge_find_action');
    expect(stderr).not.toMatch(TROUBLE);
    const off = join(mkdtempSync(join(tmpdir(), 'forge-cc-')), 'cache');
    await session({ NODE_COMPILE_CACHE: off, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(caches(off)).toEqual([]);
  });

  it('keeps the newest four caches and removes older ones', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'forge-cc-'));
    const old = ['0000000000000001', '0000000000000002', '0000000000000003', '0000000000000004'].map(
      (h, i) => {
        const f = join(folder, `${h}-0000000000000000.v8cache`);
        writeFileSync(f, 'stale');
        const t = new Date(Date.UTC(2020, 0, 1 + i));
        execFileSync('touch', ['-d', t.toISOString(), f]);
        return f;
      },
    );
    await session({ NODE_COMPILE_CACHE: folder });
    const left = caches(folder);
    expect(left).toHaveLength(4);
    expect(left).not.toContain(old[0]!.slice(folder.length + 1));
    for (const f of old.slice(1)) expect(left).toContain(f.slice(folder.length + 1));
  });

  it('runs as its own bin: the shebang starts node with the bin flags', () => {
    const out = execFileSync(CLI, ['--version'], {
      env: { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, HOME: tmpdir() },
      encoding: 'utf8',
    });
    expect(out.trim()).toMatch(/^forge-mcp-server \d+\.\d+\.\d+$/);
  });
});
