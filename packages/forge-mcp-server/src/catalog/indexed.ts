import { traitCountsOf } from './entries.js';
import type { ActionEntry, ActionSpec, ActionTraits, DomainEntry, FindDoc } from './types.js';

type DomainOf<A extends ActionEntry> = DomainEntry & { actions: readonly A[] };

interface Lookups<A, D> {
  byId: Map<string, A>;
  byTool: Map<string, A>;
  domainOf: Map<string, D>;
}

/**
 * The catalog indexed the ways the surfaces and the policy look actions up (canonical ID and alias, tool name,
 * domain), over full specs or over the generated index's entries alike. The lookups are built on the first
 * one asked for (a start lists tools without any); two actions answering to one name are refused then.
 */
export abstract class IndexedCatalog<A extends ActionEntry, D extends DomainOf<A>> {
  private read?: { domains: D[]; actions: A[] };
  private lookups?: Lookups<A, D>;

  /**
   * `source`: the domains, or what gives them when they are first asked for (the lazy catalog parses its index
   * then); `traits`: what traitCounts answers, when it is known without reading the domains.
   */
  constructor(
    private readonly source: D[] | (() => D[]),
    private traits?: ReadonlyArray<readonly [ActionTraits, number]>,
  ) {}

  get domains(): D[] {
    return this.domainsAndActions().domains;
  }

  get actions(): A[] {
    return this.domainsAndActions().actions;
  }

  private domainsAndActions(): { domains: D[]; actions: A[] } {
    if (!this.read) {
      const domains = typeof this.source === 'function' ? this.source() : this.source;
      this.read = { domains, actions: domains.flatMap((d) => d.actions) };
    }
    return this.read;
  }

  traitCounts(): ReadonlyArray<readonly [ActionTraits, number]> {
    this.traits ??= traitCountsOf(this.actions);
    return this.traits;
  }

  /** Builds the lookups now, so that a catalog naming one thing twice is refused at once. */
  protected indexNow(): void {
    this.index();
  }

  private index(): Lookups<A, D> {
    if (this.lookups) return this.lookups;
    const byId = new Map<string, A>();
    const byTool = new Map<string, A>();
    const domainOf = new Map<string, D>();
    const add = (map: Map<string, A>, key: string, a: A): void => {
      const seen = map.get(key);
      if (seen && seen !== a) throw new Error(`catalog: ${key} is declared by both ${seen.id} and ${a.id}`);
      map.set(key, a);
    };
    for (const d of this.domains) {
      for (const a of d.actions) {
        domainOf.set(a.id, d);
        add(byId, a.id, a);
        for (const alias of a.aliases ?? []) add(byId, alias, a);
        add(byTool, a.tool, a);
      }
    }
    this.lookups = { byId, byTool, domainOf };
    return this.lookups;
  }

  get(id: string): A | undefined {
    return this.index().byId.get(id);
  }

  byToolName(tool: string): A | undefined {
    return this.index().byTool.get(tool);
  }

  domain(id: string): D | undefined {
    return this.index().domainOf.get(id);
  }

  abstract spec(a: ActionEntry): Promise<ActionSpec>;

  specs(as: readonly ActionEntry[]): Promise<ActionSpec[]> {
    return Promise.all(as.map((a) => this.spec(a)));
  }

  abstract findable(as: readonly ActionEntry[]): Promise<FindDoc[]>;
}
