"""The easy computer player: a random legal action, from its own PlayerView only."""
from __future__ import annotations

import random

from ..actions import Action
from ..state import PlayerView
from .memory import Memory


def choose(view: PlayerView, rng: random.Random, memory: Memory | None = None) -> Action:
    """Any one of ``view.legal_actions``, chosen by ``rng``; ``memory`` is not used.

    Raises ValueError when the view lists no legal action (it is not this seat's turn)."""
    if not view.legal_actions:
        raise ValueError("no legal action: not this seat's turn")
    return rng.choice(view.legal_actions)
