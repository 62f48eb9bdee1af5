import type { DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';
import { globalIdParam } from '../patterns.js';

const namespacePath: ParamSpec = {
  type: 'string',
  description: 'Full path of the group (or project namespace) that owns the achievements, e.g. "acme".',
};
const achievementId: ParamSpec = {
  ...globalIdParam('achievement'),
  gid: 'Achievements::Achievement',
  description:
    'Global ID of the achievement, e.g. "gid://gitlab/Achievements::Achievement/1" or just "1" (from achievement.list).',
};
const userAchievementId: ParamSpec = {
  ...globalIdParam('userAchievement'),
  gid: 'Achievements::UserAchievement',
  description:
    'Global ID of one award of an achievement to a user, e.g. "gid://gitlab/Achievements::UserAchievement/5" or just "5" (from achievement.recipients or achievement.user_list).',
};

const ACHIEVEMENT = 'id name description avatarUrl createdAt updatedAt namespace { id fullPath }';
const USER_ACHIEVEMENT = `id
      achievement { id name }
      user { id username name }
      awardedByUser { id username }
      revokedByUser { id username }
      showOnProfile
      priority
      createdAt
      updatedAt
      revokedAt`;

export const domain: DomainSpec = {
  domain: 'achievement',
  metaTool: 'forge_achievement',
  summary:
    'Achievements (badges) of a group: define, edit and delete them, award or revoke them for users, list recipients, and manage how a user shows them on the profile.',
  actions: [
    {
      id: 'achievement.award',
      title: 'Award achievement to user',
      description:
        'Give an achievement (badge) of a group to a user; the award appears on their profile. Undo with achievement.revoke.',
      tool: 'forge_achievement_award',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        achievement_id: achievementId,
        user_id: {
          ...globalIdParam('user'),
          gid: 'User',
          description: 'Global ID of the user receiving the award, e.g. "gid://gitlab/User/2" or just "2".',
        },
      },
      required: ['achievement_id', 'user_id'],
      request: {
        graphql: {
          document: `mutation AwardAchievement($achievementId: AchievementsAchievementID!, $userId: UserID!) {
  achievementsAward(input: { achievementId: $achievementId, userId: $userId }) {
    userAchievement {
      ${USER_ACHIEVEMENT}
    }
    errors
  }
}`,
          variables: { achievementId: 'achievement_id', userId: 'user_id' },
          resultPath: 'achievementsAward.userAchievement',
          mutation: 'achievementsAward',
        },
      },
      example: { achievement_id: 'gid://gitlab/Achievements::Achievement/1', user_id: 'gid://gitlab/User/2' },
    },
    {
      id: 'achievement.create',
      title: 'Create achievement',
      description:
        'Define a new achievement (badge) in a group with a name and optional description; award it to users afterwards with achievement.award.',
      tool: 'forge_achievement_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        namespace_id: {
          ...globalIdParam('namespace'),
          gid: 'Group',
          description:
            'Global ID of the group that owns the achievement, e.g. "gid://gitlab/Group/10" or just "10".',
        },
        name: { type: 'string', description: 'Name of the achievement, e.g. "Bug hunter".' },
        description: {
          type: 'string',
          description: 'What the achievement recognizes, shown with the badge.',
        },
      },
      required: ['namespace_id', 'name'],
      request: {
        graphql: {
          document: `mutation CreateAchievement($namespaceId: NamespaceID!, $name: String!, $description: String) {
  achievementsCreate(input: { namespaceId: $namespaceId, name: $name, description: $description }) {
    achievement { ${ACHIEVEMENT} }
    errors
  }
}`,
          variables: { namespaceId: 'namespace_id', name: 'name', description: 'description' },
          resultPath: 'achievementsCreate.achievement',
          mutation: 'achievementsCreate',
        },
      },
      example: { namespace_id: 'gid://gitlab/Group/10', name: 'Bug hunter', description: 'Closed 10 bugs' },
    },
    {
      id: 'achievement.delete',
      title: 'Delete achievement',
      description:
        'Delete an achievement definition together with every award of it. Irreversible; to take one award away use achievement.revoke instead.',
      tool: 'forge_achievement_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { achievement_id: achievementId },
      required: ['achievement_id'],
      request: {
        graphql: {
          document: `mutation DeleteAchievement($achievementId: AchievementsAchievementID!) {
  achievementsDelete(input: { achievementId: $achievementId }) {
    achievement { id name }
    errors
  }
}`,
          variables: { achievementId: 'achievement_id' },
          resultPath: 'achievementsDelete.achievement',
          mutation: 'achievementsDelete',
        },
      },
      example: { achievement_id: 'gid://gitlab/Achievements::Achievement/1' },
    },
    {
      id: 'achievement.list',
      title: 'List achievements of a group',
      description:
        'List the achievements (badges) defined in a group, with their global IDs needed by the other achievement actions.',
      tool: 'forge_achievement_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        full_path: namespacePath,
        ids: {
          type: 'array',
          items: globalIdParam('achievement'),
          gid: 'Achievements::Achievement',
          description: 'Only these achievements (global IDs).',
        },
        ...P.gqlPaging,
      },
      required: ['full_path'],
      request: {
        graphql: {
          document: `query listAchievementsQuery($fullPath: ID!, $ids: [AchievementsAchievementID!], $first: Int, $after: String) {
  namespace(fullPath: $fullPath) {
    achievements(ids: $ids, first: $first, after: $after) {
      pageInfo { hasNextPage endCursor }
      nodes { ${ACHIEVEMENT} }
    }
  }
}`,
          variables: { fullPath: 'full_path', ids: 'ids', first: 'first', after: 'after' },
          resultPath: 'namespace.achievements',
        },
      },
      example: { full_path: 'acme' },
    },
    {
      id: 'achievement.recipients',
      title: 'List achievement awards',
      description:
        'List every award of one achievement: who received it, who awarded it, when, and whether it was revoked. For distinct users only, use achievement.unique_users.',
      tool: 'forge_achievement_recipients',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { full_path: namespacePath, achievement_id: achievementId, ...P.gqlPaging },
      required: ['full_path', 'achievement_id'],
      request: {
        graphql: {
          document: `query listAchievementRecipientsQuery($fullPath: ID!, $achievementId: AchievementsAchievementID!, $first: Int, $after: String) {
  namespace(fullPath: $fullPath) {
    achievements(ids: [$achievementId]) {
      nodes {
        id
        name
        userAchievements(first: $first, after: $after) {
          pageInfo { hasNextPage endCursor }
          nodes {
            ${USER_ACHIEVEMENT}
          }
        }
      }
    }
  }
}`,
          variables: {
            fullPath: 'full_path',
            achievementId: 'achievement_id',
            first: 'first',
            after: 'after',
          },
          resultPath: 'namespace.achievements.nodes.userAchievements',
        },
      },
      example: { full_path: 'acme', achievement_id: 'gid://gitlab/Achievements::Achievement/1' },
    },
    {
      id: 'achievement.revoke',
      title: 'Revoke achievement award',
      description:
        'Take back one award of an achievement from a user; the award stays on record as revoked. To erase the award entirely use achievement.user_achievement_delete.',
      tool: 'forge_achievement_revoke',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { user_achievement_id: userAchievementId },
      required: ['user_achievement_id'],
      request: {
        graphql: {
          document: `mutation RevokeAchievement($userAchievementId: AchievementsUserAchievementID!) {
  achievementsRevoke(input: { userAchievementId: $userAchievementId }) {
    userAchievement {
      ${USER_ACHIEVEMENT}
    }
    errors
  }
}`,
          variables: { userAchievementId: 'user_achievement_id' },
          resultPath: 'achievementsRevoke.userAchievement',
          mutation: 'achievementsRevoke',
        },
      },
      example: { user_achievement_id: 'gid://gitlab/Achievements::UserAchievement/1' },
    },
    {
      id: 'achievement.unique_users',
      title: 'List users holding an achievement',
      description:
        'List the distinct users who received one achievement, each user once however many times it was awarded to them.',
      tool: 'forge_achievement_unique_users',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { full_path: namespacePath, achievement_id: achievementId, ...P.gqlPaging },
      required: ['full_path', 'achievement_id'],
      request: {
        graphql: {
          document: `query listAchievementUniqueUsersQuery($fullPath: ID!, $achievementId: AchievementsAchievementID!, $first: Int, $after: String) {
  namespace(fullPath: $fullPath) {
    achievements(ids: [$achievementId]) {
      nodes {
        id
        name
        uniqueUsers(first: $first, after: $after) {
          pageInfo { hasNextPage endCursor }
          nodes { id username name avatarUrl webUrl }
        }
      }
    }
  }
}`,
          variables: {
            fullPath: 'full_path',
            achievementId: 'achievement_id',
            first: 'first',
            after: 'after',
          },
          resultPath: 'namespace.achievements.nodes.uniqueUsers',
        },
      },
      example: { full_path: 'acme', achievement_id: 'gid://gitlab/Achievements::Achievement/1' },
    },
    {
      id: 'achievement.update',
      title: 'Update achievement',
      description:
        'Rename an achievement or change its description; awards already given keep pointing at it.',
      tool: 'forge_achievement_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        achievement_id: achievementId,
        name: { type: 'string', description: 'New name of the achievement.' },
        description: { type: 'string', description: 'New description of the achievement.' },
      },
      required: ['achievement_id'],
      request: {
        graphql: {
          document: `mutation UpdateAchievement($achievementId: AchievementsAchievementID!, $name: String, $description: String) {
  achievementsUpdate(input: { achievementId: $achievementId, name: $name, description: $description }) {
    achievement { ${ACHIEVEMENT} }
    errors
  }
}`,
          variables: { achievementId: 'achievement_id', name: 'name', description: 'description' },
          resultPath: 'achievementsUpdate.achievement',
          mutation: 'achievementsUpdate',
        },
      },
      example: { achievement_id: 'gid://gitlab/Achievements::Achievement/1', name: 'Bug squasher' },
    },
    {
      id: 'achievement.user_achievement_delete',
      title: 'Delete achievement award',
      description:
        'Erase one award of an achievement from a user, leaving no record. Irreversible; achievement.revoke keeps the award on record instead.',
      tool: 'forge_achievement_user_achievement_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { user_achievement_id: userAchievementId },
      required: ['user_achievement_id'],
      request: {
        graphql: {
          document: `mutation DeleteUserAchievement($userAchievementId: AchievementsUserAchievementID!) {
  userAchievementsDelete(input: { userAchievementId: $userAchievementId }) {
    userAchievement { id achievement { id name } user { id username } }
    errors
  }
}`,
          variables: { userAchievementId: 'user_achievement_id' },
          resultPath: 'userAchievementsDelete.userAchievement',
          mutation: 'userAchievementsDelete',
        },
      },
      example: { user_achievement_id: 'gid://gitlab/Achievements::UserAchievement/1' },
    },
    {
      id: 'achievement.user_achievement_reorder',
      title: 'Reorder profile achievements',
      description:
        "Set the order in which the current user's achievements appear on their profile, highest priority first; awards left out drop below the listed ones.",
      tool: 'forge_achievement_user_achievement_reorder',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        user_achievement_ids: {
          type: 'array',
          minItems: 1,
          items: globalIdParam('userAchievement'),
          gid: 'Achievements::UserAchievement',
          description:
            'Global IDs of your own awards in the wanted order, first = shown first, e.g. ["gid://gitlab/Achievements::UserAchievement/3", "gid://gitlab/Achievements::UserAchievement/1"].',
        },
      },
      required: ['user_achievement_ids'],
      request: {
        graphql: {
          document: `mutation UpdateUserAchievementPriorities($userAchievementIds: [AchievementsUserAchievementID!]!) {
  userAchievementPrioritiesUpdate(input: { userAchievementIds: $userAchievementIds }) {
    userAchievements { id priority achievement { id name } }
    errors
  }
}`,
          variables: { userAchievementIds: 'user_achievement_ids' },
          resultPath: 'userAchievementPrioritiesUpdate.userAchievements',
          mutation: 'userAchievementPrioritiesUpdate',
        },
      },
      example: { user_achievement_ids: ['gid://gitlab/Achievements::UserAchievement/1'] },
    },
    {
      id: 'achievement.user_achievement_update',
      title: 'Show or hide an award on the profile',
      description:
        'Show or hide one award held by a user on their profile; the award itself is kept either way.',
      tool: 'forge_achievement_user_achievement_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        user_achievement_id: userAchievementId,
        show_on_profile: {
          type: 'boolean',
          description: 'true to show the award on the profile, false to hide it.',
        },
      },
      required: ['user_achievement_id', 'show_on_profile'],
      request: {
        graphql: {
          document: `mutation UpdateUserAchievement($userAchievementId: AchievementsUserAchievementID!, $showOnProfile: Boolean!) {
  userAchievementsUpdate(input: { userAchievementId: $userAchievementId, showOnProfile: $showOnProfile }) {
    userAchievement {
      ${USER_ACHIEVEMENT}
    }
    errors
  }
}`,
          variables: {
            userAchievementId: 'user_achievement_id',
            showOnProfile: 'show_on_profile',
          },
          resultPath: 'userAchievementsUpdate.userAchievement',
          mutation: 'userAchievementsUpdate',
        },
      },
      example: {
        user_achievement_id: 'gid://gitlab/Achievements::UserAchievement/1',
        show_on_profile: false,
      },
    },
    {
      id: 'achievement.user_list',
      title: "List a user's achievements",
      description:
        'List the achievements awarded to one user, in their profile order; hidden awards appear only with include_hidden and enough rights.',
      tool: 'forge_achievement_user_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        username: { type: 'string', description: 'Username of the user, without "@", e.g. "alice".' },
        include_hidden: {
          type: 'boolean',
          description:
            'Also list awards the user hid from the profile (yourself, or group maintainers/admins).',
        },
        ...P.gqlPaging,
      },
      required: ['username'],
      request: {
        graphql: {
          document: `query listUserAchievementsQuery($username: String!, $includeHidden: Boolean, $first: Int, $after: String) {
  user(username: $username) {
    userAchievements(includeHidden: $includeHidden, first: $first, after: $after) {
      pageInfo { hasNextPage endCursor }
      nodes {
        ${USER_ACHIEVEMENT}
      }
    }
  }
}`,
          variables: {
            username: 'username',
            includeHidden: 'include_hidden',
            first: 'first',
            after: 'after',
          },
          resultPath: 'user.userAchievements',
        },
      },
      example: { username: 'alice' },
    },
  ],
};
