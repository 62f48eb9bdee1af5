/**
 * What the workflow prompts are made of: their argument and read types, the common arguments, and the Markdown
 * pieces (tables, quoted failures, merge request rows and diffs) each prompt renders from what it read.
 */
import { ProtocolError } from '@modelcontextprotocol/server';
export interface PromptArg {
  name: string;
  description: string;
  required?: boolean;
  /** Whole days, a positive integer. */
  days?: boolean;
}

export interface Fetch {
  (
    id: string,
    args: Record<string, unknown>,
    /**
     * `absentOk`: a not-found is an answer (nothing there yet, such as no pipeline), not a sign that the arguments
     * name nothing, unless the instance says the project or group itself is missing.
     */
    opts?: { absentOk?: boolean },
  ): Promise<unknown[] | Record<string, unknown> | string>;
}

export interface PromptSpec {
  name: string;
  title: string;
  description: string;
  args: PromptArg[];
  /** The canonical actions it reads (the prompt is dropped when one of them is excluded). */
  reads: string[];
  render: (a: Record<string, string>, fetch: Fetch) => Promise<string>;
}

export const project: PromptArg = {
  name: 'project_id',
  description: 'Project ID or full path (group/project).',
  required: true,
};
export const group: PromptArg = { name: 'group_id', description: 'Group ID or full path.', required: true };
export const mr: PromptArg = {
  name: 'merge_request_iid',
  description: "The merge request's IID within the project (e.g. 12).",
  required: true,
};
export const days = (d: number): PromptArg => ({
  name: 'days',
  description: `How many days back to look (default ${d}).`,
  days: true,
});

export type Rec = Record<string, unknown>;
export const list = (v: unknown): Rec[] => (Array.isArray(v) ? (v as Rec[]) : []);
export const str = (v: unknown) =>
  v === null || v === undefined || v === '' ? '—' : String(v).replace(/\|/g, '\\|').replace(/\n/g, ' ');
export const who = (u: unknown) => (u && typeof u === 'object' ? `@${(u as Rec).username}` : '—');
export const since = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();
export const ageDays = (iso: unknown) =>
  typeof iso === 'string' ? Math.floor((Date.now() - Date.parse(iso)) / 86_400_000) : NaN;

/** The middle of the values (the mean of the two middle ones for an even count); undefined for none. */
export function median(values: number[]): number | undefined {
  if (!values.length) return undefined;
  const s = [...values].sort((x, y) => x - y);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** A count with its noun, singular or plural as the count asks (1 issue, 2 issues). */
export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

export function table(head: string[], rows: unknown[][]): string {
  if (!rows.length) return '_None._';
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(str).join(' | ')} |`),
  ].join('\n');
}

/** A read that failed, quoted whole (every line of it) and set apart from what follows. */
export const failed = (v: unknown) =>
  typeof v === 'string'
    ? `${v
        .trim()
        .split('\n')
        .map((l) => (l ? `> ${l}` : '>'))
        .join('\n')}\n\n`
    : '';

/** Merge request rows; `across` names each by its full reference (a group's span several projects). */
export function mrRows(mrs: Rec[], across = false) {
  return mrs.map((m) => [
    across ? ref(m, '!') : `!${m.iid}`,
    m.title,
    who(m.author),
    m.source_branch,
    m.target_branch,
    m.updated_at,
    ageDays(m.created_at),
  ]);
}
export const MR_HEAD = ['MR', 'Title', 'Author', 'Source', 'Target', 'Updated', 'Age (days)'];

export async function mrContext(a: Record<string, string>, fetch: Fetch) {
  const args = { project_id: a.project_id, merge_request_iid: Number(a.merge_request_iid) };
  const [mrv, changes, discussions] = await Promise.all([
    fetch('merge_request.get', args),
    fetch('mr_review.changes_get', { ...args, per_page: 100 }),
    fetch('mr_review.discussion_list', { ...args, per_page: 100 }),
  ]);
  const m = (typeof mrv === 'object' ? mrv : {}) as Rec;
  // The diffs come as a list of files, one page of them (the instance's /diffs).
  const files = list(changes);
  return { m, mrv, changes, files, discussions };
}

/** How much diff text a review prompt carries; past it, files are named with where to read them. */
export const DIFF_BUDGET = 60_000;

/** The changed files' diffs as fenced blocks, within DIFF_BUDGET characters; `rest` says where to read the others. */
export function diffBlocks(files: Rec[], rest: string): string {
  if (!files.length) return '_No changes._';
  const out: string[] = [];
  const left: string[] = [];
  let used = 0;
  for (const f of files) {
    const diff = String(f.diff ?? '');
    const name = String(f.new_path ?? f.old_path);
    if (!diff || f.too_large || f.collapsed || used + diff.length > DIFF_BUDGET) {
      left.push(name);
      continue;
    }
    used += diff.length;
    const fence = '`'.repeat(Math.max(3, ...[...diff.matchAll(/`{3,}/g)].map((x) => x[0].length + 1)));
    out.push(`### ${name}`, `${fence}diff`, diff.replace(/\n$/, ''), fence, '');
  }
  if (left.length)
    out.push(
      `Not shown here (too large for this prompt, or the instance collapsed them): ${left.join(', ')}. ${rest}`,
    );
  return out.join('\n').trimEnd();
}

