/**
 * TypeScript types of catalogue documents, derived from the row-class definition.
 * Rows hold canonical fields only: unit alias columns are converted by the reader.
 */
import type { Basis, RowClassName, ROW_CLASSES } from './definition.js';

type Spec<C extends RowClassName> = (typeof ROW_CLASSES)[C];

/** Canonical numeric field names of a row class. */
export type NumericField<C extends RowClassName> = keyof Spec<C>['numeric'] & string;
/** Text cells of a row class (besides name, variant, group, note). */
export type TextField<C extends RowClassName> = Spec<C>['text'][number];
/** Flag (boolean) cells of a row class. */
export type FlagField<C extends RowClassName> = Spec<C>['flags'][number];
/** Cells `carried` and `misprinted` may name. */
export type CellName<C extends RowClassName> =
  NumericField<C> | TextField<C> | 'group' | 'name' | 'note' | 'variant';

/** `[low, high]`; null is an open end. */
export type Range = readonly [number | null, number | null];
/** One reading of a value: a number, or a pair printed as one reading. */
export type Reading = number | readonly [number, number];

export interface RowProvenance {
  readonly page?: string;
  readonly printed_table?: string;
  readonly laboratory?: string;
  readonly accreditation?: string;
  readonly report?: string;
  readonly test_date?: string;
  readonly test_standard?: string;
  readonly field_test_standards?: Readonly<Record<string, string>>;
}

/** What every row class carries besides its own fields. */
export interface RowCommon<F extends string, Cell extends string> {
  readonly key: string;
  readonly name: string;
  readonly variant?: string;
  readonly group?: string;
  readonly note?: string;
  readonly provenance?: RowProvenance;
  readonly basis?: Readonly<Partial<Record<F | 'row', Basis>>>;
  readonly approximate?: readonly F[];
  readonly bounded_above?: readonly F[];
  readonly bounded_below?: readonly F[];
  readonly ranges?: Readonly<Partial<Record<F, Range>>>;
  readonly reported?: Readonly<Partial<Record<F, readonly Reading[]>>>;
  readonly uncertainty?: Readonly<Partial<Record<F, number>>>;
  /** Figure and unit as printed, for a value converted into the canonical unit. */
  readonly converted?: Readonly<Partial<Record<F, readonly [string, string]>>>;
  /** What the page prints instead of a number. */
  readonly unquantified?: Readonly<Partial<Record<F, string>>>;
  /** Why a value is left empty. */
  readonly not_derivable?: Readonly<Partial<Record<F, string>>>;
  /** Which row gives a cell's value. */
  readonly carried?: Readonly<Partial<Record<Cell, string>>>;
  /** What the page prints in a cell and why it is wrong. */
  readonly misprinted?: Readonly<Partial<Record<Cell, string>>>;
  readonly attributed_to?: Readonly<Partial<Record<F | 'row' | 'table', string>>>;
  /** User columns: kept as written, never computed. */
  readonly [column: `x-${string}`]: string | number;
}

/** A row of class C. */
export type RowOf<C extends RowClassName> = RowCommon<NumericField<C>, CellName<C>> & {
  readonly [K in NumericField<C>]?: number | null;
} & { readonly [K in TextField<C>]?: string } & {
  readonly [K in FlagField<C>]?: boolean;
} & (C extends 'SolidMaterial'
    ? { readonly borrowed?: Readonly<Partial<Record<NumericField<C>, string>>> }
    : unknown);

