"""The strong level's measure of a hand (``bots.efficiency.HandMeter``): draws from going out
(shortfall) and the unseen cards that bring it closer (outs), on hands from the rule book's melds."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from builders import build, frustration

from games.engine.actions import DrawStock, TakeDiscard
from games.engine.bots import chooser
from games.engine.bots.efficiency import HandMeter
from games.engine.bots.evaluation import outlook_for
from games.engine.bots.knowledge import deck_codes
from games.engine.bots.memory import Memory
from games.engine.cards import parse_card
from games.engine.contracts import CONTRACTS
from games.engine.variants import make_variant
from games.engine.variants.frustration import MELD_RULES as FRUSTRATION_RULES
from games.engine.variants.standard import StandardRummy
from games.engine.variants.wild import BASE_MELD_RULES as WILD_RULES

STANDARD_RULES = StandardRummy.meld_rules


def cards(text: str):
    return [parse_card(key) for key in text.split()]


def meter(rules=STANDARD_RULES, unseen=None, fits=lambda card: False, contract=()):
    return HandMeter(outlook_for(rules, unseen), fits, contract)


@pytest.mark.parametrize("hand, spare, shortfall", [
    ("AS 2S 3S 7H 7D 7C KD QD JD 4C", 0, 1),   # three melds (S8) and a loose card: one draw to lay off
    ("AS 2S 3S 7H 7D 7C KD QD JD 4C", 1, 0),   # ... which is the discard: ready to go out
    ("AS 2S 3S 7H 7D 7C KD QD 9D 4C", 0, 2),   # Q-K misses one card; 9D and 4C are loose
    ("4C 4H 5H 7C 7H 8C AC", 0, 2),            # 4H 5H _ 7H misses 6H, 7C 8C misses one, 4C AC loose
    ("2C 5D 8H JS KC 3D 6H 9S QC AD", 0, 4),   # four one-card-short pairs, no meld
])
def test_shortfall_of_standard_hands(hand, spare, shortfall):
    assert meter().shortfall(cards(hand), spare) == shortfall


def test_a_card_that_lays_off_on_the_table_is_not_loose():
    hand = cards("AS 2S 3S 7H 7D 7C KD QD JD 4C")
    assert meter(fits=lambda card: card.code == "4C").shortfall(hand) == 0


def test_a_dead_card_completes_nothing():
    """Only 6H completes 5H _ 7H: with no 6H left to come, both cards are loose."""
    hand = cards("5H 7H")
    unseen = deck_codes(make_variant("standard")) - Counter(card.code for card in hand)
    assert meter(unseen=unseen).shortfall(hand) == 1
    unseen["6H"] = 0
    assert meter(unseen=unseen).shortfall(hand) == 2


WILD_RULES_SEVENS = replace(WILD_RULES, wild_ranks=frozenset({7}))


@pytest.mark.parametrize("hand, spare, shortfall", [
    ("9H 9D", 0, 2),          # the third 9 would leave no card to discard (W12, 0.5): two loose cards
    ("9H 9D KC", 0, 1),       # a third 9 melds and KC goes as the last discard
    ("9H 9D 9C", 0, 0),       # any draw is the last discard
    ("9H 9D 9C", 1, 2),       # ... but this turn's discard breaks the set: two loose cards stay
    ("9H 9D 9C 9S", 1, 0),    # a set of four spares one card to discard
    ("9H 9D 7C", 0, 0),       # the wild 7 makes the set; the next draw is the discard
    ("9H 7C", 0, 1),          # the wild lays off; 9H needs a card that lays off too
])
def test_going_out_by_a_discard_needs_a_card_left_to_discard(hand, spare, shortfall):
    hand_meter = HandMeter(outlook_for(WILD_RULES_SEVENS), lambda card: False, ends_with_discard=True)
    assert hand_meter.shortfall(cards(hand), spare) == shortfall


def test_a_lone_pair_is_one_draw_from_a_meld_where_melds_may_go_out():
    """Standard Rummy (S11) goes out by melding the last cards: 9H 9D needs one 9."""
    assert meter().shortfall(cards("9H 9D")) == 1


def test_ace_high_runs_count_where_the_rules_allow_them():
    """R7: J-Q-K-A is a run of four in Frustration Rummy."""
    assert meter(FRUSTRATION_RULES).shortfall(cards("JH QH KH AH")) == 0


@pytest.mark.parametrize("hand, missing", [
    ("5S 5H 5D 8C 8H JC JD QS KS AH", 2),      # contract 1 (R4: three sets of 3): 8s and Js miss one each
    ("5S 5H 5D 8C 8H JC JD QS KS 2C", 1),      # the 2 is wild (R5) and fills one
    ("5S 5H 5D 8C 8H 8S JC JD JH AH", 0),
])
def test_shortfall_before_a_contract_counts_the_contract_only(hand, missing):
    assert meter(FRUSTRATION_RULES, fits=None, contract=CONTRACTS[1]).shortfall(cards(hand)) == missing


def test_outs_are_the_unseen_copies_that_bring_the_hand_closer():
    """4H 5H 7H with 7C 8C: 6H fills the run, 6C or 9C makes 7C 8C a run; 9H, 3H or another 7 only
    adds a group that the loose cards already outnumber. Once 6H is gone the hand is a draw further."""
    hand = cards("4H 5H 7H 7C 8C AS KD")
    unseen = deck_codes(make_variant("standard")) - Counter(card.code for card in hand)
    hand_meter = meter(unseen=unseen)
    assert hand_meter.shortfall(hand) == 2
    closer = {code for code in unseen if hand_meter.shortfall([*hand, parse_card(code)], spare=1) < 2}
    assert closer == {"6H", "6C", "9C"}
    assert hand_meter.outs(hand) == 3
    unseen["6H"] = 0
    assert meter(unseen=unseen).shortfall(hand) == 3


def test_strong_takes_a_discard_that_brings_it_a_draw_closer():
    """3H turns 4H 5H into a run; a card that helps nothing is left on the pile (S5)."""
    hand = "4H 5H 9C 9D KS QD 2C 7S AD 6C"
    other = "AS AH 2D 3C 4C 5C 6D 7D 8D 10D"
    taking = build([hand, other], discard="3H")
    leaving = build([hand, other], discard="JC")
    strong = chooser(make_variant("standard"), "strong")
    assert strong(taking.player_view(0), random.Random(1), Memory()) == TakeDiscard()
    assert strong(leaving.player_view(0), random.Random(1), Memory()) == DrawStock()


def test_strong_measures_a_full_hand_building_its_frustration_contract():
    """Contract 1 (three sets of 3, R4) with 13 cards: 4H makes a third pair, one card closer to
    the contract though it completes no set, so strong takes it; normal takes only a card that
    completes a meld. A hand this size is measured because the contract's count is cheap."""
    hands = ["7C 7D 8C 8H 4S 9D JC KH 3D 6S QH 10C 5D", "AS AH"]
    state = frustration(hands, discard="4H", turn=0, phase="draw")
    view = state.player_view(0)
    assert len(view.hand) == 13 and view.totals[0] == 1
    assert chooser(make_variant("frustration"), "strong")(view, random.Random(1), Memory()) == TakeDiscard()
    assert chooser(make_variant("frustration"), "normal")(view, random.Random(1), Memory()) == DrawStock()
