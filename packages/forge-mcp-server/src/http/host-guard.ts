/**
 * Host guard: a Host that is not declared (loopback names, the bound host, the public URL host) is
 * refused 403 on every route — on a wildcard bind only when the request arrives over loopback, on a
 * specific bind always. Requests from --trusted-proxies may carry any host; no Host is served.
 * Hosts compare with ASCII lower-casing only.
 */
import type { IncomingMessage } from 'node:http';
import { asciiLower, headerOf } from './headers.js';
import { addressMatcher, isLoopbackAddress } from './peers.js';

export type Bind = { kind: 'wildcard' } | { kind: 'specific'; host: string } | { kind: 'socket' };

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** The host name of a Host header value: port and IPv6 brackets removed, ASCII lower-cased. */
export function hostName(value: string): string {
  const v = asciiLower(value.trim());
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(v);
  if (bracketed) return bracketed[1];
  const i = v.lastIndexOf(':');
  // A bare IPv6 address (several colons) has no port to strip.
  return i >= 0 && v.indexOf(':') === i ? v.slice(0, i) : v;
}

export function bindOf(addr: { host?: string; path?: string }): Bind {
  if (addr.path) return { kind: 'socket' };
  const h = addr.host ? asciiLower(addr.host) : '';
  if (!h || h === '0.0.0.0' || h === '::' || h === '[::]') return { kind: 'wildcard' };
  return { kind: 'specific', host: hostName(h.includes(':') && !h.startsWith('[') ? `[${h}]` : h) };
}

export interface HostGuard {
  /** True when the request may be served. */
  allows(req: IncomingMessage): boolean;
}

export function hostGuard(opts: { bind: Bind; publicUrl?: string; trustedProxies: string[] }): HostGuard {
  const declared = new Set(LOOPBACK_NAMES);
  if (opts.bind.kind === 'specific') declared.add(opts.bind.host);
  if (opts.publicUrl) declared.add(hostName(new URL(opts.publicUrl).host));
  const fromProxy = addressMatcher(opts.trustedProxies);
  return {
    allows(req) {
      if (opts.bind.kind === 'socket') return true;
      const host = headerOf(req.headers.host);
      if (host === undefined) return true;
      if (declared.has(hostName(host))) return true;
      if (fromProxy(req.socket.remoteAddress)) return true;
      if (opts.bind.kind === 'wildcard') return !isLoopbackAddress(req.socket.localAddress);
      return false;
    },
  };
}
