"""Property tests for Wild Rummy: random bot play-outs of whole 13-deal games from random seeds,
2-4 players, with the normal computer player (``games.engine.bots.chooser``) choosing among the legal actions.

Checked after every action: (a) every physical card is in exactly one place (W1, 0.6); (b) the
player to move always has a legal action, the play phase always has a way to end the turn, and the
listed actions apply (0.5, W6); (c) a pending card is never offered as a discard and discarding it
is refused (W6); (d) ``apply`` never changes the state it was called on (0.7); (e) the JSON action
log replays to the same game; (f) every game ends after deal 13 (W15).
"""
from __future__ import annotations

import random
from typing import Iterator

from hypothesis import HealthCheck, given, settings

import builders
from builders import assert_cards_conserved, assert_json_log_replays, bot_seed_st, game_seed_st, players_st, snapshot
from games.engine.actions import Action, Discard
from games.engine.cards import standard_deck
from games.engine.errors import IllegalAction
from games.engine.state import GameState, Phase
from games.engine.variants.wild import DEALS, WildRummy

FULL_DECK = sorted(standard_deck())
MAX_MOVES = 20_000


PLAYOUT = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def playout(players: int, seed: str, bot_seed: int) -> Iterator[tuple[GameState, int, Action, GameState, list[dict]]]:
    """A whole Wild Rummy game with the normal computer player on every seat (``builders.playout``)."""
    return builders.playout(WildRummy(), players, seed, bot_seed, MAX_MOVES)


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_a_w1_every_card_is_in_exactly_one_place_after_every_action(players, seed, bot_seed):
    for _, _, action, after, _ in playout(players, seed, bot_seed):
        assert_cards_conserved(after, FULL_DECK, action)


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_b_0_5_no_dead_ends_the_player_to_move_always_has_a_legal_action(players, seed, bot_seed):
    sampler = random.Random(bot_seed)
    for state, seat, _, _, _ in playout(players, seed, bot_seed):
        legal = state.legal_actions(seat)
        assert legal, "no legal action for the player to move (0.5)"
        assert all(state.legal_actions(other) == [] for other in range(players) if other != seat)
        for action in sampler.sample(legal, min(3, len(legal))):
            state.apply(seat, action)  # raises IllegalAction if the list lied


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_c_w6_a_pending_card_is_never_discarded(players, seed, bot_seed):
    for state, seat, action, after, _ in playout(players, seed, bot_seed):
        pending = state.deal.pending
        if state.deal.phase == Phase.PLAY and pending:
            assert not any(isinstance(a, Discard) for a in state.legal_actions(seat))
            for card in pending:
                try:
                    state.apply(seat, Discard(card.key))
                except IllegalAction as refusal:
                    assert (refusal.code, refusal.rule) == ("pending", "W6")
                else:
                    raise AssertionError(f"pending {card} was discarded")
        if isinstance(action, Discard):
            assert all(action.card != c.key for c in pending)


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_d_0_7_apply_never_changes_the_state_it_was_called_on(players, seed, bot_seed):
    for state, seat, action, after, _ in playout(players, seed, bot_seed):
        before = snapshot(state)
        state.apply(seat, action)
        assert snapshot(state) == before
        assert after is not state and after.deal is not state.deal


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_e_replaying_the_json_action_log_reproduces_the_game(players, seed, bot_seed):
    assert_json_log_replays(WildRummy(), players, seed, playout(players, seed, bot_seed))


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_f_w15_every_game_ends_after_deal_13(players, seed, bot_seed):
    results = []
    last = None
    for *_, after, events in playout(players, seed, bot_seed):
        results += [e for e in events if e["type"] == "hand_over"]
        last = after
    assert last is not None and last.finished
    assert [r["deal"] for r in results] == list(range(1, DEALS + 1))
    standings = last.standings()
    assert all(last.totals[s] == min(last.totals) for s in range(players) if standings[s] == 1)
