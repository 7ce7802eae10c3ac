"""Builders for exact Standard and Wild Rummy positions, written in the rule book's card notation.

Cards are written as in RULES.md ("Card notation"): ``"AS 10H QC"``. Piles are written bottom to
top, so the last card of ``stock`` is drawn first and the last card of ``discard`` is the top
discard, matching ``DealState`` (whose piles have their top at the end).

Typical use::

    state = build(["4C 5C 6C 9S", "KH QH"], discard="2D 9H", turn=0, phase="play")
    after, events = state.apply(0, lay_meld("4C 5C 6C"))

Wild Rummy positions use ``wild(...)`` (or ``build(..., variant=WildRummy())``); a table wild is
written ``7D=9C`` in a meld (rule 0.3), e.g. ``wild(["9C 2S", "KH QH"], melds=[(1, "5H 7D=6H 7H")],
number=7, phase="play", pending="9C")``.

Nothing here needs Django.
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from dataclasses import asdict, is_dataclass
from types import SimpleNamespace

import pytest
from hypothesis import strategies as st

from games.engine.actions import Action, Discard, DrawStock, LayMeld, LayOff, SwapWild, TakeDiscard, action_from_json
from games.engine.bots import chooser
from games.engine.cards import Card, parse_card
from games.engine.errors import IllegalAction
from games.engine.melds import read_meld
from games.engine.state import DealState, GameState, Phase, TableMeld
from games.engine.variants.frayzy import Frayzy
from games.engine.variants.frustration import FrustrationRummy
from games.engine.variants.standard import StandardRummy
from games.engine.variants.wild import WildRummy

__all__ = [
    "DrawStock", "TakeDiscard", "Phase", "build", "card", "cards", "deal_cards", "discard", "expect_illegal",
    "held", "key_list", "lay_meld", "lay_off", "meld_keys", "play", "snapshot", "sorted_keys",
    "swap", "wild", "WildRummy", "meld_notation", "frustration", "FrustrationRummy", "frayzy", "Frayzy",
]


def card(text: str) -> Card:
    """One card from notation, e.g. ``card("10H")``."""
    return parse_card(text)


def cards(text: str) -> list[Card]:
    """Cards from space-separated notation, e.g. ``cards("AS 10H QC")``; ``""`` gives ``[]``."""
    return [parse_card(word) for word in text.split()]


def key_list(text: str) -> tuple[str, ...]:
    """Card keys for an action, e.g. ``key_list("AS 2S") == ("AS", "2S")`` (each checked by parse_card)."""
    return tuple(c.key for c in cards(text))


def _split_wilds(text: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """``"5H 7D=6H 7H"`` -> ``("5H 7D 7H", (("7D", "6H"),))``."""
    plain, wilds = [], []
    for word in text.split():
        key, _, stands = word.partition("=")
        plain.append(key)
        if stands:
            wilds.append((parse_card(key).key, stands))
    return " ".join(plain), tuple(sorted(wilds))


def lay_meld(text: str) -> LayMeld:
    """A LayMeld action for the cards in ``text``; ``7D=9C`` declares what a wild stands for (0.3)."""
    plain, wilds = _split_wilds(text)
    return LayMeld(key_list(plain), wilds)


def lay_off(meld_id: int, text: str) -> LayOff:
    """A LayOff action putting the cards in ``text`` on meld ``meld_id`` (``7D=8H`` declares a wild)."""
    plain, wilds = _split_wilds(text)
    return LayOff(meld_id, key_list(plain), wilds)


def swap(meld_id: int, natural: str, wild_card: str | None = None) -> SwapWild:
    """A SwapWild action: ``natural`` from hand replaces a wild (``wild_card``) of meld ``meld_id`` (W11)."""
    return SwapWild(meld_id, card(natural).key, card(wild_card).key if wild_card else None)


def discard(text: str) -> Discard:
    """A Discard action for the single card ``text``."""
    return Discard(card(text).key)


def build(
    hands: list[str],
    *,
    stock: str | None = None,
    discard: str = "",
    melds: Iterable[tuple[int, str]] = (),
    turn: int = 0,
    phase: Phase | str = Phase.DRAW,
    dealer: int | None = None,
    taken: str | None = None,
    totals: list[int] | None = None,
    rebuilds: int = 0,
    stalemate: bool = False,
    played_before: list[bool] | None = None,
    played_this_turn: bool = False,
    number: int = 1,
    variant: StandardRummy | WildRummy | None = None,
    seed: str = "builder-seed",
    pending: str = "",
    streaks: list[int] | None = None,
    laid_down: list[bool] | None = None,
) -> GameState:
    """Build a GameState for Standard Rummy (or ``variant``) holding exactly the given position.

    Args:
        hands: one notation string per seat; the number of seats is ``len(hands)``.
        stock: the stock, bottom to top. ``None`` puts every card of the 52-card deck not used
            elsewhere into the stock (in deck order), so the position holds the whole deck (S1).
        discard: the discard pile, bottom to top.
        melds: ``(owner, "cards")`` pairs; they get ids 1, 2, ... in the order given and are
            checked with the variant's meld rules (S8; W7-W9, a wild written ``7D=9C``).
        turn, phase: seat to move and its phase (0.2). ``taken``: the card taken from the
            discard pile this turn (S7); it must be in the mover's hand.
        dealer: dealer seat; by default the seat right of ``turn``, so the mover is left of it (S4).
        totals, rebuilds, stalemate, played_before, played_this_turn, number: as in DealState /
            GameState; all default to a fresh first hand. In Wild Rummy ``number`` is also the wild
            rank (W3). ``pending``: the mover's pending cards (W6). ``streaks``: per seat (W14).
            ``laid_down``: per seat, contract laid this round (R10); melds owned by a seat that
            laid down count as its contract melds.

    The builder refuses a position that holds the same card twice, so test typos fail loudly.
    """
    variant = variant or StandardRummy()
    wild_rank = number if isinstance(variant, WildRummy) else None
    rules = variant.meld_rules_for(SimpleNamespace(wild_rank=wild_rank))
    players = len(hands)
    hand_cards = [cards(h) for h in hands]
    discard_cards = cards(discard)
    meld_specs = [_split_wilds(text) + (owner,) for owner, text in melds]
    laid = list(laid_down) if laid_down is not None else [False] * len(hands)
    table = [TableMeld(i, owner, read_meld(cards(plain), rules, dict(wilds)), laid[owner])
             for i, (plain, wilds, owner) in enumerate(meld_specs, start=1)]
    used = [c for h in hand_cards for c in h] + discard_cards + [c for m in table for c in m.shape.cards]
    if stock is None:
        stock_cards = [c for c in variant.deck() if c not in used]
    else:
        stock_cards = cards(stock)
    everything = used + stock_cards
    repeated = sorted({c.key for c in everything if everything.count(c) > 1})
    assert not repeated, f"builder: cards placed twice: {repeated}"
    taken_card = card(taken) if taken else None
    assert taken_card is None or taken_card in hand_cards[turn], "builder: the taken card must be in the mover's hand"
    deal = DealState(
        number=number,
        dealer=(turn - 1) % players if dealer is None else dealer,
        seed=f"{seed}:deal:{number}",
        hands=hand_cards,
        stock=stock_cards,
        discard=discard_cards,
        melds=table,
        turn=turn,
        phase=Phase(phase),
        taken_discard=taken_card,
        rebuilds=rebuilds,
        stalemate=stalemate,
        played_this_turn=played_this_turn,
        played_before=list(played_before) if played_before is not None else [False] * players,
        next_meld_id=len(table) + 1,
        wild_rank=wild_rank,
        pending=cards(pending),
        laid_down=laid if isinstance(variant, FrustrationRummy) else [],
    )
    assert all(c in hand_cards[turn] for c in deal.pending), "builder: pending cards must be in the mover's hand"
    return GameState(variant=variant, players=players, seed=seed,
                     totals=list(totals) if totals is not None else variant.initial_totals(players), deal=deal,
                     streaks=list(streaks) if streaks is not None else [0] * players)


def wild(hands: list[str], **fields) -> GameState:
    """``build`` for Wild Rummy: the deal ``number`` (default 1) sets the wild rank (W3), and the
    phase defaults to ``play``. Every other field as in ``build``."""
    fields.setdefault("phase", Phase.PLAY)
    return build(hands, variant=WildRummy(), **fields)


def frustration(hands: list[str], **fields) -> GameState:
    """``build`` for Frustration Rummy (108 cards, R1): ``totals`` are the seats' contracts (default
    1 each), ``laid_down`` who laid their contract this round; the phase defaults to ``play``. A
    second copy is written ``7H~1``."""
    fields.setdefault("phase", Phase.PLAY)
    return build(hands, variant=FrustrationRummy(), **fields)


def frayzy(hands: list[str], start_card: str | None = None, **fields) -> GameState:
    """``build`` for Frayzy (116 cards, F1), cards written ``R7``, ``W``, ``SKIP``, a second copy
    ``R7~1``, a table wild ``W=R10``; the phase defaults to ``play``. ``start_card``: the card
    turned up at the deal (F4), by default the bottom of the discard pile; ``""`` for one taken
    away. Every other field as in ``build``."""
    fields.setdefault("phase", Phase.PLAY)
    fields.setdefault("variant", Frayzy())
    state = build(hands, **fields)
    if start_card is None:
        start_card = state.deal.discard[0].key if state.deal.discard else ""
    state.deal.start_card = card(start_card) if start_card else None
    return state


def meld_notation(state: GameState) -> list[str]:
    """The table's melds in the rule book's notation, wilds as ``7D=9C`` (0.3)."""
    return [m.shape.notation() for m in state.deal.melds]


players_st = st.integers(min_value=2, max_value=4)
"""Hypothesis strategy: a seat count (rules S2, W2, R2)."""
game_seed_st = st.text(alphabet="0123456789abcdef", min_size=1, max_size=16)
"""Hypothesis strategy: a game seed."""
bot_seed_st = st.integers(min_value=0, max_value=2**32 - 1)
"""Hypothesis strategy: the computer players' random seed."""


