/**
 * Failures without a status, classified in the spec's order (client canceled, deadline passed, destination
 * refused, connection refused, DNS failure, timeout, TLS handshake failure, other network error, anything
 * else). Each is provoked for real where it can be (a live simulated instance, a closed port, a name that
 * does not resolve, a certificate nobody trusts); an undici mock stands in only for the two failures a test
 * cannot make happen on demand (a network timeout after minutes, an error nothing recognises).
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createSocket } from 'node:dgram';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Resolver } from 'node:dns/promises';
import { MockAgent, Pool } from 'undici';
import { startForgeSim, type ForgeSim } from 'forge-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstanceError } from './errors.js';
import { InstanceClient, type ClientOptions } from './client.js';
import type { InstanceCallEvent } from '../channels.js';
import { guardedConnector } from './guard.js';

let s: ForgeSim;
let tls: ForgeSim;
beforeAll(async () => {
  [s, tls] = await Promise.all([startForgeSim(), startForgeSim({ tls: 'self-signed' })]);
});
afterAll(async () => {
  await Promise.all([s.close(), tls.close()]);
});

const client = (opts: Partial<ClientOptions> = {}) =>
  new InstanceClient({
    baseUrl: s.url,
    token: s.tokens.api,
    tokenLabel: 'FORGE_TOKEN',
    timeoutMs: 0,
    ...opts,
  });

/** The failure a call ends in, rendered as the user reads it. */
async function failure(call: Promise<unknown>): Promise<{ kind: string; text: string }> {
  try {
    await call;
  } catch (err) {
    expect(err).toBeInstanceOf(InstanceError);
    const e = err as InstanceError;
    return { kind: e.kind, text: e.render('issue.list') };
  }
  throw new Error('the call succeeded');
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

/**
 * A name server on loopback that answers every question "no such name" (NXDOMAIN) `delayMs` after it is asked,
 * and a dispatcher whose connections look names up there (through the outbound guard, as the client's own do):
 * a DNS lookup that takes its time to fail, as one does when the resolver is slow or far away.
 */
async function slowNameServer(
  delayMs: number,
): Promise<{ dispatcher: Pool; questions: () => number; close: () => Promise<void> }> {
  const server = createSocket('udp4');
  const timers = new Set<NodeJS.Timeout>();
  let questions = 0;
  server.on('message', (query, from) => {
    questions++;
    // The header and the question, answered: the response flag, recursion desired and available, NXDOMAIN;
    // no answer, authority or additional records.
    let end = 12;
    while (query[end] !== 0) end += query[end]! + 1;
    const reply = Buffer.from(query.subarray(0, end + 5));
    reply.writeUInt16BE(0x8183, 2);
    reply.writeUInt16BE(1, 4);
    reply.fill(0, 6, 12);
    const t = setTimeout(() => {
      timers.delete(t);
      server.send(reply, from.port, from.address);
    }, delayMs);
    timers.add(t);
  });
  await new Promise<void>((r) => server.bind(0, '127.0.0.1', r));
  const resolver = new Resolver({ timeout: 5_000, tries: 1 });
  resolver.setServers([`127.0.0.1:${server.address().port}`]);
  const dispatcher = new Pool('http://forge.invalid', {
    connect: guardedConnector(false, {}, (host) => resolver.resolve4(host)),
  });
  return {
    dispatcher,
    questions: () => questions,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      await dispatcher.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A client whose every request fails with `err` before any answer. */
function failingWith(err: Error) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent.get(s.url).intercept({ path: /.*/, method: /.*/ }).replyWithError(err).persist();
  return client({ dispatcher: agent });
}

describe('failures without a status, in order', () => {
  it('a call the client canceled reads "the request was canceled by the client"', async () => {
    // Canceled at once, once the request is at the instance, and after it ran a while there: each stops it.
    // Each on a path of its own, so a canceled request reaching the instance late meets no other's fault.
    const moments = ['at once', 'at the instance', 'after 50 ms'] as const;
    for (const [i, moment] of moments.entries()) {
      const path = `/projects/${91 + i}/issues`;
      s.fault({ path: `/api/v4${path}`, delayMs: 60_000 });
      const ctrl = new AbortController();
      const since = s.requests.length;
      const call = client().rest('GET', path, { signal: ctrl.signal });
      if (moment !== 'at once')
        while (!s.requests.slice(since).some((r) => r.path === `/api/v4${path}`))
          await new Promise((r) => setImmediate(r));
      if (moment === 'after 50 ms') await new Promise((r) => setTimeout(r, 50));
      ctrl.abort();
      const f = await failure(call);
      s.clearFaults();
      expect(f).toEqual({
        kind: 'canceled',
        text: 'issue.list: request canceled: the request was canceled by the client',
      });
    }
  });

  it('canceled comes before deadline and before a refused destination', async () => {
    const ctrl = new AbortController();
    ctrl.abort();
    // Every later step would apply too: a metadata address, a deadline of 1 ms.
    const f = await failure(
      client({ baseUrl: 'http://169.254.169.254', timeoutMs: 1 }).rest('GET', '/projects', {
        signal: ctrl.signal,
      }),
    );
    expect(f.kind).toBe('canceled');
    expect(f.text).toBe('issue.list: request canceled: the request was canceled by the client');
  });

  describe('two causes at once: the earlier step of the order is reported', () => {
    /** The failure of a request the client cancels right after sending it, while the request fails on its own. */
    const canceledAtOnce = (c: InstanceClient) => {
      const ctrl = new AbortController();
      const call = c.rest('GET', '/projects', { signal: ctrl.signal });
      ctrl.abort();
      return failure(call);
    };

    it('a cancel that comes while the connection is refused reads as canceled', async () => {
      // The refusal of a loopback port comes back before the request reads its caller's cancel: both hold.
      const port = await closedPort();
      for (let i = 0; i < 5; i++)
        expect(await canceledAtOnce(client({ baseUrl: `http://127.0.0.1:${port}` }))).toEqual({
          kind: 'canceled',
          text: 'issue.list: request canceled: the request was canceled by the client',
        });
    });

    it("a cancel that meets a refused connection is canceled to observers too (a span's error.type, the reachability WARN)", async () => {
      // What observers are told of each hop: the span's error.type and the reachability WARN read its errorType.
      const seen: InstanceCallEvent[] = [];
      const watch = (e: unknown) => void seen.push(e as InstanceCallEvent);
      subscribe('forge-mcp:instance-call', watch);
      try {
        const port = await closedPort();
        for (let i = 0; i < 5; i++)
          expect((await canceledAtOnce(client({ baseUrl: `http://127.0.0.1:${port}` }))).kind).toBe(
            'canceled',
          );
        // Not canceled, the same refusal is told as such.
        const refused = await failure(
          client({ baseUrl: `http://127.0.0.1:${port}` }).rest('GET', '/projects'),
        );
        expect(refused.kind).toBe('connection_refused');
      } finally {
        unsubscribe('forge-mcp:instance-call', watch);
      }
      expect(seen.map((e) => e.errorType)).toEqual([...Array(5).fill('canceled'), 'ECONNREFUSED']);
    });

    it('a cancel that comes while the DNS lookup fails reads as canceled', async () => {
      const f = await canceledAtOnce(client({ baseUrl: 'http://no-such-host.invalid' }));
      expect(f.kind).toBe('canceled');
    });

    it('a cancel that comes while the guard refuses the destination reads as canceled', async () => {
      // localhost resolves to a loopback address, refused for a destination the operator did not choose.
      const port = await closedPort();
      const at = client({ baseUrl: `http://localhost:${port}`, operatorChosen: false });
      expect(await canceledAtOnce(at)).toEqual({
        kind: 'canceled',
        text: 'issue.list: request canceled: the request was canceled by the client',
      });
      // Not canceled, the same request is refused by the guard before any connection is tried.
      const refused = await failure(at.rest('GET', '/projects'));
      expect(refused.kind).toBe('destination_refused');
      expect(refused.text).toContain(
        'destination refused: localhost resolves to 127.0.0.1, a loopback address',
      );
    });

    it('a deadline that passes while the DNS lookup is under way reads as the deadline, at the deadline', async () => {
      // The name server answers "no such name" 400 ms after it is asked; the deadline is 100 ms.
      const dns = await slowNameServer(400);
      try {
        const at = client({ baseUrl: 'http://forge.invalid', timeoutMs: 100, dispatcher: dns.dispatcher });
        const started = Date.now();
        const f = await failure(at.rest('GET', '/projects'));
        const took = Date.now() - started;
        expect(f.kind).toBe('deadline');
        expect(f.text).toMatch(
          /^issue\.list: deadline exceeded: the request exceeded its deadline and was canceled/,
        );
        // Reported when the deadline passed, not when the lookup gave up.
        expect(took).toBeLessThan(350);
        // Without a deadline the same lookup fails as a DNS failure.
        const slow = await failure(
          client({ baseUrl: 'http://forge.invalid', dispatcher: dns.dispatcher }).rest('GET', '/projects'),
        );
        expect(slow.kind).toBe('dns');
        expect(slow.text).toMatch(/^issue\.list: DNS lookup failed: forge\.invalid did not resolve/);
      } finally {
        await dns.close();
      }
    });

    it('a cancel that comes while the DNS lookup is under way ends the request then', async () => {
      const dns = await slowNameServer(400);
      try {
        const ctrl = new AbortController();
        const started = Date.now();
        const call = client({ baseUrl: 'http://forge.invalid', dispatcher: dns.dispatcher }).rest(
          'GET',
          '/projects',
          {
            signal: ctrl.signal,
          },
        );
        setTimeout(() => ctrl.abort(), 50);
        const f = await failure(call);
        expect(f.kind).toBe('canceled');
        expect(Date.now() - started).toBeLessThan(350);
        // Canceled before it starts, it sends nothing and waits for no lookup.
        const asked = dns.questions();
        const before = Date.now();
        const none = await failure(
          client({ baseUrl: 'http://forge.invalid', dispatcher: dns.dispatcher }).rest('GET', '/projects', {
            signal: AbortSignal.abort(),
          }),
        );
        expect(none.kind).toBe('canceled');
        expect(Date.now() - before).toBeLessThan(150);
        expect(dns.questions()).toBe(asked);
      } finally {
        await dns.close();
      }
    });
  });

  it('a deadline that passed reads deadline exceeded, naming FORGE_MCP_ACTION_TIMEOUT', async () => {
    s.fault({ path: '/api/v4/projects/1/issues', delayMs: 60_000, times: 1 });
    const f = await failure(client({ timeoutMs: 50 }).rest('GET', '/projects/1/issues'));
    s.clearFaults();
    expect(f.kind).toBe('deadline');
    expect(f.text).toMatch(
      /^issue\.list: deadline exceeded: the request exceeded its deadline and was canceled\. Suggestion: narrow the request, or raise FORGE_MCP_ACTION_TIMEOUT/,
    );
  });

  it('a refused destination names what was refused, before connecting', async () => {
    const f = await failure(client({ baseUrl: 'http://169.254.169.254' }).rest('GET', '/projects'));
    expect(f.kind).toBe('destination_refused');
    expect(f.text).toContain('destination refused: 169.254.169.254 is a cloud metadata address');
  });

  it('a refused connection, a failed DNS lookup', async () => {
    const port = await closedPort();
    const refused = await failure(client({ baseUrl: `http://127.0.0.1:${port}` }).rest('GET', '/projects'));
    expect(refused.kind).toBe('connection_refused');
    expect(refused.text).toMatch(
      /^issue\.list: connection refused: nothing accepted the connection at 127\.0\.0\.1:\d+/,
    );
    const dns = await failure(client({ baseUrl: 'http://no-such-host.invalid' }).rest('GET', '/projects'));
    expect(dns.kind).toBe('dns');
    expect(dns.text).toMatch(/^issue\.list: DNS lookup failed: no-such-host\.invalid did not resolve/);
  });

  it('a network timeout is a timeout failure', async () => {
    const err = Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' });
    const f = await failure(failingWith(err).rest('GET', '/projects'));
    expect(f.kind).toBe('timeout');
    expect(f.text).toMatch(/^issue\.list: timeout: the instance at 127\.0\.0\.1:\d+ did not answer in time/);
  });

  it('a TLS handshake failure names the skip-TLS-verify setting', async () => {
    const f = await failure(client({ baseUrl: tls.url }).rest('GET', '/projects'));
    expect(f.kind).toBe('tls');
    expect(f.text).toMatch(/^issue\.list: TLS handshake failed with 127\.0\.0\.1:\d+ \([A-Z_]+\)/);
    expect(f.text).toContain('FORGE_MCP_SKIP_TLS_VERIFY=true');
  });

  it('another network error names the HTTP method; anything else is unexpected error', async () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const net = await failure(failingWith(reset).rest('POST', '/projects', { body: {} }));
    expect(net.kind).toBe('network');
    expect(net.text).toMatch(/^issue\.list: network error during POST to 127\.0\.0\.1:\d+ \(ECONNRESET\)/);
    const other = await failure(failingWith(new Error('something nobody named')).rest('GET', '/projects'));
    expect(other).toEqual({ kind: 'unexpected', text: 'issue.list: unexpected error' });
  });
});

describe('deadlines', () => {
  it('a request started after another finished gets its own full deadline', async () => {
    const c = client({ timeoutMs: 400 });
    // The first request's deadline is set and cleared first; the second's falls due 400 ms after it starts.
    await c.rest('GET', '/projects/1/issues');
    await new Promise((r) => setTimeout(r, 200));
    s.fault({ path: '/api/v4/projects/1/merge_requests', delayMs: 60_000, times: 1 });
    const started = Date.now();
    const f = await failure(c.rest('GET', '/projects/1/merge_requests'));
    s.clearFaults();
    expect(f.kind).toBe('deadline');
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('requests running together each end at their deadline', async () => {
    s.fault({ path: '/api/v4/projects/1/merge_requests', delayMs: 60_000, times: 3 });
    const c = client({ timeoutMs: 100 });
    const all = await Promise.all([1, 2, 3].map(() => failure(c.rest('GET', '/projects/1/merge_requests'))));
    s.clearFaults();
    expect(all.map((f) => f.kind)).toEqual(['deadline', 'deadline', 'deadline']);
  });
});

describe('the request line', () => {
  /** The request target of every request a loopback server answered, as it arrived. */
  async function targets(
    base: string,
    send: (c: InstanceClient) => Promise<unknown>,
  ): Promise<{ seen: string[]; origin: string }> {
    const seen: string[] = [];
    const server = createHttpServer((req, res) => {
      seen.push(req.url ?? '');
      res.setHeader('content-type', 'application/json');
      res.end('[]');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await send(client({ baseUrl: origin + base }));
    } finally {
      await new Promise((r) => server.close(r));
    }
    return { seen, origin };
  }

  /** What URL and URLSearchParams make of a path and query, the way the request is meant to be written. */
  function expected(origin: string, base: string, path: string, query: [string, string][] = []): string {
    const search = new URLSearchParams(query).toString();
    const prefix = path.startsWith('/oauth/') ? '' : 'api/v4';
    const url = new URL(prefix + path + (search ? `?${search}` : ''), `${origin}${base}/`);
    return url.pathname + url.search;
  }

  it('query values are form-encoded, arrays and objects as name[] and name[key]', async () => {
    const text = "a b!'()~*-._%&=+#?é\u{1F600}\uD800";
    const { seen, origin } = await targets('', (c) =>
      c.rest('GET', '/projects/1/issues', {
        query: { search: text, labels: ['x,y', 'z z'], not: { author_id: 2 }, skipped: undefined },
      }),
    );
    expect(seen).toEqual([
      expected(origin, '', '/projects/1/issues', [
        ['search', text],
        ['labels[]', 'x,y'],
        ['labels[]', 'z z'],
        ['not[author_id]', '2'],
      ]),
    ]);
    expect(seen[0]).toContain('search=a+b%21%27%28%29%7E*-._%25%26%3D%2B%23%3F%C3%A9%F0%9F%98%80%EF%BF%BD&');
  });

  it('paths are sent as a URL resolves them: spaces, a base path, /oauth', async () => {
    const paths = ['/projects/a b/issues', '/projects/1/.x/..y/...', '/oauth/token/info'];
    for (const base of ['', '/gitlab']) {
      const { seen, origin } = await targets(base, async (c) => {
        for (const p of paths) await c.rest('GET', p, { query: { page: 2 } });
      });
      expect(seen).toEqual(paths.map((p) => expected(origin, base, p, [['page', '2']])));
      expect(seen[0]).toBe(`${base}/api/v4/projects/a%20b/issues?page=2`);
    }
  });

  it('a path with a dot or empty segment is refused, never resolved to another endpoint', async () => {
    const paths = [
      '/projects/1/../2/issues',
      '/projects/1/%2E%2e/x',
      '/projects/./x',
      '/projects//x',
      '/projects/',
    ];
    const { seen } = await targets('', async (c) => {
      for (const p of paths)
        await expect(c.rest('GET', p)).rejects.toThrow(
          /^a value is refused: "\." or "\.\." or an empty part in the request path would make the URL call another endpoint/,
        );
    });
    expect(seen).toEqual([]);
  });
});
