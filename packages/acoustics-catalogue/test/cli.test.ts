import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCatalogue } from '../src/index.js';
import { doc } from './helpers.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
let dir: string;

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const gas = doc('Gas', [
  {
    key: 'air',
    name: 'Air',
    molar_mass_kg_mol: 0.02897,
    heat_capacity_ratio: 1.4,
    approximate: ['heat_capacity_ratio'],
  },
  { key: 'he', name: '=Helium', heat_capacity_ratio: 1.66 },
]);

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('build first: npx tsc -b packages/acoustics-catalogue');
  dir = mkdtempSync(path.join(tmpdir(), 'acoustics-cli-'));
  writeFileSync(path.join(dir, 'gas.json'), writeCatalogue(gas));
  writeFileSync(
    path.join(dir, 'bad.json'),
    JSON.stringify({
      ...gas,
      catalogue: 'Gases',
      rows: [{ key: 'air', name: 'Air', heat_capacity_ratio: '1.4' }],
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runAsync(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at /);

describe('validate', () => {
  it('exits 0 when every file is accepted', () => {
    const r = run('validate', 'gas.json');
    expect(r).toMatchObject({ code: 0, stdout: 'gas.json: accepted (2 rows)\n' });
  });

  it('exits 1 when any file is refused, listing file, pointer and message as CSV problems are', () => {
    const r = run('validate', 'gas.json', 'bad.json');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        'gas.json: accepted (2 rows)',
        'bad.json: refused, 2 problems',
        '  bad.json: /catalogue: catalogue name "Gases" must start with a lower-case letter or digit and hold only lower-case letters, digits and . _ - (1 to 64 characters)',
        '  bad.json: /rows/0/heat_capacity_ratio: heat_capacity_ratio must be a number or null, got "1.4"',
        '',
      ].join('\n'),
    );
  });

  it('a reader that stops early (show FILE | head -1, convert IN - | head) ends the command quietly: exit 0, nothing on stderr, no stack trace', async () => {
    // More than a pipe holds, so the command is still writing when its reader goes.
    const rows = Array.from({ length: 40_000 }, (_, i) => ({ key: `gas-${i}`, name: `Gas number ${i}` }));
    writeFileSync(path.join(dir, 'many.json'), writeCatalogue(doc('Gas', rows)));
    for (const args of [
      ['show', 'many.json'],
      ['convert', 'many.json', '-'],
    ]) {
      const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      expect({ args, code, stderr }).toEqual({ args, code: 0, stderr: '' });
    }
  });

  it('counts one row in the singular (validate, convert)', () => {
    writeFileSync(path.join(dir, 'one.json'), writeCatalogue(doc('Gas', [{ key: 'air', name: 'Air' }])));
    expect(run('validate', 'one.json')).toMatchObject({ code: 0, stdout: 'one.json: accepted (1 row)\n' });
    expect(run('convert', 'one.json', 'one.csv')).toMatchObject({
      code: 0,
      stdout: 'wrote one.csv and one.csv.acoustics.json (1 row)\n',
    });
    expect(run('convert', 'one.csv', 'one-again.json')).toMatchObject({
      code: 0,
      stdout: 'wrote one-again.json (1 row)\n',
    });
  });

  it('--json prints the report as JSON', () => {
    const r = run('validate', '--json', 'bad.json');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.accepted).toBe(false);
    expect(report.files[0]).toMatchObject({ file: 'bad.json', accepted: false, problems: 2 });
    expect(report.files[0].issues[1]).toEqual({
      file: 'bad.json',
      pointer: '/rows/0/heat_capacity_ratio',
      message: 'heat_capacity_ratio must be a number or null, got "1.4"',
    });
  });

  it('lists 20 notes and counts the rest, in text and in --json', () => {
    // Measured with neither report nor laboratory: one note per row.
    const noted = doc(
      'Gas',
      Array.from({ length: 25 }, (_, i) => ({ key: `g${i}`, name: `Gas ${i}` })),
      { provenance: { kind: 'datasheet', document: 'Sheet', version: null, consulted: '2025-01-02' } },
    );
    writeFileSync(path.join(dir, 'noted.json'), writeCatalogue(noted));
    const text = run('validate', 'noted.json');
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('noted.json: accepted (25 rows, 25 notes)');
    expect(lines.slice(1, 21).every((l) => l.startsWith('  note: noted.json: /rows/'))).toBe(true);
    expect(lines.slice(21)).toEqual(['  note: … and 5 more']);
    const json = run('validate', '--json', 'noted.json');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout).files[0];
    expect(report).toMatchObject({ accepted: true, rows: 25, problems: 0, notes_total: 25 });
    expect(report.notes).toHaveLength(20);
    expect(report.notes[19]).toEqual({
      file: 'noted.json',
      pointer: '/rows/19',
      message: 'measured, but neither the row nor the document names a report or laboratory',
    });
  });

  it('reads a CSV file with its header beside it, and refuses one without', () => {
    writeFileSync(path.join(dir, 'g.csv'), 'key;name;heat_capacity_ratio\r\nair;Air;1,4\r\nxe;Xenon;x\r\n');
    writeFileSync(
      path.join(dir, 'g.csv.acoustics.json'),
      JSON.stringify({ ...gas, rows: undefined, csv: { delimiter: ';', decimal: ',' } }),
    );
    const r = run('validate', 'g.csv');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('g.csv: line 3, column C: "x" is not a value of heat_capacity_ratio');
    writeFileSync(path.join(dir, 'lone.csv'), 'key,name\r\na,A\r\n');
    const lone = run('validate', 'lone.csv');
    expect(lone.code).toBe(1);
    expect(lone.stdout).toContain(
      'lone.csv.acoustics.json: (document): the CSV file has no header beside it',
    );
  });

  it('refuses a 17 MiB file without reading it', () => {
    writeFileSync(path.join(dir, 'big.json'), Buffer.alloc(17 * 1024 * 1024, 0x20));
    const r = run('validate', 'big.json');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('document is 17.0 MiB; at most 16.0 MiB is read');
  });

  it('says an empty document or CSV header is empty, not that its JSON ended early', () => {
    writeFileSync(path.join(dir, 'empty.json'), '');
    expect(run('validate', 'empty.json')).toMatchObject({
      code: 1,
      stdout:
        'empty.json: refused, 1 problem\n  empty.json: (document): the document is empty (no JSON at all); write it as a JSON object\n',
    });
    writeFileSync(path.join(dir, 'blank.csv'), 'key,name\na,A\n');
    writeFileSync(path.join(dir, 'blank.csv.acoustics.json'), '\n');
    expect(run('validate', 'blank.csv').stdout).toBe(
      'blank.csv: refused, 1 problem\n  blank.csv.acoustics.json: (document): the CSV header is empty (no JSON at all); write it as a JSON object\n',
    );
  });

  it('refuses a file that is not UTF-8 (Latin-1, UTF-16), naming the byte and its line, and writes nothing from it', () => {
    const german = doc('Gas', [{ key: 'luft', name: 'Luft für Größe', heat_capacity_ratio: 1.4 }]);
    const utf8 = writeCatalogue(german);
    writeFileSync(path.join(dir, 'de.json'), Buffer.from(utf8, 'latin1'));
    const line = utf8.split('\n').findIndex((l) => l.includes('für')) + 1;
    const column = utf8.split('\n')[line - 1].indexOf('ü') + 1;
    expect(run('validate', 'de.json')).toMatchObject({
      code: 1,
      stdout: `de.json: refused, 1 problem\n  de.json: (document): line ${line}, column ${column}: byte 0xFC is not UTF-8 (a file saved as Latin-1 or Windows-1252 reads so); save the document as UTF-8 and run again\n`,
    });
    writeFileSync(path.join(dir, 'de16.json'), Buffer.from('\ufeff' + utf8, 'utf16le'));
    expect(run('validate', 'de16.json').stdout).toBe(
      'de16.json: refused, 1 problem\n  de16.json: (document): the document is UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8 and run again\n',
    );

    // A spreadsheet's CSV saved as Windows-1252, its header beside it in UTF-8.
    writeFileSync(path.join(dir, 'de-utf8.json'), utf8);
    expect(run('convert', 'de-utf8.json', 'de.csv').code).toBe(0);
    const csv = readFileSync(path.join(dir, 'de.csv'), 'utf8');
    expect(csv).toContain('Luft für Größe');
    writeFileSync(path.join(dir, 'de.csv'), Buffer.from(csv, 'latin1'));
    expect(run('validate', 'de.csv')).toMatchObject({
      code: 1,
      stdout:
        'de.csv: refused, 1 problem\n  de.csv: line 2: byte 0xFC is not UTF-8 (a file saved as Latin-1 or Windows-1252 reads so); save the CSV file as UTF-8 and run again\n',
    });
    const converted = run('convert', 'de.csv', 'de-from-csv.json');
    expect(converted.code).toBe(1);
    expect(converted.stderr).toContain('de.csv: line 2: byte 0xFC is not UTF-8');
    expect(existsSync(path.join(dir, 'de-from-csv.json'))).toBe(false);
    expect(run('show', 'de.csv')).toMatchObject({ code: 1, stdout: '' });

    // UTF-8 with a byte order mark, and a U+FFFD the file really holds, still read.
    const marked = writeCatalogue(doc('Gas', [{ key: 'luft', name: 'Luft \ufffd für Größe' }]));
    writeFileSync(path.join(dir, 'marked.json'), '\ufeff' + marked);
    expect(run('validate', 'marked.json')).toMatchObject({
      code: 0,
      stdout: 'marked.json: accepted (1 row)\n',
    });
  });

  it('explains broken JSON in one line', () => {
    writeFileSync(path.join(dir, 'broken.json'), '{"schema": ');
    const r = run('validate', 'broken.json');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^broken\.json: refused, 1 problem\n {2}broken\.json: \(document\): not valid JSON \(.*\); fix the syntax\n$/,
    );
  });
});

