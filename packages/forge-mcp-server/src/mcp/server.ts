/**
 * The MCP method handlers, on the SDK's v2 line. The SDK owns the protocol (server/discover, the
 * Mcp-Method/Mcp-Name checks, legacy initialize, input requests); this file only maps methods onto the
 * session's surface, policy and executor.
 */
import { randomBytes } from 'node:crypto';
import {
  ProtocolError,
  Server,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type ElicitResult,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ActionSpec } from '../catalog/types.js';
import { projectOnInstance } from '../catalog/project-ref.js';
import { channels } from '../channels.js';
import {
  errorResult,
  exclusiveProblem,
  missingCompanions,
  unmetRequirements,
  unmetValues,
  runAction,
  type ToolResult,
} from '../executor/index.js';
import { CONFIRM_TEXTS, decide } from '../policy/index.js';
import { registerCompletions } from '../completions/index.js';
import { offeredPrompts, registerPrompts } from '../prompts/index.js';
import { registerResources } from '../resources/index.js';
import { registerSubscribe, type SubscriptionLink } from '../subscriptions/index.js';
import type { Session } from '../session/index.js';
import { EXECUTE_TOOL } from '../surfaces/index.js';
import { VERSION } from '../version.js';
import { clientLog } from './logging.js';
import { observeServer } from './observe.js';
import { restate } from './restate.js';
import { requireSealed, type Sealed } from './sealed.js';
import { holdsInstanceJson, keepPreserialized, preserialize } from './preserialized.js';

export const SERVER_NAME = 'forge-mcp-server';

type Codec = ReturnType<typeof createRequestStateCodec<Sealed>>;

/**
 * Confirmation states are sealed with a key: a state the server did not issue is refused. Without a `seal`
 * hook the key is the process's own; HTTP mode takes it from the state port, shared by every replica. The
 * process's codec is made when first needed (the SDK's codec reaches for Web Crypto, which Node loads then).
 */
let processCodec: Codec | undefined;
const codecs = new WeakMap<Uint8Array, Codec>();

async function codecOf(seal: ServerHooks['seal']): Promise<Codec> {
  if (!seal) return (processCodec ??= createRequestStateCodec<Sealed>({ key: randomBytes(32) }));
  const key = await seal();
  let codec = codecs.get(key);
  if (!codec) codecs.set(key, (codec = createRequestStateCodec<Sealed>({ key })));
  return codec;
}

export interface ServerHooks {
  /** Writes a downloaded body to a local path (stdio only). */
  saveDownload?: (outputPath: string, bytes: Buffer) => Promise<string>;
  /** Reads a local file for upload (stdio only). */
  readUpload?: (localPath: string, kind: 'upload' | 'import') => Promise<Buffer>;
  /** Checks a local path a handler reads (stdio only). */
  localPath?: (localPath: string, kind: 'upload' | 'directory') => Promise<string>;
  /** Where resources/subscribe registers (absent: a stateless request, which cannot be notified later). */
  subscriptions?: SubscriptionLink;
  /** The key confirmation states are sealed with (the state port's); absent: the process's own. */
  seal?: () => Promise<Uint8Array>;
  /**
   * The transport writes a tool's JSON answer as the instance's own text (stdio: mcp/preserialized.ts), so
   * the executor marks each parsed body with it.
   */
  instanceText?: boolean;
  /** 'pipe' on stdio, 'tcp' over HTTP (what observers record as the network transport). */
  transport?: 'pipe' | 'tcp';
  /** Called after each tool call, for logs (observers read the toolCall channel). */
  onToolCall?: (info: {
    tool: string;
    action?: string;
    isError: boolean;
    refusal?: string;
    ms: number;
  }) => void;
}

const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

/** The refusal text for an answer to the confirmation question, or undefined when the user approved. */
function confirmationRefusal(
  actionId: string,
  answer: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> },
): string | undefined {
  if (answer.action === 'decline') return CONFIRM_TEXTS.declined(actionId);
  if (answer.action === 'cancel') return CONFIRM_TEXTS.dismissed(actionId);
  if (answer.content?.confirm !== true) return CONFIRM_TEXTS.notConfirmed;
  return undefined;
}

/**
 * Whether the client declared `capability` for this request: per request in 2026-07-28, per connection
 * before.
 */
function clientDeclares(server: Server, ctx: ServerContext, capability: 'elicitation' | 'sampling'): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const meta = ctx.mcpReq._meta as Record<string, unknown> | undefined;
  const modern = (envelope?.[CAPABILITIES_KEY] ?? meta?.[CAPABILITIES_KEY]) as
    Record<string, unknown> | undefined;
  if (modern?.[capability]) return true;
  return !!server.getClientCapabilities()?.[capability];
}

const CONFIRM_SCHEMA = {
  type: 'object' as const,
  properties: {
    confirm: {
      type: 'boolean' as const,
      title: 'Run this action',
      description: 'Approve to run it; leave unchecked to cancel.',
    },
  },
  required: ['confirm'],
};

