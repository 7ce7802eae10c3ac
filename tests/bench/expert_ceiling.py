"""What the expert's search could win if it knew more than it may: a measurement, not a test.

Plays expert against strong, two seats alternated (``tournament.Match``), with the expert's
positions dealt one of three ways:

- ``honest``: from its own view and memory (``sampling.sample_state``), as on the site;
- ``hands``: the true hands of every seat and the true discard pile, the stock reshuffled
  (what perfect reading of the other seat's hand would give, the stock still unknown);
- ``oracle``: the true position itself, stock order included (no honest player can know it).

The gap between the three says what limits the search: the cards it cannot see, or the search
itself (its candidates and its play-outs by the normal level). Prints running figures every 25
deals and the match's ``result()`` as JSON at the end. Figures in docs/computer-players.md. Run::

    nice .venv/bin/python tests/bench/expert_ceiling.py VARIANT DEALS SEED MODE ['{"samples": 8, ...}']
"""
from __future__ import annotations

import json
import os
import random
import sys
from dataclasses import replace

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from games.engine.bots.tournament import Match  # noqa: E402
from games.engine.state import GameState  # noqa: E402

MODES = ("honest", "hands", "oracle")
REPORT_EVERY = 25


class CeilingMatch(Match):
    """A ``Match`` whose expert deals its positions by ``mode`` (module docstring)."""

    def __init__(self, variant: str, seed: str, mode: str, budget: dict):
        super().__init__(variant, 2, seed, ["expert", "strong"])
        self.position: GameState | None = None
        if mode != "honest":
            sampler = self.true_position if mode == "oracle" else self.true_hands
            budget = {**budget, "sampler": sampler}
        self.choosers["expert"] = replace(self.choosers["expert"], **budget)

    def decide(self, level, state, seat, rng, memory):
        self.position = state
        return super().decide(level, state, seat, rng, memory)

    def true_position(self, variant, view, memory, rng: random.Random) -> GameState:
        return self.position

    def true_hands(self, variant, view, memory, rng: random.Random) -> GameState:
        deal = self.position.deal
        stock = list(deal.stock)
        rng.shuffle(stock)
        return replace(self.position, deal=replace(deal, stock=stock, hands=[list(hand) for hand in deal.hands],
                                                   discard=list(deal.discard), melds=list(deal.melds)))


def main(variant: str, deals: int, seed: str, mode: str, budget: dict) -> None:
    """Play ``deals`` deals and print the running and final figures of the expert."""
    if mode not in MODES:
        raise SystemExit(f"mode must be one of {', '.join(MODES)}")
    match = CeilingMatch(variant, seed, mode, budget)
    game, reported = 0, 0
    while match.deals < deals:
        match.play_game(game, deals)
        game += 1
        if match.deals - reported >= REPORT_EVERY:
            reported = match.deals
            expert = match.result()["levels"]["expert"]
            print(match.deals, expert["deal_share"], expert["ci95"], flush=True)
    print(json.dumps(match.result()))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], json.loads(sys.argv[5]) if len(sys.argv) > 5 else {})
