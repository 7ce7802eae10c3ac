"""Whole deals consistent with what one seat knows: the expert level's determinizations.

``sample_state(variant, view, memory, rng)`` builds a ``GameState`` from the seat's own
``PlayerView`` and its ``Memory`` of public events alone: its own hand, the table, the top discard
and the totals are as the view shows them; the cards it cannot see (the variant's deck as the
table was dealt it, less its hand, the table and the top discard) are dealt at random to the other
hands, the rest of the discard pile and the stock, each to the size the view shows. What the
memory tells is kept: the cards another seat took from the discard pile (and has not shown since)
go to that seat's hand, the discards remembered stay in the pile, and a seat is dealt fewer cards
near the top discards it refused (same rank, or its suit one place away: it did not want them,
rules S5, W5, R9) and more near what it took. Nothing hidden is read: the sample is a guess.
"""
from __future__ import annotations

import random
from collections import Counter

from ..cards import Card
from ..state import DealState, GameState, PlayerView
from .memory import Memory

REFUSED_WEIGHT = 0.3
"""How likely, against an ordinary card, a card near a top discard the seat refused is dealt to it."""
TAKEN_WEIGHT = 2.0
"""How likely, against an ordinary card, a card near a card the seat took is dealt to it."""
REFUSALS_READ = 4
"""Only a seat's latest refusals are read (its hand has changed since the older ones)."""


def _near(card: Card, codes: set[str], by_code: dict[str, Card]) -> bool:
    if not card.has_rank:
        return False
    for code in codes:
        other = by_code[code]
        if other.has_rank and (other.rank == card.rank
                               or (other.suit == card.suit and abs(other.rank - card.rank) == 1)):
            return True
    return False


def _take_code(pool: list[Card], code: str) -> Card | None:
    """Remove and return a card of ``code`` from ``pool`` (any copy), or None when none is left."""
    for index, card in enumerate(pool):
        if card.code == code:
            return pool.pop(index)
    return None


def _deal_weighted(pool: list[Card], count: int, weights: list[float], rng: random.Random) -> list[Card]:
    """``count`` cards drawn from ``pool`` (removed from it), each with its ``weights`` entry."""
    chosen = []
    for _ in range(min(count, len(pool))):
        index = rng.choices(range(len(pool)), weights)[0]
        chosen.append(pool.pop(index))
        weights.pop(index)
    return chosen


def _held(view: PlayerView, memory: Memory | None) -> dict[int, list[str]]:
    """Seat -> codes it took from the discard pile and has not shown since (on the table or the
    pile), for the other seats."""
    if memory is None:
        return {}
    shown = Counter(c.code for meld in view.melds for c in meld.shape.cards) + memory.gone()
    held = {}
    for seat, codes in memory.taken.items():
        if seat == view.seat:
            continue
        kept = Counter(codes) - shown
        shown = shown - Counter(codes)
        held[seat] = list(kept.elements())[:view.hand_sizes[seat]]
    return held


def sample_state(variant, view: PlayerView, memory: Memory | None, rng: random.Random) -> GameState:
    """One whole game state that ``view`` (a seat's own, its turn) and ``memory`` could come from.

    ``variant`` is the table's variant object. The other hands, the stock order and the unseen part
    of the discard pile are guesses (``rng``); the rest is the view's."""
    seat = view.seat
    top, start = view.discard_top, view.start_card
    exact = {c.key for c in view.hand} | {c.key for meld in view.melds for c in meld.shape.cards}
    exact |= {c.key for c in (top, start) if c is not None}
    pool = [c for c in variant.deck() if c.key not in exact]
    by_code = {c.code: c for c in variant.deck()}

    hands: list[list[Card]] = [[] for _ in range(view.players)]
    hands[seat] = list(view.hand)
    for other, codes in _held(view, memory).items():
        hands[other] = [card for card in (_take_code(pool, code) for code in codes) if card is not None]

    bottom = [start] if start is not None and start != top and view.discard_size > 1 else []
    middle_size = max(0, view.discard_size - len(bottom) - (top is not None))
    remembered = list(memory.pile[:-1]) if memory is not None else []
    if bottom and remembered and remembered[0] == start.code:
        remembered = remembered[1:]
    middle = [card for card in (_take_code(pool, code) for code in remembered[-middle_size:] if middle_size)
              if card is not None]

    rng.shuffle(pool)
    for other in range(view.players):
        if other == seat:
            continue
        wanted = view.hand_sizes[other] - len(hands[other])
        refused = set(memory.refused.get(other, [])[-REFUSALS_READ:]) if memory is not None else set()
        taken = set(memory.taken.get(other, [])) if memory is not None else set()
        weights = [(REFUSED_WEIGHT if _near(c, refused, by_code) else 1.0)
                   * (TAKEN_WEIGHT if _near(c, taken, by_code) else 1.0) for c in pool]
        hands[other].extend(_deal_weighted(pool, wanted, weights, rng))
        hands[other].sort()
    missing = middle_size - len(middle)
    middle = pool[:missing] + middle
    stock = pool[missing:]
    discard = bottom + middle + ([top] if top is not None else [])

    melds = list(view.melds)
    deal = DealState(
        number=view.deal_number, dealer=view.dealer, seed=f"{rng.getrandbits(64):016x}", hands=hands,
        stock=stock, discard=discard, melds=melds, turn=view.turn, phase=view.phase,
        taken_discard=view.taken_discard, rebuilds=view.rebuilds,
        played_before=[any(m.owner == s for m in melds) for s in range(view.players)],
        next_meld_id=max((m.id for m in melds), default=0) + 1, wild_rank=view.wild_rank,
        pending=list(view.pending), laid_down=list(view.laid_down),
        start_card=start)
    return GameState(variant, view.players, f"{rng.getrandbits(64):016x}", list(view.totals), deal,
                     last_result=view.last_result, streaks=list(view.streaks))
