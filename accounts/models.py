"""The project's user model and how a user is found by name, and each user's play preferences and
declared absences."""
from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.contrib.auth.validators import ASCIIUsernameValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A site user. Custom from the first migration so fields can be added later without pain.

    A new user name is ASCII only, so that no name can look like another's (one with a Cyrillic
    letter that looks Latin); allauth checks sign-ups with this field's validators, after the
    adapter's NFKC normalisation. Names chosen before stay as they are and still log in."""

    username_validator = ASCIIUsernameValidator()
    username = models.CharField(
        _("username"),
        max_length=150,
        unique=True,
        help_text="Up to 150 characters: letters a-z and A-Z without accents, digits, and . _ - @ + only.",
        validators=[username_validator],
        error_messages={"unique": _("A user with that username already exists.")},
    )


def user_named(name: str) -> User | None:
    """The user called ``name``, found in any letter case ("ALICE" finds "alice"), or None.

    Sign-ups refuse a name taken in another case (allauth, ``ACCOUNT_PRESERVE_USERNAME_CASING``),
    but the column is unique only case-sensitively: users made otherwise (``createsuperuser``, the
    shell) may differ in case alone. An exact match wins then; a name that matches several users
    only in another case names none of them."""
    users = User.objects
    exact = users.filter(username=name).first()
    if exact is not None:
        return exact
    matches = list(users.filter(username__iexact=name)[:2])
    return matches[0] if len(matches) == 1 else None


class PlayPreferences(models.Model):
    """Which notices a user wants (accounts.preferences reads them).

    Each e-mail kind can be switched off; the daily digest is opt-in and sent at ``digest_hour``
    (0-23, the user's time) with ``next_digest_on`` the local date of the next one. No e-mail is sent
    between ``quiet_start`` and ``quiet_end`` (local wall-clock times, may wrap past midnight) in
    ``time_zone``; it waits until the quiet hours end.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_preferences")
    email_your_turn = models.BooleanField("E-mail me when it is my turn and I am not on the site", default=True)
    email_warning = models.BooleanField("E-mail me when 80% of my time for a move has gone", default=True)
    email_digest = models.BooleanField("Send me a daily digest of the games waiting on me", default=False)
    digest_hour = models.PositiveSmallIntegerField("Digest hour (your time)", default=8)
    quiet_start = models.TimeField("Quiet hours from", null=True, blank=True)
    quiet_end = models.TimeField("Quiet hours until", null=True, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC")
    next_digest_on = models.DateField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "play preferences"
        constraints = [models.CheckConstraint(condition=Q(digest_hour__lte=23), name="digest_hour_0_to_23")]

    def __str__(self) -> str:
        return f"preferences of {self.user_id}"


class Absence(models.Model):
    """A declared absence: at tables that allow it, the user's clocks stop from ``starts_at`` to
    ``ends_at``. At most 14 days of absence in any 90 (accounts.preferences.declare_absence)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="absences")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at"]
        constraints = [models.CheckConstraint(condition=Q(ends_at__gt=F("starts_at")), name="absence_ends_after_start")]

    def __str__(self) -> str:
        return f"{self.user_id} away {self.starts_at:%Y-%m-%d} to {self.ends_at:%Y-%m-%d}"
