/**
 * The shared-state adapter in Redis (FORGE_MCP_REDIS_URL): every interface of the state port, so replicas
 * behind one load balancer share identities, refused tokens, budgets, rate limits, session records and their
 * event logs, listen-stream counts and the seal key. Loaded only when the setting is set (its own bundle).
 *
 * Keys start with "forge-mcp:" and are credential digests, addresses, session ids or replica ids, never
 * tokens; values hold no token material. Bounds are those of the memory adapter (10,000 identities, 4,096
 * refused tokens for five minutes, 1,000 events and 256 KiB per session log), kept by atomic scripts
 * (scripts.ts), and every key has a TTL: a structure nobody writes to any more expires by itself.
 *
 * What only one process can use stays per replica, under its own id and kept alive by its heartbeat: the
 * registry of followed resources (followers are that replica's connections) and its listen-stream counts,
 * which are summed across the live replicas for the per-credential ceiling.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { EventId, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';
import type { Logger } from '../../log.js';
import { EVENT_BYTES_PER_SESSION, EVENTS_PER_SESSION, isAnswer } from '../event-store.js';
import { IDENTITY_CACHE_MAX, sweepEvery } from '../identities.js';
import { REFUSED_MEMORY_MAX, REFUSED_MEMORY_MS } from '../refused.js';
import {
  Bucket,
  familySpecs,
  GLOBAL_LIST_BURST,
  GLOBAL_LIST_RATE,
  needOf,
  type Family,
} from '../rate-limits.js';
import type { StateOptions } from '../index.js';
import type {
  Block,
  BlockReason,
  BudgetStore,
  IdentityStore,
  LoggedRequest,
  RateLimitStore,
  RefusalKind,
  RefusedTokenStore,
  SessionEventLog,
  SessionRecord,
  SessionStore,
  State,
  StoppedAnswers,
  StoppedCheck,
  StreamRefusal,
  SubscriptionStore,
  Verdict,
  VerifiedIdentity,
} from '../types.js';
import { StateKeyMismatch } from '../unavailable.js';
import { KEY_PREFIX, RedisLink } from './link.js';
import { stateKeys, UNSEALED, type EventSealer } from './sealing.js';

export { KEY_PREFIX } from './link.js';

/** How often a replica says it is alive, and how long after its last word it counts as gone. */
const HEARTBEAT_MS = 10_000;
const REPLICA_TTL_MS = 30_000;
/** A session record's TTL when sessions never end from idleness (refreshed while a replica holds it). */
const SESSION_TTL_NO_TIMEOUT_MS = 24 * 60 * 60_000;

const key = (...parts: string[]) => KEY_PREFIX + parts.join(':');
/** A session's event log (a list) and its counters (a hash). */
const eventKeys = (log: string) => [key('events', log), key('events', log, 'meta')];
/** What a live session keeps in Redis, its record first: each lives for the idle timeout after its last use. */
const sessionKeys = (id: string) => [key('session', id), ...eventKeys(id)];

/** The identity cache in Redis (the memory adapter's bounds: identities.ts). */
export class RedisIdentityStore implements IdentityStore {
  readonly shared = true;
  private readonly keys = [
    key('identities'),
    key('identities', 'recency'),
    key('identities', 'expiry'),
    key('identities', 'seq'),
  ];
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly link: RedisLink,
    private readonly ttlMs: number,
    private readonly max = IDENTITY_CACHE_MAX,
    private readonly now: () => number = Date.now,
  ) {
    this.timer = setInterval(() => void this.sweep().catch(() => undefined), sweepEvery(ttlMs));
    this.timer.unref();
  }

  async fresh(k: string): Promise<VerifiedIdentity | undefined> {
    const raw = (await this.link.script('identityFresh', this.keys, [k, this.now()])) as string | null;
    return raw ? (JSON.parse(raw) as VerifiedIdentity) : undefined;
  }

  async remember(k: string, identity: Omit<VerifiedIdentity, 'expiresAt'>, tokenExpiresAt?: number) {
    const now = this.now();
    const ttlEnd = now + this.ttlMs;
    const expiresAt = tokenExpiresAt === undefined ? ttlEnd : Math.min(ttlEnd, tokenExpiresAt);
    if (expiresAt <= now) return;
    const value = JSON.stringify({ ...identity, expiresAt });
    await this.link.script('identityRemember', this.keys, [k, value, expiresAt, now, this.max, this.ttlMs]);
  }

  async forget(k: string): Promise<void> {
    await this.link.script('identityForget', this.keys, [k]);
  }

  /** Removes expired identities (run by the timer; tests call it with an injected clock). */
  async sweep(): Promise<void> {
    while (((await this.link.script('identitySweep', this.keys, [this.now()])) as number) >= 1000);
  }

  /** Whether the key is held, expired or not (for tests and gauges). */
  holds(k: string): Promise<boolean> {
    return this.link.run(async (c) => (await c.hexists(this.keys[0]!, k)) === 1);
  }

  size(): Promise<number> {
    return this.link.run((c) => c.hlen(this.keys[0]!));
  }

  close(): void {
    clearInterval(this.timer);
  }
}

