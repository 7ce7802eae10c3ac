"""Property tests of the rules engine, for every variant of the registry (``variants.VARIANTS``) at
2, 3 and 4 players.

**The engine's contract**, checked along random play (each seat takes a uniformly random legal
action, as the easy computer player does):

(a) 0.5, no dead ends: the seat to move always has a legal action, and no other seat has one;
(b) every action ``legal_actions`` lists is accepted by ``apply``;
(c) every action ``apply`` accepts is listed, among the kinds the engine lists (draws, discards,
    new melds, single-card lay-offs, wild swaps, action cards, the Draw 5 start pick), built from
    the position's cards: each accepted one leads to the position some listed action leads to
    (copies of a card, and melds, told apart by what they hold, not by storage id; the card taken
    from the discard pile by where it is). A wild is tried with the declarations it could take
    (0.3: beside one rank, the rank alone or that rank in each suit; beside one suit, each of its
    ranks), so every legal one must be listed, and (b) shows that no illegal one is. A contract
    (R10) is listed as one hint: when some contract is accepted, a hint is listed;
(d) 0.7: ``apply`` raises nothing but IllegalAction, with a message, for those actions and for
    random malformed ones built from the position's cards (cards named twice, other seats' cards,
    missing melds, nonsense declarations and targets).

**Each game's rules**, checked after every action of whole games of the normal computer player:
every card in exactly one place (S1, W1, R1, F1, with the rebuilds of 0.6); ``apply`` changes
nothing it was called on and refuses another seat's move (0.7); a player's view shows no other
hand and no stock card; sampled listed actions apply; the variant's own invariants (Standard's
discard to end the turn, W6 pending cards, R8's wild ratio, F11's one wild, F14's one action card); the JSON
action log replays the game; and the game ends as its rules say (S15, W15, F18). Then F16 with a
small Frayzy deck, and Frustration's contract search against a brute force (R10).

CI runs a few examples of each, checking (b)-(d) at one position in ten with samples of the new
melds and declarations (``CI_BUDGET``). A long run plays many more random games with every position
checked, with bigger samples (``LONG_BUDGET``), and prints what it checked::

    nice .venv/bin/python tests/engine/test_properties.py [--games 10000] [--minutes 60] [--variants wild,frayzy]
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations, product

if __name__ == "__main__":
    sys.path[:0] = [os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))]

import builders  # noqa: E402
import pytest  # noqa: E402
from builders import assert_cards_conserved, assert_json_log_replays, bot_seed_st, game_seed_st, players_st, snapshot  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import Phase as Stage  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from games.engine.actions import (  # noqa: E402
    Action,
    ChooseTarget,
    Discard,
    DrawStock,
    LayContract,
    LayMeld,
    LayOff,
    PlayAction,
    SwapWild,
    TakeDiscard,
)
from games.engine.cards import COLOURS, SUITS, Card, card_code, standard_deck  # noqa: E402
from games.engine.contracts import CONTRACTS, find_contract  # noqa: E402
from games.engine.errors import IllegalAction  # noqa: E402
from games.engine.melds import meld_readings  # noqa: E402
from games.engine.state import GameState, Phase  # noqa: E402
from games.engine.variants import VARIANTS  # noqa: E402
from games.engine.variants.frayzy import Frayzy  # noqa: E402
from games.engine.variants.frustration import MELD_RULES as FRUSTRATION_RULES  # noqa: E402
from games.engine.variants.wild import DEALS  # noqa: E402

NAMES = sorted(VARIANTS)
PLAYERS = (2, 3, 4)


# ----- the contract ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Budget:
    """How much of the action space one position tries: ``groups`` random new-meld groups,
    ``declarations`` declarations per choice of a wild, ``malformed`` random malformed actions,
    ``contracts`` random contract lay-downs."""

    groups: int
    declarations: int
    malformed: int
    contracts: int


CI_BUDGET = Budget(groups=12, declarations=6, malformed=6, contracts=3)
LONG_BUDGET = Budget(groups=60, declarations=40, malformed=20, contracts=10)


@dataclass
class Counts:
    """What a run checked: positions reached and checked, actions applied by kind of check."""

    positions: int = 0
    checked: int = 0
    listed: int = 0
    candidates: int = 0
    accepted: int = 0
    malformed: int = 0
    games: int = 0
    refusals: Counter = field(default_factory=Counter)

    def add(self, other: Counts) -> None:
        for name in ("positions", "checked", "listed", "candidates", "accepted", "malformed", "games"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.refusals.update(other.refusals)


def outcome(state: GameState) -> tuple:
    """The position ``state`` holds, blind to storage ids: copies of a card and melds are told
    apart by what they are and hold (two listed actions may differ only in which copy they use)."""
    deal = state.deal

    def codes(cards) -> tuple[str, ...]:
        return tuple(sorted(c.code for c in cards))

    melds = sorted((m.owner, m.shape.kind, m.contract,
                    tuple(sorted(f"{c.code}={m.shape.stands_for(c)}" for c in m.shape.cards))) for m in deal.melds)
    taken_held = deal.taken_discard is not None and deal.taken_discard in deal.hands[deal.turn]
    result = (state.last_result.winner, state.last_result.penalties) if state.last_result else None
    return (state.finished, tuple(state.totals), tuple(state.streaks), result, deal.number, deal.turn, str(deal.phase),
            tuple(codes(hand) for hand in deal.hands), tuple(melds), tuple(c.code for c in deal.discard),
            len(deal.stock), deal.rebuilds, deal.stalemate, codes(deal.pending), taken_held, tuple(deal.laid_down))


def attempt(state: GameState, seat: int, action, counts: Counts) -> GameState | None:
    """``apply`` ``action``: the next state, or None when refused. Any exception but IllegalAction,
    or a refusal without a readable message, fails (0.7)."""
    try:
        after, _ = state.apply(seat, action)
    except IllegalAction as refusal:
        assert refusal.code and refusal.message.strip(), f"{action!r}: refusal {refusal.code!r} has no message"
        assert "  " not in refusal.message and " or ." not in refusal.message, \
            f"{action!r}: refusal with an empty part: {refusal.message!r}"
        counts.refusals[refusal.code] += 1
        return None
    except Exception as error:  # the contract: nothing but IllegalAction (0.7)
        raise AssertionError(f"{action!r} raised {type(error).__name__}: {error}") from error
    return after


def naturals(state: GameState, cards) -> list[Card]:
    rules = state.variant.meld_rules_for(state.deal)
    return [c for c in cards if rules.can_meld(c) and not rules.is_wild(c)]


def suit_letters(state: GameState) -> tuple[str, ...]:
    return COLOURS if state.variant.name == "frayzy" else SUITS


def declarations_for(state: GameState, group_naturals: list[Card]) -> list[str]:
    """What a wild beside ``group_naturals`` could be declared as (0.3): for one rank, the rank
    alone or that rank in each suit; for one suit, each rank of that suit."""
    rules = state.variant.meld_rules_for(state.deal)
    found: list[str] = []
    if len({c.rank for c in group_naturals}) == 1:
        rank = group_naturals[0].rank
        found += [rules.rank_names[rank - 1]] + [card_code(rank, s) for s in suit_letters(state)]
    if len({c.suit for c in group_naturals}) == 1:
        suit = group_naturals[0].suit
        found += [card_code(rank, suit) for rank in range(1, len(rules.rank_names) + 1)]
    return list(dict.fromkeys(found))


def with_declarations(state: GameState, build, wilds: list[Card], group_naturals: list[Card],
                      rng: random.Random, budget: Budget) -> list[Action]:
    """``build(declared)`` for up to ``budget.declarations`` declarations of ``wilds``."""
    codes = declarations_for(state, group_naturals)
    choices = list(product(codes, repeat=len(wilds))) if len(wilds) <= 2 else \
        [tuple(rng.choice(codes) for _ in wilds) for _ in range(budget.declarations)]
    chosen = choices if len(choices) <= budget.declarations else rng.sample(choices, budget.declarations)
    return [build(tuple(sorted(zip((w.key for w in wilds), codes)))) for codes in chosen]


def meld_groups(state: GameState, hand: list[Card], rng: random.Random, count: int) -> list[list[Card]]:
    """``count`` random groups of the hand that could be a meld: some cards of one rank, a stretch
    of one suit, or wilds alone, each with some of the hand's wilds."""
    rules = state.variant.meld_rules_for(state.deal)
    wilds = [c for c in hand if rules.is_wild(c)]
    plain = naturals(state, hand)
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, list[Card]] = {}
    for card in plain:
        by_rank.setdefault(card.rank, []).append(card)
        by_suit.setdefault(card.suit, []).append(card)
    groups: list[list[Card]] = []
    for _ in range(count):
        extra = rng.sample(wilds, rng.randint(0, len(wilds)))
        pick = rng.random()
        if pick < 0.1 and len(wilds) >= 3:
            groups.append(rng.sample(wilds, rng.randint(3, len(wilds))))
        elif pick < 0.5 and by_rank:
            cards = by_rank[rng.choice(sorted(by_rank))]
            groups.append(rng.sample(cards, rng.randint(1, len(cards))) + extra)
        elif by_suit:
            cards = by_suit[rng.choice(sorted(by_suit))]
            low = rng.randint(1, 14)
            high = rng.randint(low, 14)
            window = {}
            for c in cards:
                place = 14 if c.rank == 1 and low > 1 else c.rank
                if low <= place <= high:
                    window.setdefault(c.rank, []).append(c)
            groups.append([rng.choice(copies) for copies in window.values()] + extra)
    return [g for g in groups if len(g) >= 3]


