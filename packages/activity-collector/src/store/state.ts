import type { Store } from './types.js';

type StateMethods = 'getEtag' | 'putEtag' | 'getState' | 'setState';

/**
 * The configured record stores plus the collector's own state file: ETags with their bodies, remembered facts (a
 * 410) and cursors are read from and written to the state file only, so a deployment whose only store is
 * Prometheus (which forgets on restart) still never asks twice for what cannot have changed.
 */
export function withState(records: Store, state: Store, ownsState: boolean): Store {
  if (records === state) return records;
  const stateful: Pick<Store, StateMethods> = {
    getEtag: (url) => state.getEtag(url),
    putEtag: (url, etag, body) => state.putEtag(url, etag, body),
    getState: (key) => state.getState(key),
    setState: (key, value) => state.setState(key, value),
  };
  return new Proxy(records, {
    get(target, prop, receiver) {
      if (prop === 'init')
        return async () => {
          if (ownsState) await state.init();
          await target.init();
        };
      if (prop === 'close')
        return async () => {
          await target.close();
          if (ownsState) await state.close();
        };
      if (prop === 'kind') return target.kind;
      if (typeof prop === 'string' && prop in stateful) return stateful[prop as StateMethods];
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}
