"""Frustration Rummy: every rule R1-R17 and each of the rule book's 12 edge cases, one behaviour per
test, named after the rule. Positions are built with ``builders.frustration`` in the rule book's
notation (a second copy is ``7H~1``)."""
from __future__ import annotations

import pytest
from builders import (
    DrawStock,
    FrustrationRummy,
    Phase,
    TakeDiscard,
    card,
    cards,
    deal_cards,
    discard,
    expect_illegal,
    frustration,
    held,
    lay_meld,
    lay_off,
    meld_notation,
    play,
    swap,
)

from games.engine.actions import LayContract, LayMeld, LayOff, action_from_json
from games.engine.cards import standard_deck
from games.engine.contracts import CONTRACTS, contract_text, find_contract, group_label
from games.engine.errors import IllegalAction
from games.engine.melds import extend_meld, meld_readings, read_meld
from games.engine.state import GameState
from games.engine.variants.frayzy import MELD_RULES as FRAYZY_RULES
from games.engine.variants.frustration import MELD_RULES

RULES = MELD_RULES
FULL_DECK = sorted(standard_deck(decks=2, jokers=4))


def contract(*groups: str, wilds: dict | None = None) -> LayContract:
    """A LayContract from one notation string per group."""
    return LayContract(tuple(tuple(c.key for c in cards(g)) for g in groups), tuple(sorted((wilds or {}).items())))


def legal(text: str) -> bool:
    return bool(meld_readings(cards(text), RULES)[0])


# ----- R1-R4: deck, players, deal, contracts -------------------------------------------------------

def test_r1_two_decks_and_four_jokers_108_cards_told_apart_by_copy():
    state = GameState.new(FrustrationRummy(), 4, "r1")
    assert len(state.deal.all_cards()) == 108 and sorted(state.deal.all_cards()) == FULL_DECK
    assert card("7H~1") in FULL_DECK and card("7H") in FULL_DECK and card("JK~3") in FULL_DECK


@pytest.mark.parametrize("players", [1, 5])
def test_r2_two_to_four_players(players):
    with pytest.raises(IllegalAction) as refused:
        GameState.new(FrustrationRummy(), players, "r2")
    assert (refused.value.code, refused.value.rule) == ("bad_players", "R2")


def test_r3_thirteen_cards_each_a_turned_up_discard_and_everyone_on_contract_1():
    state = GameState.new(FrustrationRummy(), 3, "r3")
    deal = state.deal
    assert [len(h) for h in deal.hands] == [13, 13, 13] and len(deal.discard) == 1
    assert state.totals == [1, 1, 1] and deal.turn == (deal.dealer + 1) % 3 and deal.phase == Phase.DRAW


def test_r3_the_deal_moves_one_seat_left_each_round():
    state = frustration(["5C", "KH QH"], turn=0, dealer=1, laid_down=[True, False])
    over, events = play(state, 0, discard("5C"))
    assert over.deal.number == 2 and over.deal.dealer == 2 % 2 == 0 and over.deal.turn == 1


def test_r4_fourteen_contracts_with_their_text():
    assert len(CONTRACTS) == 14
    assert contract_text(3) == "2 sets of 3 + 1 run of 4"
    assert contract_text(14) == "1 set of 3 + 1 run of 9"
    assert contract_text(13) == "2 runs of 4 + 1 set of 4"
    assert group_label(3, 1) == "the second set" and group_label(3, 2) == "the run"


# ----- R5-R8: wilds and melds -------------------------------------------------------------------

def test_r5_jokers_and_2s_are_wild_even_a_2_in_its_own_place():
    assert RULES.is_wild(card("JK")) and RULES.is_wild(card("2D")) and not RULES.is_wild(card("3D"))
    shape = read_meld(cards("AH 2H 3H 4H"), RULES)
    assert shape.stands_for(card("2H")) == "2H"


def test_r6_sets_any_suits_duplicates_no_maximum():
    assert legal("7H 7H~1 7S 7S~1 7C 7D 7D~1 7C~1")
    assert not legal("7H 7S")


def test_r7_runs_of_4_ace_high_or_low_never_wrapping():
    assert legal("AH 2H 3H 4H") and legal("JH QH KH AH")
    assert not legal("QH KH AH 3H") and not legal("5H 6H 7H")
    assert not legal("KH AH 2H 3H")


