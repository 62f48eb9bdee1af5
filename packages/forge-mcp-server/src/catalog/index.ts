import { domains } from './domains/index.js';
import { IndexedCatalog } from './indexed.js';
import type { ActionEntry, ActionSpec, DomainSpec, FindDoc } from './types.js';

export type * from './types.js';
export { domains };

/**
 * The whole catalog, every domain loaded: for the library's users, --list-actions and the tests. The server
 * itself reads the lazy catalog (lazy.ts), which loads a domain's specs on first use.
 */
export class Catalog extends IndexedCatalog<ActionSpec, DomainSpec> {
  constructor(source: DomainSpec[] = domains) {
    super(source);
    this.indexNow();
  }

  loadedSpec(a: ActionEntry): ActionSpec | undefined {
    return this.get(a.id);
  }

  spec(a: ActionEntry): Promise<ActionSpec> {
    const found = this.get(a.id);
    return found ? Promise.resolve(found) : Promise.reject(new Error(`catalog: no action ${a.id}`));
  }

  findable(as: readonly ActionEntry[]): Promise<FindDoc[]> {
    return this.specs(as);
  }
}

let shared: Catalog | undefined;
/** The catalog is immutable data: one instance serves every session. */
export function catalog(): Catalog {
  shared ??= new Catalog();
  return shared;
}
