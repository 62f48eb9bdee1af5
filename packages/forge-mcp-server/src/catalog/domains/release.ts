import type { ActionHandler, DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const tagName: ParamSpec = {
  type: 'string',
  description: 'Tag the release belongs to, e.g. "v1.0.0" (each release is identified by its tag).',
};
const linkId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'Numeric ID of the release asset link (from release.link_list).',
};
const linkType: ParamSpec = {
  type: 'string',
  enum: ['other', 'runbook', 'image', 'package'],
  description: 'Kind of asset, shown in the UI (default other).',
};
const directAssetPath: ParamSpec = {
  type: 'string',
  description:
    'Optional path for a stable permalink to the asset under the release, e.g. "/binaries/linux-amd64" (reachable via .../releases/<tag>/downloads/binaries/linux-amd64).',
};
const linkFields: Record<string, ParamSpec> = {
  name: { type: 'string', description: 'Display name of the asset, e.g. "Linux binary".' },
  url: {
    type: 'string',
    description: 'URL the asset link points to, e.g. a package or artifact download URL.',
  },
  direct_asset_path: directAssetPath,
  link_type: linkType,
};
const linkItem = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    url: { type: 'string' },
    direct_asset_path: { type: 'string' },
    link_type: { type: 'string', enum: ['other', 'runbook', 'image', 'package'] },
  },
  required: ['name', 'url'],
};
const milestones: ParamSpec = {
  type: 'array',
  items: { type: 'string' },
  description:
    'Titles of milestones to associate, e.g. ["v1.0"]; when updating, an empty array removes all. Not together with milestone_ids.',
};
const milestoneIds: ParamSpec = {
  type: 'array',
  items: { type: 'integer' },
  description:
    'IDs of milestones to associate, instead of milestones by title (the two cannot be combined); when updating, an empty array removes all.',
};
const releasedAt: ParamSpec = {
  type: 'string',
  format: 'date-time',
  description:
    'When the release is/was published (ISO 8601); a future date makes it an upcoming release. Default now.',
};
const includeHtml: ParamSpec = {
  type: 'boolean',
  description: 'true to also return the description rendered as HTML.',
};

const enc = (v: unknown): string => encodeURIComponent(String(v));

/** Creates several asset links on one release, one request each, in order. */
const createLinks: ActionHandler = async (args, ctx) => {
  const path = `/projects/${enc(args.project_id)}/releases/${enc(args.tag_name)}/assets/links`;
  const created: unknown[] = [];
  for (const link of args.links as Record<string, unknown>[]) {
    created.push(await ctx.rest('POST', path, { body: link }));
  }
  return created;
};

