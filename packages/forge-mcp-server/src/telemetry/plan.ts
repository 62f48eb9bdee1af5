/**
 * What the standard OTEL_* variables ask of the export, checked before anything starts: the protocol of
 * each signal (http/protobuf, its alias http, or grpc; http/json and anything else stop telemetry), the
 * endpoints and header lists (malformed ones stop telemetry), and the secrets the SDK's own diagnostics
 * must never repeat. The exporters read the same variables themselves; this only refuses what they would
 * misread, and never repeats a header's value.
 */
import { ipFamily } from '../ip.js';

export type Signal = 'traces' | 'metrics' | 'logs';
export const SIGNALS: Signal[] = ['traces', 'metrics', 'logs'];
export type Protocol = 'http/protobuf' | 'grpc';

export interface SignalPlan {
  protocol: Protocol;
  /** The collector's origin (scheme, host, port), for messages; never its credentials or path. */
  origin: string;
  /** The variable that named the endpoint (or the default's description). */
  endpointVariable: string;
  plaintextWithCredential: boolean;
}

export type Plan =
  | { ok: true; signals: Record<Signal, SignalPlan>; secrets: string[]; warnings: string[] }
  | { ok: false; message: string };

type Env = Record<string, string | undefined>;

const DEFAULT_ENDPOINT: Record<Protocol, string> = {
  'http/protobuf': 'http://localhost:4318',
  grpc: 'http://localhost:4317',
};

const STOPPED = 'telemetry is off; serving continues';

function read(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

/** A value and the variable it came from: the signal's own variable wins over the general one. */
function pick(env: Env, signal: Signal, suffix: string): { value?: string; variable: string } {
  const own = `OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_${suffix}`;
  const general = `OTEL_EXPORTER_OTLP_${suffix}`;
  const v = read(env, own);
  if (v !== undefined) return { value: v, variable: own };
  return { value: read(env, general), variable: general };
}

function protocolOf(env: Env, signal: Signal): { protocol: Protocol } | { message: string } {
  const { value, variable } = pick(env, signal, 'PROTOCOL');
  const v = (value ?? 'http/protobuf').toLowerCase();
  if (v === 'http/protobuf' || v === 'http') return { protocol: 'http/protobuf' };
  if (v === 'grpc') return { protocol: 'grpc' };
  if (v === 'http/json')
    return {
      message: `${variable}=http/json is not supported: use http/protobuf (the default) or grpc; ${STOPPED}`,
    };
  return {
    message: `${variable}=${JSON.stringify(value)} is not an OTLP protocol: use http/protobuf (the default), http or grpc; ${STOPPED}`,
  };
}

/** A header list is comma-separated key=value pairs (values URL-encoded); returns the decoded values. */
function headerValues(value: string, variable: string): { values: string[] } | { message: string } {
  const values: string[] = [];
  const items = value.split(',');
  for (const [i, item] of items.entries()) {
    if (item.trim() === '') continue;
    const eq = item.indexOf('=');
    const key = eq > 0 ? item.slice(0, eq).trim() : '';
    if (!key || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key) || item.slice(eq + 1).trim() === '') {
      return {
        message: `${variable} is malformed: entry ${i + 1} of ${items.length} is not key=value (expected comma-separated key=value pairs with URL-encoded values); ${STOPPED}`,
      };
    }
    const raw = item.slice(eq + 1).trim();
    let decoded = raw;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return {
        message: `${variable} is malformed: the value of entry ${i + 1} (${key}) is not valid URL encoding; ${STOPPED}`,
      };
    }
    values.push(raw, decoded);
  }
  return { values };
}

function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (ipFamily(h) === 4) return h.startsWith('127.');
  if (ipFamily(h) === 6) return h === '::1' || h.startsWith('::ffff:127.');
  return false;
}

function english(list: string[]): string {
  return list.length < 2 ? list.join('') : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

export function exportPlan(env: Env): Plan {
  const signals = {} as Record<Signal, SignalPlan>;
  const secrets: string[] = [];
  for (const signal of SIGNALS) {
    const p = protocolOf(env, signal);
    if ('message' in p) return { ok: false, message: p.message };
    let hasCredential = false;
    for (const variable of [
      'OTEL_EXPORTER_OTLP_HEADERS',
      `OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_HEADERS`,
    ]) {
      const value = read(env, variable);
      if (!value) continue;
      const parsed = headerValues(value, variable);
      if ('message' in parsed) return { ok: false, message: parsed.message };
      if (parsed.values.length) hasCredential = true;
      secrets.push(...parsed.values);
    }
    const key = pick(env, signal, 'CLIENT_KEY').value;
    if (key) hasCredential = true;
    const { value: endpoint, variable } = pick(env, signal, 'ENDPOINT');
    let url: URL;
    try {
      url = new URL(endpoint ?? DEFAULT_ENDPOINT[p.protocol]);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    } catch {
      return {
        ok: false,
        message: `${variable} is not an http:// or https:// URL; ${STOPPED}`,
      };
    }
    if (url.username || url.password) {
      hasCredential = true;
      secrets.push(decodeURIComponent(url.password), decodeURIComponent(url.username));
    }
    const insecure = p.protocol === 'grpc' && /^true$/i.test(read(env, 'OTEL_EXPORTER_OTLP_INSECURE') ?? '');
    const plaintext = url.protocol === 'http:' || insecure;
    signals[signal] = {
      protocol: p.protocol,
      origin: `${url.protocol}//${url.host}`,
      endpointVariable: endpoint ? variable : `${variable} (unset: ${DEFAULT_ENDPOINT[p.protocol]})`,
      plaintextWithCredential: plaintext && hasCredential && !isLoopback(url.hostname),
    };
  }
  const exposed = SIGNALS.filter((s) => signals[s].plaintextWithCredential);
  const warnings = exposed.length
    ? [
        `telemetry: the collector endpoint for ${english(exposed)} is plaintext (http) on a non-loopback host ` +
          `and the export carries a credential, which travels unencrypted: use an https:// endpoint`,
      ]
    : [];
  return { ok: true, signals, secrets: secrets.filter((s) => s.length > 0), warnings };
}

/** Replaces every secret in `text` (header values, endpoint credentials) with [redacted]. */
export function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join('[redacted]');
  return out;
}
