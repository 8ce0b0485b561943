// Browser test of issue #13: the chief arbiter invites a scorer with a link (QR code); the
// scorer opens it on a phone-sized page, sets a username and password, enters a result, and
// cannot pair, publish or see contact data. Registered by run.mjs with
//
//   import { registerStaffTests } from './staff.mjs';
//   registerStaffTests({ test, logIn, assert, api, admin: ADMIN, base: () => base, out, join });

export function registerStaffTests({ test, logIn, assert, api, admin, base, out, join }) {
  test('a chief arbiter invites a scorer, who joins on a phone and may only enter results', async ({ page, browser, allowed }) => {
    // A chief arbiter who is not an admin, and their tournament: four players with e-mail
    // addresses, round 1 paired.
    const { token: adminToken } = await api('POST', '/api/v1/auth/login', admin);
    const chief = { username: 'chief-ann', password: 'ann has a long password' };
    await api('POST', '/api/v1/users', chief, adminToken);
    const { token } = await api('POST', '/api/v1/auth/login', chief);
    const t = await api('POST', '/api/v1/tournaments', { name: 'Staff Cup', game: 'xiangqi', default_language: 'en' }, token);
    const s = await api('POST', `/api/v1/tournaments/${t.id}/sections`, { name: 'Open', rounds: 3 }, token);
    for (const [i, name] of ['Ann', 'Bob', 'Cy', 'Di'].entries()) {
      await api('POST', `/api/v1/sections/${s.id}/entrants`, { name, email: `secret${i}@example.org`, phone: '555-0100' }, token);
    }
    await api('POST', `/api/v1/sections/${s.id}/rounds`, undefined, token);

    // The chief makes the link on the staff page.
    await logIn(page, chief.username, chief.password);
    await page.goto(`${base()}/admin/t/${t.id}/staff?lang=en`);
    await page.selectOption('#invite-role', 'scorer');
    await page.click('text=Make an invitation link');
    await page.waitForSelector('#invitation-url');
    assert((await page.locator('.qr svg').count()) === 1, 'the link is shown as a QR code');
    const link = await page.getAttribute('#invitation-url', 'href');
    assert(link.includes('/invite/'), `an invitation link: ${link}`);
    await page.screenshot({ path: join(out, 'staff-invitation.png'), fullPage: true });

    // The scorer opens it on a phone.
    const phone = await browser.newContext({ locale: 'en-US', viewport: { width: 360, height: 740 } });
    const scorer = await phone.newPage();
    scorer.setDefaultTimeout(15_000);
    const statuses = [];
    scorer.on('response', (r) => {
      if (r.request().resourceType() === 'document') statuses.push(r.status());
    });
    await scorer.goto(link);
    const width = await scorer.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 360, `the invitation page is ${width}px wide on a phone`);
    await scorer.fill('#username', 'scorer-sam');
    await scorer.fill('#password', 'sam has a long password');
    await scorer.screenshot({ path: join(out, 'staff-invite-phone.png'), fullPage: true });
    await Promise.all([scorer.waitForURL(/\/admin\/t\//), scorer.click('form.form button[type=submit]')]);

    // The entrants tab, where the arbiters see contact data.
    await scorer.goto(`${base()}/admin/s/${s.id}/entrants?lang=en`);
    const html = await scorer.content();
    assert(!html.includes('@example.org') && !html.includes('555-0100'), 'the scorer sees no contact data');
    // The desk shows a scorer only what a scorer may do (#39 item 1): no arbiter's form on any tab.
    for (const tab of ['', '/entrants', '/registrations', '/byes', '/rounds', '/settings', '/prizes', '/knockout']) {
      await scorer.goto(`${base()}/admin/s/${s.id}${tab}?lang=en`);
      const posts = await scorer.$$eval('form', (forms) => forms
        .filter((f) => f.method === 'post')
        .map((f) => new URL(f.action).pathname));
      const foreign = posts.filter((a) => a !== '/logout' && !a.startsWith('/admin/boards/'));
      assert(foreign.length === 0, `the scorer's ${tab || 'overview'} tab offers ${foreign.join(', ')}`);
      assert(await scorer.locator('#pair-button, [id^=publish-], [id^=unpair-], #add-entrant').count() === 0,
        `the scorer's ${tab || 'overview'} tab shows an arbiter's button`);
    }
    await scorer.screenshot({ path: join(out, 'staff-scorer-knockout.png'), fullPage: true });
    // Pairing and publishing are refused, even when posted by hand.
    for (const action of [`/admin/s/${s.id}/rounds`, `/admin/s/${s.id}/rounds/1/publish`]) {
      await scorer.goto(`${base()}/admin/s/${s.id}?lang=en`);
      const csrf = await scorer.getAttribute('input[name=csrf]', 'value');
      await Promise.all([
        scorer.waitForNavigation(),
        scorer.evaluate(({ action, csrf }) => {
          const f = document.createElement('form');
          f.method = 'post';
          f.action = action;
          const input = document.createElement('input');
          input.type = 'hidden';
          input.name = 'csrf';
          input.value = csrf;
          f.appendChild(input);
          document.body.appendChild(f);
          f.submit();
        }, { action, csrf }),
      ]);
      assert(statuses[statuses.length - 1] === 403, `${action} answered ${statuses[statuses.length - 1]}`);
      const refusal = await scorer.textContent('main');
      assert(refusal.includes('You are signed in as scorer-sam'), `the 403 page names who is signed in: ${refusal}`);
    }
    const round = await api('GET', `/api/v1/sections/${s.id}/rounds/1`, undefined, token);
    assert(round.status !== 'published', `round 1 stays unpublished: ${round.status}`);
    // A result, from the rounds tab, once the chief has published the round (a result never
    // publishes a round: issue #35).
    await api('POST', `/api/v1/sections/${s.id}/rounds/1/publish`, undefined, token);
    await scorer.goto(`${base()}/admin/s/${s.id}/rounds?lang=en`);
    const form = scorer.locator('form.result-form').first();
    await form.locator('select[name=result]').selectOption('red_wins');
    await Promise.all([scorer.waitForURL(/\/admin\/s\/[^/]+\/rounds\?done=result/), form.locator('button').click()]);
    const saved = await api('GET', `/api/v1/sections/${s.id}/rounds/1`, undefined, token);
    assert(saved.boards.some((b) => b.result === 'red_wins'), 'the result is stored');

    await phone.close();
    allowed.push(403);
  }, { allow: [403] });
}
