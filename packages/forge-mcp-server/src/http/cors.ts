/** CORS for trusted origins: the preflight on the MCP path, and the headers of actual responses. */
import type { ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from './headers.js';

export const ALLOW_METHODS = 'GET, POST, DELETE, OPTIONS';
export const EXPOSE_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate, Retry-After, ETag';
const BASE_ALLOW_HEADERS = [
  'Authorization',
  'Content-Type',
  'Accept',
  'If-None-Match',
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
  'Last-Event-ID',
  'Mcp-Method',
  'Mcp-Name',
  'Mcp-Param-Action',
];
export const PREFLIGHT_VARY = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';

/** PRIVATE-TOKEN in legacy mode; FORGE-URL only when several instances are published. */
export function allowHeaders(opts: { legacy: boolean; severalInstances: boolean }): string {
  return [
    ...BASE_ALLOW_HEADERS,
    ...(opts.legacy ? ['PRIVATE-TOKEN'] : []),
    ...(opts.severalInstances ? ['FORGE-URL'] : []),
  ].join(', ');
}

/** Answers OPTIONS on the MCP path: 204, with CORS headers only for a trusted origin. */
export function answerPreflight(res: ServerResponse, origin: string | undefined, allowed: string): void {
  const headers: Record<string, string> = { ...SECURITY_HEADERS, allow: ALLOW_METHODS };
  if (origin) {
    Object.assign(headers, {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': ALLOW_METHODS,
      'access-control-allow-headers': allowed,
      'access-control-expose-headers': EXPOSE_HEADERS,
      'access-control-max-age': '86400',
      vary: PREFLIGHT_VARY,
    });
  }
  res.writeHead(204, headers);
  res.end();
}

/** Marks an actual response readable by a trusted origin. */
export function applyCorsHeaders(res: ServerResponse, origin: string | undefined): void {
  res.setHeader('vary', 'Origin');
  if (!origin) return;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('access-control-expose-headers', EXPOSE_HEADERS);
}
