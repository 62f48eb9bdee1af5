/**
 * The port for state that several replicas of the server share: the verified identity cache, the refused-token
 * memory, the authentication budgets, the rate-limit buckets, the stateful-session records and the event log a
 * broken stream resumes from, the subscriptions, and the key that seals confirmation states. Each is a small
 * interface with an in-memory implementation (state/index.ts: memoryState); FORGE_MCP_REDIS_URL chooses the
 * shared adapter (state/redis/), with no change to the rooms that use them.
 *
 * Rules for an adapter: every method may be asynchronous (callers always await); keys are credential digests
 * or session ids, never tokens; values hold no token material; an adapter owns its own expiry (TTL, caps)
 * with the bounds documented on each in-memory implementation; close() stops its timers and connections.
 */
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/** A verified identity (OAuth mode). No token material. */
export interface VerifiedIdentity {
  userId?: number;
  username?: string;
  scopes: string[];
  /** Neither the token's description nor introspection answered: `scopes` is the assumed api, not read. */
  scopesAssumed?: boolean;
  /** When this verification stops counting: the earlier of the cache TTL and the token's own expiry. */
  expiresAt: number;
}

/** Verified identities by credential digest (state/identities.ts: 10,000, expired-then-LRU, swept). */
export interface IdentityStore {
  /**
   * Shared by several replicas (the Redis adapter): a replica not holding the credential's session may open
   * one from another replica's verification instead of verifying again.
   */
  readonly shared?: boolean;
  /** A verification still good now (marked recently used); undefined when absent or expired. */
  fresh(key: string): Promise<VerifiedIdentity | undefined>;
  /** Records a successful verification; `tokenExpiresAt` (ms) is the token's own expiry when known. */
  remember(
    key: string,
    identity: Omit<VerifiedIdentity, 'expiresAt'>,
    tokenExpiresAt?: number,
  ): Promise<void>;
  forget(key: string): Promise<void>;
  close(): void;
}

/**
 * Why a remembered token was refused: the instance said 401, the application pin did not admit it, or a
 * fine-grained token lacks User: Read.
 */
export type RefusalKind = 'invalid' | 'pin' | 'fine-grained-no-user';

/** Tokens refused recently, by credential digest (state/refused.ts: five minutes, 4,096 entries). */
export interface RefusedTokenStore {
  get(key: string): Promise<RefusalKind | undefined>;
  remember(key: string, kind: RefusalKind): Promise<void>;
}

/** What is known of a stateful MCP session beyond the process serving its streams. */
export interface SessionRecord {
  id: string;
  /** Digest of instance and token of the credential that opened it; only that credential may use it. */
  owner: string;
  /** Date.now() values. */
  openedAt: number;
  lastActive: number;
  /**
   * The params of the `initialize` that opened it (protocol version, client capabilities and info), so a
   * replica that does not hold the session can continue it as initialized. No token material.
   */
  init?: Record<string, unknown>;
}

/** Stateful-session records by session id (state/sessions.ts). */
export interface SessionStore {
  put(record: SessionRecord): Promise<void>;
  get(id: string): Promise<SessionRecord | undefined>;
  /** Marks activity (a request, a stream ending). */
  touch(id: string, at: number): Promise<void>;
  delete(id: string): Promise<void>;
  /**
   * This process let its copy of the session go while the session lives on elsewhere (another replica serves
   * it, or this one shuts down): it stops keeping the record alive, which then lasts as the others keep it.
   */
  release?(id: string): void;
}

/** Why a listen stream was refused: the credential's ceiling or the process's. */
export type StreamRefusal = { ceiling: 'credential' | 'process'; limit: number };

/**
 * Subscriptions (state/subscriptions.ts): the listen streams each credential holds open, and the registry of
 * which resources are followed on behalf of which credential with the version last seen of each (an ETag or a
 * content digest), so that whoever polls can tell a change. `owner` is a credential digest; `subscriber` names
 * one follower (a stateful session, a listen stream); no value holds token material.
 */
export interface SubscriptionStore {
  /**
   * Takes a listen stream for `owner` unless a ceiling is reached: `perCredential` streams of this owner
   * (0: no per-credential ceiling) or `perProcess` streams of this process. Undefined when taken.
   */
  openStream(
    owner: string,
    ceilings: { perCredential: number; perProcess: number },
  ): Promise<StreamRefusal | undefined>;
  /** Gives back a stream openStream took. */
  closeStream(owner: string): Promise<void>;
  /** Records that `subscriber` follows `uri` for `owner`, with the version it starts from. */
  follow(owner: string, uri: string, subscriber: string, version: string): Promise<void>;
  /** Forgets what `subscriber` follows (only `uri` when given). */
  unfollow(subscriber: string, uri?: string): Promise<void>;
  /** Forgets every subscription of `owner` (its pool entry ended); answers the subscribers it had. */
  forgetOwner(owner: string): Promise<string[]>;
  /** Every (owner, uri) someone follows, with its followers and the version last seen. */
  followed(): Promise<Array<{ owner: string; uri: string; subscribers: string[]; version: string }>>;
  /**
   * Records the version just read; answers true when it differs from the last one seen (a change to announce).
   * Followers are connections one process holds and each process tells its own, so a shared adapter keeps the
   * registry of each replica apart (only the per-credential stream counts are summed across replicas).
   */
  seen(owner: string, uri: string, version: string): Promise<boolean>;
}

