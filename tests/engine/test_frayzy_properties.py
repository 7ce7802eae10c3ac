"""Property tests for Frayzy: random bot play-outs of whole games from random seeds, 2-4 players,
with the normal computer player (``games.engine.bots.chooser``) choosing among the legal actions, action cards
included.

Checked after every action: (a) all 116 cards are in exactly one place (F1); (b) every meld on the
table holds at most one wild (F11); (c) at most one action card is played per turn (F14); (d) the
player to move always has a legal action and the listed actions apply (0.5); (e) a turn never
starts with an empty stock: the turn that empties it ends the round (F16), played with a 56-card
deck so that the stock does run out; (f) ``apply`` never
changes the state it was called on (0.7); (g) the JSON action log replays to the same game; (h)
every game ends with a total at the target and the lowest total first (F18).
"""
from __future__ import annotations

import random
from typing import Iterator

from hypothesis import HealthCheck, given, settings

import builders
from builders import assert_cards_conserved, assert_json_log_replays, bot_seed_st, game_seed_st, players_st, snapshot
from games.engine.actions import Action, DrawStock, PlayAction, TakeDiscard
from games.engine.cards import frayzy_deck
from games.engine.state import GameState, Phase
from games.engine.variants.frayzy import MELD_RULES, Frayzy

FULL_DECK = sorted(frayzy_deck())
MAX_MOVES = 20_000

PLAYOUT = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def playout(players: int, seed: str, bot_seed: int) -> Iterator[tuple[GameState, int, Action, GameState, list[dict]]]:
    """A whole Frayzy game with the normal computer player on every seat (``builders.playout``)."""
    return builders.playout(Frayzy(), players, seed, bot_seed, MAX_MOVES)


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_a_f1_all_116_cards_are_in_exactly_one_place_after_every_action(players, seed, bot_seed):
    for _, _, action, after, _ in playout(players, seed, bot_seed):
        assert_cards_conserved(after, FULL_DECK, action)


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_b_f11_every_meld_holds_at_most_one_wild_after_every_action(players, seed, bot_seed):
    for _, _, _, after, _ in playout(players, seed, bot_seed):
        for deal in filter(None, (after.deal, after.ended_deal)):
            for meld in deal.melds:
                count = sum(MELD_RULES.is_wild(c) for c in meld.shape.cards)
                assert count <= 1, f"{meld.shape.notation()} holds {count} wilds"
                assert len(meld.shape.cards) - count >= 2


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_c_f14_at_most_one_action_card_is_played_per_turn(players, seed, bot_seed):
    played_this_turn = 0
    for state, seat, action, _, _ in playout(players, seed, bot_seed):
        if isinstance(action, (DrawStock, TakeDiscard)):
            played_this_turn = 0
        if isinstance(action, PlayAction):
            played_this_turn += 1
            assert played_this_turn == 1, "a second action card in one turn"
        if state.deal.phase == Phase.EXTRA_DISCARD:
            assert not any(isinstance(a, PlayAction) for a in state.legal_actions(seat))


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_d_0_5_no_dead_ends_the_player_to_move_always_has_a_legal_action(players, seed, bot_seed):
    sampler = random.Random(bot_seed)
    for state, seat, _, _, _ in playout(players, seed, bot_seed):
        legal = state.legal_actions(seat)
        assert legal, "no legal action for the player to move (0.5)"
        assert all(state.legal_actions(other) == [] for other in range(players) if other != seat)
        for action in sampler.sample(legal, min(3, len(legal))):
            state.apply(seat, action)  # raises IllegalAction if the list lied


SMALL_DECK = Frayzy(copies=1, wilds=2, skips=2, draw_fives=2, discard_ones=2)
"""56 cards (F1's counts are table options): with the full deck the computer players nearly always
go out before the stock runs out, so F16 is exercised with this one."""


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_e_f16_the_round_ends_when_the_stock_runs_out(players, seed, bot_seed):
    for state, _, _, after, events in builders.playout(SMALL_DECK, players, seed, bot_seed, MAX_MOVES):
        if after.finished:
            continue
        assert after.deal.stock or after.deal.phase != Phase.DRAW, "a turn started with an empty stock (F16)"
        turn_ended = state.deal.number == after.deal.number and after.deal.phase == Phase.DRAW \
            and state.deal.phase != Phase.DRAW
        if turn_ended:
            assert after.deal.stock, "the stock was empty at the end of a turn, yet the round went on (F16)"
        if after.ended_deal is not None and after.last_result.winner is None:
            assert after.ended_deal.stock == [], "a round ended with no winner while the stock held cards"
        assert not any(e["type"] == "stock_rebuilt" for e in events)


def test_e_f16_control_the_small_deck_runs_out_of_stock():
    """Control for the property above: its play-outs do reach rounds that end with the stock empty."""
    ended = [after.last_result for _, _, _, after, _ in builders.playout(SMALL_DECK, 3, "stock-out", 1, MAX_MOVES)
             if after.ended_deal is not None]
    assert any(result.winner is None for result in ended)


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_f_0_7_apply_never_changes_the_state_it_was_called_on(players, seed, bot_seed):
    for state, seat, action, after, _ in playout(players, seed, bot_seed):
        before = snapshot(state)
        state.apply(seat, action)
        assert snapshot(state) == before
        assert after is not state and after.deal is not state.deal


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_g_replaying_the_json_action_log_reproduces_the_game(players, seed, bot_seed):
    assert_json_log_replays(Frayzy(), players, seed, playout(players, seed, bot_seed))


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_h_f18_every_game_ends_at_the_target_with_the_lowest_total_first(players, seed, bot_seed):
    last = None
    for *_, after, _ in playout(players, seed, bot_seed):
        last = after
    assert last is not None and last.finished
    assert max(last.totals) >= Frayzy().target
    standings = last.standings()
    assert all(last.totals[s] == min(last.totals) for s in range(players) if standings[s] == 1)
