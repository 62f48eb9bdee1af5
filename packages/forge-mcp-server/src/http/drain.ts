/** Shutdown states: draining (health answers 503, calls still served) then closing. */
export class Drain {
  draining = false;
  closing = false;

  start(delayMs: number): Promise<void> {
    this.draining = true;
    return new Promise((resolve) => setTimeout(resolve, delayMs));
  }

  close(): void {
    this.draining = true;
    this.closing = true;
  }
}
