/** `text` with every occurrence of each secret (a token) replaced by [redacted]. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return secrets.filter(Boolean).reduce((acc, s) => acc.split(s).join('[redacted]'), text);
}

/** A minimal line logger for stderr that never prints secrets it was told about. */
export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

export function createLogger(
  write: (line: string) => void = (l) => process.stderr.write(l + '\n'),
  secrets: string[] = [],
  quiet = false,
): Logger & { addSecret(s: string): void } {
  const hidden = secrets.filter(Boolean);
  const clean = (m: string) => redactSecrets(m, hidden);
  return {
    addSecret(s: string) {
      if (s) hidden.push(s);
    },
    info(msg) {
      if (!quiet) write(clean(msg));
    },
    warn(msg) {
      write('warning: ' + clean(msg));
    },
  };
}

export const silentLogger: Logger = { info() {}, warn() {} };
