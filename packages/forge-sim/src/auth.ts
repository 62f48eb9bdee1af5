/** Who presented what, and whether the instance lets it through. */
import { HttpError } from './http.js';
import { lookupProject } from './context.js';
import type { State, TokenRecord, User } from './state.js';

export interface RouteAuth {
  /** Least classic scope: read_api routes accept read_api even for writes; other-credential needs no header token. */
  scope: 'read_api' | 'api' | 'other-credential' | 'public';
  admin: boolean;
  /** Reachable with the read_user scope (GET /user). */
  readUser?: boolean;
  /** Reachable with any valid token whatever its scopes (the token's own description). */
  anyScope?: boolean;
}

export function presentedToken(headers: Record<string, string>): string | undefined {
  const pat = headers['private-token'];
  if (pat) return pat.trim();
  const auth = headers['authorization'];
  const m = auth ? /^Bearer\s+(.+)$/i.exec(auth.trim()) : null;
  return m ? m[1].trim() : undefined;
}

const REALM = 'Protected by OAuth 2.0';

function invalidToken(description: string): HttpError {
  return new HttpError(
    401,
    { error: 'invalid_token', error_description: description },
    {
      'www-authenticate': `Bearer realm="${REALM}", error="invalid_token", error_description="${description}"`,
    },
  );
}

function insufficientScope(scope: string): HttpError {
  const description = 'The request requires higher privileges than provided by the access token.';
  return new HttpError(
    403,
    { error: 'insufficient_scope', error_description: description, scope },
    {
      'www-authenticate': `Bearer realm="${REALM}", error="insufficient_scope", error_description="${description}", scope="${scope}"`,
    },
  );
}

export function isExpired(t: TokenRecord): boolean {
  return t.expiresAt !== null && Date.parse(t.expiresAt) < Date.now();
}

/** Resolves a presented credential; throws the instance's 401 for revoked, expired or unknown tokens. */
export function resolveToken(state: State, presented: string): { token: TokenRecord; user: User } {
  const token = state.tokens.find((t) => t.token === presented);
  if (!token || token.revoked) throw invalidToken('Token is revoked');
  if (isExpired(token)) throw invalidToken('Token is expired');
  const user = state.users.find((u) => u.id === token.userId);
  if (!user) throw invalidToken('Token is revoked');
  return { token, user };
}

const GRANULAR_IDENTITY = /^\/(user|version|metadata|namespaces|personal_access_tokens\/[^/]+)$/;
const GRANULAR_PROJECT = /^\/projects\/([^/]+)(\/(issues|merge_requests)(\/.*)?)?$/;

/** A grant recorded at creation that holds User: Read nowhere (a token without a recorded grant passes). */
function lacksReadUser(token: TokenRecord): boolean {
  if (!Array.isArray(token.granularScopes)) return false;
  return !token.granularScopes.some((g) => {
    const permissions = (g as { permissions?: unknown } | null)?.permissions;
    return Array.isArray(permissions) && permissions.includes('read_user');
  });
}

/**
 * Fine-grained grants are kept simple: identity routes (GET /user only with User: Read) plus reads of
 * project 1's issues and merge requests.
 */
function granularAllows(state: State, method: string, path: string, token: TokenRecord): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (path === '/user' && lacksReadUser(token)) return false;
  if (GRANULAR_IDENTITY.test(path)) return true;
  const m = GRANULAR_PROJECT.exec(path);
  if (!m) return false;
  let ref = m[1];
  try {
    ref = decodeURIComponent(ref);
  } catch {
    return false;
  }
  return lookupProject(state, ref)?.id === 1;
}

/** Throws the instance's refusal when the token may not call this route; returns nothing when it may. */
export function authorize(
  state: State,
  route: RouteAuth,
  method: string,
  path: string,
  token: TokenRecord,
  user: User,
): void {
  if (route.scope === 'other-credential' || route.scope === 'public') return;
  const scopes = token.scopes;
  const isWrite = method !== 'GET' && method !== 'HEAD';
  if (scopes.includes('granular')) {
    if (!granularAllows(state, method, path, token)) {
      throw new HttpError(403, {
        error: 'insufficient_granular_scope',
        error_description:
          'Access denied: Your Personal Access Token lacks the required permissions for this request.',
      });
    }
    return;
  }
  if (!route.anyScope) {
    if (scopes.includes('api')) {
      // api covers everything.
    } else if (scopes.includes('read_api')) {
      if (isWrite && route.scope !== 'read_api') throw insufficientScope('api');
    } else if (!(route.readUser && scopes.includes('read_user'))) {
      throw insufficientScope(isWrite ? 'api' : 'api read_api');
    }
  }
  if (route.admin && !(user.isAdmin && scopes.includes('admin_mode'))) {
    throw new HttpError(403, { message: '403 Forbidden' });
  }
}

/** Paths the real instance reserves for administrators, whatever the inventory's grouping says. */
const ADMIN_PREFIXES = [
  /^\/admin\//,
  /^\/application\//,
  /^\/applications/,
  /^\/geo/,
  /^\/sidekiq\//,
  /^\/features/,
  /^\/hooks/,
  /^\/license/,
];
/** Admin-mode-group actions the instance judges by project or group role instead of administrator status. */
const ROLE_JUDGED = [
  /^\/projects\/:id\/(cluster_agents|secure_files|terraform|error_tracking|alert_management_alerts)/,
  /^\/groups\/:id\/enterprise_users/,
  /^\/usage_data\/track_event/,
];

export function isAdminRoute(method: string, pattern: string, adminOnlyInInventory: boolean): boolean {
  if (ADMIN_PREFIXES.some((re) => re.test(pattern))) return true;
  if (!adminOnlyInInventory) return false;
  if (ROLE_JUDGED.some((re) => re.test(pattern))) return false;
  // Public reads of admin-managed lists.
  if (method === 'GET' && /^\/(topics|broadcast_messages)/.test(pattern)) return false;
  return true;
}
