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
});
