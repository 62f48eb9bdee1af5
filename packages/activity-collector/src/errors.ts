/** An error caused by the user's input (configuration, arguments, environment); printed as one line. */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserError';
  }
}

/** Raised when the configuration is invalid; the message names the key and what is accepted. */
export class ConfigError extends UserError {
  constructor(
    readonly key: string,
    readonly accepted: string,
    detail?: string,
  ) {
    super(`invalid configuration: ${key}: ${detail ? detail + '; ' : ''}accepted: ${accepted}`);
    this.name = 'ConfigError';
  }
}

/** The upstream rate limit would need a longer wait than allowed. */
export class RateLimitError extends Error {
  constructor(
    readonly resetAt: Date,
    readonly waitSeconds: number,
    readonly maxWaitSeconds?: number,
  ) {
    super(
      `upstream rate limit exhausted until ${resetAt.toISOString()} (${Math.ceil(waitSeconds)} s), longer than rate_limit.max_wait_seconds${maxWaitSeconds === undefined ? '' : ` (${maxWaitSeconds})`}; the next sweep continues`,
    );
    this.name = 'RateLimitError';
  }
}

/** A URL as a message may show it: without a user, password or query, which may hold a credential. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return (u.origin + u.pathname).replace(/\/+$/, '');
  } catch {
    return '(api_url)';
  }
}

/** The upstream could not be asked at all (no connection, an unknown host, a TLS failure), after retries. */
export class UnreachableError extends Error {
  constructor(
    readonly apiUrl: string,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'UnreachableError';
  }
}

/** The upstream answered something the collector cannot use (an unexpected status or shape). */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}
