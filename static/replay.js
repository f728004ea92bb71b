// The ← and → keys step a hand replay back and forth by following the page's own Previous and
// Next links, so a step has one address whether reached by key, by link or without scripts.
// Served as a file: the page's Content-Security-Policy allows no inline scripts.
(function () {
  document.addEventListener('keydown', function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = /** @type {Element | null} */ (event.target);
    // Arrow keys inside a field or a scrolling table move the caret or the table, not the hand.
    if (target && target.closest && target.closest('input, textarea, select, [contenteditable], .table-scroll')) return;
    var which = event.key === 'ArrowLeft' ? 'prev' : event.key === 'ArrowRight' ? 'next' : null;
    if (!which) return;
    var link = /** @type {HTMLAnchorElement | null} */ (document.querySelector('a[data-replay="' + which + '"]'));
    if (!link) return;
    event.preventDefault();
    window.location.assign(link.href);
  });
})();

// A hash is long: each one has a button that puts it on the clipboard whole.
(function () {
  document.addEventListener('click', function (event) {
    var target = /** @type {Element | null} */ (event.target);
    var button = target && target.closest ? target.closest('button[data-copy]') : null;
    if (!button || !navigator.clipboard) return;
    var copied = button;
    navigator.clipboard.writeText(copied.getAttribute('data-copy') || '').then(function () {
      copied.textContent = 'Copied';
      setTimeout(function () {
        copied.textContent = 'Copy';
      }, 1500);
    });
  });
})();
