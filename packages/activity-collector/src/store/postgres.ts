import pg from 'pg';
import { migrations } from './schema.js';
import { SqlStore, type SqlDriver, type Statement } from './sql.js';

function numbered(sql: string): string {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
}

const MIGRATION_LOCK = 0x61637431; // arbitrary constant shared by all collectors

class PostgresDriver implements SqlDriver {
  readonly dialect = 'postgres' as const;
  private readonly pool: pg.Pool;

  constructor(
    url: string,
    private readonly schema: string,
  ) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: 4,
      options: `-c search_path=${schema}`,
      connectionTimeoutMillis: 10_000,
    });
    // An idle client's connection dropping must not crash the process; the next query reconnects.
    this.pool.on('error', () => {});
  }

  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const r = await this.pool.query(numbered(sql), params);
    return r.rows as T[];
  }

  async transaction(statements: Statement[]): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      for (const s of statements) await client.query(numbered(s.sql), s.params);
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${this.schema}"`);
      await client.query(
        'CREATE TABLE IF NOT EXISTS collector_migrations (version INTEGER PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const done = await client.query<{ v: number | null }>(
        'SELECT max(version) AS v FROM collector_migrations',
      );
      const current = done.rows[0]?.v ?? 0;
      const steps = migrations('postgres');
      for (let v = current; v < steps.length; v++) {
        for (const ddl of steps[v]) await client.query(ddl);
        await client.query('INSERT INTO collector_migrations (version) VALUES ($1)', [v + 1]);
      }
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** A PostgreSQL store through `pg`; the schema is created and migrated on init. */
export function openPostgresStore(url: string, schema = 'public'): SqlStore {
  return new SqlStore('postgres', new PostgresDriver(url, schema));
}
