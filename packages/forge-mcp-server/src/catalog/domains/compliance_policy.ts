import type { DomainSpec } from '../types.js';

export const domain: DomainSpec = {
  domain: 'compliance_policy',
  metaTool: 'forge_compliance_policy',
  summary:
    'Instance-wide security policy settings (administrators): which top-level group centrally manages the security policies enforced on every project.',
  actions: [
    {
      id: 'compliance_policy.get',
      title: 'Get security policy settings',
      description:
        'Read the instance security policy settings: the ID of the group designated to manage security and compliance policies centrally (null when none). Administrators only.',
      tool: 'forge_get_compliance_policy_settings',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'read_api',
      params: {},
      request: { rest: { method: 'GET', path: '/admin/security/compliance_policy_settings' } },
      example: {},
    },
    {
      id: 'compliance_policy.update',
      title: 'Set central security policy group',
      description:
        'Designate the top-level group whose security policies apply centrally across the instance, or clear it with null. Administrators only; changes which policies every project enforces.',
      tool: 'forge_update_compliance_policy_settings',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'api',
      params: {
        csp_namespace_id: {
          type: ['integer', 'null'],
          minimum: 1,
          description:
            'Numeric ID of a top-level group to manage policies centrally, e.g. 10; null clears the setting.',
        },
      },
      required: ['csp_namespace_id'],
      request: { rest: { method: 'PUT', path: '/admin/security/compliance_policy_settings' } },
      example: { csp_namespace_id: 10 },
    },
  ],
};
