import type { DomainSpec } from '../types.js';
import * as P from '../params.js';

const userId = { ...P.userId, description: 'Numeric ID of the enterprise user.' };

export const domain: DomainSpec = {
  domain: 'enterprise_user',
  metaTool: 'forge_enterprise_user',
  summary:
    "Enterprise users of a top-level group (accounts owned through the group's verified domain): list and read them, turn off their two-factor authentication, or delete them.",
  actions: [
    {
      id: 'enterprise_user.delete',
      title: 'Delete enterprise user',
      description:
        'Delete an enterprise user account of the group. Their contributions move to a ghost user unless hard_delete, which also removes them and the groups they alone own; without hard_delete the sole owner of a group is refused (409 Conflict). Irreversible.',
      tool: 'forge_delete_enterprise_user',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      adminGroup: 'forge_enterprise_user',
      params: {
        group_id: P.groupId,
        user_id: userId,
        hard_delete: {
          type: 'boolean',
          description:
            'true to also delete their contributions (instead of moving them to a ghost user) and the groups they alone own.',
        },
      },
      required: ['group_id', 'user_id'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/enterprise_users/:user_id' } },
      example: { group_id: '10', user_id: 2 },
    },
    {
      id: 'enterprise_user.disable_2fa',
      title: 'Disable 2FA of enterprise user',
      description:
        'Turn off two-factor authentication for an enterprise user (e.g. a lost device); their registered authenticators are removed and cannot be restored, they must enroll again.',
      tool: 'forge_disable_2fa_enterprise_user',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      adminGroup: 'forge_enterprise_user',
      params: { group_id: P.groupId, user_id: userId },
      required: ['group_id', 'user_id'],
      request: {
        rest: { method: 'PATCH', path: '/groups/:group_id/enterprise_users/:user_id/disable_two_factor' },
      },
      example: { group_id: '10', user_id: 2 },
    },
    {
      id: 'enterprise_user.get',
      title: 'Get enterprise user',
      description:
        'Read one enterprise user of the group: username, email, state, 2FA status, identities and sign-in dates.',
      tool: 'forge_get_enterprise_user',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      adminGroup: 'forge_enterprise_user',
      params: { group_id: P.groupId, user_id: userId },
      required: ['group_id', 'user_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/enterprise_users/:user_id' } },
      notFound: { object: 'Enterprise user', key: 'user_id', next: ['enterprise_user.list'] },
      example: { group_id: '10', user_id: 2 },
    },
    {
      id: 'enterprise_user.list',
      title: 'List enterprise users',
      description:
        'List the enterprise users of a top-level group, filtered by name or email, state, creation date or two-factor status.',
      tool: 'forge_list_enterprise_users',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      adminGroup: 'forge_enterprise_user',
      params: {
        group_id: P.groupId,
        username: { type: 'string', description: 'Exact username to find.' },
        search: { type: 'string', description: 'Text to find in name, username or email.' },
        active: { type: 'boolean', description: 'true: only active users.' },
        blocked: { type: 'boolean', description: 'true: only blocked users.' },
        created_after: {
          type: 'string',
          format: 'date-time',
          description: 'Only users created after this time (ISO 8601).',
        },
        created_before: {
          type: 'string',
          format: 'date-time',
          description: 'Only users created before this time (ISO 8601).',
        },
        two_factor: {
          type: 'string',
          enum: ['enabled', 'disabled'],
          description: 'Only users with two-factor authentication on (enabled) or off (disabled).',
        },
        ...P.paging,
      },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/enterprise_users' } },
      example: { group_id: '10', two_factor: 'disabled' },
    },
  ],
};