def test_r7_a_run_is_at_most_13_cards():
    thirteen = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    assert legal(thirteen)
    assert not legal(thirteen + " JK")


def test_r8_wilds_never_outnumber_naturals_also_after_a_lay_off():
    shape = read_meld(cards("5H JK 7H 8H"), RULES)
    grown = extend_meld(shape, cards("2C 2D"), RULES, {"2C": "9H", "2D": "10H"})
    assert len(grown.wilds) == 3
    with pytest.raises(IllegalAction) as refused:
        extend_meld(grown, cards("2S"), RULES, {"2S": "JH"})
    assert "4 wilds and 3 naturals: wilds may not outnumber naturals" in refused.value.message
    assert refused.value.rule == "R8"


def test_r8_a_set_of_2s_is_extended_only_with_2s_and_jokers_only_with_jokers():
    twos = read_meld(cards("2C 2D 2H"), RULES)
    assert len(extend_meld(twos, cards("2S"), RULES).cards) == 4
    for wrong in ("JK", "5S"):
        with pytest.raises(IllegalAction):
            extend_meld(twos, cards(wrong), RULES)
    jokers = read_meld(cards("JK JK~1 JK~2"), RULES)
    assert len(extend_meld(jokers, cards("JK~3"), RULES).cards) == 4
    with pytest.raises(IllegalAction):
        extend_meld(jokers, cards("2S"), RULES)


# ----- R9-R13: the turn --------------------------------------------------------------------------

def test_r9_draw_from_stock_or_discard_without_conditions():
    state = frustration(["5C 9D", "KH QH"], phase="draw", discard="8S")
    assert set(state.legal_actions(0)) >= {DrawStock(), TakeDiscard()}
    after, _ = state.apply(0, TakeDiscard())
    assert card("8S") in after.deal.hands[0]


def test_r9_the_card_taken_from_the_discard_pile_may_not_be_discarded():
    state = frustration(["5C 9D", "KH QH"], phase="draw", discard="8S")
    after, _ = state.apply(0, TakeDiscard())
    expect_illegal(after, 0, discard("8S"), "taken_discard", "0.4")


def test_r10_lay_the_whole_contract_in_one_action():
    state = frustration(["5S 5H JK 7H 7H~1 7S 9C 9D 2C KS", "KH QH"])
    after, events = state.apply(0, contract("5S 5H JK", "7H 7H~1 7S", "9C 9D 2C"))
    assert meld_notation(after) == ["5S 5H JK=5", "7H 7H~1 7S", "9C 9D 2C=9"]
    assert after.deal.laid_down == [True, False] and held(after, 0) == ["KS"]
    assert all(m.contract for m in after.deal.melds) and events[-1]["type"] == "lay_contract"


def test_r10_a_meld_too_short_for_the_contract_is_refused():
    state = frustration(["5S 5H 5D 7H 8H 9H 10H 3C", "KH QH"], totals=[7, 1])
    refusal = expect_illegal(state, 0, contract("5S 5H 5D", "7H 8H 9H 10H"), "wrong_contract", "R10")
    assert "the run needs at least 7 cards" in refusal.message


def test_r10_the_refusal_names_the_group_and_what_is_wrong():
    state = frustration(["5S 5H JK 7H JK~1 2S 9C 9D 9S KS", "KH QH"])
    refusal = expect_illegal(state, 0, contract("5S 5H JK", "7H JK~1 2S", "9C 9D 9S"), "bad_contract")
    assert refusal.message.startswith("The second set (7♥ JK 2♠):")
    assert "2 wilds and 1 natural: wilds may not outnumber naturals" in refusal.message


def test_r10_two_sets_of_one_rank_are_allowed():
    state = frustration(["5S 5H 5D 5S~1 5H~1 5D~1 9C 9D 9S KS", "KH QH"])
    after, _ = state.apply(0, contract("5S 5H 5D", "5S~1 5H~1 5D~1", "9C 9D 9S"))
    assert len(after.deal.melds) == 3


def test_r10_a_card_in_two_groups_is_refused():
    state = frustration(["5S 5H 5D 9C 9D 9S KS", "KH QH"])
    expect_illegal(state, 0, contract("5S 5H 5D", "5S 5H 5D", "9C 9D 9S"), "malformed", "R10")


