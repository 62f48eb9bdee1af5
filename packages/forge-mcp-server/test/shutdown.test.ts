/**
 * `--shutdown` reaches every running instance of the current user, stdio ones as well as HTTP ones, and each
 * actually exits. The servers and the command share a private TMPDIR, where the registry lives, so the
 * rest of the suite's servers are out of its reach.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { userInfo } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, httpServerAt, runCli, sim, stdioClient, type ForgeSim } from './harness.js';

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => {
  await s.close();
});

/**
 * Runs --shutdown where `other` (not a server) holds a registered pid: the one live server is signalled and exits,
 * `other` is left running, and the registry is left empty.
 */
async function shutdownSparing(
  other: ReturnType<typeof spawn>,
  otherExit: Promise<NodeJS.Signals | null>,
  registry: string,
  env: Record<string, string>,
  serverExited: Promise<number | null>,
): Promise<void> {
  try {
    const r = await runCli(['--shutdown'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('"signalled":1');
    expect(await serverExited).toBe(0);
    expect(other.exitCode).toBeNull();
    expect(other.signalCode).toBeNull();
    expect(readdirSync(registry)).toEqual([]);
  } finally {
    other.kill('SIGKILL');
    expect(await otherExit).toBe('SIGKILL');
  }
}

describe('--shutdown', () => {
  it('asks every running server, stdio and HTTP, to drain and exit, and each does', async () => {
    const own = mkdtempSync(join(tmpdir(), 'forge-shutdown-'));
    const env = { TMPDIR: own };
    const stdio = await stdioClient(s, { env });
    const stdioClosed = new Promise<void>((resolve) => (stdio.client.onclose = () => resolve()));
    await stdio.client.listTools();
    const http = await httpServerAt(s, [], env);
    const registry = readdirSync(own).find((f) => f.startsWith('forge-mcp-server-'))!;
    expect(readdirSync(join(own, registry))).toHaveLength(2);

    const r = await runCli(['--shutdown'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('"signalled":2');
    expect(await http.exited).toBe(0);
    await stdioClosed;
    // Each removed itself from the registry on the way out.
    expect(readdirSync(join(own, registry))).toEqual([]);
  });

  it('signals only servers: a registration left by a server killed outright, whose pid another process now has, is removed and that process left alone', async () => {
    const own = mkdtempSync(join(tmpdir(), 'forge-shutdown-'));
    const env = { TMPDIR: own };
    const http = await httpServerAt(s, [], env);
    // Another process of the user holding a pid a dead server registered.
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    const otherExit = new Promise<NodeJS.Signals | null>((resolve) =>
      other.once('exit', (_code, signal) => resolve(signal)),
    );
    const registry = join(own, `forge-mcp-server-${userInfo().uid}`);
    mkdirSync(registry, { recursive: true });
    writeFileSync(join(registry, `${other.pid}.pid`), String(other.pid));
    await shutdownSparing(other, otherExit, registry, env, http.exited);
  });

  it('signals only servers: a process whose command line merely names forge-mcp-server, holding the pid of a registration left by a server killed outright, is left alone', async () => {
    const own = mkdtempSync(join(tmpdir(), 'forge-shutdown-'));
    const env = { TMPDIR: own };
    const http = await httpServerAt(s, [], env);
    const registry = join(own, `forge-mcp-server-${userInfo().uid}`);
    const [live] = readdirSync(registry);
    // Not a server, though its command line names one (an editor on the checkout, a log being followed).
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'forge-mcp-server.log'], {
      stdio: 'ignore',
    });
    const otherExit = new Promise<NodeJS.Signals | null>((resolve) =>
      other.once('exit', (_code, signal) => resolve(signal)),
    );
    // A server registered just as the live one did, killed outright; its pid went to that process.
    writeFileSync(join(registry, `${other.pid}.pid`), readFileSync(join(registry, live!)));
    await shutdownSparing(other, otherExit, registry, env, http.exited);
  });

  it('a registry path another user could have made first does not stop a start, nor is a folder others can write trusted', async () => {
    // A file where the registry folder goes: the server still starts and serves, saying it is not registered.
    const blocked = mkdtempSync(join(tmpdir(), 'forge-shutdown-'));
    const path = join(blocked, `forge-mcp-server-${userInfo().uid}`);
    writeFileSync(path, '');
    const stdio = await stdioClient(s, { env: { TMPDIR: blocked } });
    try {
      expect((await stdio.client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await stdio.close();
    }
    expect(stdio.stderr()).toContain(
      `not registered for --shutdown: ${path} is not a folder; remove it, and --shutdown reaches servers started after`,
    );

    // A folder everyone can write, holding a registration planted for a process of this user (its command line's
    // digest can be read from /proc by anyone): --shutdown reads none of it.
    const open = mkdtempSync(join(tmpdir(), 'forge-shutdown-'));
    const registry = join(open, `forge-mcp-server-${userInfo().uid}`);
    mkdirSync(registry);
    chmodSync(registry, 0o777);
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const otherExit = new Promise<NodeJS.Signals | null>((resolve) =>
      other.once('exit', (_code, signal) => resolve(signal)),
    );
    const cmdline = readFileSync(`/proc/${other.pid}/cmdline`, 'latin1');
    const digest = 'sha256:' + createHash('sha256').update(cmdline, 'latin1').digest('hex');
    writeFileSync(join(registry, `${other.pid}.pid`), digest);
    try {
      const r = await runCli(['--shutdown'], { TMPDIR: open });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(
        `--shutdown reads no registrations: ${registry} can be written by other users; remove it`,
      );
      expect(r.stderr).toContain('"signalled":0');
      expect(other.exitCode).toBeNull();
      expect(other.signalCode).toBeNull();
    } finally {
      other.kill('SIGKILL');
      expect(await otherExit).toBe('SIGKILL');
    }
  });

  it('reaches a server started from a path that does not name the server (a renamed or copied install)', async () => {
    const own = mkdtempSync(join(tmpdir(), 'shutdown-renamed-'));
    const script = join(own, 'server.cjs');
    symlinkSync(CLI, script);
    const env = { TMPDIR: own };
    const stdio = await stdioClient(s, { env, script });
    const stdioClosed = new Promise<void>((resolve) => (stdio.client.onclose = () => resolve()));
    try {
      await stdio.client.listTools();
      const registry = join(own, `forge-mcp-server-${userInfo().uid}`);
      expect(readdirSync(registry)).toHaveLength(1);

      const r = await runCli(['--shutdown'], env);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('"signalled":1');
      await stdioClosed;
      expect(readdirSync(registry)).toEqual([]);
    } finally {
      await stdio.close();
    }
  });
});
