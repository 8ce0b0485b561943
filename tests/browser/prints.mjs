// Browser tests of every printout (SPEC §10) and of the live public pages (SPEC §11). Not run on
// its own: run.mjs registers it with
//
//   import { registerPrintTests } from './prints.mjs';
//   registerPrintTests({ test, logIn, assert, api, data, base: () => base, out, join, EVIL });
//
// The harness validates every document, fails on console errors and bad subresources; these
// tests add print media emulation, the script-named player shown as text on every print, and
// A4 PDFs of the prints under test-output/browser/.

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

export function registerPrintTests({ test, logIn, assert, api, data, base, out, join, EVIL }) {
  /** An event of its own, made through the API: a Jieqi tournament with per-board set-ups and
   *  fee tiers whose four players (one named like a script) registered through the public
   *  endpoint, paid in part, played their one round and won prizes; and a knockout section
   *  with the same kind of names. Made once, by the first test that needs it. */
  let made;
  async function event() {
    if (made) return made;
    const token = data.token;
    const t = await api('POST', '/api/v1/tournaments', {
      name: '第二屆揭棋邀請賽', game: 'jieqi', default_language: 'zh-Hant',
    }, token);
    const s = await api('POST', `/api/v1/tournaments/${t.id}/sections`, {
      name: '公開組', rounds: 1, setup_mode: 'per_board',
      fee_tiers: [{ name: '會員', amount: 10 }, { name: '非會員', amount: 20 }],
    }, token);
    const regs = [];
    for (const [name, tier, gender] of [[EVIL, '非會員', 'm'], ['陳大文', '會員', 'm'], ['王美玲', '會員', 'f'], ['李小龍', '非會員', 'm']]) {
      regs.push(await api('POST', `/api/v1/sections/${s.id}/registrations`, {
        name, fee_tier: tier, gender, email: 'secret@example.org',
      }));
    }
    await api('POST', `/api/v1/registrations/${regs[0].id}/payment`, { state: 'paid', method: '現金' }, token);
    await api('POST', `/api/v1/registrations/${regs[1].id}/payment`, { state: 'paid', method: 'transfer' }, token);
    await api('PUT', `/api/v1/sections/${s.id}/prizes`, {
      prizes: [
        { place_from: 1, award: '冠軍獎盃', amount: 300 },
        { place_from: 2, place_to: 4, award: '紀念品', amount: 50 },
        { category: 'female', award: 'Best woman', amount: 100 },
      ],
    }, token);
    const round = await api('POST', `/api/v1/sections/${s.id}/rounds`, undefined, token);
    await api('POST', `/api/v1/sections/${s.id}/rounds/1/publish`, undefined, token);
    for (const board of round.boards.filter((b) => b.black)) {
      await api('PUT', `/api/v1/boards/${board.id}/result`, { result: 'red_wins' }, token);
    }
    // The two winners (and the two losers) stay tied after the chain: prizes of different
    // value need the arbiter's order, who keeps the chain's.
    for (const group of await api('GET', `/api/v1/sections/${s.id}/ties`)) {
      const entrants = group.entrants.map((e) => e.entrant_id);
      await api('POST', `/api/v1/sections/${s.id}/ties`, { method: 'manual', entrants }, token);
    }
    const ko = await api('POST', `/api/v1/tournaments/${t.id}/sections`, { name: '淘汰組', rounds: 1 }, token);
    for (const name of [EVIL, '甲', '乙', '丙']) {
      await api('POST', `/api/v1/sections/${ko.id}/entrants`, { name }, token);
    }
    const koRound = await api('POST', `/api/v1/sections/${ko.id}/rounds`, undefined, token);
    await api('POST', `/api/v1/sections/${ko.id}/rounds/1/publish`, undefined, token);
    for (const board of koRound.boards.filter((b) => b.black)) {
      await api('PUT', `/api/v1/boards/${board.id}/result`, { result: 'black_wins' }, token);
    }
    await api('POST', `/api/v1/sections/${ko.id}/knockout`, { size: 4, best_of: 3, third_place: true }, token);
    made = { tournamentId: t.id, sectionId: s.id, knockoutId: ko.id };
    return made;
  }

  /** Checks the print shown in `page`: print media, no page chrome, the script name as text. */
  async function checkPrint(page, path) {
    await page.emulateMedia({ media: 'print' });
    const chrome = await page.evaluate(() => ({
      header: document.querySelectorAll('header.site, nav.tabs').length,
      bar: getComputedStyle(document.querySelector('.print-bar')).display,
      injected: document.querySelectorAll('main script, main img').length,
      text: document.querySelector('main').textContent,
    }));
    assert(chrome.header === 0, `${path}: no site header or tabs`);
    assert(chrome.bar === 'none', `${path}: the print bar is hidden on paper`);
    assert(chrome.injected === 0, `${path}: nothing injected`);
    assert(chrome.text.includes(EVIL), `${path}: the script-named player shows as text`);
    assert(!chrome.text.includes('secret@example.org'), `${path}: no contact data`);
  }

  test('every print is valid, without page chrome, and shows a script name as text', async ({ page }) => {
    const e = await event();
    const s = e.sectionId;
    await logIn(page);
    const prints = [
      [`/s/${s}/entrants/print`, 'entrants'],
      [`/s/${s}/pairings/1/print`, 'pairings'],
      [`/s/${s}/pairings/1/by-name/print`, 'by-name'],
      [`/s/${s}/slips/1/print`, 'slips'],
      [`/s/${s}/standings/print`, 'standings'],
      [`/s/${s}/crosstable/print`, 'crosstable'],
      [`/s/${e.knockoutId}/bracket/print`, 'bracket-evil'],
      [`/s/${s}/prizes/print`, 'prizes'],
      [`/admin/s/${s}/rounds/1/setup/print`, 'setup-sheet'],
      [`/admin/t/${e.tournamentId}/desk/print`, 'desk'],
      [`/admin/s/${s}/desk/print`, 'desk-section'],
    ];
    for (const [path, name] of prints) {
      const response = await page.goto(`${base()}${path}`);
      assert(response.status() === 200, `${path}: ${response.status()}`);
      assert((await page.getAttribute('html', 'lang')) === 'zh-Hant', `${path}: the event's language`);
      await checkPrint(page, path);
      await page.pdf({ path: join(out, `print-${name}.pdf`), format: 'A4' });
      await page.emulateMedia({ media: 'screen' });
    }
    // The arbiter's sheets are also in the other languages.
    for (const lang of ['en', 'zh-Hans']) {
      await page.goto(`${base()}/admin/s/${s}/rounds/1/setup/print?lang=${lang}`);
      await checkPrint(page, `set-up sheet (${lang})`);
      await page.goto(`${base()}/s/${s}/prizes/print?lang=${lang}`);
      await checkPrint(page, `prize list (${lang})`);
    }
  }, { context: { locale: 'zh-TW' } });

  test('the set-up sheet, desk list and prize list are reached from the dashboard', async ({ page }) => {
    const e = await event();
    await logIn(page);
    await page.goto(`${base()}/admin/s/${e.sectionId}/rounds/1/setup?lang=en`);
    await Promise.all([page.waitForURL(/\/setup\/print$/), page.click('text=Print the set-up sheet')]);
    await page.emulateMedia({ media: 'print' });
    assert((await page.locator('table.board-jieqi').count()) === 2, 'two boards, two diagrams');
    // Each board's sheet starts a new page on paper.
    const breaks = await page.evaluate(() => Array.from(
      document.querySelectorAll('section.setup-sheet'),
      (s) => getComputedStyle(s).breakBefore || getComputedStyle(s).pageBreakBefore,
    ));
    assert(breaks[1] === 'page', `second sheet breaks the page: ${breaks}`);
    await page.screenshot({ path: join(out, 'setup-sheet-print.png'), fullPage: true });
    await page.pdf({ path: join(out, 'setup-sheet.pdf'), format: 'A4' });

    await page.emulateMedia({ media: 'screen' });
    await page.goto(`${base()}/admin/t/${e.tournamentId}?lang=en`);
    await Promise.all([page.waitForURL(/\/desk\/print$/), page.click('text=Desk list (print)')]);
    const total = await page.locator('#desk-total td').allTextContents();
    assert(total.join(' ') === '30 30 0', `overall paid 30, due 30, refunds 0: ${total}`);
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: join(out, 'desk-print.png'), fullPage: true });
    await page.pdf({ path: join(out, 'desk.pdf'), format: 'A4' });

    await page.emulateMedia({ media: 'screen' });
    await page.goto(`${base()}/admin/s/${e.sectionId}/prizes?lang=en`);
    await Promise.all([page.waitForURL(/\/prizes\/print$/), page.click('text=Print the prize list')]);
    const rows = await page.locator('table.prizes tbody tr').count();
    assert(rows === 5, `five prizes (1st, 2nd–4th, best woman): ${rows}`);
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: join(out, 'prizes-print.png'), fullPage: true });
    await page.pdf({ path: join(out, 'prizes.pdf'), format: 'A4' });
  });

  test('the public section tabs link the prize list once there are prizes', async ({ page }) => {
    const e = await event();
    await page.goto(`${base()}/s/${e.sectionId}/standings`);
    await Promise.all([page.waitForURL(/\/prizes\/print$/), page.click('nav.tabs >> text=得獎名單')]);
    assert((await page.textContent('main')).includes('冠軍獎盃'), 'the first prize');
    await page.goto(`${base()}/s/${data.sectionId}/standings`);
    assert((await page.locator('nav.tabs >> text=得獎名單').count()) === 0, 'no prizes, no tab');
  }, { context: { locale: 'zh-TW' } });

  test('a visitor verifies a revealed set-up against its commitment in the browser', async ({ page }) => {
    const e = await event();
    await page.goto(`${base()}/s/${e.sectionId}/pairings/1?lang=en`);
    await Promise.all([page.waitForURL(/\/setups\/1$/), page.click('main >> text=Set-ups')]);
    const boards = await page.locator('section.setup').count();
    assert(boards >= 2, `one set-up per board (${boards})`);
    await page.waitForSelector('p.verify.verified');
    assert((await page.locator('p.verify.verified').count()) === boards, 'every set-up verifies');
    assert((await page.locator('p.verify.mismatch').count()) === 0, 'no mismatch');
    assert((await page.locator('table.board').count()) === boards, 'a diagram per board');
    await page.screenshot({ path: join(out, 'public-setups.png'), fullPage: true });
  });

  test('public standings and pairings update in place, without a reload', async ({ page, context }) => {
    const token = data.token;
    const t = await api('POST', '/api/v1/tournaments', { name: 'Live Cup', game: 'xiangqi' }, token);
    const s = await api('POST', `/api/v1/tournaments/${t.id}/sections`, { name: 'Open', rounds: 3 }, token);
    for (const name of ['Ann', 'Bob', EVIL, 'Di']) {
      await api('POST', `/api/v1/sections/${s.id}/entrants`, { name }, token);
    }
    const round = await api('POST', `/api/v1/sections/${s.id}/rounds`, undefined, token);
    // A paired round is the arbiters' draft; the public sees it once published.
    await api('POST', `/api/v1/sections/${s.id}/rounds/1/publish`, undefined, token);
    // `?live=1`: poll every second instead of every 15 (the pages' data-live).
    const standings = page;
    await standings.goto(`${base()}/s/${s.id}/standings?live=1`);
    assert((await standings.getAttribute('main', 'data-live')) === '15', 'a live page');
    const pairings = await context.newPage();
    await pairings.goto(`${base()}/s/${s.id}/pairings/1?live=1`);
    const polls = [];
    for (const p of [standings, pairings]) {
      p.on('response', (r) => {
        if (r.request().resourceType() === 'fetch') polls.push(r.status());
      });
      // A marker that a reload would wipe out.
      await p.evaluate(() => { window.liveMarker = 'still here'; });
    }
    const pointsBefore = await standings.locator('table.standings tbody').textContent();
    const boardsBefore = await pairings.locator('table.pairings tbody').textContent();
    // Idle polls: the first fetch learns the ETag, the next ones are answered 304.
    await sleep(3500);
    assert(polls.includes(304), `idle polls are answered 304: ${polls}`);
    assert(!polls.some((code) => code >= 400), `no failed polls: ${polls}`);

    // A result from elsewhere: the arbiter's API call, as another client.
    const board = round.boards.find((b) => b.black);
    await api('PUT', `/api/v1/boards/${board.id}/result`, { result: 'red_wins' }, token);
    await standings.waitForFunction(
      (before) => document.querySelector('table.standings tbody').textContent !== before,
      pointsBefore, { timeout: 10_000 },
    );
    await pairings.waitForFunction(
      (before) => document.querySelector('table.pairings tbody').textContent !== before,
      boardsBefore, { timeout: 10_000 },
    );
    for (const p of [standings, pairings]) {
      assert((await p.evaluate(() => window.liveMarker)) === 'still here', 'no reload: the marker survived');
      assert(!p.url().includes('#') && p.url().includes('live=1'), 'no navigation');
    }
    assert((await pairings.textContent('table.pairings')).includes('Red wins'), 'the result is shown');
    const top = await standings.locator('table.standings tbody tr').first().textContent();
    assert(top.includes(board.red.name), `the winner leads: ${top}`);
    assert((await standings.textContent('main')).includes(EVIL), 'names stay text after a swap');
    assert(await standings.evaluate(() => document.querySelectorAll('main script').length === 0), 'nothing injected');
    await pairings.close();
  });
}
