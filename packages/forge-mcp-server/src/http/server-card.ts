/**
 * The server card at /.well-known/mcp/server-card.json and /server-card: public and cacheable, revalidated
 * through its ETag. No telemetry block while telemetry is off; the collector's address is never in it.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config/types.js';
import { SECURITY_HEADERS, headerOf } from './headers.js';

export const SERVER_CARD_PATHS = ['/.well-known/mcp/server-card.json', '/server-card'];
export const SERVER_CARD_CACHE = 'public, max-age=3600';

const DYNAMIC_TOOLS = ['forge_find_action', 'forge_execute_action'];

export function serverCard(config: Config, version: string, mcpPath: string): Record<string, unknown> {
  return {
    name: 'forge-mcp-server',
    version,
    title: 'Forge MCP Server',
    description:
      'MCP server for a code-hosting instance: actions run as the token owner over REST and GraphQL',
    transport: {
      type: 'streamable-http',
      endpoint: config.publicUrl ?? mcpPath,
      protocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'],
    },
    authentication: {
      mode: config.authMode,
      headers: config.authMode === 'legacy' ? ['Authorization', 'PRIVATE-TOKEN'] : ['Authorization'],
    },
    tools: {
      surface: config.toolSurface,
      ...(config.toolSurface === 'dynamic' ? { names: DYNAMIC_TOOLS } : {}),
      readOnly: config.readOnly,
    },
    capabilities: { tools: { listChanged: false } },
    instances: config.forgeUrls.length > 1 ? { selectBy: 'FORGE-URL' } : undefined,
    telemetry: telemetryBlock(config),
  };
}

const RECORDED =
  'one span per MCP request (method, tool, action, domain, surface, transport, protocol version, error type, ' +
  'refusal reason), a child span per instance call (method, host, port, status, route template) and one span ' +
  'per inbound HTTP request; durations in seconds of MCP operations, sessions and HTTP requests, credential ' +
  'pool size and evictions, authentication blocks; log records from INFO up';

const IDENTITY_RECORDED: Record<Config['telemetryIdentity'], string> = {
  none: 'no caller identity',
  pseudonymous:
    'callers as user.hash and resources as forge_mcp.resource.ref (HMAC-SHA256 pseudonyms), on spans and logs only',
  full: 'callers as user.id and user.name and resources as mcp.resource.uri, on spans and logs only',
};

const NOT_RECORDED =
  'tool arguments and results, resource contents, tokens and headers, response bodies and error messages, ' +
  'full URLs, JSON-RPC request ids; caller identity on metrics';

const SIGNAL_NAMES = ['traces', 'metrics', 'logs'] as const;

/**
 * The OTLP protocol of the export, as the standard variables choose it for each signal (a signal's own
 * variable over the general one): one name when all three agree, else each name with its signals.
 */
function protocolOf(env: Record<string, string | undefined>): string {
  const read = (name: string) => env[name]?.trim().toLowerCase() || undefined;
  const general = read('OTEL_EXPORTER_OTLP_PROTOCOL');
  const bySignal = SIGNAL_NAMES.map((signal) =>
    (read(`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_PROTOCOL`) ?? general) === 'grpc'
      ? 'OTLP/gRPC'
      : 'OTLP/HTTP (protobuf)',
  );
  const names = [...new Set(bySignal)];
  if (names.length === 1) return names[0]!;
  return names
    .map((name) => {
      const signals = SIGNAL_NAMES.filter((_, i) => bySignal[i] === name);
      return `${name} for ${signals.length > 1 ? `${signals.slice(0, -1).join(', ')} and ${signals.at(-1)}` : signals[0]}`;
    })
    .join('; ');
}

/** The telemetry block: what an operator's collector receives, never where it is. Absent when off. */
export function telemetryBlock(
  config: Config,
  env: Record<string, string | undefined> = process.env,
): Record<string, unknown> | undefined {
  if (!config.telemetry) return undefined;
  return {
    enabled: true,
    signals: [...SIGNAL_NAMES],
    protocol: protocolOf(env),
    conventions:
      'OpenTelemetry semantic conventions (MCP, HTTP, GenAI); server-specific attributes under forge_mcp.*',
    recorded: `${RECORDED}; ${IDENTITY_RECORDED[config.telemetryIdentity]}`,
    not_recorded:
      config.telemetryIdentity === 'none' ? `${NOT_RECORDED}; caller identity anywhere` : NOT_RECORDED,
  };
}

/** A strong validator of the card's bytes. */
export function etagOf(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === etag);
}

export function serverCardResponder(text: string): (req: IncomingMessage, res: ServerResponse) => void {
  const etag = etagOf(text);
  return (req, res) => {
    const headers = { ...SECURITY_HEADERS, 'cache-control': SERVER_CARD_CACHE, etag };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...SECURITY_HEADERS, allow: 'GET, HEAD', 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'method not allowed' }));
      return;
    }
    if (matches(headerOf(req.headers['if-none-match']), etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    res.writeHead(200, { ...headers, 'content-type': 'application/json' });
    res.end(req.method === 'HEAD' ? undefined : text);
  };
}
