"""Telling players: the "your turn" badge and notice on every open page, and the e-mails (your turn,
time running out, game abandoned, daily digest, removed from a game by a moderator).

Each e-mail is first recorded as a ``Notification`` row; its unique constraints make a second e-mail
for the same game, seat and turn (or a second digest on one day) impossible, so a job that runs
twice sends nothing the second time. E-mails are sent once the job's transaction has committed,
never while it holds a row lock. The badge and the "your turn" notice are events sent after the
change's commit. E-mails respect the user's PlayPreferences (each kind can be switched off; quiet
hours defer them) and every one links to the preferences page. The removal e-mail is a service
message: sent whatever the preferences say, once, by the one job the removal queued.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django_tasks import task

from accounts.models import PlayPreferences
from accounts.preferences import local_zone, next_digest_time, next_sending_time, preferences_for
from games import notify
from games.models import Game, Seat
from games.turn_clock import WARNING_SHARE, clock_end, share_gone

from .models import Connection, Notification

SHORTEST_WARNED_TURN = 3600
"""Tables with less time per move than this (seconds) get no warning e-mail."""


def waiting_count(user_id: int) -> int:
    """How many games wait on ``user_id`` (the badge number)."""
    return Seat.objects.waiting_on(user_id).count()


def waiting_counts(user_ids: list[int]) -> dict[int, int]:
    """``{user id: games waiting on them}`` for every user of ``user_ids``, in one query."""
    found = dict(Seat.objects.waiting().filter(user_id__in=user_ids).order_by().values("user_id")
                 .annotate(count=Count("pk")).values_list("user_id", "count"))
    return {user_id: found.get(user_id, 0) for user_id in user_ids}


def _counts_after(game: Game, seats: list[Seat], rows) -> dict[int, int] | None:
    """Each seated person's badge number after a change of ``game``, from the counts read with the
    seats (``rows.waiting_elsewhere``); None when they were not read."""
    if rows is None or rows.waiting_elsewhere is None:
        return None
    return {seat.user_id: rows.waiting_elsewhere[seat.user_id] + seat.waits(game) for seat in seats if seat.user_id}


@dataclass
class GameLine:
    """A row of the "My games" dashboard or the digest: ``game``; ``your_turn``; ``turn_name``, who is
    to move; ``time_left`` on the running turn (None: no clock running); ``seat`` the user's own."""

    game: Game
    seat: Seat
    your_turn: bool
    turn_name: str
    time_left: dt.timedelta | None


def my_games(user, now: dt.datetime) -> list[GameLine]:
    """``user``'s games in play (active or paused): their turns first, each group sorted by time left
    (least first; no running clock last)."""
    lines = []
    games = (Game.objects.live().filter(seats__user=user)
             .prefetch_related("seats__user").distinct())
    for game in games:
        seats = list(game.seats.all())
        mine = next(s for s in seats if s.user_id == user.pk)
        to_move = next((s for s in seats if s.position == game.turn_position), None)
        running = next((s.deadline for s in seats if s.deadline is not None), None)
        left = max(dt.timedelta(0), running - now) if running else None
        your_turn = (game.status == Game.Status.ACTIVE and to_move is mine and not mine.autopilot
                     and not game.turn_expired)
        lines.append(GameLine(game, mine, your_turn, to_move.name if to_move else "", left))
    never = dt.timedelta.max
    lines.sort(key=lambda line: (not line.your_turn, line.time_left if line.time_left is not None else never))
    return lines


def is_present(user_id: int, now: dt.datetime) -> bool:
    """True when ``user_id`` has a page of the site open: a websocket that pinged recently (a row
    of a socket that died without closing stops counting after ``RUMMY_PRESENCE_SECONDS``)."""
    return Connection.objects.live(now).filter(user_id=user_id).exists()


