"""Browser test of a finished game's record: the score chart is drawn and the replay steps
forward and back through HTMX without leaving the page."""
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from playwright.sync_api import expect

from records.replay import logged_moves
from tests.e2e.pages import (
    CUT_CELLS,
    DESKTOP,
    HIDDEN_CARD_TEXT,
    MARKS_OVER_OTHER_CARDS,
    NARROWEST,
    PHONE,
    WORDS_BROKEN_MID_WORD,
    screenshot,
)
from tests.records.helpers import computer_game


def finished_game_made_off_the_event_loop(*args, **kwargs):
    """``computer_game`` run in a worker thread: its after-commit events call ``async_to_sync``,
    which refuses to run in this thread while Playwright's event loop is registered here."""

    def make():
        try:
            return computer_game(*args, **kwargs)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(make).result()


def test_record_page_shows_the_score_chart_and_the_replay_steps_forward_and_back(live_server_url, new_user_page):
    game = finished_game_made_off_the_event_loop("standard", seed="e2e-record")
    total = len(logged_moves(game))
    page = new_user_page("viewer")
    page.goto(f"/games/{game.pk}/record")
    chart = page.get_by_test_id("score-chart")
    expect(chart).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(2)
    assert chart.locator("svg").bounding_box()["height"] > 100
    position = page.get_by_test_id("replay-position")
    expect(position).to_have_text(f"Move {total} of {total}")
    page.evaluate("window.stayedOnPage = true")

    page.get_by_test_id("replay-back").click()
    expect(position).to_have_text(f"Move {total - 1} of {total}")
    page.get_by_test_id("replay-first").click()
    expect(position).to_have_text(f"Move 0 of {total}")
    expect(page.get_by_test_id("replay-caption")).to_contain_text("As dealt")
    page.get_by_test_id("replay-forward").click()
    expect(position).to_have_text(f"Move 1 of {total}")
    caption = page.get_by_test_id("replay-caption")
    expect(caption).to_contain_text(" drew ")
    page.get_by_test_id("replay-forward").click()
    expect(position).to_have_text(f"Move 2 of {total}")
    page.get_by_test_id("replay-back").click()
    expect(position).to_have_text(f"Move 1 of {total}")
    page.keyboard.press("ArrowRight")
    expect(position).to_have_text(f"Move 2 of {total}")
    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text(f"Move 1 of {total}")
    # Face up after the game: the stock is shown card by card, and no card is face down.
    expect(page.get_by_test_id("replay-stock").locator(".card")).not_to_have_count(0)
    expect(page.locator("#replay .card-back")).to_have_count(0)
    assert page.evaluate("window.stayedOnPage") is True


def test_the_replays_wild_marks_lie_over_no_other_card(live_server_url, new_user_page):
    """A finished Frayzy game's last position, melds with wilds among them (issue 19: "=Green 3"
    lay over the meld below, "WILD" over the card above), at 1280, 390 and 320 px; no card's
    corner text is cut (an action card's name: "DISCARD" was cut on a phone)."""
    game = finished_game_made_off_the_event_loop("frayzy", players=3, seed="e2e-wild-marks")
    page = new_user_page("viewer")
    page.goto(f"/games/{game.pk}/record")
    expect(page.locator("#replay .replay-meld .card-stands")).not_to_have_count(0)
    found = {}
    for size in (DESKTOP, PHONE, NARROWEST):
        page.set_viewport_size(size)
        screenshot(page, "replay-wild-marks", size)
        over = page.evaluate(MARKS_OVER_OTHER_CARDS, "#replay :is(.card-wild-mark, .card-stands)")
        hidden = page.evaluate(HIDDEN_CARD_TEXT, "#replay :is(.card-rank, .card-index:not(:has(.card-rank)))")
        if over or hidden:
            found[size["width"]] = {"over": over, "hidden": hidden}
    assert found == {}, found


CHART_LABEL_HEIGHTS = """() => [...document.querySelectorAll(".score-chart .chart-label")]
  .map(label => label.getBoundingClientRect().height)"""


def test_the_charts_labels_stay_readable_on_a_phone(live_server_url, new_user_page):
    """The running totals' axis labels are drawn 10 px high at least at 390 and 320 px (the chart
    shrinks with the page; they were 4 px)."""
    game = finished_game_made_off_the_event_loop("standard", seed="e2e-record")
    page = new_user_page("viewer")
    page.goto(f"/games/{game.pk}/record")
    expect(page.get_by_test_id("score-chart")).to_be_visible()
    lowest = {}
    for size in (DESKTOP, PHONE, NARROWEST):
        page.set_viewport_size(size)
        screenshot(page, "record-chart", size)
        lowest[size["width"]] = round(min(page.evaluate(CHART_LABEL_HEIGHTS)), 1)
    assert min(lowest.values()) >= 10, lowest


SCORE_SHEET_CELLS = ":is(.score-sheet, .contract-board) :is(th, td)"


SHEET_MOVES = 120
"""Computer turns played for a score sheet: a deal (a round) or more of 4 players ends in every
game, where playing Wild Rummy's 13 deals or Frustration's 14 contracts to the end took 35-65 s."""


@pytest.mark.parametrize("variant", ["standard", "wild", "frustration", "frayzy"])
def test_the_score_sheet_fits_a_phone_with_four_computer_players(live_server_url, new_user_page, variant):
    """The score sheet of 4 computer players (the widest: a column per player) after a deal or more,
    at 390 and 320 px: no cell is cut and no short word breaks (the Result column was cut:
    "Compute… went ou")."""
    page = new_user_page("viewer")
    found = {}
    game = finished_game_made_off_the_event_loop(variant, players=4, seed="e2e-sheet-4", moves=SHEET_MOVES)
    page.goto(f"/games/{game.pk}/record")
    results = page.locator(":is(.score-sheet, .contract-history) tbody tr:not(.score-upcoming) td:last-child")
    assert results.count() >= 1 and all(text.strip() for text in results.all_inner_texts())
    for size in (PHONE, NARROWEST):
        page.set_viewport_size(size)
        screenshot(page, f"record-sheet-{variant}-4", size)
        cut = page.evaluate(CUT_CELLS, SCORE_SHEET_CELLS)
        broken = page.evaluate(WORDS_BROKEN_MID_WORD, SCORE_SHEET_CELLS)
        if cut or broken:
            found[size["width"]] = {"cut": cut, "broken": broken}
    assert found == {}, found
