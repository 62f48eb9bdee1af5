/**
 * A session's view of the catalog. Filtering happens once, here; every surface, resource, prompt and
 * completion reads the same view.
 */
import type { ActionEntry, ActionTraits, CatalogSource, Tier } from '../catalog/types.js';
import { nearestWithin } from '../config/nearest.js';

export const TIER_RANK: Record<Tier, number> = { free: 0, premium: 1, ultimate: 2 };

export type Availability =
  | { state: 'available' }
  /** Not offered at all: excluded by the operator; answered as unknown. */
  | { state: 'absent' }
  /** Exists, but this session may not run it; answered with the reason. */
  | { state: 'withheld'; reason: 'read_only' | 'scope' | 'admin_mode' | 'fine_grained'; text: string }
  | { state: 'tier'; needs: Tier; text: string };

export interface ViewOptions {
  readOnly: boolean;
  excludeTools: string[];
  tier: Tier;
  tierSource: 'configured' | 'detected';
  /** Classic scopes of the token; undefined when they could not be read (nothing is filtered). */
  scopes?: string[];
  ignoreScopes?: boolean;
  /** A fine-grained token's grant, evaluated (or its fallback); undefined for other tokens. */
  fineGrained?: FineGrainedFilter;
}

/** What the view asks of a fine-grained session (session/grant.ts). */
export interface FineGrainedFilter {
  /** Why the action is not listed, if it is not. */
  listingRefusal(a: ActionEntry): string | undefined;
  /** Why a call is refused before anything is sent, if it is. */
  callRefusal(a: ActionEntry): string | undefined;
}

/** The answers most actions get, shared: a view decides all 1,098 at start. */
const AVAILABLE: Availability = Object.freeze({ state: 'available' });
const ABSENT: Availability = Object.freeze({ state: 'absent' });

/** Scopes that lift the read_api narrowing. */
const canWrite = (scopes: string[]) => scopes.includes('api');

/** What a tool list and a start's log line say of the listed actions. */
export interface ListedSummary {
  count: number;
  /** Whether any listed action writes. */
  writes: boolean;
  /** Whether any listed action is destructive. */
  destructive: boolean;
}

export class CatalogView {
  /** By canonical ID: an action's index entry and its full spec share one answer. */
  private readonly cache = new Map<string, Availability>();
  private readonly excluded: Set<string>;
  private listedList?: ActionEntry[];
  private listedIds?: Set<string>;
  private unavailableList?: ActionEntry[];

  /**
   * Nothing is decided here: the lists are made when first asked for, and a start's tool list and log line
   * count the listed actions by the catalog's traits (listedSummary), so a start reads no action's entry.
   */
  constructor(
    readonly catalog: CatalogSource,
    readonly opts: ViewOptions,
  ) {
    this.excluded = new Set(opts.excludeTools.map((s) => s.trim()).filter(Boolean));
  }

  /** Offered in lists: available, and listed by a fine-grained grant (which may list less than it lets through). */
  get listed(): ActionEntry[] {
    const fg = this.opts.fineGrained;
    this.listedList ??= this.catalog.actions.filter(
      (a) => this.availability(a).state === 'available' && !fg?.listingRefusal(a),
    );
    return this.listedList;
  }

  /**
   * Actions only a higher tier than the session's offers: not listed, but found and answered as existing
   * and unavailable (never as unknown).
   */
  get unavailable(): ActionEntry[] {
    const fg = this.opts.fineGrained;
    this.unavailableList ??= this.catalog.actions.filter(
      (a) => this.availability(a).state === 'tier' && !fg?.listingRefusal(a),
    );
    return this.unavailableList;
  }

  /**
   * How many actions are listed and whether any listed one writes or destroys. Counted by the catalog's traits
   * when nothing but traits decides (no exclusion, no fine-grained grant) and the list is not made yet.
   */
  listedSummary(): ListedSummary {
    if (this.listedList || this.excluded.size || this.opts.fineGrained) {
      const listed = this.listed;
      return {
        count: listed.length,
        writes: listed.some((a) => a.write),
        destructive: listed.some((a) => a.destructive),
      };
    }
    const summary: ListedSummary = { count: 0, writes: false, destructive: false };
    for (const [traits, n] of this.catalog.traitCounts()) {
      if (this.refusal(traits)) continue;
      summary.count += n;
      summary.writes ||= traits.write;
      summary.destructive ||= traits.destructive;
    }
    return summary;
  }

