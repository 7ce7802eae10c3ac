"""``manage.py simulate``: play whole games between computer players through the service layer."""
from __future__ import annotations

import json
import time
from collections import Counter

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from games import services
from games.engine.variants import VARIANTS, make_variant
from games.errors import Refusal
from games.models import Game

SIMULATOR_USERNAME = "simulator"


def card_place_violations(game: Game, deck: list) -> int:
    """Count broken card invariants in ``game``'s current deal: a physical card of the deck missing,
    duplicated, or an unknown card present. 0 means every card is in exactly one place."""
    deal = game.deals.order_by("-number").first()
    rows = Counter(deal.cards.values_list("code", "copy"))
    expected = Counter((card.code, card.copy) for card in deck)
    return sum(((rows - expected) + (expected - rows)).values()) + sum(n - 1 for n in rows.values() if n > 1)


class Command(BaseCommand):
    help = ("Play G complete games with computer players in every seat through the same service layer and "
            "database as the web, check after every move that each physical card is in exactly one place, "
            "and print one JSON object of figures: games finished, moves, deals (rounds) played, games that "
            "ended at a safety limit instead of a winner (Frustration's max_rounds), errors, violations.")

    def add_arguments(self, parser):
        parser.add_argument("--variant", choices=sorted(VARIANTS), default=next(iter(VARIANTS)))
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument("--games", type=int, default=10)
        parser.add_argument("--seed", default="1")

    def handle(self, *args, variant, players, games, seed, **options):
        user, _ = get_user_model().objects.get_or_create(username=SIMULATOR_USERNAME, defaults={"is_active": False})
        deck = make_variant(variant).deck()
        totals = Counter()
        started = time.perf_counter()
        for number in range(games):
            try:
                game = services.create_table(user, variant=variant, players=players, is_private=True,
                                             creator_plays=False, seed=f"{seed}:{number}")
                for _ in range(players):
                    services.add_computer_player(user, game.pk)
                services.start_game(user, game.pk)
                while services.play_computer_turn(game.pk):
                    totals["moves"] += 1
                    totals["invariant_violations"] += card_place_violations(game, deck)
                game.refresh_from_db()
                totals["finished"] += game.status == Game.Status.FINISHED
                totals["deals"] += game.deals.count()
                last = game.moves.order_by("-ply").first()
                totals["stalled"] += any(event.get("stalled") for event in last.events) if last else 0
            except Refusal as error:
                totals["errors"] += 1
                self.stderr.write(f"game {number}: {error.code}: {error.message}")
        result = {"variant": variant, "players": players, "games": games, "finished": totals["finished"],
                  "moves": totals["moves"], "deals": totals["deals"], "stalled": totals["stalled"],
                  "errors": totals["errors"],
                  "invariant_violations": totals["invariant_violations"],
                  "seconds": round(time.perf_counter() - started, 3)}
        self.stdout.write(json.dumps(result))
