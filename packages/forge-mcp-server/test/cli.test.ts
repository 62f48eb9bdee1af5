/**
 * The command line as a user meets it: counts of the catalog, --help, refusals at start, and a
 * self-hosted instance behind its own certificate authority.
 */
import {
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo, Socket } from 'node:net';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { execFileSync, spawn } from 'node:child_process';
import { selfSignedCertificate } from 'forge-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLI,
  TEST_COMPILE_CACHE,
  answeredWithin,
  httpServerAt,
  logged,
  logRecords,
  openTunnel,
  rpc,
  runCli,
  sim,
  stdioClient,
  textOf,
  type ForgeSim,
} from './harness.js';

describe('--version', () => {
  it('prints the release, the same as the package version', async () => {
    const { code, stdout } = await runCli(['--version']);
    expect(code).toBe(0);
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(stdout.trim()).toBe(`forge-mcp-server ${pkg.version}`);
    expect(pkg.version).toBe('3.1.0');
  });
});

describe('--list-actions', () => {
  it('prints the counts per domain, tier, reads and writes, destructive', async () => {
    const { code, stdout } = await runCli(['--list-actions', '--json']);
    expect(code).toBe(0);
    const counts = JSON.parse(stdout) as {
      total: number;
      domains: number;
      perDomain: Record<string, number>;
      perTier: Record<string, number>;
      reads: number;
      writes: number;
      destructive: number;
      actions: Array<{ id: string; tier: string; write: boolean; destructive: boolean }>;
    };
    expect(counts.total).toBe(1098);
    expect(Object.values(counts.perDomain).reduce((a, b) => a + b, 0)).toBe(1098);
    expect(counts.perTier.free + counts.perTier.premium + counts.perTier.ultimate).toBe(1098);
    expect(counts.reads + counts.writes).toBe(1098);
    expect(counts.perDomain.issue).toBe(71);
    expect(counts.perDomain.merge_request).toBe(58);
    expect(counts.destructive).toBe(counts.actions.filter((a) => a.destructive).length);
    expect(counts.actions.filter((a) => a.destructive && !a.write)).toEqual([]);
    const human = await runCli(['--list-actions']);
    expect(human.stdout).toMatch(/^1098 actions in \d+ domains: \d+ reads, \d+ writes \(\d+ destructive\)/);
  });
});

