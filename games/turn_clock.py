"""Turn clocks: per-seat deadlines, expiry, autopilot, pausing and abandoning games.

The only writer of the clock's rows: ``Game.turn_*``, ``Game.paused_at``, the paused and abandoned
statuses, and ``Seat.deadline/expired_turns/autopilot`` (it reads accounts' ``Absence``). It hooks
onto every accepted change (``hooks.change_accepted``, connected in ``GamesConfig.ready``) and
tells the notices when a person's turn starts or a game is abandoned (``hooks.turn_started``,
``hooks.game_abandoned``). Its jobs (``expire_turn``, ``abandon_paused``) act on the rows and each
checks the rows it was made for, so a job that runs late, twice, or after the game moved on does
nothing wrong.

- A turn starts when the seat to move changes, a new deal starts, or a move ends in the draw phase
  (the same seat again, as after a two-player Skip). A person's seat then gets a deadline: the
  table's ``time_per_move`` of running clock, where the clock stops during the owner's declared
  absences at tables that allow it (``absence_stops_clock``).
- When a deadline passes the computer plays that turn (Move actor "deadline"). Two expired turns in
  a row put the seat on autopilot (actor "autopilot") until its owner takes the seat back.
- A game in which no person's seat is active (all on autopilot) pauses; a game paused for 14 days is
  abandoned and its players are told.
"""
from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks import task

from accounts.preferences import absences_of

from . import hooks, store
from .engine.state import Phase
from .errors import Refusal
from .job_queue import enqueue_together
from .models import Deal, Game, Seat
from .services import computer_turn, lock_game, record_change

AUTOPILOT_AFTER_EXPIRIES = 2
PAUSE_BEFORE_ABANDON = dt.timedelta(days=14)
WARNING_SHARE = 0.8
"""The warning e-mail goes, and the clock on the page turns, when this share of the time per move has gone."""

Span = tuple[dt.datetime, dt.datetime]


def clock_end(start: dt.datetime, seconds: float, stopped: list[Span]) -> dt.datetime:
    """The moment at which ``seconds`` of running clock have passed since ``start``, when the clock
    stands still during each (start, end) span of ``stopped`` (declared absences)."""
    moment, left = start, dt.timedelta(seconds=seconds)
    for span_start, span_end in sorted(stopped):
        if span_end <= moment:
            continue
        if span_start > moment:
            if moment + left <= span_start:
                return moment + left
            left -= span_start - moment
        moment = max(moment, span_end)
    return moment + left


def _stopped_spans(game: Game, user_id: int, since: dt.datetime, away: frozenset[int] | None = None) -> list[Span]:
    if not game.absence_stops_clock or (away is not None and user_id not in away):
        return []
    return absences_of([user_id], since).get(user_id, [])


def deadline_of(game: Game, seat: Seat) -> dt.datetime:
    """When ``seat``'s turn, started at ``game.turn_started_at``, runs out."""
    start = game.turn_started_at
    return clock_end(start, game.time_per_move, _stopped_spans(game, seat.user_id, start))


def share_gone(game: Game, seat: Seat, share: float) -> dt.datetime:
    """When ``share`` (0-1) of ``seat``'s time for the current turn has gone (clock stops counted)."""
    start = game.turn_started_at
    return clock_end(start, game.time_per_move * share, _stopped_spans(game, seat.user_id, start))


def time_left(seat: Seat, now: dt.datetime) -> dt.timedelta | None:
    """Time left on ``seat``'s running turn (zero once past), or None when its clock is not running."""
    if seat.deadline is None:
        return None
    return max(dt.timedelta(0), seat.deadline - now)


def _set_deadlines(seats: list[Seat], seat: Seat | None, deadline: dt.datetime | None, rows=None) -> None:
    """Give ``seat`` (if any) its ``deadline`` and clear every other seat's: with ``rows`` (the
    ``store.LoadedGame`` of a move, whose seats are ``seats``) in memory, written with the move's
    other seat changes (``store.save_seats``); else in one UPDATE of the seats whose deadline
    changes (none when nothing does)."""
    changed = []
    for other in seats:
        wanted = deadline if seat is not None and other.pk == seat.pk else None
        if other.deadline != wanted:
            other.deadline = wanted
            changed.append(other)
    store.write_seats(changed, ["deadline"], rows)


