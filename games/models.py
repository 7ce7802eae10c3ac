"""Game rows: every game, seat, deal, physical card, meld and move is a row.

Written by ``games.services`` (tables, seats, moves, the version), the turn clock
(``games.turn_clock``: the turn and deadline fields) and moderation (``moderation.services``:
seats handed over); only ``games.store`` translates them to and from the rules
engine. Hidden information (hands, stock order, deal seeds) lives here and leaves the server
only through a player's view.
"""
from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Count, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.urls import reverse

from .engine.variants import VARIANTS, make_variant

INVITE_CODE_BYTES = 9
MINUTE, HOUR, DAY = 60, 3600, 86400
TIME_PER_MOVE_CHOICES = [(2 * MINUTE, "2 minutes (live)"), (HOUR, "1 hour"), (12 * HOUR, "12 hours"),
                         (DAY, "1 day"), (3 * DAY, "3 days"), (7 * DAY, "7 days"), (14 * DAY, "14 days")]
"""Time per move a table may give each turn, in seconds, with its label."""


def variant_choices() -> list[tuple[str, str]]:
    """``(name, title)`` of every registered variant, for the ``Game.variant`` field."""
    return [(name, v.title) for name, v in VARIANTS.items()]


def new_invite_code() -> str:
    """A random, URL-safe invite code for a private table (12 characters)."""
    return secrets.token_urlsafe(INVITE_CODE_BYTES)


def new_game_seed() -> str:
    """A secret 128-bit game seed as 32 hex digits; every deal's shuffle derives from it."""
    return secrets.token_hex(16)


class GameQuerySet(models.QuerySet):
    """Query vocabulary for games."""

    def open_public(self):
        """Public tables still waiting for players."""
        return self.filter(status=Game.Status.OPEN, is_private=False)

    def for_user(self, user):
        """Games in which ``user`` holds a seat."""
        return self.filter(seats__user=user).distinct()

    def live(self):
        """Games in play: active, or paused until a player takes their seat back (``Game.LIVE``)."""
        return self.filter(status__in=Game.LIVE)

    def over(self):
        """Games that will not be played on: finished, aborted, voided or abandoned (``Game.OVER``)."""
        return self.filter(status__in=Game.OVER)

    def not_over(self):
        """Games waiting for players or in play (open, active or paused): every status but ``Game.OVER``."""
        return self.exclude(status__in=Game.OVER)


class Game(models.Model):
    """A table and the game played at it.

    ``version`` is bumped by every accepted change; a move must name the version it was made
    against (stale or duplicate moves are refused).
    """

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"
        VOIDED = "voided", "Voided"
        PAUSED = "paused", "Paused (every seat on autopilot)"
        ABANDONED = "abandoned", "Abandoned"

    LIVE = (Status.ACTIVE, Status.PAUSED)
    """Statuses of a game in play: dealt and not over; a paused one waits for a player's return."""
    OVER = (Status.FINISHED, Status.ABORTED, Status.VOIDED, Status.ABANDONED)
    """Statuses of a game that will not be played on."""

    variant = models.CharField(max_length=20, choices=variant_choices)
    options = models.JSONField(default=dict, blank=True)
    players = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    is_private = models.BooleanField(default=False)
    invite_code = models.CharField(max_length=20, unique=True, default=new_invite_code)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    again_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    """The finished game this table's creator pressed "Play again" under (``services.play_again``)."""
    seed = models.CharField(max_length=64, default=new_game_seed)
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Turn clock (games.turn_clock): the table's time per move in seconds, whether declared
    # absences stop its clocks, and the current turn: a counter, its deal and seat, when it
    # started, and whether its time ran out (the computer then plays it).
    time_per_move = models.PositiveIntegerField(choices=TIME_PER_MOVE_CHOICES, default=DAY)
    absence_stops_clock = models.BooleanField(default=True)
    turn_number = models.PositiveIntegerField(default=0)
    turn_deal = models.PositiveSmallIntegerField(default=0)
    turn_position = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    turn_expired = models.BooleanField(default=False)
    paused_at = models.DateTimeField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "is_private"])]
        constraints = [models.CheckConstraint(condition=Q(players__gte=2, players__lte=4), name="game_players_2_to_4"),
                       models.UniqueConstraint(fields=["again_of", "created_by"], name="game_played_again_once")]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("game_detail", args=[self.pk])

    @property
    def rules(self):
        """The variant object with this table's options (``engine.variants``): everything the pages,
        the store and the computer players ask about the game."""
        return make_variant(self.variant, self.options)

    @property
    def is_live(self) -> bool:
        """In play: active or paused (``LIVE``)."""
        return self.status in self.LIVE

    @property
    def is_over(self) -> bool:
        """Finished, aborted, voided or abandoned (``OVER``)."""
        return self.status in self.OVER

    def table_rules(self) -> list[str]:
        """The table's options in words, e.g. ["The game ends when a player reaches 150 penalty points.", ...]."""
        return self.rules.describe_options()


