/**
 * Suite-wide: every server the tests spawn keeps its stderr under one folder (test/harness.ts), and when the
 * whole suite is done that folder is searched for tokens. forge-sim issues every token with `forgesim-` in it
 * (the seeded ones and those minted by tests), so a single pattern finds any of them, at any log level.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TOKEN = /(?:glpat-)?forgesim-[A-Za-z0-9_-]{4,}/;

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'forge-test-logs-'));
  process.env.FORGE_TEST_LOG_DIR = dir;
  return () => {
    const files = readdirSync(dir);
    const leaks: string[] = [];
    let bytes = 0;
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8');
      bytes += text.length;
      for (const line of text.split('\n')) {
        const m = TOKEN.exec(line);
        if (m) leaks.push(`${f}: ${line.slice(0, 300)}`);
      }
    }
    rmSync(dir, { recursive: true, force: true });
    console.log(
      `token grep: ${files.length} server logs, ${bytes} bytes, ${leaks.length} lines holding a token`,
    );
    if (leaks.length) {
      // Thrown errors in a teardown are only reported; the exit code is what CI reads.
      console.error(`FAIL token grep: a token appeared in server logs:\n${leaks.slice(0, 20).join('\n')}`);
      process.exitCode = 1;
    }
  };
}
