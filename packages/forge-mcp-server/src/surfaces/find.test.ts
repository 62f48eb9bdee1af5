/**
 * forge_find_action's ranking quality: plain-language queries a user would type, each with the
 * canonical ID that should come first. Reports top-1 and top-3 hit rates; top-1 must stay at 80% or more.
 */
import { describe, expect, it } from 'vitest';
import { catalog } from '../catalog/index.js';
import { ActionFinder } from './find.js';

/** [query, expected ID, other IDs that are equally right] */
const QUERIES: Array<[string, string, ...string[]]> = [
  ['close an issue', 'issue.update'],
  ['reopen a closed issue', 'issue.update'],
  ['create a new issue', 'issue.create'],
  ['open a bug report', 'issue.create'],
  ['list open issues in a project', 'issue.list'],
  ['show issue details', 'issue.get'],
  ['delete an issue', 'issue.delete'],
  ['comment on an issue', 'issue.note_create', 'issue.discussion_create'],
  ['move issue to another project', 'issue.move'],
  ['link two issues', 'issue.link_create'],
  ['who approved this MR', 'merge_request.approval_state', 'merge_request.get'],
  ['approve a merge request', 'merge_request.approve'],
  ['merge the merge request', 'merge_request.merge'],
  ['create a merge request', 'merge_request.create'],
  ['list open merge requests', 'merge_request.list'],
  ['show the diff of a merge request', 'mr_review.changes_get', 'mr_review.raw_diffs'],
  ['rebase MR', 'merge_request.rebase'],
  ['add reviewers to a merge request', 'merge_request.update', 'merge_request.reviewers'],
  ['reply to a review thread', 'mr_review.discussion_reply'],
  ['resolve a review discussion', 'mr_review.discussion_resolve'],
  ['retry failed job', 'job.retry'],
  ['show job log', 'job.trace'],
  ['cancel a running job', 'job.cancel'],
  ['download job artifacts', 'job.artifacts', 'job.download_artifacts'],
  ['run a manual job', 'job.play'],
  ['retry a failed pipeline', 'pipeline.retry'],
  ['cancel pipeline', 'pipeline.cancel'],
  ['start a new pipeline on main', 'pipeline.create'],
  ['list pipelines', 'pipeline.list'],
  ['jobs of a pipeline', 'job.list'],
  ['pipeline test report', 'pipeline.test_report'],
  ['create a branch', 'branch.create'],
  ['delete a branch', 'branch.delete'],
  ['list branches', 'branch.list'],
  ['protect the main branch', 'branch.protect'],
  ['create a tag', 'tag.create'],
  ['list tags', 'tag.list'],
  ['read a file from the repository', 'repository.file_get', 'repository.file_raw'],
  ['update a file and commit', 'repository.file_update'],
  ['create a file in the repo', 'repository.file_create'],
  ['list files in a directory', 'repository.tree'],
  ['compare two branches', 'repository.compare'],
  ['show commit history', 'repository.commit_list'],
  ['get a commit', 'repository.commit_get'],
  ['cherry pick a commit', 'repository.commit_cherry_pick'],
  ['revert a commit', 'repository.commit_revert'],
  ['git blame of a file', 'repository.file_blame'],
  ['fork a project', 'project.fork'],
  ['create a project', 'project.create'],
  ['list project members', 'project.members'],
  ['add a member to a project', 'project.member_add'],
  ['archive a project', 'project.archive'],
  ['star a project', 'project.star'],
  ['list groups', 'group.list'],
  ['list subgroups', 'group.subgroups'],
  ['who am i', 'user.current', 'user.me'],
  ['list my todos', 'user.todo_list'],
  ['create a release', 'release.create'],
  ['add a CI variable', 'ci_variable.create'],
  ['search code in a project', 'search.code'],
  ['create a wiki page', 'wiki.create'],
  ['create a project label', 'project.label_create'],
  ['create a milestone', 'project.milestone_create'],
  ['add a webhook to a project', 'project.hook_add'],
  ['list environments', 'environment.list'],
  ['stop an environment', 'environment.stop'],
];

describe('forge_find_action ranking', () => {
  const finder = new ActionFinder(catalog().actions);
  const results = QUERIES.map(([q, expected, ...alts]) => {
    const ids = finder.search(q, 3).map((h) => h.action.id);
    const ok = [expected, ...alts];
    return { q, ids, top1: ok.includes(ids[0]), top3: ids.some((id) => ok.includes(id)) };
  });

  it('names only canonical IDs that exist', () => {
    for (const [, expected, ...alts] of QUERIES)
      for (const id of [expected, ...alts]) expect(catalog().get(id), id).toBeDefined();
  });

  it(`puts the right action first for at least 80% of ${QUERIES.length} plain-language queries`, () => {
    const top1 = results.filter((r) => r.top1).length / results.length;
    const top3 = results.filter((r) => r.top3).length / results.length;
    const misses = results.filter((r) => !r.top1).map((r) => `${r.q} -> ${r.ids.join(', ')}`);
    console.log(
      `find_action quality: top-1 ${(top1 * 100).toFixed(1)}%, top-3 ${(top3 * 100).toFixed(1)}% over ${results.length} queries`,
    );
    if (misses.length) console.log(`misses:\n  ${misses.join('\n  ')}`);
    expect(top1).toBeGreaterThanOrEqual(0.8);
    expect(top3).toBeGreaterThanOrEqual(0.9);
  });

  it('answers an exact canonical ID or tool name with that action first', () => {
    expect(finder.search('merge_request.approve', 1)[0].action.id).toBe('merge_request.approve');
    expect(finder.search('forge_issue_create', 1)[0].action.id).toBe('issue.create');
  });
});
