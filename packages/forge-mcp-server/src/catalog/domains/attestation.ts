import type { DomainSpec } from '../types.js';
import * as P from '../params.js';

export const domain: DomainSpec = {
  domain: 'attestation',
  metaTool: 'forge_attestation',
  summary:
    'SLSA provenance attestations of build artifacts: find the attestations for an artifact by its SHA-256 digest and download the signed Sigstore bundle to verify it.',
  actions: [
    {
      id: 'attestation.download',
      title: 'Download attestation bundle',
      description:
        'Download the Sigstore bundle of one provenance attestation (by its IID from attestation.list), to verify with cosign or glab.',
      tool: 'forge_download_attestation',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        attestation_iid: {
          type: 'integer',
          minimum: 1,
          description: 'IID of the attestation within the project, as listed by attestation.list.',
        },
      },
      required: ['project_id', 'attestation_iid'],
      request: {
        rest: { method: 'GET', path: '/projects/:project_id/attestations/:attestation_iid/download' },
      },
      example: { project_id: '1', attestation_iid: 1 },
    },
    {
      id: 'attestation.list',
      title: 'List attestations of an artifact',
      description:
        'List the provenance attestations a project recorded for one artifact, found by the SHA-256 digest of the artifact; each names the job that built it and a download URL.',
      tool: 'forge_list_attestations',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        subject_digest: {
          type: 'string',
          pattern: '^[0-9a-fA-F]{64}$',
          description: 'Hex SHA-256 of the artifact (64 characters), e.g. the output of sha256sum.',
        },
      },
      required: ['project_id', 'subject_digest'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/attestations/:subject_digest' } },
      example: {
        project_id: '1',
        subject_digest: '76c34666f719ef14bd2b124a7db51e9c05e4db2e12a84800296d559064eebe2c',
      },
    },
  ],
};
