"""Table tests for Standard Rummy: rules S1-S16 and conventions 0.1-0.7 of RULES.md, and the nine
"Standard Rummy edge cases". One behaviour per test; each test is named after the rule it checks.

Positions are built card by card with ``builders.build`` (notation as in RULES.md). In a built
position the stock holds every card not placed elsewhere unless the test names it, piles are
written bottom to top, and ``expect_illegal`` also checks that a refused action changed nothing
(rule 0.7).
"""
from __future__ import annotations

import pytest
from builders import (
    DrawStock,
    Phase,
    TakeDiscard,
    build,
    card,
    cards,
    deal_cards,
    discard,
    expect_illegal,
    held,
    lay_meld,
    lay_off,
    meld_keys,
    play,
    snapshot,
    sorted_keys,
)

from games.engine.actions import Discard, LayMeld, LayOff, PlayAction, action_from_json
from games.engine.cards import RANKS, SUITS, shuffled, standard_deck
from games.engine.errors import IllegalAction
from games.engine.melds import read_meld
from games.engine.state import GameState, deal_seed
from games.engine.variants import make_variant
from games.engine.variants.standard import StandardRummy

STANDARD = StandardRummy()
RUMMY_ON = StandardRummy(going_rummy=True)
ACES_LOW_ONLY = "Aces are low only: a run may go A-2-3 but not Q-K-A or K-A-2."


def new_game(players: int, seed: str = "table-seed", variant: StandardRummy = STANDARD) -> GameState:
    """A fresh game from ``GameState.new``."""
    return GameState.new(variant, players, seed)


def event_types(events: list[dict]) -> list[str]:
    """The ``type`` of each event, in order."""
    return [e["type"] for e in events]


def draw_and_discard_drawn(state: GameState, seat: int) -> tuple[GameState, list[dict]]:
    """``seat`` draws from the stock and discards the card it drew (a do-nothing turn)."""
    before = list(state.deal.hands[seat])
    drawn_state, events = state.apply(seat, DrawStock())
    (drawn,) = [c for c in drawn_state.deal.hands[seat] if c not in before]
    after, more = drawn_state.apply(seat, Discard(drawn.key))
    return after, events + more


# ----- S1: the deck ---------------------------------------------------------------------------


def test_s1_deck_is_one_52_card_deck_without_jokers():
    deck = STANDARD.deck()
    assert len(deck) == 52
    assert len(set(deck)) == 52
    assert not any(c.is_joker for c in deck)
    assert {c.code for c in deck} == {f"{rank}{suit}" for rank in RANKS for suit in SUITS}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_s1_a_new_deal_places_all_52_cards(players):
    state = new_game(players)
    assert deal_cards(state) == sorted(standard_deck())


# ----- S2: players ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_s2_two_to_four_players_may_play(players):
    state = new_game(players)
    assert state.players == players
    assert len(state.deal.hands) == players
    assert state.totals == [0] * players


@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_s2_other_player_counts_are_refused_with_bad_players(players):
    with pytest.raises(IllegalAction) as refused:
        new_game(players)
    assert refused.value.code == "bad_players"
    assert refused.value.rule == "S2"


# ----- S3: the deal ---------------------------------------------------------------------------


def test_s3_two_players_are_dealt_10_cards_each():
    deal = new_game(2).deal
    assert [len(h) for h in deal.hands] == [10, 10]
    assert len(deal.discard) == 1
    assert len(deal.stock) == 52 - 20 - 1


@pytest.mark.parametrize("players, stock_size", [(3, 52 - 21 - 1), (4, 52 - 28 - 1)])
def test_s3_three_or_four_players_are_dealt_7_cards_each(players, stock_size):
    deal = new_game(players).deal
    assert [len(h) for h in deal.hands] == [7] * players
    assert len(deal.discard) == 1
    assert len(deal.stock) == stock_size


@pytest.mark.parametrize("players", [2, 3, 4])
def test_s3_the_next_card_after_the_deal_is_turned_up_to_start_the_discard_pile(players):
    state = new_game(players, seed="upcard")
    order = shuffled(STANDARD.deck(), deal_seed("upcard", 1))  # top of the pack is the end
    dealt = players * STANDARD.hand_size(players)
    assert sorted(c for hand in state.deal.hands for c in hand) == sorted(order[-dealt:])
    assert state.deal.discard == [order[-dealt - 1]]
    assert state.deal.stock == order[:-dealt - 1]


# ----- S4: dealer and first player ------------------------------------------------------------


def test_s4_first_dealer_is_random():
    dealers = {new_game(4, seed=f"dealer-{i}").deal.dealer for i in range(40)}
    assert dealers == {0, 1, 2, 3}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", ["a", "b", "c", "d", "e"])
def test_s4_the_player_left_of_the_dealer_starts(players, seed):
    deal = new_game(players, seed=seed).deal
    assert deal.turn == (deal.dealer + 1) % players
    assert deal.phase == Phase.DRAW


@pytest.mark.parametrize("dealer, winner", [(0, 0), (0, 1), (1, 1), (1, 0)])
def test_s4_with_two_players_the_winner_deals_the_next_hand(dealer, winner):
    hands = ["KH QH 2S", "KS QS 2D"]
    hands[winner] = "4C 5C 6C 9D"
    state = build(hands, turn=winner, dealer=dealer, phase="play")
    after, _ = play(state, winner, lay_meld("4C 5C 6C"), discard("9D"))
    assert after.deal.number == 2
    assert after.deal.dealer == winner
    assert after.deal.turn == 1 - winner


@pytest.mark.parametrize("players", [3, 4])
def test_s4_with_three_or_four_players_the_deal_passes_left(players):
    hands = ["KH QH 2S", "KS QS 2D", "KD QD 2H", "KC QC 2C"][:players]
    hands[0] = "4C 5C 6C 9D"
    state = build(hands, turn=0, dealer=1, phase="play")
    after, _ = play(state, 0, lay_meld("4C 5C 6C"), discard("9D"))
    assert after.last_result.winner == 0
    assert after.deal.dealer == 2
    assert after.deal.turn == 3 % players


