/**
 * Credentials a value may carry: a URL's user information, a token in its query, and a token pasted into the
 * wrong setting (known by its issued prefix). A scheme is read to 32 characters at most: unbounded, a long run of
 * dotted words (a.b.c...) was read again from each word, in time growing with the square of its length.
 */
const CREDENTIALS =
  /(\b[a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/?#@"]+@|([?&](?:private_token|access_token|job_token|token)=)[^\s&#"]+|\bgl(?:pat|oas|dt|rt|cbt|ptt|ft|imt|soat|ffct)-[A-Za-z0-9_.-]{8,}/gi;

/**
 * A message about a value with the credentials in it (scheme://user:password@host, ?private_token=, glpat-...)
 * replaced by <redacted>: the value is named so the user can find it, but a secret is not repeated.
 */
export function withoutCredentials(message: string): string {
  return message.replace(CREDENTIALS, (_whole, scheme?: string, query?: string) =>
    scheme !== undefined ? `${scheme}<redacted>@` : query !== undefined ? `${query}<redacted>` : '<redacted>',
  );
}

/**
 * `message` with its credentials redacted, then `; accepts <accepts>` as written: an accepts text is the
 * server's own, and one that shows a URL's shape (redis://[[user]:password@]host) is not a credential.
 */
export function withAccepts(message: string, accepts?: string): string {
  const head = withoutCredentials(message.replace(/[\r\n]+/g, ' '));
  return accepts === undefined ? head : `${head}; accepts ${accepts}`;
}

/** A setting that refuses the start. The message is one line naming the setting, its value and what is accepted. */
export class ConfigError extends Error {
  /** `accepts`, the server's own text of what the setting takes, ends the message unredacted. */
  constructor(message: string, accepts?: string) {
    // One line whatever a value held: logs and terminals read it as one event.
    super(withAccepts(message, accepts));
    this.name = 'ConfigError';
  }
}
