"""The table in a real browser at 1280×800, 390×844 and 320 px: no page scrolls sideways, the
2-player Standard Rummy table fits the phone (piles, meld owners, the whole hand), no card's text is
clipped or covered where cards overlap, score sheets of 4 players fit, the turn clock counts down
and warns, and the turn sound's switch is remembered.

``TABLE_SHOTS=/some/folder`` saves screenshots of every page at every width there (tests/e2e/pages.py).
"""
import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from games import services
from games.models import Seat
from tests.e2e.pages import (  # noqa: F401 (ana: a fixture)
    DESKTOP,
    HIDDEN_CARD_TEXT,
    NARROWEST,
    PHONE,
    ana,
    log_in_as,
    overflow_at_each_width,
    screenshot,
)
from tests.e2e.scenes import TABLE_SCENES, finished_game, game_with_results, make_table_scene, people
from tests.e2e.tables import UPDATE_TIMEOUT_MS, wait_for_newer_board
from tests.engine.builders import build
from tests.factories import make_started_game, make_table, make_user, play_moves, put_position

pytestmark = [pytest.mark.e2e]

BOARD_CARD_TEXT = ("#board .card-rank, #board .card-index:not(:has(.card-rank)), #board .card-colour-name, "
                   "#board :is(.meld, .hand) .card-wild-mark, #board .meld .card-stands")
"""A card's corner text (rank and suit; Frayzy: number, shape and colour word; a meld's wild: its
mark and what it stands for, which sit over the card's edges)."""


def test_no_table_in_play_scrolls_sideways_or_hides_card_text(ana):
    overflows, hidden = {}, {}
    for name in TABLE_SCENES:
        game = make_table_scene(name)
        ana.goto(game.get_absolute_url())
        expect(ana.locator(".seats")).to_be_visible()
        if found := overflow_at_each_width(ana, name):
            overflows[name] = found
        for size in (DESKTOP, PHONE, NARROWEST):
            ana.set_viewport_size(size)
            if found := ana.evaluate(HIDDEN_CARD_TEXT, BOARD_CARD_TEXT):
                hidden[f"{name}-{size['width']}"] = found
    assert (overflows, hidden) == ({}, {}), "\n".join(f"{k}: {v}" for k, v in {**overflows, **hidden}.items())


def test_the_two_player_standard_table_fits_the_phone(ana):
    """Piles, every meld's owner and cards and the whole hand are on the first screen at 390×844,
    unscrolled, none under another (the hand's bar)."""
    game = make_table_scene("standard-play")
    ana.set_viewport_size(PHONE)
    ana.goto(game.get_absolute_url())
    expect(ana.locator(".hand [data-card]")).to_have_count(11)
    ana.evaluate("() => window.scrollTo(0, 0)")
    outside = ana.evaluate("""() => {
      const wanted = [".pile-stock .card", ".pile-discard .card", ".meld:not(.meld-new) .meld-owner",
                      ".meld [data-card]", ".hand [data-card]"];
      const found = [];
      for (const selector of wanted) {
        for (const el of document.querySelectorAll("#board " + selector)) {
          const box = el.getBoundingClientRect();
          const hit = document.elementFromPoint(box.left + Math.min(box.width / 2, 8),
                                                box.top + Math.min(box.height / 2, 10));
          const covered = hit === null || !(el.contains(hit) || hit.contains(el));
          if (covered || box.top < 0 || box.bottom > window.innerHeight
              || box.left < 0 || box.right > window.innerWidth) {
            found.push(`${selector} ${el.dataset.card || el.textContent.trim()}`
                       + ` at ${Math.round(box.top)}..${Math.round(box.bottom)}`);
          }
        }
      }
      return found;
    }""")
    screenshot(ana, "standard-phone-fit", PHONE)
    assert outside == []


UNDER_THE_HAND_BAR = """() => {
  // Every control of the board brought into view as the browser does (tabbing, a tap's scroll):
  // the ones a point in their middle does not reach (the hand's bar over them), and every element
  // that scrolls inside itself.
  const describe = el => el ? el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + "." + [...el.classList].join(".")
    + (el.textContent.trim() ? " " + JSON.stringify(el.textContent.trim().slice(0, 24)) : "") : "nothing";
  const controls = [...document.querySelectorAll(
    "#board :is(button, a[href], select, textarea, summary, label.hand-card, [data-drop])")]
    .filter(el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden"
      && !(el.closest("details:not([open])") && !el.closest("summary")));
  const hidden = [];
  for (const el of controls) {
    el.scrollIntoView({block: "nearest"});
    const box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + Math.min(box.width / 2, 12), box.top + box.height / 2);
    if (!hit || !(el.contains(hit) || hit.contains(el))) hidden.push(describe(el) + " under " + describe(hit));
  }
  const scrolling = [...document.querySelectorAll("#board *")].filter(el => el.scrollHeight > el.clientHeight + 1
    && /(auto|scroll)/.test(getComputedStyle(el).overflowY)).map(describe);
  return {hidden, scrolling};
}"""


