/**
 * Stateful-session records in memory. The live side of a session (its transport and streams) stays with the
 * process serving it; the record says who owns the id and when it was last active, which is what another
 * replica needs to refuse a stranger or answer an ended id.
 */
import type { SessionRecord, SessionStore } from './types.js';

export class MemorySessionStore implements SessionStore {
  private readonly records = new Map<string, SessionRecord>();

  async put(record: SessionRecord): Promise<void> {
    this.records.set(record.id, { ...record });
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const r = this.records.get(id);
    return r && { ...r };
  }

  async touch(id: string, at: number): Promise<void> {
    const r = this.records.get(id);
    if (r) r.lastActive = at;
  }

  async delete(id: string): Promise<void> {
    this.records.delete(id);
  }

  get size(): number {
    return this.records.size;
  }
}
