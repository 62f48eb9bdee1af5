/**
 * The OTLP exporters for each signal, by protocol: http/protobuf or grpc. They read the endpoint, headers,
 * certificates, timeout and compression from the standard OTEL_EXPORTER_OTLP_* variables themselves; the
 * gRPC ones (and @grpc/grpc-js with them) load only when a signal asks for grpc.
 */
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { LogRecordExporter } from '@opentelemetry/sdk-logs';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Plan } from './plan.js';

export interface Exporters {
  traces: SpanExporter;
  metrics: PushMetricExporter;
  logs: LogRecordExporter;
}

export async function exporters(plan: Extract<Plan, { ok: true }>): Promise<Exporters> {
  const grpc = (s: 'traces' | 'metrics' | 'logs') => plan.signals[s].protocol === 'grpc';
  const traces = grpc('traces')
    ? new (await import('@opentelemetry/exporter-trace-otlp-grpc')).OTLPTraceExporter()
    : new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
  const metrics = grpc('metrics')
    ? new (await import('@opentelemetry/exporter-metrics-otlp-grpc')).OTLPMetricExporter()
    : new (await import('@opentelemetry/exporter-metrics-otlp-proto')).OTLPMetricExporter();
  const logs = grpc('logs')
    ? new (await import('@opentelemetry/exporter-logs-otlp-grpc')).OTLPLogExporter()
    : new (await import('@opentelemetry/exporter-logs-otlp-proto')).OTLPLogExporter();
  return { traces, metrics, logs };
}
