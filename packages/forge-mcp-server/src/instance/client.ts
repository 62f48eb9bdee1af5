/**
 * The only room that talks to the instance: REST and GraphQL over one undici dispatcher. Redirects are
 * followed by hand so credential headers can be dropped; every failure leaves as a classified
 * InstanceError.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import {
  InstanceError,
  TOKEN_REFUSED,
  classificationFor,
  instanceMessageOf,
  joinCapped,
  statusLine,
} from './errors.js';
import { guardedConnector, literalRefusal, refusalError, refusalIn } from './guard.js';
import { channels, now, publish } from '../channels.js';

export interface ClientOptions {
  /** The instance's base URL, e.g. https://gitlab.example.com (no trailing slash). */
  baseUrl: string;
  token: string;
  /** Send the token as PRIVATE-TOKEN (default) or as a Bearer token (OAuth access tokens). */
  tokenHeader?: 'private-token' | 'bearer';
  /** How error texts name the token: 'FORGE_TOKEN' on stdio, the presented header over HTTP. */
  tokenLabel: string;
  /** Per-action deadline; 0 disables. */
  timeoutMs: number;
  skipTlsVerify?: boolean;
  dispatcher?: Dispatcher;
  userAgent?: string;
  /** Longest Retry-After honoured before a 429 is reported (ms). */
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
}

export interface InstanceResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** The body's UTF-8 text as received (absent for a binary answer), e.g. to show a JSON answer without re-serialising it. */
  text?: string;
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

let sharedDispatchers = new Map<string, Dispatcher>();

/**
 * The largest answer read from the instance. Answers are held in memory, and V8 cannot make a string of
 * much more than this anyway; a larger one is cut off by undici and reported, never read to exhaustion.
 */
export const MAX_RESPONSE_BYTES = 512 * 1024 * 1024;

/**
 * One dispatcher per TLS posture and guard posture, shared by every session (connection pooling). Every
 * direct connection goes through the guard's dialer: metadata addresses always refused, private ranges
 * too when `tierB`. Proxied connections are dialed by the proxy (the client judges IP-literal targets).
 */
export function dispatcherFor(skipTlsVerify = false, tierB = false): Dispatcher {
  const key = `${skipTlsVerify ? 'insecure' : 'verify'}:${tierB ? 'AB' : 'A'}`;
  let d = sharedDispatchers.get(key);
  if (!d) {
    const ca = extraCa();
    const tls = { rejectUnauthorized: !skipTlsVerify, ...(ca ? { ca } : {}) };
    const connect = guardedConnector(tierB, tls);
    const proxied = ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy'].some((v) => process.env[v]);
    d = proxied
      ? new EnvHttpProxyAgent({
          connect,
          requestTls: tls,
          maxResponseSize: MAX_RESPONSE_BYTES,
        } as ConstructorParameters<typeof EnvHttpProxyAgent>[0])
      : new Agent({
          connect,
          keepAliveTimeout: 30_000,
          connections: 64,
          maxResponseSize: MAX_RESPONSE_BYTES,
        });
    sharedDispatchers.set(key, d);
  }
  return d;
}

export async function closeDispatchers(): Promise<void> {
  const all = [...sharedDispatchers.values()];
  sharedDispatchers = new Map();
  await Promise.allSettled(all.map((d) => d.close()));
}

/** SSL_CERT_FILE adds a certificate authority bundle to Node's own roots. */
function extraCa(): string[] | undefined {
  const file = process.env.SSL_CERT_FILE;
  if (!file) return undefined;
  try {
    // node:tls is loaded here, not at start-up: an http instance never needs it.
    const { rootCertificates } = process.getBuiltinModule('node:tls');
    return [...rootCertificates, readFileSync(file, 'utf8')];
  } catch {
    return undefined;
  }
}

/** The same host name (any port): a hop there stays at the destination the operator chose. */
function sameHost(instance: URL, next: URL): boolean {
  return instance.hostname.toLowerCase() === next.hostname.toLowerCase();
}

/** A short class for a request that got no answer: timeout (the deadline fired), refused (the guard), network. */
function failureClass(err: unknown, deadline: Deadline): string {
  if (deadline.aborted) return 'timeout';
  if (refusalIn(err)) return 'refused';
  return (err as { code?: string }).code ?? 'network';
}

function sameSite(instance: URL, next: URL): boolean {
  const host = instance.hostname.toLowerCase();
  const to = next.hostname.toLowerCase();
  return to === host || to.endsWith('.' + host);
}

