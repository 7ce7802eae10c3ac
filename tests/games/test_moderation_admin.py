"""Moderation through the admin over HTTP: a moderator can carry out every action (each asks for a
reason first) and inspect hidden state; anonymous users, ordinary players and staff outside the
Moderators group reach none of the moderation pages, and their action posts change nothing."""
import io
import logging

import pytest
from django.contrib.admin import helpers
from django.contrib.auth.models import Permission
from django.urls import reverse

from games import services
from games.models import Deal, Game, Move, Seat
from moderation import services as moderation
from moderation.models import AuditEntry, Report, Suspension
from tests.factories import hand_keys, login, make_started_game, make_table, make_user, play_moves, seats_of, snapshot
from tests.moderators import make_moderator

pytestmark = pytest.mark.django_db

REASON = "Reported for stalling; checked the log."


@pytest.fixture
def scene():
    """A two-person game in play, a report about it and an audit entry: one row behind every admin page."""
    game = make_started_game(players=2, seed="admin-scene")
    play_moves(game, 2)
    first, second = (seat.user for seat in seats_of(game))
    report = moderation.file_report(first, game.pk, "Stalling.", second.pk)
    moderator = make_moderator("mod")
    moderation.resend_turn_notification(moderator, game.pk, "Set-up.")
    suspended = make_user("gone")
    moderation.suspend_user(moderator, suspended.pk, "Set-up.")
    return {"game": game, "first": first, "second": second, "report": report, "moderator": moderator,
            "suspension": Suspension.objects.get(), "entry": AuditEntry.objects.first()}


def moderation_urls(scene) -> list[str]:
    """Every admin page a moderator uses: lists, row pages and the hidden-state page."""
    game = scene["game"]
    seat = Seat.objects.filter(game=game).first()
    deal = Deal.objects.filter(game=game).first()
    move = Move.objects.filter(game=game).first()
    rows = [("games", "game", game.pk), ("games", "seat", seat.pk), ("games", "deal", deal.pk),
            ("games", "move", move.pk), ("moderation", "report", scene["report"].pk),
            ("moderation", "auditentry", scene["entry"].pk), ("accounts", "user", scene["first"].pk),
            ("moderation", "suspension", scene["suspension"].pk)]
    urls = [reverse("admin:index")]
    for app, model, pk in rows:
        urls += [reverse(f"admin:{app}_{model}_changelist"), reverse(f"admin:{app}_{model}_change", args=[pk])]
    urls.append(reverse("admin:games_game_hidden_state", args=[game.pk]))
    return urls


def action_posts(scene) -> list[tuple[str, dict]]:
    """Every moderation action as the changelist posts it, already confirmed with a reason."""
    game, report = scene["game"], scene["report"]
    seat = Seat.objects.get(game=game, user=scene["second"])

    def post(app, model, action, pk):
        return (reverse(f"admin:{app}_{model}_changelist"),
                {"action": action, helpers.ACTION_CHECKBOX_NAME: [str(pk)], "apply": "Confirm", "reason": REASON})

    return [
        post("games", "game", "abort", game.pk),
        post("games", "game", "void", game.pk),
        post("games", "game", "resend_turn", game.pk),
        post("games", "seat", "replace_with_computer", seat.pk),
        post("games", "seat", "remove_player", seat.pk),
        post("accounts", "user", "suspend", scene["second"].pk),
        post("accounts", "user", "unsuspend", scene["second"].pk),
        post("moderation", "report", "resolve", report.pk),
        post("moderation", "report", "dismiss", report.pk),
        (reverse("admin:games_game_hidden_state", args=[game.pk]), {"reason": REASON}),
    ]


def staff_outside_the_group():
    user = make_user("staffer")
    user.is_staff = True
    user.save()
    return user


def test_moderator_reaches_every_moderation_page(scene):
    client = login(scene["moderator"])
    for url in moderation_urls(scene):
        response = client.get(url)
        assert response.status_code == 200, url
        assert scene["game"].seed not in response.content.decode(), url


