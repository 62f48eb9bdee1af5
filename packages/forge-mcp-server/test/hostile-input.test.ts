/**
 * Hostile and odd argument values, sent through a real MCP client over stdio: what reaches the instance
 * (forge-sim records every request) is the endpoint the action names, with each value encoded in its own
 * place, or nothing at all with an error saying what was wrong.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answeredWithin,
  apiCalls,
  runCli,
  sim,
  stdioClient,
  textOf,
  type Connected,
  type ForgeSim,
} from './harness.js';

let s: ForgeSim;
let c: Connected;

beforeAll(async () => {
  s = await sim();
  c = await stdioClient(s);
}, 60_000);

afterAll(async () => {
  await c?.close();
  await s?.close();
});

async function execute(action: string, params: Record<string, unknown>) {
  const since = s.requests.length;
  const r = await c.client.callTool({ name: 'forge_execute_action', arguments: { action, params } });
  return { r, text: textOf(r), sent: apiCalls(s, since) };
}

/** A project URL of another host given as `name`: refused naming both hosts, nothing sent. */
async function refusedOnOtherHost(
  action: string,
  name: string,
  url: string,
  more: Record<string, unknown> = {},
) {
  const { host } = new URL(s.url);
  const { r, text, sent } = await execute(action, { [name]: url, ...more });
  expect(r.isError).toBe(true);
  expect(text).toBe(
    `${action}: ${name} ${JSON.stringify(url)} names a project on ${new URL(url).host}, not on this server's instance (${host}); give the project's numeric ID or its path (group/project) on ${host}.`,
  );
  expect(sent).toEqual([]);
}

