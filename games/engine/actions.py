"""Player actions as small frozen values, each with to_json/from_json.

Cards are named by their key (``"10H"``; ``"10H~1"`` for a second copy). JSON shape:
``{"type": "draw_stock"}``, ``{"type": "take_discard"}``, ``{"type": "lay_meld", "cards": [...]}``,
``{"type": "lay_off", "meld": 3, "cards": [...]}``, ``{"type": "discard", "card": "7C"}``,
``{"type": "swap_wild", "meld": 3, "card": "9C", "wild": "7D"}``,
``{"type": "lay_contract", "groups": [["5S", "5H", "JK"], ...], "wilds": {"JK": "5"}}``. A meld or lay-off holding wilds
may say what each stands for (rule 0.3): ``{"type": "lay_meld", "cards": [...], "wilds": {"7D": "9C"}}``.
Frayzy: ``{"type": "play_action", "card": "DRAW5~1", "target": 2}`` (``target`` only for Draw 5) and
``{"type": "choose_target", "target": 0}`` (a Draw 5 start card, F4); the extra discard after a
Discard 1 card is an ordinary ``discard``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

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


def _with_wilds(data: dict, wilds: tuple[tuple[str, str], ...]) -> dict:
    return {**data, "wilds": dict(wilds)} if wilds else data


@dataclass(frozen=True)
class LayMeld:
    """Lay down a new meld from hand (rules S6, S8, W7-W9). ``cards``: card keys, any order.

    ``wilds``: ``(wild key, what it stands for)`` pairs, sorted by key (rule 0.3); empty when the
    meld holds no wild or its one reading is meant.
    """

    cards: tuple[str, ...]
    wilds: tuple[tuple[str, str], ...] = ()
    type: ClassVar[str] = "lay_meld"

    def to_json(self) -> dict:
        """Return ``{"type": "lay_meld", "cards": [keys]}`` plus ``"wilds": {key: code}`` when declared."""
        return _with_wilds({"type": self.type, "cards": list(self.cards)}, self.wilds)


@dataclass(frozen=True)
class LayOff:
    """Add cards from hand to the meld numbered ``meld`` (rules S9, W10); ``wilds`` as in LayMeld."""

    meld: int
    cards: tuple[str, ...]
    wilds: tuple[tuple[str, str], ...] = ()
    type: ClassVar[str] = "lay_off"

    def to_json(self) -> dict:
        """Return ``{"type": "lay_off", "meld": n, "cards": [keys]}`` plus ``"wilds"`` when declared."""
        return _with_wilds({"type": self.type, "meld": self.meld, "cards": list(self.cards)}, self.wilds)


@dataclass(frozen=True)
class SwapWild:
    """Replace a wild in the meld numbered ``meld`` with the natural ``card`` from hand (rule W11).

    ``wild``: the key of the wild that comes out, needed only when two wilds of a set could.
    """

    meld: int
    card: str
    wild: str | None = None
    type: ClassVar[str] = "swap_wild"

    def to_json(self) -> dict:
        """Return ``{"type": "swap_wild", "meld": n, "card": key}`` plus ``"wild": key`` when chosen."""
        data = {"type": self.type, "meld": self.meld, "card": self.card}
        return {**data, "wild": self.wild} if self.wild else data


@dataclass(frozen=True)
class Discard:
    """Discard one card from hand to end the turn (rule S7)."""

    card: str
    type: ClassVar[str] = "discard"

    def to_json(self) -> dict:
        """Return ``{"type": "discard", "card": key}``."""
        return {"type": self.type, "card": self.card}


@dataclass(frozen=True)
class LayContract:
    """Lay down the whole current contract in one action (rule R10).

    ``groups``: one tuple of card keys per meld the contract requires, in the contract's order
    (e.g. contract 3: set, set, run); an empty group is the variant's to refuse, naming it (R10).
    ``wilds``: ``(wild key, what it stands for)`` pairs over all groups, sorted by key (0.3); needed
    only where a wild has more than one reading.
    """

    groups: tuple[tuple[str, ...], ...]
    wilds: tuple[tuple[str, str], ...] = ()
    type: ClassVar[str] = "lay_contract"

    def to_json(self) -> dict:
        """Return ``{"type": "lay_contract", "groups": [[keys], ...]}`` plus ``"wilds"`` when declared."""
        return _with_wilds({"type": self.type, "groups": [list(g) for g in self.groups]}, self.wilds)


@dataclass(frozen=True)
class PlayAction:
    """End the turn by playing the action card ``card`` from hand (rules F8, F14).

    ``target``: the seat (0..n-1, the player's own included) that draws 5 cards; given for a Draw 5
    card only, None for Skip and Discard 1.
    """

    card: str
    target: int | None = None
    type: ClassVar[str] = "play_action"

    def to_json(self) -> dict:
        """Return ``{"type": "play_action", "card": key}`` plus ``"target": seat`` for a Draw 5."""
        data = {"type": self.type, "card": self.card}
        return data if self.target is None else {**data, "target": self.target}


@dataclass(frozen=True)
class ChooseTarget:
    """A Draw 5 start card (rule F4): the dealer picks the seat ``target`` (themselves included) that draws 5."""

    target: int
    type: ClassVar[str] = "choose_target"

    def to_json(self) -> dict:
        """Return ``{"type": "choose_target", "target": seat}``."""
        return {"type": self.type, "target": self.target}


Action = DrawStock | TakeDiscard | LayMeld | LayOff | SwapWild | Discard | LayContract | PlayAction | ChooseTarget


def _seat_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def distinct_card_keys(keys: tuple[str, ...]) -> tuple[str, ...]:
    """``keys`` when they name at least one card and no card twice.

    Raises IllegalAction("malformed", rule 0.7): no card, or a card named twice (a meld of one
    physical card three times is no meld)."""
    if not keys:
        raise IllegalAction("malformed", "Choose one or more cards.", "0.7")
    if len(set(keys)) != len(keys):
        raise IllegalAction("malformed", "The same card was chosen twice.", "0.7")
    return keys


def _card_list(data: dict) -> tuple[str, ...]:
    cards = data.get("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) and c for c in cards):
        raise IllegalAction("malformed", "Choose one or more cards.", "0.7")
    return distinct_card_keys(tuple(cards))


def _wild_list(data: dict, cards: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    wilds = data.get("wilds", {})
    if not isinstance(wilds, dict) or not all(isinstance(k, str) and isinstance(v, str) and v
                                              for k, v in wilds.items()):
        raise IllegalAction("malformed", "Say what each wild stands for as card notation, e.g. {\"7D\": \"9C\"}.")
    if any(key not in cards for key in wilds):
        raise IllegalAction("malformed", "A declared wild must be one of the cards played.")
    return tuple(sorted(wilds.items()))


def _meld_number(data: dict, message: str) -> int:
    meld = data.get("meld")
    if not isinstance(meld, int) or isinstance(meld, bool):
        raise IllegalAction("malformed", message)
    return meld


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
        cards = _card_list(data)
        return LayMeld(cards, _wild_list(data, cards))
    if kind == LayOff.type:
        meld = _meld_number(data, "Choose the meld to lay off on.")
        cards = _card_list(data)
        return LayOff(meld, cards, _wild_list(data, cards))
    if kind == SwapWild.type:
        meld = _meld_number(data, "Choose the meld to swap a wild out of.")
        card, wild = data.get("card"), data.get("wild")
        if not isinstance(card, str) or not card or not (wild is None or (isinstance(wild, str) and wild)):
            raise IllegalAction("malformed", "Choose the natural card to swap in (and which wild comes out).")
        return SwapWild(meld, card, wild)
    if kind == LayContract.type:
        groups = data.get("groups")
        if not isinstance(groups, list) or not groups:
            raise IllegalAction("malformed", "Put the cards of your contract into its groups.", "R10")
        keys = tuple(() if group == [] else _card_list({"cards": group}) for group in groups)
        everything = tuple(key for group in keys for key in group)
        if len(set(everything)) != len(everything):
            raise IllegalAction("malformed", "The same card was chosen twice: a card can be in only one group.",
                                "R10")
        return LayContract(keys, _wild_list(data, everything))
    if kind == PlayAction.type:
        card, target = data.get("card"), data.get("target")
        if not isinstance(card, str) or not card or not (target is None or _seat_number(target)):
            raise IllegalAction("malformed", "Choose an action card to play (and, for Draw 5, the seat that draws).")
        return PlayAction(card, target)
    if kind == ChooseTarget.type:
        target = data.get("target")
        if not _seat_number(target):
            raise IllegalAction("malformed", "Choose the player who draws 5.", "F4")
        return ChooseTarget(target)
    if kind == Discard.type:
        card = data.get("card")
        if not isinstance(card, str) or not card:
            raise IllegalAction("malformed", "Choose one card to discard.")
        return Discard(card)
    raise IllegalAction("malformed", f"Unknown action type {kind!r}.")
