/**
 * A round-robin HTTP load balancer on loopback, for the tests and benchmarks that run several replicas of a
 * server against this simulated instance. It acts as nginx's upstream round-robin would: each request goes
 * to the next replica in turn; one that refuses the connection is passed over for the next
 * (proxy_next_upstream error); the client's address is appended to X-Forwarded-For; responses stream through
 * unbuffered (event streams included), and a client that leaves ends the exchange upstream too. It records
 * which replica served each request, and can cut every exchange still open (the client's connections
 * dropped) or keep requests away from some replicas for a while (draining them).
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Served {
  /** Index of the replica in `backends`, or -1 when none could be reached. */
  backend: number;
  method: string;
  session?: string;
  lastEventId?: string;
  /** The JSON-RPC method of a POST. */
  rpc?: string;
  status?: number;
  /** The exchange with the client is over (its response ended, or either side dropped the connection). */
  closed?: boolean;
}

export interface Balancer {
  /** The MCP URL clients use. */
  url: string;
  /** Base URLs (http://127.0.0.1:port) of the replicas; replace one to put a new replica in its place. */
  backends: string[];
  /** Every request served, in arrival order (unless `record` is false). */
  log: Served[];
  /** Replicas passed over until cleared (a drain). */
  avoid: Set<number>;
  /** Drops every exchange still open, client side and replica side. */
  cut(): void;
  close(): Promise<void>;
}

export interface BalancerOptions {
  /** The path its `url` names (default /mcp). */
  path?: string;
  /** Whether each request is kept in `log` (default true; a long benchmark turns it off). */
  record?: boolean;
}

/** Starts a balancer over `backends` (base URLs) on a free loopback port. */
export async function startBalancer(backends: string[], o: BalancerOptions = {}): Promise<Balancer> {
  const path = o.path ?? '/mcp';
  let next = 0;
  const log: Served[] = [];
  const avoid = new Set<number>();
  const open = new Set<{ res: ServerResponse; destroy: () => void }>();

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, entry: Served, tries: number) => {
    const start = next++ % backends.length;
    let index = start;
    for (let i = 0; i < backends.length && avoid.has(index); i++) index = (index + 1) % backends.length;
    entry.backend = index;
    const target = new URL(backends[index]!);
    const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const up = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-for': forwarded, connection: 'close' },
        agent: false,
      },
      (answer) => {
        entry.status = answer.statusCode;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.once('error', () => res.destroy());
      },
    );
    const exchange = { res, destroy: () => (up.destroy(), res.destroy()) };
    open.add(exchange);
    res.once('close', () => {
      open.delete(exchange);
      up.destroy();
    });
    up.once('error', () => {
      if (res.headersSent) return void res.destroy();
      open.delete(exchange);
      // Nothing reached the client yet: the next replica gets the request, as nginx would send it on.
      if (tries + 1 < backends.length) return forward(req, res, body, entry, tries + 1);
      entry.backend = -1;
      entry.status = 502;
      res.writeHead(502, { 'content-type': 'application/json' }).end('{"error":"no replica answered"}');
    });
    up.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const header = (name: string) => {
        const v = req.headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      let rpc: string | undefined;
      try {
        rpc = body.length ? (JSON.parse(body.toString()) as { method?: string }).method : undefined;
      } catch {
        rpc = undefined;
      }
      const entry: Served = {
        backend: -1,
        method: req.method ?? 'GET',
        session: header('mcp-session-id'),
        lastEventId: header('last-event-id'),
        rpc,
      };
      if (o.record !== false) log.push(entry);
      res.once('close', () => (entry.closed = true));
      forward(req, res, body, entry, 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    backends,
    log,
    avoid,
    cut: () => {
      for (const e of [...open]) e.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const e of [...open]) e.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
