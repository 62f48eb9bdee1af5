/** Entities as the instance's REST API shows them. */
import { groupFullPath, milestoneFor, projectFullPath, projectNamespacePath, userById } from './context.js';
import type { Ctx } from './context.js';
import type {
  Branch,
  Commit,
  Discussion,
  Group,
  Issue,
  Job,
  Label,
  MergeRequest,
  Milestone,
  Note,
  Pipeline,
  Project,
  Tag,
  User,
} from './state.js';

export function userBasic(ctx: Ctx, u: User | undefined): Record<string, unknown> | null {
  if (!u) return null;
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    state: 'active',
    locked: false,
    avatar_url: `${ctx.rt.baseUrl}/uploads/-/system/user/avatar/${u.id}/avatar.png`,
    web_url: `${ctx.rt.baseUrl}/${u.username}`,
  };
}

export function userFull(ctx: Ctx, u: User, self = false): Record<string, unknown> {
  return {
    ...userBasic(ctx, u),
    created_at: u.createdAt,
    bio: '',
    location: '',
    public_email: null,
    linkedin: '',
    twitter: '',
    website_url: '',
    organization: 'Acme',
    job_title: '',
    bot: u.bot,
    ...(self || ctx.user?.isAdmin
      ? {
          email: u.email,
          is_admin: u.isAdmin,
          last_sign_in_at: u.createdAt,
          confirmed_at: u.createdAt,
          last_activity_on: '2025-01-15',
          theme_id: 1,
          color_scheme_id: 1,
          projects_limit: 100000,
          can_create_group: true,
          can_create_project: true,
          two_factor_enabled: false,
          external: false,
          private_profile: false,
          namespace_id: 100 + u.id,
        }
      : {}),
  };
}

export function groupJson(ctx: Ctx, g: Group, plan = ctx.rt.license ?? 'free'): Record<string, unknown> {
  const full = groupFullPath(ctx.state, g);
  return {
    id: g.id,
    web_url: `${ctx.rt.baseUrl}/groups/${full}`,
    name: g.name,
    path: g.path,
    description: g.description,
    visibility: g.visibility,
    share_with_group_lock: false,
    require_two_factor_authentication: false,
    project_creation_level: 'developer',
    subgroup_creation_level: 'maintainer',
    lfs_enabled: true,
    default_branch: null,
    avatar_url: null,
    request_access_enabled: true,
    full_name: full
      .split('/')
      .map((seg) => ctx.state.groups.find((x) => x.path === seg)?.name ?? seg)
      .join(' / '),
    full_path: full,
    created_at: g.createdAt,
    parent_id: g.parentId,
    organization_id: 1,
    marked_for_deletion_on: null,
    plan,
  };
}

