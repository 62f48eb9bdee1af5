// The typed settings the rest of the server reads. Durations are milliseconds, sizes bytes.
export type Transport = 'stdio' | 'http';
export type ToolSurface = 'dynamic' | 'meta' | 'individual';
export type Tier = 'free' | 'premium' | 'ultimate';
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type Command = 'serve' | 'help' | 'version' | 'list-actions' | 'shutdown';

export interface Config {
  transport: Transport;
  /** Normalized instance URLs, no trailing slash. One on stdio; in HTTP empty only with allowAnyForgeUrl. */
  forgeUrls: string[];
  /** stdio only; never read in HTTP mode. */
  token?: string;
  skipTlsVerify: boolean;
  allowPrivateInstances: boolean;
  toolSurface: ToolSurface;
  capabilitySurface: 'full' | 'minimal';
  metaParamSchema: 'opaque' | 'compact' | 'full';
  /** undefined: detect from the instance. */
  tier?: Tier;
  readOnly: boolean;
  safeMode: boolean;
  embeddedResources: boolean;
  excludeTools: string[];
  ignoreScopes: boolean;
  clientCompat: 'auto' | 'off';
  descriptionSubstitutions: Array<[string, string]>;
  /** FORGE_MCP_YOLO_MODE when set at all, else AUTOPILOT, else false. */
  yolo: boolean;
  uploadMaxFileSize: number;
  /** 0: no deadline. */
  actionTimeoutMs: number;
  /** Existing directories, resolved through symbolic links; stdio only (empty in HTTP). */
  allowedUploadDirs: string[];
  allowedDownloadDirs: string[];
  allowedImportDirs: string[];
  stdioMaxLineBytes: number;
  /** 0: no per-credential ceiling (the per-process one stays). */
  maxListenStreams: number;
  subscriptionPollMs: number;
  logLevel: LogLevel;
  pprofAddr?: string;
  /** The extra dotenv file that was read, absolute. */
  envFile?: string;
  maxHttpClients: number;
  /** 0 (flag only): sessions never expire from idleness. */
  sessionTimeoutMs: number;
  /** 0: pool entries are not evicted for idleness. */
  poolIdleTimeoutMs: number;
  /** 0: no periodic revalidation. */
  revalidateIntervalMs: number;
  drainDelayMs: number;
  authMode: 'legacy' | 'oauth';
  publicUrl?: string;
  /** Normalized origins, or ['*'] for any. */
  trustedOrigins: string[];
  oauthCacheTtlMs: number;
  oauthClientUids: string[];
  /** 0: limiter off. */
  rateLimitRps: number;
  rateLimitBurst: number;
  /** A budget is on when its limit is above 0; a 0 window is folded into its limit (0). */
  authFailureLimit: number;
  authFailureWindowMs: number;
  authDistinctTokenLimit: number;
  authDistinctTokenWindowMs: number;
  /** FORGE_MCP_TELEMETRY, vetoed by OTEL_SDK_DISABLED=true. */
  telemetry: boolean;
  telemetryIdentity: 'none' | 'pseudonymous' | 'full';
  /** undefined: generate one per process. */
  telemetryIdentityKey?: string;
  /** undefined when unset or when a key is set. */
  telemetryIdentityRotationMs?: number;
  telemetryToolName: 'auto' | 'on' | 'off';
  /** host:port (empty host: every interface) or a unix socket path. */
  httpAddr: string;
  httpSocketMode: number;
  /** Absolute paths; both or neither. */
  tlsCert?: string;
  tlsKey?: string;
  maxRequestBodyBytes: number;
  /** 0: keep-alive connections are not closed for idleness. */
  httpIdleTimeoutMs: number;
  /** Lower-cased header name; set together with trustedProxies. */
  trustedProxyHeader?: string;
  /** IP addresses and CIDR ranges. */
  trustedProxies: string[];
  stateless: boolean;
  /** FORGE_MCP_REDIS_URL: the shared state's store (may hold a password: never log it). */
  redisUrl?: string;
  /** FORGE_MCP_STATE_KEY: seals the event logs kept in Redis (hex or base64, at least 32 bytes; never log it). */
  stateKey?: string;
  resourceDocumentation?: string;
  resourcePolicyUri?: string;
  resourceTosUri?: string;
  allowAnyForgeUrl: boolean;
  /** --json with --list-actions. */
  listJson: boolean;
}

export interface LoadInput {
  /** Arguments after the program name (process.argv.slice(2)). */
  argv: string[];
  env: Record<string, string | undefined>;
  cwd: string;
  home: string;
  stdinIsPipe: boolean;
}

export interface LoadResult {
  config: Config;
  /** Lines to log at WARN. */
  warnings: string[];
  /** Lines to log at ERROR without refusing the start. */
  errors: string[];
  command: Command;
}
