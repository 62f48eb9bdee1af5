import { describe, expect, it } from 'vitest';
import { checkCatalogue, checkCatalogueCsv, checkCatalogueValue, readCatalogue } from '../src/index.js';
import { doc } from './helpers.js';

const porous = (row: Record<string, unknown> = {}) => ({ key: 'p1', name: 'Foam', porosity: 0.97, ...row });
const base = (row: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  doc('PorousMaterial', [porous(row)], extra);
const issuesOf = (d: unknown) => checkCatalogueValue(d).issues;
const pointersOf = (d: unknown) => issuesOf(d).map((i) => i.pointer);
const without = (o: Record<string, unknown>, k: string) => {
  const c = { ...o };
  delete c[k];
  return c;
};

describe('an input that is neither text nor bytes', () => {
  it('is a TypeError saying what to pass, and where a parsed document goes', () => {
    const value = doc('Gas', [{ key: 'air', name: 'Air' }]);
    const text = JSON.stringify(value);
    expect(() => readCatalogue(value as unknown as string)).toThrow(
      new TypeError(
        'the document must be given as text (a string) or bytes (a Uint8Array, such as a Buffer); got an object (an already parsed document goes to checkCatalogueValue)',
      ),
    );
    expect(checkCatalogueValue(value).document).toBeDefined();
    expect(() => checkCatalogue(undefined as unknown as string)).toThrow(
      new TypeError(
        'the document must be given as text (a string) or bytes (a Uint8Array, such as a Buffer); got undefined',
      ),
    );
    const header = JSON.stringify({ ...value, rows: undefined, csv: { delimiter: ',', decimal: '.' } });
    expect(() => checkCatalogueCsv(header, undefined as unknown as string)).toThrow(
      new TypeError(
        'the CSV file must be given as text (a string) or bytes (a Uint8Array, such as a Buffer); got undefined',
      ),
    );
    expect(() => checkCatalogueCsv([text] as unknown as string, 'key,name\nair,Air\n')).toThrow(
      new TypeError(
        'the CSV header must be given as text (a string) or bytes (a Uint8Array, such as a Buffer); got an array',
      ),
    );
    expect(checkCatalogueCsv(header, 'key,name\nair,Air\n').document?.rows).toEqual([
      { key: 'air', name: 'Air' },
    ]);
  });
});

describe('members given twice', () => {
  it('are refused at the repeated member, wherever they sit in a JSON document', () => {
    const text = JSON.stringify(base({ tortuosity: 1.2 }), null, 2);
    const twiceTop = text.replace('"about":', '"catalogue": "other",\n  "about":');
    expect(checkCatalogue(twiceTop).issues).toEqual([
      {
        pointer: '/catalogue',
        message:
          '"catalogue" is given twice in the same object; a reader would keep only one of them, so give it once',
      },
    ]);
    const twiceInRow = text.replace('"tortuosity": 1.2', '"tortuosity": 1.2,\n "tortuosity": 1.3');
    expect(checkCatalogue(twiceInRow).issues.map((i) => i.pointer)).toEqual(['/rows/0/tortuosity']);
    const twiceNested = JSON.stringify(base({ ranges: { tortuosity: [1, 2] } })).replace(
      '"ranges":{"tortuosity":[1,2]}',
      '"ranges":{"tortuosity":[1,2],"tortuosity":[1,3]}',
    );
    expect(checkCatalogue(twiceNested).issues.map((i) => i.pointer)).toEqual(['/rows/0/ranges/tortuosity']);
    // The census is not fooled by a colon written as an escape in a text.
    const escaped = JSON.stringify(base({ note: 'a:b' })).replace(
      '"note":"a:b"',
      '"note":"a\\u003ab","note":"again"',
    );
    expect(checkCatalogue(escaped).issues.map((i) => i.pointer)).toEqual(['/rows/0/note']);
    expect(checkCatalogue(JSON.stringify(base({ note: 'a\u003ab: c' }))).issues).toEqual([]);
  });

  it('are refused in the JSON header of a CSV file', () => {
    const header = JSON.stringify({
      ...without(base(), 'rows'),
      csv: { delimiter: ',', decimal: '.' },
    }).replace('"csv":{"delimiter":","', '"csv":{"delimiter":";","delimiter":","');
    const r = checkCatalogueCsv(header, 'key,name\r\np1,Foam\r\n', { header: 'foam.csv.acoustics.json' });
    expect(r.document).toBeUndefined();
    expect(r.issues.map((i) => [i.file, i.pointer])).toEqual([['foam.csv.acoustics.json', '/csv/delimiter']]);
  });
});

describe('texts that show one thing and hold another', () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    [
      'right-to-left override in a name',
      { name: 'Foam \u202Eevil' },
      '/rows/0/name',
      'U+202E at character 6',
    ],
    ['isolate in a note', { note: 'x\u2066y' }, '/rows/0/note', 'U+2066 at character 2'],
    ['embedding in a variant', { variant: '\u202Av' }, '/rows/0/variant', 'U+202A at character 1'],
    [
      'bell in an unquantified word',
      { porosity: undefined, unquantified: { porosity: 'a\u0007' } },
      '/rows/0/unquantified/porosity',
      'U+0007',
    ],
    ['escape in a user column', { 'x-shelf': 'B\u001b[2J' }, '/rows/0/x-shelf', 'U+001B'],
    ['carriage return in a page', { provenance: { page: '1\r2' } }, '/rows/0/provenance/page', 'U+000D'],
    [
      'pop isolate in a converted unit',
      { porosity: undefined, thickness_mm: 25, converted: { thickness_mm: ['2.5', 'cm\u2069'] } },
      '/rows/0/converted/thickness_mm/1',
      'U+2069',
    ],
  ];
  for (const [label, row, at, said] of cases)
    it(`refuses a ${label} at its pointer`, () => {
      const issues = issuesOf(base(row));
      expect(issues.map((i) => i.pointer)).toEqual([at]);
      expect(issues[0].message).toContain(said);
      expect(issues[0].message).toMatch(/; remove it$/);
    });

  it('refuses them in document texts too, and keeps tab and line feed', () => {
    expect(pointersOf(base({}, { about: 'About\u202Dit' }))).toEqual(['/about']);
    expect(pointersOf(base({}, { conventions: ['ok', 'n\u0000'] }))).toEqual(['/conventions/1']);
    expect(pointersOf(base({}, { attributed_to: '\u2067Lab' }))).toEqual(['/attributed_to']);
    expect(
      pointersOf(
        base(
          {},
          {
            provenance: {
              kind: 'datasheet',
              document: 'Sheet\u202B',
              version: null,
              consulted: '2025-01-01',
            },
          },
        ),
      ),
    ).toEqual(['/provenance/document']);
    expect(issuesOf(base({ note: 'line one\nline two\tand a tab' }, { about: 'Read\tby hand.\n' }))).toEqual(
      [],
    );
  });
});

