/**
 * `--shutdown`: running servers of the current user register in a folder of the OS temporary directory;
 * shutdown asks each to drain and exit (SIGTERM).
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const dir = () => join(tmpdir(), `forge-mcp-server-${userInfo().uid}`);

export function register(): () => void {
  mkdirSync(dir(), { recursive: true, mode: 0o700 });
  const file = join(dir(), `${process.pid}.pid`);
  writeFileSync(file, String(process.pid));
  return () => rmSync(file, { force: true });
}

export async function shutdownAll(): Promise<number> {
  let n = 0;
  let files: string[] = [];
  try {
    files = readdirSync(dir());
  } catch {
    return 0;
  }
  for (const f of files) {
    const pid = Number(f.replace(/\.pid$/, ''));
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 'SIGTERM');
      n++;
    } catch {
      rmSync(join(dir(), f), { force: true });
    }
  }
  return n;
}
