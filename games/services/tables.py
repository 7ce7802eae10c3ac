"""The only writer of tables and seats before play: opening, joining, computer players, leaving,
closing and starting (the first deal)."""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from .. import store
from ..engine.errors import IllegalAction
from ..engine.state import GameState
from ..engine.variants import VARIANTS, make_variant
from ..errors import Refusal
from ..models import DAY, TIME_PER_MOVE_CHOICES, Game, Seat
from .access import lock_game
from .changes import record_change


def create_table(user, *, variant: str, players: int, is_private: bool, options: dict | None = None,
                 creator_plays: bool = True, seed: str | None = None, time_per_move: int = DAY,
                 absence_stops_clock: bool = True, again_of: Game | None = None, waits: bool = True) -> Game:
    """Open a new table, with ``user`` in seat 0 unless ``creator_plays`` is False (computer-only
    tables for ``simulate``). ``seed`` fixes the game seed for reproducible runs.
    ``time_per_move`` (seconds, one of ``TIME_PER_MOVE_CHOICES``) is each turn's clock, and
    ``absence_stops_clock`` whether declared absences stop it (``games.turn_clock``). ``again_of``
    is the finished game it is played again from (``play_again``); ``waits`` False for a table the
    caller starts in the same transaction, which does not count against the limit below.

    Raises Refusal 400 for an unknown variant or option, or a player count outside 2-4 (S2), and
    409 when ``user`` already has ``RUMMY_OPEN_TABLES_PER_USER`` tables waiting for players (the
    user's row is locked while they are counted, so two requests at once cannot pass together).
    """
    if variant not in VARIANTS:
        raise Refusal(400, "bad_variant", "Choose a game to play.")
    try:
        rules = make_variant(variant, options)
    except IllegalAction as error:
        raise Refusal(400, error.code, error.message) from None
    if not rules.min_players <= players <= rules.max_players:
        raise Refusal(400, "bad_players", f"{rules.title} is for {rules.min_players}-{rules.max_players} players.",
                      "S2")
    if time_per_move not in dict(TIME_PER_MOVE_CHOICES):
        raise Refusal(400, "bad_time_per_move", "Choose one of the offered times per move.")
    with transaction.atomic():
        if creator_plays and waits:
            _require_room_for_a_table(user)
        game = Game.objects.create(variant=variant, options=rules.options(), players=players, again_of=again_of,
                                   is_private=is_private, created_by=user, time_per_move=time_per_move,
                                   absence_stops_clock=absence_stops_clock, **({"seed": seed} if seed else {}))
        if creator_plays:
            Seat.objects.create(game=game, position=0, user=user)
    return game


def _require_room_for_a_table(user) -> None:
    get_user_model().objects.select_for_update().values_list("pk", flat=True).get(pk=user.pk)
    waiting = Game.objects.filter(created_by=user, status=Game.Status.OPEN).count()
    if waiting >= settings.RUMMY_OPEN_TABLES_PER_USER:
        raise Refusal(409, "too_many_tables",
                      f"You already have {waiting} tables waiting for players. Start or close one of them "
                      "before you open another.")


def _table_full() -> Refusal:
    return Refusal(409, "table_full", "Every seat at this table is taken.")


def _free_position(game: Game) -> int:
    taken = set(game.seats.values_list("position", flat=True))
    free = [p for p in range(game.players) if p not in taken]
    if not free:
        raise _table_full()
    return free[0]


GAME_OVER = {
    Game.Status.FINISHED: "This game is over.",
    Game.Status.VOIDED: "This game is over: a moderator voided it.",
    Game.Status.ABANDONED: "This game is over: nobody came back to the table.",
    Game.Status.ABORTED: "This game is over: it was aborted.",
}
"""Why a game that was dealt will not be played on, by status (``Game.OVER``)."""


