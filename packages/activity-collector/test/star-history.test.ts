import { describe, expect, it } from 'vitest';
import { laDate, weekLabelOf } from '../src/index.js';
import { dump, fullRepo, runSweep, sqliteStore, star, startSim, USER, world, NOW } from './helpers.js';

/** Stars, one per week, going back `weeks` weeks from the week of NOW (2026-11-18). */
function weeklyStars(weeks: number) {
  return Array.from({ length: weeks }, (_, i) =>
    star(
      `w${i}`,
      new Date(Date.parse('2026-11-16T20:00:00Z') - i * 7 * 86_400_000).toISOString().replace('.000', ''),
    ),
  );
}
/** A repository created `weeks` weeks back (so the history holds exactly that many weeks). */
function repoWithWeeks(name: string, weeks: number, extra = {}) {
  const created = new Date(Date.parse('2026-11-16T20:00:00Z') - (weeks - 1) * 7 * 86_400_000).toISOString();
  return fullRepo(name, { createdAt: created, stars: weeklyStars(weeks), ...extra });
}

const historyPages = (sim: Awaited<ReturnType<typeof startSim>>, repo: string) =>
  sim.calls(`/repos/${USER}/${repo}/stargazers/history`).map((r) => Number(r.query.page));

describe('star history walk', () => {
  it('asks 30 weeks a page and, after exactly 30 weeks, stops at the empty page that follows', async () => {
    const sim = await startSim(world([repoWithWeeks('own', 30)]));
    const { store } = await runSweep(sim, await sqliteStore());
    expect(historyPages(sim, 'own')).toEqual([1, 2]);
    expect(sim.calls(/history$/).every((r) => r.query.per_page === '30')).toBe(true);
    const days = await store.starDays(`${USER}/own`);
    expect(days.reduce((n, d) => n + d.stars, 0)).toBe(30);
    // 29 full weeks plus the current week up to today (Sunday..Wednesday).
    expect(days).toHaveLength(29 * 7 + 4);
  });

  it('stops at a page shorter than 30 weeks without asking for another', async () => {
    const sim = await startSim(world([repoWithWeeks('own', 12)]));
    await runSweep(sim, await sqliteStore());
    expect(historyPages(sim, 'own')).toEqual([1]);
  });

  it('walks several pages and stops at the short last one', async () => {
    const sim = await startSim(world([repoWithWeeks('own', 65)]));
    const { store } = await runSweep(sim, await sqliteStore());
    expect(historyPages(sim, 'own')).toEqual([1, 2, 3]);
    const days = await store.starDays(`${USER}/own`);
    expect(days.reduce((n, d) => n + d.stars, 0)).toBe(65);
  });

  it('reads an empty first page as no history', async () => {
    const sim = await startSim(world([fullRepo('own', { stars: [] })]));
    const { store, summary } = await runSweep(sim, await sqliteStore());
    expect(historyPages(sim, 'own')).toEqual([1]);
    expect(await store.starDays(`${USER}/own`)).toEqual([]);
    expect(summary.errors).toEqual([]);
  });

  it('drops the newest week’s future days and files stars under Los Angeles calendar days', async () => {
    const sim = await startSim(
      world([
        fullRepo('own', {
          stars: [
            star('late-night', '2026-11-10T07:30:00Z'), // Mon 9 Nov 23:30 in Los Angeles
            star('saturday', '2026-11-15T05:00:00Z'), // Sat 14 Nov 21:00 in Los Angeles (before the Sunday label)
            star('today', '2026-11-18T19:00:00Z'),
          ],
        }),
      ]),
    );
    const { store } = await runSweep(sim, await sqliteStore());
    const days = await store.starDays(`${USER}/own`);
    const byDay = Object.fromEntries(days.map((d) => [d.day, d.stars]));
    expect(byDay['2026-11-09']).toBe(1);
    expect(byDay['2026-11-10']).toBe(0);
    expect(byDay['2026-11-14']).toBe(1);
    expect(byDay['2026-11-15']).toBe(0);
    expect(byDay['2026-11-18']).toBe(1);
    expect(days.at(-1)!.day).toBe(laDate(NOW));
    expect(days.some((d) => d.day > '2026-11-18')).toBe(false);
  });

  it('merges a week repeated across pages instead of counting it twice', async () => {
    // The week rolls over after page 1: page 2 starts with page 1's last week (29 weeks back), which holds a star.
    const sim = await startSim(world([repoWithWeeks('own', 40, { historyRollover: true })]));
    const { store } = await runSweep(sim, await sqliteStore());
    const pages = sim.calls(/\/own\/stargazers\/history$/);
    expect(pages.map((r) => r.query.page)).toEqual(['1', '2']);
    const days = await store.starDays(`${USER}/own`);
    expect(new Set(days.map((d) => d.day)).size).toBe(days.length);
    expect(days.reduce((n, d) => n + d.stars, 0)).toBe(40);
    // The star given 29 weeks back sits in the repeated week: counted once, not twice.
    const w29 = laDate(new Date(Date.parse('2026-11-16T20:00:00Z') - 29 * 7 * 86_400_000));
    expect(days.find((d) => d.day === w29)!.stars).toBe(1);
    expect(weekLabelOf(w29)).toBe(weekLabelOf('2026-11-18') - 29 * 7 * 86400);
  });

  it('reuses the stored pages on 304 (which carries no Link) and walks the same pages', async () => {
    const sim = await startSim(world([repoWithWeeks('own', 45)]));
    const store = await sqliteStore();
    await runSweep(sim, store);
    const before = await dump(store, 'vcs_star_day');
    const first = sim.requests.length;
    const remaining = sim.rateRemaining;
    const { summary } = await runSweep(sim, store);
    const again = sim.requests.slice(first).filter((r) => r.path.endsWith('/stargazers/history'));
    expect(again.map((r) => [r.query.page, r.status, r.conditional])).toEqual([
      ['1', 304, true],
      ['2', 304, true],
    ]);
    expect(await dump(store, 'vcs_star_day')).toEqual(before);
    expect(summary.notModified).toBeGreaterThanOrEqual(2);
    // 304s are free: the budget only dropped by the calls that answered 200 or an error.
    const charged = sim.requests.slice(first).filter((r) => r.status !== 304).length;
    expect(remaining - sim.rateRemaining).toBe(charged);
  });

  it('lowers a past day when a stargazer unstars, in vcs_star_day and vcs_star', async () => {
    const w = world([fullRepo('own')]);
    const sim = await startSim(w);
    const store = await sqliteStore();
    await runSweep(sim, store);
    const day = async () => (await store.starDays(`${USER}/own`)).find((d) => d.day === '2026-09-03')!.stars;
    expect(await day()).toBe(1);
    w.repos[0].stars = w.repos[0].stars!.filter((s) => s.login !== 'alice');
    await runSweep(sim, store);
    expect(await day()).toBe(0);
    expect(await dump(store, 'vcs_star')).toEqual([
      JSON.stringify({ login: 'bob', repository: `${USER}/own`, starred_at: '2026-11-10T07:30:00Z' }),
    ]);
  });
});
