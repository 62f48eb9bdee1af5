/**
 * OAuth mode's resource-server side: the protected-resource metadata document (and the short OAuth page it
 * points to by default), the challenges every OAuth-mode refusal carries, the verified identity cache and
 * the refused-token memory.
 *
 * How the identity cache relates to the session pool: both are keyed by the same digest (SHA-256 of the
 * instance and the token), and verifying a token *is* opening its session (GET /user and the token's
 * description, probeCredential), so no verification is ever made twice for one answer. The cache only says
 * until when a verification stays good (TTL and the token's own expiry); the pool holds the session that
 * verification built. A fresh identity with a pooled session costs the instance nothing; a stale or absent
 * identity drops the pooled session, so the next one is opened (verified) again; a fresh identity whose
 * session the pool has evicted opens a session again, which is a verification, and refreshes the entry.
 */
import type { ServerResponse } from 'node:http';
import type { Config } from '../config/types.js';
import { SECURITY_HEADERS } from './headers.js';

export const REALM = 'forge-mcp-server';
export const WELL_KNOWN = '/.well-known/oauth-protected-resource';
/** The server's own OAuth page, the default resource_documentation. */
export const OAUTH_PAGE_PATH = '/docs/oauth';

export interface ProtectedResource {
  /** Path the metadata document is served at (host root, then the public URL's path). */
  path: string;
  /** Absolute URL of that document, named by every challenge. */
  url: string;
  /** The one scope the deployment advertises. */
  scope: 'api' | 'read_api';
  documentation: string;
  /** The served document, serialized once. */
  body: string;
  /** The OAuth page's text (served only when resource_documentation is the default). */
  page?: string;
}

function canonical(url: string): string {
  return new URL(url).href.replace(/\/$/, '');
}

export function protectedResource(config: Config): ProtectedResource {
  const publicUrl = new URL(config.publicUrl!);
  const suffix = publicUrl.pathname === '/' ? '' : publicUrl.pathname;
  const path = `${WELL_KNOWN}${suffix}`;
  const url = `${publicUrl.origin}${path}`;
  const scope = config.readOnly || config.safeMode ? 'read_api' : 'api';
  const documentation = config.resourceDocumentation || `${publicUrl.origin}${OAUTH_PAGE_PATH}`;
  const servers = config.forgeUrls.map(canonical);
  const document = {
    resource: config.publicUrl,
    authorization_servers: servers,
    scopes_supported: [scope],
    bearer_methods_supported: ['header'],
    resource_name: 'forge-mcp-server',
    resource_documentation: documentation,
    ...(config.resourcePolicyUri ? { resource_policy_uri: config.resourcePolicyUri } : {}),
    ...(config.resourceTosUri ? { resource_tos_uri: config.resourceTosUri } : {}),
  };
  const page = config.resourceDocumentation
    ? undefined
    : [
        'forge-mcp-server: OAuth',
        '',
        `This MCP server (${config.publicUrl}) is an OAuth 2.1 protected resource.`,
        `Send "Authorization: Bearer <access token>" on every request; PRIVATE-TOKEN is not accepted.`,
        `Protected-resource metadata: ${url}`,
        `Authorization server(s): ${servers.join(', ')}`,
        `Scope to ask for: ${scope} (read_api is the minimum; the mcp scope reaches nothing).`,
        'Register a public OAuth application (not confidential) on the instance with that scope and your',
        "client's redirect URIs, and configure the client with its Application ID as client ID.",
        ...(config.oauthClientUids.length
          ? [
              'This deployment admits only tokens issued to its registered application(s); personal access',
              'tokens are refused.',
            ]
          : ['A personal access token sent as Bearer is verified too.']),
        '',
      ].join('\n');
  return { path, url, scope, documentation, body: JSON.stringify(document), page };
}

/** Answers a public document (the metadata, the OAuth page): cacheable for an hour, GET and HEAD only. */
export function sendPublic(
  res: ServerResponse,
  method: string | undefined,
  type: string,
  body: string,
): void {
  if (method !== 'GET' && method !== 'HEAD') {
    res.writeHead(405, { ...SECURITY_HEADERS, allow: 'GET, HEAD', 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'method not allowed: use GET' }));
    return;
  }
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'cache-control': 'public, max-age=3600',
    'content-type': type,
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(method === 'HEAD' ? undefined : body);
}

