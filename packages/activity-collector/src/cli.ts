#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { sweep, type SweepSummary } from './collect.js';
import { loadConfig, readTokens, type CollectorConfig } from './config.js';
import { shownUrl, UnreachableError, UserError } from './errors.js';
import { createLogger, redactSecrets } from './log.js';
import { startServer, type HealthState } from './serve.js';
import { SimUpstream } from './sim/server.js';
import { generateWorld } from './sim/world.js';
import { namedStore, openStores } from './stores.js';
import { formatSummary } from './summary.js';
import { openPostgresStore } from './store/postgres.js';
import { openSqliteStore } from './store/sqlite.js';
import type { Store } from './store/types.js';

const USAGE = `usage:
  activity-collector sweep --config FILE [--quiet]     run one sweep; progress and a summary on stderr
  activity-collector serve --config FILE [--quiet]     sweep on the schedule; serve /metrics and /health
  activity-collector query --config FILE --repo OWNER/NAME [--format table|csv|json]
                                                       print the star history per day from the store
  activity-collector sim [--port N] [--repos N] [--seed N]
                                                       run the simulated upstream (demo)
  activity-collector --help | --version`;

const secrets: string[] = [];

/** An upstream that could not be asked, named by its api_url (never its credentials), with what to check. */
function unreachable(e: UnreachableError): string {
  return `cannot reach the upstream at ${shownUrl(e.apiUrl)} (${redact(e.detail)}); check api_url and the network`;
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}
const log = createLogger(undefined, secrets);

function redact(s: string): string {
  return redactSecrets(s, secrets);
}

function args(argv: string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: false, strict: true }).values as Record<
      string,
      string | boolean | undefined
    >;
  } catch (e) {
    throw new UsageError(
      `${(e as Error).message.split('\n')[0].replace(/\.$/, '')}; run activity-collector --help`,
    );
  }
}

class UsageError extends UserError {}

async function configFrom(v: Record<string, unknown>): Promise<CollectorConfig> {
  if (typeof v.config !== 'string')
    throw new UsageError('missing --config FILE (a YAML or JSON configuration file)');
  return loadConfig(v.config);
}

/**
 * What sweep and serve share: the configuration and its tokens (kept out of every line written), and one sweep
 * with them into `store`, its summary written on stderr. `signal` stops the sweep between requests, and ends a
 * wait for the rate limit's reset (up to rate_limit.max_wait_seconds) too rather than keeping the process up.
 */
async function sweeper(argv: string[]) {
  const v = args(argv, { config: { type: 'string' }, quiet: { type: 'boolean' } });
  const config = await configFrom(v);
  const tokens = readTokens(config);
  secrets.push(...tokens.map((t) => t.token));
  const logger = createLogger(undefined, [...secrets], Boolean(v.quiet));
  const run = async (store: Store, signal: AbortSignal): Promise<SweepSummary> => {
    const summary = await sweep({
      config,
      token: tokens[0].token,
      tokens,
      store,
      logger,
      signal,
      sleep: (ms) => delay(ms, undefined, { signal }),
    });
    process.stderr.write(redact(formatSummary(summary)) + '\n');
    return summary;
  };
  return { config, run };
}

async function cmdSweep(argv: string[]): Promise<number> {
  const { config, run } = await sweeper(argv);
  const { store } = await openStores(config);
  // Ctrl-C (or SIGTERM) stops the sweep between requests, so it is recorded as incomplete rather than left
  // 'running'; a second signal ends the process at once.
  const abort = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  const interrupt = (signal: NodeJS.Signals) => {
    stoppedBy = signal;
    abort.abort();
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    const summary = await run(store, abort.signal);
    return summary.status === 'complete' && summary.errors.length === 0 ? 0 : 2;
  } catch (e) {
    if (!stoppedBy) throw e;
    process.stderr.write(
      `activity-collector: sweep interrupted (${stoppedBy}) and recorded as incomplete; what it wrote is kept, and the next sweep continues where it stopped\n`,
    );
    return stoppedBy === 'SIGINT' ? 130 : 143;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await store.close();
  }
}

