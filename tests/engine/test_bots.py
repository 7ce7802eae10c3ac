"""Computer players (issue 7): every level plays only legal actions, never stalls, goes out when it
can, sees nothing hidden, and a seeded tournament replays exactly.

Bots are checked through the engine: each action they choose is applied with ``GameState.apply``,
the same validation a person's move gets (the service tests apply them through ``services``).
"""
from __future__ import annotations

import gc
import random
import types
from collections import Counter
from dataclasses import replace

import pytest
from builders import build, frayzy, frustration, wild

from games.engine.actions import Discard, DrawStock, LayContract, LayMeld, LayOff, SwapWild, TakeDiscard
from games.engine.bots import LEVELS, chooser, knowledge
from games.engine.bots.danger import danger, fits_table
from games.engine.bots.memory import Memory
from games.engine.bots.tournament import Match
from games.engine.cards import Card
from games.engine.state import DealState, GameState
from games.engine.variants import make_variant

VARIANT_NAMES = ("standard", "wild", "frustration", "frayzy")
MOVES_PER_GAME = 400
EXPERT_MOVES = 100


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_choice_is_legal_and_the_engine_accepts_it(variant, level):
    """Two seats of ``level`` play ``MOVES_PER_GAME`` actions (the expert, on a small budget,
    ``EXPERT_MOVES``): each one is among the view's legal actions and ``GameState.apply`` accepts it
    (a refusal would raise IllegalAction)."""
    choose, moves = chooser(make_variant(variant), level), MOVES_PER_GAME
    if level == "expert":
        choose, moves = replace(choose, samples=2, horizon=6), EXPERT_MOVES
    state = GameState.new(make_variant(variant), 2, f"legal-{variant}-{level}")
    memories = [Memory(), Memory()]
    rng = random.Random(7)
    ended = 0
    for _ in range(moves):
        if state.finished:
            break
        seat = state.deal.turn
        view = state.player_view(seat)
        action = choose(view, rng, memories[seat])
        assert action in view.legal_actions
        state, events = state.apply(seat, action)
        for memory in memories:
            memory.observe(events)
        ended += sum(event["type"] == "hand_over" for event in events)
    assert ended >= 1, "no deal ended: a bot stalled the game"


@pytest.mark.parametrize("level", ("normal", "strong"))
@pytest.mark.parametrize("state", [
    build(["4C 5C 6C 7C 9S 9H 9D KH KS KD 2D", "AS AH"], phase="play"),
    wild(["4C 5C 6C 9S 9H 9D KH", "QS QH"], number=1),
    frustration(["5S 5H 5D 8C 8H 8S JC JD JH QS", "AS AH"]),
], ids=["standard", "wild", "frustration"])
def test_a_hand_that_can_go_out_goes_out(level, state):
    """After the draw, a hand that melds completely (Standard, S11) or all but one card to discard
    (Wild W12, Frustration R14 with contract 1 laid first) goes out in this turn."""
    choose = chooser(state.variant, level)
    rng = random.Random(1)
    for _ in range(10):
        action = choose(state.player_view(0), rng, Memory())
        state, events = state.apply(0, action)
        over = [event for event in events if event["type"] == "hand_over"]
        if over:
            assert over[0]["winner"] == 0
            return
        assert state.deal.turn == 0, f"seat 0 passed the turn with {[c.key for c in state.deal.hands[0]]}"
    pytest.fail("seat 0 did not go out")


@pytest.mark.parametrize("variant", ("standard", "wild"))
@pytest.mark.parametrize("other_hand, strong_holds", [
    ("AS AH 2C 2D 4H 5H 6S 8C 10D QC", True),
    ("AS AH 2C", False),
], ids=["other-seat-far", "other-seat-close"])
def test_strong_keeps_its_melds_while_the_other_seat_is_far(variant, other_hand, strong_holds):
    """In Standard and Wild Rummy the strong level keeps a set in hand (nobody can lay off on it or
    swap into it) and discards, while the other seat holds more than three cards; then it lays the
    set, as the normal level always does at once (S9, S13; W10, W11)."""
    hands = ["9S 9H 9D 3C 5D KH QS JD", other_hand]
    state = wild(hands, number=4) if variant == "wild" else build(hands, phase="play")
    view = state.player_view(0)
    strong = chooser(make_variant(variant), "strong")(view, random.Random(1), Memory())
    assert isinstance(strong, Discard) is strong_holds
    assert isinstance(chooser(make_variant(variant), "normal")(view, random.Random(1)), LayMeld)


