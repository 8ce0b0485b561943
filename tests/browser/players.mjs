// Browser tests of issue #16's players' pages on a 390-px phone: from the section's /now
// address (the printed QR code) a player types part of their name into the find-me box and
// lands on their page, which shows this round's board and every round so far; the find page's
// lists and refusals; the same without JavaScript; the crosstable scrolls inside its box.
// Registered by run.mjs with
//
//   import { registerPlayerTests } from './players.mjs';
//   registerPlayerTests({ test, assert, api, admin: ADMIN, base: () => base, out, join });

const PHONE = { viewport: { width: 390, height: 844 } };
const NAMES = ['陳大文', '李小龍', '王小明', '張三豐', '黃飛鴻', '林志玲', '周杰倫', '劉德華'];

export function registerPlayerTests({ test, assert, api, admin, base, out, join }) {
  /** A section with three rounds played and round 4 published; returns the rounds (API). */
  async function playedSection(name) {
    const { token } = await api('POST', '/api/v1/auth/login', admin);
    const t = await api('POST', '/api/v1/tournaments', { name, game: 'xiangqi', default_language: 'zh-Hant' }, token);
    const s = await api('POST', `/api/v1/tournaments/${t.id}/sections`, { name: '公開組', rounds: 5 }, token);
    for (const player of NAMES) {
      await api('POST', `/api/v1/sections/${s.id}/entrants`, { name: player, email: 'private@example.org' }, token);
    }
    const rounds = [];
    for (let n = 1; n <= 4; n++) {
      const round = await api('POST', `/api/v1/sections/${s.id}/rounds`, undefined, token);
      await api('POST', `/api/v1/sections/${s.id}/rounds/${n}/publish`, undefined, token);
      if (n < 4) {
        for (const board of round.boards) {
          const result = board.number === 1 ? 'red_wins' : 'draw';
          await api('PUT', `/api/v1/boards/${board.id}/result`, { result }, token);
        }
      }
      rounds.push(round);
    }
    return { section: s.id, rounds };
  }

  /** Where `name` sits in `round`: board number, colour and opponent's name. */
  function seat(round, name) {
    for (const b of round.boards) {
      if (b.red.name === name) return { board: b.number, colour: '紅方', opponent: b.black?.name };
      if (b.black?.name === name) return { board: b.number, colour: '黑方', opponent: b.red.name };
    }
    return null;
  }

  const fitsPhone = async (page) => {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 390, `the page is wider than the phone (${width} px)`);
  };

  test('from /now a player reaches their board in one action and sees their rounds', async ({ page }) => {
    const { section, rounds } = await playedSection('找我盃');
    const me = '黃飛鴻';
    await page.goto(`${base()}/s/${section}/now`);
    assert((await page.textContent('.bar h2')).trim() === '第 4 輪', 'the round being played');
    assert((await page.getAttribute('nav.tabs a[aria-current="page"]', 'href')).endsWith('/now'), 'the Now tab');
    await fitsPhone(page);
    // The one action: type part of the name, submit.
    await page.fill('#find-me-q', '飛鴻');
    await Promise.all([page.waitForURL(/\/p\/\d+$/), page.press('#find-me-q', 'Enter')]);
    const now = seat(rounds[3], me);
    assert((await page.textContent('.board-no')).trim() === String(now.board), 'this round\'s board');
    const boardNow = await page.textContent('.board-now');
    assert(boardNow.includes(now.colour) && boardNow.includes(now.opponent), `colour and opponent: ${boardNow}`);
    // Every round: opponent and colour as paired, round 4 still pending.
    const rows = page.locator('table.player-rounds tbody tr');
    assert((await rows.count()) === 4, 'four rounds');
    for (let i = 0; i < 4; i++) {
      const text = await rows.nth(i).textContent();
      const s = seat(rounds[i], me);
      assert(text.includes(s.opponent) && text.includes(s.colour), `round ${i + 1}: ${text}`);
    }
    assert(!(await page.textContent('main')).includes('@example.org'), 'nothing private');
    await fitsPhone(page);
    await page.screenshot({ path: join(out, 'player-phone.png'), fullPage: true });
    // The opponent's name leads to their page.
    await Promise.all([page.waitForURL(/\/p\/\d+$/), page.click('.board-now a')]);
    assert((await page.textContent('h2')).includes(now.opponent), 'the opponent\'s page');
  }, { context: { ...PHONE, locale: 'zh-TW' } });

  test('the find page lists several matches, says when none match and refuses a long query', async ({ page }) => {
    const { section } = await playedSection('同名盃');
    await page.goto(`${base()}/s/${section}/standings`);
    await page.fill('#find-me-q', '小');
    await Promise.all([page.waitForURL(/\/find\?/), page.press('#find-me-q', 'Enter')]);
    const found = await page.locator('ul.found a').allTextContents();
    assert(found.length === 2 && found.includes('李小龍') && found.includes('王小明'), `two found: ${found}`);
    assert((await page.inputValue('#find-me-q')) === '小', 'the box keeps the query');
    await page.screenshot({ path: join(out, 'find-phone.png'), fullPage: true });
    await page.fill('#find-me-q', '無此人');
    await Promise.all([page.waitForURL(/\/find\?/), page.press('#find-me-q', 'Enter')]);
    assert((await page.textContent('main')).includes('找不到符合的參賽者'), 'none found');
    const long = await page.goto(`${base()}/s/${section}/find?q=${'長'.repeat(101)}`);
    assert(long.status() === 422, `422, got ${long.status()}`);
    assert((await page.textContent('main')).includes('搜尋內容太長'), 'the message');
    // The crosstable fits the phone: only the table scrolls, inside its box.
    await page.goto(`${base()}/s/${section}/crosstable`);
    await fitsPhone(page);
  }, { allow: [422], context: { ...PHONE, locale: 'zh-TW' } });

  test('the find-me box works without JavaScript', async ({ page }) => {
    const { section, rounds } = await playedSection('No Script Cup');
    await page.goto(`${base()}/s/${section}/now?lang=en`);
    await page.fill('#find-me-q', '3');
    await Promise.all([page.waitForURL(/\/p\/3$/), page.click('form.find-me button')]);
    const three = rounds[3].boards.find((b) => b.red.start_no === 3 || b.black?.start_no === 3);
    assert((await page.textContent('.board-no')).trim() === String(three.number), 'board by number');
  }, { context: { ...PHONE, locale: 'en-US', javaScriptEnabled: false } });

  // Issue #36: on a 360-px and a 390-px phone every board's Red and Black names are whole inside
  // the viewport (a card of two lines), on /now, the round's pairings and a player's page, with
  // long Latin and CJK names; and the find-me box crosses scripts (陈 finds 陳, pinyin finds 黃).
  const LONG = ['Alexandria Konstantinopoulou-Papadimitriou', '歐陽娜娜', 'Nguyễn Thị Minh Khai', '司馬相如',
    'Jean-Baptiste de La Salle-Montmorency', '黃秀英', 'Maximilian Wolfgang von Habsburg', '陳大文'];
  for (const viewport of [{ width: 360, height: 740 }, { width: 390, height: 844 }]) {
    test(`at ${viewport.width} px every row's Red and Black names are inside the viewport`, async ({ page }) => {
      const { token } = await api('POST', '/api/v1/auth/login', admin);
      const t = await api('POST', '/api/v1/tournaments', { name: `Phone ${viewport.width}`, game: 'xiangqi' }, token);
      const s = await api('POST', `/api/v1/tournaments/${t.id}/sections`, { name: 'Open', rounds: 3 }, token);
      for (const name of LONG) await api('POST', `/api/v1/sections/${s.id}/entrants`, { name }, token);
      await api('POST', `/api/v1/sections/${s.id}/rounds`, undefined, token);
      await api('POST', `/api/v1/sections/${s.id}/rounds/1/publish`, undefined, token);
      const fits = async () => {
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert(width <= viewport.width, `the page is wider than the phone (${width} px)`);
      };
      const inside = async (where, cells) => {
        const boxes = await page.locator(cells).evaluateAll((tds) => tds.map((td) => {
          const r = td.getBoundingClientRect();
          return { left: r.left, right: r.right, text: td.textContent.trim() };
        }));
        assert(boxes.length > 0, `${where}: names found`);
        for (const b of boxes) {
          assert(b.left >= 0 && b.right <= viewport.width + 0.5,
            `${where}: "${b.text}" spans ${b.left}–${b.right} px in a ${viewport.width}-px viewport`);
        }
      };
      for (const path of [`/s/${s.id}/now?lang=en`, `/s/${s.id}/pairings/1?lang=en`]) {
        await page.goto(`${base()}${path}`);
        await inside(path, 'table.pairings tbody td:nth-child(3), table.pairings tbody td:nth-child(7)');
        await fits();
      }
      await page.screenshot({ path: join(out, `pairings-${viewport.width}.png`), fullPage: true });
      await page.goto(`${base()}/s/${s.id}/p/1?lang=en`);
      await inside('player page', 'table.player-rounds tbody td:nth-child(4)');
      await fits();
      // Across scripts: simplified finds traditional, pinyin initials find the name.
      await page.fill('#find-me-q', '陈大文');
      await Promise.all([page.waitForURL(/\/p\/\d+$/), page.press('#find-me-q', 'Enter')]);
      assert((await page.textContent('h2')).includes('陳大文'), 'simplified found traditional');
      await page.fill('#find-me-q', 'hxy');
      await Promise.all([page.waitForURL(/\/p\/\d+$/), page.press('#find-me-q', 'Enter')]);
      assert((await page.textContent('h2')).includes('黃秀英'), 'pinyin initials found the name');
    }, { context: { viewport, locale: 'en-US' } });
  }
}
