/**
 * FORGE_MCP_PPROF_ADDR: Node's own diagnostics under /debug/pprof/ on a listener of their own (never the
 * MCP listener), on the loopback address the setting names (the settings table refuses any other host):
 *
 *   GET /debug/pprof/                           what is served here
 *   GET /debug/pprof/heap?seconds=N             a sampled allocation profile over N seconds (default 30, 1 to
 *                                               300; .heapprofile): where live memory was allocated, and how
 *                                               much, never what it holds
 *   GET /debug/pprof/heapsnapshot               a V8 heap snapshot (.heapsnapshot, for hunting a leak) with every
 *                                               secret masked (see mask.ts)
 *   GET /debug/pprof/profile?seconds=N          a CPU profile over N seconds (default 30, 1 to 300; .cpuprofile)
 *
 * A heap snapshot holds every string in memory. Before a byte of it leaves, the secrets the process holds at
 * that moment (secrets.ts: the token, the pool's tokens, the state and identity keys, the collector's
 * credentials) and every credential-shaped string are masked, in a stream (a snapshot may be hundreds of MB).
 * The secrets are gathered only once the snapshot is taken, so the list of them is not in it. The listener
 * also answers only loopback peers whose Host names the listener itself (a page elsewhere cannot rebind a
 * name onto it), and one profile or snapshot runs at a time.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Session } from 'node:inspector/promises';
import { ipFamily } from '../ip.js';
import { pipeline } from 'node:stream/promises';
import { getHeapSnapshot } from 'node:v8';
import type { Logger } from '../log.js';
import { refusedHostLog } from '../http/host-guard.js';
import { heldSecrets } from '../secrets.js';
import { maskingSnapshot } from './mask.js';

const PREFIX = '/debug/pprof/';
const DEFAULT_SECONDS = 30;
const MAX_SECONDS = 300;
/** The sampling heap profiler's mean interval between samples, in bytes allocated (V8's default). */
const HEAP_SAMPLING_BYTES = 32 * 1024;

/** The start cannot go on: the address is taken or cannot be bound. */
export class DiagnosticsRefused extends Error {}

function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase();
  if (a.startsWith('::ffff:')) return a.slice(7).startsWith('127.');
  return ipFamily(a) === 4 ? a.startsWith('127.') : a === '::1';
}

function splitHostPort(addr: string): { host: string; port: number } {
  const i = addr.lastIndexOf(':');
  return { host: addr.slice(0, i).replace(/^\[|\]$/g, ''), port: Number(addr.slice(i + 1)) };
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(text + '\n');
}

