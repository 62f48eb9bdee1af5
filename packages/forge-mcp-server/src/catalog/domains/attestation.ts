import type { DomainSpec } from '../types.js';
import * as P from '../params.js';

export const domain: DomainSpec = {
  domain: 'attestation',
  metaTool: 'forge_attestation',
  summary: 'attestation actions.',
  actions: [
    {
      id: 'attestation.download',
      title: 'Download attestation',
      description: 'Download attestation.',
      tool: 'forge_download_attestation',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        attestation_iid: { type: 'integer', description: 'attestation iid' },
      },
      required: ['project_id', 'attestation_iid'],
      request: {
        rest: { method: 'GET', path: '/projects/:project_id/attestations/:attestation_iid/download' },
      },
      example: { project_id: '1', attestation_iid: 1 },
    },
    {
      id: 'attestation.list',
      title: 'List attestation',
      description: 'List attestation.',
      tool: 'forge_list_attestations',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        subject_digest: { type: 'string', description: 'subject digest' },
        ...P.paging,
      },
      required: ['project_id', 'subject_digest'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/attestations/:subject_digest' } },
      example: { project_id: '1', subject_digest: 'example' },
    },
  ],
};
