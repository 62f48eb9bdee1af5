/**
 * The in-memory state adapter's bounds, with an injected clock: the verified identity cache (10,000
 * identities, an expired one dropped first else the least recently used, a sweep every quarter of the TTL
 * but at most every 30 s, the token's own expiry honoured) and the refused-token memory (five minutes,
 * 4,096 entries, oldest first out).
 */
import { describe, expect, it } from 'vitest';
import {
  EVENT_BYTES_PER_SESSION,
  EVENTS_PER_SESSION,
  MemoryEventStore,
  IDENTITY_CACHE_MAX,
  MemoryIdentityStore,
  MemoryRefusedTokens,
  MemorySessionStore,
  REFUSED_MEMORY_MAX,
  REFUSED_MEMORY_MS,
  sweepEvery,
} from './index.js';

const who = (n: number) => ({ userId: n, username: `u${n}`, scopes: ['api'] });

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('verified identity cache (in memory)', () => {
  const TTL = 15 * 60_000;

  it('holds 10,000 identities: the 10,001st drops the least recently used', async () => {
    const c = clock();
    const cache = new MemoryIdentityStore(TTL, undefined, c.now);
    expect(IDENTITY_CACHE_MAX).toBe(10_000);
    for (let i = 0; i < 10_000; i++) await cache.remember(`k${i}`, who(i));
    expect(cache.size).toBe(10_000);
    // k0 read again: now k1 is the least recently used.
    expect((await cache.fresh('k0'))?.username).toBe('u0');
    await cache.remember('new', who(-1));
    expect(cache.size).toBe(10_000);
    expect(cache.holds('k0')).toBe(true);
    expect(cache.holds('k1')).toBe(false);
    expect(await cache.fresh('new')).toMatchObject({ userId: -1 });
    cache.close();
  });

  it('drops an expired identity before the least recently used one when full', async () => {
    const c = clock();
    const cache = new MemoryIdentityStore(TTL, 3, c.now);
    await cache.remember('old', who(1));
    await cache.remember('short', who(2), c.now() + 60_000); // the token itself expires in a minute
    await cache.remember('young', who(3));
    c.advance(60_000);
    await cache.remember('new', who(4));
    expect(cache.holds('short')).toBe(false);
    expect(cache.holds('old')).toBe(true);
    cache.close();
  });

  it('answers a verification until the TTL or the token expiry, whichever is first, then not', async () => {
    const c = clock();
    const cache = new MemoryIdentityStore(TTL, 10, c.now);
    await cache.remember('a', who(1));
    await cache.remember('b', who(2), c.now() + 5 * 60_000);
    c.advance(5 * 60_000 - 1);
    expect(await cache.fresh('b')).toBeDefined();
    c.advance(1);
    expect(await cache.fresh('b')).toBeUndefined();
    c.advance(TTL - 5 * 60_000 - 1);
    expect(await cache.fresh('a')).toBeDefined();
    c.advance(1);
    expect(await cache.fresh('a')).toBeUndefined();
    // A token already expired is never cached.
    await cache.remember('gone', who(3), c.now());
    expect(cache.holds('gone')).toBe(false);
    cache.close();
  });

  it('sweeps expired identities that nobody reads, every quarter of the TTL and at most every 30 s', async () => {
    expect(sweepEvery(15 * 60_000)).toBe(225_000);
    expect(sweepEvery(60_000)).toBe(30_000);
    expect(sweepEvery(2 * 60 * 60_000)).toBe(30 * 60_000);
    const c = clock();
    const cache = new MemoryIdentityStore(TTL, 10, c.now);
    await cache.remember('unread', who(1));
    c.advance(TTL / 2);
    await cache.remember('later', who(2));
    c.advance(TTL / 2);
    cache.sweep();
    expect(cache.holds('unread')).toBe(false);
    expect(cache.holds('later')).toBe(true);
    cache.close();
  });

  it('forgets on request', async () => {
    const cache = new MemoryIdentityStore(TTL);
    await cache.remember('a', who(1));
    await cache.forget('a');
    expect(await cache.fresh('a')).toBeUndefined();
    cache.close();
  });
});

describe('refused-token memory (in memory)', () => {
  it('answers a refused token for five minutes, then asks again', async () => {
    const c = clock();
    const mem = new MemoryRefusedTokens(c.now);
    expect(REFUSED_MEMORY_MS).toBe(5 * 60_000);
    await mem.remember('k', 'invalid');
    c.advance(REFUSED_MEMORY_MS - 1);
    expect(await mem.get('k')).toBe('invalid');
    c.advance(1);
    expect(await mem.get('k')).toBeUndefined();
    expect(mem.size).toBe(0);
  });

  it('holds 4,096 tokens: the next drops the oldest', async () => {
    const c = clock();
    const mem = new MemoryRefusedTokens(c.now);
    expect(REFUSED_MEMORY_MAX).toBe(4096);
    for (let i = 0; i < 4096; i++) await mem.remember(`k${i}`, 'pin');
    expect(mem.size).toBe(4096);
    await mem.remember('next', 'invalid');
    expect(mem.size).toBe(4096);
    expect(await mem.get('k0')).toBeUndefined();
    expect(await mem.get('k1')).toBe('pin');
    expect(await mem.get('next')).toBe('invalid');
  });
});

describe('stateful-session records (in memory)', () => {
  it('keep the owner and last activity of each id until deleted, and hand out copies', async () => {
    const store = new MemorySessionStore();
    await store.put({ id: 's', owner: 'k', openedAt: 1, lastActive: 1 });
    await store.touch('s', 5);
    const r = (await store.get('s'))!;
    expect(r).toEqual({ id: 's', owner: 'k', openedAt: 1, lastActive: 5 });
    r.owner = 'other';
    expect((await store.get('s'))!.owner).toBe('k');
    await store.delete('s');
    expect(await store.get('s')).toBeUndefined();
  });
});

describe('a session event log (in memory)', () => {
  const note = (n: number, pad = 0) => ({
    jsonrpc: '2.0' as const,
    method: 'notifications/message',
    params: { n, pad: 'x'.repeat(pad) },
  });

  it('replays what followed an event on its own stream only', async () => {
    const log = new MemoryEventStore();
    const first = await log.storeEvent('a', note(1));
    await log.storeEvent('b', note(2));
    await log.storeEvent('a', note(3));
    const sent: unknown[] = [];
    const stream = await log.replayEventsAfter(first, { send: async (_id, m) => void sent.push(m) });
    expect(stream).toBe('a');
    expect(sent).toEqual([note(3)]);
  });

  it('keeps at most 1,000 events and 256 KiB per session, the newest; an id gone since is refused', async () => {
    expect(EVENTS_PER_SESSION).toBe(1000);
    expect(EVENT_BYTES_PER_SESSION).toBe(256 * 1024);
    const log = new MemoryEventStore();
    const first = await log.storeEvent('a', note(0));
    for (let i = 1; i <= 1000; i++) await log.storeEvent('a', note(i));
    expect(log.size).toBe(1000);
    await expect(log.replayEventsAfter(first, { send: async () => undefined })).rejects.toThrow(
      /no longer kept: start a new session/,
    );
    const big = new MemoryEventStore();
    for (let i = 0; i < 10; i++) await big.storeEvent('a', note(i, 64 * 1024));
    expect(big.bytes).toBeLessThanOrEqual(256 * 1024);
    expect(big.size).toBe(3);
  });
});
