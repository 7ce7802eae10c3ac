"""Frayzy: every rule F1-F18 (with the shared conventions 0.4, 0.5, 0.7 as Frayzy plays them) and
each of the rule book's 12 edge cases, one behaviour per test, named after the rule. Positions are
built with ``builders.frayzy`` in the rule book's notation (``R7``, ``W``, ``W=R10``, ``SKIP``)."""
from __future__ import annotations

import pytest
from builders import (
    DrawStock,
    Phase,
    TakeDiscard,
    card,
    deal_cards,
    discard,
    expect_illegal,
    frayzy,
    held,
    lay_meld,
    lay_off,
    meld_notation,
    play,
    swap,
)

from games.engine.actions import ChooseTarget, Discard, LayMeld, PlayAction, SwapWild
from games.engine.candidates import candidate_melds
from games.engine.cards import coloured_deck
from games.engine.errors import IllegalAction
from games.engine.melds import read_meld
from games.engine.state import GameState, HandResult
from games.engine.variants import make_variant
from games.engine.variants.frayzy import EXTENDED_TARGET, MELD_RULES, Frayzy

FULL_DECK = sorted(coloured_deck())


def new_game(players=2, seed="frayzy-rules", **options):
    return GameState.new(Frayzy(**options), players, seed)


def game_starting_with(code, players=3):
    """The first game (over seeds ``start-0``, ``start-1``, ...) whose start card is ``code`` (F4)."""
    for n in range(2000):
        state = new_game(players, f"start-{n}")
        if state.deal.discard[0].code == code:
            return state
    raise AssertionError(f"no seed turns up {code}")


def meld(text):
    return read_meld([card(word) for word in text.split()], MELD_RULES)


def refused_meld(text):
    with pytest.raises(IllegalAction) as refused:
        meld(text)
    return refused.value


# ----- F1-F5: deck, players, deal, start card -------------------------------------------------------

def test_f1_the_deck_is_116_cards_dealt_without_loss():
    state = new_game(4)
    assert len(FULL_DECK) == 116
    assert deal_cards(state) == FULL_DECK


def test_f1_the_card_counts_are_table_options():
    variant = Frayzy(copies=1, wilds=4, skips=2, draw_fives=0, discard_ones=1)
    assert len(variant.deck()) == 48 + 4 + 2 + 0 + 1
    assert deal_cards(GameState.new(variant, 2, "small")) == sorted(variant.deck())
    with pytest.raises(IllegalAction) as refused:
        make_variant("frayzy", {"copies": 0})
    assert (refused.value.code, refused.value.rule) == ("bad_options", "F1")


@pytest.mark.parametrize("players", [1, 5])
def test_f2_two_to_four_players(players):
    with pytest.raises(IllegalAction) as refused:
        new_game(players)
    assert (refused.value.code, refused.value.rule) == ("bad_players", "F2")


def test_f3_ten_cards_each_the_rest_is_the_stock_and_the_first_dealer_is_random():
    state = new_game(4)
    assert [len(h) for h in state.deal.hands] == [10, 10, 10, 10]
    assert len(state.deal.stock) == 116 - 40 - 1
    assert {new_game(4, f"dealer-{n}").deal.dealer for n in range(30)} == {0, 1, 2, 3}


def test_f4_a_skip_start_card_passes_over_the_player_left_of_the_dealer():
    state = game_starting_with("SKIP", players=3)
    assert state.deal.turn == (state.deal.dealer + 2) % 3 and state.deal.phase == Phase.DRAW


def test_f4_a_skip_start_card_with_two_players_lets_the_dealer_play_first():
    state = game_starting_with("SKIP", players=2)
    assert state.deal.turn == state.deal.dealer


def test_f4_a_draw_5_start_card_lets_the_dealer_pick_who_draws_5_themselves_included():
    state = game_starting_with("DRAW5", players=3)
    dealer = state.deal.dealer
    assert (state.deal.turn, state.deal.phase) == (dealer, Phase.CHOOSE_TARGET)
    assert state.legal_actions(dealer) == [ChooseTarget(0), ChooseTarget(1), ChooseTarget(2)]
    after, events = state.apply(dealer, ChooseTarget(dealer))
    assert len(after.deal.hands[dealer]) == 15 and len(after.deal.stock) == len(state.deal.stock) - 5
    assert (after.deal.turn, after.deal.phase) == ((dealer + 1) % 3, Phase.DRAW)
    assert events == [{"type": "draw_five", "seat": dealer, "target": dealer, "count": 5, "start_card": True}]
    expect_illegal(state, dealer, ChooseTarget(3), "no_such_seat", "F14")
    expect_illegal(state, dealer, DrawStock(), "wrong_phase", "F4")


