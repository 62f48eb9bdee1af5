import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PrometheusStore } from './store/prometheus.js';

export interface HealthState {
  /** degraded: why the last sweep was rate-limited, stopped early or partial (empty when it was not). */
  lastSweep?: { status: string; finishedAt: string; errors: number; degraded: string[] };
  sweeping: boolean;
  lastError?: string;
}

/** Serves /metrics (Prometheus exposition) and /health (JSON). */
export async function startServer(opts: {
  host: string;
  port: number;
  prometheus?: PrometheusStore;
  health: () => HealthState;
}): Promise<{ server: Server; url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method !== 'GET') {
      res.writeHead(405).end();
      return;
    }
    if (path === '/metrics' && opts.prometheus) {
      opts.prometheus
        .metrics()
        .then((text) => {
          res.writeHead(200, { 'content-type': opts.prometheus!.contentType });
          res.end(text);
        })
        .catch(() => res.writeHead(500).end());
      return;
    }
    if (path === '/health') {
      const h = opts.health();
      const ok = !h.lastError;
      // Degraded still answers 200: the service runs and serves what it has; the body says what is missing.
      const reasons = h.lastSweep?.degraded ?? [];
      const status = !ok ? 'failing' : reasons.length ? 'degraded' : 'ok';
      res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status, ...(reasons.length ? { reasons } : {}), ...h }));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: try /metrics or /health\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const a = server.address() as AddressInfo;
  return {
    server,
    url: `http://${a.address}:${a.port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
