import { Agent, request } from 'undici';
import { RateLimitError, UnreachableError } from './errors.js';

/** Where ETags and the bodies they validate are kept between sweeps. */
export interface EtagCache {
  getEtag(url: string): Promise<{ etag: string; body: string } | undefined>;
  putEtag(url: string, etag: string, body: string): Promise<void>;
}

export class MemoryEtagCache implements EtagCache {
  private readonly map = new Map<string, { etag: string; body: string }>();
  async getEtag(url: string) {
    return this.map.get(url);
  }
  async putEtag(url: string, etag: string, body: string) {
    this.map.set(url, { etag, body });
  }
}

export interface RateState {
  limit: number;
  remaining: number;
  used: number;
  /** Unix seconds. */
  reset: number;
}

export interface ApiResponse {
  status: number;
  body: unknown;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** True when a 304 answered and the stored body was reused. */
  notModified: boolean;
  /** The name of the credential the request went out with (its environment variable), if any. */
  tokenName?: string;
}

export interface GetOptions {
  accept?: string;
  /** Send If-None-Match with the stored ETag and reuse the stored body on 304. */
  conditional?: boolean;
}

/** A credential and the name it is reported under (the environment variable; never the token itself). */
export interface Credential {
  name: string;
  token: string;
}

export interface ApiClientOptions {
  baseUrl: string;
  token?: string;
  /** Several tokens: each request goes out with the one that has the most core rate limit left. */
  tokens?: Credential[];
  etags?: EtagCache;
  /** Longest single wait for a rate-limit reset or retry-after, in seconds. */
  maxWaitSeconds?: number;
  /** Sleep used for rate-limit waits; replaceable so tests need not wait in real time. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Told of each wait before it starts: why, how long, and until when. */
  onWait?: (reason: string, seconds: number, until: Date) => void;
  connections?: number;
}

export interface ApiStats {
  calls: number;
  notModified: number;
  waits: number;
  waitedSeconds: number;
  rate: Record<string, RateState>;
  /** Core rate limit last told per token name. */
  tokens: Record<string, RateState>;
  /** Answers per HTTP status (304 counted as 304). */
  byStatus: Record<string, number>;
  /** Requests per token name. */
  byToken: Record<string, number>;
}

const MAX_ATTEMPTS = 5;

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * What kept a request from being answered, in a few words: the system's own line for a refused connection or an
 * unknown host, the reason alone for a TLS failure (OpenSSL's line holds its source file and line).
 */
function transportFailure(e: unknown): string {
  const err = e as Error & { code?: string };
  const openssl = /SSL routines:[^:]*:([^:]+):/.exec(err.message);
  if (openssl) return `TLS handshake failed (${openssl[1]})`;
  return err.message.split('\n')[0];
}

/** Parses a Link header into rel -> URL. */
export function parseLink(value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!value) return out;
  for (const part of value.split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="?([^";]+)"?/.exec(part);
    if (m) out[m[2]] = m[1];
  }
  return out;
}

/**
 * GET-only client of the upstream REST API: bearer authentication, conditional requests with stored ETags,
 * rate-limit bookkeeping from x-ratelimit-* headers, waits for resets and secondary limits.
 * Errors never include the token.
 */
export class ApiClient {
  readonly stats: ApiStats = {
    calls: 0,
    notModified: 0,
    waits: 0,
    waitedSeconds: 0,
    rate: {},
    tokens: {},
    byStatus: {},
    byToken: {},
  };
  private readonly creds: Credential[];
  private readonly base: string;
  private readonly agent: Agent;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly maxWait: number;

  constructor(private readonly opts: ApiClientOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.agent = new Agent({ connections: opts.connections ?? 16, keepAliveTimeout: 10_000 });
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.now = opts.now ?? Date.now;
    this.maxWait = opts.maxWaitSeconds ?? 3600;
    this.creds = opts.tokens?.length ? opts.tokens : opts.token ? [{ name: 'token', token: opts.token }] : [];
  }