export function projectJson(ctx: Ctx, p: Project): Record<string, unknown> {
  const full = projectFullPath(ctx.state, p);
  const nsPath = projectNamespacePath(ctx.state, p);
  const web = `${ctx.rt.baseUrl}/${full}`;
  const ns =
    p.namespaceKind === 'group'
      ? {
          id: p.namespaceId,
          name: ctx.state.groups.find((g) => g.id === p.namespaceId)?.name,
          path: nsPath.split('/').pop(),
          kind: 'group',
          full_path: nsPath,
          parent_id: ctx.state.groups.find((g) => g.id === p.namespaceId)?.parentId ?? null,
          web_url: `${ctx.rt.baseUrl}/groups/${nsPath}`,
        }
      : {
          id: 100 + p.namespaceId,
          name: userById(ctx.state, p.namespaceId)?.name,
          path: nsPath,
          kind: 'user',
          full_path: nsPath,
          parent_id: null,
          web_url: `${ctx.rt.baseUrl}/${nsPath}`,
        };
  return {
    id: p.id,
    description: p.description,
    name: p.name,
    name_with_namespace: `${String(ns.name)} / ${p.name}`,
    path: p.path,
    path_with_namespace: full,
    created_at: p.createdAt,
    default_branch: p.defaultBranch,
    tag_list: [],
    topics: [],
    ssh_url_to_repo: `git@${new URL(ctx.rt.baseUrl).host}:${full}.git`,
    http_url_to_repo: `${web}.git`,
    web_url: web,
    readme_url: `${web}/-/blob/${p.defaultBranch}/README.md`,
    forks_count: ctx.state.projects.filter((x) => x.forkedFromId === p.id).length,
    avatar_url: null,
    star_count: p.starCount,
    last_activity_at: p.lastActivityAt,
    namespace: ns,
    visibility: p.visibility,
    archived: p.archived,
    empty_repo: p.commits.size === 0,
    issues_enabled: true,
    merge_requests_enabled: true,
    jobs_enabled: true,
    wiki_enabled: true,
    snippets_enabled: true,
    open_issues_count: p.issues.filter((i) => i.state === 'opened').length,
    creator_id: 2,
    forked_from_project: p.forkedFromId ? { id: p.forkedFromId } : undefined,
    merge_method: 'merge',
    squash_option: 'default_off',
    only_allow_merge_if_pipeline_succeeds: false,
    allow_merge_on_skipped_pipeline: false,
    only_allow_merge_if_all_discussions_are_resolved: false,
    remove_source_branch_after_merge: true,
    ...p.mergeSettings,
    _links: {
      self: `${ctx.rt.baseUrl}/api/v4/projects/${p.id}`,
      issues: `${ctx.rt.baseUrl}/api/v4/projects/${p.id}/issues`,
      merge_requests: `${ctx.rt.baseUrl}/api/v4/projects/${p.id}/merge_requests`,
      repo_branches: `${ctx.rt.baseUrl}/api/v4/projects/${p.id}/repository/branches`,
      labels: `${ctx.rt.baseUrl}/api/v4/projects/${p.id}/labels`,
      events: `${ctx.rt.baseUrl}/api/v4/projects/${p.id}/events`,
      members: `${ctx.rt.baseUrl}/api/v4/projects/${p.id}/members`,
    },
  };
}

/** What a project's and a group's milestone show alike. */
function milestoneFields(m: Milestone): Record<string, unknown> {
  return {
    title: m.title,
    description: m.description,
    state: m.state,
    created_at: m.createdAt,
    updated_at: m.createdAt,
    due_date: m.dueDate,
    start_date: m.startDate,
  };
}

/** A group's milestone as the instance shows it: the group's ID where a project's has the project's. */
export function groupMilestoneJson(ctx: Ctx, g: Group, m: Milestone): Record<string, unknown> {
  return {
    id: m.id,
    iid: m.iid,
    group_id: g.id,
    ...milestoneFields(m),
    expired: !!m.dueDate && Date.parse(m.dueDate) < Date.now(),
    web_url: `${ctx.rt.baseUrl}/groups/${groupFullPath(ctx.state, g)}/-/milestones/${m.iid}`,
  };
}

/** The milestone an item of `p` is in, the project's or a group's, as the item shows it. */
export function itemMilestoneJson(ctx: Ctx, p: Project, id: number | null): Record<string, unknown> | null {
  const found = milestoneFor(ctx.state, p, id);
  if (!found) return null;
  return found.g ? groupMilestoneJson(ctx, found.g, found.m) : milestoneJson(ctx, p, found.m);
}

export function milestoneJson(
  ctx: Ctx,
  p: Project,
  m: Milestone | undefined,
): Record<string, unknown> | null {
  if (!m) return null;
  return {
    id: m.id,
    iid: m.iid,
    project_id: p.id,
    ...milestoneFields(m),
    expired: false,
    web_url: `${ctx.rt.baseUrl}/${projectFullPath(ctx.state, p)}/-/milestones/${m.iid}`,
  };
}

