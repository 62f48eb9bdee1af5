/**
 * forge_find_action's ranking quality as users phrase tasks, through a real MCP client over stdio against
 * forge-sim: every query of the tuning set (test/fixtures/find-queries.ts) and of the held-out set, never
 * tuned on (find-queries-heldout.ts), and of a second held-out set of everyday phrasings written before the
 * vocabulary was widened (find-queries-heldout-2.ts), and of a third held-out set (find-queries-heldout-3.ts:
 * 100 requests written blind on 2026-11-27, before that day's ranking change, from the inventory's titles and
 * descriptions alone, without reading the ranker, its vocabulary, its corpus or the other sets, and without
 * running the search), and of a fourth held-out set (find-queries-heldout-4.ts: 120 requests, about 70 everyday
 * and 50 less common, written blind on 2026-11-27 the same way, from the inventory alone, before any run), and
 * of a fifth held-out set (find-queries-heldout-5.ts: 120 requests, 70 to create, change, delete or do something
 * and 50 everyday mixed ones, written blind on 2026-11-27 the same way, from the inventory and the listed titles
 * and descriptions alone, before any run), and of a sixth held-out set (find-queries-heldout-6.ts: 120 requests
 * as an assistant forwards them mid-task, with names, numbers, paths and branches, over CI/CD, security,
 * packages, administration, groups, wikis, snippets, releases and tokens, 20 naming the object only indirectly,
 * written blind on 2026-11-28 from the inventory's IDs and routes alone, before any run), and of a seventh
 * held-out set (find-queries-heldout-7.ts: 120 requests as users type them into a chat, terse, with typos and
 * abbreviations, in non-native English, as two clauses or as questions, over every area of the inventory, 25
 * naming the object only indirectly, written blind on 2026-11-28 from the inventory's IDs and routes alone,
 * before any run), and of an eighth held-out set (find-queries-heldout-8.ts: 120 requests as an assistant model
 * writes its tool queries while acting on a user's task, 60 as keyword searches, 16 of them in another
 * platform's vocabulary such as pull request, workflow run, repository secret, org and gist, and 60 as sentences
 * restating the task with its context, over every area of the inventory, written blind on 2026-11-28 from the
 * inventory's IDs and routes alone, before any run), and of a ninth held-out set (find-queries-heldout-9.ts: 120
 * requests over the inventory's areas in proportion, 40 typed half remembering the name (a typo, an abbreviation,
 * a plural, the words shuffled), 40 in another forge's words or general software talk and 40 asked as questions,
 * written blind on 2026-11-28 from the inventory's IDs and routes alone, before any run), is asked of the tool;
 * the test prints top-1 and top-3 of each set with the misses (a blind set's, sets 3 to 9, only when asked),
 * holds the tuning set to 97% top-1 and 99.5% top-3, and the sixth to ninth sets to their figures at the builds
 * they were written against (83 and 96, 76 and 90, 86 and 102, 85 and 105 of 120). Then:
 * the request's verb outweighs the nouns it shares with other actions, and the answer keeps its shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TUNING, type FindQuery } from './fixtures/find-queries.js';
import { HELD_OUT } from './fixtures/find-queries-heldout.js';
import { HELD_OUT_2 } from './fixtures/find-queries-heldout-2.js';
import { HELD_OUT_3 } from './fixtures/find-queries-heldout-3.js';
import { HELD_OUT_4 } from './fixtures/find-queries-heldout-4.js';
import { HELD_OUT_5 } from './fixtures/find-queries-heldout-5.js';
import { HELD_OUT_6 } from './fixtures/find-queries-heldout-6.js';
import { HELD_OUT_7 } from './fixtures/find-queries-heldout-7.js';
import { HELD_OUT_8 } from './fixtures/find-queries-heldout-8.js';
import { HELD_OUT_9 } from './fixtures/find-queries-heldout-9.js';
import { sim, stdioClient, textOf, type Connected, type ForgeSim } from './harness.js';

let s: ForgeSim;
let c: Connected;
beforeAll(async () => {
  s = await sim();
  // An administrator's session lists the whole catalog: the sets name administration actions too.
  c = await stdioClient(s, { env: { FORGE_TOKEN: s.tokens.admin } });
});
afterAll(async () => {
  await c?.close();
  await s?.close();
});

interface Match {
  id: string;
  title: string;
  description: string;
  write: boolean;
  destructive: boolean;
  tier: string;
  schema: { type: string; properties: Record<string, unknown> };
}

async function find(query: string, limit = 3): Promise<{ matches: Match[]; text: string }> {
  const r = await c.client.callTool({ name: 'forge_find_action', arguments: { query, limit } });
  expect(r.isError, query).toBeFalsy();
  return { matches: (r.structuredContent as { matches: Match[] }).matches, text: textOf(r) };
}

interface Figures {
  top1: number;
  top3: number;
  misses: string[];
}

/**
 * Asks the tool every query of a set; a hit is any of the query's accepted IDs. A blind set's misses are printed
 * only when FORGE_FIND_SHOW_BLIND_MISSES=1, so that whoever tunes the finder and runs this test stays blind to them.
 */