def test_f4_a_discard_1_start_card_makes_the_dealer_discard_one_card_on_top_of_it():
    state = game_starting_with("DISCARD1", players=2)
    dealer = state.deal.dealer
    assert (state.deal.turn, state.deal.phase) == (dealer, Phase.EXTRA_DISCARD)
    chosen = state.deal.hands[dealer][0]
    assert state.legal_actions(dealer) == [Discard(c.key) for c in state.deal.hands[dealer]]
    after, _ = state.apply(dealer, Discard(chosen.key))
    assert after.deal.discard[-1] == chosen and len(after.deal.hands[dealer]) == 9
    assert (after.deal.turn, after.deal.phase) == ((dealer + 1) % 2, Phase.DRAW)


def test_f4_a_wild_start_card_has_no_effect_and_may_be_taken():
    state = game_starting_with("W", players=3)
    assert (state.deal.turn, state.deal.phase) == ((state.deal.dealer + 1) % 3, Phase.DRAW)
    assert TakeDiscard() in state.legal_actions(state.deal.turn)


def test_f4_the_start_card_is_shown_to_every_player():
    state = game_starting_with("SKIP", players=3)
    start = state.deal.discard[0]
    assert start.code == "SKIP"
    assert all(state.player_view(seat).start_card == start for seat in (None, 0, 1, 2))


def test_f4_the_start_card_stays_the_one_turned_up_and_is_gone_once_taken():
    state = frayzy(["R7 B10", "Y1 Y2"], discard="B7", phase="draw", turn=0, dealer=1)
    assert state.player_view(1).start_card == card("B7")
    state, _ = state.apply(0, TakeDiscard())
    state, _ = state.apply(0, discard("B10"))
    assert state.deal.discard == [card("B10")]
    assert all(state.player_view(seat).start_card is None for seat in (None, 0, 1))


def test_f4_a_dealt_start_card_is_kept_under_the_cards_discarded_on_it():
    state = game_starting_with("DISCARD1", players=2)
    dealer, start = state.deal.dealer, state.deal.discard[0]
    state, _ = state.apply(dealer, Discard(state.deal.hands[dealer][0].key))
    assert state.deal.start_card == start and state.player_view(None).start_card == start


def test_f4_the_start_card_does_not_count_as_the_first_players_action_card():
    state = game_starting_with("DRAW5", players=2)
    dealer = state.deal.dealer
    state, _ = state.apply(dealer, ChooseTarget((dealer + 1) % 2))
    mover = state.deal.turn
    state, _ = state.apply(mover, DrawStock())
    hand = state.deal.hands[mover]
    actions = state.legal_actions(mover)
    assert any(isinstance(a, PlayAction) for a in actions) == any(c.is_action for c in hand)


def test_f5_play_starts_left_of_the_dealer_and_the_deal_passes_clockwise():
    state = frayzy(["R5", "R1 B2"], turn=0, dealer=1)
    after, events = state.apply(0, discard("R5"))
    assert after.deal.number == 2 and after.deal.dealer == 0
    assert after.deal.turn == 1 or after.deal.discard[0].is_action
    assert events[-1]["type"] == "new_deal" and events[-1]["dealer"] == 0


# ----- F6-F8: the turn ---------------------------------------------------------------------------

def test_f6_draw_from_the_stock_or_take_the_top_discard():
    state = frayzy(["R1 R2", "B1 B2"], discard="G5 G6", phase="draw")
    assert state.legal_actions(0) == [DrawStock(), TakeDiscard()]
    after, _ = state.apply(0, TakeDiscard())
    assert held(after, 0) == ["G6", "R1", "R2"] and after.deal.taken_discard == card("G6")


def test_f6_edge_5_the_discard_pile_is_closed_while_a_skip_is_on_top():
    state = frayzy(["R1 R2", "B1 B2"], discard="G5 SKIP", phase="draw")
    assert state.legal_actions(0) == [DrawStock()]
    refusal = expect_illegal(state, 0, TakeDiscard(), "discard_closed", "F6")
    assert "Skip" in refusal.message


