"""Faults (issue 14): Redis unreachable, PostgreSQL gone or hung.

- Redis on a port where nothing listens: moves, log-ins and table actions commit and answer as
  usual, rate limits fail open, events are dropped and logged once, ``/healthz`` reports
  ``channel_layer: false``.
- PostgreSQL that accepts connections and never answers (a socket in this test), for a real daphne
  and a real ``manage.py db_worker`` in subprocesses: pages answer the 503 page within the connect
  timeout, ``/healthz`` answers 503 within 2 s, and both processes stop on SIGTERM within 10 s.
"""
from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import closing, contextmanager, suppress
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import OperationalError, connections
from django.urls import reverse

from games import notify, services
from games.models import Game, Move, Seat
from games.sockets import TRY_AGAIN_LATER
from rummy_site.asgi import application
from rummy_site.cache import FailOpenRedisCache
from tests.factories import PASSWORD, login, make_started_game, make_table, make_user, post_move, seat_to_move
from tests.games.conftest import close_thread_connections  # noqa: F401 (fixture)
from tests.games.sockets import HOST, session_cookie

ROOT = Path(__file__).resolve().parent.parent
CONNECT_TIMEOUT_SECONDS = 2
POOL_TIMEOUT_SECONDS = 3
"""With the pool, a request waits for a connection up to the pool's timeout (DATABASE_POOL_TIMEOUT),
while the pool's own connection attempts each give up after the connect timeout."""
"""``DATABASE_CONNECT_TIMEOUT`` of the subprocesses (libpq's least)."""
HEALTH_ANSWER_SECONDS = 2
STOP_SECONDS = 10
SIGNED_IN = {"Cookie": "sessionid=abcdefgh12345678abcdefgh"}
"""A session cookie: the page must read the session, so the database (an anonymous lobby does not)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with closing(socket.socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def silent_server():
    """A TCP server on 127.0.0.1 that accepts every connection and never sends a byte: a
    PostgreSQL or Redis that hangs. Yields its port; closes every connection on exit."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept():
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join(timeout=2)
        for connection in [*held, server]:
            connection.close()


# Redis unreachable -------------------------------------------------------------------------------


def redis_caches(settings, url: str) -> None:
    """Point both of the site's Redis caches (``default``, and ``sessions`` under Django's
    ``cached_db`` sessions, as in production) at ``url``, with production's timeouts."""
    options = {"socket_connect_timeout": 1, "socket_timeout": 1}
    settings.CACHES = {
        "default": {"BACKEND": "rummy_site.cache.FailOpenRedisCache", "LOCATION": url, "OPTIONS": options},
        "sessions": {"BACKEND": "rummy_site.cache.SessionCache", "LOCATION": url, "OPTIONS": options,
                     "TIMEOUT": settings.SESSION_CACHE_SECONDS},
    }
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    settings.SESSION_CACHE_ALIAS = "sessions"


@pytest.fixture
def redis_down(settings):
    """Point the caches (sessions included) and the channel layer at a Redis port where nothing
    listens; each outage log starts (and ends) as "up"."""
    url = f"redis://127.0.0.1:{free_port()}/0"
    redis_caches(settings, url)
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                           "CONFIG": {"hosts": [url]}}}
    outages = [notify.channel_layer_outage, FailOpenRedisCache.outage]
    for outage in outages:
        outage.down = False
    yield url
    for outage in outages:
        outage.down = False


def outage_warnings(caplog) -> dict[str, int]:
    counted: dict[str, int] = {}
    for record in caplog.records:
        if record.levelno == logging.WARNING and "unreachable" in record.getMessage():
            counted[record.name] = counted.get(record.name, 0) + 1
    return counted


@pytest.mark.django_db(transaction=True)
def test_with_redis_down_table_actions_and_moves_commit_and_answer_as_usual(redis_down, caplog):
    caplog.set_level(logging.WARNING)
    creator, guest = make_user("ana"), make_user("ben")
    table, with_computer = make_table(creator), make_table(creator, players=3)
    as_creator = login(creator)

    answers = [login(guest).post(reverse("game_join", args=[table.pk])),
               as_creator.post(reverse("game_start", args=[table.pk])),
               as_creator.post(reverse("game_add_computer", args=[with_computer.pk]), {"level": "easy"})]
    game = Game.objects.get(pk=table.pk)
    mover = seat_to_move(game)
    moved = post_move(login(mover.user), game, {"type": "draw_stock"}, version=game.version, htmx=True)

    assert [answer.status_code for answer in answers] == [302, 302, 302]
    assert moved.status_code == 200
    assert game.status == Game.Status.ACTIVE and Move.objects.filter(game=game, seat=mover).exists()
    assert with_computer.seats.filter(bot_level="easy").count() == 1
    assert outage_warnings(caplog) == {"games.notify": 1, "rummy_site.cache": 1}
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


