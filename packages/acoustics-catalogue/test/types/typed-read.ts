// Compiled by types.test.ts with tsc against the built package, as a user's TypeScript would be: each line
// marked @ts-expect-error must be refused, and everything else accepted.
import {
  Catalogue,
  checkCatalogue,
  checkCatalogueCsv,
  readCatalogue,
  readCatalogueCsv,
  type CatalogueDocument,
  type CatalogueDocumentOf,
  type PorousMaterial,
} from 'acoustics-catalogue';

declare const text: string;
declare const header: string;
declare const csv: string;

// With rowType, the document is of that class: its rows are typed without narrowing by hand.
const porous: CatalogueDocumentOf<'PorousMaterial'> = readCatalogue(text, {
  rowType: 'PorousMaterial',
}).document;
const row: PorousMaterial = porous.rows[0];
const resistivity: number | null | undefined = row.flow_resistivity_pa_s_m2;
// @ts-expect-error a PorousMaterial row has no density_kg_m3
void row.density_kg_m3;
// @ts-expect-error a PorousMaterial document is not a SolidMaterial document
const solid: CatalogueDocumentOf<'SolidMaterial'> = readCatalogue(text, {
  rowType: 'PorousMaterial',
}).document;

const fromCsv: CatalogueDocumentOf<'Gas'> = readCatalogueCsv(header, csv, { rowType: 'Gas' }).document;
const checked: CatalogueDocumentOf<'Carpet'> | undefined = checkCatalogue(text, {
  rowType: 'Carpet',
}).document;
const checkedCsv: CatalogueDocumentOf<'Gas'> | undefined = checkCatalogueCsv(header, csv, {
  rowType: 'Gas',
}).document;

// Without rowType, the document is the union of every class, narrowed by row_type.
const any: CatalogueDocument = readCatalogue(text).document;
if (any.row_type === 'Gas') {
  const gas: CatalogueDocumentOf<'Gas'> = any;
  void gas;
}
// @ts-expect-error without rowType the class is not known
const unknownClass: CatalogueDocumentOf<'Gas'> = readCatalogue(text).document;

// A typed result is still a read result the catalogue takes.
const catalogue = Catalogue.fromRead(readCatalogue(text, { rowType: 'PorousMaterial' }));

export { any, catalogue, checked, checkedCsv, fromCsv, resistivity, solid, unknownClass };
