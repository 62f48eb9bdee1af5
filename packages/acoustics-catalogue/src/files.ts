/** Reading catalogue files within the limits, and writing them safely. */
import { randomBytes } from 'node:crypto';
import { createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { CSV_HEADER_SUFFIX, MAX_CSV_HEADER_BYTES, checkCatalogueCsv, type CsvCheckResult } from './csv.js';
import type { Issue } from './errors.js';
import { PHONOMETRY_CSV_HEADER_SUFFIX, importPhonometry } from './phonometry.js';
import { MAX_DOCUMENT_BYTES, checkCatalogue, checkCatalogueValue, parseJson, sizeIssue } from './reader.js';
import { stringify } from './writer.js';

/** A file that could not be read at all (missing, a directory, no permission). */
export class FileAccessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileAccessError';
  }
}

/** Whether a path names a CSV file (by its extension). */
export function isCsvPath(file: string): boolean {
  return /\.(csv|tsv)$/i.test(file);
}

/** The header file that sits beside a CSV file. */
export function csvHeaderPath(csvFile: string): string {
  return `${csvFile}${CSV_HEADER_SUFFIX}`;
}

function accessMessage(file: string, e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ENOENT':
      return `${file}: no such file; check the path`;
    case 'EISDIR':
      return `${file}: is a directory; give a file`;
    case 'EACCES':
    case 'EPERM':
      return `${file}: permission denied; check the file's permissions`;
    default:
      return `${file}: cannot be read (${e.code ?? e.message})`;
  }
}

/** Why an output file cannot be written, and what to do. */
function writeMessage(target: string, e: NodeJS.ErrnoException): string {
  const dir = path.dirname(target);
  switch (e.code) {
    case 'ENOENT':
      return `${target}: cannot be written, the folder ${dir} does not exist; create it or give another path`;
    case 'ENOTDIR':
      return `${target}: cannot be written, ${dir} is not a folder; give another path`;
    case 'EISDIR':
      return `${target}: is a directory; give a file name`;
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return `${target}: cannot be written, permission denied in ${dir}; check its permissions or give another path`;
    case 'ENXIO':
      return `${target}: cannot be written, it is a socket or a device that takes nothing; give a file path`;
    case 'ENOSPC':
      return `${target}: cannot be written, no space left on the device; free some space or give another path`;
    default:
      return `${target}: cannot be written (${e.code ?? e.message})`;
  }
}

