"""Candidate melds: every legal new meld a hand can make, for the legal-action lists and the bots.

The melds are read by the one validator (``melds.meld_readings``) under the variant's MeldRules;
this module only chooses which groups of cards are worth reading.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .cards import Card
from .melds import ACE_HIGH_RANK, RUN, SET, MeldRules, MeldShape, meld_readings


def candidate_melds(hand: Sequence[Card], rules: MeldRules, taken: Card | None = None) -> list[MeldShape]:
    """Every legal new meld that can be made from ``hand`` (for legal-action lists and bots).

    Without wilds in hand: every combination of ``set_min``..``set_max`` cards of one rank with
    distinct suits, and every unbroken stretch of ``run_min`` or more cards of one suit. With wilds:
    every reading (``meld_readings``) of every group of cards from the hand; where a meld holds at
    most one wild (F11) only groups that one wild can complete are read, so that big hands stay
    cheap. Cards that can never be melded (F11: action cards) are left out.

    A run takes one copy of each card, and a one-wild meld the hand's first wild: copies of a card
    play alike, except ``taken``, the card taken from the discard pile this turn (0.4a). A meld
    holding a copy of it is also given with ``taken`` in that copy's place, and the other way
    round, since the copy left in hand decides what may be discarded.
    """
    hand = [c for c in hand if rules.can_meld(c)]
    wilds = [c for c in hand if rules.is_wild(c)]
    if wilds and rules.max_wilds == 1:
        naturals = [c for c in hand if not rules.is_wild(c)]
        found = _natural_candidates(naturals, rules) + _one_wild_candidates(naturals, wilds[0], rules)
    elif wilds:
        found = _wild_candidates(hand, rules)
    else:
        found = _natural_candidates(hand, rules)
    twin = next((c for c in hand if taken is not None and c.code == taken.code and c != taken), None)
    if twin is None or taken not in hand:
        return found
    return _with_either_copy(found, taken, twin)


def _with_either_copy(found: list[MeldShape], taken: Card, twin: Card) -> list[MeldShape]:
    """``found`` and, for each meld holding one of ``taken`` and ``twin`` (two copies of a card),
    the same meld with the other one, each meld once."""
    swap = {taken: twin, twin: taken}
    seen = {(frozenset(shape.cards), frozenset(shape.wilds)) for shape in found}
    more: list[MeldShape] = []
    for shape in found:
        if (taken in shape.cards) == (twin in shape.cards):
            continue
        other = MeldShape(shape.kind, tuple(swap.get(c, c) for c in shape.cards),
                          tuple((swap.get(w, w), code) for w, code in shape.wilds))
        key = (frozenset(other.cards), frozenset(other.wilds))
        if key not in seen:
            seen.add(key)
            more.append(other)
    return found + more


def _natural_candidates(hand: Sequence[Card], rules: MeldRules) -> list[MeldShape]:
    found: list[MeldShape] = []
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, dict[int, Card]] = {}
    for card in hand:
        by_rank.setdefault(card.rank, []).append(card)
        by_suit.setdefault(card.suit, {}).setdefault(card.rank, card)
    for cards in by_rank.values():
        biggest = len(cards) if rules.set_max is None else min(rules.set_max, len(cards))
        for size in range(rules.set_min, biggest + 1):
            for combo in combinations(cards, size):
                if not rules.set_distinct_suits or len({c.suit for c in combo}) == size:
                    found.append(MeldShape(SET, combo))
    top = ACE_HIGH_RANK if rules.ace_high else rules.run_top
    for ranks in by_suit.values():
        for low in range(1, top + 1):
            stretch: list[Card] = []
            for rank in range(low, top + 1):
                card = ranks.get(1 if rank == ACE_HIGH_RANK else rank)
                if card is None:
                    break
                stretch.append(card)
                if len(stretch) >= rules.run_min:
                    found.append(MeldShape(RUN, tuple(stretch)))
    return found


def _wild_candidates(hand: Sequence[Card], rules: MeldRules) -> list[MeldShape]:
    found: list[MeldShape] = []
    smallest = min(rules.set_min, rules.run_min)
    for size in range(smallest, len(hand) + 1):
        for combo in combinations(hand, size):
            naturals = [c for c in combo if not rules.is_wild(c)]
            if len({c.rank for c in naturals}) > 1 and len({c.suit for c in naturals}) > 1:
                continue
            found += meld_readings(combo, rules)[0]
    return found


def _one_wild_candidates(naturals: Sequence[Card], wild: Card, rules: MeldRules) -> list[MeldShape]:
    """Every reading of ``wild`` with a group of ``naturals`` it completes: same-rank groups (sets),
    and one card per rank of a suit over a stretch with at most one gap (runs; aces low), the gap
    also made by leaving a held card out (R1 W=R2 R3 with R2 in hand, F11)."""
    found: list[MeldShape] = []
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, dict[int, Card]] = {}
    for card in naturals:
        by_rank.setdefault(card.rank, []).append(card)
        by_suit.setdefault(card.suit, {}).setdefault(card.rank, card)
    for cards in by_rank.values():
        biggest = len(cards) if rules.set_max is None else min(rules.set_max - 1, len(cards))
        for size in range(max(rules.set_min - 1, rules.min_naturals), biggest + 1):
            for combo in combinations(cards, size):
                found += meld_readings((*combo, wild), rules, SET)[0]
    for ranks in by_suit.values():
        held = sorted(ranks)
        for i, low in enumerate(held):
            for high in held[i + 1:]:
                present = [r for r in held if low <= r <= high]
                if high - low + 1 - len(present) > 1:
                    break
                if len(present) + 1 >= rules.run_min:
                    found += meld_readings((*(ranks[r] for r in present), wild), rules, RUN)[0]
                if len(present) == high - low + 1 and len(present) >= rules.run_min:
                    found += [shape for left_out in present[1:-1] for shape in
                              meld_readings((*(ranks[r] for r in present if r != left_out), wild), rules, RUN)[0]]
    return found
