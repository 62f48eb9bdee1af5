export type LicensePlan = 'free' | 'premium' | 'ultimate';

export interface SimOptions {
  port?: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
  tls?: { cert: string; key: string } | 'self-signed';
  /**
   * Further host names the self-signed certificate is valid for, e.g. the hosted instance's, for a client
   * that reaches the simulator under that name through a proxy.
   */
  tlsNames?: string[];
  /** Plan answered by GET /license; null answers 404. Defaults to 'ultimate'. */
  license?: LicensePlan | null;
  /** Defaults to '19.4.1-ee'. */
  version?: string;
  /** Added before every response. */
  latencyMs?: number;
  /** Weak ETags on successful REST GETs and 304 for a matching If-None-Match; defaults to true. */
  etags?: boolean;
  /** Lifetime of access tokens issued by POST /oauth/token; defaults to 7200 (two hours). */
  oauthTokenLifetimeSeconds?: number;
  /** Redirect URIs registered on the pre-registered application beside the loopback callbacks. */
  oauthRedirectUris?: string[];
}

export interface RecordedRequest {
  method: string;
  /** Full path including /api/v4, without the query string. */
  path: string;
  query: Record<string, string | string[]>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON, form fields, the raw string, or the bytes of an application/octet-stream body (a Buffer). */
  body: unknown;
  /** The credential presented (PRIVATE-TOKEN or Bearer). */
  token?: string;
  graphqlOperation?: string;
  status: number;
  at: number;
  /** The client closed the connection while a fault held the answer (its delay or gate): nothing was sent. */
  abandoned?: boolean;
}

export interface FaultRule {
  method?: string;
  /** Matched against the path including /api/v4 or /api/graphql (string: exact match). */
  path?: string | RegExp;
  graphqlOperation?: string;
  /** Only requests presenting this credential. */
  token?: string;
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Hold the answer (after any delay) until this settles: a gate a test opens when it is ready. */
  until?: Promise<unknown>;
  /** Destroy the socket without answering. */
  drop?: boolean;
  /** Answer with a redirect to this path or absolute URL. */
  redirectTo?: string;
  /** Defaults to 302. */
  redirectStatus?: number;
  /** How many requests the rule applies to; unlimited by default. */
  times?: number;
}

export interface SimTokens {
  api: string;
  readApi: string;
  /** Administrator (root), scopes api + admin_mode. */
  admin: string;
  mcpOnly: string;
  /** Scope read_user only. */
  noScope: string;
  /** Answers 401 invalid_token, "Token is revoked". */
  revoked: string;
  /** Answers 401 invalid_token, "Token is expired". */
  expired: string;
  /** Fine-grained token, scopes ['granular']. */
  fineGrained: string;
  /** OAuth access token; GET /oauth/token/info answers for it. */
  oauth: string;
}

/** A token added at run time (addToken). */
export interface TokenSpec {
  /** Defaults to 'oauth'. */
  kind?: 'personal' | 'oauth';
  /** Defaults to ['api']. */
  scopes?: string[];
  /** Owner; defaults to 2 (alice). */
  userId?: number;
  /** Lifetime from now in seconds; no expiry when unset. */
  expiresInSeconds?: number;
  /** OAuth application the token was issued to; defaults to the simulator's one application. */
  applicationUid?: string;
  /** A fine-grained personal access token's grant (kind personal, scopes ['granular']). */
  granularScopes?: unknown[];
  /** The token itself; defaults to a new one named after its kind and id, with 16 random hex digits. */
  secret?: string;
}

export interface ForgeSim {
  /** e.g. http://127.0.0.1:41234 (https when tls). */
  url: string;
  /** PEM of the self-signed certificate when tls = 'self-signed'. */
  ca?: string;
  tokens: SimTokens;
  /** Every request in arrival order, refused ones included. */
  requests: RecordedRequest[];
  clearRequests(): void;
  fault(rule: FaultRule): void;
  clearFaults(): void;
  setLicense(plan: LicensePlan | null): void;
  /** Adds a token to the state (until reset) and returns its secret. */
  addToken(spec?: TokenSpec): string;
  /** The pre-registered public OAuth application and the user who signs in on the authorization page. */
  oauth: { clientId: string; redirectUris: string[]; username: string; password: string };
  /** Back to the seeded state; clears requests and faults. */
  reset(): void;
  close(): Promise<void>;
}
