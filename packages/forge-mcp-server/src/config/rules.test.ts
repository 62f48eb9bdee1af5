// The rules of the spec's settings section beyond one value per setting, through loadConfig only.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type LoadInput, type LoadResult } from './index.js';

const tmp = realpathSync(mkdtempSync(path.join(tmpdir(), 'forge-config-rules-')));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let dirs = 0;
/** A fresh empty directory, for a cwd or a home of one test. */
function freshDir(): string {
  const dir = path.join(tmp, `d${dirs++}`);
  mkdirSync(dir);
  return dir;
}
const empty = freshDir();

const TOKEN = { FORGE_TOKEN: 'glpat-test' };
const INSTANCE = { FORGE_URL: 'https://forge.example.com' };

function load(input: Partial<LoadInput>): LoadResult {
  return loadConfig({ argv: [], env: {}, cwd: empty, home: empty, stdinIsPipe: true, ...input });
}
const stdio = (env: Record<string, string> = {}, argv: string[] = []) =>
  load({ env: { ...TOKEN, ...env }, argv });
const http = (env: Record<string, string> = {}, argv: string[] = []) =>
  load({ env: { ...INSTANCE, ...env }, argv: ['--http', ...argv] });

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected the start to be refused');
}

describe('transport selection', () => {
  it('serves stdio by default and HTTP with --http', () => {
    expect(stdio().config.transport).toBe('stdio');
    expect(http().config.transport).toBe('http');
  });
  it('--transport auto means HTTP without a stdin pipe and stdio with one', () => {
    const auto = { env: { ...TOKEN, ...INSTANCE }, argv: ['--transport', 'auto'] };
    expect(load({ ...auto, stdinIsPipe: false }).config.transport).toBe('http');
    expect(load({ ...auto, stdinIsPipe: true }).config.transport).toBe('stdio');
  });
  it('refuses --http with --transport=stdio', () => {
    expect(refusal(() => stdio({}, ['--http', '--transport=stdio']))).toContain('--transport=stdio');
  });
});

describe('flags', () => {
  it('take a value after = or as the next argument', () => {
    expect(http({}, ['--tool-surface=meta']).config.toolSurface).toBe('meta');
    expect(http({}, ['--tool-surface', 'meta']).config.toolSurface).toBe('meta');
  });
  it('a bare boolean flag means true and never swallows the next argument', () => {
    expect(http({}, ['--safe-mode', '--tool-surface', 'meta']).config).toMatchObject({
      safeMode: true,
      toolSurface: 'meta',
    });
    const message = refusal(() => http({}, ['--stateless', 'false']));
    expect(message).toContain('"false"');
    expect(message).toContain('--stateless=false');
  });
  it('the last of a repeated flag wins', () => {
    expect(http({}, ['--log-level=debug', '--log-level=error']).config.logLevel).toBe('error');
  });
  it('a flag wins over its variable', () => {
    expect(http({ FORGE_MCP_TOOL_SURFACE: 'meta' }, ['--tool-surface=individual']).config.toolSurface).toBe(
      'individual',
    );
  });
  it('refuses an unknown flag, a missing value and a positional argument', () => {
    expect(refusal(() => http({}, ['--no-such-flag']))).toContain('--no-such-flag');
    const missing = refusal(() => http({}, ['--tool-surface']));
    expect(missing).toContain('--tool-surface');
    expect(missing).toContain('one of dynamic, meta, individual');
    expect(refusal(() => stdio({}, ['serve']))).toContain('"serve"');
  });
});

describe('empty values', () => {
  it('an empty or blank variable counts as unset', () => {
    expect(stdio({ FORGE_MCP_TOOL_SURFACE: '' }).config.toolSurface).toBe('dynamic');
    expect(stdio({ FORGE_MCP_LOG_LEVEL: '   ' }).config.logLevel).toBe('info');
    expect(stdio({ FORGE_MCP_READ_ONLY: '' }).config.readOnly).toBe(false);
  });
});

describe('booleans', () => {
  it.each(['true', 'TRUE', 'True', 't', 'T', '1'])('%s is true', (raw) => {
    expect(stdio({ FORGE_MCP_READ_ONLY: raw }).config.readOnly).toBe(true);
  });
  it.each(['false', 'FALSE', 'False', 'f', 'F', '0'])('%s is false', (raw) => {
    expect(stdio({ FORGE_MCP_EMBEDDED_RESOURCES: raw }).config.embeddedResources).toBe(false);
  });
  it.each(['tRuE', 'yes', 'on', '2'])('%s is refused', (raw) => {
    const message = refusal(() => stdio({ FORGE_MCP_READ_ONLY: raw }));
    expect(message).toContain(`FORGE_MCP_READ_ONLY=${JSON.stringify(raw)}`);
    expect(message).toContain('true, false, 1, 0, t or f');
  });
});