def test_r10_only_once_per_round():
    state = frustration(["5S 5H 5D 9C", "KH QH"], laid_down=[True, False])
    expect_illegal(state, 0, contract("5S 5H 5D"), "contract_down", "R10")


def test_r11_after_the_contract_lay_off_on_any_meld_and_start_new_melds():
    state = frustration(["9H 8C 8D 8S 4H 5H 6H 7H KS", "KH QH"], melds=[(1, "9C 9D 9S")], laid_down=[True, True])
    after, _ = play(state, 0, lay_off(1, "9H"), lay_meld("8C 8D 8S"), lay_meld("4H 5H 6H 7H"))
    assert meld_notation(after) == ["9C 9D 9S 9H", "8C 8D 8S", "4H 5H 6H 7H"] and held(after, 0) == ["KS"]


def test_r11_a_wild_laid_off_on_a_run_says_its_place():
    state = frustration(["JK 9S", "KH QH"], melds=[(1, "5H 6H 7H 8H")], laid_down=[True, False])
    expect_illegal(state, 0, lay_off(1, "JK"), "choose_wild", "0.3")
    after, _ = state.apply(0, lay_off(1, "JK=9H"))
    assert meld_notation(after) == ["5H 6H 7H 8H JK=9H"]
    expect_illegal(state, 0, lay_off(1, "JK=10H"), "bad_wild")


def test_0_3_two_jokers_swapped_are_one_reading_of_a_contract_run():
    state = frustration(["5S 5H 5D 10H JH JK JK~1 KS", "KH QH"], totals=[2, 1])
    refusal = expect_illegal(state, 0, contract("5S 5H 5D", "10H JH JK JK~1"), "choose_wild", "0.3")
    assert refusal.message.endswith("Choose what the wilds stand for: JK=8♥ JK=9♥ or JK=9♥ JK=Q♥ or JK=Q♥ JK=K♥.")
    after, _ = state.apply(0, contract("5S 5H 5D", "10H JH JK JK~1", wilds={"JK": "9H", "JK~1": "QH"}))
    assert meld_notation(after)[1] == "JK=9H 10H JH JK~1=QH"


def test_0_3_a_refused_declaration_names_each_place_a_wild_can_take_once():
    state = frustration(["5S 5H 5D 10H JH JK JK~1 KS", "KH QH"], totals=[2, 1])
    refusal = expect_illegal(state, 0, contract("5S 5H 5D", "10H JH JK JK~1", wilds={"JK": "5H"}), "bad_wild")
    assert refusal.message.endswith("It can be: JK=8♥; JK=9♥; JK=Q♥; JK=K♥.")


def test_0_3_a_run_whose_jokers_can_only_swap_places_is_laid_without_asking():
    state = frustration(["5S 5H 5D 9H 10H JK JK~1 KH KS", "KC QC"], totals=[2, 1])
    after, _ = state.apply(0, contract("5S 5H 5D", "9H 10H JK JK~1 KH"))
    assert meld_notation(after)[1] in ("9H 10H JK=JH JK~1=QH KH", "9H 10H JK~1=JH JK=QH KH")


def test_r11_new_runs_need_4_cards():
    state = frustration(["4H 5H 6H 9S", "KH QH"], laid_down=[True, False])
    expect_illegal(state, 0, lay_meld("4H 5H 6H"), "bad_meld")


def test_r12_no_wild_swaps():
    state = frustration(["6H 9S", "KH QH"], melds=[(1, "5H JK=6H 7H 8H")], laid_down=[True, False])
    expect_illegal(state, 0, swap(1, "6H", "JK"), "no_swaps", "R12")


def test_r13_the_turn_ends_with_one_discard():
    state = frustration(["5C 9D", "KH QH"])
    after, _ = state.apply(0, discard("5C"))
    assert after.deal.turn == 1 and after.deal.phase == Phase.DRAW and held(after, 0) == ["9D"]


# ----- R14-R17: going out, round end, stock, score -----------------------------------------------

def test_r14_play_phase_actions_may_not_empty_the_hand():
    state = frustration(["5S 5H 5D 9C 9D 9S 7C 7D 7S", "KH QH"])
    expect_illegal(state, 0, contract("5S 5H 5D", "9C 9D 9S", "7C 7D 7S"), "dead_end", "R14")


