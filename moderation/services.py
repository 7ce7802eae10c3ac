"""Moderation services: the only code that writes audit entries, reports and suspensions, and the
one seat-to-computer handover used by moderators, suspensions and a player's own "Leave game".

Every function takes the ``acting_user`` and (moderator actions) a ``reason``; it checks the acting
user's permission here, in the service layer, raising ``Refusal`` (403 not allowed, 404 no such
row, 409 wrong state, 400 no reason) before anything is written. Game changes lock the game row,
bump its version and send the change event after commit, as ``games.services`` does.

Permissions (held by the "Moderators" group: games migration 0007 made it, moderation migration
0001 moved the permissions here with their models): ``moderation.moderate_game``,
``moderation.inspect_hidden_state``, ``moderation.change_report`` and ``moderation.suspend_user``.
"""
from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games import hooks, notify, services, store
from games.engine.cards import Card as EngineCard
from games.errors import Refusal
from games.models import Game, Seat

from .models import AuditEntry, Report, Suspension

MODERATE_GAME = "moderation.moderate_game"
INSPECT_HIDDEN_STATE = "moderation.inspect_hidden_state"
HANDLE_REPORTS = "moderation.change_report"
SUSPEND_USER = "moderation.suspend_user"
REASON_MAX_LENGTH = 1000
LEFT_THE_GAME = "Left the game."

HANDOVER_PERMISSION = {
    AuditEntry.Action.REPLACE_SEAT: MODERATE_GAME,
    AuditEntry.Action.REMOVE_PLAYER: MODERATE_GAME,
    AuditEntry.Action.SUSPEND_USER: SUSPEND_USER,
}
"""Who may hand a seat to a computer, by the action it is part of; LEAVE_GAME: the seat's own player."""
MODERATOR_HANDOVERS = (AuditEntry.Action.REPLACE_SEAT, AuditEntry.Action.REMOVE_PLAYER)
"""Handovers that take a person out of a game against their will, so they are told
(``hooks.player_removed``). A suspended user learns it at log-in (allauth's inactive-account
page); a player who leaves needs no telling."""


def _require(acting_user, permission: str) -> None:
    if not (acting_user.is_authenticated and acting_user.is_active and acting_user.has_perm(permission)):
        raise Refusal(403, "not_moderator", "Only a moderator can do that.")


def _clean_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise Refusal(400, "reason_required", "Give a reason.")
    if len(reason) > REASON_MAX_LENGTH:
        raise Refusal(400, "reason_too_long", f"Keep the reason under {REASON_MAX_LENGTH} characters.")
    return reason


def _opening(acting_user, permission: str, reason: str) -> str:
    """The opening of every moderator action: ``acting_user`` must hold ``permission`` (Refusal
    403), then ``reason`` is required and cleaned (400). Returns the cleaned reason."""
    _require(acting_user, permission)
    return _clean_reason(reason)


@contextmanager
def _game_action(acting_user, game_id: int, reason: str, allowed: Callable[[Game], bool], refusal: tuple[str, str]):
    """The opening of a moderator's action on game ``game_id`` (needs ``MODERATE_GAME``):
    ``_opening``, then, inside one transaction, the game row locked (Refusal 404) and
    ``allowed(game)`` checked (Refusal 409 with ``refusal``, its code and message).
    Yields ``(game, cleaned reason)``; the body writes inside the same transaction."""
    reason = _opening(acting_user, MODERATE_GAME, reason)
    with transaction.atomic():
        game = services.lock_game(game_id)
        if not allowed(game):
            raise Refusal(409, *refusal)
        yield game, reason


def _audit(acting_user, action: str, reason: str, *, game: Game | None = None, target_user=None,
           **details) -> AuditEntry:
    return AuditEntry.objects.create(actor=acting_user, action=action, reason=reason, game=game,
                                     target_user=target_user, details=details)