def candidates(state: GameState, seat: int, rng: random.Random, budget: Budget) -> list[Action]:
    """The actions of the kinds the engine lists, built from the position's cards (see (c))."""
    deal = state.deal
    rules = state.variant.meld_rules_for(deal)
    hand = deal.hands[seat]
    found: list[Action] = [DrawStock(), TakeDiscard()]
    found += [ChooseTarget(t) for t in range(state.players)]
    found += [Discard(c.key) for c in hand]
    for card in (c for c in hand if c.is_action):
        found += [PlayAction(card.key, target) for target in (None, *range(state.players))]
    found += contract_candidates(state, seat, rng, budget.contracts)
    if deal.phase != Phase.PLAY or (deal.laid_down and not deal.laid_down[seat]):
        return found  # plays are refused outside the play phase (0.2) and before the contract (R11)
    for meld in deal.melds:
        meld_naturals = [c for c in meld.shape.cards if not meld.shape.stands_for(c)]
        for card in hand:
            found.append(LayOff(meld.id, (card.key,)))
            if rules.is_wild(card) and meld_naturals:
                found += with_declarations(state, lambda d, m=meld.id, k=card.key: LayOff(m, (k,), d), [card],
                                           meld_naturals, rng, budget)
        if meld.shape.wilds:
            for card in naturals(state, hand):
                found += [SwapWild(meld.id, card.key, wild) for wild in (None, *(w.key for w, _ in meld.shape.wilds))]
    for group in meld_groups(state, hand, rng, budget.groups):
        keys = tuple(c.key for c in group)
        found.append(LayMeld(keys))
        group_wilds = [c for c in group if rules.is_wild(c)]
        group_naturals = naturals(state, group)
        if group_wilds and group_naturals:
            found += with_declarations(state, lambda d, k=keys: LayMeld(k, d), group_wilds, group_naturals, rng, budget)
    return found


