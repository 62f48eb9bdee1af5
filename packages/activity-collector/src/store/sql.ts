import type { Dialect } from './schema.js';
import type {
  BillingUsageRow,
  CommitRow,
  EventRow,
  PackageRow,
  ParticipationRow,
  PunchCardRow,
  RepositoryRow,
  SecurityFeatureRow,
  StarDayRow,
  StarRow,
  StatusRow,
  Store,
  SweepRow,
  TrafficRow,
} from './types.js';

export interface Statement {
  sql: string;
  params: unknown[];
}

/** What a SQL engine must provide; statements use `?` placeholders. */
export interface SqlDriver {
  readonly dialect: Dialect;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs all statements in one transaction. */
  transaction(statements: Statement[]): Promise<void>;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const CHUNK = 400;

/** INSERT ... ON CONFLICT DO UPDATE, chunked; rows with a repeated key keep the last occurrence. */
export function upsert(table: string, columns: string[], keys: string[], rows: unknown[][]): Statement[] {
  const keyIdx = keys.map((k) => columns.indexOf(k));
  const unique = new Map<string, unknown[]>();
  for (const r of rows) unique.set(JSON.stringify(keyIdx.map((i) => r[i])), r);
  const list = [...unique.values()];
  const rest = columns.filter((c) => !keys.includes(c));
  const update = rest.length
    ? `DO UPDATE SET ${rest.map((c) => `${c} = excluded.${c}`).join(', ')}`
    : 'DO NOTHING';
  const out: Statement[] = [];
  for (let i = 0; i < list.length; i += CHUNK) {
    const part = list.slice(i, i + CHUNK);
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    out.push({
      sql: `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${part.map(() => tuple).join(', ')} ON CONFLICT (${keys.join(', ')}) ${update}`,
      params: part.flat(),
    });
  }
  return out;
}

const b = (v: boolean) => (v ? 1 : 0);

/** The store shared by SQLite and PostgreSQL; only the driver differs. */
export class SqlStore implements Store {
  constructor(
    readonly kind: string,
    private readonly db: SqlDriver,
  ) {}

  async init() {
    await this.db.migrate();
  }
  async close() {
    await this.db.close();
  }
  get driver(): SqlDriver {
    return this.db;
  }

  private async run(statements: Statement[], count: number): Promise<number> {
    if (statements.length) await this.db.transaction(statements);
    return count;
  }

  writeRepository(r: RepositoryRow, at: string) {
    return this.run(
      upsert(
        'vcs_repository',
        [
          'repository',
          'owner',
          'name',
          'owner_type',
          'stargazers_count',
          'star_list_access',
          'private',
          'swept_at',
        ],
        ['repository'],
        [
          [
            r.repository,
            r.owner,
            r.name,
            r.ownerType,
            r.stargazersCount,
            b(r.starListAccess),
            b(r.private),
            at,
          ],
        ],
      ),
      1,
    );
  }

  writeStars(repository: string, rows: StarRow[]) {
    return this.run(
      [
        { sql: 'DELETE FROM vcs_star WHERE repository = ?', params: [repository] },
        ...upsert(
          'vcs_star',
          ['repository', 'login', 'starred_at'],
          ['repository', 'login'],
          rows.map((r) => [repository, r.login, r.starredAt]),
        ),
      ],
      rows.length,
    );
  }

  writeStarDays(repository: string, rows: StarDayRow[]) {
    return this.run(
      upsert(
        'vcs_star_day',
        ['repository', 'day', 'stars'],
        ['repository', 'day'],
        rows.map((r) => [repository, r.day, r.stars]),
      ),
      rows.length,
    );
  }

  writeSecurityFeatures(repository: string, rows: SecurityFeatureRow[]) {
    return this.run(
      [
        { sql: 'DELETE FROM vcs_security_feature WHERE repository = ?', params: [repository] },
        ...upsert(
          'vcs_security_feature',
          ['repository', 'feature', 'state', 'open_alerts'],
          ['repository', 'feature'],
          rows.map((r) => [repository, r.feature, r.state, r.openAlerts]),
        ),
      ],
      rows.length,
    );
  }

  writeParticipation(repository: string, rows: ParticipationRow[]) {
    return this.run(
      upsert(
        'vcs_participation',
        ['repository', 'weeks_ago', 'all_commits', 'owner_commits'],
        ['repository', 'weeks_ago'],
        rows.map((r) => [repository, r.weeksAgo, r.allCommits, r.ownerCommits]),
      ),
      rows.length,
    );
  }

  writePunchCard(repository: string, rows: PunchCardRow[]) {
    return this.run(
      upsert(
        'vcs_punch_card',
        ['repository', 'weekday', 'hour', 'commits'],
        ['repository', 'weekday', 'hour'],
        rows.map((r) => [repository, r.weekday, r.hour, r.commits]),
      ),
      rows.length,
    );
  }

