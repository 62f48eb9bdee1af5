import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigError, UserError } from './errors.js';

export const PACKAGE_TYPES = ['npm', 'maven', 'rubygems', 'docker', 'nuget', 'container'] as const;
export type PackageType = (typeof PACKAGE_TYPES)[number];

export interface PostgresTarget {
  url: string;
  /** Schema holding the tables; created if missing. Default `public`. */
  schema: string;
}

/** Which of an organisation's repositories a sweep takes. */
export interface OrgFilter {
  forks: boolean;
  archived: boolean;
  disabled: boolean;
  /** Name patterns (`*` and `?`, case-insensitive); empty takes every name. */
  include: string[];
  exclude: string[];
}

export const DEFAULT_ORG_FILTER: OrgFilter = {
  forks: true,
  archived: true,
  disabled: false,
  include: [],
  exclude: [],
};

export type TokenType = 'personal' | 'installation';

export interface CollectorConfig {
  apiUrl: string;
  /** The first of tokenEnvs. */
  tokenEnv: string;
  /** Environment variables holding the tokens; several are used in turn by their remaining rate limit. */
  tokenEnvs: string[];
  /** installation: GitHub App installation tokens (no GET /user, no billing; targets.installation available). */
  tokenType: TokenType;
  targets: {
    repos: string[];
    orgs: string[];
    orgFilters: Record<string, OrgFilter>;
    /** Every repository the installation can reach (GET /installation/repositories). */
    installation: boolean;
  };
  stores: {
    sqlite?: string;
    postgres?: PostgresTarget;
    prometheus?: { port: number; host: string };
  };
  /** Interval between sweeps in `serve`, in seconds. */
  scheduleSeconds: number;
  concurrency: number;
  rateLimit: { maxWaitSeconds: number };
  packageTypes: PackageType[];
  commitsPerRepository: number;
  billing: boolean;
  /**
   * The SQLite file holding the collector's own state (ETags with their bodies, the 410 memory, commit cursors),
   * whatever stores are configured. Default: stores.sqlite when set, else `activity-collector-state.db`.
   */
  stateFile: string;
}

const TOP_KEYS = [
  'api_url',
  'token_env',
  'token_type',
  'targets',
  'stores',
  'schedule',
  'concurrency',
  'rate_limit',
  'packages',
  'commits',
  'billing',
  'state',
];

const REPO_RE = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/;
const ORG_RE = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const ENV_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PATTERN_RE = /^[A-Za-z0-9._*?-]{1,100}$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkKeys(obj: Record<string, unknown>, prefix: string, allowed: string[]): void {
  for (const k of Object.keys(obj)) {
    if (k === 'token' || k === 'github_token') {
      throw new ConfigError(
        prefix + k,
        `no token in the file; put it in the environment variable named by token_env`,
        'a token is never read from the configuration file',
      );
    }
    if (!allowed.includes(k)) {
      throw new ConfigError(prefix + k, `one of ${allowed.join(', ')}`, 'unknown key');
    }
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? v.slice(0, 57) + '...' : v);
  return typeof v === 'object' ? 'a mapping' : String(v);
}

function stringList(
  v: unknown,
  key: string,
  re: RegExp,
  accepted: string,
  hint: (item: string) => string | undefined = () => undefined,
): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new ConfigError(key, `a list of ${accepted}`, `got ${describe(v)}`);
  const out: string[] = [];
  v.forEach((item, i) => {
    if (typeof item !== 'string' || !re.test(item)) {
      const better = typeof item === 'string' ? hint(item) : undefined;
      throw new ConfigError(
        `${key}[${i}]`,
        accepted,
        `got ${describe(item)}${better ? `; write ${better}` : ''}`,
      );
    }
    if (!out.includes(item)) out.push(item);
  });
  return out;
}

/** A repository's web or clone address (https://host/owner/name, git@host:owner/name.git) as owner/name. */
function repoFromAddress(item: string): string | undefined {
  const m = /^(?:[a-z+]+:\/\/[^/]+\/|git@[^:]+:|\/)([^/\s]+)\/([^/\s]+?)(?:\.git)?\/?$/i.exec(item.trim());
  const repo = m && `${m[1]}/${m[2]}`;
  return repo && REPO_RE.test(repo) ? JSON.stringify(repo) : undefined;
}

