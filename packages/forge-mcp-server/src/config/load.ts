// Reads the table against argv, the environment and the dotenv files, then applies the rules that
// join settings (OAuth needs a public URL, TLS needs both files, ...).
import { earlyCommand, parseArgv, type FlagValue } from './argv.js';
import { ConfigError, withAccepts } from './errors.js';
import { nearestWithin } from './nearest.js';
import { isLoopbackHost, type ParseContext } from './grammar.js';
import {
  defaultFor,
  flagIsRead,
  inScope,
  invalidPolicy,
  SETTING_IDS,
  settingDef,
  SETTINGS,
  type RawValues,
  type SettingDef,
  type SettingId,
} from './settings.js';
import { homeEnvFile, readDotenv, unreadDotenvWarning, Variables, type Layer } from './sources.js';
import type { Command, Config, LoadInput, LoadResult, Transport } from './types.js';
import { urlPassword } from '../secrets.js';

/** Variables release 3.1.0 stopped reading; a start with one set is refused so nobody loses a guard silently. */
const RETIRED_VARIABLES: Record<string, string> = {
  READ_ONLY: 'FORGE_MCP_READ_ONLY',
  SAFE_MODE: 'FORGE_MCP_SAFE_MODE',
  EXCLUDE_TOOLS: 'FORGE_MCP_EXCLUDE_TOOLS',
};

interface Source {
  raw: string;
  /** How the value is named in messages: --read-only or FORGE_MCP_READ_ONLY (from ~/.forge-mcp-server.env). */
  name: string;
  origin: 'flag' | 'variable';
  file?: string;
}

function describe(def: SettingDef<unknown>, source: Source): string {
  const value = def.grammar.secret ? '<redacted>' : JSON.stringify(source.raw);
  const from = source.file ? ` (from ${source.file})` : '';
  return `${source.name}=${value}${from}`;
}

class Reader {
  readonly warnings: string[] = [];
  readonly errors: string[] = [];

  constructor(
    private readonly flags: Map<SettingId, FlagValue>,
    private readonly variables: Variables,
    readonly transport: Transport,
    private readonly input: LoadInput,
  ) {}

  /** Where a setting's value comes from on this transport; a read flag wins over the variable. */
  source(id: SettingId): Source | undefined {
    const def = settingDef(id);
    if (!inScope(def, this.transport)) return undefined;
    const flag = this.flags.get(id);
    if (flag && flagIsRead(def, this.transport) && flag.raw.trim() !== '')
      return { raw: flag.raw, name: flag.name, origin: 'flag' };
    if (!def.variable) return undefined;
    const v = this.variables.get(def.variable);
    return v ? { raw: v.raw, name: def.variable, origin: 'variable', file: v.file } : undefined;
  }

  context(origin: 'flag' | 'variable'): ParseContext {
    return { source: origin, cwd: this.input.cwd, home: this.input.home };
  }

  read(id: SettingId): unknown {
    const def = settingDef(id);
    const fallback = defaultFor(def, this.transport);
    const source = this.source(id);
    if (!source) return fallback;
    const outcome = def.grammar.parse(source.raw, this.context(source.origin));
    if (outcome.ok) {
      for (const note of outcome.notes ?? []) this.warnings.push(`${source.name}: ${note}`);
      return outcome.value;
    }
    const problem = `${describe(def, source)}: ${outcome.reason}`;
    const policy = invalidPolicy(def, this.transport);
    if (policy === 'refuse') throw new ConfigError(`invalid ${problem}`, def.grammar.accepts);
    const using = fallback === undefined ? 'leaving it unset' : `using ${def.grammar.format(fallback)}`;
    (policy === 'warn-default' ? this.warnings : this.errors).push(
      `${withAccepts(`ignoring ${problem}`, def.grammar.accepts)}; ${using}`,
    );
    return fallback;
  }
}

function defaults(transport: Transport): RawValues {
  const values: Record<string, unknown> = {};
  for (const id of SETTING_IDS) values[id] = defaultFor(settingDef(id), transport);
  return values as RawValues;
}