/** A project label; its issue and merge request counts only where asked for (a list's with_counts), as the instance. */
export function labelJson(ctx: Ctx, p: Project, l: Label, withCounts = false): Record<string, unknown> {
  const count = (st: string): number =>
    p.issues.filter((i) => i.state === st && i.labels.includes(l.name)).length;
  return {
    id: l.id,
    name: l.name,
    color: l.color,
    text_color: '#FFFFFF',
    description: l.description,
    description_html: l.description ?? '',
    ...(withCounts
      ? {
          open_issues_count: count('opened'),
          closed_issues_count: count('closed'),
          open_merge_requests_count: p.mergeRequests.filter(
            (m) => m.state === 'opened' && m.labels.includes(l.name),
          ).length,
        }
      : {}),
    subscribed: false,
    priority: l.priority,
    is_project_label: true,
  };
}

const users = (ctx: Ctx, ids: number[]): unknown[] =>
  ids.map((id) => userBasic(ctx, userById(ctx.state, id))).filter(Boolean);

export function issueJson(ctx: Ctx, p: Project, i: Issue): Record<string, unknown> {
  const full = projectFullPath(ctx.state, p);
  const assignees = users(ctx, i.assigneeIds);
  return {
    id: i.id,
    iid: i.iid,
    project_id: p.id,
    title: i.title,
    description: i.description,
    state: i.state,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    closed_at: i.closedAt,
    closed_by: userBasic(ctx, i.closedById ? userById(ctx.state, i.closedById) : undefined),
    labels: i.labels,
    milestone: itemMilestoneJson(ctx, p, i.milestoneId),
    assignees,
    assignee: assignees[0] ?? null,
    author: userBasic(ctx, userById(ctx.state, i.authorId)),
    type: 'ISSUE',
    issue_type: 'issue',
    user_notes_count: i.discussions.reduce((n, d) => n + d.notes.filter((x) => !x.system).length, 0),
    merge_requests_count: 0,
    upvotes: 0,
    downvotes: 0,
    due_date: i.dueDate,
    confidential: i.confidential,
    discussion_locked: null,
    web_url: `${ctx.rt.baseUrl}/${full}/-/issues/${i.iid}`,
    time_stats: {
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    },
    task_completion_status: { count: 0, completed_count: 0 },
    weight: i.weight,
    has_tasks: false,
    references: { short: `#${i.iid}`, relative: `#${i.iid}`, full: `${full}#${i.iid}` },
    severity: 'UNKNOWN',
    _links: {
      self: `${ctx.rt.baseUrl}/api/v4/projects/${p.id}/issues/${i.iid}`,
      notes: `${ctx.rt.baseUrl}/api/v4/projects/${p.id}/issues/${i.iid}/notes`,
      award_emoji: `${ctx.rt.baseUrl}/api/v4/projects/${p.id}/issues/${i.iid}/award_emoji`,
      project: `${ctx.rt.baseUrl}/api/v4/projects/${p.id}`,
      closed_as_duplicate_of: null,
    },
  };
}

