/**
 * An instance that stops answering while an HTTP server serves a team: the operator's log says so once, with
 * the instance's host:port, and says again once when it answers; the users' calls meanwhile are answered with
 * the classified error.
 */
import { afterEach, expect, it, vi } from 'vitest';
import {
  freePort,
  httpServer,
  logRecords,
  rpc,
  sim,
  textOf,
  type ForgeSim,
  type HttpServerProcess,
} from './harness.js';

vi.setConfig({ testTimeout: 120_000 });

let s: ForgeSim | undefined;
let server: HttpServerProcess | undefined;
afterEach(async () => {
  await server?.stop();
  await s?.close();
  server = s = undefined;
});

const listIssues = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'forge_execute_action', arguments: { action: 'issue.list', params: { project_id: '1' } } },
});

/** The tool result of one call, through the MCP endpoint with `token`. */
async function call(token: string, id: number) {
  const res = await rpc(server!.url, { authorization: `Bearer ${token}` }, listIssues(id));
  expect(res.status).toBe(200);
  const text = await res.text();
  const data = text
    .split('\n')
    .find((l) => l.startsWith('data: {'))!
    .slice('data: '.length);
  return (JSON.parse(data) as { result: { isError?: boolean } }).result;
}

function lines(stderr: string) {
  return logRecords(stderr).filter((l) => l.instance !== undefined);
}

it('logs one WARN when the instance stops answering and one INFO when it answers again, with the calls that failed', async () => {
  s = await sim();
  const port = Number(new URL(s.url).port);
  server = await httpServer(s);
  const tokens = [s.tokens.api, s.tokens.admin];
  for (const [i, token] of tokens.entries()) expect((await call(token, i)).isError).toBeFalsy();
  expect(lines(server.stderr())).toEqual([]);

  await s.close();
  for (const [i, token] of tokens.entries()) {
    const failed = await call(token, 10 + i);
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain('connection refused');
  }
  s = await sim({ port });
  expect((await call(s.tokens.api, 20)).isError).toBeFalsy();

  const where = `127.0.0.1:${port}`;
  expect(lines(server.stderr()).map((l) => [l.level, l.msg, l.failed_calls])).toEqual([
    [
      'warn',
      `instance ${where} did not answer (ECONNREFUSED): its calls fail until it answers again; check that it is up and reachable from here`,
      undefined,
    ],
    ['info', `instance ${where} answers again`, 2],
  ]);
});

it('says nothing of an instance a request names itself (--allow-any-forge-url): only the instances the operator named are watched', async () => {
  s = await sim();
  server = await httpServer(s, ['--allow-any-forge-url', '--allow-private-instances']);
  const elsewhere = `http://127.0.0.1:${await freePort()}`;
  const res = await rpc(
    server.url,
    { authorization: `Bearer ${s.tokens.api}`, 'forge-url': elsewhere },
    listIssues(1),
  );
  // The identity check could not reach it: the request is refused, the operator's log stays quiet.
  expect(res.status).toBe(503);
  expect(await res.text()).toContain('connection refused');
  expect((await call(s.tokens.api, 2)).isError).toBeFalsy();
  expect(lines(server.stderr())).toEqual([]);
});