describe('path values', () => {
  it('refuses "." and ".." as a path value, which would make the URL call another endpoint', async () => {
    // Without the refusal, project_id ".." reached GET /api/v4/issues/1 (another project's issue) and
    // branch ".." GET /api/v4/projects/1/repository/.
    for (const [action, params, name] of [
      ['issue.get', { project_id: '..', issue_iid: 1 }, 'project_id'],
      ['issue.get', { project_id: '.', issue_iid: 1 }, 'project_id'],
      ['branch.get', { project_id: '1', branch: '..' }, 'branch'],
      ['repository.file_get', { project_id: '1', file_path: '..', ref: 'main' }, 'file_path'],
    ] as const) {
      const { r, text, sent } = await execute(action, params);
      expect(r.isError).toBe(true);
      expect(text).toContain(
        `${action}: ${name} ${JSON.stringify((params as Record<string, string>)[name])} is refused`,
      );
      expect(text).toContain('would make the URL call another endpoint');
      expect(sent).toEqual([]);
    }
  });

  it('reads a project or group path given URL-encoded as the path it encodes, never encoding it twice', async () => {
    // The instance's docs call the parameter "the ID or URL-encoded path of the project", so models send it
    // encoded; encoded again it was /projects/acme%252Fwidgets, answered 404.
    for (const project_id of ['acme%2Fwidgets', 'acme%2fwidgets']) {
      const { r, sent } = await execute('issue.list', { project_id });
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(sent.map((q) => q.path)).toEqual(['/api/v4/projects/acme%2Fwidgets/issues']);
    }
    const group = await execute('group.get', { group_id: 'acme%2Fteam' });
    expect(group.sent.map((q) => q.path)).toEqual(['/api/v4/groups/acme%2Fteam']);
    // Not a valid encoding: sent as given, encoded once.
    const odd = await execute('issue.list', { project_id: 'acme%zz' });
    expect(odd.sent.map((q) => q.path)).toEqual(['/api/v4/projects/acme%25zz/issues']);
    // An encoded ".." is read as "..", and refused like it.
    const dots = await execute('issue.get', { project_id: '%2e%2E', issue_iid: 1 });
    expect(dots.text).toContain('issue.get: project_id ".." is refused');
    expect(dots.sent).toEqual([]);
  });

  it('reads a pasted web or clone URL of this instance given as project_id as its project; another host is refused', async () => {
    const { hostname } = new URL(s.url);
    for (const project_id of [
      `${s.url}/acme/widgets/-/issues/3`,
      `${s.url}/acme/widgets`,
      `git@${hostname}:acme/widgets.git`,
      // A clone URL over SSH written as a URL: its port is the SSH one (the instance shows such a URL when
      // its SSH port is not 22), not the web one, as git@host:path names none.
      `ssh://git@${hostname}:2222/acme/widgets.git`,
      `ssh://git@${hostname}/acme/widgets.git`,
    ]) {
      const { r, text, sent } = await execute('issue.list', { project_id });
      expect(r.isError, text).toBeFalsy();
      expect(sent.map((q) => q.path)).toEqual(['/api/v4/projects/acme%2Fwidgets/issues']);
    }
    // A clone URL copied with a slash after it still names the project.
    const slashed = await execute('issue.list', { project_id: `${s.url}/acme/widgets.git/` });
    expect(slashed.sent.map((q) => q.path)).toEqual(['/api/v4/projects/acme%2Fwidgets/issues']);
    // The instance's own URL names no project: said so, nothing sent (it read as project_id missing).
    for (const [action, name] of [
      ['issue.list', 'project_id'],
      ['discover_project.resolve', 'project'],
    ] as const) {
      const root = await execute(action, { [name]: `${s.url}/` });
      expect(root.r.isError).toBe(true);
      expect(root.text).toBe(
        `${action}: ${name} ${JSON.stringify(`${s.url}/`)} names no project, only the instance; give the project's numeric ID or its path (group/project), or its URL.`,
      );
      expect(root.sent).toEqual([]);
    }
    // The same path on another host is another project: nothing is sent, even for a write.
    await refusedOnOtherHost('issue.create', 'project_id', 'https://elsewhere.example/acme/widgets', {
      title: 'x',
    });
  });

  it("discover_project.resolve reads a pasted URL as project_id is read: this instance's names its project, another host's is refused", async () => {
    const { hostname } = new URL(s.url);
    for (const project of [
      `${s.url}/acme/widgets/-/merge_requests/1`,
      `git@${hostname}:acme/widgets.git`,
      'acme/widgets.git',
    ]) {
      const { r, text, sent } = await execute('discover_project.resolve', { project });
      expect(r.isError, text).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ path_with_namespace: 'acme/widgets' });
      expect(sent.map((q) => q.path)).toEqual(['/api/v4/projects/acme%2Fwidgets']);
    }
    // Read as a path, another host's URL named this instance's acme/widgets: a different project.
    await refusedOnOtherHost(
      'discover_project.resolve',
      'project',
      'https://elsewhere.example/acme/widgets/-/issues/3',
    );
  });

  it('reads a pasted project with a long run of slashes in time in proportion to its length', async () => {
    // 1,000,000 slashes between two names: trimming the ends once read the run again from each slash (hours).
    const run = '/'.repeat(1_000_000);
    for (const [action, params] of [
      ['discover_project.resolve', { project: `acme${run}widgets` }],
      ['issue.list', { project_id: `${s.url}/acme${run}widgets` }],
    ] as const) {
      const r = await c.client.callTool(
        { name: 'forge_execute_action', arguments: { action, params } },
        undefined,
        { timeout: 60_000 },
      );
      // Whatever the instance makes of such a path, an answer comes.
      expect(typeof textOf(r)).toBe('string');
    }
  });

  it('reads a GraphQL error message holding a long run of spaces in time in proportion to its length', async () => {
    // 1,000,000 spaces and no line break: putting the messages on one line read the run again from each space.
    s.fault({
      path: '/api/graphql',
      status: 200,
      body: { data: null, errors: [{ message: `refused${' '.repeat(1_000_000)}here\n  and there` }] },
    });
    try {
      const { r, text } = await execute('issue.work_item_update', {
        full_path: 'acme/widgets',
        work_item_iid: '3',
        title: 'T',
      });
      expect(r.isError).toBe(true);
      expect(text).toMatch(/^issue\.work_item_update GraphQL errors: refused {2000}/);
      expect(text.length).toBeLessThan(2200);
    } finally {
      s.clearFaults();
    }
  });

  it('a URL pasted on an instance served under a sub-path names its project, the sub-path left out', async () => {
    // The instance at http://127.0.0.1:<port>/gitlab: a relay to forge-sim that takes the sub-path off.
    const sim = new URL(s.url);
    const relay = createServer((req, res) => {
      const path = req.url!.replace(/^\/gitlab(?=\/)/, '');
      const up = request(
        { host: sim.hostname, port: sim.port, method: req.method, path, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(up);
    });
    await new Promise<void>((listening) => relay.listen(0, '127.0.0.1', listening));
    const base = `http://127.0.0.1:${(relay.address() as AddressInfo).port}/gitlab`;
    const sub = await stdioClient(s, { env: { FORGE_URL: base } });
    try {
      const since = s.requests.length;
      const call = (action: string, params: Record<string, unknown>) =>
        sub.client.callTool({ name: 'forge_execute_action', arguments: { action, params } });
      const listed = await call('issue.list', { project_id: `${base}/acme/widgets/-/issues/3` });
      expect(listed.isError, textOf(listed)).toBeFalsy();
      const resolved = await call('discover_project.resolve', { project: `${base}/acme/widgets.git` });
      expect(resolved.structuredContent).toMatchObject({ path_with_namespace: 'acme/widgets' });
      const prompt = await sub.client.getPrompt({
        name: 'summarize_open_mrs',
        arguments: { project_id: `${base}/acme/widgets` },
      });
      expect((prompt.messages[0].content as { text: string }).text).toMatch(
        /^# Open merge requests of acme\/widgets\n/,
      );
      expect(apiCalls(s, since).map((q) => q.path)).toEqual([
        '/api/v4/projects/acme%2Fwidgets/issues',
        '/api/v4/projects/acme%2Fwidgets',
        '/api/v4/projects/acme%2Fwidgets/merge_requests',
      ]);
      // The same host outside the sub-path is not the instance: refused, nothing sent.
      const host = new URL(base).host;
      const before = s.requests.length;
      const outside = await call('issue.list', { project_id: `http://${host}/acme/widgets` });
      expect(outside.isError).toBe(true);
      expect(textOf(outside)).toBe(
        `issue.list: project_id "http://${host}/acme/widgets" names a page outside this server's instance (${host}/gitlab); give the project's numeric ID or its path (group/project) on ${host}/gitlab.`,
      );
      expect(s.requests.length).toBe(before);
    } finally {
      await sub.close();
      relay.closeAllConnections();
      relay.close();
    }
  });

  it('reads an IID given as the instance writes its reference (#1, !1) as the number', async () => {
    const issue = await execute('issue.get', { project_id: '1', issue_iid: '#1' });
    expect(issue.r.isError, issue.text).toBeFalsy();
    expect(issue.sent.map((q) => q.path)).toEqual(['/api/v4/projects/1/issues/1']);
    const mr = await execute('merge_request.get', { project_id: '1', merge_request_iid: '!1' });
    expect(mr.sent.map((q) => q.path)).toEqual(['/api/v4/projects/1/merge_requests/1']);
    // The wrong kind's mark, or more than a mark and digits, is still refused as not a number; nothing is sent.
    for (const [action, params] of [
      ['issue.get', { project_id: '1', issue_iid: '!1' }],
      ['issue.get', { project_id: '1', issue_iid: '#1a' }],
      ['merge_request.get', { project_id: '1', merge_request_iid: '#1' }],
    ] as const) {
      const { r, text, sent } = await execute(action, params);
      expect(r.isError).toBe(true);
      expect(text).toMatch(/must be integer/);
      expect(sent).toEqual([]);
    }
  });

  it('refuses a "..", "." or empty part of a path that keeps its slashes (an artifact path)', async () => {
    for (const artifact_path of ['a/../../../../issues', './x', 'a//b', 'dist/']) {
      const { r, text, sent } = await execute('job.download_single_artifact', {
        project_id: '1',
        job_id: 1001,
        artifact_path,
      });
      expect(r.isError).toBe(true);
      expect(text).toMatch(/^job\.download_single_artifact: artifact_path .* is refused: /);
      expect(sent).toEqual([]);
    }
    const ok = await execute('job.download_single_artifact', {
      project_id: '1',
      job_id: 1001,
      artifact_path: 'dist/a b/.hidden/r..txt',
    });
    expect(ok.sent.map((q) => q.path)).toEqual([
      '/api/v4/projects/1/jobs/1001/artifacts/dist/a%20b/.hidden/r..txt',
    ]);
  });

  it('a generic package folder given with slashes at its ends is the folder; a ".." in a file name is refused', async () => {
    const publish = (more: Record<string, unknown>) =>
      execute('package.publish', {
        project_id: '1',
        package_name: 'p',
        package_version: '1.0.0',
        content_base64: 'aGk=',
        ...more,
      });
    // "dist/" was sent as .../1.0.0/dist//x.txt, an empty part in the path.
    const { sent } = await publish({ path: '/dist/', file_name: 'x.txt' });
    expect(sent.map((q) => `${q.method} ${q.path}`)).toEqual([
      'PUT /api/v4/projects/1/packages/generic/p/1.0.0/dist/x.txt',
    ]);
    const refused = await publish({ file_name: '../../../x.txt' });
    expect(refused.text).toMatch(/^package\.publish: a value is refused: /);
    expect(refused.sent).toEqual([]);
  });

  it('refuses a dot or empty segment in a path a handler builds (discover_project.resolve)', async () => {
    // ".." reached GET /api/v4/ and a URL whose path resolves to nothing GET /api/v4/projects/ (every project).
    for (const [project, refusal] of [
      ['..', /^discover_project\.resolve: a value is refused: .* would make the URL call another endpoint/],
      [`${s.url}/a/../..`, /^discover_project\.resolve: project ".*" names no project, only the instance;/],
    ] as const) {
      const { r, text, sent } = await execute('discover_project.resolve', { project });
      expect(r.isError).toBe(true);
      expect(text).toMatch(refusal);
      expect(sent).toEqual([]);
    }
  });

  it('keeps other values inside their own segment, encoded whole', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['issue.get', { project_id: '../..', issue_iid: 1 }, '/api/v4/projects/..%2F../issues/1'],
      // Only a project or group path is read as URL-encoded; any other value is encoded as given.
      ['tag.get', { project_id: '1', tag_name: '%2e%2e' }, '/api/v4/projects/1/repository/tags/%252e%252e'],
      ['issue.get', { project_id: '...', issue_iid: 1 }, '/api/v4/projects/.../issues/1'],
      ['issue.get', { project_id: '1?x=1', issue_iid: 1 }, '/api/v4/projects/1%3Fx%3D1/issues/1'],
      ['issue.get', { project_id: '1#x;y', issue_iid: 1 }, '/api/v4/projects/1%23x%3By/issues/1'],
      [
        'issue.get',
        { project_id: 'a\u0000b\r\nX: 1', issue_iid: 1 },
        '/api/v4/projects/a%00b%0D%0AX%3A%201/issues/1',
      ],
      ['issue.get', { project_id: 'a\u202eb', issue_iid: 1 }, '/api/v4/projects/a%E2%80%AEb/issues/1'],
      // NFC and NFD spellings are sent as given (the instance compares bytes).
      ['issue.get', { project_id: 'caf\u00e9', issue_iid: 1 }, '/api/v4/projects/caf%C3%A9/issues/1'],
      ['issue.get', { project_id: 'cafe\u0301', issue_iid: 1 }, '/api/v4/projects/cafe%CC%81/issues/1'],
      [
        'branch.get',
        { project_id: 'group/sub/proj', branch: 'feature/x' },
        '/api/v4/projects/group%2Fsub%2Fproj/repository/branches/feature%2Fx',
      ],
      [
        'tag.get',
        { project_id: '1', tag_name: 'v1/../../x' },
        '/api/v4/projects/1/repository/tags/v1%2F..%2F..%2Fx',
      ],
      [
        'repository.file_get',
        { project_id: '1', file_path: '../../etc/passwd', ref: 'main' },
        '/api/v4/projects/1/repository/files/..%2F..%2Fetc%2Fpasswd',
      ],
      [
        'repository.file_get',
        { project_id: '1', file_path: 'dir/a b.txt', ref: 'feature/x' },
        '/api/v4/projects/1/repository/files/dir%2Fa%20b.txt',
      ],
    ];
    for (const [action, params, path] of cases) {
      const { sent } = await execute(action, params);
      expect(sent.map((q) => q.path)).toEqual([path]);
      expect(sent[0].query).toEqual(action === 'repository.file_get' ? { ref: params.ref } : {});
    }
    const long = 'x'.repeat(5000);
    const { sent } = await execute('issue.get', { project_id: long, issue_iid: 1 });
    expect(sent.map((q) => q.path)).toEqual([`/api/v4/projects/${long}/issues/1`]);
    // Too long for the instance's request line (forge-sim answers 431, like a front end's 414): the error
    // says to shorten it, and repeats no more than the start of the URL.
    const longer = 'x'.repeat(20_000);
    const refused = await execute('issue.get', { project_id: longer, issue_iid: 1 });
    expect(refused.r.isError).toBe(true);
    expect(refused.text).toMatch(
      /^issue\.get: returned HTTP 431\. Suggestion: a value in the request path or query is too long for the instance: shorten it, or use an ID instead of a long name: GET http:\/\/127\.0\.0\.1:\d+\/api\/v4\/projects\/x+\.\.\.: 431$/,
    );
    expect(refused.text.length).toBeLessThan(600);
    // The cause repeats the URL's first 256 characters exactly.
    expect(/: GET (\S+)\.\.\.: 431$/.exec(refused.text)![1]).toHaveLength(256);
  });
});