describe('yolo mode', () => {
  it('FORGE_MCP_YOLO_MODE set at all decides, even false over AUTOPILOT', () => {
    expect(stdio({ FORGE_MCP_YOLO_MODE: 'false', AUTOPILOT: 'true' }).config.yolo).toBe(false);
    expect(stdio({ FORGE_MCP_YOLO_MODE: 'nope', AUTOPILOT: 'true' }).config.yolo).toBe(false);
    expect(stdio({ FORGE_MCP_YOLO_MODE: 'Yes', AUTOPILOT: 'false' }).config.yolo).toBe(true);
  });
  it('AUTOPILOT is consulted only when FORGE_MCP_YOLO_MODE is empty', () => {
    expect(stdio({ FORGE_MCP_YOLO_MODE: '', AUTOPILOT: 'TRUE' }).config.yolo).toBe(true);
    expect(stdio({ AUTOPILOT: '1' }).config.yolo).toBe(true);
    expect(stdio({ AUTOPILOT: 'y' }).config.yolo).toBe(false);
  });
  it('the flag decides too (read on stdio)', () => {
    expect(stdio({ AUTOPILOT: 'true' }, ['--yolo-mode=false']).config.yolo).toBe(false);
    expect(stdio({}, ['--yolo-mode']).config.yolo).toBe(true);
  });
});

describe('telemetry', () => {
  it('accepts true and false in any case only', () => {
    expect(stdio({ FORGE_MCP_TELEMETRY: 'tRUe' }).config.telemetry).toBe(true);
    const result = stdio({ FORGE_MCP_TELEMETRY: 't' });
    expect(result.config.telemetry).toBe(false);
    expect(result.warnings[0]).toContain('FORGE_MCP_TELEMETRY="t"');
  });
  it('OTEL_SDK_DISABLED=true vetoes, whatever the case', () => {
    expect(stdio({ FORGE_MCP_TELEMETRY: 'true', OTEL_SDK_DISABLED: 'TRUE' }).config.telemetry).toBe(false);
    expect(stdio({ OTEL_SDK_DISABLED: 'false' }, ['--telemetry']).config.telemetry).toBe(true);
  });
  it('an unrecognized identity logs an ERROR and records nobody', () => {
    const result = stdio({ FORGE_MCP_TELEMETRY_IDENTITY: 'Everyone' });
    expect(result.config.telemetryIdentity).toBe('none');
    expect(result.errors).toHaveLength(1);
    expect(result.warnings).toEqual([]);
  });
  it('a rotation is ignored with a WARN when a key is set', () => {
    const result = stdio({
      FORGE_MCP_TELEMETRY_IDENTITY_KEY: 'k',
      FORGE_MCP_TELEMETRY_IDENTITY_ROTATION: '24h',
    });
    expect(result.config.telemetryIdentityRotationMs).toBeUndefined();
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toContain('FORGE_MCP_TELEMETRY_IDENTITY_ROTATION="24h"');
    expect(stdio({ FORGE_MCP_TELEMETRY_IDENTITY_ROTATION: '24h' }).config.telemetryIdentityRotationMs).toBe(
      86_400_000,
    );
  });
  it('the identity key is never echoed', () => {
    const result = stdio({
      FORGE_MCP_TELEMETRY_IDENTITY_KEY: 'top-secret',
      FORGE_MCP_TELEMETRY_IDENTITY_ROTATION: '1h',
    });
    expect(result.warnings.join(' ')).not.toContain('top-secret');
  });
});

describe('durations', () => {
  it('read h, m and s combinations', () => {
    expect(http({ FORGE_MCP_SESSION_TIMEOUT: '90s' }).config.sessionTimeoutMs).toBe(90_000);
    expect(http({ FORGE_MCP_SESSION_TIMEOUT: '1h30m' }).config.sessionTimeoutMs).toBe(5_400_000);
    expect(http({ FORGE_MCP_SESSION_TIMEOUT: '1h2m3s' }).config.sessionTimeoutMs).toBe(3_723_000);
  });
  it('refuse other spellings', () => {
    for (const raw of ['90', '1m30', '30m1h', '1d', '-5m', '1.5h'])
      expect(refusal(() => http({ FORGE_MCP_SESSION_TIMEOUT: raw }))).toContain(JSON.stringify(raw));
  });
  it('0 disables only as the bare digit in a variable', () => {
    expect(stdio({ FORGE_MCP_ACTION_TIMEOUT: '0' }).config.actionTimeoutMs).toBe(0);
    expect(refusal(() => stdio({ FORGE_MCP_ACTION_TIMEOUT: '0s' }))).toContain('bare digit');
    expect(http({}, ['--action-timeout=0s']).config.actionTimeoutMs).toBe(0);
  });
  it('0 is refused where it does not disable', () => {
    expect(refusal(() => http({ FORGE_MCP_OAUTH_CACHE_TTL: '0' }))).toContain(
      'FORGE_MCP_OAUTH_CACHE_TTL="0"',
    );
    expect(refusal(() => stdio({ FORGE_MCP_TELEMETRY_IDENTITY_ROTATION: '0' }))).toContain('"0"');
  });
  it('FORGE_MCP_SESSION_TIMEOUT: the variable refuses 0, the flag accepts it', () => {
    expect(refusal(() => http({ FORGE_MCP_SESSION_TIMEOUT: '0' }))).toContain(
      'FORGE_MCP_SESSION_TIMEOUT="0"',
    );
    expect(http({}, ['--session-timeout=0']).config.sessionTimeoutMs).toBe(0);
  });
  it('FORGE_MCP_POOL_IDLE_TIMEOUT and FORGE_MCP_SESSION_REVALIDATE_INTERVAL take 0 (off) and at most 24h, variable and flag alike', () => {
    const rows = [
      ['FORGE_MCP_POOL_IDLE_TIMEOUT', '--pool-idle-timeout', 'poolIdleTimeoutMs'],
      ['FORGE_MCP_SESSION_REVALIDATE_INTERVAL', '--revalidate-interval', 'revalidateIntervalMs'],
    ] as const;
    for (const [variable, flag, field] of rows) {
      expect(http({ [variable]: '0' }).config[field]).toBe(0);
      expect(http({}, [`${flag}=0`]).config[field]).toBe(0);
      expect(http({ [variable]: '24h' }).config[field]).toBe(86_400_000);
      for (const raw of ['24h0m1s', '25h']) {
        expect(refusal(() => http({ [variable]: raw }))).toContain(`${variable}=${JSON.stringify(raw)}`);
        expect(refusal(() => http({ [variable]: raw }))).toContain('at most 24h');
        expect(refusal(() => http({}, [`${flag}=${raw}`]))).toContain('at most 24h');
      }
    }
  });
  it('keep their bounds (oauth cache ttl 1m to 2h, drain delay at most 5m)', () => {
    expect(http({ FORGE_MCP_OAUTH_CACHE_TTL: '1m' }).config.oauthCacheTtlMs).toBe(60_000);
    expect(refusal(() => http({ FORGE_MCP_OAUTH_CACHE_TTL: '59s' }))).toContain('from 1m to 2h');
    expect(refusal(() => http({ FORGE_MCP_OAUTH_CACHE_TTL: '2h1s' }))).toContain('from 1m to 2h');
    expect(http({ FORGE_MCP_DRAIN_DELAY: '5m' }).config.drainDelayMs).toBe(300_000);
    expect(http({ FORGE_MCP_ACTION_TIMEOUT: '24h' }).config.actionTimeoutMs).toBe(86_400_000);
  });
});

