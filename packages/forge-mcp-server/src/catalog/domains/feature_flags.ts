import type { DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const flagName: ParamSpec = {
  type: 'string',
  description: 'Name of the feature flag, e.g. "new_checkout" (from feature_flags.feature_flag_list).',
};
const listIid: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'Project-scoped IID of the feature flag user list (from feature_flags.ff_user_list_list).',
};
const strategies = (forUpdate: boolean): ParamSpec => ({
  type: 'array',
  items: {
    type: 'object',
    properties: {
      ...(forUpdate
        ? {
            id: { type: 'integer', description: 'Existing strategy to change.' },
            _destroy: { type: 'boolean', description: 'true with id to remove the strategy.' },
          }
        : {}),
      name: {
        type: 'string',
        enum: ['default', 'gradualRolloutUserId', 'userWithId', 'gitlabUserList', 'flexibleRollout'],
      },
      parameters: { type: 'object' },
      user_list_id: { type: 'integer' },
      scopes: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            environment_scope: { type: 'string' },
            ...(forUpdate ? { id: { type: 'integer' }, _destroy: { type: 'boolean' } } : {}),
          },
          // A new flag's strategy and scope are created whole: the instance requires their name and scope.
          ...(forUpdate ? {} : { required: ['environment_scope'] }),
        },
      },
    },
    ...(forUpdate ? {} : { required: ['name'] }),
  },
  description:
    'Rollout strategies. Each has a name (default = everyone, flexibleRollout = percentage, userWithId = listed user IDs, gitlabUserList = a user list), parameters and environment scopes, e.g. ' +
    '[{"name": "flexibleRollout", "parameters": {"groupId": "default", "rollout": "25", "stickiness": "default"}, "scopes": [{"environment_scope": "production"}]}]' +
    (forUpdate
      ? '. Include id to change an existing strategy or scope, and _destroy: true to remove it.'
      : '.'),
});
const userXids: ParamSpec = {
  type: 'string',
  description: 'Comma-separated user identifiers as your application knows them, e.g. "user1,user2,42".',
};

