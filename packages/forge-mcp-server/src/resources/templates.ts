/**
 * The resource templates: each forge:// URI names one catalog action and how the URI's variables become
 * its arguments. Collections read one page of at most 100 items and say how many there were, and where the
 * next page is.
 */

export interface TemplateSpec {
  name: string;
  uriTemplate: string;
  title: string;
  description: string;
  /** The canonical action whose guards, scopes, tier and grant the read goes through. */
  action: string;
  /** URI variable -> action parameter, where the names differ. */
  rename?: Record<string, string>;
  /** Fixed arguments (filters). */
  fixed?: Record<string, unknown>;
  /** One page of a collection. */
  collection?: boolean;
  /** A collection the action pages by keyset (pagination keyset, each page naming the next one's cursor). */
  keyset?: boolean;
  /** Read as a file: base64 content decoded, capped, binary left empty. */
  file?: boolean;
  /**
   * The variable that is an IID where the instance reads the object only by its global ID: the action is then
   * its list, asked for that IID (its `iids` filter), and the object is the item carrying it.
   */
  byIid?: string;
}

/**
 * The most items one read of a collection holds. resources/read has no cursor: a collection's URI names the page
 * it reads in its query, and each page's pageInfo.next is the URI of the next one.
 */
export const COLLECTION_CAP = 100;

const P = 'forge://project/{project_id}';
const G = 'forge://group/{group_id}';

const t = (
  name: string,
  uriTemplate: string,
  title: string,
  description: string,
  action: string,
  more: Partial<TemplateSpec> = {},
): TemplateSpec => ({ name, uriTemplate, title, description, action, ...more });

