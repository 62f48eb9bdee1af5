import type { DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const tagName: ParamSpec = {
  type: 'string',
  minLength: 1,
  description: 'Tag name, e.g. "v1.0.0" (slashes are URL-encoded for you).',
};
const protectedName: ParamSpec = {
  type: 'string',
  minLength: 1,
  description: 'Protected tag name or wildcard pattern exactly as protected, e.g. "v1.0.0" or "v*".',
};
const ex = { project_id: '1' };

export const domain: DomainSpec = {
  domain: 'tag',
  metaTool: 'forge_tag',
  summary:
    'Repository tags: list, search, get, create and delete tags, read tag signatures, and protect or unprotect tags.',
  actions: [
    {
      id: 'tag.create',
      title: 'Create tag',
      description:
        'Create a tag at a branch, tag or commit; with a message it becomes an annotated tag. To publish release notes as well, create a release instead.',
      tool: 'forge_tag_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        tag_name: { ...tagName, description: 'Name of the new tag, e.g. "v1.1.0".' },
        ref: { ...P.ref, description: 'Branch name, tag or commit SHA to tag, e.g. "main".' },
        message: {
          type: 'string',
          description: 'Message of an annotated tag; leave out for a lightweight tag.',
        },
      },
      required: ['project_id', 'tag_name', 'ref'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/repository/tags' } },
      example: { ...ex, tag_name: 'v1.1.0', ref: 'main', message: 'Release 1.1.0' },
    },
    {
      id: 'tag.delete',
      title: 'Delete tag',
      description:
        'Delete a tag from the repository. Irreversible; protected tags cannot be deleted unless you may unprotect them.',
      tool: 'forge_tag_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, tag_name: tagName },
      required: ['project_id', 'tag_name'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/repository/tags/:tag_name' } },
      example: { ...ex, tag_name: 'v1.0.0' },
    },
    {
      id: 'tag.get',
      title: 'Get tag',
      description:
        'Get one tag: the commit it points to, its message, whether it is protected, and its release if any.',
      tool: 'forge_tag_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, tag_name: tagName },
      required: ['project_id', 'tag_name'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/tags/:tag_name' } },
      notFound: { object: 'Tag', key: 'tag_name', next: ['tag.list'] },
      example: { ...ex, tag_name: 'v1.0.0' },
    },
    {
      id: 'tag.get_protected',
      title: 'Get protected tag',
      description:
        'Get the protection of one protected tag or wildcard: which roles, users or groups may create it.',
      tool: 'forge_tag_get_protected',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, name: protectedName },
      required: ['project_id', 'name'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/protected_tags/:name' } },
      notFound: { object: 'Protected tag', key: 'name', next: ['tag.list_protected', 'tag.list'] },
      example: { ...ex, name: 'v*' },
    },
    {
      id: 'tag.get_signature',
      title: 'Get tag signature',
      description:
        'Get the GPG, SSH or X.509 signature of a signed tag and whether it verifies. Answers 404 for unsigned tags.',
      tool: 'forge_tag_get_signature',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, tag_name: tagName },
      required: ['project_id', 'tag_name'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/tags/:tag_name/signature' } },
      example: { ...ex, tag_name: 'v1.0.0' },
    },
    {
      id: 'tag.list',
      title: 'List tags',
      description:
        'List or search the tags of a repository, newest first by default, each with its commit and release.',
      tool: 'forge_tag_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        search: {
          type: 'string',
          description: 'Only tags whose name contains this text; "^text" matches the start, "text$" the end.',
        },
        order_by: {
          type: 'string',
          enum: ['name', 'updated', 'version'],
          description: 'Order by name, by last update, or by semantic version (default updated).',
        },
        sort: { type: 'string', enum: ['asc', 'desc'], description: 'Sort direction (default desc).' },
        ...P.paging,
      },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/tags' } },
      example: { ...ex, order_by: 'version' },
    },
    {
      id: 'tag.list_protected',
      title: 'List protected tags',
      description:
        'List the protected tags and wildcard rules of a project with who may create matching tags.',
      tool: 'forge_tag_list_protected',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, ...P.paging },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/protected_tags' } },
      example: ex,
    },
    {
      id: 'tag.protect',
      title: 'Protect tag',
      description:
        'Protect a tag or wildcard pattern so only the chosen roles (or, on Premium, users and groups) may create, update or delete matching tags.',
      tool: 'forge_tag_protect',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        name: { ...protectedName, description: 'Tag name or wildcard to protect, e.g. "v*".' },
        create_access_level: {
          type: 'integer',
          enum: [0, 30, 40, 60],
          description:
            'Who may create matching tags: 0 no one, 30 Developers and Maintainers, 40 Maintainers, 60 administrators (default 40).',
        },
        allowed_to_create: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              user_id: { type: 'integer', minimum: 1, description: 'A user allowed.' },
              group_id: { type: 'integer', minimum: 1, description: 'A group whose members are allowed.' },
              deploy_key_id: { type: 'integer', minimum: 1, description: 'A deploy key allowed.' },
              access_level: { type: 'integer', enum: [0, 30, 40, 60], description: 'A role level allowed.' },
            },
          },
          description: 'Fine-grained list of who may create matching tags, e.g. [{"user_id": 2}] (Premium).',
        },
      },
      required: ['project_id', 'name'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/protected_tags' } },
      example: { ...ex, name: 'v*', create_access_level: 40 },
    },
    {
      id: 'tag.unprotect',
      title: 'Unprotect tag',
      description:
        'Remove the protection of a tag or wildcard rule, so anyone with Developer role can create, move or delete matching tags.',
      tool: 'forge_tag_unprotect',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, name: protectedName },
      required: ['project_id', 'name'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/protected_tags/:name' } },
      example: { ...ex, name: 'v*' },
    },
  ],
};
