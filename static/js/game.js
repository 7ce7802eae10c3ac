/* Live game page: listens on the game's websocket and re-fetches this viewer's board when the game
   moves on; keeps the tab title in step ("Your turn — ..."). No game logic lives here. */
(function () {
  "use strict";
  var root = document.getElementById("game-root");
  if (!root || !window.htmx || !window.rummySocket) { return; }

  // Refusals (400 malformed, 403, 409 stale, 422 against the rules, 429) come with a board to show.
  htmx.config.responseHandling = [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "(400|403|409|422|429)", swap: true, error: false },
    { code: "[45]..", swap: false, error: true }
  ];

  var boardUrl = root.dataset.boardUrl;
  var newestVersion = 0;    // the newest version any event has announced
  var requestsInFlight = 0; // the page's own requests (moves, re-fetches) not yet answered

  function board() { return document.getElementById("board"); }
  function shownVersion() {
    var el = board();
    return el ? parseInt(el.dataset.version || "0", 10) : 0;
  }
  function refresh() { htmx.ajax("GET", boardUrl, { source: "#board", target: "#board", swap: "outerHTML" }); }
  // Re-fetch at most once at a time, and never while a move is being answered: that answer
  // already carries the newest board.
  function catchUp() {
    if (requestsInFlight === 0 && newestVersion > shownVersion()) { refresh(); }
  }
  function showTitle() {
    var el = board();
    if (el && el.dataset.title) {
      document.title = window.rummyTitle ? window.rummyTitle(el.dataset.title) : el.dataset.title;
    }
  }
  // Tab visible again: compare the game's version with the board's and re-fetch only when behind.
  function checkVersion() {
    fetch(root.dataset.versionUrl, { headers: { "Accept": "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (data && typeof data.version === "number") {
          newestVersion = Math.max(newestVersion, data.version);
          catchUp();
        }
      })
      .catch(function () { refresh(); });
  }

  // Events arrive only while the socket is open: compare versions every pollMs while it is down
  // (Redis unreachable, server restarting), and all the time where events cannot cross processes
  // (development without Redis). A refused socket (not allowed to watch) stops both.
  var pollMs = parseInt(document.body.dataset.pollMs || "0", 10);
  var pollAlways = document.body.dataset.pollAlways === "1";
  var socketDown = true;
  if (pollMs > 0) {
    window.setInterval(function () {
      if (!document.hidden && (pollAlways || socketDown)) { checkVersion(); }
    }, pollMs);
  }

  // On (re)connect the server sends the game's version first: catchUp() re-fetches if behind.
  // Closed for good (signed out, suspended, seat lost at a private table): stop polling and
  // re-fetch the board once, which shows what this viewer may see now (the login page, a refusal).
  function connect() {
    window.rummySocket(root.dataset.socketPath, {
      open: function () { socketDown = false; },
      message: function (message) {
        if (message.type === "game.changed") {
          newestVersion = Math.max(newestVersion, message.version);
          catchUp();
        }
      },
      close: function (forbidden) {
        socketDown = true;
        if (forbidden) { socketDown = pollAlways = false; refresh(); }
      }
    });
  }

  document.body.addEventListener("htmx:beforeRequest", function () { requestsInFlight += 1; });
  document.body.addEventListener("htmx:afterRequest", function () {
    requestsInFlight = Math.max(0, requestsInFlight - 1);
  });
  document.body.addEventListener("htmx:afterSettle", function () { showTitle(); catchUp(); });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { checkVersion(); } });
  showTitle();
  connect();
})();

/* The table's feel: a turn clock that counts down from the server's deadline, cards that move
   between places on every board swap (not when the player prefers reduced motion), the cards just
   drawn marked in the hand until the turn ends, a short chime
   when the turn becomes the player's (switchable, remembered in localStorage), and the
   end-of-deal summary, shown until the player dismisses it. */
