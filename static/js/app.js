// Progressive enhancement only: every page works without this file.
'use strict';

/** Reloads the live part of the page (`main[data-live]`) in place, for pairings, results and
 *  standings that change during a round (SPEC §11). The new HTML is the server's own escaped
 *  rendering, parsed inertly by DOMParser. Resolves to true when the content changed. */
async function refreshLive() {
  const live = document.querySelector('main[data-live]');
  if (!live) return false;
  const response = await fetch(window.location.href, { cache: 'no-store', credentials: 'same-origin' });
  if (!response.ok) return false;
  const fresh = new DOMParser()
    .parseFromString(await response.text(), 'text/html')
    .querySelector('main[data-live]');
  if (!fresh || fresh.innerHTML === live.innerHTML) return false;
  live.replaceChildren(...Array.from(fresh.childNodes, (node) => document.importNode(node, true)));
  return true;
}

document.addEventListener('DOMContentLoaded', () => {
  // Print buttons of the print views (hidden until a script can make them work).
  for (const button of document.querySelectorAll('button[data-print]')) {
    button.hidden = false;
    button.addEventListener('click', () => window.print());
  }
  const live = document.querySelector('main[data-live]');
  if (live) {
    const seconds = Math.max(10, Number(live.dataset.live) || 30);
    window.setInterval(() => {
      // A hidden tab (a phone in a pocket) does not poll.
      if (!document.hidden) refreshLive().catch(() => {});
    }, seconds * 1000);
  }
});

// For the browser tests: refresh now instead of waiting for the timer.
window.arbiterRefreshLive = refreshLive;
