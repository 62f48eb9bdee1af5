import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lazyCatalog } from '../catalog/lazy.js';
import type { ActionSpec } from '../catalog/types.js';
import { compactJson, jsonResult } from './format.js';

/** The rule written the obvious way: build the compacted copy, then serialize it. */
function compactCopy(value: unknown, fieldCap: number, inner = false): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') {
    if (value === '') return undefined;
    return value.length > fieldCap
      ? `${value.slice(0, fieldCap)}… [cut: ${value.length - fieldCap} more characters]`
      : value;
  }
  if (Array.isArray(value)) {
    const out = value.map((v) => compactCopy(v, fieldCap, inner)).filter((v) => v !== undefined);
    return out.length ? out : undefined;
  }
  if (typeof value === 'object') {
    // No prototype: a "__proto__" key of the data is an ordinary key here, as JSON.parse makes it.
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      // API links anywhere (not a release's web links), and the pictures of the people an object names (not of a
      // user asked for).
      const apiOnly =
        k === '_links' &&
        !Object.values((v ?? {}) as object).some((x) => typeof x === 'string' && !x.includes('/api/'));
      if (apiOnly || (k !== '_links' && inner && k === 'avatar_url')) continue;
      const c = compactCopy(v, fieldCap, true);
      if (c !== undefined) out[k] = c;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return value;
}

describe('compactJson', () => {
  it('drops nulls and empties at every depth and cuts long strings with a note', () => {
    const body = {
      id: 7,
      title: 'Fix login',
      description: '',
      labels: [],
      milestone: null,
      author: { id: 1, avatar_url: null, links: {} },
      notes: [null, '', { body: 'x'.repeat(12) }],
      '0': false,
    };
    expect(compactJson(body, 5)).toBe(
      '{"0":false,"id":7,"title":"Fix l… [cut: 4 more characters]","author":{"id":1},"notes":[{"body":"xxxxx… [cut: 7 more characters]"}]}',
    );
    expect(compactJson({ a: null, b: [{}] })).toBeUndefined();
    expect(compactJson('')).toBeUndefined();
    expect(compactJson(0)).toBe('0');
    // A key named __proto__ in an answer is data, kept like any other.
    expect(compactJson(JSON.parse('{"__proto__":{"a":1},"b":null}'))).toBe('{"__proto__":{"a":1}}');
    // API links and the pictures of named people are left out; a user's own picture is kept.
    expect(
      compactJson({
        id: 1,
        avatar_url: 'a',
        author: { id: 2, avatar_url: 'b' },
        assignees: [{ id: 3, avatar_url: 'c' }],
        _links: { self: 'https://h/api/v4/x', closed_as_duplicate_of: null },
      }),
    ).toBe('{"id":1,"avatar_url":"a","author":{"id":2},"assignees":[{"id":3}]}');
    expect(compactJson([{ id: 1, avatar_url: 'a', _links: { self: 'https://h/api/v4/x' } }])).toBe(
      '[{"id":1,"avatar_url":"a"}]',
    );
    // A release's links are its web pages: kept.
    expect(compactJson({ tag_name: 'v1', _links: { self: 'https://h/g/p/-/releases/v1' } })).toBe(
      '{"tag_name":"v1","_links":{"self":"https://h/g/p/-/releases/v1"}}',
    );
  });

  it('is the serialized compacted copy for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), fc.integer({ min: 1, max: 40 }), (value, cap) => {
        const copy = compactCopy(value, cap);
        expect(compactJson(value, cap)).toBe(copy === undefined ? undefined : JSON.stringify(copy));
      }),
      { numRuns: 500 },
    );
  });
});

describe('a list cut at the text cap', () => {
  const items = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, body: 'y'.repeat(1900) }));
  const action = (params: string[]) =>
    ({
      id: 'x.list',
      params: Object.fromEntries(params.map((p) => [p, { type: 'integer' }])),
    }) as unknown as ActionSpec;
  const note = (params: string[], headers: Record<string, string>) =>
    (jsonResult(action(params), items, headers).content[0].text as string).split('\n').pop();

  it('on a keyset page asks again with a per_page that fits', () => {
    expect(
      note(['per_page', 'page', 'cursor'], { link: '<http://h/api/v4/x?cursor=abc>; rel="next"' }),
    ).toMatch(
      /^… \[text cut at 49152 characters: the first (\d+) of these 60 items are shown; ask again with per_page=\1 or fewer, or narrow the request with the action's filters\]$/,
    );
  });

  it('on a GraphQL connection asks again with a first that fits', () => {
    expect(note(['first', 'after'], {})).toMatch(
      /^… \[text cut at 49152 characters: the first (\d+) of these 60 items are shown; ask again with first=\1 or fewer, then continue with after, or narrow the request with the action's filters\]$/,
    );
  });

  it("on a list that takes no page size points at the action's filters", () => {
    expect(note([], {})).toMatch(
      /^… \[text cut at 49152 characters: the first \d+ of these 60 items are shown; narrow the request with the action's filters\]$/,
    );
  });
});

describe('a list whose first item alone is over the text cap', () => {
  const action = { id: 'x.list', params: { per_page: {}, page: {} } } as unknown as ActionSpec;
  const text = (items: unknown[]) => jsonResult(action, items, {}).content[0].text as string;

  it('shows the item without its longest fields, within the cap, and names them', () => {
    const item = { id: 1, small: 's', long: Array.from({ length: 30 }, () => 'z'.repeat(1990)) };
    const lines = text([item]).split('\n');
    expect(lines).toEqual([
      '1 item',
      '{"id":1,"small":"s"}',
      '… [the first item alone is over the 49152-character cap: its field long is left out above; structuredContent.items[0] holds it whole]',
    ]);
  });

  it("names the action reading one item, with the item's key and how this surface runs it", async () => {
    const item = { iid: 7, id: 1, long: Array.from({ length: 30 }, () => 'z'.repeat(1990)) };
    // The catalog's own issue.list (loading its domain loads issue.get, which reads one of its items).
    const catalog = lazyCatalog();
    const list = await catalog.spec(catalog.get('issue.list')!);
    const runsAs = (id: string) => (id === 'issue.get' ? 'forge_issue {"action": "get"}' : undefined);
    expect((jsonResult(list, [item], {}, runsAs).content[0].text as string).split('\n').pop()).toBe(
      '… [the first item alone is over the 49152-character cap: its field long is left out above; structuredContent.items[0] holds it whole, or read it with issue.get (iid 7; run with forge_issue {"action": "get"})]',
    );
  });

  it('leaves out an item that is no object whole', () => {
    const lines = text([Array.from({ length: 30 }, () => 'z'.repeat(1990))]).split('\n');
    expect(lines).toEqual([
      '1 item',
      '…',
      '… [the first item alone is over the 49152-character cap: it is left out above; structuredContent.items[0] holds it whole]',
    ]);
  });
});
