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
 * With a shared cache (FORGE_MCP_REDIS_URL) the identity is also another replica's: a replica holding no
 * session for a fresh identity opens one from it without verifying again (unless its scopes were assumed or
 * the token is fine-grained), and only evictions that concern the token forget it for every replica.
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

// The identity cache and the refused-token memory live behind the state port (state/).
export type { RefusalKind, VerifiedIdentity } from '../state/index.js';
