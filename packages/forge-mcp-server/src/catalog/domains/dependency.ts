import type { DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const exportId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'ID of the dependency list export, as answered by dependency.export_create.',
};

export const domain: DomainSpec = {
  domain: 'dependency',
  metaTool: 'forge_dependency',
  summary:
    "A project's dependency list (software bill of materials): list detected dependencies with versions, licenses and known vulnerabilities, and export a pipeline's CycloneDX SBOM.",
  actions: [
    {
      id: 'dependency.export_create',
      title: 'Export pipeline SBOM',
      description:
        'Start building a CycloneDX SBOM of the dependencies a pipeline detected; poll dependency.export_get until it has finished, then fetch it with dependency.export_download. Only the requester can read it. The server sends export_type=sbom.',
      tool: 'forge_create_dependency_list_export',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'ultimate',
      scope: 'api',
      params: {
        pipeline_id: { type: 'integer', minimum: 1, description: 'Numeric pipeline ID (not the IID).' },
        send_email: { type: 'boolean', description: 'Email you when the export is ready.' },
      },
      required: ['pipeline_id'],
      request: {
        rest: {
          method: 'POST',
          path: '/pipelines/:pipeline_id/dependency_list_exports',
          fixedBody: { export_type: 'sbom' },
        },
      },
      example: { pipeline_id: 1 },
    },
    {
      id: 'dependency.export_download',
      title: 'Download dependency list export',
      description:
        'Download a finished dependency list export (the CycloneDX SBOM JSON). Answers not found while the export is still running.',
      tool: 'forge_download_dependency_list_export',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'read_api',
      params: { export_id: exportId },
      required: ['export_id'],
      request: { rest: { method: 'GET', path: '/dependency_list_exports/:export_id/download' } },
      example: { export_id: 1 },
    },
    {
      id: 'dependency.export_get',
      title: 'Get dependency list export status',
      description:
        'Check whether a dependency list export has finished (has_finished) and get its download link.',
      tool: 'forge_get_dependency_list_export',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'read_api',
      params: { export_id: exportId },
      required: ['export_id'],
      request: { rest: { method: 'GET', path: '/dependency_list_exports/:export_id' } },
      example: { export_id: 1 },
    },
    {
      id: 'dependency.list',
      title: 'List project dependencies',
      description:
        "List the dependencies found by the project's latest dependency scan on the default branch: name, version, package manager, lock file, licenses and known vulnerabilities.",
      tool: 'forge_list_project_dependencies',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        package_manager: {
          type: 'array',
          items: {
            type: 'string',
            enum: [
              'bundler',
              'composer',
              'conan',
              'go',
              'gradle',
              'maven',
              'npm',
              'nuget',
              'pip',
              'pipenv',
              'pnpm',
              'yarn',
              'sbt',
              'setuptools',
              'poetry',
              'apk',
              'conda',
              'pub',
              'cargo',
            ],
          },
          description: 'Only dependencies of these package managers, e.g. ["npm", "yarn"].',
        },
        ...P.paging,
      },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/dependencies' } },
      example: { project_id: '1', package_manager: ['npm'] },
    },
  ],
};
