import { describe, expect, it } from 'vitest';
import { keepPreserialized, preserialize, preserializeJson, preserializedLine } from './preserialized.js';

const wire = (m: unknown) => `${JSON.stringify(m)}\n`;
const joined = (pieces: [string, Buffer, string]) =>
  Buffer.concat([Buffer.from(pieces[0]), pieces[1], Buffer.from(pieces[2])]).toString();

/** A long string field: an instance text under 8 KB is left to the usual serialization. */
const PAD = `"pad":"${'p'.repeat(8200)}"`;

describe('pre-serialized answers', () => {
  const tools = preserialize([
    { name: 'a_tool', description: 'Ünïcode — and "quotes"\n', inputSchema: { type: 'object' } },
    { name: 'b_tool', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } },
  ]);

  it('writes the same bytes as serializing the whole message, whatever else the answer carries', () => {
    for (const message of [
      { jsonrpc: '2.0', id: 1, result: { tools } },
      { jsonrpc: '2.0', id: 'req-7', result: { tools, nextCursor: 'c2' } },
      { result: { _meta: { 'io.modelcontextprotocol/x': 'y' }, tools, z: [1] }, jsonrpc: '2.0', id: 0 },
    ]) {
      const pieces = preserializedLine(message);
      expect(pieces).toBeDefined();
      expect(joined(pieces!)).toBe(wire(message));
      // Asked again, the encoding is reused and still right.
      expect(joined(preserializedLine(message)!)).toBe(wire(message));
    }
  });

  it('writes an instance answer’s text where its structuredContent or items stand', () => {
    const text = ` {"b":1.0,"2":"\\u0041",${PAD}} `;
    const body = JSON.parse(text) as object;
    const object = {
      jsonrpc: '2.0',
      id: 1,
      result: preserializeJson({ content: [], structuredContent: body }, body, Buffer.from(text)),
    };
    expect(joined(preserializedLine(object)!)).toBe(
      `{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"b":1.0,"2":"\\u0041",${PAD}}}}\n`,
    );
    const listText = `[{"a":1e2,${PAD}}]`;
    const items = JSON.parse(listText) as object;
    const result = preserializeJson(
      { structuredContent: { items, pagination: { page: 1 } } },
      items,
      Buffer.from(listText),
    );
    expect(joined(preserializedLine({ jsonrpc: '2.0', id: 2, result })!)).toBe(
      `{"jsonrpc":"2.0","id":2,"result":{"structuredContent":{"items":[{"a":1e2,${PAD}}],"pagination":{"page":1}}}}\n`,
    );
    // Another value where the marked one stood: serialized as usual.
    expect(
      preserializedLine({ id: 3, result: { ...result, structuredContent: { items: [] } } }),
    ).toBeUndefined();
  });

  it('leaves an answer that could not stand for its value to the usual serialization', () => {
    const notUtf8 = Buffer.concat([Buffer.from(`{${PAD},"a":"`), Buffer.from([0xff]), Buffer.from('"}')]);
    for (const bytes of [
      ...[
        `{${PAD},"a":\n1}`,
        `{${PAD},"a":\r1}`,
        `{${PAD},"a":1e400}`,
        `{${PAD},"a":[-0]}`,
        `[{${PAD},"a":-0.0e3}]`,
        '{"short":1.0}',
      ].map((text) => Buffer.from(text)),
      notUtf8,
    ]) {
      const value = JSON.parse(bytes.toString()) as object;
      const result = preserializeJson({ structuredContent: value }, value, bytes);
      expect(preserializedLine({ id: 1, result }), bytes.subarray(-20).toString()).toBeUndefined();
    }
  });

  it('takes the mark along to the checked copy of a result, its structuredContent only when the same', () => {
    const text = `{"a":1,"b":{"c":2},${PAD}}`;
    const body = JSON.parse(text) as Record<string, unknown>;
    const own = preserializeJson({ structuredContent: body }, body, Buffer.from(text));
    const sent = { structuredContent: { ...body } };
    keepPreserialized(sent, own);
    expect(sent.structuredContent).toBe(body);
    expect(joined(preserializedLine({ id: 1, result: sent })!)).toBe(
      `{"id":1,"result":{"structuredContent":${text}}}\n`,
    );
    for (const copy of [{ ...body, d: 3 }, { a: 1 }, { ...body, b: { c: 2 } }]) {
      const other = { structuredContent: copy };
      keepPreserialized(other, own);
      expect(other.structuredContent).toBe(copy);
      expect(preserializedLine({ id: 1, result: other })).toBeUndefined();
    }
  });

  it('leaves every other message to the usual serialization', () => {
    expect(preserializedLine({ jsonrpc: '2.0', id: 1, result: { tools: [...tools] } })).toBeUndefined();
    expect(preserializedLine({ jsonrpc: '2.0', id: 1, result: {} })).toBeUndefined();
    expect(preserializedLine({ jsonrpc: '2.0', method: 'notifications/x' })).toBeUndefined();
    expect(preserializedLine(undefined)).toBeUndefined();
    // A request id spelling the stand-in's text cannot displace the tools.
    const id = '\u0000forge-mcp-server:preserialized\u0000';
    expect(preserializedLine({ jsonrpc: '2.0', id, result: { tools } })).toBeUndefined();
  });
});
