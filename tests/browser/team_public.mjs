// Browser tests of a team section's public pages (issue #41): the team crosstable on a 360-px
// phone and printed, and the big screen's team slides on 1080p. The event stays in the
// database, so the crawl (registered after this file) reaches every team page by links, in
// three languages. Registered by run.mjs with
//
//   import { registerTeamPublicTests } from './team_public.mjs';
//   const teamPages = registerTeamPublicTests({ test, assert, api, admin: ADMIN, base: () => base, out, join, EVIL });
//
// It returns the team pages the crawl starts from.

export function registerTeamPublicTests({ test, assert, api, admin, base, out, join, EVIL }) {
  let made = null;
  /** Four teams of three (a player named like a script) on three boards: round 1 played,
   *  round 2 published with one match's results in. */
  async function teams() {
    if (made) return made;
    const { token } = await api('POST', '/api/v1/auth/login', admin);
    const t = await api('POST', '/api/v1/tournaments', { name: '第一屆團體賽', game: 'xiangqi', default_language: 'zh-Hant' }, token);
    const s = await api('POST', `/api/v1/tournaments/${t.id}/sections`, {
      name: '團體組', rounds: 3, entry_type: 'team', pairing_system: 'chinese',
      team: { boards: 3, reserves: 0, tiebreaks: ['GPTS', 'BH:MP'] },
    }, token);
    const names = ['台北棋院', '新竹象棋會', '台中隊', '高雄俱樂部'];
    for (const [i, name] of names.entries()) {
      const roster = [0, 1, 2].map((p) => ({
        name: i === 0 && p === 2 ? EVIL : `${name.slice(0, 2)}隊員${p + 1}`,
        rating: 2300 - i * 10 - p,
      }));
      await api('POST', `/api/v1/sections/${s.id}/teams`, { name, club: name, captain_position: 1, roster }, token);
    }
    const outcomes = ['red_wins', 'draw', 'black_wins'];
    for (const round of [1, 2]) {
      await api('POST', `/api/v1/sections/${s.id}/rounds`, undefined, token);
      await api('POST', `/api/v1/sections/${s.id}/rounds/${round}/publish`, undefined, token);
      const matches = await api('GET', `/api/v1/sections/${s.id}/rounds/${round}/matches`, undefined, token);
      for (const [m, match] of matches.entries()) {
        if (!match.black || (round === 2 && m > 0)) continue;
        for (const n of [1, 2, 3]) {
          await api('PUT', `/api/v1/boards/${match.id}/games/${n}/result`, { result: outcomes[(m + n + round) % 3] }, token);
        }
      }
    }
    made = { section: s.id, tournament: t.id };
    return made;
  }

  test('a team section: its crosstable fits a 360-px phone and prints; the screen shows matches and team standings', async ({ page }) => {
    const { section } = await teams();
    await page.goto(`${base()}/s/${section}/crosstable?lang=en`);
    assert((await page.locator('table.team-crosstable tbody tr').count()) === 4, 'one row per team');
    const cells = await page.locator('table.team-crosstable tbody tr td.cell').allTextContents();
    assert(cells.some((c) => /^\d[RB] (\d|½)/.test(c.trim())), `cells like "2R 2½": ${cells.join(' | ')}`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 360, `the team crosstable is ${width}px wide on a phone`);
    await page.screenshot({ path: join(out, 'team-crosstable-360.png'), fullPage: true });
    await page.goto(`${base()}/s/${section}/crosstable/print?lang=zh-Hans`);
    assert((await page.textContent('body')).includes('成绩总表'), 'the printed crosstable in Simplified Chinese');
    await page.pdf({ path: join(out, 'team-crosstable.pdf'), format: 'A4', landscape: true });
    // The standings and pairings tabs of a team section on the phone too.
    for (const path of ['standings', 'pairings/2', 'board-rankings']) {
      await page.goto(`${base()}/s/${section}/${path}`);
      const w = await page.evaluate(() => document.documentElement.scrollWidth);
      assert(w <= 360, `/s/{id}/${path} is ${w}px wide on a phone`);
    }
  }, { context: { locale: 'zh-TW', viewport: { width: 360, height: 740 } } });

  test('the big screen of a team section: round 2\'s matches board by board, then the team standings, inside 1080p', async ({ page }) => {
    const { section } = await teams();
    const kinds = [];
    for (const slide of [0, 1]) {
      await page.goto(`${base()}/s/${section}/screen?slide=${slide}`);
      kinds.push(await page.getAttribute('main', 'data-kind'));
      const size = await page.evaluate(() => ({ w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight }));
      assert(size.w <= 1920 && size.h <= 1080, `slide ${slide} fits 1080p (${size.w}×${size.h})`);
      await page.screenshot({ path: join(out, `team-screen-${slide}.png`) });
    }
    assert(kinds.join() === 'team_matches,team_standings', `slides: ${kinds.join()}`);
    await page.goto(`${base()}/s/${section}/screen?slide=0`);
    assert((await page.locator('.screen-match').count()) === 2, 'two matches');
    assert((await page.locator('.screen-match tbody tr').count()) === 6, 'three boards each');
    assert((await page.textContent('h1')).includes('各場對賽'), 'in the event language');
  }, { context: { locale: 'zh-TW', viewport: { width: 1920, height: 1080 } } });

  // The crawl starts from the team section's pages too (two pages of a kind are all it
  // takes, and other sections' pages of the same kinds may come first from `/`).
  return () => (made ? [`/s/${made.section}/crosstable`, `/s/${made.section}/screen`] : []);
}
