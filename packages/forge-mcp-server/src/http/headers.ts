/** The headers every response carries, and the small JSON writers the transport answers with. */
import type { ServerResponse } from 'node:http';

/** On every response; public documents swap the Cache-Control for their own. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** Sets the security headers before anything else answers, so every path carries them. */
export function applySecurityHeaders(res: ServerResponse): void {
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json', ...headers });
  res.end(text);
}

export function rpcError(id: unknown, code: number, message: string, data?: unknown) {
  return {
    jsonrpc: '2.0',
    id: id ?? null,
    error: { code, message, ...(data !== undefined ? { data } : {}) },
  };
}

/** JSON-RPC codes the transport answers with itself. */
export const CODES = {
  parse: -32700,
  invalidRequest: -32600,
  internal: -32603,
  tooLarge: -32000,
  noCredential: -40100,
  forbidden: -40300,
} as const;

/** Lower-cases A-Z only: hosts compare without Unicode case folding. */
export function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

export function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Keeps `Cache-Control: no-store` on a response another writer heads (the SDK sets its own on event
 * streams): that writer's cache-control is dropped from its writeHead headers.
 */
export function pinNoStore(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    const last = args[args.length - 1];
    if (last && typeof last === 'object' && !Array.isArray(last)) {
      const headers = last as Record<string, unknown>;
      for (const k of Object.keys(headers)) if (k.toLowerCase() === 'cache-control') delete headers[k];
    }
    res.setHeader('cache-control', SECURITY_HEADERS['cache-control']);
    return writeHead(...args);
  }) as typeof res.writeHead;
}

/**
 * Sends an event stream's head as soon as its writer heads it. node:http keeps a response's head until its first
 * body byte, and the SDK's node adapter writes the head and then waits for the stream's first chunk: a session's
 * GET stream with nothing to say yet would leave the client without an answer until the first keep-alive.
 */
export function sendEventStreamHeadAtOnce(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    const out = writeHead(...args);
    const last = args[args.length - 1];
    const given =
      last && typeof last === 'object' && !Array.isArray(last) ? (last as Record<string, unknown>) : {};
    if (String(given['content-type'] ?? res.getHeader('content-type') ?? '').startsWith('text/event-stream'))
      res.flushHeaders();
    return out;
  }) as typeof res.writeHead;
}
