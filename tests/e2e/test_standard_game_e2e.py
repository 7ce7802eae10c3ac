"""Standard Rummy in a real browser: the waiting room keeps the computer level picked, two people
playing turns live, and a game against a computer player played to its final standings."""
import random
import re
import time

import pytest
from django.db import transaction
from playwright.sync_api import expect

from games import store
from games.engine.bots import chooser
from games.engine.variants import make_variant
from games.models import Game
from tests.e2e.tables import UPDATE_TIMEOUT_MS, open_table, select_cards, shown_version, wait_for_newer_board

pytestmark = [pytest.mark.e2e]











def press(button) -> None:
    """Press a visible, enabled button (a click event on it, which submits its form)."""
    expect(button).to_be_enabled()
    button.dispatch_event("click")


def play_in_browser(page, action) -> None:
    """Carry out an engine action by clicking what a person would click, and wait for the new board.

    The action buttons are pressed with a click event on the button itself rather than a mouse
    click at its position: the board may be swapped by a live update at that moment, and a mouse
    click would then land on whatever is there."""
    before = shown_version(page)
    kind = action.to_json()["type"]
    if kind == "draw_stock":
        press(page.get_by_role("button", name="Draw"))
    elif kind == "take_discard":
        press(page.get_by_role("button", name="Take"))
    elif kind == "lay_meld":
        select_cards(page, action.cards)
        press(page.get_by_role("button", name="Lay down selected as a meld"))
    elif kind == "lay_off":
        select_cards(page, action.cards)
        press(page.locator(f".meld[data-meld='{action.meld}']").get_by_role("button", name="Lay off here"))
    else:
        select_cards(page, [action.card])
        press(page.get_by_role("button", name="Discard selected card"))
    wait_for_newer_board(page, before)


def view_of(game: Game, position: int):
    """The engine's player view of seat ``position`` as stored now (read with the game row locked:
    the worker may be writing a computer move meanwhile)."""
    return snapshot_of(game, position)[2]


def test_the_computer_level_picked_stays_picked_while_the_waiting_room_updates(new_user_page):
    ana, ben = new_user_page("ana"), new_user_page("ben")
    game = open_table(ana, players=4)
    level = ana.get_by_label("Computer level")
    level.select_option("strong")

    ben.goto(game.get_absolute_url())
    ben.get_by_role("button", name="Join this table").click()
    # Ana's waiting room is redrawn by itself; the level she picked is still the one shown.
    expect(ana.locator(".waiting-seats")).to_contain_text("ben", timeout=UPDATE_TIMEOUT_MS)
    expect(level).to_have_value("strong")

    ana.get_by_role("button", name="Add a computer player").click()
    expect(ana.locator(".waiting-seats")).to_contain_text("Computer 3 (strong)")
    expect(level).to_have_value("strong")


def test_two_players_take_turns_live(new_user_page):
    ana, ben = new_user_page("ana"), new_user_page("ben")
    game = open_table(ana)
    expect(ana.get_by_text("Waiting for players")).to_be_visible()

    ben.goto("/")
    ben.locator(".lobby-section[aria-label='Open tables']").get_by_role("link", name=re.compile(f"#{game.pk}")).click()
    ben.get_by_role("button", name="Join this table").click()
    # Ana's waiting room updates by itself: Ben is seated and the game can start.
    expect(ana.locator(".waiting-seats")).to_contain_text("ben", timeout=UPDATE_TIMEOUT_MS)
    ana.get_by_role("button", name="Start the game").click()
    expect(ben.locator(".seats")).to_be_visible(timeout=UPDATE_TIMEOUT_MS)

    pages = {"ana": ana, "ben": ben}
    latencies = []
    for _ in range(4):
        game.refresh_from_db()
        seats = {seat.position: seat.user.username for seat in game.seats.select_related("user")}
        turn = view_of(game, 0).turn
        mover, waiter = pages[seats[turn]], pages[seats[1 - turn]]
        expect(mover.locator(".turn-banner-you")).to_contain_text("Your turn")
        expect(mover).to_have_title(re.compile(r"^(\(\d+\) )?Your turn"))
        expect(waiter.locator(".turn-banner")).to_contain_text(f"Waiting for {seats[turn]}")
        assert "Your turn" not in waiter.title()

        play_in_browser(mover, view_of(game, turn).legal_actions[0])  # draw from the stock
        discard = next(a for a in view_of(game, turn).legal_actions if a.to_json()["type"] == "discard")
        started = time.perf_counter()
        play_in_browser(mover, discard)
        # The other page updates by itself (websocket event, then an HTMX re-fetch).
        expect(waiter.locator(".turn-banner-you")).to_contain_text("Your turn", timeout=UPDATE_TIMEOUT_MS)
        latencies.append(time.perf_counter() - started)
        expect(waiter).to_have_title(re.compile(r"^(\(\d+\) )?Your turn"))
        expect(waiter.locator(".move-log")).to_contain_text(f"{seats[turn]} discarded")
    print(f"\nother player's page showed 'Your turn' {max(latencies) * 1000:.0f} ms (max)"
          " after the discard was clicked")


