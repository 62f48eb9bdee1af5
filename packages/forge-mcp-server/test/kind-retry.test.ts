/**
 * Stdio's periodic retry of a token kind it could not learn at start: asked again every 15 minutes (and on the
 * first successful call, which fine-grained.test.ts shows through a spawned server). Fifteen minutes cannot be
 * waited for, so the session is opened in this process against forge-sim with the interval timers faked
 * (nothing else: every request to the instance is real) and the clock advanced.
 */
import { homedir } from 'node:os';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config/index.js';
import { KIND_RETRY_MS, openSession } from '../src/session/index.js';
import { sim, until, type ForgeSim } from './harness.js';

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterEach(() => {
  vi.useRealTimers();
  s.clearFaults();
});
afterAll(async () => s.close());

it('stdio asks an unknown token kind again every 15 minutes until it learns it, and only then', async () => {
  expect(KIND_RETRY_MS).toBe(15 * 60_000);
  const token = s.addToken({ kind: 'personal', scopes: ['read_user'] });
  const { config } = loadConfig({
    argv: ['--tier=ultimate'],
    env: { FORGE_URL: s.url, FORGE_TOKEN: token },
    cwd: process.cwd(),
    home: homedir(),
    stdinIsPipe: true,
  });
  expect(config.transport).toBe('stdio');
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  /** The token's own description: asked at start and at each retry (503 at start and at the first retry). */
  const asked = () =>
    s.requests.filter((q) => q.path === '/api/v4/personal_access_tokens/self' && q.token === token).length;
  s.fault({ path: '/api/v4/personal_access_tokens/self', status: 503, times: 2 });
  const session = await openSession({
    config,
    baseUrl: s.url,
    token,
    tokenHeader: 'private-token',
    tokenLabel: 'FORGE_TOKEN',
  });
  expect(session.kindUnknown).toBe(true);
  expect(session.refusal).toBeUndefined();
  expect(asked()).toBe(1);
  // Each retry, counted as the timer makes it (its request to the instance lands later).
  const relearn = session.relearnKind;
  let retries = 0;
  session.relearnKind = () => {
    retries++;
    return relearn();
  };
  // Not asked before the 15 minutes are up.
  await vi.advanceTimersByTimeAsync(KIND_RETRY_MS - 1);
  expect(retries).toBe(0);
  // At 15 minutes it is asked again; still failing, it stays unknown.
  await vi.advanceTimersByTimeAsync(1);
  expect(retries).toBe(1);
  await until(() => asked() === 2, 'the first retry');
  await until(() => s.requests.filter((q) => q.token === token).at(-1)!.status === 503, 'its answer');
  expect(session.kindUnknown).toBe(true);
  // At 30 minutes it is asked again and learned: a classic token below the minimum, refused from now on.
  await vi.advanceTimersByTimeAsync(KIND_RETRY_MS);
  expect(retries).toBe(2);
  await until(() => session.refusal !== undefined, 'the kind learned');
  expect(asked()).toBe(3);
  expect(session.kindUnknown).toBe(false);
  expect(session.refusal).toContain('carries neither the api nor the read_api scope (it has: read_user)');
  // Learned: the timer stops and nothing is asked again.
  const learnedAfter = retries;
  await vi.advanceTimersByTimeAsync(4 * KIND_RETRY_MS);
  expect(retries).toBe(learnedAfter);
  expect(asked()).toBe(3);
});
