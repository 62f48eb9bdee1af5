/**
 * Reads a request body up to --max-request-body-bytes (413 beyond) and parses it as JSON, refusing a
 * nesting deeper than 100 (400) before the parser sees it.
 */
import type { IncomingMessage } from 'node:http';
import { jsonDepth, MAX_JSON_DEPTH } from '../json-depth.js';

export type BodyResult =
  | { ok: true; body: unknown; text: string }
  | { ok: false; status: 413 | 415 | 400; code: number; message: string };

/** `application/json`, any case, parameters allowed. */
export function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && /^application\/json\s*(?:;|$)/i.test(value.trim());
}

export async function readJsonBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const tooLarge = {
    ok: false,
    status: 413,
    code: -32000,
    message: `request body exceeds the limit of ${limit} bytes (--max-request-body-bytes)`,
  } as const;
  if (!isJsonContentType(req.headers['content-type'])) {
    req.resume();
    return {
      ok: false,
      status: 415,
      code: -32000,
      message: 'Unsupported Media Type: Content-Type must be application/json',
    };
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return tooLarge;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    received += chunk.byteLength;
    if (received > limit) {
      req.resume();
      return tooLarge;
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (jsonDepth(text) > MAX_JSON_DEPTH)
    return {
      ok: false,
      status: 400,
      code: -32600,
      message: `request JSON nests deeper than ${MAX_JSON_DEPTH} levels`,
    };
  try {
    return { ok: true, body: JSON.parse(text) as unknown, text };
  } catch {
    return { ok: false, status: 400, code: -32700, message: 'parse error: the request body is not JSON' };
  }
}
