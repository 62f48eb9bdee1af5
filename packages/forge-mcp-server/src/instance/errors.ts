/**
 * Every failure of a call to the instance is classified once, here, into the spec's shape:
 * `<operation>: <classification> (<instance message>). Suggestion: <hint>: <cause>`.
 */

/** Classification texts by status (spec: Errors, Classification by status). */
const BY_STATUS: Record<number, string> = {
  400: 'bad request: check your input parameters',
  401: 'unauthorized: either the token is invalid or expired, or valid but lacking a permission (some routes answer a missing permission with 401); if the token works elsewhere treat as permission refusal',
  403: 'access denied: your token lacks the required permissions (missing scope, insufficient role, instance settings)',
  404: 'not found: the resource does not exist, you lack access, or the feature needs a higher tier',
  405: "method not allowed: not allowed in the resource's current state",
  409: 'conflict: the resource already exists or state conflict',
  422: 'validation failed: the instance rejected the data',
  429: 'rate limited: wait before retrying (already retried)',
  500: 'internal server error',
  502: 'temporarily unavailable (bad gateway)',
  503: 'under maintenance or overloaded (service unavailable)',
};
export const TOKEN_REFUSED = 'authentication failed: the instance rejected the token itself';

export function classificationFor(status: number): string {
  return BY_STATUS[status] ?? `returned HTTP ${status}`;
}

const REASON: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};
export const statusLine = (status: number): string =>
  `${status}${REASON[status] ? ' ' + REASON[status] : ''}`;

export type FailureKind =
  | 'status'
  | 'canceled'
  | 'deadline'
  | 'destination_refused'
  | 'connection_refused'
  | 'dns'
  | 'timeout'
  | 'tls'
  | 'network'
  | 'unexpected'
  | 'graphql';

/** A classified failure. `message()` renders it for a given operation label. */
export class InstanceError extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly classification: string,
    readonly parts: {
      status?: number;
      instanceMessage?: string;
      hint?: string;
      cause?: string;
      /** The instance refused the token itself (ends a pooled credential). */
      tokenRefused?: boolean;
      /** The instance refused the account itself (blocked, deactivated, terms not accepted ...). */
      accountRefused?: boolean;
      /** The body's RFC 6750 / instance error code, when any. */
      code?: string;
      retryAfterSeconds?: number;
      /** The answer's body, kept for the GraphQL rules; never rendered. */
      body?: unknown;
      /** GraphQL errors[].message, whole (for the fine-grained rules); never rendered as such. */
      messages?: string[];
    } = {},
  ) {
    super(classification);
    this.name = 'InstanceError';
  }

  get status(): number | undefined {
    return this.parts.status;
  }

  /** The same failure with another suggestion. A refused destination keeps its one hint (the flag, or none). */
  withHint(hint: string): InstanceError {
    if (this.kind === 'destination_refused') return this;
    return new InstanceError(this.kind, this.classification, { ...this.parts, hint });
  }

  render(operation: string): string {
    const { instanceMessage, hint, cause } = this.parts;
    let text = `${operation}: ${this.classification}`;
    if (instanceMessage) text += ` (${instanceMessage})`;
    if (hint) text += `. Suggestion: ${hint}`;
    if (cause) text += `: ${cause}`;
    return text;
  }
}

/**
 * `text` on one line: each line break, with the white space around it, one space. Not one regular expression
 * replacing white space around a break: that reads a run of white space without a break again from each of its
 * characters, in time growing with the square of the run's length (a megabyte of spaces: minutes).
 */
function oneLine(text: string): string {
  if (!text.includes('\n')) return text;
  const lines = text.split('\n');
  const last = lines.length - 1;
  return lines
    .map((line, i) => (i > 0 ? line.trimStart() : line))
    .map((line, i) => (i < last ? line.trimEnd() : line))
    .filter((line, i) => line !== '' || i === 0 || i === last)
    .join(' ');
}

/** Joins a list of messages on one line, capped in bytes (GraphQL errors: 2048). */
export function joinCapped(messages: string[], capBytes: number): string {
  const joined = oneLine(messages.join('; '));
  const buf = Buffer.from(joined, 'utf8');
  if (buf.length <= capBytes) return joined;
  // Cut on a character boundary.
  let cut = buf.subarray(0, capBytes).toString('utf8');
  if (cut.endsWith('\uFFFD')) cut = cut.slice(0, -1);
  return cut + '…';
}

