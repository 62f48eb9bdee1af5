import { describe, expect, it } from 'vitest';
import { CatalogueError, checkCatalogueValue, readCatalogue } from '../src/index.js';
import { doc } from './helpers.js';

const porous = (row: Record<string, unknown> = {}) => ({ key: 'p1', name: 'Foam', porosity: 0.97, ...row });
const base = () => doc('PorousMaterial', [porous()]);
const issuesOf = (d: unknown) => checkCatalogueValue(d).issues;
const without = (o: Record<string, unknown>, k: string) => {
  const c = { ...o };
  delete c[k];
  return c;
};

type Case = [string, (d: any) => any, string, string];

const TOP_LEVEL: Case[] = [
  [
    'schema missing',
    (d) => without(d, 'schema'),
    '/schema',
    'required field "schema" is missing; write "schema": "acoustics-catalogue"',
  ],
  [
    'schema constant',
    (d) => ({ ...d, schema: 'acoustic-catalogue' }),
    '/schema',
    'schema must be "acoustics-catalogue", got "acoustic-catalogue"',
  ],
  [
    'schema_version constant',
    (d) => ({ ...d, schema_version: 0 }),
    '/schema_version',
    'schema_version must be 1, got 0',
  ],
  [
    'schema_version as text',
    (d) => ({ ...d, schema_version: '1' }),
    '/schema_version',
    'schema_version must be 1, got "1"',
  ],
  [
    'catalogue pattern',
    (d) => ({ ...d, catalogue: 'Demo' }),
    '/catalogue',
    'catalogue name "Demo" must start with a lower-case letter or digit and hold only lower-case letters, digits and . _ - (1 to 64 characters)',
  ],
  [
    'catalogue length',
    (d) => ({ ...d, catalogue: 'a'.repeat(65) }),
    '/catalogue',
    `catalogue name "${'a'.repeat(65)}" must start with a lower-case letter or digit and hold only lower-case letters, digits and . _ - (1 to 64 characters)`,
  ],
  [
    'catalogue packaged-table form',
    (d) => ({ ...d, catalogue: 'acme-2026-rev4' }),
    '/catalogue',
    'catalogue name "acme-2026-rev4" has the form of a packaged table\'s name (…-YYYY-…); choose another',
  ],
  [
    'row_type unknown',
    (d) => ({ ...d, row_type: 'PorusMaterial' }),
    '/row_type',
    '"PorusMaterial" is not a row class; did you mean "PorousMaterial"?',
  ],
  [
    'about blank',
    (d) => ({ ...d, about: ' \u0085\u3000' }),
    '/about',
    'about must hold at least one character that is not whitespace',
  ],
  [
    'about missing',
    (d) => without(d, 'about'),
    '/about',
    'required field "about" is missing; write "about": what the document is, how it was read and the units it prints',
  ],
  [
    'provenance missing',
    (d) => without(d, 'provenance'),
    '/provenance',
    'required field "provenance" is missing; write "provenance": {"kind", "document", "version", "consulted"}',
  ],
  [
    'provenance kind',
    (d) => ({ ...d, provenance: { ...d.provenance, kind: 'data_sheet' } }),
    '/provenance/kind',
    '"data_sheet" is not a provenance kind; did you mean "datasheet"?',
  ],
  [
    'provenance document blank',
    (d) => ({ ...d, provenance: { ...d.provenance, document: '\t' } }),
    '/provenance/document',
    'document must hold at least one character that is not whitespace',
  ],
  [
    'provenance version missing',
    (d) => ({ ...d, provenance: without(d.provenance, 'version') }),
    '/provenance/version',
    'required field "version" is missing',
  ],
  [
    'provenance version type',
    (d) => ({ ...d, provenance: { ...d.provenance, version: 4 } }),
    '/provenance/version',
    'version must be filled text or null, got 4',
  ],
  [
    'consulted form',
    (d) => ({ ...d, provenance: { ...d.provenance, consulted: '14/03/2025' } }),
    '/provenance/consulted',
    'consulted date "14/03/2025" must be written YYYY-MM-DD',
  ],
  [
    'consulted calendar date',
    (d) => ({ ...d, provenance: { ...d.provenance, consulted: '2025-02-30' } }),
    '/provenance/consulted',
    '"2025-02-30" is not a calendar date',
  ],
  [
    'issued form',
    (d) => ({ ...d, provenance: { ...d.provenance, issued: '2025-3' } }),
    '/provenance/issued',
    'issued date "2025-3" must be YYYY, YYYY-MM or YYYY-MM-DD',
  ],
  [
    'sha256 form',
    (d) => ({ ...d, provenance: { ...d.provenance, sha256: 'abc' } }),
    '/provenance/sha256',
    'sha256 "abc" must be 64 hexadecimal digits',
  ],
  [
    'provenance unknown field',
    (d) => ({ ...d, provenance: { ...d.provenance, publsher: 'X' } }),
    '/provenance/publsher',
    '"publsher" is not a field of provenance; did you mean "publisher"?',
  ],
  [
    'field_test_standards names a field',
    (d) => ({ ...d, provenance: { ...d.provenance, field_test_standards: { porosty: 'ISO' } } }),
    '/provenance/field_test_standards/porosty',
    '"porosty" is not a numeric field of PorousMaterial; did you mean "porosity"?',
  ],
  [
    'basis value',
    (d) => ({ ...d, basis: 'guessed' }),
    '/basis',
    '"guessed" is not a basis; did you mean "measured"?',
  ],
  [
    'attributed_to blank',
    (d) => ({ ...d, attributed_to: '' }),
    '/attributed_to',
    'attributed_to must hold at least one character that is not whitespace',
  ],
  [
    'conventions items',
    (d) => ({ ...d, conventions: ['ok', 3] }),
    '/conventions/1',
    'conventions item 1 must be text, got 3',
  ],
  [
    'csv with rows',
    (d) => ({ ...d, csv: { delimiter: ';', decimal: ',' } }),
    '/rows',
    'rows must be absent when csv is present: the rows belong in the CSV file',
  ],
  [
    'csv delimiter',
    (d) => ({ ...without(d, 'rows'), csv: { delimiter: '|', decimal: '.' } }),
    '/csv/delimiter',
    '"|" is not a delimiter; expected one of ",", ";", "\\t"',
  ],
  [
    'csv not an object',
    (d) => ({ ...without(d, 'rows'), csv: ';' }),
    '/csv',
    'csv must be an object, got ";"',
  ],
  [
    'csv a list',
    (d) => ({ ...without(d, 'rows'), csv: [';', ','] }),
    '/csv',
    'csv must be an object, got [";",","]',
  ],
  [
    'csv comma/comma',
    (d) => ({ ...without(d, 'rows'), csv: { delimiter: ',', decimal: ',' } }),
    '/csv',
    'delimiter "," with decimal mark "," cannot be told apart; use delimiter ";" or decimal "."',
  ],
  [
    'rows missing',
    (d) => without(d, 'rows'),
    '/rows',
    'rows is required (a document without rows needs a csv header)',
  ],
  ['rows empty', (d) => ({ ...d, rows: [] }), '/rows', 'rows must hold at least one row'],
  [
    'unknown top-level field',
    (d) => ({ ...d, catalog: 'x' }),
    '/catalog',
    '"catalog" is not a field of a catalogue document; did you mean "catalogue"?',
  ],
];

