// fs.promises, read when first used: node:fs/promises costs start-up time a server that never uploads
// does not need to spend.
import { promises as fsp } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fromBase64 } from '../../base64.js';
import { withoutEndSlashes } from '../project-ref.js';
import type { ActionContext, ActionHandler, DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const packageId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'Numeric package ID (from package.list or package.group_list).',
};
const packageFileId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'Numeric ID of one file of the package (from package.file_list).',
};
const repositoryId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description:
    'Numeric container repository ID (from package.registry_list_project or package.registry_list_group).',
};
const imageTag: ParamSpec = {
  type: 'string',
  description: 'Container image tag, e.g. "latest" or "v1.2.3".',
};
const packageTypes = [
  'generic',
  'maven',
  'npm',
  'nuget',
  'pypi',
  'conan',
  'composer',
  'golang',
  'helm',
  'debian',
  'rubygems',
  'rpm',
  'terraform_module',
  'ml_model',
  'cargo',
];
const packageListFilters: Record<string, ParamSpec> = {
  package_type: { type: 'string', enum: packageTypes, description: 'Only packages of this format.' },
  package_name: { type: 'string', description: 'Only packages whose name contains this text (fuzzy match).' },
  package_version: { type: 'string', description: 'Only packages with exactly this version, e.g. "1.2.3".' },
  include_versionless: { type: 'boolean', description: 'true to also list packages that have no version.' },
  status: {
    type: 'string',
    enum: ['default', 'hidden', 'processing', 'error', 'pending_destruction', 'deprecated'],
    description: 'Only packages in this state (default: normal, visible packages).',
  },
  sort: { type: 'string', enum: ['asc', 'desc'], description: 'Sort direction (default asc).' },
};
const genericLocation: Record<string, ParamSpec> = {
  package_name: {
    type: 'string',
    description: 'Generic package name: letters, digits, dots, dashes and underscores, e.g. "widgets-cli".',
  },
  package_version: {
    type: 'string',
    description: 'Package version, e.g. "1.2.3" (semantic version or other simple version string).',
  },
  path: {
    type: 'string',
    description: 'Optional folder inside the package version for the file, e.g. "linux-amd64".',
  },
  file_name: { type: 'string', description: 'File name inside the package, e.g. "widgets-cli.tar.gz".' },
};
const genericPaths = [
  '/projects/:project_id/packages/generic/:package_name/:package_version/:path/:file_name',
  '/projects/:project_id/packages/generic/:package_name/:package_version/:file_name',
];
const uploadStatus: ParamSpec = {
  type: 'string',
  in: 'query',
  enum: ['default', 'hidden'],
  description: 'hidden keeps the package out of the UI and package lists (default: default).',
};
/** The file of a generic upload: read by the handlers, sent as the raw request body (see uploadGeneric). */
const fileContent: Record<string, ParamSpec> = {
  content_base64: {
    type: 'string',
    in: 'none',
    description: 'File content, base64-encoded. Use this over HTTP; give this or file_path.',
  },
  file_path: {
    type: 'string',
    in: 'none',
    description:
      'Local file to upload (stdio only; confined to the allowed directories). Give this or content_base64.',
  },
};
const pushLevel: ParamSpec = {
  type: 'string',
  enum: ['maintainer', 'owner', 'admin'],
  description: 'Lowest role allowed to push (publish) matching items; without a rule developers can push.',
};
const deleteLevel = (values: string[], fallback: string): ParamSpec => ({
  type: 'string',
  enum: values,
  description: `Lowest role allowed to delete matching items; without it ${fallback} can delete.`,
});
/** A rule's role on update, where the instance also takes "" to remove it. */
const unsettable = (level: ParamSpec): ParamSpec => ({
  ...level,
  enum: [...(level.enum as string[]), ''],
  description: `${level.description} An empty string "" removes the requirement.`,
});
const ruleId = (what: string): ParamSpec => ({
  type: 'integer',
  minimum: 1,
  description: `Numeric ID of the ${what} protection rule (from the rule list).`,
});

