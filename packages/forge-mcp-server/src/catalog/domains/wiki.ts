import type { DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const slug: ParamSpec = {
  type: 'string',
  description:
    'Page slug (its path in the wiki, as returned by wiki.list), e.g. "home" or "guides/setup" (slashes are encoded for you).',
};
const format: ParamSpec = {
  type: 'string',
  enum: ['markdown', 'rdoc', 'asciidoc', 'org'],
  description: 'Markup format of the page content (default markdown).',
};
const content: ParamSpec = {
  type: 'string',
  description: 'Full page content in the chosen format (replaces the old text).',
};
const title: ParamSpec = {
  type: 'string',
  description: 'Page title; slashes create a page in a folder, e.g. "guides/Setup". Determines the slug.',
};

export const domain: DomainSpec = {
  domain: 'wiki',
  metaTool: 'forge_wiki',
  summary: 'Project wiki: list, read, create, edit and delete wiki pages and upload attachments for them.',
  actions: [
    {
      id: 'wiki.create',
      title: 'Create wiki page',
      description: 'Create a new page in a project wiki with a title and content (Markdown by default).',
      tool: 'forge_wiki_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, title, content, format },
      required: ['project_id', 'title', 'content'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/wikis' } },
      example: {
        project_id: '1',
        title: 'Getting started',
        content: '# Getting started\n\nRun `npm install`.',
      },
    },
    {
      id: 'wiki.delete',
      title: 'Delete wiki page',
      description:
        'Delete a wiki page. Irreversible through the API (the page history stays in the wiki repository).',
      tool: 'forge_wiki_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, slug },
      required: ['project_id', 'slug'],
      request: { rest: { method: 'DELETE', path: '/projects/:project_id/wikis/:slug' } },
      example: { project_id: '1', slug: 'getting-started' },
    },
    {
      id: 'wiki.get',
      title: 'Get wiki page',
      description:
        'Read one wiki page: title, format and content, optionally at an older version or rendered as HTML.',
      tool: 'forge_wiki_get',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        slug,
        version: {
          type: 'string',
          description: 'Commit SHA of an older page version to read (default: latest).',
        },
        render_html: { type: 'boolean', description: 'true to return the content rendered as HTML.' },
      },
      required: ['project_id', 'slug'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/wikis/:slug' } },
      notFound: { object: 'Wiki page', key: 'slug', next: ['wiki.list', 'search.wiki'] },
      example: { project_id: '1', slug: 'home' },
    },
    {
      id: 'wiki.list',
      title: 'List wiki pages',
      description:
        'List all pages of a project wiki in one answer (titles, slugs, formats; the list is not paginated), optionally with their content.',
      tool: 'forge_wiki_list',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        project_id: P.projectId,
        with_content: {
          type: 'boolean',
          description: "true to include each page's content (larger answer; default false).",
        },
      },
      required: ['project_id'],
      request: { rest: { method: 'GET', path: '/projects/:project_id/wikis' } },
      example: { project_id: '1' },
    },
    {
      id: 'wiki.update',
      title: 'Update wiki page',
      description:
        'Edit an existing wiki page: replace its content, rename it via title, or change its format. Give at least one of them.',
      tool: 'forge_wiki_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'api',
      params: { project_id: P.projectId, slug, title, content, format: P.wikiFormatOnUpdate },
      required: ['project_id', 'slug'],
      oneOf: [['content', 'title', 'format']],
      request: { rest: { method: 'PUT', path: '/projects/:project_id/wikis/:slug' } },
      example: { project_id: '1', slug: 'home', content: '# Home\n\nUpdated welcome text.' },
    },
    {
      id: 'wiki.upload_attachment',
      title: 'Upload wiki attachment',
      description:
        "Upload a file (image, PDF, ...) to the wiki's uploads folder; the answer gives the Markdown link to paste into a page.",
      tool: 'forge_wiki_upload_attachment',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        content_base64: {
          type: 'string',
          in: 'file',
          wire: 'file',
          description: 'File content, base64-encoded. Use this over HTTP; give this or file_path.',
        },
        file_path: {
          type: 'string',
          in: 'file',
          wire: 'file',
          description:
            'Local file to upload (stdio only; confined to the allowed directories). Give this or content_base64.',
        },
        file_name: {
          type: 'string',
          in: 'none',
          description: 'Name to store the file under, e.g. "diagram.png" (default: the local file\'s name).',
        },
        branch: {
          type: 'string',
          in: 'form',
          description: "Wiki branch to commit the upload to (default: the wiki's default branch).",
        },
      },
      required: ['project_id'],
      oneOf: [['content_base64', 'file_path']],
      request: { rest: { method: 'POST', path: '/projects/:project_id/wikis/attachments' } },
      example: { project_id: '1', content_base64: 'aGVsbG8gd2lraQo=', file_name: 'notes.txt' },
    },
  ],
};
