/**
 * `--shutdown` reaches every running instance of the current user, stdio ones as well as HTTP ones, and each
 * actually exits. The servers and the command share a private TMPDIR, where the registry lives, so the
 * rest of the suite's servers are out of its reach.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpServerAt, runCli, sim, stdioClient, type ForgeSim } from './harness.js';

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => {
  await s.close();
});

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
});
