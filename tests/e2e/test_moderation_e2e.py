"""Moderation in a real browser: a moderator suspends a player from the admin, with a reason, and
that player's open game page loses its sign-in, their next move is refused with the game unchanged,
a computer player has their seat, and they cannot log in again; a player reports another from the
game page and leaves the game (after confirming), and a computer player takes the seat; a
long name wraps in the admin's games list."""
import re

import pytest
from playwright.sync_api import expect

from games.models import Game, Move, Seat
from moderation.models import AuditEntry, Report
from tests.e2e.conftest import E2E_PASSWORD
from tests.e2e.pages import ana, overflow_at_each_width, serious_violations  # noqa: F401 (ana: a fixture)
from tests.e2e.scenes import make_table_scene
from tests.e2e.tables import UPDATE_TIMEOUT_MS, silence_events
from tests.factories import make_started_game, make_user, move_fields, play_moves, seat_to_move, snapshot
from tests.moderators import moderators_group

pytestmark = [pytest.mark.e2e]

REASON = "Abusive messages to other players."


def test_moderator_suspends_a_player_whose_next_move_is_refused(new_user_page, browser_context, log_in,
                                                                 django_user_model, monkeypatch, job_worker):
    eve_page, finn_page = new_user_page("eve"), new_user_page("finn")
    eve, finn = django_user_model.objects.get(username="eve"), django_user_model.objects.get(username="finn")
    silence_events(monkeypatch)
    game = make_started_game(players=3, humans=[eve, finn], seed="e2e-suspend")
    play_moves(game, until=lambda g: seat_to_move(g).user_id == eve.pk)
    # Once Eve is suspended a computer has her seat; its turns must not land between the snapshots
    # taken around her refused move, so the job worker (which would play them) stops here.
    job_worker.terminate()
    job_worker.join()

    moderator = django_user_model.objects.create_user(username="mia", email="mia@example.com", password=E2E_PASSWORD,
                                                      is_staff=True)
    moderator.groups.add(moderators_group())
    mod_page = browser_context().new_page()
    log_in(mod_page, "mia", E2E_PASSWORD)

    eve_page.goto(f"/games/{game.pk}/")
    expect(eve_page.locator(".turn-banner-you")).to_contain_text("Your turn")
    csrf_token = eve_page.locator("#play input[name=csrfmiddlewaretoken]").input_value()

    # The moderator finds Eve in the admin's user list and suspends her, giving a reason.
    mod_page.goto("/admin/accounts/user/?q=eve")
    row = mod_page.locator("#result_list tr", has=mod_page.get_by_role("link", name="eve", exact=True))
    row.locator("input[name=_selected_action]").check()
    mod_page.locator("select[name=action]").select_option("suspend")
    mod_page.get_by_role("button", name="Go").click()
    expect(mod_page.locator("form.moderation-reason")).to_contain_text("eve")
    mod_page.locator("textarea[name=reason]").fill(REASON)
    mod_page.get_by_role("button", name="Confirm").click()
    expect(mod_page.locator(".messagelist")).to_contain_text("Suspended 1 user(s).")

    eve.refresh_from_db()
    assert not eve.is_active
    seat = Seat.objects.get(game=game, former_user=eve)
    assert seat.is_bot
    entry = AuditEntry.objects.get(action="suspend_user", game=None)
    assert (entry.actor_id, entry.target_user_id, entry.reason) == (moderator.pk, eve.pk, REASON)

    # Eve's open game page learns of the change and finds it has lost its sign-in.
    expect(eve_page).to_have_url(re.compile(r"/accounts/login/\?next="), timeout=UPDATE_TIMEOUT_MS)

    # Her next move, sent from her browser with her session and CSRF token, is refused.
    game.refresh_from_db()
    before = snapshot(game)
    response = eve_page.request.post(f"/games/{game.pk}/move", form=move_fields({"type": "draw_stock"}, game.version),
                                     headers={"X-CSRFToken": csrf_token}, max_redirects=0)
    assert response.status == 302 and "/accounts/login/" in response.headers["location"]
    assert snapshot(game) == before
    assert not Move.objects.filter(game=game, seat__user=eve).exists()
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE

    # She cannot log in again while suspended.
    form = eve_page.locator("main form")
    form.locator("input[name=login]").fill("eve")
    form.locator("input[name=password]").fill(E2E_PASSWORD)
    form.get_by_role("button", name=re.compile("sign in", re.I)).click()
    expect(eve_page.locator("main")).to_contain_text("This account is inactive.")

    # Finn plays on against the computer that took Eve's seat.
    finn_page.goto(f"/games/{game.pk}/")
    expect(finn_page.locator(".seats")).to_contain_text("Computer 1")


