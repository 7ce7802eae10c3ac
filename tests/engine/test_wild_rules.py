"""Wild Rummy: every rule W1-W15 and each of the rule book's 11 edge cases, one behaviour per test,
named after the rule. Positions are built with ``builders.wild`` in the rule book's notation."""
from __future__ import annotations

import pytest
from builders import (
    DrawStock,
    Phase,
    TakeDiscard,
    WildRummy,
    card,
    cards,
    deal_cards,
    discard,
    expect_illegal,
    held,
    lay_meld,
    lay_off,
    meld_notation,
    play,
    swap,
    wild,
)

from games.engine.actions import Discard, LayMeld, LayOff, SwapWild, action_from_json
from games.engine.cards import standard_deck
from games.engine.errors import IllegalAction
from games.engine.melds import add_surplus_wild, meld_readings, read_meld, swap_wild, swappable_wilds
from games.engine.state import GameState
from games.engine.variants.wild import BASE_MELD_RULES

FULL_DECK = sorted(standard_deck())


def rules_for(rank):
    return WildRummy().meld_rules_for(wild(["2C", "3C"], number=rank).deal)


def new_game(players=2, seed="wild-rules"):
    return GameState.new(WildRummy(), players, seed)


def types(actions):
    return {type(a) for a in actions}


# ----- W1-W4: deck, players, wild rank, deal ------------------------------------------------------

def test_w1_one_52_card_deck_without_jokers():
    state = new_game(3)
    assert sorted(state.deal.all_cards()) == FULL_DECK


@pytest.mark.parametrize("players", [1, 5])
def test_w2_two_to_four_players(players):
    with pytest.raises(IllegalAction) as refused:
        new_game(players)
    assert (refused.value.code, refused.value.rule) == ("bad_players", "W2")


def test_w3_the_wild_rank_follows_the_deal_number():
    state = new_game()
    assert state.deal.number == 1 and state.deal.wild_rank == 1
    rules = rules_for(4)
    assert rules.is_wild(card("4S")) and not rules.is_wild(card("5S"))


def test_w4_the_starter_gets_8_cards_the_others_7_and_the_discard_pile_is_empty():
    state = new_game(4)
    deal = state.deal
    assert [len(h) for h in deal.hands].count(8) == 1 and len(deal.hands[deal.turn]) == 8
    assert sorted(len(h) for h in deal.hands) == [7, 7, 7, 8]
    assert deal.discard == [] and deal.phase == Phase.PLAY
    assert state.legal_actions(deal.turn) and DrawStock() not in state.legal_actions(deal.turn)


def test_w4_the_player_left_of_the_winner_starts_the_next_deal():
    over, _ = play(wild(["9C 8S", "KH", "2D 3D"], turn=1, number=3), 1, Discard("KH"))
    assert over.deal.number == 4 and over.deal.turn == 2 and len(over.deal.hands[2]) == 8


def test_w4_after_a_stalemate_the_player_left_of_that_deals_starter_starts():
    state = wild(["5C 6C", "KH QH", "2D 3D"], turn=1, number=3, dealer=2, stalemate=True)
    over, events = state.apply(1, Discard("QH"))
    assert over.last_result.winner is None
    assert over.deal.turn == 1  # starter was seat 0 (left of dealer 2); left of it is seat 1


# ----- W5-W6: the turn, taking the discard, pending cards -----------------------------------------

def test_w5_draw_from_the_stock_then_discard_any_card_even_a_wild():
    state = wild(["AS 5C 9D", "KH QH"], phase="draw", discard="2H")
    after, _ = state.apply(0, DrawStock())
    assert Discard("AS") in after.legal_actions(0)
    done, _ = play(after, 0, Discard("AS"))
    assert done.deal.discard[-1] == card("AS") and done.deal.turn == 1


