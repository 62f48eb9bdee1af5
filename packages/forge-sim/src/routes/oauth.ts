/** OAuth endpoints outside /api/v4: token introspection, the token endpoint and authorization-server metadata. */
import { HttpError, json } from '../http.js';
import { isExpired } from '../auth.js';
import { str } from '../context.js';
import type { RouteTable } from './table.js';

export const OAUTH_APPLICATION_UID = 'forgesim0000000000000000000000000000000000000000000000000000app';

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
  r.add('POST', '/oauth/token', (ctx) => {
    const grant = str(ctx, 'grant_type');
    if (grant !== 'authorization_code' && grant !== 'refresh_token') {
      throw new HttpError(400, {
        error: 'unsupported_grant_type',
        error_description: 'The authorization grant type is not supported by the authorization server.',
      });
    }
    const oauth = ctx.state.tokens.find((t) => t.kind === 'oauth');
    return json(200, {
      access_token: oauth?.token,
      token_type: 'Bearer',
      expires_in: 7200,
      refresh_token: 'forgesim-refresh-token',
      scope: (oauth?.scopes ?? ['api']).join(' '),
      created_at: Math.floor(Date.now() / 1000),
    });
  });
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
    response_modes_supported: ['query', 'fragment'],
    grant_types_supported: ['authorization_code', 'password', 'client_credentials', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    code_challenge_methods_supported: ['plain', 'S256'],
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
