/**
 * The client configurations in the root README, as people paste them: each snippet is parsed from the
 * README and the server is started with it. stdio snippets run their command, arguments and environment
 * (the instance and token swapped for forge-sim's); HTTP snippets are checked against the OAuth demo
 * started as the README says (`npm run demo -- --oauth`, on a free port instead of 8080).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI, TEST_COMPILE_CACHE, freePort, sim, type ForgeSim } from './harness.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const README = readFileSync(join(HERE, '../../../README.md'), 'utf8');
const DEMO = join(HERE, '../dist/demo.js');
const EXAMPLE_INSTANCE = 'https://gitlab.example.com';
const README_URL = 'http://127.0.0.1:8080/mcp';

/** The fenced block after each `<!-- client-config: NAME KIND -->` marker. */
function snippets(): { name: string; kind: 'stdio' | 'http'; lang: string; text: string }[] {
  const out = [];
  for (const m of README.matchAll(/<!-- client-config: (\S+) (stdio|http) -->\s*```(\w+)\n([\s\S]*?)```/g)) {
    out.push({ name: m[1], kind: m[2] as 'stdio' | 'http', lang: m[3], text: m[4] });
  }
  return out;
}

interface Entry {
  type?: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
  oauth?: { clientId?: string; callbackPort?: number };
  auth?: { CLIENT_ID?: string; scopes?: string[] };
}

/** The one server entry of a JSON snippet (`mcpServers` or VS Code's `servers`), or a `claude mcp add` line. */
function entryOf(s: { lang: string; text: string }): Entry {
  if (s.lang === 'sh') {
    const words = s.text.trim().split(/\s+/);
    expect(words.slice(0, 3)).toEqual(['claude', 'mcp', 'add']);
    const sep = words.indexOf('--');
    const env: Record<string, string> = {};
    words.slice(3, sep).forEach((w, i, all) => {
      if (w === '--env') {
        const [k, ...v] = all[i + 1].split('=');
        env[k] = v.join('=');
      }
    });
    return { command: words[sep + 1], args: words.slice(sep + 2), env };
  }
  const doc = JSON.parse(s.text) as { mcpServers?: Record<string, Entry>; servers?: Record<string, Entry> };
  const servers = doc.mcpServers ?? doc.servers ?? {};
  expect(Object.keys(servers)).toEqual(['forge']);
  return servers.forge;
}

/** What the README's placeholders stand for here. */
const substitute = (v: string, s: ForgeSim) =>
  v === EXAMPLE_INSTANCE ? s.url : v === 'glpat-...' || v === '${input:forge-token}' ? s.tokens.api : v;

const all = snippets();

