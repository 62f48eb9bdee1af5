/** Downloads on stdio: written under a temporary name in the target directory, renamed when complete. */
import { randomBytes } from 'node:crypto';
// fs.promises is read when first used (node:fs/promises costs start-up time).
import { promises as fsp } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Config } from '../config/types.js';
import { resolveLocalPath } from '../policy/paths.js';

export async function saveDownload(config: Config, outputPath: string, bytes: Buffer): Promise<string> {
  const target = await resolveLocalPath(config, outputPath, 'download');
  const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.part`);
  try {
    await fsp.writeFile(tmp, bytes, { flag: 'wx' });
    await fsp.rename(tmp, target);
  } catch (err) {
    await fsp.unlink(tmp).catch(() => undefined);
    throw err;
  }
  return target;
}
