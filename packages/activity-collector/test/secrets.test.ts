/**
 * An upstream (or a proxy in front of it) whose error answers quote the request's token back: `serve` against
 * the simulated upstream behind such a proxy. The token reaches no output: not stderr, not the store's rows
 * (vcs_collection_status.detail in SQLite, and in PostgreSQL where COLLECTOR_TEST_PG_URL names a server, keeps the
 * upstream's message with the token as [redacted]), not /metrics, not /health.
 */
import { writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore, openSqliteStore, type Store } from '../src/index.js';
import {
  dump,
  fullRepo,
  PG_URL,
  pgSchema,
  spawnServe,
  startSim,
  tempDir,
  TOKEN,
  USER,
  world,
} from './helpers.js';

/** Forwards to `target`, except the traffic lists, answered with messages quoting the request's token. */
function quotingProxy(target: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const bearer = String(req.headers.authorization ?? '');
    const quote = (status: number, message: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message }));
    };
    if (req.url?.includes('/traffic/views'))
      return quote(403, `Must have push access; the request had Authorization: ${bearer}`);
    if (req.url?.includes('/traffic/clones'))
      return quote(422, `refused ?access_token=${bearer.replace(/^Bearer /, '')}`);
    const u = new URL(target);
    const out = request(
      { host: u.hostname, port: u.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(out);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    ),
  );
}

describe('an upstream quoting the token back', () => {
  const dir = tempDir();
  let proxy: { url: string; server: Server };
  beforeAll(async () => {
    const sim = await startSim(world([fullRepo('own')]));
    proxy = await quotingProxy(sim.url);
  });
  afterAll(() => proxy?.server.close());

  /** The stores the sweep writes to: SQLite always, PostgreSQL where a server is given (CI starts one). */
  const stores: Array<[string, () => { doc: Record<string, unknown>; open: () => Store }]> = [
    [
      'SQLite',
      () => {
        const db = join(dir, 'quoted.db');
        return { doc: { sqlite: db }, open: () => openSqliteStore(db) };
      },
    ],
  ];
  if (PG_URL) {
    const schema = pgSchema('quoted');
    stores.push([
      'PostgreSQL',
      () => ({ doc: { postgres: { url: PG_URL, schema } }, open: () => openPostgresStore(PG_URL, schema) }),
    ]);
  }

  it.each(stores)(
    'serve with %s: the token is in no store row, log line, /metrics or /health; the message is kept with [redacted]',
    async (name, target) => {
      const { doc, open } = target();
      const file = join(dir, 'quoted.json');
      writeFileSync(
        file,
        JSON.stringify({
          api_url: proxy.url,
          token_env: 'SIM_TOKEN',
          targets: { repos: [`${USER}/own`] },
          stores: { ...doc, prometheus: { port: 0 } },
          state: join(dir, `state-${name}.db`),
          schedule: '1h',
          packages: { types: ['npm'] },
        }),
      );
      const serve = spawnServe(file);
      const url = await serve.until(/sweep (complete|incomplete)/, 60);
      expect(url, serve.stderr()).toBeDefined();
      const outputs = [
        await (await fetch(`${url}/metrics`)).text(),
        await (await fetch(`${url}/health`)).text(),
      ];
      serve.child.kill('SIGTERM');
      expect(await serve.exited).toBe(0);
      const store = open();
      await store.init();
      const rows = await dump(store, 'vcs_collection_status', ['checked_at']);
      await store.close();
      expect(rows).toContain(
        JSON.stringify({
          collector: 'traffic_views',
          detail: 'Must have push access; the request had Authorization: Bearer [redacted]',
          http_status: 403,
          outcome: 'unavailable',
          scope: `${USER}/own`,
        }),
      );
      expect(rows).toContain(
        JSON.stringify({
          collector: 'traffic_clones',
          detail: 'refused ?access_token=[redacted]',
          http_status: 422,
          outcome: 'error',
          scope: `${USER}/own`,
        }),
      );
      // The sweep's summary names the collector error, without the token either.
      expect(serve.stderr()).toContain(`${USER}/own traffic_clones: refused ?access_token=[redacted]`);
      for (const text of [...rows, ...outputs, serve.stderr()]) expect(text).not.toContain(TOKEN);
      // Nor the store's own password, where its URL has one.
      const password = PG_URL ? decodeURIComponent(new URL(PG_URL).password) : '';
      if (password) expect(serve.stderr() + outputs.join('')).not.toContain(password);
      expect(serve.stderr()).not.toMatch(/\n\s+at /);
    },
  );
});
