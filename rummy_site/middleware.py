"""Answers to bad input and to a database that is gone, given once for the whole site rather than
view by view.

- ``DatabaseUnavailableMiddleware``: a view that fails because PostgreSQL cannot be reached, timed
  out a statement or lost its connection (``OperationalError``, ``InterfaceError``; bounded by
  ``DATABASE_CONNECT_TIMEOUT`` and ``DATABASE_STATEMENT_TIMEOUT``) answers a 503 page with
  ``Retry-After``, logged as one warning line.
"""
from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template import loader

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 30


def error_page(request: HttpRequest, template_name: str, status: int, **context) -> HttpResponse:
    """``template_name`` rendered without context processors, which would read the session (and so
    the database, or the NUL character): the page for an htmx request is the board fragment."""
    html = loader.get_template(template_name).render({"request": request, **context})
    return HttpResponse(html, status=status)


class DatabaseUnavailableMiddleware:
    """503 page (not a traceback) for a view that failed because the database is unavailable."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        first_line = (str(exception).strip() or type(exception).__name__).splitlines()[0]
        logger.warning("Database unavailable for %s %s: %s", request.method, request.path, first_line)
        response = error_page(request, "503.html", 503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