@pytest.mark.parametrize("who", ["anonymous", "player", "staff"])
def test_nothing_in_moderation_reaches_a_non_moderator(scene, who, client):
    if who == "player":
        client = login(scene["first"])
    elif who == "staff":
        client = login(staff_outside_the_group())
    game = scene["game"]
    hidden_card = sorted(hand_keys(game, Seat.objects.get(game=game, user=scene["second"])))[0]
    before = snapshot(game)
    audit_rows = AuditEntry.objects.count()
    for url in moderation_urls(scene):
        response = client.get(url)
        if who == "staff" and url == reverse("admin:index"):
            assert response.status_code == 200  # the admin's front page, listing nothing
            assert "Games" not in response.content.decode() and "Reports" not in response.content.decode()
            continue
        expected = 403 if who == "staff" else 302
        assert response.status_code == expected, (url, response.status_code)
        if expected == 302:
            assert response["Location"].startswith(reverse("admin:login")), url
    for url, data in action_posts(scene):
        response = client.post(url, data)
        assert response.status_code in (302, 403), url
        if response.status_code == 302:
            assert response["Location"].startswith(reverse("admin:login")), url
        assert hidden_card not in response.content.decode()
    assert snapshot(game) == before
    assert AuditEntry.objects.count() == audit_rows
    scene["report"].refresh_from_db()
    scene["second"].refresh_from_db()
    assert scene["report"].status == "open" and scene["second"].is_active


def test_each_action_asks_for_a_reason_before_it_acts(scene):
    client = login(scene["moderator"])
    game = scene["game"]
    response = client.post(reverse("admin:games_game_changelist"),
                           {"action": "abort", helpers.ACTION_CHECKBOX_NAME: [str(game.pk)]})
    body = response.content.decode()
    assert response.status_code == 200 and 'name="reason"' in body and str(game) in body
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    # Confirming without a reason asks again.
    response = client.post(reverse("admin:games_game_changelist"),
                           {"action": "abort", helpers.ACTION_CHECKBOX_NAME: [str(game.pk)], "apply": "Confirm",
                            "reason": ""})
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def confirm(client, url, data):
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return response


def test_moderator_carries_out_every_action_through_the_admin(scene):
    client = login(scene["moderator"])
    posts = dict((data["action"], (url, data)) for url, data in action_posts(scene) if "action" in data)
    game, second = scene["game"], scene["second"]

    confirm(client, *posts["resend_turn"])
    confirm(client, *posts["replace_with_computer"])
    seat = Seat.objects.get(game=game, former_user=second)
    assert seat.is_bot

    confirm(client, *posts["suspend"])
    second.refresh_from_db()
    assert not second.is_active and Suspension.objects.get(user=second, lifted_at=None).reason == REASON
    confirm(client, *posts["unsuspend"])
    second.refresh_from_db()
    assert second.is_active

    confirm(client, *posts["resolve"])
    scene["report"].refresh_from_db()
    assert scene["report"].status == Report.Status.RESOLVED

    confirm(client, *posts["abort"])
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED

    actions = list(AuditEntry.objects.filter(actor=scene["moderator"], reason=REASON)
                   .order_by("id").values_list("action", flat=True))
    assert actions == ["resend_turn", "replace_seat", "suspend_user", "unsuspend_user", "resolve_report",
                       "abort_game"]


def test_remove_player_dismiss_and_void_through_the_admin(scene):
    client = login(scene["moderator"])
    posts = dict((data["action"], (url, data)) for url, data in action_posts(scene) if "action" in data)
    confirm(client, *posts["remove_player"])
    assert Seat.objects.get(game=scene["game"], former_user=scene["second"]).is_bot
    confirm(client, *posts["dismiss"])
    scene["report"].refresh_from_db()
    assert scene["report"].status == Report.Status.DISMISSED

    finished = make_started_game(players=2, humans=1, seed="admin-void", options={"target": 1})
    play_moves(finished)
    confirm(client, reverse("admin:games_game_changelist"),
            {"action": "void", helpers.ACTION_CHECKBOX_NAME: [str(finished.pk)], "apply": "Confirm", "reason": REASON})
    finished.refresh_from_db()
    assert finished.status == Game.Status.VOIDED


