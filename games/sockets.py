"""What the site's websocket consumers share: the frames they read, and what they do when the
channel layer (Redis) cannot be reached.

- Frames: the sockets take small JSON objects only (``{"type": "ping"}``), so every other frame is
  dropped here, before any consumer code sees it, and the socket stays open.
- Channel layer unreachable (at connect, or while the socket waits for events), or the database
  (``OperationalError``, ``InterfaceError``: gone, timed out): the socket is closed with 1013
  ("try again later") instead of crashing with a traceback; the page reconnects with back-off and
  compares versions meanwhile. A channel layer outage is logged once, with the events'
  (``games.notify.channel_layer_outage``); a database failure is one warning line, as for a
  request (``rummy_site.middleware``).
- A socket the client closed while a reply was on its way (a page closed while a ``sync`` was
  answered): the server's "Attempt to send on a closed protocol" is dropped, without an ERROR and
  its traceback in the log; the queued disconnect ends the consumer as usual.
"""
from __future__ import annotations

import json
import logging

from autobahn.exception import Disconnected as ClientGone
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import InterfaceError, OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from rummy_site.outages import summary

from .notify import channel_layer_outage

logger = logging.getLogger(__name__)

MAX_FRAME_CHARACTERS = 4096
"""A text frame longer than this is dropped unread (the site's own frames are under 30 characters)."""
TRY_AGAIN_LATER = 1013
LAYER_UNREACHABLE = (RedisConnectionError, RedisTimeoutError)
DATABASE_UNAVAILABLE = (OperationalError, InterfaceError)


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
    frame is ignored), and which closes with ``TRY_AGAIN_LATER`` when the channel layer or the
    database cannot be reached (module docstring)."""

    async def __call__(self, scope, receive, send):
        async def send_while_open(message):
            try:
                await send(message)
            except ClientGone:
                pass  # the client closed the socket meanwhile: its disconnect, queued, ends the consumer

        try:
            await super().__call__(scope, receive, send_while_open)
        except LAYER_UNREACHABLE as error:
            channel_layer_outage.failed(error)
        except DATABASE_UNAVAILABLE as error:
            logger.warning("Database unavailable for socket %s: %s", scope["path"], summary(error))
        else:
            return
        await send({"type": "websocket.close", "code": TRY_AGAIN_LATER})

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        content = read_frame(text_data)
        if content is not None:
            await self.receive_json(content, **kwargs)
