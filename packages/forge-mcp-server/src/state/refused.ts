/**
 * Refused-token memory (OAuth mode): tokens refused in the last five minutes, by credential digest, so a
 * repeat is answered without asking the instance again. At most 4,096 entries, oldest first out.
 */
import type { RefusalKind, RefusedTokenStore } from './types.js';

export const REFUSED_MEMORY_MS = 5 * 60_000;
export const REFUSED_MEMORY_MAX = 4096;

export class MemoryRefusedTokens implements RefusedTokenStore {
  private readonly entries = new Map<string, { until: number; kind: RefusalKind }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly max = REFUSED_MEMORY_MAX,
  ) {}

  async get(key: string): Promise<RefusalKind | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.kind;
  }

  async remember(key: string, kind: RefusalKind): Promise<void> {
    this.entries.delete(key);
    // Oldest first out; the expired ones are at the front, having been added first.
    while (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { until: this.now() + REFUSED_MEMORY_MS, kind });
  }

  get size(): number {
    return this.entries.size;
  }
}