def test_s4_after_a_stalemate_the_deal_passes_left_even_with_two_players():
    state = build(["10S 3D", "10H"], turn=0, dealer=0, phase="play", stalemate=True)
    after, _ = state.apply(0, discard("3D"))
    assert after.last_result.winner is None
    assert after.deal.dealer == 1
    assert after.deal.turn == 0


# ----- S5: the draw ---------------------------------------------------------------------------


def test_s5_draw_from_stock_takes_its_top_card_and_does_not_name_it():
    state = build(["2C 3D", "4H 5S"], stock="9C 8C KD", discard="7S")
    after, events = state.apply(0, DrawStock())
    assert held(after, 0) == sorted_keys("2C 3D KD")
    assert after.deal.stock == cards("9C 8C")
    assert after.deal.discard == cards("7S")
    assert after.deal.phase == Phase.PLAY
    assert events == [{"type": "draw_stock", "seat": 0}]


def test_s5_take_discard_takes_only_its_top_card():
    state = build(["2C 3D", "4H 5S"], stock="9C 8C KD", discard="7S 8D")
    after, events = state.apply(0, TakeDiscard())
    assert held(after, 0) == sorted_keys("2C 3D 8D")
    assert after.deal.discard == cards("7S")
    assert after.deal.stock == cards("9C 8C KD")
    assert after.deal.taken_discard == card("8D")
    assert events == [{"type": "take_discard", "seat": 0, "card": "8D"}]


def test_s5_draw_phase_offers_the_stock_and_the_discard_pile():
    state = build(["2C 3D", "4H 5S"], discard="7S")
    assert set(state.legal_actions(0)) == {DrawStock(), TakeDiscard()}


@pytest.mark.parametrize("second_draw", [DrawStock(), TakeDiscard()], ids=["stock", "discard"])
def test_s5_only_one_card_is_drawn_per_turn(second_draw):
    state = build(["2C 3D", "4H 5S"], discard="7S 8D")
    drawn, _ = state.apply(0, DrawStock())
    expect_illegal(drawn, 0, second_draw, "wrong_phase", "0.2")


def test_s5_an_empty_discard_pile_cannot_be_taken():
    state = build(["2C 3D", "4H 5S"], discard="")
    expect_illegal(state, 0, TakeDiscard(), "empty_discard", "S5")
    assert state.legal_actions(0) == [DrawStock()]


# ----- S6: the play phase ---------------------------------------------------------------------


def test_s6_any_number_of_melds_and_lay_offs_in_one_turn():
    state = build(["4C 5C 6C 9H 9S 9D 7C 3C 8C 2H KD", "KH QH"], melds=[(1, "8S 8H 8D")],
                  turn=0, phase="play")
    after, _ = play(state, 0, lay_meld("4C 5C 6C"), lay_meld("9H 9S 9D"), lay_off(2, "7C"),
                    lay_off(2, "3C"), lay_off(1, "8C"))
    assert meld_keys(after) == [(1, 1, "8S 8H 8D 8C"), (2, 0, "3C 4C 5C 6C 7C"), (3, 0, "9H 9S 9D")]
    assert held(after, 0) == sorted_keys("2H KD")
    assert (after.deal.turn, after.deal.phase) == (0, Phase.PLAY)


# ----- S7 and 0.4(a): the discard -------------------------------------------------------------


def test_s7_a_discard_ends_the_turn():
    state = build(["2C 3D KS", "4H 5S"], discard="7S", turn=0, phase="play")
    after, events = state.apply(0, discard("KS"))
    assert held(after, 0) == sorted_keys("2C 3D")
    assert after.deal.discard == cards("7S KS")
    assert (after.deal.turn, after.deal.phase) == (1, Phase.DRAW)
    assert events == [{"type": "discard", "seat": 0, "card": "KS"}]


def test_s7_the_card_taken_from_the_discard_pile_cannot_be_discarded_that_turn():
    state = build(["2C 3D", "4H 5S"], discard="7S 9S")
    taken, _ = state.apply(0, TakeDiscard())
    refusal = expect_illegal(taken, 0, discard("9S"), "taken_discard", "S7")
    assert "9♠" in refusal.message


def test_s7_a_card_drawn_from_the_stock_may_be_discarded_at_once():
    state = build(["2C 3D", "4H 5S"], stock="8C KD", discard="7S")
    after, _ = play(state, 0, DrawStock(), discard("KD"))
    assert after.deal.discard == cards("7S KD")
    assert after.deal.turn == 1


def test_s7_legal_actions_never_offer_the_taken_card_as_a_discard():
    state = build(["2C 3D", "4H 5S"], discard="7S 9S")
    taken, _ = state.apply(0, TakeDiscard())
    assert {a for a in taken.legal_actions(0) if isinstance(a, Discard)} == {discard("2C"), discard("3D")}


def test_0_4a_the_taken_card_may_be_discarded_on_a_later_turn():
    state = build(["2C 3D", "4H 5S"], stock="JC QC KC", discard="7S 9S")
    state, _ = play(state, 0, TakeDiscard(), discard("2C"))
    state, _ = play(state, 1, DrawStock(), discard("KC"))
    after, _ = play(state, 0, DrawStock(), discard("9S"))
    assert after.deal.discard[-1] == card("9S")
    assert after.deal.turn == 1


# ----- S8: melds ------------------------------------------------------------------------------


@pytest.mark.parametrize("meld, kind, on_table", [
    ("7H 7S 7D", "set", "7H 7S 7D"),
    ("7H 7S 7D 7C", "set", "7H 7S 7D 7C"),
    ("AC 2C 3C", "run", "AC 2C 3C"),
    ("3C AC 2C", "run", "AC 2C 3C"),
    ("KD 9D JD 10D QD", "run", "9D 10D JD QD KD"),
])
def test_s8_legal_melds_are_laid_on_the_table(meld, kind, on_table):
    state = build([f"{meld} 5H", "KH QH"], turn=0, phase="play")
    after, _ = state.apply(0, lay_meld(meld))
    assert meld_keys(after) == [(1, 0, on_table)]
    assert after.deal.melds[0].shape.kind == kind
    assert held(after, 0) == sorted_keys("5H")


