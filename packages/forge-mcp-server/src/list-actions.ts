/**
 * `--list-actions [--json]`: the catalog's counts per domain, tier, reads and writes, destructive. The
 * catalog's index holds all of it: no domain file is loaded.
 */
import { lazyCatalog as catalog } from './catalog/lazy.js';

export function actionCounts() {
  const c = catalog();
  const perDomain: Record<string, number> = {};
  const perTier: Record<string, number> = { free: 0, premium: 0, ultimate: 0 };
  let reads = 0;
  let writes = 0;
  let destructive = 0;
  for (const a of c.actions) {
    const d = a.id.split('.')[0];
    perDomain[d] = (perDomain[d] ?? 0) + 1;
    perTier[a.tier]++;
    if (a.write) writes++;
    else reads++;
    if (a.destructive) destructive++;
  }
  return {
    total: c.actions.length,
    domains: c.domains.length,
    perDomain,
    perTier,
    reads,
    writes,
    destructive,
  };
}

export function listActions(json: boolean): string {
  const counts = actionCounts();
  if (json)
    return JSON.stringify({
      ...counts,
      actions: catalog().actions.map((a) => ({
        id: a.id,
        tool: a.tool,
        tier: a.tier,
        write: a.write,
        destructive: a.destructive,
      })),
    });
  const lines = [
    `${counts.total} actions in ${counts.domains} domains: ${counts.reads} reads, ${counts.writes} writes (${counts.destructive} destructive)`,
    `tiers: free ${counts.perTier.free}, premium ${counts.perTier.premium}, ultimate ${counts.perTier.ultimate}`,
    '',
    ...Object.entries(counts.perDomain).map(([d, n]) => `${d.padEnd(24)} ${n}`),
  ];
  return lines.join('\n');
}
