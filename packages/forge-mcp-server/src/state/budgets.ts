/**
 * Authentication budgets per client address (HTTP mode). A failure budget (refused credentials per
 * failure window, repeats included; the failure that spends it starts the block) and a distinct-credential budget (different refused credentials
 * per its own window). Spending either blocks the address: one failure window, then ten, then sixty
 * (it stops there); sixty failure windows of silence reset the escalation. While blocked, a request
 * presenting a credential the server does not hold is answered 429; held credentials keep working
 * (the caller decides that). Pure: the clock is injected. Memory is bounded: idle addresses are
 * forgotten and at most `maxAddresses` are kept (least recently seen first out).
 *
 * This is the in-memory implementation of the state port's BudgetStore (wrapped by memoryState); the shared
 * adapter keeps the same entries in Redis.
 */

import type { Block, BlockReason } from './types.js';

export type { Block, BlockReason } from './types.js';

export interface BudgetOptions {
  failureLimit: number;
  failureWindowMs: number;
  distinctLimit: number;
  distinctWindowMs: number;
  now?: () => number;
  maxAddresses?: number;
}

/** Block lengths in failure windows, by escalation step. */
export const ESCALATION = [1, 10, 60] as const;
/** Failure windows of silence after which the escalation starts over. */
export const RESET_AFTER_WINDOWS = 60;
export const MAX_BUDGET_ADDRESSES = 100_000;
const SWEEP_EVERY_MS = 60_000;

interface Entry {
  /** Times of the failures in the current failure window (at most failureLimit). */
  failures: number[];
  /** Refused credential digests and when each was last refused (at most distinctLimit). */
  distinct: Map<string, number>;
  /** Blocked until this time (ms); 0 when never blocked. */
  blockedUntil: number;
  /** Blocks so far in this escalation (0 to 3). */
  step: number;
  /** Last failure or blocked attempt: silence is measured from here. */
  lastSeen: number;
}

export class AuthBudgets {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly maxAddresses: number;
  private lastSweep: number;
  readonly enabled: boolean;

  constructor(private readonly opts: BudgetOptions) {
    this.now = opts.now ?? Date.now;
    this.maxAddresses = opts.maxAddresses ?? MAX_BUDGET_ADDRESSES;
    this.lastSweep = this.now();
    this.enabled =
      opts.failureWindowMs > 0 &&
      (opts.failureLimit > 0 || (opts.distinctLimit > 0 && opts.distinctWindowMs > 0));
  }

  /** Whole seconds left on the block in force at `address`, or 0 when it is not blocked. */
  blocked(address: string): number {
    if (!this.enabled) return 0;
    const e = this.entries.get(address);
    const now = this.now();
    if (!e || e.blockedUntil <= now) return 0;
    e.lastSeen = now;
    return Math.max(1, Math.ceil((e.blockedUntil - now) / 1000));
  }

  /**
   * Charges one refused credential (by digest) to `address`. Returns the block it starts, if any.
   * Charges during a block are ignored (the caller answers 429 before reaching the instance).
   */
  fail(address: string, digest: string): Block | undefined {
    if (!this.enabled) return undefined;
    const now = this.now();
    this.sweep(now);
    const o = this.opts;
    let e = this.entries.get(address);
    if (e) this.entries.delete(address);
    else e = { failures: [], distinct: new Map(), blockedUntil: 0, step: 0, lastSeen: now };
    this.entries.set(address, e);
    while (this.entries.size > this.maxAddresses)
      this.entries.delete(this.entries.keys().next().value as string);

    if (e.blockedUntil > now) {
      e.lastSeen = now;
      return undefined;
    }
    if (now - e.lastSeen >= RESET_AFTER_WINDOWS * o.failureWindowMs) e.step = 0;
    e.lastSeen = now;

    let reason: BlockReason | undefined;
    if (o.failureLimit > 0) {
      e.failures = e.failures.filter((t) => now - t < o.failureWindowMs);
      e.failures.push(now);
      if (e.failures.length >= o.failureLimit) reason = 'failure_lockout';
    }
    if (o.distinctLimit > 0 && o.distinctWindowMs > 0) {
      for (const [d, t] of e.distinct) if (now - t >= o.distinctWindowMs) e.distinct.delete(d);
      e.distinct.delete(digest);
      e.distinct.set(digest, now);
      if (!reason && e.distinct.size >= o.distinctLimit) reason = 'distinct_tokens';
    }
    if (!reason) return undefined;
    const windows = ESCALATION[Math.min(e.step, ESCALATION.length - 1)];
    e.step = Math.min(e.step + 1, ESCALATION.length);
    e.blockedUntil = Math.max(e.blockedUntil, now + windows * o.failureWindowMs);
    e.failures = [];
    e.distinct.clear();
    return {
      reason,
      step: e.step,
      retryAfterS: Math.max(1, Math.ceil((e.blockedUntil - now) / 1000)),
    };
  }

  /** Addresses currently tracked. */
  get size(): number {
    return this.entries.size;
  }

  /** Forgets addresses with nothing left to remember: no block, no escalation, no charge in a window. */
  sweep(now = this.now(), force = false): void {
    if (!force && now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    const o = this.opts;
    const longest = Math.max(o.failureWindowMs, o.distinctWindowMs);
    for (const [address, e] of this.entries) {
      if (e.blockedUntil > now) continue;
      const silent = now - e.lastSeen;
      if (e.step > 0 && silent < RESET_AFTER_WINDOWS * o.failureWindowMs) continue;
      if (silent < longest) continue;
      this.entries.delete(address);
    }
  }
}
