// Ticks every match clock on the page once a second from its data-deadline, so the remaining
// time keeps moving between ledger events, in the one format the server renders ("37:21";
// views/match-clock.tsx clockText). Served as a file: the page's Content-Security-Policy
// allows no inline scripts.
//
// Also ages every [data-since] element ("waiting 4 min"), for the judge console's queue, and
// every [data-waited-since] element ("for 4 minutes"), for a match waiting for a ruling, in the
// words events/ruling-wait.ts waitedWords writes.
(function () {
  /** @param {number} left milliseconds left */
  function clockText(left) {
    var seconds = Math.max(0, Math.ceil(left / 1000));
    var minutes = Math.floor(seconds / 60);
    var rest = seconds % 60;
    return minutes + ':' + (rest < 10 ? '0' : '') + rest;
  }
  /** @param {number} ms */
  function ageText(ms) {
    var minutes = Math.floor(Math.max(0, ms) / 60000);
    if (minutes < 1) return 'under a minute';
    if (minutes < 60) return minutes + ' min';
    return Math.floor(minutes / 60) + ' h ' + (minutes % 60) + ' min';
  }
  /** @param {number} n @param {string} unit */
  function part(n, unit) {
    return n + ' ' + unit + (n === 1 ? '' : 's');
  }
  /** @param {number} ms */
  function waitedText(ms) {
    var minutes = Math.floor(Math.max(0, ms) / 60000);
    if (!Number.isFinite(minutes) || minutes < 1) return 'for less than a minute';
    var hours = Math.floor(minutes / 60);
    var rest = minutes % 60;
    if (hours === 0) return 'for ' + part(rest, 'minute');
    return 'for ' + part(hours, 'hour') + (rest > 0 ? ' ' + part(rest, 'minute') : '');
  }
  function tick() {
    var now = Date.now();
    var clocks = document.querySelectorAll('[data-deadline]');
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i];
      var value = clock.querySelector('.clock-value');
      if (!value) continue;
      var left = Math.max(0, Date.parse(clock.getAttribute('data-deadline') || '') - now);
      var text = clockText(left);
      if (value.textContent !== text) value.textContent = text;
      clock.classList.toggle('is-expired', left === 0);
    }
    var ages = document.querySelectorAll('[data-since]');
    for (var j = 0; j < ages.length; j++) {
      var age = ageText(now - Date.parse(ages[j].getAttribute('data-since') || ''));
      if (ages[j].textContent !== age) ages[j].textContent = age;
    }
    var waits = document.querySelectorAll('[data-waited-since]');
    for (var k = 0; k < waits.length; k++) {
      var waited = waitedText(now - Date.parse(waits[k].getAttribute('data-waited-since') || ''));
      if (waits[k].textContent !== waited) waits[k].textContent = waited;
    }
  }
  setInterval(tick, 1000);
  document.addEventListener('DOMContentLoaded', tick);
  document.addEventListener('htmx:after:swap', tick);
})();