/** The refused-token memory in Redis (five minutes, 4,096 entries, oldest first out: refused.ts). */
export class RedisRefusedTokens implements RefusedTokenStore {
  private readonly keys = [key('refused'), key('refused', 'order'), key('refused', 'seq')];

  constructor(
    private readonly link: RedisLink,
    private readonly now: () => number = Date.now,
    private readonly max = REFUSED_MEMORY_MAX,
  ) {}

  async get(k: string): Promise<RefusalKind | undefined> {
    const kind = await this.link.script('refusedGet', this.keys, [k, this.now()]);
    return (kind as RefusalKind | null) ?? undefined;
  }

  async remember(k: string, kind: RefusalKind): Promise<void> {
    const until = this.now() + REFUSED_MEMORY_MS;
    await this.link.script('refusedRemember', this.keys, [k, until, kind, this.max, REFUSED_MEMORY_MS]);
  }

  size(): Promise<number> {
    return this.link.run((c) => c.hlen(this.keys[0]!));
  }
}

/** Authentication budgets in Redis, one entry per address (budgets.ts's rules, in budgetFail). */
export class RedisBudgets implements BudgetStore {
  readonly enabled: boolean;
  private readonly limits: number[];

  constructor(
    private readonly link: RedisLink,
    o: NonNullable<StateOptions['budgets']>,
    private readonly now: () => number = Date.now,
  ) {
    this.enabled =
      o.failureWindowMs > 0 && (o.failureLimit > 0 || (o.distinctLimit > 0 && o.distinctWindowMs > 0));
    this.limits = [o.failureLimit, o.failureWindowMs, o.distinctLimit, o.distinctWindowMs];
  }

  async blocked(address: string): Promise<number> {
    if (!this.enabled) return 0;
    return (await this.link.script(
      'budgetBlocked',
      [key('budget', address)],
      [this.now(), ...this.limits],
    )) as number;
  }

  async fail(address: string, digest: string): Promise<Block | undefined> {
    if (!this.enabled) return undefined;
    const r = (await this.link.script(
      'budgetFail',
      [key('budget', address)],
      [this.now(), ...this.limits, digest],
    )) as [BlockReason, number, number] | null;
    return r ? { reason: r[0], step: r[1], retryAfterS: r[2] } : undefined;
  }
}

/**
 * Rate limits in Redis: each credential's buckets shared by every replica; the process-wide tools/list bucket
 * stays the process's own (it protects this process), and is consulted inside the same all-or-nothing charge.
 */
export class RedisRateLimits implements RateLimitStore {
  readonly enabled: boolean;
  private readonly specs: ReturnType<typeof familySpecs>;
  private readonly global: Bucket;

  constructor(
    private readonly link: RedisLink,
    o: { rps: number; burst: number },
    private readonly now: () => number = Date.now,
  ) {
    this.enabled = o.rps > 0;
    this.specs = familySpecs(o.rps, o.burst);
    this.global = new Bucket({ rate: GLOBAL_LIST_RATE, burst: GLOBAL_LIST_BURST }, this.now());
  }

  async charge(k: string, methods: string[]): Promise<Verdict> {
    if (!this.enabled) return { ok: true };
    const need = needOf(methods);
    const families = Object.keys(need) as Family[];
    if (families.length === 0) return { ok: true };
    const now = this.now();
    let gwait = 0;
    let gfull = 0;
    if (need.list) {
      const wait = this.global.waitFor(need.list, now);
      gwait = wait === Infinity ? -1 : wait;
      gfull = ((GLOBAL_LIST_BURST - this.global.level(now)) / GLOBAL_LIST_RATE) * 1000;
    }
    const args: Array<string | number> = [now, gwait, gfull];
    for (const f of families) args.push(f, need[f]!, this.specs[f].rate, this.specs[f].burst);
    const r = (await this.link.script('rateCharge', [key('rate', k)], args)) as [
      number,
      number?,
      string?,
      number?,
    ];
    if (r[0] === 1) {
      if (need.list) this.global.take(need.list, now);
      return { ok: true };
    }
    return { ok: false, retryAfterS: r[1]!, family: r[2] as Family | 'global', tooLarge: r[3] === 1 };
  }
}