export function mergeRequestJson(
  ctx: Ctx,
  p: Project,
  m: MergeRequest,
  detailed = false,
): Record<string, unknown> {
  const full = projectFullPath(ctx.state, p);
  const assignees = users(ctx, m.assigneeIds);
  const base: Record<string, unknown> = {
    id: m.id,
    iid: m.iid,
    project_id: p.id,
    title: m.draft ? `Draft: ${m.title}` : m.title,
    description: m.description,
    state: m.state,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    merged_by: userBasic(ctx, m.mergedById ? userById(ctx.state, m.mergedById) : undefined),
    merge_user: userBasic(ctx, m.mergedById ? userById(ctx.state, m.mergedById) : undefined),
    merged_at: m.mergedAt,
    closed_by: null,
    closed_at: m.closedAt,
    target_branch: m.targetBranch,
    source_branch: m.sourceBranch,
    user_notes_count: m.discussions.reduce((n, d) => n + d.notes.filter((x) => !x.system).length, 0),
    upvotes: 0,
    downvotes: 0,
    author: userBasic(ctx, userById(ctx.state, m.authorId)),
    assignees,
    assignee: assignees[0] ?? null,
    reviewers: users(ctx, m.reviewerIds),
    source_project_id: m.sourceProjectId,
    target_project_id: p.id,
    labels: m.labels,
    draft: m.draft,
    work_in_progress: m.draft,
    milestone: itemMilestoneJson(ctx, p, m.milestoneId),
    merge_when_pipeline_succeeds: false,
    merge_status: m.state === 'opened' ? 'can_be_merged' : 'unchecked',
    detailed_merge_status: m.state === 'opened' ? (m.draft ? 'draft_status' : 'mergeable') : 'not_open',
    sha: m.sha,
    merge_commit_sha: m.mergeCommitSha,
    squash_commit_sha: null,
    discussion_locked: null,
    should_remove_source_branch: m.removeSourceBranch,
    force_remove_source_branch: m.removeSourceBranch,
    prepared_at: m.createdAt,
    reference: `!${m.iid}`,
    references: { short: `!${m.iid}`, relative: `!${m.iid}`, full: `${full}!${m.iid}` },
    web_url: `${ctx.rt.baseUrl}/${full}/-/merge_requests/${m.iid}`,
    time_stats: {
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    },
    squash: m.squash,
    squash_on_merge: m.squash,
    task_completion_status: { count: 0, completed_count: 0 },
    has_conflicts: false,
    blocking_discussions_resolved: !m.discussions.some((d) =>
      d.notes.some((n) => n.resolvable && !n.resolved),
    ),
  };
  if (detailed) {
    const pipeline = [...p.pipelines].reverse().find((x) => x.sha === m.sha);
    Object.assign(base, {
      subscribed: false,
      changes_count: null,
      latest_build_started_at: null,
      latest_build_finished_at: null,
      first_deployed_to_production_at: null,
      pipeline: pipeline ? pipelineJson(ctx, p, pipeline) : null,
      head_pipeline: pipeline ? pipelineJson(ctx, p, pipeline) : null,
      diff_refs: { base_sha: m.baseSha, head_sha: m.sha, start_sha: m.baseSha },
      merge_error: null,
      first_contribution: false,
      user: { can_merge: true },
      approvals_before_merge: null,
    });
  }
  return base;
}

export function noteJson(
  ctx: Ctx,
  n: Note,
  noteableType: string,
  noteableId: number,
  noteableIid: number,
  projectId: number,
): Record<string, unknown> {
  return {
    id: n.id,
    type: n.position ? 'DiffNote' : n.resolvable ? 'DiscussionNote' : null,
    body: n.body,
    author: userBasic(ctx, userById(ctx.state, n.authorId)),
    created_at: n.createdAt,
    updated_at: n.updatedAt,
    system: n.system,
    noteable_id: noteableId,
    noteable_type: noteableType,
    project_id: projectId,
    noteable_iid: noteableIid,
    resolvable: n.resolvable,
    resolved: n.resolved,
    resolved_by: null,
    confidential: false,
    internal: false,
    ...(n.position ? { position: n.position } : {}),
  };
}

export function discussionJson(
  ctx: Ctx,
  d: Discussion,
  type: string,
  id: number,
  iid: number,
  projectId: number,
): Record<string, unknown> {
  return {
    id: d.id,
    individual_note: d.individualNote,
    notes: d.notes.map((n) => noteJson(ctx, n, type, id, iid, projectId)),
  };
}

export function commitJson(ctx: Ctx, p: Project, c: Commit, detailed = false): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: c.id,
    short_id: c.id.slice(0, 8),
    created_at: c.createdAt,
    parent_ids: c.parentIds,
    title: c.title,
    message: c.message,
    author_name: c.authorName,
    author_email: c.authorEmail,
    authored_date: c.createdAt,
    committer_name: c.authorName,
    committer_email: c.authorEmail,
    committed_date: c.createdAt,
    trailers: {},
    extended_trailers: {},
    web_url: `${ctx.rt.baseUrl}/${projectFullPath(ctx.state, p)}/-/commit/${c.id}`,
  };
  if (detailed) {
    out.stats = { additions: 3, deletions: 1, total: 4 };
    out.status = null;
    out.last_pipeline = null;
  }
  return out;
}

