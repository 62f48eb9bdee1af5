import type { ActionSpec, DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const doraParams: Record<string, ParamSpec> = {
  metric: {
    type: 'string',
    enum: ['deployment_frequency', 'lead_time_for_changes', 'time_to_restore_service', 'change_failure_rate'],
    description:
      'Which DORA metric: deployment_frequency (deploys per interval), lead_time_for_changes (seconds from merge to production), time_to_restore_service (seconds incidents stay open), change_failure_rate (share of deploys causing incidents).',
  },
  start_date: {
    type: 'string',
    format: 'date',
    description:
      'First day of the range, YYYY-MM-DD (default 3 months ago; at most one year before end_date).',
  },
  end_date: {
    type: 'string',
    format: 'date',
    description: 'Last day of the range, YYYY-MM-DD (default today).',
  },
  interval: {
    type: 'string',
    enum: ['all', 'monthly', 'daily'],
    description:
      'Bucket size of the answer: one value for the whole range, one per month, or one per day (default daily).',
  },
  environment_tiers: {
    type: 'array',
    items: { type: 'string', enum: ['production', 'staging', 'testing', 'development', 'other'] },
    description: 'Environment tiers counted (default ["production"]).',
  },
};

function dora(scope: 'group' | 'project'): ActionSpec {
  const group = scope === 'group';
  return {
    id: `dora_metrics.${scope}`,
    title: group ? 'Group DORA metrics' : 'Project DORA metrics',
    description: group
      ? 'Read one DORA metric (deployment frequency, lead time for changes, time to restore service, change failure rate) across all projects of a group, per day, per month or for the whole range.'
      : 'Read one DORA metric (deployment frequency, lead time for changes, time to restore service, change failure rate) for a project, per day, per month or for the whole range.',
    tool: group ? 'forge_get_group_dora_metrics' : 'forge_get_project_dora_metrics',
    write: false,
    destructive: false,
    idempotent: true,
    tier: 'ultimate',
    scope: 'read_api',
    params: group ? { group_id: P.groupId, ...doraParams } : { project_id: P.projectId, ...doraParams },
    required: [group ? 'group_id' : 'project_id', 'metric'],
    request: {
      rest: {
        method: 'GET',
        path: group ? '/groups/:group_id/dora/metrics' : '/projects/:project_id/dora/metrics',
      },
    },
    example: group
      ? { group_id: '10', metric: 'deployment_frequency', interval: 'monthly' }
      : {
          project_id: '1',
          metric: 'lead_time_for_changes',
          start_date: '2025-01-01',
          end_date: '2025-03-31',
        },
  };
}

export const domain: DomainSpec = {
  domain: 'dora_metrics',
  metaTool: 'forge_dora_metrics',
  summary:
    'DORA software delivery metrics (deployment frequency, lead time for changes, time to restore service, change failure rate) for a project or a group.',
  actions: [dora('group'), dora('project')],
};