/**
 * Session records in Redis. A record lives for the idle timeout after its last activity; a replica serving a
 * session keeps its record alive with its heartbeat, so a long open stream never loses it, and a record whose
 * replica is gone expires.
 */
export class RedisSessionStore implements SessionStore {
  /** Ids this replica put or touched and has not deleted: refreshed by the heartbeat. */
  readonly held = new Set<string>();

  constructor(
    private readonly link: RedisLink,
    readonly ttlMs: number,
  ) {}

  async put(r: SessionRecord): Promise<void> {
    this.held.add(r.id);
    const fields = {
      owner: r.owner,
      openedAt: r.openedAt,
      lastActive: r.lastActive,
      ...(r.init ? { init: JSON.stringify(r.init) } : {}),
    };
    await this.link.run((c) =>
      c
        .multi()
        .del(key('session', r.id))
        .hset(key('session', r.id), fields)
        .pexpire(key('session', r.id), this.ttlMs)
        .exec(),
    );
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const h = await this.link.run((c) => c.hgetall(key('session', id)));
    if (!h.owner) return undefined;
    return {
      id,
      owner: h.owner,
      openedAt: Number(h.openedAt),
      lastActive: Number(h.lastActive),
      ...(h.init ? { init: JSON.parse(h.init) as Record<string, unknown> } : {}),
    };
  }

  async touch(id: string, at: number): Promise<void> {
    if ((await this.link.script('sessionTouch', sessionKeys(id), [at, this.ttlMs])) === 1) this.held.add(id);
  }

  release(id: string): void {
    this.held.delete(id);
  }

  async delete(id: string): Promise<void> {
    this.held.delete(id);
    await this.link.run((c) => c.del(key('session', id)));
  }
}

/**
 * One session's event log in Redis (the SDK's EventStore; bounds as event-store.ts). Its event ids name the
 * log ("<log>_<seq>"), so any replica holding a store of the same log (the session id) replays it; a store
 * replays only its own log, so a Last-Event-ID of another session is as unknown as one never issued.
 *
 * Sealed (FORGE_MCP_STATE_KEY), an entry is bound to its log, its stream and its sequence number, the event id
 * a client resumes after: one copied to another place in the log, or swapped with another, does not open. The
 * sequence number is Redis', so a message is sealed for the one this store expects and written only if it is
 * still the next; else sealed again for the one Redis says (a write of another replica came first). A store
 * writes its events one after another, so its own writes never race each other.
 */
