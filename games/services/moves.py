"""The only writer of moves: a player's move (with the automatic reading of its wilds when the
choice cannot matter) and the computer's turns, each applied under the game row's lock."""
from __future__ import annotations

import random

from django.db import transaction
from django.utils import timezone
from django_tasks import task

from .. import hooks, store
from ..direct_play import automatic_reading
from ..engine.actions import Action, action_from_json
from ..engine.bots import chooser
from ..engine.bots.memory import Memory
from ..engine.errors import IllegalAction
from ..engine.state import GameState
from ..errors import Refusal
from ..models import Game, Move, Seat
from .access import Board, board_of, lock_game, one_snapshot, seat_of, seats_with_game
from .changes import record_change


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
        store.write_seats(rows.seats, ["place"], rows)
        hooks.game_finished.send(sender=Game, game=game, seats=rows.seats)
    record_change(game, rows.seats, rows, seat if actor == Move.Actor.PLAYER else None)
    return after


def _refuse_stale(user, game: Game) -> None:
    """Refuse a move made against an older version: 409, or 403 when the change that moved the
    game on took ``user``'s seat (the seats are read again: those read with the lock may be older)."""
    if not game.seats.filter(user=user).exists():
        raise Refusal(403, "not_seated", "You do not have a seat at this table.")
    raise Refusal(409, "stale_version", "The game has moved on since your page was drawn; here is the board now.")


def _mover_seat(user, game: Game, seats: list[Seat], version: int) -> Seat:
    """``user``'s seat among ``seats`` when they may move in ``game`` at ``version``.

    Raises Refusal: 403 not seated; 409 game not in play, stale version.
    """
    seat = seat_of(user, seats)
    if seat is None:
        raise Refusal(403, "not_seated", "You do not have a seat at this table.")
    if game.status != Game.Status.ACTIVE:
        raise Refusal(409, "game_over" if game.status == Game.Status.FINISHED else "not_started",
                      "This game is not in play.")
    if version != game.version:
        _refuse_stale(user, game)
    return seat


def _refuse_foreign_move(game: Game, kind: object) -> None:
    """Refuse (400, or 422 ``no_swaps``) a move of a kind ``game``'s variant does not have, before
    its fields are read (``Variant.refuse_foreign_move``)."""
    try:
        game.rules.refuse_foreign_move(kind)
    except IllegalAction as error:
        raise Refusal.from_illegal(error) from None


def check_move(user, game_id: int, version: int, kind: str | None = None) -> None:
    """Raise the Refusal ``submit_move`` would give ``user`` before it reads the fields of an
    action of type ``kind`` (read without a lock): 404 no such game, 403 not seated, 409 not in
    play or stale version, then a move the game does not have; return when there is none. A
    malformed move form is checked with it first, so that a page drawn at an older version gets the
    fresh board (409), and a move foreign to the game its refusal, whatever its form carried."""
    game, seats = seats_with_game(game_id, lock=False)
    _mover_seat(user, game, seats, version)
    _refuse_foreign_move(game, kind)


def submit_move(user, game_id: int, version: int, action_json: dict) -> Board:
    """Apply ``user``'s action (JSON, see ``engine.actions``) made against ``version``, and return
    the mover's board after it, drawn from the state in memory.

    One transaction: lock the game row (read with its seats), check seat, status and version, load
    the deals and the current deal's cards once, apply, write the changed rows and one Move, bump
    the version; the event is sent after commit.

    Raises Refusal: 404 no such game; 403 not seated; 409 stale version (also a repeated POST),
    finished game, not your turn; 400 malformed action; 422 an action the rules forbid.
    """
    return _submit(user, game_id, version, action_json, resolve_wilds=False)


def submit_play(user, game_id: int, version: int, action_json: dict) -> Board:
    """``submit_move``, except that a meld or lay-off refused with ``choose_wild`` whose wilds'
    legal readings cannot matter (``direct_play.automatic_reading``, rule 0.3) is made with the
    first of them, in the same transaction, without asking the player. Raises Refusal as
    ``submit_move``."""
    return _submit(user, game_id, version, action_json, resolve_wilds=True)


def _submit(user, game_id: int, version: int, action_json: dict, *, resolve_wilds: bool) -> Board:
    with transaction.atomic():
        game, seats = seats_with_game(game_id, lock=True)
        seat = _mover_seat(user, game, seats, version)
        _refuse_foreign_move(game, action_json.get("type") if isinstance(action_json, dict) else None)
        try:
            action = action_from_json(action_json)
        except IllegalAction as error:
            raise Refusal.from_illegal(error) from None
        rows = store.load_rows(game, seats)
        rows.away = frozenset(s.user_id for s in seats if s.away)
        rows.waiting_elsewhere = {s.user_id: s.waiting_elsewhere for s in seats if s.user_id}
        before = store.load_state(rows)
        try:
            after = _apply(rows, before, seat, action, Move.Actor.PLAYER)
        except Refusal as refusal:
            # The engine refused before anything was written, so the same state may be tried again.
            resolved = (automatic_reading(before.player_view(seat.position), action_json)
                        if resolve_wilds and refusal.code == "choose_wild" else None)
            if resolved is None:
                raise
            after = _apply(rows, before, seat, action_from_json(resolved), Move.Actor.PLAYER)
        return board_of(rows, after, seat)


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
    """(the game's version, the computer's action) for the seat to move, read without locking the
    game row, from one snapshot (``one_snapshot``: the game, its deal and its moves as one commit
    left them, though the worker or a person commits a move meanwhile), and chosen after it; None
    when the game is not in play, not at ``version`` (when given), or the seat to move is not the
    computer's to play."""
    with one_snapshot():
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
        level = seat.bot_level or Seat.BotLevel.NORMAL
        memory = _computer_memory(game, rows.deal.number) if level != Seat.BotLevel.EASY else None
    rng = random.Random(f"{game.seed}:bot:{game.version}")
    return game.version, chooser(state.variant, level)(state.player_view(seat.position), rng, memory)
