"""Idle websockets stay open on the Redis channel layer: game and user sockets held open on a real
daphne for longer than channels-redis's blocking pop (5 s; redis-py's own read timeout must not cut
it short) are still open afterwards, still receive the events of a move, and the server logged no
warning or error; and a closed socket's receive ends when cancelled. Runs when REDIS_URL is set
(as in CI); skipped otherwise."""
import asyncio
import json
import os

import pytest
import websockets
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from django.db import connections
from django.urls import reverse

from tests.factories import hand_keys, make_started_game, move_fields, seat_to_move, seats_of
from tests.live_servers import open_game_socket, post_form, server_url, session_of, start_daphne

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                                reason="needs REDIS_URL: the idle timeout is the Redis channel layer's")

HOLD_SECONDS = 25
"""How long the sockets stay idle: five of channels-redis's 5 s blocking pops."""
SOCKETS_PER_PLAYER = 3
"""Game sockets and user sockets each player holds open (12 sockets in all)."""
EVENT_TIMEOUT_SECONDS = 10


def test_the_layers_redis_reads_wait_for_its_blocking_pop():
    (host,) = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]
    assert host["socket_timeout"] is None


async def test_a_closed_sockets_receive_stops_when_cancelled():
    """A consumer's channel-layer receive, cancelled at once as when its socket closes right after
    connecting, ends instead of polling Redis on (redis-py's timed sends could lose the cancel)."""
    layer = RedisChannelLayer(**settings.CHANNEL_LAYERS["default"]["CONFIG"])
    for attempt in range(20):
        receive = asyncio.ensure_future(layer.receive(await layer.new_channel()))
        await asyncio.sleep(attempt % 10 / 1000)
        receive.cancel()
        done, _ = await asyncio.wait([receive], timeout=RedisChannelLayer.brpop_timeout + 2)
        assert done, f"attempt {attempt}: the cancelled receive is still running"
    await layer.flush()


@pytest.fixture
def logged_server(transactional_db, django_db_blocker, tmp_path):
    """One daphne process serving the test database with the Redis layer; yields its URL and the
    file it writes its warnings and errors to."""
    log_path = tmp_path / "daphne.log"
    with django_db_blocker.unblock():
        connections.close_all()
        process = start_daphne(log_path)
    yield server_url(process), log_path
    process.terminate()
    process.join(10)


async def open_user_socket(base_url: str, session: str):
    """A websocket client on ``/ws/user/`` as the session's user, after its greeting (the count)."""
    socket = await websockets.connect(base_url.replace("http://", "ws://") + "/ws/user/", origin=base_url,
                                      additional_headers={"Cookie": f"sessionid={session}"})
    await socket.recv()
    return socket


async def next_of_type(socket, kind: str) -> dict:
    """The next message of type ``kind`` the socket receives (others skipped)."""
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), timeout=EVENT_TIMEOUT_SECONDS))
        if message["type"] == kind:
            return message


def test_idle_sockets_on_both_endpoints_stay_open_past_the_blocking_timeout(logged_server):
    base_url, log_path = logged_server
    game = make_started_game(players=2, seed="idle-sockets")
    mover = seat_to_move(game)
    watcher = next(seat for seat in seats_of(game) if seat.pk != mover.pk)
    sessions = {mover.user_id: session_of(mover.user), watcher.user_id: session_of(watcher.user)}
    card = sorted(hand_keys(game, mover))[0]
    move_url = base_url + reverse("game_move", args=[game.pk])
    connections.close_all()

    async def scenario():
        owners = [user_id for user_id in sessions for _ in range(SOCKETS_PER_PLAYER)]
        game_sockets = await asyncio.gather(*(open_game_socket(base_url, game.pk, sessions[u]) for u in owners))
        user_sockets = await asyncio.gather(*(open_user_socket(base_url, sessions[u]) for u in owners))
        try:
            await asyncio.sleep(HOLD_SECONDS)
            closed = [socket.close_code for socket in (*game_sockets, *user_sockets) if socket.close_code is not None]
            assert closed == [], f"sockets closed while idle, with codes {closed}"
            loop = asyncio.get_running_loop()
            statuses = []
            for action, version in (({"type": "draw_stock"}, game.version),
                                    ({"type": "discard", "card": card}, game.version + 1)):
                statuses.append(await loop.run_in_executor(
                    None, post_form, move_url, move_fields(action, version), sessions[mover.user_id]))
            versions = [(await next_of_type(s, "game.changed"))["version"] for s in game_sockets]
            counts = {}
            for owner, socket in zip(owners, user_sockets):
                counts.setdefault(owner, []).append((await next_of_type(socket, "games.waiting"))["count"])
        finally:
            await asyncio.gather(*(socket.close() for socket in (*game_sockets, *user_sockets)))
        return statuses, versions, counts

    statuses, versions, counts = asyncio.run(scenario())
    assert statuses == [302, 302]
    assert versions == [game.version + 1] * len(versions)
    assert counts == {mover.user_id: [0] * SOCKETS_PER_PLAYER, watcher.user_id: [1] * SOCKETS_PER_PLAYER}
    assert log_path.read_text() == ""
