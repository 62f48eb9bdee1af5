import type { DomainSpec } from '../types.js';
import * as P from '../params.js';

export const domain: DomainSpec = {
  domain: 'security_finding',
  metaTool: 'forge_security_finding',
  summary: 'security finding actions.',
  actions: [
    {
      id: 'security_finding.list',
      title: 'List security finding',
      description: 'List security finding.',
      tool: 'forge_list_security_findings',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { ...P.paging },
      request: { graphql: { document: 'TODO query project (project.pipeline.securityReportFindings)' } },
      example: {},
    },
  ],
};