describe('names a hedge or a field standard may use', () => {
  const fieldMaps: [string, unknown][] = [
    ['ranges', [1, 2]],
    ['reported', [1]],
    ['uncertainty', 0.1],
    ['converted', ['1', 'cm']],
    ['unquantified', 'Varies'],
    ['not_derivable', 'No data'],
  ];
  for (const [hedge, value] of fieldMaps)
    it(`${hedge}: a key that is not a numeric field of the row class is refused`, () => {
      expect(issuesOf(base({ [hedge]: { densty_kg_m3: value } }))).toEqual([
        {
          pointer: `/rows/0/${hedge}/densty_kg_m3`,
          message: expect.stringMatching(
            /^"densty_kg_m3" is not a numeric field of PorousMaterial; did you mean "[a-z0-9_]+"\?$/,
          ),
        },
      ]);
    });

  it('carried and misprinted refuse a key that is not a cell; attributed_to and basis a word they do not take', () => {
    expect(pointersOf(base({ carried: { colour: 'row 1' } }))).toEqual(['/rows/0/carried/colour']);
    expect(pointersOf(base({ misprinted: { colour: 'x' } }))).toEqual(['/rows/0/misprinted/colour']);
    expect(issuesOf(base({ attributed_to: { foo: 'Lab' } }))[0].pointer).toBe('/rows/0/attributed_to/foo');
    expect(issuesOf(base({ attributed_to: { row: 'Lab', table: 'Book' } }))).toEqual([]);
    expect(pointersOf(base({ basis: { table: 'measured' } }))).toEqual(['/rows/0/basis/table']);
  });

  for (const hedge of ['approximate', 'bounded_above', 'bounded_below'])
    it(`${hedge}: a list of numeric fields of the row class; a non-field, a text cell or a non-list is refused`, () => {
      const ranged = { ranges: { tortuosity: [1, 2], thickness_cm: [0.5, 5] } };
      expect(issuesOf(base({ ...ranged, [hedge]: ['tortuosity', 'thickness_cm'] }))).toEqual([]);
      expect(issuesOf(base({ ...ranged, [hedge]: ['tortuosity', 'porosty'] }))).toEqual([
        {
          pointer: `/rows/0/${hedge}/1`,
          message: '"porosty" is not a numeric field of PorousMaterial; did you mean "porosity"?',
        },
      ]);
      const insulation = doc('ImpactInsulation', [
        { key: 'f', name: 'Floor', refers_to_row: 'f0', [hedge]: ['refers_to_row'] },
      ]);
      expect(issuesOf(insulation)).toEqual([
        {
          pointer: `/rows/0/${hedge}/0`,
          message: expect.stringMatching(/^"refers_to_row" is not a numeric field of ImpactInsulation/),
        },
      ]);
      expect(issuesOf(base({ [hedge]: { tortuosity: true } }))).toEqual([
        { pointer: `/rows/0/${hedge}`, message: `${hedge} must be a list, got {"tortuosity":true}` },
      ]);
    });

  it('carried and misprinted take any cell (text cells, name, variant, group, note, fields and their aliases), never a flag or a non-cell', () => {
    const cells = {
      name: 'row f0',
      variant: 'row f0',
      group: 'row f0',
      note: 'row f0',
      refers_to_row: 'row f0',
      impact_insulation_class: 'row f0',
      added_load_kpa: 'row f0',
    };
    const floor = (row: Record<string, unknown>) =>
      doc('ImpactInsulation', [{ key: 'f', name: 'Floor', has_section_drawing: true, ...row }]);
    for (const hedge of ['carried', 'misprinted']) {
      expect(issuesOf(floor({ [hedge]: cells }))).toEqual([]);
      expect(issuesOf(floor({ [hedge]: { has_section_drawing: 'row f0' } }))).toEqual([
        {
          pointer: `/rows/0/${hedge}/has_section_drawing`,
          message: expect.stringMatching(/^"has_section_drawing" is not a cell of ImpactInsulation/),
        },
      ]);
      expect(issuesOf(base({ [hedge]: { nam: 'row 1' } }))).toEqual([
        {
          pointer: `/rows/0/${hedge}/nam`,
          message: '"nam" is not a cell of PorousMaterial; did you mean "name"?',
        },
      ]);
    }
  });

  it('field_test_standards of the document and of a row name fields of the row class', () => {
    const standards = (s: Record<string, string>) => ({
      provenance: {
        kind: 'datasheet',
        document: 'Sheet',
        version: null,
        consulted: '2025-01-01',
        field_test_standards: s,
      },
    });
    expect(issuesOf(base({}, standards({ porosity: 'ISO 4590' })))).toEqual([]);
    expect(issuesOf(base({}, standards({ colour: 'ISO 4590' })))).toEqual([
      {
        pointer: '/provenance/field_test_standards/colour',
        message: expect.stringContaining('"colour" is not a numeric field of PorousMaterial'),
      },
    ]);
    expect(issuesOf(base({ provenance: { field_test_standards: { porosity: 'ISO 4590' } } }))).toEqual([]);
    expect(issuesOf(base({ provenance: { field_test_standards: { colour: 'ISO 4590' } } }))).toEqual([
      {
        pointer: '/rows/0/provenance/field_test_standards/colour',
        message: expect.stringContaining('"colour" is not a numeric field of PorousMaterial'),
      },
    ]);
  });
});

