// Ticks every match clock on the page once a second from its data-deadline, so the remaining
// time keeps moving between ledger events. Served as a file: the page's Content-Security-Policy
// allows no inline scripts.
(function () {
  function tick() {
    var now = Date.now();
    var clocks = document.querySelectorAll('[data-deadline]');
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i];
      var value = clock.querySelector('.clock-value');
      if (!value) continue;
      var left = Math.max(0, Date.parse(clock.getAttribute('data-deadline')) - now);
      var minutes = Math.floor(left / 60000);
      var seconds = Math.floor((left % 60000) / 1000);
      value.textContent = minutes + ':' + (seconds < 10 ? '0' : '') + seconds;
      clock.classList.toggle('is-expired', left === 0);
    }
  }
  setInterval(tick, 1000);
  document.addEventListener('DOMContentLoaded', tick);
})();
