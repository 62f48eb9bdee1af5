/** The command line: settings from the environment and flags, then stdio or HTTP serving. */
import { fstatSync } from 'node:fs';
import { homedir } from 'node:os';
import { config as zodConfig } from 'zod/v4/core';
import { ConfigError, configSecrets, helpText, loadConfig } from './config/index.js';
import type { Config } from './config/types.js';
import { createLogger, logProcessWarnings, type Logger } from './log.js';
import { markServing } from './compile-cache.js';
import { holdsSecrets } from './secrets.js';
import { VERSION } from './version.js';

function stdinIsPipe(): boolean {
  try {
    const st = fstatSync(0);
    return st.isFIFO() || st.isSocket() || st.isFile();
  } catch {
    return false;
  }
}

/**
 * Prints a command's answer. A reader that stops early (`--list-actions --json | head`) ends the command
 * quietly with 0, as other command-line tools do, rather than with a stack trace.
 */
function print(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.once('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EPIPE' ? resolve() : reject(err),
    );
    process.stdout.write(text, () => resolve());
  });
}

async function main(): Promise<number | undefined> {
  let loaded;
  try {
    loaded = loadConfig({
      argv: process.argv.slice(2),
      env: process.env,
      cwd: process.cwd(),
      home: homedir(),
      stdinIsPipe: stdinIsPipe(),
    });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`forge-mcp-server: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const { config, warnings, errors, command } = loaded;
  if (command === 'help') {
    await print(helpText() + '\n');
    return 0;
  }
  if (command === 'version') {
    await print(`forge-mcp-server ${VERSION}\n`);
    return 0;
  }
  if (command === 'list-actions') {
    const { listActions } = await import('./list-actions.js');
    await print(listActions(config.listJson) + '\n');
    return 0;
  }
  let log = createLogger(config.logLevel);
  logProcessWarnings(() => log);
  for (const w of warnings) log.warn(w);
  for (const e of errors) log.error(e);
  if (command === 'shutdown') {
    const { shutdownAll } = await import('./registry.js');
    const n = await shutdownAll((m) => log.warn(m));
    log.info({ signalled: n }, 'asked running servers to drain and exit');
    return 0;
  }
  // What masks the secrets of a diagnostics export asks the settings for theirs.
  holdsSecrets(() => configSecrets(config));
  // Telemetry and diagnostics load only when asked for: with both off, nothing of either is read.
  let telemetry: { shutdown(): Promise<void> } | undefined;
  if (config.telemetry) {
    const { startTelemetry, IdentityKeyRefused } = await import('./telemetry/index.js');
    try {
      const started = await startTelemetry(config, log);
      // A telemetry that could not start is off: the server card says nothing of it.
      if (!started) config.telemetry = false;
      else {
        log = createLogger(config.logLevel, started.logStream);
        holdsSecrets(started.secrets);
      }
      telemetry = started;
    } catch (err) {
      if (!(err instanceof IdentityKeyRefused)) throw err;
      process.stderr.write(`forge-mcp-server: ${err.message}\n`);
      return 2;
    }
  }
  let diagnostics: { close(): Promise<void> } | undefined;
  if (config.pprofAddr) {
    const { startDiagnostics, DiagnosticsRefused } = await import('./diagnostics/index.js');
    try {
      diagnostics = await startDiagnostics(config.pprofAddr, log);
    } catch (err) {
      if (!(err instanceof DiagnosticsRefused)) throw err;
      process.stderr.write(`forge-mcp-server: ${err.message}\n`);
      await telemetry?.shutdown();
      return 2;
    }
  }
  const code = await serve(config, log);
  await diagnostics?.close();
  await telemetry?.shutdown();
  return code;
}

async function serve(config: Config, log: Logger): Promise<number | undefined> {
  if (config.transport === 'stdio') {
    // The SDK checks every message with zod, which compiles a fast path for each object schema (new Function)
    // the first time it parses one: code the compile cache cannot keep, so every start compiled a dozen of
    // them anew. A stdio server goes without (set before the SDK builds its schemas): the same answers, about
    // 5 ms less CPU per start, and no more per tools/call.
    zodConfig({ jitless: true });
    // The identity check and the token read go out first, and travel while the rest of the server (the
    // SDK, the catalog) loads; a client that cannot even be made is reported by runStdio, as before.
    const { probeCredential } = await import('./session/credential.js');
    let probe;
    try {
      probe = probeCredential({
        config,
        baseUrl: config.forgeUrls[0]!,
        token: config.token ?? '',
        tokenLabel: 'FORGE_TOKEN',
      });
      // One turn of the event loop, so that the requests are on the wire before loading blocks it.
      await new Promise((resolve) => setImmediate(resolve));
    } catch {
      probe = undefined;
    }
    const { runStdio } = await import('./stdio/index.js');
    // Registered like an HTTP server, so --shutdown reaches stdio instances too (SIGTERM ends runStdio).
    const { register } = await import('./registry.js');
    const unregister = register((m) => log.warn(m));
    try {
      return await runStdio(config, log, probe);
    } finally {
      unregister();
    }
  }
  const { runHttp, ListenerRefused } = await import('./http/index.js');
  // Registered before it says it is serving, so a --shutdown sent as soon as it is up reaches it.
  const { register } = await import('./registry.js');
  const unregister = register((m) => log.warn(m));
  // Listened for before the server says it is serving, so a signal sent the moment it does drains and closes
  // it (handled once the start is over, a turn later); one that arrives while it still starts ends it at once,
  // as with no listener.
  let handle: Awaited<ReturnType<typeof runHttp>> | undefined;
  const signal = new Promise<string>((resolve) => {
    const on = (name: 'SIGTERM' | 'SIGINT') => () => {
      if (handle) return resolve(name);
      process.off('SIGTERM', term);
      process.off('SIGINT', int);
      process.kill(process.pid, name);
    };
    const term = on('SIGTERM');
    const int = on('SIGINT');
    process.once('SIGTERM', term);
    process.once('SIGINT', int);
  });
  try {
    handle = await runHttp(config, log);
  } catch (err) {
    unregister();
    // A refusal already logged (Redis unreachable at start): exit non-zero without repeating it.
    if ((err as { reported?: boolean }).reported) return 1;
    if (!(err instanceof ListenerRefused)) throw err;
    process.stderr.write(`forge-mcp-server: ${err.message}\n`);
    return 2;
  }
  markServing();
  const received = await signal;
  unregister();
  if (received === 'SIGTERM') await handle.drain();
  await handle.close();
  return 0;
}

main().then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
    // stdio ends when stdin closes; make sure pooled sockets do not keep the process alive.
    if (code !== undefined) setTimeout(() => process.exit(code), 50).unref();
  },
  (err: Error) => {
    process.stderr.write(`forge-mcp-server: unexpected error: ${err.message}\n`);
    process.exit(1);
  },
);
