/**
 * Stateful sessions over loopback HTTP (--stateless=false), with the v2 client's Streamable HTTP transport in
 * the 2025 era against forge-sim: a whole session, its owner, its end, the session slots, the idle timeout, and
 * bad session input answered before anything reaches the instance.
 */
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCalls,
  eventsOf,
  executeCall,
  httpServer,
  logRecords,
  logged,
  resumeStream,
  sim,
  textOf,
  until,
  type ForgeSim,
  type HttpServerProcess,
} from './harness.js';

let s: ForgeSim;
let server: HttpServerProcess | undefined;
beforeAll(async () => {
  s = await sim();
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
});
afterAll(async () => {
  await s.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function connect(url: string, token: string) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: bearer(token) },
  });
  const client = new Client({ name: 'sessions', version: '1' });
  await client.connect(transport);
  return { client, transport };
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** A raw request to the MCP path. */
function raw(url: string, method: string, headers: Record<string, string>, body?: unknown) {
  return fetch(url, {
    method,
    headers: {
      accept: 'application/json, text/event-stream',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A 2025-11-25 session opened by raw requests (initialize, then initialized): its id and the headers its requests carry. */
async function rawSession(url: string, token: string) {
  const version = '2025-11-25';
  const opened = await raw(url, 'POST', bearer(token), {
    ...INITIALIZE,
    params: { ...INITIALIZE.params, protocolVersion: version },
  });
  const id = opened.headers.get('mcp-session-id')!;
  await opened.body?.cancel();
  const headers = { ...bearer(token), 'mcp-session-id': id, 'mcp-protocol-version': version };
  await (
    await raw(url, 'POST', headers, { jsonrpc: '2.0', method: 'notifications/initialized' })
  ).body?.cancel();
  return { id, headers };
}

/** The next piece of an event stream; a stream that ends first fails the test, naming what was awaited. */
async function chunk(reader: ReadableStreamDefaultReader<Uint8Array>, awaited: string) {
  const { value, done } = await reader.read();
  if (done) throw new Error(`the event stream ended before ${awaited}`);
  return new TextDecoder().decode(value);
}

async function errorOf(res: Response) {
  return ((await res.json()) as { error: { code: number; message: string } }).error;
}

describe('stateful sessions', () => {
  it('serve a whole session: initialize issues an id, calls carry it, its GET stream carries a server notification, DELETE ends it', async () => {
    server = await httpServer(s, ['--stateless=false'], { FORGE_MCP_SUBSCRIPTION_POLL_INTERVAL: '1s' });
    const { client, transport } = await connect(server.url, s.tokens.api);
    const id = transport.sessionId;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['forge_find_action', 'forge_execute_action']);
    const r = await client.callTool({
      name: 'forge_execute_action',
      arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
    });
    expect((r.structuredContent as { iid: number }).iid).toBe(1);

    // A session's own event stream (the client above holds its own; one per session), read raw: the session
    // follows an issue, the issue changes at the instance, and the server's notification arrives on it.
    const opened = await raw(server.url, 'POST', bearer(s.tokens.api), INITIALIZE);
    const other = opened.headers.get('mcp-session-id')!;
    await opened.body?.cancel();
    const inSession = {
      ...bearer(s.tokens.api),
      'mcp-session-id': other,
      'mcp-protocol-version': '2025-06-18',
    };
    await (
      await raw(server.url, 'POST', inSession, { jsonrpc: '2.0', method: 'notifications/initialized' })
    ).body?.cancel();
    const uri = 'forge://project/1/issue/1';
    const subscribed = await raw(server.url, 'POST', inSession, {
      jsonrpc: '2.0',
      id: 5,
      method: 'resources/subscribe',
      params: { uri },
    });
    expect(await subscribed.text()).toContain('"result":{}');
    const stream = await raw(server.url, 'GET', { ...inSession, accept: 'text/event-stream' });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const changed = await fetch(`${s.url}/api/v4/projects/1/issues/1`, {
      method: 'PUT',
      headers: { 'private-token': s.tokens.api, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Changed while the session listens' }),
    });
    expect(changed.status).toBe(200);
    const reader = stream.body!.getReader();
    let events = '';
    while (!events.includes('notifications/resources/updated'))
      events += await chunk(reader, 'notifications/resources/updated');
    const note = events
      .split('\n')
      .filter((l) => l.startsWith('data: ') && l.includes('notifications/resources/updated'))
      .map((l) => JSON.parse(l.slice(6)) as { method: string; params: { uri: string } });
    expect(note[0]).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
    await reader.cancel();

    await transport.terminateSession();
    const after = await raw(
      server.url,
      'POST',
      { ...bearer(s.tokens.api), 'mcp-session-id': id!, 'mcp-protocol-version': '2025-06-18' },
      { jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} },
    );
    expect(after.status).toBe(404);
    expect(await errorOf(after)).toEqual({
      code: -32001,
      message: 'session not found: it ended or never existed here; initialize a new session',
    });
    await client.close();
  });

  it('answer the call that finds the token revoked at the instance before ending: the client gets the tool error rather than waiting out its timeout', async () => {
    server = await httpServer(s, ['--stateless=false'], { FORGE_MCP_LOG_LEVEL: 'debug' });
    const token = s.addToken({ kind: 'personal', scopes: ['api'] });
    const { client, transport } = await connect(server.url, token);
    const sessionId = transport.sessionId!;
    const call = () =>
      client.callTool(
        {
          name: 'forge_execute_action',
          arguments: { action: 'issue.get', params: { project_id: 1, issue_iid: 1 } },
        },
        // Far below the client's default (60 s), far above any answer on a loaded machine.
        { timeout: 20_000 },
      );
    expect((await call()).isError).toBeFalsy();
    const revoked = await fetch(`${s.url}/api/v4/personal_access_tokens/self`, {
      method: 'DELETE',
      headers: { 'private-token': token },
    });
    expect(revoked.status).toBe(204);

    const refused = await call();
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('authentication failed: the instance rejected the token itself');
    // The session still ends with its credential's pool entry, once that answer is out.
    await until(
      () => server!.stderr().includes(`"session":"${sessionId}","why":"evicted"`),
      'the session to end with its evicted credential',
    );
    expect(server.stderr()).toContain('"reason":"rejected_credential"');
    await client.close().catch(() => undefined);
  });

  it('whose credential is refused while another of its calls is still being answered end only once that call is answered', async () => {
    server = await httpServer(s, ['--stateless=false'], { FORGE_MCP_LOG_LEVEL: 'debug' });
    const token = s.addToken({ kind: 'personal', scopes: ['api'] });
    const { client, transport } = await connect(server.url, token);
    const sessionId = transport.sessionId!;
    const get = (iid: number) =>
      client.callTool(
        {
          name: 'forge_execute_action',
          arguments: { action: 'issue.get', params: { project_id: 1, issue_iid: iid } },
        },
        { timeout: 20_000 },
      );
    // The first call's answer is held at the instance until the test lets it go.
    let open!: () => void;
    s.fault({ path: '/api/v4/projects/1/issues/1', until: new Promise<void>((r) => (open = r)), times: 1 });
    const since = s.requests.length;
    const held = get(1);
    await until(
      () => s.requests.slice(since).some((q) => q.path === '/api/v4/projects/1/issues/1'),
      'the held call to reach the instance',
    );
    // The second call finds the token refused: the credential's pool entry ends.
    s.fault({
      path: '/api/v4/projects/1/issues/2',
      status: 401,
      body: { error: 'invalid_token', error_description: 'Token is revoked' },
      times: 1,
    });
    const refused = await get(2);
    expect(textOf(refused)).toContain('authentication failed: the instance rejected the token itself');
    await until(() => server!.stderr().includes('"reason":"rejected_credential"'), 'the pool entry to end');
    expect(server.stderr()).not.toContain(`"session":"${sessionId}","why":"evicted"`);
    open();
    const answered = await held;
    expect(answered.isError, textOf(answered)).toBeFalsy();
    await until(
      () => server!.stderr().includes(`"session":"${sessionId}","why":"evicted"`),
      'the session to end once the held call was answered',
    );
    await client.close().catch(() => undefined);
  });

  it('belong to the credential that opened them: another token presenting the id is answered 404, nothing sent', async () => {
    server = await httpServer(s, ['--stateless=false']);
    const { client, transport } = await connect(server.url, s.tokens.api);
    const since = s.requests.length;
    const stolen = await raw(
      server.url,
      'POST',
      {
        ...bearer(s.tokens.readApi),
        'mcp-session-id': transport.sessionId!,
        'mcp-protocol-version': '2025-06-18',
      },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name: 'forge_execute_action',
          arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
        },
      },
    );
    expect(stolen.status).toBe(404);
    expect(apiCalls(s, since).filter((q) => q.path.includes('/issues'))).toEqual([]);
    // The owner's session is undisturbed.
    expect((await client.listTools()).tools).toHaveLength(2);
    await client.close();
  });

  /** Opens `count` sessions, each answered with its id. */
  async function openSessions(url: string, count: number) {
    for (let i = 0; i < count; i++) {
      const res = await raw(url, 'POST', bearer(s.tokens.api), { ...INITIALIZE, id: i });
      expect(res.status).toBe(200);
      expect(res.headers.get('mcp-session-id')).toBeTruthy();
      await res.body?.cancel();
    }
  }

  it.each([
    [1024, 96],
    [512, 48],
  ])(
    'under a hard descriptor limit of %i, answer the initialize after %i held sessions 503 with Retry-After',
    async (nofile, max) => {
      server = await httpServer(s, ['--stateless=false'], {}, { nofile });
      await openSessions(server.url, max);
      const busy = await raw(server.url, 'POST', bearer(s.tokens.api), { ...INITIALIZE, id: max + 1 });
      expect(busy.status).toBe(503);
      expect(busy.headers.get('retry-after')).toBe('1');
      expect((await errorOf(busy)).message).toBe(
        `server is busy: all ${max} stateful session slots are held; retry shortly`,
      );
    },
  );

  it('hold more sessions under a higher hard descriptor limit (2048: the 97th is opened)', async () => {
    server = await httpServer(s, ['--stateless=false'], {}, { nofile: 2048 });
    await openSessions(server.url, 97);
  });

  it('end after FORGE_MCP_SESSION_TIMEOUT idle, answering the id 404 after; a session with an open stream is not idle, and a stateless 2026-07-28 client holds none to end', async () => {
    server = await httpServer(s, ['--stateless=false', '--session-timeout=1s']);
    // The v2 client keeps its session's event stream open.
    const { client } = await connect(server.url, s.tokens.api);
    const opened = await raw(server.url, 'POST', bearer(s.tokens.api), INITIALIZE);
    const idle = opened.headers.get('mcp-session-id')!;
    await opened.body?.cancel();
    // A 2026-07-28 client holds no session: the timeout does not apply to it.
    const modern = new Client(
      { name: 'modern', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await modern.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: bearer(s.tokens.readApi) },
      }),
    );
    await new Promise((r) => setTimeout(r, 2500));
    expect((await modern.listTools()).tools).toHaveLength(2);
    await modern.close();
    const res = await raw(
      server.url,
      'POST',
      { ...bearer(s.tokens.api), 'mcp-session-id': idle, 'mcp-protocol-version': '2025-06-18' },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} },
    );
    expect(res.status).toBe(404);
    expect((await client.listTools()).tools).toHaveLength(2);
    // A call answered while the stream stays open does not start the idle clock: past the timeout the session
    // still serves.
    await new Promise((r) => setTimeout(r, 2500));
    expect((await client.listTools()).tools).toHaveLength(2);
    await client.close();
  });

  it('never end for idleness with --session-timeout=0 (0 disables the timeout), rather than ending as soon as idle', async () => {
    server = await httpServer(s, ['--stateless=false', '--session-timeout=0']);
    // The start line says how the deployment is set up.
    const serving = logRecords(server.stderr()).find((l) => l.msg === 'serving over HTTP');
    expect(serving).toMatchObject({
      auth: 'legacy',
      sessions: 'stateful, never ending for idleness',
      rate_limit: '10/s, burst 40',
      pool: 100,
      guardrails: 'none',
      shared_state: 'this process',
    });
    // A raw client holds no event stream open: the session is idle from its initialize's answer on.
    const opened = await raw(server.url, 'POST', bearer(s.tokens.api), INITIALIZE);
    const id = opened.headers.get('mcp-session-id')!;
    await opened.body?.cancel();
    await new Promise((r) => setTimeout(r, 1500));
    const res = await raw(
      server.url,
      'POST',
      { ...bearer(s.tokens.api), 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} },
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('forge_execute_action');
  });

  it('refuse bad session input clearly, before anything reaches the instance and without disturbing a session', async () => {
    server = await httpServer(s, ['--stateless=false']);
    const { client } = await connect(server.url, s.tokens.api);
    const since = s.requests.length;
    const list = { jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} };
    // Malformed, oversized, and outside ASCII (Latin-1 bytes, as a header can carry them).
    for (const bad of ['not-a-session', 'a'.repeat(5000), '0000000\u00f3-0000-0000-0000-00000000000\u00fc']) {
      const res = await raw(server.url, 'POST', { ...bearer(s.tokens.api), 'mcp-session-id': bad }, list);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toMatch(/^invalid Mcp-Session-Id: send the id this server issued/);
    }
    // Well formed but never issued: 404, so the client starts over.
    const unknown = await raw(
      server.url,
      'POST',
      { ...bearer(s.tokens.api), 'mcp-session-id': '00000000-0000-4000-8000-000000000000' },
      list,
    );
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).message).toMatch(/^session not found: .*initialize a new session$/);
    const noCredential = await raw(server.url, 'DELETE', {
      'mcp-session-id': '00000000-0000-0000-0000-000000000000',
    });
    expect(noCredential.status).toBe(401);
    const noId = await raw(server.url, 'GET', { ...bearer(s.tokens.api), accept: 'text/event-stream' });
    expect(noId.status).toBe(400);
    expect((await errorOf(noId)).message).toMatch(/^Mcp-Session-Id header is required for GET/);
    const deleteNoId = await raw(server.url, 'DELETE', bearer(s.tokens.api));
    expect(deleteNoId.status).toBe(400);
    expect((await errorOf(deleteNoId)).message).toMatch(
      /^Mcp-Session-Id header is required for DELETE: initialize a session first and send the id it answered$/,
    );
    expect(apiCalls(s, since)).toEqual([]);
    expect((await client.listTools()).tools).toHaveLength(2);
    await client.close();
  });

  it('answer a GET without Accept: text/event-stream 406, sending nothing and leaving the session serving', async () => {
    server = await httpServer(s, ['--stateless=false']);
    const { client, transport } = await connect(server.url, s.tokens.api);
    const since = s.requests.length;
    const res = await raw(server.url, 'GET', {
      ...bearer(s.tokens.api),
      accept: 'application/json',
      'mcp-session-id': transport.sessionId!,
      'mcp-protocol-version': '2025-06-18',
    });
    expect(res.status).toBe(406);
    expect((await errorOf(res)).message).toMatch(/must accept text\/event-stream/);
    expect(apiCalls(s, since)).toEqual([]);
    expect((await client.listTools()).tools).toHaveLength(2);
    await client.close();
  });

  it('resume an interrupted event stream with Last-Event-ID: the answer sent while it was broken arrives, the call made once', async () => {
    server = await httpServer(s, ['--stateless=false']);
    const { headers } = await rawSession(server.url, s.tokens.api);

    // A slow instance: the call's answer comes after the client lost its stream.
    s.fault({ path: '/api/v4/projects/1/issues/1', delayMs: 1500, times: 1 });
    const since = s.requests.length;
    const abort = new AbortController();
    const call = await fetch(server.url, {
      method: 'POST',
      signal: abort.signal,
      headers: {
        ...headers,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'forge_execute_action',
          arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
        },
      }),
    });
    expect(call.headers.get('content-type')).toMatch(/^text\/event-stream/);
    // Read up to the priming event, which carries the id to resume from, then break the stream.
    const reader = call.body!.getReader();
    let seen = '';
    while (!/^id: (.+)$/m.test(seen)) seen += await chunk(reader, 'the priming event with its id');
    const lastEventId = /^id: (.+)$/m.exec(seen)![1]!.trim();
    abort.abort();
    await reader.cancel().catch(() => undefined);

    // Wait until the instance has answered the call, then resume.
    const t0 = Date.now();
    while (!apiCalls(s, since).some((q) => q.path === '/api/v4/projects/1/issues/1')) {
      if (Date.now() - t0 > 15_000) throw new Error('the call never reached the instance');
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 2500));
    const resumed = await fetch(server.url, {
      method: 'GET',
      headers: { ...headers, accept: 'text/event-stream', 'last-event-id': lastEventId },
    });
    expect(resumed.status).toBe(200);
    const r2 = resumed.body!.getReader();
    let replay = '';
    while (!replay.includes('"id":7')) replay += await chunk(r2, 'the replayed answer');
    await r2.cancel();
    const data = replay
      .split('\n')
      .filter((l) => l.startsWith('data: ') && l.includes('"id":7'))
      .map((l) => JSON.parse(l.slice(6)) as { result: { structuredContent: { iid: number } } });
    expect(data).toHaveLength(1);
    expect(data[0]!.result.structuredContent.iid).toBe(1);
    // The call ran once: resuming replays the answer, it does not repeat the call.
    expect(apiCalls(s, since).filter((q) => q.path === '/api/v4/projects/1/issues/1')).toHaveLength(1);
  });

  it('are not idle while a batch sent on a cut connection still has a call running: past FORGE_MCP_SESSION_TIMEOUT the stream resumes and the held answer arrives; idle after it, the session ends', async () => {
    server = await httpServer(s, ['--stateless=false', '--session-timeout=1s'], {
      FORGE_MCP_LOG_LEVEL: 'debug',
    });
    const { id, headers } = await rawSession(server.url, s.tokens.api);

    // The batch's second call is held at the instance until the test lets it go.
    let release!: () => void;
    const held = '/api/v4/projects/1/issues/2';
    s.fault({ path: held, until: new Promise<void>((r) => (release = r)), times: 1 });
    const since = s.requests.length;
    const get = (rpcId: string, iid: number) => ({
      jsonrpc: '2.0',
      id: rpcId,
      method: 'tools/call',
      params: {
        name: 'forge_execute_action',
        arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: iid } },
      },
    });
    const cut = new AbortController();
    try {
      const res = await fetch(server.url, {
        method: 'POST',
        signal: cut.signal,
        headers: {
          ...headers,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
        },
        body: JSON.stringify([get('first', 1), get('second', 2)]),
      });
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      // Read up to the first call's answer, then cut the connection while the second call is held.
      const reader = res.body!.getReader();
      let text = '';
      while (!eventsOf(text).some((e) => e.data?.id === 'first'))
        text += await chunk(reader, "the first call's answer");
      await until(
        () => apiCalls(s, since).some((q) => q.path === held),
        'the second call to reach the instance',
      );
      cut.abort();
      await reader.cancel().catch(() => undefined);
      const answered = eventsOf(text).find((e) => e.data?.id === 'first')!.id!;

      // Twice the idle timeout passes with the call still running: the session is not idle, it is not ended.
      await new Promise((r) => setTimeout(r, 2500));
      expect(server.stderr()).not.toContain(`"session":"${id}","why":"timeout"`);
      const resumed = await fetch(server.url, {
        method: 'GET',
        headers: { ...headers, accept: 'text/event-stream', 'last-event-id': answered },
        signal: AbortSignal.timeout(20_000),
      });
      expect(resumed.status).toBe(200);
      release();
      const events = eventsOf(await resumed.text()).filter((e) => e.data);
      expect(events.map((e) => e.data!.id)).toEqual(['second']);
      const second = events[0]!.data as { result: { isError?: boolean; structuredContent: { iid: number } } };
      expect(second.result.isError).toBeFalsy();
      expect(second.result.structuredContent.iid).toBe(2);
      // The held call ran once: resuming does not repeat it.
      expect(apiCalls(s, since).filter((q) => q.path === held)).toHaveLength(1);
    } finally {
      cut.abort();
      release();
    }
    // Answered and left alone, the session is idle now: the timeout ends it.
    await until(
      () => server!.stderr().includes(`"session":"${id}","why":"timeout"`),
      'the session to end for idleness once its calls were answered',
      10_000,
    );
  });

  it("end a stream resumed after its answer was written at once, with what followed the client's event: the exchange is over", async () => {
    server = await httpServer(s, ['--stateless=false']);
    const { headers } = await rawSession(server.url, s.tokens.api);
    const answered = await raw(
      server.url,
      'POST',
      { ...headers, 'content-type': 'application/json' },
      executeCall(7, 'issue.get', { project_id: '1', issue_iid: 1 }),
    );
    expect(answered.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const [priming, answer] = eventsOf(await answered.text());
    expect(answer!.data!.id).toBe(7);
    // After the priming event the answer is replayed; after the answer, nothing: either way the stream ends
    // (it stayed open until the client gave up on a server holding it to the action deadline, 65 min).
    for (const [after, missed] of [
      [priming!.id!, [7]],
      [answer!.id!, []],
    ] as const) {
      expect(await resumeStream(server.url, headers, after)).toEqual({ status: 200, ids: missed });
    }
  });

  it('refuse a Last-Event-ID the server never issues, or one its session does not hold, saying what an event ID looks like and what to do, the session serving on', async () => {
    server = await httpServer(s, ['--stateless=false']);
    const { headers } = await rawSession(server.url, s.tokens.api);
    const other = await rawSession(server.url, s.tokens.api);
    const answered = await raw(
      server.url,
      'POST',
      { ...other.headers, 'content-type': 'application/json' },
      executeCall(7, 'issue.get', { project_id: '1', issue_iid: 1 }),
    );
    const elsewhere = eventsOf(await answered.text()).find((e) => e.data?.id === 7)!.id!;
    const resume = (lastEventId: string) =>
      raw(server!.url, 'GET', { ...headers, accept: 'text/event-stream', 'last-event-id': lastEventId });
    const since = s.requests.length;
    for (const bad of [
      'not-an-event',
      '42',
      `${other.id}_`,
      `${other.id}_0`,
      `${other.id}_x1`,
      `${other.id.toUpperCase()}_1`,
      `${other.id}_1`.repeat(100),
    ]) {
      const res = await resume(bad);
      expect(res.status, bad).toBe(400);
      expect(await errorOf(res)).toEqual({
        code: -32600,
        message:
          'invalid Last-Event-ID: an event ID of this server is a UUID (or _GET_stream), "_" and the event\'s number, as the id: line of each event carries it; resume with the id of the last event received, or reconnect without Last-Event-ID',
      });
    }
    // Well formed, but of another session's log, or past this one's.
    for (const unknown of [elsewhere, '00000000-0000-4000-8000-000000000000_1', '_GET_stream_999999']) {
      const res = await resume(unknown);
      expect(res.status, unknown).toBe(400);
      expect(await errorOf(res)).toEqual({
        code: -32600,
        message: `Last-Event-ID names no event of this session's event log: it was issued to another session, or is no longer kept (a session keeps its newest 1000 events, 256 KiB at most); reconnect without Last-Event-ID (the answers sent after that event are lost: a request whose answer did not arrive may still have taken effect)`,
      });
    }
    expect(apiCalls(s, since)).toEqual([]);
    // The session serves on: a call is answered, and its stream resumes after its priming event.
    const call = await raw(
      server.url,
      'POST',
      { ...headers, 'content-type': 'application/json' },
      executeCall(8, 'issue.get', { project_id: '1', issue_iid: 1 }),
    );
    const [priming] = eventsOf(await call.text());
    const resumed = await resume(priming!.id!);
    expect(resumed.status).toBe(200);
    expect(eventsOf(await resumed.text()).map((e) => e.data?.id)).toEqual([8]);
    // Only a GET asking for an event stream resumes: a POST carrying the header is answered as any POST.
    const posted = await raw(
      server.url,
      'POST',
      { ...headers, 'content-type': 'application/json', 'last-event-id': 'not-an-event' },
      executeCall(9, 'issue.get', { project_id: '1', issue_iid: 1 }),
    );
    expect(posted.status).toBe(200);
    expect(eventsOf(await posted.text()).map((e) => e.data?.id)).toContain(9);
    // An empty Last-Event-ID is none: the GET opens the session's stream.
    const stop = new AbortController();
    const opened = await fetch(server.url, {
      method: 'GET',
      headers: { ...headers, accept: 'text/event-stream', 'last-event-id': '' },
      signal: stop.signal,
    });
    expect(opened.status).toBe(200);
    stop.abort();
    await opened.body?.cancel().catch(() => undefined);
  });

  it("let a client whose session GET stream was cut open it again at once, rather than refusing 409 until the old one's next keep-alive", async () => {
    server = await httpServer(s, ['--stateless=false']);
    const { headers } = await rawSession(server.url, s.tokens.api);
    const listen = (signal?: AbortSignal) =>
      fetch(server!.url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' }, signal });
    const cut = new AbortController();
    const first = await listen(cut.signal);
    expect(first.status).toBe(200);
    cut.abort();
    await first.body?.cancel().catch(() => undefined);
    // The server learns of the cut from the closed connection, not from a write: the next GET is served.
    await until(
      async () => {
        const again = await listen(AbortSignal.timeout(5_000));
        if (again.status === 200) {
          await again.body?.cancel().catch(() => undefined);
          return true;
        }
        expect(again.status).toBe(409);
        await again.body?.cancel();
        return false;
      },
      'a GET stream opened again after the cut to be served',
      5_000,
    );
  });

  it('are not opened without --stateless=false (the default): a 2025 initialize gets no session id, and --session-timeout ends nothing', async () => {
    server = await httpServer(s, ['--session-timeout=1s']);
    const opened = await raw(server.url, 'POST', bearer(s.tokens.api), INITIALIZE);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('mcp-session-id')).toBeNull();
    await opened.body?.cancel();
    const { client, transport } = await connect(server.url, s.tokens.api);
    expect(transport.sessionId).toBeUndefined();
    expect((await client.listTools()).tools).toHaveLength(2);
    // Past the session timeout the same client is served as before: there is no session for it to end.
    await new Promise((r) => setTimeout(r, 2000));
    expect((await client.listTools()).tools).toHaveLength(2);
    await client.close();
    // The operator is told the setting does nothing here.
    expect(logged(server.stderr(), 'warn')).toEqual([
      'ignoring --session-timeout="1s": sessions are stateless (the default), so none times out; --stateless=false keeps stateful sessions',
    ]);
  });

  it('leave 2026-07-28 requests stateless', async () => {
    server = await httpServer(s, ['--stateless=false']);
    const client = new Client(
      { name: 'modern', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: bearer(s.tokens.api) },
    });
    await client.connect(transport);
    expect(transport.sessionId).toBeUndefined();
    expect((await client.listTools()).tools).toHaveLength(2);
    await client.close();
  });
});
