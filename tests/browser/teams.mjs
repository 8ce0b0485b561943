// Browser tests of issue #41 (team competitions) at the desk: a team event run from the
// dashboard — a team section made with the new-section form, teams added with their rosters,
// line-ups entered, round 1 paired and published, board results entered (board form, quick
// line `match.board result`, a whole-match forfeit), the team standings and the printed
// match slips; the new desk pages on a 360-px phone. Registered by run.mjs with
//
//   import { registerTeamTests } from './teams.mjs';
//   registerTeamTests({ test, logIn, assert, api, admin: ADMIN, base: () => base, out, join });

import { scan } from './keys.mjs';

export function registerTeamTests({ test, logIn, assert, api, admin, base, out, join }) {
  const TEAMS = [
    ['紅星隊', ['陳一', '陳二', '陳三', '陳四']],
    ['黑龍隊', ['李一', '李二', '李三', '李四']],
    ['東風隊', ['王一', '王二', '王三', '王四']],
    ['西山隊', ['張一', '張二', '張三', '張四']],
  ];

  test('a team event from the dashboard: rosters, line-ups, board results, standings, match slips', async ({ page }) => {
    const { token } = await api('POST', '/api/v1/auth/login', admin);
    const t = await api('POST', '/api/v1/tournaments', { name: '團體賽', game: 'xiangqi', default_language: 'zh-Hant' }, token);
    await logIn(page);
    // The section, from the tournament's new-section form: a team section (4 boards).
    await page.goto(`${base()}/admin/t/${t.id}`);
    await page.fill('form[action$="/sections"] [name=name]', 'Team open');
    await page.fill('form[action$="/sections"] [name=rounds]', '3');
    await page.selectOption('form[action$="/sections"] [name=entry_type]', 'team');
    await Promise.all([page.waitForURL(/\/admin\/s\/[^/]+\/entrants$/), page.click('form[action$="/sections"] button[type=submit]')]);
    const s = page.url().match(/\/admin\/s\/([^/]+)\/entrants$/)[1];
    // The teams with their rosters, from the desk's team list.
    await Promise.all([page.waitForURL(/\/teams$/), page.click('#teams-link')]);
    for (const [name, players] of TEAMS) {
      await page.fill('form.team-form [name=name]', name);
      await page.fill('form.team-form [name=captain]', players[0]);
      await page.fill('form.team-form [name=players]', players.join('\n'));
      await Promise.all([page.waitForURL(/\/teams$/), page.click('form.team-form button[type=submit]')]);
    }
    assert((await page.locator('table.teams tbody tr').count()) === 4, 'four teams listed');
    // Round 1's line-ups, from the rounds tab: before any, each team will get the default.
    await page.goto(`${base()}/admin/s/${s}/rounds`);
    await Promise.all([page.waitForURL(/\/rounds\/1\/lineups$/), page.click('#next-lineups-link')]);
    assert((await page.locator('form.lineup-form').count()) === 4, 'a form per team');
    const first = page.locator('form.lineup-form').first();
    assert((await first.locator('.lineup-by').textContent()).includes('default'), 'not entered: the default');
    // The desk confirms the first team's line-up (its four roster players, in order).
    await Promise.all([page.waitForURL(/saved=/), first.locator('button[type=submit]').click()]);
    const saved = page.locator('form.lineup-form').first();
    assert((await saved.locator('.lineup-by').textContent()).includes('Entered at the desk'), 'entered by the desk');
    assert((await saved.locator('input[type=checkbox]:checked').count()) === 4, 'four players');
    assert((await saved.locator('.board-tag').count()) === 4, 'each on a board');
    await page.screenshot({ path: join(out, 'team-lineups.png'), fullPage: true });
    // Pair and publish round 1.
    await page.goto(`${base()}/admin/s/${s}/rounds`);
    await Promise.all([page.waitForURL(/\/rounds\?done=paired$/), page.click('text=Pair the next round')]);
    await Promise.all([page.waitForURL(/\/rounds\/1\/publish$/), page.click('#publish-1')]);
    await Promise.all([page.waitForURL(/done=published/), page.click('#confirm-button')]);
    // The round's page: the matches expand to their boards.
    await page.goto(`${base()}/admin/s/${s}/rounds`);
    await Promise.all([page.waitForURL(/\/rounds\/1\/results$/), page.click('#team-results-link')]);
    assert((await page.locator('details.team-match').count()) === 2, 'two matches');
    const matches = await api('GET', `/api/v1/sections/${s}/rounds/1/matches`, undefined, token);
    const posted = () => page.waitForResponse((r) => r.request().method() === 'POST');
    // Match 1, boards 1 and 2 by their forms.
    for (const [board, result] of [[1, 'red_wins'], [2, 'draw']]) {
      const form = page.locator(`#game-1-${board} form.board-form`);
      await form.locator('select[name=result]').selectOption(result);
      await Promise.all([posted(), form.locator('button').click()]);
      await page.waitForSelector(`#game-1-${board}.saved`);
    }
    // Boards 3 and 4 by the quick line.
    for (const [line, board] of [['1.3 0', 3], ['1.4+', 4]]) {
      await page.fill('#line', line);
      await Promise.all([posted(), page.press('#line', 'Enter')]);
      await page.waitForSelector(`#game-1-${board}.saved`);
    }
    assert((await page.textContent('#entry-messages')).includes('Match 1, Board 4'), 'the line is confirmed');
    // Match 2: forfeited as a whole by the team with Black on board 1.
    const m2 = page.locator('#match-2');
    if ((await m2.getAttribute('open')) === null) await m2.locator('summary').click();
    await m2.locator('select[name=forfeits]').selectOption('black');
    await Promise.all([posted(), m2.locator('form.match-forfeit button').click()]);
    await page.waitForSelector('#entry-messages .notice');
    assert((await page.textContent('#entry-messages')).includes('forfeits every board'), 'the forfeit is done');
    const after = await api('GET', `/api/v1/sections/${s}/rounds/1/matches`, undefined, token);
    const m1 = after.find((m) => m.number === 1);
    const results = m1.games.map((g) => g.result);
    assert(JSON.stringify(results.slice(0, 3)) === JSON.stringify(['red_wins', 'draw', 'black_wins']), `match 1's boards: ${results}`);
    assert(m1.games[3].result === 'black_forfeits', `board 4 by the line: ${m1.games[3].result}`);
    assert(after.find((m) => m.number === 2).games.every((g) => g.result), 'match 2 has every board');
    assert(matches.length === 2 && after.every((m) => m.result), 'both matches have a result');
    await page.screenshot({ path: join(out, 'team-results.png'), fullPage: true });
    // The new desk pages on a 360-px phone: nothing wider than the screen.
    await page.setViewportSize({ width: 360, height: 740 });
    for (const [path, shot] of [
      [`/admin/s/${s}/rounds/1/results`, 'team-results-360.png'],
      [`/admin/s/${s}/rounds/1/lineups`, 'team-lineups-360.png'],
      [`/admin/s/${s}/rounds/2/lineups?lang=zh-Hant`, 'team-lineups-360-zh-Hant.png'],
    ]) {
      await page.goto(`${base()}${path}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert(width <= 360, `${path} is ${width}px wide`);
      await page.screenshot({ path: join(out, shot), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    // The team standings: match points, board points, the winners first.
    await page.goto(`${base()}/s/${s}/standings?lang=en`);
    assert(await page.isVisible('.team-standings'), 'the team standings table');
    assert((await page.locator('.team-standings tbody tr').count()) === 4, 'four teams ranked');
    const table = await page.textContent('.team-standings');
    assert(TEAMS.every(([name]) => table.includes(name)), 'every team in the standings');
    assert(table.includes('Match points') && table.includes('Board points'), 'match and board points');
    await page.screenshot({ path: join(out, 'team-standings.png'), fullPage: true });
    // The match slips, printed: one slip per match, every board.
    await page.goto(`${base()}/s/${s}/match-slips/1/print`);
    assert((await page.locator('.match-slip').count()) === 2, 'two match slips');
    const slips = await page.textContent('body');
    assert(slips.includes('陳一') && slips.includes('李三'), 'the boards\' players');
    await page.emulateMedia({ media: 'print' });
    await page.pdf({ path: join(out, 'team-match-slips.pdf'), format: 'A4' });
  });

  test('a captain reports a board of the match with the team key on a 360-px phone; the other captain agrees', async ({ page }) => {
    const { token } = await api('POST', '/api/v1/auth/login', admin);
    const t = await api('POST', '/api/v1/tournaments', { name: 'Team Key Cup', game: 'xiangqi' }, token);
    const s = await api('POST', `/api/v1/tournaments/${t.id}/sections`, {
      name: 'Teams', rounds: 1, entry_type: 'team', pairing_system: 'chinese', self_report: 'agreement',
      team: { boards: 3, reserves: 0 },
    }, token);
    for (const [name, players] of TEAMS.slice(0, 2)) {
      const roster = players.slice(0, 3).map((p, i) => ({ name: p, rating: 2000 - i }));
      await api('POST', `/api/v1/sections/${s.id}/teams`, { name, captain_position: 1, roster }, token);
    }
    await api('POST', `/api/v1/sections/${s.id}/rounds`, undefined, token);
    await api('POST', `/api/v1/sections/${s.id}/rounds/1/publish`, undefined, token);
    const [match] = await api('GET', `/api/v1/sections/${s.id}/rounds/1/matches`, undefined, token);
    const keys = await api('GET', `/api/v1/sections/${s.id}/keys`, undefined, token);
    const keyOf = (team) => keys.find((k) => k.entrant_id === team.id).key;
    await page.setViewportSize({ width: 360, height: 740 });
    // The Red team's captain: the key page asks which board, and offers the three.
    await page.goto(`${base()}/k/${keyOf(match.red)}?lang=en`);
    const boards = await page.locator('#game option').allTextContents();
    assert(boards.length === 3, `a choice of the match's three boards: ${JSON.stringify(boards)}`);
    assert(boards[1].startsWith('Board 2'), `boards in order: ${boards[1]}`);
    await page.selectOption('#game', '2');
    await page.check('#report-form input[name=result][value=black_wins]');
    await Promise.all([page.waitForURL(/done=sent/), page.click('#send-report')]);
    // The page says where each board stands: board 2 waits for the other team, board 1 has nothing.
    const two = await page.textContent('#team-game-2');
    assert(two.includes('Waiting for the opponent') && two.includes('Black reported Black won'), `board 2's state: ${two}`);
    assert(two.includes('your team plays Black'), `the team's colour on board 2: ${two}`);
    assert((await page.textContent('#team-game-1')).includes('Nobody has reported'), 'board 1 has no report');
    assert(await page.isHidden('#report-state'), 'no state of the match as a whole');
    assert((await page.textContent('#board h2')).includes('Match 1'), 'the match, not a board, heads the section');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 360, `the team key page fits a 360-px phone (${width})`);
    await page.screenshot({ path: join(out, 'team-key-360.png'), fullPage: true });
    let games = await api('GET', `/api/v1/boards/${match.id}/games`, undefined, token);
    assert(games.games.every((g) => g.result === null), 'one side alone decides nothing');
    // The Black team's captain reports the same on board 2: the sides agree and it counts.
    await page.goto(`${base()}/k/${keyOf(match.black)}?lang=en`);
    await page.selectOption('#game', '2');
    await page.check('#report-form input[name=result][value=black_wins]');
    await Promise.all([page.waitForURL(/done=accepted/), page.click('#send-report')]);
    games = await api('GET', `/api/v1/boards/${match.id}/games`, undefined, token);
    assert(games.games[1].result === 'black_wins', `board 2 is Black's: ${JSON.stringify(games.games[1])}`);
    assert(games.games[0].result === null && games.games[2].result === null, 'the other boards are untouched');
    // Board 2 is decided: the key no longer offers it.
    await page.goto(`${base()}/k/${keyOf(match.red)}?lang=en`);
    const left = await page.locator('#game option').evaluateAll((os) => os.map((o) => o.value));
    assert(JSON.stringify(left) === '["1","3"]', `boards 1 and 3 are left: ${JSON.stringify(left)}`);
    const decided = await page.textContent('#team-game-2');
    assert(decided.includes('Result recorded: Black wins'), `board 2 recorded: ${decided}`);
    await page.setViewportSize({ width: 1280, height: 800 });
    // The staff's match slip: each board's two codes with their QR codes; a phone that scans
    // board 3's right-hand code opens board 3 as that player's side.
    await logIn(page);
    await page.goto(`${base()}/s/${s.id}/match-slips/1/print?lang=en`);
    assert((await page.locator('figure.match-qr').count()) === 6, 'two QR codes a board');
    const figure = page.locator('figure.match-qr[data-board="3"][data-side="right"]');
    const printed = (await figure.locator('span.code').textContent()).trim();
    const read = await scan(page.context().browser(), figure.locator('svg'));
    assert(read && /\/r\/[0-9A-Z]+$/.test(read), `the QR code holds a report address: ${read}`);
    assert(read.endsWith(printed.replace(/-/g, '')), `the QR code (${read}) is the printed code's (${printed})`);
    await page.emulateMedia({ media: 'print' });
    await page.pdf({ path: join(out, 'team-match-slips-codes.pdf'), format: 'A4' });
    await page.screenshot({ path: join(out, 'team-match-slips-codes.png'), fullPage: true });
    await page.emulateMedia({ media: 'screen' });
    await page.goto(`${read}?lang=en`);
    const board = await page.textContent('main');
    assert(board.includes('李三') && board.includes('陳三'), `board 3's players on the report page: ${board.slice(0, 300)}`);
  });
}