@pytest.mark.django_db(transaction=True)
def test_with_redis_down_leaving_and_closing_tables_commit_and_answer_as_usual(redis_down):
    creator, guest = make_user("ana"), make_user("ben")
    left, closed = make_table(creator, players=3), make_table(creator)
    services.join_table(guest, left.pk)
    seat = left.seats.get(user=guest)

    leaving = login(guest).post(reverse("game_free_seat", args=[left.pk, seat.position]))
    closing_answer = login(creator).post(reverse("game_close", args=[closed.pk]))

    assert (leaving.status_code, closing_answer.status_code) == (302, 302)
    assert not left.seats.filter(user=guest).exists()
    assert Game.objects.get(pk=closed.pk).status == Game.Status.ABORTED


@pytest.mark.django_db
def test_with_redis_down_log_ins_pass_and_rate_limits_fail_open(redis_down, client):
    make_user("ana")

    answers = [client.post(reverse("account_login"), {"login": "ana", "password": "wrong"}) for _ in range(12)]
    logged_in = client.post(reverse("account_login"), {"login": "ana", "password": PASSWORD})

    assert {answer.status_code for answer in answers} == {200}
    assert logged_in.status_code == 302
    assert client.get(reverse("my_games")).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_with_redis_down_events_are_dropped_and_logged_once(redis_down, caplog):
    game = make_started_game(players=2, seed="redis-down")
    client = login(seat_to_move(game).user)
    caplog.set_level(logging.WARNING)

    for _ in range(5):
        client.get(reverse("game_board", args=[game.pk]))
        notify.game_changed(game.pk, game.version)

    assert outage_warnings(caplog) == {"games.notify": 1, "rummy_site.cache": 1}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections")
async def test_with_redis_down_sockets_are_refused_and_the_outage_logged_once(redis_down, caplog):
    caplog.set_level(logging.WARNING)
    game = await sync_to_async(make_started_game)(players=2, seed="redis-down-sockets")
    seat = await Seat.objects.filter(game=game, user__isnull=False).select_related("user").afirst()
    headers = [(b"origin", b"http://testserver"), (b"host", HOST),
               (b"cookie", f"sessionid={await session_cookie(seat.user)}".encode())]

    answers = []
    for path in [f"/ws/games/{game.pk}/", "/ws/user/"] * 3:
        socket = WebsocketCommunicator(application, path, headers=headers)
        answers.append(await socket.connect(timeout=5))

    assert answers == [(False, TRY_AGAIN_LATER)] * 6
    assert outage_warnings(caplog) == {"games.notify": 1, "rummy_site.cache": 1}
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


@pytest.mark.django_db
def test_with_redis_silent_a_move_waits_one_cache_timeout_at_most(settings, caplog):
    game = make_started_game(players=2, seed="redis-silent")
    mover = seat_to_move(game)
    client = login(mover.user)
    with silent_server() as port:
        redis_caches(settings, f"redis://127.0.0.1:{port}/0")
        FailOpenRedisCache.outage.down = False
        started = time.monotonic()
        moved = post_move(client, game, {"type": "draw_stock"}, version=game.version, htmx=True)
        seconds = time.monotonic() - started
    FailOpenRedisCache.outage.down = False

    assert moved.status_code == 200 and seconds < 2
    assert outage_warnings(caplog) == {"rummy_site.cache": 1}


@pytest.mark.django_db
def test_with_redis_down_the_health_check_reports_the_channel_layer(redis_down, client):
    started = time.monotonic()
    response = client.get("/healthz")

    assert time.monotonic() - started < HEALTH_ANSWER_SECONDS
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": True, "channel_layer": False}


# PostgreSQL gone or hung --------------------------------------------------------------------------


def hung_database_env(port: int) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in {"REDIS_URL", "PYTEST_XDIST_WORKER"}}
    env.update(DATABASE_URL=f"postgres://rummy@127.0.0.1:{port}/rummy",
               DATABASE_CONNECT_TIMEOUT=str(CONNECT_TIMEOUT_SECONDS), DATABASE_POOL_TIMEOUT=str(POOL_TIMEOUT_SECONDS),
               DJANGO_SETTINGS_MODULE="rummy_site.settings", PYTHONUNBUFFERED="1")
    return env


def wait_for_port(port: int, process: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, process.log.read_text()
        with closing(socket.socket()) as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"nothing listened on port {port} within {seconds} s")


def fetch(url: str, headers: dict | None = None) -> tuple[int, bytes, float]:
    """GET ``url`` (giving up after 10 s): status, body and seconds taken."""
    started = time.monotonic()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10) as response:
            status, body = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, body = error.code, error.read()
    return status, body, time.monotonic() - started


def fetch_until_dropped(url: str) -> None:
    """GET ``url`` as a signed-in page, expecting the server to stop meanwhile."""
    with suppress(OSError):
        fetch(url, SIGNED_IN)


def stop_within(process: subprocess.Popen, seconds: float) -> float:
    """SIGTERM ``process`` and return how long it took to exit (killed, and the test failed, past
    ``seconds``)."""
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        raise AssertionError(f"still running {seconds} s after SIGTERM") from None
    return time.monotonic() - started