def test_f6_a_wild_on_top_may_be_taken():
    state = frayzy(["R1 R2", "B1 B2"], discard="G5 W", phase="draw")
    after, _ = state.apply(0, TakeDiscard())
    assert "W" in held(after, 0)


def test_f7_melds_and_lay_offs_need_no_opening_meld():
    state = frayzy(["R4 B7 G7 Y7 B1", "B2 B3"], melds=[(1, "R1 R2 R3")])
    after, _ = play(state, 0, lay_off(1, "R4"), lay_meld("B7 G7 Y7"))
    assert meld_notation(after) == ["R1 R2 R3 R4", "B7 G7 Y7"] and held(after, 0) == ["B1"]


def test_f8_an_action_card_cannot_be_thrown_away_as_a_plain_discard():
    state = frayzy(["SKIP R1", "B1 B2"])
    assert Discard("SKIP") not in state.legal_actions(0)
    expect_illegal(state, 0, discard("SKIP"), "play_action_card", "F8")


def test_f8_the_turn_ends_with_a_discard_or_one_action_card():
    state = frayzy(["SKIP R1", "B1 B2", "G1 G2"])
    assert {a for a in state.legal_actions(0) if isinstance(a, (Discard, PlayAction))} == \
        {Discard("R1"), PlayAction("SKIP")}
    after, _ = state.apply(0, discard("R1"))
    assert (after.deal.turn, after.deal.phase) == (1, Phase.DRAW)


def test_f8_a_number_card_is_not_an_action_card():
    state = frayzy(["SKIP R1", "B1 B2"])
    expect_illegal(state, 0, PlayAction("R1"), "not_an_action_card", "F8")


# ----- F9-F12: melds -------------------------------------------------------------------------------

def test_f9_edge_1_a_set_ignores_colours_and_allows_duplicates():
    assert meld("R7 B7 B7~1").kind == "set"


def test_f9_a_set_has_no_maximum():
    shape = meld("R7 B7 G7 Y7 R7~1 B7~1 G7~1 Y7~1 W")
    assert len(shape.cards) == 9 and shape.notation().endswith("W=7")


def test_f9_a_set_needs_three_cards_of_one_number():
    assert refused_meld("R7 B7").code == "bad_meld"
    assert refused_meld("R7 B7 G8").code == "bad_meld"


@pytest.mark.parametrize("cards, rule, message", [
    ("B5 B10~1 G3~1", "F9-F11",
     "Blue 5 Blue 10 Green 3 is not a meld: a set needs one number and a run needs one colour."),
    ("B5 G3 W", "F9-F11", "Blue 5 Green 3 Wild is not a meld: a set needs one number and a run needs one colour."),
    ("R4 R6 R7", "F10", "A run needs consecutive numbers: there is a gap between Red 4 and Red 6."),
    ("R4 R4~1 R5", "F10", "A run cannot hold the same number twice."),
])
def test_f9_f10_meld_refusals_speak_of_numbers_and_colours(cards, rule, message):
    refusal = refused_meld(cards)
    assert (refusal.code, refusal.rule, refusal.message) == ("bad_meld", rule, message)


def test_f10_a_run_is_one_colour_in_sequence_up_to_12():
    assert meld("R10 R12 R11").notation() == "R10 R11 R12"
    assert len(meld(" ".join(f"B{n}" for n in range(1, 13))).cards) == 12
    assert "a run needs one colour" in refused_meld("R4 B5 R6").message


def test_f10_edge_2_a_run_does_not_wrap_from_12_to_1():
    state = frayzy(["R1 B5", "B2 B3"], melds=[(1, "R10 R11 R12")])
    refusal = expect_illegal(state, 0, lay_off(1, "R1"), "bad_lay_off", "F10")
    assert "do not wrap" in refusal.message
    assert "do not wrap" in refused_meld("R11 R12 R1").message


def test_f11_edge_3_a_second_wild_in_a_meld_is_refused():
    state = frayzy(["W~1 B5", "B2 B3"], melds=[(1, "B4 W=B5 B6")])
    refusal = expect_illegal(state, 0, lay_off(1, "W~1=B7"), "bad_lay_off", "F11")
    assert "at most 1 wild" in refusal.message
    assert refused_meld("R7 W W~1").code == "bad_meld"


