/**
 * What a state this server issues with an input request holds (sealed, src/mcp/server.ts): the tool or
 * action it was issued for and the arguments it was issued with. A re-sent call's state must be that one.
 */
import { ProtocolError, type ServerContext } from '@modelcontextprotocol/server';

export type Sealed = { action: string; args: string };

/** Refuses a re-sent call (JSON-RPC -32602) whose state is missing or was issued for another call. */
export function requireSealed(ctx: ServerContext, expected: Sealed): void {
  const sealed = ctx.mcpReq.requestState<Sealed>();
  if (
    !sealed ||
    typeof sealed !== 'object' ||
    sealed.action !== expected.action ||
    sealed.args !== expected.args
  )
    throw new ProtocolError(-32602, 'Invalid or expired requestState');
}
