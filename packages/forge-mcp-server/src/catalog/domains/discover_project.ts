import type { ActionHandler, DomainSpec } from '../types.js';
import { projectOnInstance, projectPath } from '../project-ref.js';

/**
 * A URL is read against the session's instance, as a tool's project_id is (src/mcp/server.ts): on its host it
 * names the project (the instance's sub-path left out); another host's is refused, since the same path here is
 * another project. A path loses what a deep link or a clone adds to it.
 */
const resolve: ActionHandler = async (args, ctx) => {
  const on = projectOnInstance(String(args.project), new URL(ctx.instanceUrl + '/'), 'project');
  if ('refused' in on) throw new Error(on.refused);
  return ctx.rest('GET', `/projects/${encodeURIComponent(projectPath(on.path))}`);
};

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
      // A clone URL over SSH names the instance's host on any port: forge-sim's, where the catalog test runs it.
      example: { project: 'git@127.0.0.1:acme/widgets.git' },
    },
  ],
};
