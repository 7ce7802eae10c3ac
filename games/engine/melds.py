"""Meld validation: sets and runs, with the limits each variant sets through MeldRules.

One validator serves every variant; a variant differs only in its MeldRules (rule S8 for Standard
Rummy). Every refusal is an IllegalAction with code ``"bad_meld"`` (or ``"bad_lay_off"``), a sentence
that says what is wrong, and the rule number.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations
from dataclasses import dataclass
from typing import Sequence

from .cards import SUIT_SYMBOLS, Card
from .errors import IllegalAction

SET = "set"
RUN = "run"
ACE_HIGH_RANK = 14


@dataclass(frozen=True)
class MeldRules:
    """A variant's meld limits.

    Attributes:
        rule: rule number cited in refusals, e.g. ``"S8"``.
        set_min / set_max: card count bounds for a set (``set_max`` None = no maximum).
        set_distinct_suits: True when a set may not hold one suit twice.
        run_min: the fewest cards in a run.
        ace_high: True when an ace may also rank above the king (never both, never wrapping).
    """

    rule: str
    set_min: int = 3
    set_max: int | None = 4
    set_distinct_suits: bool = True
    run_min: int = 3
    ace_high: bool = False


@dataclass(frozen=True)
class MeldShape:
    """A checked meld: its kind (``"set"`` or ``"run"``) and its cards in table order.

    Runs are ordered from low to high rank; sets keep the order given.
    """

    kind: str
    cards: tuple[Card, ...]


def show(card: Card) -> str:
    """A card as players read it: ``"10♥"``, ``"JK"``."""
    return card.code if card.is_joker else f"{card.rank_name}{SUIT_SYMBOLS[card.suit]}"


def show_cards(cards: Sequence[Card]) -> str:
    """Cards as players read them, space-separated."""
    return " ".join(show(c) for c in cards)


def _refuse(message: str, rules: MeldRules, code: str = "bad_meld") -> IllegalAction:
    return IllegalAction(code, message, rules.rule)


def check_set(cards: Sequence[Card], rules: MeldRules) -> MeldShape:
    """Check that ``cards`` form a set under ``rules`` and return it.

    Raises:
        IllegalAction("bad_meld"): too few or too many cards, mixed ranks, or a suit twice.
    """
    if len(cards) < rules.set_min:
        raise _refuse(f"A set needs at least {rules.set_min} cards of one rank.", rules)
    if len({c.rank for c in cards}) > 1:
        raise _refuse(f"A set needs cards of one rank: {show_cards(cards)} mixes ranks.", rules)
    if rules.set_max is not None and len(cards) > rules.set_max:
        raise _refuse(f"A set has at most {rules.set_max} cards.", rules)
    if rules.set_distinct_suits:
        twice = [suit for suit, n in Counter(c.suit for c in cards).items() if n > 1]
        if twice:
            raise _refuse(f"A set needs different suits: {SUIT_SYMBOLS[twice[0]]} appears twice.", rules)
    return MeldShape(SET, tuple(cards))


def _run_order(ranks: list[int]) -> bool:
    ordered = sorted(ranks)
    return all(b - a == 1 for a, b in zip(ordered, ordered[1:]))


def check_run(cards: Sequence[Card], rules: MeldRules) -> MeldShape:
    """Check that ``cards`` (any order) form a run under ``rules``; return it ordered low to high.

    Raises:
        IllegalAction("bad_meld"): too few cards, mixed suits, a repeated rank, a gap, or an ace
        used high where aces are low only.
    """
    if len(cards) < rules.run_min:
        raise _refuse(f"A run needs at least {rules.run_min} cards of one suit in sequence.", rules)
    if len({c.suit for c in cards}) > 1:
        raise _refuse(f"A run needs cards of one suit: {show_cards(cards)} mixes suits.", rules)
    ranks = [c.rank for c in cards]
    if len(set(ranks)) < len(ranks):
        raise _refuse("A run cannot hold the same rank twice.", rules)
    if _run_order(ranks):
        return MeldShape(RUN, tuple(sorted(cards, key=lambda c: c.rank)))
    high = [ACE_HIGH_RANK if r == 1 else r for r in ranks]
    if rules.ace_high and 1 in ranks and _run_order(high):
        return MeldShape(RUN, tuple(sorted(cards, key=lambda c: ACE_HIGH_RANK if c.rank == 1 else c.rank)))
    if not rules.ace_high and 1 in ranks and 13 in ranks:
        raise _refuse("Aces are low only: a run may go A-2-3 but not Q-K-A or K-A-2.", rules)
    ordered = sorted(cards, key=lambda c: c.rank)
    gap = next((a, b) for a, b in zip(ordered, ordered[1:]) if b.rank - a.rank != 1)
    raise _refuse(f"A run needs consecutive ranks: there is a gap between {show(gap[0])} and {show(gap[1])}.", rules)


def read_meld(cards: Sequence[Card], rules: MeldRules) -> MeldShape:
    """Decide whether ``cards`` are a set or a run and check them (a new meld, e.g. rule S8).

    Returns the MeldShape. Raises IllegalAction("bad_meld") with the most telling reason.
    """
    if len(cards) < min(rules.set_min, rules.run_min):
        raise _refuse(f"A meld needs at least {min(rules.set_min, rules.run_min)} cards.", rules)
    if len({c.rank for c in cards}) == 1:
        return check_set(cards, rules)
    if len({c.suit for c in cards}) == 1:
        return check_run(cards, rules)
    raise _refuse(f"{show_cards(cards)} is not a meld: a set needs one rank and a run needs one suit.", rules)


def extend_meld(meld: MeldShape, cards: Sequence[Card], rules: MeldRules) -> MeldShape:
    """Lay off ``cards`` on ``meld``; return the grown meld (rules S9 with S8's limits).

    Raises:
        IllegalAction("bad_lay_off"): the grown meld is no longer a legal set or run.
    """
    check = check_set if meld.kind == SET else check_run
    try:
        return check([*meld.cards, *cards], rules)
    except IllegalAction as refusal:
        raise _refuse(f"{show_cards(cards)} does not fit {show_cards(meld.cards)}. {refusal.message}",
                      rules, "bad_lay_off") from None


def candidate_melds(hand: Sequence[Card], rules: MeldRules) -> list[MeldShape]:
    """Every legal new meld that can be made from ``hand`` (for legal-action lists and bots).

    Sets: every combination of ``set_min``..``set_max`` cards of one rank with distinct suits.
    Runs: every unbroken stretch of ``run_min`` or more cards of one suit.
    """
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
    top = ACE_HIGH_RANK if rules.ace_high else 13
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
