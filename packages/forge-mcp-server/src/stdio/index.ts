/** stdio: line-delimited JSON-RPC on stdin/stdout for one credential (FORGE_TOKEN). */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Config } from '../config/types.js';
import { toolCallLog, type Logger } from '../log.js';
import { buildServer } from '../mcp/server.js';
import { openSession, SessionRefused, type CredentialProbe } from '../session/index.js';
import { unknownExclusionMessage } from '../surfaces/view.js';
import { InstanceError } from '../instance/index.js';
import { saveDownload } from './downloads.js';
import { lineGate, type WireError } from './lines.js';
import { StdioListens } from './listen.js';
import { StdioTransport } from './transport.js';
import {
  methodOf,
  methodsOf,
  RATE_LIMITED_CODE,
  RateLimiter,
  ThrottledLog,
  toolNameOf,
} from '../http/limits.js';
// fs.promises is read when first used (node:fs/promises costs start-up time).
import { promises as fsp } from 'node:fs';
import { resolveLocalPath } from '../policy/paths.js';
import { markServing, markStarted } from '../compile-cache.js';
import { channels, now, publish } from '../channels.js';
import { MemorySubscriptionStore } from '../state/index.js';
import { MAX_PROCESS_STREAMS, Subscriptions } from '../subscriptions/index.js';

/** `probe`: the credential's first requests, when the command line already sent them (the same as here). */
export async function runStdio(
  config: Config,
  log: Logger,
  probe?: CredentialProbe,
): Promise<number | undefined> {
  const baseUrl = config.forgeUrls[0]!;
  let session;
  try {
    const init = { config, baseUrl, token: config.token ?? '', tokenLabel: 'FORGE_TOKEN' };
    session = await openSession(init, probe);
  } catch (err) {
    const msg =
      err instanceof SessionRefused
        ? err.message
        : err instanceof InstanceError
          ? err.render('startup identity check (GET /api/v4/user)')
          : `startup identity check failed: ${(err as Error).message}`;
    log.error({ instance: new URL(baseUrl).host }, msg);
    return 1;
  }
  if (session.refusal) log.error(session.refusal);
  const unknown = session.view.unknownExclusions([
    'forge_interactive',
    'interactive.issue_create',
    'discover_project.resolve',
  ]);
  for (const e of unknown) log.warn({ entry: e }, unknownExclusionMessage(session.view.catalog, e));
  log.info(
    {
      instance: new URL(baseUrl).host,
      user: session.identity.username,
      user_id: session.identity.id,
      surface: config.toolSurface,
      tier: session.view.opts.tier,
      tier_source: session.view.opts.tierSource,
      actions: session.view.listedSummary().count,
    },
    'serving on stdio',
  );
  // Only well-formed JSON-RPC lines reach the SDK; the gate answers the rest itself (src/stdio/lines.ts).
  // The one credential's resource subscriptions, polled for changes.
  const subscriptions = new Subscriptions({
    store: new MemorySubscriptionStore(),
    pollMs: config.subscriptionPollMs,
    perCredential: config.maxListenStreams,
    log,
  });
  // subscriptions/listen (2026-07-28) is answered by the SDK's entry; what it follows is polled here.
  const listens = new StdioListens(subscriptions, session, log, {
    perCredential: config.maxListenStreams,
    perProcess: MAX_PROCESS_STREAMS,
  });
  const limited = rateLimit(config, log, (name) => session.surface.knows(name));
  // The gate hands each message it parsed straight to the transport.
  const deliver = (m: Record<string, unknown>) => transport.receive(m);
  const gate = lineGate(
    config.stdioMaxLineBytes,
    (e) => process.stdout.write(`${JSON.stringify(e)}\n`),
    deliver,
    (m) => limited?.(m) ?? listens.admit(m),
  );
  process.stdin.pipe(gate);
  const transport = new StdioTransport(gate, process.stdout, {
    // The gate bounds every line; the SDK's read buffer, which would hold one, is not used.
    maxBufferSize: config.stdioMaxLineBytes + 1024,
  });
  const handle = serveStdio(
    ({ era }) => {
      const server = buildServer(session, {
        subscriptions: { room: subscriptions, owner: 'stdio' },
        saveDownload: (p, bytes) => saveDownload(config, p, bytes),
        readUpload: async (p, kind) => fsp.readFile(await resolveLocalPath(config, p, kind)),
        localPath: (p, kind) => resolveLocalPath(config, p, kind),
        transport: 'pipe',
        instanceText: true,
        onToolCall: toolCallLog(log),
      });
      if (era === 'modern') listens.serving(server);
      return server;
    },
    {
      transport,
      maxSubscriptions: listens.limit,
      onerror: (e) => log.warn({ err: e.message }, 'protocol error'),
    },
  );
  markServing();
  // The first tools/list answer ends the start: the launcher keeps what was compiled until then.
  const send = transport.send.bind(transport);
  transport.send = (message) => {
    const sent = send(message);
    if (Array.isArray((message as { result?: { tools?: unknown } }).result?.tools)) {
      transport.send = send;
      void sent.then(markStarted, () => undefined);
    }
    return sent;
  };
  const began = now();
  await new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  subscriptions.close();
  await handle.close();
  // A stdio connection is one stateful session.
  publish(channels.sessionEnd, () => ({ transport: 'pipe', ms: now() - began }));
  return 0;
}

/**
 * FORGE_MCP_RATE_LIMIT_RPS on stdio (0, the default there, leaves it off): the same buckets as over HTTP for
 * the one credential, a refused request answered -42900 with the seconds to wait, as HTTP's 429 body says.
 */
function rateLimit(
  config: Config,
  log: Logger,
  knowsTool: (name: string) => boolean,
): ((m: Record<string, unknown>) => WireError | undefined) | undefined {
  if (config.rateLimitRps <= 0) return undefined;
  const limiter = new RateLimiter({ rps: config.rateLimitRps, burst: config.rateLimitBurst });
  // One line per ten seconds at most, as over HTTP; it carries the count of refusals held back.
  const refusals = new ThrottledLog(10_000);
  return (m) => {
    if (!('id' in m)) return undefined;
    const verdict = limiter.charge('stdio', methodsOf(m));
    if (verdict.ok) return undefined;
    refusals.event((suppressed) =>
      log.warn(
        { retryAfterS: verdict.retryAfterS, refusal_reason: 'rate_limited', suppressed },
        'rate limited',
      ),
    );
    publish(channels.mcpRefused, () => ({
      method: methodOf(m) ?? '',
      toolName: toolNameOf(m),
      toolKnown: knowsTool(toolNameOf(m) ?? ''),
      refusal: 'rate_limited' as const,
      errorCode: RATE_LIMITED_CODE,
      surface: config.toolSurface,
      transport: 'pipe' as const,
    }));
    return {
      jsonrpc: '2.0',
      id: m.id as string | number,
      error: {
        code: RATE_LIMITED_CODE,
        message: `rate limited: this credential is over its request rate; retry after ${verdict.retryAfterS} s`,
        data: { reason: 'rate_limited', retryAfterSeconds: verdict.retryAfterS },
      },
    };
  };
}
