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
 * A URL's password as written and decoded, and the whole URL when it carries one (none when it has none or is
 * no URL). Its user name is not a secret (and is often a common word such as "default").
 */
export function urlPassword(url: string | undefined): string[] {
  if (!url) return [];
  let password: string;
  try {
    password = new URL(url).password;
  } catch {
    return [];
  }
  if (!password) return [];
  try {
    return [url, password, decodeURIComponent(password)];
  } catch {
    return [url, password];
  }
}
