/**
 * forge_find_action's ranking: a small BM25 over each action's ID, title, description and tool name,
 * with the vocabulary users actually type (MR, PR, CI, close, retry) mapped onto the catalog's words.
 */
import type { ActionSpec } from '../catalog/types.js';

const SYNONYMS: Record<string, string[]> = {
  mr: ['merge', 'request'],
  mrs: ['merge', 'request'],
  pr: ['merge', 'request'],
  prs: ['merge', 'request'],
  pull: ['merge'],
  ci: ['pipeline'],
  build: ['pipeline', 'job'],
  builds: ['pipeline', 'job'],
  repo: ['project', 'repository'],
  repos: ['project', 'repository'],
  ticket: ['issue'],
  tickets: ['issue'],
  bug: ['issue'],
  bugs: ['issue'],
  comment: ['note', 'discussion'],
  comments: ['note', 'discussion'],
  reply: ['note', 'discussion'],
  remove: ['delete'],
  erase: ['delete'],
  add: ['create'],
  new: ['create'],
  open: ['create', 'opened'],
  make: ['create'],
  show: ['get'],
  view: ['get'],
  read: ['get'],
  fetch: ['get'],
  find: ['list', 'search'],
  all: ['list'],
  edit: ['update'],
  change: ['update'],
  modify: ['update'],
  rename: ['update'],
  rerun: ['retry'],
  restart: ['retry'],
  log: ['trace', 'log'],
  logs: ['trace', 'log'],
  output: ['trace', 'log'],
  file: ['file', 'repository'],
  files: ['file', 'tree', 'repository'],
  contents: ['file'],
  content: ['file'],
  folder: ['tree'],
  directory: ['tree'],
  approved: ['approval', 'approve'],
  approvals: ['approval'],
  approver: ['approval'],
  approvers: ['approval'],
  reviewer: ['reviewer', 'review'],
  who: ['list', 'get'],
  me: ['current', 'user'],
  myself: ['current', 'user'],
  whoami: ['current', 'user'],
  member: ['member'],
  members: ['member'],
  teammates: ['member'],
  branches: ['branch'],
  tags: ['tag'],
  release: ['release'],
  variable: ['variable'],
  variables: ['variable'],
  secret: ['variable'],
  secrets: ['variable'],
  changes: ['diff', 'change'],
  diff: ['diff', 'change'],
  diffs: ['diff', 'change'],
  commits: ['commit'],
  history: ['commit', 'list'],
  failed: ['failed', 'retry'],
  failing: ['failed'],
  cancel: ['cancel'],
  stop: ['cancel'],
  close: ['close', 'update', 'state'],
  closed: ['close', 'state'],
  reopen: ['reopen', 'update', 'state'],
  assign: ['assign', 'assignee', 'update'],
  label: ['label'],
  labels: ['label'],
  milestone: ['milestone'],
  star: ['star'],
  fork: ['fork'],
  archive: ['archive'],
  protect: ['protect'],
  unprotect: ['unprotect'],
  wiki: ['wiki'],
  snippet: ['snippet'],
  runner: ['runner'],
  token: ['token'],
  tokens: ['token'],
  webhook: ['hook'],
  webhooks: ['hook'],
  hooks: ['hook'],
};

/** The first word of a request usually names the operation; these map it onto the catalog's verbs. */
const VERBS: Record<string, string[]> = {
  list: ['list'],
  show: ['get', 'list'],
  get: ['get'],
  view: ['get'],
  read: ['get', 'file_get'],
  fetch: ['get'],
  create: ['create', 'add'],
  add: ['add', 'create'],
  new: ['create'],
  open: ['create'],
  make: ['create'],
  delete: ['delete', 'remove'],
  remove: ['remove', 'delete'],
  update: ['update', 'edit'],
  edit: ['update', 'edit'],
  change: ['update', 'edit'],
  close: ['update'],
  reopen: ['update'],
  comment: ['note_create', 'discussion_create'],
  link: ['link_create'],
  download: ['artifacts', 'download'],
  retry: ['retry'],
  rerun: ['retry'],
  cancel: ['cancel'],
  stop: ['stop', 'cancel'],
  approve: ['approve'],
  merge: ['merge'],
  protect: ['protect'],
  search: ['search'],
};

