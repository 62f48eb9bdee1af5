/**
 * A token the identity check (GET /user) refuses 401 is verified no further, through real loopback HTTP
 * against the built server and forge-sim: its own description or introspection still held at the instance is
 * abandoned, and no request of its verification is sent after the refusal; a 403 on /user is no refusal. The
 * caller's answer is the refusal it always was. forge-sim holds a request with a gate (nothing depends on
 * timing) and records whether the server went away while it was held.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { httpServer, rpc, sim, type ForgeSim, type HttpServerProcess, until } from './harness.js';

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const SELF = '/api/v4/personal_access_tokens/self';
const INFO = '/oauth/token/info';
const USER = '/api/v4/user';
/** No authentication budget: the refusals these tests provoke never block their address. */
const NO_BUDGET = { FORGE_MCP_AUTH_FAILURE_WINDOW: '0' };

let s: ForgeSim;
/** OAuth mode: a bearer token is described, then introspected. */
let oauth: HttpServerProcess;
/** Legacy mode: a PRIVATE-TOKEN is described only. */
let legacy: HttpServerProcess;

beforeAll(async () => {
  s = await sim();
  [oauth, legacy] = await Promise.all([
    httpServer(s, ['--auth-mode=oauth', '--public-url=http://localhost:8126/mcp'], NO_BUDGET),
    httpServer(s, [], NO_BUDGET),
  ]);
});
afterEach(() => s.clearFaults());
afterAll(async () => {
  await Promise.all([oauth?.stop(), legacy?.stop()]);
  await s?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const privateToken = (token: string) => ({ 'private-token': token });

let made = 0;
/** A token the instance does not know: every verification request of it is refused 401. */
const unknownToken = () => `refused-${process.pid}-${++made}`;

/** Holds the answer to `path` for `token` at the instance until the returned function opens the gate. */
function hold(path: string, token: string): () => void {
  let open!: () => void;
  s.fault({ path, token, until: new Promise<void>((resolve) => (open = resolve)), times: 1 });
  return open;
}

/** What reached the instance presenting `token`. */
const sentWith = (token: string) => s.requests.filter((r) => r.token === token);
const held = (token: string, path: string) => sentWith(token).find((r) => r.path === path);

/** The answer as a client sees it: status, challenge, JSON-RPC body. */
async function answerOf(res: Response) {
  return { status: res.status, challenge: res.headers.get('www-authenticate'), body: await res.json() };
}

/**
 * The refusal of a token nothing held, sent after `token`'s: the reference answer, and a witness that the
 * server has since sent and been answered its own verification requests.
 */
async function refusalOfAnother(server: HttpServerProcess, header: (t: string) => Record<string, string>) {
  const other = unknownToken();
  const answer = await answerOf(await rpc(server.url, header(other), LIST));
  expect(answer.status).toBe(401);
  expect(sentWith(other).map((r) => r.path)).toContain(USER);
  return answer;
}

describe('a token the identity check refuses is verified no further', () => {
  for (const [mode, server, header] of [
    ['OAuth mode, a bearer token', () => oauth, bearer],
    ['legacy mode, a PRIVATE-TOKEN', () => legacy, privateToken],
  ] as const) {
    it(`${mode}: its own description, held at the instance, is abandoned once /user refuses it, and nothing follows`, async () => {
      const token = unknownToken();
      const open = hold(SELF, token);
      const answer = await answerOf(await rpc(server().url, header(token), LIST));
      expect(answer.status).toBe(401);
      // The server gives up the description it was still waiting for.
      await until(
        () => held(token, SELF)?.abandoned === true,
        'the held description to be abandoned',
        10_000,
      );
      open();
      // Another refusal, answered in full after this one was abandoned: the refused caller's answer is the
      // same as ever, and had the first verification gone on, its introspection would have arrived by now.
      expect(answer).toEqual(await refusalOfAnother(server(), header));
      expect(
        sentWith(token)
          .map((r) => r.path)
          .sort(),
      ).toEqual([SELF, USER]);
    });
  }

  it('OAuth mode: introspection under way when /user refuses the token is abandoned, and the refusal is the same', async () => {
    const token = unknownToken();
    // /user waits while the description is refused and introspection goes out; introspection waits too.
    const openUser = hold(USER, token);
    const openInfo = hold(INFO, token);
    const answered = rpc(oauth.url, bearer(token), LIST);
    await until(() => held(token, INFO) !== undefined, 'introspection to reach the instance', 10_000);
    openUser();
    const answer = await answerOf(await answered);
    await until(
      () => held(token, INFO)?.abandoned === true,
      'the held introspection to be abandoned',
      10_000,
    );
    openInfo();
    expect(answer).toEqual(await refusalOfAnother(oauth, bearer));
    expect(
      sentWith(token)
        .map((r) => r.path)
        .sort(),
    ).toEqual([USER, SELF, INFO].sort());
  });

  it('a 403 on /user is no refusal: the held description is answered and read, and introspection follows', async () => {
    const token = unknownToken();
    s.fault({ path: USER, token, status: 403, times: 1 });
    const open = hold(SELF, token);
    const answered = rpc(oauth.url, bearer(token), LIST);
    await until(() => held(token, SELF) !== undefined, 'the description to reach the instance', 10_000);
    open();
    const answer = await answerOf(await answered);
    // Described and introspected (both refuse the unknown token), it is below the minimum: 403 as before.
    expect(answer.status).toBe(403);
    expect(held(token, SELF)?.abandoned).toBeUndefined();
    expect(held(token, INFO)).toBeDefined();
  });
});
