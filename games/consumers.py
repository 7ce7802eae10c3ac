"""Websocket consumer: authenticate at connect, join the game's group, forward "changed" events.

It never decides rules and never sends cards: the page re-fetches its own board over HTTP.
"""
from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from .models import Game
from .notify import game_group
from .services import can_watch

FORBIDDEN = 4403


class GameConsumer(AsyncJsonWebsocketConsumer):
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

    @database_sync_to_async
    def _may_watch(self) -> bool:
        user = self.scope.get("user")
        game = Game.objects.filter(pk=self.game_id).first()
        return bool(user and game and can_watch(user, game, list(game.seats.all())))

    async def disconnect(self, code):
        await self.channel_layer.group_discard(game_group(self.game_id), self.channel_name)

    async def game_changed(self, event):
        """Forward a ``game.changed`` group event to the browser."""
        await self.send_json({"type": event["type"], "game": event["game"], "version": event["version"]})
