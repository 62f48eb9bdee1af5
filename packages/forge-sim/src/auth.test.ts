import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startForgeSim } from './index.js';
import type { ForgeSim } from './index.js';

let sim: ForgeSim;
beforeAll(async () => {
  sim = await startForgeSim();
});
afterAll(() => sim.close());

const get = (path: string, token?: string, init: RequestInit = {}) =>
  fetch(`${sim.url}${path}`, {
    ...init,
    headers: { ...(token ? { 'PRIVATE-TOKEN': token } : {}), ...(init.headers as Record<string, string>) },
  });

describe('authentication outcomes', () => {
  it('answers a missing token with 401 Unauthorized', async () => {
    const res = await get('/api/v4/projects/1');
    expect(res.status).toBe(401);
    expect((await res.json()) as any).toEqual({ message: '401 Unauthorized' });
  });

  it('refuses a revoked token with invalid_token and a challenge', async () => {
    const res = await get('/api/v4/user', sim.tokens.revoked);
    expect(res.status).toBe(401);
    expect((await res.json()) as any).toEqual({
      error: 'invalid_token',
      error_description: 'Token is revoked',
    });
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm=".*", error="invalid_token"/);
  });

  it('refuses an unknown token like a revoked one', async () => {
    const res = await get('/api/v4/user', 'glpat-nope');
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).error).toBe('invalid_token');
  });

  it('refuses an expired token with "Token is expired"', async () => {
    const res = await get('/api/v4/user', sim.tokens.expired);
    expect(res.status).toBe(401);
    expect((await res.json()) as any).toEqual({
      error: 'invalid_token',
      error_description: 'Token is expired',
    });
  });

  it('accepts the token as a Bearer header too', async () => {
    const res = await fetch(`${sim.url}/api/v4/user`, {
      headers: { Authorization: `Bearer ${sim.tokens.oauth}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).username).toBe('alice');
  });

  it('lets read_api read but not write', async () => {
    expect((await get('/api/v4/projects/1', sim.tokens.readApi)).status).toBe(200);
    const res = await get('/api/v4/projects/1/issues', sim.tokens.readApi, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x' }),
    });
    expect(res.status).toBe(403);
    expect((await res.json()) as any).toEqual({
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: 'api',
    });
  });

  it('lets read_api run the writes the instance accepts from it (revoking itself)', async () => {
    const res = await get('/api/v4/personal_access_tokens/self', sim.tokens.readApi, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect((await get('/api/v4/user', sim.tokens.readApi)).status).toBe(401);
    sim.reset();
  });

  it('gives read_user only the current user and the token self-description', async () => {
    expect((await get('/api/v4/user', sim.tokens.noScope)).status).toBe(200);
    expect((await get('/api/v4/personal_access_tokens/self', sim.tokens.noScope)).status).toBe(200);
    const res = await get('/api/v4/projects', sim.tokens.noScope);
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error).toBe('insufficient_scope');
  });

  it('refuses an mcp-only token everywhere except its self-description', async () => {
    expect((await get('/api/v4/user', sim.tokens.mcpOnly)).status).toBe(403);
    expect((await get('/api/v4/version', sim.tokens.mcpOnly)).status).toBe(403);
    const self = await get('/api/v4/personal_access_tokens/self', sim.tokens.mcpOnly);
    expect(((await self.json()) as any).scopes).toEqual(['mcp']);
  });

  it('keeps admin routes for the admin token', async () => {
    const res = await get('/api/v4/application/settings', sim.tokens.api);
    expect(res.status).toBe(403);
    expect((await res.json()) as any).toEqual({ message: '403 Forbidden' });
    expect((await get('/api/v4/application/settings', sim.tokens.admin)).status).toBe(200);
    expect((await get('/api/v4/license', sim.tokens.api)).status).toBe(403);
  });

  it('gives a fine-grained token its granted reads and insufficient_granular_scope elsewhere', async () => {
    expect((await get('/api/v4/user', sim.tokens.fineGrained)).status).toBe(200);
    expect((await get('/api/v4/projects/1/issues', sim.tokens.fineGrained)).status).toBe(200);
    expect(
      (await get('/api/v4/projects/acme%2Fwidgets/merge_requests/1', sim.tokens.fineGrained)).status,
    ).toBe(200);
    const other = await get('/api/v4/projects/2/issues', sim.tokens.fineGrained);
    expect(other.status).toBe(403);
    expect(((await other.json()) as any).error).toBe('insufficient_granular_scope');
    const write = await get('/api/v4/projects/1/issues', sim.tokens.fineGrained, {
      method: 'POST',
      body: 'title=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(((await write.json()) as any).error).toBe('insufficient_granular_scope');
  });

  it('records refused requests with the credential presented', async () => {
    sim.clearRequests();
    await get('/api/v4/projects', sim.tokens.revoked);
    expect(sim.requests).toHaveLength(1);
    expect(sim.requests[0]).toMatchObject({
      method: 'GET',
      path: '/api/v4/projects',
      token: sim.tokens.revoked,
      status: 401,
    });
  });

  it('answers an unknown path 404 before judging the token', async () => {
    const res = await get('/api/v4/nothing/here');
    expect(res.status).toBe(404);
    expect((await res.json()) as any).toEqual({ error: '404 Not Found' });
  });
});

describe('identity routes', () => {
  it('describes each token kind by its scopes', async () => {
    const scopes = async (t: string) =>
      ((await (await get('/api/v4/personal_access_tokens/self', t)).json()) as any).scopes;
    expect(await scopes(sim.tokens.api)).toEqual(['api']);
    expect(await scopes(sim.tokens.readApi)).toEqual(['read_api']);
    expect(await scopes(sim.tokens.admin)).toEqual(['api', 'admin_mode']);
    expect(await scopes(sim.tokens.noScope)).toEqual(['read_user']);
    expect(await scopes(sim.tokens.fineGrained)).toEqual(['granular']);
  });

  it('reads a fine-grained grant by token id', async () => {
    const self = (await (
      await get('/api/v4/personal_access_tokens/self', sim.tokens.fineGrained)
    ).json()) as any;
    const grant = (await (
      await get(`/api/v4/personal_access_tokens/${self.id}`, sim.tokens.fineGrained)
    ).json()) as any;
    expect(grant.granular_scopes.length).toBeGreaterThan(0);
  });

  it('answers version, metadata and namespaces', async () => {
    expect((await (await get('/api/v4/version', sim.tokens.api)).json()) as any).toMatchObject({
      version: '19.4.1-ee',
    });
    expect(((await (await get('/api/v4/metadata', sim.tokens.api)).json()) as any).version).toBe('19.4.1-ee');
    const ns = (await (await get('/api/v4/namespaces', sim.tokens.api)).json()) as any;
    expect(ns.find((n: { full_path: string }) => n.full_path === 'acme')).toMatchObject({
      kind: 'group',
      plan: 'ultimate',
    });
  });

  it('answers the license per setLicense, 404 when none', async () => {
    sim.setLicense('premium');
    expect(((await (await get('/api/v4/license', sim.tokens.admin)).json()) as any).plan).toBe('premium');
    sim.setLicense(null);
    expect((await get('/api/v4/license', sim.tokens.admin)).status).toBe(404);
    sim.reset();
  });

  it('introspects only the OAuth token', async () => {
    const res = await fetch(`${sim.url}/oauth/token/info`, {
      headers: { Authorization: `Bearer ${sim.tokens.oauth}` },
    });
    expect(res.status).toBe(200);
    const info = (await res.json()) as any;
    expect(info).toMatchObject({
      resource_owner_id: 2,
      scope: ['api'],
      application: { uid: expect.any(String) },
    });
    const other = await fetch(`${sim.url}/oauth/token/info`, {
      headers: { Authorization: `Bearer ${sim.tokens.api}` },
    });
    expect(other.status).toBe(401);
  });
});

describe('tokens added at run time', () => {
  it('issues an OAuth token to a given application, introspected with its own lifetime', async () => {
    const token = sim.addToken({
      scopes: ['read_api'],
      expiresInSeconds: 600,
      applicationUid: 'app-under-test',
    });
    const res = await fetch(`${sim.url}/oauth/token/info`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const info = (await res.json()) as any;
    expect(info.application).toEqual({ uid: 'app-under-test' });
    expect(info.scope).toEqual(['read_api']);
    expect(info.expires_in).toBeGreaterThan(590);
    expect(info.expires_in).toBeLessThanOrEqual(600);
    const self = await fetch(`${sim.url}/api/v4/personal_access_tokens/self`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(self.status).toBe(404);
    sim.reset();
  });

  it('refuses an added token once its lifetime has passed', async () => {
    const token = sim.addToken({ expiresInSeconds: 1 });
    const ok = await fetch(`${sim.url}/api/v4/user`, { headers: { Authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    const late = await fetch(`${sim.url}/api/v4/user`, { headers: { Authorization: `Bearer ${token}` } });
    expect(late.status).toBe(401);
    sim.reset();
  });

  it('refuses GET /user to a fine-grained token whose grant lacks User: Read', async () => {
    const token = sim.addToken({
      granularScopes: [{ access: 'user', permissions: ['read_personal_access_token'] }],
    });
    const user = await fetch(`${sim.url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': token } });
    expect(user.status).toBe(403);
    expect(((await user.json()) as any).error).toBe('insufficient_granular_scope');
    const self = await fetch(`${sim.url}/api/v4/personal_access_tokens/self`, {
      headers: { 'PRIVATE-TOKEN': token },
    });
    expect(((await self.json()) as any).scopes).toEqual(['granular']);
    expect(
      (await fetch(`${sim.url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': sim.tokens.fineGrained } }))
        .status,
    ).toBe(200);
    sim.reset();
  });

  it('adds a personal access token with the given scopes', async () => {
    const token = sim.addToken({ kind: 'personal', scopes: ['mcp'] });
    const self = await fetch(`${sim.url}/api/v4/personal_access_tokens/self`, {
      headers: { 'PRIVATE-TOKEN': token },
    });
    expect(((await self.json()) as any).scopes).toEqual(['mcp']);
    sim.reset();
  });
});