def test_no_control_hides_under_the_hand_bar_of_a_phone(ana):
    """At 390×844 and 320×640 the hand's bar holds the hand and its buttons only: every other
    control of every scene (melds, "New meld", Frustration's trays and contract button, Frayzy's
    action cards, the move log, the report form) comes into view clear of it, and nothing scrolls
    inside itself (the contract area included)."""
    found = {}
    for name in TABLE_SCENES:
        game = make_table_scene(name)
        for size in (PHONE, NARROWEST):
            ana.set_viewport_size(size)
            ana.goto(game.get_absolute_url())
            expect(ana.locator(".seats")).to_be_visible()
            result = ana.evaluate(UNDER_THE_HAND_BAR)
            if result["hidden"] or result["scrolling"]:
                found[f"{name}-{size['width']}"] = result
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())


LONG_NAMES = ["Bartholomew_Fitzgerald", "Anastasia-Konstantinova", "Wolfgang.Amadeus.Mozart", "Christopher_Columbus"]
SCORE_SHEET_FIT = """sheet => {
  // How far the sheet scrolls sideways, headings whose text is cut, and the Result cells' width
  // (of its last table: a contract board's Advances).
  const wraps = [...sheet.querySelectorAll(".table-wrap")];
  const cut = [...sheet.querySelectorAll("th, td")].filter(cell => cell.scrollWidth > cell.clientWidth + 1)
    .map(cell => cell.textContent.trim());
  const results = [...wraps.at(-1).querySelectorAll("tbody td:last-child")]
    .map(cell => cell.getBoundingClientRect().width);
  const lines = cell => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    return range.getClientRects().length;
  };
  const broken = [...sheet.querySelectorAll("th:first-child, td:not(:last-child)")].filter(cell => lines(cell) > 1)
    .map(cell => cell.textContent.trim());
  const sideways = Math.max(...wraps.map(wrap => wrap.scrollWidth - wrap.clientWidth));
  return {sideways, cut, broken, narrowest_result: Math.min(...results)};
}"""


def test_score_sheets_of_four_players_fit(ana):
    """Four players with long names: the names wrap in the headings, the Result column keeps room
    for "... went out" (80 px at least), "Round", "Total" and the points stay whole, nothing is cut
    and nothing scrolls sideways, at 1280 and 390 px."""
    game = game_with_results("frayzy", 4, humans=[make_user(name) for name in LONG_NAMES])
    ana.goto(game.get_absolute_url())
    sheet = ana.locator(".score-sheet")
    expect(sheet.locator("tbody tr")).not_to_have_count(0)
    for size in (DESKTOP, PHONE):
        ana.set_viewport_size(size)
        screenshot(ana, "score-sheet-4", size)
        fit = sheet.evaluate(SCORE_SHEET_FIT)
        assert (fit["sideways"], fit["cut"], fit["broken"]) == (0, [], []) and fit["narrowest_result"] >= 80, \
            (size["width"], fit)
    expect(sheet.locator("thead")).to_contain_text("Round")
    expect(sheet.locator("tbody td").last).to_contain_text("went out")


COMPUTERS = ((1, Seat.BotLevel.EASY), (2, Seat.BotLevel.NORMAL), (3, Seat.BotLevel.EXPERT))


@pytest.mark.parametrize("variant", ["standard", "wild", "frayzy", "frustration"])
def test_four_players_tables_fit_the_desktop_side_column(ana, variant):
    """ana and three computer players ("Computer 2 (easy)", whose words never break): at 1280 px
    the score sheet shows every column, the Result column 80 px wide at least (Frustration: its
    contract board and Advances show every column)."""
    game = game_with_results(variant, 4)
    for position, level in COMPUTERS:
        Seat.objects.filter(game=game, position=position).update(user=None, bot_level=level)
    ana.set_viewport_size(DESKTOP)
    ana.goto(game.get_absolute_url())
    sheet = ana.locator(".contract-board" if variant == "frustration" else ".score-sheet")
    expect(sheet.locator("tbody tr").first).not_to_contain_text("No round finished yet")
    screenshot(ana, f"four-players-{variant}", DESKTOP)
    fit = sheet.evaluate(SCORE_SHEET_FIT)
    assert (fit["sideways"], fit["cut"]) == (0, []), fit
    assert variant == "frustration" or fit["narrowest_result"] >= 80, fit


