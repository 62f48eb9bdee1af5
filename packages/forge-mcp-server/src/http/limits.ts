/**
 * Per-credential rate limits (HTTP mode). Token buckets per credential digest and method family:
 * calls (tools/call, resources/read, resources/subscribe, subscriptions/listen, prompts/get) at the
 * configured rate and burst; completion/complete at ten times both; tools/list refilled a tenth as fast
 * and also charged to one process-wide bucket (3000 per second, 48000 in hand). Other methods
 * (initialize, notifications, ping, the other lists) are not charged. Pure: the clock is injected.
 */

export type Family = 'call' | 'completion' | 'list';

const FAMILY: Readonly<Record<string, Family>> = {
  'tools/call': 'call',
  'resources/read': 'call',
  'resources/subscribe': 'call',
  'subscriptions/listen': 'call',
  'prompts/get': 'call',
  'completion/complete': 'completion',
  'tools/list': 'list',
};

export function familyOf(method: string | undefined): Family | undefined {
  return method === undefined ? undefined : FAMILY[method];
}

/** The JSON-RPC methods of a parsed body, one per message of a batch. */
/** The JSON-RPC error code of a rate-limit refusal (HTTP 429's body, stdio's answer). */
export const RATE_LIMITED_CODE = -42900;

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

export function methodsOf(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  const out: string[] = [];
  for (const m of messages) {
    const method = (m as { method?: unknown } | null | undefined)?.method;
    if (typeof method === 'string') out.push(method);
  }
  return out;
}

export const GLOBAL_LIST_RATE = 3000;
export const GLOBAL_LIST_BURST = 48000;
/** Keys kept at most; the least recently used go first beyond it. */
export const MAX_LIMITER_KEYS = 100_000;
const SWEEP_EVERY_MS = 60_000;

interface Spec {
  rate: number;
  burst: number;
}

/** A token bucket: `tokens` in hand as of `at` (ms). */
export class Bucket {
  tokens: number;
  at: number;
  constructor(
    readonly spec: Spec,
    now: number,
  ) {
    this.tokens = spec.burst;
    this.at = now;
  }

  level(now: number): number {
    const elapsed = Math.max(0, now - this.at) / 1000;
    return Math.min(this.spec.burst, this.tokens + elapsed * this.spec.rate);
  }

  /** Milliseconds until `n` tokens are in hand (0: now; Infinity: never, n exceeds the burst). */
  waitFor(n: number, now: number): number {
    if (n <= 0) return 0;
    const have = this.level(now);
    if (have >= n) return 0;
    if (n > this.spec.burst || this.spec.rate <= 0) return Infinity;
    return ((n - have) / this.spec.rate) * 1000;
  }

  take(n: number, now: number): void {
    this.tokens = this.level(now) - n;
    this.at = now;
  }

  /** True once the bucket has refilled completely: it is then the same as a fresh one. */
  full(now: number): boolean {
    return this.level(now) >= this.spec.burst;
  }
}

export type Verdict =
  | { ok: true }
  | {
      ok: false;
      /** Whole seconds to wait (at least 1); for a batch larger than the burst, the time to a full bucket. */
      retryAfterS: number;
      family: Family | 'global';
      /** A batch asks for more than the bucket can ever hold. */
      tooLarge: boolean;
    };

export interface LimiterOptions {
  rps: number;
  burst: number;
  now?: () => number;
  maxKeys?: number;
}

type Buckets = Partial<Record<Family, Bucket>>;

export class RateLimiter {
  private readonly keys = new Map<string, Buckets>();
  private readonly global: Bucket;
  private readonly specs: Record<Family, Spec>;
  private readonly now: () => number;
  private readonly maxKeys: number;
  private lastSweep: number;
  readonly enabled: boolean;

  constructor(opts: LimiterOptions) {
    this.now = opts.now ?? Date.now;
    this.maxKeys = opts.maxKeys ?? MAX_LIMITER_KEYS;
    this.specs = {
      call: { rate: opts.rps, burst: opts.burst },
      completion: { rate: opts.rps * 10, burst: opts.burst * 10 },
      list: { rate: opts.rps / 10, burst: opts.burst },
    };
    const now = this.now();
    this.global = new Bucket({ rate: GLOBAL_LIST_RATE, burst: GLOBAL_LIST_BURST }, now);
    this.lastSweep = now;
    this.enabled = opts.rps > 0;
  }

  /**
   * Charges the methods of one request (a batch charges each) to `key`'s buckets, all or nothing: a
   * refused request takes no token.
   */
  charge(key: string, methods: string[]): Verdict {
    if (!this.enabled) return { ok: true };
    const need: Partial<Record<Family, number>> = {};
    for (const m of methods) {
      const f = familyOf(m);
      if (f) need[f] = (need[f] ?? 0) + 1;
    }
    const families = Object.keys(need) as Family[];
    if (families.length === 0) return { ok: true };
    const now = this.now();
    this.sweep(now);
    let buckets = this.keys.get(key);
    if (buckets) this.keys.delete(key);
    else buckets = {};
    this.keys.set(key, buckets);
    while (this.keys.size > this.maxKeys) this.keys.delete(this.keys.keys().next().value as string);

    let worst: { wait: number; family: Family | 'global'; bucket: Bucket } | undefined;
    const consider = (family: Family | 'global', bucket: Bucket, n: number) => {
      const wait = bucket.waitFor(n, now);
      if (wait > 0 && (!worst || wait > worst.wait)) worst = { wait, family, bucket };
    };
    for (const f of families) {
      buckets[f] ??= new Bucket(this.specs[f], now);
      consider(f, buckets[f], need[f]!);
    }
    if (need.list) consider('global', this.global, need.list);
    if (worst) {
      const tooLarge = worst.wait === Infinity;
      const spec = worst.bucket.spec;
      const wait = tooLarge
        ? spec.rate > 0
          ? ((spec.burst - worst.bucket.level(now)) / spec.rate) * 1000
          : 1000
        : worst.wait;
      return {
        ok: false,
        retryAfterS: Math.max(1, Math.ceil(wait / 1000)),
        family: worst.family,
        tooLarge,
      };
    }
    for (const f of families) buckets[f]!.take(need[f]!, now);
    if (need.list) this.global.take(need.list, now);
    return { ok: true };
  }

  /** Credentials currently tracked (a fully refilled credential is forgotten at the next sweep). */
  get size(): number {
    return this.keys.size;
  }

  /** Forgets credentials whose buckets have all refilled: they are the same as fresh ones. */
  sweep(now = this.now(), force = false): void {
    if (!force && now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    for (const [key, buckets] of this.keys) {
      if (Object.values(buckets).every((b) => b.full(now))) this.keys.delete(key);
    }
  }
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