def test_w6_the_discard_can_be_taken_when_it_can_be_played_and_becomes_pending():
    state = wild(["4C 5C 9D", "KH QH"], phase="draw", discard="2H 6C", number=13)
    assert TakeDiscard() in state.legal_actions(0)
    after, _ = state.apply(0, TakeDiscard())
    assert after.deal.pending == [card("6C")]
    assert all(not isinstance(a, Discard) for a in after.legal_actions(0))
    melded, _ = after.apply(0, lay_meld("4C 5C 6C"))
    assert melded.deal.pending == [] and Discard("9D") in melded.legal_actions(0)


def test_w6_edge_6_taking_a_discard_that_cannot_be_played_is_refused():
    state = wild(["4H 8D 9S", "KH QH"], phase="draw", discard="5S 2C", number=13)
    assert TakeDiscard() not in state.legal_actions(0)
    refusal = expect_illegal(state, 0, TakeDiscard(), "discard_not_playable", "W6")
    assert "2♣" in refusal.message


def test_w6_the_drawing_seats_view_says_why_it_may_not_take_the_discard_and_no_one_elses_does():
    refused = wild(["4H 8D 9S", "KH QH"], phase="draw", discard="5S 2C", number=13)
    allowed = wild(["4C 5C 9S", "KH QH"], phase="draw", discard="6C", number=13)

    assert refused.player_view(0).take_refusal == (
        "You may take 2♣ only if you can play it straight away, alone or with cards from your hand, in a "
        "new meld, a lay-off or a wild swap. (rule W6)")
    assert refused.player_view(1).take_refusal == refused.player_view(None).take_refusal == ""
    assert allowed.player_view(0).take_refusal == ""
    assert TakeDiscard() in allowed.player_view(0).legal_actions


def test_w6_taking_the_discard_is_refused_when_playing_it_would_leave_no_discard():
    state = wild(["4C 5C", "KH QH"], phase="draw", discard="6C", number=13)
    expect_illegal(state, 0, TakeDiscard(), "discard_not_playable", "W6")


def test_w6_obligations_stack_a_swapped_in_pending_natural_frees_a_new_pending_wild():
    state = wild(["6H 9C 9D KS", "KH QH"], melds=[(1, "5H 2S=6H 7H")], number=2, pending="6H")
    after, _ = state.apply(0, swap(1, "6H"))
    assert after.deal.pending == [card("2S")]
    assert meld_notation(after) == ["5H 6H 7H"]


def test_w6_a_swap_is_refused_when_the_freed_wild_could_not_be_played():
    state = wild(["9C 5D KS", "KH QH"], melds=[(1, "9S 9H 9D 2S=9C")], number=2)
    expect_illegal(state, 0, swap(1, "9C"), "dead_end", "0.5")
    assert not any(isinstance(a, SwapWild) for a in state.legal_actions(0))


# ----- W7-W9: melds ---------------------------------------------------------------------------

def test_w7_a_set_has_no_suit_twice_and_a_wild_takes_a_free_suit():
    rules = rules_for(7)
    shape = read_meld(cards("9S 9H 7D"), rules, {"7D": "9C"})
    assert shape.notation() == "9S 9H 7D=9C"
    with pytest.raises(IllegalAction) as refused:
        read_meld(cards("9S 9H 7D"), rules, {"7D": "9S"})
    assert refused.value.code == "bad_wild"


def test_w7_a_set_has_at_most_4_cards():
    with pytest.raises(IllegalAction) as refused:
        read_meld(cards("9S 9H 9D 9C 7D"), rules_for(7))
    assert refused.value.code == "bad_meld"


def test_w7_a_set_wild_with_several_free_suits_must_be_declared():
    with pytest.raises(IllegalAction) as refused:
        read_meld(cards("9S 9H 7D"), rules_for(7))
    assert refused.value.code == "choose_wild" and "7♦=9♣" in refused.value.message


