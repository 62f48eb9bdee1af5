// Every setting: its default, a valid value and an invalid value, through loadConfig only.
// The rows state the spec's expectations on their own; they do not read the settings table.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { ConfigError, loadConfig, type Config, type LoadResult } from './index.js';
import { SETTING_IDS, settingDef } from './settings.js';

const tmp = realpathSync(mkdtempSync(path.join(tmpdir(), 'forge-config-settings-')));
const empty = path.join(tmp, 'empty');
const dirA = path.join(tmp, 'dir-a');
const missing = path.join(tmp, 'missing');
const extraEnvFile = path.join(tmp, 'extra.env');
mkdirSync(empty);
mkdirSync(dirA);
writeFileSync(extraEnvFile, 'FORGE_MCP_LOG_LEVEL=debug\n');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Transport = 'stdio' | 'http';
interface Scenario {
  transport: Transport;
  argv?: string[];
  env?: Record<string, string>;
}

/** A server that would start: stdio has a token, HTTP has an instance. */
function load(s: Scenario): LoadResult {
  const argv = s.transport === 'http' ? ['--http', ...(s.argv ?? [])] : (s.argv ?? []);
  const base =
    s.transport === 'http' ? { FORGE_URL: 'https://forge.example.com' } : { FORGE_TOKEN: 'glpat-test' };
  return loadConfig({ argv, env: { ...base, ...s.env }, cwd: empty, home: empty, stdinIsPipe: true });
}

