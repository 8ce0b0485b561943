// A crawl of every page a visitor and an arbiter can reach by following links, after the other
// tests have filled the database: each page must answer 200, pass the harness's checks (valid
// HTML, no console errors, no failed subresources) and show the script-named player as text.
// It catches the page nobody thought to test. Not run on its own: run.mjs registers it last with
//
//   import { registerCrawlTests } from './crawl.mjs';
//   registerCrawlTests({ test, logIn, assert, base: () => base, EVIL });

import { readFileSync } from 'node:fs';

const MAX_PAGES = 400;

// What a Chinese page must not show as text (issue #15): the tiebreaks' codes, the internal
// words (preset keys, result codes, statuses: all snake_case), and the services' English
// messages. Codes may stay as tooltips (`title`), which are no visible text.
const TIEBREAK_CODES = /\b(OPP|BH|SB|PS|WIN|WON|BPG|BWG|DE|FOULS|PREV|CUT_EARLY|RTNG|LOT)\b/;
const INTERNAL_WORD = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/;
const RESULT_WORDS = /\b(red_wins|black_wins|draw|red_forfeits|black_forfeits|double_forfeit|double_loss|published|paired|completed|withdrawn|cancelled)\b/;
// A small English word and two more lowercase words: a sentence, not a name (names are
// capitalised) nor the board's file letters (a b c …).
// The words of the set-up diagram's English legend (issue #39 item 8).
const LEGEND_WORDS = /\b(river|chariot|upper case|lower case|Legend)\b/;
// Simplified-only forms of the pieces and the record help, on a traditional-Chinese page.
const SIMPLIFIED_PIECES = /[将帅]|马二进/;
const ENGLISH_RUN = /\b(?:the|a|an|is|are|not|no|be|to|of|in|on|at|for|with|and|or|has|have|was|this|that|must|can|cannot|already)(?: [a-z']{2,}){2,}/;

/** The fixed pieces of the services' messages (`src/i18n/messages.rs`) of two words or more:
 *  the English text of each `NAME = "key": "English" | "zh-Hant" | "zh-Hans";` of the
 *  `messages!` catalogue. */
function messagePieces() {
  const source = readFileSync(new URL('../../src/i18n/messages.rs', import.meta.url), 'utf8');
  const pieces = new Set();
  let texts = 0;
  for (const [, english] of source.matchAll(/^\s*[A-Z][A-Z0-9_]* = "[a-z0-9_.]+":\s*"((?:[^"\\]|\\.)*)"/gm)) {
    texts += 1;
    for (const piece of english.split('{}')) {
      const trimmed = piece.trim().replace(/^[.,:;]+|[.,:;]+$/g, '').trim();
      if (/^[A-Za-z'-]+(?: [A-Za-z'-]+)+$/.test(trimmed)) pieces.add(trimmed);
    }
  }
  // The catalogue's shape is what this reads: a changed shape must not empty the check.
  if (texts < 150) throw new Error(`read only ${texts} messages from src/i18n/messages.rs`);
  return [...pieces];
}
const PER_KIND = 2;

/** A URL's route: ids and numbers replaced, query values dropped. */
function shape(url) {
  const path = url.pathname
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '{id}')
    .replace(/\/\d+(?=\/|$)/g, '/{n}');
  const keys = [...url.searchParams.keys()].sort().join('&');
  return `${path}?${keys}`;
}

