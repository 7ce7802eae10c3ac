"""The only code that writes game rows: tables, seats, starting, moves and computer turns.

Verbs follow the contract of their name: ``access_*`` finds, authorizes and (for writes) locks;
``do_*``/the public verbs validate and mutate inside one transaction and send events only after
commit (``games.notify``). Every refusal is a ``Refusal`` with an HTTP status, a stable code and a
message, raised before anything is written, so a refused request changes nothing.
"""
from __future__ import annotations

import random
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone
from django_tasks import task

from accounts.preferences import away_now

from . import hooks, notify, store
from .engine.actions import Action, action_from_json
from .engine.bots import chooser
from .engine.bots.memory import Memory
from .engine.errors import IllegalAction
from .engine.state import GameState, PlayerView
from .engine.variants import VARIANTS, make_variant
from .errors import Refusal
from .models import DAY, TIME_PER_MOVE_CHOICES, Deal, Game, Move, Seat

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


# ----- access ----------------------------------------------------------------------------------

def _seat_of(user, seats: list[Seat]) -> Seat | None:
    return next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)


def lock_game(game_id: int) -> Game:
    """The row of ``game_id``, locked for update (inside a transaction). Raises Refusal 404."""
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise Refusal(404, "no_such_game", "There is no such game.") from None


def can_watch(user, game: Game, seats: list[Seat]) -> bool:
    """True when ``user`` may see ``game``: a seated player, or anyone signed in for a public table."""
    return _seat_of(user, seats) is not None or (user.is_authenticated and not game.is_private)


@contextmanager
def _one_snapshot():
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


def _seats_with_game(game_id: int, *, lock: bool) -> tuple[Game, list[Seat]]:
    """``game_id``'s row and its seats by position (with users), in one query: the seats joined
    with their game. With ``lock``, the game row is locked for update (``FOR UPDATE OF`` the game
    alone) and each seat carries what the turn clock and the badges need (``away``,
    ``waiting_elsewhere``). A table without seats costs one more query.

    After waiting for the lock, PostgreSQL returns the game row as the lock holder left it but the
    seats as they were when the query began; every change of seats bumps the version, so such
    seats only ever come with a version the caller's check refuses (``_refuse_stale``).

    Raises Refusal 404 (no such game).
    """
    query = Seat.objects.filter(game_id=game_id).select_related("game", "user").order_by("position")
    if lock:
        query = query.select_for_update(of=("game",)).annotate(away=away_now()).with_waiting_elsewhere()
    seats = list(query)
    if not seats:
        game = lock_game(game_id) if lock else Game.objects.filter(pk=game_id).first()
        if game is None:
            raise Refusal(404, "no_such_game", "There is no such game.")
        return game, seats
    game = seats[0].game
    for seat in seats:
        seat.game = game
    return game, seats


def access_board(user, game_id: int) -> Board:
    """Load the board of ``game_id`` as ``user`` may see it, every row from one snapshot (read only,
    no lock): four queries (seats with their game, deals, cards with melds, latest moves).

    Raises Refusal 404 (no such game) or 403 (a private game the user has no seat at).
    """
    with _one_snapshot():
        game, seats = _seats_with_game(game_id, lock=False)
        seat = _seat_of(user, seats)
        if not can_watch(user, game, seats):
            raise Refusal(403, "not_seated", "This is a private table; join it with its invite link.")
        rows = store.load_rows(game, seats)
        state = store.load_state(rows) if rows.deal is not None else None
        return _board(rows, state, seat)


def _board(rows: store.LoadedGame, state: GameState | None, seat: Seat | None) -> Board:
    """The Board of ``rows`` for ``seat``'s viewer, from ``state`` (None before the first deal);
    reads the latest moves (one query)."""
    view = state.player_view(seat.position if seat else None) if state is not None else None
    moves = list(rows.game.moves.order_by("-ply")[:RECENT_MOVES])
    return Board(rows.game, rows.seats, seat, view, moves, rows.results, rows.deal)


# ----- tables ----------------------------------------------------------------------------------

