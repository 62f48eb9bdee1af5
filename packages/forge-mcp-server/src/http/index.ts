/**
 * HTTP mode: Streamable HTTP on the MCP path, stateless, the credential brought by every request as
 * `PRIVATE-TOKEN` (wins) or `Authorization: Bearer` (legacy mode), or only as `Authorization: Bearer`
 * verified and cached by OAuth mode's resource-server door (oauth-door.ts, which also serves the
 * protected-resource metadata). Sessions are pooled per instance and credential digest. Before a request reaches the SDK it passes, in order: the host guard, routing, cross-origin
 * protection (and CORS), instance selection, the address's authentication budgets, the body limits,
 * a call slot and the credential check.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { createMcpHandler, type Server } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { channels, publish, within } from '../channels.js';
import type { Config } from '../config/types.js';
import { formatDuration } from '../config/grammar.js';
import { toolCallLog, type Logger } from '../log.js';
import { buildServer, type ServerHooks } from '../mcp/server.js';
import { lazyCatalog } from '../catalog/lazy.js';
import { unknownExclusionMessage, unknownExclusions } from '../surfaces/view.js';
import { noUserReadRefusal, openSession, SessionRefused, type Session } from '../session/index.js';
import { VERSION } from '../version.js';
import { holdsSecrets } from '../secrets.js';
import { readJsonBody } from './body.js';
import { allowHeaders, answerPreflight, applyCorsHeaders } from './cors.js';
import {
  bearerOf,
  credentialOf,
  identityCheckFailure,
  requestSecrets,
  type Credential,
} from './credential.js';
import { Drain } from './drain.js';
import { applySecurityHeaders, CODES, pinNoStore, rpcError, sendJson } from './headers.js';
import { bindOf, hostGuard, refusedHostLog } from './host-guard.js';
import { instanceSelector } from './instance.js';
import { bind, createListener, parseAddr, unlinkSocket, urlOf } from './listen.js';
import { OAuthDoor, type Refusal } from './oauth-door.js';
import { OAUTH_PAGE_PATH, protectedResource, sendPublic } from './oauth.js';
import { originPolicy } from './origin-guard.js';
import { IdleBudget, KeptServers, MAX_KEPT_PER_CREDENTIAL, MAX_KEPT_SERVERS } from './kept.js';
import { HeldServers } from './held.js';
import { SessionPool } from './pool.js';
import { InstanceError, presentedTokenLabel } from '../instance/index.js';
import { SessionTable } from './sessions.js';
import { watchReachability } from './reachability.js';
import {
  isStateKeyMismatch,
  isStateUnavailable,
  openState,
  type State,
  type StateUnavailable,
} from '../state/index.js';
import { Turns, VERIFICATION_SLOTS, VERIFICATION_WAIT_MS } from './turns.js';
import { SERVER_CARD_PATHS, serverCard, serverCardResponder } from './server-card.js';
import { hardDescriptorLimit, slotsUnder } from './descriptors.js';
import { BUSY_RETRY_AFTER_S, CallSlots } from './slots.js';
import { BATCH_TOO_LARGE, MAX_BATCH_MESSAGES, methodOf, toolNameOf } from './limits.js';
import { EventStreams } from './streams.js';
import { LISTEN_ROUTER_OPTIONS, MAX_PROCESS_STREAMS, Subscriptions } from '../subscriptions/index.js';
import { RATE_LIMITED_CODE, Throttle } from './throttle.js';

export { credentialOf } from './credential.js';
export { ListenerRefused, parseAddr } from './listen.js';

/** How long a closing server lets the requests it is serving finish before it cuts every connection. */
export const CLOSE_GRACE_MS = 10_000;

