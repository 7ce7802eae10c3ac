"""Direct play in a real browser, at a desk (1280×800) and a phone (390×844): a whole turn played
with the keyboard alone and one by tapping alone, where focus goes after each kind of move (and
after D and T pressed with focus outside the board's controls), the
hand arranged by dragging (and remembered), a card dragged onto the discard pile, and Frustration's
contract laid through its group trays; the keys told at a desk only."""
import re
from dataclasses import replace

import pytest
from playwright.sync_api import expect

from games.engine.errors import IllegalAction
from games.engine.melds import read_meld
from games.engine.variants.standard import StandardRummy
from tests.e2e.conftest import E2E_PASSWORD
from tests.e2e.tables import UPDATE_TIMEOUT_MS, shown_version, start_against_a_computer, wait_for_newer_board
from tests.engine.builders import build, card, frustration
from tests.factories import current_deal, hand_keys, put_position, seats_of, snapshot

pytestmark = [pytest.mark.e2e]

SIZES = {"desk": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
HAND = "7H 8H 9H KS 2C 4D 5S"
"""Ana's hand: a heart run waiting for the 10♥ on top of the stock, a 2♣ that lays off on the
club run on the table, and cards to discard."""
OTHER_HAND = "KH QH JS 3D 3S 4S 8D"
STOCK_TOP = "10H"
CONTRACT_HAND = "5S 5H JK 7H JK~1 2S 9C 9D 9S KS 7D 7C 4H"
MOST_TAB_PRESSES = 60


@pytest.fixture
def table_page(browser, live_server_url, django_user_model, log_in):
    """``table_page(size, touch=False, script=True)``: a logged-in page of a new user "ana" in its own
    context of that viewport (``SIZES``), with touch events when ``touch``, JavaScript off unless ``script``."""
    contexts = []

    def open_page(size: str, touch: bool = False, script: bool = True):
        django_user_model.objects.create_user(username="ana", email="ana@example.com", password=E2E_PASSWORD)
        context = browser.new_context(base_url=live_server_url, viewport=SIZES[size], has_touch=touch,
                                      is_mobile=touch, java_script_enabled=script)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        log_in(page, "ana", E2E_PASSWORD)
        return page

    yield open_page
    for context in contexts:
        context.close()


def standard_table(page, phase: str = "draw"):
    """A Standard Rummy table against a computer, with ana to move in ``phase`` holding ``HAND``."""
    game = start_against_a_computer(page, "standard")
    deal = build([HAND, OTHER_HAND], melds=[(1, "3C 4C 5C")], discard="2D", turn=0, phase=phase).deal
    stock = [c for c in deal.stock if c.key != STOCK_TOP] + [card(STOCK_TOP)]
    put_position(game, replace(deal, stock=stock))
    page.reload()
    return game


def focused(page) -> dict:
    """What has focus: ``{"tag", "id", "card"}`` (``card``: the key of a hand card's checkbox)."""
    return page.evaluate("""() => { const e = document.activeElement;
        return {tag: e.tagName, id: e.id, card: e.name === 'cards' ? e.value : null}; }""")


def press_and_wait(page, key: str) -> None:
    """Press ``key``, wait for the next board and for the page to settle (focus is placed then)."""
    before = shown_version(page)
    page.keyboard.press(key)
    wait_for_newer_board(page, before)
    page.wait_for_function("() => !document.querySelector('.htmx-settling, .htmx-swapping')")


def tap_and_wait(page, locator) -> None:
    before = shown_version(page)
    locator.tap()
    wait_for_newer_board(page, before)


def arrow_to(page, key: str) -> None:
    """Move the keyboard focus along the hand to the card ``key`` with Home and the right arrow."""
    page.keyboard.press("Home")
    for _ in range(20):
        if focused(page)["card"] == key:
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"{key} is not in the hand")


def tab_to(page, element_id: str, backwards: bool = False) -> None:
    for _ in range(MOST_TAB_PRESSES):
        if focused(page)["id"] == element_id:
            return
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    raise AssertionError(f"Tab never reached #{element_id}")


def hand_order(page) -> list[str]:
    return page.locator("[data-hand-cards] .hand-card").evaluate_all("cards => cards.map(c => c.dataset.key)")