@pytest.mark.parametrize("other_hand, strong_holds", [
    ("R1 B2 G3 Y4 R5", True),
    ("R1 B2 G3 Y4", False),
], ids=["other-seat-holds-five", "other-seat-holds-four"])
def test_strong_frayzy_lays_its_melds_once_the_other_seat_holds_four_cards(other_hand, strong_holds):
    """In Frayzy the strong level's margin is one card wider than in Standard Rummy: it lays its set
    when the other seat is down to four cards, as melds caught in hand count against it (F17)."""
    state = frayzy(["R7 B7 G7 R2 B5 G11 Y9 Y3", other_hand])
    strong = chooser(make_variant("frayzy"), "strong")(state.player_view(0), random.Random(1), Memory())
    assert isinstance(strong, Discard) is strong_holds


@pytest.mark.parametrize("level", ("normal", "strong"))
def test_wild_rummy_swaps_a_wild_out_to_shorten_a_short_hand(level):
    """W11: 6H takes the 2 out of 5H 2S=6H 7H, and the freed wild lays off (W6): the hand of two is
    left one card, where keeping both would need two lay-offs in one turn to go out."""
    state = wild(["6H 9C", "KH QH JD"], melds=[(1, "5H 2S=6H 7H")], number=2)
    choice = chooser(make_variant("wild"), level)(state.player_view(0), random.Random(1), Memory())
    assert choice == SwapWild(1, "6H", "2S")


def test_strong_keeps_a_card_that_lays_off_as_its_last_discard_in_wild_rummy():
    """W12: after 6C lays off, 9H 9D KS would leave two cards whatever goes, and a lone pair can
    never meld (the hand must keep a card to discard, 0.5). Keeping 6C and discarding KS leaves
    9H 9D 6C, which goes out with a third 9 or a wild. The normal level lays 6C off."""
    state = wild(["9H 9D KS 6C", "KH QH JD"], melds=[(1, "3C 4C 5C")], number=1)
    view = state.player_view(0)
    assert chooser(make_variant("wild"), "strong")(view, random.Random(1), Memory()) == Discard("KS")
    assert isinstance(chooser(make_variant("wild"), "normal")(view, random.Random(1)), LayOff)


def test_a_card_that_can_swap_out_a_wild_fits_the_table_in_wild_rummy():
    """W11: 6H cannot extend 5H 2S=6H 7H but can take its wild out, which leaves the hand like a
    lay-off; so it is a card to lay off, and a dangerous discard. 9C does neither."""
    state = wild(["6H 9C", "KH QH JD"], melds=[(1, "5H 2S=6H 7H")], number=2)
    view = state.player_view(0)
    variant = make_variant("wild")
    rules = knowledge.meld_rules(variant, view)
    six, nine = view.hand
    assert fits_table(six, view, rules, variant)
    assert not fits_table(nine, view, rules, variant)
    assert danger(six, view, rules, None, variant) > danger(nine, view, rules, None, variant)


def test_frustration_lays_the_contract_first():
    state = frustration(["5S 5H 5D 8C 8H 8S JC JD JH QS KD 3C 4C", "AS AH"])
    for level in ("normal", "strong"):
        choose = chooser(make_variant("frustration"), level)
        assert isinstance(choose(state.player_view(0), random.Random(1)), LayContract)


