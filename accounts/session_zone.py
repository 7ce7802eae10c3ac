"""Every page in the signed-in user's time zone, without a statement per request: the zone's name
is kept in the session when the user logs in (one read of their preferences then) and when they
save their preferences, and ``UserTimeZoneMiddleware`` makes it Django's current time zone."""
from __future__ import annotations

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest
from django.utils import timezone

from rummy_site.middleware import database_unavailable_page

from .preferences import time_zone_name, zone_named

SESSION_KEY = "rummy_time_zone"
"""The session key of the user's time-zone name, as stored in their preferences."""


def remember_time_zone(request: HttpRequest, name: str) -> None:
    """Keep ``name`` in the session for the requests that follow; the session is written only when
    the name changes."""
    if request.session.get(SESSION_KEY) != name:
        request.session[SESSION_KEY] = name


def on_user_logged_in(sender, request: HttpRequest, user, **kwargs) -> None:
    """``user_logged_in`` receiver: the new session gets the user's time zone."""
    remember_time_zone(request, time_zone_name(user))


class UserTimeZoneMiddleware:
    """Make the session's time zone current for the request ("localtime" or an unknown name is UTC,
    ``zone_named``), or UTC (the default) when the session has none, as for anyone not signed in.
    Must come after ``SessionMiddleware`` and ``RefuseMalformedRequestMiddleware`` (a NUL in the
    session cookie is refused before the session is read). While the database is unavailable it
    answers the 503 page itself, as a view's request would get."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            name = request.session.get(SESSION_KEY)
        except (OperationalError, InterfaceError) as error:
            return database_unavailable_page(request, error)
        if name:
            timezone.activate(zone_named(name))
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
