/**
 * OAuth mode (--auth-mode=oauth) as a resource server, through real loopback HTTP against the built server
 * and forge-sim: the bearer-only door and its challenges, the protected-resource metadata document, the
 * verified identity cache and the refused-token memory, the application pin, and how verification treats
 * unreadable scopes and an instance that is throttled or unreachable. forge-sim's request log shows what
 * reached the instance.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  executeCall,
  httpServer,
  httpServerAt,
  logged,
  logRecords,
  rpc,
  sim,
  type ForgeSim,
  type HttpServerProcess,
} from './harness.js';
import { expectRetryAfter, ShiftedClock } from './clock.js';

const PUBLIC = 'http://localhost:8123/mcp';
const METADATA = 'http://localhost:8123/.well-known/oauth-protected-resource/mcp';
const CHALLENGE = `Bearer realm="forge-mcp-server", scope="api", resource_metadata="${METADATA}"`;
const PINNED_PUBLIC = 'http://localhost:8124';
const PINNED_METADATA = 'http://localhost:8124/.well-known/oauth-protected-resource';
const PINNED_DOCS = 'https://docs.example.com/forge/oauth';
const PINNED_APP = 'app-pinned-0001';

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
/** The requests a verification makes. */
const VERIFYING = /\/(api\/v4\/user|api\/v4\/personal_access_tokens\/self|oauth\/token\/info)$/;

let s: ForgeSim;
/** OAuth mode, public URL with a path, no pin; debug logs. */
let oauth: HttpServerProcess;
/** OAuth mode under read-only, public URL without a path, pinned to one application, every optional URL set. */
let pinned: HttpServerProcess;
let legacy: HttpServerProcess;

function originOf(server: HttpServerProcess): string {
  return new URL(server.url).origin;
}

