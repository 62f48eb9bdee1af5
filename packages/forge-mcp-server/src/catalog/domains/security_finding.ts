import type { DomainSpec } from '../types.js';

export const domain: DomainSpec = {
  domain: 'security_finding',
  metaTool: 'forge_security_finding',
  summary:
    "Security findings of one pipeline: what the pipeline's security scanners reported, before or apart from the project's vulnerability report.",
  actions: [
    {
      id: 'security_finding.list',
      title: 'List pipeline security findings',
      description:
        "List the security findings reported by one pipeline's scanners (for example on a merge request branch), filtered by severity, scanner type or state; each links to its vulnerability when one exists.",
      tool: 'forge_list_security_findings',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'read_api',
      params: {
        full_path: { type: 'string', description: 'Full path of the project, e.g. "acme/widgets".' },
        pipeline_iid: {
          type: 'string',
          pattern: '^\\d+$',
          description: 'Pipeline IID: the per-project pipeline number shown as #N, as a string, e.g. "12".',
        },
        severity: {
          type: 'array',
          items: { type: 'string', enum: ['critical', 'high', 'medium', 'low', 'info', 'unknown'] },
          description: 'Only these severities, e.g. ["critical", "high"].',
        },
        report_type: {
          type: 'array',
          items: {
            type: 'string',
            enum: [
              'sast',
              'dependency_scanning',
              'container_scanning',
              'dast',
              'secret_detection',
              'coverage_fuzzing',
              'api_fuzzing',
              'cluster_image_scanning',
            ],
          },
          description: 'Only findings of these scanner types, e.g. ["sast", "secret_detection"].',
        },
        scanner: {
          type: 'array',
          items: { type: 'string' },
          description: 'Only findings of these scanners, by external ID, e.g. ["semgrep", "gitleaks"].',
        },
        state: {
          type: 'array',
          items: { type: 'string', enum: ['DETECTED', 'CONFIRMED', 'RESOLVED', 'DISMISSED'] },
          description: 'Only findings whose vulnerability is in these states.',
        },
        sort: {
          type: 'string',
          enum: ['severity_desc', 'severity_asc'],
          description: 'Most severe first (severity_desc, the default) or least severe first (severity_asc).',
        },
        first: {
          type: 'integer',
          minimum: 1,
          maximum: 100,
          description: 'How many findings to return (at most 100).',
        },
        after: {
          type: 'string',
          description: 'Cursor from the previous answer (pageInfo.endCursor) to read the next page.',
        },
      },
      required: ['full_path', 'pipeline_iid'],
      request: {
        graphql: {
          document: `query project($fullPath: ID!, $pipelineIid: ID!, $severity: [String!], $reportType: [String!], $scanner: [String!], $state: [VulnerabilityState!], $sort: PipelineSecurityReportFindingSort, $first: Int, $after: String) {
  project(fullPath: $fullPath) {
    pipeline(iid: $pipelineIid) {
      securityReportFindings(severity: $severity, reportType: $reportType, scanner: $scanner, state: $state, sort: $sort, first: $first, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes {
          uuid
          title
          description
          severity
          state
          reportType
          solution
          scanner { name externalId vendor }
          identifiers { name externalType externalId url }
          location {
            ... on VulnerabilityLocationSast { file startLine endLine }
            ... on VulnerabilityLocationSecretDetection { file startLine endLine }
            ... on VulnerabilityLocationDependencyScanning { file dependency { version package { name } } }
            ... on VulnerabilityLocationContainerScanning { image operatingSystem }
            ... on VulnerabilityLocationDast { hostname path requestMethod }
          }
          vulnerability { id state webUrl }
        }
      }
    }
  }
}`,
          variables: {
            fullPath: 'full_path',
            pipelineIid: 'pipeline_iid',
            severity: 'severity',
            reportType: 'report_type',
            scanner: 'scanner',
            state: 'state',
            sort: 'sort',
            first: 'first',
            after: 'after',
          },
          resultPath: 'project.pipeline.securityReportFindings',
        },
      },
      example: { full_path: 'acme/widgets', pipeline_iid: '1', severity: ['critical', 'high'] },
    },
  ],
};
