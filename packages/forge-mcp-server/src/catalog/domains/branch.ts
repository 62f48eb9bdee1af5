import type { DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const branchName: ParamSpec = {
  type: 'string',
  minLength: 1,
  description: 'Branch name, e.g. "main" or "feature/login" (slashes are URL-encoded for you).',
};
const protectedName: ParamSpec = {
  type: 'string',
  minLength: 1,
  description: 'Protected branch name or wildcard pattern exactly as protected, e.g. "main" or "release/*".',
};
const accessLevel = (what: string, dflt: string): ParamSpec => ({
  type: 'integer',
  enum: [0, 30, 40, 60],
  description: `Who may ${what}: 0 no one, 30 Developers and Maintainers, 40 Maintainers, 60 administrators (default ${dflt}).`,
});
/** Unprotecting has no "no one" level: the instance refuses 0 so a rule can always be removed. */
const unprotectLevels = [30, 40, 60];
/**
 * A list of access rules. Only push rules take a deploy key (the instance declares deploy_key_id for
 * allowed_to_push alone); each entry is closed, so a key the instance does not read is refused here.
 */
const grantList = (what: 'push' | 'merge' | 'unprotect', levels: number[] = [0, 30, 40, 60]): ParamSpec => {
  const deployKey = what === 'push';
  return {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        user_id: { type: 'integer', minimum: 1, description: 'A user allowed.' },
        group_id: { type: 'integer', minimum: 1, description: 'A group whose members are allowed.' },
        ...(deployKey
          ? { deploy_key_id: { type: 'integer', minimum: 1, description: 'A deploy key allowed.' } }
          : {}),
        access_level: { type: 'integer', enum: levels, description: 'A role level allowed.' },
        id: {
          type: 'integer',
          minimum: 1,
          description: 'When updating: ID of an existing entry to change or remove.',
        },
        _destroy: { type: 'boolean', description: 'When updating: true removes the entry named by id.' },
      },
      additionalProperties: false,
    },
    description: `Fine-grained list of who may ${what}, each entry one of user_id, group_id${deployKey ? ', deploy_key_id' : ''} or access_level, e.g. [{"user_id": 2}] (Premium).`,
  };
};
const ex = { project_id: '1' };