WILD_HEAVY = "2C~1 2D 2D~1 2H 2H~1 2S~1 JK~1 JK~2 KC KH QC QC~1 QH"
"""Eight wilds and five naturals: under R8 (wilds <= naturals in every meld) no room for one more."""
WILD_LIGHT = "10D 10D~1 2C 2S AD AD~1 JD JD~1 JK KD KD~1 QD QD~1"


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_frustration_a_hand_without_room_for_a_wild_draws_instead_of_taking_one(level):
    state = frustration([WILD_HEAVY, WILD_LIGHT], discard="5C JK~3", turn=0, phase="draw", totals=[14, 14])
    assert chooser(make_variant("frustration"), level)(state.player_view(0), random.Random(1), Memory()) == DrawStock()


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_frustration_a_wild_taken_is_not_discarded_again(level):
    state = frustration([WILD_LIGHT, WILD_HEAVY], discard="5C JK~3", turn=0, phase="draw", totals=[14, 14])
    choose, rng, memory = chooser(make_variant("frustration"), level), random.Random(1), Memory()
    assert choose(state.player_view(0), rng, memory) == TakeDiscard()
    state, _ = state.apply(0, TakeDiscard())
    discard = choose(state.player_view(0), rng, memory)
    assert isinstance(discard, Discard) and discard.card.partition("~")[0] not in ("JK", "2C", "2S")


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_a_card_discarded_earlier_in_the_deal_is_not_taken_back(level):
    """Seed 7's Frustration match, with the strong level's measure by draws switched off in a trial,
    stalled with 4D, 6S and 5C going round: each seat took the other's discard and discarded a card
    it had discarded before. A seat that remembers its discards draws from the stock instead."""
    state = build(["4D 4H 5C 6S 9H 9C 9D KS QH JC", "2C 3C 7D 8D 10S JS QS KD AD AS"], discard="2H 4S",
                  turn=0, phase="draw")
    choose, rng = chooser(make_variant("standard"), level), random.Random(1)
    assert choose(state.player_view(0), rng, Memory()) == TakeDiscard()
    remembering = Memory(deal=1, pile=["2H", "4S"], discarded={0: ["4S"]})
    assert choose(state.player_view(0), rng, remembering) == DrawStock()


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_the_other_copy_of_a_card_discarded_earlier_may_be_taken(level):
    """Frustration Rummy has two copies of each card (R1): only the very card a seat discarded is
    not taken back. Here 8C completes contract 1 (three sets of 3) after seat 0 discarded 8C~1."""
    state = frustration(["8H 8S 5D 5S 5C JH JS JD 3C 9D KH AS 4H", "2C 3D 7D 10S QS KD AD QH KS 6C"],
                        discard="6H 8C", turn=0, phase="draw")
    choose, rng = chooser(make_variant("frustration"), level), random.Random(1)

    def discarded_by_seat_0(key: str) -> Memory:
        return Memory.replay(1, [{"type": "discard", "seat": 0, "card": key},
                                 {"type": "take_discard", "seat": 1, "card": key},
                                 {"type": "discard", "seat": 1, "card": "8C"}])

    assert choose(state.player_view(0), rng, discarded_by_seat_0("8C~1")) == TakeDiscard()
    assert choose(state.player_view(0), rng, discarded_by_seat_0("8C")) == DrawStock()


STALLED_STOCK = ("3D~1 6D~1 7S~1 10S 10C JS~1 5H 5C~1 10H QS QS~1 KH~1 AH~1 8S~1 8H KC~1 9H 5S~1 QH~1 8C~1 "
                 "3H~1 8D~1 9S~1 7H~1 KS~1 7S 6H 9D 4H~1 9H~1 4D~1 5H~1 7D 3C 9D~1 10S~1 JC JC~1 3H 7H "
                 "JH~1 7D~1 6S~1 9C")
STALLED_DISCARD = ("AH 8S 4S 8D 10H~1 AC KS 3D JS 4C 5S 6C 10C~1 9C~1 4C~1 5C 6S 8C 7C 6H~1 4S~1 9S AC~1 AS "
                   "4D 7C~1 5D 3S AS~1 JH 6D 6C~1 5D~1 3C~1 4H 3S~1 8H~1 JK~2")
STALLED_TAKEN = {0: "7C 9S 6S 6H 8D 7H 6S 8C 8S 8C QH JK JK JK JK",
                 1: "4S JD 9D KD KC QD KS 10H QS 10S JH JC KS AC AS JH JK JK JK JK"}
STALLED_REFUSED = {0: "JH 6C 3C 3S", 1: "6D 5D 4H 8H"}