  writeTraffic(repository: string, rows: TrafficRow[]) {
    return this.run(
      upsert(
        'vcs_traffic',
        ['repository', 'kind', 'timestamp', 'count', 'uniques'],
        ['repository', 'kind', 'timestamp'],
        rows.map((r) => [repository, r.kind, r.timestamp, r.count, r.uniques]),
      ),
      rows.length,
    );
  }

  writePackages(rows: PackageRow[]) {
    const statements = [
      ...upsert(
        'vcs_package',
        ['owner', 'package_type', 'name', 'repository', 'visibility', 'version_count'],
        ['owner', 'package_type', 'name'],
        rows.map((p) => [p.owner, p.packageType, p.name, p.repository, p.visibility, p.versions.length]),
      ),
      ...upsert(
        'vcs_package_version',
        ['owner', 'package_type', 'package', 'version_id', 'version', 'created_at'],
        ['owner', 'package_type', 'package', 'version_id'],
        rows.flatMap((p) =>
          p.versions.map((v) => [p.owner, p.packageType, p.name, v.versionId, v.version, v.createdAt]),
        ),
      ),
    ];
    return this.run(
      statements,
      rows.reduce((n, p) => n + 1 + p.versions.length, 0),
    );
  }

  writeCommits(repository: string, rows: CommitRow[]) {
    return this.run(
      upsert(
        'vcs_commit',
        ['repository', 'sha', 'author', 'committed_at', 'additions', 'deletions'],
        ['repository', 'sha'],
        rows.map((r) => [repository, r.sha, r.author, r.committedAt, r.additions, r.deletions]),
      ),
      rows.length,
    );
  }

  writeEvents(repository: string, rows: EventRow[]) {
    return this.run(
      upsert(
        'vcs_event',
        ['repository', 'id', 'type', 'actor', 'created_at'],
        ['repository', 'id'],
        rows.map((r) => [repository, r.id, r.type, r.actor, r.createdAt]),
      ),
      rows.length,
    );
  }

  writeBillingUsage(account: string, rows: BillingUsageRow[]) {
    return this.run(
      upsert(
        'vcs_billing_usage',
        [
          'account',
          'date',
          'product',
          'sku',
          'repository',
          'quantity',
          'unit_type',
          'gross_amount',
          'net_amount',
        ],
        ['account', 'date', 'product', 'sku', 'repository'],
        rows.map((r) => [
          account,
          r.date,
          r.product,
          r.sku,
          r.repository,
          r.quantity,
          r.unitType,
          r.grossAmount,
          r.netAmount,
        ]),
      ),
      rows.length,
    );
  }

  async writeStatus(rows: StatusRow[], at: string) {
    await this.run(
      upsert(
        'vcs_collection_status',
        ['scope', 'collector', 'outcome', 'http_status', 'detail', 'checked_at'],
        ['scope', 'collector'],
        rows.map((r) => [r.scope, r.collector, r.outcome, r.httpStatus, r.detail, at]),
      ),
      rows.length,
    );
  }

  async writeSweep(r: SweepRow) {
    await this.run(
      upsert(
        'vcs_sweep',
        ['id', 'started_at', 'finished_at', 'status', 'repositories', 'api_calls'],
        ['id'],
        [[r.id, r.startedAt, r.finishedAt, r.status, r.repositories, r.apiCalls]],
      ),
      1,
    );
  }

  async getState(key: string) {
    const rows = await this.db.query<{ value: string }>('SELECT value FROM collector_state WHERE key = ?', [
      key,
    ]);
    return rows[0]?.value;
  }
  async setState(key: string, value: string) {
    await this.run(upsert('collector_state', ['key', 'value'], ['key'], [[key, value]]), 1);
  }

  async getEtag(url: string) {
    const rows = await this.db.query<{ etag: string; body: string }>(
      'SELECT etag, body FROM collector_http_cache WHERE url = ?',
      [url],
    );
    return rows[0];
  }
  async putEtag(url: string, etag: string, body: string) {
    await this.run(upsert('collector_http_cache', ['url', 'etag', 'body'], ['url'], [[url, etag, body]]), 1);
  }

  async knownCommits(repository: string) {
    const rows = await this.db.query<{ sha: string }>('SELECT sha FROM vcs_commit WHERE repository = ?', [
      repository,
    ]);
    return new Set(rows.map((r) => r.sha));
  }

  async collectionStatus(scope: string, collector: string) {
    const rows = await this.db.query<{ outcome: string; http_status: number | null; detail: string | null }>(
      'SELECT outcome, http_status, detail FROM vcs_collection_status WHERE scope = ? AND collector = ?',
      [scope, collector],
    );
    const r = rows[0];
    return r && { outcome: r.outcome, httpStatus: r.http_status, detail: r.detail };
  }

  async starDays(repository: string) {
    const day = this.db.dialect === 'postgres' ? 'day::text AS day' : 'day';
    const rows = await this.db.query<{ day: string; stars: number }>(
      `SELECT ${day}, stars FROM vcs_star_day WHERE repository = ? ORDER BY day`,
      [repository],
    );
    return rows.map((r) => ({ day: r.day, stars: Number(r.stars) }));
  }
}
