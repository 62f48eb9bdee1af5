/**
 * Tiers over real stdio against forge-sim: the catalog offered follows the session's tier, an action of a
 * higher tier is answered as existing but unavailable on every surface (found, called, never sent), and tier
 * detection's sources: group memberships on the hosted instance only (reached as https://gitlab.com through a
 * tunnelling proxy), and a fine-grained token's detection through the namespace and licence reads, which it
 * may lack.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiCalls, openTunnel, sim, textOf, withStdio, type Connected, type ForgeSim } from './harness.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => s.close());

/** Runs `fn` with a client of a server against `target`; resolves with the server's stderr. */
const withClient = async (
  target: ForgeSim,
  env: Record<string, string>,
  fn: (c: Connected) => Promise<void>,
) => (await withStdio(target, { env }, fn)).stderr;

const FREE = { FORGE_MCP_TIER: 'free' };
const APPROVAL_RULES = 'merge_request.approval_rules';
const UNAVAILABLE =
  "merge_request.approval_rules exists but is unavailable: it needs the premium tier, and this server's tier is free (configured).";
const VULNERABILITIES =
  "vulnerability.list exists but is unavailable: it needs the ultimate tier, and this server's tier is free (configured).";

describe('an action above the session tier', () => {
  it('individual: its tool is not listed (a higher tier lists it), and a call is answered as unavailable, not unknown', async () => {
    let atUltimate: string[] = [];
    await withClient(s, { FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      atUltimate = (await c.client.listTools()).tools.map((t) => t.name);
    });
    expect(atUltimate).toContain('forge_mr_approval_rules');
    expect(atUltimate).toContain('forge_list_vulnerabilities');
    await withClient(s, { ...FREE, FORGE_MCP_TOOL_SURFACE: 'individual' }, async (c) => {
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('forge_mr_list');
      expect(names).not.toContain('forge_mr_approval_rules');
      expect(names).not.toContain('forge_list_vulnerabilities');
      expect(names.length).toBeLessThan(atUltimate.length);
      const since = s.requests.length;
      const r = await c.client.callTool({
        name: 'forge_mr_approval_rules',
        arguments: { project_id: '1', merge_request_iid: 1 },
      });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe(`forge_mr_approval_rules: ${UNAVAILABLE}`);
      const v = await c.client.callTool({
        name: 'forge_list_vulnerabilities',
        arguments: { full_path: 'acme/widgets' },
      });
      expect(textOf(v)).toBe(`forge_list_vulnerabilities: ${VULNERABILITIES}`);
      expect(apiCalls(s, since)).toEqual([]);
      // A name no action has is still an unknown tool.
      await expect(c.client.callTool({ name: 'forge_no_such_tool', arguments: {} })).rejects.toThrow(
        /unknown tool/,
      );
    });
  });

  it('meta: answered as unavailable, in a listed domain and in a domain only a higher tier offers', async () => {
    await withClient(s, { ...FREE, FORGE_MCP_TOOL_SURFACE: 'meta' }, async (c) => {
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('forge_merge_request');
      expect(names).not.toContain('forge_vulnerability');
      const since = s.requests.length;
      const r = await c.client.callTool({
        name: 'forge_merge_request',
        arguments: { action: 'approval_rules', params: { project_id: '1', merge_request_iid: 1 } },
      });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe(`forge_merge_request: ${UNAVAILABLE}`);
      const v = await c.client.callTool({
        name: 'forge_vulnerability',
        arguments: { action: 'list', params: { full_path: 'acme/widgets' } },
      });
      expect(v.isError).toBe(true);
      expect(textOf(v)).toBe(`forge_vulnerability: ${VULNERABILITIES}`);
      expect(apiCalls(s, since)).toEqual([]);
    });
  });

  it('dynamic: found and shown as unavailable, and execute answers the same', async () => {
    await withClient(s, FREE, async (c) => {
      const found = await c.client.callTool({
        name: 'forge_find_action',
        arguments: { query: APPROVAL_RULES },
      });
      const matches = (found.structuredContent as { matches: Array<{ id: string; unavailable?: string }> })
        .matches;
      expect(matches[0]).toMatchObject({ id: APPROVAL_RULES, unavailable: UNAVAILABLE });
      expect(textOf(found)).toContain(`\n   ${UNAVAILABLE}\n`);
      // An action of the session's tier carries no such mark.
      const list = await c.client.callTool({
        name: 'forge_find_action',
        arguments: { query: 'merge_request.list' },
      });
      const first = (list.structuredContent as { matches: Array<Record<string, unknown>> }).matches[0]!;
      expect(first.id).toBe('merge_request.list');
      expect(first).not.toHaveProperty('unavailable');
      const since = s.requests.length;
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: APPROVAL_RULES, params: { project_id: '1', merge_request_iid: 1 } },
      });
      expect(textOf(r)).toBe(`forge_execute_action: ${UNAVAILABLE}`);
      expect(apiCalls(s, since)).toEqual([]);
    });
  });

  it('read-only still wins over the tier: a higher-tier write is withheld and not found', async () => {
    await withClient(s, { ...FREE, FORGE_MCP_READ_ONLY: 'true' }, async (c) => {
      const found = await c.client.callTool({
        name: 'forge_find_action',
        arguments: { query: 'dismiss vulnerability', limit: 20 },
      });
      const ids = (found.structuredContent as { matches: Array<{ id: string }> }).matches.map((m) => m.id);
      expect(ids).not.toContain('vulnerability.dismiss');
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'vulnerability.dismiss', params: { id: 'gid://x/Vulnerability/1' } },
      });
      expect(textOf(r)).toMatch(
        /^forge_execute_action: vulnerability\.dismiss exists but is withheld: the server runs in read-only mode/,
      );
    });
  });
});

