"""Notice rows: each notice recorded once, and the open websockets that make a user present.

Written by ``notices.services`` (notifications) and the websocket consumer (connections). The
tables keep the names they had in the games app (``db_table``; moved by migration 0001 without
touching a row).
"""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.models import Game, Seat


class Notification(models.Model):
    """One notice sent to a user, recorded once: the unique constraints make a second badge event
    or e-mail of the same kind for the same game, seat and turn (or a second digest on the same day)
    impossible, however often a job runs.

    ``turn_number`` is ``Game.turn_number`` of the turn the notice is about; ``day`` is the user's
    local date of a digest.
    """

    class Kind(models.TextChoices):
        TURN_BADGE = "turn_badge", "Your turn (on the site)"
        TURN_EMAIL = "turn_email", "Your turn (e-mail)"
        WARNING_EMAIL = "warning_email", "Time running out (e-mail)"
        ABANDONED_EMAIL = "abandoned_email", "Game abandoned (e-mail)"
        DIGEST_EMAIL = "digest_email", "Daily digest (e-mail)"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="notifications")
    seat = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    turn_number = models.PositiveIntegerField(default=0)
    day = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_notification"
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "turn_number", "kind"], condition=Q(game__isnull=False),
                                    name="notification_once_per_turn"),
            models.UniqueConstraint(fields=["user", "day"], condition=Q(kind="digest_email"),
                                    name="notification_one_digest_a_day"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} to {self.user_id} ({self.game_id}, turn {self.turn_number})"


class ConnectionQuerySet(models.QuerySet):
    """Presence vocabulary: ``live(now)`` rows pinged within ``RUMMY_PRESENCE_SECONDS`` before
    ``now``, ``stale(now)`` the others (sockets that died without running their disconnect)."""

    def _since(self, now):
        return now - timedelta(seconds=settings.RUMMY_PRESENCE_SECONDS)

    def live(self, now):
        return self.filter(last_seen__gte=self._since(now))

    def stale(self, now):
        return self.filter(last_seen__lt=self._since(now))


class Connection(models.Model):
    """An open websocket of a signed-in user (any page of the site): durable presence shared by every
    server process, one row per socket (its channel name). A row counts only while ``live``: one
    whose socket died without closing (its server crashed) stops counting after
    ``RUMMY_PRESENCE_SECONDS`` and is deleted by its user's next ping."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="connections")
    channel_name = models.CharField(max_length=200, unique=True)
    last_seen = models.DateTimeField()

    objects = ConnectionQuerySet.as_manager()

    class Meta:
        db_table = "games_connection"
        indexes = [models.Index(fields=["user", "last_seen"])]

    def __str__(self) -> str:
        return f"{self.user_id} via {self.channel_name}"
