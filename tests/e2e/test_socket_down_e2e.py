"""A game page whose websocket cannot connect (Redis down: the server refuses or closes it) still
follows the game: it compares the game's version every RUMMY_PAGE_POLL_MS and re-fetches its board
when behind (issue 14, faults). Under CI's Redis the page does not otherwise poll, so the socket
being down is what makes it ask."""
import re

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.e2e.tables import UPDATE_TIMEOUT_MS, open_table

pytestmark = [pytest.mark.e2e]


def test_a_page_without_its_game_socket_follows_the_game_by_comparing_versions(new_user_page):
    ana, ben = new_user_page("ana"), new_user_page("ben")
    refused = []

    def refuse(socket):
        refused.append(socket.url)
        socket.close(code=1013)

    ben.route_web_socket(re.compile(r"/ws/games/\d+/$"), refuse)
    asked = {"ana": 0, "ben": 0}
    for name, page in (("ana", ana), ("ben", ben)):
        page.on("request", lambda request, name=name: asked.update(
            {name: asked[name] + request.url.endswith("/version")}))
    game = open_table(ana)
    ben.goto(game.get_absolute_url())
    ben.get_by_role("button", name="Join this table").click()
    expect(ana.locator(".waiting-seats")).to_contain_text("ben", timeout=UPDATE_TIMEOUT_MS)

    ana.get_by_role("button", name="Start the game").click()

    # Ben's page hears nothing on a socket: it catches up by polling the version.
    expect(ben.locator(".seats")).to_be_visible(timeout=UPDATE_TIMEOUT_MS)
    assert refused and all(url.endswith(f"/ws/games/{game.pk}/") for url in refused)
    # Ana's socket is open: with Redis her page relies on its events and asks for no version.
    assert asked["ben"] > 0
    assert (asked["ana"] > 0) is settings.RUMMY_PAGE_POLL_ALWAYS


SOCKET_CLOSE_CODE = """path => new Promise(resolve => {
  const socket = new WebSocket("ws://" + location.host + path);
  socket.addEventListener("close", event => resolve(event.code));
})"""


def test_the_socket_of_an_unknown_game_is_refused_for_good(new_user_page):
    """A game that does not exist (or no longer does) refuses its socket with 4403, the code that
    stops the page's reconnecting, not a drop (1006) it would retry for ever."""
    ana = new_user_page("ana")
    game = open_table(ana)
    codes = {path: ana.evaluate(SOCKET_CLOSE_CODE, path)
             for path in (f"/ws/games/{game.pk + 1000}/", "/ws/games/999999999999999999/")}
    assert codes == {f"/ws/games/{game.pk + 1000}/": 4403, "/ws/games/999999999999999999/": 4403}