@pytest.mark.parametrize("cards, message", [
    ("Y2 W W~1", "A meld may hold at most 1 wild, not 2."),
    ("Y2 Y3 W W~1", "A meld may hold at most 1 wild, not 2."),
    ("Y2 W", "A meld needs at least 2 natural cards (a natural is a card that is not wild)."),
])
def test_f11_more_than_one_wild_or_fewer_than_two_naturals_is_refused_citing_f11(cards, message):
    refusal = refused_meld(cards)
    assert (refusal.code, refusal.rule, refusal.message) == ("bad_meld", "F11", message)


def test_f11_a_wild_in_a_set_stands_for_the_number_and_in_a_run_for_number_and_colour():
    assert meld("R9 B9 W").notation() == "R9 B9 W=9"
    assert meld("R9 W R11").notation() == "R9 W=R10 R11"


def test_f11_a_wild_at_either_end_of_a_run_must_be_declared():
    state = frayzy(["R9 R10 W B1", "B2 B3"])
    expect_illegal(state, 0, lay_meld("R9 R10 W"), "choose_wild", "0.3")
    after, _ = state.apply(0, lay_meld("R9 R10 W=R11"))
    assert meld_notation(after) == ["R9 R10 W=R11"]


def test_f11_action_cards_are_never_melded():
    state = frayzy(["SKIP~1 SKIP~2 SKIP~3 R1", "B2 B3"])
    refusal = expect_illegal(state, 0, lay_meld("SKIP~1 SKIP~2 SKIP~3"), "bad_meld", "F9-F11")
    assert "cannot be melded" in refusal.message
    state = frayzy(["DRAW5 R1", "B2 B3"], melds=[(1, "R7 B7 G7")])
    expect_illegal(state, 0, lay_off(1, "DRAW5"), "bad_lay_off")
    assert all(c.has_rank or c.code == "W" for shape in candidate_melds([card(w) for w in
               "R7 B7 G7 W SKIP DRAW5".split()], MELD_RULES) for c in shape.cards)


def test_f12_anyone_may_lay_off_on_any_meld_at_either_end_of_a_run():
    state = frayzy(["R3 R7 B1", "B2 B3"], melds=[(1, "R4 R5 R6")])
    after, _ = play(state, 0, lay_off(1, "R3"), lay_off(1, "R7"))
    assert meld_notation(after) == ["R3 R4 R5 R6 R7"] and after.deal.melds[0].owner == 1


def test_f12_a_wild_may_be_added_to_a_meld_without_a_wild():
    state = frayzy(["W B1", "B2 B3"], melds=[(1, "R7 B7 G7")])
    after, _ = state.apply(0, lay_off(1, "W"))
    assert meld_notation(after) == ["R7 B7 G7 W=7"]


# ----- F13: wild swap ------------------------------------------------------------------------------

def test_f13_edge_4_a_run_wild_comes_out_only_for_its_exact_number_and_colour():
    state = frayzy(["B10 R10 G1", "B2 B3"], melds=[(1, "R9 W=R10 R11")])
    expect_illegal(state, 0, swap(1, "B10"), "bad_swap", "F11")
    after, events = state.apply(0, swap(1, "R10"))
    assert meld_notation(after) == ["R9 R10 R11"]
    assert held(after, 0) == ["B10", "G1", "W"] and after.deal.pending == []
    assert events == [{"type": "swap_wild", "seat": 0, "meld": 1, "card": "R10", "wild": "W", "stood_for": "R10"}]


def test_f13_a_set_wild_comes_out_for_a_card_of_that_number_in_any_colour():
    state = frayzy(["Y7 G1", "B2 B3"], melds=[(1, "R7 B7 W=7")])
    assert SwapWild(1, "Y7", "W") in state.legal_actions(0)
    after, _ = state.apply(0, swap(1, "Y7"))
    assert meld_notation(after) == ["R7 B7 Y7"]


def test_f13_the_freed_wild_may_be_kept_and_the_turn_ended_with_another_card():
    state = frayzy(["R10 G1", "B2 B3"], melds=[(1, "R9 W=R10 R11")])
    after, _ = play(state, 0, swap(1, "R10"), discard("G1"))
    assert held(after, 0) == ["W"] and after.deal.turn == 1


def test_f13_the_freed_wild_may_be_used_the_same_turn():
    state = frayzy(["R10 G1", "B2 B3"], melds=[(1, "R9 W=R10 R11"), (1, "B7 Y7 G7")])
    after, _ = play(state, 0, swap(1, "R10"), lay_off(2, "W"))
    assert meld_notation(after) == ["R9 R10 R11", "B7 Y7 G7 W=7"]