def contract_candidates(state: GameState, seat: int, rng: random.Random, count: int) -> list[LayContract]:
    """Random lay-downs of the seat's contract (R10) from disjoint groups of its hand."""
    if state.variant.name != "frustration":
        return []
    requirements = CONTRACTS[state.totals[seat]]
    hand = state.deal.hands[seat]
    found = []
    for _ in range(count):
        pool = list(hand)
        groups = []
        for _, size in requirements:
            group = next((g for g in meld_groups(state, pool, rng, 8) if len(g) >= size), None)
            if group is None:
                break
            groups.append(tuple(c.key for c in group))
            pool = [c for c in pool if c not in group]
        if len(groups) == len(requirements):
            found.append(LayContract(tuple(groups)))
    return found


def malformed(state: GameState, seat: int, rng: random.Random, count: int) -> list[object]:
    """``count`` random actions built from every card of the position (other hands, the table, the
    piles) and a few keys that name no card: repeated cards, missing melds, bad targets, nonsense
    declarations, contracts of any shape."""
    deal = state.deal
    keys = [c.key for c in deal.all_cards()] + ["", "ZZ", "7H~9", "W~99", "JK~7"]
    meld_ids = [m.id for m in deal.melds] + [-1, 0, deal.next_meld_id]
    codes = [c.code for c in state.variant.deck()] + ["", "9", "14H", "R13", "JK", "W", "0", "AH=2H"]
    seats = [None, -1, *range(state.players + 1)]

    def some_keys(low: int = 0) -> tuple[str, ...]:
        return tuple(rng.choice(keys) for _ in range(rng.randint(low, 5)))

    def some_wilds(cards: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
        named = cards + (rng.choice(keys),)
        return tuple(sorted({rng.choice(named): rng.choice(codes) for _ in range(rng.randint(0, 2))}.items()))

    makers = [
        lambda: DrawStock(), lambda: TakeDiscard(), lambda: None, lambda: object(),
        lambda: Discard(rng.choice(keys)),
        lambda: PlayAction(rng.choice(keys), rng.choice(seats)),
        lambda: ChooseTarget(rng.choice(seats[1:])),
        lambda: (lambda k: LayMeld(k, some_wilds(k)))(some_keys()),
        lambda: (lambda k: LayOff(rng.choice(meld_ids), k, some_wilds(k)))(some_keys()),
        lambda: SwapWild(rng.choice(meld_ids), rng.choice(keys), rng.choice([None, *keys])),
        lambda: (lambda g: LayContract(g, some_wilds(sum(g, ()))))(
            tuple(some_keys(1) for _ in range(rng.randint(0, 4)))),
    ]
    return [rng.choice(makers)() for _ in range(count)]


def check_position(state: GameState, rng: random.Random, budget: Budget, counts: Counts) -> None:
    """Checks (b), (c) and (d) at one position (module docstring)."""
    seat = state.deal.turn
    legal = state.legal_actions(seat)
    counts.checked += 1
    reached = set()
    for action in legal:
        after = attempt(state, seat, action, counts)
        assert after is not None, f"listed {action!r} is refused"
        reached.add(outcome(after))
        counts.listed += 1
    contract_listed = any(isinstance(a, LayContract) for a in legal)
    for action in candidates(state, seat, rng, budget):
        after = attempt(state, seat, action, counts)
        counts.candidates += 1
        if after is None:
            continue
        counts.accepted += 1
        if isinstance(action, LayContract):
            assert contract_listed, f"{action!r} is accepted but no contract is listed (R10)"
        else:
            assert outcome(after) in reached, f"{action!r} is accepted but not listed"
    for action in malformed(state, seat, rng, budget.malformed):
        attempt(state, seat, action, counts)
        counts.malformed += 1


def random_game(variant, players: int, seed: str, *, moves: int, share: float, budget: Budget) -> Counts:
    """Random play of ``variant`` for at most ``moves`` actions: (a) at every position, (b)-(d) at
    a ``share`` of them chosen at random (all of them with share 1)."""
    counts = Counts(games=1)
    rng = random.Random(seed)
    state = GameState.new(variant, players, seed)
    for _ in range(moves):
        if state.finished:
            break
        seat = state.deal.turn
        legal = state.legal_actions(seat)
        counts.positions += 1
        assert legal, f"no legal action for seat {seat} in {state.deal.phase} (0.5)"
        assert not any(state.legal_actions(other) for other in range(players) if other != seat)
        if rng.random() < share:
            check_position(state, rng, budget, counts)
        state, _ = state.apply(seat, rng.choice(legal))
    return counts


PLAYOUTS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow],
                    phases=[Stage.explicit, Stage.reuse, Stage.generate])
