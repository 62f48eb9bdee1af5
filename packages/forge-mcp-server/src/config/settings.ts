// The one table of settings. Parsing, validation, --help and the README's settings table are
// all read from here; a setting that is not in this table does not exist.
import {
  addressListGrammar,
  booleanGrammar,
  dirListGrammar,
  durationGrammar,
  enumGrammar,
  fileModeGrammar,
  GB,
  type Grammar,
  headerNameGrammar,
  integerGrammar,
  lenientBooleanGrammar,
  listenAddressGrammar,
  listGrammar,
  loopbackHostPortGrammar,
  MB,
  ms,
  numberGrammar,
  originListGrammar,
  pathGrammar,
  publicUrlGrammar,
  redisUrlGrammar,
  secretGrammar,
  stateKeyGrammar,
  sizeGrammar,
  strictBooleanGrammar,
  substitutionsGrammar,
  TB,
  httpsUrlGrammar,
  urlListGrammar,
  yoloBooleanGrammar,
} from './grammar.js';
import type { Transport } from './types.js';

/** Where a setting applies. A setting out of scope is not read and keeps its default. */
export type Scope = Transport | 'both';
/**
 * What an invalid value does: refuse the start (the rule unless the spec says otherwise), or log
 * a line at WARN or ERROR and use the default.
 */
export type InvalidPolicy = 'refuse' | 'warn-default' | 'error-default';

export interface SettingDef<T> {
  /** Environment variable, read from the environment and the dotenv files. */
  variable?: string;
  /** Command-line flag, with its dashes. */
  flag?: string;
  /** The spec's "both" marker: the flag is read by a stdio server too (flags are HTTP-only otherwise). */
  flagInStdio?: boolean;
  scope: Scope;
  grammar: Grammar<T>;
  default?: NoInfer<T>;
  /** Overrides `default` per transport where the two differ. */
  defaultPer?: { stdio?: NoInfer<T>; http?: NoInfer<T> };
  /** Shown instead of the formatted default where the default is a behaviour ("detected"). */
  defaultText?: string;
  onInvalid?: InvalidPolicy | { stdio: InvalidPolicy; http: InvalidPolicy };
  /**
   * A flag that withholds capability: a stdio server refuses to start when it is passed with a
   * value other than the one the environment gives, instead of silently ignoring it.
   */
  withholdsCapability?: boolean;
  /** A CLI command rather than a setting (--help, --version, ...). */
  command?: boolean;
  description: string;
}

const setting = <T>(def: SettingDef<T>): SettingDef<T> => def;

const DAY = ms('24h');

