/**
 * What FORGE_MCP_STATE_KEY keeps from whoever can read Redis. Three keys are derived from it with HKDF-SHA256,
 * each for one use: the event-log key, which seals every event-log entry with AES-256-GCM before it is written
 * (a fresh random nonce each, the log and stream ids and the entry's sequence number as associated data, so an
 * entry copied into another session's log, or to another place in its own, does not open there); the confirmation seal key, which then never sits in Redis; and a check
 * value the replicas sharing a Redis server compare at start, so replicas with different keys, or with and
 * without one, never run side by side reading each other's entries as garbage.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Logger } from '../../log.js';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Fixed salt: the key is already uniformly random (32 bytes at least); the salt only names the application. */
const SALT = 'forge-mcp-server state';

const derive = (stateKey: Uint8Array, use: string, bytes: number) =>
  Buffer.from(hkdfSync('sha256', stateKey, SALT, use, bytes));

/** The check value written by replicas without a key. */
export const UNSEALED = 'unsealed';

export interface StateKeys {
  /** Seals and opens event-log entries. */
  events: EventSealer;
  /** The confirmation seal key (32 bytes). */
  seal: Buffer;
  /** What every replica with this key writes as the shared check value (a digest that reveals nothing of it). */
  check: string;
}

export function stateKeys(stateKey: Uint8Array, log: Logger): StateKeys {
  return {
    events: new EventSealer(derive(stateKey, 'event log', 32), log),
    seal: derive(stateKey, 'confirmation seal', 32),
    check: `sealed ${derive(stateKey, 'check', 16).toString('hex')}`,
  };
}

/** AES-256-GCM over event-log entries: base64 of nonce, tag and ciphertext. */
export class EventSealer {
  private warned = false;

  constructor(
    private readonly key: Buffer,
    private readonly log: Logger,
  ) {}

  seal(text: string, context: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce).setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64');
  }

  /** The entry's text; undefined (said once per process, without its content) when it does not open. */
  open(sealed: string, context: string): string | undefined {
    const raw = Buffer.from(sealed, 'base64');
    try {
      if (raw.length < NONCE_BYTES + TAG_BYTES) throw new Error('too short');
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, NONCE_BYTES))
        .setAAD(Buffer.from(context))
        .setAuthTag(raw.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(raw.subarray(NONCE_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      if (!this.warned) {
        this.warned = true;
        this.log.warn(
          'shared state: an event-log entry in Redis does not open with FORGE_MCP_STATE_KEY (sealed with another key, or altered); it is treated as absent, as is any other such entry (said once)',
        );
      }
      return undefined;
    }
  }
}
