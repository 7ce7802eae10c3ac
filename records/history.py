"""Match history queries: a user's finished games, filtered and paged by keyset. A voided game has
no ``PlayerResult`` rows left (``records.services.void_game_record``), so it is in no history,
statistic or recent-games list without any filter here.

Every query starts with the user and walks an index that begins with the user and the finishing
time (``PlayerResult`` Meta), and a page fetches one row more than it shows to know whether more
follow: no OFFSET and no COUNT, so the cost of a page does not grow with the number of games.
A cursor is ``<finishing time in microseconds since 1970>.<game id>`` of the row it continues from.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from django.db.models import Avg, Count, Exists, OuterRef, Q, QuerySet

from games.engine.variants import VARIANTS
from games.models import Seat

from .models import PlayerResult, RatingChange

PAGE_SIZE = 25
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
CURSOR_DIGITS = 18
"""Digits allowed in each part of a cursor: any game id (a bigint) and any time up to year 9999."""


@dataclass(frozen=True)
class HistoryFilters:
    """What the history list is narrowed to: ``variant`` name, ``result`` (``"won"``, ``"lost"`` or
    empty), ``opponent`` (a user id), and a ``since``/``until`` date range (inclusive, days in
    ``zone``: the viewer's time zone, as the list shows its times)."""

    variant: str = ""
    result: str = ""
    opponent: int | None = None
    since: date | None = None
    until: date | None = None
    zone: tzinfo = UTC


@dataclass
class HistoryRow:
    """One game of the list: the viewer's result, the other players' names, the rating change."""

    result: PlayerResult
    opponents: list[str]
    rating_delta: int | None


@dataclass
class HistoryPage:
    """A page of the history: rows newest first, and the cursors of the pages around it (None at
    either end)."""

    rows: list[HistoryRow] = field(default_factory=list)
    newer: str | None = None
    older: str | None = None


def cursor_of(result: PlayerResult) -> str:
    """The cursor that continues from ``result`` (module docstring)."""
    micros = (result.finished_at - EPOCH) // timedelta(microseconds=1)
    return f"{micros}.{result.game_id}"


def parse_cursor(text: str) -> tuple[datetime, int] | None:
    """``(finished_at, game id)`` from a cursor, or None when ``text`` is not one: not two runs of
    ASCII digits, a number longer than ``CURSOR_DIGITS``, or a time past the year 9999."""
    micros, dot, game = text.partition(".")
    if not (dot and all(part.isascii() and part.isdigit() and len(part) <= CURSOR_DIGITS for part in (micros, game))):
        return None
    try:
        return EPOCH + timedelta(microseconds=int(micros)), int(game)
    except OverflowError:
        return None


def instant(day: date, clock: time, zone: tzinfo) -> datetime:
    """``day`` at ``clock`` in ``zone``, in UTC; where that falls before the year 1 or after 9999
    in UTC (the calendar's first or last day in a zone ahead of or behind UTC), ``clock`` in UTC,
    the earliest or latest time there is."""
    try:
        return datetime.combine(day, clock, zone).astimezone(UTC)
    except OverflowError:
        return datetime.combine(day, clock, UTC)


def filtered(user, filters: HistoryFilters, *, include_private: bool = True) -> QuerySet:
    """``user``'s PlayerResult rows narrowed by ``filters``, newest first; ``include_private``
    False leaves out games at private tables (another user's view of a profile)."""
    rows = PlayerResult.objects.filter(user=user)
    if filters.variant:
        rows = rows.filter(variant=filters.variant)
    if filters.result == "won":
        rows = rows.filter(place=1)
    elif filters.result == "lost":
        rows = rows.filter(place__gt=1)
    if filters.opponent is not None:
        rows = rows.filter(Exists(PlayerResult.objects.filter(game_id=OuterRef("game_id"), user_id=filters.opponent)))
    if filters.since:
        rows = rows.filter(finished_at__gte=instant(filters.since, time.min, filters.zone))
    if filters.until:
        # The day's last instant, not the next day's first: the day after 9999-12-31 is no date.
        rows = rows.filter(finished_at__lte=instant(filters.until, time.max, filters.zone))
    if not include_private:
        rows = rows.filter(is_private=False)
    return rows.order_by("-finished_at", "-game_id")


def history_page(user, filters: HistoryFilters, *, cursor: str = "", newer: bool = False,
                 include_private: bool = True, size: int = PAGE_SIZE) -> HistoryPage:
    """One page of ``user``'s history: the ``size`` games older than ``cursor`` (or, with
    ``newer``, the ``size`` games just newer than it), newest first. Three queries: the results,
    the other seats of those games, the rating changes."""
    rows = filtered(user, filters, include_private=include_private)
    position = parse_cursor(cursor)
    if position is not None:
        at, game = position
        # A range on finished_at (which the index serves) minus the cursor's own instant's rows
        # on the wrong side of it, rather than an OR that would scan from the newest game.
        if newer:
            rows = (rows.filter(finished_at__gte=at).exclude(finished_at=at, game_id__lte=game)
                    .order_by("finished_at", "game_id"))
        else:
            rows = rows.filter(finished_at__lte=at).exclude(finished_at=at, game_id__gte=game)
    results = list(rows[: size + 1])
    more = len(results) > size
    results = results[:size]
    if position is not None and newer:
        results.reverse()
    page = HistoryPage()
    if not results:
        return page
    ids = [r.game_id for r in results]
    others: dict[int, list[str]] = {game_id: [] for game_id in ids}
    for seat in Seat.objects.filter(game_id__in=ids).exclude(user=user).select_related("user").order_by("position"):
        others[seat.game_id].append(seat.name)
    changes = RatingChange.objects.filter(user=user, game_id__in=ids)
    deltas = {change.game_id: change.delta for change in changes}
    page.rows = [HistoryRow(r, others[r.game_id], deltas.get(r.game_id)) for r in results]
    has_newer = position is not None and (not newer or more)
    has_older = more if (position is None or not newer) else True
    page.newer = cursor_of(results[0]) if has_newer else None
    page.older = cursor_of(results[-1]) if has_older else None
    return page


@dataclass(frozen=True)
class VariantStats:
    """A user's record in one game type: games played and won, average finishing place."""

    variant: str
    title: str
    played: int
    won: int
    average_place: float


def variant_stats(user) -> list[VariantStats]:
    """Games played and won and the average place of ``user`` per game type (one query)."""
    rows = (PlayerResult.objects.filter(user=user).values("variant")
            .annotate(played=Count("id"), won=Count("id", filter=Q(place=1)), average_place=Avg("place"))
            .order_by("variant"))
    return [VariantStats(r["variant"], VARIANTS[r["variant"]].title, r["played"], r["won"],
                         round(r["average_place"], 2))
            for r in rows]
