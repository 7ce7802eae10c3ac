"""How likely a discard is to help another seat: the computer players' discard safety.

Every level that cares avoids discarding a card that can be laid off on a meld on the table, or
in Wild Rummy swapped for one of its wilds (the next player could take it and play it at once;
checked with the engine's ``extend_meld`` and ``swappable_wilds``). The
strong level also reads its memory: a card near what another seat took from the discard pile
(same rank, or the same suit within two places) is dangerous, one near what it refused is
safer.
In Frustration Rummy only the meld kinds of that seat's contract count (R4).
"""
from __future__ import annotations

from ..cards import Card, parse_card
from ..contracts import CONTRACTS
from ..errors import IllegalAction
from ..melds import RUN, SET, MeldRules, extend_meld, swappable_wilds
from ..state import PlayerView
from .memory import Memory

TABLE_FIT = 12.0
TAKEN_NEAR = 6.0
REFUSED_NEAR = 2.0
RUN_REACH = 2


def swaps_lay_off(variant) -> bool:
    """Whether a wild swap in ``variant`` (a variant object) leaves the hand a card shorter, like a
    lay-off: the freed wild must be played at once (W11, W6); not where a swap puts the wild in the
    hand (F13) or there are no swaps (R12)."""
    return variant.allows_swaps and variant.freed_wild_pending


def fits_table(card: Card, view: PlayerView, rules: MeldRules, variant) -> bool:
    """True when ``card`` could be laid off on some meld on the table (S9, W10, R11), or, where a
    swap is like a lay-off (``swaps_lay_off``), could replace a wild there (W11). ``variant`` is
    the table's variant object."""
    swaps = swaps_lay_off(variant)
    for meld in view.melds:
        if swaps and swappable_wilds(meld.shape, card, rules):
            return True
        try:
            extend_meld(meld.shape, (card,), rules)
        except IllegalAction:
            continue
        return True
    return False


def _near(card: Card, code: str, kinds: frozenset[str]) -> bool:
    other = parse_card(code)
    if not (other.has_rank and card.has_rank):
        return False
    if SET in kinds and other.rank == card.rank:
        return True
    return RUN in kinds and other.suit == card.suit and 0 < abs(other.rank - card.rank) <= RUN_REACH


def _kinds(view: PlayerView, seat: int, variant) -> frozenset[str]:
    if variant.has_contracts and not view.laid_down[seat]:
        return frozenset(kind for kind, _ in CONTRACTS[view.totals[seat]])
    return frozenset({SET, RUN})


def danger(card: Card, view: PlayerView, rules: MeldRules, memory: Memory | None, variant) -> float:
    """Points against discarding ``card``: table lay-offs, and with ``memory`` the other seats'
    takes (more danger) and refusals (less)."""
    if rules.is_wild(card):
        return 0.0
    score = TABLE_FIT if fits_table(card, view, rules, variant) else 0.0
    if memory is None:
        return score
    for seat in range(view.players):
        if seat == view.seat:
            continue
        kinds = _kinds(view, seat, variant)
        score += TAKEN_NEAR * sum(1 for code in memory.taken.get(seat, ()) if _near(card, code, kinds))
        score -= REFUSED_NEAR * sum(1 for code in memory.refused.get(seat, ())[-4:] if _near(card, code, kinds))
    return score
