"""Frayzy in a real browser, three people at one table: Ana plays a Draw 5 at an opponent she picks
in the target chooser (Cat, not the next player), then, a round of turns later, a Skip that passes
over Ben. Every page shows what happened ("ana made cat draw 5"), the hand sizes change where they
should, and the turn moves past the skipped player (rules F14)."""
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import DESKTOP, NARROWEST, PHONE, ana, screenshot  # noqa: F401 (ana: a fixture)
from tests.e2e.scenes import make_table_scene
from tests.e2e.tables import UPDATE_TIMEOUT_MS, open_table, select_cards, shown_version, wait_for_newer_board
from tests.engine.builders import frayzy
from tests.factories import load_state, put_position

pytestmark = [pytest.mark.e2e]


def join(page, game) -> None:
    """Join ``game`` from the lobby's list of open tables."""
    page.goto("/")
    page.locator(".lobby-section[aria-label='Open tables']").get_by_role("link", name=re.compile(f"#{game.pk}")).click()
    page.get_by_role("button", name="Join this table").click()


def draw_and_discard(page, key) -> None:
    """Draw from the stock, then discard ``key``, waiting for the board after each."""
    before = shown_version(page)
    page.get_by_role("button", name="Draw").click()
    wait_for_newer_board(page, before)
    before = shown_version(page)
    select_cards(page, [key])
    page.get_by_role("button", name="Discard selected card").click()
    wait_for_newer_board(page, before)


def hand_size(page, position):
    return page.locator(f".seat[data-seat='{position}'] .seat-cards")


def test_draw_5_at_a_chosen_opponent_then_a_skip(new_user_page):
    ana, ben, cat = new_user_page("ana"), new_user_page("ben"), new_user_page("cat")
    game = open_table(ana, "frayzy", players=3)
    join(ben, game)
    join(cat, game)
    expect(ana.locator(".waiting-seats")).to_contain_text("cat", timeout=UPDATE_TIMEOUT_MS)
    ana.get_by_role("button", name="Start the game").click()
    expect(ana.locator(".seats")).to_be_visible()
    put_position(game, frayzy(["R7 R8 DRAW5 SKIP B2 B3", "Y1 Y2 Y3", "G1 G2"], turn=0, phase="play",
                              discard="B11", dealer=2).deal)
    pages = (ana, ben, cat)
    for page in pages:
        page.reload()

    # The cards say their colour in words, and the chooser offers every seat, Ana herself included.
    expect(ana.locator(".hand-card [data-card='R7'] .card-colour-name")).to_have_text("red")
    expect(ana.locator(".hand-card [data-card='DRAW5']")).to_contain_text("Draw 5")
    chooser = ana.locator("[data-testid=draw-five-target]")
    expect(chooser.locator("option")).to_have_text(["ben", "cat", "yourself"])

    # Draw 5 at Cat, who is not the next player.
    before = shown_version(ana)
    chooser.select_option(label="cat")
    ana.get_by_role("button", name="Play Draw 5").click()
    wait_for_newer_board(ana, before)
    for page in pages:
        expect(page.locator(".move-log")).to_contain_text("ana made cat draw 5.", timeout=UPDATE_TIMEOUT_MS)
        expect(hand_size(page, 2)).to_have_text("7 cards")
        expect(page.locator(".pile-discard [data-card='DRAW5']")).to_be_visible()
    expect(cat.locator(".hand-card")).to_have_count(7)
    expect(ben.locator(".turn-banner-you")).to_contain_text("Your turn", timeout=UPDATE_TIMEOUT_MS)
    # The Draw 5 on top closes the discard pile (F6).
    expect(ben.locator("[data-testid=discard-closed]")).to_be_visible()
    expect(ben.get_by_role("button", name="Take")).to_have_count(0)

    draw_and_discard(ben, "Y1")
    expect(cat.locator(".turn-banner-you")).to_contain_text("Your turn", timeout=UPDATE_TIMEOUT_MS)
    draw_and_discard(cat, "G1")
    expect(ana.locator(".turn-banner-you")).to_contain_text("Your turn", timeout=UPDATE_TIMEOUT_MS)

    # Skip: Ben loses his turn and Cat plays next.
    before = shown_version(ana)
    ana.get_by_role("button", name="Draw").click()
    wait_for_newer_board(ana, before)
    before = shown_version(ana)
    ana.get_by_role("button", name="Play Skip").click()
    wait_for_newer_board(ana, before)
    for page in pages:
        expect(page.locator(".move-log")).to_contain_text("ana played Skip: ben is skipped.",
                                                          timeout=UPDATE_TIMEOUT_MS)
    expect(cat.locator(".turn-banner-you")).to_contain_text("Your turn", timeout=UPDATE_TIMEOUT_MS)
    expect(ben.locator(".turn-banner")).to_contain_text("Waiting for cat to draw")
    expect(ana.locator(".turn-banner")).to_contain_text("Waiting for cat to draw")
    assert load_state(game).deal.turn == 2


