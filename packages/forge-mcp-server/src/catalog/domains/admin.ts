import type { ActionSpec, DomainSpec, HttpMethod, ParamSpec, Tier } from '../types.js';
import * as P from '../params.js';
import { str, int, bool, dateTime } from '../params.js';

interface Def {
  title: string;
  description: string;
  method: HttpMethod;
  path: string | string[];
  params?: Record<string, ParamSpec>;
  required?: string[];
  oneOf?: string[][];
  exclusive?: string[][];
  example?: Record<string, unknown>;
  /** r: read; w: write; d: destructive write. */
  kind: 'r' | 'w' | 'd';
  idempotent?: boolean;
  tier?: Tier;
  notFound?: ActionSpec['notFound'];
  request?: ActionSpec['request'];
}

/** Every admin action is gated by the admin_mode group; reads need read_api, writes api. */
function admin(id: string, tool: string, d: Def): ActionSpec {
  const write = d.kind !== 'r';
  return {
    id: `admin.${id}`,
    title: d.title,
    description: d.description,
    tool,
    write,
    destructive: d.kind === 'd',
    idempotent: d.idempotent ?? (d.kind !== 'w' || d.method === 'PUT' || d.method === 'PATCH'),
    tier: d.tier ?? 'free',
    scope: write ? 'api' : 'read_api',
    adminGroup: 'forge_admin',
    params: d.params ?? {},
    ...(d.required ? { required: d.required } : {}),
    ...(d.oneOf ? { oneOf: d.oneOf } : {}),
    ...(d.exclusive ? { exclusive: d.exclusive } : {}),
    request: d.request ?? { rest: { method: d.method, path: d.path } },
    ...(d.notFound ? { notFound: d.notFound } : {}),
    example: d.example ?? {},
  };
}

const project = { project_id: P.projectId };
const alertIid = int('IID of the alert within the project (the number shown on the alert).');
const metricImageId = int('ID of the metric image, from admin.alert_metric_image_list.');
const metricImageFields: Record<string, ParamSpec> = {
  url: str('Link to the chart the image was taken from, e.g. a Grafana panel URL.'),
  url_text: str('Text shown for that link.'),
};
const applicationId = int(
  'ID of the OAuth application (the numeric id from admin.application_list, not its client ID).',
);
const broadcastId = int('ID of the broadcast message.');
const broadcastFields: Record<string, ParamSpec> = {
  message: str('Message text; Markdown-like links are allowed.'),
  starts_at: dateTime('When it starts showing, ISO 8601 (default now).'),
  ends_at: dateTime('When it stops showing, ISO 8601 (default one hour from now).'),
  broadcast_type: str('banner (top of every page) or notification (dismissable pop-up).', {
    enum: ['banner', 'notification'],
  }),
  theme: str('Color theme of the message.', {
    enum: [
      'indigo',
      'light-indigo',
      'blue',
      'light-blue',
      'green',
      'light-green',
      'red',
      'light-red',
      'dark',
      'light',
    ],
  }),
  dismissable: bool('Whether users can dismiss it.'),
  target_access_levels: {
    type: 'array',
    items: { type: 'integer', enum: [10, 15, 20, 25, 30, 40, 50] },
    description:
      'Show only to members with these roles: 10 Guest, 15 Planner, 20 Reporter, 25 Security Manager, 30 Developer, 40 Maintainer, 50 Owner.',
  },
  target_path: str('Show only on pages whose path matches, wildcards allowed, e.g. "*/welcome".'),
};
const importId = int('ID of the group or project migration (bulk import), from admin.bulk_import_list.');
const entityId = int('ID of one migrated group or project (entity) of the import.');
const importStatus = str('Only imports in this state.', {
  enum: ['created', 'started', 'finished', 'timeout', 'failed', 'canceled'],
});
const agentId = int('ID of the cluster agent, from admin.cluster_agent_list.');
const tokenId = int('ID of the agent token, from admin.cluster_agent_token_list.');
const attrOwners: Record<string, ParamSpec> = {
  user_id: { ...P.userId, description: 'Numeric ID of the user carrying the attribute.' },
  group_id: P.groupId,
  project_id: P.projectId,
};
const attrOneOf = [['user_id', 'group_id', 'project_id']];
const attrKey = str('Name of the custom attribute, e.g. "department".');
const clientKeyId = int('ID of the error tracking client key, from admin.error_tracking_list.');
const featureName = str('Name of the feature flag, e.g. "my_feature" (see admin.feature_list_definitions).');
const licenseId = int('ID of the license, from admin.license_get.');
const secureFileId = int('ID of the secure file, from admin.secure_file_list.');
const hookId = int('ID of the system hook, from admin.system_hook_list.');
const hookFields: Record<string, ParamSpec> = {
  url: str('URL the events are POSTed to, e.g. "https://hooks.example.com/gitlab".'),
  name: str('Name of the hook.'),
  description: str('What the hook is for.'),
  token: str('Secret sent in the X-Gitlab-Token header so the receiver can check the sender.'),
  push_events: bool('Send repository push events.'),
  push_events_branch_filter: str(
    'Only send push events for branches matching this filter, e.g. "main" or "release/*" (see branch_filter_strategy).',
  ),
  branch_filter_strategy: str('How push_events_branch_filter is read (default wildcard).', {
    enum: ['wildcard', 'regex', 'all_branches'],
  }),
  tag_push_events: bool('Send tag push events.'),
  merge_requests_events: bool('Send merge request events.'),
  repository_update_events: bool('Send repository update events.'),
  enable_ssl_verification: bool('Verify the TLS certificate of the receiver (default true).'),
  custom_webhook_template: str('Custom JSON template for the request payload, in place of the default one.'),
};
const urlVariableKey = str('Name of the URL variable, used as {key} in the hook URL.');
const stateName = str('Name of the Terraform state, e.g. "production".');
const topicId = int('ID of the topic, from admin.topic_list.');
const topicFields: Record<string, ParamSpec> = {
  name: str('Slug of the topic, e.g. "machine-learning".'),
  title: str('Display title of the topic, e.g. "Machine learning".'),
  description: str('Description of the topic.'),
};
const planName = str('Plan whose limits to read or change.', {
  enum: [
    'default',
    'free',
    'bronze',
    'silver',
    'premium',
    'gold',
    'ultimate',
    'ultimate_trial',
    'ultimate_trial_paid_customer',
    'premium_trial',
    'opensource',
  ],
});
const sizeLimit = (what: string): ParamSpec => ({
  type: 'integer',
  minimum: 0,
  description: `Maximum ${what} (0 for no limit where the instance allows).`,
});
const TERRAFORM_STATE = `id
      name
      lockedAt
      lockedByUser { username }
      createdAt
      updatedAt
      latestVersion { serial createdAt downloadPath job { name } createdByUser { username } }`;