@pytest.mark.parametrize("size", SIZES)
def test_a_turn_played_with_the_keyboard_alone_keeps_focus_after_every_move(table_page, size):
    ana = table_page(size)
    game = standard_table(ana)

    # Draw with Enter on the Draw button: the button is gone afterwards, focus goes to the card drawn.
    tab_to(ana, "act-draw")
    press_and_wait(ana, "Enter")
    assert focused(ana)["card"] == "10H"

    # Select the run with the arrows and Space, lay it down with M: focus stays in the hand.
    for key in ("7H", "8H", "9H", "10H"):
        arrow_to(ana, key)
        ana.keyboard.press("Space")
    expect(ana.locator(".meld-new")).to_have_class("meld meld-new is-target")
    press_and_wait(ana, "m")
    expect(ana.locator(".meld[data-meld]")).to_have_count(2)
    assert focused(ana)["card"] in {"2C", "4D", "5S", "KS"}

    # Lay the 2♣ off with its button, reached by Shift+Tab: focus comes back to the hand.
    arrow_to(ana, "2C")
    ana.keyboard.press("Space")
    tab_to(ana, "act-lay-off-1", backwards=True)
    press_and_wait(ana, "Enter")
    expect(ana.locator(".meld[data-meld='1']")).to_contain_text("2♣")
    assert focused(ana)["card"] in {"4D", "5S", "KS"}

    # Discard with X: the turn passes, the hand (no longer playable) keeps focus.
    arrow_to(ana, "KS")
    ana.keyboard.press("Space")
    press_and_wait(ana, "x")
    expect(ana.locator(".move-log")).to_contain_text("ana discarded K♠")
    assert focused(ana)["id"] == "hand"
    # The computer's move arrives by websocket and a re-fetch: the morph keeps focus where it was.
    expect(ana.locator(".turn-banner-you")).to_be_visible(timeout=UPDATE_TIMEOUT_MS)
    assert focused(ana)["id"] == "hand"
    assert hand_keys(game, seats_of(game)[0]) >= {"4D", "5S"} and "KS" not in hand_keys(game, seats_of(game)[0])


@pytest.mark.parametrize(("key", "arrives"), [("d", STOCK_TOP), ("t", "2D")])
@pytest.mark.parametrize("start", ["page", "hand"])
def test_draw_and_take_by_their_keys_put_focus_on_the_card_that_arrived(table_page, key, arrives, start):
    """D and T work from anywhere on the page; focus then was left on the page itself (or on the
    hand's section) after the board's swap. It goes to the card drawn or taken, as with the button."""
    ana = table_page("desk")
    standard_table(ana)
    if start == "hand":
        ana.locator("#hand").focus()
    assert focused(ana)["id"] == ("hand" if start == "hand" else "")

    press_and_wait(ana, key)

    assert focused(ana)["card"] == arrives
    ana.keyboard.press("End")
    assert focused(ana)["card"] == hand_order(ana)[-1], "the hand's keys work from there"


@pytest.mark.parametrize("size", SIZES)
def test_a_turn_played_by_tapping_alone_offers_only_legal_targets(table_page, size):
    ana = table_page(size, touch=True)
    standard_table(ana)
    ana.get_by_role("button", name="Draw").tap()
    expect(ana.locator("#hand-10H")).to_be_visible()

    # One heart selected: no target yet, but the other hearts (and the 10♥) are marked as fitting.
    ana.locator("#hand-7H").tap()
    expect(ana.locator(".is-target")).to_have_count(1)  # the discard pile
    expect(ana.locator(".pile-discard")).to_have_class("pile pile-discard is-target")
    expect(ana.locator(".hand-card-fits")).to_have_count(3)
    for key in ("8H", "9H"):
        ana.locator(f"#hand-{key}").tap()
    expect(ana.locator(".meld-new")).to_have_class("meld meld-new is-target")
    tap_and_wait(ana, ana.locator(".meld-new"))
    expect(ana.locator(".meld[data-meld='2']")).to_contain_text("7♥")

    # The 10♥ lays off on the new run, not on the clubs; tap the run itself.
    ana.locator("#hand-10H").tap()
    expect(ana.locator(".meld[data-meld='2']")).to_have_class("meld is-target")
    expect(ana.locator(".meld[data-meld='1']")).not_to_have_class("meld is-target")
    expect(ana.locator("#act-lay-off-1")).to_be_hidden()  # no lay-off button where it would be refused
    expect(ana.locator("#act-lay-off-2")).to_be_visible()
    tap_and_wait(ana, ana.locator(".meld[data-meld='2'] .meld-cards"))
    expect(ana.locator(".meld[data-meld='2']")).to_contain_text("10♥")

    ana.locator("#hand-KS").tap()
    tap_and_wait(ana, ana.locator(".pile-discard .pile-label"))
    expect(ana.locator(".move-log")).to_contain_text("ana discarded K♠")
    assert ana.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]


