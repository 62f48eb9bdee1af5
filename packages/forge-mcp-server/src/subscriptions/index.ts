/**
 * Resource subscriptions: who follows which forge:// resource on behalf of which credential, how a change is
 * found, and who is told. Two kinds of follower share this room: a 2025-era session that sent
 * resources/subscribe (told by notifications/resources/updated on its own connection) and a 2026-07-28
 * subscriptions/listen stream (told through the SDK's listen router, over a bus that keeps each credential's
 * events to its own streams).
 *
 * Changes are found by polling: each followed (credential, URI) is read once per interval, however many
 * follow it, through the same guards as resources/read. A read the instance can validate is sent with
 * If-None-Match (its last ETag) and a 304 costs nothing more; otherwise the contents' digest is compared.
 *
 * The registry and the listen-stream counts live behind the state port (SubscriptionStore); the live side
 * (pollers, followers' connections, pool holds) stays with this process.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import {
  ProtocolError,
  ResourceNotFoundError,
  type Server,
  type ServerEvent,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import type { Logger } from '../log.js';
import { resolveResource, type Conditional, type ResolvedResource } from '../resources/index.js';
import type { Session } from '../session/index.js';
import type { StreamRefusal, SubscriptionStore } from '../state/index.js';

/** Listen streams per process (spec: Limits). */
export const MAX_PROCESS_STREAMS = 512;
/** Keep-alive comments on idle event streams (spec: Events, Limits). */
export const KEEP_ALIVE_MS = 25_000;
/** What the SDK's listen router is given (createMcpHandler): the process's ceiling and the keep-alive. */
export const LISTEN_ROUTER_OPTIONS = { maxSubscriptions: MAX_PROCESS_STREAMS, keepAliveMs: KEEP_ALIVE_MS };

/** Reads a followed resource: its version now, or undefined when the instance said it has not changed. */
export type Poll = (previous: string | undefined) => Promise<string | undefined>;

/** The version a resource's read stands for: its ETag when the instance gave one, else a digest of it. */
export function pollOf(resolved: ResolvedResource, signal?: AbortSignal): Poll {
  return async (previous) => {
    // Guides and the client's own roots do not change on the server's side: nothing to poll.
    if (resolved.source === 'fixed') return previous ?? 'fixed';
    const conditional: Conditional | undefined =
      resolved.source === 'instance'
        ? { ifNoneMatch: previous?.startsWith('etag:') ? previous.slice(5) : undefined }
        : undefined;
    const contents = await resolved.read(signal, conditional);
    if (conditional?.notModified) return undefined;
    if (conditional?.etag) return `etag:${conditional.etag}`;
    return `sha256:${createHash('sha256').update(JSON.stringify(contents)).digest('hex')}`;
  };
}

export interface Follower {
  /** Unique per follower (a session id, a listen stream's id). */
  id: string;
  /** The credential digest it follows on behalf of. */
  owner: string;
  /** Followers sharing a channel are told once per change (the listen streams of one credential). */
  channel: string;
  notify(uri: string): void;
  /** Ends the follower: its credential left the pool. */
  end?(): void;
}

interface Watch {
  owner: string;
  uri: string;
  poll: Poll;
  followers: Map<string, Follower>;
  version: string;
  polling?: boolean;
}

interface Attached {
  follower: Follower;
  release: () => void;
  /** Attached by its first follow (a session), so detached with its last. */
  byFollow: boolean;
}

export interface SubscriptionsOptions {
  store: SubscriptionStore;
  pollMs: number;
  /** FORGE_MCP_MAX_LISTEN_STREAMS (0: no per-credential ceiling). */
  perCredential: number;
  perProcess?: number;
  /** Keeps the credential's pool entry busy until the returned release is called. */
  hold?: (owner: string) => () => void;
  log?: Logger;
}

const METHOD_NOT_FOUND = -32601;

function refuse(message: string): never {
  throw new ProtocolError(METHOD_NOT_FOUND, message);
}

const keyOf = (owner: string, uri: string) => `${owner}\0${uri}`;

