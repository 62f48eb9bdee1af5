/** A read-only catalogue: rows keyed `<catalogue>/<key>`, joinable when no key is shared. */
import { ROW_PROVENANCE_TEXT, classInfo, type Basis, type RowClassName } from './definition.js';
import { listNames } from './errors.js';
import type { ReadResult } from './reader.js';
import type { AnyRow, CatalogueDocument, Provenance } from './types.js';

/** Where an entry's values come from: the document's provenance, narrowed by the row's own. */
export interface EntryProvenance extends Provenance {
  /** The catalogue the row was read from. */
  readonly catalogue: string;
}

/** One row of a catalogue, with what is needed to trace each of its values back. */
export interface CatalogueEntry {
  readonly catalogue: string;
  readonly rowType: RowClassName;
  /** The full key, `<catalogue>/<key>`. */
  readonly key: string;
  readonly row: AnyRow;
  /** The document's provenance with the row's page, table, laboratory, report … over it. */
  readonly provenance: EntryProvenance;
  /**
   * The basis of each field the row gives (a value, a range or readings): the row's basis for
   * the field, else the row's own, else the document's. A field with none of them is absent.
   */
  readonly basis: Readonly<Record<string, Basis>>;
  /** SHA-256 of the file the row was read from ('' when the document was never bytes). */
  readonly fileSha256: string;
  /** SHA-256 of the JSON header beside a CSV file ('' for a JSON document). */
  readonly headerSha256: string;
}

/** Where a document came from: the digests of its bytes. */
export interface DocumentOrigin {
  readonly fileSha256?: string;
  readonly headerSha256?: string;
}

const VALUE_HEDGES = ['ranges', 'reported'] as const;

function entryProvenance(document: CatalogueDocument, row: AnyRow): EntryProvenance {
  const own = row.provenance;
  const merged: Record<string, unknown> = { catalogue: document.catalogue, ...document.provenance };
  if (own) {
    for (const k of ROW_PROVENANCE_TEXT) if (own[k] !== undefined) merged[k] = own[k];
    if (own.field_test_standards)
      merged.field_test_standards = {
        ...document.provenance.field_test_standards,
        ...own.field_test_standards,
      };
  }
  return Object.freeze(merged) as unknown as EntryProvenance;
}

function effectiveBasis(document: CatalogueDocument, row: AnyRow): Readonly<Record<string, Basis>> {
  const given = (row.basis ?? {}) as Readonly<Record<string, Basis | undefined>>;
  const fallback = given.row ?? document.basis;
  const r = row as unknown as Record<string, unknown>;
  const out: Record<string, Basis> = {};
  for (const f of classInfo(document.row_type).canonical) {
    const held =
      typeof r[f] === 'number' ||
      VALUE_HEDGES.some((h) => (r[h] as Record<string, unknown> | undefined)?.[f] !== undefined);
    const basis = given[f] ?? fallback;
    if (held && basis !== undefined) out[f] = basis;
  }
  return Object.freeze(out);
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

  /**
   * The rows of a document the reader accepted, keyed `<catalogue>/<key>`, each with its
   * provenance, the basis of each field and the digests of the bytes it was read from.
   */
  static fromDocument(document: CatalogueDocument, origin: DocumentOrigin = {}): Catalogue {
    const entries = new Map<string, CatalogueEntry>();
    for (const row of document.rows as readonly AnyRow[]) {
      const full = `${document.catalogue}/${row.key}`;
      if (entries.has(full)) throw new CatalogueJoinError([full]);
      entries.set(
        full,
        Object.freeze({
          catalogue: document.catalogue,
          rowType: document.row_type,
          key: full,
          row,
          provenance: entryProvenance(document, row),
          basis: effectiveBasis(document, row),
          fileSha256: origin.fileSha256 ?? '',
          headerSha256: origin.headerSha256 ?? '',
        }),
      );
    }
    return new Catalogue(entries);
  }

  /** The rows of what readCatalogue or readCatalogueCsv returned, traced to the bytes read. */
  static fromRead(result: ReadResult): Catalogue {
    return Catalogue.fromDocument(result.document, {
      fileSha256: result.fileSha256,
      headerSha256: result.headerSha256,
    });
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
