"""Computer players in four levels for every variant: ``chooser(variant, level)(view, rng, memory=None)``.

- easy: a random legal action (``random_player``).
- normal: sound greedy play (``player.ComputerPlayer``).
- strong: the greedy play informed by its memory of public events (cards gone, what other seats
  took and refused) and planned by draws and outs (``efficiency``); in Standard Rummy, Wild Rummy
  and Frayzy it also keeps its melds in hand until it can go out in one turn, while the other
  seats are far from going out (``STRONG_PLAY``).
- expert: the strong level's choice checked by search over positions sampled from what it knows
  (``search.ExpertPlayer``), at the draws, discards and melds that matter, on a budget per variant
  (``EXPERT_SEARCH``).

Each sees only its own PlayerView and, optionally, its own ``memory.Memory`` of public events (the
normal level reads it only to avoid taking back its own discards).
"""
from __future__ import annotations

from . import random_player
from .player import ComputerPlayer
from .search import ExpertPlayer

LEVELS = ("easy", "normal", "strong", "expert")
STRONG_PLAY = {
    "standard": {"holds_melds": True},
    "wild": {"holds_melds": True, "outs_compared": 8},
    "frayzy": {"holds_melds": True, "safe_hand": 4},
}
"""What the strong level adds per variant, as measured with ``manage.py bot_tournament``
(docs/computer-players.md): keeping melds in hand while the other seat holds more than three cards
won deals in Standard Rummy (57.6% against 50.3-51.0% without, 500 deals at seed 7) and Frayzy
(58.0% against 50.8%); in Wild Rummy, once its hand measure counted the last discard (W12), it
won 54.5% against 51.9% over 1000 deals at each of seeds 7-11, and comparing eight discards by
their outs instead of three 54.9%. In Frayzy, laying the melds once the other seat holds four
cards or fewer, not three, won 56.8% of deals over seeds 7-9 (58.2% with three) and 165 games to
normal's 94 (136 to 119): a Draw 5 or a long meld can take a hand of four out in one turn, and
melds caught in hand count against the holder (F17); in Standard Rummy it lost deals (51.4% and
55.4% at seeds 7 and 8, against 59.0% and 59.7%). A Frustration contract goes down whole anyway
(R10)."""

EXPERT_SEARCH = {
    "frayzy": {"samples": 24, "horizon": 6, "discards": 3, "confidence": 1.0, "time_ms": 250.0},
}
"""The expert's search budget per variant (``ExpertPlayer`` fields; the defaults elsewhere), chosen
by ``manage.py bot_tournament`` against strong (figures in docs/computer-players.md): in Frayzy,
more positions played on for fewer actions, three discards compared and a gain of one standard
error enough to replace the strong choice."""


def chooser(variant, level: str = "normal"):
    """The choose function of ``level`` for ``variant`` (the table's variant object, with its
    options, e.g. ``make_variant("frayzy", {"wilds": 4})``): ``choose(view, rng, memory=None) -> Action``.

    Raises ValueError for an unknown level."""
    if level == "easy":
        return random_player.choose
    if level == "normal":
        return ComputerPlayer(variant)
    if level == "strong":
        return _strong(variant)
    if level == "expert":
        return ExpertPlayer(_strong(variant), ComputerPlayer(variant), **EXPERT_SEARCH.get(variant.name, {}))
    raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}")


def _strong(variant) -> ComputerPlayer:
    return ComputerPlayer(variant, informed=True, **STRONG_PLAY.get(variant.name, {}))
