"""Playing cards: identity, the rule book's notation, and deck builders.

Notation (RULES.md, "Card notation"): rank ``A 2 .. 10 J Q K`` followed by suit ``C D H S``,
e.g. ``AS``, ``10H``, ``QC``; the joker is ``JK``. Frayzy's cards: colour ``R B G Y`` followed by
the number 1-12, e.g. ``R7``, ``B12``; the Wild ``W``; the action cards ``SKIP``, ``DRAW5`` and
``DISCARD1``. A Frayzy number card's colour plays the part of a suit and its number the part of
a rank, so one meld validator reads both decks. Copies of the same card in multi-deck games are
told apart by ``copy`` (a storage id), never by notation.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

SUITS = ("C", "D", "H", "S")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RED_SUITS = frozenset({"D", "H"})
JOKER = "JK"
_RANK_VALUES = {name: value for value, name in enumerate(RANKS, start=1)}

COLOURS = ("R", "B", "G", "Y")
COLOUR_NAMES = {"R": "red", "B": "blue", "G": "green", "Y": "yellow"}
NUMBERS = tuple(str(n) for n in range(1, 13))
"""Frayzy's numbers 1-12 as written in notation (rule F1)."""
COLOUR_WILD = "W"
SKIP = "SKIP"
DRAW5 = "DRAW5"
DISCARD1 = "DISCARD1"
ACTION_CARDS = (SKIP, DRAW5, DISCARD1)
ACTION_NAMES = {SKIP: "Skip", DRAW5: "Draw 5", DISCARD1: "Discard 1"}


class _Anatomy(NamedTuple):
    is_coloured: bool
    rank: int
    rank_name: str
    suit: str


@lru_cache(maxsize=256)
def _anatomy(code: str) -> _Anatomy:
    """What a card code's notation says, read once per code (the engine and the computer players ask
    for ranks and suits millions of times): rank 0, rank name and suit empty for a card without a rank.
    Both decks hold about 100 codes; the bound keeps forged codes from growing the cache."""
    if code[:1] in COLOURS and code[1:] in NUMBERS:
        return _Anatomy(True, int(code[1:]), code[1:], code[0])
    if code[:-1] in _RANK_VALUES and code[-1:] in SUITS:
        return _Anatomy(False, _RANK_VALUES[code[:-1]], code[:-1], code[-1])
    return _Anatomy(False, 0, "", "")


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
    def is_coloured(self) -> bool:
        """True for a Frayzy number card (``R7``, ``B12``; rule F1)."""
        return _anatomy(self.code).is_coloured

    @property
    def is_action(self) -> bool:
        """True for a Frayzy action card: ``SKIP``, ``DRAW5`` or ``DISCARD1`` (rule F1)."""
        return self.code in ACTION_CARDS

    @property
    def has_rank(self) -> bool:
        """True for a card with a rank (a French card, or a Frayzy number); False for a joker,
        Frayzy's Wild and the action cards."""
        return _anatomy(self.code).rank > 0

    @property
    def rank(self) -> int:
        """Rank as a number: A=1, 2..10, J=11, Q=12, K=13; a Frayzy number 1-12.

        Raises ValueError for a card without a rank (see ``has_rank``)."""
        rank = _anatomy(self.code).rank
        if not rank:
            raise ValueError(f"{self.code} has no rank")
        return rank

    @property
    def rank_name(self) -> str:
        """Rank as written in notation: ``"A"``, ``"10"``, ``"K"``, Frayzy ``"7"``; empty without a rank."""
        return _anatomy(self.code).rank_name

    @property
    def suit(self) -> str:
        """Suit letter ``C``/``D``/``H``/``S``, or a Frayzy colour ``R``/``B``/``G``/``Y``; empty without a rank."""
        return _anatomy(self.code).suit

    def __str__(self) -> str:
        return self.code


def parse_card(key: str) -> Card:
    """Parse a card key (``"QC"``, ``"10H"``, ``"JK"``, ``"AS~1"``) into a Card.

    A key has one spelling: a first copy is written bare, a later copy as ``~N`` with N >= 1.

    Frayzy keys (``"R7"``, ``"W~3"``, ``"DRAW5~1"``) are read too.

    Raises:
        ValueError: the text is not a card of the French-suited deck or of Frayzy's deck.
    """
    code, tilde, copy_text = key.partition("~")
    copy = int(copy_text) if copy_text.isdigit() and copy_text[0] != "0" else 0
    known = (code == JOKER or (code[:-1] in _RANK_VALUES and code[-1:] in SUITS)
             or Card(code).is_coloured or code == COLOUR_WILD or code in ACTION_CARDS)
    if (tilde and copy == 0) or not known:
        raise ValueError(f"not a card: {key!r}")
    return Card(code, copy)


def card_code(rank: int, suit: str) -> str:
    """Notation for a rank and a suit or colour: ``card_code(10, "H") == "10H"``, Frayzy
    ``card_code(10, "R") == "R10"``."""
    if suit in COLOURS:
        return f"{suit}{rank}"
    return f"{RANKS[rank - 1]}{suit}"


def standard_deck(decks: int = 1, jokers: int = 0) -> list[Card]:
    """Build an unshuffled deck of ``decks`` x 52 cards plus ``jokers`` jokers (rules S1, W1, R1).

    Copies of the same card get copy numbers 0, 1, ... in order.
    """
    cards = [Card(card_code(rank, suit), copy)
             for copy in range(decks) for suit in SUITS for rank in range(1, 14)]
    cards += [Card(JOKER, copy) for copy in range(jokers)]
    return cards


def coloured_deck(copies: int = 2, wilds: int = 8, skips: int = 4, draw_fives: int = 4,
                  discard_ones: int = 4) -> list[Card]:
    """Build Frayzy's unshuffled deck (rule F1): ``copies`` of each number 1-12 in each of the four
    colours, then the Wilds and the three kinds of action card. The defaults give 116 cards."""
    cards = [Card(f"{colour}{number}", copy)
             for copy in range(copies) for colour in COLOURS for number in NUMBERS]
    for code, count in ((COLOUR_WILD, wilds), (SKIP, skips), (DRAW5, draw_fives), (DISCARD1, discard_ones)):
        cards += [Card(code, copy) for copy in range(count)]
    return cards


def shuffled(cards: list[Card], seed: str) -> list[Card]:
    """Return a new list with ``cards`` shuffled by a generator seeded with ``seed`` (reproducible)."""
    order = list(cards)
    random.Random(seed).shuffle(order)
    return order


def sort_by_suit(cards: list[Card]) -> list[Card]:
    """Sort for display: by suit (C, D, H, S) or colour, then rank; cards without a rank (jokers,
    Frayzy's Wild and action cards) last."""
    return sorted(cards, key=lambda c: (not c.has_rank, c.suit, c.rank if c.has_rank else 0, c.code, c.copy))


def sort_by_rank(cards: list[Card]) -> list[Card]:
    """Sort for display: by rank (A..K, or 1-12), then suit; cards without a rank last."""
    return sorted(cards, key=lambda c: (not c.has_rank, c.rank if c.has_rank else 0, c.suit, c.code, c.copy))
