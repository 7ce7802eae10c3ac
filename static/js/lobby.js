/* Lobby: the "Open a table" form shows only the chosen game's table options (each option's input
   says its game in data-variant-option). Without JavaScript every option shows, labelled with its game. */
(function () {
  "use strict";
  var form = document.querySelector("form[data-table-form]");
  var variant = form && form.querySelector("select[name=variant]");
  if (!variant) { return; }
  function showChosen() {
    Array.prototype.forEach.call(form.querySelectorAll("[data-variant-option]"), function (input) {
      input.closest("div").hidden = input.dataset.variantOption !== variant.value;
    });
  }
  variant.addEventListener("change", showChosen);
  showChosen();
})();