export type AbsorptionAreaSpectrum = RowOf<'AbsorptionAreaSpectrum'>;
export type AbsorptionSpectrum = RowOf<'AbsorptionSpectrum'>;
export type BandedRow = RowOf<'BandedRow'>;
export type Carpet = RowOf<'Carpet'>;
export type CatalogueRow = RowOf<'CatalogueRow'>;
export type DampingMaterial = RowOf<'DampingMaterial'>;
export type DampingTreatment = RowOf<'DampingTreatment'>;
export type DuctWallSpectrum = RowOf<'DuctWallSpectrum'>;
export type Gas = RowOf<'Gas'>;
export type GroundSurface = RowOf<'GroundSurface'>;
export type ImpactImprovementSpectrum = RowOf<'ImpactImprovementSpectrum'>;
export type ImpactInsulation = RowOf<'ImpactInsulation'>;
export type NonlinearityParameter = RowOf<'NonlinearityParameter'>;
export type NormalizedDiffusionSpectrum = RowOf<'NormalizedDiffusionSpectrum'>;
export type OrthotropicWood = RowOf<'OrthotropicWood'>;
export type PlateauMaterial = RowOf<'PlateauMaterial'>;
export type PorousMaterial = RowOf<'PorousMaterial'>;
export type PracticalAbsorptionSpectrum = RowOf<'PracticalAbsorptionSpectrum'>;
export type PredictedScatteringSpectrum = RowOf<'PredictedScatteringSpectrum'>;
export type ResilientLayer = RowOf<'ResilientLayer'>;
export type ResilientMaterial = RowOf<'ResilientMaterial'>;
export type ResistiveSheet = RowOf<'ResistiveSheet'>;
export type ScatteringCoefficientSpectrum = RowOf<'ScatteringCoefficientSpectrum'>;
export type SolidMaterial = RowOf<'SolidMaterial'>;
export type SolidNonlinearity = RowOf<'SolidNonlinearity'>;
export type SoundReductionSpectrum = RowOf<'SoundReductionSpectrum'>;
export type ThirdOctaveAbsorptionSpectrum = RowOf<'ThirdOctaveAbsorptionSpectrum'>;
export type TransmissionLossSpectrum = RowOf<'TransmissionLossSpectrum'>;

/** Any row of any class. */
export type AnyRow = { [C in RowClassName]: RowOf<C> }[RowClassName];

export type ProvenanceKind =
  | 'datasheet'
  | 'declaration_of_performance'
  | 'test_report'
  | 'measurement'
  | 'calculation'
  | 'publication'
  | 'other';

export interface Provenance extends Omit<RowProvenance, 'field_test_standards'> {
  readonly kind: ProvenanceKind;
  readonly document: string;
  /** As printed, e.g. "Rev. 4"; null when the document has none. */
  readonly version: string | null;
  /** Date the document was consulted, YYYY-MM-DD. */
  readonly consulted: string;
  readonly publisher?: string;
  /** Where the document was found (never opened by the reader). */
  readonly url?: string;
  readonly issued?: string;
  readonly sha256?: string;
  readonly field_test_standards?: Readonly<Record<string, string>>;
}

export type Delimiter = ',' | ';' | '\t';
export type DecimalMark = '.' | ',';

export interface CsvDialect {
  readonly delimiter: Delimiter;
  readonly decimal: DecimalMark;
}

interface DocumentBase<C extends RowClassName> {
  readonly $schema?: unknown;
  readonly schema: 'acoustics-catalogue';
  readonly schema_version: 1;
  readonly catalogue: string;
  readonly row_type: C;
  readonly about: string;
  readonly basis?: Basis;
  readonly attributed_to?: string;
  readonly conventions?: readonly string[];
  readonly provenance: Provenance;
  readonly acoustics_version?: unknown;
}

/** A catalogue document holding rows of class C. */
export interface CatalogueDocumentOf<C extends RowClassName> extends DocumentBase<C> {
  readonly rows: readonly RowOf<C>[];
}

/**
 * A catalogue document of the row classes C: `CatalogueDocumentOf<C>` for one class, the union discriminated by
 * `row_type` for several. What a read with `rowType` returns.
 */
export type CatalogueDocumentFor<C extends RowClassName> = { [K in C]: CatalogueDocumentOf<K> }[C];

/** A catalogue document of any row class (discriminated by `row_type`). */
export type CatalogueDocument = CatalogueDocumentFor<RowClassName>;

/** The header beside a CSV file: the document without rows, with its dialect. */
export type CsvHeaderDocument = {
  [C in RowClassName]: DocumentBase<C> & { readonly csv: CsvDialect };
}[RowClassName];
