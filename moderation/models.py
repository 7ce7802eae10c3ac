"""Moderation rows: the audit trail, players' reports and account suspensions.

Written only by ``moderation.services``. The tables keep the names they had in the games and
accounts apps (``db_table``; moved by migration 0001 without touching a row).
"""
from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game


class AuditEntryQuerySet(models.QuerySet):
    """Audit rows are written once and never changed: bulk updates and deletes are refused."""

    def update(self, **kwargs):
        raise PermissionError("Audit entries are never changed.")

    def delete(self):
        raise PermissionError("Audit entries are never deleted.")


class AuditEntry(models.Model):
    """One moderator action or hidden-state inspection (also a player leaving a game): who, what,
    when and why. Append-only: ``save`` refuses an existing row and ``delete`` always refuses.

    ``details`` holds what the action needs to be understood later, e.g. ``{"position": 1}``.
    Written only by ``moderation.services``.
    """

    class Action(models.TextChoices):
        ABORT_GAME = "abort_game", "Abort game"
        VOID_GAME = "void_game", "Void game"
        REPLACE_SEAT = "replace_seat", "Replace seat with a computer player"
        REMOVE_PLAYER = "remove_player", "Remove player"
        LEAVE_GAME = "leave_game", "Player left the game"
        SUSPEND_USER = "suspend_user", "Suspend user"
        UNSUSPEND_USER = "unsuspend_user", "Lift suspension"
        RESEND_TURN = "resend_turn", "Re-send turn notification"
        INSPECT_HIDDEN = "inspect_hidden", "Inspect hidden state"
        RESOLVE_REPORT = "resolve_report", "Resolve report"
        DISMISS_REPORT = "dismiss_report", "Dismiss report"

    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=20, choices=Action.choices)
    reason = models.TextField()
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.PROTECT, related_name="audit_entries")
    target_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+")
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = AuditEntryQuerySet.as_manager()

    class Meta:
        db_table = "games_auditentry"
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "audit entries"
        permissions = [
            ("moderate_game", "Can abort or void games, hand seats to computers and re-send turn notifications"),
            ("inspect_hidden_state", "Can inspect the hidden state of a game (hands, stock order)"),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor}: {self.get_action_display()}"

    def save(self, *args, **kwargs):
        """Insert the row; raises PermissionError for a row that already exists (never editable)."""
        if not self._state.adding:
            raise PermissionError("Audit entries are never changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        """Always raises PermissionError: the audit trail keeps every row."""
        raise PermissionError("Audit entries are never deleted.")


class Report(models.Model):
    """A player's report of another player or of a game, queued for moderators.

    ``reported_user`` empty means the game itself is reported. ``note`` is the moderator's reason
    when resolving or dismissing it.
    """

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        RESOLVED = "resolved", "Resolved"
        DISMISSED = "dismissed", "Dismissed"

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reports_made")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="reports")
    reported_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                      related_name="reports_received")
    reason = models.TextField(max_length=1000)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    handled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    handled_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        db_table = "games_report"
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "created_at"])]

    def __str__(self) -> str:
        about = self.reported_user or self.game
        return f"Report #{self.pk} about {about}"


class Suspension(models.Model):
    """A moderator's suspension of a user: while it is in force (``lifted_at`` empty) the user is
    inactive, so they cannot log in and their sessions no longer authenticate.

    Written only by ``moderation.services.suspend_user`` / ``unsuspend_user``, which also write the audit rows.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="suspensions")
    reason = models.TextField()
    suspended_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="+")
    lift_reason = models.TextField(blank=True)

    class Meta:
        db_table = "accounts_suspension"
        ordering = ["-created_at", "-id"]
        permissions = [("suspend_user", "Can suspend users and lift suspensions")]
        constraints = [models.UniqueConstraint(fields=["user"], condition=models.Q(lifted_at=None),
                                               name="suspension_one_in_force_per_user")]

    def __str__(self) -> str:
        return f"{self.user} suspended {self.created_at:%Y-%m-%d}"
