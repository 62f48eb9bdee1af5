/** The credential a request brings: `PRIVATE-TOKEN` wins over `Authorization: Bearer`. */
import type { IncomingMessage } from 'node:http';
import { InstanceError } from '../instance/index.js';

export interface Credential {
  token: string;
  header: 'private-token' | 'bearer';
}

export function credentialOf(req: IncomingMessage): Credential | undefined {
  const pt = req.headers['private-token'];
  if (typeof pt === 'string' && pt.trim()) return { token: pt.trim(), header: 'private-token' };
  const bearer = bearerOf(req);
  return bearer === undefined ? undefined : { token: bearer, header: 'bearer' };
}

/** The credential headers of a request as they arrived and the token read from them (for masking them). */
export function requestSecrets(req: IncomingMessage): Array<string | undefined> {
  const { authorization, 'private-token': pt } = req.headers;
  return [authorization, typeof pt === 'string' ? pt : undefined, credentialOf(req)?.token];
}

/** The token of `Authorization: Bearer <token>` (the only transmission OAuth mode accepts). */
export function bearerOf(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  return m ? m[1] : undefined;
}

/**
 * A credential's identity check that failed without refusing the token: a destination the outbound guard
 * refuses is the caller's choice (403, no retry); anything else is an outage (503), with the instance's own
 * Retry-After when it sent one.
 */
export function identityCheckFailure(err: unknown): {
  status: 403 | 503;
  message: string;
  retryAfterS?: number;
} {
  if (!(err instanceof InstanceError)) return { status: 503, message: 'identity check failed' };
  const message = err.render('identity check');
  if (err.kind === 'destination_refused') return { status: 403, message };
  return { status: 503, message, retryAfterS: err.parts.retryAfterSeconds };
}
