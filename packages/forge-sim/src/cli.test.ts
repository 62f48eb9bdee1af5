import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

describe('forge-sim CLI', () => {
  it.skipIf(!existsSync(cli))('prints its URL and the demo tokens, then serves', async () => {
    const child = spawn(process.execPath, [cli, '--port', '0', '--json'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let buf = '';
        child.stdout.on('data', (d: Buffer) => {
          buf += d.toString();
          if (buf.includes('\n')) resolve(buf.split('\n')[0]);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const info = JSON.parse(line) as { url: string; tokens: Record<string, string> };
      expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${info.url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': info.tokens.api } });
      expect(res.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it.skipIf(!existsSync(cli)).each([
    [['--bogus'], "'--bogus'"],
    [['--license', 'gold'], '--license "gold" is not one of free, premium, ultimate, none'],
    [['--port', 'eighty'], '--port "eighty" is not a whole number from 0 to 65535'],
  ])('%j is refused in one line, exit 2', async (args, problem) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(2);
    // One line naming the problem and where to look; Node words an unknown option itself.
    expect(stderr).toMatch(/^forge-sim: [^\n]*; run forge-sim --help for usage\n$/);
    expect(stderr).toContain(problem);
  });
});