describe('a reader that stops early (| head)', () => {
  // The read end is closed before the command writes, so every write meets a closed pipe (EPIPE).
  it.each(['--list-actions --json', '--help', '--version'])(
    '%s ends with 0 and nothing on stderr',
    async (line) => {
      const child = spawn(process.execPath, [CLI, ...line.split(' ')], {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '/tmp',
          NODE_COMPILE_CACHE: TEST_COMPILE_CACHE,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stderr).toBe('');
      expect(code).toBe(0);
    },
  );
});

describe('start-up', () => {
  it('--help lists every setting from the same table as the README', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const v of [
      'FORGE_URL',
      'FORGE_TOKEN',
      'FORGE_MCP_TOOL_SURFACE',
      'FORGE_MCP_READ_ONLY',
      '--http-addr',
    ])
      expect(stdout).toContain(v);
  });

  it('refuses an invalid value with one line naming the setting, the value and what is accepted', async () => {
    const { code, stderr } = await runCli([], { FORGE_TOKEN: 'x', FORGE_MCP_TOOL_SURFACE: 'sideways' });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/FORGE_MCP_TOOL_SURFACE/);
    expect(stderr).toMatch(/sideways/);
    expect(stderr).toMatch(/dynamic, meta, individual/);
  });

  it('refuses a URL setting that carries credentials, or a token pasted into another setting, naming the value with the secret as <redacted>: the password or token is not repeated', async () => {
    const secret = 'glpat-cfgsecret-000001';
    const cases: Array<[string[], Record<string, string>, string]> = [
      [
        [],
        { FORGE_URL: `https://oauth2:${secret}@gitlab.example.com`, FORGE_TOKEN: 'glpat-x' },
        'forge-mcp-server: invalid FORGE_URL="https://<redacted>@gitlab.example.com": "https://<redacted>@gitlab.example.com": URL carries credentials; accepts http(s) URL(s), comma-separated, without query or fragment\n',
      ],
      [
        [],
        { FORGE_URL: `https://gitlab.example.com/?private_token=${secret}`, FORGE_TOKEN: 'glpat-x' },
        'forge-mcp-server: invalid FORGE_URL="https://gitlab.example.com/?private_token=<redacted>": "https://gitlab.example.com/?private_token=<redacted>": URL has a query or fragment; accepts http(s) URL(s), comma-separated, without query or fragment\n',
      ],
      [
        [
          '--http',
          '--forge-url=https://gitlab.example.com',
          '--auth-mode=oauth',
          `--public-url=https://${secret}@mcp.example.com/mcp`,
        ],
        {},
        'forge-mcp-server: invalid --public-url="https://<redacted>@mcp.example.com/mcp": URL carries credentials; accepts an absolute https URL (http only for localhost, 127.0.0.1, ::1) without trailing slash or fragment\n',
      ],
    ];
    cases.push([
      [],
      { FORGE_TOKEN: 'glpat-x', FORGE_MCP_TOOL_SURFACE: secret },
      'forge-mcp-server: invalid FORGE_MCP_TOOL_SURFACE="<redacted>": not a known value; accepts one of dynamic, meta, individual\n',
    ]);
    for (const [args, env, expected] of cases) {
      const { code, stderr } = await runCli(args, env);
      expect({ code, stderr }).toEqual({ code: 2, stderr: expected });
    }
  });

  it('a stdio server refuses --read-only, --safe-mode and --exclude-tools even when the value repeats its environment or is empty', async () => {
    const env = { FORGE_URL: 'http://127.0.0.1:9', FORGE_TOKEN: 'glpat-x' };
    const cases: Array<[string[], Record<string, string>, string]> = [
      [['--read-only'], {}, 'FORGE_MCP_READ_ONLY'],
      [['--read-only'], { FORGE_MCP_READ_ONLY: 'true' }, 'FORGE_MCP_READ_ONLY'],
      [['--read-only=false'], {}, 'FORGE_MCP_READ_ONLY'],
      [['--safe-mode'], {}, 'FORGE_MCP_SAFE_MODE'],
      [['--safe-mode=true'], { FORGE_MCP_SAFE_MODE: 'true' }, 'FORGE_MCP_SAFE_MODE'],
      [['--exclude-tools', 'forge_issue'], {}, 'FORGE_MCP_EXCLUDE_TOOLS'],
      [
        ['--exclude-tools=forge_issue'],
        { FORGE_MCP_EXCLUDE_TOOLS: 'forge_issue' },
        'FORGE_MCP_EXCLUDE_TOOLS',
      ],
      [['--exclude-tools='], {}, 'FORGE_MCP_EXCLUDE_TOOLS'],
    ];
    for (const [args, more, variable] of cases) {
      const { code, stdout, stderr } = await runCli(args, { ...env, ...more });
      const flag = args[0]!.split('=')[0]!;
      expect({ args, code, stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(stderr).toMatch(new RegExp(`^forge-mcp-server: refusing ${flag}=".*" on stdio: .*${variable}`));
      expect(stderr).toContain(`accepts ${variable}=`);
    }
  });

  it('refuses to start when --resource-documentation, --resource-policy-uri or --resource-tos-uri is not https', async () => {
    const oauth = [
      '--http',
      '--forge-url=https://gitlab.example.com',
      '--auth-mode=oauth',
      '--public-url=https://mcp.example.com/mcp',
    ];
    for (const flag of ['--resource-documentation', '--resource-policy-uri', '--resource-tos-uri']) {
      const { code, stdout, stderr } = await runCli([...oauth, `${flag}=http://docs.example.com/x`]);
      expect({ code, stdout, stderr }).toEqual({
        code: 2,
        stdout: '',
        stderr: `forge-mcp-server: invalid ${flag}="http://docs.example.com/x": not https; accepts an absolute https URL\n`,
      });
    }
  });

  it('refuses a long setting value from a settings file at once: looking in it for credentials takes time in proportion to its length', async () => {
    // 1 MiB of "a.": each word could start a URL's scheme; read again from each word, this took over half an hour.
    const dir = mkdtempSync(join(tmpdir(), 'forge-long-setting-'));
    const file = join(dir, 'settings.env');
    const value = 'a.'.repeat(512 * 1024);
    writeFileSync(file, `FORGE_MCP_TOOL_SURFACE=${value}\n`);
    try {
      const { code, stderr } = await runCli([], { FORGE_TOKEN: 'glpat-x', FORGE_MCP_ENV_FILE: file });
      // The refusal is a megabyte long: runCli answers at the exit, maybe before the last of it was read.
      expect(code).toBe(2);
      expect(
        stderr.startsWith(`forge-mcp-server: invalid FORGE_MCP_TOOL_SURFACE="${value.slice(0, 1000)}`),
      ).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes no OAuth client secret: --oauth-client-secret is refused as an unknown flag without its value, and --help names none', async () => {
    const secret = 'gloas-clientsecret-0000000001';
    const oauth = ['--http', '--forge-url=https://gitlab.example.com', '--auth-mode=oauth'];
    for (const given of [[`--oauth-client-secret=${secret}`], ['--oauth-client-secret', secret]]) {
      const { code, stderr } = await runCli([...oauth, '--public-url=https://mcp.example.com/mcp', ...given]);
      expect({ code, stderr }).toEqual({
        code: 2,
        stderr:
          'forge-mcp-server: unknown flag --oauth-client-secret; run forge-mcp-server --help for the accepted flags\n',
      });
    }
    const help = await runCli(['--help']);
    expect(help.stdout).toContain('--oauth-client-uid');
    expect(help.stdout).not.toMatch(/client[-_ ]secret/i);
  });

  it('logs process warnings as JSON WARN records, a URL password redacted, and writes nothing raw on stderr', async () => {
    const emitWarning = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'emit-warning.cjs');
    const { stderr } = await runCli([], {
      FORGE_URL: 'http://127.0.0.1:9',
      FORGE_TOKEN: 'glpat-x',
      // undici warns that its SOCKS5 support is experimental when the proxy agent is made.
      HTTP_PROXY: 'socks5://proxyuser:proxy-pw-8d1e@127.0.0.1:1',
      NODE_OPTIONS: `--require ${emitWarning}`,
    });
    const lines = stderr.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
    const warns = logRecords(stderr).filter((r) => r.level === 'warn');
    expect(warns).toContainEqual(
      expect.objectContaining({
        warning: 'ExperimentalWarning',
        msg: expect.stringMatching(/^ExperimentalWarning: SOCKS5 proxy support is experimental/) as unknown,
      }),
    );
    expect(warns).toContainEqual(
      expect.objectContaining({
        warning: 'DeprecationWarning',
        code: 'DEP0999',
        msg: 'DeprecationWarning: fetching http://<redacted>@127.0.0.1:9/ is deprecated',
      }),
    );
    expect(stderr).not.toContain('proxy-pw-8d1e');
    expect(stderr).not.toContain('warn-pw-51c2');
  });

  it('refuses to start on stdio without FORGE_TOKEN, and never prints a token', async () => {
    const { code, stderr } = await runCli([], {});
    expect(code).toBe(2);
    expect(stderr).toMatch(/FORGE_TOKEN/);
  });

  it('names a refused connection and a failed DNS lookup at start, with what to check', async () => {
    const refused = await runCli([], { FORGE_URL: 'http://127.0.0.1:1', FORGE_TOKEN: 'glpat-x' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/connection refused: nothing accepted the connection at 127\.0\.0\.1:1/);
    expect(refused.stderr).toMatch(/FORGE_URL/);
    const dns = await runCli([], { FORGE_URL: 'http://forge.invalid', FORGE_TOKEN: 'glpat-x' });
    expect(dns.code).toBe(1);
    expect(dns.stderr).toMatch(/DNS lookup failed: forge\.invalid did not resolve/);
    expect(dns.stderr + refused.stderr).not.toContain('glpat-x');
  });

  it('refuses a misspelt flag naming the flag it is nearest to', async () => {
    const { code, stderr } = await runCli([
      '--http',
      '--http-adr=127.0.0.1:0',
      '--forge-url=http://127.0.0.1:9',
    ]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'forge-mcp-server: unknown flag --http-adr (did you mean --http-addr?); run forge-mcp-server --help for the accepted flags\n',
    );
    const far = await runCli(['--http', '--colour=auto', '--forge-url=http://127.0.0.1:9']);
    expect(far.code).toBe(2);
    expect(far.stderr).toBe(
      'forge-mcp-server: unknown flag --colour; run forge-mcp-server --help for the accepted flags\n',
    );
  });

  it('refuses a flag for a setting read only from the environment, naming the variable to set instead', async () => {
    const { code, stderr } = await runCli([
      '--http',
      '--auth-failure-limit=5',
      '--forge-url=http://127.0.0.1:9',
    ]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'forge-mcp-server: unknown flag --auth-failure-limit (FORGE_MCP_AUTH_FAILURE_LIMIT has no flag: set it in the environment or a dotenv file); run forge-mcp-server --help for the accepted flags\n',
    );
  });

  it('repeats what a setting accepts whole when its value is refused, though it shows a URL with a password', async () => {
    const { code, stderr } = await runCli(['--http', '--forge-url=http://127.0.0.1:9'], {
      FORGE_MCP_REDIS_URL: 'redi://:hunter2-secret@127.0.0.1:6379',
    });
    expect(code).toBe(2);
    expect(stderr).toBe(
      'forge-mcp-server: invalid FORGE_MCP_REDIS_URL=<redacted>: the scheme is redi, not redis or rediss; accepts a redis:// or rediss:// URL: redis://[[user]:password@]host[:port][/database]\n',
    );
    const flag = await runCli(['--http', '--forge-url=http://127.0.0.1:9', '--redis-url']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe(
      'forge-mcp-server: flag --redis-url needs a value; accepts a redis:// or rediss:// URL: redis://[[user]:password@]host[:port][/database]\n',
    );
  });

  it('names a FORGE_MCP_ variable it does not read at WARN, with the setting it is nearest to, and starts', async () => {
    const s = await sim();
    const server = await httpServerAt(s, [], {
      FORGE_MCP_SESION_TIMEOUT: '5m',
      FORGE_MCP_COLOUR: 'never',
      FORGE_MCP_DEMO_ADDR: '127.0.0.1:9090',
    });
    try {
      expect(logged(server.stderr(), 'warn')).toEqual([
        'ignoring FORGE_MCP_SESION_TIMEOUT: this server has no such setting; did you mean FORGE_MCP_SESSION_TIMEOUT? (forge-mcp-server --help lists every setting)',
        'ignoring FORGE_MCP_COLOUR: this server has no such setting (forge-mcp-server --help lists every setting)',
      ]);
    } finally {
      await server.stop();
      await s.close();
    }
  });

  it('no longer reads META_TOOLS (removed in 3.0.0): set to any value, the surface stays the default one', async () => {
    const s = await sim();
    try {
      const names = async (env: Record<string, string>) => {
        const c = await stdioClient(s, { env });
        try {
          return (await c.client.listTools()).tools.map((t) => t.name).sort();
        } finally {
          await c.close();
        }
      };
      const plain = await names({});
      expect(plain).toEqual(['forge_execute_action', 'forge_find_action']);
      for (const value of ['true', 'meta', 'forge_issue'])
        expect(await names({ META_TOOLS: value }), value).toEqual(plain);
    } finally {
      await s.close();
    }
  });

  it('bounds the pool idle timeout, revalidation interval and distinct-token budget: 0 and the maxima start, one step over refuses', async () => {
    const over: Array<[string[], Record<string, string>, string]> = [
      [
        ['--pool-idle-timeout=24h1s'],
        {},
        'invalid --pool-idle-timeout="24h1s": above the maximum; accepts a duration such as 90s, 15m or 1h30m, at most 24h, or 0 to disable',
      ],
      [
        ['--revalidate-interval=25h'],
        {},
        'invalid --revalidate-interval="25h": above the maximum; accepts a duration such as 90s, 15m or 1h30m, at most 24h, or 0 to disable',
      ],
      [
        [],
        { FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT: '100001' },
        'invalid FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT="100001": above the maximum; accepts a whole number from 0 to 100000',
      ],
      [
        [],
        { FORGE_MCP_AUTH_DISTINCT_TOKEN_WINDOW: '24h1s' },
        'invalid FORGE_MCP_AUTH_DISTINCT_TOKEN_WINDOW="24h1s": above the maximum; accepts a duration such as 90s, 15m or 1h30m, at most 24h, or 0 to disable',
      ],
    ];
    for (const [args, env, text] of over) {
      const { code, stderr } = await runCli(['--http', '--forge-url=http://127.0.0.1:9', ...args], env);
      expect({ args, env, code }).toEqual({ args, env, code: 2 });
      expect(stderr).toContain(`forge-mcp-server: ${text}`);
    }
    const s = await sim();
    try {
      for (const [args, env] of [
        [
          ['--pool-idle-timeout=24h', '--revalidate-interval=24h'],
          { FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT: '100000', FORGE_MCP_AUTH_DISTINCT_TOKEN_WINDOW: '24h' },
        ],
        [
          ['--pool-idle-timeout=0', '--revalidate-interval=0'],
          { FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT: '0', FORGE_MCP_AUTH_DISTINCT_TOKEN_WINDOW: '0' },
        ],
      ] as Array<[string[], Record<string, string>]>) {
        const server = await httpServerAt(s, args, env);
        try {
          const res = await rpc(
            server.url,
            { 'private-token': s.tokens.api },
            {
              jsonrpc: '2.0',
              id: 1,
              method: 'tools/list',
              params: {},
            },
          );
          expect(res.status, args.join(' ')).toBe(200);
          await res.text();
        } finally {
          await server.stop();
        }
      }
    } finally {
      await s.close();
    }
  });

  it('refuses the unprefixed READ_ONLY of releases before 3.1.0', async () => {
    const { code, stderr } = await runCli([], { FORGE_TOKEN: 'x', READ_ONLY: 'true' });
    expect(code).toBe(2);
    expect(stderr).toMatch(/FORGE_MCP_READ_ONLY/);
  });
});

describe('a self-hosted instance behind its own certificate authority', () => {
  let s: ForgeSim;
  let caFile: string;
  beforeAll(async () => {
    s = await sim({ tls: 'self-signed' });
    caFile = join(tmpdir(), `forge-sim-ca-${process.pid}.pem`);
    writeFileSync(caFile, s.ca!);
  });
  afterAll(async () => s.close());

  it('refuses at start when the certificate cannot be verified, naming the fix', async () => {
    const { code, stderr } = await runCli([], { FORGE_URL: s.url, FORGE_TOKEN: s.tokens.api });
    expect(code).toBe(1);
    expect(stderr).toMatch(/TLS handshake failed/);
    expect(stderr).toMatch(/SSL_CERT_FILE/);
    expect(stderr).toContain('FORGE_MCP_SKIP_TLS_VERIFY=true');
    expect(stderr).not.toContain(s.tokens.api);
  });

  it('works with SSL_CERT_FILE naming the authority', async () => {
    const c = await stdioClient(s, { env: { SSL_CERT_FILE: caFile } });
    try {
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
      });
      expect(r.isError, textOf(r)).toBeFalsy();
    } finally {
      await c.close();
    }
  });

  it('OAuth mode takes --skip-tls-verify for a loopback instance: it starts and verifies a token over the unverified TLS', async () => {
    const server = await httpServerAt(s, [
      `--forge-url=${s.url}`,
      '--auth-mode=oauth',
      '--public-url=http://localhost:8131/mcp',
      '--skip-tls-verify',
    ]);
    try {
      const res = await rpc(
        server.url,
        { authorization: `Bearer ${s.tokens.oauth}` },
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      );
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('forge_execute_action');
    } finally {
      await server.stop();
    }
  });

  it('works with FORGE_MCP_SKIP_TLS_VERIFY=true', async () => {
    const c = await stdioClient(s, { env: { FORGE_MCP_SKIP_TLS_VERIFY: 'true' } });
    try {
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'project.get', params: { project_id: '1' } },
      });
      expect(r.isError, textOf(r)).toBeFalsy();
    } finally {
      await c.close();
    }
  });
});

