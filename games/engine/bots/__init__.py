"""Computer players in four levels for every variant: ``chooser(variant, level)(view, rng, memory=None)``.

- easy: a random legal action (``random_player``).
- normal: sound greedy play (``player.ComputerPlayer``).
- strong: the greedy play informed by its memory of public events (cards gone, what other seats
  took and refused) and planned by draws and outs (``efficiency``); in Standard Rummy, Wild Rummy
  and Frayzy it also keeps its melds in hand until it can go out in one turn, while the other
  seats are far from going out (each variant's ``strong_play``).
- expert: the strong level's choice checked by search over positions sampled from what it knows
  (``search.ExpertPlayer``), at the draws, discards and melds that matter, on a budget per variant
  (each variant's ``expert_search``).

Each sees only its own PlayerView and, optionally, its own ``memory.Memory`` of public events (the
normal level reads it only to avoid taking back its own discards).
"""
from __future__ import annotations

from . import random_player
from .player import ComputerPlayer
from .search import ExpertPlayer

LEVELS = ("easy", "normal", "strong", "expert")


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
        return ExpertPlayer(_strong(variant), ComputerPlayer(variant), **variant.expert_search)
    raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}")


def _strong(variant) -> ComputerPlayer:
    return ComputerPlayer(variant, informed=True, **variant.strong_play)