export class RedisEventStore implements SessionEventLog {
  /** The sequence number the next sealed event is expected to take. */
  private next = 1;
  /** The sealed writes of this store, in turn. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly link: RedisLink,
    readonly log: string,
    private readonly ttlMs: number,
    private readonly max = EVENTS_PER_SESSION,
    private readonly maxBytes = EVENT_BYTES_PER_SESSION,
    /** FORGE_MCP_STATE_KEY's: each message is sealed before it is written, and opened when read. */
    private readonly sealer?: EventSealer,
    /** This replica's id: what the log records as the answerer of the streams it opens. */
    private readonly replica = '',
  ) {}

  private get keys() {
    return eventKeys(this.log);
  }

  /** What a sealed message is bound to: it opens only in this log, on this stream, as this event. */
  private context(stream: string, seq: number): string {
    return `${this.log}\n${stream}\n${seq}`;
  }

  /** A message's text as it is written as event `seq`: sealed with FORGE_MCP_STATE_KEY's key when set. */
  private written(text: string, stream: string, seq: number): string {
    return this.sealer ? this.sealer.seal(text, this.context(stream, seq)) : text;
  }

  storeEvent(
    stream: StreamId,
    message: JSONRPCMessage,
    requests?: readonly LoggedRequest[],
  ): Promise<EventId> {
    const answerer = requests?.length
      ? [this.replica, ...requests.map((r) => `${r.tool ? 't' : 'o'} ${JSON.stringify(r.id)}`)].join('\n')
      : isAnswer(message)
        ? `answer ${JSON.stringify((message as { id: unknown }).id)}`
        : '';
    const append = () => this.append(stream, JSON.stringify(message), answerer);
    if (!this.sealer) return append();
    const written = this.queue.then(append);
    this.queue = written.catch(() => undefined);
    return written;
  }

  private async append(stream: StreamId, text: string, answerer: string): Promise<EventId> {
    for (;;) {
      const seq = this.next;
      // The bounds count the message's own bytes, sealed or not, so a log keeps the same events either way.
      const stored = (await this.link.script('eventStore', this.keys, [
        stream,
        this.written(text, stream, seq),
        Buffer.byteLength(text),
        this.max,
        this.maxBytes,
        this.ttlMs,
        answerer,
        this.sealer ? seq : '',
      ])) as number;
      this.next = Math.abs(stored) + (stored > 0 ? 1 : 0);
      if (stored > 0) return `${this.log}_${stored}`;
    }
  }

  async answerIfStopped(stream: StreamId, answers: StoppedAnswers): Promise<StoppedCheck> {
    for (;;) {
      // One round trip while the answerer lives (a tailed stream asks on every poll).
      const found = (await this.link.script(
        'eventAnswerer',
        [this.keys[1]!, key('replicas')],
        [stream, Date.now()],
      )) as 0 | 1 | [string, number];
      if (found === 0) return 'answered';
      if (found === 1) return 'answering';
      // Its heartbeat lapsed: the answers to what it left unanswered are written (sealed as any event) if the
      // record read is still there, so one replica writes them however many ask.
      const [record, next] = found;
      const written: Array<string | number> = [];
      record
        .split('\n')
        .slice(1)
        .forEach((r, i) => {
          const body = r.startsWith('t ') ? answers.tool : answers.other;
          const text = JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(r.slice(2)) as unknown, ...body });
          written.push(this.written(text, stream, next + i), Buffer.byteLength(text));
        });
      const stored = await this.link.script('eventAnswerStopped', this.keys, [
        stream,
        record,
        this.sealer ? next : '',
        this.max,
        this.maxBytes,
        this.ttlMs,
        ...written,
      ]);
      if (stored === 1) return 'stored';
      // Another replica stored them first, or the replica answered after all: asked again, the log says which.
      if (stored === 0)
        return (await this.link.run((c) => c.hexists(this.keys[1]!, `answerer:${stream}`)))
          ? 'answering'
          : 'answered';
    }
  }

  /**
   * The events kept from `seq` on (at most `count`), oldest first; none when it is no longer kept. An event's
   * sequence number is its place in the log (the list holds them consecutive), which a sealed entry must open for.
   */
  private async from(
    seq: number,
    count = -1,
  ): Promise<Array<{ seq: number; stream: string; message: string }>> {
    const rows = (await this.link.script('eventsFrom', [this.keys[0]!], [seq, count])) as string[];
    const events = rows.map((row, i) => {
      const a = row.indexOf('\n');
      const b = row.indexOf('\n', a + 1);
      const c = row.indexOf('\n', b + 1);
      return { seq: seq + i, stream: row.slice(b + 1, c), message: row.slice(c + 1) };
    });
    if (!this.sealer) return events;
    // An entry that does not open is absent: the event asked for, and then the log from it, or one after it.
    const opened = [];
    for (const e of events) {
      const message = this.sealer.open(e.message, this.context(e.stream, e.seq));
      if (message === undefined && e.seq === seq) return [];
      if (message !== undefined) opened.push({ ...e, message });
    }
    return opened;
  }

  private seqOf(id: EventId): number | undefined {
    const at = id.lastIndexOf('_');
    if (at < 0 || id.slice(0, at) !== this.log) return undefined;
    const seq = Number(id.slice(at + 1));
    return Number.isSafeInteger(seq) ? seq : undefined;
  }

  async getStreamIdForEventId(id: EventId): Promise<StreamId | undefined> {
    const seq = this.seqOf(id);
    if (seq === undefined) return undefined;
    return (await this.from(seq, 1))[0]?.stream;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (id: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const seq = this.seqOf(lastEventId);
    const events = seq === undefined ? [] : await this.from(seq);
    if (events.length === 0) throw new Error(`event ${lastEventId} is no longer kept: start a new session`);
    const stream = events[0]!.stream;
    for (const e of events.slice(1))
      if (e.stream === stream) await send(`${this.log}_${e.seq}`, JSON.parse(e.message) as JSONRPCMessage);
    return stream;
  }

  /** Events and serialized bytes held (for tests). */
  async sizes(): Promise<{ size: number; bytes: number }> {
    const [size, bytes] = await this.link.run((c) =>
      Promise.all([c.llen(this.keys[0]!), c.hget(this.keys[1]!, 'bytes')]),
    );
    return { size, bytes: Number(bytes ?? 0) };
  }
}