describe('README client configurations', () => {
  it('has a stdio and an HTTP configuration for each client the README names', () => {
    const names = all.map((s) => `${s.name} ${s.kind}`);
    for (const want of [
      'mcpServers stdio',
      'claude-code stdio',
      'claude-code-json stdio',
      'vscode stdio',
      'cursor stdio',
      'claude-code http',
      'cursor http',
      'vscode http',
    ]) {
      expect(names).toContain(want);
    }
  });

  describe('stdio with a token', () => {
    let s: ForgeSim;
    beforeAll(async () => {
      s = await sim();
    });
    afterAll(() => s.close());

    for (const snippet of all.filter((x) => x.kind === 'stdio')) {
      it(`${snippet.name}: starts the server with the snippet's command, arguments and environment`, async () => {
        const entry = entryOf(snippet);
        if (entry.type !== undefined) expect(entry.type).toBe('stdio');
        // `npx forge-mcp-server` runs this package's bin: the built CLI.
        expect(entry.command).toBe('npx');
        expect(entry.args?.[0]).toBe('forge-mcp-server');
        const env = Object.fromEntries(
          Object.entries(entry.env ?? {}).map(([k, v]) => [k, substitute(v, s)]),
        );
        expect(env.FORGE_URL).toBe(s.url);
        expect(env.FORGE_TOKEN).toBe(s.tokens.api);
        const transport = new StdioClientTransport({
          command: process.execPath,
          args: [CLI, ...(entry.args ?? []).slice(1)],
          env: {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? '/tmp',
            NODE_COMPILE_CACHE: TEST_COMPILE_CACHE,
            FORGE_MCP_TIER: 'ultimate',
            ...env,
          },
          stderr: 'pipe',
        });
        const client = new Client({ name: snippet.name, version: '1' });
        await client.connect(transport);
        try {
          const { tools } = await client.listTools();
          expect(tools.map((t) => t.name)).toContain('forge_execute_action');
          const since = s.requests.length;
          const r = await client.callTool({
            name: 'forge_execute_action',
            arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
          });
          expect((r.structuredContent as { iid: number }).iid).toBe(1);
          expect(s.requests.slice(since).every((q) => q.token === s.tokens.api)).toBe(true);
        } finally {
          await client.close();
        }
      });
    }
  });

  it("the README's install line links the command, so `npx forge-mcp-server` runs this build from any directory", async () => {
    // The line as the README gives it, run in the repository with a prefix of its own instead of the global one.
    const line = /`(npm install -g \.\/packages\/forge-mcp-server)`/.exec(README)?.[1];
    expect(line).toBeDefined();
    const prefix = mkdtempSync(join(tmpdir(), 'forge-readme-prefix-'));
    mkdirSync(join(prefix, 'lib'));
    const npm = { ...process.env, npm_config_prefix: prefix, npm_config_offline: 'true' };
    const install = spawnSync('npm', [...line!.split(' ').slice(1), '--no-audit', '--no-fund'], {
      cwd: join(HERE, '../../..'),
      env: npm,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(install.stderr).toBe('');
    expect(install.status).toBe(0);
    const s = await sim();
    // Offline, so npx cannot fetch a package of that name from the registry: only the link can answer.
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['forge-mcp-server'],
      cwd: mkdtempSync(join(tmpdir(), 'forge-readme-elsewhere-')),
      env: {
        PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`,
        HOME: process.env.HOME ?? '/tmp',
        npm_config_prefix: prefix,
        npm_config_offline: 'true',
        NODE_COMPILE_CACHE: TEST_COMPILE_CACHE,
        FORGE_URL: s.url,
        FORGE_TOKEN: s.tokens.api,
        FORGE_MCP_TIER: 'ultimate',
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'installed', version: '1' });
    try {
      await client.connect(transport);
      const r = await client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
      });
      expect((r.structuredContent as { iid: number }).iid).toBe(1);
    } finally {
      await client.close();
      await s.close();
    }
  }, 90_000);

  it('`npm run demo` on an address already taken says which variable picks another, exit 2', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const addr = `127.0.0.1:${(taken.address() as AddressInfo).port}`;
    try {
      const run = spawnSync(process.execPath, [DEMO], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', FORGE_MCP_DEMO_ADDR: addr },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(
        `demo: cannot listen on ${addr} (EADDRINUSE); set FORGE_MCP_DEMO_ADDR to a free address, such as FORGE_MCP_DEMO_ADDR=127.0.0.1:9090\n`,
      );
    } finally {
      taken.close();
    }
  });

  describe('HTTP against `npm run demo -- --oauth`', () => {
    let demo: ChildProcess;
    let printed = '';
    let url: string;
    const field = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(printed)?.[1] ?? '';

    beforeAll(async () => {
      const port = await freePort();
      demo = spawn(process.execPath, [DEMO, '--oauth'], {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '/tmp',
          FORGE_MCP_DEMO_ADDR: `127.0.0.1:${port}`,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`demo did not start: ${printed}`)), 30_000);
        demo.stdout!.on('data', (d: Buffer) => {
          printed += d.toString();
          if (printed.includes('Press Ctrl-C')) {
            clearTimeout(t);
            resolve();
          }
        });
        demo.once('exit', (code) => reject(new Error(`demo exited ${code}: ${printed}`)));
      });
      url = README_URL.replace(':8080', `:${port}`);
    }, 40_000);
    afterAll(() => {
      demo?.kill('SIGTERM');
    });

    it('prints the MCP URL, the client ID and the user to sign in as', () => {
      expect(field('MCP URL')).toBe(url);
      expect(field('OAuth client ID')).toMatch(/\S{20,}/);
      expect(printed).toMatch(/sign in as:\s+alice \/ \S+/);
    });

    /** The challenge, the metadata it names, and the authorization server's page for this client's redirect URI. */
    async function authorizationPageFor(clientId: string, redirectUri: string, scopes?: string[]) {
      const refused = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(refused.status).toBe(401);
      const challenge = refused.headers.get('www-authenticate') ?? '';
      const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1];
      const scope = /scope="([^"]+)"/.exec(challenge)![1];
      const prm = (await (await fetch(metadataUrl)).json()) as {
        resource: string;
        authorization_servers: string[];
      };
      expect(prm.resource).toBe(url);
      const as = (await (
        await fetch(`${prm.authorization_servers[0]}/.well-known/oauth-authorization-server`)
      ).json()) as { authorization_endpoint: string };
      const page = new URL(as.authorization_endpoint);
      const verifier = randomBytes(32).toString('base64url');
      page.search = new URLSearchParams({
        client_id: clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: scopes?.join(' ') ?? scope,
        state: 's',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      }).toString();
      return fetch(page, { redirect: 'manual' });
    }

    it('claude-code: the URL answers with the challenge, and the client ID with its callback reaches the sign-in page', async () => {
      const entry = entryOf(all.find((x) => x.name === 'claude-code' && x.kind === 'http')!);
      expect(entry.type).toBe('http');
      expect(entry.url).toBe(README_URL);
      expect(entry.oauth?.clientId).toBe(field('OAuth client ID'));
      const res = await authorizationPageFor(
        entry.oauth!.clientId!,
        `http://localhost:${entry.oauth!.callbackPort}/callback`,
      );
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('Sign in');
    });

    it('cursor: the URL answers with the challenge, and the client ID, scopes and callback reach the sign-in page', async () => {
      const entry = entryOf(all.find((x) => x.name === 'cursor' && x.kind === 'http')!);
      expect(entry.url).toBe(README_URL);
      expect(entry.auth?.CLIENT_ID).toBe(field('OAuth client ID'));
      for (const redirect of [
        'cursor://anysphere.cursor-mcp/oauth/callback',
        'http://localhost:8787/callback',
      ]) {
        const res = await authorizationPageFor(entry.auth!.CLIENT_ID!, redirect, entry.auth!.scopes);
        expect(res.status, redirect).toBe(200);
      }
    });

    it('vscode: the URL with a personal access token as Bearer lists and runs tools', async () => {
      const entry = entryOf(all.find((x) => x.name === 'vscode' && x.kind === 'http')!);
      expect(entry.type).toBe('http');
      expect(entry.url).toBe(README_URL);
      const token = /Bearer (\S+)/.exec(printed)![1];
      const headers = Object.fromEntries(
        Object.entries(entry.headers ?? {}).map(([k, v]) => [k, v.replace('${input:forge-token}', token)]),
      );
      const client = new Client({ name: 'vscode', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toContain('forge_execute_action');
      } finally {
        await client.close();
      }
    });
  });
});