def assert_cards_conserved(after: GameState, full_deck: list[Card], action: Action) -> None:
    """Every card of ``full_deck`` (sorted) is in exactly one place after ``action``: in the current
    deal and, when the action ended a deal, in that deal's final position too."""
    assert deal_cards(after) == full_deck, f"cards lost or duplicated after {action}"
    if after.ended_deal is not None:
        ended = GameState(after.variant, after.players, after.seed, [], after.ended_deal)
        assert deal_cards(ended) == full_deck, f"cards lost or duplicated in the ended deal after {action}"


def deal_cards(state: GameState) -> list[Card]:
    """Every physical card of the current deal, sorted: hands, stock, discard pile and table.

    Collected here rather than with ``DealState.all_cards`` so that conservation checks do not
    trust the code under test.
    """
    deal = state.deal
    found = [c for hand in deal.hands for c in hand] + list(deal.stock) + list(deal.discard)
    return sorted(found + [c for meld in deal.melds for c in meld.shape.cards])


def held(state: GameState, seat: int) -> list[str]:
    """The keys of the cards ``seat`` holds, sorted: the rules give a hand no order."""
    return sorted(c.key for c in state.deal.hands[seat])


def sorted_keys(text: str) -> list[str]:
    """The keys of the cards in ``text``, sorted like ``held`` sorts them."""
    return sorted(c.key for c in cards(text))


