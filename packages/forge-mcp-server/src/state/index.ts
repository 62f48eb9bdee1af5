/**
 * The state port's door: the interfaces (types.ts) and the in-memory adapter every process uses today.
 * A shared adapter implements `State` and is chosen here by one setting; no other room changes.
 */
import { MemoryEventStore } from './event-store.js';
import { MemoryIdentityStore } from './identities.js';
import { MemoryRefusedTokens } from './refused.js';
import { MemorySessionStore } from './sessions.js';
import { MemorySubscriptionStore } from './subscriptions.js';
import type { State } from './types.js';

export type * from './types.js';
export { MemoryEventStore, EVENTS_PER_SESSION, EVENT_BYTES_PER_SESSION } from './event-store.js';
export { MemoryIdentityStore, IDENTITY_CACHE_MAX, sweepEvery } from './identities.js';
export { MemoryRefusedTokens, REFUSED_MEMORY_MAX, REFUSED_MEMORY_MS } from './refused.js';
export { MemorySessionStore } from './sessions.js';
export { MemorySubscriptionStore } from './subscriptions.js';

export interface MemoryStateOptions {
  /** The identity cache's TTL (FORGE_MCP_OAUTH_CACHE_TTL). */
  identityTtlMs: number;
  now?: () => number;
}

/** State held in this process only. */
export function memoryState(o: MemoryStateOptions): State {
  const identities = new MemoryIdentityStore(o.identityTtlMs, undefined, o.now);
  return {
    identities,
    refused: new MemoryRefusedTokens(o.now),
    sessions: new MemorySessionStore(),
    subscriptions: new MemorySubscriptionStore(),
    eventLog: () => new MemoryEventStore(),
    close: () => identities.close(),
  };
}