async function cmdServe(argv: string[]): Promise<number> {
  const { config, run } = await sweeper(argv);
  if (!config.stores.prometheus) {
    throw new UserError(
      'serve needs stores.prometheus ({ port }) to serve /metrics and /health; add it to the configuration',
    );
  }
  const { store, prometheus } = await openStores(config);
  const health: HealthState = { sweeping: false };
  let server;
  try {
    server = await startServer({
      host: config.stores.prometheus.host,
      port: config.stores.prometheus.port,
      prometheus,
      health: () => health,
    });
  } catch (e) {
    await store.close();
    throw new UserError(
      `cannot listen on ${config.stores.prometheus.host}:${config.stores.prometheus.port} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); choose another stores.prometheus.port`,
    );
  }
  log.info(
    `serving ${server.url}/metrics and ${server.url}/health; sweeping every ${config.scheduleSeconds} s`,
  );
  let timer: NodeJS.Timeout | undefined;
  let stopping = false;
  const abort = new AbortController();
  const runOnce = async () => {
    health.sweeping = true;
    try {
      const s = await run(store, abort.signal);
      health.lastSweep = {
        status: s.status,
        finishedAt: s.finishedAt,
        errors: s.errors.length,
        degraded: s.degraded.map(redact),
      };
      health.lastError = undefined;
    } catch (e) {
      if (!stopping) {
        health.lastError = e instanceof UnreachableError ? unreachable(e) : redact((e as Error).message);
        log.warn(`sweep failed: ${health.lastError}`);
      }
    } finally {
      health.sweeping = false;
    }
    if (!stopping) timer = setTimeout(runOnce, config.scheduleSeconds * 1000);
  };
  void runOnce();
  await new Promise<void>((resolve) => {
    const stop = () => {
      stopping = true;
      abort.abort();
      if (timer) clearTimeout(timer);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  // Let an in-flight sweep notice the abort before the stores close.
  for (let i = 0; i < 100 && health.sweeping; i++) await new Promise((r) => setTimeout(r, 50));
  await store.close();
  return 0;
}

async function cmdQuery(argv: string[]): Promise<number> {
  const v = args(argv, { config: { type: 'string' }, repo: { type: 'string' }, format: { type: 'string' } });
  const config = await configFrom(v);
  const repo = v.repo;
  if (typeof repo !== 'string' || !/^[^/\s]+\/[^/\s]+$/.test(repo)) {
    throw new UsageError(
      'missing or malformed --repo OWNER/NAME (the repository whose star history to print)',
    );
  }
  const format = (v.format as string | undefined) ?? 'table';
  if (!['table', 'csv', 'json'].includes(format))
    throw new UsageError(`--format ${format}: accepted: table, csv, json`);
  // A store that cannot be opened is named by its key, with what to check, as sweep names it. Query only reads: a
  // SQLite file that is not there is said to be missing, not created empty (with its folders) and found empty.
  const { sqlite, postgres } = config.stores;
  if (sqlite && sqlite !== ':memory:' && !existsSync(sqlite))
    throw new UserError(
      `stores.sqlite: ${sqlite} does not exist; run activity-collector sweep first, from the same working directory (a relative path is taken from it), or correct the path`,
    );
  const store = sqlite
    ? namedStore('stores.sqlite', () => openSqliteStore(sqlite))
    : postgres
      ? namedStore('stores.postgres', () => openPostgresStore(postgres.url, postgres.schema))
      : undefined;
  if (!store)
    throw new UserError('query reads stores.sqlite or stores.postgres; the configuration names neither');
  try {
    await store.init();
    const days = await store.starDays(repo);
    if (days.length === 0) {
      // Swept, and the history read: a repository nobody has starred has no week in it. Swept, and the history
      // refused or failed: the outcome says why. Never swept: the name or the sweep is missing.
      const read = await store.collectionStatus?.(repo, 'vcs_star_day');
      if (read && read.outcome !== 'ok')
        throw new UserError(
          `no star history stored for ${repo}: the last sweep could not read it (${read.outcome}${read.httpStatus ? ` ${read.httpStatus}` : ''}${read.detail ? `: ${read.detail}` : ''})`,
        );
      if (!read)
        throw new UserError(
          `no star history stored for ${repo}; run activity-collector sweep first (or check the name)`,
        );
      process.stderr.write(
        `activity-collector: ${repo} has no stars: its star history, read by the last sweep, holds no week\n`,
      );
    }
    let out: string;
    if (format === 'json') out = JSON.stringify(days, null, 2);
    else if (format === 'csv') out = ['day,stars', ...days.map((d) => `${d.day},${d.stars}`)].join('\n');
    else {
      const total = days.reduce((n, d) => n + d.stars, 0);
      out = [
        'day         stars',
        ...days.map((d) => `${d.day}  ${String(d.stars).padStart(5)}`),
        `total       ${String(total).padStart(5)}`,
      ].join('\n');
    }
    process.stdout.write(out + '\n');
    return 0;
  } finally {
    await store.close();
  }
}

async function cmdSim(argv: string[]): Promise<number> {
  const v = args(argv, { port: { type: 'string' }, repos: { type: 'string' }, seed: { type: 'string' } });
  const num = (x: unknown, name: string, dflt: number) => {
    if (x === undefined) return dflt;
    const n = Number(x);
    if (!Number.isInteger(n) || n < 0)
      throw new UsageError(`--${name} ${String(x)}: expected a whole number`);
    return n;
  };
  const world = generateWorld({ repos: num(v.repos, 'repos', 20), seed: num(v.seed, 'seed', 1) });
  const port = num(v.port, 'port', 0);
  const sim = new SimUpstream({ world, port });
  let url: string;
  try {
    url = await sim.start();
  } catch (e) {
    throw new UserError(
      `cannot listen on 127.0.0.1:${port} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); choose another --port (0 picks a free one)`,
    );
  }
  process.stdout.write(
    `simulated upstream at ${url}\n  export SIM_TOKEN=${world.token}\n  config: api_url: ${url}, token_env: SIM_TOKEN, targets.orgs: [demo-admin-org], targets.repos: [${world.user}/repo-0]\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await sim.close();
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    // `activity-collector sweep --help` is asked as often as `activity-collector --help`: both print the usage.
    if (rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(USAGE + '\n');
      return 0;
    }
    switch (cmd) {
      case 'sweep':
        return await cmdSweep(rest);
      case 'serve':
        return await cmdServe(rest);
      case 'query':
        return await cmdQuery(rest);
      case 'sim':
        return await cmdSim(rest);
      case '-h':
      case '--help':
      case 'help':
        process.stdout.write(USAGE + '\n');
        return 0;
      case '--version':
        process.stdout.write(`${version()}\n`);
        return 0;
      default:
        throw new UsageError(
          cmd
            ? `unknown command "${cmd}"; commands: sweep, serve, query, sim`
            : 'no command given; commands: sweep, serve, query, sim',
        );
    }
  } catch (e) {
    const err = e as Error & { code?: string };
    if (e instanceof UnreachableError) {
      process.stderr.write(`activity-collector: ${unreachable(e)}, then run again\n`);
      return 1;
    }
    if (e instanceof UserError) {
      process.stderr.write(`activity-collector: ${redact(err.message)}\n`);
      return e instanceof UsageError ? 64 : 1;
    }
    // Anything else (a store that cannot be reached, a bug): still one line, never a stack trace.
    const what =
      err.code === 'ECONNREFUSED' || /connect|password|database/i.test(err.message)
        ? 'store or upstream unreachable: '
        : '';
    process.stderr.write(`activity-collector: ${what}${redact(err.message.split('\n')[0])}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = 1;
  },
);