def test_w8_edge_1_runs_are_ace_low_only_and_a_wild_can_end_one():
    rules = rules_for(4)
    with pytest.raises(IllegalAction) as refused:
        read_meld(cards("QH KH AH"), rules)
    assert refused.value.code == "bad_meld"
    assert read_meld(cards("QH KH 4S"), rules).notation() == "4S=JH QH KH"


def test_w8_a_wild_at_either_end_of_a_run_must_be_declared_and_stays_within_a_to_k():
    rules = rules_for(2)
    with pytest.raises(IllegalAction) as refused:
        read_meld(cards("5H 6H 2C"), rules)
    assert refused.value.code == "choose_wild"
    assert read_meld(cards("5H 6H 2C"), rules, {"2C": "7H"}).notation() == "5H 6H 2C=7H"
    assert read_meld(cards("AH 2H 3C"), rules_for(3)).notation() == "AH 2H 3C=3H"


def test_0_3_two_wilds_that_only_swap_places_are_one_reading():
    rules = rules_for(7)
    assert read_meld(cards("3H 6H 7C 7H"), rules).notation() in ("3H 7C=4H 7H=5H 6H", "3H 7H=4H 7C=5H 6H")
    with pytest.raises(IllegalAction) as refused:
        read_meld(cards("3H 5H 7C 7H"), rules)
    assert refused.value.message == "Choose what the wilds stand for: 7♣=2♥ 7♥=4♥ or 7♣=4♥ 7♥=6♥."
    assert read_meld(cards("3H 5H 7C 7H"), rules, {"7H": "2H"}).notation() == "7H=2H 3H 7C=4H 5H"


def test_w8_edge_2_an_ace_wild_stands_for_the_ace_and_scores_25_in_hand():
    state = wild(["AS 2H 3H 9C", "KH QH"], number=1)
    assert lay_meld("AS=AH 2H 3H") in state.legal_actions(0)
    after, _ = state.apply(0, lay_meld("AS=AH 2H 3H"))
    assert meld_notation(after) == ["AS=AH 2H 3H"]
    assert WildRummy().card_points(card("AS"), 1) == 25


def test_w9_a_meld_needs_a_natural_so_an_all_wild_run_is_refused():
    readings, reason = meld_readings(cards("7C 7D 7S"), rules_for(7), "run")
    assert readings == [] and reason.message.startswith("A meld needs at least 1 natural card ") and reason.rule == "W9"
    assert read_meld(cards("7C 7D 7H"), BASE_MELD_RULES).kind == "set"  # without a wild rank: plain 7s


def test_w9_no_cap_on_wilds_in_a_meld():
    shape = read_meld(cards("9H 7C 7D 7S"), rules_for(7), {"7C": "10H", "7D": "JH", "7S": "QH"})
    assert shape.notation() == "9H 7C=10H 7D=JH 7S=QH"


def test_w9_edge_8_an_all_wild_rank_set_is_legal_lay_off_works_and_no_swap_is_possible():
    state = wild(["7C 7D 7H 9S", "7S KH QH"], number=7)
    after, _ = state.apply(0, lay_meld("7C 7D 7H"))
    assert meld_notation(after) == ["7C=7C 7D=7D 7H=7H"]
    later = wild(["7S 9S 9D", "KH QH"], melds=[(1, "7C 7D 7H")], number=7)
    grown, _ = later.apply(0, lay_off(1, "7S"))
    assert meld_notation(grown) == ["7C=7C 7D=7D 7H=7H 7S=7S"]
    assert not any(isinstance(a, SwapWild) for a in later.legal_actions(0))


def test_w10_anyone_may_lay_off_on_any_meld_a_set_needs_a_free_suit():
    state = wild(["9C 9D 5S", "KH QH"], melds=[(1, "9S 9H 7D=9C")], number=7)
    expect_illegal(state, 0, lay_off(1, "9C"), "bad_lay_off", "W7")
    after, _ = state.apply(0, lay_off(1, "9D"))
    assert meld_notation(after) == ["9S 9H 7D=9C 9D"]