async function measure(name: string, set: FindQuery[], blind = false): Promise<Figures> {
  let top1 = 0;
  let top3 = 0;
  const misses: string[] = [];
  for (const [query, ...accepted] of set) {
    const ids = (await find(query)).matches.map((m) => m.id);
    if (accepted.includes(ids[0])) top1++;
    else
      misses.push(
        `${ids.some((id) => accepted.includes(id)) ? 'top-3' : 'MISS '} "${query}" wants ${accepted.join(' | ')}, got ${ids.join(', ')}`,
      );
    if (ids.some((id) => accepted.includes(id))) top3++;
  }
  const f = { top1: top1 / set.length, top3: top3 / set.length, misses };
  console.log(
    `find_action quality, ${name}: top-1 ${(f.top1 * 100).toFixed(1)}%, top-3 ${(f.top3 * 100).toFixed(1)}% over ${set.length} queries` +
      (!misses.length
        ? ''
        : blind && process.env.FORGE_FIND_SHOW_BLIND_MISSES !== '1'
          ? ` (${misses.length} misses not shown: a blind set; FORGE_FIND_SHOW_BLIND_MISSES=1 shows them)`
          : `\n  ${misses.join('\n  ')}`),
  );
  return f;
}

/** Every set, tuning and held-out: the IDs they accept must be offered, and no query may stand in two. */
const ALL_SETS = [
  TUNING,
  HELD_OUT,
  HELD_OUT_2,
  HELD_OUT_3,
  HELD_OUT_4,
  HELD_OUT_5,
  HELD_OUT_6,
  HELD_OUT_7,
  HELD_OUT_8,
  HELD_OUT_9,
];

