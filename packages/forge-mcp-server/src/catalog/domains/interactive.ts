import type { DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

const labels: ParamSpec = {
  type: 'string',
  description: 'Comma-separated label names, e.g. "bug,backend"; unknown labels are created.',
};
const assigneeIds: ParamSpec = {
  type: 'array',
  items: { type: 'integer', minimum: 1 },
  description: 'Numeric user IDs to assign, e.g. [2].',
};
const markdown = (what: string): ParamSpec => ({ type: 'string', description: `${what} in Markdown.` });

export const domain: DomainSpec = {
  domain: 'interactive',
  metaTool: 'forge_interactive',
  summary:
    'Guided creation with only the essential fields: a new issue, merge request, project or release in one short call (the full option sets live in the issue, merge_request, project and release domains).',
  actions: [
    {
      id: 'interactive.issue_create',
      title: 'Create issue (guided)',
      description:
        'Open a new issue with just the essentials: title, description, labels, assignees, milestone and due date. For every option (weight, epic, type...) use issue.create.',
      tool: 'forge_interactive_issue_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        title: { type: 'string', minLength: 1, description: 'Issue title, e.g. "Login fails with SSO".' },
        description: markdown('What the issue is about'),
        labels,
        assignee_ids: assigneeIds,
        milestone_id: {
          type: 'integer',
          minimum: 1,
          description: 'Numeric ID of the milestone (not its IID).',
        },
        due_date: { type: 'string', format: 'date', description: 'Due date, YYYY-MM-DD.' },
        confidential: {
          type: 'boolean',
          description:
            'true to make it visible only to project members with Planner role or more and the author.',
        },
      },
      required: ['project_id', 'title'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/issues' } },
      example: { project_id: '1', title: 'Login fails with SSO', labels: 'bug' },
    },
    {
      id: 'interactive.mr_create',
      title: 'Create merge request (guided)',
      description:
        'Open a merge request from a source branch into a target branch with the essentials: title, description, assignees, reviewers and labels. For every option use merge_request.create.',
      tool: 'forge_interactive_mr_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        source_branch: { type: 'string', description: 'Branch holding the changes, e.g. "feature/login".' },
        target_branch: { type: 'string', description: 'Branch to merge into, e.g. "main".' },
        title: {
          type: 'string',
          minLength: 1,
          description: 'Merge request title; start it with "Draft:" to open it as a draft.',
        },
        description: markdown('What the change does'),
        assignee_ids: assigneeIds,
        reviewer_ids: { ...assigneeIds, description: 'Numeric user IDs asked to review, e.g. [3].' },
        labels,
        remove_source_branch: { type: 'boolean', description: 'Delete the source branch once merged.' },
        squash: { type: 'boolean', description: 'Squash the commits into one when merging.' },
      },
      required: ['project_id', 'source_branch', 'target_branch', 'title'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/merge_requests' } },
      example: {
        project_id: '1',
        source_branch: 'main',
        target_branch: 'feature/login',
        title: 'Sync main into feature/login',
      },
    },
    {
      id: 'interactive.project_create',
      title: 'Create project (guided)',
      description:
        'Create a new project in your namespace or a group with the essentials: name, path, visibility, description and an initial README. For every option use project.create.',
      tool: 'forge_interactive_project_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        name: {
          type: 'string',
          description: 'Project name, e.g. "Widgets API"; path is derived from it when not given.',
        },
        path: {
          type: 'string',
          description: 'URL slug, e.g. "widgets-api"; name is derived from it when not given.',
        },
        namespace_id: {
          type: 'integer',
          minimum: 1,
          description: 'Numeric ID of the group to create it in (default: your personal namespace).',
        },
        description: { type: 'string', description: 'Short description of the project.' },
        visibility: {
          type: 'string',
          enum: ['private', 'internal', 'public'],
          description: 'Who can see it (default private).',
        },
        initialize_with_readme: { type: 'boolean', description: 'Create a first commit with a README.md.' },
        default_branch: {
          type: 'string',
          description: 'Name of the default branch when a README is created, e.g. "main".',
        },
      },
      oneOf: [['name', 'path']],
      request: { rest: { method: 'POST', path: '/projects' } },
      example: { name: 'Widgets API', namespace_id: 10, visibility: 'private', initialize_with_readme: true },
    },
    {
      id: 'interactive.release_create',
      title: 'Create release (guided)',
      description:
        'Publish a release for a tag with a title and release notes, creating the tag from ref when it does not exist yet. For asset links and milestones use release.create.',
      tool: 'forge_interactive_release_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'free',
      scope: 'api',
      params: {
        project_id: P.projectId,
        tag_name: { type: 'string', description: 'Tag of the release, e.g. "v1.1.0".' },
        name: { type: 'string', description: 'Release title (default: the tag name).' },
        description: markdown('Release notes'),
        ref: {
          ...P.ref,
          description:
            'Branch, tag or commit to create the tag from; needed only when the tag does not exist yet.',
        },
      },
      required: ['project_id', 'tag_name'],
      request: { rest: { method: 'POST', path: '/projects/:project_id/releases' } },
      example: {
        project_id: '1',
        tag_name: 'v1.1.0',
        name: 'Version 1.1',
        ref: 'main',
        description: 'Bug fixes.',
      },
    },
  ],
};