function post(server: HttpServerProcess, headers: Record<string, string> = {}, body: unknown = LIST) {
  return rpc(server.url, headers, body);
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Runs `fn` and returns what it sent to the instance (paths). */
async function sentBy<T>(fn: () => Promise<T>): Promise<{ out: T; paths: string[] }> {
  const before = s.requests.length;
  const out = await fn();
  return { out, paths: s.requests.slice(before).map((r) => r.path) };
}

/** Lets a verification's trailing request (the token's description, sent beside the identity check) land. */
const settle = () => new Promise((r) => setTimeout(r, 200));

async function rpcBody(res: Response) {
  return (await res.json()) as { jsonrpc: string; id: unknown; error?: { code: number; message: string } };
}

beforeAll(async () => {
  s = await sim();
  [oauth, pinned, legacy] = await Promise.all([
    httpServer(s, ['--auth-mode=oauth', `--public-url=${PUBLIC}`], { FORGE_MCP_LOG_LEVEL: 'debug' }),
    httpServer(s, [
      '--auth-mode=oauth',
      `--public-url=${PINNED_PUBLIC}`,
      '--read-only',
      `--oauth-client-uid=other-app,${PINNED_APP}`,
      `--resource-documentation=${PINNED_DOCS}`,
      '--resource-policy-uri=https://example.com/policy',
      '--resource-tos-uri=https://example.com/tos',
    ]),
    httpServer(s),
  ]);
});
afterEach(() => s.clearFaults());
afterAll(async () => {
  await Promise.all([oauth.stop(), pinned.stop(), legacy.stop()]);
  await s.close();
});

describe('OAuth mode: the bearer-only door', () => {
  it('answers a request without a credential 401 with the challenge naming scope and metadata, and -40100', async () => {
    const { out: res, paths } = await sentBy(() => post(oauth));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(CHALLENGE);
    const body = await rpcBody(res);
    expect(body.error!.code).toBe(-40100);
    expect(body.error!.message).toMatch(
      /^no credential: send an OAuth access token as "Authorization: Bearer/,
    );
    expect(paths).toEqual([]);
  });

  it('refuses PRIVATE-TOKEN (even a valid one) 401 with the challenge, sending nothing to the instance', async () => {
    const { out: res, paths } = await sentBy(() => post(oauth, { 'private-token': s.tokens.api }));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(CHALLENGE);
    const body = await rpcBody(res);
    expect(body.error!.code).toBe(-40100);
    expect(body.error!.message).toMatch(/^PRIVATE-TOKEN is not accepted by this server \(OAuth mode\)/);
    expect(body.error!.message).not.toContain(s.tokens.api);
    expect(paths).toEqual([]);
  });

  it('refuses PRIVATE-TOKEN beside a valid bearer token too, sending nothing', async () => {
    const { out: res, paths } = await sentBy(() =>
      post(oauth, { ...bearer(s.tokens.oauth), 'private-token': s.tokens.api }),
    );
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(CHALLENGE);
    expect((await rpcBody(res)).error!.message).toMatch(
      /^PRIVATE-TOKEN is not accepted by this server \(OAuth mode\)/,
    );
    expect(paths).toEqual([]);
  });

  it('reads a token only from the Authorization header: one in the query string is a request without a credential', async () => {
    for (const name of ['access_token', 'private_token']) {
      const url = `${oauth.url}?${name}=${encodeURIComponent(s.tokens.api)}`;
      const before = s.requests.length;
      const res = await rpc(url, {}, LIST);
      expect(res.status, name).toBe(401);
      expect(res.headers.get('www-authenticate'), name).toBe(CHALLENGE);
      expect((await rpcBody(res)).error!.code, name).toBe(-40100);
      expect(s.requests.slice(before), name).toEqual([]);
    }
  });

  it('admits an OAuth access token sent as Bearer and serves tools/list', async () => {
    const res = await post(oauth, bearer(s.tokens.oauth));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('"result"');
    expect(text).toContain('forge_execute_action');
  });

  it('refuses a token the instance rejects 401 invalid_token, then answers it from memory', async () => {
    const first = await sentBy(() => post(oauth, bearer(s.tokens.revoked)));
    expect(first.out.status).toBe(401);
    expect(first.out.headers.get('www-authenticate')).toBe(
      `${CHALLENGE}, error="invalid_token", error_description="The instance rejected the access token (revoked, expired or unknown)"`,
    );
    const body = await rpcBody(first.out);
    expect(body.error!.code).toBe(-40100);
    expect(body.error!.message).toMatch(/^the instance refused the token this request presented/);
    expect(first.paths).toContain('/api/v4/user');
    await settle();
    const again = await sentBy(() => post(oauth, bearer(s.tokens.revoked)));
    expect(again.out.status).toBe(401);
    expect(again.out.headers.get('www-authenticate')).toBe(first.out.headers.get('www-authenticate'));
    expect(again.paths).toEqual([]);
  });

  it('refuses a token below the minimum scope 403 insufficient_scope naming read_api, and -40300', async () => {
    for (const token of [s.tokens.noScope, s.tokens.mcpOnly]) {
      const res = await post(oauth, bearer(token));
      expect(res.status, token).toBe(403);
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer realm="forge-mcp-server", scope="read_api", resource_metadata="${METADATA}", error="insufficient_scope", error_description="The access token carries neither the api nor the read_api scope"`,
      );
      const body = await rpcBody(res);
      expect(body.error!.code).toBe(-40300);
      expect(body.error!.message).toMatch(/carries neither the api nor the read_api scope/);
    }
  });

  it('refuses a fine-grained token without User: Read 403, remembered', async () => {
    const token = s.addToken({
      granularScopes: [{ access: 'user', permissions: ['read_personal_access_token'] }],
    });
    const first = await post(oauth, bearer(token));
    expect(first.status).toBe(403);
    expect(first.headers.get('www-authenticate')).toBe(
      `Bearer realm="forge-mcp-server", scope="read_api", resource_metadata="${METADATA}", error="insufficient_scope", error_description="The fine-grained access token lacks the User: Read permission"`,
    );
    expect((await rpcBody(first)).error!.message).toMatch(/lacks the User: Read permission/);
    await settle();
    const again = await sentBy(() => post(oauth, bearer(token)));
    expect(again.out.status).toBe(403);
    expect(again.paths).toEqual([]);
  });

  it('admits a fine-grained token holding User: Read', async () => {
    expect((await post(oauth, bearer(s.tokens.fineGrained))).status).toBe(200);
  });

  it('leaves legacy mode as it was: PRIVATE-TOKEN admitted, the plain Bearer challenge', async () => {
    expect((await post(legacy, { 'private-token': s.tokens.api })).status).toBe(200);
    const res = await post(legacy);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="forge-mcp-server"');
  });
});

describe('OAuth mode: the protected-resource metadata document', () => {
  it('is served at the well-known path followed by the public URL path, cacheable for an hour', async () => {
    const { out: res, paths } = await sentBy(() =>
      fetch(`${originOf(oauth)}/.well-known/oauth-protected-resource/mcp`),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.json()).toEqual({
      resource: PUBLIC,
      authorization_servers: [s.url],
      scopes_supported: ['api'],
      bearer_methods_supported: ['header'],
      resource_name: 'forge-mcp-server',
      resource_documentation: 'http://localhost:8123/docs/oauth',
      // resource_policy_uri and resource_tos_uri are absent when unset.
    });
    expect(paths).toEqual([]);
  });

  it('answers HEAD with the headers alone, and any other method 405 naming GET and HEAD', async () => {
    const url = `${originOf(oauth)}/.well-known/oauth-protected-resource/mcp`;
    const full = await fetch(url);
    const length = full.headers.get('content-length');
    expect(Number(length)).toBe(Buffer.byteLength(await full.text()));
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(length);
    expect(head.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await head.text()).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await fetch(url, { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow'), method).toBe('GET, HEAD');
      expect(await res.json(), method).toEqual({ error: 'method not allowed: use GET' });
    }
  });

  it('sits at the host root whatever path the public URL carries: /x/mcp gives /.well-known/oauth-protected-resource/x/mcp', async () => {
    const deep = await httpServer(s, ['--auth-mode=oauth', '--public-url=http://localhost:8129/x/mcp']);
    try {
      const origin = originOf(deep);
      const res = await fetch(`${origin}/.well-known/oauth-protected-resource/x/mcp`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { resource: string }).resource).toBe('http://localhost:8129/x/mcp');
      // Not under the public URL's path, not at the last segment alone, not at the bare path.
      for (const wrong of [
        '/x/.well-known/oauth-protected-resource',
        '/x/.well-known/oauth-protected-resource/x/mcp',
        '/.well-known/oauth-protected-resource/mcp',
        '/.well-known/oauth-protected-resource',
      ])
        expect((await fetch(`${origin}${wrong}`)).status, wrong).toBe(404);
      const challenge = (await rpc(`${origin}/x/mcp`, {}, LIST)).headers.get('www-authenticate');
      expect(challenge).toBe(
        'Bearer realm="forge-mcp-server", scope="api", resource_metadata="http://localhost:8129/.well-known/oauth-protected-resource/x/mcp"',
      );
      // The start line names the public URL and the metadata URL, so a wrong --public-url shows at once.
      expect(logRecords(deep.stderr()).find((r) => r.msg === 'serving over HTTP')).toMatchObject({
        url: `${origin}/x/mcp`,
        public_url: 'http://localhost:8129/x/mcp',
        resource_metadata: 'http://localhost:8129/.well-known/oauth-protected-resource/x/mcp',
      });
    } finally {
      await deep.stop();
    }
  });

  it('answers 404 at the bare well-known path when the public URL has a path', async () => {
    const res = await fetch(`${originOf(oauth)}/.well-known/oauth-protected-resource`);
    expect(res.status).toBe(404);
  });

  it('serves the default documentation page the document names', async () => {
    const res = await fetch(`${originOf(oauth)}/docs/oauth`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await res.text();
    expect(text).toContain(METADATA);
    expect(text).toContain('Scope to ask for: api');
  });

  it('advertises read_api under safe mode too, and publishes resource exactly as configured', async () => {
    // A mixed-case host: a normalising parser would publish http://localhost:8127/mcp.
    const configured = 'http://LocalHost:8127/mcp';
    const safe = await httpServer(s, ['--auth-mode=oauth', `--public-url=${configured}`, '--safe-mode']);
    try {
      const doc = (await (
        await fetch(`${originOf(safe)}/.well-known/oauth-protected-resource/mcp`)
      ).json()) as {
        resource: string;
        scopes_supported: string[];
      };
      expect(doc.resource).toBe(configured);
      expect(doc.scopes_supported).toEqual(['read_api']);
      expect((await post(safe)).headers.get('www-authenticate')).toBe(
        'Bearer realm="forge-mcp-server", scope="read_api", resource_metadata="http://localhost:8127/.well-known/oauth-protected-resource/mcp"',
      );
    } finally {
      await safe.stop();
    }
  });

  it('names the instance in canonical form however --forge-url spells it', async () => {
    const port = new URL(s.url).port;
    const spelled = await httpServer(s, [
      '--auth-mode=oauth',
      '--public-url=http://localhost:8128/mcp',
      `--forge-url=HTTP://LocalHost:${port}/`,
    ]);
    try {
      const doc = (await (
        await fetch(`${originOf(spelled)}/.well-known/oauth-protected-resource/mcp`)
      ).json()) as { authorization_servers: string[] };
      expect(doc.authorization_servers).toEqual([`http://localhost:${port}`]);
    } finally {
      await spelled.stop();
    }
  });

  it('advertises read_api under read-only, at the bare path for a path-less public URL, with every optional URL', async () => {
    const res = await fetch(`${originOf(pinned)}/.well-known/oauth-protected-resource`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      resource: PINNED_PUBLIC,
      authorization_servers: [s.url],
      scopes_supported: ['read_api'],
      bearer_methods_supported: ['header'],
      resource_name: 'forge-mcp-server',
      resource_documentation: PINNED_DOCS,
      resource_policy_uri: 'https://example.com/policy',
      resource_tos_uri: 'https://example.com/tos',
    });
    const challenge = (await post(pinned)).headers.get('www-authenticate');
    expect(challenge).toBe(
      `Bearer realm="forge-mcp-server", scope="read_api", resource_metadata="${PINNED_METADATA}"`,
    );
    expect((await fetch(`${originOf(pinned)}/docs/oauth`)).status).toBe(404);
  });

  it('legacy mode does not introspect an OAuth token: its scopes are unknown and it may write', async () => {
    const token = s.addToken({ scopes: ['read_api'] });
    const before = s.requests.length;
    const res = await post(legacy, bearer(token), {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'forge_execute_action',
        arguments: { action: 'issue.create', params: { project_id: '1', title: 'legacy oauth' } },
      },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain('unknown action');
    await settle();
    const sent = s.requests.slice(before);
    expect(sent.map((r) => r.path)).not.toContain('/oauth/token/info');
    // The write was not withheld: it reached the instance, which judges the read_api token itself.
    expect(sent.some((r) => r.method === 'POST' && r.path === '/api/v4/projects/1/issues')).toBe(true);
  });

  it('is not served in legacy mode', async () => {
    expect((await fetch(`${originOf(legacy)}/.well-known/oauth-protected-resource`)).status).toBe(404);
    expect((await fetch(`${originOf(legacy)}/.well-known/oauth-protected-resource/mcp`)).status).toBe(404);
  });

  it('passes the host guard like every route', async () => {
    const { request } = await import('node:http');
    const u = new URL(oauth.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          hostname: u.hostname,
          port: u.port,
          path: '/.well-known/oauth-protected-resource/mcp',
          headers: { host: 'evil.example' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe('OAuth mode: the verified identity cache', () => {
  it('answers a verified token again without calling the instance', async () => {
    const token = s.addToken({ scopes: ['api'], expiresInSeconds: 3600 });
    const first = await sentBy(() => post(oauth, bearer(token)));
    expect(first.out.status).toBe(200);
    // The identity check and the token's description go out together: their order is not fixed.
    expect(first.paths.filter((p) => VERIFYING.test(p)).sort()).toEqual([
      '/api/v4/personal_access_tokens/self',
      '/api/v4/user',
      '/oauth/token/info',
    ]);
    const again = await sentBy(() => post(oauth, bearer(token)));
    expect(again.out.status).toBe(200);
    expect(again.paths).toEqual([]);
  });

  it("verifies again once the token's own expiry has passed", async () => {
    const token = s.addToken({ scopes: ['api'], expiresInSeconds: 2 });
    expect((await post(oauth, bearer(token))).status).toBe(200);
    const cached = await sentBy(() => post(oauth, bearer(token)));
    expect(cached.out.status).toBe(200);
    expect(cached.paths).toEqual([]);
    await new Promise((r) => setTimeout(r, 2300));
    const late = await sentBy(() => post(oauth, bearer(token)));
    expect(late.paths).toContain('/api/v4/user');
    expect(late.out.status).toBe(401);
    expect(late.out.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it("a cached token revoked at the instance: the first call it refuses ends the pool entry, and from the next request the server's own probe is refused 401", async () => {
    const token = s.addToken({ scopes: ['api'], expiresInSeconds: 3600 });
    const call = (id: number) => executeCall(id, 'issue.get', { project_id: '1', issue_iid: 1 });
    expect((await post(oauth, bearer(token), call(1))).status).toBe(200);
    const revoked = await fetch(`${s.url}/api/v4/personal_access_tokens/self`, {
      method: 'DELETE',
      headers: { 'private-token': token },
    });
    expect(revoked.status).toBe(204);
    // Still cached: the call is served from the pooled session and meets the instance's 401.
    const refused = await sentBy(() => post(oauth, bearer(token), call(2)));
    expect(refused.paths).toEqual(['/api/v4/projects/1/issues/1']);
    expect(await refused.out.text()).toContain('the instance rejected the token itself');
    const t0 = Date.now();
    while (!/"reason":"rejected_credential"/.test(oauth.stderr())) {
      if (Date.now() - t0 > 15_000) throw new Error('no rejected_credential eviction logged');
      await new Promise((r) => setTimeout(r, 100));
    }
    // The next request: the server's own probe is refused, the answer is 401, and the call is never sent.
    const next = await sentBy(() => post(oauth, bearer(token), call(3)));
    expect(next.out.status).toBe(401);
    expect(next.out.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    expect(next.paths).toContain('/api/v4/user');
    expect(next.paths.filter((p) => p.startsWith('/api/v4/projects'))).toEqual([]);
  });

  it('does not cache a failed verification: the next request verifies again', async () => {
    const token = s.addToken({ scopes: ['api'] });
    s.fault({ path: '/api/v4/user', status: 503, times: 1 });
    expect((await post(oauth, bearer(token))).status).toBe(503);
    const next = await sentBy(() => post(oauth, bearer(token)));
    expect(next.out.status).toBe(200);
    expect(next.paths).toContain('/api/v4/user');
  });
});

describe('OAuth mode: how long refusals and identities are remembered', () => {
  // The server's clock stands still unless the test moves it, so each boundary is met to the millisecond.
  /** An OAuth-mode server on a frozen clock, with `args`; no periodic check, which would ask the instance too. */
  async function onClock(args: string[]) {
    const clock = new ShiftedClock({ frozen: true });
    const server = clock.of(
      await httpServerAt(s, ['--auth-mode=oauth', '--revalidate-interval=0', ...args], clock.env()),
    );
    onTestFinished(() => server.stop());
    return { clock, server };
  }
  /** What a request with `token` sent to the instance: the verification paths, or nothing (answered from memory). */
  const asked = async (server: HttpServerProcess, token: string, status: number) => {
    const { out, paths } = await sentBy(() => post(server, bearer(token)));
    expect(out.status, token).toBe(status);
    await settle();
    return paths.filter((p) => VERIFYING.test(p)).length > 0;
  };

  it('a refused token and a fine-grained token without User: Read are answered from memory for five minutes, then asked again; a verified identity for the fifteen-minute TTL', async () => {
    const { clock, server } = await onClock(['--public-url=http://localhost:8127/mcp']);
    const refused = 'forgesim-unknown-token-clock';
    const lacking = s.addToken({
      granularScopes: [{ access: 'user', permissions: ['read_personal_access_token'] }],
    });
    const good = s.addToken({ scopes: ['api'], expiresInSeconds: 86_400 });
    const all = [
      [refused, 401],
      [lacking, 403],
      [good, 200],
    ] as const;
    for (const [token, status] of all) expect(await asked(server, token, status)).toBe(true);
    await clock.forward(5 * 60_000 - 1);
    for (const [token, status] of all) expect(await asked(server, token, status)).toBe(false);
    await clock.forward(1);
    expect(await asked(server, refused, 401)).toBe(true);
    expect(await asked(server, lacking, 403)).toBe(true);
    expect(await asked(server, good, 200)).toBe(false);
    await clock.forward(10 * 60_000 - 1);
    expect(await asked(server, good, 200)).toBe(false);
    await clock.forward(1);
    expect(await asked(server, good, 200)).toBe(true);
  });

  it('a token the pin refuses is answered from memory for five minutes, then asked again', async () => {
    const { clock, server } = await onClock([
      '--public-url=http://localhost:8128/mcp',
      '--oauth-client-uid=app-clock',
    ]);
    const other = s.addToken({ scopes: ['api'], applicationUid: 'app-elsewhere' });
    expect(await asked(server, other, 401)).toBe(true);
    await clock.forward(5 * 60_000 - 1);
    expect(await asked(server, other, 401)).toBe(false);
    await clock.forward(1);
    expect(await asked(server, other, 401)).toBe(true);
  });
});

describe('OAuth settings outside OAuth mode', () => {
  it('are named at WARN as doing nothing in legacy mode, the application pin as serving every token', async () => {
    const server = await httpServer(s, [
      '--oauth-client-uid=app-legacy',
      '--oauth-cache-ttl=5m',
      '--resource-documentation=https://docs.example.com/forge',
    ]);
    onTestFinished(() => server.stop());
    // The pin is not applied: a personal access token is served.
    expect((await post(server, bearer(s.tokens.api))).status).toBe(200);
    expect(logged(server.stderr(), 'warn')).toEqual([
      'ignoring --oauth-cache-ttl="5m": it applies only with --auth-mode=oauth, and the auth mode is legacy',
      'ignoring --oauth-client-uid="app-legacy": it applies only with --auth-mode=oauth, and the auth mode is legacy, which serves every token the instance accepts',
      'ignoring --resource-documentation="https://docs.example.com/forge": it applies only with --auth-mode=oauth, and the auth mode is legacy',
    ]);
    // A legacy server given none of them says nothing of the kind.
    expect(logged(legacy.stderr(), 'warn').filter((m) => m.includes('--auth-mode=oauth'))).toEqual([]);
  });
});

describe('OAuth mode: the refused-token memory', () => {
  it('holds 4,096 refused tokens: the 4,097th pushes out the oldest, which is asked about again', async () => {
    // Budgets off: 4,097 refusals from one address would block it long before.
    const server = await httpServer(s, ['--auth-mode=oauth', '--public-url=http://localhost:8129/mcp'], {
      FORGE_MCP_AUTH_FAILURE_LIMIT: '0',
      FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT: '0',
    });
    onTestFinished(() => server.stop());
    const token = (i: number) => `forgesim-unknown-token-memory-${i}`;
    const refuse = async (i: number) => expect((await post(server, bearer(token(i)))).status).toBe(401);
    // The oldest first, then 4,096 more, eight at a time.
    await refuse(0);
    let next = 1;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next <= 4096) await refuse(next++);
      }),
    );
    await settle();
    const kept = await sentBy(() => post(server, bearer(token(1))));
    expect(kept.out.status).toBe(401);
    expect(kept.paths).toEqual([]);
    const dropped = await sentBy(() => post(server, bearer(token(0))));
    expect(dropped.out.status).toBe(401);
    expect(dropped.paths).toContain('/api/v4/user');
  }, 120_000);
});

describe('OAuth mode: the application pin', () => {
  it('admits a token issued to a listed application', async () => {
    const token = s.addToken({ scopes: ['read_api'], applicationUid: PINNED_APP });
    expect((await post(pinned, bearer(token))).status).toBe(200);
    // Read-only is named on the start line as the one guardrail in force.
    expect(logRecords(pinned.stderr()).find((r) => r.msg === 'serving over HTTP')).toMatchObject({
      auth: 'oauth',
      guardrails: 'read-only',
    });
  });

  it("refuses another application's token and a personal access token 401 invalid_token with error_uri, remembered", async () => {
    const other = s.addToken({ scopes: ['api'], applicationUid: 'someone-else' });
    for (const token of [other, s.tokens.api, s.tokens.fineGrained]) {
      const res = await post(pinned, bearer(token));
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer realm="forge-mcp-server", scope="read_api", resource_metadata="${PINNED_METADATA}", error="invalid_token", error_description="The access token was not issued to an application this server admits", error_uri="${PINNED_DOCS}"`,
      );
      expect((await rpcBody(res)).error!.code).toBe(-40100);
      await settle();
      const again = await sentBy(() => post(pinned, bearer(token)));
      expect(again.out.status).toBe(401);
      expect(again.paths).toEqual([]);
    }
    // The operator is told which application was refused and what the pin lists; a personal token is not news.
    expect(logged(pinned.stderr(), 'warn')).toEqual([
      `refused an OAuth token issued to application "someone-else": FORGE_MCP_OAUTH_CLIENT_UID (--oauth-client-uid) lists other-app, ${PINNED_APP}; add it there if this server should admit that application's tokens`,
    ]);
  });

  it('answers 503 with Retry-After when introspection does not answer, uncached', async () => {
    const token = s.addToken({ scopes: ['api'], applicationUid: PINNED_APP });
    s.fault({ path: '/oauth/token/info', status: 503, headers: { 'retry-after': '7' }, times: 1 });
    const res = await post(pinned, bearer(token));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.headers.get('www-authenticate')).toBeNull();
    const next = await sentBy(() => post(pinned, bearer(token)));
    expect(next.out.status).toBe(200);
    expect(next.paths).toContain('/oauth/token/info');
  });
});

describe('OAuth mode: verification details', () => {
  it('assumes api when neither the description nor introspection answers (DEBUG log)', async () => {
    const token = s.addToken({ scopes: ['api'] });
    s.fault({ path: '/api/v4/personal_access_tokens/self', status: 503, times: 1 });
    s.fault({ path: '/oauth/token/info', status: 502, times: 1 });
    const before = s.requests.length;
    const logged = oauth.stderr().length;
    // A write on the request that is verified: taken as api, it is not withheld and reaches the instance.
    const res = await post(
      oauth,
      bearer(token),
      executeCall(2, 'issue.create', { project_id: '1', title: 'scopes unreadable' }),
    );
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain('"isError":true');
    expect(
      s.requests.slice(before).some((r) => r.method === 'POST' && r.path === '/api/v4/projects/1/issues'),
    ).toBe(true);
    const lines = oauth
      .stderr()
      .slice(logged)
      .split('\n')
      .filter((l) => l.includes('token scopes unreadable: api assumed'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'debug',
      msg: 'token scopes unreadable: api assumed',
    });
  });

  it('reads no scope, and refuses 403, when one of them refused the token', async () => {
    // Introspection refusing 401 while the description does not answer, then the description refusing 403
    // while introspection does not answer.
    for (const [selfStatus, infoStatus] of [
      [503, 401],
      [403, 502],
    ]) {
      const token = s.addToken({ scopes: ['api'] });
      s.fault({ path: '/api/v4/personal_access_tokens/self', status: selfStatus, times: 1 });
      s.fault({ path: '/oauth/token/info', status: infoStatus, times: 1 });
      const res = await post(oauth, bearer(token));
      const which = `self ${selfStatus}, info ${infoStatus}`;
      expect(res.status, which).toBe(403);
      expect(
        res.headers
          .get('www-authenticate')!
          .startsWith(
            `Bearer realm="forge-mcp-server", scope="read_api", resource_metadata="${METADATA}", error="insufficient_scope"`,
          ),
        which,
      ).toBe(true);
      expect((await rpcBody(res)).error!.code, which).toBe(-40300);
      s.clearFaults();
    }
  });

  it("answers a throttled instance 503 with the instance's own Retry-After, never invalid_token", async () => {
    const token = s.addToken({ scopes: ['api'] });
    s.fault({ path: '/api/v4/user', status: 429, headers: { 'retry-after': '120' }, times: 1 });
    const res = await post(oauth, bearer(token));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('120');
    expect(res.headers.get('www-authenticate')).toBeNull();
  });

  it('answers an unreachable instance 503 with Retry-After', async () => {
    const token = s.addToken({ scopes: ['api'] });
    s.fault({ path: '/api/v4/user', drop: true, times: 1 });
    const res = await post(oauth, bearer(token));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.headers.get('www-authenticate')).toBeNull();
    const text = await res.text();
    expect(text).not.toContain(token);
  });
});

describe('OAuth mode: authentication budgets', () => {
  let budget: HttpServerProcess;
  beforeAll(async () => {
    budget = await httpServer(
      s,
      ['--auth-mode=oauth', '--public-url=http://localhost:8125/mcp', '--oauth-client-uid=app-budget'],
      { FORGE_MCP_AUTH_FAILURE_LIMIT: '2', FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT: '0' },
    );
  });
  afterAll(() => budget.stop());

  it('charges only tokens the instance refused: pin refusals, below-minimum 403s and 503s are free', async () => {
    const held = s.addToken({ scopes: ['api'], applicationUid: 'app-budget' });
    expect((await post(budget, bearer(held))).status).toBe(200);
    const otherApp = s.addToken({ scopes: ['api'], applicationUid: 'app-elsewhere' });
    for (const token of [s.tokens.api, s.tokens.readApi, otherApp])
      expect((await post(budget, bearer(token))).status).toBe(401);
    for (let i = 0; i < 2; i++) {
      const mcpOnly = s.addToken({ scopes: ['mcp'], applicationUid: 'app-budget' });
      expect((await post(budget, bearer(mcpOnly))).status).toBe(403);
    }
    s.fault({ path: '/api/v4/user', status: 503, times: 2 });
    for (let i = 0; i < 2; i++)
      expect((await post(budget, bearer(s.addToken({ applicationUid: 'app-budget' })))).status).toBe(503);
    s.clearFaults();
    // An unanswered pin introspection is free too (the earlier requests' trailing reads land first).
    await settle();
    s.fault({ path: '/oauth/token/info', status: 503 });
    for (let i = 0; i < 2; i++)
      expect((await post(budget, bearer(s.addToken({ applicationUid: 'app-budget' })))).status).toBe(503);
    s.clearFaults();
    // Two refused tokens spend the budget of two; the third is refused 429 before reaching the instance.
    expect((await post(budget, bearer('forgesim-unknown-token-1'))).status).toBe(401);
    // The second spends it and starts a block of one failure window (60 s).
    const spent = Date.now();
    expect((await post(budget, bearer('forgesim-unknown-token-2'))).status).toBe(401);
    await settle();
    const blocked = await sentBy(() => post(budget, bearer('forgesim-unknown-token-3')));
    expect(blocked.out.status).toBe(429);
    expectRetryAfter(blocked.out, 60, spent);
    expect(blocked.out.headers.get('www-authenticate')).toBeNull();
    expect(blocked.paths).toEqual([]);
    // A credential the server already holds keeps working from the blocked address.
    expect((await post(budget, bearer(held))).status).toBe(200);
  });
});

describe('OAuth mode: authentication budgets without a pin', () => {
  let open: HttpServerProcess;
  beforeAll(async () => {
    open = await httpServer(s, ['--auth-mode=oauth', '--public-url=http://localhost:8126/mcp'], {
      FORGE_MCP_AUTH_FAILURE_LIMIT: '2',
      FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT: '0',
    });
  });
  afterAll(() => open.stop());

  it('does not charge the 403 of a fine-grained token without User: Read', async () => {
    for (let i = 0; i < 3; i++) {
      const lacking = s.addToken({
        granularScopes: [{ access: 'user', permissions: ['read_personal_access_token'] }],
      });
      expect((await post(open, bearer(lacking))).status).toBe(403);
    }
    // Three uncharged 403s leave the whole budget of two: two refused tokens spend it, the third is blocked.
    expect((await post(open, bearer('forgesim-unknown-token-a'))).status).toBe(401);
    expect((await post(open, bearer('forgesim-unknown-token-b'))).status).toBe(401);
    await settle();
    expect((await post(open, bearer('forgesim-unknown-token-c'))).status).toBe(429);
  });
});

describe('OAuth mode: concurrent verifications', () => {
  it('verifies at most 16 uncached tokens at once; a new one waits 5 s for a turn, then 503', async () => {
    const slow = Array.from({ length: 16 }, () => s.addToken({ scopes: ['api'] }));
    const late = s.addToken({ scopes: ['api'] });
    s.fault({ path: '/api/v4/user', delayMs: 7000, times: 16 });
    const held = slow.map((t) => post(oauth, bearer(t)));
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const res = await post(oauth, bearer(late));
    expect(Date.now() - started).toBeGreaterThanOrEqual(4500);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect((await rpcBody(res)).error!.message).toMatch(/^server is busy: all 16 token verifications/);
    expect(s.requests.filter((r) => r.token === late)).toEqual([]);
    expect((await Promise.all(held)).map((r) => r.status)).toEqual(Array(16).fill(200));
  }, 20_000);
});

describe('OAuth mode: several published instances', () => {
  it('publishes each as an authorization server and answers a missing or unlisted FORGE-URL 403 naming them', async () => {
    const s2 = await sim();
    const both = await httpServerAt(s, [
      `--forge-url=${s.url},${s2.url}`,
      '--auth-mode=oauth',
      '--public-url=http://localhost:8126/mcp',
    ]);
    try {
      const doc = (await (
        await fetch(`${originOf(both)}/.well-known/oauth-protected-resource/mcp`)
      ).json()) as { authorization_servers: string[] };
      expect(doc.authorization_servers).toEqual([s.url, s2.url]);
      for (const header of [{}, { 'forge-url': 'https://elsewhere.example.com' }]) {
        const { out: res, paths } = await sentBy(() => post(both, { ...header, ...bearer(s.tokens.oauth) }));
        expect(res.status).toBe(403);
        const body = await rpcBody(res);
        expect(body.error!.code).toBe(-40300);
        expect(body.error!.message).toContain(`the published instances are: ${s.url}, ${s2.url}`);
        expect(paths).toEqual([]);
      }
      expect((await post(both, { 'forge-url': 'not a url', ...bearer(s.tokens.oauth) })).status).toBe(400);
      expect((await post(both, { 'forge-url': s2.url, ...bearer(s2.tokens.oauth) })).status).toBe(200);
    } finally {
      await both.stop();
      await s2.close();
    }
  });
});

describe('OAuth mode: one token presented for two instances', () => {
  it('caches it per instance (the key digests instance and token): verified at each instance, then answered for each from its own entry', async () => {
    const s2 = await sim();
    const both = await httpServerAt(s, [
      `--forge-url=${s.url},${s2.url}`,
      '--auth-mode=oauth',
      '--public-url=http://localhost:8127/mcp',
    ]);
    // Both simulated instances are seeded alike: the same token string is valid at each.
    const token = s.tokens.oauth;
    expect(s2.tokens.oauth).toBe(token);
    /** A tools/call for `instance`, with the paths it sent to each instance. */
    const callAt = async (instance: ForgeSim, id: number) => {
      const since = [s.requests.length, s2.requests.length];
      const res = await post(
        both,
        { 'forge-url': instance.url, ...bearer(token) },
        executeCall(id, 'issue.get', { project_id: '1', issue_iid: 1 }),
      );
      const text = await res.text();
      await settle();
      return {
        status: res.status,
        text,
        first: s.requests.slice(since[0]).map((r) => r.path),
        second: s2.requests.slice(since[1]).map((r) => r.path),
      };
    };
    try {
      const atFirst = await callAt(s, 1);
      expect(atFirst.status).toBe(200);
      expect(atFirst.text).toContain('"iid":1');
      expect(atFirst.first).toContain('/api/v4/user');
      expect(atFirst.second).toEqual([]);
      // The same token for the second instance is not the first one's cached identity: it is verified there,
      // and its call goes there.
      const atSecond = await callAt(s2, 2);
      expect(atSecond.status).toBe(200);
      expect(atSecond.first).toEqual([]);
      expect(atSecond.second).toContain('/api/v4/user');
      expect(atSecond.second).toContain('/api/v4/projects/1/issues/1');
      // Each is now cached on its own: no verification at either.
      for (const [instance, id] of [
        [s, 3],
        [s2, 4],
      ] as const) {
        const cached = await callAt(instance, id);
        expect(cached.status).toBe(200);
        expect([...cached.first, ...cached.second]).toEqual(['/api/v4/projects/1/issues/1']);
        expect((instance === s ? cached.first : cached.second).length).toBe(1);
      }
    } finally {
      await both.stop();
      await s2.close();
    }
  });
});

describe('OAuth mode: the token exchange belongs to the client', () => {
  it('verifies and serves a new OAuth token, a pinned one and a tool call without ever calling POST /oauth/token', async () => {
    const since = s.requests.length;
    const fresh = s.addToken({ scopes: ['api'] });
    expect((await post(oauth, bearer(fresh))).status).toBe(200);
    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'forge_execute_action',
        arguments: { action: 'issue.list', params: { project_id: '1' } },
      },
    };
    expect((await post(oauth, bearer(fresh), call)).status).toBe(200);
    const app = s.addToken({ scopes: ['api'], applicationUid: PINNED_APP });
    expect((await post(pinned, bearer(app))).status).toBe(200);
    await settle();
    const sent = s.requests.slice(since);
    expect(sent.some((r) => r.path === '/oauth/token/info')).toBe(true);
    expect(sent.some((r) => r.path === '/api/v4/projects/1/issues')).toBe(true);
    expect(sent.filter((r) => r.path === '/oauth/token')).toEqual([]);
    expect(sent.filter((r) => r.path.startsWith('/oauth/')).every((r) => r.method === 'GET')).toBe(true);
  });
});

describe('OAuth mode: logs', () => {
  it('never write a token: the demo tokens and every token added here are absent from stderr', () => {
    const logs = oauth.stderr() + pinned.stderr();
    expect(logs).toContain('token scopes unreadable: api assumed');
    for (const token of Object.values(s.tokens)) expect(logs).not.toContain(token);
    expect(logs).not.toMatch(/forgesim-oauth-added|glpat-forgesim-added|forgesim-unknown-token/);
  });
});
