"""How much a card helps a hand toward melds: the computer players' measure of a hand.

A card without a rank that is not wild (a Frayzy action card, F1) helps no meld and scores 0.

This is a heuristic, not a rule: it never decides whether a meld is legal (the engine's meld
validator and legal actions do). A card scores for the sets and runs it is part of (``MELDED``)
or could grow into (pairs, neighbours and one-gap neighbours in its suit, and for a long
contract run the naturals of its suit within the run's reach), each partial meld weighted by
how many of the cards that would complete it are still live; a wild scores ``WILD``.
``Outlook`` says which meld kinds count (a Frustration contract may ask for sets only), how long
they must be, and what is live (None: every card is assumed live, as the normal player does).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import COLOURS, SUITS, Card, card_code
from ..melds import ACE_HIGH_RANK, RUN, SET, MeldRules

MELDED = 20.0
WILD = 40.0
PAIR = 6.0
NEIGHBOUR = 5.0
GAP = 3.0
WILD_BOOST = 2.0
LIVE_COPIES = 2
LONG_RUN = 5
"""A run needed this long or longer (Frustration contracts 7, 11 and 14: runs of 7, 5 and 9, R4) is
built from naturals spread over its places, the wilds filling the gaps (R8), so a card also counts
the naturals of its suit anywhere in the run's reach (``_window_worth``)."""


@dataclass(frozen=True)
class Outlook:
    """What the measure of a hand takes as given.

    Attributes:
        rules: the meld rules of the deal (for wilds, suits in sets, ace high).
        kinds: the meld kinds that count (``"set"``, ``"run"``).
        set_size / run_size: cards a set / run must have to count as made (rule S8, W7, R6, or a contract's R4).
        unseen: card code -> live copies (``knowledge.unseen``), or None to count every card live.
    """

    rules: MeldRules
    kinds: frozenset[str]
    set_size: int
    run_size: int
    unseen: Counter | None = None

    def live(self, codes: Sequence[str]) -> float:
        """Share (0..1) of the chance that one of ``codes`` still comes: 1 without an ``unseen`` count."""
        if self.unseen is None:
            return 1.0
        return min(sum(self.unseen[c] for c in codes), LIVE_COPIES) / LIVE_COPIES


def outlook_for(rules: MeldRules, unseen: Counter | None = None,
                requirements: Sequence[tuple[str, int]] = ()) -> Outlook:
    """An Outlook for ``rules``; ``requirements`` (a contract, R4) limits the kinds and sizes."""
    if not requirements:
        return Outlook(rules, frozenset({SET, RUN}), rules.set_min, rules.run_min, unseen)
    sizes = {kind: min(size for k, size in requirements if k == kind) for kind, _ in requirements}
    return Outlook(rules, frozenset(sizes), sizes.get(SET, rules.set_min), sizes.get(RUN, rules.run_min), unseen)


def _set_worth(card: Card, naturals: list[Card], wilds: int, outlook: Outlook) -> float:
    others = [c for c in naturals if c.rank == card.rank and c is not card]
    rules = outlook.rules
    suits = {c.suit for c in others} - {card.suit} if rules.set_distinct_suits else None
    partners = len(suits) if suits is not None else len(others)
    if partners + 1 >= outlook.set_size:
        return MELDED
    if partners == 0:
        return 0.0
    if partners + 1 + wilds >= outlook.set_size:
        return PAIR * WILD_BOOST
    missing = [card_code(card.rank, s) for s in (COLOURS if card.is_coloured else SUITS)
               if suits is None or (s not in suits and s != card.suit)]
    return PAIR * partners * outlook.live(missing)


def run_places(rank: int, rules: MeldRules) -> tuple[int, ...]:
    """The places a card of ``rank`` can take in a run: an ace also ranks above the king when the
    rules allow it (``ACE_HIGH_RANK``, R7)."""
    return (rank, ACE_HIGH_RANK) if rank == 1 and rules.ace_high else (rank,)


def place_code(place: int, suit: str) -> str | None:
    """The code of the card at run place ``place`` (1-14) in ``suit``, or None off the ranks."""
    rank = 1 if place == ACE_HIGH_RANK else place
    return card_code(rank, suit) if 1 <= rank <= 13 else None


def _suit_places(suit: str, naturals: list[Card], rules: MeldRules) -> set[int]:
    """The run places (``run_places``) that the naturals of ``suit`` take."""
    return {place for c in naturals if c.suit == suit for place in run_places(c.rank, rules)}


def _run_worth(card: Card, places: set[int], wilds: int, outlook: Outlook) -> float:
    best = 0.0
    for place in run_places(card.rank, outlook.rules):
        low = high = place
        while low - 1 in places:
            low -= 1
        while high + 1 in places:
            high += 1
        length = high - low + 1
        if length >= outlook.run_size:
            return MELDED
        ends = [code for code in (place_code(low - 1, card.suit), place_code(high + 1, card.suit)) if code]
        worth = NEIGHBOUR * (length - 1) * outlook.live(ends) if length > 1 else 0.0
        for gap in (place - 1, place + 1):
            far = gap - 1 if gap < place else gap + 1
            code = place_code(gap, card.suit)
            if gap not in places and far in places and code:
                worth += GAP * outlook.live([code])
        if wilds and length + wilds >= outlook.run_size:
            worth *= WILD_BOOST
        best = max(best, worth)
    return best


def _window_worth(card: Card, places: set[int], outlook: Outlook) -> float:
    """``NEIGHBOUR`` for each other natural of ``card``'s suit (``places``: the run places its
    suit's naturals take) in the best window of ``outlook.run_size`` places that holds ``card``
    (distinct places: a second copy fills none)."""
    rules = outlook.rules
    size, top = outlook.run_size, ACE_HIGH_RANK if rules.ace_high else 13
    best = 0
    for place in run_places(card.rank, rules):
        for low in range(max(1, place - size + 1), min(place, top - size + 1) + 1):
            best = max(best, len(places.intersection(range(low, low + size)) - {place}))
    return min(NEIGHBOUR * best, MELDED)


def card_worth(card: Card, hand: Sequence[Card], outlook: Outlook) -> float:
    """How much ``card`` (one of ``hand``) helps ``hand`` toward melds of ``outlook.kinds``."""
    rules = outlook.rules
    if rules.is_wild(card):
        return WILD
    if not card.has_rank:
        return 0.0
    naturals = [c for c in hand if c.has_rank and not rules.is_wild(c)]
    wilds = sum(1 for c in hand if rules.is_wild(c))
    worth = 0.0
    if SET in outlook.kinds:
        worth += _set_worth(card, naturals, wilds, outlook)
    if RUN in outlook.kinds:
        places = _suit_places(card.suit, naturals, rules)
        run = _run_worth(card, places, wilds, outlook)
        if outlook.run_size >= LONG_RUN and run < MELDED:
            run = max(run, _window_worth(card, places, outlook))
        worth += run
    return worth


