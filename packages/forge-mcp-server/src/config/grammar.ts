// The small parsers every setting is read with. Each grammar knows what it accepts (the text
// error messages and --help quote) and turns one raw string into a typed value or a reason.
import { statSync, realpathSync } from 'node:fs';
import { ipFamily } from '../ip.js';
import path from 'node:path';
import { fromBase64 } from '../base64.js';

export type GrammarKind =
  | 'boolean'
  | 'boolean-yolo'
  | 'boolean-strict'
  | 'boolean-lenient'
  | 'duration'
  | 'size'
  | 'integer'
  | 'number'
  | 'enum'
  | 'https-url'
  | 'url-list'
  | 'public-url'
  | 'list'
  | 'origin-list'
  | 'address-list'
  | 'dir-list'
  | 'host:port'
  | 'listen-address'
  | 'file-mode'
  | 'header-name'
  | 'path'
  | 'string'
  | 'secret'
  | 'redis-url'
  | 'substitutions';

export interface ParseContext {
  /** Durations read 0 differently in variables and flags. */
  source: 'variable' | 'flag';
  cwd: string;
  home: string;
}

export type ParseOutcome<T> = { ok: true; value: T; notes?: string[] } | { ok: false; reason: string };

export interface Grammar<T> {
  kind: GrammarKind;
  /** What is accepted, as a phrase: "one of dynamic, meta, individual". */
  accepts: string;
  /** Values never appear in messages (tokens, keys). */
  secret?: boolean;
  parse(raw: string, ctx: ParseContext): ParseOutcome<T>;
  format(value: T): string;
}

const ok = <T>(value: T, notes?: string[]): ParseOutcome<T> =>
  notes?.length ? { ok: true, value, notes } : { ok: true, value };
const fail = (reason: string): ParseOutcome<never> => ({ ok: false, reason });

// ---------------------------------------------------------------- booleans

const GO_TRUE = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);
const GO_FALSE = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False']);

/** true, false, 1, 0, t, f in lower, upper or title case. */
export function booleanGrammar(): Grammar<boolean> {
  return {
    kind: 'boolean',
    accepts: 'true, false, 1, 0, t or f (lower, upper or title case)',
    parse(raw) {
      const v = raw.trim();
      if (GO_TRUE.has(v)) return ok(true);
      if (GO_FALSE.has(v)) return ok(false);
      return fail('not a boolean');
    },
    format: String,
  };
}

/** YOLO_MODE / AUTOPILOT: 1, true, yes in any case are true; anything else is false. Never invalid. */
export function yoloBooleanGrammar(): Grammar<boolean> {
  return {
    kind: 'boolean-yolo',
    accepts: '1, true or yes (any case) for true; anything else is false',
    parse: (raw) => ok(['1', 'true', 'yes'].includes(raw.trim().toLowerCase())),
    format: String,
  };
}

/** TELEMETRY / OTEL_SDK_DISABLED: only true or false, any case. */
export function strictBooleanGrammar(): Grammar<boolean> {
  return {
    kind: 'boolean-strict',
    accepts: 'true or false (any case)',
    parse(raw) {
      const v = raw.trim().toLowerCase();
      if (v === 'true') return ok(true);
      if (v === 'false') return ok(false);
      return fail('not true or false');
    },
    format: String,
  };
}

/** ALLOW_PRIVATE_INSTANCES: the usual booleans; anything unparseable is false, silently. */
export function lenientBooleanGrammar(): Grammar<boolean> {
  const strict = booleanGrammar();
  return {
    kind: 'boolean-lenient',
    accepts: 'true, false, 1, 0, t or f; anything else is false',
    parse(raw, ctx) {
      const r = strict.parse(raw, ctx);
      return r.ok ? r : ok(false);
    },
    format: String,
  };
}

// ---------------------------------------------------------------- durations

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DURATION = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

/** Milliseconds of a duration literal written in the table ("1h30m"). Throws on a typo: tables only. */
export function ms(literal: string): number {
  const m = DURATION.exec(literal);
  if (!m || literal === '') throw new Error(`bad duration literal ${literal}`);
  return Number(m[1] ?? 0) * HOUR + Number(m[2] ?? 0) * MINUTE + Number(m[3] ?? 0) * SECOND;
}