function intIn(v: unknown, key: string, min: number, max: number, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new ConfigError(key, `an integer from ${min} to ${max}`, `got ${describe(v)}`);
  }
  return v;
}

/**
 * A token by its issued prefix (the platform's personal, OAuth, user, server, refresh and fine-grained tokens, and
 * another forge's), or a classic personal token of 40 hexadecimal digits, which has none.
 */
const TOKEN_SHAPE = /^(?:(?:gh[pousr]_|github_pat_|glpat-)[A-Za-z0-9_-]{16,}|[0-9a-fA-F]{40}$)/;

const DURATION_RE = /^(\d+)\s*(s|m|h|d)$/;
const UNIT: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** Parses `schedule`: a duration such as `30s`, `15m`, `6h`, `1d`, or `{ every: <duration> }`. */
function parseSchedule(v: unknown): number {
  const accepted = 'a duration like "30s", "15m", "6h" or "1d" (or { every: <duration> }), at least 10s';
  if (v === undefined) return 6 * 3600;
  let d: unknown = v;
  if (isObject(v)) {
    checkKeys(v, 'schedule.', ['every']);
    d = v.every;
  }
  const m = typeof d === 'string' ? DURATION_RE.exec(d.trim()) : null;
  if (!m) throw new ConfigError('schedule', accepted, `got ${describe(d)}`);
  const seconds = Number(m[1]) * UNIT[m[2]];
  if (seconds < 10) throw new ConfigError('schedule', accepted, `got ${describe(d)}`);
  return seconds;
}

function parseUrl(v: unknown, key: string, protocols: string[], accepted: string): string {
  if (typeof v !== 'string') throw new ConfigError(key, accepted, `got ${describe(v)}`);
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ConfigError(key, accepted, 'not a URL');
  }
  if (!protocols.includes(u.protocol)) throw new ConfigError(key, accepted, `got scheme ${u.protocol}`);
  return v;
}