def _seat_change_refusal(game: Game) -> Refusal | None:
    """Why the seats of ``game`` can no longer change, as the Refusal (409) a join, a computer
    added, a start or a close gets: closed before it started (``table_closed``), in play or
    paused (``already_started``), or over (``game_over``, saying how it ended). None while the
    table waits for players."""
    if game.status == Game.Status.OPEN:
        return None
    if game.status == Game.Status.ABORTED and game.started_at is None:
        return Refusal(409, "table_closed", "This table was closed before it started.")
    if game.status in Game.LIVE:
        return Refusal(409, "already_started", "This game has already started.")
    return Refusal(409, "game_over", GAME_OVER[game.status])


def join_refusal(game: Game, seats: list[Seat], user) -> Refusal | None:
    """Why ``user`` cannot take a seat at ``game`` (its ``seats``), as a join would be refused: the
    table no longer waits for players (``_seat_change_refusal``) or every seat is taken
    (``table_full``); None when a seat is free or ``user`` already holds one."""
    refusal = _seat_change_refusal(game)
    if refusal is None and len(seats) >= game.players and all(seat.user_id != user.pk for seat in seats):
        return _table_full()
    return refusal


def _require_open(game: Game) -> None:
    """Raise ``_seat_change_refusal(game)`` unless the table waits for players."""
    refusal = _seat_change_refusal(game)
    if refusal is not None:
        raise refusal


def join_table(user, game_id: int, invite_code: str = "") -> Seat:
    """Seat ``user`` at an open table. A private table needs its ``invite_code``.

    Raises Refusal 403 (private table, wrong code: never said to a seated player), 409 (already
    seated at a table waiting or in play, public or private alike; closed, over, full).
    """
    with transaction.atomic():
        game = lock_game(game_id)
        seated = game.seats.filter(user=user).exists()
        if not seated and game.is_private and invite_code != game.invite_code:
            raise Refusal(403, "invite_only", "This is a private table; join it with its invite link.")
        if seated and (game.status == Game.Status.OPEN or game.is_live):
            raise Refusal(409, "already_seated", "You already have a seat at this table.")
        _require_open(game)
        seat = Seat.objects.create(game=game, position=_free_position(game), user=user)
        record_change(game)
    return seat


def _access_own_table(user, game_id: int) -> Game:
    game = lock_game(game_id)
    if game.created_by_id != user.pk:
        raise Refusal(403, "not_creator", "Only the player who opened the table can do that.")
    _require_open(game)
    return game


def add_computer_player(user, game_id: int, level: str = Seat.BotLevel.NORMAL) -> Seat:
    """Give the first empty seat of ``user``'s open table to a computer player of ``level``
    (``Seat.BotLevel``: easy, normal, strong or expert).

    Raises Refusal 400 (unknown level), 403 (not the table's creator) or 409 (started or full).
    """
    if level not in Seat.BotLevel.values:
        raise Refusal(400, "bad_level", "Choose a computer level: easy, normal, strong or expert.")
    with transaction.atomic():
        game = _access_own_table(user, game_id)
        seat = Seat.objects.create(game=game, position=_free_position(game), bot_level=level)
        record_change(game)
    return seat


def remove_seat(user, game_id: int, position: int) -> bool:
    """Free a seat of an open table: the creator may remove a computer player or another player,
    and any player may leave (the creator cannot leave their own table).

    Returns True when ``user`` left their own seat. Raises Refusal 403 (neither the creator nor
    seated: refused before anything about the table's state is told), 404 (no such seat) or 409
    (the game has started, or the table was closed).
    """
    with transaction.atomic():
        game = lock_game(game_id)
        if game.created_by_id != user.pk and not game.seats.filter(user=user).exists():
            raise Refusal(403, "not_allowed", "You cannot free that seat.")
        _require_open(game)
        seat = game.seats.filter(position=position).first()
        if seat is None:
            raise Refusal(404, "no_such_seat", "That seat is empty.")
        leaving_self = seat.user_id == user.pk
        if seat.user_id == game.created_by_id or not (leaving_self or game.created_by_id == user.pk):
            raise Refusal(403, "not_allowed", "You cannot free that seat.")
        seat.delete()
        record_change(game)
    return leaving_self


