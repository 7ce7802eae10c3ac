"""Play preferences and absences: which e-mails a user wants and when, and declared time away.

Pure reads plus the writers of these rows (``save_preferences`` is the form's, ``declare_absence``
and ``cancel_absence``). Times are aware datetimes; wall-clock times (quiet hours, digest hour) are in
the user's own time zone.
"""
from __future__ import annotations

import datetime as dt
import functools
import zoneinfo

from django.db import transaction
from django.db.models import Exists, OuterRef

from .models import Absence, PlayPreferences

MAX_ABSENCE = dt.timedelta(days=14)
ABSENCE_WINDOW = dt.timedelta(days=90)
ABSENCE_NOTICE = dt.timedelta(days=365)
"""How far ahead an absence may start."""
"""At most ``MAX_ABSENCE`` of declared absence in any ``ABSENCE_WINDOW``."""


ZONE_AREAS = frozenset({"Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe",
                        "Indian", "Pacific"})
"""The areas of the tz database's Area/Location names; other names are legacy aliases."""


class AbsenceRefused(ValueError):
    """An absence that may not be declared; the message says why, for the user."""


def preferences_for(user) -> PlayPreferences:
    """The user's PlayPreferences row, created with the defaults on first use."""
    prefs, _ = PlayPreferences.objects.get_or_create(user=user)
    return prefs


def away_at(now: dt.datetime):
    """For a Seat query: whether the seat's user has declared an absence not over at ``now`` (then,
    and only then, the turn clock reads their absences)."""
    return Exists(Absence.objects.filter(user_id=OuterRef("user_id"), ends_at__gt=now))


@functools.cache
def offered_time_zones() -> tuple[str, ...]:
    """The time zones a user may choose: "UTC", then the tz database's Area/Location names sorted
    (no legacy alias such as "US/Eastern", "Etc/GMT+1" or "Zulu", and no "localtime")."""
    return ("UTC", *sorted(name for name in zoneinfo.available_timezones()
                           if "/" in name and name.split("/")[0] in ZONE_AREAS))


def zone_named(name: str) -> dt.tzinfo:
    """The time zone called ``name``: a name no longer offered still counts (a legacy alias), but
    one that is unknown, or "localtime" (the server's own clock), is UTC."""
    if name == "localtime":
        return dt.UTC
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return dt.UTC


def local_zone(prefs: PlayPreferences) -> dt.tzinfo:
    """The user's time zone (``zone_named`` of their stored name)."""
    return zone_named(prefs.time_zone)


def time_zone_name(user) -> str:
    """The name of ``user``'s time zone as stored, read without creating their preferences row;
    "UTC" when they have none."""
    return PlayPreferences.objects.filter(user=user).values_list("time_zone", flat=True).first() or "UTC"


def in_quiet_hours(prefs: PlayPreferences, now: dt.datetime) -> bool:
    """True when ``now`` falls inside the user's quiet hours (start inclusive, end exclusive; a
    span such as 22:00-07:00 wraps past midnight). No quiet hours set: always False."""
    if prefs.quiet_start is None or prefs.quiet_end is None or prefs.quiet_start == prefs.quiet_end:
        return False
    clock = now.astimezone(local_zone(prefs)).time()
    if prefs.quiet_start < prefs.quiet_end:
        return prefs.quiet_start <= clock < prefs.quiet_end
    return clock >= prefs.quiet_start or clock < prefs.quiet_end


def next_sending_time(prefs: PlayPreferences, now: dt.datetime) -> dt.datetime:
    """``now`` when an e-mail may go now, else the end of the current quiet hours (aware, UTC)."""
    if not in_quiet_hours(prefs, now):
        return now
    zone = local_zone(prefs)
    local = now.astimezone(zone)
    end = dt.datetime.combine(local.date(), prefs.quiet_end, tzinfo=zone)
    if end <= local:
        end += dt.timedelta(days=1)
    return end.astimezone(dt.UTC)


