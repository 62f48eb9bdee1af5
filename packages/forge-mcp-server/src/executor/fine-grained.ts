/**
 * The instance's own answers to fine-grained tokens (spec: Errors, Fine-grained refusals; Server-given
 * refusals for fine-grained sessions). These replace the status classification and drop every route hint:
 * no role, licence or owner hint follows them. Classic tokens never get these texts or notes.
 */
import { fineGrainedTable, FINE_GRAINED_RELEASE } from '../catalog/fine-grained.generated.js';
import type { ActionSpec } from '../catalog/types.js';
import { InstanceError, type FineGrainedSessionInfo } from '../instance/index.js';
import type { ToolResult } from './format.js';

/** Writes whose object the grant cannot read: the write commits, the answer cannot show it. */
export const OBJECT_UNREADABLE = new Set([
  'vulnerability.confirm',
  'vulnerability.dismiss',
  'vulnerability.resolve',
  'vulnerability.revert',
  'group.epic_note_update',
  'group.epic_discussion_update_note',
]);

export const EMPTY_MAY_MEAN_NOT_VISIBLE =
  'Note: this answer comes from GraphQL with a fine-grained token. Empty or not found may mean not visible to this token, not that nothing exists: objects outside its grant are left out without an error.';

const REQUIRES = /Requires a fine-grained token with (\w+) permissions?\s*\[([^\]]*)\]/i;
const NO_SUPPORT = /Operation does not support fine-grained tokens/i;
const NOT_YET = /Fine-grained tokens? (are )?not yet supported/i;
const LACKS = /lacks the required permissions/i;

const scopeFor = (a: ActionSpec) => (a.write ? 'api' : 'read_api');

/** The instance's messages of a failure, whole: GraphQL errors[].message, or a REST body's texts. */
function messagesOf(err: InstanceError): string[] {
  if (err.parts.messages?.length) return err.parts.messages;
  const body = err.parts.body as Record<string, unknown> | string | undefined;
  if (typeof body === 'string') return [body];
  if (!body || typeof body !== 'object') return [];
  const out: string[] = [];
  for (const k of ['message', 'error_description', 'error'])
    if (typeof body[k] === 'string') out.push(body[k]);
  if (Array.isArray(body.errors))
    for (const e of body.errors)
      if (typeof (e as { message?: unknown })?.message === 'string')
        out.push((e as { message: string }).message);
  return out;
}

/** What the action needs at release 19.4.1, for a suggestion. */
function needsText(a: ActionSpec): string | undefined {
  const alt = fineGrainedTable()[a.id]?.needs?.[0];
  if (!alt) return undefined;
  return alt.map(([p, b]) => `${p} at the ${b.join(' or ')} boundary`).join(' and ');
}

function refusal(
  err: InstanceError,
  classification: string,
  instanceMessage: string | undefined,
  hint: string,
): InstanceError {
  return new InstanceError(err.kind === 'graphql' ? 'graphql' : 'status', classification, {
    status: err.status ?? 403,
    instanceMessage,
    hint,
    cause: err.parts.cause,
  });
}

/**
 * Reclassifies an instance failure by the fine-grained rules, or answers undefined (the generic
 * classification and route hints then apply). `fg` is the session's grant; undefined for other tokens.
 */
