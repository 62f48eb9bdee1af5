/**
 * The state port's door: the interfaces (types.ts), the in-memory adapter, and openState, which chooses the
 * shared adapter when FORGE_MCP_REDIS_URL is set. The Redis adapter (./redis/) is loaded only then: without
 * the setting nothing of it, or of its client, is read.
 */
import { randomBytes } from 'node:crypto';
import { stateKeyBytes } from '../config/grammar.js';
import type { Config } from '../config/types.js';
import type { Logger } from '../log.js';
import { AuthBudgets, type BudgetOptions } from './budgets.js';
import { MemoryEventStore } from './event-store.js';
import { MemoryIdentityStore } from './identities.js';
import { RateLimiter } from './rate-limits.js';
import { MemoryRefusedTokens } from './refused.js';
import { MemorySessionStore } from './sessions.js';
import { MemorySubscriptionStore } from './subscriptions.js';
import type { State } from './types.js';

export type * from './types.js';
export { MemoryEventStore, EVENTS_PER_SESSION, EVENT_BYTES_PER_SESSION, isAnswer } from './event-store.js';
export { MemoryIdentityStore, IDENTITY_CACHE_MAX, sweepEvery } from './identities.js';
export { MemoryRefusedTokens, REFUSED_MEMORY_MAX, REFUSED_MEMORY_MS } from './refused.js';
export { MemorySessionStore } from './sessions.js';
export { MemorySubscriptionStore } from './subscriptions.js';
export { isStateKeyMismatch, isStateUnavailable, StateKeyMismatch, StateUnavailable } from './unavailable.js';

export interface StateOptions {
  /** The identity cache's TTL (FORGE_MCP_OAUTH_CACHE_TTL). */
  identityTtlMs: number;
  /** The authentication budgets (FORGE_MCP_AUTH_*); absent: both off. */
  budgets?: Omit<BudgetOptions, 'now'>;
  /** The per-credential rate limit (FORGE_MCP_RATE_LIMIT_*); absent: off. */
  rateLimit?: { rps: number; burst: number };
  /** How long an idle stateful session lives (FORGE_MCP_SESSION_TIMEOUT; 0: no idle end). */
  sessionTimeoutMs?: number;
  now?: () => number;
  /** Bounds below the defaults (tests). */
  identityMax?: number;
  refusedMax?: number;
  eventsMax?: number;
  eventBytesMax?: number;
  /** FORGE_MCP_STATE_KEY's bytes: seals what the Redis adapter keeps (the memory adapter keeps nothing outside). */
  stateKey?: Uint8Array;
}

/** The state options a server's settings give. */
export function stateOptionsOf(config: Config): StateOptions {
  return {
    identityTtlMs: config.oauthCacheTtlMs,
    budgets: {
      failureLimit: config.authFailureLimit,
      failureWindowMs: config.authFailureWindowMs,
      distinctLimit: config.authDistinctTokenLimit,
      distinctWindowMs: config.authDistinctTokenWindowMs,
    },
    rateLimit: { rps: config.rateLimitRps, burst: config.rateLimitBurst },
    sessionTimeoutMs: config.sessionTimeoutMs,
    ...(config.stateKey ? { stateKey: stateKeyBytes(config.stateKey) as Buffer } : {}),
  };
}

const BUDGETS_OFF = { failureLimit: 0, failureWindowMs: 0, distinctLimit: 0, distinctWindowMs: 0 };

/** State held in this process only. */
export function memoryState(o: StateOptions): State {
  const identities = new MemoryIdentityStore(o.identityTtlMs, o.identityMax, o.now);
  const budgets = new AuthBudgets({ ...(o.budgets ?? BUDGETS_OFF), now: o.now });
  const limiter = new RateLimiter({ ...(o.rateLimit ?? { rps: 0, burst: 0 }), now: o.now });
  const seal = randomBytes(32);
  return {
    identities,
    refused: new MemoryRefusedTokens(o.now, o.refusedMax),
    budgets: {
      enabled: budgets.enabled,
      blocked: async (address) => budgets.blocked(address),
      fail: async (address, digest) => budgets.fail(address, digest),
    },
    rateLimits: {
      enabled: limiter.enabled,
      charge: async (key, methods) => limiter.charge(key, methods),
    },
    sessions: new MemorySessionStore(),
    subscriptions: new MemorySubscriptionStore(),
    eventLog: () => new MemoryEventStore(o.eventsMax, o.eventBytesMax),
    sealKey: async () => seal,
    close: () => identities.close(),
  };
}

/**
 * The state a server runs with: in Redis when FORGE_MCP_REDIS_URL is set (rejects with StateUnavailable when
 * it cannot be reached), else in memory.
 */
export async function openState(config: Config, log: Logger, o = stateOptionsOf(config)): Promise<State> {
  if (!config.redisUrl) return memoryState(o);
  // Stateless, there are no event logs: only the seal key is said to sit there.
  if (!o.stateKey)
    log.info(
      config.stateless
        ? 'shared state: the confirmation seal key is kept in Redis unsealed; FORGE_MCP_STATE_KEY, the same on every replica, keeps it out of Redis'
        : 'shared state: session event logs (every answer of a stateful session, a created token or a CI/CD variable value among them) and the confirmation seal key are kept in Redis unsealed; FORGE_MCP_STATE_KEY, the same on every replica, seals them',
    );
  const { redisState } = await import('./redis/index.js');
  return redisState(config.redisUrl, o, log);
}
