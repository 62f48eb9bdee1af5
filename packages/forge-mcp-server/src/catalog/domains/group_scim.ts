import type { DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const uid: ParamSpec = {
  type: 'string',
  description:
    'External UID of the SCIM identity as the identity provider knows it (extern_uid from group_scim.list), e.g. "be20d8dcc028677c931e04f3871a9b58".',
};

export const domain: DomainSpec = {
  domain: 'group_scim',
  metaTool: 'forge_group_scim',
  summary:
    "SCIM identities of a top-level group's members (user provisioning from an identity provider such as Okta or Entra ID): list, read, relink and remove them.",
  actions: [
    {
      id: 'group_scim.delete',
      title: 'Delete SCIM identity',
      description:
        "Remove a user's SCIM identity from the group, unlinking the user from the identity provider's provisioning. Irreversible; the provider must re-provision the user to restore it.",
      tool: 'forge_delete_group_scim_identity',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: { group_id: P.groupId, uid },
      required: ['group_id', 'uid'],
      request: { rest: { method: 'DELETE', path: '/groups/:group_id/scim/:uid' } },
      example: { group_id: '10', uid: 'be20d8dcc028677c931e04f3871a9b58' },
    },
    {
      id: 'group_scim.get',
      title: 'Get SCIM identity',
      description:
        'Read one SCIM identity of the group by its external UID: the linked user and whether it is active.',
      tool: 'forge_get_group_scim_identity',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_id: P.groupId, uid },
      required: ['group_id', 'uid'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/scim/:uid' } },
      example: { group_id: '10', uid: 'be20d8dcc028677c931e04f3871a9b58' },
    },
    {
      id: 'group_scim.list',
      title: 'List SCIM identities',
      description:
        'List the SCIM identities of a top-level group: each external UID with the user ID it is linked to and whether it is active.',
      tool: 'forge_list_group_scim_identities',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_id: P.groupId, ...P.paging },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/scim/identities' } },
      example: { group_id: '10' },
    },
    {
      id: 'group_scim.update',
      title: 'Change SCIM identity UID',
      description:
        "Change the external UID a user's SCIM identity is linked to, e.g. after the user was recreated in the identity provider.",
      tool: 'forge_update_group_scim_identity',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: {
        group_id: P.groupId,
        uid,
        extern_uid: { type: 'string', description: 'The new external UID from the identity provider.' },
      },
      required: ['group_id', 'uid', 'extern_uid'],
      request: { rest: { method: 'PATCH', path: '/groups/:group_id/scim/:uid' } },
      example: {
        group_id: '10',
        uid: 'be20d8dcc028677c931e04f3871a9b58',
        extern_uid: 'yrnZW46BrtBFqM7xDzE7dddd',
      },
    },
  ],
};
