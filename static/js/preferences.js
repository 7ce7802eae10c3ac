/* The preferences page: when this browser's time zone is offered and is not the one selected,
   show a button that selects it. Nothing is saved until the form is. */
(function () {
  "use strict";
  var select = document.getElementById("id_time_zone");
  var offer = document.getElementById("browser-zone");
  if (!select || !offer || !window.Intl) { return; }
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  var offered = Array.prototype.some.call(select.options, function (option) { return option.value === zone; });
  if (!offered || select.value === zone) { return; }
  var button = offer.querySelector("button");
  button.textContent = "Use this browser's time zone (" + zone + ")";
  button.addEventListener("click", function () {
    select.value = zone;
    offer.hidden = true;
    select.focus();
  });
  offer.hidden = false;
})();