function chooseTransport(flags: Map<SettingId, FlagValue>, stdinIsPipe: boolean): Transport {
  const readFlag = <T>(id: 'http' | 'transport'): T | undefined => {
    const flag = flags.get(id);
    if (!flag || flag.raw.trim() === '') return undefined;
    const def = SETTINGS[id] as SettingDef<T>;
    const outcome = def.grammar.parse(flag.raw, { source: 'flag', cwd: '', home: '' });
    if (!outcome.ok)
      throw new ConfigError(
        `invalid ${flag.name}=${JSON.stringify(flag.raw)}: ${outcome.reason}`,
        def.grammar.accepts,
      );
    return outcome.value;
  };
  const http = readFlag<boolean>('http');
  const chosen = readFlag<'stdio' | 'http' | 'auto'>('transport');
  if (http && chosen === 'stdio')
    throw new ConfigError(
      '--http contradicts --transport=stdio; accepts one of them (--transport=http or --http)',
    );
  if (http) return 'http';
  if (chosen === 'auto') return stdinIsPipe ? 'stdio' : 'http';
  return chosen ?? 'stdio';
}

function chooseCommand(flags: Map<SettingId, FlagValue>): Command {
  const on = (id: SettingId): boolean => {
    const flag = flags.get(id);
    if (!flag) return false;
    const outcome = settingDef(id).grammar.parse(flag.raw, { source: 'flag', cwd: '', home: '' });
    if (!outcome.ok)
      throw new ConfigError(
        `invalid ${flag.name}=${JSON.stringify(flag.raw)}: ${outcome.reason}; accepts true or false`,
      );
    return outcome.value === true;
  };
  const listActions = on('listActions');
  const shutdown = on('shutdown');
  if (listActions && shutdown)
    throw new ConfigError('--list-actions and --shutdown were both given; accepts one command at a time');
  if (shutdown) return 'shutdown';
  if (listActions) return 'list-actions';
  return 'serve';
}