IDLE_PAGE = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')"
"""A page with no htmx request, swap or settle under way."""


def snapshot_of(game, position):
    """(status, version, view of seat ``position``) read together: the game row is locked while the
    state is read, so the worker cannot move in between."""
    with transaction.atomic():
        row = Game.objects.select_for_update().get(pk=game.pk)
        return row.status, row.version, store.load_state(store.load_rows(row)).player_view(position)


def wait_for_turn(page, game, position, timeout=UPDATE_TIMEOUT_MS / 1000):
    """Wait until the worker has played the computer's turns, ``position`` is to move and ``page``
    shows that board, settled; return its view (None when the game ended meanwhile)."""
    deadline = time.monotonic() + timeout
    while True:
        status, version, view = snapshot_of(game, position)
        if status == Game.Status.FINISHED:
            return None
        if view.legal_actions and shown_version(page) == version:
            # Let the page finish any request and swap, then make sure nothing moved meanwhile.
            page.wait_for_function(IDLE_PAGE)
            if shown_version(page) == version == snapshot_of(game, position)[1]:
                return view
        assert time.monotonic() < deadline, f"no turn for seat {position} shown at version {version}"
        time.sleep(0.05)


def test_game_against_a_computer_runs_to_final_standings(new_user_page):
    ana = new_user_page("ana")
    game = open_table(ana)
    ana.get_by_role("button", name="Add a computer player").click()
    expect(ana.locator(".waiting-seats")).to_contain_text("Computer 2")
    # Both players stand one point short of the 100-point limit (S15), so the first hand decides.
    game.seats.update(total=99)
    ana.get_by_role("button", name="Start the game").click()
    expect(ana.locator(".seats")).to_be_visible()

    rng = random.Random(7)
    for _ in range(400):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        view = wait_for_turn(ana, game, 0)
        if view is None:
            break
        assert view.legal_actions, "the page must be waiting for Ana once the computer has moved"
        play_in_browser(ana, chooser(make_variant("standard"))(view, rng))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    standings = ana.locator(".standings")
    expect(standings).to_contain_text("Final standings")
    # The first hand decides; two players on the same total with the same penalty in it share the
    # win (S15), and every seat in first place is shown as a winner.
    winners = [seat.name for seat in game.seats.filter(place=1)]
    expect(standings.locator(".standing-winner")).to_have_count(len(winners))
    for name in winners:
        expect(standings.locator(".standing-winner", has_text=name)).to_have_count(1)
    expect(ana.locator(".score-sheet tbody tr")).to_have_count(1)
    # The finished game stays viewable.
    ana.reload()
    expect(ana.locator(".standings")).to_contain_text("Final standings")
    expect(ana.locator(".hand-actions")).to_have_count(0)

    # "Play again" deals a new game against the same computer player at once.
    ana.get_by_test_id("play-again").click()
    again = Game.objects.exclude(pk=game.pk).get()
    expect(ana).to_have_url(re.compile(rf"{again.get_absolute_url()}$"))
    expect(ana.locator(".seats")).to_contain_text("Computer")
    assert again.status == Game.Status.ACTIVE and again.seats.count() == 2
