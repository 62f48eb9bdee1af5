/**
 * The only room that talks to the instance: REST and GraphQL over one undici dispatcher. Redirects are
 * followed by hand so credential headers can be dropped; every failure leaves as a classified
 * InstanceError.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { SecureContext } from 'node:tls';
import { EnvHttpProxyAgent, Pool, buildConnector, type Dispatcher } from 'undici';
import {
  InstanceError,
  bodyWithoutCredentials,
  causeOf,
  TOKEN_REFUSED,
  classificationFor,
  instanceMessageOf,
  joinCapped,
  statusLine,
  withoutCredentials,
} from './errors.js';
import {
  guardedConnector,
  literalRefusal,
  refusalError,
  refusalIn,
  type DestinationRefused,
} from './guard.js';
import { channels, now, publish } from '../channels.js';
import { holdsSecrets, urlPassword } from '../secrets.js';

export interface ClientOptions {
  /** The instance's base URL, e.g. https://gitlab.example.com (no trailing slash). */
  baseUrl: string;
  token: string;
  /** Send the token as PRIVATE-TOKEN (default) or as a Bearer token (OAuth access tokens). */
  tokenHeader?: 'private-token' | 'bearer';
  /** How error texts name the token: 'FORGE_TOKEN' on stdio, the presented header over HTTP. */
  tokenLabel: string;
  /** The action deadline (FORGE_MCP_ACTION_TIMEOUT, ms): how long one action may run in all; 0 disables. */
  timeoutMs: number;
  skipTlsVerify?: boolean;
  dispatcher?: Dispatcher;
  userAgent?: string;
  /**
   * Longest total of Retry-After waits honoured before a 429 is reported (ms): the answer must reach the
   * client before its own request timeout (60 s in the MCP SDKs), or the model sees a timeout instead.
   */
  maxRetryWaitMs?: number;
  /**
   * The operator chose this instance (it is named in FORGE_URL). Private addresses are then allowed for
   * its own host; a redirect hop leaving that host is judged like any destination nobody chose. False
   * for an instance a caller named (FORGE-URL under --allow-any-forge-url). Defaults to true.
   */
  operatorChosen?: boolean;
  /** allow-private-instances: destinations nobody chose may reach private ranges too. */
  allowPrivateInstances?: boolean;
}

export interface RestInit {
  query?: Record<string, unknown>;
  body?: unknown;
  form?: FormData;
  /**
   * A body sent as is, byte for byte, with its own content type and a Content-Length (for routes that
   * take the file itself as the request body, like a generic package upload). Wins over form and body.
   */
  raw?: { bytes: Buffer; contentType: string };
  response?: 'json' | 'text' | 'binary';
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** The route template the path was built from (`/projects/:id/issues`), for observers; never the path. */
  template?: string;
  /** A credential's verification: a redirect leaving the instance's own host is not followed. */
  stayOnHost?: boolean;
  /**
   * When the action this request is part of must end (a Date.now() time, from deadlineFromNow; 0: never): the
   * request gets only the time left. Without it the request is an action of its own.
   */
  due?: number;
}

export interface InstanceResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /**
   * The body's UTF-8 text as received (absent for a binary answer), e.g. to show a JSON answer without
   * re-serialising it. A body that is an object or array was read by JSON.parse from this very string.
   */
  text?: string;
  /** The bytes `text` was decoded from (a byte order mark left out), e.g. to send them on as they came. */
  bytes?: Buffer;
  /** The request as sent, for causes and resource URIs. */
  method: string;
  url: string;
}

/** What a request carries: JSON text, a multipart form, or raw bytes. */
type RequestBody = string | FormData | Buffer;

/** Routes whose credential must travel as a Bearer token. */
const BEARER_ONLY_ROUTE = /\/api\/v4\/projects\/[^/]+\/packages\/ml_models\//;
const CREDENTIAL_HEADERS = ['private-token', 'authorization', 'sudo', 'job-token', 'deploy-token'];
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_HOPS = 10;

/**
 * The largest answer read from the instance. Answers are held in memory, and V8 cannot make a string of
 * much more than this anyway; a larger one is cut off by undici and reported, never read to exhaustion.
 */
export const MAX_RESPONSE_BYTES = 512 * 1024 * 1024;

/**
 * How connections are made for one TLS posture and guard posture: through the proxy agent when
 * HTTP(S)_PROXY is set, else through one connection pool per origin, every connection dialed by the
 * guard (metadata addresses always refused, private ranges too when `tierB`). Proxied connections are
 * dialed by the proxy (the client judges IP-literal targets). Shared by every session (connection pooling).
 */
interface Posture {
  proxy?: Dispatcher;
  poolOptions: Pool.Options;
  pools: Map<string, Pool>;
}

/**
 * The proxy variables, in the order the runtime's proxy agent reads them: lower case first, an https URL's
 * (the first two) before the http proxy it falls back to (the last two).
 */
const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'];
// A proxy URL's password (the runtime's proxy agent holds it) is a secret the heap snapshot masks.
holdsSecrets(() => PROXY_VARIABLES.flatMap((v) => urlPassword(process.env[v])));

let postures = new Map<string, Posture>();

/**
 * One posture per origin scheme too: an http origin's connections are TLS only through an https proxy, so the
 * certificate authorities (node:tls and SSL_CERT_FILE) are read for an https origin's posture, or a proxied one
 * when a proxy variable names an https proxy, and never for an http instance reached directly.
 */
function postureFor(skipTlsVerify: boolean, tierB: boolean, origin: string): Posture {
  const secure = origin.startsWith('https:');
  const key = `${skipTlsVerify ? 'insecure' : 'verify'}:${tierB ? 'AB' : 'A'}:${secure ? 'https' : 'http'}`;
  let p = postures.get(key);
  if (!p) {
    const proxied = PROXY_VARIABLES.some((v) => process.env[v]);
    const ca = secure || (proxied && httpsProxySet()) ? extraCa() : undefined;
    const tls = { rejectUnauthorized: !skipTlsVerify, ...ca };
    const connect = guardedConnector(tierB, tls);
    p = {
      proxy: proxied
        ? new EnvHttpProxyAgent({
            connect,
            requestTls: tls,
            maxResponseSize: MAX_RESPONSE_BYTES,
            // Every instance, http:// too, is reached through a tunnel (CONNECT): what the proxy answers is
            // then its own, never mistaken for the instance's status.
            proxyTunnel: true,
            // An https proxy's certificate is verified against SSL_CERT_FILE's authorities too (always
            // verified: skip-TLS-verify is for the instance). Not through proxyTls, which would make a SOCKS
            // proxy's connection TLS.
            clientFactory: (origin: string | URL, opts: Pool.Options) =>
              tunnelClient(origin, ca ? { ...opts, connect: buildConnector(ca) } : opts),
          } as ConstructorParameters<typeof EnvHttpProxyAgent>[0])
        : undefined,
      poolOptions: {
        connect,
        keepAliveTimeout: 30_000,
        connections: 64,
        maxResponseSize: MAX_RESPONSE_BYTES,
      },
      pools: new Map(),
    };
    postures.set(key, p);
  }
  return p;
}

