/**
 * HTTP mode: Streamable HTTP on the MCP path, stateless, the credential brought by every request as
 * `PRIVATE-TOKEN` (wins) or `Authorization: Bearer`. Sessions are pooled per credential digest.
 */
import { createHash } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { Config } from '../config/types.js';
import type { Logger } from '../log.js';
import { buildServer } from '../mcp/server.js';
import { InstanceError } from '../instance/index.js';
import { openSession, SessionRefused, type Session } from '../session/index.js';
import { VERSION } from '../version.js';

const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

interface Credential {
  token: string;
  header: 'private-token' | 'bearer';
}

export function credentialOf(req: IncomingMessage): Credential | undefined {
  const pt = req.headers['private-token'];
  if (typeof pt === 'string' && pt.trim()) return { token: pt.trim(), header: 'private-token' };
  const auth = req.headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return { token: m[1], header: 'bearer' };
  }
  return undefined;
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json', ...headers });
  res.end(text);
}

function rpcError(id: unknown, code: number, message: string) {
  return { jsonrpc: '2.0', id: id ?? null, error: { code, message } };
}

/** Pooled sessions, least recently used first out. */
class SessionPool {
  private readonly entries = new Map<string, Promise<Session>>();
  private readonly ready = new Map<string, Session>();
  constructor(private readonly max: number) {}

  /** A session already opened for this credential digest. */
  peek(key: string): Session | undefined {
    return this.ready.get(key);
  }

  get(key: string, open: () => Promise<Session>): Promise<Session> {
    let p = this.entries.get(key);
    if (p) {
      this.entries.delete(key);
      this.entries.set(key, p);
      return p;
    }
    p = open();
    p.then(
      (session) => this.entries.has(key) && this.ready.set(key, session),
      () => this.drop(key),
    );
    this.entries.set(key, p);
    while (this.entries.size > this.max) this.drop(this.entries.keys().next().value as string);
    return p;
  }

  drop(key: string): void {
    this.entries.delete(key);
    this.ready.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

export interface HttpHandle {
  server: HttpServer;
  url: string;
  close(): Promise<void>;
}

export function parseAddr(addr: string): { host?: string; port: number; path?: string } {
  if (addr.startsWith('/') || addr.startsWith('.')) return { port: 0, path: addr };
  const m = /^(?:\[([^\]]+)\]|([^:]*))?:(\d+)$/.exec(addr);
  if (!m) return { port: 8080 };
  const host = m[1] ?? m[2];
  return { host: host || undefined, port: Number(m[3]) };
}

export async function runHttp(config: Config, log: Logger): Promise<HttpHandle> {
  const pool = new SessionPool(config.maxHttpClients);
  /** The session each request was admitted with, handed to the server factory through its auth info. */
  const bound = new WeakMap<object, Session>();
  const mcpPath = config.publicUrl ? new URL(config.publicUrl).pathname.replace(/\/$/, '') || '/mcp' : '/mcp';
  const instance = config.forgeUrls[0];

  const handler = createMcpHandler(
    (ctx) => {
      const session = (ctx.authInfo && bound.get(ctx.authInfo)) ?? pool.peek(ctx.authInfo?.clientId ?? '');
      if (!session) throw new Error('no session for this request');
      return buildServer(session, { onToolCall: (i) => log.debug(i, 'tools/call') });
    },
    {
      legacy: 'stateless',
      responseMode: 'auto',
      maxRequestBodySize: config.maxRequestBodyBytes,
      onerror: (e) => log.debug({ err: e.message }, 'mcp handler'),
    },
  );
  const node = toNodeHandler(handler, { maxRequestBodySize: config.maxRequestBodyBytes });

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/health') return sendJson(res, 200, { status: 'ok', version: VERSION });
    if (url.pathname !== mcpPath) return sendJson(res, 404, { error: 'not found' });
    const cred = credentialOf(req);
    if (!cred) {
      return sendJson(
        res,
        401,
        {
          ...rpcError(
            null,
            -40100,
            'no credential: send your token as "Authorization: Bearer <token>" or "PRIVATE-TOKEN: <token>"',
          ),
          accepted_headers: ['Authorization', 'PRIVATE-TOKEN'],
        },
        { 'www-authenticate': 'Bearer realm="forge-mcp-server"' },
      );
    }
    const key = createHash('sha256').update(instance).update('\0').update(cred.token).digest('hex');
    let session: Session;
    try {
      session = await pool.get(key, () =>
        openSession({
          config,
          baseUrl: instance,
          token: cred.token,
          tokenHeader: cred.header,
          tokenLabel:
            cred.header === 'private-token'
              ? 'the token this request presented (its PRIVATE-TOKEN header)'
              : 'the token this request presented (its Authorization header)',
        }),
      );
    } catch (err) {
      pool.drop(key);
      if (err instanceof SessionRefused) {
        return sendJson(
          res,
          err.status,
          rpcError(null, err.code, err.message),
          err.status === 401
            ? { 'www-authenticate': 'Bearer realm="forge-mcp-server", error="invalid_token"' }
            : {},
        );
      }
      const text = err instanceof InstanceError ? err.render('identity check') : 'identity check failed';
      return sendJson(res, 503, rpcError(null, -32603, text), { 'retry-after': '5' });
    }
    if (session.refusal) return sendJson(res, 403, rpcError(null, -40300, session.refusal));
    (req as IncomingMessage & { auth?: unknown }).auth = {
      token: '',
      clientId: key,
      scopes: session.scopes ?? [],
    };
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    await node(req as never, res as never);
  };

  const server = createServer((req, res) => {
    serve(req, res).catch((err) => {
      log.error({ err: (err as Error).message }, 'request failed');
      if (!res.headersSent) sendJson(res, 500, rpcError(null, -32603, 'internal error'));
      else res.end();
    });
  });
  const { host, port, path } = parseAddr(config.httpAddr);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (path) server.listen(path, resolve);
    else server.listen(port, host, resolve);
  });
  const addr = server.address();
  const url =
    typeof addr === 'string'
      ? `unix:${addr}`
      : `http://${addr && addr.family === 'IPv6' ? `[${addr.address === '::' ? '::1' : addr.address}]` : addr?.address === '0.0.0.0' ? '127.0.0.1' : addr?.address}:${addr?.port}${mcpPath}`;
  log.info({ url, instance: new URL(instance).host }, 'serving over HTTP');
  return {
    server,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
        void handler.close();
      }),
  };
}