  /** Offered in lists (a fine-grained grant may list less than it lets through). */
  isListed(a: ActionEntry): boolean {
    this.listedIds ??= new Set(this.listed.map((x) => x.id));
    return this.listedIds.has(a.id);
  }

  /** Entries of the exclude list that name nothing (logged at WARN by the caller). */
  unknownExclusions(extra: string[] = []): string[] {
    return unknownExclusions(this.catalog, [...this.excluded], extra);
  }

  isExcluded(a: ActionEntry): boolean {
    if (!this.excluded.size) return false;
    const d = this.catalog.domain(a.id);
    return (
      this.excluded.has(a.id) ||
      this.excluded.has(a.tool) ||
      (a.aliases ?? []).some((x) => this.excluded.has(x)) ||
      (!!d && (this.excluded.has(d.metaTool) || this.excluded.has(d.domain))) ||
      (!!a.adminGroup && this.excluded.has(a.adminGroup))
    );
  }

  availability(a: ActionEntry): Availability {
    let v = this.cache.get(a.id);
    if (!v) {
      v = this.compute(a);
      this.cache.set(a.id, v);
    }
    return v;
  }

  /** What keeps the session from running an action with these traits, if anything does (its names and a grant apart). */
  private refusal(a: ActionTraits): 'admin_mode' | 'scope' | 'read_only' | 'tier' | undefined {
    const { scopes, ignoreScopes } = this.opts;
    if (scopes && !ignoreScopes && a.adminGroup && !scopes.includes('admin_mode')) return 'admin_mode';
    if (scopes && !ignoreScopes && !canWrite(scopes) && a.scope === 'api') return 'scope';
    if (this.opts.readOnly && a.write) return 'read_only';
    if (TIER_RANK[a.tier] > TIER_RANK[this.opts.tier]) return 'tier';
    return undefined;
  }

  private compute(a: ActionEntry): Availability {
    if (this.isExcluded(a)) return ABSENT;
    const fineGrained = this.opts.fineGrained?.callRefusal(a);
    if (fineGrained) return { state: 'withheld', reason: 'fine_grained', text: fineGrained };
    const { scopes } = this.opts;
    switch (this.refusal(a)) {
      case 'admin_mode':
        return {
          state: 'withheld',
          reason: 'admin_mode',
          text: `${a.id} exists but is withheld: it belongs to the ${a.adminGroup} group, which needs a token with the admin_mode scope (and an administrator).`,
        };
      case 'scope':
        return {
          state: 'withheld',
          reason: 'scope',
          text: `${a.id} exists but is withheld: the token's scopes (${scopes!.join(', ') || 'none'}) do not allow it; it needs a token with the api scope.`,
        };
      case 'read_only':
        return {
          state: 'withheld',
          reason: 'read_only',
          text: `${a.id} exists but is withheld: the server runs in read-only mode (FORGE_MCP_READ_ONLY=true), which removes every action that changes data. Only read actions can run.`,
        };
      case 'tier':
        return {
          state: 'tier',
          needs: a.tier,
          text: `${a.id} exists but is unavailable: it needs the ${a.tier} tier, and this server's tier is ${this.opts.tier} (${this.opts.tierSource}).${this.opts.tierSource === 'detected' ? ' If the instance has a higher tier, set FORGE_MCP_TIER.' : ''}`,
        };
      default:
        return AVAILABLE;
    }
  }
}

/**
 * The WARN line of an exclude-list entry that names nothing, with the tool, group or action it is nearest to
 * when one is at most two edits away (a misspelt `issue.delet`).
 */
export function unknownExclusionMessage(catalog: CatalogSource, entry: string): string {
  const names = function* () {
    for (const d of catalog.domains) yield* [d.domain, d.metaTool];
    for (const a of catalog.actions) yield* [a.id, a.tool];
  };
  const near = nearestWithin(entry, names(), 2);
  return `FORGE_MCP_EXCLUDE_TOOLS entry "${entry}" names no tool, group or action${near ? `; did you mean ${near}?` : ''}`;
}

/** Entries of an exclude list that name no tool, group or action (logged at WARN by each transport). */
export function unknownExclusions(catalog: CatalogSource, entries: string[], extra: string[] = []): string[] {
  return [...new Set(entries.map((e) => e.trim()).filter(Boolean))].filter(
    (e) =>
      !extra.includes(e) &&
      !catalog.get(e) &&
      !catalog.byToolName(e) &&
      !catalog.domains.some((d) => d.metaTool === e || d.domain === e),
  );
}