/** Reads the instance's own message out of an error body, in any of the shapes it uses. */
export function instanceMessageOf(body: unknown): { message?: string; code?: string } {
  if (body == null) return {};
  if (typeof body === 'string') {
    const t = body.trim();
    return t && !t.startsWith('<') ? { message: t.slice(0, 500) } : {};
  }
  if (typeof body !== 'object') return {};
  const b = body as Record<string, unknown>;
  const code = typeof b.error === 'string' && /^[a-z_]+$/.test(b.error) ? b.error : undefined;
  const parts: string[] = [];
  const flatten = (v: unknown, key?: string): void => {
    if (v == null) return;
    if (typeof v === 'string') parts.push(key ? `${key} ${v}` : v);
    else if (Array.isArray(v)) v.forEach((x) => flatten(x, key));
    else if (typeof v === 'object')
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) flatten(x, key ? `${key}.${k}` : k);
    else parts.push(String(v));
  };
  if (b.message !== undefined) flatten(b.message);
  if (typeof b.error_description === 'string') parts.push(b.error_description);
  else if (typeof b.error === 'string' && !code) parts.push(b.error);
  else if (code && !parts.length) parts.push(code);
  if (Array.isArray(b.errors) && !parts.length)
    for (const e of b.errors) flatten((e as { message?: unknown })?.message ?? e);
  const message = parts.join('; ').slice(0, 1000) || undefined;
  return { message, code };
}

/**
 * Where an instance's answer quotes a credential (a proxy or error page echoing the request's headers, a URL
 * with ?private_token=), the value: a credential header's or query parameter's value, or any token by its
 * issued prefix. A cookie header's value runs to the end of its line.
 */
const QUOTED_CREDENTIAL = new RegExp(
  [
    String.raw`(\b(?:private|job|deploy)[-_]token["']?\s*[:=]\s*["']?)[^\s&;,"'<>)]+`,
    String.raw`(\b(?:access|refresh|id)_token["']?\s*[:=]\s*["']?)[^\s&;,"'<>)]+`,
    String.raw`(\bclient_secret["']?\s*[:=]\s*["']?)[^\s&;,"'<>)]+`,
    String.raw`(\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token)\s+)?)[^\s&;,"'<>)]+`,
    String.raw`(\b(?:set-)?cookie["']?\s*[:=]\s*)[^\r\n"]+`,
    String.raw`()\bgl(?:pat|oas|dt|rt|rtr|cbt|ptt|ft|imt|agent|soat|ffct|wt)-[A-Za-z0-9_.-]{8,}`,
  ].join('|'),
  'gi',
);
export const REDACTED = '[redacted]';

/**
 * A text of the instance's with every credential it quotes replaced by [redacted]: `token` (the one this
 * request presented, whatever its form) wherever it appears, and any credential value by the shapes above.
 */
export function withoutCredentials(text: string, token: string | undefined): string {
  let out = text;
  if (token) {
    for (const form of new Set([token, encodeURIComponent(token)]))
      if (out.includes(form)) out = out.split(form).join(REDACTED);
  }
  return out.replace(QUOTED_CREDENTIAL, (whole, ...groups: unknown[]) => {
    const lead = groups.slice(0, 6).find((g) => typeof g === 'string') as string | undefined;
    return (lead ?? '') + REDACTED;
  });
}

/** An answer's body with `withoutCredentials` applied to every string inside it. */
export function bodyWithoutCredentials(body: unknown, token: string | undefined): unknown {
  if (typeof body === 'string') return withoutCredentials(body, token);
  if (Array.isArray(body)) return body.map((x) => bodyWithoutCredentials(x, token));
  if (body && typeof body === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body)) out[k] = bodyWithoutCredentials(v, token);
    return out;
  }
  return body;
}

/** The first of `err` and its causes (five deep at most) that `is` matches. */
export function causeOf<T>(err: unknown, is: (e: unknown) => e is T): T | undefined {
  let e = err as { cause?: unknown } | undefined;
  for (let i = 0; e && i < 5; i++, e = e.cause as typeof e) if (is(e)) return e;
  return undefined;
}
