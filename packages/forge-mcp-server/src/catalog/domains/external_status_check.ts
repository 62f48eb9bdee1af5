import type { DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const checkId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'ID of the external status check, from external_status_check.list_project.',
};
const checkFields: Record<string, ParamSpec> = {
  name: { type: 'string', description: 'Display name of the check, e.g. "Compliance gate".' },
  external_url: {
    type: 'string',
    description:
      'URL of the external service that receives the merge request data, e.g. "https://checks.example.com/hook".',
  },
  shared_secret: {
    type: 'string',
    description: 'Secret used to sign the requests sent to the service (HMAC), so it can trust them.',
  },
  protected_branch_ids: {
    type: 'array',
    items: { type: 'integer', minimum: 1 },
    description: 'IDs of protected branches the check applies to; leave out for all branches.',
  },
};
const listCheckDescription =
  'List the external status checks configured on a project: name, service URL, the protected branches they apply to and whether HMAC signing is on.';

export const domain: DomainSpec = {
  domain: 'external_status_check',
  metaTool: 'forge_external_status_check',
  summary:
    'External status checks: third-party services that must report pass or fail on merge requests; configure them on a project, see and retry their results on a merge request, or report a result as the service.',
  actions: [
    {
      id: 'external_status_check.create_project',
      title: 'Create external status check',
      description:
        'Add an external status check to a project: each merge request (to the chosen protected branches) is sent to the service, which must report passed before merging is allowed. Merge request data leaves the instance to that URL.',
      tool: 'forge_create_project_external_status_check',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'ultimate',
      scope: 'api',
      params: { project_id: P.projectId, ...checkFields },
      required: ['project_id', 'name', 'external_url'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/external_status_checks' } },
      example: { project_id: '1', name: 'Compliance gate', external_url: 'https://checks.example.com/hook' },
    },
    {
      id: 'external_status_check.delete_project',
      title: 'Delete external status check',
      description:
        'Remove an external status check from a project, together with the results it reported. Irreversible.',
      tool: 'forge_delete_project_external_status_check',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'ultimate',
      scope: 'api',
      params: { project_id: P.projectId, check_id: checkId },
      required: ['project_id', 'check_id'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/external_status_checks/:check_id' } },
      example: { project_id: '1', check_id: 1 },
    },
    {
      id: 'external_status_check.list_project',
      title: 'List external status checks',
      description: listCheckDescription,
      tool: 'forge_list_project_external_status_checks',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'read_api',
      params: { project_id: P.projectId, ...P.paging },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/external_status_checks' } },
      example: { project_id: '1' },
    },
    {
      id: 'external_status_check.list_project_checks',
      title: 'List project status checks',
      description: `${listCheckDescription} Same answer as external_status_check.list_project.`,
      tool: 'forge_list_project_status_checks',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'read_api',
      params: { project_id: P.projectId, ...P.paging },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/external_status_checks' } },
      example: { project_id: '1' },
    },
    {
      id: 'external_status_check.list_project_mr_checks',
      title: 'List status check results of a merge request',
      description:
        'List the external status checks that apply to a merge request with each one’s current result (passed, failed or pending).',
      tool: 'forge_list_project_mr_external_status_checks',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'read_api',
      params: { project_id: P.projectId, merge_request_iid: P.mergeRequestIid, ...P.paging },
      required: ['project_id', 'merge_request_iid'],
      request: {
        rest: {
          method: 'GET',
          path: '/projects/:project_id/merge_requests/:merge_request_iid/status_checks',
        },
      },
      example: { project_id: '1', merge_request_iid: 1 },
    },
    {
      id: 'external_status_check.retry_project',
      title: 'Retry failed status check',
      description:
        'Ask the external service to check a merge request again after its status check failed; the merge request data is sent to the service anew.',
      tool: 'forge_retry_failed_external_status_check_for_project_mr',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'ultimate',
      scope: 'api',
      params: {
        project_id: P.projectId,
        merge_request_iid: P.mergeRequestIid,
        external_status_check_id: checkId,
      },
      required: ['project_id', 'merge_request_iid', 'external_status_check_id'],
      request: {
        rest: {
          method: 'POST',
          path: '/projects/:project_id/merge_requests/:merge_request_iid/status_checks/:external_status_check_id/retry',
        },
      },
      example: { project_id: '1', merge_request_iid: 1, external_status_check_id: 1 },
    },
    {
      id: 'external_status_check.set_project_mr_status',
      title: 'Report status check result',
      description:
        "Report, as the external service, whether a merge request passed or failed one status check for its current head commit; used by the service's integration, not by reviewers.",
      tool: 'forge_set_project_mr_external_status_check_status',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'api',
      params: {
        project_id: P.projectId,
        merge_request_iid: P.mergeRequestIid,
        sha: { ...P.sha, description: 'Head commit SHA of the merge request the result is for.' },
        external_status_check_id: checkId,
        status: {
          type: 'string',
          enum: ['passed', 'failed', 'pending'],
          description:
            'Result to record: "passed", "failed", or "pending" while the service is still checking.',
        },
      },
      required: ['project_id', 'merge_request_iid', 'sha', 'external_status_check_id', 'status'],
      request: {
        rest: {
          method: 'POST',
          path: '/projects/:project_id/merge_requests/:merge_request_iid/status_check_responses',
        },
      },
      example: {
        project_id: '1',
        merge_request_iid: 1,
        sha: '5f0e1c3a9b7d2e4f6a8c0b1d3e5f7a9c2b4d6e8f',
        external_status_check_id: 1,
        status: 'passed',
      },
    },
    {
      id: 'external_status_check.update_project',
      title: 'Update external status check',
      description:
        'Change an external status check: its name, service URL, signing secret or the protected branches it applies to.',
      tool: 'forge_update_project_external_status_check',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'api',
      params: { project_id: P.projectId, check_id: checkId, ...checkFields },
      required: ['project_id', 'check_id'],
      request: { rest: { method: 'PUT', path: '/projects/:project_id/external_status_checks/:check_id' } },
      example: { project_id: '1', check_id: 1, name: 'Compliance gate v2' },
    },
  ],
};