describe('cells that contradict each other', () => {
  it('a value beside misprinted for the same field is refused; a misprinted text cell or empty field is kept', () => {
    expect(issuesOf(base({ misprinted: { porosity: 'prints 9.7' } }))).toEqual([
      {
        pointer: '/rows/0/misprinted/porosity',
        message:
          "porosity has the value 0.97 but misprinted says the figure the page prints for it is wrong; leave porosity empty and keep the page's figure in misprinted",
      },
    ]);
    expect(issuesOf(base({ misprinted: { tortuosity: 'prints 11', name: 'printed "Faom"' } }))).toEqual([]);
  });

  it('a value written in another unit counts for its field, and the pointer names the field as written', () => {
    expect(issuesOf(base({ thickness_cm: 2.5, unquantified: { thickness_mm: 'Varies' } }))).toEqual([
      {
        pointer: '/rows/0/unquantified/thickness_mm',
        message:
          'thickness_mm has the value 2.5 but unquantified says the page prints no number for it; keep one of the two',
      },
    ]);
    expect(issuesOf(base({ ranges: { flow_resistivity_kpa_s_m2: [20, 10] } }))).toEqual([
      {
        pointer: '/rows/0/ranges/flow_resistivity_kpa_s_m2',
        message: 'range of flow_resistivity_kpa_s_m2 runs backwards: low 20 is above high 10',
      },
    ]);
    expect(
      issuesOf(
        base({
          bounded_above: ['flow_resistivity_kpa_s_m2'],
          ranges: { flow_resistivity_kpa_s_m2: [5, null] },
        }),
      ),
    ).toEqual([
      {
        pointer: '/rows/0/ranges/flow_resistivity_kpa_s_m2/1',
        message:
          'flow_resistivity_kpa_s_m2 is bounded above, so the high end of its range is the printed bound and must be a number',
      },
    ]);
    const read = readCatalogue(
      JSON.stringify(
        base({
          bounded_below: ['flow_resistivity_kpa_s_m2'],
          ranges: { flow_resistivity_kpa_s_m2: [5, null] },
        }),
      ),
    );
    expect((read.document.rows[0] as any).ranges).toEqual({ flow_resistivity_pa_s_m2: [5000, null] });
  });

  it('a bound without the range end it needs is refused at that end', () => {
    expect(pointersOf(base({ bounded_below: ['tortuosity'], ranges: { tortuosity: [null, 3] } }))).toEqual([
      '/rows/0/ranges/tortuosity/0',
    ]);
    expect(pointersOf(base({ bounded_below: ['tortuosity'] }))).toEqual(['/rows/0/bounded_below/0']);
    expect(
      pointersOf(
        base({ porosity: undefined, bounded_below: ['porosity'], ranges: { porosity: [0.9, null] } }),
      ),
    ).toEqual(['/rows/0/ranges/porosity/1']);
  });
});

