"""Bad input gets a clear 4xx (or its ordinary page) and changes nothing: each request of issue 14's
list, which answered 500 on PostgreSQL before. The fuzz test (tests/test_fuzz.py) sends many more."""
import logging

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.admin import helpers
from django.contrib.messages import get_messages
from django.urls import reverse

from games.models import Seat
from moderation.models import Suspension
from rummy_site.asgi import application
from tests.factories import login, make_started_game, make_table, make_user, snapshot
from tests.games.conftest import close_thread_connections  # noqa: F401 (fixture)
from tests.games.sockets import HOST, SILENCE, open_socket, session_cookie
from tests.moderators import make_moderator

NUL_URLS = ["/players/%00/", "/players/%00/games", "/join/%00", "/?x=%00", "/players/ana/games?older=1%00.2"]


@pytest.mark.django_db
@pytest.mark.parametrize("url", NUL_URLS)
def test_a_nul_character_in_the_url_gets_400(client, url):
    client.force_login(make_user("ana"))

    response = client.get(url)

    assert response.status_code == 400
    assert b"NUL character" in response.content


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("url", ["/games/9223372036854775808/", "/games/99999999999999999999/leave",
                                 "/games/1234567890123456789/record"])
def test_a_game_id_past_64_bits_is_not_found(method, url):
    response = getattr(login(make_user()), method)(url)

    assert response.status_code == 404


@pytest.mark.django_db
def test_a_nul_character_in_a_form_field_or_a_cookie_gets_400():
    game = make_table()
    client = login(game.created_by)
    before = snapshot(game)

    posted = client.post(reverse("game_join", args=[game.pk]), {"code": "a\x00b"})
    client.cookies["sessionid"] = "abcdefgh\x00ijkl"
    with_cookie = client.get("/")

    assert (posted.status_code, with_cookie.status_code) == (400, 400)
    assert snapshot(game) == before


@pytest.mark.django_db
def test_an_htmx_request_with_a_nul_character_gets_a_board_sized_answer():
    client = login(make_user())

    response = client.get("/games/mine?x=%00", headers={"HX-Request": "true"})

    assert response.status_code == 400
    assert not response.content.lstrip().startswith(b"<!doctype")
    assert b'id="board"' in response.content


POST_ONLY = [("game_new", False), ("game_move", False), ("game_join", False), ("game_start", False),
             ("game_add_computer", False), ("game_close", False), ("game_reclaim", False),
             ("game_hand_order", False), ("game_free_seat", True)]


def post_only_url(name: str, game, with_seat: bool) -> str:
    if name == "game_new":
        return reverse(name)
    return reverse(name, args=[game.pk, 1] if with_seat else [game.pk])


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "with_seat"), POST_ONLY, ids=[name for name, _ in POST_ONLY])
def test_a_get_of_a_post_only_address_gets_the_405_page_and_changes_nothing(name, with_seat):
    game = make_table()
    before = snapshot(game)

    response = login(game.created_by).get(post_only_url(name, game, with_seat))

    assert response.status_code == 405 and response["Allow"] == "POST"
    body = response.content.decode()
    assert body.lstrip().startswith("<!doctype") and "<h1>Not available this way</h1>" in body
    assert "(by POST)" in body and '<a href="/">Back to the lobby</a>' in body
    assert "Content-Security-Policy" in response.headers and "HX-Request" in response["Vary"]
    assert snapshot(game) == before


@pytest.mark.django_db
def test_an_htmx_request_with_the_wrong_method_gets_a_board_sized_405():
    game = make_table()

    response = login(game.created_by).get(reverse("game_move", args=[game.pk]), headers={"HX-Request": "true"})

    assert response.status_code == 405 and response["Allow"] == "POST"
    assert not response.content.lstrip().startswith(b"<!doctype")
    assert b'id="board"' in response.content and b"Not available this way" in response.content


@pytest.mark.django_db
@pytest.mark.parametrize("cursor", ["99999999999999999999999.1", "1.99999999999999999999999", "9" * 4000 + ".1",
                                    "\u00b2.1", "1.\u0663", "-1.5", "."])
@pytest.mark.parametrize("direction", ["older", "newer"])
def test_a_history_cursor_out_of_range_shows_the_first_page(cursor, direction):
    player = make_user("ana")

    response = login(player).get(reverse("match_history", args=["ana"]), {direction: cursor})

    assert response.status_code == 200
    assert response.context["page"] is not None


@pytest.mark.django_db
@pytest.mark.parametrize("step", ["\u00b2", "9" * 4000, "99999999999"])
def test_a_replay_step_that_is_not_a_small_number_shows_a_step(step):
    game = make_started_game(players=2, seed="bad-step")
    seat = Seat.objects.filter(game=game, user__isnull=False).select_related("user").first()

    response = login(seat.user).get(reverse("game_replay", args=[game.pk]), {"step": step})

    assert response.status_code == 200


