"""Forms: opening a table, and turning the play form's fields into an engine action payload."""
from __future__ import annotations

from django import forms
from django.http import QueryDict

from .engine.cards import DRAW5
from .engine.variants import VARIANTS
from .engine.variants.base import TableOption
from .errors import Refusal
from .models import DAY, TIME_PER_MOVE_CHOICES, Seat

MELD_NUMBER_DIGITS = 4
MOVE_TYPES = ("draw_stock", "take_discard", "lay_meld", "lay_off", "discard", "lay_contract")
"""Moves sent as ``action=<type>``; action cards (F14) come as ``play_card`` and ``choose_target`` fields."""
MOVE_FIELDS = ("play_card", "choose_target", "swap", "reading", "lay_off_on", "action")
"""The play form's fields that each name a move: each is a submit button's, so a POST carries one of them."""
GROUP_FIELD = "group:"
STANDS_FIELD = "stands:"
MAX_GROUPS = 4
SEAT_DIGITS = 2
CONTRACT_READING = "contract"
"""``reading=contract/<wilds>``: a reading chosen for the lay-contract form (0.3)."""


def option_field(option: TableOption, title: str) -> forms.Field:
    """The lobby form's field for a variant's table ``option`` (``title``: the variant's), labelled
    ``"<title>: <label>"``: a whole number within its bounds, a choice, or a checkbox."""
    label = f"{title}: {option.label}"
    if option.choices:
        return forms.TypedChoiceField(choices=option.choices, coerce=int, initial=option.default, required=False,
                                      empty_value=option.default, label=label)
    if isinstance(option.default, bool):
        return forms.BooleanField(required=False, initial=option.default or None, label=label)
    return forms.IntegerField(min_value=option.low, max_value=option.high, initial=option.default, required=False,
                              label=label)


class NewTableForm(forms.Form):
    """Open a table: game, seats, visibility and the chosen variant's table options (each
    variant's ``table_options``, one field each, after the visibility)."""

    variant = forms.ChoiceField(choices=(), initial=next(iter(VARIANTS)))
    players = forms.TypedChoiceField(choices=[(n, f"{n} players") for n in (2, 3, 4)], coerce=int, initial=2)
    is_private = forms.BooleanField(required=False, label="Private table (join by invite link only)")
    time_per_move = forms.TypedChoiceField(choices=TIME_PER_MOVE_CHOICES, coerce=int, initial=DAY,
                                           required=False, empty_value=DAY,
                                           label="Time per move (then the computer plays the turn)")
    absence_stops_clock = forms.BooleanField(required=False, initial=True,
                                             label="A player's clock stops while they are away (declared absence)")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["variant"].choices = [(name, v.title) for name, v in VARIANTS.items()]
        order = ["variant", "players", "is_private"]
        for name, variant in VARIANTS.items():
            for option in variant.table_options:
                field = self.fields[option.field] = option_field(option, variant.title)
                # The lobby page shows a variant's options only while that variant is chosen (static/js/lobby.js).
                field.widget.attrs["data-variant-option"] = name
                order.append(option.field)
        self.order_fields(order)

    def clean(self):
        """Only the chosen variant's options count: another game's option (sent by a page without
        JavaScript, where every option shows) is ignored, never a reason to refuse the table."""
        data = super().clean()
        chosen = data.get("variant")
        if chosen:
            for name, variant in VARIANTS.items():
                if name != chosen:
                    for option in variant.table_options:
                        self._errors.pop(option.field, None)
                        data[option.field] = None
        return data

    def table_arguments(self) -> dict:
        """Keyword arguments for ``services.create_table``; only the chosen variant's options, a
        missing one at its default."""
        data = self.cleaned_data
        options = {option.name: option.default if data[option.field] is None else data[option.field]
                   for option in VARIANTS[data["variant"]].table_options}
        return {"variant": data["variant"], "players": data["players"], "is_private": data["is_private"],
                "options": options, "time_per_move": data["time_per_move"],
                "absence_stops_clock": data["absence_stops_clock"]}


class TypedTextField(forms.CharField):
    """Text from a textarea, counted as its writer sees it: a browser sends each line break as
    CRLF, which would count twice against ``max_length`` (and the textarea's ``maxlength``)."""

    def to_python(self, value):
        return super().to_python(value).replace("\r\n", "\n")


class ReportForm(forms.Form):
    """A player's report: ``about`` is the reported player's user id, or blank for the game itself."""

    about = forms.IntegerField(required=False, min_value=1)
    reason = TypedTextField(max_length=1000, strip=True)