def test_r14_the_card_taken_from_the_discard_pile_cannot_be_the_card_kept():
    state = frustration(["5S 5H 5D 9C 9D 9S 7C 7D 7S 8H", "KH QH"], taken="8H")
    expect_illegal(state, 0, contract("5S 5H 5D", "9C 9D 9S", "7C 7D 7S"), "dead_end", "0.5")


def test_r15_going_out_on_contract_14_wins_the_game():
    state = frustration(["5C", "KH QH"], totals=[14, 9], laid_down=[True, True])
    over, events = state.apply(0, discard("5C"))
    assert over.finished and over.standings() == (1, 2) and over.totals == [14, 10]
    assert events[-1]["type"] == "game_over"


def test_r15_laying_contract_14_without_going_out_stays_on_14():
    state = frustration(["5C", "KH QH"], totals=[13, 14], laid_down=[True, True])
    over, _ = state.apply(0, discard("5C"))
    assert not over.finished and over.totals == [14, 14]


def test_r16_stalemate_on_the_third_empty_stock_and_who_laid_down_still_moves_up():
    state = frustration(["5C 9D", "KH QH", "3C 4C"], phase="draw", stock="8S", discard="AS 6C 7C",
                        rebuilds=2, laid_down=[False, True, False])
    after, events = state.apply(0, DrawStock())
    assert after.deal.stalemate and {"type": "stock_exhausted"} in events
    over, _ = after.apply(0, discard("5C"))
    assert over.last_result.winner is None and over.totals == [1, 2, 1]


def test_r16_the_stock_is_rebuilt_twice_before():
    state = frustration(["5C 9D", "KH QH"], phase="draw", stock="8S", discard="AS 6C 7C", rebuilds=1)
    after, events = state.apply(0, DrawStock())
    assert after.deal.rebuilds == 2 and not after.deal.stalemate and len(after.deal.stock) == 2


def test_r17_no_points_the_contract_is_the_score():
    state = frustration(["5C", "KH QH JS"], totals=[4, 4], laid_down=[True, False])
    over, events = state.apply(0, discard("5C"))
    assert over.last_result.penalties == (1, 0) and over.totals == [5, 4]
    assert over.last_result.laid_down == (True, False)


def test_max_rounds_is_a_safety_limit_that_ranks_by_contract():
    state = build_round(number=100, totals=[6, 3])
    over, events = state.apply(0, discard("5C"))
    assert over.finished and over.standings() == (1, 2) and events[-1].get("stalled") is True


def build_round(number, totals):
    return frustration(["5C", "KH QH"], totals=totals, laid_down=[True, False], number=number)


def test_lay_contract_json_round_trips():
    action = contract("5S 5H JK", "7H 7H~1 7S", "9C 9D 2C", wilds={"JK": "5"})
    assert action_from_json(action.to_json()) == action
    with pytest.raises(IllegalAction):
        action_from_json({"type": "lay_contract", "groups": [["5S"], ["5S"]]})


def test_the_contract_hint_is_a_legal_action_and_applies():
    state = frustration(["5S 5H JK 7H 7H~1 7S 9C 9D 2C KS 3D", "KH QH"])
    hints = [a for a in state.legal_actions(0) if isinstance(a, LayContract)]
    assert len(hints) == 1
    after, _ = state.apply(0, hints[0])
    assert after.deal.laid_down[0]


def test_the_contract_search_finds_contract_14_and_refuses_a_hand_without_it():
    hand = cards("5S 5H JK 3H 4H 5H~1 6H 2D 8H 9H JK~1 KS 10H")
    shapes = find_contract(hand, 14, RULES)
    assert shapes is not None and [s.kind for s in shapes] == ["set", "run"] and len(shapes[1].cards) == 9
    assert find_contract(cards("5S 5H 9C 3H 4H 7D 8D KC QS JD 10C 6S AH"), 14, RULES) is None


# ----- the rule book's 12 edge cases -------------------------------------------------------------

def test_edge_1_one_joker_in_a_set_of_3_but_not_two():
    assert legal("5S 5H JK") and not legal("JK JK~1 5S")


def test_edge_2_all_2s_and_all_jokers_sets_but_not_mixed():
    assert legal("2C 2D 2H") and legal("JK JK~1 JK~2") and not legal("2C 2D JK")


