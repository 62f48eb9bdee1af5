/**
 * Fine-grained grants (spec: Fine-grained grant, Server-given refusals for fine-grained sessions). A grant is
 * read once per session and evaluated into a predicate over actions; when it cannot be evaluated the session
 * falls back to withholding only what no fine-grained token can reach.
 */
import type { ActionEntry } from '../catalog/types.js';
import {
  fineGrainedTable,
  FINE_GRAINED_RELEASE,
  type Boundary,
  type FineGrainedRow,
  type Need,
} from '../catalog/fine-grained.generated.js';

export const GRANT_MAX_BYTES = 1024 * 1024;
export const GRANT_MAX_SCOPES = 1000;
export const VERSION_MAX_BYTES = 64;
const NAME_MAX_BYTES = 64;

export type FallbackReason = 'grant-unreadable' | 'version-unreadable' | 'version-outside-record';

/** Where each access level of a granular scope holds its permissions. */
const ACCESS_BOUNDARIES: Record<string, Boundary[]> = {
  personal_projects: ['project'],
  selected_memberships: ['project', 'group'],
  all_memberships: ['project', 'group'],
  user: ['user'],
  instance: ['instance'],
};

/** 'Work Item: Read' -> 'read_work_item' (the identifiers a grant is created with). */
export function permissionId(name: string): string {
  const [resource, verb] = name.split(': ');
  const snake = (s: string) => s.trim().toLowerCase().replace(/\s+/g, '_');
  return `${snake(verb)}_${snake(resource)}`;
}

/**
 * Permission identifiers the record knows, plus the ones a session should hold besides its work. Built when a
 * grant is first read (a fine-grained token only), not at start-up: it walks the whole fine-grained record.
 */
let known: Set<string> | undefined;
function knownPermissions(): Set<string> {
  if (known) return known;
  known = new Set([
    'read_user',
    'read_metadata',
    'read_personal_access_token',
    'read_namespace',
    'read_license',
  ]);
  for (const row of Object.values(fineGrainedTable()))
    for (const alt of row.needs ?? []) for (const [p] of alt) known.add(permissionId(p));
  return known;
}

/** A grant as held: permission identifier -> boundaries it is held at, and the project/group ids per permission. */
export interface Grant {
  held: Map<string, Set<Boundary>>;
  /** Permission -> ids of selected memberships holding it (all memberships: 'all'). */
  ids: Map<string, Set<number> | 'all'>;
}

export type GrantRead = { ok: true; grant: Grant } | { ok: false; unknown: string[] };

const cut = (s: string): string => {
  const b = Buffer.from(s, 'utf8');
  if (b.length <= NAME_MAX_BYTES) return s;
  let t = b.subarray(0, NAME_MAX_BYTES).toString('utf8');
  if (t.endsWith('\uFFFD')) t = t.slice(0, -1);
  return t;
};

/**
 * Evaluates the answer of GET /personal_access_tokens/<id>. `bytes` is the answer's size. Refuses (ok false)
 * an answer over 1 MiB, over 1000 scopes (every listed project or group id is a scope of its own), of an
 * unreadable shape, or naming permissions the record does not know (at most three names kept, cut to 64 bytes).
 */
export function evaluateGrant(body: unknown, bytes: number): GrantRead {
  if (bytes > GRANT_MAX_BYTES) return { ok: false, unknown: [] };
  const scopes = (body as { granular_scopes?: unknown } | null)?.granular_scopes;
  if (!Array.isArray(scopes)) return { ok: false, unknown: [] };
  const held = new Map<string, Set<Boundary>>();
  const ids = new Map<string, Set<number> | 'all'>();
  const unknown: string[] = [];
  let count = 0;
  for (const s of scopes) {
    if (!s || typeof s !== 'object') return { ok: false, unknown: [] };
    const { access, permissions, project_ids: projectIds } = s as Record<string, unknown>;
    const bounds = typeof access === 'string' ? ACCESS_BOUNDARIES[access] : undefined;
    if (!bounds || !Array.isArray(permissions)) return { ok: false, unknown: [] };
    if (projectIds !== undefined && !Array.isArray(projectIds)) return { ok: false, unknown: [] };
    const list = (projectIds as unknown[] | undefined) ?? [];
    if (list.some((x) => !Number.isInteger(x))) return { ok: false, unknown: [] };
    count += Math.max(1, list.length);
    if (count > GRANT_MAX_SCOPES) return { ok: false, unknown: [] };
    for (const p of permissions) {
      if (typeof p !== 'string') return { ok: false, unknown: [] };
      if (!knownPermissions().has(p)) {
        if (unknown.length < 3 && !unknown.includes(cut(p))) unknown.push(cut(p));
        continue;
      }
      let set = held.get(p);
      if (!set) held.set(p, (set = new Set()));
      for (const b of bounds) set.add(b);
      if (access === 'selected_memberships') {
        const cur = ids.get(p);
        if (cur !== 'all') {
          const next = cur ?? new Set<number>();
          for (const x of list as number[]) next.add(x);
          ids.set(p, next);
        }
      } else if (access === 'all_memberships' || access === 'personal_projects') ids.set(p, 'all');
    }
  }
  if (unknown.length) return { ok: false, unknown };
  return { ok: true, grant: { held, ids } };
}

/** How the instance's release is judged: 19.4.x judged; 19.5.0-pre listed as 19.4.1, calls passed; else fallback. */
export type VersionJudgement = 'judged' | 'prerelease' | { fallback: FallbackReason };