const actions: ActionSpec[] = [
  admin('alert_metric_image_delete', 'forge_delete_alert_metric_image', {
    kind: 'd',
    method: 'DELETE',
    path: '/projects/:project_id/alert_management_alerts/:alert_iid/metric_images/:metric_image_id',
    title: 'Delete alert metric image',
    description: 'Delete a metric chart image attached to an alert. Irreversible.',
    params: { ...project, alert_iid: alertIid, metric_image_id: metricImageId },
    required: ['project_id', 'alert_iid', 'metric_image_id'],
    example: { project_id: '1', alert_iid: 1, metric_image_id: 1 },
  }),
  admin('alert_metric_image_list', 'forge_list_alert_metric_images', {
    kind: 'r',
    method: 'GET',
    path: '/projects/:project_id/alert_management_alerts/:alert_iid/metric_images',
    title: 'List alert metric images',
    description: 'List the metric chart images attached to an alert, with their links.',
    // The instance answers every image at once (no paging).
    params: { ...project, alert_iid: alertIid },
    required: ['project_id', 'alert_iid'],
    example: { project_id: '1', alert_iid: 1 },
  }),
  admin('alert_metric_image_update', 'forge_update_alert_metric_image', {
    kind: 'w',
    method: 'PUT',
    path: '/projects/:project_id/alert_management_alerts/:alert_iid/metric_images/:metric_image_id',
    title: 'Update alert metric image',
    description: 'Change the link or link text of a metric image attached to an alert.',
    params: { ...project, alert_iid: alertIid, metric_image_id: metricImageId, ...metricImageFields },
    required: ['project_id', 'alert_iid', 'metric_image_id'],
    example: { project_id: '1', alert_iid: 1, metric_image_id: 1, url_text: 'CPU panel' },
  }),
  admin('alert_metric_image_upload', 'forge_upload_alert_metric_image', {
    kind: 'w',
    method: 'POST',
    path: '/projects/:project_id/alert_management_alerts/:alert_iid/metric_images',
    title: 'Upload alert metric image',
    description:
      'Attach a metric chart image (screenshot of a dashboard) to an alert, optionally with a link to the live chart.',
    params: {
      ...project,
      alert_iid: alertIid,
      file: { type: 'string', in: 'file', description: 'The image, base64-encoded (PNG or JPEG).' },
      filename: { type: 'string', in: 'none', description: 'File name for the upload, e.g. "cpu.png".' },
      url: { ...metricImageFields.url, in: 'form' },
      url_text: { ...metricImageFields.url_text, in: 'form' },
    },
    required: ['project_id', 'alert_iid', 'file'],
    example: { project_id: '1', alert_iid: 1, file: 'iVBORw0KGgo=', filename: 'cpu.png' },
  }),
  admin('app_statistics_get', 'forge_get_application_statistics', {
    kind: 'r',
    method: 'GET',
    path: '/application/statistics',
    title: 'Get instance statistics',
    description:
      'Count the objects of the instance: users, active users, projects, groups, issues, merge requests, forks, notes, snippets, SSH keys, milestones.',
  }),
  admin('appearance_get', 'forge_get_appearance', {
    kind: 'r',
    method: 'GET',
    path: '/application/appearance',
    title: 'Get instance appearance',
    description:
      'Read the branding of the instance: sign-in page title and text, header and footer messages, colors, PWA names, logo URLs.',
  }),
  admin('appearance_update', 'forge_update_appearance', {
    kind: 'w',
    method: 'PUT',
    path: '/application/appearance',
    title: 'Update instance appearance',
    description:
      'Change the branding of the instance: sign-in page title and description, system header and footer messages and their colors, PWA names, guideline texts.',
    params: {
      title: str('Title on the sign-in page.'),
      description: str('Markdown text on the sign-in page.'),
      pwa_name: str('Full name of the installed web app.'),
      pwa_short_name: str('Short name of the installed web app.'),
      pwa_description: str('Description of the installed web app.'),
      header_message: str('System message shown at the top of every page.'),
      footer_message: str('System message shown at the bottom of every page.'),
      message_background_color: str('Background color of the system messages, e.g. "#E75E40".'),
      message_font_color: str('Text color of the system messages, e.g. "#FFFFFF".'),
      email_header_and_footer_enabled: bool('Also add the header and footer messages to outgoing emails.'),
      new_project_guidelines: str('Markdown shown on the new project page.'),
      profile_image_guidelines: str('Markdown shown next to the profile picture upload.'),
      member_guidelines: str('Markdown shown to members managing group or project members.'),
    },
    example: { header_message: 'Maintenance tonight 22:00 UTC', message_background_color: '#E75E40' },
  }),
  admin('application_create', 'forge_create_application', {
    kind: 'w',
    method: 'POST',
    path: '/applications',
    title: 'Create OAuth application',
    description:
      'Register an instance-wide OAuth application; answers its client ID and secret (the secret is shown only now).',
    params: {
      name: str('Name of the application, e.g. "CI dashboard".'),
      redirect_uri: str('Callback URL(s), one per line, e.g. "https://dash.example.com/callback".'),
      scopes: str('Space-separated scopes it may request, e.g. "read_api read_user openid".', {
        minLength: 1,
      }),
      confidential: bool(
        'true (default) if it can keep the secret private (server-side app); false for mobile or single-page apps.',
      ),
    },
    required: ['name', 'redirect_uri', 'scopes'],
    example: { name: 'CI dashboard', redirect_uri: 'https://dash.example.com/callback', scopes: 'read_api' },
  }),
  admin('application_delete', 'forge_delete_application', {
    kind: 'd',
    method: 'DELETE',
    path: '/applications/:application_id',
    title: 'Delete OAuth application',
    description:
      'Delete an instance-wide OAuth application; every token it issued stops working. Irreversible.',
    params: { application_id: applicationId },
    required: ['application_id'],
    example: { application_id: 1 },
  }),
  admin('application_list', 'forge_list_applications', {
    kind: 'r',
    method: 'GET',
    path: '/applications',
    title: 'List OAuth applications',
    description:
      'List the instance-wide OAuth applications with their client IDs, callback URLs and confidentiality (never the secrets).',
    // The instance answers every application at once (no paging).
    params: {},
  }),
  admin('application_renew_secret', 'forge_admin_application_renew_secret', {
    kind: 'w',
    method: 'POST',
    path: '/applications/:application_id/renew-secret',
    title: 'Renew OAuth application secret',
    description:
      'Generate a new client secret for an OAuth application and answer it; the old secret stops working, so the app must be reconfigured.',
    params: { application_id: applicationId },
    required: ['application_id'],
    idempotent: false,
    example: { application_id: 1 },
  }),
  admin('broadcast_message_create', 'forge_create_broadcast_message', {
    kind: 'w',
    method: 'POST',
    path: '/broadcast_messages',
    title: 'Create broadcast message',
    description:
      'Announce something to all users (or some roles or pages) with a banner or notification for a time window, e.g. planned maintenance.',
    params: broadcastFields,
    required: ['message'],
    example: {
      message: 'Maintenance tonight 22:00 UTC',
      broadcast_type: 'banner',
      ends_at: '2030-01-01T23:00:00Z',
    },
  }),
  admin('broadcast_message_delete', 'forge_delete_broadcast_message', {
    kind: 'd',
    method: 'DELETE',
    path: '/broadcast_messages/:broadcast_message_id',
    title: 'Delete broadcast message',
    description: 'Delete a broadcast message so it no longer shows. Irreversible.',
    params: { broadcast_message_id: broadcastId },
    required: ['broadcast_message_id'],
    example: { broadcast_message_id: 1 },
  }),
  admin('broadcast_message_get', 'forge_get_broadcast_message', {
    kind: 'r',
    method: 'GET',
    path: '/broadcast_messages/:broadcast_message_id',
    title: 'Get broadcast message',
    description: 'Read one broadcast message: text, time window, type, theme and targeting.',
    params: { broadcast_message_id: broadcastId },
    required: ['broadcast_message_id'],
    example: { broadcast_message_id: 1 },
  }),
  admin('broadcast_message_list', 'forge_list_broadcast_messages', {
    kind: 'r',
    method: 'GET',
    path: '/broadcast_messages',
    title: 'List broadcast messages',
    description: 'List all broadcast messages, current, upcoming and past.',
    params: { ...P.paging },
  }),
  admin('broadcast_message_update', 'forge_update_broadcast_message', {
    kind: 'w',
    method: 'PUT',
    path: '/broadcast_messages/:broadcast_message_id',
    title: 'Update broadcast message',
    description: 'Change the text, time window, type, theme or targeting of a broadcast message.',
    params: { broadcast_message_id: broadcastId, ...broadcastFields },
    required: ['broadcast_message_id'],
    example: { broadcast_message_id: 1, ends_at: '2030-01-02T02:00:00Z' },
  }),
  admin('bulk_import_cancel', 'forge_cancel_bulk_import', {
    kind: 'w',
    method: 'POST',
    path: '/bulk_imports/:import_id/cancel',
    title: 'Cancel group/project migration',
    description: 'Stop a running direct-transfer migration; what was already imported stays.',
    params: { import_id: importId },
    required: ['import_id'],
    idempotent: true,
    example: { import_id: 1 },
  }),
  admin('bulk_import_entity_failures', 'forge_list_bulk_import_entity_failures', {
    kind: 'r',
    method: 'GET',
    path: '/bulk_imports/:import_id/entities/:entity_id/failures',
    title: 'List migration failures of an entity',
    description:
      'List what failed to import for one migrated group or project: the relation, the error and the source URL.',
    params: { import_id: importId, entity_id: entityId },
    required: ['import_id', 'entity_id'],
    example: { import_id: 1, entity_id: 1 },
  }),
  admin('bulk_import_entity_get', 'forge_get_bulk_import_entity', {
    kind: 'r',
    method: 'GET',
    path: '/bulk_imports/:import_id/entities/:entity_id',
    title: 'Get migrated entity',
    description:
      'Read the state of one group or project inside a migration: source and destination path, status, statistics.',
    params: { import_id: importId, entity_id: entityId },
    required: ['import_id', 'entity_id'],
    example: { import_id: 1, entity_id: 1 },
  }),
  admin('bulk_import_entity_list', 'forge_list_bulk_import_entities', {
    kind: 'r',
    method: 'GET',
    path: ['/bulk_imports/:import_id/entities', '/bulk_imports/entities'],
    title: 'List migrated entities',
    description:
      'List the groups and projects being migrated, of one migration (import_id) or of all your migrations, with their status.',
    params: {
      import_id: {
        ...importId,
        description: 'Only the entities of this migration; leave out for all migrations.',
      },
      status: importStatus,
      sort: {
        ...P.orderSort.sort,
        description:
          'Order by creation time (default desc); read across all migrations only (the instance ignores it with import_id).',
      },
      ...P.paging,
    },
    example: { import_id: 1, status: 'failed' },
  }),
  admin('bulk_import_get', 'forge_get_bulk_import', {
    kind: 'r',
    method: 'GET',
    path: '/bulk_imports/:import_id',
    title: 'Get group/project migration',
    description: 'Read the state of one direct-transfer migration: source type, status, start and end.',
    params: { import_id: importId },
    required: ['import_id'],
    example: { import_id: 1 },
  }),
  admin('bulk_import_list', 'forge_list_bulk_imports', {
    kind: 'r',
    method: 'GET',
    path: '/bulk_imports',
    title: 'List group/project migrations',
    description:
      'List your direct-transfer migrations of groups and projects from another instance, filtered by status.',
    params: {
      status: importStatus,
      sort: { ...P.orderSort.sort, description: 'Order by creation time (default desc).' },
      ...P.paging,
    },
    example: { status: 'started' },
  }),
  admin('bulk_import_start', 'forge_start_bulk_import', {
    kind: 'w',
    method: 'POST',
    path: '/bulk_imports',
    title: 'Start group/project migration',
    description:
      'Migrate groups and projects from another instance by direct transfer, using an access token on the source; runs in the background (follow it with admin.bulk_import_get).',
    params: {
      configuration: {
        type: 'object',
        properties: { url: { type: 'string' }, access_token: { type: 'string' } },
        required: ['url', 'access_token'],
        description:
          'Source instance: {"url": "https://source.example.com", "access_token": "<token with api scope>"}.',
      },
      entities: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          properties: {
            source_type: { type: 'string', enum: ['group_entity', 'project_entity'] },
            source_full_path: { type: 'string' },
            destination_slug: { type: 'string' },
            destination_namespace: { type: 'string' },
            migrate_projects: { type: 'boolean' },
            migrate_memberships: { type: 'boolean' },
          },
          required: ['source_type', 'source_full_path', 'destination_slug', 'destination_namespace'],
        },
        description:
          'What to migrate, e.g. [{"source_type": "group_entity", "source_full_path": "old/team", "destination_slug": "team", "destination_namespace": "acme"}].',
      },
    },
    required: ['configuration', 'entities'],
    example: {
      configuration: { url: 'https://source.example.com', access_token: 'glpat-example' },
      entities: [
        {
          source_type: 'group_entity',
          source_full_path: 'old/team',
          destination_slug: 'team',
          destination_namespace: 'acme',
        },
      ],
    },
  }),
  admin('cluster_agent_delete', 'forge_delete_cluster_agent', {
    kind: 'd',
    method: 'DELETE',
    path: '/projects/:project_id/cluster_agents/:agent_id',
    title: 'Delete cluster agent',
    description:
      'Unregister a Kubernetes cluster agent and revoke its tokens; the cluster loses its connection. Irreversible.',
    params: { ...project, agent_id: agentId },
    required: ['project_id', 'agent_id'],
    example: { project_id: '1', agent_id: 1 },
  }),
  admin('cluster_agent_get', 'forge_get_cluster_agent', {
    kind: 'r',
    method: 'GET',
    path: '/projects/:project_id/cluster_agents/:agent_id',
    title: 'Get cluster agent',
    description:
      'Read one Kubernetes cluster agent registered in a project: name, creator and configuration project.',
    params: { ...project, agent_id: agentId },
    required: ['project_id', 'agent_id'],
    example: { project_id: '1', agent_id: 1 },
  }),
  admin('cluster_agent_list', 'forge_list_cluster_agents', {
    kind: 'r',
    method: 'GET',
    path: '/projects/:project_id/cluster_agents',
    title: 'List cluster agents',
    description: 'List the Kubernetes cluster agents registered in a project.',
    params: { ...project, ...P.paging },
    required: ['project_id'],
    example: { project_id: '1' },
  }),
  admin('cluster_agent_register', 'forge_register_cluster_agent', {
    kind: 'w',
    method: 'POST',
    path: '/projects/:project_id/cluster_agents',
    title: 'Register cluster agent',
    description:
      'Register a Kubernetes cluster agent in a project by name (matching .gitlab/agents/<name>/); then create a token for it with admin.cluster_agent_token_create.',
    params: { ...project, name: str('Agent name, e.g. "production-agent".') },
    required: ['project_id', 'name'],
    example: { project_id: '1', name: 'production-agent' },
  }),
  admin('cluster_agent_token_create', 'forge_create_cluster_agent_token', {
    kind: 'w',
    method: 'POST',
    path: '/projects/:project_id/cluster_agents/:agent_id/tokens',
    title: 'Create cluster agent token',
    description:
      'Create a token the agent uses to connect from the cluster; the token value is answered only now. An agent holds at most two active tokens.',
    params: {
      ...project,
      agent_id: agentId,
      name: str('Name of the token, e.g. "prod-2025".'),
      description: str('What the token is for.'),
    },
    required: ['project_id', 'agent_id', 'name'],
    example: { project_id: '1', agent_id: 1, name: 'prod-2025' },
  }),
  admin('cluster_agent_token_get', 'forge_get_cluster_agent_token', {
    kind: 'r',
    method: 'GET',
    path: '/projects/:project_id/cluster_agents/:agent_id/tokens/:token_id',
    title: 'Get cluster agent token',
    description: 'Read one agent token: name, status, creator and last use (never the token value).',
    params: { ...project, agent_id: agentId, token_id: tokenId },
    required: ['project_id', 'agent_id', 'token_id'],
    example: { project_id: '1', agent_id: 1, token_id: 1 },
  }),
  admin('cluster_agent_token_list', 'forge_list_cluster_agent_tokens', {
    kind: 'r',
    method: 'GET',
    path: '/projects/:project_id/cluster_agents/:agent_id/tokens',
    title: 'List cluster agent tokens',
    description: 'List the active tokens of a cluster agent with their last use.',
    params: { ...project, agent_id: agentId, ...P.paging },
    required: ['project_id', 'agent_id'],
    example: { project_id: '1', agent_id: 1 },
  }),
  admin('cluster_agent_token_revoke', 'forge_revoke_cluster_agent_token', {
    kind: 'd',
    method: 'DELETE',
    path: '/projects/:project_id/cluster_agents/:agent_id/tokens/:token_id',
    title: 'Revoke cluster agent token',
    description: 'Revoke an agent token; an agent still using it is disconnected. Irreversible.',
    params: { ...project, agent_id: agentId, token_id: tokenId },
    required: ['project_id', 'agent_id', 'token_id'],
    example: { project_id: '1', agent_id: 1, token_id: 1 },
  }),
  admin('custom_attr_delete', 'forge_delete_custom_attribute', {
    kind: 'd',
    method: 'DELETE',
    path: [
      '/users/:user_id/custom_attributes/:key',
      '/groups/:group_id/custom_attributes/:key',
      '/projects/:project_id/custom_attributes/:key',
    ],
    title: 'Delete custom attribute',
    description:
      'Delete a custom attribute (key/value metadata) of a user, group or project; give exactly one of user_id, group_id, project_id. Irreversible.',
    params: { ...attrOwners, key: attrKey },
    required: ['key'],
    oneOf: attrOneOf,
    example: { user_id: 2, key: 'department' },
  }),
  admin('custom_attr_get', 'forge_get_custom_attribute', {
    kind: 'r',
    method: 'GET',
    path: [
      '/users/:user_id/custom_attributes/:key',
      '/groups/:group_id/custom_attributes/:key',
      '/projects/:project_id/custom_attributes/:key',
    ],
    title: 'Get custom attribute',
    description:
      'Read one custom attribute of a user, group or project by key; give exactly one of user_id, group_id, project_id.',
    params: { ...attrOwners, key: attrKey },
    required: ['key'],
    oneOf: attrOneOf,
    example: { group_id: '10', key: 'cost_center' },
  }),
  admin('custom_attr_list', 'forge_list_custom_attributes', {
    kind: 'r',
    method: 'GET',
    path: [
      '/users/:user_id/custom_attributes',
      '/groups/:group_id/custom_attributes',
      '/projects/:project_id/custom_attributes',
    ],
    title: 'List custom attributes',
    description:
      'List the custom attributes (administrator-set key/value metadata) of a user, group or project; give exactly one of user_id, group_id, project_id.',
    // The instance answers every attribute at once (no paging).
    params: { ...attrOwners },
    oneOf: attrOneOf,
    example: { project_id: '1' },
  }),
  admin('custom_attr_set', 'forge_set_custom_attribute', {
    kind: 'w',
    method: 'PUT',
    path: [
      '/users/:user_id/custom_attributes/:key',
      '/groups/:group_id/custom_attributes/:key',
      '/projects/:project_id/custom_attributes/:key',
    ],
    title: 'Set custom attribute',
    description:
      'Create or overwrite a custom attribute (key/value metadata) on a user, group or project; give exactly one of user_id, group_id, project_id. Users can be filtered by these attributes in user lists.',
    params: { ...attrOwners, key: attrKey, value: str('Value to store, e.g. "engineering".') },
    required: ['key', 'value'],
    oneOf: attrOneOf,
    example: { user_id: 2, key: 'department', value: 'engineering' },
  }),
  admin('db_migration_mark', 'forge_mark_migration', {
    kind: 'w',
    method: 'POST',
    path: '/admin/migrations/:timestamp/mark',
    title: 'Mark database migration as done',
    description:
      'Record a database migration as already run without running it, to recover from a failed upgrade. Use only when told to by upgrade instructions.',
    params: {
      timestamp: str('Version (timestamp) of the migration, e.g. "20240101000000".', {
        pattern: '^\\d{14}$',
      }),
      database: str('Database the migration belongs to (default main).', {
        enum: ['main', 'ci', 'sec', 'embedding', 'geo'],
      }),
    },
    required: ['timestamp'],
    idempotent: true,
    example: { timestamp: '20240101000000' },
  }),
  admin('dependency_proxy_delete', 'forge_purge_dependency_proxy', {
    kind: 'd',
    method: 'DELETE',
    path: '/groups/:group_id/dependency_proxy/cache',
    title: 'Purge dependency proxy cache',
    description:
      "Delete every cached image and manifest of a group's dependency proxy (runs in the background); they are fetched again from the upstream on next use. At most once an hour per group: a second call within the hour is refused (409 Conflict). Irreversible.",
    params: { group_id: P.groupId },
    required: ['group_id'],
    example: { group_id: '10' },
  }),
  admin('error_tracking_create', 'forge_create_error_tracking_client_key', {
    kind: 'w',
    method: 'POST',
    path: '/projects/:project_id/error_tracking/client_keys',
    title: 'Create error tracking client key',
    description:
      "Create a client key (DSN) for a project's integrated error tracking, to configure a Sentry SDK.",
    params: { ...project },
    required: ['project_id'],
    example: { project_id: '1' },
  }),
  admin('error_tracking_delete', 'forge_delete_error_tracking_client_key', {
    kind: 'd',
    method: 'DELETE',
    path: '/projects/:project_id/error_tracking/client_keys/:key_id',
    title: 'Delete error tracking client key',
    description:
      'Delete an error tracking client key; SDKs using its DSN can no longer report errors. Irreversible.',
    params: { ...project, key_id: clientKeyId },
    required: ['project_id', 'key_id'],
    example: { project_id: '1', key_id: 1 },
  }),
  admin('error_tracking_get_settings', 'forge_get_error_tracking_settings', {
    kind: 'r',
    method: 'GET',
    path: '/projects/:project_id/error_tracking/settings',
    title: 'Get error tracking settings',
    description:
      'Read whether error tracking is on for a project and whether it uses the integrated backend or a Sentry instance.',
    params: { ...project },
    required: ['project_id'],
    example: { project_id: '1' },
  }),
  admin('error_tracking_list', 'forge_list_error_tracking_client_keys', {
    kind: 'r',
    method: 'GET',
    path: '/projects/:project_id/error_tracking/client_keys',
    title: 'List error tracking client keys',
    description: "List the client keys (DSNs) of a project's integrated error tracking.",
    params: { ...project, ...P.paging },
    required: ['project_id'],
    example: { project_id: '1' },
  }),
  admin('error_tracking_update_settings', 'forge_enable_disable_error_tracking', {
    kind: 'w',
    method: 'PATCH',
    path: '/projects/:project_id/error_tracking/settings',
    title: 'Turn error tracking on or off',
    description:
      'Enable or disable error tracking for a project and choose the integrated backend or Sentry.',
    params: {
      ...project,
      active: bool('true to turn error tracking on, false to turn it off.'),
      integrated: bool('true to use the integrated error tracking backend instead of an external Sentry.'),
    },
    required: ['project_id', 'active'],
    example: { project_id: '1', active: true, integrated: true },
  }),
  admin('feature_delete', 'forge_delete_feature_flag', {
    kind: 'd',
    method: 'DELETE',
    path: '/features/:name',
    title: 'Delete feature flag setting',
    description:
      'Remove the stored gate values of a feature flag so it falls back to its default state. The custom setting is lost.',
    params: { name: featureName },
    required: ['name'],
    example: { name: 'my_feature' },
  }),
  admin('feature_list', 'forge_list_features', {
    kind: 'r',
    method: 'GET',
    path: '/features',
    title: 'List feature flags',
    description:
      'List the feature flags that have a stored value, with their state and gates (actors, percentages).',
  }),
  admin('feature_list_definitions', 'forge_list_feature_definitions', {
    kind: 'r',
    method: 'GET',
    path: '/features/definitions',
    title: 'List feature flag definitions',
    description:
      'List every feature flag the instance knows, with its type, default state, milestone and owning group.',
  }),
  admin('feature_set', 'forge_set_feature_flag', {
    kind: 'w',
    method: 'POST',
    path: '/features/:name',
    title: 'Set feature flag',
    description:
      'Turn a feature flag on or off for everyone, for chosen users, groups, projects, namespaces, organizations or repositories, or for a percentage of actors or time. Changes instance behaviour immediately.',
    params: {
      name: featureName,
      value: {
        type: ['boolean', 'integer', 'string'],
        description: 'true/false to turn it on/off, or a number 0-100 for a percentage rollout.',
      },
      key: str('Kind of percentage rollout when value is a number.', {
        enum: ['percentage_of_actors', 'percentage_of_time'],
      }),
      feature_group: str('Feature group to enable it for, e.g. "gitlab_team_members".'),
      user: str('Comma-separated usernames to enable it for.'),
      group: str('Comma-separated group paths to enable it for.'),
      namespace: str('Comma-separated namespace paths to enable it for.'),
      project: str('Comma-separated project paths to enable it for.'),
      organization: str('Comma-separated organization IDs or paths to enable it for, e.g. "1" or "default".'),
      repository: str('Comma-separated repository paths to enable it for.'),
      force: bool('Skip the validation of the flag name and definition.'),
    },
    required: ['name', 'value'],
    idempotent: true,
    example: { name: 'my_feature', value: true, project: 'acme/widgets' },
  }),
  admin('import_bitbucket', 'forge_import_from_bitbucket_cloud', {
    kind: 'w',
    method: 'POST',
    path: '/import/bitbucket',
    title: 'Import from Bitbucket Cloud',
    description:
      'Import a repository with its pull requests and issues from Bitbucket Cloud into a new project; runs in the background. Sign in with exactly one of bitbucket_app_password (with bitbucket_username) or bitbucket_api_token (with bitbucket_email), not both.',
    params: {
      bitbucket_username: str('Bitbucket Cloud username; give it together with bitbucket_app_password.'),
      bitbucket_app_password: str(
        'Bitbucket Cloud app password, with bitbucket_username. Give this or bitbucket_api_token, not both.',
      ),
      bitbucket_email: str('Atlassian account email; give it together with bitbucket_api_token.'),
      bitbucket_api_token: str(
        'Atlassian API token, with bitbucket_email. Give this or bitbucket_app_password, not both.',
      ),
      repo_path: str('Repository to import, "workspace/repo".'),
      target_namespace: str('Group or user namespace path to import into, e.g. "acme".'),
      new_name: str('Name of the new project (default: the repository name).'),
    },
    required: ['repo_path', 'target_namespace'],
    // Exactly one way in (mutually_exclusive and at_least_one_of in lib/api/import_bitbucket.rb).
    oneOf: [['bitbucket_app_password', 'bitbucket_api_token']],
    exclusive: [['bitbucket_app_password', 'bitbucket_api_token']],
    example: {
      bitbucket_username: 'alice',
      bitbucket_app_password: 'app-pass',
      repo_path: 'team/widgets',
      target_namespace: 'acme',
    },
  }),
  admin('import_bitbucket_server', 'forge_import_from_bitbucket_server', {
    kind: 'w',
    method: 'POST',
    path: '/import/bitbucket_server',
    title: 'Import from Bitbucket Server',
    description:
      'Import a repository with its pull requests from a Bitbucket Server / Data Center instance into a new project; runs in the background.',
    params: {
      bitbucket_server_url: str('URL of the Bitbucket Server, e.g. "https://bitbucket.example.com".'),
      bitbucket_server_username: str('Bitbucket Server username.'),
      personal_access_token: str('Bitbucket Server personal access token.'),
      bitbucket_server_project: str('Bitbucket project key, e.g. "PROJ".'),
      bitbucket_server_repo: str('Repository slug, e.g. "widgets".'),
      new_name: str('Name of the new project (default: the repository name).'),
      new_namespace: str('Namespace path to import into (default: your own).'),
      timeout_strategy: str('On timeout: optimistic keeps what was imported, pessimistic fails the import.', {
        enum: ['optimistic', 'pessimistic'],
      }),
    },
    required: [
      'bitbucket_server_url',
      'bitbucket_server_username',
      'personal_access_token',
      'bitbucket_server_project',
      'bitbucket_server_repo',
    ],
    example: {
      bitbucket_server_url: 'https://bitbucket.example.com',
      bitbucket_server_username: 'alice',
      personal_access_token: 'token',
      bitbucket_server_project: 'PROJ',
      bitbucket_server_repo: 'widgets',
    },
  }),
  admin('import_cancel_github', 'forge_cancel_github_import', {
    kind: 'w',
    method: 'POST',
    path: '/import/github/cancel',
    title: 'Cancel GitHub import',
    description: 'Cancel a running GitHub import of a project; what was imported so far stays.',
    params: { project_id: int('Numeric ID of the project being imported.') },
    required: ['project_id'],
    idempotent: true,
    example: { project_id: 1 },
  }),
  admin('import_gists', 'forge_import_github_gists', {
    kind: 'w',
    method: 'POST',
    path: '/import/github/gists',
    title: 'Import GitHub gists',
    description: "Import the GitHub gists of the token's owner as personal snippets; runs in the background.",
    params: { personal_access_token: str('GitHub personal access token with the gist scope.') },
    required: ['personal_access_token'],
    example: { personal_access_token: 'ghp_example' },
  }),
  admin('import_github', 'forge_import_from_github', {
    kind: 'w',
    method: 'POST',
    path: '/import/github',
    title: 'Import from GitHub',
    description:
      'Import a GitHub repository with issues, pull requests, wiki and more into a new project; runs in the background.',
    params: {
      personal_access_token: str('GitHub personal access token with the repo scope.'),
      repo_id: int('Numeric GitHub repository ID.'),
      target_namespace: str('Namespace path to import into, e.g. "acme" (not empty).', { minLength: 1 }),
      new_name: str('Name of the new project (default: the repository name).'),
      github_hostname: str('GitHub Enterprise URL, e.g. "https://github.example.com" (default github.com).'),
      optional_stages: {
        type: 'object',
        properties: {
          single_endpoint_notes_import: { type: 'boolean' },
          attachments_import: { type: 'boolean' },
          collaborators_import: { type: 'boolean' },
        },
        description: 'Extra stages, e.g. {"attachments_import": true, "collaborators_import": true}.',
      },
      timeout_strategy: str('On timeout: optimistic keeps what was imported, pessimistic fails the import.', {
        enum: ['optimistic', 'pessimistic'],
      }),
      pagination_limit: int(
        'Items fetched per request to GitHub, 1 to 100 (default 100); lower it for very large repositories.',
        { maximum: 100 },
      ),
    },
    required: ['personal_access_token', 'repo_id', 'target_namespace'],
    example: { personal_access_token: 'ghp_example', repo_id: 12345, target_namespace: 'acme' },
  }),
  admin('license_add', 'forge_add_license', {
    kind: 'w',
    method: 'POST',
    path: '/license',
    title: 'Add license',
    description: 'Upload a new subscription license to the instance; it becomes active from its start date.',
    params: { license: str('The license key text (the content of the .gitlab-license file).') },
    required: ['license'],
    example: { license: 'eyJkYXRhIjoiZXhhbXBsZSJ9' },
  }),
  admin('license_delete', 'forge_delete_license', {
    kind: 'd',
    method: 'DELETE',
    path: '/license/:license_id',
    title: 'Delete license',
    description:
      'Remove a license from the instance; paid features may stop working. Irreversible (the key must be uploaded again).',
    params: { license_id: licenseId },
    required: ['license_id'],
    example: { license_id: 1 },
  }),
  admin('license_get', 'forge_get_license', {
    kind: 'r',
    method: 'GET',
    path: '/license',
    title: 'Get current license',
    description: 'Read the active license: plan, licensee, user count, overage, start and expiry dates.',
  }),
  admin('metadata_get', 'forge_get_metadata', {
    kind: 'r',
    method: 'GET',
    path: '/metadata',
    title: 'Get instance version',
    description:
      'Read the instance version, revision, whether it is the enterprise edition and the Kubernetes agent server details.',
  }),
  admin('plan_limits_change', 'forge_change_plan_limits', {
    kind: 'w',
    method: 'PUT',
    path: '/application/plan_limits',
    title: 'Change plan limits',
    description:
      'Change the application limits of a plan (pipeline size, active jobs, schedules, package file sizes, storage...) for every namespace on it.',
    params: {
      plan_name: planName,
      ci_instance_level_variables: sizeLimit('instance-level CI/CD variables'),
      ci_pipeline_size: sizeLimit('jobs in one pipeline'),
      ci_active_jobs: sizeLimit('jobs in currently active pipelines'),
      ci_project_subscriptions: sizeLimit('pipeline subscriptions to and from a project'),
      ci_pipeline_schedules: sizeLimit('pipeline schedules'),
      ci_needs_size_limit: sizeLimit('needs dependencies a job may have'),
      ci_registered_group_runners: sizeLimit('runners registered per group'),
      ci_registered_project_runners: sizeLimit('runners registered per project'),
      pipeline_hierarchy_size: sizeLimit('pipelines in one downstream hierarchy'),
      dotenv_size: sizeLimit('dotenv artifact size in bytes'),
      dotenv_variables: sizeLimit('variables in a dotenv artifact'),
      conan_max_file_size: sizeLimit('Conan package file size in bytes'),
      generic_packages_max_file_size: sizeLimit('generic package file size in bytes'),
      helm_max_file_size: sizeLimit('Helm chart file size in bytes'),
      maven_max_file_size: sizeLimit('Maven package file size in bytes'),
      npm_max_file_size: sizeLimit('npm package file size in bytes'),
      nuget_max_file_size: sizeLimit('NuGet package file size in bytes'),
      pypi_max_file_size: sizeLimit('PyPI package file size in bytes'),
      terraform_module_max_file_size: sizeLimit('Terraform module file size in bytes'),
      storage_size_limit: sizeLimit('storage per root namespace in MiB'),
      notification_limit: sizeLimit('storage in MiB above which owners are notified'),
      enforcement_limit: sizeLimit('storage in MiB above which writes are refused'),
    },
    required: ['plan_name'],
    example: { plan_name: 'default', ci_pipeline_size: 500 },
  }),
  admin('plan_limits_get', 'forge_get_plan_limits', {
    kind: 'r',
    method: 'GET',
    path: '/application/plan_limits',
    title: 'Get plan limits',
    description:
      'Read the application limits of a plan (default plan when not named): pipeline size, jobs, schedules, package file sizes, storage.',
    params: { plan_name: planName },
    example: { plan_name: 'default' },
  }),
  admin('secure_file_create', 'forge_create_secure_file', {
    kind: 'w',
    method: 'POST',
    path: '/projects/:project_id/secure_files',
    title: 'Upload secure file',
    description:
      'Store a secret file (keystore, provisioning profile, certificate) in a project for CI jobs to download; it cannot be read back through the UI.',
    params: {
      ...project,
      name: {
        type: 'string',
        in: 'form',
        description: 'File name, unique in the project, e.g. "release.keystore".',
      },
      file: { type: 'string', in: 'file', description: 'The file content, base64-encoded.' },
    },
    required: ['project_id', 'name', 'file'],
    example: { project_id: '1', name: 'release.keystore', file: 'c2VjcmV0' },
  }),
  admin('secure_file_delete', 'forge_remove_secure_file', {
    kind: 'd',
    method: 'DELETE',
    path: '/projects/:project_id/secure_files/:secure_file_id',
    title: 'Delete secure file',
    description: 'Delete a project secure file; CI jobs can no longer download it. Irreversible.',
    params: { ...project, secure_file_id: secureFileId },
    required: ['project_id', 'secure_file_id'],
    example: { project_id: '1', secure_file_id: 1 },
  }),
  admin('secure_file_get', 'forge_show_secure_file', {
    kind: 'r',
    method: 'GET',
    path: '/projects/:project_id/secure_files/:secure_file_id',
    title: 'Get secure file',
    description:
      'Read the details of one project secure file: name, checksum, expiry and certificate metadata (not its content).',
    params: { ...project, secure_file_id: secureFileId },
    required: ['project_id', 'secure_file_id'],
    example: { project_id: '1', secure_file_id: 1 },
  }),
  admin('secure_file_list', 'forge_list_secure_files', {
    kind: 'r',
    method: 'GET',
    path: '/projects/:project_id/secure_files',
    title: 'List secure files',
    description: 'List the secure files of a project with their checksums and expiry dates.',
    params: { ...project, ...P.paging },
    required: ['project_id'],
    example: { project_id: '1' },
  }),
  admin('settings_get', 'forge_get_settings', {
    kind: 'r',
    method: 'GET',
    path: '/application/settings',
    title: 'Get instance settings',
    description:
      'Read the instance application settings: sign-up, visibility defaults, 2FA enforcement, size limits, rate limits, default branch name and hundreds more.',
  }),
  admin('settings_update', 'forge_update_settings', {
    kind: 'w',
    method: 'PUT',
    path: '/application/settings',
    title: 'Update instance settings',
    description:
      'Change instance application settings such as sign-up, default visibilities, 2FA enforcement, size limits, default branch name or terms of service. Affects every user.',
    params: {
      signup_enabled: bool('Allow anyone to register an account.'),
      require_admin_approval_after_user_signup: bool(
        'New sign-ups wait for an administrator to approve them.',
      ),
      domain_allowlist: {
        type: 'array',
        items: { type: 'string' },
        description: 'Only these email domains may sign up, e.g. ["example.com"].',
      },
      default_project_visibility: str('Default visibility of new projects.', {
        enum: ['private', 'internal', 'public'],
      }),
      default_group_visibility: str('Default visibility of new groups.', {
        enum: ['private', 'internal', 'public'],
      }),
      default_snippet_visibility: str('Default visibility of new snippets.', {
        enum: ['private', 'internal', 'public'],
      }),
      restricted_visibility_levels: {
        type: 'array',
        items: { type: 'string', enum: ['private', 'internal', 'public'] },
        description: 'Visibility levels only administrators may use.',
      },
      default_project_creation: {
        type: 'integer',
        enum: [0, 1, 2, 3, 4],
        description:
          'Who may create projects in groups: 0 nobody, 1 Maintainers, 2 Developers and Maintainers, 3 Administrators, 4 Owners.',
      },
      default_branch_name: str('Initial branch name of new repositories, e.g. "main".'),
      require_two_factor_authentication: bool('Require every user to set up two-factor authentication.'),
      two_factor_grace_period: {
        type: 'integer',
        minimum: 0,
        description: 'Hours users may postpone 2FA setup.',
      },
      password_authentication_enabled_for_web: bool('Allow signing in with a password in the web UI.'),
      max_attachment_size: { type: 'integer', minimum: 1, description: 'Largest attachment in MiB.' },
      max_artifacts_size: {
        type: 'integer',
        minimum: 1,
        description: 'Largest CI artifacts archive in MiB.',
      },
      max_personal_access_token_lifetime: {
        type: 'integer',
        minimum: 1,
        description: 'Longest allowed token lifetime in days.',
      },
      session_expire_delay: {
        type: 'integer',
        minimum: 1,
        description: 'Minutes of inactivity before a web session ends.',
      },
      deletion_adjourned_period: {
        type: 'integer',
        minimum: 1,
        maximum: 90,
        description: 'Days deleted groups and projects are kept before removal.',
      },
      gravatar_enabled: bool('Use Gravatar for avatars.'),
      auto_devops_enabled: bool('Turn on Auto DevOps by default for projects without CI configuration.'),
      shared_runners_enabled: bool('Enable instance runners for new projects.'),
      user_default_external: bool('New users are external (no access to internal projects) by default.'),
      home_page_url: str('Where signed-out visitors are sent.'),
      after_sign_out_path: str('Where users land after signing out.'),
      terms: str('Terms of service text in Markdown.'),
      enforce_terms: bool('Users must accept the terms of service.'),
      allow_local_requests_from_web_hooks_and_services: bool(
        'Allow webhooks and integrations to reach the local network.',
      ),
      import_sources: {
        type: 'array',
        items: {
          type: 'string',
          enum: [
            'github',
            'bitbucket',
            'bitbucket_server',
            'fogbugz',
            'git',
            'gitlab_project',
            'gitea',
            'manifest',
          ],
        },
        description: 'Import sources users may use.',
      },
    },
    example: { default_branch_name: 'main', signup_enabled: false },
  }),
  admin('sidekiq_compound_metrics', 'forge_get_sidekiq_compound_metrics', {
    kind: 'r',
    method: 'GET',
    path: '/sidekiq/compound_metrics',
    title: 'Get all Sidekiq metrics',
    description:
      'Read all background-job (Sidekiq) metrics at once: queues with latency, processes, and processed, failed, enqueued and dead job counts.',
  }),
  admin('sidekiq_job_stats', 'forge_get_sidekiq_job_stats', {
    kind: 'r',
    method: 'GET',
    path: '/sidekiq/job_stats',
    title: 'Get Sidekiq job statistics',
    description: 'Read background-job totals: processed, failed, enqueued and dead jobs.',
  }),
  admin('sidekiq_process_metrics', 'forge_get_sidekiq_process_metrics', {
    kind: 'r',
    method: 'GET',
    path: '/sidekiq/process_metrics',
    title: 'Get Sidekiq process metrics',
    description: 'List the running Sidekiq processes with their host, queues, concurrency and busy threads.',
  }),
  admin('sidekiq_queue_metrics', 'forge_get_sidekiq_queue_metrics', {
    kind: 'r',
    method: 'GET',
    path: '/sidekiq/queue_metrics',
    title: 'Get Sidekiq queue metrics',
    description:
      'List the Sidekiq queues with their backlog size and latency, to spot stuck background work.',
  }),
  admin('system_hook_add', 'forge_add_system_hook', {
    kind: 'w',
    method: 'POST',
    path: '/hooks',
    title: 'Add system hook',
    description:
      'Add an instance-wide system hook that POSTs events (projects, groups, users, pushes, merge requests) to an external URL. Instance data leaves the instance to that URL.',
    params: hookFields,
    required: ['url'],
    example: { url: 'https://hooks.example.com/gitlab', push_events: true },
  }),
  admin('system_hook_delete', 'forge_delete_system_hook', {
    kind: 'd',
    method: 'DELETE',
    path: '/hooks/:hook_id',
    title: 'Delete system hook',
    description: 'Delete a system hook; its receiver gets no more events. Irreversible.',
    params: { hook_id: hookId },
    required: ['hook_id'],
    example: { hook_id: 1 },
  }),
  admin('system_hook_delete_url_variable', 'forge_admin_system_hook_delete_url_variable', {
    kind: 'd',
    method: 'DELETE',
    path: '/hooks/:hook_id/url_variables/:key',
    title: 'Delete system hook URL variable',
    description: 'Remove a masked URL variable of a system hook; its value is lost. Irreversible.',
    params: { hook_id: hookId, key: urlVariableKey },
    required: ['hook_id', 'key'],
    example: { hook_id: 1, key: 'token' },
  }),
  admin('system_hook_edit', 'forge_admin_system_hook_edit', {
    kind: 'w',
    method: 'PUT',
    path: '/hooks/:hook_id',
    title: 'Edit system hook',
    description: 'Change a system hook: URL, secret token, name and which events it sends.',
    params: { hook_id: hookId, ...hookFields },
    required: ['hook_id'],
    example: { hook_id: 1, merge_requests_events: true },
  }),
  admin('system_hook_get', 'forge_get_system_hook', {
    kind: 'r',
    method: 'GET',
    path: '/hooks/:hook_id',
    title: 'Get system hook',
    description: 'Read one system hook: URL, events it sends and TLS verification.',
    params: { hook_id: hookId },
    required: ['hook_id'],
    example: { hook_id: 1 },
  }),
  admin('system_hook_list', 'forge_list_system_hooks', {
    kind: 'r',
    method: 'GET',
    path: '/hooks',
    title: 'List system hooks',
    description: 'List the instance-wide system hooks with their URLs and events.',
    params: { ...P.paging },
  }),
  admin('system_hook_set_url_variable', 'forge_admin_system_hook_set_url_variable', {
    kind: 'w',
    method: 'PUT',
    path: '/hooks/:hook_id/url_variables/:key',
    title: 'Set system hook URL variable',
    description:
      'Set a masked variable used as {key} in the system hook URL, e.g. a secret path segment that should not be shown.',
    params: { hook_id: hookId, key: urlVariableKey, value: str('Value of the variable.') },
    required: ['hook_id', 'key', 'value'],
    example: { hook_id: 1, key: 'token', value: 's3cr3t' },
  }),
  admin('system_hook_test', 'forge_test_system_hook', {
    kind: 'w',
    method: 'POST',
    path: '/hooks/:hook_id',
    title: 'Test system hook',
    description:
      "Send a sample event to a system hook's URL to check the receiver works; answers the sample payload sent.",
    params: { hook_id: hookId },
    required: ['hook_id'],
    idempotent: false,
    example: { hook_id: 1 },
  }),
  admin('terraform_state_delete', 'forge_delete_terraform_state', {
    kind: 'd',
    method: 'DELETE',
    path: '/projects/:project_id/terraform/state/:name',
    title: 'Delete Terraform state',
    description:
      'Delete a Terraform state of a project with all its versions (scheduled, done in the background). A locked state is not deleted, though the instance answers success: release the lock first (admin.terraform_state_unlock). Irreversible; Terraform loses track of the managed infrastructure.',
    params: { ...project, name: stateName },
    required: ['project_id', 'name'],
    example: { project_id: '1', name: 'production' },
  }),
  admin('terraform_state_get', 'forge_get_terraform_state', {
    kind: 'r',
    method: 'GET',
    path: '',
    title: 'Get Terraform state',
    description:
      'Read one Terraform state of a project: lock holder and time, and its latest version (serial, job, download path).',
    params: {
      full_path: str('Full path of the project, e.g. "acme/widgets".'),
      name: stateName,
    },
    required: ['full_path', 'name'],
    request: {
      graphql: {
        document: `query getTerraformState($fullPath: ID!, $name: String!) {
  project(fullPath: $fullPath) {
    terraformState(name: $name) {
      ${TERRAFORM_STATE}
    }
  }
}`,
        variables: { fullPath: 'full_path', name: 'name' },
        resultPath: 'project.terraformState',
      },
    },
    example: { full_path: 'acme/widgets', name: 'production' },
  }),
  admin('terraform_state_list', 'forge_list_terraform_states', {
    kind: 'r',
    method: 'GET',
    path: '',
    title: 'List Terraform states',
    description: 'List the Terraform states a project stores, with lock status and latest version of each.',
    params: { full_path: str('Full path of the project, e.g. "acme/widgets".'), ...P.gqlPaging },
    required: ['full_path'],
    request: {
      graphql: {
        document: `query listTerraformStates($fullPath: ID!, $first: Int, $after: String) {
  project(fullPath: $fullPath) {
    terraformStates(first: $first, after: $after) {
      count
      pageInfo { hasNextPage endCursor }
      nodes {
      ${TERRAFORM_STATE}
      }
    }
  }
}`,
        variables: { fullPath: 'full_path', first: 'first', after: 'after' },
        resultPath: 'project.terraformStates',
      },
    },
    example: { full_path: 'acme/widgets' },
  }),
  admin('terraform_state_lock', 'forge_lock_terraform_state', {
    kind: 'w',
    method: 'POST',
    path: '/projects/:project_id/terraform/state/:name/lock',
    title: 'Lock Terraform state',
    description:
      'Lock a Terraform state so no plan or apply can change it until it is unlocked. The instance takes the lock record Terraform itself would send: all seven of lock_id, operation, info, who, version, created and path (info and path may be empty strings).',
    params: {
      ...project,
      name: stateName,
      lock_id: str('ID of the lock, e.g. a UUID; the same ID releases it (at most 255 characters).', {
        wire: 'ID',
        maxLength: 255,
      }),
      operation: str('What the lock is for, e.g. "OperationTypeApply" or "OperationTypePlan".', {
        wire: 'Operation',
      }),
      info: str('Free text recorded with the lock (may be "").', { wire: 'Info' }),
      who: str('Who holds the lock, e.g. "alice@build-host".', { wire: 'Who' }),
      version: str('Terraform version taking the lock, e.g. "1.9.0".', { wire: 'Version' }),
      created: str('When the lock was taken, an ISO 8601 timestamp, e.g. "2025-01-01T12:00:00Z".', {
        wire: 'Created',
      }),
      path: str('Path of the state recorded with the lock (may be "").', { wire: 'Path' }),
    },
    required: ['project_id', 'name', 'lock_id', 'operation', 'info', 'who', 'version', 'created', 'path'],
    example: {
      project_id: '1',
      name: 'production',
      lock_id: '4f0c7a4e-1b2d-4c3e-9f8a-6b5d4c3b2a10',
      operation: 'OperationTypeApply',
      info: '',
      who: 'alice@build-host',
      version: '1.9.0',
      created: '2025-01-01T12:00:00Z',
      path: '',
    },
  }),
  admin('terraform_state_unlock', 'forge_unlock_terraform_state', {
    kind: 'w',
    method: 'DELETE',
    path: '/projects/:project_id/terraform/state/:name/lock',
    title: 'Unlock Terraform state',
    description:
      'Release the lock of a Terraform state. With lock_id only that lock is released (answered 409 Conflict when the state holds another one); without it whatever lock is held is force-released, e.g. after a crashed job left it locked.',
    params: {
      ...project,
      name: stateName,
      lock_id: str(
        'ID of the lock to release, as given when it was taken (at most 255 characters); leave it out to force-release any lock.',
        { wire: 'ID', maxLength: 255 },
      ),
    },
    required: ['project_id', 'name'],
    idempotent: true,
    example: { project_id: '1', name: 'production' },
  }),
  admin('terraform_version_delete', 'forge_delete_terraform_state_version', {
    kind: 'd',
    method: 'DELETE',
    path: '/projects/:project_id/terraform/state/:name/versions/:serial',
    title: 'Delete Terraform state version',
    description: 'Delete one stored version (by serial) of a Terraform state. Irreversible.',
    params: { ...project, name: stateName, serial: int('Serial number of the state version.') },
    required: ['project_id', 'name', 'serial'],
    example: { project_id: '1', name: 'production', serial: 3 },
  }),
  admin('topic_create', 'forge_create_topic', {
    kind: 'w',
    method: 'POST',
    path: '/topics',
    title: 'Create project topic',
    description: 'Create a topic that projects can be tagged with and browsed by in Explore.',
    params: {
      ...topicFields,
      organization_id: int('Organization the topic belongs to (default: the current organization).'),
    },
    required: ['name', 'title'],
    example: { name: 'machine-learning', title: 'Machine learning' },
  }),
  admin('topic_delete', 'forge_delete_topic', {
    kind: 'd',
    method: 'DELETE',
    path: '/topics/:topic_id',
    title: 'Delete project topic',
    description: 'Delete a topic; it is removed from every project tagged with it. Irreversible.',
    params: { topic_id: topicId },
    required: ['topic_id'],
    example: { topic_id: 1 },
  }),
  admin('topic_get', 'forge_get_topic', {
    kind: 'r',
    method: 'GET',
    path: '/topics/:topic_id',
    title: 'Get project topic',
    description: 'Read one topic: name, title, description, avatar and how many projects carry it.',
    params: { topic_id: topicId },
    required: ['topic_id'],
    example: { topic_id: 1 },
  }),
  admin('topic_list', 'forge_list_topics', {
    kind: 'r',
    method: 'GET',
    path: '/topics',
    title: 'List project topics',
    description: 'List the project topics of the instance, most used first, optionally searched by name.',
    params: {
      search: str('Text to find in the topic name.'),
      without_projects: bool('Only topics no project carries.'),
      organization_id: int('Only topics of this organization (default: the current organization).'),
      ...P.paging,
    },
    example: { search: 'machine' },
  }),
  admin('topic_update', 'forge_update_topic', {
    kind: 'w',
    method: 'PUT',
    path: '/topics/:topic_id',
    title: 'Update project topic',
    description: 'Rename a topic or change its title or description.',
    params: { topic_id: topicId, ...topicFields },
    required: ['topic_id'],
    example: { topic_id: 1, title: 'Machine Learning' },
  }),
  admin('usage_data_metric_definitions', 'forge_get_metric_definitions', {
    kind: 'r',
    method: 'GET',
    path: '/usage_data/metric_definitions',
    title: 'Get Service Ping metric definitions',
    description: 'Read the definitions (YAML) of all Service Ping metrics the instance can report.',
    params: { include_paths: bool('Also include the file path of each definition.') },
  }),
  admin('usage_data_non_sql_metrics', 'forge_get_non_sql_metrics', {
    kind: 'r',
    method: 'GET',
    path: '/usage_data/non_sql_metrics',
    title: 'Get Service Ping non-SQL metrics',
    description:
      'Read the Service Ping metrics that are not computed by SQL queries (settings, versions, counts from other sources).',
  }),
  admin('usage_data_queries', 'forge_get_usage_queries', {
    kind: 'r',
    method: 'GET',
    path: '/usage_data/queries',
    title: 'Get Service Ping SQL queries',
    description: 'Read the SQL queries the instance runs to compute its Service Ping metrics.',
  }),
  admin('usage_data_service_ping', 'forge_get_service_ping', {
    kind: 'r',
    method: 'GET',
    path: '/usage_data/service_ping',
    title: 'Get Service Ping payload',
    description:
      'Read the latest Service Ping payload the instance computed (the usage statistics it would send).',
  }),
  admin('usage_data_track_event', 'forge_track_event', {
    kind: 'w',
    method: 'POST',
    path: '/usage_data/track_event',
    title: 'Track internal event',
    description:
      'Record one internal usage event (product analytics), optionally tied to a project or namespace.',
    params: {
      event: str('Name of a defined internal event, e.g. "i_code_review_user_approve_mr".'),
      namespace_id: int('Numeric ID of the namespace the event happened in.'),
      project_id: int('Numeric ID of the project the event happened in.'),
      send_to_snowplow: bool('Also send the event to Snowplow.'),
      additional_properties: {
        type: 'object',
        description: 'Extra properties defined for the event, e.g. {"label": "x"}.',
      },
    },
    required: ['event'],
    idempotent: false,
    example: { event: 'i_code_review_user_approve_mr', project_id: 1 },
  }),
  admin('usage_data_track_events', 'forge_track_events', {
    kind: 'w',
    method: 'POST',
    path: '/usage_data/track_events',
    title: 'Track several internal events',
    description: 'Record a batch of internal usage events (product analytics) in one call.',
    params: {
      events: {
        type: 'array',
        minItems: 1,
        maxItems: 50,
        items: {
          type: 'object',
          properties: {
            event: { type: 'string' },
            namespace_id: { type: 'integer' },
            project_id: { type: 'integer' },
            send_to_snowplow: { type: 'boolean' },
            additional_properties: { type: 'object' },
          },
          required: ['event'],
        },
        description:
          'Events to record, at most 50 in one call, e.g. [{"event": "i_code_review_user_approve_mr", "project_id": 1}].',
      },
    },
    required: ['events'],
    idempotent: false,
    example: { events: [{ event: 'i_code_review_user_approve_mr', project_id: 1 }] },
  }),
];

export const domain: DomainSpec = {
  domain: 'admin',
  metaTool: 'forge_admin',
  summary:
    'Instance administration (administrators in admin mode): settings, appearance, broadcast messages, licenses, plan limits, feature flags, system hooks, OAuth applications, topics, migrations and imports, Sidekiq and usage metrics, plus project-level alerts, cluster agents, error tracking, secure files, custom attributes and Terraform states.',
  actions,
};
