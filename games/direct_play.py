"""What the table needs for direct play: the legal targets of a selection of hand cards, the hand
in the order the player arranged it, and a wild's reading picked for the player when the choice
cannot matter.

All of it is read from the viewer's PlayerView (its legal actions): the page offers only what the
engine lists, and the server still decides every move.
"""
from __future__ import annotations

from collections.abc import Sequence

from .engine.actions import LayContract, LayMeld, LayOff, PlayAction
from .engine.cards import Card
from .engine.melds import reading_matters
from .engine.state import PlayerView

HAND_ORDER_LIMIT = 60
"""The most card keys a saved hand order keeps (a hand never holds more)."""
KEY_LENGTH_LIMIT = 12


def play_targets(view: PlayerView) -> dict:
    """The plays the page may offer, as JSON for the table's script:
    ``{"melds": [[key, ...], ...], "layoffs": {"3": [[key, ...], ...]}, "discards": [key, ...],
    "actions": {key: "pile" | "target"}, "contract": [[key, ...], ...] | None,
    "contract_wilds": {key: code}}``. Each card list is
    one legal new meld or lay-off (any reading of its wilds, listed once); ``actions`` are Frayzy's
    action cards that may end the turn (F8): "pile" when played on the discard pile as they are
    (Skip, Discard 1), "target" when a seat must be chosen first (Draw 5); ``contract`` is one way
    to lay the Frustration contract down now (rule R10, the engine's hint), None when the hand
    cannot make it, and ``contract_wilds`` what its wilds stand for (0.3), so that the suggestion,
    sent as it is, never has to ask which reading is meant."""
    melds: dict[tuple[str, ...], None] = {}
    layoffs: dict[str, dict[tuple[str, ...], None]] = {}
    contract, contract_wilds = None, {}
    for action in view.legal_actions:
        if isinstance(action, LayMeld):
            melds[tuple(sorted(action.cards))] = None
        elif isinstance(action, LayOff):
            layoffs.setdefault(str(action.meld), {})[tuple(sorted(action.cards))] = None
        elif isinstance(action, LayContract):
            contract, contract_wilds = [list(group) for group in action.groups], dict(action.wilds)
    return {"melds": [list(cards) for cards in melds],
            "layoffs": {meld: [list(cards) for cards in plays] for meld, plays in layoffs.items()},
            "discards": [action.card for action in view.legal_actions if action.type == "discard"],
            "actions": {action.card: "pile" if action.target is None else "target"
                        for action in view.legal_actions if isinstance(action, PlayAction)},
            "contract": contract, "contract_wilds": contract_wilds}


def legal_readings(view: PlayerView, cards: Sequence[str], meld: int | None) -> list[LayMeld | LayOff]:
    """The legal actions that play exactly ``cards`` as a new meld (``meld`` None) or as a lay-off
    on meld ``meld``: one per reading of their wilds (rule 0.3)."""
    chosen = set(cards)
    if meld is None:
        return [a for a in view.legal_actions if isinstance(a, LayMeld) and set(a.cards) == chosen]
    return [a for a in view.legal_actions if isinstance(a, LayOff) and a.meld == meld and set(a.cards) == chosen]


def _reading_matters(view: PlayerView, readings: Sequence[LayMeld | LayOff]) -> bool:
    """``melds.reading_matters`` for ``readings`` (two or more of the same cards and target) of ``view``;
    True for a lay-off on a meld the view does not show."""
    first = readings[0]
    onto = None
    if isinstance(first, LayOff):
        meld = next((m for m in view.melds if m.id == first.meld), None)
        if meld is None:
            return True
        onto = meld.shape
    return reading_matters(first.cards, [reading.wilds for reading in readings], onto)


def automatic_reading(view: PlayerView, payload: dict) -> dict | None:
    """``payload`` (a ``lay_meld`` or ``lay_off`` action as JSON, its wilds undeclared) with the
    wilds of its first legal reading declared, when it has several legal readings and the choice
    does not matter (``melds.reading_matters``, rule 0.3); None when the player must choose or nothing is legal."""
    if payload.get("type") not in ("lay_meld", "lay_off") or payload.get("wilds"):
        return None
    readings = legal_readings(view, payload.get("cards", ()), payload.get("meld"))
    if len(readings) < 2 or _reading_matters(view, readings):
        return None
    return {**payload, "wilds": dict(readings[0].wilds)}


def saved_order(keys: Sequence[str]) -> list[str]:
    """A hand order sent by the page, kept as the session stores it: at most ``HAND_ORDER_LIMIT``
    short strings, the first of any repeated key kept. The keys need not be cards of the hand:
    ``arranged`` ignores any that are not."""
    kept = [key for key in keys if isinstance(key, str) and 0 < len(key) <= KEY_LENGTH_LIMIT]
    return list(dict.fromkeys(kept))[:HAND_ORDER_LIMIT]


def arranged(cards: Sequence[Card], order: Sequence[str], fallback) -> list[Card]:
    """``cards`` in the player's ``order`` (card keys); cards it does not name (new since it was
    saved: a draw, a take) follow in ``fallback`` order (a sort function such as ``sort_by_suit``)."""
    place = {key: index for index, key in enumerate(order)}
    named = sorted((c for c in cards if c.key in place), key=lambda c: place[c.key])
    return named + fallback([c for c in cards if c.key not in place])