describe('sizes', () => {
  it('are byte counts or KB, MB, GB in powers of 1024', () => {
    const size = (raw: string) => stdio({ FORGE_MCP_UPLOAD_MAX_FILE_SIZE: raw }).config.uploadMaxFileSize;
    expect(size('1')).toBe(1);
    expect(size('1KB')).toBe(1024);
    expect(size('3mb')).toBe(3 * 1024 ** 2);
    expect(size('1.5GB')).toBe(1.5 * 1024 ** 3);
    expect(size('1024GB')).toBe(1024 ** 4);
  });
  it('upload size: positive, at most 1 TB', () => {
    for (const raw of ['0', '1025GB', '5 TB', 'big'])
      expect(refusal(() => stdio({ FORGE_MCP_UPLOAD_MAX_FILE_SIZE: raw }))).toContain(JSON.stringify(raw));
  });
  it('upload size: invalid refuses on stdio but warns and keeps 2GB in HTTP', () => {
    const result = http({ FORGE_MCP_UPLOAD_MAX_FILE_SIZE: '2TB' });
    expect(result.config.uploadMaxFileSize).toBe(2 * 1024 ** 3);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toContain('FORGE_MCP_UPLOAD_MAX_FILE_SIZE="2TB"');
    expect(result.warnings[0]).toContain('2GB');
  });
});

describe('rate limits', () => {
  it('default to 0 rps on stdio and 10 in HTTP, burst 40', () => {
    expect(stdio().config).toMatchObject({ rateLimitRps: 0, rateLimitBurst: 40 });
    expect(http().config).toMatchObject({ rateLimitRps: 10, rateLimitBurst: 40 });
  });
  it('a burst below 1 refuses the start only while the limiter is on', () => {
    expect(stdio({ FORGE_MCP_RATE_LIMIT_BURST: '0' }).config.rateLimitBurst).toBe(0);
    expect(http({ FORGE_MCP_RATE_LIMIT_RPS: '0', FORGE_MCP_RATE_LIMIT_BURST: '0' }).config.rateLimitRps).toBe(
      0,
    );
    const message = refusal(() => http({ FORGE_MCP_RATE_LIMIT_BURST: '0' }));
    expect(message).toContain('FORGE_MCP_RATE_LIMIT_BURST="0"');
    expect(message).toContain('from 1 to 10000');
  });
  it('max http clients accepts 1 to 10000', () => {
    expect(http({ FORGE_MCP_MAX_HTTP_CLIENTS: '1' }).config.maxHttpClients).toBe(1);
    expect(refusal(() => http({ FORGE_MCP_MAX_HTTP_CLIENTS: '10001' }))).toContain('from 1 to 10000');
  });
});