const STOP = new Set([
  'a',
  'an',
  'the',
  'of',
  'for',
  'to',
  'in',
  'on',
  'my',
  'this',
  'that',
  'is',
  'and',
  'with',
  'by',
  'from',
  'it',
  'i',
  'do',
  'how',
  'what',
  'which',
  'please',
  'can',
  'you',
  'some',
  'one',
  'me',
]);

function stem(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.length > 4 && w.endsWith('es') && /(ch|sh|ss|x)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ed') && !w.endsWith('eed')) return w.slice(0, -2);
  return w;
}

export function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !STOP.has(w))
    .map(stem);
}

interface Doc {
  a: ActionSpec;
  fields: Array<{ terms: Map<string, number>; weight: number; length: number }>;
}

const FIELD_WEIGHTS = { id: 4, title: 3, tool: 1.5, description: 1 };

function termCounts(ts: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of ts) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

export class ActionFinder {
  private readonly docs: Doc[];
  private readonly df = new Map<string, number>();
  private readonly avgLen: number[];

  constructor(actions: ActionSpec[]) {
    this.docs = actions.map((a) => ({
      a,
      fields: [
        [a.id.replace(/[._]/g, ' '), FIELD_WEIGHTS.id],
        [a.title, FIELD_WEIGHTS.title],
        [a.tool.replace(/_/g, ' '), FIELD_WEIGHTS.tool],
        [a.description, FIELD_WEIGHTS.description],
      ].map(([text, weight]) => {
        const ts = tokens(text as string);
        return { terms: termCounts(ts), weight: weight as number, length: ts.length };
      }),
    }));
    for (const d of this.docs) {
      const seen = new Set<string>();
      for (const f of d.fields) for (const t of f.terms.keys()) seen.add(t);
      for (const t of seen) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    }
    this.avgLen = [0, 1, 2, 3].map(
      (i) => this.docs.reduce((s, d) => s + d.fields[i].length, 0) / Math.max(1, this.docs.length),
    );
  }

  private expand(query: string): Map<string, number> {
    const q = new Map<string, number>();
    for (const raw of query
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean)) {
      if (STOP.has(raw) && !SYNONYMS[raw]) continue;
      const t = stem(raw);
      q.set(t, Math.max(q.get(t) ?? 0, 1));
      for (const s of SYNONYMS[raw] ?? SYNONYMS[t] ?? []) {
        const st = stem(s);
        q.set(st, Math.max(q.get(st) ?? 0, 0.6));
      }
    }
    return q;
  }

  /** The operation a query's first word asks for, as catalog verbs. */
  private verbOf(query: string): string[] {
    const first = query
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .find((w) => w && !['please', 'i', 'want', 'to', 'a', 'the'].includes(w));
    return (first && VERBS[first]) || [];
  }

  search(query: string, limit = 5): Array<{ action: ActionSpec; score: number }> {
    const verbs = this.verbOf(query);
    // An exact ID or tool name wins outright.
    const exact = this.docs.find((d) => d.a.id === query.trim() || d.a.tool === query.trim());
    const q = this.expand(query);
    const N = this.docs.length;
    const k1 = 1.2;
    const b = 0.6;
    const scored = this.docs.map((d) => {
      let score = 0;
      for (const [t, qw] of q) {
        const df = this.df.get(t);
        if (!df) continue;
        const idf = Math.log(1 + (N - df + 0.5) / (df + 0.5));
        d.fields.forEach((f, i) => {
          const tf = f.terms.get(t);
          if (!tf) return;
          const norm = tf / (tf + k1 * (1 - b + (b * f.length) / (this.avgLen[i] || 1)));
          score += qw * idf * norm * f.weight;
        });
      }
      // Prefer everyday actions slightly: shorter IDs are the common verbs (list, get, create).
      score *= 1 + 0.15 / d.a.id.length;
      // The requested operation: an action whose name starts with (or is) that verb ranks higher.
      const name = d.a.id.slice(d.a.id.indexOf('.') + 1);
      if (
        verbs.some(
          (v) =>
            name === v || name.startsWith(v + '_') || name.endsWith('_' + v) || name === v.replace(/_.*/, ''),
        )
      )
        score *= 1.35;
      return { action: d.a, score: d === exact ? Infinity : score };
    });
    return scored
      .filter((s) => s.score > 0)
      .sort((x, y) => y.score - x.score)
      .slice(0, limit);
  }
}