describe('forge_find_action quality as users phrase tasks', () => {
  it('names only actions this session lists (each answers its own canonical ID first)', async () => {
    const ids = new Set(ALL_SETS.flat().flatMap(([, ...accepted]) => accepted));
    for (const id of ids) expect((await find(id, 1)).matches[0]?.id, id).toBe(id);
  });

  it('keeps the ten sets apart and large enough: 200+ tuning queries, 60+ in each held-out set, none in two', () => {
    expect(TUNING.length).toBeGreaterThanOrEqual(200);
    expect(HELD_OUT.length).toBeGreaterThanOrEqual(60);
    expect(HELD_OUT_2.length).toBeGreaterThanOrEqual(60);
    expect(HELD_OUT_3.length).toBeGreaterThanOrEqual(60);
    expect(HELD_OUT_4.length).toBeGreaterThanOrEqual(60);
    expect(HELD_OUT_5.length).toBeGreaterThanOrEqual(60);
    expect(HELD_OUT_6.length).toBeGreaterThanOrEqual(60);
    expect(HELD_OUT_7.length).toBeGreaterThanOrEqual(60);
    expect(HELD_OUT_8.length).toBeGreaterThanOrEqual(60);
    expect(HELD_OUT_9.length).toBeGreaterThanOrEqual(60);
    const all = ALL_SETS.flat().map(([q]) => q.toLowerCase());
    expect(all.filter((q, k) => all.indexOf(q) !== k)).toEqual([]);
  });

  it(`puts the right action first for 97% and in the top three for 99.5% of ${TUNING.length} tuning queries`, async () => {
    const f = await measure('tuning set', TUNING);
    expect(f.top1).toBeGreaterThanOrEqual(0.97);
    expect(f.top3).toBeGreaterThanOrEqual(0.995);
  });

  it(`reports the ${HELD_OUT.length} held-out queries beside them, never tuned on`, async () => {
    const f = await measure('held-out set', HELD_OUT);
    expect(f.top1).toBeGreaterThanOrEqual(0.93);
    expect(f.top3).toBeGreaterThanOrEqual(0.98);
  });

  // Informed since: its misses guided the everyday phrasings (src/surfaces/find-asked-as.ts).
  it(`reports the ${HELD_OUT_2.length} queries of the second held-out set, now informed`, async () => {
    const f = await measure('second held-out set', HELD_OUT_2);
    expect(f.top1).toBeGreaterThanOrEqual(0.95);
    expect(f.top3).toBeGreaterThanOrEqual(0.98);
  });

  // The third held-out set was written blind on 2026-11-27, before that day's ranking change, to measure it
  // honestly: its figures are only printed (no floor; each query must still be answered without error);
  // never tune on it or reword it after seeing them.
  it(`reports the ${HELD_OUT_3.length} queries of the third held-out set, written blind`, async () => {
    await measure('third held-out set', HELD_OUT_3, true);
  });

  // The fourth held-out set was written blind on 2026-11-27 while the ranker was being changed, kept from its
  // author, to measure the change honestly: its figures are only printed (no floor; each query must still be
  // answered without error); never tune on it or reword it after seeing them.
  it(`reports the ${HELD_OUT_4.length} queries of the fourth held-out set, written blind`, async () => {
    await measure('fourth held-out set', HELD_OUT_4, true);
  });

  // The fifth held-out set was written blind on 2026-11-27 while the ranker was being changed for requests to
  // create, change or delete, weighted toward such requests and kept from the ranker's author, to measure that
  // change honestly: its figures are only printed (no floor; each query must still be answered without error);
  // never tune on it or reword it after seeing them.
  it(`reports the ${HELD_OUT_5.length} queries of the fifth held-out set, written blind`, async () => {
    await measure('fifth held-out set', HELD_OUT_5, true);
  });

  // The sixth held-out set was written blind on 2026-11-28 from the inventory alone, before any run, kept from
  // the ranker's author, for the areas the earlier sets touched least; its floors are its figures at the build
  // it was written against (b2ba892), rounded down to a whole query, so a ranking change may not lose ground on
  // it. Never tune on it or reword it after seeing its figures.
  it(`holds the ${HELD_OUT_6.length} queries of the sixth held-out set, written blind, to their first figures`, async () => {
    const f = await measure('sixth held-out set', HELD_OUT_6, true);
    expect(f.top1).toBeGreaterThanOrEqual(83 / 120);
    expect(f.top3).toBeGreaterThanOrEqual(96 / 120);
  });

  // The seventh held-out set was written blind on 2026-11-28 from the inventory alone, before any run, kept from
  // the ranker's author, as users type requests into a chat (terse, misspelt, abbreviated, two clauses, questions,
  // 25 naming the object only indirectly); its floors are its figures at the build it was written against
  // (58387d3), rounded down to a whole query, so a ranking change may not lose ground on it. Never tune on it or
  // reword it after seeing its figures.
  it(`holds the ${HELD_OUT_7.length} queries of the seventh held-out set, written blind, to their first figures`, async () => {
    const f = await measure('seventh held-out set', HELD_OUT_7, true);
    expect(f.top1).toBeGreaterThanOrEqual(76 / 120);
    expect(f.top3).toBeGreaterThanOrEqual(90 / 120);
  });

  // The eighth held-out set was written blind on 2026-11-28 from the inventory alone, before any run, kept from
  // the ranker's author, as an assistant model writes its tool queries (keyword searches, some in another
  // platform's vocabulary, and sentences restating the user's task); its floors are its figures at the build it
  // was written against (8107958), rounded down to a whole query, so a ranking change may not lose ground on it.
  // Never tune on it or reword it after seeing its figures.
  it(`holds the ${HELD_OUT_8.length} queries of the eighth held-out set, written blind, to their first figures`, async () => {
    const f = await measure('eighth held-out set', HELD_OUT_8, true);
    expect(f.top1).toBeGreaterThanOrEqual(86 / 120);
    expect(f.top3).toBeGreaterThanOrEqual(102 / 120);
  });

  // The ninth held-out set was written blind on 2026-11-28 from the inventory alone, before any run, kept from
  // the ranker's author, as a person half remembering a name types it (typos, abbreviations, plurals, shuffled
  // words), in another forge's words or general software talk, and as questions; its floors are its figures at
  // the build it was written against (696d999), rounded down to a whole query, so a ranking change may not lose
  // ground on it. Never tune on it or reword it after seeing its figures.
  it(`holds the ${HELD_OUT_9.length} queries of the ninth held-out set, written blind, to their first figures`, async () => {
    const f = await measure('ninth held-out set', HELD_OUT_9, true);
    expect(f.top1).toBeGreaterThanOrEqual(85 / 120);
    expect(f.top3).toBeGreaterThanOrEqual(105 / 120);
  });
});