/**
 * The execute tool declares Mcp-Param-Action (x-mcp-header): a header that disagrees with the body's
 * action is refused before anything runs, as the revision's header checks are (-32020).
 */
function checkParamAction(ctx: ServerContext, tool: string, args: Record<string, unknown> | undefined) {
  const header = (ctx.http?.req as Request | undefined)?.headers?.get('mcp-param-action');
  if (header == null || tool !== EXECUTE_TOOL) return;
  if (header !== args?.action)
    deny(
      -32020,
      `Mcp-Param-Action (${JSON.stringify(header)}) disagrees with the body's action (${JSON.stringify(args?.action)}); send the same canonical action ID in both.`,
    );
}

function deny(code: number, message: string): never {
  throw new ProtocolError(code, message);
}

/**
 * The SDK's server, whose tools/call results keep the instance's text (mcp/preserialized.ts): the SDK's
 * schema check answers a copy of a result, which takes the handler's mark along, and its structuredContent
 * back wherever the copy holds just the same.
 */
class ForgeServer extends Server {
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    if (method !== 'tools/call') return super._wrapHandler(method, handler);
    // The marked results of the requests being answered, each until its answer is checked.
    const marked = new Map<JSONRPCRequest, Result>();
    const checked = super._wrapHandler(method, async (request, ctx) => {
      const result = await handler(request, ctx);
      if (holdsInstanceJson(result)) marked.set(request, result);
      return result;
    });
    return async (request, ctx) => {
      try {
        const sent = await checked(request, ctx);
        const own = marked.get(request);
        if (own) keepPreserialized(sent, own);
        return sent;
      } finally {
        marked.delete(request);
      }
    };
  }
}

