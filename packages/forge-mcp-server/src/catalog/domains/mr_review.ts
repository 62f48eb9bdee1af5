import type { ActionSpec, DomainSpec, ParamSpec } from '../types.js';
import * as P from '../params.js';

/* ---------- parameters shared inside the review domain ---------- */

const base = { project_id: P.projectId, merge_request_iid: P.mergeRequestIid };
const baseReq = ['project_id', 'merge_request_iid'];
const ex = { project_id: '1', merge_request_iid: 1 };
const mrPath = '/projects/:project_id/merge_requests/:merge_request_iid';
const discussionEx = 'a84fee295b4c32c4439bdd8eb3d71e3e3d771dac';

const noteBody: ParamSpec = {
  type: 'string',
  minLength: 1,
  description:
    'Comment text in Markdown. Quick actions such as "/approve" or "/assign_reviewer @bob" are run.',
};
const createdAt: ParamSpec = {
  type: 'string',
  format: 'date-time',
  description: 'Creation time to record instead of now (ISO 8601); administrators and project owners only.',
};
const unidiff: ParamSpec = {
  type: 'boolean',
  description: 'true: return diffs in unified diff format (default false).',
};
const draftNoteId: ParamSpec = {
  type: 'integer',
  minimum: 1,
  description: 'ID of the draft (pending review) note, from mr_review.draft_note_list.',
};
const sha = (what: string): ParamSpec => ({
  type: 'string',
  description: `${what} (full SHA, from mr_review.diff_versions_list).`,
});
const linePoint: ParamSpec = {
  type: 'object',
  properties: {
    line_code: { type: 'string', description: 'Line code: "<sha1 of file path>_<old line>_<new line>".' },
    type: { type: 'string', enum: ['new', 'old'], description: 'Side of the diff the line is on.' },
    old_line: { type: 'integer', minimum: 1, description: 'Line number in the old file.' },
    new_line: { type: 'integer', minimum: 1, description: 'Line number in the new file.' },
  },
  description: 'One end of a multi-line range.',
};
/** Where in the diff a comment sits (the instance's `position` object). */
const position: ParamSpec = {
  type: 'object',
  properties: {
    base_sha: sha('Base commit of the diff version'),
    start_sha: sha('Start commit of the diff version'),
    head_sha: sha('Head commit of the diff version'),
    position_type: {
      type: 'string',
      enum: ['text', 'image', 'file'],
      description: '"text" for a line comment, "file" for the whole file, "image" for a point on an image.',
    },
    new_path: { type: 'string', description: 'File path after the change, e.g. "src/index.js".' },
    old_path: { type: 'string', description: 'File path before the change.' },
    new_line: {
      type: 'integer',
      minimum: 1,
      description: 'Line number in the new file (for added or unchanged lines).',
    },
    old_line: {
      type: 'integer',
      minimum: 1,
      description:
        'Line number in the old file (for removed or unchanged lines; give both for unchanged lines).',
    },
    line_range: {
      type: 'object',
      properties: { start: linePoint, end: linePoint },
      description: 'For a comment spanning several lines: the first and last line.',
    },
    width: { type: 'integer', minimum: 1, description: 'Image width (position_type image).' },
    height: { type: 'integer', minimum: 1, description: 'Image height (position_type image).' },
    x: { type: 'integer', minimum: 0, description: 'X coordinate on the image (position_type image).' },
    y: { type: 'integer', minimum: 0, description: 'Y coordinate on the image (position_type image).' },
  },
  required: ['base_sha', 'start_sha', 'head_sha', 'position_type'],
  description:
    'Where in the diff to attach the comment. Take base_sha, start_sha and head_sha from the latest entry of mr_review.diff_versions_list; give new_path/old_path and new_line and/or old_line.',
};

function action(
  spec: Omit<ActionSpec, 'destructive' | 'idempotent' | 'tier' | 'scope' | 'write'> & {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    path: string;
    destructive?: boolean;
    idempotent?: boolean;
    text?: boolean;
  },
): ActionSpec {
  const { method, path, destructive, idempotent, text, ...rest } = spec;
  const write = method !== 'GET';
  return {
    write,
    destructive: destructive ?? false,
    idempotent: idempotent ?? (!write || method === 'PUT' || method === 'DELETE'),
    tier: 'free',
    scope: write ? 'api' : 'read_api',
    ...rest,
    request: { rest: { method, path, ...(text ? { response: 'text' as const } : {}) } },
  };
}

/* ---------- the domain ---------- */