def test_a_lone_action_card_lights_only_the_discard_pile_and_is_played_there(ana):
    """A Skip selected alone: the discard pile is its target, "meld" and "discard selected" are off
    (an action card is never melded nor discarded, F8 and F11); a Draw 5 needs its chooser, so
    nothing lights; tapping the pile with the Skip plays it (F14), as its own button does."""
    game = make_table_scene("frayzy-play")
    ana.goto(game.get_absolute_url())
    pile, meld, discard = ana.locator(".pile-discard"), ana.locator("#act-meld"), ana.locator("#act-discard")
    select_cards(ana, ["R7"])
    expect(pile).to_have_class(re.compile(r"\bis-target\b"))
    expect(discard).to_be_enabled()
    for action_card in ("DRAW5", "SKIP"):
        select_cards(ana, [ana.locator("#board input[name=cards]:checked").get_attribute("value"), action_card])
        expect(meld).to_be_disabled()
        expect(discard).to_be_disabled()
        expect(pile).to_have_class(re.compile(r"\bis-target\b") if action_card == "SKIP"
                                   else re.compile(r"^(?!.*is-target)"))
    before = shown_version(ana)
    pile.locator(".pile-label").click()
    wait_for_newer_board(ana, before)
    expect(ana.locator(".move-log")).to_contain_text("ana played Skip: ben is skipped.")
    expect(ana.locator(".pile-discard [data-card='SKIP']")).to_be_visible()



ACTION_NAMES_OUT_OF_PLACE = """() => {
  // The action cards of the hand and the discard pile whose name runs past the card's edge or
  // touches the card's symbol ("+5"), with the boxes of the three.
  const found = [];
  const textBox = el => { const range = document.createRange(); range.selectNodeContents(el);
                          return range.getBoundingClientRect(); };
  const show = b => `${Math.round(b.left)},${Math.round(b.top)}..${Math.round(b.right)},${Math.round(b.bottom)}`;
  for (const card of document.querySelectorAll("#board :is(.hand, .pile-discard) .card-action")) {
    const box = card.getBoundingClientRect();
    const where = `${card.dataset.card} in the ${card.closest(".hand") ? "hand" : "pile"}`;
    const name = textBox(card.querySelector(".card-action-name")), symbol = textBox(card.querySelector(".card-suit"));
    if (name.left < box.left || name.top < box.top || name.right > box.right || name.bottom > box.bottom) {
      found.push(`${where}: name ${show(name)} outside card ${show(box)}`);
    }
    if (name.left < symbol.right && symbol.left < name.right && name.top < symbol.bottom && symbol.top < name.bottom) {
      found.push(`${where}: name ${show(name)} over symbol ${show(symbol)}`);
    }
  }
  return found;
}"""


def open_action_cards(page, top: str):
    """Open a Frayzy table whose hand holds a Skip, a Discard 1 and a Draw 5 among number cards,
    ``top`` on the discard pile."""
    game = make_table_scene("frayzy-play")
    put_position(game, frayzy(["R7 B12 SKIP DISCARD1 DRAW5 G3 Y5 Y6 B4 R11", "Y1 Y2 Y3 B1 B2", "G1 G2 G4 G5"],
                              discard=f"Y12 {top}").deal)
    page.goto(game.get_absolute_url())
    expect(page.locator("#board .hand .card-action")).to_have_count(3)


@pytest.mark.parametrize("top", ["DISCARD1~1", "DRAW5~1", "SKIP~1"])
def test_action_cards_show_their_whole_name_clear_of_their_symbol(ana, top):
    """Skip, Discard 1 and Draw 5 in the hand and on top of the discard pile: the name lies inside
    its card and clear of its symbol at every width (a tester saw "DISCARD 1" run off the bottom of
    its card at 390 px, and "DRAW 5" over its "+5": in a phone's hand the name took the corner
    index's size, not the strip's small type)."""
    open_action_cards(ana, top)
    found = {}
    for size in (DESKTOP, PHONE, NARROWEST):
        ana.set_viewport_size(size)
        screenshot(ana, f"frayzy-action-cards-{top.split('~')[0].lower()}", size)
        if wrong := ana.evaluate(ACTION_NAMES_OUT_OF_PLACE):
            found[size["width"]] = wrong
    assert found == {}, "\n".join(f"{width} px: {line}" for width, lines in found.items() for line in lines)


HAND_TOPS = """() => [...document.querySelectorAll("#board .hand .card[data-card]")]
  .map(card => [card.dataset.card, card.classList.contains("card-action"), card.getBoundingClientRect().top])"""


def test_action_cards_sit_level_with_the_number_cards_in_the_hand(ana):
    """An action card's top edge is the number cards' (within 1 px) at every width: a tester saw the
    action cards sit lower at 1280 px (the hand's cards sat on their first line's baseline, and an
    action card's name is smaller type than a number)."""
    open_action_cards(ana, "DISCARD1~1")
    found = {}
    for size in (DESKTOP, PHONE, NARROWEST):
        ana.set_viewport_size(size)
        tops = ana.evaluate(HAND_TOPS)
        number_top = next(top for _, action, top in tops if not action)
        if wrong := {key: round(top - number_top, 1) for key, _, top in tops if abs(top - number_top) > 1}:
            found[size["width"]] = wrong
    assert found == {}, f"cards below (+) or above (-) the first number card, by width: {found}"


def test_the_action_card_buttons_stand_apart(ana):
    """"Play Discard 1" and "Play Skip" sat edge to edge (a trial); each button keeps a gap to the
    next, at every width."""
    open_action_cards(ana, "DISCARD1~1")
    buttons = ana.locator("#board .frayzy-actions .action-buttons .button-action")
    expect(buttons).to_have_count(2)
    for size in (DESKTOP, PHONE, NARROWEST):
        ana.set_viewport_size(size)
        first, second = buttons.nth(0).bounding_box(), buttons.nth(1).bounding_box()
        apart = (second["x"] - (first["x"] + first["width"]) if second["y"] == first["y"]
                 else second["y"] - (first["y"] + first["height"]))
        assert apart >= 4, (size, first, second)
