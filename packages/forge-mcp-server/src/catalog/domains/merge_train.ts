import type { DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const trainFilters: Record<string, ParamSpec> = {
  scope: {
    type: 'string',
    enum: ['active', 'complete'],
    description:
      'active: merge requests still queued on the train; complete: those already merged or dropped.',
  },
  sort: { type: 'string', enum: ['asc', 'desc'], description: 'Order by creation time (default desc).' },
};

export const domain: DomainSpec = {
  domain: 'merge_train',
  metaTool: 'forge_merge_train',
  summary:
    'Merge trains: queue merge requests to be merged one after another with pipelines that test the combined result, and see what is on a train.',
  actions: [
    {
      id: 'merge_train.add',
      title: 'Add merge request to merge train',
      description:
        "Put a merge request on its target branch's merge train, now or automatically once its pipeline succeeds; it merges when the train's combined pipeline passes.",
      tool: 'forge_add_merge_request_to_merge_train',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        project_id: P.projectId,
        merge_request_iid: P.mergeRequestIid,
        sha: {
          ...P.sha,
          description: 'Head commit SHA the merge request must still be at; refused if it moved meanwhile.',
        },
        squash: { type: 'boolean', description: 'Squash the commits into one when merging.' },
        auto_merge: {
          type: 'boolean',
          description: 'true: join the train only once the merge request pipeline succeeds (instead of now).',
        },
      },
      required: ['project_id', 'merge_request_iid'],
      request: {
        rest: {
          method: 'POST',
          path: '/projects/:project_id/merge_trains/merge_requests/:merge_request_iid',
        },
      },
      example: { project_id: '1', merge_request_iid: 1, auto_merge: true },
    },
    {
      id: 'merge_train.get',
      title: 'Get merge request on merge train',
      description:
        'Show where a merge request stands on the merge train: its status (idle, fresh, stale, merging, merged, ...), the train pipeline and when it was added or merged.',
      tool: 'forge_get_merge_request_on_merge_train',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { project_id: P.projectId, merge_request_iid: P.mergeRequestIid },
      required: ['project_id', 'merge_request_iid'],
      request: {
        rest: { method: 'GET', path: '/projects/:project_id/merge_trains/merge_requests/:merge_request_iid' },
      },
      notFound: {
        object: 'Merge request on a merge train',
        key: 'merge_request_iid',
        next: ['merge_train.list_branch', 'merge_train.list_project', 'merge_request.get'],
      },
      example: { project_id: '1', merge_request_iid: 1 },
    },
    {
      id: 'merge_train.list_branch',
      title: 'List merge train of a branch',
      description:
        'List the merge requests on the merge train of one target branch, in queue order, with each one’s train status and pipeline.',
      tool: 'forge_list_merge_request_in_merge_train',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        target_branch: { type: 'string', description: 'Target branch of the train, e.g. "main".' },
        ...trainFilters,
        ...P.paging,
      },
      required: ['project_id', 'target_branch'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/merge_trains/:target_branch' } },
      example: { project_id: '1', target_branch: 'main', scope: 'active' },
    },
    {
      id: 'merge_train.list_project',
      title: 'List merge trains of a project',
      description:
        'List the merge train cars of a project across all target branches, active or completed; narrow to one branch with merge_train.list_branch.',
      tool: 'forge_list_project_merge_trains',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { project_id: P.projectId, ...trainFilters, ...P.paging },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/merge_trains' } },
      example: { project_id: '1', scope: 'complete', sort: 'asc' },
    },
  ],
};
