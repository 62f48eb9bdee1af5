/**
 * The identity policy: who telemetry records. none records nobody; pseudonymous records callers as
 * user.hash and resources as forge_mcp.resource.ref, both HMAC-SHA256 under keys derived by HKDF-SHA256
 * from FORGE_MCP_TELEMETRY_IDENTITY_KEY (a caller key and a resource key, so the two pseudonyms never
 * match); full records user.id, user.name and mcp.resource.uri. Identity never reaches a metric: only
 * spans and log records ask this module.
 */
import { createHmac, getFips, hkdfSync, randomBytes } from 'node:crypto';
import type { Attributes } from '@opentelemetry/api';
import type { Caller } from '../channels.js';
import type { Config } from '../config/types.js';

/** FIPS 140 wants HMAC keys of at least 112 bits. */
export const FIPS_MIN_KEY_BYTES = 14;

const CALLER_INFO = 'forge-mcp-server telemetry caller';
const RESOURCE_INFO = 'forge-mcp-server telemetry resource';

/** No identity attributes (shared: a span copies what it is given). */
const NOTHING: Attributes = Object.freeze({});

/** Most pseudonyms each cache holds; a full cache starts afresh. */
const REMEMBERED = 10_000;

/** A start refused for the identity key (the command line exits 2 with the message). */
export class IdentityKeyRefused extends Error {}

export interface IdentityPolicy {
  readonly name: Config['telemetryIdentity'];
  caller(caller: Caller | undefined): Attributes;
  resource(uri: string | undefined): Attributes;
}

/** Refuses, in FIPS-only mode, a configured key shorter than FIPS_MIN_KEY_BYTES. */
export function checkIdentityKey(key: string | undefined, fipsOnly: boolean): void {
  if (!key || !fipsOnly) return;
  const bytes = Buffer.byteLength(key, 'utf8');
  if (bytes >= FIPS_MIN_KEY_BYTES) return;
  throw new IdentityKeyRefused(
    `FORGE_MCP_TELEMETRY_IDENTITY_KEY is ${bytes} bytes, and in FIPS-only mode an HMAC key must be at least ` +
      `${FIPS_MIN_KEY_BYTES} bytes (112 bits): set a longer key, or leave it empty to generate one per process`,
  );
}

interface Keys {
  caller: Buffer;
  resource: Buffer;
}

function derive(secret: Buffer): Keys {
  const key = (info: string) => Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), info, 32));
  return { caller: key(CALLER_INFO), resource: key(RESOURCE_INFO) };
}

function hmac(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex');
}

/**
 * `now` drives rotation: with no configured key, a new random secret is drawn once per rotation period
 * (counted in whole periods of wall-clock time), or once per process when no period is set.
 */
export function identityPolicy(config: Config, now: () => number = Date.now): IdentityPolicy {
  checkIdentityKey(config.telemetryIdentityKey, getFips() === 1);
  const name = config.telemetryIdentity;
  if (name === 'full') {
    return {
      name,
      caller: (c) => ({
        ...(c?.id !== undefined ? { 'user.id': String(c.id) } : {}),
        ...(c?.username ? { 'user.name': c.username } : {}),
      }),
      resource: (uri) => (uri ? { 'mcp.resource.uri': uri } : {}),
    };
  }
  if (name !== 'pseudonymous') return { name: 'none', caller: () => NOTHING, resource: () => NOTHING };

  const configured = config.telemetryIdentityKey;
  const period = configured ? undefined : config.telemetryIdentityRotationMs;
  let epoch = period ? Math.floor(now() / period) : 0;
  let keys = derive(configured ? Buffer.from(configured, 'utf8') : randomBytes(32));
  /**
   * Pseudonyms are computed once per key: the same session asks again on every request, and a followed
   * resource is read again and again. Both caches start afresh when the key rotates.
   */
  let callers = new Map<string, Attributes>();
  let resources = new Map<string, Attributes>();
  const current = (): Keys => {
    if (period) {
      const e = Math.floor(now() / period);
      if (e !== epoch) {
        epoch = e;
        keys = derive(randomBytes(32));
        callers = new Map();
        resources = new Map();
      }
    }
    return keys;
  };
  return {
    name,
    caller: (c) => {
      const subject = c?.id !== undefined ? `id:${c.id}` : c?.username ? `name:${c.username}` : undefined;
      if (!subject) return NOTHING;
      // current() first: a rotation starts the caches afresh.
      const key = current().caller;
      return pseudonym(callers, 'user.hash', key, subject);
    },
    resource: (uri) => {
      if (!uri) return NOTHING;
      const key = current().resource;
      return pseudonym(resources, 'forge_mcp.resource.ref', key, uri);
    },
  };
}

/** `{ [attribute]: HMAC of value }`, from the cache when this key has made it before. */
function pseudonym(
  cache: Map<string, Attributes>,
  attribute: string,
  key: Buffer,
  value: string,
): Attributes {
  let attrs = cache.get(value);
  if (!attrs) {
    if (cache.size >= REMEMBERED) cache.clear();
    attrs = { [attribute]: hmac(key, value) };
    cache.set(value, attrs);
  }
  return attrs;
}