/** The changed files as a table, then their diffs; `rest` says where to read the diffs left out. */
export function changedFiles(files: Rec[], rest: string): string {
  return [
    `## Changed files (${files.length})`,
    table(['File', 'Change', 'Added', 'Removed'], fileLines(files)),
    '',
    '## Diff',
    diffBlocks(files, rest),
  ].join('\n');
}

/** Where a line comment sits in the diff (path:line), or 'general' for a thread on the whole change. */
export function where(position: unknown): string {
  const p = position as Rec | null | undefined;
  if (!p || typeof p !== 'object') return 'general';
  const line = p.new_line ?? p.old_line;
  return `${String(p.new_path ?? p.old_path)}${line !== null && line !== undefined ? `:${String(line)}` : ''}`;
}

export function fileLines(files: Rec[]) {
  return files.map((f) => {
    const diff = String(f.diff ?? '');
    const added = diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
    const removed = diff.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---')).length;
    const kind = f.new_file ? 'added' : f.deleted_file ? 'deleted' : f.renamed_file ? 'renamed' : 'modified';
    return [f.new_path, kind, `+${added}`, `-${removed}`];
  });
}

/** A reference as the instance writes it across projects (acme/widgets!4, acme/widgets#12). */
export const ref = (item: Rec, mark: string) =>
  String(((item.references as Rec | undefined)?.full as string | undefined) ?? `${mark}${item.iid}`);

/** One of the prompts about the session's own user across every project: one list read, one table, one ask. */
export function mine(
  name: string,
  title: string,
  description: string,
  action: string,
  args: Record<string, unknown>,
  heading: string,
  head: string[],
  row: (item: Rec) => unknown[],
  ask: string,
): PromptSpec {
  return {
    name,
    title,
    description,
    args: [],
    reads: [action],
    render: async (_a, fetch) => {
      const items = await fetch(action, { ...args, state: 'opened', per_page: 100 });
      return [
        `# ${heading} (${list(items).length})`,
        failed(items),
        table(head, list(items).map(row)),
        '',
        ask,
      ].join('\n');
    },
  };
}

/**
 * Refuses a username no user has: a prompt about a person the instance does not know would show an empty day and
 * lead the model to report that nothing was done. The check is a convenience, not one of the prompt's reads: where
 * user.list cannot be read (excluded, refused, failing), the prompt is made without it.
 */
export async function knownUser(prompt: string, username: string, fetch: Fetch): Promise<void> {
  const found = await fetch('user.list', { username, per_page: 1 });
  if (Array.isArray(found) && found.length === 0)
    throw new ProtocolError(
      -32602,
      `Prompt ${prompt}: no user has the username ${JSON.stringify(username)}. Check the spelling; completion/complete suggests the project's members.`,
    );
}
