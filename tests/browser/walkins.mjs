// Browser test of issue #39 item 6: ten walk-ins entered at the desk in a row with the
// keyboard alone. After each add the page comes back at the form (not the top), the name field
// focused and the add said next to the form; choosing the fee tier with the arrow keys fills
// the amount paid; Enter adds. Start numbers are the same after round 1 is paired (a gap left
// by an online registration withdrawn before round 1 stays). Registered by run.mjs with
//
//   import { registerWalkInTests } from './walkins.mjs';
//   registerWalkInTests({ test, logIn, assert, api, admin: ADMIN, base: () => base, out, join });

export function registerWalkInTests({ test, logIn, assert, api, admin, base, out, join }) {
  test('ten walk-ins in a row without the mouse; start numbers unchanged by pairing round 1', async ({ page }) => {
    const { token } = await api('POST', '/api/v1/auth/login', admin);
    const t = await api('POST', '/api/v1/tournaments', { name: 'Walk-in Open', game: 'xiangqi' }, token);
    const s = await api('POST', `/api/v1/tournaments/${t.id}/sections`, {
      name: 'Open', rounds: 5,
      fee_tiers: [{ name: 'Member', amount: 10, currency: 'CAD' }, { name: 'Non-member', amount: 20, currency: 'CAD' }],
    }, token);
    const sid = s.id;
    // Two online registrations; the first withdraws before round 1 (its number stays free).
    const online = [];
    for (const name of ['Online One', 'Online Two']) {
      online.push(await api('POST', `/api/v1/sections/${sid}/registrations`, { name, fee_tier: 'Member' }));
    }
    await api('POST', `/api/v1/registrations/${online[0].id}/withdraw`, undefined, token);

    await logIn(page);
    await page.goto(`${base()}/admin/s/${sid}/entrants?lang=en`);
    await page.focus('#name');
    for (let i = 1; i <= 10; i++) {
      const name = `Walk-in ${String(i).padStart(2, '0')}`;
      assert(await page.evaluate(() => document.activeElement?.id === 'name'), `walk-in ${i}: the name field has the focus`);
      await page.keyboard.type(name);
      // Name → club → rating → gender → email → phone → member → fee tier.
      for (let k = 0; k < 7; k++) await page.keyboard.press('Tab');
      assert(await page.evaluate(() => document.activeElement?.id === 'fee_tier'), `walk-in ${i}: Tab reaches the fee tier`);
      const member = i % 2 === 1;
      await page.keyboard.press('ArrowDown');
      if (!member) await page.keyboard.press('ArrowDown');
      const paid = await page.inputValue('#paid');
      assert(paid === (member ? '10' : '20'), `walk-in ${i}: the tier filled the amount (${paid})`);
      await page.keyboard.press('Tab');
      const from = page.url();
      await Promise.all([page.waitForURL((u) => /\/entrants\?added=/.test(u.href) && u.href !== from), page.keyboard.press('Enter')]);
      // Back at the form: the add said there, the form in view, not the top of the page.
      const said = await page.textContent('#desk-notice');
      assert(said.includes(name), `walk-in ${i}: the add is said by the form: ${said}`);
      const view = await page.evaluate(() => {
        const r = document.getElementById('name').getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, height: window.innerHeight, scrolled: window.scrollY };
      });
      assert(view.top >= 0 && view.bottom <= view.height + 1, `walk-in ${i}: the name field is in view (${JSON.stringify(view)})`);
      assert(view.scrolled > 0, `walk-in ${i}: the page did not jump to the top`);
    }
    await page.screenshot({ path: join(out, 'walk-ins.png') });

    const numbers = async () => (await api('GET', `/api/v1/sections/${sid}/entrants`, undefined, token))
      .map((e) => `${e.start_no} ${e.name}`).sort();
    const before = await numbers();
    assert(before.length === 11 && before.includes('2 Online Two') && before.includes('12 Walk-in 10'),
      `the numbers as given: ${before.join(', ')}`);
    const desk = await api('GET', `/api/v1/tournaments/${t.id}/desk`, undefined, token);
    assert(desk.totals.received === 150, `the desk received 5×10 + 5×20: ${JSON.stringify(desk.totals)}`);

    // Round 1 paired at the desk with the keyboard: the numbers stay.
    await page.goto(`${base()}/admin/s/${sid}/rounds?lang=en`);
    await page.focus('text=Pair the next round');
    await Promise.all([page.waitForURL(/done=paired/), page.keyboard.press('Enter')]);
    const after = await numbers();
    assert(JSON.stringify(after) === JSON.stringify(before), `numbers changed by pairing: ${before.join(', ')} → ${after.join(', ')}`);
  });
}