def close_table(user, game_id: int) -> Game:
    """The creator closes their open table before it starts: status ``aborted``; the table leaves
    the lobby and every seated player's list.

    Raises Refusal 403 (not the creator), 404 or 409 (the game has started, is over or was closed).
    """
    with transaction.atomic():
        game = _access_own_table(user, game_id)
        _require_open(game)
        game.status, game.finished_at = Game.Status.ABORTED, timezone.now()
        record_change(game)
    return game


def play_again(user, game_id: int) -> Game:
    """Open a new table like finished game ``game_id`` for ``user``, who played it: the same game,
    table options, number of seats, privacy and clock, ``user`` in seat 0 and a computer player of
    the same level for each seat a computer played from the start. When no other person played
    it, the new game starts at once (and does not count against the limit of waiting tables);
    otherwise it waits for players. When another player of the game has already opened such a
    table and it has a free seat, ``user`` joins it instead: the players of one game meet at one
    new table. Once per player and game: pressed again, or twice at once, it returns the table
    ``user`` opened or joined the first time (the old game's row is locked meanwhile), unless that
    table was closed before it started: then it opens a new one.

    Raises Refusal 404 (no such game), 403 (``user`` holds no seat in it) or 409 (not finished, or
    ``user`` already has ``RUMMY_OPEN_TABLES_PER_USER`` tables waiting, ``create_table``).
    """
    with transaction.atomic():
        old = lock_game(game_id)
        seats = list(old.seats.all())
        if not any(seat.user_id == user.pk for seat in seats):
            raise Refusal(403, "not_seated", "Only a player of this game can play it again.")
        if old.status != Game.Status.FINISHED:
            raise Refusal(409, "not_finished", "Only a finished game can be played again.")
        again = Game.objects.filter(again_of=old).order_by("pk")
        # A table closed before it started no longer stands for this game played again.
        again.filter(status=Game.Status.ABORTED).update(again_of=None)
        opened = again.filter(Q(created_by=user) | Q(seats__user=user)).first()
        if opened is not None:
            return opened
        for table in again.filter(status=Game.Status.OPEN):
            try:
                join_table(user, table.pk, table.invite_code)
            except Refusal:
                continue
            return table
        computers = [seat.bot_level for seat in seats if seat.is_bot and seat.former_user_id is None]
        dealt_at_once = len(computers) == old.players - 1
        game = create_table(user, variant=old.variant, players=old.players, is_private=old.is_private,
                            options=old.options, time_per_move=old.time_per_move,
                            absence_stops_clock=old.absence_stops_clock, again_of=old, waits=not dealt_at_once)
        for level in computers:
            add_computer_player(user, game.pk, level)
        if dealt_at_once:
            game = start_game(user, game.pk)
    return game


def tables_played_again(game: Game, user) -> list[Game]:
    """The tables the other players of finished ``game`` opened with "Play again" that still wait
    for players (with their creators), for ``user``, one of its players, to join: not those
    ``user`` has a seat at."""
    return list(Game.objects.filter(again_of=game, status=Game.Status.OPEN).exclude(seats__user=user)
                .select_related("created_by").order_by("pk"))


def start_game(user, game_id: int) -> Game:
    """Deal the first hand of ``user``'s full table (computer players then move through the
    worker's ``computer_turn``).

    Raises Refusal 403 (not the creator) or 409 (started, over, closed, or seats still empty).
    """
    with transaction.atomic():
        game = _access_own_table(user, game_id)
        rows = store.load_rows(game)
        if len(rows.seats) != game.players:
            raise Refusal(409, "seats_empty", "Fill every seat before you start.")
        state = GameState.new(make_variant(game.variant, game.options), game.players, game.seed)
        store.create_deal(rows, state.deal)
        if any(state.totals):
            # A variant whose seats start above zero: Frustration's contract 1 (R3).
            store.set_totals(rows, state)
            store.save_seats(rows)
        game.status = Game.Status.ACTIVE
        game.started_at = timezone.now()
        record_change(game)
    return game
