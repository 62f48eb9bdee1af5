/**
 * The ranker behind forge_find_action, through its public class: exact IDs and tool names, only the
 * actions it was given, and its speed per query printed (test/find-quality.test.ts measures its quality
 * through the tool itself).
 */
import { describe, expect, it } from 'vitest';
import { catalog } from '../catalog/index.js';
import { TUNING } from '../../test/fixtures/find-queries.js';
import { ActionFinder, phrasalStarts, unindexedPhrasals } from './find.js';
import { ASKED_AS } from './find-asked-as.js';

describe('forge_find_action ranking', () => {
  const finder = new ActionFinder(catalog().actions);

  it('answers an exact canonical ID or tool name with that action first', () => {
    expect(finder.search('merge_request.approve', 1)[0].action.id).toBe('merge_request.approve');
    expect(finder.search('forge_issue_create', 1)[0].action.id).toBe('issue.create');
    expect(finder.search('  job.trace ', 3)[0].action.id).toBe('job.trace');
  });

  it('ranks only the actions it was given (a read-only view finds no write)', () => {
    const reads = catalog().actions.filter((a) => !a.write);
    const readOnly = new ActionFinder(reads);
    for (const [query] of TUNING.slice(0, 60))
      for (const hit of readOnly.search(query, 5))
        expect(hit.action.write, `${query}: ${hit.action.id}`).toBe(false);
    expect(readOnly.search('delete a branch', 3).map((h) => h.action.id)).not.toContain('branch.delete');
  });

  it('builds one index for every view listing the same actions, another for a different view', () => {
    const all = catalog().actions;
    const reads = all.filter((a) => !a.write);
    expect(ActionFinder.over([...all])).toBe(ActionFinder.over([...all]));
    expect(ActionFinder.over(reads)).not.toBe(ActionFinder.over(all));
    expect(
      ActionFinder.over(reads)
        .search('delete a branch', 5)
        .every((h) => !h.action.write),
    ).toBe(true);
  });

  it('names only catalog actions among its everyday phrasings, and ranks each action by its own', () => {
    const ids = new Set(catalog().actions.map((a) => a.id));
    expect(Object.keys(ASKED_AS).filter((id) => !ids.has(id))).toEqual([]);
    // Words only an everyday phrasing holds find the action.
    expect(finder.search('retire the project', 1)[0].action.id).toBe('project.archive');
    expect(finder.search('top committers', 1)[0].action.id).toBe('repository.contributors');
    expect(finder.search('push a new version of the file', 1)[0].action.id).toBe('repository.file_update');
    expect(finder.search('upload a new version of the package', 1)[0].action.id).toBe('package.publish');
    expect(finder.search('retire the legacy group', 1)[0].action.id).toBe('group.archive');
    expect(finder.search('redeliver the failed webhook event', 1)[0].action.id).toBe(
      'group.hook_resend_event',
    );
    expect(finder.search('request membership of the platform group', 1)[0].action.id).toBe(
      'access.request_group',
    );
    expect(finder.search('did the builds pass on commit 1a2b3c', 1)[0].action.id).toBe(
      'repository.commit_statuses',
    );
  });

  it('reads everyday verbs and phrasings as the catalog words they stand for', () => {
    const first = (q: string) => finder.search(q, 1)[0].action.id;
    // A phrasal verb's pattern applies whichever of its first words the request starts with.
    expect(first('suspend deploys over christmas')).toBe('environment.freeze_create');
    expect(first('is the api responding')).toBe('server.health_check');
    expect(first('where did main and dev diverge')).toBe('repository.merge_base');
    expect(first('land PR 3')).toBe('merge_request.merge');
    expect(first('retain the artifacts of job 5')).toBe('job.keep_artifacts');
    expect(first('do not expire artifacts of job 8')).toBe('job.keep_artifacts');
    // A commit named as a version is tagged; named as failed, it gets a status.
    expect(first('label commit abc123 as v2')).toBe('tag.create');
    expect(first('mark the commit as failed')).toBe('repository.commit_status_set');
    // Notifications about one issue or MR follow it; one issue blocking another links them.
    expect(first('enable notifications for MR 5')).toBe('merge_request.subscribe');
    expect(first('mute notifications for issue 3')).toBe('issue.unsubscribe');
    expect(first('issue 12 is blocked by issue 9')).toBe('issue.link_create');
    // A feature switched off for the project is its settings; a branch made read-only is protected.
    expect(first('disable issues for the project')).toBe('project.update');
    expect(first('make the develop branch read-only')).toBe('branch.protect');
    // "Our project" names the project, not the person asking; release notes are a changelog.
    expect(first('who starred our project')).toBe('project.list_starrers');
    expect(first('write release notes for 4.0')).toBe('repository.changelog_generate');
    expect(first('roll the checkout flag out to 10 percent of users')).toBe(
      'feature_flags.feature_flag_update',
    );
    // A build promoted to production runs its deploy job; who may deploy there is the environment's protection.
    expect(first('promote the build to production')).toBe('job.play');
    expect(first('who may deploy to staging')).toBe('environment.protected_get');
    // Who is in a group is its members (an apostrophe too); sharing a piece of code is a snippet.
    expect(first("who's in the frontend group")).toBe('group.members');
    expect(first('share a piece of code with alice')).toBe('snippet.create');
    expect(first('stop schedule 3 from running')).toBe('pipeline.schedule_update');
    // Throwing a thing away discards it; no longer watching or protecting it undoes that; what someone is up to
    // is their activity (while whether a server is up is still its health).
    expect(first('throw the draft away')).toBe('mr_review.draft_note_delete');
    expect(first('stop watching issue 4')).toBe('issue.unsubscribe');
    expect(first('stop protecting the main branch')).toBe('branch.unprotect');
    expect(first('what is alice up to')).toBe('user.contribution_events');
    expect(first('is the server up')).toBe('server.health_check');
  });

  it('keys every phrasal verb by the words it opens with, so the index tries none on every text', () => {
    // A rule whose opening the index cannot read (a nested or optional first group, no word boundary first) is
    // tried on every action's texts, slowing the first search: write its opening as words or one group of them.
    expect(unindexedPhrasals()).toEqual([]);
    expect(phrasalStarts(/\b(?:(?:take|bring) back|recall)\b/g)).toBeUndefined();
    expect(phrasalStarts(/\b(?:kick)? (\w+ )?out\b/g)).toBeUndefined();
    expect(phrasalStarts(/(?:switch|flip) on\b/g)).toBeUndefined();
    // An apostrophe in the opening words keys the rule by the word before it, as a text's words split there.
    expect(phrasalStarts(/\b(?:don't|do not|can’t) delete\b/g)).toEqual([
      { word: 'don', whole: true },
      { word: 'do', whole: true },
      { word: 'can', whole: true },
    ]);
    expect(phrasalStarts(/\bwon't (stop|halt)\b/g)).toEqual([{ word: 'won', whole: true }]);
    expect(phrasalStarts(/\bthumbs?[- ]?(up|down)\b/g)).toEqual([{ word: 'thumb', whole: false }]);
  });

  it('answers nothing for words the catalog never uses, and at most the limit asked', () => {
    expect(finder.search('zzqx qqzx', 5)).toEqual([]);
    expect(finder.search('list', 20)).toHaveLength(20);
    expect(finder.search('close an issue', 2)).toHaveLength(2);
  });

  it('prints its time per query over the tuning set', () => {
    const built = performance.now();
    const fresh = new ActionFinder(catalog().actions);
    const buildMs = performance.now() - built;
    for (const [q] of TUNING) fresh.search(q, 5);
    const rounds = 5;
    const start = performance.now();
    for (let r = 0; r < rounds; r++) for (const [q] of TUNING) fresh.search(q, 5);
    const perQuery = (performance.now() - start) / (rounds * TUNING.length);
    console.log(
      `find_action ranker: ${perQuery.toFixed(3)} ms per query (${TUNING.length} queries x ${rounds}), index built in ${buildMs.toFixed(0)} ms`,
    );
    expect(perQuery).toBeGreaterThan(0);
    // 6 passes over the tuning set take about 3 s on a quiet machine; a loaded one (CI beside other work)
    // can take ten times that, and a figure printed late is still a figure.
  }, 180_000);
});
