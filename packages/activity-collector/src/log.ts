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
  const clean = (m: string) => hidden.reduce((acc, s) => acc.split(s).join('[redacted]'), m);
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
