import type { ActionContext, DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const enc = encodeURIComponent;

const pipelineId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description:
    'Pipeline ID: the id field of pipeline.list or pipeline.latest (e.g. 102), not the iid, the number counted per project.',
};
const scheduleId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'Pipeline schedule ID (from pipeline.schedule_list).',
};
const triggerId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'Pipeline trigger token ID (from pipeline.trigger_list).',
};
const resourceGroupKey: ParamSpec = {
  type: 'string',
  minLength: 1,
  description: 'Resource group key as written in .gitlab-ci.yml `resource_group:`, e.g. "production".',
};
const variableKey: ParamSpec = {
  type: 'string',
  minLength: 1,
  pattern: '^[A-Za-z0-9_]+$',
  description: 'Variable name: letters, digits and underscores, e.g. "DEPLOY_ENV".',
};
const variableType: ParamSpec = {
  type: 'string',
  enum: ['env_var', 'file'],
  description:
    'env_var (default): an environment variable; file: the value is written to a file whose path is the variable.',
};
const pipelineStatuses = [
  'created',
  'waiting_for_resource',
  'preparing',
  'waiting_for_callback',
  'pending',
  'running',
  'success',
  'failed',
  'canceled',
  'canceling',
  'skipped',
  'manual',
  'scheduled',
];
const inputName: ParamSpec = { type: 'string', description: 'Input name as declared in spec:inputs.' };
const inputValue: ParamSpec = { description: 'Input value (string, number, boolean or array).' };
const scheduleFields: Record<string, ParamSpec> = {
  description: { type: 'string', description: 'Name of the schedule, e.g. "Nightly build".' },
  ref: {
    type: 'string',
    minLength: 1,
    description: 'Branch or tag the scheduled pipelines run on, e.g. "main" or "refs/tags/v1.0.0".',
  },
  cron: {
    type: 'string',
    description: 'Cron expression for when to run, e.g. "0 2 * * *" (every day at 02:00).',
  },
  cron_timezone: {
    type: 'string',
    description: 'Time zone of the cron expression, e.g. "UTC" or "Europe/Berlin" (default UTC).',
  },
  active: {
    type: 'boolean',
    description:
      'Whether the schedule runs (a new schedule is active unless false is given); inactive schedules only run when started by hand.',
  },
  inputs: {
    type: 'array',
    description: 'CI/CD inputs passed to each scheduled pipeline.',
    items: {
      type: 'object',
      required: ['name', 'value'],
      properties: { name: inputName, value: inputValue },
    },
  },
};
/**
 * On update an input can also be removed (destroy true), and then needs no value: the instance requires the
 * value only of an input it keeps.
 */
const scheduleUpdateFields: Record<string, ParamSpec> = {
  ...scheduleFields,
  inputs: {
    type: 'array',
    description:
      'CI/CD inputs to set on the schedule, each {"name", "value"}; {"name", "destroy": true} removes one.',
    items: {
      type: 'object',
      required: ['name'],
      properties: {
        name: inputName,
        value: {
          ...inputValue,
          description: 'Input value (string, number, boolean or array); not needed with destroy.',
        },
        destroy: { type: 'boolean', description: 'true to remove this input from the schedule.' },
      },
      anyOf: [{ required: ['value'] }, { required: ['destroy'], properties: { destroy: { const: true } } }],
    },
  },
};
/** Parameters of the wait actions (pipeline.wait, job.wait); they steer the polling, nothing is sent. */
export const waitParams: Record<string, ParamSpec> = {
  timeout_seconds: {
    type: 'integer',
    minimum: 1,
    maximum: 3600,
    default: 300,
    in: 'none',
    description: 'Stop waiting after this many seconds and return the current state (default 300).',
  },
  interval_seconds: {
    type: 'integer',
    minimum: 2,
    maximum: 120,
    default: 10,
    in: 'none',
    description: 'Seconds between status checks (default 10).',
  },
};
/** Statuses after which a pipeline or job will not move on its own. */
const settled = new Set(['success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled']);

