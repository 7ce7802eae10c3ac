"""Wild Rummy in a real browser: a deal against a computer player that takes a discard, swaps a wild
out of a run, has discards of pending cards refused with the reason, declares what a wild stands for
and passes the turn."""

import pytest
from playwright.sync_api import expect

from tests.e2e.tables import (
    UPDATE_TIMEOUT_MS,
    select_cards,
    shown_version,
    start_against_a_computer,
    wait_for_newer_board,
)
from tests.engine.builders import wild
from tests.factories import current_deal, put_position

pytestmark = [pytest.mark.e2e]





def click_and_wait(page, button) -> None:
    """Click ``button`` and wait for the board of the next version."""
    before = shown_version(page)
    button.click()
    wait_for_newer_board(page, before)


def test_a_wild_deal_with_a_taken_discard_a_swap_and_refused_pending_discards(new_user_page):
    ana = new_user_page("ana")
    game = start_against_a_computer(ana, "wild")
    put_position(game, wild(["4C 5C 6H 9S 9D", "KH QH JS 2D 3D 4S 8H"], melds=[(1, "5H AS=6H 7H")],
                            discard="2S 6C", turn=0, phase="draw").deal)
    ana.reload()

    status = ana.locator(".board-status")
    expect(status).to_contain_text("Deal 1 of 13")
    expect(status).to_contain_text("Aces are wild")
    expect(ana.locator(".meld[data-meld='1'] .card-wild .card-wild-mark")).to_have_text("wild")
    expect(ana.locator(".meld[data-meld='1']")).to_contain_text("=6♥")

    # Take the discard: the 6♣ can go straight into a run, so the page offers it; it becomes pending.
    click_and_wait(ana, ana.get_by_role("button", name="Take"))
    pending = ana.locator(".pending")
    expect(pending.locator("[data-card='6C']")).to_be_visible()
    expect(ana.locator(".pending-note")).to_contain_text("can never be your discard")

    # Discarding while the 6♣ is pending is refused with the reason, and nothing changes.
    version = shown_version(ana)
    select_cards(ana, ("9S",))
    ana.get_by_role("button", name="Discard selected card").click()
    expect(ana.locator(".move-error")).to_contain_text("Play 6♣ first")
    assert shown_version(ana) == version and current_deal(game).variant_state["pending"] == ["6C"]

    select_cards(ana, ("9S", "4C", "5C", "6C"))  # untick 9S, tick the run
    click_and_wait(ana, ana.get_by_role("button", name="Lay down selected as a meld"))
    expect(ana.locator(".pending")).to_have_count(0)

    # Swap the 6♥ for the ace standing in for it; the freed ace is pending and may not be discarded.
    click_and_wait(ana, ana.get_by_role("button", name="Swap 6♥ for A♠=6♥"))
    expect(ana.locator(".pending [data-card='AS'] .card-wild-mark")).to_have_text("wild")
    expect(ana.locator(".meld[data-meld='1']")).not_to_contain_text("=6♥")
    select_cards(ana, ("AS",))
    ana.get_by_role("button", name="Discard selected card").click()
    expect(ana.locator(".move-error")).to_contain_text("A♠ is pending")

    # Lay the ace off on the run: it could stand for 4♥ or 8♥, so the page asks which, offering
    # the legal readings on the meld chosen only (not 3♣ or 7♣ on the new club run).
    ana.locator(".meld[data-meld='1']").get_by_role("button", name="Lay off here").click()
    expect(ana.locator(".move-prompt")).to_contain_text("Choose what the wild stands for")
    expect(ana.locator(".readings button")).to_have_text([
        "Lay off on meld 1 with A♠ as 4♥", "Lay off on meld 1 with A♠ as 8♥"])
    click_and_wait(ana, ana.get_by_role("button", name="Lay off on meld 1 with A♠ as 8♥"))
    expect(ana.locator(".meld[data-meld='1']")).to_contain_text("=8♥")

    select_cards(ana, ("9S",))
    click_and_wait(ana, ana.get_by_role("button", name="Discard selected card"))
    expect(ana.locator(".move-log")).to_contain_text("ana swapped 6♥ for the wild A♠=6♥")
    expect(ana.locator(".move-log")).to_contain_text("ana discarded 9♠")
    expect(ana.locator(".turn-banner-you")).to_contain_text("Your turn", timeout=UPDATE_TIMEOUT_MS)
    expect(ana.locator(".score-sheet tbody tr")).to_have_count(13)