TWO_COLUMNS = """() => {
  // The boxes of the table (the play form) and of the side column (log and score sheet).
  const box = selector => document.querySelector(selector).getBoundingClientRect();
  return {table: box("#board .play-form").toJSON(), side: box("#board .board-side").toJSON()};
}"""


def test_a_finished_game_keeps_the_two_columns_of_a_game_in_play(ana):
    """At 1280 px the game-over page puts the table on the left and the latest moves and the score
    sheet beside it on the right, under the final standings and the last deal's link (which took
    the left column's first row, pushing the table to the right and the log below it)."""
    game = finished_game()
    ana.set_viewport_size(DESKTOP)
    ana.goto(game.get_absolute_url())
    expect(ana.get_by_test_id("final-deal-summary-link")).to_be_visible()
    screenshot(ana, "game-over", DESKTOP)
    boxes = ana.evaluate(TWO_COLUMNS)
    table, side = boxes["table"], boxes["side"]
    assert table["left"] < DESKTOP["width"] / 4 and table["right"] <= side["left"], boxes
    assert abs(table["top"] - side["top"]) < 2, boxes


MELD_OWNERS = """() => [...document.querySelectorAll("#board .meld[data-meld] .meld-owner")].flatMap(label => {
  // Owner labels cut short although their row has room for them, or whose text a wild's mark of
  // their meld ("WILD", which sticks out above its card) lies over.
  const row = label.closest(".melds-list").getBoundingClientRect(), box = label.getBoundingClientRect();
  const found = [];
  if (label.scrollWidth > label.clientWidth + 1 && box.width < row.width - 1) found.push("cut");
  const range = document.createRange();
  range.selectNodeContents(label);
  const text = range.getBoundingClientRect();
  for (const mark of label.closest(".meld").querySelectorAll(".card-wild-mark")) {
    const m = mark.getBoundingClientRect();
    if (m.left < text.right - 1 && text.left < m.right - 1 && m.top < text.bottom - 1 && text.top < m.bottom - 1) {
      found.push("covered");
    }
  }
  return found.map(what => `${label.textContent} ${what}`);
})"""


def test_meld_owners_are_readable_above_their_melds(ana):
    """Computer players own wild melds: "Computer 3 (normal)" is read whole above each meld (it was
    cut to "Computer 3 (nor…" at 8rem), and no WILD mark covers it, at 1280, 390 and 320 px."""
    game = make_table_scene("wild-play")
    for position, level in COMPUTERS[:2]:
        Seat.objects.filter(game=game, position=position).update(user=None, bot_level=level)
    ana.goto(game.get_absolute_url())
    expect(ana.locator(".meld-owner").filter(has_text="Computer 3")).not_to_have_count(0)
    found = {}
    for size in (DESKTOP, PHONE, NARROWEST):
        ana.set_viewport_size(size)
        screenshot(ana, "meld-owners", size)
        if problems := ana.evaluate(MELD_OWNERS):
            found[size["width"]] = problems
    assert found == {}, found


def test_the_clock_counts_down_warns_and_hands_over_to_the_computer(ana):
    game = make_table_scene("standard-draw", time_per_move=120)
    ana.goto(game.get_absolute_url())
    clock = ana.locator(".seat[data-seat='0'] [data-testid='time-left']")
    expect(clock).to_have_text(re.compile(r"^1:[0-5]\d left$"))
    first = clock.inner_text()
    expect(clock).not_to_have_text(first, timeout=3000)
    assert clock.get_attribute("class") == "time-left"

    Seat.objects.filter(game=game, position=0).update(deadline=timezone.now() + dt.timedelta(seconds=8))
    ana.reload()
    expect(clock).to_have_class("time-left time-left-warning")
    expect(clock).to_have_text("time is up: the computer plays this turn", timeout=12_000)

    # The turn sound's switch: on by default, off once pressed, remembered by the next page.
    toggle = ana.get_by_role("button", name="Turn sound: on")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    toggle.click()
    ana.reload()
    expect(ana.get_by_role("button", name="Turn sound: off")).to_have_attribute("aria-pressed", "false")


