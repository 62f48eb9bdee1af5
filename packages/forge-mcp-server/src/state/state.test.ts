/**
 * The state port's bounds, over both adapters (in memory, and Redis against a real redis-server), with an
 * injected clock: the verified identity cache (10,000 identities, an expired one dropped first else the least
 * recently used, a sweep every quarter of the TTL but at most every 30 s, the token's own expiry honoured),
 * the refused-token memory (five minutes, 4,096 entries, oldest first out), session records, the session event
 * log (1,000 events and 256 KiB), the subscription registry, listen-stream ceilings and the seal key.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../log.js';
import { ADAPTERS, redisServer, useAdapters } from '../../test/state-adapters.js';
import {
  EVENT_BYTES_PER_SESSION,
  EVENTS_PER_SESSION,
  IDENTITY_CACHE_MAX,
  REFUSED_MEMORY_MAX,
  REFUSED_MEMORY_MS,
  sweepEvery,
  type State,
  type StateOptions,
  type StoppedAnswers,
} from './index.js';
import {
  KEY_PREFIX,
  RedisEventStore,
  stateOn,
  type RedisParts,
  type RedisSessionStore,
  type RedisSubscriptionStore,
} from './redis/index.js';
import { RedisLink } from './redis/link.js';
import { stateKeys, type EventSealer } from './redis/sealing.js';

const who = (n: number) => ({ userId: n, username: `u${n}`, scopes: ['api'] });
const TTL = 15 * 60_000;

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

useAdapters();

it('sweeps every quarter of the TTL and at most every 30 s', () => {
  expect(sweepEvery(15 * 60_000)).toBe(225_000);
  expect(sweepEvery(60_000)).toBe(30_000);
  expect(sweepEvery(2 * 60 * 60_000)).toBe(30 * 60_000);
});

describe.each(ADAPTERS)('$name adapter', (adapter) => {
  const make = (o: Partial<StateOptions> = {}) => adapter.make({ identityTtlMs: TTL, ...o });

  describe.skipIf(adapter.skip)('verified identity cache', () => {
    it('holds 10,000 identities: the 10,001st drops the least recently used', async () => {
      const c = clock();
      const { state, probe } = await make({ now: c.now });
      const cache = state.identities;
      expect(IDENTITY_CACHE_MAX).toBe(10_000);
      // Sent at once (Redis keeps their order on one connection).
      await Promise.all(Array.from({ length: 10_000 }, (_, i) => cache.remember(`k${i}`, who(i))));
      expect(await probe.identityCount()).toBe(10_000);
      // k0 read again: now k1 is the least recently used.
      expect((await cache.fresh('k0'))?.username).toBe('u0');
      await cache.remember('new', who(-1));
      expect(await probe.identityCount()).toBe(10_000);
      expect(await probe.identityHolds('k0')).toBe(true);
      expect(await probe.identityHolds('k1')).toBe(false);
      expect(await cache.fresh('new')).toMatchObject({ userId: -1 });
    });

    it('drops an expired identity before the least recently used one when full', async () => {
      const c = clock();
      const { state, probe } = await make({ now: c.now, identityMax: 3 });
      const cache = state.identities;
      await cache.remember('old', who(1));
      await cache.remember('short', who(2), c.now() + 60_000); // the token itself expires in a minute
      await cache.remember('young', who(3));
      c.advance(60_000);
      await cache.remember('new', who(4));
      expect(await probe.identityHolds('short')).toBe(false);
      expect(await probe.identityHolds('old')).toBe(true);
    });

    it('answers a verification until the TTL or the token expiry, whichever is first, then not', async () => {
      const c = clock();
      const { state, probe } = await make({ now: c.now, identityMax: 10 });
      const cache = state.identities;
      await cache.remember('a', who(1));
      await cache.remember('b', who(2), c.now() + 5 * 60_000);
      c.advance(5 * 60_000 - 1);
      expect(await cache.fresh('b')).toBeDefined();
      c.advance(1);
      expect(await cache.fresh('b')).toBeUndefined();
      c.advance(TTL - 5 * 60_000 - 1);
      expect(await cache.fresh('a')).toEqual({ ...who(1), expiresAt: 1_000_000 + TTL });
      c.advance(1);
      expect(await cache.fresh('a')).toBeUndefined();
      // A token already expired is never cached.
      await cache.remember('gone', who(3), c.now());
      expect(await probe.identityHolds('gone')).toBe(false);
    });

    it('sweeps expired identities that nobody reads', async () => {
      const c = clock();
      const { state, probe } = await make({ now: c.now, identityMax: 10 });
      const cache = state.identities;
      await cache.remember('unread', who(1));
      c.advance(TTL / 2);
      await cache.remember('later', who(2));
      c.advance(TTL / 2);
      await probe.sweepIdentities();
      expect(await probe.identityHolds('unread')).toBe(false);
      expect(await probe.identityHolds('later')).toBe(true);
    });

    it('sweeps on its own, once a quarter of the TTL has passed', async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      try {
        const c = clock();
        const { state, probe } = await make({ now: c.now, identityMax: 10 });
        await state.identities.remember('unread', who(1));
        c.advance(TTL);
        await vi.advanceTimersByTimeAsync(sweepEvery(TTL) - 1);
        expect(await probe.identityHolds('unread')).toBe(true);
        await vi.advanceTimersByTimeAsync(1);
        await vi.waitFor(async () => expect(await probe.identityHolds('unread')).toBe(false), {
          timeout: 10_000,
          interval: 20,
        });
      } finally {
        vi.useRealTimers();
      }
    });

    it('forgets on request', async () => {
      const { state } = await make();
      await state.identities.remember('a', who(1));
      await state.identities.forget('a');
      expect(await state.identities.fresh('a')).toBeUndefined();
    });
  });

  describe.skipIf(adapter.skip)('refused-token memory', () => {
    it('answers a refused token for five minutes, then asks again', async () => {
      const c = clock();
      const { state, probe } = await make({ now: c.now });
      const mem = state.refused;
      expect(REFUSED_MEMORY_MS).toBe(5 * 60_000);
      await mem.remember('k', 'invalid');
      c.advance(REFUSED_MEMORY_MS - 1);
      expect(await mem.get('k')).toBe('invalid');
      c.advance(1);
      expect(await mem.get('k')).toBeUndefined();
      expect(await probe.refusedCount()).toBe(0);
    });

    it('holds 4,096 tokens: the next drops the oldest', async () => {
      const c = clock();
      const { state, probe } = await make({ now: c.now });
      const mem = state.refused;
      expect(REFUSED_MEMORY_MAX).toBe(4096);
      await Promise.all(Array.from({ length: 4096 }, (_, i) => mem.remember(`k${i}`, 'pin')));
      expect(await probe.refusedCount()).toBe(4096);
      await mem.remember('next', 'invalid');
      expect(await probe.refusedCount()).toBe(4096);
      expect(await mem.get('k0')).toBeUndefined();
      expect(await mem.get('k1')).toBe('pin');
      expect(await mem.get('next')).toBe('invalid');
    });
  });

  describe.skipIf(adapter.skip)('stateful-session records', () => {
    it('keep the owner and last activity of each id until deleted, and hand out copies', async () => {
      const { state } = await make();
      const store = state.sessions;
      const init = {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      };
      await store.put({ id: 's', owner: 'k', openedAt: 1, lastActive: 1, init });
      await store.touch('s', 5);
      const r = (await store.get('s'))!;
      expect(r).toEqual({ id: 's', owner: 'k', openedAt: 1, lastActive: 5, init });
      r.owner = 'other';
      expect((await store.get('s'))!.owner).toBe('k');
      await store.delete('s');
      expect(await store.get('s')).toBeUndefined();
      // Touching an ended session does not bring it back.
      await store.touch('s', 9);
      expect(await store.get('s')).toBeUndefined();
    });

    it.runIf(adapter.name === 'redis')(
      'live while a replica keeps them, and expire after the idle time once every replica let its copy go',
      async () => {
        const { state, beat } = await make({ identityTtlMs: 60_000, sessionTimeoutMs: 2000 });
        const store = state.sessions;
        await store.put({ id: 'kept', owner: 'k', openedAt: 1, lastActive: 1 });
        await store.put({ id: 'let-go', owner: 'k', openedAt: 1, lastActive: 1 });
        store.release!('let-go');
        // Heartbeats for longer than the idle time: only the record still kept here lives on.
        const t0 = Date.now();
        while (Date.now() - t0 < 5000) {
          await beat!();
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(await store.get('kept')).toBeDefined();
        expect(await store.get('let-go')).toBeUndefined();
      },
    );
  });

  describe.skipIf(adapter.skip)('a session event log', () => {
    const note = (n: number, pad = 0) => ({
      jsonrpc: '2.0' as const,
      method: 'notifications/message',
      params: { n, pad: 'x'.repeat(pad) },
    });

    it('replays what followed an event on its own stream only', async () => {
      const { state } = await make();
      const log = state.eventLog('session-1');
      const first = await log.storeEvent('a', note(1));
      await log.storeEvent('b', note(2));
      const third = await log.storeEvent('a', note(3));
      expect(await log.getStreamIdForEventId!(third)).toBe('a');
      const sent: unknown[] = [];
      const stream = await log.replayEventsAfter(first, { send: async (_id, m) => void sent.push(m) });
      expect(stream).toBe('a');
      expect(sent).toEqual([note(3)]);
    });

    it('keeps at most 1,000 events and 256 KiB per session, the newest; an id gone since is refused', async () => {
      expect(EVENTS_PER_SESSION).toBe(1000);
      expect(EVENT_BYTES_PER_SESSION).toBe(256 * 1024);
      const { state, probe } = await make();
      const log = state.eventLog('session-1');
      const first = await log.storeEvent('a', note(0));
      await Promise.all(Array.from({ length: 1000 }, (_, i) => log.storeEvent('a', note(i + 1))));
      expect((await probe.eventSizes(log)).size).toBe(1000);
      await expect(log.replayEventsAfter(first, { send: async () => undefined })).rejects.toThrow(
        /no longer kept: start a new session/,
      );
      const big = state.eventLog('session-2');
      for (let i = 0; i < 10; i++) await big.storeEvent('a', note(i, 64 * 1024));
      const held = await probe.eventSizes(big);
      expect(held.bytes).toBeLessThanOrEqual(256 * 1024);
      expect(held.size).toBe(3);
    });

    it('keeps each event as the text it was sent as: a message changed after it was stored replays unchanged', async () => {
      const { state } = await make();
      const log = state.eventLog('session-1');
      const first = await log.storeEvent('a', note(1));
      const sent = note(2);
      await log.storeEvent('a', sent);
      sent.params.n = 99;
      const replayed: unknown[] = [];
      await log.replayEventsAfter(first, { send: async (_id, m) => void replayed.push(m) });
      expect(replayed).toEqual([note(2)]);
    });

    it("refuses another session's event id", async () => {
      const { state } = await make();
      const mine = state.eventLog('session-1');
      const theirs = state.eventLog('session-2');
      await mine.storeEvent('a', note(1));
      const foreign = await theirs.storeEvent('b', note(2));
      await theirs.storeEvent('b', note(3));
      const sent: unknown[] = [];
      await expect(
        mine.replayEventsAfter(foreign, { send: async (_id, m) => void sent.push(m) }),
      ).rejects.toThrow(/no longer kept/);
      expect(sent).toEqual([]);
    });
  });

  describe.skipIf(adapter.skip)('subscriptions', () => {
    it('refuses a listen stream at the credential ceiling, then at the process ceiling; a closed one is given back', async () => {
      const { state } = await make();
      const subs = state.subscriptions;
      const ceilings = { perCredential: 2, perProcess: 3 };
      expect(await subs.openStream('a', ceilings)).toBeUndefined();
      expect(await subs.openStream('a', ceilings)).toBeUndefined();
      expect(await subs.openStream('a', ceilings)).toEqual({ ceiling: 'credential', limit: 2 });
      expect(await subs.openStream('b', ceilings)).toBeUndefined();
      expect(await subs.openStream('c', ceilings)).toEqual({ ceiling: 'process', limit: 3 });
      await subs.closeStream('a');
      expect(await subs.openStream('c', ceilings)).toBeUndefined();
      // 0: no per-credential ceiling.
      await subs.closeStream('c');
      await subs.closeStream('b');
      const open = { perCredential: 0, perProcess: 3 };
      expect(await subs.openStream('a', open)).toBeUndefined();
      expect(await subs.openStream('a', open)).toBeUndefined();
      expect(await subs.openStream('a', open)).toEqual({ ceiling: 'process', limit: 3 });
    });

    it('records who follows what, tells a changed version once, and forgets an owner', async () => {
      const { state } = await make();
      const subs = state.subscriptions;
      await subs.follow('o1', 'forge://a', 's1', 'v1');
      await subs.follow('o1', 'forge://a', 's2', 'v1');
      await subs.follow('o1', 'forge://b', 's1', 'w1');
      await subs.follow('o2', 'forge://a', 's3', 'x1');
      expect(await subs.seen('o1', 'forge://a', 'v1')).toBe(false);
      expect(await subs.seen('o1', 'forge://a', 'v2')).toBe(true);
      expect(await subs.seen('o1', 'forge://a', 'v2')).toBe(false);
      expect(await subs.seen('o1', 'forge://none', 'v2')).toBe(false);
      await subs.unfollow('s2', 'forge://a');
      await subs.unfollow('s1', 'forge://b');
      const sorted = (await subs.followed()).sort((x, y) => (x.owner + x.uri < y.owner + y.uri ? -1 : 1));
      expect(sorted).toEqual([
        { owner: 'o1', uri: 'forge://a', subscribers: ['s1'], version: 'v2' },
        { owner: 'o2', uri: 'forge://a', subscribers: ['s3'], version: 'x1' },
      ]);
      expect(await subs.forgetOwner('o1')).toEqual(['s1']);
      await subs.unfollow('s3');
      expect(await subs.followed()).toEqual([]);
    });
  });

  describe.skipIf(adapter.skip)('the seal key', () => {
    it('is at least 32 bytes and stays the same', async () => {
      const { state } = await make();
      const key = await state.sealKey();
      expect(key.length).toBeGreaterThanOrEqual(32);
      expect(Buffer.from(await state.sealKey()).equals(Buffer.from(key))).toBe(true);
    });
  });
});

describe.skipIf(ADAPTERS[1]!.skip)('what replicas sharing Redis see of each other', () => {
  const redis = ADAPTERS[1]!;
  const two = async () => [
    await redis.make({ identityTtlMs: TTL }),
    await redis.make({ identityTtlMs: TTL }),
  ];

  it('share identities, refused tokens, session records and the seal key', async () => {
    const [a, b] = await two();
    await a!.state.identities.remember('k', who(1));
    expect(await b!.state.identities.fresh('k')).toMatchObject({ userId: 1 });
    await a!.state.refused.remember('r', 'invalid');
    expect(await b!.state.refused.get('r')).toBe('invalid');
    await a!.state.sessions.put({ id: 's', owner: 'o', openedAt: 1, lastActive: 1 });
    expect(await b!.state.sessions.get('s')).toMatchObject({ owner: 'o' });
    expect(Buffer.from(await b!.state.sealKey()).equals(Buffer.from(await a!.state.sealKey()))).toBe(true);
  });

  it("replay one replica's session events from another's store of the same session", async () => {
    const [a, b] = await two();
    const note = (n: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { n } });
    const onA = a!.state.eventLog('session-1');
    const first = await onA.storeEvent('s', note(1));
    await onA.storeEvent('s', note(2));
    const sent: unknown[] = [];
    const onB = b!.state.eventLog('session-1');
    expect(await onB.replayEventsAfter(first, { send: async (_id, m) => void sent.push(m) })).toBe('s');
    expect(sent).toEqual([note(2)]);
  });

  it("count a credential's listen streams across replicas, each replica's process ceiling its own", async () => {
    const [a, b] = await two();
    const ceilings = { perCredential: 2, perProcess: 1 };
    expect(await a!.state.subscriptions.openStream('o', ceilings)).toBeUndefined();
    expect(await b!.state.subscriptions.openStream('o', ceilings)).toBeUndefined();
    expect(await b!.state.subscriptions.openStream('p', ceilings)).toEqual({ ceiling: 'process', limit: 1 });
    await a!.state.close();
    // A replica gone takes its streams with it.
    expect(await b!.state.subscriptions.openStream('o', { perCredential: 2, perProcess: 5 })).toBeUndefined();
    expect(await b!.state.subscriptions.openStream('o', { perCredential: 2, perProcess: 5 })).toEqual({
      ceiling: 'credential',
      limit: 2,
    });
  });

  it('keep the sessions a replica serves alive with their logs, and let go of one ended elsewhere', async () => {
    const [a, b] = await two();
    const link = (a!.state as State & RedisParts).link;
    const ttlOf = (k: string) => link.run((c) => c.pttl(KEY_PREFIX + k));
    await a!.state.sessions.put({ id: 's', owner: 'o', openedAt: 1, lastActive: 1 });
    await a!.state.eventLog('s').storeEvent('x', { jsonrpc: '2.0', method: 'notifications/message' });
    // Shortened, as if the session had been quiet for most of its TTL: the heartbeat gives it back.
    for (const k of ['session:s', 'events:s', 'events:s:meta'])
      await link.run((c) => c.pexpire(KEY_PREFIX + k, 60_000));
    await a!.beat!();
    for (const k of ['session:s', 'events:s', 'events:s:meta'])
      expect(await ttlOf(k)).toBeGreaterThan(60_000);
    await b!.state.sessions.touch('s', 5);
    expect((b!.state.sessions as RedisSessionStore).held.has('s')).toBe(true);
    await a!.state.sessions.delete('s');
    await b!.beat!();
    expect((b!.state.sessions as RedisSessionStore).held.has('s')).toBe(false);
  });

  /** The replica answering the streams of session-1: a store under its id, whose heartbeat a test writes itself. */
  const answeringAs = (link: RedisLink, sealer?: EventSealer) =>
    new RedisEventStore(link, 'session-1', TTL, undefined, undefined, sealer, 'replica-x');
  /** The answers stored for the requests a replica stopped before answering (session-log.ts words them). */
  const stopped: StoppedAnswers = {
    tool: { result: { content: [{ type: 'text', text: 'stopped' }], isError: true } },
    other: { error: { code: -32603, message: 'stopped' } },
  };

  it.each([
    ['', undefined],
    [', sealed with FORGE_MCP_STATE_KEY', randomBytes(32)],
  ])(
    'answer a request stream once in the stead of its replica stopped before answering, never while it lives or after it answered%s',
    async (_, stateKey) => {
      const make = () => redis.make({ identityTtlMs: TTL, ...(stateKey ? { stateKey } : {}) });
      const [a, b] = [await make(), await make()];
      const link = (a.state as State & RedisParts).link;
      const sealer = stateKey ? stateKeys(stateKey, createLogger('error')).events : undefined;
      const answering = answeringAs(link, sealer);
      const expiresIn = (ms: number) =>
        link.run((c) => c.zadd(`${KEY_PREFIX}replicas`, Date.now() + ms, 'replica-x'));
      await expiresIn(30_000);
      const call = await answering.storeEvent('call', {}, [{ id: 7, tool: true }]);
      const read = await answering.storeEvent('read', {}, [{ id: 'r"1', tool: false }]);
      const done = await answering.storeEvent('done', {}, [{ id: 9, tool: true }]);
      const answer = { jsonrpc: '2.0' as const, id: 9, result: { content: [] } };
      await answering.storeEvent('done', answer);
      // A batch's stream, the first of its three requests answered.
      const batch = await answering.storeEvent('batch', {}, [
        { id: 1, tool: true },
        { id: 2, tool: false },
        { id: 3, tool: true },
      ]);
      const first = { jsonrpc: '2.0' as const, id: 1, result: { content: [] } };
      await answering.storeEvent('batch', first);
      const onA = a.state.eventLog('session-1');
      const onB = b.state.eventLog('session-1');
      const after = async (id: string) => {
        const sent: unknown[] = [];
        await onA.replayEventsAfter(id, { send: async (_id, m) => void sent.push(m) });
        return sent;
      };
      // Its heartbeat has not lapsed: it is answering, nothing is stored in its stead.
      expect(await onB.answerIfStopped!('call', stopped)).toBe('answering');
      expect(await onB.answerIfStopped!('batch', stopped)).toBe('answering');
      expect(await after(call)).toEqual([]);
      // Its heartbeat lapsed (its expiry passed): two replicas asking at once store one answer.
      await expiresIn(-1);
      const asked = await Promise.all(
        [onA, onB, onA, onB].map((log) => log.answerIfStopped!('call', stopped)),
      );
      expect(asked.filter((a) => a === 'stored')).toHaveLength(1);
      expect(await after(call)).toEqual([{ jsonrpc: '2.0', id: 7, ...stopped.tool }]);
      expect(await onB.answerIfStopped!('call', stopped)).toBe('answered');
      expect(await after(call)).toHaveLength(1);
      // Any other request gets the JSON-RPC error, under its own id.
      expect(await onB.answerIfStopped!('read', stopped)).toBe('stored');
      expect(await after(read)).toEqual([{ jsonrpc: '2.0', id: 'r"1', ...stopped.other }]);
      // The requests of a batch its replica left unanswered are answered, each under its own id.
      expect(await onB.answerIfStopped!('batch', stopped)).toBe('stored');
      expect(await after(batch)).toEqual([
        first,
        { jsonrpc: '2.0', id: 2, ...stopped.other },
        { jsonrpc: '2.0', id: 3, ...stopped.tool },
      ]);
      expect(await onB.answerIfStopped!('batch', stopped)).toBe('answered');
      // A stream already answered is left as it is.
      expect(await onB.answerIfStopped!('done', stopped)).toBe('answered');
      expect(await after(done)).toEqual([answer]);
      // A replica that left (gone from the live replicas) has stopped too.
      const left = await answering.storeEvent('left', {}, [{ id: 11, tool: true }]);
      await link.run((c) => c.zrem(`${KEY_PREFIX}replicas`, 'replica-x'));
      expect(await onB.answerIfStopped!('left', stopped)).toBe('stored');
      expect(await after(left)).toEqual([{ jsonrpc: '2.0', id: 11, ...stopped.tool }]);
    },
  );

  it("count a replica live for 30 s after its last heartbeat (the lapse after which its streams' requests are answered in its stead)", async () => {
    const [a] = await two();
    const link = (a!.state as State & RedisParts).link;
    const before = Date.now();
    await a!.beat!();
    const after = Date.now();
    const replica = (a!.state.subscriptions as RedisSubscriptionStore).replica;
    const expiry = Number(await link.run((c) => c.zscore(`${KEY_PREFIX}replicas`, replica)));
    expect(expiry).toBeGreaterThanOrEqual(before + 30_000);
    expect(expiry).toBeLessThanOrEqual(after + 30_000);
  });

  it('check a tailed stream whose replica lives in one round trip to Redis, and store the answers of one stopped in one more', async () => {
    const { state } = await redis.make({ identityTtlMs: TTL, stateKey: randomBytes(32) });
    const link = (state as State & RedisParts).link;
    const answering = answeringAs(link);
    await link.run((c) => c.zadd(`${KEY_PREFIX}replicas`, Date.now() + 30_000, 'replica-x'));
    await answering.storeEvent('call', {}, [{ id: 7, tool: true }]);
    await answering.storeEvent('warm', {}, [{ id: 8, tool: true }]);
    const log = state.eventLog('session-1');
    // Every command the replica's client sends, counted (each a round trip: the tail awaits each).
    const sent: string[] = [];
    const send = link.client.sendCommand.bind(link.client);
    link.client.sendCommand = (command, stream) => {
      sent.push(command.name);
      return send(command, stream);
    };
    const roundTrips = async (f: () => Promise<unknown>) => {
      sent.length = 0;
      await f();
      return sent.length;
    };
    // Its scripts loaded once (an EVALSHA Redis does not know yet is sent again as EVAL).
    await log.answerIfStopped!('call', stopped);
    expect(await roundTrips(() => log.answerIfStopped!('call', stopped))).toBe(1);
    await link.run((c) => c.zadd(`${KEY_PREFIX}replicas`, Date.now() - 1, 'replica-x'));
    expect(await log.answerIfStopped!('warm', stopped)).toBe('stored');
    expect(await roundTrips(() => log.answerIfStopped!('call', stopped))).toBe(2);
    expect(await roundTrips(() => log.answerIfStopped!('call', stopped))).toBe(1);
  });

  it('keep the FORGE_MCP_STATE_KEY check value while a replica with that key is starting as the last other one stops', async () => {
    const [key1, key2] = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
    const a = await redis.make({ identityTtlMs: TTL, stateKey: key1 });
    // The second replica has claimed the check value and is held before its first heartbeat.
    const link = await RedisLink.open(redisServer().url, createLogger('error'));
    let reached!: () => void;
    const atBeat = new Promise<void>((r) => (reached = r));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const script = link.script.bind(link);
    link.script = async (name, keys, args) => {
      if (name === 'heartbeat') {
        reached();
        await held;
      }
      return script(name, keys, args);
    };
    const starting = stateOn(link, { identityTtlMs: TTL, stateKey: key1 });
    await atBeat;
    await a.state.close();
    release();
    const b = await starting;
    try {
      // A replica with another key is still refused beside the one running.
      const other = await RedisLink.open(redisServer().url, createLogger('error'));
      const refused = await stateOn(other, { identityTtlMs: TTL, stateKey: key2 }).then(
        async (s) => {
          await s.close();
          return undefined;
        },
        (err: Error) => err,
      );
      if (refused) await other.close();
      expect(refused?.name).toBe('StateKeyMismatch');
    } finally {
      await b.close();
    }
  });

  it('with FORGE_MCP_STATE_KEY, keep no seal key in Redis (not even one replicas without it kept there), and bound a sealed log by its messages as written unsealed', async () => {
    const reader = await RedisLink.open(redisServer().url, createLogger('error'));
    try {
      const kept = () => reader.run((c) => c.exists(`${KEY_PREFIX}seal`));
      const unsealed = await redis.make({ identityTtlMs: TTL });
      expect(await kept()).toBe(1);
      await unsealed.state.close();
      const { state, probe } = await redis.make({ identityTtlMs: TTL, stateKey: randomBytes(32) });
      expect(await kept()).toBe(0);
      // Ten messages of 64 KiB: the three newest fit in 256 KiB as written unsealed, and so they do sealed (a
      // sealed entry, base64 of nonce, tag and ciphertext, takes a third more room).
      const log = state.eventLog('session-1');
      for (let i = 0; i < 10; i++)
        await log.storeEvent('a', {
          jsonrpc: '2.0',
          method: 'notifications/message',
          params: { n: i, pad: 'x'.repeat(64 * 1024) },
        });
      expect((await probe.eventSizes(log)).size).toBe(3);
      const rows = await reader.run((c) => c.lrange(`${KEY_PREFIX}events:session-1`, 0, -1));
      expect(rows).toHaveLength(3);
      // The pad written unsealed would be a run of 64 Ki 'x'; base64 of ciphertext holds 'xxxx' by chance (about
      // once in 200 rows of this size), never a run of 256.
      for (const row of rows) expect(row).not.toContain('x'.repeat(256));
    } finally {
      await reader.close();
    }
  });

  it("keep a FORGE_MCP_STATE_KEY check value 30 s at most, and let the last live replica take it with it past a killed replica's lapsed heartbeat", async () => {
    const [key1, key2] = [randomBytes(32), randomBytes(32)];
    const a = await redis.make({ identityTtlMs: TTL, stateKey: key1 });
    const link = (a.state as State & RedisParts).link;
    const ttl = await link.run((c) => c.pttl(`${KEY_PREFIX}sealing`));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(30_000);
    // A replica killed a while ago: its heartbeat's expiry has passed, and it never left.
    await link.run((c) => c.zadd(`${KEY_PREFIX}replicas`, Date.now() - 1, 'killed'));
    await a.state.close();
    const b = await redis.make({ identityTtlMs: TTL, stateKey: key2 });
    expect(await b.state.sealKey()).toHaveLength(32);
  });

  it('after Redis restarts without its data and a replica with another FORGE_MCP_STATE_KEY claims it first, refuse shared state on the replicas running (one ERROR, naming no key) until that one is gone', async () => {
    const [key1, key2] = [randomBytes(32), randomBytes(32)];
    const lines: string[] = [];
    const link = await RedisLink.open(
      redisServer().url,
      createLogger('error', { write: (line: string) => void lines.push(line) }),
    );
    const a = await stateOn(link, { identityTtlMs: TTL, stateKey: key1 });
    try {
      await a.refused.remember('r', 'invalid');
      // Its connection is down while Redis restarts empty and the other replica starts.
      link.client.disconnect();
      await redisServer().stop();
      await redisServer().start();
      const b = await redis.make({ identityTtlMs: TTL, stateKey: key2 });
      const back = new Promise<void>((r) => link.client.once('ready', () => r()));
      await link.client.connect();
      await back;
      await vi.waitFor(
        async () => expect(await a.refused.get('r').catch((err: Error) => err)).toBeInstanceOf(Error),
        { timeout: 10_000, interval: 100 },
      );
      const refused = (await a.refused.get('r').catch((err: Error) => err)) as Error;
      expect(refused.name).toBe('StateUnavailable');
      await a.beat().catch(() => undefined);
      const errors = lines
        .map((l) => JSON.parse(l) as { level: string; msg: string })
        .filter((l) => l.level === 'error');
      expect(errors.map((l) => l.msg)).toEqual([
        `FORGE_MCP_STATE_KEY: the Redis server at ${link.where} lost this replica's check value (restarted empty) and a replica started meanwhile holds it: the replicas using the Redis server at ${link.where} seal what they keep there with another key: set the same FORGE_MCP_STATE_KEY on every replica sharing that server; to change it, stop them all, then start them with the new one (a stopped replica's check value lasts 30 s at most). Until then this replica answers what needs shared state 503; the calls it is answering run to their end, their answers reach the clients still connected and are written to the session logs once it serves again, and it keeps its heartbeat, so no replica answers them in its stead ('replica stopped')`,
      ]);
      expect(refused.message).toBe(errors[0]!.msg);
      for (const k of [key1, key2])
        for (const form of ['hex', 'base64'] as const)
          expect(lines.join('\n')).not.toContain(k.toString(form));
      // Refused, it still says it is alive (it may be finishing calls), but it does not hold the check value.
      expect(await link.client.zcard(`${KEY_PREFIX}replicas`)).toBe(2);
      expect(await link.client.zcard(`${KEY_PREFIX}replicas:refused`)).toBe(1);
      // The other replica gone (the last one holding its check value, it takes the value with it), this one
      // serves again.
      await b.state.close();
      await a.beat();
      await a.refused.remember('r', 'invalid');
      expect(await a.refused.get('r')).toBe('invalid');
    } finally {
      await a.close();
    }
  });

  it('after Redis restarts without its data, each replica gives back its stream counts and the seal key', async () => {
    const [a] = await two();
    const seal = Buffer.from(await a!.state.sealKey());
    const ceilings = { perCredential: 1, perProcess: 5 };
    expect(await a!.state.subscriptions.openStream('o', ceilings)).toBeUndefined();
    await redisServer().stop();
    await redisServer().start();
    // The replica's client reconnects by itself; its first beat after that restores what it holds.
    for (let i = 0; ; i++) {
      try {
        await a!.beat!();
        break;
      } catch (err) {
        if (i > 240) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    const b = await redis.make({ identityTtlMs: TTL });
    expect(await b.state.subscriptions.openStream('o', ceilings)).toEqual({
      ceiling: 'credential',
      limit: 1,
    });
    expect(Buffer.from(await b.state.sealKey()).equals(seal)).toBe(true);
  });
});
