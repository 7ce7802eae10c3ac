// Replay viewer: the left and right arrow keys step back and forward, fetching the same fragment as
// the buttons (htmx.ajax works even while a just-swapped fragment is still being processed).
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("input, select, textarea")) {
    return;
  }
  const name = {ArrowLeft: "replay-back", ArrowRight: "replay-forward"}[event.key];
  const link = name && document.querySelector(`#replay [data-testid="${name}"]`);
  if (!link) {
    return;
  }
  event.preventDefault();
  if (window.htmx) {
    window.htmx.ajax("GET", link.getAttribute("hx-get"), {target: "#replay", swap: "outerHTML"});
  } else {
    window.location.assign(link.href);
  }
});
