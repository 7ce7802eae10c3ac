"""The simple computer player: a legal move chosen at random, melding whenever it can.

It sees only its own PlayerView (design: "Bots are functions of a player view and an RNG").
"""
from __future__ import annotations

import random

from ..actions import Action, ChooseTarget, Discard, DrawStock, LayMeld, LayOff, PlayAction, SwapWild, TakeDiscard
from ..state import PlayerView

TAKE_DISCARD_CHANCE = 0.25
ACTION_CARD_CHANCE = 0.5


def choose(view: PlayerView, rng: random.Random) -> Action:
    """Pick an action for ``view.seat`` from ``view.legal_actions``.

    Draws from the stock (sometimes takes the discard), then lays any meld, lay-off or wild swap
    it can (each legal action already says what its wilds stand for, and keeps the turn able to
    end, 0.5), then ends the turn: in Frayzy it plays an action card half the time it holds one
    (a Draw 5 or a Draw 5 start card aimed at another player, F4, F14), otherwise it discards a
    random allowed card (also the extra discard of a Discard 1).

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
    aimed = [a for a in actions if isinstance(a, (ChooseTarget, PlayAction)) and a.target != view.seat]
    targets = [a for a in aimed if isinstance(a, ChooseTarget)]
    if targets:
        return rng.choice(targets)
    plays = [a for a in actions if isinstance(a, (LayMeld, LayOff, SwapWild))]
    if plays:
        return rng.choice(plays)
    action_cards = [a for a in aimed if isinstance(a, PlayAction)]
    discards = [a for a in actions if isinstance(a, Discard)]
    if action_cards and (not discards or rng.random() < ACTION_CARD_CHANCE):
        return rng.choice(action_cards)
    return rng.choice(discards)
