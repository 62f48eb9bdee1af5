#!/usr/bin/env node
/** Command line: validate, convert and show catalogue documents. */
import { readFileSync } from 'node:fs';
import { classInfo } from './definition.js';
import { CatalogueError, LISTED_ISSUES, type Issue, locate } from './errors.js';
import { displayCell, writeCatalogueCsv } from './csv.js';
import {
  FileAccessError,
  checkCatalogueFile,
  importPhonometryFile,
  csvHeaderPath,
  ensureWritable,
  isCsvPath,
  namedDescriptor,
  writeFileAtomic,
  writeFilesAtomic,
} from './files.js';
import type { CatalogueDocument, CsvDialect, DecimalMark, Delimiter } from './types.js';
import { writeCatalogue } from './writer.js';

const NAME = 'acoustics-catalogue';

/** The help's two tables: an entry and its description lines, descriptions aligned in one column. */
const COMMANDS: readonly (readonly [string, ...string[]])[] = [
  ['validate', 'check documents (exit 0 all accepted, 1 any refused)'],
  ['convert', 'JSON <-> CSV with its header (OUT.acoustics.json); OUT - prints JSON', 'to standard output'],
  [
    'import',
    'convert a phonometry v1 catalogue (IN.json, or IN.csv with IN.csv.phonometry.json',
    'beside it) into ours, every value kept',
  ],
  ['show', "print a document's rows as a table"],
];
const OPTIONS: readonly (readonly [string, ...string[]])[] = [
  ['--json', 'validate: print the report as JSON'],
  ['--force', 'convert, import: replace OUT (and its header) when it exists'],
  ['--delimiter , | ; | tab', 'convert to .csv or .tsv: the delimiter (default ,)'],
  ['--decimal . | ,', 'convert to .csv or .tsv: the decimal mark (default .)'],
  ['--help', 'print this help'],
  ['--version', 'print the version'],
];

function usage(): string {
  const width = Math.max(...[...COMMANDS, ...OPTIONS].map(([entry]) => entry.length)) + 3;
  const table = (rows: typeof COMMANDS) =>
    rows.flatMap(([entry, ...description]) =>
      description.map((d, i) => `  ${(i === 0 ? entry : '').padEnd(width)}${d}`),
    );
  return [
    'Usage:',
    `  ${NAME} validate [--json] FILE...`,
    `  ${NAME} convert [--force] [--delimiter , | ; | tab] [--decimal . | ,] IN OUT`,
    `  ${NAME} import [--force] IN OUT`,
    `  ${NAME} show FILE`,
    `  ${NAME} --help | --version`,
    '',
    'Commands:',
    ...table(COMMANDS),
    '',
    'Options:',
    ...table(OPTIONS),
    '',
    'A FILE ending in .csv or .tsv is a CSV file; its JSON header sits beside it as FILE.acoustics.json.',
    'Other files are JSON catalogue documents.',
  ].join('\n');
}

class UsageError extends Error {}

interface Parsed {
  readonly flags: Map<string, string | true>;
  readonly args: string[];
}