# ----- F14: action cards ---------------------------------------------------------------------------

def test_f14_skip_passes_over_the_next_player():
    state = frayzy(["SKIP R1", "B1 B2", "G1 G2"])
    after, events = state.apply(0, PlayAction("SKIP"))
    assert (after.deal.turn, after.deal.phase) == (2, Phase.DRAW)
    assert events == [{"type": "play_action", "seat": 0, "card": "SKIP", "action": "SKIP", "skipped": 1}]
    assert after.deal.discard[-1] == card("SKIP")


def test_f14_edge_8_with_two_players_skip_gives_another_full_turn():
    state = frayzy(["SKIP R1 R2", "B1 B2"], stock="G3 G4 G5")
    after, _ = state.apply(0, PlayAction("SKIP"))
    assert (after.deal.turn, after.deal.phase) == (0, Phase.DRAW)
    after, _ = play(after, 0, DrawStock(), discard("R1"))
    assert held(after, 0) == ["G5", "R2"] and after.deal.turn == 1


def test_f14_edge_7_draw_5_at_the_next_player_who_still_draws_on_their_turn():
    state = frayzy(["DRAW5 R1", "B1 B2", "G1 G2"], stock="Y1 Y2 Y3 Y4 Y5 Y6 Y7")
    after, events = state.apply(0, PlayAction("DRAW5", 1))
    assert held(after, 1) == sorted(["B1", "B2", "Y3", "Y4", "Y5", "Y6", "Y7"])
    assert (after.deal.turn, after.deal.phase) == (1, Phase.DRAW)
    assert {"type": "draw_five", "seat": 0, "target": 1, "count": 5, "start_card": False} in events
    after, _ = after.apply(1, DrawStock())
    assert len(after.deal.hands[1]) == 8 and after.deal.phase == Phase.PLAY


def test_f14_draw_5_may_be_aimed_at_yourself():
    state = frayzy(["DRAW5 R1", "B1 B2"], stock="Y1 Y2 Y3 Y4 Y5 Y6")
    assert {a.target for a in state.legal_actions(0) if isinstance(a, PlayAction)} == {0, 1}
    after, _ = state.apply(0, PlayAction("DRAW5", 0))
    assert len(after.deal.hands[0]) == 6 and after.deal.turn == 1


@pytest.mark.parametrize("target", [None, 2, -1, 7])
def test_f14_draw_5_at_a_seat_that_does_not_exist_is_refused(target):
    state = frayzy(["DRAW5 R1", "B1 B2"])
    refusal = expect_illegal(state, 0, PlayAction("DRAW5", target), "no_such_seat", "F14")
    assert "seat from 0 to 1" in refusal.message


def test_f14_draw_5_with_fewer_than_5_cards_in_the_stock_takes_the_rest_and_ends_the_round():
    state = frayzy(["DRAW5 R1", "B1 B2"], stock="Y1 Y2")
    after, events = state.apply(0, PlayAction("DRAW5", 1))
    assert {"type": "draw_five", "seat": 0, "target": 1, "count": 2, "start_card": False} in events
    result = after.last_result
    assert (result.winner, result.penalties) == (None, (5, 20))


def test_f14_discard_1_asks_for_one_more_discard_of_any_card_even_the_taken_one():
    state = frayzy(["DISCARD1 R1 G9", "B1 B2"], taken="G9")
    after, events = state.apply(0, PlayAction("DISCARD1"))
    assert (after.deal.turn, after.deal.phase) == (0, Phase.EXTRA_DISCARD)
    assert set(after.legal_actions(0)) == {Discard("G9"), Discard("R1")}
    after, more = after.apply(0, discard("G9"))
    assert more[0] == {"type": "extra_discard", "seat": 0, "card": "G9"}
    assert held(after, 0) == ["R1"] and (after.deal.turn, after.deal.phase) == (1, Phase.DRAW)


def test_f14_an_action_card_as_the_extra_discard_has_no_effect():
    state = frayzy(["DISCARD1 DRAW5 R1", "B1 B2", "G1 G2"])
    after, _ = play(state, 0, PlayAction("DISCARD1"), discard("DRAW5"))
    assert [len(h) for h in after.deal.hands] == [1, 2, 2] and after.deal.turn == 1


