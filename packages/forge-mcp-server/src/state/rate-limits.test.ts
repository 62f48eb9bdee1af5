/**
 * Rate limits over both adapters of the state port (in memory, and Redis against a real redis-server), with
 * an injected clock; the method families and the memory adapter's own bounds.
 */
import { describe, expect, it } from 'vitest';
import { ADAPTERS, useAdapters } from '../../test/state-adapters.js';
import { familyOf, RateLimiter } from './rate-limits.js';

function clock(start = 1_000_000) {
  const c = { t: start, now: () => c.t, advance: (ms: number) => (c.t += ms) };
  return c;
}

const call = ['tools/call'];

useAdapters();

describe.each(ADAPTERS)('rate limiter ($name adapter)', (adapter) => {
  if (adapter.skip) return void it.skip(adapter.skip, () => undefined);
  const limiter = async (o: { rps: number; burst: number; now?: () => number }) =>
    (await adapter.make({ identityTtlMs: 60_000, rateLimit: o, now: o.now })).state.rateLimits;

  it('does not charge other methods', async () => {
    const c = clock();
    const l = await limiter({ rps: 1, burst: 1, now: c.now });
    for (let i = 0; i < 5; i++)
      expect((await l.charge('k', ['initialize', 'ping', 'resources/list'])).ok).toBe(true);
  });

  it('lets the burst through, then refuses with the wait until a token is back', async () => {
    const c = clock();
    const l = await limiter({ rps: 1, burst: 2, now: c.now });
    expect((await l.charge('k', call)).ok).toBe(true);
    expect((await l.charge('k', call)).ok).toBe(true);
    expect(await l.charge('k', call)).toEqual({ ok: false, retryAfterS: 1, family: 'call', tooLarge: false });
    c.advance(999);
    expect((await l.charge('k', call)).ok).toBe(false);
    c.advance(1);
    expect((await l.charge('k', call)).ok).toBe(true);
    // Another credential has its own buckets.
    expect((await l.charge('other', call)).ok).toBe(true);
  });

  it('rounds Retry-After up to whole seconds', async () => {
    const c = clock();
    const l = await limiter({ rps: 0.5, burst: 1, now: c.now });
    expect((await l.charge('k', call)).ok).toBe(true);
    c.advance(100);
    expect(await l.charge('k', call)).toMatchObject({ ok: false, retryAfterS: 2 });
  });

  it('gives completion/complete its own bucket at ten times rate and burst', async () => {
    const c = clock();
    const l = await limiter({ rps: 1, burst: 2, now: c.now });
    for (let i = 0; i < 20; i++) expect((await l.charge('k', ['completion/complete'])).ok).toBe(true);
    expect(await l.charge('k', ['completion/complete'])).toMatchObject({ ok: false, family: 'completion' });
    // The call bucket is untouched.
    expect((await l.charge('k', call)).ok).toBe(true);
    c.advance(100); // ten per second
    expect((await l.charge('k', ['completion/complete'])).ok).toBe(true);
    expect((await l.charge('k', ['completion/complete'])).ok).toBe(false);
  });

  it('refills tools/list a tenth as fast, in its own bucket', async () => {
    const c = clock();
    const l = await limiter({ rps: 1, burst: 2, now: c.now });
    expect((await l.charge('k', ['tools/list'])).ok).toBe(true);
    expect((await l.charge('k', ['tools/list'])).ok).toBe(true);
    expect(await l.charge('k', ['tools/list'])).toMatchObject({ ok: false, family: 'list', retryAfterS: 10 });
    expect((await l.charge('k', call)).ok).toBe(true);
    c.advance(9_999);
    expect((await l.charge('k', ['tools/list'])).ok).toBe(false);
    c.advance(1);
    expect((await l.charge('k', ['tools/list'])).ok).toBe(true);
  });

  it('also charges tools/list to the process-wide bucket (48000 in hand, 3000 per second)', async () => {
    const c = clock();
    const l = await limiter({ rps: 1000, burst: 10000, now: c.now });
    let served = 0;
    for (let i = 0; i < 10; i++) {
      const batch = Array.from({ length: 10000 }, () => 'tools/list');
      if ((await l.charge(`k${i}`, batch)).ok) served++;
    }
    expect(served).toBe(4); // 40000 of 48000
    expect(
      (
        await l.charge(
          'k9',
          Array.from({ length: 8000 }, () => 'tools/list'),
        )
      ).ok,
    ).toBe(true);
    const refused = await l.charge('k9', ['tools/list']);
    expect(refused).toMatchObject({ ok: false, family: 'global', retryAfterS: 1 });
    // Calls are not charged to it.
    expect((await l.charge('k9', call)).ok).toBe(true);
    c.advance(1000);
    expect(
      (
        await l.charge(
          'k8',
          Array.from({ length: 3000 }, () => 'tools/list'),
        )
      ).ok,
    ).toBe(true);
    expect((await l.charge('k7', ['tools/list'])).ok).toBe(false);
  });

  it('charges each message of a batch, all or nothing', async () => {
    const c = clock();
    const l = await limiter({ rps: 1, burst: 3, now: c.now });
    expect((await l.charge('k', ['tools/call', 'tools/call'])).ok).toBe(true);
    expect((await l.charge('k', ['tools/call', 'tools/call'])).ok).toBe(false);
    expect((await l.charge('k', ['tools/call'])).ok).toBe(true); // the refused batch took nothing
    expect(await l.charge('big', ['tools/call', 'tools/call', 'tools/call', 'tools/call'])).toMatchObject({
      ok: false,
      tooLarge: true,
    });
  });

  it('is off at 0 rps', async () => {
    const l = await limiter({ rps: 0, burst: 0 });
    for (let i = 0; i < 100; i++) expect((await l.charge('k', ['tools/call', 'tools/list'])).ok).toBe(true);
    expect(l.enabled).toBe(false);
  });
});

describe('rate limiter in memory', () => {
  it('classifies the method families; other methods are not charged', () => {
    for (const m of [
      'tools/call',
      'resources/read',
      'resources/subscribe',
      'subscriptions/listen',
      'prompts/get',
    ])
      expect(familyOf(m)).toBe('call');
    expect(familyOf('completion/complete')).toBe('completion');
    expect(familyOf('tools/list')).toBe('list');
    expect(familyOf('initialize')).toBeUndefined();
  });

  it('forgets refilled credentials and caps the keys it holds', () => {
    const c = clock();
    const l = new RateLimiter({ rps: 1, burst: 2, now: c.now, maxKeys: 3 });
    for (let i = 0; i < 10; i++) l.charge(`k${i}`, call);
    expect(l.size).toBe(3);
    c.advance(2_000);
    l.sweep(c.t, true);
    expect(l.size).toBe(0);
    l.charge('a', ['tools/list']);
    c.advance(2_000); // the list bucket needs 10 s per token
    l.sweep(c.t, true);
    expect(l.size).toBe(1);
    c.advance(8_000);
    l.sweep(c.t, true);
    expect(l.size).toBe(0);
  });
});