/** Validates a parsed configuration document. Throws ConfigError naming the key and what is accepted. */
export function validateConfig(doc: unknown): CollectorConfig {
  if (!isObject(doc))
    throw new ConfigError('(top level)', 'a mapping with targets and stores', `got ${describe(doc)}`);
  checkKeys(doc, '', TOP_KEYS);

  const apiUrl =
    doc.api_url === undefined
      ? 'https://api.github.com'
      : parseUrl(doc.api_url, 'api_url', ['http:', 'https:'], 'an http(s) URL of the API base').replace(
          /\/+$/,
          '',
        );

  const envAccepted = 'the name of an environment variable, like GITHUB_TOKEN, or a list of them';
  const rawEnv = doc.token_env ?? 'GITHUB_TOKEN';
  const tokenEnvs = Array.isArray(rawEnv) ? rawEnv : [rawEnv];
  if (tokenEnvs.length === 0) throw new ConfigError('token_env', envAccepted, 'got an empty list');
  tokenEnvs.forEach((e, i) => {
    const key = Array.isArray(rawEnv) ? `token_env[${i}]` : 'token_env';
    // A token written where its variable's name belongs: refused without repeating it.
    if (typeof e === 'string' && TOKEN_SHAPE.test(e.trim()))
      throw new ConfigError(
        key,
        envAccepted,
        'got a token, not a variable name (it is not repeated here); remove it from the file, export it in an environment variable such as GITHUB_TOKEN, and give that name',
      );
    if (typeof e !== 'string' || !ENV_RE.test(e))
      throw new ConfigError(key, envAccepted, `got ${describe(e)}`);
  });
  const tokenType = doc.token_type ?? 'personal';
  if (tokenType !== 'personal' && tokenType !== 'installation')
    throw new ConfigError('token_type', 'personal or installation', `got ${describe(tokenType)}`);

  if (!isObject(doc.targets)) {
    throw new ConfigError(
      'targets',
      'a mapping with repos (owner/name list), orgs and/or installation',
      `got ${describe(doc.targets)}`,
    );
  }
  checkKeys(doc.targets, 'targets.', ['repos', 'orgs', 'installation']);
  const repos = stringList(doc.targets.repos, 'targets.repos', REPO_RE, '"owner/name"', repoFromAddress);
  const orgAccepted =
    'an organisation login, or { name, forks, archived, disabled, include, exclude } (patterns with * and ?)';
  const orgs: string[] = [];
  const orgFilters: Record<string, OrgFilter> = {};
  const rawOrgs = doc.targets.orgs ?? [];
  if (!Array.isArray(rawOrgs))
    throw new ConfigError('targets.orgs', `a list of ${orgAccepted}`, `got ${describe(rawOrgs)}`);
  rawOrgs.forEach((item, i) => {
    const key = `targets.orgs[${i}]`;
    const name = isObject(item) ? item.name : item;
    if (typeof name !== 'string' || !ORG_RE.test(name))
      throw new ConfigError(isObject(item) ? `${key}.name` : key, orgAccepted, `got ${describe(name)}`);
    const f: OrgFilter = { ...DEFAULT_ORG_FILTER };
    if (isObject(item)) {
      checkKeys(item, `${key}.`, ['name', 'forks', 'archived', 'disabled', 'include', 'exclude']);
      for (const b of ['forks', 'archived', 'disabled'] as const) {
        if (item[b] === undefined) continue;
        if (typeof item[b] !== 'boolean')
          throw new ConfigError(
            `${key}.${b}`,
            'true (take them) or false (skip them)',
            `got ${describe(item[b])}`,
          );
        f[b] = item[b];
      }
      f.include = stringList(item.include, `${key}.include`, PATTERN_RE, 'a name pattern like "api-*"');
      f.exclude = stringList(item.exclude, `${key}.exclude`, PATTERN_RE, 'a name pattern like "*-archive"');
    }
    if (!orgs.includes(name)) orgs.push(name);
    orgFilters[name] = f;
  });
  const installation = doc.targets.installation ?? false;
  if (typeof installation !== 'boolean')
    throw new ConfigError('targets.installation', 'true or false', `got ${describe(installation)}`);
  if (installation && tokenType !== 'installation')
    throw new ConfigError(
      'targets.installation',
      'true only with token_type: installation',
      'a personal token has no installation',
    );
  if (repos.length === 0 && orgs.length === 0 && !installation) {
    throw new ConfigError(
      'targets',
      'at least one entry in targets.repos or targets.orgs, or targets.installation: true',
      'nothing to collect',
    );
  }

  if (!isObject(doc.stores)) {
    throw new ConfigError(
      'stores',
      'a mapping with sqlite, postgres and/or prometheus',
      `got ${describe(doc.stores)}`,
    );
  }
  checkKeys(doc.stores, 'stores.', ['sqlite', 'postgres', 'prometheus']);
  const stores: CollectorConfig['stores'] = {};
  if (doc.stores.sqlite !== undefined) {
    if (typeof doc.stores.sqlite !== 'string' || doc.stores.sqlite.trim() === '') {
      throw new ConfigError(
        'stores.sqlite',
        'a file path (or ":memory:")',
        `got ${describe(doc.stores.sqlite)}`,
      );
    }
    stores.sqlite = doc.stores.sqlite;
  }
  if (doc.stores.postgres !== undefined) {
    const pgAccepted = 'a postgres:// connection URL, or { url, schema }';
    const p = doc.stores.postgres;
    let url: unknown = p;
    let schema: unknown = 'public';
    if (isObject(p)) {
      checkKeys(p, 'stores.postgres.', ['url', 'schema']);
      url = p.url;
      schema = p.schema ?? 'public';
    }
    const key = isObject(p) ? 'stores.postgres.url' : 'stores.postgres';
    parseUrl(url, key, ['postgres:', 'postgresql:'], pgAccepted);
    if (typeof schema !== 'string' || !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
      throw new ConfigError(
        'stores.postgres.schema',
        'a lower-case SQL identifier',
        `got ${describe(schema)}`,
      );
    }
    stores.postgres = { url: url as string, schema };
  }
  if (doc.stores.prometheus !== undefined) {
    const p = doc.stores.prometheus;
    if (!isObject(p))
      throw new ConfigError('stores.prometheus', '{ port: <1-65535>, host? }', `got ${describe(p)}`);
    checkKeys(p, 'stores.prometheus.', ['port', 'host']);
    const port = intIn(p.port, 'stores.prometheus.port', 0, 65535, 9464);
    const host = p.host ?? '127.0.0.1';
    if (typeof host !== 'string')
      throw new ConfigError('stores.prometheus.host', 'a host name or address', `got ${describe(host)}`);
    stores.prometheus = { port, host };
  }
  if (!stores.sqlite && !stores.postgres && !stores.prometheus) {
    throw new ConfigError('stores', 'at least one of sqlite, postgres, prometheus', 'no store configured');
  }

  let maxWaitSeconds = 3600;
  if (doc.rate_limit !== undefined) {
    if (!isObject(doc.rate_limit))
      throw new ConfigError('rate_limit', '{ max_wait_seconds }', `got ${describe(doc.rate_limit)}`);
    checkKeys(doc.rate_limit, 'rate_limit.', ['max_wait_seconds']);
    maxWaitSeconds = intIn(doc.rate_limit.max_wait_seconds, 'rate_limit.max_wait_seconds', 0, 86400, 3600);
  }

  let packageTypes: PackageType[] = [...PACKAGE_TYPES];
  if (doc.packages !== undefined) {
    if (!isObject(doc.packages))
      throw new ConfigError('packages', '{ types: [...] }', `got ${describe(doc.packages)}`);
    checkKeys(doc.packages, 'packages.', ['types']);
    const t = doc.packages.types;
    if (!Array.isArray(t))
      throw new ConfigError('packages.types', `a list of ${PACKAGE_TYPES.join(', ')}`, `got ${describe(t)}`);
    t.forEach((x, i) => {
      if (!PACKAGE_TYPES.includes(x))
        throw new ConfigError(`packages.types[${i}]`, PACKAGE_TYPES.join(', '), `got ${describe(x)}`);
    });
    packageTypes = [...new Set(t as PackageType[])];
  }

  let commitsPerRepository = 500;
  if (doc.commits !== undefined) {
    if (!isObject(doc.commits))
      throw new ConfigError('commits', '{ max_per_repository }', `got ${describe(doc.commits)}`);
    checkKeys(doc.commits, 'commits.', ['max_per_repository']);
    commitsPerRepository = intIn(
      doc.commits.max_per_repository,
      'commits.max_per_repository',
      0,
      100000,
      500,
    );
  }

  const billing = doc.billing ?? true;
  if (typeof billing !== 'boolean')
    throw new ConfigError('billing', 'true or false', `got ${describe(billing)}`);

  let stateFile = stores.sqlite ?? 'activity-collector-state.db';
  if (doc.state !== undefined) {
    if (typeof doc.state !== 'string' || doc.state.trim() === '')
      throw new ConfigError(
        'state',
        'a file path for the collector state (SQLite)',
        `got ${describe(doc.state)}`,
      );
    stateFile = doc.state;
  }

  return {
    apiUrl,
    stateFile,
    tokenEnv: tokenEnvs[0] as string,
    tokenEnvs: tokenEnvs as string[],
    tokenType,
    targets: { repos, orgs, orgFilters, installation },
    stores,
    scheduleSeconds: parseSchedule(doc.schedule),
    concurrency: intIn(doc.concurrency, 'concurrency', 1, 32, 4),
    rateLimit: { maxWaitSeconds },
    packageTypes,
    commitsPerRepository,
    billing,
  };
}

