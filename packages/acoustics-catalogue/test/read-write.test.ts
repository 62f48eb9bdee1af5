import { describe, expect, it } from 'vitest';
import {
  CatalogueError,
  checkCatalogueValue,
  classInfo,
  readCatalogue,
  writeCatalogue,
  type CatalogueDocument,
  type PorousMaterial,
} from '../src/index.js';
import { ALL_CLASSES, doc, fullRow } from './helpers.js';

function hedgedRow(rowType: (typeof ALL_CLASSES)[number]): Record<string, unknown> {
  const info = classInfo(rowType);
  const row: Record<string, unknown> = { key: 'r2', name: 'hedged', note: 'A note.' };
  const [a, b, c, d, e] = info.canonical;
  if (!a)
    return {
      ...row,
      basis: { row: 'declared' },
      attributed_to: { table: 'Someone' },
      'x-shelf': 'B4',
      'x-count': 3,
    };
  const set = (f: string | undefined, v: unknown) => f && (row[f] = v);
  set(a, 0.5);
  set(c, 0.25);
  Object.assign(row, {
    basis: { row: 'declared', [a]: 'estimated' },
    approximate: [a],
    ranges: { ...(b ? { [b]: [0.1, 0.2] } : {}) },
    reported: { [a]: [0.5, [0.4, 0.6]] },
    uncertainty: { [a]: 0.05 },
    unquantified: d ? { [d]: 'Varies' } : {},
    not_derivable: e ? { [e]: 'No data printed' } : {},
    carried: { name: 'row r1' },
    misprinted: { [e ?? 'variant']: 'prints 5.0, a missing decimal point' },
    attributed_to: { [a]: 'Lab A', row: 'Lab B' },
    provenance: { page: '12', printed_table: 'Table 3' },
    'x-shelf': 'B4',
  });
  if (rowType === 'SolidMaterial') row.borrowed = { [a]: 'mild steel' };
  return row;
}

describe('a valid document of each row class', () => {
  for (const rowType of ALL_CLASSES) {
    it(`${rowType}: reads and writes back identically`, () => {
      const original = doc(rowType, [fullRow(rowType), hedgedRow(rowType)]);
      const text = JSON.stringify(original, null, 2);
      const { document } = readCatalogue(text);
      expect(document).toEqual(original);
      const written = writeCatalogue(document);
      expect(JSON.parse(written)).toEqual(original);
      expect(writeCatalogue(readCatalogue(written).document)).toBe(written);
    });
  }
});

