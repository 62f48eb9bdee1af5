/**
 * Corrective hints for routes whose 401 and 403 mean different things, and for action groups that add a
 * hint of their own (spec: Errors, Corrective hints). A role, licence or owner hint follows only a REST
 * 401 or 403 without an RFC 6750 code; the `always` hints follow every error of their actions. And the note
 * after a list whose instance default narrows it to the caller's own (defaultScopeNote).
 */
import type { InstanceError } from '../instance/index.js';
import { clip } from './suggest.js';

interface RouteHints {
  401?: string;
  403?: string;
  /** Follows every error of the action. */
  always?: string;
  /** Follows every 401 of the action, with or without an RFC 6750 code (it is no role hint). */
  every401?: string;
  /** Follows a 405, the instance's answer to an action the object's state does not allow (no role hint). */
  405?: string;
}

const EXTERNAL_STATUS_CHECK: RouteHints = {
  401: "the project's licence does not include external status checks (Ultimate)",
  403: 'your role in the project does not allow it (Maintainer or higher)',
};
const SECURITY_SETTINGS: RouteHints = {
  401: 'your role does not allow changing security settings (Maintainer or Owner)',
  403: 'the licence does not include these security settings (Ultimate), or the project is archived',
};
const SAML_LINK: RouteHints = {
  always:
    'SAML group links need SAML single sign-on configured on the top-level group, the Owner role, and a Premium or Ultimate licence',
};
const SELF_ROTATION: RouteHints = {
  every401:
    'self-rotation rotates the calling token itself: call it with the token to rotate, which must be active and carry the api or self_rotate scope',
};

const BY_ACTION: Record<string, RouteHints> = {
  'project.create_fork_relation': {
    401: 'the target namespace is not allowed for this fork relation',
    403: 'you need the Owner role on the fork, or the right to fork the source project',
  },
  'merge_train.add': {
    401: 'you may not merge into the target branch (check the protected branch settings)',
    403: 'you cannot read the merge request or its project',
  },
  // The instance answers a second approval, and an approval by someone who may not approve, with 401.
  'merge_request.merge': {
    405: 'the merge request cannot be merged in its current state (already merged or closed, a draft, or blocked by unresolved threads, missing approvals or its pipeline): merge_request.get shows its state and detailed_merge_status',
  },
  'merge_request.approve': {
    401: 'you may have approved this merge request already, or may not approve it (its author, or not an eligible approver): merge_request.approval_state shows who approved and who may',
  },
  'project.security_settings_get': SECURITY_SETTINGS,
  'project.security_settings_update': SECURITY_SETTINGS,
  'group.security_settings_update': SECURITY_SETTINGS,
  'group.saml_link_add': SAML_LINK,
  'group.saml_link_delete': SAML_LINK,
  'group.saml_link_get': SAML_LINK,
  'group.saml_link_list': SAML_LINK,
  'access.token_personal_rotate_self': SELF_ROTATION,
  'access.token_group_rotate_self': SELF_ROTATION,
  'access.token_project_rotate_self': SELF_ROTATION,
};

function hintsFor(actionId: string): RouteHints | undefined {
  return (
    BY_ACTION[actionId] ?? (actionId.startsWith('external_status_check.') ? EXTERNAL_STATUS_CHECK : undefined)
  );
}

/** The hint an action's own route gives for this failure, if any. */
export function routeHint(actionId: string, err: InstanceError): string | undefined {
  const h = hintsFor(actionId);
  if (!h) return undefined;
  if (h.always) return h.always;
  const status = err.status;
  if (h.every401 && status === 401) return h.every401;
  if (h[405] && status === 405 && err.kind === 'status') return h[405];
  if (
    (status === 401 || status === 403) &&
    !err.parts.code &&
    !err.parts.tokenRefused &&
    !err.parts.accountRefused &&
    err.kind === 'status'
  )
    return h[status];
  return undefined;
}

/**
 * The lists across projects whose instance default is scope created_by_me: a filter by another person, or an
 * empty answer, without a scope reads as "nobody has any" when it means "none that you created".
 */
const CREATED_BY_ME_BY_DEFAULT = new Set(['issue.list_all', 'merge_request.list_global']);
const PERSON_FILTERS = [
  'author_id',
  'author_username',
  'assignee_id',
  'assignee_username',
  'reviewer_id',
  'reviewer_username',
];

/** The note said after such a list's items when the call left scope out, if it is one. */
export function defaultScopeNote(
  actionId: string,
  args: Record<string, unknown>,
  count: number,
): string | undefined {
  if (!CREATED_BY_ME_BY_DEFAULT.has(actionId) || args.scope !== undefined) return undefined;
  if (count > 0 && !PERSON_FILTERS.some((k) => args[k] !== undefined)) return undefined;
  return "Note: without scope the instance lists only what you created (scope created_by_me); pass scope=all for everyone's you can see, or scope=assigned_to_me.";
}

/**
 * A project named by its name alone (project_id "Widgets"): the instance answers 404 Project Not Found, which
 * otherwise reads as "the issue does not exist". The fix is known: project_id takes a numeric ID or the full path
 * with its namespace, and project.list finds either. `runsAs` says which tool runs project.list on this surface.
 */
export function projectNamedHint(
  args: Record<string, unknown>,
  err: InstanceError,
  runsAs?: (id: string) => string | undefined,
): string | undefined {
  const p = args.project_id;
  if (err.status !== 404 || typeof p !== 'string' || /^\d+$/.test(p.trim()) || p.includes('/'))
    return undefined;
  if (!/project not found/i.test(err.parts.instanceMessage ?? '')) return undefined;
  const how = runsAs?.('project.list');
  return `project_id "${clip(p)}" is neither a numeric ID nor a full path with its namespace (group/project); find the project with project.list${how ? ` (run with ${how})` : ''} and search "${clip(p)}", then pass its id or path_with_namespace`;
}

/**
 * A create the instance refused because the object exists already (400 '(DEPLOY_ENV) has already been taken', 409
 * 'Label already exists'): the update action beside it changes the one there is, when the session lists it.
 */
export function existsHint(
  actionId: string,
  err: InstanceError,
  opts: { lists?: (id: string) => boolean; runsAs?: (id: string) => string | undefined },
): string | undefined {
  if ((err.status !== 400 && err.status !== 409) || err.kind !== 'status') return undefined;
  if (!/already (been taken|exists)/i.test(err.parts.instanceMessage ?? '')) return undefined;
  if (!/create$/.test(actionId)) return undefined;
  const update = actionId.replace(/create$/, 'update');
  if (!opts.lists?.(update)) return undefined;
  const how = opts.runsAs?.(update);
  return `it exists already: change it with ${update}${how ? ` (run with ${how})` : ''}`;
}
