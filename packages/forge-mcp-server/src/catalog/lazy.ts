/**
 * The catalog the server reads: the generated index (every action's entry, built without evaluating a domain
 * file), parsed when an entry is first asked for, and each domain's full specs loaded on first use. A stdio
 * start on the dynamic surface counts the actions it lists by the build's trait counts and parses nothing; the
 * meta tool list reads the index alone; a call, a search or a full tool list loads the domains it needs.
 */
import { CATALOG_TRAITS, catalogIndex } from './catalog-index.generated.js';
import { IndexedCatalog } from './indexed.js';
import type { ActionEntry, ActionSpec, DomainEntry, DomainSpec, FindDoc } from './types.js';

type DomainModules = Record<string, () => Promise<{ domain: DomainSpec }>>;

/**
 * The domain files' loaders, read on first use: bundled, they and the domain files are a bundle apart
 * (scripts/bundle.mjs), so a start reads none of the catalog's code.
 */
const domainModules = (): Promise<DomainModules> =>
  import('./domain-modules.generated.js').then((m) => m.DOMAIN_MODULES);

/** forge_find_action's corpus, read with the first search (bundled, a file apart as the domains are). */
const findCorpus = (): Promise<FindDoc[]> => import('./find-corpus.generated.js').then((m) => m.findCorpus());

export class LazyCatalog extends IndexedCatalog<ActionEntry, DomainEntry> {
  /** Per domain, its specs by canonical ID, once its module has loaded. */
  private readonly loading = new Map<string, Promise<Map<string, ActionSpec>>>();
  /** Every loaded domain's specs by canonical ID. */
  private readonly loaded = new Map<string, ActionSpec>();

  /**
   * `index`: the entries to serve instead of the generated index. The generated one is parsed when an entry is
   * first asked for; until then the catalog answers traitCounts from the build's counts (a start's session
   * counts the actions it lists by them).
   */
  constructor(
    index?: DomainEntry[],
    private readonly modules: () => Promise<DomainModules> = domainModules,
    private readonly corpus: () => Promise<FindDoc[]> = findCorpus,
  ) {
    super(index ?? catalogIndex, index ? undefined : CATALOG_TRAITS);
  }

  private load(d: DomainEntry): Promise<Map<string, ActionSpec>> {
    let specs = this.loading.get(d.domain);
    if (!specs) {
      specs = this.modules().then(async (all) => {
        const load = all[d.domain];
        if (!load)
          throw new Error(`catalog: the index names domain ${d.domain}, which has no module (rebuild)`);
        const { domain } = await load();
        for (const a of domain.actions) this.loaded.set(a.id, a);
        return new Map(domain.actions.map((a) => [a.id, a]));
      });
      this.loading.set(d.domain, specs);
      // A file that could not be read (descriptors exhausted, say) is read again by the next call that needs it.
      specs.catch(() => this.loading.delete(d.domain));
    }
    return specs;
  }

  private docs?: Promise<Map<string, FindDoc>>;

  async findable(as: readonly ActionEntry[]): Promise<FindDoc[]> {
    if (!this.docs) {
      this.docs = this.corpus().then((all) => new Map(all.map((doc) => [doc.id, doc])));
      this.docs.catch(() => (this.docs = undefined));
    }
    const docs = await this.docs;
    return as.map((a) => {
      const doc = docs.get(a.id);
      if (!doc) throw new Error(`catalog: ${a.id} is in the index but not in the search corpus (rebuild)`);
      return doc;
    });
  }

  loadedSpec(a: ActionEntry): ActionSpec | undefined {
    return this.loaded.get(a.id);
  }

  async spec(a: ActionEntry): Promise<ActionSpec> {
    const d = this.domain(a.id);
    const found = d && (await this.load(d)).get(a.id);
    // The index is generated from the domain files by the build; a miss means it was not rebuilt.
    if (!found) throw new Error(`catalog: ${a.id} is in the index but not in its domain file (rebuild)`);
    return found;
  }
}

let shared: LazyCatalog | undefined;
/** One lazy catalog serves every session; a domain loaded for one is loaded for all. */
export function lazyCatalog(): LazyCatalog {
  shared ??= new LazyCatalog();
  return shared;
}