/** Subscriptions in Redis: this replica's registry and stream counts, the credential ceiling across replicas. */
export class RedisSubscriptionStore implements SubscriptionStore {
  private total = 0;
  /** This replica's streams by owner: the truth its heartbeat writes to Redis. */
  private readonly held = new Map<string, number>();
  readonly streamsKey: string;
  readonly registryKey: string;

  constructor(
    private readonly link: RedisLink,
    readonly replica: string,
  ) {
    this.streamsKey = key('replica', replica, 'streams');
    this.registryKey = key('replica', replica, 'followed');
  }

  async openStream(
    owner: string,
    ceilings: { perCredential: number; perProcess: number },
  ): Promise<StreamRefusal | undefined> {
    // The process's slot is taken before the store is asked, so concurrent opens never pass the ceiling.
    const full = this.total >= ceilings.perProcess;
    if (!full) this.reserve(owner, 1);
    let r: [StreamRefusal['ceiling'], number] | null;
    try {
      r = (await this.link.script(
        'streamOpen',
        [key('replicas'), this.streamsKey],
        [
          this.replica,
          owner,
          ceilings.perCredential,
          full ? 1 : 0,
          ceilings.perProcess,
          Date.now(),
          REPLICA_TTL_MS,
          KEY_PREFIX,
        ],
      )) as typeof r;
    } catch (err) {
      if (!full) this.reserve(owner, -1);
      throw err;
    }
    if (!r) return undefined;
    if (!full) this.reserve(owner, -1);
    return { ceiling: r[0], limit: r[1] };
  }

  private reserve(owner: string, n: 1 | -1): void {
    const held = (this.held.get(owner) ?? 0) + n;
    if (held > 0) this.held.set(owner, held);
    else this.held.delete(owner);
    this.total = Math.max(0, this.total + n);
  }

  /** Gives the stream back here at once, and in Redis when it answers (else at the next heartbeat). */
  async closeStream(owner: string): Promise<void> {
    if (!this.held.has(owner)) return;
    this.reserve(owner, -1);
    await this.link.script('streamClose', [this.streamsKey], [owner]);
  }

  /** (owner, count) pairs of the streams this replica holds, for the heartbeat. */
  heldPairs(): Array<string | number> {
    return [...this.held].flat();
  }

  async follow(owner: string, uri: string, subscriber: string, version: string): Promise<void> {
    await this.link.script('follow', [this.registryKey], [owner, uri, subscriber, version, REPLICA_TTL_MS]);
  }

  async unfollow(subscriber: string, uri?: string): Promise<void> {
    await this.link.script(
      'unfollow',
      [this.registryKey],
      [subscriber, uri ?? '', uri === undefined ? 0 : 1],
    );
  }

  async forgetOwner(owner: string): Promise<string[]> {
    const subscribers = (await this.link.script('forgetOwner', [this.registryKey], [owner])) as string[];
    return [...new Set(subscribers)];
  }

  async followed() {
    const all = await this.link.run((c) => c.hgetall(this.registryKey));
    return Object.values(all).map((raw) => {
      const e = JSON.parse(raw) as { o: string; u: string; s: string[]; v: string };
      return { owner: e.o, uri: e.u, subscribers: e.s, version: e.v };
    });
  }

  async seen(owner: string, uri: string, version: string): Promise<boolean> {
    return (await this.link.script('seen', [this.registryKey], [owner, uri, version])) === 1;
  }

  /** Listen streams this replica holds (for tests and gauges). */
  streamsOf(): number {
    return this.total;
  }
}

/** The check value replicas sharing a Redis server compare: the same state key, or none, on all. */
const SEALING = key('sealing');
/** The live replicas refused for sealing otherwise than the check value: they do not keep it. */
const REFUSED_REPLICAS = key('replicas', 'refused');

/**
 * Claims the Redis server for replicas sealing as this one does (`mine`: its key's check value, or UNSEALED),
 * counting this replica live, or refuses the start when the live replicas seal otherwise. The mark lives as
 * long as a replica renews it.
 */
