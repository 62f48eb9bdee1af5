/**
 * `--shutdown`: running servers of the current user register in a folder of the OS temporary directory;
 * shutdown asks each to drain and exit (SIGTERM).
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const dir = () => join(tmpdir(), `forge-mcp-server-${userInfo().uid}`);

/**
 * Why the registry folder cannot be used, or undefined when it is this user's own folder that nobody else can
 * write (made here if missing). In a shared temporary directory another user may have made that path first: a
 * file there would stop every start, and a folder others can write would let them plant registrations naming
 * any process of this user for --shutdown to signal.
 */
function unusable(): string | undefined {
  const folder = dir();
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch (err) {
    // Something else already there (a file): judged below.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
      return `${folder} cannot be made (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
  try {
    const st = lstatSync(folder);
    const uid = process.getuid?.();
    if (!st.isDirectory()) return `${folder} is not a folder`;
    if (uid !== undefined && st.uid !== uid) return `${folder} belongs to another user`;
    if (process.platform !== 'win32' && st.mode & 0o022) return `${folder} can be written by other users`;
    return undefined;
  } catch (err) {
    return `${folder} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
}

/**
 * Registers this server for --shutdown; answers how to unregister it. Where the registry folder cannot be used
 * the server runs unregistered, and `warn` says why.
 */
export function register(warn: (message: string) => void = () => undefined): () => void {
  const problem = unusable();
  if (problem) {
    warn(
      `not registered for --shutdown: ${problem}; remove it, and --shutdown reaches servers started after`,
    );
    return () => undefined;
  }
  const file = join(dir(), `${process.pid}.pid`);
  // Its own command line, as the check before a signal reads it: a server started from a path that does not
  // name it (a renamed or copied install) is still known as this server. Kept as a digest: a command line may
  // carry a secret (--redis-url with a password), which must not be written to a file.
  const cmd = procCommandLine(process.pid);
  try {
    writeFileSync(file, cmd === undefined ? String(process.pid) : digestOf(cmd));
  } catch (err) {
    warn(`not registered for --shutdown: ${file} cannot be written (${(err as NodeJS.ErrnoException).code})`);
    return () => undefined;
  }
  return () => rmSync(file, { force: true });
}

export async function shutdownAll(warn: (message: string) => void = () => undefined): Promise<number> {
  const problem = unusable();
  if (problem) {
    warn(`--shutdown reads no registrations: ${problem}; remove it`);
    return 0;
  }
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
    if (!isServer(pid, registered(join(dir(), f)))) {
      rmSync(join(dir(), f), { force: true });
      continue;
    }
    try {
      process.kill(pid, 'SIGTERM');
      n++;
    } catch {
      rmSync(join(dir(), f), { force: true });
    }
  }
  return n;
}

/** How a registration names a command line: its SHA-256 digest, never the command line itself. */
function digestOf(cmd: string): string {
  return 'sha256:' + createHash('sha256').update(cmd, 'latin1').digest('hex');
}

/** What a registration holds (the digest of the server's command line, or its pid where there is no /proc). */
function registered(file: string): string | undefined {
  try {
    return readFileSync(file, 'latin1');
  } catch {
    return undefined;
  }
}

/** A process's command line from /proc, or undefined where there is no /proc or no such process. */
function procCommandLine(pid: number): string | undefined {
  if (!existsSync('/proc/self/cmdline')) return undefined;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1');
  } catch {
    return undefined;
  }
}

/**
 * Whether `pid` is still the forge-mcp-server that registered: its command line is the one whose digest it
 * registered (a registration without one, from where there was no /proc or from an older server: its command
 * line names the server or is the one registered). A server killed outright (SIGKILL, a crash) leaves its
 * registration behind, and its pid may since have gone to any other process of the user, which must not be
 * sent the signal, even one whose command line merely names the server (an editor or a log reader on its files). Read from /proc, else from ps; where neither exists
 * (Windows) the registration is trusted.
 */
function isServer(pid: number, registration: string | undefined): boolean {
  if (existsSync('/proc/self/cmdline')) {
    const cmd = procCommandLine(pid);
    if (cmd === undefined) return false;
    return registration?.startsWith('sha256:')
      ? digestOf(cmd) === registration
      : cmd.includes('forge-mcp-server') || cmd === registration;
  }
  if (process.platform === 'win32') return true;
  try {
    // node:child_process (and node:dgram with it) is loaded here, not with this module: every start registers,
    // and only --shutdown on a system without /proc asks ps.
    const { execFileSync } = process.getBuiltinModule('node:child_process');
    return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' }).includes(
      'forge-mcp-server',
    );
  } catch {
    return false;
  }
}