describe('uploads', () => {
  const upload = (params: Record<string, unknown>) =>
    execute('project.upload', { project_id: '1', ...params });

  it('refuses content_base64 that is not base64 instead of uploading what the lenient decoder leaves', async () => {
    // Without the check, "not base64 !!!" was uploaded as the 9 bytes Node's decoder made of it.
    for (const [content_base64, why] of [
      ['not base64 !!!', '"!" is outside the base64 alphabet'],
      ['aGV=sbG8', '"=" padding stands before the end'],
      ['aGVsb', 'its length leaves a lone character at the end'],
    ]) {
      const { r, text, sent } = await upload({ content_base64, filename: 'x.txt' });
      expect(r.isError).toBe(true);
      expect(text).toBe(
        `project.upload: content_base64 is not base64 (${why}): send the file's bytes encoded as base64 (A-Z, a-z, 0-9, + and /, "=" padding at the end only)`,
      );
      expect(sent).toEqual([]);
    }
    const published = await execute('package.publish', {
      project_id: '1',
      package_name: 'p',
      package_version: '1.0.0',
      file_name: 'x.txt',
      content_base64: '**',
    });
    expect(published.text).toMatch(/^package\.publish: content_base64 is not base64 \("\*" is outside/);
    expect(published.sent).toEqual([]);
    // Line breaks and missing padding are fine: the bytes are the file's.
    for (const content_base64 of ['aGVs\nbG8=', 'aGVsbG8']) {
      const { sent } = await upload({ content_base64, filename: 'x.txt' });
      expect(sent).toHaveLength(1);
      expect(String(sent[0].body)).toContain(
        'filename="x.txt"\r\nContent-Type: application/octet-stream\r\n\r\nhello\r\n',
      );
    }
  });

  it('refuses a file name with a directory part, and escapes quotes and line breaks in the multipart header', async () => {
    for (const filename of ['../../etc/passwd', 'dir\\x.txt', '..', '']) {
      const { r, text, sent } = await upload({ content_base64: 'aGVsbG8=', filename });
      expect(r.isError).toBe(true);
      expect(text).toBe(
        `project.upload: filename ${JSON.stringify(filename)} is refused: an uploaded file's name cannot be empty, "." or "..", or hold "/" or "\\". Give the name alone, such as "notes.txt".`,
      );
      expect(sent).toEqual([]);
    }
    const { sent } = await upload({ content_base64: 'aGVsbG8=', filename: 'a"b\r\nX-Evil: 1\r\n\r\n.txt' });
    expect(sent).toHaveLength(1);
    const body = String(sent[0].body);
    expect(body).toContain(
      'Content-Disposition: form-data; name="file"; filename="a%22b%0D%0AX-Evil: 1%0D%0A%0D%0A.txt"\r\n',
    );
    expect(body).not.toContain('\r\nX-Evil');
  });
});

describe('settings that become a header or the instance URL', () => {
  it('refuses to start with a FORGE_TOKEN holding a line break, control or non-ASCII character, never echoing it', async () => {
    // Before, the start failed as "network error ... (UND_ERR_INVALID_ARG). Suggestion: retry": the wrong cause.
    for (const token of [
      `${s.tokens.api}\r\nX-Evil: 1`,
      `${s.tokens.api}\u20ac`,
      `${s.tokens.api}\u00e9`,
      'a b',
    ]) {
      const since = s.requests.length;
      const r = await runCli([], { FORGE_URL: s.url, FORGE_TOKEN: token });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        'invalid FORGE_TOKEN=<redacted>: it holds a space, line break, control or non-ASCII character, which a request header cannot carry; copy the token again without it',
      );
      expect(r.stderr).not.toContain(s.tokens.api);
      expect(s.requests.length).toBe(since);
    }
    // Blanks around the token (a line end from a file) are dropped, as before.
    const since = s.requests.length;
    const c = await stdioClient(s, { env: { FORGE_TOKEN: ` ${s.tokens.api}\r\n` } });
    try {
      const r = await c.client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.get', params: { project_id: '1', issue_iid: 1 } },
      });
      expect(r.isError).toBeFalsy();
      expect(s.requests.slice(since).every((q) => q.token === s.tokens.api)).toBe(true);
    } finally {
      await c.close();
    }
  });

  it('refuses to start with a FORGE_URL holding a line break, tab or space, which a URL parser drops or moves', async () => {
    // Before, "<url>/\r\nX: y" started against the path /X:%20y.
    for (const url of [`${s.url}/\r\nX: y`, `${s.url}/a\tb`, s.url.replace('127.0.0.1', '127.0.0.\t1')]) {
      const since = s.requests.length;
      const r = await runCli([], { FORGE_URL: url, FORGE_TOKEN: s.tokens.api });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('URL holds a space, tab, line break or control character');
      expect(s.requests.length).toBe(since);
    }
  });
});

