/* One reconnecting websocket, for every page that listens to the server (game.js: the game's
   changes; notices.js: the user's games waiting). rummySocket(path, handlers) connects to
   ws(s)://<this host><path>, gives each message, parsed from JSON, to handlers.message, calls
   handlers.open on every (re)connect and handlers.close(forbidden) on every close, and reconnects
   with a growing, jittered delay, except after a close with 4403 (not allowed: signed out,
   suspended, no such game, not a player of a private table), which ends it for good.
   Its send(object) sends JSON while the socket is open and drops it otherwise. */
(function () {
  "use strict";
  var FORBIDDEN = 4403;
  var FIRST_DELAY = 1000;
  var MAX_DELAY = 30000;

  window.rummySocket = function (path, handlers) {
    var socket = null;
    var delay = FIRST_DELAY;
    function connect() {
      var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
      socket = new WebSocket(scheme + window.location.host + path);
      socket.addEventListener("open", function () {
        delay = FIRST_DELAY;
        if (handlers.open) { handlers.open(); }
      });
      socket.addEventListener("message", function (event) { handlers.message(JSON.parse(event.data)); });
      socket.addEventListener("close", function (event) {
        socket = null;
        var forbidden = event.code === FORBIDDEN;
        if (handlers.close) { handlers.close(forbidden); }
        if (forbidden) { return; }
        window.setTimeout(connect, delay + Math.random() * 500);
        delay = Math.min(delay * 2, MAX_DELAY);
      });
    }
    connect();
    return {
      send: function (message) {
        if (socket && socket.readyState === WebSocket.OPEN) { socket.send(JSON.stringify(message)); }
      }
    };
  };
})();
