/**
 * What the core reports about itself, on node:diagnostics_channel. The core publishes; observers (logs,
 * telemetry) subscribe. The core never imports an observer, a channel without subscribers costs one
 * boolean check (`hasSubscribers`), and with telemetry off nothing of it loads.
 *
 * Payloads carry no secret: never a token, a credential header, tool arguments or results, or a full URL.
 * A credential is named only by its pool key (a SHA-256 digest of instance and token), and observers that
 * export must drop even that.
 */
import { channel, type Channel } from 'node:diagnostics_channel';

/** One MCP tool call, after its answer. */
export interface ToolCallEvent {
  tool: string;
  action?: string;
  isError: boolean;
  /** Why the server refused it before anything was sent (safe_mode, needs_confirmation, ...). */
  refusal?: string;
  ms: number;
}

/** A credential pool entry left the pool (HTTP mode). Entries dropped at shutdown are not published. */
export interface PoolEvictEvent {
  reason:
    | 'size_pressure'
    | 'size_pressure_busy'
    | 'idle'
    | 'stale_credential'
    | 'rejected_credential'
    | 'invalid_credential'
    | 'below_minimum'
    | 'rebuild';
  /** Digest of instance and token: the pool key, never the token. */
  key: string;
  /** The entry was serving a subscription when it was dropped. */
  inUse: boolean;
}

function named<T>(name: string): Channel<T, unknown> {
  return channel(name) as Channel<T, unknown>;
}

/** Every channel the core publishes on; add new ones here, with their payload type. */
export const channels = {
  toolCall: named<ToolCallEvent>('forge-mcp:tool-call'),
  poolEvict: named<PoolEvictEvent>('forge-mcp:pool-evict'),
};

/** Publishes only when someone listens, so building the payload costs nothing otherwise. */
export function publish<T>(ch: Channel<T, unknown>, make: () => T): void {
  if (ch.hasSubscribers) ch.publish(make());
}
