/**
 * The verified identity cache (OAuth mode): identities by credential digest (SHA-256 of instance and token),
 * holding user id, username, scopes and until when the verification counts. No token material.
 *
 * At most 10,000 identities; a new one arriving at a full cache drops an expired identity if there is one,
 * else the least recently used. A sweep removes expired identities every quarter of the TTL, at most every 30 s.
 */
import type { IdentityStore, VerifiedIdentity } from './types.js';

export const IDENTITY_CACHE_MAX = 10_000;
const SWEEP_FLOOR_MS = 30_000;

/** The sweep period for a TTL: a quarter of it, never more often than every 30 s. */
export function sweepEvery(ttlMs: number): number {
  return Math.max(SWEEP_FLOOR_MS, Math.floor(ttlMs / 4));
}

/** In-memory identity cache; least recently used first (Map order). */
export class MemoryIdentityStore implements IdentityStore {
  private readonly entries = new Map<string, VerifiedIdentity>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly ttlMs: number,
    private readonly max = IDENTITY_CACHE_MAX,
    private readonly now: () => number = Date.now,
  ) {
    this.timer = setInterval(() => this.sweep(), sweepEvery(ttlMs));
    this.timer.unref();
  }

  async fresh(key: string): Promise<VerifiedIdentity | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry;
  }

  async remember(
    key: string,
    identity: Omit<VerifiedIdentity, 'expiresAt'>,
    tokenExpiresAt?: number,
  ): Promise<void> {
    const ttlEnd = this.now() + this.ttlMs;
    const expiresAt = tokenExpiresAt === undefined ? ttlEnd : Math.min(ttlEnd, tokenExpiresAt);
    if (expiresAt <= this.now()) return;
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.evictOne();
    this.entries.set(key, { ...identity, expiresAt });
  }

  async forget(key: string): Promise<void> {
    this.entries.delete(key);
  }

  /** Drops an expired identity if there is one, else the least recently used. */
  private evictOne(): void {
    const now = this.now();
    for (const [k, v] of this.entries) {
      if (v.expiresAt <= now) {
        this.entries.delete(k);
        return;
      }
    }
    const oldest = this.entries.keys().next().value;
    if (oldest !== undefined) this.entries.delete(oldest);
  }

  /** Removes every expired identity (run by the timer; tests call it with an injected clock). */
  sweep(): void {
    const now = this.now();
    for (const [k, v] of this.entries) if (v.expiresAt <= now) this.entries.delete(k);
  }

  /** Whether the key is held, expired or not, without touching its recency (for tests and gauges). */
  holds(key: string): boolean {
    return this.entries.has(key);
  }

  get size(): number {
    return this.entries.size;
  }

  close(): void {
    clearInterval(this.timer);
  }
}