def test_edge_3_a_2_in_its_own_place_counts_as_wild():
    shape = read_meld(cards("AH 2H 3H 4H"), RULES)
    assert [c.key for c, _ in shape.wilds] == ["2H"]


def test_edge_4_a_natural_of_the_wrong_suit_breaks_a_run():
    assert not legal("5H 6S 7H 8H")


def test_edge_5_duplicates_from_two_decks_make_a_set():
    assert legal("7H 7H~1 7S")


def test_edge_6_contract_1_as_sets_of_3_3_and_4_but_not_as_two_sets():
    state = frustration(["5S 5H 5D 9C 9D 9S 7C 7D 7S 7H KS", "KH QH"])
    after, _ = state.apply(0, contract("5S 5H 5D", "9C 9D 9S", "7C 7D 7S 7H"))
    assert after.deal.laid_down[0]
    expect_illegal(state, 0, contract("5S 5H 5D", "9C 9D 9S"), "wrong_contract", "R10")


def test_edge_7_another_contracts_melds_and_a_contract_over_two_turns_are_refused():
    state = frustration(["5S 5H 5D 5C 9C 9D 9S 9H KS", "KH QH"], totals=[3, 1])
    expect_illegal(state, 0, contract("5S 5H 5D 5C", "9C 9D 9S 9H"), "wrong_contract", "R10")
    expect_illegal(state, 0, lay_meld("5S 5H 5D"), "contract_first", "R11")


def test_edge_8_laying_off_or_melding_before_the_contract_is_refused():
    state = frustration(["9H 4C 5C 6C 7C", "KH QH"], melds=[(1, "9C 9D 9S")], laid_down=[False, True])
    expect_illegal(state, 0, lay_off(1, "9H"), "contract_first", "R11")
    expect_illegal(state, 0, lay_meld("4C 5C 6C 7C"), "contract_first", "R11")


def test_edge_9_lay_contract_lay_off_and_discard_the_last_card_goes_out():
    state = frustration(["5S 5H 5D 9C 9D 9S 7C 7D 7S 7H KS", "KH QH"])
    over, events = play(state, 0, contract("5S 5H 5D", "9C 9D 9S", "7C 7D 7S"), lay_off(3, "7H"), discard("KS"))
    assert over.last_result.winner == 0 and over.totals == [2, 1]


def test_edge_10_laying_off_the_last_card_instead_of_discarding_is_refused():
    state = frustration(["8C", "KH QH"], melds=[(1, "8S 8H 8D")], laid_down=[True, False])
    expect_illegal(state, 0, lay_off(1, "8C"), "dead_end", "R14")


def test_edge_11_everyone_who_laid_down_moves_up_the_others_stay():
    state = frustration(["5C", "KH QH", "3C 4C"], totals=[2, 5, 3], laid_down=[True, True, False])
    over, _ = state.apply(0, discard("5C"))
    assert over.totals == [3, 6, 3]


def test_edge_12_swapping_a_natural_for_a_joker_is_refused():
    state = frustration(["9C 9D", "KH QH"], melds=[(1, "9S 9H JK")], laid_down=[True, False])
    expect_illegal(state, 0, swap(1, "9C", "JK"), "no_swaps", "R12")


def test_every_card_stays_in_one_place_after_a_contract():
    state = frustration(["5S 5H JK 7H 7H~1 7S 9C 9D 2C KS", "KH QH"])
    after, _ = state.apply(0, contract("5S 5H JK", "7H 7H~1 7S", "9C 9D 2C"))
    assert deal_cards(after) == FULL_DECK


THIRTEEN_HEARTS = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"


def test_r7_a_13_card_run_with_a_natural_ace_is_laid_down_with_the_ace_low():
    state = frustration(["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 9C", "5S 6S"], laid_down=[True, False])
    listed = [a for a in state.legal_actions(0) if isinstance(a, LayMeld) and len(a.cards) == 13]
    assert len(listed) == 1
    after, _ = state.apply(0, listed[0])
    assert meld_notation(after) == ["AH 2H=2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"]
    after, _ = state.apply(0, lay_meld(THIRTEEN_HEARTS))
    assert meld_notation(after) == ["AH 2H=2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"]


