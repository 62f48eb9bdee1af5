import type { ActionSpec, DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

type Level = 'project' | 'group' | 'global';
const PATHS: Record<Level, string> = {
  project: '/projects/:project_id/search',
  group: '/groups/:group_id/search',
  global: '/search',
};

const searchTerm = (what: string, example: string): ParamSpec => ({
  type: 'string',
  minLength: 1,
  description: `Text to look for in ${what}, e.g. "${example}".`,
});
const scoping = (levels: Level[]): Record<string, ParamSpec> => ({
  ...(levels.includes('project')
    ? {
        project_id: {
          ...P.projectId,
          description: `${P.projectId.description} Give it to search one project${levels.length > 1 ? ' (takes precedence over group_id)' : ''}.`,
        },
      }
    : {}),
  ...(levels.includes('group')
    ? {
        group_id: {
          ...P.groupId,
          description: `${P.groupId.description} Give it to search a group and its subgroups${levels.includes('global') ? '; omit both to search the whole instance' : ''}.`,
        },
      }
    : {}),
});
const ref: ParamSpec = {
  type: 'string',
  description: 'Branch or tag to search in (project searches only; default: the default branch).',
};
const orderBy: ParamSpec = {
  type: 'string',
  enum: ['created_at'],
  description: 'Order results by creation time (default: relevance for advanced search, else created_at).',
};
const sort: ParamSpec = {
  type: 'string',
  enum: ['asc', 'desc'],
  description: 'Sort direction (default desc).',
};
const state: ParamSpec = {
  type: 'string',
  enum: ['opened', 'closed', 'merged', 'all'],
  description: 'Only results in this state; merged applies to merge requests.',
};
const includeArchived: ParamSpec = {
  type: 'boolean',
  description: 'Also search archived projects (default false; group and instance searches only).',
};
const titleOnly: ParamSpec = {
  type: 'array',
  items: { type: 'string', enum: ['title'] },
  description: '["title"] to match the title only (advanced search).',
};
const codeFilters: Record<string, ParamSpec> = {
  regex: { type: 'boolean', description: 'true: the text is a regular expression (exact code search).' },
  exclude_forks: {
    type: 'boolean',
    description: 'true: leave out forked projects (exact code search; group and instance searches only).',
  },
  num_context_lines: {
    type: 'integer',
    minimum: 0,
    maximum: 20,
    description: 'Lines of context around each match, 0 to 20 (default 2; advanced or exact code search).',
  },
};
const searchType: ParamSpec = {
  type: 'string',
  enum: ['basic', 'advanced', 'zoekt'],
  description: 'Search engine to use when the instance offers several (advanced and zoekt need Premium).',
};

interface SearchDef {
  id: string;
  title: string;
  description: string;
  tool: string;
  scope: string;
  levels: Level[];
  term: ParamSpec;
  extra?: Record<string, ParamSpec>;
  example: Record<string, unknown>;
}

const searchAction = (d: SearchDef): ActionSpec => ({
  id: d.id,
  title: d.title,
  // The instance requires `scope`; the server fills it, so the model never gives it.
  description: `${d.description} The server sends scope=${d.scope}, which the instance requires.`,
  tool: d.tool,
  write: false,
  destructive: false,
  idempotent: true,
  tier: 'free',
  scope: 'read_api',
  params: {
    search: d.term,
    ...scoping(d.levels),
    ...d.extra,
    // Archived projects matter to every scope but users and snippets, which belong to no project.
    ...(d.levels.some((l) => l !== 'project') && !['users', 'snippet_titles'].includes(d.scope)
      ? { include_archived: includeArchived }
      : {}),
    search_type: searchType,
    ...P.paging,
  },
  required: d.levels.includes('global')
    ? ['search']
    : ['search', d.levels.length === 1 ? 'project_id' : 'group_id'],
  request: {
    rest: {
      method: 'GET',
      path: d.levels.length === 1 ? PATHS[d.levels[0]] : d.levels.map((l) => PATHS[l]),
      fixedQuery: { scope: d.scope },
    },
  },
  example: d.example,
});

const ALL: Level[] = ['project', 'group', 'global'];

export const domain: DomainSpec = {
  domain: 'search',
  metaTool: 'forge_search',
  summary:
    'Full-text search in one project, a group or the whole instance: code, commits, issues, merge requests, milestones, comments, projects, snippets, users and wiki pages.',
  actions: [
    searchAction({
      id: 'search.code',
      title: 'Search code',
      description:
        'Search file contents (code) for text: in one project (project_id, optionally a ref), in a group (group_id) or instance-wide. Group and instance code search need advanced search (Premium).',
      tool: 'forge_search_code',
      scope: 'blobs',
      levels: ALL,
      term: searchTerm(
        'file contents; supports filters like "filename:*.js" or "path:src"',
        'login filename:*.js',
      ),
      extra: { ref, ...codeFilters },
      example: { project_id: '1', search: 'README' },
    }),
    searchAction({
      id: 'search.commits',
      title: 'Search commits',
      description:
        'Search commit messages: in one project (optionally on a ref), a group or the whole instance (group and instance need advanced search, Premium).',
      tool: 'forge_search_commits',
      scope: 'commits',
      levels: ALL,
      term: searchTerm('commit messages', 'fix login'),
      extra: { ref },
      example: { project_id: '1', search: 'initial' },
    }),
    searchAction({
      id: 'search.issues',
      title: 'Search issues',
      description:
        'Search issues by title and description text in one project, a group or the whole instance, optionally only open or closed, or confidential ones.',
      tool: 'forge_search_issues',
      scope: 'issues',
      levels: ALL,
      term: searchTerm('issue titles and descriptions', 'login error'),
      extra: {
        state,
        confidential: {
          type: 'boolean',
          description: 'true: only confidential issues; false: only public ones.',
        },
        order_by: orderBy,
        sort,
        fields: titleOnly,
      },
      example: { project_id: '1', search: 'bug', state: 'opened' },
    }),
    searchAction({
      id: 'search.merge_requests',
      title: 'Search merge requests',
      description:
        'Search merge requests by title and description text in one project, a group or the whole instance, optionally by state (opened, closed, merged).',
      tool: 'forge_search_merge_requests',
      scope: 'merge_requests',
      levels: ALL,
      term: searchTerm('merge request titles and descriptions', 'refactor auth'),
      extra: { state, order_by: orderBy, sort, fields: titleOnly },
      example: { group_id: '10', search: 'login' },
    }),
    searchAction({
      id: 'search.milestones',
      title: 'Search milestones',
      description:
        'Search milestones by title and description in one project, a group or the whole instance.',
      tool: 'forge_search_milestones',
      scope: 'milestones',
      levels: ALL,
      term: searchTerm('milestone titles and descriptions', 'v1.0'),
      example: { project_id: '1', search: 'v1' },
    }),
    searchAction({
      id: 'search.notes',
      title: 'Search comments',
      description:
        'Search comments (notes) on issues, merge requests, commits and snippets for text: in one project, a group or the whole instance (group and instance need advanced search, Premium).',
      tool: 'forge_search_notes',
      scope: 'notes',
      levels: ALL,
      term: searchTerm('comment bodies', 'LGTM'),
      example: { project_id: '1', search: 'thanks' },
    }),
    searchAction({
      id: 'search.projects',
      title: 'Search projects',
      description:
        'Search projects by name, path and description within a group or across the whole instance (only projects you can see).',
      tool: 'forge_search_projects',
      scope: 'projects',
      levels: ['group', 'global'],
      term: searchTerm('project names, paths and descriptions', 'widgets'),
      extra: { order_by: orderBy, sort },
      example: { search: 'widgets' },
    }),
    searchAction({
      id: 'search.snippets',
      title: 'Search snippets',
      description: 'Search the titles of snippets you can see across the whole instance.',
      tool: 'forge_search_snippets',
      scope: 'snippet_titles',
      levels: ['global'],
      term: searchTerm('snippet titles', 'deploy script'),
      example: { search: 'script' },
    }),
    searchAction({
      id: 'search.users',
      title: 'Search users',
      description:
        'Search users by name or username: members of one project, of a group, or everyone on the instance.',
      tool: 'forge_search_users',
      scope: 'users',
      levels: ALL,
      term: searchTerm('names and usernames', 'alice'),
      example: { search: 'alice' },
    }),
    searchAction({
      id: 'search.wiki',
      title: 'Search wiki pages',
      description:
        'Search wiki page contents in one project (optionally on a ref), a group or the whole instance (group and instance need advanced search, Premium).',
      tool: 'forge_search_wiki',
      scope: 'wiki_blobs',
      levels: ALL,
      term: searchTerm('wiki page contents', 'installation'),
      extra: { ref },
      example: { project_id: '1', search: 'setup' },
    }),
  ],
};