describe('usage errors exit 2 with one line and no stack trace', () => {
  const cases: [string[], string][] = [
    [[], 'acoustics-catalogue: no command given; run "acoustics-catalogue --help" for usage\n'],
    [
      ['validate'],
      'acoustics-catalogue: validate needs at least one FILE; run "acoustics-catalogue --help" for usage\n',
    ],
    [
      ['validate', '--yaml', 'gas.json'],
      'acoustics-catalogue: unknown option --yaml; run "acoustics-catalogue --help" for usage\n',
    ],
    [['validate', 'missing.json'], 'acoustics-catalogue: missing.json: no such file; check the path\n'],
    [
      ['convert', 'gas.json'],
      'acoustics-catalogue: convert needs IN and OUT; run "acoustics-catalogue --help" for usage\n',
    ],
    [
      ['convert', '--delimiter', ',', '--decimal', ',', 'gas.json', 'x.csv'],
      'acoustics-catalogue: --delimiter , with --decimal , cannot be told apart; use --delimiter ";" or --decimal .; run "acoustics-catalogue --help" for usage\n',
    ],
    [['frob'], 'acoustics-catalogue: unknown command "frob"; run "acoustics-catalogue --help" for usage\n'],
  ];
  it('for each wrong invocation', async () => {
    const results = await Promise.all(cases.map(([args]) => runAsync(...args)));
    results.forEach((r, i) => {
      expect(r).toEqual({ code: 2, stdout: '', stderr: cases[i][1] });
      noStack(r.stderr);
    });
  });

  it('--help prints usage', () => {
    const r = run('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('validate [--json] FILE...');
  });

  it('--help starts every command and option description at the same column', () => {
    const r = run('--help');
    expect(r.code).toBe(0);
    const starts = new Map<string, number>();
    for (const line of r.stdout.split('\n')) {
      const entry = /^ {2}(\S(?:\S| (?! ))*) {2,}\S/.exec(line);
      const more = /^ {3,}\S/.exec(line);
      if (entry) starts.set(entry[1], entry[0].length - 1);
      else if (more) starts.set(line, more[0].length - 1);
    }
    const entries = [...starts.keys()];
    for (const e of ['validate', 'convert', 'import', 'show', '--json', '--force', '--help', '--version'])
      expect(entries).toContain(e);
    expect(entries.some((e) => e.startsWith('--delimiter'))).toBe(true);
    expect(entries.some((e) => e.startsWith('--decimal'))).toBe(true);
    expect(new Set(starts.values()), r.stdout).toEqual(new Set([starts.get('--json')]));
  });
});

describe('convert', () => {
  it('writes CSV with its header, never overwrites without --force, and reads back', () => {
    const first = run('convert', '--delimiter', 'tab', '--decimal', ',', 'gas.json', 'out.tsv');
    expect(first).toMatchObject({ code: 0, stdout: 'wrote out.tsv and out.tsv.acoustics.json (2 rows)\n' });
    expect(readFileSync(path.join(dir, 'out.tsv'), 'utf8')).toBe(
      "key\tname\tmolar_mass_kg_mol\theat_capacity_ratio\r\nair\tAir\t0,02897\t~1,4\r\nhe\t'=Helium\t\t1,66\r\n",
    );
    const again = run('convert', 'gas.json', 'out.tsv');
    expect(again).toEqual({
      code: 2,
      stdout: '',
      stderr: 'acoustics-catalogue: out.tsv: already exists; pass --force to overwrite it\n',
    });
    expect(run('convert', '--force', '--delimiter', ';', 'gas.json', 'out.tsv').code).toBe(0);
    expect(readFileSync(path.join(dir, 'out.tsv'), 'utf8')).toContain('air;Air;0.02897;~1.4');
    expect(run('convert', 'out.tsv', 'back.json').code).toBe(0);
    expect(readFileSync(path.join(dir, 'back.json'), 'utf8')).toBe(
      readFileSync(path.join(dir, 'gas.json'), 'utf8'),
    );
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses to convert or import a file onto itself, even with --force', () => {
    for (const command of ['convert', 'import'])
      expect(run(command, '--force', 'gas.json', 'gas.json')).toEqual({
        code: 2,
        stdout: '',
        stderr: `acoustics-catalogue: ${command} needs OUT to differ from IN; run "acoustics-catalogue --help" for usage\n`,
      });
    expect(readFileSync(path.join(dir, 'gas.json'), 'utf8')).toBe(writeCatalogue(gas));
  });

  it('writes comma-separated CSV with the decimal point when no dialect is given', () => {
    expect(run('convert', 'gas.json', 'plain.csv')).toMatchObject({
      code: 0,
      stdout: 'wrote plain.csv and plain.csv.acoustics.json (2 rows)\n',
    });
    expect(readFileSync(path.join(dir, 'plain.csv'), 'utf8')).toBe(
      "key,name,molar_mass_kg_mol,heat_capacity_ratio\r\nair,Air,0.02897,~1.4\r\nhe,'=Helium,,1.66\r\n",
    );
    expect(JSON.parse(readFileSync(path.join(dir, 'plain.csv.acoustics.json'), 'utf8')).csv).toEqual({
      delimiter: ',',
      decimal: '.',
    });
  });

  it('writes a CSV file and its header both or neither: a header that cannot be placed leaves no CSV behind', () => {
    const sub = mkdtempSync(path.join(dir, 'pair-'));
    const out = path.join(sub, 'gas.csv');
    // The header's path is taken by a folder, so the header cannot be put in place.
    mkdirSync(`${out}.acoustics.json`);
    const fresh = run('convert', '--force', 'gas.json', out);
    expect(fresh.code).toBe(2);
    expect(fresh.stderr).toBe(
      `acoustics-catalogue: ${out}.acoustics.json: is a directory; give a file name\n`,
    );
    expect(readdirSync(sub)).toEqual(['gas.csv.acoustics.json']);
    // With --force over an older CSV file, the older file is kept as it was.
    writeFileSync(out, 'key,name\nold,Old\n');
    const over = run('convert', '--force', 'gas.json', out);
    expect(over.code).toBe(2);
    expect(readFileSync(out, 'utf8')).toBe('key,name\nold,Old\n');
    expect(readdirSync(sub).sort()).toEqual(['gas.csv', 'gas.csv.acoustics.json']);
  });

  it('--force into a pipe or a device writes into it and never replaces it; a CSV pair is refused there', async () => {
    const sub = mkdtempSync(path.join(dir, 'fifo-'));
    const fifo = path.join(sub, 'out.json');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // The test reads the pipe as a second process would; it is ended below whatever happens.
    const reader = spawn('cat', [fifo]);
    let read = '';
    reader.stdout.on('data', (d) => (read += d));
    const readerDone = new Promise<void>((resolve) => reader.on('close', () => resolve()));
    try {
      const r = await runAsync('convert', '--force', 'gas.json', fifo);
      expect(r).toEqual({ code: 0, stdout: `wrote ${fifo} (2 rows)\n`, stderr: '' });
      expect(lstatSync(fifo).isFIFO()).toBe(true);
      await readerDone;
      expect(read).toBe(readFileSync(path.join(dir, 'gas.json'), 'utf8'));
      expect(readdirSync(sub)).toEqual(['out.json']);
    } finally {
      reader.kill();
    }
    // A CSV file and its header are written both or neither: a pipe cannot take part, so nothing is written.
    const pipeCsv = path.join(sub, 'out.csv');
    expect(spawnSync('mkfifo', [pipeCsv]).status).toBe(0);
    const pair = run('convert', '--force', 'gas.json', pipeCsv);
    expect(pair).toEqual({
      code: 2,
      stdout: '',
      stderr: `acoustics-catalogue: ${pipeCsv}: is not a regular file (a device, pipe or socket); a CSV file and its header are written only as two regular files, give a file path\n`,
    });
    expect(lstatSync(pipeCsv).isFIFO()).toBe(true);
    expect(readdirSync(sub).sort()).toEqual(['out.csv', 'out.json']);
  });

  it('--force into a socket, which cannot be opened, is one line saying so, claims nothing and leaves the socket', async () => {
    const sub = mkdtempSync(path.join(dir, 'socket-'));
    const socket = path.join(sub, 'out.json');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      expect(await runAsync('convert', '--force', 'gas.json', socket)).toEqual({
        code: 2,
        stdout: '',
        stderr: `acoustics-catalogue: ${socket}: cannot be written, it is a socket or a device that takes nothing; give a file path\n`,
      });
      expect(lstatSync(socket).isSocket()).toBe(true);
      expect(readdirSync(sub)).toEqual(['out.json']);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('--force to a character device writes into it and leaves it a device', (ctx) => {
    // Run as root, the test makes its own null device in its folder, so that no build, right or wrong, can
    // replace the machine's /dev/null; as another user /dev/null itself cannot be replaced.
    let device = '/dev/null';
    if (process.getuid?.() === 0) {
      device = path.join(dir, 'null');
      if (spawnSync('mknod', [device, 'c', '1', '3']).status !== 0) return ctx.skip();
    }
    const r = spawnSync(process.execPath, [CLI, 'convert', '--force', 'gas.json', device], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      code: 0,
      stdout: `wrote ${device} (2 rows)\n`,
      stderr: '',
    });
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
  });

  it('OUT /dev/stdout (and /dev/stderr) is written through the descriptor: a redirected file gets the document where the redirection says, and is not replaced', () => {
    const sub = mkdtempSync(path.join(dir, 'stdout-'));
    const file = path.join(sub, 'out.json');
    const document = readFileSync(path.join(dir, 'gas.json'), 'utf8');
    // Standard output appended to a file (>> out.json): what it held stays, the document follows, and the file
    // is the same file (never renamed over); no "wrote" line inside the document, and no --force needed.
    writeFileSync(file, 'earlier line\n');
    const before = statSync(file).ino;
    const redirected = (mode: 'a' | 'w', ...args: string[]) => {
      const fd = openSync(file, mode);
      try {
        const r = spawnSync(process.execPath, [CLI, ...args], {
          cwd: dir,
          encoding: 'utf8',
          stdio: ['ignore', fd, 'pipe'],
        });
        return { code: r.status, stderr: r.stderr };
      } finally {
        closeSync(fd);
      }
    };
    expect(redirected('a', 'convert', 'gas.json', '/dev/stdout')).toEqual({ code: 0, stderr: '' });
    expect(readFileSync(file, 'utf8')).toBe(`earlier line\n${document}`);
    expect(statSync(file).ino).toBe(before);
    // Through /dev/fd/1 and with --force, the same; a link to /dev/stdout too.
    expect(redirected('w', 'convert', '--force', 'gas.json', '/dev/fd/1')).toEqual({ code: 0, stderr: '' });
    expect(readFileSync(file, 'utf8')).toBe(document);
    symlinkSync('/dev/stdout', path.join(sub, 'to-stdout.json'));
    expect(redirected('w', 'convert', 'gas.json', path.join(sub, 'to-stdout.json'))).toEqual({
      code: 0,
      stderr: '',
    });
    expect(readFileSync(file, 'utf8')).toBe(document);
    expect(statSync(file).ino).toBe(before);
    expect(readdirSync(sub).sort()).toEqual(['out.json', 'to-stdout.json']);
    // Standard output a pipe: the bytes arrive on it, as with OUT -.
    expect(run('convert', 'gas.json', '/dev/stdout')).toEqual({ code: 0, stdout: document, stderr: '' });
    // /dev/stderr appended to a file: a descriptor written into (--force, as a device), the file kept.
    const fd = openSync(file, 'a');
    try {
      const r = spawnSync(process.execPath, [CLI, 'convert', '--force', 'gas.json', '/dev/stderr'], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', fd],
      });
      expect({ code: r.status, stdout: r.stdout }).toEqual({
        code: 0,
        stdout: 'wrote /dev/stderr (2 rows)\n',
      });
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(file, 'utf8')).toBe(`${document}${document}`);
    expect(statSync(file).ino).toBe(before);
    // Another descriptor (3>> out.json, OUT /dev/fd/3) is written through too: appended to, never rewritten.
    const three = openSync(file, 'a');
    try {
      const r = spawnSync(process.execPath, [CLI, 'convert', '--force', 'gas.json', '/dev/fd/3'], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe', three],
      });
      expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
        code: 0,
        stdout: 'wrote /dev/fd/3 (2 rows)\n',
        stderr: '',
      });
    } finally {
      closeSync(three);
    }
    expect(readFileSync(file, 'utf8')).toBe(`${document}${document}${document}`);
    expect(statSync(file).ino).toBe(before);
  });

  it('OUT naming standard input (/dev/stdin, /dev/fd/0, a link to it) is refused in one line, with or without --force, and the file it reads from is left as it was', () => {
    const sub = mkdtempSync(path.join(dir, 'stdin-'));
    const file = path.join(sub, 'in.json');
    const held = 'what standard input reads\n';
    writeFileSync(file, held);
    const before = statSync(file).ino;
    symlinkSync('/dev/stdin', path.join(sub, 'to-stdin.json'));
    symlinkSync('/dev/fd/0', path.join(sub, 'to-stdin.csv'));
    const outs = ['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0', path.join(sub, 'to-stdin.json')];
    const cases = [
      ...outs.flatMap((out) => [
        ['convert', 'gas.json', out],
        ['convert', '--force', 'gas.json', out],
        ['import', '--force', 'gas.json', out],
      ]),
      // A CSV file's name: neither it nor its header is written.
      ['convert', '--force', 'gas.json', path.join(sub, 'to-stdin.csv')],
    ];
    // Standard input opened to read (< in.json) and to read and write (<> in.json), whose file a write would
    // overwrite from its start.
    for (const mode of ['r', 'r+'] as const)
      for (const args of cases) {
        const fd = openSync(file, mode);
        try {
          const r = spawnSync(process.execPath, [CLI, ...args], {
            cwd: dir,
            encoding: 'utf8',
            stdio: [fd, 'pipe', 'pipe'],
          });
          expect({ mode, args, code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
            mode,
            args,
            code: 2,
            stdout: '',
            stderr: `acoustics-catalogue: ${args.at(-1)}: is standard input, which is only read from, never written; name a file to write to instead\n`,
          });
        } finally {
          closeSync(fd);
        }
      }
    expect(readFileSync(file, 'utf8')).toBe(held);
    expect(statSync(file).ino).toBe(before);
    expect(readdirSync(sub).sort()).toEqual(['in.json', 'to-stdin.csv', 'to-stdin.json']);
  });

  it('a full device (ENOSPC, /dev/full) is one line saying so, and leaves nothing half-written', () => {
    const sub = mkdtempSync(path.join(dir, 'full-'));
    const full =
      'acoustics-catalogue: %s: cannot be written, no space left on the device; free some space or give another path\n';
    expect(run('convert', '--force', 'gas.json', '/dev/full')).toEqual({
      code: 2,
      stdout: '',
      stderr: full.replace('%s', '/dev/full'),
    });
    // A path through it: the link is written into, stays a link, and nothing is left beside it.
    const link = path.join(sub, 'out.json');
    symlinkSync('/dev/full', link);
    expect(run('convert', '--force', 'gas.json', link)).toEqual({
      code: 2,
      stdout: '',
      stderr: full.replace('%s', link),
    });
    expect(readlinkSync(link)).toBe('/dev/full');
    expect(readdirSync(sub)).toEqual(['out.json']);
    // Standard output on a full device (OUT -): one line, no stack trace.
    const fd = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [CLI, 'convert', 'gas.json', '-'], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', fd, 'pipe'],
      });
      expect({ code: r.status, stderr: r.stderr }).toEqual({
        code: 1,
        stderr:
          'acoustics-catalogue: cannot write to standard output, no space left on the device; free some space or send it elsewhere\n',
      });
    } finally {
      closeSync(fd);
    }
  });

  it('a full disk leaves the file it would replace as it was, and no part of a file, when run as root', (ctx) => {
    // A small disk of its own (tmpfs of 16 KiB) that the document cannot fit on: only root may make one.
    const sub = mkdtempSync(path.join(dir, 'disk-'));
    const disk = path.join(sub, 'disk');
    mkdirSync(disk);
    if (
      process.getuid?.() !== 0 ||
      spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', disk]).status !== 0
    )
      return ctx.skip();
    try {
      const rows = Array.from({ length: 1500 }, (_, i) => ({
        key: `g${i}`,
        name: `Gas ${i}`,
        heat_capacity_ratio: 1.4,
      }));
      writeFileSync(path.join(sub, 'big.json'), writeCatalogue(doc('Gas', rows)));
      const out = path.join(disk, 'out.json');
      writeFileSync(out, 'older\n');
      const said = (p: string) =>
        `acoustics-catalogue: ${p}: cannot be written, no space left on the device; free some space or give another path\n`;
      expect(run('convert', '--force', path.join(sub, 'big.json'), out)).toEqual({
        code: 2,
        stdout: '',
        stderr: said(out),
      });
      expect(readFileSync(out, 'utf8')).toBe('older\n');
      const fresh = path.join(disk, 'new.json');
      expect(run('convert', path.join(sub, 'big.json'), fresh)).toEqual({
        code: 2,
        stdout: '',
        stderr: said(fresh),
      });
      const pair = path.join(disk, 'new.csv');
      expect(run('convert', path.join(sub, 'big.json'), pair)).toEqual({
        code: 2,
        stdout: '',
        stderr: said(pair),
      });
      expect(readdirSync(disk)).toEqual(['out.json']);
    } finally {
      spawnSync('umount', ['-l', disk]);
    }
  });

  it('says what to do when OUT cannot be written', () => {
    const r = run('convert', 'gas.json', path.join('no-such-folder', 'gas.csv'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `acoustics-catalogue: ${path.join('no-such-folder', 'gas.csv')}: cannot be written, the folder no-such-folder does not exist; create it or give another path\n`,
    );
    expect(existsSync(path.join(dir, 'no-such-folder'))).toBe(false);
  });

  it('refuses a refused input with exit 1 and writes nothing', () => {
    const r = run('convert', 'bad.json', 'bad-out.json');
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('bad.json: refused, 2 problems; fix them, then run again');
    expect(existsSync(path.join(dir, 'bad-out.json'))).toBe(false);
    writeFileSync(path.join(dir, 'one.json'), JSON.stringify({ ...gas, catalogue: 'Gases' }));
    const one = run('convert', 'one.json', 'one-out.json');
    expect(one.code).toBe(1);
    expect(one.stderr.split('\n')[0]).toBe('one.json: refused, 1 problem; fix it, then run again');
  });

  it('refuses what CSV cannot express with exit 1', () => {
    writeFileSync(
      path.join(dir, 'reported.json'),
      writeCatalogue(
        doc('Gas', [
          { key: 'a', name: 'A', heat_capacity_ratio: 1.4, reported: { heat_capacity_ratio: [1.4] } },
        ]),
      ),
    );
    const r = run('convert', 'reported.json', 'reported.csv');
    expect(r.code).toBe(1);
    noStack(r.stderr);
    expect(r.stderr).toContain('/rows/0/reported: reported cannot be written in CSV (JSON only)');
  });

  it('a document with unit alias fields is refused as CSV saying where converted came from and what to do', () => {
    writeFileSync(
      path.join(dir, 'alias.json'),
      JSON.stringify(
        doc('PorousMaterial', [
          { key: 'foam', name: 'Foam', thickness_mm: 50 },
          { key: 'wool', name: 'Wool', flow_resistivity_kpa_s_m2: 8.5, thickness_cm: 10 },
        ]),
      ),
    );
    const r = run('convert', 'alias.json', 'alias.csv');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'acoustics-catalogue: document to write as CSV refused: 1 problem; fix the problems below, or write JSON instead\n' +
        '  /rows/1/converted: converted cannot be written in CSV (JSON only): it keeps figures as printed in other units (flow_resistivity_pa_s_m2 as 8.5 kPa.s/m2, thickness_mm as 10 cm), as the reader records them when it converts unit alias fields; remove converted to write the canonical values alone, or write JSON\n',
    );
    expect(existsSync(path.join(dir, 'alias.csv'))).toBe(false);
    expect(existsSync(path.join(dir, 'alias.csv.acoustics.json'))).toBe(false);
  });
});

describe('show', () => {
  it('prints the rows as a table', () => {
    const r = run('show', 'gas.json');
    expect(r).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        'demo (Gas, 2 rows)',
        '| key | name    | molar_mass_kg_mol | heat_capacity_ratio |',
        '|-----|---------|-------------------|---------------------|',
        '| air | Air     | 0.02897           | ~1.4                |',
        '| he  | =Helium |                   | 1.66                |',
        '',
      ].join('\n'),
    });
  });

  it('cuts a cell longer than 32 characters to 31 and an ellipsis, on one line', () => {
    const long = 'Argon, technical grade\nas delivered in 50 l cylinders';
    writeFileSync(
      path.join(dir, 'long.json'),
      writeCatalogue(doc('Gas', [{ key: 'ar', name: long, heat_capacity_ratio: 1.67 }])),
    );
    const r = run('show', 'long.json');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(1, 4)).toEqual([
      '| key | name                             | heat_capacity_ratio |',
      '|-----|----------------------------------|---------------------|',
      '| ar  | Argon, technical grade as deliv… | 1.67                |',
    ]);
  });
});
