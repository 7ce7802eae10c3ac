"""Answers to bad input and to a database that is gone, given once for the whole site rather than
view by view.

- ``RefuseMalformedRequestMiddleware``: a NUL character anywhere in the path, the query, the form
  fields or the cookies gets a 400 page before any view runs (PostgreSQL cannot store or compare
  NUL in text, so it would reach the database as an error); a URL longer than
  ``MAX_URL_CHARACTERS`` gets a 414 page (a redirect carrying it, such as the log-in's ``next``,
  would pass Django's limit on redirect URLs and be logged as an error).
- ``MethodNotAllowedPageMiddleware``: a request whose method the view does not take (a GET of an
  address that takes only a POST: Django's ``require_POST`` answers 405 with an empty body) gets
  the 405 page, with Django's ``Allow`` header kept.
- ``DatabaseUnavailableMiddleware``: a view that fails because PostgreSQL cannot be reached, timed
  out a statement or lost its connection (``OperationalError``, ``InterfaceError``; bounded by
  ``DATABASE_CONNECT_TIMEOUT`` and ``DATABASE_STATEMENT_TIMEOUT``) answers a 503 page with
  ``Retry-After``, logged as one warning line.
"""
from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.template import loader
from django.utils.cache import patch_vary_headers

from .outages import summary

logger = logging.getLogger(__name__)

NUL = "\x00"
MAX_URL_CHARACTERS = 4096
"""Longest path and query string served, percent-encoded: the site's own URLs stay under 300."""
RETRY_AFTER_SECONDS = 30


def error_page(request: HttpRequest, template_name: str, status: int, **context) -> HttpResponse:
    """``template_name`` rendered without context processors, which would read the session (and so
    the database, or the NUL character): the page for an htmx request is the board fragment."""
    html = loader.get_template(template_name).render({"request": request, **context})
    return HttpResponse(html, status=status)


def _carries_nul(request: HttpRequest) -> bool:
    if NUL in request.path:
        return True
    fields = [*request.GET.lists(), *((name, [value]) for name, value in request.COOKIES.items())]
    if request.method == "POST":
        fields += request.POST.lists()
    return any(NUL in key or any(NUL in value for value in values) for key, values in fields)


class RefuseMalformedRequestMiddleware:
    """400 for a request with a NUL character in its path, query, form fields or cookies; 414 for a
    URL over ``MAX_URL_CHARACTERS`` (module docstring)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if len(request.get_full_path()) > MAX_URL_CHARACTERS:
            return error_page(request, "400.html", 414, reason="The address is too long.")
        if _carries_nul(request):
            return error_page(request, "400.html", 400, reason="The request contains a NUL character.")
        return self.get_response(request)


class MethodNotAllowedPageMiddleware:
    """The 405 page (``405.html``, the board fragment for htmx) in place of the empty body of a
    ``HttpResponseNotAllowed`` (module docstring)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not isinstance(response, HttpResponseNotAllowed):
            return response
        page = error_page(request, "405.html", 405, allowed=" or ".join(response["Allow"].split(", ")))
        page["Allow"] = response["Allow"]
        patch_vary_headers(page, ["HX-Request"])
        return page


class DatabaseUnavailableMiddleware:
    """503 page (not a traceback) for a view that failed because the database is unavailable."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return database_unavailable_page(request, exception)


def database_unavailable_page(request: HttpRequest, exception: Exception) -> HttpResponse | None:
    """The 503 page (logged as one warning) when ``exception`` says the database is unavailable
    (``OperationalError``, ``InterfaceError``), else None. For a middleware that reads the
    database itself: Django turns a middleware's exception into a 500, not ``process_exception``."""
    if not isinstance(exception, (OperationalError, InterfaceError)):
        return None
    logger.warning("Database unavailable for %s %s: %s", request.method, request.path, summary(exception))
    response = error_page(request, "503.html", 503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