/** One test per case: the query's first match is one of the IDs it accepts. */
function answersFirst(cases: Array<[string, string[]]>): void {
  it.each(cases)('"%s" answers %j first', async (query, accepted) => {
    const [top] = (await find(query)).matches;
    expect(accepted).toContain(top.id);
  });
}

describe('the verb of the request outweighs noun overlap', () => {
  // The same object under different verbs: each verb must pick its own operation.
  const cases: Array<[string, string[]]> = [
    ['set a CI/CD variable', ['ci_variable.create', 'ci_variable.update']],
    ['list CI/CD variables', ['ci_variable.list']],
    ['delete a CI/CD variable', ['ci_variable.delete']],
    ['log time spent on an issue', ['issue.spent_time_add']],
    ['reset time spent on an issue', ['issue.spent_time_reset']],
    ['show time spent on an issue', ['issue.time_stats_get']],
    ['publish a release', ['release.create']],
    ['delete a release', ['release.delete']],
    ['show a release', ['release.get']],
    ['list release asset links', ['release.link_list']],
    ['retry a pipeline', ['pipeline.retry']],
    ['cancel a pipeline', ['pipeline.cancel']],
    ['delete a pipeline', ['pipeline.delete']],
    ['protect a branch', ['branch.protect']],
    ['unprotect a branch', ['branch.unprotect']],
    ['archive a project', ['project.archive']],
    ['transfer a project', ['project.transfer', 'group.transfer_project']],
    ['rebase a merge request', ['merge_request.rebase']],
    ['merge a merge request', ['merge_request.merge']],
    ['approve a merge request', ['merge_request.approve']],
    // Asked with specifics, the verb late, implied or missing: the action doing it, not the thing's read or list.
    ['a branch named release-3 off develop in project 2', ['branch.create']],
    ['an environment named qa-7 for project 3', ['environment.create']],
    ['the start date of milestone 6 changes to Monday', ['project.milestone_update']],
    ['issue 8 should be assigned to bob', ['issue.update']],
    ['issue 19 to carol', ['issue.update']],
    ['MR 9 should go to develop instead of main', ['merge_request.update']],
    ['erin is now a maintainer of project 5', ['project.member_edit']],
    ['the wiki page Home should link to the handbook', ['wiki.update']],
    ['the group webhook is not used anymore', ['group.hook_delete']],
    ['the old ci variable can go', ['ci_variable.delete']],
    ['the handbook wiki needs a page about oncall', ['wiki.create']],
    ['I want issue 11 to be closed', ['issue.update']],
    ['the description of MR 2 is outdated', ['merge_request.update']],
    ['tag v2.2 was pushed by mistake', ['tag.delete']],
    ["group 7 shouldn't be archived", ['group.unarchive']],
    ['the variable SECRET_KEY has to be masked', ['ci_variable.update']],
    ['release v4.0 needs a link to the installer', ['release.link_create']],
    ['issue 50 needs closing', ['issue.update']],
    ['the milestone Sprint 9 is over', ['project.milestone_update']],
    ['pipeline 77 is stuck', ['pipeline.cancel']],
    ['have issue 30 closed', ['issue.update']],
    ['have MR 4 rebased', ['merge_request.rebase']],
    // Keywords, the verb last: a word that names a thing only of other things ("closed" issues of a merge request)
    // is the verb here.
    ['milestone close', ['project.milestone_update']],
    // A question is still a read.
    ['have any pipelines failed today', ['pipeline.list']],
  ];
  answersFirst(cases);
});

