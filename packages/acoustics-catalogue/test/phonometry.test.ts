import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_ID, checkCatalogueValue, importPhonometry, readCatalogue } from '../src/index.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
let dir: string;
const at = (f: string) => path.join(dir, f);
function run(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A phonometry v1 document: its schema constant, its version field, a unit alias and hedges. */
const v1 = {
  $schema: 'urn:phonometry:schema:catalogue:1',
  schema: 'phonometry-catalogue',
  schema_version: 1,
  catalogue: 'my-foams',
  row_type: 'PorousMaterial',
  about: 'Foams of a data sheet, as printed.',
  provenance: { kind: 'datasheet', document: 'Foam sheet', version: 'Rev. 2', consulted: '2025-05-02' },
  basis: 'declared',
  conventions: ['~ marks an approximate value'],
  rows: [
    {
      key: 'f-25',
      name: 'Foam 25',
      thickness_cm: 2.5,
      porosity: 0.97,
      approximate: ['porosity'],
      ranges: { flow_resistivity_kpa_s_m2: [9, 12] },
      'x-shelf': 'B4',
    },
    { key: 'f-50', name: 'Foam 50', tortuosity: 1.1, unquantified: { porosity: 'High' } },
  ],
  phonometry_version: '1.4.0',
};

const v1Header = { ...v1, rows: undefined, csv: { delimiter: ';', decimal: ',' } };
const v1Csv = 'key;name;porosity;thickness_mm\r\nf-25;Foam 25;~0,97;25\r\nf-50;Foam 50;[High];\r\n';

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('build first: npx tsc -b packages/acoustics-catalogue');
  dir = mkdtempSync(path.join(tmpdir(), 'acoustics-phonometry-'));
  writeFileSync(at('v1.json'), JSON.stringify(v1, null, 2));
  writeFileSync(at('v1.csv'), v1Csv);
  writeFileSync(at('v1.csv.phonometry.json'), JSON.stringify(v1Header));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('coming from phonometry', () => {
  it('validate says to import a phonometry document, not a generic refusal', () => {
    const r = run('validate', 'v1.json');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'v1.json: refused, 1 problem\n  v1.json: /schema: this is a phonometry catalogue (schema "phonometry-catalogue"), not yet one of ours; convert it without losing a value with: acoustics-catalogue import FILE OUT\n',
    );
    expect(checkCatalogueValue(v1).issues).toHaveLength(1);
  });

  it('import converts a JSON document losslessly: two names change, every other member is kept in order', () => {
    const r = run('import', 'v1.json', 'ours.json');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toBe(`wrote ours.json (2 rows, imported from phonometry)\n`);
    const ours = JSON.parse(readFileSync(at('ours.json'), 'utf8'));
    const { $schema, schema, phonometry_version, ...rest } = v1;
    expect([$schema, schema, phonometry_version]).toHaveLength(3);
    expect(ours).toEqual({
      ...rest,
      $schema: SCHEMA_ID,
      schema: 'acoustics-catalogue',
      acoustics_version: 'phonometry 1.4.0',
    });
    expect(Object.keys(ours)).toEqual(
      Object.keys(v1).map((k) => (k === 'phonometry_version' ? 'acoustics_version' : k)),
    );
    expect(ours.rows).toEqual(v1.rows); // the alias thickness_cm and every hedge as written
    expect(run('validate', 'ours.json').stdout).toBe('ours.json: accepted (2 rows)\n');
    expect(
      (readCatalogue(readFileSync(at('ours.json'))).document.rows[0] as Record<string, unknown>).thickness_mm,
    ).toBe(25);
  });

  it('import to /dev/stdout prints the document as import to - does, with no "wrote" line in it', () => {
    const dash = run('import', 'v1.json', '-');
    expect(dash).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(dash.stdout).schema).toBe('acoustics-catalogue');
    expect(run('import', 'v1.json', '/dev/stdout')).toEqual(dash);
  });

  it('import never overwrites a file without --force', () => {
    writeFileSync(at('taken.json'), 'kept');
    const r = run('import', 'v1.json', 'taken.json');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('acoustics-catalogue: taken.json: already exists; pass --force to overwrite it\n');
    expect(readFileSync(at('taken.json'), 'utf8')).toBe('kept');
    expect(run('import', '--force', 'v1.json', 'taken.json').code).toBe(0);
    expect(JSON.parse(readFileSync(at('taken.json'), 'utf8')).schema).toBe('acoustics-catalogue');
  });

  it('import converts a CSV file with its .phonometry.json header: the CSV bytes kept, the header converted', () => {
    const v = run('validate', 'v1.csv');
    expect(v.code).toBe(1);
    expect(v.stdout).toContain(
      'v1.csv.phonometry.json: (document): the header beside this CSV file is a phonometry header (v1.csv.phonometry.json)',
    );
    expect(v.stdout).toContain('acoustics-catalogue import v1.csv OUT.csv');
    const r = run('import', 'v1.csv', 'ours.csv');
    expect(r).toMatchObject({
      code: 0,
      stdout: 'wrote ours.csv and ours.csv.acoustics.json (2 rows, imported from phonometry)\n',
    });
    expect(readFileSync(at('ours.csv'), 'utf8')).toBe(v1Csv);
    const header = JSON.parse(readFileSync(at('ours.csv.acoustics.json'), 'utf8'));
    expect(header).toMatchObject({
      schema: 'acoustics-catalogue',
      acoustics_version: 'phonometry 1.4.0',
      csv: v1Header.csv,
    });
    expect(header.phonometry_version).toBeUndefined();
    expect(run('validate', 'ours.csv').stdout).toBe('ours.csv: accepted (2 rows)\n');
  });

  it('a phonometry document our reader refuses is not written, and the problems are listed', () => {
    writeFileSync(at('bidi.json'), JSON.stringify({ ...v1, about: 'Foams \u202Ereversed' }));
    const r = run('import', 'bidi.json', 'bidi-ours.json');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('bidi.json: cannot be imported, 1 problem');
    expect(r.stderr).toContain('/about: about holds U+202E');
    expect(existsSync(at('bidi-ours.json'))).toBe(false);
  });

  it('importPhonometry refuses what is not a phonometry v1 document', () => {
    expect(importPhonometry({ ...v1, schema: 'acoustics-catalogue' }).issues[0].message).toContain(
      'needs no import',
    );
    expect(importPhonometry({ ...v1, schema_version: 2 }).issues[0]).toEqual({
      pointer: '/schema_version',
      message:
        'phonometry schema_version 2 is newer than the version 1 this import knows; upgrade acoustics-catalogue',
    });
    expect(importPhonometry({ ...v1, phonometry_version: null }).value?.acoustics_version).toBe('phonometry');
  });
});