function buildQuery(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v))
      for (const x of v) sp.append(`${k}[]`, typeof x === 'object' ? JSON.stringify(x) : String(x));
    else if (typeof v === 'object')
      for (const [sk, sv] of Object.entries(v)) sp.append(`${k}[${sk}]`, String(sv));
    else sp.append(k, String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}

/**
 * What a request's exchanges and waits stop on: the caller's cancel or the action deadline, whichever comes
 * first, with the caller's reason or Error('deadline'). A plain object rather than an AbortController and
 * its signal, which cost more to make and to listen on than the exchange they would guard. Hops and
 * retries run one after another, so one listener at a time is enough.
 */
class Deadline {
  aborted = false;
  /** The deadline itself fired (it may do so after a cancel). */
  expired = false;
  reason: unknown;
  private listener?: () => void;
  private readonly timer?: NodeJS.Timeout;

  constructor(
    private readonly caller: AbortSignal | undefined,
    timeoutMs: number,
  ) {
    if (caller) {
      if (caller.aborted) this.abort(caller.reason);
      else caller.addEventListener('abort', this.onCancel, { once: true });
    }
    if (timeoutMs > 0) {
      this.timer = setTimeout(this.onExpiry, timeoutMs);
      this.timer.unref();
    }
  }

  private readonly onCancel = (): void => this.abort(this.caller?.reason);

  private readonly onExpiry = (): void => {
    this.expired = true;
    this.abort(new Error('deadline'));
  };

