import type { DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const environmentId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'Numeric environment ID (from environment.list; not the environment name).',
};
const deploymentId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'Numeric deployment ID (from environment.deployment_list).',
};
const freezePeriodId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'Numeric freeze period ID (from environment.freeze_list).',
};
const protectedName: ParamSpec = {
  type: 'string',
  description: 'Name of the protected environment, e.g. "production" (slashes allowed, e.g. "review/app").',
};
const envSettings: Record<string, ParamSpec> = {
  external_url: {
    type: 'string',
    description: 'URL where the deployed app is reachable, e.g. "https://staging.example.com".',
  },
  tier: {
    type: 'string',
    enum: ['production', 'staging', 'testing', 'development', 'other'],
    description: 'Deployment tier of the environment (guessed from the name when omitted).',
  },
  description: { type: 'string', description: 'Free-text description of the environment.' },
  cluster_agent_id: {
    type: 'integer',
    minimum: 1,
    description: 'ID of the Kubernetes agent used to show cluster resources for this environment.',
  },
  kubernetes_namespace: {
    type: 'string',
    description: 'Kubernetes namespace tied to the environment (needs cluster_agent_id).',
  },
  flux_resource_path: {
    type: 'string',
    description:
      'Flux resource path for the environment (needs kubernetes_namespace), e.g. "helm.toolkit.fluxcd.io/v2/namespaces/app/helmreleases/app".',
  },
  auto_stop_setting: {
    type: 'string',
    enum: ['always', 'with_action'],
    description:
      'When the environment auto-stops: always, or only when a stop action is defined (with_action).',
  },
};
const cron: (what: string) => ParamSpec = (what) => ({
  type: 'string',
  description: `${what} as a cron expression in the given time zone, e.g. "0 23 * * 5" (Friday 23:00).`,
});
const cronTimezone: ParamSpec = {
  type: 'string',
  description: 'Time zone of the cron expressions, e.g. "UTC" or "Europe/Berlin" (default UTC).',
};
const deployAccessLevels: ParamSpec = {
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    properties: {
      access_level: {
        type: 'integer',
        enum: [30, 40, 60],
        description: '30 developer, 40 maintainer, 60 admin.',
      },
      user_id: { type: 'integer', minimum: 1 },
      group_id: { type: 'integer', minimum: 1 },
      group_inheritance_type: {
        type: 'integer',
        enum: [0, 1],
        description: '0 (default): direct group members only; 1: also members of subgroups.',
      },
      id: { type: 'integer', description: 'Existing entry to change (update only).' },
      _destroy: { type: 'boolean', description: 'true with id to remove the entry (update only).' },
    },
  },
  description:
    'Who may deploy: each entry gives one of access_level (30 developer, 40 maintainer, 60 admin), user_id or group_id, e.g. [{"access_level": 40}].',
};
const approvalRules: ParamSpec = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      access_level: { type: 'integer', enum: [30, 40, 60] },
      user_id: { type: 'integer', minimum: 1 },
      group_id: { type: 'integer', minimum: 1 },
      required_approvals: {
        type: 'integer',
        minimum: 1,
        description: 'Approvals needed from this rule (default 1).',
      },
      group_inheritance_type: {
        type: 'integer',
        enum: [0, 1],
        description: '0 (default): direct group members only; 1: also members of subgroups.',
      },
      id: { type: 'integer', description: 'Existing rule to change (update only).' },
      _destroy: { type: 'boolean', description: 'true with id to remove the rule (update only).' },
    },
  },
  description:
    'Deployment approval rules: who must approve and how many approvals, e.g. [{"group_id": 10, "required_approvals": 2}].',
};
const deploymentStatus: ParamSpec = {
  type: 'string',
  enum: ['running', 'success', 'failed', 'canceled'],
  description: 'Status of the deployment.',
};

