import { describe, expect, it } from 'vitest';
import { lazyCatalog, LazyCatalog } from '../catalog/lazy.js';
import type { Tier } from '../catalog/types.js';
import { CatalogView, type ViewOptions } from './view.js';

/** Every combination of what decides a view without naming actions. */
function* combinations(): Generator<ViewOptions> {
  for (const tier of ['free', 'premium', 'ultimate'] as Tier[])
    for (const readOnly of [false, true])
      for (const scopes of [
        undefined,
        [],
        ['api'],
        ['read_api'],
        ['api', 'admin_mode'],
        ['read_api', 'admin_mode'],
      ])
        for (const ignoreScopes of [false, true])
          yield { tier, tierSource: 'configured', readOnly, excludeTools: [], scopes, ignoreScopes };
}

describe("a view's listed actions", () => {
  it('are counted by the catalog traits as the list itself counts them, for every tier, mode and scope', () => {
    for (const opts of combinations()) {
      const listed = new CatalogView(lazyCatalog(), opts).listed;
      expect(new CatalogView(new LazyCatalog(), opts).listedSummary(), JSON.stringify(opts)).toEqual({
        count: listed.length,
        writes: listed.some((a) => a.write),
        destructive: listed.some((a) => a.destructive),
      });
    }
  });

  it('are counted from the list when an exclusion names some of them', () => {
    const opts: ViewOptions = {
      tier: 'ultimate',
      tierSource: 'configured',
      readOnly: false,
      excludeTools: ['forge_issue', 'merge_request.get'],
    };
    const view = new CatalogView(lazyCatalog(), opts);
    const all = new CatalogView(lazyCatalog(), { ...opts, excludeTools: [] });
    expect(view.listedSummary().count).toBe(view.listed.length);
    expect(view.listed.length).toBeLessThan(all.listed.length);
  });
});
