/**
 * The catalog's index: what start-up reads of every action, derived from the domain files. The build writes
 * it to catalog-index.generated.ts (scripts/gen-catalog-index.mjs) as JSON, which V8 parses faster than it
 * would decode a more compact form; the catalog test fails when the written file and the domain files disagree.
 */
import type { ActionEntry, ActionSpec, DomainEntry, DomainSpec, FindDoc } from './types.js';

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
