/* Every page of a signed-in user: the user's websocket (ws/user/) keeps the "My games" badge and
   the tab title's "(n)" in step with the games waiting on them, and shows a "your turn" notice
   with a link when a game becomes theirs. Reconnects with back-off; on reconnect and when the tab
   becomes visible again it asks for the current count. No game logic lives here. */
(function () {
  "use strict";
  var badge = document.getElementById("games-waiting");
  var notice = document.getElementById("turn-notice");
  if (!badge || !window.WebSocket || !window.rummySocket) { return; }

  var count = parseInt(badge.dataset.count || "0", 10);
  var PING_MS = 30000;
  var COUNT_PREFIX = /^\(\d+\) /;

  // The tab title with the waiting count in front: "(2) My games · Rummy Table".
  function titled(base) {
    base = base.replace(COUNT_PREFIX, "");
    return count > 0 ? "(" + count + ") " + base : base;
  }
  window.rummyTitle = titled;

  function showCount(n) {
    var changed = n !== count;
    count = n;
    badge.textContent = String(n);
    badge.dataset.count = String(n);
    badge.classList.toggle("badge-empty", n === 0);
    document.title = titled(document.title);
    if (changed) { document.body.dispatchEvent(new CustomEvent("games-waiting", { detail: { count: n } })); }
  }

  function showNotice(message) {
    if (!notice || !message.game) { return; }
    var here = window.location.pathname === message.url;
    notice.textContent = "";
    var link = document.createElement("a");
    link.href = message.url;
    link.textContent = "Your turn in " + message.name;
    notice.appendChild(link);
    notice.hidden = here;  // the game's own page shows it on the board already
  }

  var socket = window.rummySocket("/ws/user/", {
    message: function (message) {
      if (message.type === "games.waiting") {
        showCount(message.count);
        showNotice(message);
      }
    }
  });
  function send(type) { socket.send({ type: type }); }

  window.setInterval(function () { send("ping"); }, PING_MS);
  // Without a shared channel layer (development without Redis) the worker's events cannot reach
  // this page: ask for the count now and then instead.
  var pollMs = parseInt(document.body.dataset.pollMs || "0", 10);
  if (pollMs > 0 && document.body.dataset.pollAlways === "1") {
    window.setInterval(function () { if (!document.hidden) { send("sync"); } }, pollMs);
  }
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { send("sync"); } });
  document.title = titled(document.title);
})();