@pytest.mark.parametrize("key, shown", [("", '""'), ("ZZ", '"ZZ"'), ("9S", "9♠")])
def test_0_3_a_declared_wild_that_names_no_card_played_is_refused(key, shown):
    state = wild(["2C 9S 9D", "KH QH"], melds=[(1, "5H 6H 7H")], number=2)
    refusal = expect_illegal(state, 0, LayOff(1, ("9D",), ((key, "AD"),)), "bad_wild", "W11")
    assert refusal.message == f"{shown} is not a wild among the cards played."


def test_w10_a_wild_laid_off_on_a_run_must_say_which_end():
    state = wild(["2C 9S 9D", "KH QH"], melds=[(1, "5H 6H 7H")], number=2)
    expect_illegal(state, 0, LayOff(1, ("2C",)), "choose_wild", "0.3")
    expect_illegal(state, 0, lay_off(1, "2C=9H"), "bad_wild")
    offered = {a for a in state.legal_actions(0) if isinstance(a, LayOff)}
    assert {lay_off(1, "2C=4H"), lay_off(1, "2C=8H")} <= offered
    after, _ = state.apply(0, lay_off(1, "2C=8H"))
    assert meld_notation(after) == ["5H 6H 7H 2C=8H"]


# ----- W11: swaps -------------------------------------------------------------------------------

def test_w11_edge_5_a_run_swap_needs_the_exact_card_and_frees_a_pending_wild():
    state = wild(["6D 6H 8H 9H", "KH QH"], melds=[(1, "5H 2S=6H 7H")], number=2)
    expect_illegal(state, 0, swap(1, "6D"), "bad_swap", "W11")
    after, events = state.apply(0, swap(1, "6H"))
    assert after.deal.pending == [card("2S")] and "2S" in held(after, 0)
    assert events[-1]["type"] == "swap_wild" and events[-1]["stood_for"] == "6H"
    expect_illegal(after, 0, discard("2S"), "pending", "W6")


def test_w11_a_set_swap_takes_a_natural_of_a_free_suit_and_the_player_picks_which_wild():
    state = wild(["9H 9D 5S 5C", "KH QH"], melds=[(1, "9S 7C=9C 7D=9D")], number=7)
    expect_illegal(state, 0, SwapWild(1, "9H"), "choose_wild", "W11")
    swaps = {a for a in state.legal_actions(0) if isinstance(a, SwapWild) and a.card == "9H"}
    assert swaps == {swap(1, "9H", "7C"), swap(1, "9H", "7D")}
    after, _ = state.apply(0, swap(1, "9H", "7D"))
    assert meld_notation(after) == ["9S 7C=9C 9H"]
    expect_illegal(state, 0, swap(1, "9D", "7C"), "bad_swap", "W11")


def test_w11_a_surplus_fifth_wild_is_never_swapped():
    rules = rules_for(7)
    full = add_surplus_wild(read_meld(cards("9S 9H 9D 7C"), rules), card("7D"), rules)
    assert full.notation() == "9S 9H 9D 7C=9C 7D=9"
    assert swappable_wilds(full, card("9C"), rules) == [card("7C")]
    with pytest.raises(IllegalAction) as refused:
        swap_wild(full, card("9C"), card("7D"), rules)
    assert (refused.value.code, refused.value.rule) == ("bad_swap", "W11")


# ----- W12: going out -------------------------------------------------------------------------

def test_w12_going_out_is_discarding_the_last_card():
    state = wild(["5C", "KH QH"], phase="play")
    over, events = state.apply(0, discard("5C"))
    assert over.last_result.winner == 0 and over.last_result.penalties == (-2, 20)


def test_w12_edge_9_melding_the_last_three_cards_is_refused():
    state = wild(["4C 5C 6C", "KH QH"], number=13)
    expect_illegal(state, 0, lay_meld("4C 5C 6C"), "dead_end", "W12")
    assert lay_meld("4C 5C 6C") not in state.legal_actions(0)


