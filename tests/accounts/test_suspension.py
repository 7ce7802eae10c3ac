"""A suspended user cannot log in or act: their open session stops authenticating, their move is
refused with the game unchanged, and lifting the suspension lets them log in again."""
import pytest
from django.test import Client
from django.urls import reverse

from moderation import services as moderation
from tests.factories import PASSWORD, login, make_started_game, move_fields, seat_to_move, snapshot
from tests.moderators import make_moderator

pytestmark = pytest.mark.django_db


def log_in(client, user):
    return client.post(reverse("account_login"), {"login": user.username, "password": PASSWORD})


def test_suspended_user_cannot_log_in_and_lifting_it_lets_them_back():
    game = make_started_game(players=2, humans=1, seed="suspend-login")
    user = game.seats.get(position=0).user
    moderator = make_moderator()
    moderation.suspend_user(moderator, user.pk, "Cheating.")
    client = Client()
    response = log_in(client, user)
    assert response.status_code == 302 and response["Location"] == reverse("account_inactive")
    assert "_auth_user_id" not in client.session

    moderation.unsuspend_user(moderator, user.pk, "Appeal accepted.")
    response = log_in(Client(), user)
    assert response.status_code == 302 and response["Location"] == "/"


def test_open_session_stops_working_and_the_next_move_is_refused():
    game = make_started_game(players=2, seed="suspend-session")
    seat = seat_to_move(game)
    client = login(seat.user)
    assert client.get(reverse("game_detail", args=[game.pk])).status_code == 200

    moderation.suspend_user(make_moderator(), seat.user.pk, "Abuse.")
    game.refresh_from_db()
    before = snapshot(game)
    response = client.post(reverse("game_move", args=[game.pk]), move_fields({"type": "draw_stock"}, game.version))
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    assert snapshot(game) == before
    assert client.get(reverse("game_detail", args=[game.pk])).status_code == 302


def test_htmx_requests_of_a_suspended_user_send_the_page_to_the_login_form():
    game = make_started_game(players=2, seed="suspend-htmx")
    seat = seat_to_move(game)
    client = login(seat.user)
    moderation.suspend_user(make_moderator(), seat.user.pk, "Abuse.")
    game.refresh_from_db()
    before = snapshot(game)
    response = client.post(reverse("game_move", args=[game.pk]), move_fields({"type": "draw_stock"}, game.version),
                           headers={"HX-Request": "true", "HX-Current-URL": f"http://testserver/games/{game.pk}/"})
    assert response.status_code == 200 and response.content == b""
    assert response["HX-Redirect"] == f"{reverse('account_login')}?next=/games/{game.pk}/"
    assert snapshot(game) == before
