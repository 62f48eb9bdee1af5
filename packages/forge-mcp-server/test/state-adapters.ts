/**
 * Both adapters of the state port, for behaviour tests that run over each: the in-memory one and the Redis
 * one against a real redis-server this file starts (test/redis.ts). `useAdapters()` registers the hooks: the
 * server starts before the file's tests and is killed after them; every state made is closed after its test,
 * and Redis is emptied before each.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { EventStore } from '@modelcontextprotocol/server';
import { createLogger } from '../src/log.js';
import { memoryState, type State, type StateOptions } from '../src/state/index.js';
import type { MemoryEventStore } from '../src/state/event-store.js';
import type { MemoryIdentityStore } from '../src/state/identities.js';
import type { MemoryRefusedTokens } from '../src/state/refused.js';
import { RedisLink } from '../src/state/redis/link.js';
import {
  stateOn,
  type RedisEventStore,
  type RedisIdentityStore,
  type RedisRefusedTokens,
} from '../src/state/redis/index.js';
import { REDIS_SKIP_REASON, startRedis, type RedisServer } from './redis.js';

/** What a test may look at beyond the port: sizes and the identity sweep, asked the same way of both. */
export interface Probe {
  identityHolds(key: string): Promise<boolean>;
  identityCount(): Promise<number>;
  sweepIdentities(): Promise<void>;
  refusedCount(): Promise<number>;
  eventSizes(log: EventStore): Promise<{ size: number; bytes: number }>;
}

export interface Adapter {
  name: 'memory' | 'redis';
  /** Skipped (with this reason) when the adapter cannot run here. */
  skip?: string;
  make(o: StateOptions): Promise<{ state: State; probe: Probe; beat?: () => Promise<void> }>;
}

let server: RedisServer | undefined;
const made: State[] = [];

export const memoryAdapter: Adapter = {
  name: 'memory',
  async make(o) {
    const state = memoryState(o);
    const identities = state.identities as MemoryIdentityStore;
    const probe: Probe = {
      identityHolds: async (k) => identities.holds(k),
      identityCount: async () => identities.size,
      sweepIdentities: async () => identities.sweep(),
      refusedCount: async () => (state.refused as MemoryRefusedTokens).size,
      eventSizes: async (log) => ({
        size: (log as MemoryEventStore).size,
        bytes: (log as MemoryEventStore).bytes,
      }),
    };
    made.push(state);
    return { state, probe };
  },
};

export const redisAdapter: Adapter = {
  name: 'redis',
  skip: REDIS_SKIP_REASON,
  async make(o) {
    const link = await RedisLink.open(server!.url, createLogger('error'));
    const state = await stateOn(link, o);
    const identities = state.identities as RedisIdentityStore;
    const probe: Probe = {
      identityHolds: (k) => identities.holds(k),
      identityCount: () => identities.size(),
      sweepIdentities: () => identities.sweep(),
      refusedCount: () => (state.refused as RedisRefusedTokens).size(),
      eventSizes: (log) => (log as RedisEventStore).sizes(),
    };
    made.push(state);
    return { state, probe, beat: state.beat };
  },
};

export const ADAPTERS = [memoryAdapter, redisAdapter];

/** The Redis server of this file (started by useAdapters). */
export function redisServer(): RedisServer {
  return server!;
}

/** Registers the hooks every file running over both adapters needs. */
export function useAdapters(): void {
  beforeAll(async () => {
    if (!REDIS_SKIP_REASON) server = await startRedis();
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await server?.flush();
  });
  afterEach(async () => {
    for (const state of made.splice(0)) await state.close();
  });
}
