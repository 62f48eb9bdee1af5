/**
 * OAuth as a person does it: the built server in OAuth mode in front of forge-sim's authorization server,
 * the official MCP client's OAuth support, and a headless Chromium (Debian's chromium, driven by
 * playwright-core) that opens the authorization page, signs in and consents. Screenshots of the sign-in
 * and consent pages are kept under test-artifacts/oauth/.
 */
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { freePort, httpServerAt, sim, textOf, type ForgeSim, type HttpServerAt } from './harness.js';

const CHROMIUM = process.env.FORGE_TEST_CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '../../../test-artifacts/oauth');
/** Long enough for a flow on a loaded machine, short enough that the refresh test waits for it. */
const TOKEN_LIFETIME_S = 20;

type Provider = OAuthClientProvider & {
  redirects: URL[];
  saved?: { access_token: string; refresh_token?: string };
  tamperVerifier: boolean;
  lastState?: string;
};
type Tokens = Awaited<ReturnType<OAuthClientProvider['tokens']>>;
type Discovery = Awaited<ReturnType<NonNullable<OAuthClientProvider['discoveryState']>>>;

/** The client's side: a pre-registered public application whose browser is the test's page. */
function provider(redirectUrl: string, clientId: string, page: Page): Provider {
  let tokens: Tokens;
  let verifier = '';
  let discovery: Discovery;
  const p: Provider = {
    redirects: [],
    tamperVerifier: false,
    get redirectUrl() {
      return redirectUrl;
    },
    get clientMetadata() {
      return {
        client_name: 'forge-tests',
        redirect_uris: [redirectUrl],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      };
    },
    state() {
      p.lastState = randomBytes(8).toString('hex');
      return p.lastState;
    },
    clientInformation: () => ({ client_id: clientId }),
    tokens: () => tokens,
    saveTokens(t) {
      tokens = t;
      p.saved = t as Provider['saved'];
    },
    async redirectToAuthorization(url) {
      p.redirects.push(url);
      await page.goto(url.toString());
    },
    saveCodeVerifier(v) {
      verifier = v;
    },
    codeVerifier: () => (p.tamperVerifier ? `${verifier.slice(0, -4)}AAAA` : verifier),
    saveDiscoveryState(d) {
      discovery = d;
    },
    discoveryState: () => discovery,
    invalidateCredentials(scope) {
      if (scope === 'all' || scope === 'tokens') tokens = undefined;
      if (scope === 'all' || scope === 'verifier') verifier = '';
      if (scope === 'all' || scope === 'discovery') discovery = undefined;
    },
  };
  return p;
}

/** The loopback redirect a desktop client listens on; hands over the query of each callback. */
function callbackServer(): Promise<{ url: string; next: () => Promise<URLSearchParams>; close: () => void }> {
  let waiting: ((q: URLSearchParams) => void) | undefined;
  const server: Server = createServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<p>Authorization finished. You can close this window.</p>');
    waiting?.(q);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
        next: () => new Promise((r) => (waiting = r)),
        close: () => server.close(),
      }),
    ),
  );
}

/** Every response the client's transport saw, for the statuses and challenges a person never sees. */
interface Seen {
  status: number;
  challenge: string | null;
}

const present = existsSync(CHROMIUM);
if (!present && !process.env.CI) {
  console.warn(`oauth-browser: ${CHROMIUM} not found; skipped (CI installs it: .ci/chromium.sh)`);
}

