/**
 * Authentication budgets over both adapters of the state port (in memory, and Redis against a real
 * redis-server), with an injected clock; the memory adapter's own bounds at the end.
 */
import { describe, expect, it } from 'vitest';
import { ADAPTERS, useAdapters } from '../../test/state-adapters.js';
import { AuthBudgets, type BudgetOptions } from './budgets.js';

const MIN = 60_000;

function clock(start = 1_000_000) {
  const c = { t: start, now: () => c.t, advance: (ms: number) => (c.t += ms) };
  return c;
}

const LIMITS = { failureLimit: 3, failureWindowMs: MIN, distinctLimit: 0, distinctWindowMs: 0 };

useAdapters();

describe.each(ADAPTERS)('authentication budgets ($name adapter)', (adapter) => {
  if (adapter.skip) return void it.skip(adapter.skip, () => undefined);
  const budgets = async (c: ReturnType<typeof clock>, over: Partial<BudgetOptions> = {}) =>
    (await adapter.make({ identityTtlMs: MIN, budgets: { ...LIMITS, ...over }, now: c.now })).state.budgets;

  it('blocks an address once its failures spend the budget within the window', async () => {
    const c = clock();
    const b = await budgets(c);
    expect(await b.fail('a', 't1')).toBeUndefined();
    expect(await b.fail('a', 't1')).toBeUndefined();
    expect(await b.blocked('a')).toBe(0);
    expect(await b.fail('a', 't1')).toEqual({ reason: 'failure_lockout', step: 1, retryAfterS: 60 });
    expect(await b.blocked('a')).toBe(60);
    expect(await b.blocked('b')).toBe(0);
    c.advance(30_500);
    expect(await b.blocked('a')).toBe(30);
    c.advance(29_500);
    expect(await b.blocked('a')).toBe(0);
  });

  it('forgets failures older than the window', async () => {
    const c = clock();
    const b = await budgets(c);
    await b.fail('a', 't');
    await b.fail('a', 't');
    c.advance(MIN);
    expect(await b.fail('a', 't')).toBeUndefined();
    expect(await b.fail('a', 't')).toBeUndefined();
    expect((await b.fail('a', 't'))?.reason).toBe('failure_lockout');
  });

  it('escalates one window, then ten, then sixty, and stays at sixty', async () => {
    const c = clock();
    const b = await budgets(c);
    const spend = async () => {
      let block;
      for (let i = 0; i < 3; i++) block = await b.fail('a', 't');
      return block;
    };
    expect(await spend()).toMatchObject({ step: 1, retryAfterS: 60 });
    c.advance(MIN);
    expect(await spend()).toMatchObject({ step: 2, retryAfterS: 600 });
    c.advance(10 * MIN);
    expect(await spend()).toMatchObject({ step: 3, retryAfterS: 3600 });
    c.advance(60 * MIN - 1);
    expect(await b.blocked('a')).toBe(1);
    // Charges during a block are not counted.
    expect(await b.fail('a', 't')).toBeUndefined();
    c.advance(1);
    expect(await spend()).toMatchObject({ step: 3, retryAfterS: 3600 });
  });

  it('starts the escalation over after sixty windows of silence', async () => {
    const c = clock();
    const b = await budgets(c);
    const spend = async () => {
      let block;
      for (let i = 0; i < 3; i++) block = await b.fail('a', 't');
      return block;
    };
    expect(await spend()).toMatchObject({ step: 1 });
    c.advance(MIN);
    expect(await spend()).toMatchObject({ step: 2 });
    // Ten windows of block, then not quite sixty of silence from the last charge: still escalating.
    c.advance(60 * MIN - 1);
    expect(await spend()).toMatchObject({ step: 3 });
    c.advance(60 * MIN); // the block ends; its last charge was 60 windows ago
    expect(await spend()).toMatchObject({ step: 1, retryAfterS: 60 });
  });

  it('counts distinct refused credentials in their own window', async () => {
    const c = clock();
    const b = await budgets(c, { failureLimit: 0, distinctLimit: 3, distinctWindowMs: 10 * MIN });
    expect(b.enabled).toBe(true);
    for (let i = 0; i < 10; i++) expect(await b.fail('a', 'same')).toBeUndefined();
    expect(await b.fail('a', 'x')).toBeUndefined();
    c.advance(5 * MIN);
    expect(await b.fail('a', 'x')).toBeUndefined(); // a repeat is not a new one
    expect(await b.fail('a', 'y')).toEqual({ reason: 'distinct_tokens', step: 1, retryAfterS: 60 });
    c.advance(MIN);
    // After the block the count starts afresh; credentials age out of the window.
    await b.fail('a', 'p');
    await b.fail('a', 'q');
    c.advance(10 * MIN);
    expect(await b.fail('a', 'r')).toBeUndefined();
  });

  it('is off when the failure window is 0 or both limits are 0', async () => {
    const c = clock();
    expect((await budgets(c, { failureWindowMs: 0, failureLimit: 0 })).enabled).toBe(false);
    const off = await budgets(c, { failureLimit: 0 });
    for (let i = 0; i < 100; i++) expect(await off.fail('a', String(i))).toBeUndefined();
    expect(await off.blocked('a')).toBe(0);
  });
});

describe('authentication budgets in memory', () => {
  it('forgets idle addresses and caps how many it holds', () => {
    const c = clock();
    const b = new AuthBudgets({ ...LIMITS, now: c.now, maxAddresses: 5 });
    for (let i = 0; i < 20; i++) b.fail(`10.0.0.${i}`, 't');
    expect(b.size).toBe(5);
    c.advance(MIN);
    b.sweep(c.t, true);
    expect(b.size).toBe(0);
    for (let i = 0; i < 3; i++) b.fail('a', 't');
    c.advance(2 * MIN);
    b.sweep(c.t, true);
    expect(b.size).toBe(1); // its escalation is remembered for sixty windows
    c.advance(58 * MIN);
    b.sweep(c.t, true);
    expect(b.size).toBe(0);
  });
});