describe('authentication budgets', () => {
  it('a 0 failure window disables both budgets', () => {
    const { config } = http({ FORGE_MCP_AUTH_FAILURE_WINDOW: '0' });
    expect(config).toMatchObject({ authFailureLimit: 0, authDistinctTokenLimit: 0, authFailureWindowMs: 0 });
  });
  it('a 0 distinct-token window disables only the distinct budget', () => {
    const { config } = http({ FORGE_MCP_AUTH_DISTINCT_TOKEN_WINDOW: '0' });
    expect(config).toMatchObject({ authFailureLimit: 10, authDistinctTokenLimit: 0 });
  });
  it('the distinct-token budget takes the failure budget bounds: limit 0 to 100000, window at most 24h', () => {
    expect(
      http({ FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT: '100000', FORGE_MCP_AUTH_DISTINCT_TOKEN_WINDOW: '24h' })
        .config,
    ).toMatchObject({ authDistinctTokenLimit: 100000, authDistinctTokenWindowMs: 24 * 3_600_000 });
    const limit = refusal(() => http({ FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT: '100001' }));
    expect(limit).toContain('FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT');
    expect(limit).toContain('from 0 to 100000');
    const window = refusal(() => http({ FORGE_MCP_AUTH_DISTINCT_TOKEN_WINDOW: '24h0m1s' }));
    expect(window).toContain('FORGE_MCP_AUTH_DISTINCT_TOKEN_WINDOW');
    expect(window).toContain('at most 24h');
  });
});

describe('description substitutions', () => {
  const subs = (raw: string) =>
    stdio({ FORGE_MCP_DESCRIPTION_SUBSTITUTIONS: raw }).config.descriptionSubstitutions;
  it('read backslash escapes and keep text exactly', () => {
    expect(subs('a\\\\b=c\\nd, e=f\\t')).toEqual([
      ['a\\b', 'c\nd'],
      [' e', 'f\t'],
    ]);
    expect(subs('remove me=')).toEqual([['remove me', '']]);
    expect(subs('x=a=b')).toEqual([['x', 'a=b']]);
  });
  it.each([
    ['=new', 'empty old'],
    ['a=b,=c', 'empty old'],
    ['a\\qb=c', 'unknown escape \\q'],
    ['a=b\\', 'lone backslash'],
    ['no-equals', 'has no "="'],
  ])('%s refuses the start (%s)', (raw, reason) => {
    const message = refusal(() => stdio({ FORGE_MCP_DESCRIPTION_SUBSTITUTIONS: raw }));
    expect(message).toContain('FORGE_MCP_DESCRIPTION_SUBSTITUTIONS=');
    expect(message).toContain(JSON.stringify(raw));
    expect(message).toContain(reason);
    expect(message).toContain('at most 32 pairs of 256 bytes per half');
  });
  it('at most 32 pairs', () => {
    const pairs = (n: number) => Array.from({ length: n }, (_, i) => `k${i}=v${i}`).join(',');
    expect(subs(pairs(32))).toHaveLength(32);
    expect(refusal(() => subs(pairs(33)))).toContain('33 pairs');
  });
  it('at most 256 bytes per half, counted in UTF-8', () => {
    expect(subs(`${'a'.repeat(256)}=${'b'.repeat(256)}`)).toHaveLength(1);
    expect(refusal(() => subs(`${'a'.repeat(257)}=b`))).toContain('longer than 256 bytes');
    expect(refusal(() => subs(`a=${'é'.repeat(129)}`))).toContain('longer than 256 bytes');
  });
});

describe('the Redis URL', () => {
  it('takes redis:// and rediss:// with host, port, database, user and password', () => {
    for (const ok of [
      'redis://cache',
      'redis://127.0.0.1:6379',
      'rediss://user:p%40ss@cache.example.com:6380/3',
      'redis://:secret@[::1]:6379/0',
    ])
      expect(http({ FORGE_MCP_REDIS_URL: ok }).config.redisUrl).toBe(ok);
    expect(http({}, ['--redis-url=redis://cache:6379']).config.redisUrl).toBe('redis://cache:6379');
  });
  it('refuses anything else naming the variable and what is wrong, never the password', () => {
    const cases: Array<[string, string]> = [
      ['cache', 'not an absolute URL'],
      ['cache:6379', 'the scheme is cache, not redis or rediss'],
      ['http://:hunter2@cache:6379', 'the scheme is http, not redis or rediss'],
      ['redis://:hunter2@cache:99999', 'not an absolute URL'],
      ['redis://:hunter2@cache:6379/zero', 'the path is not a database number such as /0'],
      ['redis://:hunter2@cache:6379/0?tls=1', 'the URL has a query or fragment'],
    ];
    for (const [bad, why] of cases) {
      const message = refusal(() => http({ FORGE_MCP_REDIS_URL: bad }));
      expect(message).toContain('FORGE_MCP_REDIS_URL=<redacted>');
      expect(message).toContain(why);
      expect(message).not.toContain('hunter2');
    }
    const flag = refusal(() => http({}, ['--redis-url=redis://:hunter2@/x']));
    expect(flag).toContain('--redis-url=<redacted>');
    expect(flag).not.toContain('hunter2');
  });
  it('is not read by a stdio server', () => {
    expect(stdio({ FORGE_MCP_REDIS_URL: 'redis://cache' }).config.redisUrl).toBeUndefined();
  });
});

