import type { DomainSpec } from '../types.js';
import * as P from '../params.js';

export const domain: DomainSpec = {
  domain: 'security_category',
  metaTool: 'forge_security_category',
  summary: 'security category actions.',
  actions: [
    {
      id: 'security_category.create',
      title: 'Create security category',
      description: 'Create security category.',
      tool: 'forge_security_category_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {},
      request: {
        graphql: {
          document:
            'TODO mutation securityCategoryCreate (securityCategoryCreate.securityCategory.securityAttributes)',
        },
      },
      example: {},
    },
    {
      id: 'security_category.delete',
      title: 'Delete security category',
      description: 'Delete security category.',
      tool: 'forge_security_category_delete',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {},
      request: { graphql: { document: 'TODO mutation securityCategoryDestroy (securityCategoryDestroy)' } },
      example: {},
    },
    {
      id: 'security_category.update',
      title: 'Update security category',
      description: 'Update security category.',
      tool: 'forge_security_category_update',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {},
      request: {
        graphql: {
          document:
            'TODO mutation securityCategoryUpdate (securityCategoryUpdate.securityCategory.securityAttributes)',
        },
      },
      example: {},
    },
  ],
};
