/* Live game page: listens on the game's websocket and re-fetches this viewer's board when the game
   moves on; keeps the tab title in step ("Your turn — ..."). No game logic lives here. */
(function () {
  "use strict";
  var root = document.getElementById("game-root");
  if (!root || !window.htmx) { return; }

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
  var retryDelay = 1000;
  var MAX_RETRY_DELAY = 30000;
  var FORBIDDEN = 4403;

  function board() { return document.getElementById("board"); }
  function shownVersion() {
    var el = board();
    return el ? parseInt(el.dataset.version || "0", 10) : 0;
  }
  function refresh() { htmx.ajax("GET", boardUrl, { target: "#board", swap: "outerHTML" }); }
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

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + window.location.host + root.dataset.socketPath);
    // On (re)connect the server sends the game's version first: catchUp() re-fetches if behind.
    socket.addEventListener("open", function () { retryDelay = 1000; });
    socket.addEventListener("message", function (event) {
      var message = JSON.parse(event.data);
      if (message.type === "game.changed") {
        newestVersion = Math.max(newestVersion, message.version);
        catchUp();
      }
    });
    socket.addEventListener("close", function (event) {
      // Closed for good (signed out, suspended, seat lost at a private table): re-fetch the board
      // once, which shows what this viewer may see now (the login page, a refusal).
      if (event.code === FORBIDDEN) { refresh(); return; }
      window.setTimeout(connect, retryDelay + Math.random() * 500);
      retryDelay = Math.min(retryDelay * 2, MAX_RETRY_DELAY);
    });
  }

  document.body.addEventListener("htmx:beforeRequest", function () { requestsInFlight += 1; });
  document.body.addEventListener("htmx:afterRequest", function () {
    requestsInFlight = Math.max(0, requestsInFlight - 1);
  });
  document.body.addEventListener("htmx:afterSettle", function () { showTitle(); catchUp(); });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { checkVersion(); } });
  // Development without Redis: the worker's events reach no page, so compare versions now and then.
  var pollMs = parseInt(document.body.dataset.pollMs || "0", 10);
  if (pollMs > 0) {
    window.setInterval(function () { if (!document.hidden) { checkVersion(); } }, pollMs);
  }
  showTitle();
  connect();
})();