describe('the state key', () => {
  const REDIS = { FORGE_MCP_REDIS_URL: 'redis://cache' };
  const HEX = 'ab'.repeat(32);
  const ACCEPTS =
    'accepts at least 32 random bytes written as hex (64 hex digits) or base64, as openssl rand -hex 32 or openssl rand -base64 32 prints';
  it('takes 32 random bytes or more as hex, base64 or URL-safe base64, from the environment only', () => {
    const base64 = Buffer.alloc(32, 0xfb).toString('base64');
    for (const ok of [
      HEX,
      'AB'.repeat(40),
      base64,
      base64.replace(/=+$/, ''),
      Buffer.alloc(48, 0xfb).toString('base64url'),
    ])
      expect(http({ ...REDIS, FORGE_MCP_STATE_KEY: ok }).config.stateKey).toBe(ok);
    expect(refusal(() => http(REDIS, [`--state-key=${HEX}`]))).toContain('--state-key');
  });
  it('refuses a key too short, or neither hex nor base64, saying what is accepted, never repeating it', () => {
    const cases: Array<[string, string]> = [
      ['ab'.repeat(31), 'it decodes to 31 bytes, fewer than 32'],
      [Buffer.alloc(24, 7).toString('base64'), 'it decodes to 24 bytes, fewer than 32'],
      ['correct horse battery staple, correct horse battery staple', 'it is neither hex nor base64'],
    ];
    for (const [bad, why] of cases) {
      const message = refusal(() => http({ ...REDIS, FORGE_MCP_STATE_KEY: bad }));
      expect(message).toBe(`invalid FORGE_MCP_STATE_KEY=<redacted>: ${why}; ${ACCEPTS}`);
    }
  });
  it('is ignored with a WARN, without its value, when there is no Redis to seal, and not read by a stdio server', () => {
    const alone = http({ FORGE_MCP_STATE_KEY: HEX });
    expect(alone.config.stateKey).toBeUndefined();
    expect(alone.warnings).toEqual([
      'ignoring FORGE_MCP_STATE_KEY=<redacted>: it seals what replicas keep in Redis, and FORGE_MCP_REDIS_URL is not set',
    ]);
    expect(stdio({ ...REDIS, FORGE_MCP_STATE_KEY: HEX }).config.stateKey).toBeUndefined();
  });
});

describe('addresses', () => {
  it('pprof takes localhost or loopback hosts only', () => {
    for (const ok of ['localhost:6060', '127.0.0.1:6060', '127.1.2.3:1', '[::1]:6060'])
      expect(stdio({ FORGE_MCP_PPROF_ADDR: ok }).config.pprofAddr).toBe(ok);
    for (const bad of [
      ':6060',
      'example.com:6060',
      '10.0.0.1:6060',
      'localhost',
      'localhost:0',
      'localhost:70000',
    ])
      expect(refusal(() => stdio({ FORGE_MCP_PPROF_ADDR: bad }))).toContain(JSON.stringify(bad));
  });
  it('the HTTP address is host:port or a unix socket path', () => {
    expect(http({}, ['--http-addr=/run/forge.sock']).config.httpAddr).toBe('/run/forge.sock');
    expect(http({}, ['--http-addr=[::]:8080']).config.httpAddr).toBe('[::]:8080');
    expect(refusal(() => http({}, ['--http-addr=:99999']))).toContain('":99999"');
  });
});

describe('public URL and OAuth', () => {
  const oauth = (env: Record<string, string> = {}, argv: string[] = []) =>
    http({ FORGE_MCP_PUBLIC_URL: 'https://mcp.example.com', ...env }, ['--auth-mode=oauth', ...argv]);

  it('public URL: http only for localhost, 127.0.0.1 and ::1', () => {
    for (const ok of ['http://localhost:8080', 'http://127.0.0.1:8080/mcp', 'http://[::1]:8080'])
      expect(http({ FORGE_MCP_PUBLIC_URL: ok }).config.publicUrl).toBe(ok);
    for (const bad of [
      'http://mcp.example.com',
      'http://127.0.0.2',
      'https://mcp.example.com/#x',
      'mcp.example.com',
    ])
      expect(refusal(() => http({ FORGE_MCP_PUBLIC_URL: bad }))).toContain(JSON.stringify(bad));
  });
  it('OAuth requires a public URL', () => {
    const message = refusal(() => http({}, ['--auth-mode=oauth']));
    expect(message).toContain('FORGE_MCP_PUBLIC_URL');
    expect(message).toContain('--auth-mode="oauth"');
  });
  it('OAuth requires https instance URLs, http only for loopback', () => {
    expect(oauth({ FORGE_URL: 'http://127.0.0.1:3000' }).config.authMode).toBe('oauth');
    const message = refusal(() => oauth({ FORGE_URL: 'https://a.example.com,http://b.example.com' }));
    expect(message).toContain('http://b.example.com');
    expect(message).toContain('https');
  });
  it('OAuth refuses skip-tls-verify for non-loopback instances', () => {
    expect(
      oauth({ FORGE_URL: 'https://localhost:3443', FORGE_MCP_SKIP_TLS_VERIFY: 'true' }).config.skipTlsVerify,
    ).toBe(true);
    const message = refusal(() => oauth({ FORGE_MCP_SKIP_TLS_VERIFY: 'true' }));
    expect(message).toContain('FORGE_MCP_SKIP_TLS_VERIFY="true"');
  });
  it('OAuth refuses to start without an instance to publish', () => {
    expect(refusal(() => oauth({ FORGE_URL: '' }, ['--allow-any-forge-url']))).toContain(
      'FORGE_URL is not set',
    );
  });
});

