"""``manage.py bot_tournament``: two computer levels head to head, engine only, one JSON object out."""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from games.engine.bots import LEVELS
from games.engine.bots.tournament import Match
from games.engine.variants import VARIANTS


class Command(BaseCommand):
    help = ("Play computer levels A and B (or more) head to head for N deals (hands, deals or rounds) with seats "
            "and the first player alternated, and print one JSON object: {\"variant\", \"deals\", \"levels\": {LEVEL: "
            "{\"deal_share\", \"ci95\": [low, high], \"games_won\", \"decision_ms_p50\", \"decision_ms_p95\", "
            "\"decision_ms_p99\"}}}; "
            "a stalemate counts half a deal to each seat's level.")

    def add_arguments(self, parser):
        parser.add_argument("--variant", choices=sorted(VARIANTS), default=next(iter(VARIANTS)))
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument("--deals", type=int, default=100)
        parser.add_argument("--seed", default="1")
        parser.add_argument("--levels", default="strong,normal",
                            help="two or more levels, e.g. strong,normal; a level listed twice takes two seats")
        parser.add_argument("--expert-time-ms", type=float, default=None,
                            help="the expert's time budget per decision in ms (default: its variant's)")

    def handle(self, *args, variant, players, deals, seed, levels, expert_time_ms, **options):
        chosen = levels.split(",")
        if len(set(chosen)) < 2 or any(level not in LEVELS for level in chosen):
            raise CommandError(f"--levels takes two or more different levels out of {', '.join(LEVELS)}, "
                               "e.g. strong,normal (a level listed twice takes two seats: strong,normal,normal)")
        if len(chosen) > players:
            raise CommandError(f"--levels lists {len(chosen)} seats for a table of {players}")
        minimum, maximum = VARIANTS[variant].min_players, VARIANTS[variant].max_players
        if not minimum <= players <= maximum:
            raise CommandError(f"{VARIANTS[variant].title} is for {minimum}-{maximum} players")
        if deals < 1:
            raise CommandError("--deals must be at least 1")
        if expert_time_ms is not None and expert_time_ms < 0:
            raise CommandError("--expert-time-ms must be 0 or more")
        self.stdout.write(json.dumps(Match(variant, players, seed, chosen, expert_time_ms).play(deals)))