@pytest.mark.parametrize("meld, message", [
    ("7H 7S", "A meld needs at least 3 cards."),
    ("4H 5S 6H", "4♥ 5♠ 6♥ is not a meld: a set needs one rank and a run needs one suit."),
    ("7H 7S 8H", "7♥ 7♠ 8♥ is not a meld: a set needs one rank and a run needs one suit."),
    ("3C 5C 6C", "A run needs consecutive ranks: there is a gap between 3♣ and 5♣."),
    ("QC KC AC", ACES_LOW_ONLY),
    ("JS QS KS AS", ACES_LOW_ONLY),
    ("KC AC 2C", ACES_LOW_ONLY),
])
def test_s8_illegal_melds_are_refused_with_a_reason_citing_s8(meld, message):
    state = build([f"{meld} 5H", "KH QH"], turn=0, phase="play")
    refusal = expect_illegal(state, 0, lay_meld(meld), "bad_meld", "S8")
    assert refusal.message == message


@pytest.mark.parametrize("meld, message", [
    ("7H 7S 7D 7C 7H~1", "A set has at most 4 cards."),
    ("7H 7H~1 7S", "A set needs different suits: ♥ appears twice."),
    ("3C 4C 4C~1", "A run cannot hold the same rank twice."),
])
def test_s8_set_and_run_limits_hold_even_for_cards_of_a_second_copy(meld, message):
    with pytest.raises(IllegalAction) as refused:
        read_meld(cards(meld), STANDARD.meld_rules)
    assert (refused.value.code, refused.value.rule, refused.value.message) == ("bad_meld", "S8", message)


def test_s8_an_ace_extends_a_run_downwards():
    state = build(["AC 5D 9D", "KH QH"], melds=[(1, "2C 3C 4C")], turn=0, phase="play")
    after, _ = state.apply(0, lay_off(1, "AC"))
    assert meld_keys(after) == [(1, 1, "AC 2C 3C 4C")]


def test_s8_an_ace_cannot_be_laid_off_above_a_king():
    state = build(["AC 5D 9D", "KH QH"], melds=[(1, "JC QC KC")], turn=0, phase="play")
    refusal = expect_illegal(state, 0, lay_off(1, "AC"), "bad_lay_off", "S8")
    assert refusal.message == f"A♣ does not fit J♣ Q♣ K♣. {ACES_LOW_ONLY}"


@pytest.mark.parametrize("meld, card_text", [
    ("4H 5H 6H", "7S"),   # another suit
    ("4H 5H 6H", "8H"),   # leaves a gap
    ("9S 9H 9D", "10C"),  # another rank
])
def test_s8_a_lay_off_must_leave_a_legal_meld(meld, card_text):
    state = build([f"{card_text} 2D 3D", "KH QH"], melds=[(1, meld)], turn=0, phase="play")
    expect_illegal(state, 0, lay_off(1, card_text), "bad_lay_off", "S8")


# ----- S9: lay-offs ---------------------------------------------------------------------------


def test_s9_lay_off_on_an_opponents_run_at_either_end_without_a_meld_of_your_own():
    state = build(["3H 7H 8H KD", "2S 2D"], melds=[(1, "4H 5H 6H")], turn=0, phase="play")
    after, events = play(state, 0, lay_off(1, "3H"), lay_off(1, "7H 8H"))
    assert meld_keys(after) == [(1, 1, "3H 4H 5H 6H 7H 8H")]
    assert held(after, 0) == sorted_keys("KD")
    assert events[-1] == {"type": "lay_off", "seat": 0, "meld": 1, "cards": ["7H", "8H"]}


# ----- S10: no wilds --------------------------------------------------------------------------


@pytest.mark.parametrize("meld", ["5H 2C 7H", "9S 9H 2C", "JD QD 2D"])
def test_s10_a_two_is_a_natural_and_cannot_stand_in_for_another_card(meld):
    state = build([f"{meld} KS", "KH QH"], turn=0, phase="play")
    expect_illegal(state, 0, lay_meld(meld), "bad_meld", "S8")


@pytest.mark.parametrize("meld", ["2C 2D 2H", "AC 2C 3C"])
def test_s10_a_two_melds_as_its_own_rank(meld):
    state = build([f"{meld} KS", "KH QH"], turn=0, phase="play")
    after, _ = state.apply(0, lay_meld(meld))
    assert len(after.deal.melds) == 1


def test_a_move_of_another_game_is_refused_with_the_game_named():
    state = build(["KS QS", "KH QH"], turn=0, phase="play")
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, PlayAction("SKIP"))
    assert (refused.value.code, str(refused.value)) == ("malformed", "Standard Rummy has no such move.")


def test_s10_there_is_no_swap_action():
    with pytest.raises(IllegalAction) as refused:
        action_from_json({"type": "swap", "meld": 1, "cards": ["5H"]})
    assert refused.value.code == "malformed"


# ----- S11 and S12: going out, hand end -------------------------------------------------------


def test_s11_going_out_by_discarding_the_last_card():
    state = build(["4C 5C 6C 9D", "KH QH 2S"], turn=0, phase="play")
    after, events = play(state, 0, lay_meld("4C 5C 6C"), discard("9D"))
    assert after.last_result.winner == 0
    assert after.last_result.penalties == (0, 22)
    assert event_types(events) == ["lay_meld", "discard", "hand_over", "new_deal"]


def test_s11_going_out_by_melding_all_remaining_cards_needs_no_discard():
    state = build(["4C 5C 6C 9D 9S 9H", "KH QH 2S"], turn=0, phase="play")
    after, events = play(state, 0, lay_meld("4C 5C 6C"), lay_meld("9D 9S 9H"))
    assert after.last_result.winner == 0
    assert "discard" not in event_types(events)
    assert event_types(events)[-2:] == ["hand_over", "new_deal"]


