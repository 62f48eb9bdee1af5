/**
 * Turns the core's channel events into spans and metrics. An MCP request is one SERVER span (a child of
 * the HTTP server span in HTTP mode); each instance call a CLIENT span under it; in HTTP mode every
 * inbound request a SERVER span opened before the host checks. Metrics carry no caller identity, ever;
 * tool and prompt names the server does not know are recorded as _OTHER.
 *
 * Never recorded: tool arguments or results, resource contents, tokens or headers, response bodies and
 * error messages, full URLs, jsonrpc.request.id. An observer never throws into the core: every handler is
 * guarded, since a diagnostics channel would rethrow a subscriber's error as an uncaught exception.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Channel } from 'node:diagnostics_channel';
import {
  createContextKey,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import {
  channels,
  now,
  type HttpRequestEvent,
  type McpRefusedEvent,
  type McpRequestEvent,
  type ToolCallEvent,
} from '../channels.js';
import type { Config } from '../config/types.js';
import type { StoreContextManager } from './context.js';
import type { IdentityPolicy } from './identity.js';
import type { Providers } from './providers.js';

/** The six refusal reasons the spec names; the server's other refusal labels are not recorded. */
const REFUSAL_REASONS = new Set([
  'safe_mode',
  'needs_confirmation',
  'invalid_params',
  'unknown_action',
  'rate_limited',
  'fine_grained',
]);

const HTTP_METHODS = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'CONNECT',
  'OPTIONS',
  'TRACE',
  'PATCH',
]);

/** Bucket boundaries in seconds, as the semantic conventions advise: the MCP ones for mcp.*, the HTTP ones for http.*. */
const MCP_SECONDS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
const HTTP_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

const OTHER = '_OTHER';

/** The MCP request a context belongs to (tool calls annotate it). */
const REQUEST = createContextKey('forge-mcp-server mcp request');

export interface ObserveOptions {
  config: Config;
  providers: Providers;
  contexts: StoreContextManager;
  identity: IdentityPolicy;
}

/** A handler that can never throw back into the publisher. */
function guarded<T>(fn: (event: T) => void): (event: unknown) => void {
  return (event) => {
    try {
      fn(event as T);
    } catch {
      /* telemetry never disturbs the work it observes */
    }
  };
}

