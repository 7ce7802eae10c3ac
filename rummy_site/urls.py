"""Top-level URL configuration."""
from allauth.account import views as allauth_views
from django.contrib import admin
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import include, path

from accounts import views as account_views
from rummy_site import converters, health  # noqa: F401 (converters registers <id:...>)


def favicon(request):
    """``/favicon.ico``, asked for by browsers before (or without) a page's icon link: the SVG spade."""
    return redirect(static("favicon.svg"))


RETRY_AFTER_SECONDS = 60
"""What the 429 page asks to wait: the window of the sign-up and log-in rate limits."""


def handler429(request: HttpRequest) -> HttpResponse:
    """The page for a tripped allauth rate limit (allauth answers with ``<ROOT_URLCONF>.handler429``
    when there is one): the site's 429.html, with a ``Retry-After`` header."""
    response = render(request, "429.html", status=429)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    path("accounts/preferences/", account_views.play_preferences, name="play_preferences"),
    path("accounts/absences/<id:absence_id>/cancel", account_views.cancel_absence, name="cancel_absence"),
    # allauth's e-mail page in one transaction: its form's check that an address is free holds a
    # lock on the address until the address is written (accounts.forms.AddEmailForm).
    path("accounts/email/", transaction.atomic(allauth_views.email), name="account_email"),
    path("accounts/", include("allauth.urls")),
    path("healthz", health.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("players/", include("accounts.urls")),
    path("", include("records.urls")),
    path("", include("games.urls")),
]
