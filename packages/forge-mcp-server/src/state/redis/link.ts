/**
 * The connection to Redis (ioredis): one client per process, the adapter's scripts defined on it, and what its
 * failures mean. A command that cannot reach Redis fails at once (no offline queue, no retries) as
 * StateUnavailable, which the HTTP door answers 503 with Retry-After; the client reconnects by itself and the
 * next request is served again. The URL may carry a password: messages name only host:port.
 */
import { Redis } from 'ioredis';
import type { Logger } from '../../log.js';
import { StateUnavailable } from '../unavailable.js';
import { SCRIPTS, type ScriptName } from './scripts.js';

/** Every key of the adapter starts with this. */
export const KEY_PREFIX = 'forge-mcp:';
const CONNECT_TIMEOUT_MS = 5_000;
/** A command Redis does not answer in this time fails (a hung server reads as an unreachable one). */
const COMMAND_TIMEOUT_MS = 5_000;
const SETTING = 'FORGE_MCP_REDIS_URL (--redis-url)';

/**
 * Redis replies that say the server cannot serve this replica now (loading, out of memory, a password it no
 * longer takes), not that the command was wrong: answered 503 like an unreachable server.
 */
const TRANSIENT_REPLY =
  /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|NOREPLICAS|OOM|NOAUTH|WRONGPASS)\b/;

/** First-connection failures that say what is wrong: a refused password, a port that does not speak Redis. */
const TELLING = /^(WRONGPASS|NOAUTH)\b|max retries per request|Protocol error/;

type Run = (...args: Array<string | number>) => Promise<unknown>;

/**
 * AUTH refusals the client takes as harmless and goes on connecting after, printing its own raw console line
 * for each: here logged once as a WARN record naming host:port (never the password), and not printed.
 */
const AUTH_NOTICES: Array<[RegExp, (where: string) => string]> = [
  [
    /no password is set|without any password configured for the default user/,
    (where) =>
      `${SETTING}: the Redis server at ${where} does not require a password, but the URL carries one; it is not used (leave it out of the URL, or set requirepass on the server)`,
  ],
  [
    /wrong number of arguments for 'auth' command/,
    (where) =>
      `${SETTING}: the Redis server at ${where} does not take a user name with the password (Redis 5 or older); leave the user name out of the URL`,
  ],
];

type AuthCall = (...args: unknown[]) => unknown;

/**
 * The client authenticates each connection by its own auth method, with a callback: wrapped on this client, the
 * notices above reach `notice` as success instead of the client's console.warn (whose next step is the same: go
 * on connecting). Any other reply, and every other auth call, is passed through unchanged.
 */
function takeAuthNotices(client: Redis, where: string, notice: (text: string) => void): void {
  const auth = client.auth.bind(client) as AuthCall;
  (client as unknown as { auth: AuthCall }).auth = (...args) => {
    const done = args.at(-1);
    if (typeof done !== 'function') return auth(...args);
    return auth(...args.slice(0, -1), (err: Error | null, reply?: unknown) => {
      const known = err ? AUTH_NOTICES.find(([pattern]) => pattern.test(err.message)) : undefined;
      if (!known) return (done as AuthCall)(err, reply);
      notice(known[1](where));
      return (done as AuthCall)(null, 'OK');
    });
  };
}

export class RedisLink {
  private up = false;

  private constructor(
    readonly client: Redis,
    /** host:port, for messages. */
    readonly where: string,
    private readonly secrets: string[],
    readonly log: Logger,
  ) {}

