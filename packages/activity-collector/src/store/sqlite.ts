import type Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { UserError } from '../errors.js';
import { migrations } from './schema.js';
import { SqlStore, type SqlDriver, type Statement } from './sql.js';

/**
 * better-sqlite3 13 is a Node-API addon (Node-API 10, so Node 22 and later). Version 12 derives its objects from
 * node::ObjectWrap, whose destructor, when built against Node 24.19 or later headers, aborts the process if the
 * garbage collector frees a statement while no JavaScript context is entered. Node 20 (Node-API 9) cannot load 13,
 * so it keeps 12, built against Node 20's headers, where that destructor does nothing of the kind.
 */
let driver: typeof Database | undefined;

/**
 * The SQLite driver, loaded when a store is first opened: a driver that cannot be loaded (not installed, or built
 * for another Node) is then one line saying so and what to do, instead of a stack trace before any command runs.
 */
function betterSqlite3(): typeof Database {
  if (driver) return driver;
  const name = Number(process.versions.napi) >= 10 ? 'better-sqlite3' : 'better-sqlite3-node20';
  try {
    return (driver = createRequire(import.meta.url)(name) as typeof Database);
  } catch (e) {
    throw new UserError(
      `the SQLite driver ${name} cannot be loaded under Node ${process.versions.node} (${String((e as Error).message).split('\n')[0]}); install the collector's dependencies again with this Node (npm ci, or npm install activity-collector)`,
    );
  }
}

class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly cache = new Map<string, Database.Statement>();

  constructor(file: string) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new (betterSqlite3())(file);
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
