"""Choosing which of the legal new melds to lay first, so that the most cards leave the hand.

Two melds listed by the engine may share cards (a card in both a set and a run). ``best_meld``
picks the meld that starts the packing of disjoint melds covering the most cards, preferring
melds that use fewer wilds (a wild kept in hand can still go anywhere). The search looks at the
longest ``MELD_LIMIT`` melds and packs at most ``DEPTH`` of them, so it stays cheap.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..actions import LayMeld, LayOff
from ..errors import IllegalAction
from ..melds import MeldRules, extend_meld, read_meld
from ..state import PlayerView

MELD_LIMIT = 24
DEPTH = 3
WILD_COST = 0.25


def _pack(melds: list[frozenset[str]], start: int, used: frozenset[str], depth: int) -> int:
    if depth == 0:
        return 0
    best = 0
    for index in range(start, len(melds)):
        meld = melds[index]
        if meld & used:
            continue
        best = max(best, len(meld) + _pack(melds, index + 1, used | meld, depth - 1))
    return best


def best_meld(melds: Sequence[LayMeld]) -> LayMeld:
    """The meld of ``melds`` (non-empty) that begins the largest disjoint packing; ties go to
    fewer declared wilds, then to the longer meld."""
    ranked = sorted(melds, key=lambda m: (-len(m.cards), len(m.wilds), m.cards))[:MELD_LIMIT]
    keys = [frozenset(m.cards) for m in ranked]

    def score(index: int) -> tuple[float, int]:
        covered = len(keys[index]) + _pack(keys, 0, keys[index], DEPTH - 1)
        return covered - WILD_COST * len(ranked[index].wilds), len(keys[index])

    return ranked[max(range(len(ranked)), key=score)]


def can_go_out(view: PlayerView, rules: MeldRules) -> bool:
    """True when the legal melds and lay-offs of ``view`` could take every card of the hand but at
    most one (kept to discard): a packing of the listed new melds, plus cards that lay off on the
    table or on those melds (checked with the engine's ``read_meld`` and ``extend_meld``)."""
    melds = [a for a in view.legal_actions if isinstance(a, LayMeld)]
    lay_offs = {a.cards[0] for a in view.legal_actions if isinstance(a, LayOff)}
    by_key = {c.key: c for c in view.hand}
    packed: list[LayMeld] = []
    if melds:
        used: set[str] = set()
        for meld in sorted(melds, key=lambda m: (-len(m.cards), len(m.wilds), m.cards)):
            if not used & set(meld.cards):
                packed.append(meld)
                used |= set(meld.cards)
    covered = {key for meld in packed for key in meld.cards} | lay_offs
    shapes = [read_meld([by_key[k] for k in meld.cards], rules, dict(meld.wilds)) for meld in packed]
    for card in view.hand:
        if card.key in covered:
            continue
        for shape in shapes:
            try:
                extend_meld(shape, (card,), rules)
            except IllegalAction:
                continue
            covered.add(card.key)
            break
    return len(view.hand) - len(covered) <= 1