def test_s11_going_out_by_laying_off_the_last_cards_needs_no_discard():
    state = build(["10D 9D", "KH QH 2S"], melds=[(1, "JD QD KD")], turn=0, phase="play")
    after, events = state.apply(0, lay_off(1, "9D 10D"))
    assert after.last_result.winner == 0
    assert event_types(events) == ["lay_off", "hand_over", "new_deal"]


def test_s11_a_player_who_still_holds_cards_must_discard_to_end_the_turn():
    state = build(["4C 5C 6C 9D", "KH QH 2S"], turn=0, phase="play")
    after, _ = state.apply(0, lay_meld("4C 5C 6C"))
    assert (after.deal.turn, after.deal.phase, after.deal.number) == (0, Phase.PLAY, 1)
    assert after.legal_actions(0) == [discard("9D")]


def test_s12_the_hand_ends_at_once_and_the_next_deal_is_dealt():
    state = build(["4C 5C 6C 9D", "KH QH 2S"], turn=0, dealer=1, phase="play", seed="s12")
    after, events = play(state, 0, lay_meld("4C 5C 6C"), discard("9D"))
    deal = after.deal
    assert after.last_result.deal == 1
    assert events[-1] == {"type": "new_deal", "deal": 2, "dealer": 0}
    assert deal.number == 2
    assert deal.seed == deal_seed("s12", 2)
    assert [len(h) for h in deal.hands] == [10, 10]
    assert (len(deal.stock), len(deal.discard), deal.melds) == (31, 1, [])
    assert (deal.turn, deal.phase, deal.taken_discard, deal.rebuilds) == (1, Phase.DRAW, None, 0)
    assert deal_cards(after) == sorted(standard_deck())
    assert not after.finished


def test_s12_the_other_players_get_no_further_turn_in_that_hand():
    state = build(["4C 5C 6C 9D", "KH QH 2S", "AS 5D"], turn=0, dealer=2, phase="play")
    after, events = play(state, 0, lay_meld("4C 5C 6C"), discard("9D"))
    hand_over = next(e for e in events if e["type"] == "hand_over")
    assert hand_over["penalties"] == [0, 22, 6]
    assert after.deal.number == 2


# ----- S13: scoring ---------------------------------------------------------------------------


@pytest.mark.parametrize("card_text, points", [
    ("AS", 1), ("2D", 2), ("5C", 5), ("9H", 9), ("10C", 10), ("JS", 10), ("QD", 10), ("KH", 10),
])
def test_s13_card_points_ace_one_numbers_face_value_pictures_ten(card_text, points):
    assert STANDARD.card_points(card(card_text)) == points


def test_s13_winner_adds_zero_and_every_other_player_adds_their_own_hand():
    state = build(["4C 5C 6C 9D", "AS KH 7C", "10D 2C"], turn=0, phase="play", totals=[5, 7, 11])
    after, _ = play(state, 0, lay_meld("4C 5C 6C"), discard("9D"))
    assert after.last_result.penalties == (0, 18, 12)
    assert after.totals == [5, 25, 23]


# ----- S14: going rummy -----------------------------------------------------------------------

ONE_TURN_HAND = "4C 5C 6C 9D 9S 9H JH QH KH 2D"


def test_s14_going_rummy_is_off_by_default():
    assert STANDARD.going_rummy is False
    assert STANDARD.options() == {"target": 100, "going_rummy": False}
    state = build([ONE_TURN_HAND, "KS QS 2S"], turn=0, phase="play")
    after, _ = play(state, 0, lay_meld("4C 5C 6C"), lay_meld("9D 9S 9H"), lay_meld("JH QH KH"),
                    discard("2D"))
    assert after.last_result.penalties == (0, 22)
    assert after.last_result.rummy is False


def test_s14_going_rummy_doubles_every_opponents_penalty_when_the_option_is_on():
    state = build([ONE_TURN_HAND, "KS QS 2S", "AD 3S"], turn=0, phase="play", variant=RUMMY_ON)
    after, _ = play(state, 0, lay_meld("4C 5C 6C"), lay_meld("9D 9S 9H"), lay_meld("JH QH KH"),
                    discard("2D"))
    assert after.last_result.rummy is True
    assert after.last_result.penalties == (0, 44, 8)
    assert after.totals == [0, 44, 8]


def test_s14_no_rummy_when_the_winner_melded_on_an_earlier_turn():
    state = build(["4C 5C 6C 9D 9S 9H 2D", "KS QS 2S"], stock="3H 8H JC", turn=0, phase="play",
                  variant=RUMMY_ON)
    state, _ = play(state, 0, lay_meld("4C 5C 6C"), discard("2D"))
    state, _ = play(state, 1, DrawStock(), discard("JC"))
    after, _ = play(state, 0, DrawStock(), lay_meld("9D 9S 9H"), discard("8H"))
    assert after.last_result.winner == 0
    assert after.last_result.rummy is False
    assert after.last_result.penalties == (0, 22)


def test_s14_no_rummy_when_the_winner_laid_off_on_an_earlier_turn():
    state = build(["10D 9S 9H 9D 2D", "KS QS 2S"], melds=[(1, "JD QD KD")], stock="3H 8H JC",
                  turn=0, phase="play", variant=RUMMY_ON)
    state, _ = play(state, 0, lay_off(1, "10D"), discard("2D"))
    state, _ = play(state, 1, DrawStock(), discard("JC"))
    after, _ = play(state, 0, DrawStock(), lay_meld("9D 9S 9H"), discard("8H"))
    assert after.last_result.rummy is False
    assert after.last_result.penalties == (0, 22)


