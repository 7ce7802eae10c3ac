"""Helpers for websocket tests: a signed-in session cookie and a WebsocketCommunicator connected to
the project's real ASGI application (origin check, session auth, URL routing, consumer)."""
from __future__ import annotations

import asyncio
import contextlib

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from rummy_site.asgi import application
from tests.factories import login

HOST = b"testserver"
"""A host in settings.ALLOWED_HOSTS, which AllowedHostsOriginValidator checks the Origin against."""
SILENCE = 0.2
"""Seconds to wait when asserting that no message arrives."""
_opened: list[WebsocketCommunicator] = []


def communicator(path: str, headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    """A WebsocketCommunicator on ``path`` of the project's application, stopped after the test by
    ``stop_open_sockets`` if the test leaves it running."""
    socket = WebsocketCommunicator(application, path, headers=headers)
    _opened.append(socket)
    return socket


async def stop_open_sockets() -> None:
    """Cancel the consumers the test left running, one by one, as a server cancels those of its
    connections. Left to the end of the test's event loop, they would be cancelled together with
    the loop's other tasks, channels-redis's receive among them, which can then keep waiting on
    Redis and never let the loop close."""
    while _opened:
        socket = _opened.pop()
        if not socket.future.done():
            socket.future.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await socket.future


@sync_to_async
def session_cookie(user) -> str:
    """The ``sessionid`` cookie value of a fresh login of ``user`` (a real database session)."""
    return login(user).cookies["sessionid"].value


async def open_socket(game_id: int, cookie: str | None, *, origin: bytes = b"http://testserver",
                      expect: bool = True) -> WebsocketCommunicator:
    """Connect to ``/ws/games/<game_id>/`` with ``cookie`` as the session (None: anonymous).

    With ``expect`` the connection must be accepted and stay open, and its first message (the
    game's version at connect, which a reconnecting page compares with its own) is read and kept
    as ``socket.greeting``. Otherwise the communicator is
    returned with ``refusal`` set to ``(False, close code)``: the handshake was refused (e.g. a
    foreign origin), or the consumer closed the socket straight after it (4403, not allowed).
    """
    headers = [(b"origin", origin), (b"host", HOST)]
    if cookie is not None:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    socket = communicator(f"/ws/games/{game_id}/", headers)
    answer = await socket.connect(timeout=5)
    if expect:
        assert answer == (True, None), f"connection refused: {answer}"
        socket.greeting = await socket.receive_json_from(timeout=5)
        assert socket.greeting["type"] == "game.changed" and socket.greeting["game"] == game_id
    elif answer[0] is False:
        socket.refusal = answer
    else:
        closing = await socket.receive_output(timeout=5)
        assert closing["type"] == "websocket.close", f"connection kept open: {closing}"
        socket.refusal = (False, closing.get("code"))
    return socket


async def closed_as_forbidden(socket) -> bool:
    """True when the server closed ``socket`` with 4403 (its next output is that close)."""
    return await socket.receive_output(timeout=3) == {"type": "websocket.close", "code": 4403}
