import type { ActionSpec, DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const siteId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'Numeric ID of the Geo site, from geo.list.',
};
const capacity = (what: string): ParamSpec => ({
  type: 'integer',
  minimum: 0,
  description: `How many ${what} the secondary site syncs in parallel.`,
});
const siteFields: Record<string, ParamSpec> = {
  name: {
    type: 'string',
    description: 'Unique site name; must match gitlab_rails["geo_node_name"] in the site configuration.',
  },
  url: { type: 'string', description: 'External URL of the site, e.g. "https://geo2.example.com/".' },
  internal_url: {
    type: 'string',
    description: 'URL the other sites use to reach this one, if different from url (primary sites).',
  },
  enabled: { type: 'boolean', description: 'Whether this secondary site replicates (secondary sites only).' },
  files_max_capacity: capacity('LFS objects and uploads'),
  repos_max_capacity: capacity('repositories'),
  verification_max_capacity: capacity('verification checks'),
  container_repositories_max_capacity: capacity('container repositories'),
  sync_object_storage: {
    type: 'boolean',
    description: 'Whether the secondary also replicates content stored in object storage.',
  },
  selective_sync_type: {
    type: 'string',
    enum: ['', 'namespaces', 'shards'],
    description:
      'Replicate only some data: by groups ("namespaces"), by storage shards ("shards"), or everything ("").',
  },
  selective_sync_shards: {
    type: 'array',
    items: { type: 'string' },
    description: 'Repository storages to replicate when selective_sync_type is "shards", e.g. ["default"].',
  },
  selective_sync_namespace_ids: {
    type: 'array',
    items: { type: 'integer', minimum: 1 },
    description: 'Group IDs to replicate when selective_sync_type is "namespaces", e.g. [10].',
  },
  minimum_reverification_interval: {
    type: 'integer',
    minimum: 1,
    description: 'Days after which repositories are verified again (primary sites).',
  },
};

const read = (
  id: string,
  tool: string,
  title: string,
  description: string,
  path: string,
  withSite: boolean,
  notFound = false,
  extra: Record<string, ParamSpec> = {},
): ActionSpec => ({
  id: `geo.${id}`,
  title,
  description,
  tool,
  write: false,
  destructive: false,
  idempotent: true,
  tier: 'premium',
  scope: 'read_api',
  adminGroup: 'forge_geo',
  params: withSite ? { geo_site_id: siteId, ...extra } : { ...P.paging, ...extra },
  ...(withSite ? { required: ['geo_site_id'] } : {}),
  request: { rest: { method: 'GET', path } },
  ...(notFound ? { notFound: { object: 'Geo site', key: 'geo_site_id', next: ['geo.list'] } } : {}),
  example: withSite ? { geo_site_id: 1 } : {},
});

export const domain: DomainSpec = {
  domain: 'geo',
  metaTool: 'forge_geo',
  summary:
    'Geo replication sites (administrators, self-managed): list, add, edit and remove primary and secondary sites, read their replication and verification status, and repair a site.',
  actions: [
    {
      id: 'geo.create',
      title: 'Add Geo site',
      description:
        'Register a new Geo site (usually a secondary that replicates the primary), with its URL and sync settings. Administrators only.',
      tool: 'forge_create_geo_site',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'premium',
      scope: 'api',
      adminGroup: 'forge_geo',
      params: {
        primary: { type: 'boolean', description: 'true for the primary site (default false: secondary).' },
        ...siteFields,
      },
      required: ['name', 'url'],
      request: { rest: { method: 'POST', path: '/geo_sites' } },
      example: { name: 'geo-eu', url: 'https://geo-eu.example.com/', enabled: true },
    },
    {
      id: 'geo.delete',
      title: 'Remove Geo site',
      description:
        'Remove a Geo site from the configuration; replication to it stops and its tracking data is dropped. Irreversible. Administrators only.',
      tool: 'forge_delete_geo_site',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      adminGroup: 'forge_geo',
      params: { geo_site_id: siteId },
      required: ['geo_site_id'],
      request: { rest: { method: 'DELETE', path: '/geo_sites/:geo_site_id' } },
      example: { geo_site_id: 2 },
    },
    {
      id: 'geo.edit',
      title: 'Edit Geo site',
      description:
        'Change a Geo site: name, URLs, enable or pause replication, parallelism and selective sync. Administrators only.',
      tool: 'forge_edit_geo_site',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      adminGroup: 'forge_geo',
      params: { geo_site_id: siteId, ...siteFields },
      required: ['geo_site_id'],
      request: { rest: { method: 'PUT', path: '/geo_sites/:geo_site_id' } },
      example: { geo_site_id: 2, enabled: false },
    },
    read(
      'get',
      'forge_get_geo_site',
      'Get Geo site',
      'Read one Geo site: whether it is primary, its URLs, replication settings and selective sync.',
      '/geo_sites/:geo_site_id',
      true,
    ),
    read(
      'get_status',
      'forge_get_status_geo_site',
      'Get Geo site status',
      'Read the replication and verification status of one Geo site: health, sync and checksum counts per data type, and replication lag.',
      '/geo_sites/:geo_site_id/status',
      true,
      false,
      {
        refresh: {
          type: 'boolean',
          description: 'true: ask the site itself for its latest status instead of the cached one (slower).',
        },
      },
    ),
    read(
      'list',
      'forge_list_geo_sites',
      'List Geo sites',
      'List the Geo sites of the instance, primary and secondaries, with their settings.',
      '/geo_sites',
      false,
    ),
    read(
      'list_status',
      'forge_list_status_all_geo_sites',
      'List status of all Geo sites',
      'Read the replication and verification status of every Geo site at once: health and sync progress per site.',
      '/geo_sites/status',
      false,
    ),
    {
      id: 'geo.repair',
      title: 'Repair Geo site',
      description:
        'Repair a Geo site whose sign-in through the primary broke, by recreating its OAuth application. Administrators only.',
      tool: 'forge_repair_geo_site',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'api',
      adminGroup: 'forge_geo',
      params: { geo_site_id: siteId },
      required: ['geo_site_id'],
      request: { rest: { method: 'POST', path: '/geo_sites/:geo_site_id/repair' } },
      example: { geo_site_id: 2 },
    },
  ],
};
