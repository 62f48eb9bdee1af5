import type { CollectorConfig } from './config.js';
import { UserError } from './errors.js';
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

/**
 * What to check when PostgreSQL cannot be opened. A server that answered gives a SQLSTATE (five characters): the
 * database, the user or its rights are the cause, not the server's reach.
 */
function postgresCheck(code: string | undefined): string {
  if (code === '3D000') return 'create that database, or name an existing one in stores.postgres.url';
  if (code?.startsWith('28'))
    return 'the server refused the user or password stores.postgres.url gives; correct them there';
  if (code === '42501')
    return "the user stores.postgres.url names may not create the collector's schema and tables; grant it CREATE on the database (and on the schema, if it exists), or name a user that has it";
  if (code && /^[0-9A-Z]{5}$/.test(code))
    return "the PostgreSQL server refused; check stores.postgres.url and the server's log";
  return 'check that the PostgreSQL server stores.postgres.url names is running and reachable';
}

/** One line naming the store that cannot be opened, what went wrong there and what to check. */
function storeError(key: string, e: unknown): UserError {
  // Already one line of its own (the SQLite driver cannot be loaded): the store's path is not the cause.
  if (e instanceof UserError) return e;
  const err = e as NodeJS.ErrnoException;
  const what = err.message.split('\n')[0];
  const detail = err.code && !what.includes(err.code) ? `${err.code}: ${what}` : what;
  const check =
    key === 'stores.postgres'
      ? postgresCheck(err.code)
      : `check that ${key} is the path of a SQLite file (or a new one) in a folder the collector can write`;
  return new UserError(
    `${key}: cannot open ${key === 'state' ? 'the state file' : 'the store'} (${detail}); ${check}`,
  );
}

/** Opens a store, turning a failure to open or migrate it into an error naming its configuration key. */
export function namedStore(key: string, open: () => Store): Store {
  let store: Store;
  try {
    store = open();
  } catch (e) {
    throw storeError(key, e);
  }
  const init = store.init.bind(store);
  store.init = async () => {
    try {
      await init();
    } catch (e) {
      throw storeError(key, e);
    }
  };
  return store;
}

/** Opens (and migrates) every store the configuration names; with the collector's state file beside them. */
export async function openStores(config: CollectorConfig): Promise<OpenedStores> {
  const list: Store[] = [];
  let prometheus: PrometheusStore | undefined;
  let state: Store | undefined;
  const { sqlite, postgres } = config.stores;
  if (sqlite) list.push((state = namedStore('stores.sqlite', () => openSqliteStore(sqlite))));
  if (postgres)
    list.push(namedStore('stores.postgres', () => openPostgresStore(postgres.url, postgres.schema)));
  if (config.stores.prometheus) list.push((prometheus = new PrometheusStore()));
  const records = list.length === 1 ? list[0] : new MultiStore(list);
  // The collector's own state lives in SQLite whatever the record stores are (stores.sqlite when it is the file).
  const ownsState = config.stateFile !== config.stores.sqlite;
  if (ownsState) state = namedStore('state', () => openSqliteStore(config.stateFile));
  const store = withState(records, state ?? records, ownsState);
  try {
    await store.init();
  } catch (e) {
    await store.close().catch(() => {});
    throw e;
  }
  return { store, prometheus };
}