export const domain: DomainSpec = {
  domain: 'branch',
  metaTool: 'forge_branch',
  summary:
    'Repository branches: list, search, get, create and delete branches, clean up merged ones, and protect or unprotect branches and read branch rules.',
  actions: [
    {
      id: 'branch.create',
      title: 'Create branch',
      description: 'Create a new branch from an existing branch, tag or commit SHA.',
      tool: 'forge_branch_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        branch: { ...branchName, description: 'Name of the new branch, e.g. "feature/login".' },
        ref: {
          ...P.ref,
          minLength: 1,
          description: 'Branch name, tag or commit SHA to start the branch from, e.g. "main".',
        },
      },
      required: ['project_id', 'branch', 'ref'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/repository/branches' } },
      example: { ...ex, branch: 'feature/signup', ref: 'main' },
    },
    {
      id: 'branch.delete',
      title: 'Delete branch',
      description:
        'Delete a branch from the repository. Irreversible: commits reachable only from it may be lost. Protected and default branches cannot be deleted.',
      tool: 'forge_branch_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, branch: branchName },
      required: ['project_id', 'branch'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/repository/branches/:branch' } },
      example: { ...ex, branch: 'feature/login' },
    },
    {
      id: 'branch.delete_merged',
      title: 'Delete merged branches',
      description:
        'Delete every branch already merged into the default branch (protected branches are kept). Irreversible; runs in the background.',
      tool: 'forge_branch_delete_merged',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId },
      required: ['project_id'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/repository/merged_branches' } },
      example: ex,
    },
    {
      id: 'branch.get',
      title: 'Get branch',
      description:
        'Get one branch: its latest commit, and whether it is protected, merged or the default branch.',
      tool: 'forge_branch_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, branch: branchName },
      required: ['project_id', 'branch'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/branches/:branch' } },
      notFound: { object: 'Branch', key: 'branch', next: ['branch.list'] },
      example: { ...ex, branch: 'main' },
    },
    {
      id: 'branch.get_protected',
      title: 'Get protected branch',
      description:
        'Get the protection settings of one protected branch or wildcard: who may push, merge and unprotect, and force-push rules.',
      tool: 'forge_protected_branch_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, name: protectedName },
      required: ['project_id', 'name'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/protected_branches/:name' } },
      notFound: { object: 'Protected branch', key: 'name', next: ['branch.list_protected', 'branch.list'] },
      example: { ...ex, name: 'main' },
    },
    {
      id: 'branch.list',
      title: 'List branches',
      description:
        'List or search the branches of a repository, each with its latest commit and protection flags.',
      tool: 'forge_branch_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        search: {
          type: 'string',
          description:
            'Only branches whose name contains this text; "^text" matches the start, "text$" the end.',
        },
        regex: {
          type: 'string',
          description: 'Only branches whose name matches this RE2 regular expression, e.g. "^release/".',
        },
        sort: {
          type: 'string',
          enum: ['name_asc', 'updated_asc', 'updated_desc'],
          description:
            'Order by name (the default) or by the date of the last commit, oldest or newest first.',
        },
        ...P.paging,
      },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/branches' } },
      example: { ...ex, search: 'feature' },
    },
    {
      id: 'branch.list_protected',
      title: 'List protected branches',
      description:
        'List the protected branches and wildcard rules of a project with their push, merge and unprotect access levels.',
      tool: 'forge_protected_branches_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        search: { type: 'string', description: 'Only protected branches whose name contains this text.' },
        ...P.paging,
      },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/protected_branches' } },
      example: ex,
    },
    {
      id: 'branch.protect',
      title: 'Protect branch',
      description:
        'Protect a branch or wildcard pattern: choose who may push, merge and unprotect, and whether force-push is allowed. By default only Maintainers may push and merge.',
      tool: 'forge_branch_protect',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        name: {
          ...protectedName,
          description: 'Branch name or wildcard to protect, e.g. "main" or "release/*".',
        },
        push_access_level: accessLevel('push', '40'),
        merge_access_level: accessLevel('merge', '40'),
        unprotect_access_level: {
          type: 'integer',
          enum: unprotectLevels,
          description:
            'Who may unprotect (Premium): 30 Developers and Maintainers, 40 Maintainers, 60 administrators (default 40). There is no "no one" level for unprotecting.',
        },
        allow_force_push: {
          type: 'boolean',
          description: 'Allow force-push for those who may push (default false).',
        },
        allowed_to_push: grantList('push'),
        allowed_to_merge: grantList('merge'),
        allowed_to_unprotect: grantList('unprotect', unprotectLevels),
        code_owner_approval_required: {
          type: 'boolean',
          description:
            'Refuse pushes that change files with code owners unless approved (Premium; default false).',
        },
      },
      required: ['project_id', 'name'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/protected_branches' } },
      example: { ...ex, name: 'release/*', push_access_level: 40, merge_access_level: 30 },
    },
    {
      id: 'branch.rule_list',
      title: 'List branch rules',
      description:
        'List the branch rules of a project through GraphQL: each protected branch or pattern with matching branch count and push, merge and force-push settings.',
      tool: 'forge_list_branch_rules',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        full_path: { type: 'string', description: 'Full path of the project, e.g. "acme/widgets".' },
        first: {
          type: 'integer',
          minimum: 1,
          maximum: 100,
          description: 'How many rules to return (at most 100).',
        },
        after: { type: 'string', description: 'Cursor from pageInfo.endCursor of the previous page.' },
      },
      required: ['full_path'],
      request: {
        graphql: {
          document: `query queryListBranchRulesCE($fullPath: ID!, $first: Int, $after: String) {
  project(fullPath: $fullPath) {
    branchRules(first: $first, after: $after) {
      pageInfo { hasNextPage endCursor }
      nodes {
        id
        name
        isDefault
        isProtected
        matchingBranchesCount
        createdAt
        updatedAt
        branchProtection {
          allowForcePush
          mergeAccessLevels { nodes { accessLevel accessLevelDescription } }
          pushAccessLevels { nodes { accessLevel accessLevelDescription } }
        }
      }
    }
  }
}`,
          variables: { fullPath: 'full_path', first: 'first', after: 'after' },
          resultPath: 'project.branchRules',
        },
      },
      example: { full_path: 'acme/widgets' },
    },
    {
      id: 'branch.unprotect',
      title: 'Unprotect branch',
      description:
        'Remove the protection of a branch or wildcard rule, so anyone with Developer role can push, force-push or delete it.',
      tool: 'forge_branch_unprotect',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, name: protectedName },
      required: ['project_id', 'name'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/protected_branches/:name' } },
      example: { ...ex, name: 'main' },
    },
    {
      id: 'branch.update_protected',
      title: 'Update protected branch',
      description:
        'Change the protection of an already protected branch: force-push, code owner approval, and (Premium) the users, groups and deploy keys allowed to push, merge or unprotect.',
      tool: 'forge_protected_branch_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        name: protectedName,
        allow_force_push: { type: 'boolean', description: 'Allow force-push for those who may push.' },
        allowed_to_push: grantList('push'),
        allowed_to_merge: grantList('merge'),
        allowed_to_unprotect: grantList('unprotect', unprotectLevels),
        code_owner_approval_required: {
          type: 'boolean',
          description: 'Refuse pushes that change files with code owners unless approved (Premium).',
        },
      },
      required: ['project_id', 'name'],
      request: { rest: { method: 'PATCH', path: '/projects/:project_id/protected_branches/:name' } },
      example: { ...ex, name: 'main', allow_force_push: false },
    },
  ],
};