/** Reads a file unless it is larger than the limit (checked before reading). */
async function readLimited(file: string, limit: number, what: string): Promise<Buffer | Issue> {
  let size: number;
  try {
    const st = await fs.stat(file);
    if (st.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    size = st.size;
  } catch (e) {
    throw new FileAccessError(accessMessage(file, e as NodeJS.ErrnoException));
  }
  if (size > limit) return { ...sizeIssue(size, limit, what), file };
  try {
    return await fs.readFile(file);
  } catch (e) {
    throw new FileAccessError(accessMessage(file, e as NodeJS.ErrnoException));
  }
}

/**
 * Checks a catalogue file: a JSON document, or a CSV file with its header beside it
 * (`<csv file>.acoustics.json`). Throws FileAccessError when the input file cannot be read.
 */
export async function checkCatalogueFile(file: string): Promise<CsvCheckResult> {
  if (!isCsvPath(file)) {
    const data = await readLimited(file, MAX_DOCUMENT_BYTES, 'document');
    if (!Buffer.isBuffer(data)) return { issues: [data], notes: [] };
    // Each problem and note names its file, as a CSV file's do.
    const r = checkCatalogue(data);
    const named = (list: readonly Issue[]) => list.map((i) => ({ file, ...i }));
    return { ...r, issues: named(r.issues), notes: named(r.notes) };
  }
  const csv = await readLimited(file, MAX_DOCUMENT_BYTES, 'CSV file');
  if (!Buffer.isBuffer(csv)) return { issues: [csv], notes: [] };
  const headerFile = csvHeaderPath(file);
  let header: Buffer | Issue;
  try {
    header = await readLimited(headerFile, MAX_CSV_HEADER_BYTES, 'CSV header');
  } catch {
    const phonometryHeader = `${file}${PHONOMETRY_CSV_HEADER_SUFFIX}`;
    if (await exists(phonometryHeader))
      return {
        issues: [
          {
            pointer: '',
            file: phonometryHeader,
            message: `the header beside this CSV file is a phonometry header (${path.basename(phonometryHeader)}); convert the pair without losing a value with: acoustics-catalogue import ${file} OUT.csv`,
          },
        ],
        notes: [],
      };
    return {
      issues: [
        {
          pointer: '',
          file: headerFile,
          message: `the CSV file has no header beside it; write the document without rows, with "csv": {"delimiter", "decimal"}, to ${path.basename(headerFile)}`,
        },
      ],
      notes: [],
    };
  }
  if (!Buffer.isBuffer(header)) return { issues: [header], notes: [] };
  return checkCatalogueCsv(header, csv, { csv: file, header: headerFile });
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch {
    return false;
  }
}

/** What importing a phonometry file gives: the files to write, or why it cannot be imported. */
export interface PhonometryFileImport {
  /** The files to write (a JSON document, or a CSV file and its header), when importable. */
  readonly files: readonly { readonly path: string; readonly content: string | Uint8Array }[];
  readonly rows?: number;
  readonly issues: readonly Issue[];
}

/**
 * Converts a phonometry v1 file into ours: a JSON document into a JSON document at `output`,
 * or a CSV file (with its `.phonometry.json` header) into `output` (the same bytes) and
 * `output.acoustics.json`. The converted document must pass the reader; nothing is written here.
 */
export async function importPhonometryFile(input: string, output: string): Promise<PhonometryFileImport> {
  const refused = (issues: readonly Issue[], file: string): PhonometryFileImport => ({
    files: [],
    issues: issues.map((i) => ({ file, ...i })),
  });
  if (!isCsvPath(input)) {
    if (isCsvPath(output))
      return refused(
        [{ pointer: '', message: 'a JSON document imports into a JSON document; give OUT as .json' }],
        output,
      );
    const data = await readLimited(input, MAX_DOCUMENT_BYTES, 'document');
    if (!Buffer.isBuffer(data)) return refused([data], input);
    const parsed = parseJson(data);
    if (parsed.issues.length) return refused(parsed.issues, input);
    const converted = importPhonometry(parsed.value);
    if (!converted.value) return refused(converted.issues, input);
    const checked = checkCatalogueValue(converted.value);
    if (!checked.document) return refused(checked.issues, input);
    return {
      files: [{ path: output, content: `${stringify(converted.value, '')}\n` }],
      rows: checked.document.rows.length,
      issues: [],
    };
  }
  if (!isCsvPath(output))
    return refused(
      [{ pointer: '', message: 'a CSV file imports into a CSV file; give OUT as .csv or .tsv' }],
      output,
    );
  const headerFile = `${input}${PHONOMETRY_CSV_HEADER_SUFFIX}`;
  const csv = await readLimited(input, MAX_DOCUMENT_BYTES, 'CSV file');
  if (!Buffer.isBuffer(csv)) return refused([csv], input);
  const header = await readLimited(headerFile, MAX_CSV_HEADER_BYTES, 'CSV header');
  if (!Buffer.isBuffer(header)) return refused([header], headerFile);
  const parsed = parseJson(header, MAX_CSV_HEADER_BYTES, 'CSV header');
  if (parsed.issues.length) return refused(parsed.issues, headerFile);
  const converted = importPhonometry(parsed.value);
  if (!converted.value) return refused(converted.issues, headerFile);
  const headerText = `${stringify(converted.value, '')}\n`;
  const checked = checkCatalogueCsv(headerText, csv, { csv: input, header: headerFile });
  if (!checked.document) return { files: [], issues: checked.issues };
  return {
    files: [
      { path: output, content: csv },
      { path: csvHeaderPath(output), content: headerText },
    ],
    rows: checked.document.rows.length,
    issues: [],
  };
}

/** Refuses (FileAccessError) when any target exists and overwriting was not asked for. */
export async function ensureWritable(targets: readonly string[], force: boolean): Promise<void> {
  for (const t of targets) await refuseStandardInput(t);
  if (force) return;
  for (const t of targets) {
    try {
      await fs.lstat(t);
    } catch {
      continue;
    }
    throw new FileAccessError(`${t}: already exists; pass --force to overwrite it`);
  }
}

/** A file to write: where, and what. */
export interface FileToWrite {
  readonly path: string;
  readonly content: string | Uint8Array;
}

/** A name beside `target` for a temporary file of this process. */
function besideName(target: string, kind: 'tmp' | 'bak'): string {
  const dir = path.dirname(target);
  return path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.${kind}`);
}

/**
 * A path naming one of this process's descriptors: /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N,
 * /proc/self/fd/N.
 */
const DESCRIPTOR_PATH =
  /^\/(?:dev\/(?:(stdin|stdout|stderr)|fd\/(\d+))|proc\/(?:self|thread-self|(\d+))\/fd\/(\d+))$/;
const STANDARD_DESCRIPTORS = ['stdin', 'stdout', 'stderr'];

/**
 * Standard input (/dev/stdin, /dev/fd/0, a link to one) is never written: written through, it would land in the
 * file or terminal the input comes from (or fail, opened only to read).
 */
async function refuseStandardInput(target: string): Promise<void> {
  if ((await namedDescriptor(target)) === 0)
    throw new FileAccessError(
      `${target}: is standard input, which is only read from, never written; name a file to write to instead`,
    );
}

/**
 * The descriptor of this process that an output path names (/dev/stdout, /dev/fd/1, /proc/self/fd/1, or a
 * link to one of them), when it names one. Such a path is the descriptor's file only as the process holds it
 * open (at its offset, appending when opened to append): what is written to it goes through the descriptor.
 */
export async function namedDescriptor(target: string): Promise<number | undefined> {
  let at = path.resolve(target);
  for (let hops = 0; hops < 40; hops++) {
    const m = DESCRIPTOR_PATH.exec(at);
    if (m && (m[3] === undefined || Number(m[3]) === process.pid))
      return m[1] ? STANDARD_DESCRIPTORS.indexOf(m[1]) : Number(m[2] ?? m[4]);
    let link: string;
    try {
      link = await fs.readlink(at);
    } catch {
      return undefined;
    }
    at = path.resolve(path.dirname(at), link);
  }
  return undefined;
}

/**
 * Writes into one of the process's descriptors through the descriptor itself (standard output and error through
 * their streams), at its offset or appending as it was opened.
 */
function writeToDescriptor(fd: number, content: string | Uint8Array): Promise<void> {
  // A stream of its own is listened to for its error (reported once, by the write's callback).
  const stream =
    fd === 1
      ? process.stdout
      : fd === 2
        ? process.stderr
        : createWriteStream('', { fd, autoClose: false }).on('error', () => {});
  return new Promise((resolve, reject) => stream.write(content, (e) => (e ? reject(e) : resolve())));
}

/**
 * Where an output path is written: `special` when it names something other than a regular file or a folder
 * (a device, a pipe, a socket, one of the process's descriptors, or a link to one), which is written into
 * directly; otherwise the path a temporary file is renamed over (through links, the file they name, so a link
 * is kept as it is).
 */
async function outputPlace(target: string): Promise<{ readonly special: boolean; readonly place: string }> {
  if ((await namedDescriptor(target)) !== undefined) return { special: true, place: target };
  let st;
  try {
    st = await fs.stat(target);
  } catch {
    return { special: false, place: target };
  }
  if (!st.isFile()) return { special: !st.isDirectory(), place: target };
  if (!(await fs.lstat(target)).isSymbolicLink()) return { special: false, place: target };
  try {
    return { special: false, place: await fs.realpath(target) };
  } catch {
    return { special: true, place: target };
  }
}

/**
 * Writes files all or none: each through a temporary file in its folder and a rename, so a reader never sees
 * half a file; when one cannot be put in place, those already placed are taken back (a replaced file is
 * restored), so a CSV file is never left without its header. Without `force`, an existing file is never
 * replaced. A device, pipe or socket (`/dev/null`, a FIFO) is never replaced: one file is written into it
 * directly; a CSV file and its header, which must be written both or neither, are refused there.
 */
export async function writeFilesAtomic(files: readonly FileToWrite[], force: boolean): Promise<void> {
  const places = await Promise.all(files.map((f) => outputPlace(f.path)));
  const special = places.findIndex((p) => p.special);
  if (special >= 0) {
    const target = files[special].path;
    await refuseStandardInput(target);
    if (!force) throw new FileAccessError(`${target}: already exists; pass --force to overwrite it`);
    if (files.length > 1)
      throw new FileAccessError(
        `${target}: is not a regular file (a device, pipe or socket); a CSV file and its header are written only as two regular files, give a file path`,
      );
    try {
      // A descriptor (standard output, /dev/fd/3) is written through itself: opened again by name, a file it was
      // redirected to would be written from its start, over what is there (an appending redirection too).
      const fd = await namedDescriptor(target);
      if (fd !== undefined) await writeToDescriptor(fd, files[0].content);
      else await fs.writeFile(target, files[0].content);
    } catch (e) {
      throw new FileAccessError(writeMessage(target, e as NodeJS.ErrnoException));
    }
    return;
  }
  const temps: string[] = [];
  try {
    for (const [i, f] of files.entries()) {
      const tmp = besideName(places[i].place, 'tmp');
      try {
        await fs.writeFile(tmp, f.content, { flag: 'wx' });
      } catch (e) {
        // What was written of it before the failure (a full disk) is taken away too.
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') await fs.rm(tmp, { force: true });
        throw new FileAccessError(writeMessage(f.path, e as NodeJS.ErrnoException));
      }
      temps.push(tmp);
    }
    const placed: { place: string; backup?: string }[] = [];
    try {
      for (const [i, { path: target }] of files.entries()) {
        const place = places[i].place;
        try {
          if (force) {
            // A hard link keeps the file being replaced, to restore it if a later file fails.
            let backup: string | undefined = besideName(place, 'bak');
            await fs.link(place, backup).catch(() => (backup = undefined));
            await fs.rename(temps[i], place).catch(async (e: unknown) => {
              if (backup) await fs.rm(backup, { force: true });
              throw e;
            });
            placed.push({ place, backup });
          } else {
            // link() fails when the target exists: no overwrite even if it appeared meanwhile.
            await fs.link(temps[i], place);
            placed.push({ place });
          }
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          throw new FileAccessError(
            code === 'EEXIST'
              ? `${target}: already exists; pass --force to overwrite it`
              : writeMessage(target, e as NodeJS.ErrnoException),
          );
        }
      }
    } catch (e) {
      for (const p of placed.reverse()) {
        if (p.backup) await fs.rename(p.backup, p.place).catch(() => {});
        else await fs.rm(p.place, { force: true });
      }
      throw e;
    }
    for (const p of placed) if (p.backup) await fs.rm(p.backup, { force: true });
  } finally {
    for (const t of temps) await fs.rm(t, { force: true });
  }
}

/**
 * Writes a file through a temporary file in the same folder and a rename, so a reader never
 * sees half a file. Without `force`, an existing file is never replaced.
 */
export async function writeFileAtomic(
  target: string,
  content: string | Uint8Array,
  force: boolean,
): Promise<void> {
  await writeFilesAtomic([{ path: target, content }], force);
}
