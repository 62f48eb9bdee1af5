/**
 * The shared store cannot be reached, or (`conflict`) replicas this one must not run beside hold it (they seal
 * it with another FORGE_MCP_STATE_KEY, or with none). A request that needs it is answered 503 with Retry-After
 * rather than served from state that would diverge from the other replicas'; at start the server says so and exits.
 */
export class StateUnavailable extends Error {
  /** Seconds a client is told to wait (Retry-After). */
  readonly retryAfterS = 5;

  constructor(
    message: string,
    /** host:port of the store, for logs (never its password). */
    readonly where: string,
    /** Reachable, but held by replicas sealing otherwise: the client is told so, not that it does not answer. */
    readonly conflict = false,
  ) {
    super(message);
    this.name = 'StateUnavailable';
  }
}

/**
 * Whether `err` is a StateUnavailable: by name, since the Redis adapter is a bundle of its own with its own copy
 * of the class.
 */
export function isStateUnavailable(err: unknown): err is StateUnavailable {
  return err instanceof Error && err.name === 'StateUnavailable';
}

/**
 * The shared store is used by replicas this one must not run beside: theirs seal what they keep there with
 * another FORGE_MCP_STATE_KEY, or with none while this one has one (or the reverse). Refuses the start.
 */
export class StateKeyMismatch extends Error {
  constructor(
    message: string,
    /** host:port of the store, for logs. */
    readonly where: string,
  ) {
    super(message);
    this.name = 'StateKeyMismatch';
  }
}

/** Whether `err` is a StateKeyMismatch (by name, as isStateUnavailable). */
export function isStateKeyMismatch(err: unknown): err is StateKeyMismatch {
  return err instanceof Error && err.name === 'StateKeyMismatch';
}
