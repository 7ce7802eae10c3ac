"""The player's side of moderation over HTTP: "Leave game" (confirm, then a computer player takes
the seat and keeps the cards) and the report form (rate limited)."""
import pytest
from django.test import Client, override_settings
from django.urls import reverse

from games.models import Seat
from moderation import services as moderation
from moderation.models import AuditEntry, Report
from tests.factories import hand_keys, login, make_started_game, make_user, seat_to_move, seats_of, snapshot
from tests.moderators import make_moderator

pytestmark = pytest.mark.django_db


def test_the_game_page_offers_leave_and_report_to_a_seated_player():
    game = make_started_game(players=2, seed="page-tools")
    me, other = (seat.user for seat in seats_of(game))
    body = login(me).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert reverse("game_leave", args=[game.pk]) in body
    assert reverse("game_report", args=[game.pk]) in body and f'value="{other.pk}">{other.username}' in body
    assert f'value="{me.pk}"' not in body  # no reporting yourself
    spectator = login(make_user()).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert reverse("game_leave", args=[game.pk]) not in spectator


def test_leave_asks_to_confirm_then_a_computer_takes_the_seat():
    game = make_started_game(players=2, seed="leave-page")
    seat = next(s for s in seats_of(game) if s.position != seat_to_move(game).position)
    client = login(seat.user)
    cards = hand_keys(game, seat)
    before = snapshot(game)
    page = client.get(reverse("game_leave", args=[game.pk]))
    assert page.status_code == 200 and "computer player will take your seat" in page.content.decode()
    assert snapshot(game) == before  # asking changes nothing

    response = client.post(reverse("game_leave", args=[game.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("lobby")
    seat.refresh_from_db()
    assert seat.is_bot and seat.former_user_id is not None and hand_keys(game, seat) == cards
    assert AuditEntry.objects.get().action == "leave_game"
    # Leaving twice, or a stranger leaving, is refused.
    assert client.post(reverse("game_leave", args=[game.pk])).status_code == 403
    assert login(make_user()).get(reverse("game_leave", args=[game.pk])).status_code == 404


def test_the_last_person_at_the_table_is_told_that_leaving_ends_the_game():
    """Against computers only, leaving aborts the game (no person plays on): the page says so
    before, instead of promising that a computer plays on, and the message after says it too."""
    game = make_started_game(players=3, humans=1, seed="leave-last")
    me = seats_of(game)[0].user
    client = login(me)
    page = client.get(reverse("game_leave", args=[game.pk])).content.decode()
    assert 'data-testid="leave-ends-game"' in page and "computer player will take your seat" not in page
    response = client.post(reverse("game_leave", args=[game.pk]), follow=True)
    game.refresh_from_db()
    assert game.status == "aborted"
    assert "with no person left at the table it was aborted" in response.content.decode()
    two_people = make_started_game(players=2, seed="leave-not-last")
    other_page = login(seats_of(two_people)[0].user).get(reverse("game_leave", args=[two_people.pk])).content.decode()
    assert 'data-testid="leave-ends-game"' not in other_page


def test_leave_needs_a_post_with_csrf():
    game = make_started_game(players=2, seed="leave-csrf")
    seat = seats_of(game)[0]
    client = Client(enforce_csrf_checks=True)
    client.force_login(seat.user)
    assert client.post(reverse("game_leave", args=[game.pk])).status_code == 403
    seat.refresh_from_db()
    assert not seat.is_bot


def test_report_a_player_and_the_game():
    game = make_started_game(players=2, seed="report-page")
    me, other = (seat.user for seat in seats_of(game))
    client = login(me)
    response = client.post(reverse("game_report", args=[game.pk]), {"about": str(other.pk), "reason": "Rude."})
    assert response.status_code == 302 and response["Location"] == reverse("game_detail", args=[game.pk])
    response = client.post(reverse("game_report", args=[game.pk]), {"about": "", "reason": "Board froze."},
                           follow=True)
    assert "a moderator will look at your report" in response.content.decode()
    reports = list(Report.objects.order_by("id").values_list("reported_user", "reason", "status"))
    assert reports == [(other.pk, "Rude.", "open"), (None, "Board froze.", "open")]


@pytest.mark.parametrize("fields,status", [({"about": "", "reason": ""}, 400),
                                           ({"about": "abc", "reason": "x"}, 400),
                                           ({"about": "999999", "reason": "Who?"}, 400)])
def test_bad_reports_are_refused(fields, status):
    game = make_started_game(players=2, seed="bad-report")
    response = login(seats_of(game)[0].user).post(reverse("game_report", args=[game.pk]), fields)
    assert response.status_code == status
    assert not Report.objects.exists()


@override_settings(RUMMY_REPORT_RATE="2/h")
def test_reports_are_rate_limited_per_user():
    game = make_started_game(players=2, seed="report-rate")
    client = login(seats_of(game)[0].user)
    url = reverse("game_report", args=[game.pk])
    statuses = [client.post(url, {"about": "", "reason": f"Report {n}."}).status_code for n in range(3)]
    assert statuses == [302, 302, 429]
    assert Report.objects.count() == 2
    assert login(seats_of(game)[1].user).post(url, {"about": "", "reason": "Mine."}).status_code == 302


@override_settings(RUMMY_REPORT_RATE="2/h")
def test_refused_reports_do_not_use_up_the_rate_limit():
    game = make_started_game(players=2, seed="report-rate-refused")
    client = login(seats_of(game)[0].user)
    url = reverse("game_report", args=[game.pk])
    refused = [client.post(url, fields).status_code
               for fields in [{"about": "nobody", "reason": "Bad."}, {"about": "", "reason": " "}] * 3]
    assert refused == [400] * 6
    statuses = [client.post(url, {"about": "", "reason": f"Report {n}."}).status_code for n in range(3)]
    assert statuses == [302, 302, 429]
    assert Report.objects.count() == 2


def test_anonymous_users_cannot_leave_or_report():
    game = make_started_game(players=2, seed="anon")
    client = Client()
    for url in (reverse("game_leave", args=[game.pk]), reverse("game_report", args=[game.pk])):
        response = client.post(url, {"reason": "x"})
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Report.objects.exists() and not Seat.objects.filter(bot_level="simple").exists()


def test_an_aborted_game_offers_no_moves():
    game = make_started_game(players=2, humans=1, seed="aborted-page")
    player = seats_of(game)[0].user
    assert "Your turn" in login(player).get(reverse("game_detail", args=[game.pk])).content.decode()
    moderation.abort_game(make_moderator(), game.pk, "Broken table.")
    body = login(player).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Aborted" in body and "Your turn" not in body and 'value="draw_stock"' not in body
    assert "This game has stopped</strong>: it was aborted. Nobody is to move." in body
    assert "Waiting for" not in body and "seat-turn" not in body
    assert reverse("game_leave", args=[game.pk]) not in body


def test_a_report_is_counted_as_typed_and_a_refused_one_comes_back_with_its_text():
    """A browser sends each line break as CRLF: 1000 characters with 10 line breaks arrive as 1010
    and are still 1000 as the player counts them. One over the limit comes back as the form, with
    the text and the limit."""
    game = make_started_game(players=2, seed="report-length")
    client = login(seats_of(game)[0].user)
    url = reverse("game_report", args=[game.pk])
    typed = "\r\n".join(["x" * 90] * 11)
    assert len(typed.replace("\r\n", "\n")) == 1000
    assert client.post(url, {"about": "", "reason": typed}).status_code == 302
    assert Report.objects.get().reason == typed.replace("\r\n", "\n")

    too_long = typed + "z"
    response = client.post(url, {"about": str(seats_of(game)[1].user.pk), "reason": too_long})
    body = response.content.decode()
    assert response.status_code == 400
    assert "up to 1000 characters; yours has 1001" in body
    assert too_long.replace("\r\n", "\n") + "</textarea>" in body
    assert f'value="{seats_of(game)[1].user.pk}" selected' in body
    assert Report.objects.count() == 1


def test_the_same_report_sent_twice_while_open_is_filed_once():
    game = make_started_game(players=2, seed="report-twice")
    client = login(seats_of(game)[0].user)
    url = reverse("game_report", args=[game.pk])
    for _ in range(2):
        assert client.post(url, {"about": "", "reason": "Board froze."}).status_code == 302
    assert Report.objects.count() == 1
    Report.objects.update(status=Report.Status.RESOLVED)
    assert client.post(url, {"about": "", "reason": "Board froze."}).status_code == 302
    assert Report.objects.filter(status=Report.Status.OPEN).count() == 1