  /** Connects, or rejects with StateUnavailable naming the setting and host:port. */
  static async open(url: string, log: Logger): Promise<RedisLink> {
    const parsed = new URL(url);
    const where = `${parsed.hostname}:${parsed.port || '6379'}`;
    const secrets = [parsed.password, decodeURIComponent(parsed.password)].filter((s) => s.length > 0);
    const client = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: CONNECT_TIMEOUT_MS,
      commandTimeout: COMMAND_TIMEOUT_MS,
      // Reconnects for as long as the process runs, at most every two seconds.
      retryStrategy: (times) => Math.min(times * 100, 2_000),
      ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    });
    for (const [name, s] of Object.entries(SCRIPTS))
      client.defineCommand(name, { numberOfKeys: s.keys, lua: s.lua });
    // Said once per process: every reconnection gets the same answer.
    const noticed = new Set<string>();
    takeAuthNotices(client, where, (text) => {
      if (noticed.has(text)) return;
      noticed.add(text);
      log.warn({ redis: where }, text);
    });
    const link = new RedisLink(client, where, secrets, log);
    // The client reports every failed reconnection as an error event; the link logs only the changes. A port
    // that is not Redis gives a protocol error and closes, and the writes after it fail as EPIPE or "Stream
    // isn't writeable", in either order: the one that says why is looked for among the first few.
    const causes: Error[] = [];
    client.on('error', (err: Error) => void (causes.length < 8 && causes.push(err)));
    try {
      await client.connect();
      await client.ping();
    } catch (err) {
      client.disconnect();
      // The socket's own error (ECONNREFUSED, ENOTFOUND, WRONGPASS) says more than "Connection is closed".
      const cause = causes.find((e) => TELLING.test(e.message)) ?? causes[0] ?? (err as Error);
      const why = link.scrub(cause.message);
      throw new StateUnavailable(`${SETTING}: ${startFailure(where, why, parsed.protocol)}`, where);
    }
    // The client selects the URL's database as it connects, and a refused SELECT leaves it on database 0
    // without failing anything: asked here, a database the server does not have refuses the start instead.
    const database = Number(parsed.pathname.slice(1) || '0');
    if (database !== 0) {
      try {
        await client.select(database);
      } catch (err) {
        client.disconnect();
        throw new StateUnavailable(
          `${SETTING}: the Redis server at ${where} has no database ${database} (${link.scrub((err as Error).message)}): name one it has in the URL's path (/0 to /15 unless its databases setting allows more)`,
          where,
        );
      }
    }
    link.up = true;
    client.on('close', () => link.down());
    client.on('ready', () => link.back());
    return link;
  }

  private down(): void {
    if (!this.up) return;
    this.up = false;
    this.log.warn(
      { redis: this.where },
      'shared state unreachable: the Redis server of FORGE_MCP_REDIS_URL does not answer; requests that need it are answered 503 until it is back',
    );
  }

  private back(): void {
    if (this.up) return;
    this.up = true;
    this.log.info({ redis: this.where }, 'shared state reachable again');
    for (const f of this.onReady) void f().catch(() => undefined);
  }

  private readonly onReady: Array<() => Promise<unknown>> = [];

  /** Runs `f` whenever the connection comes back (after a loss). */
  whenBack(f: () => Promise<unknown>): void {
    this.onReady.push(f);
  }

  /** The message without the URL's password. */
  scrub(message: string): string {
    let out = message;
    for (const s of this.secrets) out = out.split(s).join('***');
    return out;
  }

  /** Why this replica may not use the server now (replicas it must not run beside hold it), when so. */
  private refusal?: string;

  /** Whether this replica may not use the server now (refuse). */
  get refused(): boolean {
    return this.refusal !== undefined;
  }

  /**
   * Refuses every command but `always` ones for `why` (said once as an ERROR record), or, undefined, serves
   * again (said as an INFO record): refused, the replica answers what needs shared state 503 until it clears.
   */
  refuse(why: string | undefined): void {
    if (why === this.refusal) return;
    if (why) this.log.error({ redis: this.where }, why);
    else
      this.log.info(
        { redis: this.where },
        'shared state usable again: the replicas sealing otherwise are gone',
      );
    this.refusal = why;
  }

  /** Runs a command; a failure to reach Redis, or a refusal, becomes StateUnavailable. */
  async run<T>(f: (client: Redis) => Promise<T>, always = false): Promise<T> {
    if (this.refusal && !always) throw new StateUnavailable(this.refusal, this.where, true);
    try {
      return await f(this.client);
    } catch (err) {
      throw this.failure(err);
    }
  }

  /** Runs one of the adapter's scripts (`always`: even while refused). */
  script(name: ScriptName, keys: string[], args: Array<string | number>, always = false): Promise<unknown> {
    return this.run(
      (c) => (c as unknown as Record<ScriptName, Run>)[name]!.call(c, ...keys, ...args),
      always,
    );
  }

  private failure(err: unknown): Error {
    const e = err as Error;
    // A reply error is Redis refusing the command itself (a bug), unless it says the server is not ready.
    if (e?.name === 'ReplyError' && !TRANSIENT_REPLY.test(e.message)) return e;
    return new StateUnavailable(
      `shared state is unreachable: the Redis server of ${SETTING} does not answer (${this.scrub(e?.message ?? String(err))}); retry shortly`,
      this.where,
    );
  }

  async close(): Promise<void> {
    this.up = false;
    this.client.removeAllListeners('close');
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}

/** What a failed first connection most probably means, and what to do about it. */
function startFailure(where: string, why: string, protocol: string): string {
  if (/^(WRONGPASS|NOAUTH)\b/.test(why))
    return `the Redis server at ${where} refused the credentials (${why}): correct the user and password in the URL`;
  // A server that answers, but not in Redis' protocol (an HTTP port, say): the client gives up on its first command.
  if (/max retries per request|Protocol error/.test(why))
    // The client's own "Please report this." asks for a bug report about what is here a wrong port.
    return `the server at ${where} did not answer as Redis (${why.replace(/\s*Please report this\.$/, '')}): check that the URL names the Redis port`;
  const tls = protocol === 'rediss:' ? '; rediss:// needs a server that speaks TLS' : '';
  return `the Redis server at ${where} cannot be reached (${why}): start it or correct the URL${tls}`;
}
