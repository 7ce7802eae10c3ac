"""The move list in the rule book's card notation ("Card notation" in RULES.md).

Cards are written ``AS``, ``10H``, ``JK``; a wild on the table with what it stands for, ``JK=9H``,
``7D=9C``, ``JK=9``; a meld as its cards in order, space-separated. Copies in two-deck games are
never told apart in notation. Everything here is read from a move's action and its public events,
so a card drawn from the stock is never named.
"""
from __future__ import annotations

from dataclasses import dataclass

from .replay import LoggedMove


@dataclass(frozen=True)
class MoveLine:
    """One move of the record: its step (1-based), deal, seat, who acted and the move in notation."""

    step: int
    deal: int
    seat: int
    actor: str
    text: str


def card(key: str) -> str:
    """A card key (``"10H~1"``) in notation (``"10H"``)."""
    return key.partition("~")[0]


def meld(keys: list[str], wilds: dict[str, str] | None = None) -> str:
    """A meld's cards in notation, each wild with what it stands for: ``"9S 9H JK=9D"``."""
    wilds = wilds or {}
    return " ".join(f"{card(k)}={wilds[k]}" if k in wilds else card(k) for k in keys)


def _played(events: list[dict], kind: str) -> dict:
    return next((e for e in events if e.get("type") == kind), {})


def _card_keys(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [key for item in value for key in _card_keys(item)]
    if isinstance(value, dict):
        return [key for item in value.values() for key in _card_keys(item)]
    return []


def move_text(action: dict, events: list[dict]) -> str:
    """One move in notation, e.g. ``"draw"``, ``"take 7C"``, ``"meld 9S 9H JK=9D"``, ``"lay off 7D
    on 3"``, ``"swap 9C for 7D=9C on 2"``, ``"discard 7C"``, ``"contract 5: 5S 5H JK=5 | 4D 5D 6D 7D"``.

    An action type this module does not know (a variant added later) is written as its type and
    the cards it names."""
    kind = action.get("type")
    if kind == "draw_stock":
        return "draw"
    if kind == "take_discard":
        return f"take {card(_played(events, 'take_discard').get('card', '?'))}"
    if kind == "lay_meld":
        event = _played(events, "lay_meld")
        return f"meld {meld(event.get('cards', action['cards']), event.get('wilds'))}"
    if kind == "lay_off":
        event = _played(events, "lay_off")
        return f"lay off {meld(event.get('cards', action['cards']), event.get('wilds'))} on {action['meld']}"
    if kind == "swap_wild":
        event = _played(events, "swap_wild")
        return (f"swap {card(action['card'])} for {card(event.get('wild', '?'))}={event.get('stood_for', '?')}"
                f" on {action['meld']}")
    if kind == "discard":
        return f"discard {card(action['card'])}"
    if kind == "lay_contract":
        event = _played(events, "lay_contract")
        groups = " | ".join(meld(m["cards"], m.get("wilds")) for m in event.get("melds", []))
        return f"contract {event.get('contract', '?')}: {groups}"
    keys = " ".join(card(key) for key in _card_keys({k: v for k, v in action.items() if k != "type"}))
    return f"{str(kind).replace('_', ' ')} {keys}".strip()


def move_lines(moves: list[LoggedMove], drawn: dict[int, str] | None = None) -> list[MoveLine]:
    """The move list of a game: one MoveLine per logged move. ``drawn`` (step -> card key, only
    once the game is over and everything is face up) names the card of each stock draw:
    ``"draw 7C"``."""
    drawn = drawn or {}
    return [MoveLine(m.step, m.deal, m.seat, m.actor,
                     f"draw {card(drawn[m.step])}" if m.step in drawn else move_text(m.action, m.events))
            for m in moves]
