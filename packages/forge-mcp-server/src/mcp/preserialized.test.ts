import { describe, expect, it } from 'vitest';
import { preserialize, preserializedLine } from './preserialized.js';

const wire = (m: unknown) => `${JSON.stringify(m)}\n`;
const joined = (pieces: [string, Buffer, string]) =>
  Buffer.concat([Buffer.from(pieces[0]), pieces[1], Buffer.from(pieces[2])]).toString();

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
