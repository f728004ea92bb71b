// The scorekeeper's outbox. Every entry tapped on a table's entry page (a card, a bid, a deal,
// Undo, a claim) goes into a queue kept on the phone (localStorage), each with the command id
// its form carries, and is sent to the ledger in order, one at a time. While the network is
// down the queue grows and the page says "Offline: 3 entries waiting"; when it is back the
// entries go in the order they were tapped. The ledger records a command id once, so an entry
// sent again after an answer was lost is not recorded twice.
//
// Cards are followed on the phone as they are tapped: the card greys out in its place, the turn
// passes to the next seat (to the trick's winner after the fourth card, ranked as the deck the
// server drew ranks it), and every card's form is told the seat and the count of cards it is
// for. The ledger refuses a tap made for a moment that has passed; such a refusal, or any other
// found while sending, stops the queue and is shown with what to do.
//
// Served as a file: the page's Content-Security-Policy allows no inline scripts. Without this
// script the forms still post through htmx, or as plain forms.
//
// Type-checked as JavaScript (tsconfig.json's checkJs), with its types in JSDoc.
(function () {
  /**
   * An entry waiting on the phone: its command id, where its form posts, the form's fields as
   * sent, its form's kind (play, bid, deal, undo, claim) and the words that name it.
   * @typedef {{ id: string, url: string, body: string, kind: string | null, label: string }} Entry
   */
  /** @typedef {{ label: string, message: string }} Refusal an entry the ledger refused, and its sentence */
  /** @typedef {{ suit: number, power: number }} Ranked a card as the deck ranks it: suit 0 is trumps */

  var PANEL_ID = 'entry-panel';
  /** @type {Record<string, string>} */
  var SEAT_NAMES = { N: 'North', E: 'East', S: 'South', W: 'West' };
  var SEATS = ['N', 'E', 'S', 'W'];
  var RETRY_MS = 3000;

  /** @type {Entry[]} */
  var queue = [];
  /** @type {string | null} */
  var storageKey = null;
  var sending = false;
  var offline = false;
  /** @type {Refusal | null} */
  var conflict = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  var retryTimer;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  var slowTimer;
  var showSending = false;

  function panel() {
    return document.getElementById(PANEL_ID);
  }

  function load() {
    var p = panel();
    if (!p) return;
    storageKey = 'spades-outbox:' + p.getAttribute('data-outbox');
    try {
      queue = JSON.parse(localStorage.getItem(storageKey) || '[]');
    } catch {
      queue = [];
    }
  }

  function save() {
    if (!storageKey) return;
    try {
      if (queue.length) localStorage.setItem(storageKey, JSON.stringify(queue));
      else localStorage.removeItem(storageKey);
    } catch {
      // A phone without storage still sends; it only cannot keep entries across a reload.
    }
  }

  /** @param {number} n */
  function plural(n) {
    return n + (n === 1 ? ' entry' : ' entries');
  }

  // ---- what the phone shows ----

  function render() {
    var p = panel();
    if (!p) return;
    var line = /** @type {HTMLElement | null} */ (p.querySelector('[data-outbox-state]'));
    if (!line) return;
    line.classList.remove('is-conflict');
    while (line.firstChild) line.removeChild(line.firstChild);
    if (conflict) {
      line.classList.add('is-conflict');
      line.appendChild(document.createTextNode('Not recorded: ' + conflict.label + '. ' + conflict.message + '. '));
      if (queue.length) {
        line.appendChild(
          document.createTextNode(
            plural(queue.length) +
              ' tapped after it ' +
              (queue.length === 1 ? 'is' : 'are') +
              ' still on this phone. Compare the cards on the table with this page, then: ',
          ),
        );
        line.appendChild(
          button('Send them', 'send', function () {
            conflict = null;
            render();
            drain();
          }),
        );
        line.appendChild(
          button('Drop them and enter again', 'drop', function () {
            queue = [];
            conflict = null;
            save();
            reload();
          }),
        );
      } else {
        line.appendChild(document.createTextNode('Check the table and enter it again if it still needs entering.'));
      }
      line.hidden = false;
      return;
    }
    if (queue.length && offline) {
      line.textContent = 'Offline: ' + plural(queue.length) + ' waiting. They are sent in order when the network is back; keep entering.';
      line.setAttribute('data-waiting', String(queue.length));
      line.hidden = false;
      return;
    }
    if (queue.length && (showSending || queue.length > 1)) {
      line.textContent = 'Sending ' + plural(queue.length) + '…';
      line.setAttribute('data-waiting', String(queue.length));
      line.hidden = false;
      return;
    }
    line.removeAttribute('data-waiting');
    line.hidden = true;
  }

  /**
   * @param {string} text
   * @param {string} action
   * @param {() => void} onClick
   */
  function button(text, action, onClick) {
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.setAttribute('data-outbox-action', action);
    b.addEventListener('click', onClick);
    return b;
  }

  // ---- where the keyboard is ----
  // A tapped key is disabled at once, and the panel is redrawn by the answer; either drops the
  // focus to the page's start, and a scorekeeper on a keyboard, a switch or a screen reader would
  // have to find the grid again after every card. The focus stays in the panel instead: on the
  // same control if it can still be pressed (the same bid for the next seat), else on the first
  // the panel now offers (the next seat's first card). It is never taken from elsewhere on the
  // page, and a tap moves nothing: a finger goes straight to the key it wants.
  var focusInPanel = false;
  /** @type {string | null} a selector for the control that had the focus */
  var focusKey = null;
  var byPointer = false;

  /** @param {Element} el */
  function keyOf(el) {
    var attrs = ['data-card', 'data-bid', 'data-action', 'data-outbox-action', 'name'];
    for (var i = 0; i < attrs.length; i++) {
      var value = el.getAttribute(attrs[i]);
      if (value) return el.tagName.toLowerCase() + '[' + attrs[i] + '="' + CSS.escape(value) + '"]';
    }
    return null;
  }

  /**
   * @param {Element | null} el
   * @returns {el is HTMLElement}
   */
  function canPress(el) {
    return el !== null && !(/** @type {HTMLButtonElement} */ (el).disabled) && el.getClientRects().length > 0;
  }

  /**
   * @param {Element} p
   * @returns {HTMLElement | null}
   */
  function firstControl(p) {
    var key = /** @type {HTMLElement | null} */ (p.querySelector('.card-grid button.card-key:not([disabled])'));
    if (key) return key;
    var steps = p.querySelectorAll('.entry-step');
    for (var i = 0; i < steps.length; i++) {
      var controls = steps[i].querySelectorAll('button, input:not([type=hidden]), select');
      for (var j = 0; j < controls.length; j++) {
        var control = controls[j];
        if (canPress(control)) return control;
      }
    }
    return null;
  }

  /** @param {Element | null} p */
  function keepFocus(p) {
    if (!p || !focusInPanel || byPointer) return;
    var active = document.activeElement;
    if (active && active !== document.body && active.isConnected && !p.contains(active)) return;
    if (active && p.contains(active) && canPress(active)) return;
    var same = focusKey ? p.querySelector(focusKey) : null;
    var target = canPress(same) ? same : firstControl(p);
    if (target) target.focus();
  }

  // A panel that moves to another game's stream loads the page whole; the focus goes with it.
  var FOCUS_KEPT = 'spades-entry-focus';

  function reload() {
    try {
      if (focusInPanel && !byPointer) sessionStorage.setItem(FOCUS_KEPT, focusKey || '');
    } catch {
      // Without storage the reloaded page starts from its top, as any page does.
    }
    location.reload();
  }

  function focusAfterLoad() {
    var kept = null;
    try {
      kept = sessionStorage.getItem(FOCUS_KEPT);
      sessionStorage.removeItem(FOCUS_KEPT);
    } catch {
      return;
    }
    if (kept === null) return;
    focusInPanel = true;
    focusKey = kept || null;
    keepFocus(panel());
  }

  document.addEventListener('focusin', function (event) {
    var p = panel();
    var target = /** @type {Element | null} */ (event.target);
    focusInPanel = Boolean(p && target && p.contains(target));
    focusKey = focusInPanel && target ? keyOf(target) : null;
  });
  document.addEventListener(
    'pointerdown',
    function () {
      byPointer = true;
    },
    true,
  );
  document.addEventListener(
    'keydown',
    function () {
      byPointer = false;
    },
    true,
  );

  // ---- taking a tap ----

  document.addEventListener(
    'submit',
    function (event) {
      var form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-entry') || !form.closest('#' + PANEL_ID)) return;
      var fields = new URLSearchParams(/** @type {any} */ (new FormData(form, /** @type {SubmitEvent} */ (event).submitter || undefined)));
      var id = fields.get('commandId');
      if (!id) return; // not an entry this script knows how to keep: let the page send it
      // Before htmx or the browser send it: the outbox does.
      event.preventDefault();
      event.stopImmediatePropagation();
      if (conflict) return;
      for (var i = 0; i < queue.length; i++) if (queue[i].id === id) return; // a second tap of the same entry
      var kind = form.getAttribute('data-entry');
      /** @type {Entry} */
      var item = { id: id, url: form.action, body: fields.toString(), kind: kind, label: labelOf(kind, fields) };
      if (kind === 'play') advance(fields.get('card') || '');
      else hold(form);
      queue.push(item);
      save();
      clearTimeout(slowTimer);
      showSending = false;
      slowTimer = setTimeout(function () {
        showSending = true;
        render();
      }, 600);
      render();
      drain();
    },
    true,
  );

  /**
   * @param {string | null} kind
   * @param {URLSearchParams} fields
   */
  function labelOf(kind, fields) {
    var seat = SEAT_NAMES[fields.get('seat') || ''] || '';
    if (kind === 'play') return seat + ' ' + cardText(fields.get('card') || '');
    if (kind === 'bid') return seat + ' bid ' + fields.get('bid');
    if (kind === 'undo') return 'Undo';
    if (kind === 'deal') return 'the deal';
    if (kind === 'claim') return 'the renege claim against ' + seat;
    return 'the ' + kind;
  }

  /** @param {string} name a record's card name: "10H", "AS", "BJ" */
  function cardText(name) {
    if (name === 'BJ') return 'big joker';
    if (name === 'LJ') return 'little joker';
    /** @type {Record<string, string>} */
    var symbols = { S: '♠', H: '♥', D: '♦', C: '♣' };
    var suit = symbols[name.slice(-1)] || '';
    return name.slice(0, -1) + suit;
  }

  /** An entry the phone cannot follow by itself (a bid, a deal, Undo): nothing more is taken until it is answered. */
  /** @param {HTMLFormElement | null} form the form tapped; none for an entry kept from before a reload */
  function hold(form) {
    var p = panel();
    var tapped = form && form.querySelector('button[type=submit]');
    if (tapped) tapped.classList.add('is-sending');
    if (!p) return;
    var buttons = /** @type {NodeListOf<HTMLButtonElement>} */ (p.querySelectorAll('button[type=submit]'));
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = true;
    p.setAttribute('data-next', 'wait');
  }

  // ---- following the trick on the phone ----

  /**
   * Whether card `a` beats card `b` in a trick led in suit `led`.
   * @param {Ranked} a
   * @param {Ranked} b
   * @param {number} led
   */
  function beats(a, b, led) {
    if (a.suit === b.suit) return a.power > b.power;
    if (a.suit === 0) return true;
    if (b.suit === 0) return false;
    return a.suit === led;
  }

  /**
   * @param {string} seat
   * @param {number} [steps] places clockwise, 1 when not given
   * @returns {string}
   */
  function seatAfter(seat, steps) {
    return SEATS[(SEATS.indexOf(seat) + (steps || 1)) % 4];
  }

  /** Plays a tapped card on the phone: greys it, passes the turn, and points every card's form at the new moment. */
  /** @param {string} card the card's record name */
  function advance(card) {
    var p = panel();
    var grid = p && p.querySelector('.card-grid');
    if (!p || !grid) return;
    var cardGrid = grid;
    var key = /** @type {HTMLButtonElement | null} */ (grid.querySelector('button[data-card="' + card + '"]'));
    if (!key) return;
    var seat = grid.getAttribute('data-seat') || '';
    var played = Number(grid.getAttribute('data-played')) + 1;
    var trick = Number(grid.getAttribute('data-trick'));
    var leader = grid.getAttribute('data-leader') || '';
    var onTable = (grid.getAttribute('data-on-table') || '').split(' ').filter(Boolean);
    var broken = grid.getAttribute('data-broken') === '1';
    key.disabled = true;
    key.classList.remove('is-open', 'breaks-rule');
    key.classList.add('is-played', 'is-sending');
    if (onTable.length === 0) leader = seat;
    onTable.push(card);
    var slot = p.querySelector('[data-slot="' + seat + '"]');
    if (slot) {
      while (slot.firstChild) slot.removeChild(slot.firstChild);
      var face = document.createElement('span');
      face.className = /[HD]$/.test(card) ? 'card card--red' : 'card';
      face.textContent = cardText(card);
      slot.appendChild(face);
    }
    var next;
    if (onTable.length === 4) {
      var cards = onTable.map(function (name) {
        var b = cardGrid.querySelector('button[data-card="' + name + '"]');
        return { suit: Number(b && b.getAttribute('data-suit')), power: Number(b && b.getAttribute('data-power')) };
      });
      var best = 0;
      for (var i = 1; i < 4; i++) if (beats(cards[i], cards[best], cards[0].suit)) best = i;
      if (
        cards.some(function (c) {
          return c.suit === 0;
        })
      )
        broken = true;
      next = seatAfter(leader, best);
      leader = next;
      onTable = [];
      trick += 1;
    } else {
      next = seatAfter(seat);
    }
    var over = played >= grid.querySelectorAll('button[data-card]').length || trick > 13;
    grid.setAttribute('data-seat', next);
    grid.setAttribute('data-played', String(played));
    grid.setAttribute('data-trick', String(trick));
    grid.setAttribute('data-leader', leader);
    grid.setAttribute('data-on-table', onTable.join(' '));
    grid.setAttribute('data-broken', broken ? '1' : '0');
    var forms = grid.querySelectorAll('form[data-entry="play"]');
    for (var f = 0; f < forms.length; f++) {
      var seatField = /** @type {HTMLInputElement | null} */ (forms[f].querySelector('input[name=seat]'));
      var playedField = /** @type {HTMLInputElement | null} */ (forms[f].querySelector('input[name=played]'));
      if (seatField) seatField.value = next;
      if (playedField) playedField.value = String(played);
    }
    var text = p.querySelector('[data-turn-text]');
    if (text) text.textContent = over ? 'Hand complete: sending' : SEAT_NAMES[next] + ' to play · trick ' + trick;
    var seats = p.querySelectorAll('.on-table-seat');
    for (var s = 0; s < seats.length; s++) seats[s].classList.toggle('is-turn', seats[s].getAttribute('data-seat') === next);
    p.setAttribute('data-next', over ? 'wait' : 'play:' + next + ':' + trick + ':' + onTable.length);
    // A finished trick stays on the cloth until the first card of the next one is tapped.
    if (onTable.length === 1) {
      for (var t = 0; t < SEATS.length; t++) {
        if (SEATS[t] === seat) continue;
        var other = p.querySelector('[data-slot="' + SEATS[t] + '"]');
        if (other) other.innerHTML = '<span class="on-table-empty">—</span>';
      }
    }
    if (grid.getAttribute('data-known') === '1') markHands(grid, next, onTable, broken);
    keepFocus(p);
  }

  /** With the hands known from the deal: only the seat to play's own cards can be tapped, and those that break a rule are marked. */
  /**
   * @param {Element} grid
   * @param {string} seat
   * @param {string[]} onTable
   * @param {boolean} broken whether spades are broken
   */
  function markHands(grid, seat, onTable, broken) {
    var keys = /** @type {NodeListOf<HTMLButtonElement>} */ (grid.querySelectorAll('button[data-card]'));
    /** @type {HTMLButtonElement[]} */
    var mine = [];
    for (var i = 0; i < keys.length; i++) {
      var key = keys[i];
      if (key.classList.contains('is-played')) continue;
      var held = key.getAttribute('data-holder') === seat;
      key.classList.toggle('is-open', held);
      key.classList.toggle('is-elsewhere', !held);
      key.classList.remove('breaks-rule');
      key.disabled = !held;
      if (held) mine.push(key);
    }
    var led = onTable.length ? grid.querySelector('button[data-card="' + onTable[0] + '"]') : null;
    var ledSuit = led ? Number(led.getAttribute('data-suit')) : null;
    var follows = mine.filter(function (k) {
      return ledSuit !== null && Number(k.getAttribute('data-suit')) === ledSuit;
    });
    var other = mine.filter(function (k) {
      return Number(k.getAttribute('data-suit')) !== 0;
    });
    for (var j = 0; j < mine.length; j++) {
      var suit = Number(mine[j].getAttribute('data-suit'));
      var breaks = ledSuit !== null ? follows.length > 0 && suit !== ledSuit : !broken && suit === 0 && other.length > 0;
      mine[j].classList.toggle('breaks-rule', breaks);
    }
  }

  // ---- sending ----

  function drain() {
    if (sending || conflict || !queue.length) {
      render();
      return;
    }
    clearTimeout(retryTimer);
    sending = true;
    var item = queue[0];
    fetch(item.url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'HX-Request': 'true' },
      body: item.body,
    })
      .then(function (response) {
        return response.text().then(function (html) {
          sending = false;
          offline = false;
          if (response.ok) {
            queue.shift();
            save();
            if (!queue.length) {
              clearTimeout(slowTimer);
              showSending = false;
              if (response.headers.get('hx-refresh') === 'true') {
                reload();
                return;
              }
              swap(html);
            }
            render();
            drain();
            return;
          }
          if (response.status >= 500 || response.status === 429) {
            // The server cannot record right now (a full disk, too many requests): try again.
            offline = true;
            render();
            retryTimer = setTimeout(drain, RETRY_MS);
            return;
          }
          // Refused: the table moved on, the session ended, or the entry was wrong. Stop, and say so.
          queue.shift();
          save();
          conflict = { label: item.label, message: messageOf(html, response.status) };
          swap(html);
          // The line above the panel says it with what to do; the panel's own copy would say it twice.
          var now = panel();
          var said = now && now.querySelector('[data-refusal]');
          if (said) said.remove();
          render();
        });
      })
      .catch(function () {
        sending = false;
        offline = true;
        render();
        retryTimer = setTimeout(drain, RETRY_MS);
      });
  }

  /** The refusal's sentence from the panel the server answered with. */
  /**
   * @param {string} html
   * @param {number} status
   */
  function messageOf(html, status) {
    var doc = new DOMParser().parseFromString(html, 'text/html');
    var refusal = doc.querySelector('[data-refusal], .notice--error');
    var text = refusal ? (refusal.textContent || '').trim().replace(/\.$/, '') : 'the server refused it (' + status + ')';
    if (status === 401 || status === 403) text += '. Join the table again with its code; the entries stay on this phone';
    return text;
  }

  /** Puts the server's panel in place of the phone's. */
  /** @param {string} html */
  function swap(html) {
    var p = panel();
    if (!p) return;
    var doc = new DOMParser().parseFromString(html, 'text/html');
    var fresh = doc.getElementById(PANEL_ID);
    if (!fresh) return;
    var adopted = document.importNode(fresh, true);
    p.replaceWith(adopted);
    var htmx = /** @type {{ htmx?: { process?: (element: Element) => void } }} */ (/** @type {unknown} */ (window)).htmx;
    if (htmx && typeof htmx.process === 'function') htmx.process(adopted);
    keepFocus(adopted);
  }

  // ---- following the table ----
  // The table card under the panel is pushed over the page's stream; an entry made elsewhere (a
  // second phone, a bot, a judge's undo or ruling) reaches it within a second. The panel is this
  // phone's own (its forms carry this session's keys), so on such a message the phone fetches
  // its panel afresh, unless taps are waiting here: those go first, and their answer redraws it.
  // With no game in play the page follows its tournament instead; when the fresh page follows
  // another stream (a match was seated here, or a game started) the phone loads it whole, so
  // the table card and the stream are the new game's. Taps waiting here are never dropped: the
  // phone follows only with none waiting, and they are kept on the phone across a load anyway.
  /** @type {Promise<void> | null} the page being fetched to follow the table */
  var following = null;
  var latest = 0;

  function idle() {
    return !sending && !conflict && !queue.length;
  }

  /** @param {Document} doc */
  function streamPath(doc) {
    var live = doc.querySelector('.live[hx-sse\\:connect]');
    return live ? (live.getAttribute('hx-sse:connect') || '').split('?')[0] : null;
  }

  /** @param {number} position the ledger position a message said the table is at */
  function follow(position) {
    if (position > latest) latest = position;
    var p = panel();
    if (!p || !idle()) return;
    var at = Number(p.getAttribute('data-at'));
    if (!(latest > at) || following) return;
    following = fetch(location.pathname, { credentials: 'same-origin', headers: { accept: 'text/html' } })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        following = null;
        if (!html || !idle()) return;
        var doc = new DOMParser().parseFromString(html, 'text/html');
        var fresh = doc.getElementById(PANEL_ID);
        var now = panel();
        if (!fresh || !now || Number(fresh.getAttribute('data-at')) <= Number(now.getAttribute('data-at'))) return;
        if (streamPath(doc) !== streamPath(document)) {
          reload();
          return;
        }
        swap(html);
        render();
        // A message that came while this was fetched may be newer than what it brought.
        if (latest > Number(fresh.getAttribute('data-at'))) follow(latest);
      })
      .catch(function () {
        following = null;
      });
  }

  document.addEventListener('htmx:sse:after:message', function (event) {
    var detail = /** @type {CustomEvent<{ message?: { id: string } }>} */ (event).detail;
    var message = detail && detail.message;
    var id = message ? Number(message.id) : NaN;
    if (id > 0) follow(id);
  });

  // ---- the network coming back ----

  window.addEventListener('online', function () {
    clearTimeout(retryTimer);
    drain();
  });
  window.addEventListener('offline', function () {
    offline = true;
    render();
  });

  document.addEventListener('DOMContentLoaded', function () {
    focusAfterLoad();
    load();
    if (!queue.length) return;
    // Entries kept from before a reload: follow the cards on the page again, then send.
    for (var i = 0; i < queue.length; i++) {
      if (queue[i].kind === 'play') advance(new URLSearchParams(queue[i].body).get('card') || '');
      else hold(null);
    }
    offline = navigator.onLine === false;
    render();
    drain();
  });
})();
