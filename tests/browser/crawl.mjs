// A crawl of every page a visitor and an arbiter can reach by following links, after the other
// tests have filled the database: each page must answer 200, pass the harness's checks (valid
// HTML, no console errors, no failed subresources) and show the script-named player as text.
// It catches the page nobody thought to test. Not run on its own: run.mjs registers it last with
//
//   import { registerCrawlTests } from './crawl.mjs';
//   registerCrawlTests({ test, logIn, assert, base: () => base, EVIL });

const MAX_PAGES = 400;
const PER_KIND = 2;

/** A URL's route: ids and numbers replaced, query values dropped. */
function shape(url) {
  const path = url.pathname
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '{id}')
    .replace(/\/\d+(?=\/|$)/g, '/{n}');
  const keys = [...url.searchParams.keys()].sort().join('&');
  return `${path}?${keys}`;
}

export function registerCrawlTests({ test, logIn, assert, base, EVIL }) {
  /** Follows same-site links from `start`; returns the paths visited. */
  async function crawl(page, start, skip) {
    const origin = new URL(base()).origin;
    const queue = [start];
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
      // A link with `download` saves a file (the event's JSON): not a page to visit.
      const links = await page.$$eval('a[href]:not([download])', (as) => as.map((a) => a.href));
      for (const href of links) {
        const url = new URL(href, `${origin}${path}`);
        if (url.origin !== origin) continue;
        const next = url.pathname + url.search;
        if (skip.some((s) => url.pathname.startsWith(s)) || seen.has(next)) continue;
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
  const skip = ['/api/', '/static/', '/logout', '/login'];

  test('every page a visitor reaches by links is valid and shows a script name as text', async ({ page }) => {
    const { visited, kinds } = await crawl(page, '/', skip);
    console.log(`  (${visited.length} public pages of ${kinds} kinds)`);
    assert(visited.length >= 20, `only ${visited.length} public pages reached`);
    assert(!visited.some((p) => p.startsWith('/admin')), 'the public pages link into the dashboard');
  });

  test('every dashboard page an arbiter reaches by links is valid and shows a script name as text', async ({ page }) => {
    await logIn(page);
    const { visited, kinds } = await crawl(page, '/admin', skip);
    console.log(`  (${visited.length} pages of ${kinds} kinds)`);
    const admin = visited.filter((p) => p.startsWith('/admin'));
    assert(admin.length >= 20, `only ${admin.length} dashboard pages reached`);
    for (const kind of ['/settings', '/results', '/setup/print', '/desk/print', '/playoff']) {
      assert(admin.some((p) => p.includes(kind)), `no ${kind} page reached`);
    }
    // Every tab of the section desk (issue #15), reached through the tab bar.
    for (const tab of ['entrants', 'registrations', 'byes', 'rounds', 'standings', 'knockout', 'prizes']) {
      const address = new RegExp(`^/admin/s/[^/]+/${tab}(\\?|$)`);
      assert(admin.some((p) => address.test(p)), `no ${tab} tab reached`);
    }
  });
}
