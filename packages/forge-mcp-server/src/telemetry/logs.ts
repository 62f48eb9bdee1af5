/**
 * The log export: the logger mirrors its records from INFO up into this stream (as the JSON lines it
 * writes to stderr), and each becomes an OpenTelemetry log record in the context it was written in, so
 * records written within a request carry its trace and span IDs. Identity fields follow the identity
 * policy (stderr keeps them); the credential digest and refused Host values never leave.
 */
import type { Logger as OtelLogger } from '@opentelemetry/api-logs';
import { SeverityNumber } from '@opentelemetry/api-logs';
import type { StoreContextManager } from './context.js';
import type { IdentityPolicy } from './identity.js';

/** pino's numeric levels. */
const SEVERITY: Record<number, [SeverityNumber, string]> = {
  30: [SeverityNumber.INFO, 'INFO'],
  40: [SeverityNumber.WARN, 'WARN'],
  50: [SeverityNumber.ERROR, 'ERROR'],
  60: [SeverityNumber.FATAL, 'FATAL'],
};

/** The level words the logger writes, as pino's numbers. */
const LEVEL_NUMBER: Record<string, number> = { info: 30, warn: 40, error: 50, fatal: 60 };

/** Fields the stderr line carries that the export has elsewhere (resource, timestamp, severity). */
const ENVELOPE = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname']);

/** Fields that never leave the process: credential digests, refused Host values, error texts. */
const NEVER_EXPORTED = new Set([
  'credential',
  'key',
  'digest',
  'credential_digest',
  'host',
  'refused_host',
  // Error messages may quote what the instance answered.
  'err',
  'error',
]);

/** Caller identity on stderr: user name, user id; and the client address. */
const IDENTITY = new Set(['user', 'username', 'user_id', 'address']);

export class LogMirror {
  private closed = false;

  constructor(
    private readonly logger: OtelLogger,
    private readonly contexts: StoreContextManager,
    private readonly identity: IdentityPolicy,
  ) {}

  /** pino's destination interface: one JSON line per call, written synchronously in the caller's context. */
  write(line: string): void {
    if (this.closed) return;
    try {
      const record = JSON.parse(line) as unknown;
      if (record && typeof record === 'object' && !Array.isArray(record))
        this.emit(record as Record<string, unknown>);
    } catch {
      /* a record that cannot be read is not exported */
    }
  }

  close(): void {
    this.closed = true;
  }

  private emit(record: Record<string, unknown>): void {
    // Records carry their level as a word (src/log.ts); a number is pino's own spelling.
    const level =
      typeof record.level === 'number' ? record.level : (LEVEL_NUMBER[String(record.level)] ?? 30);
    const severity = SEVERITY[level];
    if (!severity) return;
    const attributes: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record)) {
      if (ENVELOPE.has(k) || NEVER_EXPORTED.has(k) || IDENTITY.has(k)) continue;
      attributes[k] = v;
    }
    const id = typeof record.user_id === 'number' ? record.user_id : undefined;
    const username = typeof record.user === 'string' ? record.user : undefined;
    if (id !== undefined || username !== undefined)
      Object.assign(attributes, this.identity.caller({ id, username }));
    if (this.identity.name === 'full' && typeof record.address === 'string')
      attributes['client.address'] = record.address;
    const time = typeof record.time === 'string' ? Date.parse(record.time) : Date.now();
    this.logger.emit({
      severityNumber: severity[0],
      severityText: severity[1],
      body: typeof record.msg === 'string' ? record.msg : '',
      attributes: attributes as never,
      timestamp: Number.isFinite(time) ? time : Date.now(),
      context: this.contexts.active(),
    });
  }
}
