"""Computer players in three levels for every variant: ``chooser(variant, level)(view, rng, memory=None)``.

- easy: a random legal action (``random_player``).
- normal: sound greedy play (``player.ComputerPlayer``).
- strong: the greedy play informed by its memory of public events (cards gone, what other seats
  took and refused) and planning its going out: it keeps its melds in hand until it can go out in
  one turn (``player.ComputerPlayer`` with ``informed`` and ``holds_melds``).

Each sees only its own PlayerView and, optionally, its own ``memory.Memory`` of public events.
"""
from __future__ import annotations

from . import random_player
from .player import ComputerPlayer

LEVELS = ("easy", "normal", "strong")


def chooser(variant: str, level: str = "normal"):
    """The choose function of ``level`` for ``variant``: ``choose(view, rng, memory=None) -> Action``.

    Raises ValueError for an unknown level."""
    if level == "easy":
        return random_player.choose
    if level == "normal":
        return ComputerPlayer(variant)
    if level == "strong":
        return ComputerPlayer(variant, informed=True, holds_melds=True)
    raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}")