class ComputerPlayerForm(forms.Form):
    """Give a seat to a computer player of a level (``Seat.BotLevel``); no level means normal."""

    level = forms.ChoiceField(choices=Seat.BotLevel.choices, initial=Seat.BotLevel.NORMAL, required=False,
                              label="Computer level", widget=forms.Select(attrs={"hx-preserve": "true"}))
    """``hx-preserve``: the level picked stays picked when the waiting room is redrawn (someone
    joins or leaves, a computer is added)."""

    def chosen_level(self) -> str:
        """The level asked for: the submitted value as is when it is not a level (the service
        refuses it with its reason), the default when none was given."""
        if self.is_valid():
            return self.cleaned_data["level"] or Seat.BotLevel.NORMAL
        return str(self.data.get("level", ""))


def _is_meld_number(text: str) -> bool:
    """True when ``text`` is a meld number as the form sends it: 1-4 ASCII digits."""
    return text.isascii() and text.isdigit() and len(text) <= MELD_NUMBER_DIGITS


def _meld_number(text: str) -> int:
    """A meld number from the form (``_is_meld_number``). Raises Refusal 400 otherwise."""
    if not _is_meld_number(text):
        raise Refusal(400, "malformed", "Choose a meld on the table.")
    return int(text)


def _chosen_reading(reading: str, cards: list[str]) -> dict:
    """The meld or lay-off a reading button names, with what its wilds stand for (0.3):
    ``"-/7D=9C,2S=8H"`` a new meld, ``"3/2S=8H"`` a lay-off on meld 3. Returns the action JSON.

    Raises Refusal 400 when the value is not one a reading button could carry (the page offers
    only well-formed ones; whether its wilds may stand so is the engine's to say).
    """
    meld, _, declared = reading.partition("/")
    pairs = [part.partition("=") for part in filter(None, declared.split(","))]
    if not (meld == "-" or _is_meld_number(meld)) or not all(key and equals and stands
                                                             for key, equals, stands in pairs):
        raise Refusal(400, "malformed", "That reading is not one on offer: choose one of the readings shown.")
    wilds = {key: stands for key, _, stands in pairs}
    if meld == "-":
        return {"type": "lay_meld", "cards": cards, "wilds": wilds}
    return {"type": "lay_off", "meld": int(meld), "cards": cards, "wilds": wilds}


def chosen_meld(post: QueryDict) -> int | None:
    """The meld a lay-off was aimed at (``lay_off_on``), None when absent or malformed."""
    try:
        return _meld_number(post.get("lay_off_on", ""))
    except Refusal:
        return None


def contract_choices(post: QueryDict) -> dict[str, str]:
    """The lay-contract form's group choices: ``{card key: group number as sent}``, blanks left out."""
    return {field[len(GROUP_FIELD):]: value for field, value in post.items() if field.startswith(GROUP_FIELD) and value}


def contract_stands(post: QueryDict) -> dict[str, str]:
    """The wilds a lay-contract form declares: ``{card key: code}`` from its ``stands:<key>`` fields
    (blanks left out) and from a chosen reading (``reading=contract/JK=8H``, 0.3); a part that is
    not ``key=code`` is left out (the engine then says what is missing)."""
    stands = {field[len(STANDS_FIELD):]: value.strip().upper() for field, value in post.items()
              if field.startswith(STANDS_FIELD) and value.strip()}
    target, _, declared = post.get("reading", "").partition("/")
    if target == CONTRACT_READING:
        stands.update(pair.partition("=")[::2] for pair in declared.split(",") if all(pair.partition("=")[::2]))
    return stands


def contract_payload(post: QueryDict) -> dict:
    """The lay-contract form (R10) as an action: each hand card's ``group:<key>`` select names its
    group, 1..``groups`` (blank: stays in hand); a wild's ``stands:<key>`` says what it stands for
    (0.3), e.g. ``6H``, or a chosen reading does (``contract_stands``). Returns
    ``{"type": "lay_contract", "groups": [...], "wilds": {...}}``.

    Raises Refusal 400 when the group count or a group number is malformed or a card is given a
    group twice (0.7). A group left empty stays in the action: the variant refuses it, naming the
    group as the form's trays do (R10).
    """
    count = post.get("groups", "")
    if not (count.isascii() and count.isdigit() and 1 <= int(count) <= MAX_GROUPS):
        raise Refusal(400, "malformed", "The contract form is missing its groups.")
    if any(len(post.getlist(field)) > 1 for field in post if field.startswith(GROUP_FIELD)):
        raise Refusal(400, "malformed", "The same card was chosen twice.", "0.7")
    groups: list[list[str]] = [[] for _ in range(int(count))]
    wilds: dict[str, str] = {}
    for key, value in contract_choices(post).items():
        if not (value.isascii() and value.isdigit() and 1 <= int(value) <= len(groups)):
            raise Refusal(400, "malformed", "Choose a group for each card of your contract.")
        groups[int(value) - 1].append(key)
    for key, code in contract_stands(post).items():
        if any(key in group for group in groups):
            wilds[key] = code
    return {"type": "lay_contract", "groups": groups, "wilds": wilds}


