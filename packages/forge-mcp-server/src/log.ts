/** JSON logs on stderr only (stdout belongs to the protocol on stdio). Secrets are redacted by path. */
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino(
    {
      level: level === 'warning' ? 'warn' : level,
      base: { service: 'forge-mcp-server' },
      redact: {
        paths: [
          'token',
          '*.token',
          'headers.authorization',
          'headers["private-token"]',
          '*.authorization',
          'config.token',
        ],
        censor: '[redacted]',
      },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    pino.destination({ fd: 2, sync: true }),
  );
}
