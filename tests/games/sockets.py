"""Helpers for websocket tests: a signed-in session cookie and a WebsocketCommunicator connected to
the project's real ASGI application (origin check, session auth, URL routing, consumer)."""
from __future__ import annotations

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from rummy_site.asgi import application
from tests.factories import login

HOST = b"testserver"
"""A host in settings.ALLOWED_HOSTS, which AllowedHostsOriginValidator checks the Origin against."""
SILENCE = 0.2
"""Seconds to wait when asserting that no message arrives."""


@sync_to_async
def session_cookie(user) -> str:
    """The ``sessionid`` cookie value of a fresh login of ``user`` (a real database session)."""
    return login(user).cookies["sessionid"].value


async def open_socket(game_id: int, cookie: str | None, *, origin: bytes = b"http://testserver",
                      expect: bool = True) -> WebsocketCommunicator:
    """Connect to ``/ws/games/<game_id>/`` with ``cookie`` as the session (None: anonymous).

    With ``expect`` the connection must be accepted; otherwise the communicator is returned with
    ``refusal`` set to what ``connect()`` answered, e.g. ``(False, 4403)``, and the test checks it.
    """
    headers = [(b"origin", origin), (b"host", HOST)]
    if cookie is not None:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    socket = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    answer = await socket.connect(timeout=5)
    if expect:
        assert answer == (True, None), f"connection refused: {answer}"
    else:
        assert answer[0] is False, "connection accepted"
        socket.refusal = answer
    return socket
