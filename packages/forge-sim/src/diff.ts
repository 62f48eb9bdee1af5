/** Unified diffs between two tree snapshots, the way the instance reports changed files. */

const COLLAPSE_BYTES = 50_000;

function lines(s: string): string[] {
  if (s === '') return [];
  const out = s.split('\n');
  if (out[out.length - 1] === '') out.pop();
  return out;
}

/** One hunk over the whole file; a line-level LCS keeps unchanged lines as context. */
export function unifiedDiff(before: string, after: string): string {
  const a = lines(before);
  const b = lines(after);
  const body: string[] = [];
  if (a.length * b.length > 4_000_000) {
    for (const l of a) body.push(`-${l}`);
    for (const l of b) body.push(`+${l}`);
  } else {
    const dp: number[][] = Array.from({ length: a.length + 1 }, () =>
      new Array<number>(b.length + 1).fill(0),
    );
    for (let i = a.length - 1; i >= 0; i--) {
      for (let j = b.length - 1; j >= 0; j--) {
        dp[i][j] = a[i] === b[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      if (i < a.length && j < b.length && a[i] === b[j]) {
        body.push(` ${a[i]}`);
        i++;
        j++;
      } else if (j < b.length && (i >= a.length || dp[i][j + 1] >= dp[i + 1][j])) {
        body.push(`+${b[j]}`);
        j++;
      } else {
        body.push(`-${a[i]}`);
        i++;
      }
    }
  }
  const range = (n: number): string => (n === 0 ? '0,0' : `1,${n}`);
  return `@@ -${range(a.length)} +${range(b.length)} @@\n${body.join('\n')}\n`;
}

export interface FileDiff {
  old_path: string;
  new_path: string;
  a_mode: string;
  b_mode: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  generated_file: boolean;
  too_large?: boolean;
  collapsed?: boolean;
  diff: string;
}

export function treeDiff(from: Map<string, string>, to: Map<string, string>): FileDiff[] {
  const paths = [...new Set([...from.keys(), ...to.keys()])].sort();
  const out: FileDiff[] = [];
  for (const path of paths) {
    const a = from.get(path);
    const b = to.get(path);
    if (a === b) continue;
    const diff = unifiedDiff(a ?? '', b ?? '');
    const collapsed = diff.length > COLLAPSE_BYTES;
    out.push({
      old_path: path,
      new_path: path,
      a_mode: a === undefined ? '0' : '100644',
      b_mode: b === undefined ? '0' : '100644',
      new_file: a === undefined,
      renamed_file: false,
      deleted_file: b === undefined,
      generated_file: false,
      too_large: false,
      collapsed,
      diff: collapsed ? '' : diff,
    });
  }
  return out;
}

export function rawDiff(files: FileDiff[], from: Map<string, string>, to: Map<string, string>): string {
  return files
    .map((f) => {
      const d = f.diff || unifiedDiff(from.get(f.old_path) ?? '', to.get(f.new_path) ?? '');
      const a = f.new_file ? '/dev/null' : `a/${f.old_path}`;
      const b = f.deleted_file ? '/dev/null' : `b/${f.new_path}`;
      return `diff --git a/${f.old_path} b/${f.new_path}\n--- ${a}\n+++ ${b}\n${d}`;
    })
    .join('');
}
