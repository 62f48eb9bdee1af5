/**
 * JSON logs on stderr only (stdout belongs to the protocol on stdio). Secrets are redacted by path.
 * Each record carries its level as a word (debug, info, warn, error).
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { withoutCredentials } from './config/errors.js';

export type { Logger };

/**
 * `mirror`: a second destination that receives the records from INFO up, as written to stderr (telemetry's
 * log export); it is written in the caller's own context, so it sees the request a record belongs to.
 */
export function createLogger(level: string, mirror?: DestinationStream): Logger {
  const stderr = pino.destination({ fd: 2, sync: true });
  const lowest = level === 'warning' ? 'warn' : level;
  return pino(
    {
      level: lowest,
      base: { service: 'forge-mcp-server' },
      // A person reading a client's log sees "level":"warn", not pino's number for it.
      formatters: { level: (label) => ({ level: label }) },
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
    mirror
      ? pino.multistream([
          { level: lowest as pino.Level, stream: stderr },
          { level: 'info', stream: mirror },
        ])
      : stderr,
  );
}

/** A tools/call hook that logs each call at DEBUG; none when DEBUG is off (the level is set once, at start). */
export function toolCallLog(log: Logger): ((info: object) => void) | undefined {
  return log.isLevelEnabled('debug') ? (info) => log.debug(info, 'tools/call') : undefined;
}

/**
 * Node's process warnings (ExperimentalWarning, DeprecationWarning, ...) as WARN records of `log()` instead of
 * Node's own raw lines on stderr, which a reader of the JSON log cannot parse. The record names the warning
 * (its name, and its code when it has one) and its message, a credential in it (a proxy URL's password)
 * redacted. `log` is asked at each warning: the logger may be replaced after start.
 */
export function logProcessWarnings(log: () => Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (w: Error & { code?: string }) => {
    log().warn(
      { warning: w.name, ...(typeof w.code === 'string' ? { code: w.code } : {}) },
      withoutCredentials(`${w.name}: ${w.message}`),
    );
  });
}
