// Browser tests of arbiter's pages (issue 8): the real server binary over a fresh database,
// driven by Debian's headless Chromium through playwright-core.
//
// Every test gets a new browser context. For every page a test visits, the harness also
//  - fails on any console error, uncaught page error, failed request or subresource >= 400
//    (a test may allow the status of its own document, e.g. the 422 of a rejected login);
//  - validates the served HTML with html-validate (recommended rules, offline).
// Screenshots and PDFs go to test-output/browser/. The last line is "N passed, N failed".
//
// Environment: DATABASE_URL (an empty, migrated-or-not database; run.sh provides one),
// ARBITER_BIN (the server binary), CHROMIUM (default /usr/bin/chromium).

import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { HtmlValidate } from 'html-validate';
import { registerDashboardTests } from './dashboard.mjs';
import { registerPrintTests } from './prints.mjs';
import { registerCrawlTests } from './crawl.mjs';
import { registerStaffTests } from './staff.mjs';
import { registerRecordTests } from './records.mjs';
import { registerReportTests } from './reports.mjs';
import { registerKeyTests } from './keys.mjs';
import { registerPushTests } from './push.mjs';
import { registerScreenTests } from './screen.mjs';
import { registerPlayerTests } from './players.mjs';
import { registerSeed000Tests } from './seed000.mjs';
import { registerSeed001Tests } from './seed001.mjs';
import { registerWalkInTests } from './walkins.mjs';
import { registerDeskTests } from './desk.mjs';
import { registerTeamTests } from './teams.mjs';
import { registerTeamRegisterTests } from './team_register.mjs';
import { registerTeamPublicTests } from './team_public.mjs';

const here = new URL('.', import.meta.url).pathname;
const root = resolve(here, '../..');
const out = join(root, 'test-output', 'browser');
const bin = process.env.ARBITER_BIN ?? join(root, 'target', 'debug', 'arbiter');
const databaseUrl = process.env.DATABASE_URL;
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const only = process.argv[2]; // optional: run the tests whose name contains this

const ADMIN = { username: 'chief', password: 'correct horse battery' };
const EVIL = '<script>alert(1)</script>';

if (!databaseUrl) {
  console.error('DATABASE_URL is not set (run tests/browser/run.sh)');
  process.exit(2);
}
// Old screenshots would pass for new ones: start from an empty folder.
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// ---------------------------------------------------------------- helpers

function freePort() {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.unref();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
  });
}

