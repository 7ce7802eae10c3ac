"""Head-to-head matches between computer levels, engine only (``manage.py bot_tournament`` prints them).

Each game seed is played once for every order of the levels round the table (``seat_levels``), so
each level gets the same cards, the same first player and the same neighbours as every other: two
levels swap seats; three or four also sit in every order, as a level's place in the turn order
(whose discards it is offered, who is offered its own) sways its share of deals by itself.
Play stops once ``deals`` deals (hands, deals or rounds) have ended; a game cut short there is not
counted in ``games_won``. Each seat keeps its own ``Memory``, fed only the public events of
``GameState.apply``, and its own random generator, all derived from ``seed``, so a match is
reproducible (decision times aside). The expert's time budget per decision can be set for a match
(``expert_time_ms``), as its search deals fewer positions on a slower or busier machine.
A level may be listed more than once, to play one level against a field of another (strong,
normal, normal: one strong seat against two normal ones); its figures then count all its seats,
so its fair share of deals is its seats' share of the table.
"""
from __future__ import annotations

import itertools
import math
import random
import statistics
import time
from collections import defaultdict
from dataclasses import replace

from ..actions import Action
from ..state import GameState
from ..variants import make_variant
from . import chooser
from .memory import Memory

Z95 = 1.96


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


class Match:
    """One match: ``variant`` (a name), ``players`` seats, levels taking seats in turn;
    ``expert_time_ms``, when given, replaces the expert's time budget per decision (ms).

    ``play(deals)`` plays until ``deals`` deals have ended and returns the summary ``result()``.
    """

    def __init__(self, variant: str, players: int, seed: str, levels: list[str],
                 expert_time_ms: float | None = None):
        self.variant, self.players, self.seed = variant, players, seed
        self.levels = list(dict.fromkeys(levels))
        self.choosers = {level: chooser(make_variant(variant), level) for level in self.levels}
        if expert_time_ms is not None and "expert" in self.choosers:
            self.choosers["expert"] = replace(self.choosers["expert"], time_ms=expert_time_ms)
        self.deal_scores: dict[str, list[float]] = {level: [] for level in self.levels}
        self.games_won = {level: 0 for level in self.levels}
        self.times: dict[str, list[float]] = {level: [] for level in self.levels}
        self.deals = 0
        self.orders = list(dict.fromkeys(itertools.permutations(levels)))

    def seat_levels(self, game: int) -> list[str]:
        """The level in each seat of game number ``game`` (0-based): the games of one seed (``seed_of``)
        take the levels' orders in turn (``itertools.permutations``), seat by seat, a level taking
        a second seat when the table has more seats than levels."""
        order = self.orders[game % len(self.orders)]
        return [order[seat % len(order)] for seat in range(self.players)]

    def seed_of(self, game: int) -> str:
        """The game seed (the cards and the first player) of game number ``game``: one per
        ``len(self.orders)`` games."""
        return f"{self.seed}:{game // len(self.orders)}"

    def play(self, deals: int) -> dict:
        """Play games until ``deals`` deals have ended; return ``result()``."""
        game = 0
        while self.deals < deals:
            self.play_game(game, deals)
            game += 1
        return self.result()

    def play_game(self, game: int, deals: int) -> None:
        """Play game number ``game`` (its seed shared with the games of the same pair) until it ends
        or the match has ``deals`` deals."""
        seats = self.seat_levels(game)
        state = GameState.new(make_variant(self.variant), self.players, self.seed_of(game))
        memories = [Memory() for _ in seats]
        rngs = [random.Random(f"{self.seed}:{game}:{seat}") for seat in range(self.players)]
        while not state.finished and self.deals < deals:
            seat = state.deal.turn
            action = self.decide(seats[seat], state, seat, rngs[seat], memories[seat])
            state, events = state.apply(seat, action)
            for memory in memories:
                memory.observe(events)
            for event in events:
                if event["type"] == "hand_over":
                    self.record_deal(seats, event["winner"])
        if state.finished:
            for seat, place in enumerate(state.standings()):
                if place == 1:
                    self.games_won[seats[seat]] += 1

    def decide(self, level: str, state: GameState, seat: int, rng: random.Random, memory: Memory) -> Action:
        """``level``'s action for ``seat`` in ``state``, chosen from the seat's own view and memory
        alone, and its decision time (ms) noted; a measurement may override it to see the position."""
        start = time.perf_counter()
        action = self.choosers[level](state.player_view(seat), rng, memory)
        self.times[level].append((time.perf_counter() - start) * 1000)
        return action

    def record_deal(self, seats: list[str], winner: int | None) -> None:
        """Credit a deal: 1 to the winner's level, or a share to every seat after a stalemate."""
        self.deals += 1
        shares = defaultdict(float)
        for seat, level in enumerate(seats):
            shares[level] += (1.0 if seat == winner else 0.0) if winner is not None else 1 / len(seats)
        for level in self.levels:
            self.deal_scores[level].append(shares[level])

    def result(self) -> dict:
        """``{"variant", "deals", "levels": {level: {"deal_share", "ci95": [low, high], "games_won",
        "decision_ms_p50", "decision_ms_p95", "decision_ms_p99"}}}``; the interval is the normal approximation over
        the per-deal shares."""
        levels = {}
        for level in self.levels:
            scores = self.deal_scores[level]
            share = statistics.fmean(scores) if scores else 0.0
            spread = Z95 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.0
            levels[level] = {"deal_share": round(share, 4),
                             "ci95": [round(max(0.0, share - spread), 4), round(min(1.0, share + spread), 4)],
                             "games_won": self.games_won[level],
                             "decision_ms_p50": round(_percentile(self.times[level], 0.5), 3),
                             "decision_ms_p95": round(_percentile(self.times[level], 0.95), 3),
                             "decision_ms_p99": round(_percentile(self.times[level], 0.99), 3)}
        return {"variant": self.variant, "deals": self.deals, "levels": levels}
