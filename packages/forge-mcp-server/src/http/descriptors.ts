/**
 * How many MCP calls and stateful sessions an HTTP server holds at once follows the process's hard limit on
 * open descriptors (Node raises the soft limit to it at start): 192 calls and 96 sessions under a hard limit of
 * 1024, the same share of any other limit. A limit above 8192 (or none) counts as 8192, so the sessions' event
 * logs stay bounded (768 sessions of 256 KiB); where the limit cannot be read (no /proc), 1024 is assumed.
 */
import { readFileSync } from 'node:fs';

const REFERENCE_LIMIT = 1024;
const LIMIT_CEILING = 8192;
const CALLS_PER_REFERENCE = 192;
const SESSIONS_PER_REFERENCE = 96;

/** The hard limit on open descriptors as /proc/self/limits states it (`text` for tests of the parsing). */
export function hardDescriptorLimit(text?: string): number {
  let limits = text;
  if (limits === undefined) {
    try {
      limits = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return REFERENCE_LIMIT;
    }
  }
  const hard = /^Max open files\s+\S+\s+(\S+)/m.exec(limits)?.[1];
  if (hard === 'unlimited') return LIMIT_CEILING;
  const n = Number(hard);
  return Number.isSafeInteger(n) && n > 0 ? n : REFERENCE_LIMIT;
}

/** Held-call and stateful-session slots under a hard descriptor limit. */
export function slotsUnder(limit: number): { calls: number; sessions: number } {
  const share = Math.min(limit, LIMIT_CEILING) / REFERENCE_LIMIT;
  return {
    calls: Math.max(1, Math.floor(CALLS_PER_REFERENCE * share)),
    sessions: Math.max(1, Math.floor(SESSIONS_PER_REFERENCE * share)),
  };
}
