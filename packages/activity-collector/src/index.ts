export {
  loadConfig,
  validateConfig,
  readToken,
  readTokens,
  takesRepository,
  PACKAGE_TYPES,
} from './config.js';
export type { CollectorConfig, PackageType, PostgresTarget } from './config.js';
export {
  sweep,
  starDaysFromWeeks,
  HISTORY_PAGE_WEEKS,
  SETTINGS_FEATURES,
  ALERT_FEATURES,
} from './collect.js';
export type { SweepOptions, SweepSummary } from './collect.js';
export { ApiClient, MemoryEtagCache, parseLink } from './http.js';
export type { ApiResponse, ApiStats, EtagCache, RateState } from './http.js';
export { ConfigError, RateLimitError, UpstreamError, UserError } from './errors.js';
export { openStores } from './stores.js';
export { openSqliteStore } from './store/sqlite.js';
export { openPostgresStore } from './store/postgres.js';
export { PrometheusStore } from './store/prometheus.js';
export { MultiStore } from './store/multi.js';
export { SqlStore } from './store/sql.js';
export type * from './store/types.js';
export { SimUpstream } from './sim/server.js';
export type { SimOptions, SimRequest } from './sim/server.js';
export { generateWorld, prng } from './sim/world.js';
export type * from './sim/world.js';
export { startServer } from './serve.js';
export { formatSummary } from './summary.js';
export { laDate, weekLabelOf, weekLabelDate } from './time.js';
