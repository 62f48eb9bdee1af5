/**
 * The outbound connection guard (spec: Outbound connection guard). It runs in the dialer, after DNS
 * resolution, on every resolved address of every connection: the first request and each redirect hop.
 *
 * - Tier A, the cloud metadata addresses, is refused for every connection; nothing opts out.
 * - Tier B, loopback, private, CGNAT, link-local, unique-local and unspecified addresses, is refused for
 *   destinations the operator did not choose, unless allow-private-instances is set. Which connections
 *   those are is the client's decision (one dispatcher per posture); the dialer only applies it.
 *
 * IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) are judged as the IPv4 address they carry.
 *
 * Proxied connections (HTTP(S)_PROXY) are dialed by the proxy: the guard then judges only targets
 * written as an IP address (see `literalRefusal`), and a name is judged by the proxy.
 */
import { BlockList, isIPv4 } from 'node:net';
import { ipFamily } from '../ip.js';
import { buildConnector } from 'undici';
import { causeOf, InstanceError } from './errors.js';

export type AddressKind =
  'metadata' | 'loopback' | 'private' | 'CGNAT' | 'link-local' | 'unique-local' | 'unspecified';

/** Tier A: cloud metadata endpoints (AWS/GCP/Azure, ECS task metadata, AWS IPv6, Alibaba). */
export const METADATA_ADDRESSES = ['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200'];

/** Tier B ranges, most specific first where they overlap. */
const TIER_B: Array<[AddressKind, string, number, 'ipv4' | 'ipv6']> = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['CGNAT', '100.64.0.0', 10, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['unique-local', 'fc00::', 7, 'ipv6'],
];

// An IPv4 address is judged by arithmetic on its 32 bits. node:net's BlockList, which Node compiles from
// source at every start under the bin's V8 flags (a few ms), is built for the first IPv6 address, where it
// also matches IPv4-mapped addresses against the IPv4 rules.

/** An IPv4 address in the form isIPv4 accepts (four decimal octets) as an unsigned 32-bit number. */
function ipv4Number(ip: string): number {
  let n = 0;
  for (const octet of ip.split('.')) n = n * 256 + Number(octet);
  return n;
}
const TIER_A_V4 = new Set(METADATA_ADDRESSES.filter((a) => isIPv4(a)).map(ipv4Number));
const TIER_B_V4 = TIER_B.filter((r) => r[3] === 'ipv4').map(([kind, net, prefix]) => ({
  kind,
  // The subnet's first address and the size of the block it heads.
  base: ipv4Number(net),
  size: 2 ** (32 - prefix),
}));

let blockLists: { tierA: BlockList; tierB: Array<{ kind: AddressKind; list: BlockList }> } | undefined;
function ipv6Lists(): NonNullable<typeof blockLists> {
  if (blockLists) return blockLists;
  const tierA = new BlockList();
  for (const a of METADATA_ADDRESSES) tierA.addAddress(a, ipFamily(a) === 6 ? 'ipv6' : 'ipv4');
  const tierB = TIER_B.map(([kind, net, prefix, family]) => {
    const list = new BlockList();
    list.addSubnet(net, prefix, family);
    return { kind, list };
  });
  return (blockLists = { tierA, tierB });
}

export interface Classification {
  tier: 'A' | 'B';
  kind: AddressKind;
}

/**
 * Addresses judged so far and their classification (null: an ordinary address): a server calls the same
 * few addresses over and over, and an instance written as an address is judged on every request.
 */
const classified = new Map<string, Classification | null>();
const CLASSIFIED_MAX = 256;

/** Which tier an IP address falls in, or undefined for an ordinary public address (or not an IP). */
export function classifyAddress(address: string): Classification | undefined {
  let c = classified.get(address);
  if (c === undefined) {
    c = classify(address) ?? null;
    if (classified.size >= CLASSIFIED_MAX) classified.clear();
    classified.set(address, c);
  }
  return c ?? undefined;
}

function classify(address: string): Classification | undefined {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const v = ipFamily(ip);
  if (!v) return undefined;
  if (v === 4) {
    const n = ipv4Number(ip);
    if (TIER_A_V4.has(n)) return { tier: 'A', kind: 'metadata' };
    for (const { kind, base, size } of TIER_B_V4)
      if (n >= base && n < base + size) return { tier: 'B', kind };
    return undefined;
  }
  // BlockList matches IPv4-mapped IPv6 addresses against IPv4 rules.
  const { tierA, tierB } = ipv6Lists();
  if (tierA.check(ip, 'ipv6')) return { tier: 'A', kind: 'metadata' };
  for (const { kind, list } of tierB) if (list.check(ip, 'ipv6')) return { tier: 'B', kind };
  return undefined;
}

