import type { CollectorConfig } from './config.js';
import { MultiStore } from './store/multi.js';
import { openPostgresStore } from './store/postgres.js';
import { PrometheusStore } from './store/prometheus.js';
import { openSqliteStore } from './store/sqlite.js';
import type { Store } from './store/types.js';

export interface OpenedStores {
  store: Store;
  prometheus?: PrometheusStore;
}

/** Opens (and migrates) every store the configuration names; SQL stores first so they hold ETags and state. */
export async function openStores(config: CollectorConfig): Promise<OpenedStores> {
  const list: Store[] = [];
  let prometheus: PrometheusStore | undefined;
  if (config.stores.sqlite) list.push(openSqliteStore(config.stores.sqlite));
  if (config.stores.postgres)
    list.push(openPostgresStore(config.stores.postgres.url, config.stores.postgres.schema));
  if (config.stores.prometheus) list.push((prometheus = new PrometheusStore()));
  const store = list.length === 1 ? list[0] : new MultiStore(list);
  try {
    await store.init();
  } catch (e) {
    await store.close().catch(() => {});
    throw e;
  }
  return { store, prometheus };
}
