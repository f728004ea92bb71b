// Tells the room when a live page has lost the server: a "Reconnecting" badge from the moment
// the page's event stream drops (or the device goes offline) until it is back. htmx's SSE
// extension reconnects by itself; this only says so. A Wi-Fi drop can leave a stream silently
// dead, so the page also asks /healthz now and then while the stream has been quiet; a venue
// screen that lost the server reloads once it answers again, so it never shows stale scores.
//
// The venue's /screen address also reloads when a director pins another tournament to it, and a
// screen that showed the rules before the start reloads when the first table plays.
(function () {
  var QUIET_MS = 25000;
  var PROBE_EVERY_MS = 10000;
  var lastHeard = Date.now();
  var lost = false;
  /** @type {string | null} the tournament the screen was pinned to when last heard */
  var pinned = null;

  function badge() {
    return /** @type {HTMLElement | null} */ (document.querySelector('[data-connection]'));
  }
  /** @param {string} [reason] what was lost: the stream, or the server */
  function show(reason) {
    var b = badge();
    if (!b) return;
    b.hidden = false;
    b.setAttribute('data-connection', 'lost');
    if (reason) b.setAttribute('data-reason', reason);
    document.documentElement.classList.add('is-reconnecting');
  }
  function hide() {
    var b = badge();
    if (!b) return;
    b.hidden = true;
    b.setAttribute('data-connection', 'ok');
    document.documentElement.classList.remove('is-reconnecting');
  }
  function heard() {
    lastHeard = Date.now();
    if (lost) {
      lost = false;
      hide();
    }
  }

  document.addEventListener('htmx:sse:after:connection', heard);
  document.addEventListener('htmx:sse:after:message', function () {
    heard();
    var pin = document.getElementById('screen-pin');
    if (pin) {
      var now = pin.getAttribute('data-tournament');
      if (pinned !== null && now !== pinned) location.reload();
      pinned = now;
    }
    // Before the start a screen shows the rules in the live tables' turn; once tables play, the
    // panel's name and dot are drawn again with the page.
    var dot = document.querySelector('.panel-dots [data-shows="rules"]');
    var tables = document.getElementById('live-tables');
    if (dot && tables && tables.getAttribute('data-shows') !== 'rules') location.reload();
  });
  document.addEventListener('htmx:sse:before:connection', function (event) {
    var detail = /** @type {CustomEvent<{ connection?: { attempt: number } }>} */ (event).detail;
    var connection = detail && detail.connection;
    if (connection && connection.attempt > 0) {
      lost = true;
      show('stream');
    }
  });
  document.addEventListener('htmx:sse:error', function () {
    lost = true;
    show('stream');
  });
  window.addEventListener('offline', function () {
    lost = true;
    show('offline');
  });

  function probe() {
    if (!badge() || Date.now() - lastHeard < QUIET_MS) return;
    var controller = typeof AbortController === 'function' ? new AbortController() : null;
    var timer = setTimeout(function () {
      if (controller) controller.abort();
    }, 5000);
    fetch('/healthz', { cache: 'no-store', signal: controller ? controller.signal : undefined })
      .then(function (response) {
        clearTimeout(timer);
        if (!response.ok && response.status !== 503) throw new Error('status ' + response.status);
        if (lost && document.body.classList.contains('screen')) {
          location.reload();
          return;
        }
        lastHeard = Date.now();
      })
      .catch(function () {
        clearTimeout(timer);
        lost = true;
        show('probe');
      });
  }
  setInterval(probe, PROBE_EVERY_MS);

  document.addEventListener('DOMContentLoaded', function () {
    var pin = document.getElementById('screen-pin');
    if (pin) pinned = pin.getAttribute('data-tournament');
    if (navigator.onLine === false) {
      lost = true;
      show('offline');
    }
  });
})();
