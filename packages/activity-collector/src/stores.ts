import type { CollectorConfig } from './config.js';
import { MultiStore } from './store/multi.js';
import { openPostgresStore } from './store/postgres.js';
import { PrometheusStore } from './store/prometheus.js';
import { openSqliteStore } from './store/sqlite.js';
import { withState } from './store/state.js';
import type { Store } from './store/types.js';

export interface OpenedStores {
  store: Store;
  prometheus?: PrometheusStore;
}

/** Opens (and migrates) every store the configuration names; with the collector's state file beside them. */
export async function openStores(config: CollectorConfig): Promise<OpenedStores> {
  const list: Store[] = [];
  let prometheus: PrometheusStore | undefined;
  let state: Store | undefined;
  if (config.stores.sqlite) list.push((state = openSqliteStore(config.stores.sqlite)));
  if (config.stores.postgres)
    list.push(openPostgresStore(config.stores.postgres.url, config.stores.postgres.schema));
  if (config.stores.prometheus) list.push((prometheus = new PrometheusStore()));
  const records = list.length === 1 ? list[0] : new MultiStore(list);
  // The collector's own state lives in SQLite whatever the record stores are (stores.sqlite when it is the file).
  const ownsState = config.stateFile !== config.stores.sqlite;
  if (ownsState) state = openSqliteStore(config.stateFile);
  const store = withState(records, state ?? records, ownsState);
  try {
    await store.init();
  } catch (e) {
    await store.close().catch(() => {});
    throw e;
  }
  return { store, prometheus };
}