describe('hedge shapes', () => {
  const base = (hedges: Record<string, unknown>) =>
    doc('PorousMaterial', [{ key: 'p', name: 'Foam', porosity: 0.97, tortuosity: 1.2, ...hedges }]);
  const ok = (hedges: Record<string, unknown>) =>
    expect(checkCatalogueValue(base(hedges)).issues).toEqual([]);
  const refused = (hedges: Record<string, unknown>) => checkCatalogueValue(base(hedges)).issues;

  it('ranges: exactly two numbers or nulls', () => {
    ok({ ranges: { flow_resistivity_pa_s_m2: [5000, null] } });
    expect(refused({ ranges: { flow_resistivity_pa_s_m2: [5000] } })).toEqual([
      { pointer: '/rows/0/ranges/flow_resistivity_pa_s_m2', message: 'must hold exactly 2 items' },
    ]);
    expect(refused({ ranges: { flow_resistivity_pa_s_m2: [1, 2, 3] } })).toEqual([
      { pointer: '/rows/0/ranges/flow_resistivity_pa_s_m2', message: 'must hold exactly 2 items' },
    ]);
  });
  it('reported: a non-empty list of numbers or pairs', () => {
    ok({ reported: { porosity: [0.97, [0.96, 0.98]] } });
    expect(refused({ reported: { porosity: [] } })).toEqual([
      { pointer: '/rows/0/reported/porosity', message: 'must list at least one reading' },
    ]);
    expect(refused({ reported: { porosity: ['0.9'] } })).toEqual([
      {
        pointer: '/rows/0/reported/porosity/0',
        message: 'reading "0.9" must be a number or a pair [low, high]',
      },
    ]);
  });
  it('uncertainty: a number from 0', () => {
    ok({ uncertainty: { porosity: 0.01 } });
    expect(refused({ uncertainty: { porosity: -0.01 } })).toEqual([
      { pointer: '/rows/0/uncertainty/porosity', message: 'porosity must be at least 0, got -0.01' },
    ]);
  });
  it('converted: [figure, unit], both filled', () => {
    ok({ converted: { tortuosity: ['1.20', 'ratio'] } });
    expect(refused({ converted: { tortuosity: ['1.2', ' '] } })).toEqual([
      {
        pointer: '/rows/0/converted/tortuosity/1',
        message: '1 must hold at least one character that is not whitespace',
      },
    ]);
  });
  it('unquantified, not_derivable, carried, misprinted, attributed_to: filled text', () => {
    ok({
      unquantified: { thermal_length_um: 'Varies with frequency' },
      not_derivable: { viscous_length_um: 'No frame data' },
      carried: { tortuosity: 'row above' },
      misprinted: { name: 'printed "Faom"' },
      attributed_to: { porosity: 'Lab', table: 'Author' },
    });
    expect(refused({ unquantified: { thermal_length_um: '' } })).toEqual([
      {
        pointer: '/rows/0/unquantified/thermal_length_um',
        message: 'thermal_length_um must hold at least one character that is not whitespace',
      },
    ]);
  });
  it('approximate, bounded_above, bounded_below: lists of fields', () => {
    ok({ approximate: ['porosity'], bounded_below: ['tortuosity'], ranges: { tortuosity: [1, null] } });
    expect(refused({ approximate: ['porosty'] })).toEqual([
      {
        pointer: '/rows/0/approximate/0',
        message: '"porosty" is not a numeric field of PorousMaterial; did you mean "porosity"?',
      },
    ]);
  });
  it('basis: field or row to a basis value', () => {
    ok({ basis: { row: 'measured', porosity: 'extended' } });
    expect(refused({ basis: { porosity: 'measurd' } })).toEqual([
      { pointer: '/rows/0/basis/porosity', message: '"measurd" is not a basis; did you mean "measured"?' },
    ]);
    expect(refused({ basis: { table: 'measured' } })).toEqual([
      {
        pointer: '/rows/0/basis/table',
        message: '"table" is not a numeric field of PorousMaterial; did you mean "row"?',
      },
    ]);
  });
  it('borrowed exists only on SolidMaterial', () => {
    expect(refused({ borrowed: { porosity: 'x' } })).toEqual([
      {
        pointer: '/rows/0/borrowed',
        message: '"borrowed" is not a field of PorousMaterial; did you mean "carried"?',
      },
    ]);
    const solid = doc('SolidMaterial', [
      { key: 's', name: 'Steel', density_kg_m3: 7800, borrowed: { density_kg_m3: 'iron' } },
    ]);
    expect(checkCatalogueValue(solid).issues).toEqual([]);
  });
  it('user columns hold text or numbers', () => {
    ok({ 'x-order': 'A-12', 'x-price': 12.5 });
    expect(refused({ 'x-order': true })).toEqual([
      { pointer: '/rows/0/x-order', message: 'user column "x-order" must be text or a number, got true' },
    ]);
  });
  it('BandedRow and CatalogueRow have no numeric fields for hedges to name', () => {
    const banded = doc('BandedRow', [{ key: 'b', name: 'Band', approximate: ['x'] }]);
    expect(checkCatalogueValue(banded).issues).toEqual([
      { pointer: '/rows/0/approximate/0', message: '"x" is not a field: BandedRow has no numeric fields' },
    ]);
    const cat = doc('CatalogueRow', [
      { key: 'c', name: 'Cat', basis: { row: 'declared', thickness_mm: 'measured' } },
    ]);
    expect(checkCatalogueValue(cat).issues).toEqual([
      {
        pointer: '/rows/0/basis/thickness_mm',
        message: '"thickness_mm" is not a field: CatalogueRow has no numeric fields',
      },
    ]);
  });
});