def _send_counts(user_ids: list[int], counts: dict[int, int] | None, game: Game | None = None,
                 your_turn_user: int | None = None) -> None:
    counts = counts if counts is not None else waiting_counts(user_ids)
    for user_id in user_ids:
        notify.games_waiting(user_id, counts[user_id], game if user_id == your_turn_user else None)


def on_turn_started(sender, game: Game, seats: list[Seat], seat: Seat, rows, now: dt.datetime,
                    stopped: list, **kwargs) -> list[tuple]:
    """Receiver of ``hooks.turn_started`` (a person's turn began, inside the change's transaction):
    after commit, send every person at the table their new count, with the "your turn" notice for
    ``seat``'s owner. A turn starts once (its number is bumped under the game row lock), so the
    notice goes once per turn without a Notification row. ``rows``: a move's ``store.LoadedGame``,
    whose counts spare the count query.

    Returns the turn's e-mail jobs for the clock to queue: the warning (tables with at least
    ``SHORTEST_WARNED_TURN`` per move) and, after the grace period, the "your turn" e-mail."""
    users = [s.user_id for s in seats if s.user_id]
    counts = _counts_after(game, seats, rows)
    fresh = Game(pk=game.pk, variant=game.variant)
    transaction.on_commit(lambda: _send_counts(users, counts, fresh, seat.user_id))
    turn = (game.pk, game.turn_number)
    jobs = []
    if game.time_per_move >= SHORTEST_WARNED_TURN:
        warning = clock_end(now, game.time_per_move * WARNING_SHARE, stopped)
        jobs.append((warn_turn.using(run_after=warning), turn))
    grace = dt.timedelta(seconds=settings.RUMMY_EMAIL_GRACE_SECONDS)
    jobs.append((email_turn.using(run_after=now + grace), turn))
    return jobs


def on_change_accepted(sender, game: Game, seats: list[Seat] | None, rows, **kwargs) -> None:
    """Receiver of ``hooks.change_accepted``: when the change ended ``game``, after commit send
    every person at it their new count; ``seats`` and ``rows`` as for ``on_turn_started``, when
    loaded."""
    if not game.is_over:
        return
    if seats is None:
        users = list(game.seats.filter(user__isnull=False).values_list("user_id", flat=True))
        counts = None
    else:
        users = [s.user_id for s in seats if s.user_id]
        counts = _counts_after(game, seats, rows)
    transaction.on_commit(lambda: _send_counts(users, counts))


def _record_once(kind: str, user_id: int, game: Game | None = None, seat: Seat | None = None,
                 day: dt.date | None = None) -> bool:
    """Insert the Notification row; False when one already exists (the constraint refused it)."""
    try:
        with transaction.atomic():
            Notification.objects.create(user_id=user_id, kind=kind, game=game, seat=seat,
                                        turn_number=game.turn_number if game else 0, day=day)
    except IntegrityError:
        return False
    return True


def _site_url(path: str) -> str:
    return settings.RUMMY_SITE_URL + path


def _email(user, subject: str, lines: list[str], link: str) -> EmailMessage:
    """The e-mail to ``user``, to send once the transaction that recorded it has committed (never
    while it holds a row lock)."""
    body = render_to_string("games/email/notice.txt", {
        "user": user, "lines": lines, "link": link, "preferences_url": _site_url(reverse("play_preferences"))})
    return EmailMessage(subject, body, None, [user.email])


def describe_time(left: dt.timedelta | None) -> str:
    """``left`` in words for pages and e-mails: "2 days 3 hours", "5 minutes", "no clock"."""
    if left is None:
        return "no clock"
    seconds = int(left.total_seconds())
    days, hours, minutes = seconds // 86400, seconds % 86400 // 3600, seconds % 3600 // 60
    parts = [(days, "day"), (hours, "hour")] if days else [(hours, "hour"), (minutes, "minute")]
    words = [f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in parts if n]
    return " ".join(words) or f"{seconds % 60} seconds"


