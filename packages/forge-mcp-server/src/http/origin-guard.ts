/**
 * Cross-origin protection on the MCP path. Non-browser clients (no Origin, no Sec-Fetch-Site) pass;
 * Sec-Fetch-Site none or same-origin passes; same-site or cross-site passes only for a trusted origin.
 * An Origin without Sec-Fetch-Site passes when its host equals Host, else only when trusted. The public
 * URL origin is trusted automatically; `*` trusts every origin.
 */
import type { IncomingMessage } from 'node:http';
import { asciiLower, headerOf } from './headers.js';

/** A request Origin in the normalized form trusted origins are kept in; undefined when malformed. */
export function normalizeOrigin(raw: string | undefined): string | undefined {
  if (!raw || raw === 'null') return undefined;
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return u.origin;
  } catch {
    return undefined;
  }
}

export interface OriginPolicy {
  /** True when the request's Origin may read responses (CORS) and pass the guard. */
  trusted(req: IncomingMessage): string | undefined;
  /** True when the request passes cross-origin protection. */
  allows(req: IncomingMessage): boolean;
}

function sameHost(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  const u = new URL(origin);
  let h = asciiLower(host.trim());
  const defaultPort = u.protocol === 'https:' ? ':443' : ':80';
  if (h.endsWith(defaultPort)) h = h.slice(0, -defaultPort.length);
  return h === u.host;
}

export function originPolicy(opts: { trustedOrigins: string[]; publicUrl?: string }): OriginPolicy {
  const any = opts.trustedOrigins.includes('*');
  const trustedSet = new Set(opts.trustedOrigins);
  if (opts.publicUrl) trustedSet.add(new URL(opts.publicUrl).origin);
  const trusted = (req: IncomingMessage) => {
    const origin = normalizeOrigin(headerOf(req.headers.origin));
    if (!origin) return undefined;
    return any || trustedSet.has(origin) ? origin : undefined;
  };
  return {
    trusted,
    allows(req) {
      if (any) return true;
      const rawOrigin = headerOf(req.headers.origin);
      const site = headerOf(req.headers['sec-fetch-site']);
      if (site !== undefined) {
        const s = asciiLower(site.trim());
        if (s === 'none' || s === 'same-origin') return true;
        return trusted(req) !== undefined;
      }
      if (rawOrigin === undefined) return true;
      const origin = normalizeOrigin(rawOrigin);
      if (origin && sameHost(origin, headerOf(req.headers.host))) return true;
      return trusted(req) !== undefined;
    },
  };
}
