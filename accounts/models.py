"""The project's user model and account suspensions."""
from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A site user. Custom from the first migration so fields can be added later without pain."""


class Suspension(models.Model):
    """A moderator's suspension of a user: while it is in force (``lifted_at`` empty) the user is
    inactive, so they cannot log in and their sessions no longer authenticate.

    Written only by ``games.moderation.suspend_user`` / ``unsuspend_user``, which also write the audit rows.
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
        ordering = ["-created_at", "-id"]
        permissions = [("suspend_user", "Can suspend users and lift suspensions")]
        constraints = [models.UniqueConstraint(fields=["user"], condition=models.Q(lifted_at=None),
                                               name="suspension_one_in_force_per_user")]

    def __str__(self) -> str:
        return f"{self.user} suspended {self.created_at:%Y-%m-%d}"
