"""The simple computer player: a legal move chosen at random, melding whenever it can.

It sees only its own PlayerView (design: "Bots are functions of a player view and an RNG").
"""
from __future__ import annotations

import random

from ..actions import Action, Discard, DrawStock, LayMeld, LayOff, SwapWild, TakeDiscard
from ..state import PlayerView

TAKE_DISCARD_CHANCE = 0.25


def choose(view: PlayerView, rng: random.Random) -> Action:
    """Pick an action for ``view.seat`` from ``view.legal_actions``.

    Draws from the stock (sometimes takes the discard), then lays any meld, lay-off or wild swap
    it can (each legal action already says what its wilds stand for, and keeps the turn able to
    end, 0.5), then discards a random allowed card.

    Raises:
        ValueError: the view lists no legal action (it is not this seat's turn).
    """
    actions = list(view.legal_actions)
    if not actions:
        raise ValueError("no legal action: not this seat's turn")
    draws = [a for a in actions if isinstance(a, (DrawStock, TakeDiscard))]
    if draws:
        takes = [a for a in draws if isinstance(a, TakeDiscard)]
        return takes[0] if takes and rng.random() < TAKE_DISCARD_CHANCE else DrawStock()
    plays = [a for a in actions if isinstance(a, (LayMeld, LayOff, SwapWild))]
    if plays:
        return rng.choice(plays)
    return rng.choice([a for a in actions if isinstance(a, Discard)])
