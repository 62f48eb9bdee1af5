/** Downloads on stdio: written under a temporary name in the target directory, renamed when complete. */
import { randomBytes } from 'node:crypto';
import { rename, writeFile, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Config } from '../config/types.js';
import { resolveLocalPath } from '../policy/paths.js';

export async function saveDownload(config: Config, outputPath: string, bytes: Buffer): Promise<string> {
  const target = await resolveLocalPath(config, outputPath, 'download');
  const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.part`);
  try {
    await writeFile(tmp, bytes, { flag: 'wx' });
    await rename(tmp, target);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  return target;
}
