// Browser test of issue 36's player keys: the desk prints the section's key cards; a player
// opens their card's /k/ address on a 360×740 phone, checks in, sees the board once round 1
// is published, and reports; the opponent confirms with their own key on their own phone;
// the desk's queue shows the board agreed. Registered by run.mjs with
//
//   import { registerKeyTests } from './keys.mjs';
//   registerKeyTests({ test, logIn, assert, api, admin: ADMIN, base: () => base, out, join, newContext });

export function registerKeyTests({ test, logIn, assert, api, admin, base, out, join, newContext }) {
  const phone = { viewport: { width: 360, height: 740 }, locale: 'en-US', isMobile: true, hasTouch: true };

  test('a player checks in, sees the board and reports with the key card; the opponent confirms with theirs', async ({ page, browser, allowed }) => {
    const { token } = await api('POST', '/api/v1/auth/login', admin);
    const t = await api('POST', '/api/v1/tournaments', { name: 'Key Card Open', game: 'xiangqi' }, token);
    const s = await api('POST', `/api/v1/tournaments/${t.id}/sections`, { name: 'Open', rounds: 5 }, token);
    const sid = s.id;
    await api('PUT', `/api/v1/sections/${sid}/check-in-settings`, { self_check_in: true }, token);
    for (let i = 1; i <= 4; i++) {
      await api('POST', `/api/v1/sections/${sid}/entrants`, { name: `Card Player ${i}`, rating: 2000 - i }, token);
    }

    // The desk prints the cards: one per entrant, each with its QR code and /k/ address.
    await logIn(page);
    await page.goto(`${base()}/admin/s/${sid}/keys/print`);
    const cards = await page.locator('.key-card').evaluateAll((els) => els.map((el) => ({
      name: el.querySelector('.key-card-name').textContent.trim(),
      url: el.querySelector('span.url').textContent.trim(),
      qr: el.querySelectorAll('svg').length,
    })));
    assert(cards.length === 4, `four cards (${cards.length})`);
    assert(cards.every((c) => /\/k\/[0-9A-HJKMNP-TV-Z]{16}$/.test(c.url) && c.qr === 1), `a key address and a QR code on every card: ${JSON.stringify(cards)}`);
    await page.emulateMedia({ media: 'print' });
    await page.pdf({ path: join(out, 'print-key-cards.pdf'), format: 'A4' });
    await page.emulateMedia({ media: 'screen' });
    const urlOf = (name) => cards.find((c) => c.name.endsWith(name)).url;

    // Player 1 opens the card's address on a phone and checks in.
    const mine = await newContext(browser, phone, allowed);
    const p1 = await mine.newPage();
    const response = await p1.goto(urlOf('Card Player 1'));
    assert((response.headers()['cache-control'] ?? '').includes('no-store'), 'the key page is not cached');
    assert(response.headers()['referrer-policy'] === 'no-referrer', 'the key page sends no referrer');
    assert((await p1.textContent('#check-in-state')).includes('not checked in'), 'not yet checked in');
    await Promise.all([p1.waitForURL(/done=in/), p1.click('#check-in-button')]);
    assert((await p1.textContent('#check-in-state')).includes('You are checked in'), 'checked in');
    const entrants = await api('GET', `/api/v1/sections/${sid}/entrants`, undefined, token);
    const me = entrants.find((e) => e.name === 'Card Player 1');
    assert(me.checked_in && me.checked_in_by_self, 'the desk sees the player checked in by the key');

    // The desk pairs and publishes round 1; the player's page shows the board.
    const round = await api('POST', `/api/v1/sections/${sid}/rounds`, undefined, token);
    await api('POST', `/api/v1/sections/${sid}/rounds/1/publish`, undefined, token);
    const board = round.boards.find((b) => b.red.name === 'Card Player 1' || b.black?.name === 'Card Player 1');
    const red = board.red.name === 'Card Player 1';
    const opponent = red ? board.black.name : board.red.name;
    await p1.goto(urlOf('Card Player 1'));
    assert((await p1.textContent('#my-colour')).includes(red ? 'Red' : 'Black'), 'my colour');
    assert((await p1.textContent('#opponent')).includes(opponent), 'my opponent');
    const width = await p1.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 360, `the key page fits a 360-px phone (${width})`);
    await p1.check('#report-form input[name=result][value=draw]');
    await Promise.all([p1.waitForURL(/done=sent/), p1.click('#send-report')]);
    assert((await p1.textContent('#report-state')).includes('Waiting for the opponent'), 'waiting for the opponent');
    await p1.screenshot({ path: join(out, 'key-phone.png'), fullPage: true });

    // The opponent confirms with their own key.
    const theirs = await newContext(browser, phone, allowed);
    const p2 = await theirs.newPage();
    await p2.goto(urlOf(opponent));
    assert((await p2.textContent('#opponent')).includes('Card Player 1'), 'the opponent sees player 1');
    await Promise.all([p2.waitForURL(/done=sent/), p2.click('#confirm')]);
    assert((await p2.textContent('#report-state')).includes('Both players agree'), 'agreed');

    // The desk's queue has it, agreed.
    await page.goto(`${base()}/admin/s/${sid}/reports`);
    assert((await page.locator('tr[data-state="agreed"]').count()) === 1, 'the desk sees the board agreed');
    for (const c of [mine, theirs]) await c.close();
  });
}
