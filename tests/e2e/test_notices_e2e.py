"""The "your turn" notices in a real browser: player B's "My games" badge, tab title, dashboard
and notice change when player A moves in another browser context, without a reload."""
import re
from concurrent.futures import ThreadPoolExecutor

from django.contrib.auth import get_user_model
from django.db import connections
from playwright.sync_api import expect

from tests.e2e.tables import UPDATE_TIMEOUT_MS
from tests.e2e.test_standard_game_e2e import play_in_browser, view_of
from tests.factories import make_started_game, seat_to_move


def started_game(*people):
    """A started game of ``people`` (made in a helper thread, whose connection is closed after)."""
    try:
        return make_started_game(players=len(people), humans=list(people), seed="e2e-badge")
    finally:
        connections.close_all()


def test_the_dashboard_badge_and_title_change_when_the_other_player_moves(new_user_page):
    pages = {"ana": new_user_page("ana"), "ben": new_user_page("ben")}
    users = get_user_model().objects.in_bulk(["ana", "ben"], field_name="username")
    # Another thread: Playwright's event loop runs in this one, and the services send events after
    # commit through async_to_sync.
    with ThreadPoolExecutor(max_workers=1) as pool:
        game = pool.submit(started_game, users["ana"], users["ben"]).result()
    mover_seat = seat_to_move(game)
    mover = pages[mover_seat.user.username]
    waiter_name = "ben" if mover_seat.user.username == "ana" else "ana"
    waiter = pages[waiter_name]

    waiter.goto("/games/mine")
    badge = waiter.get_by_test_id("games-waiting")
    expect(badge).to_have_text("0")
    expect(waiter).to_have_title("My games · Rummy Table")
    expect(waiter.get_by_test_id("my-games")).to_contain_text(f"{mover_seat.user.username} to move")
    navigations = []
    waiter.on("framenavigated", lambda frame: navigations.append(frame.url))

    mover.goto(game.get_absolute_url())
    view = view_of(game, mover_seat.position)
    play_in_browser(mover, view.legal_actions[0])  # draw from the stock
    discard = next(a for a in view_of(game, mover_seat.position).legal_actions if a.to_json()["type"] == "discard")
    play_in_browser(mover, discard)

    expect(badge).to_have_text("1", timeout=UPDATE_TIMEOUT_MS)
    expect(waiter).to_have_title(re.compile(r"^\(1\) My games"), timeout=UPDATE_TIMEOUT_MS)
    expect(waiter.get_by_test_id("my-games")).to_contain_text("Your turn", timeout=UPDATE_TIMEOUT_MS)
    notice = waiter.get_by_test_id("turn-notice")
    expect(notice).to_contain_text(f"Your turn in {game}")
    expect(notice.get_by_role("link")).to_have_attribute("href", game.get_absolute_url())
    assert navigations == [], "the page changed without a reload"

    # The count keeps the site's red on the game page too, whose stylesheet styles the seats' badges.
    red = waiter.evaluate("getComputedStyle(document.getElementById('games-waiting')).backgroundColor")
    waiter.goto(game.get_absolute_url())
    expect(waiter.get_by_test_id("games-waiting")).to_have_text("1")
    assert red == "rgb(179, 38, 30)"
    assert waiter.evaluate("getComputedStyle(document.getElementById('games-waiting')).backgroundColor") == red
