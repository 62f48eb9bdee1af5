/**
 * The limits of HTTP mode wired to requests: the authentication budgets of the client address (checked
 * before a credential the server does not hold is verified, charged when the instance refuses it) and
 * the per-credential rate limiter (charged after authentication, before the MCP handler). Both refuse
 * with 429, Retry-After from the block in force and a JSON-RPC error body (code -42900, data.reason).
 * Refusal logs: at most one WARN line per ten seconds each. Budgets and buckets sit behind the state port, so
 * replicas sharing a store refuse as one.
 */
import { channels, publish } from '../channels.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config/types.js';
import type { Logger } from '../log.js';
import type { BudgetStore, RateLimitStore } from '../state/index.js';
import { sendJson } from './headers.js';
import { methodsOf, RATE_LIMITED_CODE, ThrottledLog } from './limits.js';
import { addressMatcher, clientAddress } from './peers.js';

/** JSON-RPC code of a 429 refusal (the HTTP status times a hundred, like -40100 and -40300). */
export { RATE_LIMITED_CODE } from './limits.js';

function idsOf(body: unknown): unknown[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages
    .map((m) => (m as { id?: unknown } | null | undefined)?.id)
    .filter((id) => id !== undefined && id !== null);
}

/** 429 with Retry-After; a batch gets one error per request carrying an id. */
export function sendTooMany(
  res: ServerResponse,
  body: unknown,
  retryAfterS: number,
  reason: 'rate_limited' | 'auth_blocked',
  message: string,
): void {
  const error = (id: unknown) => ({
    jsonrpc: '2.0',
    id: id ?? null,
    error: { code: RATE_LIMITED_CODE, message, data: { reason, retryAfterSeconds: retryAfterS } },
  });
  const ids = idsOf(body);
  const payload = Array.isArray(body) && ids.length > 0 ? ids.map(error) : error(ids[0]);
  sendJson(res, 429, payload, { 'retry-after': String(retryAfterS) });
}

export class Throttle {
  private readonly proxies: (addr: string | undefined) => boolean;
  private readonly rateLog: ThrottledLog;
  private readonly blockLog: ThrottledLog;

  constructor(
    private readonly config: Config,
    private readonly log: Logger,
    private readonly state: { budgets: BudgetStore; rateLimits: RateLimitStore },
    now: () => number = Date.now,
  ) {
    this.proxies = addressMatcher(config.trustedProxies);
    this.rateLog = new ThrottledLog(10_000, now);
    this.blockLog = new ThrottledLog(10_000, now);
  }

  addressOf(req: IncomingMessage): string {
    return clientAddress(req, this.config.trustedProxyHeader, this.proxies);
  }

  /**
   * Answers 429 when `address` is blocked and the credential is not one the server holds; true when
   * it answered.
   */
  async refuseBlocked(res: ServerResponse, address: string, held: boolean): Promise<boolean> {
    if (held || !this.state.budgets.enabled) return false;
    const wait = await this.state.budgets.blocked(address);
    if (!wait) return false;
    sendTooMany(
      res,
      undefined,
      wait,
      'auth_blocked',
      `too many failed authentications from this address; retry after ${wait} s`,
    );
    return true;
  }

  /**
   * Charges a credential the instance refused (401) to the address. A block that falls on a listed
   * proxy's own address (the trusted header was absent or named no client, so the transport source was
   * charged) is a transport_source block: until it ends, a request charged to that address (one without a
   * usable trusted header) is refused unless its credential is held; a request whose header names a client
   * is charged to that client, not refused for the proxy's block. Other blocks are named by the budget spent.
   */
  async chargeFailure(address: string, credentialKey: string): Promise<void> {
    const block = await this.state.budgets.fail(address, credentialKey);
    if (!block) return;
    const reason =
      this.config.trustedProxyHeader && this.proxies(address) ? 'transport_source' : block.reason;
    publish(channels.authBlock, () => ({ reason }));
    this.blockLog.event((suppressed) =>
      this.log.warn(
        {
          address,
          reason,
          ...(reason !== block.reason ? { budget: block.reason } : {}),
          step: block.step,
          retryAfterS: block.retryAfterS,
          suppressed,
        },
        'authentication budget spent: address blocked',
      ),
    );
  }

  /** Charges the request's methods to the credential; answers 429 and returns true when refused. */
  async refuseRate(res: ServerResponse, credentialKey: string, body: unknown): Promise<boolean> {
    const verdict = await this.state.rateLimits.charge(credentialKey, methodsOf(body));
    if (verdict.ok) return false;
    const what =
      verdict.family === 'global'
        ? 'the server-wide tools/list limit is reached'
        : verdict.tooLarge
          ? `this batch asks for more than the ${verdict.family} burst of this credential`
          : 'rate limited: this credential is over its request rate';
    sendTooMany(
      res,
      body,
      verdict.retryAfterS,
      'rate_limited',
      `${what}; retry after ${verdict.retryAfterS} s`,
    );
    this.rateLog.event((suppressed) =>
      this.log.warn(
        {
          credential: credentialKey.slice(0, 12),
          family: verdict.family,
          retryAfterS: verdict.retryAfterS,
          refusal_reason: 'rate_limited',
          suppressed,
        },
        'rate limited',
      ),
    );
    return true;
  }
}
