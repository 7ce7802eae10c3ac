"""Forms: opening a table, and turning the play form's fields into an engine action payload."""
from __future__ import annotations

from django import forms
from django.http import QueryDict

from .engine.variants import VARIANTS
from .engine.variants.standard import DEFAULT_TARGET
from .services import Refusal

LOWEST_TARGET = 50
HIGHEST_TARGET = 500
MOVE_TYPES = ("draw_stock", "take_discard", "lay_meld", "lay_off", "discard")


class NewTableForm(forms.Form):
    """Open a table: game, seats, visibility and the variant's table options."""

    variant = forms.ChoiceField(choices=[(name, v.title) for name, v in VARIANTS.items()], initial="standard")
    players = forms.TypedChoiceField(choices=[(n, f"{n} players") for n in (2, 3, 4)], coerce=int, initial=2)
    is_private = forms.BooleanField(required=False, label="Private table (join by invite link only)")
    target = forms.IntegerField(min_value=LOWEST_TARGET, max_value=HIGHEST_TARGET, initial=DEFAULT_TARGET,
                                label="Game ends when a player reaches (penalty points)")
    going_rummy = forms.BooleanField(required=False, label="Going rummy doubles penalties (rule S14)")

    def table_arguments(self) -> dict:
        """Keyword arguments for ``services.create_table``."""
        data = self.cleaned_data
        return {"variant": data["variant"], "players": data["players"], "is_private": data["is_private"],
                "options": {"target": data["target"], "going_rummy": data["going_rummy"]}}


def move_payload(post: QueryDict) -> tuple[int, dict]:
    """Read ``version`` and the action from the play form's fields.

    Fields: ``version``; ``action`` (one of MOVE_TYPES) or ``lay_off_on`` (a meld number, which
    means ``lay_off``); ``cards`` (card keys, repeated). Returns ``(version, action_json)``.

    Raises Refusal 400 when the version or the action is missing or malformed.
    """
    try:
        version = int(post.get("version", ""))
    except ValueError:
        raise Refusal(400, "malformed", "The move is missing the game version.") from None
    cards = post.getlist("cards")
    meld = post.get("lay_off_on")
    if meld is not None:
        if not (meld.isascii() and meld.isdigit()):
            raise Refusal(400, "malformed", "Choose the meld to lay off on.")
        return version, {"type": "lay_off", "meld": int(meld), "cards": cards}
    kind = post.get("action")
    if kind not in MOVE_TYPES:
        raise Refusal(400, "malformed", "Choose an action.")
    if kind == "discard":
        if len(cards) != 1:
            raise Refusal(400, "malformed", "Select exactly one card to discard.")
        return version, {"type": kind, "card": cards[0]}
    return version, {"type": kind, "cards": cards} if kind == "lay_meld" else {"type": kind}