def test_s14_an_opponents_earlier_melds_do_not_stop_the_winner_going_rummy():
    state = build(["4C 5C 6C 9D 9S 9H", "JC QC KC 3D 4S"], stock="3H 8H", turn=1, phase="play",
                  variant=RUMMY_ON)
    state, _ = play(state, 1, lay_meld("JC QC KC"), discard("3D"))
    after, _ = play(state, 0, DrawStock(), lay_meld("4C 5C 6C"), lay_meld("9D 9S 9H"), discard("8H"))
    assert after.last_result.rummy is True
    assert after.last_result.penalties == (0, 8)


def test_s14_going_rummy_is_a_named_table_option():
    assert make_variant("standard", {"going_rummy": True}).going_rummy is True
    assert make_variant("standard").going_rummy is False
    with pytest.raises(IllegalAction) as refused:
        make_variant("standard", {"rummy_bonus": True})
    assert refused.value.code == "bad_options"


# ----- S15: game end --------------------------------------------------------------------------


def go_out_with_4c_5c_6c(state: GameState) -> tuple[GameState, list[dict]]:
    """Seat 0, in its play phase holding ``4C 5C 6C 9D``, melds the run and discards 9D to go out."""
    return play(state, 0, lay_meld("4C 5C 6C"), discard("9D"))


def test_s15_the_game_goes_on_while_every_total_is_below_100():
    state = build(["4C 5C 6C 9D", "KH QH 2S"], turn=0, phase="play", totals=[0, 77])
    after, events = go_out_with_4c_5c_6c(state)
    assert after.totals == [0, 99]
    assert not after.finished
    assert after.standings() is None
    assert after.deal.number == 2
    assert "game_over" not in event_types(events)


def test_s15_the_game_ends_when_a_total_passes_100():
    state = build(["4C 5C 6C 9D", "KH QH 2S"], turn=0, phase="play", totals=[0, 90])
    after, _ = go_out_with_4c_5c_6c(state)
    assert after.totals == [0, 112]
    assert after.finished
    assert after.phase == Phase.GAME_OVER


def test_s15_the_lowest_total_wins_not_the_last_hands_winner():
    state = build(["4C 5C 6C 9D", "KH QH", "5D"], turn=0, phase="play", totals=[40, 90, 30])
    after, events = go_out_with_4c_5c_6c(state)
    assert after.totals == [40, 110, 35]
    assert after.standings() == (2, 3, 1)
    assert events[-1] == {"type": "game_over", "standings": [2, 3, 1]}


def test_s15_a_tie_goes_to_the_lower_penalty_in_the_final_hand():
    state = build(["4C 5C 6C 9D", "5S", "10D"], turn=0, phase="play", totals=[70, 95, 60])
    after, _ = go_out_with_4c_5c_6c(state)
    assert after.totals == [70, 100, 70]
    assert after.standings() == (1, 3, 2)


def test_s15_a_full_tie_shares_the_place():
    state = build(["10S 3D", "10H"], turn=0, phase="play", totals=[90, 90], stalemate=True)
    after, events = state.apply(0, discard("3D"))
    assert after.totals == [100, 100]
    assert after.last_result.penalties == (10, 10)
    assert after.standings() == (1, 1)
    assert events[-1] == {"type": "game_over", "standings": [1, 1]}


def test_s15_tied_losers_share_their_place_too():
    state = build(["4C 5C 6C 9D", "10S", "10H"], turn=0, phase="play", totals=[50, 90, 90])
    after, _ = go_out_with_4c_5c_6c(state)
    assert after.standings() == (1, 2, 2)


def test_s15_the_target_is_a_table_option():
    state = build(["4C 5C 6C 9D", "KH QH 2S"], turn=0, phase="play", totals=[0, 30],
                  variant=StandardRummy(target=50))
    after, _ = go_out_with_4c_5c_6c(state)
    assert after.finished
    assert after.standings() == (1, 2)


def finished_game() -> GameState:
    """A two-player game that has just ended: seat 1 reached exactly 100."""
    state = build(["4C 5C 6C 9D", "AS KH 7C"], turn=0, phase="play", totals=[30, 82])
    after, _ = go_out_with_4c_5c_6c(state)
    assert after.finished
    return after


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("action", [DrawStock(), TakeDiscard(), lay_meld("4C 5C 6C"), discard("9D")],
                         ids=["draw_stock", "take_discard", "lay_meld", "discard"])
def test_s15_no_action_is_accepted_once_the_game_is_over(seat, action):
    over = finished_game()
    expect_illegal(over, seat, action, "game_over", "S15")
    assert over.legal_actions(seat) == []
    assert over.player_view(seat).phase == Phase.GAME_OVER


# ----- S16 and 0.6: rebuilding the stock, stalemate -------------------------------------------


def test_s16_the_stock_is_rebuilt_at_once_when_its_last_card_is_drawn():
    state = build(["2C 3D", "4H 5S"], stock="KD", discard="7S 8S 9S JD")
    after, events = state.apply(0, DrawStock())
    assert held(after, 0) == sorted_keys("2C 3D KD")
    assert sorted(after.deal.stock) == sorted(cards("7S 8S 9S"))
    assert after.deal.discard == cards("JD")
    assert after.deal.rebuilds == 1
    assert (after.deal.phase, after.deal.stalemate) == (Phase.PLAY, False)
    assert events[-1] == {"type": "stock_rebuilt", "count": 3}


def test_0_6_the_rebuilt_stock_is_a_reproducible_shuffle_of_all_but_the_top_discard():
    pile = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
    state = build(["2C 3D", "4H 5H"], stock="KD", discard=pile)
    first, _ = state.apply(0, DrawStock())
    again, _ = state.apply(0, DrawStock())
    assert sorted(first.deal.stock) == sorted(cards(pile)[:-1])
    assert first.deal.stock != cards(pile)[:-1]
    assert first.deal.stock == again.deal.stock


