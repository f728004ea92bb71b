// The venue screen's highlights panel (views/screen.tsx, HighlightsTurn). The other panels take
// turns by a CSS animation alone; this one takes a turn only when something happened since it
// last showed: at the end of a round of the others, the rotation is held for one turn while the
// highlights show, and then carries on where it stopped. Without scripts the screen simply never
// shows this panel. What was last shown is kept for the tab (sessionStorage), so a reload does
// not show the same highlights again. Served as a file: the page's policy allows no inline script.
(function () {
  var TURN_MS = 15000;
  var CYCLE_MS = 45000;
  var panel = document.querySelector('.panel--highlights');
  if (!panel || typeof document.getAnimations !== 'function') return;
  var key = 'spades-highlights-shown:' + (panel.getAttribute('data-tournament') || '');
  var shown = 0;
  try {
    shown = Number(sessionStorage.getItem(key)) || 0;
  } catch {
    // storage refused: every load starts from nothing shown
  }
  var showing = false;
  /** @type {number | null} the panel's phase when last looked, to see it wrap round */
  var lastPhase = null;

  // The newest highlight's ledger position; the region is replaced as the ledger grows.
  function newest() {
    var region = document.getElementById('highlights');
    return region ? Number(region.getAttribute('data-newest')) || 0 : 0;
  }
  // The rotation's animations: the other panels and their dots.
  function rotation() {
    var found = [];
    var elements = document.querySelectorAll('.panels > .panel:not(.panel--highlights), .panel-dots li');
    for (var i = 0; i < elements.length; i++) {
      var animations = elements[i].getAnimations();
      for (var j = 0; j < animations.length; j++) found.push(animations[j]);
    }
    return found;
  }
  // Where the rotation stands in its cycle, from the first panel's clock.
  function phase() {
    var first = document.querySelector('.panels > .panel:not(.panel--highlights)');
    var animation = first && first.getAnimations()[0];
    if (!animation || animation.currentTime === null) return null;
    return Number(animation.currentTime) % CYCLE_MS;
  }
  function show() {
    showing = true;
    var latest = newest();
    var held = rotation();
    for (var i = 0; i < held.length; i++) held[i].pause();
    document.body.classList.add('showing-highlights');
    setTimeout(function () {
      document.body.classList.remove('showing-highlights');
      for (var i = 0; i < held.length; i++) held[i].play();
      shown = latest;
      try {
        sessionStorage.setItem(key, String(shown));
      } catch {
        // kept in this page only
      }
      showing = false;
      lastPhase = null;
    }, TURN_MS);
  }
  setInterval(function () {
    if (showing) return;
    var now = phase();
    if (now === null) return;
    var wrapped = lastPhase !== null && now < lastPhase;
    lastPhase = now;
    if (wrapped && newest() > shown) show();
  }, 250);
})();