export function formatDuration(value: number): string {
  if (value === 0) return '0';
  if (value % HOUR === 0) return `${value / HOUR}h`;
  if (value % MINUTE === 0) return `${value / MINUTE}m`;
  if (value % SECOND === 0) return `${value / SECOND}s`;
  return `${value}ms`;
}

export interface DurationOptions {
  /**
   * How 0 is read. `disables`: 0 switches the feature off (variables take only the bare digit 0,
   * flags also 0s/0m/0h). `flag-only`: flags accept 0, variables refuse it. `refused`: never 0.
   */
  zero: 'disables' | 'flag-only' | 'refused';
  min?: number;
  max: number;
}

export function durationGrammar(opts: DurationOptions): Grammar<number> {
  const range =
    opts.min !== undefined
      ? `from ${formatDuration(opts.min)} to ${formatDuration(opts.max)}`
      : `at most ${formatDuration(opts.max)}`;
  const zeroText = {
    disables: ', or 0 to disable',
    'flag-only': ' (the flag also accepts 0)',
    refused: '',
  }[opts.zero];
  return {
    kind: 'duration',
    accepts: `a duration such as 90s, 15m or 1h30m, ${range}${zeroText}`,
    parse(raw, ctx) {
      const v = raw.trim();
      const zeroAllowed = opts.zero === 'disables' || (opts.zero === 'flag-only' && ctx.source === 'flag');
      if (v === '0') return zeroAllowed ? ok(0) : fail('0 is not accepted here');
      const m = DURATION.exec(v);
      if (!m || v === '') return fail('not a duration');
      const value = ms(v);
      if (value === 0) {
        // Variables write "off" as the bare digit only, so 0s there is a typo rather than a choice.
        if (zeroAllowed && ctx.source === 'flag') return ok(0);
        return fail(zeroAllowed ? 'write 0 as the bare digit' : '0 is not accepted here');
      }
      if (opts.min !== undefined && value < opts.min) return fail('below the minimum');
      if (value > opts.max) return fail('above the maximum');
      return ok(value);
    },
    format: formatDuration,
  };
}

// ---------------------------------------------------------------- sizes and numbers

export const KB = 1024;
export const MB = 1024 * KB;
export const GB = 1024 * MB;
export const TB = 1024 * GB;
const SIZE = /^(\d+(?:\.\d+)?)\s*(KB|MB|GB)$/i;

/** In the units a size is written in (no TB: 1 TB reads 1024GB, which is what to type). */
export function formatSize(value: number): string {
  for (const [unit, size] of [
    ['GB', GB],
    ['MB', MB],
    ['KB', KB],
  ] as const) {
    if (value >= size && value % size === 0) return `${value / size}${unit}`;
  }
  return String(value);
}

export function sizeGrammar(opts: { min: number; max: number }): Grammar<number> {
  return {
    kind: 'size',
    accepts: `a byte count or a number with KB, MB or GB (powers of 1024), from ${formatSize(opts.min)} to ${formatSize(opts.max)}`,
    parse(raw) {
      const v = raw.trim();
      let value: number;
      if (/^\d+$/.test(v)) value = Number(v);
      else {
        const m = SIZE.exec(v);
        if (!m) return fail('not a size');
        const unit = { KB, MB, GB }[m[2].toUpperCase() as 'KB' | 'MB' | 'GB'];
        value = Math.floor(Number(m[1]) * unit);
      }
      if (value < opts.min) return fail('below the minimum');
      if (value > opts.max) return fail('above the maximum');
      return ok(value);
    },
    format: formatSize,
  };
}

export function integerGrammar(opts: { min: number; max?: number; what?: string }): Grammar<number> {
  const what = opts.what ?? 'a whole number';
  const range = opts.max !== undefined ? `from ${opts.min} to ${opts.max}` : `of at least ${opts.min}`;
  return {
    kind: 'integer',
    accepts: `${what} ${range}`,
    parse(raw) {
      const v = raw.trim();
      if (!/^\d+$/.test(v)) return fail('not a whole number');
      const value = Number(v);
      if (!Number.isSafeInteger(value)) return fail('too large');
      if (value < opts.min) return fail('below the minimum');
      if (opts.max !== undefined && value > opts.max) return fail('above the maximum');
      return ok(value);
    },
    format: String,
  };
}