/** A destination the guard refused; the dialer's error, read by the client into an InstanceError. */
export class DestinationRefused extends Error {
  readonly code = 'ERR_FORGE_DESTINATION_REFUSED';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly classification: Classification,
  ) {
    super(`destination refused: ${host}`);
    this.name = 'DestinationRefused';
  }
}

/**
 * Judges a host's resolved addresses: the allowed ones in order, or the refusal when none is. A
 * refusal names a Tier B address when there is one (the flag would help), the metadata address otherwise.
 */
export function judge(host: string, addresses: string[], tierB: boolean): string[] | DestinationRefused {
  const allowed: string[] = [];
  let metadata: DestinationRefused | undefined;
  let private_: DestinationRefused | undefined;
  for (const address of addresses) {
    const c = classifyAddress(address);
    if (!c || (c.tier === 'B' && !tierB)) allowed.push(address);
    else if (c.tier === 'A') metadata ??= new DestinationRefused(host, address, c);
    else private_ ??= new DestinationRefused(host, address, c);
  }
  if (allowed.length) return allowed;
  return private_ ?? metadata ?? new DestinationRefused(host, host, { tier: 'B', kind: 'unspecified' });
}

/** A target written as an IP address, judged without DNS (also for proxied connections). */
export function literalRefusal(hostname: string, tierB: boolean): DestinationRefused | undefined {
  const ip = hostname.replace(/^\[|\]$/g, '');
  if (!ipFamily(ip)) return undefined;
  const verdict = judge(ip, [ip], tierB);
  return verdict instanceof DestinationRefused ? verdict : undefined;
}

export type Resolver = (host: string) => Promise<string[]>;

// node:dns/promises loads with the first name to resolve: an instance written as an address needs none.
const systemResolver: Resolver = async (host) =>
  (await process.getBuiltinModule('node:dns/promises').lookup(host, { all: true, verbatim: true })).map(
    (a) => a.address,
  );

const RETRYABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EAFNOSUPPORT']);

/**
 * An undici connector that resolves the host itself, judges every address, and connects only to an
 * allowed one (the next allowed address is tried when one refuses the connection). The TLS name stays
 * the host's, so certificates are still checked against it.
 */
export function guardedConnector(
  tierB: boolean,
  options: buildConnector.BuildOptions,
  resolve: Resolver = systemResolver,
): buildConnector.connector {
  const inner = buildConnector(options);
  return (opts, callback) => {
    const host = opts.hostname.replace(/^\[|\]$/g, '');
    const addresses = ipFamily(host) ? Promise.resolve([host]) : resolve(host);
    addresses.then(
      (all) => {
        const verdict = judge(host, all, tierB);
        if (verdict instanceof DestinationRefused) return callback(verdict, null);
        const attempt = (i: number): void => {
          inner({ ...opts, hostname: verdict[i] }, (err, socket) => {
            const code = (err as { code?: string } | null)?.code;
            if (err && i + 1 < verdict.length && code && RETRYABLE.has(code)) return attempt(i + 1);
            if (err) return callback(err, null);
            callback(null, socket!);
          });
        };
        attempt(0);
      },
      (err: Error) => callback(err, null),
    );
  };
}

/** Walks an error's cause chain for the guard's refusal. */
export function refusalIn(err: unknown): DestinationRefused | undefined {
  return causeOf(err, (e): e is DestinationRefused => e instanceof DestinationRefused);
}

const KIND_TEXT: Record<AddressKind, string> = {
  metadata: 'a cloud metadata address',
  loopback: 'a loopback address',
  private: 'a private address',
  CGNAT: 'a carrier-grade NAT (100.64.0.0/10) address',
  'link-local': 'a link-local address',
  'unique-local': 'a unique-local address',
  unspecified: 'an unspecified address',
};

/**
 * The spec's refusal: metadata addresses name no flag; Tier B names --allow-private-instances. One
 * hint either way; the cause is the refused request without its query.
 */
export function refusalError(
  r: DestinationRefused,
  method: string,
  url: { origin: string; pathname: string },
): InstanceError {
  const what = r.address === r.host ? `${r.host} is` : `${r.host} resolves to ${r.address},`;
  const classification = `destination refused: ${what} ${KIND_TEXT[r.classification.kind]}`;
  const hint =
    r.classification.tier === 'A'
      ? 'metadata addresses are never contacted; check the instance URL and where the instance redirects'
      : 'if this destination is meant to be reached, set --allow-private-instances (FORGE_MCP_ALLOW_PRIVATE_INSTANCES=true)';
  return new InstanceError('destination_refused', classification, {
    hint,
    cause: `${method} ${url.origin}${url.pathname}`,
  });
}
