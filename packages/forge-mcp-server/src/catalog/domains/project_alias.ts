import type { DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const aliasName: ParamSpec = {
  type: 'string',
  description: 'The alias, e.g. "widgets" (clone with git@host:widgets.git).',
};

export const domain: DomainSpec = {
  domain: 'project_alias',
  metaTool: 'forge_project_alias',
  summary:
    'Project aliases (administrators, self-managed): short names that let users clone a project with git@host:alias.git; list, read, create and delete them.',
  actions: [
    {
      id: 'project_alias.create',
      title: 'Create project alias',
      description:
        'Give a project a short alias so it can be cloned as git@host:<alias>.git. Administrators only.',
      tool: 'forge_create_project_alias',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      adminGroup: 'forge_project_alias',
      params: { project_id: P.projectId, name: aliasName },
      required: ['project_id', 'name'],
      request: { rest: { method: 'POST', path: '/project_aliases' } },
      example: { project_id: '1', name: 'widgets' },
    },
    {
      id: 'project_alias.delete',
      title: 'Delete project alias',
      description:
        'Remove a project alias; clones through it stop working (the project itself is untouched). Administrators only.',
      tool: 'forge_delete_project_alias',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      adminGroup: 'forge_project_alias',
      params: { name: aliasName },
      required: ['name'],
      request: { rest: { method: 'DELETE', path: '/project_aliases/:name' } },
      example: { name: 'widgets' },
    },
    {
      id: 'project_alias.get',
      title: 'Get project alias',
      description: 'Read one project alias: which project it points to. Administrators only.',
      tool: 'forge_get_project_alias',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      adminGroup: 'forge_project_alias',
      params: { name: aliasName },
      required: ['name'],
      request: { rest: { method: 'GET', path: '/project_aliases/:name' } },
      notFound: { object: 'Project alias', key: 'name', next: ['project_alias.list'] },
      example: { name: 'widgets' },
    },
    {
      id: 'project_alias.list',
      title: 'List project aliases',
      description:
        'List all project aliases of the instance with the project each points to. Administrators only.',
      tool: 'forge_list_project_aliases',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      adminGroup: 'forge_project_alias',
      params: { ...P.paging },
      request: { rest: { method: 'GET', path: '/project_aliases' } },
      example: {},
    },
  ],
};
