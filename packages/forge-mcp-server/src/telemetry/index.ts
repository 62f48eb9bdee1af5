/**
 * Telemetry: traces, metrics and logs over OTLP with the OpenTelemetry JS SDK, fed by the channels the core
 * publishes on (src/channels.ts). The command line loads this room only when telemetry is on; the core
 * never imports it.
 *
 * Starting checks the identity key (FIPS-only mode refuses a short one: the start is refused) and the
 * OTEL_* variables (a protocol or header list the exporters would misread stops telemetry with one ERROR,
 * and serving continues). Export runs in the background: a collector that is slow, refusing or gone costs
 * a throttled WARN naming the variable to check, and never a request.
 */
import { getFips } from 'node:crypto';
import { diag, DiagLogLevel, type DiagLogger } from '@opentelemetry/api';
import { setGlobalErrorHandler } from '@opentelemetry/core';
import { envDetector, detectResources, resourceFromAttributes } from '@opentelemetry/resources';
import type { Config } from '../config/types.js';
import type { Logger } from '../log.js';
import { VERSION } from '../version.js';
import { StoreContextManager } from './context.js';
import { exporters } from './exporters.js';
import { checkIdentityKey, identityPolicy, IdentityKeyRefused } from './identity.js';
import { LogMirror } from './logs.js';
import { exportPlan, redact, type Plan } from './plan.js';
import { observe } from './observe.js';
import { Providers } from './providers.js';

export { IdentityKeyRefused };

export interface Telemetry {
  /** The stream the logger mirrors its records from INFO up into (createLogger's `mirror`). */
  logStream: LogMirror;
  /** The collector credentials it holds (header values, an endpoint's user and password), for masking them. */
  secrets(): string[];
  /** Stops observing, flushes what is buffered (bounded in time) and shuts the exporters down. */
  shutdown(): Promise<void>;
}

/** How long shutdown waits for the last export before giving up on it. */
const FLUSH_TIMEOUT_MS = 5_000;
/** At most one export-failure WARN per signal in this many milliseconds. */
const FAILURE_LOG_EVERY_MS = 60_000;

/**
 * Starts telemetry, or logs why it cannot and returns undefined (serving continues). Throws
 * IdentityKeyRefused when the start itself must be refused.
 */
export async function startTelemetry(
  config: Config,
  log: Logger,
  env: Record<string, string | undefined> = process.env,
): Promise<Telemetry | undefined> {
  checkIdentityKey(config.telemetryIdentityKey, getFips() === 1);
  const plan = exportPlan(env);
  if (!plan.ok) {
    log.error(plan.message);
    return undefined;
  }
  for (const w of plan.warnings) log.warn(w);
  quietSdkDiagnostics(log, plan);

  const resource = resourceFromAttributes({
    'service.name': 'forge-mcp-server',
    'service.version': VERSION,
  }).merge(detectResources({ detectors: [envDetector] }));
  const contexts = new StoreContextManager();
  const providers = new Providers(resource, await exporters(plan), env);
  const identity = identityPolicy(config);
  const mirror = new LogMirror(providers.logger, contexts, identity);
  const stop = observe({ config, providers, contexts, identity });
  log.info(
    {
      signals: ['traces', 'metrics', 'logs'],
      protocol: plan.signals.traces.protocol,
      identity: identity.name,
    },
    'telemetry export on',
  );
  return {
    logStream: mirror,
    secrets: () => plan.secrets,
    shutdown: async () => {
      stop();
      mirror.close();
      await providers.shutdown(FLUSH_TIMEOUT_MS);
    },
  };
}

/**
 * The SDK reports export failures to a global error handler and its own warnings to `diag`; both go to
 * the server's log, redacted of every collector credential, export failures at most once a minute per
 * kind, naming the variable to check.
 */
/** What the SDK's periodic metric reader writes to `diag` when an export times out or throws. */
const METRIC_EXPORT_TROUBLE = /metrics export (timed out|threw)/i;

function quietSdkDiagnostics(log: Logger, plan: Extract<Plan, { ok: true }>): void {
  const last = new Map<string, number>();
  const throttled = (kind: string, write: () => void) => {
    const now = Date.now();
    if (now - (last.get(kind) ?? -Infinity) < FAILURE_LOG_EVERY_MS) return;
    last.set(kind, now);
    write();
  };
  const clean = (v: unknown) =>
    redact(
      v instanceof Error ? v.message : typeof v === 'string' ? v : (JSON.stringify(v) ?? ''),
      plan.secrets,
    );
  const exportFailed = (text: string) => {
    const signal = /metric/i.test(text) ? 'metrics' : /log/i.test(text) ? 'logs' : 'traces';
    const target = plan.signals[signal];
    throttled(`export:${signal}`, () =>
      log.warn(
        { signal, collector: target.origin, reason: text.slice(0, 300) },
        `telemetry export of ${signal} to ${target.origin} failed; check ${target.endpointVariable} and that the collector is reachable (requests are not affected)`,
      ),
    );
  };
  setGlobalErrorHandler((err) => exportFailed(clean(err)));
  const write =
    (level: 'warn' | 'error') =>
    (message: string, ...args: unknown[]) => {
      // The metric reader reports an export that outlasts its timeout (a collector that is down, retried)
      // here rather than to the error handler: the same failure, told the same way.
      if (METRIC_EXPORT_TROUBLE.test(message)) return exportFailed(clean(message));
      throttled(`diag:${message.slice(0, 40)}`, () =>
        log[level]({ detail: args.map(clean).join(' ').slice(0, 300) }, `telemetry: ${clean(message)}`),
      );
    };
  const logger: DiagLogger = {
    error: write('error'),
    warn: write('warn'),
    info: () => {},
    debug: () => {},
    verbose: () => {},
  };
  diag.setLogger(logger, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
}