/** Quotes a challenge parameter value (RFC 7230 quoted-string; descriptions are ours, kept ASCII). */
function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

export interface ChallengeError {
  error: 'invalid_token' | 'insufficient_scope';
  description: string;
  /** Overrides the advertised scope (insufficient_scope names the minimum, read_api). */
  scope?: string;
  uri?: string;
}

/** The WWW-Authenticate value of an OAuth-mode refusal: realm, scope, resource_metadata, then the error. */
export function challenge(resource: ProtectedResource, err?: ChallengeError): string {
  const parts = [
    `realm=${quoted(REALM)}`,
    `scope=${quoted(err?.scope ?? resource.scope)}`,
    `resource_metadata=${quoted(resource.url)}`,
  ];
  if (err) {
    parts.push(`error=${quoted(err.error)}`, `error_description=${quoted(err.description)}`);
    if (err.uri) parts.push(`error_uri=${quoted(err.uri)}`);
  }
  return `Bearer ${parts.join(', ')}`;
}

export interface VerifiedIdentity {
  userId?: number;
  username?: string;
  scopes: string[];
  /** When this verification stops counting: the earlier of the cache TTL and the token's own expiry. */
  expiresAt: number;
}

export const IDENTITY_CACHE_MAX = 10_000;
const SWEEP_FLOOR_MS = 30_000;

/** Verified identities by credential digest; least recently used first (Map order). No token material. */
export class IdentityCache {
  private readonly entries = new Map<string, VerifiedIdentity>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly ttlMs: number,
    private readonly max = IDENTITY_CACHE_MAX,
    private readonly now: () => number = Date.now,
  ) {
    this.timer = setInterval(() => this.sweep(), Math.max(SWEEP_FLOOR_MS, Math.floor(ttlMs / 4)));
    this.timer.unref();
  }

  /** A verification still good now, marked as recently used; a stale one is dropped. */
  fresh(key: string): VerifiedIdentity | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry;
  }

  /** Records a successful verification; `tokenExpiresAt` is the token's own expiry when known. */
  remember(key: string, identity: Omit<VerifiedIdentity, 'expiresAt'>, tokenExpiresAt?: number): void {
    const ttlEnd = this.now() + this.ttlMs;
    const expiresAt = tokenExpiresAt === undefined ? ttlEnd : Math.min(ttlEnd, tokenExpiresAt);
    if (expiresAt <= this.now()) return;
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.evictOne();
    this.entries.set(key, { ...identity, expiresAt });
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  /** Drops an expired identity if there is one, else the least recently used. */
  private evictOne(): void {
    const now = this.now();
    for (const [k, v] of this.entries) {
      if (v.expiresAt <= now) {
        this.entries.delete(k);
        return;
      }
    }
    const oldest = this.entries.keys().next().value;
    if (oldest !== undefined) this.entries.delete(oldest);
  }

  sweep(): void {
    const now = this.now();
    for (const [k, v] of this.entries) if (v.expiresAt <= now) this.entries.delete(k);
  }

  get size(): number {
    return this.entries.size;
  }

  close(): void {
    clearInterval(this.timer);
  }
}

export const REFUSED_MEMORY_MS = 5 * 60_000;
export const REFUSED_MEMORY_MAX = 4096;

/**
 * Why a remembered token was refused: the instance said 401, the application pin did not admit it, or a
 * fine-grained token lacks User: Read.
 */
export type RefusalKind = 'invalid' | 'pin' | 'fine-grained-no-user';

/** Tokens refused in the last five minutes, by credential digest, answered from memory. */
export class RefusedTokens {
  private readonly entries = new Map<string, { until: number; kind: RefusalKind }>();

  constructor(private readonly now: () => number = Date.now) {}

  get(key: string): RefusalKind | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.kind;
  }

  remember(key: string, kind: RefusalKind): void {
    this.entries.delete(key);
    // Oldest first out; the expired ones are at the front, having been added first.
    while (this.entries.size >= REFUSED_MEMORY_MAX) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { until: this.now() + REFUSED_MEMORY_MS, kind });
  }
}
