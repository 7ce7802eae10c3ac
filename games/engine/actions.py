"""Player actions as small frozen values, each with to_json/from_json.

Cards are named by their key (``"10H"``; ``"10H~1"`` for a second copy). JSON shape:
``{"type": "draw_stock"}``, ``{"type": "take_discard"}``, ``{"type": "lay_meld", "cards": [...]}``,
``{"type": "lay_off", "meld": 3, "cards": [...]}``, ``{"type": "discard", "card": "7C"}``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Union

from .errors import IllegalAction


@dataclass(frozen=True)
class DrawStock:
    """Draw the top card of the stock (rule S5)."""

    type: ClassVar[str] = "draw_stock"

    def to_json(self) -> dict:
        """Return ``{"type": "draw_stock"}``."""
        return {"type": self.type}


@dataclass(frozen=True)
class TakeDiscard:
    """Take the top card of the discard pile (rule S5)."""

    type: ClassVar[str] = "take_discard"

    def to_json(self) -> dict:
        """Return ``{"type": "take_discard"}``."""
        return {"type": self.type}


@dataclass(frozen=True)
class LayMeld:
    """Lay down a new meld from hand (rules S6, S8). ``cards``: card keys, any order."""

    cards: tuple[str, ...]
    type: ClassVar[str] = "lay_meld"

    def to_json(self) -> dict:
        """Return ``{"type": "lay_meld", "cards": [keys]}``."""
        return {"type": self.type, "cards": list(self.cards)}


@dataclass(frozen=True)
class LayOff:
    """Add cards from hand to the meld numbered ``meld`` (rule S9)."""

    meld: int
    cards: tuple[str, ...]
    type: ClassVar[str] = "lay_off"

    def to_json(self) -> dict:
        """Return ``{"type": "lay_off", "meld": n, "cards": [keys]}``."""
        return {"type": self.type, "meld": self.meld, "cards": list(self.cards)}


@dataclass(frozen=True)
class Discard:
    """Discard one card from hand to end the turn (rule S7)."""

    card: str
    type: ClassVar[str] = "discard"

    def to_json(self) -> dict:
        """Return ``{"type": "discard", "card": key}``."""
        return {"type": self.type, "card": self.card}


Action = Union[DrawStock, TakeDiscard, LayMeld, LayOff, Discard]


def _card_list(data: dict) -> tuple[str, ...]:
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards or not all(isinstance(c, str) and c for c in cards):
        raise IllegalAction("malformed", "Choose one or more cards.")
    if len(set(cards)) != len(cards):
        raise IllegalAction("malformed", "The same card was chosen twice.")
    return tuple(cards)


def action_from_json(data: object) -> Action:
    """Build an action from its JSON form.

    Raises:
        IllegalAction("malformed"): unknown type, missing or badly typed fields.
    """
    if not isinstance(data, dict):
        raise IllegalAction("malformed", "An action must be a JSON object.")
    kind = data.get("type")
    if kind == DrawStock.type:
        return DrawStock()
    if kind == TakeDiscard.type:
        return TakeDiscard()
    if kind == LayMeld.type:
        return LayMeld(_card_list(data))
    if kind == LayOff.type:
        meld = data.get("meld")
        if not isinstance(meld, int) or isinstance(meld, bool):
            raise IllegalAction("malformed", "Choose the meld to lay off on.")
        return LayOff(meld, _card_list(data))
    if kind == Discard.type:
        card = data.get("card")
        if not isinstance(card, str) or not card:
            raise IllegalAction("malformed", "Choose one card to discard.")
        return Discard(card)
    raise IllegalAction("malformed", f"Unknown action type {kind!r}.")
