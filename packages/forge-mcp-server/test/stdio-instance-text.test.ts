/**
 * On stdio a tool's JSON answer goes out as the instance's own text: the raw line carries the instance's
 * JSON where the answer's structuredContent (or its items) stands, and a client reads from it just what it
 * read when the parsed answer was serialized again. Where the text could not stand in (a line break inside
 * it, a number JSON.stringify writes otherwise) the answer is serialized as before. Only answers of 8 KB and
 * more are sent so (below, serializing again costs less), so each body here carries a long field.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  executeCall,
  sim,
  stdioRaw,
  textOf,
  withStdio,
  type ForgeSim,
  INITIALIZE,
  INITIALIZED,
} from './harness.js';

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterEach(() => s.clearFaults());
afterAll(async () => {
  await s.close();
});

const MR_PATH = '/api/v4/projects/1/merge_requests/1';
const ISSUE_PATH = '/api/v4/projects/1/issues/1';
const ISSUES_PATH = '/api/v4/projects/1/issues';
const MR_GET = ['merge_request.get', { project_id: '1', merge_request_iid: 1 }] as const;
const ISSUE_GET = ['issue.get', { project_id: '1', issue_iid: 1 }] as const;

/** The instance answers `path` with `text` as its JSON body (200), with `headers` beside. */
function answerWith(path: string, text: string, headers: Record<string, string> = {}) {
  s.fault({
    method: 'GET',
    path,
    status: 200,
    body: text,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** Sends the calls over raw stdio; answers each call's raw line and parsed result, in the calls' order. */
async function rawCalls(calls: ReadonlyArray<readonly [string, Record<string, unknown>]>) {
  const c = stdioRaw(s);
  try {
    c.write(`${INITIALIZE}\n${INITIALIZED}\n`);
    calls.forEach(([action, params], i) =>
      c.write(`${JSON.stringify(executeCall(i + 1, action, params))}\n`),
    );
    const got = await c.waitFor(1 + calls.length, 30_000);
    return calls.map((_, i) => {
      const at = got.findIndex((m) => m.id === i + 1);
      const result = got[at]!.result as { structuredContent?: unknown; isError?: boolean };
      expect(result.isError, textOf(result)).toBeFalsy();
      return { line: c.lines()[at]!, result };
    });
  } finally {
    await c.close();
  }
}

/** A long string field, which takes an answer's text over 8 KB (and stays whole in the answer's text). */
const PAD = `"pad":"${'p'.repeat(8150)}"`;

/** What a client read from the line before: the parsed answer serialized again, parsed. */
const reserialized = (text: string) => JSON.parse(JSON.stringify(JSON.parse(text))) as unknown;

describe('a tool answer sent as the instance’s own JSON text (stdio)', () => {
  it('writes an object answer’s text where structuredContent stands; a client reads the same values', async () => {
    // Written otherwise by JSON.stringify: an integer-like key moved first, 1.50 and 1E2, two escapes, digits
    // beyond a double's, spaces.
    const text = `{"title":"caf\\u00e9 \\/ x", "nested":{"x":1.50,"2":true},"n":1E2,"big":12345678901234567890123,${PAD}}`;
    // Numbers JSON.stringify writes as others (null for one too large, 0 for -0): serialized as before.
    const odd = `{"huge":1e400,"minus_zero":-0,"list":[-0.0,1],${PAD}}`;
    answerWith(MR_PATH, text);
    answerWith(ISSUE_PATH, odd);
    const [mr, issue] = await rawCalls([MR_GET, ISSUE_GET]);

    expect(mr!.line).toContain(`"structuredContent":${text}`);
    expect(mr!.result.structuredContent).toEqual(reserialized(text));
    expect(textOf(mr!.result)).toBe(
      `{"title":"café / x","nested":{"2":true,"x":1.5},"n":100,"big":1.2345678901234568e+22,${PAD}}`,
    );

    expect(issue!.line).toContain(`"structuredContent":{"huge":null,"minus_zero":0,"list":[0,1],${PAD}}`);
    expect(issue!.result.structuredContent).toEqual(reserialized(odd));
    expect(Object.is((issue!.result.structuredContent as { minus_zero: number }).minus_zero, 0)).toBe(true);
  });

  it('writes a list answer’s text as its items, beside the pagination; a real client reads the same values', async () => {
    const text = `[{"iid":2,"title":"\\u0041 b","weight":2.0} , {"iid":1,"labels":["x"],"w":1e2,${PAD}}]`;
    const headers = {
      'x-page': '1',
      'x-per-page': '2',
      'x-total': '5',
      'x-total-pages': '3',
      'x-next-page': '2',
    };
    answerWith(ISSUES_PATH, text, headers);
    const pagination = { page: 1, per_page: 2, total: 5, total_pages: 3, next_page: 2 };
    const [list] = await rawCalls([['issue.list', { project_id: '1' }]]);
    expect(list!.line).toContain(
      `"structuredContent":{"items":${text},"pagination":${JSON.stringify(pagination)}}`,
    );
    expect(list!.result.structuredContent).toEqual({ items: reserialized(text), pagination });

    const { value } = await withStdio(s, {}, ({ client }) =>
      client.callTool({
        name: 'forge_execute_action',
        arguments: { action: 'issue.list', params: { project_id: '1' } },
      }),
    );
    expect(value.isError).toBeFalsy();
    expect(value.structuredContent).toEqual({ items: reserialized(text), pagination });
    expect(textOf(value)).toBe(textOf(list!.result));
  });

  it('sends a body with line breaks as one line: trimmed when they are at its ends, serialized anew when inside', async () => {
    const body = { title: 'pretty', nested: { list: [1, 2], text: 'a\nb' }, pad: 'p'.repeat(8150) };
    const pretty = JSON.stringify(body, null, 2);
    const compact = `{"title":"ends with a line break","x":1.0,${PAD}}`;
    answerWith(MR_PATH, pretty);
    answerWith(ISSUE_PATH, `\r\n${compact}\n`);
    const [mr, issue] = await rawCalls([MR_GET, ISSUE_GET]);

    expect(mr!.line).toContain(`"structuredContent":${JSON.stringify(body)}`);
    expect(mr!.result.structuredContent).toEqual(body);

    expect(issue!.line).toContain(`"structuredContent":${compact}`);
    expect(issue!.result.structuredContent).toEqual(reserialized(compact));
  });
});
