/**
 * Slow clients over real loopback TCP: a request whose headers, or whose body, arrive a byte at a time is cut
 * off with 408 by the listener's own limits (headers within 10 s, the whole request within 30 s), and other
 * clients are served meanwhile.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { httpServer, rpc, type ForgeSim, type HttpServerProcess } from './harness.js';
import { simAndHttpServer } from './http-fixture.js';
import { connect as tcp } from 'node:net';

let s: ForgeSim;
let server: HttpServerProcess;
simAndHttpServer((up) => ({ s, server } = up));

/** Opens a connection, writes `head`, then one more byte of `drip` every 500 ms; resolves with what came back. */
function dribble(head: string, drip: string): Promise<{ answer: string; dripped: number }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    let dripped = 0;
    const timer = setInterval(() => {
      if (dripped < drip.length && socket.writable) socket.write(drip[dripped++]!);
    }, 500);
    socket.on('connect', () => socket.write(head));
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, dripped });
    });
  });
}

describe('slow clients', () => {
  it('cut off dribbled headers and a dribbled body with 408, serving others meanwhile', async () => {
    const headers = dribble(
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      'X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    );
    const body = dribble(
      [
        'POST /mcp HTTP/1.1',
        'Host: 127.0.0.1',
        'Content-Type: application/json',
        'Accept: application/json, text/event-stream',
        `Authorization: Bearer ${s.tokens.api}`,
        'Content-Length: 200',
        '',
        '',
      ].join('\r\n'),
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}'.padEnd(200, ' '),
    );
    // Another client is served while both dribble.
    const other = await rpc(
      server.url,
      { authorization: `Bearer ${s.tokens.api}` },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: {},
      },
    );
    expect(other.status).toBe(200);

    const h = await headers;
    expect(h.answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(h.answer).toContain('x-content-type-options: nosniff');
    // Cut off long before the drip ran out.
    expect(h.dripped).toBeLessThan(90);

    const b = await body;
    expect(b.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(b.dripped).toBeLessThan(200);
  }, 60_000);
});

/** One request on a kept-alive connection, then silence; resolves with how long the server kept it open. */
async function heldFor(url: string, waitMs: number): Promise<{ closedAfterMs: number | undefined }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = tcp(Number(port), hostname);
    let answered = 0;
    socket.on('connect', () =>
      socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n'),
    );
    socket.on('data', () => (answered ||= Date.now()));
    socket.on('error', reject);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ closedAfterMs: undefined });
    }, waitMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ closedAfterMs: answered ? Date.now() - answered : undefined });
    });
  });
}

describe('--http-idle-timeout', () => {
  it("closes a keep-alive connection idle that long, and 0 keeps it open past Node's own 5 s", async () => {
    const short = await httpServer(s, ['--http-idle-timeout=1s']);
    const none = await httpServer(s, ['--http-idle-timeout=0']);
    try {
      const [a, b] = await Promise.all([heldFor(short.url, 8000), heldFor(none.url, 7000)]);
      expect(a.closedAfterMs).toBeDefined();
      expect(a.closedAfterMs!).toBeLessThan(5000);
      expect(b.closedAfterMs).toBeUndefined();
    } finally {
      await short.stop();
      await none.stop();
    }
  }, 30_000);
});
