/**
 * The authorization server as a client meets it over HTTP, without a browser: the checks on an
 * authorization request, the sign-in and consent forms, the code exchange with PKCE, refresh and revocation.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startForgeSim } from './index.js';
import type { ForgeSim } from './index.js';

let sim: ForgeSim;
beforeAll(async () => {
  sim = await startForgeSim({ oauthRedirectUris: ['http://localhost:33418/callback'] });
});
afterAll(() => sim.close());

const verifier = randomBytes(32).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');
const REDIRECT = 'http://127.0.0.1:40123/callback';

function authorizeUrl(over: Record<string, string | undefined> = {}): string {
  const u = new URL(`${sim.url}/oauth/authorize`);
  const params: Record<string, string | undefined> = {
    client_id: sim.oauth.clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'api',
    state: 'st4te',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...over,
  };
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}

const noFollow = (url: string, init: RequestInit = {}) => fetch(url, { ...init, redirect: 'manual' });
const form = (fields: Record<string, string>, cookie?: string): RequestInit => ({
  method: 'POST',
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    ...(cookie ? { cookie } : {}),
  },
  body: new URLSearchParams(fields).toString(),
});

/** Signs alice in; returns the session cookie and the consent form's fields. */
async function signedIn(): Promise<{ cookie: string; fields: Record<string, string> }> {
  const page = await (await fetch(authorizeUrl())).text();
  const returnTo = /name="return_to" value="([^"]+)"/.exec(page)![1].replace(/&amp;/g, '&');
  const res = await noFollow(
    `${sim.url}/users/sign_in`,
    form({ return_to: returnTo, username: sim.oauth.username, password: sim.oauth.password }),
  );
  expect(res.status).toBe(302);
  const cookie = res.headers.get('set-cookie')!.split(';')[0];
  const consent = await (
    await fetch(new URL(res.headers.get('location')!, sim.url), { headers: { cookie } })
  ).text();
  const fields: Record<string, string> = {};
  for (const m of consent.matchAll(/type="hidden" name="([^"]+)" value="([^"]*)"/g))
    fields[m[1]] = m[2].replace(/&amp;/g, '&');
  return { cookie, fields };
}

async function codeFor(): Promise<string> {
  const { cookie, fields } = await signedIn();
  const res = await noFollow(`${sim.url}/oauth/authorize`, form({ ...fields, decision: 'allow' }, cookie));
  const back = new URL(res.headers.get('location')!);
  expect(back.origin + back.pathname).toBe(REDIRECT);
  expect(back.searchParams.get('state')).toBe('st4te');
  return back.searchParams.get('code')!;
}

const token = (fields: Record<string, string>) => fetch(`${sim.url}/oauth/token`, form(fields));

