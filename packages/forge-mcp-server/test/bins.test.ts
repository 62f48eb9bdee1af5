/**
 * The newcomer's path: npm links each workspace's command at install time (its bin file is committed, not
 * built), so after `npm ci && npm run build` the README's `npx <command>` runs the workspace's own code.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const PACKAGES = ['forge-mcp-server', 'acoustics-catalogue', 'activity-collector', 'forge-sim'];

describe('installed commands', () => {
  it.each(PACKAGES)('%s: the bin is a committed file outside dist/, linked by npm', (name) => {
    const dir = join(ROOT, 'packages', name);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
      files: string[];
    };
    const target = pkg.bin[name];
    expect(target.startsWith('dist/')).toBe(false);
    expect(pkg.files).toContain(target.split('/')[0]);
    const tracked = execFileSync('git', ['ls-files', '--', target], { cwd: dir, encoding: 'utf8' }).trim();
    expect(tracked).toBe(target);
    const link = join(ROOT, 'node_modules', '.bin', name);
    expect(existsSync(link)).toBe(true);
    expect(realpathSync(link)).toBe(realpathSync(join(dir, target)));
  });

  it('npx forge-mcp-server --version runs the workspace build', () => {
    const { version } = JSON.parse(
      readFileSync(join(ROOT, 'packages/forge-mcp-server/package.json'), 'utf8'),
    ) as { version: string };
    const out = execFileSync(join(ROOT, 'node_modules/.bin/forge-mcp-server'), ['--version'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
    });
    expect(out.trim()).toBe(`forge-mcp-server ${version}`);
  });

  // Through the command itself: npx runs on node, which reads an --env-file argument first (hence the README's
  // FORGE_MCP_ENV_FILE under npx); the command's own node stops reading its options at the shebang's `--`.
  it('forge-mcp-server --env-file <path> is read by the server, not by node: a missing file is its one-line refusal naming the flag (exit 2)', () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'forge-bin-')), 'team.env');
    for (const args of [['--env-file', missing], [`--env-file=${missing}`]]) {
      const run = spawnSync(
        join(ROOT, 'node_modules/.bin/forge-mcp-server'),
        ['--http', '--http-addr=127.0.0.1:0', '--forge-url=http://127.0.0.1:9', ...args],
        {
          cwd: ROOT,
          encoding: 'utf8',
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
        },
      );
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(
        `forge-mcp-server: invalid --env-file=${JSON.stringify(missing)}: cannot read the file (ENOENT); accepts the path of a readable dotenv file\n`,
      );
    }
  });
});
