import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstanceError } from './errors.js';
import {
  DestinationRefused,
  METADATA_ADDRESSES,
  classifyAddress,
  guardedConnector,
  judge,
  literalRefusal,
  refusalError,
  refusalIn,
} from './guard.js';

describe('classifyAddress', () => {
  it('Tier A: every metadata address, IPv4, IPv6 and IPv4-mapped', () => {
    for (const a of [
      ...METADATA_ADDRESSES,
      'FD00:EC2:0::254',
      '[fd00:ec2::254]',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '::ffff:169.254.170.2',
      '::ffff:100.100.100.200',
    ])
      expect(classifyAddress(a), a).toEqual({ tier: 'A', kind: 'metadata' });
  });

  const tierB: Array<[string, string]> = [
    ['0.0.0.0', 'unspecified'],
    ['0.255.255.255', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['192.168.255.255', 'private'],
    ['100.64.0.0', 'CGNAT'],
    ['100.127.255.255', 'CGNAT'],
    ['100.100.100.201', 'CGNAT'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.253', 'link-local'],
    ['169.254.255.255', 'link-local'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique-local'],
    ['fd00:ec2::253', 'unique-local'],
    // IPv4-mapped IPv6 is judged as the IPv4 address it carries.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:172.20.0.1', 'private'],
    ['::ffff:192.168.1.1', 'private'],
    ['::ffff:100.64.0.1', 'CGNAT'],
    ['::ffff:169.254.1.1', 'link-local'],
    ['::ffff:0.0.0.0', 'unspecified'],
  ];
  it.each(tierB)('Tier B: %s is %s', (address, kind) => {
    expect(classifyAddress(address)).toEqual({ tier: 'B', kind });
  });

  it('public addresses and range edges are neither tier', () => {
    for (const a of [
      '8.8.8.8',
      '1.1.1.1',
      '9.255.255.255',
      '11.0.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '192.167.255.255',
      '192.169.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '126.255.255.255',
      '128.0.0.0',
      '169.253.255.255',
      '169.255.0.0',
      '1.0.0.0',
      '2001:4860:4860::8888',
      '::2',
      'fec0::1',
      'fe7f::1',
      'fbff::1',
      'fe00::1',
      '::ffff:8.8.8.8',
      'gitlab.example.com',
      '',
    ])
      expect(classifyAddress(a), a).toBeUndefined();
  });
});

describe('judge', () => {
  it('keeps allowed addresses in order; Tier B allowed when not applied', () => {
    expect(judge('h', ['10.0.0.1', '8.8.8.8', '127.0.0.1'], true)).toEqual(['8.8.8.8']);
    expect(judge('h', ['10.0.0.1', '8.8.8.8', '127.0.0.1'], false)).toEqual([
      '10.0.0.1',
      '8.8.8.8',
      '127.0.0.1',
    ]);
  });

  it('metadata is refused whatever the posture', () => {
    const r = judge('meta.test', ['169.254.169.254'], false);
    expect(r).toBeInstanceOf(DestinationRefused);
    expect((r as DestinationRefused).classification.tier).toBe('A');
    expect(judge('meta.test', ['169.254.169.254', '127.0.0.1'], false)).toEqual(['127.0.0.1']);
  });

  it('a refusal names the private address when one is among them (the flag would help)', () => {
    const r = judge('mixed.test', ['169.254.169.254', '10.0.0.1'], true) as DestinationRefused;
    expect(r.address).toBe('10.0.0.1');
    expect(r.classification).toEqual({ tier: 'B', kind: 'private' });
  });

  it('literalRefusal judges only IP literals', () => {
    expect(literalRefusal('169.254.169.254', false)?.classification.tier).toBe('A');
    expect(literalRefusal('[fd00:ec2::254]', false)?.classification.tier).toBe('A');
    expect(literalRefusal('127.0.0.2', true)?.classification.kind).toBe('loopback');
    expect(literalRefusal('127.0.0.2', false)).toBeUndefined();
    expect(literalRefusal('localhost', true)).toBeUndefined();
  });
});

describe('refusal texts', () => {
  const url = new URL('http://meta.test/latest/meta-data?x=1');
  it('metadata: names no flag, one hint', () => {
    const e = refusalError(judge('meta.test', ['169.254.169.254'], false) as DestinationRefused, 'GET', url);
    expect(e).toBeInstanceOf(InstanceError);
    expect(e.kind).toBe('destination_refused');
    const text = e.render('project.get');
    expect(text).toBe(
      'project.get: destination refused: meta.test resolves to 169.254.169.254, a cloud metadata address. Suggestion: metadata addresses are never contacted; check the instance URL and where the instance redirects: GET http://meta.test/latest/meta-data',
    );
    expect(text).not.toMatch(/--allow|FORGE_MCP_/);
    expect(text.match(/Suggestion/g)).toHaveLength(1);
  });

  it('Tier B: names --allow-private-instances, one hint; a route hint does not replace it', () => {
    const e = refusalError(
      literalRefusal('127.0.0.2', true)!,
      'POST',
      new URL('http://127.0.0.2:9/api/v4/x'),
    );
    const text = e.withHint('some route hint').render('issue.create');
    expect(text).toBe(
      'issue.create: destination refused: 127.0.0.2 is a loopback address. Suggestion: if this destination is meant to be reached, set --allow-private-instances (FORGE_MCP_ALLOW_PRIVATE_INSTANCES=true): POST http://127.0.0.2:9/api/v4/x',
    );
    expect(text.match(/Suggestion/g)).toHaveLength(1);
  });

  it('refusalIn finds the refusal in a cause chain', () => {
    const r = literalRefusal('10.0.0.1', true)!;
    expect(refusalIn(new Error('outer', { cause: r }))).toBe(r);
    expect(refusalIn(new Error('plain'))).toBeUndefined();
  });
});

describe('guardedConnector', () => {
  let server: Server;
  let port: number;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    server = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });

  const dial = (
    tierB: boolean,
    hostname: string,
    addresses: string[],
  ): Promise<{ err: Error | null; remote?: string }> =>
    new Promise((resolve) => {
      const seen: string[] = [];
      const connect = guardedConnector(tierB, {}, async (h) => {
        seen.push(h);
        return addresses;
      });
      connect(
        { hostname, host: `${hostname}:${port}`, protocol: 'http:', port: String(port) },
        (err, socket) => {
          const remote = socket ? (socket as Socket).remoteAddress : undefined;
          socket?.destroy();
          resolve({ err, remote });
        },
      );
    });

  it('refuses a name resolving only to a metadata address, even with Tier B off', async () => {
    const { err } = await dial(false, 'meta.test', ['169.254.169.254']);
    expect(err).toBeInstanceOf(DestinationRefused);
    expect((err as DestinationRefused).classification.tier).toBe('A');
  });

  it('refuses a name resolving to loopback under Tier B, connects without it', async () => {
    const refused = await dial(true, 'internal.test', ['127.0.0.1']);
    expect(refused.err).toBeInstanceOf(DestinationRefused);
    const ok = await dial(false, 'internal.test', ['127.0.0.1']);
    expect(ok.err).toBeNull();
    expect(ok.remote).toBe('127.0.0.1');
  });

  it('skips refused addresses and falls through a refused connection to the next allowed address', async () => {
    const ok = await dial(false, 'multi.test', ['169.254.169.254', '127.0.0.3', '127.0.0.1']);
    expect(ok.err).toBeNull();
    expect(ok.remote).toBe('127.0.0.1');
  });

  it('judges an IP-literal host without resolving it', async () => {
    const { err } = await dial(false, '169.254.169.254', ['127.0.0.1']);
    expect(err).toBeInstanceOf(DestinationRefused);
    const ok = await dial(false, '127.0.0.1', ['169.254.169.254']);
    expect(ok.err).toBeNull();
  });

  it('passes a resolution failure through', async () => {
    const connect = guardedConnector(true, {}, async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nx.test'), { code: 'ENOTFOUND' });
    });
    const err = await new Promise<Error | null>((resolve) =>
      connect({ hostname: 'nx.test', host: 'nx.test', protocol: 'http:', port: '80' }, (e) => resolve(e)),
    );
    expect((err as { code?: string }).code).toBe('ENOTFOUND');
  });
});
