/** The credential a request brings: `PRIVATE-TOKEN` wins over `Authorization: Bearer`. */
import type { IncomingMessage } from 'node:http';

export interface Credential {
  token: string;
  header: 'private-token' | 'bearer';
}

export function credentialOf(req: IncomingMessage): Credential | undefined {
  const pt = req.headers['private-token'];
  if (typeof pt === 'string' && pt.trim()) return { token: pt.trim(), header: 'private-token' };
  const auth = req.headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return { token: m[1], header: 'bearer' };
  }
  return undefined;
}
