/**
 * The first requests of a credential, which need nothing but the instance client: the identity check
 * (GET /user) and the token's own description. Kept apart from the session (which needs the catalog) so
 * that stdio can send them before the rest of the server has loaded.
 */
import type { Config } from '../config/types.js';
import { InstanceClient, InstanceError } from '../instance/index.js';
import type { Logger } from '../log.js';

export interface SessionInit {
  config: Config;
  baseUrl: string;
  token: string;
  tokenLabel: string;
  tokenHeader?: 'private-token' | 'bearer';
  /** Where the session's one fine-grained INFO line goes (default: a stderr logger). */
  log?: Pick<Logger, 'info'>;
}

export interface Identity {
  id?: number;
  username?: string;
}

/** Thrown when a credential cannot open a session; `code` is the JSON-RPC code to answer with. */
export class SessionRefused extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly status: number,
  ) {
    super(message);
  }
}

export type SelfRead = {
  scopes?: string[];
  id?: number;
  transient?: boolean;
  /** Which endpoint described the token: its own description (personal) or introspection (oauth). */
  kind?: 'personal' | 'oauth';
  /** When the token stops working (ms since the epoch), when the instance said so. */
  expiresAt?: number;
  /** OAuth tokens: the application they were issued to. */
  applicationUid?: string;
  /** One of the endpoints refused the token with 401 or 403. */
  refused?: boolean;
  /** Bearer tokens: introspection (GET /oauth/token/info) gave no answer (5xx, 429, timeout, network). */
  introspectionUnanswered?: boolean;
  /** The Retry-After of a throttled or overloaded answer, when the instance sent one. */
  retryAfterSeconds?: number;
};

/** Verification requests follow a redirect only on the instance's own host. */
const VERIFY = { stayOnHost: true } as const;

function refusedBy(err: unknown): boolean {
  return err instanceof InstanceError && (err.status === 401 || err.status === 403);
}

/** 5xx, 429, timeout or no answer (a 404 or another 4xx is an answer). */
function unanswered(err: unknown): boolean {
  if (!(err instanceof InstanceError)) return true;
  return err.kind === 'status' ? (err.status ?? 0) >= 500 || err.status === 429 : err.kind !== 'canceled';
}

function retryAfterOf(err: unknown): number | undefined {
  return err instanceof InstanceError ? err.parts.retryAfterSeconds : undefined;
}

function expiryOfDate(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const t = Date.parse(value);
  return Number.isFinite(t) ? t : undefined;
}

/** A credential's first requests, under way. Both promises are already handled: awaiting them later is safe. */
export interface CredentialProbe {
  client: InstanceClient;
  /** Rejects with SessionRefused (401) or the InstanceError of a failed check; a 403 gives an empty identity. */
  identity: Promise<Identity>;
  self: Promise<SelfRead>;
}

/**
 * Whether an unrecognised Bearer token is introspected as an OAuth access token: only in OAuth mode.
 * Elsewhere an OAuth token's scopes are unknown and it is taken as able to write.
 */
export function introspects(init: SessionInit): boolean {
  return init.tokenHeader === 'bearer' && init.config.authMode === 'oauth';
}

/** The credential's instance client. */
function clientFor(init: SessionInit): InstanceClient {
  const { config } = init;
  return new InstanceClient({
    baseUrl: init.baseUrl,
    token: init.token,
    tokenHeader: init.tokenHeader,
    tokenLabel: init.tokenLabel,
    timeoutMs: config.actionTimeoutMs,
    skipTlsVerify: config.skipTlsVerify,
    operatorChosen: config.forgeUrls.includes(init.baseUrl),
    allowPrivateInstances: config.allowPrivateInstances,
  });
}

/**
 * Creates the credential's instance client and sends its identity check and token read, together. Once the
 * identity check refuses the token (401), the token read stops: a request of it still under way is aborted,
 * and introspection is not sent.
 */