const ROW: Case[] = [
  [
    'key missing',
    (d) => ({ ...d, rows: [without(porous(), 'key')] }),
    '/rows/0/key',
    'required field "key" is missing',
  ],
  [
    'key pattern',
    (d) => ({ ...d, rows: [porous({ key: '-p' })] }),
    '/rows/0/key',
    'row key "-p" must start with a letter, digit or underscore and hold only letters, digits and _ . + - (1 to 128 characters)',
  ],
  [
    'key length',
    (d) => ({ ...d, rows: [porous({ key: 'k'.repeat(129) })] }),
    '/rows/0/key',
    `row key "${'k'.repeat(78)}… must start with a letter, digit or underscore and hold only letters, digits and _ . + - (1 to 128 characters)`,
  ],
  [
    'name missing',
    (d) => ({ ...d, rows: [without(porous(), 'name')] }),
    '/rows/0/name',
    'required field "name" is missing',
  ],
  [
    'name blank',
    (d) => ({ ...d, rows: [porous({ name: '\u2003' })] }),
    '/rows/0/name',
    'name must hold at least one character that is not whitespace',
  ],
  [
    'unknown field',
    (d) => ({ ...d, rows: [porous({ tortuousity: 1.1 })] }),
    '/rows/0/tortuousity',
    '"tortuousity" is not a field of PorousMaterial; did you mean "tortuosity"?',
  ],
  [
    'number type',
    (d) => ({ ...d, rows: [porous({ tortuosity: '1.1' })] }),
    '/rows/0/tortuosity',
    'tortuosity must be a number or null, got "1.1"',
  ],
  [
    'number from 0',
    (d) => ({ ...d, rows: [porous({ thickness_mm: -5 })] }),
    '/rows/0/thickness_mm',
    'thickness_mm must be at least 0, got -5',
  ],
  [
    'number from 0 to 1',
    (d) => ({ ...d, rows: [porous({ porosity: 1.02 })] }),
    '/rows/0/porosity',
    'porosity must be at most 1, got 1.02',
  ],
  [
    'number from 0 to 100',
    (d) => ({ ...d, rows: [porous({ shot_content_percent: 140 })] }),
    '/rows/0/shot_content_percent',
    'shot_content_percent must be at most 100, got 140',
  ],
  [
    'text too long',
    (d) => ({ ...d, rows: [porous({ variant: 'v'.repeat(2001) })] }),
    '/rows/0/variant',
    'variant is longer than 2000 characters',
  ],
  [
    'derived never written',
    (d) => ({ ...d, rows: [porous({ derived: {} })] }),
    '/rows/0/derived',
    'a row never carries "derived": a row holds what the page printed; derived values are computed by whoever reads it',
  ],
  [
    'table never written',
    (d) => ({ ...d, rows: [porous({ table: 'T3' })] }),
    '/rows/0/table',
    'a row never carries "table": the table is the document: name it in provenance.printed_table',
  ],
  [
    'source never written',
    (d) => ({ ...d, rows: [porous({ source: 'X' })] }),
    '/rows/0/source',
    'a row never carries "source": the source is the document\'s provenance, not a row field',
  ],
  [
    'estimated never written',
    (d) => ({ ...d, rows: [porous({ estimated: true })] }),
    '/rows/0/estimated',
    'a row never carries "estimated": an estimate is a basis: write basis {"<field>": "estimated"}',
  ],
  [
    'row provenance never names the document',
    (d) => ({ ...d, rows: [porous({ provenance: { document: 'X' } })] }),
    '/rows/0/provenance/document',
    '"document" is not a field of row provenance (a row never says which document it is); did you mean "page"?',
  ],
  [
    'user column name',
    (d) => ({ ...d, rows: [porous({ 'x-': 'v' })] }),
    '/rows/0/x-',
    'user column "x-" must be x- then a letter, digit or _, and only letters, digits and _ . + - (at most 127 characters)',
  ],
  [
    'carried names a cell',
    (d) => ({ ...d, rows: [porous({ carried: { nam: 'row 1' } })] }),
    '/rows/0/carried/nam',
    '"nam" is not a cell of PorousMaterial; did you mean "name"?',
  ],
  [
    'whole number',
    (d) => ({ ...d, row_type: 'NonlinearityParameter', rows: [{ key: 'w', name: 'Water', year: 1972.5 }] }),
    '/rows/0/year',
    'year must be a whole number or null, got 1972.5',
  ],
  [
    'flag',
    (d) => ({
      ...d,
      row_type: 'ImpactInsulation',
      rows: [{ key: 'f', name: 'Floor', has_section_drawing: 'yes' }],
    }),
    '/rows/0/has_section_drawing',
    'has_section_drawing must be true or false, got "yes"',
  ],
];