/** The detection requests a start sent, in order, and the tier it logged. */
function detection(target: ForgeSim, since: number, stderr: string) {
  const line = stderr.split('\n').find((l) => l.includes('serving on stdio'))!;
  const { tier, tier_source } = JSON.parse(line) as { tier: string; tier_source: string };
  const sent = target.requests
    .slice(since)
    .filter((r) => /^\/api\/v4\/(license|namespaces|groups)$/.test(r.path));
  return { tier, tier_source, sent };
}

describe('tier detection on the hosted instance', () => {
  let hosted: ForgeSim;
  let proxy: Server;
  let proxyUrl = '';
  let caFile = '';
  const tunnels: string[] = [];
  beforeAll(async () => {
    // The simulator answers as gitlab.com: its certificate names it, and a proxy tunnels every CONNECT to it.
    hosted = await sim({ tls: 'self-signed', tlsNames: ['gitlab.com'] });
    caFile = join(tmpdir(), `forge-sim-hosted-ca-${process.pid}.pem`);
    writeFileSync(caFile, hosted.ca!);
    const port = Number(new URL(hosted.url).port);
    proxy = createServer((_req, res) => res.writeHead(502).end());
    proxy.on('connect', (req, socket: Socket, head) => {
      tunnels.push(req.url!);
      openTunnel(socket, head, '127.0.0.1', port);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    proxy.closeAllConnections();
    await new Promise<void>((r) => proxy.close(() => r()));
    await hosted.close();
  });
  afterEach(() => {
    hosted.clearFaults();
    hosted.setLicense('ultimate');
  });

  const asHosted = (env: Record<string, string> = {}) => ({
    FORGE_URL: 'https://gitlab.com',
    HTTPS_PROXY: proxyUrl,
    SSL_CERT_FILE: caFile,
    FORGE_MCP_TIER: '',
    ...env,
  });

  it('consults group memberships after the licence and namespaces, and the highest plan wins', async () => {
    hosted.setLicense(null);
    hosted.fault({ path: '/api/v4/namespaces', status: 200, body: [{ id: 2, plan: 'free' }] });
    hosted.fault({
      path: '/api/v4/groups',
      status: 200,
      body: [
        { id: 10, plan: 'free' },
        { id: 11, plan: 'ultimate' },
      ],
    });
    const since = hosted.requests.length;
    const stderr = await withClient(hosted, asHosted(), async (c) => {
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'vulnerability.list', params: { full_path: 'acme/widgets' } },
      });
      expect(textOf(r)).not.toMatch(/unavailable/);
    });
    expect(tunnels).toContain('gitlab.com:443');
    const { tier, tier_source, sent } = detection(hosted, since, stderr);
    expect({ tier, tier_source }).toEqual({ tier: 'ultimate', tier_source: 'detected' });
    expect(sent.map((r) => r.path)).toEqual(['/api/v4/license', '/api/v4/namespaces', '/api/v4/groups']);
    expect(sent[2]!.query).toMatchObject({ min_access_level: '10', top_level_only: 'true' });
  });

  it('stops at an ultimate licence: nothing ranks above it', async () => {
    const since = hosted.requests.length;
    const stderr = await withClient(hosted, asHosted({ FORGE_TOKEN: hosted.tokens.admin }), async () => {});
    const { tier, sent } = detection(hosted, since, stderr);
    expect(tier).toBe('ultimate');
    expect(sent.map((r) => r.path)).toEqual(['/api/v4/license']);
  });

  it('the same answers from a self-managed instance leave the groups unread', async () => {
    s.setLicense(null);
    s.fault({ path: '/api/v4/namespaces', status: 200, body: [{ id: 2, plan: 'free' }] });
    s.fault({ path: '/api/v4/groups', status: 200, body: [{ id: 11, plan: 'ultimate' }] });
    try {
      const since = s.requests.length;
      const stderr = await withClient(s, { FORGE_MCP_TIER: '' }, async () => {});
      const { tier, sent } = detection(s, since, stderr);
      expect(tier).toBe('free');
      expect(sent.map((r) => r.path)).toEqual(['/api/v4/license', '/api/v4/namespaces']);
    } finally {
      s.clearFaults();
      s.setLicense('ultimate');
    }
  });
});