def _seat(text: str | None) -> int | None:
    """A seat position from the form (1-2 ASCII digits), None when absent. Raises Refusal 400 otherwise."""
    if text is None or text == "":
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= SEAT_DIGITS):
        raise Refusal(400, "malformed", "Choose a player.")
    return int(text)


def _one_move(post: QueryDict) -> None:
    """Refuse (400) a POST whose ``MOVE_FIELDS`` name more than one move: two fields, or one field
    with two values, would otherwise make one of them win unseen."""
    named = {(field, value) for field in MOVE_FIELDS for value in post.getlist(field)}
    if len(named) > 1:
        raise Refusal(400, "malformed", "Make one move at a time: this form asked for more than one.")


def move_version(post: QueryDict) -> int:
    """The game version the play form was drawn at (its ``version`` field). Raises Refusal 400
    when it is missing or not a whole number."""
    text = post.get("version", "")
    if not text:
        raise Refusal(400, "malformed", "The move is missing the game version.")
    try:
        return int(text)
    except ValueError:
        raise Refusal(400, "malformed", "The move's game version is not a number.") from None


def move_kind(post: QueryDict) -> str | None:
    """The engine action type the play form's fields name (see ``move_payload``), read from the
    field that names the move alone, so that a move the game does not have can be refused before
    its other fields are checked; None when no field names one."""
    if post.get("play_card") is not None:
        return "play_action"
    if "choose_target" in post:
        return "choose_target"
    if post.get("swap") is not None:
        return "swap_wild"
    reading = post.get("reading")
    if reading is not None:
        target = reading.partition("/")[0]
        return "lay_contract" if target == CONTRACT_READING else "lay_meld" if target == "-" else "lay_off"
    if post.get("lay_off_on") is not None:
        return "lay_off"
    kind = post.get("action")
    return kind if kind in MOVE_TYPES else None


def move_payload(post: QueryDict) -> dict:
    """The action (engine JSON) the play form's fields name.

    Fields: ``action`` (one of MOVE_TYPES) or ``lay_off_on`` (a meld number, which
    means ``lay_off``); ``cards`` (card keys, repeated); ``reading`` (a meld or lay-off with what its
    wilds stand for, 0.3: ``"-/7D=9C"`` for a new meld, ``"3/2S=8H"`` for a lay-off on meld 3,
    ``"contract/JK=8H"`` for the lay-contract form);
    ``swap`` (a wild swap, W11: ``"meld:natural:wild"``); for ``lay_contract`` the fields of
    ``contract_payload``; ``play_card`` (a Frayzy action card's key, F14) with ``target`` (the seat
    that draws 5, for a Draw 5); ``choose_target`` (the seat a Draw 5 start card makes draw, F4).
    Which field wins is ``move_kind``'s to say.

    Raises Refusal 400 when the action is missing or malformed, or when the fields name more than
    one move (``MOVE_FIELDS``).
    """
    _one_move(post)
    cards = post.getlist("cards")
    kind = move_kind(post)
    if kind == "play_action":
        action_card = post["play_card"]
        payload = {"type": kind, "card": action_card}
        if action_card.partition("~")[0] == DRAW5:
            payload["target"] = _seat(post.get("target"))
        return payload
    if kind == "choose_target":
        return {"type": kind, "target": _seat(post.get("choose_target"))}
    if kind == "swap_wild":
        meld, _, rest = post["swap"].partition(":")
        card, _, wild = rest.partition(":")
        if not card:
            raise Refusal(400, "malformed", "Choose a wild to swap.")
        return {"type": kind, "meld": _meld_number(meld), "card": card, **({"wild": wild} if wild else {})}
    if kind == "lay_contract":
        return contract_payload(post)
    reading = post.get("reading")
    if reading is not None:
        return _chosen_reading(reading, cards)
    if post.get("lay_off_on") is not None:
        return {"type": "lay_off", "meld": _meld_number(post["lay_off_on"]), "cards": cards}
    if kind is None:
        raise Refusal(400, "malformed", "Choose an action.")
    if kind == "discard":
        if len(cards) != 1:
            raise Refusal(400, "malformed", "Select exactly one card to discard.")
        return {"type": kind, "card": cards[0]}
    return {"type": kind, "cards": cards} if kind == "lay_meld" else {"type": kind}