export class Subscriptions {
  private readonly watches = new Map<string, Watch>();
  private readonly attached = new Map<string, Attached>();
  private readonly stop = new AbortController();
  private timer?: NodeJS.Timeout;
  /** The bus subscriptions/listen streams hear their credential's changes on. */
  readonly bus: OwnedBus;

  constructor(private readonly o: SubscriptionsOptions) {
    this.bus = new OwnedBus();
  }

  /** The signal every poll runs under (aborted at shutdown). */
  get signal(): AbortSignal {
    return this.stop.signal;
  }

  /** Takes a listen stream for the credential, or answers the ceiling that refuses it. */
  openStream(owner: string): Promise<StreamRefusal | undefined> {
    return this.o.store.openStream(owner, {
      perCredential: this.o.perCredential,
      perProcess: this.o.perProcess ?? MAX_PROCESS_STREAMS,
    });
  }

  closeStream(owner: string): Promise<void> {
    return this.o.store.closeStream(owner);
  }

  /** A follower that holds its credential's pool entry for as long as it is attached (a listen stream). */
  attach(follower: Follower, byFollow = false): void {
    if (this.attached.has(follower.id)) return;
    const release = this.o.hold?.(follower.owner) ?? (() => undefined);
    this.attached.set(follower.id, { follower, release, byFollow });
  }

  /** Forgets the follower and everything it follows, and releases its hold. */
  async detach(id: string): Promise<void> {
    const a = this.attached.get(id);
    if (!a) return;
    this.attached.delete(id);
    a.release();
    for (const [key, w] of this.watches) {
      w.followers.delete(id);
      if (w.followers.size === 0) this.watches.delete(key);
    }
    await this.o.store.unfollow(id);
  }

  /**
   * `follower` follows `uri`: its version now is read first (so a change from here on is told, and a read
   * the instance refuses is answered to the subscriber as resources/read would answer it).
   */
  async follow(follower: Follower, uri: string, poll: Poll): Promise<void> {
    const key = keyOf(follower.owner, uri);
    let watch = this.watches.get(key);
    const version = watch ? watch.version : await poll(undefined);
    watch = this.watches.get(key);
    if (!watch) {
      watch = { owner: follower.owner, uri, poll, followers: new Map(), version: version ?? 'unknown' };
      this.watches.set(key, watch);
    }
    watch.followers.set(follower.id, follower);
    this.attach(follower, true);
    await this.o.store.follow(follower.owner, uri, follower.id, watch.version);
    this.startPolling();
  }

  /** The follower stops following `uri`; a session following nothing more releases its hold. */
  async unfollow(id: string, uri: string): Promise<void> {
    const owner = this.attached.get(id)?.follower.owner;
    if (owner === undefined) return;
    const key = keyOf(owner, uri);
    const w = this.watches.get(key);
    if (w) {
      w.followers.delete(id);
      if (w.followers.size === 0) this.watches.delete(key);
    }
    await this.o.store.unfollow(id, uri);
    const a = this.attached.get(id);
    const still = [...this.watches.values()].some((x) => x.followers.has(id));
    if (a?.byFollow && !still) await this.detach(id);
  }

  /** The credential left the pool: every follower of it ends, and nothing of it is polled any more. */
  async endFor(owner: string): Promise<void> {
    for (const a of [...this.attached.values()]) {
      if (a.follower.owner !== owner) continue;
      a.follower.end?.();
      await this.detach(a.follower.id);
    }
    await this.o.store.forgetOwner(owner);
  }

  /** One pass: every followed resource read once; a change is told to its followers. */
  async pollOnce(): Promise<void> {
    await Promise.all([...this.watches.values()].map((w) => this.pollWatch(w)));
  }