class SeatQuerySet(models.QuerySet):
    """Query vocabulary for seats."""

    def waiting(self):
        """Seats whose owner is to move now: active games, their turn, the clock theirs (not
        expired, not on autopilot); ``Seat.waits`` is the same rule for one seat in memory."""
        return self.filter(game__status=Game.Status.ACTIVE, autopilot=False, position=F("game__turn_position"),
                           game__turn_expired=False)

    def waiting_on(self, user_id: int):
        """Seats of ``user_id`` whose owner is to move now (``waiting``)."""
        return self.waiting().filter(user_id=user_id)

    def with_waiting_elsewhere(self):
        """Annotate ``waiting_elsewhere``: how many games other than the seat's own wait on the
        seat's user (its badge number without this game), so a move needs no count of its own."""
        others = (Seat.objects.waiting().filter(user_id=OuterRef("user_id")).exclude(game_id=OuterRef("game_id"))
                  .order_by().values("user_id").annotate(count=Count("pk")).values("count"))
        return self.annotate(waiting_elsewhere=Coalesce(Subquery(others), 0))


class Seat(models.Model):
    """A place at a table: a user, or a computer player when ``user`` is empty.

    ``total`` is the running score (Standard: penalty points, S13; Wild: points, W14; Frustration:
    the current contract, 1-14, R4); ``streak``
    the deals in a row this seat went out (W14); ``place`` the final standing.
    """

    class BotLevel(models.TextChoices):
        """Computer levels (``games.engine.bots.chooser``): random, greedy, planning ahead, searching."""

        EASY = "easy", "easy"
        NORMAL = "normal", "normal"
        STRONG = "strong", "strong"
        EXPERT = "expert", "expert"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                             related_name="seats")
    bot_level = models.CharField(max_length=10, choices=BotLevel.choices, blank=True)
    total = models.IntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    former_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+",
                                    help_text="The person who held this seat before a computer player took it over.")
    # Turn clock: when this seat's current turn runs out (None when it is not its turn or the
    # clock is not running for it), its consecutive expired turns, and whether the computer plays
    # for its owner until they take the seat back.
    deadline = models.DateTimeField(null=True, blank=True)
    expired_turns = models.PositiveSmallIntegerField(default=0)
    autopilot = models.BooleanField(default=False)

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_one_per_user"),
            models.CheckConstraint(condition=Q(user__isnull=True) | Q(bot_level=""), name="seat_user_or_bot"),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.position}: {self.name}"

    @property
    def is_bot(self) -> bool:
        """True for a computer player."""
        return bool(self.bot_level)

    @property
    def name(self) -> str:
        """The name shown at the table."""
        if self.user_id:
            return self.user.username
        return f"Computer {self.position + 1} ({self.get_bot_level_display()})"

    def waits(self, game: Game) -> bool:
        """True when this seat's owner is to move now in ``game`` (its row, in memory): the rule
        of ``SeatQuerySet.waiting``."""
        return (bool(self.user_id) and game.status == Game.Status.ACTIVE and not self.autopilot
                and self.position == game.turn_position and not game.turn_expired)

    def computer_actor(self, game: Game) -> str | None:
        """Who plays for this seat of ``game`` when it is to move: "computer" (a computer player's
        seat), "deadline" (its owner's time ran out this turn), "autopilot" (seat on autopilot), or
        None (its owner)."""
        if self.is_bot:
            return Move.Actor.COMPUTER
        if game.turn_expired and game.turn_position == self.position:
            return Move.Actor.DEADLINE
        if self.autopilot:
            return Move.Actor.AUTOPILOT
        return None