def test_a_refused_action_is_reported_and_changes_nothing(scene):
    client = login(scene["moderator"])
    game = scene["game"]
    response = client.post(reverse("admin:games_game_changelist"),
                           {"action": "void", helpers.ACTION_CHECKBOX_NAME: [str(game.pk)], "apply": "Confirm",
                            "reason": REASON}, follow=True)
    assert "Only a finished game can be voided" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_hidden_state_page_asks_why_then_shows_hands_and_stock_and_audits(scene):
    client = login(scene["moderator"])
    game = scene["game"]
    url = reverse("admin:games_game_hidden_state", args=[game.pk])
    seat = Seat.objects.get(game=game, user=scene["second"])
    cards = hand_keys(game, seat)
    asked = client.get(url).content.decode()
    assert 'name="reason"' in asked and not any(f" {key} " in asked for key in cards)
    assert not AuditEntry.objects.filter(action="inspect_hidden").exists()

    shown = client.post(url, {"reason": "Collusion report #1."})
    body = shown.content.decode()
    assert shown.status_code == 200
    assert all(key in body for key in cards) and 'data-testid="hidden-stock"' in body
    entry = AuditEntry.objects.get(action="inspect_hidden")
    assert (entry.actor, entry.game, entry.reason) == (scene["moderator"], game, "Collusion report #1.")


def test_audit_entries_are_read_only_in_the_admin(scene):
    client = login(scene["moderator"])
    entry = scene["entry"]
    url = reverse("admin:moderation_auditentry_change", args=[entry.pk])
    page = client.get(url).content.decode()
    assert 'name="_save"' not in page
    assert client.post(url, {"reason": "Rewritten."}).status_code == 403
    delete_url = reverse("admin:moderation_auditentry_delete", args=[entry.pk])
    assert client.post(delete_url, {"post": "yes"}).status_code == 403
    superuser = make_user("root")
    superuser.is_superuser = superuser.is_staff = True
    superuser.save()
    root = login(superuser)
    assert root.post(url, {"reason": "Rewritten."}).status_code == 403
    assert AuditEntry.objects.get(pk=entry.pk).reason == entry.reason


def test_moderator_cannot_edit_users_or_games(scene):
    client = login(scene["moderator"])
    user_url = reverse("admin:accounts_user_change", args=[scene["first"].pk])
    response = client.post(user_url, {"username": scene["first"].username, "is_superuser": "on", "is_staff": "on"})
    assert response.status_code == 403
    scene["first"].refresh_from_db()
    assert not scene["first"].is_superuser
    game_url = reverse("admin:games_game_change", args=[scene["game"].pk])
    assert client.post(game_url, {"status": "finished"}).status_code == 403


def test_game_list_searches_by_player_and_shows_the_last_move(scene):
    client = login(scene["moderator"])
    other = make_started_game(players=2, humans=["zoe"], seed="admin-search")
    response = client.get(reverse("admin:games_game_changelist"), {"q": scene["first"].username})
    rows = response.context["cl"].result_list
    assert [game.pk for game in rows] == [scene["game"].pk]
    last_move = Move.objects.filter(game=scene["game"]).order_by("-created_at").first().created_at
    assert rows[0].last_move_at == last_move
    response = client.get(reverse("admin:games_game_changelist"), {"q": "zoe"})
    assert [game.pk for game in response.context["cl"].result_list] == [other.pk]


def test_hidden_state_link_only_for_those_who_may_inspect(scene):
    url = reverse("admin:games_game_change", args=[scene["game"].pk])
    hidden_url = reverse("admin:games_game_hidden_state", args=[scene["game"].pk])
    assert hidden_url in login(scene["moderator"]).get(url).content.decode()
    viewer = make_user("viewer")
    viewer.is_staff = True
    viewer.save()
    viewer.user_permissions.add(Permission.objects.get(codename="view_game"))
    page = login(viewer).get(url)
    assert page.status_code == 200 and hidden_url not in page.content.decode()
    assert login(viewer).get(hidden_url).status_code == 403