async function claimSealing(link: RedisLink, mine: string, replica: string): Promise<void> {
  const held = await markSealing(link, mine, replica);
  if (held)
    throw new StateKeyMismatch(`FORGE_MCP_STATE_KEY: ${sealingConflict(link, mine, held)}`, link.where);
}

/** What is wrong when the replicas holding the server seal as `held` and this one as `mine`, and what to do. */
function sealingConflict(link: RedisLink, mine: string, held: string): string {
  const settle = `(a stopped replica's check value lasts ${REPLICA_TTL_MS / 1000} s at most)`;
  return mine === UNSEALED
    ? `it is not set here, but the replicas using the Redis server at ${link.where} seal what they keep there with one: set the same FORGE_MCP_STATE_KEY on this replica`
    : held === UNSEALED
      ? `the replicas using the Redis server at ${link.where} run without one: set the same FORGE_MCP_STATE_KEY on every replica sharing that server, stopping those without it first ${settle}`
      : `the replicas using the Redis server at ${link.where} seal what they keep there with another key: set the same FORGE_MCP_STATE_KEY on every replica sharing that server; to change it, stop them all, then start them with the new one ${settle}`;
}

/**
 * Renews the check value as a running replica: should a Redis server that lost it (restarted empty) have been
 * claimed meanwhile by a replica sealing otherwise, this one refuses what needs shared state until that one is
 * gone (its value lapsed), rather than run beside it reading its entries as garbage.
 */
async function renewSealing(link: RedisLink, mine: string, replica: string): Promise<void> {
  const held = await markSealing(link, mine, replica);
  link.refuse(
    held
      ? `FORGE_MCP_STATE_KEY: the Redis server at ${link.where} lost this replica's check value (restarted empty) and a replica started meanwhile holds it: ${sealingConflict(link, mine, held)}. Until then this replica answers what needs shared state 503; the calls it is answering run to their end, their answers reach the clients still connected and are written to the session logs once it serves again, and it keeps its heartbeat, so no replica answers them in its stead ('replica stopped')`
      : undefined,
  );
}

/** Sets or renews the check value, counting the replica live; the value held instead when it differs. */
const markSealing = async (link: RedisLink, mine: string, replica: string) =>
  (await link.script(
    'sealingClaim',
    [SEALING, key('replicas')],
    [mine, replica, Date.now(), REPLICA_TTL_MS],
    true,
  )) as string | null;

/** The seal key every replica shares: the first replica's random key, kept by all. */
async function sharedSealKey(link: RedisLink, mine: Buffer): Promise<Buffer> {
  const hex = await link.run(async (c) => {
    await c.set(key('seal'), mine.toString('hex'), 'NX');
    return c.get(key('seal'));
  });
  return hex && /^[0-9a-f]{64,}$/.test(hex) ? Buffer.from(hex, 'hex') : mine;
}

/** State in Redis; rejects with StateUnavailable when the server cannot be reached. */
export async function redisState(url: string, o: StateOptions, log: Logger): Promise<State> {
  const link = await RedisLink.open(url, log);
  await warnIfEvicting(link);
  return stateOn(link, o);
}

/**
 * Says once, at start, when the server may evict keys (a maxmemory with any policy but noeviction: every key of
 * the adapter has a TTL, so the volatile policies take them too). An evicted key is shared state lost mid-use:
 * a session record (the session ends early), an event log's counters (its sealed entries read as absent). A
 * server that does not let CONFIG be asked (managed Redis) is taken as it is, and nothing is said.
 */
async function warnIfEvicting(link: RedisLink): Promise<void> {
  let pairs: string[];
  try {
    pairs = (await link.client.config('GET', 'maxmemory*')) as string[];
  } catch {
    return;
  }
  const config = new Map<string, string>();
  for (let i = 0; i + 1 < pairs.length; i += 2) config.set(pairs[i]!, pairs[i + 1]!);
  const maxmemory = Number(config.get('maxmemory') ?? '0');
  const policy = config.get('maxmemory-policy') ?? 'noeviction';
  if (!(maxmemory > 0) || policy === 'noeviction') return;
  link.log.warn(
    { redis: link.where, maxmemoryPolicy: policy },
    `FORGE_MCP_REDIS_URL (--redis-url): the Redis server at ${link.where} evicts keys when full (maxmemory ${maxmemory} bytes, maxmemory-policy ${policy}), and an evicted key is shared state lost while in use: a stateful session ends early, a sealed event-log entry reads as absent; set maxmemory-policy noeviction on it (a full server then refuses writes, answered 503 here), or no maxmemory`,
  );
}

