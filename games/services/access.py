"""Finding, authorizing and locking games, and a viewer's board: ``access_*`` reads (the board
from one snapshot) and ``lock_game`` for the writers."""
from __future__ import annotations

import datetime as dt
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from accounts.preferences import away_at
from rummy_site.prepared import PreparedQuery

from .. import store
from ..engine.state import GameState, PlayerView
from ..errors import Refusal
from ..models import Deal, Game, Move, Seat

RECENT_MOVES = 8
"""How many of the latest moves a board shows."""


@dataclass
class Board:
    """Everything a page needs to show one game to one viewer (built from ``player_view`` only).

    Attributes:
        game, seats: rows; ``seat`` is the viewer's seat or None for a spectator.
        view: the engine PlayerView for that seat, or None before the first deal.
        last_moves: the latest moves, newest first. results: each finished hand's result JSON.
        deal: the current Deal row (its shuffle ``commitment`` is public; its seed is not shown).
    """

    game: Game
    seats: list[Seat]
    seat: Seat | None
    view: PlayerView | None
    last_moves: list[Move]
    results: list[dict]
    deal: Deal | None = None


def seat_of(user, seats: list[Seat]) -> Seat | None:
    """``user``'s seat among ``seats``, or None (a spectator, or not signed in)."""
    return next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)


def lock_game(game_id: int) -> Game:
    """The row of ``game_id``, locked for update (inside a transaction). Raises Refusal 404."""
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise Refusal(404, "no_such_game", "There is no such game.") from None


def can_watch(user, game: Game, seats: list[Seat]) -> bool:
    """True when ``user`` may see ``game``: a seated player, or anyone signed in for a public table."""
    return seat_of(user, seats) is not None or (user.is_authenticated and not game.is_private)


@contextmanager
def one_snapshot():
    """Run the reads inside in one transaction that sees one committed state of the database, so
    rows read by separate queries belong together while the worker or another request commits a
    move: REPEATABLE READ on PostgreSQL (a read only snapshot, no lock); SQLite's transaction holds
    its database lock. Inside a caller's transaction the caller's isolation applies."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def _seats_query(game_id: int, now: dt.datetime | None = None):
    """The seats of ``game_id`` by position with their game, user and former user; with ``now``,
    the game row locked for update and each seat's ``away`` (at ``now``) and ``waiting_elsewhere``."""
    query = Seat.objects.filter(game_id=game_id).select_related("game", "user", "former_user").order_by("position")
    if now is None:
        return query
    return query.select_for_update(of=("game",)).annotate(away=away_at(now)).with_waiting_elsewhere()


SEATS = PreparedQuery(_seats_query, game_id=int)
LOCKED_SEATS = PreparedQuery(_seats_query, game_id=int, now=dt.datetime)


def seats_with_game(game_id: int, *, lock: bool) -> tuple[Game, list[Seat]]:
    """``game_id``'s row and its seats by position (with their users and former users), in one
    query: the seats joined with their game. With ``lock``, the game row is locked for update
    (``FOR UPDATE OF`` the game alone) and each seat carries what the turn clock and the badges
    need (``away``, ``waiting_elsewhere``). A table without seats costs one more query.

    After waiting for the lock, PostgreSQL returns the game row as the lock holder left it but the
    seats as they were when the query began; every change of seats bumps the version, so such
    seats only ever come with a version the caller's check refuses (``_refuse_stale``).

    Raises Refusal 404 (no such game).
    """
    seats = LOCKED_SEATS.run(game_id=game_id, now=timezone.now()) if lock else SEATS.run(game_id=game_id)
    if not seats:
        game = lock_game(game_id) if lock else Game.objects.filter(pk=game_id).first()
        if game is None:
            raise Refusal(404, "no_such_game", "There is no such game.")
        return game, seats
    game = seats[0].game
    for seat in seats:
        seat.game = game
    return game, seats


def _watched_game(user, game_id: int) -> tuple[Game, list[Seat]]:
    """``seats_with_game`` (read only) of a game ``user`` may watch. Raises Refusal 404 (no such
    game) or 403 (a private game the user has no seat at)."""
    game, seats = seats_with_game(game_id, lock=False)
    if not can_watch(user, game, seats):
        raise Refusal(403, "not_seated", "This is a private table; join it with its invite link.")
    return game, seats


def access_deals(user, game_id: int) -> tuple[Game, list[Seat], list[Deal]]:
    """The row of ``game_id``, its seats by position (with users) and its deals by number, as
    ``user`` may see them, from one snapshot (read only, no lock): two queries, no cards, for the
    pages that need a deal's result rather than the board.

    Raises Refusal 404 (no such game) or 403 (a private game the user has no seat at).
    """
    with one_snapshot():
        game, seats = _watched_game(user, game_id)
        return game, seats, list(game.deals.order_by("number"))


def access_board(user, game_id: int) -> Board:
    """Load the board of ``game_id`` as ``user`` may see it, every row from one snapshot (read only,
    no lock): four queries (seats with their game, deals, cards with melds, latest moves).

    Raises Refusal 404 (no such game) or 403 (a private game the user has no seat at).
    """
    with one_snapshot():
        game, seats = _watched_game(user, game_id)
        seat = seat_of(user, seats)
        rows = store.load_rows(game, seats)
        state = store.load_state(rows) if rows.deal is not None else None
        return board_of(rows, state, seat)


LATEST_MOVES = PreparedQuery(
    lambda game_id: Move.objects.filter(game_id=game_id).annotate(step=Window(RowNumber(), order_by=F("ply").asc()))
    .order_by("-ply")[:RECENT_MOVES],
    game_id=int)
"""A game's latest moves, newest first, each with its ``step``."""


def board_of(rows: store.LoadedGame, state: GameState | None, seat: Seat | None) -> Board:
    """The Board of ``rows`` for ``seat``'s viewer, from ``state`` (None before the first deal);
    reads the latest moves, each with its ``step``, its number in the game's move list (1, 2, ...
    as the record numbers them: plies are versions and skip those of seat changes), in one query."""
    view = state.player_view(seat.position if seat else None) if state is not None else None
    moves = LATEST_MOVES.run(game_id=rows.game.pk)
    for move in moves:
        move.game = rows.game
    return Board(rows.game, rows.seats, seat, view, moves, rows.results, rows.deal)
