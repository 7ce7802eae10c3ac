"""The floor's one view and its URLs, for both floors of ``manage.py bench_moves``: ``floor/<row>``
bare (``tests/bench/floor.py``) and ``signed-in/<row>`` for a signed-in user only, behind the site's
own stack (``tests/bench/signed_in_floor.py``). The rows live in ``bench_floor`` (the benchmark
creates them). Not collected by pytest.
"""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db import connection, transaction
from django.http import HttpResponse, HttpResponseNotAllowed
from django.urls import path

TABLE = "bench_floor"


def move(request, row: int) -> HttpResponse:
    """Lock row ``row`` and bump its version, in one transaction."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"SELECT version FROM {TABLE} WHERE id = %s FOR UPDATE", [row])
        cursor.execute(f"UPDATE {TABLE} SET version = version + 1 WHERE id = %s", [row])
    return HttpResponse("ok")


urlpatterns = [path("floor/<int:row>", move), path("signed-in/<int:row>", login_required(move))]
