// Browser tests of issue #16's big screen: a 200-entrant section on a 1920×1080 and a 3840×2160
// display — nothing overflows the screen, the clock ticks, the slides move on by themselves.
// Registered by run.mjs with
//
//   import { registerScreenTests } from './screen.mjs';
//   registerScreenTests({ test, assert, api, admin: ADMIN, base: () => base, out, join });

export function registerScreenTests({ test, assert, api, admin, base, out, join }) {
  let made = null;
  /** A 200-entrant section with round 1 published, five results and the clock started. */
  async function hall() {
    if (made) return made;
    const { token } = await api('POST', '/api/v1/auth/login', admin);
    const t = await api('POST', '/api/v1/tournaments', { name: '第一屆大螢幕盃', game: 'xiangqi', default_language: 'zh-Hant' }, token);
    const s = await api('POST', `/api/v1/tournaments/${t.id}/sections`, { name: '公開組', rounds: 7 }, token);
    const family = ['陳', '李', '張', '王', '黃', '林', '吳', '劉', '周', '鄭'];
    const given = ['大文', '小龍', '志明', '美玲', '家豪', '嘉欣', '國強', '淑芬', '建華', '麗華', '子軒', '思穎', '偉傑', '雅婷', '俊宏', '怡君', '冠宇', '佩珊', '承恩', '詩涵'];
    for (let i = 0; i < 200; i++) {
      await api('POST', `/api/v1/sections/${s.id}/entrants`, { name: `${family[i % 10]}${given[Math.floor(i / 10)]}`, rating: 2400 - i }, token);
    }
    const round = await api('POST', `/api/v1/sections/${s.id}/rounds`, undefined, token);
    await api('POST', `/api/v1/sections/${s.id}/rounds/1/publish`, undefined, token);
    for (const board of round.boards.slice(0, 5)) {
      await api('PUT', `/api/v1/boards/${board.id}/result`, { result: 'red_wins' }, token);
    }
    await api('POST', `/api/v1/sections/${s.id}/rounds/1/clock`, undefined, token);
    made = { section: s.id, tournament: t.id };
    return made;
  }

  async function fits(page, width, height) {
    const size = await page.evaluate(() => ({
      w: document.documentElement.scrollWidth,
      h: document.documentElement.scrollHeight,
      cut: [...document.querySelectorAll('main table')].filter((t) => t.getBoundingClientRect().bottom > window.innerHeight + 1).length,
    }));
    assert(size.w <= width && size.h <= height, `fits ${width}×${height} (${size.w}×${size.h})`);
    assert(size.cut === 0, `${size.cut} tables run below the screen`);
  }

  test('the big screen fits 1080p and 4K, ticks its clock and moves on by itself', async ({ page }) => {
    const { section, tournament } = await hall();
    await page.goto(`${base()}/s/${section}/screen?seconds=3`);
    assert((await page.getAttribute('html', 'lang')) === 'zh-Hant', 'the event language');
    assert((await page.getAttribute('main', 'data-kind')) === 'pairings', 'pairings first');
    assert((await page.locator('table.screen-table tbody tr').count()) === 40, 'forty names a slide');
    await fits(page, 1920, 1080);
    const first = await page.textContent('[data-clock-start]');
    await page.waitForFunction((was) => document.querySelector('[data-clock-start]').textContent !== was, first);
    await page.screenshot({ path: join(out, 'screen-1080p.png') });
    // The next slide comes by itself, and so on to the results and the standings.
    await page.waitForURL(/slide=1/, { timeout: 8000 });
    assert((await page.textContent('.screen-page')).includes('2 / 5'), 'the second of five pages');
    for (const [slide, kind] of [[5, 'results'], [6, 'standings']]) {
      await page.goto(`${base()}/s/${section}/screen?slide=${slide}&lang=en`);
      assert((await page.getAttribute('main', 'data-kind')) === kind, kind);
      await fits(page, 1920, 1080);
    }
    await page.screenshot({ path: join(out, 'screen-standings-1080p.png') });
    await page.setViewportSize({ width: 3840, height: 2160 });
    await page.goto(`${base()}/t/${tournament}/screen?lang=zh-Hans`);
    assert((await page.textContent('h1')).includes('对阵'), 'Simplified Chinese');
    await fits(page, 3840, 2160);
  }, { context: { locale: 'zh-TW', viewport: { width: 1920, height: 1080 } } });

  test('large type (#39 item 9): half the names a slide, each twice as tall, still inside a 1080p screen', async ({ page }) => {
    const { section } = await hall();
    await page.goto(`${base()}/s/${section}/screen?large=1`);
    assert((await page.getAttribute('main', 'data-kind')) === 'pairings', 'pairings first');
    assert((await page.locator('table.screen-table tbody tr').count()) === 20, 'twenty names a slide');
    const sizes = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('table.screen-table td')).fontSize));
    assert(sizes >= 50, `names at least 50 px tall on 1080p (${sizes})`);
    await fits(page, 1920, 1080);
    assert((await page.getAttribute('main', 'data-next')).endsWith('&large=1'), 'the next slide keeps large type');
    await page.screenshot({ path: join(out, 'screen-large-1080p.png') });
  }, { context: { locale: 'zh-TW', viewport: { width: 1920, height: 1080 } } });
}
