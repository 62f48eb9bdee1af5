import type { ActionSpec, DomainSpec, ParamSpec, Tier } from '../types.js';
import * as P from '../params.js';

type Kind = 'project' | 'group' | 'snippet';

const moveId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'ID of the repository storage move, as answered when it was scheduled or listed.',
};
const destination: ParamSpec = {
  type: 'string',
  description:
    'Repository storage (Gitaly shard) to move to, e.g. "storage2"; leave out to let the instance pick by its storage weights.',
};
const source: ParamSpec = {
  type: 'string',
  description: 'Repository storage to empty: every repository of this kind on it is moved, e.g. "default".',
};
const owner: Record<Kind, { key: string; spec: ParamSpec; example: unknown }> = {
  project: { key: 'project_id', spec: P.projectId, example: '1' },
  group: { key: 'group_id', spec: P.groupId, example: '10' },
  snippet: {
    key: 'snippet_id',
    spec: { type: 'integer', minimum: 1, description: 'Numeric snippet ID.' },
    example: 1,
  },
};
const what: Record<Kind, string> = {
  project: "a project's repositories (code, wiki, design)",
  group: "a group's repositories (group wiki)",
  snippet: "a snippet's repository",
};
const plural: Record<Kind, string> = { project: 'projects', group: 'groups', snippet: 'snippets' };
// Group repositories (group wikis) are a Premium feature; project and snippet moves are in every tier.
const tier: Record<Kind, Tier> = { project: 'free', group: 'premium', snippet: 'free' };
const ownerPath: Record<Kind, string> = {
  project: '/projects/:project_id',
  group: '/groups/:group_id',
  snippet: '/snippets/:snippet_id',
};

function spec(
  a: Omit<ActionSpec, 'destructive' | 'adminGroup' | 'scope' | 'idempotent' | 'tier'> & { kind: Kind },
): ActionSpec {
  const { kind, ...rest } = a;
  return {
    ...rest,
    tier: tier[kind],
    destructive: false,
    idempotent: !rest.write,
    scope: rest.write ? 'api' : 'read_api',
    adminGroup: 'forge_storage_move',
  };
}

function actions(kind: Kind): ActionSpec[] {
  const o = owner[kind];
  const global = `/${kind}_repository_storage_moves`;
  const K = kind[0].toUpperCase() + kind.slice(1);
  return [
    spec({
      kind,
      id: `storage_move.get_${kind}`,
      title: `Get ${kind} storage move`,
      description: `Read one move of ${what[kind]} between repository storages by its ID: state (scheduled, started, finished, failed...), source and destination. Administrators only.`,
      tool: `forge_get_${kind}_storage_move`,
      write: false,
      params: { repository_storage_move_id: moveId },
      required: ['repository_storage_move_id'],
      request: { rest: { method: 'GET', path: `${global}/:repository_storage_move_id` } },
      example: { repository_storage_move_id: 1 },
    }),
    spec({
      kind,
      id: `storage_move.get_${kind}_for_${kind}`,
      title: `Get storage move of one ${kind}`,
      description: `Read one storage move of a given ${kind} by its ID, checking it belongs to that ${kind}. Administrators only.`,
      tool: `forge_get_${kind}_storage_move_for_${kind}`,
      write: false,
      params: { [o.key]: o.spec, repository_storage_move_id: moveId },
      required: [o.key, 'repository_storage_move_id'],
      request: {
        rest: {
          method: 'GET',
          path: `${ownerPath[kind]}/repository_storage_moves/:repository_storage_move_id`,
        },
      },
      example: { [o.key]: o.example, repository_storage_move_id: 1 },
    }),
    spec({
      kind,
      id: `storage_move.retrieve_all_${kind}`,
      title: `List all ${kind} storage moves`,
      description: `List every move of ${plural[kind]} between repository storages on the instance, newest first, with their states. Administrators only.`,
      tool: `forge_retrieve_all_${kind}_storage_moves`,
      write: false,
      params: { ...P.paging },
      request: { rest: { method: 'GET', path: global } },
      example: {},
    }),
    spec({
      kind,
      id: `storage_move.retrieve_${kind}`,
      title: `List storage moves of one ${kind}`,
      description: `List the repository storage moves of one ${kind}, newest first. Administrators only.`,
      tool: `forge_retrieve_${kind}_storage_moves`,
      write: false,
      params: { [o.key]: o.spec, ...P.paging },
      required: [o.key],
      request: { rest: { method: 'GET', path: `${ownerPath[kind]}/repository_storage_moves` } },
      example: { [o.key]: o.example },
    }),
    spec({
      kind,
      id: `storage_move.schedule_all_${kind}`,
      title: `Move all ${plural[kind]} off a storage`,
      description: `Schedule moves of every ${kind} repository on one repository storage to another (for example to drain a Gitaly shard); runs in the background, repositories are read-only while they move. Administrators only.`,
      tool: `forge_schedule_all_${kind}_storage_moves`,
      write: true,
      params: { source_storage_name: source, destination_storage_name: destination },
      required: ['source_storage_name'],
      request: { rest: { method: 'POST', path: global } },
      example: { source_storage_name: 'default', destination_storage_name: 'storage2' },
    }),
    spec({
      kind,
      id: `storage_move.schedule_${kind}`,
      title: `Move ${kind} to another storage`,
      description: `Schedule moving ${what[kind]} to another repository storage; runs in the background and the repository is read-only meanwhile. ${K} data is copied, then removed from the source. Administrators only.`,
      tool: `forge_schedule_${kind}_storage_move`,
      write: true,
      params: { [o.key]: o.spec, destination_storage_name: destination },
      required: [o.key],
      request: { rest: { method: 'POST', path: `${ownerPath[kind]}/repository_storage_moves` } },
      example: { [o.key]: o.example, destination_storage_name: 'storage2' },
    }),
  ];
}

// Plain code-unit order: the IDs are ASCII, and localeCompare would load the ICU collator at start-up.
const all = [...actions('group'), ...actions('project'), ...actions('snippet')].sort((a, b) =>
  a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
);

export const domain: DomainSpec = {
  domain: 'storage_move',
  metaTool: 'forge_storage_move',
  summary:
    'Repository storage moves (administrators, self-managed): move project, group and snippet repositories between Gitaly storages, one at a time or a whole storage at once, and follow the moves.',
  actions: all,
};