"""Play-outs are not shrunk: a smaller seed is not a simpler game, and each replay is a whole game."""


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("name", NAMES)
@settings(PLAYOUTS, max_examples=2)
@given(seed=game_seed_st)
def test_0_5_0_7_random_play_every_listed_move_applies_every_accepted_one_is_listed(name, players, seed):
    counts = random_game(VARIANTS[name](), players, f"contract:{seed}", moves=400, share=0.1, budget=CI_BUDGET)
    assert counts.checked and counts.listed


# ----- each game's rules, along whole games of the computer players --------------------------

def views_hide_other_cards(state: GameState) -> None:
    """No view names a card of another seat's hand or of the stock; a spectator sees no hand."""
    deal = state.deal
    for seat in [*range(state.players), None]:
        view = state.player_view(seat)
        own = {c.key for c in deal.hands[seat]} if seat is not None else set()
        hidden = {c.key for s, hand in enumerate(deal.hands) if s != seat for c in hand} | {c.key for c in deal.stock}
        shown = {c.key for c in view.hand} | {c.key for m in view.melds for c in m.shape.cards}
        shown |= {c.key for c in (view.discard_top, view.taken_discard, view.start_card) if c is not None}
        shown |= {c.key for c in view.pending}
        shown |= {key for action in view.legal_actions for key in action_keys(action)}
        assert not shown & hidden, f"seat {seat} can see {sorted(shown & hidden)}"
        assert {c.key for c in view.hand} == own
        assert view.hand_sizes == tuple(len(h) for h in deal.hands) and view.stock_size == len(deal.stock)
    spectator = state.player_view(None)
    assert (spectator.hand, spectator.legal_actions, spectator.taken_discard, spectator.pending) == ((), (), None, ())


