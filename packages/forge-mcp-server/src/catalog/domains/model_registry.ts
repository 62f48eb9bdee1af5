import type { DomainSpec } from '../types.js';
import * as P from '../params.js';

export const domain: DomainSpec = {
  domain: 'model_registry',
  metaTool: 'forge_model_registry',
  summary: "The project's machine-learning model registry: download the files stored with a model version.",
  actions: [
    {
      id: 'model_registry.download',
      title: 'Download model version file',
      description:
        'Download one file (weights, config, artifact) stored with a model version in the model registry; returns the bytes, or saves them to output_path on stdio.',
      tool: 'forge_download_ml_model_package',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        model_version_id: {
          type: 'string',
          pattern: '^(\\d+|candidate:\\d+)$',
          description:
            'Numeric ID of the model version, e.g. "12" (shown on the version page); an experiment run candidate is addressed as "candidate:<id>".',
        },
        path: {
          type: 'string',
          description:
            'Folder of the file inside the version, if it is not at the top, e.g. "checkpoints/epoch-3" (slashes kept).',
        },
        file_name: { type: 'string', description: 'Name of the file, e.g. "model.safetensors".' },
        output_path: P.outputPath,
      },
      required: ['project_id', 'model_version_id', 'file_name'],
      request: {
        rest: {
          method: 'GET',
          path: [
            '/projects/:project_id/packages/ml_models/:model_version_id/files/*path/:file_name',
            '/projects/:project_id/packages/ml_models/:model_version_id/files/:file_name',
          ],
          response: 'binary',
        },
      },
      example: {
        project_id: '1',
        model_version_id: '1',
        path: 'checkpoints/epoch-3',
        file_name: 'model.pkl',
      },
    },
  ],
};