def deadline_in_words(deadline: dt.datetime | None) -> str:
    """Time left until ``deadline`` (an aware datetime) in words (``describe_time``); "" when
    there is none."""
    if deadline is None:
        return ""
    return describe_time(max(deadline - timezone.now(), dt.timedelta(0)))


def _turn_of(game_id: int, turn_number: int):
    """(game, seat) of a turn still running with its owner's clock, locked; None when stale."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE or game.turn_number != turn_number or game.turn_expired:
        return None
    seat = game.seats.select_related("user").get(position=game.turn_position)
    if seat.user_id is None or seat.deadline is None:
        return None
    return game, seat


@task()
def email_turn(game_id: int, turn_number: int) -> bool:
    """Job: after the grace period, e-mail the player of turn ``turn_number`` if they are not on
    the site (``send_turn_email``)."""
    return send_turn_email(game_id, turn_number, timezone.now())


def send_turn_email(game_id: int, turn_number: int, now: dt.datetime) -> bool:
    """Job body, after the grace period: e-mail the player of turn ``turn_number`` unless the turn
    is over, they have a page of the site open, they switched this e-mail off, or it was already
    sent. During their quiet hours the job waits for the end of them. Returns True when sent."""
    with transaction.atomic():
        turn = _turn_of(game_id, turn_number)
        if turn is None:
            return False
        game, seat = turn
        prefs = preferences_for(seat.user)
        if not prefs.email_your_turn or is_present(seat.user_id, now):
            return False
        later = next_sending_time(prefs, now)
        if later > now:
            email_turn.using(run_after=later).enqueue(game_id, turn_number)
            return False
        if not _record_once(Notification.Kind.TURN_EMAIL, seat.user_id, game, seat):
            return False
        message = _email(seat.user, f"Your turn in {game}",
                         [f"It is your turn in {game}.",
                          f"Time left for this move: {describe_time(seat.deadline - now)}."],
                         _site_url(game.get_absolute_url()))
    message.send()
    return True


@task()
def warn_turn(game_id: int, turn_number: int) -> bool:
    """Job: e-mail the player of turn ``turn_number`` when 80% of their time has gone
    (``send_warning_email``)."""
    return send_warning_email(game_id, turn_number, timezone.now())


def send_warning_email(game_id: int, turn_number: int, now: dt.datetime) -> bool:
    """Job body: e-mail the player of turn ``turn_number`` once 80% of their time has gone (a later
    deadline, from an absence, makes the job wait). Quiet hours defer it while the turn lasts."""
    with transaction.atomic():
        turn = _turn_of(game_id, turn_number)
        if turn is None:
            return False
        game, seat = turn
        due = share_gone(game, seat, WARNING_SHARE)
        if due > now:
            warn_turn.using(run_after=due).enqueue(game_id, turn_number)
            return False
        prefs = preferences_for(seat.user)
        if not prefs.email_warning:
            return False
        later = next_sending_time(prefs, now)
        if later > now:
            if later < seat.deadline:
                warn_turn.using(run_after=later).enqueue(game_id, turn_number)
            return False
        if not _record_once(Notification.Kind.WARNING_EMAIL, seat.user_id, game, seat):
            return False
        message = _email(seat.user, f"Time is running out in {game}",
                         [f"Most of your time for this move in {game} has gone: "
                          f"{describe_time(seat.deadline - now)} left.",
                          "When it runs out the computer plays your turn."],
                         _site_url(game.get_absolute_url()))
    message.send()
    return True


def on_game_abandoned(sender, game: Game, **kwargs) -> list[EmailMessage]:
    """Receiver of ``hooks.game_abandoned``: record, inside the abandoning transaction, that each
    person at ``game`` is told it was abandoned (once each); returns the e-mails for the clock to
    send after its commit."""
    return [_email(seat.user, f"{game} was abandoned",
                   [f"{game} was paused for 14 days with nobody at the table, so it has been abandoned."],
                   _site_url(reverse("my_games")))
            for seat in game.seats.select_related("user").filter(user__isnull=False)
            if _record_once(Notification.Kind.ABANDONED_EMAIL, seat.user_id, game, seat)]


def on_player_removed(sender, game: Game, person, seat_kept: bool, **kwargs) -> None:
    """Receiver of ``hooks.player_removed``: queue, inside the moderator's transaction, the
    e-mail that tells ``person`` (``email_removed``), so it goes only if the removal commits."""
    email_removed.enqueue(game.pk, person.pk, seat_kept)


@task()
def email_removed(game_id: int, user_id: int, seat_kept: bool) -> bool:
    """Job: e-mail user ``user_id`` that a moderator took them out of game ``game_id``
    (``hooks.player_removed``) and what became of their seat, or of the game when that stopped it.
    False when the user has no e-mail address."""
    game = Game.objects.get(pk=game_id)
    user = get_user_model().objects.get(pk=user_id)
    if not user.email:
        return False
    if game.status == Game.Status.ABORTED:
        after = ("The game has been stopped: no one else was left to play." if game.started_at
                 else "The table has been closed.")
    elif seat_kept:
        after = "A computer player now plays your seat, with your cards and score."
    else:
        after = "Your seat at the table has been freed."
    _email(user, f"You were removed from {game}", [f"A moderator removed you from {game}. {after}"],
           _site_url(reverse("my_games"))).send()
    return True


def schedule_digest(prefs: PlayPreferences, now: dt.datetime) -> None:
    """After the preferences were saved: queue the next digest when it is switched on (and none is
    queued yet), forget it when switched off."""
    if not prefs.email_digest:
        PlayPreferences.objects.filter(pk=prefs.pk).update(next_digest_on=None)
        return
    day, moment = next_digest_time(prefs, now)
    if prefs.next_digest_on == day:
        return
    PlayPreferences.objects.filter(pk=prefs.pk).update(next_digest_on=day)
    send_digest.using(run_after=moment).enqueue(prefs.user_id, day.isoformat())


@task()
def send_digest(user_id: int, day: str) -> bool:
    """Job: send ``user_id``'s daily digest for local date ``day`` (ISO ``YYYY-MM-DD``) and queue
    the next (``digest``)."""
    return digest(user_id, dt.date.fromisoformat(day), timezone.now())


def digest(user_id: int, day: dt.date, now: dt.datetime) -> bool:
    """Job body: the daily digest of local date ``day``: the games waiting on the user, least time
    left first, once per day; then queue the next day's. A digest switched off, or a job for a day
    that is no longer the next one, does nothing. Returns True when sent."""
    with transaction.atomic():
        prefs = PlayPreferences.objects.select_for_update().select_related("user").filter(user_id=user_id).first()
        if prefs is None or not prefs.email_digest or prefs.next_digest_on != day:
            return False
        later = next_sending_time(prefs, now)
        if later > now:
            send_digest.using(run_after=later).enqueue(user_id, day.isoformat())
            return False
        following, moment = next_digest_time(prefs, max(now, _day_end(prefs, day)))
        prefs.next_digest_on = following
        prefs.save(update_fields=["next_digest_on"])
        send_digest.using(run_after=moment).enqueue(user_id, following.isoformat())
        waiting = [line for line in my_games(prefs.user, now) if line.your_turn]
        if not waiting or not _record_once(Notification.Kind.DIGEST_EMAIL, user_id, day=day):
            return False
        message = _email(prefs.user, f"{len(waiting)} game{'s' if len(waiting) != 1 else ''} waiting on you",
                         [f"{line.game}: {describe_time(line.time_left)} left" for line in waiting],
                         _site_url(reverse("my_games")))
    message.send()
    return True


def _day_end(prefs: PlayPreferences, day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0), tzinfo=local_zone(prefs))
