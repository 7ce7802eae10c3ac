"""A smoke run of ``manage.py bench_moves`` with the smallest counts: the three phases start their
servers, play, stop by themselves and report. Needs PostgreSQL and Redis; asserts no speed."""
import io
import json

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from games.models import Move

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(connection.vendor != "postgresql" or not settings.REDIS_URL,
                       reason="the benchmark runs the real stack: set DATABASE_URL=postgres://... and REDIS_URL"),
    pytest.mark.django_db(transaction=True),
]


def test_a_tiny_benchmark_plays_the_three_phases_and_prints_its_figures():
    out = io.StringIO()

    call_command("bench_moves", games=1, seconds=1, statement_moves=2, settle=0, stdout=out)

    report = json.loads(out.getvalue())
    (run,) = report["runs"]
    assert run["floor"]["moves"] > 0 and run["site"]["moves"] > 0
    assert run["signed_in_floor"]["moves"] > 0 and set(run["signed_in_floor"]["statuses"]) == {"200"}
    assert run["ceiling"] == pytest.approx(
        run["signed_in_floor"]["per_second"] / report["players"] / run["floor"]["per_second"], abs=0.001)
    assert run["site"]["server_errors"] == 0 and set(run["site"]["statuses"]) == {"200"}
    assert Move.objects.filter(actor=Move.Actor.PLAYER).count() >= run["site"]["moves"]
    assert 0 < run["site"]["pg_connections"]["peak"] <= run["site"]["pg_connections"]["cap"]
    # Sessions are read from Redis: the session costs no statement.
    assert report["statements"]["draw_stock"]["statements"] == [9]
    assert report["statements"]["board"]["statements"] == [5]
