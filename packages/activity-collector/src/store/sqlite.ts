import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrations } from './schema.js';
import { SqlStore, type SqlDriver, type Statement } from './sql.js';

class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly cache = new Map<string, Database.Statement>();

  constructor(file: string) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
  }

  private prepare(sql: string): Database.Statement {
    let s = this.cache.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      if (this.cache.size > 500) this.cache.clear();
      this.cache.set(sql, s);
    }
    return s;
  }

  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.prepare(sql).all(...params) as T[];
  }

  async transaction(statements: Statement[]): Promise<void> {
    this.db.transaction(() => {
      for (const s of statements) this.prepare(s.sql).run(...s.params);
    })();
  }

  async migrate(): Promise<void> {
    const steps = migrations('sqlite');
    this.db
      .transaction(() => {
        const current = this.db.pragma('user_version', { simple: true }) as number;
        for (let v = current; v < steps.length; v++) {
          for (const ddl of steps[v]) this.db.exec(ddl);
        }
        if (current < steps.length) this.db.pragma(`user_version = ${steps.length}`);
      })
      .immediate();
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

/** The embedded default store: a SQLite file through better-sqlite3. */
export function openSqliteStore(file: string): SqlStore {
  return new SqlStore('sqlite', new SqliteDriver(file));
}