describe('required top-level fields say what to write', () => {
  it('schema_version, catalogue and row_type, each absent', () => {
    expect(issuesOf(without(base(), 'schema_version'))).toEqual([
      {
        pointer: '/schema_version',
        message: 'required field "schema_version" is missing; write "schema_version": 1',
      },
    ]);
    expect(issuesOf(without(base(), 'catalogue'))).toEqual([
      {
        pointer: '/catalogue',
        message:
          'required field "catalogue" is missing; write "catalogue": a name of lower-case letters, digits and . _ - (1 to 64 characters), such as "acme-panels"',
      },
    ]);
    expect(issuesOf(without(base(), 'row_type'))).toEqual([
      {
        pointer: '/row_type',
        message:
          'required field "row_type" is missing; write "row_type": one of the 28 row classes, such as "PorousMaterial"',
      },
    ]);
  });

  it('schema_version, catalogue and row_type, each of the wrong type', () => {
    expect(issuesOf({ ...base(), schema_version: 1.5 })).toEqual([
      { pointer: '/schema_version', message: 'schema_version must be 1, got 1.5' },
    ]);
    expect(issuesOf({ ...base(), catalogue: 5 })).toEqual([
      {
        pointer: '/catalogue',
        message:
          'catalogue must be text: a name of lower-case letters, digits and . _ - (1 to 64 characters), got 5',
      },
    ]);
    expect(issuesOf({ ...base(), row_type: ['PorousMaterial'] })).toEqual([
      {
        pointer: '/row_type',
        message:
          'row_type must be the name of a row class, as text (such as "PorousMaterial"), got ["PorousMaterial"]',
      },
    ]);
  });

  it('speaks plain English: an object, a list, text', () => {
    expect(issuesOf({ ...base(), provenance: 5 })).toEqual([
      { pointer: '/provenance', message: 'provenance must be an object, got 5' },
    ]);
    expect(issuesOf(base({ variant: 5 }))).toEqual([
      { pointer: '/rows/0/variant', message: 'variant must be text, got 5' },
    ]);
    expect(issuesOf(base({ approximate: 'porosity' }))[0].message).toBe(
      'approximate must be a list, got "porosity"',
    );
  });
});

