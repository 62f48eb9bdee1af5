import { request as httpsRequest } from 'node:https';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startForgeSim } from './index.js';
import type { ForgeSim } from './index.js';

let sim: ForgeSim;
beforeAll(async () => {
  sim = await startForgeSim();
});
afterAll(() => sim.close());
afterEach(() => sim.reset());

const get = (path: string, init: RequestInit = {}) =>
  fetch(`${sim.url}${path}`, {
    redirect: 'manual',
    ...init,
    headers: { 'PRIVATE-TOKEN': sim.tokens.api, ...(init.headers as Record<string, string>) },
  });

describe('faults', () => {
  it('answers 429 with Retry-After, then recovers after `times`', async () => {
    sim.fault({ path: '/api/v4/projects/1', status: 429, headers: { 'Retry-After': '7' }, times: 1 });
    const first = await get('/api/v4/projects/1');
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('7');
    expect((await get('/api/v4/projects/1')).status).toBe(200);
  });

  it('answers 503 with a custom body on a RegExp path and method', async () => {
    sim.fault({ method: 'GET', path: /\/issues$/, status: 503, body: { message: 'maintenance' } });
    const res = await get('/api/v4/projects/1/issues');
    expect(res.status).toBe(503);
    expect((await res.json()) as any).toEqual({ message: 'maintenance' });
    expect(
      (
        await get('/api/v4/projects/1/issues', {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    sim.clearFaults();
    expect((await get('/api/v4/projects/1/issues')).status).toBe(200);
  });

  it('delays a response', async () => {
    sim.fault({ path: '/api/v4/version', delayMs: 300, times: 1 });
    const t = Date.now();
    const res = await get('/api/v4/version');
    expect(res.status).toBe(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(290);
  });

  it('holds only the credential a rule names; records a held request whose client went away as abandoned', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    sim.fault({ path: '/api/v4/version', token: sim.tokens.api, until: gate, times: 2 });
    const other = await get('/api/v4/version', { headers: { 'PRIVATE-TOKEN': sim.tokens.readApi } });
    expect(other.status).toBe(200);
    sim.reset();
    sim.fault({ path: '/api/v4/version', token: sim.tokens.api, until: gate, times: 2 });
    const gone = new AbortController();
    const left = get('/api/v4/version', { signal: gone.signal });
    const held = () => sim.requests.filter((r) => r.path === '/api/v4/version');
    await until(() => held().length === 1);
    gone.abort();
    await expect(left).rejects.toThrow();
    await until(() => held()[0]!.abandoned === true);
    const answered = get('/api/v4/version');
    await until(() => held().length === 2);
    open();
    expect((await answered).status).toBe(200);
    expect(held()[1]!.abandoned).toBeUndefined();
  });

  it('drops the connection', async () => {
    sim.fault({ path: '/api/v4/user', drop: true, times: 1 });
    await expect(get('/api/v4/user')).rejects.toThrow();
    expect(sim.requests.at(-1)).toMatchObject({ path: '/api/v4/user', status: 0 });
  });

  it('redirects on the same host and to another host', async () => {
    sim.fault({ path: '/api/v4/user', redirectTo: '/api/v4/users/2', times: 1 });
    const res = await get('/api/v4/user');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${sim.url}/api/v4/users/2`);
    const followed = await get('/api/v4/user', { redirect: 'follow' });
    expect(((await followed.json()) as any).username).toBe('alice');

    const other = await startForgeSim();
    try {
      sim.fault({
        path: '/api/v4/version',
        redirectTo: `${other.url}/api/v4/version`,
        redirectStatus: 307,
        times: 1,
      });
      const cross = await get('/api/v4/version');
      expect(cross.status).toBe(307);
      expect(cross.headers.get('location')).toBe(`${other.url}/api/v4/version`);
      await fetch(cross.headers.get('location')!, { headers: { 'PRIVATE-TOKEN': sim.tokens.api } });
      expect(other.requests).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('targets a GraphQL operation', async () => {
    sim.fault({
      graphqlOperation: 'getProject',
      status: 200,
      body: { data: { project: null }, errors: [{ message: 'boom' }] },
    });
    const gql = (query: string) =>
      fetch(`${sim.url}/api/graphql`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${sim.tokens.api}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
    expect((await (await gql('query getProject { project(fullPath: "a/b") { id } }')).json()) as any).toEqual(
      {
        data: { project: null },
        errors: [{ message: 'boom' }],
      },
    );
    expect(
      ((await (await gql('query other { project(fullPath: "a/b") { id } }')).json()) as any).data.project.id,
    ).toBe('gid://gitlab/Project/1');
  });

  it('records every request, and nothing when nothing was sent', async () => {
    sim.clearRequests();
    expect(sim.requests).toEqual([]);
    await get('/api/v4/projects?search=widg&per_page=5', { headers: { 'X-Custom': 'yes' } });
    expect(sim.requests).toHaveLength(1);
    expect(sim.requests[0]).toMatchObject({
      method: 'GET',
      path: '/api/v4/projects',
      query: { search: 'widg', per_page: '5' },
      token: sim.tokens.api,
      status: 200,
    });
    expect(sim.requests[0].headers['x-custom']).toBe('yes');
  });

  it('applies the latency option to every response', async () => {
    const slow = await startForgeSim({ latencyMs: 200 });
    try {
      const t = Date.now();
      await fetch(`${slow.url}/api/v4/version`);
      expect(Date.now() - t).toBeGreaterThanOrEqual(190);
    } finally {
      await slow.close();
    }
  });
});

describe('self-signed TLS', () => {
  it('answers over https with the ca, and fails verification without it', async () => {
    const secure = await startForgeSim({ tls: 'self-signed' });
    try {
      expect(secure.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(secure.ca).toContain('BEGIN CERTIFICATE');
      const fetchWith = (ca?: string) =>
        new Promise<number>((resolve, reject) => {
          const req = httpsRequest(
            `${secure.url}/api/v4/version`,
            { ca, headers: { 'PRIVATE-TOKEN': secure.tokens.api } },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on('error', reject);
          req.end();
        });
      expect(await fetchWith(secure.ca)).toBe(200);
      await expect(fetchWith(undefined)).rejects.toThrow(/self[- ]signed|certificate/i);
    } finally {
      await secure.close();
    }
  });
});

describe('instance quirks', () => {
  it('refuses an OAuth token, and a token sent as PRIVATE-TOKEN, on ML model package files with 401', async () => {
    const path = '/api/v4/projects/1/packages/ml_models/1/files/model.bin';
    const oauth = await fetch(`${sim.url}${path}`, {
      headers: { Authorization: `Bearer ${sim.tokens.oauth}` },
    });
    expect(oauth.status).toBe(401);
    const pat = await fetch(`${sim.url}${path}`, { headers: { Authorization: `Bearer ${sim.tokens.api}` } });
    expect(pat.status).toBe(200);
    expect(pat.headers.get('content-type')).toBe('application/octet-stream');
    const privateToken = await fetch(`${sim.url}${path}`, { headers: { 'PRIVATE-TOKEN': sim.tokens.api } });
    expect(privateToken.status).toBe(401);
  });
});

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