describe.skipIf(!present && !process.env.CI)('OAuth in a browser with the official MCP client', () => {
  let s: ForgeSim;
  let server: HttpServerAt;
  let mcpUrl: string;
  let context: BrowserContext;
  let page: Page;
  let userDataDir: string;
  let callback: Awaited<ReturnType<typeof callbackServer>>;
  const seen: Seen[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    seen.push({ status: res.status, challenge: res.headers.get('www-authenticate') });
    return res;
  };

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    s = await sim({ oauthTokenLifetimeSeconds: TOKEN_LIFETIME_S });
    const port = await freePort();
    mcpUrl = `http://127.0.0.1:${port}/mcp`;
    [server, callback] = await Promise.all([
      httpServerAt(s, [`--http-addr=127.0.0.1:${port}`, '--auth-mode=oauth', `--public-url=${mcpUrl}`]),
      callbackServer(),
    ]);
    userDataDir = mkdtempSync(join(tmpdir(), 'forge-oauth-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = context.pages()[0] ?? (await context.newPage());
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    callback?.close();
    await server?.stop();
    await s?.close();
  });

  const transport = (p: Provider) =>
    new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: p, fetch: recordingFetch });

  /** Connects; the first attempt is refused and sends the browser to the authorization page. */
  async function startFlow(p: Provider): Promise<StreamableHTTPClientTransport> {
    const t = transport(p);
    const client = new Client({ name: 'forge-tests', version: '1.0.0' });
    await expect(client.connect(t)).rejects.toThrow(/unauthorized/i);
    return t;
  }

  /** What a person does on the pages: sign in when asked, then press one of the consent buttons. */
  async function signInAndDecide(decision: 'allow' | 'deny', shots = false): Promise<URLSearchParams> {
    const returned = callback.next();
    if (await page.locator('input[name="password"]').count()) {
      expect(await page.textContent('body')).toContain('Forge MCP is asking to use your account');
      if (shots) await page.screenshot({ path: join(ARTIFACTS, 'sign-in.png'), fullPage: true });
      await page.fill('input[name="username"]', s.oauth.username);
      await page.fill('input[name="password"]', s.oauth.password);
      await Promise.all([page.waitForLoadState(), page.click('button[type="submit"]')]);
    }
    expect(await page.textContent('h1')).toBe('Authorize Forge MCP to use your account?');
    expect(await page.textContent('ul')).toContain('api: Grants complete read/write access to the API');
    if (shots) await page.screenshot({ path: join(ARTIFACTS, 'consent.png'), fullPage: true });
    await page.click(`button[value="${decision}"]`);
    return returned;
  }

  async function connected(p: Provider): Promise<Client> {
    const client = new Client({ name: 'forge-tests', version: '1.0.0' });
    await client.connect(transport(p));
    return client;
  }

  it('discovers from the 401 challenge, signs in and consents in the browser, exchanges the code with PKCE, calls tools, and refreshes its token', async () => {
    const p = provider(callback.url, s.oauth.clientId, page);
    seen.length = 0;
    const t = await startFlow(p);
    const challenge = seen.find((r) => r.status === 401)?.challenge ?? '';
    expect(challenge).toContain(
      `resource_metadata="http://127.0.0.1:${new URL(mcpUrl).port}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(challenge).toContain('scope="api"');
    const asked = p.redirects[0];
    expect(asked.origin + asked.pathname).toBe(`${s.url}/oauth/authorize`);
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked.searchParams.get('scope')).toBe('api');
    expect(asked.searchParams.get('client_id')).toBe(s.oauth.clientId);

    const params = await signInAndDecide('allow', true);
    expect(params.get('state')).toBe(p.lastState);
    expect(params.get('code')).toBeTruthy();
    await t.finishAuth(params);
    const exchange = s.requests.filter((r) => r.path === '/oauth/token').at(-1)!;
    expect(exchange.status).toBe(200);
    expect((exchange.body as Record<string, string>).grant_type).toBe('authorization_code');
    expect((exchange.body as Record<string, string>).code_verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
    expect(existsSync(join(ARTIFACTS, 'sign-in.png')) && existsSync(join(ARTIFACTS, 'consent.png'))).toBe(
      true,
    );

    const client = await connected(p);
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name)).toContain('forge_execute_action');
    const first = p.saved!.access_token;
    const r = await client.callTool({
      name: 'forge_execute_action',
      arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
    });
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as { iid: number }).iid).toBe(1);
    expect(s.requests.filter((q) => q.path.startsWith('/api/v4/projects/')).at(-1)?.token).toBe(first);

    // The access token runs out; the next request is refused and the client renews it with its refresh token.
    await new Promise((done) => setTimeout(done, (TOKEN_LIFETIME_S + 1) * 1000));
    const again = await client.callTool({
      name: 'forge_execute_action',
      arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
    });
    expect(again.isError, textOf(again)).toBeFalsy();
    const refresh = s.requests.filter((q) => q.path === '/oauth/token').at(-1)!;
    expect((refresh.body as Record<string, string>).grant_type).toBe('refresh_token');
    expect(refresh.status).toBe(200);
    expect(p.saved!.access_token).not.toBe(first);
    expect(s.requests.filter((q) => q.path.startsWith('/api/v4/projects/')).at(-1)?.token).toBe(
      p.saved!.access_token,
    );
    expect(p.redirects).toHaveLength(1);
    await client.close();
  }, 120_000);

  it('is refused cleanly when the person denies consent: access_denied to the redirect URI, no token', async () => {
    const p = provider(callback.url, s.oauth.clientId, page);
    const t = await startFlow(p);
    const exchanges = s.requests.filter((r) => r.path === '/oauth/token').length;
    const params = await signInAndDecide('deny');
    expect(params.get('error')).toBe('access_denied');
    expect(params.get('state')).toBe(p.lastState);
    expect(params.get('code')).toBeNull();
    await expect(t.finishAuth(params)).rejects.toThrow(/denied/);
    expect(s.requests.filter((r) => r.path === '/oauth/token')).toHaveLength(exchanges);
    expect(p.saved).toBeUndefined();
  }, 60_000);

  it('is refused cleanly when the code verifier is wrong: invalid_grant, no token', async () => {
    const p = provider(callback.url, s.oauth.clientId, page);
    const t = await startFlow(p);
    const params = await signInAndDecide('allow');
    p.tamperVerifier = true;
    const since = s.requests.length;
    await expect(t.finishAuth(params)).rejects.toThrow(/invalid|grant/i);
    const tried = s.requests.slice(since).filter((r) => r.path === '/oauth/token');
    expect(tried.length).toBeGreaterThan(0);
    expect(
      tried.every((r) => r.status === 400 && (r.body as Record<string, string>).code !== undefined),
    ).toBe(true);
    expect(p.saved).toBeUndefined();
  }, 60_000);

  it('starts over when the token is revoked at the instance: the next call is 401 with the challenge', async () => {
    const p = provider(callback.url, s.oauth.clientId, page);
    const t = await startFlow(p);
    await t.finishAuth(await signInAndDecide('allow'));
    const client = await connected(p);
    await client.listTools();
    const revoked = await fetch(`${s.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: p.saved!.access_token, client_id: s.oauth.clientId }),
    });
    expect(revoked.status).toBe(200);
    const call = () =>
      client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
      });
    // The first call reaches the instance and is refused there; from the next, the server answers 401.
    const refused = await call();
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('the instance rejected the token itself');
    seen.length = 0;
    await expect(call()).rejects.toThrow(/unauthorized/i);
    const refusal = seen.find((r) => r.status === 401);
    expect(refusal?.challenge).toContain('error="invalid_token"');
    expect(refusal?.challenge).toContain('resource_metadata=');
    // The refresh token went with the access token, so the client is back at the authorization page.
    expect(p.redirects).toHaveLength(2);
    expect(page.url()).toContain('/oauth/authorize');
    await client.close().catch(() => undefined);
  }, 60_000);
});
