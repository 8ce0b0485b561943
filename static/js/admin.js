// The dashboard's fast result entry (progressive enhancement: the server reads the same line,
// so the form works without this file). While the arbiter types "3 1", "7=", "12 0 2 0" …
// the line is previewed ("3: P1 – P2 → Red wins", in the page's words, which the preview
// element carries) and the board's row highlighted; Escape clears the line. Enter submits the
// form as usual.
'use strict';

(() => {
  // The line's result marks and the data attributes of the preview that name them.
  const MARKS = { '1': 'resultRed', '=': 'resultDraw', '0': 'resultBlack', '+': 'resultPlus', '-': 'resultMinus' };

  /** Reads "BOARD RESULT [RED BLACK]" like the server does; null while incomplete. */
  function parse(line) {
    const m = /^\s*(\d+)\s*([10=+-])?\s*(?:(\d+)[\s/,]+(\d+))?\s*$/.exec(line);
    if (!m) return null;
    return { board: m[1], result: m[2] || null, fouls: m[3] !== undefined ? [m[3], m[4]] : null };
  }

  function setUp(form) {
    const input = form.querySelector('input[name="line"]');
    const preview = form.querySelector('.preview');
    if (!input || !preview) return;
    let marked = null;
    const update = () => {
      if (marked) marked.classList.remove('target');
      marked = null;
      const parsed = parse(input.value);
      if (!parsed) { preview.textContent = ''; return; }
      const row = document.getElementById(`board-${parsed.board}`);
      if (!row) { preview.textContent = `${parsed.board}: ?`; return; }
      marked = row;
      row.classList.add('target');
      const names = `${row.dataset.red || ''} – ${row.dataset.black || ''}`;
      const result = parsed.result ? ` → ${preview.dataset[MARKS[parsed.result]] || parsed.result}` : '';
      const fouls = parsed.fouls ? ` (${parsed.fouls[0]} / ${parsed.fouls[1]})` : '';
      preview.textContent = `${parsed.board}: ${names}${result}${fouls}`;
    };
    input.addEventListener('input', update);
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') { input.value = ''; update(); }
    });
    // After a save the page comes back with the line field focused (autofocus); select what
    // is there so the next board can be typed straight over it.
    input.select();
    update();
  }

  document.addEventListener('DOMContentLoaded', () => {
    const form = document.getElementById('quick-entry');
    if (form) setUp(form);
  });
})();

// Check-in at the desk (issue #15; progressive enhancement: without this file the search box
// is a GET filter and the selection posts as it is). The search filters the entrants table as
// the arbiter types, the count follows the rows shown, and a box in the header ticks every
// row shown. The list follows check-ins made elsewhere (players with their keys, another desk;
// issue #36): every few seconds the tab is fetched again and each changed row is swapped in
// place, keeping the arbiter's ticks, and a row the arbiter is using is left until next time.
(() => {
  const input = document.querySelector('[data-entrant-filter]');
  const body = document.querySelector('tbody[data-live-rows]');
  const rows = () => Array.from(document.querySelectorAll('tr[data-entrant-row]'));
  if (!input || rows().length === 0) return;
  const count = document.querySelector('[data-checkin-count]');
  const template = count ? count.textContent.replace(/\d+\s*\/\s*\d+/, '{}') : '';
  // The server's rule (entrants::matches_query): part of a name or club, or the number itself.
  const halfWidth = (text) => text.replace(/[０-９＃]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xFEE0));
  const fits = (row, query) => {
    if (!query) return true;
    const text = row.dataset.search || '';
    const no = query.replace(/^#/, '').replace(/^0+/, '');
    return text.includes(query) || (no !== '' && /^\d+$/.test(no) && row.dataset.no === no);
  };
  const update = () => {
    const query = halfWidth(input.value.trim()).toLowerCase();
    let active = 0;
    let present = 0;
    for (const row of rows()) {
      const shown = fits(row, query);
      row.hidden = !shown;
      if (shown && row.hasAttribute('data-active')) {
        active += 1;
        if (row.hasAttribute('data-present')) present += 1;
      }
    }
    if (count && template.includes('{}')) count.textContent = template.replace('{}', `${present} / ${active}`);
  };
  input.addEventListener('input', update);
  const all = document.querySelector('[data-select-all]');
  if (all) {
    all.hidden = false;
    all.addEventListener('change', () => {
      for (const row of rows()) {
        const box = row.querySelector('input[type="checkbox"][name="entrant[]"]');
        if (box && !row.hidden) box.checked = all.checked;
      }
    });
  }
  if (!body) return;
  const refresh = async () => {
    const response = await fetch(window.location.href, { cache: 'no-store', credentials: 'same-origin' });
    if (!response.ok) return;
    const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
    const freshBody = doc.querySelector('tbody[data-live-rows]');
    if (!freshBody) return;
    const current = new Map(rows().map((row) => [row.dataset.entrantId, row]));
    let previous = null;
    for (const fresh of freshBody.querySelectorAll('tr[data-entrant-row]')) {
      const row = current.get(fresh.dataset.entrantId);
      const node = document.importNode(fresh, true);
      if (!row) {
        if (previous) previous.after(node); else body.prepend(node);
        previous = node;
        continue;
      }
      if (row.outerHTML === node.outerHTML || row.contains(document.activeElement)) {
        previous = row;
        continue;
      }
      const ticked = row.querySelector('input[name="entrant[]"]')?.checked;
      const box = node.querySelector('input[name="entrant[]"]');
      if (box && ticked) box.checked = true;
      row.replaceWith(node);
      previous = node;
    }
    update();
  };
  const seconds = Number(new URLSearchParams(window.location.search).get('live')) || Number(body.dataset.liveRows) || 5;
  let timer = null;
  const schedule = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(tick, seconds * 1000);
  };
  // One fetch at a time; a hidden tab waits until it is shown again.
  const tick = () => {
    if (document.hidden) return;
    refresh().catch(() => {}).finally(schedule);
  };
  document.addEventListener('visibilitychange', () => { if (!document.hidden) tick(); });
  schedule();
})();

