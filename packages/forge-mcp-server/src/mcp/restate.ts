/**
 * A forge_find_action query nothing matched is put, once, to the client's model (sampling): it restates the
 * request as a few plain search words, and the search runs again with them. Before 2026-07-28 the question is
 * this server's own sampling/createMessage request during the call; from 2026-07-28 on it is an input request
 * whose answer comes back with the re-sent call, bound to the query by a sealed requestState. Whatever goes
 * wrong (no sampling capability, an error, an answer without usable text, a restatement that matches nothing
 * too), the no-match answer stands unchanged.
 */
import {
  inputRequired,
  inputResponse,
  type CreateMessageRequestParamsBase,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { FIND_TOOL, type AnswerResolution, type Surface } from '../surfaces/index.js';
import { requireSealed, type Sealed } from './sealed.js';

/** The key of the sampling request among a call's input requests and responses. */
const RESTATE_KEY = 'restate';

/** The longest restatement searched with, in characters. */
const MAX_RESTATEMENT = 200;

const SYSTEM_PROMPT =
  'You restate a request to a code-hosting instance\'s API as a few plain search words naming the object and the verb, for example "list merge requests of a project" or "delete a branch". Answer with those words only, on one line.';

/** The sampling request for one query: the query is the only message, and no context is asked for. */
export function restateRequest(query: string): CreateMessageRequestParamsBase {
  return {
    messages: [{ role: 'user', content: { type: 'text', text: query } }],
    systemPrompt: SYSTEM_PROMPT,
    includeContext: 'none',
    maxTokens: 64,
    // A small, quick task: a fast model serves it.
    modelPreferences: { speedPriority: 0.8, intelligencePriority: 0.3 },
  };
}

/** The restatement in a sampling answer: its first text's first line, trimmed and cut; undefined if none. */
export function restatementOf(
  result: CreateMessageResult | CreateMessageResultWithTools,
): string | undefined {
  const content = (result as { content?: unknown }).content;
  const blocks = Array.isArray(content) ? content : [content];
  const text = blocks.find(
    (b): b is { type: 'text'; text: string } =>
      !!b && typeof b === 'object' && b.type === 'text' && typeof b.text === 'string',
  )?.text;
  const line = text?.trim().split(/\r?\n/, 1)[0]?.trim();
  return line ? Array.from(line).slice(0, MAX_RESTATEMENT).join('').trim() : undefined;
}

export interface RestateContext {
  ctx: ServerContext;
  surface: Surface;
  /** Whether the client declared sampling (on this request from 2026-07-28, on its connection before). */
  canSample: boolean;
  /** Seals a state the server issues (the confirmation's codec). */
  mint: (state: Sealed) => Promise<string>;
}

/** What became of a query nothing matched: a restated answer, a question for the client, or nothing. */
export type Restated =
  { kind: 'answer'; answer: AnswerResolution } | { kind: 'ask'; result: InputRequiredResult } | undefined;

/** The state a restatement answer must come back with: this tool, this query and limit. */
function stateOf(query: string, limit: number): Sealed {
  return { action: FIND_TOOL, args: JSON.stringify({ query, limit }) };
}

export async function restate(
  unmatched: { query: string; limit: number },
  { ctx, surface, canSample, mint }: RestateContext,
): Promise<Restated> {
  const { query, limit } = unmatched;
  const found = async (restated: string | undefined): Promise<Restated> => {
    const answer = restated ? await surface.findRestated(query, restated, limit) : undefined;
    return answer ? { kind: 'answer', answer } : undefined;
  };

  if (ctx.mcpReq.envelope === undefined) {
    if (!canSample) return undefined;
    // The client's cancel of the find call cancels this request too.
    let result: CreateMessageResult | CreateMessageResultWithTools;
    try {
      result = await ctx.mcpReq.requestSampling(restateRequest(query), { signal: ctx.mcpReq.signal });
    } catch {
      return undefined;
    }
    return found(restatementOf(result));
  }

  // 2026-07-28: a re-sent call carries the answer; it is asked for only once per call.
  const response = inputResponse(ctx.mcpReq.inputResponses, RESTATE_KEY);
  if (response.kind !== 'missing' || ctx.mcpReq.requestState() !== undefined) {
    requireSealed(ctx, stateOf(query, limit));
    return response.kind === 'sampling' ? found(restatementOf(response.result)) : undefined;
  }
  if (!canSample) return undefined;
  return {
    kind: 'ask',
    result: inputRequired({
      inputRequests: { [RESTATE_KEY]: inputRequired.createMessage(restateRequest(query)) },
      requestState: await mint(stateOf(query, limit)),
    }),
  };
}
