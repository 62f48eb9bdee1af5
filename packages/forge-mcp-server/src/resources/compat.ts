/**
 * FORGE_MCP_CLIENT_COMPAT: the coding-agent CLI (clientInfo.name `claude-code`) reads priority annotations
 * as 0 or 1 only, so under `auto` a fractional priority is rounded for it (0.5 and above to 1).
 */
import type { Server, ServerContext } from '@modelcontextprotocol/server';

export const COMPAT_CLIENT = 'claude-code';
const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';

/** The client's name: per request in 2026-07-28, from initialize before. */
export function clientName(server: Server, ctx: ServerContext): string | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const meta = ctx.mcpReq._meta as Record<string, unknown> | undefined;
  const modern = (envelope?.[CLIENT_INFO_KEY] ?? meta?.[CLIENT_INFO_KEY]) as { name?: unknown } | undefined;
  const name = modern?.name ?? server.getClientVersion()?.name;
  return typeof name === 'string' ? name : undefined;
}

export interface Annotated {
  annotations?: { priority?: number; [k: string]: unknown };
}

/** Rounds each item's priority annotation when the setting and the client call for it. */
export function priorities<T extends Annotated>(
  items: T[],
  mode: 'auto' | 'off',
  server: Server,
  ctx: ServerContext,
): T[] {
  if (mode === 'off' || clientName(server, ctx) !== COMPAT_CLIENT) return items;
  return items.map((i) =>
    typeof i.annotations?.priority === 'number'
      ? { ...i, annotations: { ...i.annotations, priority: i.annotations.priority >= 0.5 ? 1 : 0 } }
      : i,
  );
}
