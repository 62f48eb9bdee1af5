/**
 * The bounds of the kept servers: a server comes back only to the session it was built for while the pool
 * still holds that session, at most MAX_KEPT_PER_CREDENTIAL per credential and the given total (least
 * recently kept going first), and a credential whose pool entry ended keeps none. A server lent to the SDK
 * and left unanswered, or lent for a 2026-07-28 request or a method that sets state, is let go. Servers here
 * never connect: what a connected one does is shown over HTTP in test/http-kept.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { Server } from '@modelcontextprotocol/server';
import type { Session } from '../session/index.js';
import { IdleBudget, KeptServers, MAX_KEPT_PER_CREDENTIAL } from './kept.js';

function setup(max = 2) {
  const built: Session[] = [];
  /** What the credential pool holds, by key. */
  const pool = new Map<string, Session>();
  const kept = new KeptServers(
    (session) => {
      built.push(session);
      return new Server({ name: 'kept', version: '1' }, { capabilities: {} });
    },
    (key) => pool.get(key),
    max,
  );
  /** A new pool entry's session for `key`. */
  const open = (key: string) => {
    const session = {} as Session;
    pool.set(key, session);
    return session;
  };
  return { kept, built, pool, open };
}

describe('kept servers', () => {
  it("hands a kept server back to the same session, and builds for the credential's next session", () => {
    const { kept, built, open } = setup();
    const first = open('a');
    const server = kept.take('a', first);
    kept.settle(server);
    expect(kept.take('a', first)).toBe(server);
    kept.settle(server);
    const later = open('a');
    expect(kept.take('a', later)).not.toBe(server);
    expect(built).toEqual([first, later]);
    expect(kept.size).toBe(0);
  });

  it('keeps no server of a session the pool no longer holds', () => {
    const { kept, pool, open } = setup();
    const session = open('a');
    const server = kept.take('a', session);
    pool.delete('a');
    kept.settle(server);
    expect(kept.size).toBe(0);
  });

  it('keeps the given number in all, the least recently kept going first', () => {
    const { kept, built, open } = setup(2);
    const s = { a: open('a'), b: open('b'), c: open('c') };
    const servers = (['a', 'b', 'c'] as const).map((k) => kept.take(k, s[k]));
    for (const server of servers) kept.settle(server);
    expect(kept.size).toBe(2);
    expect(kept.take('b', s.b)).toBe(servers[1]);
    expect(kept.take('c', s.c)).toBe(servers[2]);
    // a's went first: it is built again.
    expect(kept.take('a', s.a)).not.toBe(servers[0]);
    expect(built).toHaveLength(4);
  });

  it('keeps the given number in all across the stores sharing a budget, the least recently kept going first', () => {
    const budget = new IdleBudget(2);
    const pool = new Map<string, Session>();
    const build = () => new Server({ name: 'kept', version: '1' }, { capabilities: {} });
    const one = new KeptServers(build, (key) => pool.get(key), 2, MAX_KEPT_PER_CREDENTIAL, budget);
    const other = new KeptServers(build, (key) => pool.get(key), 2, MAX_KEPT_PER_CREDENTIAL, budget);
    const s = { a: {} as Session, b: {} as Session, c: {} as Session };
    for (const k of ['a', 'b', 'c'] as const) pool.set(k, s[k]);
    const a = one.take('a', s.a);
    one.settle(a);
    const b = other.take('b', s.b);
    other.settle(b);
    const c = one.take('c', s.c);
    one.settle(c);
    // Two in all: a's, the oldest, went, though the store keeping it held one only.
    expect(one.size + other.size).toBe(2);
    expect(other.take('b', s.b)).toBe(b);
    expect(one.take('c', s.c)).toBe(c);
    expect(one.take('a', s.a)).not.toBe(a);
  });

  it(`keeps at most ${MAX_KEPT_PER_CREDENTIAL} per credential, and none once its pool entry ended`, () => {
    const { kept, open } = setup(100);
    const session = open('a');
    const servers = Array.from({ length: MAX_KEPT_PER_CREDENTIAL + 2 }, () => kept.take('a', session));
    expect(new Set(servers).size).toBe(servers.length);
    for (const server of servers) kept.settle(server);
    expect(kept.size).toBe(MAX_KEPT_PER_CREDENTIAL);
    kept.forget('a');
    expect(kept.size).toBe(0);
  });

  it('lets go a server lent to the SDK unless it answered a reusable 2025-era request', () => {
    const { kept, built, open } = setup(10);
    const session = open('a');
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} };
    const lent = [
      kept.lend(kept.take('a', session), 'legacy', call),
      kept.lend(kept.take('a', session), 'modern', call),
      kept.lend(kept.take('a', session), 'legacy', { jsonrpc: '2.0', id: 1, method: 'initialize' }),
      kept.lend(kept.take('a', session), 'legacy', [call]),
    ];
    for (const server of lent) kept.settle(server);
    expect(kept.size).toBe(0);
    expect(built).toHaveLength(4);
  });
});