/** A non-negative decimal number (a rate may be fractional: 0.5 requests per second). */
export function numberGrammar(opts: { min: number; max: number }): Grammar<number> {
  return {
    kind: 'number',
    accepts: `a number from ${opts.min} to ${opts.max}`,
    parse(raw) {
      const v = raw.trim();
      if (!/^\d+(?:\.\d+)?$/.test(v)) return fail('not a number');
      const value = Number(v);
      if (value < opts.min) return fail('below the minimum');
      if (value > opts.max) return fail('above the maximum');
      return ok(value);
    },
    format: String,
  };
}

// ---------------------------------------------------------------- words

/** One of a fixed set of words, any case; aliases name an accepted spelling of a value. */
export function enumGrammar<const T extends string>(
  values: readonly T[],
  aliases: Readonly<Record<string, T>> = {},
): Grammar<T> {
  const spelled = values.map((v) => {
    const alias = Object.keys(aliases).filter((a) => aliases[a] === v);
    return alias.length ? `${v} (or ${alias.join(', ')})` : v;
  });
  return {
    kind: 'enum',
    accepts: `one of ${spelled.join(', ')}`,
    parse(raw) {
      const v = raw.trim().toLowerCase();
      const found = values.find((x) => x === v) ?? aliases[v];
      return found ? ok(found) : fail('not a known value');
    },
    format: String,
  };
}

export function stringGrammar(what = 'any text'): Grammar<string> {
  return { kind: 'string', accepts: what, parse: (raw) => ok(raw.trim()), format: String };
}

/** Anything but visible ASCII: a token holding it cannot travel in a header as it is. */
const NOT_HEADER_SAFE = /[^\x21-\x7e]/;

/**
 * A secret, blanks around it dropped. `header`: it travels in a request header (a token), so a space, line
 * break, control or non-ASCII character inside is refused at start rather than failing every request.
 */
export function secretGrammar(opts: { header?: boolean } = {}): Grammar<string> {
  return {
    kind: 'secret',
    accepts: 'a secret',
    secret: true,
    parse(raw) {
      const v = raw.trim();
      if (opts.header && NOT_HEADER_SAFE.test(v))
        return fail(
          'it holds a space, line break, control or non-ASCII character, which a request header cannot carry; copy the token again without it',
        );
      return ok(v);
    },
    format: () => '',
  };
}

/** The shortest key FORGE_MCP_STATE_KEY takes, in bytes (AES-256's key length). */
export const STATE_KEY_MIN_BYTES = 32;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;

/**
 * The bytes of a state key: hex when it is hex digits only (an even number), else base64 (standard or URL-safe);
 * a reason when it is neither, or decodes to fewer than 32 bytes.
 */
export function stateKeyBytes(raw: string): Buffer | string {
  let bytes: Buffer;
  if (HEX.test(raw)) bytes = Buffer.from(raw, 'hex');
  else {
    try {
      bytes = fromBase64(raw, 'the key');
    } catch {
      return 'it is neither hex nor base64';
    }
  }
  if (bytes.length < STATE_KEY_MIN_BYTES)
    return `it decodes to ${bytes.length} bytes, fewer than ${STATE_KEY_MIN_BYTES}`;
  return bytes;
}

/**
 * FORGE_MCP_STATE_KEY: random bytes written as hex or base64, at least 32 of them. The key is used as it is, not
 * stretched, so it must be random: a short passphrase is refused (too few bytes, or not hex or base64), but a long
 * one written only in base64's letters would pass, which is why the accepted text names openssl rand. Secret:
 * never repeated in a message.
 */
export function stateKeyGrammar(): Grammar<string> {
  return {
    kind: 'secret',
    accepts: `at least ${STATE_KEY_MIN_BYTES} random bytes written as hex (64 hex digits) or base64, as openssl rand -hex 32 or openssl rand -base64 32 prints`,
    secret: true,
    parse(raw) {
      const v = raw.trim();
      const bytes = stateKeyBytes(v);
      return typeof bytes === 'string' ? fail(bytes) : ok(v);
    },
    format: () => '',
  };
}

/** Comma-separated words; blanks around entries and empty entries are dropped, duplicates kept once. */
export function listGrammar(what = 'a comma-separated list'): Grammar<string[]> {
  return {
    kind: 'list',
    accepts: what,
    parse: (raw) => ok(splitList(raw, ',')),
    format: (v) => v.join(','),
  };
}

