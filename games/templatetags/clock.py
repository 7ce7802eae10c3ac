"""Template filters for turn clocks: ``{{ seat.deadline|time_left }}`` -> "2 days 3 hours"."""
from __future__ import annotations

from django import template

from notices.services import deadline_in_words, describe_time

register = template.Library()


@register.filter
def time_left(deadline) -> str:
    """Time left until ``deadline`` (an aware datetime) in words; "" when there is none."""
    return deadline_in_words(deadline)


@register.filter
def duration_words(left) -> str:
    """A timedelta in words ("5 minutes"); "" for None."""
    return "" if left is None else describe_time(left)