export function buildServer(session: Session, hooks: ServerHooks = {}): Server {
  // Only a transport that writes the instance's text needs results to keep it (HTTP serializes as the SDK does).
  const server = new (hooks.instanceText ? ForgeServer : Server)(
    { name: SERVER_NAME, version: VERSION, title: 'Forge MCP server' },
    {
      capabilities: {
        tools: { listChanged: false },
        // Subscriptions are offered on the full capability surface only (minimal keeps the manifest alone).
        resources: session.config.capabilitySurface === 'full' ? { subscribe: true } : {},
        logging: {},
        ...(session.config.capabilitySurface === 'full' ? { prompts: {}, completions: {} } : {}),
      },
      instructions:
        session.surfaceName === 'dynamic'
          ? 'Use forge_find_action to find the canonical action for a task, then forge_execute_action to run it.'
          : undefined,
      requestState: {
        verify: async (state: string, ctx: ServerContext) => (await codecOf(hooks.seal)).verify(state, ctx),
      },
    },
  );

  observeServer(server, {
    transport: hooks.transport ?? 'pipe',
    surface: session.surfaceName,
    caller: session.identity,
    knowsTool: (name) => session.surface.knows(name),
    knowsPrompt: (name) => offeredPrompts(session).some((p) => p.name === name),
  });

  const logToClient = clientLog(server, SERVER_NAME);
  const guardSession = () => {
    if (session.refusal) deny(-40300, session.refusal);
  };
  registerResources(server, session, guardSession);
  registerSubscribe(server, session, guardSession, hooks.subscriptions);
  if (session.config.capabilitySurface === 'full') {
    registerPrompts(server, session, guardSession);
    registerCompletions(server, session, guardSession);
  }

  server.setRequestHandler('tools/list', async () => {
    guardSession();
    return { tools: preserialize(await session.surface.list()) as never };
  });

  /** Reports a finished call to the log hook and observers; its record is made only when one takes it. */
  const called = (tool: string, started: number, isError: boolean, action?: string, refusal?: string) => {
    const watched = channels.toolCall.hasSubscribers;
    if (!hooks.onToolCall && !watched) return;
    const info = { tool, action, isError, refusal, ms: Date.now() - started };
    hooks.onToolCall?.(info);
    if (watched) channels.toolCall.publish(info);
  };
  /** Reports a call's result, and sends a log record to a client that asked for them; answers the result. */
  const reported = (
    ctx: ServerContext,
    tool: string,
    started: number,
    r: ToolResult,
    action?: string,
    refusal?: string,
  ) => {
    const isError = !!r.isError;
    called(tool, started, isError, action, refusal);
    // A log record for clients that asked for them (logging/setLevel); never arguments or tokens.
    const level = isError ? 'warning' : 'info';
    if (logToClient.wants(ctx, level)) logToClient.send(ctx, level, { tool, action, isError, refusal });
    return r as never;
  };

  server.setRequestHandler('tools/call', async (request, ctx) => {
    if (session.refusal) deny(-40300, session.refusal);
    const started = Date.now();
    const tool = request.params.name;
    const resolving = session.surface.resolve(
      tool,
      request.params.arguments as Record<string, unknown> | undefined,
    );
    let res = resolving instanceof Promise ? await resolving : resolving;
    const report = (r: ToolResult, action?: string, refusal?: string) =>
      reported(ctx, tool, started, r, action, refusal);
    if (res.kind === 'unknown_tool') deny(-32602, session.surface.unknownTool(tool));
    checkParamAction(ctx, tool, request.params.arguments);
    if (res.kind === 'answer') {
      // A query nothing matched may be restated by the client's model (src/mcp/restate.ts).
      const restated = res.unmatched
        ? await restate(res.unmatched, {
            ctx,
            surface: session.surface,
            canSample: clientDeclares(server, ctx, 'sampling'),
            mint: async (state) => (await codecOf(hooks.seal)).mint(state),
          })
        : undefined;
      if (restated?.kind === 'ask') {
        called(tool, started, false);
        return restated.result as never;
      }
      if (restated) res = restated.answer;
      const r: ToolResult = res.isError
        ? errorResult(res.text)
        : {
            content: [{ type: 'text', text: res.text }],
            ...(res.structured ? { structuredContent: res.structured } : {}),
          };
      return report(r, res.action, res.refusal);
    }
    const { action, params } = res;
    // A web or clone URL pasted as the project: its path when it is on this session's instance, refused otherwise.
    const pasted = params.project_id;
    if (typeof pasted === 'string') {
      const on = projectOnInstance(pasted, session.client.base);
      if ('refused' in on)
        return report(errorResult(`${action.id}: ${on.refused}`), action.id, 'invalid_params');
      params.project_id = on.path;
    }
    // Parameters the instance takes only one of, only together, or only beside another's value, and values it takes
    // only beside another parameter: refused before any question or request.
    const unpaired =
      exclusiveProblem(action, params) ??
      missingCompanions(action, params) ??
      unmetValues(action, params) ??
      unmetRequirements(action, params);
    if (unpaired) return report(errorResult(unpaired), action.id, 'invalid_params');
    let confirm = res.confirm;

    // A re-sent call carrying the user's answer to our confirmation question.
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
    if (answer.kind === 'elicit') {
      requireSealed(ctx, { action: action.id, args: JSON.stringify(params) });
      const refused = confirmationRefusal(action.id, answer);
      if (refused) return report(errorResult(refused), action.id, 'needs_confirmation');
      confirm = true;
    }

    const decision = decide(action, params, {
      view: session.view,
      safeMode: session.config.safeMode,
      yolo: session.config.yolo,
      surface: session.surfaceName,
      tool,
      confirm,
      // Only a question on another surface than dynamic is put to the client (src/policy).
      canElicit: session.surfaceName !== 'dynamic' && clientDeclares(server, ctx, 'elicitation'),
    });
    switch (decision.kind) {
      case 'refuse':
        return report(
          errorResult(
            session.surfaceName === 'dynamic' ? `forge_execute_action: ${decision.text}` : decision.text,
          ),
          action.id,
          decision.reason,
        );
      case 'preview':
        return report(
          decision.isError
            ? errorResult(decision.text)
            : { content: [{ type: 'text', text: decision.text }] },
          action.id,
          'safe_mode',
        );
      case 'confirm_text':
        return report(errorResult(decision.text), action.id, 'needs_confirmation');
      case 'ask': {
        if (ctx.mcpReq.envelope === undefined) {
          // Before 2026-07-28 the question is this server's own elicitation/create request, so an exchange
          // that fails (the client errs or never answers) is reported here, and nothing runs.
          let reply: ElicitResult;
          try {
            // The client's cancel of this call withdraws the question too.
            reply = await ctx.mcpReq.elicitInput(
              { mode: 'form', message: decision.question, requestedSchema: CONFIRM_SCHEMA } as never,
              { signal: ctx.mcpReq.signal },
            );
          } catch (err) {
            const reason = err instanceof Error ? err.message : String(err);
            return report(errorResult(CONFIRM_TEXTS.failed(reason)), action.id, 'needs_confirmation');
          }
          const refused = confirmationRefusal(action.id, reply);
          if (refused) return report(errorResult(refused), action.id, 'needs_confirmation');
          break;
        }
        const requestState = await (
          await codecOf(hooks.seal)
        ).mint({ action: action.id, args: JSON.stringify(params) });
        called(tool, started, false, action.id, 'needs_confirmation');
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              mode: 'form',
              message: decision.question,
              requestedSchema: CONFIRM_SCHEMA,
            } as never),
          },
          requestState,
        }) as never;
      }
      case 'proceed':
        break;
    }
    const result = await execute(session, action, params, ctx.mcpReq.signal, hooks);
    return report(result, action.id);
  });

  return server;
}

function execute(
  session: Session,
  action: ActionSpec,
  params: Record<string, unknown>,
  signal: AbortSignal,
  hooks: ServerHooks,
): Promise<ToolResult> {
  return runAction(action, params, session.client, {
    embeddedResources: session.config.embeddedResources,
    signal,
    saveDownload: hooks.saveDownload,
    readUpload: hooks.readUpload,
    localPath: hooks.localPath,
    instanceText: hooks.instanceText,
    lists: (id: string) => session.surface.lists(id),
    ...(session.surfaceName === 'dynamic' ? {} : { runsAs: (id: string) => session.surface.runsAs(id) }),
  });
}