describe('forge-sim authorization server', () => {
  it('publishes metadata with S256 as the only code challenge method', async () => {
    const meta = (await (await fetch(`${sim.url}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(meta.issuer).toBe(sim.url);
    expect(meta.authorization_endpoint).toBe(`${sim.url}/oauth/authorize`);
    expect(meta.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('shows the sign-in page naming the application, and the consent page naming it and the scope', async () => {
    const signIn = await fetch(authorizeUrl());
    expect(signIn.headers.get('content-type')).toContain('text/html');
    expect(await signIn.text()).toContain('<strong>Forge MCP</strong> is asking to use your account');
    const { fields } = await signedIn();
    expect(fields.scope).toBe('api');
    const wrong = await fetch(
      `${sim.url}/users/sign_in`,
      form({ return_to: '/oauth/authorize?x=1', username: 'alice', password: 'nope' }),
    );
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Invalid login or password.');
  });

  it('matches a loopback IP literal on any port, but localhost and other URIs exactly', async () => {
    expect((await noFollow(authorizeUrl({ redirect_uri: 'http://127.0.0.1:1/callback' }))).status).toBe(200);
    expect((await noFollow(authorizeUrl({ redirect_uri: 'http://[::1]:9/callback' }))).status).toBe(200);
    expect((await noFollow(authorizeUrl({ redirect_uri: 'http://localhost:33418/callback' }))).status).toBe(
      200,
    );
    for (const uri of [
      'http://localhost:33419/callback',
      'http://127.0.0.1:1/other',
      'https://evil.example/callback',
    ]) {
      const res = await noFollow(authorizeUrl({ redirect_uri: uri }));
      expect(res.status, uri).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('The redirect URI included is not valid.');
    }
    const unknown = await noFollow(authorizeUrl({ client_id: 'nobody' }));
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('location')).toBeNull();
  });

  it('sends invalid_scope, a missing or plain PKCE challenge and a wrong response type back to the redirect URI', async () => {
    const errorOf = async (over: Record<string, string | undefined>) => {
      const res = await noFollow(authorizeUrl(over));
      expect(res.status).toBe(302);
      const back = new URL(res.headers.get('location')!);
      expect(back.searchParams.get('state')).toBe('st4te');
      return back.searchParams.get('error');
    };
    expect(await errorOf({ scope: 'api mcp' })).toBe('invalid_scope');
    expect(await errorOf({ scope: 'admin_mode' })).toBe('invalid_scope');
    expect(await errorOf({ code_challenge_method: 'plain', code_challenge: verifier })).toBe(
      'invalid_request',
    );
    expect(await errorOf({ code_challenge: undefined, code_challenge_method: undefined })).toBe(
      'invalid_request',
    );
    expect(await errorOf({ response_type: 'token' })).toBe('unsupported_response_type');
  });

  it('answers a denial with access_denied to the redirect URI, and a consent without the form token with a page', async () => {
    const { cookie, fields } = await signedIn();
    const res = await noFollow(`${sim.url}/oauth/authorize`, form({ ...fields, decision: 'deny' }, cookie));
    const back = new URL(res.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st4te');
    expect(back.searchParams.get('code')).toBeNull();
    const forged = await noFollow(
      `${sim.url}/oauth/authorize`,
      form({ ...fields, authenticity_token: 'x', decision: 'allow' }, cookie),
    );
    expect(forged.status).toBe(422);
    expect(forged.headers.get('location')).toBeNull();
  });

  it('exchanges a code once, only with its verifier and redirect URI, and issues a working token', async () => {
    const wrong = await codeFor();
    const refused = await token({
      grant_type: 'authorization_code',
      client_id: sim.oauth.clientId,
      code: wrong,
      redirect_uri: REDIRECT,
      code_verifier: randomBytes(32).toString('base64url'),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe('invalid_grant');
    // A code is spent by a failed exchange too.
    const retried = await token({
      grant_type: 'authorization_code',
      client_id: sim.oauth.clientId,
      code: wrong,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(retried.status).toBe(400);

    const code = await codeFor();
    const otherUri = await token({
      grant_type: 'authorization_code',
      client_id: sim.oauth.clientId,
      code,
      redirect_uri: 'http://127.0.0.1:1/callback',
      code_verifier: verifier,
    });
    expect(otherUri.status).toBe(400);
    const good = await codeFor();
    const unknownClient = await token({
      grant_type: 'authorization_code',
      client_id: 'nobody',
      code: good,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(unknownClient.status).toBe(401);
    expect(((await unknownClient.json()) as { error: string }).error).toBe('invalid_client');
    const issued = await token({
      grant_type: 'authorization_code',
      client_id: sim.oauth.clientId,
      code: good,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(issued.status).toBe(200);
    const t = (await issued.json()) as Record<string, string | number>;
    expect(t).toMatchObject({ token_type: 'Bearer', expires_in: 7200, scope: 'api' });
    const me = await fetch(`${sim.url}/api/v4/user`, {
      headers: { authorization: `Bearer ${t.access_token}` },
    });
    expect(((await me.json()) as { username: string }).username).toBe('alice');
    const info = (await (
      await fetch(`${sim.url}/oauth/token/info`, { headers: { authorization: `Bearer ${t.access_token}` } })
    ).json()) as { application: { uid: string } };
    expect(info.application.uid).toBe(sim.oauth.clientId);
  });

  it('refreshes once per refresh token, ending the old pair; revocation ends a pair', async () => {
    const code = await codeFor();
    const first = (await (
      await token({
        grant_type: 'authorization_code',
        client_id: sim.oauth.clientId,
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      })
    ).json()) as Record<string, string>;
    const refreshed = await token({
      grant_type: 'refresh_token',
      client_id: sim.oauth.clientId,
      refresh_token: first.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    const second = (await refreshed.json()) as Record<string, string>;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.scope).toBe('api');
    const old = await fetch(`${sim.url}/api/v4/user`, {
      headers: { authorization: `Bearer ${first.access_token}` },
    });
    expect(old.status).toBe(401);
    const again = await token({
      grant_type: 'refresh_token',
      client_id: sim.oauth.clientId,
      refresh_token: first.refresh_token,
    });
    expect(((await again.json()) as { error: string }).error).toBe('invalid_grant');

    const revoked = await fetch(
      `${sim.url}/oauth/revoke`,
      form({ token: second.access_token, client_id: sim.oauth.clientId }),
    );
    expect(revoked.status).toBe(200);
    const after = await fetch(`${sim.url}/api/v4/user`, {
      headers: { authorization: `Bearer ${second.access_token}` },
    });
    expect(after.status).toBe(401);
    const viaRefresh = await token({
      grant_type: 'refresh_token',
      client_id: sim.oauth.clientId,
      refresh_token: second.refresh_token,
    });
    expect(viaRefresh.status).toBe(400);
  });
});