def meld_keys(state: GameState) -> list[tuple[int, int, str]]:
    """The table as ``(id, owner, "cards in table order")`` triples, for readable assertions."""
    return [(m.id, m.owner, " ".join(c.key for c in m.shape.cards)) for m in state.deal.melds]


def _plain(value: object) -> object:
    """A deep, comparable copy of a state value (cards become keys, dataclasses dicts)."""
    if isinstance(value, Card):
        return value.key
    if isinstance(value, TableMeld):
        return (value.id, value.owner, value.shape.kind, value.shape.notation())
    if is_dataclass(value) and not isinstance(value, type):
        return {k: _plain(v) for k, v in asdict(value).items()}
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    return value


def _deal_snapshot(deal: DealState | None) -> dict | None:
    """Everything a DealState holds, as plain comparable values."""
    if deal is None:
        return None
    return {
        "number": deal.number,
        "dealer": deal.dealer,
        "deal_seed": deal.seed,
        "hands": _plain(deal.hands),
        "stock": _plain(deal.stock),
        "discard": _plain(deal.discard),
        "melds": _plain(deal.melds),
        "turn": deal.turn,
        "phase": str(deal.phase),
        "taken_discard": _plain(deal.taken_discard),
        "rebuilds": deal.rebuilds,
        "stalemate": deal.stalemate,
        "played_this_turn": deal.played_this_turn,
        "played_before": tuple(deal.played_before),
        "next_meld_id": deal.next_meld_id,
        "wild_rank": deal.wild_rank,
        "pending": _plain(deal.pending),
        "laid_down": tuple(deal.laid_down),
    }