COUNT_ANIMATIONS = """() => { window.animationsAfterSwap = -1;
  document.body.addEventListener("htmx:afterSwap", () => setTimeout(() => {
    window.animationsAfterSwap = document.getAnimations().length;
  }, 0)); }"""
RESORT_HAND = """(url) => htmx.ajax("GET", url + "?sort=rank", {target: "#board", swap: "outerHTML"})"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_cards_move_on_a_swap_unless_the_player_prefers_reduced_motion(ana, motion):
    game = make_table_scene("standard-play")
    ana.emulate_media(reduced_motion=motion)
    ana.goto(game.get_absolute_url())
    ana.evaluate(COUNT_ANIMATIONS)
    ana.evaluate(RESORT_HAND, ana.locator("#game-root").get_attribute("data-board-url"))
    ana.wait_for_function("() => window.animationsAfterSwap >= 0")
    moving = ana.evaluate("() => window.animationsAfterSwap")
    assert (moving > 0) == (motion == "no-preference"), moving


def ana_goes_out(game, *others: str) -> None:
    """ana (seat 0, to play) holds 5♠ 5♥ 5♣ 9♦ and goes out with them; the other seats hold
    ``others``: the deal ends and the next one is dealt."""
    put_position(game, build(["5S 5H 5C 9D", *others], phase="play").deal)
    for action in ({"type": "lay_meld", "cards": ["5S", "5H", "5C"]}, {"type": "discard", "card": "9D"}):
        game.refresh_from_db()
        services.submit_move(game.seats.get(position=0).user, game.pk, game.version, action)
    game.refresh_from_db()


def test_the_end_of_a_deal_shows_its_summary_until_dismissed(ana):
    """ana goes out (5♠ 5♥ 5♣, discarding 9♦): the next deal's table shows how the hand ended over
    the board; once dismissed it stays away, also after a reload."""
    game = make_table_scene("standard-play")
    ana_goes_out(game, "KH QS 2C")
    ana.goto(game.get_absolute_url())
    summary = ana.get_by_test_id("deal-summary")
    expect(summary).to_contain_text("Hand 1 is over")
    expect(summary).to_contain_text("ana went out.")
    expect(summary.get_by_test_id("summary-line").nth(1)).to_contain_text("22")
    for size in (PHONE, DESKTOP):
        ana.set_viewport_size(size)
        screenshot(ana, "deal-summary-over-the-table", size)
        box = summary.bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= size["height"], box
    ana.get_by_test_id("dismiss-summary").click()
    expect(summary).to_be_hidden()
    ana.reload()
    expect(ana.locator("#board .seats")).to_be_visible()
    expect(ana.get_by_test_id("deal-summary-slot")).to_be_hidden()


def test_a_deal_summary_keeps_a_long_hand_on_one_line_on_the_desktop(ana):
    """ben is left holding 9 cards: at 1280 px the summary over the table is as wide as its table
    needs, so his cards take one line (the 36rem panel wrapped them after 7)."""
    game = make_table_scene("standard-play")
    ana_goes_out(game, "KH QS 2C 3D 4H 6S 7C 8D 9S")
    ana.set_viewport_size(DESKTOP)
    ana.goto(game.get_absolute_url())
    cards = ana.get_by_test_id("deal-summary").get_by_test_id("summary-line").nth(1).locator("[data-card]")
    expect(cards).to_have_count(9)
    screenshot(ana, "deal-summary-long-hand", DESKTOP)
    tops = {round(box["y"]) for box in (cards.nth(i).bounding_box() for i in range(9))}
    assert len(tops) == 1, tops


def look_again(page) -> None:
    """Have ``page`` compare its board's version with the server's and re-fetch a newer board, as
    it does when its tab is shown again: the changes this process makes send no events
    (``silence_events``), and with Redis a page whose socket is open does not poll."""
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")


def test_a_spectator_sees_the_latest_deals_summary_and_may_dismiss_it(ana, browser_context):
    """dan watches ana and ben without a seat (testers saw a stale summary there): when hand 1
    ends his table shows how it ended, still hand 1's while hand 2 goes on, which he may dismiss
    as a player does; when hand 2 ends, hand 2's, also after a reload; and never a hand of cards."""
    game = make_table_scene("standard-play")
    dan = browser_context().new_page()
    log_in_as(dan, "dan")
    dan.goto(game.get_absolute_url())
    expect(dan.locator("#board .seats")).to_be_visible()
    summary = dan.get_by_test_id("deal-summary")
    ana_goes_out(game, "KH QS 2C")
    look_again(dan)
    expect(summary).to_have_attribute("data-deal", "1", timeout=UPDATE_TIMEOUT_MS)
    expect(summary).to_contain_text("Hand 1 is over")
    play_moves(game, 8)
    game.refresh_from_db()
    look_again(dan)
    wait_for_newer_board(dan, game.version - 1)
    expect(summary).to_have_attribute("data-deal", "1")
    expect(dan.locator("#board .hand [data-card]")).to_have_count(0)
    dan.get_by_test_id("dismiss-summary").click()
    expect(summary).to_be_hidden()
    ana_goes_out(game, "KH QS 2C")
    look_again(dan)
    expect(summary).to_have_attribute("data-deal", "2", timeout=UPDATE_TIMEOUT_MS)
    expect(summary).to_be_visible()
    dan.reload()
    expect(summary).to_have_attribute("data-deal", "2")
    dan.get_by_test_id("dismiss-summary").click()
    dan.reload()
    expect(dan.locator("#board .seats")).to_be_visible()
    expect(dan.get_by_test_id("deal-summary-slot")).to_be_hidden()