@pytest.mark.parametrize("size", SIZES)
def test_a_selection_that_is_no_meld_is_refused_with_the_engines_reason_in_view(table_page, size):
    """The tester's cards put on "New meld" did nothing, and on a phone the refusal of the meld
    button was drawn above the screen: both now show the engine's reason where the player looks,
    keep the selection, and leave the game as it was."""
    ana = table_page(size, touch=True)
    game = standard_table(ana, phase="play")
    cards = ["2C", "4D", "5S"]
    with pytest.raises(IllegalAction) as refused:
        read_meld([card(key) for key in cards], StandardRummy().meld_rules)
    before = snapshot(game)
    for key in cards:
        ana.locator(f"#hand-{key}").tap()
    expect(ana.locator(".meld-new")).not_to_have_class(re.compile("is-target"))
    error = ana.locator(".move-error")
    for press in (lambda: ana.locator(".meld-new").tap(), lambda: ana.locator("#act-meld").tap()):
        ana.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        press()
        expect(error).to_have_text(f"{refused.value.message} (rule S8)")
        expect(error).to_be_in_viewport()
        for key in cards:
            expect(ana.locator(f"#hand-{key} input")).to_be_checked()
        assert snapshot(game) == before
        ana.evaluate("document.querySelector('.move-error').remove()")


def drag(page, source, target, steps: int = 12, before_release: str | None = None) -> None:
    """Drag ``source`` onto ``target`` with the mouse, in steps (SortableJS's fallback follows the
    mouse); with ``before_release`` (a JavaScript predicate), hold the card there until it holds,
    as a person waits to see the cards make room. Both must fit in the viewport together: the page
    is scrolled to show them."""
    source.evaluate("""(card, other) => { const a = card.getBoundingClientRect(), b = other.getBoundingClientRect();
        window.scrollBy(0, (Math.min(a.top, b.top) + Math.max(a.bottom, b.bottom) - window.innerHeight) / 2); }""",
                    target.element_handle())
    start, end = source.bounding_box(), target.bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(start["x"] + start["width"] / 2 + 8, start["y"] + start["height"] / 2, steps=2)
    page.mouse.move(end["x"] + end["width"] * .25, end["y"] + end["height"] / 2, steps=steps)
    if before_release:
        page.wait_for_function(before_release)
    page.mouse.up()


@pytest.mark.parametrize("size", SIZES)
def test_the_hand_is_arranged_by_dragging_and_a_card_dragged_to_the_discard_pile_is_discarded(table_page, size):
    ana = table_page(size)
    standard_table(ana, phase="play")
    assert hand_order(ana) == ["2C", "4D", "7H", "8H", "9H", "5S", "KS"]

    # Drag the K♠ to the front; the order is kept by the server for this viewer.
    with ana.expect_response(lambda response: "hand-order" in response.url and response.status == 204):
        drag(ana, ana.locator("#hand-KS"), ana.locator("#hand-2C"), steps=20,
             before_release="() => document.querySelector('[data-hand-cards] .hand-card').id === 'hand-KS'")
    assert hand_order(ana)[0] == "KS"
    arranged = hand_order(ana)
    ana.reload()
    assert hand_order(ana) == arranged
    expect(ana.get_by_test_id("hand-arranged")).to_be_visible()

    # Drop the 4♦ on the discard pile: it is discarded and the rest keeps its order.
    before = shown_version(ana)
    drag(ana, ana.locator("#hand-4D"), ana.locator(".pile-discard"))
    wait_for_newer_board(ana, before)
    expect(ana.locator(".move-log")).to_contain_text("ana discarded 4♦")
    assert hand_order(ana) == [key for key in arranged if key != "4D"]

    # Choosing a sort forgets the arranged order.
    ana.get_by_role("link", name="rank").click()
    expect(ana.get_by_test_id("hand-arranged")).to_have_count(0)


