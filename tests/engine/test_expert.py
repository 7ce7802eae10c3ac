"""The expert level's positions (issue 16): sampled only from what its seat knows, each one a deal the
seat's view could come from, dealt from the deck the table really plays with."""
from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import replace

import pytest
from builders import build

from games.engine.actions import Discard, DrawStock, TakeDiscard
from games.engine.bots import chooser
from games.engine.bots.memory import Memory
from games.engine.bots.sampling import sample_state
from games.engine.state import GameState
from games.engine.variants import make_variant

VARIANT_NAMES = ("standard", "wild", "frustration", "frayzy")
SMALL_FRAYZY = {"copies": 1, "wilds": 2, "skips": 1, "draw_fives": 0, "discard_ones": 3}
"""A Frayzy table with other card counts than the default 116-card deck (F1): 54 cards."""


def keys(cards) -> Counter:
    return Counter(card.key for card in cards)


def played_views(variant, moves: int, seed: str):
    """(state, view of the seat to move, that seat's memory) along a game of the normal level."""
    choose = chooser(variant, "normal")
    state = GameState.new(variant, 2, seed)
    memories = [Memory(), Memory()]
    rng = random.Random(seed)
    for _ in range(moves):
        if state.finished:
            return
        seat = state.deal.turn
        view = state.player_view(seat)
        memories[seat].sync(view)
        yield state, view, memories[seat]
        state, events = state.apply(seat, choose(view, rng, memories[seat]))
        for memory in memories:
            memory.observe(events)


@pytest.mark.parametrize("variant", [make_variant(name) for name in VARIANT_NAMES]
                         + [make_variant("frayzy", SMALL_FRAYZY)], ids=VARIANT_NAMES + ("frayzy-small",))
def test_a_sampled_position_is_one_the_seat_could_be_in(variant):
    """Each sample holds the table's whole deck once, shows the seat exactly its own view (hand,
    sizes, table, top discard, legal actions) and differs from the real deal only in what the seat
    cannot see."""
    rng = random.Random(5)
    for step, (state, view, memory) in enumerate(played_views(variant, 90, f"sample-{variant.name}")):
        if step % 6:
            continue
        sample = sample_state(variant, view, memory, rng)
        assert keys(sample.deal.all_cards()) == keys(variant.deck())
        assert sample.player_view(view.seat) == view
        other = 1 - view.seat
        assert len(sample.deal.hands[other]) == len(state.deal.hands[other])


def test_a_card_another_seat_took_is_in_its_hand_in_every_sample():
    """Seat 1 took 9H from the discard pile and has not shown it since: every sample deals it 9H;
    the refused 5C makes nothing impossible, only less likely."""
    state = build(["4C 5D 6S 7H 8S 10D JC QH KS 2C", "AS 9H 3D 4H 6C 7D 8C 9S 10S JD"], discard="2D 5C",
                  turn=0, phase="draw")
    memory = Memory(deal=1, pile=["2D", "5C"], taken={1: ["9H"]}, refused={1: ["5C"]})
    view = state.player_view(0)
    rng = random.Random(2)
    for _ in range(20):
        sample = sample_state(state.variant, view, memory, rng)
        assert "9H" in {card.code for card in sample.deal.hands[1]}
        assert [card.code for card in sample.deal.discard] == ["2D", "5C"]


def test_the_expert_searches_the_draw():
    """Both draws are open: the expert compares them over sampled positions (the strong level's
    choice first), and its choice is one of them."""
    state = build(["4C 5D 6S 7H 8S 10D JC QH KS 2C", "AS 9H 3D 4H 6C 7D 8C 9S 10S JD"], discard="2D 5C",
                  turn=0, phase="draw")
    expert = replace(chooser(state.variant, "expert"), samples=3, horizon=8)
    view = state.player_view(0)
    ranked = expert.strong.choices(view, random.Random(1), Memory())
    candidates = expert.candidates(view, ranked, random.Random(1))
    assert candidates[0] == ranked[0] and set(candidates) == {DrawStock(), TakeDiscard()}
    assert expert(view, random.Random(1), Memory()) in candidates


@pytest.mark.parametrize("first, other", [("9S", "2D"), ("2D", "9S")])
def test_the_search_keeps_the_set_whichever_discard_comes_first(first, other):
    """Discarding 9S breaks the set 9S 9H 9D, discarding 2D keeps it: over the same sampled positions
    2D does better by far, so it replaces a first choice of 9S, and a first choice of 2D stays."""
    state = build(["4C 5C 6C 9S 9H 9D KH 2D", "AS AH 3C 8D 10S JS QC"], discard="7D", turn=0, phase="play")
    expert = replace(chooser(state.variant, "expert"), samples=12, time_ms=None)
    view = state.player_view(0)
    choice = expert.search(view, [Discard(first), Discard(other)], random.Random(4), Memory(), time.perf_counter())
    assert choice == Discard("2D")


def test_another_candidate_needs_a_clear_gain_to_replace_the_first():
    """The same scores everywhere but one position: no gain beyond the noise, so the first stays."""
    expert = chooser(make_variant("standard"), "expert")
    assert expert.better([0.5] * 6, [0.5] * 5 + [0.9]) == 0.0
    assert expert.better([0.5, 0.4, 0.5, 0.6, 0.5, 0.4], [0.7, 0.6, 0.7, 0.8, 0.7, 0.6]) == pytest.approx(0.2)


def test_the_search_plays_the_positions_its_sampler_deals():
    """A sampler that deals the true position (as tests/bench/expert_ceiling.py does to measure
    what perfect knowledge would win) is asked once per position searched, with the seat's own view."""
    state = build(["4C 5C 6C 9S 9H 9D KH 2D", "AS AH 3C 8D 10S JS QC"], discard="7D", turn=0, phase="play")
    asked = []

    def true_position(variant, view, memory, rng):
        asked.append(view)
        return state

    expert = replace(chooser(state.variant, "expert"), samples=5, time_ms=None, sampler=true_position)
    view = state.player_view(0)
    expert.search(view, [Discard("9S"), Discard("2D")], random.Random(4), Memory(), time.perf_counter())
    assert asked == [view] * 5