(function () {
  "use strict";
  var root = document.getElementById("game-root");
  if (!root || !window.htmx) { return; }
  function board() { return document.getElementById("board"); }
  function stored(key) {
    try { return window.localStorage.getItem(key); } catch (error) { return null; }
  }
  function store(key, value) {
    try { window.localStorage.setItem(key, value); } catch (error) { /* private mode: not remembered */ }
  }

  // ----- the turn clock: data-deadline (ISO 8601) on the seat to move; the Date header of the
  // page's requests corrects this device's clock (to the second).
  var skew = 0;
  function readSkew(event) {
    var request = event.detail && event.detail.xhr;
    var serverNow = request && Date.parse(request.getResponseHeader("Date") || "");
    if (serverNow) { skew = serverNow - Date.now(); }
  }
  function words(n, unit) { return n + " " + unit + (n === 1 ? "" : "s"); }
  function timeLeft(ms) {
    var seconds = Math.ceil(ms / 1000);
    if (seconds < 3600) {
      var minutes = Math.floor(seconds / 60), rest = seconds % 60;
      return minutes + ":" + (rest < 10 ? "0" : "") + rest;
    }
    var days = Math.floor(seconds / 86400), hours = Math.floor(seconds % 86400 / 3600);
    var parts = days ? [[days, "day"], [hours, "hour"]] : [[hours, "hour"], [Math.floor(seconds % 3600 / 60), "minute"]];
    return parts.filter(function (p) { return p[0] > 0; }).map(function (p) { return words(p[0], p[1]); }).join(" ");
  }
  function tick() {
    var clocks = document.querySelectorAll("#board [data-deadline]");
    Array.prototype.forEach.call(clocks, function (el) {
      var left = Date.parse(el.dataset.deadline) - (Date.now() + skew);
      var warnMs = parseInt(el.dataset.warnSeconds || "0", 10) * 1000;
      var expired = left <= 0;
      el.textContent = expired ? "time is up: the computer plays this turn" : timeLeft(left) + " left";
      el.classList.toggle("time-left-expired", expired);
      el.classList.toggle("time-left-warning", !expired && left <= warnMs);
    });
  }

  // ----- motion: before a board swap each face-up card's place is noted by its key; after it a
  // card still on the page slides from its old place to its new one (hand to meld, hand to
  // discard pile, a new order) and a card new to the page drops in (a draw, another player's
  // discard or meld). Web Animations on the swapped fragment; none when the player prefers
  // reduced motion.
  var reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  var places = null;
  function cardsOf(el) {
    var found = {};
    Array.prototype.forEach.call(el.querySelectorAll("[data-card]"), function (card) {
      if (!found[card.dataset.card]) { found[card.dataset.card] = card; }
    });
    return found;
  }
  function notePlaces(event) {
    places = null;
    var el = board();
    if (reducedMotion.matches || !el || event.detail.target !== el) { return; }
    places = {};
    var cards = cardsOf(el);
    Object.keys(cards).forEach(function (key) { places[key] = cards[key].getBoundingClientRect(); });
  }
  function moveCards() {
    var el = board();
    if (!places || !el || !el.animate) { return; }
    var cards = cardsOf(el);
    Object.keys(cards).forEach(function (key) {
      var card = cards[key], was = places[key], now = card.getBoundingClientRect();
      if (!was) {
        card.animate([{ opacity: 0, transform: "translateY(-0.8rem) scale(0.9)" }, { opacity: 1, transform: "none" }],
                     { duration: 300, easing: "ease-out" });
      } else if (Math.abs(was.left - now.left) + Math.abs(was.top - now.top) > 1) {
        card.animate([{ transform: "translate(" + (was.left - now.left) + "px, " + (was.top - now.top) + "px)" },
                      { transform: "none" }], { duration: 260, easing: "ease-out" });
      }
    });
    places = null;
  }

  // ----- the cards just drawn: after a board swap within one deal, the cards of the hand that
  // were not in it before (a draw from the stock or the pile, a Draw 5) are marked, and stay
  // marked over later swaps until the turn ends; a new deal's hand is dealt, not drawn, so
  // nothing is marked then. The marks are remembered with the board's version, so a reload or a
  // second tab showing that same version marks the same cards.
  var handBefore = null;
  var dealBefore = null;
  var drawn = {};
  var DRAWN_KEY = "rummy-drawn:" + root.dataset.boardUrl;
  function handKeys(el) {
    return Array.prototype.map.call(el.querySelectorAll(".hand .hand-card[data-key]"),
                                    function (card) { return card.dataset.key; });
  }
  function noteHand(event) {
    var el = board();
    handBefore = el && event.detail.target === el ? handKeys(el) : null;
    dealBefore = el ? el.dataset.deal : null;
  }
  function showDrawn() {
    Object.keys(drawn).forEach(function (key) {
      var label = document.getElementById("hand-" + key);
      if (!label || label.classList.contains("hand-card-drawn")) { return; }
      label.classList.add("hand-card-drawn");
      var input = label.querySelector("input");
      if (input) { input.setAttribute("aria-label", input.getAttribute("aria-label") + ", just drawn"); }
    });
  }
  function markDrawn() {
    var el = board();
    if (!el || handBefore === null) { return; }
    var keys = handKeys(el), before = {}, next = {};
    handBefore.forEach(function (key) { before[key] = true; });
    if (dealBefore === el.dataset.deal && el.dataset.yourTurn === "1") {
      keys.forEach(function (key) { if (!before[key] || drawn[key]) { next[key] = true; } });
    }
    drawn = next;
    handBefore = null;
    store(DRAWN_KEY, JSON.stringify({ version: el.dataset.version, keys: Object.keys(drawn) }));
    showDrawn();
  }
  function restoreDrawn() {
    var el = board(), saved = null;
    try { saved = JSON.parse(stored(DRAWN_KEY) || "null"); } catch (error) { saved = null; }
    if (!el || !saved || saved.version !== el.dataset.version || el.dataset.yourTurn !== "1") { return; }
    var inHand = {};
    handKeys(el).forEach(function (key) { inHand[key] = true; });
    (saved.keys || []).forEach(function (key) { if (inHand[key]) { drawn[key] = true; } });
    showDrawn();
  }

  // ----- the "your turn" chime, made with the Web Audio API (no sound file); the toggle button
  // outside the board says whether it is on.
  var SOUND_KEY = "rummy-turn-sound";
  var audio = null;
  var toggle = document.getElementById("sound-toggle");
  function soundOn() { return stored(SOUND_KEY) !== "off"; }
  function showToggle() {
    if (!toggle) { return; }
    toggle.hidden = false;
    toggle.setAttribute("aria-pressed", soundOn() ? "true" : "false");
    toggle.textContent = soundOn() ? "Turn sound: on" : "Turn sound: off";
  }
  function wakeAudio() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context || !soundOn()) { return; }
    audio = audio || new Context();
    if (audio.state === "suspended") { audio.resume(); }
  }
  function chime() {
    if (!audio || !soundOn() || audio.state !== "running") { return; }
    var start = audio.currentTime;
    [660, 880].forEach(function (frequency, index) {
      var at = start + index * 0.12;
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.08, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.25);
      tone.connect(gain);
      gain.connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.3);
    });
  }
  var wasYourTurn = board() ? board().dataset.yourTurn === "1" : false;
  function announceTurn() {
    var el = board();
    var yourTurn = el ? el.dataset.yourTurn === "1" : false;
    if (yourTurn && !wasYourTurn) { chime(); }
    wasYourTurn = yourTurn;
  }

  // ----- the end-of-deal summary: loaded into its slot once, kept across swaps (hx-preserve),
  // hidden for good once dismissed.
  var DISMISSED = "rummy-summary-dismissed:";
  function showSummary() {
    var slot = document.querySelector("#board .deal-summary-slot");
    if (!slot || slot.dataset.loaded) { return; }
    slot.dataset.loaded = "1";
    if (stored(DISMISSED + slot.id)) {
      slot.hidden = true;
      return;
    }
    htmx.ajax("GET", slot.dataset.summaryUrl, { target: slot, swap: "innerHTML" });
  }
  function dismissSummary(button) {
    var slot = button.closest(".deal-summary-slot");
    store(DISMISSED + slot.id, "1");
    slot.hidden = true;
    var banner = document.querySelector("#board .turn-banner, #board h1");
    if (banner) {
      banner.setAttribute("tabindex", "-1");
      banner.focus();
    }
  }

  document.body.addEventListener("htmx:beforeSwap", notePlaces);
  document.body.addEventListener("htmx:beforeSwap", noteHand);
  document.body.addEventListener("htmx:afterRequest", readSkew);
  document.body.addEventListener("htmx:afterSwap", function () { moveCards(); markDrawn(); tick(); });
  document.body.addEventListener("htmx:afterSettle", function () { announceTurn(); showSummary(); });
  document.body.addEventListener("click", function (event) {
    wakeAudio();
    var dismiss = event.target.closest(".deal-summary-close");
    if (dismiss) { dismissSummary(dismiss); }
    if (toggle && event.target === toggle) {
      store(SOUND_KEY, soundOn() ? "off" : "on");
      showToggle();
      wakeAudio();
    }
  });
  document.body.addEventListener("keydown", wakeAudio);
  showToggle();
  tick();
  showSummary();
  restoreDrawn();
  window.setInterval(tick, 1000);
})();
