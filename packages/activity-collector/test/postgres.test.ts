import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testSecret } from '../../../test-logs.js';
import { openPostgresStore } from '../src/index.js';
import {
  dump,
  fullRepo,
  PG_SKIP_REASON,
  PG_URL,
  pgSchema,
  RECORD_TABLES,
  runSweep,
  spawnCli,
  startSim,
  tempDir,
  TOKEN,
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

  it('a server that answered is not said to be down: a missing database, an unknown user and missing rights each say what to do', async () => {
    const dir = tempDir();
    const suffix = `${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const role = `ac_norights_${suffix}`;
    const password = testSecret(`pw-${suffix}-norights`);
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    const at = (change: (u: URL) => void) => {
      const u = new URL(PG_URL!);
      change(u);
      return u.toString();
    };
    const sweepInto = async (url: string, schema?: string) => {
      const f = join(dir, 'pg.json');
      writeFileSync(
        f,
        JSON.stringify({
          api_url: 'http://127.0.0.1:9',
          token_env: 'SIM_TOKEN',
          targets: { repos: [`${USER}/own`] },
          state: join(dir, 'state.db'),
          stores: { postgres: schema ? { url, schema } : url },
        }),
      );
      const child = spawnCli(['sweep', '--config', f], { SIM_TOKEN: TOKEN });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const code = await new Promise<number | null>((r) => child.on('exit', r));
      return { code, stderr };
    };
    try {
      const database = `ac_missing_${suffix}`;
      expect(await sweepInto(at((u) => (u.pathname = `/${database}`)))).toEqual({
        code: 1,
        stderr: `activity-collector: stores.postgres: cannot open the store (3D000: database "${database}" does not exist); create that database, or name an existing one in stores.postgres.url\n`,
      });
      const unknown = `ac_nobody_${suffix}`;
      const nobody = await sweepInto(at((u) => (u.username = unknown)));
      expect(nobody.code).toBe(1);
      expect(nobody.stderr).toMatch(
        /^activity-collector: stores\.postgres: cannot open the store \(28[0-9A-Z]{3}: .*\); the server refused the user or password stores\.postgres\.url gives; correct them there\n$/,
      );
      const limited = await sweepInto(
        at((u) => {
          u.username = role;
          u.password = password;
        }),
        `ac_denied_${suffix}`,
      );
      expect(limited.code).toBe(1);
      expect(limited.stderr).toMatch(
        /^activity-collector: stores\.postgres: cannot open the store \(42501: permission denied for database [^)]+\); the user stores\.postgres\.url names may not create the collector's schema and tables; grant it CREATE on the database \(and on the schema, if it exists\), or name a user that has it\n$/,
      );
      expect(limited.stderr).not.toContain(password);
    } finally {
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.end();
    }
  });
});