def action_keys(action: Action) -> tuple[str, ...]:
    """The card keys an action names."""
    if isinstance(action, (LayMeld, LayOff)):
        return action.cards
    if isinstance(action, LayContract):
        return sum(action.groups, ())
    if isinstance(action, (Discard, PlayAction)):
        return (action.card,)
    if isinstance(action, SwapWild):
        return (action.card,) + ((action.wild,) if action.wild else ())
    return ()


class Turn:
    """What the variant checks remember between actions of a play-out."""

    def __init__(self):
        self.action_cards = 0


def standard_step(state, seat, action, after, turn) -> None:
    """S7, S11: the play phase always offers a discard to end the turn (0.5)."""
    if state.deal.phase == Phase.PLAY:
        assert any(isinstance(a, Discard) for a in state.legal_actions(seat)), "no way to end the turn (0.5)"


def wild_step(state, seat, action, after, turn) -> None:
    """W6: a pending card is never offered as the discard, and discarding it is refused."""
    pending = state.deal.pending
    if state.deal.phase == Phase.PLAY and pending:
        assert not any(isinstance(a, Discard) for a in state.legal_actions(seat))
        for card in pending:
            with pytest.raises(IllegalAction) as refused:
                state.apply(seat, Discard(card.key))
            assert (refused.value.code, refused.value.rule) == ("pending", "W6")
    if isinstance(action, Discard):
        assert all(action.card != c.key for c in pending)


def frustration_step(state, seat, action, after, turn) -> None:
    """R8: no meld holds more wilds than naturals, but for sets of 2s only or jokers only."""
    for meld in (after.ended_deal or after.deal).melds:
        wilds = [c for c in meld.shape.cards if FRUSTRATION_RULES.is_wild(c)]
        count = len(meld.shape.cards) - len(wilds)
        one_kind = not count and (all(c.is_joker for c in wilds) or not any(c.is_joker for c in wilds))
        assert len(wilds) <= count or one_kind, f"{meld.shape.notation()} after {action}"


