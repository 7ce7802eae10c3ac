"""The floor of the move benchmark (``manage.py bench_moves``): a bare Django project whose one view
does what every move must do at least, one locking transaction (``SELECT ... FOR UPDATE`` of a row,
then ``UPDATE``), on the site's own PostgreSQL settings (the same pool). Served by daphne exactly
as the site is:

    DJANGO_SETTINGS_MODULE=tests.bench.floor daphne -b 127.0.0.1 -p PORT tests.bench.floor:application

The rows live in ``bench_floor`` (the benchmark creates them). Not collected by pytest.
"""
from __future__ import annotations

from django.core.asgi import get_asgi_application
from django.db import connection, transaction
from django.http import HttpResponse, HttpResponseNotAllowed
from django.urls import path

from rummy_site.settings import ALLOWED_HOSTS, DATABASES, DEBUG, SECRET_KEY  # noqa: F401 - settings of this project

ROOT_URLCONF = __name__
INSTALLED_APPS: list[str] = []
MIDDLEWARE: list[str] = []
USE_TZ = True
TABLE = "bench_floor"


def move(request, row: int) -> HttpResponse:
    """Lock row ``row`` and bump its version, in one transaction."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"SELECT version FROM {TABLE} WHERE id = %s FOR UPDATE", [row])
        cursor.execute(f"UPDATE {TABLE} SET version = version + 1 WHERE id = %s", [row])
    return HttpResponse("ok")


urlpatterns = [path("floor/<int:row>", move)]

application = get_asgi_application()