describe('trusted origins and proxies', () => {
  it('* trusts every origin, with a WARN', () => {
    const result = http({ FORGE_MCP_TRUSTED_ORIGINS: '*' });
    expect(result.config.trustedOrigins).toEqual(['*']);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toContain('FORGE_MCP_TRUSTED_ORIGINS="*"');
  });
  it('a malformed entry refuses the start', () => {
    const message = refusal(() =>
      http({ FORGE_MCP_TRUSTED_ORIGINS: 'https://ok.example.com,https://x.example.com/path' }),
    );
    expect(message).toContain('https://x.example.com/path');
  });
  it('--trusted-proxy-header and --trusted-proxies come both or neither', () => {
    expect(refusal(() => http({}, ['--trusted-proxies=10.0.0.1']))).toContain('--trusted-proxy-header');
    expect(refusal(() => http({}, ['--trusted-proxy-header=X-Forwarded-For']))).toContain(
      '--trusted-proxies',
    );
  });
  it('--tls-cert and --tls-key come both or neither', () => {
    expect(http({}, ['--tls-cert=/etc/c.pem', '--tls-key=/etc/k.pem']).config).toMatchObject({
      tlsCert: '/etc/c.pem',
      tlsKey: '/etc/k.pem',
    });
    expect(refusal(() => http({}, ['--tls-key=/etc/k.pem']))).toContain('--tls-cert');
  });
});

describe('instance URL and token', () => {
  it('HTTP: a comma list, normalized without trailing slash', () => {
    expect(
      http({ FORGE_URL: 'https://a.example.com/, https://B.example.com/gitlab//' }).config.forgeUrls,
    ).toEqual(['https://a.example.com', 'https://b.example.com/gitlab']);
  });
  it('HTTP: required unless --allow-any-forge-url', () => {
    const message = refusal(() => load({ argv: ['--http'] }));
    expect(message).toContain('FORGE_URL');
    expect(message).toContain('--allow-any-forge-url');
    expect(load({ argv: ['--http', '--allow-any-forge-url'] }).config.forgeUrls).toEqual([]);
  });
  it('stdio: one instance only', () => {
    expect(refusal(() => stdio({ FORGE_URL: 'https://a.example.com,https://b.example.com' }))).toContain(
      'one http(s) URL',
    );
  });
  it('FORGE_TOKEN is required on stdio, and the message says to set it', () => {
    for (const env of [{}, { FORGE_TOKEN: '' }, { FORGE_TOKEN: '  ' }]) {
      const message = refusal(() => load({ env }));
      expect(message).toContain('FORGE_TOKEN');
      expect(message).toContain('set FORGE_TOKEN');
    }
    expect(stdio({ FORGE_TOKEN: ' glpat-x ' }).config.token).toBe('glpat-x');
  });
  it('FORGE_TOKEN is never read in HTTP mode', () => {
    expect(http({ FORGE_TOKEN: 'glpat-secret' }).config.token).toBeUndefined();
  });
});

