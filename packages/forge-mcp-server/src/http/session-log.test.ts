/**
 * The answers a session's shared log refused (Redis down, or held by replicas sealing otherwise) are offered to
 * it again every UNLOGGED_RETRY_MS: each is written once and in order, even when a write takes longer than the
 * period (a Redis answering slowly, up to its command timeout), so a client resuming its stream reads each
 * answer once.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterEach, expect, it, vi } from 'vitest';
import { StateUnavailable } from '../state/unavailable.js';
import { SessionLog, UNLOGGED_RETRY_MS } from './session-log.js';

afterEach(() => {
  vi.useRealTimers();
});

it('writes each refused answer once and in order when a write outlasts the retry period', async () => {
  vi.useFakeTimers();
  let down = true;
  const written: unknown[] = [];
  const log = new SessionLog({
    async storeEvent(stream, message) {
      if (down) throw new StateUnavailable('shared state is unavailable', '127.0.0.1:6379');
      // Slower than the retry period: the next offer falls while this write is under way.
      await new Promise((r) => setTimeout(r, UNLOGGED_RETRY_MS * 1.4));
      written.push((message as { id: number }).id);
      return `${stream}_${written.length}`;
    },
    getStreamIdForEventId: async () => undefined,
    replayEventsAfter: async () => 'stream',
  });
  const answer = (id: number) => ({ jsonrpc: '2.0', id, result: {} }) as JSONRPCMessage;
  // Refused: the client still connected gets them without an id, and they wait to be logged.
  expect(await log.storeEvent('stream', answer(1))).toBe('');
  expect(await log.storeEvent('stream', answer(2))).toBe('');
  down = false;
  await vi.advanceTimersByTimeAsync(UNLOGGED_RETRY_MS * 10);
  expect(written).toEqual([1, 2]);
  log.close();
});

it('counts a refused answer as being answered until it is written, then says the session settled', async () => {
  vi.useFakeTimers();
  let down = true;
  const log = new SessionLog({
    async storeEvent(stream) {
      if (down) throw new StateUnavailable('shared state is unavailable', '127.0.0.1:6379');
      return `${stream}_1`;
    },
    getStreamIdForEventId: async () => undefined,
    replayEventsAfter: async () => 'stream',
  });
  let settled = 0;
  log.onSettled = () => settled++;
  await log.storeEvent('stream', { jsonrpc: '2.0', id: 1, result: {} } as JSONRPCMessage);
  // The log refused it: the session is still answering (it must not idle out and drop the answer).
  expect(log.answering).toBe(true);
  await vi.advanceTimersByTimeAsync(UNLOGGED_RETRY_MS * 3);
  expect(log.answering).toBe(true);
  const before = settled;
  down = false;
  await vi.advanceTimersByTimeAsync(UNLOGGED_RETRY_MS);
  expect(log.answering).toBe(false);
  expect(settled).toBe(before + 1);
  log.close();
});