# ----- seats -----------------------------------------------------------------------------------

def hand_seat_to_computer(acting_user, game_id: int, position: int, reason: str,
                          action: str = AuditEntry.Action.REPLACE_SEAT) -> Seat:
    """Give the person's seat ``position`` of active game ``game_id`` to a computer player, which
    keeps the seat's cards, score and place in turn; the person is kept as ``former_user``.

    The one handover for: a moderator replacing a seat (``REPLACE_SEAT``) or removing a player
    (``REMOVE_PLAYER``), both needing ``moderation.moderate_game``; a suspension (``SUSPEND_USER``,
    needing ``moderation.suspend_user``); and a player leaving (``LEAVE_GAME``, only their own seat).
    Writes an audit row and records the change (``services.record_change``: version, turn clock,
    a queued computer move when the computer is now to move, the event after commit); a person a
    moderator took out is told (``hooks.player_removed``). When no person is left at the table
    the game is aborted instead (the audit row says so).

    Raises Refusal 403 (not allowed), 404 (no such game or seat), 409 (the game is not in play,
    or a computer already holds the seat), 400 (no reason).
    """
    reason = _clean_reason(reason)
    with transaction.atomic():
        game = services.lock_game(game_id)
        seat = game.seats.select_related("user").filter(position=position).first()
        if action == AuditEntry.Action.LEAVE_GAME:
            if seat is None or seat.user_id != acting_user.pk:
                raise Refusal(403, "not_seated", "You do not have a seat at this table.")
        else:
            _require(acting_user, HANDOVER_PERMISSION[action])
            if seat is None:
                raise Refusal(404, "no_such_seat", "That seat is empty.")
        if seat.is_bot:
            raise Refusal(409, "already_computer", "A computer player already holds that seat.")
        if not game.is_live:
            raise Refusal(409, "not_in_play", "This game is not in play.")
        person = seat.user
        seat.former_user, seat.user, seat.bot_level = person, None, Seat.BotLevel.NORMAL
        seat.save(update_fields=["former_user", "user", "bot_level"])
        details = {"position": position}
        if no_one_else_at_the_table(game, person):
            # Nobody is left to play for: computers alone would only play the game out.
            game.status, game.finished_at = Game.Status.ABORTED, timezone.now()
            details["aborted"] = "no people left at the table"
        _audit(acting_user, action, reason, game=game, target_user=person, **details)
        services.record_change(game)
        if action in MODERATOR_HANDOVERS:
            hooks.player_removed.send(sender=Game, game=game, person=person, seat_kept=True)
    return seat


def no_one_else_at_the_table(game: Game, person) -> bool:
    """True when no person but ``person`` holds a seat at ``game``: handing ``person``'s seat to
    a computer then aborts the game (``hand_seat_to_computer``)."""
    return not game.seats.filter(user__isnull=False).exclude(user=person).exists()


def leave_game(user, game_id: int) -> Seat:
    """``user`` leaves active game ``game_id``: a computer player takes their seat and keeps their
    cards (``hand_seat_to_computer`` with ``LEAVE_GAME``). Raises Refusal 403 (no seat) or 409."""
    seat = Seat.objects.filter(game_id=game_id, user_id=user.pk).first()
    if seat is None:
        raise Refusal(403, "not_seated", "You do not have a seat at this table.")
    return hand_seat_to_computer(user, game_id, seat.position, LEFT_THE_GAME, AuditEntry.Action.LEAVE_GAME)


