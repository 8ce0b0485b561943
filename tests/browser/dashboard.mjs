// Browser tests of the dashboard (issue 8): fast result entry, keyboard only, from the section
// page to a saved result, a foul-rule conversion and a stale edit; and the forms of section
// settings, requested byes, forbidden pairs, manual re-pairing, the playoff and file uploads. Not run on its own: the
// harness of run.mjs (server, database, console/HTML checks) registers it with
//
//   import { registerDashboardTests } from './dashboard.mjs';
//   registerDashboardTests({ test, logIn, assert, base: () => base, out, join });
//
// placed after the other tests' definitions (before main()).

export function registerDashboardTests({ test, logIn, assert, base, out, join }) {
  test('keyboard-only result entry on the dashboard', async ({ page }) => {
    await logIn(page);
    // A tournament, a section and four entrants through the dashboard forms.
    await page.goto(`${base()}/admin/tournaments/new?lang=en`);
    await page.fill('#name', 'Keyboard Cup');
    await Promise.all([page.waitForURL(/\/admin\/t\//), page.click('form.form button[type=submit]')]);
    await page.fill('#name', 'Open');
    await page.fill('#rounds', '3');
    await Promise.all([page.waitForURL(/\/admin\/s\//), page.click('form.form button[type=submit]')]);
    // A new section opens on its entrants tab (issue #15).
    for (const name of ['Ann', 'Bob', 'Cy', 'Di']) {
      await page.fill('#name', name);
      await Promise.all([page.waitForURL(/\/entrants\?added=/), page.keyboard.press('Enter')]);
    }
    await Promise.all([page.waitForURL(/\/rounds$/), page.click('#tab-rounds')]);
    await Promise.all([page.waitForURL(/done=paired/), page.click('text=Pair the next round')]);
    // Results are taken once the round is published (issue #35).
    await Promise.all([page.waitForURL(/\/rounds\/1\/publish$/), page.click('#publish-1')]);
    await Promise.all([page.waitForURL(/done=published/), page.click('#confirm-button')]);
    await Promise.all([page.waitForURL(/\/rounds\/1\/results$/), page.click('text=Enter results')]);

    // The line field has the focus: type, preview, Enter.
    assert(await page.evaluate(() => document.activeElement?.id === 'line'), 'the line field is focused');
    await page.keyboard.type('1 1');
    const preview = await page.textContent('#quick-preview');
    assert(preview.includes('Red wins'), `preview shows the result in the page's words: ${preview}`);
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert((await page.textContent('#entry-messages')).includes('Board 1'), 'saved message');
    assert(await page.evaluate(() => document.activeElement?.id === 'line'), 'focus back on the line');

    // A draw with fouls that reach the threshold: the foul rule message is shown.
    await page.keyboard.type('2= 0 2');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert((await page.textContent('#entry-messages')).includes('Foul rule applied'), 'conversion shown');
    await page.screenshot({ path: join(out, 'dashboard-results.png'), fullPage: true });

    // Escape clears the line; an unreadable line is explained and kept.
    await page.keyboard.type('31');
    await page.keyboard.press('Escape');
    assert((await page.inputValue('#line')) === '', 'Escape clears');
    await page.keyboard.type('31');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert((await page.inputValue('#line')) === '31', 'the line is kept');

    await page.setViewportSize({ width: 360, height: 740 });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 360, `the results page is ${width}px wide on a phone`);
    await page.screenshot({ path: join(out, 'dashboard-results-360.png'), fullPage: true });
  }, { allow: [422] });

  test('the dashboard forms of settings, byes, forbidden pairs, re-pairing, playoff and uploads', async ({ page }) => {
    const EVIL = '<script>alert(1)</script>';
    await logIn(page);
    await page.goto(`${base()}/admin/tournaments/new?lang=en`);
    await page.fill('#name', 'Forms Cup');
    await Promise.all([page.waitForURL(/\/admin\/t\//), page.click('form.form button[type=submit]')]);
    const tournamentUrl = page.url().split('?')[0];
    await page.fill('#name', 'Open');
    await page.fill('#rounds', '3');
    await Promise.all([page.waitForURL(/\/admin\/s\//), page.click('form.form button[type=submit]')]);
    const sectionUrl = page.url().split('?')[0].replace(/\/entrants$/, '');
    for (const name of ['Ann', 'Bob', 'Cy', 'Di', EVIL]) {
      await page.fill('#name', name);
      await Promise.all([page.waitForURL(/\/entrants\?added=/), page.click('form.form button[type=submit]')]);
    }

    // Section settings: a refusal next to its field (values kept), then saved.
    await Promise.all([page.waitForURL(/\/settings$/), page.click('nav.tabs >> text=Settings')]);
    await page.fill('#cap', '4');
    await page.fill('#min_entries', '6');
    await Promise.all([page.waitForNavigation(), page.click('form.settings-form button[type=submit]')]);
    assert((await page.textContent('#min_entries-error')).includes('cap'), 'min entries refused next to the field');
    assert((await page.inputValue('#cap')) === '4', 'the cap is kept');
    await page.fill('#min_entries', '2');
    await page.fill('#rounds', '4');
    // The chain as rows of names: the explanation follows the choice; emptied rows drop out.
    await page.selectOption('#tiebreak_1', 'OPP');
    await page.selectOption('#tiebreak_2', 'PS');
    assert((await page.textContent('#tiebreak_2-desc')).includes('running scores'), 'the row explains its choice');
    await page.selectOption('#tiebreak_3', 'WIN');
    for (const row of await page.$$('fieldset.chain-editor select')) {
      if (Number((await row.getAttribute('id')).slice('tiebreak_'.length)) > 3) await row.selectOption('');
    }
    await page.check('#avoid_same_club');
    await Promise.all([page.waitForURL(/\/settings\?done=settings/), page.click('form.settings-form button[type=submit]')]);
    assert((await page.textContent('.notice')).includes('Settings saved'), 'saved notice on the settings tab');
    await page.screenshot({ path: join(out, 'dashboard-settings-saved.png'), fullPage: true });

    await Promise.all([page.waitForURL(/\/byes$/), page.click('#tab-byes')]);

    // A forbidden pair: Ann and the player named like a script.
    await page.selectOption('#pair_a', { label: '1. Ann' });
    await page.selectOption('#pair_b', { label: `5. ${EVIL}` });
    await Promise.all([page.waitForURL(/done=forbidden/), page.click('form.pair-form button[type=submit]')]);
    const pairs = await page.textContent('#forbidden table');
    assert(pairs.includes('Ann') && pairs.includes(EVIL), `the pair is listed, the name as text: ${pairs}`);
    // A requested bye for round 2.
    await page.selectOption('#bye_entrant', { label: '2. Bob' });
    await page.fill('#bye_round', '2');
    await Promise.all([page.waitForURL(/done=bye/), page.click('form.bye-form button[type=submit]')]);
    assert((await page.textContent('#byes table')).includes('Bob'), 'the bye is listed');

    // Round 1 paired, then its boards edited by hand (saved unchanged).
    await Promise.all([page.waitForURL(/\/rounds$/), page.click('#tab-rounds')]);
    await Promise.all([page.waitForURL(/done=paired/), page.click('text=Pair the next round')]);
    await Promise.all([page.waitForURL(/\/rounds\/1\/edit$/), page.click('text=Edit the pairing')]);
    assert((await page.locator('form.repair-form select').count()) >= 6, 'a Red and a Black select per board');
    // Put the forbidden pair on one board: the broken rule is listed, then applied anyway.
    const grid = await page.$$eval('form.repair-form tbody tr', (rows) =>
      rows.map((tr) => [...tr.querySelectorAll('select')].map((s) => s.value)));
    const idOf = (label) => page.$eval('#red_1', (s, l) => [...s.options].find((o) => o.text === l).value, label);
    const annId = await idOf('1. Ann');
    const evilId = await idOf(`5. ${EVIL}`);
    const where = (id) => {
      for (const [r, row] of grid.entries()) for (const [c, v] of row.entries()) if (v === id) return [r, c];
      return null;
    };
    // Move q next to p (p must have an opponent); p's opponent takes q's old place.
    let [p, q] = [annId, evilId];
    if (grid[where(p)[0]][1 - where(p)[1]] === '') [p, q] = [q, p];
    const [pr, pc] = where(p);
    const [qr, qc] = where(q);
    const opponent = grid[pr][1 - pc];
    grid[pr][1 - pc] = q;
    grid[qr][qc] = opponent;
    for (const [r, row] of grid.entries()) {
      await page.selectOption(`#red_${r + 1}`, row[0]);
      await page.selectOption(`#black_${r + 1}`, row[1]);
    }
    await Promise.all([page.waitForNavigation(), page.click('form.repair-form button[type=submit]:not([name])')]);
    assert((await page.textContent('#broken-rules')).length > 0, 'the broken rule is listed');
    await page.screenshot({ path: join(out, 'dashboard-repair-warnings.png'), fullPage: true });
    await Promise.all([page.waitForURL(/done=repaired/), page.click('form.repair-form button[name=confirm]')]);

    // Each player's history beside the select; two players swapped by clicking one, then the
    // other (admin.js fills the swap form): shown, not saved.
    await page.goto(`${sectionUrl}/rounds/1/edit?lang=en`);
    assert((await page.locator('form.repair-form .seat-note').count()) >= 4, 'a note beside each player');
    const [red1, black2] = [await page.inputValue('#red_1'), await page.inputValue('#black_2')];
    await page.click('#red_1 + button.seat-swap');
    assert(await page.$eval('#red_1', (s) => s.closest('td').classList.contains('target')), 'the first player marked');
    await Promise.all([page.waitForNavigation(), page.click('#black_2 + button.seat-swap')]);
    assert((await page.textContent('#swapped')).startsWith('Swapped'), 'the swap is reported');
    assert((await page.inputValue('#red_1')) === black2 && (await page.inputValue('#black_2')) === red1, 'the seats exchanged');
    await page.screenshot({ path: join(out, 'dashboard-repair-swap.png'), fullPage: true });

    // The CSV import from a file: preview, then import.
    await page.goto(`${sectionUrl}/import?lang=en`);
    await page.setInputFiles('#file', { name: 'players.csv', mimeType: 'text/csv', buffer: Buffer.from('name,club\nEve,Club\n') });
    await Promise.all([page.waitForNavigation(), page.click('form.import button:not([name])')]);
    assert((await page.textContent('main')).includes('1 row(s) read'), 'preview of the file');
    assert((await page.inputValue('#csv')).includes('Eve'), 'the file text is in the box');
    await Promise.all([page.waitForURL(/done=entrant/), page.click('form.import button[name=apply]')]);

    // The playoff page (no section is finished yet: the creation form).
    await page.goto(`${tournamentUrl}/playoff?lang=en`);
    assert((await page.locator('form.playoff-form input[type=number]').count()) >= 2, 'a seed box per section and best-of');
    await page.screenshot({ path: join(out, 'dashboard-playoff.png'), fullPage: true });
  }, { allow: [422] });

  test('desk care without JavaScript: a withdrawal asks first, is confirmed and undone', async ({ page }) => {
    await logIn(page);
    await page.goto(`${base()}/admin/tournaments/new?lang=en`);
    await page.fill('#name', 'Care Cup');
    await Promise.all([page.waitForURL(/\/admin\/t\//), page.click('form.form button[type=submit]')]);
    await page.fill('#name', 'Open');
    await page.fill('#rounds', '3');
    await Promise.all([page.waitForURL(/\/admin\/s\//), page.click('form.form button[type=submit]')]);
    const sectionUrl = page.url().split('?')[0].replace(/\/entrants$/, '');
    for (const name of ['Ann', 'Bob', 'Cy', 'Di']) {
      await page.fill('#name', name);
      await Promise.all([page.waitForURL(/\/entrants\?/), page.click('form.form button[type=submit]')]);
    }
    const row = (name) => page.locator('tr[data-entrant-row]', { has: page.locator(`td:text-is("${name}")`) });

    // Withdraw is a link to a page that asks; Cancel changes nothing.
    await Promise.all([page.waitForURL(/\/withdraw$/), row('Bob').locator('a.withdraw-link').click()]);
    const question = await page.textContent('h1');
    assert(question === 'Withdraw Bob (No. 2)?', `the question names the entrant: ${question}`);
    await page.screenshot({ path: join(out, 'desk-confirm-withdraw.png'), fullPage: true });
    await Promise.all([page.waitForURL(/\/admin\/s\/[^/]+\/entrants$/), page.click('#confirm-cancel')]);
    assert(!(await row('Bob').getAttribute('class') ?? '').includes('withdrawn'), 'Cancel withdraws nobody');

    // Confirmed: withdrawn, and the message offers the undo.
    await Promise.all([page.waitForURL(/\/withdraw$/), row('Bob').locator('a.withdraw-link').click()]);
    await Promise.all([page.waitForURL(/withdrawn=/), page.click('#confirm-button')]);
    const notice = await page.textContent('#desk-notice');
    assert(notice.includes('Bob (No. 2) is withdrawn.'), `withdrawal message: ${notice}`);
    assert(((await row('Bob').getAttribute('class')) ?? '').includes('withdrawn'), 'Bob is withdrawn');
    await page.screenshot({ path: join(out, 'desk-undo.png'), fullPage: true });
    await Promise.all([page.waitForURL(/done=entrant_status/), page.click('#undo-button')]);
    assert(!((await row('Bob').getAttribute('class')) ?? '').includes('withdrawn'), 'Bob is back');

    // Publishing asks first too.
    await Promise.all([page.waitForURL(/\/rounds$/), page.click('#tab-rounds')]);
    await Promise.all([page.waitForURL(/\/rounds\?done=paired/), page.click('text=Pair the next round')]);
    await Promise.all([page.waitForURL(/\/rounds\/1\/publish$/), page.click('#publish-1')]);
    assert((await page.textContent('h1')) === 'Publish round 1?', 'the publish question');
    await Promise.all([page.waitForURL(/done=published/), page.click('#confirm-button')]);
    // The round's prints are linked from its row.
    for (const cls of ['print-pairings', 'print-by-name', 'print-slips']) {
      assert((await page.locator(`#rounds a.${cls}`).count()) === 1, `the round links ${cls}`);
    }
    await page.goto(`${sectionUrl}?lang=en`);
    assert((await page.getAttribute('#tab-overview', 'aria-current')) === 'page', 'the overview is marked');
  }, { context: { javaScriptEnabled: false } });

  test('check-in at the desk: live search, by number and Enter, and a selection at once', async ({ page }) => {
    await logIn(page);
    await page.goto(`${base()}/admin/tournaments/new?lang=en`);
    await page.fill('#name', 'Check-in Cup');
    await Promise.all([page.waitForURL(/\/admin\/t\//), page.click('form.form button[type=submit]')]);
    await page.fill('#name', 'Open');
    await page.fill('#rounds', '3');
    await Promise.all([page.waitForURL(/\/admin\/s\//), page.click('form.form button[type=submit]')]);
    for (const [name, club] of [['張三豐', '台北象棋會'], ['李四', 'Toronto XQ'], ['王五', '台北象棋會'], ['Zhao Liu', 'Vancouver'], ['陳七', 'Toronto XQ']]) {
      await page.fill('#name', name);
      await page.fill('#club', club);
      await Promise.all([page.waitForURL(/\/entrants\?/), page.click('form.form button[type=submit]')]);
    }
    const visible = async () => page.locator('tr[data-entrant-row]:visible').count();
    const count = async () => (await page.textContent('#checkin-count')).trim();

    // The search filters as the arbiter types (CJK substring, club, number); the count follows.
    await page.fill('#entrant-search', '三');
    assert((await visible()) === 1, `one row for 三: ${await visible()}`);
    assert((await count()) === 'Present: 0 / 1', `count in view: ${await count()}`);
    await page.fill('#entrant-search', '台北');
    assert((await visible()) === 2, 'two of the Taipei club');
    await page.fill('#entrant-search', 'toronto');
    assert((await visible()) === 2, 'two of Toronto, in any case');
    await page.fill('#entrant-search', '4');
    assert((await visible()) === 1, 'number 4 alone');
    await page.fill('#entrant-search', '');
    assert((await visible()) === 5, 'all again');

    // By number and Enter; the box has the focus again for the next player.
    await page.click('#checkin-no');
    await page.keyboard.type('2');
    await Promise.all([page.waitForURL(/checked=/), page.keyboard.press('Enter')]);
    const notice = await page.textContent('#desk-notice');
    assert(notice.includes('李四 (No. 2) is checked in.'), `check-in message: ${notice}`);
    assert(await page.evaluate(() => document.activeElement?.id === 'checkin-no'), 'focus back on the number box');
    await page.keyboard.type('5');
    // The address names the entrant checked in: wait for the next one's, not the last one's.
    const after2 = page.url();
    await Promise.all([
      page.waitForURL((url) => url.href !== after2 && /checked=/.test(url.href)),
      page.keyboard.press('Enter'),
    ]);
    assert((await count()) === 'Present: 2 / 5', `two present: ${await count()}`);

    // A selection at once: filter, tick all shown, one button.
    await page.fill('#entrant-search', '台北');
    await page.check('[data-select-all]');
    await page.screenshot({ path: join(out, 'desk-check-in.png'), fullPage: true });
    await Promise.all([page.waitForURL(/done=checked_in/), page.click('#bulk-check-in-button')]);
    assert((await page.textContent('#desk-notice')).includes('Entrants checked in now: 2.'), 'two checked in at once');
    await page.goto(page.url().split('?')[0] + '?lang=en');
    assert((await count()) === 'Present: 4 / 5', `four present: ${await count()}`);
  });

  test('the section desk in tabs: each tab its own address, marked in the one tab bar, without JavaScript', async ({ page }) => {
    await logIn(page);
    await page.goto(`${base()}/admin/tournaments/new?lang=en`);
    await page.fill('#name', 'Tabs Cup');
    await Promise.all([page.waitForURL(/\/admin\/t\//), page.click('form.form button[type=submit]')]);
    await page.fill('#name', 'Open');
    await page.fill('#rounds', '3');
    await Promise.all([page.waitForURL(/\/entrants$/), page.click('form.form button[type=submit]')]);
    const sectionUrl = page.url().split('?')[0].replace(/\/entrants$/, '');
    for (const name of ['Ann', 'Bob', 'Cy', 'Di']) {
      await page.fill('#name', name);
      await Promise.all([page.waitForURL(/\/entrants\?added=/), page.click('form.form button[type=submit]')]);
    }
    await page.goto(`${sectionUrl}?lang=en`);
    const marked = async () => page.$$eval('nav.desk-tabs a[aria-current]', (as) => as.map((a) => `${a.id}=${a.getAttribute('aria-current')}`));
    assert((await marked()).join() === 'tab-overview=page', `the overview is marked: ${await marked()}`);
    assert((await page.textContent('#overview-entrants')).includes('In the list: 4'), 'the overview counts the entrants');
    await page.screenshot({ path: join(out, 'desk-tab-overview.png'), fullPage: true });

    // Each tab in turn: its address, its mark, its own part of the desk.
    const tabs = [
      ['entrants', /\/entrants$/, '#checkin-no'],
      ['registrations', /\/registrations$/, 'section#registrations'],
      ['byes', /\/byes$/, 'form.bye-form'],
      ['rounds', /\/rounds$/, 'text=Pair the next round'],
      ['standings', /\/standings$/, '#ties-link'],
      ['knockout', /\/knockout$/, 'h1'],
      ['prizes', /\/prizes$/, 'form.prizes'],
      ['settings', /\/settings$/, 'form.settings-form'],
      ['overview', /\/admin\/s\/[^/]+$/, '#overview-round'],
    ];
    for (const [tab, url, own] of tabs) {
      await Promise.all([page.waitForURL(url), page.click(`#tab-${tab}`)]);
      assert((await marked()).join() === `tab-${tab}=page`, `${tab} is marked: ${await marked()}`);
      assert((await page.locator(own).count()) >= 1, `${tab} shows ${own}`);
      if (['entrants', 'rounds', 'standings'].includes(tab)) {
        await page.screenshot({ path: join(out, `desk-tab-${tab}.png`), fullPage: true });
      }
    }
    // A page under a tab marks it as the current one of the set.
    await page.goto(`${sectionUrl}/import?lang=en`);
    assert((await marked()).join() === 'tab-entrants=true', `the import marks the entrants: ${await marked()}`);
    // An old link to a part of the one-page desk lands on the overview's card for that tab.
    await page.goto(`${sectionUrl}?lang=en#entrants`);
    await Promise.all([page.waitForURL(/\/entrants$/), page.click('section#entrants h2 a')]);
    assert((await page.locator('tr[data-entrant-row]').count()) === 4, 'the entrants tab lists them');
    // In Chinese, the tabs are words of the page's language.
    await page.goto(`${sectionUrl}/rounds?lang=zh-Hant`);
    const words = await page.textContent('nav.desk-tabs');
    assert(words.includes('輪次與成績') && !/[A-Za-z]/.test(words), `the tabs in zh-Hant: ${words}`);
  }, { context: { javaScriptEnabled: false } });
}
