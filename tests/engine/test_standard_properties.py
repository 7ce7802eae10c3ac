"""Property tests for Standard Rummy: random bot play-outs from random seeds, 2-4 players.

Each example plays a whole game with the normal computer player (``games.engine.bots.chooser``) from a
hypothesis-chosen game seed, bot seed and player count, and checks one property after every action:

(a) every physical card is in exactly one place (S1; 0.6 rebuilds included);
(b) the player to move always has a legal action, and the listed actions all apply (0.5);
(c) ``apply`` never changes the state it was called on (0.7);
(d) a player's view shows no other hand and no stock card;
(e) the JSON action log replays to the same game;
(f) every game finishes within a bounded number of moves, with a winner (S15, S16).

A play-out is about a thousand actions, so example counts are kept small; the suite's tables
cover the exact positions.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import builders
from builders import assert_json_log_replays, bot_seed_st, deal_cards, game_seed_st, players_st, snapshot
from games.engine.actions import Action, Discard, LayMeld, LayOff
from games.engine.cards import standard_deck
from games.engine.errors import IllegalAction
from games.engine.state import GameState, Phase, PlayerView
from games.engine.variants.standard import StandardRummy

FULL_DECK = sorted(standard_deck())
MAX_MOVES = 20_000
"""Upper bound on the actions of one game. Bot games take about 1,000; every hand ends within a
bounded number of turns (S16) and every hand raises the sum of the totals, so a game cannot run on."""

variant_st = st.builds(StandardRummy, going_rummy=st.booleans())

PLAYOUT = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def playout(variant: StandardRummy, players: int, seed: str, bot_seed: int,
            max_moves: int = MAX_MOVES) -> Iterator[tuple[GameState, int, Action, GameState, list[dict]]]:
    """A whole Standard Rummy game with the normal computer player on every seat (``builders.playout``)."""
    return builders.playout(variant, players, seed, bot_seed, max_moves)


def final_state(variant: StandardRummy, players: int, seed: str, bot_seed: int) -> GameState:
    """The state a bot play-out ends in."""
    last = GameState.new(variant, players, seed)
    for *_, after, _events in playout(variant, players, seed, bot_seed):
        last = after
    return last


def action_cards(action: Action) -> set[str]:
    """The card keys an action names."""
    if isinstance(action, (LayMeld, LayOff)):
        return set(action.cards)
    if isinstance(action, Discard):
        return {action.card}
    return set()


@PLAYOUT
@given(variant=variant_st, players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_a_every_card_is_in_exactly_one_place_after_every_action(variant, players, seed, bot_seed):
    for _, _, action, after, _ in playout(variant, players, seed, bot_seed):
        placed = deal_cards(after)
        assert placed == FULL_DECK, f"cards lost or duplicated after {action}"
        counts = Counter(c.key for c in placed)
        assert max(counts.values()) == 1


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_b_the_player_to_move_always_has_a_legal_action_and_each_listed_one_applies(players, seed, bot_seed):
    sampler = random.Random(bot_seed)
    for state, seat, _, _, _ in playout(StandardRummy(), players, seed, bot_seed):
        legal = state.legal_actions(seat)
        assert legal, "no legal action for the player to move (0.5)"
        if state.deal.phase == Phase.PLAY:
            assert any(isinstance(a, Discard) for a in legal), "no way to end the turn (0.5)"
        assert all(state.legal_actions(other) == [] for other in range(players) if other != seat)
        for action in sampler.sample(legal, min(3, len(legal))):
            state.apply(seat, action)  # raises IllegalAction if the list lied


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_c_apply_never_changes_the_state_it_was_called_on(players, seed, bot_seed):
    for state, seat, action, after, _ in playout(StandardRummy(), players, seed, bot_seed):
        before = snapshot(state)
        state.apply(seat, action)
        try:
            state.apply((seat + 1) % players, action)
        except IllegalAction as refusal:
            assert refusal.code == "not_your_turn"
        assert snapshot(state) == before
        assert after is not state and after.deal is not state.deal


def assert_view_hides_other_cards(state: GameState, view: PlayerView, seat: int | None) -> None:
    """Check that ``view`` names no card of another seat's hand and no stock card."""
    deal = state.deal
    own = {c.key for c in deal.hands[seat]} if seat is not None else set()
    hidden = {c.key for s, hand in enumerate(deal.hands) if s != seat for c in hand}
    hidden |= {c.key for c in deal.stock}
    shown: set[str] = {c.key for c in view.hand}
    shown |= {c.key for meld in view.melds for c in meld.shape.cards}
    shown |= {c.key for c in (view.discard_top, view.taken_discard) if c is not None}
    for action in view.legal_actions:
        shown |= action_cards(action)
    assert not shown & hidden, f"seat {seat} can see {sorted(shown & hidden)}"
    assert {c.key for c in view.hand} == own
    assert view.hand_sizes == tuple(len(h) for h in deal.hands)
    assert view.stock_size == len(deal.stock)


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_d_a_player_view_shows_no_other_hand_and_no_stock_card(players, seed, bot_seed):
    for _, _, _, after, _ in playout(StandardRummy(), players, seed, bot_seed):
        for seat in [*range(players), None]:
            assert_view_hides_other_cards(after, after.player_view(seat), seat)
        spectator = after.player_view(None)
        assert (spectator.hand, spectator.legal_actions, spectator.taken_discard) == ((), (), None)


@PLAYOUT
@given(variant=variant_st, players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_e_replaying_the_json_action_log_reproduces_the_game(variant, players, seed, bot_seed):
    steps = list(playout(variant, players, seed, bot_seed))
    replayed = assert_json_log_replays(variant, players, seed, steps)
    assert replayed.standings() == steps[-1][3].standings()


@PLAYOUT
@given(variant=variant_st, players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_f_every_play_out_finishes_with_a_winner_within_a_bounded_number_of_moves(variant, players, seed, bot_seed):
    moves = 0
    last = None
    hands = 0
    for *_, after, events in playout(variant, players, seed, bot_seed):
        moves += 1
        hands += sum(1 for e in events if e["type"] == "hand_over")
        last = after
    assert last is not None and last.finished, f"not finished after {moves} moves"
    assert hands <= players * (variant.target - 1) + 1
    assert max(last.totals) >= variant.target
    standings = last.standings()
    assert len(standings) == players and 1 in standings
    winners = [s for s in range(players) if standings[s] == 1]
    assert all(last.totals[s] == min(last.totals) for s in winners)
