// The judge console's alert for a new claim. The console is fetched again whenever its live
// stream says something it shows has changed; a claim that was not on the page before is then
// flashed, announced in words at the top ("New claim: Table 3, Aces vs Kings"), counted in the
// tab's title, and, once the judge has turned the sound on, sounded: browsers let a page make a
// sound only after someone has pressed something on it.
(function () {
  /** @type {string[] | null} the claims on the page when last looked */
  var known = null;
  /** @type {AudioContext | null} */
  var audio = null;
  var SOUND_KEY = 'spades-judge-sound';

  function consoleEl() {
    return document.getElementById('judge-console');
  }
  function claimIds() {
    var el = consoleEl();
    var list = el ? (el.getAttribute('data-claims') || '').split(' ').filter(Boolean) : [];
    return list;
  }

  function beep() {
    if (!audio) return;
    var context = /** @type {AudioContext} */ (audio);
    try {
      if (context.state === 'suspended') context.resume();
      var now = context.currentTime;
      [0, 0.22].forEach(function (at, i) {
        var osc = context.createOscillator();
        var gain = context.createGain();
        osc.frequency.value = i === 0 ? 880 : 1175;
        gain.gain.setValueAtTime(0.0001, now + at);
        gain.gain.exponentialRampToValueAtTime(0.3, now + at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.2);
        osc.connect(gain).connect(context.destination);
        osc.start(now + at);
        osc.stop(now + at + 0.21);
      });
    } catch {
      // No sound on this device: the words and the flash still say it.
    }
  }

  function soundButton() {
    var head = document.querySelector('.judge-head');
    if (!head || head.querySelector('[data-sound]')) return;
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'button-quiet sound-toggle';
    button.setAttribute('data-sound', '');
    var on = function () {
      return audio !== null && localStorage.getItem(SOUND_KEY) === 'on';
    };
    var label = function () {
      button.textContent = on() ? 'Sound on for new claims (turn off)' : 'Turn on a sound for new claims';
      button.setAttribute('aria-pressed', on() ? 'true' : 'false');
    };
    button.addEventListener('click', function () {
      if (on()) {
        localStorage.setItem(SOUND_KEY, 'off');
      } else {
        // Older Safari names it with its prefix.
        var Context = window.AudioContext || /** @type {{ webkitAudioContext?: typeof AudioContext }} */ (/** @type {unknown} */ (window)).webkitAudioContext;
        if (Context && !audio) audio = new Context();
        localStorage.setItem(SOUND_KEY, 'on');
        beep();
      }
      label();
    });
    label();
    head.appendChild(button);
  }

  function check() {
    var ids = claimIds();
    var el = consoleEl();
    if (!el) return;
    document.title = (ids.length ? '(' + ids.length + ') ' : '') + 'Judge console';
    if (known === null) {
      known = ids;
      soundButton();
      return;
    }
    var before = known;
    var fresh = ids.filter(function (id) {
      return before.indexOf(id) < 0;
    });
    known = ids;
    soundButton();
    if (!fresh.length) return;
    /** @type {string[]} */
    var names = [];
    var list = el;
    fresh.forEach(function (id) {
      var card = list.querySelector('[data-claim="' + id + '"]');
      if (!card) return;
      card.classList.add('is-new');
      var where = card.querySelector('.claim-where');
      var title = card.querySelector('h3');
      names.push(((where ? where.textContent + ': ' : '') + (title ? title.textContent : '')).trim());
    });
    var alert = /** @type {HTMLElement | null} */ (el.querySelector('[data-judge-alert]'));
    if (alert) {
      alert.textContent = (fresh.length === 1 ? 'New claim: ' : fresh.length + ' new claims: ') + names.join('; ');
      alert.hidden = false;
    }
    if (localStorage.getItem(SOUND_KEY) === 'on') beep();
  }

  document.addEventListener('DOMContentLoaded', check);
  // After the console is fetched again (a morph keeps the element; a swap replaces it).
  document.addEventListener('htmx:after:swap', function () {
    setTimeout(check, 0);
  });
  document.addEventListener('htmx:after:settle', function () {
    setTimeout(check, 0);
  });
})();
