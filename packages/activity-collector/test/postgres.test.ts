import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgresStore } from '../src/index.js';
import {
  dump,
  fullRepo,
  PG_SKIP_REASON,
  PG_URL,
  pgSchema,
  RECORD_TABLES,
  runSweep,
  startSim,
  USER,
  world,
} from './helpers.js';

describe.skipIf(!PG_URL)(`PostgreSQL store${PG_SKIP_REASON ? ` (skipped: ${PG_SKIP_REASON})` : ''}`, () => {
  it('creates the schema by migrations, idempotently, even when two collectors start together', async () => {
    const schema = pgSchema('migrate');
    const a = openPostgresStore(PG_URL!, schema);
    const b = openPostgresStore(PG_URL!, schema);
    await Promise.all([a.init(), b.init()]);
    await a.init();
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    const versions = await c.query(`SELECT version FROM ${schema}.collector_migrations`);
    expect(versions.rows).toEqual([{ version: 1 }]);
    const cols = await c.query(
      `SELECT table_name, column_name, data_type FROM information_schema.columns
       WHERE table_schema = $1 AND table_name IN ('vcs_star', 'vcs_star_day', 'vcs_security_feature')
       ORDER BY table_name, ordinal_position`,
      [schema],
    );
    expect(cols.rows.map((r) => `${r.table_name}.${r.column_name} ${r.data_type}`)).toEqual([
      'vcs_security_feature.repository text',
      'vcs_security_feature.feature text',
      'vcs_security_feature.state text',
      'vcs_security_feature.open_alerts integer',
      'vcs_star.repository text',
      'vcs_star.login text',
      'vcs_star.starred_at timestamp with time zone',
      'vcs_star_day.repository text',
      'vcs_star_day.day date',
      'vcs_star_day.stars integer',
    ]);
    await c.end();
    await a.close();
    await b.close();
  });

  it('a re-run sweep duplicates nothing, and users can query the tables directly', async () => {
    const schema = pgSchema('upsert');
    const store = openPostgresStore(PG_URL!, schema);
    await store.init();
    const sim = await startSim(
      world([fullRepo('own'), fullRepo('theirs', { owner: 'others', permission: 'read' })]),
    );
    const doc = { targets: { repos: [`${USER}/own`, 'others/theirs'] }, packages: { types: ['npm'] } };
    await runSweep(sim, store, doc);
    const first = await Promise.all(RECORD_TABLES.map((t) => dump(store, t, ['swept_at'])));
    await runSweep(sim, store, doc);
    const second = await Promise.all(RECORD_TABLES.map((t) => dump(store, t, ['swept_at'])));
    expect(second).toEqual(first);
    expect(first[RECORD_TABLES.indexOf('vcs_star')]).toHaveLength(2);

    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    const q = await c.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, stars FROM ${schema}.vcs_star_day
       WHERE repository = $1 AND stars > 0 ORDER BY day`,
      ['others/theirs'],
    );
    expect(q.rows).toEqual([
      { day: '2026-09-03', stars: 1 },
      { day: '2026-11-09', stars: 1 },
    ]);
    const s = await c.query(
      `SELECT state, count(*)::int AS n FROM ${schema}.vcs_security_feature GROUP BY state ORDER BY state`,
    );
    expect(s.rows).toEqual([
      { state: 'disabled', n: 1 },
      { state: 'enabled', n: 3 },
      { state: 'unavailable', n: 10 },
    ]);
    await c.end();
    expect((await store.starDays(`${USER}/own`)).at(-1)).toEqual({ day: '2026-11-18', stars: 0 });
    await store.close();
  });
});