def test_w12_edge_3_a_wild_on_a_full_set_with_three_cards_in_hand_is_refused():
    state = wild(["7C 6C 5H", "KH QH"], melds=[(1, "9S 9H 9D 9C")], number=7)
    expect_illegal(state, 0, lay_off(1, "7C"), "bad_lay_off", "W12")


def test_w12_edge_4_a_fifth_wild_then_the_last_discard_goes_out():
    state = wild(["7C 6C", "KH QH"], melds=[(1, "9S 9H 9D 9C")], number=7)
    assert lay_off(1, "7C=9") in state.legal_actions(0)
    over, events = play(state, 0, lay_off(1, "7C"), discard("6C"))
    assert over.last_result.winner == 0 and over.last_result.penalties[0] == -2
    assert over.ended_deal and [m.shape.notation() for m in over.ended_deal.melds] == ["9S 9H 9D 9C 7C=9"]


def test_w12_edge_7_a_pending_wild_is_laid_off_then_the_last_card_goes_out():
    state = wild(["7C 8S", "KH QH"], melds=[(1, "4H 5H 6H")], number=7, pending="7C")
    expect_illegal(state, 0, discard("7C"), "pending", "W6")
    expect_illegal(state, 0, discard("8S"), "pending", "W6")
    over, _ = play(state, 0, lay_off(1, "7C=7H"), discard("8S"))
    assert over.last_result.winner == 0


def test_w12_edge_11_the_starter_may_go_out_at_once_by_melding_seven_and_discarding_one():
    state = wild(["4C 5C 6C 7C 9D 9H 9S KD", "KH QH JS 2D 3D 5S 8H"], number=13)
    assert DrawStock() not in state.legal_actions(0)
    over, _ = play(state, 0, lay_meld("4C 5C 6C 7C"), lay_meld("9D 9H 9S"), discard("KD"))
    assert over.last_result.winner == 0


def test_w12_edge_11_the_starter_must_discard_to_end_the_first_turn():
    state = new_game(2, seed="starter")
    seat = state.deal.turn
    assert all(not isinstance(a, (DrawStock, TakeDiscard)) for a in state.legal_actions(seat))
    assert any(isinstance(a, Discard) for a in state.legal_actions(seat))


# ----- W13: stalemate ---------------------------------------------------------------------------

def test_w13_the_first_empty_stock_is_rebuilt():
    state = wild(["5C 6D", "KH QH"], phase="draw", stock="2S", discard="3S 4S 8D")
    after, events = state.apply(0, DrawStock())
    assert after.deal.rebuilds == 1 and [e["type"] for e in events] == ["draw_stock", "stock_rebuilt"]


def test_w13_edge_10_a_second_empty_stock_ends_the_deal_after_the_turn_with_no_bonus():
    state = wild(["5C 6D", "KH QH"], phase="draw", stock="2S", discard="3S 4S 8D", rebuilds=1,
                 streaks=[2, 0])
    after, events = state.apply(0, DrawStock())
    assert after.deal.stalemate and events[-1]["type"] == "stock_exhausted"
    over, events = after.apply(0, discard("6D"))
    assert over.last_result.winner is None
    assert over.last_result.penalties == (5 + 2, 20)
    assert over.streaks == [0, 0]


# ----- W14-W15: scoring and game end ------------------------------------------------------------

def test_w14_hands_count_face_value_and_wilds_25():
    state = wild(["5C", "KH 7S AD 2H"], number=7)
    over, _ = state.apply(0, discard("5C"))
    assert over.last_result.penalties == (-2, 10 + 25 + 1 + 2)


def test_w14_every_third_deal_in_a_row_going_out_scores_minus_12():
    state = wild(["5C", "KH"], number=5, streaks=[2, 0], totals=[10, 10])
    over, events = state.apply(0, discard("5C"))
    assert over.last_result.penalties[0] == -12 and over.last_result.streak_bonus
    assert over.streaks == [3, 0] and over.totals == [-2, 20]


