/**
 * OAuth mode's door: which bearer token a request may use, verified against the instance (identity, scopes,
 * expiry, and with --oauth-client-uid the application it was issued to) and remembered as the spec's
 * verified identity cache and refused-token memory (see oauth.ts for how they sit beside the session pool).
 */
import type { Config } from '../config/types.js';
import { identityCheckFailure } from './credential.js';
import type { Logger } from '../log.js';
import {
  openSession,
  probeCredential,
  SessionRefused,
  verifiedProbe,
  type Session,
  type SessionInit,
} from '../session/index.js';
import { CODES } from './headers.js';
import { ThrottledLog } from './limits.js';
import { challenge, protectedResource, type ChallengeError, type ProtectedResource } from './oauth.js';
import type { IdentityStore, RefusedTokenStore, VerifiedIdentity } from '../state/index.js';
import type { EvictionReason, SessionPool } from './pool.js';
import { Turns, VERIFICATION_SLOTS, VERIFICATION_WAIT_MS } from './turns.js';

const TOKEN_LABEL = 'the token this request presented (its Authorization header)';
/** Retry-After of a 503 when the instance named none. */
const DEFAULT_RETRY_AFTER_S = 5;
/**
 * Pool evictions that say nothing of the token (this replica's room or its own failure): with a shared
 * identity cache the verification stays for the other replicas. Any other reason forgets it everywhere.
 */
const LOCAL_EVICTIONS: ReadonlySet<EvictionReason> = new Set([
  'size_pressure',
  'size_pressure_busy',
  'idle',
  'rebuild',
]);
/** Why a request may not use its token: the status, JSON-RPC error and headers to answer with. */
export interface Refusal {
  ok: false;
  status: number;
  code: number;
  message: string;
  headers: Record<string, string>;
  /** Charged to the address's authentication budgets (a token the instance refused). */
  charge: boolean;
}

export type Admission = { ok: true; session: Session } | Refusal;

export class OAuthDoor {
  readonly resource: ProtectedResource;
  private readonly identities: IdentityStore;
  private readonly refused: RefusedTokenStore;
  /** One verification per credential at a time: concurrent first requests share it. */
  private readonly verifying = new Map<string, Promise<Admission>>();
  private readonly turns = new Turns(VERIFICATION_SLOTS);
  /** Tokens of an application the pin does not list: one WARN per ten seconds, like the other refusals. */
  private readonly unlistedApps = new ThrottledLog(10_000);

  constructor(
    private readonly config: Config,
    private readonly log: Logger,
    private readonly pool: SessionPool,
    state: { identities: IdentityStore; refused: RefusedTokenStore },
  ) {
    this.resource = protectedResource(config);
    this.identities = state.identities;
    this.refused = state.refused;
  }

  private refuse(
    status: number,
    code: number,
    message: string,
    err: ChallengeError | undefined,
    charge = false,
  ): Refusal {
    return {
      ok: false,
      status,
      code,
      message,
      charge,
      headers: { 'www-authenticate': challenge(this.resource, err) },
    };
  }

  private unavailable(message: string, retryAfterS?: number): Refusal {
    return {
      ok: false,
      status: 503,
      code: CODES.internal,
      message,
      charge: false,
      headers: { 'retry-after': String(retryAfterS ?? DEFAULT_RETRY_AFTER_S) },
    };
  }

  /** 401 without an error code: the request brought no bearer token. */
  noCredential(privateTokenSent: boolean): Refusal {
    const message = privateTokenSent
      ? 'PRIVATE-TOKEN is not accepted by this server (OAuth mode): send an OAuth access token as "Authorization: Bearer <token>"; the resource_metadata URL of the WWW-Authenticate header says where to get one'
      : 'no credential: send an OAuth access token as "Authorization: Bearer <token>"; the resource_metadata URL of the WWW-Authenticate header says where to get one';
    return this.refuse(401, CODES.noCredential, message, undefined);
  }

