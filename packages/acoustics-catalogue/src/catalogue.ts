/** A read-only catalogue: rows keyed `<catalogue>/<key>`, joinable when no key is shared. */
import type { RowClassName } from './definition.js';
import { listNames } from './errors.js';
import type { AnyRow, CatalogueDocument } from './types.js';

export interface CatalogueEntry {
  readonly catalogue: string;
  readonly rowType: RowClassName;
  readonly row: AnyRow;
}

/** Raised when two catalogues being joined hold the same full key. */
export class CatalogueJoinError extends Error {
  readonly sharedKeys: readonly string[];
  constructor(shared: readonly string[]) {
    super(
      `cannot join catalogues: ${shared.length} key${shared.length === 1 ? ' is' : 's are'} in both (${listNames(shared)}); rename the catalogue or the rows`,
    );
    this.name = 'CatalogueJoinError';
    this.sharedKeys = shared;
  }
}

export class Catalogue implements ReadonlyMap<string, CatalogueEntry> {
  readonly #entries: ReadonlyMap<string, CatalogueEntry>;

  private constructor(entries: Map<string, CatalogueEntry>) {
    this.#entries = entries;
  }

  /** The rows of a document the reader accepted, keyed `<catalogue>/<key>`. */
  static fromDocument(document: CatalogueDocument): Catalogue {
    const entries = new Map<string, CatalogueEntry>();
    for (const row of document.rows as readonly AnyRow[]) {
      const full = `${document.catalogue}/${row.key}`;
      if (entries.has(full)) throw new CatalogueJoinError([full]);
      entries.set(full, Object.freeze({ catalogue: document.catalogue, rowType: document.row_type, row }));
    }
    return new Catalogue(entries);
  }

  static empty(): Catalogue {
    return new Catalogue(new Map());
  }

  /** A new catalogue holding both; refuses (CatalogueJoinError) when any full key is shared. */
  join(other: Catalogue): Catalogue {
    const shared = [...other.keys()].filter((k) => this.#entries.has(k));
    if (shared.length) throw new CatalogueJoinError(shared);
    return new Catalogue(new Map([...this.#entries, ...other.#entries]));
  }

  /** The row under a full key, or undefined. */
  row(fullKey: string): AnyRow | undefined {
    return this.#entries.get(fullKey)?.row;
  }

  get size(): number {
    return this.#entries.size;
  }
  get(key: string): CatalogueEntry | undefined {
    return this.#entries.get(key);
  }
  has(key: string): boolean {
    return this.#entries.has(key);
  }
  keys(): MapIterator<string> {
    return this.#entries.keys();
  }
  values(): MapIterator<CatalogueEntry> {
    return this.#entries.values();
  }
  entries(): MapIterator<[string, CatalogueEntry]> {
    return this.#entries.entries();
  }
  forEach(fn: (value: CatalogueEntry, key: string, map: ReadonlyMap<string, CatalogueEntry>) => void): void {
    this.#entries.forEach((v, k) => fn(v, k, this));
  }
  [Symbol.iterator](): MapIterator<[string, CatalogueEntry]> {
    return this.#entries.entries();
  }
}

/** Joins catalogues; refuses shared keys. */
export function joinCatalogues(...catalogues: Catalogue[]): Catalogue {
  return catalogues.reduce((a, b) => a.join(b), Catalogue.empty());
}