function parseArgs(argv: readonly string[], valued: readonly string[], booleans: readonly string[]): Parsed {
  const flags = new Map<string, string | true>();
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      args.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const [name, inline] = a.slice(2).split(/=(.*)/s, 2);
      if (booleans.includes(name)) {
        if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
        flags.set(name, true);
      } else if (valued.includes(name)) {
        const v = inline ?? argv[++i];
        if (v === undefined) throw new UsageError(`--${name} needs a value`);
        flags.set(name, v);
      } else throw new UsageError(`unknown option ${a}`);
    } else if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${a}`);
    else args.push(a);
  }
  return { flags, args };
}

/** A count with its noun, singular for 1: `1 row`, `2 rows`. */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function out(text: string): void {
  process.stdout.write(`${text}\n`);
}

function err(text: string): void {
  process.stderr.write(`${text}\n`);
}

function issueJson(i: Issue): Record<string, unknown> {
  return {
    ...(i.file ? { file: i.file } : {}),
    pointer: i.pointer,
    ...(i.line !== undefined ? { line: i.line } : {}),
    ...(i.column ? { column: i.column } : {}),
    message: i.message,
  };
}

function listed(issues: readonly Issue[], prefix: string): string[] {
  const lines = issues.slice(0, LISTED_ISSUES).map((i) => `${prefix}${locate(i)}: ${i.message}`);
  const rest = issues.length - LISTED_ISSUES;
  if (rest > 0) lines.push(`${prefix}… and ${rest} more`);
  return lines;
}

async function validate(argv: readonly string[]): Promise<number> {
  const { flags, args } = parseArgs(argv, [], ['json']);
  if (args.length === 0) throw new UsageError('validate needs at least one FILE');
  const reports: Record<string, unknown>[] = [];
  let refused = 0;
  for (const file of args) {
    const r = await checkCatalogueFile(file);
    const ok = r.document !== undefined;
    if (!ok) refused++;
    if (flags.has('json')) {
      reports.push({
        file,
        accepted: ok,
        ...(ok ? { rows: r.document!.rows.length } : {}),
        problems: r.issues.length,
        issues: r.issues.slice(0, LISTED_ISSUES).map(issueJson),
        notes: r.notes.slice(0, LISTED_ISSUES).map(issueJson),
        notes_total: r.notes.length,
      });
      continue;
    }
    if (ok) {
      const n = r.notes.length;
      out(`${file}: accepted (${count(r.document!.rows.length, 'row')}${n ? `, ${count(n, 'note')}` : ''})`);
      for (const line of listed(r.notes, '  note: ')) out(line);
    } else {
      const n = r.issues.length;
      out(`${file}: refused, ${count(n, 'problem')}`);
      for (const line of listed(r.issues, '  ')) out(line);
    }
  }
  if (flags.has('json')) out(JSON.stringify({ accepted: refused === 0, files: reports }, null, 2));
  return refused ? 1 : 0;
}

function dialectFrom(flags: Map<string, string | true>): CsvDialect {
  const d = flags.get('delimiter') ?? ',';
  const delimiter = ({ ',': ',', ';': ';', tab: '\t', '\t': '\t' } as Record<string, Delimiter>)[String(d)];
  if (!delimiter) throw new UsageError(`--delimiter must be , ; or tab, got ${JSON.stringify(d)}`);
  const m = String(flags.get('decimal') ?? '.');
  if (m !== '.' && m !== ',') throw new UsageError(`--decimal must be . or , got ${JSON.stringify(m)}`);
  if (delimiter === ',' && m === ',')
    throw new UsageError(
      '--delimiter , with --decimal , cannot be told apart; use --delimiter ";" or --decimal .',
    );
  return { delimiter, decimal: m as DecimalMark };
}

async function readAccepted(file: string): Promise<CatalogueDocument | number> {
  const r = await checkCatalogueFile(file);
  if (r.document) return r.document;
  err(
    `${file}: refused, ${r.issues.length === 1 ? '1 problem; fix it' : `${r.issues.length} problems; fix them`}, then run again`,
  );
  for (const line of listed(r.issues, '  ')) err(line);
  return 1;
}

/**
 * Whether OUT is standard output: `-`, or a path naming it (/dev/stdout, /dev/fd/1, a link to one) that is
 * not a CSV file's name (a CSV file and its header are two files). Written as `-` is: the document alone, no
 * "wrote" line in it, and nothing to replace (the user expects the bytes where their standard output goes).
 */
async function isStdout(output: string): Promise<boolean> {
  return output === '-' || (!isCsvPath(output) && (await namedDescriptor(output)) === 1);
}

async function convert(argv: readonly string[]): Promise<number> {
  const { flags, args } = parseArgs(argv, ['delimiter', 'decimal'], ['force']);
  if (args.length !== 2) throw new UsageError('convert needs IN and OUT');
  const [input, output] = args;
  if (input === output) throw new UsageError('convert needs OUT to differ from IN');
  const force = flags.has('force');
  const toStdout = await isStdout(output);
  const toCsv = !toStdout && isCsvPath(output);
  if (!toCsv && (flags.has('delimiter') || flags.has('decimal')))
    throw new UsageError('--delimiter and --decimal apply only when OUT is a .csv or .tsv file');
  const dialect = toCsv ? dialectFrom(flags) : undefined;
  const targets = toStdout ? [] : toCsv ? [output, csvHeaderPath(output)] : [output];
  await ensureWritable(targets, force);
  const document = await readAccepted(input);
  if (typeof document === 'number') return document;
  if (dialect) {
    const written = writeCatalogueCsv(document, dialect);
    await writeFilesAtomic(
      [
        { path: output, content: written.csv },
        { path: csvHeaderPath(output), content: written.header },
      ],
      force,
    );
    out(`wrote ${output} and ${csvHeaderPath(output)} (${count(document.rows.length, 'row')})`);
  } else if (toStdout) {
    process.stdout.write(writeCatalogue(document));
  } else {
    await writeFileAtomic(output, writeCatalogue(document), force);
    out(`wrote ${output} (${count(document.rows.length, 'row')})`);
  }
  return 0;
}

async function importCommand(argv: readonly string[]): Promise<number> {
  const { flags, args } = parseArgs(argv, [], ['force']);
  if (args.length !== 2) throw new UsageError('import needs IN and OUT');
  const [input, output] = args;
  if (input === output) throw new UsageError('import needs OUT to differ from IN');
  const force = flags.has('force');
  const toStdout = await isStdout(output);
  if (toStdout && isCsvPath(input))
    throw new UsageError('a CSV file imports into a CSV file; give OUT as .csv');
  if (!toStdout) await ensureWritable(isCsvPath(output) ? [output, csvHeaderPath(output)] : [output], force);
  const r = await importPhonometryFile(input, toStdout ? `${input}.json` : output);
  if (!r.files.length) {
    const n = r.issues.length;
    err(
      `${input}: cannot be imported, ${n === 1 ? '1 problem; fix it' : `${n} problems; fix them`}, then run again`,
    );
    for (const line of listed(r.issues, '  ')) err(line);
    return 1;
  }
  if (toStdout) {
    process.stdout.write(r.files[0].content);
    return 0;
  }
  await writeFilesAtomic(r.files, force);
  out(
    `wrote ${r.files.map((f) => f.path).join(' and ')} (${count(r.rows ?? 0, 'row')}, imported from phonometry)`,
  );
  return 0;
}

function cut(text: string, width: number): string {
  const one = text.replace(/[\r\n\t]+/g, ' ');
  return one.length > width ? `${one.slice(0, width - 1)}…` : one;
}

async function show(argv: readonly string[]): Promise<number> {
  const { args } = parseArgs(argv, [], []);
  if (args.length !== 1) throw new UsageError('show needs one FILE');
  const document = await readAccepted(args[0]);
  if (typeof document === 'number') return document;
  const info = classInfo(document.row_type);
  const rows = document.rows as readonly Record<string, any>[];
  const mentions = (row: Record<string, any>, f: string) =>
    row[f] !== undefined || ['ranges', 'unquantified'].some((h) => row[h]?.[f] !== undefined);
  const fields = info.canonical.filter((f) => rows.some((r) => mentions(r, f)));
  const texts = [...info.spec.text, ...info.spec.flags].filter((f) => rows.some((r) => r[f] !== undefined));
  const columns = ['key', 'name', ...fields, ...texts];
  const table = rows.map((row) =>
    columns.map((c) =>
      cut(fields.includes(c) ? displayCell(row, c, info) : row[c] === undefined ? '' : String(row[c]), 32),
    ),
  );
  const widths = columns.map((c, i) => Math.max(c.length, ...table.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  out(`${document.catalogue} (${document.row_type}, ${count(rows.length, 'row')})`);
  out(line(columns));
  out(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of table) out(line(r));
  return 0;
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'validate':
        return await validate(rest);
      case 'convert':
        return await convert(rest);
      case 'show':
        return await show(rest);
      case 'import':
        return await importCommand(rest);
      case '--help':
      case '-h':
      case 'help':
        out(usage());
        return 0;
      case '--version':
        out(version());
        return 0;
      case undefined:
        throw new UsageError('no command given');
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      err(`${NAME}: ${e.message}; run "${NAME} --help" for usage`);
      return 2;
    }
    if (e instanceof FileAccessError) {
      err(`${NAME}: ${e.message}`);
      return 2;
    }
    if (e instanceof CatalogueError) {
      err(`${NAME}: ${e.message.split('\n')[0]}; fix the problems below, or write JSON instead`);
      for (const line of listed(e.issues, '  ')) err(line);
      return 1;
    }
    err(`${NAME}: ${(e as Error)?.message ?? String(e)}`);
    return 1;
  }
}

// A reader that stops early (`show FILE | head -1`, `convert IN - | head`) ends the command quietly, as other
// command-line tools do, rather than with Node's stack trace for an unhandled EPIPE; any other failure to write
// is one line.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'ENOSPC')
    process.stderr.write(
      `${NAME}: cannot write to standard output, no space left on the device; free some space or send it elsewhere\n`,
    );
  else if (e.code !== 'EPIPE')
    process.stderr.write(`${NAME}: cannot write to standard output (${e.code ?? e.message})\n`);
  process.exit(e.code === 'EPIPE' ? 0 : 1);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`${NAME}: ${(e as Error)?.message ?? String(e)}\n`);
    process.exitCode = 1;
  },
);