SMALL_PHONE = {"width": 375, "height": 667}
UNCOVERED = """selector => [...document.querySelectorAll(selector)].filter(el => {
  // The elements of selector whose centre is covered by another element (the summary's panel).
  const box = el.getBoundingClientRect();
  const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return !(top && (el.contains(top) || top.contains(el)));
}).map(el => el.dataset.card || el.id || el.className)"""


def test_four_hands_left_holding_leave_the_table_in_sight_on_a_small_phone(ana):
    """Four players' leftover hands filled a 375×667 screen and covered the hand's bar: the
    summary is at most 55% of the screen high and scrolls on its own, its "Play on" in sight, and
    the hand's bar stays in sight and in reach; at 1280 px it still needs no scrolling."""
    game = make_started_game(players=4, humans=people(4), seed="summary-four")
    ana_goes_out(game, "KH QS 2C 3D 4H 6S 7C 8D 9S", "AH 2H 3H 8C 8H 4S 6D", "JS JD 10C 7H 7D KD QC")
    ana.set_viewport_size(SMALL_PHONE)
    ana.goto(game.get_absolute_url())
    summary = ana.get_by_test_id("deal-summary")
    expect(summary.get_by_test_id("summary-line")).to_have_count(4)
    screenshot(ana, "deal-summary-four-players", SMALL_PHONE)
    panel = ana.get_by_test_id("deal-summary-slot")
    box, hand = panel.bounding_box(), ana.locator("#hand").bounding_box()
    assert box["height"] <= 0.55 * SMALL_PHONE["height"] + 1 and box["y"] + box["height"] <= hand["y"], (box, hand)
    assert ana.evaluate(UNCOVERED, "#hand .hand-card, #hand a") == []
    play_on = ana.get_by_test_id("dismiss-summary")
    assert ana.evaluate(UNCOVERED, ".deal-summary-close") == []
    assert panel.evaluate("p => p.scrollHeight > p.clientHeight")
    last = summary.get_by_test_id("summary-line").last
    last.scroll_into_view_if_needed()
    expect(last).to_be_in_viewport()
    assert ana.evaluate("window.scrollY") == 0 and ana.evaluate(UNCOVERED, ".deal-summary-close") == []
    ana.set_viewport_size(DESKTOP)
    screenshot(ana, "deal-summary-four-players", DESKTOP)
    assert panel.evaluate("p => p.scrollHeight <= p.clientHeight")
    ana.set_viewport_size(SMALL_PHONE)
    play_on.click()
    expect(summary).to_be_hidden()


def test_the_invite_link_is_a_link_that_copies_itself(ana):
    """A private table's invite link is a link; "Copy link" puts it on the clipboard and says
    "Copied"; without a clipboard it selects the link's text instead."""
    game = make_table(people(1)[0], is_private=True)
    ana.context.grant_permissions(["clipboard-read", "clipboard-write"])
    ana.goto(game.get_absolute_url())
    link = ana.get_by_test_id("invite-link")
    address = f"{ana.url.split('/games/')[0]}{reverse('join_by_code', args=[game.invite_code])}"
    expect(link).to_have_text(address)
    assert link.evaluate("a => a.href") == address
    for size in (DESKTOP, PHONE):
        ana.set_viewport_size(size)
        screenshot(ana, "invite-link", size)
    ana.get_by_test_id("copy-invite-link").click()
    expect(ana.get_by_test_id("copy-status")).to_have_text("Copied")
    assert ana.evaluate("() => navigator.clipboard.readText()") == address
    ana.add_init_script("Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined})")
    ana.reload()
    ana.get_by_test_id("copy-invite-link").click()
    expect(ana.get_by_test_id("copy-status")).to_contain_text("Selected")
    assert ana.evaluate("() => window.getSelection().toString()") == address


