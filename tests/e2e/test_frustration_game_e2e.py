"""Frustration Rummy in a real browser: open a table against a computer player, see the contract
board and the wild markers, have a contract refused with its reason (R8) and nothing changed, then
lay the contract down with the group selects (R10) and discard."""

import pytest
from playwright.sync_api import expect

from tests.e2e.tables import UPDATE_TIMEOUT_MS, shown_version, start_against_a_computer
from tests.engine.builders import frustration
from tests.factories import current_deal, put_position

pytestmark = [pytest.mark.e2e]

HAND = "5S 5H JK 7H JK~1 2S 9C 9D 9S KS 7D 7C 4H"




def assign(page, groups) -> None:
    """Choose the group of each card: ``{"5S": "1", ...}``, in the group selects that the trays
    stand for (hidden while JavaScript runs; test_direct_play_e2e uses the trays themselves)."""
    for key, group in groups.items():
        page.locator(f"select[name='group:{key}']").select_option(group, force=True)


def test_a_contract_is_refused_with_its_reason_then_laid_down(new_user_page):
    ana = new_user_page("ana")
    game = start_against_a_computer(ana, "frustration")
    put_position(game, frustration([HAND, "KH QH JS 3D 3C 4S 8H 10C 10D 6S 6H AC AD"], turn=0, phase="play").deal)
    ana.reload()

    board = ana.locator(".contract-board")
    expect(board).to_contain_text("3 sets of 3")
    expect(ana.locator(".seat-total").first).to_have_text("Contract 1")
    expect(ana.locator(".contract-card[data-card='JK'] .card-wild-mark")).to_have_text("wild")
    expect(ana.locator(".contract-card[data-card='2S'] .card-wild-mark")).to_have_text("wild")
    expect(ana.locator("[data-testid=contract-form]")).to_contain_text("Your hand can make this contract now.")

    # Two wilds and one natural in the second set: refused with the reason, nothing changes.
    version = shown_version(ana)
    assign(ana, {"5S": "1", "5H": "1", "JK": "1", "7H": "2", "JK~1": "2", "2S": "2", "9C": "3", "9D": "3", "9S": "3"})
    ana.get_by_role("button", name="Lay down contract").click()
    error = ana.locator(".move-error")
    expect(error).to_contain_text("The second set (7♥ 2♠ JK): 2 wilds and 1 natural: wilds may not outnumber naturals")
    expect(error).to_contain_text("rule R8")
    assert shown_version(ana) == version and current_deal(game).variant_state["laid_down"] == [False, False]

    assign(ana, {"5S": "1", "5H": "1", "JK": "1", "7H": "2", "7D": "2", "7C": "2", "9C": "3", "9D": "3", "9S": "3"})
    expect(error).to_be_hidden()  # about the groups sent before, stale once they change
    ana.get_by_role("button", name="Lay down contract").click()
    ana.wait_for_function("v => Number(document.querySelector('#board')?.dataset.version) > v", arg=version,
                          timeout=UPDATE_TIMEOUT_MS)
    expect(ana.locator(".meld")).to_have_count(3)
    expect(ana.locator(".meld[data-meld='1']")).to_contain_text("=5")
    expect(board.locator("[data-testid=contract-line]").first).to_contain_text("laid down")
    expect(ana.locator("[data-testid=contract-form]")).to_have_count(0)
    expect(ana.locator(".move-log")).to_contain_text("ana laid down contract 1")

    ana.locator("label.hand-card:has(input[value='KS'])").click()
    ana.get_by_role("button", name="Discard selected card").click()
    expect(ana.locator(".move-log")).to_contain_text("ana discarded K♠", timeout=UPDATE_TIMEOUT_MS)
