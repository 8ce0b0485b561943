// Browser test of issue 36's player keys: the desk prints the section's key cards; a player
// scans their card's QR code (decoded here with jsQR, Apache-2.0) on a 360×740 or 390×844
// phone, which opens their /k/ page; checks in, sees the board once round 1 is published
// (both names inside the viewport), and reports; the opponent confirms with their own key
// on their own phone; the desk's queue shows the board agreed. Registered by run.mjs with
//
//   import { registerKeyTests } from './keys.mjs';
//   registerKeyTests({ test, logIn, assert, api, admin: ADMIN, base: () => base, out, join, newContext });

import { readFileSync } from 'node:fs';

const JSQR = readFileSync(new URL('./node_modules/jsqr/dist/jsQR.js', import.meta.url), 'utf8');

/** What a phone's camera reads from the QR code `svg` (a locator): its text, or null. */
export async function scan(browser, svg) {
  // The code as drawn (its SVG), shown large on a blank page of its own (no site's content
  // security policy there), photographed and read.
  const markup = await svg.evaluate((el) => el.outerHTML);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.setContent(`<!doctype html><title>scan</title><div id="qr" style="background:#fff;padding:24px;width:320px">${markup}</div><canvas id="c"></canvas>`);
    await page.evaluate(() => {
      const el = document.querySelector('#qr svg');
      el.setAttribute('width', '320');
      el.setAttribute('height', '320');
      el.style.width = '320px';
      el.style.height = '320px';
    });
    const png = await page.locator('#qr').screenshot();
    await page.addScriptTag({ content: JSQR });
    return await page.evaluate(async (b64) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.getElementById('c');
      c.width = img.width;
      c.height = img.height;
      const x = c.getContext('2d');
      x.drawImage(img, 0, 0);
      const data = x.getImageData(0, 0, c.width, c.height);
      return globalThis.jsQR(data.data, c.width, c.height)?.data ?? null;
    }, png.toString('base64'));
  } finally {
    await context.close();
  }
}

