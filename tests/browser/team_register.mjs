// Browser test of issue #41's public team registration: a captain on a 360-px phone fills the
// team form (team, club, captain, the roster in board order), gets a refused roster back with
// the errors next to the fields (in Traditional Chinese, values kept), corrects it and is
// registered; the desk confirms and the team is there with its roster. Registered by run.mjs with
//
//   import { registerTeamRegisterTests } from './team_register.mjs';
//   registerTeamRegisterTests({ test, assert, api, admin: ADMIN, base: () => base, out, join });

export function registerTeamRegisterTests({ test, assert, api, admin, base, out, join }) {
  test('a captain registers a team on a 360-px phone; roster errors next to the fields', async ({ page }) => {
    const { token } = await api('POST', '/api/v1/auth/login', admin);
    const t = await api('POST', '/api/v1/tournaments', { name: '團體公開賽', game: 'xiangqi' }, token);
    const s = await api('POST', `/api/v1/tournaments/${t.id}/sections`, {
      name: '團體組', entry_type: 'team', rounds: 3, team: { boards: 3, reserves: 1 },
    }, token);
    await page.goto(`${base()}/t/${t.id}/register`);
    await page.click('#team-form-link a');
    await page.waitForURL(/\/register\/team$/);
    assert((await page.getAttribute('html', 'lang')) === 'zh-Hant', 'Traditional Chinese');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 360, `the team form is ${width}px wide`);
    const label = await page.textContent('label[for=team_name]');
    assert(label.includes('隊名'), `the team name's label: ${label}`);
    assert(await page.isVisible('#player_4_name') && !(await page.isVisible('#player_5_name')),
      'three boards and a reserve: four rows');

    // The team name left out, a player named twice, a gap on board 3.
    await page.evaluate(() => document.querySelector('#team_name').removeAttribute('required'));
    await page.fill('#club', '九龍棋會');
    await page.fill('#name', '陳隊長');
    await page.fill('#email', 'captain@example.org');
    await page.fill('#player_1_name', '李偉');
    await page.fill('#player_2_name', '李偉');
    await page.fill('#player_4_name', '孫美');
    const [rejected] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('#team-register button[type=submit]'),
    ]);
    assert(rejected.status() === 422, `422, got ${rejected.status()}`);
    await page.waitForSelector('#team_name-error');
    assert((await page.textContent('#player_2_name-error')).includes('重複'), 'the name twice, next to it');
    assert(await page.isVisible('#player_3_name-error'), 'the gap, next to it');
    assert((await page.inputValue('#club')) === '九龍棋會', 'the club is kept');
    assert((await page.inputValue('#player_4_name')) === '孫美', 'the roster is kept');
    const after = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(after <= 360, `with its errors the form is ${after}px wide`);
    await page.screenshot({ path: join(out, 'team-register-360-errors.png'), fullPage: true });

    await page.fill('#team_name', '九龍龍隊');
    await page.fill('#player_2_name', '王芳');
    await page.selectOption('#player_2_gender', 'f');
    await page.fill('#player_3_name', '趙磊');
    await page.fill('#player_3_rating', '1850');
    await page.selectOption('#captain_board', '');
    const [done] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('#team-register button[type=submit]'),
    ]);
    assert(done.status() === 201, `201, got ${done.status()}`);
    assert((await page.content()).includes('九龍龍隊'), 'the team is named on the answer');
    await page.screenshot({ path: join(out, 'team-register-360-done.png'), fullPage: true });

    // The desk confirms it: the team with its roster in board order.
    const regs = await api('GET', `/api/v1/sections/${s.id}/registrations`, undefined, token);
    assert(regs.length === 1 && regs[0].status === 'pending', `pending: ${JSON.stringify(regs)}`);
    await api('POST', `/api/v1/registrations/${regs[0].id}/confirm`, undefined, token);
    const teams = await api('GET', `/api/v1/sections/${s.id}/teams`, undefined, token);
    const roster = teams.teams[0].roster.map((p) => p.name).join(',');
    assert(roster === '李偉,王芳,趙磊,孫美', `the roster in board order: ${roster}`);
    assert(teams.teams[0].captain === '陳隊長', 'the captain');
  }, { allow: [422], context: { locale: 'zh-TW', viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } });
}
