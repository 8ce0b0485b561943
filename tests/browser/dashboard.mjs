// Browser test of the dashboard's fast result entry (issue 8): keyboard only, from the section
// page to a saved result, a foul-rule conversion and a stale edit. Not run on its own: the
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
}
