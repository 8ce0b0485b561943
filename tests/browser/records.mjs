// Browser tests of issue #18's game records: the public replay page on a 360-px phone (step
// and jump controls redraw the SVG board), and the desk's entry page checking moves as they are
// typed. Registered by run.mjs with
//
//   import { registerRecordTests } from './records.mjs';
//   registerRecordTests({ test, logIn, assert, api, admin: ADMIN, base: () => base, out, join });

export function registerRecordTests({ test, logIn, assert, api, admin, base, out, join }) {
  /** A Xiangqi tournament with round 1 paired and published; returns its ids and board. */
  async function oneBoard(name) {
    const { token } = await api('POST', '/api/v1/auth/login', admin);
    const t = await api('POST', '/api/v1/tournaments', { name, game: 'xiangqi', default_language: 'zh-Hant' }, token);
    const s = await api('POST', `/api/v1/tournaments/${t.id}/sections`, { name: '公開組', rounds: 3 }, token);
    for (const player of ['陳大文', '李小龍']) {
      await api('POST', `/api/v1/sections/${s.id}/entrants`, { name: player }, token);
    }
    const round = await api('POST', `/api/v1/sections/${s.id}/rounds`, undefined, token);
    await api('POST', `/api/v1/sections/${s.id}/rounds/1/publish`, undefined, token);
    return { token, section: s.id, board: round.boards[0].id };
  }

  const pieces = (page) => page.locator('[data-board] svg .pc').count();

  test('a game record replays on a phone: step and jump controls redraw the board', async ({ page }) => {
    const { token, section, board } = await oneBoard('棋譜重播盃');
    // The third move takes the central pawn: 32 pieces before it, 31 after.
    await api('PUT', `/api/v1/boards/${board}/record`, { notation: 'chinese', text: '炮二平五 马8进7 炮五进四 车9平8' }, token);
    await page.goto(`${base()}/s/${section}/pairings/1`);
    await Promise.all([page.waitForURL(/\/games\/1\/1/), page.click('a.record-link')]);
    assert((await page.getAttribute('html', 'lang')) === 'zh-Hant', 'the event language');
    assert((await page.textContent('ol.moves')).includes('炮五進四'), 'Chinese notation, Traditional characters');
    await page.waitForSelector('[data-controls]:not([hidden])');
    assert((await page.textContent('[data-position]')).trim() === '4 / 4', 'starts at the last move');
    assert((await pieces(page)) === 31, 'the final position has 31 pieces');
    await page.click('button[data-step="first"]');
    assert((await page.textContent('[data-position]')).trim() === '0 / 4', 'jumped to the start');
    assert((await pieces(page)) === 32, 'the start has 32 pieces');
    await page.click('button[data-step="next"]');
    await page.click('button[data-step="next"]');
    assert((await page.textContent('[data-position]')).trim() === '2 / 4', 'two steps');
    assert((await page.getAttribute('a[data-ply="2"]', 'aria-current')) === 'step', 'the move is marked');
    assert((await pieces(page)) === 32, 'nothing taken yet');
    await page.click('a[data-ply="3"]');
    assert((await page.textContent('[data-position]')).trim() === '3 / 4', 'jumped to a move');
    assert((await pieces(page)) === 31, 'the pawn is taken');
    await page.click('button[data-step="prev"]');
    assert((await page.textContent('[data-position]')).trim() === '2 / 4', 'one back');
    await page.click('button[data-step="last"]');
    assert((await page.textContent('[data-position]')).trim() === '4 / 4', 'to the end');
    // The page fits the phone: nothing wider than the viewport.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 360, `fits a 360-px phone (${width})`);
    await page.screenshot({ path: join(out, 'record-replay-phone.png'), fullPage: true });
    // English readers get WXF, and may ask for ICCS.
    await page.goto(`${base()}/s/${section}/games/1/1?lang=en`);
    assert((await page.textContent('ol.moves')).includes('C2.5'), 'WXF for English');
    await page.click('nav.notations a:has-text("ICCS")');
    assert((await page.textContent('ol.moves')).includes('h2e2'), 'ICCS on request');
  }, { context: { locale: 'zh-TW', viewport: { width: 360, height: 740 } } });

  test('the desk record entry page checks the moves as they are typed', async ({ page }) => {
    const { board } = await oneBoard('Desk Record Cup');
    await logIn(page);
    await page.goto(`${base()}/admin/boards/${board}/record?lang=en`);
    await page.waitForSelector('[data-record-desk][data-live="on"]');
    await page.selectOption('#record-notation', 'chinese');
    await page.fill('#record-text', '1. 炮二平五 马8进7 2. 炮五进四');
    await page.waitForFunction(() => document.querySelectorAll('[data-desk-moves] li').length === 3);
    assert((await pieces(page)) === 31, 'the board follows the moves');
    assert((await page.textContent('[data-problem]')).trim() === '', 'no problem yet');
    // An illegal move (the chariot is blocked by its own pawn) is marked with its half-move.
    await page.fill('#record-text', '1. 炮二平五 马8进7 2. 炮五进四 车9平8 3. 车一进五');
    await page.waitForFunction(() => document.querySelector('[data-problem]').textContent.includes('ply 5'));
    assert((await page.getAttribute('#record-text', 'aria-invalid')) === 'true', 'the field is marked');
    assert((await page.locator('[data-desk-moves] li.bad').count()) === 1, 'the bad move is listed');
    await page.screenshot({ path: join(out, 'record-desk.png'), fullPage: true });
    // Fixed and saved.
    await page.fill('#record-text', '1. 炮二平五 马8进7 2. 炮五进四 车9平8 3. 马二进三');
    await page.waitForFunction(() => document.querySelector('[data-problem]').textContent === '');
    await Promise.all([page.waitForURL(/done=saved/), page.click('button[value="save"]')]);
    assert((await page.textContent('#record-messages')).includes('The record is saved'), 'saved');
    assert((await page.inputValue('#record-text')).includes('马二进三'), 'the text is kept');
    assert((await page.locator('[data-desk-moves] li').count()) === 5, 'five half-moves');
  });
}