def frayzy_step(state, seat, action, after, turn) -> None:
    """F11: every meld holds at most one wild and two naturals; F14: one action card per turn, and
    none offered for the Discard 1 extra discard."""
    rules = state.variant.meld_rules_for(state.deal)
    for deal in filter(None, (after.deal, after.ended_deal)):
        for meld in deal.melds:
            count = sum(rules.is_wild(c) for c in meld.shape.cards)
            assert count <= 1 and len(meld.shape.cards) - count >= 2, f"{meld.shape.notation()} holds {count} wilds"
    if isinstance(action, (DrawStock, TakeDiscard)):
        turn.action_cards = 0
    if isinstance(action, PlayAction):
        turn.action_cards += 1
        assert turn.action_cards == 1, "a second action card in one turn (F14)"
    if state.deal.phase == Phase.EXTRA_DISCARD:
        assert not any(isinstance(a, PlayAction) for a in state.legal_actions(seat))


def standard_end(last: GameState, hands: int) -> None:
    """S15, S16: the game ends with a total at the target after a bounded number of hands; the
    lowest total wins."""
    assert hands <= last.players * (last.variant.target - 1) + 1
    assert max(last.totals) >= last.variant.target
    lowest_wins(last)


def wild_end(last: GameState, hands: int) -> None:
    """W15: the game ends after deal 13; the lowest total wins."""
    assert hands == DEALS and last.deal.number == DEALS
    lowest_wins(last)


def frayzy_end(last: GameState, hands: int) -> None:
    """F18: the game ends with a total at the target; the lowest total wins."""
    assert max(last.totals) >= last.variant.target
    lowest_wins(last)


def lowest_wins(last: GameState) -> None:
    standings = last.standings()
    assert len(standings) == last.players and 1 in standings
    assert all(last.totals[s] == min(last.totals) for s in range(last.players) if standings[s] == 1)


@dataclass(frozen=True)
class Rules:
    """A variant's own checks in a play-out: the variants to play (hypothesis), the action limit,
    a check after each action, and a check of the finished game (None: the limit may come first)."""

    variants: st.SearchStrategy
    moves: int
    step: object
    end: object | None


RULES = {
    "standard": Rules(st.builds(VARIANTS["standard"], going_rummy=st.booleans()), 20_000, standard_step,
                      standard_end),
    "wild": Rules(st.builds(VARIANTS["wild"]), 20_000, wild_step, wild_end),
    "frustration": Rules(st.builds(VARIANTS["frustration"]), 1_500, frustration_step, None),
    "frayzy": Rules(st.builds(VARIANTS["frayzy"]), 20_000, frayzy_step, frayzy_end),
}
"""Every variant of the registry has its rules here (test_every_variant_has_its_rules)."""


def test_every_variant_has_its_rules():
    assert sorted(RULES) == NAMES


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("name", NAMES)
@settings(PLAYOUTS, max_examples=2)
@given(data=st.data(), seed=game_seed_st, bot_seed=bot_seed_st)
def test_computer_play_keeps_every_rule_after_every_action(name, players, data, seed, bot_seed):
    rules = RULES[name]
    variant = data.draw(rules.variants, label="variant")
    full_deck = sorted(variant.deck())
    sampler = random.Random(bot_seed)
    turn = Turn()
    steps = []
    hands = 0
    for state, seat, action, after, events in builders.playout(variant, players, seed, bot_seed, rules.moves):
        steps.append((state, seat, action, after, events))
        hands += sum(1 for e in events if e["type"] == "hand_over")
        assert_cards_conserved(after, full_deck, action)
        before = snapshot(state)
        state.apply(seat, action)
        with pytest.raises(IllegalAction) as refused:
            state.apply((seat + 1) % players, action)
        assert refused.value.code == "not_your_turn"
        assert snapshot(state) == before and after is not state and after.deal is not state.deal
        legal = state.legal_actions(seat)
        assert legal and not any(state.legal_actions(other) for other in range(players) if other != seat)
        for listed in sampler.sample(legal, min(3, len(legal))):
            state.apply(seat, listed)
        rules.step(state, seat, action, after, turn)
        views_hide_other_cards(after)
    last = steps[-1][3]
    assert_json_log_replays(variant, players, seed, steps)
    if rules.end is not None:
        assert last.finished, f"not finished after {len(steps)} actions"
        rules.end(last, hands)


SMALL_FRAYZY = Frayzy(copies=1, wilds=2, skips=2, draw_fives=2, discard_ones=2)
"""56 cards (F1's counts are table options): with the full deck the computer players nearly always
go out before the stock runs out, so F16 is exercised with this one."""


