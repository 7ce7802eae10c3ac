"""Bulk-made finished games for measuring the match history (``manage.py bench_history``) and
for the tests that pin its query count.

The rows are what a finished game leaves for the history pages (a Game, its Seats and one
PlayerResult per person), written with ``bulk_create`` in batches; no deals or moves, which the
history never reads.
"""
from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from django.db import transaction

from games.engine.variants import VARIANTS
from games.models import Game, Seat

from .models import PlayerResult

BATCH = 2000
START = datetime(2024, 1, 1, tzinfo=UTC)


def seed_finished_games(player, opponents: list, games: int, *, seed: int = 8, batch: int = BATCH) -> int:
    """Create ``games`` finished 2-4 player games between ``player`` and some of ``opponents``
    (users), one every 10 minutes from 2024-01-01, with random variants and places. Returns the
    number of games created."""
    rng = random.Random(seed)
    variants = sorted(VARIANTS)
    made = 0
    while made < games:
        count = min(batch, games - made)
        with transaction.atomic():
            plans = []
            for i in range(count):
                players = rng.choice((2, 2, 3, 4))
                table = [player] + rng.sample(opponents, players - 1)
                places = list(range(1, players + 1))
                rng.shuffle(places)
                finished = START + timedelta(minutes=10 * (made + i))
                plans.append((rng.choice(variants), table, places, finished))
            rows = Game.objects.bulk_create(
                Game(variant=variant, players=len(table), status=Game.Status.FINISHED, created_by=player,
                     started_at=finished - timedelta(minutes=30), finished_at=finished)
                for variant, table, _, finished in plans)
            Seat.objects.bulk_create(
                Seat(game=game, position=p, user=user, total=10 * place, place=place)
                for game, (_, table, places, _) in zip(rows, plans)
                for p, (user, place) in enumerate(zip(table, places)))
            PlayerResult.objects.bulk_create(
                PlayerResult(game=game, user=user, variant=variant, position=p, place=place, players=len(table),
                             total=10 * place, finished_at=finished, rated=True)
                for game, (variant, table, places, finished) in zip(rows, plans)
                for p, (user, place) in enumerate(zip(table, places)))
        made += count
    return made
