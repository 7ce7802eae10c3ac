"""Websocket URL routes. A path that matches none of them has its handshake refused (HTTP 403),
rather than the router raising "No route found" (an HTTP 500 and a traceback)."""
from django.urls import path, re_path

from rummy_site import converters  # noqa: F401 (registers <id:...>)

from .consumers import GameConsumer, UserConsumer


async def refuse_unknown_path(scope, receive, send):
    """ASGI application for a socket path the site does not serve: closes before accepting."""
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.close"})


websocket_urlpatterns = [
    path("ws/games/<id:game_id>/", GameConsumer.as_asgi()),
    path("ws/user/", UserConsumer.as_asgi()),
    re_path(r"", refuse_unknown_path),
]
