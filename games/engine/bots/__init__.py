"""Computer players in three levels for every variant: ``chooser(variant, level)(view, rng, memory=None)``.

- easy: a random legal action (``random_player``).
- normal: sound greedy play (``player.ComputerPlayer``).
- strong: the greedy play informed by its memory of public events (cards gone, what other seats
  took and refused); in Standard Rummy it also takes a discard that improves its hand
  (``takes_improving``); in Wild Rummy it also plans its going out, keeping its melds in hand until it
  can go out in one turn, and it guards its discards (``STRONG_PLAY``).

Each sees only its own PlayerView and, optionally, its own ``memory.Memory`` of public events.
"""
from __future__ import annotations

from . import random_player
from .player import ComputerPlayer

LEVELS = ("easy", "normal", "strong")
STRONG_PLAY = {
    "standard": {"takes_improving": True},
    "wild": {"holds_melds": True, "guards_feeding": True},
    "frustration": {},
    "frayzy": {},
}
"""What the strong level adds to the informed greedy play in each variant, as measured with
``manage.py bot_tournament`` (docs/computer-players.md): keeping melds in hand until it can go
out, and guarding against feeding the next player, win deals in Wild Rummy; in Standard Rummy
holding won slightly more deals but lost most games on penalty points (S13) and the guard lost
deals; in Frustration Rummy (a contract goes down whole, R10) and Frayzy (Draw 5 cards, F14)
both lost deals. Taking a discard that improves the hand won deals in Standard Rummy (51.8% against
47.7% before, 500 deals), made no measurable difference in Frustration Rummy, and in Frayzy its
matches ran several times longer (longer deals) and were stopped unmeasured, so it is used in
Standard Rummy only."""


def chooser(variant: str, level: str = "normal"):
    """The choose function of ``level`` for ``variant``: ``choose(view, rng, memory=None) -> Action``.

    Raises ValueError for an unknown level."""
    if level == "easy":
        return random_player.choose
    if level == "normal":
        return ComputerPlayer(variant)
    if level == "strong":
        return ComputerPlayer(variant, informed=True, **STRONG_PLAY.get(variant, {}))
    raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}")