export function registerKeyTests({ test, logIn, assert, api, admin, base, out, join, newContext }) {
  for (const viewport of [{ width: 360, height: 740 }, { width: 390, height: 844 }]) {
    const phone = { viewport, locale: 'en-US', isMobile: true, hasTouch: true };

    test(`at ${viewport.width} px a player scans the key card's QR, checks in, sees the board and reports; the opponent confirms with their own key`, async ({ page, browser, allowed }) => {
      const { token } = await api('POST', '/api/v1/auth/login', admin);
      const t = await api('POST', '/api/v1/tournaments', { name: `Key Card Open ${viewport.width}`, game: 'xiangqi' }, token);
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
      // The QR code of each card holds its own address.
      const scanned = {};
      for (const name of ['Card Player 1', 'Card Player 2', 'Card Player 3', 'Card Player 4']) {
        const card = page.locator('.key-card').filter({ hasText: name });
        scanned[name] = await scan(browser, card.locator('svg').first());
        assert(scanned[name] === urlOf(name), `${name}'s QR code reads ${scanned[name]}, the card says ${urlOf(name)}`);
      }

      // Player 1 opens what the QR code holds on a phone and checks in.
      const mine = await newContext(browser, phone, allowed);
      const p1 = await mine.newPage();
      const response = await p1.goto(scanned['Card Player 1']);
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
      await p1.goto(scanned['Card Player 1']);
      assert((await p1.textContent('#my-colour')).includes(red ? 'Red' : 'Black'), 'my colour');
      assert((await p1.textContent('#opponent')).includes(opponent), 'my opponent');
      const width = await p1.evaluate(() => document.documentElement.scrollWidth);
      assert(width <= viewport.width, `the key page fits a ${viewport.width}-px phone (${width})`);
      // Both names, the player's and the opponent's, whole inside the viewport.
      for (const sel of ['#key-name', '#opponent']) {
        const box = await p1.locator(sel).evaluate((el) => {
          const r = el.getBoundingClientRect();
          return { left: r.left, right: r.right };
        });
        assert(box.left >= 0 && box.right <= viewport.width + 0.5, `${sel} spans ${box.left}–${box.right} px`);
      }
      await p1.check('#report-form input[name=result][value=draw]');
      await Promise.all([p1.waitForURL(/done=sent/), p1.click('#send-report')]);
      assert((await p1.textContent('#report-state')).includes('Waiting for the opponent'), 'waiting for the opponent');
      await p1.screenshot({ path: join(out, `key-phone-${viewport.width}.png`), fullPage: true });

      // The opponent confirms with their own key.
      const theirs = await newContext(browser, phone, allowed);
      const p2 = await theirs.newPage();
      await p2.goto(scanned[opponent]);
      assert((await p2.textContent('#opponent')).includes('Card Player 1'), 'the opponent sees player 1');
      await Promise.all([p2.waitForURL(/done=sent/), p2.click('#confirm')]);
      assert((await p2.textContent('#report-state')).includes('Both players agree'), 'agreed');

      // The desk's queue has it, agreed.
      await page.goto(`${base()}/admin/s/${sid}/reports`);
      assert((await page.locator('tr[data-state="agreed"]').count()) === 1, 'the desk sees the board agreed');
      for (const c of [mine, theirs]) await c.close();
    });
  }

  test('the desk\'s check-in list follows players checking themselves in, keeping the arbiter\'s ticks', async ({ page }) => {
    const { token } = await api('POST', '/api/v1/auth/login', admin);
    const t = await api('POST', '/api/v1/tournaments', { name: 'Live Check-in Open', game: 'xiangqi' }, token);
    const s = await api('POST', `/api/v1/tournaments/${t.id}/sections`, { name: 'Open', rounds: 5 }, token);
    const sid = s.id;
    await api('PUT', `/api/v1/sections/${sid}/check-in-settings`, { self_check_in: true }, token);
    for (let i = 1; i <= 3; i++) {
      await api('POST', `/api/v1/sections/${sid}/entrants`, { name: `Live Player ${i}`, rating: 2000 - i }, token);
    }
    const keys = await api('GET', `/api/v1/sections/${sid}/keys`, undefined, token);
    const keyOf = (name) => keys.find((k) => k.name === name).key;

    await logIn(page);
    await page.goto(`${base()}/admin/s/${sid}/entrants?live=1`);
    await page.evaluate(() => { window.__notReloaded = true; });
    const row = (name) => page.locator('tr[data-entrant-row]').filter({ hasText: name });
    // The arbiter ticks player 3 for a bulk check-in, then player 1 checks in with the key.
    await row('Live Player 3').locator('input[name="entrant[]"]').check();
    assert((await page.textContent('#checkin-count')).includes('0 / 3'), 'nobody present yet');
    await api('POST', `/api/v1/keys/${keyOf('Live Player 1')}/check-in`);
    await row('Live Player 1').locator('[data-by-self]').waitFor({ timeout: 5000 });
    assert(await row('Live Player 1').evaluate((el) => el.hasAttribute('data-present')), 'player 1 shows present');
    assert((await page.textContent('#checkin-count')).includes('1 / 3'), `the count follows: ${await page.textContent('#checkin-count')}`);
    assert(await row('Live Player 3').locator('input[name="entrant[]"]').isChecked(), 'the tick on player 3 survives');
    assert(await page.evaluate(() => window.__notReloaded === true), 'the page was not reloaded');
    // A check-out with the key shows too.
    await api('DELETE', `/api/v1/keys/${keyOf('Live Player 1')}/check-in`);
    await page.waitForFunction(() => {
      const r = Array.from(document.querySelectorAll('tr[data-entrant-row]')).find((el) => el.textContent.includes('Live Player 1'));
      return r && !r.hasAttribute('data-present');
    }, undefined, { timeout: 5000 });
    assert((await page.textContent('#checkin-count')).includes('0 / 3'), 'the count follows the check-out');
  });
}