  private abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.listener?.();
  }

  /** `fn` is called when the deadline fires from now on (not when it already has). */
  listen(fn: () => void): void {
    this.listener = fn;
  }

  unlisten(fn: () => void): void {
    if (this.listener === fn) this.listener = undefined;
  }

  /** The request is over: the timer and the caller's listener go. */
  done(): void {
    if (this.timer) clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCancel);
  }
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
class Exchange implements Dispatcher.DispatchHandler {
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
    if (!deadline.aborted) deadline.listen(this.onAbort);
  }

  private readonly onAbort = (): void => {
    this.controller?.abort(this.deadline.reason as Error);
  };

  private settle(err: unknown, answer?: Answer): void {
    if (this.settled) return;
    this.settled = true;
    this.deadline.unlisten(this.onAbort);
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

/** A body as text: UTF-8, a byte order mark skipped (as undici's body.text() reads it). */
function utf8Text(body: Buffer): string {
  const bom = body.length > 2 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
  return body.toString('utf8', bom ? 3 : 0);
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

  constructor(private readonly opts: ClientOptions) {
    this.base = new URL(opts.baseUrl.replace(/\/+$/, '') + '/');
  }

  /** Private ranges are refused for this hop: nobody chose it, and allow-private-instances is unset. */
  private tierB(url: URL): boolean {
    if (this.opts.allowPrivateInstances) return false;
    return !((this.opts.operatorChosen ?? true) && sameHost(this.base, url));
  }

  private dispatcherFor(tierB: boolean): Dispatcher {
    return this.opts.dispatcher ?? dispatcherFor(this.opts.skipTlsVerify, tierB);
  }

  get tokenLabel(): string {
    return presentedTokenLabel.getStore() ?? this.opts.tokenLabel;
  }

  /**
   * ML model package files take a personal access token or job token only as a Bearer token (the
   * instance refuses PRIVATE-TOKEN there), so those routes always get Authorization.
   */
  private credentialHeaders(url: URL): Record<string, string> {
    return this.opts.tokenHeader === 'bearer' || BEARER_ONLY_ROUTE.test(url.pathname)
      ? { authorization: `Bearer ${this.opts.token}` }
      : { 'private-token': this.opts.token };
  }

  /** One REST call relative to /api/v4 (or absolute path starting with /oauth). */
  async rest(method: string, path: string, init: RestInit = {}): Promise<InstanceResponse> {
    const prefix = path.startsWith('/oauth/') ? '' : 'api/v4';
    const url = new URL(prefix + path + buildQuery(init.query), this.base);
    let body: RequestBody | undefined;
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent ?? 'forge-mcp-server',
      ...init.headers,
    };
    if (init.raw) {
      body = init.raw.bytes;
      headers['content-type'] = init.raw.contentType;
      headers['content-length'] = String(init.raw.bytes.length);
    } else if (init.form) body = init.form;
    else if (init.body !== undefined && method !== 'GET' && method !== 'HEAD') {
      body = JSON.stringify(init.body);
      headers['content-type'] = 'application/json';
    }
    const template = init.template && `/${prefix}${init.template}`.replace(/\/+/g, '/');
    return this.send(method, url, headers, body, init.response ?? 'json', init.signal, {
      template,
      stayOnHost: init.stayOnHost,
    });
  }

  private async send(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: RequestBody | undefined,
    responseType: 'json' | 'text' | 'binary',
    signal?: AbortSignal,
    route: { template?: string; stayOnHost?: boolean } = {},
  ): Promise<InstanceResponse> {
    const dl = new Deadline(signal, this.opts.timeoutMs);
    try {
      for (let attempt = 0; ; attempt++) {
        const res = await this.followRedirects(method, url, headers, body, responseType, dl, route);
        if (res.status === 429 && attempt < 2) {
          const wait = retryAfterMs(res.headers['retry-after']);
          if (wait <= (this.opts.maxRetryWaitMs ?? 60_000)) {
            await sleep(wait, dl);
            continue;
          }
        }
        if (res.status >= 400) throw this.statusError(res);
        this.onSuccess?.();
        return res;
      }
    } catch (err) {
      throw this.networkError(err, method, url, signal, dl.expired);
    } finally {
      dl.done();
    }
  }

  private async followRedirects(
    method: string,
    start: URL,
    headers: Record<string, string>,
    body: RequestBody | undefined,
    responseType: 'json' | 'text' | 'binary',
    deadline: Deadline,
    route: { template?: string; stayOnHost?: boolean },
  ): Promise<InstanceResponse> {
    let url = start;
    let credentials = true;
    for (let hop = 0; ; hop++) {
      const startTime = Date.now();
      const began = now();
      const hopUrl = url;
      const hopMethod = method;
      /** Reports this hop to observers: method, host, port, status and template, never the URL. */
      const observe = (status?: number, err?: unknown) =>
        publish(channels.instanceCall, () => ({
          method: hopMethod,
          host: hopUrl.hostname,
          port: Number(hopUrl.port) || (hopUrl.protocol === 'https:' ? 443 : 80),
          scheme: hopUrl.protocol === 'https:' ? ('https' as const) : ('http' as const),
          status,
          template: hop === 0 ? route.template : undefined,
          errorType: err === undefined ? undefined : failureClass(err, deadline),
          startTime,
          ms: now() - began,
        }));
      const tierB = this.tierB(url);
      // The dialer judges resolved addresses; a target written as an address is judged here too, so a
      // proxied connection to it is refused before anything is sent.
      const literal = literalRefusal(url.hostname, tierB);
      if (literal) throw refusalError(literal, method, url);
      const h = credentials ? { ...headers, ...this.credentialHeaders(url) } : stripCredentials(headers);
      const exchange = new Exchange(method, deadline);
      let res: Answer;
      try {
        this.dispatcherFor(tierB).dispatch(
          {
            origin: url.origin,
            path: url.search ? `${url.pathname}${url.search}` : url.pathname,
            method: method as Dispatcher.HttpMethod,
            headers: h,
            body: body as Dispatcher.DispatchOptions['body'],
          },
          exchange,
        );
        res = await exchange.done;
      } catch (err) {
        // A failure after the status line came (the body cut off, too large, canceled) is no hop's outcome.
        if (exchange.answered) throw err;
        observe(undefined, err);
        const refused = refusalIn(err);
        throw refused ? refusalError(refused, method, url) : err;
      }
      const location = res.headers.location;
      if (REDIRECTS.has(res.statusCode) && typeof location === 'string') {
        observe(res.statusCode);
        if (hop + 1 > MAX_HOPS) {
          throw new InstanceError('network', `too many redirects: more than ${MAX_HOPS} hops`, {
            cause: `${method} ${url.origin}${url.pathname}`,
          });
        }
        const next = new URL(location, url);
        if (route.stayOnHost && !sameHost(this.base, next))
          throw new InstanceError(
            'network',
            `the instance redirected a credential check to another host (${next.host}), which is not followed; check FORGE_URL names the instance itself`,
            { cause: `${method} ${url.origin}${url.pathname}` },
          );
        // Credentials never follow a hop off the instance's host or down from https to http.
        if (!sameSite(this.base, next) || (url.protocol === 'https:' && next.protocol === 'http:'))
          credentials = false;
        if (
          res.statusCode === 303 ||
          ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')
        ) {
          method = 'GET';
          body = undefined;
          // A raw body's length goes with the body.
          headers = Object.fromEntries(Object.entries(headers).filter(([k]) => k !== 'content-length'));
        }
        url = next;
        continue;
      }
      const flat: Record<string, string> = {};
      for (const k in res.headers) {
        const v = res.headers[k];
        if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
      }
      let parsed: unknown;
      let text: string | undefined;
      const type = flat['content-type'] ?? '';
      if (responseType === 'binary' && res.statusCode < 400) {
        parsed = res.body;
      } else {
        text = utf8Text(res.body);
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
      observe(res.statusCode);
      return {
        status: res.statusCode,
        headers: flat,
        body: parsed,
        text,
        method,
        url: `${url.origin}${url.pathname}`,
      };
    }
  }

  private statusError(res: InstanceResponse): InstanceError {
    const { message, code } = instanceMessageOf(res.body);
    const status = res.status;
    const tokenRefused = status === 401 && code === 'invalid_token';
    if (status === 401) this.onUnauthorized?.(tokenRefused);
    const classification = tokenRefused ? TOKEN_REFUSED : classificationFor(status);
    const cause = status === 404 ? statusLine(404) : `${res.method} ${res.url}: ${statusLine(status)}`;
    const accountRefused = (status === 401 || status === 403) && !!message && ACCOUNT_REFUSED.test(message);
    return new InstanceError('status', classification, {
      status,
      code,
      tokenRefused,
      ...(accountRefused ? { accountRefused } : {}),
      instanceMessage: addsToStatus(message, status) ? message : undefined,
      hint: statusHint(status, code, this.tokenLabel, { message }),
      cause,
      retryAfterSeconds: res.headers['retry-after']
        ? Number(res.headers['retry-after']) || undefined
        : undefined,
      body: res.body,
    });
  }

  private networkError(
    err: unknown,
    method: string,
    url: URL,
    callerSignal: AbortSignal | undefined,
    expired: boolean,
  ): InstanceError {
    // An answer with a status stands as it is; failures without one follow the spec's order, where the
    // client's cancel and the deadline come before a refused destination or any other classified failure.
    if (err instanceof InstanceError && (err.kind === 'status' || err.kind === 'graphql')) return err;
    if (callerSignal?.aborted)
      return new InstanceError('canceled', 'request canceled: the request was canceled by the client');
    if (expired)
      return new InstanceError(
        'deadline',
        'deadline exceeded: the request exceeded its deadline and was canceled',
        {
          hint: 'narrow the request, or raise FORGE_MCP_ACTION_TIMEOUT',
        },
      );
    if (err instanceof InstanceError) return err;
    const code = errorCode(err);
    const where = `${url.host}`;
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
    if (code && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/.test(code))
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

  /** One GraphQL call. Answers `data`; errors are classified per the spec's GraphQL rules. */
  async graphql(
    document: string,
    variables: Record<string, unknown> | undefined,
    opts: { mutation?: string; signal?: AbortSignal } = {},
  ): Promise<Record<string, unknown>> {
    const url = new URL('api/graphql', this.base);
    const headers = {
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': this.opts.userAgent ?? 'forge-mcp-server',
    };
    const body = JSON.stringify({ query: document, variables: variables ?? {} });
    let res: InstanceResponse;
    try {
      res = await this.send('POST', url, headers, body, 'json', opts.signal, { template: '/api/graphql' });
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
      if (Array.isArray(payloadErrors) && payloadErrors.length)
        throw new InstanceError(
          'graphql',
          `mutation errors: ${joinCapped(payloadErrors.map(String), 2048)}`,
          {
            messages: payloadErrors.map(String),
          },
        );
    }
    if (Array.isArray(b.errors) && b.errors.length) {
      const messages = b.errors.map((e) => String(e?.message ?? 'unexpected error'));
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

  private graphqlStatusError(err: InstanceError, url: URL): InstanceError {
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
  opts: { graphql?: boolean; message?: string } = {},
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
  if (status === 429) return 'wait before retrying';
  if (status >= 500) return 'retry later';
  return undefined;
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

function retryAfterMs(value: string | undefined): number {
  if (!value) return 1000;
  const secs = Number(value);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : 1000;
}

function sleep(ms: number, deadline: Deadline): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(t);
      reject(deadline.reason);
    };
    const t = setTimeout(() => {
      deadline.unlisten(stop);
      resolve();
    }, ms);
    deadline.listen(stop);
  });
}