describe('tier detection for a fine-grained token', () => {
  afterEach(() => {
    s.clearFaults();
    s.setLicense('ultimate');
  });
  const grant = (permissions: string[]) =>
    s.addToken({
      granularScopes: [
        { access: 'user', permissions },
        { access: 'instance', permissions: ['read_metadata'] },
        { access: 'selected_memberships', project_ids: [1], permissions: ['read_work_item'] },
      ],
    });

  it('reads the namespace plans with its own token (Namespace: Read) when the licence is refused to it', async () => {
    const token = grant(['read_user', 'read_personal_access_token', 'read_namespace']);
    // License: Read is an administrator's: the instance refuses the licence read to this token.
    s.fault({
      path: '/api/v4/license',
      status: 403,
      body: { error: 'insufficient_granular_scope' },
    });
    s.fault({ path: '/api/v4/namespaces', status: 200, body: [{ id: 2, plan: 'premium' }] });
    const since = s.requests.length;
    const stderr = await withClient(s, { FORGE_TOKEN: token, FORGE_MCP_TIER: '' }, async () => {});
    const { tier, tier_source, sent } = detection(s, since, stderr);
    expect({ tier, tier_source }).toEqual({ tier: 'premium', tier_source: 'detected' });
    expect(sent.map((r) => `${r.path} ${r.token === token}`)).toEqual([
      '/api/v4/license true',
      '/api/v4/namespaces true',
    ]);
  });

  it('is admitted without Namespace: Read and License: Read: the tier falls to free and calls run', async () => {
    const token = grant(['read_user', 'read_personal_access_token']);
    const refused = { status: 403, body: { error: 'insufficient_granular_scope' } };
    s.fault({ path: '/api/v4/license', ...refused });
    s.fault({ path: '/api/v4/namespaces', ...refused });
    const since = s.requests.length;
    const stderr = await withClient(s, { FORGE_TOKEN: token, FORGE_MCP_TIER: '' }, async (c) => {
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.list', params: { project_id: '1' } },
      });
      expect(r.isError, textOf(r)).toBeFalsy();
    });
    const { tier, tier_source, sent } = detection(s, since, stderr);
    expect({ tier, tier_source }).toEqual({ tier: 'free', tier_source: 'detected' });
    expect(sent.map((q) => `${q.path} ${q.status}`)).toEqual([
      '/api/v4/license 403',
      '/api/v4/namespaces 403',
    ]);
  });
});
