"""Websocket consumers: a game page joins the game's group and gets "changed" events; every page of a
signed-in user joins the user's group (badge count, "your turn" notices) and records presence.

They never decide rules and never send cards: a page re-fetches its own board over HTTP.
"""
from __future__ import annotations

from datetime import timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from .models import Connection, Game
from .notices import waiting_count
from .notify import GAMES_WAITING, game_group, user_group
from .services import can_watch
from .sockets import JsonObjectConsumer

FORBIDDEN = 4403
STALE_CONNECTION_FACTOR = 10
"""A Connection row not refreshed for this many presence windows is deleted."""


class GameConsumer(JsonObjectConsumer):
    """``ws/games/<id>/``: for seated players and, at public tables, signed-in spectators.

    Sends ``{"type": "game.changed", "game": id, "version": n}`` for every accepted change.
    Refuses anonymous users and outsiders of private tables: the handshake completes and the socket
    is closed at once with code 4403, which the page takes as "stop reconnecting".
    """

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        if not await self._may_watch():
            # Accept first: a close before the handshake reaches the browser as 1006, and the
            # page could not tell "forbidden" (stop retrying) from a dropped connection.
            await self.accept()
            await self.close(code=FORBIDDEN)
            return
        await self.channel_layer.group_add(game_group(self.game_id), self.channel_name)
        await self.accept()
        # The version now: a page that reconnects compares it with its own and re-fetches if behind.
        await self.send_json({"type": "game.changed", "game": self.game_id, "version": self.version})

    @database_sync_to_async
    def _may_watch(self) -> bool:
        user = self.scope.get("user")
        game = Game.objects.filter(pk=self.game_id).first()
        self.version = game.version if game else 0
        return bool(user and game and can_watch(user, game, list(game.seats.all())))

    async def disconnect(self, code):
        await self.channel_layer.group_discard(game_group(self.game_id), self.channel_name)

    async def game_changed(self, event):
        """Forward a ``game.changed`` group event to the browser."""
        await self.send_json({"type": event["type"], "game": event["game"], "version": event["version"]})


class UserConsumer(JsonObjectConsumer):
    """``ws/user/``: opened by every page of a signed-in user. Forwards ``games.waiting`` events
    (badge count, "your turn" notice) and records the connection as a ``Connection`` row, so the
    worker knows the user is on the site (durable presence shared by all server processes).

    On connect, and when the page sends ``{"type": "sync"}`` (tab visible again) or
    ``{"type": "ping"}`` (every 30 s; refreshes presence), it answers with the current count.
    Anonymous users are refused with close code 4403 after the handshake.
    """

    async def connect(self):
        user = self.scope.get("user")
        if not (user and user.is_authenticated):
            await self.accept()
            await self.close(code=FORBIDDEN)
            self.user_id = None
            return
        self.user_id = user.pk
        await self.channel_layer.group_add(user_group(self.user_id), self.channel_name)
        await self.accept()
        await self._send_count()

    async def receive_json(self, content, **kwargs):
        """Answer ``{"type": "ping"}`` and ``{"type": "sync"}`` with the games-waiting count;
        anything else is ignored."""
        if self.user_id is not None and content.get("type") in ("ping", "sync"):
            await self._send_count()

    async def disconnect(self, code):
        if self.user_id is not None:
            await self.channel_layer.group_discard(user_group(self.user_id), self.channel_name)
            await database_sync_to_async(Connection.objects.filter(channel_name=self.channel_name).delete)()

    async def _send_count(self):
        count = await database_sync_to_async(self._seen_and_count)()
        await self.send_json({"type": GAMES_WAITING, "count": count, "game": None, "name": "", "url": ""})

    def _seen_and_count(self) -> int:
        now = timezone.now()
        Connection.objects.update_or_create(channel_name=self.channel_name,
                                            defaults={"user_id": self.user_id, "last_seen": now})
        # Rows left behind by a server that died with the user's sockets open.
        stale = now - timedelta(seconds=STALE_CONNECTION_FACTOR * settings.RUMMY_PRESENCE_SECONDS)
        Connection.objects.filter(user_id=self.user_id, last_seen__lt=stale).delete()
        return waiting_count(self.user_id)

    async def games_waiting(self, event):
        """Forward a ``games.waiting`` group event to the browser."""
        await self.send_json({key: event[key] for key in ("type", "count", "game", "name", "url")})
