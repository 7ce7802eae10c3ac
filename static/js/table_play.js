/* Direct play on the game page, over the play form that works without JavaScript:
   - select hand cards by tapping them (they are the form's checkboxes; Space toggles one), move
     between them with the arrow keys (one tab stop for the hand);
   - play the selection by tapping its target (the discard pile, a meld, "New meld", a contract
     group) or by dragging a card there; drag cards within the hand to arrange it (SortableJS), the
     order is remembered by the server for this viewer;
   - D, T, M and X press Draw, Take, the meld and the discard buttons;
   - a refused move's reason is brought into view.
   Only the targets the server listed as legal for the selection (#play-targets, from the engine's
   legal actions) are offered, and cards that could join the selection in a meld or lay-off are
   marked; a selection put on "New meld" all the same is sent, for the server to say why it is no
   meld. Every move is still an ordinary form POST that the server decides.
   The board is swapped by morphing (idiomorph's htmx extension), so the element that has focus
   stays; when it is gone (a Draw button after the draw), focus goes to the nearest card. A key
   pressed with focus outside the board's controls starts from its button. */
(function () {
  "use strict";
  var root = document.getElementById("game-root");
  if (!root || !window.htmx) { return; }
  root.classList.add("direct-play");

  var SHORTCUTS = { d: "act-draw", t: "act-take", m: "act-meld", x: "act-discard" };

  function board() { return document.getElementById("board"); }
  function byId(id) { return document.getElementById(id); }
  function all(selector, within) { return Array.prototype.slice.call((within || document).querySelectorAll(selector)); }

  function plays() {
    var data = byId("play-targets");
    return data ? JSON.parse(data.textContent) : null;
  }
  function inTray(input) {
    var select = groupSelect(input.value);
    return !!select && select.value !== "";
  }
  function cardInputs() {
    return all("#board input[name=cards]").filter(function (input) { return !inTray(input); });
  }
  function selection() {
    return cardInputs().filter(function (input) { return input.checked; })
      .map(function (input) { return input.value; }).sort();
  }
  function sameCards(a, b) {
    return a.length === b.length && a.every(function (key) { return b.indexOf(key) >= 0; });
  }
  function covers(cards, keys) { return keys.every(function (key) { return cards.indexOf(key) >= 0; }); }

  // ----- targets: what the selection may be played on ---------------------------------------

  // A Frayzy action card alone: played on the discard pile (Skip, Discard 1) with its own button.
  function pileAction(keys, data) {
    return keys.length === 1 && !!data && !!data.actions && data.actions[keys[0]] === "pile";
  }
  function holdsActionCard(keys, data) {
    return !!data && !!data.actions && keys.some(function (key) { return key in data.actions; });
  }
  function legalTarget(name, keys, data) {
    if (!data || keys.length === 0) { return false; }
    if (name === "discard") { return keys.length === 1 && (data.discards.indexOf(keys[0]) >= 0 || pileAction(keys, data)); }
    if (name === "new") { return data.melds.some(function (cards) { return sameCards(cards, keys); }); }
    if (name.indexOf("meld:") === 0) {
      return (data.layoffs[name.slice(5)] || []).some(function (cards) { return sameCards(cards, keys); });
    }
    return name.indexOf("tray:") === 0;
  }
  // A card not selected fits when it and the selection are part of one legal meld or lay-off.
  function fits(key, keys, data) {
    var wanted = keys.concat([key]);
    var lists = [data.melds].concat(Object.keys(data.layoffs).map(function (id) { return data.layoffs[id]; }));
    return lists.some(function (list) { return list.some(function (cards) { return covers(cards, wanted); }); });
  }

  function update() {
    var data = plays();
    var keys = selection();
    all("#board [data-drop]").forEach(function (zone) {
      var legal = legalTarget(zone.dataset.drop, keys, data);
      zone.classList.toggle("is-target", legal);
      var button = zone.dataset.press && byId(zone.dataset.press);
      if (button && zone.dataset.drop.indexOf("meld:") === 0) { button.hidden = !legal; }
    });
    // The form's own buttons stay usable with a selection of their size: the server says why a
    // play is refused. Only the targets above are limited to the legal plays, and an action card
    // is never melded nor discarded (F8, F11): its own button plays it.
    var action = holdsActionCard(keys, data);
    var meld = byId("act-meld");
    if (meld) { meld.disabled = keys.length === 0 || action; }
    var discard = byId("act-discard");
    if (discard) { discard.disabled = keys.length !== 1 || action; }
    all("#board input[name=cards]").forEach(function (input) {
      var card = input.closest(".hand-card");
      card.classList.toggle("is-selected", input.checked);
      var fitting = !!data && !input.checked && !inTray(input) && fits(input.value, keys, data);
      card.classList.toggle("hand-card-fits", fitting);
      if (fitting) { input.setAttribute("aria-description", keys.length ? "fits your selection" : "can be played"); }
      else { input.removeAttribute("aria-description"); }
      card.classList.toggle("hand-card-in-tray", inTray(input));
    });
    all("[data-tray-put]").forEach(function (button) { button.disabled = keys.length === 0; });
  }

  // Press the button of a target, or fill a contract group. A selection put on "New meld" that is
  // not a legal meld is sent all the same: the server's refusal says why it is not a set or a run.
  function playOn(zone) {
    var name = zone.dataset.drop;
    var keys = selection();
    if (!legalTarget(name, keys, plays()) && !(name === "new" && keys.length > 0)) { return; }
    if (name.indexOf("tray:") === 0) { putInGroup(name.slice(5)); return; }
    var button = pileAction(selection(), plays()) ? byId("act-play-" + selection()[0]) : byId(zone.dataset.press);
    if (button && !button.disabled) { button.click(); }
  }

  // ----- Frustration's contract: the group selects are the form; the trays show them ---------

  function groupSelect(key) { return document.querySelector("#board select[name='group:" + CSS.escape(key) + "']"); }
  function handCard(key) { return byId("hand-" + key); }

  // The groups changed by hand: the trays follow, and a refusal of the groups sent before is stale.
  function regroup() {
    renderTrays();
    var refusal = board() && board().querySelector(".move-error");
    if (refusal) { refusal.hidden = true; }
  }

  function renderTrays() {
    all("#board .tray").forEach(function (tray) {
      var list = tray.querySelector(".tray-cards");
      list.textContent = "";
      all("#board select[name^='group:']").forEach(function (select) {
        if (select.value !== tray.dataset.group) { return; }
        var key = select.name.slice(6);
        if (!handCard(key)) { return; }
        var face = handCard(key).querySelector(".card").cloneNode(true);
        var button = document.createElement("button");
        button.type = "button";
        button.className = "tray-card";
        button.dataset.key = key;
        button.setAttribute("role", "listitem");
        button.setAttribute("aria-label", "Take " + (face.getAttribute("title") || key) + " back to your hand");
        button.appendChild(face);
        list.appendChild(button);
      });
    });
  }
  // What the contract's wilds stand for (the stands:<key> fields, rule 0.3): the suggestion's
  // reading, cleared whenever the groups change by hand (the server then asks, if it matters).
  function setStands(wilds) {
    all("#board input[name^='stands:']").forEach(function (input) { input.value = wilds[input.name.slice(7)] || ""; });
  }
  function putInGroup(group) {
    setStands({});
    selection().forEach(function (key) {
      groupSelect(key).value = group;
      byId("hand-" + key).querySelector("input").checked = false;
    });
    regroup();
    update();
  }
  function setGroups(groups, wilds) {
    setStands(wilds || {});
    all("#board select[name^='group:']").forEach(function (select) { select.value = ""; });
    groups.forEach(function (keys, index) {
      keys.forEach(function (key) { groupSelect(key).value = String(index + 1); });
    });
    cardInputs().forEach(function (input) { input.checked = false; });
    regroup();
    update();
  }

  // ----- keyboard ---------------------------------------------------------------------------

  // One tab stop for the hand: the card last moved to (or the first).
  function rove(current) {
    var inputs = cardInputs();
    var chosen = inputs.indexOf(current) >= 0 ? current : inputs[0];
    inputs.forEach(function (input) { input.tabIndex = input === chosen ? 0 : -1; });
  }
  function moveFocus(input, step) {
    var inputs = cardInputs();
    var next = inputs[Math.max(0, Math.min(inputs.length - 1, inputs.indexOf(input) + step))];
    if (next) { rove(next); next.focus(); }
  }
  var STEPS = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || !board()) { return; }
    var target = event.target;
    if (target.matches && target.matches("#board input[name=cards]")) {
      if (event.key in STEPS) { event.preventDefault(); moveFocus(target, STEPS[event.key]); return; }
      if (event.key === "Home" || event.key === "End") {
        event.preventDefault();
        moveFocus(target, event.key === "Home" ? -999 : 999);
        return;
      }
    }
    if (target.closest && target.closest("select, textarea, input:not([type=checkbox])")) { return; }
    var button = byId(SHORTCUTS[event.key && event.key.toLowerCase()]);
    if (button && !button.disabled && board().contains(button)) {
      event.preventDefault();
      // Focus outside the board's controls (the page itself after a load, the hand's section) would
      // have nothing to follow across the swap: start from the button, as if it had been pressed,
      // so focus lands on it again or, once it is gone (Draw, Take), on the card that arrived.
      if (!board().contains(target) || !target.matches("button, a, input, select, textarea")) { button.focus(); }
      button.click();
    }
  });

  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("#board input[name=cards]")) { rove(event.target); }
  });
  document.addEventListener("change", function (event) {
    if (!event.target.closest || !event.target.closest("#board")) { return; }
    if (event.target.matches("select[name^='group:']")) { regroup(); }
    update();
  });
  document.addEventListener("click", function (event) {
    if (!event.target.closest || !board() || !board().contains(event.target)) { return; }
    var trayCard = event.target.closest(".tray-card");
    if (trayCard) {
      setStands({});
      groupSelect(trayCard.dataset.key).value = "";
      regroup();
      update();
      var back = byId("hand-" + trayCard.dataset.key);
      if (back) { back.querySelector("input").focus(); }
      return;
    }
    var put = event.target.closest("[data-tray-put]");
    if (put) { putInGroup(put.dataset.trayPut); return; }
    if (event.target.closest("[data-contract-suggest]")) {
      setGroups(plays().contract || [], plays().contract_wilds);
      return;
    }
    if (event.target.closest("[data-contract-clear]")) { setGroups([]); return; }
    if (event.target.closest("button, a, input, select, label")) { return; }
    var zone = event.target.closest("[data-drop]");
    if (zone) { playOn(zone); }
  });

  // ----- dragging: arrange the hand, or drop a card on a target --------------------------------

  function pointOf(event) {
    var touch = event && event.changedTouches && event.changedTouches[0];
    return touch || event;
  }
  function dropZoneAt(event) {
    var point = pointOf(event);
    if (!point || typeof point.clientX !== "number") { return null; }
    var element = document.elementFromPoint(point.clientX, point.clientY);
    return element && element.closest("#board [data-drop]");
  }
  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
    catch (error) { return ""; }
  }
  function saveOrder(list) {
    var body = new URLSearchParams();
    all(".hand-card", list).forEach(function (card) { body.append("cards", card.dataset.key); });
    fetch(byId("hand").dataset.orderUrl, {
      method: "POST", body: body, credentials: "same-origin", headers: { "X-CSRFToken": csrfToken() }
    });
  }
  function arrangeable() {
    var list = document.querySelector("#board [data-hand-cards]");
    if (!list || !window.Sortable || Sortable.get(list)) { return; }
    var before = [];
    Sortable.create(list, {
      draggable: ".hand-card",
      forceFallback: true,
      delay: 200,             // on a touch screen, hold a card to drag it; a swipe still scrolls
      delayOnTouchOnly: true,
      fallbackOnBody: true, // the card that follows the pointer is a copy: keep it out of the form
      fallbackTolerance: 5,
      animation: 120,
      onStart: function () { before = all(".hand-card", list); },
      onEnd: function (event) {
        var zone = dropZoneAt(event.originalEvent);
        if (zone) {
          // SortableJS swallows the first click after a drag that did not reorder (no click
          // follows a touch drag): spend that on the document, not on the target's button.
          document.dispatchEvent(new MouseEvent("click"));
          before.forEach(function (card) { list.appendChild(card); });
          var input = event.item.querySelector("input");
          if (!input.checked) {
            cardInputs().forEach(function (other) { other.checked = other === input; });
          }
          update();
          playOn(zone);
        } else if (event.oldIndex !== event.newIndex) {
          saveOrder(list);
        }
      }
    });
  }

  // ----- swaps: morph the board, keep focus and (on a re-fetch) the selection -------------------

  function describeFocus() {
    var active = document.activeElement;
    var inputs = cardInputs();
    var memo = { keys: inputs.map(function (input) { return input.value; }) };
    if (!active || !board() || !board().contains(active)) { return memo; }
    memo.id = active.id;
    memo.index = inputs.indexOf(active);
    return memo;
  }
  function focusable(element) {
    return element && !element.disabled && element.getClientRects().length > 0;
  }
  function restoreFocus(memo) {
    if (!memo || (document.activeElement && document.activeElement !== document.body &&
                  board().contains(document.activeElement))) { return; }
    if (memo.id === undefined) { return; }
    var inputs = cardInputs().filter(function (input) { return !input.disabled; });
    var arrived = inputs.filter(function (input) { return memo.keys.indexOf(input.value) < 0; });
    var same = memo.id && byId(memo.id);
    var choice = focusable(same) ? same
      : arrived[0] || inputs[Math.min(Math.max(memo.index, 0), inputs.length - 1)] || byId("hand")
      || all("#board button:not([disabled])").filter(focusable)[0] || board();
    if (!choice.matches("button, a, input")) { choice.tabIndex = -1; }
    if (inputs.indexOf(choice) >= 0) { rove(choice); }
    choice.focus();
  }

  // Per request (two may overlap: a move's answer settles while a re-fetch starts).
  var memos = new WeakMap();
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig;
    memos.set(event.detail.xhr, {
      focus: describeFocus(),
      selection: config && config.verb === "get" ? selection() : null
    });
  });
  // Every swap of the board morphs it, when the request came from inside #game-root (hx-ext="morph"):
  // htmx falls back to an inner swap for a style no extension of the element handles.
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (detail.target && detail.target.id === "board" && detail.elt && detail.elt.closest &&
        detail.elt.closest("[hx-ext~=morph]")) {
      detail.swapOverride = "morph";
    }
  });
  document.body.addEventListener("htmx:afterSettle", function (event) {
    var memo = memos.get(event.detail.xhr) || {};
    if (memo.selection) {
      cardInputs().forEach(function (input) {
        if (memo.selection.indexOf(input.value) >= 0 && !input.disabled) { input.checked = true; }
      });
    }
    prepare();
    restoreFocus(memo.focus);
    showRefusal(event.detail.xhr);
  });

  // A refused move's reason is drawn at the top of the board, out of sight on a phone whose page
  // was scrolled down to the hand: bring it into view (the hand's bar stays along the bottom).
  function showRefusal(xhr) {
    var refusal = xhr && xhr.status >= 400 && board() && board().querySelector(".move-error");
    if (refusal) { refusal.scrollIntoView({ block: "nearest" }); }
  }

  // ----- the hand's bar along the bottom of a phone's screen: whatever the page brings into view
  // (focus, a tap's scroll) stops clear of it. Its height changes with the hand and the buttons.

  var barSize = window.ResizeObserver ? new ResizeObserver(clearOfBar) : null;
  function clearOfBar() {
    var hand = byId("hand");
    var sticky = hand && window.getComputedStyle(hand).position === "sticky";
    document.documentElement.style.scrollPaddingBottom = sticky ? hand.offsetHeight + "px" : "";
  }
  function watchBar() {
    var hand = byId("hand");
    if (barSize && hand) { barSize.observe(hand); }  // the same element again: still observed once
    clearOfBar();
  }

  function prepare() {
    if (!board()) { return; }
    watchBar();
    renderTrays();
    rove(document.activeElement);
    arrangeable();
    update();
  }
  prepare();
})();