const enc = (v: unknown): string => encodeURIComponent(String(v));
/** A generic package file's route below /api/v4 (its upload and its download URL); folders kept as such. */
const genericFilePath = (args: Record<string, unknown>, fileName: string): string =>
  `/projects/${enc(args.project_id)}/packages/generic/${enc(args.package_name)}/${enc(args.package_version)}/${fileName.split('/').map(enc).join('/')}`;
/**
 * Uploads one file to a generic package. The instance takes the file itself as the request body
 * (`curl --upload-file`, not a multipart form), with `status` and `select` in the query string; the
 * executor's context hands `raw` to the instance client unchanged. `select: 'package_file'` makes the
 * instance answer with the stored file record instead of `{"message":"201 Created"}`; an undefined
 * `status` or `select` is left out of the query.
 */
async function uploadGeneric(
  ctx: ActionContext,
  args: Record<string, unknown>,
  fileName: string,
  bytes: Buffer,
  select: unknown,
): Promise<unknown> {
  return ctx.rest('PUT', genericFilePath(args, fileName), {
    query: { status: args.status, select },
    raw: { bytes, contentType: 'application/octet-stream' },
  });
}

const contentOf = async (args: Record<string, unknown>, ctx: ActionContext): Promise<Buffer> =>
  typeof args.file_path === 'string'
    ? fsp.readFile(await ctx.localPath(args.file_path, 'upload'))
    : fromBase64(String(args.content_base64 ?? ''), 'content_base64');

/** The file's name inside the package: under `path` when given, its slashes at either end dropped ("dist/"). */
const relativeName = (args: Record<string, unknown>): string => {
  const folder = typeof args.path === 'string' ? withoutEndSlashes(args.path) : '';
  return folder ? `${folder}/${String(args.file_name)}` : String(args.file_name);
};

/** Publishes one file to the generic registry; `select` only when the caller asked for it. */
const publish: ActionHandler = async (args, ctx) =>
  uploadGeneric(ctx, args, relativeName(args), await contentOf(args, ctx), args.select);

/** Publishes one file to the generic registry, then links it from a release as an asset. */
const publishAndLink: ActionHandler = async (args, ctx) => {
  const fileName = relativeName(args);
  const url =
    typeof args.link_url === 'string'
      ? args.link_url
      : `${ctx.instanceUrl}/api/v4${genericFilePath(args, fileName)}`;
  const packageFile = await uploadGeneric(ctx, args, fileName, await contentOf(args, ctx), 'package_file');
  const link = await ctx.rest(
    'POST',
    `/projects/${enc(args.project_id)}/releases/${enc(args.tag_name)}/assets/links`,
    {
      body: {
        name: args.link_name ?? fileName,
        url,
        link_type: args.link_type ?? 'package',
        ...(args.direct_asset_path ? { direct_asset_path: args.direct_asset_path } : {}),
      },
    },
  );
  return { package_file: packageFile, release_link: link };
};

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out.sort();
}

/** Publishes every file of a local directory (or of a `files` list) into one generic package version. */
const publishDirectory: ActionHandler = async (args, ctx) => {
  const uploads: Array<{ name: string; bytes: () => Promise<Buffer> }> = [];
  if (typeof args.directory_path === 'string') {
    // Checked by the path policy; links inside are not followed (walk reads files and folders only).
    const root = await ctx.localPath(args.directory_path, 'directory');
    for (const full of await walk(root))
      uploads.push({ name: relative(root, full).split(sep).join('/'), bytes: () => fsp.readFile(full) });
  }
  for (const f of (args.files as Array<{ file_name: string; content_base64: string }> | undefined) ?? []) {
    // Decoded before anything is published: a bad entry refuses the whole call.
    const bytes = fromBase64(f.content_base64, `files[].content_base64 of ${f.file_name}`);
    uploads.push({ name: f.file_name, bytes: async () => bytes });
  }
  const published: unknown[] = [];
  for (const u of uploads)
    published.push(await uploadGeneric(ctx, args, u.name, await u.bytes(), 'package_file'));
  return { published: published.length, files: published };
};

