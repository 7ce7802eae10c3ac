"""Card notation (RULES.md "Card notation") and the JSON form of every player action."""
from __future__ import annotations

import json

import pytest

from games.engine.actions import (
    ChooseTarget,
    Discard,
    DrawStock,
    LayMeld,
    LayOff,
    PlayAction,
    TakeDiscard,
    action_from_json,
)
from games.engine.cards import Card, card_code, coloured_deck, parse_card, standard_deck
from games.engine.errors import IllegalAction

# ----- notation -------------------------------------------------------------------------------


@pytest.mark.parametrize("text, code, copy", [
    ("AS", "AS", 0),
    ("10H", "10H", 0),
    ("QC", "QC", 0),
    ("2D", "2D", 0),
    ("JK", "JK", 0),
    ("AS~1", "AS", 1),
    ("10H~2", "10H", 2),
    ("JK~1", "JK", 1),
    ("R7", "R7", 0),
    ("B12~1", "B12", 1),
    ("W~7", "W", 7),
    ("SKIP", "SKIP", 0),
    ("DRAW5~3", "DRAW5", 3),
    ("DISCARD1~2", "DISCARD1", 2),
])
def test_notation_parses_and_formats_back_to_the_same_text(text, code, copy):
    card = parse_card(text)
    assert (card.code, card.copy) == (code, copy)
    assert card.key == text
    assert parse_card(card.key) == card
    assert str(card) == code


@pytest.mark.parametrize("text, rank, rank_name, suit", [
    ("AS", 1, "A", "S"), ("10H", 10, "10", "H"), ("JD", 11, "J", "D"), ("QC", 12, "Q", "C"), ("KS", 13, "K", "S"),
    ("R1", 1, "1", "R"), ("B12", 12, "12", "B"), ("G7", 7, "7", "G"), ("Y10", 10, "10", "Y"),
])
def test_notation_gives_rank_and_suit(text, rank, rank_name, suit):
    card = parse_card(text)
    assert (card.rank, card.rank_name, card.suit, card.is_joker) == (rank, rank_name, suit, False)


def test_the_joker_has_no_rank_or_suit():
    joker = parse_card("JK")
    assert joker.is_joker
    assert (joker.rank_name, joker.suit) == ("", "")
    with pytest.raises(ValueError):
        joker.rank  # noqa: B018 - the property raises


@pytest.mark.parametrize("text", ["W", "SKIP", "DRAW5", "DISCARD1"])
def test_f1_the_frayzy_wild_and_action_cards_have_no_rank_or_colour(text):
    card = parse_card(text)
    assert (card.has_rank, card.rank_name, card.suit, card.is_action) == (False, "", "", text != "W")
    with pytest.raises(ValueError):
        card.rank  # noqa: B018 - the property raises


def test_f1_the_frayzy_deck_holds_116_cards_each_with_its_own_key():
    deck = coloured_deck()
    assert len(deck) == 116 and len({c.key for c in deck}) == 116
    assert [parse_card(c.key) for c in deck] == deck
    assert sum(c.is_coloured for c in deck) == 96 and sum(c.code == "W" for c in deck) == 8
    assert {code: sum(c.code == code for c in deck) for code in ("SKIP", "DRAW5", "DISCARD1")} == \
        {"SKIP": 4, "DRAW5": 4, "DISCARD1": 4}


def test_every_card_of_the_deck_round_trips_through_its_key():
    deck = standard_deck()
    assert [parse_card(c.key) for c in deck] == deck
    assert len({c.key for c in deck}) == 52


def test_second_deck_copies_are_told_apart_by_key_only():
    deck = standard_deck(decks=2, jokers=2)
    assert len({c.key for c in deck}) == 106
    assert parse_card("7C~1") != parse_card("7C")
    assert parse_card("7C~1").code == parse_card("7C").code


@pytest.mark.parametrize("rank, suit, text", [(10, "R", "R10"), (1, "B", "B1"), (12, "Y", "Y12")])
def test_card_code_writes_frayzy_colour_then_number(rank, suit, text):
    assert card_code(rank, suit) == text