def create_table(user, *, variant: str, players: int, is_private: bool, options: dict | None = None,
                 creator_plays: bool = True, seed: str | None = None, time_per_move: int = DAY,
                 absence_stops_clock: bool = True) -> Game:
    """Open a new table, with ``user`` in seat 0 unless ``creator_plays`` is False (computer-only
    tables for ``simulate``). ``seed`` fixes the game seed for reproducible runs.
    ``time_per_move`` (seconds, one of ``TIME_PER_MOVE_CHOICES``) is each turn's clock, and
    ``absence_stops_clock`` whether declared absences stop it (``games.turn_clock``).

    Raises Refusal 400 for an unknown variant or option, or a player count outside 2-4 (S2).
    """
    if variant not in VARIANTS:
        raise Refusal(400, "bad_variant", "Choose a game to play.")
    try:
        rules = make_variant(variant, options)
    except IllegalAction as error:
        raise Refusal(400, error.code, error.message) from None
    if not rules.min_players <= players <= rules.max_players:
        raise Refusal(400, "bad_players", f"{rules.title} is for {rules.min_players}-{rules.max_players} players.", "S2")
    if time_per_move not in dict(TIME_PER_MOVE_CHOICES):
        raise Refusal(400, "bad_time_per_move", "Choose one of the offered times per move.")
    with transaction.atomic():
        game = Game.objects.create(variant=variant, options=rules.options(), players=players,
                                   is_private=is_private, created_by=user, time_per_move=time_per_move,
                                   absence_stops_clock=absence_stops_clock, **({"seed": seed} if seed else {}))
        if creator_plays:
            Seat.objects.create(game=game, position=0, user=user)
    return game


def _free_position(game: Game) -> int:
    taken = set(game.seats.values_list("position", flat=True))
    free = [p for p in range(game.players) if p not in taken]
    if not free:
        raise Refusal(409, "table_full", "Every seat at this table is taken.")
    return free[0]


def _require_open(game: Game) -> None:
    if game.status == Game.Status.ABORTED:
        raise Refusal(409, "table_closed", "This table was closed before it started.")
    if game.status != Game.Status.OPEN:
        raise Refusal(409, "already_started", "This game has already started.")


def record_change(game: Game, seats: list[Seat] | None = None, rows: store.LoadedGame | None = None,
                  mover: Seat | None = None) -> None:
    """Bump ``game``'s version for an accepted change, tell whoever hooks onto it
    (``hooks.change_accepted``: the turn clock's deadlines, queued computer moves and notices),
    save it, and send the "changed" event after commit. ``seats``: the game's seats in position
    order, if loaded; ``rows``: everything loaded for a move (``store.LoadedGame``), which spares
    the receivers their reads; ``mover``: the seat whose person moved, for a player's move."""
    game.version += 1
    hooks.change_accepted.send(sender=Game, game=game, seats=seats, rows=rows, mover=mover)
    game.save()
    version = game.version
    transaction.on_commit(lambda: notify.game_changed(game.pk, version))


def join_table(user, game_id: int, invite_code: str = "") -> Seat:
    """Seat ``user`` at an open table. A private table needs its ``invite_code``.

    Raises Refusal 403 (private table, wrong code), 409 (started, full, already seated).
    """
    with transaction.atomic():
        game = lock_game(game_id)
        if game.is_private and invite_code != game.invite_code:
            raise Refusal(403, "invite_only", "This is a private table; join it with its invite link.")
        _require_open(game)
        if game.seats.filter(user=user).exists():
            raise Refusal(409, "already_seated", "You already have a seat at this table.")
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

    Raises Refusal 403 (not the creator), 404 or 409 (the game has started).
    """
    with transaction.atomic():
        game = _access_own_table(user, game_id)
        _require_open(game)
        game.status, game.finished_at = Game.Status.ABORTED, timezone.now()
        record_change(game)
    return game


def start_game(user, game_id: int) -> Game:
    """Deal the first hand of ``user``'s full table (computer players then move through the
    worker's ``computer_turn``).

    Raises Refusal 403 (not the creator) or 409 (started, or seats still empty).
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
            store.save_totals(rows, state)
        game.status = Game.Status.ACTIVE
        game.started_at = timezone.now()
        record_change(game)
    return game


# ----- moves -----------------------------------------------------------------------------------

def _apply(rows: store.LoadedGame, before: GameState, seat: Seat, action: Action, actor: str) -> GameState:
    """Apply ``action`` for ``seat`` to ``before``, write the changed rows, the move log and the
    new version, and return the new state. Raises Refusal when the rules forbid it."""
    game = rows.game
    try:
        after, events = before.apply(seat.position, action)
    except IllegalAction as error:
        raise Refusal.from_illegal(error) from None
    store.save_state(rows, before, after)
    Move.objects.create(game=game, ply=game.version, deal_number=before.deal.number, seat=seat,
                        actor=actor, action=action.to_json(), events=events)
    if after.finished:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        for s, place in zip(rows.seats, after.standings()):
            s.place = place
        Seat.objects.bulk_update(rows.seats, ["place"])
        hooks.game_finished.send(sender=Game, game=game, seats=rows.seats)
    record_change(game, rows.seats, rows, seat if actor == Move.Actor.PLAYER else None)
    return after