class Deal(models.Model):
    """One hand: its dealer, secret shuffle seed, whose turn and phase, and its result once over.

    ``variant_state`` is the variant's own part of the deal as JSON, written and read by the variant
    (``Variant.deal_state_json``), e.g. a wild rank and pending cards (W3, W6) or who laid their
    contract this round (R10); ``{}`` when it has none. ``result`` is ``HandResult.to_json()``, and
    may hold variant fields too (R15's ``laid_down``). ``commitment`` is the SHA-256 of the
    seed and deck order, shown when the deal is dealt (``engine.commitment``); ``seed`` stays secret
    until the deal ends.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()
    dealer = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64, blank=True)
    turn = models.PositiveSmallIntegerField()
    phase = models.CharField(max_length=16)
    taken_discard = models.CharField(max_length=8, blank=True)
    rebuilds = models.PositiveSmallIntegerField(default=0)
    stalemate = models.BooleanField(default=False)
    played_this_turn = models.BooleanField(default=False)
    played_before = models.JSONField(default=list)
    next_meld_number = models.PositiveSmallIntegerField(default=1)
    variant_state = models.JSONField(default=dict, blank=True)
    result = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="deal_unique_number")]

    def __str__(self) -> str:
        return f"{self.game} deal {self.number}"


class Meld(models.Model):
    """A meld on the table; its cards are the Card rows pointing at it, in ``position`` order.
    ``is_contract``: laid as part of its owner's contract (Frustration, R10)."""

    class Kind(models.TextChoices):
        SET = "set", "Set"
        RUN = "run", "Run"

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="melds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=3, choices=Kind.choices)
    owner = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="melds")
    is_contract = models.BooleanField(default=False)

    class Meta:
        ordering = ["deal", "number"]
        constraints = [models.UniqueConstraint(fields=["deal", "number"], name="meld_unique_number")]

    def __str__(self) -> str:
        return f"{self.deal} meld {self.number}"


class Card(models.Model):
    """One physical card of a deal and where it is.

    A physical card (``code`` plus ``copy``) has exactly one row per deal, and that row names one
    place: the stock, the discard pile, a seat's hand, or a meld. ``position`` orders the cards in
    that place (piles: 0 is the bottom). ``stands_for`` is what a wild in a meld stands for
    (rule 0.3: ``"9C"``, or a rank alone such as ``"9"``), blank otherwise.
    """

    class Location(models.TextChoices):
        STOCK = "stock", "Stock"
        DISCARD = "discard", "Discard pile"
        HAND = "hand", "Hand"
        MELD = "meld", "Meld"

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="cards")
    code = models.CharField(max_length=8)
    copy = models.PositiveSmallIntegerField(default=0)
    location = models.CharField(max_length=7, choices=Location.choices)
    position = models.PositiveSmallIntegerField()
    seat = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    meld = models.ForeignKey(Meld, null=True, blank=True, on_delete=models.CASCADE, related_name="cards")
    stands_for = models.CharField(max_length=8, blank=True)

    class Meta:
        ordering = ["deal", "location", "position"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "code", "copy"], name="card_one_row_per_physical_card"),
            models.CheckConstraint(
                condition=(Q(location="hand", seat__isnull=False, meld__isnull=True)
                           | Q(location="meld", seat__isnull=True, meld__isnull=False)
                           | Q(location__in=["stock", "discard"], seat__isnull=True, meld__isnull=True)),
                name="card_in_exactly_one_place",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code}~{self.copy}" if self.copy else self.code


class Move(models.Model):
    """One accepted action: the append-only log from which a game replays (seed + moves)."""

    class Actor(models.TextChoices):
        PLAYER = "player", "Player"
        COMPUTER = "computer", "Computer"
        DEADLINE = "deadline", "Computer, time ran out"
        AUTOPILOT = "autopilot", "Computer, on autopilot"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    deal_number = models.PositiveSmallIntegerField()
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="moves")
    actor = models.CharField(max_length=10, choices=Actor.choices)
    action = models.JSONField()
    events = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [models.UniqueConstraint(fields=["game", "ply"], name="move_unique_ply")]

    def __str__(self) -> str:
        return f"{self.game} ply {self.ply}"