describe('unit aliases', () => {
  const read = (rowType: Parameters<typeof doc>[0], row: Record<string, unknown>) =>
    readCatalogue(JSON.stringify(doc(rowType, [{ key: 'k', name: 'n', ...row }]))).document
      .rows[0] as unknown as Record<string, unknown>;

  it('converts on the digits and records what was printed', () => {
    expect(read('PorousMaterial', { thickness_cm: 2.5, frame_density_g_cm3: 0.032 })).toEqual({
      key: 'k',
      name: 'n',
      frame_density_kg_m3: 32,
      thickness_mm: 25,
      converted: { thickness_mm: ['2.5', 'cm'], frame_density_kg_m3: ['0.032', 'g/cm3'] },
    });
    expect(
      read('PorousMaterial', { flow_resistivity_kpa_s_m2: 12.3, youngs_modulus_mpa: 0.07 }),
    ).toMatchObject({
      flow_resistivity_pa_s_m2: 12300,
      youngs_modulus_pa: 70000,
    });
    expect(read('DampingTreatment', { temperature_k: 293.15 })).toMatchObject({
      temperature_c: 20,
      converted: { temperature_c: ['293.15', 'K'] },
    });
    expect(read('ResilientLayer', { dynamic_stiffness_mn_m3: 9 })).toMatchObject({
      dynamic_stiffness_n_m3: 9e6,
    });
    expect(read('AbsorptionAreaSpectrum', { absorption_area_500_ft2: 5 })).toMatchObject({
      absorption_area_500_m2: 0.4645152,
      converted: { absorption_area_500_m2: ['5', 'ft2'] },
    });
    expect(read('ResistiveSheet', { surface_density_kg_m2: 0.25 })).toMatchObject({
      surface_density_g_m2: 250,
    });
    expect(read('SolidMaterial', { youngs_modulus_n_mm2: 210000 })).toMatchObject({
      youngs_modulus_pa: 210e9,
    });
  });

  it('converts hedges naming an alias (uncertainty as a difference)', () => {
    expect(
      read('DampingTreatment', {
        temperature_k: 300,
        uncertainty: { temperature_k: 0.5 },
        approximate: ['temperature_k'],
        ranges: { temperature_k: [273.15, null] },
      }),
    ).toEqual({
      key: 'k',
      name: 'n',
      temperature_c: 26.85,
      approximate: ['temperature_c'],
      ranges: { temperature_c: [0, null] },
      uncertainty: { temperature_c: 0.5 },
      converted: { temperature_c: ['300', 'K'] },
    });
  });

  it('refuses a quantity given under two names', () => {
    const issues = checkCatalogueValue(
      doc('Carpet', [{ key: 'k', name: 'n', pile_height_mm: 5, pile_height_cm: 0.5 }]),
    ).issues;
    expect(issues).toEqual([
      {
        pointer: '/rows/0/pile_height_cm',
        message: 'pile_height_cm and pile_height_mm are the same quantity; give it once',
      },
    ]);
  });

  it('writes only canonical fields, and the result reads back identically', () => {
    const { document } = readCatalogue(
      JSON.stringify(doc('Carpet', [{ key: 'k', name: 'n', pile_weight_g_m2: 1400 }])),
    );
    const written = writeCatalogue(document);
    expect(written).not.toContain('pile_weight_g_m2');
    expect(readCatalogue(written).document).toEqual(document);
  });
});

describe('what the reader never reads', () => {
  it('$schema and acoustics_version are carried along, whatever they hold', () => {
    const d = doc('Gas', [{ key: 'air', name: 'Air', molar_mass_kg_mol: 0.029, heat_capacity_ratio: 1.4 }], {
      $schema: 'https://elsewhere.example/catalogue.schema.json',
      acoustics_version: { anything: ['goes'] },
    });
    const { document } = readCatalogue(JSON.stringify(d));
    expect(document.$schema).toBe('https://elsewhere.example/catalogue.schema.json');
    expect(JSON.parse(writeCatalogue(document)).acoustics_version).toEqual({ anything: ['goes'] });
  });

  it('a version 1 document written elsewhere reads once its schema constant is acoustics-catalogue', () => {
    const elsewhere = {
      $schema: 'https://example.org/schemas/catalogue-v1.json',
      schema: 'acoustics-catalogue',
      schema_version: 1,
      catalogue: 'handbook.ch32',
      row_type: 'ImpactInsulation',
      about: 'Impact insulation of floor constructions, as printed.',
      provenance: {
        kind: 'publication',
        document: 'Handbook',
        version: null,
        consulted: '2024-11-02',
        issued: '1998',
      },
      rows: [{ key: 'f-1', name: 'Concrete slab', impact_insulation_class: 28, has_section_drawing: false }],
      acoustics_version: '1.4.0',
    };
    expect(readCatalogue(JSON.stringify(elsewhere)).document.rows).toHaveLength(1);
  });

  it('a newer schema_version is refused with one clear message', () => {
    const d = { ...doc('Gas', [{ key: 'a', name: 'b' }]), schema_version: 2, unknown: 1 };
    expect(() => readCatalogue(JSON.stringify(d))).toThrow(
      'schema_version 2 is newer than this reader understands (1); upgrade the reader (acoustics-catalogue)',
    );
  });
});

describe('typed API', () => {
  it('rows are typed per class', () => {
    const row: PorousMaterial = { key: 'p', name: 'Foam', porosity: 0.98, ranges: { tortuosity: [1, 1.1] } };
    const d: CatalogueDocument = doc('PorousMaterial', [row]);
    expect(readCatalogue(writeCatalogue(d)).document.rows[0]).toEqual(row);
  });

  it('the writer never writes derived, table, source or estimated', () => {
    for (const word of ['derived', 'table', 'source', 'estimated']) {
      const d = doc('Gas', [{ key: 'a', name: 'b', [word]: true }]);
      let err: unknown;
      try {
        writeCatalogue(d);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CatalogueError);
      expect((err as CatalogueError).issues[0].pointer).toBe(`/rows/0/${word}`);
    }
  });
});