describe('SSL_CERT_FILE, read only where a connection is TLS', () => {
  const issueGet = {
    name: 'forge_execute_action',
    arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
  };
  let s: ForgeSim;
  let dir: string;
  beforeAll(async () => {
    s = await sim();
    dir = mkdtempSync(join(tmpdir(), 'forge-ssl-cert-file-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await s.close();
  });

  it('an http instance never reads it: one naming a pipe nobody writes to, or no file at all, changes nothing and logs nothing', async () => {
    // Reading a pipe with no writer waits for ever: a server that read the file would never answer.
    const pipe = join(dir, 'ca-pipe.pem');
    execFileSync('mkfifo', [pipe]);
    try {
      for (const file of [pipe, join(dir, 'missing.pem')]) {
        const c = await answeredWithin(stdioClient(s, { env: { SSL_CERT_FILE: file } }), 20_000);
        try {
          const r = await answeredWithin(c.client.callTool(issueGet));
          expect(r.isError, textOf(r)).toBeFalsy();
          expect(c.stderr()).not.toContain('SSL_CERT_FILE');
          expect(c.stderr()).not.toContain(file);
          expect(logged(c.stderr(), 'warn')).toEqual([]);
        } finally {
          await c.close();
        }
      }
    } finally {
      // A server that did open the pipe gets its end of file, and so exits.
      try {
        closeSync(openSync(pipe, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // Nobody has it open.
      }
    }
  });

  it("an https instance with SSL_CERT_FILE naming no file is refused at start, its certificate checked against Node's own authorities", async () => {
    const secure = await sim({ tls: 'self-signed' });
    try {
      const { code, stderr } = await runCli([], {
        FORGE_URL: secure.url,
        FORGE_TOKEN: secure.tokens.api,
        SSL_CERT_FILE: join(dir, 'missing.pem'),
      });
      expect(code).toBe(1);
      expect(logged(stderr, 'error')).toEqual([
        `startup identity check (GET /api/v4/user): TLS handshake failed with ${new URL(secure.url).host} (DEPTH_ZERO_SELF_SIGNED_CERT). Suggestion: set SSL_CERT_FILE to the instance's certificate authority bundle, or FORGE_MCP_SKIP_TLS_VERIFY=true (only for a trusted network)`,
      ]);
    } finally {
      await secure.close();
    }
  });

  it('an http instance reached through an https proxy trusts the proxy by the authority SSL_CERT_FILE names, and says so when the proxy cannot be verified', async () => {
    const { cert, key } = await selfSignedCertificate();
    const caFile = join(dir, 'proxy-ca.pem');
    writeFileSync(caFile, cert);
    const asked: string[] = [];
    const proxy = createHttpsServer({ cert, key });
    proxy.on('connect', (req, socket: Socket, head: Buffer) => {
      asked.push(`CONNECT ${req.url}`);
      const [host, port] = req.url!.split(':');
      openTunnel(socket, head, host!, Number(port));
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const proxyUrl = `https://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      // The scheme in capitals is an https proxy too.
      for (const url of [proxyUrl, proxyUrl.replace('https:', 'HTTPS:')]) {
        asked.length = 0;
        const c = await stdioClient(s, { env: { HTTP_PROXY: url, SSL_CERT_FILE: caFile } });
        try {
          const r = await c.client.callTool(issueGet);
          expect(r.isError, textOf(r)).toBeFalsy();
          expect(asked).toContain(`CONNECT ${new URL(s.url).host}`);
          // A proxy named by its IP address is reached without a TLS server name (none may be an IP address),
          // so Node warns of nothing (DEP0123).
          expect(logged(c.stderr(), 'warn')).toEqual([]);
        } finally {
          await c.close();
        }
      }
      // Without the authority the proxy's certificate is refused (the call above did verify it), and the text
      // names the proxy, not the instance, whatever FORGE_MCP_SKIP_TLS_VERIFY says.
      const at = new URL(proxyUrl).host;
      const host = new URL(s.url).hostname;
      // Nor with SSL_CERT_FILE naming another authority: the proxy is checked against it, skip-verify or not.
      const otherCa = join(dir, 'other-ca.pem');
      writeFileSync(otherCa, (await selfSignedCertificate()).cert);
      for (const [skip, file] of [
        ['false', undefined],
        ['true', undefined],
        ['true', otherCa],
      ] as const) {
        const start = await runCli([], {
          FORGE_URL: s.url,
          FORGE_TOKEN: s.tokens.api,
          HTTP_PROXY: proxyUrl,
          FORGE_MCP_SKIP_TLS_VERIFY: skip,
          ...(file ? { SSL_CERT_FILE: file } : {}),
        });
        expect(start.code).toBe(1);
        expect(logged(start.stderr, 'error')).toEqual([
          `startup identity check (GET /api/v4/user): TLS handshake failed with the proxy at ${at} (DEPTH_ZERO_SELF_SIGNED_CERT). Suggestion: set SSL_CERT_FILE to the certificate authority bundle of the proxy named in HTTP_PROXY (FORGE_MCP_SKIP_TLS_VERIFY is for the instance only), or add ${host} to NO_PROXY if the instance is reached without the proxy: GET ${s.url}/api/v4/user`,
        ]);
      }
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((r) => proxy.close(() => r()));
    }
  });
});

/**
 * A proxy on a loopback port that opens the tunnels (CONNECT) asked of it until `refusal()` gives a raw answer
 * to send instead, or 'close' to close the connection unanswered. A plain (not CONNECT) request is recorded and
 * answered 502, as a proxy relaying it could answer.
 */
async function tunnelGate(refusal: () => string | undefined) {
  const tunnels = new Set<Socket>();
  const plain: string[] = [];
  let asked = 0;
  const gate = createServer((req, res) => {
    plain.push(`${req.method} ${req.url}`);
    res.writeHead(502).end();
  });
  gate.on('connect', (req, socket: Socket, head) => {
    asked++;
    const answer = refusal();
    if (answer === 'close') return void socket.destroy();
    if (answer) return void socket.end(answer);
    tunnels.add(socket);
    socket.on('close', () => tunnels.delete(socket));
    const [host, port] = req.url!.split(':');
    openTunnel(socket, head, host!, Number(port));
  });
  await new Promise<void>((r) => gate.listen(0, '127.0.0.1', r));
  return {
    gate,
    at: `127.0.0.1:${(gate.address() as AddressInfo).port}`,
    plain,
    asked: () => asked,
    /** Ends the open tunnels, so that the next call asks for one. */
    dropTunnels: () => {
      for (const t of tunnels) t.destroy();
    },
  };
}

describe('HTTP_PROXY and NO_PROXY', () => {
  let s: ForgeSim;
  let proxy: import('node:http').Server;
  let proxyUrl = '';
  const seen: string[] = [];
  beforeAll(async () => {
    s = await sim();
    const http = await import('node:http');
    // A plain forward proxy: absolute-form requests are relayed to their origin.
    proxy = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const target = new URL(req.url!);
      const up = http.request(
        target,
        { method: req.method, headers: { ...req.headers, host: target.host } },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      up.on('error', () => res.destroy());
      req.pipe(up);
    });
    // Tunnels (CONNECT), which is how the runtime's proxy agent reaches the instance.
    proxy.on('connect', (req, socket, head) => {
      seen.push(`CONNECT ${req.url}`);
      const [host, port] = req.url!.split(':');
      openTunnel(socket as Socket, head, host!, Number(port));
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => proxy.close(() => r()));
    await s.close();
  });

  it('sends instance calls through the proxy, and around it for NO_PROXY hosts', async () => {
    const via = await stdioClient(s, { env: { HTTP_PROXY: proxyUrl } });
    try {
      const r = await via.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
      });
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(seen.some((l) => l.includes(new URL(s.url).host))).toBe(true);
    } finally {
      await via.close();
    }
    seen.length = 0;
    const around = await stdioClient(s, { env: { HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' } });
    try {
      const r = await around.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
      });
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(seen).toEqual([]);
    } finally {
      await around.close();
    }
  });
  it('names the proxy when it asks for authentication (407) or refuses the connection, never the credentials in its URL', async () => {
    // A proxy that tunnels until it is told to ask for authentication, then is shut down.
    let ask = false;
    const { gate, at, dropTunnels } = await tunnelGate(() =>
      ask
        ? 'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="proxy"\r\nContent-Length: 0\r\n\r\n'
        : undefined,
    );
    const secret = 'proxy-pass-7d41';
    const c = await stdioClient(s, { env: { HTTP_PROXY: `http://proxy-user:${secret}@${at}` } });
    const call = () =>
      c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
      });
    try {
      const ok = await call();
      expect(ok.isError, textOf(ok)).toBeFalsy();
      ask = true;
      dropTunnels();
      const auth = textOf(await call());
      const asked = `proxy authentication required: the proxy at ${at} answered 407 to the connection to ${new URL(s.url).host}. Suggestion:`;
      expect(auth).toContain(
        `${asked} the proxy refused the credentials in HTTP_PROXY: correct them there (http://user:password@host:port)`,
      );
      // Without credentials, at start: the server says where to put them, and does not start.
      const start = await runCli([], {
        FORGE_URL: s.url,
        FORGE_TOKEN: s.tokens.api,
        HTTP_PROXY: `http://${at}`,
      });
      expect(start.code).toBe(1);
      expect(start.stderr).toContain(
        `${asked} put the proxy's user name and password in HTTP_PROXY (http://user:password@host:port)`,
      );
      await new Promise<void>((r) => gate.close(() => r()));
      const down = textOf(await call());
      expect(down).toContain(
        `connection refused: nothing accepted the connection at the proxy ${at}. Suggestion: check that the proxy URL in HTTP_PROXY is right and the proxy is up`,
      );
      for (const text of [auth, down, c.stderr()]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain('proxy-user');
        expect(text).not.toContain('UND_ERR_ABORTED');
      }
    } finally {
      await c.close();
      if (gate.listening) gate.close();
    }
  });

  it("says the proxy refused or failed the tunnel (403, 502, 503, 504, closed without answering), in a call and at start, never as the instance's status", async () => {
    // A proxy that tunnels until told to answer each tunnel with a status, or to close it unanswered.
    let answer: number | 'close' | undefined;
    const { gate, at, plain, asked, dropTunnels } = await tunnelGate(() =>
      answer === undefined || answer === 'close'
        ? answer
        : `HTTP/1.1 ${answer} No\r\nContent-Length: 0\r\n\r\n`,
    );
    const to = new URL(s.url).host;
    const secret = 'proxy-pass-93c2';
    const c = await stdioClient(s, { env: { HTTP_PROXY: `http://proxy-user:${secret}@${at}` } });
    const answered: string[] = [];
    const aside = 'or add 127.0.0.1 to NO_PROXY if the instance is reached without the proxy';
    const cases: Array<[number | 'close', string]> = [
      [
        403,
        `proxy refused the connection: the proxy at ${at} answered 403 (forbidden) to the connection to ${to}. Suggestion: the proxy's rules do not let this server reach ${to}: ask the proxy's administrator to allow it, ${aside}`,
      ],
      [
        502,
        `proxy could not reach the instance: the proxy at ${at} answered 502 (bad gateway) to the connection to ${to}. Suggestion: check that FORGE_URL names the instance and that the proxy can reach ${to}, ${aside}`,
      ],
      [
        503,
        `proxy unavailable: the proxy at ${at} answered 503 (service unavailable) to the connection to ${to}. Suggestion: retry later; if it persists check the proxy named in HTTP_PROXY, ${aside}`,
      ],
      [
        504,
        `proxy could not reach the instance: the proxy at ${at} answered 504 (gateway timeout) to the connection to ${to}. Suggestion: ${to} did not answer the proxy in time: retry later and check that the instance is up, ${aside}`,
      ],
      [
        'close',
        `proxy closed the connection: the proxy at ${at} closed the connection to ${to} without answering. Suggestion: check that HTTP_PROXY names an HTTP proxy that opens tunnels (CONNECT) and that its rules allow ${to}, ${aside}`,
      ],
    ];
    try {
      const ok = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
      });
      expect(ok.isError, textOf(ok)).toBeFalsy();
      for (const [status, said] of cases) {
        answer = status;
        dropTunnels();
        const before = asked();
        const r = await c.client.callTool({
          name: 'forge_execute_action',
          arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
        });
        expect(r.isError).toBe(true);
        // The request the tunnel was for closes the text, method first (a network error of its own).
        expect(textOf(r)).toBe(`issue.get: ${said}: GET ${s.url}/api/v4/projects/1/issues/1`);
        // Asked once, not again and again until the deadline (a closed connection was taken for one to retry).
        expect(asked() - before).toBe(1);
        const start = await runCli([], {
          FORGE_URL: s.url,
          FORGE_TOKEN: s.tokens.api,
          HTTP_PROXY: `http://${at}`,
        });
        expect(start.code).toBe(1);
        expect(logged(start.stderr, 'error')).toEqual([
          `startup identity check (GET /api/v4/user): ${said}: GET ${s.url}/api/v4/user`,
        ]);
        answered.push(textOf(r));
        for (const text of [textOf(r), start.stderr])
          expect(text).not.toMatch(/access denied|temporarily unavailable|under maintenance|UND_ERR/);
      }
      // An http:// instance is reached through a tunnel too: the proxy never relays a request whose answer
      // could pass for the instance's own.
      expect(plain).toEqual([]);
      for (const text of [...answered, c.stderr()]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain('proxy-user');
      }
      // An https instance's proxy is read from HTTPS_PROXY, and the text names that variable.
      const secure = await sim({ tls: 'self-signed' });
      const caFile = join(tmpdir(), `forge-sim-ca-refusing-proxy-${process.pid}.pem`);
      try {
        writeFileSync(caFile, secure.ca!);
        answer = 503;
        const st = await runCli([], {
          FORGE_URL: secure.url,
          FORGE_TOKEN: secure.tokens.api,
          HTTPS_PROXY: `http://${at}`,
          SSL_CERT_FILE: caFile,
        });
        const host = new URL(secure.url).host;
        expect(st.code).toBe(1);
        expect(logged(st.stderr, 'error')).toEqual([
          `startup identity check (GET /api/v4/user): proxy unavailable: the proxy at ${at} answered 503 (service unavailable) to the connection to ${host}. Suggestion: retry later; if it persists check the proxy named in HTTPS_PROXY, ${aside}: GET ${secure.url}/api/v4/user`,
        ]);
      } finally {
        rmSync(caFile, { force: true });
        await secure.close();
      }
    } finally {
      await c.close();
      gate.close();
    }
  });

  it('names a proxy variable the server cannot use (no scheme, another scheme, a port out of range, no host), never its value', async () => {
    const said = (variable: string) =>
      `startup identity check (GET /api/v4/user): proxy setting unusable: ${variable} does not hold a proxy URL this server can use, so no request is sent. Suggestion: write it as http://host:port (http://user:password@host:port when the proxy asks for credentials; https:// works too), or unset it to reach the instance directly: GET ${s.url}/api/v4/user`;
    const secret = 'proxy-pass-5be8';
    const cases: [Record<string, string>, string][] = [
      [{ HTTP_PROXY: `proxy-user:${secret}@127.0.0.1:3128` }, 'HTTP_PROXY'],
      [{ HTTP_PROXY: `ftp://proxy-user:${secret}@127.0.0.1:21` }, 'HTTP_PROXY'],
      [{ http_proxy: 'http://127.0.0.1:99999' }, 'http_proxy'],
      [{ HTTP_PROXY: 'http://' }, 'HTTP_PROXY'],
      // The proxy agent is built from every proxy variable at once: an unusable HTTPS_PROXY stops an http
      // instance's requests too, even one NO_PROXY sends around the proxy, and the text names it.
      [{ HTTPS_PROXY: `proxy-user:${secret}@127.0.0.1:3128`, NO_PROXY: '127.0.0.1' }, 'HTTPS_PROXY'],
    ];
    for (const [env, variable] of cases) {
      const start = await runCli([], { FORGE_URL: s.url, FORGE_TOKEN: s.tokens.api, ...env });
      expect(start.code).toBe(1);
      expect(logged(start.stderr, 'error')).toEqual([said(variable)]);
      expect(start.stderr).not.toContain(secret);
      expect(start.stderr).not.toContain('UND_ERR');
    }
  });

  it('sends calls to an https instance through HTTPS_PROXY, and leaves an http instance to HTTP_PROXY alone', async () => {
    const secure = await sim({ tls: 'self-signed' });
    const caFile = join(tmpdir(), `forge-sim-ca-proxy-${process.pid}.pem`);
    writeFileSync(caFile, secure.ca!);
    seen.length = 0;
    const via = await stdioClient(secure, { env: { HTTPS_PROXY: proxyUrl, SSL_CERT_FILE: caFile } });
    try {
      const r = await via.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
      });
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(seen).toContain(`CONNECT ${new URL(secure.url).host}`);
    } finally {
      await via.close();
      await secure.close();
    }
    seen.length = 0;
    const plain = await stdioClient(s, { env: { HTTPS_PROXY: proxyUrl } });
    try {
      const r = await plain.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
      });
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(seen).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});

describe('HTTP listener refusals at start', () => {
  // The flags are right in form, but the listener cannot be made: one line naming the flag and what to do, exit 2.
  const refused = async (args: string[]) => {
    const { code, stdout, stderr } = await runCli([
      '--http',
      '--forge-url=https://forge.example.com',
      ...args,
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    return stderr.trim();
  };

  it('an --http-addr already taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      expect(await refused([`--http-addr=127.0.0.1:${port}`])).toBe(
        `forge-mcp-server: --http-addr=127.0.0.1:${port}: cannot listen there (EADDRINUSE); choose a free port (or a writable socket path), or stop what holds it`,
      );
    } finally {
      taken.close();
    }
  });

  it('a TLS file that cannot be read, or is not a certificate and key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'forge-tls-'));
    const junk = join(dir, 'junk.pem');
    writeFileSync(junk, 'not PEM\n');
    try {
      expect(
        await refused([
          `--tls-cert=${join(dir, 'missing.pem')}`,
          `--tls-key=${junk}`,
          '--http-addr=127.0.0.1:0',
        ]),
      ).toBe(
        `forge-mcp-server: --tls-cert=${join(dir, 'missing.pem')}: cannot read the file (ENOENT); name a readable PEM file`,
      );
      const bad = await refused([`--tls-cert=${junk}`, `--tls-key=${junk}`, '--http-addr=127.0.0.1:0']);
      expect(bad).toContain(
        `forge-mcp-server: --tls-cert=${junk} with --tls-key=${junk}: not a usable certificate and key`,
      );
      expect(bad).toContain('name a PEM certificate and its private key');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('OAuth mode start-up refusals', () => {
  const OAUTH = ['--http', '--auth-mode=oauth', '--public-url=https://mcp.example.com/mcp'];
  const refused = async (args: string[], env: Record<string, string> = {}) => {
    const { code, stdout, stderr } = await runCli([...OAUTH, ...args], env);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    return stderr.trim();
  };

  it('refuses an http instance URL whose host is not loopback, naming it, also among https ones', async () => {
    expect(await refused(['--forge-url=http://forge.example.com'])).toBe(
      'forge-mcp-server: invalid --forge-url="http://forge.example.com": OAuth mode needs https instance URLs, http://forge.example.com is not; accepts https (http only for a loopback host)',
    );
    expect(await refused([], { FORGE_URL: 'https://a.example.com,http://b.example.com' })).toContain(
      'http://b.example.com is not; accepts https (http only for a loopback host)',
    );
  });

  it('refuses --skip-tls-verify (flag or variable) for a non-loopback instance', async () => {
    const message =
      'OAuth mode refuses to skip TLS verification for https://forge.example.com; accepts false, or loopback instances only';
    expect(await refused(['--forge-url=https://forge.example.com', '--skip-tls-verify'])).toBe(
      `forge-mcp-server: invalid --skip-tls-verify="true": ${message}`,
    );
    expect(
      await refused(['--forge-url=https://forge.example.com'], { FORGE_MCP_SKIP_TLS_VERIFY: 'true' }),
    ).toBe(`forge-mcp-server: invalid FORGE_MCP_SKIP_TLS_VERIFY="true": ${message}`);
  });

  it('refuses to start without an instance to publish, even with --allow-any-forge-url', async () => {
    expect(await refused(['--allow-any-forge-url'])).toBe(
      'forge-mcp-server: FORGE_URL is not set: --auth-mode="oauth" needs an instance to publish; accepts FORGE_URL or --forge-url with https URL(s)',
    );
  });
});

describe('the stdio token', () => {
  let s: ForgeSim;
  let dir: string;
  beforeAll(async () => {
    s = await sim();
    dir = mkdtempSync(join(tmpdir(), 'forge-cli-token-'));
  });
  afterAll(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('comes from FORGE_TOKEN in the home dotenv file when the environment has none', async () => {
    const home = join(dir, 'home');
    mkdirSync(home);
    writeFileSync(join(home, '.forge-mcp-server.env'), `FORGE_TOKEN=${s.tokens.admin}\n`);
    const before = s.requests.length;
    const c = await stdioClient(s, { env: { HOME: home, FORGE_TOKEN: '' } });
    try {
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
      });
      expect(r.isError, textOf(r)).toBeFalsy();
      const sent = s.requests.slice(before);
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.every((q) => q.token === s.tokens.admin)).toBe(true);
    } finally {
      await c.close();
    }
  });

  it('comes from nowhere else: other variables, a flag or a .env in the working directory leave the start refused', async () => {
    const home = join(dir, 'empty-home');
    const cwd = join(dir, 'cwd');
    mkdirSync(home);
    mkdirSync(cwd);
    writeFileSync(join(cwd, '.env'), `FORGE_TOKEN=${s.tokens.api}\n`);
    const env = { HOME: home, FORGE_URL: s.url };
    for (const other of [
      'GITLAB_TOKEN',
      'FORGE_MCP_TOKEN',
      'PRIVATE_TOKEN',
      'GITLAB_PERSONAL_ACCESS_TOKEN',
    ]) {
      const { code, stderr } = await runCli([], { ...env, [other]: s.tokens.api }, 20_000, cwd);
      expect(code, other).toBe(2);
      expect(stderr, other).toMatch(/FORGE_TOKEN/);
      expect(stderr, other).not.toContain(s.tokens.api);
    }
    const flag = await runCli([`--forge-token=${s.tokens.api}`], env, 20_000, cwd);
    expect(flag.code).toBe(2);
    expect(flag.stderr).not.toContain(s.tokens.api);
  });
});