@pytest.mark.parametrize("rank, suit, text", [(1, "S", "AS"), (10, "H", "10H"), (11, "D", "JD"), (13, "C", "KC")])
def test_card_code_writes_rank_and_suit(rank, suit, text):
    assert card_code(rank, suit) == text


@pytest.mark.parametrize("text", [
    "", " ", "A", "S", "10", "1H", "11H", "0S", "AX", "as", "10h", "KK", "AS ", " AS", "A S",
    "JK1", "J", "K", "AS~x", "AS~-1", "AS~1~2", "~1", "AS~",
])
def test_bad_notation_raises_value_error(text):
    with pytest.raises(ValueError):
        parse_card(text)


@pytest.mark.parametrize("text", ["AS~0", "AS~01", "10H~007"])
def test_notation_accepts_only_the_canonical_spelling_of_a_copy(text):
    """A card has one key; ``AS~0`` would be a second name for ``AS`` (copy 0 is written bare)."""
    with pytest.raises(ValueError):
        parse_card(text)


# ----- actions as JSON ------------------------------------------------------------------------

ACTIONS = {
    "draw_stock": (DrawStock(), {"type": "draw_stock"}),
    "take_discard": (TakeDiscard(), {"type": "take_discard"}),
    "lay_meld": (LayMeld(("4D", "5D", "6D")), {"type": "lay_meld", "cards": ["4D", "5D", "6D"]}),
    "lay_meld_second_copy": (LayMeld(("9S", "9H", "9D~1")), {"type": "lay_meld", "cards": ["9S", "9H", "9D~1"]}),
    "lay_off": (LayOff(3, ("7D",)), {"type": "lay_off", "meld": 3, "cards": ["7D"]}),
    "lay_off_two_cards": (LayOff(12, ("3D", "2D")), {"type": "lay_off", "meld": 12, "cards": ["3D", "2D"]}),
    "discard": (Discard("10H"), {"type": "discard", "card": "10H"}),
    "play_action_skip": (PlayAction("SKIP~1"), {"type": "play_action", "card": "SKIP~1"}),
    "play_action_draw5": (PlayAction("DRAW5", 0), {"type": "play_action", "card": "DRAW5", "target": 0}),
    "choose_target": (ChooseTarget(2), {"type": "choose_target", "target": 2}),
}


@pytest.mark.parametrize("action, data", ACTIONS.values(), ids=ACTIONS.keys())
def test_action_to_json_has_the_documented_shape(action, data):
    assert action.to_json() == data
    assert action.type == data["type"]


@pytest.mark.parametrize("action, data", ACTIONS.values(), ids=ACTIONS.keys())
def test_action_round_trips_through_json_text(action, data):
    wire = json.dumps(action.to_json())
    assert action_from_json(json.loads(wire)) == action
    assert action_from_json(data) == action


def test_every_action_type_is_covered_here():
    assert {a.type for a, _ in ACTIONS.values()} == {"draw_stock", "take_discard", "lay_meld", "lay_off", "discard",
                                                     "play_action", "choose_target"}


@pytest.mark.parametrize("data", [
    {"type": "play_action"}, {"type": "play_action", "card": "DRAW5", "target": "1"},
    {"type": "play_action", "card": "DRAW5", "target": True}, {"type": "choose_target"},
    {"type": "choose_target", "target": 1.5},
])
def test_malformed_frayzy_actions_are_refused(data):
    with pytest.raises(IllegalAction) as refused:
        action_from_json(data)
    assert refused.value.code == "malformed"


def test_illegal_action_carries_code_message_and_rule():
    refusal = IllegalAction("taken_discard", "You may not discard it.", "S7")
    assert refusal.to_json() == {"code": "taken_discard", "message": "You may not discard it.", "rule": "S7"}
    assert str(refusal) == "You may not discard it. (rule S7)"
    assert str(IllegalAction("malformed", "Choose a card.")) == "Choose a card."


def test_card_is_a_hashable_value():
    assert {parse_card("AS"), Card("AS")} == {Card("AS", 0)}
