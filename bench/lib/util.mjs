// Small helpers shared by the benchmark: percentiles, resident memory, open connections, formatting.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Nearest-rank percentile of an unsorted sample (p in 0..100). */
export function percentile(values, p) {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))];
}
export const median = (v) => percentile(v, 50);
export const max = (v) => (v.length ? Math.max(...v) : NaN);

/** VmRSS of a process in bytes, from /proc/<pid>/status; NaN when gone. */
export function rssBytes(pid) {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** CPU time a process has used so far (user + system, all its threads), in ms from /proc; NaN when gone. */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, in clock ticks (USER_HZ, 100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * Established TCP connections to 127.0.0.1:<port>, counted by owning process id (from `ss -tnpH`); null when
 * `ss` is not available.
 */
export function connectionsTo(port) {
  let text;
  try {
    text = execFileSync('ss', ['-tnpH', 'state', 'established', 'dst', `127.0.0.1:${port}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return null;
  }
  const byPid = new Map();
  for (const m of text.matchAll(/pid=(\d+)/g)) byPid.set(Number(m[1]), (byPid.get(Number(m[1])) ?? 0) + 1);
  return byPid;
}

export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits for a process to be gone, then SIGKILLs it if it is still there. */
export async function reap(pid, ms = 3000) {
  if (!pid) return;
  const end = Date.now() + ms;
  while (alive(pid) && Date.now() < end) await sleep(25);
  if (alive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
    while (alive(pid)) await sleep(25);
  }
}

export const fmtMs = (v) =>
  Number.isFinite(v) ? (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)) : 'n/a';
export const fmtMiB = (b) => (Number.isFinite(b) ? (b / 2 ** 20).toFixed(1) : 'n/a');
export const fmtInt = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : 'n/a');
export function fmtBytes(b) {
  if (!Number.isFinite(b)) return 'n/a';
  if (b >= 2 ** 20) return `${(b / 2 ** 20).toFixed(2)} MiB`;
  if (b >= 1024) return `${(b / 1024).toFixed(1)} KiB`;
  return `${b} B`;
}
/** ours / theirs, two significant decimals; below 1 is better for us when lower is better. */
export function ratio(ours, theirs) {
  if (!Number.isFinite(ours) || !Number.isFinite(theirs) || theirs === 0) return 'n/a';
  const r = ours / theirs;
  return r >= 10 ? r.toFixed(1) : r.toFixed(2);
}
