import { describe, expect, it } from 'vitest';
import {
  CatalogueError,
  checkCatalogueCsv,
  columnLetter,
  readCatalogueCsv,
  writeCatalogueCsv,
  type CsvDialect,
} from '../src/index.js';
import { doc } from './helpers.js';

const rows = [
  {
    key: 'foam-50',
    name: 'Foam; "grey", 50 mm',
    variant: '=SUM(A1:A9)',
    note: '-3 dB at 125 Hz\nsecond line',
    porosity: 0.97,
    tortuosity: 1.05,
    flow_resistivity_pa_s_m2: 12500,
    thickness_mm: 50,
    approximate: ['tortuosity'],
    uncertainty: { flow_resistivity_pa_s_m2: 500 },
    basis: { row: 'declared' },
    provenance: { page: '12', printed_table: '@Table 3' },
    'x-order': '+44 20 7946 0000',
  },
  {
    key: 'wool',
    name: "'quoted' wool",
    group: '\tindented',
    thermal_length_um: -0,
    ranges: {
      flow_resistivity_pa_s_m2: [null, 5000],
      porosity: [0.75, 1],
      viscous_length_um: [80, 120],
      tortuosity: [1, 1.2],
    },
    bounded_above: ['flow_resistivity_pa_s_m2'],
    bounded_below: ['porosity'],
    approximate: ['viscous_length_um'],
    unquantified: { shot_content_percent: 'AFr5' },
    'x-order': "'plain",
  },
];

const DIALECTS: CsvDialect[] = [
  { delimiter: ',', decimal: '.' },
  { delimiter: ';', decimal: '.' },
  { delimiter: ';', decimal: ',' },
  { delimiter: '\t', decimal: '.' },
  { delimiter: '\t', decimal: ',' },
];

describe('CSV round trips', () => {
  const source = doc('PorousMaterial', rows);
  for (const dialect of DIALECTS) {
    it(`delimiter ${JSON.stringify(dialect.delimiter)}, decimal ${JSON.stringify(dialect.decimal)}`, () => {
      const { header, csv } = writeCatalogueCsv(source, dialect);
      const read = readCatalogueCsv(header, csv);
      expect(read.dialect).toEqual(dialect);
      expect(read.document).toEqual(JSON.parse(JSON.stringify(source)));
      expect(writeCatalogueCsv(read.document, dialect)).toEqual({ header, csv });
      expect(JSON.parse(header).csv).toEqual(dialect);
      expect(JSON.parse(header).rows).toBeUndefined();
    });
  }

  it('writes the cell grammar, the declared decimal mark and the formula guard', () => {
    const { csv } = writeCatalogueCsv(source, { delimiter: ';', decimal: ',' });
    expect(csv.split('\r\n')).toEqual([
      'key;name;variant;group;note;flow_resistivity_pa_s_m2;porosity;tortuosity;viscous_length_um;thermal_length_um;shot_content_percent;thickness_mm;basis;provenance.page;provenance.printed_table;x-order',
      `foam-50;"Foam; ""grey"", 50 mm";'=SUM(A1:A9);;"'-3 dB at 125 Hz\nsecond line";12500±500;0,97;~1,05;;;;50;declared;12;'@Table 3;'+44 20 7946 0000`,
      "wool;''quoted' wool;;'\tindented;;<=5000;>=0,75;1..1,2;~80..120;0;[AFr5];;;;;''plain",
      '',
    ]);
  });

  it('refuses the , / , pair', () => {
    expect(() =>
      writeCatalogueCsv(doc('Gas', [{ key: 'a', name: 'Air' }]), { delimiter: ',', decimal: ',' }),
    ).toThrow('delimiter "," with decimal mark "," cannot be told apart; use delimiter ";" or decimal "."');
    const header = JSON.stringify({
      ...doc('Gas', []),
      rows: undefined,
      csv: { delimiter: ',', decimal: ',' },
    });
    expect(
      checkCatalogueCsv(header, 'key,name\r\na,Air\r\n', { header: 'gas.csv.acoustics.json' }).issues,
    ).toEqual([
      {
        pointer: '/csv',
        file: 'gas.csv.acoustics.json',
        message: 'delimiter "," with decimal mark "," cannot be told apart; use delimiter ";" or decimal "."',
      },
    ]);
  });

  it('refuses to write what CSV cannot express', () => {
    const d = doc('Gas', [
      { key: 'a', name: 'Air', heat_capacity_ratio: 1.4, reported: { heat_capacity_ratio: [1.4] } },
      {
        key: 'b',
        name: 'B',
        ranges: { heat_capacity_ratio: [1.3, 1.5] },
        uncertainty: {},
        basis: { heat_capacity_ratio: 'declared' },
      },
      { key: 'c', name: 'C', heat_capacity_ratio: 1.4, ranges: { heat_capacity_ratio: [1.3, 1.5] } },
    ]);
    let err: CatalogueError | undefined;
    try {
      writeCatalogueCsv(d, { delimiter: ';', decimal: '.' });
    } catch (e) {
      err = e as CatalogueError;
    }
    expect(err?.issues).toEqual([
      { pointer: '/rows/0/reported', message: 'reported cannot be written in CSV (JSON only)' },
      { pointer: '/rows/1/basis', message: 'basis of single fields cannot be written in CSV (JSON only)' },
      {
        pointer: '/rows/2/heat_capacity_ratio',
        message: 'heat_capacity_ratio: a value with a range cannot be written in one CSV cell (JSON only)',
      },
    ]);
  });
});