function splitList(raw: string, separator: string): string[] {
  return [
    ...new Set(
      raw
        .split(separator)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

const HEADER_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function headerNameGrammar(): Grammar<string> {
  return {
    kind: 'header-name',
    accepts: 'an HTTP header name such as X-Forwarded-For',
    parse(raw) {
      const v = raw.trim();
      // Stored lower-case: Node hands request headers over lower-cased.
      return HEADER_TOKEN.test(v) ? ok(v.toLowerCase()) : fail('not a header name');
    },
    format: String,
  };
}

// ---------------------------------------------------------------- URLs and addresses

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** localhost, 127.0.0.0/8 or ::1 (URL hostnames keep IPv6 brackets). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  if (LOOPBACK_NAMES.has(h)) return true;
  return ipFamily(h) === 4 && h.startsWith('127.');
}

/** What a URL parser drops or reads silently (tabs, line breaks) or refuses: refused, so no text moves. */
const URL_CONTROL = /[\x00-\x20\x7f]/;

function parseHttpUrl(raw: string): URL | string {
  if (URL_CONTROL.test(raw)) return 'URL holds a space, tab, line break or control character';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'not an http(s) URL';
  if (url.username || url.password) return 'URL carries credentials';
  if (!url.hostname) return 'URL has no host';
  return url;
}

/**
 * A Redis server: redis:// (or rediss:// for TLS), a host, an optional port and database number, and optional
 * user and password. Secret: the URL may carry a password, so no message repeats it.
 */
export function redisUrlGrammar(): Grammar<string> {
  return {
    kind: 'redis-url',
    accepts: 'a redis:// or rediss:// URL: redis://[[user]:password@]host[:port][/database]',
    secret: true,
    parse(raw) {
      const v = raw.trim();
      let url: URL;
      try {
        url = new URL(v);
      } catch {
        return fail('not an absolute URL');
      }
      if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
        return fail(`the scheme is ${url.protocol.replace(/:$/, '')}, not redis or rediss`);
      if (!url.hostname) return fail('the URL names no host');
      if (url.port !== '' && (Number(url.port) < 1 || Number(url.port) > 65535))
        return fail('the port is out of range');
      if (!/^(\/\d*)?$/.test(url.pathname)) return fail('the path is not a database number such as /0');
      if (url.search || url.hash) return fail('the URL has a query or fragment');
      return ok(v);
    },
    format: () => '',
  };
}

/** An instance URL: http(s), no credentials, query or fragment; trailing slashes removed. */
export function normalizeInstanceUrl(raw: string): string | { reason: string } {
  const url = parseHttpUrl(raw.trim());
  if (typeof url === 'string') return { reason: url };
  if (url.search || url.hash || raw.includes('#') || raw.includes('?'))
    return { reason: 'URL has a query or fragment' };
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export function urlListGrammar(): Grammar<string[]> {
  return {
    kind: 'url-list',
    accepts: 'http(s) URL(s), comma-separated, without query or fragment',
    parse(raw) {
      const out: string[] = [];
      for (const entry of splitList(raw, ',')) {
        const n = normalizeInstanceUrl(entry);
        if (typeof n !== 'string') return fail(`${JSON.stringify(entry)}: ${n.reason}`);
        if (!out.includes(n)) out.push(n);
      }
      return out.length ? ok(out) : fail('no URL');
    },
    format: (v) => v.join(','),
  };
}

/** An absolute https URL (the protected-resource metadata's documentation, policy and terms links). */
export function httpsUrlGrammar(): Grammar<string> {
  return {
    kind: 'https-url',
    accepts: 'an absolute https URL',
    parse(raw) {
      const url = parseHttpUrl(raw.trim());
      if (typeof url === 'string') return fail(url);
      return url.protocol === 'https:' ? ok(url.href) : fail('not https');
    },
    format: String,
  };
}

/** Where clients reach this server: https, or http on localhost, 127.0.0.1, ::1 only. */
export function publicUrlGrammar(): Grammar<string> {
  return {
    kind: 'public-url',
    accepts:
      'an absolute https URL (http only for localhost, 127.0.0.1, ::1) without trailing slash or fragment',
    parse(raw) {
      const v = raw.trim();
      const url = parseHttpUrl(v);
      if (typeof url === 'string') return fail(url);
      if (url.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))
        return fail('http is allowed only for localhost, 127.0.0.1 and ::1');
      if (v.endsWith('/')) return fail('trailing slash');
      if (v.includes('#')) return fail('has a fragment');
      // Kept exactly as written: clients compare the metadata's resource with it code point by code point.
      return ok(v);
    },
    format: String,
  };
}

/** Trusted browser origins (scheme://host[:port]) or * for any. */
export function originListGrammar(): Grammar<string[]> {
  return {
    kind: 'origin-list',
    accepts: 'comma-separated origins such as https://app.example.com, or *',
    parse(raw) {
      const entries = splitList(raw, ',');
      if (entries.includes('*')) return ok(['*']);
      const out: string[] = [];
      for (const entry of entries) {
        const url = parseHttpUrl(entry);
        if (typeof url === 'string') return fail(`${JSON.stringify(entry)}: ${url}`);
        if (url.pathname !== '/' || url.search || url.hash || /[?#]/.test(entry))
          return fail(`${JSON.stringify(entry)}: an origin has no path, query or fragment`);
        // A browser never sends a pattern: such an entry would match nothing.
        if (url.hostname.includes('*'))
          return fail(
            `${JSON.stringify(entry)}: an origin names one host (no wildcards; * alone trusts every origin)`,
          );
        if (!out.includes(url.origin)) out.push(url.origin);
      }
      return ok(out);
    },
    format: (v) => v.join(','),
  };
}

function isAddressOrCidr(entry: string): boolean {
  const slash = entry.indexOf('/');
  if (slash < 0) return ipFamily(entry) !== 0;
  const family = ipFamily(entry.slice(0, slash));
  const bits = entry.slice(slash + 1);
  if (family === 0 || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

export function addressListGrammar(): Grammar<string[]> {
  return {
    kind: 'address-list',
    accepts: 'comma-separated IP addresses or CIDR ranges such as 10.0.0.0/8',
    parse(raw) {
      const entries = splitList(raw, ',');
      const bad = entries.find((e) => !isAddressOrCidr(e));
      return bad === undefined ? ok(entries) : fail(`${JSON.stringify(bad)} is not an address or range`);
    },
    format: (v) => v.join(','),
  };
}

function splitHostPort(v: string): { host: string; port: string } | undefined {
  const m = /^(?:\[([^\]]*)\]|([^:[\]]*)):(\d{1,5})$/.exec(v);
  if (!m) return undefined;
  return { host: m[1] !== undefined ? m[1] : (m[2] ?? ''), port: m[3] };
}

/** host:port whose host is localhost or a loopback address. */
export function loopbackHostPortGrammar(): Grammar<string> {
  return {
    kind: 'host:port',
    accepts: 'host:port with host localhost, 127.0.0.1 (any 127.x) or [::1], and port 1 to 65535',
    parse(raw) {
      const v = raw.trim();
      const hp = splitHostPort(v);
      if (!hp) return fail('not host:port');
      const port = Number(hp.port);
      if (port < 1 || port > 65535) return fail('port out of range');
      if (!isLoopbackHost(hp.host)) return fail('host is not localhost or loopback');
      return ok(v);
    },
    format: String,
  };
}

/** host:port (empty host = every interface) or a filesystem path for a unix socket. */
export function listenAddressGrammar(): Grammar<string> {
  return {
    kind: 'listen-address',
    accepts: 'host:port (empty host for every interface) or a filesystem path for a unix socket',
    parse(raw) {
      const v = raw.trim();
      if (v.includes('/') || v.includes(path.sep)) return ok(v);
      const hp = splitHostPort(v);
      if (!hp) return fail('not host:port or a path');
      if (Number(hp.port) > 65535) return fail('port out of range');
      if (hp.host && hp.host.includes(':') && ipFamily(hp.host) !== 6) return fail('bad IPv6 address');
      return ok(v);
    },
    format: String,
  };
}

export function fileModeGrammar(): Grammar<number> {
  return {
    kind: 'file-mode',
    accepts: 'an octal permission mode such as 0660',
    parse(raw) {
      const m = /^(?:0o?)?([0-7]{3,4})$/.exec(raw.trim());
      return m ? ok(parseInt(m[1], 8)) : fail('not an octal mode');
    },
    format: (v) => `0${v.toString(8).padStart(3, '0')}`,
  };
}

// ---------------------------------------------------------------- paths

export function expandPath(raw: string, ctx: ParseContext): string {
  const v = raw.trim();
  const home = v === '~' || v.startsWith('~/') || v.startsWith(`~${path.sep}`) ? ctx.home + v.slice(1) : v;
  return path.resolve(ctx.cwd, home);
}

/** A file path, resolved against the working directory (~ is the home directory). */
export function pathGrammar(): Grammar<string> {
  return {
    kind: 'path',
    accepts: 'a file path',
    parse: (raw, ctx) => ok(expandPath(raw, ctx)),
    format: String,
  };
}

/**
 * Directories separated by the OS path-list separator. Each is resolved through symbolic links,
 * since local paths are compared after resolution; a missing one is skipped with a note.
 */
export function dirListGrammar(): Grammar<string[]> {
  return {
    kind: 'dir-list',
    accepts: 'directories separated by ":" (";" on Windows)',
    parse(raw, ctx) {
      const out: string[] = [];
      const notes: string[] = [];
      for (const entry of splitList(raw, path.delimiter)) {
        const full = expandPath(entry, ctx);
        let isDir = false;
        try {
          isDir = statSync(full).isDirectory();
        } catch {
          notes.push(`directory ${JSON.stringify(full)} does not exist; skipped`);
          continue;
        }
        if (!isDir) {
          notes.push(`${JSON.stringify(full)} is not a directory; skipped`);
          continue;
        }
        const real = realpathSync(full);
        if (!out.includes(real)) out.push(real);
      }
      return ok(out, notes);
    },
    format: (v) => v.join(path.delimiter),
  };
}

// ---------------------------------------------------------------- description substitutions

const ESCAPES: Record<string, string> = { '\\': '\\', ',': ',', '=': '=', n: '\n', t: '\t' };
export const MAX_SUBSTITUTIONS = 32;
export const MAX_SUBSTITUTION_BYTES = 256;

/** old=new pairs, comma-separated; \\ \, \= \n \t escape. Nothing is trimmed: text is exact. */
export function substitutionsGrammar(): Grammar<Array<[string, string]>> {
  return {
    kind: 'substitutions',
    accepts: `old=new pairs separated by commas (escapes \\\\ \\, \\= \\n \\t), at most ${MAX_SUBSTITUTIONS} pairs of ${MAX_SUBSTITUTION_BYTES} bytes per half, old not empty`,
    parse(raw) {
      const pairs: Array<[string, string]> = [];
      let halves: string[] = [''];
      const close = (): string | undefined => {
        if (halves.length === 1 && halves[0] === '') return undefined; // an empty entry: a stray comma
        const n = pairs.length + 1;
        if (halves.length === 1) return `pair ${n} has no "="`;
        const [from, to] = halves;
        if (from === '') return `pair ${n} has an empty old text`;
        if (
          Buffer.byteLength(from) > MAX_SUBSTITUTION_BYTES ||
          Buffer.byteLength(to) > MAX_SUBSTITUTION_BYTES
        )
          return `pair ${n} has a half longer than ${MAX_SUBSTITUTION_BYTES} bytes`;
        pairs.push([from, to]);
        halves = [''];
        return undefined;
      };
      for (let i = 0; i < raw.length; i++) {
        const c = raw[i];
        if (c === '\\') {
          const next = raw[i + 1];
          if (next === undefined) return fail('ends with a lone backslash');
          const escaped = ESCAPES[next];
          if (escaped === undefined) return fail(`unknown escape \\${next}`);
          halves[halves.length - 1] += escaped;
          i++;
        } else if (c === ',') {
          const problem = close();
          if (problem) return fail(problem);
        } else if (c === '=' && halves.length === 1) {
          halves.push('');
        } else {
          halves[halves.length - 1] += c;
        }
      }
      const problem = close();
      if (problem) return fail(problem);
      if (pairs.length > MAX_SUBSTITUTIONS)
        return fail(`${pairs.length} pairs, more than ${MAX_SUBSTITUTIONS}`);
      return ok(pairs);
    },
    format: (v) => v.map(([a, b]) => `${a}=${b}`).join(','),
  };
}
