/** Who is on the other end of a connection: loopback arrival and the --trusted-proxies list. */
import { BlockList, isIP } from 'node:net';

/** Unwraps an IPv4-mapped IPv6 address (::ffff:127.0.0.1). */
export function plainAddress(addr: string | undefined): string {
  if (!addr) return '';
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(addr);
  return m ? m[1] : addr;
}

export function isLoopbackAddress(addr: string | undefined): boolean {
  const a = plainAddress(addr);
  return a === '::1' || (isIP(a) === 4 && a.startsWith('127.'));
}

/** Matches a peer address against IP addresses and CIDR ranges. */
export function addressMatcher(entries: string[]): (addr: string | undefined) => boolean {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of entries) {
    const [net, prefix] = entry.split('/');
    const type = isIP(net) === 6 ? 'ipv6' : 'ipv4';
    if (!isIP(net)) continue;
    if (prefix === undefined) list.addAddress(net, type);
    else list.addSubnet(net, Number(prefix), type);
  }
  return (addr) => {
    const a = plainAddress(addr);
    if (!isIP(a)) return false;
    return list.check(a, isIP(a) === 6 ? 'ipv6' : 'ipv4');
  };
}