@settings(PLAYOUTS, max_examples=6)
@given(players=players_st, seed=game_seed_st, bot_seed=bot_seed_st)
def test_f16_the_round_ends_when_the_stock_runs_out(players, seed, bot_seed):
    for state, _, _, after, events in builders.playout(SMALL_FRAYZY, players, seed, bot_seed, 20_000):
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


def test_f16_control_the_small_deck_runs_out_of_stock():
    """Control for the property above: its play-outs do reach rounds that end with the stock empty."""
    ended = [after.last_result for _, _, _, after, _ in builders.playout(SMALL_FRAYZY, 3, "stock-out", 1, 20_000)
             if after.ended_deal is not None]
    assert any(result.winner is None for result in ended)


SMALL_FRUSTRATION_DECK = [c for c in standard_deck(decks=2, jokers=4) if c.is_joker or (c.rank <= 7 and c.suit in "HS")]
"""Aces to 7s of two suits, both copies, and the jokers: small enough that contracts are often possible."""


def brute_force(hand, number) -> bool:
    """Reference answer through the shared validator alone: some disjoint minimum-size groups, one
    per requirement, each a legal meld of its kind, leaving at least one card (0.5)."""
    def fits(rest, requirements):
        if not requirements:
            return len(rest) >= 1
        kind, size = requirements[0]
        return any(meld_readings(group, FRUSTRATION_RULES, kind)[0]
                   and fits([c for c in rest if c not in group], requirements[1:])
                   for group in combinations(rest, size))

    return fits(list(hand), list(CONTRACTS[number]))


@settings(max_examples=150, deadline=None)
@given(hand=st.lists(st.sampled_from(SMALL_FRUSTRATION_DECK), min_size=8, max_size=10, unique=True),
       number=st.sampled_from([2, 5]))
def test_r10_the_contract_search_agrees_with_brute_force_through_the_validator(hand, number):
    assert (find_contract(hand, number, FRUSTRATION_RULES) is not None) == brute_force(hand, number)


# ----- the long run ------------------------------------------------------------------------------

def long_run(games: int, minutes: float, names: list[str], moves: int) -> int:
    """Play up to ``games`` random games per variant (2, 3 and 4 players in turn), every position
    checked in full, for at most ``minutes``; print the counts and every failure. Returns the
    number of failures."""
    deadline = time.monotonic() + minutes * 60
    totals = {name: Counts() for name in names}
    failures = 0
    for number in range(games):
        for name in names:
            if time.monotonic() > deadline:
                break
            players = PLAYERS[number % len(PLAYERS)]
            seed = f"long:{number}"
            try:
                totals[name].add(random_game(VARIANTS[name](), players, seed, moves=moves, share=1.0,
                                             budget=LONG_BUDGET))
            except AssertionError as failure:
                failures += 1
                totals[name].games += 1
                print(f"FAIL {name} players={players} seed={seed!r}: {failure}", flush=True)
        else:
            continue
        break
    for name, counts in totals.items():
        print(f"{name}: {counts.games} games, {counts.positions} positions ({counts.checked} checked), "
              f"{counts.listed} listed actions applied, {counts.candidates} candidate actions "
              f"({counts.accepted} accepted), {counts.malformed} malformed actions; "
              f"refusals: {dict(counts.refusals.most_common(8))}", flush=True)
    print(f"{failures} failed")
    return failures


def main() -> None:
    parser = argparse.ArgumentParser(description="Long run of the engine's contract under random play.")
    parser.add_argument("--games", type=int, default=10_000, help="games per variant")
    parser.add_argument("--minutes", type=float, default=60.0, help="stop after this long")
    parser.add_argument("--variants", default=",".join(NAMES), help="comma-separated variant names")
    parser.add_argument("--moves", type=int, default=3_000, help="most actions of one game")
    args = parser.parse_args()
    sys.exit(1 if long_run(args.games, args.minutes, args.variants.split(","), args.moves) else 0)


if __name__ == "__main__":
    main()
