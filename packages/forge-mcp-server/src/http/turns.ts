/**
 * Credential checks: opening a session for a token the server does not hold yet costs the instance several
 * requests, so at most 16 run at once per process, in either door; a new token waits up to 5 s for a turn and
 * is then answered 503 with Retry-After (uncharged), nothing sent to the instance.
 */

/** Verifications of uncached tokens under way at once, per process, and how long a new one waits for a turn. */
export const VERIFICATION_SLOTS = 16;
export const VERIFICATION_WAIT_MS = 5_000;

/** A counting semaphore whose waiters give up after a deadline. */
export class Turns {
  private held = 0;
  private readonly queue: Array<() => void> = [];
  constructor(private readonly max: number) {}

  /** Resolves true with a turn taken, or false when none came within `waitMs`. */
  take(waitMs: number): Promise<boolean> {
    if (this.held < this.max) {
      this.held += 1;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const grant = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const i = this.queue.indexOf(grant);
        if (i >= 0) this.queue.splice(i, 1);
        resolve(false);
      }, waitMs);
      timer.unref();
      this.queue.push(grant);
    });
  }

  /** Hands the turn to the next waiter, or frees it. */
  give(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.held -= 1;
  }
}