  private invalidToken(charge: boolean): Refusal {
    return this.refuse(
      401,
      CODES.noCredential,
      'the instance refused the token this request presented (revoked, expired or unknown): obtain a new access token (refresh it or authorize again) and retry',
      {
        error: 'invalid_token',
        description: 'The instance rejected the access token (revoked, expired or unknown)',
      },
      charge,
    );
  }

  private notPinned(): Refusal {
    return this.refuse(
      401,
      CODES.noCredential,
      `this server admits only OAuth access tokens issued to its registered application (personal access tokens and other applications' tokens are refused): authorize with that application; see ${this.resource.documentation}`,
      {
        error: 'invalid_token',
        description: 'The access token was not issued to an application this server admits',
        uri: this.resource.documentation,
      },
    );
  }

  private belowMinimum(scopes: string[] | undefined): Refusal {
    const has = scopes ? ` (it has: ${scopes.join(', ') || 'none'})` : '';
    return this.refuse(
      403,
      CODES.forbidden,
      `the token this request presented carries neither the api nor the read_api scope${has}: authorize with the ${this.resource.scope} scope (read_api for read-only use)`,
      {
        error: 'insufficient_scope',
        description: 'The access token carries neither the api nor the read_api scope',
        scope: 'read_api',
      },
    );
  }

  private noUserRead(): Refusal {
    return this.refuse(
      403,
      CODES.forbidden,
      'the fine-grained token this request presented lacks the User: Read permission, which the identity check needs: create a fine-grained token granting User: Read, or use a token with api or read_api',
      {
        error: 'insufficient_scope',
        description: 'The fine-grained access token lacks the User: Read permission',
        scope: 'read_api',
      },
    );
  }

  /** The session a bearer token may use for `instance`, or why not. `key` is the credential digest. */
  async admit(instance: string, token: string, key: string): Promise<Admission> {
    const remembered = await this.refused.get(key);
    if (remembered === 'invalid') return this.invalidToken(true);
    if (remembered === 'pin') return this.notPinned();
    if (remembered === 'fine-grained-no-user') return this.noUserRead();
    const identity = await this.identities.fresh(key);
    if (identity) {
      const held = this.pool.peek(key);
      if (held) return { ok: true, session: held };
    }
    let pending = this.verifying.get(key);
    if (!pending) {
      pending = (
        identity && this.adoptable(identity)
          ? this.adopt(instance, token, key, identity)
          : this.verifyInTurn(instance, token, key)
      ).finally(() => this.verifying.delete(key));
      this.verifying.set(key, pending);
    }
    return pending;
  }

  /**
   * Whether a fresh identity this replica holds no session for may open one without verifying again: only
   * from a shared cache (another replica verified it), and not when the verification itself could not tell
   * everything a session needs (scopes assumed because unreadable, whose kind is asked again; a fine-grained
   * token, whose grant is read through the token's own id).
   */
  private adoptable(identity: VerifiedIdentity): boolean {
    return (
      this.identities.shared === true &&
      identity.userId !== undefined &&
      !identity.scopesAssumed &&
      !identity.scopes.includes('granular')
    );
  }

  /**
   * Opens the credential's session from another replica's verification: nothing is sent to verify the token
   * again, and the cached identity keeps the expiry that verification gave it.
   */
  private async adopt(
    instance: string,
    token: string,
    key: string,
    identity: VerifiedIdentity,
  ): Promise<Admission> {
    const init = this.initFor(instance, token);
    const verified = { id: identity.userId, username: identity.username };
    try {
      const session = await this.pool.get(key, () =>
        openSession(init, verifiedProbe(init, verified, identity.scopes)),
      );
      return { ok: true, session };
    } catch (err) {
      this.log.debug({ err: (err as Error).message }, 'session build failed');
      return this.unavailable('the session for this token could not be built; retry shortly');
    }
  }

  private initFor(instance: string, token: string): SessionInit {
    return {
      config: this.config,
      baseUrl: instance,
      token,
      tokenHeader: 'bearer',
      tokenLabel: TOKEN_LABEL,
    };
  }