def test_a_page_whose_websocket_is_down_still_catches_up(ana):
    """With the game's websocket refused on the way (here: closed by a route), the page compares
    versions every few seconds and shows the move it was not told about (this process sends no
    events, see silence_events)."""
    game = make_table_scene("standard-draw")
    ana.route_web_socket(re.compile(r"/ws/games/"), lambda socket: socket.close(code=1011))
    ana.goto(game.get_absolute_url())
    version = int(ana.locator("#board").get_attribute("data-version"))
    services.submit_move(game.seats.get(position=0).user, game.pk, version, {"type": "draw_stock"})
    ana.wait_for_function("v => Number(document.querySelector('#board').dataset.version) > v", arg=version,
                          timeout=10_000)


def test_a_hidden_option_of_another_game_does_not_block_opening_a_table(ana):
    """A Standard target below its minimum, then another game chosen: the table opens (the hidden
    field used to fail the browser's form check without a word)."""
    ana.goto("/")
    form = ana.locator("form[data-table-form]")
    form.locator("input[name=target]").fill("20")
    form.locator("select[name=variant]").select_option("wild")
    form.get_by_role("button", name="Open table").click()
    expect(ana).to_have_url(re.compile(r"/games/\d+/$"))


def test_the_lobby_shows_only_the_chosen_games_options(ana):
    """Tick boxes included: their row's flex rule must not outrank ``hidden``."""
    ana.goto("/")
    form = ana.locator("form[data-table-form]")
    going_rummy, target = form.locator("input[name=going_rummy]"), form.locator("input[name=target]")
    frayzy_target = form.locator("select[name=frayzy_target]")
    expect(going_rummy).to_be_visible()
    expect(frayzy_target).to_be_hidden()
    for variant in ("wild", "frustration", "frayzy"):
        form.locator("select[name=variant]").select_option(variant)
        expect(going_rummy).to_be_hidden()
        expect(target).to_be_hidden()
        if variant == "frayzy":
            expect(frayzy_target).to_be_visible()
        else:
            expect(frayzy_target).to_be_hidden()


LONGEST_NAME = "Longname" + "W" * 142
"""A user name as long as the site allows (150 characters), one unbroken word of wide letters."""
NAME_LINES = """name => {
  // Boxes holding the name (the nearest box that is not inline around the innermost element whose
  // text holds it whole) that run over two lines, or out of the window on the right.
  const found = [];
  const holders = [...document.querySelectorAll("main *")].filter(el => el.textContent.includes(name)
    && ![...el.children].some(child => child.textContent.includes(name)) && el.getClientRects().length > 0);
  for (const holder of holders) {
    let box = holder;
    while (getComputedStyle(box).display === "inline") box = box.parentElement;
    const style = getComputedStyle(box), rect = box.getBoundingClientRect();
    const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
    const lines = (rect.height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)
      - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth)) / line;
    if (lines > 2.5 || rect.right > document.documentElement.clientWidth + 0.5) {
      found.push(`${box.tagName.toLowerCase()}.${[...box.classList].join(".")} ${lines.toFixed(1)} lines`);
    }
  }
  return found;
}"""


def test_long_names_are_shortened_and_short_names_stay_whole(ana):
    """A 150-character name: the table, its record, My games and the player's profile and history
    scroll sideways at no width and no column is cut; the name takes two lines at most anywhere
    (seat boxes, turn banner, score sheets' and contract tables' headings, lists, page headings)
    and is read whole by a screen reader; "ana" and "Computer 3 (normal)" are never broken
    mid-word (overflow_at_each_width)."""
    game = game_with_results("frustration", 3, humans=[people(1)[0], make_user(LONGEST_NAME), make_user("bobby")])
    Seat.objects.filter(game=game, position=2).update(user=None, bot_level=Seat.BotLevel.NORMAL)
    found = {}
    pages = {"table": game.get_absolute_url(), "record": reverse("game_record", args=[game.pk]),
             "my-games": reverse("my_games"), "profile": reverse("profile", args=[LONGEST_NAME]),
             "history": reverse("match_history", args=[LONGEST_NAME])}
    for name, url in pages.items():
        ana.goto(url)
        if overflow := overflow_at_each_width(ana, f"long-name-{name}"):
            found[f"{name} sideways"] = overflow
        for size in (DESKTOP, PHONE, NARROWEST):
            ana.set_viewport_size(size)
            if long := ana.evaluate(NAME_LINES, LONGEST_NAME):
                found[f"{name}-{size['width']} long"] = long
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
    ana.goto(game.get_absolute_url())
    expect(ana.get_by_role("columnheader", name=LONGEST_NAME, exact=True)).not_to_have_count(0)
    expect(ana.locator(".seats").get_by_text(LONGEST_NAME, exact=True)).to_be_visible()