def remove_player(acting_user, game_id: int, position: int, reason: str) -> Game:
    """Take the person at seat ``position`` out of game ``game_id``: in a game in play a computer
    player takes the seat (``hand_seat_to_computer``); at a table still waiting for players the
    seat is freed, and when it was the table creator's the table is aborted (only its creator can
    start a table). Returns the game (its status says whether it was aborted).

    Needs ``moderation.moderate_game``. Raises Refusal 403, 404 (no such game or seat), 409 (finished
    or aborted game, or a computer's seat), 400 (no reason).
    """
    reason = _opening(acting_user, MODERATE_GAME, reason)
    game = Game.objects.filter(pk=game_id).first()
    if game is not None and game.is_live:
        return hand_seat_to_computer(acting_user, game_id, position, reason, AuditEntry.Action.REMOVE_PLAYER).game
    with transaction.atomic():
        game = services.lock_game(game_id)
        if game.status != Game.Status.OPEN:
            raise Refusal(409, "not_in_play", "This game is not in play.")
        seat = game.seats.select_related("user").filter(position=position).first()
        if seat is None:
            raise Refusal(404, "no_such_seat", "That seat is empty.")
        if seat.is_bot:
            raise Refusal(409, "already_computer", "A computer player holds that seat.")
        person = seat.user
        seat.delete()
        if person.pk == game.created_by_id:
            game.status = Game.Status.ABORTED
        _audit(acting_user, AuditEntry.Action.REMOVE_PLAYER, reason, game=game, target_user=person,
               position=position)
        services.record_change(game)
        hooks.player_removed.send(sender=Game, game=game, person=person, seat_kept=False)
    return game


# ----- games -----------------------------------------------------------------------------------

def abort_game(acting_user, game_id: int, reason: str) -> Game:
    """Stop game ``game_id`` (waiting or in play) for good: status ``aborted``, no result.

    Needs ``moderation.moderate_game``. Raises Refusal 403, 404, 409 (already finished, aborted or
    voided), 400 (no reason).
    """
    with _game_action(acting_user, game_id, reason, lambda game: not game.is_over,
                      ("not_in_play", "Only a game waiting for players or in play can be aborted.")) as (game, reason):
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
        _audit(acting_user, AuditEntry.Action.ABORT_GAME, reason, game=game)
        services.record_change(game)
    return game


def _voidable(game: Game) -> bool:
    """True for a finished game; Refusal 409 for one already void (nothing to do)."""
    if game.status == Game.Status.VOIDED:
        raise Refusal(409, "already_voided", "This game is already void.")
    return game.status == Game.Status.FINISHED


def void_game(acting_user, game_id: int, reason: str) -> Game:
    """Declare finished game ``game_id`` void: status ``voided``; its standings stay on record but
    count for nothing: the records, told through ``hooks.game_voided``, take it out of the match histories
    and profile statistics and rebuild the ratings as if it had never been rated.

    Needs ``moderation.moderate_game``. Raises Refusal 403, 404, 409 (not finished, or already
    void), 400 (no reason).
    """
    with _game_action(acting_user, game_id, reason, _voidable,
                      ("not_finished", "Only a finished game can be voided; abort a game in play.")) as (game, reason):
        game.status = Game.Status.VOIDED
        hooks.game_voided.send(sender=Game, game=game)
        _audit(acting_user, AuditEntry.Action.VOID_GAME, reason, game=game)
        services.record_change(game)
    return game


def resend_turn_notification(acting_user, game_id: int, reason: str) -> None:
    """Send game ``game_id``'s "changed, version N" event again at its current version, so a page
    that missed it re-fetches its board; nothing in the game changes (no version bump).

    Needs ``moderation.moderate_game``. Raises Refusal 403, 404, 409 (not in play), 400 (no reason).
    """
    with _game_action(acting_user, game_id, reason, lambda game: game.status == Game.Status.ACTIVE,
                      ("not_in_play", "This game is not in play.")) as (game, reason):
        _audit(acting_user, AuditEntry.Action.RESEND_TURN, reason, game=game, version=game.version)
        transaction.on_commit(lambda: notify.game_changed(game.pk, game.version))


