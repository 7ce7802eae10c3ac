"""``manage.py verify_game_export FILE``: replay an exported game through the engine."""
from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from records.export import verify_export


class Command(BaseCommand):
    help = ("Replay a game export (docs/export-format.md) through the rules engine and report whether it "
            "reproduces the recorded result and every deal's shuffle commitment. Exit status 1 on a mismatch.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="the export, a JSON file ('-' reads standard input)")

    def handle(self, *args, **options):
        path = options["file"]
        try:
            if path == "-":
                data = json.load(sys.stdin)
            else:
                with open(path, encoding="utf-8") as handle:
                    data = json.load(handle)
        except (OSError, json.JSONDecodeError) as error:
            raise CommandError(f"Cannot read {path}: {error}") from None
        if not isinstance(data, dict):
            raise CommandError(f"{path} is not a JSON object.")
        report = verify_export(data)
        self.stdout.write(f"Game {data.get('game', '?')} ({data.get('variant', '?')}): replayed {report.deals} deals, "
                          f"{report.moves} moves.")
        for number in report.commitments:
            deal = next(d for d in data["deals"] if d["number"] == number)
            self.stdout.write(f"Deal {number}: seed {deal['seed']} matches commitment {deal['commitment']}.")
        if report.ok:
            self.stdout.write(self.style.SUCCESS("OK: the export reproduces the recorded result."))
            return
        for problem in report.problems:
            self.stdout.write(self.style.ERROR(problem))
        raise CommandError("MISMATCH: the export does not reproduce the recorded result.", returncode=1)