export const domain: DomainSpec = {
  domain: 'package',
  metaTool: 'forge_package',
  summary:
    'Package and container registries: list, inspect, download, publish and delete packages and their files, manage container repositories and image tags, and package/registry protection rules.',
  actions: [
    {
      id: 'package.delete',
      title: 'Delete package',
      description:
        'Delete a package and all its files from the package registry. Irreversible; consumers can no longer install that version.',
      tool: 'forge_package_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, package_id: packageId },
      required: ['project_id', 'package_id'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/packages/:package_id' } },
      example: { project_id: '1', package_id: 1 },
    },
    {
      id: 'package.download',
      title: 'Download generic package file',
      description:
        'Download one file of a generic package by name, version and file name; returns the bytes (or saves them to output_path on stdio).',
      tool: 'forge_package_download',
      // One of the five writes a read_api token may run: it counts as a write for safe mode, confirmation
      // and read-only, and its tool carries no readOnlyHint.
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        ...genericLocation,
        output_path: P.outputPath,
      },
      required: ['project_id', 'package_name', 'package_version', 'file_name'],
      request: { rest: { method: 'GET', path: genericPaths, response: 'binary' } },
      example: {
        project_id: '1',
        package_name: 'widgets-cli',
        package_version: '1.0.0',
        file_name: 'widgets.tar.gz',
      },
    },
    {
      id: 'package.file_delete',
      title: 'Delete package file',
      description:
        'Delete one file from a package while keeping the package and its other files. Irreversible.',
      tool: 'forge_package_file_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, package_id: packageId, package_file_id: packageFileId },
      required: ['project_id', 'package_id', 'package_file_id'],
      request: {
        rest: {
          method: 'DELETE',
          path: '/projects/:project_id/packages/:package_id/package_files/:package_file_id',
        },
      },
      example: { project_id: '1', package_id: 1, package_file_id: 1 },
    },
    {
      id: 'package.file_list',
      title: 'List package files',
      description:
        'List the files of a package with their size, checksums and the pipelines that built them.',
      tool: 'forge_package_file_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        package_id: packageId,
        order_by: P.str('Order files by "id" (default), "created_at" or "file_name".', {
          enum: ['id', 'created_at', 'file_name'],
        }),
        sort: P.str('Sort direction: "asc" (default) or "desc".', { enum: ['asc', 'desc'] }),
        ...P.paging,
      },
      required: ['project_id', 'package_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/packages/:package_id/package_files' } },
      example: { project_id: '1', package_id: 1 },
    },
    {
      id: 'package.get',
      title: 'Get package',
      description: 'Show one package: name, version, type, status, links and the pipeline that published it.',
      tool: 'forge_package_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, package_id: packageId },
      required: ['project_id', 'package_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/packages/:package_id' } },
      notFound: { object: 'Package', key: 'package_id', next: ['package.list', 'package.group_list'] },
      example: { project_id: '1', package_id: 1 },
    },
    {
      id: 'package.group_list',
      title: 'List group packages',
      description:
        'List the packages of all projects in a group (and subgroups unless excluded), filtered by type, name, version or status.',
      tool: 'forge_package_group_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        group_id: P.groupId,
        exclude_subgroups: {
          type: 'boolean',
          description: 'true to leave out packages of subgroup projects.',
        },
        order_by: {
          type: 'string',
          enum: ['created_at', 'name', 'version', 'type', 'project_path'],
          description: 'Field to order by (default created_at).',
        },
        ...packageListFilters,
        ...P.paging,
      },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/packages' } },
      example: { group_id: '10', package_type: 'generic' },
    },
    {
      id: 'package.list',
      title: 'List project packages',
      description:
        "List the packages in a project's package registry, filtered by type, name, version or status; use it to find a package ID.",
      tool: 'forge_package_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        order_by: {
          type: 'string',
          enum: ['created_at', 'name', 'version', 'type'],
          description: 'Field to order by (default created_at).',
        },
        ...packageListFilters,
        ...P.paging,
      },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/packages' } },
      example: { project_id: '1', package_name: 'widgets' },
    },
    {
      id: 'package.protection_rule_create',
      title: 'Create package protection rule',
      description:
        'Protect packages whose name matches a pattern so only the given roles may publish or delete them. At least one of the two access levels is needed.',
      tool: 'forge_create_package_protection_rule',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        package_name_pattern: {
          type: 'string',
          description: 'Package name to protect; "*" is a wildcard, e.g. "@acme/widgets-*".',
        },
        package_type: {
          type: 'string',
          description: 'Package format the rule applies to, e.g. "npm", "maven", "pypi", "generic".',
        },
        minimum_access_level_for_push: pushLevel,
        minimum_access_level_for_delete: deleteLevel(['owner', 'admin'], 'maintainers'),
      },
      required: ['project_id', 'package_name_pattern', 'package_type'],
      oneOf: [['minimum_access_level_for_push', 'minimum_access_level_for_delete']],
      request: { rest: { method: 'POST', path: '/projects/:project_id/packages/protection/rules' } },
      example: {
        project_id: '1',
        package_name_pattern: '@acme/widgets-*',
        package_type: 'npm',
        minimum_access_level_for_push: 'maintainer',
      },
    },
    {
      id: 'package.protection_rule_delete',
      title: 'Delete package protection rule',
      description:
        'Remove a package protection rule; matching packages fall back to default publish/delete rights.',
      tool: 'forge_delete_package_protection_rule',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, package_protection_rule_id: ruleId('package') },
      required: ['project_id', 'package_protection_rule_id'],
      request: {
        rest: {
          method: 'DELETE',
          path: '/projects/:project_id/packages/protection/rules/:package_protection_rule_id',
        },
      },
      example: { project_id: '1', package_protection_rule_id: 1 },
    },
    {
      id: 'package.protection_rule_list',
      title: 'List package protection rules',
      description: "List a project's package protection rules (name patterns and who may push or delete).",
      tool: 'forge_list_package_protection_rules',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      // The instance answers every rule at once (no paging).
      params: { project_id: P.projectId },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/packages/protection/rules' } },
      example: { project_id: '1' },
    },
    {
      id: 'package.protection_rule_update',
      title: 'Update package protection rule',
      description: 'Change the name pattern, package type or required roles of a package protection rule.',
      tool: 'forge_update_package_protection_rule',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        package_protection_rule_id: ruleId('package'),
        package_name_pattern: { type: 'string', description: 'New package name pattern; "*" is a wildcard.' },
        package_type: { type: 'string', description: 'Package format the rule applies to, e.g. "npm".' },
        minimum_access_level_for_push: pushLevel,
        minimum_access_level_for_delete: deleteLevel(['owner', 'admin'], 'maintainers'),
      },
      required: ['project_id', 'package_protection_rule_id'],
      request: {
        rest: {
          method: 'PATCH',
          path: '/projects/:project_id/packages/protection/rules/:package_protection_rule_id',
        },
      },
      example: { project_id: '1', package_protection_rule_id: 1, minimum_access_level_for_push: 'owner' },
    },
    {
      id: 'package.publish',
      title: 'Publish generic package file',
      description:
        'Upload one file into a generic package version (created on first upload), e.g. a release binary or archive. Re-uploading the same file name adds a newer file.',
      tool: 'forge_package_publish',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        ...genericLocation,
        ...fileContent,
        status: uploadStatus,
        select: {
          type: 'string',
          in: 'query',
          enum: ['package_file'],
          description: 'package_file to answer with the stored file record instead of a bare confirmation.',
        },
      },
      required: ['project_id', 'package_name', 'package_version', 'file_name'],
      oneOf: [['content_base64', 'file_path']],
      request: { rest: { method: 'PUT', path: genericPaths } },
      handler: publish,
      example: {
        project_id: '1',
        package_name: 'widgets-cli',
        package_version: '1.0.0',
        file_name: 'hello.txt',
        content_base64: 'aGVsbG8K',
        select: 'package_file',
      },
    },
    {
      id: 'package.publish_and_link',
      title: 'Publish package file and link to release',
      description:
        'Upload a file into a generic package and attach it to an existing release as an asset link in one step (two requests: upload, then link).',
      tool: 'forge_package_publish_and_link',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        ...genericLocation,
        ...fileContent,
        status: uploadStatus,
        tag_name: {
          type: 'string',
          in: 'none',
          description: 'Tag of the release to link the file from, e.g. "v1.0.0".',
        },
        link_name: {
          type: 'string',
          in: 'none',
          description: 'Display name of the release asset (default: the file name).',
        },
        link_type: {
          type: 'string',
          in: 'none',
          enum: ['other', 'runbook', 'image', 'package'],
          description: 'Kind of release asset (default package).',
        },
        link_url: {
          type: 'string',
          in: 'none',
          description:
            "Download URL the release link should point to; default: the file's generic package URL on this instance.",
        },
        direct_asset_path: {
          type: 'string',
          in: 'none',
          description: 'Optional stable permalink path under the release, e.g. "/binaries/widgets-cli".',
        },
      },
      required: ['project_id', 'package_name', 'package_version', 'file_name', 'tag_name'],
      oneOf: [['content_base64', 'file_path']],
      request: { rest: { method: 'PUT', path: genericPaths } },
      handler: publishAndLink,
      example: {
        project_id: '1',
        package_name: 'widgets-cli',
        package_version: '1.0.0',
        file_name: 'hello.txt',
        content_base64: 'aGVsbG8K',
        tag_name: 'v1.0.0',
        link_url: 'https://forge.example.com/api/v4/projects/1/packages/generic/widgets-cli/1.0.0/hello.txt',
      },
    },
    {
      id: 'package.publish_directory',
      title: 'Publish directory as generic package',
      description:
        'Upload every file of a local directory (stdio) or of a files list into one generic package version, keeping relative paths; one upload per file.',
      tool: 'forge_package_publish_directory',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        package_name: genericLocation.package_name,
        package_version: genericLocation.package_version,
        directory_path: {
          type: 'string',
          in: 'none',
          description: 'Local directory whose files are published, recursively (stdio only).',
        },
        files: {
          type: 'array',
          in: 'none',
          minItems: 1,
          items: {
            type: 'object',
            properties: { file_name: { type: 'string' }, content_base64: { type: 'string' } },
            required: ['file_name', 'content_base64'],
          },
          description:
            'Files to publish when no local directory is used: [{"file_name": "bin/tool", "content_base64": "..."}].',
        },
        status: uploadStatus,
      },
      required: ['project_id', 'package_name', 'package_version'],
      oneOf: [['directory_path', 'files']],
      handler: publishDirectory,
      example: {
        project_id: '1',
        package_name: 'widgets-docs',
        package_version: '1.0.0',
        files: [
          { file_name: 'index.html', content_base64: 'PGgxPkhpPC9oMT4K' },
          { file_name: 'css/site.css', content_base64: 'Ym9keXt9Cg==' },
        ],
      },
    },
    {
      id: 'package.registry_delete',
      title: 'Delete container repository',
      description:
        'Delete a container image repository with all its tags (removal is scheduled in the background). Irreversible.',
      tool: 'forge_registry_delete_repository',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, repository_id: repositoryId },
      required: ['project_id', 'repository_id'],
      request: {
        rest: { method: 'DELETE', path: '/projects/:project_id/registry/repositories/:repository_id' },
      },
      example: { project_id: '1', repository_id: 1 },
    },
    {
      id: 'package.registry_get',
      title: 'Get container repository',
      description: 'Show one container image repository by ID: path, location, tag count and size.',
      tool: 'forge_registry_get_repository',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        repository_id: repositoryId,
        tags: { type: 'boolean', description: 'true to include the list of tags.' },
        tags_count: { type: 'boolean', description: 'true to include the number of tags.' },
        size: {
          type: 'boolean',
          description: 'true to include the repository size (when the registry reports it).',
        },
      },
      required: ['repository_id'],
      request: { rest: { method: 'GET', path: '/registry/repositories/:repository_id' } },
      notFound: {
        object: 'Container repository',
        key: 'repository_id',
        next: ['package.registry_list_project', 'package.registry_list_group'],
      },
      example: { repository_id: 1, tags_count: true },
    },
    {
      id: 'package.registry_list_group',
      title: 'List group container repositories',
      description: 'List the container image repositories of all projects in a group.',
      tool: 'forge_registry_list_group',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { group_id: P.groupId, ...P.paging },
      required: ['group_id'],
      request: { rest: { method: 'GET', path: '/groups/:group_id/registry/repositories' } },
      example: { group_id: '10' },
    },
    {
      id: 'package.registry_list_project',
      title: 'List project container repositories',
      description: "List a project's container image repositories, optionally with their tags or tag counts.",
      tool: 'forge_registry_list_project',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        tags: { type: 'boolean', description: "true to include each repository's tags." },
        tags_count: { type: 'boolean', description: "true to include each repository's number of tags." },
        ...P.paging,
      },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/registry/repositories' } },
      example: { project_id: '1', tags_count: true },
    },
    {
      id: 'package.registry_rule_create',
      title: 'Create container repository protection rule',
      description:
        'Protect container repositories whose path matches a pattern so only the given roles may push or delete images.',
      tool: 'forge_registry_protection_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        repository_path_pattern: {
          type: 'string',
          description: 'Full repository path to protect, "*" as wildcard, e.g. "acme/widgets/api*".',
        },
        minimum_access_level_for_push: pushLevel,
        minimum_access_level_for_delete: deleteLevel(['maintainer', 'owner', 'admin'], 'developers'),
      },
      required: ['project_id', 'repository_path_pattern'],
      oneOf: [['minimum_access_level_for_push', 'minimum_access_level_for_delete']],
      request: {
        rest: { method: 'POST', path: '/projects/:project_id/registry/protection/repository/rules' },
      },
      example: {
        project_id: '1',
        repository_path_pattern: 'acme/widgets/release*',
        minimum_access_level_for_push: 'maintainer',
        minimum_access_level_for_delete: 'owner',
      },
    },
    {
      id: 'package.registry_rule_delete',
      title: 'Delete container repository protection rule',
      description:
        'Remove a container repository protection rule; matching repositories fall back to default rights.',
      tool: 'forge_registry_protection_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, protection_rule_id: ruleId('container repository') },
      required: ['project_id', 'protection_rule_id'],
      request: {
        rest: {
          method: 'DELETE',
          path: '/projects/:project_id/registry/protection/repository/rules/:protection_rule_id',
        },
      },
      example: { project_id: '1', protection_rule_id: 1 },
    },
    {
      id: 'package.registry_rule_list',
      title: 'List container repository protection rules',
      description:
        "List a project's container repository protection rules (path patterns and required roles).",
      tool: 'forge_registry_protection_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      // The instance answers every rule at once (no paging).
      params: { project_id: P.projectId },
      required: ['project_id'],
      request: {
        rest: { method: 'GET', path: '/projects/:project_id/registry/protection/repository/rules' },
      },
      example: { project_id: '1' },
    },
    {
      id: 'package.registry_rule_update',
      title: 'Update container repository protection rule',
      description: 'Change the path pattern or required roles of a container repository protection rule.',
      tool: 'forge_registry_protection_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        protection_rule_id: ruleId('container repository'),
        repository_path_pattern: {
          type: 'string',
          description: 'New repository path pattern; "*" is a wildcard.',
        },
        minimum_access_level_for_push: unsettable(pushLevel),
        minimum_access_level_for_delete: unsettable(
          deleteLevel(['maintainer', 'owner', 'admin'], 'developers'),
        ),
      },
      required: ['project_id', 'protection_rule_id'],
      request: {
        rest: {
          method: 'PATCH',
          path: '/projects/:project_id/registry/protection/repository/rules/:protection_rule_id',
        },
      },
      example: { project_id: '1', protection_rule_id: 1, minimum_access_level_for_delete: 'admin' },
    },
    {
      id: 'package.registry_tag_delete',
      title: 'Delete container image tag',
      description:
        'Delete one tag from a container repository; the image stays only if other tags reference it. Irreversible.',
      tool: 'forge_registry_delete_tag',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, repository_id: repositoryId, tag_name: imageTag },
      required: ['project_id', 'repository_id', 'tag_name'],
      request: {
        rest: {
          method: 'DELETE',
          path: '/projects/:project_id/registry/repositories/:repository_id/tags/:tag_name',
        },
      },
      example: { project_id: '1', repository_id: 1, tag_name: 'v1.0.0' },
    },
    {
      id: 'package.registry_tag_delete_bulk',
      title: 'Bulk delete container image tags',
      description:
        'Delete many tags of a container repository at once by name regex, keeping the newest N and/or those younger than a given age (runs in the background). At most once an hour per repository: a second call within the hour is refused (400). Irreversible.',
      tool: 'forge_registry_delete_tags_bulk',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        repository_id: repositoryId,
        name_regex_delete: {
          type: 'string',
          description: 'RE2 regex of tag names to delete; ".*" matches all, e.g. "dev-.*".',
        },
        name_regex_keep: {
          type: 'string',
          description: 'RE2 regex of tag names never to delete, e.g. "^(main|latest|v\\\\d+.*)$".',
        },
        keep_n: { type: 'integer', minimum: 0, description: 'Number of newest matching tags to keep.' },
        older_than: {
          type: 'string',
          description: 'Only delete tags older than this, in human form, e.g. "1h", "7d", "1month".',
        },
      },
      required: ['project_id', 'repository_id', 'name_regex_delete'],
      request: {
        rest: { method: 'DELETE', path: '/projects/:project_id/registry/repositories/:repository_id/tags' },
      },
      example: {
        project_id: '1',
        repository_id: 1,
        name_regex_delete: 'dev-.*',
        keep_n: 5,
        older_than: '7d',
      },
    },
    {
      id: 'package.registry_tag_get',
      title: 'Get container image tag',
      description: 'Show one tag of a container repository: digest, revision, size and creation time.',
      tool: 'forge_registry_get_tag',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { project_id: P.projectId, repository_id: repositoryId, tag_name: imageTag },
      required: ['project_id', 'repository_id', 'tag_name'],
      request: {
        rest: {
          method: 'GET',
          path: '/projects/:project_id/registry/repositories/:repository_id/tags/:tag_name',
        },
      },
      notFound: { object: 'Container image tag', key: 'tag_name', next: ['package.registry_tag_list'] },
      example: { project_id: '1', repository_id: 1, tag_name: 'latest' },
    },
    {
      id: 'package.registry_tag_list',
      title: 'List container image tags',
      description: 'List the tags of a container image repository.',
      tool: 'forge_registry_list_tags',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        repository_id: repositoryId,
        ...P.paging,
        ...P.keysetPaging(
          'by tag name; only on a registry with its metadata database, otherwise 405',
          'last',
        ),
        sort: P.str('With pagination "keyset": tag name order, "asc" (default) or "desc".', {
          enum: ['asc', 'desc'],
        }),
      },
      required: ['project_id', 'repository_id'],
      needsValue: P.keysetNeeds('last', ['sort']),
      request: {
        rest: { method: 'GET', path: '/projects/:project_id/registry/repositories/:repository_id/tags' },
      },
      example: { project_id: '1', repository_id: 1 },
    },
    {
      id: 'package.registry_tag_rule_create',
      title: 'Create container tag protection rule',
      description:
        'Protect container image tags matching a pattern so only the given roles may push or delete them (e.g. protect "latest" or release tags). Both the push and the delete role are required.',
      tool: 'forge_package_registry_tag_rule_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        tag_name_pattern: {
          type: 'string',
          description: 'Tag names to protect; "*" is a wildcard, e.g. "v*-release" or "latest".',
        },
        minimum_access_level_for_push: {
          ...pushLevel,
          description: 'Lowest role allowed to push matching tags: maintainer, owner or admin.',
        },
        minimum_access_level_for_delete: {
          ...deleteLevel(['maintainer', 'owner', 'admin'], 'developers'),
          description: 'Lowest role allowed to delete matching tags: maintainer, owner or admin.',
        },
      },
      required: [
        'project_id',
        'tag_name_pattern',
        'minimum_access_level_for_push',
        'minimum_access_level_for_delete',
      ],
      request: { rest: { method: 'POST', path: '/projects/:project_id/registry/protection/tag/rules' } },
      example: {
        project_id: '1',
        tag_name_pattern: 'v*-release',
        minimum_access_level_for_push: 'maintainer',
        minimum_access_level_for_delete: 'maintainer',
      },
    },
    {
      id: 'package.registry_tag_rule_delete',
      title: 'Delete container tag protection rule',
      description:
        'Remove a container tag protection rule; matching tags can again be pushed or deleted by developers.',
      tool: 'forge_package_registry_tag_rule_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, protection_rule_id: ruleId('container tag') },
      required: ['project_id', 'protection_rule_id'],
      request: {
        rest: {
          method: 'DELETE',
          path: '/projects/:project_id/registry/protection/tag/rules/:protection_rule_id',
        },
      },
      example: { project_id: '1', protection_rule_id: 1 },
    },
    {
      id: 'package.registry_tag_rule_list',
      title: 'List container tag protection rules',
      description:
        "List a project's container tag protection rules (tag patterns and who may push or delete).",
      tool: 'forge_package_registry_tag_rule_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      // The instance answers every rule at once (no paging).
      params: { project_id: P.projectId },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/registry/protection/tag/rules' } },
      example: { project_id: '1' },
    },
    {
      id: 'package.registry_tag_rule_update',
      title: 'Update container tag protection rule',
      description:
        'Change the tag pattern or required roles of a container tag protection rule; an empty string unsets an access level.',
      tool: 'forge_package_registry_tag_rule_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        protection_rule_id: ruleId('container tag'),
        tag_name_pattern: { type: 'string', description: 'New tag name pattern; "*" is a wildcard.' },
        minimum_access_level_for_push: { ...pushLevel, enum: ['maintainer', 'owner', 'admin', ''] },
        minimum_access_level_for_delete: {
          ...deleteLevel(['maintainer', 'owner', 'admin', ''], 'developers'),
        },
      },
      required: ['project_id', 'protection_rule_id'],
      request: {
        rest: {
          method: 'PATCH',
          path: '/projects/:project_id/registry/protection/tag/rules/:protection_rule_id',
        },
      },
      example: { project_id: '1', protection_rule_id: 1, tag_name_pattern: 'v*-stable' },
    },
  ],
};