/**
 * A proxy's answer to the tunnel (CONNECT) asked of it, when it was not the tunnel: its status, or none when it
 * closed the connection without answering.
 */
class TunnelRefused extends Error {
  readonly code = 'FORGE_PROXY_TUNNEL';
  constructor(
    readonly status: number | undefined,
    cause?: unknown,
  ) {
    super(status ? `proxy answered ${status} to the tunnel` : 'proxy closed the connection', { cause });
  }
}

/** A TLS failure code (an unverifiable certificate, a name it does not cover, a handshake that failed). */
const TLS_FAILURE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/;

/** The TLS handshake with an https proxy failed: the proxy's, not the instance's. */
class ProxyTlsFailed extends Error {
  readonly code = 'FORGE_PROXY_TLS';
  constructor(
    readonly tlsCode: string,
    cause: unknown,
  ) {
    super(`TLS handshake with the proxy failed (${tlsCode})`, { cause });
  }
}

/**
 * The connection to the proxy that the proxy agent asks its tunnels of. A refused tunnel is reported with the
 * proxy's status; a proxy closing the connection without answering is reported as such, not as a socket error,
 * which the agent would take for a connection to try again at once and ask the proxy again without end. An https
 * proxy named by its IP address is greeted with no TLS server name: the agent gives its host as one, which TLS
 * does not allow for an address (Node warns, DEP0123); its certificate is still checked against the address.
 */
function tunnelClient(origin: string | URL, opts: Pool.Options): Pool {
  const pool = new Pool(origin, opts);
  const connect = pool.connect.bind(pool) as (
    o: Dispatcher.ConnectOptions,
  ) => Promise<Dispatcher.ConnectData>;
  const tunnel = async (o: Dispatcher.ConnectOptions): Promise<Dispatcher.ConnectData> => {
    let data: Dispatcher.ConnectData;
    try {
      data = await connect(withoutAddressName(o));
    } catch (err) {
      const code = (err as { code?: string })?.code;
      if (code && TLS_FAILURE.test(code)) throw new ProxyTlsFailed(code, err);
      throw code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE'
        ? new TunnelRefused(undefined, err)
        : err;
    }
    if (data.statusCode === 200) return data;
    data.socket.on('error', () => {}).destroy();
    throw new TunnelRefused(data.statusCode);
  };
  return Object.assign(pool, { connect: tunnel });
}

/** A tunnel's options without a TLS server name that is an IP address (the agent names the proxy's host). */
function withoutAddressName(o: Dispatcher.ConnectOptions): Dispatcher.ConnectOptions {
  const { servername } = o as { servername?: unknown };
  return typeof servername === 'string' && isIP(servername)
    ? ({ ...o, servername: undefined } as Dispatcher.ConnectOptions)
    : o;
}

/**
 * The dispatcher for a request to `origin` (scheme, host and port) under a posture: the proxy agent, or
 * the origin's own pool, dispatched to directly. A pool goes, and is closed, once none of its connections
 * is left (as undici's Agent does with the pools it keeps), so origins called once are not kept.
 */
export function dispatcherFor(skipTlsVerify: boolean, tierB: boolean, origin: string): Dispatcher {
  const p = postureFor(skipTlsVerify, tierB, origin);
  if (p.proxy) return p.proxy;
  const found = p.pools.get(origin);
  if (found) return found;
  const pool = new Pool(origin, p.poolOptions);
  let connected = 0;
  const unused = (wasConnected: boolean): void => {
    if (wasConnected) connected--;
    if (connected > 0 || p.pools.get(origin) !== pool) return;
    p.pools.delete(origin);
    if (!pool.destroyed) void pool.close();
  };
  pool
    .on('connect', () => void connected++)
    .on('disconnect', () => unused(true))
    .on('connectionError', () => unused(false));
  p.pools.set(origin, pool);
  return pool;
}

export async function closeDispatchers(): Promise<void> {
  const all: Dispatcher[] = [];
  for (const p of postures.values()) all.push(...(p.proxy ? [p.proxy] : []), ...p.pools.values());
  postures = new Map();
  await Promise.allSettled(all.map((d) => d.close()));
}

/** A proxy variable naming an https proxy, which every connection through it reaches over TLS. */
function httpsProxySet(): boolean {
  return PROXY_VARIABLES.some((v) => /^\s*https:/i.test(process.env[v] ?? ''));
}

/**
 * SSL_CERT_FILE adds a certificate authority bundle to Node's own roots. The bundle is parsed once, into one TLS
 * context every connection of the posture shares: given as a list of authorities instead, Node parses all of them
 * again (some 150 certificates, tens of milliseconds of CPU) for each new connection.
 */
function extraCa(): { secureContext: SecureContext } | { ca: string[] } | undefined {
  const file = process.env.SSL_CERT_FILE;
  if (!file) return undefined;
  // node:tls is loaded here, for a posture that can connect over TLS: an http instance never needs it.
  const tls = process.getBuiltinModule('node:tls');
  let ca: string[];
  try {
    ca = [...tls.rootCertificates, readFileSync(file, 'utf8')];
  } catch {
    return undefined;
  }
  try {
    return { secureContext: tls.createSecureContext({ ca }) };
  } catch {
    // A bundle the context refuses fails each connection as before, with its own error.
    return { ca };
  }
}

/** Where a hop goes: what the client reads of its URL (a URL satisfies it). */
interface Target {
  readonly origin: string;
  readonly protocol: string;
  readonly host: string;
  readonly hostname: string;
  readonly port: string;
  readonly pathname: string;
  readonly search: string;
}

/** The same host name (any port): a hop there stays at the destination the operator chose. */
function sameHost(instance: Target, next: Target): boolean {
  return instance.hostname.toLowerCase() === next.hostname.toLowerCase();
}

/**
 * A short class for a request that got no answer, in the order its error text is chosen (networkError):
 * canceled (by its caller, also when the deadline has not read the cancel yet), timeout (the deadline fired),
 * refused (the guard), network.
 */
function failureClass(err: unknown, deadline: Deadline, caller: AbortSignal | undefined): string {
  if (caller?.aborted) return 'canceled';
  if (deadline.expired) return 'timeout';
  if (refusalIn(err)) return 'refused';
  return (err as { code?: string }).code ?? 'network';
}

function sameSite(instance: Target, next: Target): boolean {
  const host = instance.hostname.toLowerCase();
  const to = next.hostname.toLowerCase();
  return to === host || to.endsWith('.' + host);
}

/**
 * A query string as URLSearchParams writes one (application/x-www-form-urlencoded: letters, digits and
 * `*-._` as they are, a space as `+`, everything else percent-encoded as UTF-8, a lone surrogate as U+FFFD).
 */