def test_f14_edge_6_a_second_action_card_in_a_turn_is_refused():
    state = frayzy(["DISCARD1 SKIP R1", "B1 B2"])
    after, _ = state.apply(0, PlayAction("DISCARD1"))
    refusal = expect_illegal(after, 0, PlayAction("SKIP"), "one_action_per_turn", "F14")
    assert "one action card" in refusal.message.lower()
    assert not any(isinstance(a, PlayAction) for a in after.legal_actions(0))


def test_f14_only_a_discard_is_allowed_after_discard_1():
    state = frayzy(["DISCARD1 R1 R2 R3 B5", "B1 B2"])
    after, _ = state.apply(0, PlayAction("DISCARD1"))
    expect_illegal(after, 0, lay_meld("R1 R2 R3"), "wrong_phase", "F14")


def test_f14_skip_and_discard_1_take_no_target():
    state = frayzy(["SKIP R1", "B1 B2"])
    expect_illegal(state, 0, PlayAction("SKIP", 1), "malformed", "F14")


# ----- F15-F16: going out and round end ------------------------------------------------------------

def test_f15_going_out_by_the_turn_ending_discard_ends_the_round():
    state = frayzy(["R5", "R1 B2"])
    after, events = state.apply(0, discard("R5"))
    assert after.last_result.winner == 0 and after.deal.number == 2
    assert [e["type"] for e in events] == ["discard", "hand_over", "new_deal"]


def test_f15_a_meld_may_not_empty_the_hand():
    state = frayzy(["R1 R2 R3", "B1 B2"])
    assert LayMeld(("R1", "R2", "R3")) not in state.legal_actions(0)
    expect_illegal(state, 0, lay_meld("R1 R2 R3"), "dead_end", "F15")


def test_f15_edge_9_a_last_draw_5_goes_out_and_its_target_draws_before_scoring():
    state = frayzy(["DRAW5", "R1", "G1"], stock="Y1 Y2 Y3 Y4 Y5 Y6 Y7")
    after, events = state.apply(0, PlayAction("DRAW5", 1))
    assert after.last_result == HandResult(1, 0, (0, 30, 5))
    assert [e["type"] for e in events] == ["play_action", "draw_five", "hand_over", "new_deal"]


def test_f15_edge_10_discard_1_with_one_card_left_discards_it_and_goes_out():
    state = frayzy(["DISCARD1 R5", "B1 B2"])
    after, _ = state.apply(0, PlayAction("DISCARD1"))
    assert after.legal_actions(0) == [Discard("R5")]
    after, _ = after.apply(0, discard("R5"))
    assert after.last_result.winner == 0


def test_f15_discard_1_as_the_last_card_goes_out_at_once():
    state = frayzy(["DISCARD1", "B1 B2"])
    after, _ = state.apply(0, PlayAction("DISCARD1"))
    assert after.last_result.winner == 0 and after.last_result.penalties == (0, 10)


def test_f16_the_round_ends_with_no_winner_after_the_turn_that_empties_the_stock():
    state = frayzy(["R1 B5", "B1 B2"], stock="G9", phase="draw")
    after, events = state.apply(0, DrawStock())
    assert after.deal.number == 1 and after.deal.phase == Phase.PLAY and after.deal.stock == []
    assert {"type": "stock_exhausted"} in events
    after, events = after.apply(0, discard("R1"))
    assert after.last_result.winner is None and after.last_result.penalties == (10, 10)
    assert after.deal.number == 2


def test_f16_the_player_who_took_the_last_card_can_still_go_out():
    state = frayzy(["R1 R2 B5", "B1 B2"], stock="R3", phase="draw")
    after, _ = play(state, 0, DrawStock(), lay_meld("R1 R2 R3"), discard("B5"))
    assert after.last_result.winner == 0


def test_f16_the_stock_is_never_rebuilt():
    state = frayzy(["R1 B5", "B1 B2"], stock="G9", discard="Y1 Y2 Y3 Y4", phase="draw")
    after, events = state.apply(0, DrawStock())
    assert after.deal.stock == [] and len(after.deal.discard) == 4
    assert not any(e["type"] == "stock_rebuilt" for e in events)


# ----- F17-F18: scoring and game end --------------------------------------------------------------

def test_f17_edge_12_a_hand_of_12_1_wild_skip_scores_30():
    state = frayzy(["R5", "R12 B1 W SKIP"])
    after, _ = state.apply(0, discard("R5"))
    assert after.last_result.penalties == (0, 30) and after.totals == [0, 30]