describe('values that could pass for code or another name', () => {
  it('a GraphQL value holding "}, $ or a mutation travels as a variable, the document unchanged', async () => {
    const { catalog } = await import('../dist/catalog/index.js');
    const spec = catalog().actions.find((a) => a.id === 'achievement.user_list')!;
    const username = 'a"}){x} mutation { destroy } #$username';
    const { r, sent } = await execute('achievement.user_list', { username });
    expect(r.isError).toBeFalsy();
    expect(sent).toHaveLength(1);
    const body = sent[0].body as { query: string; variables: Record<string, unknown> };
    expect(body.query).toBe((spec.request as { graphql: { document: string } }).graphql.document);
    expect(body.variables).toEqual({ username });
  });

  it('an odd spelling of a destructive action is unknown, never run without confirmation', async () => {
    for (const action of [
      'ISSUE.DELETE',
      'issue.delete ',
      ' issue.delete',
      '\u0456ssue.delete',
      'issue.delete\u200b',
    ]) {
      const { r, text, sent } = await execute(action, { project_id: '1', issue_iid: 1 });
      expect(r.isError).toBe(true);
      expect(text).toContain(
        `forge_execute_action: unknown action ${JSON.stringify(action)}. Did you mean: issue.delete`,
      );
      expect(sent).toEqual([]);
    }
  });
});

