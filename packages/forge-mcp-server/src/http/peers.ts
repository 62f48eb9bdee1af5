/** Who is on the other end of a connection: loopback arrival and the --trusted-proxies list. */
import { BlockList } from 'node:net';
import { ipFamily } from '../ip.js';

/** Unwraps an IPv4-mapped IPv6 address (::ffff:127.0.0.1). */
export function plainAddress(addr: string | undefined): string {
  if (!addr) return '';
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(addr);
  return m ? m[1] : addr;
}

export function isLoopbackAddress(addr: string | undefined): boolean {
  const a = plainAddress(addr);
  return a === '::1' || (ipFamily(a) === 4 && a.startsWith('127.'));
}

/** Matches a peer address against IP addresses and CIDR ranges. */
export function addressMatcher(entries: string[]): (addr: string | undefined) => boolean {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of entries) {
    const [net, prefix] = entry.split('/');
    const type = ipFamily(net) === 6 ? 'ipv6' : 'ipv4';
    if (!ipFamily(net)) continue;
    if (prefix === undefined) list.addAddress(net, type);
    else list.addSubnet(net, Number(prefix), type);
  }
  return (addr) => {
    const a = plainAddress(addr);
    if (!ipFamily(a)) return false;
    return list.check(a, ipFamily(a) === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * The address an authentication budget charges. The peer, unless it is a listed proxy and the trusted
 * header is set: then the header's hops are read from the right, listed proxies skipped, and the first
 * unlisted hop is charged (the leftmost when every hop is listed); a hop that is not an address means
 * the header cannot be believed and the peer is charged.
 */
export function clientAddress(
  req: { socket: { remoteAddress?: string }; headers: Record<string, string | string[] | undefined> },
  header: string | undefined,
  trusted: (addr: string | undefined) => boolean,
): string {
  const peer = plainAddress(req.socket.remoteAddress) || 'local';
  if (!header || !trusted(peer)) return peer;
  const raw = req.headers[header.toLowerCase()];
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (!value || !value.trim()) return peer;
  const hops = value.split(',').map((h) => plainAddress(hopAddress(h.trim())));
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i];
    if (!ipFamily(hop)) return peer;
    if (!trusted(hop) || i === 0) return hop;
  }
  return peer;
}

/** A hop as a bare address: brackets and a port are taken off ([::1]:443, 10.0.0.1:8080). */
function hopAddress(hop: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed) return bracketed[1];
  const v4port = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(hop);
  return v4port ? v4port[1] : hop;
}
