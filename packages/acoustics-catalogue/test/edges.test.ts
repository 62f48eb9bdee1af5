/**
 * Behaviour at the edges a user meets: the exact limits (a file of exactly 16 MiB, a CSV column line of exactly
 * 64 KiB), the length at which a note starts, which basis a note reads, how a long list of names is cut, and
 * where a problem is placed after a cell that spans lines.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  Catalogue,
  CatalogueError,
  CatalogueJoinError,
  MAX_CSV_HEADER_BYTES,
  MAX_DOCUMENT_BYTES,
  checkCatalogueCsv,
  checkCatalogueFile,
  checkCatalogueValue,
  joinCatalogues,
  readCatalogue,
  readCatalogueCsv,
  writeCatalogue,
  type CsvDialect,
} from '../src/index.js';
import { doc } from './helpers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'acoustics-edges-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const porousHeader = (dialect: CsvDialect) =>
  JSON.stringify({ ...doc('PorousMaterial', []), rows: undefined, csv: dialect });

describe('size limits at their exact edge', () => {
  it('a JSON file of exactly 16 MiB is read; one byte more is refused before reading', async () => {
    const text = writeCatalogue(doc('Gas', [{ key: 'air', name: 'Air', heat_capacity_ratio: 1.4 }]));
    const exact = path.join(dir, 'exact.json');
    writeFileSync(exact, text + ' '.repeat(MAX_DOCUMENT_BYTES - Buffer.byteLength(text)));
    const read = await checkCatalogueFile(exact);
    expect(read.issues).toEqual([]);
    expect(read.document?.rows).toHaveLength(1);

    const over = path.join(dir, 'over.json');
    writeFileSync(over, text + ' '.repeat(MAX_DOCUMENT_BYTES + 1 - Buffer.byteLength(text)));
    expect((await checkCatalogueFile(over)).issues).toEqual([
      {
        pointer: '',
        file: over,
        message: 'document is 16.0 MiB; at most 16.0 MiB is read (split it into several catalogues)',
      },
    ]);
  }, 120_000);

  it('a CSV column line of exactly 64 KiB is read; one byte more is refused', () => {
    // key,name then user columns, 127 characters each, topped up to the exact length.
    const columnLine = (bytes: number) => {
      const names = ['key', 'name'];
      let used = 'key,name'.length;
      for (let i = 0; used < bytes; i++) {
        const room = Math.min(127, bytes - used - 1);
        const name = `x-c${String(i).padStart(4, '0')}`.padEnd(room, 'z');
        names.push(name);
        used += 1 + name.length;
      }
      return names;
    };
    const csvOf = (names: string[]) => `${names.join(',')}\r\na,A${','.repeat(names.length - 2)}\r\n`;
    const h = porousHeader({ delimiter: ',', decimal: '.' });

    const exact = columnLine(MAX_CSV_HEADER_BYTES);
    expect(Buffer.byteLength(exact.join(','))).toBe(65536);
    const read = checkCatalogueCsv(h, csvOf(exact));
    expect(read.issues).toEqual([]);
    expect(read.document?.rows).toEqual([{ key: 'a', name: 'A' }]);

    const over = columnLine(MAX_CSV_HEADER_BYTES + 1);
    expect(checkCatalogueCsv(h, csvOf(over)).issues).toEqual([
      { pointer: '', line: 1, message: 'the column line is 65537 bytes; at most 65536 are read' },
    ]);
  });

  it('a CSV header document of exactly 64 KiB is read; one byte more is refused', () => {
    const h = porousHeader({ delimiter: ',', decimal: '.' });
    const padded = (bytes: number) => h + ' '.repeat(bytes - Buffer.byteLength(h));
    expect(checkCatalogueCsv(padded(MAX_CSV_HEADER_BYTES), 'key,name\r\na,A\r\n').issues).toEqual([]);
    expect(checkCatalogueCsv(padded(MAX_CSV_HEADER_BYTES + 1), 'key,name\r\na,A\r\n').issues).toEqual([
      {
        pointer: '',
        message: 'CSV header is 64.0 KiB; at most 64.0 KiB is read (split it into several catalogues)',
      },
    ]);
  });
});

describe('notes at their edges', () => {
  const noReport = { kind: 'datasheet', document: 'Sheet', version: null, consulted: '2025-01-02' };
  const gas = (row: Record<string, unknown>, basis?: string) =>
    checkCatalogueValue(doc('Gas', [{ key: 'air', name: 'Air', ...row }], { provenance: noReport, basis }));

  it('an unquantified word of 32 characters is kept without a note; 33 characters get one', () => {
    const word = (n: number) => 'w'.repeat(n);
    expect(gas({ unquantified: { heat_capacity_ratio: word(32) } }, 'declared').notes).toEqual([]);
    expect(gas({ unquantified: { heat_capacity_ratio: word(33) } }, 'declared').notes).toEqual([
      {
        pointer: '/rows/0/unquantified/heat_capacity_ratio',
        message:
          'unquantified text for heat_capacity_ratio is 33 characters long; it is meant for the short word the page prints',
      },
    ]);
  });

  it('a document naming its laboratory, or its report, needs no note for measured rows', () => {
    const withOnly = (extra: Record<string, string>) =>
      checkCatalogueValue(
        doc('Gas', [{ key: 'air', name: 'Air', heat_capacity_ratio: 1.4 }], {
          provenance: { ...noReport, ...extra },
          basis: 'measured',
        }),
      ).notes;
    expect(withOnly({ laboratory: 'Example Acoustics Lab' })).toEqual([]);
    expect(withOnly({ report: 'R-2024-118' })).toEqual([]);
  });

  it("the measured-without-report note reads the row's own basis before the document's", () => {
    const note = {
      pointer: '/rows/0',
      message: 'measured, but neither the row nor the document names a report or laboratory',
    };
    // The row says measured, the document declared: noted.
    expect(gas({ heat_capacity_ratio: 1.4, basis: { row: 'measured' } }, 'declared').notes).toEqual([note]);
    // The row says declared, the document measured: the row's word stands, no note.
    expect(gas({ heat_capacity_ratio: 1.4, basis: { row: 'declared' } }, 'measured').notes).toEqual([]);
    // Nothing on the row: the document's basis is the row's.
    expect(gas({ heat_capacity_ratio: 1.4 }, 'measured').notes).toEqual([note]);
  });
});

describe('reporting counts', () => {
  it('one problem past the twenty listed is counted in the singular', () => {
    const rows = Array.from({ length: 21 }, (_, i) => ({
      key: `g${i}`,
      name: 'Gas',
      heat_capacity_ratio: 'x',
    }));
    let err: unknown;
    try {
      readCatalogue(JSON.stringify(doc('Gas', rows)));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CatalogueError);
    const lines = (err as Error).message.split('\n');
    expect(lines[0]).toBe('catalogue document refused: 21 problems');
    expect(lines.slice(1)).toHaveLength(21);
    expect(lines.at(-1)).toBe('  … and 1 more problem');
  });
});

describe('reporting names', () => {
  it('a join refused for five shared keys names three of them and counts the rest', () => {
    const five = doc(
      'Gas',
      ['a', 'b', 'c', 'd', 'e'].map((key) => ({ key, name: key.toUpperCase() })),
    );
    const one = Catalogue.fromDocument(five);
    let err: unknown;
    try {
      joinCatalogues(one, Catalogue.fromDocument(five));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CatalogueJoinError);
    expect((err as CatalogueJoinError).sharedKeys).toHaveLength(5);
    expect((err as Error).message).toBe(
      'cannot join catalogues: 5 keys are in both ("demo/a", "demo/b", "demo/c" and 2 more); rename the catalogue or the rows',
    );
  });
});

describe('what the writer writes', () => {
  it('members in their fixed order, two-space indent, lists of plain values on one line, a final newline', () => {
    const written = writeCatalogue({
      ...doc('Gas', [
        {
          provenance: { page: '7' },
          approximate: ['heat_capacity_ratio'],
          heat_capacity_ratio: 1.4,
          name: 'Air',
          key: 'air',
        },
      ]),
      acoustics_version: '0.1.0',
      conventions: ['~ approximate'],
      provenance: { kind: 'datasheet', document: 'Sheet', version: null, consulted: '2025-01-02' },
      about: 'Gases.',
      basis: 'declared',
    });
    expect(written).toBe(
      [
        '{',
        '  "schema": "acoustics-catalogue",',
        '  "schema_version": 1,',
        '  "catalogue": "demo",',
        '  "row_type": "Gas",',
        '  "about": "Gases.",',
        '  "basis": "declared",',
        '  "conventions": ["~ approximate"],',
        '  "provenance": {',
        '    "kind": "datasheet",',
        '    "document": "Sheet",',
        '    "version": null,',
        '    "consulted": "2025-01-02"',
        '  },',
        '  "rows": [',
        '    {',
        '      "key": "air",',
        '      "name": "Air",',
        '      "heat_capacity_ratio": 1.4,',
        '      "approximate": ["heat_capacity_ratio"],',
        '      "provenance": {',
        '        "page": "7"',
        '      }',
        '    }',
        '  ],',
        '  "acoustics_version": "0.1.0"',
        '}',
        '',
      ].join('\n'),
    );
  });
});

describe('CSV problems placed and explained', () => {
  it('a quoted cell spanning two lines moves the later rows down a line each', () => {
    const csv = 'key,name,porosity\r\na,"two\nlines",0.5\r\nb,B,1.5\r\nc,C,2\r\n';
    expect(checkCatalogueCsv(porousHeader({ delimiter: ',', decimal: '.' }), csv).issues).toEqual([
      { pointer: '/rows/1/porosity', line: 4, column: 'C', message: 'porosity must be at most 1, got 1.5' },
      { pointer: '/rows/2/porosity', line: 5, column: 'C', message: 'porosity must be at most 1, got 2' },
    ]);
  });

  it('the other decimal mark is suggested only when every failing number reads with it', () => {
    const h = porousHeader({ delimiter: ';', decimal: '.' });
    const pointers = (csv: string) => checkCatalogueCsv(h, csv).issues.map((i) => i.pointer);
    expect(pointers('key;name;porosity\r\na;A;0,9\r\nb;B;0,8\r\n')).toContain('/csv/decimal');
    // "high" reads with no decimal mark: the declared one is not the problem.
    const mixed = checkCatalogueCsv(h, 'key;name;porosity\r\na;A;0,9\r\nb;B;high\r\n').issues;
    expect(mixed.map((i) => [i.line, i.column])).toEqual([
      [2, 'C'],
      [3, 'C'],
    ]);
    expect(mixed.some((i) => i.pointer === '/csv/decimal')).toBe(false);
  });
});

describe('what a CSV file and a JSON document may hold around their cells', () => {
  const h = porousHeader({ delimiter: ',', decimal: '.' });

  it('a CSV file with a column line and no rows is refused as having no rows', () => {
    expect(checkCatalogueCsv(h, 'key,name,porosity\r\n').issues).toEqual([
      { pointer: '', line: 1, message: 'the CSV file has no rows' },
    ]);
  });

  it('a column line without a name column is refused once, on the column line', () => {
    expect(checkCatalogueCsv(h, 'key,porosity\r\na,0.5\r\nb,0.6\r\n').issues).toEqual([
      { pointer: '', line: 1, message: 'the column line has no "name" column' },
    ]);
  });

  it('column names and flag cells are read without the spaces around them', () => {
    const { document } = readCatalogueCsv(
      JSON.stringify({
        ...doc('ImpactInsulation', []),
        rows: undefined,
        csv: { delimiter: ';', decimal: ',' },
      }),
      'key; name ;impact_insulation_class; has_section_drawing\r\nf1;Slab;28; true \r\nf2;Deck;; false\r\n',
    );
    expect(document.rows).toEqual([
      { key: 'f1', name: 'Slab', impact_insulation_class: 28, has_section_drawing: true },
      { key: 'f2', name: 'Deck', has_section_drawing: false },
    ]);
  });

  it('a JSON document saved with a byte order mark reads as without it', () => {
    const text = writeCatalogue(doc('Gas', [{ key: 'air', name: 'Air', heat_capacity_ratio: 1.4 }]));
    expect(readCatalogue(`\ufeff${text}`).document).toEqual(readCatalogue(text).document);
    expect(readCatalogue(Buffer.from(`\ufeff${text}`, 'utf8')).document.rows).toHaveLength(1);
  });
});