def _start_turn(game: Game, seats: list[Seat], seat: Seat, now: dt.datetime, rows=None) -> None:
    """A new turn for ``seat``: count it, give a person's seat its deadline and queue its expiry
    with the jobs the ``hooks.turn_started`` receivers return (one INSERT: the notices' warning
    and e-mail). ``rows`` (``store.LoadedGame`` of a move) says who is away, so absences are read
    only then."""
    game.turn_number += 1
    game.turn_position = seat.position
    game.turn_started_at = now
    game.turn_expired = False
    if seat.user_id is None or seat.autopilot:
        _set_deadlines(seats, seat, seat.deadline, rows)
        return
    stopped = _stopped_spans(game, seat.user_id, now, rows.away if rows is not None else None)
    _set_deadlines(seats, seat, clock_end(now, game.time_per_move, stopped), rows)
    due = [(expire_turn.using(run_after=seat.deadline), (game.pk, game.turn_number))]
    for _, jobs in hooks.turn_started.send(sender=Game, game=game, seats=seats, seat=seat, rows=rows, now=now,
                                           stopped=stopped):
        due.extend(jobs)
    enqueue_together(due)


def after_change(game: Game, seats: list[Seat] | None = None, rows=None) -> None:
    """Bring the clock up to date after an accepted change of ``game`` (inside its transaction, the
    game row locked, ``version`` already bumped; the caller saves ``game``). ``rows``: the
    ``store.LoadedGame`` of a move, whose current deal and seat facts spare the reads.
    Connected to ``hooks.change_accepted`` (``on_change_accepted``).

    Starts a new turn when the seat to move or the deal changed, or when a move left the deal in
    its draw phase, where every turn begins (0.2): so a seat that moves again, as after a Skip
    with two players (F14), gets its full time again. Queues the next computer move when the seat
    to move is played by the computer: after ``RUMMY_COMPUTER_PAUSE_SECONDS`` at the start of its
    turn, at once within it.
    """
    if game.status != Game.Status.ACTIVE:
        if game.is_over:
            if seats is None:
                Seat.objects.filter(game=game, deadline__isnull=False).update(deadline=None)
            else:
                _set_deadlines(seats, None, None, rows)
        return
    moved = rows is not None and rows.deal is not None
    if moved:
        deal = (rows.deal.number, rows.deal.turn)
    else:
        deal = Deal.objects.filter(game=game).order_by("-number").values_list("number", "turn").first()
    seats = seats if seats is not None else list(game.seats.order_by("position"))
    seat = seats[deal[1]]
    turn_begun = moved and rows.deal.phase == Phase.DRAW
    new_turn = turn_begun or (game.turn_deal, game.turn_position) != deal or game.turn_number == 0
    if new_turn:
        game.turn_deal = deal[0]
        _start_turn(game, seats, seat, timezone.now(), rows)
    if seat.computer_actor(game):
        pause = settings.RUMMY_COMPUTER_PAUSE_SECONDS if new_turn else 0
        when = timezone.now() + dt.timedelta(seconds=pause) if pause else None
        computer_turn.using(run_after=when).enqueue(game.pk, game.version)


def on_change_accepted(sender, game: Game, seats: list[Seat] | None, rows, mover: Seat | None, **kwargs) -> None:
    """Receiver of ``hooks.change_accepted``: a person's own move ends their run of expired
    turns (``player_moved``), then the clock is brought up to date (``after_change``)."""
    if mover is not None:
        player_moved(mover, rows)
    after_change(game, seats, rows)


def player_moved(seat: Seat, rows=None) -> None:
    """A person moved for ``seat`` themselves: their run of expired turns is over. With ``rows``
    (the ``store.LoadedGame`` of the move, ``seat`` among its seats) it is written with the move's
    other seat changes (``store.save_seats``)."""
    if seat.expired_turns:
        seat.expired_turns = 0
        store.write_seats([seat], ["expired_turns"], rows)


def _someone_at_the_table(seats: list[Seat]) -> bool:
    return any(seat.user_id and not seat.autopilot for seat in seats)


