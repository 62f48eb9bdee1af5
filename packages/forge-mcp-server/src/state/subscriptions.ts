/**
 * Subscriptions in memory: listen streams counted per credential and for the process, and the registry of
 * followed resources with the version last seen of each. A shared adapter keeps the per-credential counts and
 * the registry where every replica sees them (the per-process count stays the replica's own).
 */
import type { StreamRefusal, SubscriptionStore } from './types.js';

interface Followed {
  owner: string;
  uri: string;
  subscribers: Set<string>;
  version: string;
}

const keyOf = (owner: string, uri: string) => `${owner}\0${uri}`;

export class MemorySubscriptionStore implements SubscriptionStore {
  private readonly streams = new Map<string, number>();
  private total = 0;
  private readonly entries = new Map<string, Followed>();

  async openStream(
    owner: string,
    ceilings: { perCredential: number; perProcess: number },
  ): Promise<StreamRefusal | undefined> {
    const held = this.streams.get(owner) ?? 0;
    if (ceilings.perCredential > 0 && held >= ceilings.perCredential)
      return { ceiling: 'credential', limit: ceilings.perCredential };
    if (this.total >= ceilings.perProcess) return { ceiling: 'process', limit: ceilings.perProcess };
    this.streams.set(owner, held + 1);
    this.total += 1;
    return undefined;
  }

  async closeStream(owner: string): Promise<void> {
    const held = this.streams.get(owner) ?? 0;
    if (held <= 0) return;
    if (held === 1) this.streams.delete(owner);
    else this.streams.set(owner, held - 1);
    this.total -= 1;
  }

  async follow(owner: string, uri: string, subscriber: string, version: string): Promise<void> {
    const key = keyOf(owner, uri);
    const entry = this.entries.get(key);
    if (entry) entry.subscribers.add(subscriber);
    else this.entries.set(key, { owner, uri, subscribers: new Set([subscriber]), version });
  }

  async unfollow(subscriber: string, uri?: string): Promise<void> {
    for (const [key, e] of this.entries) {
      if (uri !== undefined && e.uri !== uri) continue;
      e.subscribers.delete(subscriber);
      if (e.subscribers.size === 0) this.entries.delete(key);
    }
  }

  async forgetOwner(owner: string): Promise<string[]> {
    const subscribers = new Set<string>();
    for (const [key, e] of this.entries) {
      if (e.owner !== owner) continue;
      for (const s of e.subscribers) subscribers.add(s);
      this.entries.delete(key);
    }
    return [...subscribers];
  }

  async followed() {
    return [...this.entries.values()].map((e) => ({
      owner: e.owner,
      uri: e.uri,
      subscribers: [...e.subscribers],
      version: e.version,
    }));
  }

  async seen(owner: string, uri: string, version: string): Promise<boolean> {
    const entry = this.entries.get(keyOf(owner, uri));
    if (!entry || entry.version === version) return false;
    entry.version = version;
    return true;
  }

  /** Listen streams held, by one credential or by the process (for tests and gauges). */
  streamsOf(owner?: string): number {
    return owner === undefined ? this.total : (this.streams.get(owner) ?? 0);
  }
}
