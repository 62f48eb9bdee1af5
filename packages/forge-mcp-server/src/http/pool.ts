/** Pooled sessions keyed by instance and credential digest, least recently used first out. */
import { channels, publish } from '../channels.js';
import type { Session } from '../session/index.js';

export class SessionPool {
  private readonly entries = new Map<string, Promise<Session>>();
  private readonly ready = new Map<string, Session>();
  constructor(private readonly max: number) {}

  /** A session already opened for this key. */
  peek(key: string): Session | undefined {
    return this.ready.get(key);
  }

  /** The server holds this credential (opened or being opened). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  get(key: string, open: () => Promise<Session>): Promise<Session> {
    let p = this.entries.get(key);
    if (p) {
      this.entries.delete(key);
      this.entries.set(key, p);
      return p;
    }
    p = open();
    p.then(
      (session) => this.entries.has(key) && this.ready.set(key, session),
      () => this.drop(key),
    );
    this.entries.set(key, p);
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value as string;
      this.drop(oldest);
      publish(channels.poolEvict, () => ({ reason: 'size_pressure', key: oldest, inUse: false }));
    }
    this.reportSize();
    return p;
  }

  drop(key: string): void {
    this.entries.delete(key);
    this.ready.delete(key);
    this.reportSize();
  }

  /** Observers keep the pool gauges from these. */
  private reportSize(): void {
    publish(channels.poolState, () => ({ entries: this.entries.size, capacity: this.max }));
  }

  get size(): number {
    return this.entries.size;
  }
}