const CROSS_CELL: Case[] = [
  [
    'value beside unquantified',
    (d) => ({ ...d, rows: [porous({ unquantified: { porosity: 'high' } })] }),
    '/rows/0/unquantified/porosity',
    'porosity has the value 0.97 but unquantified says the page prints no number for it; keep one of the two',
  ],
  [
    'value beside not_derivable',
    (d) => ({ ...d, rows: [porous({ not_derivable: { porosity: 'no data' } })] }),
    '/rows/0/not_derivable/porosity',
    'porosity has the value 0.97 but not_derivable says it is left empty; keep one of the two',
  ],
  [
    'unquantified and not_derivable',
    (d) => ({
      ...d,
      rows: [porous({ unquantified: { tortuosity: 'high' }, not_derivable: { tortuosity: 'none' } })],
    }),
    '/rows/0/not_derivable/tortuosity',
    'tortuosity is both unquantified (the page prints a word) and not_derivable (left empty); give one',
  ],
  [
    'bound with no range',
    (d) => ({ ...d, rows: [porous({ bounded_above: ['tortuosity'] })] }),
    '/rows/0/bounded_above/0',
    'tortuosity is bounded above but has no range; add ranges.tortuosity with the printed bound',
  ],
  [
    'upper bound needs its high end',
    (d) => ({ ...d, rows: [porous({ bounded_above: ['tortuosity'], ranges: { tortuosity: [1, null] } })] }),
    '/rows/0/ranges/tortuosity/1',
    'tortuosity is bounded above, so the high end of its range is the printed bound and must be a number',
  ],
  [
    'lower bound needs its low end',
    (d) => ({ ...d, rows: [porous({ bounded_below: ['tortuosity'], ranges: { tortuosity: [null, 3] } })] }),
    '/rows/0/ranges/tortuosity/0',
    'tortuosity is bounded below, so the low end of its range is the printed bound and must be a number',
  ],
  [
    'lower bound of a quantity with a ceiling',
    (d) => ({
      ...d,
      rows: [
        porous({ porosity: undefined, bounded_below: ['porosity'], ranges: { porosity: [0.75, null] } }),
      ],
    }),
    '/rows/0/ranges/porosity/1',
    'porosity cannot exceed 1, so the high end of its range must be a number (1), not open',
  ],
  [
    'range backwards',
    (d) => ({ ...d, rows: [porous({ ranges: { tortuosity: [1.4, 1.1] } })] }),
    '/rows/0/ranges/tortuosity',
    'range of tortuosity runs backwards: low 1.4 is above high 1.1',
  ],
  [
    'range outside the bounds',
    (d) => ({ ...d, rows: [porous({ ranges: { porosity: [0.9, 1.1] } })] }),
    '/rows/0/ranges/porosity/1',
    'range end 1.1 of porosity is outside 0..1',
  ],
  [
    'reading backwards',
    (d) => ({ ...d, rows: [porous({ reported: { porosity: [[0.98, 0.96]] } })] }),
    '/rows/0/reported/porosity/0',
    'reading [0.98,0.96] of porosity runs backwards: low is above high',
  ],
  [
    'uncertainty without value',
    (d) => ({ ...d, rows: [porous({ uncertainty: { tortuosity: 0.1 } })] }),
    '/rows/0/uncertainty/tortuosity',
    'uncertainty for tortuosity needs a value of tortuosity, and the row has none',
  ],
  [
    'converted without value',
    (d) => ({ ...d, rows: [porous({ converted: { tortuosity: ['1.1', 'ratio'] } })] }),
    '/rows/0/converted/tortuosity',
    'converted for tortuosity needs a value of tortuosity, and the row has none',
  ],
  [
    'borrowed without value',
    (d) => ({
      ...d,
      row_type: 'SolidMaterial',
      rows: [{ key: 's', name: 'Steel', borrowed: { density_kg_m3: 'iron' } }],
    }),
    '/rows/0/borrowed/density_kg_m3',
    'borrowed for density_kg_m3 needs a value of density_kg_m3, and the row has none',
  ],
  [
    'approximate on nothing',
    (d) => ({ ...d, rows: [porous({ approximate: ['tortuosity'] })] }),
    '/rows/0/approximate/0',
    'tortuosity is marked approximate (~) but has neither a value nor a range',
  ],
  [
    'alias and canonical both',
    (d) => ({ ...d, rows: [porous({ thickness_mm: 50, thickness_cm: 5 })] }),
    '/rows/0/thickness_cm',
    'thickness_cm and thickness_mm are the same quantity; give it once',
  ],
  [
    'alias beside its converted record',
    (d) => ({ ...d, rows: [porous({ thickness_cm: 5, converted: { thickness_mm: ['2', 'in'] } })] }),
    '/rows/0/converted/thickness_mm',
    'thickness_mm is written in cm (thickness_cm) and also has a converted record; give one',
  ],
  [
    'duplicate key',
    (d) => ({ ...d, rows: [porous(), porous({ name: 'Other' })] }),
    '/rows/1/key',
    'key "p1" repeats the key of row 0 (/rows/0); every row key must be unique',
  ],
];

