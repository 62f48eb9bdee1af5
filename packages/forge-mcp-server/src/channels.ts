/**
 * What the core reports about itself, on node:diagnostics_channel. The core publishes; observers (logs,
 * telemetry) subscribe. The core never imports an observer, a channel without subscribers costs one
 * boolean check (`hasSubscribers`), and with telemetry off nothing of it loads.
 *
 * Payloads carry no secret: never a token, a credential header, tool arguments or results, or a full URL.
 * A credential is named only by its pool key (a SHA-256 digest of instance and token), and observers that
 * export must drop even that. Caller identity (user id and name) travels raw: an observer that exports
 * applies the identity policy before anything leaves the process.
 *
 * Two channels span a stretch of work rather than mark a moment (mcpRequest, httpRequest): the core runs
 * that work inside `channel.runStores(payload, fn)`, so an observer that binds a store to the channel
 * (`bindStore`) sees its own context in everything the work does (instance calls, log records), and
 * learns of the end on the matching end event or on the response's own events.
 */
import { channel, type Channel } from 'node:diagnostics_channel';

/**
 * Milliseconds on the process's monotonic clock: the start and end stamps published here, and the core's
 * durations. (Node's `performance` global loads perf_hooks, which a start would compile for one clock.)
 */
export function now(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** The caller a request runs for (raw; exporters apply the identity policy). */
export interface Caller {
  id?: number;
  username?: string;
}

/** One MCP tool call, after its answer. */
export interface ToolCallEvent {
  tool: string;
  action?: string;
  isError: boolean;
  /** Why the server refused it before anything was sent (safe_mode, needs_confirmation, ...). */
  refusal?: string;
  ms: number;
}

/**
 * One MCP request from its arrival to its answer. The same object is published at the start (with
 * runStores around the dispatch) and at the end (mcpRequestEnd), where the outcome fields are filled in.
 */
export interface McpRequestEvent {
  method: string;
  /** tools/call's tool name, as sent. */
  toolName?: string;
  /** The tool name is one of the surface's own (any other is recorded as _OTHER). */
  toolKnown?: boolean;
  /** prompts/get's prompt name, as sent. */
  promptName?: string;
  /** The prompt name is one the server offers (any other is recorded as _OTHER). */
  promptKnown?: boolean;
  /** The resource a resources/* request names (resources/read, subscribe, unsubscribe), as sent. */
  resourceUri?: string;
  /** 'pipe' on stdio, 'tcp' over HTTP. */
  transport: 'pipe' | 'tcp';
  /** The tool surface the session serves (dynamic, meta, individual). */
  surface: string;
  caller?: Caller;
  /** Set only for stateful sessions. */
  sessionId?: string;
  /** now() at arrival. */
  start: number;
  // ---- filled in at the end
  protocolVersion?: string;
  /** The JSON-RPC error code of an error answer. */
  errorCode?: number;
  /** A tools/call answered with a result whose isError is true. */
  toolError?: boolean;
  /** The canonical action a tool call resolved to. */
  action?: string;
  refusal?: string;
  /** now() at the answer. */
  end?: number;
}

/** A request this server sent to its MCP client (elicitation, sampling, roots), after the answer. */
export interface McpClientOperationEvent {
  method: string;
  transport: 'pipe' | 'tcp';
  /** The JSON-RPC error code of an error answer. */
  errorCode?: number;
  ms: number;
}

/** An MCP request refused at the HTTP door before any MCP handler saw it (rate limit). */
export interface McpRefusedEvent {
  method: string;
  toolName?: string;
  /** The tool name is one of the surface's own. */
  toolKnown: boolean;
  refusal: 'rate_limited';
  errorCode: number;
  surface: string;
  /** 'pipe' on stdio, 'tcp' over HTTP. */
  transport: 'pipe' | 'tcp';
  /** The stateful session the request named, when it is the caller's own. */
  sessionId?: string;
}

/** One HTTP exchange with the instance (each redirect hop is one), after its answer or failure. */
export interface InstanceCallEvent {
  method: string;
  host: string;
  port: number;
  scheme: 'http' | 'https';
  status?: number;
  /** The route template (`/api/v4/projects/{id}/issues`) when the request was built from one; never the URL. */
  template?: string;
  /** A failure that left no status: a short class (timeout, network, refused). */
  errorType?: string;
  /** Date.now() when sent. */
  startTime: number;
  ms: number;
}

/** An inbound HTTP request (HTTP mode); runStores wraps all of its handling, host checks included. */
export interface HttpRequestEvent {
  req: import('node:http').IncomingMessage;
  res: import('node:http').ServerResponse;
  scheme: 'http' | 'https';
}

/** An address blocked by the authentication budgets (HTTP mode). */
export interface AuthBlockEvent {
  reason: 'failure_lockout' | 'distinct_tokens' | 'transport_source';
}

/** The credential pool's size after a change (HTTP mode). */
export interface PoolStateEvent {
  entries: number;
  capacity: number;
}

/** A stateful MCP session ended (a stdio connection, a stateful HTTP session). */
export interface SessionEndEvent {
  transport: 'pipe' | 'tcp';
  protocolVersion?: string;
  ms: number;
}

/** A credential pool entry left the pool (HTTP mode). Entries dropped at shutdown are not published. */
export interface PoolEvictEvent {
  reason:
    | 'size_pressure'
    | 'size_pressure_busy'
    | 'idle'
    | 'stale_credential'
    | 'rejected_credential'
    | 'invalid_credential'
    | 'below_minimum'
    | 'rebuild';
  /** Digest of instance and token: the pool key, never the token. */
  key: string;
  /** The entry was serving a subscription when it was dropped. */
  inUse: boolean;
}

function named<T>(name: string): Channel<T, unknown> {
  return channel(name) as Channel<T, unknown>;
}

/** Every channel the core publishes on; add new ones here, with their payload type. */
export const channels = {
  toolCall: named<ToolCallEvent>('forge-mcp:tool-call'),
  poolEvict: named<PoolEvictEvent>('forge-mcp:pool-evict'),
  poolState: named<PoolStateEvent>('forge-mcp:pool-state'),
  mcpRequest: named<McpRequestEvent>('forge-mcp:mcp-request'),
  mcpRequestEnd: named<McpRequestEvent>('forge-mcp:mcp-request-end'),
  mcpRefused: named<McpRefusedEvent>('forge-mcp:mcp-refused'),
  mcpClientOperation: named<McpClientOperationEvent>('forge-mcp:mcp-client-operation'),
  instanceCall: named<InstanceCallEvent>('forge-mcp:instance-call'),
  httpRequest: named<HttpRequestEvent>('forge-mcp:http-request'),
  authBlock: named<AuthBlockEvent>('forge-mcp:auth-block'),
  sessionEnd: named<SessionEndEvent>('forge-mcp:session-end'),
};

/** Publishes only when someone listens, so building the payload costs nothing otherwise. */
export function publish<T>(ch: Channel<T, unknown>, make: () => T): void {
  if (ch.hasSubscribers) ch.publish(make());
}

/**
 * Runs `fn` as the stretch of work `make()` describes: inside the channel's bound stores when someone
 * listens, as a plain call otherwise.
 */
export function within<T, R>(ch: Channel<T, unknown>, make: () => T, fn: () => R): R {
  if (!ch.hasSubscribers) return fn();
  return ch.runStores(make(), fn);
}
