"""Websocket consumers: a game page joins the game's group and gets "changed" events; every page of a
signed-in user joins the user's group (badge count, "your turn" notices) and records presence.

They never decide rules and never send cards: a page re-fetches its own board over HTTP. Every
socket of a signed-in user also joins its session's and its user's lifetime groups, which close it
on logout and suspension (``games.socket_lifetime``).
"""
from __future__ import annotations

from channels.db import database_sync_to_async
from django.utils import timezone

from notices.models import Connection
from notices.services import waiting_count

from .models import Game, Seat
from .notify import GAMES_WAITING, game_group, user_group
from .services import can_watch
from .socket_lifetime import account_group, session_group
from .sockets import JsonObjectConsumer

FORBIDDEN = 4403
"""Close code for a socket that may not (or no longer) be open; the pages stop reconnecting."""


class LifetimeGroups:
    """Consumer mixin: the groups that end a signed-in user's socket, joined after connect and
    left on disconnect; their ``sockets.close`` event closes the socket with 4403."""

    lifetime_groups: tuple[str, ...] = ()

    async def join_lifetime_groups(self, user_id: int) -> None:
        self.lifetime_groups = (account_group(user_id), session_group(self.scope["session"].session_key))
        for group in self.lifetime_groups:
            await self.channel_layer.group_add(group, self.channel_name)

    async def leave_lifetime_groups(self) -> None:
        for group in self.lifetime_groups:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def sockets_close(self, event):
        """Close the socket: its session logged out or its user was suspended (4403), or its
        session is to be checked again (the event's ``code``, ``socket_lifetime.CHECK_AGAIN``)."""
        await self.close(code=event.get("code", FORBIDDEN))


class GameConsumer(LifetimeGroups, JsonObjectConsumer):
    """``ws/games/<id>/``: for seated players and, at public tables, signed-in spectators.

    Sends ``{"type": "game.changed", "game": id, "version": n}`` for every accepted change.
    Refuses anonymous users and outsiders of private tables: the handshake completes and the socket
    is closed at once with code 4403, which the page takes as "stop reconnecting". At a private
    table a socket whose user no longer holds a seat (left, removed, suspended) is closed with
    4403 at the next change instead of being told of it.
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
        await self.join_lifetime_groups(self.user_id)
        await self.accept()
        # The version now: a page that reconnects compares it with its own and re-fetches if behind.
        await self.send_json({"type": "game.changed", "game": self.game_id, "version": self.version})

    @database_sync_to_async
    def _may_watch(self) -> bool:
        user = self.scope.get("user")
        game = Game.objects.filter(pk=self.game_id).first()
        self.version = game.version if game else 0
        self.user_id = user.pk if user else None
        self.seated_only = bool(game and game.is_private)
        return bool(user and game and can_watch(user, game, list(game.seats.all())))

    @database_sync_to_async
    def _still_seated(self) -> bool:
        return Seat.objects.filter(game_id=self.game_id, user_id=self.user_id).exists()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(game_group(self.game_id), self.channel_name)
        await self.leave_lifetime_groups()

    async def game_changed(self, event):
        """Forward a ``game.changed`` group event to the browser (at a private table, only while
        the user still holds a seat there)."""
        if self.seated_only and not await self._still_seated():
            await self.close(code=FORBIDDEN)
            return
        await self.send_json({"type": event["type"], "game": event["game"], "version": event["version"]})


class UserConsumer(LifetimeGroups, JsonObjectConsumer):
    """``ws/user/``: opened by every page of a signed-in user. Forwards ``games.waiting`` events
    (badge count, "your turn" notice) and records the connection as a ``Connection`` row, so the
    worker knows the user is on the site (durable presence shared by all server processes); the
    row goes when the socket closes, and the user's rows of sockets that died without closing
    go at its next ping.

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
        await self.join_lifetime_groups(self.user_id)
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
            await self.leave_lifetime_groups()
            await database_sync_to_async(Connection.objects.filter(channel_name=self.channel_name).delete)()

    async def _send_count(self):
        count = await database_sync_to_async(self._seen_and_count)()
        await self.send_json({"type": GAMES_WAITING, "count": count, "game": None, "name": "", "url": ""})

    def _seen_and_count(self) -> int:
        now = timezone.now()
        Connection.objects.update_or_create(channel_name=self.channel_name,
                                            defaults={"user_id": self.user_id, "last_seen": now})
        # Rows of sockets that died without closing (their server crashed).
        Connection.objects.stale(now).filter(user_id=self.user_id).delete()
        return waiting_count(self.user_id)

    async def games_waiting(self, event):
        """Forward a ``games.waiting`` group event to the browser."""
        await self.send_json({key: event[key] for key in ("type", "count", "game", "name", "url")})
