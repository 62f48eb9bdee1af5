import type { ActionHandler, DomainSpec } from '../types.js';

/**
 * Reduces what a user pastes to a project ID or full path: a web or clone URL
 * (https://host/group/project/-/issues/3, git@host:group/project.git), a path, or a numeric ID.
 */
export function projectRef(input: string): string {
  let s = input.trim();
  const ssh = /^[\w.-]+@[^:/]+:(.+)$/.exec(s);
  if (ssh) s = ssh[1];
  else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) {
    try {
      s = new URL(s).pathname;
    } catch {
      /* keep as given */
    }
  }
  s = s
    .split(/\/-\//)[0]
    .replace(/\.git$/, '')
    .replace(/^\/+|\/+$/g, '');
  return s;
}

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
