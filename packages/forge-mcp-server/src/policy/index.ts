/**
 * Guards: small pure functions `(action, args, session) -> decision`, in the spec's order (withheld,
 * read-only, safe mode, then the confirmation rules). Nothing is sent before a decision says proceed.
 */
import type { ActionSpec } from '../catalog/types.js';
import type { CatalogView } from '../surfaces/view.js';

export type SurfaceName = 'dynamic' | 'meta' | 'individual';

export interface PolicyInput {
  view: CatalogView;
  safeMode: boolean;
  yolo: boolean;
  surface: SurfaceName;
  /** The tool the call came through, for the confirmation question. */
  tool: string;
  confirm?: boolean;
  /** The client can be asked (elicitation) on this request. */
  canElicit: boolean;
}

export type Decision =
  | { kind: 'proceed' }
  | { kind: 'refuse'; text: string; isError: true; reason: string }
  | { kind: 'preview'; text: string; isError: boolean }
  | { kind: 'ask'; question: string }
  | { kind: 'confirm_text'; text: string };

type Guard = (a: ActionSpec, args: Record<string, unknown>, p: PolicyInput) => Decision | undefined;

const withheld: Guard = (a, _args, p) => {
  const v = p.view.availability(a);
  if (v.state === 'withheld' || v.state === 'tier')
    return { kind: 'refuse', text: v.text, isError: true, reason: v.state === 'tier' ? 'tier' : v.reason };
  if (v.state === 'absent')
    return { kind: 'refuse', text: `unknown action ${a.id}`, isError: true, reason: 'unknown_action' };
  return undefined;
};

export function safeModeCard(a: ActionSpec, args: Record<string, unknown>): string {
  const sent = JSON.stringify(args);
  return [
    '## Safe mode blocked',
    '',
    '| field | value |',
    '|---|---|',
    '| status | blocked |',
    '| mode | safe |',
    `| action | ${a.id} |`,
    `| arguments | ${sent.replace(/\|/g, '\\|')} |`,
    '| hint | set FORGE_MCP_SAFE_MODE=false to let writes run |',
    '',
    'Nothing was sent to the instance.',
  ].join('\n');
}

const safeMode: Guard = (a, args, p) =>
  p.safeMode && a.write
    ? { kind: 'preview', text: safeModeCard(a, args), isError: p.surface === 'individual' }
    : undefined;

/** Why this call needs a person's approval, if it does. */
export function confirmationReason(a: ActionSpec, args: Record<string, unknown>): string | undefined {
  if (a.confirmWhen) return a.confirmWhen(args);
  if (a.destructive)
    return a.id === 'project.mirror_add' || /mirror/.test(a.id)
      ? 'it hands repository data to a destination outside the instance'
      : 'it cannot be undone';
  return undefined;
}

/**
 * What the call acts on, as the values of the parameters its REST path names (`project_id 1, issue_iid 2`):
 * identifiers only, never a body value. Empty for an action without a path (GraphQL, handlers).
 */
function target(a: ActionSpec, args: Record<string, unknown>): string {
  const req = a.request;
  if (!req || !('rest' in req)) return '';
  const paths = Array.isArray(req.rest.path) ? req.rest.path : [req.rest.path];
  const named: string[] = [];
  for (const path of paths)
    for (const m of path.matchAll(/:(\w+)/g))
      if (!named.includes(m[1]) && (typeof args[m[1]] === 'string' || typeof args[m[1]] === 'number'))
        named.push(m[1]);
  return named.map((k) => `${k} ${clipped(String(args[k]))}`).join(', ');
}

const clipped = (v: string): string => (v.length > 64 ? `${v.slice(0, 64)}…` : v);

export function confirmQuestion(
  tool: string,
  a: ActionSpec,
  reason: string,
  surface?: PolicyInput['surface'],
  args: Record<string, unknown> = {},
): string {
  // forge_execute_action's `action` takes the canonical ID; a domain tool's takes the part after the domain.
  const action = tool === 'forge_execute_action' ? a.id : a.id.split('.')[1];
  // The object acted on: a person asked through the client sees no arguments otherwise.
  const on = target(a, args);
  const text = `Confirm ${tool}/${action}? ${a.title}${on ? ` (${on})` : ''}: ${reason.replace(/\.$/, '')}. Re-send with confirm=true only after the user explicitly approves`;
  // A domain tool takes confirm inside params (beside action it is refused); forge_execute_action beside action.
  if (surface === 'meta') return `${text}. ${CONFIRM_INSIDE_PARAMS}`;
  // An action guarding by its arguments declares confirm among its parameters, where it is taken too.
  return tool === 'forge_execute_action' && !a.confirmWhen ? `${text}. ${CONFIRM_BESIDE_ACTION}` : text;
}

/** Where a domain tool (meta surface) takes confirm, said wherever a model is told to send it. */
export const CONFIRM_INSIDE_PARAMS =
  'On this tool confirm goes inside params, beside the action\'s other parameters: {"action": ..., "params": {..., "confirm": true}}.';

/** Where forge_execute_action takes confirm (inside params an action that declares none refuses it as unknown). */
export const CONFIRM_BESIDE_ACTION =
  'On this tool confirm goes beside action and params, not inside params: {"action": ..., "params": {...}, "confirm": true}.';

/**
 * Why a confirm value is refused, if it is: only the boolean true approves, so a string or a number ("true",
 * 1, "yes") is neither approval nor a plain "no" but a mistake to correct. Null reads as not given. `where`:
 * where the surface takes it (confirm, or params.confirm on a domain tool).
 */
export function confirmProblem(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null || typeof value === 'boolean') return undefined;
  const got =
    typeof value === 'string'
      ? `the string ${JSON.stringify(clipped(value))}`
      : typeof value === 'number'
        ? `the number ${value}`
        : Array.isArray(value)
          ? 'an array'
          : `a ${typeof value}`;
  return `validating "arguments": ${where} must be a boolean (got ${got}), so it was not read as approval and nothing was sent. Send ${where}: true (the boolean, not a string or number) only after the user explicitly approves`;
}

const confirmation: Guard = (a, args, p) => {
  const reason = confirmationReason(a, args);
  if (!reason) return undefined;
  if (p.yolo || p.confirm === true) return { kind: 'proceed' };
  if (p.surface !== 'dynamic' && p.canElicit)
    return { kind: 'ask', question: confirmQuestion(p.tool, a, reason, undefined, args) };
  return { kind: 'confirm_text', text: confirmQuestion(p.tool, a, reason, p.surface, args) };
};

const GUARDS: Guard[] = [withheld, safeMode, confirmation];

export function decide(a: ActionSpec, args: Record<string, unknown>, p: PolicyInput): Decision {
  for (const g of GUARDS) {
    const d = g(a, args, p);
    if (d) return d;
  }
  return { kind: 'proceed' };
}

/** Texts for the outcomes of an approval asked through the client (spec: Confirmation results). */
export const CONFIRM_TEXTS = {
  declined: (id: string) =>
    `The user declined ${id}. Do not retry this operation; ask the user what they want to do instead.`,
  dismissed: (id: string) =>
    `The confirmation for ${id} was dismissed without an answer; nothing changed. You may ask again.`,
  notConfirmed: 'Operation canceled by user.',
  failed: (reason: string) => `Confirmation failed: ${reason}. The action was not executed.`,
};