export function registerCrawlTests({ test, logIn, assert, base, EVIL, seeded = () => undefined, teamPages = () => [] }) {
  /** Follows same-site links from `start`; returns the paths visited. `inspect(page, path)`
   *  runs on every HTML page. */
  async function crawl(page, start, skip, inspect = async () => {}) {
    const origin = new URL(base()).origin;
    const queue = Array.isArray(start) ? [...start] : [start];
    const seen = new Set(queue);
    const kinds = new Map();
    const visited = [];
    while (queue.length && visited.length < MAX_PAGES) {
      const path = queue.shift();
      const response = await page.goto(`${origin}${path}`);
      assert(response, `${path}: no response`);
      assert(response.status() === 200, `${path}: status ${response.status()}`);
      visited.push(path);
      if (!(response.headers()['content-type'] ?? '').startsWith('text/html')) continue;
      const html = await response.text();
      assert(!html.includes(EVIL), `${path}: the script name is in the page unescaped`);
      const injected = await page.evaluate(
        () => document.querySelectorAll('script:not([src]), img[src="x"]').length,
      );
      assert(injected === 0, `${path}: an element was injected`);
      await inspect(page, path);
      // A link with `download` saves a file (the event's JSON): not a page to visit.
      const links = await page.$$eval('a[href]:not([download])', (as) => as.map((a) => a.href));
      for (const href of links) {
        const url = new URL(href, `${origin}${path}`);
        if (url.origin !== origin) continue;
        const next = url.pathname + url.search;
        if (skip.some((s) => (typeof s === 'string' ? url.pathname.startsWith(s) : s(url))) || seen.has(next)) continue;
        seen.add(next);
        // Two pages of each kind (the same route and query keys) are enough: the third
        // round's pairings are rendered by the same code as the first's.
        const kind = shape(url);
        const count = kinds.get(kind) ?? 0;
        if (count >= PER_KIND) continue;
        kinds.set(kind, count + 1);
        queue.push(next);
      }
    }
    assert(queue.length === 0, `more than ${MAX_PAGES} pages: raise MAX_PAGES`);
    return { visited, kinds: kinds.size };
  }

  // The API's downloads, the static files and logging out are not pages. Language links are
  // followed like any other: each kind of page is then seen in every language.
  // Calendar files (webcal/ICS) are downloads for a calendar program, not pages.
  const skip = ['/api/', '/static/', '/logout', '/login', (url) => url.pathname.endsWith('.ics')];

  test('every page a visitor reaches by links is valid and shows a script name as text', async ({ page }) => {
    // From the home page, from the seeded team section's round (issue #41), whose pages'
    // kinds the many other sections would otherwise fill first, and from a team section's
    // crosstable and screen when a test made one.
    const teamSection = seeded()?.teamSectionId;
    const { visited, kinds } = await crawl(page, ['/', ...(teamSection ? [`/s/${teamSection}/pairings/1`] : []), ...teamPages()], skip);
    if (teamSection) {
      for (const kind of [`/s/${teamSection}/standings`, `/s/${teamSection}/match-slips/1/print`, `/s/${teamSection}/board-rankings`]) {
        assert(visited.includes(kind), `the team section's public ${kind} not reached`);
      }
    }
    console.log(`  (${visited.length} public pages of ${kinds} kinds)`);
    assert(visited.length >= 20, `only ${visited.length} public pages reached`);
    for (const start of teamPages()) {
      const section = start.split('/')[2];
      for (const tab of ['crosstable', 'crosstable/print', 'standings', 'board-rankings']) {
        assert(visited.includes(`/s/${section}/${tab}`), `the team section's ${tab} page was not reached`);
      }
    }
    assert(!visited.some((p) => p.startsWith('/admin')), 'the public pages link into the dashboard');
  });

  test('every dashboard page an arbiter reaches by links is valid and shows a script name as text', async ({ page }) => {
    await logIn(page);
    // From the dashboard, and from the seeded section's rounds tab: other tests' events come
    // first in the dashboard's list, and two pages of each kind are all the crawl takes.
    // The seeded team section (issue #41) before it: its round's desk pages (line-ups, the
    // matches' board results) are of kinds the individual sections also have.
    const teamSection = seeded()?.teamSectionId;
    const starts = [
      '/admin',
      ...(teamSection ? [`/admin/s/${teamSection}/rounds`] : []),
      ...(seeded()?.sectionId ? [`/admin/s/${seeded().sectionId}/rounds`] : []),
    ];
    const { visited, kinds } = await crawl(page, starts, skip);
    console.log(`  (${visited.length} pages of ${kinds} kinds)`);
    const admin = visited.filter((p) => p.startsWith('/admin'));
    assert(admin.length >= 20, `only ${admin.length} dashboard pages reached`);
    for (const kind of ['/settings', '/results', '/setup/print', '/desk/print', '/playoff']) {
      assert(admin.some((p) => p.includes(kind)), `no ${kind} page reached`);
    }
    if (teamSection) {
      for (const kind of [`/admin/s/${teamSection}/rounds/1/results`, `/admin/s/${teamSection}/rounds/1/lineups`].concat([`/s/${teamSection}/match-slips/1/print`])) {
        assert(visited.includes(kind), `the team section's ${kind} not reached`);
      }
    }
    // Every tab of the section desk (issue #15), reached through the tab bar.
    for (const tab of ['entrants', 'registrations', 'byes', 'rounds', 'standings', 'knockout', 'prizes']) {
      const address = new RegExp(`^/admin/s/[^/]+/${tab}(\\?|$)`);
      assert(admin.some((p) => address.test(p)), `no ${tab} tab reached`);
    }
  });

  // In each Chinese language, every page by links, public and dashboard, with the language
  // links left alone: no code, internal word or English sentence as visible text.
  const pieces = messagePieces();
  const inChinese = (found, lang) => async (page, path) => {
    const text = await page.evaluate(() => document.body.innerText);
    for (const [what, pattern] of [
      ['a set-up legend word', LEGEND_WORDS],
      ...(lang === 'zh-Hant' ? [['a simplified piece or record form', SIMPLIFIED_PIECES]] : []),
      ['a tiebreak code', TIEBREAK_CODES],
      ['an internal word', INTERNAL_WORD],
      ['a result or status word', RESULT_WORDS],
      ['an English sentence', ENGLISH_RUN],
    ]) {
      const hit = text.match(pattern);
      if (hit) found.push(`${path}: ${what} "${hit[0]}"`);
    }
    for (const piece of pieces) {
      if (text.includes(piece)) found.push(`${path}: the English message text "${piece}"`);
    }
  };
  const otherLanguage = (url) => url.searchParams.has('lang');
  for (const [locale, lang] of [['zh-TW', 'zh-Hant'], ['zh-CN', 'zh-Hans']]) {
    test(`every page in ${lang} shows words, not codes or English`, async ({ page }) => {
      await logIn(page);
      const found = [];
      const publicPages = await crawl(page, ['/', ...teamPages()], [...skip, otherLanguage], inChinese(found, lang));
      const admin = await crawl(page, '/admin', [...skip, otherLanguage], inChinese(found, lang));
      console.log(`  (${publicPages.visited.length} public and ${admin.visited.length} dashboard pages in ${lang})`);
      assert(admin.visited.length >= 20, `only ${admin.visited.length} dashboard pages reached`);
      assert(found.length === 0, `${found.length} finds:\n${[...new Set(found)].slice(0, 80).join('\n')}`);
    }, { context: { locale } });
  }
}