export const TEMPLATES: TemplateSpec[] = [
  t('project', P, 'Project', 'A project: settings, default branch, visibility, links.', 'project.get'),
  t(
    'project_members',
    `${P}/members`,
    'Project members',
    'Members of a project, inherited included.',
    'project.members',
    { collection: true },
  ),
  t('project_labels', `${P}/labels`, 'Project labels', 'Labels of a project.', 'project.label_list', {
    collection: true,
  }),
  t(
    'project_milestones',
    `${P}/milestones`,
    'Project milestones',
    'Milestones of a project.',
    'project.milestone_list',
    { collection: true },
  ),
  t('project_branches', `${P}/branches`, 'Branches', 'Branches of a project.', 'branch.list', {
    collection: true,
  }),
  t('project_issues', `${P}/issues`, 'Open issues', 'Open issues of a project, newest first.', 'issue.list', {
    collection: true,
    keyset: true,
    fixed: { state: 'opened' },
  }),
  t('project_releases', `${P}/releases`, 'Releases', 'Releases of a project, newest first.', 'release.list', {
    collection: true,
  }),
  t('project_tags', `${P}/tags`, 'Tags', 'Tags of a project.', 'tag.list', { collection: true }),
  t(
    'commit',
    `${P}/commit/{sha}`,
    'Commit',
    'One commit: message, author, parents, stats.',
    'repository.commit_get',
  ),
  t(
    'file',
    `${P}/file/{ref}/{+path}`,
    'File at a ref',
    'A file at a branch, tag or commit (a ref holding / written %2F; the path as it is). Text over 1 MiB gives its first MiB, marked truncated in _meta; binary content is left empty.',
    'repository.file_get',
    { rename: { path: 'file_path' }, file: true },
  ),
  t('wiki_page', `${P}/wiki/{slug}`, 'Wiki page', 'One wiki page with its content.', 'wiki.get'),
  t('branch', `${P}/branch/{branch}`, 'Branch', 'One branch and its head commit.', 'branch.get'),
  t('tag', `${P}/tag/{tag_name}`, 'Tag', 'One tag and its commit.', 'tag.get'),
  t(
    'release',
    `${P}/release/{tag_name}`,
    'Release',
    'One release: notes, assets, milestones.',
    'release.get',
  ),
  t(
    'project_label',
    `${P}/label/{label_id}`,
    'Project label',
    'One project label, by ID or name.',
    'project.label_get',
    { rename: { label_id: 'name' } },
  ),
  t(
    'project_milestone',
    `${P}/milestone/{milestone_iid}`,
    'Project milestone',
    'One project milestone.',
    'project.milestone_get',
  ),
  t('board', `${P}/board/{board_id}`, 'Issue board', 'One issue board and its lists.', 'project.board_get'),
  t(
    'deployment',
    `${P}/deployment/{deployment_id}`,
    'Deployment',
    'One deployment.',
    'environment.deployment_get',
  ),
  t(
    'environment',
    `${P}/environment/{environment_id}`,
    'Environment',
    'One environment and its last deployment.',
    'environment.get',
  ),
  t('job', `${P}/job/{job_id}`, 'Job', 'One CI job: status, stage, runner, timing.', 'job.get'),
  t(
    'feature_flag',
    `${P}/feature_flag/{name}`,
    'Feature flag',
    'One feature flag and its strategies.',
    'feature_flags.feature_flag_get',
    { rename: { name: 'feature_flag_name' } },
  ),
  t(
    'deploy_key',
    `${P}/deploy_key/{deploy_key_id}`,
    'Deploy key',
    'One deploy key of a project.',
    'access.deploy_key_get',
    { rename: { deploy_key_id: 'key_id' } },
  ),
  t(
    'project_snippet',
    `${P}/snippet/{snippet_id}`,
    'Project snippet',
    'One project snippet.',
    'snippet.project_get',
  ),
  t(
    'issue',
    `${P}/issue/{issue_iid}`,
    'Issue',
    'One issue: description, state, labels, assignees.',
    'issue.get',
  ),
  t(
    'merge_request',
    `${P}/mr/{merge_request_iid}`,
    'Merge request',
    'One merge request: state, branches, approvals, pipeline.',
    'merge_request.get',
  ),
  t(
    'merge_request_notes',
    `${P}/mr/{merge_request_iid}/notes`,
    'Merge request notes',
    'Comments on a merge request.',
    'mr_review.note_list',
    { collection: true },
  ),
  t(
    'merge_request_discussions',
    `${P}/mr/{merge_request_iid}/discussions`,
    'Merge request discussions',
    'Threads on a merge request, with their notes.',
    'mr_review.discussion_list',
    { collection: true },
  ),
  t(
    'latest_pipeline',
    `${P}/pipelines/latest`,
    'Latest pipeline',
    'The latest pipeline of the default branch.',
    'pipeline.latest',
  ),
  t(
    'pipeline',
    `${P}/pipeline/{pipeline_id}`,
    'Pipeline',
    'One pipeline: status, ref, duration.',
    'pipeline.get',
  ),
  t(
    'pipeline_jobs',
    `${P}/pipeline/{pipeline_id}/jobs`,
    'Pipeline jobs',
    'Jobs of one pipeline.',
    'job.list',
    { collection: true },
  ),
  t('group', G, 'Group', 'A group: path, visibility, parent.', 'group.get'),
  t(
    'group_members',
    `${G}/members`,
    'Group members',
    'Members of a group, inherited included.',
    'group.members',
    { collection: true },
  ),
  t('group_projects', `${G}/projects`, 'Group projects', 'Projects of a group.', 'group.projects', {
    collection: true,
  }),
  t(
    'group_label',
    `${G}/label/{label_id}`,
    'Group label',
    'One group label, by ID or name.',
    'group.group_label_get',
    { rename: { label_id: 'name' } },
  ),
  t(
    'group_milestone',
    `${G}/milestone/{milestone_iid}`,
    'Group milestone',
    'One group milestone, by its IID (the number in its web URL).',
    'group.group_milestone_list',
    { byIid: 'milestone_iid' },
  ),
  t('snippet', 'forge://snippet/{snippet_id}', 'Snippet', 'One personal snippet.', 'snippet.get'),
];
