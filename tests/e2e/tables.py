"""Browser helpers shared by the game tests: open a table from the lobby, read and await the board."""
import re

from playwright.sync_api import expect

from games.models import Game

UPDATE_TIMEOUT_MS = 5_000
"""How long a page may take to show a change (websocket event, then a board re-fetch)."""


def open_table(page, variant: str = "standard", players: int = 2) -> Game:
    """Open a public table of ``variant`` from the lobby form; return its Game row."""
    page.goto("/")
    form = page.locator("form[action='/games/new']")
    form.locator("select[name=variant]").select_option(variant)
    form.locator("select[name=players]").select_option(str(players))
    form.get_by_role("button", name="Open table").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    return Game.objects.get(pk=int(re.search(r"/games/(\d+)/", page.url).group(1)))


def shown_version(page) -> int:
    """The game version of the board the page shows."""
    return int(page.locator("#board").get_attribute("data-version"))


def wait_for_newer_board(page, version: int) -> None:
    """Wait until the page shows a board newer than ``version``."""
    page.wait_for_function(
        "v => Number(document.querySelector('#board')?.dataset.version) > v", arg=version, timeout=UPDATE_TIMEOUT_MS)


def select_cards(page, keys) -> None:
    """Tick cards of the hand by key."""
    for key in keys:
        page.locator(f"label.hand-card:has(input[value='{key}'])").click()


def start_against_a_computer(page, variant: str) -> Game:
    """Open a public 2-seat ``variant`` table, give the other seat to a computer player and start."""
    game = open_table(page, variant)
    page.get_by_role("button", name="Add a computer player").click()
    expect(page.locator(".waiting-seats")).to_contain_text("Computer 2")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".seats")).to_be_visible()
    return game


def silence_events(monkeypatch) -> None:
    """Stop this process's services and jobs from sending channel-layer events (game changed, games
    waiting): a table set up here, where Playwright's event loop runs, cannot send them
    synchronously, and no page shows it yet; the live server sends its own events."""
    monkeypatch.setattr("games.notify.game_changed", lambda game_id, version: None)
    monkeypatch.setattr("games.notify.games_waiting", lambda user_id, count, your_turn_in=None: None)
