import type { DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const key: ParamSpec = {
  type: 'string',
  pattern: '^[A-Za-z0-9_]+$',
  maxLength: 255,
  description:
    'Variable name: letters, digits and underscores only, up to 255 characters, e.g. "DEPLOY_TOKEN".',
};
const value: ParamSpec = {
  type: 'string',
  description: 'Value of the variable (for file-type variables, the file content).',
};
/** On update the instance keeps the current value when none is given (the code declares it optional). */
const newValue: ParamSpec = {
  ...value,
  description:
    'New value of the variable (for file-type variables, the file content); leave it out to keep the current one.',
};
const variableType: ParamSpec = {
  type: 'string',
  enum: ['env_var', 'file'],
  description:
    'env_var (default): exposed as an environment variable; file: written to a temp file whose path is exposed.',
};
const protectedFlag: ParamSpec = {
  type: 'boolean',
  description:
    'true to expose the variable only to pipelines on protected branches and tags. Default false when creating; unchanged on update when omitted.',
};
const masked: ParamSpec = {
  type: 'boolean',
  description:
    'true to hide the value in job logs (value must meet masking rules: 8+ characters, no spaces). Default false when creating; unchanged on update when omitted.',
};
const raw: ParamSpec = {
  type: 'boolean',
  description:
    'true to treat the value as raw text: "$" references inside it are not expanded. Default false when creating; unchanged on update when omitted.',
};
const varDescription: ParamSpec = { type: 'string', description: 'Short note on what the variable is for.' };
const environmentScope: ParamSpec = {
  type: 'string',
  description:
    'Environments the variable applies to: "*" (all; the default when creating), an exact name like "production", or a wildcard like "review/*".',
};
const filterScope: ParamSpec = {
  type: 'string',
  wire: 'filter[environment_scope]',
  description:
    'Which variable to act on when several share the key with different environment scopes, e.g. "production".',
};
const projectVariableBody = (forUpdate: boolean): Record<string, ParamSpec> => ({
  value: forUpdate ? newValue : value,
  variable_type: variableType,
  protected: protectedFlag,
  masked,
  ...(forUpdate
    ? {}
    : {
        masked_and_hidden: {
          type: 'boolean',
          description:
            'true to mask the value and also hide it in the UI afterwards (only when creating). Default false.',
        },
      }),
  raw,
  environment_scope: environmentScope,
  description: varDescription,
});

export const domain: DomainSpec = {
  domain: 'ci_variable',
  metaTool: 'forge_ci_variable',
  summary:
    'CI/CD variables and secrets at project, group and instance level: list, read, create, update and delete, with protected, masked, file and environment-scope options.',
  actions: [
    {
      id: 'ci_variable.create',
      title: 'Create project CI/CD variable',
      description:
        'Add a CI/CD variable (or secret) to a project, optionally protected, masked, file-typed or limited to an environment scope. Fails if the key already exists for that scope; use ci_variable.update to change it.',
      tool: 'forge_ci_variable_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, key, ...projectVariableBody(false) },
      required: ['project_id', 'key', 'value'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/variables' } },
      // A key the seeded project does not hold yet (it holds DEPLOY_ENV, which the other examples read and change).
      example: { project_id: '1', key: 'DEPLOY_REGION', value: 'eu-west', protected: false, masked: false },
    },
    {
      id: 'ci_variable.delete',
      title: 'Delete project CI/CD variable',
      description:
        'Delete a project CI/CD variable. Irreversible: the value is lost and pipelines relying on it break. Give environment_scope when the key exists for several scopes.',
      tool: 'forge_ci_variable_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, key, environment_scope: filterScope },
      required: ['project_id', 'key'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/variables/:key' } },
      example: { project_id: '1', key: 'DEPLOY_ENV' },
    },
    {
      id: 'ci_variable.get',
      title: 'Get project CI/CD variable',
      description:
        'Show one project CI/CD variable with its value and options (type, protected, masked, raw, environment scope). Hidden variables come back without a value.',
      tool: 'forge_ci_variable_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, key, environment_scope: filterScope },
      required: ['project_id', 'key'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/variables/:key' } },
      notFound: {
        object: 'CI/CD variable',
        key: 'key',
        next: ['ci_variable.list', 'ci_variable.group_list'],
      },
      example: { project_id: '1', key: 'DEPLOY_ENV' },
    },
    {
      id: 'ci_variable.group_create',
      title: 'Create group CI/CD variable',
      description:
        'Add a CI/CD variable to a group; every project in the group and its subgroups inherits it. Environment scoping at group level needs Premium.',
      tool: 'forge_group_variable_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId, key, ...projectVariableBody(false) },
      required: ['group_id', 'key', 'value'],
      request: { rest: { method: 'POST', path: '/groups/:group_id/variables' } },
      example: { group_id: '10', key: 'REGISTRY_USER', value: 'ci-bot', protected: true },
    },
    {
      id: 'ci_variable.group_delete',
      title: 'Delete group CI/CD variable',
      description: 'Delete a group CI/CD variable; projects of the group no longer inherit it. Irreversible.',
      tool: 'forge_group_variable_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { group_id: P.groupId, key, environment_scope: filterScope },
      required: ['group_id', 'key'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/variables/:key' } },
      example: { group_id: '10', key: 'REGISTRY_USER' },
    },
    {
      id: 'ci_variable.group_get',
      title: 'Get group CI/CD variable',
      description: 'Show one group CI/CD variable with its value and options.',
      tool: 'forge_group_variable_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, key, environment_scope: filterScope },
      required: ['group_id', 'key'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/variables/:key' } },
      notFound: { object: 'CI/CD variable', key: 'key', next: ['ci_variable.group_list'] },
      example: { group_id: '10', key: 'REGISTRY_USER' },
    },
    {
      id: 'ci_variable.group_list',
      title: 'List group CI/CD variables',
      description:
        'List the CI/CD variables defined on a group (not those of its projects or parent groups).',
      tool: 'forge_group_variable_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, ...P.paging },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/variables' } },
      example: { group_id: '10' },
    },
    {
      id: 'ci_variable.group_update',
      title: 'Update group CI/CD variable',
      description: 'Change the value or options of an existing group CI/CD variable.',
      tool: 'forge_group_variable_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        group_id: P.groupId,
        key,
        ...projectVariableBody(true),
        filter_environment_scope: { ...filterScope, in: 'query' },
      },
      required: ['group_id', 'key'],
      request: { rest: { method: 'PUT', path: '/groups/:group_id/variables/:key' } },
      example: { group_id: '10', key: 'REGISTRY_USER', value: 'ci-bot-2' },
    },
    {
      id: 'ci_variable.instance_create',
      title: 'Create instance CI/CD variable',
      description:
        'Add a CI/CD variable available to every project and group on the instance (administrators only, self-managed).',
      tool: 'forge_instance_variable_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        key,
        value,
        variable_type: variableType,
        protected: protectedFlag,
        masked,
        raw,
        description: varDescription,
      },
      required: ['key', 'value'],
      request: { rest: { method: 'POST', path: '/admin/ci/variables' } },
      example: { key: 'COMPANY_PROXY', value: 'http://proxy.example.com:3128' },
    },
    {
      id: 'ci_variable.instance_delete',
      title: 'Delete instance CI/CD variable',
      description: 'Delete an instance-wide CI/CD variable (administrators only). Irreversible.',
      tool: 'forge_instance_variable_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { key },
      required: ['key'],
      request: { rest: { method: 'DELETE', path: '/admin/ci/variables/:key' } },
      example: { key: 'COMPANY_PROXY' },
    },
    {
      id: 'ci_variable.instance_get',
      title: 'Get instance CI/CD variable',
      description: 'Show one instance-wide CI/CD variable with its value and options (administrators only).',
      tool: 'forge_instance_variable_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { key },
      required: ['key'],
      request: { rest: { method: 'GET', path: '/admin/ci/variables/:key' } },
      notFound: { object: 'CI/CD variable', key: 'key', next: ['ci_variable.instance_list'] },
      example: { key: 'COMPANY_PROXY' },
    },
    {
      id: 'ci_variable.instance_list',
      title: 'List instance CI/CD variables',
      description: 'List the CI/CD variables defined for the whole instance (administrators only).',
      tool: 'forge_instance_variable_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.paging },
      request: { rest: { method: 'GET', path: '/admin/ci/variables' } },
      example: {},
    },
    {
      id: 'ci_variable.instance_update',
      title: 'Update instance CI/CD variable',
      description: 'Change the value or options of an instance-wide CI/CD variable (administrators only).',
      tool: 'forge_instance_variable_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        key,
        value: newValue,
        variable_type: variableType,
        protected: protectedFlag,
        masked,
        raw,
        description: varDescription,
      },
      required: ['key'],
      request: { rest: { method: 'PUT', path: '/admin/ci/variables/:key' } },
      example: { key: 'COMPANY_PROXY', value: 'http://proxy2.example.com:3128' },
    },
    {
      id: 'ci_variable.list',
      title: 'List project CI/CD variables',
      description:
        'List the CI/CD variables defined on a project (inherited group and instance variables are not included).',
      tool: 'forge_ci_variable_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, ...P.paging },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/variables' } },
      example: { project_id: '1' },
    },
    {
      id: 'ci_variable.update',
      title: 'Update project CI/CD variable',
      description:
        'Change the value or options of an existing project CI/CD variable. Use filter_environment_scope to pick one when the key exists for several environment scopes.',
      tool: 'forge_ci_variable_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        key,
        ...projectVariableBody(true),
        filter_environment_scope: { ...filterScope, in: 'query' },
      },
      required: ['project_id', 'key'],
      request: { rest: { method: 'PUT', path: '/projects/:project_id/variables/:key' } },
      example: { project_id: '1', key: 'DEPLOY_ENV', value: 'production', filter_environment_scope: '*' },
    },
  ],
};