def test_s16_the_stock_is_rebuilt_at_most_twice_and_the_third_empty_stock_is_a_stalemate():
    state = build(["2C 3D", "4H 5S"], stock="KD", discard="7S 8S 9S", turn=0, dealer=1)
    seen = []
    for seat in (0, 1, 0, 1):
        state, events = draw_and_discard_drawn(state, seat)
        seen.append((state.deal.rebuilds, [e["type"] for e in events if e["type"].startswith("stock")]))
    assert seen == [(1, ["stock_rebuilt"]), (1, []), (2, ["stock_rebuilt"]), (2, [])]
    assert len(state.deal.stock) == 1
    drawn, events = state.apply(0, DrawStock())
    assert event_types(events) == ["draw_stock", "stock_exhausted"]
    assert drawn.deal.stock == [] and drawn.deal.stalemate


def test_s16_after_the_third_empty_stock_the_hand_ends_after_the_current_turn_with_no_winner():
    state = build(["2C 3D 4D 5D", "4H 5S"], stock="KD", discard="7S 8S 9S", rebuilds=2, turn=0,
                  dealer=1, totals=[10, 20])
    drawn, _ = state.apply(0, DrawStock())
    assert (drawn.deal.turn, drawn.deal.phase, drawn.deal.number) == (0, Phase.PLAY, 1)
    melded, _ = drawn.apply(0, lay_meld("3D 4D 5D"))  # the turn goes on as usual
    after, events = melded.apply(0, discard("KD"))
    assert after.last_result.winner is None
    assert after.last_result.penalties == (2, 9)
    assert after.totals == [12, 29]
    assert event_types(events) == ["discard", "hand_over", "new_deal"]
    assert (after.deal.number, after.deal.dealer, after.deal.rebuilds) == (2, 0, 0)


@pytest.mark.parametrize("hand, stock_top, plays", [
    ("3D 4D 5D", "2D", [lay_meld("2D 3D 4D 5D")]),
    ("3D 4D 5D", "KC", [lay_meld("3D 4D 5D"), discard("KC")]),
], ids=["by_melding", "by_discarding"])
def test_s16_the_last_drawer_may_still_go_out_in_the_stalemate_turn(hand, stock_top, plays):
    state = build([hand, "4H 5S"], stock=stock_top, discard="7S 8S 9S", rebuilds=2, turn=0)
    drawn, _ = state.apply(0, DrawStock())
    assert drawn.deal.stalemate
    after, _ = play(drawn, 0, *plays)
    assert after.last_result.winner == 0
    assert after.last_result.penalties == (0, 9)


@pytest.mark.parametrize("pile", ["7S", ""], ids=["one_discard", "no_discard"])
def test_s16_a_stock_that_cannot_be_rebuilt_is_a_stalemate_too(pile):
    state = build(["2C 3D", "4H 5S"], stock="KD", discard=pile, rebuilds=0, turn=0)
    drawn, events = state.apply(0, DrawStock())
    assert drawn.deal.stalemate and drawn.deal.rebuilds == 0
    assert events[-1] == {"type": "stock_exhausted"}
    after, _ = drawn.apply(0, discard("KD"))
    assert after.last_result.winner is None
    assert after.last_result.penalties == (5, 9)


# ----- 0.1 and 0.2: seats and turn phases -----------------------------------------------------


def test_0_1_play_runs_clockwise_through_the_seats():
    state = new_game(4, seed="clockwise")
    first = state.deal.turn
    order = []
    for _ in range(8):
        order.append(state.deal.turn)
        state, _ = draw_and_discard_drawn(state, state.deal.turn)
    assert order == [(first + i) % 4 for i in range(8)]


@pytest.mark.parametrize("action", [DrawStock(), TakeDiscard(), discard("9D")], ids=["draw", "take", "discard"])
def test_0_1_only_the_seat_to_move_may_act(action):
    state = build(["4C 5C 6C 9D", "KH QH 2S", "AS 5D"], discard="3S", turn=0)
    for seat in (1, 2):
        expect_illegal(state, seat, action, "not_your_turn", "0.1")
        assert state.legal_actions(seat) == []


def test_0_2_a_turn_is_draw_then_play_then_the_discard_that_ends_it():
    state = build(["4C 5C 6C 9D", "KH QH 2S"], stock="KD", turn=0)
    phases = [(state.deal.turn, state.deal.phase)]
    for action in (DrawStock(), lay_meld("4C 5C 6C"), discard("9D")):
        state, _ = state.apply(0, action)
        phases.append((state.deal.turn, state.deal.phase))
    assert phases == [(0, Phase.DRAW), (0, Phase.PLAY), (0, Phase.PLAY), (1, Phase.DRAW)]


@pytest.mark.parametrize("action", [lay_meld("4C 5C 6C"), lay_off(1, "10H"), discard("9D")],
                         ids=["lay_meld", "lay_off", "discard"])
def test_0_2_play_phase_actions_need_a_draw_first(action):
    state = build(["4C 5C 6C 9D 10H", "KH QH 2S"], melds=[(1, "7H 8H 9H")], turn=0, phase="draw")
    expect_illegal(state, 0, action, "wrong_phase", "0.2")


# ----- 0.5(b): no dead ends -------------------------------------------------------------------


def taken_9s() -> GameState:
    """Seat 0 has just taken 9S from the discard pile and holds ``4C 5C 6C 9S``; meld 1 is 7H 8H 9H."""
    state = build(["4C 5C 6C", "KH QH 2S"], melds=[(1, "7H 8H 9H")], discard="3S 9S", turn=0)
    taken, _ = state.apply(0, TakeDiscard())
    return taken


def test_0_5b_a_meld_that_leaves_only_the_taken_discard_is_refused():
    refusal = expect_illegal(taken_9s(), 0, lay_meld("4C 5C 6C"), "dead_end", "0.5")
    assert "9♠" in refusal.message


def test_0_5b_a_lay_off_that_leaves_only_the_taken_discard_is_refused():
    state = build(["10H", "KH QH 2S"], melds=[(1, "7H 8H 9H")], discard="3S 9S", turn=0)
    taken, _ = state.apply(0, TakeDiscard())
    expect_illegal(taken, 0, lay_off(1, "10H"), "dead_end", "0.5")


