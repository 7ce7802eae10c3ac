"""``manage.py bench_moves``: moves per second of the real stack against its floor, in one run
(the harness is ``tests/bench/moves.py``; README "Commands" says how to read it)."""
from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.engine.variants import VARIANTS


class Command(BaseCommand):
    help = ("Start two daphne processes for a floor app and then for the site (production settings, "
            "PostgreSQL, Redis, a job worker), drive G games of P players posting htmx moves, print JSON.")

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=16, help="games played at once (G)")
        parser.add_argument("--players", type=int, default=2, help="players per game (P); connections = G x P")
        parser.add_argument("--variant", default=next(iter(VARIANTS)), choices=sorted(VARIANTS))
        parser.add_argument("--seconds", type=float, default=15.0, help="length of each phase")
        parser.add_argument("--max-moves", type=int, default=20_000, help="moves (floor: requests) per phase at most")
        parser.add_argument("--repeat", type=int, default=1, help="floor and site phases, this many times each")
        parser.add_argument("--statement-moves", type=int, default=40,
                            help="moves counted statement by statement before the load (0: none)")
        parser.add_argument("--settle", type=float, default=10.0,
                            help="seconds after each phase before PostgreSQL's connections are counted again")
        parser.add_argument("--seed", default="bench")
        parser.add_argument("--app-dir", type=Path, default=None,
                            help="checkout whose site the servers run (default: this one), to compare versions")

    def handle(self, *args, **options):
        from tests.bench import moves

        if not 1 <= options["games"] <= 500 or not 2 <= options["players"] <= 4 or options["seconds"] > 600:
            raise CommandError("choose 1-500 games of 2-4 players and at most 600 seconds a phase")
        try:
            report = moves.run(games=options["games"], players=options["players"], variant=options["variant"],
                               seconds=options["seconds"], max_moves=options["max_moves"], repeat=options["repeat"],
                               seed=options["seed"], app_dir=(options["app_dir"] or moves.BASE_DIR).resolve(),
                               statement_moves=options["statement_moves"], settle=options["settle"])
        except RuntimeError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(report, indent=2))
