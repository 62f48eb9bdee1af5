/**
 * Call slots: at most `max` MCP calls held at once (192 under a hard descriptor limit of 1024; descriptors.ts
 * says how the limit sets it); beyond that a call is answered 503 'server is busy' with Retry-After.
 */
import type { ServerResponse } from 'node:http';

export const BUSY_RETRY_AFTER_S = 1;

export class CallSlots {
  private held = 0;
  private readonly waiters = new Set<() => void>();
  constructor(readonly max: number) {}

  /** Takes a slot until `res` closes; false when every slot is held. */
  acquire(res: ServerResponse): boolean {
    if (this.held >= this.max) return false;
    this.held++;
    res.once('close', () => {
      if (--this.held > 0) return;
      for (const w of this.waiters) w();
      this.waiters.clear();
    });
    return true;
  }

  /** Resolves true once no slot is held, or false when `withinMs` passes first. */
  idle(withinMs: number): Promise<boolean> {
    if (this.held === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(done);
        resolve(false);
      }, withinMs);
      this.waiters.add(done);
    });
  }

  get inUse(): number {
    return this.held;
  }
}