def test_frustration_two_seats_do_not_pass_wilds_to_each_other_for_ever():
    """The position where seed 7's 1000-deal Frustration match stalled (its 901st deal, contract
    14, strong against normal): each seat took the other's discarded joker and discarded another,
    and the stock was never drawn from again, so R16's stalemate never came. The memories are the
    seats' own (what each seat took is capped at the deck's four jokers)."""
    state = frustration(["2C~1 2D 2D~1 2H 2H~1 2S~1 JK~1 JK~3 KC KH QC QC~1 QH",
                         "10D 10D~1 2C 2S AD AD~1 JD JD~1 JK KD KD~1 QD QD~1"],
                        stock=STALLED_STOCK, discard=STALLED_DISCARD, turn=0, phase="draw", totals=[14, 14],
                        rebuilds=1)
    memories = [Memory(deal=1, pile=[key.partition("~")[0] for key in STALLED_DISCARD.split()],
                       taken={seat: codes.split() for seat, codes in STALLED_TAKEN.items()},
                       refused={seat: codes.split() for seat, codes in STALLED_REFUSED.items()})
                for _ in range(2)]
    players = [chooser(make_variant("frustration"), "strong"), chooser(make_variant("frustration"), "normal")]
    rngs = [random.Random(0), random.Random(1)]
    stock = len(state.deal.stock)
    for _ in range(40):
        seat = state.deal.turn
        state, events = state.apply(seat, players[seat](state.player_view(seat), rngs[seat], memories[seat]))
        for memory in memories:
            memory.observe(events)
    assert len(state.deal.stock) < stock


def _reachable(*roots) -> list[object]:
    """Every data object reachable from ``roots`` (classes, functions and modules are not followed:
    they lead to code, not to game data)."""
    seen: dict[int, object] = {}
    todo = list(roots)
    while todo:
        item = todo.pop()
        if id(item) in seen or isinstance(item, (type, types.ModuleType, types.FunctionType,
                                                   types.BuiltinFunctionType, types.MethodType)):
            continue
        seen[id(item)] = item
        todo.extend(gc.get_referents(item))
    return list(seen.values())


@pytest.mark.parametrize("level", ["strong", "expert"])
@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_bot_cannot_reach_another_seats_cards(variant, level):
    """What a bot is given (its chooser, its PlayerView, its Memory) reaches no game state, no deal
    and no card of another hand or of the stock, at any point of a played deal, before it chooses
    and after (the expert, on a small budget here, keeps none of the positions it searched)."""
    table = make_variant(variant)
    state = GameState.new(table, 2, f"hidden-{variant}")
    memories = [Memory(), Memory()]
    rng = random.Random(3)
    choose = chooser(table, level)
    if level == "expert":
        choose = replace(choose, samples=2, horizon=4)
    for step in range(120):
        if state.finished:
            break
        seat = state.deal.turn
        view = state.player_view(seat)
        checked = step % 10 == 0
        if checked:
            hidden = {c.key for other, hand in enumerate(state.deal.hands) if other != seat for c in hand}
            hidden |= {c.key for c in state.deal.stock}
            _assert_unreachable(hidden, choose, view, memories[seat])
        action = choose(view, rng, memories[seat])
        if checked:
            _assert_unreachable(hidden, choose, view, memories[seat])
        state, events = state.apply(seat, action)
        for memory in memories:
            memory.observe(events)


def _assert_unreachable(hidden: set[str], *roots) -> None:
    reached = _reachable(*roots)
    assert not [o for o in reached if isinstance(o, (GameState, DealState))]
    assert not {o.key for o in reached if isinstance(o, Card)} & hidden


SMALL_FRAYZY = {"copies": 1, "wilds": 2, "skips": 1, "draw_fives": 0, "discard_ones": 3}
"""A Frayzy table with other card counts than the default 116-card deck (F1): 54 cards."""


def test_the_strong_level_counts_the_unseen_cards_of_the_tables_own_deck():
    """A Frayzy table of 54 cards (one copy of each number, two Wilds, no Draw 5): the cards the
    strong level counts as still to come are that deck's, not the default 116-card deck's (F1)."""
    variant = make_variant("frayzy", SMALL_FRAYZY)
    state = GameState.new(variant, 2, "small-deck")
    view = state.player_view(state.deal.turn)
    memory = Memory()
    memory.sync(view)
    unseen = knowledge.unseen(variant, view, memory)
    assert sum(unseen.values()) == 54 - len(view.hand) - 1
    assert unseen["W"] <= 2 and unseen["DRAW5"] == 0
    assert all(copies == 1 for code, copies in unseen.items() if code[0] in "RBGY")