describe('limits at their edges', () => {
  it('catalogue name: 64 characters read, 65 and none refused', () => {
    expect(issuesOf({ ...base(), catalogue: 'a'.repeat(64) })).toEqual([]);
    expect(pointersOf({ ...base(), catalogue: 'a'.repeat(65) })).toEqual(['/catalogue']);
    expect(issuesOf({ ...base(), catalogue: '' })[0]).toEqual({
      pointer: '/catalogue',
      message:
        'catalogue name "" must start with a lower-case letter or digit and hold only lower-case letters, digits and . _ - (1 to 64 characters)',
    });
  });

  it('row key: 128 characters read, 129 and none refused', () => {
    expect(issuesOf(base({ key: 'k'.repeat(128) }))).toEqual([]);
    expect(pointersOf(base({ key: 'k'.repeat(129) }))).toEqual(['/rows/0/key']);
    expect(issuesOf(base({ key: '' }))[0]).toEqual({
      pointer: '/rows/0/key',
      message:
        'row key "" must start with a letter, digit or underscore and hold only letters, digits and _ . + - (1 to 128 characters)',
    });
  });
});

describe('patterns and enumerations, at each edge', () => {
  const catalogueRefusal = (name: string) => [
    {
      pointer: '/catalogue',
      message: `catalogue name "${name}" must start with a lower-case letter or digit and hold only lower-case letters, digits and . _ - (1 to 64 characters)`,
    },
  ];

  it('catalogue: a lower-case letter or digit first, then lower-case letters, digits, dots, underscores, hyphens', () => {
    for (const name of ['0demo', 'a_b.c-d', 'z9'])
      expect(issuesOf({ ...base(), catalogue: name }), name).toEqual([]);
    for (const name of ['-demo', '.demo', '_demo', 'Demo', 'demO', 'demo/x', 'demo x', 'démo'])
      expect(issuesOf({ ...base(), catalogue: name }), name).toEqual(catalogueRefusal(name));
  });

  it('catalogue: only a year between hyphens followed by a word is the packaged-table form', () => {
    for (const name of ['2026-foo', 'acme2026x', 'acme-2026', 'acme-26-rev', 'a-2026-4x'])
      expect(issuesOf({ ...base(), catalogue: name }), name).toEqual([]);
    for (const name of ['acme-2026-rev4', 'x-1999-a', 'a.b-2026-c'])
      expect(issuesOf({ ...base(), catalogue: name }), name).toEqual([
        {
          pointer: '/catalogue',
          message: `catalogue name "${name}" has the form of a packaged table's name (…-YYYY-…); choose another`,
        },
      ]);
  });

  it('row key: a letter, digit or underscore first, then letters, digits, _ . + -', () => {
    for (const key of ['_A.b+c-1', 'A', 'Z9', '0']) expect(issuesOf(base({ key })), key).toEqual([]);
    for (const key of ['+a', '.a', '-a', 'a b', 'a/b', 'a:b', 'ä'])
      expect(issuesOf(base({ key })), key).toEqual([
        {
          pointer: '/rows/0/key',
          message: `row key "${key}" must start with a letter, digit or underscore and hold only letters, digits and _ . + - (1 to 128 characters)`,
        },
      ]);
  });

  it('document basis: each of the five values is read, and nothing else', () => {
    for (const basis of ['measured', 'declared', 'calculated', 'estimated', 'extended'])
      expect(issuesOf(base({}, { basis })), basis).toEqual([]);
    expect(issuesOf(base({}, { basis: 'Measured' }))).toEqual([
      { pointer: '/basis', message: '"Measured" is not a basis; did you mean "measured"?' },
    ]);
    expect(issuesOf(without(base(), 'basis'))).toEqual([]);
  });

  it('$schema: any value, or none, is accepted and read as nothing', () => {
    for (const $schema of [5, null, { a: 1 }, ['x'], 'not a URL'])
      expect(issuesOf(base({}, { $schema })), JSON.stringify($schema)).toEqual([]);
  });
});

describe('what counts as whitespace in filled text', () => {
  it('the whitespace of the format (Python str.isspace), not JavaScript \\s: information separators and NEL are blank, a BOM is not', () => {
    const blank = 'about must hold at least one character that is not whitespace';
    for (const about of [
      '',
      '\u001c\u001d\u001e\u001f',
      '\u0085',
      '\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000',
    ])
      expect(issuesOf(base({}, { about })), JSON.stringify(about)).toEqual([
        { pointer: '/about', message: blank },
      ]);
    expect(issuesOf(base({}, { about: '\ufeff' }))).toEqual([]);
  });
});
