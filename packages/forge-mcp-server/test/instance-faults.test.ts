/**
 * An instance that misbehaves (huge answers, 5xx storms, endless redirects, dropped connections, bodies that
 * are not what they claim) never takes the server down, never leaks the token, and each call is answered with
 * a classified error; the next call after the storm is served.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sim, stdioClient, textOf, type Connected, type ForgeSim } from './harness.js';

let s: ForgeSim;
let c: Connected;
beforeAll(async () => {
  s = await sim();
  c = await stdioClient(s);
});
afterEach(() => {
  s.clearFaults();
});
afterAll(async () => {
  await c.close();
  await s.close();
});

const exec = async (action: string, params: Record<string, unknown>) => {
  const r = await c.client.callTool({ name: 'forge_execute_action', arguments: { action, params } });
  return { isError: !!r.isError, text: textOf(r) };
};
const getIssue = () => exec('issue.get', { project_id: '1', issue_iid: 1 });

/** After each storm: the token in nothing the server said, and an ordinary call served again. */
async function recovers(texts: string[]) {
  for (const t of [...texts, c.stderr()]) expect(t).not.toContain(s.tokens.api);
  s.reset();
  const ok = await getIssue();
  expect(ok.isError).toBe(false);
}

describe('an instance that misbehaves', () => {
  it('answers over 512 MiB are cut off and reported, not read to exhaustion', async () => {
    // A stand-in host streaming zeros for as long as it is read; the instance redirects the log there.
    let sent = 0;
    const huge: Server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      const write = () => {
        while (sent < 600 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        res.end();
      };
      res.on('close', () => undefined);
      write();
    });
    await new Promise<void>((r) => huge.listen(0, '127.0.0.1', r));
    const port = (huge.address() as AddressInfo).port;
    try {
      s.fault({ path: /\/jobs\/\d+\/trace$/, redirectTo: `http://127.0.0.1:${port}/trace` });
      const r = await exec('job.trace', { project_id: '1', job_id: 1 });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(
        /^job\.trace: response too large: the instance's answer to GET exceeded 512 MiB and was not read/,
      );
      expect(r.text).toContain('narrow the request (paging, tail_lines, byte_offset and byte_limit)');
      // Cut off soon after the limit rather than drained to the end.
      expect(sent).toBeLessThan(600 * 1024 * 1024);
      await recovers([r.text]);
    } finally {
      huge.closeAllConnections();
      await new Promise((r) => huge.close(r));
    }
  });

  it('a storm of 5xx answers each call with its classification and leaves the server serving', async () => {
    s.fault({ path: '/api/v4/projects/1/issues/1', status: 500 });
    s.fault({ path: '/api/v4/projects/1/issues', status: 502 });
    const texts: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await getIssue();
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^issue\.get: internal server error/);
      texts.push(r.text);
    }
    const list = await exec('issue.list', { project_id: '1' });
    expect(list.text).toMatch(/^issue\.list: temporarily unavailable \(bad gateway\)/);
    await recovers([...texts, list.text]);
  });

  it('endless redirects stop after ten hops', async () => {
    s.fault({ path: '/api/v4/projects/1/issues/1', redirectTo: '/api/v4/projects/1/issues/1' });
    const before = s.requests.length;
    const r = await getIssue();
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/too many redirects: more than 10 hops/);
    expect(s.requests.slice(before).filter((q) => q.path === '/api/v4/projects/1/issues/1')).toHaveLength(11);
    await recovers([r.text]);
  });

  it('dropped connections are a network error naming the method', async () => {
    s.fault({ path: '/api/v4/projects/1/issues/1', drop: true });
    const r = await getIssue();
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^issue\.get: network error during GET to 127\.0\.0\.1:\d+/);
    await recovers([r.text]);
  });

  it('a body that is not the JSON it claims is answered, not thrown', async () => {
    s.fault({
      path: '/api/v4/projects/1/issues/1',
      status: 200,
      body: '{"id": 1, "title": "cut',
      headers: { 'content-type': 'application/json' },
    });
    const r = await getIssue();
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(
      /^issue\.get: invalid answer: the instance declared JSON but sent a body that is not valid JSON \(cut short or corrupted\)\. Suggestion: retry; if it persists check proxies between the server and the instance: GET http:\/\/127\.0\.0\.1:\d+\/api\/v4\/projects\/1\/issues\/1$/,
    );
    await recovers([r.text]);
  });
});