@pytest.mark.parametrize("size", SIZES)
def test_a_frustration_contract_is_laid_through_the_trays(table_page, size):
    ana = table_page(size, touch=size == "phone")
    game = start_against_a_computer(ana, "frustration")
    put_position(game, frustration([CONTRACT_HAND, "KH QH JS 3D 3C 4S 8H 10C 10D 6S 6H AC AD"],
                                   turn=0, phase="play").deal)
    ana.reload()
    tap = (lambda locator: locator.tap()) if size == "phone" else (lambda locator: locator.click())
    trays = [ana.get_by_test_id(f"tray-{n}") for n in (1, 2, 3)]
    expect(ana.locator("[data-contract-selects]")).to_be_hidden()

    # The suggestion fills every tray from the engine's way to make the contract; take it all back.
    tap(ana.get_by_role("button", name="Suggest a way"))
    for tray in trays:
        expect(tray.locator(".tray-card")).to_have_count(3)
    tap(ana.get_by_role("button", name="Take all back"))
    expect(ana.locator(".tray-card")).to_have_count(0)

    # By hand: tap cards then a tray, or its button; a tray card tapped goes back to the hand.
    for key in ("5S", "5H", "JK"):
        tap(ana.locator(f"#hand-{key}"))
    tap(trays[0].locator(".tray-label"))
    for key in ("7H", "7D", "7C", "KS"):
        tap(ana.locator(f"#hand-{key}"))
    tap(trays[1].get_by_role("button", name="Put selected here"))
    tap(trays[1].locator(".tray-card[data-key='KS']"))
    expect(trays[1].locator(".tray-card")).to_have_count(3)
    expect(ana.locator("#hand-KS")).to_be_visible()
    for key in ("9C", "9D", "9S"):
        tap(ana.locator(f"#hand-{key}"))
    tap(trays[2].locator(".tray-label"))
    expect(ana.locator("#hand-5S")).to_be_hidden()

    before = shown_version(ana)
    tap(ana.get_by_role("button", name="Lay down contract"))
    wait_for_newer_board(ana, before)
    expect(ana.locator(".meld[data-meld]")).to_have_count(3)
    expect(ana.locator(".move-log")).to_contain_text("ana laid down contract 1")
    assert current_deal(game).variant_state["laid_down"] == [True, False]


def test_a_suggested_contract_whose_wilds_have_several_readings_is_laid_at_once(table_page):
    """0.3, R10: "Suggest a way" carries what its wilds stand for, so "Lay down contract" straight
    after it is accepted (the run 10♥ J♥ with two jokers has three readings)."""
    ana = table_page("desk")
    game = start_against_a_computer(ana, "frustration")
    put_position(game, frustration(["5S 5H 5D 10H JH JK JK~1 KS", "KH QH JS 3D 3C 4S 8H 10C 10D 6S 6H AC AD"],
                                   turn=0, phase="play").deal)
    game.seats.update(total=2)
    ana.reload()

    ana.get_by_role("button", name="Suggest a way").click()
    before = shown_version(ana)
    ana.get_by_role("button", name="Lay down contract").click()
    wait_for_newer_board(ana, before)

    expect(ana.locator(".move-error, .move-prompt")).to_have_count(0)
    expect(ana.locator(".move-log")).to_contain_text("ana laid down contract 2")
    assert current_deal(game).variant_state["laid_down"] == [True, False]


def test_without_javascript_the_play_form_and_the_contract_selects_still_work(table_page):
    ana = table_page("desk", script=False)
    game = standard_table(ana)
    ana.get_by_role("button", name="Draw").click()
    for key in ("7H", "8H", "9H", "10H"):
        ana.locator(f"#hand-{key}").click()
    ana.get_by_role("button", name="Lay down selected as a meld").click()
    expect(ana.locator(".meld[data-meld='2']")).to_contain_text("10♥")
    expect(ana.locator(".meld-new")).to_be_hidden()
    ana.locator("#hand-KS").click()
    ana.get_by_role("button", name="Discard selected card").click()
    expect(ana.locator(".move-log")).to_contain_text("ana discarded K♠")

    game = start_against_a_computer(ana, "frustration")
    put_position(game, frustration([CONTRACT_HAND, "KH QH JS 3D 3C 4S 8H 10C 10D 6S 6H AC AD"],
                                   turn=0, phase="play").deal)
    ana.reload()
    expect(ana.locator("[data-trays]")).to_be_hidden()
    expect(ana.get_by_label("Group for 5 of spades", exact=True)).to_be_visible()


@pytest.mark.parametrize(("size", "touch"), [("desk", False), ("phone", True)])
def test_the_keys_are_told_only_where_a_keyboard_is_likely(table_page, size, touch):
    """The play hint tells the keys at a desk (a mouse or touchpad) and not on a touch phone, which
    keeps the hint's tap and drag sentence."""
    ana = table_page(size, touch=touch)
    standard_table(ana)
    hint = ana.get_by_test_id("play-keys")
    expect(hint).to_contain_text("Tap or drag a card")
    keys = ana.get_by_test_id("play-keys-list")
    if touch:
        expect(keys).to_be_hidden()
    else:
        expect(keys).to_be_visible()
