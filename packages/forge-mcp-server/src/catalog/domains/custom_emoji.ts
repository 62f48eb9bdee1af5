import type { DomainSpec } from '../types.js';
import * as P from '../params.js';
import { globalIdParam } from '../patterns.js';

export const domain: DomainSpec = {
  domain: 'custom_emoji',
  metaTool: 'forge_custom_emoji',
  summary:
    'Custom emoji of a top-level group: list them, add one from an image URL, or delete one; members use them in comments, descriptions and reactions.',
  actions: [
    {
      id: 'custom_emoji.create',
      title: 'Add custom emoji',
      description:
        'Add a custom emoji to a top-level group from an image URL; members of the group and its projects can then use it as :name:.',
      tool: 'forge_create_custom_emoji',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        group_path: { type: 'string', description: 'Full path of the top-level group, e.g. "acme".' },
        name: {
          type: 'string',
          pattern: '^[a-z0-9_+-]+$',
          description:
            'Emoji name used as :name:, lowercase letters, digits, "_", "-" or "+", e.g. "party-parrot".',
        },
        url: {
          type: 'string',
          description: 'Public URL of the image (PNG or GIF, small), e.g. "https://example.com/parrot.gif".',
        },
      },
      required: ['group_path', 'name', 'url'],
      request: {
        graphql: {
          document: `mutation mutationCreateCustomEmoji($groupPath: ID!, $name: String!, $url: String!) {
  createCustomEmoji(input: { groupPath: $groupPath, name: $name, url: $url }) {
    customEmoji { id name url external createdAt }
    errors
  }
}`,
          variables: { groupPath: 'group_path', name: 'name', url: 'url' },
          resultPath: 'createCustomEmoji.customEmoji',
          mutation: 'createCustomEmoji',
        },
      },
      example: { group_path: 'acme', name: 'party-parrot', url: 'https://example.com/parrot.gif' },
    },
    {
      id: 'custom_emoji.delete',
      title: 'Delete custom emoji',
      description:
        'Delete a custom emoji from its group; places that used it show the plain :name: text afterwards. Irreversible.',
      tool: 'forge_delete_custom_emoji',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        id: {
          ...globalIdParam('customEmoji'),
          gid: 'CustomEmoji',
          description:
            'Global ID of the custom emoji, e.g. "gid://gitlab/CustomEmoji/7" or just "7" (from custom_emoji.list).',
        },
      },
      required: ['id'],
      request: {
        graphql: {
          document: `mutation mutationDeleteCustomEmoji($id: CustomEmojiID!) {
  destroyCustomEmoji(input: { id: $id }) {
    customEmoji { id name }
    errors
  }
}`,
          variables: { id: 'id' },
          resultPath: 'destroyCustomEmoji.customEmoji',
          mutation: 'destroyCustomEmoji',
        },
      },
      example: { id: 'gid://gitlab/CustomEmoji/1' },
    },
    {
      id: 'custom_emoji.list',
      title: 'List custom emoji',
      description: 'List the custom emoji available in a group, with their global IDs and image URLs.',
      tool: 'forge_list_custom_emoji',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        group_path: { type: 'string', description: 'Full path of the group, e.g. "acme".' },
        include_ancestor_groups: {
          type: 'boolean',
          description:
            'For a subgroup: also list the emoji of its top-level group (where custom emoji live).',
        },
        ...P.gqlPaging,
      },
      required: ['group_path'],
      request: {
        graphql: {
          document: `query queryListCustomEmoji($groupPath: ID!, $includeAncestorGroups: Boolean, $first: Int, $after: String) {
  group(fullPath: $groupPath) {
    customEmoji(includeAncestorGroups: $includeAncestorGroups, first: $first, after: $after) {
      pageInfo { hasNextPage endCursor }
      nodes { id name url external createdAt }
    }
  }
}`,
          variables: {
            groupPath: 'group_path',
            includeAncestorGroups: 'include_ancestor_groups',
            first: 'first',
            after: 'after',
          },
          resultPath: 'group.customEmoji',
        },
      },
      example: { group_path: 'acme' },
    },
  ],
};
