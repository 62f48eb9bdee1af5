import type { DomainSpec } from '../types.js';
import * as P from '../params.js';

export const domain: DomainSpec = {
  domain: 'discover_project',
  metaTool: 'forge_discover_project',
  summary: 'discover project actions.',
  actions: [
    {
      id: 'discover_project.resolve',
      title: 'Resolve discover project',
      description: 'Resolve discover project.',
      tool: 'forge_discover_project',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id' } },
      example: { project_id: '1' },
    },
  ],
};
