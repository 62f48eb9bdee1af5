/**
 * HTTP mode's guards through real loopback HTTP against the built server and forge-sim: security
 * headers, the host guard, cross-origin protection and CORS, instance selection, server-level limits,
 * drain, the server card, TLS and the unix socket. Every refusal is checked to have sent nothing to
 * the instance (forge-sim's request log).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  httpServerAt,
  listeningSockets,
  logged,
  runCli,
  sim,
  type ForgeSim,
  type HttpServerAt,
} from './harness.js';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

interface SendOptions {
  method?: string;
  /** undefined: the URL's host; null: no Host header at all. */
  host?: string | null;
  headers?: Record<string, string>;
  body?: string;
  ca?: string;
  socketPath?: string;
}

/** One raw request with full control of the Host header (fetch cannot omit or forge it). */
function send(url: string, path: string, opts: SendOptions = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const u = new URL(url.startsWith('unix:') ? 'http://localhost/' : url);
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (typeof opts.host === 'string') headers.host = opts.host;
    if (opts.body !== undefined) headers['content-length'] = String(Buffer.byteLength(opts.body));
    const make = u.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = make(
      {
        ...(opts.socketPath
          ? { socketPath: opts.socketPath }
          : { hostname: u.hostname.replace(/^\[|\]$/g, ''), port: u.port }),
        path,
        method: opts.method ?? 'GET',
        headers,
        setHost: opts.host === undefined,
        ...(opts.ca ? { ca: opts.ca } : {}),
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
const GET_ISSUE = JSON.stringify({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: {
    name: 'forge_execute_action',
    arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
  },
});
const GET_ISSUE_2 = GET_ISSUE.replace('"issue_iid":1', '"issue_iid":2');

function post(server: HttpServerAt, opts: SendOptions & { token?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...JSON_HEADERS, ...(opts.headers ?? {}) };
  if (opts.token) headers['private-token'] = opts.token;
  return send(server.url, new URL(server.url).pathname, {
    ...opts,
    method: opts.method ?? 'POST',
    headers,
    body: opts.body ?? LIST,
  });
}

const SECURITY = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'",
  'referrer-policy': 'no-referrer',
};

function expectSecurityHeaders(a: Answer, cache = 'no-store') {
  expect(a.headers).toMatchObject({ ...SECURITY, 'cache-control': cache });
}

let s: ForgeSim;
let s2: ForgeSim;
/** Specific bind (127.0.0.1), one trusted origin. */
let main: HttpServerAt;
const started: HttpServerAt[] = [];
const TRUSTED = 'https://app.example.com';

async function start(args: string[] = [], env: Record<string, string> = {}, on = s) {
  const server = await httpServerAt(on, args, env);
  started.push(server);
  return server;
}

/** Asserts `fn` sends nothing to the instance. */
async function nothingSent<T>(fn: () => Promise<T>, on = s): Promise<T> {
  const before = on.requests.length;
  const out = await fn();
  expect(on.requests.slice(before)).toEqual([]);
  return out;
}

beforeAll(async () => {
  s = await sim();
  s2 = await sim();
  main = await start([`--trusted-origins=${TRUSTED}`]);
});
afterAll(async () => {
  await Promise.all(started.map((x) => x.stop()));
  await s.close();
  await s2.close();
});

describe('security headers', () => {
  it('are on every response: health, 404, 401, refusals, preflight and MCP answers', async () => {
    const port = new URL(main.url).port;
    const answers = [
      await send(main.url, '/health'),
      await send(main.url, '/nowhere'),
      await post(main),
      await post(main, { token: s.tokens.api }),
      await send(main.url, '/health', { host: 'evil.example' }),
      await post(main, { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } }),
      await send(main.url, '/mcp', {
        method: 'OPTIONS',
        headers: { origin: TRUSTED, 'access-control-request-method': 'POST' },
      }),
      await send(main.url, '/mcp', { method: 'GET', host: `127.0.0.1:${port}` }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 404, 401, 200, 403, 403, 204, 401]);
    for (const a of answers) expectSecurityHeaders(a);
  });
  it('are on the answer to a request Node cannot parse', async () => {
    const { hostname, port } = new URL(main.url);
    const raw = await new Promise<string>((resolve, reject) => {
      let text = '';
      const sock = netConnect({ host: hostname, port: Number(port) }, () =>
        sock.write('NOT HTTP AT ALL\r\n\r\n'),
      );
      sock.setEncoding('utf8');
      sock.on('data', (d: string) => (text += d));
      sock.on('end', () => resolve(text));
      sock.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    for (const [k, v] of Object.entries({ ...SECURITY, 'cache-control': 'no-store' }))
      expect(raw.toLowerCase()).toContain(`${k}: ${v}`.toLowerCase());
  });
});

describe('host guard', () => {
  it('on a specific bind refuses an undeclared Host with 403 on every route, sending nothing', async () => {
    await nothingSent(async () => {
      for (const path of ['/health', '/mcp', '/server-card', '/.well-known/mcp/server-card.json', '/x']) {
        const a = await send(main.url, path, {
          method: path === '/mcp' ? 'POST' : 'GET',
          host: 'evil.example',
          headers: { ...JSON_HEADERS, 'private-token': s.tokens.api },
          body: path === '/mcp' ? LIST : undefined,
        });
        expect(a.status, path).toBe(403);
        expect(a.text).toContain('-40300');
      }
    });
  });

  it('serves the loopback names, the bound host, any ASCII case, and a request without Host', async () => {
    const port = new URL(main.url).port;
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      'LocalHost',
      `LOCALHOST:${port}`,
      '127.0.0.1',
    ]) {
      expect((await send(main.url, '/health', { host })).status, host).toBe(200);
    }
    expect((await send(main.url, '/health', { host: null })).status).toBe(200);
    expect((await post(main, { host: null, token: s.tokens.api })).status).toBe(200);
  });

  it('refuses look-alikes: a declared name with a suffix, a subdomain, a non-ASCII byte, a trailing dot, a percent-escape', async () => {
    for (const host of [
      'localhost.evil.example',
      'evil.localhost',
      '127.0.0.1.nip.io',
      'localhost\u00e9',
      // No normalisation beyond ASCII lower-casing: a trailing dot or a percent-escape is another name.
      'localhost.',
      'localhost.:8080',
      'local%68ost',
    ]) {
      expect((await send(main.url, '/health', { host })).status, host).toBe(403);
    }
  });

  it('declares the public URL host (and trusts its origin)', async () => {
    const pub = await start(['--public-url=https://mcp.example.com/mcp']);
    expect((await send(pub.url, '/health', { host: 'mcp.example.com' })).status).toBe(200);
    expect((await send(pub.url, '/health', { host: 'MCP.Example.COM:443' })).status).toBe(200);
    expect((await send(pub.url, '/health', { host: 'other.example.com' })).status).toBe(403);
    const a = await post(pub, {
      token: s.tokens.api,
      headers: { origin: 'https://mcp.example.com', 'sec-fetch-site': 'cross-site' },
    });
    expect(a.status).toBe(200);
    expect(a.headers['access-control-allow-origin']).toBe('https://mcp.example.com');
  });

  it('on a wildcard bind refuses an undeclared Host arriving over loopback only', async () => {
    const wild = await start(['--http-addr=0.0.0.0:0']);
    const port = new URL(wild.url).port;
    await nothingSent(async () => {
      for (const path of ['/health', '/mcp', '/server-card', '/.well-known/mcp/server-card.json', '/x']) {
        const a = await send(`http://127.0.0.1:${port}`, path, {
          method: path === '/mcp' ? 'POST' : 'GET',
          host: 'evil.example',
          headers: { ...JSON_HEADERS, 'private-token': s.tokens.api },
          body: path === '/mcp' ? LIST : undefined,
        });
        expect(a.status, path).toBe(403);
        expect(a.text, path).toContain('-40300');
      }
    });
    expect((await send(`http://127.0.0.1:${port}`, '/health')).status).toBe(200);
    const lan = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (lan) {
      // Not over loopback: a wildcard bind serves any Host (a proxy in front decides).
      const a = await send(`http://${lan.address}:${port}`, '/health', { host: 'evil.example' });
      expect(a.status).toBe(200);
    }
  });

  it('on a specific non-loopback bind declares the bound host and refuses others', async ({ skip }) => {
    const lan = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (!lan) return skip();
    const bound = await start([`--http-addr=${lan.address}:0`]);
    expect(new URL(bound.url).hostname).toBe(lan.address);
    expect((await send(bound.url, '/health')).status).toBe(200);
    expect((await send(bound.url, '/health', { host: 'localhost' })).status).toBe(200);
    expect((await send(bound.url, '/health', { host: 'evil.example' })).status).toBe(403);
  });

  it('lets a request from --trusted-proxies carry any Host', async () => {
    const proxied = await start(['--trusted-proxies=127.0.0.0/8', '--trusted-proxy-header=X-Forwarded-For']);
    expect((await send(proxied.url, '/health', { host: 'mcp.example.net' })).status).toBe(200);
    const other = await start(['--trusted-proxies=10.0.0.1', '--trusted-proxy-header=X-Forwarded-For']);
    expect((await send(other.url, '/health', { host: 'mcp.example.net' })).status).toBe(403);
  });
});

describe('cross-origin protection', () => {
  const refused = async (headers: Record<string, string>, server = main) => {
    const a = await nothingSent(() => post(server, { headers }));
    expect(a.status, JSON.stringify(headers)).toBe(403);
    const body = JSON.parse(a.text) as { error: { code: number } };
    // Refused before authentication: no token was sent, and the answer is not 401.
    expect(body.error.code).toBe(-40300);
    expect(a.headers['access-control-allow-origin']).toBeUndefined();
  };
  const passes = async (headers: Record<string, string>, server = main) => {
    const a = await post(server, { headers, token: s.tokens.api });
    expect(a.status, JSON.stringify(headers)).toBe(200);
    return a;
  };

  it('passes non-browser clients and Sec-Fetch-Site none or same-origin', async () => {
    await passes({});
    await passes({ 'sec-fetch-site': 'none' });
    await passes({ 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' });
  });

  it('refuses same-site and cross-site unless the origin is trusted', async () => {
    await refused({ 'sec-fetch-site': 'same-site', origin: 'https://evil.example' });
    await refused({ 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' });
    await refused({ 'sec-fetch-site': 'cross-site' });
    await refused({ 'sec-fetch-site': 'cross-site', origin: 'null' });
    await passes({ 'sec-fetch-site': 'cross-site', origin: TRUSTED });
    await passes({ 'sec-fetch-site': 'same-site', origin: 'HTTPS://App.Example.com:443' });
  });

  it('without Sec-Fetch-Site: an Origin whose host equals Host passes, another only when trusted', async () => {
    const port = new URL(main.url).port;
    await passes({ origin: `http://127.0.0.1:${port}` });
    // A Host naming the scheme's default port is the host the Origin names without it.
    await passes({ origin: 'http://127.0.0.1', host: '127.0.0.1:80' });
    await passes({ origin: 'https://localhost', host: 'localhost:443' });
    await refused({ origin: 'http://127.0.0.1', host: '127.0.0.1:443' });
    await refused({ origin: 'http://127.0.0.1:1' });
    await refused({ origin: 'https://evil.example' });
    await passes({ origin: TRUSTED });
  });

  it('a malformed --trusted-origins entry refuses the start, naming it', async () => {
    for (const entry of [
      'https://x.example.com/path',
      'app.example.com',
      'https://app.example.com?x=1',
      'https://*.example.com',
    ]) {
      const r = await runCli(['--http', '--http-addr=127.0.0.1:0', `--trusted-origins=${TRUSTED},${entry}`], {
        FORGE_URL: s.url,
      });
      expect(r.code, entry).not.toBe(0);
      expect(r.stderr, entry).toContain(entry);
      expect(r.stderr, entry).not.toContain('"url":"http');
    }
  });

  it('* disables the protection, with a startup warning', async () => {
    const open = await start(['--trusted-origins=*']);
    expect(open.stderr()).toContain('cross-origin protection is off');
    const a = await passes({ 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }, open);
    expect(a.headers['access-control-allow-origin']).toBe('https://evil.example');
  });
});

describe('CORS', () => {
  const BASE_ALLOW =
    'Authorization, Content-Type, Accept, If-None-Match, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, Mcp-Method, Mcp-Name, Mcp-Param-Action';
  const EXPOSE = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate, Retry-After, ETag';
  const preflight = (server: HttpServerAt, origin: string) =>
    send(server.url, new URL(server.url).pathname, {
      method: 'OPTIONS',
      headers: {
        origin,
        'sec-fetch-site': 'cross-site',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, private-token',
      },
    });

  it('answers a trusted preflight 204 with the exact headers, sending nothing', async () => {
    const a = await nothingSent(() => preflight(main, TRUSTED));
    expect(a.status).toBe(204);
    expect(a.text).toBe('');
    expect(a.headers['access-control-allow-origin']).toBe(TRUSTED);
    expect(a.headers['access-control-allow-methods']).toBe('GET, POST, DELETE, OPTIONS');
    expect(a.headers['access-control-allow-headers']).toBe(`${BASE_ALLOW}, PRIVATE-TOKEN`);
    expect(a.headers['access-control-expose-headers']).toBe(EXPOSE);
    expect(a.headers['access-control-max-age']).toBe('86400');
    expect(a.headers.vary).toBe('Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
  });

  it('gives an untrusted origin no CORS header', async () => {
    const a = await nothingSent(() => preflight(main, 'https://evil.example'));
    expect(a.status).toBe(403);
    expect(Object.keys(a.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    const port = new URL(main.url).port;
    const same = await post(main, { token: s.tokens.api, headers: { origin: `http://127.0.0.1:${port}` } });
    expect(same.status).toBe(200);
    expect(Object.keys(same.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('marks actual responses for a trusted origin with Allow-Origin and Expose-Headers', async () => {
    for (const token of [s.tokens.api, undefined]) {
      const a = await post(main, { token, headers: { origin: TRUSTED, 'sec-fetch-site': 'cross-site' } });
      expect(a.status).toBe(token ? 200 : 401);
      expect(a.headers['access-control-allow-origin']).toBe(TRUSTED);
      expect(a.headers['access-control-expose-headers']).toBe(EXPOSE);
      expect(a.headers.vary).toContain('Origin');
    }
  });

  it('allows FORGE-URL only when several instances are published', async () => {
    const several = await start([`--trusted-origins=${TRUSTED}`], { FORGE_URL: `${s.url},${s2.url}` });
    const a = await preflight(several, TRUSTED);
    expect(a.headers['access-control-allow-headers']).toBe(`${BASE_ALLOW}, PRIVATE-TOKEN, FORGE-URL`);
  });

  it('in OAuth mode does not allow PRIVATE-TOKEN', async () => {
    const oauth = await start([
      '--auth-mode=oauth',
      '--public-url=http://localhost:8125/mcp',
      `--trusted-origins=${TRUSTED}`,
    ]);
    const a = await nothingSent(() => preflight(oauth, TRUSTED));
    expect(a.status).toBe(204);
    expect(a.headers['access-control-allow-headers']).toBe(BASE_ALLOW);
  });
});

describe('one published instance', () => {
  it('does not read FORGE-URL: a header naming another instance, or no instance at all, is served by the published one', async () => {
    for (const value of [s2.url, 'https://other.example.com', 'not a url']) {
      const before = s.requests.length;
      const a = await nothingSent(
        () => post(main, { token: s.tokens.api, headers: { 'forge-url': value }, body: GET_ISSUE }),
        s2,
      );
      expect(a.status, value).toBe(200);
      expect(s.requests.slice(before).some((r) => r.path === '/api/v4/projects/1/issues/1')).toBe(true);
    }
  });
});

describe('several instances (FORGE-URL)', () => {
  let several: HttpServerAt;
  beforeAll(async () => {
    several = await start([], { FORGE_URL: `${s.url},${s2.url}` });
  });
  const both = <T>(fn: () => Promise<T>) => nothingSent(() => nothingSent(fn, s2), s);

  it('routes to the instance the header names', async () => {
    const before = s2.requests.length;
    const a = await post(several, {
      token: s.tokens.api,
      headers: { 'forge-url': `${s2.url}/` },
      body: GET_ISSUE,
    });
    expect(a.status).toBe(200);
    expect(s2.requests.slice(before).some((r) => r.path === '/api/v4/projects/1/issues/1')).toBe(true);
  });

  it('refuses a missing or unlisted header with 400 without naming the instances', async () => {
    for (const headers of [{}, { 'forge-url': 'https://other.example.com' }]) {
      const a = await both(() => post(several, { token: s.tokens.api, headers }));
      expect(a.status).toBe(400);
      expect(a.text).toContain('FORGE-URL');
      expect(a.text).not.toContain(new URL(s.url).host);
      expect(a.text).not.toContain(new URL(s2.url).host);
    }
  });

  it('refuses an unparseable header with 400', async () => {
    for (const value of ['not a url', 'ftp://x.example.com', 'https://u:p@x.example.com']) {
      const a = await both(() => post(several, { token: s.tokens.api, headers: { 'forge-url': value } }));
      expect(a.status, value).toBe(400);
    }
    // Credentials in the header's URL are named as such and repeated nowhere, neither in the answer nor the log.
    const secret = 'glpat-headerurl-secret-01';
    for (const [value, reason] of [
      [`https://oauth2:${secret}@x.example.com`, 'URL carries credentials'],
      [`${s.url}/?private_token=${secret}`, 'URL has a query or fragment'],
    ]) {
      const a = await both(() => post(several, { token: s.tokens.api, headers: { 'forge-url': value! } }));
      expect(a.status, value).toBe(400);
      expect(a.text).toContain(`the FORGE-URL header is not a usable instance URL: ${reason}`);
      expect(a.text).not.toContain(secret);
    }
    expect(several.stderr()).not.toContain(secret);
    // A URL parser drops a tab silently: this one would have named the first published instance.
    const tabbed = s.url.replace('127.0.0.1', '127.0.0.\t1');
    const a = await both(() => post(several, { token: s.tokens.api, headers: { 'forge-url': tabbed } }));
    expect(a.status).toBe(400);
    expect(a.text).toContain(
      'the FORGE-URL header is not a usable instance URL: URL holds a space, tab, line break or control character',
    );
  });

  it('with --allow-any-forge-url, an unlisted instance is served, but a private one only with --allow-private-instances', async () => {
    const any = await start(['--allow-any-forge-url']);
    // s2 listens on loopback: a destination the operator did not choose may not be private.
    const refused = await nothingSent(
      () => post(any, { token: s2.tokens.api, headers: { 'forge-url': s2.url }, body: GET_ISSUE }),
      s2,
    );
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('destination refused');
    expect(refused.text).toContain('--allow-private-instances');
    expect((await post(any, { token: s.tokens.api, headers: { 'forge-url': s.url } })).status).toBe(200);
    // An unparseable header is 400 here too.
    for (const value of ['not a url', 'ftp://x.example.com'])
      expect(
        (await both(() => post(any, { token: s.tokens.api, headers: { 'forge-url': value } }))).status,
      ).toBe(400);
    const open = await start(['--allow-any-forge-url', '--allow-private-instances']);
    const before = s2.requests.length;
    const served = await post(open, {
      token: s2.tokens.api,
      headers: { 'forge-url': s2.url },
      body: GET_ISSUE,
    });
    expect(served.status).toBe(200);
    expect(s2.requests.slice(before).some((r) => r.path === '/api/v4/projects/1/issues/1')).toBe(true);
  });
});

describe('the outbound guard on an instance named in FORGE-URL', () => {
  const refusedText = async (server: HttpServerAt, instance: string) => {
    const a = await nothingSent(() =>
      post(server, { token: s.tokens.api, headers: { 'forge-url': instance }, body: GET_ISSUE }),
    );
    expect(a.status, instance).toBe(403);
    return a.text;
  };

  it('refuses every cloud metadata address, naming no flag, even with --allow-private-instances', async () => {
    const open = await start(['--allow-any-forge-url', '--allow-private-instances']);
    for (const [instance, address] of [
      ['http://169.254.169.254', '169.254.169.254'],
      ['http://169.254.170.2', '169.254.170.2'],
      ['http://[fd00:ec2::254]', 'fd00:ec2::254'],
      ['http://100.100.100.200', '100.100.100.200'],
    ]) {
      const text = await refusedText(open, instance);
      expect(text, instance).toContain(`destination refused: ${address} is a cloud metadata address`);
      expect(text, instance).not.toMatch(/--allow|FORGE_MCP_ALLOW/);
    }
  });

  it('refuses loopback, private, CGNAT, link-local, unique-local and unspecified addresses without --allow-private-instances', async () => {
    const any = await start(['--allow-any-forge-url']);
    for (const [instance, what] of [
      [`http://localhost:${new URL(s.url).port}`, /localhost resolves to \S+, a loopback address/],
      ['http://127.0.0.9', /127\.0\.0\.9 is a loopback address/],
      ['http://10.1.2.3', /10\.1\.2\.3 is a private address/],
      ['http://172.20.0.1', /172\.20\.0\.1 is a private address/],
      ['http://192.168.7.7', /192\.168\.7\.7 is a private address/],
      ['http://100.64.0.1', /100\.64\.0\.1 is a carrier-grade NAT \(100\.64\.0\.0\/10\) address/],
      ['http://169.254.1.1', /169\.254\.1\.1 is a link-local address/],
      ['http://[fe80::1]', /fe80::1 is a link-local address/],
      ['http://[fd12:3456::1]', /fd12:3456::1 is a unique-local address/],
      ['http://0.0.0.0', /0\.0\.0\.0 is an? unspecified address/],
      ['http://[::]', /:: is an? unspecified address/],
    ] as const) {
      const text = await refusedText(any, instance);
      expect(text, instance).toMatch(new RegExp(`destination refused: ${what.source}`));
      expect(text, instance).toContain('--allow-private-instances');
    }
  });
});

describe('server-level limits', () => {
  it('answers 413 over --max-request-body-bytes, sending nothing', async () => {
    const small = await start(['--max-request-body-bytes=2048']);
    const pad = (n: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { pad: 'x'.repeat(n) } },
      });
    const over = await nothingSent(() => post(small, { token: s.tokens.api, body: pad(2100) }));
    expect(over.status).toBe(413);
    expect(over.text).toContain('2048');
    expect((await post(small, { token: s.tokens.api, body: pad(1800) })).status).toBe(200);
    // The limit itself is allowed: a body of exactly 2048 bytes is served, one byte more is not.
    const exactly = pad(2048 - pad(0).length);
    expect(Buffer.byteLength(exactly)).toBe(2048);
    expect((await post(small, { token: s.tokens.api, body: exactly })).status).toBe(200);
    expect((await post(small, { token: s.tokens.api, body: pad(2049 - pad(0).length) })).status).toBe(413);
  });

  it('answers 415 for a body that is not declared JSON, sending nothing', async () => {
    const a = await nothingSent(() =>
      post(main, { token: s.tokens.api, headers: { 'content-type': 'text/plain' } }),
    );
    expect(a.status).toBe(415);
    const ok = await post(main, {
      token: s.tokens.api,
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
    });
    expect(ok.status).toBe(200);
  });

  it('answers 400 for JSON nested deeper than 100, and serves 100', async () => {
    const nest = (depth: number) =>
      `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"x":${'['.repeat(depth - 3)}${']'.repeat(depth - 3)}}}}`;
    const deep = await nothingSent(() => post(main, { token: s.tokens.api, body: nest(101) }));
    expect(deep.status).toBe(400);
    expect(deep.text).toContain('100');
    expect((await post(main, { token: s.tokens.api, body: nest(100) })).status).toBe(200);
  });

  it.each([
    [1024, 192],
    [512, 96],
  ])(
    'under a hard descriptor limit of %i, answers 503 with Retry-After and "server is busy" when all %i call slots are held',
    async (nofile, max) => {
      // About call slots, not the per-credential limiter: 192 calls of one token would be rate limited.
      const busy = await httpServerAt(s, ['--rate-limit-rps=0'], {}, { nofile });
      started.push(busy);
      // Open the credential's session first, so the held calls wait only on the gated issue read.
      expect((await post(busy, { token: s.tokens.api })).status).toBe(200);
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      s.fault({ path: '/api/v4/projects/1/issues/1', until: gate, times: max });
      const held = Array.from({ length: max }, () => post(busy, { token: s.tokens.api, body: GET_ISSUE }));
      try {
        // A tools/list takes a slot too and is answered at once while one is free: probe until none is,
        // however long the machine takes to admit the held calls.
        const deadline = Date.now() + 60_000;
        let probe = await post(busy, { token: s.tokens.api });
        while (probe.status === 200 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 100));
          probe = await post(busy, { token: s.tokens.api });
        }
        expect(probe.status).toBe(503);
        // A call arriving now is refused before anything reaches the instance.
        const before = s.requests.length;
        const refused = await post(busy, { token: s.tokens.api, body: GET_ISSUE_2 });
        expect(s.requests.slice(before).filter((r) => r.path.endsWith('/issues/2'))).toEqual([]);
        expect(refused.status).toBe(503);
        expect(refused.headers['retry-after']).toMatch(/^\d+$/);
        expect(refused.text).toContain(`server is busy: all ${max} call slots are held; retry shortly`);
      } finally {
        open();
      }
      const done = await Promise.all(held);
      expect(done.every((a) => a.status === 200)).toBe(true);
      // The slots are free again.
      expect((await post(busy, { token: s.tokens.api, body: GET_ISSUE_2 })).status).toBe(200);
    },
    120_000,
  );
});

describe('drain', () => {
  it('answers /health 503 draining during the drain delay after SIGTERM, then closes', async () => {
    const d = await start(['--drain-delay=2s']);
    expect((await send(d.url, '/health')).status).toBe(200);
    // Timed from the signal, so a loaded machine only lengthens what is measured: the server exits no sooner
    // than its 2 s drain delay after it got the signal, which is after this point.
    const signalled = Date.now();
    d.signal('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    const a = await send(d.url, '/health');
    expect(a.status).toBe(503);
    expect(JSON.parse(a.text)).toMatchObject({ status: 'draining' });
    expectSecurityHeaders(a);
    // Calls are still served while draining, and a SIGINT then does not cut the drain short.
    expect((await post(d, { token: s.tokens.api })).status).toBe(200);
    d.signal('SIGINT');
    expect(await d.exited).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(1990);
    await expect(send(d.url, '/health')).rejects.toThrow();
  });

  it('drains and exits 0 on a SIGTERM sent the moment the server says it is serving, never killed by it', async () => {
    // Sent as the serving line arrives, five times: a server not yet listening for it would die of it.
    for (let i = 0; i < 5; i++) {
      const d = await start();
      d.signal('SIGTERM');
      expect(await d.exited).toBe(0);
      expect(logged(d.stderr(), 'info')).toEqual(expect.arrayContaining(['stopped']));
    }
  });
});

describe('server card', () => {
  for (const path of ['/.well-known/mcp/server-card.json', '/server-card']) {
    it(`${path}: public, cacheable, revalidated by ETag, without a telemetry block`, async () => {
      const a = await nothingSent(() => send(main.url, path));
      expect(a.status).toBe(200);
      expectSecurityHeaders(a, 'public, max-age=3600');
      const card = JSON.parse(a.text) as Record<string, unknown>;
      expect(card).toMatchObject({
        name: 'forge-mcp-server',
        version: expect.any(String),
        title: expect.any(String),
        transport: { type: 'streamable-http', endpoint: '/mcp' },
        tools: { surface: 'dynamic', names: ['forge_find_action', 'forge_execute_action'] },
        capabilities: { tools: expect.any(Object) },
      });
      expect(card).not.toHaveProperty('telemetry');
      const etag = a.headers.etag!;
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await send(main.url, path, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('public, max-age=3600');
      expect((await send(main.url, path, { headers: { 'if-none-match': `W/${etag}, "x"` } })).status).toBe(
        304,
      );
      expect((await send(main.url, path, { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
    });
  }
});

describe('listeners', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'forge-http-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('an --http-addr without a host (the default is :8080) listens on every interface', async () => {
    const any = await start(['--http-addr=:0']);
    const sockets = listeningSockets(any.pid);
    expect(sockets).toHaveLength(1);
    expect(sockets[0]).toMatch(/^tcp6? 0+:[0-9A-F]{4}$/);
    const port = parseInt(sockets[0]!.split(':')[1]!, 16);
    const health = await send(`http://127.0.0.1:${port}`, '/health');
    expect(health.status).toBe(200);
    // A specific host listens on that host only.
    expect(listeningSockets(main.pid)).toEqual([expect.stringMatching(/^tcp 0100007F:/)]);
  });

  it('serves MCP on the path of --public-url, and nowhere else', async () => {
    const custom = await start(['--public-url=http://localhost:8126/custom/path']);
    const port = new URL(custom.url).port;
    const at = (path: string) =>
      send(`http://127.0.0.1:${port}`, path, {
        method: 'POST',
        headers: { ...JSON_HEADERS, 'private-token': s.tokens.api },
        body: LIST,
      });
    const served = await at('/custom/path');
    expect(served.status).toBe(200);
    expect(served.text).toContain('forge_execute_action');
    expect((await at('/mcp')).status).toBe(404);
  });

  it('serves TLS from --tls-cert/--tls-key with a TLS 1.2 floor', async () => {
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    const tls = await start([`--tls-cert=${cert}`, `--tls-key=${key}`]);
    expect(tls.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const ca = readFileSync(cert, 'utf8');
    const health = await send(tls.url, '/health', { ca });
    expect(health.status).toBe(200);
    expectSecurityHeaders(health);
    const list = await post(tls, { ca, token: s.tokens.api });
    expect(list.status).toBe(200);
    expect(list.text).toContain('forge_find_action');
    const port = Number(new URL(tls.url).port);
    const protocol = await new Promise<string | null>((resolve, reject) => {
      const sock = tlsConnect({ host: '127.0.0.1', port, ca }, () => {
        resolve(sock.getProtocol());
        sock.end();
      });
      sock.on('error', reject);
    });
    expect(['TLSv1.2', 'TLSv1.3']).toContain(protocol);
    await expect(
      new Promise((resolve, reject) => {
        const sock = tlsConnect(
          {
            host: '127.0.0.1',
            port,
            ca,
            minVersion: 'TLSv1',
            maxVersion: 'TLSv1.1',
            ciphers: 'DEFAULT:@SECLEVEL=0',
          },
          () => {
            resolve(sock.getProtocol());
            sock.end();
          },
        );
        sock.on('error', reject);
      }),
    ).rejects.toThrow();
  });

  it('binds a unix socket from a path in --http-addr with --http-socket-mode', async () => {
    const path = join(dir, 'forge.sock');
    const unix = await start([`--http-addr=${path}`, '--http-socket-mode=0600']);
    expect(unix.url).toContain(path);
    expect(statSync(path).isSocket()).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const health = await send(unix.url, '/health', { socketPath: path });
    expect(health.status).toBe(200);
    expectSecurityHeaders(health);
    const list = await send(unix.url, '/mcp', {
      socketPath: path,
      method: 'POST',
      headers: { ...JSON_HEADERS, 'private-token': s.tokens.api },
      body: LIST,
    });
    expect(list.status).toBe(200);
    expect(list.text).toContain('forge_find_action');
  });
});
