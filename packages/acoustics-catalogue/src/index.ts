export * from './types.js';
export {
  ROW_CLASSES,
  ROW_CLASS_NAMES,
  BASIS_VALUES,
  classInfo,
  isRowClassName,
  type RowClassName,
  type Basis,
  type ClassInfo,
  type NumericFieldSpec,
  type NumberKind,
} from './definition.js';
export { buildSchema, SCHEMA_ID, MAX_ROWS } from './schema.js';
export { CatalogueError, type Issue, type Note, formatIssues } from './errors.js';
export {
  readCatalogue,
  checkCatalogue,
  checkCatalogueValue,
  MAX_DOCUMENT_BYTES,
  MAX_DEPTH,
  type ReadResult,
  type ReadOptions,
  type CheckResult,
} from './reader.js';
export { writeCatalogue } from './writer.js';
export {
  Catalogue,
  CatalogueJoinError,
  joinCatalogues,
  type CatalogueEntry,
  type DocumentOrigin,
  type EntryProvenance,
} from './catalogue.js';
export {
  readCatalogueCsv,
  writeCatalogueCsv,
  checkCatalogueCsv,
  columnLetter,
  CSV_HEADER_SUFFIX,
  MAX_CSV_HEADER_BYTES,
  type CsvReadResult,
  type CsvCheckResult,
  type CsvFileNames,
} from './csv.js';
export {
  checkCatalogueFile,
  FileAccessError,
  isCsvPath,
  csvHeaderPath,
  writeFileAtomic,
  writeFilesAtomic,
  type FileToWrite,
} from './files.js';
export {
  OCTAVE_BANDS,
  PRACTICAL_OCTAVES,
  THIRD_OCTAVE_100_5000,
  THIRD_OCTAVE_50_10000,
  THIRD_OCTAVE_50_5000,
  RATING_OCTAVES,
  REFERENCE_CURVE,
  OCTAVE_THIRDS,
  NRC_BANDS,
  SAA_BANDS,
  practicalAbsorptionCoefficient,
  practicalAbsorptionCoefficients,
  weightedAbsorption,
  absorptionClass,
  noiseReductionCoefficient,
  soundAbsorptionAverage,
  type WeightedAbsorption,
  type ShapeIndicator,
  type AbsorptionClass,
} from './ratings.js';
export {
  importPhonometry,
  isPhonometryDocument,
  PHONOMETRY_SCHEMA,
  PHONOMETRY_CSV_HEADER_SUFFIX,
  type PhonometryImport,
} from './phonometry.js';
