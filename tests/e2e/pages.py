"""Shared checks of the look-and-feel and accessibility browser tests: sideways overflow at each
width, axe-core's serious and critical violations, screenshots (``TABLE_SHOTS=/some/folder``
saves every page at every width there), and ``ana``'s logged-in page."""
import os
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.e2e.conftest import E2E_PASSWORD
from tests.e2e.scenes import people
from tests.e2e.tables import silence_events

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
NARROWEST = {"width": 320, "height": 640}
SHOTS = os.environ.get("TABLE_SHOTS", "")
AXE = Axe()
SERIOUS = ("serious", "critical")

SIDEWAYS_OVERFLOW = """() => {
  // How far the page scrolls sideways, and the innermost elements that stick out on the right;
  // and the tables cut by their own sideways scroll (a column out of sight) but for a .table-scroll,
  // a focusable region whose edges show that it scrolls.
  const width = document.documentElement.clientWidth;
  const overflow = document.documentElement.scrollWidth - width;
  const cut = [...document.querySelectorAll(".table-wrap:not(.table-scroll)")]
    .filter(wrap => wrap.scrollWidth > wrap.clientWidth + 1)
    .map(wrap => `${wrap.querySelector("table").className || wrap.parentElement.className}`
      + ` by ${wrap.scrollWidth - wrap.clientWidth}px`);
  if (overflow <= 0 && cut.length === 0) return null;
  const out = [...document.querySelectorAll("body *")].filter(el => el.getBoundingClientRect().right > width + 0.5
    && ![...el.children].some(child => child.getBoundingClientRect().right > width + 0.5));
  return {overflow, cut, out: out.slice(0, 4).map(el => el.tagName.toLowerCase() + "." + [...el.classList].join("."))};
}"""


WORDS_BROKEN_MID_WORD = """selector => {
  // Words of the cells matched by selector whose short words (a normal name: "alice", "Computer 3
  // (strong)", "Finished") run over two lines; a word longer than 12 characters may break where it must.
  const found = [];
  for (const cell of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/\\S+/g)) {
        if (word[0].length > 12) continue;
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1) found.push(word[0]);
      }
    }
  }
  return found;
}"""
TABLE_CELLS = "main table :is(th, td)"
CUT_CELLS = """selector => [...document.querySelectorAll(selector)]
  // The cells matched by selector whose text runs past their own edge (cut or hidden), or past the
  // right edge of a table wrapper that does not show that it scrolls (a column out of sight).
  .map(cell => {
    const wrap = cell.closest(".table-wrap:not(.table-scroll)");
    const past = wrap ? Math.round(cell.getBoundingClientRect().right - wrap.getBoundingClientRect().right) : 0;
    const over = cell.scrollWidth - cell.clientWidth;
    return {text: cell.textContent.trim(), cut: Math.max(over, past)};
  })
  .filter(cell => cell.cut > 1)
  .map(cell => `${cell.text} by ${cell.cut}px`)"""
HIDDEN_CARD_TEXT = """texts => {
  // The texts matched by texts (a card's corner text, a wild's mark and what it stands for) that run
  // past their card, or that the next card covers where cards overlap: each text's own extent is tested.
  const found = [];
  const ownCard = (card, x, y) => {
    const hit = document.elementFromPoint(x, y);
    return hit !== null && hit.closest("[data-card]") === card;
  };
  for (const el of document.querySelectorAll(texts)) {
    const card = el.closest("[data-card]");
    el.scrollIntoView({block: "center"});
    const range = document.createRange();
    range.selectNodeContents(el);
    const text = range.getBoundingClientRect(), box = card.getBoundingClientRect();
    if (text.width === 0) continue;
    const middle = text.top + text.height / 2;
    const clipped = text.right > box.right - 1 || text.left < box.left;
    const covered = !ownCard(card, text.left + 1, middle) || !ownCard(card, text.right - 1, middle);
    if (clipped || covered) found.push(`${card.dataset.card} ${el.className} ${clipped ? "clipped" : "covered"}`);
  }
  return found;
}"""
MARKS_OVER_OTHER_CARDS = """marks => {
  // The wild marks matched by marks ("WILD", "=Green 3": they stick out of their card) that lie
  // over another card, but for the cards of their own overlapped meld (.meld-cards), which they are meant to.
  const found = [];
  for (const mark of document.querySelectorAll(marks)) {
    const card = mark.closest("[data-card]"), box = mark.getBoundingClientRect();
    if (box.width === 0) continue;
    const group = mark.closest(".meld-cards");
    for (const other of document.querySelectorAll("[data-card]")) {
      if (other === card || (group && group.contains(other))) continue;
      const o = other.getBoundingClientRect();
      if (box.left < o.right - 1 && o.left < box.right - 1 && box.top < o.bottom - 1 && o.top < box.bottom - 1) {
        found.push(`${card.dataset.card} ${mark.className} over ${other.dataset.card}`);
      }
    }
  }
  return found;
}"""


def screenshot(page, name: str, size: dict) -> None:
    """With TABLE_SHOTS set: the whole page, and the first screen as the player sees it."""
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}-{size['width']}.png"), full_page=True)
        page.screenshot(path=os.path.join(SHOTS, f"{name}-{size['width']}-screen.png"))


def overflow_at_each_width(page, name: str) -> dict:
    """``{width: how far the page scrolls sideways, what sticks out, the tables cut, the words of
    table cells broken mid-word}`` at 1280, 390 and 320 px, for the widths where any is."""
    found = {}
    for size in (DESKTOP, PHONE, NARROWEST):
        page.set_viewport_size(size)
        screenshot(page, name, size)
        overflow = page.evaluate(SIDEWAYS_OVERFLOW) or {}
        if broken := page.evaluate(WORDS_BROKEN_MID_WORD, TABLE_CELLS):
            overflow["broken"] = broken
        if overflow:
            found[size["width"]] = overflow
    page.set_viewport_size(DESKTOP)
    return found



def serious_violations(page) -> list[str]:
    """axe-core's serious and critical violations on ``page``: ``["color-contrast: .seat-cards", ...]``."""
    results = AXE.run(page)
    return [f"{violation['id']}: {', '.join(str(node['target']) for node in violation['nodes'][:3])}"
            for violation in results.response["violations"] if violation["impact"] in SERIOUS]


def log_in_as(page, username: str) -> None:
    """Log ``username`` in through the login form (password ``E2E_PASSWORD``)."""
    page.goto("/accounts/login/")
    form = page.locator("main form")
    form.locator("input[name=login]").fill(username)
    form.locator("input[name=password]").fill(E2E_PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))


@pytest.fixture
def ana(browser_context, live_server_url, monkeypatch):
    """``ana``'s logged-in page; ``ana``, ``ben``, ``cat`` and ``dan`` exist. Events from this
    process are silenced (tables are set up here, see ``silence_events``)."""
    silence_events(monkeypatch)
    people(4)
    page = browser_context().new_page()
    log_in_as(page, "ana")
    return page