def _refuse_stale(user, game: Game) -> None:
    """Refuse a move made against an older version: 409, or 403 when the change that moved the
    game on took ``user``'s seat (the seats are read again: those read with the lock may be older)."""
    if not game.seats.filter(user=user).exists():
        raise Refusal(403, "not_seated", "You do not have a seat at this table.")
    raise Refusal(409, "stale_version", "The game has moved on since your page was drawn; here is the board now.")


def submit_move(user, game_id: int, version: int, action_json: dict) -> Board:
    """Apply ``user``'s action (JSON, see ``engine.actions``) made against ``version``, and return
    the mover's board after it, drawn from the state in memory.

    One transaction: lock the game row (read with its seats), check seat, status and version, load
    the deals and the current deal's cards once, apply, write the changed rows and one Move, bump
    the version; the event is sent after commit.

    Raises Refusal: 404 no such game; 403 not seated; 409 stale version (also a repeated POST),
    finished game, not your turn; 400 malformed action; 422 an action the rules forbid.
    """
    with transaction.atomic():
        game, seats = _seats_with_game(game_id, lock=True)
        seat = _seat_of(user, seats)
        if seat is None:
            raise Refusal(403, "not_seated", "You do not have a seat at this table.")
        if game.status != Game.Status.ACTIVE:
            raise Refusal(409, "game_over" if game.status == Game.Status.FINISHED else "not_started",
                          "This game is not in play.")
        if version != game.version:
            _refuse_stale(user, game)
        try:
            action = action_from_json(action_json)
        except IllegalAction as error:
            raise Refusal.from_illegal(error) from None
        rows = store.load_rows(game, seats)
        rows.away = frozenset(s.user_id for s in seats if s.away)
        rows.waiting_elsewhere = {s.user_id: s.waiting_elsewhere for s in seats if s.user_id}
        after = _apply(rows, store.load_state(rows), seat, action, Move.Actor.PLAYER)
        return _board(rows, after, seat)


@task()
def computer_turn(game_id: int, version: int) -> bool:
    """Job: play one computer action in ``game_id`` if it is still at ``version`` and the seat to
    move is played by the computer (``play_computer_turn``); the move queues the next one itself."""
    return play_computer_turn(game_id, version)


def _computer_memory(game: Game, deal_number: int) -> Memory:
    """What a computer seat saw of deal ``deal_number``: the public events of its moves' log."""
    moves = Move.objects.filter(game=game, deal_number=deal_number).order_by("ply").values_list("events", flat=True)
    return Memory.replay(deal_number, [event for events in moves for event in events])


def play_computer_turn(game_id: int, version: int | None = None) -> bool:
    """Play one action for the seat to move in ``game_id`` when the computer plays it: a computer
    player, a person whose time ran out this turn, or a seat on autopilot
    (``Seat.computer_actor`` names the Move's actor). With ``version``, only while the game
    is still at that version (the worker's job, ``computer_turn``), so a job run twice
    or late moves nothing.

    The bot chooses outside any lock (``_computer_choice`` reads the game without locking it), so
    a long search never holds the game row; the action is then applied under the row's lock only
    if the game is still at the version it was chosen for, and dropped otherwise (the move made
    meanwhile queues whatever comes next).

    Returns True when an action was applied. The bot (``bots.chooser`` of the table's variant and
    the seat's level; a person's seat is played at the normal level) sees only its own PlayerView
    and the public events of the deal (``bots.memory.Memory``, from the move log): the normal level
    only to draw rather than take back the very card it discarded (since the deal began or the
    stock was last rebuilt), the strong and expert ones to weigh them.
    """
    choice = _computer_choice(game_id, version)
    if choice is None:
        return False
    chosen_at, action = choice
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status != Game.Status.ACTIVE or game.version != chosen_at:
            return False
        rows = store.load_rows(game)
        seat = rows.seats[rows.deal.turn]
        actor = seat.computer_actor(game)
        if actor is None:
            return False
        _apply(rows, store.load_state(rows), seat, action, actor)
    return True


def _computer_choice(game_id: int, version: int | None) -> tuple[int, Action] | None:
    """(the game's version, the computer's action) for the seat to move, read and chosen without
    locking the game row; None when the game is not in play, not at ``version`` (when given), or
    the seat to move is not the computer's to play."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise Refusal(404, "no_such_game", "There is no such game.")
    if game.status != Game.Status.ACTIVE or (version is not None and version != game.version):
        return None
    rows = store.load_rows(game)
    seat = rows.seats[rows.deal.turn]
    if seat.computer_actor(game) is None:
        return None
    state = store.load_state(rows)
    rng = random.Random(f"{game.seed}:bot:{game.version}")
    level = seat.bot_level or Seat.BotLevel.NORMAL
    memory = _computer_memory(game, rows.deal.number) if level != Seat.BotLevel.EASY else None
    return game.version, chooser(state.variant, level)(state.player_view(seat.position), rng, memory)