export async function startDiagnostics(
  addr: string,
  log: Logger,
): Promise<{ url: string; close(): Promise<void> }> {
  const { host, port } = splitHostPort(addr);
  const allowedHosts = new Set([
    `${host}:${port}`,
    `[${host}]:${port}`,
    `localhost:${port}`,
    `127.0.0.1:${port}`,
    `[::1]:${port}`,
  ]);
  let busy = false;
  const logRefusedHost = refusedHostLog(log, (req) => req.socket.remoteAddress ?? '');

  const exclusive = async (res: ServerResponse, work: () => Promise<void>) => {
    if (busy) return send(res, 409, 'another profile or snapshot is being taken; retry when it is done');
    busy = true;
    try {
      await work();
    } finally {
      busy = false;
    }
  };

  const attachment = (res: ServerResponse, extension: string) => {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-disposition': `attachment; filename="forge-mcp-server-${stamp}.${extension}"`,
      'cache-control': 'no-store',
    });
  };

  const heapSnapshot = (res: ServerResponse) =>
    exclusive(res, async () => {
      // Taken first: what is gathered to mask it (the secrets, the expression) is not in the snapshot.
      const snapshot = getHeapSnapshot();
      const masking = maskingSnapshot(heldSecrets());
      attachment(res, 'heapsnapshot');
      // A client that goes away ends the stream; the snapshot is dropped with it.
      await pipeline(snapshot, masking, res).catch(() => undefined);
    });

  /** `seconds` of the query: a whole number from 1 to MAX_SECONDS, or the default; else the 400 is sent. */
  const secondsOf = (res: ServerResponse, url: URL): number | undefined => {
    const raw = url.searchParams.get('seconds');
    const seconds = raw === null ? DEFAULT_SECONDS : Number(raw);
    if (Number.isInteger(seconds) && seconds >= 1 && seconds <= MAX_SECONDS) return seconds;
    send(res, 400, `seconds must be a whole number from 1 to ${MAX_SECONDS} (default ${DEFAULT_SECONDS})`);
    return undefined;
  };

  /** Runs `start`, waits the seconds asked for, and sends what `stop` gives as a download. */
  const sampled = (
    res: ServerResponse,
    url: URL,
    extension: string,
    start: (session: Session) => Promise<unknown>,
    stop: (session: Session) => Promise<unknown>,
  ) => {
    const seconds = secondsOf(res, url);
    if (seconds === undefined) return;
    return exclusive(res, async () => {
      const session = new Session();
      session.connect();
      try {
        await start(session);
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
        const taken = await stop(session);
        attachment(res, extension);
        res.end(JSON.stringify(taken));
      } finally {
        session.disconnect();
      }
    });
  };

  const profile = (res: ServerResponse, url: URL) =>
    sampled(
      res,
      url,
      'cpuprofile',
      async (session) => {
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
      },
      async (session) => (await session.post('Profiler.stop')).profile,
    );

  // V8's sampling heap profiler: one sample about every 32 KiB allocated, kept while the object lives.
  const heapProfile = (res: ServerResponse, url: URL) =>
    sampled(
      res,
      url,
      'heapprofile',
      async (session) => {
        await session.post('HeapProfiler.enable');
        await session.post('HeapProfiler.startSampling', { samplingInterval: HEAP_SAMPLING_BYTES });
      },
      async (session) => (await session.post('HeapProfiler.stopSampling')).profile,
    );

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (!isLoopbackAddress(req.socket.remoteAddress))
      return send(res, 403, 'diagnostics answer loopback clients only');
    if (!allowedHosts.has((req.headers.host ?? '').toLowerCase())) {
      logRefusedHost(req);
      return send(res, 403, `this Host is not served here; ask for http://${addr}${PREFIX}`);
    }
    if (req.method !== 'GET') return send(res, 405, 'only GET is served here');
    const url = new URL(req.url ?? '/', `http://${addr}`);
    switch (url.pathname) {
      case PREFIX:
      case PREFIX.slice(0, -1):
        return send(
          res,
          200,
          [
            'forge-mcp-server diagnostics',
            `${PREFIX}heap?seconds=${DEFAULT_SECONDS}        sampled allocation profile (.heapprofile), 1 to ${MAX_SECONDS} seconds`,
            `${PREFIX}heapsnapshot           V8 heap snapshot (.heapsnapshot), secrets masked`,
            `${PREFIX}profile?seconds=${DEFAULT_SECONDS}     CPU profile (.cpuprofile), 1 to ${MAX_SECONDS} seconds`,
          ].join('\n'),
        );
      case `${PREFIX}heap`:
        return heapProfile(res, url);
      case `${PREFIX}heapsnapshot`:
        return heapSnapshot(res);
      case `${PREFIX}profile`:
        return profile(res, url);
      default:
        return send(res, 404, `not found; see ${PREFIX}`);
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'the diagnostic could not be taken');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new DiagnosticsRefused(
          `FORGE_MCP_PPROF_ADDR=${addr}: cannot listen there (${err.code ?? err.message}); choose a free loopback port`,
        ),
      ),
    );
    server.listen(port, host, () => resolve());
  });
  server.unref();
  const url = `http://${addr}${PREFIX}`;
  log.info({ diagnostics: url }, 'diagnostics served (loopback only)');
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
