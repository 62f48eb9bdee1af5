import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  Catalogue,
  CatalogueError,
  joinCatalogues,
  readCatalogue,
  readCatalogueCsv,
  writeCatalogueCsv,
} from '../src/index.js';
import { doc } from './helpers.js';

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

const foams = () =>
  doc(
    'PorousMaterial',
    [
      {
        key: 'foam-25',
        name: 'Foam 25',
        porosity: 0.97,
        tortuosity: 1.1,
        ranges: { flow_resistivity_kpa_s_m2: [10, 12] },
        basis: { row: 'declared', porosity: 'estimated' },
        provenance: { page: '12', report: 'R-7', field_test_standards: { porosity: 'ISO 4590' } },
      },
      { key: 'foam-50', name: 'Foam 50', porosity: 0.96 },
    ],
    {
      basis: 'measured',
      provenance: {
        kind: 'test_report',
        document: 'Report 12/2024',
        version: 'Rev. 4',
        consulted: '2025-03-14',
        page: '3',
        laboratory: 'Lab A',
        report: 'R-1',
        field_test_standards: { tortuosity: 'ISO 18437' },
      },
    },
  );

describe('reading for use', () => {
  it('checks the row class the caller expects, in JSON and in CSV', () => {
    const text = JSON.stringify(foams());
    expect(readCatalogue(text, { rowType: 'PorousMaterial' }).document.rows).toHaveLength(2);
    let err: unknown;
    try {
      readCatalogue(text, { rowType: 'Gas' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CatalogueError);
    expect((err as CatalogueError).issues).toEqual([
      {
        pointer: '/row_type',
        message:
          'row_type is "PorousMaterial", but "Gas" rows are expected here; read a catalogue of Gas rows',
      },
    ]);
    const { header, csv } = writeCatalogueCsv(
      doc('Gas', [{ key: 'air', name: 'Air', heat_capacity_ratio: 1.4 }]),
      { delimiter: ',', decimal: '.' },
    );
    expect(readCatalogueCsv(header, csv, { rowType: 'Gas' }).document.rows).toHaveLength(1);
    expect(() =>
      readCatalogueCsv(header, csv, { header: 'air.csv.acoustics.json', rowType: 'Carpet' }),
    ).toThrow('air.csv.acoustics.json: /row_type: row_type is "Gas", but "Carpet" rows are expected here');
  });

  it("keeps each entry's provenance: the document's, narrowed by the row's own", () => {
    const entries = Catalogue.fromRead(readCatalogue(JSON.stringify(foams())));
    expect(entries.get('demo/foam-25')?.provenance).toEqual({
      catalogue: 'demo',
      kind: 'test_report',
      document: 'Report 12/2024',
      version: 'Rev. 4',
      consulted: '2025-03-14',
      page: '12',
      laboratory: 'Lab A',
      report: 'R-7',
      field_test_standards: { tortuosity: 'ISO 18437', porosity: 'ISO 4590' },
    });
    expect(entries.get('demo/foam-50')?.provenance).toMatchObject({ page: '3', report: 'R-1' });
  });

  it('gives the effective basis of each field: the field, else the row, else the document', () => {
    const entries = Catalogue.fromRead(readCatalogue(JSON.stringify(foams())));
    expect(entries.get('demo/foam-25')?.basis).toEqual({
      porosity: 'estimated',
      tortuosity: 'declared',
      flow_resistivity_pa_s_m2: 'declared',
    });
    expect(entries.get('demo/foam-50')?.basis).toEqual({ porosity: 'measured' });
    const noDocumentBasis = { ...foams(), basis: undefined };
    expect(
      Catalogue.fromDocument(readCatalogue(JSON.stringify(noDocumentBasis)).document).get('demo/foam-50')
        ?.basis,
    ).toEqual({});
  });

  it("keeps the file's and the header's SHA-256, so a joined set traces each value to its bytes", () => {
    const text = JSON.stringify(foams());
    const fromJson = readCatalogue(text);
    expect(fromJson.fileSha256).toBe(sha256(text));
    expect(fromJson.headerSha256).toBeUndefined();
    const bytes = Buffer.from(text);
    expect(readCatalogue(bytes).fileSha256).toBe(sha256(bytes));

    const gas = doc('Gas', [{ key: 'air', name: 'Air', heat_capacity_ratio: 1.4 }], { catalogue: 'gases' });
    const { header, csv } = writeCatalogueCsv(gas, { delimiter: ';', decimal: ',' });
    const fromCsv = readCatalogueCsv(header, csv);
    expect(fromCsv.fileSha256).toBe(sha256(csv));
    expect(fromCsv.headerSha256).toBe(sha256(header));

    const joined = joinCatalogues(Catalogue.fromRead(fromJson), Catalogue.fromRead(fromCsv));
    expect(joined.get('demo/foam-50')).toMatchObject({ fileSha256: sha256(text), headerSha256: '' });
    expect(joined.get('gases/air')).toMatchObject({
      key: 'gases/air',
      catalogue: 'gases',
      rowType: 'Gas',
      fileSha256: sha256(csv),
      headerSha256: sha256(header),
      basis: { heat_capacity_ratio: 'measured' },
    });
  });
});
