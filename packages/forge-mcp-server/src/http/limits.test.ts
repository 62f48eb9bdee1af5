import { describe, expect, it } from 'vitest';
import { methodsOf, ThrottledLog } from './limits.js';

function clock(start = 1_000_000) {
  const c = { t: start, now: () => c.t, advance: (ms: number) => (c.t += ms) };
  return c;
}

describe('methods of a request', () => {
  it('names one method per message of a batch', () => {
    expect(methodsOf([{ method: 'tools/call' }, { method: 'tools/call' }, {}])).toEqual([
      'tools/call',
      'tools/call',
    ]);
    expect(methodsOf({ method: 'ping' })).toEqual(['ping']);
    expect(methodsOf(undefined)).toEqual([]);
  });
});

describe('throttled log', () => {
  it('writes at most one line per ten seconds, carrying the count it held back', () => {
    const c = clock();
    const log = new ThrottledLog(10_000, c.now);
    const lines: number[] = [];
    for (let i = 0; i < 5; i++) log.event((n) => lines.push(n));
    c.advance(9_999);
    log.event((n) => lines.push(n));
    c.advance(1);
    log.event((n) => lines.push(n));
    expect(lines).toEqual([0, 5]);
  });
});
