// Browser tests of issue #16's self-report: players report from 390-px phones with the code
// of their result slip (read here from the staff's slips, as a phone would scan its QR code),
// the desk's queue updates without a reload and one key accepts an agreement; a dispute is
// flagged and counts for nothing; a guessed code is refused. Registered by run.mjs with
//
//   import { registerReportTests } from './reports.mjs';
//   registerReportTests({ test, logIn, assert, api, admin: ADMIN, base: () => base, out, join, newContext });

import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

export function registerReportTests({ test, logIn, assert, api, admin, base, out, join, newContext }) {
  const phone = { viewport: { width: 390, height: 844 }, locale: 'en-US', isMobile: true, hasTouch: true };

  /** A section of `n` players with round 1 paired and published. */
  async function section(name, n) {
    const { token } = await api('POST', '/api/v1/auth/login', admin);
    const t = await api('POST', '/api/v1/tournaments', { name, game: 'xiangqi' }, token);
    const s = await api('POST', `/api/v1/tournaments/${t.id}/sections`, { name: 'Open', rounds: 5 }, token);
    for (let i = 1; i <= n; i++) {
      await api('POST', `/api/v1/sections/${s.id}/entrants`, { name: `Player ${String(i).padStart(2, '0')}`, rating: 2000 - i }, token);
    }
    const round = await api('POST', `/api/v1/sections/${s.id}/rounds`, undefined, token);
    await api('POST', `/api/v1/sections/${s.id}/rounds/1/publish`, undefined, token);
    return { token, section: s.id, boards: round.boards };
  }

  /** Points by name from the public standings. */
  async function points(sectionId) {
    const standings = await api('GET', `/api/v1/sections/${sectionId}/standings`);
    return Object.fromEntries(standings.rows.map((r) => [r.name, r.points]));
  }

  /** One phone reports with its side's code (`url`) as `side` (`red`/`black`) with `result`. */
  async function reportFrom(browser, allowed, url, side, result) {
    const context = await newContext(browser, phone, allowed);
    const page = await context.newPage();
    await page.goto(url);
    // Issue 36: the side is the code's; the page says which and asks for none.
    assert((await page.textContent('#report-as')).includes(side === 'red' ? 'Red' : 'Black'), `the page reports as ${side}`);
    await page.check(`#report-form input[name=result][value=${result}]`);
    await Promise.all([page.waitForURL(/done=/), page.click('#send-report')]);
    const text = await page.textContent('main');
    return { context, page, text };
  }

  test('players report from phones; the queue updates live; one key at the desk makes it count', async ({ page, browser, allowed }) => {
    const { section: sid, boards } = await section('Self-report Cup', 8);
    await logIn(page);
    // The staff's slips: six per A4 page, each with each side's report code and QR code
    // (issue 36: Red's first, then Black's).
    await page.goto(`${base()}/admin/s/${sid}/rounds/1/slips`);
    const urls = await page.locator('.report-slip span.url').allTextContents();
    assert(urls.length === 8 && urls.every((u) => /\/r\/[0-9A-F]{16}$/.test(u)), `eight report addresses: ${urls}`);
    assert((await page.locator('.report-slip svg').count()) === 8, 'a QR code for each side of every slip');

    // The desk's queue, open before anyone reports; a marker shows it is never reloaded.
    await page.goto(`${base()}/admin/s/${sid}/reports?live=1`);
    assert((await page.locator('#queue-empty').count()) === 1, 'empty at first');
    await page.evaluate(() => { window.notReloaded = true; });
    const before = await points(sid);

    // Board 1: Red reports a win on a phone; Black's phone confirms it in one tap.
    const red = await reportFrom(browser, allowed, urls[0], 'red', 'red_wins');
    assert(red.text.includes('Your report is sent'), 'sent, not yet counted');
    await red.page.screenshot({ path: join(out, 'report-phone.png'), fullPage: true });
    const width = await red.page.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 390, `the report page fits a 390-px phone (${width})`);
    const blackContext = await newContext(browser, phone, allowed);
    const black = await blackContext.newPage();
    await black.goto(urls[1]);
    assert((await black.textContent('#confirm')).includes('Black'), 'the confirmation names the side');
    await Promise.all([black.waitForURL(/done=sent/), black.click('#confirm')]);
    assert((await black.textContent('#report-state')).includes('Both players agree'), 'agreed');

    // Board 2: the players disagree.
    const r2 = await reportFrom(browser, allowed, urls[2], 'red', 'red_wins');
    const b2 = await reportFrom(browser, allowed, urls[3], 'black', 'black_wins');
    assert(b2.text.includes('disagree'), 'the phone says the reports disagree');

    // The queue shows both without a reload: the agreement first, with the key; the dispute flagged.
    await page.waitForSelector('tr[data-state="agreed"]', { timeout: 10_000 });
    await page.waitForSelector('tr[data-state="disputed"]', { timeout: 10_000 });
    assert(await page.evaluate(() => window.notReloaded === true), 'the queue was not reloaded');
    assert((await page.locator('tr[data-state="disputed"] button[data-accept-key]').count()) === 0, 'a dispute cannot be accepted');
    await page.screenshot({ path: join(out, 'report-queue.png'), fullPage: true });
    // Nothing counts yet.
    assert(JSON.stringify(await points(sid)) === JSON.stringify(before), 'reports alone change no standings');

    // One key.
    await Promise.all([page.waitForURL(/done=accepted/), page.keyboard.press('a')]);
    assert((await page.textContent('main')).includes('Accepted'), 'accepted');
    const round = await api('GET', `/api/v1/sections/${sid}/rounds/1`);
    const b1 = round.boards.find((b) => b.number === 1);
    assert(b1.result === 'red_wins', 'the result counts');
    // The public standings are at most about a second old while results arrive (#38).
    let after = await points(sid);
    for (let i = 0; i < 30 && !(after[b1.red.name] > before[b1.red.name]); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await points(sid);
    }
    assert(after[b1.red.name] > before[b1.red.name], 'the winner has more points');
    const b2Now = round.boards.find((b) => b.number === 2);
    assert(b2Now.result === null, 'the dispute counts for nothing');
    assert(after[b2Now.red.name] === before[b2Now.red.name] && after[b2Now.black.name] === before[b2Now.black.name], 'the disputed players keep their points');
    // The dispute stays flagged for the arbiter, with no accept key.
    assert((await page.locator('tr[data-state="disputed"]').count()) === 1, 'still flagged');
    assert((await page.locator('button[data-accept-key]').count()) === 0, 'nothing left to accept by key');

    // The phone that reported now sees the recorded result and no form.
    await red.page.goto(urls[0]);
    assert((await red.page.textContent('#report-result')).includes('Red won') || (await red.page.textContent('#report-result')).length > 0, 'the result is shown');
    assert((await red.page.locator('#report-form').count()) === 0, 'no more reports');
    for (const c of [red.context, blackContext, r2.context, b2.context]) await c.close();
  });

  test('a guessed report code is refused next to the box', async ({ page }) => {
    await page.goto(`${base()}/r`);
    await page.fill('#code', '0000-0000-0000');
    await Promise.all([page.waitForURL(/\/r\/000000000000/), page.click('form.report-code button')]);
    assert((await page.locator('#code-error').count()) === 1, 'the error is next to the box');
    assert((await page.getAttribute('#code', 'aria-invalid')) === 'true', 'the box is marked');
  }, { allow: [422], context: phone });

  test('report slips print six to an A4 page with their QR codes inside', async ({ page }) => {
    const { section: sid } = await section('Slip Cup', 24);
    await logIn(page);
    await page.goto(`${base()}/admin/s/${sid}/rounds/1/slips`);
    await page.emulateMedia({ media: 'print' });
    assert((await page.locator('.report-slip').count()) === 12, 'twelve slips');
    // Nothing spills out of a slip: its QR code and code are inside its box.
    const spills = await page.evaluate(() => [...document.querySelectorAll('.report-slip')].filter((slip) => {
      const box = slip.getBoundingClientRect();
      return [...slip.querySelectorAll('svg, span.code, table')].some((el) => {
        const r = el.getBoundingClientRect();
        return r.bottom > box.bottom + 0.5 || r.right > box.right + 0.5;
      });
    }).length);
    assert(spills === 0, `${spills} slips spill over`);
    const path = join(out, 'print-report-slips.pdf');
    await page.pdf({ path, format: 'A4' });
    const pdf = readFileSync(path, 'latin1');
    const pages = (pdf.match(/\/Type\s*\/Page[^s]/g) ?? []).length;
    assert(pages === 2, `twelve slips on two A4 pages (got ${pages})`);
    // The public slips (no codes) print six to a page too (#39 item 9).
    await page.goto(`${base()}/s/${sid}/slips/1/print`);
    await page.emulateMedia({ media: 'print' });
    assert((await page.locator('.public-slip').count()) === 12, 'twelve public slips');
    const publicPath = join(out, 'print-public-slips.pdf');
    await page.pdf({ path: publicPath, format: 'A4' });
    const publicPages = (readFileSync(publicPath, 'latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
    assert(publicPages === 2, `twelve public slips on two A4 pages (got ${publicPages})`);
  });

  test('printed tables keep every column: the PDF text layer has each header and each last cell', async ({ page }) => {
    const { token, section: sid, boards } = await section('印刷表格盃 Sheet Cup', 12);
    for (const [i, board] of boards.entries()) {
      if (board.black) await api('PUT', `/api/v1/boards/${board.id}/result`, { result: ['red_wins', 'draw', 'black_wins'][i % 3] }, token);
    }
    for (const [path, name] of [
      [`/s/${sid}/pairings/1/print`, 'pairings'],
      [`/s/${sid}/pairings/1/by-name/print`, 'by-name'],
      [`/s/${sid}/standings/print`, 'standings'],
      [`/s/${sid}/crosstable/print`, 'crosstable'],
    ]) {
      await page.goto(`${base()}${path}?lang=zh-Hant`);
      await page.emulateMedia({ media: 'print' });
      // What the tables say: every header, and every cell of each table's last column.
      const expected = await page.evaluate(() => [...document.querySelectorAll('main table')].flatMap((table) => {
        const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
        const last = [...table.querySelectorAll('tbody tr')].map((tr) => tr.lastElementChild?.textContent ?? '');
        return [...headers, ...last];
      }).map((t) => t.replace(/\s+/g, '')).filter((t) => t.length > 0));
      assert(expected.length > 4, `${name}: tables found`);
      const file = join(out, `text-layer-${name}.pdf`);
      await page.pdf({ path: file, format: 'A4' });
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, '');
      const missing = expected.filter((t) => !text.includes(t));
      assert(missing.length === 0, `${name}: not in the PDF text: ${missing.slice(0, 8).join(' | ')}`);
      await page.emulateMedia({ media: 'screen' });
    }
  }, { context: { locale: 'zh-TW' } });
}
