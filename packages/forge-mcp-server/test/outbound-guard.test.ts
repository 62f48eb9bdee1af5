/**
 * The outbound connection guard over real stdio: forge-sim (on 127.0.0.1, chosen by the operator in
 * FORGE_URL) redirects a call elsewhere, and the server refuses or follows per the spec.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { openTunnel, runCli, sim, stdioClient, textOf, type Connected, type ForgeSim } from './harness.js';

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => s.close());

async function withClient(env: Record<string, string>, fn: (c: Connected) => Promise<void>) {
  const c = await stdioClient(s, { env });
  try {
    await fn(c);
  } finally {
    await c.close();
  }
}

const PROJECT_PATH = '/api/v4/projects/1';
const getProject = (c: Connected) =>
  c.client.callTool({
    name: 'forge_execute_action',
    arguments: { action: 'project.get', params: { project_id: '1' } },
  });
const port = () => new URL(s.url).port;

describe('outbound connection guard', () => {
  it('the operator-chosen loopback instance stays allowed', async () => {
    await withClient({}, async (c) => {
      const r = await getProject(c);
      expect(r.isError).toBeFalsy();
    });
  });

  it('a redirect to a metadata address is refused naming no flag, even with allow-private-instances', async () => {
    for (const env of [{}, { FORGE_MCP_ALLOW_PRIVATE_INSTANCES: 'true' }])
      await withClient(env, async (c) => {
        s.fault({ path: PROJECT_PATH, redirectTo: 'http://169.254.169.254/latest/meta-data/', times: 1 });
        const r = await getProject(c);
        expect(r.isError).toBe(true);
        const text = textOf(r);
        expect(text).toContain('destination refused: 169.254.169.254 is a cloud metadata address');
        expect(text).not.toMatch(/--allow|FORGE_MCP_ALLOW|FORGE_TOKEN|at .*\.js|\n\s+at /);
        expect(text).not.toContain(s.tokens.api);
        expect(text.match(/Suggestion/g)).toHaveLength(1);
      });
  });

  it('a hop leaving the instance host for another loopback name is refused naming --allow-private-instances', async () => {
    await withClient({}, async (c) => {
      for (const target of [
        `http://localhost:${port()}${PROJECT_PATH}`,
        `http://127.0.0.2:${port()}${PROJECT_PATH}`,
      ]) {
        s.fault({ path: PROJECT_PATH, redirectTo: target, times: 1 });
        const since = s.requests.length;
        const r = await getProject(c);
        expect(r.isError).toBe(true);
        const text = textOf(r);
        expect(text).toMatch(
          /destination refused: (localhost resolves to .*, a loopback address|127\.0\.0\.2 is a loopback address)/,
        );
        expect(text).toContain('--allow-private-instances (FORGE_MCP_ALLOW_PRIVATE_INSTANCES=true)');
        expect(text.match(/Suggestion/g)).toHaveLength(1);
        expect(text).not.toContain(s.tokens.api);
        // Only the redirecting request reached the instance.
        expect(s.requests.slice(since).filter((q) => q.path === PROJECT_PATH)).toHaveLength(1);
      }
    });
  });

  it("a refused destination keeps its one hint: a route's own hint, added to its every other error, is not added", async () => {
    const { catalog } = await import('../dist/catalog/index.js');
    const a = catalog().actions.find((x) => x.id.startsWith('group.saml_link_list'))!;
    await withClient({}, async (c) => {
      s.fault({
        path: /\/saml_group_links$/,
        redirectTo: `http://localhost:${port()}${PROJECT_PATH}`,
        times: 1,
      });
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: a.id, params: a.example },
      });
      expect(r.isError).toBe(true);
      const text = textOf(r);
      expect(text).toMatch(/destination refused: localhost resolves to \S+, a loopback address/);
      expect(text).toContain(
        'Suggestion: if this destination is meant to be reached, set --allow-private-instances',
      );
      expect(text).not.toContain('SAML');
      expect(text.match(/Suggestion/g)).toHaveLength(1);
    });
  });

  it('judges every hop of a chain: a hop on the instance host is followed, the next one leaving it is refused', async () => {
    await withClient({}, async (c) => {
      s.fault({ path: PROJECT_PATH, redirectTo: `${s.url}/api/v4/projects/2`, times: 1 });
      s.fault({
        path: '/api/v4/projects/2',
        redirectTo: `http://localhost:${port()}${PROJECT_PATH}`,
        times: 1,
      });
      const since = s.requests.length;
      const r = await getProject(c);
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/destination refused: localhost resolves to \S+, a loopback address/);
      const hops = s.requests.slice(since).filter((q) => /^\/api\/v4\/projects\/[12]$/.test(q.path));
      expect(hops.map((q) => q.path)).toEqual([PROJECT_PATH, '/api/v4/projects/2']);
      expect(hops.every((q) => !/^localhost/.test(String(q.headers.host)))).toBe(true);
    });
  });

  it('a configured instance at a metadata address is refused too, even with allow-private-instances', async () => {
    for (const instance of ['http://169.254.170.2', 'http://100.100.100.200']) {
      const r = await runCli([], {
        FORGE_URL: instance,
        FORGE_TOKEN: s.tokens.api,
        FORGE_MCP_ALLOW_PRIVATE_INSTANCES: 'true',
      });
      expect(r.code, instance).toBe(1);
      expect(r.stderr, instance).toContain(
        `destination refused: ${new URL(instance).hostname} is a cloud metadata address`,
      );
      expect(r.stderr).not.toContain(s.tokens.api);
    }
  });

  it('a different port on the instance host is the same host: followed, credentials kept', async () => {
    const other = await sim();
    try {
      expect(new URL(other.url).hostname).toBe(new URL(s.url).hostname);
      await withClient({}, async (c) => {
        s.fault({ path: PROJECT_PATH, redirectTo: `${other.url}${PROJECT_PATH}`, times: 1 });
        const r = await getProject(c);
        expect(textOf(r)).not.toContain('destination refused');
        const hops = other.requests.filter((q) => q.path === PROJECT_PATH);
        expect(hops).toHaveLength(1);
        expect(hops[0].token).toBe(s.tokens.api);
      });
    } finally {
      await other.close();
    }
  });

  it('the credential check follows no redirect off the instance host, even where the guard would allow it', async () => {
    s.fault({ path: '/api/v4/user', redirectTo: `http://localhost:${port()}/api/v4/user`, times: 1 });
    const since = s.requests.length;
    const r = await runCli([], {
      FORGE_URL: s.url,
      FORGE_TOKEN: s.tokens.api,
      FORGE_MCP_TIER: 'ultimate',
      FORGE_MCP_ALLOW_PRIVATE_INSTANCES: 'true',
    });
    s.clearFaults();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'the instance redirected a credential check to another host (localhost:' +
        port() +
        '), which is not followed',
    );
    expect(r.stderr).not.toContain(s.tokens.api);
    // Only the redirecting request reached the instance; nothing was sent to the other host name.
    const checks = s.requests.slice(since).filter((q) => q.path === '/api/v4/user');
    expect(checks).toHaveLength(1);
    expect(checks[0].headers.host).not.toMatch(/^localhost/);
  });

  it('allowed with FORGE_MCP_ALLOW_PRIVATE_INSTANCES=true, and the credential is dropped across the hop', async () => {
    await withClient({ FORGE_MCP_ALLOW_PRIVATE_INSTANCES: 'true' }, async (c) => {
      s.fault({ path: PROJECT_PATH, redirectTo: `http://localhost:${port()}${PROJECT_PATH}`, times: 1 });
      const since = s.requests.length;
      const r = await getProject(c);
      const hops = s.requests.slice(since).filter((q) => q.path === PROJECT_PATH);
      expect(hops).toHaveLength(2);
      expect(hops[0].token).toBe(s.tokens.api);
      expect(hops[1].token).toBeUndefined();
      for (const h of ['private-token', 'authorization', 'sudo', 'job-token', 'deploy-token'])
        expect(hops[1].headers[h]).toBeUndefined();
      // The instance answered the hop without a credential; whatever it said, the guard let it through.
      expect(textOf(r)).not.toContain('destination refused');
    });
  });
});

describe('redirects from an https instance', () => {
  let secure: ForgeSim;
  let plain: ForgeSim;
  let caFile: string;
  beforeAll(async () => {
    [secure, plain] = await Promise.all([sim({ tls: 'self-signed' }), sim()]);
    caFile = join(tmpdir(), `forge-sim-ca-redirects-${process.pid}.pem`);
    writeFileSync(caFile, secure.ca!);
  });
  afterAll(async () => {
    await Promise.all([secure.close(), plain.close()]);
  });

  async function withSecure(fn: (c: Connected) => Promise<void>) {
    const c = await stdioClient(secure, { env: { SSL_CERT_FILE: caFile } });
    try {
      await fn(c);
    } finally {
      await c.close();
    }
  }
  const CREDENTIALS = ['private-token', 'authorization', 'sudo', 'job-token', 'deploy-token'];

  it('drops the credential headers on a hop from https down to http on the same host', async () => {
    expect(new URL(plain.url).hostname).toBe(new URL(secure.url).hostname);
    await withSecure(async (c) => {
      secure.fault({ path: PROJECT_PATH, redirectTo: `${plain.url}${PROJECT_PATH}`, times: 1 });
      const since = secure.requests.length;
      const plainSince = plain.requests.length;
      await getProject(c);
      const first = secure.requests.slice(since).filter((q) => q.path === PROJECT_PATH);
      expect(first).toHaveLength(1);
      expect(first[0].token).toBe(secure.tokens.api);
      const hop = plain.requests.slice(plainSince).filter((q) => q.path === PROJECT_PATH);
      expect(hop).toHaveLength(1);
      expect(hop[0].token).toBeUndefined();
      for (const h of CREDENTIALS) expect(hop[0].headers[h]).toBeUndefined();
    });
  });

  it('keeps them dropped for the rest of the chain, even on a hop back to the https instance', async () => {
    await withSecure(async (c) => {
      secure.fault({ path: PROJECT_PATH, redirectTo: `${plain.url}${PROJECT_PATH}`, times: 1 });
      plain.fault({ path: PROJECT_PATH, redirectTo: `${plain.url}/api/v4/projects/2`, times: 1 });
      plain.fault({ path: '/api/v4/projects/2', redirectTo: `${secure.url}${PROJECT_PATH}`, times: 1 });
      const since = secure.requests.length;
      const plainSince = plain.requests.length;
      await getProject(c);
      const onSecure = secure.requests.slice(since).filter((q) => q.path === PROJECT_PATH);
      const onPlain = plain.requests
        .slice(plainSince)
        .filter((q) => /^\/api\/v4\/projects\/[12]$/.test(q.path));
      expect(onSecure).toHaveLength(2);
      expect(onPlain).toHaveLength(2);
      expect(onSecure[0].token).toBe(secure.tokens.api);
      for (const hop of [...onPlain, onSecure[1]]) {
        expect(hop.token).toBeUndefined();
        for (const h of CREDENTIALS) expect(hop.headers[h]).toBeUndefined();
      }
    });
  });
});

describe('redirects by host name, through a forward proxy', () => {
  // The proxy tunnels every CONNECT to forge-sim whatever host it names, so the instance can be called by a name
  // (forge.test) and redirect to its subdomains and to other names without a resolver; the Host header inside
  // the tunnel says which name each request was sent to.
  let proxy: Server;
  let proxyUrl = '';
  const INSTANCE = 'forge.test';
  async function withProxied(fn: (c: Connected) => Promise<void>) {
    const c = await stdioClient(s, {
      env: { FORGE_URL: `http://${INSTANCE}:${port()}`, HTTP_PROXY: proxyUrl },
    });
    try {
      await fn(c);
    } finally {
      await c.close();
    }
  }
  beforeAll(async () => {
    proxy = createServer((_req, res) => res.writeHead(405).end());
    proxy.on('connect', (_req, socket: Socket, head: Buffer) =>
      openTunnel(socket, head, '127.0.0.1', Number(port())),
    );
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    proxy.closeAllConnections();
    await new Promise<void>((r) => proxy.close(() => r()));
  });

  it("keeps the credential on a hop to a subdomain of the instance's host, and drops it on a hop to a name that only ends like it", async () => {
    await withProxied(async (c) => {
      for (const [host, kept] of [
        [`api.${INSTANCE}`, true],
        [`not${INSTANCE}`, false],
      ] as const) {
        s.fault({ path: PROJECT_PATH, redirectTo: `http://${host}:${port()}/api/v4/projects/2`, times: 1 });
        const since = s.requests.length;
        const r = await getProject(c);
        const hops = s.requests.slice(since).filter((q) => /^\/api\/v4\/projects\/[12]$/.test(q.path));
        expect(hops.map((q) => [q.path, q.headers.host])).toEqual([
          [PROJECT_PATH, `${INSTANCE}:${port()}`],
          ['/api/v4/projects/2', `${host}:${port()}`],
        ]);
        expect(hops[0].token).toBe(s.tokens.api);
        expect(hops[1].token).toBe(kept ? s.tokens.api : undefined);
        if (kept) expect(r.isError, textOf(r)).toBeFalsy();
      }
    });
  });
});

describe('the method a redirect continues with', () => {
  const ISSUES = '/api/v4/projects/1/issues';
  const create = (c: Connected) =>
    c.client.callTool({
      name: 'forge_execute_action',
      arguments: { action: 'issue.create', params: { project_id: '1', title: 'redirected' } },
    });

  it('a POST answered 303, 302 or 301 continues as a GET without its body; 307 and 308 keep the POST and its body', async () => {
    await withClient({}, async (c) => {
      for (const [status, method] of [
        [303, 'GET'],
        [302, 'GET'],
        [301, 'GET'],
        [307, 'POST'],
        [308, 'POST'],
      ] as const) {
        s.fault({
          path: ISSUES,
          method: 'POST',
          redirectTo: `${ISSUES}?hop=1`,
          redirectStatus: status,
          times: 1,
        });
        const since = s.requests.length;
        await create(c);
        const hops = s.requests.slice(since).filter((q) => q.path === ISSUES);
        expect(
          hops.map((q) => [q.method, q.query.hop]),
          `after ${status}`,
        ).toEqual([
          ['POST', undefined],
          [method, '1'],
        ]);
        if (method === 'GET') {
          expect(hops[1].headers['content-length'] ?? '0', `after ${status}`).toBe('0');
          expect(hops[1].body ?? '', `after ${status}`).toEqual('');
        } else expect(hops[1].body, `after ${status}`).toMatchObject({ title: 'redirected' });
      }
    });
  });
});