/**
 * Polls a pipeline or job (the REST path given) until its status settles or the time runs out;
 * answers the last state with `finished` and `timed_out`.
 */
export async function waitUntilSettled(
  ctx: ActionContext,
  path: string,
  args: Record<string, unknown>,
): Promise<unknown> {
  const deadline = Date.now() + Number(args.timeout_seconds ?? 300) * 1000;
  const intervalMs = Number(args.interval_seconds ?? 10) * 1000;
  for (;;) {
    const state = (await ctx.rest('GET', path)) as { status?: string };
    const finished = settled.has(String(state.status));
    if (finished || Date.now() + intervalMs > deadline) return { ...state, finished, timed_out: !finished };
    await ctx.wait(intervalMs);
  }
}

export const domain: DomainSpec = {
  domain: 'pipeline',
  metaTool: 'forge_pipeline',
  summary:
    'CI/CD pipelines: list, inspect, run, retry, cancel, delete and wait for pipelines; read their variables and test reports; manage pipeline schedules, trigger tokens and resource groups.',
  actions: [
    {
      id: 'pipeline.cancel',
      title: 'Cancel pipeline',
      description: 'Cancels a running or pending pipeline: every job that has not finished is stopped.',
      tool: 'forge_pipeline_cancel',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...P.project, pipeline_id: pipelineId },
      required: ['project_id', 'pipeline_id'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/pipelines/:pipeline_id/cancel' } },
      example: { project_id: '1', pipeline_id: 102 },
    },
    {
      id: 'pipeline.create',
      title: 'Run pipeline',
      description:
        'Starts a new pipeline for a branch or tag, optionally with extra CI/CD variables or inputs (like "Run pipeline" in the UI).',
      tool: 'forge_pipeline_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        ref: {
          type: 'string',
          minLength: 1,
          description: 'Branch or tag to run the pipeline on, e.g. "main".',
        },
        variables: {
          type: 'array',
          description: 'Extra CI/CD variables for this pipeline only.',
          items: {
            type: 'object',
            required: ['key', 'value'],
            properties: {
              key: { type: 'string', description: 'Variable name, e.g. "DEPLOY_ENV".' },
              value: { type: 'string', description: 'Variable value.' },
              variable_type: variableType,
            },
          },
        },
        inputs: {
          type: 'object',
          additionalProperties: true,
          description:
            'CI/CD inputs declared in spec:inputs, as name -> value, e.g. {"environment": "staging"}.',
        },
      },
      required: ['project_id', 'ref'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/pipeline' } },
      example: { project_id: '1', ref: 'main', variables: [{ key: 'DEPLOY_ENV', value: 'staging' }] },
    },
    {
      id: 'pipeline.delete',
      title: 'Delete pipeline',
      description:
        'Deletes a pipeline with its jobs, logs and artifacts. Irreversible; use pipeline.cancel to only stop it.',
      tool: 'forge_pipeline_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...P.project, pipeline_id: pipelineId },
      required: ['project_id', 'pipeline_id'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/pipelines/:pipeline_id' } },
      example: { project_id: '1', pipeline_id: 102 },
    },
    {
      id: 'pipeline.get',
      title: 'Get pipeline',
      description:
        'Reads one pipeline: status, ref, commit, source, who started it, duration, coverage and web link. Use job.list for its jobs.',
      tool: 'forge_pipeline_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, pipeline_id: pipelineId },
      required: ['project_id', 'pipeline_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/pipelines/:pipeline_id' } },
      notFound: { object: 'Pipeline', key: 'pipeline_id', next: ['pipeline.list', 'pipeline.latest'] },
      example: { project_id: '1', pipeline_id: 101 },
    },
    {
      id: 'pipeline.latest',
      title: 'Get latest pipeline',
      description:
        'Reads the most recent pipeline of a branch or tag (default branch if none), e.g. to check whether main is green.',
      tool: 'forge_pipeline_latest',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        ref: { type: 'string', description: 'Branch or tag; defaults to the default branch.' },
      },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/pipelines/latest' } },
      example: { project_id: '1', ref: 'main' },
    },
    {
      id: 'pipeline.list',
      title: 'List pipelines',
      description:
        'Lists a project’s pipelines, newest first, filterable by status (e.g. failed, running), branch/tag, commit, source, user and dates.',
      tool: 'forge_pipeline_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        scope: {
          type: 'string',
          enum: ['running', 'pending', 'finished', 'branches', 'tags'],
          description: 'Coarse filter: running, pending, finished, or only the latest per branch/tag.',
        },
        status: { type: 'string', enum: pipelineStatuses, description: 'Only pipelines in this status.' },
        source: {
          type: 'string',
          description:
            'Only pipelines started this way, e.g. push, web, trigger, schedule, api, merge_request_event, parent_pipeline.',
        },
        ref: { type: 'string', description: 'Only pipelines of this branch or tag.' },
        sha: { type: 'string', description: 'Only pipelines of this commit SHA.' },
        yaml_errors: { type: 'boolean', description: 'Only pipelines whose CI configuration is invalid.' },
        username: { type: 'string', description: 'Only pipelines started by this username.' },
        name: { type: 'string', description: 'Only pipelines with this name.' },
        updated_after: {
          type: 'string',
          format: 'date-time',
          description: 'Only pipelines updated after this time.',
        },
        updated_before: {
          type: 'string',
          format: 'date-time',
          description: 'Only pipelines updated before this time.',
        },
        created_after: {
          type: 'string',
          format: 'date-time',
          description: 'Only pipelines created after this time.',
        },
        created_before: {
          type: 'string',
          format: 'date-time',
          description: 'Only pipelines created before this time.',
        },
        order_by: {
          type: 'string',
          enum: ['id', 'status', 'ref', 'updated_at', 'user_id'],
          description: 'Sort field (default id).',
        },
        sort: { type: 'string', enum: ['asc', 'desc'], description: 'Sort direction (default desc).' },
        ...P.paging,
      },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/pipelines' } },
      example: { project_id: '1', status: 'failed', ref: 'main' },
    },
    {
      id: 'pipeline.resource_group_edit',
      title: 'Edit resource group',
      description:
        'Changes how a resource group hands out its lock to waiting jobs (process mode), e.g. newest first for deployments.',
      tool: 'forge_edit_resource_group',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        key: resourceGroupKey,
        process_mode: {
          type: 'string',
          enum: ['unordered', 'oldest_first', 'newest_first', 'newest_ready_first'],
          description: 'Order in which waiting jobs get the resource.',
        },
      },
      required: ['project_id', 'key'],
      request: { rest: { method: 'PUT', path: '/projects/:project_id/resource_groups/:key' } },
      example: { project_id: '1', key: 'production', process_mode: 'oldest_first' },
    },
    {
      id: 'pipeline.resource_group_get',
      title: 'Get resource group',
      description:
        'Reads a resource group (a lock that lets only one job at a time use a resource) and its process mode.',
      tool: 'forge_get_resource_group',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, key: resourceGroupKey },
      required: ['project_id', 'key'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/resource_groups/:key' } },
      example: { project_id: '1', key: 'production' },
    },
    {
      id: 'pipeline.resource_group_list',
      title: 'List resource groups',
      description:
        'Lists the project’s CI/CD resource groups (job concurrency locks) with their process modes.',
      tool: 'forge_list_resource_groups',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, ...P.paging },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/resource_groups' } },
      example: { project_id: '1' },
    },
    {
      id: 'pipeline.resource_group_upcoming_jobs',
      title: 'List jobs waiting for resource group',
      description:
        'Lists the jobs queued for a resource group, in the order they will get it; useful when a deploy is stuck waiting.',
      tool: 'forge_list_resource_group_upcoming_jobs',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, key: resourceGroupKey, ...P.paging },
      required: ['project_id', 'key'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/resource_groups/:key/upcoming_jobs' } },
      example: { project_id: '1', key: 'production' },
    },
    {
      id: 'pipeline.retry',
      title: 'Retry pipeline',
      description:
        'Retries the failed and canceled jobs of a pipeline (re-runs it in place). Use job.retry for a single job.',
      tool: 'forge_pipeline_retry',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: { ...P.project, pipeline_id: pipelineId },
      required: ['project_id', 'pipeline_id'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/pipelines/:pipeline_id/retry' } },
      example: { project_id: '1', pipeline_id: 102 },
    },
    {
      id: 'pipeline.schedule_create',
      title: 'Create pipeline schedule',
      description:
        'Creates a schedule that runs pipelines on a branch or tag at cron times (e.g. nightly builds).',
      tool: 'forge_pipeline_schedule_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: { ...P.project, ...scheduleFields },
      required: ['project_id', 'description', 'ref', 'cron'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/pipeline_schedules' } },
      example: {
        project_id: '1',
        description: 'Nightly build',
        ref: 'main',
        cron: '0 2 * * *',
        cron_timezone: 'UTC',
      },
    },
    {
      id: 'pipeline.schedule_create_variable',
      title: 'Add schedule variable',
      description: 'Adds a CI/CD variable that every pipeline started by the schedule receives.',
      tool: 'forge_pipeline_schedule_create_variable',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        pipeline_schedule_id: scheduleId,
        key: variableKey,
        value: { type: 'string', description: 'Variable value.' },
        variable_type: variableType,
      },
      required: ['project_id', 'pipeline_schedule_id', 'key', 'value'],
      request: {
        rest: {
          method: 'POST',
          path: '/projects/:project_id/pipeline_schedules/:pipeline_schedule_id/variables',
        },
      },
      example: { project_id: '1', pipeline_schedule_id: 1, key: 'NIGHTLY', value: 'true' },
    },
    {
      id: 'pipeline.schedule_delete',
      title: 'Delete pipeline schedule',
      description:
        'Deletes a pipeline schedule and its variables. Irreversible; pipelines it already ran stay. To pause it, set active false with pipeline.schedule_update.',
      tool: 'forge_pipeline_schedule_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...P.project, pipeline_schedule_id: scheduleId },
      required: ['project_id', 'pipeline_schedule_id'],
      request: {
        rest: { method: 'DELETE', path: '/projects/:project_id/pipeline_schedules/:pipeline_schedule_id' },
      },
      example: { project_id: '1', pipeline_schedule_id: 1 },
    },
    {
      id: 'pipeline.schedule_delete_variable',
      title: 'Delete schedule variable',
      description: 'Removes a variable from a pipeline schedule. Irreversible (its value is lost).',
      tool: 'forge_pipeline_schedule_delete_variable',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...P.project, pipeline_schedule_id: scheduleId, key: variableKey },
      required: ['project_id', 'pipeline_schedule_id', 'key'],
      request: {
        rest: {
          method: 'DELETE',
          path: '/projects/:project_id/pipeline_schedules/:pipeline_schedule_id/variables/:key',
        },
      },
      example: { project_id: '1', pipeline_schedule_id: 1, key: 'NIGHTLY' },
    },
    {
      id: 'pipeline.schedule_edit_variable',
      title: 'Edit schedule variable',
      description: 'Changes the value or type of a variable of a pipeline schedule.',
      tool: 'forge_pipeline_schedule_edit_variable',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        pipeline_schedule_id: scheduleId,
        key: variableKey,
        value: { type: 'string', description: 'New value; left unchanged when omitted.' },
        variable_type: variableType,
      },
      required: ['project_id', 'pipeline_schedule_id', 'key'],
      request: {
        rest: {
          method: 'PUT',
          path: '/projects/:project_id/pipeline_schedules/:pipeline_schedule_id/variables/:key',
        },
      },
      example: { project_id: '1', pipeline_schedule_id: 1, key: 'NIGHTLY', value: 'false' },
    },
    {
      id: 'pipeline.schedule_get',
      title: 'Get pipeline schedule',
      description: 'Reads a pipeline schedule: cron, ref, owner, next run time, last pipeline and variables.',
      tool: 'forge_pipeline_schedule_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, pipeline_schedule_id: scheduleId },
      required: ['project_id', 'pipeline_schedule_id'],
      request: {
        rest: { method: 'GET', path: '/projects/:project_id/pipeline_schedules/:pipeline_schedule_id' },
      },
      notFound: {
        object: 'Pipeline schedule',
        key: 'pipeline_schedule_id',
        next: ['pipeline.schedule_list'],
      },
      example: { project_id: '1', pipeline_schedule_id: 1 },
    },
    {
      id: 'pipeline.schedule_list',
      title: 'List pipeline schedules',
      description:
        'Lists the project’s pipeline schedules (scheduled/nightly pipelines), optionally only active or inactive ones.',
      tool: 'forge_pipeline_schedule_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        scope: {
          type: 'string',
          enum: ['active', 'inactive'],
          description: 'Only active or only inactive schedules.',
        },
        ...P.paging,
      },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/pipeline_schedules' } },
      example: { project_id: '1' },
    },
    {
      id: 'pipeline.schedule_list_triggered_pipelines',
      title: 'List pipelines of schedule',
      description:
        'Lists the pipelines a schedule has started, oldest first unless sort is desc (use desc to see how the latest nightly runs went).',
      tool: 'forge_pipeline_schedule_list_triggered_pipelines',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        pipeline_schedule_id: scheduleId,
        scope: {
          type: 'string',
          enum: ['running', 'pending', 'finished', 'branches', 'tags'],
          description: 'Coarse filter on the pipelines.',
        },
        status: { type: 'string', enum: pipelineStatuses, description: 'Only pipelines in this status.' },
        updated_after: {
          type: 'string',
          format: 'date-time',
          description: 'Only pipelines updated at or after this time.',
        },
        updated_before: {
          type: 'string',
          format: 'date-time',
          description: 'Only pipelines updated at or before this time.',
        },
        created_after: {
          type: 'string',
          format: 'date-time',
          description: 'Only pipelines created after this time.',
        },
        created_before: {
          type: 'string',
          format: 'date-time',
          description: 'Only pipelines created before this time.',
        },
        sort: {
          type: 'string',
          enum: ['asc', 'desc'],
          description: 'Order by pipeline ID: asc (default, oldest first) or desc (newest first).',
        },
        ...P.paging,
      },
      required: ['project_id', 'pipeline_schedule_id'],
      request: {
        rest: {
          method: 'GET',
          path: '/projects/:project_id/pipeline_schedules/:pipeline_schedule_id/pipelines',
        },
      },
      example: { project_id: '1', pipeline_schedule_id: 1 },
    },
    {
      id: 'pipeline.schedule_run',
      title: 'Run pipeline schedule now',
      description:
        'Starts a pipeline from a schedule immediately instead of waiting for its next cron time, then returns the schedule with its latest pipeline.',
      tool: 'forge_pipeline_schedule_run',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: { ...P.project, pipeline_schedule_id: scheduleId },
      required: ['project_id', 'pipeline_schedule_id'],
      request: {
        rest: { method: 'POST', path: '/projects/:project_id/pipeline_schedules/:pipeline_schedule_id/play' },
      },
      handler: async (args, ctx) => {
        const base = `/projects/${enc(String(args.project_id))}/pipeline_schedules/${Number(args.pipeline_schedule_id)}`;
        const started = await ctx.rest('POST', `${base}/play`);
        const schedule = await ctx.rest('GET', base);
        return { started, schedule };
      },
      example: { project_id: '1', pipeline_schedule_id: 1 },
    },
    {
      id: 'pipeline.schedule_take_ownership',
      title: 'Take ownership of pipeline schedule',
      description:
        'Makes you the owner of a pipeline schedule, so its pipelines run with your permissions (e.g. after the previous owner left).',
      tool: 'forge_pipeline_schedule_take_ownership',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...P.project, pipeline_schedule_id: scheduleId },
      required: ['project_id', 'pipeline_schedule_id'],
      request: {
        rest: {
          method: 'POST',
          path: '/projects/:project_id/pipeline_schedules/:pipeline_schedule_id/take_ownership',
        },
      },
      example: { project_id: '1', pipeline_schedule_id: 1 },
    },
    {
      id: 'pipeline.schedule_update',
      title: 'Update pipeline schedule',
      description:
        'Changes a pipeline schedule’s description, ref, cron, time zone, inputs, or pauses/resumes it (active).',
      tool: 'forge_pipeline_schedule_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...P.project, pipeline_schedule_id: scheduleId, ...scheduleUpdateFields },
      required: ['project_id', 'pipeline_schedule_id'],
      request: {
        rest: { method: 'PUT', path: '/projects/:project_id/pipeline_schedules/:pipeline_schedule_id' },
      },
      example: { project_id: '1', pipeline_schedule_id: 1, active: false },
    },
    {
      id: 'pipeline.test_report',
      title: 'Get pipeline test report',
      description:
        'Reads the full unit test report of a pipeline: suites and test cases with status, duration and failure output. Use pipeline.test_report_summary for counts only.',
      tool: 'forge_pipeline_test_report',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, pipeline_id: pipelineId },
      required: ['project_id', 'pipeline_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/pipelines/:pipeline_id/test_report' } },
      example: { project_id: '1', pipeline_id: 101 },
    },
    {
      id: 'pipeline.test_report_summary',
      title: 'Get pipeline test summary',
      description:
        'Reads the totals of a pipeline’s test report (passed, failed, skipped, errored per suite) without individual test cases.',
      tool: 'forge_pipeline_test_report_summary',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, pipeline_id: pipelineId },
      required: ['project_id', 'pipeline_id'],
      request: {
        rest: { method: 'GET', path: '/projects/:project_id/pipelines/:pipeline_id/test_report_summary' },
      },
      example: { project_id: '1', pipeline_id: 101 },
    },
    {
      id: 'pipeline.trigger_create',
      title: 'Create pipeline trigger token',
      description:
        'Creates a pipeline trigger token that lets external systems start pipelines (with pipeline.trigger_run). The answer holds the token value.',
      tool: 'forge_pipeline_trigger_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        description: {
          type: 'string',
          minLength: 1,
          description: 'What the token is for, e.g. "Deploy from ops repo".',
        },
        expires_at: { type: 'string', format: 'date', description: 'Expiry date of the token (YYYY-MM-DD).' },
      },
      required: ['project_id', 'description'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/triggers' } },
      example: { project_id: '1', description: 'Deploy from ops repo' },
    },
    {
      id: 'pipeline.trigger_delete',
      title: 'Delete pipeline trigger token',
      description:
        'Deletes a pipeline trigger token; systems using it can no longer start pipelines. Irreversible.',
      tool: 'forge_pipeline_trigger_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...P.project, trigger_id: triggerId },
      required: ['project_id', 'trigger_id'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/triggers/:trigger_id' } },
      example: { project_id: '1', trigger_id: 1 },
    },
    {
      id: 'pipeline.trigger_get',
      title: 'Get pipeline trigger token',
      description:
        'Reads a pipeline trigger token: description, owner, last use and (for its owner) the token value.',
      tool: 'forge_pipeline_trigger_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, trigger_id: triggerId },
      required: ['project_id', 'trigger_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/triggers/:trigger_id' } },
      example: { project_id: '1', trigger_id: 1 },
    },
    {
      id: 'pipeline.trigger_list',
      title: 'List pipeline trigger tokens',
      description: 'Lists the project’s pipeline trigger tokens with description, owner and last use.',
      tool: 'forge_pipeline_trigger_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, ...P.paging },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/triggers' } },
      example: { project_id: '1' },
    },
    {
      id: 'pipeline.trigger_run',
      title: 'Trigger pipeline with trigger token',
      description:
        'Starts a pipeline on a branch or tag using a pipeline trigger token (not your own token), optionally passing variables or inputs. Use pipeline.create to run a pipeline as yourself.',
      tool: 'forge_pipeline_trigger_run',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'other-credential',
      params: {
        ...P.project,
        token: {
          type: 'string',
          minLength: 1,
          description: 'Pipeline trigger token (glptt-...) or a CI/CD job token.',
        },
        ref: {
          type: 'string',
          minLength: 1,
          description: 'Branch or tag to run the pipeline on, e.g. "main".',
        },
        variables: {
          type: 'object',
          additionalProperties: { type: 'string' },
          description:
            'CI/CD variables for the pipeline as name -> value, e.g. {"DEPLOY_ENV": "production"}.',
        },
        inputs: {
          type: 'object',
          additionalProperties: true,
          description: 'CI/CD inputs declared in spec:inputs, as name -> value.',
        },
      },
      required: ['project_id', 'token', 'ref'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/trigger/pipeline' } },
      example: {
        project_id: '1',
        token: 'glptt-0123456789abcdef',
        ref: 'main',
        variables: { DEPLOY_ENV: 'staging' },
      },
    },
    {
      id: 'pipeline.trigger_update',
      title: 'Update pipeline trigger token',
      description: 'Changes the description of a pipeline trigger token.',
      tool: 'forge_pipeline_trigger_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        trigger_id: triggerId,
        description: { type: 'string', minLength: 1, description: 'New description.' },
      },
      required: ['project_id', 'trigger_id'],
      request: { rest: { method: 'PUT', path: '/projects/:project_id/triggers/:trigger_id' } },
      example: { project_id: '1', trigger_id: 1, description: 'Deploy from ops repo (prod)' },
    },
    {
      id: 'pipeline.update_metadata',
      title: 'Rename pipeline',
      description: 'Sets the display name of a pipeline.',
      tool: 'forge_pipeline_update_metadata',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        pipeline_id: pipelineId,
        name: { type: 'string', minLength: 1, description: 'New pipeline name, e.g. "Release 1.2 build".' },
      },
      required: ['project_id', 'pipeline_id', 'name'],
      request: { rest: { method: 'PUT', path: '/projects/:project_id/pipelines/:pipeline_id/metadata' } },
      example: { project_id: '1', pipeline_id: 101, name: 'Release build' },
    },
    {
      id: 'pipeline.variables',
      title: 'List pipeline variables',
      description:
        'Lists the variables a pipeline was started with (given at run time, by a trigger or a schedule); project CI/CD variables are not included.',
      tool: 'forge_pipeline_variables',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, pipeline_id: pipelineId },
      required: ['project_id', 'pipeline_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/pipelines/:pipeline_id/variables' } },
      example: { project_id: '1', pipeline_id: 101 },
    },
    {
      id: 'pipeline.wait',
      title: 'Wait for pipeline to finish',
      description:
        'Polls a pipeline until it finishes (success, failed, canceled, skipped) or waits for manual action, then returns it; stops at the timeout with timed_out true.',
      tool: 'forge_pipeline_wait',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, pipeline_id: pipelineId, ...waitParams },
      required: ['project_id', 'pipeline_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/pipelines/:pipeline_id' } },
      handler: (args, ctx) =>
        waitUntilSettled(
          ctx,
          `/projects/${enc(String(args.project_id))}/pipelines/${Number(args.pipeline_id)}`,
          args,
        ),
      example: { project_id: '1', pipeline_id: 101, timeout_seconds: 5, interval_seconds: 2 },
    },
  ],
};