@task()
def expire_turn(game_id: int, turn_number: int) -> bool:
    """Job: when turn ``turn_number`` of ``game_id`` is still running and its deadline has
    passed, hand it to the computer; a second expiry in a row puts the seat on autopilot, and a game
    left with no active person pauses. A deadline moved later (an absence) queues itself again.

    Returns True when the turn expired; a stale job (game moved on, already expired) does nothing.
    """
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.ACTIVE or game.turn_number != turn_number or game.turn_expired:
            return False
        seats = list(game.seats.order_by("position"))
        seat = seats[game.turn_position]
        if seat.deadline is None:
            return False
        if seat.deadline > now:
            expire_turn.using(run_after=seat.deadline).enqueue(game_id, turn_number)
            return False
        seat.deadline = None
        seat.expired_turns += 1
        seat.autopilot = seat.autopilot or seat.expired_turns >= AUTOPILOT_AFTER_EXPIRIES
        seat.save(update_fields=["deadline", "expired_turns", "autopilot"])
        game.turn_expired = True
        if not _someone_at_the_table(seats):
            _pause(game, now)
        record_change(game, seats)
    return True


def _pause(game: Game, now: dt.datetime) -> None:
    game.status = Game.Status.PAUSED
    game.paused_at = now
    abandon_paused.using(run_after=now + PAUSE_BEFORE_ABANDON).enqueue(game.pk)


def take_seat_back(user, game_id: int, now: dt.datetime) -> Game:
    """``user`` takes their seat back from the autopilot; a paused game resumes, and when it is
    their turn they get a fresh turn with a full clock.

    Raises Refusal 404 (no such game), 403 (no seat there), 409 (game over, seat not on autopilot).
    """
    with transaction.atomic():
        game = lock_game(game_id)
        seats = list(game.seats.order_by("position"))
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise Refusal(403, "not_seated", "You do not have a seat at this table.")
        if not game.is_live:
            raise Refusal(409, "game_over", "This game is not in play.")
        if not seat.autopilot:
            raise Refusal(409, "not_on_autopilot", "Your seat is not on autopilot.")
        seat.autopilot = False
        seat.expired_turns = 0
        seat.save(update_fields=["autopilot", "expired_turns"])
        game.status = Game.Status.ACTIVE
        game.paused_at = None
        if game.turn_position == seat.position:
            _start_turn(game, seats, seat, now)
        record_change(game, seats)
    return game


def abandon_if_unresumed(game_id: int, now: dt.datetime) -> bool:
    """Job body: abandon ``game_id`` when it has stayed paused for 14 days, and tell its players
    (the e-mails the ``hooks.game_abandoned`` receivers return, sent after commit). Returns True
    when it did; a game resumed meanwhile (or paused again later) is left alone."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.PAUSED:
            return False
        due = game.paused_at + PAUSE_BEFORE_ABANDON
        if due > now:
            abandon_paused.using(run_after=due).enqueue(game_id)
            return False
        game.status = Game.Status.ABANDONED
        game.finished_at = now
        record_change(game)
        told = hooks.game_abandoned.send(sender=Game, game=game)
    for _, emails in told:
        for email in emails:
            email.send()
    return True


@task()
def abandon_paused(game_id: int) -> bool:
    """Job: abandon ``game_id`` if it has been paused for 14 days (``abandon_if_unresumed``)."""
    return abandon_if_unresumed(game_id, timezone.now())


def absences_changed(user, now: dt.datetime) -> int:
    """Recompute the running deadlines of ``user``'s seats after they declared or cancelled an
    absence (tables that allow absences only): the queued expiry jobs find a later deadline and
    wait for it; an earlier one gets its own expiry job. Returns the number of deadlines moved."""
    moved = 0
    with transaction.atomic():
        seats = (Seat.objects.select_for_update().select_related("game")
                 .filter(user=user, deadline__isnull=False, game__status=Game.Status.ACTIVE,
                         game__absence_stops_clock=True))
        for seat in seats:
            deadline = deadline_of(seat.game, seat)
            if deadline != seat.deadline:
                if deadline < seat.deadline:
                    expire_turn.using(run_after=deadline).enqueue(seat.game_id, seat.game.turn_number)
                seat.deadline = deadline
                seat.save(update_fields=["deadline"])
                moved += 1
    return moved
