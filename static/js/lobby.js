/* Lobby: the "Open a table" form shows only the chosen game's table options (each option's input
   says its game in data-variant-option); the others are disabled too, so a hidden option the player
   cannot see or correct never blocks the browser's form check, nor goes with the form. Without
   JavaScript every option shows, labelled with its game. */
(function () {
  "use strict";
  var form = document.querySelector("form[data-table-form]");
  var variant = form && form.querySelector("select[name=variant]");
  if (!variant) { return; }
  function showChosen() {
    Array.prototype.forEach.call(form.querySelectorAll("[data-variant-option]"), function (input) {
      var other = input.dataset.variantOption !== variant.value;
      input.closest("div").hidden = other;
      input.disabled = other;
    });
  }
  variant.addEventListener("change", showChosen);
  showChosen();
})();