  private async pollWatch(w: Watch): Promise<void> {
    if (w.polling) return;
    w.polling = true;
    try {
      let version: string | undefined;
      try {
        version = await w.poll(w.version);
      } catch (err) {
        // A resource that went away is a change (its readers learn it is gone); any other failure is
        // tried again at the next pass.
        if (!(err instanceof ResourceNotFoundError)) {
          this.o.log?.debug({ err: (err as Error).message }, 'subscription poll failed');
          return;
        }
        version = 'absent';
      }
      if (version === undefined || version === w.version || this.watches.get(keyOf(w.owner, w.uri)) !== w)
        return;
      w.version = version;
      if (!(await this.o.store.seen(w.owner, w.uri, version))) return;
      const told = new Set<string>();
      for (const f of w.followers.values()) {
        if (told.has(f.channel)) continue;
        told.add(f.channel);
        try {
          f.notify(w.uri);
        } catch (err) {
          this.o.log?.debug({ err: (err as Error).message }, 'subscription notification failed');
        }
      }
    } finally {
      w.polling = false;
    }
  }

  private startPolling(): void {
    if (this.timer) return;
    this.timer = setInterval(
      () =>
        void this.pollOnce().catch((err: Error) =>
          this.o.log?.debug({ err: err.message }, 'subscription poll failed'),
        ),
      this.o.pollMs,
    );
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.stop.abort();
    for (const a of this.attached.values()) a.release();
    this.attached.clear();
    this.watches.clear();
  }
}

/**
 * The listen router's bus, keeping each credential's events to its own streams: a stream registers while
 * its request runs inside `as(owner)`, and an event published for an owner reaches only that owner's streams
 * (the router then matches the event's URI against each stream's filter).
 */
export class OwnedBus implements ServerEventBus {
  private readonly scope = new AsyncLocalStorage<string>();
  private readonly listeners = new Map<(event: ServerEvent) => void, string | undefined>();

  /** Runs `fn` (the SDK's handling of a listen request) on behalf of `owner`. */
  as<R>(owner: string, fn: () => R): R {
    return this.scope.run(owner, fn);
  }

  /** Tells `owner`'s listen streams that `uri` changed. */
  resourceUpdated(owner: string, uri: string): void {
    this.deliver({ kind: 'resource_updated', uri }, owner);
  }

  publish(event: ServerEvent): void {
    this.deliver(event, undefined);
  }

  private deliver(event: ServerEvent, owner: string | undefined): void {
    for (const [listener, of] of [...this.listeners]) {
      if (owner !== undefined && of !== owner) continue;
      try {
        listener(event);
      } catch {
        // One stream's failure stops no other.
      }
    }
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    this.listeners.set(listener, this.scope.getStore());
    return () => void this.listeners.delete(listener);
  }

  get size(): number {
    return this.listeners.size;
  }
}

/** How a server built for one connection reaches the room: the credential it serves. */
export interface SubscriptionLink {
  room: Subscriptions;
  owner: string;
}

/**
 * resources/subscribe and resources/unsubscribe (2025 era) on a server of one connection. A URI is resolved
 * as resources/read resolves it, so an unknown, excluded or withheld one is refused before anything is sent;
 * `link` is absent where the server cannot notify its client later (a stateless request).
 */
export function registerSubscribe(
  server: Server,
  session: Session,
  guardSession: () => void,
  link: SubscriptionLink | undefined,
): void {
  const usable = (): SubscriptionLink => {
    guardSession();
    if (session.config.capabilitySurface === 'minimal')
      refuse(
        'resources/subscribe is not offered: this server runs with FORGE_MCP_CAPABILITY_SURFACE=minimal, which offers no resource subscriptions; read forge://tools again instead.',
      );
    if (!link)
      refuse(
        'resources/subscribe needs a connection the server can notify later: use a stateful session (the server started with --stateless=false) or subscriptions/listen (protocol 2026-07-28).',
      );
    return link!;
  };
  const id = randomUUID();
  const follower: Follower = {
    id,
    owner: link?.owner ?? '',
    channel: id,
    notify: (uri) => void server.sendResourceUpdated({ uri }).catch(() => undefined),
  };
  server.setRequestHandler('resources/subscribe', async (request) => {
    const { room } = usable();
    const resolved = await resolveResource(request.params.uri, session, server);
    await room.follow(follower, request.params.uri, pollOf(resolved, room.signal));
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (request) => {
    const { room } = usable();
    await room.unfollow(id, request.params.uri);
    return {};
  });
  if (link) {
    const previous = server.onclose;
    server.onclose = () => {
      void link.room.detach(id).catch(() => undefined);
      previous?.();
    };
  }
}