export function branchJson(ctx: Ctx, p: Project, b: Branch): Record<string, unknown> {
  const c = p.commits.get(b.commit);
  return {
    name: b.name,
    merged: false,
    protected: b.protected,
    default: b.name === p.defaultBranch,
    developers_can_push: false,
    developers_can_merge: false,
    can_push: true,
    web_url: `${ctx.rt.baseUrl}/${projectFullPath(ctx.state, p)}/-/tree/${b.name}`,
    commit: c ? commitJson(ctx, p, c) : null,
  };
}

export function tagJson(ctx: Ctx, p: Project, t: Tag): Record<string, unknown> {
  const c = p.commits.get(t.commit);
  return {
    name: t.name,
    message: t.message,
    target: t.commit,
    commit: c ? commitJson(ctx, p, c) : null,
    release: null,
    protected: false,
    created_at: t.createdAt,
  };
}

export function pipelineJson(ctx: Ctx, p: Project, pl: Pipeline, detailed = false): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: pl.id,
    iid: pl.iid,
    project_id: p.id,
    sha: pl.sha,
    ref: pl.ref,
    status: pl.status,
    source: pl.source,
    created_at: pl.createdAt,
    updated_at: pl.updatedAt,
    web_url: `${ctx.rt.baseUrl}/${projectFullPath(ctx.state, p)}/-/pipelines/${pl.id}`,
  };
  if (detailed) {
    const jobs = p.jobs.filter((j) => j.pipelineId === pl.id);
    Object.assign(out, {
      before_sha: '0000000000000000000000000000000000000000',
      tag: false,
      yaml_errors: null,
      user: userBasic(ctx, userById(ctx.state, pl.userId)),
      started_at: pl.createdAt,
      finished_at: ['success', 'failed', 'canceled'].includes(pl.status) ? pl.updatedAt : null,
      committed_at: null,
      duration: jobs.reduce((s, j) => s + (j.duration ?? 0), 0),
      queued_duration: 0.5,
      coverage: null,
      detailed_status: {
        icon: `status_${pl.status}`,
        text: pl.status,
        label: pl.status,
        group: pl.status,
        tooltip: pl.status,
        has_details: true,
        details_path: `/${projectFullPath(ctx.state, p)}/-/pipelines/${pl.id}`,
      },
    });
  }
  return out;
}

export function jobJson(ctx: Ctx, p: Project, j: Job): Record<string, unknown> {
  const pl = p.pipelines.find((x) => x.id === j.pipelineId);
  return {
    id: j.id,
    status: j.status,
    stage: j.stage,
    name: j.name,
    ref: j.ref,
    tag: false,
    coverage: null,
    allow_failure: j.allowFailure,
    created_at: j.createdAt,
    started_at: j.startedAt,
    finished_at: j.finishedAt,
    erased_at: j.erased ? j.finishedAt : null,
    duration: j.duration,
    queued_duration: 0.8,
    user: userBasic(ctx, userById(ctx.state, j.userId)),
    commit: pl
      ? { id: pl.sha, short_id: pl.sha.slice(0, 8), title: p.commits.get(pl.sha)?.title ?? '' }
      : null,
    pipeline: pl
      ? { id: pl.id, iid: pl.iid, project_id: p.id, ref: pl.ref, sha: pl.sha, status: pl.status }
      : null,
    web_url: `${ctx.rt.baseUrl}/${projectFullPath(ctx.state, p)}/-/jobs/${j.id}`,
    project: { ci_job_token_scope_enabled: false },
    artifacts: j.artifacts
      ? [{ file_type: 'archive', size: j.artifacts.length, filename: 'artifacts.zip', file_format: 'zip' }]
      : [],
    artifacts_file: j.artifacts ? { filename: 'artifacts.zip', size: j.artifacts.length } : undefined,
    artifacts_expire_at: null,
    runner: null,
    failure_reason: j.status === 'failed' ? 'script_failure' : undefined,
    when: j.when,
    tag_list: [],
  };
}
