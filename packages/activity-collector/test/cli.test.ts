import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { testSecret } from '../../../test-logs.js';
import { fullRepo, spawnCli, spawnServe, startSim, tempDir, TOKEN, USER, world } from './helpers.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');
/** The password of a PostgreSQL store that is not there. */
const PG_PASSWORD = testSecret('pg-secret-pw');

function run(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawnCli(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A loopback port nothing listens on: one listened on a moment ago. */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

const oneLine = (s: string) => {
  expect(s.trim().split('\n')).toHaveLength(1);
  expect(s).not.toMatch(/\n\s+at /);
};

describe('command line', () => {
  const dir = tempDir();
  let sim: Awaited<ReturnType<typeof startSim>>;
  // One repository whose punch card cannot be read (a collector error) and whose stargazers wait once.
  let one: Awaited<ReturnType<typeof startSim>>;
  const write = (name: string, doc: unknown) => {
    const f = join(dir, name);
    writeFileSync(f, typeof doc === 'string' ? doc : JSON.stringify(doc));
    return f;
  };
  let good: string;
  beforeAll(async () => {
    expect(existsSync(CLI), 'build the package first (npx tsc -b packages/activity-collector)').toBe(true);
    sim = await startSim(
      world([fullRepo('own'), fullRepo('theirs', { owner: 'others', permission: 'read' })]),
    );
    one = await startSim(world([fullRepo('broken', { punchCard: [[9, 99, -1]] })]), {
      secondaryLimit: { pathIncludes: `/repos/${USER}/broken/stargazers`, times: 1, retryAfter: 1 },
    });
    good = write(
      'good.yaml',
      `api_url: ${sim.url}\ntoken_env: SIM_TOKEN\ntargets:\n  repos: [${USER}/own, others/theirs]\nstores:\n  sqlite: ${join(dir, 'c.db')}\npackages:\n  types: [npm]\n`,
    );
  });

  it('sweep: progress and a summary on stderr, and the token nowhere', async () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const r = await run(['sweep', '--config', good], { SIM_TOKEN: TOKEN });
    const after = Date.now();
    // The summary says when the sweep ran, so sweeps appended to one log can be told apart.
    const time = /\n {2}time: (\S+) to (\S+) \((\d+) s\)\n/.exec(r.stderr);
    expect(time, r.stderr).not.toBeNull();
    const [started, finished] = [Date.parse(time![1]), Date.parse(time![2])];
    expect(started).toBeGreaterThanOrEqual(before);
    expect(finished).toBeGreaterThanOrEqual(started);
    expect(finished).toBeLessThanOrEqual(after);
    expect(Number(time![3])).toBe((finished - started) / 1000);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`sweeping 2 repositories as ${USER}`);
    expect(r.stderr).toMatch(/\[\d\/2\] others\/theirs done/);
    for (const line of [
      'sweep complete',
      'repositories: 2',
      'vcs_star: 2',
      'vcs_star_day: ',
      'unavailable: 8',
      'not ready: 0',
      'api calls: ',
      'rate limit left: ',
    ]) {
      expect(r.stderr).toContain(line);
    }
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });

  it('sweep: a repository that answers 404 is named in the progress and the summary as not collected', async () => {
    const f = write(
      'missing.yaml',
      `api_url: ${sim.url}\ntoken_env: SIM_TOKEN\ntargets:\n  repos: [${USER}/own, ${USER}/owm]\nstores:\n  sqlite: ${join(dir, 'missing.db')}\npackages:\n  types: [npm]\n`,
    );
    const r = await run(['sweep', '--config', f], { SIM_TOKEN: TOKEN });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `] ${USER}/owm: nothing collected, GET /repos/${USER}/owm answered 404 (no such repository, or the token cannot see it); check the name and the token's access\n`,
    );
    expect(r.stderr).toMatch(new RegExp(`\\[\\d/2\\] ${USER}/own done\n`));
    // --quiet hides the progress, so the summary names it too (as cron's log shows it).
    const quiet = await run(['sweep', '--config', f, '--quiet'], { SIM_TOKEN: TOKEN });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toMatch(
      new RegExp(`\n  unavailable: \\d+\n    not collected: ${USER}/owm \\(404\\)\n  not ready: `),
    );
  });

  it('sweep: an organisation that answers 404 is named in the progress and the summary as not listed', async () => {
    const f = write(
      'missing-org.yaml',
      `api_url: ${sim.url}\ntoken_env: SIM_TOKEN\ntargets:\n  repos: [${USER}/own]\n  orgs: [acmee]\nstores:\n  sqlite: ${join(dir, 'missing-org.db')}\n`,
    );
    const r = await run(['sweep', '--config', f], { SIM_TOKEN: TOKEN });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')).toContain(
      "organisation acmee: no repositories listed, GET /orgs/acmee/repos answered 404 (no such organisation, or the token cannot see it; a user's repositories go in targets.repos); check the name and the token's access",
    );
    const quiet = await run(['sweep', '--config', f, '--quiet'], { SIM_TOKEN: TOKEN });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toMatch(
      /\n {2}unavailable: \d+\n {4}not listed: organisation acmee \(404\)\n {2}not ready: /,
    );
  });

  it('sweep: an installation list refused (a personal token given as an installation one) is named, not a silent 0', async () => {
    const f = write(
      'installation.yaml',
      `api_url: ${sim.url}\ntoken_env: SIM_TOKEN\ntoken_type: installation\ntargets:\n  installation: true\nstores:\n  sqlite: ${join(dir, 'installation.db')}\n`,
    );
    const r = await run(['sweep', '--config', f], { SIM_TOKEN: TOKEN });
    expect(r.code).toBe(0);
    const lines = r.stderr.split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'installation: no repositories listed, GET /installation/repositories answered 403 (You must authenticate with an installation.); check that token_env holds a GitHub App installation token',
      'sweeping 0 repositories as installation',
    ]);
    expect(lines).toContain('    not listed: installation (403)');
  });

  it('sweep: counts read in the singular for one (repository, wait, collector error)', async () => {
    const f = write(
      'one.yaml',
      `api_url: ${one.url}\ntoken_env: SIM_TOKEN\ntargets:\n  repos: [${USER}/broken]\nstores:\n  sqlite: ${join(dir, 'one.db')}\n`,
    );
    const r = await run(['sweep', '--config', f], { SIM_TOKEN: TOKEN });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`sweeping 1 repository as ${USER}\n`);
    expect(r.stderr).toContain(
      '  degraded: rate-limited: waited 1 time, 1 s in all; partial: 1 collector error\n',
    );
  });

  it('query prints the star history per day from the store', async () => {
    const r = await run(['query', '--config', good, '--repo', 'others/theirs', '--format', 'csv']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('day,stars');
    expect(lines).toContain('2026-09-03,1');
    expect(lines).toContain('2026-11-09,1');
    const t = await run(['query', '--config', good, '--repo', 'others/theirs']);
    expect(t.stdout).toMatch(/total\s+2\n$/);
    const missing = await run(['query', '--config', good, '--repo', 'nobody/nothing']);
    expect(missing.code).toBe(1);
    oneLine(missing.stderr);
    expect(missing.stderr).toContain(
      'no star history stored for nobody/nothing; run activity-collector sweep first',
    );
  });

  it('query: a swept repository nobody starred prints an empty history, one whose history failed says why, and a missing SQLite file is not created', async () => {
    const odd = await startSim(
      world([fullRepo('bare', { stars: [] }), fullRepo('odd', { historyTotalOff: true })]),
    );
    const f = write(
      'bare.yaml',
      `api_url: ${odd.url}\ntoken_env: SIM_TOKEN\ntargets:\n  repos: [${USER}/bare, ${USER}/odd]\nstores:\n  sqlite: ${join(dir, 'bare.db')}\n`,
    );
    expect((await run(['sweep', '--config', f, '--quiet'], { SIM_TOKEN: TOKEN })).code).toBe(2);
    const bare = await run(['query', '--config', f, '--repo', `${USER}/bare`]);
    expect(bare).toEqual({
      code: 0,
      stdout: 'day         stars\ntotal           0\n',
      stderr: `activity-collector: ${USER}/bare has no stars: its star history, read by the last sweep, holds no week\n`,
    });
    expect((await run(['query', '--config', f, '--repo', `${USER}/bare`, '--format', 'json'])).stdout).toBe(
      '[]\n',
    );
    const failed = await run(['query', '--config', f, '--repo', `${USER}/odd`]);
    expect(failed).toMatchObject({ code: 1, stdout: '' });
    expect(failed.stderr).toMatch(
      new RegExp(
        `^activity-collector: no star history stored for ${USER}/odd: the last sweep could not read it \\(error: star history: week \\d+ total \\d+ is not the sum of its days\\)\n$`,
      ),
    );

    const nowhere = join(dir, 'not-swept', 'q.db');
    const g = write(
      'nowhere.yaml',
      `api_url: ${odd.url}\ntoken_env: SIM_TOKEN\ntargets:\n  repos: [${USER}/bare]\nstores:\n  sqlite: ${nowhere}\n`,
    );
    expect(await run(['query', '--config', g, '--repo', `${USER}/bare`])).toEqual({
      code: 1,
      stdout: '',
      stderr: `activity-collector: stores.sqlite: ${nowhere} does not exist; run activity-collector sweep first, from the same working directory (a relative path is taken from it), or correct the path\n`,
    });
    expect(existsSync(join(dir, 'not-swept'))).toBe(false);
  });

  it('sim: a port already taken is one line saying to choose another, not a stack trace', async () => {
    const taken = new URL(sim.url).port;
    expect(await run(['sim', '--port', taken])).toEqual({
      code: 1,
      stdout: '',
      stderr: `activity-collector: cannot listen on 127.0.0.1:${taken} (EADDRINUSE); choose another --port (0 picks a free one)\n`,
    });
  });

  it.each([
    [[], /no command given; commands: sweep, serve, query, sim/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [['sweep'], /missing --config FILE/],
    [
      ['sweep', '--config', '/nonexistent/c.yaml'],
      /cannot read configuration file \/nonexistent\/c\.yaml \(ENOENT\)/,
    ],
    [['sweep', '--config', 'x', '--bogus'], /Unknown option '--bogus'.*activity-collector --help/],
    [
      ['sim', '--repos', '-1'],
      /^activity-collector: Option '--repos' argument is ambiguous; run activity-collector --help\n$/,
    ],
    [['query', '--config', 'x'], /cannot read configuration file|--repo/],
  ])('bad input %j: one clear line, no stack trace', async (args, re) => {
    const r = await run(args as string[]);
    expect(r.code).not.toBe(0);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(re);
  });

  it('invalid configuration refuses the start naming the key', async () => {
    const f = write('bad.yaml', 'targets:\n  repos: [just-a-name]\nstores:\n  sqlite: x.db\n');
    const r = await run(['sweep', '--config', f], { GITHUB_TOKEN: TOKEN });
    expect(r.code).toBe(1);
    oneLine(r.stderr);
    expect(r.stderr).toContain(
      'invalid configuration: targets.repos[0]: got "just-a-name"; accepted: "owner/name"',
    );
  });

  it('a configuration file that is not valid YAML says where, in one line', async () => {
    const f = write('broken.yaml', 'api_url: [\ntargets\n');
    const r = await run(['sweep', '--config', f], { SIM_TOKEN: TOKEN });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `activity-collector: configuration file ${f} is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1; fix the syntax and run again\n`,
    );
    // JSON too is placed by line and column (JSON.parse tells only an offset on Node 20), a trailing comma here.
    const j = write(
      'broken.json',
      '{\n  "api_url": "http://127.0.0.1:9",\n  "targets": {"repos": ["octo/own"],},\n}\n',
    );
    expect(await run(['sweep', '--config', j], { SIM_TOKEN: TOKEN })).toMatchObject({
      code: 1,
      stderr: `activity-collector: configuration file ${j} is not valid JSON: Expected double-quoted property name at line 3, column 37; fix the syntax and run again\n`,
    });
    // A value that is no JSON is placed too, without the excerpt JSON.parse quotes around it (here the password of
    // stores.postgres.url), and so is text after the document.
    const v = write(
      'value.json',
      '{\n  "stores": {"postgres": {"url": "postgres://u:s3cretpw@db/c"}, "x": nope}\n}\n',
    );
    expect(await run(['sweep', '--config', v], { SIM_TOKEN: TOKEN })).toMatchObject({
      code: 1,
      stderr: `activity-collector: configuration file ${v} is not valid JSON: Unexpected token 'o' at line 2, column 71; fix the syntax and run again\n`,
    });
    const after = write('after.json', '{"targets": {"repos": ["octo/own"]}}\n}\n');
    expect(await run(['sweep', '--config', after], { SIM_TOKEN: TOKEN })).toMatchObject({
      code: 1,
      stderr: `activity-collector: configuration file ${after} is not valid JSON: Unexpected non-whitespace character after JSON at line 2, column 1; fix the syntax and run again\n`,
    });
  });

  it('an empty configuration file says it is empty and what it must hold', async () => {
    for (const [name, text] of [
      ['empty.yaml', ''],
      ['comments.yaml', '# to be written\n\n'],
      ['empty.json', ' \n'],
    ]) {
      const f = write(name, text);
      const r = await run(['sweep', '--config', f], { SIM_TOKEN: TOKEN });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `activity-collector: configuration file ${f} is empty; it must hold at least targets (repos or orgs) and stores (sqlite, postgres or prometheus), as the README's configuration example shows\n`,
      );
    }
  });

  it('a missing token, a rejected token and an unreachable store are one line each, never showing the token', async () => {
    const emptyToken = await run(['sweep', '--config', good], { SIM_TOKEN: '' });
    expect(emptyToken).toMatchObject({
      code: 1,
      stderr:
        'activity-collector: environment variable SIM_TOKEN is empty; export a token there (token_env names the variable)\n',
    });
    const noToken = await run(['sweep', '--config', good]);
    expect(noToken.stderr).toBe(
      'activity-collector: environment variable SIM_TOKEN is not set; export a token there (token_env names the variable)\n',
    );

    const wrong = testSecret('ghp_WRONG_but_secret_987654321');
    const rejected = await run(['sweep', '--config', good], { SIM_TOKEN: wrong });
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toBe(
      'activity-collector: the upstream rejected the token in SIM_TOKEN (401); put a valid, unexpired token in SIM_TOKEN\n',
    );
    // With several tokens, the one refused is named: here the second of two.
    const two = write('two-tokens.json', {
      api_url: sim.url,
      token_env: ['SIM_TOKEN', 'SPARE_TOKEN'],
      targets: { repos: [`${USER}/own`, 'others/theirs'] },
      stores: { sqlite: join(dir, 'two-tokens.db') },
    });
    const second = await run(['sweep', '--config', two, '--quiet'], { SIM_TOKEN: TOKEN, SPARE_TOKEN: wrong });
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(
      'activity-collector: the upstream rejected the token in SPARE_TOKEN (401); put a valid, unexpired token in SPARE_TOKEN\n',
    );

    const pgBad = write('pg.json', {
      api_url: sim.url,
      token_env: 'SIM_TOKEN',
      targets: { repos: [`${USER}/own`] },
      stores: { postgres: `postgres://postgres:${PG_PASSWORD}@127.0.0.1:1/none` },
      state: join(dir, 'pg-state.db'),
    });
    const unreachable = await run(['sweep', '--config', pgBad], { SIM_TOKEN: TOKEN });
    expect(unreachable.code).toBe(1);
    oneLine(unreachable.stderr);
    expect(unreachable.stderr).toBe(
      'activity-collector: stores.postgres: cannot open the store (connect ECONNREFUSED 127.0.0.1:1); check that the PostgreSQL server stores.postgres.url names is running and reachable\n',
    );
    expect(unreachable.stderr).not.toContain(TOKEN);
    expect(unreachable.stderr).not.toContain(PG_PASSWORD);
  });

  it('an upstream that cannot be reached, or is not the API, is named by api_url with what to check', async () => {
    const closed = await closedPort();
    const password = testSecret('api-url-pw-Sixteen16');
    const sweepAt = (apiUrl: string) => {
      const f = write('upstream.json', {
        api_url: apiUrl,
        token_env: 'SIM_TOKEN',
        targets: { repos: [`${USER}/own`] },
        stores: { sqlite: join(dir, 'upstream.db') },
      });
      return run(['sweep', '--config', f], { SIM_TOKEN: TOKEN });
    };
    const refused = await sweepAt(`http://user:${password}@127.0.0.1:${closed}/`);
    expect(refused).toMatchObject({
      code: 1,
      stderr: `activity-collector: cannot reach the upstream at http://127.0.0.1:${closed} (GET /user: connect ECONNREFUSED 127.0.0.1:${closed}); check api_url and the network, then run again\n`,
    });
    const tls = await sweepAt(sim.url.replace('http:', 'https:'));
    expect(tls).toMatchObject({
      code: 1,
      stderr: `activity-collector: cannot reach the upstream at ${sim.url.replace('http:', 'https:')} (GET /user: TLS handshake failed (wrong version number)); check api_url and the network, then run again\n`,
    });
    const notApi = await sweepAt(`${sim.url}/api/v3`);
    expect(notApi).toMatchObject({
      code: 1,
      stderr: `activity-collector: GET /user answered 404: api_url ${sim.url}/api/v3 does not lead to the API; give the API base (such as https://api.github.com, or https://HOST/api/v3 for an Enterprise Server) in api_url\n`,
    });
  });

  it('--help after a command prints the usage, as --help alone does; --version prints the version', async () => {
    const usage = await run(['--help']);
    expect(usage.code).toBe(0);
    expect(usage.stdout).toMatch(/^usage:\n {2}activity-collector sweep --config FILE/);
    for (const args of [
      ['sweep', '--help'],
      ['query', '-h'],
      ['serve', '--config', good, '--help'],
      ['sim', '--help'],
    ])
      expect(await run(args)).toEqual({ code: 0, stdout: usage.stdout, stderr: '' });
    const version = JSON.parse(readFileSync(join(dirname(CLI), '..', 'package.json'), 'utf8')).version;
    expect(await run(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('a token written where token_env wants a variable name is refused without repeating it', async () => {
    const token = testSecret('ghp_written1nto7heConfigFile0000000000');
    const classic = testSecret('0123456789abcdef0123456789abcdef01234567');
    for (const tokenEnv of [token, ['GITHUB_TOKEN', token], classic]) {
      const f = write('token-env.json', {
        api_url: sim.url,
        token_env: tokenEnv,
        targets: { repos: [`${USER}/own`] },
        stores: { sqlite: join(dir, 'token-env.db') },
      });
      const r = await run(['sweep', '--config', f], { SIM_TOKEN: TOKEN, GITHUB_TOKEN: TOKEN });
      expect(r.code).toBe(1);
      oneLine(r.stderr);
      expect(r.stderr).not.toContain(classic);
      expect(r.stderr).toBe(
        `activity-collector: invalid configuration: ${Array.isArray(tokenEnv) ? 'token_env[1]' : 'token_env'}: got a token, not a variable name (it is not repeated here); remove it from the file, export it in an environment variable such as GITHUB_TOKEN, and give that name; accepted: the name of an environment variable, like GITHUB_TOKEN, or a list of them\n`,
      );
    }
  });

  it('a store or state file that cannot be opened is named by its key, with what to check', async () => {
    const notSqlite = write('notes.db', 'a text file, not a SQLite database\n');
    const stores = (doc: Record<string, unknown>) =>
      write('stores.json', {
        api_url: sim.url,
        token_env: 'SIM_TOKEN',
        targets: { repos: [`${USER}/own`] },
        ...doc,
      });
    // A SQLite driver that cannot be loaded (built for another Node) is one line saying so, not a stack trace.
    const noDriver = await run(['sweep', '--config', stores({ stores: { sqlite: join(dir, 'fresh.db') } })], {
      SIM_TOKEN: TOKEN,
      NODE_OPTIONS: `--require ${join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'no-sqlite-driver.cjs')}`,
    });
    expect(noDriver.code).toBe(1);
    oneLine(noDriver.stderr);
    const driver = Number(process.versions.napi) >= 10 ? 'better-sqlite3' : 'better-sqlite3-node20';
    expect(noDriver.stderr).toBe(
      `activity-collector: the SQLite driver ${driver} cannot be loaded under Node ${process.versions.node} (The module was compiled against a different Node.js version.); install the collector's dependencies again with this Node (npm ci, or npm install activity-collector)\n`,
    );
    const wrongFile = await run(['sweep', '--config', stores({ stores: { sqlite: notSqlite } })], {
      SIM_TOKEN: TOKEN,
    });
    expect(wrongFile.code).toBe(1);
    expect(wrongFile.stderr).toBe(
      'activity-collector: stores.sqlite: cannot open the store (SQLITE_NOTADB: file is not a database); check that stores.sqlite is the path of a SQLite file (or a new one) in a folder the collector can write\n',
    );
    const stateDir = await run(
      ['sweep', '--config', stores({ stores: { prometheus: { port: 0 } }, state: dir })],
      { SIM_TOKEN: TOKEN },
    );
    expect(stateDir.code).toBe(1);
    expect(stateDir.stderr).toBe(
      'activity-collector: state: cannot open the state file (SQLITE_CANTOPEN: unable to open database file); check that state is the path of a SQLite file (or a new one) in a folder the collector can write\n',
    );
  });

  it('query names a store that cannot be opened by its key, with what to check, as sweep does', async () => {
    const notSqlite = write('query-notes.db', 'a text file, not a SQLite database\n');
    const query = async (stores: Record<string, unknown>) => {
      const f = write('query-stores.json', {
        api_url: sim.url,
        token_env: 'SIM_TOKEN',
        targets: { repos: [`${USER}/own`] },
        stores,
        state: join(dir, 'query-state.db'),
      });
      const r = await run(['query', '--config', f, '--repo', `${USER}/own`]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      oneLine(r.stderr);
      return r.stderr;
    };
    expect(await query({ sqlite: notSqlite })).toBe(
      'activity-collector: stores.sqlite: cannot open the store (SQLITE_NOTADB: file is not a database); check that stores.sqlite is the path of a SQLite file (or a new one) in a folder the collector can write\n',
    );
    expect(await query({ sqlite: dir })).toBe(
      'activity-collector: stores.sqlite: cannot open the store (SQLITE_CANTOPEN: unable to open database file); check that stores.sqlite is the path of a SQLite file (or a new one) in a folder the collector can write\n',
    );
    const pg = await query({ postgres: `postgres://postgres:${PG_PASSWORD}@127.0.0.1:1/none` });
    expect(pg).toBe(
      'activity-collector: stores.postgres: cannot open the store (connect ECONNREFUSED 127.0.0.1:1); check that the PostgreSQL server stores.postgres.url names is running and reachable\n',
    );
    expect(pg).not.toContain(PG_PASSWORD);
  });

  it('serve sweeps on the schedule and serves /metrics and /health', async () => {
    const f = write(
      'serve.json',
      JSON.stringify({
        api_url: sim.url,
        token_env: 'SIM_TOKEN',
        targets: { repos: [`${USER}/own`] },
        stores: { sqlite: join(dir, 'serve.db'), prometheus: { port: 0 } },
        schedule: '10s',
        packages: { types: ['npm'] },
      }),
    );
    const serve = spawnServe(f);
    const url = await serve.until(/sweep complete/, 10);
    expect(url, serve.stderr()).toBeDefined();
    const metrics = await fetch(`${url}/metrics`);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    const text = await metrics.text();
    expect(text).toContain(`vcs_star_count{repository="${USER}/own"} 2`);
    expect(text).toContain('activity_collector_sweep_complete 1');
    const health = await (await fetch(`${url}/health`)).json();
    expect(health).toMatchObject({ status: 'ok', lastSweep: { status: 'complete', errors: 0 } });
    expect((await fetch(`${url}/nope`)).status).toBe(404);
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(serve.stderr()).not.toContain(TOKEN);
  });

  it('serve: a sweep that fails outright answers /health 503 failing, its lastError naming the upstream and what to check', async () => {
    const closed = await closedPort();
    const f = write('serve-down.json', {
      api_url: `http://127.0.0.1:${closed}`,
      token_env: 'SIM_TOKEN',
      targets: { repos: [`${USER}/own`] },
      stores: { sqlite: join(dir, 'serve-down.db'), prometheus: { port: 0 } },
      schedule: '1h',
    });
    const serve = spawnServe(f);
    try {
      const url = await serve.until(/sweep failed/, 30);
      const lastError = `cannot reach the upstream at http://127.0.0.1:${closed} (GET /user: connect ECONNREFUSED 127.0.0.1:${closed}); check api_url and the network`;
      expect(serve.stderr().split('\n')).toContain(`warning: sweep failed: ${lastError}`);
      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({ status: 'failing', sweeping: false, lastError });
    } finally {
      // Stopped whatever the assertions found, so a failing run leaves no server behind.
      serve.child.kill('SIGTERM');
    }
    expect(await serve.exited).toBe(0);
  });

  it('serve stopped during a wait for the rate limit exits at once, not at the reset', async () => {
    // Five requests an hour, on the real clock: the first sweep has to wait about an hour.
    const limited = await startSim(world([fullRepo('own'), fullRepo('other')]), {
      now: () => new Date(),
      rateLimit: { limit: 5, resetInSeconds: 3600 },
    });
    const f = write('limited.json', {
      api_url: limited.url,
      token_env: 'SIM_TOKEN',
      targets: { repos: [`${USER}/own`, `${USER}/other`] },
      stores: { sqlite: join(dir, 'limited.db'), prometheus: { port: 0 } },
      rate_limit: { max_wait_seconds: 7200 },
    });
    const serve = spawnServe(f);
    await serve.until(/waiting \d+ s/, 60);
    expect(serve.stderr()).toMatch(/waiting \d+ s/);
    serve.child.kill('SIGTERM');
    const code = await Promise.race([
      serve.exited,
      new Promise<'still running'>((r) => setTimeout(() => r('still running'), 30_000)),
    ]);
    if (code === 'still running') serve.child.kill('SIGKILL');
    expect(code).toBe(0);
  }, 120_000);
});
