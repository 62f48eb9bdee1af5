/**
 * Time in tests that cannot wait for it: a server process whose wall clock the test moves forward
 * (fixtures/shifted-clock.cjs, preloaded; nothing of it is in the product), and what a Retry-After may read
 * once some real time has passed, however slow the machine.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, onTestFinished } from 'vitest';
import { until, type HttpServerAt } from './harness.js';

const PRELOAD = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'shifted-clock.cjs');

/**
 * The wall clock of one server process, moved forward by the test. A frozen one stands still between the test's
 * moves (for counts that refill with time: nothing refills however slowly the machine serves).
 */
export class ShiftedClock {
  private readonly dir = mkdtempSync(join(tmpdir(), 'forge-test-clock-'));
  private readonly file = join(this.dir, 'offset');
  private offsetMs = 0;
  private server?: HttpServerAt;

  /** Made within a test: its file is removed when the test ends. */
  constructor(private readonly o: { frozen?: boolean } = {}) {
    writeFileSync(this.file, '0');
    onTestFinished(() => rmSync(this.dir, { recursive: true, force: true }));
  }

  /** The environment that gives a server this clock (merge it into the server's env). */
  env(): Record<string, string> {
    return {
      NODE_OPTIONS: `--require=${PRELOAD}`,
      FORGE_TEST_CLOCK_FILE: this.file,
      ...(this.o.frozen ? { FORGE_TEST_CLOCK_FROZEN: '1' } : {}),
    };
  }

  /** The server started with env(): the process forward() moves. */
  of(server: HttpServerAt): HttpServerAt {
    this.server = server;
    return server;
  }

  /** Moves the server's clock `ms` further forward; resolves once the server has taken the new time. */
  async forward(ms: number): Promise<void> {
    const server = this.server;
    if (!server) throw new Error('ShiftedClock.forward: no server (call of() first)');
    this.offsetMs += ms;
    writeFileSync(this.file, String(this.offsetMs));
    server.signal('SIGUSR2');
    const ack = `{"testClockOffsetMs":${this.offsetMs}}`;
    await until(() => server.stderr().includes(ack), `the server clock to move to +${this.offsetMs} ms`);
  }
}

/**
 * Asserts the Retry-After of `res` counts down a wait of `seconds` that began no earlier than `since` (the test's
 * Date.now() taken before sending the request that started it): at most `seconds`, and at least what is left of
 * it now. A value rounded down, or a wait of another length, fails on any machine that answers within a second;
 * a slow machine only widens the range.
 */
export function expectRetryAfter(res: Response, seconds: number, since: number): void {
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter), `Retry-After ${res.headers.get('retry-after')}`).toBe(true);
  expect(retryAfter).toBeLessThanOrEqual(seconds);
  expect(retryAfter).toBeGreaterThanOrEqual(seconds - (Date.now() - since) / 1000);
}
