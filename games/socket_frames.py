"""Reading what a browser sends on a websocket: the site's sockets take small JSON objects only
(``{"type": "ping"}``), so every other frame is dropped here, before any consumer code sees it."""
from __future__ import annotations

import json

from channels.generic.websocket import AsyncJsonWebsocketConsumer

MAX_FRAME_CHARACTERS = 4096
"""A text frame longer than this is dropped unread (the site's own frames are under 30 characters)."""


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
    """An ``AsyncJsonWebsocketConsumer`` whose ``receive_json`` gets JSON objects only; any other
    frame (``read_frame``) is ignored and the socket stays open."""

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        content = read_frame(text_data)
        if content is not None:
            await self.receive_json(content, **kwargs)