  /** The token with the most core rate limit left (one not yet heard from counts as full); ties go to the first. */
  private pick(): Credential | undefined {
    let best: Credential | undefined;
    let bestLeft = -1;
    for (const c of this.creds) {
      const r = this.stats.tokens[c.name];
      const left = !r ? Number.MAX_SAFE_INTEGER : r.reset * 1000 <= this.now() ? r.limit : r.remaining;
      if (left > bestLeft) {
        best = c;
        bestLeft = left;
      }
    }
    return best;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  url(path: string): string {
    return path.startsWith('http://') || path.startsWith('https://') ? path : this.base + path;
  }

  private async wait(reason: string, seconds: number, resetAt: Date): Promise<void> {
    if (seconds > this.maxWait) throw new RateLimitError(resetAt, seconds, this.maxWait);
    this.stats.waits++;
    this.stats.waitedSeconds += seconds;
    this.opts.onWait?.(reason, seconds, resetAt);
    await this.sleep(seconds * 1000);
  }

  private async waitForBudget(resource: string, cred?: Credential): Promise<void> {
    const r = cred ? this.stats.tokens[cred.name] : this.stats.rate[resource];
    if (!r || r.remaining > 0) return;
    const seconds = r.reset - this.now() / 1000;
    if (seconds <= 0) return;
    await this.wait(`rate limit (${resource}) exhausted`, Math.ceil(seconds) + 1, new Date(r.reset * 1000));
    // Assume the window has reset; the next answer's headers tell the truth.
    r.remaining = r.limit;
  }

  private noteRate(h: Record<string, string>, cred?: Credential): string {
    const resource = h['x-ratelimit-resource'] ?? 'core';
    const limit = Number(h['x-ratelimit-limit']);
    const remaining = Number(h['x-ratelimit-remaining']);
    const reset = Number(h['x-ratelimit-reset']);
    if (Number.isFinite(limit) && Number.isFinite(remaining) && Number.isFinite(reset)) {
      const state = { limit, remaining, reset, used: Number(h['x-ratelimit-used']) || limit - remaining };
      this.stats.rate[resource] = state;
      if (cred && resource === 'core') this.stats.tokens[cred.name] = { ...state };
    }
    return resource;
  }

  async get(path: string, options: GetOptions = {}): Promise<ApiResponse> {
    const url = this.url(path);
    const cached = options.conditional ? await this.opts.etags?.getEtag(url) : undefined;
    for (let attempt = 1; ; attempt++) {
      const cred = this.pick();
      await this.waitForBudget('core', cred);
      const headers: Record<string, string> = {
        accept: options.accept ?? 'application/vnd.github+json',
        'x-github-api-version': '2026-03-10',
        'user-agent': 'activity-collector',
      };
      if (cred) {
        headers.authorization = `Bearer ${cred.token}`;
        this.stats.byToken[cred.name] = (this.stats.byToken[cred.name] ?? 0) + 1;
      }
      if (cached) headers['if-none-match'] = cached.etag;
      let res;
      try {
        this.stats.calls++;
        res = await request(url, { method: 'GET', headers, dispatcher: this.agent });
      } catch (e) {
        if (attempt < 3) {
          await this.sleep(200 * attempt);
          continue;
        }
        throw new UnreachableError(this.base, `GET ${new URL(url).pathname}: ${transportFailure(e)}`);
      }
      const h = flatHeaders(res.headers as Record<string, string | string[] | undefined>);
      const text = await res.body.text();
      this.noteRate(h, cred);
      const status = res.statusCode;
      this.stats.byStatus[status] = (this.stats.byStatus[status] ?? 0) + 1;

      if (status === 304 && cached) {
        this.stats.notModified++;
        return {
          status: 200,
          body: JSON.parse(cached.body),
          headers: h,
          notModified: true,
          tokenName: cred?.name,
        };
      }
      if ((status === 403 || status === 429) && attempt < MAX_ATTEMPTS) {
        const retryAfter = Number(h['retry-after']);
        const remaining = Number(h['x-ratelimit-remaining']);
        const reset = Number(h['x-ratelimit-reset']);
        if (Number.isFinite(retryAfter) && h['retry-after'] !== undefined) {
          await this.wait('secondary rate limit', retryAfter, new Date(this.now() + retryAfter * 1000));
          continue;
        }
        if (remaining === 0 && Number.isFinite(reset)) {
          // Another token with budget left takes the retry at once.
          if (cred && this.pick() !== cred) continue;
          const seconds = Math.max(1, Math.ceil(reset - this.now() / 1000) + 1);
          await this.wait('rate limit exhausted', seconds, new Date(reset * 1000));
          continue;
        }
        if (/secondary rate limit/i.test(text)) {
          await this.wait('secondary rate limit', 60, new Date(this.now() + 60_000));
          continue;
        }
      }
      let body: unknown = undefined;
      if (text.length > 0) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      if (status === 200 && options.conditional && h.etag && this.opts.etags) {
        await this.opts.etags.putEtag(url, h.etag, text);
      }
      return { status, body, headers: h, notModified: false, tokenName: cred?.name };
    }
  }
}
