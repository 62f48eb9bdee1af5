// One MCP server over stdio pipes, driven by the real v2 client (@modelcontextprotocol/client, from the root
// workspace). The client spawns the process and runs the initialize handshake; timed requests then go through
// the same connected transport (newline framing, JSON parse, JSON-RPC envelope check) but bypass the client's
// result-schema validation, so what is timed is the server's answer arriving, not the client checking it.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { performance } from 'node:perf_hooks';
import { reap, rssBytes } from './util.mjs';

const REQUEST_TIMEOUT_MS = 60_000;

export class StdioServer {
  /** spec: { command, args, env, cwd } */
  constructor(spec) {
    this.spec = spec;
    this.stderr = '';
    this.pending = new Map();
    this.seq = 0;
  }

  /** Spawns, connects and sends the first tools/list; resolves with the time from spawn to its answer. */
  async start() {
    const { command, args, env, cwd } = this.spec;
    this.transport = new StdioClientTransport({ command, args, env, cwd, stderr: 'pipe' });
    this.transport.stderr?.on('data', (d) => {
      if (this.stderr.length < 64_000) this.stderr += d.toString();
    });
    this.client = new Client({ name: 'forge-bench', version: '1.0.0' });
    const t0 = performance.now();
    await this.client.connect(this.transport);
    this.pid = this.transport.pid;
    const protocolOnMessage = this.transport.onmessage;
    this.transport.onmessage = (msg, extra) => {
      const waiter = msg && typeof msg.id === 'string' ? this.pending.get(msg.id) : undefined;
      if (waiter) {
        this.pending.delete(msg.id);
        waiter(msg);
        return;
      }
      protocolOnMessage?.(msg, extra);
    };
    const list = await this.listTools();
    return { coldMs: performance.now() - t0, list };
  }

  /** A JSON-RPC request through the connected transport; resolves with the whole response message. */
  request(method, params) {
    const id = `bench-${++this.seq}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} timed out after ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, (msg) => {
        clearTimeout(timer);
        resolve(msg);
      });
      this.transport.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }).catch((e) => {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(e);
      });
    });
  }

  /** tools/list, following nextCursor; { ms, tools, bytes, json } where bytes/json are of the result(s). */
  async listTools() {
    const t0 = performance.now();
    const tools = [];
    const parts = [];
    let cursor;
    do {
      const msg = await this.request('tools/list', cursor ? { cursor } : undefined);
      if (msg.error) throw new Error(`tools/list: ${JSON.stringify(msg.error)}`);
      parts.push(msg.result);
      tools.push(...(msg.result.tools ?? []));
      cursor = msg.result.nextCursor;
    } while (cursor);
    const ms = performance.now() - t0;
    const json = parts.map((p) => JSON.stringify(p)).join('\n');
    return { ms, tools, bytes: Buffer.byteLength(json), json, pages: parts.length };
  }

  /** tools/list through the client's own listTools() (with its result validation), for reference. */
  async clientListTools() {
    const t0 = performance.now();
    await this.client.listTools();
    return performance.now() - t0;
  }

  async callTool(name, args) {
    const t0 = performance.now();
    const msg = await this.request('tools/call', { name, arguments: args });
    const ms = performance.now() - t0;
    return { ms, msg };
  }

  rss() {
    return rssBytes(this.pid);
  }

  async close() {
    const pid = this.pid ?? this.transport?.pid;
    try {
      await this.client?.close();
    } catch {
      /* already gone */
    }
    await reap(pid);
  }
}

/** Text of a tools/call answer that failed (JSON-RPC error or isError), else null. */
export function callFailure(msg) {
  if (msg.error) return `JSON-RPC error ${msg.error.code}: ${msg.error.message}`;
  if (msg.result?.isError) {
    const text = (msg.result.content ?? []).map((c) => c.text ?? '').join(' ');
    return `isError: ${text.slice(0, 300)}`;
  }
  return null;
}
