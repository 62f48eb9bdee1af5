/** Problems, notes and how they are reported. */

/** Where a problem sits: a JSON pointer, or for CSV a line and spreadsheet column letter. */
export interface Issue {
  /** JSON pointer into the document ('' is the whole document). */
  readonly pointer: string;
  readonly message: string;
  /** CSV only: 1-based physical line. */
  readonly line?: number;
  /** CSV only: spreadsheet column letter (A, B, …, AA). */
  readonly column?: string;
  /** Which file the problem is in, when there are two (CSV and its header). */
  readonly file?: string;
}

/** Something suspicious but allowed. */
export type Note = Issue;

/** Number of problems a report lists before counting the rest. */
export const LISTED_ISSUES = 20;
/** Longest quotation of a value in a message. */
export const QUOTE_LIMIT = 80;

export function locate(issue: Issue): string {
  const where: string[] = [];
  if (issue.file) where.push(issue.file);
  if (issue.line !== undefined)
    where.push(`line ${issue.line}${issue.column ? `, column ${issue.column}` : ''}`);
  else where.push(issue.pointer === '' ? '(document)' : issue.pointer);
  return where.join(': ');
}

/** Lists up to 20 problems and counts the rest, one per line. */
export function formatIssues(issues: readonly Issue[]): string {
  const lines = issues.slice(0, LISTED_ISSUES).map((i) => `  ${locate(i)}: ${i.message}`);
  const rest = issues.length - LISTED_ISSUES;
  if (rest > 0) lines.push(`  … and ${rest} more problem${rest === 1 ? '' : 's'}`);
  return lines.join('\n');
}

/** The refusal of a document: every problem found, raised together. */
export class CatalogueError extends Error {
  readonly issues: readonly Issue[];
  constructor(issues: readonly Issue[], subject = 'catalogue document') {
    const n = issues.length;
    super(`${subject} refused: ${n} problem${n === 1 ? '' : 's'}\n${formatIssues(issues)}`);
    this.name = 'CatalogueError';
    this.issues = issues;
  }
}

/** Quotes a value as JSON, cut to 80 characters. */
export function quote(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT - 1)}…` : text;
}

/** Names a list: at most three, then "and N more". */
export function listNames(names: readonly string[]): string {
  const shown = names.slice(0, 3).map((n) => JSON.stringify(n));
  const rest = names.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.join(', ');
}

function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/** The valid name most like `name` (case-insensitive edit distance; ties go to the first listed). */
export function nearest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  const lower = name.toLowerCase();
  for (const c of candidates) {
    const score = distance(lower, c.toLowerCase());
    if (score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}

/** " — did you mean "x"?" or '' when there is nothing to suggest. */
export function suggestion(name: string, candidates: readonly string[]): string {
  const best = nearest(name, candidates);
  return best === undefined ? '' : `; did you mean ${JSON.stringify(best)}?`;
}

export function escapePointer(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointer(...tokens: (string | number)[]): string {
  return tokens.map((t) => `/${escapePointer(t)}`).join('');
}