/** Milestones by title or by ID: the instance takes at most one form (mutually_exclusive on create and update). */
const milestoneForms = ['milestones', 'milestone_ids'];
export const domain: DomainSpec = {
  domain: 'release',
  metaTool: 'forge_release',
  summary:
    'Releases of a project: list, read, publish, edit and delete releases by tag, find the latest release, and manage release asset links.',
  actions: [
    {
      id: 'release.create',
      title: 'Create release',
      description: `Publish a release for a tag with notes, milestones and asset links; if the tag does not exist it is created from ref. ${P.atMostOne([milestoneForms])}`,
      tool: 'forge_release_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        tag_name: tagName,
        name: { type: 'string', description: 'Release title; defaults to the tag name.' },
        description: { type: 'string', description: 'Release notes in Markdown.' },
        ref: {
          ...P.ref,
          description:
            'Branch, tag or commit SHA to create the tag from; required only when tag_name does not exist yet.',
        },
        tag_message: {
          type: 'string',
          description: 'Message for a new annotated tag (only when the tag is created).',
        },
        milestones,
        milestone_ids: milestoneIds,
        assets: {
          type: 'object',
          properties: { links: { type: 'array', items: linkItem } },
          description:
            'Assets to attach: {"links": [{"name": "Linux binary", "url": "https://...", "link_type": "package"}]}.',
        },
        released_at: releasedAt,
      },
      required: ['project_id', 'tag_name'],
      exclusive: [milestoneForms],
      request: { rest: { method: 'POST', path: '/projects/:project_id/releases' } },
      example: {
        project_id: '1',
        tag_name: 'v1.0.0',
        name: 'Version 1.0.0',
        description: 'First stable release.',
      },
    },
    {
      id: 'release.delete',
      title: 'Delete release',
      description: 'Delete a release (notes, asset links, evidence). The git tag itself stays. Irreversible.',
      tool: 'forge_release_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, tag_name: tagName },
      required: ['project_id', 'tag_name'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/releases/:tag_name' } },
      example: { project_id: '1', tag_name: 'v1.0.0' },
    },
    {
      id: 'release.get',
      title: 'Get release',
      description: 'Show the release of a tag: name, notes, author, commit, milestones, assets and evidence.',
      tool: 'forge_release_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, tag_name: tagName, include_html_description: includeHtml },
      required: ['project_id', 'tag_name'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/releases/:tag_name' } },
      notFound: {
        object: 'Release',
        key: 'tag_name',
        next: ['release.list', 'release.get_latest', 'tag.list'],
      },
      example: { project_id: '1', tag_name: 'v1.0.0' },
    },
    {
      id: 'release.get_latest',
      title: 'Get latest release',
      description:
        'Show the most recent release of a project (by release date) without knowing its tag; the instance redirects to that release.',
      tool: 'forge_release_latest',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, include_html_description: includeHtml },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/releases/permalink/latest' } },
      notFound: { object: 'Release', key: 'project_id', next: ['release.list', 'tag.list'] },
      example: { project_id: '1' },
    },
    {
      id: 'release.link_create',
      title: 'Add release asset link',
      description:
        'Attach one asset link (binary, package, runbook, image) to a release. For several at once use release.link_create_batch.',
      tool: 'forge_release_link_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, tag_name: tagName, ...linkFields },
      required: ['project_id', 'tag_name', 'name', 'url'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/releases/:tag_name/assets/links' } },
      example: {
        project_id: '1',
        tag_name: 'v1.0.0',
        name: 'Linux binary',
        url: 'https://example.com/widgets-linux-amd64',
        link_type: 'package',
      },
    },
    {
      id: 'release.link_create_batch',
      title: 'Add several release asset links',
      description:
        'Attach several asset links to a release in one call (one request per link, in order); returns the created links. Stops at the first failure.',
      tool: 'forge_release_link_create_batch',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        tag_name: tagName,
        links: {
          type: 'array',
          minItems: 1,
          items: linkItem,
          in: 'none',
          description:
            'Links to add, each {"name", "url", optional "direct_asset_path", "link_type"}, e.g. [{"name": "Checksums", "url": "https://example.com/SHA256SUMS"}].',
        },
      },
      required: ['project_id', 'tag_name', 'links'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/releases/:tag_name/assets/links' } },
      handler: createLinks,
      example: {
        project_id: '1',
        tag_name: 'v1.0.0',
        links: [
          { name: 'Linux binary', url: 'https://example.com/widgets-linux-amd64', link_type: 'package' },
          { name: 'Checksums', url: 'https://example.com/SHA256SUMS' },
        ],
      },
    },
    {
      id: 'release.link_delete',
      title: 'Delete release asset link',
      description:
        'Remove an asset link from a release (the linked file itself is not touched). Irreversible.',
      tool: 'forge_release_link_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, tag_name: tagName, link_id: linkId },
      required: ['project_id', 'tag_name', 'link_id'],
      request: {
        rest: { method: 'DELETE', path: '/projects/:project_id/releases/:tag_name/assets/links/:link_id' },
      },
      example: { project_id: '1', tag_name: 'v1.0.0', link_id: 1 },
    },
    {
      id: 'release.link_get',
      title: 'Get release asset link',
      description: 'Show one asset link of a release: name, URL, direct asset URL and type.',
      tool: 'forge_release_link_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, tag_name: tagName, link_id: linkId },
      required: ['project_id', 'tag_name', 'link_id'],
      request: {
        rest: { method: 'GET', path: '/projects/:project_id/releases/:tag_name/assets/links/:link_id' },
      },
      example: { project_id: '1', tag_name: 'v1.0.0', link_id: 1 },
    },
    {
      id: 'release.link_list',
      title: 'List release asset links',
      description: 'List the asset links (binaries, packages, runbooks, images) attached to a release.',
      tool: 'forge_release_link_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, tag_name: tagName, ...P.paging },
      required: ['project_id', 'tag_name'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/releases/:tag_name/assets/links' } },
      example: { project_id: '1', tag_name: 'v1.0.0' },
    },
    {
      id: 'release.link_update',
      title: 'Update release asset link',
      description:
        'Change the name, URL, direct asset path or type of a release asset link. The instance needs name or url in every update (give the current value to change only the path or type).',
      tool: 'forge_release_link_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        tag_name: tagName,
        link_id: linkId,
        ...linkFields,
        link_type: {
          ...linkType,
          description:
            'Kind of asset, shown in the UI. The instance sets it back to other when an update leaves it out: give the current type to keep it.',
        },
      },
      required: ['project_id', 'tag_name', 'link_id'],
      oneOf: [['name', 'url']],
      request: {
        rest: { method: 'PUT', path: '/projects/:project_id/releases/:tag_name/assets/links/:link_id' },
      },
      example: { project_id: '1', tag_name: 'v1.0.0', link_id: 1, name: 'Linux binary (amd64)' },
    },
    {
      id: 'release.list',
      title: 'List releases',
      description:
        "List a project's releases, newest first by release date, optionally filtered by update time.",
      tool: 'forge_release_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        order_by: {
          type: 'string',
          enum: ['released_at', 'created_at'],
          description: 'Field to order by (default released_at).',
        },
        sort: { type: 'string', enum: ['asc', 'desc'], description: 'Sort direction (default desc).' },
        include_html_description: includeHtml,
        updated_before: {
          type: 'string',
          format: 'date-time',
          description: 'Only releases updated before this time.',
        },
        updated_after: {
          type: 'string',
          format: 'date-time',
          description: 'Only releases updated after this time.',
        },
        ...P.paging,
      },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/releases' } },
      example: { project_id: '1' },
    },
    {
      id: 'release.update',
      title: 'Update release',
      description: `Edit a release: title, notes, milestones or release date. Asset links are edited with release.link_*. ${P.atMostOne([milestoneForms])}`,
      tool: 'forge_release_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        tag_name: tagName,
        name: { type: 'string', description: 'New release title.' },
        description: {
          type: 'string',
          description: 'New release notes in Markdown (replaces the old ones).',
        },
        milestones,
        milestone_ids: milestoneIds,
        released_at: releasedAt,
      },
      required: ['project_id', 'tag_name'],
      exclusive: [milestoneForms],
      request: { rest: { method: 'PUT', path: '/projects/:project_id/releases/:tag_name' } },
      example: { project_id: '1', tag_name: 'v1.0.0', description: 'First stable release. Fixes login.' },
    },
  ],
};
