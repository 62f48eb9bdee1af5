/**
 * A server asked to stop lets the calls it is serving finish, and answers a request that still arrives on an
 * open connection meanwhile with 503 'the server is shutting down' (nothing sent to the instance for it).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { httpServer, logRecords, sim, type ForgeSim } from './harness.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => s.close());

/** Whether a new connection to the listener is refused (it has stopped accepting). */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect(port, '127.0.0.1');
    c.once('connect', () => {
      c.destroy();
      resolve(false);
    });
    c.once('error', () => resolve(true));
  });
}

function post(path: string, token: string, body: unknown): string {
  const text = JSON.stringify(body);
  return (
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
    `Accept: application/json, text/event-stream\r\nPRIVATE-TOKEN: ${token}\r\n` +
    `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`
  );
}

function call(id: number, issue: number) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'forge_execute_action',
      arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: issue } },
    },
  };
}

/** A keep-alive connection: send a request, read its whole answer (Content-Length or chunked to its end). */
function connection(port: number) {
  const socket = connect(port, '127.0.0.1');
  let buffer = '';
  let waiting: (() => void) | undefined;
  socket.on('data', (d: Buffer) => {
    buffer += d.toString();
    waiting?.();
  });
  socket.on('close', () => waiting?.());
  return {
    socket,
    async exchange(request: string): Promise<string> {
      buffer = '';
      socket.write(request);
      for (;;) {
        const complete =
          /content-length: (\d+)\r\n[\s\S]*?\r\n\r\n/i.exec(buffer) ??
          (/\r\n0\r\n\r\n$/.test(buffer) ? ['', '0'] : null);
        if (complete && /\r\n\r\n/.test(buffer)) {
          const [head, ...rest] = buffer.split('\r\n\r\n');
          const length = /content-length: (\d+)/i.exec(head!);
          if (!length || Buffer.byteLength(rest.join('\r\n\r\n')) >= Number(length[1])) return buffer;
        }
        if (socket.destroyed) return buffer;
        await new Promise<void>((r) => (waiting = r));
      }
    },
  };
}

it('finishes the calls it is serving and answers 503 to a request arriving on an open connection while closing', async () => {
  let openFirst!: () => void;
  let openSecond!: () => void;
  s.fault({
    path: '/api/v4/projects/1/issues/1',
    until: new Promise<void>((r) => (openFirst = r)),
    times: 1,
  });
  s.fault({
    path: '/api/v4/projects/1/issues/2',
    until: new Promise<void>((r) => (openSecond = r)),
    times: 1,
  });
  const server = await httpServer(s);
  const url = new URL(server.url);
  const port = Number(url.port);
  const one = connection(port);
  const two = connection(port);
  const first = one.exchange(post(url.pathname, s.tokens.api, call(1, 1)));
  const second = two.exchange(post(url.pathname, s.tokens.api, call(2, 2)));
  const reached = (n: number) => s.requests.some((q) => q.path === `/api/v4/projects/1/issues/${n}`);
  await vi.waitFor(() => expect(reached(1) && reached(2)).toBe(true), { timeout: 60_000, interval: 50 });
  const stopped = server.stop();
  await vi.waitFor(async () => expect(await refused(port)).toBe(true), { timeout: 60_000, interval: 50 });
  // The first call finishes while the server closes, and its connection stays open for another request.
  openFirst();
  const firstAnswer = await first;
  expect(firstAnswer).toMatch(/^HTTP\/1\.1 200/);
  expect(firstAnswer).toContain('"id":1');
  const sent = s.requests.length;
  // Answered before the credential is looked at: a token the instance does not know gets the same 503, not a
  // 401, so nothing is charged to the address's authentication budgets.
  for (const token of [s.tokens.api, 'glpat-unknown-while-closing-0000']) {
    const late = await one.exchange(
      post(url.pathname, token, { jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    );
    expect(late).toMatch(/^HTTP\/1\.1 503/);
    expect(late).toContain('the server is shutting down');
    expect(late).toMatch(/retry-after: 5/i);
  }
  // Nothing reached the instance for them (not even an identity check).
  expect(s.requests.length).toBe(sent);
  openSecond();
  expect(await second).toMatch(/^HTTP\/1\.1 200/);
  await stopped;
  // The log tells the operator how many calls the close waited for, and that it ended.
  expect(closingLines(server.stderr())).toEqual([
    ['info', 'closing: no new connections; 2 call(s) being answered may finish within 10 s', 2],
    ['info', 'stopped', undefined],
  ]);
});

/** The lines the close wrote, as [level, msg, calls]. */
function closingLines(stderr: string) {
  return logRecords(stderr)
    .filter((l) => l.msg.startsWith('closing') || l.msg === 'stopped')
    .map((l) => [l.level, l.msg, l.calls]);
}

it('cuts off a call still running 10 s into the close, and says so at WARN before it stops', async () => {
  let release!: () => void;
  s.fault({
    path: '/api/v4/projects/1/issues/3',
    until: new Promise<void>((r) => (release = r)),
    times: 1,
  });
  const server = await httpServer(s);
  const url = new URL(server.url);
  const held = connection(Number(url.port)).exchange(post(url.pathname, s.tokens.api, call(1, 3)));
  await vi.waitFor(
    () => expect(s.requests.some((q) => q.path === '/api/v4/projects/1/issues/3')).toBe(true),
    { timeout: 60_000, interval: 50 },
  );
  await server.stop();
  release();
  // Its connection was cut: no answer came.
  expect(await held).not.toContain('"result"');
  expect(closingLines(server.stderr())).toEqual([
    ['info', 'closing: no new connections; 1 call(s) being answered may finish within 10 s', 1],
    ['warn', 'closing: 1 call(s) still running after 10 s were cut off', 1],
    ['info', 'stopped', undefined],
  ]);
});