def test_f18_the_game_ends_when_a_total_reaches_100_and_the_lowest_total_wins():
    state = frayzy(["R5", "R12 B1 W SKIP"], totals=[95, 70])
    after, events = state.apply(0, discard("R5"))
    assert after.finished and after.totals == [95, 100] and after.standings() == (1, 2)
    assert events[-1] == {"type": "game_over", "standings": [1, 2]}


def test_f18_extended_play_ends_at_200():
    state = frayzy(["R5", "R12 B1 W SKIP"], totals=[95, 70], variant=Frayzy(target=EXTENDED_TARGET))
    after, _ = state.apply(0, discard("R5"))
    assert not after.finished and after.totals == [95, 100]
    assert "200 points (Extended Play)" in Frayzy(target=EXTENDED_TARGET).describe_options()[0]


def test_f18_a_tie_goes_to_the_lower_final_round_then_is_shared():
    state = new_game(3)
    state.finished, state.totals = True, [90, 90, 105]
    state.last_result = HandResult(4, 0, (0, 10, 25))
    assert state.standings() == (1, 2, 3)
    state.last_result = HandResult(4, None, (10, 10, 25))
    assert state.standings() == (1, 1, 3)


# ----- shared conventions as Frayzy plays them -----------------------------------------------------

def test_0_4_edge_11_the_taken_discard_may_not_end_the_turn():
    state = frayzy(["R1 R2", "B1 B2"], discard="G9", phase="draw")
    after, _ = state.apply(0, TakeDiscard())
    assert Discard("G9") not in after.legal_actions(0)
    expect_illegal(after, 0, discard("G9"), "taken_discard", "0.4")
    after.apply(0, discard("R1"))


def test_0_5_a_play_may_not_leave_only_the_taken_discard():
    state = frayzy(["R1 R2 R3 G9", "B1 B2"], taken="G9")
    expect_illegal(state, 0, lay_meld("R1 R2 R3"), "dead_end", "0.5")


def test_0_7_a_refused_action_changes_nothing():
    state = frayzy(["W~1 B5", "B2 B3"], melds=[(1, "B4 W=B5 B6")])
    expect_illegal(state, 0, lay_off(1, "W~1"), "bad_lay_off")
    expect_illegal(state, 1, discard("B2"), "not_your_turn", "0.1")


def test_0_5_a_swap_that_would_leave_only_the_taken_wild_is_not_listed_and_is_refused():
    state = frayzy(["Y5", "B2 B3"], melds=[(1, "R5 B5 G5")], discard="R9 W", phase="draw")
    taken, _ = state.apply(0, TakeDiscard())
    laid, _ = taken.apply(0, lay_off(1, "W"))
    assert not any(isinstance(a, SwapWild) for a in laid.legal_actions(0))
    expect_illegal(laid, 0, swap(1, "Y5"), "dead_end", "0.5")
    assert laid.legal_actions(0) == [Discard("Y5")]


def test_f16_a_position_with_an_empty_stock_offers_no_draw_from_it_and_refuses_one():
    state = frayzy(["R1 R2", "B1 B2"], stock="", discard="G9", phase="draw")
    assert state.legal_actions(0) == [TakeDiscard()]
    expect_illegal(state, 0, DrawStock(), "empty_stock", "F16")


def test_0_4_a_meld_may_use_the_wild_taken_from_the_discard_pile_or_another_wild():
    state = frayzy(["B3 G3~1 W~2 W~3 Y4", "B2 B3~1"], taken="W~3")
    melds = {a for a in state.legal_actions(0) if isinstance(a, LayMeld) and set(a.cards) >= {"B3", "G3~1"}}
    assert {LayMeld(("B3", "G3~1", "W~2"), (("W~2", "3"),)), LayMeld(("B3", "G3~1", "W~3"), (("W~3", "3"),))} <= melds


def test_f11_a_run_wild_may_stand_for_a_number_held_in_hand():
    state = frayzy(["R1 R2 R3 W G8", "B2 B3"])
    assert LayMeld(("R1", "W", "R3"), (("W", "R2"),)) in state.legal_actions(0)
    after, _ = state.apply(0, lay_meld("R1 R3 W=R2"))
    assert meld_notation(after) == ["R1 W=R2 R3"]
