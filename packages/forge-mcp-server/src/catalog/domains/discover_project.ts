import type { ActionHandler, DomainSpec } from '../types.js';
import { projectRef } from '../project-ref.js';

const resolve: ActionHandler = async (args, ctx) =>
  ctx.rest('GET', `/projects/${encodeURIComponent(projectRef(String(args.project)))}`);

export const domain: DomainSpec = {
  domain: 'discover_project',
  metaTool: 'forge_discover_project',
  summary:
    'Turn whatever identifies a project (web URL, clone URL, full path or numeric ID) into the project itself, with its ID, path and default branch.',
  actions: [
    {
      id: 'discover_project.resolve',
      title: 'Resolve project from URL or path',
      description:
        'Find the project behind a pasted web URL (also deep links like .../-/merge_requests/5), a clone URL (https or SSH), a full path or a numeric ID, and answer its ID, full path, default branch and web URL. Use it first when you only have a link.',
      tool: 'forge_discover_project',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        project: {
          type: 'string',
          minLength: 1,
          description:
            'What you have: "https://forge.example.com/acme/widgets/-/issues/3", "git@forge.example.com:acme/widgets.git", "acme/widgets" or "42". A bare project name without its group is not enough.',
        },
      },
      required: ['project'],
      request: { rest: { method: 'GET', path: '/projects/:project_id' } },
      handler: resolve,
      notFound: { object: 'Project', key: 'project', next: ['search.projects', 'project.list'] },
      example: { project: 'https://forge.test/acme/widgets/-/merge_requests/1' },
    },
  ],
};
