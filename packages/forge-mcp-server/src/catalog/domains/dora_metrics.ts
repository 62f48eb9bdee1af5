import type { DomainSpec } from '../types.js';
import * as P from '../params.js';

export const domain: DomainSpec = {
  domain: 'dora_metrics',
  metaTool: 'forge_dora_metrics',
  summary: 'dora metrics actions.',
  actions: [
    {
      id: 'dora_metrics.group',
      title: 'Group dora metrics',
      description: 'Group dora metrics.',
      tool: 'forge_get_group_dora_metrics',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { group_id: P.groupId },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/dora/metrics' } },
      example: { group_id: '10' },
    },
    {
      id: 'dora_metrics.project',
      title: 'Project dora metrics',
      description: 'Project dora metrics.',
      tool: 'forge_get_project_dora_metrics',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { project_id: P.projectId },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/dora/metrics' } },
      example: { project_id: '1' },
    },
  ],
};
