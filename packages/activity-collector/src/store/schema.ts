export type Dialect = 'sqlite' | 'postgres';

/** Column types per dialect: timestamps, dates, big integers, reals. */
function types(d: Dialect) {
  return d === 'postgres'
    ? { TS: 'timestamptz', DATE: 'date', BIG: 'bigint', REAL: 'double precision' }
    : { TS: 'TEXT', DATE: 'TEXT', BIG: 'INTEGER', REAL: 'REAL' };
}

/**
 * The schema, one table per record. Timestamps are UTC (ISO 8601 text in SQLite, timestamptz in PostgreSQL);
 * days are calendar dates (YYYY-MM-DD text in SQLite, date in PostgreSQL).
 * Migrations are append-only: never edit a released entry, add a new one.
 */
export function migrations(d: Dialect): string[][] {
  const { TS, DATE, BIG, REAL } = types(d);
  return [
    [
      `CREATE TABLE IF NOT EXISTS vcs_repository (
        repository TEXT PRIMARY KEY, owner TEXT NOT NULL, name TEXT NOT NULL, owner_type TEXT NOT NULL,
        stargazers_count INTEGER NOT NULL, star_list_access INTEGER NOT NULL, private INTEGER NOT NULL,
        swept_at ${TS} NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS vcs_star (
        repository TEXT NOT NULL, login TEXT NOT NULL, starred_at ${TS} NOT NULL,
        PRIMARY KEY (repository, login))`,
      `CREATE TABLE IF NOT EXISTS vcs_star_day (
        repository TEXT NOT NULL, day ${DATE} NOT NULL, stars INTEGER NOT NULL CHECK (stars >= 0),
        PRIMARY KEY (repository, day))`,
      `CREATE TABLE IF NOT EXISTS vcs_security_feature (
        repository TEXT NOT NULL, feature TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('enabled', 'disabled', 'unavailable')),
        open_alerts INTEGER, PRIMARY KEY (repository, feature))`,
      `CREATE TABLE IF NOT EXISTS vcs_participation (
        repository TEXT NOT NULL, weeks_ago INTEGER NOT NULL, all_commits INTEGER NOT NULL,
        owner_commits INTEGER NOT NULL, PRIMARY KEY (repository, weeks_ago))`,
      `CREATE TABLE IF NOT EXISTS vcs_punch_card (
        repository TEXT NOT NULL, weekday INTEGER NOT NULL, hour INTEGER NOT NULL, commits INTEGER NOT NULL,
        PRIMARY KEY (repository, weekday, hour))`,
      `CREATE TABLE IF NOT EXISTS vcs_traffic (
        repository TEXT NOT NULL, kind TEXT NOT NULL, timestamp ${TS} NOT NULL, count INTEGER NOT NULL,
        uniques INTEGER NOT NULL, PRIMARY KEY (repository, kind, timestamp))`,
      `CREATE TABLE IF NOT EXISTS vcs_package (
        owner TEXT NOT NULL, package_type TEXT NOT NULL, name TEXT NOT NULL, repository TEXT, visibility TEXT,
        version_count INTEGER NOT NULL, PRIMARY KEY (owner, package_type, name))`,
      `CREATE TABLE IF NOT EXISTS vcs_package_version (
        owner TEXT NOT NULL, package_type TEXT NOT NULL, package TEXT NOT NULL, version_id ${BIG} NOT NULL,
        version TEXT NOT NULL, created_at ${TS}, PRIMARY KEY (owner, package_type, package, version_id))`,
      `CREATE TABLE IF NOT EXISTS vcs_commit (
        repository TEXT NOT NULL, sha TEXT NOT NULL, author TEXT, committed_at ${TS} NOT NULL,
        additions INTEGER NOT NULL, deletions INTEGER NOT NULL, PRIMARY KEY (repository, sha))`,
      `CREATE TABLE IF NOT EXISTS vcs_event (
        repository TEXT NOT NULL, id TEXT NOT NULL, type TEXT NOT NULL, actor TEXT, created_at ${TS} NOT NULL,
        PRIMARY KEY (repository, id))`,
      `CREATE TABLE IF NOT EXISTS vcs_billing_usage (
        account TEXT NOT NULL, date ${TS} NOT NULL, product TEXT NOT NULL, sku TEXT NOT NULL,
        repository TEXT NOT NULL, quantity ${REAL} NOT NULL, unit_type TEXT, gross_amount ${REAL},
        net_amount ${REAL}, PRIMARY KEY (account, date, product, sku, repository))`,
      `CREATE TABLE IF NOT EXISTS vcs_collection_status (
        scope TEXT NOT NULL, collector TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('ok','unavailable','not_ready','end_of_data','gone','skipped','error')),
        http_status INTEGER, detail TEXT, checked_at ${TS} NOT NULL, PRIMARY KEY (scope, collector))`,
      `CREATE TABLE IF NOT EXISTS vcs_sweep (
        id TEXT PRIMARY KEY, started_at ${TS} NOT NULL, finished_at ${TS}, status TEXT NOT NULL,
        repositories INTEGER NOT NULL, api_calls INTEGER NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS collector_http_cache (url TEXT PRIMARY KEY, etag TEXT NOT NULL, body TEXT NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS collector_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    ],
  ];
}