def test_memory_remembers_only_public_events():
    memory = Memory(deal=1)
    memory.observe([{"type": "discard", "seat": 0, "card": "7C"},
                    {"type": "draw_stock", "seat": 1},
                    {"type": "discard", "seat": 1, "card": "9H~1"},
                    {"type": "take_discard", "seat": 0, "card": "9H~1"}])
    assert (memory.pile, memory.refused, memory.taken) == (["7C"], {1: ["7C"]}, {0: ["9H"]})
    assert memory.discarded == {0: ["7C"], 1: ["9H~1"]}
    memory.observe([{"type": "stock_rebuilt", "count": 30}])
    assert memory.pile == ["7C"] and memory.discarded == {}
    memory.observe([{"type": "new_deal", "deal": 2, "dealer": 1}])
    assert (memory.deal, memory.pile, memory.taken, memory.refused, memory.discarded) == (2, [], {}, {}, {})


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_seeded_tournament_replays_exactly(variant):
    def outcome():
        match = Match(variant, 2, "replay", ["strong", "easy"])
        result = match.play(3)
        return match.deal_scores, {level: figures["games_won"] for level, figures in result["levels"].items()}

    first = outcome()
    assert first == outcome()
    assert len(first[0]["strong"]) == 3


def test_tournament_alternates_seats():
    match = Match("standard", 2, "s", ["strong", "normal"])
    assert [match.seat_levels(game) for game in range(2)] == [["strong", "normal"], ["normal", "strong"]]
    assert match.seed_of(0) == match.seed_of(1) != match.seed_of(2)


def test_three_levels_sit_in_every_order_on_each_seed():
    """Rotating three levels round the table keeps each one's neighbours (expert always before
    strong); a level's place in the turn order sways its share by itself, so the six games of a
    seed seat the levels in all six orders: each level follows each other one in half of them."""
    match = Match("wild", 3, "s", ["expert", "strong", "normal"])
    seatings = [match.seat_levels(game) for game in range(6)]
    assert len({tuple(seating) for seating in seatings}) == 6
    assert len({match.seed_of(game) for game in range(6)}) == 1 and match.seed_of(6) != match.seed_of(5)
    follows = Counter((seating[seat], seating[(seat + 1) % 3]) for seating in seatings for seat in range(3))
    assert set(follows.values()) == {3}
    four_seats = Match("wild", 4, "s", ["expert", "strong", "normal"])
    assert four_seats.seat_levels(1) == ["expert", "normal", "strong", "expert"]


def test_a_level_listed_twice_takes_two_seats_and_counts_both():
    """strong,normal,normal: the three seatings of a seed put strong in each seat once, and a
    deal's share goes to the level of the seat that won it, so normal's shares are its two seats'."""
    match = Match("wild", 3, "s", ["strong", "normal", "normal"])
    assert match.levels == ["strong", "normal"]
    assert [match.seat_levels(game) for game in range(3)] == [
        ["strong", "normal", "normal"], ["normal", "strong", "normal"], ["normal", "normal", "strong"]]
    assert match.seed_of(2) != match.seed_of(3)
    result = match.play(12)
    assert len(match.deal_scores["strong"]) == len(match.deal_scores["normal"]) == 12
    shares = result["levels"]
    assert shares["strong"]["deal_share"] + shares["normal"]["deal_share"] == pytest.approx(1)


def test_a_match_can_give_the_expert_another_time_budget():
    """With no time at all the expert's search deals no position, so along a played deal it makes
    the strong level's choices."""
    match = Match("standard", 2, "budget", ["expert", "strong"], expert_time_ms=0.0)
    assert Match("standard", 2, "budget", ["expert", "strong"]).choosers["expert"].time_ms == 100.0
    expert, strong = match.choosers["expert"], match.choosers["strong"]
    state = GameState.new(make_variant("standard"), 2, "budget")
    memories = [[Memory(), Memory()], [Memory(), Memory()]]
    for step in range(60):
        seat = state.deal.turn
        view = state.player_view(seat)
        action = expert(view, random.Random(step), memories[0][seat])
        assert action == strong(view, random.Random(step), memories[1][seat])
        state, events = state.apply(seat, action)
        for memory in memories[0] + memories[1]:
            memory.observe(events)


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown computer level"):
        chooser(make_variant("standard"), "master")
