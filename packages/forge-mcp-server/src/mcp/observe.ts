/**
 * Reports every MCP request a server instance answers, on the mcpRequest channels (src/channels.ts), by
 * standing between the SDK and the transport it was given: the dispatch of an inbound request runs inside
 * the channel's stores (so an observer's context reaches the handler and all it does), and the answer, on
 * its way out, ends the request. Requests the server sends to its client (elicitation, sampling) are timed
 * the same way. Only installed when someone listens.
 */
import type { Server, Transport } from '@modelcontextprotocol/server';
import { channels, now, within, type Caller, type McpRequestEvent } from '../channels.js';

type Message = {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code?: number };
};

export interface ObserveInfo {
  transport: 'pipe' | 'tcp';
  surface: string;
  caller?: Caller;
  /** Whether a tool or prompt name is one the server has (telemetry records others as _OTHER). */
  knowsTool: (name: string) => boolean;
  knowsPrompt: (name: string) => boolean;
}

const RESOURCE_METHODS = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe']);

function describe(msg: Message, info: ObserveInfo, transport: Transport): McpRequestEvent {
  const p = msg.params ?? {};
  const method = msg.method ?? '';
  const toolName = method === 'tools/call' && typeof p.name === 'string' ? p.name : undefined;
  const promptName = method === 'prompts/get' && typeof p.name === 'string' ? p.name : undefined;
  return {
    method,
    toolName,
    toolKnown: toolName !== undefined && info.knowsTool(toolName),
    promptName,
    promptKnown: promptName !== undefined && info.knowsPrompt(promptName),
    resourceUri: RESOURCE_METHODS.has(method) && typeof p.uri === 'string' ? p.uri : undefined,
    transport: info.transport,
    surface: info.surface,
    caller: info.caller,
    // Only a stateful transport has a session id.
    sessionId: transport.sessionId,
    start: now(),
  };
}

/** Makes `server` report on the channels from its next connect() on, when anyone listens. */
export function observeServer(server: Server, info: ObserveInfo): void {
  if (!channels.mcpRequest.hasSubscribers) return;
  const connect = server.connect.bind(server);
  server.connect = (transport: Transport) => connect(observed(server, transport, info));
}

function observed(server: Server, inner: Transport, info: ObserveInfo): Transport {
  /** Inbound requests not yet answered, by id. */
  const open = new Map<string | number, McpRequestEvent>();
  /** Requests sent to the client, by id: their method and start. */
  const asked = new Map<string | number, { method: string; start: number }>();

  /** The request an answer ends, its outcome filled in (timed before the answer goes out). */
  const finish = (msg: Message): McpRequestEvent | undefined => {
    const event = msg.id !== undefined ? open.get(msg.id) : undefined;
    if (!event) return undefined;
    open.delete(msg.id!);
    event.end = now();
    event.protocolVersion = server.getNegotiatedProtocolVersion();
    if (msg.error) event.errorCode = typeof msg.error.code === 'number' ? msg.error.code : -32603;
    else if (event.method === 'tools/call' && msg.result?.isError === true) event.toolError = true;
    return event;
  };

  const answered = (msg: Message) => {
    const q = msg.id !== undefined ? asked.get(msg.id) : undefined;
    if (!q) return;
    asked.delete(msg.id!);
    channels.mcpClientOperation.publish({
      method: q.method,
      transport: info.transport,
      errorCode: msg.error ? (msg.error.code ?? -32603) : undefined,
      ms: now() - q.start,
    });
  };

  const send = (msg: Message, options?: unknown) => {
    if (msg.method !== undefined) {
      if (msg.id !== undefined) asked.set(msg.id, { method: msg.method, start: now() });
      return inner.send(msg as never, options as never);
    }
    const ended = finish(msg);
    // The answer is handed to the transport first: what observers do at the end (a span ended, a batch
    // of them serialised) is not paid by the client waiting for it.
    try {
      return inner.send(msg as never, options as never);
    } finally {
      if (ended) channels.mcpRequestEnd.publish(ended);
    }
  };
  /** The transport's own methods, bound once. */
  const bound = new Map<string | symbol, unknown>();
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'send') return send;
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      let fn = bound.get(prop) as { raw: unknown; fn: unknown } | undefined;
      if (!fn || fn.raw !== value)
        bound.set(prop, (fn = { raw: value, fn: (value as (...a: unknown[]) => unknown).bind(target) }));
      return fn.fn;
    },
    set(target, prop, value: unknown) {
      if (prop === 'onmessage' && typeof value === 'function') {
        const dispatch = value as (msg: Message, extra?: unknown) => void;
        target.onmessage = ((msg: Message, extra?: unknown) => {
          if (msg.method !== undefined && msg.id !== undefined) {
            const event = describe(msg, info, target);
            open.set(msg.id, event);
            return within(
              channels.mcpRequest,
              () => event,
              () => dispatch(msg, extra),
            );
          }
          if (msg.method === undefined) answered(msg);
          return dispatch(msg, extra);
        }) as never;
        return true;
      }
      return Reflect.set(target, prop, value);
    },
  });
}
