import type { DomainSpec } from '../types.js';
import * as P from '../params.js';

export const domain: DomainSpec = {
  domain: 'security_attribute',
  metaTool: 'forge_security_attribute',
  summary: 'security attribute actions.',
  actions: [
    {
      id: 'security_attribute.bulk_update',
      title: 'Bulk security attribute update',
      description: 'Bulk security attribute update.',
      tool: 'forge_security_attribute_bulk_update',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {},
      request: {
        graphql: { document: 'TODO mutation bulkUpdateSecurityAttributes (bulkUpdateSecurityAttributes)' },
      },
      example: {},
    },
    {
      id: 'security_attribute.create',
      title: 'Create security attribute',
      description: 'Create security attribute.',
      tool: 'forge_security_attribute_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {},
      request: {
        graphql: {
          document:
            'TODO mutation securityAttributeCreate (securityAttributeCreate.securityAttributes.securityCategory)',
        },
      },
      example: {},
    },
    {
      id: 'security_attribute.delete',
      title: 'Delete security attribute',
      description: 'Delete security attribute.',
      tool: 'forge_security_attribute_delete',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {},
      request: { graphql: { document: 'TODO mutation securityAttributeDestroy (securityAttributeDestroy)' } },
      example: {},
    },
    {
      id: 'security_attribute.project_update',
      title: 'Project security attribute update',
      description: 'Project security attribute update.',
      tool: 'forge_security_attribute_project_update',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {},
      request: {
        graphql: {
          document: 'TODO mutation securityAttributeProjectUpdate (securityAttributeProjectUpdate)',
        },
      },
      example: {},
    },
    {
      id: 'security_attribute.update',
      title: 'Update security attribute',
      description: 'Update security attribute.',
      tool: 'forge_security_attribute_update',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {},
      request: {
        graphql: {
          document:
            'TODO mutation securityAttributeUpdate (securityAttributeUpdate.securityAttribute.securityCategory)',
        },
      },
      example: {},
    },
  ],
};
