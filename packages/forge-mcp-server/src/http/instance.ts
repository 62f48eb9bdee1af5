/**
 * Which instance a request is for. One published instance serves every request (a FORGE-URL header is then
 * not read); with several, the
 * FORGE-URL request header must name one of them (or, with --allow-any-forge-url, any instance). In legacy
 * mode a refusal does not name them.
 */
import type { IncomingMessage } from 'node:http';
import { normalizeInstanceUrl } from '../config/grammar.js';
import { headerOf } from './headers.js';

/** `unlisted`: the header was missing or named no published instance (OAuth mode answers that 403). */
export type InstanceChoice = { instance: string } | { status: 400; message: string; unlisted?: true };

export function instanceSelector(opts: {
  forgeUrls: string[];
  allowAnyForgeUrl: boolean;
}): (req: IncomingMessage) => InstanceChoice {
  const listed = new Set(opts.forgeUrls);
  const several = opts.forgeUrls.length > 1;
  return (req) => {
    // The header selects among several published instances; with one (and no other allowed) it is not read.
    if (opts.forgeUrls.length === 1 && !opts.allowAnyForgeUrl) return { instance: opts.forgeUrls[0] };
    const raw = headerOf(req.headers['forge-url']);
    if (raw === undefined || raw.trim() === '') {
      if (opts.forgeUrls.length === 1) return { instance: opts.forgeUrls[0] };
      return {
        status: 400,
        unlisted: true,
        message: several
          ? 'this server publishes several instances: send the FORGE-URL header naming the instance to use'
          : 'send the FORGE-URL header naming the instance to use',
      };
    }
    const normalized = normalizeInstanceUrl(raw);
    if (typeof normalized !== 'string')
      return {
        status: 400,
        message: `the FORGE-URL header is not a usable instance URL: ${normalized.reason}`,
      };
    if (listed.has(normalized)) return { instance: normalized };
    // Any instance may be named: the outbound guard then judges every connection to it (Tier B too).
    if (opts.allowAnyForgeUrl) return { instance: normalized };
    return {
      status: 400,
      unlisted: true,
      message: several
        ? 'the FORGE-URL header names an instance this server does not publish'
        : 'the FORGE-URL header names an instance this server does not publish; omit the header',
    };
  };
}