def test_r7_a_run_completed_to_13_cards_by_the_king_takes_the_lay_off():
    state = frustration(["KH 9C", "5S 6S"], melds=[(0, "AH 2H=2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH")],
                        laid_down=[True, False])
    assert [a for a in state.legal_actions(0) if isinstance(a, LayOff)] == [LayOff(1, ("KH",))]
    after, _ = state.apply(0, lay_off(1, "KH"))
    assert meld_notation(after) == ["AH 2H=2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"]


def test_r7_a_run_completed_to_13_cards_by_a_wild_below_an_ace_high_run_takes_the_lay_off():
    state = frustration(["JK 9C", "5S 6S"], melds=[(0, "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")],
                        laid_down=[True, False])
    assert [a for a in state.legal_actions(0) if isinstance(a, LayOff)] == [LayOff(1, ("JK",), (("JK", "2H"),))]
    after, _ = state.apply(0, lay_off(1, "JK=2H"))
    assert meld_notation(after) == ["AH JK=2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"]


def test_r6_a_set_of_one_physical_card_named_three_times_is_refused():
    state = frustration(["7H 7S 9C 4D", "5S 6S"], laid_down=[True, False])
    expect_illegal(state, 0, LayMeld(("7H", "7H", "7H")), "malformed", "0.7")


def test_r9_a_run_may_use_the_card_taken_from_the_discard_pile_or_its_other_copy():
    state = frustration(["4H 5H 5H~1 6H 7H 9C", "5S 6S"], laid_down=[True, False], taken="5H~1")
    runs = {a.cards for a in state.legal_actions(0) if isinstance(a, LayMeld) and len(a.cards) == 4}
    assert {("4H", "5H", "6H", "7H"), ("4H", "5H~1", "6H", "7H")} <= runs


def test_r10_four_queens_and_wilds_make_two_sets_of_queens_for_contract_1():
    hand = "QS QD QD~1 QH~1 2C 2S~1 JK 4S 4D 4D~1 9C"
    shapes = find_contract(cards(hand), 1, MELD_RULES)
    assert shapes is not None and sum(len(s.cards) for s in shapes) <= 10
    state = frustration([hand, "5S 6S"])
    assert any(isinstance(a, LayContract) for a in state.legal_actions(0))


@pytest.mark.parametrize("rules, meld, wilds, message", [
    (RULES, "4C~1 4H 4S", {"4C~1": "QQ"}, "4♣ is not a wild among the cards played."),
    (RULES, "JK 10H JH", {"10H": "QH"}, "10♥ is not a wild among the cards played."),
    (FRAYZY_RULES, "B5 B6 B7", {"B5": "9C"}, "Blue 5 is not a wild among the cards played."),
])
def test_0_3_a_declaration_for_a_card_that_is_not_wild_names_the_card_as_players_read_it(rules, meld, wilds,
                                                                                          message):
    with pytest.raises(IllegalAction) as refused:
        read_meld(cards(meld), rules, wilds)
    assert (refused.value.code, refused.value.message) == ("bad_wild", message)


def test_0_3_a_contract_declaration_for_a_natural_names_the_card_as_players_read_it():
    state = frustration(["4C~1 AD 4H 7S 7H 7D 9S 9H 9D KS", "KH QH"], totals=[1, 1])
    refusal = expect_illegal(state, 0, contract("4C~1 AD 4H", "7S 7H 7D", "9S 9H 9D", wilds={"4C~1": "QQ"}),
                             "bad_wild")
    assert refusal.message == "The first set (4♣ A♦ 4♥): 4♣ is not a wild among the cards played."


@pytest.mark.parametrize("totals, groups, message", [
    (1, ("5S 5H 5D", "7H 7S 7D", ""), "Set 3 is empty."),
    (2, ("5S 5H 5D", ""), "Run 1 is empty."),
    (3, ("5S 5H 5D", "", "9H 10H JH QH"), "Set 2 is empty."),
    (5, ("", ""), "Run 1 is empty."),
])
def test_r10_an_empty_group_is_named_as_the_form_labels_it(totals, groups, message):
    state = frustration(["5S 5H 5D 7H 7S 7D 9H 10H JH QH KS", "KH QC"], totals=[totals, 1])
    action = LayContract(tuple(tuple(c.key for c in cards(g)) if g else () for g in groups))
    refusal = expect_illegal(state, 0, action, "wrong_contract", "R10")
    assert refusal.message == f"Put cards in every group of your contract: {message}"
    assert action_from_json(action.to_json()) == action