def test_0_5b_legal_actions_leave_out_plays_that_would_reach_a_dead_end():
    state = build(["10H 4C 5C 6C", "KH QH 2S"], melds=[(1, "7H 8H 9H")], discard="3S 9S", turn=0)
    taken, _ = state.apply(0, TakeDiscard())
    legal = taken.legal_actions(0)
    assert lay_meld("4C 5C 6C") in legal and lay_off(1, "10H") in legal  # each alone leaves a discard
    assert discard("9S") not in legal
    melded, _ = taken.apply(0, lay_meld("4C 5C 6C"))
    assert melded.legal_actions(0) == [discard("10H")]  # laying off 10H now would be a dead end


def test_0_5b_melding_every_card_including_the_taken_discard_goes_out():
    state = build(["4C 5C", "KH QH 2S"], discard="3S 6C", turn=0)
    after, _ = play(state, 0, TakeDiscard(), lay_meld("4C 5C 6C"))
    assert after.last_result.winner == 0
    assert after.last_result.penalties == (0, 22)


def test_0_5b_a_meld_using_the_taken_discard_is_allowed_while_a_discard_remains():
    state = build(["4C 5C 2H KS", "KH QH 2S"], discard="3S 6C", turn=0)
    after, _ = play(state, 0, TakeDiscard(), lay_meld("4C 5C 6C"), discard("2H"))
    assert meld_keys(after) == [(1, 0, "4C 5C 6C")]
    assert held(after, 0) == sorted_keys("KS")
    assert after.deal.turn == 1


# ----- 0.7: illegal actions change nothing ----------------------------------------------------

def position(phase: str = "draw", pile: str = "3S 10C") -> GameState:
    """Seat 0 to move holding ``4C 5C 6C 9D``; seat 1 holds ``KH QH 2S``; meld 1 is 7H 8H 9H."""
    return build(["4C 5C 6C 9D", "KH QH 2S"], melds=[(1, "7H 8H 9H")], discard=pile, turn=0, phase=phase)


ILLEGAL = {
    "not_your_turn": (position, 1, DrawStock(), "not_your_turn"),
    "draw_in_play_phase": (lambda: position("play"), 0, DrawStock(), "wrong_phase"),
    "discard_in_draw_phase": (position, 0, discard("9D"), "wrong_phase"),
    "take_empty_discard": (lambda: position(pile=""), 0, TakeDiscard(), "empty_discard"),
    "discard_opponents_card": (lambda: position("play"), 0, discard("KH"), "not_in_hand"),
    "discard_card_on_the_pile": (lambda: position("play"), 0, discard("10C"), "not_in_hand"),
    "meld_a_stock_card": (lambda: position("play"), 0, lay_meld("3C 4C 5C"), "not_in_hand"),
    "lay_off_a_table_card": (lambda: position("play"), 0, lay_off(1, "9H"), "not_in_hand"),
    "unknown_card_name": (lambda: position("play"), 0, Discard("ZZ"), "not_in_hand"),
    "bad_meld": (lambda: position("play"), 0, lay_meld("4C 5C 9D"), "bad_meld"),
    "same_card_three_times": (lambda: position("play"), 0, LayMeld(("4C", "4C", "4C")), "malformed"),
    "bad_lay_off": (lambda: position("play"), 0, lay_off(1, "9D"), "bad_lay_off"),
    "no_such_meld": (lambda: position("play"), 0, lay_off(2, "9D"), "no_such_meld"),
    "taken_discard": (taken_9s, 0, discard("9S"), "taken_discard"),
    "dead_end": (taken_9s, 0, lay_meld("4C 5C 6C"), "dead_end"),
    "game_over": (finished_game, 0, DrawStock(), "game_over"),
    "not_an_action": (lambda: position("play"), 0, object(), "malformed"),
}


@pytest.mark.parametrize("make_state, seat, action, code", ILLEGAL.values(), ids=ILLEGAL.keys())
def test_0_7_an_illegal_action_is_refused_with_a_stable_code_and_changes_nothing(make_state, seat, action, code):
    refusal = expect_illegal(make_state(), seat, action, code)
    assert refusal.message
    assert refusal.to_json() == {"code": code, "message": refusal.message, "rule": refusal.rule}


def test_0_7_a_legal_action_returns_a_new_state_and_leaves_the_old_one_unchanged():
    state = build(["4C 5C 6C 9D", "KH QH 2S"], turn=0, phase="play")
    before = snapshot(state)
    after, _ = go_out_with_4c_5c_6c(state)
    assert snapshot(state) == before
    assert after is not state and after.deal.number == 2


MALFORMED = {
    "not_an_object": ["draw_stock"],
    "no_type": {},
    "unknown_type": {"type": "shuffle"},
    "lay_meld_without_cards": {"type": "lay_meld"},
    "lay_meld_empty_cards": {"type": "lay_meld", "cards": []},
    "lay_meld_cards_as_text": {"type": "lay_meld", "cards": "4C 5C 6C"},
    "lay_meld_card_not_text": {"type": "lay_meld", "cards": ["4C", 5, "6C"]},
    "lay_meld_duplicated_card": {"type": "lay_meld", "cards": ["4C", "5C", "4C"]},
    "lay_off_without_meld": {"type": "lay_off", "cards": ["9D"]},
    "lay_off_bool_meld": {"type": "lay_off", "meld": True, "cards": ["9D"]},
    "lay_off_text_meld": {"type": "lay_off", "meld": "1", "cards": ["9D"]},
    "lay_off_float_meld": {"type": "lay_off", "meld": 1.0, "cards": ["9D"]},
    "lay_off_duplicated_card": {"type": "lay_off", "meld": 1, "cards": ["9D", "9D"]},
    "discard_without_card": {"type": "discard"},
    "discard_empty_card": {"type": "discard", "card": ""},
    "discard_card_list": {"type": "discard", "card": ["9D"]},
}