/** An exact name or a name search: the instance takes at most one (mutually_exclusive on the list). */
const nameOrSearch = ['name', 'search'];
export const domain: DomainSpec = {
  domain: 'environment',
  metaTool: 'forge_environment',
  summary:
    'Environments and deployments: create, update, stop and delete environments, record and approve deployments, manage deploy freeze periods and protected environments.',
  actions: [
    {
      id: 'environment.create',
      title: 'Create environment',
      description:
        'Create a deployment environment (e.g. staging, production) in a project, with optional URL, tier and Kubernetes settings.',
      tool: 'forge_environment_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        name: { type: 'string', description: 'Environment name, e.g. "staging" or "review/feature-x".' },
        ...envSettings,
      },
      required: ['project_id', 'name'],
      // app/models/environment.rb: a namespace "cannot be set without a cluster agent", a Flux resource path "cannot be
      // set without a kubernetes namespace" (a 400 on create; an update may lean on what the environment has).
      needs: { kubernetes_namespace: ['cluster_agent_id'], flux_resource_path: ['kubernetes_namespace'] },
      request: { rest: { method: 'POST', path: '/projects/:project_id/environments' } },
      example: {
        project_id: '1',
        name: 'staging',
        external_url: 'https://staging.example.com',
        tier: 'staging',
      },
    },
    {
      id: 'environment.delete',
      title: 'Delete environment',
      description:
        'Delete an environment and its deployment history. Irreversible; the environment must be stopped first (environment.stop).',
      tool: 'forge_environment_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, environment_id: environmentId },
      required: ['project_id', 'environment_id'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/environments/:environment_id' } },
      example: { project_id: '1', environment_id: 1 },
    },
    {
      id: 'environment.deployment_approve_or_reject',
      title: 'Approve or reject deployment',
      description:
        "Approve or reject a deployment that is waiting on a protected environment's approval rules; enough approvals let the blocked deployment job run.",
      tool: 'forge_deployment_approve_or_reject',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        project_id: P.projectId,
        deployment_id: deploymentId,
        status: {
          type: 'string',
          enum: ['approved', 'rejected'],
          description: 'Your decision on the deployment.',
        },
        comment: { type: 'string', description: 'Reason or note attached to the approval or rejection.' },
        represented_as: {
          type: 'string',
          description:
            'Which approval rule you approve for when you belong to several, e.g. a group name or "maintainers".',
        },
      },
      required: ['project_id', 'deployment_id', 'status'],
      request: {
        rest: { method: 'POST', path: '/projects/:project_id/deployments/:deployment_id/approval' },
      },
      example: { project_id: '1', deployment_id: 1, status: 'approved', comment: 'Looks good' },
    },
    {
      id: 'environment.deployment_create',
      title: 'Record deployment',
      description:
        'Record a deployment of a commit to an environment (for deployments done outside CI jobs); the environment is created if missing.',
      tool: 'forge_deployment_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        environment: {
          type: 'string',
          description: 'Name of the environment deployed to, e.g. "production".',
        },
        sha: { ...P.sha, description: 'SHA of the commit that was deployed.' },
        ref: { type: 'string', description: 'Branch or tag name that was deployed, e.g. "main".' },
        tag: { type: 'boolean', description: 'true when ref is a tag, false when it is a branch.' },
        status: deploymentStatus,
      },
      required: ['project_id', 'environment', 'sha', 'ref', 'tag', 'status'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/deployments' } },
      example: {
        project_id: '1',
        environment: 'production',
        sha: 'a91957a858320c0e17f3a0eca7cfacbff50ea29a',
        ref: 'main',
        tag: false,
        status: 'success',
      },
    },
    {
      id: 'environment.deployment_delete',
      title: 'Delete deployment',
      description:
        "Delete a deployment record that is not the environment's current one and is finished. Irreversible.",
      tool: 'forge_deployment_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, deployment_id: deploymentId },
      required: ['project_id', 'deployment_id'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/deployments/:deployment_id' } },
      example: { project_id: '1', deployment_id: 1 },
    },
    {
      id: 'environment.deployment_get',
      title: 'Get deployment',
      description:
        'Show one deployment: environment, commit, ref, status, the job that deployed it, who triggered it and approval state.',
      tool: 'forge_deployment_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, deployment_id: deploymentId },
      required: ['project_id', 'deployment_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/deployments/:deployment_id' } },
      notFound: {
        object: 'Deployment',
        key: 'deployment_id',
        next: ['environment.deployment_list', 'environment.list'],
      },
      example: { project_id: '1', deployment_id: 1 },
    },
    {
      id: 'environment.deployment_list',
      title: 'List deployments',
      description:
        "List a project's deployments, filtered by environment, status or update/finish time; use it to see what was deployed where and when.",
      tool: 'forge_deployment_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        environment: {
          type: 'string',
          description: 'Only deployments to this environment name, e.g. "production".',
        },
        status: {
          type: 'string',
          enum: ['created', 'running', 'success', 'failed', 'canceled', 'skipped', 'blocked'],
          description: 'Only deployments with this status.',
        },
        order_by: {
          type: 'string',
          enum: ['id', 'iid', 'created_at', 'updated_at', 'finished_at'],
          description: 'Field to order by (default id). finished_at needs finished_after/finished_before.',
        },
        sort: { type: 'string', enum: ['asc', 'desc'], description: 'Sort direction (default asc).' },
        updated_after: {
          type: 'string',
          format: 'date-time',
          description: 'Only deployments updated after this time.',
        },
        updated_before: {
          type: 'string',
          format: 'date-time',
          description: 'Only deployments updated before this time.',
        },
        finished_after: {
          type: 'string',
          format: 'date-time',
          description:
            'Only deployments finished after this time (requires order_by finished_at and status success).',
        },
        finished_before: {
          type: 'string',
          format: 'date-time',
          description:
            'Only deployments finished before this time (requires order_by finished_at and status success).',
        },
        ...P.paging,
      },
      required: ['project_id'],
      // app/finders/deployments_finder.rb answers 400 to a finished_at filter without finished_at sorting and the
      // success status, and to finished_at sorting without a finished_at filter.
      needsValue: {
        finished_after: { order_by: ['finished_at'], status: ['success'] },
        finished_before: { order_by: ['finished_at'], status: ['success'] },
      },
      valueRequires: { order_by: { finished_at: [{ finished_after: true }, { finished_before: true }] } },
      request: { rest: { method: 'GET', path: '/projects/:project_id/deployments' } },
      example: { project_id: '1', environment: 'production', order_by: 'created_at', sort: 'desc' },
    },
    {
      id: 'environment.deployment_merge_requests',
      title: 'List merge requests in a deployment',
      description: `List the merge requests shipped by a deployment (those whose changes it deployed for the first time), filtered as merge_request.list filters (state, author, labels, branches, text, dates). ${P.atMostOne(P.mrBasePairs)}`,
      tool: 'forge_list_deployment_merge_requests',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, deployment_id: deploymentId, ...P.mrBaseFilters },
      required: ['project_id', 'deployment_id'],
      exclusive: P.mrBasePairs,
      request: {
        rest: { method: 'GET', path: '/projects/:project_id/deployments/:deployment_id/merge_requests' },
      },
      example: { project_id: '1', deployment_id: 1 },
    },
    {
      id: 'environment.deployment_update',
      title: 'Update deployment status',
      description:
        'Set the status of a deployment recorded through the API (running, success, failed or canceled), e.g. to mark an external deploy as finished.',
      tool: 'forge_deployment_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, deployment_id: deploymentId, status: deploymentStatus },
      required: ['project_id', 'deployment_id', 'status'],
      request: { rest: { method: 'PUT', path: '/projects/:project_id/deployments/:deployment_id' } },
      example: { project_id: '1', deployment_id: 1, status: 'success' },
    },
    {
      id: 'environment.freeze_create',
      title: 'Create deploy freeze period',
      description:
        'Create a deploy freeze window (cron start and end) during which CI marks deployments as frozen via CI_DEPLOY_FREEZE, e.g. for weekends or holidays.',
      tool: 'forge_create_freeze_period',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        freeze_start: cron('Start of the freeze'),
        freeze_end: cron('End of the freeze'),
        cron_timezone: cronTimezone,
      },
      required: ['project_id', 'freeze_start', 'freeze_end'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/freeze_periods' } },
      example: { project_id: '1', freeze_start: '0 23 * * 5', freeze_end: '0 7 * * 1', cron_timezone: 'UTC' },
    },
    {
      id: 'environment.freeze_delete',
      title: 'Delete deploy freeze period',
      description:
        'Delete a deploy freeze period so deployments are no longer frozen in that window. Irreversible.',
      tool: 'forge_delete_freeze_period',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, freeze_period_id: freezePeriodId },
      required: ['project_id', 'freeze_period_id'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/freeze_periods/:freeze_period_id' } },
      example: { project_id: '1', freeze_period_id: 1 },
    },
    {
      id: 'environment.freeze_get',
      title: 'Get deploy freeze period',
      description: 'Show one deploy freeze period: its cron start, cron end and time zone.',
      tool: 'forge_get_freeze_period',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, freeze_period_id: freezePeriodId },
      required: ['project_id', 'freeze_period_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/freeze_periods/:freeze_period_id' } },
      example: { project_id: '1', freeze_period_id: 1 },
    },
    {
      id: 'environment.freeze_list',
      title: 'List deploy freeze periods',
      description:
        'List the deploy freeze periods of a project (windows when deployments should not happen).',
      tool: 'forge_list_freeze_periods',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, ...P.paging },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/freeze_periods' } },
      example: { project_id: '1' },
    },
    {
      id: 'environment.freeze_update',
      title: 'Update deploy freeze period',
      description: 'Change the start, end or time zone of a deploy freeze period.',
      tool: 'forge_update_freeze_period',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        freeze_period_id: freezePeriodId,
        freeze_start: cron('Start of the freeze'),
        freeze_end: cron('End of the freeze'),
        cron_timezone: cronTimezone,
      },
      required: ['project_id', 'freeze_period_id'],
      request: { rest: { method: 'PUT', path: '/projects/:project_id/freeze_periods/:freeze_period_id' } },
      example: { project_id: '1', freeze_period_id: 1, freeze_end: '0 8 * * 1' },
    },
    {
      id: 'environment.get',
      title: 'Get environment',
      description:
        'Show one environment: name, state, tier, external URL, last deployment and Kubernetes settings.',
      tool: 'forge_environment_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, environment_id: environmentId },
      required: ['project_id', 'environment_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/environments/:environment_id' } },
      notFound: { object: 'Environment', key: 'environment_id', next: ['environment.list'] },
      example: { project_id: '1', environment_id: 1 },
    },
    {
      id: 'environment.list',
      title: 'List environments',
      description: `List a project's environments, optionally by exact name, name search or state; use it to find an environment ID. ${P.atMostOne([nameOrSearch])}`,
      tool: 'forge_environment_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        name: {
          type: 'string',
          description: 'Only the environment with exactly this name (not with search).',
        },
        search: {
          type: 'string',
          minLength: 3,
          description: 'Only environments whose name contains this text (3+ characters; not with name).',
        },
        states: {
          type: 'string',
          enum: ['available', 'stopping', 'stopped'],
          description: 'Only environments in this state.',
        },
        ...P.paging,
      },
      required: ['project_id'],
      exclusive: [nameOrSearch],
      request: { rest: { method: 'GET', path: '/projects/:project_id/environments' } },
      example: { project_id: '1', states: 'available' },
    },
    {
      id: 'environment.protected_get',
      title: 'Get protected environment',
      description: 'Show who may deploy to a protected environment and its deployment approval rules.',
      tool: 'forge_protected_environment_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { project_id: P.projectId, name: protectedName },
      required: ['project_id', 'name'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/protected_environments/:name' } },
      notFound: {
        object: 'Protected environment',
        key: 'name',
        next: ['environment.protected_list', 'environment.list'],
      },
      example: { project_id: '1', name: 'production' },
    },
    {
      id: 'environment.protected_list',
      title: 'List protected environments',
      description:
        "List a project's protected environments with their deploy access levels and approval rules.",
      tool: 'forge_protected_environment_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: { project_id: P.projectId, ...P.paging },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/protected_environments' } },
      example: { project_id: '1' },
    },
    {
      id: 'environment.protected_protect',
      title: 'Protect environment',
      description:
        'Protect an environment so only chosen roles, users or groups can deploy to it, optionally requiring deployment approvals.',
      tool: 'forge_protected_environment_protect',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      params: {
        project_id: P.projectId,
        name: { ...protectedName, description: 'Name of the environment to protect, e.g. "production".' },
        deploy_access_levels: deployAccessLevels,
        approval_rules: approvalRules,
      },
      required: ['project_id', 'name', 'deploy_access_levels'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/protected_environments' } },
      example: { project_id: '1', name: 'production', deploy_access_levels: [{ access_level: 40 }] },
    },
    {
      id: 'environment.protected_unprotect',
      title: 'Unprotect environment',
      description:
        'Remove the protection from an environment; anyone with developer access can deploy again and its approval rules are deleted.',
      tool: 'forge_protected_environment_unprotect',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: { project_id: P.projectId, name: protectedName },
      required: ['project_id', 'name'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/protected_environments/:name' } },
      example: { project_id: '1', name: 'production' },
    },
    {
      id: 'environment.protected_update',
      title: 'Update protected environment',
      description:
        'Change who may deploy to a protected environment or its approval rules; entries with id and _destroy true are removed.',
      tool: 'forge_protected_environment_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      params: {
        project_id: P.projectId,
        name: protectedName,
        deploy_access_levels: { ...deployAccessLevels, minItems: 0 },
        approval_rules: approvalRules,
      },
      required: ['project_id', 'name'],
      request: { rest: { method: 'PUT', path: '/projects/:project_id/protected_environments/:name' } },
      example: {
        project_id: '1',
        name: 'production',
        approval_rules: [{ access_level: 40, required_approvals: 1 }],
      },
    },
    {
      id: 'environment.stop',
      title: 'Stop environment',
      description:
        'Stop an environment: runs its on_stop job (which typically tears down the deployed app) and marks it stopped. Required before environment.delete.',
      tool: 'forge_environment_stop',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        environment_id: environmentId,
        force: {
          type: 'boolean',
          description: 'true to stop immediately without running the on_stop job. Default false.',
        },
      },
      required: ['project_id', 'environment_id'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/environments/:environment_id/stop' } },
      example: { project_id: '1', environment_id: 1 },
    },
    {
      id: 'environment.update',
      title: 'Update environment',
      description:
        "Change an environment's external URL, tier, description, auto-stop setting or Kubernetes settings (the name cannot be changed).",
      tool: 'forge_environment_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        environment_id: environmentId,
        ...envSettings,
        cluster_agent_id: {
          type: ['integer', 'null'],
          minimum: 1,
          description:
            'ID of the Kubernetes agent used to show cluster resources for this environment; null to detach it.',
        },
        kubernetes_namespace: {
          type: ['string', 'null'],
          description: 'Kubernetes namespace tied to the environment (needs an agent); null to clear it.',
        },
        flux_resource_path: {
          type: ['string', 'null'],
          description:
            'Full Flux resource path, e.g. "helm.toolkit.fluxcd.io/v2/namespaces/app/helmreleases/app"; null to clear it.',
        },
      },
      required: ['project_id', 'environment_id'],
      request: { rest: { method: 'PUT', path: '/projects/:project_id/environments/:environment_id' } },
      example: { project_id: '1', environment_id: 1, external_url: 'https://www.example.com' },
    },
  ],
};
