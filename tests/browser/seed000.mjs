// Issue #15's whole-event browser test: seed 000 (the Toronto Jieqi open and doubles,
// /work/shared/seeds/000_9681fcb5d9e45e27.txt) run through the dashboard alone, no API calls,
// no fetch: only clicks, fills and navigation.
//
// From the seed: 多倫多象棋會 and 萬錦象棋會 hold a Jieqi open (揭棋公開賽) and a doubles event
// (雙人賽), each seven Swiss rounds (積分編排制) at 10′+10″, at 新旺角廣場, Markham, on 21–22
// April; the entry fee is 10 for members (會員) and 20 for non-members (非會員); the first four
// win a trophy, a prize and prize money (前四名將獲獎杯，獎品及獎金: no amounts given, so the
// prize table names the award and leaves the amount empty). Entries are also taken on the day.
//
// Covered: the tournament and both sections with their fee tiers made on the dashboard; entrants
// registered online (member and non-member tiers, both sections) and their fees recorded on the
// registrations (desk) tab; others added at the desk form with tier, member flag and payment
// (amount, method); check-in by the search box with the bulk selection and by number; all seven
// rounds of both sections paired, published (through the confirmation page) and entered with the
// fast-entry box (wins, draws, forfeits both ways, fouls, a correction confirmed by a second
// Enter and one by a `!` suffix); a withdrawal and its undo from the message; a late entrant
// after round 1; a manual swap in the pairing editor; the prizes; and the desk totals (the
// registrations tab's ledger, the section's and the tournament's desk list print) equal to the
// sum of the fees recorded. The players use their keys (issue #36): the online registrants
// get theirs on the confirmation (with the section and the fee due), check themselves in with
// it on a phone, find it on the desk's printed key cards, and see their round-1 board by it.
// Screenshots: test-output/browser/seed000-*.png, and the README's in
// docs/screenshots.
//
// Registered by run.mjs with
//
//   import { registerSeed000Tests } from './seed000.mjs';
//   registerSeed000Tests({ test, logIn, assert, base: () => base, out, join });

import { writeFileSync } from 'node:fs';

// The screenshots the root README shows: written to docs/screenshots as well, so that each run
// of this test refreshes them.
const README_SHOTS = new Set([
  'desk',
  'open-tab-overview',
  'open-tab-rounds',
  'open-tab-standings',
  'doubles-tab-standings',
  'pairing-editor',
]);