/** Subscribes to every channel; returns the unsubscription. */
export function observe(o: ObserveOptions): () => void {
  const { config, providers, contexts, identity } = o;
  const { tracer, meter } = providers;
  const toolNames = config.telemetryToolName;
  const channelsOn: Array<[Channel<never, unknown>, (e: unknown) => void]> = [];

  const histogram = (name: string, description: string) =>
    meter.createHistogram(name, {
      unit: 's',
      description,
      advice: { explicitBucketBoundaries: name.startsWith('mcp.') ? MCP_SECONDS : HTTP_SECONDS },
    });
  const serverOperation = histogram('mcp.server.operation.duration', 'MCP requests served, by method');
  const clientOperation = histogram(
    'mcp.client.operation.duration',
    'MCP requests this server sent to its client (elicitation, sampling, roots)',
  );
  const sessionDuration = histogram('mcp.server.session.duration', 'Stateful MCP sessions, start to end');
  const clientRequest = histogram('http.client.request.duration', 'HTTP requests to the instance');
  const serverRequest = histogram('http.server.request.duration', 'HTTP requests served (HTTP mode)');
  const evictions = meter.createCounter('forge_mcp.credential_pool.evictions', {
    unit: '{entry}',
    description: 'Credential pool entries dropped, by reason (shutdown not counted)',
  });
  const authBlocks = meter.createCounter('forge_mcp.auth.blocks', {
    unit: '{block}',
    description: 'Client addresses blocked by the authentication budgets, by reason',
  });
  if (config.transport === 'http') {
    let entries = 0;
    channelsOn.push([
      channels.poolState as Channel<never, unknown>,
      guarded<{ entries: number }>((e) => (entries = e.entries)),
    ]);
    meter
      .createObservableGauge('forge_mcp.credential_pool.entries', {
        unit: '{entry}',
        description: 'Credentials held in the pool',
      })
      .addCallback((r) => r.observe(entries));
    meter
      .createObservableGauge('forge_mcp.credential_pool.capacity', {
        unit: '{entry}',
        description: 'Most credentials the pool holds (--max-http-clients)',
      })
      .addCallback((r) => r.observe(config.maxHttpClients));
  }

  const spans = new WeakMap<object, Span>();
  /** Tool calls seen within each request: the action they resolved to and why they were refused. */
  const calls = new WeakMap<McpRequestEvent, ToolCallEvent>();

  /** gen_ai.tool.name / gen_ai.prompt.name as recorded: off drops them, unknown names are _OTHER. */
  const nameOf = (name: string | undefined, known: boolean, onSpan: boolean): string | undefined => {
    if (name === undefined || toolNames === 'off') return undefined;
    if (known) return name;
    return onSpan && toolNames === 'on' ? name : OTHER;
  };

  /** What an MCP request records on both its span and its metric. */
  const requestAttributes = (e: McpRequestEvent, onSpan: boolean): Attributes => {
    const call = calls.get(e);
    const failed = e.errorCode !== undefined;
    const attrs: Attributes = {
      'mcp.method.name': e.method,
      'network.transport': e.transport,
      'forge_mcp.tool_surface': e.surface,
    };
    const tool = nameOf(e.toolName, e.toolKnown === true, onSpan);
    if (tool !== undefined) attrs['gen_ai.tool.name'] = tool;
    const prompt = nameOf(e.promptName, e.promptKnown === true, onSpan);
    if (prompt !== undefined) attrs['gen_ai.prompt.name'] = prompt;
    if (e.protocolVersion) attrs['mcp.protocol.version'] = e.protocolVersion;
    if (call?.action) {
      attrs['forge_mcp.action'] = call.action;
      const dot = call.action.indexOf('.');
      attrs['forge_mcp.domain'] = dot < 0 ? call.action : call.action.slice(0, dot);
    }
    const refusal = call?.refusal ?? e.refusal;
    if (refusal && REFUSAL_REASONS.has(refusal)) attrs['forge_mcp.refusal_reason'] = refusal;
    if (failed) {
      attrs['error.type'] = String(e.errorCode);
      attrs['rpc.response.status_code'] = String(e.errorCode);
    } else if (e.toolError) attrs['error.type'] = 'tool_error';
    return attrs;
  };

  // ---------------------------------------------------------------- MCP requests
  const onRequestStart = (e: McpRequestEvent): Context => {
    const parent = contexts.active();
    // Attributes are set once, at the end, when the outcome is known.
    const span = tracer.startSpan(e.method, { kind: SpanKind.SERVER }, parent);
    spans.set(e, span);
    return trace.setSpan(parent, span).setValue(REQUEST, e);
  };
  const onRequestEnd = (e: McpRequestEvent) => {
    const span = spans.get(e);
    const measured = requestAttributes(e, false);
    serverOperation.record(((e.end ?? now()) - e.start) / 1000, measured);
    if (!span) return;
    // The span copies what it is given (the metric keeps its object unchanged). Only `on` records an
    // unknown name as sent, and only on the span; identity goes on the span, never on the metric.
    const attrs = toolNames === 'on' ? requestAttributes(e, true) : measured;
    span.setAttributes(attrs);
    if (e.sessionId) span.setAttribute('mcp.session.id', e.sessionId);
    if (e.caller) span.setAttributes(identity.caller(e.caller));
    if (e.resourceUri) span.setAttributes(identity.resource(e.resourceUri));
    const target = attrs['gen_ai.tool.name'] ?? attrs['gen_ai.prompt.name'];
    if (target !== undefined) span.updateName(`${e.method} ${String(target)}`);
    if (e.errorCode !== undefined || e.toolError) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  const onToolCall = (c: ToolCallEvent) => {
    const e = contexts.active().getValue(REQUEST) as McpRequestEvent | undefined;
    if (e) calls.set(e, c);
  };
  const onRefused = (r: McpRefusedEvent) => {
    const at = now();
    const e: McpRequestEvent = {
      method: r.method,
      toolName: r.toolName,
      toolKnown: r.toolKnown,
      transport: r.transport,
      surface: r.surface,
      sessionId: r.sessionId,
      start: at,
      end: at,
      errorCode: r.errorCode,
      refusal: r.refusal,
    };
    onRequestStart(e);
    onRequestEnd(e);
  };

  // ---------------------------------------------------------------- instance calls
  const onInstanceCall = (c: {
    method: string;
    host: string;
    port: number;
    status?: number;
    template?: string;
    errorType?: string;
    startTime: number;
    ms: number;
  }) => {
    const method = HTTP_METHODS.has(c.method) ? c.method : OTHER;
    const attrs: Attributes = {
      'http.request.method': method,
      'server.address': c.host,
      'server.port': c.port,
    };
    if (c.status !== undefined) attrs['http.response.status_code'] = c.status;
    if (c.template) attrs['url.template'] = c.template;
    const errorType =
      c.errorType ?? (c.status !== undefined && c.status >= 400 ? String(c.status) : undefined);
    if (errorType) attrs['error.type'] = errorType;
    clientRequest.record(c.ms / 1000, attrs);
    const span = tracer.startSpan(
      c.template ? `${method} ${c.template}` : method,
      { kind: SpanKind.CLIENT, startTime: c.startTime },
      contexts.active(),
    );
    // Set on the span rather than given to startSpan, which copies and checks them twice more for the
    // sampler (the OTEL_TRACES_SAMPLER samplers do not read attributes).
    span.setAttributes(attrs);
    if (errorType) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end(c.startTime + c.ms);
  };

  // ---------------------------------------------------------------- HTTP server requests
  const onHttpStart = (h: HttpRequestEvent): Context => {
    const parent = contexts.active();
    const method = HTTP_METHODS.has(h.req.method ?? '') ? h.req.method! : OTHER;
    const began = now();
    const span = tracer.startSpan(
      method === OTHER ? 'HTTP' : method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': method,
          'url.scheme': h.scheme,
          'network.protocol.name': 'http',
          'network.protocol.version': h.req.httpVersion,
        },
      },
      parent,
    );
    finishWith(h.req, h.res, () => {
      const status = h.res.statusCode;
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) {
        span.setAttribute('error.type', String(status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
      serverRequest.record((now() - began) / 1000, {
        'http.request.method': method,
        'url.scheme': h.scheme,
        'network.protocol.name': 'http',
        'http.response.status_code': status,
        ...(status >= 500 ? { 'error.type': String(status) } : {}),
      });
    });
    return trace.setSpan(parent, span);
  };

  // ---------------------------------------------------------------- bindings
  const store = contexts.store;
  const guardedStart =
    <T>(fn: (e: T) => Context) =>
    (e: unknown): Context => {
      try {
        return fn(e as T);
      } catch {
        return contexts.active();
      }
    };
  const requestStore = channels.mcpRequest as unknown as Channel<Context, McpRequestEvent>;
  const httpStore = channels.httpRequest as unknown as Channel<Context, HttpRequestEvent>;
  requestStore.bindStore(store, guardedStart(onRequestStart));
  httpStore.bindStore(store, guardedStart(onHttpStart));
  channelsOn.push(
    // bindStore does the work at the start; a subscription keeps the channel live (hasSubscribers).
    [channels.mcpRequest as Channel<never, unknown>, () => {}],
    [channels.httpRequest as Channel<never, unknown>, () => {}],
    [channels.mcpRequestEnd as Channel<never, unknown>, guarded(onRequestEnd)],
    [channels.toolCall as Channel<never, unknown>, guarded(onToolCall)],
    [channels.mcpRefused as Channel<never, unknown>, guarded(onRefused)],
    [channels.instanceCall as Channel<never, unknown>, guarded(onInstanceCall)],
    [
      channels.mcpClientOperation as Channel<never, unknown>,
      guarded<{ method: string; transport: string; errorCode?: number; ms: number }>((c) =>
        clientOperation.record(c.ms / 1000, {
          'mcp.method.name': c.method,
          'network.transport': c.transport,
          ...(c.errorCode !== undefined ? { 'error.type': String(c.errorCode) } : {}),
        }),
      ),
    ],
    [
      channels.sessionEnd as Channel<never, unknown>,
      guarded<{ transport: string; protocolVersion?: string; ms: number }>((s) =>
        sessionDuration.record(s.ms / 1000, {
          'network.transport': s.transport,
          ...(s.protocolVersion ? { 'mcp.protocol.version': s.protocolVersion } : {}),
        }),
      ),
    ],
    [
      channels.poolEvict as Channel<never, unknown>,
      guarded<{ reason: string }>((e) => evictions.add(1, { reason: e.reason })),
    ],
    [
      channels.authBlock as Channel<never, unknown>,
      guarded<{ reason: string }>((e) => authBlocks.add(1, { reason: e.reason })),
    ],
  );
  for (const [ch, fn] of channelsOn) ch.subscribe(fn);
  return () => {
    for (const [ch, fn] of channelsOn) ch.unsubscribe(fn);
    requestStore.unbindStore(store);
    httpStore.unbindStore(store);
  };
}

/** Calls `done` once, when the response has been sent or the connection went away first. */
function finishWith(req: IncomingMessage, res: ServerResponse, done: () => void): void {
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    try {
      done();
    } catch {
      /* never disturbs the response */
    }
  };
  res.once('finish', once);
  res.once('close', once);
  req.once('aborted', once);
}
