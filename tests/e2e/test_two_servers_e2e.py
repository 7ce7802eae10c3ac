"""Scaling out: two daphne processes sharing PostgreSQL and Redis. A websocket connected to one
server receives the event of a move posted to the other. Runs when DATABASE_URL is PostgreSQL and
REDIS_URL is set (as in CI); skipped otherwise."""
import asyncio
import json
import os
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections
from django.urls import reverse

from tests.factories import make_started_game, move_fields, seat_to_move, seats_of
from tests.live_servers import open_game_socket, post_form, server_url, session_of, start_daphne

pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                                 reason="needs REDIS_URL: two server processes share events through Redis")]


@pytest.fixture
def two_servers(transactional_db, django_db_blocker):
    """Two daphne processes on 127.0.0.1 serving the test database; yields their URLs."""
    with django_db_blocker.unblock():
        connections.close_all()
        processes = [start_daphne(), start_daphne()]
    yield [server_url(process) for process in processes]
    for process in processes:
        process.terminate()
        process.join(10)


def in_thread(function, *args):
    """Run ``function`` in a fresh thread (no event loop there; Playwright's may run in this one)
    and close that thread's database connections after."""
    def run():
        try:
            return function(*args)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def test_an_event_crosses_from_one_server_process_to_the_other(two_servers):
    first, second = two_servers
    game = in_thread(lambda: make_started_game(players=2, seed="two-servers"))
    mover = seat_to_move(game)
    watcher = next(seat for seat in seats_of(game) if seat.pk != mover.pk)
    sessions = in_thread(lambda: (session_of(mover.user), session_of(watcher.user)))

    async def scenario():
        socket = await open_game_socket(first, game.pk, sessions[1])
        try:
            loop = asyncio.get_running_loop()
            status = await loop.run_in_executor(None, post_form, second + reverse("game_move", args=[game.pk]),
                                                move_fields({"type": "draw_stock"}, game.version), sessions[0])
            message = json.loads(await asyncio.wait_for(socket.recv(), timeout=10))
        finally:
            await socket.close()
        return status, message

    status, message = in_thread(asyncio.run, scenario())
    assert status == 302
    assert message == {"type": "game.changed", "game": game.pk, "version": game.version + 1}
