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

export interface ClientLog {
  /** Whether this request's client takes records at this level (so a record is made only when it does). */
  wants(ctx: ServerContext, level: LoggingLevel): boolean;
  send(ctx: ServerContext, level: LoggingLevel, data: Record<string, unknown>): void;
}

export function clientLog(server: Server, logger: string): ClientLog {
  let asked: LoggingLevel | undefined;
  server.setRequestHandler('logging/setLevel', async (request) => {
    asked = request.params.level;
    return {};
  });
  return {
    wants(ctx, level) {
      const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
      if (envelope?.[LOG_LEVEL_META_KEY] !== undefined) return true;
      return asked !== undefined && SEVERITY.indexOf(level) >= SEVERITY.indexOf(asked);
    },
    send(ctx, level, data) {
      void ctx.mcpReq.log(level, data, logger).catch(() => undefined);
    },
  };
}