def snapshot(state: GameState) -> dict:
    """A deep snapshot of everything a GameState holds (rule 0.7 checks compare two of these).

    Covers the deal in progress (hands, stock, discard, melds, turn, phase, taken card, rebuild
    count, stalemate flag, rummy bookkeeping, deal number, dealer), totals, the last result, the
    finished flag and, when the engine keeps one, the position of the hand that just ended.
    """
    return {
        "players": state.players,
        "seed": state.seed,
        "variant": _plain(state.variant),
        "totals": tuple(state.totals),
        "streaks": tuple(state.streaks),
        "finished": state.finished,
        "last_result": _plain(state.last_result),
        "deal": _deal_snapshot(state.deal),
        "ended_deal": _deal_snapshot(getattr(state, "ended_deal", None)),
    }


def play(state: GameState, seat: int, *actions: Action) -> tuple[GameState, list[dict]]:
    """Apply ``actions`` by ``seat`` one after another; return the last state and all events."""
    events: list[dict] = []
    for action in actions:
        state, new_events = state.apply(seat, action)
        events += new_events
    return state, events


def expect_illegal(state: GameState, seat: int, action: Action, code: str, rule: str | None = None) -> IllegalAction:
    """Assert that ``action`` by ``seat`` is refused with ``code`` (and ``rule`` if given) and that
    the state is left exactly as it was (rule 0.7). Returns the refusal for further checks."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as refused:
        state.apply(seat, action)
    assert refused.value.code == code, f"expected {code!r}, got {refused.value.code!r}: {refused.value}"
    if rule is not None:
        assert refused.value.rule == rule
    assert snapshot(state) == before, "an illegal action changed the state (rule 0.7)"
    return refused.value


def playout(variant, players: int, seed: str, bot_seed: int,
            max_moves: int) -> Iterator[tuple[GameState, int, Action, GameState, list[dict]]]:
    """Play ``variant`` with its computer player (``bots.chooser``) on every seat.

    Yields ``(state, seat, action, next_state, events)`` for each action, stopping when the game is
    finished or after ``max_moves`` actions.
    """
    choose = chooser(variant)
    state = GameState.new(variant, players, seed)
    rng = random.Random(bot_seed)
    for _ in range(max_moves):
        if state.finished:
            return
        seat = state.deal.turn
        action = choose(state.player_view(seat), rng)
        after, events = state.apply(seat, action)
        yield state, seat, action, after, events
        state = after


def assert_json_log_replays(variant, players: int, seed: str,
                            steps: Iterable[tuple[GameState, int, Action, GameState, list[dict]]]) -> GameState:
    """Replay the actions of a ``playout`` (``steps``) through JSON from a new game of ``variant``
    and assert it reaches the same state (rule 0.7: seed plus log reproduce the game); returns it."""
    log, last = [], GameState.new(variant, players, seed)
    for _, seat, action, after, _ in steps:
        log.append((seat, action.to_json()))
        last = after
    replayed = GameState.new(variant, players, seed)
    for seat, data in json.loads(json.dumps(log)):
        replayed, _ = replayed.apply(seat, action_from_json(data))
    assert snapshot(replayed) == snapshot(last)
    return replayed
