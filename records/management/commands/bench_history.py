"""``manage.py bench_history``: seed finished games in bulk, then measure the match history page.

Prints one JSON object: the database, the games in it, and for each measured page (first page,
each filter, a page deep in the list reached by its keyset cursor) the number of SQL queries and
the median time over ``--repeat`` requests through Django's test client. It asserts nothing.
Run it against a throw-away database, e.g. ``DATABASE_URL=sqlite:////tmp/bench.sqlite3`` or
``DATABASE_URL=postgres://postgres@127.0.0.1:5432/rummy_history`` (after ``migrate``).
"""
from __future__ import annotations

import json
import statistics
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from records.benchmark import seed_finished_games
from records.history import HistoryFilters, cursor_of, filtered
from records.models import PlayerResult

PLAYER = "bench-player"
OPPONENTS = 20


class Command(BaseCommand):
    help = "Seed N finished games (bulk_create) and measure the match history page's queries and time."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=100_000, help="finished games the player should have")
        parser.add_argument("--repeat", type=int, default=20, help="requests per measured page")

    def handle(self, *args, **options):
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
        users = get_user_model().objects
        player = users.filter(username=PLAYER).first() or users.create_user(PLAYER, password="bench-password-8")
        opponents = [users.filter(username=f"bench-opponent-{i}").first()
                     or users.create_user(f"bench-opponent-{i}", password="bench-password-8") for i in range(OPPONENTS)]
        have = PlayerResult.objects.filter(user=player).count()
        started = time.perf_counter()
        made = seed_finished_games(player, opponents, options["games"] - have) if have < options["games"] else 0
        seeding = time.perf_counter() - started
        with connection.cursor() as cursor:
            # Planner statistics after a bulk load, as autovacuum (PostgreSQL) would gather them.
            cursor.execute("ANALYZE")
        client = Client()
        client.force_login(player)
        url = reverse("match_history", args=[PLAYER])
        deep = filtered(player, HistoryFilters())[50_000 if have + made > 50_000 else 0]
        pages = {
            "first page": "",
            "variant=wild": "variant=wild",
            "result=won": "result=won",
            "opponent": "opponent=bench-opponent-7",
            "date range": "since=2024-06-01&until=2024-06-30",
            "wild + won + opponent": "variant=wild&result=won&opponent=bench-opponent-7",
            "deep page (keyset, row 50,000)": f"older={cursor_of(deep)}",
        }
        figures = {}
        for name, query in pages.items():
            timings, queries, rows = [], 0, 0
            for _ in range(options["repeat"]):
                with CaptureQueriesContext(connection) as captured:
                    begin = time.perf_counter()
                    response = client.get(f"{url}?{query}")
                    timings.append(time.perf_counter() - begin)
                assert response.status_code == 200, response.status_code
                queries = len(captured)
                rows = response.content.decode().count('data-testid="history-row"')
            figures[name] = {"queries": queries, "median_ms": round(statistics.median(timings) * 1000, 1),
                             "max_ms": round(max(timings) * 1000, 1), "rows": rows}
        self.stdout.write(json.dumps({
            "database": connection.vendor, "games_for_player": have + made,
            "games_in_database": PlayerResult.objects.values("game_id").distinct().count(),
            "seeded_now": made, "seeding_seconds": round(seeding, 1), "repeat": options["repeat"], "pages": figures,
        }, indent=1))
