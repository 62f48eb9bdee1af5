import type { DomainSpec } from '../types.js';
import * as P from '../params.js';

export const domain: DomainSpec = {
  domain: 'ci_catalog',
  metaTool: 'forge_ci_catalog',
  summary: 'ci catalog actions.',
  actions: [
    {
      id: 'ci_catalog.get',
      title: 'Get ci catalog',
      description: 'Get ci catalog.',
      tool: 'forge_get_catalog_resource',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {},
      request: { graphql: { document: 'TODO query ciCatalogResource (queryGetResource)' } },
      example: {},
    },
    {
      id: 'ci_catalog.list',
      title: 'List ci catalog',
      description: 'List ci catalog.',
      tool: 'forge_list_catalog_resources',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { ...P.paging },
      request: { graphql: { document: 'TODO query ciCatalogResources (queryListResources)' } },
      example: {},
    },
  ],
};
