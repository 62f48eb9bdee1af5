/**
 * Local paths (file_path, directory_path, output_path): resolved through symbolic links and confined to
 * the working directory (unless it is a filesystem root or exactly the home directory), the OS
 * temporary directory, or a directory added by the allowed-dirs settings.
 */
// fs.promises is read when first used (node:fs/promises costs start-up time).
import { promises as fsp } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, parse, resolve, sep } from 'node:path';
import type { Config } from '../config/types.js';

export class PathRefused extends Error {
  override name = 'PathRefused';
}

async function real(p: string): Promise<string> {
  try {
    return await fsp.realpath(p);
  } catch {
    // A file that does not exist yet (a download target): resolve its directory.
    const dir = await fsp.realpath(dirname(p)).catch(() => {
      throw new PathRefused(`${p}: its directory does not exist`);
    });
    return resolve(dir, p.slice(dirname(p).length + 1));
  }
}

const within = (child: string, root: string) =>
  child === root || child.startsWith(root.endsWith(sep) ? root : root + sep);

export type PathKind = 'upload' | 'download' | 'import' | 'directory';

export async function allowedRoots(config: Config, kind: PathKind): Promise<string[]> {
  const roots: string[] = [];
  const cwd = await fsp.realpath(process.cwd()).catch(() => process.cwd());
  const home = await fsp.realpath(homedir()).catch(() => homedir());
  if (parse(cwd).root !== cwd && cwd !== home) roots.push(cwd);
  roots.push(await fsp.realpath(tmpdir()).catch(() => tmpdir()));
  const extra =
    kind === 'download'
      ? config.allowedDownloadDirs
      : kind === 'import'
        ? config.allowedImportDirs
        : config.allowedUploadDirs;
  for (const d of extra) roots.push(await fsp.realpath(d).catch(() => d));
  return roots;
}

export async function resolveLocalPath(config: Config, p: string, kind: PathKind): Promise<string> {
  if (config.transport === 'http')
    throw new PathRefused(
      `local paths are refused over HTTP (${p}); send the content as content_base64 instead`,
    );
  const abs = isAbsolute(p) ? p : resolve(process.cwd(), p);
  const target = await real(abs);
  const roots = await allowedRoots(config, kind);
  if (!roots.some((r) => within(target, r)))
    throw new PathRefused(
      `${p} resolves outside the allowed directories (the working directory, the temporary directory${kind === 'download' ? ', FORGE_MCP_ALLOWED_DOWNLOAD_DIRS' : kind === 'import' ? ', FORGE_MCP_ALLOWED_IMPORT_DIRS' : ', FORGE_MCP_ALLOWED_UPLOAD_DIRS'})`,
    );
  if (kind === 'import') {
    if (!target.endsWith('.tar.gz')) throw new PathRefused(`${p} is not a .tar.gz export archive`);
    const st = await fsp.stat(target);
    if (!st.isFile()) throw new PathRefused(`${p} is not a regular file`);
    // An archive others could have rewritten is not trusted for an import.
    if (process.platform !== 'win32' && (st.mode & 0o022) !== 0)
      throw new PathRefused(`${p} is writable by its group or by everyone; run chmod go-w on it first`);
  }
  if (kind === 'directory') {
    if (!(await fsp.stat(target)).isDirectory()) throw new PathRefused(`${p} is not a directory`);
  } else if (kind !== 'download') {
    const st = await fsp.stat(target);
    if (!st.isFile()) throw new PathRefused(`${p} is not a regular file`);
    if (st.size > config.uploadMaxFileSize)
      throw new PathRefused(
        `${p} is ${st.size} bytes, over the upload limit of ${config.uploadMaxFileSize} bytes (FORGE_MCP_UPLOAD_MAX_FILE_SIZE)`,
      );
  }
  return target;
}
