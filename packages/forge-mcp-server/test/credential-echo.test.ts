/**
 * An instance (or a proxy in front of it) whose error answer quotes the request's credential back: a message
 * naming the token, a text body repeating the URL with ?private_token=, a page quoting the request's headers
 * (PRIVATE-TOKEN, Authorization, Cookie), GraphQL errors doing the same. Through the built server over stdio
 * and loopback HTTP against forge-sim, at DEBUG: the token reaches neither the MCP client's answer nor a log
 * line; the quoted value reads [redacted] and the rest of the instance's message stays.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  executeCall,
  httpServer,
  rpc,
  runCli,
  sim,
  testSecret,
  textOf,
  withStdio,
  type Connected,
  type ForgeSim,
} from './harness.js';

vi.setConfig({ testTimeout: 90_000 });

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => {
  await s.close();
});
beforeEach(() => s.clearFaults());

const ISSUE = '/api/v4/projects/1/issues/1';
const getIssue = (c: Connected) =>
  c.client.callTool({
    name: 'forge_execute_action',
    arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
  });
/** A cookie and an unrelated token the instance quotes besides the caller's own. */
const COOKIE = testSecret('sess-cookie-echo-5512');
const OTHER = testSecret('glpat-echoedother0000000');

describe('an instance error quoting the credential', () => {
  it('over stdio: no answer and no log line holds the token, wherever the instance quotes it; the rest of its message stays', async () => {
    const token = s.tokens.api;
    // Each answer, and the part of the instance's message that must still be shown.
    const answers: Array<[string, Parameters<ForgeSim['fault']>[0], string]> = [
      [
        'a JSON message naming the token',
        { path: ISSUE, status: 500, body: { message: `token ${token} failed` } },
        'internal server error (token [redacted] failed)',
      ],
      [
        'a text body with the URL and ?private_token=',
        {
          path: ISSUE,
          status: 400,
          body: `GET ${ISSUE}?private_token=${token}&page=2 refused`,
          headers: { 'content-type': 'text/plain' },
        },
        `bad request: check your input parameters (GET ${ISSUE}?private_token=[redacted]&page=2 refused)`,
      ],
      [
        'quoted request headers',
        {
          path: ISSUE,
          status: 502,
          body: {
            message: {
              headers: [`PRIVATE-TOKEN: ${token}`, `Authorization: Bearer ${token}`, `Cookie: ${COOKIE}`],
            },
          },
        },
        'headers PRIVATE-TOKEN: [redacted]; headers Authorization: Bearer [redacted]; headers Cookie: [redacted]',
      ],
      [
        'a 401 naming another token by its prefix',
        { path: ISSUE, status: 401, body: { message: `401 Unauthorized: ${OTHER} is revoked` } },
        '(401 Unauthorized: [redacted] is revoked)',
      ],
      [
        'a 403 error_description',
        {
          path: ISSUE,
          status: 403,
          body: { error: 'insufficient_scope', error_description: `the token ${token} lacks api` },
        },
        '(the token [redacted] lacks api)',
      ],
    ];
    const { stderr } = await withStdio(s, {}, async (c) => {
      for (const [what, fault, shown] of answers) {
        s.clearFaults();
        s.fault(fault);
        const r = await getIssue(c);
        expect(r.isError, what).toBe(true);
        const text = textOf(r);
        for (const secret of [token, encodeURIComponent(token), COOKIE, OTHER])
          expect(text, what).not.toContain(secret);
        expect(text, what).toContain(shown);
      }
      // GraphQL: a top-level error and a mutation's payload error, each quoting the token.
      const update = {
        name: 'forge_execute_action',
        arguments: {
          action: 'issue.work_item_update',
          params: { full_path: 'acme/widgets', work_item_iid: '3', title: 'T' },
        },
      };
      s.clearFaults();
      s.fault({
        path: '/api/graphql',
        status: 200,
        body: { data: null, errors: [{ message: `header PRIVATE-TOKEN ${token} refused` }] },
      });
      const top = textOf(await c.client.callTool(update));
      expect(top).not.toContain(token);
      expect(top).toContain('GraphQL errors: header PRIVATE-TOKEN [redacted] refused');
      s.clearFaults();
      s.fault({
        path: '/api/graphql',
        graphqlOperation: 'workItemUpdate',
        status: 200,
        body: { data: { workItemUpdate: { errors: [`Cookie: ${COOKIE}`, `by ${token}`] } } },
      });
      const payload = textOf(await c.client.callTool(update));
      for (const secret of [token, COOKIE]) expect(payload).not.toContain(secret);
      expect(payload).toBe('issue.work_item_update mutation errors: Cookie: [redacted]; by [redacted]');
    });
    for (const secret of [token, COOKIE, OTHER]) expect(stderr).not.toContain(secret);
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('a successful answer is not touched: a token the instance creates reaches the client whole', async () => {
    const created = 'glpat-created-for-the-caller-0001';
    s.fault({
      method: 'POST',
      path: '/api/v4/projects/1/access_tokens',
      status: 201,
      body: { id: 77, name: 'ci', scopes: ['read_api'], token: created },
      times: 1,
    });
    await withStdio(s, {}, async (c) => {
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: {
          action: 'access.token_project_create',
          params: { project_id: '1', name: 'ci', scopes: ['read_api'], expires_at: '2027-01-01' },
        },
      });
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(textOf(r)).toContain(`"token":"${created}"`);
      expect((r.structuredContent as { token: string }).token).toBe(created);
    });
  });

  it('over stdio at start: the identity check failing with a page that quotes the token logs it [redacted]', async () => {
    const token = s.tokens.api;
    s.fault({
      path: '/api/v4/user',
      status: 500,
      body: `upstream error; request had PRIVATE-TOKEN: ${token}`,
    });
    const r = await runCli([], { FORGE_URL: s.url, FORGE_TOKEN: token, FORGE_MCP_LOG_LEVEL: 'debug' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'startup identity check (GET /api/v4/user): internal server error (upstream error; request had PRIVATE-TOKEN: [redacted])',
    );
    expect(r.stderr).not.toContain(token);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it('over HTTP: the answer to a caller whose token the instance quotes back, at verification and on a call, holds no token, nor does the log', async () => {
    const server = await httpServer(s, [], { FORGE_MCP_LOG_LEVEL: 'debug' });
    try {
      const token = s.tokens.readApi;
      // The session's first read (who the token belongs to) fails with a page quoting the header.
      s.fault({ path: '/api/v4/user', status: 503, body: { message: `down; PRIVATE-TOKEN: ${token}` } });
      const refused = await rpc(server.url, { 'private-token': token }, executeCall(1, 'issue.list', {}));
      const refusedText = await refused.text();
      expect(refusedText).not.toContain(token);
      s.clearFaults();
      s.fault({ path: ISSUE, status: 500, body: `echo ?private_token=${token}` });
      const r = await rpc(
        server.url,
        { 'private-token': token },
        executeCall(2, 'issue.get', { project_id: '1', issue_iid: 1 }),
      );
      expect(r.status).toBe(200);
      const text = await r.text();
      expect(text).not.toContain(token);
      expect(text).toContain('internal server error (echo ?private_token=[redacted])');
    } finally {
      await server.stop();
    }
    expect(server.stderr()).not.toContain(s.tokens.readApi);
    expect(server.stderr()).not.toMatch(/^\s+at /m);
  });
});
