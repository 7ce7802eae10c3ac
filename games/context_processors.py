"""Template context for every page: the number of games waiting on the signed-in user (the badge),
and how often pages poll for versions (``RUMMY_PAGE_POLL_MS``: while their socket is down, or always
with ``RUMMY_PAGE_POLL_ALWAYS``, when events cannot cross processes)."""
from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from notices.services import waiting_count


def games_waiting(request: HttpRequest) -> dict:
    """``{"games_waiting": n, "page_poll_ms": ms, "page_poll_always": bool}`` for a signed-in user,
    nothing for others. Lazy: the one query runs only when a template shows the badge (whole
    pages, not fragments)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"games_waiting": lambda: waiting_count(user.pk), "page_poll_ms": settings.RUMMY_PAGE_POLL_MS,
            "page_poll_always": settings.RUMMY_PAGE_POLL_ALWAYS}