def test_player_reports_another_player_then_leaves_the_game(new_user_page, django_user_model, monkeypatch):
    ana_page, ben_page = new_user_page("ana"), new_user_page("ben")
    ana, ben = django_user_model.objects.get(username="ana"), django_user_model.objects.get(username="ben")
    silence_events(monkeypatch)
    game = make_started_game(players=3, humans=[ana, ben], seed="e2e-leave")
    monkeypatch.undo()

    ana_page.goto(f"/games/{game.pk}/")
    ana_page.get_by_text("Report a player or this game").click()
    report = ana_page.locator("form.report-form")
    report.locator("select[name=about]").select_option(label="ben")
    report.locator("textarea[name=reason]").fill("Keeps stalling on purpose.")
    report.get_by_role("button", name="Send report").click()
    expect(ana_page.locator("#messages")).to_contain_text("a moderator will look at your report")
    assert Report.objects.get().reported_user == ben

    ben_page.goto(f"/games/{game.pk}/")
    ana_page.get_by_test_id("leave-game").click()
    expect(ana_page.locator("main")).to_contain_text("A computer player will take your seat")
    ana_page.get_by_role("button", name="Yes, leave the game").click()
    expect(ana_page).to_have_url(re.compile(r"^http://[^/]+/$"))
    expect(ana_page.locator("#messages")).to_contain_text("a computer player has taken your seat")
    seat = Seat.objects.get(game=game, position=0)
    assert seat.is_bot and seat.former_user == ana
    # Ben's open page hears of it and shows the computer in Ana's place.
    expect(ben_page.locator(".seats")).to_contain_text("Computer 1", timeout=UPDATE_TIMEOUT_MS)


def test_a_long_report_is_counted_as_typed_and_a_refused_one_keeps_its_text(ana):
    """1000 characters with 10 line breaks, typed in the textarea, are filed (the browser sends
    1010 with its CRLF line breaks); one character more (the textarea's own limit lifted) comes
    back as the form with the text and the limit; sending it again while the first is open files
    nothing new."""
    game = make_table_scene("standard-draw")
    ana.goto(game.get_absolute_url())
    ana.get_by_text("Report a player or this game").click()
    typed = "\n".join(["x" * 90] * 11)
    form = ana.locator("form.report-form")
    form.locator("textarea[name=reason]").fill(typed)
    form.get_by_role("button", name="Send report").click()
    expect(ana.locator("#messages")).to_contain_text("a moderator will look at your report")
    assert list(Report.objects.values_list("reason", flat=True)) == [typed]

    ana.get_by_text("Report a player or this game").click()
    textarea = form.locator("textarea[name=reason]")
    textarea.evaluate("area => area.removeAttribute('maxlength')")
    textarea.fill(typed + "!")
    form.get_by_role("button", name="Send report").click()
    expect(ana.get_by_test_id("report-refused")).to_contain_text("up to 1000 characters; yours has 1001")
    expect(ana.locator("textarea[name=reason]")).to_have_value(typed + "!")
    assert Report.objects.count() == 1
    assert serious_violations(ana) == []
    assert overflow_at_each_width(ana, "report-refused") == {}

    ana.locator("textarea[name=reason]").fill(typed)
    ana.get_by_role("button", name="Send report").click()
    expect(ana.locator("#messages")).to_contain_text("a moderator will look at your report")
    assert Report.objects.count() == 1


def test_a_150_character_name_wraps_in_the_admins_games_list(browser_context, log_in, django_user_model):
    """The games list's Seats cell wraps a name of 150 letters (one word) within 20rem at 1280 and
    375 px: it ran the table off the right edge (admin.css)."""
    longest = "Longname" + "W" * 142
    django_user_model.objects.create_superuser("root", "root@example.com", E2E_PASSWORD)
    make_started_game(players=2, humans=[make_user(longest), make_user("bob")], seed="e2e-admin-names")
    page = browser_context().new_page()
    log_in(page, "root", E2E_PASSWORD)
    page.goto("/admin/games/game/")
    cell = page.locator("#result_list td.field-player_names")
    expect(cell).to_contain_text(longest)
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 800})
        size = cell.evaluate("td => [td.getBoundingClientRect().width, td.scrollWidth - td.clientWidth]")
        assert size[0] <= 320 and size[1] <= 1, (width, size)
