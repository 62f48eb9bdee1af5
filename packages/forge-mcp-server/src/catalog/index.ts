import { domains } from './domains/index.js';
import type { ActionSpec, DomainSpec } from './types.js';

export type * from './types.js';
export { domains };

/** The whole catalog, indexed the ways the surfaces and the policy look actions up. */
export class Catalog {
  readonly actions: ActionSpec[];
  readonly domains: DomainSpec[];
  private readonly byId = new Map<string, ActionSpec>();
  private readonly byTool = new Map<string, ActionSpec>();
  private readonly domainOf = new Map<string, DomainSpec>();

  constructor(source: DomainSpec[] = domains) {
    this.domains = source;
    this.actions = [];
    for (const d of source) {
      for (const a of d.actions) {
        this.actions.push(a);
        this.domainOf.set(a.id, d);
        this.index(this.byId, a.id, a);
        for (const alias of a.aliases ?? []) this.index(this.byId, alias, a);
        this.index(this.byTool, a.tool, a);
      }
    }
  }

  private index(map: Map<string, ActionSpec>, key: string, a: ActionSpec): void {
    const seen = map.get(key);
    if (seen && seen !== a) throw new Error(`catalog: ${key} is declared by both ${seen.id} and ${a.id}`);
    map.set(key, a);
  }

  get(id: string): ActionSpec | undefined {
    return this.byId.get(id);
  }

  byToolName(tool: string): ActionSpec | undefined {
    return this.byTool.get(tool);
  }

  domain(id: string): DomainSpec | undefined {
    return this.domainOf.get(id);
  }
}

let shared: Catalog | undefined;
/** The catalog is immutable data: one instance serves every session. */
export function catalog(): Catalog {
  shared ??= new Catalog();
  return shared;
}
