"""Top-level URL configuration."""
from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path

from accounts import views as account_views
from rummy_site import converters, health  # noqa: F401 (converters registers <id:...>)


def favicon(request):
    """``/favicon.ico``, asked for by browsers before (or without) a page's icon link: the SVG spade."""
    return redirect(static("favicon.svg"))


urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    path("accounts/preferences/", account_views.play_preferences, name="play_preferences"),
    path("accounts/absences/<id:absence_id>/cancel", account_views.cancel_absence, name="cancel_absence"),
    path("accounts/", include("allauth.urls")),
    path("healthz", health.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("players/", include("accounts.urls")),
    path("", include("records.urls")),
    path("", include("games.urls")),
]
