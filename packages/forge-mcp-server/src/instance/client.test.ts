/**
 * Failures without a status, classified in the spec's order (client canceled, deadline passed, destination
 * refused, connection refused, DNS failure, timeout, TLS handshake failure, other network error, anything
 * else). Each is provoked for real where it can be (a live simulated instance, a closed port, a name that
 * does not resolve, a certificate nobody trusts); an undici mock stands in only for the two failures a test
 * cannot make happen on demand (a network timeout after minutes, an error nothing recognises).
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { MockAgent } from 'undici';
import { startForgeSim, type ForgeSim } from 'forge-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstanceError } from './errors.js';
import { InstanceClient, type ClientOptions } from './client.js';

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

/** A client whose every request fails with `err` before any answer. */
function failingWith(err: Error) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent.get(s.url).intercept({ path: /.*/, method: /.*/ }).replyWithError(err).persist();
  return client({ dispatcher: agent });
}

describe('failures without a status, in order', () => {
  it('a call the client canceled reads "the request was canceled by the client"', async () => {
    s.fault({ path: '/api/v4/projects/1/issues', delayMs: 60_000, times: 1 });
    const ctrl = new AbortController();
    const since = s.requests.length;
    const call = client().rest('GET', '/projects/1/issues', { signal: ctrl.signal });
    // Cancel once the request is at the instance.
    while (!s.requests.slice(since).some((r) => r.path === '/api/v4/projects/1/issues'))
      await new Promise((r) => setImmediate(r));
    ctrl.abort();
    const f = await failure(call);
    s.clearFaults();
    expect(f).toEqual({
      kind: 'canceled',
      text: 'issue.list: request canceled: the request was canceled by the client',
    });
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