function refusal(s: Scenario): string {
  try {
    load(s);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected the start to be refused');
}

interface Invalid {
  raw: string;
  outcome: 'refuse' | 'warn' | 'error' | 'none';
  /** A phrase of what is accepted, expected in the message. */
  accepts?: string;
  /** Expected in the message instead of the default (name, quoted value, accepts). */
  contains?: string[];
  /** The field afterwards, for warn/error/none (default: the row's default). */
  value?: unknown;
  /** Extra flags for this case. */
  argv?: string[];
}

interface Row {
  field: keyof Config;
  variable?: string;
  flag?: string;
  /** The spec marks the flag "both": it is read by a stdio server too. */
  flagBoth?: boolean;
  transport: Transport;
  env?: Record<string, string>;
  argv?: string[];
  default: unknown;
  valid: [raw: string, value: unknown];
  invalid: Invalid;
  /** The flag form's invalid case where it differs (flags accept 0 where variables do not). */
  invalidFlag?: Invalid;
}

/** OAuth mode, where the OAuth settings are read (elsewhere they are ignored with a warning). */
const OAUTH = { FORGE_MCP_AUTH_MODE: 'oauth', FORGE_MCP_PUBLIC_URL: 'https://mcp.example.com' };
const BOOL = 'true, false, 1, 0, t or f (lower, upper or title case)';
const H = 3_600_000;
const M = 60_000;
const MB = 1024 * 1024;

const rows: Row[] = [
  {
    field: 'transport',
    flag: '--http',
    flagBoth: true,
    transport: 'stdio',
    env: { FORGE_URL: 'https://forge.example.com' },
    default: 'stdio',
    valid: ['true', 'http'],
    invalid: { raw: 'yes', outcome: 'refuse', accepts: BOOL },
  },
  {
    field: 'transport',
    flag: '--transport',
    flagBoth: true,
    transport: 'stdio',
    env: { FORGE_URL: 'https://forge.example.com' },
    default: 'stdio',
    valid: ['http', 'http'],
    invalid: { raw: 'websocket', outcome: 'refuse', accepts: 'one of stdio, http, auto' },
  },
  {
    field: 'forgeUrls',
    variable: 'FORGE_URL',
    flag: '--forge-url',
    transport: 'stdio',
    default: ['https://gitlab.com'],
    valid: ['https://Forge.Example.com/sub/', ['https://forge.example.com/sub']],
    invalid: { raw: 'ftp://forge.example.com', outcome: 'refuse', accepts: 'http(s) URL' },
  },
  {
    field: 'skipTlsVerify',
    variable: 'FORGE_MCP_SKIP_TLS_VERIFY',
    flag: '--skip-tls-verify',
    transport: 'stdio',
    default: false,
    valid: ['TRUE', true],
    invalid: { raw: 'yes', outcome: 'refuse', accepts: BOOL },
  },
  {
    field: 'allowPrivateInstances',
    variable: 'FORGE_MCP_ALLOW_PRIVATE_INSTANCES',
    flag: '--allow-private-instances',
    flagBoth: true,
    transport: 'stdio',
    default: false,
    valid: ['t', true],
    invalid: { raw: 'sure', outcome: 'none', value: false },
  },
  {
    field: 'toolSurface',
    variable: 'FORGE_MCP_TOOL_SURFACE',
    flag: '--tool-surface',
    transport: 'stdio',
    default: 'dynamic',
    valid: ['meta', 'meta'],
    invalid: { raw: 'classic', outcome: 'refuse', accepts: 'one of dynamic, meta, individual' },
  },
  {
    field: 'capabilitySurface',
    variable: 'FORGE_MCP_CAPABILITY_SURFACE',
    flag: '--capability-surface',
    transport: 'stdio',
    default: 'full',
    valid: ['minimal', 'minimal'],
    invalid: { raw: 'tiny', outcome: 'refuse', accepts: 'one of full, minimal' },
  },
  {
    field: 'metaParamSchema',
    variable: 'FORGE_MCP_META_PARAM_SCHEMA',
    flag: '--meta-param-schema',
    transport: 'stdio',
    default: 'opaque',
    valid: ['compact', 'compact'],
    invalid: { raw: 'none', outcome: 'refuse', accepts: 'one of opaque, compact, full' },
  },
  {
    field: 'tier',
    variable: 'FORGE_MCP_TIER',
    flag: '--tier',
    transport: 'stdio',
    default: undefined,
    valid: ['ce', 'free'],
    invalid: { raw: 'gold', outcome: 'refuse', accepts: 'free (or ce), premium, ultimate' },
  },
  {
    field: 'readOnly',
    variable: 'FORGE_MCP_READ_ONLY',
    flag: '--read-only',
    transport: 'stdio',
    default: false,
    valid: ['1', true],
    invalid: { raw: 'on', outcome: 'refuse', accepts: BOOL },
  },
  {
    field: 'safeMode',
    variable: 'FORGE_MCP_SAFE_MODE',
    flag: '--safe-mode',
    transport: 'stdio',
    default: false,
    valid: ['T', true],
    invalid: { raw: 'enabled', outcome: 'refuse', accepts: BOOL },
  },
  {
    field: 'embeddedResources',
    variable: 'FORGE_MCP_EMBEDDED_RESOURCES',
    flag: '--embedded-resources',
    transport: 'stdio',
    default: true,
    valid: ['False', false],
    invalid: { raw: 'no', outcome: 'refuse', accepts: BOOL },
  },
  {
    field: 'excludeTools',
    variable: 'FORGE_MCP_EXCLUDE_TOOLS',
    flag: '--exclude-tools',
    transport: 'stdio',
    default: [],
    valid: ['forge_issue, project.delete,', ['forge_issue', 'project.delete']],
    invalid: { raw: ' , ', outcome: 'none', value: [] },
  },
  {
    field: 'ignoreScopes',
    variable: 'FORGE_MCP_IGNORE_SCOPES',
    flag: '--ignore-scopes',
    transport: 'stdio',
    default: false,
    valid: ['True', true],
    invalid: { raw: 'Yes', outcome: 'refuse', accepts: BOOL },
  },
  {
    field: 'clientCompat',
    variable: 'FORGE_MCP_CLIENT_COMPAT',
    flag: '--client-compat',
    flagBoth: true,
    transport: 'stdio',
    default: 'auto',
    valid: ['off', 'off'],
    invalid: { raw: 'on', outcome: 'refuse', accepts: 'one of auto, off' },
  },
  {
    field: 'descriptionSubstitutions',
    variable: 'FORGE_MCP_DESCRIPTION_SUBSTITUTIONS',
    flag: '--description-substitutions',
    flagBoth: true,
    transport: 'stdio',
    default: [],
    valid: [
      'GitLab=Forge,a\\,b=c\\=d',
      [
        ['GitLab', 'Forge'],
        ['a,b', 'c=d'],
      ],
    ],
    invalid: { raw: '=Forge', outcome: 'refuse', accepts: 'old=new pairs' },
  },
  {
    field: 'yolo',
    variable: 'FORGE_MCP_YOLO_MODE',
    flag: '--yolo-mode',
    flagBoth: true,
    transport: 'stdio',
    default: false,
    valid: ['YES', true],
    invalid: { raw: 'maybe', outcome: 'none', value: false },
  },
  {
    field: 'yolo',
    variable: 'AUTOPILOT',
    transport: 'stdio',
    default: false,
    valid: ['yes', true],
    invalid: { raw: '2', outcome: 'none', value: false },
  },
  {
    field: 'uploadMaxFileSize',
    variable: 'FORGE_MCP_UPLOAD_MAX_FILE_SIZE',
    flag: '--upload-max-file-size',
    flagBoth: true,
    transport: 'stdio',
    default: 2 * 1024 * MB,
    valid: ['512MB', 512 * MB],
    invalid: { raw: '2TB', outcome: 'refuse', accepts: 'KB, MB or GB (powers of 1024), from 1 to 1024GB' },
  },
  {
    field: 'actionTimeoutMs',
    variable: 'FORGE_MCP_ACTION_TIMEOUT',
    flag: '--action-timeout',
    transport: 'stdio',
    default: 65 * M,
    valid: ['1h30m', 90 * M],
    invalid: { raw: '25h', outcome: 'refuse', accepts: 'at most 24h, or 0 to disable' },
  },
  ...(['UPLOAD', 'DOWNLOAD', 'IMPORT'] as const).map((kind): Row => ({
    field: `allowed${kind[0]}${kind.slice(1).toLowerCase()}Dirs` as keyof Config,
    variable: `FORGE_MCP_ALLOWED_${kind}_DIRS`,
    transport: 'stdio',
    default: [],
    valid: [`${dirA}${path.delimiter}${dirA}`, [dirA]],
    invalid: {
      raw: missing,
      outcome: 'warn',
      value: [],
      contains: [`FORGE_MCP_ALLOWED_${kind}_DIRS`, missing, 'does not exist; skipped'],
    },
  })),
  {
    field: 'stdioMaxLineBytes',
    variable: 'FORGE_MCP_STDIO_MAX_LINE_BYTES',
    transport: 'stdio',
    default: 4 * MB,
    valid: ['1048576', MB],
    invalid: { raw: '-5', outcome: 'warn', accepts: 'a byte count of at least 1' },
  },
  {
    field: 'maxListenStreams',
    variable: 'FORGE_MCP_MAX_LISTEN_STREAMS',
    transport: 'stdio',
    default: 64,
    valid: ['0', 0],
    invalid: { raw: 'many', outcome: 'warn', accepts: 'a whole number of at least 0' },
  },
  {
    field: 'subscriptionPollMs',
    variable: 'FORGE_MCP_SUBSCRIPTION_POLL_INTERVAL',
    transport: 'stdio',
    default: 30_000,
    valid: ['2m', 2 * M],
    invalid: {
      raw: '500',
      outcome: 'refuse',
      accepts: 'a duration such as 90s, 15m or 1h30m, from 1s to 1h',
    },
  },
  {
    field: 'logLevel',
    variable: 'FORGE_MCP_LOG_LEVEL',
    flag: '--log-level',
    flagBoth: true,
    transport: 'stdio',
    default: 'info',
    valid: ['WARNING', 'warn'],
    invalid: { raw: 'trace', outcome: 'refuse', accepts: 'one of debug, info, warn (or warning), error' },
  },
  {
    field: 'pprofAddr',
    variable: 'FORGE_MCP_PPROF_ADDR',
    flag: '--pprof-addr',
    flagBoth: true,
    transport: 'stdio',
    default: undefined,
    valid: ['localhost:6060', 'localhost:6060'],
    invalid: { raw: '0.0.0.0:6060', outcome: 'refuse', accepts: 'host localhost, 127.0.0.1' },
  },
  {
    field: 'envFile',
    variable: 'FORGE_MCP_ENV_FILE',
    flag: '--env-file',
    flagBoth: true,
    transport: 'stdio',
    default: undefined,
    valid: [extraEnvFile, extraEnvFile],
    invalid: { raw: missing, outcome: 'refuse', accepts: 'readable dotenv file' },
  },
  {
    field: 'maxHttpClients',
    variable: 'FORGE_MCP_MAX_HTTP_CLIENTS',
    flag: '--max-http-clients',
    transport: 'http',
    default: 100,
    valid: ['10000', 10000],
    invalid: { raw: '0', outcome: 'refuse', accepts: 'from 1 to 10000' },
  },
  {
    field: 'sessionTimeoutMs',
    variable: 'FORGE_MCP_SESSION_TIMEOUT',
    flag: '--session-timeout',
    transport: 'http',
    default: 30 * M,
    valid: ['24h', 24 * H],
    invalid: { raw: '0', outcome: 'refuse', accepts: 'at most 24h' },
    invalidFlag: { raw: '25h', outcome: 'refuse', accepts: 'at most 24h' },
  },
  {
    field: 'poolIdleTimeoutMs',
    variable: 'FORGE_MCP_POOL_IDLE_TIMEOUT',
    flag: '--pool-idle-timeout',
    transport: 'http',
    default: H,
    valid: ['0', 0],
    invalid: { raw: '1d', outcome: 'refuse', accepts: 'a duration such as 90s, 15m or 1h30m' },
    invalidFlag: { raw: '25h', outcome: 'refuse', accepts: 'at most 24h' },
  },
  {
    field: 'revalidateIntervalMs',
    variable: 'FORGE_MCP_SESSION_REVALIDATE_INTERVAL',
    flag: '--revalidate-interval',
    transport: 'http',
    default: 15 * M,
    valid: ['5m', 5 * M],
    invalid: { raw: '15', outcome: 'refuse', accepts: 'or 0 to disable' },
    invalidFlag: { raw: '25h', outcome: 'refuse', accepts: 'at most 24h' },
  },
  {
    field: 'drainDelayMs',
    variable: 'FORGE_MCP_DRAIN_DELAY',
    flag: '--drain-delay',
    transport: 'http',
    default: 0,
    valid: ['30s', 30_000],
    invalid: { raw: '6m', outcome: 'refuse', accepts: 'at most 5m' },
  },
  {
    field: 'authMode',
    variable: 'FORGE_MCP_AUTH_MODE',
    flag: '--auth-mode',
    transport: 'http',
    env: { FORGE_MCP_PUBLIC_URL: 'https://mcp.example.com' },
    default: 'legacy',
    valid: ['oauth', 'oauth'],
    invalid: { raw: 'basic', outcome: 'refuse', accepts: 'one of legacy, oauth' },
  },
  {
    field: 'publicUrl',
    variable: 'FORGE_MCP_PUBLIC_URL',
    flag: '--public-url',
    transport: 'http',
    default: undefined,
    // Kept exactly as configured (S1-071): no case folding, no default port dropped.
    valid: ['https://MCP.Example.COM:443/Mcp', 'https://MCP.Example.COM:443/Mcp'],
    invalid: {
      raw: 'https://mcp.example.com/',
      outcome: 'refuse',
      accepts: 'without trailing slash or fragment',
    },
  },
  {
    field: 'trustedOrigins',
    variable: 'FORGE_MCP_TRUSTED_ORIGINS',
    flag: '--trusted-origins',
    transport: 'http',
    default: [],
    valid: [
      'https://App.example.com, http://localhost:3000',
      ['https://app.example.com', 'http://localhost:3000'],
    ],
    invalid: {
      raw: 'app.example.com',
      outcome: 'refuse',
      accepts: 'origins such as https://app.example.com, or *',
    },
  },
  {
    field: 'oauthCacheTtlMs',
    variable: 'FORGE_MCP_OAUTH_CACHE_TTL',
    flag: '--oauth-cache-ttl',
    transport: 'http',
    env: OAUTH,
    default: 15 * M,
    valid: ['2h', 2 * H],
    invalid: { raw: '30s', outcome: 'refuse', accepts: 'from 1m to 2h' },
  },
  {
    field: 'oauthClientUids',
    variable: 'FORGE_MCP_OAUTH_CLIENT_UID',
    flag: '--oauth-client-uid',
    transport: 'http',
    env: OAUTH,
    default: [],
    valid: ['abc123, def456', ['abc123', 'def456']],
    invalid: { raw: ',', outcome: 'none', value: [] },
  },
  {
    field: 'rateLimitRps',
    variable: 'FORGE_MCP_RATE_LIMIT_RPS',
    flag: '--rate-limit-rps',
    flagBoth: true,
    transport: 'stdio',
    default: 0,
    valid: ['2.5', 2.5],
    invalid: { raw: '1001', outcome: 'refuse', accepts: 'a number from 0 to 1000' },
  },
  {
    field: 'rateLimitBurst',
    variable: 'FORGE_MCP_RATE_LIMIT_BURST',
    flag: '--rate-limit-burst',
    flagBoth: true,
    transport: 'stdio',
    default: 40,
    valid: ['10000', 10000],
    invalid: { raw: '10001', outcome: 'refuse', accepts: 'from 0 to 10000' },
  },
  {
    field: 'authFailureLimit',
    variable: 'FORGE_MCP_AUTH_FAILURE_LIMIT',
    transport: 'http',
    default: 10,
    valid: ['100000', 100000],
    invalid: { raw: '100001', outcome: 'refuse', accepts: 'from 0 to 100000' },
  },
  {
    field: 'authFailureWindowMs',
    variable: 'FORGE_MCP_AUTH_FAILURE_WINDOW',
    transport: 'http',
    default: M,
    valid: ['1h', H],
    invalid: { raw: '25h', outcome: 'refuse', accepts: 'at most 24h, or 0 to disable' },
  },
  {
    field: 'authDistinctTokenLimit',
    variable: 'FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT',
    transport: 'http',
    default: 50,
    valid: ['0', 0],
    invalid: { raw: '-1', outcome: 'refuse', accepts: 'from 0 to 100000' },
  },
  {
    field: 'authDistinctTokenWindowMs',
    variable: 'FORGE_MCP_AUTH_DISTINCT_TOKEN_WINDOW',
    transport: 'http',
    default: 10 * M,
    valid: ['30m', 30 * M],
    invalid: { raw: 'ten minutes', outcome: 'refuse', accepts: 'at most 24h' },
  },
  {
    field: 'telemetry',
    variable: 'FORGE_MCP_TELEMETRY',
    flag: '--telemetry',
    flagBoth: true,
    transport: 'stdio',
    default: false,
    valid: ['TRUE', true],
    invalid: { raw: '1', outcome: 'warn', value: false, accepts: 'true or false (any case)' },
  },
  {
    field: 'telemetry',
    variable: 'OTEL_SDK_DISABLED',
    transport: 'stdio',
    env: { FORGE_MCP_TELEMETRY: 'true' },
    default: true,
    valid: ['True', false],
    invalid: { raw: '1', outcome: 'warn', value: true, accepts: 'true or false (any case)' },
  },
  {
    field: 'telemetryIdentity',
    variable: 'FORGE_MCP_TELEMETRY_IDENTITY',
    flag: '--telemetry-identity',
    flagBoth: true,
    transport: 'stdio',
    default: 'none',
    valid: ['pseudonymous', 'pseudonymous'],
    invalid: { raw: 'everyone', outcome: 'error', accepts: 'one of none, pseudonymous, full' },
  },
  {
    field: 'telemetryIdentityKey',
    variable: 'FORGE_MCP_TELEMETRY_IDENTITY_KEY',
    transport: 'stdio',
    default: undefined,
    valid: ['k3y', 'k3y'],
    invalid: { raw: '   ', outcome: 'none', value: undefined },
  },
  {
    field: 'telemetryIdentityRotationMs',
    variable: 'FORGE_MCP_TELEMETRY_IDENTITY_ROTATION',
    flag: '--telemetry-identity-rotation',
    flagBoth: true,
    transport: 'stdio',
    default: undefined,
    valid: ['720h', 720 * H],
    invalid: { raw: '721h', outcome: 'refuse', accepts: 'at most 720h' },
  },
  {
    field: 'telemetryToolName',
    variable: 'FORGE_MCP_TELEMETRY_TOOL_NAME',
    flag: '--telemetry-tool-name',
    flagBoth: true,
    transport: 'stdio',
    default: 'auto',
    valid: ['off', 'off'],
    invalid: { raw: 'yes', outcome: 'refuse', accepts: 'one of auto, on, off' },
  },
  {
    field: 'httpAddr',
    flag: '--http-addr',
    transport: 'http',
    default: ':8080',
    valid: ['127.0.0.1:9000', '127.0.0.1:9000'],
    invalid: { raw: 'localhost', outcome: 'refuse', accepts: 'host:port' },
  },
  {
    field: 'httpSocketMode',
    flag: '--http-socket-mode',
    transport: 'http',
    default: 0o660,
    valid: ['0600', 0o600],
    invalid: { raw: '0999', outcome: 'refuse', accepts: 'octal permission mode' },
  },
  {
    field: 'tlsCert',
    flag: '--tls-cert',
    transport: 'http',
    argv: [],
    default: undefined,
    valid: ['cert.pem', path.join(empty, 'cert.pem')],
    invalid: {
      raw: 'cert.pem',
      outcome: 'refuse',
      contains: ['--tls-cert', '"cert.pem"', 'both or neither'],
    },
  },
  {
    field: 'tlsKey',
    flag: '--tls-key',
    transport: 'http',
    default: undefined,
    valid: ['key.pem', path.join(empty, 'key.pem')],
    invalid: { raw: 'key.pem', outcome: 'refuse', contains: ['--tls-key', '"key.pem"', 'both or neither'] },
  },
  {
    field: 'maxRequestBodyBytes',
    flag: '--max-request-body-bytes',
    transport: 'http',
    default: 4 * MB,
    valid: ['8MB', 8 * MB],
    invalid: { raw: '4 mebibytes', outcome: 'refuse', accepts: 'a byte count or a number with KB, MB or GB' },
  },
  {
    field: 'httpIdleTimeoutMs',
    flag: '--http-idle-timeout',
    transport: 'http',
    default: 2 * M,
    valid: ['0', 0],
    invalid: { raw: '1.5m', outcome: 'refuse', accepts: 'a duration such as 90s' },
  },
  {
    field: 'trustedProxyHeader',
    flag: '--trusted-proxy-header',
    transport: 'http',
    default: undefined,
    valid: ['X-Forwarded-For', 'x-forwarded-for'],
    invalid: {
      raw: 'X Forwarded For',
      outcome: 'refuse',
      accepts: 'an HTTP header name',
      argv: ['--trusted-proxies=10.0.0.1'],
    },
  },
  {
    field: 'trustedProxies',
    flag: '--trusted-proxies',
    transport: 'http',
    default: [],
    valid: ['10.0.0.0/8, ::1', ['10.0.0.0/8', '::1']],
    invalid: {
      raw: '10.0.0.0/33',
      outcome: 'refuse',
      accepts: 'IP addresses or CIDR ranges',
      argv: ['--trusted-proxy-header=X-Real-IP'],
    },
  },
  {
    field: 'stateless',
    flag: '--stateless',
    transport: 'http',
    default: true,
    valid: ['false', false],
    invalid: { raw: 'stateful', outcome: 'refuse', accepts: BOOL },
  },
  {
    field: 'redisUrl',
    variable: 'FORGE_MCP_REDIS_URL',
    flag: '--redis-url',
    transport: 'http',
    default: undefined,
    valid: ['redis://:pw@cache.internal:6380/2', 'redis://:pw@cache.internal:6380/2'],
    // The value may hold a password: the message says what is wrong without repeating it.
    invalid: {
      raw: 'http://:s3cret@cache.internal:6379',
      outcome: 'refuse',
      contains: ['<redacted>', 'the scheme is http, not redis or rediss', 'a redis:// or rediss:// URL'],
    },
  },
  {
    field: 'stateKey',
    variable: 'FORGE_MCP_STATE_KEY',
    transport: 'http',
    env: { FORGE_MCP_REDIS_URL: 'redis://cache.internal:6379' },
    default: undefined,
    valid: ['0f'.repeat(32), '0f'.repeat(32)],
    // A secret: the message says what is wrong without repeating it.
    invalid: {
      raw: 'short-key',
      outcome: 'refuse',
      contains: ['<redacted>', 'it is neither hex nor base64', 'at least 32 random bytes written as hex'],
    },
  },
  {
    field: 'resourceDocumentation',
    flag: '--resource-documentation',
    transport: 'http',
    env: OAUTH,
    default: undefined,
    valid: ['https://docs.example.com/mcp', 'https://docs.example.com/mcp'],
    invalid: { raw: 'http://docs.example.com/x', outcome: 'refuse', accepts: 'an absolute https URL' },
  },
  {
    field: 'resourcePolicyUri',
    flag: '--resource-policy-uri',
    transport: 'http',
    env: OAUTH,
    default: undefined,
    valid: ['https://example.com/policy', 'https://example.com/policy'],
    invalid: { raw: 'http://example.com/policy', outcome: 'refuse', accepts: 'an absolute https URL' },
  },
  {
    field: 'resourceTosUri',
    flag: '--resource-tos-uri',
    transport: 'http',
    env: OAUTH,
    default: undefined,
    valid: ['https://example.com/tos', 'https://example.com/tos'],
    invalid: { raw: 'http://example.com/tos', outcome: 'refuse', accepts: 'an absolute https URL' },
  },
  {
    field: 'allowAnyForgeUrl',
    flag: '--allow-any-forge-url',
    transport: 'http',
    default: false,
    valid: ['true', true],
    invalid: { raw: 'any', outcome: 'refuse', accepts: BOOL },
  },
  {
    field: 'listJson',
    flag: '--json',
    flagBoth: true,
    transport: 'stdio',
    default: false,
    valid: ['true', true],
    invalid: { raw: 'pretty', outcome: 'refuse', accepts: BOOL },
  },
];

/** Valid values of settings that only make sense in pairs bring their partner along. */
const PARTNERS: Partial<Record<keyof Config, string[]>> = {
  tlsCert: ['--tls-key=key.pem'],
  tlsKey: ['--tls-cert=cert.pem'],
  trustedProxyHeader: ['--trusted-proxies=10.0.0.1'],
  trustedProxies: ['--trusted-proxy-header=X-Real-IP'],
  // Without stateful sessions the timeout is ignored with a warning.
  sessionTimeoutMs: ['--stateless=false'],
};

type Form = { kind: 'variable' | 'flag'; name: string; transport: Transport };

function forms(row: Row): Form[] {
  const out: Form[] = [];
  if (row.variable) out.push({ kind: 'variable', name: row.variable, transport: row.transport });
  if (row.flag) out.push({ kind: 'flag', name: row.flag, transport: row.flagBoth ? row.transport : 'http' });
  return out;
}

function scenario(row: Row, form: Form, raw: string, argv: string[] = []): Scenario {
  const setting =
    form.kind === 'variable' ? { env: { [form.name]: raw } } : { argv: [`${form.name}=${raw}`] };
  return {
    transport: form.transport,
    env: { ...row.env, ...setting.env },
    argv: [...(row.argv ?? []), ...argv, ...(setting.argv ?? [])],
  };
}

describe.each(rows.map((row) => [row.variable ?? row.flag, row] as const))('%s', (_name, row) => {
  it(`defaults to ${JSON.stringify(row.default)}`, () => {
    const { config } = load({ transport: row.transport, env: row.env, argv: row.argv });
    expect(config[row.field]).toEqual(row.default);
  });

  for (const form of forms(row)) {
    const [raw, value] = row.valid;
    it(`${form.name}=${JSON.stringify(raw)} is read as ${JSON.stringify(value)} (${form.transport})`, () => {
      const result = load(scenario(row, form, raw, PARTNERS[row.field]));
      expect(result.config[row.field]).toEqual(value);
      expect(result.warnings).toEqual([]);
      expect(result.errors).toEqual([]);
    });

    const invalid = (form.kind === 'flag' && row.invalidFlag) || row.invalid;
    it(`${form.name}=${JSON.stringify(invalid.raw)} ${invalid.outcome === 'none' ? 'is read leniently' : `${invalid.outcome}s`} (${form.transport})`, () => {
      const s = scenario(row, form, invalid.raw, invalid.argv);
      const expected = invalid.contains ?? [form.name, JSON.stringify(invalid.raw), invalid.accepts!];
      if (invalid.outcome === 'refuse') {
        const message = refusal(s);
        for (const part of expected) expect(message).toContain(part);
        expect(message).not.toContain('\n');
        return;
      }
      const result = load(s);
      expect(result.config[row.field]).toEqual('value' in invalid ? invalid.value : row.default);
      const lines = { warn: result.warnings, error: result.errors, none: [] }[invalid.outcome];
      const other = invalid.outcome === 'warn' ? result.errors : result.warnings;
      expect(other).toEqual([]);
      if (invalid.outcome === 'none') {
        expect([...result.warnings, ...result.errors]).toEqual([]);
        return;
      }
      expect(lines).toHaveLength(1);
      for (const part of expected) expect(lines[0]).toContain(part);
    });
  }
});

describe('coverage of the settings table', () => {
  // FORGE_TOKEN and the commands have their own tests (rules.test.ts): their default is a refusal or a command.
  const ownTests = ['FORGE_TOKEN', '--help', '--version', '--list-actions', '--shutdown'];
  const tested = new Set([...rows.flatMap((r) => [r.variable, r.flag]), ...ownTests]);

  it.each(SETTING_IDS.flatMap((id) => [settingDef(id).variable, settingDef(id).flag]).filter(Boolean))(
    '%s has a default, valid and invalid test',
    (name) => {
      expect(tested.has(name)).toBe(true);
    },
  );
});
