"""What the site's websocket consumers share: the frames they read, and what they do when the
channel layer (Redis) cannot be reached.

- Frames: the sockets take small JSON objects only (``{"type": "ping"}``), so every other frame is
  dropped here, before any consumer code sees it, and the socket stays open.
- Channel layer unreachable (at connect, or while the socket waits for events): the socket is
  closed with 1013 ("try again later") instead of crashing with a traceback; the page reconnects
  with back-off and compares versions meanwhile. The outage is logged once, with the events'
  (``games.notify.channel_layer_outage``).
"""
from __future__ import annotations

import json

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .notify import channel_layer_outage

MAX_FRAME_CHARACTERS = 4096
"""A text frame longer than this is dropped unread (the site's own frames are under 30 characters)."""
TRY_AGAIN_LATER = 1013
LAYER_UNREACHABLE = (RedisConnectionError, RedisTimeoutError)


def read_frame(text_data: str | None) -> dict | None:
    """The JSON object in a text frame, or None for anything else: a binary frame (None here), a
    frame over ``MAX_FRAME_CHARACTERS``, text that is not JSON or nests too deep to parse, or
    JSON that is not an object."""
    if not text_data or len(text_data) > MAX_FRAME_CHARACTERS:
        return None
    try:
        content = json.loads(text_data)
    except (ValueError, RecursionError):
        return None
    return content if isinstance(content, dict) else None


class JsonObjectConsumer(AsyncJsonWebsocketConsumer):
    """An ``AsyncJsonWebsocketConsumer`` whose ``receive_json`` gets JSON objects only (any other
    frame is ignored), and which closes with ``TRY_AGAIN_LATER`` when the channel layer cannot be
    reached (module docstring)."""

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        except LAYER_UNREACHABLE as error:
            channel_layer_outage.failed(error)
            await send({"type": "websocket.close", "code": TRY_AGAIN_LATER})

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        content = read_frame(text_data)
        if content is not None:
            await self.receive_json(content, **kwargs)
