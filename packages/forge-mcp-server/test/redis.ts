/**
 * A real redis-server for the shared-state tests, started by the test on a free loopback port without
 * persistence, so a test can stop it and start it again on the same port. The binary is
 * FORGE_TEST_REDIS_SERVER (exported by .ci/redis.sh, which installs Debian's redis-server); without it the
 * Redis tests are skipped, except under CI=true, where a missing server is a failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { testSecret } from '../../../test-logs.js';
import { freePort } from './harness.js';

const DEBIAN_BINARY = '/usr/bin/redis-server';
export const REDIS_SERVER =
  process.env.FORGE_TEST_REDIS_SERVER || (existsSync(DEBIAN_BINARY) ? DEBIAN_BINARY : undefined);
export const REDIS_SKIP_REASON = REDIS_SERVER
  ? undefined
  : 'no redis-server (source .ci/redis.sh to install it and set FORGE_TEST_REDIS_SERVER)';
if (!REDIS_SERVER && process.env.CI === 'true')
  throw new Error('CI=true but no redis-server was found: the shared-state tests must run in CI');
if (!REDIS_SERVER) console.warn(`forge-mcp-server Redis tests skipped: ${REDIS_SKIP_REASON}`);

export interface RedisServer {
  port: number;
  /** redis://127.0.0.1:<port> (with `password`, redis://:<password>@...). */
  url: string;
  /** Starts it again on the same port (after stop()). */
  start(): Promise<void>;
  /** Stops it and waits until it has exited. */
  stop(): Promise<void>;
  /** Empties it (FLUSHALL), so a test starts from no shared state. */
  flush(): Promise<void>;
}

/**
 * Registers the confirmation seal key the servers keep in Redis (forge-mcp:seal, hex), in each form a log could show
 * it, for the suite's secret grep. A server that does not answer within 5 s leaves it unregistered.
 */
async function registerSealKey(url: string): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 5_000 });
  try {
    await client.connect();
    const hex = await client.get('forge-mcp:seal');
    if (hex) {
      const key = Buffer.from(hex, 'hex');
      for (const form of [hex, key.toString('base64'), key.toString('base64url')]) testSecret(form);
    }
  } catch {
    // Stopped, or not answering: nothing to read.
  } finally {
    client.disconnect();
  }
}

/**
 * Starts a redis-server on a free loopback port; `password` makes it require one (requirepass), and is registered
 * as a secret no log may hold; `args` are more of the server's own options (--maxmemory 100mb, say). Before it is
 * stopped or emptied, the seal key the servers kept there is registered.
 */
export async function startRedis(opts: { password?: string; args?: string[] } = {}): Promise<RedisServer> {
  if (opts.password) testSecret(opts.password);
  const port = await freePort();
  let child: ChildProcess | undefined;
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    ...(opts.password ? ['--requirepass', opts.password] : []),
    ...(opts.args ?? []),
  ];
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const c = spawn(REDIS_SERVER!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child = c;
      let out = '';
      const t = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 30_000);
      c.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) {
          clearTimeout(t);
          resolve();
        }
      });
      c.once('exit', (code) => {
        clearTimeout(t);
        reject(new Error(`redis-server exited ${code}: ${out}`));
      });
    });
  await start();
  const auth = opts.password ? `:${encodeURIComponent(opts.password)}@` : '';
  const url = `redis://${auth}127.0.0.1:${port}`;
  const stop = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    await registerSealKey(url);
    await new Promise<void>((resolve) => {
      if (c.exitCode !== null || c.signalCode !== null) return resolve();
      c.once('exit', () => resolve());
      c.kill('SIGKILL');
    });
  };
  const flush = async () => {
    await registerSealKey(url);
    const client = new Redis(url, { lazyConnect: true });
    try {
      await client.connect();
      await client.flushall();
    } finally {
      client.disconnect();
    }
  };
  return { port, url, start, stop, flush };
}

/** Every key Redis holds and every value under it, whatever its type (a type not read is named as such). */
export async function everythingIn(client: Redis): Promise<string[]> {
  const written: string[] = [];
  for (const k of await client.keys('*')) {
    written.push(k);
    const type = await client.type(k);
    if (type === 'string') written.push((await client.get(k)) ?? '');
    else if (type === 'hash') written.push(...Object.entries(await client.hgetall(k)).flat());
    else if (type === 'zset') written.push(...(await client.zrange(k, 0, -1)));
    else if (type === 'set') written.push(...(await client.smembers(k)));
    else if (type === 'list') written.push(...(await client.lrange(k, 0, -1)));
    // 'none': the key went (expired or deleted) between the listing and the read.
    else if (type !== 'none') written.push(`unread ${type} ${k}`);
  }
  return written;
}