export function probeCredential(init: SessionInit): CredentialProbe {
  const client = clientFor(init);
  const refused = new AbortController();
  const self = readSelf(client, introspects(init), refused.signal);
  const identity = checkIdentity(client, init.tokenLabel);
  identity.catch((err: unknown) => {
    if (err instanceof SessionRefused) refused.abort(err);
  });
  // Handled now, awaited later: a failure before the session awaits it is not an unhandled rejection.
  self.catch(() => undefined);
  return { client, identity, self };
}

/**
 * A probe answered by an earlier verification of the same credential (OAuth mode's shared identity cache):
 * the client is created, and nothing is sent.
 */
export function verifiedProbe(init: SessionInit, identity: Identity, scopes: string[]): CredentialProbe {
  return {
    client: clientFor(init),
    identity: Promise.resolve({ id: identity.id, username: identity.username }),
    self: Promise.resolve({ scopes }),
  };
}

async function checkIdentity(client: InstanceClient, tokenLabel: string): Promise<Identity> {
  try {
    const me = await client.rest('GET', '/user', VERIFY);
    const body = me.body as { id?: number; username?: string };
    return { id: body?.id, username: body?.username };
  } catch (err) {
    if (err instanceof InstanceError && err.status === 401)
      throw new SessionRefused(
        `the instance refused ${tokenLabel}: ${err.render('identity check')}`,
        -40100,
        401,
      );
    if (!(err instanceof InstanceError && err.status === 403)) throw err;
    // A genuine token below the read_api minimum (only mcp, say): the session only refuses.
    return {};
  }
}

/**
 * The token's scopes and (personal access tokens) its id, from its own description; with `introspect`, an
 * OAuth access token's from introspection. `stop` ends the read: the request under way is aborted and no
 * other is sent (what it then returns is read by nobody).
 */
export async function readSelf(
  client: InstanceClient,
  introspect: boolean,
  stop?: AbortSignal,
): Promise<SelfRead> {
  const init = stop ? { ...VERIFY, signal: stop } : VERIFY;
  let selfRefused = false;
  let selfRetryAfter: number | undefined;
  try {
    const self = await client.rest('GET', '/personal_access_tokens/self', init);
    const body = self.body as { scopes?: unknown; id?: unknown; expires_at?: unknown };
    if (Array.isArray(body?.scopes))
      return {
        scopes: body.scopes.map(String),
        id: typeof body.id === 'number' ? body.id : undefined,
        kind: 'personal',
        expiresAt: expiryOfDate(body.expires_at),
      };
  } catch (err) {
    // 5xx, 429, timeout or no answer: the kind is unknown, to be asked again.
    const transient = unanswered(err);
    selfRefused = refusedBy(err);
    selfRetryAfter = retryAfterOf(err);
    if (!(err instanceof InstanceError) || !introspect)
      return { transient, refused: selfRefused, retryAfterSeconds: selfRetryAfter };
  }
  if (introspect && !stop?.aborted) {
    try {
      const info = await client.rest('GET', '/oauth/token/info', init);
      const body = info.body as {
        scope?: unknown;
        scopes?: unknown;
        expires_in?: unknown;
        expires_in_seconds?: unknown;
        application?: { uid?: unknown } | null;
      };
      const scope = body?.scope ?? body?.scopes;
      // Seconds left (the instance counts them from now); none means the token does not expire.
      const left = typeof body?.expires_in_seconds === 'number' ? body.expires_in_seconds : body?.expires_in;
      const described: SelfRead = {
        kind: 'oauth',
        ...(typeof left === 'number' ? { expiresAt: Date.now() + left * 1000 } : {}),
        ...(typeof body?.application?.uid === 'string' ? { applicationUid: body.application.uid } : {}),
        ...(selfRefused ? { refused: true } : {}),
      };
      if (Array.isArray(scope)) return { scopes: scope.map(String), ...described };
      if (typeof scope === 'string') return { scopes: scope.split(/\s+/).filter(Boolean), ...described };
      return described;
    } catch (err) {
      return {
        refused: selfRefused || refusedBy(err),
        introspectionUnanswered: unanswered(err),
        retryAfterSeconds: retryAfterOf(err) ?? selfRetryAfter,
      };
    }
  }
  return { refused: selfRefused };
}