export function fineGrainedFailure(
  a: ActionSpec,
  err: InstanceError,
  fg: FineGrainedSessionInfo | undefined,
): InstanceError | undefined {
  const messages = messagesOf(err);
  const whole = messages.join('; ');
  const requires = REQUIRES.exec(whole);
  if (requires) {
    const level = requires[1].toLowerCase();
    const perms = requires[2]
      .split(',')
      .map((x) => x.trim().replace(/^["'`]|["'`]$/g, ''))
      .filter(Boolean);
    const names = perms.join(', ') || 'a permission';
    const elsewhere = fg && perms.some((p) => fg.holdsElsewhere(p));
    return refusal(
      err,
      `access denied: this fine-grained token does not hold ${names} for this ${level}. Either its grant lacks ${perms.length > 1 ? 'them' : 'it'}, or holds ${perms.length > 1 ? 'them' : 'it'} only for other projects or groups, or the user is not a member of this ${level}.${elsewhere ? ` This session's grant holds ${names} for other projects or groups, not for this one.` : ''} A grant cannot be changed or extended after creation`,
      whole,
      `create a new fine-grained token granting ${names} for this ${level} or a group above it, or use a classic token with the ${scopeFor(a)} scope where the group does not refuse classic tokens`,
    );
  }
  if (NO_SUPPORT.test(whole))
    return refusal(
      err,
      'access denied: this operation declares no fine-grained permission, so no fine-grained token can run it',
      whole,
      `use a classic token with the ${scopeFor(a)} scope`,
    );
  if (NOT_YET.test(whole))
    return refusal(
      err,
      'access denied: fine-grained tokens are not yet supported for this user (the granular_personal_access_tokens feature flag is disabled)',
      whole,
      `use a classic token with the ${scopeFor(a)} scope, or ask the instance administrator to enable fine-grained tokens`,
    );
  const needs = needsText(a);
  const lacks = `create a fine-grained token granting ${needs ?? 'the permission this action needs'} (permission table of instance release ${FINE_GRAINED_RELEASE}; a grant cannot be changed after creation), or use a classic token with the ${scopeFor(a)} scope`;
  if (err.status === 403 && err.parts.code === 'insufficient_granular_scope')
    return refusal(
      err,
      "access denied: this fine-grained token's grant does not allow this request",
      err.parts.instanceMessage,
      lacks,
    );
  if (err.kind === 'graphql' && LACKS.test(whole))
    return refusal(
      err,
      "access denied: this fine-grained token's grant does not allow this operation",
      whole,
      lacks,
    );
  if (fg && err.status === 404 && err.parts.cause === 'failed to execute GraphQL query: 404 Not Found')
    return new InstanceError(
      'status',
      'not found: the object does not exist, or this fine-grained token may not see it',
      {
        status: 404,
        instanceMessage: err.parts.instanceMessage,
        hint: `check the path and id; a fine-grained token sees only what its grant reaches (a classic token with the ${scopeFor(a)} scope sees what the user sees)`,
        cause: err.parts.cause,
      },
    );
  return undefined;
}

/** The answer to a write whose object this token cannot read: probably committed, do not repeat it. */
export function probablyCommitted(a: ActionSpec, detail?: string): string {
  return `${a.id}: the write was probably committed, but this fine-grained token cannot read the object it changed, so the instance answered without it${detail ? ` (${detail})` : ''}. Do not repeat the call: check the object's state first (in the web interface or with a classic token with the read_api scope).`;
}

/** Whether the action reads through GraphQL (its answers may be emptied for a fine-grained token). */
export function readsGraphql(a: ActionSpec): boolean {
  return !!a.request && 'graphql' in a.request && !a.request.graphql.mutation && !a.write;
}

/** Appends the 'empty may mean not visible' note to a result. */
export function withVisibilityNote(r: ToolResult): ToolResult {
  const first = r.content.find((c) => c.type === 'text') as { text: string } | undefined;
  if (first) first.text += `\n\n${EMPTY_MAY_MEAN_NOT_VISIBLE}`;
  else r.content.push({ type: 'text', text: EMPTY_MAY_MEAN_NOT_VISIBLE });
  return r;
}

/** An answer that shows nothing: null, an empty list, or a connection without nodes. */
export function isEmptyAnswer(result: unknown): boolean {
  if (result === null || result === undefined) return true;
  if (Array.isArray(result)) return result.length === 0;
  if (typeof result === 'object') {
    const nodes = (result as { nodes?: unknown }).nodes;
    if (Array.isArray(nodes)) return nodes.length === 0;
    const edges = (result as { edges?: unknown }).edges;
    if (Array.isArray(edges)) return edges.length === 0;
  }
  return false;
}
