"""``manage.py record_finished_games``: record (and rate) finished games that have no records yet,
e.g. games that finished before the records app was installed. Safe to run again."""
from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db import transaction

from games.models import Game
from records.services import record_finished_game


class Command(BaseCommand):
    help = "Write match history rows and ratings for finished games that have none, oldest first."

    def handle(self, *args, **options):
        missing = (Game.objects.filter(status=Game.Status.FINISHED, player_results__isnull=True,
                                       seats__user__isnull=False)
                   .distinct().order_by("finished_at", "pk").values_list("pk", flat=True))
        recorded = 0
        for game_id in list(missing):
            with transaction.atomic():
                game = Game.objects.select_for_update().get(pk=game_id)
                if game.player_results.exists():
                    continue
                record_finished_game(game, list(game.seats.select_related("user").order_by("position")))
                recorded += 1
        self.stdout.write(f"Recorded {recorded} finished game{'s' if recorded != 1 else ''}.")
