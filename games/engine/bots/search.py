"""The expert computer player: the strong level's choice, checked by search over the unseen cards.

At a decision that matters (take the top discard or draw from the stock; which card to discard,
among the strong level's best few; lay a meld or keep it in hand) the expert deals ``samples``
whole positions consistent with its own view and memory (``sampling.sample_state``: perfect
information Monte Carlo, or determinization), plays each candidate action in each of them, and
plays on with the normal level on every seat for at most ``horizon`` actions. A deal that ends
there scores 1 for going out, 0 when another seat does, a share after a stalemate; one still in
play scores each seat by how many draws it is from going out (the strong level's shortfall,
``ComputerPlayer.shortfall``): ``exp(-SHORTFALL_SCALE * shortfall)`` over the table's sum. The same
positions and random streams are used for every candidate, so the comparison is between the
actions, not the samples. Another candidate replaces the strong level's own choice only when it
does better on the same positions by more than ``confidence`` standard errors of the difference.
Every other decision is the strong level's.

It sees only its own PlayerView and its own Memory: the positions it searches are its guesses.
"""
from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..actions import Action, Discard, DrawStock, LayMeld, TakeDiscard
from ..state import GameState, PlayerView
from .memory import Memory
from .player import ComputerPlayer
from .sampling import sample_state

SHORTFALL_SCALE = 0.7
"""How much one draw from going out weighs in a position still in play (per seat, exponential)."""
CONTRACT_DRAWS = 2
"""Frustration Rummy (R10, R14): the draws a seat still needs to go out once its contract is laid,
about, added to the contract's shortfall (which counts only the draws to lay it)."""


@dataclass(frozen=True)
class ExpertPlayer:
    """The expert level: ``player(view, rng, memory=None) -> Action``, for the variant of ``strong``.

    ``strong`` makes every decision first; ``rollout`` (the normal level) plays the searched
    positions. Budget: ``samples`` positions per searched decision, each candidate played on for at
    most ``horizon`` actions, ``discards`` candidate discards; ``time_ms`` (None: no limit) stops
    dealing more positions once the decision has taken that long (the strong level's own choice
    included: past it before the first position, that choice stands). ``sampler(variant, view,
    memory, rng) -> GameState`` deals each position (``sampling.sample_state``; a measurement may
    deal the true one instead, to find what the search wins with perfect knowledge). Raises
    ValueError when the view lists no legal action."""

    strong: ComputerPlayer
    rollout: ComputerPlayer
    samples: int = 6
    horizon: int = 16
    discards: int = 2
    confidence: float = 1.645
    time_ms: float | None = 100.0
    sampler: Callable[..., GameState] = sample_state

    def __call__(self, view: PlayerView, rng: random.Random, memory: Memory | None = None) -> Action:
        started = time.perf_counter()
        ranked = self.strong.choices(view, rng, memory)
        candidates = self.candidates(view, ranked, rng)
        if len(candidates) < 2:
            return ranked[0]
        return self.search(view, candidates, rng, memory, started)

    def candidates(self, view: PlayerView, ranked: list[Action], rng: random.Random) -> list[Action]:
        """The actions worth searching, given the strong level's ``ranked`` choices (``choices``:
        its choice first): both draws when both are legal; its best ``discards`` discards when it
        discards, and the normal level's meld when the strong level keeps its melds in hand."""
        actions, first = view.legal_actions, ranked[0]
        if isinstance(first, (DrawStock, TakeDiscard)):
            return [first] + [a for a in (DrawStock(), TakeDiscard()) if a != first and a in actions]
        if not isinstance(first, Discard):
            return [first]
        found = ranked[:self.discards]
        if any(isinstance(a, LayMeld) for a in actions):
            lay = self.rollout(view, rng)
            if isinstance(lay, LayMeld):
                found.append(lay)
        return found

    def search(self, view: PlayerView, candidates: list[Action], rng: random.Random, memory: Memory | None,
               started: float) -> Action:
        """The candidate that does best over the sampled positions, paired with the strong level's
        choice (``candidates[0]``) position by position: another candidate replaces it only when its
        mean gain is more than ``confidence`` standard errors of that gain above zero (``better``);
        ``started`` is when the decision began (``time.perf_counter()``), for ``time_ms``."""
        scores: list[list[float]] = [[] for _ in candidates]
        for _ in range(self.samples):
            if self.time_ms is not None and (time.perf_counter() - started) * 1000 > self.time_ms:
                break
            seed = rng.getrandbits(64)
            state = self.sampler(self.strong.variant, view, memory, random.Random(seed))
            for index, action in enumerate(candidates):
                scores[index].append(self.play_out(state, view.seat, action, random.Random(seed + 1)))
        gains = [self.better(scores[0], other) for other in scores[1:]]
        best = max(range(len(gains)), key=lambda index: gains[index], default=None)
        return candidates[0] if best is None or gains[best] <= 0 else candidates[best + 1]

    def better(self, first: list[float], other: list[float]) -> float:
        """How much ``other`` scores above ``first`` on the same positions, on average, when that is
        more than ``confidence`` standard errors above zero; else 0."""
        gains = [b - a for a, b in zip(first, other)]
        if len(gains) < 2:
            return 0.0
        mean = statistics.fmean(gains)
        error = statistics.stdev(gains) / math.sqrt(len(gains))
        return mean if mean > self.confidence * error and mean > 0 else 0.0

    def play_out(self, state: GameState, seat: int, action: Action, rng: random.Random) -> float:
        """``seat``'s score (0..1) after ``action`` in ``state`` and at most ``horizon`` actions of the
        normal level on every seat."""
        state, events = state.apply(seat, action)
        for _ in range(self.horizon):
            ended = _deal_winner(events)
            if ended is not None:
                return ended[1] if ended[0] is None else float(ended[0] == seat)
            mover = state.deal.turn
            state, events = state.apply(mover, self.rollout(state.player_view(mover), rng))
        ended = _deal_winner(events)
        if ended is not None:
            return ended[1] if ended[0] is None else float(ended[0] == seat)
        return self.standing(state, seat)

    def standing(self, state: GameState, seat: int) -> float:
        """``seat``'s share of ``exp(-SHORTFALL_SCALE * draws)`` over every seat of ``state``, where
        ``draws`` is the seat's shortfall, plus ``CONTRACT_DRAWS`` while its contract is still to lay."""
        weights = []
        for other in range(state.players):
            view = state.player_view(other)
            contract_to_lay = self.strong.variant.has_contracts and not view.laid_down[other]
            draws = self.strong.shortfall(view) + (CONTRACT_DRAWS if contract_to_lay else 0)
            weights.append(math.exp(-SHORTFALL_SCALE * draws))
        return weights[seat] / sum(weights)


def _deal_winner(events: list[dict]) -> tuple[int | None, float] | None:
    """(winner, stalemate share) when ``events`` end a deal, else None."""
    for event in events:
        if event["type"] == "hand_over":
            return event["winner"], 1 / len(event["penalties"])
    return None