/** Reads and validates a YAML or JSON configuration file. */
export async function loadConfig(file: string): Promise<CollectorConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(
      `cannot read configuration file ${file} (${code ?? 'error'}); pass an existing YAML or JSON file with --config`,
    );
  }
  const json = extname(file).toLowerCase() === '.json';
  // Nothing but blank lines (and, in YAML, comments): the parsers would answer null or "end of input".
  if (text.split('\n').every((line) => (json ? /^\s*$/ : /^\s*(#.*)?$/).test(line)))
    throw new UserError(
      `configuration file ${file} is empty; it must hold at least targets (repos or orgs) and stores (sqlite, postgres or prometheus), as the README's configuration example shows`,
    );
  let doc: unknown;
  try {
    doc = json ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    // The YAML parser's first line ends with a colon that introduces a code excerpt; only the line is kept.
    const msg = json
      ? jsonProblem((e as Error).message, text)
      : (e as Error).message.split('\n')[0].replace(/:\s*$/, '');
    throw new UserError(
      `configuration file ${file} is not valid ${json ? 'JSON' : 'YAML'}: ${msg}; fix the syntax and run again`,
    );
  }
  return validateConfig(doc);
}

/** How many characters JSON.parse quotes on each side of an unexpected token (V8's context). */
const JSON_CONTEXT = 10;

/**
 * JSON.parse's message placed by line and column, as YAML's are: not by a character offset, and without the
 * excerpt of the file it quotes around an unexpected token (which may hold part of stores.postgres.url's password).
 */
function jsonProblem(message: string, text: string): string {
  const place = (offset: number) => {
    const before = text.slice(0, offset);
    return `line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')}`;
  };
  // "Unexpected token 'x', ..."<up to ten characters each side>"... is not valid JSON": placed by its excerpt.
  const quoted = /^(Unexpected token .+?), (\.\.\.)?"([\s\S]*)"(\.\.\.)? is not valid JSON$/.exec(message);
  if (quoted) {
    const [, what, cutBefore, excerpt, cutAfter] = quoted;
    const start = text.indexOf(excerpt);
    const offset = cutBefore ? start + JSON_CONTEXT : cutAfter ? excerpt.length - JSON_CONTEXT : -1;
    return start >= 0 && offset >= 0 ? `${what} at ${place(offset)}` : what;
  }
  // "... in JSON at position N" (Node 22 adds its line and column), "... after JSON at position N".
  const first = message.split('\n')[0];
  const at = /( after JSON)? at position (\d+)(?: \(line \d+ column \d+\))?/.exec(first);
  if (!at) return first;
  const head = first.slice(0, at.index).replace(/\s*in JSON$/, '');
  return `${head}${at[1] ?? ''} at ${place(Number(at[2]))}${first.slice(at.index + at[0].length)}`;
}

/** Reads the token from the environment variable the configuration names. */
export function readToken(config: CollectorConfig, env: NodeJS.ProcessEnv = process.env): string {
  return readTokens(config, env)[0].token;
}

/** Reads every token the configuration names, each under its variable's name. */
export function readTokens(
  config: CollectorConfig,
  env: NodeJS.ProcessEnv = process.env,
): { name: string; token: string }[] {
  return config.tokenEnvs.map((name) => {
    const token = env[name];
    if (!token || token.trim() === '') {
      throw new UserError(
        `environment variable ${name} is ${token === undefined ? 'not set' : 'empty'}; export a token there (token_env names the variable)`,
      );
    }
    return { name, token: token.trim() };
  });
}

/** Whether an organisation's repository passes its filter. */
export function takesRepository(
  f: OrgFilter,
  r: { name: string; fork?: boolean; archived?: boolean; disabled?: boolean },
): boolean {
  if (r.fork && !f.forks) return false;
  if (r.archived && !f.archived) return false;
  if (r.disabled && !f.disabled) return false;
  const glob = (p: string) =>
    new RegExp(
      '^' +
        p
          .replace(/[.+^${}()|[\]\\-]/g, '\\$&')
          .replace(/\*/g, '.*')
          .replace(/\?/g, '.') +
        '$',
      'i',
    );
  if (f.include.length && !f.include.some((p) => glob(p).test(r.name))) return false;
  return !f.exclude.some((p) => glob(p).test(r.name));
}