  private async verifyInTurn(instance: string, token: string, key: string): Promise<Admission> {
    if (!(await this.turns.take(VERIFICATION_WAIT_MS)))
      return this.unavailable(
        `server is busy: all ${VERIFICATION_SLOTS} token verifications are under way; retry shortly`,
      );
    try {
      return await this.verify(instance, token, key);
    } finally {
      this.turns.give();
    }
  }

  /** Opens the credential's session, which is its verification, and remembers the outcome. */
  private async verify(instance: string, token: string, key: string): Promise<Admission> {
    const { config } = this;
    await this.identities.forget(key);
    this.pool.drop(key);
    const init = this.initFor(instance, token);
    const probe = probeCredential(init);
    let identity;
    try {
      identity = await probe.identity;
    } catch (err) {
      if (err instanceof SessionRefused && err.status === 401) {
        await this.refused.remember(key, 'invalid');
        return this.invalidToken(true);
      }
      // Throttled or unreachable: never reported as a refused token.
      const failure = identityCheckFailure(err);
      if (failure.status === 503) return this.unavailable(failure.message, failure.retryAfterS);
      return {
        ok: false,
        status: 403,
        code: CODES.forbidden,
        message: failure.message,
        headers: {},
        charge: false,
      };
    }
    const self = await probe.self;
    if (config.oauthClientUids.length > 0) {
      const issuedTo = self.kind === 'oauth' ? self.applicationUid : undefined;
      if (issuedTo === undefined && self.kind !== 'personal' && !self.refused) {
        return this.unavailable(
          'token introspection (GET /oauth/token/info) did not answer, so the application the token was issued to is unknown; retry shortly',
          self.retryAfterSeconds,
        );
      }
      if (issuedTo === undefined || !config.oauthClientUids.includes(issuedTo)) {
        // An application ID is public (clients are configured with it): naming it shows a misspelt pin.
        if (issuedTo !== undefined)
          this.unlistedApps.event((suppressed) =>
            this.log.warn(
              { application: issuedTo, suppressed },
              `refused an OAuth token issued to application "${issuedTo}": FORGE_MCP_OAUTH_CLIENT_UID (--oauth-client-uid) lists ${config.oauthClientUids.join(', ')}; add it there if this server should admit that application's tokens`,
            ),
          );
        await this.refused.remember(key, 'pin');
        return this.notPinned();
      }
    }
    let scopes = self.scopes;
    const scopesAssumed = !scopes;
    if (identity.id === undefined) {
      if (!scopes?.includes('granular')) return this.belowMinimum(scopes);
      await this.refused.remember(key, 'fine-grained-no-user');
      return this.noUserRead();
    }
    if (!scopes) {
      if (self.refused) return this.belowMinimum(undefined);
      // Neither the token's description nor introspection answered: the token is taken as able to write.
      this.log.debug({ instance: new URL(instance).host }, 'token scopes unreadable: api assumed');
      scopes = ['api'];
    }
    if (!scopes.includes('granular') && !scopes.includes('api') && !scopes.includes('read_api'))
      return this.belowMinimum(scopes);
    let session: Session;
    try {
      session = await openSession(init, probe);
    } catch (err) {
      this.log.debug({ err: (err as Error).message }, 'session build failed');
      return this.unavailable('the session for this token could not be built; retry shortly');
    }
    if (session.refusal) return this.belowMinimum(session.scopes);
    await this.identities.remember(
      key,
      {
        userId: identity.id,
        username: identity.username,
        scopes,
        ...(scopesAssumed ? { scopesAssumed } : {}),
      },
      self.expiresAt,
    );
    await this.pool.get(key, async () => session);
    return { ok: true, session };
  }

  /** The 403 of a pooled session found below the minimum after admission (its kind learned later). */
  refusal(session: Session): Refusal {
    return this.belowMinimum(session.scopes);
  }

  /**
   * The credential's pool entry was evicted: its verified identity goes with it, except from a shared cache
   * when the reason says nothing of the token (the other replicas keep serving it).
   */
  forgetIdentity(key: string, reason: EvictionReason): void {
    if (this.identities.shared && LOCAL_EVICTIONS.has(reason)) return;
    void this.identities.forget(key).catch(() => undefined);
  }
}
