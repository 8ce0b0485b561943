// Progressive enhancement only: every page works without this file.
'use strict';

/* Live public pages (SPEC §11): pairings, results and standings change during a round. The
 * live part of the page (`main[data-live]`) is fetched again every `data-live` seconds (or
 * `?live=SECONDS`, used by the browser tests) and swapped in place, without reloading the
 * page. Polls send the page's last ETag as If-None-Match: while nothing changed the server
 * answers a bodiless 304, so an idle page costs almost nothing. The new HTML is the server's
 * own escaped rendering, parsed inertly by DOMParser. */
let liveTag = null;

/** Fetches the page once and swaps the live part if it changed; resolves to true then. */
async function refreshLive() {
  const live = document.querySelector('main[data-live]');
  if (!live) return false;
  const headers = liveTag ? { 'If-None-Match': liveTag } : {};
  // no-store: the browser's cache stays out of it, so a 304 reaches us as a 304.
  const response = await fetch(window.location.href, {
    cache: 'no-store',
    credentials: 'same-origin',
    headers,
  });
  if (response.status === 304 || !response.ok) return false;
  const text = await response.text();
  liveTag = response.headers.get('ETag');
  const doc = new DOMParser().parseFromString(text, 'text/html');
  const fresh = doc.querySelector('main[data-live]');
  if (!fresh || fresh.innerHTML === live.innerHTML) return false;
  live.replaceChildren(...Array.from(fresh.childNodes, (node) => document.importNode(node, true)));
  if (doc.title) document.title = doc.title;
  return true;
}

/** Seconds between polls: `?live=N` (1–3600), else the page's `data-live`, else 15. */
function liveInterval(live) {
  const asked = Number(new URLSearchParams(window.location.search).get('live'));
  if (Number.isFinite(asked) && asked >= 1 && asked <= 3600) return asked;
  const given = Number(live.dataset.live);
  return Number.isFinite(given) && given >= 5 ? given : 15;
}

function startLive(live) {
  const seconds = liveInterval(live);
  let timer = null;
  const schedule = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(tick, seconds * 1000);
  };
  // One poll at a time: the next is scheduled when this one is done.
  const tick = () => {
    // A hidden tab (a phone in a pocket) does not poll; it catches up when shown again.
    if (document.hidden) return;
    refreshLive().catch(() => {}).finally(schedule);
  };
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) tick();
  });
  schedule();
}

/* Revealed set-ups (SPEC §9): the browser recomputes SHA-256(set-up ":" salt) and says whether
 * it matches the commitment published before the round. SubtleCrypto exists only in secure
 * contexts (HTTPS, localhost); elsewhere the page keeps its instructions for doing it by hand. */
async function verifySetups() {
  if (!window.crypto?.subtle) return;
  for (const el of document.querySelectorAll('[data-verify-text]')) {
    const bytes = new TextEncoder().encode(el.dataset.verifyText);
    const digest = await window.crypto.subtle.digest('SHA-256', bytes);
    const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
    const ok = hex === el.dataset.verifyCommitment;
    const out = el.querySelector('.verify-result');
    out.textContent = ok ? el.dataset.verifyOk : el.dataset.verifyBad;
    el.classList.add(ok ? 'verified' : 'mismatch');
  }
}

/* The desk's queue of players' reports: the A key accepts the first agreed report (its button
 * carries data-accept-key), unless the arbiter is typing somewhere. The button is found when the
 * key is pressed, so it works after the live part of the page was swapped. */
document.addEventListener('keydown', (event) => {
  if (event.key !== 'a' && event.key !== 'A') return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && (target.isContentEditable || target.closest('input, textarea, select'))) return;
  const button = document.querySelector('button[data-accept-key]');
  if (!button) return;
  event.preventDefault();
  button.click();
});

/* The big screen: the next slide after data-seconds (or ?seconds=N, kept along, for tests and
 * for venues that want another pace), and the round clock ticking from data-clock-start. */
function startScreen(main) {
  const params = new URLSearchParams(window.location.search);
  const asked = Number(params.get('seconds'));
  const seconds = asked >= 1 && asked <= 3600 ? asked : Number(main.dataset.seconds) || 15;
  let next = main.dataset.next;
  if (params.has('seconds')) next += `&seconds=${seconds}`;
  window.setTimeout(() => window.location.replace(next), seconds * 1000);
}

function startClocks() {
  const clocks = document.querySelectorAll('[data-clock-start], [data-countdown-to]');
  if (!clocks.length) return;
  const tick = () => {
    for (const el of clocks) {
      // A running clock counts up from its start; a countdown (issue #37) down to its time.
      const up = el.dataset.clockStart !== undefined;
      const at = Date.parse(up ? el.dataset.clockStart : el.dataset.countdownTo);
      if (Number.isNaN(at)) continue;
      const secs = Math.max(0, Math.floor((up ? Date.now() - at : at - Date.now()) / 1000));
      const mm = String(Math.floor(secs / 60) % 60).padStart(2, '0');
      const ss = String(secs % 60).padStart(2, '0');
      el.textContent = `${Math.floor(secs / 3600)}:${mm}:${ss}`;
      // A round whose set length has run out says so (the hall sees time is up).
      if (el.dataset.roundEnd !== undefined) el.closest('.screen-clock')?.classList.toggle('over', secs === 0);
    }
  };
  tick();
  window.setInterval(tick, 1000);
}

document.addEventListener('DOMContentLoaded', () => {
  const screen = document.querySelector('main[data-next]');
  if (screen) startScreen(screen);
  startClocks();
  // Calendar links (issue #37): a path becomes webcal:// on this page's host.
  for (const a of document.querySelectorAll('a[data-webcal]')) {
    const path = a.getAttribute('href');
    if (path && path.startsWith('/')) a.href = `webcal://${window.location.host}${path}`;
  }
  verifySetups().catch(() => {});
  // Print buttons of the print views (hidden until a script can make them work).
  for (const button of document.querySelectorAll('button[data-print]')) {
    button.hidden = false;
    button.addEventListener('click', () => window.print());
  }
  const live = document.querySelector('main[data-live]');
  if (live) startLive(live);
});

// For the browser tests: refresh now instead of waiting for the timer.
window.arbiterRefreshLive = refreshLive;