function loadLayers(input: LoadInput, flags: Map<SettingId, FlagValue>, warnings: string[]) {
  const homeFile = homeEnvFile(input.home);
  const home = readDotenv(homeFile);
  const homeLayer: Layer = { file: homeFile, values: home.ok ? home.values : {} };
  if (!home.ok && !home.reason.includes('ENOENT')) warnings.push(`${homeFile} is not read: ${home.reason}`);

  // The extra file may be named by the flag, the environment or the home file, in that order.
  const envFileDef = settingDef('envFile');
  const flag = flags.get('envFile');
  const fromEnv = new Variables([{ values: input.env }, homeLayer]).get('FORGE_MCP_ENV_FILE');
  const source: Source | undefined =
    flag && flag.raw.trim() !== ''
      ? { raw: flag.raw, name: flag.name, origin: 'flag' }
      : fromEnv
        ? { raw: fromEnv.raw, name: 'FORGE_MCP_ENV_FILE', origin: 'variable', file: fromEnv.file }
        : undefined;
  const layers: Layer[] = [{ values: input.env }];
  let envFile: string | undefined;
  if (source) {
    const parsed = envFileDef.grammar.parse(source.raw, {
      source: source.origin,
      cwd: input.cwd,
      home: input.home,
    });
    envFile = parsed.ok ? (parsed.value as string) : undefined;
    const read = envFile ? readDotenv(envFile) : { ok: false as const, reason: 'not a path' };
    if (!read.ok)
      throw new ConfigError(
        `invalid ${describe(envFileDef, source)}: ${read.reason}; accepts the path of a readable dotenv file`,
      );
    layers.push({ file: envFile, values: read.values });
  }
  layers.push(homeLayer);
  return { variables: new Variables(layers), envFile };
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * A stdio server ignores HTTP-only flags, except that a flag withholding capability (read-only,
 * safe mode, exclude list) refuses the start whenever it is passed, and --forge-url does when it names
 * another instance than FORGE_URL: ignoring them would serve more than asked.
 */
function checkStdioFlags(reader: Reader, flags: Map<SettingId, FlagValue>, values: RawValues): void {
  for (const [id, flag] of flags) {
    const def = settingDef(id);
    if (flagIsRead(def, 'stdio')) continue;
    if (def.withholdsCapability) {
      const given = flag.raw.trim() !== '';
      const outcome = given ? def.grammar.parse(flag.raw, reader.context('flag')) : undefined;
      if (outcome && !outcome.ok)
        throw new ConfigError(
          `invalid ${describe(def, { ...flag, origin: 'flag' })}: ${outcome.reason}`,
          def.grammar.accepts,
        );
      const current = values[id];
      const repeatsInstance = id === 'forgeUrls' && (!outcome || sameValue(outcome.value, current));
      if (!repeatsInstance) {
        const env = def.grammar.format(current as never) || 'unset';
        const wanted = outcome?.ok ? def.grammar.format(outcome.value as never) : '';
        throw new ConfigError(
          `refusing ${flag.name}=${JSON.stringify(flag.raw)} on stdio: a stdio server takes settings from the environment, where ${def.variable} is ${env}; accepts ${def.variable}=${wanted} in the environment or a dotenv file instead`,
        );
      }
      continue;
    }
    if (flag.raw.trim() === '') continue;
    const instead = def.variable ? `; set ${def.variable} instead` : ' and has no effect there';
    reader.warnings.push(`ignoring ${flag.name}: the flag is read only in HTTP mode${instead}`);
  }
}

function assemble(v: RawValues, transport: Transport): Config {
  return {
    transport,
    forgeUrls: v.forgeUrls ?? [],
    token: v.token,
    skipTlsVerify: v.skipTlsVerify ?? false,
    allowPrivateInstances: v.allowPrivateInstances ?? false,
    toolSurface: v.toolSurface ?? 'dynamic',
    capabilitySurface: v.capabilitySurface ?? 'full',
    metaParamSchema: v.metaParamSchema ?? 'opaque',
    tier: v.tier,
    readOnly: v.readOnly ?? false,
    safeMode: v.safeMode ?? false,
    embeddedResources: v.embeddedResources ?? true,
    excludeTools: v.excludeTools ?? [],
    ignoreScopes: v.ignoreScopes ?? false,
    clientCompat: v.clientCompat ?? 'auto',
    descriptionSubstitutions: v.descriptionSubstitutions ?? [],
    yolo: v.yoloMode ?? v.autopilot ?? false,
    uploadMaxFileSize: v.uploadMaxFileSize!,
    actionTimeoutMs: v.actionTimeoutMs!,
    allowedUploadDirs: v.allowedUploadDirs ?? [],
    allowedDownloadDirs: v.allowedDownloadDirs ?? [],
    allowedImportDirs: v.allowedImportDirs ?? [],
    stdioMaxLineBytes: v.stdioMaxLineBytes!,
    maxListenStreams: v.maxListenStreams!,
    subscriptionPollMs: v.subscriptionPollMs!,
    logLevel: v.logLevel ?? 'info',
    pprofAddr: v.pprofAddr,
    envFile: v.envFile,
    maxHttpClients: v.maxHttpClients!,
    sessionTimeoutMs: v.sessionTimeoutMs!,
    poolIdleTimeoutMs: v.poolIdleTimeoutMs!,
    revalidateIntervalMs: v.revalidateIntervalMs!,
    drainDelayMs: v.drainDelayMs!,
    authMode: v.authMode ?? 'legacy',
    publicUrl: v.publicUrl,
    trustedOrigins: v.trustedOrigins ?? [],
    oauthCacheTtlMs: v.oauthCacheTtlMs!,
    oauthClientUids: v.oauthClientUids ?? [],
    rateLimitRps: v.rateLimitRps!,
    rateLimitBurst: v.rateLimitBurst!,
    authFailureLimit: v.authFailureLimit!,
    authFailureWindowMs: v.authFailureWindowMs!,
    authDistinctTokenLimit: v.authDistinctTokenLimit!,
    authDistinctTokenWindowMs: v.authDistinctTokenWindowMs!,
    telemetry: (v.telemetry ?? false) && !(v.otelSdkDisabled ?? false),
    telemetryIdentity: v.telemetryIdentity ?? 'none',
    telemetryIdentityKey: v.telemetryIdentityKey,
    telemetryIdentityRotationMs: v.telemetryIdentityRotationMs,
    telemetryToolName: v.telemetryToolName ?? 'auto',
    httpAddr: v.httpAddr!,
    httpSocketMode: v.httpSocketMode!,
    tlsCert: v.tlsCert,
    tlsKey: v.tlsKey,
    maxRequestBodyBytes: v.maxRequestBodyBytes!,
    httpIdleTimeoutMs: v.httpIdleTimeoutMs!,
    trustedProxyHeader: v.trustedProxyHeader,
    trustedProxies: v.trustedProxies ?? [],
    stateless: v.stateless ?? true,
    redisUrl: v.redisUrl,
    stateKey: v.stateKey,
    resourceDocumentation: v.resourceDocumentation,
    resourcePolicyUri: v.resourcePolicyUri,
    resourceTosUri: v.resourceTosUri,
    allowAnyForgeUrl: v.allowAnyForgeUrl ?? false,
    listJson: v.listJson ?? false,
  };
}

/** The rules that join settings. `serving` adds what only a serving process needs (token, instance). */
function applyRules(config: Config, reader: Reader, serving: boolean): void {
  const name = (id: SettingId): string => {
    const source = reader.source(id);
    return source ? describe(settingDef(id), source) : (settingDef(id).variable ?? settingDef(id).flag ?? id);
  };

  if (config.transport === 'stdio') {
    if (config.forgeUrls.length > 1)
      throw new ConfigError(
        `invalid ${name('forgeUrls')}: a stdio server serves one instance; accepts one http(s) URL`,
      );
    if (serving && !config.token)
      throw new ConfigError(
        'FORGE_TOKEN is not set: a stdio server acts with one token; accepts a personal access token, set FORGE_TOKEN in the environment or in ~/.forge-mcp-server.env',
      );
  } else if (serving && config.forgeUrls.length === 0 && !config.allowAnyForgeUrl) {
    throw new ConfigError(
      'FORGE_URL is not set: HTTP mode needs the instance to serve; accepts FORGE_URL or --forge-url (comma list of http(s) URLs), or --allow-any-forge-url',
    );
  }

  if (config.transport === 'http' && config.stateless && reader.source('sessionTimeoutMs'))
    reader.warnings.push(
      `ignoring ${name('sessionTimeoutMs')}: sessions are stateless (the default), so none times out; --stateless=false keeps stateful sessions`,
    );

  // OAuth's own settings do nothing in legacy mode; a pin that silently does not pin would admit every token.
  if (config.transport === 'http' && config.authMode !== 'oauth')
    for (const id of OAUTH_ONLY)
      if (reader.source(id))
        reader.warnings.push(
          `ignoring ${name(id)}: it applies only with --auth-mode=oauth, and the auth mode is ${config.authMode}${id === 'oauthClientUids' ? ', which serves every token the instance accepts' : ''}`,
        );

  if (config.readOnly && config.safeMode)
    reader.warnings.push(
      `${name('safeMode')} does nothing beside ${name('readOnly')}: read-only removes the writes safe mode would preview`,
    );

  if (config.rateLimitRps > 0 && config.rateLimitBurst < 1)
    throw new ConfigError(
      `invalid ${name('rateLimitBurst')}: below 1 while the limiter is on (rate ${config.rateLimitRps}); accepts a burst from 1 to 10000, or FORGE_MCP_RATE_LIMIT_RPS=0`,
    );

  if (config.authMode === 'oauth') {
    if (!config.publicUrl)
      throw new ConfigError(
        `FORGE_MCP_PUBLIC_URL is not set: ${name('authMode')} requires it; accepts an absolute https URL (--public-url)`,
      );
    if (serving && config.forgeUrls.length === 0)
      throw new ConfigError(
        `FORGE_URL is not set: ${name('authMode')} needs an instance to publish; accepts FORGE_URL or --forge-url with https URL(s)`,
      );
    for (const url of config.forgeUrls) {
      const { protocol, hostname } = new URL(url);
      if (protocol !== 'https:' && !isLoopbackHost(hostname))
        throw new ConfigError(
          `invalid ${name('forgeUrls')}: OAuth mode needs https instance URLs, ${url} is not; accepts https (http only for a loopback host)`,
        );
      if (config.skipTlsVerify && !isLoopbackHost(hostname))
        throw new ConfigError(
          `invalid ${name('skipTlsVerify')}: OAuth mode refuses to skip TLS verification for ${url}; accepts false, or loopback instances only`,
        );
    }
  }

  if (Boolean(config.tlsCert) !== Boolean(config.tlsKey)) {
    const [given, missing] = config.tlsCert ? ['tlsCert', '--tls-key'] : ['tlsKey', '--tls-cert'];
    throw new ConfigError(
      `invalid ${name(given as SettingId)}: ${missing} is not set; accepts --tls-cert and --tls-key both or neither`,
    );
  }
  if (Boolean(config.trustedProxyHeader) !== config.trustedProxies.length > 0) {
    const [given, missing] = config.trustedProxyHeader
      ? ['trustedProxyHeader', '--trusted-proxies']
      : ['trustedProxies', '--trusted-proxy-header'];
    throw new ConfigError(
      `invalid ${name(given as SettingId)}: ${missing} is not set; accepts --trusted-proxy-header and --trusted-proxies both or neither`,
    );
  }
  if (config.trustedOrigins.includes('*'))
    reader.warnings.push(
      `${name('trustedOrigins')}: every origin is trusted, cross-origin protection is off`,
    );

  if (config.telemetryIdentityRotationMs !== undefined && config.telemetryIdentityKey) {
    reader.warnings.push(
      `ignoring ${name('telemetryIdentityRotationMs')}: FORGE_MCP_TELEMETRY_IDENTITY_KEY is set, and a set key does not rotate`,
    );
    config.telemetryIdentityRotationMs = undefined;
  }
  if (config.stateKey && !config.redisUrl) {
    reader.warnings.push(
      `ignoring ${name('stateKey')}: it seals what replicas keep in Redis, and FORGE_MCP_REDIS_URL is not set`,
    );
    config.stateKey = undefined;
  }
  // A 0 window switches its budget off; folded into the limit so "limit > 0" is the one test.
  if (config.authFailureWindowMs === 0) {
    config.authFailureLimit = 0;
    config.authDistinctTokenLimit = 0;
  }
  if (config.authDistinctTokenWindowMs === 0) config.authDistinctTokenLimit = 0;
}

/** Variables of our prefix that name no setting: the demo's own address, read by `npm run demo`. */
const OTHER_VARIABLES = new Set(['FORGE_MCP_DEMO_ADDR']);

/**
 * A FORGE_MCP_ variable this server does not read (a misspelt setting, most likely) is named at WARN with the
 * setting it is nearest to, rather than leaving the setting at its default without a word.
 */
function unknownVariables(variables: Variables): string[] {
  const known = SETTING_IDS.map((id) => settingDef(id).variable).filter((v): v is string => Boolean(v));
  return variables
    .named('FORGE_MCP_')
    .filter(({ name }) => !known.includes(name) && !OTHER_VARIABLES.has(name))
    .map(({ name, file }) => {
      const near = nearestWithin(name, known, 3);
      return `ignoring ${name}${file ? ` (from ${file})` : ''}: this server has no such setting${near ? `; did you mean ${near}?` : ''} (forge-mcp-server --help lists every setting)`;
    });
}

/** Settings read only in OAuth mode. */
const OAUTH_ONLY = [
  'oauthCacheTtlMs',
  'oauthClientUids',
  'resourceDocumentation',
  'resourcePolicyUri',
  'resourceTosUri',
] as const satisfies readonly SettingId[];

/**
 * The secrets `config` holds: the value of every setting whose grammar is secret (the token, the keys, the Redis
 * URL), and the password of a URL among them or among the instance URLs.
 */
export function configSecrets(config: Config): string[] {
  const held = config as unknown as Record<string, unknown>;
  const values = SETTING_IDS.filter((id) => settingDef(id).grammar.secret)
    .map((id) => held[id])
    .filter((v): v is string => typeof v === 'string');
  return [...values, ...[...values, ...config.forgeUrls].flatMap(urlPassword)];
}

export function loadConfig(input: LoadInput): LoadResult {
  const early = earlyCommand(input.argv);
  if (early)
    return { config: assemble(defaults('stdio'), 'stdio'), warnings: [], errors: [], command: early };

  const flags = parseArgv(input.argv);
  const command = chooseCommand(flags);
  const transport = chooseTransport(flags, input.stdinIsPipe);
  const warnings: string[] = [];

  const { variables, envFile } = loadLayers(input, flags, warnings);
  for (const [retired, current] of Object.entries(RETIRED_VARIABLES)) {
    const v = variables.get(retired);
    if (v)
      throw new ConfigError(
        `refusing ${retired}=${JSON.stringify(v.raw)}${v.file ? ` (from ${v.file})` : ''}: release 3.1.0 no longer reads the unprefixed name; accepts ${current} instead`,
      );
  }
  const unread = unreadDotenvWarning(input.cwd);
  if (unread) warnings.push(unread);
  warnings.push(...unknownVariables(variables));

  const reader = new Reader(flags, variables, transport, input);
  reader.warnings.push(...warnings);
  const values = defaults(transport);
  const record = values as Record<SettingId, unknown>;
  for (const id of SETTING_IDS) record[id] = reader.read(id);
  record.envFile = envFile;
  if (transport === 'stdio') checkStdioFlags(reader, flags, values);

  const config = assemble(values, transport);
  applyRules(config, reader, command === 'serve');
  return { config, warnings: reader.warnings, errors: reader.errors, command };
}
