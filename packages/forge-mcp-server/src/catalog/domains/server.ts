import type { DomainSpec } from '../types.js';
import * as P from '../params.js';

export const domain: DomainSpec = {
  domain: 'server',
  metaTool: 'forge_server',
  summary: 'server actions.',
  actions: [
    {
      id: 'server.health_check',
      title: 'Health server check',
      description: 'Health server check.',
      tool: 'forge_server_health_check',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {},
      request: { rest: { method: 'GET', path: '/metadata' } },
      example: {},
    },
    {
      id: 'server.status',
      title: 'Status server',
      description: 'Status server.',
      tool: 'forge_server_status',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {},
      request: { rest: { method: 'GET', path: '/metadata' } },
      example: {},
    },
  ],
};