describe('a stdio server and HTTP-only flags', () => {
  it.each([
    ['--read-only', 'FORGE_MCP_READ_ONLY'],
    ['--safe-mode=true', 'FORGE_MCP_SAFE_MODE'],
    ['--exclude-tools=forge_issue', 'FORGE_MCP_EXCLUDE_TOOLS'],
    ['--exclude-tools', 'FORGE_MCP_EXCLUDE_TOOLS'],
  ])('refuses %s, a flag withholding capability', (flag, variable) => {
    const argv = flag === '--exclude-tools' ? [flag, 'forge_issue'] : [flag];
    const message = refusal(() => stdio({}, argv));
    expect(message).toContain(flag.split('=')[0]);
    expect(message).toContain(variable);
  });
  it('refuses a withholding flag even when it repeats the environment or is empty', () => {
    expect(refusal(() => stdio({ FORGE_MCP_READ_ONLY: 'true' }, ['--read-only']))).toContain('--read-only');
    expect(refusal(() => stdio({ FORGE_MCP_SAFE_MODE: 'true' }, ['--safe-mode=true']))).toContain(
      '--safe-mode',
    );
    expect(refusal(() => stdio({}, ['--read-only=false']))).toContain('--read-only');
    expect(refusal(() => stdio({}, ['--exclude-tools=']))).toContain('--exclude-tools');
    expect(
      refusal(() => stdio({ FORGE_MCP_EXCLUDE_TOOLS: 'forge_issue' }, ['--exclude-tools=forge_issue'])),
    ).toContain('FORGE_MCP_EXCLUDE_TOOLS');
  });
  it('accepts a --forge-url that repeats FORGE_URL', () => {
    expect(
      stdio({ FORGE_URL: 'https://a.example.com' }, ['--forge-url=https://a.example.com']).config.forgeUrls,
    ).toEqual(['https://a.example.com']);
  });
  it('has no flag for the token and no setting for an OAuth client secret', () => {
    expect(refusal(() => stdio({}, ['--forge-token=glpat-x']))).toContain('--forge-token');
    expect(refusal(() => http({}, ['--oauth-client-secret=s3cret']))).toContain('--oauth-client-secret');
  });
  it('no longer reads META_TOOLS or the enterprise switch (removed in 3.0.0)', () => {
    const plain = stdio().config;
    for (const env of [
      { META_TOOLS: 'true' },
      { FORGE_MCP_META_TOOLS: 'true' },
      { FORGE_ENTERPRISE: 'true' },
      { FORGE_MCP_ENTERPRISE: 'true' },
    ])
      expect(stdio(env).config).toEqual(plain);
  });
  it('refuses a --forge-url naming an instance other than FORGE_URL', () => {
    expect(refusal(() => stdio({}, ['--forge-url=https://forge.example.com']))).toContain(
      'https://gitlab.com',
    );
    const message = refusal(() =>
      stdio({ FORGE_URL: 'https://a.example.com' }, ['--forge-url', 'https://b.example.com']),
    );
    expect(message).toContain('--forge-url="https://b.example.com"');
    expect(message).toContain('FORGE_URL');
  });
  it('accepts a --forge-url naming FORGE_URL', () => {
    expect(stdio({}, ['--forge-url=https://gitlab.com/']).config.forgeUrls).toEqual(['https://gitlab.com']);
    expect(
      stdio({ FORGE_URL: 'https://a.example.com' }, ['--forge-url=https://a.example.com']).config.forgeUrls,
    ).toEqual(['https://a.example.com']);
  });
  it('ignores other HTTP-only flags, naming them at WARN', () => {
    const result = stdio({}, ['--tool-surface=meta', '--http-addr=:9000']);
    expect(result.config.toolSurface).toBe('dynamic');
    expect(result.config.httpAddr).toBe(':8080');
    expect(result.warnings).toHaveLength(2);
    expect(result.warnings[0]).toContain('--tool-surface');
    expect(result.warnings[0]).toContain('FORGE_MCP_TOOL_SURFACE');
  });
  it('does not read HTTP-only variables', () => {
    expect(stdio({ FORGE_MCP_MAX_HTTP_CLIENTS: 'lots', FORGE_MCP_AUTH_MODE: 'oauth' }).config).toMatchObject({
      maxHttpClients: 100,
      authMode: 'legacy',
    });
  });
  it('reads flags marked both', () => {
    expect(stdio({}, ['--log-level=debug', '--rate-limit-rps=5']).config).toMatchObject({
      logLevel: 'debug',
      rateLimitRps: 5,
    });
  });
  it('HTTP mode does not read the allowed directory lists or the stdio line limit', () => {
    const result = http({ FORGE_MCP_ALLOWED_UPLOAD_DIRS: tmp, FORGE_MCP_STDIO_MAX_LINE_BYTES: 'x' });
    expect(result.config.allowedUploadDirs).toEqual([]);
    expect(result.warnings).toEqual([]);
  });
});

describe('release 3.1.0 unprefixed variables', () => {
  it.each([
    ['READ_ONLY', 'FORGE_MCP_READ_ONLY'],
    ['SAFE_MODE', 'FORGE_MCP_SAFE_MODE'],
    ['EXCLUDE_TOOLS', 'FORGE_MCP_EXCLUDE_TOOLS'],
  ])('%s set refuses the start, naming %s', (old, current) => {
    const message = refusal(() => stdio({ [old]: 'true' }));
    expect(message).toContain(`${old}="true"`);
    expect(message).toContain(current);
    expect(refusal(() => http({ [old]: 'x' }))).toContain(current);
  });
  it('empty counts as unset', () => {
    expect(stdio({ READ_ONLY: '' }).config.readOnly).toBe(false);
  });
  it('set in the home dotenv file refuses too', () => {
    const home = freshDir();
    writeFileSync(path.join(home, '.forge-mcp-server.env'), 'SAFE_MODE=1\n');
    expect(refusal(() => load({ env: TOKEN, home }))).toContain('.forge-mcp-server.env');
  });
});