def test_frustration_deal_summary_and_advances_fit_the_narrowest_phone(ana):
    """Issue 18: short names, yet the deal summary of a 3-player Frustration game (its standalone
    page, and over the table) and the "Advances" table of a 4-player one were cut inside their own
    sideways scroll at 320 px (and the Advances one at 390 and in the 1280 side column)."""
    three = game_with_results("frustration", 3)
    deal = three.deals.exclude(result=None).order_by("number").first()
    ana.goto(reverse("game_deal_summary", args=[three.pk, deal.number]))
    expect(ana.get_by_test_id("deal-summary")).to_be_visible()
    found = {"summary-3": overflow_at_each_width(ana, "frustration-summary-3")}
    four = game_with_results("frustration", 4, deals=3)
    ana.goto(four.get_absolute_url())
    expect(ana.locator(".contract-history tbody tr").first).not_to_contain_text("No round finished yet")
    found["advances-4"] = overflow_at_each_width(ana, "frustration-advances-4")
    assert found == {"summary-3": {}, "advances-4": {}}, found


def test_a_new_deals_hand_is_dealt_not_drawn(ana):
    """Ben goes out and the next deal gives Ana the first turn: none of her new cards is marked as
    just drawn, though some are cards she also held in the last deal (the third trial's screen
    reader heard 7 of 8 new cards called "just drawn")."""
    ana_user, ben = people(2)
    game = make_started_game(players=2, humans=[ana_user, ben], seed="e2e-new-deal", options={"target": 1000})
    put_position(game, build(["6C 6D 6H 2D 9H JS QS", "KH"], melds=[(1, "10D JD QD")], discard="3S",
                             turn=1, phase="play", dealer=0).deal)
    game.refresh_from_db()
    ana.goto(game.get_absolute_url())
    hand = ana.locator(".hand .hand-card")
    expect(hand).to_have_count(7)
    before = set(hand.evaluate_all("cards => cards.map(card => card.dataset.key)"))

    services.submit_move(ben, game.pk, game.version, {"type": "discard", "card": "KH"})
    ana.evaluate("htmx.ajax('GET', document.getElementById('game-root').dataset.boardUrl,"
                 " {source: '#board', target: '#board', swap: 'outerHTML'})")
    expect(ana.locator("#board")).to_have_attribute("data-deal", "2")
    expect(ana.locator("#board")).to_have_attribute("data-your-turn", "1")
    after = set(hand.evaluate_all("cards => cards.map(card => card.dataset.key)"))
    assert before & after and after - before, "the new hand must share cards with the last one to test this"
    expect(ana.locator(".hand-card-drawn")).to_have_count(0)


def test_the_card_just_drawn_is_told_apart_from_a_yellow_frayzy_card(ana):
    """The mark of a card just drawn is a hatching and a dark bottom bar over the card's own face,
    not a colour: a tester took the old gold face for a yellow card."""
    game = make_table_scene("frayzy-closed")
    ana.goto(game.get_absolute_url())
    ana.set_viewport_size(PHONE)
    ana.locator("#act-draw").click()
    drawn = ana.locator(".hand-card-drawn .card")
    expect(drawn).to_have_count(1)
    screenshot(ana, "frayzy-card-just-drawn", PHONE)
    look = "card => { const s = getComputedStyle(card); return [s.backgroundImage, s.backgroundColor, s.boxShadow]; }"
    drawn_image, drawn_face, drawn_shadow = drawn.evaluate(look)
    yellow = ana.locator(".hand-card:not(.hand-card-drawn) .card-colour-yellow").first
    yellow_image, yellow_face, _ = yellow.evaluate(look)
    assert "repeating-linear-gradient" in drawn_image and yellow_image == "none"
    assert "inset" in drawn_shadow and "-7px" in drawn_shadow
    if "card-colour-yellow" not in drawn.get_attribute("class"):
        assert drawn_face != yellow_face, (drawn_face, yellow_face)