describe.each([
  ['top-level rules', TOP_LEVEL],
  ['row rules', ROW],
  ['cross-cell rules (reader only)', CROSS_CELL],
])('%s', (_title, cases) => {
  it.each(cases)('%s', (_name, mutate, pointer, message) => {
    const issues = issuesOf(JSON.parse(JSON.stringify(mutate(base()))));
    expect(issues).toEqual([{ pointer, message }]);
  });
});

describe("cross-cell rules are the reader's alone", () => {
  it('the schema accepts what only the cross-cell rules refuse', async () => {
    const { schemaValidator } = await import('../src/validate.js');
    for (const [, mutate] of CROSS_CELL)
      expect(schemaValidator()(JSON.parse(JSON.stringify(mutate(base()))))).toBe(true);
  });
});

describe('reporting', () => {
  it('reports every problem together, only the first broken rule per row', () => {
    const d = {
      ...base(),
      catalogue: 'Bad',
      rows: [
        porous({ porosity: 2, tortuosity: 'x', bogus: 1 }),
        porous({ key: 'p2', porosity: -1 }),
        porous({ key: 'p3' }),
      ],
    };
    expect(issuesOf(d)).toEqual([
      { pointer: '/catalogue', message: expect.stringContaining('catalogue name "Bad"') },
      { pointer: '/rows/0/porosity', message: 'porosity must be at most 1, got 2' },
      { pointer: '/rows/1/porosity', message: 'porosity must be at least 0, got -1' },
    ]);
  });

  it('lists 20 problems, then counts the rest', () => {
    const rows = Array.from({ length: 25 }, (_, i) => porous({ key: `k${i}`, porosity: 5 }));
    let err: CatalogueError | undefined;
    try {
      readCatalogue(JSON.stringify({ ...base(), rows }));
    } catch (e) {
      err = e as CatalogueError;
    }
    expect(err?.issues).toHaveLength(25);
    const lines = err!.message.split('\n');
    expect(lines[0]).toBe('catalogue document refused: 25 problems');
    expect(lines.slice(1, 21).every((l) => l.includes('must be at most 1'))).toBe(true);
    expect(lines[21]).toBe('  … and 5 more problems');
    expect(lines).toHaveLength(22);
  });

  it('quotes at most 80 characters of a value', () => {
    const long = 'y'.repeat(500);
    const [issue] = issuesOf({ ...base(), row_type: long });
    expect(issue.message).toMatch(/^"y+…/);
    expect(issue.message.indexOf('…')).toBe(79);
  });

  it('notes what is suspicious but allowed', () => {
    const d = {
      ...base(),
      provenance: { kind: 'datasheet', document: 'Sheet', version: null, consulted: '2025-01-02' },
      rows: [
        porous({
          tortuosity: 9,
          unquantified: { thermal_length_um: 'Depends on the frame and on the exact fibre mix' },
        }),
      ],
    };
    const r = checkCatalogueValue(d);
    expect(r.issues).toEqual([]);
    expect(r.notes).toEqual([
      {
        pointer: '/rows/0',
        message: 'measured, but neither the row nor the document names a report or laboratory',
      },
      {
        pointer: '/rows/0/unquantified/thermal_length_um',
        message:
          'unquantified text for thermal_length_um is 47 characters long; it is meant for the short word the page prints',
      },
      { pointer: '/rows/0/tortuosity', message: 'tortuosity is 9, outside the usual 1..4 (kept as printed)' },
    ]);
  });

  it('keeps a printed αw and notes the recomputed value', () => {
    const d = doc('PracticalAbsorptionSpectrum', [
      {
        key: 'a',
        name: 'Panel',
        practical_absorption_coefficient_125: 0.3,
        practical_absorption_coefficient_250: 0.75,
        practical_absorption_coefficient_500: 1.0,
        practical_absorption_coefficient_1000: 1.0,
        practical_absorption_coefficient_2000: 1.05,
        practical_absorption_coefficient_4000: 0.95,
        weighted_absorption_coefficient: 0.9,
      },
    ]);
    const r = checkCatalogueValue(d);
    expect(r.document?.rows[0]).toMatchObject({ weighted_absorption_coefficient: 0.9 });
    expect(r.notes).toEqual([
      {
        pointer: '/rows/0/practical_absorption_coefficient_2000',
        message: 'practical_absorption_coefficient_2000 is 1.05, outside the usual 0..1 (kept as printed)',
      },
      {
        pointer: '/rows/0/practical_absorption_coefficient_2000',
        message: 'practical_absorption_coefficient_2000 is 1.05; ISO 11654 caps αp at 1.00 (kept as printed)',
      },
      {
        pointer: '/rows/0/weighted_absorption_coefficient',
        message: 'printed αw 0.9; the coefficients give 1 (kept as printed, never reconciled)',
      },
    ]);
  });
  it('notes a printed NRC that differs from the one the third-octave bands give', () => {
    const bands = Object.fromEntries(
      [200, 250, 315, 400, 500, 630, 800, 1000, 1250, 1600, 2000, 2500, 3150, 4000, 5000].map((b) => [
        `absorption_coefficient_${b}`,
        0.6,
      ]),
    );
    const d = doc('ThirdOctaveAbsorptionSpectrum', [
      {
        key: 't',
        name: 'Panel',
        ...bands,
        noise_reduction_coefficient: 0.7,
        weighted_absorption_coefficient: 0.6,
      },
    ]);
    expect(checkCatalogueValue(d).notes).toEqual([
      {
        pointer: '/rows/0/noise_reduction_coefficient',
        message: 'printed NRC 0.7; the 250–2000 Hz coefficients give 0.6 (kept as printed)',
      },
    ]);
  });
});
