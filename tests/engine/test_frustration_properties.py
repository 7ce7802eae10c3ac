"""Property tests for Frustration Rummy: random play-outs from random seeds, 2-4 players, with the
normal computer player (``games.engine.bots.chooser``) choosing among the legal actions.

Checked after every action: (a) the 108 cards of two decks and 4 jokers are each in exactly one
place, copies told apart (R1, 0.6); (b) every meld on the table holds no more wilds than naturals,
apart from sets of 2s only or jokers only (R8); (c) the player to move always has a legal action
and sampled legal actions apply (0.5); (d) ``apply`` never changes the state it was called on
(0.7); (e) the JSON action log replays to the same state. The contract search's answer lays down
through ``apply`` whenever it finds one (c), and (f) it agrees with a brute-force search that uses
only the shared meld validator (R10).
"""
from __future__ import annotations

import random
from itertools import combinations
from typing import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import builders
from builders import assert_cards_conserved, assert_json_log_replays, bot_seed_st, game_seed_st, players_st, snapshot
from games.engine.actions import Action, LayContract
from games.engine.cards import standard_deck
from games.engine.contracts import CONTRACTS, find_contract
from games.engine.melds import meld_readings
from games.engine.state import GameState
from games.engine.variants.frustration import MELD_RULES, FrustrationRummy

FULL_DECK = sorted(standard_deck(decks=2, jokers=4))
MAX_MOVES = 1_500


PLAYOUT = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def playout(players: int, seed: str, bot_seed: int) -> Iterator[tuple[GameState, int, Action, GameState, list[dict]]]:
    """Up to MAX_MOVES actions of a Frustration Rummy game with the contract player on every seat."""
    return builders.playout(FrustrationRummy(), players, seed, bot_seed, MAX_MOVES)


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_a_r1_108_cards_each_in_exactly_one_place(players, seed, bot_seed):
    for _, _, action, after, _ in playout(players, seed, bot_seed):
        assert_cards_conserved(after, FULL_DECK, action)


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_b_r8_wilds_never_outnumber_naturals_in_any_meld(players, seed, bot_seed):
    for _, _, action, after, _ in playout(players, seed, bot_seed):
        for meld in (after.ended_deal or after.deal).melds:
            wilds = [c for c in meld.shape.cards if MELD_RULES.is_wild(c)]
            naturals = len(meld.shape.cards) - len(wilds)
            only_one_kind = not naturals and (all(c.is_joker for c in wilds) or not any(c.is_joker for c in wilds))
            assert len(wilds) <= naturals or only_one_kind, f"{meld.shape.notation()} after {action}"


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_c_0_5_no_dead_ends_and_the_contract_hint_lays_down(players, seed, bot_seed):
    sampler = random.Random(bot_seed)
    for state, seat, _, _, _ in playout(players, seed, bot_seed):
        legal = state.legal_actions(seat)
        assert legal, "no legal action for the player to move (0.5)"
        for action in sampler.sample(legal, min(2, len(legal))):
            state.apply(seat, action)
        for hint in (a for a in legal if isinstance(a, LayContract)):
            after, _ = state.apply(seat, hint)
            assert after.deal.laid_down[seat] and after.deal.hands[seat]


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_d_0_7_apply_never_changes_the_state_it_was_called_on(players, seed, bot_seed):
    for state, seat, action, _, _ in playout(players, seed, bot_seed):
        before = snapshot(state)
        state.apply(seat, action)
        assert snapshot(state) == before


@PLAYOUT
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_e_the_json_action_log_replays_to_the_same_state(players, seed, bot_seed):
    assert_json_log_replays(FrustrationRummy(), players, seed, playout(players, seed, bot_seed))


SMALL_DECK = [c for c in standard_deck(decks=2, jokers=4) if c.is_joker or (c.rank <= 7 and c.suit in "HS")]
"""Aces to 7s of two suits, both copies, and the jokers: small enough that contracts are often possible."""


def brute_force(hand, number) -> bool:
    """Reference answer through the shared validator alone: some disjoint minimum-size groups, one
    per requirement, each a legal meld of its kind, leaving at least one card (0.5)."""
    def fits(rest, requirements):
        if not requirements:
            return len(rest) >= 1
        kind, size = requirements[0]
        return any(meld_readings(group, MELD_RULES, kind)[0] and fits([c for c in rest if c not in group],
                                                                       requirements[1:])
                   for group in combinations(rest, size))

    return fits(list(hand), list(CONTRACTS[number]))


@settings(max_examples=150, deadline=None)
@given(hand=st.lists(st.sampled_from(SMALL_DECK), min_size=8, max_size=10, unique=True),
       number=st.sampled_from([2, 5]))
def test_f_r10_the_contract_search_agrees_with_brute_force_through_the_validator(hand, number):
    assert (find_contract(hand, number, MELD_RULES) is not None) == brute_force(hand, number)
