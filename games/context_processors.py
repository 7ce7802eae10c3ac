"""Template context for every page: the number of games waiting on the signed-in user (the badge)."""
from __future__ import annotations

from django.http import HttpRequest

from .notices import waiting_count


def games_waiting(request: HttpRequest) -> dict:
    """``{"games_waiting": n}`` for a signed-in user, nothing for others. Lazy: the one query runs
    only when a template shows the badge (whole pages, not fragments)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"games_waiting": lambda: waiting_count(user.pk)}
