"""The contract-aware computer player for Frustration Rummy (rules R4, R10, R11).

It sees only its own PlayerView: its hand, its contract (``view.totals[seat]``), whether it laid
down this round (``view.laid_down``), the table and the top discard. It takes the discard when
that card is wild or completes its contract (``contracts.find_contract``), lays the contract as
soon as the legal actions offer it, then lays off and melds what it can, and discards the card
that helps its contract least.
"""
from __future__ import annotations

import random

from ..actions import Action, Discard, DrawStock, LayContract, LayMeld, LayOff, TakeDiscard
from ..cards import Card
from ..contracts import CONTRACTS, find_contract
from ..melds import RUN, SET
from ..state import PlayerView
from ..variants.frustration import MELD_RULES

WILD_WORTH = 100
SAME_RANK_WORTH = 3
NEAR_IN_SUIT_WORTH = 2
RUN_REACH = 2


def card_worth(card: Card, hand: tuple[Card, ...], kinds: set[str]) -> int:
    """How much ``card`` helps a contract of melds of ``kinds`` (``"set"``/``"run"``): wilds most,
    then naturals with other cards of their rank (sets) or near them in their suit (runs)."""
    if MELD_RULES.is_wild(card):
        return WILD_WORTH
    naturals = [c for c in hand if c != card and not MELD_RULES.is_wild(c)]
    worth = 0
    if SET in kinds:
        worth += SAME_RANK_WORTH * sum(1 for c in naturals if c.rank == card.rank)
    if RUN in kinds:
        worth += NEAR_IN_SUIT_WORTH * len({c.rank for c in naturals if c.suit == card.suit
                                           and 0 < abs(c.rank - card.rank) <= RUN_REACH})
    return worth


def choose(view: PlayerView, rng: random.Random) -> Action:
    """Pick an action for ``view.seat`` from ``view.legal_actions`` (see the module docstring).

    Raises:
        ValueError: the view lists no legal action (it is not this seat's turn).
    """
    actions = list(view.legal_actions)
    if not actions:
        raise ValueError("no legal action: not this seat's turn")
    seat = view.seat
    contract = view.totals[seat]
    laid = view.laid_down[seat]
    if any(isinstance(a, DrawStock) for a in actions):
        top = view.discard_top
        if TakeDiscard() in actions and top is not None and not laid and (
                MELD_RULES.is_wild(top) or find_contract((*view.hand, top), contract, MELD_RULES, top) is not None):
            return TakeDiscard()
        return DrawStock()
    for wanted in (LayContract, LayOff, LayMeld):
        plays = [a for a in actions if isinstance(a, wanted)]
        if plays:
            return rng.choice(plays)
    kinds = {kind for kind, _ in CONTRACTS[contract]}
    discards = [a for a in actions if isinstance(a, Discard)]
    by_key = {c.key: c for c in view.hand}
    return min(discards, key=lambda a: (card_worth(by_key[a.card], view.hand, kinds), rng.random()))
