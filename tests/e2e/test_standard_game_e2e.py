"""Standard Rummy in a real browser: two people playing turns live, and a game against a computer
player played to its final standings."""
import random
import re
import time

import pytest
from playwright.sync_api import expect

from games import store
from games.engine.bots import chooser
from games.models import Game
from tests.e2e.tables import UPDATE_TIMEOUT_MS, open_table, select_cards, shown_version, wait_for_newer_board

pytestmark = [pytest.mark.e2e]











def play_in_browser(page, action) -> None:
    """Carry out an engine action by clicking what a person would click, and wait for the new board."""
    before = shown_version(page)
    kind = action.to_json()["type"]
    if kind == "draw_stock":
        page.get_by_role("button", name="Draw").click()
    elif kind == "take_discard":
        page.get_by_role("button", name="Take").click()
    elif kind == "lay_meld":
        select_cards(page, action.cards)
        page.get_by_role("button", name="Lay down selected as a meld").click()
    elif kind == "lay_off":
        select_cards(page, action.cards)
        page.locator(f".meld[data-meld='{action.meld}']").get_by_role("button", name="Lay off here").click()
    else:
        select_cards(page, [action.card])
        page.get_by_role("button", name="Discard selected card").click()
    wait_for_newer_board(page, before)


def view_of(game: Game, position: int):
    """The engine's player view of seat ``position`` as stored now."""
    return store.load_state(store.load_rows(Game.objects.get(pk=game.pk))).player_view(position)


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
        expect(mover).to_have_title(re.compile("^Your turn"))
        expect(waiter.locator(".turn-banner")).to_contain_text(f"Waiting for {seats[turn]}")
        assert not waiter.title().startswith("Your turn")

        play_in_browser(mover, view_of(game, turn).legal_actions[0])  # draw from the stock
        discard = next(a for a in view_of(game, turn).legal_actions if a.to_json()["type"] == "discard")
        started = time.perf_counter()
        play_in_browser(mover, discard)
        # The other page updates by itself (websocket event, then an HTMX re-fetch).
        expect(waiter.locator(".turn-banner-you")).to_contain_text("Your turn", timeout=UPDATE_TIMEOUT_MS)
        latencies.append(time.perf_counter() - started)
        expect(waiter).to_have_title(re.compile("^Your turn"))
        expect(waiter.locator(".move-log")).to_contain_text(f"{seats[turn]} discarded")
    print(f"\nother player's page showed 'Your turn' {max(latencies) * 1000:.0f} ms (max) after the discard was clicked")


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
        view = view_of(game, 0)
        assert view.legal_actions, "the page must be waiting for Ana once the computer has moved"
        play_in_browser(ana, chooser("standard")(view, rng))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    standings = ana.locator(".standings")
    expect(standings).to_contain_text("Final standings")
    winner = game.seats.get(place=1)
    expect(standings.locator(".standing-winner")).to_contain_text(winner.name)
    expect(ana.locator(".score-sheet tbody tr")).to_have_count(1)
    # The finished game stays viewable.
    ana.reload()
    expect(ana.locator(".standings")).to_contain_text("Final standings")
    expect(ana.locator(".hand-actions")).to_have_count(0)
