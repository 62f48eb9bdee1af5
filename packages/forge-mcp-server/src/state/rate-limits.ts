/**
 * Per-credential rate limits (HTTP mode; stdio holds one credential's). Token buckets per credential digest
 * and method family: calls (tools/call, resources/read, resources/subscribe, subscriptions/listen,
 * prompts/get) at the configured rate and burst; completion/complete at ten times both; tools/list refilled a
 * tenth as fast and also charged to one process-wide bucket (3000 per second, 48000 in hand). Other methods
 * (initialize, notifications, ping, the other lists) are not charged. Pure: the clock is injected.
 *
 * This is the in-memory implementation of the state port's RateLimitStore (wrapped by memoryState); the
 * shared adapter charges the same buckets in Redis, and reads the families and their specs from here.
 */
import type { Family, Verdict } from './types.js';

export type { Family, Verdict } from './types.js';

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

/** How many of each family a request's methods charge (a batch charges each message). */
export function needOf(methods: string[]): Partial<Record<Family, number>> {
  const need: Partial<Record<Family, number>> = {};
  for (const m of methods) {
    const f = familyOf(m);
    if (f) need[f] = (need[f] ?? 0) + 1;
  }
  return need;
}

export interface Spec {
  rate: number;
  burst: number;
}

/** Each family's bucket for a configured rate and burst. */
export function familySpecs(rps: number, burst: number): Record<Family, Spec> {
  return {
    call: { rate: rps, burst },
    completion: { rate: rps * 10, burst: burst * 10 },
    list: { rate: rps / 10, burst },
  };
}

export const GLOBAL_LIST_RATE = 3000;
export const GLOBAL_LIST_BURST = 48000;
/** Keys kept at most; the least recently used go first beyond it. */
export const MAX_LIMITER_KEYS = 100_000;
const SWEEP_EVERY_MS = 60_000;

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
    this.specs = familySpecs(opts.rps, opts.burst);
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
    const need = needOf(methods);
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
