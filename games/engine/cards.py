"""Playing cards: identity, the rule book's notation, and deck builders.

Notation (RULES.md, "Card notation"): rank ``A 2 .. 10 J Q K`` followed by suit ``C D H S``,
e.g. ``AS``, ``10H``, ``QC``; the joker is ``JK``. Copies of the same card in multi-deck games
are told apart by ``copy`` (a storage id), never by notation.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

SUITS = ("C", "D", "H", "S")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RED_SUITS = frozenset({"D", "H"})
JOKER = "JK"
_RANK_VALUES = {name: value for value, name in enumerate(RANKS, start=1)}


@dataclass(frozen=True, order=True)
class Card:
    """One physical card.

    Attributes:
        code: the card's notation, e.g. ``"10H"`` or ``"JK"``.
        copy: 0 for the first deck, 1 for the second, ... (two-deck games only).
    """

    code: str
    copy: int = 0

    @property
    def key(self) -> str:
        """Unique id of this physical card within a deal: ``"10H"``, or ``"10H~1"`` for a second copy."""
        return self.code if self.copy == 0 else f"{self.code}~{self.copy}"

    @property
    def is_joker(self) -> bool:
        """True for a joker (``JK``)."""
        return self.code == JOKER

    @property
    def rank(self) -> int:
        """Rank as a number: A=1, 2..10, J=11, Q=12, K=13. Raises ValueError for a joker."""
        if self.is_joker:
            raise ValueError("a joker has no rank")
        return _RANK_VALUES[self.code[:-1]]

    @property
    def rank_name(self) -> str:
        """Rank as written in notation: ``"A"``, ``"10"``, ``"K"``; empty for a joker."""
        return "" if self.is_joker else self.code[:-1]

    @property
    def suit(self) -> str:
        """Suit letter ``C``/``D``/``H``/``S``; empty for a joker."""
        return "" if self.is_joker else self.code[-1]

    def __str__(self) -> str:
        return self.code


def parse_card(key: str) -> Card:
    """Parse a card key (``"QC"``, ``"10H"``, ``"JK"``, ``"AS~1"``) into a Card.

    A key has one spelling: a first copy is written bare, a later copy as ``~N`` with N >= 1.

    Raises:
        ValueError: the text is not a card of the French-suited deck.
    """
    code, tilde, copy_text = key.partition("~")
    copy = int(copy_text) if copy_text.isdigit() and copy_text[0] != "0" else 0
    if (tilde and copy == 0) or not (code == JOKER or (code[:-1] in _RANK_VALUES and code[-1:] in SUITS)):
        raise ValueError(f"not a card: {key!r}")
    return Card(code, copy)


def card_code(rank: int, suit: str) -> str:
    """Notation for rank 1..13 and suit letter, e.g. ``card_code(10, "H") == "10H"``."""
    return f"{RANKS[rank - 1]}{suit}"


def standard_deck(decks: int = 1, jokers: int = 0) -> list[Card]:
    """Build an unshuffled deck of ``decks`` x 52 cards plus ``jokers`` jokers (rules S1, W1, R1).

    Copies of the same card get copy numbers 0, 1, ... in order.
    """
    cards = [Card(card_code(rank, suit), copy)
             for copy in range(decks) for suit in SUITS for rank in range(1, 14)]
    cards += [Card(JOKER, copy) for copy in range(jokers)]
    return cards


def shuffled(cards: list[Card], seed: str) -> list[Card]:
    """Return a new list with ``cards`` shuffled by a generator seeded with ``seed`` (reproducible)."""
    order = list(cards)
    random.Random(seed).shuffle(order)
    return order


def sort_by_suit(cards: list[Card]) -> list[Card]:
    """Sort for display: by suit (C, D, H, S), then rank; jokers last."""
    return sorted(cards, key=lambda c: (c.is_joker, c.suit, 0 if c.is_joker else c.rank, c.copy))


def sort_by_rank(cards: list[Card]) -> list[Card]:
    """Sort for display: by rank (A..K), then suit; jokers last."""
    return sorted(cards, key=lambda c: (c.is_joker, 0 if c.is_joker else c.rank, c.suit, c.copy))
