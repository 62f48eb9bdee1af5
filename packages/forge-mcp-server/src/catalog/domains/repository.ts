import type { ActionContext, DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const enc = encodeURIComponent;

const commitSha: ParamSpec = {
  type: 'string',
  description: 'Commit SHA (full or short), or a branch or tag name that resolves to a commit, e.g. "main".',
};
const filePath: ParamSpec = {
  type: 'string',
  minLength: 1,
  description:
    'Path of the file inside the repository, e.g. "src/index.js" (slashes are URL-encoded for you; this is not a local path).',
};
/** lib/api/files.rb declares every file ref allow_blank: false: an empty ref is refused with 400. */
const fileRef: ParamSpec = {
  type: 'string',
  minLength: 1,
  description:
    'Branch, tag or commit SHA to read the file at, e.g. "main". Use "HEAD" for the default branch.',
};
const noteBody: ParamSpec = { type: 'string', minLength: 1, description: 'Comment text (Markdown).' };
const branch = (what: string): ParamSpec => ({ type: 'string', minLength: 1, description: what });
const commitMessage: ParamSpec = {
  type: 'string',
  minLength: 1,
  description: 'Message of the commit the change creates.',
};
const authorFields: Record<string, ParamSpec> = {
  author_email: {
    type: 'string',
    format: 'email',
    description: 'Commit author email; defaults to the token owner.',
  },
  author_name: { type: 'string', description: 'Commit author name; defaults to the token owner.' },
};
const startBranch: ParamSpec = {
  type: 'string',
  description:
    'Existing branch to start from when `branch` does not exist yet; the new branch is created from it.',
};
const lastCommitId: ParamSpec = {
  type: 'string',
  description:
    'Last known commit ID of the file (from repository.file_get); the write is refused if the file changed since (optimistic lock).',
};
const changelogCommon: Record<string, ParamSpec> = {
  version: {
    type: 'string',
    minLength: 1,
    description: 'Version the changelog is for, following semantic versioning, e.g. "1.2.0".',
  },
  from: {
    type: 'string',
    description: 'Commit SHA where the range starts (excluded); defaults to the tag of the previous version.',
  },
  to: {
    type: 'string',
    description: 'Commit SHA where the range ends (included); defaults to the default branch head.',
  },
  date: {
    type: 'string',
    format: 'date-time',
    description: 'Release date and time to show; defaults to now.',
  },
  trailer: {
    type: 'string',
    description: 'Git trailer that marks commits to include, e.g. "Changelog" (the default).',
  },
  config_file: {
    type: 'string',
    description:
      'Path of the changelog configuration file in the repository; defaults to .gitlab/changelog_config.yml.',
  },
  config_file_ref: {
    type: 'string',
    description: 'Branch, tag or SHA to read the configuration file from; defaults to the default branch.',
  },
};

interface GitmoduleEntry {
  name: string;
  path?: string;
  url?: string;
  resolved_project?: string;
  commit_sha?: string;
}

/** Turns a submodule remote (SSH, scp-like or HTTPS, absolute or relative) into a project path. */
function projectPathFromUrl(url: string): string | undefined {
  const scp = /^[^/@]+@[^:/]+:(.+)$/.exec(url);
  let path = scp ? scp[1] : undefined;
  if (!path) {
    try {
      path = new URL(url).pathname;
    } catch {
      return undefined;
    }
  }
  return path.replace(/^\/+/, '').replace(/\.git$/, '') || undefined;
}

function parseGitmodules(text: string): GitmoduleEntry[] {
  const entries: GitmoduleEntry[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const section = /^\[submodule\s+"(.*)"\]$/.exec(line);
    if (section) {
      entries.push({ name: section[1] });
      continue;
    }
    const current = entries.at(-1);
    const kv = /^([A-Za-z]+)\s*=\s*(.*)$/.exec(line);
    if (!current || !kv) continue;
    if (kv[1] === 'path') current.path = kv[2];
    if (kv[1] === 'url') {
      current.url = kv[2];
      current.resolved_project = projectPathFromUrl(kv[2]);
    }
  }
  return entries;
}

function decodeFile(file: unknown): string {
  const f = (file ?? {}) as { content?: string; encoding?: string };
  return f.encoding === 'base64'
    ? Buffer.from(f.content ?? '', 'base64').toString('utf8')
    : (f.content ?? '');
}

async function readSubmodules(ctx: ActionContext, projectId: string, ref: string): Promise<GitmoduleEntry[]> {
  const file = await ctx.rest('GET', `/projects/${enc(projectId)}/repository/files/.gitmodules`, {
    query: { ref },
  });
  return parseGitmodules(decodeFile(file));
}

/** The commit a submodule is pinned to: its tree entry of type `commit` in the parent repository. */
async function pinnedCommit(
  ctx: ActionContext,
  projectId: string,
  ref: string,
  path: string,
): Promise<string | undefined> {
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : undefined;
  const tree = (await ctx.rest('GET', `/projects/${enc(projectId)}/repository/tree`, {
    query: { ref, path: dir, per_page: 100 },
  })) as { id?: string; path?: string; type?: string }[];
  return Array.isArray(tree) ? tree.find((n) => n.path === path && n.type === 'commit')?.id : undefined;
}

/** Where a new branch starts, by branch or by commit: the instance takes at most one (mutually_exclusive). */
const startFrom = ['start_branch', 'start_sha'];
export const domain: DomainSpec = {
  domain: 'repository',
  metaTool: 'forge_repository',
  summary:
    'Browse and change repository content: files (read, raw, blame, create, update, delete), tree, commits (list, get, diff, create, cherry-pick, revert, statuses, comments, discussions), compare, merge base, blobs, contributors, changelogs, submodules and archive links.',
  actions: [
    {
      id: 'repository.archive',
      title: 'Get repository archive link',
      description:
        'Builds the API download link for a snapshot of the repository (tar.gz, zip, ...) at a branch, tag or commit, optionally limited to one folder. Sends nothing to the instance; fetch the link with the token to download.',
      tool: 'forge_repository_archive',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'no-request',
      params: {
        ...P.project,
        sha: {
          type: 'string',
          description: 'Branch, tag or commit SHA to archive; defaults to the default branch.',
        },
        format: {
          type: 'string',
          // Gitlab::PathRegex.archive_formats_regex, which the archive route requires of its format.
          enum: ['tar.gz', 'tgz', 'gz', 'tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2', 'tar', 'zip'],
          default: 'tar.gz',
          description: 'Archive format.',
        },
        path: { type: 'string', description: 'Only archive this folder of the repository, e.g. "docs".' },
        include_lfs_blobs: {
          type: 'boolean',
          description: 'Include Git LFS file content instead of pointer files (instance default true).',
        },
        exclude_paths: {
          type: 'array',
          items: { type: 'string' },
          description: 'Folders or files to leave out of the archive, e.g. ["vendor", "test/fixtures"].',
        },
      },
      required: ['project_id'],
      handler: async (args) => {
        const format = typeof args.format === 'string' ? args.format : 'tar.gz';
        const query = new URLSearchParams();
        for (const key of ['sha', 'path', 'include_lfs_blobs'] as const) {
          if (args[key] !== undefined) query.set(key, String(args[key]));
        }
        if (Array.isArray(args.exclude_paths)) query.set('exclude_paths', args.exclude_paths.join(','));
        const qs = query.toString();
        return {
          url: `/api/v4/projects/${enc(String(args.project_id))}/repository/archive.${format}${qs ? `?${qs}` : ''}`,
          format,
          note: 'Relative to the instance URL; send the request with the same token to download the archive.',
        };
      },
      example: { project_id: '1', sha: 'v1.0.0', format: 'zip' },
    },
    {
      id: 'repository.blob',
      title: 'Get blob',
      description:
        'Reads a Git blob object by its blob SHA (as listed by repository.tree): size, encoding and base64 content. To read a file by path use repository.file_get instead.',
      tool: 'forge_repository_blob',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        sha: {
          type: 'string',
          minLength: 1,
          description: 'Blob SHA, e.g. the `id` of a file entry from repository.tree.',
        },
      },
      required: ['project_id', 'sha'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/blobs/:sha' } },
      example: { project_id: '1', sha: '8a9c2d1e' },
    },
    {
      id: 'repository.changelog_add',
      title: 'Add changelog entry to file',
      description:
        'Generates release notes for a version from commits carrying a changelog trailer and commits them into the changelog file (CHANGELOG.md by default) on a branch. Use repository.changelog_generate to preview without committing.',
      tool: 'forge_repository_changelog_add',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        ...changelogCommon,
        to: {
          type: 'string',
          description: 'Commit SHA where the range ends (included); defaults to the head of `branch`.',
        },
        branch: {
          type: 'string',
          description: 'Branch to commit the changelog to; defaults to the default branch.',
        },
        file: { type: 'string', description: 'Changelog file to update; defaults to CHANGELOG.md.' },
        message: {
          type: 'string',
          description: 'Commit message; defaults to "Add changelog for version X".',
        },
      },
      required: ['project_id', 'version'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/repository/changelog' } },
      example: { project_id: '1', version: '1.1.0', branch: 'main' },
    },
    {
      id: 'repository.changelog_generate',
      title: 'Generate changelog',
      description:
        'Generates release-notes Markdown for a version from commits carrying a changelog trailer, without committing anything. Use repository.changelog_add to write it to the changelog file.',
      tool: 'forge_repository_changelog_generate',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, ...changelogCommon },
      required: ['project_id', 'version'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/changelog' } },
      example: { project_id: '1', version: '1.1.0' },
    },
    {
      id: 'repository.commit_cherry_pick',
      title: 'Cherry-pick commit',
      description:
        'Cherry-picks a commit onto a target branch, creating a new commit there. Set dry_run to check for conflicts without committing.',
      tool: 'forge_commit_cherry_pick',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        sha: commitSha,
        branch: branch('Target branch to apply the commit to.'),
        dry_run: {
          type: 'boolean',
          description: 'Only check whether the cherry-pick would succeed; commits nothing.',
        },
        message: { type: 'string', description: 'Custom message for the new commit.' },
      },
      required: ['project_id', 'sha', 'branch'],
      request: {
        rest: { method: 'POST', path: '/projects/:project_id/repository/commits/:sha/cherry_pick' },
      },
      example: { project_id: '1', sha: 'feature/login', branch: 'main', dry_run: true },
    },
    {
      id: 'repository.commit_comment_create',
      title: 'Comment on commit',
      description:
        'Adds a comment to a commit, either general or on a specific line of a changed file (give path, line and line_type). For threaded discussions use repository.commit_discussion_create.',
      tool: 'forge_commit_comment_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        sha: commitSha,
        note: noteBody,
        path: {
          type: 'string',
          description:
            'File path the comment refers to, relative to the repository root; when given, line is required too.',
        },
        line: {
          type: 'integer',
          minimum: 1,
          description: 'Line number the comment refers to (only with path, which then requires it).',
        },
        line_type: {
          type: 'string',
          enum: ['new', 'old'],
          description:
            'Whether line counts in the new or the old version of the file (only with path; default new).',
        },
      },
      required: ['project_id', 'sha', 'note'],
      // The instance declares line (and line_type, default new) inside given :path: required with path, read only with it.
      needs: { path: ['line'], line: ['path'], line_type: ['path'] },
      request: { rest: { method: 'POST', path: '/projects/:project_id/repository/commits/:sha/comments' } },
      example: { project_id: '1', sha: 'main', note: 'Looks good.' },
    },
    {
      id: 'repository.commit_comments',
      title: 'List commit comments',
      description: 'Lists the comments left on a commit, with file path and line for inline ones.',
      tool: 'forge_commit_comments',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, sha: commitSha, ...P.paging },
      required: ['project_id', 'sha'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/commits/:sha/comments' } },
      example: { project_id: '1', sha: 'main' },
    },
    {
      id: 'repository.commit_create',
      title: 'Create commit',
      description: `Creates one commit applying several file actions at once (create, update, delete, move, chmod) on a branch. Prefer repository.file_create/file_update for a single file. ${P.atMostOne([startFrom])}`,
      tool: 'forge_commit_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        branch: branch(
          'Branch to commit to. If it does not exist, also give start_branch, start_sha or start_project.',
        ),
        commit_message: commitMessage,
        actions: {
          type: 'array',
          minItems: 1,
          description: 'File changes applied in order, all in the one commit.',
          items: {
            type: 'object',
            required: ['action', 'file_path'],
            additionalProperties: false,
            properties: {
              action: {
                type: 'string',
                enum: ['create', 'delete', 'move', 'update', 'chmod'],
                description: 'What to do with the file.',
              },
              file_path: { type: 'string', description: 'Repository path of the file, e.g. "src/app.js".' },
              previous_path: { type: 'string', description: 'For move: the file’s old path.' },
              content: {
                type: 'string',
                description: 'New file content for create and update (optional for move).',
              },
              encoding: {
                type: 'string',
                enum: ['text', 'base64'],
                description: 'Encoding of content (default text).',
              },
              last_commit_id: {
                type: 'string',
                description: 'For update, move, delete: refuse if the file changed after this commit.',
              },
              execute_filemode: {
                type: 'boolean',
                description: 'For chmod: turn the execute flag on (true) or off (false).',
              },
            },
          },
        },
        start_branch: startBranch,
        start_sha: {
          type: 'string',
          description: 'Commit SHA to start the new branch from (instead of start_branch).',
        },
        start_project: {
          type: 'string',
          description:
            'Project ID or path to take start_branch/start_sha from, e.g. the fork parent; defaults to this project.',
        },
        ...authorFields,
        stats: {
          type: 'boolean',
          description: 'Include line statistics of the commit in the answer (default true).',
        },
        force: {
          type: 'boolean',
          description:
            'Overwrite the target branch with a commit based on start_branch/start_sha, discarding its history since.',
        },
      },
      required: ['project_id', 'branch', 'commit_message', 'actions'],
      exclusive: [startFrom],
      request: { rest: { method: 'POST', path: '/projects/:project_id/repository/commits' } },
      example: {
        project_id: '1',
        branch: 'main',
        commit_message: 'Add changelog and bump version',
        actions: [
          { action: 'create', file_path: 'CHANGELOG.md', content: '# Changelog\n' },
          { action: 'update', file_path: 'README.md', content: '# Widgets\n' },
        ],
      },
    },
    {
      id: 'repository.commit_diff',
      title: 'Get commit diff',
      description: 'Returns the per-file diffs a commit introduced (paths, modes, unified diff text).',
      tool: 'forge_commit_diff',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        sha: commitSha,
        unidiff: { type: 'boolean', description: 'Return diffs in unified diff format.' },
        ...P.paging,
      },
      required: ['project_id', 'sha'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/commits/:sha/diff' } },
      example: { project_id: '1', sha: 'main' },
    },
    {
      id: 'repository.commit_discussion_add_note',
      title: 'Reply to commit discussion',
      description: 'Adds a reply note to an existing discussion thread on a commit.',
      tool: 'forge_add_commit_discussion_note',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        sha: commitSha,
        discussion_id: P.discussionId,
        body: noteBody,
        created_at: {
          type: 'string',
          format: 'date-time',
          description: 'Backdate the note (administrators and project owners only).',
        },
      },
      required: ['project_id', 'sha', 'discussion_id', 'body'],
      request: {
        rest: {
          method: 'POST',
          path: '/projects/:project_id/repository/commits/:sha/discussions/:discussion_id/notes',
        },
      },
      example: {
        project_id: '1',
        sha: 'main',
        discussion_id: '6a9c1750b37d513a43987b574953fceb50b03ce7',
        body: 'Agreed.',
      },
    },
    {
      id: 'repository.commit_discussion_create',
      title: 'Start commit discussion',
      description:
        'Starts a new discussion thread on a commit, either general or attached to a diff line (give position). Reply with repository.commit_discussion_add_note.',
      tool: 'forge_create_commit_discussion',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        sha: commitSha,
        body: noteBody,
        created_at: {
          type: 'string',
          format: 'date-time',
          description: 'Backdate the discussion (administrators and project owners only).',
        },
        position: {
          type: 'object',
          description: 'Where in the diff to attach the thread; leave out for a general discussion.',
          properties: {
            base_sha: { type: 'string', description: 'SHA of the parent commit.' },
            start_sha: { type: 'string', description: 'SHA of the parent commit.' },
            head_sha: { type: 'string', description: 'SHA of this commit.' },
            position_type: {
              type: 'string',
              enum: ['text', 'image', 'file'],
              description: 'Kind of position.',
            },
            new_path: { type: 'string', description: 'File path after the change.' },
            old_path: { type: 'string', description: 'File path before the change.' },
            new_line: {
              type: 'integer',
              description: 'Line number after the change (for added or unchanged lines).',
            },
            old_line: {
              type: 'integer',
              description: 'Line number before the change (for removed or unchanged lines).',
            },
            width: { type: 'integer', minimum: 1, description: 'Image width (position_type image).' },
            height: { type: 'integer', minimum: 1, description: 'Image height (position_type image).' },
            x: {
              type: 'integer',
              minimum: 0,
              description: 'X coordinate on the image (position_type image).',
            },
            y: {
              type: 'integer',
              minimum: 0,
              description: 'Y coordinate on the image (position_type image).',
            },
          },
          required: ['base_sha', 'start_sha', 'head_sha', 'position_type'],
        },
      },
      required: ['project_id', 'sha', 'body'],
      request: {
        rest: { method: 'POST', path: '/projects/:project_id/repository/commits/:sha/discussions' },
      },
      example: { project_id: '1', sha: 'main', body: 'Why was this changed?' },
    },
    {
      id: 'repository.commit_discussion_delete_note',
      title: 'Delete commit discussion note',
      description: 'Deletes one note from a commit discussion thread. Irreversible.',
      tool: 'forge_delete_commit_discussion_note',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { ...P.project, sha: commitSha, discussion_id: P.discussionId, note_id: P.noteId },
      required: ['project_id', 'sha', 'discussion_id', 'note_id'],
      request: {
        rest: {
          method: 'DELETE',
          path: '/projects/:project_id/repository/commits/:sha/discussions/:discussion_id/notes/:note_id',
        },
      },
      example: {
        project_id: '1',
        sha: 'main',
        discussion_id: '6a9c1750b37d513a43987b574953fceb50b03ce7',
        note_id: 1,
      },
    },
    {
      id: 'repository.commit_discussion_get',
      title: 'Get commit discussion',
      description: 'Reads one discussion thread on a commit with all its notes.',
      tool: 'forge_get_commit_discussion',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, sha: commitSha, discussion_id: P.discussionId },
      required: ['project_id', 'sha', 'discussion_id'],
      request: {
        rest: {
          method: 'GET',
          path: '/projects/:project_id/repository/commits/:sha/discussions/:discussion_id',
        },
      },
      example: { project_id: '1', sha: 'main', discussion_id: '6a9c1750b37d513a43987b574953fceb50b03ce7' },
    },
    {
      id: 'repository.commit_discussion_list',
      title: 'List commit discussions',
      description: 'Lists the discussion threads on a commit, each with its notes.',
      tool: 'forge_list_commit_discussions',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, sha: commitSha, ...P.paging },
      required: ['project_id', 'sha'],
      request: {
        rest: { method: 'GET', path: '/projects/:project_id/repository/commits/:sha/discussions' },
      },
      example: { project_id: '1', sha: 'main' },
    },
    {
      id: 'repository.commit_discussion_update_note',
      title: 'Edit commit discussion note',
      description: 'Changes the text of a note in a commit discussion thread.',
      tool: 'forge_update_commit_discussion_note',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        sha: commitSha,
        discussion_id: P.discussionId,
        note_id: P.noteId,
        body: noteBody,
      },
      required: ['project_id', 'sha', 'discussion_id', 'note_id', 'body'],
      request: {
        rest: {
          method: 'PUT',
          path: '/projects/:project_id/repository/commits/:sha/discussions/:discussion_id/notes/:note_id',
        },
      },
      example: {
        project_id: '1',
        sha: 'main',
        discussion_id: '6a9c1750b37d513a43987b574953fceb50b03ce7',
        note_id: 1,
        body: 'Updated comment.',
      },
    },
    {
      id: 'repository.commit_get',
      title: 'Get commit',
      description:
        'Reads one commit: message, author, dates, parents, line statistics and last pipeline. Accepts a SHA or a branch/tag name.',
      tool: 'forge_commit_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        sha: commitSha,
        stats: { type: 'boolean', description: 'Include added/deleted line counts (default true).' },
      },
      required: ['project_id', 'sha'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/commits/:sha' } },
      notFound: { object: 'Commit', key: 'sha', next: ['repository.commit_list', 'branch.list', 'tag.list'] },
      example: { project_id: '1', sha: 'main' },
    },
    {
      id: 'repository.commit_list',
      title: 'List commits',
      description:
        'Lists commits of a branch or tag (default branch if none), newest first, filterable by date range, author and path. For one file’s history, repository.file_history is the shortcut.',
      tool: 'forge_commit_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        ref_name: {
          type: 'string',
          description:
            'Branch, tag or revision range, e.g. "main" or "v1.0.0..main"; defaults to the default branch.',
        },
        since: {
          type: 'string',
          format: 'date-time',
          description: 'Only commits after this time, e.g. "2024-01-01T00:00:00Z".',
        },
        until: { type: 'string', format: 'date-time', description: 'Only commits before this time.' },
        path: { type: 'string', description: 'Only commits touching this file or folder path.' },
        author: {
          type: 'string',
          description: 'Only commits by this author (name or email, partial match).',
        },
        all: { type: 'boolean', description: 'List commits from every branch and tag instead of one ref.' },
        with_stats: { type: 'boolean', description: 'Include added/deleted line counts for each commit.' },
        first_parent: { type: 'boolean', description: 'Follow only the first parent of merge commits.' },
        order: {
          type: 'string',
          enum: ['default', 'topo'],
          description: 'Reverse chronological (default) or topological order.',
        },
        trailers: { type: 'boolean', description: 'Parse and include Git trailers of each commit.' },
        ...P.paging,
      },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/commits' } },
      example: { project_id: '1', ref_name: 'main', per_page: 10 },
    },
    {
      id: 'repository.commit_merge_requests',
      title: 'List merge requests of commit',
      description:
        'Lists the merge requests that contain a commit, e.g. to find which MR introduced a change.',
      tool: 'forge_commit_merge_requests',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        sha: commitSha,
        state: {
          type: 'string',
          enum: ['opened', 'closed', 'locked', 'merged'],
          description: 'Only merge requests in this state.',
        },
        ...P.paging,
      },
      required: ['project_id', 'sha'],
      request: {
        rest: { method: 'GET', path: '/projects/:project_id/repository/commits/:sha/merge_requests' },
      },
      example: { project_id: '1', sha: 'main' },
    },
    {
      id: 'repository.commit_refs',
      title: 'List branches and tags of commit',
      description:
        'Lists the branches and/or tags that contain a commit, e.g. to see which releases ship a fix.',
      tool: 'forge_commit_refs',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        sha: commitSha,
        type: {
          type: 'string',
          enum: ['branch', 'tag', 'all'],
          description: 'Which refs to list (default all).',
        },
        ...P.paging,
      },
      required: ['project_id', 'sha'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/commits/:sha/refs' } },
      example: { project_id: '1', sha: 'main', type: 'tag' },
    },
    {
      id: 'repository.commit_revert',
      title: 'Revert commit',
      description:
        'Creates a new commit on a branch that undoes the changes of a given commit. Set dry_run to check for conflicts without committing.',
      tool: 'forge_commit_revert',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        sha: commitSha,
        branch: branch('Branch to put the revert commit on.'),
        dry_run: {
          type: 'boolean',
          description: 'Only check whether the revert would succeed; commits nothing.',
        },
      },
      required: ['project_id', 'sha', 'branch'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/repository/commits/:sha/revert' } },
      example: { project_id: '1', sha: 'main', branch: 'main', dry_run: true },
    },
    {
      id: 'repository.commit_signature',
      title: 'Get commit signature',
      description: 'Reads the GPG, SSH or X.509 signature of a commit and whether it is verified.',
      tool: 'forge_commit_signature',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, sha: commitSha },
      required: ['project_id', 'sha'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/commits/:sha/signature' } },
      example: { project_id: '1', sha: 'main' },
    },
    {
      id: 'repository.commit_status_set',
      title: 'Set commit status',
      description:
        'Reports an external CI/check status (pending, running, success, failed, canceled, skipped) on a commit, shown on its merge requests and pipelines. Posting again with the same name updates the status.',
      tool: 'forge_commit_status_set',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        sha: { type: 'string', minLength: 1, description: 'Full commit SHA the status is for.' },
        state: {
          type: 'string',
          enum: ['pending', 'running', 'success', 'failed', 'canceled', 'skipped'],
          description: 'Status to report.',
        },
        ref: {
          type: 'string',
          maxLength: 255,
          description: 'Branch or tag the status belongs to (at most 255 characters).',
        },
        name: {
          type: 'string',
          description: 'Label that tells this status apart from others, e.g. "lint" (default "default").',
        },
        context: { type: 'string', description: 'Alternative to name; same meaning.' },
        target_url: {
          type: 'string',
          format: 'uri',
          maxLength: 255,
          description: 'Link to the details, e.g. the external build page (at most 255 characters).',
        },
        description: {
          type: 'string',
          maxLength: 255,
          description: 'Short summary of the status (at most 255 characters).',
        },
        coverage: { type: 'number', minimum: 0, maximum: 100, description: 'Test coverage percentage.' },
        pipeline_id: {
          type: 'integer',
          minimum: 1,
          description: 'Pipeline to attach the status to when the commit has several.',
        },
      },
      required: ['project_id', 'sha', 'state'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/statuses/:sha' } },
      example: { project_id: '1', sha: 'main', state: 'success', name: 'external-ci' },
    },
    {
      id: 'repository.commit_statuses',
      title: 'List commit statuses',
      description:
        'Lists the CI job and external statuses reported for a commit, filterable by ref, stage, name or pipeline.',
      tool: 'forge_commit_statuses',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        sha: commitSha,
        ref: { type: 'string', description: 'Only statuses for this branch or tag.' },
        stage: { type: 'string', description: 'Only statuses of this pipeline stage, e.g. "test".' },
        name: {
          type: 'string',
          description: 'Only statuses with this name (job name or external status name).',
        },
        pipeline_id: { type: 'integer', minimum: 1, description: 'Only statuses of this pipeline.' },
        all: { type: 'boolean', description: 'Include every status, not only the latest per name.' },
        order_by: { type: 'string', enum: ['id', 'pipeline_id'], description: 'Sort field (default id).' },
        sort: { type: 'string', enum: ['asc', 'desc'], description: 'Sort direction (default asc).' },
        ...P.paging,
      },
      required: ['project_id', 'sha'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/commits/:sha/statuses' } },
      example: { project_id: '1', sha: 'main' },
    },
    {
      id: 'repository.compare',
      title: 'Compare branches, tags or commits',
      description:
        'Compares two refs (branches, tags or SHAs): the commits and file diffs between them. Use before opening a merge request or to see what changed between releases.',
      tool: 'forge_repository_compare',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        from: {
          type: 'string',
          minLength: 1,
          description: 'Base ref: branch, tag or commit SHA, e.g. "v1.0.0".',
        },
        to: {
          type: 'string',
          minLength: 1,
          description: 'Compared ref: branch, tag or commit SHA, e.g. "main".',
        },
        from_project_id: {
          type: 'integer',
          minimum: 1,
          description: 'Take `from` from this project (e.g. a fork).',
        },
        straight: {
          type: 'boolean',
          description:
            'true: direct diff from..to; false (default): diff from the merge base, as merge requests do.',
        },
        unidiff: { type: 'boolean', description: 'Return diffs in unified diff format.' },
      },
      required: ['project_id', 'from', 'to'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/compare' } },
      example: { project_id: '1', from: 'main', to: 'feature/login' },
    },
    {
      id: 'repository.contributors',
      title: 'List contributors',
      description: 'Lists the repository’s contributors with commit, addition and deletion counts.',
      tool: 'forge_repository_contributors',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        ref: { type: 'string', description: 'Branch or tag to count on; defaults to the default branch.' },
        order_by: {
          type: 'string',
          enum: ['name', 'email', 'commits'],
          description: 'Sort field (default commits).',
        },
        sort: { type: 'string', enum: ['asc', 'desc'], description: 'Sort direction (default asc).' },
        ...P.paging,
      },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/contributors' } },
      example: { project_id: '1' },
    },
    {
      id: 'repository.file_blame',
      title: 'Blame file',
      description: 'Shows which commit last changed each line of a file, optionally for a line range only.',
      tool: 'forge_file_blame',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        file_path: filePath,
        ref: fileRef,
        range_start: {
          type: 'integer',
          minimum: 1,
          wire: 'range[start]',
          description: 'First line to blame (give with range_end).',
        },
        range_end: {
          type: 'integer',
          minimum: 1,
          wire: 'range[end]',
          description: 'Last line to blame (give with range_start).',
        },
      },
      required: ['project_id', 'file_path', 'ref'],
      // The instance's range takes both ends or none.
      needs: { range_start: ['range_end'], range_end: ['range_start'] },
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/files/:file_path/blame' } },
      example: { project_id: '1', file_path: 'README.md', ref: 'main' },
    },
    {
      id: 'repository.file_create',
      title: 'Create file',
      description:
        'Creates a new file in the repository with one commit on a branch (start_branch creates the branch). Fails if the file exists; use repository.file_update then.',
      tool: 'forge_file_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        file_path: filePath,
        branch: branch('Branch to commit to.'),
        content: {
          type: 'string',
          description: 'File content (plain text, or base64 when encoding is base64).',
        },
        commit_message: commitMessage,
        start_branch: startBranch,
        encoding: {
          type: 'string',
          enum: ['text', 'base64'],
          description: 'Encoding of content (default text).',
        },
        execute_filemode: { type: 'boolean', description: 'Mark the file executable.' },
        ...authorFields,
      },
      required: ['project_id', 'file_path', 'branch', 'content', 'commit_message'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/repository/files/:file_path' } },
      example: {
        project_id: '1',
        file_path: 'docs/usage.md',
        branch: 'main',
        content: '# Usage\n',
        commit_message: 'Add usage docs',
      },
    },
    {
      id: 'repository.file_delete',
      title: 'Delete file',
      description:
        'Deletes a file from a branch with a commit. The file stays in earlier history, but the branch loses it; irreversible short of a revert.',
      tool: 'forge_file_delete',
      write: true,
      destructive: true,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        file_path: filePath,
        branch: branch('Branch to delete the file from.'),
        commit_message: commitMessage,
        start_branch: startBranch,
        last_commit_id: lastCommitId,
        ...authorFields,
      },
      required: ['project_id', 'file_path', 'branch', 'commit_message'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/repository/files/:file_path' } },
      example: {
        project_id: '1',
        file_path: 'src/index.js',
        branch: 'feature/login',
        commit_message: 'Remove entry file',
      },
    },
    {
      id: 'repository.file_get',
      title: 'Get file',
      description:
        'Reads a file at a branch, tag or commit: name, size, blob and commit IDs, and its content base64-encoded. For plain text content use repository.file_raw.',
      tool: 'forge_file_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, file_path: filePath, ref: fileRef },
      required: ['project_id', 'file_path', 'ref'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/files/:file_path' } },
      notFound: { object: 'File', key: 'file_path', next: ['repository.tree', 'branch.list'] },
      example: { project_id: '1', file_path: 'README.md', ref: 'main' },
    },
    {
      id: 'repository.file_history',
      title: 'File history',
      description: 'Lists the commits that changed one file or folder, newest first.',
      tool: 'forge_repository_file_history',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        file_path: { ...filePath, in: 'query', wire: 'path' },
        ref_name: { type: 'string', description: 'Branch or tag to follow; defaults to the default branch.' },
        since: { type: 'string', format: 'date-time', description: 'Only commits after this time.' },
        until: { type: 'string', format: 'date-time', description: 'Only commits before this time.' },
        author: {
          type: 'string',
          description: 'Only commits by this author (name or email, partial match).',
        },
        with_stats: { type: 'boolean', description: 'Include added/deleted line counts for each commit.' },
        ...P.paging,
      },
      required: ['project_id', 'file_path'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/commits' } },
      example: { project_id: '1', file_path: 'README.md' },
    },
    {
      id: 'repository.file_metadata',
      title: 'Get file metadata',
      description:
        'Checks that a file exists at a ref and reads its metadata (size, blob ID, last commit ID) without downloading the content.',
      tool: 'forge_file_metadata',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, file_path: filePath, ref: fileRef },
      required: ['project_id', 'file_path', 'ref'],
      request: { rest: { method: 'HEAD', path: '/projects/:project_id/repository/files/:file_path' } },
      example: { project_id: '1', file_path: 'README.md', ref: 'main' },
    },
    {
      id: 'repository.file_raw',
      title: 'Read raw file',
      description:
        'Returns a file’s content as plain text at a branch, tag or commit (default branch if none).',
      tool: 'forge_file_raw',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        file_path: filePath,
        ref: { ...fileRef, description: 'Branch, tag or commit SHA; defaults to the default branch.' },
        lfs: {
          type: 'boolean',
          description: 'For Git LFS files, return the stored content instead of the pointer.',
        },
      },
      required: ['project_id', 'file_path'],
      request: {
        rest: {
          method: 'GET',
          path: '/projects/:project_id/repository/files/:file_path/raw',
          response: 'text',
        },
      },
      example: { project_id: '1', file_path: 'src/index.js', ref: 'main' },
    },
    {
      id: 'repository.file_raw_metadata',
      title: 'Read raw file with metadata',
      description:
        'Fetches a file through the raw endpoint, whose answer also carries its metadata (blob ID, commit IDs, size) in headers; LFS-aware. Use to confirm a file exists at a ref before editing.',
      tool: 'forge_file_raw_metadata',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        file_path: filePath,
        ref: { ...fileRef, description: 'Branch, tag or commit SHA; defaults to the default branch.' },
        lfs: {
          type: 'boolean',
          description: 'For Git LFS files, report the stored object instead of the pointer.',
        },
      },
      required: ['project_id', 'file_path'],
      request: {
        rest: {
          method: 'GET',
          path: '/projects/:project_id/repository/files/:file_path/raw',
          response: 'text',
        },
      },
      example: { project_id: '1', file_path: 'README.md' },
    },
    {
      id: 'repository.file_update',
      title: 'Update file',
      description:
        'Replaces the content of an existing file with one commit on a branch. Give last_commit_id to refuse if someone changed the file meanwhile. Use repository.file_create for new files.',
      tool: 'forge_file_update',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        file_path: filePath,
        branch: branch('Branch to commit to.'),
        content: {
          type: 'string',
          description: 'Complete new file content (plain text, or base64 when encoding is base64).',
        },
        commit_message: commitMessage,
        start_branch: startBranch,
        encoding: {
          type: 'string',
          enum: ['text', 'base64'],
          description: 'Encoding of content (default text).',
        },
        last_commit_id: lastCommitId,
        execute_filemode: { type: 'boolean', description: 'Turn the execute flag on or off.' },
        ...authorFields,
      },
      required: ['project_id', 'file_path', 'branch', 'content', 'commit_message'],
      request: { rest: { method: 'PUT', path: '/projects/:project_id/repository/files/:file_path' } },
      example: {
        project_id: '1',
        file_path: 'README.md',
        branch: 'main',
        content: '# Widgets\n\nUpdated.\n',
        commit_message: 'Update README',
      },
    },
    {
      id: 'repository.list_submodules',
      title: 'List submodules',
      description:
        'Lists the Git submodules of a repository from its .gitmodules file: name, path, remote URL, the project path it resolves to and the commit each is pinned to.',
      tool: 'forge_list_repository_submodules',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: { ...P.project, ref: { ...fileRef, default: 'HEAD' } },
      required: ['project_id'],
      handler: async (args, ctx) => {
        const projectId = String(args.project_id);
        const ref = typeof args.ref === 'string' ? args.ref : 'HEAD';
        const submodules = await readSubmodules(ctx, projectId, ref);
        for (const s of submodules) {
          if (s.path) s.commit_sha = await pinnedCommit(ctx, projectId, ref, s.path).catch(() => undefined);
        }
        return { submodules, count: submodules.length };
      },
      example: { project_id: '1', ref: 'main' },
    },
    {
      id: 'repository.markdown_render',
      title: 'Render Markdown',
      description:
        'Renders Markdown to HTML the way the instance does (GitLab Flavored Markdown with references resolved in a project’s context when gfm and project are given).',
      tool: 'forge_render_markdown',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        text: { type: 'string', description: 'Markdown to render.' },
        gfm: {
          type: 'boolean',
          description: 'Render GitLab Flavored Markdown (default false: plain Markdown).',
        },
        project: {
          type: 'string',
          description:
            'Project path used to resolve references like #1 and !2 when gfm is true, e.g. "acme/widgets".',
        },
      },
      required: ['text'],
      request: { rest: { method: 'POST', path: '/markdown' } },
      example: { text: 'Fixes #1 in **widgets**', gfm: true, project: 'acme/widgets' },
    },
    {
      id: 'repository.merge_base',
      title: 'Find merge base',
      description: 'Finds the common ancestor commit of two or more branches, tags or SHAs.',
      tool: 'forge_repository_merge_base',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        refs: {
          type: 'array',
          minItems: 2,
          items: { type: 'string' },
          description:
            'Refs (branches, tags or SHAs) to find the common ancestor of, e.g. ["main", "feature/login"].',
        },
      },
      required: ['project_id', 'refs'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/merge_base' } },
      example: { project_id: '1', refs: ['main', 'feature/login'] },
    },
    {
      id: 'repository.raw_blob',
      title: 'Read raw blob',
      description: 'Returns the raw content of a Git blob by its blob SHA (from repository.tree).',
      tool: 'forge_repository_raw_blob',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        sha: {
          type: 'string',
          minLength: 1,
          description: 'Blob SHA, e.g. the `id` of a file entry from repository.tree.',
        },
      },
      required: ['project_id', 'sha'],
      request: {
        rest: { method: 'GET', path: '/projects/:project_id/repository/blobs/:sha/raw', response: 'text' },
      },
      example: { project_id: '1', sha: '8a9c2d1e' },
    },
    {
      id: 'repository.read_submodule_file',
      title: 'Read file inside submodule',
      description:
        'Reads a file from inside a Git submodule: resolves the submodule’s project from .gitmodules, finds the commit it is pinned to, and returns the file at that commit.',
      tool: 'forge_read_repository_submodule_file',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        submodule_path: {
          type: 'string',
          minLength: 1,
          description:
            'Path of the submodule in the parent repository, as in .gitmodules, e.g. "vendor/lib".',
        },
        file_path: { ...filePath, description: 'Path of the file inside the submodule, e.g. "src/main.c".' },
        ref: {
          ...fileRef,
          description: 'Branch, tag or SHA of the parent repository; defaults to the default branch (HEAD).',
        },
      },
      required: ['project_id', 'submodule_path', 'file_path'],
      handler: async (args, ctx) => {
        const projectId = String(args.project_id);
        const ref = typeof args.ref === 'string' ? args.ref : 'HEAD';
        const submodulePath = String(args.submodule_path);
        const entry = (await readSubmodules(ctx, projectId, ref)).find((s) => s.path === submodulePath);
        if (!entry?.resolved_project) {
          throw new Error(
            `Submodule ${submodulePath} is not declared in .gitmodules at ${ref}, or its URL names no project.`,
          );
        }
        const sha = await pinnedCommit(ctx, projectId, ref, submodulePath);
        if (!sha)
          throw new Error(`No submodule commit is recorded at ${submodulePath} in the tree at ${ref}.`);
        const file = (await ctx.rest(
          'GET',
          `/projects/${enc(entry.resolved_project)}/repository/files/${enc(String(args.file_path))}`,
          { query: { ref: sha } },
        )) as Record<string, unknown>;
        return {
          ...file,
          content: decodeFile(file),
          encoding: 'text',
          submodule_path: submodulePath,
          resolved_project: entry.resolved_project,
          commit_sha: sha,
        };
      },
      example: { project_id: '1', submodule_path: 'vendor/lib', file_path: 'README.md' },
    },
    {
      id: 'repository.tree',
      title: 'List files and folders',
      description:
        'Lists the files and folders of the repository at a path and ref (the file browser); recursive lists the whole subtree. Entries carry blob/tree IDs and types.',
      tool: 'forge_repository_tree',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        ...P.project,
        path: { type: 'string', description: 'Folder to list, e.g. "src"; defaults to the repository root.' },
        ref: { type: 'string', description: 'Branch, tag or commit SHA; defaults to the default branch.' },
        recursive: {
          type: 'boolean',
          description: 'Include everything below the folder, not just its direct entries.',
        },
        pagination: {
          type: 'string',
          enum: ['legacy', 'keyset', 'none'],
          description:
            'Paging method: "legacy" (default, page numbers), "keyset" (with page_token, for large trees) or "none" (everything at once; only with recursive true).',
        },
        page_token: {
          type: 'string',
          description: 'With keyset pagination: the ID of the last entry of the previous page.',
        },
        ...P.paging,
      },
      required: ['project_id'],
      needsValue: P.keysetNeeds('page_token'),
      // lib/api/repositories.rb: pagination "none" with recursive false (its default) is a 400.
      valueRequires: { pagination: { none: { recursive: [true] } } },
      request: { rest: { method: 'GET', path: '/projects/:project_id/repository/tree' } },
      example: { project_id: '1', path: 'src', ref: 'main' },
    },
    {
      id: 'repository.update_submodule',
      title: 'Update submodule reference',
      description:
        'Points a submodule at a new commit with a commit on a branch of the parent repository (bumps the submodule).',
      tool: 'forge_update_repository_submodule',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: {
        ...P.project,
        submodule: {
          type: 'string',
          minLength: 1,
          description: 'Path of the submodule in the repository, e.g. "vendor/lib" (encoded for you).',
        },
        branch: branch('Branch to commit the change to.'),
        commit_sha: {
          type: 'string',
          minLength: 1,
          description: 'Full commit SHA the submodule should point at.',
        },
        commit_message: {
          type: 'string',
          description: 'Commit message; a default one is written when left out.',
        },
      },
      required: ['project_id', 'submodule', 'branch', 'commit_sha'],
      request: { rest: { method: 'PUT', path: '/projects/:project_id/repository/submodules/:submodule' } },
      example: {
        project_id: '1',
        submodule: 'vendor/lib',
        branch: 'main',
        commit_sha: '3ddec28ea23acc5caa5d8331a6ecb2a65fc03e88',
      },
    },
  ],
};
