import type { DomainSpec } from '../types.js';
import * as P from '../params.js';

export const domain: DomainSpec = {
  domain: 'model_registry',
  metaTool: 'forge_model_registry',
  summary: 'model registry actions.',
  actions: [
    {
      id: 'model_registry.download',
      title: 'Download model registry',
      description: 'Download model registry.',
      tool: 'forge_download_ml_model_package',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        model_version_id: { type: 'integer', description: 'model version id' },
        file_name: { type: 'string', description: 'file name' },
      },
      required: ['project_id', 'model_version_id', 'file_name'],
      request: {
        rest: {
          method: 'GET',
          path: '/projects/:project_id/packages/ml_models/:model_version_id/files/(*path/):file_name',
        },
      },
      example: { project_id: '1', model_version_id: 1, file_name: 'example' },
    },
  ],
};