def test_a_report_changes_only_through_its_actions(scene):
    client = login(scene["moderator"])
    report = scene["report"]
    url = reverse("admin:moderation_report_change", args=[report.pk])
    page = client.get(url).content.decode()
    assert "Stalling." in page and 'name="_save"' not in page
    client.post(url, {"status": "dismissed", "note": "Edited.", "_save": "Save"})
    report.refresh_from_db()
    assert (report.status, report.note) == ("open", "")


def test_a_moderator_refused_a_page_is_answered_403_and_logged_in_one_line(scene):
    console = next(handler for handler in logging.getLogger("django").handlers if handler.name == "console")
    viewer = make_user("viewer")
    viewer.is_staff = True
    viewer.save()
    viewer.user_permissions.add(Permission.objects.get(codename="view_game"))
    hidden_url = reverse("admin:games_game_hidden_state", args=[scene["game"].pk])
    log = io.StringIO()
    stream = console.setStream(log)
    try:
        response = login(viewer).get(hidden_url)
    finally:
        console.setStream(stream)

    assert response.status_code == 403
    [line] = log.getvalue().splitlines()
    assert line.endswith(f" WARNING django.request: Forbidden (Permission denied): {hidden_url}")


@pytest.mark.parametrize("selected", ["99999999999999999999999", str(2**63), str(-2**63 - 1), "abc"])
@pytest.mark.parametrize("changelist, action", [
    ("admin:moderation_report_changelist", "resolve"), ("admin:accounts_user_changelist", "suspend"),
    ("admin:games_seat_changelist", "replace_with_computer"), ("admin:games_game_changelist", "abort")])
def test_a_selection_id_out_of_range_gets_the_page_with_an_error(scene, changelist, action, selected):
    root = make_user("root")
    root.is_superuser = root.is_staff = True
    root.save()
    client = login(root)
    before = snapshot(scene["game"])
    response = client.post(reverse(changelist), {"action": action, helpers.ACTION_CHECKBOX_NAME: [selected],
                                                 "apply": "Confirm", "reason": REASON}, follow=True)
    assert response.status_code == 200
    assert "The selection is not a list of rows of this page" in response.content.decode()
    assert snapshot(scene["game"]) == before


def seat_action(client, action, seats):
    return client.post(reverse("admin:games_seat_changelist"),
                       {"action": action, helpers.ACTION_CHECKBOX_NAME: [str(seat.pk) for seat in seats],
                        "apply": "Confirm", "reason": REASON}, follow=True).content.decode()


def test_replacing_the_last_people_says_the_game_was_aborted(scene):
    game = make_started_game(players=3, humans=2, seed="admin-last-people")
    seats = seats_of(game)
    body = seat_action(login(scene["moderator"]), "replace_with_computer", seats)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert "A computer player took 2 seat(s)." in body
    assert "the game was aborted: no person is left at the table." in body
    assert "A computer player already holds that seat." in body and "This game is not in play" not in body


def test_removing_the_creator_of_a_waiting_table_says_the_table_was_aborted(scene):
    table = make_table(make_user("host"), players=3)
    services.join_table(make_user("guest"), table.pk, table.invite_code)
    creator_seat = table.seats.get(user=table.created_by)
    body = seat_action(login(scene["moderator"]), "remove_player", [creator_seat])
    table.refresh_from_db()
    assert table.status == Game.Status.ABORTED
    assert "the table was aborted: it was its creator&#x27;s seat, and only the creator can start the table." in body


def test_voiding_a_void_game_says_it_is_already_void(scene):
    finished = make_started_game(players=2, humans=1, seed="admin-void-twice", options={"target": 1})
    play_moves(finished)
    moderation.void_game(scene["moderator"], finished.pk, REASON)
    body = login(scene["moderator"]).post(
        reverse("admin:games_game_changelist"), {"action": "void", helpers.ACTION_CHECKBOX_NAME: [str(finished.pk)],
                                                 "apply": "Confirm", "reason": REASON}, follow=True).content.decode()
    assert "This game is already void." in body and "Only a finished game" not in body