@dataclass(frozen=True)
class HiddenState:
    """Everything hidden in a game's current deal, for a moderator's eyes only.

    Attributes:
        game: the Game row. deal_number: the current deal's number.
        hands: ``(seat name, cards in the engine's order)`` per seat, by position.
        stock: the stock, top card (next drawn) first. discard: the discard pile, top card first.
    """

    game: Game
    deal_number: int
    hands: list[tuple[str, list[EngineCard]]]
    stock: list[EngineCard]
    discard: list[EngineCard]


def inspect_hidden_state(acting_user, game_id: int, reason: str) -> HiddenState:
    """Show every hand and the stock order of game ``game_id``'s current deal, and write an audit
    row saying who looked, when and why (the row is committed before anything is shown).

    Needs ``moderation.inspect_hidden_state``. Raises Refusal 403, 404, 409 (not dealt yet), 400 (no reason).
    """
    reason = _opening(acting_user, INSPECT_HIDDEN_STATE, reason)
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise Refusal(404, "no_such_game", "There is no such game.")
    rows = store.load_rows(game)
    if rows.deal is None:
        raise Refusal(409, "not_dealt", "This game has not been dealt yet.")
    deal = store.load_state(rows).deal
    _audit(acting_user, AuditEntry.Action.INSPECT_HIDDEN, reason, game=game, deal=deal.number)
    return HiddenState(game, deal.number, [(seat.name, list(hand)) for seat, hand in zip(rows.seats, deal.hands)],
                       list(reversed(deal.stock)), list(reversed(deal.discard)))


# ----- users -----------------------------------------------------------------------------------

def suspend_user(acting_user, user_id: int, reason: str):
    """Suspend user ``user_id``: mark them inactive (they cannot log in, and their sessions stop
    authenticating at the next request), record a ``Suspension`` and an audit row, and take them
    out of every game not over: a computer player takes each seat in play
    (``hand_seat_to_computer``), their seats at waiting tables are freed and the waiting tables
    they opened are aborted. Returns the ``Suspension``.

    Needs ``moderation.suspend_user``. Raises Refusal 403 (not allowed, or the target is the acting
    user, a superuser, or staff when the acting user is not a superuser), 404, 409 (already
    suspended), 400 (no reason).
    """
    reason = _opening(acting_user, SUSPEND_USER, reason)
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().filter(pk=user_id).first()
        if user is None:
            raise Refusal(404, "no_such_user", "There is no such user.")
        if user.pk == acting_user.pk or user.is_superuser or (user.is_staff and not acting_user.is_superuser):
            raise Refusal(403, "not_allowed", "You cannot suspend that user.")
        if Suspension.objects.filter(user=user, lifted_at=None).exists():
            raise Refusal(409, "already_suspended", "That user is already suspended.")
        user.is_active = False
        user.save(update_fields=["is_active"])
        suspension = Suspension.objects.create(user=user, reason=reason, suspended_by=acting_user)
        _audit(acting_user, AuditEntry.Action.SUSPEND_USER, reason, target_user=user)
        for seat in Seat.objects.filter(user=user, game__status__in=Game.LIVE):
            hand_seat_to_computer(acting_user, seat.game_id, seat.position, reason, AuditEntry.Action.SUSPEND_USER)
        for seat in Seat.objects.filter(user=user, game__status=Game.Status.OPEN).select_related("game"):
            _leave_waiting_table(acting_user, seat, reason)
    return suspension


def _leave_waiting_table(acting_user, seat: Seat, reason: str) -> None:
    game = services.lock_game(seat.game_id)
    seat.delete()
    if game.created_by_id == seat.user_id:
        game.status = Game.Status.ABORTED
    _audit(acting_user, AuditEntry.Action.SUSPEND_USER, reason, game=game, target_user=seat.user,
           position=seat.position)
    services.record_change(game)