describe('numbers given as strings', () => {
  it('an integer written with an exponent beyond ±(2^53-1) is refused, as the same number in digits is', async () => {
    // Before, milestone_id "1e308" was coerced and sent as {"milestone_id":1e+308}.
    for (const value of ['1e308', '-2.5E20', '1.0000000000000e17']) {
      const { r, text, sent } = await execute('issue.create', {
        project_id: '1',
        title: 't',
        milestone_id: value,
      });
      expect(r.isError).toBe(true);
      expect(text).toBe(
        'forge_execute_action: invalid params for this action: milestone_id cannot be represented exactly (got a string in exponent notation): an integer beyond ±9007199254740991 loses its last digits as a number, so nothing was sent; check the value',
      );
      expect(sent).toEqual([]);
    }
    // An exact integer in exponent notation is the number it names; NaN and -0 are no way around the schema.
    const { sent } = await execute('issue.get', { project_id: '1', issue_iid: '1e3' });
    expect(sent.map((q) => q.path)).toEqual(['/api/v4/projects/1/issues/1000']);
    for (const [per_page, why] of [
      ['NaN', 'must be integer (got a string)'],
      ['-0', 'must be >= 1'],
      ['1e3', 'must be <= 100'],
    ]) {
      const refused = await execute('issue.list', { project_id: '1', per_page });
      expect(refused.text).toBe(`forge_execute_action: invalid params for this action: per_page ${why}`);
      expect(refused.sent).toEqual([]);
    }
  });

  it('a long forge_find_action query without spaces is answered at once, not in time growing with its square', async () => {
    // A megabyte word: reading the words written with hyphens took minutes on it, the server stalled.
    const answered = c.client.callTool({
      name: 'forge_find_action',
      arguments: { query: `close ${'a'.repeat(1_000_000)}` },
    });
    const first = await answeredWithin(answered);
    expect(textOf(first)).not.toBe('');
  }, 60_000);

  it('a long forge_find_action query nothing matches is quoted back by its first 200 characters, not whole', async () => {
    const query = 'zzqx qqzx '.repeat(10_000);
    const r = await answeredWithin(c.client.callTool({ name: 'forge_find_action', arguments: { query } }));
    expect(textOf(r)).toBe(
      `No action matches "${query.slice(0, 200)}\u2026". Try other words (for example the object: issue, merge request, pipeline, branch) or a canonical ID.`,
    );
  }, 60_000);

  it('a long string of digits that is no number is checked at once, not in time growing with its square', async () => {
    // A megabyte title of digits ending in a letter: the exponent check took minutes on it, the server stalled.
    const answered = execute('issue.create', {
      project_id: '1',
      title: `${'1'.repeat(1_000_000)}x`,
      milestone_id: 'none',
    });
    const first = await answeredWithin(answered);
    const { r, text, sent } = first;
    expect(r.isError).toBe(true);
    expect(text).toContain('milestone_id must be integer');
    expect(sent).toEqual([]);
  }, 60_000);
});