export function registerSeed000Tests({ test, logIn, assert, base, out, join }) {
  test('seed 000: the Toronto Jieqi open and doubles, whole, through the dashboard alone', async ({ page }) => {
    const B = base();
    const shot = async (what) => {
      const png = await page.screenshot({ path: join(out, `seed000-${what}.png`), fullPage: true });
      if (README_SHOTS.has(what)) {
        writeFileSync(new URL(`../../docs/screenshots/seed000-${what}.png`, import.meta.url), png);
      }
    };
    const click = (selector, url) => Promise.all([page.waitForURL(url), page.click(selector)]);
    const submit = (selector) => Promise.all([page.waitForNavigation(), page.click(selector)]);
    // Every fee recorded, by section: the desk's totals must come to these sums.
    const recorded = { open: 0, doubles: 0 };
    const byTier = { 會員: 0, 非會員: 0 };
    const record = (section, tier, amount) => {
      recorded[section === sections.open ? 'open' : 'doubles'] += amount;
      byTier[tier] += amount;
    };

    await logIn(page);

    // ------------------------------------------------------------ the event and its sections
    await page.goto(`${B}/admin/tournaments/new?lang=en`);
    await page.fill('#name', '第四屆多倫多揭棋公開賽及雙人賽');
    await page.selectOption('#game', 'jieqi');
    await page.fill('#starts_on', '2027-04-21');
    await page.fill('#ends_on', '2027-04-22');
    await page.fill('#venue', '新旺角廣場 (8360 Kennedy Road, Markham)');
    await page.fill('#organiser', '多倫多象棋會、萬錦象棋會');
    await page.fill('#time_control', '10′+10″');
    await click('form.form button[type=submit]', /\/admin\/t\/[^/?]+$/);
    const tournamentUrl = page.url().split('?')[0];

    const sections = {};
    for (const [key, name, entryType] of [['open', '揭棋公開賽', 'individual'], ['doubles', '雙人賽', 'doubles']]) {
      await page.goto(`${tournamentUrl}?lang=en`);
      await page.fill('#name', name);
      await page.fill('#rounds', '7');
      await page.selectOption('#entry_type', entryType);
      // Only those present are paired: check-in matters.
      await page.check('#pair_checked_in_only');
      await click('form.form button[type=submit]', /\/admin\/s\/[^/]+\/entrants$/);
      const url = page.url().split('?')[0].replace(/\/entrants$/, '');
      sections[key] = { name, url, id: url.split('/').pop() };
      // The fee tiers are on the settings tab.
      await click('#tab-settings', /\/settings$/);
      await page.fill('#fee_tiers', '會員: 10\n非會員: 20');
      // The open's players check themselves in with their keys (issue #36), from now on.
      if (key === 'open') await page.check('#self_check_in');
      await click('form.settings-form button[type=submit]', /\/settings\?done=settings/);
      assert((await page.inputValue('#fee_tiers')).includes('非會員: 20'), `${name}: the fee tiers are kept`);
    }
    const { open, doubles } = sections;

    // Registration opens (a new event is a draft).
    await page.goto(`${tournamentUrl}?lang=en`);
    const openRegistration = page.locator('section.register-link form button');
    if (await openRegistration.count()) {
      await Promise.all([page.waitForNavigation(), openRegistration.click()]);
    }
    const tournamentId = tournamentUrl.split('/').pop();

    // ------------------------------------------------------------ online registrations
    const online = [
      { section: open, name: '陳大文', club: '多倫多象棋會', member: true, tier: '會員' },
      { section: open, name: 'Alice Wong', club: '萬錦象棋會', member: false, tier: '非會員' },
      { section: doubles, name: '李小龍', partner: '李小鳳', club: '多倫多象棋會', member: true, tier: '會員' },
      { section: doubles, name: '張三', partner: '王五', club: '萬錦象棋會', member: false, tier: '非會員' },
    ];
    for (const r of online) {
      await page.goto(`${B}/t/${tournamentId}/register?lang=zh-Hant`);
      await page.selectOption('#section_id', r.section.id);
      await page.fill('#name', r.name);
      await page.fill('#club', r.club);
      await page.fill('#email', `online${online.indexOf(r) + 1}@example.org`);
      if (r.member) await page.check('#member');
      if (r.partner) {
        await page.fill('#partner_name', r.partner);
      } else {
        // With an individual section on the form, the partner's name is not required in the
        // browser (the server asks for one only in a doubles section).
        assert(!(await page.$eval('#partner_name', (e) => e.required)), 'the partner is optional');
      }
      await page.selectOption('#fee_tier', `${r.section.id}:${r.tier}`);
      const [done] = await Promise.all([
        page.waitForResponse((res) => res.request().method() === 'POST'),
        page.click('form.form button[type=submit]'),
      ]);
      assert(done.status() === 201, `${r.name} registered online: ${done.status()}`);
      await page.waitForSelector('p.done');
      // The confirmation (issues #36, #39 item 9): the section, the fee due, and the player's
      // key, shown this once.
      assert((await page.textContent('#registered-section')).includes(r.section.name), `${r.name}: the section is stated`);
      const fee = `${r.tier}: ${r.tier === '會員' ? 10 : 20}`;
      assert((await page.textContent('#fee-due')).includes(fee), `${r.name}: the fee due is stated (${fee})`);
      r.key = await page.getAttribute('#key-url', 'href');
      assert(/\/k\/[0-9A-HJKMNP-TV-Z]{16}$/.test(r.key ?? ''), `${r.name}: the key's address: ${r.key}`);
    }
    // The players' own phones (a context of their own: no desk session).
    const phones = await page.context().browser().newContext({ viewport: { width: 390, height: 844 }, locale: 'zh-TW', isMobile: true, hasTouch: true });
    const phone = await phones.newPage();

    // Their fees, paid online, recorded on each section's registrations (desk) tab.
    for (const r of online) {
      await page.goto(`${r.section.url}/registrations?lang=en`);
      // A team is listed by both names.
      const row = page.locator('#registrations tbody tr', { has: page.locator('td:first-child', { hasText: r.name }) });
      const amount = r.tier === '會員' ? 10 : 20;
      await row.locator('form.money input[name=amount]').first().fill(String(amount));
      await row.locator('form.money select[name=method]').first().selectOption('transfer');
      await Promise.all([
        page.waitForURL(/\/registrations\?done=registration/),
        row.locator('form.money button').first().click(),
      ]);
      record(r.section, r.tier, amount);
    }

    // ------------------------------------------------------------ entries at the desk
    const addAtDesk = async (section, { name, club, rating, partner, member, paid, method }) => {
      await page.goto(`${section.url}/entrants?lang=en`);
      await page.fill('#name', name);
      if (club) await page.fill('#club', club);
      if (rating) await page.fill('#rating', String(rating));
      if (partner) await page.fill('#partner_name', partner);
      if (member) await page.check('#member');
      await page.selectOption('#fee_tier', member ? '會員' : '非會員');
      // The tier fills the amount (issue #39 item 6); an entry not paid yet clears it.
      if (!paid) await page.fill('#paid', '');
      if (paid) {
        await page.fill('#paid', String(paid));
        await page.selectOption('#payment_method', method);
        record(section, member ? '會員' : '非會員', paid);
      }
      await click('form.form button[type=submit]', /\/entrants\?added=/);
    };
    const openDesk = [
      ['林志明', '多倫多象棋會', 2150, true, 'cash'],
      ['黃美玲', '萬錦象棋會', 2080, false, 'card'],
      ['吳家豪', '多倫多象棋會', 2010, true, 'cash'],
      ['周杰', '萬錦象棋會', 1990, false, 'cash'],
      ['鄭成功', 'Scarborough Xiangqi Club', 1940, true, 'cheque'],
      ['許冠文', '多倫多象棋會', 1900, false, 'cash'],
      ['Kevin Lam', '萬錦象棋會', 1850, true, 'card'],
      ['趙六', '多倫多象棋會', 1800, false, 'cash'],
      ['何家勁', 'Scarborough Xiangqi Club', 1760, true, 'cash'],
      ['梁朝偉', '萬錦象棋會', 1700, false, 'transfer'],
    ];
    for (const [name, club, rating, member, method] of openDesk) {
      await addAtDesk(open, { name, club, rating, member, paid: member ? 10 : 20, method });
    }
    const doublesDesk = [
      ['蔡明', '蔡亮', '多倫多象棋會', true, 'cash'],
      ['馬力', '馬麗', '萬錦象棋會', false, 'cash'],
      ['Tony Chan', 'Mary Chan', 'Scarborough Xiangqi Club', true, 'card'],
      ['葉問', '葉準', '多倫多象棋會', false, 'cash'],
      ['孫悟空', '豬八戒', '萬錦象棋會', true, 'cash'],
      ['劉備', '關羽', '多倫多象棋會', false, 'cheque'],
    ];
    for (const [name, partner, club, member, method] of doublesDesk) {
      await addAtDesk(doubles, { name, partner, club, member, paid: member ? 10 : 20, method });
    }

    // ------------------------------------------------------------ check-in
    const checkin = async (section, expected) => {
      await page.goto(`${section.url}/entrants?lang=en`);
      const visible = () => page.locator('tr[data-entrant-row]:visible').count();
      // The club's players by the search box, all ticked at once.
      await page.fill('#entrant-search', '萬錦');
      const shown = await visible();
      assert(shown >= 2 && shown < expected, `${section.name}: the search narrows the list: ${shown}`);
      // Walk-ins entered at the desk of a section that pairs checked-in entrants only are
      // checked in already (issue #36): the box checks in the others.
      const absent = await page.locator('tr[data-entrant-row]:visible:not([data-present])').count();
      if (absent > 0) {
        await page.check('[data-select-all]');
        await click('#bulk-check-in-button', /done=checked_in/);
        assert((await page.textContent('#desk-notice')).includes(`Entrants checked in now: ${absent}.`), `${section.name}: ${absent} at once`);
      }
      // One by number and Enter.
      await page.goto(`${section.url}/entrants?lang=en`);
      const first = page.locator('tr[data-entrant-row]:not([data-present])').first();
      const no = await first.getAttribute('data-no');
      await page.fill('#checkin-no', no);
      await Promise.all([page.waitForURL(/checked=/), page.press('#checkin-no', 'Enter')]);
      assert((await page.textContent('#desk-notice')).includes(`(No. ${no}) is checked in.`), `${section.name}: No. ${no} by number`);
      // The rest: an empty search shows all, the box ticks those not yet present.
      await page.goto(`${section.url}/entrants?lang=en`);
      await page.fill('#entrant-search', '');
      if (await page.locator('tr[data-entrant-row]:visible:not([data-present])').count() > 0) {
        await page.check('[data-select-all]');
        await click('#bulk-check-in-button', /done=checked_in/);
      }
      await page.goto(`${section.url}/entrants?lang=en`);
      const count = (await page.textContent('#checkin-count')).trim();
      assert(count === `Present: ${expected} / ${expected}`, `${section.name}: all present: ${count}`);
    };
    // An online player of the open checks in with the key (the other, by number at the desk);
    // the desk sees who did it themselves.
    const keyed = online.filter((r) => r.section === open);
    const selfCheckIn = keyed.filter((r) => r.name === 'Alice Wong');
    for (const r of selfCheckIn) {
      await phone.goto(`${r.key}?lang=en`);
      await Promise.all([phone.waitForURL(/done=in/), phone.click('#check-in-button')]);
      assert((await phone.textContent('#check-in-state')).includes('You are checked in'), `${r.name} checked in by key`);
    }
    await page.goto(`${open.url}/entrants?lang=en`);
    assert((await page.locator('[data-by-self]').count()) === selfCheckIn.length, 'the desk sees who checked in by key');
    await checkin(open, 12);
    await checkin(doubles, 8);
    // The desk prints every player's key card (one A4 sheet of cards); the online players'
    // cards carry the keys they were given.
    await page.goto(`${open.url}/keys/print?lang=en`);
    const cards = await page.locator('.key-card').evaluateAll((els) => els.map((el) => ({
      name: el.querySelector('.key-card-name').textContent.trim(),
      url: el.querySelector('span.url').textContent.trim(),
      qr: el.querySelectorAll('svg').length,
    })));
    assert(cards.length === 12 && cards.every((c) => c.qr === 1), `a card with its QR code for each of the 12: ${cards.length}`);
    for (const r of keyed) {
      assert(cards.some((c) => c.name.endsWith(r.name) && c.url === r.key), `${r.name}'s card holds the key of the confirmation`);
    }
    await shot('key-cards');

    // ------------------------------------------------------------ rounds
    const pair = async (section, n) => {
      await page.goto(`${section.url}/rounds?lang=en`);
      await click('text=Pair the next round', /\/rounds\?done=paired/);
      assert((await page.locator(`#publish-${n}`).count()) === 1, `${section.name}: round ${n} paired`);
    };
    const publish = async (section, n) => {
      await page.goto(`${section.url}/rounds?lang=en`);
      await click(`#publish-${n}`, new RegExp(`/rounds/${n}/publish$`));
      assert((await page.textContent('h1')) === `Publish round ${n}?`, 'the publish question');
      await click('#confirm-button', /done=published/);
    };
    // One line of the fast-entry box, then Enter; the page comes back with the message.
    const enter = async (line) => {
      await page.fill('#line', line);
      await Promise.all([page.waitForNavigation(), page.press('#line', 'Enter')]);
      return (await page.textContent('#entry-messages')).trim();
    };
    // Results by board: wins both ways, draws, forfeits both ways, fouls, turning each round.
    const LINES = [(b) => `${b} 1`, (b) => `${b}=`, (b) => `${b} 0`, (b) => `${b}+`, (b) => `${b} 1 0 1`, (b) => `${b}-`, (b) => `${b} 0 1 0`];
    const results = async (section, n) => {
      await page.goto(`${section.url}/rounds?lang=en`);
      await click(`a[href$="/rounds/${n}/results"]`, new RegExp(`/rounds/${n}/results$`));
      const boards = await page.$$eval('tr[data-board][data-black]', (rows) => rows.map((r) => Number(r.dataset.board)));
      assert(boards.length >= 4, `${section.name} round ${n}: boards ${boards}`);
      for (const [i, b] of boards.entries()) {
        const message = await enter(LINES[(i + n) % LINES.length](b));
        assert(message.includes(`Board ${b}`), `${section.name} round ${n} board ${b}: ${message}`);
      }
      if (section === open && n === 1) {
        // A correction: a different result for a board that has one asks first, and the line
        // comes back ending with `!`; the second Enter replaces it.
        const b = boards[0];
        const stored = await page.textContent(`#board-${b} td:nth-child(4)`);
        const replacement = stored.includes('Black wins') ? `${b} 1` : `${b} 0`;
        const asked = await enter(replacement);
        assert(asked.includes(`Board ${b} already has`), `the correction asks first: ${asked}`);
        assert((await page.inputValue('#line')) === `${replacement}!`, 'the line ends with !');
        const saved = await enter(await page.inputValue('#line'));
        assert(saved.includes(`Board ${b}:`), `the correction is saved: ${saved}`);
        const now = await page.textContent(`#board-${b} td:nth-child(4)`);
        assert(now !== stored, `board ${b} changed: ${stored} → ${now}`);
        await shot('open-results-correction');
      }
      if (section === open && n === 5) {
        // Two fouls lose the game (the section's rule): a win with two fouls for Red counts
        // as Black's; typed with `!` to replace the board's result at once.
        const b = boards[2];
        const saved = await enter(`${b} 1 2 0!`);
        assert(saved.includes('Foul rule applied: the result counts as Black wins'), `the foul rule: ${saved}`);
        assert((await page.textContent(`#board-${b} .fouls`)).includes('2'), 'the fouls are shown');
      }
      if (section === open && n === 4) {
        // A correction typed with the `!` at once: no question.
        const b = boards[1];
        const saved = await enter(`${b} 1!`);
        assert(saved.includes(`Board ${b}: Red wins`), `the ! correction is saved at once: ${saved}`);
      }
      const status = await page.textContent('main > p.muted');
      assert(/(^|\D)0 game\(s\) without a result/.test(status), `${section.name} round ${n}: every result in: ${status}`);
    };

    for (let n = 1; n <= 7; n++) {
      await pair(open, n);
      if (n === 2) {
        // A manual swap in the pairing editor, reached from the round's "edit" link: the red
        // players of boards 1 and 2 change places, then saved (anyway, if a rule is broken).
        await page.goto(`${open.url}/rounds?lang=en`);
        await click(`a[href$="/rounds/2/edit"]`, /\/rounds\/2\/edit$/);
        const [red1, red2] = [await page.inputValue('#red_1'), await page.inputValue('#red_2')];
        await page.selectOption('#swap_a', red1);
        await page.selectOption('#swap_b', red2);
        await submit('fieldset.swap button[name=action]');
        assert((await page.textContent('#swapped')).startsWith('Swapped'), 'the swap is reported');
        assert((await page.inputValue('#red_1')) === red2 && (await page.inputValue('#red_2')) === red1, 'the seats exchanged');
        await shot('pairing-editor');
        await submit('form.repair-form button[type=submit]:not([name])');
        if (!page.url().includes('done=repaired')) {
          assert((await page.locator('#broken-rules li').count()) >= 1, 'a broken rule is listed');
          await click('form.repair-form button[name=confirm]', /done=repaired/);
        }
      }
      await publish(open, n);
      if (n === 1) {
        // A player's key shows this round's board, colour and opponent on the phone.
        await phone.goto(`${keyed[0].key}?lang=en`);
        assert((await phone.textContent('#my-colour')).match(/Red|Black/), 'the colour by key');
        assert((await phone.textContent('#opponent')).trim().length > 0, 'the opponent by key');
      }
      await results(open, n);
      if (n === 1) {
        // A late entrant, entered and paid at the desk after round 1, checked in by number.
        await addAtDesk(open, { name: '遲來的人', club: '萬錦象棋會', rating: 1650, member: true, paid: 10, method: 'cash' });
        const no = await page.getAttribute('tr[data-entrant-row]:has(td:text-is("遲來的人"))', 'data-no');
        await page.fill('#checkin-no', no);
        await Promise.all([page.waitForURL(/checked=/), page.press('#checkin-no', 'Enter')]);
        assert((await page.textContent('#checkin-count')).trim() === 'Present: 13 / 13', 'the late entrant is present');
      }
      if (n === 3) {
        // A withdrawal, then its undo from the message.
        await page.goto(`${open.url}/entrants?lang=en`);
        const row = page.locator('tr[data-entrant-row]', { has: page.locator('td:text-is("周杰")') });
        await Promise.all([page.waitForURL(/\/withdraw$/), row.locator('a.withdraw-link').click()]);
        assert((await page.textContent('h1')).startsWith('Withdraw 周杰'), 'the question names the entrant');
        await click('#confirm-button', /withdrawn=/);
        assert((await page.textContent('#desk-notice')).includes('周杰'), 'the withdrawal message');
        assert(((await row.getAttribute('class')) ?? '').includes('withdrawn'), 'withdrawn');
        await click('#undo-button', /done=entrant_status/);
        assert(!((await row.getAttribute('class')) ?? '').includes('withdrawn'), 'back in');
        if (!((await row.getAttribute('class')) ?? '').includes('present')) {
          await submit(`tr[data-entrant-row]:has(td:text-is("周杰")) form[action$="/check-in"] button`);
        }
      }
    }
    for (let n = 1; n <= 7; n++) {
      await pair(doubles, n);
      await publish(doubles, n);
      await results(doubles, n);
    }

    // ------------------------------------------------------------ prizes: the first four
    for (const section of [open, doubles]) {
      await page.goto(`${section.url}/prizes?lang=en`);
      for (let place = 1; place <= 4; place++) {
        const i = place - 1;
        if (!(await page.locator(`[name=p${i}_from]`).count())) {
          // Three blank rows at a time: save, then the page has more.
          await submit('form.prizes button[type=submit]');
        }
        await page.fill(`[name=p${i}_from]`, String(place));
        await page.fill(`[name=p${i}_to]`, String(place));
        await page.fill(`[name=p${i}_award]`, `第${'一二三四'[i]}名：獎杯、獎品及獎金`);
      }
      await submit('form.prizes button[type=submit]');
      const awarded = await page.locator('h2 ~ .scroll table tbody tr').count();
      assert(awarded === 4, `${section.name}: four prizes awarded: ${awarded}`);
      // The winner's name is the fourth column (after the prize, the award and its amount).
      const names = await page.locator('h2 ~ .scroll table tbody tr td:nth-child(4)').allTextContents();
      assert(names.every((n) => n && n !== '–'), `${section.name}: every prize has a winner: ${names}`);
    }

    // ------------------------------------------------------------ the section tabs
    for (const [key, section] of Object.entries(sections)) {
      for (const tab of ['overview', 'entrants', 'registrations', 'byes', 'rounds', 'standings', 'knockout', 'prizes', 'settings']) {
        await page.goto(`${section.url}${tab === 'overview' ? '' : `/${tab}`}?lang=en`);
        assert((await page.getAttribute(`#tab-${tab}`, 'aria-current')) === 'page', `${section.name}: the ${tab} tab`);
        await shot(`${key}-tab-${tab}`);
      }
    }

    // ------------------------------------------------------------ the desk's totals
    const money = (text) => Number(String(text).replace(/[^\d.-]/g, ''));
    const total = recorded.open + recorded.doubles;
    for (const [key, section] of Object.entries(sections)) {
      await page.goto(`${section.url}/registrations?lang=en`);
      // The ledger of the desk tab: every payment listed with its amount.
      const ledger = (await page.locator('#registrations ul.ledger li:not(.voided)').allTextContents())
        .map((t) => money(t.split('·')[0]));
      const sum = ledger.reduce((a, b) => a + b, 0);
      assert(sum === recorded[key], `${section.name}: the desk tab lists ${sum}, recorded ${recorded[key]}`);
      if (key === 'open') await shot('desk');
      await click('#registrations a[href$="/desk/print"]', /\/desk\/print$/);
      const paid = money(await page.textContent('dd.paid'));
      assert(paid === recorded[key], `${section.name}: the desk list print says paid ${paid}, recorded ${recorded[key]}`);
    }
    await page.goto(`${tournamentUrl}?lang=en`);
    await click(`a[href="/admin/t/${tournamentId}/desk/print"]`, /\/desk\/print$/);
    const paid = money(await page.textContent('#desk-total td.num'));
    assert(paid === total, `the desk list's total paid ${paid}, recorded ${total}`);
    for (const [tier, sum] of Object.entries(byTier)) {
      const row = page.locator('#desk-by-tier tbody tr', { has: page.locator(`td:text-is("${tier}")`) });
      const tierPaid = money(await row.locator('td.num').nth(1).textContent());
      assert(tierPaid === sum, `the desk list's ${tier} paid ${tierPaid}, recorded ${sum}`);
    }
    const due = money(await page.textContent('#desk-total td.num:nth-of-type(2)'));
    assert(due === 0, `nothing is due: ${due}`);
    await shot('desk-print');
    await phones.close();
  }, { allow: [409] });
}