def test_w14_going_out_breaks_the_others_streaks():
    state = wild(["5C", "KH"], number=5, streaks=[0, 4])
    over, _ = state.apply(0, discard("5C"))
    assert over.streaks == [1, 0] and over.last_result.penalties[0] == -2


def test_w15_the_game_ends_after_deal_13_and_the_lowest_total_wins():
    state = wild(["5C", "2H", "3D"], number=13, totals=[30, 10, 40])
    over, events = state.apply(0, discard("5C"))
    assert over.finished and events[-1]["type"] == "game_over"
    assert over.standings() == (2, 1, 3)
    expect_illegal(over, 1, DrawStock(), "game_over", "W15")


def test_w15_a_tie_goes_to_the_lower_score_in_deal_13():
    state = wild(["5C", "2H", "10H"], number=13, totals=[10, 6, 0])
    over, _ = state.apply(0, discard("5C"))
    assert over.totals == [8, 8, 10] and over.standings() == (1, 2, 3)


# ----- actions as JSON --------------------------------------------------------------------------

@pytest.mark.parametrize("action", [lay_meld("9S 9H 7D=9C"), lay_off(2, "2C=8H"), swap(1, "9H", "7D"),
                                    swap(1, "6H"), LayMeld(("AS", "2S", "3S"))])
def test_0_3_actions_with_wild_declarations_round_trip_through_json(action):
    assert action_from_json(action.to_json()) == action


@pytest.mark.parametrize("data", [{"type": "lay_meld", "cards": ["9S"], "wilds": {"8C": "9C"}},
                                  {"type": "lay_meld", "cards": ["9S"], "wilds": ["9C"]},
                                  {"type": "swap_wild", "meld": "1", "card": "9C"},
                                  {"type": "swap_wild", "meld": 1}])
def test_0_7_malformed_wild_actions_are_refused(data):
    with pytest.raises(IllegalAction) as refused:
        action_from_json(data)
    assert refused.value.code == "malformed"


def test_0_7_conservation_after_a_swap_and_lay_off():
    state = wild(["6H 9C 9D KS", "KH QH"], melds=[(1, "5H 2S=6H 7H")], number=2)
    before = deal_cards(state)
    after, _ = play(state, 0, swap(1, "6H"), lay_off(1, "2S=8H"))
    assert deal_cards(after) == before == FULL_DECK


def test_w6_the_discard_may_be_taken_to_lay_off_together_with_cards_from_the_hand():
    state = wild(["6H 9C", "KS QS"], melds=[(1, "7H 8H 9H")], phase="draw", discard="5H", number=13)
    assert TakeDiscard() in state.legal_actions(0)
    taken, _ = state.apply(0, TakeDiscard())
    together, _ = play(taken, 0, lay_off(1, "5H 6H"), discard("9C"))
    assert together.last_result.winner == 0
    assert LayOff(1, ("6H",)) in taken.legal_actions(0)
    one_by_one, _ = play(taken, 0, lay_off(1, "6H"), lay_off(1, "5H"))
    assert meld_notation(one_by_one) == ["5H 6H 7H 8H 9H"] and one_by_one.deal.pending == []


def test_w6_a_play_that_keeps_the_pending_card_playable_with_cards_from_the_hand_is_legal():
    state = wild(["6H 4C 9C", "KS QS"], melds=[(1, "7H 8H 9H"), (1, "5C 6C 7C")], discard="5H", phase="draw",
                 number=13)
    taken, _ = state.apply(0, TakeDiscard())
    assert LayOff(2, ("4C",)) in taken.legal_actions(0)
    after, _ = play(taken, 0, lay_off(2, "4C"), lay_off(1, "5H 6H"), discard("9C"))
    assert after.last_result.winner == 0
