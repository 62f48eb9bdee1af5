import type { ActionSpec, DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const auditEventId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'ID of the audit event, from the matching audit event list.',
};
const range: Record<string, ParamSpec> = {
  created_after: {
    type: 'string',
    format: 'date-time',
    description:
      'Only events at or after this time, ISO 8601, e.g. "2025-01-01T00:00:00Z" (default 30 days ago).',
  },
  created_before: {
    type: 'string',
    format: 'date-time',
    description: 'Only events at or before this time, ISO 8601 (default now).',
  },
};

type Scope = 'group' | 'project' | 'instance';
const scopeParam: Record<Scope, Record<string, ParamSpec>> = {
  group: { group_id: P.groupId },
  project: { project_id: P.projectId },
  instance: {},
};
const base: Record<Scope, string> = {
  group: '/groups/:group_id/audit_events',
  project: '/projects/:project_id/audit_events',
  instance: '/audit_events',
};
const where: Record<Scope, string> = {
  group: 'a group (settings, membership, access tokens, protected branches...)',
  project: 'a project (settings, membership, deploy keys, protected branches...)',
  instance: 'the whole instance, across all users, groups and projects (administrators only)',
};
const exampleScope: Record<Scope, Record<string, unknown>> = {
  group: { group_id: '10' },
  project: { project_id: '1' },
  instance: {},
};
const tools: Record<Scope, [string, string]> = {
  group: ['forge_get_group_audit_event', 'forge_list_group_audit_events'],
  project: ['forge_get_project_audit_event', 'forge_list_project_audit_events'],
  instance: ['forge_get_instance_audit_event', 'forge_list_instance_audit_events'],
};
const label = (s: Scope): string => (s === 'instance' ? 'instance' : s);

function get(scope: Scope): ActionSpec {
  return {
    id: `audit_event.get_${scope}`,
    title: `Get ${label(scope)} audit event`,
    description: `Read one audit event of ${where[scope]}: who did what, to which object, when and from which IP.`,
    tool: tools[scope][0],
    write: false,
    destructive: false,
    idempotent: true,
    tier: 'premium',
    scope: 'read_api',
    params: { ...scopeParam[scope], audit_event_id: auditEventId },
    required: [...Object.keys(scopeParam[scope]), 'audit_event_id'],
    request: { rest: { method: 'GET', path: `${base[scope]}/:audit_event_id` } },
    example: { ...exampleScope[scope], audit_event_id: 1 },
  };
}

function list(scope: Scope): ActionSpec {
  const instanceFilters: Record<string, ParamSpec> =
    scope === 'instance'
      ? {
          entity_type: {
            type: 'string',
            enum: ['User', 'Group', 'Project', 'Gitlab::Audit::InstanceScope'],
            description: 'Only events about this kind of object.',
          },
          entity_id: {
            type: 'integer',
            minimum: 1,
            description: 'Only events about the object with this ID (use with entity_type).',
          },
        }
      : {};
  return {
    id: `audit_event.list_${scope}`,
    title: `List ${label(scope)} audit events`,
    description: `List the audit events of ${where[scope]}, newest first, within a time window (default the last 30 days).`,
    tool: tools[scope][1],
    write: false,
    destructive: false,
    idempotent: true,
    tier: 'premium',
    scope: 'read_api',
    params: {
      ...scopeParam[scope],
      ...range,
      ...instanceFilters,
      ...P.paging,
      ...P.keysetPaging('newest first only'),
    },
    required: Object.keys(scopeParam[scope]),
    needsValue: P.keysetNeeds(),
    // The instance declares entity_type required once entity_id is given.
    ...(scope === 'instance' ? { needs: { entity_id: ['entity_type'] } } : {}),
    request: { rest: { method: 'GET', path: base[scope] } },
    example: { ...exampleScope[scope], created_after: '2025-01-01T00:00:00Z' },
  };
}

export const domain: DomainSpec = {
  domain: 'audit_event',
  metaTool: 'forge_audit_event',
  summary:
    'Audit events: the record of who changed what (settings, members, tokens, protections) in a project, a group or the whole instance, listed by time window or read one by one.',
  actions: [get('group'), get('instance'), get('project'), list('group'), list('instance'), list('project')],
};
