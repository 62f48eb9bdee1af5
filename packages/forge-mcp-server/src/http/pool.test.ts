/**
 * The pool's clock-driven reasons with an injected clock: an hour without a check is stale, a busy entry is
 * never idle, a pool full of busy entries drops the oldest with a WARN, and revalidation's verdicts map onto
 * their reasons. Entries whose opening failed, or dropped at shutdown, are not counted.
 */
import { describe, expect, it } from 'vitest';
import type { Session } from '../session/index.js';
import { SessionPool, STALE_CEILING_MS, type PoolOptions } from './pool.js';

// The pool reads only the session's identity (its log lines name the user).
const session = { identity: { id: 7, username: 'carol' } } as Session;

function setup(opts: Partial<PoolOptions> = {}) {
  let t = 0;
  const lines: Array<{ level: string; fields: Record<string, unknown>; msg: string }> = [];
  const log = {
    info: (fields: Record<string, unknown>, msg: string) => lines.push({ level: 'info', fields, msg }),
    warn: (fields: Record<string, unknown>, msg: string) => lines.push({ level: 'warn', fields, msg }),
  };
  const pool = new SessionPool({ max: 3, now: () => t, log: log as never, ...opts });
  const evicted: string[] = [];
  pool.onEvict((key, reason) => evicted.push(`${key}:${reason}`));
  return {
    pool,
    lines,
    evicted,
    advance: (ms: number) => (t += ms),
    open: async (key: string) => {
      await pool.get(key, async () => session);
      await Promise.resolve();
    },
  };
}

describe('credential pool (injected clock)', () => {
  it('drops an entry not checked for an hour when revalidation is off (stale_credential)', async () => {
    const p = setup({ revalidateIntervalMs: 0 });
    await p.open('a');
    p.advance(STALE_CEILING_MS - 1);
    await p.pool.sweep();
    expect(p.evicted).toEqual([]);
    p.advance(1);
    await p.pool.sweep();
    expect(p.evicted).toEqual(['a:stale_credential']);
    expect(p.pool.counts.stale_credential).toBe(1);
  });

  it('with FORGE_MCP_POOL_IDLE_TIMEOUT 0 no entry leaves for idleness; with the revalidate interval 0 none is checked', async () => {
    let checks = 0;
    const p = setup({
      idleTimeoutMs: 0,
      revalidateIntervalMs: 0,
      check: async () => {
        checks++;
        return 'ok';
      },
    });
    await p.open('a');
    p.advance(STALE_CEILING_MS - 1);
    await p.pool.sweep();
    expect(p.evicted).toEqual([]);
    expect(checks).toBe(0);
    // The same hour with both on: the entry is checked, then leaves for idleness.
    const q = setup({
      idleTimeoutMs: 30 * 60_000,
      revalidateIntervalMs: 15 * 60_000,
      check: async () => {
        checks++;
        return 'ok';
      },
    });
    await q.open('a');
    q.advance(20 * 60_000);
    await q.pool.sweep();
    expect(checks).toBe(1);
    q.advance(20 * 60_000);
    await q.pool.sweep();
    expect(q.evicted).toEqual(['a:idle']);
  });

  it('goes stale when revalidation cannot reach the instance for an hour, and stays while it answers', async () => {
    let verdict: 'ok' | 'unknown' = 'ok';
    const p = setup({ revalidateIntervalMs: 15 * 60_000, check: async () => verdict });
    await p.open('a');
    for (let i = 0; i < 8; i++) {
      p.advance(15 * 60_000);
      await p.pool.sweep();
    }
    expect(p.evicted).toEqual([]);
    verdict = 'unknown';
    for (let i = 0; i < 4; i++) {
      p.advance(15 * 60_000);
      await p.pool.sweep();
    }
    expect(p.evicted).toEqual(['a:stale_credential']);
  });

  it('maps revalidation verdicts: refused is invalid_credential, below the minimum is below_minimum', async () => {
    const verdicts: Record<string, 'refused' | 'below_minimum'> = { a: 'refused', b: 'below_minimum' };
    const sessions: Record<string, Session> = {
      a: { ...session, id: 'a' } as never,
      b: { ...session, id: 'b' } as never,
    };
    const p = setup({
      revalidateIntervalMs: 60_000,
      check: async (s) => verdicts[(s as unknown as { id: string }).id]!,
    });
    await p.pool.get('a', async () => sessions.a!);
    await p.pool.get('b', async () => sessions.b!);
    await Promise.resolve();
    p.advance(60_000);
    await p.pool.sweep();
    expect(p.evicted.sort()).toEqual(['a:invalid_credential', 'b:below_minimum']);
  });

  it('never evicts a busy entry for idleness, and does once it is released and idle again', async () => {
    const p = setup({ idleTimeoutMs: 60_000 });
    await p.open('a');
    const release = p.pool.hold('a');
    p.advance(120_000);
    await p.pool.sweep();
    expect(p.evicted).toEqual([]);
    release();
    p.advance(59_999);
    await p.pool.sweep();
    expect(p.evicted).toEqual([]);
    p.advance(1);
    await p.pool.sweep();
    expect(p.evicted).toEqual(['a:idle']);
  });

  it('makes room from idle entries first, and from the oldest busy one with a WARN in_use=true when all are busy', async () => {
    const p = setup();
    await p.open('a');
    await p.open('b');
    await p.open('c');
    p.pool.hold('a');
    await p.open('d');
    expect(p.evicted).toEqual(['b:size_pressure']);
    p.pool.hold('c');
    p.pool.hold('d');
    await p.open('e');
    expect(p.evicted).toEqual(['b:size_pressure', 'a:size_pressure_busy']);
    const warn = p.lines.find((l) => l.level === 'warn')!;
    expect(warn.fields).toMatchObject({ reason: 'size_pressure_busy', in_use: true, user: 'carol' });
    expect(p.pool.counts).toMatchObject({ size_pressure: 1, size_pressure_busy: 1 });
  });

  it('counts no entry whose opening failed, nor any dropped at shutdown', async () => {
    const p = setup();
    await p.pool.get('bad', async () => Promise.reject(new Error('refused'))).catch(() => undefined);
    await Promise.resolve();
    expect(p.pool.has('bad')).toBe(false);
    await p.open('a');
    p.pool.close();
    expect(p.pool.size).toBe(0);
    expect(Object.values(p.pool.counts).every((n) => n === 0)).toBe(true);
    expect(p.evicted).toEqual([]);
  });
});
