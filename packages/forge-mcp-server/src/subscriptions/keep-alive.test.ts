/**
 * Keep-alives on idle event streams every 25 s, with the interval timers faked: a subscriptions/listen stream
 * served by the SDK's listen router with the options the HTTP mode gives it, and a stateful session's GET
 * stream served by the session table. Nothing before 25 s; a `: keepalive` comment at 25 s and again at 50 s.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionTable } from '../http/sessions.js';
import { MemoryEventStore, MemorySessionStore } from '../state/index.js';
import { KEEP_ALIVE_MS, LISTEN_ROUTER_OPTIONS, OwnedBus } from './index.js';

const decoder = new TextDecoder();

function factory() {
  return new Server(
    { name: 'keep-alive', version: '1' },
    { capabilities: { resources: { subscribe: true } } },
  );
}

/** Whether the stream has something to read once pending work has run (without waiting for more). */
async function pending(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  buffered: { next?: Promise<string> },
) {
  buffered.next ??= reader.read().then(({ value, done }) => (done ? '<end>' : decoder.decode(value)));
  const marker = Symbol('nothing');
  for (let i = 0; i < 20; i++) await Promise.resolve();
  const got = await Promise.race([buffered.next, new Promise<symbol>((r) => setImmediate(() => r(marker)))]);
  if (got === marker) return undefined;
  buffered.next = undefined;
  return got as string;
}

let http: HttpServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await new Promise<void>((r) => (http ? http.close(() => r()) : r()));
  http?.closeAllConnections();
  http = undefined;
});

describe('keep-alives on idle event streams', () => {
  it('a subscriptions/listen stream gets one every 25 s', async () => {
    expect(KEEP_ALIVE_MS).toBe(25_000);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const handler = createMcpHandler(factory, { ...LISTEN_ROUTER_OPTIONS, bus: new OwnedBus() });
    const res = await handler.fetch(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'subscriptions/listen',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'subscriptions/listen',
          params: {
            notifications: { resourceSubscriptions: ['forge://tools'] },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      }),
    );
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const buffered: { next?: Promise<string> } = {};
    expect(await pending(reader, buffered)).toContain('notifications/subscriptions/acknowledged');
    vi.advanceTimersByTime(KEEP_ALIVE_MS - 1);
    expect(await pending(reader, buffered)).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(await pending(reader, buffered)).toBe(': keepalive\n\n');
    vi.advanceTimersByTime(KEEP_ALIVE_MS);
    expect(await pending(reader, buffered)).toBe(': keepalive\n\n');
    await reader.cancel();
    await handler.close();
  });

  it("a stateful session's GET stream gets one every 25 s", async () => {
    const table = new SessionTable({
      timeoutMs: 60_000,
      max: 96,
      store: new MemorySessionStore(),
      eventLog: () => new MemoryEventStore(),
    });
    http = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const parsed = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
        void table.serve(req, res, 'owner', parsed, factory);
      });
    });
    await new Promise<void>((r) => http!.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    const id = init.headers.get('mcp-session-id')!;
    await init.text();
    const session = { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' };
    await fetch(url, {
      method: 'POST',
      headers: session,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    }).then((r) => r.text());
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stream = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': id } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const buffered: { next?: Promise<string> } = {};
    // Whatever the stream opens with (a priming event), then silence until 25 s.
    while ((await pending(reader, buffered)) !== undefined);
    vi.advanceTimersByTime(KEEP_ALIVE_MS - 1);
    // Time for anything written to cross the loopback socket (timeouts are not faked).
    await new Promise((r) => setTimeout(r, 300));
    expect(await pending(reader, buffered)).toBeUndefined();
    vi.advanceTimersByTime(1);
    await vi.waitFor(async () => expect(await pending(reader, buffered)).toBe(': keepalive\n\n'));
    await reader.cancel();
    await table.closeAll();
  });
});
