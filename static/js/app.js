// Progressive enhancement only: every page works without this file.
'use strict';

document.addEventListener('DOMContentLoaded', () => {
  // Print buttons of the print views (hidden until a script can make them work).
  for (const button of document.querySelectorAll('button[data-print]')) {
    button.hidden = false;
    button.addEventListener('click', () => window.print());
  }
});
