import type { ActionEntry, ActionSpec, DomainEntry } from './types.js';

type DomainOf<A extends ActionEntry> = DomainEntry & { actions: readonly A[] };

/**
 * The catalog indexed the ways the surfaces and the policy look actions up (canonical ID and alias, tool name,
 * domain), over full specs or over the generated index's entries alike. Two actions answering to one name
 * are refused here.
 */
export abstract class IndexedCatalog<A extends ActionEntry, D extends DomainOf<A>> {
  readonly actions: A[] = [];
  private readonly byId = new Map<string, A>();
  private readonly byTool = new Map<string, A>();
  private readonly domainOf = new Map<string, D>();

  constructor(readonly domains: D[]) {
    for (const d of domains) {
      for (const a of d.actions) {
        this.actions.push(a);
        this.domainOf.set(a.id, d);
        this.index(this.byId, a.id, a);
        for (const alias of a.aliases ?? []) this.index(this.byId, alias, a);
        this.index(this.byTool, a.tool, a);
      }
    }
  }

  private index(map: Map<string, A>, key: string, a: A): void {
    const seen = map.get(key);
    if (seen && seen !== a) throw new Error(`catalog: ${key} is declared by both ${seen.id} and ${a.id}`);
    map.set(key, a);
  }

  get(id: string): A | undefined {
    return this.byId.get(id);
  }

  byToolName(tool: string): A | undefined {
    return this.byTool.get(tool);
  }

  domain(id: string): D | undefined {
    return this.domainOf.get(id);
  }

  abstract spec(a: ActionEntry): Promise<ActionSpec>;

  specs(as: readonly ActionEntry[]): Promise<ActionSpec[]> {
    return Promise.all(as.map((a) => this.spec(a)));
  }
}
