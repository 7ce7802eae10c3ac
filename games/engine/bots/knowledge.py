"""What a computer player may know about the cards it cannot see, from its view and its memory.

``unseen`` counts, per card code, the copies that could still come from the stock: the variant's
deck as the table was dealt it (the variant object with the table's options: its one deck builder)
less the seat's own hand, the melds on the table, the discard pile as
remembered and the cards other seats took from it (they hold them). No hidden state is read.
"""
from __future__ import annotations

from collections import Counter
from functools import cache

from ..melds import MeldRules
from ..state import PlayerView
from .memory import Memory


@cache
def deck_codes(variant) -> Counter:
    """Copies of each card code in one deal's deck of ``variant`` (a variant object with its table
    options, e.g. 2 of each in Frustration, R1, or a Frayzy table's own card counts, F1)."""
    return Counter(card.code for card in variant.deck())


def meld_rules(variant, view: PlayerView) -> MeldRules:
    """The meld rules in force in the deal ``view`` shows, for ``variant`` (a variant object).
    Variants choose them from the deal's public wild rank alone (W3), which the view carries under
    the same name as the deal."""
    return variant.meld_rules_for(view)


def unseen(variant, view: PlayerView, memory: Memory | None) -> Counter:
    """Card code -> copies ``view.seat`` has not seen anywhere and no other seat is known to hold."""
    visible = Counter(c.code for c in view.hand)
    visible.update(c.code for meld in view.melds for c in meld.shape.cards)
    if memory is not None:
        public = Counter(c.code for meld in view.melds for c in meld.shape.cards) + memory.gone()
        visible += memory.gone()
        held = Counter()
        for seat, codes in memory.taken.items():
            if seat != view.seat:
                held.update(codes)
        visible += held - public
    elif view.discard_top is not None:
        visible[view.discard_top.code] += 1
    return deck_codes(variant) - visible
