import type { ActionSpec, DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const memberRoleId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'ID of the custom role, from member_role.list_group or member_role.list_instance.',
};
const permission = (what: string): ParamSpec => ({ type: 'boolean', description: `Allow to ${what}.` });
const roleFields: Record<string, ParamSpec> = {
  name: { type: 'string', description: 'Name of the custom role, e.g. "Security auditor".' },
  base_access_level: {
    type: 'integer',
    enum: [10, 15, 20, 30, 40, 50],
    description:
      'Default role the custom role builds on: 10 Guest, 15 Planner, 20 Reporter, 30 Developer, 40 Maintainer, 50 Owner.',
  },
  description: { type: 'string', description: 'What the role is for.' },
  admin_cicd_variables: permission('create, edit and delete CI/CD variables'),
  admin_compliance_framework: permission('manage compliance frameworks'),
  admin_group_member: permission('add, remove and change group members'),
  admin_merge_request: permission('approve merge requests'),
  admin_protected_branch: permission('manage protected branches'),
  admin_push_rules: permission('configure push rules'),
  admin_runners: permission('create, view, edit and delete runners'),
  admin_terraform_state: permission('manage Terraform state'),
  admin_vulnerability: permission('change vulnerability states (dismiss, resolve, confirm)'),
  admin_web_hook: permission('manage webhooks'),
  archive_project: permission('archive and unarchive projects'),
  manage_deploy_tokens: permission('manage deploy tokens'),
  manage_group_access_tokens: permission('manage group access tokens'),
  manage_merge_request_settings: permission('configure merge request settings'),
  manage_project_access_tokens: permission('manage project access tokens'),
  manage_security_policy_link: permission('link security policy projects'),
  read_code: permission('read repository code (on top of Guest)'),
  read_compliance_dashboard: permission('view the compliance center'),
  read_crm_contact: permission('read customer relations contacts'),
  read_dependency: permission('view the dependency list'),
  read_runners: permission('view runners'),
  read_vulnerability: permission('view the vulnerability report'),
  remove_group: permission('delete or restore groups'),
  remove_project: permission('delete projects'),
};

function create(scope: 'group' | 'instance'): ActionSpec {
  const group = scope === 'group';
  return {
    id: `member_role.create_${scope}`,
    title: group ? 'Create custom role in group' : 'Create instance custom role',
    description: group
      ? 'Create a custom role in a top-level group: a default role plus chosen extra permissions, assignable to members of the group and its projects.'
      : 'Create a custom role for the whole instance (administrators, self-managed): a default role plus chosen extra permissions.',
    tool: group ? 'forge_create_group_member_role' : 'forge_create_instance_member_role',
    write: true,
    destructive: false,
    idempotent: false,
    tier: 'ultimate',
    scope: 'api',
    params: group ? { group_id: P.groupId, ...roleFields } : { ...roleFields },
    required: group ? ['group_id', 'name', 'base_access_level'] : ['name', 'base_access_level'],
    request: { rest: { method: 'POST', path: group ? '/groups/:group_id/member_roles' : '/member_roles' } },
    example: {
      ...(group ? { group_id: '10' } : {}),
      name: 'Security auditor',
      base_access_level: 10,
      read_code: true,
      read_vulnerability: true,
    },
  };
}

function remove(scope: 'group' | 'instance'): ActionSpec {
  const group = scope === 'group';
  return {
    id: `member_role.delete_${scope}`,
    title: group ? 'Delete group custom role' : 'Delete instance custom role',
    description:
      'Delete a custom role. Irreversible; members holding it must first be moved to another role or the instance refuses.',
    tool: group ? 'forge_delete_group_member_role' : 'forge_delete_instance_member_role',
    write: true,
    destructive: true,
    idempotent: true,
    tier: 'ultimate',
    scope: 'api',
    params: group ? { group_id: P.groupId, member_role_id: memberRoleId } : { member_role_id: memberRoleId },
    required: group ? ['group_id', 'member_role_id'] : ['member_role_id'],
    request: {
      rest: {
        method: 'DELETE',
        path: group ? '/groups/:group_id/member_roles/:member_role_id' : '/member_roles/:member_role_id',
      },
    },
    example: group ? { group_id: '10', member_role_id: 1 } : { member_role_id: 1 },
  };
}

function list(scope: 'group' | 'instance'): ActionSpec {
  const group = scope === 'group';
  return {
    id: `member_role.list_${scope}`,
    title: group ? 'List group custom roles' : 'List instance custom roles',
    description: group
      ? 'List the custom roles of a top-level group with their base role and enabled permissions.'
      : 'List the custom roles defined for the whole instance with their base role and enabled permissions.',
    tool: group ? 'forge_list_group_member_roles' : 'forge_list_instance_member_roles',
    write: false,
    destructive: false,
    idempotent: true,
    tier: 'ultimate',
    scope: 'read_api',
    // The instance answers every role at once (no paging).
    params: group ? { group_id: P.groupId } : {},
    required: group ? ['group_id'] : [],
    request: { rest: { method: 'GET', path: group ? '/groups/:group_id/member_roles' : '/member_roles' } },
    example: group ? { group_id: '10' } : {},
  };
}

export const domain: DomainSpec = {
  domain: 'member_role',
  metaTool: 'forge_member_role',
  summary:
    'Custom roles: roles built on a default role (Guest, Reporter, Developer...) with extra permissions, defined in a top-level group or for the instance; list, create and delete them.',
  actions: [
    create('group'),
    create('instance'),
    remove('group'),
    remove('instance'),
    list('group'),
    list('instance'),
  ],
};
