/**
 * What the rate limits read of a request (its methods, the tool it names) and the throttled refusal log. The
 * limits themselves (token buckets per credential and method family) sit behind the state port
 * (state/rate-limits.ts), re-exported here for stdio, which always holds them in memory.
 */
export {
  familyOf,
  GLOBAL_LIST_BURST,
  GLOBAL_LIST_RATE,
  MAX_LIMITER_KEYS,
  RateLimiter,
  type Family,
  type Verdict,
} from '../state/rate-limits.js';

/** The JSON-RPC error code of a rate-limit refusal (HTTP 429's body, stdio's answer). */
export const RATE_LIMITED_CODE = -42900;

/**
 * The most messages one JSON-RPC batch may hold, and the SDK's answer past it. Checked before the rate limits
 * charge anything: a batch refused whole is no request served.
 */
export const MAX_BATCH_MESSAGES = 100;
export const BATCH_TOO_LARGE = `Invalid Request: Batch must not exceed ${MAX_BATCH_MESSAGES} messages`;

/** The method of one JSON-RPC message, if it names one. */
export function methodOf(body: unknown): string | undefined {
  const m = (body as { method?: unknown } | undefined)?.method;
  return typeof m === 'string' ? m : undefined;
}

/** The tool a tools/call names. */
export function toolNameOf(body: unknown): string | undefined {
  if (methodOf(body) !== 'tools/call') return undefined;
  const name = (body as { params?: { name?: unknown } }).params?.name;
  return typeof name === 'string' ? name : undefined;
}

/** The JSON-RPC methods of a parsed body, one per message of a batch. */
export function methodsOf(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  const out: string[] = [];
  for (const m of messages) {
    const method = (m as { method?: unknown } | null | undefined)?.method;
    if (typeof method === 'string') out.push(method);
  }
  return out;
}

/**
 * At most one log line per period (ten seconds): the first event logs, the rest are counted and the
 * count rides on the next line.
 */
export class ThrottledLog {
  private last = -Infinity;
  private suppressed = 0;
  constructor(
    private readonly periodMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Calls `write` with the number of events suppressed since the last line, or counts this one. */
  event(write: (suppressed: number) => void): boolean {
    const now = this.now();
    if (now - this.last < this.periodMs) {
      this.suppressed++;
      return false;
    }
    this.last = now;
    const n = this.suppressed;
    this.suppressed = 0;
    write(n);
    return true;
  }
}
