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
    for (const name of ['Ann', 'Bob', 'Cy', 'Di']) {
      await page.fill('#name', name);
      await Promise.all([page.waitForURL(/\/admin\/s\//), page.keyboard.press('Enter')]);
    }
    await Promise.all([page.waitForURL(/done=paired/), page.click('text=Pair the next round')]);
    await Promise.all([page.waitForURL(/\/rounds\/1\/results$/), page.click('text=Enter results')]);

    // The line field has the focus: type, preview, Enter.
    assert(await page.evaluate(() => document.activeElement?.id === 'line'), 'the line field is focused');
    await page.keyboard.type('1 1');
    const preview = await page.textContent('#quick-preview');
    assert(preview.includes('1 : 0'), `preview shows the result: ${preview}`);
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
    const sectionUrl = page.url().split('?')[0];
    for (const name of ['Ann', 'Bob', 'Cy', 'Di', EVIL]) {
      await page.fill('#name', name);
      await Promise.all([page.waitForURL(/\/admin\/s\/[^/]+$/), page.click('form.form button[type=submit]')]);
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
    await page.fill('#tiebreaks', 'OPP, PS, WIN');
    await page.check('#avoid_same_club');
    await Promise.all([page.waitForURL(/done=settings/), page.click('form.settings-form button[type=submit]')]);
    assert((await page.textContent('p.notice')).includes('Settings saved'), 'saved notice');
    await page.screenshot({ path: join(out, 'dashboard-settings-saved.png'), fullPage: true });

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
    await Promise.all([page.waitForNavigation(), page.click('form.repair-form button:not([name])')]);
    assert((await page.textContent('#broken-rules')).length > 0, 'the broken rule is listed');
    await page.screenshot({ path: join(out, 'dashboard-repair-warnings.png'), fullPage: true });
    await Promise.all([page.waitForURL(/done=repaired/), page.click('form.repair-form button[name=confirm]')]);

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
}