def _admin_action(action: str, ids: list[str], *, apply: bool) -> dict:
    fields = {"action": action, helpers.ACTION_CHECKBOX_NAME: ids, "index": "0"}
    if apply:
        fields.update(apply="Confirm", reason="Checked the log.")
    return fields


@pytest.mark.django_db
@pytest.mark.parametrize("ids", [[""], ["abc"], ["1", "x"], ["1.5"], [" "]])
@pytest.mark.parametrize("apply", [False, True])
def test_an_admin_action_with_ids_that_are_not_keys_changes_nothing(ids, apply):
    game = make_started_game(players=2, seed="bad-ids")
    target = make_user("target")
    client = login(make_moderator("mod"))
    before = snapshot(game)
    posts = [(reverse("admin:games_seat_changelist"), "remove_player"),
             (reverse("admin:accounts_user_changelist"), "suspend"),
             (reverse("admin:games_game_changelist"), "abort")]

    for url, action in posts:
        response = client.post(url, _admin_action(action, ids, apply=apply))
        assert response.status_code == 302, (url, action)
        assert response["Location"] == url
        shown = [str(message) for message in get_messages(response.wsgi_request)]
        assert any("not a list of rows" in message for message in shown)

    assert snapshot(game) == before
    assert not Suspension.objects.filter(user=target).exists()


MALFORMED_FRAMES = [{"text_data": "not json"}, {"text_data": "{"}, {"bytes_data": b"\x00\xff binary"},
                    {"text_data": "[" * 100_000 + "]" * 100_000}, {"text_data": "[" * 3000 + "]" * 3000},
                    {"text_data": '{"type": "ping", "x": ' + "[" * 1500 + "]" * 1500 + "}"},
                    {"text_data": "[1]"}, {"text_data": "null"}, {"text_data": '{"type": ' + '"p' * 5000 + '"}'}]


async def _user_socket(cookie: str) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(application, "/ws/user/", headers=[(b"origin", b"http://testserver"),
                                                                       (b"host", HOST),
                                                                       (b"cookie", f"sessionid={cookie}".encode())])
    assert (await socket.connect(timeout=5)) == (True, None)
    assert (await socket.receive_json_from(timeout=5))["type"] == "games.waiting"
    return socket


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections")
async def test_malformed_frames_are_ignored_and_both_sockets_stay_open():
    game = await sync_to_async(make_started_game)(players=2, seed="bad-frames")
    seat = await Seat.objects.filter(game=game, user__isnull=False).select_related("user").afirst()
    cookie = await session_cookie(seat.user)
    game_socket = await open_socket(game.pk, cookie)
    user_socket = await _user_socket(cookie)

    for frame in MALFORMED_FRAMES:
        await game_socket.send_to(**frame)
        await user_socket.send_to(**frame)

    assert await game_socket.receive_nothing(timeout=SILENCE)
    assert await user_socket.receive_nothing(timeout=SILENCE)
    await user_socket.send_json_to({"type": "ping"})
    assert (await user_socket.receive_json_from(timeout=3))["type"] == "games.waiting"
    await game_socket.disconnect()
    await user_socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections")
@pytest.mark.parametrize("path", ["/ws/games/abc/", "/ws/nowhere/", "/ws/games/1/extra/", "/ws/user", "/",
                                  "/ws/games/99999999999999999999/"])
async def test_an_unknown_socket_path_fails_the_handshake_without_an_error(path, caplog):
    socket = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://testserver"), (b"host", HOST)])

    connected, _code = await socket.connect(timeout=5)

    assert connected is False
    assert not [record for record in caplog.records if record.levelname == "ERROR"]


@pytest.mark.django_db
def test_an_overlong_url_gets_414_and_logs_no_error(client, caplog):
    caplog.set_level(logging.ERROR)

    response = client.get("/games/mine?next=" + "\u00e9" * 3000)

    assert response.status_code == 414
    assert b"too long" in response.content
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


@pytest.mark.django_db
def test_a_refused_admin_filter_is_a_400_logged_as_one_warning_line(caplog):
    caplog.set_level(logging.WARNING)
    client = login(make_moderator("mod"))

    response = client.get(reverse("admin:games_game_changelist"), {"seats__user__password__startswith": "a"})

    assert response.status_code == 400
    security = [record for record in caplog.records if record.name.startswith("django.security.")]
    assert [(record.levelno, record.exc_info) for record in security] == [(logging.WARNING, None)]
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
