"""Live daphne servers for tests and benchmarks: the project's real ASGI application forked into a
process that listens on 127.0.0.1 and a free port, sharing the parent's database (and, with
REDIS_URL, its channel layer). Used by the browser tests (tests/e2e/conftest.py), the two-server
test and the event-latency benchmark."""
from __future__ import annotations

import functools
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from daphne.testing import DaphneProcess

SERVER_HOST = "127.0.0.1"
SERVER_START_TIMEOUT_SECONDS = 30


def server_application(log_path: Path | None = None):
    """Build the ASGI application inside the forked server process; with ``log_path``, every
    record of level WARNING and above that the server logs is also written to that file.

    A fork copies the test process's memory but none of its threads, so asgiref's shared
    single-thread executor (used by channels' database_sync_to_async outside a request) would wait
    forever on a worker thread that no longer exists, and cached channel layers would hold queues
    bound to the test process's event loops: both are replaced with fresh ones here.

    Every browser in the suite comes from 127.0.0.1, so allauth's per-IP rate limits would couple
    unrelated tests; they are switched off in the server process only (tests/accounts covers them).
    A browser test that plays a whole hand makes more moves a minute than a person can, so the
    per-user move limit is lifted there too (tests/games/test_move_errors.py covers it).
    """
    from asgiref.sync import SyncToAsync
    from channels.layers import channel_layers
    from channels.routing import get_default_application
    from django.conf import settings
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    if log_path is not None:
        handler = logging.FileHandler(log_path)
        handler.setLevel(logging.WARNING)
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        logging.getLogger().addHandler(handler)
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    channel_layers.backends.clear()
    if SERVER_HOST not in settings.ALLOWED_HOSTS:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, SERVER_HOST]
    settings.ACCOUNT_RATE_LIMITS = False
    settings.RUMMY_MOVE_RATE = "100000/m"
    return ASGIStaticFilesHandler(get_default_application())


def close_before_fork() -> None:
    """Close this process's database connections and connection pools before forking a server or
    a worker: a pool's open connections and threads must not be copied into the child (parent and
    child would talk over the same sockets); each process opens its own pool on first use."""
    from django.db import connections

    connections.close_all()
    for connection in connections.all(initialized_only=True):
        if getattr(connection, "pool", None) is not None:
            connection.close_pool()


def start_daphne(log_path: Path | None = None) -> DaphneProcess:
    """Fork a daphne process serving ``server_application`` (logging warnings and errors to
    ``log_path`` too, when given) on 127.0.0.1 and wait until it listens.
    Closes the parent's database connections and pools first (the child must not share them).
    Raises RuntimeError (with the child's error) when it does not start within 30 s."""
    close_before_fork()
    process = DaphneProcess(host=SERVER_HOST, get_application=functools.partial(server_application, log_path))
    process.start()
    deadline = time.monotonic() + SERVER_START_TIMEOUT_SECONDS
    while not process.ready.wait(0.2):
        if not process.is_alive() or time.monotonic() > deadline:
            process.terminate()
            detail = "" if process.errors.empty() else process.errors.get(timeout=1)[1]
            raise RuntimeError(f"the live daphne server did not start\n{detail}")
    return process


def server_url(process: DaphneProcess) -> str:
    """``http://127.0.0.1:<port>`` of a started server."""
    return f"http://{SERVER_HOST}:{process.port.value}"


CSRF_SECRET = "livecsrfsecretlivecsrfsecret0123"
"""A 32-character CSRF secret the live clients send as cookie and header (Django accepts the
unmasked secret as the token)."""


def session_of(user) -> str:
    """A ``sessionid`` for ``user`` (a real database session, valid on every server)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def post_form(url: str, fields: dict, session: str) -> int:
    """POST ``fields`` (form-encoded) to ``url`` as the session's user, with a CSRF token; return
    the status (redirects are not followed)."""
    import urllib.error
    import urllib.parse
    import urllib.request

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    request = urllib.request.Request(url, data=urllib.parse.urlencode(fields, doseq=True).encode(), headers={
        "Cookie": f"sessionid={session}; csrftoken={CSRF_SECRET}", "X-CSRFToken": CSRF_SECRET,
        "Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.build_opener(NoRedirect).open(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


async def open_game_socket(base_url: str, game_id: int, session: str):
    """Connect a websocket client to ``/ws/games/<id>/`` of the server at ``base_url`` as the
    session's user; returns the connection after reading its greeting (the version message)."""
    import websockets

    socket = await websockets.connect(base_url.replace("http://", "ws://") + f"/ws/games/{game_id}/",
                                      origin=base_url, additional_headers={"Cookie": f"sessionid={session}"})
    await socket.recv()
    return socket
