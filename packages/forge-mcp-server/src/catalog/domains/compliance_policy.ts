import type { DomainSpec } from '../types.js';
import * as P from '../params.js';

export const domain: DomainSpec = {
  domain: 'compliance_policy',
  metaTool: 'forge_compliance_policy',
  summary: 'compliance policy actions.',
  actions: [
    {
      id: 'compliance_policy.get',
      title: 'Get compliance policy',
      description: 'Get compliance policy.',
      tool: 'forge_get_compliance_policy_settings',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {},
      request: { rest: { method: 'GET', path: '/admin/security/compliance_policy_settings' } },
      example: {},
    },
    {
      id: 'compliance_policy.update',
      title: 'Update compliance policy',
      description: 'Update compliance policy.',
      tool: 'forge_update_compliance_policy_settings',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: {},
      request: { rest: { method: 'PUT', path: '/admin/security/compliance_policy_settings' } },
      example: {},
    },
  ],
};
