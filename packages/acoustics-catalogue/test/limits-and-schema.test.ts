import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  Catalogue,
  CatalogueJoinError,
  buildSchema,
  checkCatalogue,
  classInfo,
  readCatalogue,
  ROW_CLASS_NAMES,
} from '../src/index.js';
import { doc } from './helpers.js';

const schemaFile = new URL('../schema/acoustics-catalogue.schema.json', import.meta.url);

describe('published schema', () => {
  it('is up to date with the row-class definition (regenerate: npm run schema -w packages/acoustics-catalogue)', () => {
    expect(JSON.parse(readFileSync(schemaFile, 'utf8'))).toEqual(buildSchema());
  });

  it('is a valid 2020-12 schema with one branch per row class', () => {
    const schema = JSON.parse(readFileSync(schemaFile, 'utf8'));
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    expect(ajv.validateSchema(schema)).toBe(true);
    expect(schema.allOf).toHaveLength(1 + 28);
    expect(schema.properties.row_type.enum).toEqual(ROW_CLASS_NAMES);
  });

  it("lists each class's numeric fields with their unit aliases", () => {
    const counts = Object.fromEntries(ROW_CLASS_NAMES.map((n) => [n, classInfo(n).fields.length]));
    expect(counts).toEqual({
      AbsorptionAreaSpectrum: 24,
      AbsorptionSpectrum: 8,
      BandedRow: 0,
      Carpet: 7,
      CatalogueRow: 0,
      DampingMaterial: 27,
      DampingTreatment: 6,
      DuctWallSpectrum: 24,
      Gas: 2,
      GroundSurface: 7,
      ImpactImprovementSpectrum: 24,
      ImpactInsulation: 10,
      NonlinearityParameter: 9,
      NormalizedDiffusionSpectrum: 19,
      OrthotropicWood: 23,
      PlateauMaterial: 4,
      PorousMaterial: 38,
      PracticalAbsorptionSpectrum: 16,
      PredictedScatteringSpectrum: 19,
      ResilientLayer: 10,
      ResilientMaterial: 12,
      ResistiveSheet: 16,
      ScatteringCoefficientSpectrum: 18,
      SolidMaterial: 23,
      SolidNonlinearity: 1,
      SoundReductionSpectrum: 36,
      ThirdOctaveAbsorptionSpectrum: 34,
      TransmissionLossSpectrum: 16,
    });
    expect(classInfo('ImpactInsulation').cells).not.toContain('has_section_drawing');
    expect(classInfo('DuctWallSpectrum').cells).toContain('printed_table');
  });
});

describe('limits', () => {
  const row = (i: number) => ({ key: `k${i}`, name: 'Air', heat_capacity_ratio: 1.4 });

  it('reads 50,000 rows and refuses 50,001 with one message', () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => row(i));
    expect(readCatalogue(JSON.stringify(doc('Gas', rows))).document.rows).toHaveLength(50_000);
    rows.push(row(50_000));
    expect(checkCatalogue(JSON.stringify(doc('Gas', rows))).issues).toEqual([
      {
        pointer: '/rows',
        message: 'rows holds 50001 rows; a document holds at most 50000 (split it into several catalogues)',
      },
    ]);
  });

  it('refuses a 17 MiB document before parsing it', () => {
    const text = JSON.stringify(doc('Gas', [{ ...row(0), note: 'n'.repeat(17 * 1024 * 1024) }]));
    expect(checkCatalogue(text).issues).toEqual([
      {
        pointer: '',
        message: 'document is 17.0 MiB; at most 16.0 MiB is read (split it into several catalogues)',
      },
    ]);
    expect(checkCatalogue(Buffer.from(text)).issues[0].message).toContain('17.0 MiB');
  });

  it('reads depth 6 and refuses depth 7 with a pointer to the deep value', () => {
    const six = doc('Gas', [{ ...row(0), reported: { heat_capacity_ratio: [[1.39, 1.41]] } }]);
    expect(checkCatalogue(JSON.stringify(six)).issues).toEqual([]);
    const seven = doc('Gas', [{ ...row(0), reported: { heat_capacity_ratio: [[[1.39], 1.41]] } }]);
    expect(checkCatalogue(JSON.stringify(seven)).issues).toEqual([
      {
        pointer: '/rows/0/reported/heat_capacity_ratio/0/0',
        message: 'nesting is 7 levels deep; at most 6 are read',
      },
    ]);
    expect(checkCatalogue('['.repeat(100_000)).issues[0].message).toBe(
      'nesting is 100000 levels deep; at most 6 are read',
    );
  });

  it('explains a JSON syntax error with its line and column', () => {
    expect(checkCatalogue('{\n  "schema": "acoustics-catalogue",\n  oops\n}').issues).toEqual([
      {
        pointer: '',
        message: expect.stringMatching(/^not valid JSON \(.+ at line 3, column 3\); fix the syntax$/),
      },
    ]);
  });
});

describe('Catalogue', () => {
  const gas = readCatalogue(
    JSON.stringify(
      doc('Gas', [
        { key: 'air', name: 'Air' },
        { key: 'he', name: 'Helium' },
      ]),
    ),
  ).document;
  const solids = readCatalogue(
    JSON.stringify({ ...doc('SolidMaterial', [{ key: 'air', name: 'Not a gas' }]), catalogue: 'solids' }),
  ).document;

  it('is a read-only map keyed <catalogue>/<key>', () => {
    const c = Catalogue.fromDocument(gas);
    expect([...c.keys()]).toEqual(['demo/air', 'demo/he']);
    expect(c.get('demo/he')).toMatchObject({
      catalogue: 'demo',
      rowType: 'Gas',
      key: 'demo/he',
      row: { key: 'he', name: 'Helium' },
    });
    expect(c.row('demo/nope')).toBeUndefined();
    expect(Object.isFrozen(c.get('demo/air'))).toBe(true);
    expect((c as unknown as { set?: unknown }).set).toBeUndefined();
  });

  it('joins catalogues with distinct keys and refuses shared ones', () => {
    const joined = Catalogue.fromDocument(gas).join(Catalogue.fromDocument(solids));
    expect(joined.size).toBe(3);
    expect(joined.get('solids/air')?.rowType).toBe('SolidMaterial');
    expect(() => joined.join(Catalogue.fromDocument(gas))).toThrow(CatalogueJoinError);
    expect(() => joined.join(Catalogue.fromDocument(gas))).toThrow(
      'cannot join catalogues: 2 keys are in both ("demo/air", "demo/he"); rename the catalogue or the rows',
    );
  });
});