def next_digest_time(prefs: PlayPreferences, now: dt.datetime) -> tuple[dt.date, dt.datetime]:
    """The local date and moment (UTC) of the next digest at or after ``now``: ``digest_hour``
    o'clock in the user's time zone today, or tomorrow once that hour has passed."""
    zone = local_zone(prefs)
    local = now.astimezone(zone)
    day = local.date()
    moment = dt.datetime.combine(day, dt.time(prefs.digest_hour), tzinfo=zone)
    if moment < local:
        day += dt.timedelta(days=1)
        moment = dt.datetime.combine(day, dt.time(prefs.digest_hour), tzinfo=zone)
    return day, moment.astimezone(dt.UTC)


def absences_of(user_ids, since: dt.datetime) -> dict[int, list[tuple[dt.datetime, dt.datetime]]]:
    """Declared absences ending after ``since``: ``{user id: [(starts_at, ends_at), ...]}`` in time
    order; users without any are left out."""
    spans: dict[int, list] = {}
    for user_id, start, end in (Absence.objects.filter(user_id__in=list(user_ids), ends_at__gt=since)
                                .order_by("starts_at").values_list("user_id", "starts_at", "ends_at")):
        spans.setdefault(user_id, []).append((start, end))
    return spans


def _overlap(a: tuple[dt.datetime, dt.datetime], b: tuple[dt.datetime, dt.datetime]) -> dt.timedelta:
    return max(dt.timedelta(0), min(a[1], b[1]) - max(a[0], b[0]))


def declare_absence(user, starts_at: dt.datetime, ends_at: dt.datetime, now: dt.datetime) -> Absence:
    """Record that ``user`` is away from ``starts_at`` to ``ends_at`` (aware datetimes).

    Raises AbsenceRefused when the end is not after the start, the absence ends in the past or
    starts more than a year ahead, it overlaps or touches one the user declared before, or the
    user's absences would then add up to more than 14 days within some 90-day window (the
    windows that matter start where an absence starts or end where one ends).
    """
    if ends_at <= starts_at:
        raise AbsenceRefused("An absence must end after it starts.")
    if ends_at <= now:
        raise AbsenceRefused("That absence is already over.")
    if starts_at > now + ABSENCE_NOTICE:
        raise AbsenceRefused("An absence can be declared at most a year ahead.")
    if ends_at - max(starts_at, now) > MAX_ABSENCE:
        raise AbsenceRefused("You may be away for at most 14 days in any 90 days.")
    starts_at = max(starts_at, now)
    new = (starts_at, ends_at)
    with transaction.atomic():
        # Lock the user's preferences row: two declarations at once are checked one after the other.
        PlayPreferences.objects.get_or_create(user=user)
        PlayPreferences.objects.select_for_update().get(user=user)
        if Absence.objects.filter(user=user, starts_at__lte=ends_at, ends_at__gte=starts_at).exists():
            raise AbsenceRefused("That absence overlaps or touches one you have already declared: cancel that "
                                 "one first, or choose times outside it.")
        spans = list(Absence.objects.filter(user=user, ends_at__gt=starts_at - ABSENCE_WINDOW,
                                            starts_at__lt=ends_at + ABSENCE_WINDOW)
                     .values_list("starts_at", "ends_at")) + [new]
        windows = ([(start, start + ABSENCE_WINDOW) for start, _ in spans]
                   + [(end - ABSENCE_WINDOW, end) for _, end in spans])
        for window in windows:
            if sum((_overlap(span, window) for span in spans), dt.timedelta(0)) > MAX_ABSENCE:
                raise AbsenceRefused("You may be away for at most 14 days in any 90 days.")
        return Absence.objects.create(user=user, starts_at=starts_at, ends_at=ends_at)


def cancel_absence(user, absence_id: int, now: dt.datetime) -> Absence | None:
    """Cancel ``user``'s absence ``absence_id`` that is not over yet: one still to come is deleted,
    an ongoing one ends at ``now``. Returns the absence (its ``pk`` None once deleted), or None when
    the user has no such absence (someone else's, or over)."""
    with transaction.atomic():
        absence = Absence.objects.select_for_update().filter(pk=absence_id, user=user, ends_at__gt=now).first()
        if absence is None:
            return None
        if absence.starts_at >= now:
            absence.delete()
        else:
            absence.ends_at = now
            absence.save(update_fields=["ends_at"])
    return absence
