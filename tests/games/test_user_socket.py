"""The user websocket (``/ws/user/``, on every page): anonymous users refused, the waiting count on
connect and on request, a "your turn" event (with the game) when a turn passes, the count going
down for the player who moved, presence rows kept for as long as the socket is open and no
longer, and the socket closed (4403) when its session logs out or its user is suspended."""
import logging
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from autobahn.exception import Disconnected
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from moderation import services as moderation
from notices.models import Connection
from notices.services import is_present
from rummy_site.asgi import application
from tests.factories import hand_keys, login, make_started_game, make_user, post_move, seat_to_move, seats_of
from tests.games.sockets import HOST, SILENCE, closed_as_forbidden, communicator, session_cookie
from tests.moderators import make_moderator

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("close_thread_connections")]


async def user_socket(cookie):
    headers = [(b"origin", b"http://testserver"), (b"host", HOST)]
    if cookie:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    socket = communicator("/ws/user/", headers)
    assert (await socket.connect(timeout=5))[0]
    return socket


def waiting(count, game=None):
    """The ``games.waiting`` message for ``count`` games (with ``game`` when it became theirs)."""
    if game is None:
        return {"type": "games.waiting", "count": count, "game": None, "name": "", "url": ""}
    return {"type": "games.waiting", "count": count, "game": game.pk, "name": str(game),
            "url": game.get_absolute_url()}


async def test_an_anonymous_user_socket_is_closed_with_4403():
    socket = await user_socket(None)
    closing = await socket.receive_output(timeout=5)
    assert closing == {"type": "websocket.close", "code": 4403}


async def test_the_user_socket_announces_turns_and_keeps_presence():
    game, seats = await sync_to_async(lambda: (g := make_started_game(players=2, seed="ws-user"), seats_of(g)))()
    mover = await sync_to_async(seat_to_move)(game)
    other = next(seat for seat in seats if seat.pk != mover.pk)
    mover_socket = await user_socket(await session_cookie(mover.user))
    other_socket = await user_socket(await session_cookie(other.user))
    assert await mover_socket.receive_json_from(timeout=3) == waiting(1)
    assert await other_socket.receive_json_from(timeout=3) == waiting(0)
    assert await Connection.objects.filter(user_id__in=[mover.user_id, other.user_id]).acount() == 2

    @sync_to_async
    def play_turn():
        client = login(mover.user)
        post_move(client, game, {"type": "draw_stock"}, game.version)
        game.refresh_from_db()
        post_move(client, game, {"type": "discard", "card": sorted(hand_keys(game, mover))[0]}, game.version)
        game.refresh_from_db()

    await play_turn()
    assert await other_socket.receive_json_from(timeout=3) == waiting(1, game)
    assert await mover_socket.receive_json_from(timeout=3) == waiting(0)
    assert await other_socket.receive_nothing(timeout=SILENCE)

    await other_socket.send_json_to({"type": "sync"})
    assert await other_socket.receive_json_from(timeout=3) == waiting(1)

    await other_socket.disconnect()
    await mover_socket.disconnect()
    assert not await Connection.objects.filter(user_id__in=[mover.user_id, other.user_id]).aexists()


async def test_the_user_socket_ignores_messages_it_does_not_know():
    user = await sync_to_async(make_user)("quinn")
    socket = await user_socket(await session_cookie(user))
    assert await socket.receive_json_from(timeout=3) == waiting(0)
    for text in ("not json", "[1]", '"str"', "null", '{"type": "other"}'):
        await socket.send_to(text_data=text)
    assert await socket.receive_nothing(timeout=SILENCE)
    await socket.send_json_to({"type": "ping"})
    assert await socket.receive_json_from(timeout=3) == waiting(0)
    await socket.disconnect()


async def test_the_user_socket_closes_when_its_session_logs_out_and_its_presence_goes():
    user = await sync_to_async(make_user)("rhea")
    leaving, staying = await sync_to_async(lambda: (login(user), login(user)))()
    leaving_socket = await user_socket(leaving.cookies["sessionid"].value)
    staying_socket = await user_socket(staying.cookies["sessionid"].value)
    for socket in (leaving_socket, staying_socket):
        assert await socket.receive_json_from(timeout=3) == waiting(0)

    assert (await sync_to_async(leaving.post)(reverse("account_logout"))).status_code == 302

    assert await closed_as_forbidden(leaving_socket)
    await leaving_socket.disconnect()  # the server's answer to the close
    assert await Connection.objects.filter(user=user).acount() == 1
    await staying_socket.send_json_to({"type": "ping"})  # the same user's other session stays
    assert await staying_socket.receive_json_from(timeout=3) == waiting(0)
    await staying_socket.disconnect()


async def test_the_user_socket_closes_when_its_user_is_suspended():
    user = await sync_to_async(make_user)("sid")
    socket = await user_socket(await session_cookie(user))
    assert await socket.receive_json_from(timeout=3) == waiting(0)

    await sync_to_async(lambda: moderation.suspend_user(make_moderator(), user.pk, "Abuse."))()

    assert await closed_as_forbidden(socket)
    await socket.disconnect()
    assert not await Connection.objects.filter(user=user).aexists()


async def test_a_socket_that_died_without_closing_leaves_no_presence_behind():
    user = await sync_to_async(make_user)("tove")
    crashed = await user_socket(await session_cookie(user))
    assert await crashed.receive_json_from(timeout=3) == waiting(0)
    crashed.future.cancel()  # its server died: the consumer's disconnect never runs
    presence = timedelta(seconds=settings.RUMMY_PRESENCE_SECONDS)
    now = timezone.now()
    assert await sync_to_async(is_present)(user.pk, now)
    assert not await sync_to_async(is_present)(user.pk, now + presence + timedelta(seconds=1))

    # The window passes; the user opens another page, whose ping deletes the dead socket's row.
    await Connection.objects.filter(user=user).aupdate(last_seen=now - presence - timedelta(seconds=1))
    assert not await sync_to_async(is_present)(user.pk, timezone.now())
    live = await user_socket(await session_cookie(user))
    assert await live.receive_json_from(timeout=3) == waiting(0)
    assert await Connection.objects.filter(user=user).acount() == 1
    assert await sync_to_async(is_present)(user.pk, timezone.now())
    await live.disconnect()
    assert not await sync_to_async(is_present)(user.pk, timezone.now())


async def test_a_reply_to_a_socket_the_client_closed_meanwhile_ends_quietly(caplog):
    user = await sync_to_async(make_user)()
    cookie = await session_cookie(user)
    closed = False

    async def server(scope, receive, send):
        async def send_unless_closed(message):
            if closed:  # as daphne (autobahn) answers a send after the browser closed the socket
                raise Disconnected("Attempt to send on a closed protocol")
            await send(message)
        await application(scope, receive, send_unless_closed)

    socket = WebsocketCommunicator(server, "/ws/user/", headers=[(b"origin", b"http://testserver"), (b"host", HOST),
                                                                 (b"cookie", f"sessionid={cookie}".encode())])
    assert (await socket.connect(timeout=5))[0]
    assert await socket.receive_json_from(timeout=3) == waiting(0)
    closed = True
    await socket.send_json_to({"type": "sync"})
    assert await socket.receive_nothing(SILENCE)
    await socket.disconnect()
    assert socket.future.done() and socket.future.exception() is None
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
