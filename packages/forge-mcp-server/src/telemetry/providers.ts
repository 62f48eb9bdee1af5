/**
 * The SDK's three providers, each with its batching processor or periodic reader in front of its
 * exporter. Sampling and the span batch settings come from OTEL_TRACES_SAMPLER(_ARG) and OTEL_BSP_*
 * (read by the trace SDK); the metric interval from OTEL_METRIC_EXPORT_INTERVAL / _TIMEOUT and the log
 * batch delay from OTEL_BLRP_SCHEDULE_DELAY / OTEL_BLRP_EXPORT_TIMEOUT (read here, the SDK leaves them to
 * its auto-configuration package).
 */
import type { Logger as OtelLogger } from '@opentelemetry/api-logs';
import type { Meter, Tracer } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { VERSION } from '../version.js';
import type { Exporters } from './exporters.js';

const SCOPE = 'forge-mcp-server';

function positive(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const n = Number(env[name]);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export class Providers {
  readonly tracer: Tracer;
  readonly meter: Meter;
  readonly logger: OtelLogger;
  private readonly traces: BasicTracerProvider;
  private readonly metrics: MeterProvider;
  private readonly logs: LoggerProvider;

  constructor(resource: Resource, exporters: Exporters, env: Record<string, string | undefined>) {
    this.traces = new BasicTracerProvider({
      resource,
      spanProcessors: [new BatchSpanProcessor(exporters.traces)],
    });
    const interval = positive(env, 'OTEL_METRIC_EXPORT_INTERVAL', 60_000);
    this.metrics = new MeterProvider({
      resource,
      readers: [
        new PeriodicExportingMetricReader({
          exporter: exporters.metrics,
          exportIntervalMillis: interval,
          exportTimeoutMillis: Math.min(interval, positive(env, 'OTEL_METRIC_EXPORT_TIMEOUT', 30_000)),
        }),
      ],
    });
    this.logs = new LoggerProvider({
      resource,
      processors: [
        new BatchLogRecordProcessor({
          exporter: exporters.logs,
          scheduledDelayMillis: positive(env, 'OTEL_BLRP_SCHEDULE_DELAY', 1_000),
          exportTimeoutMillis: positive(env, 'OTEL_BLRP_EXPORT_TIMEOUT', 30_000),
        }),
      ],
    });
    this.tracer = this.traces.getTracer(SCOPE, VERSION);
    this.meter = this.metrics.getMeter(SCOPE, VERSION);
    this.logger = this.logs.getLogger(SCOPE, VERSION);
  }

  /** Flushes and shuts down all three; gives up on whatever has not gone after `timeoutMs`. */
  async shutdown(timeoutMs: number): Promise<void> {
    const all = Promise.allSettled([this.traces.shutdown(), this.metrics.shutdown(), this.logs.shutdown()]);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    });
    await Promise.race([all.then(() => undefined), late]);
    clearTimeout(timer);
  }
}
