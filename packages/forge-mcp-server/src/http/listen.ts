/**
 * Binding: plain HTTP or TLS (node:https, TLS 1.2 floor) on host:port, or a unix socket when
 * --http-addr is a filesystem path (its mode from --http-socket-mode).
 */
import { chmodSync, lstatSync, readFileSync, unlinkSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Config } from '../config/types.js';
import { SECURITY_HEADERS } from './headers.js';

/** The start cannot go on: the listen address is taken or unusable, or a TLS file cannot be used. */
export class ListenerRefused extends Error {}

/** Reads a TLS file, naming the flag and what to do when it cannot be read. */
function readTlsFile(flag: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new ListenerRefused(`${flag}=${file}: cannot read the file (${code}); name a readable PEM file`);
  }
}

export interface Addr {
  host?: string;
  port: number;
  path?: string;
}

export function parseAddr(addr: string): Addr {
  if (addr.startsWith('/') || addr.startsWith('.')) return { port: 0, path: addr };
  const m = /^(?:\[([^\]]+)\]|([^:]*))?:(\d+)$/.exec(addr);
  if (!m) return { port: 8080 };
  const host = m[1] ?? m[2];
  return { host: host || undefined, port: Number(m[3]) };
}

/**
 * What Node answers by itself to a request it cannot parse, with the security headers every response
 * carries (Node's own answer has none).
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout']
        : [400, 'Bad Request'];
  const headers = Object.entries(SECURITY_HEADERS)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${headers}connection: close\r\ncontent-length: 0\r\n\r\n`);
}

/**
 * A client that dribbles its request is cut off (408) instead of holding a connection: its headers must
 * arrive within 10 s and the whole request within 30 s (a 4 MiB body needs about 140 KB/s), checked every
 * second. Only receiving the request is bounded; an answer, event streams included, takes as long as it needs.
 */
export const SLOW_CLIENT_LIMITS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  connectionsCheckingInterval: 1_000,
};

export function createListener(config: Config, listener: RequestListener): Server {
  const server = createBareListener(config, listener);
  // --http-idle-timeout: how long a keep-alive connection may sit between requests (0: no limit).
  server.keepAliveTimeout = config.httpIdleTimeoutMs;
  server.on('clientError', answerClientError);
  return server;
}

function createBareListener(config: Config, listener: RequestListener): Server {
  // A request without Host is served (the host guard decides), so Node must not refuse it first.
  const base = { requireHostHeader: false, ...SLOW_CLIENT_LIMITS };
  if (config.tlsCert && config.tlsKey) {
    const cert = readTlsFile('--tls-cert', config.tlsCert);
    const key = readTlsFile('--tls-key', config.tlsKey);
    try {
      return createHttpsServer({ ...base, cert, key, minVersion: 'TLSv1.2' }, listener) as unknown as Server;
    } catch (err) {
      throw new ListenerRefused(
        `--tls-cert=${config.tlsCert} with --tls-key=${config.tlsKey}: not a usable certificate and key (${(err as Error).message}); name a PEM certificate and its private key`,
      );
    }
  }
  return createHttpServer(base, listener);
}

/** Removes a stale unix socket left by an earlier run; any other file is left alone (listen fails). */
function clearStaleSocket(path: string): void {
  try {
    if (lstatSync(path).isSocket()) unlinkSync(path);
  } catch {
    // absent
  }
}

export async function bind(server: Server, addr: Addr, socketMode: number): Promise<void> {
  if (addr.path) clearStaleSocket(addr.path);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const where =
        addr.path ?? `${addr.host?.includes(':') ? `[${addr.host}]` : (addr.host ?? '')}:${addr.port}`;
      reject(
        new ListenerRefused(
          `--http-addr=${where}: cannot listen there (${err.code ?? err.message}); choose a free port (or a writable socket path), or stop what holds it`,
        ),
      );
    });
    if (addr.path) server.listen(addr.path, resolve);
    else server.listen(addr.port, addr.host, resolve);
  });
  if (addr.path) chmodSync(addr.path, socketMode);
}

/** The address clients reach the MCP path at, for the log line. */
export function urlOf(server: Server, tls: boolean, mcpPath: string): string {
  const addr = server.address();
  if (typeof addr === 'string') return `unix:${addr}:${mcpPath}`;
  const a = addr as AddressInfo;
  const host =
    a.family === 'IPv6'
      ? `[${a.address === '::' ? '::1' : a.address}]`
      : a.address === '0.0.0.0'
        ? '127.0.0.1'
        : a.address;
  return `${tls ? 'https' : 'http'}://${host}:${a.port}${mcpPath}`;
}

export function unlinkSocket(addr: Addr): void {
  if (addr.path) clearStaleSocket(addr.path);
}
