import type { SweepSummary } from './collect.js';

/** A count with its noun, singular for 1: `1 repository`, `2 repositories`. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The end-of-sweep summary printed on stderr. */
export function formatSummary(s: SweepSummary): string {
  const lines = [
    `sweep ${s.status}${s.stopReason ? ` (${s.stopReason})` : ''}`,
    `  repositories: ${s.repositories}`,
    `  records written:${Object.keys(s.records).length ? '' : ' none'}`,
    ...Object.keys(s.records)
      .sort()
      .map((k) => `    ${k}: ${s.records[k]}`),
    `  unavailable: ${s.unavailable}`,
    ...s.notListed.map((o) => `    not listed: ${o.source} (${o.status})`),
    ...s.notCollected.slice(0, 10).map((n) => `    not collected: ${n.repository} (${n.status})`),
    ...(s.notCollected.length > 10 ? [`    not collected: ${s.notCollected.length - 10} more`] : []),
    `  not ready: ${s.notReady}`,
    `  end of data (feeds): ${s.endOfData}`,
    `  gone (permanent): ${s.gone}`,
    `  errors: ${s.errors.length}`,
    ...s.errors.slice(0, 10).map((e) => `    ${e.scope} ${e.collector}: ${e.message}`),
    `  api calls: ${s.apiCalls} (${s.notModified} not modified)`,
    `  rate limit left: ${s.rateLimit ? `${s.rateLimit.remaining}/${s.rateLimit.limit}, resets ${s.rateLimit.reset}` : 'unknown'}`,
    ...(Object.keys(s.tokens).length > 1
      ? Object.entries(s.tokens).map(
          ([n, t]) => `    ${n}: ${t.remaining}/${t.limit} left, ${count(t.requests, 'request')}`,
        )
      : []),
    // When it ran: a cron log of many sweeps (stderr appended to one file) tells them apart by it.
    `  time: ${s.startedAt} to ${s.finishedAt} (${Math.round(s.durationSeconds)} s)`,
    ...(s.degraded.length ? [`  degraded: ${s.degraded.join('; ')}`] : []),
  ];
  return lines.join('\n');
}
