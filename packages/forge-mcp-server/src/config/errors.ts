/** Credentials a URL written in a value may carry: its user information, and a token in its query. */
const URL_CREDENTIALS =
  /(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"]+@|([?&](?:private_token|access_token|job_token|token)=)[^\s&#"]+/gi;

/**
 * A message about a value with the credentials any URL in it carries (scheme://user:password@host, ?private_token=)
 * replaced by <redacted>: the value is named so the user can find it, but a secret is not repeated.
 */
export function withoutUrlCredentials(message: string): string {
  return message.replace(URL_CREDENTIALS, (_whole, scheme?: string, query?: string) =>
    scheme !== undefined ? `${scheme}<redacted>@` : `${query}<redacted>`,
  );
}

/** A setting that refuses the start. The message is one line naming the setting, its value and what is accepted. */
export class ConfigError extends Error {
  constructor(message: string) {
    // One line whatever a value held: logs and terminals read it as one event.
    super(withoutUrlCredentials(message.replace(/[\r\n]+/g, ' ')));
    this.name = 'ConfigError';
  }
}