export const domain: DomainSpec = {
  domain: 'feature_flags',
  metaTool: 'forge_feature_flags',
  summary:
    'Feature flags of a project: create, list, inspect, toggle, change rollout strategies and delete flags, and manage the user lists they target.',
  actions: [
    {
      id: 'feature_flags.feature_flag_create',
      title: 'Create feature flag',
      description:
        'Create a feature flag with optional description, active state and rollout strategies (percentage, user IDs, user lists) per environment.',
      tool: 'forge_feature_flag_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        name: { type: 'string', description: 'Unique flag name, e.g. "new_checkout".' },
        description: { type: 'string', description: 'What the flag controls.' },
        active: {
          type: 'boolean',
          description: 'true (default) to turn the flag on; false to create it disabled.',
        },
        version: {
          type: 'string',
          enum: ['new_version_flag'],
          description: 'Flag version; only new_version_flag is supported (deprecated, may be omitted).',
        },
        strategies: strategies(false),
      },
      required: ['project_id', 'name'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/feature_flags' } },
      example: {
        project_id: '1',
        name: 'new_checkout',
        description: 'New checkout flow',
        active: true,
        strategies: [
          {
            name: 'flexibleRollout',
            parameters: { groupId: 'default', rollout: '25', stickiness: 'default' },
            scopes: [{ environment_scope: 'production' }],
          },
        ],
      },
    },
    {
      id: 'feature_flags.feature_flag_delete',
      title: 'Delete feature flag',
      description:
        'Delete a feature flag with its strategies; applications asking for it then get it as disabled. Irreversible.',
      tool: 'forge_feature_flag_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, feature_flag_name: flagName },
      required: ['project_id', 'feature_flag_name'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/feature_flags/:feature_flag_name' } },
      example: { project_id: '1', feature_flag_name: 'new_checkout' },
    },
    {
      id: 'feature_flags.feature_flag_get',
      title: 'Get feature flag',
      description:
        'Show one feature flag: whether it is active, its description and its rollout strategies per environment.',
      tool: 'forge_feature_flag_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, feature_flag_name: flagName },
      required: ['project_id', 'feature_flag_name'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/feature_flags/:feature_flag_name' } },
      notFound: {
        object: 'Feature flag',
        key: 'feature_flag_name',
        next: ['feature_flags.feature_flag_list'],
      },
      example: { project_id: '1', feature_flag_name: 'new_checkout' },
    },
    {
      id: 'feature_flags.feature_flag_list',
      title: 'List feature flags',
      description: "List a project's feature flags, optionally only enabled or only disabled ones.",
      tool: 'forge_feature_flag_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        scope: {
          type: 'string',
          enum: ['enabled', 'disabled'],
          description: 'Only enabled or only disabled flags.',
        },
        ...P.paging,
      },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/feature_flags' } },
      example: { project_id: '1', scope: 'enabled' },
    },
    {
      id: 'feature_flags.feature_flag_update',
      title: 'Update feature flag (toggle, rollout)',
      description:
        'Change a feature flag: turn it on or off (active), rename it, edit its description, or add, change and remove rollout strategies and their environment scopes.',
      tool: 'forge_feature_flag_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        feature_flag_name: flagName,
        name: { type: 'string', description: 'New name for the flag.' },
        description: { type: 'string', description: 'New description.' },
        active: { type: 'boolean', description: 'true to enable the flag, false to disable it.' },
        strategies: strategies(true),
      },
      required: ['project_id', 'feature_flag_name'],
      request: { rest: { method: 'PUT', path: '/projects/:project_id/feature_flags/:feature_flag_name' } },
      example: { project_id: '1', feature_flag_name: 'new_checkout', active: false },
    },
    {
      id: 'feature_flags.ff_user_list_create',
      title: 'Create feature flag user list',
      description:
        'Create a named list of user IDs that feature flag strategies (gitlabUserList) can target, e.g. beta testers.',
      tool: 'forge_ff_user_list_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        name: { type: 'string', description: 'Name of the user list, e.g. "beta-testers".' },
        user_xids: userXids,
      },
      required: ['project_id', 'name', 'user_xids'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/feature_flags_user_lists' } },
      example: { project_id: '1', name: 'beta-testers', user_xids: 'user1,user2,user3' },
    },
    {
      id: 'feature_flags.ff_user_list_delete',
      title: 'Delete feature flag user list',
      description:
        'Delete a feature flag user list (not allowed while a strategy still uses it). Irreversible.',
      tool: 'forge_ff_user_list_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, iid: listIid },
      required: ['project_id', 'iid'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/feature_flags_user_lists/:iid' } },
      example: { project_id: '1', iid: 1 },
    },
    {
      id: 'feature_flags.ff_user_list_get',
      title: 'Get feature flag user list',
      description: 'Show one feature flag user list: its name and the user IDs in it.',
      tool: 'forge_ff_user_list_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, iid: listIid },
      required: ['project_id', 'iid'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/feature_flags_user_lists/:iid' } },
      notFound: { object: 'Feature flag user list', key: 'iid', next: ['feature_flags.ff_user_list_list'] },
      example: { project_id: '1', iid: 1 },
    },
    {
      id: 'feature_flags.ff_user_list_list',
      title: 'List feature flag user lists',
      description: "List a project's feature flag user lists, optionally searching by name.",
      tool: 'forge_ff_user_list_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        search: { type: 'string', description: 'Only lists whose name contains this text.' },
        ...P.paging,
      },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/feature_flags_user_lists' } },
      example: { project_id: '1' },
    },
    {
      id: 'feature_flags.ff_user_list_update',
      title: 'Update feature flag user list',
      description: 'Rename a feature flag user list or replace the user IDs it contains.',
      tool: 'forge_ff_user_list_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        iid: listIid,
        name: { type: 'string', description: 'New name of the list.' },
        user_xids: { ...userXids, description: `${userXids.description} Replaces the current members.` },
      },
      required: ['project_id', 'iid'],
      request: { rest: { method: 'PUT', path: '/projects/:project_id/feature_flags_user_lists/:iid' } },
      example: { project_id: '1', iid: 1, user_xids: 'user1,user2,user4' },
    },
  ],
};
