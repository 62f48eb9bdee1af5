/**
 * Whether the instances answer, told to the operator: the first call that gets no answer at all from an
 * instance (a refused connection, a failed DNS lookup, a reset, a TLS failure) is one WARN naming its host:port
 * and the failure; the first answer after that, whatever its status, is one INFO saying how many calls failed
 * meanwhile. Calls the outbound guard refused, that their client canceled or that ran past their deadline say
 * nothing about the instance and are left out. HTTP mode only: on stdio the one user reads each failure.
 */
import { channels, type InstanceCallEvent } from '../channels.js';
import type { Logger } from '../log.js';

/** Failure classes (client.ts, failureClass) that are not the instance failing to answer. */
const NOT_UNREACHABLE = new Set(['canceled', 'refused', 'timeout']);

/**
 * Starts watching the calls to the operator's instances (`instances`, their URLs); returns the stop. Hosts a
 * request names itself (--allow-any-forge-url) are the caller's business, and are not logged or kept.
 */
export function watchReachability(log: Logger, instances: readonly string[]): () => void {
  const watched = new Set(
    instances.map((u) => {
      const url = new URL(u);
      return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
    }),
  );
  /** host:port of each instance that stopped answering, with the calls that failed since. */
  const down = new Map<string, number>();
  const listener = (message: unknown) => {
    const e = message as InstanceCallEvent;
    const where = `${e.host}:${e.port}`;
    if (!watched.has(where)) return;
    const failed = down.get(where);
    if (e.status !== undefined) {
      if (failed === undefined) return;
      down.delete(where);
      log.info({ instance: where, failed_calls: failed }, `instance ${where} answers again`);
      return;
    }
    if (!e.errorType || NOT_UNREACHABLE.has(e.errorType)) return;
    down.set(where, (failed ?? 0) + 1);
    if (failed === undefined)
      log.warn(
        { instance: where, failure: e.errorType },
        `instance ${where} did not answer (${e.errorType}): its calls fail until it answers again; check that it is up and reachable from here`,
      );
  };
  channels.instanceCall.subscribe(listener);
  return () => channels.instanceCall.unsubscribe(listener);
}
