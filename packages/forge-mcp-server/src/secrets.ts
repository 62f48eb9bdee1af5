/**
 * The secrets this process holds, for what must mask them (the diagnostics heap snapshot). Each holder (the
 * configuration, the credential pool, telemetry) registers a function that lists what it holds at the moment it
 * is asked; nothing here keeps a secret, so a secret lives no longer than its holder keeps it.
 */
type Holder = () => Iterable<string | undefined>;

const holders = new Set<Holder>();

/** Registers `holder`; the returned function unregisters it (when the holder stops holding). */
export function holdsSecrets(holder: Holder): () => void {
  holders.add(holder);
  return () => void holders.delete(holder);
}

/** Every secret the registered holders hold right now, each once, empty ones left out. */
export function heldSecrets(): string[] {
  const out = new Set<string>();
  for (const holder of holders) for (const s of holder()) if (s) out.add(s);
  return [...out];
}

/**
 * A URL's password as written and decoded, the whole URL when it carries one, and the Basic credential a client
 * makes of it (base64 of user:password, decoded, as the proxy agent and node:http send it); none when it has no
 * password or is no URL. The credential is listed whole because the client builds its header by concatenation
 * ("Basic " + base64), which a heap snapshot writes as those two pieces: only the base64 of the pair, not any
 * form of the password, is then in it. The user name alone is not a secret (and is often a common word such as
 * "default").
 */
export function urlPassword(url: string | undefined): string[] {
  if (!url) return [];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const { username, password } = parsed;
  if (!password) return [];
  const decoded = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const basic = Buffer.from(`${decoded(username)}:${decoded(password)}`).toString('base64');
  return [...new Set([url, password, decoded(password), basic])];
}
