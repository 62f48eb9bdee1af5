/**
 * Host guard: a Host that is not declared (loopback names, the bound host, the public URL host) is
 * refused 403 on every route — on a wildcard bind only when the request arrives over loopback, on a
 * specific bind always. Requests from --trusted-proxies may carry any host; no Host is served.
 * Hosts compare with ASCII lower-casing only.
 */
import type { IncomingMessage } from 'node:http';
import type { Logger } from '../log.js';
import { asciiLower, headerOf } from './headers.js';
import { ThrottledLog } from './limits.js';
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

/** How much of a refused Host value (or path) its log line keeps: header bytes arrive one per character. */
export const LOGGED_HOST_CHARS = 256;

/**
 * The WARN line of a refused Host, at most one per ten seconds like the other refusal lines (the count of
 * those held back rides on the next). It names the Host value (cut to 256 bytes; the logger escapes control
 * characters), the client address and the path without its query; never another header. The Host value
 * stays on stderr: the log export drops the `host` field.
 */
export function refusedHostLog(
  log: Logger,
  addressOf: (req: IncomingMessage) => string,
  /** What an operator does about it, after the message (the MCP listener's and the diagnostics' differ). */
  hint = '',
): (req: IncomingMessage) => void {
  const lines = new ThrottledLog(10_000);
  return (req) =>
    void lines.event((suppressed) => {
      const path = (req.url ?? '/').split('?')[0];
      log.warn(
        {
          host: (headerOf(req.headers.host) ?? '').slice(0, LOGGED_HOST_CHARS),
          address: addressOf(req),
          path: path.slice(0, LOGGED_HOST_CHARS),
          suppressed,
        },
        `request refused: this Host is not served here${hint}`,
      );
    });
}
