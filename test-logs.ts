/**
 * The tests' side of the suite-wide secret grep (vitest.global-setup.ts). The global setup names a folder in
 * FORGE_TEST_LOG_DIR; every process a test spawns, of any product, keeps its output there (`keepLog`), and every
 * secret a test hands a product is written to one registry file there (`testSecret`, `secretsHandedOut`). At the
 * end of the suite each kept log is searched for every registered value.
 */
import { appendFileSync, copyFileSync, createWriteStream, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The registry, one JSON string a line, in FORGE_TEST_LOG_DIR (not a `.log`: the grep does not search it). */
export const SECRETS_FILE = 'secrets.registry';

/** Shorter values are too likely to turn up innocently in a log; a test secret must be at least this long. */
export const SHORTEST_SECRET = 8;

let kept = 0;

/** Copies `stream` (a spawned process's stderr or stdout) to a new log under FORGE_TEST_LOG_DIR. */
export function keepLog(stream: NodeJS.ReadableStream | null | undefined, product: string): void {
  const dir = process.env.FORGE_TEST_LOG_DIR;
  if (dir && stream) stream.pipe(createWriteStream(join(dir, `${product}-${process.pid}-${++kept}.log`)));
}

/**
 * A new log under FORGE_TEST_LOG_DIR for what a test receives from a product (exports, bodies), written by the
 * test itself; undefined when the suite keeps no logs.
 */
export function logFile(product: string): string | undefined {
  const dir = process.env.FORGE_TEST_LOG_DIR;
  return dir ? join(dir, `${product}-${process.pid}-${++kept}.log`) : undefined;
}

/**
 * Copies the files in `dir` whose names match `names` (a product's output files: stores, exports) to logs under
 * FORGE_TEST_LOG_DIR, before a test removes them.
 */
export function keepFiles(dir: string, names: RegExp, product: string): void {
  const logs = process.env.FORGE_TEST_LOG_DIR;
  if (!logs) return;
  for (const f of readdirSync(dir, { withFileTypes: true }))
    if (f.isFile() && names.test(f.name))
      copyFileSync(join(dir, f.name), join(logs, `${product}-${process.pid}-${++kept}.log`));
}

const registered = new Set<string>();

function register(value: string): void {
  const dir = process.env.FORGE_TEST_LOG_DIR;
  if (!dir || value.length < SHORTEST_SECRET || registered.has(value)) return;
  registered.add(value);
  appendFileSync(join(dir, SECRETS_FILE), `${JSON.stringify(value)}\n`);
}

/** Registers `value` as a secret no log may hold, and gives it back: `const PASSWORD = testSecret('pw-…')`. */
export function testSecret<T extends string>(value: T): T {
  if (value.length < SHORTEST_SECRET)
    throw new Error(`test secret ${JSON.stringify(value)} is shorter than ${SHORTEST_SECRET} characters`);
  register(value);
  return value;
}

/** A setting or flag whose whole value is a secret. */
const SECRET_NAME = /(?:^|[_-])(?:token|secret|password|passwd|key|cookie)$/i;
/** A setting holding `name=value` header pairs (OTEL_EXPORTER_OTLP_HEADERS and its per-signal forms). */
const HEADERS_NAME = /_HEADERS$/;
/** A query parameter carrying a credential. */
const SECRET_PARAM = /token|secret|password|key|signature|sig$|auth/i;
/** Token formats a test may paste anywhere (GitLab's and GitHub's prefixes). */
const TOKEN_FORMAT = /^(?:gl[a-z]{2,5}-|gh[pousr]_|github_pat_)/;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The credentials a URL carries: its password (or a token as its user name), secret query parameters. */
function urlSecrets(text: string): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return;
  }
  const user = decoded(url.username);
  if (url.password) register(decoded(url.password));
  // A user name standing alone is a token when it looks like one (`https://<token>@host`), not an account name.
  else if (TOKEN_FORMAT.test(user) || user.length >= 16) register(user);
  for (const [name, value] of url.searchParams) if (SECRET_PARAM.test(name)) register(value);
}

function valueSecrets(name: string, value: string): void {
  // A key file's path (--tls-key) is not the key.
  if (SECRET_NAME.test(name) && !value.startsWith('/')) register(value);
  if (HEADERS_NAME.test(name))
    for (const pair of value.split(',')) {
      const v = pair.slice(pair.indexOf('=') + 1).trim();
      if (pair.includes('=')) register(decoded(v).replace(/^(?:Bearer|Basic|token)\s+/i, ''));
    }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) urlSecrets(value);
  if (TOKEN_FORMAT.test(value)) register(value);
}

/**
 * Registers every secret in a spawned process's environment and arguments: values of settings named *_TOKEN,
 * *_KEY, *_SECRET, *_PASSWORD (and --*-token, --*-secret… flags), header values in *_HEADERS, the password (or
 * a token as user name) and credential parameters of any URL (Redis, PostgreSQL, proxies, instances), and any value
 * in a known token format.
 */
export function secretsHandedOut(env: Record<string, string | undefined>, args: string[] = []): void {
  for (const [name, value] of Object.entries(env)) if (value) valueSecrets(name, value);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) valueSecrets(arg.slice(2, eq), arg.slice(eq + 1));
    else if (arg.startsWith('--') && i + 1 < args.length && !args[i + 1]!.startsWith('--'))
      valueSecrets(arg.slice(2), args[i + 1]!);
    else valueSecrets('', arg);
  }
}

/** Registers the credential in request headers a test sends (Authorization, PRIVATE-TOKEN, JOB-TOKEN, Cookie). */
export function secretsInHeaders(headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    const n = name.toLowerCase();
    if (n === 'authorization') register(value.replace(/^\S+\s+/, ''));
    else if (n === 'private-token' || n === 'job-token' || n === 'cookie') register(value);
  }
}