def test_the_card_just_drawn_is_marked_until_the_turn_ends(ana):
    """A draw from the stock marks the one new card of the hand (a hatched face, "just drawn" in its
    checkbox's name for a screen reader); the mark stays when the hand is sorted again, over a reload and in a second
    tab, and goes with the discard."""
    game = make_table_scene("standard-draw")
    ana.goto(game.get_absolute_url())
    hand = ana.locator(".hand .hand-card")
    expect(hand).to_have_count(10)
    before = set(hand.evaluate_all("cards => cards.map(card => card.dataset.key)"))
    expect(ana.locator(".hand-card-drawn")).to_have_count(0)

    ana.locator("#act-draw").click()
    expect(hand).to_have_count(11)
    drawn = ana.locator(".hand-card-drawn")
    expect(drawn).to_have_count(1)
    key = drawn.get_attribute("data-key")
    assert key not in before
    # Heard once, in the card's checkbox (its face is hidden from screen readers).
    expect(drawn.locator("input")).to_have_attribute("aria-label", re.compile(r", just drawn$"))
    assert drawn.inner_text().count("just drawn") == 0
    screenshot(ana, "card-just-drawn", DESKTOP)

    ana.locator("#sort-rank").click()
    expect(ana.locator("#sort-rank")).to_have_attribute("aria-current", "true")
    expect(ana.locator(".hand-card-drawn")).to_have_count(1)
    assert ana.locator(".hand-card-drawn").get_attribute("data-key") == key

    # A reload, and a second tab on the same board, mark the same card.
    ana.reload()
    expect(ana.locator(".hand-card-drawn")).to_have_count(1)
    assert ana.locator(".hand-card-drawn").get_attribute("data-key") == key
    second_tab = ana.context.new_page()
    second_tab.goto(game.get_absolute_url())
    expect(second_tab.locator(".hand-card-drawn")).to_have_count(1)
    assert second_tab.locator(".hand-card-drawn").get_attribute("data-key") == key
    second_tab.close()

    ana.locator(f".hand-card[data-key='{sorted(before)[0]}']").click()
    ana.locator("#act-discard").click()
    expect(hand).to_have_count(10)
    expect(ana.locator(".hand-card-drawn")).to_have_count(0)
    ana.reload()
    expect(hand).to_have_count(10)
    expect(ana.locator(".hand-card-drawn")).to_have_count(0)


def test_a_closed_discard_pile_keeps_its_card_its_own_size(ana):
    """F6's "closed: action card on top" note sits under the pile's card and never widens it: the
    top card (a Discard 1, as wide as its name) is as big with the note as without it, as tall as
    the stock's card and not much wider, at every width."""
    game = make_table_scene("frayzy-closed")
    ana.goto(game.get_absolute_url())
    note = ana.locator("[data-testid=discard-closed]")
    expect(note).to_be_visible()
    top, stock = ana.locator("#board .pile-discard .card"), ana.locator("#board .pile-stock .card")
    found = {}
    for size in (DESKTOP, PHONE, NARROWEST):
        ana.set_viewport_size(size)
        screenshot(ana, "frayzy-closed", size)
        with_note, stock_box, note_box = top.bounding_box(), stock.bounding_box(), note.bounding_box()
        note.evaluate("note => { note.hidden = true; }")
        without_note = top.bounding_box()
        note.evaluate("note => { note.hidden = false; }")
        card = (round(with_note["width"]), round(with_note["height"]))
        if (card != (round(without_note["width"]), round(without_note["height"]))
                or card[1] != round(stock_box["height"]) or card[0] > 1.25 * stock_box["width"]
                or note_box["y"] < with_note["y"] + with_note["height"]):
            found[size["width"]] = {"top": card, "without the note": (without_note["width"], without_note["height"]),
                                    "stock": (stock_box["width"], stock_box["height"]), "note at": note_box["y"]}
    assert found == {}


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_refused_open_table_brings_its_reason_into_view(ana, settings, size):
    """At the limit of waiting tables, "Open table" at the foot of the lobby answers with the
    lobby again; its reason must be on screen, not a page below (found by a trial)."""
    creator = get_user_model().objects.get(username="ana")
    for _ in range(settings.RUMMY_OPEN_TABLES_PER_USER):
        make_table(creator)
    ana.set_viewport_size(size)
    ana.goto(reverse("lobby"))

    ana.get_by_role("button", name="Open table").click()

    reason = ana.get_by_text(re.compile(r"You already have \d tables waiting for players"))
    expect(reason).to_be_in_viewport()
    expect(ana.locator("#open-a-table")).to_be_focused()