export interface HttpHandle {
  server: HttpServer;
  url: string;
  /** Answers /health 503 'draining' for the drain delay, then resolves; call close() after. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** Methods that open a long-lived stream rather than hold a call. */
const STREAM_METHODS = new Set(['subscriptions/listen']);
/** How error texts name the token of a legacy-door request: by the header it came in. */
const presentedLabel = (cred: Credential) =>
  cred.header === 'private-token'
    ? 'the token this request presented (its PRIVATE-TOKEN header)'
    : 'the token this request presented (its Authorization header)';
/** Every 401 of the legacy door names both headers a token may come in. */
const ACCEPTED_HEADERS = ['Authorization', 'PRIVATE-TOKEN'];

/**
 * Revalidation: asks the instance who the held token is (GET /user). A 401 means the token is refused; any
 * other failure says nothing about it. A token whose kind was unknown is asked again, and one that turns out
 * below the read_api minimum is reported so.
 */
async function checkCredential(session: Session): Promise<'ok' | 'refused' | 'unknown' | 'below_minimum'> {
  const watcher = session.client.onUnauthorized;
  session.client.onUnauthorized = undefined;
  try {
    await session.client.rest('GET', '/user');
  } catch (err) {
    return err instanceof InstanceError && err.parts.status === 401 ? 'refused' : 'unknown';
  } finally {
    session.client.onUnauthorized = watcher;
  }
  if (session.kindUnknown) await session.relearnKind();
  return session.refusal ? 'below_minimum' : 'ok';
}

/** A 503 with Retry-After: the server cannot take the request now (JSON-RPC -32603 answering its id). */
function answerBusy(res: ServerResponse, parsed: unknown, message: string, retryAfterS: number): void {
  sendJson(res, 503, rpcError((parsed as { id?: unknown } | undefined)?.id, CODES.internal, message), {
    'retry-after': String(retryAfterS),
  });
}

/** A pool entry's catalog could not be registered on a new MCP server: the entry leaves with reason rebuild. */
class CatalogRegistrationFailed extends Error {
  constructor(cause: unknown) {
    super('catalog registration failed: credential pool entry evicted (rebuild)', { cause });
  }
}

/** Builds the MCP server of a pooled session, registering its catalog (tools, resources, prompts, completions). */
function registerCatalog(session: Session, hooks: ServerHooks): Server {
  try {
    return buildServer(session, hooks);
  } catch (err) {
    throw new CatalogRegistrationFailed(err);
  }
}

/** host:port of a Redis URL, for the log (its password never). */
function redisHost(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '6379'}`;
}

/** A start refused with its reason already logged (the caller exits non-zero without repeating it). */
export class StartRefused extends Error {
  readonly reported = true;
}

/** The state port: in Redis with FORGE_MCP_REDIS_URL, which must answer at start. */
async function stateFor(config: Config, log: Logger): Promise<State> {
  try {
    return await openState(config, log);
  } catch (err) {
    if (!isStateUnavailable(err) && !isStateKeyMismatch(err)) throw err;
    log.error({ redis: err.where }, err.message);
    throw new StartRefused(err.message);
  }
}

export async function runHttp(config: Config, log: Logger): Promise<HttpHandle> {
  const state = await stateFor(config, log);
  const stopWatching = watchReachability(log, config.forgeUrls);
  const pool = new SessionPool({
    max: config.maxHttpClients,
    idleTimeoutMs: config.poolIdleTimeoutMs,
    revalidateIntervalMs: config.revalidateIntervalMs,
    log,
    check: checkCredential,
    // A call answered 401: naming the token ends the entry; a two-cause 401 ends it only if the probe is refused.
    onOpened: (key, session) => {
      // Whose credential a digest is: the rate-limit and eviction lines name the same digest.
      log.info(
        {
          credential: key.slice(0, 12),
          user: session.identity.username,
          user_id: session.identity.id,
          // The token's scopes as the instance gave them (granular for a fine-grained token; absent when unread).
          scopes: session.scopes,
        },
        'credential admitted',
      );
      session.client.onUnauthorized = (tokenRefused) => {
        if (tokenRefused) return pool.evict(key, 'rejected_credential');
        void checkCredential(session).then((v) => v === 'refused' && pool.evict(key, 'rejected_credential'));
      };
    },
  });
  /** The session each request was admitted with, handed to the server factory through its auth info. */
  const bound = new WeakMap<object, Session>();
  const mcpPath = config.publicUrl ? new URL(config.publicUrl).pathname.replace(/\/$/, '') || '/mcp' : '/mcp';
  const addr = parseAddr(config.httpAddr);
  const hosts = hostGuard({
    bind: bindOf(addr),
    publicUrl: config.publicUrl,
    trustedProxies: config.trustedProxies,
  });
  const origins = originPolicy({ trustedOrigins: config.trustedOrigins, publicUrl: config.publicUrl });
  const selectInstance = instanceSelector(config);
  const preflightHeaders = allowHeaders({
    legacy: config.authMode === 'legacy',
    severalInstances: config.forgeUrls.length > 1,
  });
  const limits = slotsUnder(hardDescriptorLimit());
  const slots = new CallSlots(limits.calls);
  const checks = new Turns(VERIFICATION_SLOTS);
  const drain = new Drain();
  const throttle = new Throttle(config, log, state);
  const logRefusedHost = refusedHostLog(
    log,
    (req) => throttle.addressOf(req),
    '; if clients reach the server by this name, set --public-url to the URL they use, or list the proxy in front of it in --trusted-proxies',
  );
  const door = config.authMode === 'oauth' ? new OAuthDoor(config, log, pool, state) : undefined;
  const card = serverCardResponder(JSON.stringify(serverCard(config, VERSION, mcpPath)));
  // Resource subscriptions and listen streams; a credential following something keeps its pool entry busy.
  const subscriptions = new Subscriptions({
    store: state.subscriptions,
    pollMs: config.subscriptionPollMs,
    perCredential: config.maxListenStreams,
    perProcess: MAX_PROCESS_STREAMS,
    hold: (key) => pool.hold(key),
    log,
  });
  const streams = new EventStreams(subscriptions);
  // What a credential still holds ends with its pool entry.
  pool.onEvict((key, reason) => {
    void subscriptions.endFor(key).catch(() => undefined);
    sessions?.endFor(key);
    kept.forget(key);
    heldServers.forget(key);
    door?.forgetIdentity(key, reason);
  });
  // Stateful sessions (--stateless=false) for 2025-era clients; 2026-07-28 requests stay stateless.
  const sessions = config.stateless
    ? undefined
    : new SessionTable({
        max: limits.sessions,
        timeoutMs: config.sessionTimeoutMs,
        actionTimeoutMs: config.actionTimeoutMs,
        store: state.sessions,
        eventLog: (id) => state.eventLog(id),
        onOpen: (id) => log.debug({ session: id }, 'session opened'),
        onContinue: (id) => log.debug({ session: id }, 'session continued from the shared store'),
        onClose: (id, why) => log.debug({ session: id, why }, 'session ended'),
      });

  /** A stateless request's server, its catalog registered. */
  const buildStateless = (session: Session) =>
    registerCatalog(session, { transport: 'tcp', seal: state.sealKey, onToolCall: toolCallLog(log) });
  /** Built MCP servers kept between a credential's stateless requests (kept.ts says when one comes back). */
  /** The bound on idle servers, kept's and held's together. */
  const idleBudget = new IdleBudget(MAX_KEPT_SERVERS);
  const kept = new KeptServers(
    buildStateless,
    (key) => pool.peek(key),
    MAX_KEPT_SERVERS,
    MAX_KEPT_PER_CREDENTIAL,
    idleBudget,
  );
  /** Servers kept connected for the legacy stateless requests they answer without the SDK's HTTP layer. */
  const heldServers = new HeldServers(buildStateless, (key) => pool.peek(key), idleBudget);
  /** The server each admitted stateless request holds (its catalog registered before the SDK), with its body. */
  const held = new WeakMap<object, { server: Server; body: unknown }>();
  const handler = createMcpHandler(
    (ctx) => {
      const ready = ctx.authInfo && held.get(ctx.authInfo);
      if (ready) {
        // Taken once: a server connects to one transport at a time.
        held.delete(ctx.authInfo!);
        return kept.lend(ready.server, ctx.era, ready.body);
      }
      const session = (ctx.authInfo && bound.get(ctx.authInfo)) ?? pool.peek(ctx.authInfo?.clientId ?? '');
      if (!session) throw new Error('no session for this request');
      return buildServer(session, {
        transport: 'tcp',
        seal: state.sealKey,
        onToolCall: toolCallLog(log),
      });
    },
    {
      legacy: 'stateless',
      responseMode: 'auto',
      // subscriptions/listen: credentials' changes on their own streams, 512 per process, keep-alives every 25 s.
      bus: subscriptions.bus,
      ...LISTEN_ROUTER_OPTIONS,
      maxRequestBodySize: config.maxRequestBodyBytes,
      onerror: (e) => log.debug({ err: e.message }, 'mcp handler'),
    },
  );
  const node = toNodeHandler(handler, { maxRequestBodySize: config.maxRequestBodyBytes });

  /** Each POST's parsed body, for answers given outside the request's own flow (shared state unreachable). */
  const bodies = new WeakMap<IncomingMessage, unknown>();

  /**
   * Reads a POST's JSON body and holds a call slot (streams take none). Resolves with the parsed body, or
   * undefined when it has answered the refusal itself (bad or oversized body, every slot held).
   */
  const readAndHoldSlot = async (
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<{ parsed: unknown } | undefined> => {
    let parsed: unknown;
    if (req.method === 'POST') {
      const body = await readJsonBody(req, config.maxRequestBodyBytes);
      if (!body.ok) {
        sendJson(
          res,
          body.status,
          rpcError(null, body.code, body.message),
          body.status === 413 ? { connection: 'close' } : {},
        );
        return undefined;
      }
      parsed = body.body;
      bodies.set(req, parsed);
    }
    // Streams hold no call slot: a session's GET event stream and subscriptions/listen stay open by design.
    if (req.method !== 'GET' && !STREAM_METHODS.has(methodOf(parsed) ?? '') && !slots.acquire(res)) {
      answerBusy(
        res,
        parsed,
        `server is busy: all ${slots.max} call slots are held; retry shortly`,
        BUSY_RETRY_AFTER_S,
      );
      return undefined;
    }
    return { parsed };
  };

  /** An admitted request: the per-credential rate limit, then the SDK's handler with the session bound. */
  const serveAdmitted = async (
    req: IncomingMessage,
    res: ServerResponse,
    key: string,
    session: Session,
    parsed: unknown,
  ) => {
    // An oversized batch is refused whole, as the SDK would refuse it, before its messages are charged.
    if (Array.isArray(parsed) && parsed.length > MAX_BATCH_MESSAGES) {
      sendJson(res, 400, rpcError(null, CODES.invalidRequest, BATCH_TOO_LARGE));
      return;
    }
    if (await throttle.refuseRate(res, key, parsed)) {
      // Within a stateful session the refusal's span names it, as its other requests' spans do: only an id
      // the session table holds for this credential, and only when someone observes.
      const sessionId = channels.mcpRefused.hasSubscribers ? await sessions?.ownedId(req, key) : undefined;
      publish(channels.mcpRefused, () => ({
        method: methodOf(parsed) ?? '',
        toolName: toolNameOf(parsed),
        toolKnown: session.surface.knows(toolNameOf(parsed) ?? ''),
        refusal: 'rate_limited' as const,
        errorCode: RATE_LIMITED_CODE,
        surface: session.surfaceName,
        transport: 'tcp' as const,
        sessionId,
      }));
      return;
    }
    const auth = { token: '', clientId: key, scopes: session.scopes ?? [] };
    bound.set(auth, session);
    (req as IncomingMessage & { auth?: unknown }).auth = auth;
    pinNoStore(res);
    try {
      await streams.serve(req, res, key, session, parsed, async () => {
        if (
          sessions &&
          (await sessions.serve(req, res, key, parsed, () =>
            registerCatalog(session, {
              transport: 'tcp',
              seal: state.sealKey,
              onToolCall: toolCallLog(log),
              subscriptions: { room: subscriptions, owner: key },
            }),
          ))
        )
          return;
        if (heldServers.takes(req, parsed)) return heldServers.serve(key, session, res, parsed, auth);
        const server = kept.take(key, session);
        held.set(auth, { server, body: parsed });
        try {
          await node(req as never, res as never, parsed);
        } finally {
          held.delete(auth);
          kept.settle(server);
        }
      });
    } catch (err) {
      if (!(err instanceof CatalogRegistrationFailed) || res.headersSent) throw err;
      // The entry cannot serve: it leaves (rebuild), and the credential's next request builds it anew.
      log.error({ err: err.cause instanceof Error ? err.cause.message : String(err.cause) }, err.message);
      pool.evict(key, 'rebuild');
      answerBusy(
        res,
        parsed,
        'session build failed: the catalog could not be registered for this credential; retry shortly',
        5,
      );
    }
  };

  /** A 403 answered before authentication, as a JSON-RPC error. */
  const forbid = (res: ServerResponse, message: string) =>
    sendJson(res, 403, rpcError(null, CODES.forbidden, message));

  const serveMcp = async (req: IncomingMessage, res: ServerResponse) => {
    if (!origins.allows(req)) {
      return forbid(
        res,
        'cross-origin request refused: this origin is not trusted (add it to --trusted-origins)',
      );
    }
    applyCorsHeaders(res, origins.trusted(req));
    if (req.method === 'OPTIONS') return answerPreflight(res, origins.trusted(req), preflightHeaders);
    if (drain.closing) {
      return sendJson(res, 503, rpcError(null, CODES.internal, 'the server is shutting down'), {
        'retry-after': '5',
      });
    }
    const choice = selectInstance(req);
    if ('status' in choice) {
      // OAuth mode names the published instances, before the token is used: they are public in the metadata.
      if (door && choice.unlisted)
        return forbid(res, `${choice.message}; the published instances are: ${config.forgeUrls.join(', ')}`);
      return sendJson(res, 400, rpcError(null, CODES.invalidRequest, choice.message));
    }
    const instance = choice.instance;
    if (door) return serveOAuth(req, res, door, instance);
    const cred = credentialOf(req);
    if (!cred) {
      return sendJson(
        res,
        401,
        {
          ...rpcError(
            null,
            CODES.noCredential,
            'no credential: send your token as "Authorization: Bearer <token>" or "PRIVATE-TOKEN: <token>"',
          ),
          accepted_headers: ACCEPTED_HEADERS,
        },
        { 'www-authenticate': 'Bearer realm="forge-mcp-server"' },
      );
    }
    const key = createHash('sha256').update(instance).update('\0').update(cred.token).digest('hex');
    const address = throttle.addressOf(req);
    if (await throttle.refuseBlocked(res, address, pool.has(key))) return;
    const read = await readAndHoldSlot(req, res);
    if (!read) return;
    const { parsed } = read;
    // A fine-grained token refused for want of User: Read is answered from memory for five minutes.
    if (!pool.has(key) && (await state.refused.get(key)) === 'fine-grained-no-user')
      return sendJson(res, 403, rpcError(null, CODES.forbidden, noUserReadRefusal(presentedLabel(cred))));
    let session: Session;
    // A token the server does not hold yet waits for one of the 16 credential-check turns.
    const uncached = !pool.has(key);
    if (uncached && !(await checks.take(VERIFICATION_WAIT_MS)))
      return sendJson(
        res,
        503,
        rpcError(
          null,
          CODES.internal,
          `server is busy: all ${VERIFICATION_SLOTS} token verifications are under way; retry shortly`,
        ),
        { 'retry-after': '5' },
      );
    try {
      session = await pool.get(key, () =>
        openSession({
          config,
          baseUrl: instance,
          token: cred.token,
          tokenHeader: cred.header,
          tokenLabel: presentedLabel(cred),
        }),
      );
    } catch (err) {
      pool.drop(key);
      if (err instanceof SessionRefused) {
        if (err.status === 401) await throttle.chargeFailure(address, key);
        return sendJson(
          res,
          err.status,
          err.status === 401
            ? { ...rpcError(null, err.code, err.message), accepted_headers: ACCEPTED_HEADERS }
            : rpcError(null, err.code, err.message),
          err.status === 401
            ? { 'www-authenticate': 'Bearer realm="forge-mcp-server", error="invalid_token"' }
            : {},
        );
      }
      const failure = identityCheckFailure(err);
      if (failure.status === 403) return forbid(res, failure.message);
      return sendJson(res, 503, rpcError(null, CODES.internal, failure.message), { 'retry-after': '5' });
    } finally {
      if (uncached) checks.give();
    }
    if (session.refusal) {
      // Nothing is served to it: the entry is not kept.
      pool.evict(key, 'below_minimum');
      if (session.refusedForUserRead) await state.refused.remember(key, 'fine-grained-no-user');
      return sendJson(res, 403, rpcError(null, CODES.forbidden, session.refusal));
    }
    // Error texts name the header this request presented the token in. The session names the one it was
    // opened with, so a request presenting it the same way needs no per-request label (and no async context
    // tracking, which costs every promise the process makes once any request has set one).
    const label = presentedLabel(cred);
    if (session.client.tokenLabel === label) await serveAdmitted(req, res, key, session, parsed);
    else await presentedTokenLabel.run(label, () => serveAdmitted(req, res, key, session, parsed));
  };

  /** Answers an OAuth-mode refusal: the JSON-RPC error, its challenge or Retry-After, charged if it says so. */
  const refuseAdmission = async (res: ServerResponse, refusal: Refusal, address: string, key: string) => {
    if (refusal.charge) await throttle.chargeFailure(address, key);
    return sendJson(res, refusal.status, rpcError(null, refusal.code, refusal.message), refusal.headers);
  };

  const serveOAuth = async (req: IncomingMessage, res: ServerResponse, door: OAuthDoor, instance: string) => {
    // PRIVATE-TOKEN is refused even beside a bearer token: a request carrying it is one this mode does not take.
    const privateTokenSent = req.headers['private-token'] !== undefined;
    const token = bearerOf(req);
    if (!token || privateTokenSent) return refuseAdmission(res, door.noCredential(privateTokenSent), '', '');
    const key = createHash('sha256').update(instance).update('\0').update(token).digest('hex');
    const address = throttle.addressOf(req);
    if (await throttle.refuseBlocked(res, address, pool.has(key))) return;
    const read = await readAndHoldSlot(req, res);
    if (!read) return;
    const { parsed } = read;
    const admission = await door.admit(instance, token, key);
    if (!admission.ok) return refuseAdmission(res, admission, address, key);
    const session = admission.session;
    if (session.refusal) {
      return refuseAdmission(res, door.refusal(session), address, key);
    }
    await serveAdmitted(req, res, key, session, parsed);
  };

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    applySecurityHeaders(res);
    if (!hosts.allows(req)) {
      logRefusedHost(req);
      return sendJson(
        res,
        403,
        rpcError(null, CODES.forbidden, 'this Host is not served here (DNS rebinding protection)'),
      );
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/health') {
      if (drain.draining) return sendJson(res, 503, { status: 'draining', version: VERSION });
      return sendJson(res, 200, { status: 'ok', version: VERSION });
    }
    if (SERVER_CARD_PATHS.includes(url.pathname)) return card(req, res);
    if (door && url.pathname === door.resource.path)
      return sendPublic(res, req.method, 'application/json', door.resource.body);
    if (door?.resource.page && url.pathname === OAUTH_PAGE_PATH && url.pathname !== mcpPath)
      return sendPublic(res, req.method, 'text/plain; charset=utf-8', door.resource.page);
    if (url.pathname !== mcpPath) return sendJson(res, 404, { error: 'not found' });
    return serveMcp(req, res);
  };

  /** The shared store does not answer, or is held by replicas sealing otherwise: 503 with Retry-After. */
  const unavailable = (req: IncomingMessage, res: ServerResponse, err: StateUnavailable) => {
    log.debug({ err: err.message }, 'request refused: shared state unreachable');
    if (res.headersSent) return void res.end();
    sendJson(
      res,
      503,
      rpcError(
        (bodies.get(req) as { id?: unknown } | undefined)?.id,
        CODES.internal,
        err.conflict
          ? 'shared state is unavailable: replicas sealing it with another FORGE_MCP_STATE_KEY, or with none, now use the Redis server this replica shares its state through; it serves again once they are gone (its log says what to set); retry later'
          : 'shared state is unavailable: the Redis server this replica shares its state through does not answer; retry shortly',
      ),
      { 'retry-after': String(err.retryAfterS) },
    );
  };

  // The tokens held: the pool's, and, when a heap snapshot can be taken (FORGE_MCP_PPROF_ADDR), those of the
  // requests being answered (one still being verified among them); without it no request is tracked.
  const live = config.pprofAddr ? new Set<IncomingMessage>() : undefined;
  const heldNoMore = holdsSecrets(function* () {
    yield* pool.secrets();
    for (const req of live ?? []) yield* requestSecrets(req);
  });
  const scheme = config.tlsCert && config.tlsKey ? 'https' : 'http';
  const server = createListener(config, (req, res) => {
    if (live) {
      live.add(req);
      res.once('close', () => live.delete(req));
    }
    // Observers see the whole exchange, the host check included.
    within(
      channels.httpRequest,
      () => ({ req, res, scheme }),
      () =>
        serve(req, res).catch((err) => {
          if (isStateUnavailable(err)) return unavailable(req, res, err);
          log.error({ err: (err as Error).message }, 'request failed');
          if (!res.headersSent) sendJson(res, 500, rpcError(null, CODES.internal, 'internal error'));
          else res.end();
        }),
    );
  });
  await bind(server, addr, config.httpSocketMode);
  const url = urlOf(server, Boolean(config.tlsCert && config.tlsKey), mcpPath);
  const unknownExcluded = config.excludeTools.length
    ? unknownExclusions(lazyCatalog(), config.excludeTools)
    : [];
  for (const e of unknownExcluded) log.warn({ entry: e }, unknownExclusionMessage(lazyCatalog(), e));
  log.info(
    {
      url,
      // The address clients are told to use, and in OAuth mode where they find the metadata: what a wrong
      // --public-url is seen by.
      ...(config.publicUrl ? { public_url: config.publicUrl } : {}),
      ...(config.authMode === 'oauth' ? { resource_metadata: protectedResource(config).url } : {}),
      instances: config.forgeUrls.map((u) => new URL(u).host),
      card: SERVER_CARD_PATHS[0],
      // What an operator checks a deployment by: how callers authenticate, whether sessions are kept (and for
      // how long idle), the per-credential rate, the pool's size, and where shared state lives (never the URL,
      // which may hold a password).
      auth: config.authMode,
      sessions: config.stateless
        ? 'stateless'
        : config.sessionTimeoutMs > 0
          ? `stateful, ending after ${formatDuration(config.sessionTimeoutMs)} idle`
          : 'stateful, never ending for idleness',
      rate_limit:
        config.rateLimitRps > 0 ? `${config.rateLimitRps}/s, burst ${config.rateLimitBurst}` : 'off',
      pool: config.maxHttpClients,
      // Read-only wins over safe mode, so only one of them is named.
      guardrails:
        [
          config.readOnly ? 'read-only' : config.safeMode ? 'safe mode' : '',
          config.excludeTools.length ? `excluding ${config.excludeTools.join(',')}` : '',
        ]
          .filter(Boolean)
          .join('; ') || 'none',
      shared_state: config.redisUrl ? `redis ${redisHost(config.redisUrl)}` : 'this process',
    },
    'serving over HTTP',
  );
  return {
    server,
    url,
    drain: async () => {
      log.info({ delayMs: config.drainDelayMs }, 'draining: /health answers 503');
      await drain.start(config.drainDelayMs);
    },
    // Closing: the listener stops accepting and idle connections close; calls already being served finish
    // (CLOSE_GRACE_MS at most), then event streams end and every connection left is cut. A request that still
    // arrives on an open connection meanwhile is answered 503 'the server is shutting down', uncharged.
    close: () =>
      new Promise<void>((resolve) => {
        const calls = slots.inUse;
        log.info(
          { calls },
          calls === 0
            ? 'closing: no new connections; no call is being answered'
            : `closing: no new connections; ${calls} call(s) being answered may finish within ${CLOSE_GRACE_MS / 1000} s`,
        );
        drain.close();
        const cut = setTimeout(() => {
          const left = slots.inUse;
          if (left > 0)
            log.warn(
              { calls: left },
              `closing: ${left} call(s) still running after ${CLOSE_GRACE_MS / 1000} s were cut off`,
            );
          server.closeAllConnections?.();
        }, CLOSE_GRACE_MS);
        server.close(() => {
          clearTimeout(cut);
          pool.close();
          heldNoMore();
          unlinkSocket(addr);
          void Promise.resolve(state.close())
            .catch(() => undefined)
            .then(() => {
              stopWatching();
              log.info('stopped');
              resolve();
            });
        });
        server.closeIdleConnections?.();
        subscriptions.close();
        void slots.idle(CLOSE_GRACE_MS).then(() => {
          void handler.close();
          void sessions?.closeAll();
          server.closeIdleConnections?.();
        });
      }),
  };
}
