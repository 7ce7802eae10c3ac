"""Rows of the match history and the ratings.

``PlayerResult`` is one row per person per finished game, written once when the game finishes
(``records.services.record_finished_game``) and deleted when a moderator voids the game
(``records.services.void_game_record``); the history pages read it alone, through indexes
that start with the user, so a page costs the same with 10 or 100,000 games. ``Rating`` is a
user's current OpenSkill rating in one game type; ``RatingChange`` is the history of it, one row
per rated game.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import variant_choices


class PlayerResult(models.Model):
    """How one person finished one game.

    Attributes:
        place: final standing, 1 = winner (tied seats share a place). players: seats at the table.
        total: the seat's final total (points, or Frustration's contract). finished_at: copied from
        the game, so the history orders and filters by date without a join. rated: whether the game
        counted for ratings; ``unrated_reason`` says why not (``computer`` or ``autopilot``).
    """

    class UnratedReason(models.TextChoices):
        NONE = "", "Rated"
        COMPUTER = "computer", "A computer player took part"
        AUTOPILOT = "autopilot", "A seat played mostly on autopilot"

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="player_results")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="results")
    variant = models.CharField(max_length=20, choices=variant_choices)
    position = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()
    total = models.IntegerField()
    finished_at = models.DateTimeField()
    is_private = models.BooleanField(default=False)
    rated = models.BooleanField(default=False)
    unrated_reason = models.CharField(max_length=10, choices=UnratedReason.choices, blank=True)

    class Meta:
        ordering = ["-finished_at", "-game_id"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="result_one_per_user")]
        indexes = [
            models.Index(fields=["user", "-finished_at", "-game"], name="result_user_recent"),
            models.Index(fields=["user", "variant", "-finished_at", "-game"], name="result_user_variant_recent"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in game {self.game_id}: place {self.place}"

    @property
    def won(self) -> bool:
        """True for a first place (shared first places count as wins)."""
        return self.place == 1


class Rating(models.Model):
    """A user's OpenSkill rating in one game type: ``mu`` (skill estimate) and ``sigma`` (its
    uncertainty), on OpenSkill's scale (new players: 25 and 25/3)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    variant = models.CharField(max_length=20, choices=variant_choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["variant"]
        constraints = [models.UniqueConstraint(fields=["user", "variant"], name="rating_one_per_variant")]

    def __str__(self) -> str:
        return f"{self.user} {self.variant}: {self.display}"

    @property
    def display(self) -> int:
        """The shown rating (``display_rating``)."""
        return display_rating(self.mu, self.sigma)


class RatingChange(models.Model):
    """One rated game's effect on one user's rating: before and after."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    variant = models.CharField(max_length=20, choices=variant_choices)
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="rating_change_one_per_game")]
        indexes = [models.Index(fields=["user", "variant", "-created_at"], name="rating_change_user_recent")]

    def __str__(self) -> str:
        return f"{self.user} {self.variant} game {self.game_id}: {self.before} -> {self.after}"

    @property
    def before(self) -> int:
        """Shown rating before the game."""
        return display_rating(self.mu_before, self.sigma_before)

    @property
    def after(self) -> int:
        """Shown rating after the game."""
        return display_rating(self.mu_after, self.sigma_after)

    @property
    def delta(self) -> int:
        """Change of the shown rating."""
        return self.after - self.before


def display_rating(mu: float, sigma: float) -> int:
    """The shown rating: OpenSkill's ordinal ``mu - 3 sigma`` scaled by 100 and rounded, so a new
    player (25, 25/3) shows 0 and it grows as games make the estimate surer."""
    return round((mu - 3 * sigma) * 100)