def unsuspend_user(acting_user, user_id: int, reason: str):
    """Lift user ``user_id``'s suspension: active again (they log in anew), the ``Suspension`` row
    records who lifted it, when and why, and an audit row is written. Seats handed to computers
    stay with them. Returns the lifted ``Suspension``.

    Needs ``moderation.suspend_user``. Raises Refusal 403, 404, 409 (not suspended), 400 (no reason).
    """
    reason = _opening(acting_user, SUSPEND_USER, reason)
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().filter(pk=user_id).first()
        if user is None:
            raise Refusal(404, "no_such_user", "There is no such user.")
        suspension = Suspension.objects.filter(user=user, lifted_at=None).first()
        if suspension is None:
            raise Refusal(409, "not_suspended", "That user is not suspended.")
        suspension.lifted_at, suspension.lifted_by, suspension.lift_reason = timezone.now(), acting_user, reason
        suspension.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
        user.is_active = True
        user.save(update_fields=["is_active"])
        _audit(acting_user, AuditEntry.Action.UNSUSPEND_USER, reason, target_user=user)
    return suspension


# ----- reports ---------------------------------------------------------------------------------

def file_report(user, game_id: int, reason: str, reported_user_id: int | None = None) -> Report:
    """``user`` reports game ``game_id``, or the player ``reported_user_id`` at it, with ``reason``;
    the report joins the moderators' queue as ``open``.

    The reporter must be able to see the game (``services.can_watch``); a reported player must hold,
    or have held, a seat at it and not be the reporter. Raises Refusal 404 (no such game, or the
    reporter may not see it), 400 (no reason, or not a player of this game). The same report sent
    again while the first is open (a second press of "Send") is that first report: the reporter's
    row is locked, so two sent at once are not both filed.
    """
    reason = _clean_reason(reason)
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not services.can_watch(user, game, list(game.seats.all())):
        raise Refusal(404, "no_such_game", "There is no such game.")
    if reported_user_id is not None:
        players = {pk for seat in game.seats.all() for pk in (seat.user_id, seat.former_user_id) if pk}
        if reported_user_id not in players or reported_user_id == user.pk:
            raise Refusal(400, "not_a_player", "Choose another player of this game.")
    with transaction.atomic():
        get_user_model().objects.select_for_update().get(pk=user.pk)
        report, _ = Report.objects.get_or_create(reporter=user, game=game, reported_user_id=reported_user_id,
                                                 reason=reason, status=Report.Status.OPEN)
    return report


def _close_report(acting_user, report_id: int, reason: str, status: str, action: str) -> Report:
    reason = _opening(acting_user, HANDLE_REPORTS, reason)
    with transaction.atomic():
        report = Report.objects.select_for_update().filter(pk=report_id).first()
        if report is None:
            raise Refusal(404, "no_such_report", "There is no such report.")
        if report.status != Report.Status.OPEN:
            raise Refusal(409, "report_closed", "That report has already been handled.")
        report.status, report.handled_by, report.handled_at, report.note = status, acting_user, timezone.now(), reason
        report.save(update_fields=["status", "handled_by", "handled_at", "note"])
        _audit(acting_user, action, reason, game=report.game, target_user=report.reported_user, report=report.pk)
    return report


def resolve_report(acting_user, report_id: int, reason: str) -> Report:
    """Close open report ``report_id`` as resolved (acted on), with the moderator's ``reason``.

    Needs ``moderation.change_report``. Raises Refusal 403, 404, 409 (already handled), 400 (no reason).
    """
    return _close_report(acting_user, report_id, reason, Report.Status.RESOLVED, AuditEntry.Action.RESOLVE_REPORT)


def dismiss_report(acting_user, report_id: int, reason: str) -> Report:
    """Close open report ``report_id`` as dismissed (nothing to act on), with the moderator's ``reason``.

    Needs ``moderation.change_report``. Raises Refusal 403, 404, 409 (already handled), 400 (no reason).
    """
    return _close_report(acting_user, report_id, reason, Report.Status.DISMISSED, AuditEntry.Action.DISMISS_REPORT)