function buildQuery(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  let s = '';
  for (const k in query) {
    if (!Object.hasOwn(query, k)) continue;
    const v = query[k];
    if (v === undefined || v === null) continue;
    if (Array.isArray(v))
      for (const x of v) s += pair(`${k}[]`, typeof x === 'object' ? JSON.stringify(x) : String(x));
    else if (typeof v === 'object')
      for (const [sk, sv] of Object.entries(v)) s += pair(`${k}[${sk}]`, String(sv));
    else s += pair(k, String(v));
  }
  return s && `?${s.slice(1)}`;
}

function pair(name: string, value: string): string {
  return `&${formEncode(name)}=${formEncode(value)}`;
}

/** What encodeURIComponent leaves as is and the form encoding does not (and the space it writes as %20). */
const FORM_DIFFERS = /%20|[!'()~]/;
const FORM_DIFFERS_ALL = /%20|[!'()~]/g;

function formEncode(text: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(text);
  } catch {
    // A lone surrogate, which URLSearchParams writes as U+FFFD.
    return new URLSearchParams([['', text]]).toString().slice(1);
  }
  return FORM_DIFFERS.test(encoded) ? encoded.replace(FORM_DIFFERS_ALL, formEscape) : encoded;
}

function formEscape(c: string): string {
  return c === '%20' ? '+' : `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
}

/** What a deadline aborts when it fires: the exchange under way, or a wait between attempts. */
interface Abortable {
  abortNow(reason: unknown): void;
}

/**
 * How long a request runs before it listens on the caller's cancel. Most requests are answered sooner and
 * never add a listener to the caller's signal (adding and removing one costs more than the rest of the
 * deadline); a cancel that came before is read from the signal then, so a canceled request stops at most
 * this late. A deadline this short or shorter fires first and ends the request as soon.
 */
const CANCEL_LATCH_MS = 5;

/**
 * What a request's exchanges and waits stop on: the caller's cancel or the action deadline, whichever comes
 * first, with the caller's reason or Error('deadline'). A plain object rather than an AbortController and
 * its signal, which cost more to make and to listen on than the exchange they would guard. Hops and
 * retries run one after another, so one listener at a time is enough. One timer serves both: it first
 * fires after CANCEL_LATCH_MS to read the caller's signal and listen on it, then at the deadline.
 */
class Deadline {
  aborted = false;
  /** The deadline itself fired (it may do so after a cancel). */
  expired = false;
  /** The caller's cancel aborted the request (before any deadline did). */
  canceled = false;
  reason: unknown;
  private listener?: Abortable;
  private timer?: NodeJS.Timeout;
  /** When the deadline fires (Date.now() time), while the timer is still the cancel latch's; else 0. */
  private due = 0;
  private listening = false;

  /** `due`: when the action's deadline passes (a Date.now() time; 0: never). One already past fires at once. */
  constructor(
    private readonly caller: AbortSignal | undefined,
    due: number,
  ) {
    const left = due === 0 ? 0 : due - Date.now();
    if (caller?.aborted) this.cancel();
    else if (due !== 0 && left <= 0) this.expire();
    else if (caller && (due === 0 || left > CANCEL_LATCH_MS)) {
      this.due = due;
      this.timer = setTimeout(latch, CANCEL_LATCH_MS, this);
      this.timer.unref();
    } else if (due !== 0) {
      this.timer = setTimeout(expire, left, this);
      this.timer.unref();
    }
  }

  /** The caller's cancel (the deadline is its own listener object: no closure per request). */
  handleEvent(): void {
    this.cancel();
  }

  /** The request still runs after the latch: read the caller's signal, listen on it, wait for the deadline. */
  latch(): void {
    const caller = this.caller!;
    const due = this.due;
    this.timer = undefined;
    if (caller.aborted) this.cancel();
    else {
      // Listened on without an options object (`false`: no capture), which Node's EventTarget reads
      // field by field; done() removes the listener, so `once` adds nothing.
      caller.addEventListener('abort', this, false);
      this.listening = true;
    }
    if (due === 0) return;
    const left = due - Date.now();
    if (left <= 0) this.expire();
    else {
      this.timer = setTimeout(expire, left, this);
      this.timer.unref();
    }
  }

  expire(): void {
    this.expired = true;
    this.abort(new Error('deadline'));
  }

  private cancel(): void {
    if (!this.aborted) this.canceled = true;
    this.abort(this.caller!.reason);
  }

  private abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.listener?.abortNow(reason);
  }

  /** `to` is aborted when the deadline fires from now on (not when it already has). */
  listen(to: Abortable): void {
    this.listener = to;
  }

  unlisten(to: Abortable): void {
    if (this.listener === to) this.listener = undefined;
  }

  /** The request is over: the timer and the caller's listener go. */
  done(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.listening) this.caller!.removeEventListener('abort', this, false);
  }
}

function latch(deadline: Deadline): void {
  deadline.latch();
}

function expire(deadline: Deadline): void {
  deadline.expire();
}

/** What the instance answered one request: status, headers, and the whole body. */
interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * A redirect's body is read and dropped before the next hop; one declared larger than this drops the
 * connection instead (as undici's body.dump() does).
 */
const REDIRECT_BODY_LIMIT = 128 * 1024;

/**
 * One request's exchange with the instance, read straight into memory: the body's chunks are gathered as
 * they arrive and handed over whole, without a stream between the socket and the answer. The promise
 * `done` settles with the answer or the failure; a failure after the status line came leaves `answered`
 * set. A redirect's body (a Location to follow) is dropped, and a failure while it is read is no failure
 * unless the deadline fired. The deadline aborts the exchange at any point, with its reason.
 */
class Exchange implements Dispatcher.DispatchHandler, Abortable {
  readonly done: Promise<Answer>;
  answered = false;
  private resolve!: (answer: Answer) => void;
  private reject!: (err: unknown) => void;
  private controller?: Dispatcher.DispatchController;
  private settled = false;
  private dropping = false;
  private statusCode = 0;
  private headers: Answer['headers'] = {};
  private chunks: Buffer[] = [];
  private length = 0;

  constructor(
    private readonly method: string,
    private readonly deadline: Deadline,
  ) {
    this.done = new Promise<Answer>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    if (!deadline.aborted) deadline.listen(this);
  }

  /**
   * Until its connection is made (the name looked up, the connection opened) a request has no controller: the
   * exchange then ends at once, and the request is aborted the moment it starts (onRequestStart), rather than
   * the cancel or the deadline waiting for a lookup or a connection that may take its time to fail.
   */
  abortNow(reason: unknown): void {
    if (this.controller) this.controller.abort(reason as Error);
    else this.settle(reason);
  }

  private settle(err: unknown, answer?: Answer): void {
    if (this.settled) return;
    this.settled = true;
    this.deadline.unlisten(this);
    if (answer) this.resolve(answer);
    else this.reject(err);
  }

  private answer(): Answer {
    const { chunks, length } = this;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
    return { statusCode: this.statusCode, headers: this.headers, body };
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.deadline.aborted) controller.abort(this.deadline.reason as Error);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Answer['headers'],
  ): void {
    // An informational answer (1xx) is not the answer.
    if (statusCode < 200) return;
    this.answered = true;
    this.statusCode = statusCode;
    this.headers = headers;
    if (REDIRECTS.has(statusCode) && typeof headers.location === 'string') {
      this.dropping = true;
      const declared = this.method === 'HEAD' ? 0 : Number(headers['content-length'] ?? 0);
      if (declared > REDIRECT_BODY_LIMIT) {
        this.settle(undefined, this.answer());
        controller.abort(new Error('redirect body not read'));
      }
    }
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.dropping) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  onResponseEnd(): void {
    this.settle(undefined, this.answer());
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    if (this.dropping && !this.deadline.aborted) this.settle(undefined, this.answer());
    else this.settle(this.dropping ? this.deadline.reason : err);
  }
}

/**
 * The instance's final answer as the caller reads it: headers one string per name, the body parsed as asked
 * (JSON, text or bytes; an error's body as JSON when it is JSON).
 */
function answerOf(
  res: Answer,
  method: string,
  url: Target,
  responseType: 'json' | 'text' | 'binary',
): InstanceResponse {
  const flat = flatHeaders(res.headers);
  let parsed: unknown;
  let text: string | undefined;
  let bytes: Buffer | undefined;
  const type = flat['content-type'] ?? '';
  if (responseType === 'binary' && res.statusCode < 400) {
    parsed = res.body;
  } else {
    bytes = withoutBom(res.body);
    text = bytes.toString('utf8');
    if (
      (responseType === 'json' || res.statusCode >= 400) &&
      (type.includes('json') || /^\s*[[{]/.test(text))
    ) {
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // A success that declares JSON and is not JSON was cut short or corrupted on the way: an error,
        // never a partial answer passed off as the whole.
        if (res.statusCode < 400 && responseType === 'json' && type.includes('json'))
          throw new InstanceError(
            'network',
            'invalid answer: the instance declared JSON but sent a body that is not valid JSON (cut short or corrupted)',
            {
              hint: 'retry; if it persists check proxies between the server and the instance',
              cause: `${method} ${url.origin}${url.pathname}`,
            },
          );
        parsed = text;
      }
    } else parsed = text;
  }
  return {
    status: res.statusCode,
    headers: flat,
    body: parsed,
    text,
    bytes,
    method,
    url: url.origin + url.pathname,
  };
}

/** What a request was built from, for observers and the redirect rules. */
interface Route {
  /** What the template is relative to: api/v4, or nothing for /oauth and GraphQL. */
  prefix: string;
  /** The route template the path was built from, relative to `prefix`. */
  template?: string;
  stayOnHost?: boolean;
  /** The action's deadline (RestInit.due). */
  due?: number;
}

/**
 * A request stopped before its answer: the client's cancel first, then the deadline (the spec's order for
 * failures without a status); undefined when neither stopped it.
 */
function stoppedError(caller: AbortSignal | undefined, expired: boolean): InstanceError | undefined {
  if (caller?.aborted)
    return new InstanceError('canceled', 'request canceled: the request was canceled by the client');
  if (expired)
    return new InstanceError(
      'deadline',
      'deadline exceeded: the request exceeded its deadline and was canceled',
      {
        hint: 'narrow the request, or raise FORGE_MCP_ACTION_TIMEOUT',
      },
    );
  return undefined;
}

/** The route template as observers read it, from the root (`/api/v4/projects/{id}/issues`). */
function routeTemplate(route: Route): string | undefined {
  return route.template && `/${route.prefix}${route.template}`.replace(/\/+/g, '/');
}

/**
 * Path characters a URL keeps as they are (in an http(s) URL): with none else, and no `.` or `..` segment
 * (literal or percent-encoded), a path appended to the base is the URL's path byte for byte. A path with a
 * dot segment or an empty one is refused: it would call another endpoint than the one the values named.
 */
const PLAIN_PATH = /^[\w\-.~!$&'()*+,;=:@%/]*$/;
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;
/** An empty segment (`//`, or a path ending in `/`): no route of the instance has one. */
const EMPTY_SEGMENT = /\/\/|.\/$/;

/** An answer's headers with each repeated header's values joined with ", " (one string per name). */
function flatHeaders(headers: Answer['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const k in headers) {
    const v = headers[k];
    if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return flat;
}

/** A body's UTF-8 bytes, a byte order mark skipped (as undici's body.text() reads it). */
function withoutBom(body: Buffer): Buffer {
  const bom = body.length > 2 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
  return bom ? body.subarray(3) : body;
}

/** What the executor asks of a fine-grained session's grant (session/grant.ts implements it). */
export interface FineGrainedSessionInfo {
  /** The grant holds this permission (identifier or 'Resource: Verb') at some project or group. */
  holdsElsewhere(permission: string): boolean;
}

/**
 * How the request being served presented its token, when that differs per request (over HTTP one held
 * credential may arrive in PRIVATE-TOKEN on one request and in Authorization on the next): error texts then
 * name the header of the request at hand rather than the one the session was opened with.
 */
export const presentedTokenLabel = new AsyncLocalStorage<string>();

export class InstanceClient {
  readonly base: URL;
  /** Set when the token is fine-grained: the instance's answers then follow the fine-grained rules. */
  fineGrained?: FineGrainedSessionInfo;
  /** Called after a request the instance answered below 400 (the session's token kind learning). */
  onSuccess?: () => void;
  /**
   * Called with every 401: `tokenRefused` when it named the token itself (invalid_token, or any GraphQL 401),
   * false for the two-cause REST 401 that may only be a permission (the pool then probes the token).
   */
  onUnauthorized?: (tokenRefused: boolean) => void;

  /** What a first hop, always to the instance's own origin, needs: read once from the base URL. */
  private readonly root: Omit<Target, 'pathname' | 'search'>;
  /** The base URL's path (ending in /), which REST paths are appended to. */
  private readonly basePath: string;
  private readonly rootTierB: boolean;
  private readonly rootRefusal?: DestinationRefused;
  private rootDispatcher?: Dispatcher;
  /** The headers every request starts with, and the same with the credential added (made when first used). */
  private readonly plain: Readonly<Record<string, string>>;
  private signed?: Readonly<Record<string, string>>;
  private signedBearer?: Readonly<Record<string, string>>;
  private readonly graphqlTarget: Target;

  constructor(private readonly opts: ClientOptions) {
    const base = new URL(opts.baseUrl.replace(/\/+$/, '') + '/');
    this.base = base;
    this.root = {
      origin: base.origin,
      protocol: base.protocol,
      host: base.host,
      hostname: base.hostname,
      port: base.port,
    };
    this.basePath = base.pathname;
    this.rootTierB = this.tierB(base);
    this.rootRefusal = literalRefusal(base.hostname, this.rootTierB);
    this.plain = Object.freeze({
      accept: 'application/json',
      'user-agent': opts.userAgent ?? 'forge-mcp-server',
    });
    this.graphqlTarget = new URL('api/graphql', base);
  }

  /** Private ranges are refused for this hop: nobody chose it, and allow-private-instances is unset. */
  private tierB(url: Target): boolean {
    if (this.opts.allowPrivateInstances) return false;
    return !((this.opts.operatorChosen ?? true) && sameHost(this.base, url));
  }

  private dispatcherFor(tierB: boolean, origin: string): Dispatcher {
    return this.opts.dispatcher ?? dispatcherFor(this.opts.skipTlsVerify ?? false, tierB, origin);
  }

  /** The instance's own dispatcher, kept while it is open (a pool left unused is closed and replaced). */
  private rootDispatcherNow(): Dispatcher {
    const d = this.rootDispatcher;
    if (d && !(d as Pool).closed && !(d as Pool).destroyed) return d;
    return (this.rootDispatcher = this.dispatcherFor(this.rootTierB, this.root.origin));
  }

  get tokenLabel(): string {
    return presentedTokenLabel.getStore() ?? this.opts.tokenLabel;
  }

  /** The token this client sends: only for masking it where memory is exported (secrets.ts). */
  get secret(): string {
    return this.opts.token;
  }

  /**
   * ML model package files take a personal access token or job token only as a Bearer token (the
   * instance refuses PRIVATE-TOKEN there), so those routes always get Authorization.
   */
  private bearerFor(pathname: string): boolean {
    return this.opts.tokenHeader === 'bearer' || BEARER_ONLY_ROUTE.test(pathname);
  }

  private credentialHeaders(pathname: string): Record<string, string> {
    return this.bearerFor(pathname)
      ? { authorization: `Bearer ${this.opts.token}` }
      : { 'private-token': this.opts.token };
  }

  /**
   * A hop's headers with the credential: the request's own headers plus the credential header. Requests
   * with only the usual headers share one object per credential header when they go to one of our pools,
   * which read it and keep nothing of it (the proxy agent adds a host header to the object it is given).
   */
  private withCredentials(
    headers: Record<string, string>,
    pathname: string,
    shared: boolean,
  ): Record<string, string> {
    if (headers !== this.plain || !shared) return { ...headers, ...this.credentialHeaders(pathname) };
    if (this.bearerFor(pathname))
      return (this.signedBearer ??= Object.freeze({ ...headers, ...this.credentialHeaders(pathname) }));
    return (this.signed ??= Object.freeze({ ...headers, ...this.credentialHeaders(pathname) }));
  }

  /** One REST call relative to /api/v4 (or absolute path starting with /oauth). */
  rest(method: string, path: string, init: RestInit = {}): Promise<InstanceResponse> {
    // Not an async function (send is the one): a failure building the request still rejects.
    try {
      const prefix = path.startsWith('/oauth/') ? '' : 'api/v4';
      const search = buildQuery(init.query);
      if (DOT_SEGMENT.test(path) || EMPTY_SEGMENT.test(path))
        throw new Error(
          'a value is refused: "." or ".." or an empty part in the request path would make the URL call another endpoint. Give it as it is on the instance (an ID, name or path).',
        );
      // A path of plain URL characters is the URL's own path as written: no URL is parsed for it. Anything
      // else is resolved as a URL would resolve it.
      const target: Target = PLAIN_PATH.test(path)
        ? { ...this.root, pathname: prefix ? this.basePath + prefix + path : path, search }
        : new URL(prefix + path + search, this.base);
      let body: RequestBody | undefined;
      let headers: Record<string, string> = init.headers ? { ...this.plain, ...init.headers } : this.plain;
      if (init.raw) {
        body = init.raw.bytes;
        headers = { ...headers, 'content-type': init.raw.contentType };
        headers['content-length'] = String(init.raw.bytes.length);
      } else if (init.form) body = init.form;
      else if (init.body !== undefined && method !== 'GET' && method !== 'HEAD') {
        body = JSON.stringify(init.body);
        headers = { ...headers, 'content-type': 'application/json' };
      }
      return this.send(method, target, headers, body, init.response ?? 'json', init.signal, {
        prefix,
        template: init.template,
        stayOnHost: init.stayOnHost,
        due: init.due,
      });
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /**
   * Sends a request and follows its redirects (by hand, so credential headers can be dropped), retrying a
   * 429 the instance asks to wait for; every failure leaves as a classified InstanceError. One async
   * function for the whole request: the hops and the attempts are loops in it.
   */
  private async send(
    method: string,
    target: Target,
    headers: Record<string, string>,
    body: RequestBody | undefined,
    responseType: 'json' | 'text' | 'binary',
    signal: AbortSignal | undefined,
    route: Route,
  ): Promise<InstanceResponse> {
    const due = route.due ?? this.deadlineFromNow();
    const deadline = new Deadline(signal, due);
    // What the 429 retries have waited so far.
    let waited = 0;
    try {
      for (let attempt = 0; ; attempt++) {
        // Each attempt starts over from the request as asked; a redirect may change its method and body.
        let hopMethod = method;
        let hopHeaders = headers;
        let hopBody = body;
        let url = target;
        let credentials = true;
        let res: InstanceResponse;
        for (let hop = 0; ; hop++) {
          // Stamps for observers, taken only when someone listens.
          const watched = channels.instanceCall.hasSubscribers;
          const startTime = watched ? Date.now() : 0;
          const began = watched ? now() : 0;
          const template = watched && hop === 0 ? routeTemplate(route) : undefined;
          // The first hop is always to the instance's own origin, judged once for the client.
          const tierB = hop === 0 ? this.rootTierB : this.tierB(url);
          // The dialer judges resolved addresses; a target written as an address is judged here too, so a
          // proxied connection to it is refused before anything is sent.
          const literal = hop === 0 ? this.rootRefusal : literalRefusal(url.hostname, tierB);
          if (literal) throw refusalError(literal, hopMethod, url);
          // Canceled or past its deadline already: nothing is sent (a connection would be waited for first).
          if (deadline.aborted) throw deadline.reason;
          const exchange = new Exchange(hopMethod, deadline);
          let answer: Answer;
          try {
            const dispatcher = hop === 0 ? this.rootDispatcherNow() : this.dispatcherFor(tierB, url.origin);
            dispatcher.dispatch(
              {
                origin: url.origin,
                path: url.search ? url.pathname + url.search : url.pathname,
                method: hopMethod as Dispatcher.HttpMethod,
                headers: credentials
                  ? this.withCredentials(hopHeaders, url.pathname, dispatcher instanceof Pool)
                  : stripCredentials(hopHeaders),
                body: hopBody as Dispatcher.DispatchOptions['body'],
              },
              exchange,
            );
            answer = await exchange.done;
          } catch (err) {
            // A failure after the status line came (the body cut off, too large, canceled) is no hop's outcome.
            if (exchange.answered) throw err;
            if (watched)
              this.observe(hopMethod, url, template, startTime, began, undefined, err, deadline, signal);
            const refused = refusalIn(err);
            throw refused ? refusalError(refused, hopMethod, url) : err;
          }
          const location = answer.headers.location;
          if (!REDIRECTS.has(answer.statusCode) || typeof location !== 'string') {
            res = answerOf(answer, hopMethod, url, responseType);
            if (watched) this.observe(hopMethod, url, template, startTime, began, res.status);
            break;
          }
          if (watched) this.observe(hopMethod, url, template, startTime, began, answer.statusCode);
          if (hop + 1 > MAX_HOPS) {
            throw new InstanceError('network', `too many redirects: more than ${MAX_HOPS} hops`, {
              cause: `${hopMethod} ${url.origin}${url.pathname}`,
            });
          }
          const next = new URL(location, url instanceof URL ? url : url.origin + url.pathname + url.search);
          if (route.stayOnHost && !sameHost(this.base, next))
            throw new InstanceError(
              'network',
              `the instance redirected a credential check to another host (${next.host}), which is not followed; check FORGE_URL names the instance itself`,
              { cause: `${hopMethod} ${url.origin}${url.pathname}` },
            );
          // Credentials never follow a hop off the instance's host or down from https to http.
          if (!sameSite(this.base, next) || (url.protocol === 'https:' && next.protocol === 'http:'))
            credentials = false;
          if (
            answer.statusCode === 303 ||
            ((answer.statusCode === 301 || answer.statusCode === 302) && hopMethod === 'POST')
          ) {
            hopMethod = 'GET';
            hopBody = undefined;
            // A raw body's length goes with the body.
            hopHeaders = Object.fromEntries(
              Object.entries(hopHeaders).filter(([k]) => k !== 'content-length'),
            );
          }
          url = next;
        }
        if (res.status === 429 && attempt < 2) {
          const wait = retryAfterMs(res.headers['retry-after']);
          // A wait the action's deadline would cut short is not begun: the 429 is reported at once, with its wait.
          const inTime = due === 0 || Date.now() + wait < due;
          if (inTime && waited + wait <= (this.opts.maxRetryWaitMs ?? MAX_RETRY_WAIT_MS)) {
            waited += wait;
            await sleep(wait, deadline);
            continue;
          }
        }
        if (res.status >= 400) throw this.statusError(res);
        this.onSuccess?.();
        return res;
      }
    } catch (err) {
      throw this.networkError(err, method, target, signal, deadline.expired);
    } finally {
      deadline.done();
    }
  }

  /** Reports a hop to observers: method, host, port, status and template, never the URL. */
  private observe(
    method: string,
    url: Target,
    template: string | undefined,
    startTime: number,
    began: number,
    status: number | undefined,
    err?: unknown,
    deadline?: Deadline,
    caller?: AbortSignal,
  ): void {
    publish(channels.instanceCall, () => ({
      method,
      host: url.hostname,
      port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
      scheme: url.protocol === 'https:' ? ('https' as const) : ('http' as const),
      status,
      template,
      errorType: err === undefined ? undefined : failureClass(err, deadline!, caller),
      startTime,
      ms: now() - began,
    }));
  }

  private statusError(res: InstanceResponse): InstanceError {
    // An error page or proxy may quote the request's credential back: nothing of it goes further.
    const body = bodyWithoutCredentials(res.body, this.opts.token);
    const { message, code } = instanceMessageOf(body);
    const status = res.status;
    const tokenRefused = status === 401 && code === 'invalid_token';
    if (status === 401) this.onUnauthorized?.(tokenRefused);
    const classification = tokenRefused ? TOKEN_REFUSED : classificationFor(status);
    const cause =
      status === 404 ? statusLine(404) : `${res.method} ${shortUrl(res.url)}: ${statusLine(status)}`;
    const accountRefused = (status === 401 || status === 403) && !!message && ACCOUNT_REFUSED.test(message);
    return new InstanceError('status', classification, {
      status,
      code,
      tokenRefused,
      ...(accountRefused ? { accountRefused } : {}),
      instanceMessage: addsToStatus(message, status) ? message : undefined,
      hint: statusHint(status, code, this.tokenLabel, { message, retryAfter: res.headers['retry-after'] }),
      cause,
      retryAfterSeconds: res.headers['retry-after']
        ? Number(res.headers['retry-after']) || undefined
        : undefined,
      body,
    });
  }

  private networkError(
    err: unknown,
    method: string,
    url: Target,
    callerSignal: AbortSignal | undefined,
    expired: boolean,
  ): InstanceError {
    // An answer with a status stands as it is; failures without one follow the spec's order, where the
    // client's cancel and the deadline come before a refused destination or any other classified failure.
    if (err instanceof InstanceError && (err.kind === 'status' || err.kind === 'graphql')) return err;
    const stopped = stoppedError(callerSignal, expired);
    if (stopped) return stopped;
    if (err instanceof InstanceError) return err;
    const code = errorCode(err);
    const where = `${url.host}`;
    const proxy = proxyFailure(err, code, method, url);
    if (proxy) return proxy;
    if (code === 'ECONNREFUSED')
      return new InstanceError(
        'connection_refused',
        `connection refused: nothing accepted the connection at ${where}`,
        {
          hint: 'check that the instance URL (FORGE_URL) is right and the instance is up',
        },
      );
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return new InstanceError('dns', `DNS lookup failed: ${url.hostname} did not resolve`, {
        hint: 'check the host name in FORGE_URL and the network',
      });
    if (code && /TIMEOUT/.test(code))
      return new InstanceError('timeout', `timeout: the instance at ${where} did not answer in time`, {
        hint: 'retry later; the instance may be overloaded',
      });
    if (code && TLS_FAILURE.test(code))
      return new InstanceError('tls', `TLS handshake failed with ${where} (${code})`, {
        hint: "set SSL_CERT_FILE to the instance's certificate authority bundle, or FORGE_MCP_SKIP_TLS_VERIFY=true (only for a trusted network)",
      });
    if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE')
      return new InstanceError(
        'network',
        `response too large: the instance's answer to ${method} exceeded ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB and was not read`,
        {
          hint: 'narrow the request (paging, tail_lines, byte_offset and byte_limit), or download the file from the instance directly',
          cause: `${method} ${url.origin}${url.pathname}`,
        },
      );
    if (code)
      return new InstanceError('network', `network error during ${method} to ${where} (${code})`, {
        hint: 'retry; if it persists check the network path to the instance',
      });
    return new InstanceError('unexpected', 'unexpected error');
  }

  /**
   * When an action starting now must end (a Date.now() time, for RestInit.due): FORGE_MCP_ACTION_TIMEOUT from
   * now, or 0 when the deadline is disabled.
   */
  deadlineFromNow(): number {
    const ms = this.opts.timeoutMs;
    return ms > 0 ? Date.now() + ms : 0;
  }

  /**
   * An action's own wait between its requests (a poll's interval): ends after `ms`, or sooner with the error
   * of the caller's cancel or of the action's deadline (`due`, as RestInit.due), whichever comes first.
   */
  async wait(ms: number, signal: AbortSignal | undefined, due: number): Promise<void> {
    const deadline = new Deadline(signal, due);
    try {
      if (deadline.aborted) throw deadline.reason;
      await sleep(ms, deadline);
    } catch (err) {
      throw stoppedError(signal, deadline.expired) ?? err;
    } finally {
      deadline.done();
    }
  }

  /** One GraphQL call. Answers `data`; errors are classified per the spec's GraphQL rules. */
  async graphql(
    document: string,
    variables: Record<string, unknown> | undefined,
    opts: { mutation?: string; signal?: AbortSignal; due?: number } = {},
  ): Promise<Record<string, unknown>> {
    const url = this.graphqlTarget;
    const headers = {
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': this.opts.userAgent ?? 'forge-mcp-server',
    };
    const body = JSON.stringify({ query: document, variables: variables ?? {} });
    let res: InstanceResponse;
    try {
      res = await this.send('POST', url, headers, body, 'json', opts.signal, {
        prefix: '',
        template: '/api/graphql',
        due: opts.due,
      });
    } catch (err) {
      throw err instanceof InstanceError && err.kind === 'status' ? this.graphqlStatusError(err, url) : err;
    }
    const b = (res.body ?? {}) as {
      data?: Record<string, unknown> | null;
      errors?: Array<{ message?: string }>;
    };
    const data = b.data ?? null;
    if (opts.mutation && data && data[opts.mutation] && typeof data[opts.mutation] === 'object') {
      const payloadErrors = (data[opts.mutation] as { errors?: unknown }).errors;
      if (Array.isArray(payloadErrors) && payloadErrors.length) {
        const messages = payloadErrors.map((e) => withoutCredentials(String(e), this.opts.token));
        throw new InstanceError('graphql', `mutation errors: ${joinCapped(messages, 2048)}`, { messages });
      }
    }
    if (Array.isArray(b.errors) && b.errors.length) {
      const messages = b.errors.map((e) =>
        withoutCredentials(String(e?.message ?? 'unexpected error'), this.opts.token),
      );
      const notFound = messages.some((m) => /\b404\b|not found/i.test(m)) && !data;
      if (notFound)
        throw new InstanceError('status', classificationFor(404), {
          status: 404,
          instanceMessage: joinCapped(messages, 2048),
          cause: 'failed to execute GraphQL query: 404 Not Found',
          messages,
        });
      const fieldNull =
        !data || (opts.mutation ? data[opts.mutation] == null : Object.values(data).every((v) => v == null));
      if (fieldNull)
        // Top-level errors (a refused mutation answers a null payload beside them) read as GraphQL errors;
        // only the mutation payload's own errors list reads as mutation errors.
        throw new InstanceError('graphql', `GraphQL errors: ${joinCapped(messages, 2048)}`, { messages });
    }
    return data ?? {};
  }

  private graphqlStatusError(err: InstanceError, url: Target): InstanceError {
    // GraphQL answers 401 only from authentication checks: the token itself was refused.
    const status = err.status ?? 0;
    const tokenRefused = status === 401;
    if (tokenRefused) this.onUnauthorized?.(true);
    return new InstanceError('status', tokenRefused ? TOKEN_REFUSED : err.classification, {
      ...err.parts,
      // The instance's errors[].message list, on one line and capped; dropped when the body is not
      // a GraphQL answer (a top-level key besides data, errors, extensions).
      instanceMessage: graphqlMessages(err.parts.body),
      tokenRefused,
      hint: statusHint(status, tokenRefused ? 'invalid_token' : err.parts.code, this.tokenLabel, {
        graphql: true,
        retryAfter: err.parts.retryAfterSeconds?.toString(),
      }),
      cause:
        status === 404
          ? 'failed to execute GraphQL query: 404 Not Found'
          : `POST ${url.origin}${url.pathname}: ${statusLine(status)}`,
    });
  }
}

/** GraphQL error lists are kept only when the body has no keys beyond data, errors, extensions. */
export function graphqlMessages(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const keys = Object.keys(body);
  if (keys.some((k) => !['data', 'errors', 'extensions'].includes(k))) return undefined;
  const errors = (body as { errors?: Array<{ message?: string }> }).errors;
  if (!Array.isArray(errors) || !errors.length) return undefined;
  return joinCapped(
    errors.map((e) => String(e?.message ?? '')),
    2048,
  );
}

function addsToStatus(message: string | undefined, status: number): boolean {
  if (!message) return false;
  const m = message.trim().toLowerCase();
  return (
    m !== statusLine(status).toLowerCase() &&
    m !== String(status) &&
    m !== statusLine(status).slice(4).toLowerCase()
  );
}

/** The longest URL an error's cause repeats: an overlong value (answered 414 or 431) is cut there. */
const CAUSE_URL_MAX = 256;

function shortUrl(url: string): string {
  return url.length > CAUSE_URL_MAX ? `${url.slice(0, CAUSE_URL_MAX)}...` : url;
}

/** An instance text refusing the account itself (not a role or licence matter). */
const ACCOUNT_REFUSED =
  /\byour account\b|\baccount (?:has been|is) (?:blocked|banned|deactivated|locked)|terms of service|password (?:has )?expired|pending (?:admin(?:istrator)? )?approval/i;

/**
 * The generic hint of a status. Role hints follow only a REST 401 or 403 without an RFC 6750 code that
 * does not refuse the account itself.
 */
function statusHint(
  status: number,
  code: string | undefined,
  tokenLabel: string,
  opts: { graphql?: boolean; message?: string; retryAfter?: string } = {},
): string | undefined {
  if (status === 401 && code === 'invalid_token')
    return `replace ${tokenLabel} with a valid, unexpired token carrying the api or read_api scope`;
  if (status === 403 && code === 'insufficient_scope')
    return 'use a token with the api scope; this token may only read';
  if ((status === 401 || status === 403) && opts.message && ACCOUNT_REFUSED.test(opts.message))
    return "the instance refuses the account itself: sign in to the instance's web interface to see why, or ask an administrator";
  const roleHintAllowed = !opts.graphql && !code;
  if (status === 401 && roleHintAllowed)
    return `check that ${tokenLabel} is valid (user.current); if it is, the token's scopes or your role do not allow this action`;
  if (status === 403 && roleHintAllowed)
    return 'ask a maintainer or owner for a higher role, or check the project and instance settings';
  if (status === 414 || status === 431)
    return 'a value in the request path or query is too long for the instance: shorten it, or use an ID instead of a long name';
  if (status === 429) return waitHint(opts.retryAfter);
  if (status >= 500) return 'retry later';
  return undefined;
}

/**
 * The proxy the runtime's proxy agent sends a request to `url` through, and the variable it was read from
 * (read as the agent reads them: lower case first, an https URL falling back to the http proxy), when any.
 */
function proxyFor(url: Target): { readonly proxy: URL; readonly setting: string } | undefined {
  const names = url.protocol === 'https:' ? PROXY_VARIABLES : PROXY_VARIABLES.slice(2);
  const setting = names.find((n) => process.env[n]);
  if (!setting) return undefined;
  try {
    return { proxy: new URL(process.env[setting]!), setting };
  } catch {
    return undefined;
  }
}

/** The proxy URL schemes the runtime's proxy agent dials. */
const PROXY_SCHEMES = new Set(['http:', 'https:', 'socks5:', 'socks:']);

/**
 * The proxy variable set to something the runtime's proxy agent cannot use (not a URL, another scheme, no host, a
 * port out of range), when any: the agent is built from all of them at once, so one such value fails every request.
 */
function unusableProxySetting(): string | undefined {
  for (const name of PROXY_VARIABLES) {
    const value = process.env[name];
    if (!value) continue;
    try {
      const u = new URL(value);
      if (!PROXY_SCHEMES.has(u.protocol) || !u.hostname) return name;
    } catch {
      return name;
    }
  }
  return undefined;
}

const portOf = (u: { protocol: string; port: string }): number =>
  Number(u.port) || (u.protocol === 'https:' ? 443 : 80);

/** What a proxy's answer to a tunnel says happened, and what to do, by status (a 4xx other than 407: refused). */
function tunnelAnswer(
  status: number,
  to: string,
  aside: string,
  setting: string,
): { readonly what: string; readonly status: string; readonly hint: string } {
  if (status === 502)
    return {
      what: 'proxy could not reach the instance',
      status: '502 (bad gateway)',
      hint: `check that FORGE_URL names the instance and that the proxy can reach ${to}, ${aside}`,
    };
  if (status === 504)
    return {
      what: 'proxy could not reach the instance',
      status: '504 (gateway timeout)',
      hint: `${to} did not answer the proxy in time: retry later and check that the instance is up, ${aside}`,
    };
  if (status === 503)
    return {
      what: 'proxy unavailable',
      status: '503 (service unavailable)',
      hint: `retry later; if it persists check the proxy named in ${setting}, ${aside}`,
    };
  if (status >= 500)
    return {
      what: 'proxy failed the connection',
      status: String(status),
      hint: `check the proxy named in ${setting}, ${aside}`,
    };
  return {
    what: 'proxy refused the connection',
    status: status === 403 ? '403 (forbidden)' : String(status),
    hint: `the proxy's rules do not let this server reach ${to}: ask the proxy's administrator to allow it, ${aside}`,
  };
}

/**
 * A failure of the proxy rather than of the instance: it did not open the tunnel (asked for authentication,
 * refused, could not reach the instance, closed the connection without answering), or nothing accepted the
 * connection at its address. The proxy is named by host and port only: its URL may carry credentials.
 */
function proxyFailure(
  err: unknown,
  code: string | undefined,
  method: string,
  url: Target,
): InstanceError | undefined {
  // The request it was for closes the text, method first (a network error of its own).
  const cause = `${method} ${shortUrl(`${url.origin}${url.pathname}`)}`;
  const unusable =
    code === 'UND_ERR_INVALID_ARG' || code === 'ERR_INVALID_URL' ? unusableProxySetting() : undefined;
  // Its value is never repeated: a proxy URL may carry credentials.
  if (unusable)
    return new InstanceError(
      'network',
      `proxy setting unusable: ${unusable} does not hold a proxy URL this server can use, so no request is sent`,
      {
        hint: `write it as http://host:port (http://user:password@host:port when the proxy asks for credentials; https:// works too), or unset it to reach the instance directly`,
        cause,
      },
    );
  const found = proxyFor(url);
  if (!found) return undefined;
  const { proxy, setting } = found;
  const at = `${proxy.hostname}:${portOf(proxy)}`;
  const tunnel = causeOf(err, (e): e is TunnelRefused => e instanceof TunnelRefused);
  // The instance may be reachable without the proxy: NO_PROXY sends it there directly.
  const aside = `or add ${url.hostname} to NO_PROXY if the instance is reached without the proxy`;
  if (tunnel?.status === 407)
    return new InstanceError(
      'network',
      `proxy authentication required: the proxy at ${at} answered 407 to the connection to ${url.host}`,
      {
        hint: proxy.username
          ? `the proxy refused the credentials in ${setting}: correct them there (http://user:password@host:port)`
          : `put the proxy's user name and password in ${setting} (http://user:password@host:port)`,
        cause,
      },
    );
  if (tunnel?.status) {
    const answer = tunnelAnswer(tunnel.status, url.host, aside, setting);
    return new InstanceError(
      'network',
      `${answer.what}: the proxy at ${at} answered ${answer.status} to the connection to ${url.host}`,
      { hint: answer.hint, cause },
    );
  }
  const tls = causeOf(err, (e): e is ProxyTlsFailed => e instanceof ProxyTlsFailed);
  if (tls)
    return new InstanceError('tls', `TLS handshake failed with the proxy at ${at} (${tls.tlsCode})`, {
      hint: `set SSL_CERT_FILE to the certificate authority bundle of the proxy named in ${setting} (FORGE_MCP_SKIP_TLS_VERIFY is for the instance only), ${aside}`,
      cause,
    });
  if (tunnel)
    return new InstanceError(
      'network',
      `proxy closed the connection: the proxy at ${at} closed the connection to ${url.host} without answering`,
      {
        hint: `check that ${setting} names an HTTP proxy that opens tunnels (CONNECT) and that its rules allow ${url.host}, ${aside}`,
        cause,
      },
    );
  if (code !== 'ECONNREFUSED') return undefined;
  const e = causeOf(
    err,
    (c): c is { port?: number; address?: string } => (c as { code?: string }).code === 'ECONNREFUSED',
  );
  const instance = e?.address === url.hostname.replace(/^\[|\]$/g, '') && e?.port === portOf(url);
  if (e?.port !== portOf(proxy) || instance) return undefined;
  return new InstanceError(
    'connection_refused',
    `connection refused: nothing accepted the connection at the proxy ${at}`,
    {
      hint: `check that the proxy URL in ${setting} is right and the proxy is up`,
    },
  );
}

function errorCode(err: unknown): string | undefined {
  let e = err as { code?: string; cause?: unknown } | undefined;
  for (let i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string' && e.code !== 'UND_ERR_SOCKET') return e.code;
    if (e.code === 'UND_ERR_SOCKET' && !e.cause) return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

function stripCredentials(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (!CREDENTIAL_HEADERS.includes(k.toLowerCase())) out[k] = v;
  return out;
}

/** Total of the Retry-After waits a 429 is retried through (ms); see maxRetryWaitMs. */
const MAX_RETRY_WAIT_MS = 20_000;

/** The 429 hint: how long the instance asks to wait, when it said (in seconds, rounded up). */
function waitHint(retryAfter: string | undefined): string {
  const seconds = Math.ceil(retryAfterMs(retryAfter ?? '0') / 1000);
  return seconds > 0
    ? `wait ${seconds} second${seconds === 1 ? '' : 's'} before retrying (the instance's Retry-After)`
    : 'wait before retrying';
}

function retryAfterMs(value: string | undefined): number {
  if (!value) return 1000;
  const secs = Number(value);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : 1000;
}

function sleep(ms: number, deadline: Deadline): Promise<void> {
  return new Promise((resolve, reject) => {
    const wait: Abortable = {
      abortNow: () => {
        clearTimeout(t);
        reject(deadline.reason);
      },
    };
    const t = setTimeout(() => {
      deadline.unlisten(wait);
      resolve();
    }, ms);
    deadline.listen(wait);
  });
}