// The manual pairing editor's swap by clicking (issue #15; progressive enhancement: without
// this file the arbiter chooses both players in the swap form below the boards). Each seat
// gets a button; the first click marks the player, the second fills the swap form with both
// and sends it, so the server swaps the seats and shows the result with every player's
// history, saving nothing. A second click on the marked seat unmarks it.
(() => {
  const form = document.querySelector('form.repair-form');
  if (!form) return;
  const first = form.querySelector('select[name="swap_a"]');
  const second = form.querySelector('select[name="swap_b"]');
  const swap = form.querySelector('button[name="action"][value="swap"]');
  if (!first || !second || !swap) return;
  let marked = null;
  const seats = form.querySelectorAll('select[name^="red_"], select[name^="black_"]');
  for (const seat of seats) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'seat-swap';
    button.textContent = '⇄';
    button.title = form.dataset.swapLabel || '';
    button.setAttribute('aria-label', button.title);
    seat.insertAdjacentElement('afterend', button);
    button.addEventListener('click', () => {
      if (!seat.value) return;
      if (marked === seat) {
        seat.closest('td').classList.remove('target');
        marked = null;
        return;
      }
      if (!marked) {
        marked = seat;
        seat.closest('td').classList.add('target');
        return;
      }
      first.value = marked.value;
      second.value = seat.value;
      if (form.requestSubmit) form.requestSubmit(swap); else swap.click();
    });
  }
})();

// The tiebreak chain editor: the explanation under a row follows its choice at once (without
// this file it follows on saving).
(() => {
  for (const select of document.querySelectorAll('fieldset.chain-editor select')) {
    const desc = document.getElementById(`${select.id}-desc`);
    if (!desc) continue;
    select.addEventListener('change', () => {
      const chosen = select.selectedOptions[0];
      desc.textContent = (chosen && chosen.dataset.desc) || '';
    });
  }
})();

// Walk-ins at the desk (issue #39 item 6; progressive enhancement): choosing a fee tier fills
// the amount paid with the tier's fee (the form carries the amounts by tier), unless the desk
// typed another amount; the server reads the form the same either way.
(() => {
  const form = document.getElementById('add-entrant-form');
  const tier = form?.querySelector('select[name="fee_tier"]');
  const paid = form?.querySelector('input[name="paid"]');
  if (!tier || !paid) return;
  let amounts = {};
  try { amounts = JSON.parse(form.dataset.feeAmounts || '{}'); } catch { return; }
  let filled = '';
  const fill = () => {
    if (paid.value !== '' && paid.value !== filled) return;
    const amount = amounts[tier.value];
    filled = amount ? String(amount) : '';
    paid.value = filled;
  };
  tier.addEventListener('change', fill);
  if (paid.value === '') fill();
})();

// After an add the form of the next walk-in comes back focused (autofocus, which a browser
// scrolls only just into view): show the whole form from its heading, the focus kept.
(() => {
  const first = document.querySelector('#add-entrant-form [autofocus]');
  if (!first) return;
  document.getElementById('add-entrant')?.scrollIntoView({ block: 'start' });
  first.focus({ preventScroll: true });
})();
