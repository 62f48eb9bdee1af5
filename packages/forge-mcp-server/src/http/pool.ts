/**
 * The credential pool (HTTP mode): one session per instance and credential digest, least recently used first
 * out, and the whole life of an entry. An entry leaves for one of the spec's eight reasons, each counted,
 * published on the pool-evict channel and logged at INFO with the running counts:
 *
 * - size_pressure: the pool is full; the least recently used entry not serving a subscription goes;
 * - size_pressure_busy: every entry serves a subscription; the oldest goes anyway (WARN, in_use=true);
 * - idle: unused for FORGE_MCP_POOL_IDLE_TIMEOUT (0 disables; an entry serving a subscription is not idle);
 * - stale_credential: not checked against the instance for an hour (revalidation off or failing);
 * - rejected_credential: a call's 401 named the token, or the probe after a 401 was refused;
 * - invalid_credential: revalidation found the token refused;
 * - below_minimum: the token turned out to carry neither read_api nor api;
 * - rebuild: catalog registration failed (building the entry's MCP server threw); its next request builds it anew.
 *
 * Entries dropped at shutdown, or whose opening failed, are not counted.
 */
import { channels, publish, type PoolEvictEvent } from '../channels.js';
import type { Logger } from '../log.js';
import type { Session } from '../session/index.js';

export type EvictionReason = PoolEvictEvent['reason'];
export const EVICTION_REASONS: EvictionReason[] = [
  'size_pressure',
  'size_pressure_busy',
  'idle',
  'stale_credential',
  'rejected_credential',
  'invalid_credential',
  'below_minimum',
  'rebuild',
];
/** An entry not checked against the instance for this long is stale (spec: Limits). */
export const STALE_CEILING_MS = 60 * 60_000;

interface Entry {
  session: Promise<Session>;
  ready?: Session;
  lastUsed: number;
  lastChecked: number;
  /** Live subscriptions (and other long holds) on this entry. */
  busy: number;
  checking?: boolean;
}

export interface PoolOptions {
  max: number;
  /** 0: entries never leave for idleness. */
  idleTimeoutMs?: number;
  /** 0: no periodic check (entries then go stale after an hour). */
  revalidateIntervalMs?: number;
  log?: Logger;
  now?: () => number;
  /** Called once an entry's session has opened (to watch its calls for a refused token). */
  onOpened?: (key: string, session: Session) => void;
  /** Checks a held credential against the instance: 'refused' when the instance refused the token. */
  check?: (session: Session) => Promise<'ok' | 'refused' | 'unknown' | 'below_minimum'>;
}

export class SessionPool {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners: Array<(key: string, reason: EvictionReason) => void> = [];
  readonly counts: Record<EvictionReason, number> = Object.fromEntries(
    EVICTION_REASONS.map((r) => [r, 0]),
  ) as Record<EvictionReason, number>;
  private readonly max: number;
  private readonly now: () => number;
  private timer?: NodeJS.Timeout;

  constructor(private readonly o: PoolOptions) {
    this.max = o.max;
    this.now = o.now ?? Date.now;
  }

  /** A session already opened for this key. */
  peek(key: string): Session | undefined {
    return this.entries.get(key)?.ready;
  }

  /** The server holds this credential (opened or being opened). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  get(key: string, open: () => Promise<Session>): Promise<Session> {
    const held = this.entries.get(key);
    if (held) {
      this.entries.delete(key);
      this.entries.set(key, held);
      held.lastUsed = this.now();
      return held.session;
    }
    const at = this.now();
    const entry: Entry = { session: open(), lastUsed: at, lastChecked: at, busy: 0 };
    entry.session.then(
      (session) => {
        if (this.entries.get(key) !== entry) return;
        entry.ready = session;
        this.o.onOpened?.(key, session);
      },
      () => {
        if (this.entries.get(key) === entry) this.drop(key);
      },
    );
    this.entries.set(key, entry);
    while (this.entries.size > this.max) this.evictForSpace(key);
    this.reportSize();
    this.startSweeping();
    return entry.session;
  }

  /** Makes room: the least recently used entry not busy, else the oldest (busy) one. */
  private evictForSpace(keep: string): void {
    for (const [key, e] of this.entries) {
      if (key !== keep && e.busy === 0) return this.evict(key, 'size_pressure');
    }
    const oldest = [...this.entries.keys()].find((k) => k !== keep);
    if (oldest) this.evict(oldest, 'size_pressure_busy');
  }

