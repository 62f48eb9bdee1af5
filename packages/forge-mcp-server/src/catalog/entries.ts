/**
 * The catalog's index: what start-up reads of every action, derived from the domain files. The build writes
 * it to catalog-index.generated.ts (scripts/gen-catalog-index.mjs) as JSON, which V8 parses faster than it
 * would decode a more compact form; the catalog test fails when the written file and the domain files disagree.
 */
import type { ActionEntry, ActionSpec, ActionTraits, DomainEntry, DomainSpec, FindDoc } from './types.js';

/** The entry of one action: exactly the fields ActionEntry names, the optional ones only when set. */
export function entryOf(a: ActionSpec): ActionEntry {
  return {
    id: a.id,
    title: a.title,
    tool: a.tool,
    ...(a.aliases ? { aliases: a.aliases } : {}),
    write: a.write,
    destructive: a.destructive,
    idempotent: a.idempotent,
    tier: a.tier,
    scope: a.scope,
    ...(a.adminGroup ? { adminGroup: a.adminGroup } : {}),
  };
}

export function domainEntries(domains: readonly DomainSpec[]): DomainEntry[] {
  return domains.map((d) => ({
    domain: d.domain,
    metaTool: d.metaTool,
    summary: d.summary,
    actions: d.actions.map(entryOf),
  }));
}

/**
 * Each distinct combination of traits among `actions` (the fields ActionTraits names, the optional one only when
 * set), with how many actions have it, in the order first met.
 */
export function traitCountsOf(actions: readonly ActionEntry[]): Array<[ActionTraits, number]> {
  const counts = new Map<string, [ActionTraits, number]>();
  for (const a of actions) {
    const traits: ActionTraits = {
      write: a.write,
      destructive: a.destructive,
      tier: a.tier,
      scope: a.scope,
      ...(a.adminGroup ? { adminGroup: a.adminGroup } : {}),
    };
    const key = JSON.stringify(traits);
    const seen = counts.get(key);
    if (seen) seen[1]++;
    else counts.set(key, [traits, 1]);
  }
  return [...counts.values()];
}

/** What forge_find_action reads of one action, for the generated corpus: the parameters' names alone. */
export function findDocOf(a: ActionSpec): FindDoc {
  return {
    id: a.id,
    title: a.title,
    tool: a.tool,
    description: a.description,
    params: Object.fromEntries(Object.keys(a.params).map((p) => [p, 1])),
  };
}
