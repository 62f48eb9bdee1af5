/**
 * Log records sent to the client (the logging capability). A client gets records only at or above the
 * level it asked for: per request in 2026-07-28 (the envelope's level, applied by the SDK), through
 * logging/setLevel before. A client that never asked gets none, so its answers stay plain JSON.
 * Records carry what the server did, never arguments, results or credentials.
 */
import {
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';

const SEVERITY: LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

export type ClientLog = (ctx: ServerContext, level: LoggingLevel, data: Record<string, unknown>) => void;

export function clientLog(server: Server, logger: string): ClientLog {
  let asked: LoggingLevel | undefined;
  server.setRequestHandler('logging/setLevel', async (request) => {
    asked = request.params.level;
    return {};
  });
  return (ctx, level, data) => {
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    const modern = envelope?.[LOG_LEVEL_META_KEY] !== undefined;
    if (!modern && (asked === undefined || SEVERITY.indexOf(level) < SEVERITY.indexOf(asked))) return;
    void ctx.mcpReq.log(level, data, logger).catch(() => undefined);
  };
}
