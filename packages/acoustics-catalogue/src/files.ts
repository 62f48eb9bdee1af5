/** Reading catalogue files within the limits, and writing them safely. */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { CSV_HEADER_SUFFIX, MAX_CSV_HEADER_BYTES, checkCatalogueCsv, type CsvCheckResult } from './csv.js';
import type { Issue } from './errors.js';
import { MAX_DOCUMENT_BYTES, checkCatalogue, sizeIssue } from './reader.js';

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
    return checkCatalogue(data);
  }
  const csv = await readLimited(file, MAX_DOCUMENT_BYTES, 'CSV file');
  if (!Buffer.isBuffer(csv)) return { issues: [csv], notes: [] };
  const headerFile = csvHeaderPath(file);
  let header: Buffer | Issue;
  try {
    header = await readLimited(headerFile, MAX_CSV_HEADER_BYTES, 'CSV header');
  } catch {
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

/** Refuses (FileAccessError) when any target exists and overwriting was not asked for. */
export async function ensureWritable(targets: readonly string[], force: boolean): Promise<void> {
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

/**
 * Writes a file through a temporary file in the same folder and a rename, so a reader never
 * sees half a file. Without `force`, an existing file is never replaced.
 */
export async function writeFileAtomic(target: string, content: string, force: boolean): Promise<void> {
  const dir = path.dirname(target);
  const tmp = path.join(
    dir,
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    await fs.writeFile(tmp, content, { flag: 'wx' });
  } catch (e) {
    throw new FileAccessError(`${target}: cannot be written (${(e as NodeJS.ErrnoException).code ?? e})`);
  }
  try {
    if (force) await fs.rename(tmp, target);
    else {
      // link() fails when the target exists: no overwrite even if it appeared meanwhile.
      await fs.link(tmp, target);
      await fs.unlink(tmp);
    }
  } catch (e) {
    await fs.rm(tmp, { force: true });
    const code = (e as NodeJS.ErrnoException).code;
    throw new FileAccessError(
      code === 'EEXIST'
        ? `${target}: already exists; pass --force to overwrite it`
        : `${target}: cannot be written (${code ?? e})`,
    );
  }
}
