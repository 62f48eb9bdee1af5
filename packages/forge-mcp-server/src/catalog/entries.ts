/**
 * The catalog's index: what start-up reads of every action, derived from the domain files. The build writes
 * it to catalog-index.generated.ts (scripts/gen-catalog-index.mjs) as compact rows, decoded here at start;
 * the catalog test fails when the written file and the domain files disagree.
 */
import type {
  ActionEntry,
  ActionSpec,
  AdminGroup,
  ClassicScope,
  DomainEntry,
  DomainSpec,
  Tier,
} from './types.js';

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

/** One action as the generated file holds it: flags 1 write, 2 destructive, 4 idempotent; '' when unset. */
export type ActionRow = [
  id: string,
  title: string,
  tool: string,
  flags: number,
  tier: Tier,
  scope: ClassicScope,
  adminGroup: AdminGroup | '',
  aliases: string,
];
export type DomainRow = [domain: string, metaTool: string, summary: string, actions: ActionRow[]];

const WRITE = 1;
const DESTRUCTIVE = 2;
const IDEMPOTENT = 4;

export function encodeIndex(entries: readonly DomainEntry[]): DomainRow[] {
  return entries.map((d) => [
    d.domain,
    d.metaTool,
    d.summary,
    d.actions.map((a): ActionRow => {
      if (a.aliases?.some((x) => x.includes(',')))
        throw new Error(`catalog index: an alias of ${a.id} holds a comma`);
      return [
        a.id,
        a.title,
        a.tool,
        (a.write ? WRITE : 0) | (a.destructive ? DESTRUCTIVE : 0) | (a.idempotent ? IDEMPOTENT : 0),
        a.tier,
        a.scope,
        a.adminGroup ?? '',
        (a.aliases ?? []).join(','),
      ];
    }),
  ]);
}

export function decodeIndex(rows: readonly DomainRow[]): DomainEntry[] {
  return rows.map(([domain, metaTool, summary, actions]) => ({
    domain,
    metaTool,
    summary,
    actions: actions.map(([id, title, tool, flags, tier, scope, adminGroup, aliases]) => ({
      id,
      title,
      tool,
      ...(aliases ? { aliases: aliases.split(',') } : {}),
      write: (flags & WRITE) !== 0,
      destructive: (flags & DESTRUCTIVE) !== 0,
      idempotent: (flags & IDEMPOTENT) !== 0,
      tier,
      scope,
      ...(adminGroup ? { adminGroup } : {}),
    })),
  }));
}
