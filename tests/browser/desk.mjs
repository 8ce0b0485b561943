// Browser tests of issue #39 ("The desk, finished"): what a chief arbiter sees at the desk.
// Registered by run.mjs with
//
//   import { registerDeskTests } from './desk.mjs';
//   registerDeskTests({ test, logIn, assert, api, admin: ADMIN, base: () => base, out, join });

export function registerDeskTests({ test, logIn, assert, api, admin, base, out, join }) {
  /** Records a game of match `m`: `winner` wins it, or a draw. */
  async function game(token, m, winner) {
    const result = winner === null ? 'draw' : winner === m.next_red ? 'red_wins' : 'black_wins';
    return api('POST', `/api/v1/matches/${m.id}/games`, { result }, token);
  }

  const half = (p) => {
    const whole = Math.floor(p);
    const rest = p - whole === 0.5 ? '½' : '';
    return whole === 0 && rest ? rest : `${whole}${rest}`;
  };

  test('item 2: an audit line names the section, round, board and players, at the event\'s time', async ({ page }) => {
    const { token } = await api('POST', '/api/v1/auth/login', admin);
    const t = await api('POST', '/api/v1/tournaments', { name: '紀錄盃', game: 'xiangqi', default_language: 'zh-Hant', time_zone: 'Asia/Taipei' }, token);
    const s = await api('POST', `/api/v1/tournaments/${t.id}/sections`, { name: '公開組', rounds: 3 }, token);
    for (const name of ['陳大文', '李小龍', '王美玲', '張志明']) {
      await api('POST', `/api/v1/sections/${s.id}/entrants`, { name }, token);
    }
    const round = await api('POST', `/api/v1/sections/${s.id}/rounds`, undefined, token);
    await api('POST', `/api/v1/sections/${s.id}/rounds/1/publish`, undefined, token);
    const board = round.boards[0];
    const before = Date.now();
    await api('PUT', `/api/v1/boards/${board.id}/result`, { result: 'black_wins' }, token);
    await logIn(page);
    await page.goto(`${base()}/admin/t/${t.id}/audit?lang=zh-Hant`);
    const row = page.locator('table.audit tr', { hasText: '輸入成績' });
    const place = (await row.locator('.audit-place').textContent()).trim();
    const expected = `公開組 · 第 1 輪 · 第 1 台 · 紅方: ${board.red.start_no} ${board.red.name} – 黑方: ${board.black.start_no} ${board.black.name}`;
    assert(place === expected, `the audit line's place: ${place}, expected ${expected}`);
    const head = await page.textContent('table.audit thead');
    assert(head.includes('Asia/Taipei'), `times in the event's zone: ${head}`);
    const at = (await row.locator('td').nth(1).textContent()).trim();
    const taipei = (ms) => new Date(ms + 8 * 3600 * 1000).toISOString().slice(0, 13).replace('T', ' ');
    assert(at.startsWith(taipei(before)) || at.startsWith(taipei(Date.now())), `the line's time ${at} is Taipei's (${taipei(before)})`);
    await page.screenshot({ path: join(out, 'desk-audit-words.png'), fullPage: true });
  }, { context: { locale: 'zh-TW' } });

  test('item 3: one knockout match reads the same on the bracket, the desk and the API', async ({ page }) => {
    const { token } = await api('POST', '/api/v1/auth/login', admin);
    const t = await api('POST', '/api/v1/tournaments', { name: '淘汰賽記分盃', game: 'xiangqi', default_language: 'zh-Hant' }, token);
    const s = await api('POST', `/api/v1/tournaments/${t.id}/sections`, { name: '公開組', rounds: 1 }, token);
    for (const name of ['陳大文', '李小龍', '王美玲', '張志明']) {
      await api('POST', `/api/v1/sections/${s.id}/entrants`, { name }, token);
    }
    const round = await api('POST', `/api/v1/sections/${s.id}/rounds`, undefined, token);
    await api('POST', `/api/v1/sections/${s.id}/rounds/1/publish`, undefined, token);
    for (const board of round.boards.filter((b) => b.black)) {
      await api('PUT', `/api/v1/boards/${board.id}/result`, { result: 'red_wins' }, token);
    }
    const bracket = await api('POST', `/api/v1/sections/${s.id}/knockout`, { size: 2, best_of: 3, decide_by: 'points' }, token);
    let m = bracket.matches[0];
    const [high, low] = [m.high.entrant_id, m.low.entrant_id];
    // 1, ½, 0 for the higher seed, then the lower seed wins the rapid game.
    m = await game(token, m, high);
    m = await game(token, m, null);
    m = await game(token, m, low);
    m = await game(token, m, low);
    assert(m.winner === low && m.decided_by === 'rapid', `decided by the rapid game: ${JSON.stringify(m)}`);
    const expected = `${half(m.score.regular_high)}–${half(m.score.regular_low)} · 加賽 ${half(m.score.tiebreak_high)}–${half(m.score.tiebreak_low)}`;
    assert(expected === '1½–1½ · 加賽 0–1', `the API's numbers: ${expected}`);

    await page.goto(`${base()}/s/${s.id}/bracket`);
    const shown = (await page.textContent('.match .score-line')).trim();
    assert(shown === expected, `bracket shows ${shown}, the API ${expected}`);
    const reason = (await page.textContent('.match .decided')).trim();
    assert(reason === '以快棋加賽決勝', `bracket states the reason: ${reason}`);
    const winnerRow = await page.locator('.match-table tr.winner').textContent();
    assert(winnerRow.includes('(1)') && winnerRow.includes('1½'), `the winner's row: ${winnerRow}`);
    await page.screenshot({ path: join(out, 'desk-knockout-bracket.png') });

    await logIn(page);
    await page.goto(`${base()}/admin/s/${s.id}/knockout?lang=zh-Hant`);
    const desk = (await page.textContent('table.list .score-line')).trim();
    assert(desk === expected, `desk shows ${desk}, the bracket ${expected}`);
    const deskReason = (await page.textContent('table.list .decided')).trim();
    assert(deskReason.includes('以快棋加賽決勝'), `desk states the reason: ${deskReason}`);
    const body = await page.textContent('main');
    assert(!/\((regular|rapid|armageddon)\)/.test(body), 'no English game kinds on the Chinese desk');
    await page.screenshot({ path: join(out, 'desk-knockout-tab.png') });
  }, { context: { locale: 'zh-TW' } });

  test('item 5: mid-round, the big screen and the standings page mark the ranking provisional alike', async ({ page }) => {
    const { token } = await api('POST', '/api/v1/auth/login', admin);
    const t = await api('POST', '/api/v1/tournaments', { name: '輪中排名盃', game: 'xiangqi', default_language: 'zh-Hant' }, token);
    const s = await api('POST', `/api/v1/tournaments/${t.id}/sections`, { name: '公開組', rounds: 3 }, token);
    for (const name of ['陳大文', '李小龍', '王美玲', '張志明', '黃秀英']) {
      await api('POST', `/api/v1/sections/${s.id}/entrants`, { name }, token);
    }
    const r1 = await api('POST', `/api/v1/sections/${s.id}/rounds`, undefined, token);
    await api('POST', `/api/v1/sections/${s.id}/rounds/1/publish`, undefined, token);
    for (const board of r1.boards.filter((b) => b.black)) {
      await api('PUT', `/api/v1/boards/${board.id}/result`, { result: 'black_wins' }, token);
    }
    await api('POST', `/api/v1/sections/${s.id}/rounds`, undefined, token);
    await api('POST', `/api/v1/sections/${s.id}/rounds/2/publish`, undefined, token);
    // The standings slide comes after the pairings: walk the slides to it.
    let heading = '';
    for (let slide = 0; slide < 6; slide++) {
      await page.goto(`${base()}/s/${s.id}/screen?slide=${slide}`);
      if ((await page.getAttribute('main', 'data-kind')) === 'standings') {
        heading = await page.textContent('h1');
        break;
      }
    }
    assert(heading.includes('第 2 輪') && heading.includes('暫定排名'), `the screen's ranking heading: ${heading}`);
    await page.screenshot({ path: join(out, 'desk-screen-mid-round.png') });
    await page.goto(`${base()}/s/${s.id}/standings`);
    const note = await page.textContent('.standings-note');
    assert(note.includes('暫定'), `the standings page's note: ${note}`);
  }, { context: { locale: 'zh-TW', viewport: { width: 1920, height: 1080 } } });
}