export const SETTINGS = {
  // ------------------------------------------------------------ transport selection
  http: setting({
    flag: '--http',
    flagInStdio: true,
    scope: 'both',
    grammar: booleanGrammar(),
    default: false,
    description: 'Serve MCP over HTTP instead of stdio.',
  }),
  transport: setting({
    flag: '--transport',
    flagInStdio: true,
    scope: 'both',
    grammar: enumGrammar(['stdio', 'http', 'auto']),
    defaultText: 'stdio',
    description: 'Transport to serve; auto means HTTP when stdin is not a pipe and stdio when it is.',
  }),

  // ------------------------------------------------------------ instance and credential
  forgeUrls: setting({
    variable: 'FORGE_URL',
    flag: '--forge-url',
    withholdsCapability: true,
    scope: 'both',
    grammar: urlListGrammar(),
    defaultPer: { stdio: ['https://gitlab.com'] },
    defaultText: 'https://gitlab.com on stdio; none in HTTP',
    description:
      'Instance URL; in HTTP a comma list, required unless --allow-any-forge-url; with several, the FORGE-URL request header must name one.',
  }),
  token: setting({
    variable: 'FORGE_TOKEN',
    scope: 'stdio',
    grammar: secretGrammar({ header: true }),
    defaultText: 'required on stdio',
    description:
      'Token the stdio server acts with; never read in HTTP mode, where each request brings its own.',
  }),
  skipTlsVerify: setting({
    variable: 'FORGE_MCP_SKIP_TLS_VERIFY',
    flag: '--skip-tls-verify',
    scope: 'both',
    grammar: booleanGrammar(),
    default: false,
    description:
      "Do not verify the instance's TLS certificate; refused by OAuth mode for non-loopback instances.",
  }),
  allowPrivateInstances: setting({
    variable: 'FORGE_MCP_ALLOW_PRIVATE_INSTANCES',
    flag: '--allow-private-instances',
    flagInStdio: true,
    scope: 'both',
    grammar: lenientBooleanGrammar(),
    default: false,
    description: 'Let destinations the operator did not choose resolve to private address ranges.',
  }),

  // ------------------------------------------------------------ what the client sees
  toolSurface: setting({
    variable: 'FORGE_MCP_TOOL_SURFACE',
    flag: '--tool-surface',
    scope: 'both',
    grammar: enumGrammar(['dynamic', 'meta', 'individual']),
    default: 'dynamic',
    description: 'Tools offered: two finder/executor tools, one tool per domain, or one tool per action.',
  }),
  capabilitySurface: setting({
    variable: 'FORGE_MCP_CAPABILITY_SURFACE',
    flag: '--capability-surface',
    scope: 'both',
    grammar: enumGrammar(['full', 'minimal']),
    default: 'full',
    description:
      'minimal keeps only the tools manifest resource: no other resources, prompts or subscriptions.',
  }),
  metaParamSchema: setting({
    variable: 'FORGE_MCP_META_PARAM_SCHEMA',
    flag: '--meta-param-schema',
    scope: 'both',
    grammar: enumGrammar(['opaque', 'compact', 'full']),
    default: 'opaque',
    description: "How much parameter schema the meta surface's tools/list carries.",
  }),
  tier: setting({
    variable: 'FORGE_MCP_TIER',
    flag: '--tier',
    scope: 'both',
    grammar: enumGrammar(['free', 'premium', 'ultimate'], { ce: 'free' }),
    defaultText: 'detected',
    description: 'Catalog tier; set means no license check, unset means detected from the instance.',
  }),
  readOnly: setting({
    variable: 'FORGE_MCP_READ_ONLY',
    flag: '--read-only',
    withholdsCapability: true,
    scope: 'both',
    grammar: booleanGrammar(),
    default: false,
    description: 'Remove every mutating action.',
  }),
  safeMode: setting({
    variable: 'FORGE_MCP_SAFE_MODE',
    flag: '--safe-mode',
    withholdsCapability: true,
    scope: 'both',
    grammar: booleanGrammar(),
    default: false,
    description: 'Keep writes listed but answer them with a preview instead of running them.',
  }),
  embeddedResources: setting({
    variable: 'FORGE_MCP_EMBEDDED_RESOURCES',
    flag: '--embedded-resources',
    scope: 'both',
    grammar: booleanGrammar(),
    default: true,
    description: 'Add the canonical forge:// resource block to get results.',
  }),
  excludeTools: setting({
    variable: 'FORGE_MCP_EXCLUDE_TOOLS',
    flag: '--exclude-tools',
    withholdsCapability: true,
    scope: 'both',
    grammar: listGrammar('a comma-separated list of tools, groups or action IDs'),
    default: [],
    defaultText: 'empty',
    description: 'Tools, groups or canonical action IDs to remove everywhere.',
  }),
  ignoreScopes: setting({
    variable: 'FORGE_MCP_IGNORE_SCOPES',
    flag: '--ignore-scopes',
    scope: 'both',
    grammar: booleanGrammar(),
    default: false,
    description: 'Skip scope narrowing (never lifts the read_api minimum nor a fine-grained grant).',
  }),
  clientCompat: setting({
    variable: 'FORGE_MCP_CLIENT_COMPAT',
    flag: '--client-compat',
    flagInStdio: true,
    scope: 'both',
    grammar: enumGrammar(['auto', 'off']),
    default: 'auto',
    description: 'Per-client adjustments (priority annotations rounded for claude-code); off disables.',
  }),
  descriptionSubstitutions: setting({
    variable: 'FORGE_MCP_DESCRIPTION_SUBSTITUTIONS',
    flag: '--description-substitutions',
    flagInStdio: true,
    scope: 'both',
    grammar: substitutionsGrammar(),
    default: [],
    defaultText: 'empty',
    description:
      'Rewrite text in tool descriptions and titles only; a rewrite that would grow a text beyond twice its length (or 512 bytes more, if larger) leaves it as written.',
  }),
  yoloMode: setting({
    variable: 'FORGE_MCP_YOLO_MODE',
    flag: '--yolo-mode',
    flagInStdio: true,
    scope: 'both',
    grammar: yoloBooleanGrammar(),
    defaultText: 'false',
    description:
      'Skip destructive-action confirmation; set at all, it decides (even false overrides AUTOPILOT).',
  }),
  autopilot: setting({
    variable: 'AUTOPILOT',
    scope: 'both',
    grammar: yoloBooleanGrammar(),
    defaultText: 'unset',
    description: 'Same as FORGE_MCP_YOLO_MODE; consulted only when that is empty.',
  }),

  // ------------------------------------------------------------ local files and limits
  uploadMaxFileSize: setting({
    variable: 'FORGE_MCP_UPLOAD_MAX_FILE_SIZE',
    flag: '--upload-max-file-size',
    flagInStdio: true,
    scope: 'both',
    grammar: sizeGrammar({ min: 1, max: TB }),
    default: 2 * GB,
    onInvalid: { stdio: 'refuse', http: 'warn-default' },
    description: 'Largest file an action uploads.',
  }),
  actionTimeoutMs: setting({
    variable: 'FORGE_MCP_ACTION_TIMEOUT',
    flag: '--action-timeout',
    scope: 'both',
    grammar: durationGrammar({ zero: 'disables', max: DAY }),
    default: ms('65m'),
    description: 'Deadline of one action, shared by all its requests and the waits between them.',
  }),
  allowedUploadDirs: setting({
    variable: 'FORGE_MCP_ALLOWED_UPLOAD_DIRS',
    scope: 'stdio',
    grammar: dirListGrammar(),
    default: [],
    defaultText: 'empty',
    description: 'Extra directories files may be uploaded from; missing ones are skipped with a warning.',
  }),
  allowedDownloadDirs: setting({
    variable: 'FORGE_MCP_ALLOWED_DOWNLOAD_DIRS',
    scope: 'stdio',
    grammar: dirListGrammar(),
    default: [],
    defaultText: 'empty',
    description:
      'Extra directories downloads may be written to (under a temporary name, renamed when complete).',
  }),
  allowedImportDirs: setting({
    variable: 'FORGE_MCP_ALLOWED_IMPORT_DIRS',
    scope: 'stdio',
    grammar: dirListGrammar(),
    default: [],
    defaultText: 'empty',
    description: 'Extra directories import archives may be read from.',
  }),
  stdioMaxLineBytes: setting({
    variable: 'FORGE_MCP_STDIO_MAX_LINE_BYTES',
    scope: 'stdio',
    grammar: integerGrammar({ min: 1, what: 'a byte count' }),
    default: 4 * MB,
    onInvalid: 'warn-default',
    description: 'Longest JSON-RPC line read on stdin.',
  }),
  maxListenStreams: setting({
    variable: 'FORGE_MCP_MAX_LISTEN_STREAMS',
    scope: 'both',
    grammar: integerGrammar({ min: 0 }),
    default: 64,
    onInvalid: 'warn-default',
    description:
      'Open subscriptions/listen streams per credential; 0 removes this ceiling (not the 512 per process).',
  }),
  subscriptionPollMs: setting({
    variable: 'FORGE_MCP_SUBSCRIPTION_POLL_INTERVAL',
    scope: 'both',
    grammar: durationGrammar({ zero: 'refused', min: ms('1s'), max: ms('1h') }),
    default: ms('30s'),
    description:
      'How often a subscribed resource is read again to find changes (a conditional request where the instance gives ETags).',
  }),

  // ------------------------------------------------------------ diagnostics
  logLevel: setting({
    variable: 'FORGE_MCP_LOG_LEVEL',
    flag: '--log-level',
    flagInStdio: true,
    scope: 'both',
    grammar: enumGrammar(['debug', 'info', 'warn', 'error'], { warning: 'warn' }),
    default: 'info',
    description: 'Lowest level of the JSON logs written to stderr.',
  }),
  pprofAddr: setting({
    variable: 'FORGE_MCP_PPROF_ADDR',
    flag: '--pprof-addr',
    flagInStdio: true,
    scope: 'both',
    grammar: loopbackHostPortGrammar(),
    defaultText: 'empty',
    description:
      'Serve diagnostics (heap profile, heap snapshot with secrets masked, CPU profile) under /debug/pprof/ on this loopback address.',
  }),
  envFile: setting({
    variable: 'FORGE_MCP_ENV_FILE',
    flag: '--env-file',
    flagInStdio: true,
    scope: 'both',
    grammar: pathGrammar(),
    defaultText: 'empty',
    description: 'Extra dotenv file read after ~/.forge-mcp-server.env; the real environment wins over both.',
  }),

  // ------------------------------------------------------------ HTTP sessions and pool
  maxHttpClients: setting({
    variable: 'FORGE_MCP_MAX_HTTP_CLIENTS',
    flag: '--max-http-clients',
    scope: 'http',
    grammar: integerGrammar({ min: 1, max: 10000 }),
    default: 100,
    description: 'Credential pool entries.',
  }),
  sessionTimeoutMs: setting({
    variable: 'FORGE_MCP_SESSION_TIMEOUT',
    flag: '--session-timeout',
    scope: 'http',
    grammar: durationGrammar({ zero: 'flag-only', max: DAY }),
    default: ms('30m'),
    description:
      'Idle time after which a stateful session ends (stateful only: --stateless=false); --session-timeout=0 never ends one for idleness.',
  }),
  poolIdleTimeoutMs: setting({
    variable: 'FORGE_MCP_POOL_IDLE_TIMEOUT',
    flag: '--pool-idle-timeout',
    scope: 'http',
    grammar: durationGrammar({ zero: 'disables', max: DAY }),
    default: ms('1h'),
    description: 'Idle time after which a credential leaves the pool.',
  }),
  revalidateIntervalMs: setting({
    variable: 'FORGE_MCP_SESSION_REVALIDATE_INTERVAL',
    flag: '--revalidate-interval',
    scope: 'http',
    grammar: durationGrammar({ zero: 'disables', max: DAY }),
    default: ms('15m'),
    description: 'How often a pooled credential is checked again against the instance; 0 stops the check.',
  }),
  drainDelayMs: setting({
    variable: 'FORGE_MCP_DRAIN_DELAY',
    flag: '--drain-delay',
    scope: 'http',
    grammar: durationGrammar({ zero: 'disables', max: ms('5m') }),
    default: 0,
    description: 'Time to keep serving after a shutdown signal before closing the listener.',
  }),

  // ------------------------------------------------------------ HTTP authentication
  authMode: setting({
    variable: 'FORGE_MCP_AUTH_MODE',
    flag: '--auth-mode',
    scope: 'http',
    grammar: enumGrammar(['legacy', 'oauth']),
    default: 'legacy',
    description:
      'legacy takes a Bearer or PRIVATE-TOKEN header; oauth makes the server an OAuth resource server.',
  }),
  publicUrl: setting({
    variable: 'FORGE_MCP_PUBLIC_URL',
    flag: '--public-url',
    scope: 'http',
    grammar: publicUrlGrammar(),
    defaultText: 'empty',
    description: 'Address clients reach this server at; required with oauth.',
  }),
  trustedOrigins: setting({
    variable: 'FORGE_MCP_TRUSTED_ORIGINS',
    flag: '--trusted-origins',
    scope: 'http',
    grammar: originListGrammar(),
    default: [],
    defaultText: 'empty',
    description: 'Browser origins allowed cross-origin; * disables the protection (with a warning).',
  }),
  oauthCacheTtlMs: setting({
    variable: 'FORGE_MCP_OAUTH_CACHE_TTL',
    flag: '--oauth-cache-ttl',
    scope: 'http',
    grammar: durationGrammar({ zero: 'refused', min: ms('1m'), max: ms('2h') }),
    default: ms('15m'),
    description: 'How long a verified identity is cached.',
  }),
  oauthClientUids: setting({
    variable: 'FORGE_MCP_OAUTH_CLIENT_UID',
    flag: '--oauth-client-uid',
    scope: 'http',
    grammar: listGrammar('a comma-separated list of OAuth application IDs'),
    default: [],
    defaultText: 'empty',
    description: 'Admit only tokens issued to these OAuth applications.',
  }),
  rateLimitRps: setting({
    variable: 'FORGE_MCP_RATE_LIMIT_RPS',
    flag: '--rate-limit-rps',
    flagInStdio: true,
    scope: 'both',
    grammar: numberGrammar({ min: 0, max: 1000 }),
    defaultPer: { stdio: 0, http: 10 },
    defaultText: '0 on stdio, 10 in HTTP',
    description:
      'Per-credential rate of tools/call, resources/read, resources/subscribe, subscriptions/listen and prompts/get per second (initialize is not counted); 0 turns the limiter off.',
  }),
  rateLimitBurst: setting({
    variable: 'FORGE_MCP_RATE_LIMIT_BURST',
    flag: '--rate-limit-burst',
    flagInStdio: true,
    scope: 'both',
    grammar: integerGrammar({ min: 0, max: 10000 }),
    default: 40,
    description: 'Per-credential burst; must be at least 1 while the limiter is on.',
  }),
  authFailureLimit: setting({
    variable: 'FORGE_MCP_AUTH_FAILURE_LIMIT',
    scope: 'http',
    grammar: integerGrammar({ min: 0, max: 100000 }),
    default: 10,
    description: 'Failed authentications per address per window; 0 disables.',
  }),
  authFailureWindowMs: setting({
    variable: 'FORGE_MCP_AUTH_FAILURE_WINDOW',
    scope: 'http',
    grammar: durationGrammar({ zero: 'disables', max: DAY }),
    default: ms('1m'),
    description: 'Window of the failure budget; 0 disables it and the distinct-token budget.',
  }),
  authDistinctTokenLimit: setting({
    variable: 'FORGE_MCP_AUTH_DISTINCT_TOKEN_LIMIT',
    scope: 'http',
    grammar: integerGrammar({ min: 0, max: 100000 }),
    default: 50,
    description: 'Distinct refused credentials per address per window; 0 disables.',
  }),
  authDistinctTokenWindowMs: setting({
    variable: 'FORGE_MCP_AUTH_DISTINCT_TOKEN_WINDOW',
    scope: 'http',
    grammar: durationGrammar({ zero: 'disables', max: DAY }),
    default: ms('10m'),
    description: 'Window of the distinct-token budget; 0 disables it.',
  }),

  // ------------------------------------------------------------ telemetry
  telemetry: setting({
    variable: 'FORGE_MCP_TELEMETRY',
    flag: '--telemetry',
    flagInStdio: true,
    scope: 'both',
    grammar: strictBooleanGrammar(),
    default: false,
    onInvalid: 'warn-default',
    description: 'Export traces, metrics and logs over OTLP; OTEL_SDK_DISABLED=true vetoes.',
  }),
  otelSdkDisabled: setting({
    variable: 'OTEL_SDK_DISABLED',
    scope: 'both',
    grammar: strictBooleanGrammar(),
    default: false,
    onInvalid: 'warn-default',
    description:
      'The standard OpenTelemetry switch; true turns telemetry off whatever FORGE_MCP_TELEMETRY says.',
  }),
  telemetryIdentity: setting({
    variable: 'FORGE_MCP_TELEMETRY_IDENTITY',
    flag: '--telemetry-identity',
    flagInStdio: true,
    scope: 'both',
    grammar: enumGrammar(['none', 'pseudonymous', 'full']),
    default: 'none',
    onInvalid: 'error-default',
    description: 'Who telemetry records; an unrecognized value logs an ERROR and records nobody.',
  }),
  telemetryIdentityKey: setting({
    variable: 'FORGE_MCP_TELEMETRY_IDENTITY_KEY',
    scope: 'both',
    grammar: secretGrammar(),
    defaultText: 'generated per process',
    description: 'Key for pseudonymous identities.',
  }),
  telemetryIdentityRotationMs: setting({
    variable: 'FORGE_MCP_TELEMETRY_IDENTITY_ROTATION',
    flag: '--telemetry-identity-rotation',
    flagInStdio: true,
    scope: 'both',
    grammar: durationGrammar({ zero: 'refused', max: ms('720h') }),
    defaultText: 'empty',
    description: 'How often the generated pseudonym key rotates; ignored with a warning when a key is set.',
  }),
  telemetryToolName: setting({
    variable: 'FORGE_MCP_TELEMETRY_TOOL_NAME',
    flag: '--telemetry-tool-name',
    flagInStdio: true,
    scope: 'both',
    grammar: enumGrammar(['auto', 'on', 'off']),
    default: 'auto',
    description: 'Whether telemetry records tool names.',
  }),

  // ------------------------------------------------------------ HTTP listener (flags only)
  httpAddr: setting({
    flag: '--http-addr',
    scope: 'http',
    grammar: listenAddressGrammar(),
    default: ':8080',
    description: 'Listen address (empty host = every interface); a filesystem path binds a unix socket.',
  }),
  httpSocketMode: setting({
    flag: '--http-socket-mode',
    scope: 'http',
    grammar: fileModeGrammar(),
    default: 0o660,
    description: 'Permissions of the unix socket.',
  }),
  tlsCert: setting({
    flag: '--tls-cert',
    scope: 'http',
    grammar: pathGrammar(),
    defaultText: 'empty',
    description: 'TLS certificate file (PEM); with --tls-key, both or neither; TLS 1.2 at least.',
  }),
  tlsKey: setting({
    flag: '--tls-key',
    scope: 'http',
    grammar: pathGrammar(),
    defaultText: 'empty',
    description: 'TLS private key file (PEM); with --tls-cert, both or neither.',
  }),
  maxRequestBodyBytes: setting({
    flag: '--max-request-body-bytes',
    scope: 'http',
    grammar: sizeGrammar({ min: 1, max: GB }),
    default: 4 * MB,
    description: 'Largest request body accepted.',
  }),
  httpIdleTimeoutMs: setting({
    flag: '--http-idle-timeout',
    scope: 'http',
    grammar: durationGrammar({ zero: 'disables', max: DAY }),
    default: ms('2m'),
    description: 'Idle time after which a keep-alive connection is closed.',
  }),
  trustedProxyHeader: setting({
    flag: '--trusted-proxy-header',
    scope: 'http',
    grammar: headerNameGrammar(),
    defaultText: 'empty',
    description:
      'Header carrying the client address (X-Forwarded-For read right to left); with --trusted-proxies.',
  }),
  trustedProxies: setting({
    flag: '--trusted-proxies',
    scope: 'http',
    grammar: addressListGrammar(),
    default: [],
    defaultText: 'empty',
    description:
      'Proxies whose address header is believed and that may send any Host; with --trusted-proxy-header.',
  }),
  stateless: setting({
    flag: '--stateless',
    scope: 'http',
    grammar: booleanGrammar(),
    default: true,
    description: 'Serve without MCP sessions; --stateless=false keeps stateful sessions.',
  }),
  redisUrl: setting({
    variable: 'FORGE_MCP_REDIS_URL',
    flag: '--redis-url',
    scope: 'http',
    grammar: redisUrlGrammar(),
    defaultText: 'empty',
    description:
      'Redis server holding the state replicas share (stateful sessions and their event log, verified identities, refused tokens, authentication budgets, rate limits, subscriptions, the confirmation seal key), so several replicas behind a load balancer act as one; empty keeps it in this process. Unreachable: the start is refused; once running, what needs it answers 503 with Retry-After until it is back.',
  }),
  stateKey: setting({
    variable: 'FORGE_MCP_STATE_KEY',
    scope: 'http',
    grammar: stateKeyGrammar(),
    defaultText: 'empty',
    description:
      'Key that seals what replicas keep in Redis (FORGE_MCP_REDIS_URL): each session event log entry (the answers a stream resumes from) is encrypted and authenticated with a key derived from it, and the confirmation seal key is derived from it instead of kept in Redis. Every replica sharing the Redis server needs the same key, or none: a replica whose key differs from the running ones refuses to start. Empty keeps both in Redis unsealed.',
  }),
  resourceDocumentation: setting({
    flag: '--resource-documentation',
    scope: 'http',
    grammar: httpsUrlGrammar(),
    defaultText: 'empty',
    description: 'resource_documentation URL of the protected-resource metadata.',
  }),
  resourcePolicyUri: setting({
    flag: '--resource-policy-uri',
    scope: 'http',
    grammar: httpsUrlGrammar(),
    defaultText: 'empty',
    description: 'resource_policy_uri of the protected-resource metadata.',
  }),
  resourceTosUri: setting({
    flag: '--resource-tos-uri',
    scope: 'http',
    grammar: httpsUrlGrammar(),
    defaultText: 'empty',
    description: 'resource_tos_uri of the protected-resource metadata.',
  }),
  allowAnyForgeUrl: setting({
    flag: '--allow-any-forge-url',
    scope: 'http',
    grammar: booleanGrammar(),
    default: false,
    description: 'Serve any instance a request names in its FORGE-URL header.',
  }),

  // ------------------------------------------------------------ commands
  help: setting({
    flag: '--help',
    flagInStdio: true,
    command: true,
    scope: 'both',
    grammar: booleanGrammar(),
    default: false,
    description: 'Print this help and exit.',
  }),
  version: setting({
    flag: '--version',
    flagInStdio: true,
    command: true,
    scope: 'both',
    grammar: booleanGrammar(),
    default: false,
    description: 'Print the version and exit.',
  }),
  listActions: setting({
    flag: '--list-actions',
    flagInStdio: true,
    command: true,
    scope: 'both',
    grammar: booleanGrammar(),
    default: false,
    description: 'Print the catalog of actions and exit.',
  }),
  listJson: setting({
    flag: '--json',
    flagInStdio: true,
    command: true,
    scope: 'both',
    grammar: booleanGrammar(),
    default: false,
    description: 'With --list-actions, print JSON.',
  }),
  shutdown: setting({
    flag: '--shutdown',
    flagInStdio: true,
    command: true,
    scope: 'both',
    grammar: booleanGrammar(),
    default: false,
    description: "Ask every running instance of the server (this user's) to drain and exit.",
  }),
} satisfies Record<string, SettingDef<any>>;

export type SettingId = keyof typeof SETTINGS;
type ValueOf<D> = D extends SettingDef<infer T> ? T : never;
/** What the table reads, before the rules that join settings. */
export type RawValues = { [K in SettingId]: ValueOf<(typeof SETTINGS)[K]> | undefined };

export const SETTING_IDS = Object.keys(SETTINGS) as SettingId[];

export function settingDef(id: SettingId): SettingDef<unknown> {
  return SETTINGS[id] as SettingDef<unknown>;
}

export function defaultFor(def: SettingDef<unknown>, transport: Transport): unknown {
  if (def.defaultPer) return def.defaultPer[transport];
  return def.default;
}

export function invalidPolicy(def: SettingDef<unknown>, transport: Transport): InvalidPolicy {
  const p = def.onInvalid ?? 'refuse';
  return typeof p === 'string' ? p : p[transport];
}

/** Is the flag read by a server on this transport? Flags are read in HTTP mode unless marked both. */
export function flagIsRead(def: SettingDef<unknown>, transport: Transport): boolean {
  return def.flag !== undefined && (transport === 'http' || def.flagInStdio === true);
}

export function inScope(def: SettingDef<unknown>, transport: Transport): boolean {
  return def.scope === 'both' || def.scope === transport;
}
