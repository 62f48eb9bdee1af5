import type { DomainSpec } from '../types.js';
import * as P from '../params.js';

export const domain: DomainSpec = {
  domain: 'security_scan_profile',
  metaTool: 'forge_security_scan_profile',
  summary: 'security scan profile actions.',
  actions: [
    {
      id: 'security_scan_profile.attach',
      title: 'Attach security scan profile',
      description: 'Attach security scan profile.',
      tool: 'forge_security_scan_profile_attach',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {},
      request: {
        graphql: { document: 'TODO mutation securityScanProfileAttach (securityScanProfileAttach)' },
      },
      example: {},
    },
    {
      id: 'security_scan_profile.detach',
      title: 'Detach security scan profile',
      description: 'Detach security scan profile.',
      tool: 'forge_security_scan_profile_detach',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {},
      request: {
        graphql: { document: 'TODO mutation securityScanProfileDetach (securityScanProfileDetach)' },
      },
      example: {},
    },
    {
      id: 'security_scan_profile.list_project_statuses',
      title: 'List security scan profile project statuses',
      description: 'List security scan profile project statuses.',
      tool: 'forge_security_scan_profile_list_project_statuses',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.paging },
      request: { graphql: { document: 'TODO query project (project.scanProfileStatuses.scanProfile)' } },
      example: {},
    },
  ],
};