/** The adapter on an open link (tests build it with a lowered bound or an injected clock). */
export async function stateOn(link: RedisLink, o: StateOptions): Promise<State & RedisParts> {
  const replica = randomUUID();
  const identities = new RedisIdentityStore(link, o.identityTtlMs, o.identityMax, o.now);
  const sessionTtl = o.sessionTimeoutMs ? o.sessionTimeoutMs : SESSION_TTL_NO_TIMEOUT_MS;
  const sessions = new RedisSessionStore(link, sessionTtl);
  const subscriptions = new RedisSubscriptionStore(link, replica);
  const sealed = o.stateKey ? stateKeys(o.stateKey, link.log) : undefined;
  const sealing = sealed?.check ?? UNSEALED;
  await claimSealing(link, sealing, replica);
  let seal: Buffer;
  if (sealed) {
    // Derived from the state key, the seal key is not kept in Redis: one kept there before has no use left.
    seal = sealed.seal;
    await link.run((c) => c.del(key('seal')));
  } else {
    // The key is read once and kept; a Redis that lost it (restarted without persistence) is given it back, so
    // replicas that share it keep sharing it.
    seal = await sharedSealKey(link, randomBytes(32));
    link.whenBack(async () => (seal = await sharedSealKey(link, seal)));
  }
  // The check value lasts while a replica lives, and is given back at once to a Redis that lost it.
  const mark = () => renewSealing(link, sealing, replica);
  link.whenBack(mark);
  const beat = async () => {
    await mark();
    // Said even while refused for replicas sealing otherwise: this one is alive, finishing the calls it began,
    // and no replica is to answer them in its stead ("replica stopped") while it does.
    await link.script(
      'heartbeat',
      [key('replicas'), subscriptions.streamsKey, subscriptions.registryKey, REFUSED_REPLICAS],
      [replica, Date.now(), REPLICA_TTL_MS, link.refused ? 1 : 0, ...subscriptions.heldPairs()],
      true,
    );
    if (sessions.held.size === 0) return;
    // The sessions this replica serves, and their event logs, live as long as it does; one ended elsewhere
    // (its record gone) is no longer held.
    const ids = [...sessions.held];
    const keys = ids.map(sessionKeys);
    const results = await link.run((c) => {
      const m = c.multi();
      for (const k of keys.flat()) m.pexpire(k, sessions.ttlMs);
      return m.exec();
    });
    // Each session's first reply is its record's.
    ids.forEach((id, i) => {
      if (results?.[i * keys[0]!.length]?.[1] === 0) sessions.held.delete(id);
    });
  };
  await beat();
  const timer = setInterval(() => void beat().catch(() => undefined), HEARTBEAT_MS);
  timer.unref();
  return {
    link,
    beat,
    identities,
    refused: new RedisRefusedTokens(link, o.now, o.refusedMax),
    budgets: new RedisBudgets(
      link,
      o.budgets ?? { failureLimit: 0, failureWindowMs: 0, distinctLimit: 0, distinctWindowMs: 0 },
      o.now,
    ),
    rateLimits: new RedisRateLimits(link, o.rateLimit ?? { rps: 0, burst: 0 }, o.now),
    sessions,
    subscriptions,
    eventLog: (hint) =>
      new RedisEventStore(
        link,
        hint ?? randomUUID(),
        sessionTtl,
        o.eventsMax,
        o.eventBytesMax,
        sealed?.events,
        replica,
      ),
    sealKey: async () => seal,
    close: async () => {
      clearInterval(timer);
      identities.close();
      // This replica's own keys go with it (its registry and stream counts); shared state stays. The last live
      // replica takes the sealing mark with it, so replicas started next with another key need not wait for it.
      await link
        .script(
          'replicaLeave',
          [key('replicas'), SEALING, subscriptions.streamsKey, subscriptions.registryKey, REFUSED_REPLICAS],
          [replica, Date.now()],
        )
        .catch(() => undefined);
      await link.close();
    },
  };
}

export interface RedisParts {
  link: RedisLink;
  /** Says this replica is alive and writes its stream counts (every ten seconds; tests call it at once). */
  beat(): Promise<void>;
}