export type BlockReason = 'failure_lockout' | 'distinct_tokens';

/** A block an address's spent authentication budget starts. */
export interface Block {
  reason: BlockReason;
  /** Whole seconds until the block ends (at least 1). */
  retryAfterS: number;
  step: number;
}

/** Authentication budgets by client address (state/budgets.ts: escalating blocks, 100,000 addresses). */
export interface BudgetStore {
  /** False when both budgets are off: nothing is charged or refused. */
  readonly enabled: boolean;
  /** Whole seconds left on the block in force at `address`, or 0 when it is not blocked. */
  blocked(address: string): Promise<number>;
  /** Charges one refused credential (by digest) to `address`; answers the block it starts, if any. */
  fail(address: string, digest: string): Promise<Block | undefined>;
}

export type Family = 'call' | 'completion' | 'list';

/** What charging a request's methods to a credential's buckets answers. */
export type Verdict =
  | { ok: true }
  | {
      ok: false;
      /** Whole seconds to wait (at least 1); for a batch larger than the burst, the time to a full bucket. */
      retryAfterS: number;
      family: Family | 'global';
      /** A batch asks for more than the bucket can ever hold. */
      tooLarge: boolean;
    };

/** Rate-limit token buckets by credential digest (state/rate-limits.ts). */
export interface RateLimitStore {
  /** False when the limiter is off (rate 0). */
  readonly enabled: boolean;
  /** Charges the methods of one request to `key`'s buckets, all or nothing: a refused request takes no token. */
  charge(key: string, methods: string[]): Promise<Verdict>;
}

/** A request a stream carries, as its session's log records it with the stream's first event. */
export interface LoggedRequest {
  id: string | number;
  /** A tools/call (its stand-in answer is a tool error; any other request's is a JSON-RPC error). */
  tool: boolean;
}

/** The answer bodies (everything of a JSON-RPC answer but its id) for requests whose replica stopped. */
export interface StoppedAnswers {
  tool: { result: Record<string, unknown> };
  other: { error: { code: number; message: string } };
}

/** What a shared log found of a stream's answerer (SessionEventLog.answerIfStopped). */
export type StoppedCheck = 'stored' | 'answering' | 'answered';

/**
 * A stateful session's event log: the SDK's EventStore, and, where replicas share it, which replica answers
 * each request stream, so another replica passing the stream on can tell when the one answering it is gone.
 */
export interface SessionEventLog extends EventStore {
  /**
   * `requests`, given with a stream's first event (its priming event): the requests this process answers on
   * that stream. A shared log records this replica as their answerer until it stores an answer.
   */
  storeEvent(
    stream: StreamId,
    message: JSONRPCMessage,
    requests?: readonly LoggedRequest[],
  ): Promise<EventId>;
  /**
   * A shared log only: when the replica recorded as answering `stream` has stopped (its heartbeat lapsed, or
   * it left) before answering each of its requests, stores `answers` for those left unanswered in its stead,
   * once however many replicas ask at once. Resolves with what it found: `stored` (this call stored them),
   * `answering` (a live replica still answers some of them), `answered` (none awaits an answer).
   */
  answerIfStopped?(stream: StreamId, answers: StoppedAnswers): Promise<StoppedCheck>;
}

/** The shared state a process runs with. */
export interface State {
  identities: IdentityStore;
  refused: RefusedTokenStore;
  budgets: BudgetStore;
  rateLimits: RateLimitStore;
  sessions: SessionStore;
  subscriptions: SubscriptionStore;
  /**
   * The event log of one stateful session, by its id (the SDK's EventStore port; state/event-store.ts). A
   * shared adapter answers the same log for the same id on every replica, so a stream broken on one resumes
   * on another with Last-Event-ID.
   */
  eventLog(sessionId?: string): SessionEventLog;
  /**
   * The key confirmation states are sealed with (at least 32 bytes): one per process in memory, one for every
   * replica in a shared store, so a confirmation one replica issued is accepted by another.
   */
  sealKey(): Promise<Uint8Array>;
  close(): void | Promise<void>;
}
