/**
 * The instance's OAuth authorization server as MCP clients meet it: metadata, the authorization page
 * (sign-in, consent), the authorization-code grant with PKCE (S256), refresh tokens, revocation and
 * token introspection. Only pre-registered public applications are served; dynamic registration answers
 * with the mcp scope only, as the instance does.
 */
import { createHash, randomBytes } from 'node:crypto';
import { HttpError, json } from '../http.js';
import type { Reply } from '../http.js';
import { isExpired } from '../auth.js';
import { nextId, OAUTH_APPLICATION_UID, SIGN_IN_PASSWORD } from '../state.js';
import type { OAuthApplication, State, TokenRecord } from '../state.js';
import { str } from '../context.js';
import type { Ctx } from '../context.js';
import { consentPage, errorPage, signInPage } from './oauth-pages.js';
import type { RouteTable } from './table.js';

export { OAUTH_APPLICATION_UID };

const CODE_LIFETIME_MS = 10 * 60_000;
const SESSION_COOKIE = '_forge_sim_session';
/** Parameters of an authorization request that the pages carry from one form to the next. */
const AUTHORIZE_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

const secret = (prefix: string) => `${prefix}-${randomBytes(24).toString('hex')}`;
const html = (status: number, body: string, headers?: Record<string, string>): Reply => ({
  status,
  raw: body,
  contentType: 'text/html; charset=utf-8',
  ...(headers ? { headers } : {}),
});
const redirect = (location: string, headers: Record<string, string> = {}): Reply => ({
  status: 302,
  raw: '',
  contentType: 'text/html; charset=utf-8',
  headers: { location, ...headers },
});

/** RFC 6749 §5.2 error from the token endpoint. */
const tokenError = (status: number, error: string, description: string): HttpError =>
  new HttpError(status, { error, error_description: description });
const INVALID_GRANT =
  'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.';

const LOOPBACK_LITERALS = new Set(['127.0.0.1', '[::1]']);

/** Exact match, except that a registered loopback IP literal matches any port (RFC 8252 §7.3). */
export function redirectUriMatches(registered: string, presented: string): boolean {
  if (registered === presented) return true;
  let r: URL;
  let p: URL;
  try {
    r = new URL(registered);
    p = new URL(presented);
  } catch {
    return false;
  }
  if (r.protocol !== 'http:' || !LOOPBACK_LITERALS.has(r.hostname)) return false;
  return (
    p.protocol === r.protocol &&
    p.hostname === r.hostname &&
    p.pathname === r.pathname &&
    p.search === r.search &&
    p.hash === '' &&
    p.username === '' &&
    p.password === ''
  );
}

function withParams(uri: string, params: Record<string, string | undefined>): string {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}