export function judgeVersion(version: unknown): VersionJudgement {
  if (typeof version !== 'string' || !version || Buffer.byteLength(version, 'utf8') > VERSION_MAX_BYTES)
    return { fallback: 'version-unreadable' };
  const m = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/.exec(version.trim());
  if (!m) return { fallback: 'version-unreadable' };
  const [, major, minor, patch, suffix] = m;
  if (major === '19' && minor === '4') return 'judged';
  if (major === '19' && minor === '5' && patch === '0' && suffix && /^pre\b/.test(suffix))
    return 'prerelease';
  return { fallback: 'version-outside-record' };
}

const REASON_TEXT: Record<FallbackReason, string> = {
  'grant-unreadable': "the token's own grant could not be read or evaluated",
  'version-unreadable': "the instance's version could not be read",
  'version-outside-record': `the instance does not report a ${FINE_GRAINED_RELEASE.split('.').slice(0, 2).join('.')} release, the one the permission table is recorded for`,
};

const KIND_TEXT: Record<string, (el: string) => string> = {
  type: (el) =>
    `the type ${el} on its answer path declares no fine-grained permission, so the answer is null or emptied`,
  payload: (el) =>
    `its answer type ${el} declares no fine-grained permission: the write would commit but its answer is null`,
  mutation: (el) => `the mutation ${el} declares no fine-grained permission and is refused`,
  boundary: (el) => `its object (${el}) never resolves to the boundary its permission is declared at`,
};

const boundaryText = (b: Boundary[]) => b.join(' or ');

/** What a session knows about its fine-grained token. */
export class FineGrainedGate {
  constructor(
    readonly mode: 'judged' | 'prerelease' | 'fallback',
    readonly grant?: Grant,
    readonly reason?: FallbackReason,
    readonly unknown: string[] = [],
  ) {}

  static fallback(reason: FallbackReason, unknown: string[] = []): FineGrainedGate {
    return new FineGrainedGate('fallback', undefined, reason, unknown);
  }

  /** A key for sharing views: sessions whose grants reach the same actions see the same catalog. */
  get key(): string {
    const held = this.grant
      ? [...this.grant.held].map(([p, b]) => `${p}@${[...b].sort().join('|')}`).sort()
      : [];
    return JSON.stringify([this.mode, this.reason, held]);
  }

  holds(need: Need): boolean {
    const b = this.grant?.held.get(permissionId(need[0]));
    return !!b && need[1].some((x) => b.has(x));
  }

  /** The needs of the cheapest way the grant misses; undefined when some way is fully held. */
  missing(row: FineGrainedRow): Need[] | undefined {
    if (row.reach !== 'yes' || !row.needs?.length) return undefined;
    let best: Need[] | undefined;
    const misses: Need[][] = [];
    for (const alt of row.needs) {
      const miss = alt.filter((n) => !this.holds(n));
      if (!miss.length) return undefined;
      misses.push(miss);
      if (!best || miss.length < best.length) best = miss;
    }
    // One permission at several boundaries ('A || A || A'): name it once, at any of them.
    if (misses.every((m) => m.length === 1 && m[0][0] === misses[0][0][0]) && misses.length > 1)
      return [[misses[0][0][0], [...new Set(misses.flatMap((m) => m[0][1]))]]];
    return best;
  }

  /** Why this action is not listed for the session, if it is not. */
  listingRefusal(a: ActionEntry): string | undefined {
    const row = fineGrainedTable()[a.id];
    if (!row) return undefined;
    if (row.withheld) return this.unreachableText(a, row);
    if (this.mode === 'fallback') return undefined;
    const miss = this.missing(row);
    return miss ? this.grantText(a, miss) : undefined;
  }

  /** Why a call of this action is refused before anything is sent, if it is. */
  callRefusal(a: ActionEntry): string | undefined {
    const row = fineGrainedTable()[a.id];
    if (!row) return undefined;
    if (row.withheld) return this.unreachableText(a, row);
    if (this.mode !== 'judged') return undefined;
    const miss = this.missing(row);
    return miss ? this.grantText(a, miss) : undefined;
  }

  private grantText(a: ActionEntry, miss: Need[]): string {
    const names = miss.map(([p, b]) => `${p} at the ${boundaryText(b)} boundary`).join(' and ');
    const perms = miss.map(([p]) => p).join(' and ');
    return (
      `${a.id} exists but this fine-grained token's grant does not reach it: it needs ${names} ` +
      `(permission table of instance release ${FINE_GRAINED_RELEASE}). A grant cannot be changed after creation: ` +
      `create a fine-grained token granting ${perms}, or use a classic token with the api scope. ` +
      `Do not report this capability as missing: it exists, only this token cannot reach it.`
    );
  }

  private unreachableText(a: ActionEntry, row: FineGrainedRow): string {
    const w = row.withheld!;
    const why =
      this.mode === 'fallback' && this.reason
        ? ` This session's grant was not evaluated (${REASON_TEXT[this.reason]}), so only the actions no fine-grained token can reach are withheld.`
        : '';
    return (
      `${a.id} exists but no fine-grained token can reach it at instance release ${FINE_GRAINED_RELEASE}: ` +
      `${KIND_TEXT[w.kind](w.element)}. Use a classic token with the ${a.write ? 'api' : 'read_api'} scope.${why} ` +
      `Do not report this capability as missing: it exists, only fine-grained tokens cannot reach it.`
    );
  }

  /** For the 'Requires a fine-grained token with project permissions' answer: does the grant hold it anywhere? */
  holdsElsewhere(permission: string): boolean {
    const id = /^[a-z_]+$/.test(permission) ? permission : permissionId(permission);
    const b = this.grant?.held.get(id);
    return !!b && (b.has('project') || b.has('group'));
  }
}
