"""Send an htmx request that lost its sign-in (logged out elsewhere, or suspended) to the login page
as a whole page, instead of letting htmx swap the login form into the board."""
from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import resolve_url
from django_htmx.http import HttpResponseClientRedirect


class HtmxLoginRedirectMiddleware:
    """Turn ``login_required``'s 302 to the login page into an ``HX-Redirect`` for htmx requests;
    the login's ``next`` is the page the browser shows (``HX-Current-URL``), not the fragment or
    POST endpoint. Must come after ``django_htmx.middleware.HtmxMiddleware``."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        htmx = getattr(request, "htmx", None)
        if not htmx or response.status_code != 302:
            return response
        login_path = resolve_url(settings.LOGIN_URL)
        if urlsplit(response["Location"]).path != login_path:
            return response
        page = htmx.current_url_abs_path or "/"
        return HttpResponseClientRedirect(redirect_to_login(page, login_path).url)