describe('dotenv files', () => {
  function homeWith(content: string): string {
    const home = freshDir();
    writeFileSync(path.join(home, '.forge-mcp-server.env'), content);
    return home;
  }

  it('the home file is read (including FORGE_TOKEN)', () => {
    const home = homeWith('FORGE_TOKEN=from-home\nFORGE_MCP_TOOL_SURFACE=meta\n');
    expect(load({ home }).config).toMatchObject({ token: 'from-home', toolSurface: 'meta' });
  });
  it('the home file is read in HTTP mode too (including the instance), and a flag still applies', () => {
    const home = homeWith('FORGE_URL=https://forge.example.com\nFORGE_MCP_TOOL_SURFACE=meta\n');
    const { config } = load({ home, argv: ['--http', '--read-only'] });
    expect(config).toMatchObject({
      transport: 'http',
      forgeUrls: ['https://forge.example.com'],
      toolSurface: 'meta',
      readOnly: true,
    });
  });
  it('the real environment wins over the files; an empty variable falls through', () => {
    const home = homeWith('FORGE_MCP_TOOL_SURFACE=meta\nFORGE_MCP_LOG_LEVEL=debug\n');
    const { config } = load({
      home,
      env: { ...TOKEN, FORGE_MCP_TOOL_SURFACE: 'individual', FORGE_MCP_LOG_LEVEL: '' },
    });
    expect(config).toMatchObject({ toolSurface: 'individual', logLevel: 'debug' });
  });
  it('the file named by FORGE_MCP_ENV_FILE is read and wins over the home file', () => {
    const home = homeWith('FORGE_MCP_TOOL_SURFACE=meta\nFORGE_MCP_LOG_LEVEL=debug\n');
    const extra = path.join(home, 'extra.env');
    writeFileSync(extra, 'FORGE_MCP_TOOL_SURFACE=individual\n');
    const { config } = load({ home, env: { ...TOKEN, FORGE_MCP_ENV_FILE: extra } });
    expect(config).toMatchObject({ toolSurface: 'individual', logLevel: 'debug', envFile: extra });
    expect(
      load({ home, env: { ...TOKEN, FORGE_MCP_ENV_FILE: extra, FORGE_MCP_TOOL_SURFACE: 'meta' } }).config
        .toolSurface,
    ).toBe('meta');
  });
  it('--env-file is read on stdio too, relative to the working directory', () => {
    const cwd = freshDir();
    writeFileSync(path.join(cwd, 'my.env'), 'FORGE_MCP_CAPABILITY_SURFACE=minimal\n');
    expect(load({ cwd, env: TOKEN, argv: ['--env-file', 'my.env'] }).config.capabilitySurface).toBe(
      'minimal',
    );
  });
  it('the home file may name the extra file', () => {
    const home = freshDir();
    writeFileSync(path.join(home, 'extra.env'), 'FORGE_MCP_TIER=premium\n');
    writeFileSync(
      path.join(home, '.forge-mcp-server.env'),
      `FORGE_MCP_ENV_FILE=${path.join(home, 'extra.env')}\n`,
    );
    expect(load({ home, env: TOKEN }).config.tier).toBe('premium');
  });
  it('a named file that cannot be read refuses the start', () => {
    const message = refusal(() => stdio({ FORGE_MCP_ENV_FILE: path.join(tmp, 'nope.env') }));
    expect(message).toContain('FORGE_MCP_ENV_FILE=');
    expect(message).toContain('nope.env');
    expect(message).toContain('ENOENT');
  });
  it('a .env in the working directory is not read, and is named at WARN', () => {
    const cwd = freshDir();
    writeFileSync(path.join(cwd, '.env'), 'FORGE_MCP_TOOL_SURFACE=meta\nFORGE_TOKEN=x\n');
    const result = load({ cwd, env: TOKEN });
    expect(result.config.toolSurface).toBe('dynamic');
    expect(result.warnings).toEqual([expect.stringContaining(path.join(cwd, '.env'))]);
  });
  it('an invalid value from a file names the file', () => {
    const home = homeWith('FORGE_MCP_TOOL_SURFACE=classic\n');
    const message = refusal(() => load({ home, env: TOKEN }));
    expect(message).toContain('FORGE_MCP_TOOL_SURFACE="classic"');
    expect(message).toContain(path.join(home, '.forge-mcp-server.env'));
  });
});

describe('allowed directories', () => {
  it('keep existing directories (resolved through links, relative to cwd) and skip missing ones with a WARN', () => {
    const cwd = freshDir();
    const real = path.join(cwd, 'real');
    mkdirSync(real);
    symlinkSync(real, path.join(cwd, 'link'));
    writeFileSync(path.join(cwd, 'file'), '');
    const raw = ['real', 'link', 'missing', 'file'].join(path.delimiter);
    const result = load({ cwd, env: { ...TOKEN, FORGE_MCP_ALLOWED_DOWNLOAD_DIRS: raw } });
    expect(result.config.allowedDownloadDirs).toEqual([real]);
    expect(result.warnings).toHaveLength(2);
    expect(result.warnings[0]).toContain(path.join(cwd, 'missing'));
    expect(result.warnings[1]).toContain(path.join(cwd, 'file'));
  });
  it('expand ~ to the home directory', () => {
    const home = freshDir();
    mkdirSync(path.join(home, 'uploads'));
    const { config } = load({ home, env: { ...TOKEN, FORGE_MCP_ALLOWED_IMPORT_DIRS: '~/uploads' } });
    expect(config.allowedImportDirs).toEqual([path.join(home, 'uploads')]);
  });
});

describe('commands', () => {
  it('--help and --version answer even with broken settings', () => {
    expect(load({ argv: ['--nonsense', '--help'], env: { FORGE_MCP_TOOL_SURFACE: 'x' } }).command).toBe(
      'help',
    );
    expect(load({ argv: ['-h'] }).command).toBe('help');
    expect(load({ argv: ['--version'], env: { READ_ONLY: '1' } }).command).toBe('version');
  });
  it('--list-actions needs no token, reads --json, and still refuses invalid values', () => {
    const result = load({ argv: ['--list-actions', '--json'] });
    expect(result.command).toBe('list-actions');
    expect(result.config.listJson).toBe(true);
    expect(refusal(() => load({ argv: ['--list-actions'], env: { FORGE_MCP_TIER: 'gold' } }))).toContain(
      'gold',
    );
  });
  it('--shutdown is a command of its own', () => {
    expect(load({ argv: ['--shutdown'] }).command).toBe('shutdown');
    expect(load({ argv: ['--http', '--shutdown'] }).command).toBe('shutdown');
    expect(refusal(() => load({ argv: ['--shutdown', '--list-actions'] }))).toContain('one command');
  });
  it('serve is the default command', () => {
    expect(stdio().command).toBe('serve');
  });
});