@pytest.mark.parametrize("data", MALFORMED.values(), ids=MALFORMED.keys())
def test_0_7_malformed_json_actions_are_refused_as_malformed(data):
    with pytest.raises(IllegalAction) as refused:
        action_from_json(data)
    assert refused.value.code == "malformed"
    assert refused.value.message


# ----- Standard Rummy edge cases (RULES.md section 4) -----------------------------------------


@pytest.mark.parametrize("meld, legal", [("AC 2C 3C", True), ("QC KC AC", False), ("KC AC 2C", False)])
def test_edge_case_1_aces_are_low_only(meld, legal):
    state = build([f"{meld} 9D", "KH QH 2S"], turn=0, phase="play")
    if legal:
        after, _ = state.apply(0, lay_meld(meld))
        assert meld_keys(after) == [(1, 0, "AC 2C 3C")]
    else:
        expect_illegal(state, 0, lay_meld(meld), "bad_meld", "S8")


@pytest.mark.parametrize("meld, legal", [("7H 7S 7D 7C", True), ("7H 7S", False)])
def test_edge_case_2_a_set_of_four_sevens_is_legal_and_a_pair_is_too_short(meld, legal):
    state = build([f"{meld} 9D", "KH QH 2S"], turn=0, phase="play")
    if legal:
        after, _ = state.apply(0, lay_meld(meld))
        assert meld_keys(after) == [(1, 0, meld)]
    else:
        refusal = expect_illegal(state, 0, lay_meld(meld), "bad_meld", "S8")
        assert refusal.message == "A meld needs at least 3 cards."


def test_edge_case_3_a_run_in_mixed_suits_is_illegal():
    state = build(["4H 5S 6H 9D", "KH QH 2S"], turn=0, phase="play")
    expect_illegal(state, 0, lay_meld("4H 5S 6H"), "bad_meld", "S8")


def test_edge_case_4_the_fourth_seven_may_be_laid_off_on_an_opponents_set_without_a_meld_of_your_own():
    state = build(["7C 9D 2H", "KH QH 2S"], melds=[(1, "7H 7S 7D")], turn=0, phase="play")
    assert lay_off(1, "7C") in state.legal_actions(0)
    after, _ = state.apply(0, lay_off(1, "7C"))
    assert meld_keys(after) == [(1, 1, "7H 7S 7D 7C")]
    assert held(after, 0) == sorted_keys("9D 2H")


def test_edge_case_5_the_taken_nine_cannot_be_discarded_but_another_card_can():
    state = build(["2C 3D", "4H 5S"], discard="7S 9S", turn=0)
    taken, _ = state.apply(0, TakeDiscard())
    expect_illegal(taken, 0, discard("9S"), "taken_discard", "S7")
    after, _ = taken.apply(0, discard("3D"))
    assert held(after, 0) == sorted_keys("2C 9S")
    assert after.deal.discard == cards("7S 3D")


def test_edge_case_6_melding_the_last_three_cards_after_drawing_goes_out_with_no_discard():
    state = build(["8H 9H", "KH QH 2S"], stock="AD 10H", turn=0)
    drawn, _ = state.apply(0, DrawStock())
    assert held(drawn, 0) == sorted_keys("8H 9H 10H")
    after, events = drawn.apply(0, lay_meld("8H 9H 10H"))
    assert after.last_result.winner == 0
    assert event_types(events) == ["lay_meld", "hand_over", "new_deal"]


@pytest.mark.parametrize("players, size", [(3, 7), (2, 10)])
def test_edge_case_7_three_players_get_7_cards_and_two_get_10(players, size):
    assert [len(h) for h in new_game(players).deal.hands] == [size] * players


def test_edge_case_8_a_hand_of_ace_king_seven_costs_18():
    state = build(["4C 5C 6C 9D", "AS KH 7C"], turn=0, phase="play")
    after, _ = go_out_with_4c_5c_6c(state)
    assert after.last_result.penalties == (0, 18)
    assert after.totals == [0, 18]


def test_edge_case_9_reaching_exactly_100_ends_the_game_and_the_lowest_total_wins():
    state = build(["4C 5C 6C 9D", "AS KH 7C"], turn=0, phase="play", totals=[30, 82])
    after, events = go_out_with_4c_5c_6c(state)
    assert after.totals == [30, 100]
    assert after.finished and after.phase == Phase.GAME_OVER
    assert after.standings() == (1, 2)
    assert event_types(events)[-2:] == ["hand_over", "game_over"]
    assert after.deal.number == 1  # no further deal


@pytest.mark.parametrize("options", [
    {"target": "high"}, {"target": True}, {"target": 0}, {"target": -100}, {"going_rummy": "yes"}, {"jokers": 2},
])
def test_s14_s15_table_options_are_checked(options):
    with pytest.raises(IllegalAction) as refusal:
        make_variant("standard", options)
    assert refusal.value.code == "bad_options"


def test_s14_s15_table_options_round_trip_as_json():
    assert (make_variant("standard", {"target": 50, "going_rummy": True}).options()
            == {"target": 50, "going_rummy": True})


def test_0_6_a_position_with_an_empty_stock_offers_no_draw_from_it_and_refuses_one():
    state = build(["2C 3D", "4H 5S"], stock="", discard="7S 8D")
    assert state.legal_actions(0) == [TakeDiscard()]
    refusal = expect_illegal(state, 0, DrawStock(), "empty_stock", "0.6")
    assert refusal.message


@pytest.mark.parametrize("action", [LayMeld(("7H", "7H", "7S")), LayOff(1, ()), LayMeld(())],
                         ids=["card_twice", "lay_off_of_no_card", "meld_of_no_card"])
def test_0_7_a_play_naming_no_card_or_a_card_twice_is_refused_as_malformed_citing_0_7(action):
    state = build(["7H 7S 7C 4D", "5S 6S"], melds=[(1, "8C 8D 8H")], phase="play")
    expect_illegal(state, 0, action, "malformed", "0.7")