@contextmanager
def subprocess_on_hung_database(tmp_path: Path, *arguments: str):
    """Run ``arguments`` with the database at a ``silent_server``; yields the process, whose
    output goes to ``process.log`` (a file). Killed on exit if still running."""
    with silent_server() as database_port, open(tmp_path / "output.log", "w+b") as log:
        process = subprocess.Popen(arguments, cwd=ROOT, env=hung_database_env(database_port),
                                   stdout=log, stderr=subprocess.STDOUT)
        process.log = Path(log.name)
        try:
            yield process
        finally:
            if process.poll() is None:
                process.kill()
            process.wait()


def test_daphne_on_a_hung_database_answers_503_pages_and_stops_on_sigterm(tmp_path):
    port = free_port()
    daphne = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "rummy_site.asgi:application"]
    with subprocess_on_hung_database(tmp_path, *daphne) as server:
        wait_for_port(port, server)
        base = f"http://127.0.0.1:{port}"

        health_status, health, health_seconds = fetch(f"{base}/healthz")
        page_status, page, page_seconds = fetch(f"{base}/games/mine", SIGNED_IN)
        log = server.log.read_text()
        # A request still waiting on the database when the signal comes (daphne drops it at exit).
        pending = threading.Thread(target=fetch_until_dropped, args=(f"{base}/games/mine",), daemon=True)
        pending.start()
        time.sleep(0.3)
        stop_seconds = stop_within(server, STOP_SECONDS)

    assert (health_status, health_seconds < HEALTH_ANSWER_SECONDS) == (503, True), health
    assert b'"database": false' in health
    assert page_status == 503 and page_seconds < POOL_TIMEOUT_SECONDS + 2
    assert b"Unavailable for a moment" in page
    assert "Traceback" not in log, log
    assert stop_seconds < STOP_SECONDS


def test_the_job_worker_on_a_hung_database_stops_on_sigterm(tmp_path):
    worker = [sys.executable, "manage.py", "db_worker", "--queue-name", "*", "--interval", "0.2", "--no-reload",
              "--no-startup-delay"]
    with subprocess_on_hung_database(tmp_path, *worker) as process:
        time.sleep(1.0)
        assert process.poll() is None, process.log.read_text()
        stop_seconds = stop_within(process, STOP_SECONDS)

    assert stop_seconds < STOP_SECONDS


# Timeouts and the 503 page in the process -------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.postgres
def test_the_statement_timeout_cancels_a_slow_statement(settings):
    params = {**connections["default"].settings_dict}
    params["OPTIONS"] = {**params["OPTIONS"], "options": "-c statement_timeout=100"}
    wrapper = type(connections["default"])(params, alias="statement_timeout_check")
    try:
        with pytest.raises(OperationalError, match="statement timeout"), wrapper.cursor() as cursor:
            cursor.execute("SELECT pg_sleep(2)")
    finally:
        wrapper.close()
        wrapper.close_pool()
    assert "statement_timeout=" in settings.DATABASES["default"]["OPTIONS"]["options"]
    assert settings.DATABASES["default"]["OPTIONS"]["connect_timeout"] > 0


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [False, True])
def test_a_view_that_loses_the_database_answers_the_503_page(monkeypatch, caplog, htmx):
    game = make_started_game(players=2, seed="db-gone")
    client = login(seat_to_move(game).user)

    def timed_out(*args, **kwargs):
        raise OperationalError("canceling statement due to statement timeout")

    monkeypatch.setattr(services, "access_board", timed_out)
    response = client.get(reverse("game_board", args=[game.pk]), headers={"HX-Request": "true"} if htmx else {})

    assert response.status_code == 503
    assert response["Retry-After"]
    assert b"Unavailable for a moment" in response.content
    assert response.content.lstrip().startswith(b"<!doctype") is not htmx
    assert [r.getMessage() for r in caplog.records if r.name == "rummy_site.middleware"] == [
        f"Database unavailable for GET /games/{game.pk}/board: OperationalError: canceling statement due to statement"
        " timeout"]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections")
async def test_a_socket_that_loses_the_database_closes_with_1013(monkeypatch, caplog):
    game = await sync_to_async(make_started_game)(players=2, seed="db-gone-socket")
    seat = await Seat.objects.filter(game=game, user__isnull=False).select_related("user").afirst()
    headers = [(b"origin", b"http://testserver"), (b"host", HOST),
               (b"cookie", f"sessionid={await session_cookie(seat.user)}".encode())]

    def timed_out(*args, **kwargs):
        raise OperationalError("connection timeout expired")

    monkeypatch.setattr("games.consumers.can_watch", timed_out)
    socket = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)

    assert await socket.connect(timeout=5) == (False, TRY_AGAIN_LATER)
    assert [r.getMessage() for r in caplog.records if r.name == "games.sockets"] == [
        f"Database unavailable for socket /ws/games/{game.pk}/: OperationalError: connection timeout expired"]
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
