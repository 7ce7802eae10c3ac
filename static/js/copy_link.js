/* "Copy link" buttons (data-copy: the id of the link to copy): copy the link's address with the
   clipboard API and say "Copied" in the button's status; where the clipboard is unavailable or
   refused, select the link's text for the player to copy. One listener on the document, so a
   button in a board swapped in later works too. */
(function () {
  "use strict";
  function say(button, text) {
    var status = button.parentElement.querySelector("[data-copy-status]");
    if (status) { status.textContent = text; }
  }
  function selectText(link, button) {
    window.getSelection().selectAllChildren(link);
    say(button, "Selected: copy it with your keyboard or menu");
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    var link = button && document.getElementById(button.dataset.copy);
    if (!link) { return; }
    if (!navigator.clipboard || !navigator.clipboard.writeText) {
      selectText(link, button);
      return;
    }
    navigator.clipboard.writeText(link.href).then(function () { say(button, "Copied"); },
                                                  function () { selectText(link, button); });
  });
})();
