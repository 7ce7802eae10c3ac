"""axe-core in the browser on every kind of page and every phase of play: no serious or critical
violation. The same page loads check that no page other than a table scrolls sideways at 1280,
390 or 320 px (tables: test_table_feel_e2e.py)."""
import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.engine.variants import VARIANTS
from tests.e2e.pages import ana, overflow_at_each_width, serious_violations  # noqa: F401 (ana: a fixture)
from tests.e2e.scenes import TABLE_SCENES, finished_game, make_table_scene, waiting_room

pytestmark = [pytest.mark.e2e]

HELP_PAGES = tuple(variant.help_slug for variant in VARIANTS.values())


def test_every_phase_of_play_has_no_serious_violation(ana):
    """Draw phase, play phase, Wild Rummy's pending card, Frustration's contract, Frayzy's action
    cards and its pending Draw 5 start card, the waiting room and a game over; each table at 1280
    and 390 px. The waiting room and the game over also must not scroll sideways."""
    found = {}
    for name in TABLE_SCENES:
        ana.goto(make_table_scene(name).get_absolute_url())
        expect(ana.locator(".seats")).to_be_visible()
        for size in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
            ana.set_viewport_size(size)
            if violations := serious_violations(ana):
                found[f"{name}-{size['width']}"] = violations
    for name, game in (("waiting-room", waiting_room()), ("game-over", finished_game())):
        ana.goto(game.get_absolute_url())
        expect(ana.locator("#board")).to_be_visible()
        if violations := serious_violations(ana):
            found[name] = violations
        if overflow := overflow_at_each_width(ana, name):
            found[f"{name} sideways"] = overflow
    assert found == {}, "\n".join(f"{page}: {violations}" for page, violations in found.items())


def test_every_other_page_has_no_serious_violation_and_no_sideways_scroll(ana, browser_context):
    """Lobby, My games, a game's record, its replay and a deal's summary, profile, match history,
    preferences, the help pages, and the login page seen signed out. No table breaks a
    word in two (tests/e2e/pages.py)."""
    game = finished_game()
    urls = {
        "lobby": reverse("lobby"), "my-games": reverse("my_games"), "record": reverse("game_record", args=[game.pk]),
        "replay": reverse("game_replay", args=[game.pk]) + "?step=5",
        "deal-summary": reverse("game_deal_summary", args=[game.pk, 1]),
        "profile": reverse("profile", args=["ana"]), "history": reverse("match_history", args=["ana"]),
        "preferences": reverse("play_preferences"),
        **{f"help-{slug}": reverse("help", args=[slug]) for slug in HELP_PAGES},
    }
    signed_out = browser_context().new_page()
    violations, overflows = {}, {}
    for name, page, url in [*((name, ana, url) for name, url in urls.items()),
                            ("login", signed_out, reverse("account_login"))]:
        response = page.goto(url)
        assert response.status == 200, name
        if found := serious_violations(page):
            violations[name] = found
        if found := overflow_at_each_width(page, name):
            overflows[name] = found
    assert (violations, overflows) == ({}, {}), "\n".join(f"{k}: {v}" for k, v in {**violations, **overflows}.items())