describe("things named in other words: another platform's, an org's teams, a branch, everyday names", () => {
  // Each case fails alone when the reading it depends on is lost (the tuning floor would hide one miss).
  const cases: Array<[string, string[]]> = [
    // A two-word name whose last word is also a verb ("request") names a thing, not an operation.
    ['merge request', ['merge_request.get', 'merge_request.list']],
    ['list the environment secrets of staging', ['ci_variable.list']],
    ['create an app password for the deploy script', ['user.create_current_user_pat']],
    // Making a thing in the state an action of its own puts it in is that action.
    ['create a protected branch', ['branch.protect']],
    // A verb only one action performs names it, whatever the things after it ("main" is a branch, not a latest).
    ['compare feature-login with main', ['repository.compare']],
    // An organisation's teams are its subgroups; a team is a group, its people the group's members.
    ['list the teams of the org', ['group.subgroups']],
    // Its repositories are the group's projects (not its container repositories, not a project's groups).
    ['list the repositories of the org', ['group.projects']],
    ['create a team', ['group.create']],
    // The thing asked for, named in everyday words, is what the catalog calls it (a binary is a release's link).
    ['binaries of the latest release', ['release.link_list']],
    // A pipeline asked about on a branch, no ID given, is that branch's latest (not one picked by its ID).
    ['did the pipeline on master pass', ['pipeline.latest']],
    ['the pipeline for main', ['pipeline.latest']],
    // One given by its ID is that one, a branch named or not.
    ['show pipeline 812 on main', ['pipeline.get']],
    ['pipeline 812 on master', ['pipeline.get']],
    ['is pipeline 812 on main still running', ['pipeline.get']],
    ['did pipeline 812 on main pass', ['pipeline.get']],
    // A job given by its ID is that job, whichever branch's pipeline it ran in (not that pipeline's job list).
    ['show job 55 of the master pipeline', ['job.get']],
    // What changed on one branch is its recent commits (not a comparison, which takes two refs).
    ['what changed on main', ['repository.commit_list']],
    // Submitting a review publishes its drafts: the action titled so, not a change of the merge request it is on.
    ['submit the review on MR 4', ['mr_review.draft_note_publish_all']],
  ];
  answersFirst(cases);
});

describe('the answer keeps its shape', () => {
  it('lists each match as ID, title and kind with its description and exact schema, then how to run one', async () => {
    const { matches, text } = await find('close an issue', 2);
    expect(matches).toHaveLength(2);
    const [first] = matches;
    expect(first).toMatchObject({ id: 'issue.update', write: true, destructive: false });
    expect(first.schema.type).toBe('object');
    expect(first.schema.properties).toHaveProperty('state_event');
    expect(text).toContain(
      `1. issue.update: ${first.title} (write)\n   ${first.description}\n   schema: ${JSON.stringify(first.schema)}`,
    );
    expect(text).toMatch(/\nRun one with forge_execute_action \{action, params\}\.$/);
  });

  it("gives each match's whole parameter schema: the one its tools manifest entry and its individual tool carry", async () => {
    const { matches } = await find('add a comment to a merge request', 3);
    const one = await stdioClient(s, {
      env: { FORGE_TOKEN: s.tokens.admin, FORGE_MCP_TOOL_SURFACE: 'individual' },
    });
    try {
      const tools = (await one.client.listTools()).tools;
      for (const m of matches) {
        const read = await one.client.readResource({ uri: `forge://tools/${m.id}` });
        const entry = JSON.parse((read.contents[0] as { text: string }).text) as {
          input_schema: unknown;
          call: { tool: string };
        };
        expect(m.schema, m.id).toEqual(entry.input_schema);
        const tool = tools.find((t) => t.name === entry.call.tool);
        expect(tool, m.id).toBeDefined();
        expect(m.schema, m.id).toEqual(tool!.inputSchema);
      }
    } finally {
      await one.close();
    }
  });

  it('answers words that name nothing with an empty match list and a hint', async () => {
    const r = await c.client.callTool({ name: 'forge_find_action', arguments: { query: 'zzqx qqzx' } });
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as { matches: unknown[] }).matches).toEqual([]);
    expect(textOf(r)).toContain('No action matches "zzqx qqzx".');
  });
});