  /** Marks the entry busy (a live subscription) until the returned release is called. */
  hold(key: string): () => void {
    const e = this.entries.get(key);
    if (!e) return () => undefined;
    e.busy++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      e.busy--;
      e.lastUsed = this.now();
    };
  }

  /** Called with every eviction (not with uncounted drops), to end what the credential still holds. */
  onEvict(listener: (key: string, reason: EvictionReason) => void): void {
    this.listeners.push(listener);
  }

  /** Removes an entry for one of the spec's reasons: counted, published, logged. */
  evict(key: string, reason: EvictionReason): void {
    const e = this.entries.get(key);
    if (!e) return;
    const inUse = e.busy > 0;
    this.entries.delete(key);
    this.counts[reason]++;
    this.reportSize();
    publish(channels.poolEvict, () => ({ reason, key, inUse }));
    const fields = {
      reason,
      credential: key.slice(0, 12),
      user: e.ready?.identity.username,
      in_use: inUse,
      entries: this.entries.size,
      evictions: { ...this.counts },
    };
    if (reason === 'size_pressure_busy')
      this.o.log?.warn(fields, 'credential pool full of entries serving subscriptions: oldest evicted');
    else this.o.log?.info(fields, 'credential pool entry evicted');
    for (const l of this.listeners) l(key, reason);
  }

  /** Removes an entry without counting it (its opening failed, or the server is shutting down). */
  drop(key: string): void {
    if (!this.entries.delete(key)) return;
    this.reportSize();
  }

  /** The credential was just confirmed by the instance. */
  checked(key: string): void {
    const e = this.entries.get(key);
    if (e) e.lastChecked = this.now();
  }

  /**
   * One pass over the entries: idle ones leave, stale ones leave, and ones due for revalidation are checked
   * (at most one check per entry at a time). Runs on a timer; tests call it directly with an injected clock.
   */
  async sweep(): Promise<void> {
    const { idleTimeoutMs = 0, revalidateIntervalMs = 0, check } = this.o;
    const now = this.now();
    const checks: Promise<void>[] = [];
    for (const [key, e] of [...this.entries]) {
      if (!e.ready) continue;
      if (idleTimeoutMs > 0 && e.busy === 0 && now - e.lastUsed >= idleTimeoutMs) {
        this.evict(key, 'idle');
        continue;
      }
      if (now - e.lastChecked >= STALE_CEILING_MS && (revalidateIntervalMs === 0 || !check)) {
        this.evict(key, 'stale_credential');
        continue;
      }
      if (revalidateIntervalMs > 0 && check && !e.checking && now - e.lastChecked >= revalidateIntervalMs) {
        e.checking = true;
        const session = e.ready;
        checks.push(
          check(session)
            .then((verdict) => {
              if (this.entries.get(key) !== e) return;
              if (verdict === 'ok') e.lastChecked = this.now();
              else if (verdict === 'refused') this.evict(key, 'invalid_credential');
              else if (verdict === 'below_minimum') this.evict(key, 'below_minimum');
              else if (this.now() - e.lastChecked >= STALE_CEILING_MS) this.evict(key, 'stale_credential');
            })
            .finally(() => {
              e.checking = false;
            }),
        );
      }
    }
    await Promise.all(checks);
  }

  private startSweeping(): void {
    const { idleTimeoutMs = 0, revalidateIntervalMs = 0 } = this.o;
    if (this.timer) return;
    // Often enough that an entry leaves within a quarter of its period, never more than every 30 s.
    const periods = [idleTimeoutMs, revalidateIntervalMs, STALE_CEILING_MS].filter((p) => p > 0);
    const every = Math.max(250, Math.min(30_000, ...periods.map((p) => p / 4)));
    this.timer = setInterval(() => void this.sweep(), every);
    this.timer.unref();
  }

  /** Stops the sweep and drops every entry uncounted (shutdown). */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.entries.clear();
    this.reportSize();
  }

  /** Observers keep the pool gauges from these. */
  private reportSize(): void {
    publish(channels.poolState, () => ({ entries: this.entries.size, capacity: this.max }));
  }

  /** The tokens of the opened entries, for masking them where memory is exported (secrets.ts). */
  *secrets(): Iterable<string> {
    for (const e of this.entries.values()) if (e.ready) yield e.ready.client.secret;
  }

  get size(): number {
    return this.entries.size;
  }
}