function cookieOf(ctx: Ctx, name: string): string | undefined {
  for (const part of (ctx.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

const sessionOf = (ctx: Ctx) => {
  const id = cookieOf(ctx, SESSION_COOKIE);
  return id === undefined ? undefined : ctx.state.oauth.sessions.find((s) => s.id === id);
};

type Checked =
  | { kind: 'page'; reply: Reply }
  | {
      kind: 'ok';
      app: OAuthApplication;
      redirectUri: string;
      scopes: string[];
      params: Record<string, string>;
    };

/**
 * Checks an authorization request in the order RFC 6749 gives: an unknown application or redirect URI is
 * shown on a page (never redirected); every other fault goes back to the redirect URI with its error code.
 */
function checkAuthorizeRequest(ctx: Ctx): Checked {
  const params: Record<string, string> = {};
  for (const k of AUTHORIZE_PARAMS) {
    const v = str(ctx, k);
    if (v !== undefined) params[k] = v;
  }
  const app = ctx.state.oauth.applications.find((a) => a.uid === params.client_id);
  if (!app) {
    return {
      kind: 'page',
      reply: html(
        401,
        errorPage(
          'invalid_client',
          'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
        ),
      ),
    };
  }
  const redirectUri = params.redirect_uri ?? '';
  if (!app.redirectUris.some((r) => redirectUriMatches(r, redirectUri))) {
    return {
      kind: 'page',
      reply: html(400, errorPage('invalid_redirect_uri', 'The redirect URI included is not valid.')),
    };
  }
  const refuse = (error: string, description: string): Checked => ({
    kind: 'page',
    reply: redirect(withParams(redirectUri, { error, error_description: description, state: params.state })),
  });
  if (params.response_type !== 'code') {
    return refuse(
      'unsupported_response_type',
      'The authorization server does not support this response type.',
    );
  }
  if (!params.code_challenge || params.code_challenge_method !== 'S256') {
    return refuse(
      'invalid_request',
      'Missing or invalid PKCE parameters: code_challenge is required with code_challenge_method S256.',
    );
  }
  const scopes = (params.scope ?? '').split(' ').filter(Boolean);
  if (scopes.length === 0 || scopes.some((s) => !app.scopes.includes(s))) {
    return refuse('invalid_scope', 'The requested scope is invalid, unknown, or malformed.');
  }
  return { kind: 'ok', app, redirectUri, scopes, params };
}

function authorizePage(ctx: Ctx): Reply {
  const checked = checkAuthorizeRequest(ctx);
  if (checked.kind === 'page') return checked.reply;
  const session = sessionOf(ctx);
  if (!session) {
    const returnTo = `/oauth/authorize?${new URLSearchParams(checked.params).toString()}`;
    return html(200, signInPage(checked.app.name, returnTo));
  }
  const user = ctx.state.users.find((u) => u.id === session.userId);
  return html(
    200,
    consentPage(checked.app.name, user?.username ?? '', checked.scopes, {
      ...checked.params,
      authenticity_token: session.formToken,
    }),
  );
}

function decide(ctx: Ctx): Reply {
  const session = sessionOf(ctx);
  if (!session || str(ctx, 'authenticity_token') !== session.formToken) {
    return html(
      422,
      errorPage(
        'invalid_request',
        'Your session has expired or the form was not ours. Start again from the application.',
      ),
    );
  }
  const checked = checkAuthorizeRequest(ctx);
  if (checked.kind === 'page') return checked.reply;
  const { params, redirectUri } = checked;
  if (str(ctx, 'decision') !== 'allow') {
    return redirect(
      withParams(redirectUri, {
        error: 'access_denied',
        error_description: 'The resource owner or authorization server denied the request.',
        state: params.state,
      }),
    );
  }
  const code = randomBytes(32).toString('hex');
  ctx.state.oauth.codes.push({
    code,
    clientId: checked.app.uid,
    redirectUri,
    codeChallenge: params.code_challenge,
    scopes: checked.scopes,
    userId: session.userId,
    expiresAt: Date.now() + CODE_LIFETIME_MS,
    used: false,
  });
  return redirect(withParams(redirectUri, { code, state: params.state }));
}

function signIn(ctx: Ctx): Reply {
  const returnTo = str(ctx, 'return_to') ?? '';
  // Only back into the authorization page of this instance.
  const safeReturn = returnTo.startsWith('/oauth/authorize?') ? returnTo : '/oauth/authorize';
  const user = ctx.state.users.find((u) => u.username === str(ctx, 'username'));
  if (!user || str(ctx, 'password') !== SIGN_IN_PASSWORD) {
    const clientId = new URLSearchParams(safeReturn.split('?')[1] ?? '').get('client_id');
    const app = ctx.state.oauth.applications.find((a) => a.uid === clientId);
    return html(401, signInPage(app?.name ?? 'An application', safeReturn, 'Invalid login or password.'));
  }
  const session = {
    id: randomBytes(24).toString('hex'),
    userId: user.id,
    formToken: randomBytes(24).toString('hex'),
  };
  ctx.state.oauth.sessions.push(session);
  return redirect(safeReturn, {
    'set-cookie': `${SESSION_COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Lax`,
  });
}

function issueTokens(ctx: Ctx, app: OAuthApplication, userId: number, scopes: string[]): Reply {
  const state: State = ctx.state;
  const lifetime = ctx.rt.oauthTokenLifetimeSeconds;
  const now = Date.now();
  const record: TokenRecord = {
    id: nextId(state, 'token'),
    name: `oauth-${app.name}`,
    token: secret('forgesim-oauth'),
    refreshToken: secret('forgesim-refresh'),
    userId,
    scopes,
    kind: 'oauth',
    revoked: false,
    expiresAt: new Date(now + lifetime * 1000).toISOString(),
    createdAt: new Date(now).toISOString(),
    applicationUid: app.uid,
  };
  state.tokens.push(record);
  return json(
    200,
    {
      access_token: record.token,
      token_type: 'Bearer',
      expires_in: lifetime,
      refresh_token: record.refreshToken,
      scope: scopes.join(' '),
      created_at: Math.floor(now / 1000),
    },
    { 'cache-control': 'no-store', pragma: 'no-cache' },
  );
}

/** A public application identifies itself by client_id in the body (or as the user of Basic credentials). */
function clientOf(ctx: Ctx): OAuthApplication {
  let id = str(ctx, 'client_id');
  const basic = /^Basic\s+(.+)$/i.exec(ctx.headers.authorization ?? '');
  if (!id && basic) id = decodeURIComponent(Buffer.from(basic[1], 'base64').toString('utf8').split(':')[0]);
  const app = ctx.state.oauth.applications.find((a) => a.uid === id);
  if (!app) {
    throw tokenError(
      401,
      'invalid_client',
      'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
    );
  }
  return app;
}

function token(ctx: Ctx): Reply {
  const grant = str(ctx, 'grant_type');
  if (grant !== 'authorization_code' && grant !== 'refresh_token') {
    throw tokenError(
      400,
      'unsupported_grant_type',
      'The authorization grant type is not supported by the authorization server.',
    );
  }
  const app = clientOf(ctx);
  if (grant === 'refresh_token') {
    const presented = str(ctx, 'refresh_token');
    const old = ctx.state.tokens.find((t) => t.refreshToken !== undefined && t.refreshToken === presented);
    if (!old || old.revoked || old.applicationUid !== app.uid)
      throw tokenError(400, 'invalid_grant', INVALID_GRANT);
    // The refresh token is used once: the old pair is revoked and a new one issued with the same scopes.
    old.revoked = true;
    return issueTokens(ctx, app, old.userId, old.scopes);
  }
  const code = ctx.state.oauth.codes.find((c) => c.code === str(ctx, 'code'));
  if (!code || code.used || code.expiresAt < Date.now() || code.clientId !== app.uid) {
    throw tokenError(400, 'invalid_grant', INVALID_GRANT);
  }
  // A code is spent by its first exchange, whether or not that exchange succeeds.
  code.used = true;
  if (str(ctx, 'redirect_uri') !== code.redirectUri) throw tokenError(400, 'invalid_grant', INVALID_GRANT);
  const verifier = str(ctx, 'code_verifier') ?? '';
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  if (!verifier || challenge !== code.codeChallenge) {
    throw tokenError(400, 'invalid_grant', INVALID_GRANT);
  }
  return issueTokens(ctx, app, code.userId, code.scopes);
}

/** RFC 7009: the access token or its refresh token; both halves of the pair end together. Always 200. */
function revoke(ctx: Ctx): Reply {
  const presented = str(ctx, 'token');
  const record = ctx.state.tokens.find(
    (t) =>
      t.kind === 'oauth' &&
      presented !== undefined &&
      (t.token === presented || t.refreshToken === presented),
  );
  if (record) record.revoked = true;
  return json(200, {});
}

export function registerOAuth(r: RouteTable): void {
  r.add('GET', '/oauth/token/info', (ctx) => {
    const t = ctx.state.tokens.find((x) => x.token === ctx.presented);
    // Introspection only knows OAuth access tokens; anything else is an invalid token to it.
    if (!t || t.kind !== 'oauth' || t.revoked || isExpired(t)) {
      throw new HttpError(
        401,
        { error: 'invalid_token', error_description: 'The access token is invalid' },
        {
          'www-authenticate':
            'Bearer realm="Doorkeeper", error="invalid_token", error_description="The access token is invalid"',
        },
      );
    }
    // Seconds left, as the instance reports them; the seeded token (no expiry) answers the default two hours.
    const left =
      t.expiresAt === null ? 7200 : Math.max(0, Math.floor((Date.parse(t.expiresAt) - Date.now()) / 1000));
    return json(200, {
      resource_owner_id: t.userId,
      scope: t.scopes,
      expires_in: left,
      application: { uid: t.applicationUid ?? OAUTH_APPLICATION_UID },
      created_at: Math.floor(Date.parse(t.createdAt) / 1000),
      scopes: t.scopes,
      expires_in_seconds: left,
    });
  });
  r.add('GET', '/oauth/authorize', authorizePage);
  r.add('POST', '/oauth/authorize', decide);
  r.add('POST', '/users/sign_in', signIn);
  r.add('POST', '/oauth/token', token);
  r.add('POST', '/oauth/revoke', revoke);
  const metadata = (issuer: string) => ({
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    registration_endpoint: `${issuer}/oauth/register`,
    userinfo_endpoint: `${issuer}/oauth/userinfo`,
    jwks_uri: `${issuer}/oauth/discovery/keys`,
    scopes_supported: [
      'api',
      'read_api',
      'read_user',
      'create_runner',
      'manage_runner',
      'k8s_proxy',
      'read_repository',
      'write_repository',
      'sudo',
      'admin_mode',
      'mcp',
      'openid',
      'profile',
      'email',
    ],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
  });
  r.add('GET', '/.well-known/oauth-authorization-server', (ctx) => json(200, metadata(ctx.rt.baseUrl)));
  r.add('GET', '/.well-known/openid-configuration', (ctx) => json(200, metadata(ctx.rt.baseUrl)));
  r.add('POST', '/oauth/register', (ctx) =>
    json(201, {
      client_id: `forgesim-client-${Date.now()}`,
      client_name: str(ctx, 'client_name') ?? 'client',
      redirect_uris: ctx.input.redirect_uris ?? [],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      scope: 'mcp',
    }),
  );
}
