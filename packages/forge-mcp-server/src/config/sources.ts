// Where variables come from: the real environment, then the extra dotenv file, then the home
// dotenv file. An empty value counts as unset at every layer, so it falls through to the next.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'dotenv';

export const HOME_ENV_FILE = '.forge-mcp-server.env';

export interface VariableValue {
  raw: string;
  /** undefined for the real environment, else the dotenv file it came from. */
  file?: string;
}

export interface Layer {
  file?: string;
  values: Record<string, string | undefined>;
}

export class Variables {
  constructor(private readonly layers: Layer[]) {}

  get(name: string): VariableValue | undefined {
    for (const layer of this.layers) {
      const raw = layer.values[name];
      if (raw !== undefined && raw.trim() !== '') return { raw, file: layer.file };
    }
    return undefined;
  }

  /** Every name set (not empty) in some layer that starts with `prefix`, once, with the first layer setting it. */
  named(prefix: string): Array<{ name: string; file?: string }> {
    const seen = new Map<string, string | undefined>();
    for (const layer of this.layers)
      for (const [name, raw] of Object.entries(layer.values))
        if (name.startsWith(prefix) && raw !== undefined && raw.trim() !== '' && !seen.has(name))
          seen.set(name, layer.file);
    return [...seen].map(([name, file]) => ({ name, file }));
  }
}

export type ReadResult = { ok: true; values: Record<string, string> } | { ok: false; reason: string };

export function readDotenv(file: string): ReadResult {
  try {
    return { ok: true, values: parse(readFileSync(file)) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { ok: false, reason: `cannot read the file (${code})` };
  }
}

export function homeEnvFile(home: string): string {
  return path.join(home, HOME_ENV_FILE);
}

/** The working directory's .env, which is deliberately not read: named so nobody wonders why. */
export function unreadDotenvWarning(cwd: string): string | undefined {
  const file = path.join(cwd, '.env');
  if (!existsSync(file)) return undefined;
  return `${file} is not read: put settings in ~/${HOME_ENV_FILE} or name a file with FORGE_MCP_ENV_FILE (--env-file)`;
}
