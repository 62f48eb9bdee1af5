/**
 * 2025-era (legacy) stateless requests answered by servers that stay connected between them. The SDK's
 * legacy serving builds, per request, a web Request from the node one, a Streamable HTTP transport, an event
 * stream and a second stream watching it, and closes the transport again; for one request whose answer leaves
 * nothing behind, that machinery cost more CPU than the call itself. Here a credential's server stays
 * connected to a transport of this file, which hands each request's message to the server (the SDK's own
 * dispatch, validation and handlers) and writes what the server sends for it to the request's response, as
 * the event stream the SDK would have written: the same status, headers and `event: message` events, a
 * keep-alive comment every 25 s while the call runs.
 *
 * Only a request the SDK would serve so is taken (eligible): a POST classified legacy by the SDK's own
 * classifier as one JSON-RPC request without a protocol claim, of a method that leaves no server state
 * (kept.ts's list), whose Content-Type is JSON, whose Accept takes both JSON and an event stream, and whose
 * MCP-Protocol-Version header, if any, is one the SDK supports. Anything else (initialize, notifications,
 * batches, modern requests, every request the SDK answers with an error of its own) goes through the SDK as
 * before. A client gone before its answer closes the server (the SDK aborts the call as it would), and the
 * server is let go; only a server whose exchange was answered in full comes back. Servers are kept per pool
 * entry like kept.ts's: at most MAX_KEPT_PER_CREDENTIAL idle per credential, and MAX_KEPT_SERVERS in all
 * with kept.ts's (one IdleBudget), the least recently kept going first (kept.ts's IdleServers); an evicted
 * entry's servers go with it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  classifyInboundRequest,
  isJsonContentType,
  SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo,
  type JSONRPCMessage,
  type Server,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { channels } from '../channels.js';
import type { Session } from '../session/index.js';
import { KEEP_ALIVE_MS } from '../subscriptions/index.js';
import {
  IdleBudget,
  IdleServers,
  MAX_KEPT_PER_CREDENTIAL,
  MAX_KEPT_SERVERS,
  STATELESS_METHODS,
  type IdleEntry,
} from './kept.js';

/** The headers of the SDK's event-stream answer to a POST. */
const EVENT_STREAM_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

type Id = string | number;
type Message = { id?: unknown; result?: unknown; error?: unknown };

/** The request a held server answers now. */
interface Exchange {
  id: Id;
  res: ServerResponse;
  keepAlive?: NodeJS.Timeout;
  done: (answered: boolean) => void;
}

/** A transport that stays connected: each exchange's messages go to its response as events. */
class HeldTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  exchange?: Exchange;

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const x = this.exchange;
    const m = message as Message;
    // What belongs to no request being answered has nowhere to go (as with the SDK's stateless serving).
    if (!x || (m.id !== x.id && options?.relatedRequestId !== x.id)) return;
    const event = `event: message\ndata: ${JSON.stringify(message)}\n\n`;
    if (m.id === x.id && ('result' in m || 'error' in m)) {
      this.end(x);
      x.res.end(event);
      x.done(true);
    } else x.res.write(event);
  }

  /** Opens `x`'s event stream and hands its message to the server. */
  begin(x: Exchange, message: JSONRPCMessage, authInfo: AuthInfo): void {
    this.exchange = x;
    x.res.writeHead(200, EVENT_STREAM_HEADERS);
    x.keepAlive = setInterval(() => x.res.write(': keepalive\n\n'), KEEP_ALIVE_MS);
    x.keepAlive.unref();
    this.onmessage?.(message, { authInfo });
  }

  end(x: Exchange): void {
    clearInterval(x.keepAlive);
    if (this.exchange === x) this.exchange = undefined;
  }

  async close(): Promise<void> {
    const x = this.exchange;
    if (x) this.end(x);
    this.onclose?.();
    x?.done(false);
  }
}

interface Held extends IdleEntry {
  server: Server;
  transport: HeldTransport;
}

export class HeldServers {
  private readonly idle: IdleServers<Held>;

  constructor(
    /** Builds a session's server (registering its catalog); what it throws reaches the caller of serve(). */
    private readonly build: (session: Session) => Server,
    /** The session the credential pool holds for a key now (a server of any other is not kept). */
    current: (key: string) => Session | undefined,
    /** The bound shared with the other stores of idle servers (kept.ts's). */
    budget = new IdleBudget(),
  ) {
    this.idle = new IdleServers(current, MAX_KEPT_SERVERS, MAX_KEPT_PER_CREDENTIAL, budget);
  }

  /** Whether this request is one a held server answers as the SDK's legacy serving would. */
  takes(req: IncomingMessage, parsed: unknown): boolean {
    const m = parsed as { method?: unknown } | undefined;
    if (req.method !== 'POST' || typeof m?.method !== 'string' || !STATELESS_METHODS.has(m.method))
      return false;
    const accept = req.headers.accept;
    if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return false;
    if (!isJsonContentType(req.headers['content-type'])) return false;
    const version = req.headers['mcp-protocol-version'];
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version as string)) return false;
    const route = classifyInboundRequest({
      httpMethod: 'POST',
      body: parsed,
      protocolVersionHeader: version as string | undefined,
      mcpMethodHeader: req.headers['mcp-method'] as string | undefined,
      mcpNameHeader: req.headers['mcp-name'] as string | undefined,
    });
    return route.kind === 'legacy' && route.reason === 'no-claim';
  }

  /** Answers a request takes() accepted, on an idle server of `session` or a new one. */
  async serve(key: string, session: Session, res: ServerResponse, parsed: unknown, authInfo: AuthInfo) {
    // Gone already: nothing is served (as the SDK's adapter aborts at once).
    if (res.destroyed) return;
    const held = this.idle.take(key, session) ?? (await this.connect(key, session));
    const answered = await new Promise<boolean>((done) => {
      const x: Exchange = { id: (parsed as { id: Id }).id, res, done };
      // The client went away before its answer: the SDK's teardown, which aborts the call.
      res.once('close', () => {
        if (held.transport.exchange === x) void held.server.close().catch(() => undefined);
      });
      held.transport.begin(x, parsed as JSONRPCMessage, authInfo);
    });
    if (answered) this.idle.keep(held);
  }

  /** The credential's pool entry ended: its idle servers go with it. */
  forget(key: string): void {
    this.idle.forget(key);
  }

  private async connect(key: string, session: Session): Promise<Held> {
    const observed = channels.mcpRequest.hasSubscribers;
    const server = this.build(session);
    const transport = new HeldTransport();
    await server.connect(transport);
    return { server, transport, key, session, observed };
  }
}