export const domain: DomainSpec = {
  domain: 'mr_review',
  metaTool: 'forge_mr_review',
  summary:
    'Code review on merge requests: read diffs and diff versions, comment on lines, start, reply to and resolve threads, and write, publish or discard draft review comments.',
  actions: [
    action({
      id: 'mr_review.changes_get',
      title: 'Get merge request diffs',
      description:
        'List the changed files of a merge request with each file diff (paths, new/renamed/deleted flags, patch). Paginated; use mr_review.raw_diffs for one plain-text patch.',
      tool: 'forge_mr_changes_get',
      params: { ...base, unidiff, ...P.paging },
      required: baseReq,
      method: 'GET',
      path: `${mrPath}/diffs`,
      example: ex,
    }),
    action({
      id: 'mr_review.diff_version_get',
      title: 'Get merge request diff version',
      description:
        'Get one diff version of a merge request (the diff as of one push) with its commits and file diffs.',
      tool: 'forge_mr_diff_version_get',
      params: {
        ...base,
        version_id: {
          type: 'integer',
          minimum: 1,
          description: 'ID of the diff version, from mr_review.diff_versions_list.',
        },
        unidiff,
      },
      required: [...baseReq, 'version_id'],
      method: 'GET',
      path: `${mrPath}/versions/:version_id`,
      example: { ...ex, version_id: 10 },
    }),
    action({
      id: 'mr_review.diff_versions_list',
      title: 'List merge request diff versions',
      description:
        'List the diff versions of a merge request (one per push), newest first, with the base, start and head SHAs a line comment position needs.',
      tool: 'forge_mr_diff_versions_list',
      params: { ...base, ...P.paging },
      required: baseReq,
      method: 'GET',
      path: `${mrPath}/versions`,
      example: ex,
    }),
    action({
      id: 'mr_review.discussion_create',
      title: 'Start merge request thread',
      description:
        'Start a discussion thread on a merge request: a general thread, or a comment on specific diff lines when position is given. Threads can block merging until resolved.',
      tool: 'forge_mr_discussion_create',
      params: {
        ...base,
        body: noteBody,
        position,
        commit_id: {
          type: 'string',
          description:
            'SHA of a commit of the MR to attach a line comment to that commit; only used together with position.',
        },
        created_at: createdAt,
      },
      required: [...baseReq, 'body'],
      method: 'POST',
      path: `${mrPath}/discussions`,
      example: { ...ex, body: 'Could we add a test for the empty password case?' },
    }),
    action({
      id: 'mr_review.discussion_get',
      title: 'Get merge request thread',
      description: 'Get one discussion thread of a merge request with all its comments and resolution state.',
      tool: 'forge_mr_discussion_get',
      params: { ...base, discussion_id: P.discussionId },
      required: [...baseReq, 'discussion_id'],
      method: 'GET',
      path: `${mrPath}/discussions/:discussion_id`,
      example: { ...ex, discussion_id: discussionEx },
    }),
    action({
      id: 'mr_review.discussion_list',
      title: 'List merge request threads',
      description:
        'List the discussion threads of a merge request, including line comments with their diff positions and whether each is resolved.',
      tool: 'forge_mr_discussion_list',
      params: { ...base, ...P.paging },
      required: baseReq,
      method: 'GET',
      path: `${mrPath}/discussions`,
      example: ex,
    }),
    action({
      id: 'mr_review.discussion_note_delete',
      title: 'Delete merge request thread comment',
      description: 'Permanently delete one comment of a merge request thread. Irreversible.',
      tool: 'forge_mr_discussion_note_delete',
      params: { ...base, discussion_id: P.discussionId, note_id: P.noteId },
      required: [...baseReq, 'discussion_id', 'note_id'],
      method: 'DELETE',
      path: `${mrPath}/discussions/:discussion_id/notes/:note_id`,
      destructive: true,
      example: { ...ex, discussion_id: discussionEx, note_id: 4 },
    }),
    action({
      id: 'mr_review.discussion_note_update',
      title: 'Edit or resolve merge request thread comment',
      description:
        'Change the text of one comment in a merge request thread, or resolve/unresolve the thread through that comment: exactly one of body or resolved, not both.',
      tool: 'forge_mr_discussion_note_update',
      params: {
        ...base,
        discussion_id: P.discussionId,
        note_id: P.noteId,
        body: { ...noteBody, description: 'New comment text (not with resolved).' },
        resolved: {
          type: 'boolean',
          description: 'true resolves the thread, false reopens it (not with body).',
        },
      },
      required: [...baseReq, 'discussion_id', 'note_id'],
      // Exactly one (exactly_one_of :body, :resolved in lib/api/discussions.rb).
      oneOf: [['body', 'resolved']],
      exclusive: [['body', 'resolved']],
      method: 'PUT',
      path: `${mrPath}/discussions/:discussion_id/notes/:note_id`,
      example: { ...ex, discussion_id: discussionEx, note_id: 4, body: 'Updated: also covers Safari.' },
    }),
    action({
      id: 'mr_review.discussion_reply',
      title: 'Reply to merge request thread',
      description: 'Add a reply to an existing discussion thread of a merge request.',
      tool: 'forge_mr_discussion_reply',
      params: { ...base, discussion_id: P.discussionId, body: noteBody, created_at: createdAt },
      required: [...baseReq, 'discussion_id', 'body'],
      method: 'POST',
      path: `${mrPath}/discussions/:discussion_id/notes`,
      idempotent: false,
      example: { ...ex, discussion_id: discussionEx, body: 'Done in the latest push.' },
    }),
    action({
      id: 'mr_review.discussion_resolve',
      title: 'Resolve merge request thread',
      description: 'Resolve a merge request discussion thread, or reopen (unresolve) it with resolved false.',
      tool: 'forge_mr_discussion_resolve',
      params: {
        ...base,
        discussion_id: P.discussionId,
        resolved: { type: 'boolean', description: 'true resolves the thread, false reopens it.' },
      },
      required: [...baseReq, 'discussion_id', 'resolved'],
      method: 'PUT',
      path: `${mrPath}/discussions/:discussion_id`,
      example: { ...ex, discussion_id: discussionEx, resolved: true },
    }),
    action({
      id: 'mr_review.draft_note_create',
      title: 'Add draft review comment',
      description:
        'Write a pending review comment on a merge request, only visible to you until published with mr_review.draft_note_publish_all. Give position for a line comment, or in_reply_to_discussion_id to reply to a thread.',
      tool: 'forge_mr_draft_note_create',
      params: {
        ...base,
        note: noteBody,
        position,
        commit_id: { type: 'string', description: 'SHA of a commit of the MR the comment refers to.' },
        in_reply_to_discussion_id: { type: 'string', description: 'ID of the thread this draft replies to.' },
        resolve_discussion: {
          type: 'boolean',
          description: 'true: resolve that thread when the draft is published.',
        },
      },
      required: [...baseReq, 'note'],
      method: 'POST',
      path: `${mrPath}/draft_notes`,
      example: { ...ex, note: 'Nit: rename this variable.' },
    }),
    action({
      id: 'mr_review.draft_note_delete',
      title: 'Discard draft review comment',
      description: 'Discard one of your unpublished draft review comments. Irreversible.',
      tool: 'forge_mr_draft_note_delete',
      params: { ...base, draft_note_id: draftNoteId },
      required: [...baseReq, 'draft_note_id'],
      method: 'DELETE',
      path: `${mrPath}/draft_notes/:draft_note_id`,
      destructive: true,
      example: { ...ex, draft_note_id: 1 },
    }),
    action({
      id: 'mr_review.draft_note_get',
      title: 'Get draft review comment',
      description: 'Get one of your unpublished draft review comments on a merge request.',
      tool: 'forge_mr_draft_note_get',
      params: { ...base, draft_note_id: draftNoteId },
      required: [...baseReq, 'draft_note_id'],
      method: 'GET',
      path: `${mrPath}/draft_notes/:draft_note_id`,
      example: { ...ex, draft_note_id: 1 },
    }),
    action({
      id: 'mr_review.draft_note_list',
      title: 'List draft review comments',
      description:
        'List all your pending (unpublished) review comments on a merge request (one unpaginated list).',
      tool: 'forge_mr_draft_note_list',
      params: { ...base },
      required: baseReq,
      method: 'GET',
      path: `${mrPath}/draft_notes`,
      example: ex,
    }),
    action({
      id: 'mr_review.draft_note_publish',
      title: 'Publish one draft review comment',
      description:
        'Publish a single draft review comment so everyone sees it. To submit the whole review at once use mr_review.draft_note_publish_all.',
      tool: 'forge_mr_draft_note_publish',
      params: { ...base, draft_note_id: draftNoteId },
      required: [...baseReq, 'draft_note_id'],
      method: 'PUT',
      path: `${mrPath}/draft_notes/:draft_note_id/publish`,
      idempotent: false,
      example: { ...ex, draft_note_id: 1 },
    }),
    action({
      id: 'mr_review.draft_note_publish_all',
      title: 'Submit review (publish all drafts)',
      description:
        'Publish all your pending draft comments on a merge request at once, submitting the review and notifying participants.',
      tool: 'forge_mr_draft_note_publish_all',
      params: { ...base },
      required: baseReq,
      method: 'POST',
      path: `${mrPath}/draft_notes/bulk_publish`,
      example: ex,
    }),
    action({
      id: 'mr_review.draft_note_update',
      title: 'Edit draft review comment',
      description:
        'Change the text, and optionally the diff position, of one of your unpublished draft review comments. The text is always needed, even to move the draft.',
      tool: 'forge_mr_draft_note_update',
      params: {
        ...base,
        draft_note_id: draftNoteId,
        note: { ...noteBody, description: 'New text of the draft (required, also when only moving it).' },
        position: {
          ...position,
          description: `${position.description} The draft's position is replaced by what you send (none when left out), so resend it, as read with mr_review.draft_note_get, to keep a line comment on its line.`,
        },
      },
      required: [...baseReq, 'draft_note_id', 'note'],
      method: 'PUT',
      path: `${mrPath}/draft_notes/:draft_note_id`,
      example: { ...ex, draft_note_id: 1, note: 'Nit: rename this variable to userName.' },
    }),
    action({
      id: 'mr_review.note_create',
      title: 'Comment on merge request',
      description:
        'Add a general comment to a merge request (not tied to diff lines; use mr_review.discussion_create with position for that). Set internal for a members-only note.',
      tool: 'forge_mr_note_create',
      params: {
        ...base,
        body: noteBody,
        internal: {
          type: 'boolean',
          description:
            'true: internal note, hidden from guests and the public; only project members with at least the Planner role see it.',
        },
        merge_request_diff_head_sha: {
          type: 'string',
          description: 'Current head SHA of the MR; needed when the body holds the /merge quick action.',
        },
        created_at: createdAt,
      },
      required: [...baseReq, 'body'],
      method: 'POST',
      path: `${mrPath}/notes`,
      example: { ...ex, body: 'Looks good to me.' },
    }),
    action({
      id: 'mr_review.note_delete',
      title: 'Delete merge request comment',
      description: 'Permanently delete a comment from a merge request. Irreversible.',
      tool: 'forge_mr_note_delete',
      params: { ...base, note_id: P.noteId },
      required: [...baseReq, 'note_id'],
      method: 'DELETE',
      path: `${mrPath}/notes/:note_id`,
      destructive: true,
      example: { ...ex, note_id: 3 },
    }),
    action({
      id: 'mr_review.note_get',
      title: 'Get merge request comment',
      description: 'Get one comment of a merge request by its note ID.',
      tool: 'forge_mr_note_get',
      params: { ...base, note_id: P.noteId },
      required: [...baseReq, 'note_id'],
      method: 'GET',
      path: `${mrPath}/notes/:note_id`,
      example: { ...ex, note_id: 3 },
    }),
    action({
      id: 'mr_review.note_list',
      title: 'List merge request comments',
      description:
        'List the comments and system notes of a merge request as a flat list; mr_review.discussion_list groups them by thread.',
      tool: 'forge_mr_notes_list',
      params: {
        ...base,
        sort: { type: 'string', enum: ['asc', 'desc'], description: 'Sort direction (default desc).' },
        order_by: {
          type: 'string',
          enum: ['created_at', 'updated_at'],
          description: 'Field to order by (default created_at).',
        },
        activity_filter: P.notesActivityFilter,
        ...P.paging,
      },
      required: baseReq,
      method: 'GET',
      path: `${mrPath}/notes`,
      example: { ...ex, sort: 'asc' },
    }),
    action({
      id: 'mr_review.note_update',
      title: 'Edit merge request comment',
      description: 'Change the text of a comment on a merge request.',
      tool: 'forge_mr_note_update',
      params: { ...base, note_id: P.noteId, body: noteBody },
      required: [...baseReq, 'note_id', 'body'],
      method: 'PUT',
      path: `${mrPath}/notes/:note_id`,
      example: { ...ex, note_id: 3, body: 'Looks good to me after the rename.' },
    }),
    action({
      id: 'mr_review.raw_diffs',
      title: 'Get merge request patch',
      description:
        'Get all changes of a merge request as one plain-text unified diff, ready to read or apply with git.',
      tool: 'forge_mr_raw_diffs',
      params: { ...base },
      required: baseReq,
      method: 'GET',
      path: `${mrPath}/raw_diffs`,
      text: true,
      example: ex,
    }),
  ],
};