describe('reading CSV written elsewhere', () => {
  const header = (dialect: CsvDialect, rowType = 'PorousMaterial') =>
    JSON.stringify({ ...doc(rowType as 'PorousMaterial', []), rows: undefined, csv: dialect });

  it('accepts the whole cell grammar, a BOM, LF endings and the U+2212 minus', () => {
    const csv =
      '\ufeffkey;name;porosity;tortuosity;flow_resistivity_kpa_s_m2;thickness_mm;poisson_ratio\n' +
      'a;A;<0,9;≥1;0,85+/-0,05;≤30;\u22120,1\n' +
      'b;B;>=0,8;~1,1;[high];>5;\n';
    const { document } = readCatalogueCsv(header({ delimiter: ';', decimal: ',' }), csv);
    expect(document.rows).toEqual([
      {
        key: 'a',
        name: 'A',
        poisson_ratio: -0.1,
        flow_resistivity_pa_s_m2: 850,
        bounded_above: ['porosity', 'thickness_mm'],
        bounded_below: ['tortuosity'],
        ranges: { porosity: [null, 0.9], tortuosity: [1, null], thickness_mm: [null, 30] },
        uncertainty: { flow_resistivity_pa_s_m2: 50 },
        converted: { flow_resistivity_pa_s_m2: ['0.85', 'kPa.s/m2'] },
      },
      {
        key: 'b',
        name: 'B',
        tortuosity: 1.1,
        approximate: ['tortuosity'],
        bounded_below: ['porosity', 'thickness_mm'],
        ranges: { porosity: [0.8, 1], thickness_mm: [5, null] },
        unquantified: { flow_resistivity_pa_s_m2: 'high' },
      },
    ]);
  });

  it('keeps an apostrophe that is not a formula guard', () => {
    const { document } = readCatalogueCsv(
      header({ delimiter: ',', decimal: '.' }),
      "key,name\r\na,'plain\r\nb,'=x\r\n",
    );
    expect(document.rows.map((r) => r.name)).toEqual(["'plain", '=x']);
  });

  it('places problems at line and column letter, one per row', () => {
    const csv = 'key,name,porosity,tortuosity\r\na,A,1.5,1\r\nb,B,0.9,NaN\r\nc,C,inf,\r\na,D,0.9,1\r\n';
    expect(
      checkCatalogueCsv(header({ delimiter: ',', decimal: '.' }), csv, { csv: 'foam.csv' }).issues,
    ).toEqual([
      {
        pointer: '',
        file: 'foam.csv',
        line: 3,
        column: 'D',
        message:
          '"NaN" is not a value of tortuosity: write a number with decimal mark ".", ~n, <=n, >=n, a..b, n±u or [word]',
      },
      {
        pointer: '',
        file: 'foam.csv',
        line: 4,
        column: 'C',
        message:
          '"inf" is not a value of porosity: write a number with decimal mark ".", ~n, <=n, >=n, a..b, n±u or [word]',
      },
    ]);
    const schemaBroken = 'key,name,porosity\r\na,A,1.5\r\nb,B,0.5\r\nb,C,0.5\r\n';
    expect(checkCatalogueCsv(header({ delimiter: ',', decimal: '.' }), schemaBroken).issues).toEqual([
      { pointer: '/rows/0/porosity', line: 2, column: 'C', message: 'porosity must be at most 1, got 1.5' },
      {
        pointer: '/rows/2/key',
        line: 4,
        column: 'A',
        message: 'key "b" repeats the key of row 1 (/rows/1); every row key must be unique',
      },
    ]);
  });

  it('suggests the other decimal mark when every failing number reads with it', () => {
    const csv = 'key;name;porosity;tortuosity\r\na;A;0,9;1,1\r\n';
    expect(checkCatalogueCsv(header({ delimiter: ';', decimal: '.' }), csv).issues.at(-1)).toEqual({
      pointer: '/csv/decimal',
      message: 'every number that failed reads with decimal mark ","; correct csv.decimal in the header',
    });
  });

  it('suggests the other delimiter when the column line reads with it, and only that', () => {
    const csv = 'key;name;porosity\r\na;A;0.9\r\n';
    expect(checkCatalogueCsv(header({ delimiter: ',', decimal: '.' }), csv).issues).toEqual([
      {
        pointer: '/csv/delimiter',
        message:
          'the column line reads with delimiter ";", not the declared ","; correct csv.delimiter in the header',
      },
    ]);
  });

  it("reads a spreadsheet's blank rows and empty unnamed columns as absent; an unnamed column with a value is named", () => {
    const h = header({ delimiter: ',', decimal: '.' });
    // Lines of empty cells between and after rows, and two trailing columns with no name and nothing in them.
    const sheet = 'key,name,porosity,,\r\na,A,0.9,,\r\n,,,,\r\nb,B,0.8,,\r\n,,,,\r\n\r\n';
    const read = checkCatalogueCsv(h, sheet);
    expect(read.issues).toEqual([]);
    expect(read.document?.rows).toEqual([
      { key: 'a', name: 'A', porosity: 0.9 },
      { key: 'b', name: 'B', porosity: 0.8 },
    ]);
    expect(checkCatalogueCsv(h, 'key,name,porosity,\r\na,A,0.9,\r\nb,B,0.8,x\r\n').issues).toEqual([
      {
        pointer: '',
        line: 1,
        column: 'D',
        message:
          'the column has no name, yet line 3 gives it a value; name it (a column of PorousMaterial, or x-<name> for one of your own), or delete the column',
      },
    ]);
  });

  it('answers an unknown column with the nearest valid name, and counts cells', () => {
    const h = header({ delimiter: ',', decimal: '.' });
    // Capitals: each column is answered with its spelling, and a missing key or name column is not said again.
    expect(checkCatalogueCsv(h, 'Key,Name,Porosity\r\na,A,0.9\r\n').issues.map((i) => i.message)).toEqual([
      '"Key" is not a column of PorousMaterial; did you mean "key"?',
      '"Name" is not a column of PorousMaterial; did you mean "name"?',
      '"Porosity" is not a column of PorousMaterial; did you mean "porosity"?',
    ]);
    expect(checkCatalogueCsv(h, 'key,name,porosty\r\na,A,1\r\n').issues).toEqual([
      {
        pointer: '',
        line: 1,
        column: 'C',
        message: '"porosty" is not a column of PorousMaterial; did you mean "porosity"?',
      },
    ]);
    expect(checkCatalogueCsv(h, 'key,name\r\na,A,1\r\n').issues).toEqual([
      {
        pointer: '',
        line: 2,
        column: 'C',
        message:
          'the line has 3 cells; the column line has 2: quote a cell that holds the delimiter ",", or remove the cells past the last column',
      },
    ]);
    expect(checkCatalogueCsv(h, 'key,name,porosity\r\na,A\r\n').issues).toEqual([
      {
        pointer: '',
        line: 2,
        message:
          'the line has 2 cells; the column line has 3: give every column its cell (an empty one where nothing is printed)',
      },
    ]);
    expect(checkCatalogueCsv(h, 'key,name\r\na,"A\r\n').issues).toEqual([
      {
        pointer: '',
        line: 2,
        message:
          'a quoted cell is never closed; end it with a quote ("), and write a quote inside a cell as two ("")',
      },
    ]);
    expect(checkCatalogueCsv(h, 'key,name\r\na,"A" B\r\n').issues).toEqual([
      {
        pointer: '',
        line: 2,
        message:
          'text after the closing quote of a cell; quote the whole cell, and write a quote inside it as two ("")',
      },
    ]);
  });

  it('refuses a header above 64 KiB and a header without a dialect', () => {
    const big = JSON.stringify({
      ...JSON.parse(header({ delimiter: ',', decimal: '.' })),
      about: 'a'.repeat(65 * 1024),
    });
    expect(checkCatalogueCsv(big, 'key,name\r\n').issues[0].message).toBe(
      'CSV header is 65.3 KiB; at most 64.0 KiB is read (split it into several catalogues)',
    );
    const noDialect = JSON.stringify({ ...doc('Gas', []), rows: undefined });
    expect(checkCatalogueCsv(noDialect, 'key,name\r\n').issues[0].pointer).toBe('/rows');
  });

  it('names columns like a spreadsheet', () => {
    expect([0, 25, 26, 51, 701, 702].map(columnLetter)).toEqual(['A', 'Z', 'AA', 'AZ', 'ZZ', 'AAA']);
  });
});