function sleep(ms) {
  return new Promise((ok) => setTimeout(ok, ms));
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

const validator = new HtmlValidate({
  extends: ['html-validate:recommended'],
  rules: {
    // Rust-rendered markup keeps the template's indentation; blank trailing space is harmless.
    'no-trailing-whitespace': 'off',
  },
});

// ---------------------------------------------------------------- server

let server;
let serverLog = '';
let base;

async function startServer() {
  const env = { ...process.env, DATABASE_URL: databaseUrl, RUST_LOG: 'warn' };
  const admin = spawnSync(bin, ['admin', 'create', ADMIN.username], {
    input: `${ADMIN.password}\n`,
    env,
    encoding: 'utf8',
  });
  if (admin.status !== 0) throw new Error(`admin create failed: ${admin.stderr}`);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // Private endpoints are allowed: the push test's push service listens on 127.0.0.1.
  server = spawn(bin, ['serve', '--bind', `127.0.0.1:${port}`, '--allow-private-endpoints'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout.on('data', (d) => (serverLog += d));
  server.stderr.on('data', (d) => (serverLog += d));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited early:\n${serverLog}`);
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`server did not come up:\n${serverLog}`);
}

function stopServer() {
  if (server && server.exitCode === null) server.kill('SIGTERM');
}

/** Calls the JSON API; fails the set-up on any unexpected status. */
async function api(method, path, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Test data, made through the API as an arbiter would: two tournaments, one section with
 *  13 entrants (one named like a script), round 1 paired with all but one result entered. */
const data = {};
async function seed() {
  const { token } = await api('POST', '/api/v1/auth/login', ADMIN);
  const evil = await api('POST', '/api/v1/tournaments', {
    name: EVIL, game: 'banqi', venue: '"><img src=x onerror=alert(2)>',
  }, token);
  const open = await api('POST', '/api/v1/tournaments', {
    name: '第一屆揭棋公開賽', game: 'jieqi', venue: '多倫多', starts_on: '2026-12-05',
    ends_on: '2026-12-06', organiser: '揭棋協會', time_control: '10′+10″', default_language: 'zh-Hant',
  }, token);
  const section = await api('POST', `/api/v1/tournaments/${open.id}/sections`, { name: '公開組', rounds: 5 }, token);
  const names = ['陳大文', '李小龍', '張三', '王五', '趙六', 'Alice Wong', '林志明', '黃美玲', '吳家豪', '周杰', '鄭成功', '許冠文'];
  for (const [i, name] of names.entries()) {
    await api('POST', `/api/v1/sections/${section.id}/entrants`, {
      name, club: i % 3 ? '多倫多棋會' : 'Scarborough Xiangqi Club', rating: 2100 - 25 * i,
      email: `p${i}@example.org`,
    }, token);
  }
  await api('POST', `/api/v1/sections/${section.id}/entrants`, { name: EVIL, club: '<b>club</b>' }, token);
  const round = await api('POST', `/api/v1/sections/${section.id}/rounds`, undefined, token);
  await api('POST', `/api/v1/sections/${section.id}/rounds/1/publish`, undefined, token);
  const results = ['red_wins', 'black_wins', 'draw', 'black_forfeits'];
  const played = round.boards.filter((b) => b.black);
  for (const [i, board] of played.slice(0, -1).entries()) {
    await api('PUT', `/api/v1/boards/${board.id}/result`, { result: results[i % results.length], red_fouls: i === 1 ? 1 : 0 }, token);
  }
  // A second section that went on to a knockout stage (semi-finals, final, 3rd place).
  const ko = await api('POST', `/api/v1/tournaments/${open.id}/sections`, { name: '淘汰組', rounds: 1 }, token);
  for (const name of ['甲', '乙', '丙', '丁']) {
    await api('POST', `/api/v1/sections/${ko.id}/entrants`, { name: `選手${name}` }, token);
  }
  const koRound = await api('POST', `/api/v1/sections/${ko.id}/rounds`, undefined, token);
  await api('POST', `/api/v1/sections/${ko.id}/rounds/1/publish`, undefined, token);
  for (const board of koRound.boards) {
    await api('PUT', `/api/v1/boards/${board.id}/result`, { result: 'red_wins' }, token);
  }
  const bracket = await api('POST', `/api/v1/sections/${ko.id}/knockout`, { size: 4, best_of: 3, third_place: true }, token);
  await api('POST', `/api/v1/matches/${bracket.matches[0].id}/games`, { result: 'red_wins' }, token);
  // A team section (issue #41) in the other tournament, board 1 of each team named like a script: round 1
  // published with one board's result, for the crawl.
  const teams = await api('POST', `/api/v1/tournaments/${evil.id}/sections`, {
    name: '團體組', rounds: 2, entry_type: 'team', setup_mode: 'none', team: { boards: 2, reserves: 1 },
  }, token);
  for (const [i, name] of ['象棋隊', '棋院隊'].entries()) {
    await api('POST', `/api/v1/sections/${teams.id}/teams`, {
      name, captain_position: 1, roster: [EVIL, '乙', '丙'].map((p) => ({ name: p === EVIL ? `${EVIL}${i + 1}` : `隊員${i + 1}${p}` })),
    }, token);
  }
  await api('POST', `/api/v1/sections/${teams.id}/rounds`, undefined, token);
  await api('POST', `/api/v1/sections/${teams.id}/rounds/1/publish`, undefined, token);
  const [teamMatch] = await api('GET', `/api/v1/sections/${teams.id}/rounds/1/matches`, undefined, token);
  await api('PUT', `/api/v1/boards/${teamMatch.id}/games/1/result`, { result: 'red_wins' }, token);
  Object.assign(data, {
    teamSectionId: teams.id,
    knockoutId: ko.id,
    token, evilId: evil.id, tournamentId: open.id, sectionId: section.id,
    pendingBoard: played[played.length - 1].id,
  });
}

// ---------------------------------------------------------------- per-test page checks

const validated = new Set();
const pageProblems = [];

async function validateHtml(url, html) {
  const key = `${url}\n${html.length}`;
  if (validated.has(key)) return;
  validated.add(key);
  const report = await validator.validateString(html, url);
  if (!report.valid) {
    const lines = report.results.flatMap((r) =>
      r.messages.map((m) => `  ${m.line}:${m.column} ${m.ruleId}: ${m.message}`),
    );
    pageProblems.push(`invalid HTML at ${url}:\n${lines.join('\n')}`);
  }
}

/** A fresh context whose pages are watched for errors and whose documents are validated. */
async function newContext(browser, options, allowed) {
  const context = await browser.newContext({ locale: 'en-US', ...options });
  const watch = (page) => {
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      const text = msg.text();
      if (allowed.some((code) => text.includes(`status of ${code}`))) return;
      pageProblems.push(`console error at ${page.url()}: ${text}`);
    });
    page.on('pageerror', (err) => pageProblems.push(`page error at ${page.url()}: ${err}`));
    page.on('dialog', (d) => {
      pageProblems.push(`unexpected dialog at ${page.url()}: ${d.message()}`);
      d.dismiss().catch(() => {});
    });
    page.on('requestfailed', (req) => {
      const reason = req.failure()?.errorText ?? '';
      // Leaving a page aborts its pending requests (the icon, say): not a fault of the page.
      if (reason.includes('ERR_ABORTED')) return;
      pageProblems.push(`request failed: ${req.url()} ${reason}`);
    });
    page.on('response', async (res) => {
      const req = res.request();
      const isDocument = req.resourceType() === 'document';
      if (res.status() >= 400 && !(isDocument && allowed.includes(res.status()))) {
        pageProblems.push(`${res.status()} for ${res.url()}`);
      }
      if (isDocument && (res.headers()['content-type'] ?? '').startsWith('text/html')) {
        try {
          await validateHtml(res.url(), await res.text());
        } catch (err) {
          // A redirect has no body to read, and a document the test navigated away from
          // before its body was read is gone from the browser (other tests validate it);
          // anything else is worth knowing.
          const gone = String(err).includes('No resource with given identifier');
          if (!(res.status() >= 300 && res.status() < 400) && !gone) {
            pageProblems.push(`could not read ${res.url()}: ${err}`);
          }
        }
      }
    });
  };
  context.on('page', watch);
  return context;
}

// ---------------------------------------------------------------- tests

const tests = [];
function test(name, fn, { allow = [], context = {} } = {}) {
  tests.push({ name, fn, allow, context });
}

async function logIn(page, username = ADMIN.username, password = ADMIN.password) {
  await page.goto(`${base}/login`);
  await page.fill('#username', username);
  await page.fill('#password', password);
  await Promise.all([page.waitForURL(/\/admin$/), page.click('form.form button[type=submit]')]);
}

test('the home page lists tournaments in the language of Accept-Language', async ({ page }) => {
  await page.goto(`${base}/`);
  assert((await page.getAttribute('html', 'lang')) === 'en', 'expected English');
  assert((await page.textContent('h1')) === 'Tournaments', 'English heading');
  assert((await page.locator('table.list tbody tr').count()) === 2, 'two tournaments');
  assert((await page.textContent('table.list')).includes(EVIL), 'the script name is text');
}, { context: { locale: 'en-US' } });

test('a Chinese browser gets Traditional or Simplified Chinese', async ({ browser, allowed }) => {
  for (const [locale, lang, heading] of [['zh-TW', 'zh-Hant', '賽事'], ['zh-CN', 'zh-Hans', '赛事']]) {
    const context = await newContext(browser, { locale }, allowed);
    const page = await context.newPage();
    await page.goto(`${base}/`);
    assert((await page.getAttribute('html', 'lang')) === lang, `${locale} → ${lang}`);
    assert((await page.textContent('h1')) === heading, `${locale} heading`);
    await context.close();
  }
});

test('the language switch sets a cookie that later pages follow', async ({ page, context }) => {
  await page.goto(`${base}/login`);
  await Promise.all([page.waitForURL(/lang=zh-Hans/), page.click('nav.lang a[lang="zh-Hans"]')]);
  assert((await page.getAttribute('html', 'lang')) === 'zh-Hans', 'switched to zh-Hans');
  const cookies = await context.cookies();
  assert(cookies.some((c) => c.name === 'lang' && c.value === 'zh-Hans'), 'lang cookie set');
  await page.goto(`${base}/`);
  assert((await page.getAttribute('html', 'lang')) === 'zh-Hans', 'choice persists');
  assert((await page.textContent('h1')) === '赛事', 'Simplified heading');
  await page.click('nav.lang a[lang="zh-Hant"]');
  await page.waitForURL(/lang=zh-Hant/);
  assert((await page.textContent('h1')) === '賽事', 'Traditional heading');
});

test('an arbiter logs in, sees the dashboard and logs out', async ({ page, context }) => {
  await page.goto(`${base}/admin`);
  assert(page.url() === `${base}/login?next=%2Fadmin`, `redirected to login, got ${page.url()}`);
  await page.fill('#username', ADMIN.username);
  await page.fill('#password', ADMIN.password);
  await Promise.all([page.waitForURL(`${base}/admin`), page.click('form.form button[type=submit]')]);
  assert((await page.textContent('h1')) === 'Dashboard', 'dashboard heading');
  assert((await page.textContent('main')).includes(ADMIN.username), 'shows the user');
  const session = (await context.cookies()).find((c) => c.name === 'arbiter_session');
  assert(session && session.httpOnly && session.sameSite === 'Lax', 'HttpOnly SameSite=Lax session');
  const fromScript = await page.evaluate(() => document.cookie);
  assert(!fromScript.includes('arbiter_session'), 'session cookie hidden from scripts');

  await Promise.all([page.waitForURL(`${base}/`), page.click('nav.account button')]);
  assert(!(await context.cookies()).some((c) => c.name === 'arbiter_session'), 'cookie cleared');
  await page.goto(`${base}/admin`);
  assert(page.url().startsWith(`${base}/login`), 'logged out');
});

test('a wrong password is reported next to the field, the username kept', async ({ page }) => {
  await page.goto(`${base}/login`);
  await page.fill('#username', ADMIN.username);
  await page.fill('#password', 'not the password');
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    page.click('form.form button[type=submit]'),
  ]);
  assert(response.status() === 422, `422, got ${response.status()}`);
  await page.waitForSelector('#password-error');
  assert((await page.textContent('#password-error')).includes('Wrong username or password'), 'message');
  assert((await page.inputValue('#username')) === ADMIN.username, 'username kept');
  assert((await page.getAttribute('#password', 'aria-describedby')) === 'password-error', 'linked');
}, { allow: [422] });

test('a form with a tampered CSRF token is refused with a page', async ({ page }) => {
  await page.goto(`${base}/login`);
  await page.fill('#username', ADMIN.username);
  await page.fill('#password', ADMIN.password);
  await page.evaluate(() => {
    document.querySelector('input[name=csrf]').value = 'f'.repeat(64);
  });
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    page.click('form.form button[type=submit]'),
  ]);
  assert(response.status() === 403, `403, got ${response.status()}`);
  await page.waitForSelector('p.error');
  assert((await page.textContent('p.error')).includes('expired'), 'explains the refusal');
}, { allow: [403] });

test('a player named <script> shows as text, in public pages and the dashboard', async ({ page }) => {
  for (const path of ['/', '/admin']) {
    if (path === '/admin') await logIn(page);
    else await page.goto(`${base}${path}`);
    const names = await page.locator('table.list tbody td:first-child a').allTextContents();
    assert(names.includes(EVIL), `${path}: the name is shown as text (${names.join(' | ')})`);
    const injected = await page.evaluate(() => document.querySelectorAll('main script, main img').length);
    assert(injected === 0, `${path}: no element was injected`);
  }
});

test('pages fit a 360-px phone without sideways scrolling', async ({ page }) => {
  const visit = async (path, shot) => {
    await page.goto(`${base}${path}`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 360, `${path} is ${width}px wide`);
    await page.screenshot({ path: join(out, shot), fullPage: true });
  };
  await visit('/?lang=zh-Hant', 'home-360-zh-Hant.png');
  await visit('/login', 'login-360.png');
  await logIn(page);
  await visit('/admin', 'dashboard-360.png');
}, { context: { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } });

test('print view hides the navigation and makes an A4 PDF', async ({ page }) => {
  await page.goto(`${base}/?lang=zh-Hant`);
  await page.emulateMedia({ media: 'print' });
  const header = await page.evaluate(() => getComputedStyle(document.querySelector('header.site')).display);
  assert(header === 'none', `header hidden in print, display=${header}`);
  await page.screenshot({ path: join(out, 'home-print.png'), fullPage: true });
  await page.pdf({ path: join(out, 'home.pdf'), format: 'A4', printBackground: false });
});

test('unknown pages answer 404 with a page in the visitor language', async ({ page }) => {
  const response = await page.goto(`${base}/no/such/page`);
  assert(response.status() === 404, `404, got ${response.status()}`);
  assert((await page.textContent('h1')) === 'Page not found', 'English 404');
}, { allow: [404] });

test('a visitor follows a section from the tournament home through every tab', async ({ page }) => {
  await page.goto(`${base}/`);
  await Promise.all([page.waitForURL(/\/t\//), page.click('text=第一屆揭棋公開賽')]);
  assert((await page.getAttribute('html', 'lang')) === 'en', 'the visitor language beats the event default');
  // A running section opens on its /now page: the round being played.
  await Promise.all([page.waitForURL(/\/now$/), page.click('table.list td:first-child a')]);
  assert((await page.textContent('.bar h2')).trim() === 'Round 1', 'the round being played');
  await Promise.all([page.waitForURL(/\/entrants$/), page.click('nav.tabs >> text=Entrants')]);
  const names = await page.locator('table.list tbody td:nth-child(2)').allTextContents();
  assert(names.length === 13 && names.includes(EVIL), `13 entrants incl. the script name: ${names}`);
  assert(!(await page.content()).includes('@example.org'), 'no contact data');
  await Promise.all([page.waitForURL(/\/pairings\/1$/), page.click('nav.tabs >> text=Round 1')]);
  assert((await page.locator('table.pairings tbody tr').count()) === 7, 'six boards and the bye');
  assert((await page.textContent('table.pairings')).includes('Red wins'), 'a result');
  await Promise.all([page.waitForURL(/\/standings$/), page.click('nav.tabs >> text=Standings')]);
  assert((await page.textContent('main')).includes('provisional'), 'one result is missing');
  await Promise.all([page.waitForURL(/\/crosstable$/), page.click('nav.tabs >> text=Crosstable')]);
  assert((await page.locator('table.crosstable tbody tr').count()) === 13, 'crosstable lines');
});

test('section pages fit a 360-px phone (tables scroll inside their box)', async ({ page }) => {
  const s = data.sectionId;
  for (const [path, shot] of [
    [`/t/${data.tournamentId}`, 'tournament-360.png'],
    [`/s/${s}/entrants`, 'entrants-360.png'],
    [`/s/${s}/pairings/1`, 'pairings-360.png'],
    [`/s/${s}/standings`, 'standings-360.png'],
    [`/s/${s}/crosstable`, 'crosstable-360.png'],
  ]) {
    await page.goto(`${base}${path}`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 360, `${path} is ${width}px wide`);
    await page.screenshot({ path: join(out, shot), fullPage: true });
  }
}, { context: { locale: 'zh-TW', viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } });

test('print views make clean A4 PDFs without the page chrome', async ({ page }) => {
  const s = data.sectionId;
  for (const [path, name] of [
    [`/s/${s}/entrants/print`, 'entrants'],
    [`/s/${s}/pairings/1/print`, 'pairings-r1'],
    [`/s/${s}/standings/print`, 'standings'],
    [`/s/${s}/crosstable/print`, 'crosstable'],
  ]) {
    await page.goto(`${base}${path}`);
    await page.emulateMedia({ media: 'screen' });
    assert(await page.isVisible('button[data-print]'), `${path}: the print button is shown on screen`);
    await page.emulateMedia({ media: 'print' });
    const bar = await page.evaluate(() => getComputedStyle(document.querySelector('.print-bar')).display);
    assert(bar === 'none', `${path}: the print bar is hidden on paper`);
    assert((await page.textContent('h1')) === '第一屆揭棋公開賽', `${path}: heading`);
    await page.screenshot({ path: join(out, `${name}-print.png`), fullPage: true });
    await page.pdf({ path: join(out, `${name}.pdf`), format: 'A4' });
  }
}, { context: { locale: 'zh-TW' } });

test('a player registers on a phone; a missing name is reported next to the field', async ({ page }) => {
  await page.goto(`${base}/t/${data.tournamentId}/register`);
  assert((await page.getAttribute('html', 'lang')) === 'zh-Hant', 'Traditional Chinese');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert(width <= 360, `the form is ${width}px wide`);
  await page.screenshot({ path: join(out, 'register-360.png'), fullPage: true });
  // The browser's own check would stop an empty name; switch it off to reach the server's.
  await page.selectOption('#section_id', { label: '公開組' });
  await page.evaluate(() => document.querySelector('#name').removeAttribute('required'));
  await page.fill('#club', '多倫多棋會');
  const [rejected] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    page.click('form.form button[type=submit]'),
  ]);
  assert(rejected.status() === 422, `422, got ${rejected.status()}`);
  await page.waitForSelector('#name-error');
  assert((await page.inputValue('#club')) === '多倫多棋會', 'the club is kept');
  await page.fill('#name', '新選手');
  await page.selectOption('#gender', 'f');
  await page.fill('#email', 'new@example.org');
  const [done] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    page.click('form.form button[type=submit]'),
  ]);
  assert(done.status() === 201, `201, got ${done.status()}`);
  await page.waitForSelector('p.done');
  assert((await page.textContent('p.done')).includes('報名成功'), 'confirmed');
  await page.click('text=參賽名單');
  await page.waitForURL(/\/entrants$/);
  assert((await page.textContent('table.list')).includes('新選手'), 'listed');
  assert(!(await page.content()).includes('new@example.org'), 'no contact data');
}, { allow: [422], context: { locale: 'zh-TW', viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } });

test('standings update in place when a result comes in', async ({ page }) => {
  await page.goto(`${base}/s/${data.sectionId}/standings`);
  assert((await page.textContent('main')).includes('provisional'), 'a result is missing');
  assert((await page.getAttribute('main', 'data-live')) === '15', 'live page');
  await api('PUT', `/api/v1/boards/${data.pendingBoard}/result`, { result: 'draw' }, data.token);
  // An anonymous live page is at most about a second behind a result (#38): poll as the
  // page's own timer would, a little more often.
  let changed = false;
  for (let i = 0; i < 30 && changed !== true; i++) {
    changed = await page.evaluate(() => window.arbiterRefreshLive());
    if (changed !== true) await page.waitForTimeout(100);
  }
  assert(changed === true, 'the page content changed');
  assert(!(await page.textContent('main')).includes('provisional'), 'now final');
  assert(page.url().endsWith('/standings'), 'no navigation');
});

test('the bracket shows on a phone and prints on A4', async ({ page }) => {
  await page.goto(`${base}/s/${data.knockoutId}/bracket`);
  assert((await page.textContent('main')).includes('準決賽'), 'semi-finals');
  assert((await page.textContent('main')).includes('季軍賽'), '3rd-place match');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert(width <= 360, `the bracket is ${width}px wide`);
  await page.screenshot({ path: join(out, 'bracket-360.png'), fullPage: true });
  await page.click('a.print-link');
  await page.waitForURL(/\/bracket\/print$/);
  await page.emulateMedia({ media: 'print' });
  await page.pdf({ path: join(out, 'bracket.pdf'), format: 'A4' });
  await page.screenshot({ path: join(out, 'bracket-print.png'), fullPage: true });
}, { context: { locale: 'zh-TW', viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } });

test('an arbiter creates an event and runs round 1 from the desk', async ({ page }) => {
  await logIn(page);
  await Promise.all([page.waitForURL(/\/admin\/tournaments\/new$/), page.click('text=New tournament')]);
  await page.fill('#name', 'Desk Cup');
  await page.selectOption('#game', 'jieqi');
  await Promise.all([page.waitForURL(/\/admin\/t\//), page.click('form.form button[type=submit]')]);
  await page.fill('#name', 'Open');
  await page.fill('#rounds', '3');
  await Promise.all([page.waitForURL(/\/admin\/s\//), page.click('form.form button[type=submit]')]);
  for (const name of ['Ann', 'Bob', 'Cy', 'Di']) {
    await page.fill('#name', name);
    await Promise.all([page.waitForURL(/\/entrants\?added=/), page.click('form.form button[type=submit]')]);
  }
  // Pairing and the boards' result forms are on the rounds tab.
  await Promise.all([page.waitForURL(/\/rounds$/), page.click('#tab-rounds')]);
  await Promise.all([page.waitForURL(/\/rounds\?done=paired$/), page.click('text=Pair the next round')]);
  // Results are taken once the round is published (issue #35).
  await Promise.all([page.waitForURL(/\/rounds\/1\/publish$/), page.click('#publish-1')]);
  await Promise.all([page.waitForURL(/done=published/), page.click('#confirm-button')]);
  await Promise.all([page.waitForURL(/\/rounds$/), page.click('#tab-rounds')]);
  assert((await page.locator('form.result-form').count()) === 2, 'two boards to enter');
  await page.screenshot({ path: join(out, 'desk.png'), fullPage: true });
  const first = page.locator('form.result-form').first();
  await first.locator('select[name=result]').selectOption('draw');
  await Promise.all([page.waitForURL(/\/rounds\?done=result$/), first.locator('button').click()]);
  assert((await page.locator('form.result-form select[name=result]').first().inputValue()) === 'draw', 'saved');
  await page.setViewportSize({ width: 360, height: 740 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert(width <= 360, `the desk is ${width}px wide on a phone`);
  await page.screenshot({ path: join(out, 'desk-360.png'), fullPage: true });
});

// ---------------------------------------------------------------- runner

registerDashboardTests({ test, logIn, assert, base: () => base, out, join });
registerPrintTests({ test, logIn, assert, api, data, base: () => base, out, join, EVIL });
registerStaffTests({ test, logIn, assert, api, admin: ADMIN, base: () => base, out, join });
registerRecordTests({ test, logIn, assert, api, admin: ADMIN, base: () => base, out, join });
registerReportTests({ test, logIn, assert, api, admin: ADMIN, base: () => base, out, join, newContext });
registerKeyTests({ test, logIn, assert, api, admin: ADMIN, base: () => base, out, join, newContext });
registerPushTests({ test, assert, api, admin: ADMIN, base: () => base });
registerScreenTests({ test, assert, api, admin: ADMIN, base: () => base, out, join });
registerPlayerTests({ test, assert, api, admin: ADMIN, base: () => base, out, join });
registerSeed000Tests({ test, logIn, assert, base: () => base, out, join });
registerSeed001Tests({ test, logIn, assert, base: () => base, out, join });
registerDeskTests({ test, logIn, assert, api, admin: ADMIN, base: () => base, out, join });
registerWalkInTests({ test, logIn, assert, api, admin: ADMIN, base: () => base, out, join });
registerTeamTests({ test, logIn, assert, api, admin: ADMIN, base: () => base, out, join });
registerTeamRegisterTests({ test, assert, api, admin: ADMIN, base: () => base, out, join });
const teamPages = registerTeamPublicTests({ test, assert, api, admin: ADMIN, base: () => base, out, join, EVIL });
// Last: it crawls what the tests before it made.
registerCrawlTests({ test, logIn, assert, base: () => base, EVIL, seeded: () => data, teamPages });

async function main() {
  let passed = 0;
  let failed = 0;
  let browser;
  try {
    await startServer();
    await seed();
    browser = await chromium.launch({
      executablePath,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      // playwright starts Chromium with a new, empty profile folder of its own.

    });
  } catch (err) {
    console.error(`set-up failed: ${err.stack ?? err}`);
    stopServer();
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  for (const t of tests) {
    if (only && !t.name.includes(only)) continue;
    pageProblems.length = 0;
    const allowed = t.allow;
    const context = await newContext(browser, t.context, allowed);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    let error;
    try {
      await t.fn({ page, context, browser, allowed });
      // Let late console messages and response handlers run.
      await sleep(100);
    } catch (err) {
      error = err;
    }
    if (!error && pageProblems.length) error = new Error(pageProblems.join('\n'));
    if (error) {
      await page.screenshot({ path: join(out, `failed-${failed + 1}.png`) }).catch(() => {});
    }
    await context.close();
    if (error) {
      failed++;
      console.log(`not ok - ${t.name}\n  ${String(error.stack ?? error).split('\n').join('\n  ')}`);
    } else {
      passed++;
      console.log(`ok - ${t.name}`);
    }
  }
  await browser.close();
  stopServer();
  if (failed) console.log(`server log:\n${serverLog}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

process.on('SIGINT', () => {
  stopServer();
  process.exit(130);
});
main().catch((err) => {
  console.error(err);
  stopServer();
  console.log('0 passed, 1 failed');
  process.exit(1);
});
